"""Every table function of the presentation layer, rendered on a toy corpus, follows the book's
rules: no index column, plain-English headers, integers as integers, at most three decimals,
p-values never "0.0", a dash for what does not apply, no dict/list dumps, no cut text, and
(outside a dropdown) no wider than the content column."""

import dataclasses
import inspect
import re
from html import unescape

import numpy as np
import pandas as pd
import pytest

import hotelcheckspan
from hotelcheckspan import paths, review
from hotelcheckspan.analyses import (
    dataset_level,
    example_level,
    impressions,
    judges,
    llm_annotators,
    mqm_systems,
    span_level,
)
from hotelcheckspan.analyses import metric_validation as mv
from hotelcheckspan.annotator_sets import HUMAN_SETS
from hotelcheckspan.book import tables
from hotelcheckspan.corpora import KEY
from hotelcheckspan.reference import paper


@pytest.fixture(scope="module")
def toy(corpus):
    """The bundled corpus cut to its first examples of each split (stage 2 keeps its share)."""
    full = corpus
    ex = full.examples.groupby("split", sort=False).head(60)
    keys = ex[KEY]
    return dataclasses.replace(
        full,
        examples=ex.reset_index(drop=True),
        records=full.records.merge(keys, on=KEY),
        spans=full.spans.merge(keys, on=KEY),
    )


