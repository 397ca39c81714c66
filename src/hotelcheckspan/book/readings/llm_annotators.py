"""Chapter 05 (judges): the numbers and readings its prose needs.

Span counts are read on the stage-2 examples against Table 4 (which is on those examples); span
lengths on every example against Table 3 and Section 4.4 (which are on all 496): a value of a
subset is never set beside a full-set figure.
"""

from __future__ import annotations

import pandas as pd

from ...analyses import dataset_level, llm_annotators
from ...annotator_sets import NOT_IN_PAPER, display_name
from ...categories import CATEGORIES
from ...reference import checks, paper
from .. import labels, prose, tables
from . import Passage, simulated_only

HUMAN_PR_ROW = "St. 1 vs St. 2 (humans)"  # the humans-against-humans row of the precision-recall table
FEW_SPANS = 10  # a mean span length over fewer spans than this says little; the prose says how many
WHOLE = 0.9  # a span of at least this share of its summary's words highlights the whole (one-sentence) summary
CHAPTER = "05_llm_annotators"
# relations of other chapters this one shows: the o3-mini agreements of Section 6.2 (which bear on
# its "only the gpt-4o models find true positives") and footnote 7 on Section 5's prompts
ALSO_SHOWN = ("s62_o3mini_any_agreement", "s62_o3mini_ls_any_agreement", "s8_prompts_in_appendix")
PAPER_T6_HUMANS = "Stage 1 - Stage 2"  # the paper's humans-against-humans row beside ours (stage 1 vs stage 2)


def figure_key(table: str, name: str, column: str) -> str:
    """The paper's figure for an annotator set of ours (``"gpt-4o-ls"``, ``"St. 1A"``) in one of its
    tables (``"table4_dataset_level_stage2_subset"``), as a ``tables.versus`` key; None when the
    paper has no such row: :data:`~hotelcheckspan.annotator_sets.NOT_IN_PAPER` (a judge of the
    user's), which ``tables.versus`` shows as such."""
    name = {m: n for n, m in paper.LLM_CAMPAIGNS.items()}.get(name, name)
    return f"{table}/{name}/{column}" if name in paper.figures()[table] else NOT_IN_PAPER


def span_words_beside_paper(corpus) -> tables.Table:
    """Each judge's mean span length in words beside Table 3's, and the humans' beside the
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


def _paper_precision_recall(ours: pd.DataFrame, figures: dict) -> dict[str, str]:
    """The paper's soft precision and recall of its LLM rows of Table 6 (chapter 04), beside its
    stage 1 against stage 2, and ours of the same models (``ours``: the table indexed by name)."""
    t6 = figures["table6_span_level"]
    rows = {display_name(c.rsplit("(", 1)[-1].rstrip(")")): t6[c] for c in t6 if c.startswith("Human - LLM (")}
    humans = t6[PAPER_T6_HUMANS]
    top_p = max(rows, key=lambda m: rows[m]["P_S"])
    said = ", ".join(f"{m} {_n(r['P_S'])} and {_n(r['R_S'])}" for m, r in rows.items())
    here = [
        f"{m} {_n(ours.loc[m, 'precision'])} and {_n(ours.loc[m, 'recall'])}"
        for m in rows
        if m in ours.index  # the paper's row of a model holds its default prompt
    ]
    return {
        "paper_pr": f"{said} (precision and recall), against {_n(humans['P_S'])} and {_n(humans['R_S'])} "
        "from one human stage to the other",
        "paper_top_precision": top_p,
        "paper_top_precision_reading": prose.compare(
            rows[top_p]["P_S"], humans["P_S"], 2, "above", "below", "level with"
        ),
        "paper_pr_here": ", ".join(here) if here else tables.DASH,
    }


def precision_recall(pr: pd.DataFrame, figures: dict | None = None) -> dict[str, str]:
    """Readings of the soft precision-recall table (``span_level.table6`` of each model against the
    four human sets, plus the humans-against-humans row ``HUMAN_PR_ROW``), column ``name``, and the
    paper's own rows of Table 6 beside them."""
    p = pr.set_index("name")
    ref, llm = p.loc[HUMAN_PR_ROW], p.drop(index=HUMAN_PR_ROW)
    top = llm["recall"].idxmax()
    above = [m for m in llm.index if llm.loc[m, "precision_low"] > ref["precision_high"]]
    shown = llm["recall"].round(2)
    lowest = shown.index[shown == shown.min()].tolist()  # every model tied at the lowest recall shown
    return {
        **_paper_precision_recall(p, paper.figures() if figures is None else figures),
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
        "most_ratio": _n(ratio[most]),  # the decimals of the volume table's "x human" column
        "paper_most_ratio": _n(t4[name_of[most]]["total"] / human_paper) if most in name_of else tables.DASH,
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
        **_paper_length_order(t3, paper_human),
        **whole_sentence_bound(figures),
        "whole_share": _n(100 * float((gpt["words"] >= WHOLE * gpt["summary_words"]).mean()), 0) + "%"
        if len(gpt)
        else tables.DASH,
        "whole_pct": _n(round(100 * WHOLE)) + "%",
        "n_table3": prose.count_words(len(t3)),
        "length_note": simulated_only(corpus, _length_note(figures)),
    }


