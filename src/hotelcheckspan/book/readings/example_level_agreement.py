"""Chapter 03 (example-level agreement): the numbers and readings its prose needs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analyses import example_level
from ...annotator_sets import HUMAN_SETS
from ...categories import ANY, CATEGORIES
from ...reference import paper, provenance
from .. import labels, prose, tables
from . import Passage, kappa_paradox, simulated_only

# --- the chapter's paper-vs-ours tables ------------------------------------------------------------


def table5_beside_paper(t5: pd.DataFrame, corpus) -> tables.Table:
    """Table 5 (``example_level.table5``) beside the paper's, vote by vote; each count labelled as
    part of its type's vote distribution (the figure the calibration aims at)."""
    reported = paper.figures()["table5_example_level_votes"]
    counts = t5.set_index("votes")
    rows = [
        (f"{label}: {v} vote{'' if v == 1 else 's'}", reported[label][v], int(counts.loc[v, label]))
        for label in example_level.LABELS
        for v in counts.index
    ]
    keys = [f"table5_example_level_votes/{label}" for label in example_level.LABELS for _ in counts.index]
    return tables.show(tables.mark(paper.versus(rows), keys, corpus), decimals=0)


def vote_distance_table(distance: pd.DataFrame, corpus) -> tables.Table:
    """``example_level.vote_distance``, each type's distance labelled as its calibrated figure."""
    keys = [f"table5_example_level_votes/{t}" for t in distance["error type"]]
    return tables.show(tables.mark(distance, keys, corpus), decimals={"distance": 3})


def alignment_beside_paper(llm: pd.DataFrame, corpus) -> tables.Table:
    """The paper's raw agreement with the human majority (Section 6.2) beside ours
    (``example_level.models_vs_majority``), per type pooled and for any error."""
    reported = paper.figures()["llm_majority_alignment"]
    by = llm.set_index(["model", "label"])
    rows = [
        (f"{model}: {which}", reported[name][key], round(float(by.loc[(model, label), "agreement"]), 2))
        for name, model in [("o3-mini", "o3-mini"), ("gemma-3", "gemma-3"), ("gpt-4o", "gpt-4o")]
        for which, key, label in [("per type", "per_type", "per type (pooled)"), ("any error", "any", "Any")]
    ]
    return tables.show(tables.mark(paper.versus(rows), "llm_majority_alignment", corpus))


