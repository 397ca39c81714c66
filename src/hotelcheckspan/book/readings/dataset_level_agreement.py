"""Chapter 02 (dataset-level agreement): the numbers and readings its prose needs."""

from __future__ import annotations

import pandas as pd

from ...analyses import dataset_level
from ...reference import paper
from .. import labels, prose, tables
from . import Passage, simulated_only

TYPES = ["Not Checkable", "Misleading", "Incorrect"]


def _short_share(spans: pd.DataFrame, campaign: str) -> float:
    """The share of a campaign's spans that lie on the short split."""
    return float((spans.loc[spans["campaign"] == campaign, "split"] == "short").mean())


def _pct(a: float, b: float) -> float:
    return 100 * (a / b - 1)


def readings(
    corpus,
    *,
    t3: pd.DataFrame,
    t4: pd.DataFrame,
    effects: pd.DataFrame,
    stage2: pd.DataFrame,
    tests: pd.DataFrame | None = None,
    paper_tests: pd.DataFrame | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 02's prose glues. ``t3``, ``t4``: ``dataset_level.table3/table4``
    (columns ``campaign, total, paper total, <type>, paper <type>, spans/rec.``);
    ``effects``: ``dataset_level.group_effects``; ``stage2``: the stage-2 examples; ``tests`` and
    ``paper_tests``: ``dataset_level.group_tests`` and ``paper_group_tests`` (the section on
    Appendix B's claim, when given)."""
    reported = paper.figures()
    out: dict[str, str | Passage] = {"n_stage2": tables.number(len(stage2))}
    if tests is not None and paper_tests is not None:
        out |= group_tests(corpus, tests, paper_tests)

    # Table 3: totals, and the gpt-4o densities that only fit the short split
    shown3 = t3.dropna(subset=["paper total"])
    exact = int((shown3["total"] == shown3["paper total"]).sum())
    worst = shown3.loc[(shown3["total"] - shown3["paper total"]).abs().idxmax()]
    t3p = reported["table3_llm_campaigns"]
    n_ex, n_short = reported["dataset"]["examples"], reported["dataset"]["splits"]["short"]
    gpt = ["gpt-4o", "gpt-4o (LS)"]
    short_fits = all(round(t3p[n]["total"] / n_short, 2) == t3p[n]["spans_per_record"] for n in gpt)
    sp = corpus.spans
    ours3 = t3.set_index("campaign")
    out |= {
        "t3_exact": f"{prose.count_words(exact)} of the {prose.count_words(len(shown3))} totals "
        f"{'matches' if exact == 1 else 'match'} the paper's exactly",
        "t3_worst_name": str(worst["campaign"]),
        "t3_worst_ours": tables.number(worst["total"]),
        "t3_worst_paper": tables.number(worst["paper total"]),
        "p_spr_gpt4o": tables.number(t3p["gpt-4o"]["spans_per_record"]),
        "p_spr_gpt4o_ls": tables.number(t3p["gpt-4o (LS)"]["spans_per_record"]),
        "p_all_gpt4o": tables.number(t3p["gpt-4o"]["total"] / n_ex),
        "p_all_gpt4o_ls": tables.number(t3p["gpt-4o (LS)"]["total"] / n_ex),
        "n_short_paper": tables.number(n_short),
        "n_examples_paper": tables.number(n_ex),
        "short_reading": "equal" if short_fits else "do not equal",
        "short_shares": _short_shares(
            {name: tables.number(100 * _short_share(sp, paper.LLM_CAMPAIGNS[name]), 0) for name in gpt}
        ),
        "spr_gpt4o": tables.number(ours3.loc["gpt-4o", "spans/rec."]),
        "spr_gpt4o_ls": tables.number(ours3.loc["gpt-4o (LS)", "spans/rec."]),
    }
    rows3 = [
        (f"{r['campaign']} {col}", f"table3_llm_campaigns/{r['campaign']}/{col}", int(r[col]))
        for _, r in shown3.iterrows()
        for col in ["total", *TYPES]
    ]
    total_key, type_key = "table3_llm_campaigns/gemma-3/total", "table3_llm_campaigns/gemma-3/Incorrect"
    out["t3_note"] = simulated_only(
        corpus,
        f"On the stand-in, by the rule of the data sheet, Table 3's totals and type counts are: {_labels_line(rows3)}. "
        f"Totals: {labels.reason(total_key)}; types: {labels.reason(type_key)}. Span lengths are "
        f"*{labels.kind('table3_llm_campaigns/gemma-3/avg_len')}*: "
        f"{labels.reason('table3_llm_campaigns/gemma-3/avg_len')}.",
    )

    # Table 4: totals and the largest gap per type
    shown4 = t4.dropna(subset=["paper total"])
    cells = [(r["campaign"], t, int(r[t]), int(r[f"paper {t}"])) for _, r in shown4.iterrows() for t in TYPES]
    name, typ, ours_c, theirs_c = max(cells, key=lambda c: abs(c[2] - c[3]))
    gap = (shown4["total"] - shown4["paper total"]).abs()
    out |= {
        "t4_total_gap": tables.number(int(gap.max())),
        "t4_total_gap_name": str(shown4.loc[gap.idxmax(), "campaign"]),
        "t4_cell": f"{name} {typ}",
        "t4_cell_ours": tables.number(ours_c),
        "t4_cell_paper": tables.number(theirs_c),
        "t4_gpt4o_paper": tables.number(reported["table4_dataset_level_stage2_subset"]["gpt-4o"]["total"]),
        "t3_gpt4o_paper": tables.number(t3p["gpt-4o"]["total"]),
        "t4_note": simulated_only(corpus, _t4_note()),
    }

    # Section 6.1: the text's figures, and what Table 4 itself gives
    text = reported["dataset_level_text"]
    t4p = reported["table4_dataset_level_stage2_subset"]
    s1, s2 = effects.set_index("stage").loc["stage1"], effects.set_index("stage").loc["stage2"]
    minority = dataset_level.b_minority(corpus)  # the paper's "B in the minority": a B set alone against three
    b_marking = minority["b_marking_pct"]
    paper_b = text["group_b_more_annotations_pct"]
    paper_min = float(text["group_b_minority_due_to_extra_errors_pct"].lstrip(">"))
    t4_b1 = _pct(t4p["St. 1B"]["total"], t4p["St. 1A"]["total"])
    t4_b2 = _pct(t4p["St. 2B"]["total"], t4p["St. 2A"]["total"])
    t4_vol = _pct(t4p["St. 2A"]["total"] + t4p["St. 2B"]["total"], t4p["St. 1A"]["total"] + t4p["St. 1B"]["total"])
    out |= {
        "p_b_more": tables.number(paper_b),
        "p_b_minority": text["group_b_minority_due_to_extra_errors_pct"].replace(">", "over "),
        "p_volume": tables.number(abs(text["stage2_vs_stage1_volume_change_pct"]), 1),
        "p_agree_points": tables.number(text["stage2_vs_stage1_intergroup_agreement_points"], 1),
        "t4_b_more_s1": tables.number(t4_b1, 1),
        "t4_b_more_s2": tables.number(t4_b2, 1),
        "t4_volume": tables.number(abs(t4_vol), 1),
        "effects_note": simulated_only(corpus, _effects_note(effects, reported, minority, corpus)),
        "b_more_reading": "B marks more than A in both stages"
        if s1["B more (%)"] > 0 and s2["B more (%)"] > 0
        else "B does not mark more than A in both stages",
        "b_more_s1": prose.compare(s1["B more (%)"], paper_b, 0, "more than", "less than", "about"),
        "b_more_s2": prose.compare(s2["B more (%)"], paper_b, 0, "more than", "less than", "about"),
        "b_more_s1_pct": tables.number(s1["B more (%)"], 1),
        "b_more_s2_pct": tables.number(s2["B more (%)"], 1),
        "paper_b_pct": tables.number(paper_b),
        "b_marking_pct": tables.number(b_marking, 1),  # as the table beside the paper's shows it
        "b_minority_cases": tables.number(minority["cases"]),
        "b_marking_reading": "as the paper reports"
        if b_marking > paper_min
        else f"far from the paper's {text['group_b_minority_due_to_extra_errors_pct'].replace('>', 'over ')}%",
        "b_note": simulated_only(
            corpus,
            "The simulation gives group B a higher false-alarm rate but not fewer misses, so B marks more without "
            "being the one that marks wherever it stands alone; real group B annotators may differ from A in "
            "threshold only, which the simulation does not capture."
            if b_marking <= paper_min
            else "The simulation gives group B a higher false-alarm rate, which is enough to reproduce this pattern.",
        ),
    }

    # Which campaign marks most and least on the stage-2 examples
    # (named as Table 4 names them; a tie names every campaign in it)
    vol = dataset_level.campaign_table(corpus, stage2, by_group=True).set_index("name")
    shown_as = dict(zip(t4["campaign"].map(lambda n: paper.LLM_CAMPAIGNS.get(n, n)), t4["campaign"]))
    human = vol[vol["kind"] == "human"]["spans"].mean()
    most = vol.index[vol["spans"] == vol["spans"].max()].tolist()
    least = vol.index[vol["spans"] == vol["spans"].min()].tolist()
    pmost = [n for n in t4p if t4p[n]["total"] == max(r["total"] for r in t4p.values())]
    pleast = [n for n in t4p if t4p[n]["total"] == min(r["total"] for r in t4p.values())]
    ours_most = {vol.loc[n, "campaign"] for n in most}
    ours_least = {vol.loc[n, "campaign"] for n in least}
    same = {paper.LLM_CAMPAIGNS.get(n, n) for n in pmost} == ours_most and {
        paper.LLM_CAMPAIGNS.get(n, n) for n in pleast
    } == ours_least
    n_least = int(vol.loc[least[0], "spans"])
    out |= {
        "most_name": prose.names([shown_as.get(n, n) for n in most]),
        "most_ratio": tables.number(vol.loc[most[0], "spans"] / human, 1),
        "least_name": prose.names([shown_as.get(n, n) for n in least]),
        "least_spans": f"{tables.number(n_least)} span{'' if n_least == 1 else 's'}{' each' if len(least) > 1 else ''}",
        "extremes_reading": "as in the paper"
        if same
        else f"while in the paper's Table 4 {prose.names(pmost)} {'marks' if len(pmost) == 1 else 'mark'} most "
        f"and {prose.names(pleast)} least",
    }
    return out | bases(corpus)


def bases(corpus) -> dict[str, Passage]:
    """What each Summary bullet of chapter 02 rests on (:func:`hotelcheckspan.book.labels.basis`)."""
    text = "dataset_level_text"
    return {
        "t4_basis": labels.paper_basis(),
        "appb_basis": labels.paper_basis(),
        "groups_basis": labels.basis(
            corpus,
            ("group B's extra spans", f"{text}/group_b_more_annotations_pct"),
            ("B alone marking", f"{text}/group_b_minority_due_to_extra_errors_pct"),
        ),
        "extremes_basis": labels.basis(corpus, ("span totals", "table4_dataset_level_stage2_subset/gpt-4o/total")),
    }


def _t4_note() -> str:
    """Table 4's labels, and, where the same models' type counts carry another label in Table 3,
    why (each from the provenance file, never typed)."""
    total, typed = (
        "table4_dataset_level_stage2_subset/St. 1A/total",
        "table4_dataset_level_stage2_subset/gemma-3/Incorrect",
    )
    t3_typed = "table3_llm_campaigns/gemma-3/Incorrect"
    text = (
        f"On the stand-in Table 4's totals are *{labels.kind(total)}* ({labels.reason(total)}) and its counts "
        f"per type *{labels.kind(typed)}* ({labels.reason(typed)})."
    )
    if labels.kind(typed) != labels.kind(t3_typed):
        text += (
            f" The same models' type counts are *{labels.kind(t3_typed)}* in Table 3 and "
            f"*{labels.kind(typed)}* here: the generator reads Table 3's type shares over all examples, "
            "not the counts on this subset, and mixes them with the confusion rows chosen by hand."
        )
    return text


def _effects_note(effects: pd.DataFrame, reported: dict, minority: dict, corpus) -> str:
    """The labels of the Section 6.1 rows as their table shows them, with the provenance file's
    reason for each figure of the text."""
    rows = list(dataset_level.section61(effects, reported, minority).itertuples(index=False, name=None))
    named = {}  # each of the text's figures under the first row that shows it
    for measure, key, *_ in rows:
        if isinstance(key, str):
            named.setdefault(key, measure)
    why = "; ".join(f"{m}: {labels.reason(k)}" for k, m in named.items() if labels.reason(k))
    return labels.passage(rows, corpus) + (f"\n\nThe data sheet's reasons: {why}." if why else "")


def _short_shares(shares: dict[str, str]) -> str:
    """ "99% of each campaign's" when the shares read alike, else "98% of gpt-4o's and 99% of ..."."""
    if len(set(shares.values())) == 1:
        return f"{next(iter(shares.values()))}% of each campaign's"
    return " and ".join(f"{v}% of {k}'s" for k, v in shares.items())


def _labels_line(rows) -> str:
    """The rows' labels, grouped: "set for 4, set, missed by 1-40 for 16"."""
    found = labels.kinds(rows)
    exact = [m for m, lab in found.items() if lab == "set"]
    missed = sorted(int(lab.rsplit(" ", 1)[1]) for lab in found.values() if lab.startswith("set, missed by"))
    parts = []
    if exact:
        parts.append(f"*set* for {prose.count_words(len(exact))} of the {prose.count_words(len(found))}")
    if missed:
        parts.append(
            f"*set, missed by* {missed[0]} to {missed[-1]} spans for the other {prose.count_words(len(missed))}"
            if len(missed) > 1
            else f"*set, missed by* {missed[0]} for one"
        )
    others = sorted({lab for lab in found.values() if not lab.startswith("set")})
    return "; ".join(parts + [f"*{o}*" for o in others])


ALPHA = 0.05  # the conventional level the paper's "significant" implies (it names none)


def _verdict(ps: pd.Series) -> str:
    """ "none of the four tests" / "two of the four tests" ... finds p below ALPHA."""
    below = int((ps < ALPHA).sum())
    return f"{'none' if below == 0 else prose.count_words(below)} of the {prose.count_words(len(ps))}"


def group_tests(corpus, tests: pd.DataFrame, paper_tests: pd.DataFrame) -> dict[str, str | Passage]:
    """Readings for the section on Appendix B's "no significant difference" between groups A
    and B: ``tests`` is ``dataset_level.group_tests(corpus)``, ``paper_tests``
    ``dataset_level.paper_group_tests(figures)``."""
    t = tests.set_index(["stage", "test"])  # rows as dataset_level.group_tests names them
    pt = paper_tests.set_index(["stage", "test"])
    chi1, chi2 = pt.loc[("stage1", "chi-square, types")], pt.loc[("stage2", "chi-square, types")]
    paired = tests[tests["test"] != "chi-square, types"]
    out: dict[str, str | Passage] = {
        "gt_alpha": tables.number(ALPHA),
        "gt_paired": _verdict(paired["p"]),
        "gt_types": _verdict(tests.loc[tests["test"] == "chi-square, types", "p"]),
        "gt_w1": tables.pvalue(t.loc[("stage1", "Wilcoxon signed-rank"), "p"]),
        "gt_w2": tables.pvalue(t.loc[("stage2", "Wilcoxon signed-rank"), "p"]),
        "pt_chi1": tables.number(chi1["statistic"]),
        "pt_chi1_p": tables.pvalue(chi1["p"]),
        "pt_chi2": tables.number(chi2["statistic"]),
        "pt_chi2_p": tables.pvalue(chi2["p"]),
        "pt_df": tables.number(int(chi1["df"])),
        "pt_types": _verdict(paper_tests.loc[paper_tests["test"] == "chi-square, types", "p"]),
        "pt_rates": _verdict(paper_tests.loc[paper_tests["test"] == "rate test, totals", "p"]),
        "gt_note": simulated_only(
            corpus,
            "On the stand-in these tests examine the simulation, not the paper's annotators: the generator gives "
            "group B its own marking rates and sets each group's expected total from Table 4, so whatever they find "
            "was built in. On the real release the same call tests the real groups on the real examples.",
        ),
    }
    from statsmodels.stats.multitest import multipletests

    held = multipletests([chi1["p"], chi2["p"]], alpha=ALPHA, method="holm")[0]  # two stages, one question
    apart = [name for name, row in (("stage 1", chi1), ("stage 2", chi2)) if row["p"] < ALPHA]
    where = ("both stages" if len(apart) == 2 else apart[0]) if apart else ""
    if held.any():
        out["pt_reading"] = (
            'so the paper\'s own counts do not bear out a flat "no significant difference": in '
            f"{where} the two groups' mix of error types differs by more than the test ascribes to chance, "
            "even with both stages' p-values adjusted together (Holm)"
        )
    elif apart:
        out["pt_reading"] = (
            f"so the paper's own counts show the two groups' mix of error types apart in {where} at the "
            "unadjusted level only: with both stages' p-values adjusted together (Holm) no test stays below "
            'it, which is weak evidence against "no significant difference", not proof of a difference'
        )
    else:
        out["pt_reading"] = "so the paper's own counts agree with its claim as far as these tests can see"
    return out
