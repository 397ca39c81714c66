"""Simulated annotators: who marks a planted claim, where the span starts and ends, which type it
gets, false alarms, and the overall impression.

**Humans** (a logistic marking model). Annotator ``a`` marks claim ``c`` of example ``e`` with
probability

    sigmoid(alpha_set + salience * z_c + example_effect * x_e + u_a + [c supported] * (false_alarm + v_a))

* ``z_c`` is the claim's *clarity score* (the probit of its clarity rank; supported claims add
  their family's vagueness) and ``x_e`` the example's effect (a summary that looks wrong to
  everyone), both shared by every annotator: agreement on *whether* a summary has an error
  comes from them;
* ``u_a`` (sensitivity) and ``v_a`` (false-alarm habit) are the annotator's own;
* ``alpha_set`` is solved per campaign, group and part (the 245 stage-2 examples or the rest) so
  that the *expected* span count equals the paper's (Table 4, and the 794 human spans), so group
  B's extra marking and stage 2's selectivity are set by the paper's counts.

A marked claim gets the claim's *perceived type* (drawn once per claim from the confusion row
of its true status, shared by all annotators) with probability ``type_agreement`` (per stage),
else the annotator's own reading of the same row, tilted by their Not Checkable / Misleading
lean (spread ``type_lean``). The span is, with probability ``partial``, one side of a word cut
of the claim phrase; else the claim's core, widened to the whole phrase (rarely the sentence)
with the annotator's widening habit, or trimmed.

The eight parameters in :attr:`HumanProcess.NAMES` are calibrated (:mod:`.calibration`) so
that human-human agreement matches Tables 5 and 6; the fitted values are the constants of
:data:`HUMAN`.

**LLMs** are set from Table 3 and 4 counts and never fitted to agreement: per campaign and part,
the expected number of flagged records equals spans / spans-per-error-record (Table 3) and the
expected span count equals Table 4 (stage-2 examples) and Table 3 minus Table 4 (the rest). Their
span widening (:data:`LLM_WIDENING`) was set by hand looking at Table 3's span lengths.

Every hand-set constant here is listed, with the paper figures it was chosen against, under
``constants`` in ``data/standin_provenance.yaml`` (a test fails on one it does not list).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from scipy.special import betainc, expit, ndtri

from ..categories import CATEGORIES
from ..corpora.reader import NO_ERROR_LABELS
from ..reference.paper import LLM_CAMPAIGNS as PAPER_LLM_CAMPAIGNS
from .summaries import INC, MIS, NC, VAGUE, Claim, Example

CONFUSION = {  # true status -> probabilities of (Not Checkable, Misleading, Incorrect) when marked
    "supported": (0.46, 0.46, 0.08),
    "not_checkable": (0.66, 0.30, 0.04),
    "misleading": (0.32, 0.64, 0.04),
    "incorrect": (0.18, 0.24, 0.58),
}
CLARITY_PRIOR = (2.0, 2.2)  # the Beta the text stage draws non-incorrect clarity from (summaries._summary)
HUMAN_REASONS = [
    "",
    "",
    "",
    "not in the description",
    "exaggerated",
    "the description says otherwise",
    "cannot verify this",
    "distance is wrong",
    "overstated",
]
LLM_REASON = {  # by type index
    0: "The description does not mention {x}, so the claim cannot be verified.",
    1: "The description only partly supports {x}; the summary overstates it.",
    2: "The description contradicts {x}.",
}
PAPER_NAME = {folder: name for name, folder in PAPER_LLM_CAMPAIGNS.items()}  # folder -> Table 3 row
LLM_MODELS = {  # folder: (model id, prompt), as the release's campaign configs name them
    "gemma-3": ("gemma-3-27b-it", "default"),
    "gpt-4o": ("gpt-4o-2024-08-06", "default"),
    "gpt-4o-ls": ("gpt-4o-2024-08-06", "less strict"),
    "o3-mini": ("o3-mini-2025-01-31", "default"),
    "o3-mini-ls": ("o3-mini-2025-01-31", "less strict"),
}
# P(an LLM span is widened beyond the claim's core), per campaign: set by hand looking at Table 3's
# average span lengths, whose order it follows only in part (gemma-3 above o3-mini (LS), which
# Table 3 has longest; gpt-4o and gpt-4o (LS) tied): data/standin_provenance.yaml, `constants`.
# So avg_len is tuned
LLM_WIDENING = {"gemma-3": 0.75, "gpt-4o": 0.45, "gpt-4o-ls": 0.45, "o3-mini": 0.2, "o3-mini-ls": 0.5}
LLM_PRIOR_WEIGHT = {"gemma-3": 0.55, "gpt-4o": 0.45, "gpt-4o-ls": 0.45, "o3-mini": 0.3, "o3-mini-ls": 0.3}
LLM_CAMPAIGNS = {  # folder: (model id, prompt, span widening, weight of own type prior)
    f: (*LLM_MODELS[f], LLM_WIDENING[f], LLM_PRIOR_WEIGHT[f]) for f in LLM_MODELS
}
LLM_FALSE_ALARM = 0.22  # weight of a supported claim against an error claim's clarity (LLMs)
HUMAN_TABLE4 = {("stage1", 0): "St. 1A", ("stage1", 1): "St. 1B", ("stage2", 0): "St. 2A", ("stage2", 1): "St. 2B"}
TYPE_INDEX = {NC: 0, MIS: 1, INC: 2}
WIDEN = 0.75  # humans' mean P(widening a span beyond the claim's core), for spans near the paper's 4 words
SENSITIVITY_SD = 0.5  # spread of a human's marking sensitivity u_a (logit)
FALSE_ALARM_SD = 0.5  # spread of a human's false-alarm habit v_a (logit)
IMPRESSION_DROP_SHARE = (0.75, 0.45)  # share of a type's drop a marked span takes off: the first, each later one
IMPRESSION_OFFSET_SD = 0.6  # spread of an annotator's own impression offset (their scale)
IMPRESSION_EXAMPLE_SD = 0.35  # spread of an example's effect on impressions, shared by all its raters
IMPRESSION_NOISE_SD = 0.9  # spread of a single rating's noise


@dataclass(frozen=True)
class HumanProcess:
    """The human annotation process: eight calibrated parameters, and three set ones."""

    salience: tuple[float, float]  # logit slope on the shared clarity score z_c, stage 1 and 2
    false_alarm: float  # logit offset of a supported claim (a false alarm)
    type_agreement: tuple[float, float]  # P(take the claim's shared perceived type), stage 1 and 2
    example_effect: float  # logit spread of an example effect shared by all annotators
    partial: float  # P(span covers one side of a word cut of the claim phrase)
    type_lean: float  # spread of an annotator's own Not Checkable vs Misleading lean (log-odds)
    widen: float = WIDEN  # set by hand: mean P(span extends beyond the claim's core), for 4-word spans
    sensitivity_sd: float = SENSITIVITY_SD  # set by hand: spread of u_a (logit)
    false_alarm_sd: float = FALSE_ALARM_SD  # set by hand: spread of v_a (logit)

    NAMES = (
        "salience_stage1",
        "salience_stage2",
        "false_alarm",
        "type_agreement_stage1",
        "type_agreement_stage2",
        "example_effect",
        "partial",
        "type_lean",
    )

    def vector(self) -> tuple[float, ...]:
        return (
            *self.salience,
            self.false_alarm,
            *self.type_agreement,
            self.example_effect,
            self.partial,
            self.type_lean,
        )

    def as_dict(self) -> dict:
        return dict(zip(self.NAMES, self.vector()))

    @classmethod
    def from_vector(cls, x, **fixed) -> HumanProcess:
        """From the calibrated parameters in :attr:`NAMES` order (set ones as keywords)."""
        x = [float(v) for v in x]
        return cls((x[0], x[1]), x[2], (x[3], x[4]), x[5], x[6], x[7], **fixed)


# Fitted by calibration.calibrate() (data/README.md, "Calibration"): rerun
# `python -m hotelcheckspan.simulation.calibration` to reproduce these values.
HUMAN = HumanProcess(
    salience=(0.0, 1.0), false_alarm=-1.0, type_agreement=(0.0, 0.4), example_effect=0.75, partial=0.0, type_lean=2.0
)


@dataclass
class Annotator:
    id: str
    group: int
    sens: float  # humans: logit sensitivity u_a; LLMs: 1
    false_alarm: float  # humans: logit false-alarm habit v_a
    loose: float  # probability of extending a span beyond its core
    offset: float  # impression offset
    lean: float = 0.0  # humans: log-odds lean towards Not Checkable over Misleading
    swap: float = 0.0  # LLMs: extra probability of swapping Misleading and Not Checkable
    type_prior: tuple | None = None  # LLMs: their own type preference (Table 3 shares)
    prior_weight: float = 0.0


@dataclass
class Latent:
    """What every human annotator shares about a claim: its clarity score and perceived type."""

    z: float
    shared_type: int
    x: float = 0.0  # the example's effect, the same for all its claims (a summary that looks wrong)


def claim_latents(examples: list[Example], rng: np.random.Generator) -> dict[int, list[Latent]]:
    """Per example (keyed by ``id``), the shared latents of its claims, in claim order."""
    out = {}
    for e in examples:
        lat = []
        x = float(rng.normal())
        for c in e.claims:
            z = float(ndtri(np.clip(betainc(*CLARITY_PRIOR, c.clarity), 1e-6, 1 - 1e-6)))  # probit of the Beta CDF
            if c.status == "supported":
                z += float(np.log(VAGUE.get(c.family, 0.8)))
            lat.append(Latent(z, int(rng.choice(3, p=CONFUSION[c.status])), x))
        out[id(e)] = lat
    return out


def human_pool(prefix: str, n: int, rng: np.random.Generator, process: HumanProcess) -> list[Annotator]:
    pool = []
    for i in range(n):
        pool.append(
            Annotator(
                id=f"{prefix}-a{i + 1:03d}",
                group=i % 2,
                sens=float(rng.normal(0, process.sensitivity_sd)),
                false_alarm=float(rng.normal(0, process.false_alarm_sd)),
                loose=float(np.clip(process.widen + rng.uniform(-0.2, 0.2), 0, 1)),
                offset=float(rng.normal(0, IMPRESSION_OFFSET_SD)),
                lean=float(rng.normal(0, process.type_lean)),
            )
        )
    return pool


def assign_batches(
    examples: list[Example], pool: list[Annotator], group: int, batch_size: int, rng: np.random.Generator
) -> list[tuple[Example, Annotator, int]]:
    members = [a for a in pool if a.group == group]
    order = [examples[i] for i in rng.permutation(len(examples))]
    batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
    who = list(rng.permutation(len(members))) + list(
        rng.integers(0, len(members), size=max(0, len(batches) - len(members)))
    )
    return [(e, members[who[b]], b + 1) for b, batch in enumerate(batches) for e in batch]


def targets(paper: dict) -> dict:
    """Expected span counts and flagged records per (campaign, group, part), part = on the 245
    stage-2 examples or not: ``{key: (spans, flagged records or None)}``."""
    t4, t3 = paper["table4_dataset_level_stage2_subset"], paper["table3_llm_campaigns"]
    s1_total = paper["dataset"]["human_spans"] - t4["St. 2A"]["total"] - t4["St. 2B"]["total"]
    s1_sub = t4["St. 1A"]["total"] + t4["St. 1B"]["total"]
    out = {}
    for (camp, g), name in HUMAN_TABLE4.items():
        out[(camp, g, True)] = (t4[name]["total"], None)
        if camp == "stage1":
            out[(camp, g, False)] = ((s1_total - s1_sub) * t4[name]["total"] / s1_sub, None)
    for folder, name in PAPER_NAME.items():
        per_error = t3[name]["spans_per_error_record"]
        on, off = t4[name]["total"], t3[name]["total"] - t4[name]["total"]
        out[(folder, 0, True)] = (on, on / per_error)
        out[(folder, 0, False)] = (off, off / per_error)
    return out


def _bisect(f, target: float, lo: float, hi: float, iters: int = 60) -> float:
    """x in [lo, hi] with increasing f(x) == target (clamped to the ends)."""
    if f(lo) >= target:
        return lo
    while f(hi) < target and hi < 1e6:
        hi *= 2
    for _ in range(iters):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < target else (lo, mid)
    return (lo + hi) / 2


# --- humans ---------------------------------------------------------------------------------


def _human_logits(todo, latents, process: HumanProcess, stage: int) -> np.ndarray:
    """Logit of marking, without alpha, for every (example, annotator) pair's claims in order."""
    x = []
    for e, a, _ in todo:
        for c, lat in zip(e.claims, latents[id(e)]):
            v = process.salience[stage - 1] * lat.z + process.example_effect * lat.x + a.sens
            if c.status == "supported":
                v += process.false_alarm + a.false_alarm
            x.append(v)
    return np.array(x)