def _chapter(
    corpus,
    *,
    stage2: pd.DataFrame,
    votes: pd.DataFrame,
    t5: pd.DataFrame,
    distance: pd.DataFrame,
    rel_ci: pd.DataFrame,
    llm: pd.DataFrame,
    n_boot: int,
    level: float,
) -> dict[str, str | Passage]:
    """Every value chapter 03's prose glues, from what the chapter computed: ``votes``
    (``example_level.votes``), ``t5`` (``vote_table``), ``distance`` (``vote_distance``),
    ``rel_ci`` (``reliability_ci``), ``llm`` (``models_vs_majority``), and the bootstrap's
    ``n_boot`` and ``level``."""
    reported = paper.figures()
    counts = t5.set_index("votes")
    out: dict[str, str | Passage] = {
        "n_stage2": tables.number(len(stage2)),
        "n_raters": tables.number(len(HUMAN_SETS)),
        "level_pct": tables.number(round(100 * level)),
        "n_boot": tables.number(n_boot),
    }

    # majority errors per type: the sample behind recall (the same for every model)
    first = llm["model"].iloc[0]
    by = llm.set_index(["model", "label"])
    for name, label in [
        ("maj_inc", "Incorrect"),
        ("maj_mis", "Misleading"),
        ("maj_nc", "Not Checkable"),
        ("maj_any", ANY),
    ]:
        out[name] = tables.number(int(by.loc[(first, label), "majority_errors"]))

    # chance-corrected agreement: the paper's Table 5 first (kappa follows from its histogram alone), then ours
    any_votes = votes[ANY]
    rel = rel_ci[rel_ci["measure"] == "fleiss_kappa"].set_index("label")
    per_type = rel.loc[list(CATEGORIES)]
    ours_any, theirs_any = float(any_votes.isin([1, 2]).mean()), _share_12(reported["table5_example_level_votes"][ANY])
    out |= {
        "share_12": tables.number(100 * ours_any, 0),
        "share_12_paper": tables.number(100 * theirs_any, 0),
        "top_kappa_type": str(per_type["estimate"].idxmax()),
        "top_kappa": tables.number(float(per_type["estimate"].max())),
        **_paper_kappa(n_boot, level),
        "chance_types": _chance_words(per_type),
    }
    theirs = _paper_kappa_ci(n_boot, level)
    reordered = out["top_kappa_type"] != out["paper_top_kappa_type"]
    ours_side, theirs_side = _chance_sides(per_type), _chance_sides(theirs)
    crossed = sum(ours_side[t] != theirs_side[t] for t in ours_side)
    moved = f"moves {prose.count_words(crossed)} interval{'' if crossed == 1 else 's'} across zero"
    out["kappa_vs_paper"] = (
        "that small a distance "
        + " and ".join(w for w, on in (("reorders kappa", reordered), (moved, crossed)) if on)
        + " here"
        if reordered or crossed
        else "here the two agree on the order and on which types chance explains, though a small distance could "
        "change either"
    )

    # the conservative alignment paradox
    out |= _paradox(llm, len(stage2))
    ma = reported["llm_majority_alignment"]
    if ("gpt-4o", ANY) in by.index:
        out["gpt4o_any"] = tables.number(float(by.loc[("gpt-4o", ANY), "agreement"]))
    out["gpt4o_any_paper"] = str(ma["gpt-4o"]["any"])

    # Table 5 against the paper
    nc_ours = int(counts.loc[0, "Not Checkable"])
    nc_paper = reported["table5_example_level_votes"]["Not Checkable"][0]
    out |= {
        "nc_zero_ours": tables.number(nc_ours),
        "nc_zero_paper": tables.number(nc_paper),
        "nc_zero_reading": "fewer than" if nc_ours < nc_paper else "more than" if nc_ours > nc_paper else "as many as",
        "tvd_min": tables.number(float(distance["distance"].min()), 3),
        "tvd_max": tables.number(float(distance["distance"].max()), 3),
    }
    table5 = sorted({labels.kind(f"table5_example_level_votes/{t}") for t in distance["error type"]})
    alignment = labels.kind("llm_majority_alignment/gpt-4o/any")
    tuned = labels.reason("llm_majority_alignment", "tuned")
    out["sim_table5"] = Passage(
        (
            f"On the simulated stand-in these distributions are *{' or '.join(table5)}* (terms of the "
            "calibration loss; the distance table above gives each one's total variation distance), and the "
            f"LLMs' agreement with the majority is *{alignment}*" + (f": {tuned}." if tuned else ".")
        )
        if corpus.simulated
        else ""
    )
    return out


__all__ = ["readings"]


def _share_12(histogram) -> float:
    """The share of examples with one or two error votes in a vote histogram (Table 5's row)."""
    h = [int(x) for x in histogram]
    return (h[1] + h[2]) / sum(h)


def _chance_words(kappa: pd.DataFrame) -> str:
    """Which types' Fleiss' kappa cannot be told from chance (its interval includes zero) and which
    lie above it, in words, from rows ``estimate, low, high`` indexed by type."""
    at = kappa.index[(kappa["low"] <= 0) & (kappa["high"] >= 0)].tolist()
    above = kappa.index[kappa["low"] > 0].tolist()
    below = kappa.index[kappa["high"] < 0].tolist()
    parts = []
    if at:
        parts.append(
            f"{prose.names(at)} cannot be told from chance "
            f"({'their intervals include' if len(at) > 1 else 'its interval includes'} zero)"
        )
    if above:
        parts.append(
            f"{prose.names(above)} {'lie' if len(above) > 1 else 'lies'} above chance "
            f"({'their intervals exclude' if len(above) > 1 else 'its interval excludes'} zero)"
        )
    if below:
        parts.append(f"{prose.names(below)} {'lie' if len(below) > 1 else 'lies'} below chance")
    return "; ".join(parts)


