"""The start page's simulated-data notice (``{simulated-only}`` of ``book/_ext/chapters.py``) shows
only when the corpus the book is built on says it is simulated: a minimal Sphinx build of one page,
on the bundled stand-in and on a real corpus."""

from __future__ import annotations

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
