"""The hotelcheckspan command: exit codes, one line per problem, never a traceback."""

import json
import subprocess
import sys

import pytest

from hotelcheckspan import paths
from test_corpus import rec, write_corpus

DATA = paths.BUNDLED_CORPUS
STAGE1 = DATA / "annotations/human/stage1/annotations.jsonl"
GPT4O = DATA / "annotations/model/gpt-4o/annotations.jsonl"


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "hotelcheckspan.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def test_validate_bundled_corpus_exits_0():
    out = run("validate", DATA)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("ok: 496 examples")


def test_validate_lists_every_problem_and_exits_1(tmp_path):
    root = write_corpus(tmp_path, [rec(0, [(5, 2, "quiet")]), rec(1, impression="0")])
    out = run("validate", root)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines == [
        "annotations/human/stage1/annotations.jsonl:1: annotations.0.type: "
        "type 5 outside the campaign's 3 categories ['Not Checkable', 'Misleading', 'Incorrect']",
        "annotations/human/stage1/annotations.jsonl:2: options.0.value: impression 0 outside 1-7",
    ]


def test_validate_missing_folder_is_one_line(tmp_path):
    out = run("validate", tmp_path / "absent")
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_standin_regenerates_the_committed_corpus_byte_for_byte(tmp_path):
    out = run("standin", "--out", tmp_path / "c")
    assert out.returncode == 0, out.stderr
    made = sorted(p.relative_to(tmp_path / "c") for p in (tmp_path / "c").rglob("*") if p.is_file())
    committed = sorted(p.relative_to(DATA) for p in DATA.rglob("*") if p.is_file())
    assert made == committed
    for rel in made:
        assert (tmp_path / "c" / rel).read_bytes() == (DATA / rel).read_bytes(), rel


def test_standin_refuses_a_non_empty_folder(tmp_path):
    (tmp_path / "x").write_text("keep me")
    out = run("standin", "--out", tmp_path)
    assert out.returncode == 1 and "not empty" in out.stderr and (tmp_path / "x").exists()


def test_stats_json_has_the_dataset_level_tables():
    out = run("stats", DATA, "--json")
    assert out.returncode == 0, out.stderr
    stats = json.loads(out.stdout)
    assert stats["overview_human"]["records"] == 1482
    rows = {r["name"]: r for r in stats["campaigns_stage2_examples"]}
    assert set(rows) >= {"St. 1A", "St. 1B", "St. 2A", "St. 2B", "gpt-4o"}
    assert rows["St. 2A"]["records"] == 245
    assert sum(r["count"] for r in stats["table2_human_types"]) == stats["overview_human"]["spans"]


def test_f1_between_groups_of_one_file():
    out = run("f1", STAGE1, STAGE1, "--ref-group", "A", "--hyp-group", "B", "--json", "--by-type")
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    assert set(res) == {"precision", "recall", "f1", "ref_count", "hyp_count", "examples", "by_type"}
    assert res["examples"] == 496 and 0 < res["f1"] < 1
    assert set(res["by_type"]) == {"Not Checkable", "Misleading", "Incorrect"}
    swapped = json.loads(run("f1", STAGE1, STAGE1, "--ref-group", "B", "--hyp-group", "A", "--json").stdout)
    assert swapped["precision"] == pytest.approx(res["recall"]) and swapped["ref_count"] == res["hyp_count"]


def test_f1_human_vs_model_soft_is_at_least_hard():
    hard = json.loads(run("f1", STAGE1, GPT4O, "--json").stdout)
    soft = json.loads(run("f1", STAGE1, GPT4O, "--json", "--match", "soft").stdout)
    assert soft["f1"] >= hard["f1"] and soft["examples"] == hard["examples"] == 496


@pytest.mark.parametrize("args, message", [
    (["missing.jsonl", STAGE1], "no such file"),
    ([STAGE1, STAGE1, "--ref-group", "7"], "no example has a record on both sides"),
    ([STAGE1, STAGE1, "--ref-group", "?"], "neither a number nor a letter"),
])
def test_f1_errors_are_one_line(args, message):
    out = run("f1", *args)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert message in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_f1_reports_a_bad_line(tmp_path):
    bad = tmp_path / "annotations.jsonl"
    bad.write_text("not json\n")
    out = run("f1", bad, STAGE1)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert f"{bad}:1: <json>: malformed JSON" in out.stderr


HEAVY = ["hotelcheckspan.simulation", "rouge_score", "nltk", "sacrebleu", "torch", "sentence_transformers",
         "matplotlib", "seaborn", "sklearn"]


def test_cli_imports_nothing_heavy():
    """validate, stats and f1 start without the simulation, rouge-score, nltk, torch or plotting."""
    code = ("import sys, hotelcheckspan.cli as cli; cli.build_parser(); "
            f"print(' '.join(m for m in {HEAVY!r} if any(k == m or k.startswith(m + '.') for k in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"the CLI imports {out.stdout.strip()}"