def _paper_kappa(n_boot: int, level: float) -> dict[str, str]:
    """Fleiss' kappa per type that the paper's own Table 5 implies (four raters voting yes/no:
    the vote histogram alone fixes it; ``reference.checks``), with a percentile bootstrap over the
    examples the histogram stands for (:func:`example_level.reliability_from_votes`), so the
    chapter's reading of which type agrees most, and which beyond chance, rests on the paper's
    data, not on the stand-in's calibrated votes."""
    from ...reference import checks

    votes = paper.figures()["table5_example_level_votes"]
    kappa = {t: checks.fleiss_from_votes(votes[t]) for t in CATEGORIES}
    order = sorted(kappa, key=kappa.get, reverse=True)
    ci = _paper_kappa_ci(n_boot, level)
    return {
        "paper_top_kappa_type": order[0],
        "paper_kappa_order": ", ".join(
            f"{t} {tables.number(kappa[t])} [{tables.number(ci.loc[t, 'low'])}, {tables.number(ci.loc[t, 'high'])}]"
            for t in order
        ),
        "paper_chance_types": _chance_words(ci.loc[order]),
    }


def _paper_kappa_ci(n_boot: int, level: float) -> pd.DataFrame:
    """Fleiss' kappa per type of the paper's Table 5 with its bootstrap interval (``estimate, low,
    high`` indexed by type; :func:`example_level.reliability_from_votes`)."""
    votes = paper.figures()["table5_example_level_votes"]
    ci = example_level.reliability_from_votes({t: votes[t] for t in CATEGORIES}, n_boot=n_boot, seed=0, level=level)
    return ci[ci["measure"] == "fleiss_kappa"].set_index("label")


def _chance_sides(kappa: pd.DataFrame) -> dict[str, int]:
    """Each type's side of chance: 1 above (interval above zero), -1 below, 0 undecided."""
    return {t: int(r["low"] > 0) - int(r["high"] < 0) for t, r in kappa.iterrows()}


