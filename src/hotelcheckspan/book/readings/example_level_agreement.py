"""Chapter 03 (example-level agreement): the numbers and readings its prose needs."""

from __future__ import annotations

import pandas as pd

from ...analyses import example_level
from ...annotator_sets import HUMAN_SETS
from ...categories import ANY, CATEGORIES
from ...reference import paper
from .. import labels, tables
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
    return tables.show(tables.mark(distance, keys, corpus, distances=distance["distance"]), decimals={"distance": 3})


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

    # chance-corrected agreement
    any_votes = votes[ANY]
    rel = rel_ci[rel_ci["measure"] == "fleiss_kappa"].set_index("label")
    per_type = rel.loc[list(CATEGORIES)]
    at_chance = per_type.index[(per_type["low"] <= 0) & (per_type["high"] >= 0)].tolist()
    out |= {
        "share_12": tables.number(float(100 * any_votes.isin([1, 2]).mean()), 0),
        "top_kappa_type": str(per_type["estimate"].idxmax()),
        "top_kappa": tables.number(float(per_type["estimate"].max())),
        **_paper_kappa(),
        "chance_types": (
            " and ".join(at_chance)
            + (
                " stay within chance (their intervals include zero)"
                if len(at_chance) > 1
                else " stays within chance (its interval includes zero)"
            )
        )
        if at_chance
        else "no type's interval includes zero",
    }

    # the conservative alignment paradox
    pooled = llm[llm["label"] == "per type (pooled)"].set_index("model")
    top = pooled["agreement"].idxmax()
    silent_like = pooled.loc[top, "bacc_low"] <= 0.5 <= pooled.loc[top, "bacc_high"]
    recall = llm[llm["label"] == ANY].set_index("model")["recall_error"].sort_values(ascending=False)
    out |= {
        "top_agree_model": str(top),
        "top_agree_marks": tables.number(int(pooled.loc[top, "model_errors"])),
        "top_agree_n": tables.number(int(pooled.loc[top, "examples"])),
        "top_agree": tables.number(float(pooled.loc[top, "agreement"])),
        "top_agree_bacc": tables.number(float(pooled.loc[top, "bacc"])),
        "top_agree_reading": "no better than a model that marks nothing (its interval includes one half)"
        if silent_like
        else "better than a model that marks nothing",
        "top_recall_model": str(recall.index[0]),
        "top_recall": tables.number(float(recall.iloc[0])),
        "second_recall_model": str(recall.index[1]),
        "second_recall": tables.number(float(recall.iloc[1])),
        "maj_pooled": tables.number(int(pooled["majority_errors"].iloc[0])),
        "top_recall_pooled_model": str(pooled["recall_error"].idxmax()),
        "top_recall_pooled": tables.number(float(pooled["recall_error"].max())),
    }
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
            "calibration loss; the last column of the tables above gives each one's distance), and the "
            f"LLMs' agreement with the majority is *{alignment}*" + (f": {tuned}." if tuned else ".")
        )
        if corpus.simulated
        else ""
    )
    return out


__all__ = ["readings"]


def _paper_kappa() -> dict[str, str]:
    """Fleiss' kappa per type that the paper's own Table 5 implies (four raters voting yes/no:
    the vote histogram alone fixes it; ``reference.checks``), so the chapter's reading of which
    type agrees most rests on the paper's data, not on the stand-in's calibrated votes."""
    from ...reference import checks, paper

    votes = paper.figures()["table5_example_level_votes"]
    kappa = {t: checks.fleiss_from_votes(votes[t]) for t in CATEGORIES}
    order = sorted(kappa, key=kappa.get, reverse=True)
    return {
        "paper_top_kappa_type": order[0],
        "paper_kappa_order": ", ".join(f"{t} {tables.number(kappa[t])}" for t in order),
    }


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
    """What each Summary bullet of chapter 03 rests on (:func:`hotelcheckspan.book.labels.basis`)."""
    votes = f"table5_example_level_votes/{ANY}"
    return {
        "votes_basis": labels.basis(corpus, ("the vote distributions", votes), ("kappa", None), paper=True),
        "paradox_basis": labels.basis(
            corpus, ("agreement with the majority", "llm_majority_alignment/gpt-4o/any"), ("BACC and recall", None)
        ),
        "masking_basis": labels.basis(corpus, ("span F1 per example", None)),
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


def masking(corpus, frames: dict[str, pd.DataFrame], threshold: float) -> dict[str, str | Passage]:
    """Readings for the section on Section 7's claim that example-level agreement masks span-level
    disagreement: ``frames`` maps a match mode ("soft", "hard") to ``example_level.masking``."""
    soft, hard = frames["soft"], frames["hard"]
    top = int(soft["votes"].max())
    four, four_hard = soft[soft["votes"] == top], hard[hard["votes"] == top]
    below, below_hard = int((four["mean_f1"] < threshold).sum()), int((four_hard["mean_f1"] < threshold).sum())
    none_shared = int((four["min_f1"] == 0).sum())
    multi = soft[soft["votes"] >= 2]
    key_votes = f"table5_example_level_votes/{ANY}"
    key_f1 = "table6_span_level/Group A - Group B (Stage 2)/F1_S"
    return {
        "mk_threshold": tables.number(threshold),
        "mk_top": tables.number(top),
        "mk_four": tables.number(len(four)),
        "mk_four_below": tables.number(below),
        "mk_four_below_hard": tables.number(below_hard),
        "mk_four_median": tables.number(float(four["mean_f1"].median())),
        "mk_none_shared": tables.number(none_shared),
        "mk_multi": tables.number(len(multi)),
        "mk_multi_below": tables.number(int((multi["mean_f1"] < threshold).sum())),
        "mk_reading": _masking_reading(below, len(four)),
        "mk_multi_share": _share_words(int((multi["mean_f1"] < threshold).sum()), len(multi)),
        "mk_note": simulated_only(
            corpus,
            f"On the stand-in the vote distribution is *{labels.kind(key_votes)}* and the groups' span F1 "
            f"*{labels.kind(key_f1)}* (Table 5 and Table 6), but no term ties the two per example: how often full "
            "votes come with low span F1 is what the simulated annotators' habits give, a rehearsal of the analysis, "
            "not evidence about the paper's annotators. On the real release the same two calls show it for them.",
        ),
    }
