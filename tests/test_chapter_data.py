"""The start page's marks (issue 36): which corpus each chapter runs on, read from its ``load``
calls (``hotelcheckspan.book.chapter_data``), against hand-written sources and against what each
executed chapter says it ran on (the corpus notice its first cell shows)."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from hotelcheckspan import paths
from hotelcheckspan.book import chapter_data as cd

NOTEBOOKS = sorted((paths.REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
BANNER = re.compile(r"Running on the corpus at <code>([^<]+)</code>")


def test_each_form_of_load_call_names_its_corpus(monkeypatch):
    monkeypatch.delenv(paths.REAL_DATA_ENV, raising=False)
    source = (
        "import hotelcheckspan\nfrom hotelcheckspan import paths\n"
        "corpus = hotelcheckspan.load()\n"
        "iaa = hotelcheckspan.load(paths.REAL_CORPUS)\n"
        "test = hotelcheckspan.load(paths.real_corpus_dir(paths.REAL_TEST_CORPUS))\n"
        "again = hotelcheckspan.load(paths.real_corpus_dir())\n"
        "framed = real_shape.framed(paths.real_corpus_dir(paths.REAL_TEST_CORPUS), **paths.real_selection())\n"
        "other = pandas.read_csv('x').load()\n"  # not hotelcheckspan.load: not a corpus
        "framed = real_shape.framed(paths.real_corpus_dir(paths.REAL_TEST_CORPUS), pool=True)\n"
        "ted = hotelcheckspan.load(paths.MQM_TED)\n"
        "shape = real_shape.frame(corpus)\n"  # not a load
    )
    found = [x.corpus for x in cd.loads(source)]
    assert found == [
        cd.PAPER,
        paths.REAL_CORPUS,
        paths.REAL_TEST_CORPUS,
        paths.REAL_CORPUS,
        paths.REAL_TEST_CORPUS,  # real_shape.framed with the chapters' selection
        paths.REAL_TEST_CORPUS,  # real_shape.framed, pooled
        paths.MQM_TED,
    ]
    assert cd.name(paths.MQM_TED, True) == "WMT 2021 TED MQM" and cd.is_real(paths.MQM_TED, True)


def test_the_first_load_is_the_chapters_data_and_the_others_its_sections(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.REAL_DATA_ENV, raising=False)
    chapter = tmp_path / "99_x.py"
    chapter.write_text(
        "real = hotelcheckspan.load(paths.real_corpus_dir(paths.REAL_TEST_CORPUS))\n"
        "corpus = hotelcheckspan.load()\nsame = hotelcheckspan.load()\n"
    )
    data = cd.chapter_data(chapter)
    assert data.main == paths.REAL_TEST_CORPUS and data.sections == (cd.PAPER,)
    assert cd.name(data.main, True) == "d2t test split" and cd.is_real(data.main, True)
    assert cd.name(cd.PAPER, True) == "stand-in" and not cd.is_real(cd.PAPER, True)
    assert cd.is_real(cd.PAPER, False) and cd.name(cd.PAPER, False) == "HotelCheckSpan"


def test_a_load_call_the_rule_cannot_read_is_an_error():
    with pytest.raises(ValueError, match="line 2"):
        cd.loads("import hotelcheckspan\ncorpus = hotelcheckspan.load(somewhere)\n")
    with pytest.raises(ValueError, match="no hotelcheckspan.load"):
        path = Path(__file__)  # a Python file without a load call
        cd.chapter_data(path)


@pytest.mark.parametrize("source", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_rule_agrees_with_the_corpus_each_chapter_says_it_ran_on(source, monkeypatch):
    """The executed twin's first corpus notice: the stand-in's warning for the paper's corpus, the
    real corpus' note naming the folder of the rule's first corpus."""
    monkeypatch.delenv(paths.REAL_DATA_ENV, raising=False)
    twin = json.loads(source.with_suffix(".ipynb").read_text(encoding="utf-8"))
    html = next(
        "".join("".join(o.get("data", {}).get("text/html", "")) for o in c.get("outputs", []))
        for c in twin["cells"]
        if c["cell_type"] == "code" and "colab" not in c["metadata"].get("tags", [])
    )
    if not html:
        pytest.skip(f"{source.stem}: its twin has no stored outputs (re-executed by make notebooks)")
    main = cd.chapter_data(source).main
    named = BANNER.search(html)
    if "simulated-notice" in html:
        assert main == cd.PAPER
    else:
        assert named and Path(main).name == unescape(named.group(1)), (main, html[:200])


def test_the_label_counts_name_the_papers_parts_as_the_paper_does():
    """Issue 36: the data sheet counts each label per part of data/paper_figures.yaml; a part is
    named as the paper names it ("Table 4", "the clusters (Section 6.4, Table 7)"), never by its
    key (``table4_dataset_level_stage2_subset``, which broke mid-word on a phone)."""
    import importlib.util

    from hotelcheckspan.reference import paper

    spec = importlib.util.spec_from_file_location("chapters_ext", paths.REPO_ROOT / "book" / "_ext" / "chapters.py")
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    parts = {key[0] for key in ext.paper_figures(paper.figures())}
    assert parts
    for part in parts:
        name = ext.part_name(part)
        assert "_" not in name and name != part, (part, name)
        table = re.fullmatch(r"table(\d+)_\w+", part)
        assert name == f"Table {table.group(1)}" if table else name == ext.PARTS[part], (part, name)