def _paradox(llm: pd.DataFrame, n_examples: int) -> dict[str, str]:
    """The conservative alignment paradox in words: the models with the highest per-type agreement
    (every one tied at the precision shown), the model with the highest recall on any error and
    whether its count of marks fixes it (it flags every clear example; the paper's Tables 3 and 4
    leave it as many: :func:`hotelcheckspan.reference.checks.flags_allowed`), and the pooled
    per-type recall with the intervals that overlap the highest's."""
    from ...reference import checks

    pooled = llm[llm["label"] == "per type (pooled)"].set_index("model")
    shown = pooled["agreement"].round(2)
    tied = shown.index[shown == shown.max()].tolist()
    top = tied[0]
    marks = pooled.loc[tied, "model_errors"].astype(int)
    n = int(pooled.loc[top, "examples"])
    silent_like = pooled.loc[top, "bacc_low"] <= 0.5 <= pooled.loc[top, "bacc_high"]
    mark_words = f"{tables.number(int(marks.iloc[0]))} of the {tables.number(n)} per-type decisions"
    if len(tied) == 1:
        who = f"{top}, which marks {mark_words}, has"
    elif marks.nunique() == 1:
        who = f"{prose.names(tied)}, which each mark {mark_words}, share"
    else:
        each = ", ".join(f"{m} {tables.number(int(k))}" for m, k in marks.items())
        who = f"{prose.names(tied)}, which mark {each} of the {tables.number(n)} per-type decisions, share"
    few = int(marks.max())
    out = {
        "top_agree_model": str(top),
        "top_agree_who": who,
        "top_agree_marks": tables.number(int(marks.iloc[0])),
        "top_agree_n": tables.number(n),
        "top_agree": tables.number(float(pooled.loc[top, "agreement"])),
        "top_agree_bacc": tables.number(float(pooled.loc[top, "bacc"])),
        "top_agree_reading": (
            "no better than a model that marks nothing (its interval includes one half)"
            + (
                f"; a model with {prose.count_words(few)} mark{'' if few == 1 else 's'} in {tables.number(n)} "
                "decisions can score little else"
                if few <= 3
                else ""
            )
        )
        if silent_like
        else "better than a model that marks nothing",
        "maj_pooled": tables.number(int(pooled["majority_errors"].iloc[0])),
    }

    anyrow = llm[llm["label"] == ANY].set_index("model").sort_values("recall_error", ascending=False)
    first, second = anyrow.index[0], anyrow.index[1]
    r1, r2 = anyrow.loc[first], anyrow.loc[second]
    out |= {
        "top_recall_model": str(first),
        "top_recall": tables.number(float(r1["recall_error"])),
        "second_recall_model": str(second),
        "second_recall": tables.number(float(r2["recall_error"])),
    }
    if int(r1["model_errors"]) == int(r1["examples"]):
        said = (
            f"{first} flags every one of the {tables.number(int(r1['examples']))} clear examples, so its "
            f"recall of {out['top_recall']} and balanced accuracy of {tables.number(float(r1['bacc']))} follow from "
            "that count alone"
        )
        name = paper.PAPER_NAMES.get(str(first))  # None: not one of the paper's campaigns
        allowed = checks.flags_allowed(name, n_examples) if name else None
        if allowed is not None and len(allowed):
            lo, hi = int(allowed.min()), int(allowed.max())
            said += (
                f" (the paper's Tables 3 and 4 leave it {tables.number(lo)}"
                + (f" to {tables.number(hi)}" if hi > lo else "")
                + f" flagged of the {tables.number(n_examples)} examples too)"
            )
        said += (
            f"; {second} flags {tables.number(int(r2['model_errors']))} of them and finds majority errors with "
            f"recall {out['second_recall']}"
        )
    else:
        said = (
            f"{first} finds the most majority errors (recall {out['top_recall']}, "
            f"against {out['second_recall']} for {second})"
        )
    out["top_recall_sentence"] = said

    best = pooled["recall_error"].idxmax()
    lo, hi = pooled.loc[best, "recall_exact_low"], pooled.loc[best, "recall_exact_high"]
    overlap = [m for m in pooled.index if m != best and pooled.loc[m, "recall_exact_high"] >= lo]
    apart = [m for m in pooled.index if m != best and m not in overlap]
    best_words = (
        f"{best}'s {tables.number(float(pooled.loc[best, 'recall_error']))} "
        f"[{tables.number(float(lo))}, {tables.number(float(hi))}]"
    )
    out["pooled_recall_sentence"] = (
        f"the highest pooled recall, {best_words}, has an interval that overlaps those of {prose.names(overlap)}, "
        "so per-type recall does not rank them"
        + (f"; {prose.names(apart)} fall{'s' if len(apart) == 1 else ''} below it" if apart else "")
        if overlap
        else f"{best_words} is the highest pooled recall, its interval clear of every other model's"
    )
    return out


def readings(
    corpus,
    *,
    prevalence: pd.DataFrame | None = None,
    masked: dict[str, pd.DataFrame] | None = None,
    threshold: float | None = None,
    **computed,
) -> dict:
    """Every value chapter 03's prose glues: the chapter's own (keyword arguments as :func:`_chapter`
    takes them), given ``prevalence`` (:func:`example_level.prevalence`) its kappa/AC1 section's, and
    given ``masked`` (``{"soft": ..., "hard": ...}`` of :func:`example_level.masking`) and its
    ``threshold``, the section on Section 7's masking claim."""
    out = _chapter(corpus, **computed) | bases(corpus)
    out["bacc_dashes"] = bacc_dashes(computed["llm"])
    if prevalence is not None:  # the section "Kappa and AC1 when errors are rare"
        out |= kappa_paradox.readings(prevalence, prefix="kp")
    if masked is not None:
        out |= masking(corpus, masked, threshold)
    return out