def _paper_length_order(t3: dict, paper_human: float) -> dict[str, str]:
    """Which Table 3 campaigns are longer than the humans' mean only within the rounding of the
    printed figures (the humans' "4" and Table 3's lengths, each at its rounding: paper.printed),
    and how gpt-4o's mean reads against the humans' by that rounding."""
    human = paper.printed("dataset/span_words/mean")
    length = {n: paper.printed(f"table3_llm_campaigns/{n}/avg_len") for n in t3}
    maybe = [n for n in t3 if length[n].value <= human.value and length[n].high > human.low]
    gpt = length["gpt-4o"]
    order = (
        f'shorter or longer than the humans\' depending on how their "{_n(human.value, 0)}" was rounded'
        if gpt.high > human.low and gpt.low < human.high
        else ("shorter than" if gpt.high <= human.low else "longer than") + " the humans' at any rounding"
    )
    return {
        "paper_longer_rounding": (
            f"at the printed values; within the rounding of the humans' {_n(human.value, 0)} words "
            f"({_n(human.low, 1)} to {_n(human.high, 1)}), {_names_or_none(maybe)} may be longer too"
            if maybe
            else "at any rounding of the printed values"
        ),
        "paper_gpt_vs_human": order,
    }


def whole_sentence_bound(figures: dict | None = None) -> dict[str, str]:
    """How many of gpt-4o's spans Table 3's mean length allows to be whole (one-sentence) summaries:
    with every other span one word long (the shortest the paper gives), a share s of whole summaries
    of L words gives a mean of at least s L + (1 - s), so s is at most (mean - 1) / (L - 1), the mean
    taken at the most its printed value stands for (3.8 may be 3.85: paper.printed); at the
    summaries' mean length (Section 3.3, a typical value) and, the true bound, at their shortest.
    Also the figures the bound is made of, as the prose shows them."""
    gpt = paper.printed("table3_llm_campaigns/gpt-4o/avg_len", figures)
    one = paper.printed("dataset/span_words/min", figures).low
    mean, shortest = (paper.printed(f"dataset/summary_words/{k}", figures) for k in ("mean", "min"))

    def most(length: float) -> float:
        return 100 * (gpt.high - one) / (length - one)

    return {
        "whole_bound_mean": _n(most(mean.low), 1) + "%",
        "whole_bound_max": _n(most(shortest.low), 1) + "%",
        "summary_words_mean": _n(mean.value, mean.decimals),
        "summary_words_mean_low": _n(mean.low, mean.decimals + 1),  # where the bound at the mean is taken
        "summary_words_min": _n(shortest.value, 0),
        "gpt_words": _n(gpt.value, gpt.decimals),
        "gpt_words_most": _n(gpt.high, gpt.decimals + 1),
        "shortest_span_words": _n(one, 0),
    }


