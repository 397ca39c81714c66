"""Readings of chapter 11 ("Validate your own metric"): which metrics agree best with the humans
and which the data cannot tell apart, how the cheap baselines compare with the LLM judges and the
human ceiling, where lexical support fails, and the same machinery on the stand-in.

Every comparison is made at the precision the tables show (two decimals), and "cannot be told
apart" is the significance cluster, never a reading of overlapping intervals."""

from __future__ import annotations

import pandas as pd

from ...analyses import metric_validation as mv
from ...corpora import KEY, slug_frame
from .. import prose, tables
from . import Passage, simulated_only

DECIMALS = 2


def _shown(v) -> float:
    return round(float(v), DECIMALS)


def _board_readings(validation: mv.Validation, prefix: str) -> dict[str, str]:
    """Readings of the example-level leaderboard (errors, Kendall tau-b) and of detection."""
    board = mv.leaderboard(validation, "errors", "kendall_tau_b")
    ranked = board[board["kind"] != "human ceiling"].reset_index(drop=True)
    ceiling = board[board["kind"] == "human ceiling"]
    top = ranked.iloc[0]
    tied = ranked[ranked["value"].map(_shown) == _shown(top["value"])]
    first = ranked[ranked["cluster"] == 1]["metric"].tolist() if ranked["cluster"].notna().any() else [top["metric"]]
    baselines = ranked[ranked["kind"] == "baseline"]
    llm = ranked[ranked["kind"] == "judge"]
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
    }
    if len(ceiling):
        c = ceiling.iloc[0]
        out[f"{prefix}ceiling_tau"] = tables.interval(c["value"], c["low"], c["high"])
        above = int((ranked["value"].map(_shown) > _shown(c["value"])).sum())
        out[f"{prefix}above_ceiling"] = prose.count_words(above)
    if len(baselines) and len(llm):
        b, j = baselines.iloc[0], llm.iloc[-1]
        out[f"{prefix}best_baseline"] = str(b["metric"])
        out[f"{prefix}best_baseline_tau"] = tables.interval(b["value"], b["low"], b["high"])
        out[f"{prefix}weakest_judge"] = str(j["metric"])
        out[f"{prefix}weakest_judge_tau"] = tables.interval(j["value"], j["low"], j["high"])
        out[f"{prefix}baseline_vs_judge"] = prose.compare(
            b["value"], j["value"], DECIMALS, "above", "below", "level with"
        )
        out[f"{prefix}baselines_below_judges"] = prose.count_words(
            int((baselines["value"].map(_shown) < _shown(llm["value"].min())).sum())
        )
        out[f"{prefix}n_baselines"] = prose.count_words(len(baselines))
    det = mv.leaderboard(validation, "majority", "roc_auc")
    det_ceiling = det[det["kind"] == "human ceiling"]
    det = det[det["kind"] != "human ceiling"]
    if len(det):
        d = det.iloc[0]
        near = det[det["value"].map(_shown) >= _shown(d["value"]) - 0.01]
        out[f"{prefix}top_detector"] = str(d["metric"])
        out[f"{prefix}top_auc"] = tables.interval(d["value"], d["low"], d["high"])
        out[f"{prefix}detectors_close"] = prose.count_words(len(near) - 1)
        below_random = det[det["high"].map(_shown) < 0.5]["metric"].tolist()
        out[f"{prefix}below_random"] = (
            f"{prose.names(below_random)} {'ranks' if len(below_random) == 1 else 'rank'} the texts with errors "
            "worse than chance (the interval's upper end below 0.5)"
            if below_random
            else "no metric ranks the texts with errors worse than chance"
        )
        llm_worst = det[det["kind"] == "judge"]["value"].min()
        beat = det[(det["kind"] == "baseline") & (det["value"].map(_shown) > _shown(llm_worst))]["metric"].tolist()
        out[f"{prefix}baselines_beat_judges"] = (
            f"{prose.names(beat)} detect{'s' if len(beat) == 1 else ''} better than the weakest judge"
            if beat
            else "no baseline detects better than the weakest judge"
        )
        if len(det_ceiling):
            c = det_ceiling.iloc[0]
            out[f"{prefix}ceiling_auc"] = tables.interval(c["value"], c["low"], c["high"])
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
        f"{out['system_step']}, and its intervals span {out['median_system_width']} for the median metric: the "
        f"system level separates few metrics. Within a system, {out['top_partial']} keeps the highest partial "
        f"correlation ({out['top_partial_value']})."
    )
    out["system_summary"] = (
        f"At the system level, {out['n_system_pairs']} pairs of systems leave intervals spanning "
        f"{out['median_system_width']} for the median metric; the partial correlation, with the system regressed out, "
        "is what orders metrics within a system."
    )
    return out