def solve_alpha(logits: np.ndarray, target: float) -> float:
    """alpha with sum(sigmoid(alpha + logits)) == target (the expected span count), by bisection."""
    if target <= 0 or logits.size == 0:
        return -np.inf
    lo, hi = -30.0, 30.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if expit(mid + logits).sum() < target else (lo, mid)
    return (lo + hi) / 2


def _span_for(
    c: Claim, summary: str, loose: float, extra_words: float, rng: np.random.Generator, partial: float = 0.0
) -> tuple[int, int]:
    """Character span an annotator selects for a claim: with probability ``partial`` one side of
    a random word cut of the claim phrase (the predicate or the place, say); else the core,
    widened (probability ``loose``) or trimmed by habit."""
    if partial and rng.random() < partial:
        words = list(re.finditer(r"\S+", summary[c.start : c.end]))
        if len(words) > 1:
            k = int(rng.integers(1, len(words)))
            part = words[:k] if rng.random() < 0.5 else words[k:]
            return c.start + part[0].start(), c.start + part[-1].end()
    s, e = c.core_start, c.core_end
    u = rng.random()
    if u < loose:  # widen to the whole claim phrase, sometimes further into the sentence
        s, e = c.start, c.end
        if rng.random() < extra_words:
            s = 0
            e = len(summary.rstrip("."))
    elif u < loose + 0.12:  # trim to the last word(s) of the core
        words = list(re.finditer(r"\S+", summary[s:e]))
        if len(words) > 1:
            k = int(rng.integers(1, len(words)))
            s = s + words[k].start()
    return s, e


