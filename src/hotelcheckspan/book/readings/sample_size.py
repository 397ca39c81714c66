"""Chapter 09 (how many examples does it take?): the numbers and readings its prose needs.

The resampling itself is slow, so the chapter computes its tables once (``sample_size.stability``,
``stable_n_summary``, ``interval_widths``, ``impression_power``, ...) and passes them here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...analyses import sample_size as ss
from ...annotator_sets import display_name, groups_of
from ...reference import paper
from .. import labels, prose, tables
from . import Passage, simulated_only


def stability_table(within: pd.DataFrame, sizes: Sequence[int]):
    """``ss.stability`` as a table of the share in the same order per measure, pair and test-set
    size: a few sizes open, every size in a dropdown."""
    curves = within.pivot_table(index=["measure", "pair"], columns="n", values="same_order", sort=False)
    sizes = list(sizes)
    return tables.folded(
        tables.show(curves.reset_index().rename(columns=str), decimals=3),
        ["Measure", "Pair", *map(str, sizes[:: len(sizes) // 2])],
        "Every test-set size",
    )


def widths_table(widths: pd.DataFrame, sizes: Sequence[int]) -> tables.Table:
    """``ss.interval_widths`` at the given numbers of examples, one column each."""
    shown = widths[widths["n"].isin(list(sizes))]
    shown = shown.pivot_table(index=["measure", "system"], columns="n", values="width", sort=False)
    return tables.show(shown.reset_index().rename(columns=str), decimals=3)


MEASURES = (("soft", "span F1 (soft)"), ("hard", "span F1 (hard)"), ("bacc", "balanced accuracy"))
SQUARE_ROOT = 0.05  # a log-log slope within this of -1/2 "follows the square-root law"
TARGET_POWER = 0.8
TABLE_DECIMALS = 3  # the chapter shows its tables with three decimals; the prose quotes them as shown
CONVENTION_TEXT = {
    "either": "span lengths counted on every example either side marked",
    "both": "span lengths counted only on examples both sides marked",
}


def _n(value, decimals: int = 2) -> str:
    return tables.number(value, decimals)


def _pair(pair: str, joiner: str = " > ") -> str:
    """A pair ("gpt-4o > gpt-4o-ls") in display names ("gpt-4o > gpt-4o (LS)")."""
    return joiner.join(display_name(p) for p in pair.split(" > "))


def _prompt_pair(pair: str) -> bool:
    """Whether a pair ("gpt-4o > gpt-4o-ls") is the two prompts of one model."""
    a, b = pair.split(" > ")
    return a.removesuffix("-ls") == b.removesuffix("-ls")


def stability_readings(summary: pd.DataFrame, corpus_size: int, smallest_n: int) -> dict[str, str]:
    """Per measure: how many pairs are ordered from the smallest size, how many need more than the
    corpus, and the hardest pair with its n and interval (``sample_size.stable_n_summary``)."""
    s = summary.assign(rank_n=summary["n_with_replacement"].replace(np.inf, 1e12))
    max_n = int(s["max_n"].iloc[0])
    out: dict[str, str] = {}
    hardest_pairs = []
    for key, measure in MEASURES:
        part = s[(s["measure"] == measure) & (s["difference"] != 0)]
        hardest = part.sort_values(["rank_n", "difference"], ascending=[False, True]).iloc[0]
        hardest_pairs.append(hardest["pair"])
        out |= {
            f"{key}_early": _n(int((part["n_with_replacement"] <= smallest_n).sum())),
            f"{key}_beyond": _n(int((part["n_with_replacement"] > corpus_size).sum())),
            f"{key}_hard_pair": _pair(hardest["pair"]),
            f"{key}_hard_diff": _n(hardest["difference"], TABLE_DECIMALS),
            f"{key}_hard_n": ss.describe_n(hardest["n_with_replacement"], hardest["max_n"]),
            f"{key}_hard_ci": (
                f"{ss.describe_n(hardest['n_low'], hardest['max_n'])} to "
                f"{ss.describe_n(hardest['n_high'], hardest['max_n'])}"
            ),
        }
    for key, measure in MEASURES:
        ties = s[(s["measure"] == measure) & (s["difference"] == 0)]["pair"].map(lambda p: _pair(p, " and "))
        out[f"{key}_ties"] = f"Tied on the full set, and so never ranked: {prose.names(ties)}." if len(ties) else ""
    soft_all = s[(s["measure"] == "span F1 (soft)") & (s["difference"] != 0)]
    unsettled = soft_all[soft_all["n_with_replacement"] > smallest_n]
    out |= {
        "gap_unsettled": _n(unsettled["difference"].max(), 3) if len(unsettled) else "zero",
        "close_pairs": prose.names(unsettled["pair"].map(lambda p: _pair(p, " vs "))) if len(unsettled) else "none",
        "close_n": ss.describe_n(unsettled["n_with_replacement"].min(), max_n) if len(unsettled) else "no more",
    }
    median_bacc = s[(s["measure"] == "balanced accuracy") & (s["difference"] != 0)]["rank_n"].median()
    median_soft = soft_all["rank_n"].median()
    for key, median in (("bacc_median", median_bacc), ("soft_median", median_soft)):
        out[key] = ss.describe_n(median if median < 1e12 else np.inf, max_n)
    out["bacc_vs_soft"] = (
        "less stably than"
        if median_bacc > median_soft
        else "more stably than"
        if median_bacc < median_soft
        else "about as stably as"
    )
    n_prompt = sum(map(_prompt_pair, hardest_pairs))
    out["prompt_pairs_hardest"] = _n(n_prompt)
    out["n_measures"] = _n(len(MEASURES))
    return out


def _enough(needs: pd.DataFrame, corpus_size: int) -> str:
    """Whether ``corpus_size`` examples order every pair of ``needs`` (rows of one measure of
    ``sample_size.needs_at_paper_gaps``) at the paper's gaps, and over their rounding."""
    if needs["n_paper"].max() > corpus_size:
        return "not enough"
    if needs["n_paper_high"].max() > corpus_size:
        return "enough at the printed gaps, though not at the narrowest gaps their rounding allows"
    return "enough"


