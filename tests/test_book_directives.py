"""The start page's simulated-data notice (``{simulated-only}`` of ``book/_ext/chapters.py``) shows
only when the corpus the book is built on says it is simulated: a minimal Sphinx build of one page,
on the bundled stand-in and on a real corpus."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from sphinx.cmd.build import build_main

from hotelcheckspan import paths

ROOT = Path(__file__).resolve().parents[1]
PAGE = """Start
=====

.. simulated-only::

   NOTICE: the stand-in is simulated.
"""


def build(tmp_path: Path) -> str:
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\nextensions = ['chapters']\n"
    )
    (src / "index.rst").write_text(PAGE)
    assert build_main(["-q", "-b", "html", str(src), str(out)]) == 0
    return (out / "index.html").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _no_module_cache():
    yield
    sys.modules.pop("chapters", None)


def test_the_notice_shows_on_the_stand_in(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.DATA_ENV, raising=False)
    html = build(tmp_path)
    assert "NOTICE: the stand-in is simulated." in html and "which is not simulated" not in html


def test_the_notice_is_left_out_on_a_real_corpus(tmp_path, monkeypatch):
    monkeypatch.setenv(paths.DATA_ENV, str(paths.REAL_CORPUS))
    html = build(tmp_path)
    assert "NOTICE" not in html
    assert f"Every chapter runs on the corpus at {paths.REAL_CORPUS.name}, which is not simulated." in html


KINDS = """Kinds
=====

A :figure-kind:`llm_majority_alignment` B :figure-kind:`f(table5_example_level_votes/*)` C :figure-kind:`none`
D :figure-kind:`f(dataset/span_words/mean, table3_llm_campaigns/gpt-4o/total)`
"""


def test_figure_kind_labels_a_function_of_the_paper_figures_by_its_inputs(tmp_path, monkeypatch):
    """The data sheet's labels of measures the paper does not report: BACC and recall against the
    majority take the tuned alignment's label, kappa, alpha and AC1 (functions of Table 5's
    calibrated votes, every one of them) are derived, a figure with no key is emergent."""
    from hotelcheckspan.reference import paper, provenance

    votes = [f"table5_example_level_votes/{k}" for k in paper.value("table5_example_level_votes")]
    assert len(votes) == 4 and {provenance.kind(k) for k in votes} == {"calibrated"}
    assert provenance.kind("llm_majority_alignment") == "tuned"
    mixed = ["dataset/span_words/mean", "table3_llm_campaigns/gpt-4o/total"]
    expected = "derived" if all(provenance.kind(k) in provenance.DERIVABLE for k in mixed) else "emergent"
    monkeypatch.setattr(sys.modules[__name__], "PAGE", KINDS)
    html = build(tmp_path)
    shown = re.findall(r'<em class="hcs-figure-kind">([^<]*)</em>', html)
    assert shown == ["tuned", "derived", "emergent", expected]


def test_figure_kind_of_a_function_of_an_unknown_figure_is_a_build_error(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "PAGE", "Bad\n===\n\nX :figure-kind:`f(no_such_table/*)`\n")
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\nextensions = ['chapters']\n"
    )
    (src / "index.rst").write_text(PAGE)
    assert build_main(["-q", "-W", "-b", "html", str(src), str(out)]) != 0
