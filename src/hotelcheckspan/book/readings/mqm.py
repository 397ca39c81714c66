"""Readings of chapter 12 ("MQM: the field's other format"): what the TED file holds, how close
the recomputed system table is to the published one, what the intervals and clusters add, the
raters behind the scores, and chrF validated against the experts."""

from __future__ import annotations

import pandas as pd

from ...corpora import KEY, mqm
from .. import prose, tables

DECIMALS = 2  # as the published table prints the scores


def _n(v, decimals: int = DECIMALS) -> str:
    return tables.number(float(v), decimals)


def weights_said(weights: dict | None = None) -> str:
    """WMT's weights as a reader reads them ("Major 5, Minor 1, Minor Fluency/Punctuation 0.1,
    ..."), from the weights the package scores with (:data:`corpora.mqm.WMT_WEIGHTS`)."""
    weights = mqm.WMT_WEIGHTS if weights is None else weights

    def name(key: str) -> str:
        severity, _, category = key.partition(":")
        return category if severity == "*" else f"{severity} {category}".strip()

    return ", ".join(f"{name(k)} {v:g}" for k, v in weights.items())


def listed(frame: pd.DataFrame) -> dict[str, str]:
    """What the repository's per-segment score file lists beside the annotations
    (:func:`analyses.mqm_systems.listed_segments`)."""
    by_segment = frame.groupby("seg_id")["rated"].any()
    unrated = by_segment[~by_segment].index
    return {
        "n_listed": f"{len(by_segment):,}",
        "n_unrated": f"{len(unrated):,}",
        "unrated_range": f"{int(unrated.min())} to {int(unrated.max())}" if len(unrated) else "none",
    }


def composition(corpus) -> dict[str, str]:
    """What the file holds, counted from the loaded corpus."""
    rec, sp = corpus.records, corpus.spans
    main = rec[~rec["campaign"].str.endswith("-hotw")]
    errors = sp[sp["record_id"].isin(main["record_id"])]
    spanless = errors["placed"].isna()
    segments = corpus.examples[["dataset", "split", "example_idx"]].drop_duplicates()
    quirks = [w for w in corpus.warnings if w.kind == mqm.UNBALANCED]
    return {
        "n_systems": prose.count_words(int(corpus.examples["setup_id"].nunique())),
        "n_segments": f"{len(segments):,}",
        "n_rated": f"{len(main):,}",
        "n_raters": prose.count_words(int(main["annotator_id"].nunique())),
        "n_clean": f"{int((main['n_spans'] == 0).sum()):,}",
        "n_errors": f"{len(errors):,}",
        "n_spanless": f"{int(spanless.sum()):,}",
        "n_major": f"{int((errors['severity'] == 'Major').sum()):,}",
        "n_minor": f"{int((errors['severity'] == 'Minor').sum()):,}",
        "quirks": (
            "The file reads with no quirk."
            if not quirks
            else f"It reads with {prose.count_words(len(quirks))} quirk{'s' if len(quirks) != 1 else ''}, kept as "
            f"a warning: line {quirks[0].line} opens a <v> marker it never closes, read as a span to the end of the "
            "text (the row counts as its error either way)."
        ),
    }


def reproduction(table: pd.DataFrame, published: dict) -> dict[str, str]:
    """How the recomputed scores stand against the published ones (:func:`analyses.mqm_systems.reproduction`)."""
    import numpy as np

    gap = table.loc[table["difference"].abs().idxmax()]
    within = int(table["within_rounding"].sum())
    same_order = bool((table["rank"].to_numpy() == table["published_rank"].to_numpy()).all())
    largest = float(table["difference"].abs().max())
    unit = 10 ** -published["decimals"]
    scale = 10 ** published["decimals"]
    truncated = int((np.floor(table["ours"] * scale + 1e-9) / scale == table["published"]).sum())
    n = len(table)
    all_within_unit = bool((table["difference"].abs() <= unit + 1e-12).all())
    return {
        "n_published": prose.count_words(n) if n <= 10 else f"{n}",
        "n_within_rounding": prose.count_words(within) if within <= 10 else f"{within}",
        "n_truncated": prose.count_words(truncated) if truncated <= 10 else f"{truncated}",
        "within_unit_said": (
            f"each within one unit of the printed last digit ({_n(unit)})"
            if all_within_unit
            else f"{int((table['difference'].abs() <= unit + 1e-12).sum())} of them within one unit of the printed "
            f"last digit ({_n(unit)})"
        ),
        "largest_gap_system": str(gap["system"]),
        "largest_gap": _n(abs(gap["difference"]), 3),
        "largest_gap_ours": _n(gap["ours"], 3),
        "largest_gap_published": _n(gap["published"]),
        "unit": _n(unit),
        "gap_vs_unit": prose.compare(largest, unit, 3, "more than", "less than", "as much as"),
        "same_order": "in the same order" if same_order else "in another order",
        "rounding_said": (
            "so rounding half-up gives every printed value"
            if within == n
            else "so cutting the later digits off gives every printed value"
            if truncated == n
            else "so neither rounding nor cutting the digits off gives every printed value"
        ),
    }