def widening_order(figures: dict) -> float:
    """Kendall's tau-b between the stand-in's hand-set span widening per judge
    (``simulation.annotators.LLM_WIDENING``) and the campaign's mean span length in Table 3: how far
    the settings follow the order of the paper's lengths."""
    return widening_against_table3(figures)["tau"]


def widening_against_table3(figures: dict) -> dict:
    """The hand-set widening per judge against Table 3's mean span lengths: Kendall's tau-b
    and its p-value (scipy), the pairs the two order the other way round (``swapped``) and those
    the widening ties while Table 3 does not (``tied``), each a (paper name, paper name) pair."""
    from scipy.stats import kendalltau

    from ...simulation.annotators import LLM_WIDENING, PAPER_NAME

    t3 = figures["table3_llm_campaigns"]
    both = [f for f in LLM_WIDENING if PAPER_NAME.get(f) in t3]
    wide = {PAPER_NAME[f]: LLM_WIDENING[f] for f in both}
    length = {PAPER_NAME[f]: t3[PAPER_NAME[f]]["avg_len"] for f in both}
    names = list(wide)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    swapped = [(a, b) for a, b in pairs if (wide[a] - wide[b]) * (length[a] - length[b]) < 0]
    tied = [(a, b) for a, b in pairs if wide[a] == wide[b] and length[a] != length[b]]
    res = kendalltau([wide[n] for n in names], [length[n] for n in names])
    return {"tau": float(res.statistic), "p": float(res.pvalue), "swapped": swapped, "tied": tied}


def _length_note(figures: dict) -> str:
    """What the stand-in's LLM span lengths are, by the provenance file's label, and how far the
    hand-set widening behind them follows Table 3's order: the pairs it swaps and ties, by name."""
    key = "table3_llm_campaigns/gpt-4o/avg_len"
    kind = labels.kind(key)
    w = widening_against_table3(figures)

    def pair(a: str, b: str) -> str:
        return f"{a} and {b}"

    parts = [f"{prose.names([pair(*s) for s in w['swapped']])} the other way round"] if w["swapped"] else []
    parts += [f"{prose.names([pair(*s) for s in w['tied']])} tied"] if w["tied"] else []
    how = f"only in part ({'; '.join(parts)})" if parts else "throughout"
    return (
        f"On the stand-in the LLM span lengths are *{kind}*: each campaign's widening "
        "(`annotators.LLM_WIDENING`) was set by hand looking at Table 3's lengths, and it follows their "
        f"order {how}: Kendall's tau-b {_n(w['tau'])}, p = {_n(w['p'])}. The lengths here also depend "
        "on which claims each campaign marks, so neither their order nor a miss of Table 3's is a finding "
        "about the models."
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
            f"on the stand-in both mark less {top_human} than humans"
            if less_top
            else f"on the stand-in they do not both mark less {top_human} than humans"
        ),
        "few_bias_rows": _few_bias_rows(b),
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


