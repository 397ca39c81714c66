"""The real-corpus chapters (08, the real parts of 10 and 11) on any factgenie corpus (issue 34).

The corpora are the shapes of ``tests/real_shapes.py`` (one human group, groups on different
texts, several tasks in one folder, two folders that collide, a config-only campaign), built small
(:data:`SMALL`: a few texts per system of the test split, a few groups of the iaa split) because
the chapters are executed on each. Every shape gives a result (the three chapters execute without
an error, every name their prose glues is glued, and the prose names the corpus it ran on) or a
one-line refusal naming what is missing, before any cell runs.

Expectations are read from the files the corpora were written with (JSON lines read here, not by
the package), or from a definition written plainly (the largest block of groups sharing the same
texts, found by trying every subset of groups).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time

import jupytext
import nbformat
import pytest
import real_shapes
from nbclient import NotebookClient

from hotelcheckspan import paths
from hotelcheckspan.analyses import example_level, judges
from hotelcheckspan.book import real_shape
from hotelcheckspan.book.prose import count_words
from hotelcheckspan.corpora import load

ROOT = paths.REPO_ROOT
SMALL = {"texts": range(6, 9), "groups": 6}  # 3 texts per domain and system (36), the first 6 iaa groups
CHAPTERS = ["08_real_corpus", "10_evaluate_your_judge", "11_validate_your_metric"]
# (shape, task): what the chapters read; the selection is HOTELCHECKSPAN_REAL_TASK
RUNS = [
    ("one-group", None),
    ("staggered", None),
    ("config-only", None),
    ("export", "propaganda"),
    ("export", "d2t-eval"),
]
# the export's d2t-eval task holds two splits (iaa, test): the chapters read one block, its test split
# (HOTELCHECKSPAN_REAL_SPLIT), and refuse the task alone in one line
SPLITS = {("export", "d2t-eval"): "test"}
REFUSED = [("collide", None), ("export", None), ("export", "mt-eval"), ("export", "d2t-eval/")]
KEY = ("dataset", "split", "setup_id", "example_idx")
GLUE_MIME = "application/papermill.record/"


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    base = tmp_path_factory.mktemp("real-chapters")
    return {shape: real_shapes.build(base / shape, shape, **SMALL) for shape in real_shapes.SHAPES}


def raw(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def human_texts(root) -> dict[tuple, set]:
    """(human folder, group) -> the keys its records annotated, read from the files."""
    out: dict[tuple, set] = {}
    for f in sorted((root / "annotations" / "human").rglob("annotations.jsonl")):
        for r in raw(f):
            out.setdefault((str(f.parent), r["annotator_group"]), set()).add(spelled(r))
    return out


def spelled(row) -> tuple:
    """An example key compared as the texts and the records both spell it (a system's dots as dashes)."""
    return tuple(str(row[k]).replace(".", "-") for k in KEY)


def largest_block(texts: dict) -> tuple[int, int]:
    """The largest block of groups that annotated the same texts, by trying every subset of two
    or more groups: (texts it shares, groups in it), most texts first, then most groups."""
    best = (0, 0)
    sets = list(texts.values())
    for size in range(2, len(sets) + 1):
        for subset in itertools.combinations(sets, size):
            best = max(best, (len(set.intersection(*subset)), size))
    return best


def selection(shape, task) -> dict[str, str]:
    """What the chapters select on a shape: the task, and the split where the task holds several
    (``SPLITS``; a task written ``name/`` is the task without its split, as a refused run)."""
    if task and task.endswith("/"):
        return {"task": task[:-1]}
    split = SPLITS.get((shape, task))
    return ({"task": task} if task else {}) | ({"split": split} if split else {})


def env_for(root, chosen: dict) -> dict[str, str]:
    out = {paths.REAL_DATA_ENV: str(root)}
    names = {"task": paths.REAL_TASK_ENV, "split": paths.REAL_SPLIT_ENV}
    return out | {names[k]: v for k, v in chosen.items()}


# --- who the chapters compare on which texts ----------------------------------------------------


@pytest.mark.parametrize(("shape", "task"), RUNS)
def test_the_raters_are_the_largest_block_of_groups_on_the_same_texts(roots, shape, task):
    root = roots[shape]
    corpus = load(root, task=task)
    plan = real_shape.plan(corpus)
    files = {k: v for k, v in human_texts(root).items() if task is None or f"/{task}" in k[0]}

    def written(s):  # the set's (folder, group) as the files have them
        return (str(root / corpus.campaign_folders[s.campaign]), s.group)

    assert sorted(map(written, plan.groups)) == sorted(files)
    shared, size = largest_block(files)
    if size:
        assert plan.pairs and (len(plan.texts), len(plan.raters)) == (shared, size)
        common = set.intersection(*(files[written(r)] for r in plan.raters))
        assert {spelled(t) for _, t in plan.texts.iterrows()} == common
    else:  # one group: it alone, on its texts
        assert not plan.pairs and len(plan.raters) == 1 and len(plan.texts) == len(next(iter(files.values())))


def test_on_the_iaa_split_the_raters_are_the_groups_that_annotated_every_text():
    """The chapter's rule before it ran on other corpora, kept where it applies."""
    corpus = load(paths.REAL_CORPUS)
    plan = real_shape.plan(corpus)
    complete = [g for g in plan.groups if len(g.select(corpus)[0]) == len(corpus.examples)]
    assert plan.raters == complete and plan.every_text and len(plan.texts) == len(corpus.examples)
    # and the span comparisons are chapter 08's before: every pair of groups there shares two texts
    assert real_shape.comparisons(corpus, plan) == judges.comparisons(corpus)


@pytest.mark.parametrize("shape", ["staggered", "export"])
def test_span_comparisons_keep_the_pairs_that_share_two_texts(roots, shape):
    task = "d2t-eval" if shape == "export" else None
    corpus = load(roots[shape], task=task)
    plan = real_shape.plan(corpus)
    kept = {(ref, hyp) for c in real_shape.comparisons(corpus, plan) for ref in c["ref"] for hyp in c["hyp"]}
    everything = {(ref, hyp) for c in judges.comparisons(corpus) for ref in c["ref"] for hyp in c["hyp"]}
    rec = corpus.records
    sets = {g.spec: g for g in plan.groups}

    def texts(spec):
        mine = sets[spec].filter(rec) if spec in sets else rec[rec["campaign"] == spec]
        return set(map(tuple, mine[list(KEY)].itertuples(index=False)))

    for pair in everything:
        assert (pair in kept) == (len(texts(pair[0]) & texts(pair[1])) >= real_shape.MIN_SHARED), pair
    if shape == "export":  # its iaa judges and groups share no text with its test ones
        assert kept < everything


# --- refused before the first cell, in one line ---------------------------------------------------


def test_what_the_chapters_cannot_run_on_is_refused_in_one_line_naming_it(roots, tmp_path):
    export, collide = roots["export"], roots["collide"]
    corpus, line = real_shape.read(export)
    assert corpus is not None and "\n" not in line and str(export) in line
    assert "one list of span categories" in line and f"choose one task with {paths.REAL_TASK_ENV}" in line
    assert "d2t-eval, propaganda" in line
    _, line = real_shape.read(export, task="mt-eval")
    assert "\n" not in line and "no task 'mt-eval'" in line and "tasks: d2t-eval, propaganda" in line
    _, line = real_shape.read(collide)
    assert "\n" not in line and "cannot be read" in line
    for folder in ("zeroshot-gpt4o/x/", "zeroshot/gpt4o-x/"):
        assert folder in line
    humans_only = shutil.copytree(roots["one-group"], tmp_path / "humans-only")
    shutil.rmtree(humans_only / "annotations" / "model")
    _, line = real_shape.read(humans_only)
    assert "\n" not in line and line.endswith("it lacks a judge (a model campaign with annotation records)")
    judges_only = shutil.copytree(roots["one-group"], tmp_path / "judges-only")
    shutil.rmtree(judges_only / "annotations" / "human")
    _, line = real_shape.read(judges_only)
    assert "\n" not in line and line.endswith("it lacks a human campaign with annotation records")
    elsewhere = shutil.copytree(roots["one-group"], tmp_path / "elsewhere")  # the judges on texts nobody else has
    for f in (elsewhere / "annotations" / "model").rglob("annotations.jsonl"):
        rows = [r | {"example_idx": r["example_idx"] + 100} for r in raw(f)]
        f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    _, line = real_shape.read(elsewhere)  # the frame keeps the texts with an output: the judges' go
    assert line is not None and "\n" not in line and "it lacks a judge" in line
    assert "the frame left out" in line and "without a text" in line, line


@pytest.mark.parametrize(("shape", "task"), REFUSED)
def test_the_check_exits_1_with_the_line_and_the_chapters_raise_it(roots, shape, task, monkeypatch):
    root = roots[shape]
    env = os.environ | env_for(root, selection(shape, task))
    done = subprocess.run(
        [sys.executable, "-m", "hotelcheckspan.book.real_shape"], env=env, capture_output=True, text=True, timeout=120
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and done.stdout == "" and len(lines) == 1, done.stderr
    assert lines[0] == real_shape.read(root, **selection(shape, task))[1]
    # what each chapter's first cell runs raises a clear error, not an analysis' traceback deep inside
    for key, value in env_for(root, selection(shape, task)).items():
        monkeypatch.setenv(key, value)
    with pytest.raises(real_shape.NotShaped) as info:  # unreadable or refused: the check's very line
        real_shape.framed(paths.real_corpus_dir(), **paths.real_selection())
    assert str(info.value) == lines[0]


def test_the_bundled_splits_pass_the_check(monkeypatch):
    for name in (paths.REAL_DATA_ENV, paths.REAL_TASK_ENV, paths.REAL_SPLIT_ENV):
        monkeypatch.delenv(name, raising=False)
    assert real_shape.chapter_corpora() == [paths.REAL_CORPUS, paths.REAL_TEST_CORPUS]
    done = subprocess.run(
        [sys.executable, "-m", "hotelcheckspan.book.real_shape"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_every_real_chapter_reads_its_corpus_through_the_check():
    """Each reads it framed (real_shape.framed: loaded, checked, one block) with the selection the
    environment gives."""
    for chapter in CHAPTERS:
        source = (ROOT / "notebooks" / f"{chapter}.py").read_text(encoding="utf-8")
        compact = re.sub(r"\s+", "", source)
        assert "real_shape.framed(paths.real_corpus_dir(" in compact, chapter
        assert "**paths.real_selection())" in compact, chapter


def test_the_book_cache_key_follows_the_real_corpus_variables(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "data").mkdir()
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    base = {k: v for k, v in os.environ.items() if not k.startswith("HOTELCHECKSPAN_") and k != "MAKEFLAGS"}

    def key(**extra) -> str:
        run = subprocess.run(
            ["make", "-s", "--no-print-directory", "-f", str(ROOT / "Makefile"), "sources-hash"],
            cwd=tmp_path,
            env=base | extra,
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    keys = [
        key(),
        key(**{paths.REAL_DATA_ENV: "/some/export"}),
        key(**{paths.REAL_DATA_ENV: "/some/export", paths.REAL_TASK_ENV: "d2t-eval"}),
        key(**{paths.REAL_DATA_ENV: "/some/export", paths.REAL_TASK_ENV: "d2t-eval", paths.REAL_SPLIT_ENV: "test"}),
    ]
    assert len(set(keys)) == len(keys) and key() == keys[0]


# --- the few analyses the chapters call on one rater ------------------------------------------


def test_agreement_among_one_rater_is_no_row_rather_than_an_error(roots):
    corpus = load(roots["one-group"])
    plan = real_shape.plan(corpus)
    marks = example_level.marks(corpus, plan.raters, plan.texts)
    assert len(marks) == len(plan.texts) and marks["rater"].nunique() == 1
    for frame in (
        example_level.reliability(marks),
        example_level.reliability_ci(marks, n_boot=20),
        example_level.prevalence(marks),
    ):
        assert frame.empty and len(frame.columns) > 0


# --- the chapters, executed on every shape ---------------------------------------------------------


def execute(runs: dict) -> dict:
    """Chapters 08, 10 and 11 on every corpus of ``runs`` (a key -> the environment that names its
    corpus), in one kernel session: before each corpus' chapters a cell sets its variables (and
    unsets the others), and each chapter starts from an empty namespace (``%reset -f``), so none
    leans on another's names; what the session shares is the modules imported, as one reader's
    kernel would. Returns key -> chapter -> its executed cells."""
    names = (paths.REAL_DATA_ENV, paths.REAL_TASK_ENV, paths.REAL_SPLIT_ENV)
    book = nbformat.v4.new_notebook()
    spans: dict = {}
    setters = []
    for key, env in runs.items():
        setters.append(len(book.cells))
        book.cells.append(
            nbformat.v4.new_code_cell(
                f"import os\nfor _name in {names!r}:\n    os.environ.pop(_name, None)\nos.environ.update({env!r})"
            )
        )
        for chapter in CHAPTERS:
            nb = jupytext.read(ROOT / "notebooks" / f"{chapter}.py")
            book.cells.append(nbformat.v4.new_code_cell("%reset -f"))
            start = len(book.cells)
            book.cells += nb.cells
            spans[key, chapter] = (start, len(book.cells))
    kernel_env = {k: v for k, v in os.environ.items() if k not in names}
    kernel_env |= {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    kernel_env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    client = NotebookClient(
        book,
        timeout=600,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(ROOT / "notebooks")}},
        shutdown_kernel="immediate",  # every output is in before; as make book stops its kernels
    )
    client.execute(env=kernel_env)
    for i in setters:  # a corpus' variables set (an error there would be nobody's chapter's)
        assert all(o["output_type"] != "error" for o in book.cells[i]["outputs"]), book.cells[i]
    out: dict = {key: {} for key in runs}
    for (key, chapter), (a, b) in spans.items():
        out[key][chapter] = book.cells[a:b]
    return out


@pytest.fixture(scope="module")
def executed(roots):
    """Every run of :data:`RUNS`, its chapters executed (one kernel session for all of them)."""
    started = time.perf_counter()
    out = execute({(shape, task): env_for(roots[shape], selection(shape, task)) for shape, task in RUNS})
    print(f"\nthe chapters on {len(RUNS)} corpora: {time.perf_counter() - started:.1f} s with the kernel")
    return out


def glued(cells) -> dict[str, str]:
    out = {}
    for cell in cells:
        for o in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            name = o.get("metadata", {}).get("scrapbook", {}).get("name")
            if name:
                data = o["data"]
                key = GLUE_MIME + ("text/markdown" if GLUE_MIME + "text/markdown" in data else "text/plain")
                out[name] = "".join(data[key]).strip("'\"")
    return out


def referenced(cells) -> set[str]:
    text = "\n".join(c["source"] for c in cells if c["cell_type"] == "markdown")
    return set(re.findall(r"\{glue:(?:text|md)\}`(\w+)`", text)) | set(re.findall(r"```\{glue:md\} (\w+)", text))


def seconds(cells) -> float:
    """The kernel's time on the cells, from the execution timestamps nbclient records."""
    from datetime import datetime

    total = 0.0
    for c in cells:
        t = c.get("metadata", {}).get("execution", {})
        if "iopub.execute_input" in t and "shell.execute_reply" in t:
            start, end = (datetime.fromisoformat(t[k]) for k in ("iopub.execute_input", "shell.execute_reply"))
            total += (end - start).total_seconds()
    return total


BUNDLED_WORDS = ("iaa split", "test split", "d2t iaa", "d2t test", "data-to-text", "crowd workers")


@pytest.mark.slow
@pytest.mark.parametrize(("shape", "task"), RUNS, ids=[f"{s}-{t}" if t else s for s, t in RUNS])
def test_the_real_chapters_run_on_the_shape(roots, executed, shape, task):
    root = roots[shape]
    assert real_shape.read(root, **selection(shape, task))[1] is None  # the check lets it through
    timings = []
    values = {}
    for chapter, cells in executed[shape, task].items():
        errors = [o for c in cells if c["cell_type"] == "code" for o in c["outputs"] if o["output_type"] == "error"]
        assert not errors, f"{chapter} on {shape}: {errors[0]['ename']}: {errors[0]['evalue']}"
        mine = glued(cells)
        missing = referenced(cells) - set(mine)
        assert not missing, f"{chapter} on {shape} glues no value for {sorted(missing)}"
        for name, value in mine.items():  # the prose is the loaded corpus', never the bundled splits'
            assert not any(w in value for w in BUNDLED_WORDS), (chapter, name, value)
        values[chapter] = mine
        timings.append(f"{chapter} {seconds(cells):.1f} s")
    print(f"\n{shape} {task or ''}: {', '.join(timings)}")
    for chapter, name in [
        ("08_real_corpus", "about"),
        ("10_evaluate_your_judge", "real_about"),
        ("11_validate_your_metric", "corpus_said"),
    ]:
        said = values[chapter][name]  # where the chapter says what it ran on
        assert f"`{root.name}" in said and (task is None or f"task {task}" in said), (chapter, said)
    ch08, ch10, ch11 = (values[c] for c in CHAPTERS)
    files = {k: v for k, v in human_texts(root).items() if task is None or f"/{task}" in k[0]}
    split = selection(shape, task).get("split")
    judges_written = [
        f
        for f in (root / "annotations" / "model").rglob("annotations.jsonl")
        if (task is None or f"/{task}/" in str(f)) and (split is None or any(r["split"] == split for r in raw(f)))
    ]
    # config-only folders are not judges, and a judge of another split is outside the frame
    assert ch10["real_n_judges_words"] == count_words(len(judges_written))
    if len(files) == 1:  # no pair of humans: no kappa, no ceiling, said so
        assert ch08["raters_said"].startswith("the corpus has one human group")
        assert "no human ceiling" in ch10["real_ceiling_said"]
        assert ch11["ceiling_rule"].startswith("No text has two or more human records")
    else:
        shared, size = largest_block(files)
        assert f"the {size} groups that annotated" in ch08["raters_said"]
        assert f"{shared:,} texts" in ch08["raters_said"] or "every text" in ch08["raters_said"]
        assert "the human sets' agreement with each other" in ch10["real_ceiling_said"]
    records = [
        r
        for f in (root / "annotations").rglob("annotations.jsonl")
        if task is None or f"/{task}/" in str(f)
        for r in raw(f)
    ]
    setups = {r["setup_id"].replace(".", "-") for r in records}
    if len(setups) < 3:
        assert "no system level" in ch11["systems_said"]
    else:
        assert ch11["systems_said"] == f"The texts come from {count_words(len(setups))} generating systems."
    if task == "propaganda":  # another task: nothing of the d2t one is said
        assert not any("d2t" in v for c in values.values() for v in c.values())
