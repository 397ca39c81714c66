"""Chapter 05 (LLM annotators): the numbers and readings its prose needs.

Span counts are read on the stage-2 examples against Table 4 (which is on those examples); span
lengths on every example against Table 3 and Section 4.4 (which are on all 496): a value of a
subset is never set beside a full-set figure.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analyses import dataset_level, llm_annotators
from ...annotator_sets import NOT_IN_PAPER, display_name
from ...categories import CATEGORIES
from ...reference import paper
from .. import labels, prose, tables
from . import Passage, simulated_only

HUMAN_PR_ROW = "stage 1 vs stage 2 (humans)"  # the humans-against-humans row of the precision-recall table
FEW_SPANS = 10  # a mean span length over fewer spans than this says little; the prose says how many
WHOLE = 0.9  # a span of at least this share of its summary's words highlights the whole (one-sentence) summary


def figure_key(table: str, name: str, column: str) -> str:
    """The paper's figure for an annotator set of ours (``"gpt-4o-ls"``, ``"St. 1A"``) in one of its
    tables (``"table4_dataset_level_stage2_subset"``), as a ``tables.versus`` key; None when the
    paper has no such row: :data:`~hotelcheckspan.annotator_sets.NOT_IN_PAPER` (a judge of the
    user's), which ``tables.versus`` shows as such."""
    name = {m: n for n, m in paper.LLM_CAMPAIGNS.items()}.get(name, name)
    return f"{table}/{name}/{column}" if name in paper.figures()[table] else NOT_IN_PAPER


def span_words_beside_paper(corpus) -> tables.Table:
    """Each LLM campaign's mean span length in words beside Table 3's, and the humans' beside the
    paper's (Section 4.4)."""
    full = llm_annotators.volume(corpus)
    full = full[full["kind"] == "model"]
    human_words = float(dataset_level.overview(corpus)["span_words_mean"])
    rows = [
        (f"{n}: mean span words", figure_key("table3_llm_campaigns", n, "avg_len"), w, 1)
        for n, w in zip(full["name"], full["mean_words"])
    ]
    return tables.versus([*rows, ("humans: mean span words", "dataset/span_words/mean", human_words, 1)], corpus)


def _names_or_none(items) -> str:
    return prose.names([display_name(str(i)) for i in items]) or "none"


def _n(value, decimals: int = 2) -> str:
    return tables.number(value, decimals)


def precision_recall(pr: pd.DataFrame) -> dict[str, str]:
    """Readings of the soft precision-recall table (``span_level.table6`` of each model against the
    four human sets, plus the humans-against-humans row ``HUMAN_PR_ROW``), column ``name``."""
    p = pr.set_index("name")
    ref, llm = p.loc[HUMAN_PR_ROW], p.drop(index=HUMAN_PR_ROW)
    top = llm["recall"].idxmax()
    above = [m for m in llm.index if llm.loc[m, "precision_low"] > ref["precision_high"]]
    shown = llm["recall"].round(2)
    lowest = shown.index[shown == shown.min()].tolist()  # every model tied at the lowest recall shown
    return {
        "low_recall_clause": f"{_names_or_none(lowest)} {'finds' if len(lowest) == 1 else 'find'} least",
        "top_recall": display_name(top),
        "top_recall_value": _n(llm["recall"].max()),
        "top_recall_precision": _n(llm.loc[top, "precision"]),
        "human_recall": _n(ref["recall"]),
        "human_precision": _n(ref["precision"]),
        "low_recall": display_name(llm["recall"].idxmin()),
        "low_recall_value": _n(llm["recall"].min()),
        "recall_vs_humans": prose.compare(llm["recall"].max(), ref["recall"], 2),
        "precision_reading": (
            "No model's precision is clearly above the humans' (no model's interval lies above theirs)"
            if not above
            else f"{_names_or_none(above)} {'has' if len(above) == 1 else 'have'} a precision clearly above the humans'"
        ),
    }


def volume(corpus, vol: pd.DataFrame, figures: dict) -> dict[str, str | Passage]:
    """How much each model marks against the mean human campaign on the stage-2 examples, ours
    (``llm_annotators.volume`` on them) and the paper's (Table 4, on the same examples)."""
    t4 = figures["table4_dataset_level_stage2_subset"]
    v = vol.set_index("name")
    human_ours = v.loc[v["kind"] == "human", "spans"].mean()
    human_paper = sum(t4[g]["total"] for g in t4 if g.startswith("St. ")) / sum(g.startswith("St. ") for g in t4)
    models = v.index[v["kind"] == "model"]
    ratio = {m: float(v.loc[m, "spans"] / human_ours) for m in models}
    both = {name: m for name, m in paper.LLM_CAMPAIGNS.items() if m in ratio}
    same_sides = all((ratio[m] > 1) == (t4[name]["total"] > human_paper) for name, m in both.items())
    most, least = max(ratio, key=ratio.get), min(ratio, key=ratio.get)
    n_least = int(v.loc[least, "spans"])
    fewest = [m for m in models if int(v.loc[m, "spans"]) == n_least]  # a tie names every model in it
    name_of = {m: name for name, m in both.items()}
    status = tables.figure_status(f"table4_dataset_level_stage2_subset/{name_of.get(most, 'gpt-4o')}/total")
    designed = status.startswith(("set", "calibrated", "tuned"))
    return {
        "most_model": display_name(most),
        "most_ratio": _n(ratio[most], 1),
        "paper_most_ratio": _n(t4[name_of[most]]["total"] / human_paper, 1) if most in name_of else tables.DASH,
        "least_model": display_name(least),
        "least_spans": f"{n_least} span{'' if n_least == 1 else 's'}{' each' if len(fewest) > 1 else ''}",
        "least_models": _names_or_none(fewest),
        "volume_reading": "as in the paper" if same_sides else "unlike the paper for some models",
        "volume_status": status,
        "volume_note": simulated_only(
            corpus,
            f"On the stand-in each campaign's span count on these examples is *{status}* from Table 4, so "
            + (
                "this agreement with the paper is by design, not a finding."
                if designed
                else "this agreement with the paper is a finding about the simulation, not about real annotators."
            ),
        ),
    }


def lengths(corpus, figures: dict) -> dict[str, str | Passage]:
    """Mean span words on every example, ours against Table 3 (LLMs) and Section 4.4 (humans), and
    which models mark longer spans than the humans in each; how often a model's span is the whole
    one-sentence summary."""
    full = llm_annotators.volume(corpus).set_index("name")
    human = float(dataset_level.overview(corpus)["span_words_mean"])
    t3, paper_human = figures["table3_llm_campaigns"], figures["dataset"]["span_words"]["mean"]

    def named(name: str, spans: int) -> str:
        return f"{name} with only {spans} span{'' if spans == 1 else 's'}" if spans < FEW_SPANS else name

    paper_longer = [named(n, t3[n]["total"]) for n in t3 if t3[n]["avg_len"] > paper_human]
    models = full.index[full["kind"] == "model"]
    ours_longer = [named(m, int(full.loc[m, "spans"])) for m in models if full.loc[m, "mean_words"] > human]
    paper_names = {m: n for n, m in paper.LLM_CAMPAIGNS.items()}
    same = {paper_names.get(m, m) for m in models if full.loc[m, "mean_words"] > human} == {
        n for n in t3 if t3[n]["avg_len"] > paper_human
    }
    spans = corpus.spans.merge(corpus.examples[["dataset", "split", "setup_id", "example_idx", "summary_words"]])
    gpt = spans[spans["campaign"] == "gpt-4o"]
    return {
        "human_words": _n(human, 1),
        "paper_human_words": _n(paper_human, 1),
        "paper_longer": _names_or_none(paper_longer),
        "ours_longer": _names_or_none(ours_longer),
        "longer_reading": "the same models as in the paper" if same else "not the same models as in the paper",
        "paper_gpt_words": _n(t3["gpt-4o"]["avg_len"], 1),
        "paper_gpt_vs_human": {-1: "shorter than", 0: "as long as", 1: "longer than"}[
            int(np.sign(t3["gpt-4o"]["avg_len"] - paper_human))
        ],
        "whole_share": _n(100 * float((gpt["words"] >= WHOLE * gpt["summary_words"]).mean()), 0) + "%"
        if len(gpt)
        else tables.DASH,
        "whole_pct": _n(round(100 * WHOLE)) + "%",
        "n_table3": prose.count_words(len(t3)),
        "length_note": simulated_only(corpus, _length_note(figures)),
    }


def widening_order(figures: dict) -> float:
    """Kendall's tau between the stand-in's hand-set span widening per LLM campaign
    (``simulation.annotators.LLM_WIDENING``) and the campaign's mean span length in Table 3: how far
    the settings were chosen in the order of the paper's lengths."""
    from scipy.stats import kendalltau

    from ...simulation.annotators import LLM_WIDENING, PAPER_NAME

    t3 = figures["table3_llm_campaigns"]
    both = [f for f in LLM_WIDENING if PAPER_NAME.get(f) in t3]
    return float(kendalltau([LLM_WIDENING[f] for f in both], [t3[PAPER_NAME[f]]["avg_len"] for f in both]).statistic)


def _length_note(figures: dict) -> str:
    """What the stand-in's LLM span lengths are, by the provenance file's label and what it says of
    them, and why their order is no finding: the widening settings follow Table 3's order (tau)."""
    key = "table3_llm_campaigns/gpt-4o/avg_len"
    kind = labels.kind(key)
    why = labels.reason(key, "tuned") or labels.reason(key)
    tau = widening_order(figures)
    return (
        f"On the stand-in the LLM span lengths are *{kind}*"
        + (f": {why.rstrip('.')}." if why else ".")
        + " The hand-set widening ranks the campaigns "
        + ("as" if tau > 0 else "against the order")
        + f" Table 3's lengths do (Kendall's tau {_n(tau)}), so which campaigns mark longer spans here "
        "repeats that setting: it is no finding about the models."
    )


def type_readings(corpus, bias: pd.DataFrame, figures: dict) -> dict[str, str | Passage]:
    """Which type each model leans to (``llm_annotators.type_bias``) and how the humans' most
    frequent type fares."""
    b = bias.set_index("campaign")
    big = [m for m in ("gemma-3", "gpt-4o") if m in b.index]
    top_human = dataset_level.type_distribution(corpus, "human").set_index("type")["count"].idxmax()
    less_top = all(b.loc[m, top_human] < 0 for m in big)
    o3 = [
        figures[t][n]["total"]
        for t in ("table3_llm_campaigns", "table4_dataset_level_stage2_subset")
        for n in figures[t]
        if n.startswith("o3-mini")
    ]
    lean = {m: str(b.loc[m, CATEGORIES].astype(float).idxmax()) for m in ("gemma-3", "gpt-4o")}
    paper_lean = {m: str(paper_bias(figures).loc[n].idxmax()) for n, m in paper.LLM_CAMPAIGNS.items() if m in lean}
    return {
        "bias_gemma": lean["gemma-3"],
        "bias_gpt": lean["gpt-4o"],
        "bias_lean": (
            f"gemma-3 and gpt-4o both lean most to {lean['gemma-3']}"
            if lean["gemma-3"] == lean["gpt-4o"]
            else f"gemma-3 leans most to {lean['gemma-3']} and gpt-4o to {lean['gpt-4o']}"
        ),
        "bias_paper_reading": "as in the paper's Table 4 by the same measure"
        if paper_lean == lean
        else "while by the same measure on the paper's Table 4 "
        + " and ".join(f"{m} leans most to {paper_lean[m]}" for m in ("gemma-3", "gpt-4o")),
        "top_human_type": top_human,
        "top_human_reading": (
            f"both mark less {top_human} than humans"
            if less_top
            else f"they do not both mark less {top_human} than humans"
        ),
        "o3_min": _n(min(o3)),
        "o3_max": _n(max(o3)),
        "bias_all_paper": _all_examples_lean(figures),
        "bias_note": simulated_only(
            corpus,
            "The type biases come from mixing each model's type preference, "
            f"*{tables.figure_status('table3_llm_campaigns/gpt-4o/Incorrect')}* from Table 3, with the true "
            "status of each planted claim through the confusion rows chosen by hand, so the types on these "
            f"examples are *{tables.figure_status('table4_dataset_level_stage2_subset/gpt-4o/Incorrect')}*. "
            + _gemma_counts(corpus, figures),
        ),
    }


def paper_bias_all(figures: dict) -> pd.DataFrame:
    """The paper's type bias on all examples: each LLM row of Table 3 against the human spans of
    Table 2 (type shares, percentage points), as Section 5 characterises the models."""
    t3, t2 = figures["table3_llm_campaigns"], figures["table2_human_span_types"]
    total = sum(t2[t]["count"] for t in CATEGORIES)
    rows = {
        n: {t: 100 * t3[n][t] / t3[n]["total"] - 100 * t2[t]["count"] / total for t in CATEGORIES}
        for n in paper.LLM_CAMPAIGNS
    }
    return pd.DataFrame.from_dict(rows, orient="index")[list(CATEGORIES)]


def _all_examples_lean(figures: dict) -> str:
    """Which type each of gemma-3 and gpt-4o leans to on all examples in the paper's own tables."""
    bias = paper_bias_all(figures)
    said = []
    for m in ("gemma-3", "gpt-4o"):
        row = bias.loc[m]
        top = str(row.idxmax())
        said.append(f"{m} to {top} ({tables.signed_number(float(row[top]), 0)} points)")
    return "on all examples (the paper's Table 3 against its Table 2) " + " and ".join(said)


def _gemma_counts(corpus, figures: dict) -> str:
    """gemma-3's span counts per type here against the paper's Table 3: whether the stand-in
    reproduces its Misleading lean."""
    spans = corpus.spans[corpus.spans["campaign"] == "gemma-3"]
    if spans.empty:
        return ""
    ours = spans["type"].value_counts().reindex(CATEGORIES, fill_value=0)
    theirs = figures["table3_llm_campaigns"]["gemma-3"]
    parts = [f"{int(ours[t])} {t} (paper {theirs[t]})" for t in ("Misleading", "Not Checkable")]
    human = corpus.spans.loc[corpus.spans["kind"] == "human", "type"].value_counts().reindex(CATEGORIES, fill_value=0)
    ours_top = str((ours / ours.sum() - human / human.sum()).idxmax())  # the same measure as the paper's
    theirs_top = str(paper_bias_all(figures).loc["gemma-3"].idxmax())
    verdict = (
        "so it reproduces gemma-3's lean"
        if ours_top == theirs_top
        else f"so it does not reproduce gemma-3's lean to {theirs_top}: read the paper's tables for it"
    )
    return f"The stand-in's gemma-3 has {' and '.join(parts)} spans, {verdict}."


def paper_bias(figures: dict) -> pd.DataFrame:
    """The paper's type bias by the measure of ``llm_annotators.type_bias``, from its Table 4 (the
    same examples): each LLM row's type shares minus the pooled shares of the four human rows, in
    percentage points; indexed by the paper's row names, one column per type."""
    t4 = figures["table4_dataset_level_stage2_subset"]
    human = {t: sum(t4[g][t] for g in t4 if g.startswith("St. ")) for t in CATEGORIES}
    human_share = {t: 100 * human[t] / sum(human.values()) for t in CATEGORIES}
    rows = {n: {t: 100 * t4[n][t] / t4[n]["total"] - human_share[t] for t in CATEGORIES} for n in paper.LLM_CAMPAIGNS}
    return pd.DataFrame.from_dict(rows, orient="index")[list(CATEGORIES)]


def bases(corpus) -> dict[str, Passage]:
    """What each Summary bullet of chapter 05 rests on (:func:`hotelcheckspan.book.labels.basis`),
    and the sentence on whole-summary spans."""
    t3, t4 = "table3_llm_campaigns/gpt-4o", "table4_dataset_level_stage2_subset/gpt-4o"
    return {
        "volume_basis": labels.basis(corpus, ("span totals", f"{t4}/total")),
        "recall_basis": labels.basis(
            corpus,
            ("spans and flagged records", f"{t3}/spans_per_error_record"),
            ("recall and precision against the humans", None),
        ),
        "lengths_basis": labels.basis(corpus, ("LLM span lengths", f"{t3}/avg_len"), paper=True),
        "bias_basis": labels.basis(
            corpus, ("type preferences", f"{t3}/Incorrect"), ("types on these examples", f"{t4}/Incorrect"), paper=True
        ),
        "whole_basis": labels.basis(corpus, ("the span widening behind it", f"{t3}/avg_len")),
    }


def readings(
    corpus,
    *,
    stage2: pd.DataFrame,
    vol: pd.DataFrame,
    pr: pd.DataFrame,
    bias: pd.DataFrame,
    contested: pd.DataFrame,
    reasons: pd.DataFrame,
    figures: dict | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 05's prose glues: ``vol`` and ``bias`` are ``llm_annotators.volume`` and
    ``type_bias`` on the ``stage2`` examples, ``pr`` the soft precision-recall table, ``contested``
    and ``reasons`` the examples and reasons the chapter shows."""
    figures = figures or paper.figures()
    return bases(corpus) | {
        "n_stage2": _n(len(stage2)),
        **precision_recall(pr),
        **volume(corpus, vol, figures),
        **lengths(corpus, figures),
        **type_readings(corpus, bias, figures),
        "n_contested": prose.count_words(len(contested)),
        "n_reasons": prose.count_words(len(reasons)),
        "reasons_note": simulated_only(
            corpus,
            "- The simulated LLM reasons are templates, not model output: read them as placeholders for the "
            "real rationales in the gated release, which the paper found often self-contradictory.",
        ),
    }