def _few_bias_rows(b: pd.DataFrame) -> str:
    """The type-bias rows (``llm_annotators.type_bias`` indexed by campaign, column ``spans``) that
    rest on fewer than ``FEW_SPANS`` spans, said so: their points are no measure of a bias."""
    few = b.index[b["spans"] < FEW_SPANS]
    if not len(few):
        return f"Every row rests on at least {FEW_SPANS} spans."
    counts = sorted({int(b.loc[m, "spans"]) for m in few})
    each = len(few) > 1 and len(counts) == 1
    n = prose.names([str(c) for c in counts])
    return (
        f"The {_names_or_none(few)} row{'s rest' if len(few) > 1 else ' rests'} on {n} "
        f"span{'' if counts == [1] else 's'}{' each' if each else ''}: "
        f"{'their' if len(few) > 1 else 'its'} points say nothing about a bias."
    )


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
        # recall and precision against the humans follow from how much the models mark (set), how wide
        # (tuned) and on which records (tuned): no label of their own would say more than these
        "recall_basis": labels.basis(
            corpus,
            ("span volume", f"{t4}/total"),
            ("which records they flag", "llm_majority_alignment/gpt-4o/any"),
            ("span width", f"{t3}/avg_len"),
        ),
        "aspects_basis": labels.basis(corpus, ("each aspect's mix of claim statuses", "summaries.FAMILIES")),
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
    aspects: pd.DataFrame | None = None,
    shown: pd.DataFrame | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 05's prose glues: ``vol`` and ``bias`` are ``llm_annotators.volume`` and
    ``type_bias`` on the ``stage2`` examples, ``pr`` the soft precision-recall table, ``contested``
    and ``reasons`` the examples and reasons the chapter shows, ``aspects`` its table of agreement
    by aspect (``llm_annotators.agreement_by_aspect``) and ``shown`` the checks of the paper it
    shows (:func:`paper_checks`)."""
    figures = figures or paper.figures()
    vols = volume(corpus, vol, figures)
    return bases(corpus) | {
        "n_stage2": _n(len(stage2)),
        **precision_recall(pr, figures),
        **vols,
        "recall_note": simulated_only(
            corpus,
            f"On the stand-in how much each model marks is *{vols['volume_status']}* from Table 4 "
            f"({vols['most_model']} {vols['most_ratio']} times the humans' spans), how wide its spans are "
            f"*{labels.kind('table3_llm_campaigns/gpt-4o/avg_len')}* (`annotators.LLM_WIDENING`) and on "
            f"which records *{labels.kind('llm_majority_alignment/gpt-4o/any')}*; a model that marks more and "
            "wider covers more of the humans' characters, so a recall above the humans' follows largely from "
            "these settings, not from the models.",
        ),
        **(aspect_readings(corpus, aspects) if aspects is not None else {}),
        **(checks_readings(shown) if shown is not None else {}),
        **lengths(corpus, figures),
        **type_readings(corpus, bias, figures),
        "n_contested": prose.count_words(len(contested)),
        "texts_note": simulated_only(
            corpus,
            "On the stand-in a description may contradict itself: a planted claim's evidence sentence is added to "
            "templated text written without it (see the data sheet), so one description can place the hotel at two "
            "distances from the same centre, and an annotator's span or an LLM's reason may answer either sentence. "
            "The paper's sources are not like that: Section 3.2 calls them typically internally consistent and takes "
            "the aggregated description as the absolute ground truth. These summaries rehearse the display; they "
            "show nothing about how the paper's annotators or models read real descriptions.",
        ),
        "n_reasons": prose.count_words(len(reasons)),
        "reasons_warning": simulated_only(
            corpus,
            "On the stand-in no reason below was written by reading the description: the LLMs' are one "
            "template per type filled with the span (`annotators.LLM_REASON`), the humans' drawn at random "
            "from a short list (`annotators.HUMAN_REASONS`), so a reason may contradict the description "
            "printed under its summary.",
        ),
        "reasons_note": simulated_only(
            corpus,
            "- The simulated LLM reasons are templates, not model output: read them as placeholders for the "
            "real rationales in the gated release, which the paper found often self-contradictory.",
        ),
    }


def aspect_readings(corpus, aspects: pd.DataFrame) -> dict[str, str | Passage]:
    """How many examples each aspect of ``llm_annotators.agreement_by_aspect`` rests on (column
    ``examples``), and on the stand-in what its differences between aspects rest on."""
    n = aspects["examples"].astype(int)
    return {
        "aspect_min": _n(n.min()),
        "aspect_max": _n(n.max()),
        "aspect_few": prose.count_words(int((n < 2 * FEW_SPANS).sum())),
        "aspect_few_limit": _n(2 * FEW_SPANS),
        "aspects_note": simulated_only(
            corpus,
            "The aspects' claims come from phrase banks whose mix of supported, Not Checkable, Misleading "
            "and Incorrect claims was set by hand per family (`summaries.FAMILIES`), so the order of the "
            "aspects follows those settings: it is no finding on which claims real LLMs and humans agree.",
        ),
    }


def _about_llms(relation) -> bool:
    """Whether a relation reads a figure of a judge (Table 3, an LLM row of Table 4 or of
    Table 6, the LLMs' agreement with the human majority), or reads no table and is one of
    Section 5's or Appendix C's (a statement about the judges)."""
    specs = [*(relation.get("inputs") or {}).values(), relation.get("reported")]
    paths = [
        q
        for s in specs
        for q in ([s] if isinstance(s, str) else [s["path"]] if isinstance(s, dict) and "path" in s else [])
        + (list(s.get("paths", [])) if isinstance(s, dict) else [])
    ]
    if not paths:
        return str(relation.get("section")) in ("5", "Appendix C")
    llm_rows = set(paper.LLM_CAMPAIGNS) | {c for c in paper.figures()["table6_span_level"] if "LLM" in c}
    return any(
        q.startswith(("table3_llm_campaigns", "llm_majority_alignment"))
        or q.split("/")[1:2]
        and q.split("/")[1] in llm_rows
        for q in paths
    )


def paper_checks(results: pd.DataFrame | None = None) -> pd.DataFrame:
    """The checks of the paper this chapter shows: those of :func:`checks.for_chapter` about the LLM
    campaigns (the human groups' own are chapter 02's), with the relations of ``ALSO_SHOWN``;
    the open ones first, those of one problem together. ``results``: :func:`checks.check`'s, computed
    when not given. Columns of ``checks.run``."""
    results = checks.check() if results is None else results
    rels = {r["id"]: r for r in checks.load()}
    mine = checks.for_chapter(CHAPTER, results)
    mine = mine[[_about_llms(rels[i]) for i in mine["id"]]]
    extra = results[results["id"].isin(ALSO_SHOWN) & ~results["id"].isin(mine["id"])]
    rows = pd.concat([mine, extra], ignore_index=True)
    first = [
        0 if v == checks.INCONSISTENT else 1 if checks.flagged(v, o) else 2
        for v, o in zip(rows["verdict"], rows["outcome"])
    ]
    key = rows["problem"].where(rows["problem"] != "–", rows["id"])
    order = {k: i for i, k in enumerate(dict.fromkeys(key))}  # a problem where it first appears
    rows = rows.assign(_first=first, _problem=key.map(order), _at=range(len(rows)))
    return (
        rows.sort_values(["_first", "_problem", "_at"])
        .drop(columns=["_first", "_problem", "_at"])
        .reset_index(drop=True)
    )


def checks_readings(shown: pd.DataFrame) -> dict[str, str | Passage]:
    """How many distinct problems the inconsistent rows of :func:`paper_checks` are (several rows of
    one problem count once), and which."""
    found = checks.problems(shown)
    bad = int((shown["verdict"] == checks.INCONSISTENT).sum()) + int(
        (shown["outcome"] == checks.READ_INCONSISTENT).sum()
    )
    if not bad:
        said = "No row is found inconsistent, by rule or by a person reading a text."
        return {"checks_said": said, "check_problems": Passage("")}
    rows = f"The {prose.count_words(bad)} row{'s' if bad != 1 else ''} found inconsistent"
    problems = f"{prose.count_words(len(found))} distinct problem{'s' if len(found) != 1 else ''}"
    return {
        "checks_said": f"{rows} (by rule, or by a person reading a text) {'are' if bad != 1 else 'is'} {problems}:",
        "check_problems": Passage("\n".join(f"- {p.rstrip('.')}." for p in found["problem"])),
    }