def bases(corpus) -> dict[str, Passage]:
    """What each Summary bullet of chapter 03 rests on (:func:`hotelcheckspan.book.labels.basis`).

    Kappa, alpha and AC1 of four raters voting yes or no are functions of the vote histogram, so on
    the stand-in they are *derived* from its calibrated vote distributions. BACC and recall follow
    from each campaign's flagged records, which the generator was changed to set after looking at
    the agreement with the majority (``llm_majority_alignment``'s ``tuned``): *tuned*, as that
    agreement is. The per-example pairing of votes and span F1 is what no term fits: *emergent*,
    its two marginals calibrated."""
    votes = f"table5_example_level_votes/{ANY}"
    f1 = "table6_span_level/Group A - Group B (Stage 2)/F1_S"
    coefficients = provenance.derived(
        float("nan"),
        [f"table5_example_level_votes/{label}" for label in example_level.LABELS],
        "functions of each type's vote histogram",
    )
    return {
        "votes_basis": labels.basis(
            corpus, ("the vote distributions", votes), ("kappa, alpha and AC1", coefficients), paper=True
        ),
        "paradox_basis": labels.basis(
            corpus,
            ("agreement with the majority", "llm_majority_alignment/gpt-4o/any"),
            ("BACC and recall", "llm_majority_alignment"),
        ),
        "masking_basis": labels.basis(
            corpus,
            ("the vote distribution", votes),
            ("the groups' span F1", f1),
            ("how the two pair per example", None),
        ),
        "tvd_basis": labels.basis(corpus, ("the vote distributions", votes)),
    }


def bacc_dashes(llm: pd.DataFrame) -> Passage:
    """Why some BACC cells of the alignment table show no interval (``example_level.undefined_intervals``)."""
    from ...analyses import example_level

    gone = example_level.undefined_intervals(llm)
    if gone.empty:
        return Passage("")
    by_type = gone.groupby("label", sort=False)
    models = llm["model"].nunique()

    def who(g: pd.DataFrame) -> str:
        return "every model" if g["model"].nunique() == models else ", ".join(g["model"])

    parts = [
        f"{label} for {who(g)} ({tables.number(int(g['majority_errors'].iloc[0]))} majority "
        f"error{'' if int(g['majority_errors'].iloc[0]) == 1 else 's'}; "
        f"{tables.number(100 * g['undefined'].min(), 0)}–{tables.number(100 * g['undefined'].max(), 0)}% of "
        f"resamples without one, each model's bootstrap drawing its own)"
        if g["undefined"].nunique() > 1
        else f"{label} for {who(g)} ({tables.number(100 * g['undefined'].iloc[0], 0)}% of resamples without a "
        "majority error)"
        for label, g in by_type
    ]
    return Passage(
        "A dash in place of a BACC interval: "
        + "; ".join(parts)
        + ". A resample without a majority error has no balanced accuracy (there is no recall on errors to "
        "average), and scoring it by the specificity left would give a model that never marks a perfect score. "
        "When more resamples lack an error than one tail of the interval holds, the percentiles of the rest "
        "describe only the resamples that happened to draw one, so no interval is given."
    )


def _share_words(part: int, n: int) -> str:
    """A count's share of a whole in words, as a reader weighs it: "more than half", "half",
    "a large minority" (a quarter or more), "a small minority"."""
    if not n:
        return "none"
    share = part / n
    return (
        "more than half"
        if share > 0.5
        else "half"
        if share == 0.5
        else "a large minority"
        if share >= 0.25
        else "a small minority"
    )