def _place(spans: list[dict], c: Claim, s: int, e: int) -> tuple[int, int] | None:
    """Overlapping spans cannot be made in the paper's interface: fall back to the core, or skip."""
    if any(s < x["end"] and x["start"] < e for x in spans):
        s, e = c.core_start, c.core_end
        if any(s < x["end"] and x["start"] < e for x in spans):
            return None
    return s, e


def annotate_human(
    a: Annotator,
    e: Example,
    latents: list[Latent],
    alpha: float,
    process: HumanProcess,
    stage: int,
    rng: np.random.Generator,
) -> list[dict]:
    spans = []
    agree = process.type_agreement[stage - 1]
    for c, lat in zip(e.claims, latents):
        v = alpha + process.salience[stage - 1] * lat.z + process.example_effect * lat.x + a.sens
        if c.status == "supported":
            v += process.false_alarm + a.false_alarm
        if rng.random() >= expit(v):
            continue
        where = _place(spans, c, *_span_for(c, e.summary, a.loose, 0.03, rng, process.partial))
        if where is None:
            continue
        t = lat.shared_type if rng.random() < agree else _own_type(a, c, rng)
        spans.append({"type": t, "start": where[0], "end": where[1], "claim": c})
    return sorted(spans, key=lambda x: x["start"])


