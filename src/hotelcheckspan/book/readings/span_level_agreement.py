"""Chapter 04 (span-level agreement): the numbers and readings its prose needs.

Most of them read the paper's own Table 6 against Tables 3 and 4 (which span-F1 definition can
have produced it); the rest read the book's Table 6 (``span_level.table6``), the per-pair scores
behind it and the definitions table, which the chapter computes once and passes in.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from ...analyses import span_level
from ...annotator_sets import HUMAN_SETS
from ...metrics import span_f1
from ...reference import paper
from .. import prose, tables
from . import Passage, beyond_f1, simulated_only, span_gamma

HUMAN_ROWS = ["Group A - Group B (Stage 1)", "Group A - Group B (Stage 2)", "Stage 1 - Stage 2"]
GROUP_ROW = "Group A - Group B (Stage 2)"
GPT_ROW = "Human - LLM (GPT-4o)"
O3_ROW = "Human - LLM (O3-Mini)"
SOFT_MARGIN = 0.05  # "well above": more than five F1 points


def _n(value, decimals: int = 2) -> str:
    return tables.number(value, decimals)


def _examples(n: int) -> str:
    """ "no examples", "one example", "12 examples"."""
    n = int(n)
    return "no examples" if n == 0 else "one example" if n == 1 else f"{_n(n)} examples"


def place(value: float, low: float, high: float, decimals: int = 2) -> str:
    """Where ``value`` lies against the range ``[low, high]``, at the precision shown."""
    v, lo, hi = (round(float(x), decimals) for x in (value, low, high))
    if v > hi:
        return "above every human row"
    if v < lo:
        return "below every human row"
    return "within the range of the human rows"


def recall_checks(figures: dict) -> dict[str, str]:
    """Point 1 and 2 of "Which span F1 did the paper report?": what the paper's own soft precision
    implies for its recall under each length rule, and which o3-mini precisions the span-count
    definition can produce."""
    implied = span_level.implied_recall(figures).set_index("comparison")
    o3, gpt = implied.loc[O3_ROW], implied.loc[GPT_ROW]
    t3, t4, t6 = (
        figures["table3_llm_campaigns"],
        figures["table4_dataset_level_stage2_subset"],
        figures["table6_span_level"],
    )
    human_totals = [t4[s.name]["total"] for s in HUMAN_SETS]
    others = implied.drop(index=GROUP_ROW, errors="ignore")
    p, r = float(o3["paper P_S"]), float(o3["paper R_S"])
    denominators = [t4["o3-mini"]["total"]] * 4 + [t4["o3-mini (LS)"]["total"]] * 4
    hard_ok, hard_nearest = span_level.reachable_means(denominators, t6[O3_ROW]["P_H"])
    soft_ok, _ = span_level.reachable_means(denominators, t6[O3_ROW]["P_S"])
    return {
        "longest_summary": _n(figures["dataset"]["summary_words"]["max"]),
        "o3_p": _n(p),
        "o3_r": _n(r),
        "o3_floor": _n(float(o3["R floor (both marked)"])),
        "o3_every": _n(float(o3["R (every example)"])),
        "gpt_r": _n(float(gpt["paper R_S"])),
        "gpt_p": _n(float(gpt["paper P_S"])),
        "o3_len": _n(t3["o3-mini"]["avg_len"], 1),
        "o3_ls_len": _n(t3["o3-mini (LS)"]["avg_len"], 1),
        "o3_spans": _n(t4["o3-mini"]["total"]),
        "o3_spans_text": f"{_n(t4['o3-mini']['total'])} span{'' if t4['o3-mini']['total'] == 1 else 's'}",
        "o3_ls_spans": _n(t4["o3-mini (LS)"]["total"]),
        "o3_f1s": _n(t6[O3_ROW]["F1_S"]),
        "o3_f1s_hm": _n(2 * p * r / (p + r)),
        "gpt_every": _n(float(gpt["R (every example)"])),
        "gpt_typical": _n(float(gpt["R (both marked, typical)"])),
        "gpt_vs_human": _n(t4["gpt-4o"]["total"] / (sum(human_totals) / len(human_totals)), 1),
        "both_verdict": "cannot" if o3["R floor (both marked)"] > r + 0.005 else "can",
        "every_max_gap": _n(float((others["R (every example)"] - others["paper R_S"]).abs().max())),
        "o3_ph": _n(t6[O3_ROW]["P_H"]),
        "span_hard_reachable": "can" if hard_ok else "cannot",
        "span_hard_nearest": _n(hard_nearest, 4),
        "span_soft_reachable": "can" if soft_ok else "cannot",
    }


def paper_claims(t6: pd.DataFrame, figures: dict) -> dict[str, str]:
    """Section 6.3's claims read against the paper's Table 6 and the book's: gpt-4o "reaches
    human-level agreement in the soft setting", and stage 2 shows "the highest" consistency."""
    t6p = figures["table6_span_level"]
    paper_soft = {row: t6p[row]["F1_S"] for row in HUMAN_ROWS}
    ours = t6[t6["match"] == "soft"].set_index("comparison")
    ours_soft = ours.loc[HUMAN_ROWS, "f1"]
    gpt = ours.loc[GPT_ROW]
    top = max(paper_soft.values())
    tied = [row for row, v in paper_soft.items() if v == top]
    best_ours = ours_soft.idxmax()
    return {
        "paper_gpt_soft": _n(t6p[GPT_ROW]["F1_S"]),
        "paper_human_soft": f"{_n(min(paper_soft.values()))} to {_n(top)}",
        "paper_gpt_place": place(t6p[GPT_ROW]["F1_S"], min(paper_soft.values()), top),
        "gpt_soft": tables.interval(gpt["f1"], gpt["f1_low"], gpt["f1_high"]),
        "human_soft": f"{_n(ours_soft.min())} to {_n(ours_soft.max())}",
        "gpt_place": place(gpt["f1"], ours_soft.min(), ours_soft.max()),
        "gpt_beside_best": (
            "its interval overlaps that row's"
            if gpt["f1_low"] <= ours.loc[best_ours, "f1_high"] and ours.loc[best_ours, "f1_low"] <= gpt["f1_high"]
            else "its interval lies clear of that row's"
        ),
        "best_human_row": best_ours,
        "paper_top_soft": _n(top),
        "paper_top_rows": prose.names(tied),
        "paper_top_reading": "a tie" if len(tied) > 1 else "the highest alone",
    }