def paper_gap_readings(needs: pd.DataFrame, corpus_size: int) -> dict[str, str]:
    """The examples the paper's own comparisons need (``sample_size.needs_at_paper_gaps``): per
    measure (soft and hard span F1) the pair the paper's Table 6 has closest, its gap, the
    examples at it and over the gap's rounding, the normal approximation's answer, and whether the
    corpus' examples are enough. The readings rest on the paper's gaps, never this corpus' own."""
    out: dict[str, str] = {}
    for key, measure in MEASURES[:2]:
        part = needs[needs["measure"] == measure]
        closest = part.sort_values(["n_paper", "paper_gap"], ascending=[False, True]).iloc[0]
        m = int(closest["max_n"])
        out |= {
            f"{key}_paper_pair": _pair(closest["pair"], " and "),
            f"{key}_paper_gap": _n(closest["paper_gap"]),
            f"{key}_paper_range": f"{_n(closest['paper_gap_low'])} to {_n(closest['paper_gap_high'])}",
            f"{key}_paper_n": ss.describe_n(closest["n_paper"], m),
            f"{key}_paper_n_range": (
                f"{ss.describe_n(closest['n_paper_low'], m)} to {ss.describe_n(closest['n_paper_high'], m)}"
            ),
            f"{key}_paper_normal": ss.describe_n(closest["n_normal"], m),
            f"{key}_paper_word": _enough(part, corpus_size),
            f"{key}_own_gap": _n(closest["gap"], TABLE_DECIMALS),
            f"{key}_own_n": ss.describe_n(closest["n_own"], m),
            f"{key}_gap_vs_paper": prose.compare(
                abs(closest["gap"]), closest["paper_gap"], 2, "wider than", "narrower than"
            ),
        }
    out["gap_max_n"] = f"{int(needs['max_n'].max()):,}"
    return out


def width_readings(widths: pd.DataFrame, kappa_table, corpus_size: int) -> dict[str, str]:
    """Interval widths (``sample_size.interval_widths``): the soft human-human F1's at the corpus
    size and its log-log slope, and Fleiss' kappa with its interval."""
    soft = widths[(widths["measure"] == "span F1 (soft)") & (widths["system"] == "human-human")]
    slope = ss.width_slope(soft).iloc[0]
    kappa_ci = widths[(widths["measure"] == kappa_table.measure) & (widths["n"] == corpus_size)].iloc[0]
    return {
        "w_soft_full": _n(soft.loc[soft["n"] == corpus_size, "width"].iloc[0], 3),
        "w_slope": _n(slope["slope"]),
        "w_ratio": _n(slope["halving_factor"], 1),
        "square_root": (
            "follow the square-root law"
            if abs(slope["slope"] + 0.5) <= SQUARE_ROOT
            else "do not follow the square-root law"
        ),
        "kappa": _n(kappa_table.full()[0], 3),
        "w_kappa_full": _n(kappa_ci["width"], 3),
        "kappa_word": "enough" if kappa_ci["low"] > 0 else "not enough",
    }


