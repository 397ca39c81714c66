"""Every promise of the README on corpora nobody tuned it to (issue 34): the shapes of the public
"LLMs as Span Annotators" export, built from its two bundled d2t splits (``tests/real_shapes.py``):
several tasks with different categories in one folder, one human group, groups on different
texts, two folders that collide in name, a config-only campaign, records that sit on another
example's id.

Expectations are counted from the files the corpora were written with (JSON lines read here, not
by the package), from the per-character reference of ``tests/span_reference.py``, from scipy, or
from the single command the batch form must agree with. Every corpus is written once per module;
every command is run on every shape and must give a result or a one-line refusal.
"""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import real_shapes
from scipy import stats
from span_reference import per_character
from strict import strict

from hotelcheckspan import cli
from hotelcheckspan.corpora import CorpusError, load, words
from hotelcheckspan.corpora import problems as P
from hotelcheckspan.metrics import error_counts, span_f1

SHAPES = real_shapes.SHAPES
TASKS = ["d2t-eval", "propaganda"]


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    base = tmp_path_factory.mktemp("export-shapes")
    return {shape: real_shapes.build(base / shape, shape) for shape in SHAPES}


@pytest.fixture(scope="module")
def export(roots):
    return load(roots["export"])


def raw(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def one_line_refusal(code, out, err):
    assert code == 1 and out == "", out
    lines = err.strip().splitlines()
    assert lines and "Traceback" not in err and "internal error" not in err
    return lines[-1]


# --- every command on every shape ----------------------------------------------------------------


def _commands(shape: str, root) -> list[list]:
    """The commands a user runs on a corpus of ``shape`` (a judge and a human group of its own)."""
    corpus_ok = shape != "collide"
    sel = ["--task", "d2t-eval"] if shape == "export" else []
    judge = {"export": "d2t-eval-test-gpt4o", "staggered": "gpt4o"}.get(shape, "zeroshot-gpt4o")
    human = {"export": "d2t-eval-test/A", "staggered": "test/A"}.get(shape, "iaa/A")
    if shape == "collide":
        judge, human = "zeroshot-o3-mini", "iaa/A"
    boot = ["--n-boot", "20"]
    out = [
        ["validate", root, *sel],
        ["campaigns", root, *sel],
        ["stats", root, *sel],
        ["f1", root, human, judge, *sel],
        ["gamma", root, human, judge, *sel],
        ["pearson", root, human, judge, *sel],
        ["judge", root, judge, *sel, *boot],
        ["judges", root, *sel, *boot, "--no-distinguish"],
        ["agreement", root, *sel, "--measure", "f1", "--measure", "pearson"],
        ["metric", root, *sel, *boot],
    ]
    if shape == "export":  # and without the selection: refusals naming the tasks
        out += [[c[0], root] for c in out if c[0] in ("stats", "judges", "agreement", "metric")]
        out += [["judge", root, judge, *boot], ["judge", root, "d2t-eval-test-qwen"]]
    if shape == "config-only":
        out.append(["judge", root, "zeroshot-qwen"])
    lone = root / "annotations/human/d2t-eval/iaa/annotations.jsonl"
    return out if corpus_ok else out + [["f1", lone, lone, "--ref-group", "0", "--hyp-group", "1"]]


@pytest.mark.parametrize("shape", SHAPES)
def test_every_command_gives_a_result_or_a_one_line_refusal(run, roots, shape):
    root = roots[shape]
    for command in _commands(shape, root):
        code, out, err = run(*command)
        assert "Traceback" not in err and "internal error" not in err, (command, err)
        if command[0] == "validate":  # its result is the list of problems, exit 1 where one is an error
            assert out.strip() and code == (1 if shape == "collide" else 0), (command, err)
        elif code == 0:
            assert out.strip(), command
        else:
            line = one_line_refusal(code, out, err)
            assert line.startswith(f"hotelcheckspan {command[0]}: "), (command, line)


def test_the_collision_is_an_error_naming_both_folders(run, roots):
    root = roots["collide"]
    with pytest.raises(CorpusError) as info:
        load(root)
    message = str(info.value)
    for folder in (
        "annotations/model/d2t-eval/iaa/zeroshot-gpt4o/x/",
        "annotations/model/d2t-eval/iaa/zeroshot/gpt4o-x/",
    ):
        assert folder in message
    assert "rename one folder" in message
    code, out, err = run("judge", root, "zeroshot-o3-mini")
    assert "both get the name" in one_line_refusal(code, out, err)


# --- several tasks in one folder: select before you compute --------------------------------------


def test_the_export_has_two_tasks_and_refuses_to_pool_them(run, roots, export):
    assert export.tasks() == TASKS
    for command in (["stats"], ["metric", "--n-boot", "20"], ["judges", "--n-boot", "20"], ["agreement"]):
        code, out, err = run(command[0], roots["export"], *command[1:])
        line = one_line_refusal(code, out, err)
        assert "the categories of" in line and "differ" in line and "choose one task with --task" in line
        assert "(task d2t-eval)" in line and "(task propaganda)" in line and line.endswith("d2t-eval, propaganda")


@pytest.mark.parametrize("task", TASKS)
def test_a_task_is_its_campaigns_records_as_written(roots, export, task):
    root = roots["export"]
    part = load(root, task=task)
    assert part.tasks() == [task] and len(set(map(tuple, part.campaign_categories.values()))) == 1
    files = sorted((root / "annotations").rglob("annotations.jsonl"))
    mine = [f for f in files if f.relative_to(root).parts[2] == task]
    assert len(part.records) == sum(len(raw(f)) for f in mine)
    assert len(part.spans) == sum(len(r["annotations"]) for f in mine for r in raw(f))
    assert set(part.selection["left_out"].values()) == set(TASKS) - {task}
    # load(task=) reads only the task's files; selecting the whole corpus gives the same frames
    whole = export.select(task=task)
    pd.testing.assert_frame_equal(part.records.drop(columns="record_id"), whole.records.drop(columns="record_id"))
    assert part.campaign_folders == whole.campaign_folders and len(part.examples) == len(whole.examples)


def test_a_split_and_a_dataset_prefix_select_records_as_written(roots, export):
    root = roots["export"]
    test = load(root, task="d2t-eval", split="test")
    human = raw(root / "annotations/human/d2t-eval/test/annotations.jsonl")
    judges = [f for f in (root / "annotations/model/d2t-eval/test").rglob("annotations.jsonl")]
    assert len(test.records) == len(human) + sum(len(raw(f)) for f in judges)
    assert set(test.examples["split"]) == {"test"}
    prefix = export.select(task="propaganda-football")  # no task folder: a dataset prefix
    assert set(prefix.records["dataset"]) == {"propaganda-football"}
    assert len(prefix.records) == sum(
        r["dataset"] == "propaganda-football" for f in (root / "annotations").rglob("annotations.jsonl") for r in raw(f)
    )


@pytest.mark.parametrize(
    ("selection", "words_"),
    [
        ({"task": "mt-eval"}, ["no task 'mt-eval'", "tasks: d2t-eval, propaganda", "datasets: d2t-football"]),
        ({"split": "dev"}, ["no split 'dev'", "splits: iaa, test"]),
        ({"campaigns": ["gpt5"]}, ["no campaign 'gpt5'", "closest: ", "d2t-eval-test-gpt4o"]),
        ({"task": "propaganda", "campaigns": ["d2t-eval-test-gpt4o"]}, ["is not in task 'propaganda'"]),
    ],
)
def test_an_unknown_selection_names_what_there_is(export, selection, words_):
    with pytest.raises(ValueError) as info:
        export.select(**selection)
    for w in words_:
        assert w in str(info.value)


def test_naming_a_judge_keeps_its_humans(export):
    one = export.select(campaigns=["d2t-eval-test-gpt4o"])
    assert one.campaigns("model") == ["d2t-eval-test-gpt4o"]
    assert set(one.campaigns("human")) == set(export.campaigns("human"))


def test_names_do_not_change_with_the_selection(export, roots):
    part = load(roots["export"], task="propaganda")
    assert set(part.campaign_folders.items()) <= set(export.campaign_folders.items())


# --- config-only campaigns -----------------------------------------------------------------------


def test_a_config_only_campaign_is_listed_with_zero_records_and_named_where_left_out(run, roots):
    root = roots["config-only"]
    code, out, err = run("campaigns", root, "--json")
    assert code == 0, err
    rows = {r["campaign"]: r for r in strict(out)["campaigns"]}
    assert rows["zeroshot-qwen"]["records"] == 0 and rows["zeroshot-qwen"]["kind"] == "model"
    assert rows["zeroshot-qwen"]["path"] == "annotations/model/d2t-eval/iaa/zeroshot-qwen"
    line = one_line_refusal(*run("judge", root, "zeroshot-qwen"))
    assert "is empty" in line and "has a config and no annotation file" in line and "no campaign folder" not in line
    for command in (["stats"], ["judges", "--n-boot", "20", "--no-distinguish"], ["metric", "--n-boot", "20"]):
        code, out, err = run(command[0], root, *command[1:])
        assert code == 0, err
        assert "note: left out: campaign zeroshot-qwen (annotations/model/d2t-eval/iaa/zeroshot-qwen/" in out
        code, out, err = run(command[0], root, *command[1:], "--json")
        assert strict(out)["settings"]["selection"]["config_only"] == ["zeroshot-qwen"]


# --- records on another example's id --------------------------------------------------------------


def test_records_on_another_examples_id_are_one_cause_not_many_symptoms(run, roots):
    root = roots["export"]
    moved = real_shapes.moved_records(root)
    assert len(moved) == real_shapes.MOVED
    rel = "annotations/model/propaganda/zeroshot/o3-mini/annotations.jsonl"
    warnings = [w for w in load(root, task="propaganda").warnings if w.file == rel]
    assert sorted(w.line for w in warnings if w.kind == P.ORIG_EXAMPLE) == moved
    # no not-found per span, no duplicate-record: the cause alone
    assert not [w for w in warnings if w.kind in (*P.UNPLACED, P.DUPLICATE_RECORD)]
    code, out, err = run("validate", root, "--task", "propaganda")
    assert code == 0
    assert f"{len(moved)} records of {rel} sit on the id of another example" in out
    assert "orig_example_idx" in out
    code, out, err = run("stats", root, "--task", "propaganda")  # the cause said once on stderr too
    assert code == 0 and err.count("sit on the id of another example") == 1


def test_a_record_sitting_on_another_text_is_found_without_orig_example_idx(tmp_path):
    root = real_shapes.build(tmp_path / "e", "export")
    moved = real_shapes.moved_records(root)
    path = root / "annotations/model/propaganda/zeroshot/o3-mini/annotations.jsonl"
    rows = raw(path)
    for r in rows:
        r.pop("orig_example_idx")
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    warnings = load(root, task="propaganda").warnings
    assert sorted(w.line for w in warnings if w.kind == P.OTHER_EXAMPLE) == moved
    assert not [w for w in warnings if w.kind in (*P.UNPLACED, P.DUPLICATE_RECORD)]


# --- one human group, groups on different texts --------------------------------------------------


def test_one_human_group_has_no_ceiling(run, roots):
    code, out, err = run("judges", roots["one-group"], "--n-boot", "20", "--no-distinguish", "--json")
    data = strict(out)
    assert code == 0 and data["compared"]["ceiling"]["defined"] is False
    assert "one human set" in data["compared"]["ceiling"]["reason"]


def test_the_metric_says_its_ceiling_is_measured_on_another_subset(run, roots):
    root = roots["staggered"]
    human = raw(root / "annotations/human/d2t-eval/test/annotations.jsonl")
    per_text = pd.Series([(r["dataset"], r["setup_id"], r["example_idx"]) for r in human]).value_counts()
    two = int((per_text >= 2).sum())
    code, out, err = run("metric", root, "--n-boot", "20")
    assert code == 0, err
    assert f"note: the human ceiling is measured on {two} of the {len(per_text)} texts" in out
    code, out, err = run("metric", root, "--n-boot", "20", "--json")
    data = strict(out)
    # the generating systems, as factgenie joins ids (the gsmarena texts spell llama3.3, the others llama3-3)
    systems = {r["setup_id"].replace(".", "-") for f in (root / "outputs").rglob("*.jsonl") for r in raw(f)}
    assert data["system"] and {row["systems"] for row in data["system"]} == {len(systems)}
    assert {row["texts"] for row in data["system"]} == {len(per_text)}  # texts, labelled as texts
    assert data["clusters"] and {row["target"] for row in data["clusters"]} == {"errors"}
    assert data["settings"]["resamples"] == 20 and data["settings"]["seed"] == 0


def test_the_judge_says_which_classes_are_degenerate(run, roots):
    code, out, err = run("judge", roots["staggered"], "gpt4o", "--n-boot", "20", "--json")
    data = strict(out)
    for row in data["table5"]:
        n, errors = row["examples"], row["majority_errors"]
        if errors in (0, n):
            assert any(note.startswith(f"{row['label']}: the clear majority marks") for note in data["notes"])
        elif min(errors, n - errors) < 10:
            assert any(note.startswith(f"{row['label']}: BACC rests on") for note in data["notes"])
    code, out, err = run("judge", roots["staggered"], "gpt4o", "--n-boot", "20")
    assert "nan" not in out.lower()  # an undefined interval is said, never "NaN NaN"


# --- the batch form -------------------------------------------------------------------------------


def _spans_of(rows, group=None):
    return {
        (r["dataset"], r["setup_id"], r["example_idx"]): [
            (a["start"], a["start"] + len(a["text"]), a["type"]) for a in r["annotations"]
        ]
        for r in rows
        if group is None or r["annotator_group"] == group
    }


def test_agreement_cells_are_the_single_commands_and_the_reference(run, roots):
    """Every judge against each human group of the staggered corpus (average none): each row is
    what f1 CORPUS A B prints, and its hard F1 the per-character reference (factgenie's both)."""
    root = roots["staggered"]
    code, out, err = run("agreement", root, "--average", "none", "--json")
    assert code == 0, err
    rows = strict(out)["agreement"]
    human = raw(root / "annotations/human/d2t-eval/test/annotations.jsonl")
    judge = raw(root / "annotations/model/d2t-eval/test/gpt4o/annotations.jsonl")
    mine = [r for r in rows if r["hypothesis"] == "gpt4o"]
    assert sorted(r["reference"] for r in mine) == ["test/A", "test/B"]
    for row in mine:
        group = "AB".index(row["reference"][-1])
        ref = _spans_of(human, group)
        hyp = {k: v for k, v in _spans_of(judge).items() if k in ref}
        c = per_character(ref, hyp, sorted(ref), "hard", "factgenie")["all"]
        p, r = c["overlap"] / c["hyp_length"], c["overlap_ref"] / c["ref_length"]
        assert row["f1_hard"] == pytest.approx(2 * p * r / (p + r)) and row["texts"] == len(ref)
        code, single, _ = run("f1", root, row["reference"], "gpt4o", "--match", "soft", "--json")
        assert strict(single)["f1"] == pytest.approx(row["f1_soft"], abs=1e-12)
    code, out, err = run("agreement", root, "--json")  # the mean over the pairs
    means = {r["hypothesis"]: r for r in strict(out)["agreement"]}
    assert means["gpt4o"]["pairs"] == 2
    assert means["gpt4o"]["f1_hard"] == pytest.approx(np.mean([r["f1_hard"] for r in mine]))
    # counts of texts are counts of texts; the sums over the pairs go under names of their own
    judged = {k for k in _spans_of(judge)}
    humans = set(_spans_of(human, 0)) | set(_spans_of(human, 1))
    assert means["gpt4o"]["texts"] == len(judged & humans)
    assert means["gpt4o"]["pair_examples"] == sum(r["texts"] for r in mine) > means["gpt4o"]["texts"]


def test_agreement_per_split_on_the_export_and_csv_scripts_can_read(run, roots):
    code, out, err = run(
        "agreement", roots["export"], "--task", "d2t-eval", "--per", "split", "--format", "csv", "--table", "agreement"
    )
    assert code == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert set(table["part"]) == {"iaa", "test"}
    iaa = table[table["part"] == "iaa"]
    assert set(iaa["reference"]) == {"mean of 29 sets"} and iaa["hypothesis"].str.startswith("d2t-eval-iaa-").all()
    assert "span F1, hard and soft: factgenie 1.2.1: character overlap" in err  # with --table the header goes to stderr


# --- scripts can tell -----------------------------------------------------------------------------


def test_judges_json_csv_and_settings_agree(run, roots):
    root = roots["one-group"]
    code, out, err = run("judges", root, "--n-boot", "20", "--no-distinguish", "--json")
    data = strict(out)
    assert data["settings"]["command"] == "judges" and data["settings"]["convention"] == "either"
    code, csv_out, _ = run(
        "judges", root, "--n-boot", "20", "--no-distinguish", "--format", "csv", "--table", "leaderboard"
    )
    table = pd.read_csv(io.StringIO(csv_out))
    by_json = {r["judge"]: r["f1_soft"] for r in data["leaderboard"]}
    for judge, f1 in zip(table["judge"], table["f1_soft"]):
        assert f1 == pytest.approx(by_json[judge], rel=1e-5)


def test_every_option_has_help_and_the_help_is_clean(run):
    parser = cli.build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command").choices
    for name, sub in subparsers.items():
        for action in sub._actions:
            if action.dest in ("help",) or not action.option_strings and action.dest == "review_command":
                continue
            assert action.help, f"{name} {action.option_strings or action.dest} has no help"
    text = parser.format_help()
    assert "`" not in text and cli.DESCRIPTION.split()[-1] in " ".join(text.split())  # not cut, no reST
    for name in subparsers:
        assert f"    {name}" in text
    code, out, err = run("--version")
    assert code == 0 and out.startswith("hotelcheckspan ")


def test_help_imports_no_numerical_library():
    code = (
        "import sys, hotelcheckspan.cli as cli; cli.build_parser(full=False).format_help(); "
        "print(' '.join(m for m in ('numpy', 'pandas', 'scipy', 'pydantic') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def test_campaigns_footer_is_plain(run, roots):
    code, out, _ = run("campaigns", roots["one-group"])
    assert code == 0 and "`" not in out and "..." not in out


def test_the_f1_definitions_the_parser_offers_are_the_metrics():
    assert cli.F1_METRICS == span_f1.METRICS and cli.F1_CONVENTIONS == span_f1.CONVENTIONS
    assert set(cli.F1_ALIASES) == set(span_f1.ALIASES)
    assert cli.F1_DEFINITION_NAMES == span_f1.DEFINITION_LABELS  # the methods page's names, one list


# --- a scores file's warnings ---------------------------------------------------------------------


def test_a_scores_files_warnings_are_listed_with_file_line_and_field(run, roots, tmp_path):
    root = roots["staggered"]
    corpus = load(root)
    keys = corpus.examples[["dataset", "split", "setup_id", "example_idx"]].iloc[::2].reset_index(drop=True)
    scores = keys.assign(m=np.arange(len(keys), dtype=float))
    scores.loc[3, "m"] = np.nan
    path = tmp_path / "s.csv"
    scores.to_csv(path, index=False)
    code, out, err = run("metric", root, path, "--n-boot", "20", "--no-judges", "--json")
    assert code == 0, err
    n = len(corpus.examples)
    assert f"{path}: warning: scores {len(keys)} of the corpus' {n} examples: the other {n - len(keys)}" in err
    assert f"{path}:5: warning: m: no score for m" in err  # the header is line 1
    assert not [line for line in err.splitlines() if str(path) in line and "validate" in line]


# --- definitions ----------------------------------------------------------------------------------


def test_words_of_scripts_without_spaces_are_characters(tmp_path):
    assert words.count("東京タワーは高い") == 8 and words.count("the 東京 tower") == 4
    assert words.count("a  b\tc") == 3 and words.count("") == 0
    assert words.counts(pd.Series(["หนึ่ง", "안녕 하세요", None])).tolist() == [5, 2, 0]


def test_the_statisticians_example_r_is_scipys_on_per_example_totals(roots):
    import hotelcheckspan

    root = roots["one-group"]
    ref_file = root / "annotations/human/d2t-eval/iaa/annotations.jsonl"
    hyp_file = root / "annotations/model/d2t-eval/iaa/zeroshot-gpt4o/annotations.jsonl"
    res = hotelcheckspan.span_pearson(ref_file, hyp_file, tests="examples")
    ref, hyp = raw(ref_file), raw(hyp_file)

    def totals(rows):
        return {(r["dataset"], r["setup_id"].replace(".", "-"), r["example_idx"]): len(r["annotations"]) for r in rows}

    a, b = totals(ref), totals(hyp)
    common = sorted(set(a) & set(b))
    want = stats.pearsonr([a[k] for k in common], [b[k] for k in common])
    st = res["examples_tests"]
    assert st["example_pearson"] == pytest.approx(want.statistic) and st["example_p_value"] == pytest.approx(
        want.pvalue
    )


def _scipy_macro_test(ref: np.ndarray, hyp: np.ndarray, **options):
    """scipy's permutation test of macro r (the mean over the columns of Pearson's r), the
    examples of ``hyp`` permuted (pairings), written from the definition."""

    def macro(h, axis=-1):  # h: (..., categories, examples)
        rc = ref.T - ref.T.mean(axis=-1, keepdims=True)
        hc = h - h.mean(axis=-1, keepdims=True)
        return ((rc * hc).sum(-1) / np.sqrt((rc**2).sum(-1) * (hc**2).sum(-1))).mean(-1)

    return stats.permutation_test((hyp.T,), macro, permutation_type="pairings", vectorized=True, axis=-1, **options)


def test_the_macro_permutation_test_is_scipys():
    rng = np.random.default_rng(3)
    ref = rng.poisson(1.5, size=(7, 3)).astype(float)  # 7! = 5040 orderings: scipy and ours are exact
    hyp = ref + rng.poisson(1.0, size=(7, 3))
    theirs = _scipy_macro_test(ref, hyp, n_resamples=9999)
    r, p, n, exact = error_counts.macro_permutation_test(ref, hyp)
    assert exact and n == math.factorial(7)
    assert r == pytest.approx(theirs.statistic) and p == pytest.approx(theirs.pvalue)
    # random permutations: the same p within its Monte Carlo error
    big_ref = rng.poisson(1.5, size=(40, 3)).astype(float)
    big_hyp = big_ref + rng.poisson(2.0, size=(40, 3))
    theirs = _scipy_macro_test(big_ref, big_hyp, n_resamples=4000, rng=np.random.default_rng(0))
    r, p, n, exact = error_counts.macro_permutation_test(big_ref, big_hyp, n_resamples=4000)
    assert not exact and n == 4000 and r == pytest.approx(theirs.statistic)
    assert abs(p - theirs.pvalue) <= 4 * math.sqrt(max(p, 1 / 4000) / 4000) + 1 / 4000