@pytest.fixture(scope="module")
def rendered(toy):
    """Every public table function of book/tables.py applied to the toy corpus' analyses."""
    figs = paper.figures()
    stage2 = dataset_level.stage2_examples(toy)
    r = impressions.ratings(toy)
    t3 = dataset_level.table3(toy, figs, paper.LLM_CAMPAIGNS)
    board = judges.leaderboard(toy, n_boot=50, n_resamples=50, n_outer=5, n_inner=20)
    validation = mv.evaluate(toy, n_boot=20, n_permutations=20, n_random=10, system_level=False)
    ted = hotelcheckspan.load(paths.MQM_TED)
    ted_systems = mqm_systems.system_intervals(ted, n_boot=20)
    clusters_frame = pd.DataFrame(
        {
            "cluster": [0],
            "label": ["proximity"],
            "claim": ["near"],
            "size": [3],
            "share": [50.0],
            "top_terms": ["beach, walk"],
            "central": ["close to the beach"],
        }
    )
    return {
        "sizes": tables.sizes(dataset_level.sizes(toy)),
        "dedup": tables.dedup(dataset_level.dedup_summary(toy)),
        "group_effects": tables.group_effects(dataset_level.group_effects(toy)),
        "side_by_side": tables.side_by_side(t3, columns=["total", "spans/rec."]),
        "table3": tables.table3(t3),
        "table4": tables.table4(dataset_level.table4(toy, figs, paper.LLM_CAMPAIGNS)),
        "volume": tables.volume(llm_annotators.volume(toy, stage2)),
        "type_bias": tables.type_bias(llm_annotators.type_bias(toy, stage2)),
        "aspects": tables.aspects(llm_annotators.agreement_by_aspect(toy, "gpt-4o", stage2)),
        "reasons": tables.reasons(llm_annotators.reasons(toy, "gpt-4o", n=5, examples=stage2)),
        "correlation": tables.correlation(impressions.count_correlation(r)),
        "by_count": tables.by_count(impressions.by_count(r)),
        "by_type": tables.by_type(impressions.by_type(r)),
        "bands": tables.bands(impressions.bands(r)),
        "models": tables.models(impressions.error_effect_models(r)),
        "models_per_type": tables.models(impressions.per_type_models(r)),
        "annotator_variance": tables.annotator_variance(impressions.annotator_variance(r)),
        "record": tables.record({"spans_per_record": 0.5, "examples": 496}),
        "show": tables.show(
            pd.DataFrame(
                {
                    "recall_error": [0.123456, np.nan],
                    "p": [0.0, 0.04],
                    "majority_errors": [31.0, 794.0],
                    "f1": [0.2, 0.3],
                    "f1_low": [0.1, 0.2],
                    "f1_high": [0.3, 0.4],
                }
            )
        ),
        "versus": tables.versus(
            [
                ("examples", "dataset/examples", len(toy.examples)),
                ("t", "impressions/t_errors_vs_none", 12.3456, 1),
                ("p", "impressions/p", tables.pvalue(1e-60)),
                ("not in the paper", None, (0.5, 0.4, 0.6)),
            ],
            toy,
        ),
        "wide": tables.wide(t3),
        "dropdown": tables.dropdown(tables.sizes(dataset_level.sizes(toy))),
        "leaderboard": tables.leaderboard(board),
        "neighbours": tables.neighbours(board),
        "compared": tables.compared(board),
        "inconsistencies": tables.inconsistencies("01_data_composition"),
        "section_checks": tables.section_checks(
            tables.check_results().query("section == '3.3'"), {"claim": "What the paper says", "verdict": "Verdict"}
        ),
        "review_marks": tables.review_marks(review.marks_by_corpus({"toy": toy})),
        "review_preview": tables.review_preview(review.preview(toy, 3)),
        "prevalence": tables.prevalence(example_level.prevalence(example_level.marks(toy, HUMAN_SETS))),
        "span_prf": tables.span_prf(
            span_level.table6(*span_level.pairwise(toy, [{"name": "A-B", "ref": ["stage1/A"], "hyp": ["stage1/B"]}]))
        ),
        "folded": tables.folded(tables.sizes(dataset_level.sizes(toy)), ["What", "Count"], "Every column"),
        "every_pair": tables.every_pair(
            span_level.pairwise(toy, [{"name": "A-B", "ref": ["stage1/A"], "hyp": ["stage1/B"]}])[0]
        ),
        "set_prf": tables.set_prf(
            pd.DataFrame({"name": ["m1"], "pairs": [2], "precision": [0.5], "recall": [0.25], "f1": [1 / 3]})
        ),
        "real_composition": tables.real_composition(dataset_level.campaign_table(toy)),
        "category_shares": tables.category_shares(dataset_level.campaign_table(toy), toy.categories),
        "load_warnings": tables.load_warnings(toy),
        "text_votes": tables.text_votes(example_level.votes(example_level.marks(toy, HUMAN_SETS)), toy.categories),
        "gamma_beside_f1": tables.gamma_beside_f1(
            pd.DataFrame(
                {
                    "comparison": ["A-B"],
                    "f1": [0.2],
                    "f1_low": [0.1],
                    "f1_high": [0.3],
                    "f1_rank": [1],
                    "gamma": [0.4],
                    "gamma_low": [0.3],
                    "gamma_high": [0.5],
                    "gamma_rank": [1],
                    "pairs": [1],
                    "gamma_pairs": [1],
                    "gamma_examples": [2],
                    "s_empty": [0.5],
                }
            )
        ),
        "qualification": tables.qualification(dataset_level.qualification(figs)),
        "location_share": tables.location_share(
            pd.DataFrame(
                {
                    "group": ["Proximity", "all of them"],
                    "clusters": [2, 3],
                    "spans": [10, 14],
                    "share": [29.1, 40.0],
                    "low": [26.0, 36.6],
                    "high": [32.4, 43.5],
                }
            )
        ),
        "cluster_overview": tables.cluster_overview(clusters_frame),
        "cluster_centrals": tables.cluster_centrals(clusters_frame),
        "metric_board": tables.metric_board(mv.leaderboard(validation), "kendall_tau_b"),
        "metric_statistics": tables.metric_statistics(validation.statistics, "errors", ["kendall_tau_b", "acc23"]),
        "by_group": tables.by_group(mv.by_group(validation, "split", n_boot=20), "kendall_tau_b"),
        "mqm_reproduction": tables.mqm_reproduction(mqm_systems.reproduction(ted_systems, mqm_systems.published())),
        "mqm_systems": tables.mqm_systems(ted_systems),
        "mqm_raters": tables.mqm_raters(mqm_systems.rater_table(ted)),
    }


# functions of tables.py that build or format cells rather than tables
# (`mark` adds the stand-in provenance column; tests/test_examples.py checks it)
HELPERS = {
    "header",
    "is_missing",
    "number",
    "signed_number",
    "pvalue",
    "interval",
    "paper_value",
    "figure_status",
    "figure_label",  # tests/test_provenance.py checks it
    "mark",
    "not_in_paper",
    "say_not_in_paper",
    "row_name_columns",  # test_rows_are_named_by_the_fewest_leading_columns_that_tell_them_apart
    "corpus_names",  # a decorator: test_a_table_names_a_corpus_judges_by_the_corpus_names
    "statistic_words",  # test_table6_symbols_are_written_as_the_glossary_writes_them
}


