"""Stored outputs hold on any machine, and the prose follows the data (slow: run with `-m slow`).

1. Every chapter's committed .ipynb is written single-threaded (`make notebooks`: OMP/OpenBLAS/MKL
   at one thread); the book executes it with the machine's threads, as a CI runner, a reader or
   another CPU would. The two must hold the same outputs byte for byte: every table, glued value
   and figure (nbval skips PNGs; this does not), so a displayed number that depends on BLAS
   threading or on the last bits of floating point, or a figure that moves by a pixel, fails
   here. The book's execution is read from its cache, so with nbval's run each chapter executes
   twice in `make test`.
2. Chapters built on a second corpus (the stand-in generated with another seed) glue different
   numbers: the prose is computed from the data, not typed.

`make test` runs these (it selects no marker); `-m "not slow"` leaves them out while editing.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SINGLE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
GLUE_MIME = "application/papermill.record/"
SECOND_SEED = 2
CHAPTERS_ON_SECOND_CORPUS = ["01_data_composition", "07_impressions"]


def env(**extra) -> dict:
    out = {
        **os.environ,
        **SINGLE_THREAD,
        "PYTHONHASHSEED": "0",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    }
    return out | extra


def glued(nb) -> dict[str, str]:
    """Name -> displayed value of every glued variable in an executed notebook."""
    out = {}
    for cell in nb["cells"]:
        for o in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            name = o.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                data = o["data"]
                key = GLUE_MIME + ("text/markdown" if GLUE_MIME + "text/markdown" in data else "text/plain")
                out[name] = "".join(data[key])
    return out


@pytest.fixture(scope="module")
def second_corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("corpus") / "hotelcheckspan"
    run = subprocess.run(
        [sys.executable, "-m", "hotelcheckspan.cli", "standin", "--seed", str(SECOND_SEED), "--out", str(out)],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return out


# cells[0] is the title, cells[1] the Colab cell (silent here), cells[2] the banner
def execute_on(corpus: Path, chapter: str, monkeypatch):
    """The stored notebook of ``chapter`` and the same notebook executed on ``corpus``."""
    stored_nb = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text())
    nb = nbformat.read(ROOT / "notebooks" / f"{chapter}.ipynb", as_version=4)
    for key, value in env(HOTELCHECKSPAN_DATA=str(corpus)).items():
        monkeypatch.setenv(key, value)  # the kernel inherits this process' environment
    NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(ROOT / "notebooks")}},
        shutdown_kernel="immediate",  # every output is in before; as make book stops its kernels
    ).execute()
    return stored_nb, nb


@pytest.mark.slow
@pytest.mark.parametrize("chapter", CHAPTERS_ON_SECOND_CORPUS)
def test_glued_prose_follows_the_corpus(second_corpus, chapter, monkeypatch):
    stored_nb, nb = execute_on(second_corpus, chapter, monkeypatch)
    stored, fresh = glued(stored_nb), glued(nb)
    assert stored and set(fresh) == set(stored), "the second corpus glued other names"
    changed = {k for k in stored if stored[k] != fresh[k]}
    assert changed, f"{chapter}: no glued value changed on a corpus generated with seed {SECOND_SEED}"
    # another stand-in is still simulated (its configs say so): the notice and the notes stay
    assert "simulated-notice" in json.dumps(nb.cells[2].outputs)
    notes = [k for k in stored if "note" in k and stored[k].strip()]
    assert all(fresh[k].strip() for k in notes), f"simulation notes missing on a simulated corpus: {notes}"


@pytest.mark.slow
def test_simulation_text_follows_what_the_corpus_says(second_corpus, tmp_path, monkeypatch):
    """The same files without ``simulated: true`` in their configs read as a real corpus: the
    simulated-data notice and every simulation-only passage vanish (nothing looks at the path)."""
    real = tmp_path / "corpus"
    shutil.copytree(second_corpus, real)
    for config in real.rglob("config.yaml"):
        config.write_text(config.read_text(encoding="utf-8").replace("simulated: true\n", ""), encoding="utf-8")
    stored_nb, nb = execute_on(real, "01_data_composition", monkeypatch)
    stored, fresh = glued(stored_nb), glued(nb)
    assert "simulated-notice" not in json.dumps(nb.cells[2].outputs)
    assert "corpus-notice" in json.dumps(nb.cells[2].outputs)
    notes = [k for k in stored if "note" in k and stored[k].strip()]
    assert notes and all(not fresh[k].strip() for k in notes), f"simulation-only text shown on a real corpus: {notes}"


# every chapter: the committed twins of notebooks/NN_*.py
CHAPTERS = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.py"))


def test_every_chapter_is_checked():
    assert len(CHAPTERS) == len(NOTEBOOKS) and {p.stem for p in NOTEBOOKS} == set(CHAPTERS)


def _python_version(notebook_text: str) -> str:
    """The kernel's Python version a stored notebook records (``metadata.language_info.version``)."""
    return json.loads(notebook_text)["metadata"]["language_info"]["version"]


