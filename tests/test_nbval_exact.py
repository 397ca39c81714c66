"""nbval's run of the chapters (``conftest.py``): every output byte for byte, and the book's execution.

On a book of one small notebook, run as `make test` runs the chapters (pytest --nbval with
``--book-cache``, on pytest-xdist's workers): a notebook whose every output is the stored one passes
and is cached as its execution, where the build looks it up; one whose stored figure differs by a
byte passes nbval's own comparison (which skips figures) but fails here, and is not cached; nor is
one of which only some cells ran, or one that prints a text stream.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys

import nbformat
import pytest
from jupyter_cache import get_cache
from nbclient import NotebookClient

from hotelcheckspan import paths
from hotelcheckspan.book import execute

ROOT = paths.REPO_ROOT
# the smallest PNG: one pixel
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
CODE = [
    "6 * 7",
    f"from IPython.display import Image\nImage(data={PNG!r})",
    "{'answer': 42}",
]


def book(root, name: str, code: list[str] = CODE):
    """A book of one notebook, executed and stored as `make notebooks` stores a chapter."""
    (root / "notebooks").mkdir()
    (root / "_toc.yml").write_text(f"format: jb-book\nroot: intro\nchapters:\n  - file: notebooks/{name}\n")
    (root / "_config.yml").write_text("execute:\n  execute_notebooks: cache\n  cache: _build/.jupyter_cache\n")
    (root / "intro.md").write_text("# Intro\n")
    (root / "pytest.ini").write_text("[pytest]\n")  # the book is the root, as the repository is
    shutil.copy(ROOT / "conftest.py", root / "conftest.py")
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}})
    nb.cells = [nbformat.v4.new_code_cell(c) for c in code]
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    path = root / "notebooks" / name
    nbformat.write(nb, path)
    return path


def nbval(root, notebook, *options: str) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--nbval", str(notebook), *options]
        + ["--book-cache", str(root / "_build" / ".jupyter_cache")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def cached(root, notebook) -> bool:
    folder = root / "_build" / ".jupyter_cache"
    if not folder.exists():
        return False
    try:
        get_cache(str(folder)).match_cache_notebook(nbformat.read(notebook, as_version=4))
    except KeyError:
        return False
    return True


@pytest.mark.slow
def test_a_chapter_whose_every_output_holds_is_cached_as_the_books_execution(tmp_path):
    notebook = book(tmp_path, "good.ipynb")
    done = nbval(tmp_path, notebook, "-n", "2", "--dist", "loadfile")  # as make test: workers report back
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 1 notebooks executed by nbval with every output the stored one cached" in done.stdout
    assert cached(tmp_path, notebook)
    record = json.loads((tmp_path / "_build" / ".jupyter_cache" / execute.ADOPTED_RECORD).read_text())
    assert list(record["pages"]) == [str(notebook.resolve())]  # the footer: executed in this build
    # the book's own execution step then finds it in the cache and executes nothing
    step = subprocess.run(
        [sys.executable, "-m", "hotelcheckspan.book.execute", "--root", str(tmp_path)],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(ROOT / "src")},
    )
    assert step.returncode == 0 and "every page is in the execution cache" in step.stdout, step.stdout + step.stderr


@pytest.mark.slow
def test_a_figure_that_moved_by_a_byte_fails_and_is_not_cached(tmp_path):
    notebook = book(tmp_path, "moved.ipynb")
    nb = nbformat.read(notebook, as_version=4)
    image = nb.cells[1].outputs[0]["data"]
    png = bytearray(base64.b64decode(image["image/png"]))
    png[-13] ^= 1  # a byte of the image data, not of its header
    image["image/png"] = base64.b64encode(bytes(png)).decode()
    nbformat.write(nb, notebook)
    done = nbval(tmp_path, notebook)
    assert done.returncode == 1, done.stdout
    assert "2 passed" in done.stdout and "1 failed" in done.stdout  # nbval's own comparison passes cell 2
    assert "cell 1: the fresh outputs are not the stored ones byte for byte (output 0: image/png)" in done.stdout
    assert not cached(tmp_path, notebook)


@pytest.mark.slow
def test_a_notebook_of_which_some_cells_ran_is_not_cached(tmp_path):
    notebook = book(tmp_path, "part.ipynb")
    done = nbval(tmp_path, f"{notebook}::Cell 1")
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout
    assert not cached(tmp_path, notebook)


@pytest.mark.slow
def test_a_text_stream_fails_and_is_not_cached(tmp_path):
    """A kernel sends printed text in chunks that depend on timing, and nbval merges them (and
    applies carriage returns) before comparing: stored as it printed or otherwise, a stream fails."""
    notebook = book(tmp_path, "text.ipynb", ["print(6 * 7)", *CODE[1:]])
    done = nbval(tmp_path, notebook)  # stored as it printed
    assert done.returncode == 1, done.stdout
    assert "cell 0: the fresh outputs are not the stored ones byte for byte" in done.stdout
    assert "a text stream (stdout, stored; stdout, fresh)" in done.stdout
    assert not cached(tmp_path, notebook)


def test_only_the_execution_counter_is_left_out_of_the_comparison():
    import importlib.util

    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    plugin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plugin)
    stored = [{"output_type": "execute_result", "execution_count": 3, "data": {"text/plain": "42"}, "metadata": {}}]
    assert plugin._plain(stored) == plugin._plain([stored[0] | {"execution_count": 0}])
    for changed in ({"data": {"text/plain": "42 "}}, {"metadata": {"width": 1}}, {"output_type": "display_data"}):
        assert plugin._plain(stored) != plugin._plain([stored[0] | changed]), changed
        assert plugin.differences(stored, [stored[0] | changed]) != [], changed
    assert plugin.differences(stored, []) == ["1 outputs stored, 0 now"]