def test_table6_symbols_are_written_as_the_glossary_writes_them():
    assert tables.statistic_words("paper P_H") == "paper span precision, hard"
    assert tables.statistic_words("F1_S beside R_H") == "span F1, soft beside span recall, hard"
    assert tables.statistic_words("P_S / R_S") == "span precision / recall, soft"
    assert tables.show(pd.DataFrame({"metric": ["bertscore_precision"]})).frame["Metric"].tolist() == [
        "BERTScore precision"
    ]


def test_a_table_names_a_corpus_judges_by_the_corpus_names():
    """Issue 45: a table of a real corpus names its judges and human sets as every other page does
    (``names=``): the iaa split's "zeroshot-gpt4o" is "gpt4o", its human campaign "humans";
    without the corpus the rules that need none apply, and numbers and paths stay as they are."""
    from hotelcheckspan import load, paths
    from hotelcheckspan.annotator_sets import names

    iaa = names(load(paths.REAL_CORPUS))
    frame = pd.DataFrame(
        {
            "name": ["iaa", "zeroshot-gpt4o", "humans vs zeroshot-o3-mini"],
            "file": ["a/iaa/zeroshot-gpt4o/annotations.jsonl"] * 3,
            "spans": [3, 4, 5],
        }
    )
    shown = tables.show(frame, names=iaa).frame
    assert shown["Name"].tolist() == ["humans", "gpt4o", "humans vs o3-mini"]
    assert shown["File"].tolist() == frame["file"].tolist() and shown["Spans"].tolist() == ["3", "4", "5"]
    assert tables.show(frame).frame["Name"].tolist() == frame["name"].tolist()
    folded = tables.folded(tables.show(frame), ["Name", "Spans"], names=iaa)
    assert folded.narrow.frame["Name"].tolist() == folded.full.frame["Name"].tolist() == shown["Name"].tolist()


def test_every_table_function_is_rendered(rendered):
    public = {
        n
        for n, f in inspect.getmembers(tables, inspect.isfunction)
        if not n.startswith("_") and f.__module__ == tables.__name__
    }
    missing = public - HELPERS - set(rendered) - {"models"}
    assert not missing, f"add a case to tests/test_tables.py for: {sorted(missing)}"