def _changed_outputs(stored: str, fresh: str) -> list[str]:
    """Which outputs differ, by cell and kind ("cell 12: image/png"), to say whether a figure or a
    table moved without printing a PNG's base64."""
    a, b = json.loads(stored)["cells"], json.loads(fresh)["cells"]
    if len(a) != len(b):
        return [f"{len(a)} cells stored, {len(b)} now"]
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x.get("source") != y.get("source"):
            out.append(f"cell {i}: source")
        xo, yo = x.get("outputs", []), y.get("outputs", [])
        if len(xo) != len(yo):
            out.append(f"cell {i}: {len(xo)} outputs stored, {len(yo)} now")
            continue
        for p, q in zip(xo, yo):
            for kind in sorted(set(p.get("data", {})) | set(q.get("data", {}))):
                if p.get("data", {}).get(kind) != q.get("data", {}).get(kind):
                    out.append(f"cell {i}: {kind}")
            if p.get("text") != q.get("text"):
                out.append(f"cell {i}: stream")
    return out


def executed_by_the_book(chapter: str):
    """The chapter's code cells as `make book` executed them (Jupyter Book's execution cache, with
    the machine's threads), or None where the book has not been built from these notebooks."""
    cache = ROOT / "_build" / ".jupyter_cache"
    if not cache.exists():
        return None
    from jupyter_cache import get_cache

    stored = nbformat.read(ROOT / "notebooks" / f"{chapter}.ipynb", as_version=4)
    try:
        record = get_cache(cache).match_cache_notebook(stored)
    except KeyError:  # the cache holds another version of the chapter
        return None
    return get_cache(cache).get_cache_bundle(record.pk).nb.cells


def execute_with_the_machines_threads(chapter: str) -> list:
    """The chapter executed here (no book built): its code cells, run with the machine's threads."""
    nb = nbformat.read(ROOT / "notebooks" / f"{chapter}.ipynb", as_version=4)
    threads = {k: v for k, v in env().items() if k not in SINGLE_THREAD}
    with pytest.MonkeyPatch.context() as mp:
        for key in SINGLE_THREAD:
            mp.delenv(key, raising=False)
        for key, value in threads.items():
            mp.setenv(key, value)
        NotebookClient(
            nb,
            timeout=600,
            kernel_name="python3",
            resources={"metadata": {"path": str(ROOT / "notebooks")}},
            shutdown_kernel="immediate",
        ).execute()
    return [c for c in nb.cells if c.cell_type == "code"]


@pytest.mark.slow
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_book_executes_a_chapter_back_to_its_ipynb(chapter):
    """The committed .ipynb is written single-threaded (`make notebooks`); the book executes the
    chapter with the machine's threads (here, or on a reader's machine). Every output of the two
    is the same, byte for byte, figures included (nbval skips PNGs; this does not): a displayed
    number that depends on BLAS threading or on the last bits of floating point, or a figure
    that moves by a pixel, fails here. The book's own execution is read from its cache (`make
    test` builds the book first), so this check costs no execution of its own; without a built
    book the chapter is executed here."""
    fresh = executed_by_the_book(chapter)
    if fresh is None:
        fresh = execute_with_the_machines_threads(chapter)
    stored = nbformat.read(ROOT / "notebooks" / f"{chapter}.ipynb", as_version=4)
    code = [c for c in stored.cells if c.cell_type == "code"]
    assert len(code) == len(fresh), f"{len(code)} code cells stored, {len(fresh)} executed"
    changed = []
    for i, (a, b) in enumerate(zip(code, fresh)):
        mine, theirs = a.get("outputs", []), b.get("outputs", [])
        if json.dumps(mine, sort_keys=True) != json.dumps(theirs, sort_keys=True):
            kinds = sorted({k for o in mine + theirs for k in o.get("data", {})} | {"stream"})
            changed.append(f"code cell {i} ({', '.join(kinds)})")
    assert not changed, f"{chapter}: outputs change between a single-threaded run and the book's: {'; '.join(changed)}"
    text = json.dumps([c.get("outputs", []) for c in code])
    assert "object at 0x" not in text and "Styler object" not in text  # no memory address in a table


def test_the_stored_twins_hold_what_make_notebooks_writes():
    """The committed .ipynb files carry no volatile metadata (what nbstripout --keep-output
    --keep-count strips) and were executed on the project's Python."""
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            assert "execution" not in cell.get("metadata", {}), f"{path.name}: execution times stored"
            for o in cell.get("outputs", []):
                assert "execution" not in o.get("metadata", {})
        assert nb["metadata"]["language_info"]["version"].startswith("3.11"), path.name