def _domain_reading(domains: pd.DataFrame, word: str = "domain") -> str:
    """The domain (``word``: what a group is called) where the best lexical baseline agrees least
    with the humans, against the best judge there."""
    lexical = domains[domains["metric"].isin(["rouge1_precision", "rougeL_precision", "chrf"])]
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
    return (
        f"{best_lex}, the best lexical baseline on average over the {word}s, agrees least with the humans on "
        f"{worst} (Kendall τb {tables.number(mine[worst])}), where {best_judge['metric']} reaches "
        f"{tables.number(best_judge['value'])}"
    )


def _simulation() -> str:
    return (
        "The stand-in's summaries were worded by its generator from phrase banks, and its annotators and judges "
        "were simulated: a metric's agreement with them follows from how the generator worded the planted claims. "
        "These rows test the machinery (every statistic, interval and cluster runs on a corpus shaped like "
        "HotelCheckSpan), not any metric; on the real release they would be evidence."
    )


def _ceiling_others(corpus) -> str:
    """Against how many other records the held-out human is scored: "one other annotator" where
    every ceiling example has two records, else the range."""
    from ...analyses import metric_targets

    per = metric_targets.human_records(corpus).groupby(KEY).size()
    others = per[per >= 2] - 1
    if others.empty:
        return ""
    lo, hi = int(others.min()), int(others.max())
    if lo == hi == 1:
        return "on every one of these texts the others are one other annotator"
    return f"the others are {prose.count_words(lo)} to {prose.count_words(hi)} annotators"


def _ceiling_readings(real: mv.Validation, values: dict, real_corpus) -> dict[str, str]:
    """The human ceiling's sentences (example level and detection); where no text has two human
    records there is no ceiling, and they say so."""
    n = real.compared["ceiling_examples"]
    if not n or "ceiling_tau" not in values:
        return {
            "ceiling_rule": "No text has two or more human records, so there is no human ceiling row.",
            "ceiling_reading": "Without a held-out human there is no ceiling to read the metrics against.",
            "ceiling_detection": "Nor is there a ceiling for detection.",
        }
    others = _ceiling_others(real_corpus) if real_corpus is not None else ""
    one_other = others.endswith("one other annotator")
    said = {
        "ceiling_rule": "The last row is the ceiling: one human record per text, held out and scored as a metric "
        f"against the others, on the {n:,} texts with two or more records.",
        "ceiling_reading": (
            f"The held-out human reaches {values['ceiling_tau']} against the others ({values['above_ceiling']} "
            f"metrics above it at the precision shown): {others}, so the ceiling is one person predicting "
            f"{'another' if one_other else 'the others'} on those texts, a noisier target than the mean of all the "
            "records the metrics are scored against on every text. It bounds what agreement between two people looks "
            "like here, not what a metric can reach."
        ),
    }
    if "ceiling_auc" in values:
        said["ceiling_detection"] = (
            f'The held-out human detects the other\'s "error" at {values["ceiling_auc"]}: with one other annotator '
            "there is no clear majority to drop the texts they disagree on, so the ceiling's target is harder than the "
            "metrics'."
            if one_other
            else f'The held-out human detects the others\' "error" at {values["ceiling_auc"]}.'
        )
    else:
        said["ceiling_detection"] = "The held-out human has no detection figure here."
    return said


def _corpus_said(real: mv.Validation, real_corpus) -> str:
    """The sentence after the default corpus: what the real corpus of this run holds."""
    from .. import real_shape

    c = real.compared
    simulated = getattr(real_corpus, "simulated", False)
    kind = "a simulation, not real annotations" if simulated else "real annotations, not a simulation"
    if real_corpus is None or real_shape.bundled(real_corpus) == "test":
        return f"It has {c['examples']:,} generated texts with {c['human_records']:,} human annotation records: {kind}."
    return (
        f"Here it is `{real_shape.name(real_corpus)}`: {c['examples']:,} texts with {c['human_records']:,} human "
        f"annotation records, {kind}."
    )


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
    out["domain_reading"] = _domain_reading(domains, word)
    out["simulated_note"] = simulated_only(corpus, _simulation())
    return out
