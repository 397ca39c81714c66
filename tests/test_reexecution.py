"""The stored twins are what `make notebooks` writes, and the prose follows the data (slow: run with `-m slow`).

1. Every chapter's committed .ipynb is written single-threaded (`make notebooks`: OMP/OpenBLAS/MKL
   at one thread), on the project's Python, without volatile metadata. That its outputs hold on
   any machine, byte for byte, figures included, is checked wherever nbval executes the chapters
   (``conftest.py``: with the machine's threads, every output the stored one).
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
