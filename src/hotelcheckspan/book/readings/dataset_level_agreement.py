"""Chapter 02 (dataset-level agreement): the numbers and readings its prose needs."""

from __future__ import annotations

import pandas as pd

from ...analyses import dataset_level
from ...reference import checks, paper
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
    f1_change: float | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 02's prose glues. ``t3``, ``t4``: ``dataset_level.table3/table4``
    (columns ``campaign, total, paper total, <type>, paper <type>, spans/rec.``);
    ``effects``: ``dataset_level.group_effects``; ``stage2``: the stage-2 examples; ``tests`` and
    ``paper_tests``: ``dataset_level.group_tests`` and ``paper_group_tests`` (the section on
    Appendix B's claim, when given); ``f1_change``: ``dataset_level.group_f1_change`` (computed when
    not given)."""
    reported = paper.figures()
    if f1_change is None:
        f1_change = dataset_level.group_f1_change(corpus)
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
        "short_why": simulated_only(corpus, _short_why(reported)),
        "records_reading": _records_reading(reported),
    }

    def rows3(cols):
        return [
            (f"{r['campaign']} {col}", f"table3_llm_campaigns/{r['campaign']}/{col}", int(r[col]))
            for _, r in shown3.iterrows()
            for col in cols
        ]

    total_key, type_key = "table3_llm_campaigns/gemma-3/total", "table3_llm_campaigns/gemma-3/Incorrect"
    out["t3_note"] = simulated_only(
        corpus,
        f"On the stand-in, by the rule of the data sheet, Table 3's totals are {_labels_line(rows3(['total']))} "
        f"({labels.reason(total_key)}), and its type counts {_labels_line(rows3(TYPES))} "
        f"({labels.reason(type_key)}). Span lengths are "
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
    pooled = _pct(s1["spans B"] + s2["spans B"], s1["spans A"] + s2["spans A"])
    out |= {
        "p_b_more": tables.number(paper_b),
        "p_b_minority": text["group_b_minority_due_to_extra_errors_pct"].replace(">", "over "),
        "p_volume": tables.number(abs(text["stage2_vs_stage1_volume_change_pct"]), 1),
        "p_agree_points": tables.number(text["stage2_vs_stage1_intergroup_agreement_points"], 1),
        "t4_b_more_pooled": tables.number(
            _pct(t4p["St. 1B"]["total"] + t4p["St. 2B"]["total"], t4p["St. 1A"]["total"] + t4p["St. 2A"]["total"]), 1
        ),
        "t4_b_more_s1": tables.number(t4_b1, 1),
        "t4_b_more_s2": tables.number(t4_b2, 1),
        "t4_volume": tables.number(abs(t4_vol), 1),
        "volume_where": _volume_where(abs(text["stage2_vs_stage1_volume_change_pct"])),
        "effects_note": simulated_only(corpus, _effects_note(effects, reported, minority, corpus, f1_change)),
        "b_more_reading": "B marks more than A in both stages"
        if s1["B more (%)"] > 0 and s2["B more (%)"] > 0
        else "B does not mark more than A in both stages",
        "b_text_reading": _roughly_where(paper_b),
        "b_marking_size": simulated_only(
            corpus,
            f" (on the stand-in its direction is "
            f"*{labels.kind('dataset_level_text/group_b_minority_due_to_extra_errors_pct')}*, its size aimed at by "
            "nothing: what the marking model gives on the votes calibrated to Table 5)",
        ),
        "b_more_pooled_pct": tables.number(pooled, 1),
        "b_more_s1_pct": tables.number(s1["B more (%)"], 1),
        "b_more_s2_pct": tables.number(s2["B more (%)"], 1),
        "paper_b_pct": tables.number(paper_b),
        "b_marking_pct": tables.number(b_marking, 1),  # as the table beside the paper's shows it
        "b_minority_cases": tables.number(minority["cases"]),
        "a_marking_pct": tables.number(minority["a_marking_pct"], 1),
        "a_minority_cases": tables.number(minority["a_cases"]),
        "b_marking_reading": "as the paper reports"
        if b_marking > paper_min
        else f"far from the paper's {text['group_b_minority_due_to_extra_errors_pct'].replace('>', 'over ')}%",
        "b_note": simulated_only(corpus, _b_note(minority, b_marking > paper_min)),
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
        "extremes_reading": "as in the paper's Table 4"
        if same
        else _extremes_against_paper(
            [shown_as.get(n, n) for n in most], [shown_as.get(n, n) for n in least], pmost, pleast, t4p
        ),
    }
    out["shares_reading"] = _shares_reading(dataset_level.campaign_table(corpus, stage2, by_group=True))
    return out | bases(corpus)


def _shares_reading(table: pd.DataFrame) -> str:
    """The figure of type shares in words: the human sets' range per type, and the judge
    with the largest share of each type (with its span count, as a share of few spans says little).
    ``table``: ``dataset_level.campaign_table(corpus, stage-2 examples, by_group=True)``."""
    human, llm = table[table["kind"] == "human"], table[(table["kind"] != "human") & (table["spans"] > 0)]
    ranges = [
        f"{t} {tables.number(human[f'{t} %'].min(), 0)}% to {tables.number(human[f'{t} %'].max(), 0)}%"
        for t in TYPES
        if t in human.columns
    ]
    text = f"the human sets' spans are {prose.names(ranges)}"
    if llm.empty:
        return text
    tops = []
    for t in TYPES:
        row = llm.loc[llm[f"{t} %"].idxmax()]
        n = int(row["spans"])
        share = tables.number(row[f"{t} %"], 0)
        tops.append(f"{row['name']} of {t} ({share}% of its {tables.number(n)} span{'' if n == 1 else 's'})")
    return f"{text}; among the judges the largest share is {prose.names(tops)}"


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
        "shares_basis": labels.basis(corpus, ("type counts", "table4_dataset_level_stage2_subset/St. 1A/Incorrect")),
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


def _effects_note(effects: pd.DataFrame, reported: dict, minority: dict, corpus, f1_change: float) -> str:
    """The labels of the Section 6.1 rows as their table shows them, with the provenance file's
    reason for each figure of the text."""
    rows = list(dataset_level.section61(effects, reported, minority, f1_change).itertuples(index=False, name=None))
    named = {}  # each of the text's figures under the first row that shows it
    for measure, key, *_ in rows:
        if isinstance(key, str):
            named.setdefault(key, measure)
    why = "; ".join(f"{m}: {labels.reason(k)}" for k, m in named.items() if labels.reason(k))
    return labels.passage(rows, corpus) + (f"\n\nThe data sheet's reasons: {why}." if why else "")


# the text's "roughly 20% more" read as its checks read it, per scope (data/paper_relations.yaml)
ROUGHLY_CHECKS = {
    "s61_group_b_more_pooled": "over both stages",
    "s61_group_b_more_stage1": "in stage 1",
    "s61_group_b_more_stage2": "in stage 2",
}


def _roughly_where(paper_pct: float) -> str:
    """Where Table 4's own totals give the text's "roughly 20% more" of group B, by the outcome of
    each reading's check (:data:`ROUGHLY_CHECKS`, "roughly" read as the nearest ten): the paper's
    figures against the paper's words, never the stand-in's."""
    out = tables.check_results().set_index("id")["outcome"]
    fits = [w for rid, w in ROUGHLY_CHECKS.items() if out[rid] == checks.FITS]
    fails = [w for rid, w in ROUGHLY_CHECKS.items() if out[rid] == checks.FAILS]
    said = f"Table 4's totals give the text's roughly {tables.number(paper_pct)}% {prose.names(fits) or 'nowhere'}"
    return said + (f", not {prose.names(fails)}" if fails else "")


# the text's "reduction in overall annotation volume" read as its checks read it (data/paper_relations.yaml)
VOLUME_CHECKS = {
    "s61_volume_change": "Table 4's spans on the stage-2 examples",
    "s61_volume_change_per_record": "spans per record",
    "s61_volume_change_error_records": "records with an error on the stage-2 examples",
    "s61_volume_change_error_records_all": (
        "records with an error per record (stage 1 on all its examples against stage 2)"
    ),
}


def _volume_where(paper_pct: float) -> str:
    """Where the paper's own figures give the text's stage-2 change in "annotation volume", by the
    outcome of each reading's check (:data:`VOLUME_CHECKS`), and the verdict the checks give the
    claim: the paper's figures against the paper's words, never the stand-in's."""
    results = tables.check_results().set_index("id")
    fits = [w for rid, w in VOLUME_CHECKS.items() if results.at[rid, "outcome"] == checks.FITS]
    fails = [w for rid, w in VOLUME_CHECKS.items() if results.at[rid, "outcome"] == checks.FAILS]
    verdict = results.at["s61_volume_change", "verdict"]
    said = f"the text's {tables.number(paper_pct, 1)}% fits read as {prose.names(fits) or 'nothing the figures decide'}"
    said += f", not as {prose.names(fails)}" if fails else ""
    return f"{said}: the claim {verdict if verdict.startswith('depends') else f'is {verdict}'}"


