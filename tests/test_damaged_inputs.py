"""Damaged inputs beyond the loader's own tests (a held-out review): each test
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
        # the lone file's warning, with file, line and field (validate cannot take a lone file)
        assert err.startswith(f"{lone}: warning: no config.yaml or metadata.json beside it") and "[no-config]" in err
        code, with_config, _ = run(capsys, command, root / HUMAN, root / MODEL, "--ref-group", "0", "--json")
        lone_result, config_result = json.loads(out), json.loads(with_config)
        assert lone_result.pop("compared")["hypothesis"]["file"] == str(lone)  # each side named by its file
        assert lone_result.pop("settings") == config_result.pop("settings")
        assert code == 0 and lone_result == {k: v for k, v in config_result.items() if k != "compared"}

    def numbers(result):
        return {k: v for k, v in result.items() if k != "compared"}

    assert numbers(hotelcheckspan.span_pearson(root / HUMAN, lone)) == numbers(
        hotelcheckspan.span_pearson(root / HUMAN, root / MODEL)
    )


def test_a_broken_inputs_file_is_named_in_full_when_comparing_files(tmp_path, capsys):
    # f1/gamma/pearson take file paths, so a problem of the corpus' texts names its full path
    root = small_copy(tmp_path)
    (root / "inputs.jsonl").write_text("", encoding="utf-8")
    for command in ("f1", "gamma", "pearson"):
        code, _, err = run(capsys, command, root / HUMAN, root / MODEL)
        assert code == 1
        assert f"{root / 'inputs.jsonl'}: is empty" in err


def outside_judge(tmp_path: Path, rows: int, damage: str | None = None) -> tuple[Path, Path]:
    """The whole bundled corpus and, outside it, a judge folder holding gpt-4o's config and its
    first ``rows`` records (examples the first human stage has and the second has not)."""
    root = tmp_path / "corpus"
    shutil.copytree(paths.BUNDLED_CORPUS, root)
    judge = tmp_path / "acme"
    judge.mkdir()
    shutil.copy(root / MODEL.parent / "config.yaml", judge / "config.yaml")
    text = "".join((root / MODEL).read_text(encoding="utf-8").splitlines(keepends=True)[:rows])
    (judge / "annotations.jsonl").write_text(text + (damage or ""), encoding="utf-8")
    return root, judge


def test_judge_outside_the_corpus_names_its_own_files(tmp_path, capsys):
    # not the temporary folder it is linked from while loading
    root, judge = outside_judge(tmp_path, 3, "{oops\n")
    code, _, err = run(capsys, "judge", root, judge, "--n-boot", "5")
    assert code == 1
    assert err.startswith(f"hotelcheckspan judge: {judge / 'annotations.jsonl'}:4: <json>: malformed JSON")
    assert "added-judge" not in err


def test_judge_sharing_no_example_with_a_human_set_is_scored_where_it_can_be(tmp_path, capsys):
    root, judge = outside_judge(tmp_path, 3)
    stage2 = {tuple(r[k] for k in KEY) for r in lines(root / "annotations/human/stage2/annotations.jsonl")}
    assert not {tuple(r[k] for k in KEY) for r in lines(judge / "annotations.jsonl")} & stage2
    code, out, err = run(capsys, "judge", root, judge, "--n-boot", "5", "--json")
    assert code == 1 and "shares no example" in err
    result = json.loads(out)  # strict JSON: undefined values are null
    assert result["rank"]["bacc"] is None and result["bacc"]["estimate"] is None
    # no span F1 either (not 0: a pair sharing no example is not compared), so no rank by it
    assert result["rank"]["soft"] is None and result["rank"]["hard"] is None
    assert all(row["pairs"] == 0 and row["f1"] is None for row in result["table6"])
    assert [row["campaign"] for row in result["table3"]] == ["acme"]  # its row of Table 3 is there
    code, out, err = run(capsys, "judge", root, judge, "--n-boot", "5")
    # the result is printed, and the exit code says it is undefined for the reason asked, on one line
    assert code == 1 and "unranked by balanced accuracy" in out and "(any error): undefined (" in out
    assert "unranked by span F1, soft" in out and "shares no example with the human annotators" in out
    assert err.strip().splitlines()[-1] == (
        "hotelcheckspan judge: acme shares no example with the human annotators it is compared with (the stage-2 "
        "examples (Tables 4-6)): its span F1, balanced accuracy and rank are undefined"
    )


def test_a_bug_of_ours_is_one_line_not_a_traceback(tmp_path, capsys, monkeypatch):
    # the last line of defence: whatever escapes every clear error still ends in one line, exit 1
    root = small_copy(tmp_path)

    def broken(*_, **__):
        raise IndexError("invalid index to scalar variable.")

    monkeypatch.setattr(hotelcheckspan.api, "span_gamma", broken)
    code, out, err = run(capsys, "gamma", root / HUMAN, root / MODEL)
    assert code == 1 and out == ""
    assert err.startswith("hotelcheckspan gamma: internal error (IndexError at test_damaged_inputs.py:")
    assert len(err.strip().splitlines()) == 1


def test_a_bom_and_a_huge_number_are_errors_in_words_a_user_can_act_on(tmp_path, capsys):
    # factgenie refuses both too (json.loads); the message says what to do, not Python's advice
    root = small_copy(tmp_path)
    model = root / MODEL
    rows = model.read_text(encoding="utf-8").splitlines(keepends=True)
    rows[2] = rows[2].replace('"example_idx": ', '"example_idx": ' + "9" * 5000, 1)
    model.write_bytes(b"\xef\xbb\xbf" + "".join(rows).encode())
    code, out, _ = run(capsys, "validate", root)
    assert code == 1
    assert f"{MODEL}:1: error: <json>: malformed JSON: starts with a byte-order mark (BOM)" in out
    assert f"{MODEL}:3: error: <json>: malformed JSON: a number with more than 4300 digits" in out
    assert "utf-8-sig" not in out and "set_int_max_str_digits" not in out


def test_unreadable_texts_are_one_error_not_a_warning_per_record(tmp_path, capsys):
    root = small_copy(tmp_path)
    (root / "inputs.jsonl").unlink()
    (root / "inputs.jsonl").mkdir()
    code, out, err = run(capsys, "validate", root)
    assert code == 1 and out.strip() == "inputs.jsonl: error: is a folder, not a regular file"
    assert err.strip() == "1 error, 0 warnings"
    ann = hotelcheckspan.read_annotations(root / MODEL)
    assert [str(p) for p in ann.problems] == [f"{root / 'inputs.jsonl'}: is a folder, not a regular file"]


def test_judge_needs_at_least_one_bootstrap_replicate(tmp_path, capsys):
    root = small_copy(tmp_path)
    for n in ("0", "-3"):
        code, out, err = run(capsys, "judge", root, "gpt-4o", "--n-boot", n)
        assert code == 1 and out == ""
        assert err.strip() == f"hotelcheckspan judge: --n-boot must be a positive whole number, not {n}"
    try:
        hotelcheckspan.evaluate_judge(root, "gpt-4o", n_boot=0)
    except ValueError as err:
        assert "n_boot must be a positive whole number" in str(err)
    else:
        raise AssertionError("n_boot=0 accepted")


def test_gamma_and_pearson_name_an_absent_group_as_written(tmp_path, capsys):
    # as f1 does: Z, not its number 25
    root = small_copy(tmp_path)
    for command in ("gamma", "pearson"):
        for group, named in (("Z", "Z"), ("z", "z"), ("5", "5")):
            code, out, err = run(capsys, command, root / HUMAN, root / MODEL, "--ref-group", group)
            assert code == 1 and out == ""
            assert err.strip().endswith(f"has no annotator group {named} (its groups: A, B)"), err
