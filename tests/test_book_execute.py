"""`make book` executes the pages into Jupyter Book's execution cache before the build, one page per
two cores (hotelcheckspan.book.execute): what it caches must be what the build looks up, a page that fails
must be left to the build, and the book's own pages must all be found."""

from __future__ import annotations

import json

import nbformat
from jupyter_cache import get_cache
from myst_nb.core.config import NbParserConfig
from myst_nb.core.read import create_nb_reader
from myst_parser.config.main import MdParserConfig

from hotelcheckspan import paths
from hotelcheckspan.book import execute
from hotelcheckspan.metrics import baselines

TOC = """format: jb-book
root: intro
chapters:
  - file: notebooks/good
  - file: notebooks/bad
  - file: page
"""
CONFIG = """execute:
  execute_notebooks: cache
  cache: _build/.jupyter_cache
  timeout: 60
parse:
  myst_enable_extensions: [colon_fence]
"""
PAGE = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# A page

```{code-cell} python
:tags: [remove-input]
print(6 * 7)
```

:::{note}
Inside a colon fence (the book's colon_fence) this is an example, not a cell; read without the
book's settings it would be one:
```{code-cell} python
print("fenced")
```
:::
"""


def notebook(source: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}})
    nb.cells = [nbformat.v4.new_markdown_cell("# A chapter"), nbformat.v4.new_code_cell(source)]
    return nb


def printed(cache, record) -> str:
    """What the cached page's code cell printed."""
    cell = next(c for c in cache.get_cache_bundle(record.pk).nb.cells if c.cell_type == "code")
    return "".join(o.get("text", "") for o in cell.outputs)


def book(root):
    (root / "notebooks").mkdir()
    (root / "_toc.yml").write_text(TOC)
    (root / "_config.yml").write_text(CONFIG)
    (root / "intro.md").write_text("# Intro\n\nNo code here.\n")
    (root / "page.md").write_text(PAGE)
    # the working folder is the notebook's own, as myst-nb's (run_in_temp: false)
    nbformat.write(notebook("import pathlib\nprint(pathlib.Path.cwd().name)"), root / "notebooks" / "good.ipynb")
    nbformat.write(notebook("1 / 0"), root / "notebooks" / "bad.ipynb")
    return root


def test_the_books_own_pages_are_every_chapter_and_the_executed_reference_pages():
    root = paths.REPO_ROOT
    found = [p.relative_to(root).as_posix() for p in execute.pages()]
    chapters = sorted(p.relative_to(root).as_posix() for p in (root / "notebooks").glob("*.ipynb"))
    assert found[: len(chapters)] == chapters
    assert found[len(chapters) :] == ["book/paper_checked.md", "book/provenance.md"]


def test_what_it_caches_is_what_the_build_looks_up_and_a_failure_is_left_to_the_build(tmp_path, capsys):
    root = book(tmp_path)
    assert [p.name for p in execute.pages(root)] == ["good.ipynb", "bad.ipynb", "page.md"]
    assert execute.main(["--root", str(root), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "executing 3 pages, 2 at a time" in out
    assert "notebooks/bad.ipynb: failed, left to the build to execute and report" in out
    cache = get_cache(str(root / "_build" / ".jupyter_cache"))
    # looked up as myst-nb looks them up: the notebook as read from disk, the page through its reader
    good = cache.match_cache_notebook(nbformat.read(root / "notebooks" / "good.ipynb", as_version=4))
    assert printed(cache, good) == "notebooks\n"
    md, text = root / "page.md", (root / "page.md").read_text()
    settings = MdParserConfig(enable_extensions={"colon_fence"})  # _config.yml's, as Sphinx gets them
    nb = create_nb_reader(str(md), settings, NbParserConfig(), text).read(text)
    assert sum(c.cell_type == "code" for c in nb.cells) == 1
    default = create_nb_reader(str(md), MdParserConfig(), NbParserConfig(), text).read(text)
    assert sum(c.cell_type == "code" for c in default.cells) == 2  # the settings matter here
    page = cache.match_cache_notebook(nb)
    assert printed(cache, page) == "42\n"
    assert page.data["execution_seconds"] > 0
    try:
        cache.match_cache_notebook(nbformat.read(root / "notebooks" / "bad.ipynb", as_version=4))
    except KeyError:
        pass
    else:
        raise AssertionError("a failed page was cached")
    # beside the cache, what this run executed and when, for the provenance footer
    record = json.loads((root / "_build" / ".jupyter_cache" / execute.RUN_RECORD).read_text())
    assert set(record["pages"]) == {str(root / "notebooks" / "good.ipynb"), str(md)}
    assert all(t >= record["started"] for t in record["pages"].values())
    # a second run finds the two in the cache and executes only the one that failed, again
    assert execute.main(["--root", str(root), "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "executing 1 page, one at a time" in out
    assert "notebooks/bad.ipynb: failed, left to the build to execute and report" in out


def test_one_at_a_time_the_pages_run_in_reading_order_each_with_its_progress_line(tmp_path, capsys):
    root = book(tmp_path)
    done = execute.run(root, jobs=1)
    out = capsys.readouterr().out
    assert [p.name for p in done["executed"]] == ["good.ipynb", "page.md"]
    assert [p.name for p in done["failed"]] == ["bad.ipynb"]
    assert "executing 3 pages, one at a time" in out
    progress = [line.strip().split(": ")[0] for line in out.splitlines() if line.startswith("  [")]
    assert progress == ["[1/3] notebooks/good.ipynb", "[2/3] notebooks/bad.ipynb", "[3/3] page.md"]


def test_each_core_executes_a_page(monkeypatch):
    for cores, jobs in [(1, 1), (2, 2), (3, 3), (8, 8)]:
        monkeypatch.setattr(baselines, "default_workers", lambda n=cores: n)
        assert execute.default_jobs() == jobs, cores


def test_pages_with_execution_settings_of_their_own_are_left_to_the_build(tmp_path, capsys):
    root = book(tmp_path)
    nb = notebook("print(1)")
    nb.metadata["execution"] = {"allow_errors": True}
    nbformat.write(nb, root / "notebooks" / "bad.ipynb")
    (root / "_config.yml").write_text(CONFIG.replace("timeout: 60", "timeout: 60\n  exclude_patterns: [page.md]"))
    done = execute.run(root, jobs=2)
    assert [p.name for p in done["executed"]] == ["good.ipynb"]
    assert sorted(p.name for p in done["left"]) == ["bad.ipynb", "page.md"]
    # a temporary working folder: the build's, not this step's
    (root / "_config.yml").write_text(CONFIG.replace("timeout: 60", "timeout: 60\n  run_in_temp: true"))
    assert sorted(p.name for p in execute.run(root, jobs=2)["left"]) == ["bad.ipynb", "page.md"]
    assert "2 pages left to the build" in capsys.readouterr().out


def test_adopting_caches_the_books_own_notebooks_only(tmp_path, monkeypatch):
    """A chapter executed elsewhere and found byte for byte its stored self (``conftest.py``) is
    cached as its stored notebook; a notebook outside the table of contents, a MyST page, a page
    with execution settings of its own and a page with a cell slower than the book's timeout are
    left to the build. The build's record says it ran in this build only within the same make run."""
    monkeypatch.setenv(execute.RUN_ENV, "run-1")
    root = book(tmp_path)
    stray = root / "notebooks" / "stray.ipynb"
    nbformat.write(notebook("print('not in the book')"), stray)
    own = notebook("print('my own settings')")
    own.metadata["mystnb"] = {"execution_mode": "force"}
    nbformat.write(own, root / "notebooks" / "bad.ipynb")
    good = root / "notebooks" / "good.ipynb"
    ran = {"seconds": 1.5, "longest": 0.5, "at": 1000.0}
    executed = {good: ran, stray: ran, root / "notebooks" / "bad.ipynb": ran, root / "page.md": ran}
    assert execute.adopt(executed, root=root) == [good.resolve()]
    cache = get_cache(str(root / "_build" / ".jupyter_cache"))
    record = cache.match_cache_notebook(nbformat.read(good, as_version=4))
    assert record.data["execution_seconds"] == 1.5
    # the stored notebook is the execution: its outputs, not a fresh run's
    assert not [c for c in cache.get_cache_bundle(record.pk).nb.cells if c.cell_type == "code"][0].outputs
    # the book's execution step in the same make run: the chapter ran in this build, when nbval ran it
    execute.run(root, jobs=1)
    pages = json.loads((root / "_build" / ".jupyter_cache" / execute.RUN_RECORD).read_text())["pages"]
    assert pages[str(good.resolve())] == 1000.0
    assert not (root / "_build" / ".jupyter_cache" / execute.ADOPTED_RECORD).exists()  # read once


def test_a_chapter_adopted_in_another_make_run_did_not_run_in_this_build(tmp_path, monkeypatch):
    root = book(tmp_path)
    good = root / "notebooks" / "good.ipynb"
    monkeypatch.setenv(execute.RUN_ENV, "run-1")
    assert execute.adopt({good: {"seconds": 1.0, "longest": 0.5, "at": 1000.0}}, root=root) == [good.resolve()]
    monkeypatch.setenv(execute.RUN_ENV, "run-2")  # that run's build never came; this is another
    execute.run(root, jobs=1)
    pages = json.loads((root / "_build" / ".jupyter_cache" / execute.RUN_RECORD).read_text())["pages"]
    assert str(good.resolve()) not in pages  # in the cache, but not run in this build


def test_a_chapter_slower_than_the_books_timeout_is_left_to_the_build(tmp_path):
    root = book(tmp_path)  # its _config.yml: a 60 s timeout
    good = root / "notebooks" / "good.ipynb"
    assert execute.adopt({good: {"seconds": 70.0, "longest": 61.0, "at": 1000.0}}, root=root) == []
    assert execute.adopt({good: {"seconds": 70.0, "longest": 59.0, "at": 1000.0}}, root=root) == [good.resolve()]
