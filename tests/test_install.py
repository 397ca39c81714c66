"""Installing and rerunning elsewhere: the Python versions, torch's CPU build, Binder, Colab and
one chapter at a time (issue 21).

The slow test builds the Binder environment the way repo2docker's Python buildpack does (no
Docker here): a fresh venv, ``pip install -r binder/requirements.txt``, then ``binder/postBuild``,
and executes a chapter's opening cells in it.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import jupytext
import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from hotelcheckspan import paths
from hotelcheckspan.book import launch

ROOT = paths.REPO_ROOT
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
WORKFLOW = yaml.safe_load((ROOT / ".github" / "workflows" / "test.yml").read_text(encoding="utf-8"))
BINDER = ROOT / "binder"


def make(*args: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in {"GITHUB_ACTIONS", "TORCH_INDEX", "MAKEFLAGS"}}
    return subprocess.run(
        ["make", "-s", "--no-print-directory", *args], cwd=ROOT, env=base | env, capture_output=True, text=True
    )


def makefile_variable(name: str) -> str:
    return re.search(rf"^{name} :?= *(\S+)", (ROOT / "Makefile").read_text(), re.M).group(1)


# Python versions -----------------------------------------------------------------------------


def test_the_tested_pythons_are_exactly_those_requires_python_admits():
    admitted = {f"3.{m}" for m in range(8, 20) if f"3.{m}" in SpecifierSet(PYPROJECT["project"]["requires-python"])}
    tested = set(WORKFLOW["jobs"]["test"]["strategy"]["matrix"]["python-version"])
    assert admitted == tested == {"3.11", "3.12", "3.13"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Python 3.11, 3.12 and 3.13" in readme


def test_the_test_workflow_runs_make_test_on_each_version_with_a_pip_cache_and_chromium():
    triggers = WORKFLOW.get(True, WORKFLOW.get("on"))  # YAML 1.1 reads the key `on` as true
    assert {"push", "pull_request"} <= set(triggers)
    steps = WORKFLOW["jobs"]["test"]["steps"]
    python = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert python["with"]["python-version"] == "${{ matrix.python-version }}" and python["with"]["cache"] == "pip"
    runs = "\n".join(s.get("run", "") for s in steps)
    assert "make test PYTHON=python${{ matrix.python-version }}" in runs
    assert "apt-get install" in runs and "chromium" in runs
    assert any(s.get("uses", "").startswith("actions/setup-node") for s in steps)


# torch's CPU build ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "env", "source"),
    [
        ("cpu", {}, "cpu"),
        ("pypi", {"GITHUB_ACTIONS": "true"}, "pip"),
        ("auto", {"GITHUB_ACTIONS": "true"}, "cpu"),
    ],
)
def test_where_torch_comes_from(setting, env, source):
    run = make("torch-source", f"TORCH_INDEX={setting}", **env)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == source


def test_an_unknown_torch_index_is_refused_by_name():
    run = make("torch-source", "TORCH_INDEX=cuda")
    assert run.returncode != 0 and "TORCH_INDEX must be cpu, pypi or auto, not 'cuda'" in run.stderr


def test_the_install_step_takes_only_torch_from_the_cpu_index():
    recipe = make("-n", "VENV=/nonexistent/venv", "TORCH_INDEX=cpu", "/nonexistent/venv/.book-installed").stdout
    torch_line = next(line for line in recipe.splitlines() if "--index-url" in line)
    assert "--no-deps" in torch_line and launch.TORCH_CPU_INDEX in torch_line
    pinned = next(r for r in PYPROJECT["project"]["dependencies"] if r.startswith("torch=="))
    assert f'"{pinned}$label"' in torch_line  # torch==<pyproject's pin>, +cpu on Linux
    assert makefile_variable("TORCH_CPU_INDEX") == launch.TORCH_CPU_INDEX


# One chapter at a time -----------------------------------------------------------------------


def test_make_notebooks_nb_re_executes_only_that_chapter():
    recipe = make("-n", "notebooks", "NB=04", "-o", ".venv/.test-installed").stdout
    assert "for f in 04_*.py;" in recipe
    both = make("-n", "notebooks", "NB=04 06", "-o", ".venv/.test-installed").stdout
    assert "for f in 04_*.py 06_*.py;" in both


def test_make_notebooks_names_a_chapter_that_does_not_exist():
    run = make("notebooks", "NB=99", "-o", ".venv/.test-installed")
    assert run.returncode != 0 and "no notebook notebooks/99_*.py (NB=99)" in run.stderr


def test_the_books_execution_cache_outlives_pips_metadata_not_a_change_of_package_or_data(tmp_path):
    """``make book`` drops its execution cache when the package, the data or pyproject change,
    not when pip rewrites ``src/*.egg-info`` (after make has read the Makefile: counted, it made
    the second ``make book`` of a fresh clone re-execute every chapter)."""
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "data").mkdir()
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "src" / "pkg" / "a.py").write_text("x = 1\n")
    (tmp_path / "data" / "d.csv").write_text("a\n1\n")

    def key() -> str:
        run = subprocess.run(
            ["make", "-s", "--no-print-directory", "-f", str(ROOT / "Makefile"), "sources-hash"],
            cwd=tmp_path,
            env={k: v for k, v in os.environ.items() if k not in {"HOTELCHECKSPAN_DATA", "MAKEFLAGS"}},
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0 and re.fullmatch(r"[0-9a-f]{16}", run.stdout.strip()), run.stderr
        return run.stdout.strip()

    first = key()
    (tmp_path / "src" / "pkg.egg-info").mkdir()
    (tmp_path / "src" / "pkg.egg-info" / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: pkg\n")
    assert key() == first
    seen = {first}
    for changed in ("src/pkg/a.py", "data/d.csv", "pyproject.toml"):
        with (tmp_path / changed).open("a") as f:
            f.write("\n# changed\n")
        seen.add(key())
    assert len(seen) == 4


# Binder -------------------------------------------------------------------------------------


def binder_requirements() -> list[str]:
    lines = (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def test_binder_has_pyprojects_pins_with_torchs_cpu_build():
    lines = binder_requirements()
    assert lines[0] == f"--extra-index-url {launch.TORCH_CPU_INDEX}"
    binder = {Requirement(line).name: str(Requirement(line)) for line in lines[1:]}
    for raw in PYPROJECT["project"]["dependencies"]:
        req = Requirement(raw)
        expected = f"{req}+cpu" if req.name == "torch" else str(req)
        assert binder.pop(req.name) == expected, f"binder/requirements.txt: {req.name} differs from pyproject.toml"
    for raw in PYPROJECT["project"]["optional-dependencies"]["book"]:  # myst-nb's glue, jupytext
        req = Requirement(raw)
        assert binder.pop(req.name) == str(req), f"binder/requirements.txt: {req.name} differs from pyproject.toml"
    assert binder == {}, "binder/requirements.txt: more than pyproject's pins"


def test_binder_installs_the_checkout_on_the_runtime_whose_cpu_wheel_exists():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    post = (BINDER / "postBuild").read_text()
    assert os.access(BINDER / "postBuild", os.X_OK) and "pip install --no-cache-dir -e ." in post
    assert os.access(BINDER / "start", os.X_OK) and 'exec "$@"' in (BINDER / "start").read_text()


@pytest.mark.slow
def test_binder_environment_builds_and_runs_a_chapter(tmp_path):
    """repo2docker's Python buildpack, by hand: venv, requirements, postBuild (in a copy of the
    checkout, as Binder has its own), then a chapter's opening cells (imports, the bundled corpus
    loaded, its banner) executed in that venv with Binder's start environment: the environment is
    under test here, and nbval executes every chapter whole. Where PyTorch's index is unreachable
    (here) pip's retries are off, so each look-up there fails at once and torch's CPU wheel comes
    from pip's own configuration; pip's cache is used (what resolves and installs is the same), and
    pip does not byte-compile what it installs (repo2docker does; Python compiles what the chapter
    imports as it imports it, and compiling all of torch and the rest took a third of the test)."""
    version = (BINDER / "runtime.txt").read_text().strip().removeprefix("python-")
    python = shutil.which(f"python{version}")
    if python is None or subprocess.run([python, "--version"], capture_output=True).returncode:
        pytest.skip(f"no Python {version} here (binder/runtime.txt)")
    checkout = tmp_path / "checkout"
    shutil.copytree(
        ROOT,
        checkout,
        ignore=shutil.ignore_patterns(".venv*", "_build", ".cache", ".git", "*.egg-info", "__pycache__", ".hypothesis"),
    )
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env |= {"PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}", "PIP_RETRIES": "0"}
    start = time.monotonic()
    steps = [
        [python, "-m", "venv", str(venv)],
        ["python", "-m", "pip", "install", "-q", "--no-compile", "-r", "binder/requirements.txt"],
        ["binder/postBuild"],
        # what repo2docker's base environment brings: the kernel and the notebook runner
        ["python", "-m", "pip", "install", "-q", "--no-compile", "ipykernel", "nbconvert"],
    ]
    for step in steps:
        run = subprocess.run(step, cwd=checkout, env=env, capture_output=True, text=True, timeout=1800)
        assert run.returncode == 0, f"{step}: {run.stderr[-3000:]}"
    built = time.monotonic() - start
    torch = subprocess.run(
        ["python", "-c", "import torch, hotelcheckspan.paths as p; print(torch.__version__, p.REPO_ROOT)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert torch.stdout.split() == [f"{_pinned('torch')}+cpu", str(checkout)], torch.stderr
    chapter = "07_impressions.ipynb"
    opening = json.loads((checkout / "notebooks" / chapter).read_text(encoding="utf-8"))
    first_code = [i for i, c in enumerate(opening["cells"]) if c["cell_type"] == "code"][:2]
    opening["cells"] = opening["cells"][: first_code[-1] + 1]  # the Colab cell, then imports and banner
    (checkout / "notebooks" / "opening.ipynb").write_text(json.dumps(opening), encoding="utf-8")
    run = subprocess.run(
        ["binder/start", "jupytext", "--execute", "--to", "ipynb", "--output", str(tmp_path / chapter)]
        + ["notebooks/opening.ipynb"],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    executed = json.loads((tmp_path / chapter).read_text())
    code = [c for c in executed["cells"] if c["cell_type"] == "code"]
    assert all(o["output_type"] != "error" for c in code for o in c["outputs"])
    assert "simulated-notice" in json.dumps(executed), "the chapter did not find the bundled corpus"
    print(f"\nBinder-style build: {built:.0f} s, then the opening of {chapter} executed in it")


def _pinned(name: str) -> str:
    return next(
        str(r.specifier).removeprefix("==")
        for r in map(Requirement, PYPROJECT["project"]["dependencies"])
        if r.name == name
    )


# Colab --------------------------------------------------------------------------------------


def code_cells(path: Path) -> list:
    return [c for c in jupytext.read(path).cells if c.cell_type == "code"]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_opens_with_the_colab_cell(chapter):
    for path in (chapter, chapter.with_suffix(".ipynb")):
        first = code_cells(path)[0]
        assert first.source.strip() == launch.colab_cell().strip(), (
            f"{path.name}: the first code cell is not the Colab cell (python -m hotelcheckspan.book.launch)"
        )
        assert first.metadata.get("tags") == launch.TAGS, f"{path.name}: the Colab cell is not hidden on the site"
    stored = json.loads(chapter.with_suffix(".ipynb").read_text())
    first = next(c for c in stored["cells"] if c["cell_type"] == "code")
    assert first["outputs"] == [], f"{chapter.stem}: the Colab cell printed something here"


def test_the_colab_cell_clones_the_configured_repository_and_installs_as_the_readme_says():
    tree = ast.parse(launch.colab_cell())
    names = {  # the cell's constants: repo = "...", cpu = "..."
        n.targets[0].id: n.value.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
    }
    calls = [n for n in ast.walk(tree) if getattr(getattr(n, "func", None), "attr", "") == "run"]
    value = lambda e: e.value if isinstance(e, ast.Constant) else names.get(getattr(e, "id", None))  # noqa: E731
    clone, install = ([value(e) for e in call.args[0].elts] for call in calls)
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    assert clone == ["git", "clone", "--depth", "1", config["repository"]["url"], None]  # None: the clone's path
    assert install == [None, "-m", "pip", *launch.pip_install_args()[:-1], None]  # None: this Python, the clone
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"git clone --depth 1 <this repository> {launch.CLONE}" in readme
    assert "pip " + " ".join(launch.pip_install_args()) in readme


def test_the_colab_cell_does_nothing_where_the_package_is_installed(tmp_path):
    probe = (
        "import os, sys\nbefore = list(sys.path)\n" + launch.colab_cell() + "\nprint(os.getcwd(), sys.path == before)"
    )
    run = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"{tmp_path} True"
    assert list(tmp_path.iterdir()) == [], "the Colab cell cloned or wrote something"


def test_sync_rewrites_a_changed_colab_cell(tmp_path):
    for chapter in CHAPTERS[:2]:
        text = chapter.read_text(encoding="utf-8")
        (tmp_path / chapter.name).write_text(text.replace(launch.repository_url(), "https://example.org/old"))
    assert [p.name for p in launch.sync(tmp_path)] == [c.name for c in CHAPTERS[:2]]
    assert [(tmp_path / c.name).read_text(encoding="utf-8") for c in CHAPTERS[:2]] == [
        c.read_text(encoding="utf-8") for c in CHAPTERS[:2]
    ]
    assert launch.sync(tmp_path) == []