def row_readings(corpus, pairs: pd.DataFrame) -> dict[str, str]:
    """How many pairs each Table 6 row averages under the two readings of "averaged over all
    pairwise comparisons" (annotator sets, the book's; individual annotators)."""
    counts = span_level.annotator_pairs(corpus).set_index("comparison")
    n_pairs = pairs.groupby(["comparison", "match"], sort=False).size().groupby(level=0).max()
    return {
        "group_set_pairs": _n(int(counts.loc[GROUP_ROW, "set pairs"])),
        "group_annotator_pairs": _n(int(counts.loc[GROUP_ROW, "annotator pairs"])),
        "o3_set_pairs": _n(int(n_pairs.loc[O3_ROW])),
    }


def noise(t6: pd.DataFrame, pairs: pd.DataFrame) -> dict[str, str]:
    """How many pairs of Table 6 rows (same match mode) the intervals cannot tell apart, and how
    far the pairs behind one row spread against the rows' differences."""
    overlapping, n_row_pairs = 0, 0
    for _, grp in t6.groupby("match", sort=False):
        for (_, a), (_, b) in combinations(grp.iterrows(), 2):
            n_row_pairs += 1
            overlapping += int(a["f1_low"] <= b["f1_high"] and b["f1_low"] <= a["f1_high"])
    spread = pairs.groupby(["comparison", "match"], sort=False)["f1"].agg(lambda f: f.max() - f.min())
    (row, match), widest = spread.idxmax(), spread.max()
    human = t6[t6["comparison"].isin(HUMAN_ROWS)]
    row_gap = human.groupby("match")["f1"].agg(lambda f: f.max() - f.min()).max()
    return {
        "overlapping_rows": _n(overlapping),
        "n_row_pairs": _n(n_row_pairs),
        "spread_row": row,
        "spread_match": match,
        "spread": _n(widest),
        "human_row_gap": _n(row_gap),
        "spread_reading": "more than" if round(widest, 2) > round(row_gap, 2) else "no more than",
    }


