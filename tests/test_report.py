"""What chapters show first, the span highlighter and its colours, on the toy corpus (``tests/toy.py``)
and the bundled corpora."""

import dataclasses
import html
import itertools
import re

import numpy as np
import pandas as pd
import pytest
from toy import key

from hotelcheckspan import corpora, paths
from hotelcheckspan.book import report
from hotelcheckspan.categories import COLORS, palette

MALICIOUS = '<img src=x onerror="alert(1)"> & "q"'


def rows_of(html: str) -> dict[str, str]:
    """Annotator set -> the HTML of its row."""
    return dict(re.findall(r"<tr><th[^>]*>([^<]*)</th><td>(.*?)</td></tr>", html, re.S))


def text_of(row: str) -> str:
    """A row's text with each mark as [text] and its number as ^n, the list of spans dropped."""
    text = row.split('<ol class="span-reasons">')[0]
    text = re.sub(r'<sup class="span-num">(\d+)</sup>', r"^\1", text)
    return re.sub(r"<mark[^>]*>(.*?)</mark>", r"[\1]", text)


def items_of(row: str) -> list[tuple[str, str]]:
    """(number, text) of each item of a row's list of spans, tags dropped."""
    found = re.findall(r'<li value="(\d+)">(.*?)</li>', row)
    return [(n, html.unescape(re.sub(r"<[^>]+>", "", item))) for n, item in found]


def test_highlight_draws_each_sets_spans_on_the_summary(toy):
    html = report.highlight(toy, key(0), ["stage1/A", "stage1/B", "stage2/B", "m1"]).data
    rows = rows_of(html)
    assert list(rows) == ["St. 1A", "St. 1B", "St. 2B", "m1"]  # display names, as the tables write them
    assert {s: text_of(r) for s, r in rows.items()} == {
        "St. 1A": "[ab cd]^1 ef gh ij",
        "St. 1B": "[ab]^1 cd [ef gh]^2 ij",
        "St. 2B": "ab cd ef gh ij",
        "m1": "[ab cd ef]^1 gh ij",
    }
    assert re.findall(r'<mark class="([^"]+)" title="([^"]+)"', rows["St. 1B"]) == [
        ("span-incorrect", "Incorrect"),
        ("span-misleading", "Misleading"),
    ]
    assert 'title="Incorrect: r0"' in rows["m1"]
    assert "<strong>Example short #0 (location)</strong>" in html
    assert "Description (3 words)" in html and "one two &lt;three&gt;" in html  # text is escaped


def test_each_span_is_listed_under_the_text_with_its_type_and_reason(toy):
    """Tap-free reading: the reason is in the page, not only in a tooltip."""
    rows = rows_of(report.highlight(toy, key(0), ["stage1/B", "m1", "stage2/B"]).data)
    assert items_of(rows["St. 1B"]) == [("1", "Incorrect “ab”"), ("2", "Misleading “ef gh”")]
    assert items_of(rows["m1"]) == [("1", "Incorrect “ab cd ef” r0")]
    assert "span-reasons" not in rows["St. 2B"]  # nothing marked, nothing listed


def test_reasons_and_span_texts_are_escaped(toy):
    spans = toy.spans.copy()
    spans["reason"] = spans["reason"].astype(object)
    spans.loc[(spans["campaign"] == "m1") & (spans["example_idx"] == 0), "reason"] = MALICIOUS
    html = report.highlight(dataclasses.replace(toy, spans=spans), key(0), ["m1"]).data
    assert "<img" not in html and "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &quot;q&quot;" in html


def test_an_overlapping_span_is_listed_but_not_drawn(toy):
    extra = toy.spans[(toy.spans["campaign"] == "m1") & (toy.spans["example_idx"] == 0)].copy()
    extra[["start", "end", "text", "type"]] = [3, 5, "cd", "Misleading"]
    spans = pd.concat([toy.spans, extra], ignore_index=True)
    row = rows_of(report.highlight(dataclasses.replace(toy, spans=spans), key(0), ["m1"]).data)["m1"]
    assert text_of(row) == "[ab cd ef]^1 gh ij"
    assert [n for n, _ in items_of(row)] == ["1", "2"] and "not drawn" in items_of(row)[1][1]


def test_highlight_refuses_an_unknown_set(toy):
    with pytest.raises(ValueError, match="no records"):
        report.highlight(toy, key(0), ["stage3/A"])


def test_banner_names_a_corpus_that_is_not_the_stand_in(toy, corpus):
    html = report.corpus_banner(toy).data
    assert "Simulated" not in html and f"<code>{toy.root.name}</code> (20 records)" in html
    assert "Simulated data" in report.corpus_banner(corpus).data


def test_the_stand_ins_banner_names_every_label_the_tables_may_show(corpus):
    """The banner says what each label of a "Figure is" column means: every status the provenance
    rule can give (not only set, calibrated and emergent), and no other."""
    from hotelcheckspan.reference import provenance

    html = report.corpus_banner(corpus).data
    assert set(report.BANNER_LABELS) == set(provenance.STATUSES)
    for status in provenance.STATUSES:
        assert f"{status} (" in html, status
    assert "the rest emerge" not in html


