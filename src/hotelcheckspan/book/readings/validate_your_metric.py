"""Readings of chapter 11 ("Validate your own metric"): which metrics agree best with the humans
and which the data cannot tell apart, how the cheap baselines compare with the LLM judges and the
human ceiling, where lexical support fails, and the same machinery on the stand-in.

Every comparison is made at the precision the tables show (two decimals), and "cannot be told
apart" is the significance cluster, never a reading of overlapping intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analyses import metric_targets
from ...analyses import metric_validation as mv
from ...corpora import KEY, slug_frame
from .. import prose, tables
from . import Passage, simulated_only

DECIMALS = 2


def _shown(v) -> float:
    return round(float(v), DECIMALS)


LISTED = 5  # the most metrics a like-for-like sentence names one by one (more: the best only)
NEAR = 0.01  # the detectors "close to the best": within this of its ROC AUC, at the precision shown


def _plural(n: int, one: str, many: str) -> str:
    """``one`` for a count of one and for none ("none of them lies"), ``many`` otherwise."""
    return one if n in (0, 1) else many


def _how_many(n: int, capital: bool = False) -> str:
    """A count leading "of the ...": "none" for zero, else the count in words."""
    words = "none" if n == 0 else prose.count_words(n)
    return words[0].upper() + words[1:] if capital else words


def _cluster_readings(ranked: pd.DataFrame, prefix: str) -> dict[str, str]:
    """How the baselines stand against the judges on the board: by the significance clusters (a
    baseline is below the judges only where its cluster is below every judge's), the point
    estimates where no cluster was computed."""
    baselines = ranked[ranked["kind"] == "baseline"]
    llm = ranked[ranked["kind"] == "judge"]
    b, j = baselines.iloc[0], llm.iloc[-1]
    vs = prose.compare(b["value"], j["value"], DECIMALS, "above", "below", "level with")
    out = {
        f"{prefix}best_baseline": str(b["metric"]),
        f"{prefix}best_baseline_tau": tables.interval(b["value"], b["low"], b["high"]),
        f"{prefix}weakest_judge": str(j["metric"]),
        f"{prefix}weakest_judge_tau": tables.interval(j["value"], j["low"], j["high"]),
        f"{prefix}baseline_vs_judge": vs,
        f"{prefix}n_baselines": prose.count_words(len(baselines)),
    }
    said = (
        f"The best baseline, {b['metric']} ({out[f'{prefix}best_baseline_tau']}), is {vs} the weakest judge, "
        f"{j['metric']} ({out[f'{prefix}weakest_judge_tau']}), at the precision shown"
    )
    judge_cl = llm["cluster"].dropna()
    base = baselines[baselines["cluster"].notna()]
    if judge_cl.empty or base.empty:  # no clusters: the point estimates only
        below = int((baselines["value"].map(_shown) < _shown(llm["value"].min())).sum())
        out[f"{prefix}baselines_below_judges"] = prose.count_words(below)
        out[f"{prefix}baselines_shared"] = ""
        out[f"{prefix}baselines_summary"] = (
            f"{_how_many(below)} of the {out[f'{prefix}n_baselines']} cheap baselines "
            f"{_plural(below, 'sits', 'sit')} below every LLM judge at the precision shown"
        )
        out[f"{prefix}baseline_judge_reading"] = (
            f"{said}; {_how_many(below, True)} of the {out[f'{prefix}n_baselines']} baselines "
            f"{_plural(below, 'lies', 'lie')} below every judge at the precision shown (no significance clusters were "
            "computed here)."
        )
        return out
    lowest = int(judge_cl.max())
    below = int((base["cluster"] > lowest).sum())
    out[f"{prefix}baselines_below_judges"] = prose.count_words(below)
    judges_in = {int(k): g["metric"].tolist() for k, g in llm[llm["cluster"].notna()].groupby("cluster")}
    bk, jk = b["cluster"], j["cluster"]
    if pd.notna(bk) and pd.notna(jk):
        if int(bk) == int(jk):
            said += f", but the two share cluster {int(bk)}: the data cannot tell them apart"
        elif int(bk) < int(jk):
            said += f", and its cluster ({int(bk)}) is above the judge's ({int(jk)})"
        else:
            said += f", in a cluster ({int(bk)}) below the judge's ({int(jk)})"
    shares, above = [], []
    for row in base.itertuples(index=False):
        k = int(row.cluster)
        if k in judges_in:
            shares.append(f"{row.metric} shares cluster {k} with {prose.names(judges_in[k])}")
        elif k < lowest:
            beaten = llm[llm["cluster"].notna() & (llm["cluster"] > k)]["metric"].tolist()
            above.append(f"{row.metric} is in a cluster above {prose.names(beaten)}'s")
    said_already = pd.notna(bk) and pd.notna(jk) and int(bk) == int(jk)  # the best baseline's share, said above
    others = [t for t in shares + above if not (said_already and t.startswith(f"{b['metric']} shares cluster"))]
    out[f"{prefix}baseline_judge_reading"] = (
        f"{said}. {_how_many(below, True)} of the {out[f'{prefix}n_baselines']} baselines "
        f"{_plural(below, 'lies', 'lie')} in a cluster below every judge's"
        + (f"; {prose.names(others)}" if others else "")
        + "."
    )
    out[f"{prefix}baselines_shared"] = f" ({prose.names(shares + above)})" if shares or above else ""
    out[f"{prefix}baselines_summary"] = (
        f"{_how_many(below)} of the {out[f'{prefix}n_baselines']} cheap baselines {_plural(below, 'sits', 'sit')} "
        "in a significance cluster below every "
        f"LLM judge's{out[f'{prefix}baselines_shared']}"
    )
    return out


def _detection_readings(validation: mv.Validation, prefix: str) -> dict[str, str]:
    """The detection section's readings: the best detector and those close to it, the metrics
    worse than chance, and the baselines against the weakest judge by the paired difference."""
    out: dict[str, str] = {}
    det = mv.leaderboard(validation, "majority", "roc_auc")
    det_ceiling = det[det["kind"] == "human ceiling"]
    det = det[det["kind"] != "human ceiling"]
    if det.empty:
        return out
    d = det.iloc[0]
    near = det[det["value"].map(_shown) >= round(_shown(d["value"]) - NEAR, DECIMALS)]
    close = near["metric"].tolist()[1:]
    out[f"{prefix}top_detector"] = str(d["metric"])
    out[f"{prefix}top_auc"] = tables.interval(d["value"], d["low"], d["high"])
    out[f"{prefix}detectors_close"] = prose.count_words(len(close))
    out[f"{prefix}near"] = tables.number(NEAR)
    out[f"{prefix}detectors_close_said"] = (
        f"with {prose.count_words(len(close))} other {_plural(len(close), 'metric', 'metrics')} within "
        f"{out[f'{prefix}near']} of it ({prose.names(close)})"
        if close
        else f"with no other metric within {out[f'{prefix}near']} of it"
    )
    chance = mv.RANDOM_EXACT["roc_auc"]
    below_random = det[det["high"].map(_shown) < chance]["metric"].tolist()
    out[f"{prefix}below_random"] = (
        f"{prose.names(below_random)} {_plural(len(below_random), 'ranks', 'rank')} the texts with errors "
        f"worse than chance (the interval's upper end below {tables.number(chance)})"
        if below_random
        else "no metric ranks the texts with errors worse than chance"
    )
    out |= _beat_weakest_judge(validation, det, prefix)
    if len(det_ceiling):
        c = det_ceiling.iloc[0]
        out[f"{prefix}ceiling_auc"] = tables.interval(c["value"], c["low"], c["high"])
    return out


def _beat_weakest_judge(validation: mv.Validation, det: pd.DataFrame, prefix: str) -> dict[str, str]:
    """The baselines whose ROC AUC is above the weakest judge's, tested by the paired difference
    on the resamples every statistic shares (:func:`metric_validation.difference`): named as
    better only where the difference's interval is above zero, else not told apart from it."""
    llm = det[det["kind"] == "judge"]
    if llm.empty or not (det["kind"] == "baseline").any():
        return {
            f"{prefix}baselines_beat_judges": "no baseline is compared with a judge here",
            f"{prefix}detection_summary": "no baseline is compared with a judge",
        }
    j = llm.sort_values(["value", "metric"]).iloc[0]
    over = det[(det["kind"] == "baseline") & (det["value"].map(_shown) > _shown(j["value"]))]
    passed, level = [], []
    for m in over["metric"]:
        diff = mv.difference(validation, m, j["metric"], "majority", "roc_auc")
        said = f"{m} {tables.signed_number(diff['value'], 3)} [{tables.number(diff['low'], 3)}, " + (
            f"{tables.number(diff['high'], 3)}]"
        )
        (passed if diff["low"] > 0 else level).append((m, said))
    weakest = f"the weakest judge, {j['metric']}"
    if not over.empty:
        parts = []
        if passed:
            parts.append(
                f"{prose.names([m for m, _ in passed])} detect{'s' if len(passed) == 1 else ''} better than {weakest} "
                f"(paired difference in ROC AUC: {prose.names([s for _, s in passed])})"
            )
        if level:
            lead = "; " if passed else f"no baseline detects better than {weakest}: "
            parts.append(
                f"{lead}{prose.names([m for m, _ in level])} {_plural(len(level), 'scores', 'score')} above it, but "
                f"the paired difference's interval includes zero ({prose.names([s for _, s in level])}), so "
                f"{_plural(len(level), 'it is', 'they are')} not told apart from it"
            )
        reading = "".join(parts)
    else:
        reading = f"no baseline's ROC AUC is above {weakest}'s at the precision shown"
    if passed:
        summary = f"{prose.names([m for m, _ in passed])} detect{'s' if len(passed) == 1 else ''} better than {weakest}"
        if level:
            summary += (
                f", and {prose.names([m for m, _ in level])} {_plural(len(level), 'is', 'are')} not told apart from it"
            )
    elif level:
        summary = (
            f"no baseline detects better than {weakest} ({prose.names([m for m, _ in level])} "
            f"{_plural(len(level), 'is', 'are')} not told apart from it by the paired difference)"
        )
    else:
        summary = f"no baseline detects better than {weakest}"
    return {f"{prefix}baselines_beat_judges": reading, f"{prefix}detection_summary": summary}


def _majority_said(validation: mv.Validation) -> str:
    """What the detection target rests on: how many texts have one record (which decides alone),
    and how many with several are dropped because their records disagree."""
    data = validation.data
    has = data["majority"].notna().to_numpy()
    n = data["n_humans"].to_numpy()
    total, one, several = int(has.sum()), int((has & (n == 1)).sum()), int((n >= 2).sum())
    dropped = int((~has & (n >= 2)).sum())
    if not total:
        return "No text has a clear majority here, so there is no detection target."
    said = f"Of the {total:,} texts with that target, "
    if one == total:
        return said + 'every one has a single human record, which decides alone: the "majority" is one person\'s.'
    if one:
        said += f"{one:,} {_plural(one, 'has', 'have')} a single human record, which decides alone; "
    said += (
        f"of the {several:,} with two or more records, {f'{dropped:,}' if dropped else 'none'} "
        f"{_plural(dropped, 'is', 'are')} dropped because "
        "their records disagree."
    )
    if one * 2 > total:
        said += ' The "majority" is mostly one person\'s judgement.'
    elif one:
        said += f' The "majority" is one person\'s judgement on {one / total:.0%} of them.'
    return said


def _acc23_reading(validation: mv.Validation) -> str:
    """acc23's tie threshold on the full sample (how many metrics tie only equal scores) and
    what a metric scoring at random reaches, with the metrics at or below it."""
    rows = validation.statistics
    rows = rows[(rows["target"] == "errors") & (rows["statistic"] == "acc23") & (rows["kind"] != "human ceiling")]
    rows = rows[rows["value"].notna()]
    if rows.empty:
        return ""
    eps = rows["epsilon"].astype(float)
    zero = int((eps == 0).sum())
    if zero == len(rows):
        said = (
            f"On the full sample acc23's tie threshold is 0 for every one of the {len(rows)} metrics: only equal "
            "scores tie."
        )
    else:
        top = float(eps.max())
        bound = 10.0 ** np.ceil(np.log10(top))
        said = (
            f"On the full sample acc23's tie threshold is 0 for {prose.count_words(zero)} of the {len(rows)} metrics "
            f"and at most {bound:g} for the others"
            + (": in effect only equal or nearly equal scores tie." if top < 10.0**-DECIMALS else ".")
        )
    rnd = rows["random"].astype(float)
    if rnd.notna().any():
        at_or_below = rows[rows["value"].map(_shown) <= rows["random"].map(_shown)]["metric"].tolist()
        said += (
            f" A metric scoring at random reaches acc23 {tables.number(rnd.min())} to {tables.number(rnd.max())} here "
            "(its own ties and the target's set it: the column at random)"
        )
        said += (
            f", and {prose.names(at_or_below)} {_plural(len(at_or_below), 'is', 'are')} at or below "
            f"{_plural(len(at_or_below), 'its', 'their')} own random level."
            if at_or_below
            else ", and every metric is above its own random level."
        )
    return said


def _span(values: pd.Series) -> str:
    """The range of some values as shown: "0.32 to 0.44", or "0.73 for every metric" when the
    ends are equal at the precision shown."""
    lo, hi = tables.number(values.min()), tables.number(values.max())
    return f"{lo} for every metric" if lo == hi else f"{lo} to {hi}"


def _detection_random(validation: mv.Validation) -> str:
    """What a metric scoring at random reaches in detection, and the metrics whose average
    precision is below it (the interval's upper end)."""
    rows = validation.statistics
    rows = rows[(rows["target"] == "majority") & (rows["kind"] != "human ceiling")]
    ap = rows[(rows["statistic"] == "average_precision") & rows["random"].notna()]
    bacc = rows[(rows["statistic"] == "bacc") & rows["random"].notna()]
    if ap.empty:
        return ""
    said = (
        f"At random, ROC AUC is {tables.number(mv.RANDOM_EXACT['roc_auc'])} by definition, average precision "
        f"{_span(ap['random'])} here"
    )
    if len(bacc):
        said += f" and BACC {_span(bacc['random'])}"
    under = ap[ap["high"].map(_shown) < ap["random"].map(_shown)]["metric"].tolist()
    said += (
        f"; {prose.names(under)}'s average precision is below {_plural(len(under), 'its', 'their')} random level "
        "(the interval's upper end below it)."
        if under
        else "."
    )
    return said


def _board_readings(validation: mv.Validation, prefix: str) -> dict[str, str]:
    """Readings of the example-level leaderboard (errors, Kendall tau-b) and of detection."""
    board = mv.leaderboard(validation, "errors", "kendall_tau_b")
    ranked = board[board["kind"] != "human ceiling"].reset_index(drop=True)
    ceiling = board[board["kind"] == "human ceiling"]
    top = ranked.iloc[0]
    tied = ranked[ranked["value"].map(_shown) == _shown(top["value"])]
    first = ranked[ranked["cluster"] == 1]["metric"].tolist() if ranked["cluster"].notna().any() else [top["metric"]]
    out = {
        f"{prefix}n_metrics": prose.count_words(len(ranked)),
        f"{prefix}top_metric": prose.names(tied["metric"].tolist()),
        f"{prefix}top_tau": tables.interval(top["value"], top["low"], top["high"]),
        f"{prefix}top_reading": (
            f"{top['metric']} agrees best ({tables.interval(top['value'], top['low'], top['high'])})"
            if len(tied) == 1
            else f"{prose.names(tied['metric'].tolist())} agree best, tied at {tables.number(top['value'])} at the "
            "precision shown"
        ),
        f"{prefix}first_cluster": prose.names(first),
        f"{prefix}first_cluster_size": prose.count_words(len(first)),
        f"{prefix}n_clusters": prose.count_words(int(ranked["cluster"].max()))
        if ranked["cluster"].notna().any()
        else "one",
        f"{prefix}random_tau": tables.number(mv.RANDOM_EXACT["kendall_tau_b"]),
    }
    if len(ceiling):
        c = ceiling.iloc[0]
        out[f"{prefix}ceiling_tau"] = tables.interval(c["value"], c["low"], c["high"])
        above = int((ranked["value"].map(_shown) > _shown(c["value"])).sum())
        out[f"{prefix}above_ceiling"] = prose.count_words(above)
    # a baseline that reads the source is undefined on a corpus without one: it ran on no text, so it
    # is not among the baselines compared; the reading says how many there are
    undefined = ranked[(ranked["kind"] == "baseline") & (ranked["value"].isna() | (ranked["n"] == 0))]
    ranked = ranked.drop(index=undefined.index)
    out[f"{prefix}undefined_baselines"] = (
        ""
        if undefined.empty
        else f" {prose.names(undefined['metric'].tolist())} {'is' if len(undefined) == 1 else 'are'} undefined here "
        "(the texts have no source to read) and left out of the comparison."
    )
    if (ranked["kind"] == "baseline").any() and (ranked["kind"] == "judge").any():
        out |= _cluster_readings(ranked, prefix)
    else:
        out[f"{prefix}baseline_judge_reading"] = "This corpus has no judge and baseline to compare."
        out[f"{prefix}baselines_below_judges"] = "none"
        out[f"{prefix}n_baselines"] = prose.count_words(int((ranked["kind"] == "baseline").sum()))
        out[f"{prefix}baselines_shared"] = ""
        out[f"{prefix}baselines_summary"] = "the corpus has no judge and baseline to compare"
    out |= _detection_readings(validation, prefix)
    return out


def _system_readings(validation: mv.Validation) -> dict[str, str]:
    """The system-level section's readings; where the corpus has fewer than
    :data:`metric_validation.MIN_SYSTEMS` generating systems, the sentences that say there is
    no system level."""
    sysl = validation.system
    n = validation.compared["systems"]
    if sysl.empty:
        few = (
            f"The texts come from {prose.count_words(n)} generating system{'s' if n != 1 else ''}, fewer than the "
            f"{prose.count_words(mv.MIN_SYSTEMS)} a ranking of systems needs"
        )
        return {
            "n_systems": prose.count_words(n),
            "systems_said": f"{few}, so this corpus has no system level (its statistics, described here, are "
            "not shown).",
            "system_reading": "Without a system level, the example-level and detection statistics above are the "
            "whole validation on this corpus.",
            "system_summary": f"There is no system level here: {few[0].lower()}{few[1:]}.",
        }
    rows = sysl[sysl["target"] == "errors"]
    pa = rows[rows["statistic"] == "pairwise_accuracy"]
    perfect = pa[pa["value"].map(_shown) == 1.0]
    partial = rows[rows["statistic"] == "partial_pearson"].sort_values("value", ascending=False)
    top = partial.iloc[0]
    n = validation.compared["systems"]
    n_pairs = n * (n - 1) // 2
    widths = (pa["high"] - pa["low"]).map(_shown)
    perfect_words = prose.count_words(len(perfect))
    out = {
        "n_systems": prose.count_words(n),
        "n_system_pairs": prose.count_words(n_pairs),
        "system_step": tables.number(1 / n_pairs),
        "median_system_width": tables.number(float(widths.median())),
        "n_perfect_systems": perfect_words[0].upper() + perfect_words[1:],
        "n_system_metrics": prose.count_words(len(pa)),
        "top_partial": str(top["metric"]),
        "top_partial_value": tables.interval(top["value"], top["low"], top["high"]),
    }
    out["systems_said"] = f"The texts come from {out['n_systems']} generating systems."
    out["system_reading"] = (
        f"{out['n_perfect_systems']} of the {out['n_system_metrics']} metrics order every pair of systems as the "
        f"humans do. With {out['n_system_pairs']} pairs of systems, one pair moves pairwise accuracy by "
        f"{out['system_step']}, and its intervals span {out['median_system_width']} for the median metric. "
        f"Within a system, {out['top_partial']} has the highest partial "
        f"correlation by its estimate ({out['top_partial_value']})."
    )
    out["system_summary"] = (
        f"At the system level, {out['n_system_pairs']} pairs of systems leave intervals spanning "
        f"{out['median_system_width']} for the median metric; the partial correlation, with the system regressed out, "
        "is what orders metrics within a system."
    )
    return out


def _domain_reading(domains: pd.DataFrame, word: str = "domain", board: pd.DataFrame | None = None) -> str:
    """The domain (``word``: what a group is called) where the lexical baseline with the highest
    mean over the groups agrees least with the humans, against the best judge there; and, where
    the board (all texts together) ranks another lexical baseline first, which."""
    lexical_names = ["rouge1_precision", "rougeL_precision", "chrf"]
    lexical = domains[domains["metric"].isin(lexical_names)]
    judges = domains[domains["kind"] == "judge"]
    if lexical.empty or judges.empty:
        return "no lexical baseline was computed here"
    if domains["group"].nunique() < 2:
        return f"With one {word}, this table repeats the example-level τb above for it"
    if lexical["value"].isna().all() or judges["value"].isna().all():
        return f"τb is undefined within every {word} here (too few texts, or no spread in the targets)"
    best_lex = lexical.groupby("metric")["value"].mean().idxmax()
    mine = lexical[lexical["metric"] == best_lex].set_index("group")["value"]
    worst = mine.idxmin()
    best_judge = judges[judges["group"] == worst].sort_values("value", ascending=False).iloc[0]
    n_groups = prose.count_words(domains["group"].nunique())
    which = f"the lexical baseline with the highest mean τb over the {n_groups} {word}s"
    if board is not None:
        on_board = board[board["metric"].isin(lexical_names) & board["value"].notna()]
        if len(on_board) and on_board.iloc[0]["metric"] != best_lex:
            which += f" (on all texts together {on_board.iloc[0]['metric']} is higher)"
    return (
        f"{best_lex}, {which}, agrees least with the humans on "
        f"{worst} (Kendall τb {tables.number(mine[worst])}), where {best_judge['metric']} reaches "
        f"{tables.number(best_judge['value'])}"
    )


def _simulation() -> str:
    return (
        "The stand-in's summaries were worded by its generator from phrase banks, and its annotators and judges "
        "were simulated. The simulated annotators and judges never read the wording: they mark the planted claims "
        "by their status and clarity (the judges' rates set from the paper's span counts, the annotators' "
        "agreement calibrated to its agreement tables). Only the baselines read the text, so only their agreement "
        "with the humans follows from how the generator worded the planted claims, and from texts the paper's are "
        "not like: a stand-in description may contradict itself (a claim's evidence sentence is added to templated "
        "text written without it; see the data sheet), where Section 3.2 takes the paper's as internally consistent "
        "ground truth, so a support baseline may find one summary both supported and contradicted by its source. "
        "These rows test the machinery "
        "(the board's statistic, its intervals and its clusters run on a corpus shaped like HotelCheckSpan), not "
        "any metric; on the real release they would be evidence."
    )


def _ceiling_others(corpus) -> str:
    """Against how many other records the held-out human is scored: "one other annotator" where
    every ceiling example has two records, else the range."""
    per = metric_targets.human_records(corpus).groupby(KEY).size()
    others = per[per >= 2] - 1
    if others.empty:
        return ""
    lo, hi = int(others.min()), int(others.max())
    if lo == hi == 1:
        return "on every one of these texts there is one other annotator"
    return f"the others are {prose.count_words(lo)} to {prose.count_words(hi)} annotators"


def _like_for_like(real: mv.Validation, target: str, ceiling_value: float, board_above: set) -> dict:
    """The metrics scored on the ceiling's texts against its target (``Validation.ceiling_texts``):
    those above the held-out human there, with their values, and those above it on every text
    that are not above it there (for them the noisier target explains the gap)."""
    rows = real.ceiling_texts
    if rows.empty:
        return {}
    rows = rows[(rows["target"] == target) & rows["value"].notna()].sort_values(
        ["value", "metric"], ascending=[False, True]
    )
    if rows.empty:
        return {}
    above = rows[rows["value"].map(_shown) > _shown(ceiling_value)]
    dropped = [m for m in rows["metric"] if m in board_above and m not in set(above["metric"])]
    return {
        "rows": rows,
        "above": above,
        "listed": (
            prose.names(f"{m} ({tables.number(v)})" for m, v in zip(above["metric"], above["value"]))
            if len(above) <= LISTED
            else f"the best, {above.iloc[0]['metric']}, at "
            + tables.interval(above.iloc[0]["value"], above.iloc[0]["low"], above.iloc[0]["high"])
        ),
        "dropped": dropped,
    }


def _ceiling_readings(real: mv.Validation, values: dict, real_corpus) -> dict[str, str]:
    """The human ceiling's sentences (example level and detection), read against the metrics
    scored like for like (same texts, same held-in target: ``Validation.ceiling_texts``); where
    no text has two human records there is no ceiling, and they say so."""
    n = real.compared["ceiling_examples"]
    if not n or "ceiling_tau" not in values:
        return {
            "ceiling_rule": "No text has two or more human records, so there is no human ceiling row.",
            "ceiling_reading": "Without a held-out human there is no ceiling to read the metrics against.",
            "ceiling_detection": "Nor is there a ceiling for detection.",
        }
    others = _ceiling_others(real_corpus) if real_corpus is not None else ""
    one_other = others.endswith("one other annotator")
    target_words = "the held-in record" if one_other else "the held-in records"
    said = {
        "ceiling_rule": "The last row is the ceiling: one human record per text, held out and scored as a metric "
        f"against the others, on the {n:,} texts with two or more records.",
    }
    board = mv.leaderboard(real, "errors", "kendall_tau_b")
    c = board[board["kind"] == "human ceiling"].iloc[0]
    ranked = board[board["kind"] != "human ceiling"]
    board_above = set(ranked[ranked["value"].map(_shown) > _shown(c["value"])]["metric"])
    head = (
        f"The held-out human reaches {values['ceiling_tau']} against {'the other' if one_other else 'the others'} "
        f"({values['above_ceiling']} "
        f"metrics above it at the precision shown)"
        + (
            f": {others}, so the ceiling is one person predicting {'another' if one_other else 'the others'}"
            if others
            else ""
        )
    )
    like = _like_for_like(real, "errors", c["value"], board_above)
    if like:
        k = len(like["above"])
        head += f". Scored like for like, on the same {n:,} texts against {target_words}, " + (
            f"{prose.count_words(k)} {_plural(k, 'metric is', 'metrics are')} above it there: {like['listed']}"
            if k
            else "no metric is above it"
        )
        if like["dropped"]:
            d = like["dropped"]
            head += f"; {prose.names(d)} {_plural(len(d), 'is', 'are')} not above it there"
        if k:
            head += " (estimates at the precision shown: the intervals say how far each may be from the ceiling)"
    said["ceiling_reading"] = (
        head + ". It bounds what agreement between two people looks like here, not what a metric can reach."
    )
    if "ceiling_auc" in values:
        det = mv.leaderboard(real, "majority", "roc_auc")
        dc = det[det["kind"] == "human ceiling"].iloc[0]
        stats = real.statistics
        bacc = stats[
            (stats["kind"] == "human ceiling") & (stats["target"] == "majority") & (stats["statistic"] == "bacc")
        ]
        binary = (
            " (its score is binary, error or none, so its ROC AUC is its balanced accuracy)"
            if len(bacc) and _shown(bacc["value"].iloc[0]) == _shown(dc["value"])
            else ""
        )
        whose = "the other's" if one_other else "the others'"
        text = f'The held-out human detects {whose} "error" at {values["ceiling_auc"]}{binary}.'
        like = _like_for_like(real, "majority", dc["value"], set())
        if like:
            full = det[det["kind"] != "human ceiling"].set_index("metric")["value"]
            rows = like["rows"].set_index("metric")["value"]
            lower = int((rows.map(_shown) < full.reindex(rows.index).map(_shown)).sum())
            k = len(like["above"])
            text += (
                f" On the same texts, against {target_words}, {prose.count_words(lower)} of the {len(rows)} metrics "
                "detect less well than they do on all texts against the clear majority (texts and target change "
                "together: these are the texts with two or more records)"
                + (
                    f"; {prose.count_words(k)} of the {len(rows)} {_plural(k, 'scores', 'score')} above the held-out "
                    f"human there by the estimates: {like['listed']}."
                    if k
                    else ", and no metric scores above the held-out human there."
                )
            )
        said["ceiling_detection"] = text
    else:
        said["ceiling_detection"] = "The held-out human has no detection figure here."
    return said


def _corpus_said(real: mv.Validation, real_corpus) -> str:
    """The sentence after the default corpus: what the real corpus of this run holds."""
    from .. import real_shape

    c = real.compared
    simulated = getattr(real_corpus, "simulated", False)
    kind = "a simulation, not real annotations" if simulated else "real annotations, not a simulation"
    left = c.get("human_records_without_text", 0)
    records = f"{c['human_records']:,} human annotation records on them" + (
        f" ({left:,} more {_plural(left, 'has', 'have')} no text and {_plural(left, 'is', 'are')} left out)"
        if left
        else ""
    )
    if real_corpus is None or real_shape.bundled(real_corpus) == "test":
        return f"It has {c['examples']:,} generated texts with {records}: {kind}."
    return f"Here it is `{real_shape.name(real_corpus)}`: {c['examples']:,} texts with {records}, {kind}."


def readings(
    real: mv.Validation,
    domains: pd.DataFrame,
    standin: mv.Validation,
    corpus,
    baselines_from: str = "",
    real_corpus=None,
) -> dict[str, str | Passage]:
    """Every value chapter 11's prose needs, from the validations it shows (``real`` on the real
    test split; ``standin`` on the bundled corpus, whose table the chapter shows without a reading
    of its own: the top row of a simulated board says nothing the table does not), the per-domain
    statistics and where the baselines' scores came from (:func:`metric_validation.bundled_baselines`)."""
    c = real.compared
    data = real.data
    out: dict[str, str | Passage] = {
        "n_examples": f"{c['examples']:,}",
        "n_records": f"{c['human_records']:,}",
        "n_ceiling": f"{c['ceiling_examples']:,}",
        "n_resamples": f"{c['resamples']:,}",
        "n_domains": prose.count_words(slug_frame(data[KEY])["dataset"].nunique()),
        "level": f"{c['level']:.0%}",
        "alpha": f"{c['alpha']:.0%}",
        "baselines_from": baselines_from,
        "ceiling_others": _ceiling_others(real_corpus) if real_corpus is not None else "",
    }
    out |= _board_readings(real, "")
    out.setdefault("baselines_beat_judges", "no metric has a detection target here")
    out.setdefault("detection_summary", "there is no detection target")
    out["clear_share"] = f"{metric_targets.CLEAR_SHARE:.0%}"
    out["majority_said"] = _majority_said(real)
    out["acc23_reading"] = _acc23_reading(real)
    out["detection_random"] = _detection_random(real)
    out |= _ceiling_readings(real, out, real_corpus)
    out |= _system_readings(real)
    out["corpus_said"] = Passage(_corpus_said(real, real_corpus))
    from .. import real_shape

    word = "domain" if real_corpus is None or real_shape.bundled(real_corpus) else "dataset"
    out["domains_said"] = (
        f"The texts describe {out['n_domains']} {word}s; the same τb within each."
        if domains["group"].nunique() > 1
        else f"The texts come from one {word}; the same τb within it."
    )
    out["domain_reading"] = _domain_reading(domains, word, mv.leaderboard(real, "errors", "kendall_tau_b"))
    out["simulated_note"] = simulated_only(corpus, _simulation())
    return out