def _chapter(
    corpus,
    *,
    t6: pd.DataFrame,
    pairs: pd.DataFrame,
    defs: pd.DataFrame,
    effect: pd.DataFrame,
    n_boot: int,
    figures: dict | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 04's prose glues. ``t6`` and ``pairs`` are the book's Table 6 and the
    per-pair scores behind it (``span_level.table6``/``pairwise``), ``defs`` Table 6 under every
    definition (``span_level.definitions``), ``effect`` ``span_level.convention_effect``."""
    figures = figures or paper.figures()
    t6p = figures["table6_span_level"]
    by_def = {label: grp.reset_index(drop=True) for label, grp in defs.groupby("definition", sort=False)}
    labels = [label for label, *_ in span_f1.DEFINITIONS]
    cols = ["precision", "recall", "f1"]
    human = t6[t6["comparison"].isin(HUMAN_ROWS)]
    paper_f1 = [t6p[c][f"F1_{m[0].upper()}"] for c, m in zip(human["comparison"], human["match"])]
    wide_f1 = t6.pivot_table(index="comparison", columns="match", values="f1", sort=False)
    status_h = tables.figure_status(f"table6_span_level/{HUMAN_ROWS[0]}/F1_H")
    status_llm = tables.figure_status(f"table6_span_level/{GPT_ROW}/F1_S")
    return {
        "book_definition": span_f1.DEFINITION_LABELS[span_level.BOOK_METRIC, span_level.BOOK_CONVENTION],
        "n_examples": _n(int(pairs["examples"].max())),
        "n_boot": f"{n_boot:,}",
        **recall_checks(figures),
        **paper_claims(t6, figures),
        **row_readings(corpus, pairs),
        **noise(t6, pairs),
        "self_overlaps": _n(span_level.self_overlaps(corpus)),
        "self_overlaps_text": _examples(span_level.self_overlaps(corpus)),
        "greedy_same": "identical" if np.allclose(by_def[labels[1]][cols], by_def[labels[2]][cols]) else "different",
        "gap_mean": _n(float(effect["difference"].abs().mean())),
        "gap_max": _n(float(effect["difference"].abs().max())),
        "human_gap": _n(float(np.max(np.abs(human["f1"].to_numpy() - np.array(paper_f1))))),
        "simulated_note": simulated_only(
            corpus,
            f"Our annotators are simulated and the human rows' F1 figures are *{status_h}* (see the data sheet), "
            f"so closeness here is no evidence for a definition; the LLM rows are *{status_llm}*.",
        ),
        "standin_note": simulated_only(
            corpus, "Ours is a stand-in, whose annotators could be calibrated to any of these definitions."
        ),
        "soft_above": _n(int((wide_f1["soft"] > wide_f1["hard"] + SOFT_MARGIN).sum())),
        "soft_margin_points": _n(round(100 * SOFT_MARGIN)),
        "n_comparisons": _n(len(wide_f1)),
    }


def readings(
    corpus,
    *,
    beyond: pd.DataFrame | None = None,
    gamma_beside: pd.DataFrame | None = None,
    gamma_ranks: dict | None = None,
    **computed,
) -> dict:
    """Every value chapter 04's prose glues: the chapter's own (keyword arguments as :func:`_chapter`
    takes them) and, given them, its sections' beyond F1 (``span_measures.table``) and γ
    (``span_gamma.beside_f1`` and ``rank_agreement``)."""
    out = _chapter(corpus, **computed)
    if beyond is not None:  # the section "Beyond F1: boundaries and error counts"
        out |= beyond_f1.readings(beyond, prefix="bf")
    if gamma_beside is not None:  # the section "γ beside F1"
        out |= span_gamma.readings(corpus, beside=gamma_beside, agreement=gamma_ranks)
    return out
