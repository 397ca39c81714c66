"""Held-out damaged inputs (review rev4): what the earlier rounds' tests did not cover. Each test
builds from a small copy of the bundled corpus in tmp_path and runs the CLI in process."""

import json
import shutil
from pathlib import Path

import hotelcheckspan
from hotelcheckspan import cli, paths

HUMAN = Path("annotations/human/stage1/annotations.jsonl")
MODEL = Path("annotations/model/gpt-4o/annotations.jsonl")
KEY = ("dataset", "split", "setup_id", "example_idx")


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def write_lines(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def small_copy(tmp_path: Path) -> Path:
    """Stage 1 and gpt-4o on the first ten examples."""
    root = tmp_path / "corpus"
    shutil.copytree(paths.BUNDLED_CORPUS, root, ignore=shutil.ignore_patterns("stage2", "gemma-3", "o3-*", "*-ls"))
    inputs = lines(root / "inputs.jsonl")[:10]
    keep = {tuple(r[k] for k in KEY) for r in inputs}
    write_lines(root / "inputs.jsonl", inputs)
    for f in (HUMAN, MODEL):
        write_lines(root / f, [r for r in lines(root / f) if tuple(r[k] for k in KEY) in keep])
    return root


def run(capsys, *args) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def lone_copy(root: Path, tmp_path: Path) -> Path:
    """The model's annotation file alone, with no config beside it."""
    lone = tmp_path / "lone"
    lone.mkdir()
    shutil.copy(root / MODEL, lone / "annotations.jsonl")
    return lone / "annotations.jsonl"


def test_gamma_and_pearson_without_a_config_compare_types_by_number(tmp_path, capsys):
    # as f1 does (factgenie needs no config): the same numbers as with the config, and a warning
    root = small_copy(tmp_path)
    lone = lone_copy(root, tmp_path)
    for command in ("gamma", "pearson"):
        code, out, err = run(capsys, command, root / HUMAN, lone, "--ref-group", "0", "--json")
        assert code == 0, err
        assert "1 warning in" in err
        code, with_config, _ = run(capsys, command, root / HUMAN, root / MODEL, "--ref-group", "0", "--json")
        assert code == 0 and json.loads(out) == json.loads(with_config)
    assert hotelcheckspan.span_pearson(root / HUMAN, lone) == hotelcheckspan.span_pearson(root / HUMAN, root / MODEL)


def test_a_broken_inputs_file_is_named_in_full_when_comparing_files(tmp_path, capsys):
    # f1/gamma/pearson take file paths, so a problem of the corpus' texts names its full path
    root = small_copy(tmp_path)
    (root / "inputs.jsonl").write_text("", encoding="utf-8")
    for command in ("f1", "gamma", "pearson"):
        code, _, err = run(capsys, command, root / HUMAN, root / MODEL)
        assert code == 1
        assert f"{root / 'inputs.jsonl'}: is empty" in err
