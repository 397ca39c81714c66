"""Dataset-level agreement (Tables 2-4): what each campaign marked, counted and typed.

``campaign_table`` returns one row per campaign (and annotator group, if asked) with columns
``records, error_records, spans, spans_per_record, spans_per_error_record, mean_words``, then
per type ``<type>`` (count) and ``<type> %`` (share of the campaign's spans).

Counts use every record and span; span lengths in words (``mean_words``, ``span_words_*``) use
only spans whose text is at their offsets (``placed``; see ``Corpus.left_out``).
"""

from __future__ import annotations

import pandas as pd

from ..annotator_sets import AnnotatorSet, judges
from ..categories import CATEGORIES
from ..corpora import KEY, Corpus
from ..reference import provenance


def restrict(corpus: Corpus, examples: pd.DataFrame | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Records and spans on the given examples (all when ``examples`` is None)."""
    if examples is None:
        return corpus.records, corpus.spans
    keys = examples[KEY].drop_duplicates()
    return corpus.records.merge(keys, on=KEY), corpus.spans.merge(keys, on=KEY)


def stage2_examples(corpus: Corpus, campaign: str = "stage2") -> pd.DataFrame:
    """The examples annotated in the second stage (the paper's 245)."""
    return corpus.records.loc[corpus.records["campaign"] == campaign, KEY].drop_duplicates().reset_index(drop=True)


def set_names(records: pd.DataFrame, campaigns, groups) -> list[str]:
    """Display names of (campaign, group) rows: a group is named only where its campaign has
    several ("St. 1A"), so single-group campaigns keep their name ("gemma-3")."""
    n_groups = records.groupby("campaign")["annotator_group"].nunique()
    return [
        AnnotatorSet(c, None if g is None or pd.isna(g) or n_groups.get(c, 1) < 2 else int(g)).name
        for c, g in zip(campaigns, groups)
    ]


def placed_words(spans: pd.DataFrame) -> pd.Series:
    """Span lengths in words, <NA> for a span whose text is not at its offsets (not ``placed``)."""
    if "placed" not in spans.columns:
        return spans["words"].astype("Float64")
    return spans["words"].astype("Float64").where(spans["placed"].fillna(False).astype(bool))


def campaign_table(corpus: Corpus, examples: pd.DataFrame | None = None, by_group: bool = False) -> pd.DataFrame:
    """Spans per campaign (and group) and type, with density and length, on ``examples``; one
    column per category of the corpus (``corpus.categories``)."""
    cats = corpus.categories
    records, spans = restrict(corpus, examples)
    keys = ["campaign", "annotator_group"] if by_group else ["campaign"]
    rec = records.groupby(keys, sort=False).agg(
        kind=("kind", "first"),
        records=("record_id", "size"),
        error_records=("n_spans", lambda s: int((s > 0).sum())),
    )
    sp = (
        spans.assign(words=placed_words(spans).astype(float))
        .groupby(keys, sort=False)
        .agg(spans=("record_id", "size"), mean_words=("words", "mean"))
    )
    types = spans.pivot_table(index=keys, columns="type", values="record_id", aggfunc="size", fill_value=0)
    types = types.reindex(columns=cats, fill_value=0)
    table = rec.join(sp).join(types).fillna({"spans": 0, **{c: 0 for c in cats}})
    table["spans"] = table["spans"].astype(int)
    table[cats] = table[cats].astype(int)
    table["spans_per_record"] = table["spans"] / table["records"]
    table["spans_per_error_record"] = table["spans"] / table["error_records"].where(table["error_records"] > 0)
    for c in cats:
        table[f"{c} %"] = 100 * table[c] / table["spans"].where(table["spans"] > 0)
    table = table.reset_index()
    groups = table["annotator_group"] if by_group else [None] * len(table)
    table.insert(0, "name", set_names(corpus.records, table["campaign"], groups))
    cols = [
        "name",
        *keys,
        "kind",
        "records",
        "error_records",
        "spans",
        "spans_per_record",
        "spans_per_error_record",
        "mean_words",
        *cats,
        *[f"{c} %" for c in cats],
    ]
    return table[cols]


def type_distribution(corpus: Corpus, kind: str = "human") -> pd.DataFrame:
    """Table 2: count and share of each of the corpus' categories over all spans of one kind."""
    cats = corpus.categories
    spans = corpus.spans[corpus.spans["kind"] == kind]
    counts = spans["type"].value_counts().reindex(cats, fill_value=0)
    return pd.DataFrame({"type": cats, "count": counts.values, "pct": 100 * counts.values / max(1, counts.sum())})


def overview(corpus: Corpus, kind: str = "human") -> dict:
    """Section 4.4's headline numbers for one kind of annotator."""
    records = corpus.records[corpus.records["kind"] == kind]
    spans = corpus.spans[corpus.spans["kind"] == kind]
    n_err = int((records["n_spans"] > 0).sum())
    words = placed_words(spans).dropna().astype(int)
    return {
        "records": len(records),
        "spans": len(spans),
        "spans_per_record": len(spans) / max(1, len(records)),
        "spans_per_error_record": len(spans) / max(1, n_err),
        "span_words_mean": float(words.mean()) if len(words) else float("nan"),
        "span_words_median": float(words.median()) if len(words) else float("nan"),
        "span_words_min": int(words.min()) if len(words) else 0,
        "span_words_max": int(words.max()) if len(words) else 0,
    }


def sizes(corpus: Corpus) -> pd.DataFrame:
    """Examples per split and records per campaign and group."""
    ex = corpus.examples.groupby("split", sort=False).size().rename("count").reset_index()
    ex.insert(0, "what", "examples")
    ex = ex.rename(columns={"split": "which"})
    rec = (
        corpus.records.groupby(["campaign", "annotator_group"], sort=False)
        .agg(count=("record_id", "size"), annotators=("annotator_id", "nunique"))
        .reset_index()
    )
    rec.insert(0, "what", "records")
    rec["which"] = set_names(corpus.records, rec["campaign"], rec["annotator_group"])
    return pd.concat([ex, rec[["what", "which", "count", "annotators"]]], ignore_index=True)


def dedup_summary(corpus: Corpus) -> pd.DataFrame:
    """De-duplication by number of sources: examples, segments before, share dropped, words after."""
    ex = corpus.examples.dropna(subset=["segments"])
    table = ex.groupby("sources").agg(
        examples=("example_idx", "size"),
        segments=("segments", "sum"),
        dropped=("segments_dropped", "sum"),
        words_mean=("description_words", "mean"),
    )
    table["dropped %"] = 100 * table["dropped"] / table["segments"]
    return table.reset_index()


def _paper_row(name: str, row: dict | None, ours: pd.Series | None, with_density: bool) -> dict:
    """One row of Table 3 or 4: the paper's figures beside ours; ``row`` None for a judge the
    paper does not have (its paper columns are missing, NaN)."""
    row = row if row is not None else {}
    out = {"campaign": name, "paper total": row.get("total"), "total": int(ours["spans"]) if ours is not None else 0}
    if with_density:
        out |= {
            "paper spans/rec.": row.get("spans_per_record"),
            "spans/rec.": round(float(ours["spans_per_record"]), 2) if ours is not None else 0.0,
            "paper spans/err. rec.": row.get("spans_per_error_record"),
            "spans/err. rec.": round(float(ours["spans_per_error_record"]), 2) if ours is not None else None,
            "paper avg len": row.get("avg_len"),
            "avg len": round(float(ours["mean_words"]), 1) if ours is not None else None,
        }
    for t in CATEGORIES:
        out[f"paper {t}"] = row.get(t)
        out[t] = int(ours[t]) if ours is not None else 0
    return out


def _other_judges(corpus: Corpus, names: dict[str, str]) -> list[str]:
    """The corpus' judges (model campaigns) that no paper row names, in corpus order."""
    return [c for c in judges(corpus) if c not in set(names.values())]


def _frame(rows: list[dict]) -> pd.DataFrame:
    """The rows as a frame whose paper columns stay numeric (NaN where the paper has no row)."""
    out = pd.DataFrame(rows)
    for col in [c for c in out.columns if c.startswith("paper ")]:
        out[col] = pd.to_numeric(out[col])
    return out


def table3(corpus: Corpus, figures: dict, names: dict[str, str]) -> pd.DataFrame:
    """Table 3 side by side: judges on all examples. ``names`` maps paper row -> campaign.

    Every other judge of the corpus (a model campaign the paper does not have) follows the
    paper's rows, its paper columns missing (NaN; the book shows "not in the paper")."""
    ours = campaign_table(corpus).set_index("campaign")
    rows = [
        _paper_row(paper_name, row, ours.loc[names[paper_name]] if names[paper_name] in ours.index else None, True)
        for paper_name, row in figures["table3_llm_campaigns"].items()
    ]
    rows += [_paper_row(c, None, ours.loc[c], True) for c in _other_judges(corpus, names)]
    return _frame(rows)


def table4(corpus: Corpus, figures: dict, names: dict[str, str]) -> pd.DataFrame:
    """Table 4 side by side: every campaign on the stage-2 examples, then every other judge of
    the corpus (paper columns missing, as in :func:`table3`)."""
    table = campaign_table(corpus, stage2_examples(corpus), by_group=True)
    ours = table.set_index("name")
    rows = [
        _paper_row(
            paper_name,
            row,
            ours.loc[names.get(paper_name, paper_name)] if names.get(paper_name, paper_name) in ours.index else None,
            False,
        )
        for paper_name, row in figures["table4_dataset_level_stage2_subset"].items()
    ]
    for c in _other_judges(corpus, names):
        mine = table[table["campaign"] == c]
        rows += [_paper_row(name, None, r, False) for name, (_, r) in zip(mine["name"], mine.iterrows())]
        if mine.empty:  # no record on the stage-2 examples: a row of zeros says so
            rows.append(_paper_row(c, None, None, False))
    return _frame(rows)


def group_effects(corpus: Corpus) -> pd.DataFrame:
    """Section 6.1 on the stage-2 examples, per stage: spans of groups A and B, how many more B
    marks, and, where the two groups disagree on whether an example has any error, the share
    of those disagreements in which B is the one that marked an error."""
    sub = stage2_examples(corpus)
    records, _ = restrict(corpus, sub)
    rows = []
    for stage in ("stage1", "stage2"):
        rec = records[records["campaign"] == stage]
        if rec.empty:
            continue
        any_err = rec.assign(err=rec["n_spans"] > 0).pivot_table(
            index=KEY, columns="annotator_group", values="err", aggfunc="any"
        )
        spans_by_group = rec.groupby("annotator_group")["n_spans"].sum()
        disagree = any_err[0] != any_err[1]
        rows.append(
            {
                "stage": stage,
                "spans A": int(spans_by_group.get(0, 0)),
                "spans B": int(spans_by_group.get(1, 0)),
                "B more (%)": 100 * (spans_by_group.get(1, 0) / spans_by_group.get(0, 1) - 1),
                "agreement on any error (%)": 100 * float((~disagree).mean()),
                "disagreements": int(disagree.sum()),
                "B marked the error (%)": 100 * float(any_err.loc[disagree, 1].mean()) if disagree.any() else None,
            }
        )
    return pd.DataFrame(rows)


def b_minority(corpus: Corpus) -> dict:
    """Section 6.1's "when Group B was in the minority during a disagreement": on the stage-2
    examples, a B set (stage 1 or 2) alone against the other three sets, which agree, on whether
    the example has an error (a 3-1 split with B the one). Returns ``cases`` (such B-alone
    splits) and ``b_marking_pct`` (the share where B's lone vote is "error": B marked extra), and
    the same for an A set alone (``a_cases``, ``a_marking_pct``), the comparison that says how much
    of B's share is B's own and how much the base rate of lone "error" votes."""
    from ..annotator_sets import HUMAN_SETS
    from ..categories import ANY
    from .example_level import marks

    m = marks(corpus, HUMAN_SETS, stage2_examples(corpus))
    wide = m.pivot_table(index=KEY, columns="rater", values=ANY, aggfunc="any").dropna()
    out = {}
    for group, cases_key, pct_key in ((1, "cases", "b_marking_pct"), (0, "a_cases", "a_marking_pct")):
        cases = marked = 0
        for name in [s.name for s in HUMAN_SETS if s.group == group]:
            others = wide.drop(columns=name)
            alone = others.nunique(axis=1).eq(1) & wide[name].ne(others.iloc[:, 0])
            cases += int(alone.sum())
            marked += int(wide.loc[alone, name].sum())
        out |= {cases_key: cases, pct_key: 100 * marked / cases if cases else float("nan")}
    return out


def group_f1_change(corpus: Corpus) -> float:
    """Table 6's measure of Section 6.1's "inter-group agreement": the span F1, hard of group A
    against group B (the comparisons ``Group A - Group B (Stage 1)`` and ``(Stage 2)`` of
    ``data/comparisons.yaml``, the book's span-F1 definition), stage 2 minus stage 1, in points."""
    from .span_level import load_comparisons, pairwise

    names = ("Group A - Group B (Stage 1)", "Group A - Group B (Stage 2)")
    comparisons = [c for c in load_comparisons() if c["name"] in names]
    f1 = pairwise(corpus, comparisons, matches=("hard",))[0].set_index("comparison")["f1"]
    return 100 * float(f1[names[1]] - f1[names[0]])


def section61(
    effects: pd.DataFrame, figures: dict, minority: dict | None = None, f1_change: float | None = None
) -> pd.DataFrame:
    """Section 6.1's group and stage figures beside ours (``effects`` from :func:`group_effects`):
    each of the text's figures, and, where the paper's Table 4 totals give the same ratio, that
    ratio too (the text and Table 4 disagree). Group B's "roughly 20% more" is set beside both
    stages pooled (the text's "across both stages") and each stage. With ``minority``
    (:func:`b_minority`), the text's "B in the minority" figure beside its measure; with
    ``f1_change`` (:func:`group_f1_change`), the text's agreement gain beside the same measure on
    this corpus, span F1, hard of group A against group B (the one Table 6's group rows fit; the
    text names none), and beside what Table 6's two rows give. Columns: ``measure``, ``figure`` (a
    figure key of ``data/paper_figures.yaml``, or the number the paper's tables give), ``ours``,
    ``decimals``."""
    s1, s2 = effects.set_index("stage").loc["stage1"], effects.set_index("stage").loc["stage2"]
    t4 = {name: row["total"] for name, row in figures["table4_dataset_level_stage2_subset"].items()}
    key = "table4_dataset_level_stage2_subset/{}/total".format

    def from_table4(value, *names):  # a number of the paper's Table 4 totals: derived from them
        return provenance.derived(value, [key(n) for n in names], "from Table 4's totals")

    volume = 100 * ((s2["spans A"] + s2["spans B"]) / (s1["spans A"] + s1["spans B"]) - 1)
    pooled = 100 * ((s1["spans B"] + s2["spans B"]) / (s1["spans A"] + s2["spans A"]) - 1)
    text = "dataset_level_text/"
    rows = [
        ("group B marks more (%), both stages pooled", text + "group_b_more_annotations_pct", pooled),
        (
            "the same, pooled, from Table 4's totals",
            from_table4(
                100 * ((t4["St. 1B"] + t4["St. 2B"]) / (t4["St. 1A"] + t4["St. 2A"]) - 1),
                "St. 1A",
                "St. 1B",
                "St. 2A",
                "St. 2B",
            ),
            pooled,
        ),
        ("group B marks more (%), stage 1", text + "group_b_more_annotations_pct", s1["B more (%)"]),
        (
            "the same, stage 1, from Table 4's totals",
            from_table4(100 * (t4["St. 1B"] / t4["St. 1A"] - 1), "St. 1A", "St. 1B"),
            s1["B more (%)"],
        ),
        ("group B marks more (%), stage 2", text + "group_b_more_annotations_pct", s2["B more (%)"]),
        (
            "the same, stage 2, from Table 4's totals",
            from_table4(100 * (t4["St. 2B"] / t4["St. 2A"] - 1), "St. 2A", "St. 2B"),
            s2["B more (%)"],
        ),
        *(
            [
                (
                    "B alone against the other three sets: B marking (%)",
                    text + "group_b_minority_due_to_extra_errors_pct",
                    minority["b_marking_pct"],
                )
            ]
            if minority is not None
            else []
        ),
        ("stage 2 vs stage 1 volume (%)", text + "stage2_vs_stage1_volume_change_pct", volume),
        (
            "the same volume, from Table 4's totals",
            from_table4(
                100 * ((t4["St. 2A"] + t4["St. 2B"]) / (t4["St. 1A"] + t4["St. 1B"]) - 1),
                "St. 1A",
                "St. 1B",
                "St. 2A",
                "St. 2B",
            ),
            volume,
        ),
    ]
    if f1_change is not None:
        t6 = "table6_span_level/Group A - Group B (Stage {})/F1_H".format
        f1 = figures["table6_span_level"]
        rows += [
            (
                "stage 2 vs stage 1 inter-group agreement (span F1, hard of A against B, points)",
                text + "stage2_vs_stage1_intergroup_agreement_points",
                f1_change,
            ),
            (
                "the same, from Table 6's group rows",
                provenance.derived(
                    100 * (f1["Group A - Group B (Stage 2)"]["F1_H"] - f1["Group A - Group B (Stage 1)"]["F1_H"]),
                    [t6(1), t6(2)],
                    "from Table 6's span F1, hard",
                ),
                f1_change,
            ),
        ]
    return pd.DataFrame(
        [{"measure": m, "figure": f, "ours": float(o), "decimals": 1} for m, f, o in rows],
        columns=["measure", "figure", "ours", "decimals"],
    )


# --- Appendix B's "no significant difference" between groups A and B, tested ---------------------


def group_counts(corpus: Corpus, stage: str, examples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per example of ``stage`` (on ``examples``, default the stage-2 examples): the spans group A
    and group B marked. Columns: the example key, ``A``, ``B`` (one record per group and example,
    so a count is one annotator's)."""
    records, _ = restrict(corpus, stage2_examples(corpus) if examples is None else examples)
    rec = records[records["campaign"] == stage]
    wide = rec.pivot_table(index=KEY, columns="annotator_group", values="n_spans", aggfunc="sum").dropna()
    return pd.DataFrame({"A": wide[0].astype(int), "B": wide[1].astype(int)}).reset_index()


def type_contingency(counts: dict[str, dict[str, int]], categories=CATEGORIES) -> pd.DataFrame:
    """A groups x types table of span counts (``{group: {type: count}}``, as Table 4's rows are
    written in ``paper_figures.yaml``): the input of :func:`type_test`."""
    return pd.DataFrame({t: [int(counts[g][t]) for g in counts] for t in categories}, index=list(counts))


def type_test(table: pd.DataFrame) -> dict:
    """Pearson's chi-square test (scipy, no continuity correction) that two groups share one
    distribution of error types: ``statistic, df, p, n`` (types neither group used left out; NaN
    where fewer than two types remain or a group has no span). It treats spans as independent draws,
    which they are not (the same examples, several spans per record), so a small p overstates
    the evidence and a large one is no proof of equality."""
    from scipy.stats import chi2_contingency

    counts = table.to_numpy()
    counts = counts[:, counts.sum(axis=0) > 0]  # a type neither group used says nothing
    n = int(counts.sum())
    if counts.shape[1] < 2 or (counts.sum(axis=1) == 0).any():  # one type, or a group without spans
        return {"statistic": float("nan"), "df": None, "p": float("nan"), "n": n}
    res = chi2_contingency(counts, correction=False)
    return {"statistic": float(res.statistic), "df": int(res.dof), "p": float(res.pvalue), "n": n}


def rate_test(a: int, b: int) -> dict:
    """Whether two span totals on the same examples differ beyond Poisson noise: given ``a + b``
    spans, B's share is binomial with p = 1/2 under equal rates (the conditional test for two
    Poisson counts, scipy's exact binomial test). ``statistic`` is B's share. Counts spread wider
    than Poisson (annotators differ) make its p too small."""
    from scipy.stats import binomtest

    res = binomtest(int(b), int(a) + int(b), 0.5)
    return {"statistic": float(b / (a + b)), "df": None, "p": float(res.pvalue), "n": int(a) + int(b)}


def group_tests(corpus: Corpus, examples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Appendix B's claim that the checkbox wording (groups A and B) made no significant
    difference, tested per stage on ``examples`` (default: the stage-2 examples):

    - ``Wilcoxon signed-rank``: per example, B's span count minus A's (scipy; ties dropped,
      Wilcoxon's rule); ``statistic`` is the mean difference per example;
    - ``sign test``: the examples where B marked more against those where A did (exact binomial);
      ``statistic`` is the share where B marked more, among the untied;
    - ``chi-square, types``: A's and B's spans over the error types (:func:`type_test`).

    Columns: ``stage, test, n`` (untied examples, examples or spans), ``statistic, df, p``."""
    from scipy.stats import binomtest, wilcoxon

    rows = []
    _, spans = restrict(corpus, stage2_examples(corpus) if examples is None else examples)
    for stage in ("stage1", "stage2"):
        counts = group_counts(corpus, stage, examples)
        if counts.empty:
            continue
        diff = counts["B"] - counts["A"]
        untied = diff[diff != 0]
        more_b = int((untied > 0).sum())
        w = wilcoxon(counts["B"], counts["A"], zero_method="wilcox") if len(untied) else None
        s = binomtest(more_b, len(untied), 0.5) if len(untied) else None
        sp = spans[spans["campaign"] == stage]
        by = (
            sp.groupby(["annotator_group", "type"])
            .size()
            .unstack(fill_value=0)
            .reindex(columns=CATEGORIES, fill_value=0)
        )
        chi = type_test(by.rename(index={0: "A", 1: "B"}))
        rows += [
            {
                "stage": stage,
                "test": "Wilcoxon signed-rank",
                "n": len(untied),
                "statistic": float(diff.mean()),
                "df": None,
                "p": float(w.pvalue) if w is not None else float("nan"),
            },
            {
                "stage": stage,
                "test": "sign test",
                "n": len(untied),
                "statistic": more_b / len(untied) if len(untied) else float("nan"),
                "df": None,
                "p": float(s.pvalue) if s is not None else float("nan"),
            },
            {"stage": stage, "test": "chi-square, types", **chi},
        ]
    return pd.DataFrame(rows, columns=["stage", "test", "n", "statistic", "df", "p"])


def paper_group_tests(figures: dict) -> pd.DataFrame:
    """The same question on the paper's own Table 4 (its A and B rows on the 245 stage-2
    examples), with what the table allows: per stage, a chi-square of A's against B's type
    counts (:func:`type_test`) and the Poisson rate test of their totals (:func:`rate_test`);
    per-example counts, which a paired test needs, are not in the paper.
    Columns: ``stage, test, n, statistic, df, p``."""
    t4 = figures["table4_dataset_level_stage2_subset"]
    rows = []
    for stage, (a, b) in {"stage1": ("St. 1A", "St. 1B"), "stage2": ("St. 2A", "St. 2B")}.items():
        rows.append({"stage": stage, "test": "rate test, totals", **rate_test(t4[a]["total"], t4[b]["total"])})
        rows.append(
            {"stage": stage, "test": "chi-square, types", **type_test(type_contingency({"A": t4[a], "B": t4[b]}))}
        )
    return pd.DataFrame(rows, columns=["stage", "test", "n", "statistic", "df", "p"])


def qualification(figures: dict, level: float = 0.95) -> pd.DataFrame:
    """Section 4.3's qualification task as the paper reports it: candidates, how many qualified,
    the pass rate with its Wilson interval (statsmodels), the pass rule. The interval treats the
    candidates as a sample of the annotators Prolific's filters would let in; it says how precisely
    forty candidates pin that rate down, nothing about whether the task picked the right ones.
    Columns: ``candidates, qualified, rate, rate_low, rate_high, rule``."""
    from statsmodels.stats.proportion import proportion_confint

    s2 = figures["campaigns"]["stage2"]
    n, k = int(s2["candidates"]), int(s2["qualified"])
    low, high = proportion_confint(k, n, alpha=1 - level, method="wilson")
    return pd.DataFrame(
        [
            {
                "candidates": n,
                "qualified": k,
                "rate": k / n,
                "rate_low": float(low),
                "rate_high": float(high),
                # Section 4.3: "Those scoring at least three points were invited to continue"
                "rule": f"at least {s2['qualification_pass']}",
            }
        ]
    )