def power_readings(ratings: pd.DataFrame, power: pd.DataFrame, largest: int, paper_effects=None) -> dict[str, str]:
    """The impression tests' power: at the paper's own effects (Cohen's d implied by its t and
    group sizes, its r; ``sample_size.paper_impression_effects``), the records statsmodels needs,
    on which the reading rests; beside them this corpus' effects, its resampled power
    (``sample_size.impression_power`` up to ``largest`` records) and statsmodels' answer."""
    effects = ss.impression_effects(ratings)
    theirs = ss.paper_impression_effects() if paper_effects is None else paper_effects
    need = ss.records_for_power(ratings, power=TARGET_POWER).set_index("test")["records"]
    first = ss.first_power(power, "resampled", power=TARGET_POWER).set_index("test")["n"]
    paper_need = max(theirs["t_records_high"], theirs["r_records_high"])
    return {
        "records": f"{effects['records']:,}",
        "d": _n(effects["d"]),
        "r": _n(effects["r"]),
        "t_n80": ss.describe_n(first.iloc[0], largest),
        "r_n80": ss.describe_n(first.iloc[1], largest),
        "t_sm80": _n(int(need.iloc[0])),
        "r_sm80": _n(int(need.iloc[1])),
        "target": f"{TARGET_POWER:.0%}",
        "paper_t": str(paper.value("impressions/t_errors_vs_none")),
        "paper_r": _n(theirs["r"]),
        "paper_d": _n(theirs["d"]),
        "paper_records": f"{theirs['records']:,}",
        "paper_t80": _n(int(theirs["t_records"])),
        "paper_r80": _n(int(theirs["r_records"])),
        "paper_t80_range": f"{int(theirs['t_records_low'])} to {int(theirs['t_records_high'])}",
        "paper_r80_range": f"{int(theirs['r_records_low'])} to {int(theirs['r_records_high'])}",
        "power_word": (
            "a small fraction of"
            if paper_need < theirs["records"] / 5
            else "fewer than"
            if paper_need <= theirs["records"]
            else "more than"
        ),
        "d_vs_paper": prose.compare(effects["d"], theirs["d"], 2, "larger than", "smaller than"),
    }


def power_table(ratings: pd.DataFrame, paper_effects=None) -> pd.DataFrame:
    """The impression tests' effects and the records for 80% power, the paper's beside this
    corpus': columns ``quantity, paper, this corpus``, as text for readers (counts whole, other
    figures at two decimals; the paper's implied by its t, r and records,
    ``sample_size.paper_impression_effects``)."""
    effects = ss.impression_effects(ratings)
    theirs = ss.paper_impression_effects() if paper_effects is None else paper_effects
    need = ss.records_for_power(ratings, power=TARGET_POWER).set_index("test")["records"]
    rows = [
        ("Cohen's d, errors vs none", theirs["d"], effects["d"]),
        ("r, error count and impression", theirs["r"], effects["r"]),
        ("share of records without an error", theirs["share_no_error"], effects["share_no_error"]),
        (f"records for {TARGET_POWER:.0%} power, t-test", theirs["t_records"], need.iloc[0]),
        (f"records for {TARGET_POWER:.0%} power, correlation", theirs["r_records"], need.iloc[1]),
        ("records rated", theirs["records"], effects["records"]),
    ]
    text = [(q, *(_n(v) if v != int(v) else f"{int(v):,}" for v in values)) for q, *values in rows]
    return pd.DataFrame(text, columns=["quantity", "paper", "this corpus"])