def _own_type(a: Annotator, c: Claim, rng: np.random.Generator) -> int:
    """The annotator's own reading: the confusion row of the claim's status, tilted by the
    annotator's Not Checkable / Misleading lean."""
    p = np.array(CONFUSION[c.status]) * np.array([np.exp(a.lean / 2), np.exp(-a.lean / 2), 1.0])
    return int(rng.choice(3, p=p / p.sum()))


# --- LLMs -----------------------------------------------------------------------------------


def llm_annotator(folder: str, paper: dict) -> Annotator:
    _, _, loose, prior_w = LLM_CAMPAIGNS[folder]
    row = paper["table3_llm_campaigns"][PAPER_NAME[folder]]
    prior = np.array([row[NC], row[MIS], row[INC]], dtype=float) + 0.5
    return Annotator(
        id=folder,
        group=0,
        sens=1.0,
        false_alarm=1.0,
        swap=0.05,
        loose=loose,
        offset=0.0,
        type_prior=tuple(prior / prior.sum()),
        prior_weight=prior_w,
    )


def _llm_weights(e: Example) -> np.ndarray:
    return np.array(
        [
            LLM_FALSE_ALARM * c.vague
            if c.status == "supported"
            else c.clarity * (1.25 if c.status == "incorrect" else 1.0)
            for c in e.claims
        ]
    )