def _b_note(minority: dict, reproduced: bool) -> str:
    """What the generator puts into group B's marking (one intercept, on every claim) and what
    B's share of lone marks is beside: the base rate of lone marks and group A's share."""
    cases, a_cases = minority["cases"], minority["a_cases"]
    lone = cases + a_cases
    marked = (cases * minority["b_marking_pct"] + a_cases * minority["a_marking_pct"]) / 100 if lone else 0
    how = (
        "The simulation makes group B differ from group A by one marking intercept only, solved from Table 4's "
        "totals and added to every claim, true errors and false alarms alike: B marks more and misses less, a "
        "shift of threshold."
    )
    if reproduced:
        return how + " That shift is enough to reproduce the paper's pattern."
    return (
        f"{how} The shift is small against the base rate: of the {tables.number(lone)} splits where one set "
        f"stands alone, the lone set is the one marking in {tables.number(round(marked))} "
        f"({tables.number(100 * marked / lone, 1) if lone else '–'}%), and a group-A set alone is the one marking "
        f"in {tables.number(minority['a_marking_pct'], 1)}% of its {tables.number(a_cases)}, so B's share sits "
        "near the base rate, not near the paper's."
    )


def _short_why(reported: dict) -> str:
    """Why the stand-in's gpt-4o campaigns mark (almost) only the short split: the generator's targets."""
    t3, t4 = reported["table3_llm_campaigns"], reported["table4_dataset_level_stage2_subset"]
    rest = int(t3["gpt-4o"]["total"] - t4["gpt-4o"]["total"])
    return (
        " (set by construction: the generator gives each judge Table 4's total on the stage-2 examples "
        f"and Table 3's minus Table 4's on the rest, {tables.number(rest)} span{'' if rest == 1 else 's'} "
        "for gpt-4o)"
    )