def public_readings(real, real_summary: pd.DataFrame | None, real_n: int | None, real_max_n: int | None):
    """The public corpus' stability (chapter 08's corpus), or why there is none."""
    if real is None or real_summary is None:
        return {
            "public_reading": "This build has no copy of the public corpus (hotelcheckspan.paths.REAL_CORPUS), so "
            "this section has nothing to compute; rebuild with the corpus in data/ to fill it.",
            "public_examples": "an unknown number of",
        }
    soft = real_summary[(real_summary["measure"] == "span F1 (soft)") & (real_summary["difference"] != 0)]
    beyond = int((soft["n_with_replacement"] > real_n).sum())
    never = int((~np.isfinite(soft["n_high"])).sum())
    humans = [g for c in real.campaigns("human") for g in groups_of(real, c)]
    return {
        "public_examples": _n(real_n),
        "public_reading": (
            f"The public corpus has {real_n} examples annotated by {len(real.campaigns('model'))} LLM campaigns and "
            f"{len(humans)} human annotator groups, {len(soft)} pairs of campaigns with different soft F1. Drawing "
            f"with replacement, {beyond} of these pairs need more than {real_n} examples to be ordered as on the "
            f"full set in {ss.THRESHOLD:.0%} of test sets, and for {never} the upper end of the interval is beyond "
            f"{real_max_n:,} examples. With {real_n} examples the corpus can order LLM annotators only where they "
            f"differ grossly; telling close ones apart takes far more than {real_n} examples."
        ),
    }


def _crossing(fine: pd.DataFrame, fine_draws: int, n_resamples: int, table_n: str, grid) -> str:
    """Why Monte Carlo answers differ: where a precise curve (``fine``, ``fine_draws`` draws per
    size) crosses the threshold, and which grid sizes a curve of ``n_resamples`` draws can
    therefore report as the first stable one."""
    f = fine.sort_values("n").reset_index(drop=True)
    reached = f.index[f["same_order"] >= ss.THRESHOLD]
    if not len(reached) or reached[0] == 0:
        return ""
    k = reached[0]
    lo, hi = f.iloc[k - 1], f.iloc[k]
    half = 1.96 * np.sqrt(ss.THRESHOLD * (1 - ss.THRESHOLD) / n_resamples)  # Wilson/Wald half-width there
    candidates = [int(lo["n"])] if ss.THRESHOLD - lo["same_order"] < half else []
    candidates.append(int(hi["n"]))
    if hi["same_order"] - ss.THRESHOLD < half and k + 1 < len(f):
        candidates.append(int(f.iloc[k + 1]["n"]))
    text = (
        f" With {fine_draws:,} draws per size the share of test sets in the same order is "
        f"{_n(lo['same_order'], 3)} at {int(lo['n']):,} examples and {_n(hi['same_order'], 3)} at {int(hi['n']):,}, "
        f"the next size of the planning grid, so the curve crosses {ss.THRESHOLD:.0%} between the two"
    )
    if len(candidates) > 1:
        text += (
            f"; a curve of {n_resamples:,} draws is uncertain by about {_n(half, 3)} either way there, so its first "
            f"stable size is {prose.names(f'{c:,}' for c in candidates).replace(' and ', ' or ')} with the seed."
        )
    else:
        text += f", beyond the Monte Carlo error of a curve of {n_resamples:,} draws (about {_n(half, 3)})."
    if grid is not None:
        coarse = [int(g) for g in grid if g >= hi["n"]]
        if coarse and table_n == f"{coarse[0]:,}":
            text += (
                f" The smallest-stable-n table's grid is coarser ({len(grid)} sizes), and its first size past the "
                f"crossing is {coarse[0]:,}: that is its answer."
            )
    return text


def plan_reading(plan, summary: pd.DataFrame) -> str:
    """The planning answer set beside the smallest-stable-n table's row for the same pair and
    measure (soft span F1, with replacement): two Monte Carlo estimates on different grids of
    sizes and different seeds, which need not give the same n."""
    pair = f"{plan['better']} > {plan['worse']}"
    row = summary[(summary["measure"] == "span F1 (soft)") & (summary["pair"] == pair)]
    if row.empty:
        return ""
    r = row.iloc[0]
    m = int(r["max_n"])
    overlap = not (plan["n_high"] < r["n_low"] or r["n_high"] < plan["n_low"])
    return (
        f"The smallest-stable-n table above gives this pair {ss.describe_n(r['n_with_replacement'], m)} "
        f"(interval {ss.describe_n(r['n_low'], m)} to {ss.describe_n(r['n_high'], m)}) by soft span F1 with "
        f"replacement, where this answer is {ss.describe_n(plan['n_needed'], plan['max_n'])}: both are estimates "
        "from random test sets, on different grids of sizes and seeds, and their intervals "
        + ("overlap, so they do not disagree." if overlap else "do not overlap.")
    )