def solve_llm(examples: list[Example], spans: float, flagged: float) -> tuple[float, float]:
    """Scales (s1, s2): a record is flagged with probability min(1, s1 * sum of its claims'
    weights), its first span falls on a claim drawn by weight, and every other claim is marked
    with probability min(1, s2 * weight); s1 makes the expected flagged records ``flagged``,
    s2 the expected spans ``spans``."""
    if spans <= 0 or flagged <= 0:
        return 0.0, 0.0
    w = [_llm_weights(e) for e in examples]
    total = np.array([x.sum() for x in w])
    s1 = _bisect(lambda s: float(np.minimum(1, s * total).sum()), min(flagged, len(w) - 1e-6), 0.0, 1.0)
    q = np.minimum(1, s1 * total)

    def expected(s2):
        return float(sum(qe * ((1 - x / x.sum()) * np.minimum(1, s2 * x)).sum() for qe, x in zip(q, w)))

    s2 = _bisect(expected, spans - q.sum(), 0.0, 1.0) if spans > q.sum() else 0.0
    return s1, s2


def _pick_llm_type(a: Annotator, c: Claim, rng: np.random.Generator) -> int:
    probs = (1 - a.prior_weight) * np.array(CONFUSION[c.status]) + a.prior_weight * np.array(a.type_prior)
    t = int(rng.choice(3, p=probs / probs.sum()))
    if t in (0, 1) and rng.random() < a.swap:
        t = 1 - t
    return t


def annotate_llm(a: Annotator, e: Example, s1: float, s2: float, rng: np.random.Generator) -> list[dict]:
    w = _llm_weights(e)
    if rng.random() >= min(1.0, s1 * w.sum()):
        return []
    first = int(rng.choice(len(w), p=w / w.sum()))
    marked = [i == first or rng.random() < min(1.0, s2 * w[i]) for i in range(len(w))]
    spans = []
    for i in sorted(range(len(w)), key=lambda i: i != first):  # the first span is always placed
        if not marked[i]:
            continue
        c = e.claims[i]
        where = _place(spans, c, *_span_for(c, e.summary, a.loose, 0.2, rng))
        if where is None:
            continue
        spans.append({"type": _pick_llm_type(a, c, rng), "start": where[0], "end": where[1], "claim": c})
    return sorted(spans, key=lambda x: x["start"])


# --- impressions and the whole annotation stage ----------------------------------------------


def impression(spans: list[dict], a: Annotator, quality: float, paper: dict, rng: np.random.Generator) -> int:
    imp = paper["impressions"]
    drops = {CATEGORIES.index(t): imp["by_type"][t]["drop"] for t in CATEGORIES}
    value = imp["mean_no_error"] + a.offset + quality + rng.normal(0, IMPRESSION_NOISE_SD)
    for k, s in enumerate(sorted(spans, key=lambda x: -drops[x["type"]])):
        value -= drops[s["type"]] * IMPRESSION_DROP_SHARE[min(k, 1)]
    return int(min(7, max(1, round(value))))


