"""Every notebook is in the book, paired with its .py twin, and carries its executed outputs.

nbval, and the byte-for-byte comparison beside it (``conftest.py``), compare fresh outputs with
the stored ones: a notebook stored without outputs would leave them nothing to compare, so this is
what makes the nbval run meaningful.
"""

import json

import jupytext
import pytest
import yaml

from hotelcheckspan import paths
from hotelcheckspan.book import chapter_data

ROOT = paths.REPO_ROOT
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
IGNORED_METADATA = {"execution", "ExecuteTime", "collapsed", "scrolled", "jp-MarkdownHeadingCollapsed"}


def toc_files() -> list[str]:
    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                yield node["file"]
            for v in node.values():
                yield from walk(v)
        elif isinstance(node, list):
            for v in node:
                yield from walk(v)

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [toc["root"], *walk(toc.get("parts", toc.get("chapters", [])))]


def cells(nb) -> list[tuple]:
    return [
        (c.cell_type, c.source.strip(), {k: v for k, v in c.metadata.items() if k not in IGNORED_METADATA})
        for c in nb.cells
    ]


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebook in notebooks/"


def test_every_notebook_is_in_the_toc_and_every_toc_entry_exists():
    listed = toc_files()
    for nb in NOTEBOOKS:
        assert f"notebooks/{nb.name}" in listed, f"{nb.name} is not in _toc.yml"
    for entry in listed:
        path = ROOT / entry
        assert path.exists() or path.with_suffix(".md").exists(), f"_toc.yml lists {entry}, which does not exist"


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_py_twin_is_in_sync(nb_path):
    twin = nb_path.with_suffix(".py")
    assert twin.exists(), f"{nb_path.name} has no .py twin"
    assert cells(jupytext.read(twin)) == cells(jupytext.read(nb_path)), (
        f"{twin.name} and {nb_path.name} differ: run `make notebooks`"
    )


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_code_cell_has_stored_outputs_in_order_and_no_error(nb_path):
    nb = json.loads(nb_path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code
    for i, c in enumerate(code, start=1):
        colab = "colab" in c["metadata"].get("tags", [])  # installs where the package is missing: silent here
        assert c.get("outputs") or colab, f"{nb_path.name}: code cell {i} has no stored output"
        assert c.get("execution_count") == i, f"{nb_path.name}: cell {i} was not executed in order"
        assert not any(o["output_type"] == "error" for o in c["outputs"]), f"{nb_path.name}: cell {i} errored"


# the chapters that open on a real public corpus, not the stand-in (the start page's rule, from their loads)
REAL_CORPUS_CHAPTERS = {
    p.stem
    for p in sorted((paths.REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
    if chapter_data.is_real(chapter_data.chapter_data(p).main, simulated=True)
}


@pytest.mark.parametrize("nb_path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_says_which_corpus_it_runs_on(nb_path):
    """Every chapter opens with its corpus notice: the simulated-data warning on the stand-in,
    a plain corpus note on a real public corpus (chapters 08, 11 and 12), never the warning there."""
    assert {"08_real_corpus", "11_validate_your_metric", "12_mqm"} <= REAL_CORPUS_CHAPTERS
    nb = json.loads(nb_path.read_text())
    first_code = next(
        c for c in nb["cells"] if c["cell_type"] == "code" and "colab" not in c["metadata"].get("tags", [])
    )
    html = "".join("".join(o.get("data", {}).get("text/html", "")) for o in first_code["outputs"])
    if nb_path.stem in REAL_CORPUS_CHAPTERS:
        assert "corpus-notice" in html and "simulated-notice" not in html
    else:
        assert "simulated-notice" in html and "Simulated data" in html