def plan_readings(
    plan, summary: pd.DataFrame, board=None, fine=None, fine_draws: int = 0, grid=None, n_resamples: int = 1000
) -> dict[str, str]:
    """The planning answer beside the smallest-stable-n table's row for the same pair (soft span
    F1, with replacement) and chapter 10's leaderboard (``board``, ``judges.leaderboard``), and
    why they differ: ``fine`` is ``sample_size.stability`` of the pair with ``fine_draws`` draws
    on sizes of the planning grid around the answers, ``grid`` the smallest-stable-n table's
    sizes. ``plan_reading``: the two answers of this chapter (:func:`plan_reading`); ``ch10_reading``: chapter 10's
    answer and what its call shares with this one (it follows the chapter's "{chapter}`10`'s
    leaderboard ..." in the notebook, where the role is rendered); ``crossing_reading``: why."""
    pair = f"{plan['better']} > {plan['worse']}"
    row = summary[(summary["measure"] == "span F1 (soft)") & (summary["pair"] == pair)]
    if row.empty:
        return {"plan_reading": "", "ch10_reading": "does not compare these two.", "crossing_reading": ""}
    r = row.iloc[0]
    table_n = ss.describe_n(r["n_with_replacement"], int(r["max_n"]))
    out = {
        "plan_reading": plan_reading(plan, summary),
        "ch10_reading": "does not order these two as neighbours, so it gives no answer for them.",
        "crossing_reading": "",
    }
    hit = board[(board["judge"] == plan["better"]) & (board["next"] == plan["worse"])] if board is not None else []
    if len(hit):
        h = hit.iloc[0]
        worse = board.loc[board["judge"] == plan["worse"], "f1_soft"]
        same = np.isclose(h["f1_soft"], plan["score_better"]) and np.isclose(worse.iloc[0], plan["score_worse"])
        out["ch10_reading"] = f"answers {ss.describe_n(h['n_needed'], plan['max_n'])} for the same pair: " + (
            "it makes this call, with the same soft span F1 scores (the same human sets, examples and span-F1 "
            "definition) and the same grid of sizes, but its own random seed."
            if same
            else f"it scores them {_n(h['f1_soft'], 3)} and {_n(worse.iloc[0], 3)}, on other terms than this call."
        )
    if fine is not None and len(fine):
        out["crossing_reading"] = _crossing(fine, fine_draws, n_resamples, table_n, grid).strip()
    return out


def prompt_differences(systems) -> str:
    """What separates the two prompts of a model in the generator: each has its own rows of
    Tables 3 and 4 (span counts, spans per error record, type shares); beyond those, the hand-set
    parameters of :data:`simulation.annotators.LLM_CAMPAIGNS` (span widening, weight of the
    type preference) they do or do not share."""
    from ...simulation.annotators import LLM_CAMPAIGNS

    names = ("span widening", "weight of its type preference")
    said = []
    for m in systems:
        base = m.removesuffix("-ls")
        if m == base or base not in systems or base not in LLM_CAMPAIGNS or m not in LLM_CAMPAIGNS:
            continue
        differ = [n for n, a, b in zip(names, LLM_CAMPAIGNS[base][2:], LLM_CAMPAIGNS[m][2:]) if a != b]
        said.append(
            f"{base}'s two differ in {prose.names(differ)}" if differ else f"{base}'s two share every other parameter"
        )
    return prose.names(said)


def _simulation(systems) -> str:
    """What the stand-in's LLM campaigns were built from, labels by rule."""
    counts = labels.kind("table4_dataset_level_stage2_subset/gpt-4o/total")
    f1 = labels.kind("table6_span_level/Human - LLM (GPT-4o)/F1_S")
    majority = labels.kind("llm_majority_alignment")
    agreement = f"*{f1}*" if f1 == majority else f"*{f1}* (span F1) and *{majority}* (against the majority)"
    prompts = prompt_differences(systems)
    return (
        "In the simulation the answer depends on how far apart the LLM campaigns were set: their span counts "
        f"are *{counts}* from the paper's Tables 3 and 4, their agreement with the humans is {agreement}"
        + (
            ". The two prompts of a model are set from their own rows of Tables 3 and 4 (span counts, spans per "
            f"error record, type shares); beyond those, {prompts}, so they differ by little more than how much "
            "and which types they mark. The real prompt variants may differ more."
            if prompts
            else "."
        )
    )