def systems(frame: pd.DataFrame, alpha: float, level: float, n_boot: int) -> dict[str, str]:
    """The intervals and clusters (:func:`analyses.mqm_systems.system_intervals`, computed at
    ``alpha``, ``level`` and ``n_boot`` resamples)."""
    best = frame.iloc[0]
    first = frame[frame["cluster"] == frame["cluster"].min()]["system"].tolist()
    ref = frame[frame["reference"]]
    ref_rank = int(ref.index[0]) + 1 if len(ref) else None
    pairs = len(frame) - 1
    p_next = frame["p_next"].iloc[:-1]
    told = int((p_next <= alpha).sum())
    neighbours_said = (
        f"the paired test tells no neighbouring pair apart (the smallest p is {_n(p_next.min(), 3)}, above {_n(alpha)})"
        if told == 0
        else f"the paired test tells {prose.count_words(told)} of the {prose.count_words(pairs)} neighbouring "
        f"pairs apart (p at most {_n(alpha)})"
    )
    return {
        "neighbours_said": neighbours_said,
        "best_system": str(best["system"]),
        "best_interval": tables.interval(best["score"], best["low"], best["high"]),
        "n_clusters": prose.count_words(int(frame["cluster"].max())),
        "first_cluster": prose.names(first),
        "ref_rank": "not among the systems"
        if ref_rank is None
        else ("ranked first" if ref_rank == 1 else f"ranked {ref_rank}") + f" of {len(frame)}",
        "ref_errors": "" if ref_rank is None else f"{_n(ref.iloc[0]['score'])}",
        "n_neighbours": prose.count_words(len(frame) - 1),
        "median_width": _n(float((frame["high"] - frame["low"]).median())),
        "level": f"{level:.0%}",
        "alpha": _n(alpha),
        "n_boot": f"{n_boot:,}",
    }


def raters(frame: pd.DataFrame, corpus) -> dict[str, str]:
    """The raters' workloads and means (:func:`analyses.mqm_systems.rater_table`) and how many
    raters each segment-system pair has."""
    rec = corpus.records[~corpus.records["campaign"].str.endswith("-hotw")]
    per_pair = rec.groupby(KEY, sort=False).size()
    most_raters, fewest = int(per_pair.max()), int(per_pair.min())
    by_score = frame.sort_values("score")
    most = frame.loc[frame["texts"].idxmax()]
    least = frame.loc[frame["texts"].idxmin()]
    return {
        "raters_per_pair": (
            f"{prose.count_words(most_raters)} rater{'s' if most_raters != 1 else ''}"
            if most_raters == fewest
            else f"{prose.count_words(fewest)} to {prose.count_words(most_raters)} raters"
        ),
        "one_rater": "one rater" if most_raters == 1 else "several raters",
        "rater_low": str(by_score.iloc[0]["rater"]),
        "rater_low_score": _n(by_score.iloc[0]["score"]),
        "rater_high": str(by_score.iloc[-1]["rater"]),
        "rater_high_score": _n(by_score.iloc[-1]["score"]),
        "rater_most": str(most["rater"]),
        "rater_most_texts": f"{int(most['texts']):,}",
        "rater_least": str(least["rater"]),
        "rater_least_texts": f"{int(least['texts']):,}",
    }


def metric(validation, statistic: str = "kendall_tau_b") -> dict[str, str]:
    """chrF against the experts, at segment and system level (``Validation`` of ``evaluate_metric``)."""
    st = validation.statistics
    seg = st[(st["metric"] == "chrf") & (st["target"] == "mqm")].set_index("statistic")
    sysl = validation.system
    sysl = sysl[(sysl["metric"] == "chrf") & (sysl["target"] == "mqm")].set_index("statistic")
    pa = sysl.loc["pairwise_accuracy"]
    n_systems = int(validation.compared["systems"])
    return {
        "chrf_tau": tables.interval(seg.loc[statistic, "value"], seg.loc[statistic, "low"], seg.loc[statistic, "high"]),
        "chrf_texts": f"{int(seg.loc[statistic, 'n']):,}",
        "chrf_pearson": tables.interval(
            seg.loc["pearson", "value"], seg.loc["pearson", "low"], seg.loc["pearson", "high"]
        ),
        "chrf_pairwise": tables.interval(pa["value"], pa["low"], pa["high"]),
        "chrf_pairs": prose.count_words(n_systems * (n_systems - 1) // 2)
        if n_systems <= 10
        else f"{n_systems * (n_systems - 1) // 2:,}",
        "chrf_n_systems": prose.count_words(n_systems) if n_systems <= 10 else f"{n_systems}",
        "chrf_system_pearson": tables.interval(
            sysl.loc["pearson", "value"], sysl.loc["pearson", "low"], sysl.loc["pearson", "high"]
        ),
        "chrf_partial": tables.interval(
            sysl.loc["partial_pearson", "value"],
            sysl.loc["partial_pearson", "low"],
            sysl.loc["partial_pearson", "high"],
        ),
        "chrf_tau_vs_zero": prose.within(
            0.0, seg.loc[statistic, "low"], seg.loc[statistic, "high"], "includes", "excludes"
        ),
    }


def readings(
    corpus, *, table: pd.DataFrame, published: dict, systems_frame, raters_frame, validation, alpha, level, n_boot
) -> dict:
    """Every value chapter 12's prose glues."""
    from ...analyses import mqm_systems

    return (
        composition(corpus)
        | listed(mqm_systems.listed_segments())
        | reproduction(table, published)
        | systems(systems_frame, alpha, level, n_boot)
        | raters(raters_frame, corpus)
        | metric(validation)
        | {"source": published["source"], "n_keys": str(len(KEY)), "wmt_weights": weights_said()}
    )