def test_highlight_collapses_all_but_the_first_sets(toy):
    sets = ["stage1/A", "stage1/B", "stage2/B", "m1"]
    html = report.highlight(toy, key(0), sets, shown=2).data
    head, rest = html.split("<details class='hcs-dropdown'>", 1)
    assert list(rows_of(head)) == ["St. 1A", "St. 1B"]
    assert "The other 1 human set and 1 judge" in rest and list(rows_of(rest)) == ["St. 2B", "m1"]
    rest = report.highlight(toy, key(0), sets[::-1], shown=1).data.split("<details class='hcs-dropdown'>", 1)[1]
    assert "The other 3 human sets</summary>" in rest
    assert "hcs-dropdown" not in report.highlight(toy, key(0), sets).data


def test_highlight_names_the_text_and_writes_a_campaigns_groups_one_way():
    """On the real iaa split every text is example 0 of split iaa: the heading names it by domain
    and system, as the votes table does; the 29 groups of its one human campaign, past Z, are all
    numbered as the export numbers them (iaa-group0 ... iaa-group28): "group 0" ... "group 28",
    never "group Z" beside "group 26" (the glossary's human sets)."""
    real = corpora.load(paths.REAL_CORPUS)
    one = real.examples.iloc[0][list(corpora.KEY)].to_dict()
    assert report.text_name(real, one) == f"{one['dataset']} / {one['setup_id']}"
    groups = sorted(int(g) for g in real.records.loc[real.records["kind"] == "human", "annotator_group"].unique())
    on_text = real.records.merge(pd.DataFrame([one]), on=list(corpora.KEY))
    sets = [f"iaa/{g}" for g in sorted(on_text.loc[on_text["kind"] == "human", "annotator_group"].unique())]
    html = report.highlight(real, one, sets).data
    assert f"<strong>Example {one['dataset']} / {one['setup_id']}</strong>" in html
    names = list(rows_of(html))
    assert len(groups) > 26 and names == [f"group {s.removeprefix('iaa/')}" for s in sets]
    assert "group Z" not in names and "group A" not in names


def test_text_name_keeps_split_and_index_where_they_tell_texts_apart(toy):
    assert report.text_name(toy, key(0)) == "short #0"  # one dataset and system: split and index name it
    assert report.set_name(toy, report.AnnotatorSet.parse("stage1/B")) == "St. 1B"


# --- colours ------------------------------------------------------------------------------------

# CIEDE2000 test pairs of Sharma, Wu and Dalal (2005), Table 1 (pairs 1-4, 7, 17-20 and 34)
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
    ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
    ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
    ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
    ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize("lab1, lab2, expected", SHARMA)
def test_ciede2000_matches_sharmas_test_data(lab1, lab2, expected):
    assert report.ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert report.ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)  # symmetric


def test_lab_matches_published_srgb_values():
    assert np.allclose(report.lab("#ffffff"), [100, 0, 0], atol=0.01)
    assert np.allclose(report.lab("#ff0000"), [53.24, 80.09, 67.20], atol=0.02)  # sRGB red, D65
    assert np.allclose(report.lab("#000000", alpha=0.0), [100, 0, 0], atol=0.01)  # transparent over white


@pytest.fixture(scope="module")
def bundled():
    paths_ = [paths.BUNDLED_CORPUS, paths.REAL_CORPUS, paths.REAL_TEST_CORPUS]
    return {p.name: corpora.load(p).categories for p in paths_}


def test_every_two_categories_of_every_bundled_corpus_are_told_apart(bundled):
    """Misleading against Incoherent was the case that failed: two oranges."""
    for name, cats in bundled.items():
        colours = report.highlight_palette(cats)
        assert list(colours) == list(palette(cats)), name  # every category, in figure order
        assert len(set(colours.values())) == len(cats), name
        for (a, ca), (b, cb) in itertools.combinations(colours.items(), 2):
            background, full = report.colour_distance(ca, cb)
            assert background >= report.MIN_BACKGROUND_DE and full >= report.MIN_UNDERLINE_DE, (name, a, b)


def test_the_book_palette_would_not_tell_misleading_from_incoherent(bundled):
    """Why highlight_palette exists: the plain palette gives the d2t corpora two near oranges."""
    book = palette(bundled["span-annotation-d2t-iaa"])
    assert report.colour_distance(book["Misleading"], book["Incoherent"])[0] < report.MIN_BACKGROUND_DE


def test_hotelcheckspans_categories_keep_the_figures_colours(bundled):
    assert report.highlight_palette(bundled["hotelcheckspan"]) == palette(bundled["hotelcheckspan"])
    colours = report.highlight_palette(bundled["span-annotation-d2t-iaa"])
    assert colours["Misleading"] == COLORS["Misleading"]
    assert colours["Not checkable"] == COLORS["Not Checkable"]  # spelt otherwise, one colour
    assert not set(colours.values()) & {COLORS["Incorrect"], COLORS["Any"]}  # not another category's


def test_a_colour_too_close_is_replaced_by_a_far_one():
    colours = report.highlight_palette(["Misleading", "Orange-ish"])  # the second's own colour is far
    assert report.colour_distance(colours["Misleading"], colours["Orange-ish"])[0] >= report.MIN_BACKGROUND_DE
