"""Stored outputs hold on any machine, and the prose follows the data (slow: run with `-m slow`).

1. Every chapter (all eleven) is re-executed single-threaded (OMP/OpenBLAS/MKL at one thread, as a
   CI runner or another CPU would compute) the way `make notebooks` writes it (execute the .py,
   strip volatile metadata), and the result must be the committed .ipynb byte for byte: every
   table, glued value and figure (nbval skips PNGs; this does not), so a displayed number that
   depends on BLAS threading or on the last bits of floating point, or a figure that moves by a
   pixel, fails here. Executed once per chapter, this is also the stricter twin of nbval's check.
2. Chapters built on a second corpus (the stand-in generated with another seed) glue different
   numbers: the prose is computed from the data, not typed.

`make test` runs these (it selects no marker); `-m "not slow"` leaves them out while editing.
The file runs on one worker (`--dist loadfile`), so its time is the sum of the chapters'.
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
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}
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


@pytest.mark.slow
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_reexecuting_a_chapter_single_threaded_gives_back_its_ipynb(chapter, tmp_path):
    """The way `make notebooks` writes a chapter (execute the .py, strip volatile metadata), run
    single-threaded, gives back the committed .ipynb byte for byte: every output, figures included,
    and no table stores a memory address or a random id."""
    out = tmp_path / f"{chapter}.ipynb"
    bin_dir = Path(sys.executable).parent
    for cmd in (
        [str(bin_dir / "jupytext"), "--to", "ipynb", "--execute", "--output", str(out), f"{chapter}.py"],
        [str(bin_dir / "nbstripout"), "--keep-output", "--keep-count", str(out)],
    ):
        run = subprocess.run(cmd, cwd=ROOT / "notebooks", env=env(), capture_output=True, text=True, timeout=900)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    stored = (ROOT / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8")
    # the one field that names the machine, not the chapter: the Python the kernel ran
    # (the stored twins were executed on 3.11; the tests also run on 3.12 and 3.13)
    fresh = out.read_text(encoding="utf-8")
    ran, was = _python_version(fresh), _python_version(stored)
    fresh = fresh.replace(f'"version": "{ran}"', f'"version": "{was}"', 1) if ran != was else fresh
    if fresh != stored:
        import difflib

        lines = list(difflib.unified_diff(stored.splitlines(True), fresh.splitlines(True), n=0))[:40]
        diff = "".join(line if len(line) < 300 else line[:300] + "...\n" for line in lines)
        changed = "; ".join(_changed_outputs(stored, fresh)) or "metadata only"
        pytest.fail(f"{chapter}.ipynb changes when re-executed single-threaded ({changed}):\n{diff}")
    assert "0x" not in "".join(line for line in stored.splitlines() if "object at" in line or "Styler" in line)
