"""Chapter 09 (how many examples does it take?): the numbers and readings its prose needs.

The resampling itself is slow, so the chapter computes its tables once (``sample_size.stability``,
``stable_n_summary``, ``interval_widths``, ``impression_power``, ...) and passes them here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...analyses import sample_size as ss
from ...annotator_sets import groups_of
from .. import prose, tables
from . import Passage, simulated_only

PAPER_TRIO = {"gemma-3", "gpt-4o", "o3-mini"}  # the three models the paper compares, default prompts
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
            f"{key}_hard_pair": hardest["pair"],
            f"{key}_hard_diff": _n(hardest["difference"], TABLE_DECIMALS),
            f"{key}_hard_n": ss.describe_n(hardest["n_with_replacement"], hardest["max_n"]),
            f"{key}_hard_ci": (
                f"{ss.describe_n(hardest['n_low'], hardest['max_n'])} to "
                f"{ss.describe_n(hardest['n_high'], hardest['max_n'])}"
            ),
        }
    for key, measure in MEASURES:
        ties = s[(s["measure"] == measure) & (s["difference"] == 0)]["pair"].str.replace(" > ", " and ")
        out[f"{key}_ties"] = f"Tied on the full set, and so never ranked: {prose.names(ties)}." if len(ties) else ""
    in_trio = s["pair"].str.split(" > ").map(lambda p: set(p) <= PAPER_TRIO)
    soft_trio = s[in_trio & (s["measure"] == "span F1 (soft)")]
    bacc_trio = s[in_trio & (s["measure"] == "balanced accuracy")]
    out |= {
        "paper_trio_n": ss.describe_n(soft_trio["n_with_replacement"].max(), max_n),
        "paper_trio_hi": ss.describe_n(soft_trio["n_high"].max(), max_n),
        "paper_trio_word": "enough" if soft_trio["n_high"].max() <= corpus_size else "not always enough",
        "paper_trio_bacc_n": ss.describe_n(bacc_trio["n_with_replacement"].max(), max_n),
        "paper_trio_bacc_hi": ss.describe_n(bacc_trio["n_high"].max(), max_n),
    }
    soft_all = s[(s["measure"] == "span F1 (soft)") & (s["difference"] != 0)]
    unsettled = soft_all[soft_all["n_with_replacement"] > smallest_n]
    out |= {
        "gap_unsettled": _n(unsettled["difference"].max(), 3) if len(unsettled) else "zero",
        "close_pairs": prose.names(unsettled["pair"]) if len(unsettled) else "none",
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


def power_readings(ratings: pd.DataFrame, power: pd.DataFrame, largest: int) -> dict[str, str]:
    """The impression tests' power (``sample_size.impression_power`` up to ``largest`` records)."""
    effects = ss.impression_effects(ratings)
    need = ss.records_for_power(ratings, power=TARGET_POWER).set_index("test")["records"]
    first = ss.first_power(power, "resampled", power=TARGET_POWER).set_index("test")["n"]
    return {
        "records": f"{effects['records']:,}",
        "d": _n(effects["d"]),
        "r": _n(effects["r"]),
        "t_n80": ss.describe_n(first.iloc[0], largest),
        "r_n80": ss.describe_n(first.iloc[1], largest),
        "t_sm80": _n(int(need.iloc[0])),
        "r_sm80": _n(int(need.iloc[1])),
        "target": f"{TARGET_POWER:.0%}",
        "power_word": "a small fraction of" if first.max() < effects["records"] / 5 else "fewer than",
    }


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
    counts = tables.figure_status("table4_dataset_level_stage2_subset/gpt-4o/total")
    f1 = tables.figure_status("table6_span_level/Human - LLM (GPT-4o)/F1_S")
    majority = tables.figure_status("llm_majority_alignment")
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
) -> dict[str, str | Passage]:
    """Every value chapter 09's prose glues. ``scores`` are the LLMs' full-set score tables (hard
    and soft span F1, BACC), ``within``/``beyond`` their stability curves without and with
    replacement, ``summary`` ``stable_n_summary``, ``widths`` ``interval_widths`` (with
    ``kappa_table``, Fleiss' kappa's score table, among them), ``power`` ``impression_power`` on
    ``ratings``; ``real`` the public corpus with its ``real_summary`` and ``real_beyond``."""
    n = scores[0].n_examples
    systems = scores[0].systems
    smallest = int(within["n"].min())
    real_n = int(real_summary["corpus_size"].iloc[0]) if real_summary is not None else None
    return {
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
        **power_readings(ratings, power, int(power["n"].max())),
        **public_readings(real, real_summary, real_n, int(real_beyond["n"].max()) if real_beyond is not None else None),
        "simulated_note": simulated_only(corpus, _simulation(systems)),
        "plan_reading": plan_reading(plan, summary) if plan is not None else "",
    }