CAMPAIGN_ORDER = ["stage1", "stage2", *LLM_CAMPAIGNS]  # fixes each campaign's random stream


def annotate(
    examples: list[Example],
    paper: dict,
    seed: tuple[int, ...],
    process: HumanProcess = HUMAN,
    parts: tuple[bool, ...] = (True, False),
    llms: bool = True,
) -> dict[str, list[dict]]:
    """Every campaign's simulated records, per campaign: dicts with ``example, spans,
    annotator_group`` and for humans ``annotator_id, stage, batch, impression, no_errors_label``.

    ``seed`` (integers) roots independent random streams: one for the claims' shared latents,
    one for the annotator pools, batches and example effects on impressions, and one per
    campaign, group and part, so that any part can be simulated alone and comes out exactly as
    in the whole corpus. ``parts`` restricts to the stage-2 examples (True) and/or the rest
    (False); ``llms=False`` skips the LLM campaigns (calibration simulates only the humans)."""
    seed = tuple(int(x) for x in np.atleast_1d(seed))
    want = targets(paper)
    latents = claim_latents(examples, np.random.default_rng([*seed, 0]))
    rng = np.random.default_rng([*seed, 1])
    jobs: dict[tuple[str, int], list[tuple[Example, Annotator, int]]] = {}
    pools = {
        "stage1": human_pool("s1", paper["campaigns"]["stage1"]["annotators"], rng, process),
        "stage2": human_pool("s2", paper["campaigns"]["stage2"]["qualified"], rng, process),
    }
    for camp, pool in pools.items():
        subset = examples if camp == "stage1" else [e for e in examples if e.stage2]
        size = paper["campaigns"][camp]["batch_size"]
        size -= paper["campaigns"][camp].get("attention_checks_per_batch", 0)
        for g in (0, 1):
            jobs[(camp, g)] = assign_batches(subset, pool, g, size, rng)
    if llms:
        for folder in LLM_CAMPAIGNS:
            a = llm_annotator(folder, paper)
            jobs[(folder, 0)] = [(e, a, 0) for e in examples]

    quality = {id(e): float(rng.normal(0, IMPRESSION_EXAMPLE_SD)) for e in examples}
    out: dict[str, list[dict]] = {}
    for (camp, g), todo in jobs.items():
        for part in parts:
            rng = np.random.default_rng([*seed, 2, CAMPAIGN_ORDER.index(camp), g, int(part)])
            chosen = [(e, a, b) for e, a, b in todo if e.stage2 == part]
            spans_target, flagged_target = want.get((camp, g, part), (0.0, None))
            if camp in LLM_CAMPAIGNS:
                s1, s2 = solve_llm([e for e, _, _ in chosen], spans_target, flagged_target)
            else:
                stage = int(camp[-1])
                alpha = solve_alpha(_human_logits(chosen, latents, process, stage), spans_target)
            for e, a, batch in chosen:
                if camp in LLM_CAMPAIGNS:
                    spans = annotate_llm(a, e, s1, s2, rng)
                    for s in spans:
                        s["reason"] = LLM_REASON[s["type"]].format(x=f"'{e.summary[s['start'] : s['end']]}'")
                    rec = {"example": e, "spans": spans, "annotator_group": 0}
                else:
                    spans = annotate_human(a, e, latents[id(e)], alpha, process, stage, rng)
                    for s in spans:
                        s["reason"] = HUMAN_REASONS[rng.integers(len(HUMAN_REASONS))]
                    rec = {
                        "example": e,
                        "spans": spans,
                        "annotator_id": a.id,
                        "annotator_group": g,
                        "stage": stage,
                        "batch": batch,
                        "impression": impression(spans, a, quality[id(e)], paper, rng),
                        "no_errors_label": NO_ERROR_LABELS[g],
                    }
                out.setdefault(camp, []).append(rec)
    return out