def _records_reading(reported: dict) -> str:
    """The release README's count of LLM records under the readings of where the gpt-4o campaigns
    ran (the relations ``readme_llm_records_five_campaigns`` and
    ``readme_llm_records_short_split_reading``, whose weights give the count), and as as many
    campaigns on every example as the count holds: it fits the short split's reading, and as well
    fewer campaigns than Table 3's on every example, so it corroborates neither."""
    from ...reference import checks

    ds = reported["dataset"]
    n, n_short, got = ds["examples"], ds["splits"]["short"], ds["llm_records"]
    n_full, n_gpt = next(r for r in checks.load() if r["id"] == "readme_llm_records_short_split_reading")["params"][
        "weights"
    ]
    n_campaigns = len(reported["table3_llm_campaigns"])
    short, every = n_full * n + n_gpt * n_short, n_campaigns * n
    per_example, rest = divmod(got, n)
    said = (
        f"The release README's count of LLM records, {tables.number(got)}, "
        f"{'fits' if short == got else 'does not fit'} the first of those readings "
        f"({prose.count_words(n_full)} campaigns on {tables.number(n)} examples and the "
        f"{prose.count_words(n_gpt)} gpt-4o campaigns on the {tables.number(n_short)} short ones give "
        f"{tables.number(short)}; {prose.count_words(n_campaigns)} campaigns on all {tables.number(n)} would give "
        f"{tables.number(every)})"
    )
    if rest == 0 and per_example != n_campaigns:
        said += (
            f", but it is as well {prose.count_words(per_example)} campaigns on every example, "
            f"{'fewer' if per_example < n_campaigns else 'more'} than Table 3's {prose.count_words(n_campaigns)}"
            + shared_records(per_example, n_campaigns)
            + ", so it does not settle it"
        )
    return said


def shared_records(per_example: int, n_campaigns: int) -> str:
    """What fewer campaigns' records than Table 3's needs where the release's spans are all of
    Table 3's totals (``readme_llm_spans``): campaigns sharing their records, which nothing prints."""
    from ...reference import checks

    if per_example >= n_campaigns:
        return ""
    spans = tables.check_results().set_index("id").loc["readme_llm_spans", "verdict"]
    if spans != checks.CONSISTENT:
        return ""
    return (
        f" (its spans are all {prose.count_words(n_campaigns)} campaigns' totals, so that needs "
        f"{prose.count_words(n_campaigns - per_example + 1)} of them to share their records, "
        "which nothing printed says)"
    )


def _extremes_against_paper(most, least, pmost, pleast, t4p) -> str:
    """Where our extremes differ from the paper's Table 4: the paper's totals of the campaigns
    involved, so a tie on one side says it is ours ("the paper's Table 4 has o3-mini at 1 span and
    o3-mini (LS) at 4")."""

    def spans(n):
        k = int(t4p[n]["total"])
        return f"{n} at {tables.number(k)} span{'' if k == 1 else 's'}"

    parts = []
    for ours, theirs, where in ((most, pmost, "most"), (least, pleast, "least")):
        if set(ours) == set(theirs):
            parts.append(f"the {where} as in the paper's Table 4")
            continue
        named = list(dict.fromkeys([*theirs, *(n for n in ours if n in t4p)]))
        tie = " (the tie is ours)" if len(ours) > 1 and len(theirs) == 1 else ""
        parts.append(f"the {where} not: the paper's Table 4 has {prose.names([spans(n) for n in named])}{tie}")
    return "; ".join(parts)


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
    if others and not parts:  # one label for them all
        return " and ".join(f"*{o}*" for o in others) + ("" if len(others) == 1 else " (by row)")
    return "; ".join(parts + [f"*{o}* for the rest" for o in others])


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
        **{  # the rate test of Table 4's kind on this corpus' totals, beside the paired test on the same spans
            f"gt_rate{i}": tables.pvalue(dataset_level.rate_test(c["A"].sum(), c["B"].sum())["p"])
            for i, c in ((i, dataset_level.group_counts(corpus, f"stage{i}")) for i in (1, 2))
            if not c.empty
        },
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