def cells_and_headers(table):
    if isinstance(table, tables.Table):
        return table.frame, list(table.frame.columns)
    html = table.data  # IPython HTML of a dropdown: read its cells back as they are shown
    headers = [unescape(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", html)]
    cells = [unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", html)]
    return pd.DataFrame(np.array(cells).reshape(-1, len(headers)), columns=headers), headers


@pytest.mark.parametrize(
    "name",
    [
        "sizes",
        "dedup",
        "group_effects",
        "side_by_side",
        "table3",
        "table4",
        "volume",
        "type_bias",
        "aspects",
        "reasons",
        "correlation",
        "by_count",
        "by_type",
        "bands",
        "models",
        "models_per_type",
        "annotator_variance",
        "record",
        "show",
        "versus",
        "wide",
        "dropdown",
    ],
)
def test_table_follows_the_rules(rendered, name):
    table = rendered[name]
    frame, headers = cells_and_headers(table)
    html = table.to_html() if isinstance(table, tables.Table) else table.data
    assert "<th></th>" not in html and "Unnamed" not in " ".join(headers), "an index column is shown"
    for h in headers:
        assert not re.search(r"[a-z]_[a-z]", h), f"snake_case header {h!r}"
    for v in frame.to_numpy().ravel():
        v = str(v)
        assert v not in ("nan", "NaN", "None", "<NA>"), f"missing value shown as {v!r}"
        assert not re.search(r"\d\.\d{4,}", v), f"more than three decimals: {v!r}"
        assert not re.fullmatch(r"0\.0+", v) or "p" not in headers, "p shown as 0.0"
        assert not re.search(r"^[\[{].*[\]}]$", v) and "{'" not in v, f"a dict or list dump: {v!r}"
        assert "..." not in v and "…" not in v, f"cut text: {v!r}"
    for h in headers:
        col = frame[h].astype(str)
        assert not col.str.fullmatch(r"-?\d+\.0+").all(), f"whole numbers shown as floats in {h!r}: {col.tolist()}"
    if isinstance(table, tables.Table) and name not in ("reasons",):
        assert table.width_px() <= tables.CONTENT_WIDTH_PX, f"{name} is wider than the content column"
    if isinstance(table, tables.Table):
        assert repr(table) and "object at 0x" not in repr(table)


def test_cells(rendered):
    assert tables.pvalue(0.0) == "<0.001" and tables.pvalue(4e-58) == "<0.001" and tables.pvalue(0.0123) == "0.012"
    assert tables.interval(0.15, 0.07, 0.243) == "0.15 [0.07, 0.24]"
    assert tables.number(float("nan")) == tables.DASH and tables.number(None) == tables.DASH
    assert tables.header("majority_errors") == "Majority errors" and tables.header("f1") == "F1"
    shown = rendered["show"].frame
    assert list(shown.columns) == ["Recall error", "p", "Majority errors", "F1 [95% CI]"]
    assert shown["Majority errors"].tolist() == ["31", "794"] and shown["p"].tolist() == ["<0.001", "0.040"]
    assert shown["F1 [95% CI]"].tolist() == ["0.20 [0.10, 0.30]", "0.30 [0.20, 0.40]"]
    assert shown["Recall error"].tolist() == ["0.12", tables.DASH]
    with pytest.raises(TypeError):
        tables.show(pd.DataFrame({"x": [{"a": 1}]}))


def test_versus_says_how_each_figure_entered_a_simulated_corpus(tmp_path):
    prov = tmp_path / "standin_provenance.yaml"
    prov.write_text(
        "dataset:\n  examples: {input: true, reason: written by the generator}\n"
        "table3_llm_campaigns: {input: true, reason: expected counts solved}\n"
    )
    rows = [
        ("examples", "dataset/examples", 496),
        ("gemma-3", "table3_llm_campaigns/gemma-3/total", 191),
        ("r", "impressions/r_error_count_vs_impression", -0.45),
    ]
    sim = tables.versus(rows, simulated=True, provenance=prov).frame
    assert sim["Figure is"].tolist() == ["set", "set, missed by 14", "emergent"]
    assert sim["Difference"].tolist() == ["0", "+14", "-0.14"]
    missing = tables.versus(rows, simulated=True, provenance=tmp_path / "absent.yaml").frame
    assert set(missing["Figure is"]) == {"emergent"}
    real = tables.versus(rows, simulated=False, provenance=prov).frame
    assert "Figure is" not in real.columns
    bad = tmp_path / "bad.yaml"
    bad.write_text("dataset:\n  examples: {status: guessed}\n")
    with pytest.raises(ValueError, match="status"):
        tables.versus(rows, simulated=True, provenance=bad)


# --- every table path escapes what comes from a corpus ------------------------------------------

XSS = "<img src=x onerror=alert(1)>"


def _html(obj) -> str:
    return obj._repr_html_() if hasattr(obj, "_repr_html_") else obj.to_html()


def test_every_table_path_escapes_corpus_strings():
    """Campaign names, span texts and warnings come from files a user may have downloaded: in
    every path that writes a table into a page, a cell, a header or a caption holding markup is
    shown as text."""
    frame = pd.DataFrame({"campaign": [XSS, "b"], "f1": [0.5, 0.25], "f1_low": [0.4, 0.1], "f1_high": [0.6, 0.3]})
    wide = pd.DataFrame({"campaign": [XSS], "total": [3], "paper total": [4]})
    paths = {
        "show": tables.show(frame),
        "show (header)": tables.show(frame.rename(columns={"campaign": XSS})),
        "show (caption)": tables.show(frame, caption=XSS),
        "record": tables.record({XSS: XSS}),
        "dropdown": tables.dropdown(tables.show(frame), summary=XSS),
        "versus": tables.versus([(XSS, None, XSS)]),
        "side_by_side": tables.side_by_side(wide),
        "wide": tables.wide(wide),
    }
    for name, obj in paths.items():
        html = _html(obj)
        assert "<img" not in html, f"{name} writes a corpus string into the page as markup"
        assert "&lt;img src=x onerror=alert(1)&gt;" in html, f"{name} drops the string instead of escaping it"


def test_report_paths_escape_corpus_strings(corpus):
    from hotelcheckspan.book import report

    key = corpus.examples.iloc[0]
    spans = pd.DataFrame([{"start": 0, "end": 3, "type": corpus.categories[0], "reason": XSS}])
    html = report._marked(XSS + " " + str(key["summary"]), spans, report.highlight_palette(corpus.categories))
    assert "<img" not in html and "&lt;img" in html


def test_notebooks_show_no_bare_styler():
    """A bare pandas Styler neither escapes its cells nor carries the book's style, and its text
    form is a memory address that changes with every run: chapters show tables through
    hotelcheckspan.book.tables."""
    from pathlib import Path

    offenders = [
        f"{p.name}:{i}"
        for p in sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.py"))
        + sorted((Path(__file__).resolve().parents[1] / "book").glob("*.md"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\.style\b|Styler", line) and not line.lstrip().startswith("#")
    ]
    assert not offenders, f"bare pandas Stylers: {offenders}"


def test_intervals_keep_their_own_style():
    """A paper value in the next column never reads as part of an interval: the bounds sit in
    their own span (styled apart in book/_static/tables.css)."""
    html = tables.show(
        pd.DataFrame({"ours": ["0.13 [0.08, 0.19]"], "paper": ["0.10"]}), headers={"ours": "F1", "paper": "Paper"}
    ).to_html()
    assert '0.13 <span class="hcs-ci">[0.08, 0.19]</span>' in html
    assert 'style="text-align:right">0.10<' in html


def test_short_hyphenated_names_stay_whole_and_bounded_counts_align_right():
    """Issue 20 at 390 px: a squeezed text column broke "gemma-3" into "gemma-" and "3"; a short
    hyphenated word is kept whole (a long path still wraps, at its slashes), and "> 980" is a number,
    right-aligned."""
    table = tables.show(
        pd.DataFrame(
            {
                "pair": ["gpt-4o > gemma-3", "annotations/model/d2t-eval/iaa/zeroshot-gpt4o", "<b>x-y</b>"],
                "n": ["> 980", "25", "175"],
            }
        )
    )
    html = table.to_html()
    assert '<span class="hcs-word">gpt-4o</span> &gt; <span class="hcs-word">gemma-3</span>' in html
    # a long path wraps after its slashes (issue 36: never inside a folder's name)
    assert ">annotations/<wbr>model/<wbr>d2t-eval/<wbr>iaa/<wbr>zeroshot-gpt4o<" in html
    assert "<b>" not in html and "&lt;b&gt;x-y&lt;/b&gt;" in html
    assert table.numeric == [False, True]
    assert 'style="text-align:right">&gt; 980<' in html


def test_a_table_says_how_many_columns_name_its_rows():
    """Issue 29: a row named by two columns (model and error type) keeps both in view when the table
    scrolls; the table says so in its HTML (``data-labels``), and one label column, the default,
    leaves the HTML as it was (stored outputs do not change)."""
    frame = pd.DataFrame({"model": ["a", "a", "b"], "type": ["x", "y", "x"], "f1": [0.1, 0.2, 0.3]})
    one = tables.Table(frame.astype(str), [False, False, True])
    two = tables.Table(frame.astype(str), [False, False, True], labels=2)
    assert one.labels == 1 and two.labels == 2
    assert "data-labels" not in one.to_html()
    assert re.search(r'<table class="dataframe hcs-table" data-labels="2">', two.to_html())
    assert two._repr_html_() == two.to_html()
    assert two.to_html().replace(' data-labels="2"', "") == one.to_html()
    assert two.width_px() == one.width_px()
    for bad in (0, 3, 1.5, "2"):  # at least one column scrolls; a count, not a name
        with pytest.raises(ValueError, match="label columns"):
            tables.Table(frame.astype(str), [False, False, True], labels=bad)


def test_rows_are_named_by_the_fewest_leading_columns_that_tell_them_apart():
    grouped = pd.DataFrame({"model": ["a", "a", "b", "b"], "type": ["x", "y", "x", "y"], "v": [1.0, 2, 3, 4]})
    assert tables.show(grouped).labels == 2 and 'data-labels="2"' in tables.show(grouped).to_html()
    assert tables.show(grouped, labels=1).labels == 1  # a caller may say otherwise
    assert tables.show(grouped.iloc[[0, 2]]).labels == 1  # the first column alone tells the rows apart
    # a second column that tells no more rows apart is not part of the name
    assert tables.row_name_columns(pd.DataFrame({"a": ["x", "x"], "b": ["y", "y"], "c": [1, 2]})) == 1
    three = pd.DataFrame({"a": ["x"] * 4, "b": ["y", "y", "z", "z"], "c": ["1", "2", "1", "2"], "d": [1, 2, 3, 4]})
    assert tables.row_name_columns(three) == 3 and tables.row_name_columns(three, most=2) == 2
    assert tables.row_name_columns(three.iloc[:, :2]) == 1  # never every column
    assert tables.show(grouped, cards=True).labels == 1  # a card carries its row's name whole


def test_a_folded_table_shows_the_columns_kept_and_the_whole_table_collapsed():
    full = tables.show(
        pd.DataFrame({"model": ["a", "a", "b"], "type": ["x", "y", "x"], "bacc": [0.5, 0.6, 0.7], "n": [1, 2, 3]})
    )
    folded = tables.folded(full, ["Model", "Type", "BACC"], "Every column")
    assert list(folded.narrow.frame.columns) == ["Model", "Type", "BACC"] and folded.narrow.labels == 2
    html = folded._repr_html_()
    narrow, rest = html.split("<details", 1)
    assert "<th" in narrow and 'data-label="n"' not in narrow and 'data-label="n"' in rest and "Every column" in rest
    with pytest.raises(KeyError, match="no column 'Recall'"):
        tables.folded(full, ["Model", "Recall"])


def test_identifiers_and_paths_break_between_their_parts():
    """Issue 36 at 390 px: "bertscore_precisi|on" and "Experience/Atmos|phere" broke inside a word;
    a line may break after an identifier's underscores and a path's slashes (and before its file
    extension), and the text read back (what search, copy and the CSV see) is unchanged."""
    from html.parser import HTMLParser

    cells = ["my_metric_precision", "Experience/Atmosphere (ambience)", "data/x/annotations.jsonl", "3.5 a.b"]
    html = tables.show(pd.DataFrame({"name": cells, "n": [1, 2, 3, 4]})).to_html()
    assert "my_<wbr>metric_<wbr>precision" in html and "Experience/<wbr>Atmosphere (ambience)" in html
    assert "data/<wbr>x/<wbr>annotations<wbr>.jsonl" in html and ">3.5 a.b<" in html

    class Text(HTMLParser):
        def __init__(self):
            super().__init__()
            self.cells, self.inside = [], False

        def handle_starttag(self, tag, attrs):
            if tag == "td":
                self.cells.append("")
                self.inside = True

        def handle_endtag(self, tag):
            self.inside = self.inside and tag != "td"

        def handle_data(self, data):
            if self.inside:
                self.cells[-1] += data

    parser = Text()
    parser.feed(html)
    assert parser.cells[0::2] == cells


def test_a_sections_checks_fold_under_their_count_by_verdict():
    """Issue 45 ("The paper, checked"): a section's checks are collapsed under a line counting them
    by verdict, each a card that keeps its claim and verdict in view when folded (phone.js)."""
    results = tables.check_results()
    part = results[results["section"] == "6.2"]
    html = tables.section_checks(part, {"claim": "What the paper says", "verdict": "Verdict"}).data
    summary = re.search(r"<summary>(.*?)</summary>", html).group(1)
    assert summary.startswith(f"{len(part)} checks: ")
    for verdict, n in part["verdict"].value_counts().items():
        assert f"{n} {verdict}" in summary
    cells = re.findall(r'<td data-label="([^"]+)"( class="hcs-keep")?', html)
    assert {label for label, kept in cells if kept} == {"What the paper says", "Verdict"}
    assert len({label for label, _ in cells}) > 2  # the others fold away


def test_open_checks_number_each_problem_once():
    """Chapter 01's review: the open checks listed one problem three times (gpt-4o's spread, gpt-4o
    (LS)'s, the README's 1,984) and one claim's two readings twice; rows of one problem, or of one
    claim's readings, share a number, linked through either."""
    rows = pd.DataFrame(
        {
            "problem": ["p", "p", "–", "q", "–", "–"],
            "group": ["a", "b", "c", "c", "d", "d"],
        }
    )
    assert tables._problem_numbers(rows) == [1, 1, 2, 2, 3, 3]
    html = tables.inconsistencies("01_data_composition")._repr_html_()
    assert ">Problem</th>" in html  # the table, folded in its dropdown, numbers its problems