def _paper_gap_note(gaps: dict[str, str], corpus_size: int) -> str:
    """Why the stand-in's own gaps cannot answer for the paper (shown on a simulated corpus)."""
    return (
        f"The stand-in's own gaps are simulated and say nothing of the paper's: by soft span F1 its gap between "
        f"{gaps['soft_paper_pair']} is {gaps['soft_own_gap']}, {gaps['soft_gap_vs_paper']} the paper's "
        f"{gaps['soft_paper_gap']}, and at its own gap the pair needs {gaps['soft_own_n']} examples where the "
        f"paper's needs {gaps['soft_paper_n']}; by hard span F1, {gaps['hard_own_gap']} against "
        f"{gaps['hard_paper_gap']}, {gaps['hard_own_n']} examples against {gaps['hard_paper_n']}. Only the spread "
        f"of a test set's difference is taken from the stand-in's {corpus_size} examples, and the real examples "
        "may spread more or less."
    )


def bases(corpus) -> dict[str, Passage]:
    """What each Summary bullet of chapter 09 rests on (:func:`hotelcheckspan.book.labels.basis`):
    the paper's gaps and effects, and the stand-in's spread between examples, which the paper does
    not report."""
    spread = ("the spread of the LLM rows between examples", "table6_span_level/Human - LLM (GPT-4o)/F1_S")
    return {
        "gaps_basis": labels.basis(corpus, spread, paper=True),
        "close_basis": labels.basis(corpus, spread),
        "bacc_basis": labels.basis(corpus, ("balanced accuracy", None), spread),
        "power_basis": labels.basis(corpus, ("the interval widths", None), paper=True),
    }


def readings(
    corpus,
    *,
    scores: Sequence,
    within: pd.DataFrame,
    beyond: pd.DataFrame,
    summary: pd.DataFrame,
    widths: pd.DataFrame,
    kappa_table,
    ratings: pd.DataFrame,
    power: pd.DataFrame,
    n_resamples: int,
    n_outer: int,
    n_inner: int,
    real=None,
    real_summary: pd.DataFrame | None = None,
    real_beyond: pd.DataFrame | None = None,
    plan=None,
    needs: pd.DataFrame | None = None,
    board: pd.DataFrame | None = None,
    fine: pd.DataFrame | None = None,
    fine_draws: int = 0,
    grid=None,
    paper_effects: dict | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 09's prose glues. ``scores`` are the LLMs' full-set score tables (hard
    and soft span F1, BACC), ``within``/``beyond`` their stability curves without and with
    replacement, ``summary`` ``stable_n_summary``, ``widths`` ``interval_widths`` (with
    ``kappa_table``, Fleiss' kappa's score table, among them), ``power`` ``impression_power`` on
    ``ratings``; ``real`` the public corpus with its ``real_summary`` and ``real_beyond``;
    ``needs`` ``needs_at_paper_gaps``; ``plan`` ``examples_needed`` with chapter 10's leaderboard
    ``board``, the precise curve ``fine`` (``fine_draws`` draws) and the table's ``grid`` of sizes
    (:func:`plan_readings`); ``paper_effects`` ``paper_impression_effects`` (default: the paper's)."""
    n = scores[0].n_examples
    systems = scores[0].systems
    smallest = int(within["n"].min())
    real_n = int(real_summary["corpus_size"].iloc[0]) if real_summary is not None else None
    gaps = paper_gap_readings(needs, n) if needs is not None and len(needs) else {}
    return bases(corpus) | {
        "n_examples": _n(n),
        "n_llms": _n(len(systems)),
        "n_pairs": _n(len(systems) * (len(systems) - 1) // 2),
        "convention": CONVENTION_TEXT.get(ss.DEFAULT_CONVENTION, f"span-length convention {ss.DEFAULT_CONVENTION}"),
        "resamples": f"{n_resamples:,}",
        "level": f"{ss.THRESHOLD:.0%}",
        "max_factor": _n(ss.MAX_FACTOR),
        "max_n": f"{int(beyond['n'].max()):,}",
        "mc_halfwidth": _n((within["high"] - within["low"]).max() / 2, 3),
        "n_outer": _n(n_outer),
        "n_inner": _n(n_inner),
        "smallest_n": _n(smallest),
        **stability_readings(summary, n, smallest),
        **width_readings(widths, kappa_table, n),
        **power_readings(ratings, power, int(power["n"].max()), paper_effects),
        **public_readings(real, real_summary, real_n, int(real_beyond["n"].max()) if real_beyond is not None else None),
        "simulated_note": simulated_only(corpus, _simulation(systems)),
        **(plan_readings(plan, summary, board, fine, fine_draws, grid, n_resamples) if plan is not None else {}),
        **gaps,
        "paper_gap_note": simulated_only(corpus, _paper_gap_note(gaps, n) if gaps else ""),
    }
