"""What chapters show first and the span highlighter, on the toy corpus (``tests/toy.py``)."""

import re

import pytest
from toy import key

from hotelcheckspan.book import report
from hotelcheckspan.categories import COLORS


def rows_of(html: str) -> dict[str, str]:
    """Annotator set -> the HTML of its row."""
    return dict(re.findall(r"<tr><th[^>]*>([^<]*)</th><td>(.*?)</td></tr>", html))


def test_highlight_draws_each_sets_spans_on_the_summary(toy):
    html = report.highlight(toy, key(0), ["stage1/A", "stage1/B", "stage2/B", "m1"]).data
    rows = rows_of(html)
    assert list(rows) == ["stage1/A", "stage1/B", "stage2/B", "m1"]
    strip = {s: re.sub(r"<mark[^>]*>(.*?)</mark>", r"[\1]", r) for s, r in rows.items()}
    assert strip == {
        "stage1/A": "[ab cd] ef gh ij",
        "stage1/B": "[ab] cd [ef gh] ij",
        "stage2/B": "ab cd ef gh ij",
        "m1": "[ab cd ef] gh ij",
    }
    assert re.findall(r'<mark class="([^"]+)" title="([^"]+)"', rows["stage1/B"]) == [
        ("span-incorrect", "Incorrect"),
        ("span-misleading", "Misleading"),
    ]
    assert 'title="Incorrect: r0"' in rows["m1"] and f"background:{COLORS['Incorrect']}55" in rows["m1"]
    assert "<strong>Example short #0 (location)</strong>" in html
    assert "Description (3 words)" in html and "one two &lt;three&gt;" in html  # text is escaped


def test_highlight_refuses_an_unknown_set(toy):
    with pytest.raises(ValueError, match="no records"):
        report.highlight(toy, key(0), ["stage3/A"])


def test_banner_names_a_corpus_that_is_not_the_stand_in(toy, corpus):
    html = report.corpus_banner(toy).data
    assert "Simulated" not in html and f"<code>{toy.root.name}</code> (20 records)" in html
    assert "Simulated data" in report.corpus_banner(corpus).data


def test_highlight_collapses_all_but_the_first_sets(toy):
    sets = ["stage1/A", "stage1/B", "stage2/B", "m1"]
    html = report.highlight(toy, key(0), sets, shown=2).data
    head, rest = html.split("<details class='hcs-dropdown'>", 1)
    assert list(rows_of(head)) == ["stage1/A", "stage1/B"]
    assert "The other 2 annotator sets" in rest and list(rows_of(rest)) == ["stage2/B", "m1"]
    assert "hcs-dropdown" not in report.highlight(toy, key(0), sets).data