def _masking_reading(below: int, n: int) -> str:
    """How often full agreement that a summary is faulty comes with little agreement on where (the
    examples every set calls faulty, ``below`` of ``n`` with a low mean span F1)."""
    share = below / n if n else float("nan")
    if not n:
        return "so this corpus has no such example to read"
    if share >= 0.5:
        return "so agreement that a summary is faulty mostly hides disagreement on where"
    if share >= 0.25:
        return "so full agreement that a summary is faulty hides disagreement on where in a large minority of them"
    return "so full agreement that a summary is faulty mostly comes with agreement on where"


def _at(values: pd.Series, threshold: float) -> int:
    """How many values sit at the threshold itself (a tie the strict "below" leaves out)."""
    return int(np.isclose(values.to_numpy(float), threshold, rtol=0, atol=1e-9).sum())


def _ties_words(at: int, below: int, n: int, reading) -> str:
    """What the examples at the threshold do to a reading, in parentheses: empty when none sits
    there, else how many and the reading with them counted as low (or that it stays)."""
    if not at:
        return ""
    with_ties = reading(below + at, n)
    said = (
        "the reading stays"
        if with_ties == reading(below, n)
        else f"the reading becomes: {with_ties.removeprefix('so ')}"
    )
    return f" ({tables.number(at)} more sit exactly at {{t}}; counted as low, {said})"


def masking(corpus, frames: dict[str, pd.DataFrame], threshold: float) -> dict[str, str | Passage]:
    """Readings for the section on Section 7's claim that example-level agreement masks span-level
    disagreement: ``frames`` maps a match mode ("soft", "hard") to ``example_level.masking``. A mean
    exactly at ``threshold`` is not below it; how many sit there, and whether counting them as low
    changes the reading, is said beside it."""
    soft, hard = frames["soft"], frames["hard"]
    top = int(soft["votes"].max())
    four, four_hard = soft[soft["votes"] == top], hard[hard["votes"] == top]
    below, below_hard = int((four["mean_f1"] < threshold).sum()), int((four_hard["mean_f1"] < threshold).sum())
    none_shared = int((four["min_f1"] == 0).sum())
    multi = soft[soft["votes"] >= 2]
    multi_below = int((multi["mean_f1"] < threshold).sum())
    at_four, at_multi = _at(four["mean_f1"], threshold), _at(multi["mean_f1"], threshold)
    t = tables.number(threshold)
    key_votes = f"table5_example_level_votes/{ANY}"
    key_f1 = "table6_span_level/Group A - Group B (Stage 2)/F1_S"
    return {
        "mk_threshold": t,
        "mk_top": tables.number(top),
        "mk_four": tables.number(len(four)),
        "mk_four_below": tables.number(below),
        "mk_four_at": tables.number(at_four),
        "mk_four_below_hard": tables.number(below_hard),
        "mk_four_median": tables.number(float(four["mean_f1"].median())),
        "mk_none_shared": tables.number(none_shared),
        "mk_multi": tables.number(len(multi)),
        "mk_multi_below": tables.number(multi_below),
        "mk_multi_at": tables.number(at_multi),
        "mk_reading": _masking_reading(below, len(four)),
        "mk_four_ties": _ties_words(at_four, below, len(four), _masking_reading).replace("{t}", t),
        "mk_multi_share": _share_words(multi_below, len(multi)),
        "mk_multi_ties": _ties_words(at_multi, multi_below, len(multi), _share_words).replace("{t}", t),
        "mk_note": simulated_only(
            corpus,
            f"On the stand-in the vote distribution is *{labels.kind(key_votes)}* and the groups' span F1 "
            f"*{labels.kind(key_f1)}* (Table 5 and Table 6), but no term ties the two per example: how often full "
            "votes come with low span F1 is *emergent*, what the simulated annotators' habits give, a rehearsal of "
            "the analysis, not evidence about the paper's annotators. On the real release the same two calls show "
            "it for them.",
        ),
    }
