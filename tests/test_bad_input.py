"""Every class of broken input ends in a clear error (exit 1, file and line, no traceback, no
hang, nothing dropped silently); quirks of real exports are warnings. Damaged corpora are built
from a copy of the bundled one; the CLI runs in process."""

import errno
import json
import os
import shutil
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml

from hotelcheckspan import cli, paths
from hotelcheckspan import corpora as C
from hotelcheckspan.simulation import standin

STAGE1 = Path("annotations/human/stage1")
STAGE2 = Path("annotations/human/stage2")
RECORDS_PER_FILE = 12


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    """The bundled corpus with its first few records per campaign (every campaign, every file) and
    the texts of the examples those records annotate."""
    root = tmp_path_factory.mktemp("template") / "corpus"
    shutil.copytree(paths.BUNDLED_CORPUS, root)
    used = set()
    for f in root.glob("annotations/*/*/annotations.jsonl"):
        f.write_text(
            "".join(f.read_text(encoding="utf-8").splitlines(keepends=True)[:RECORDS_PER_FILE]), encoding="utf-8"
        )
        used |= {tuple(r[k] for k in C.KEY) for r in lines(f)}
    write_lines(root / "inputs.jsonl", [r for r in lines(root / "inputs.jsonl") if tuple(r[k] for k in C.KEY) in used])
    return root


@pytest.fixture
def corpus(template, tmp_path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(template, root, symlinks=True)
    return root


def run(capsys, *args) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def validate_fails(capsys, root, *expected) -> str:
    """``validate`` exits 1 and prints every expected fragment; load raises the same errors."""
    code, out, err = run(capsys, "validate", root)
    assert code == 1, out + err
    for fragment in expected:
        assert fragment in out, f"{fragment!r} not in:\n{out}"
    with pytest.raises(C.CorpusError):
        C.load(root)
    return out


@contextmanager
def no_hang(seconds=20):
    def fail(*_):
        raise AssertionError(f"hung for {seconds} s")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def edit_config(root: Path, campaign: Path, **changes) -> None:
    path = root / campaign / "config.yaml"
    config = yaml.safe_load(path.read_text())
    config.update(changes)
    path.write_text(yaml.safe_dump(config, sort_keys=False))


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_the_trimmed_copy_is_clean(capsys, corpus):
    code, out, _ = run(capsys, "validate", corpus)
    assert code == 0 and out.startswith(f"ok: {len(lines(corpus / 'inputs.jsonl'))} examples")
    assert len(lines(corpus / "inputs.jsonl")) >= RECORDS_PER_FILE


# --- unreadable files -------------------------------------------------------------------------


def test_non_utf8_bytes(capsys, corpus):
    path = corpus / STAGE1 / "annotations.jsonl"
    data = path.read_bytes().split(b"\n")
    data[2] = data[2].replace(b'"annotations"', b'"annot\xe9ations"', 1)
    data[4] = b"\xff\xfe" + data[4]
    path.write_bytes(b"\n".join(data))
    validate_fails(
        capsys,
        corpus,
        f"{STAGE1}/annotations.jsonl:3: error: <utf-8>: not UTF-8: byte 0xe9",
        f"{STAGE1}/annotations.jsonl:5: error: <utf-8>: not UTF-8: byte 0xff at column 1",
    )


def test_non_utf8_config(capsys, corpus):
    path = corpus / STAGE2 / "config.yaml"
    path.write_bytes(path.read_bytes().replace(b"Misleading", b"Misl\xe8ading"))
    validate_fails(capsys, corpus, f"{STAGE2}/config.yaml:")


def test_yaml_syntax_error(capsys, corpus):
    path = corpus / STAGE1 / "config.yaml"
    path.write_text(path.read_text() + "annotation_overlap_allowed: [false\nstage: 1\n")
    out = validate_fails(capsys, corpus, f"{STAGE1}/config.yaml:", "<yaml>: malformed YAML")
    assert out.count("error:") == 1


def test_yaml_list_at_top_level(capsys, corpus):
    (corpus / STAGE1 / "config.yaml").write_text("- annotation_span_categories\n- stage\n")
    validate_fails(capsys, corpus, f"{STAGE1}/config.yaml: error: <root>: expected a mapping of settings, got list")


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('{"id": "x", "mode": "llm_eval", "config": ', "<json>: malformed JSON"),
        ('["not", "an", "object"]', "<root>"),
        ('{"id": "x", "mode": "llm_eval"}', "config: missing field"),
        (
            '{"id": "x", "mode": "llm_eval", "config": {"annotation_span_categories": "A, B"}}',
            "config.annotation_span_categories",
        ),
    ],
)
def test_malformed_factgenie_metadata_json(capsys, corpus, text, fragment):
    camp = corpus / "annotations" / "model" / "gpt-4o"
    (camp / "config.yaml").unlink()
    (camp / "metadata.json").write_text(text)
    validate_fails(capsys, corpus, "annotations/model/gpt-4o/metadata.json", fragment)


def test_deep_json_nesting(capsys, corpus):
    path = corpus / STAGE1 / "annotations.jsonl"
    deep = '{"dataset": ' + "[" * 100_000 + "]" * 100_000 + "}"
    path.write_text(path.read_text() + deep + "\n")
    validate_fails(
        capsys,
        corpus,
        f"{STAGE1}/annotations.jsonl:{RECORDS_PER_FILE + 1}: error: <json>: malformed JSON: nested too deeply",
    )


def test_huge_numbers_and_nan_are_errors_not_overflows(capsys, corpus):
    path = corpus / STAGE1 / "annotations.jsonl"
    recs = lines(path)
    recs[0]["annotator_group"] = 10**30
    recs[1]["example_idx"] = -1
    text = "".join(json.dumps(r) + "\n" for r in recs)
    text += text.splitlines()[2].replace('"example_idx": ', '"example_idx": NaN, "x": ', 1) + "\n"
    text += text.splitlines()[3].replace('"example_idx": ', '"example_idx": ' + "9" * 5000 + ', "x": ', 1) + "\n"
    path.write_text(text)
    n = RECORDS_PER_FILE
    validate_fails(
        capsys,
        corpus,
        "annotations.jsonl:1: error: annotator_group:",
        "annotations.jsonl:2: error: example_idx:",
        f"annotations.jsonl:{n + 1}: error: <json>: malformed JSON: NaN is not valid JSON",
        f"annotations.jsonl:{n + 2}: error: <json>",
    )


# --- wrong values ------------------------------------------------------------------------------


def test_non_integer_stage_in_config_and_in_a_record(capsys, corpus):
    edit_config(corpus, STAGE2, stage="two")
    path = corpus / STAGE1 / "annotations.jsonl"
    recs = lines(path)
    recs[3]["metadata"]["stage"] = 1.5
    write_lines(path, recs)
    out = validate_fails(capsys, corpus, f"{STAGE1}/annotations.jsonl:4: error: metadata.stage:")
    line = next(
        i for i, x in enumerate((corpus / STAGE2 / "config.yaml").read_text().splitlines(), 1) if x.startswith("stage:")
    )
    assert f"{STAGE2}/config.yaml:{line}: error: stage: Input should be a valid integer (got 'two')" in out


def test_categories_written_as_a_string(capsys, corpus):
    edit_config(corpus, STAGE1, annotation_span_categories="Not Checkable, Misleading, Incorrect")
    validate_fails(
        capsys, corpus, f"{STAGE1}/config.yaml:1: error: annotation_span_categories: Input should be a valid list"
    )


def test_categories_as_plain_names_or_twice(capsys, corpus):
    edit_config(corpus, STAGE1, annotation_span_categories=["Not Checkable", "Misleading", "Incorrect"])
    edit_config(corpus, STAGE2, annotation_span_categories=[{"name": "A"}, {"name": "A"}])
    validate_fails(capsys, corpus, "annotation_span_categories.0:", "category named twice: ['A']")


def test_false_as_a_string_for_overlap_allowed(capsys, corpus):
    edit_config(corpus, STAGE1, annotation_overlap_allowed="false")
    validate_fails(capsys, corpus, "error: annotation_overlap_allowed: Input should be a valid boolean (got 'false')")


def test_annotator_group_out_of_range(capsys, corpus):
    edit_config(corpus, STAGE1, annotators_per_example=2)
    path = corpus / STAGE1 / "annotations.jsonl"
    recs = lines(path)
    recs[0]["annotator_group"] = 2
    recs[1]["annotator_group"] = -1
    write_lines(path, recs)
    validate_fails(
        capsys,
        corpus,
        f"{STAGE1}/annotations.jsonl:1: error: annotator_group: group 2 outside 0-1",
        f"{STAGE1}/annotations.jsonl:2: error: annotator_group: Input should be greater than or equal to 0",
    )


def test_renamed_category_is_an_error_when_compared_and_counted_in_stats(capsys, corpus):
    config = yaml.safe_load((corpus / STAGE2 / "config.yaml").read_text())
    config["annotation_span_categories"][2]["name"] = "Wrong"
    (corpus / STAGE2 / "config.yaml").write_text(yaml.safe_dump(config))
    code, out, err = run(capsys, "f1", corpus / STAGE1 / "annotations.jsonl", corpus / STAGE2 / "annotations.jsonl")
    assert code == 1
    assert "['Not Checkable', 'Misleading', 'Incorrect'] vs ['Not Checkable', 'Misleading', 'Wrong']" in err
    # stats pools nothing across categories that differ: one line naming both lists and how to choose
    code, out, err = run(capsys, "stats", corpus, "--json")
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert "the categories of stage1 and stage2 differ" in err and "choose campaigns with --campaign" in err
    code, out, err = run(capsys, "stats", corpus, "--campaign", "stage1", "--json")  # every judge kept, as stage1's
    assert code == 0, err
    rows = {r["campaign"]: r for r in json.loads(out)["campaigns_all_examples"]}
    assert "stage2" not in rows and "Wrong" not in rows["stage1"]
    stage1_spans = sum(len(r["annotations"]) for r in lines(corpus / STAGE1 / "annotations.jsonl"))
    assert sum(rows["stage1"][c] for c in ("Not Checkable", "Misleading", "Incorrect")) == stage1_spans


# --- files in the wrong place or of the wrong kind ----------------------------------------------


def test_folder_where_a_file_should_be(capsys, corpus):
    (corpus / STAGE1 / "annotations.jsonl").unlink()
    (corpus / STAGE1 / "annotations.jsonl").mkdir()
    (corpus / STAGE2 / "config.yaml").unlink()
    (corpus / STAGE2 / "config.yaml").mkdir()
    validate_fails(
        capsys,
        corpus,
        f"{STAGE1}/annotations.jsonl: error: is a folder, not a regular file",  # that path, not the config
        f"{STAGE2}/config.yaml: error: is a folder, not a regular file",
    )


def test_inputs_jsonl_is_a_folder(capsys, corpus):
    (corpus / "inputs.jsonl").unlink()
    (corpus / "inputs.jsonl").mkdir()
    validate_fails(capsys, corpus, "inputs.jsonl: error: is a folder, not a regular file")


def test_symlink_loops(capsys, corpus):
    target = corpus / STAGE1 / "annotations.jsonl"
    target.unlink()
    target.symlink_to(target.name)  # points at itself
    (corpus / "annotations" / "human" / "loop").symlink_to("..")  # a folder loop
    with no_hang():
        out = validate_fails(
            capsys,
            corpus,
            f"{STAGE1}/annotations.jsonl: error: cannot read: Too many levels of symbolic links",
            "annotations/human/loop: warning: symlink loop",
        )
    assert out.count("error:") == 1  # the folder loop is skipped with a warning


def test_fifo_in_place_of_annotations_does_not_hang(capsys, corpus):
    path = corpus / STAGE1 / "annotations.jsonl"
    path.unlink()
    os.mkfifo(path)
    with no_hang():
        validate_fails(capsys, corpus, f"{STAGE1}/annotations.jsonl: error: is a FIFO (named pipe), not a regular file")
        code, _, err = run(capsys, "f1", path, corpus / STAGE2 / "annotations.jsonl")
    assert code == 1 and "is a FIFO" in err


def test_missing_config_is_an_error_not_a_dropped_campaign(capsys, corpus):
    (corpus / "annotations" / "model" / "gemma-3" / "config.yaml").unlink()
    validate_fails(
        capsys,
        corpus,
        "annotations/model/gemma-3/annotations.jsonl: error: no config.yaml or "
        "metadata.json in annotations/model/gemma-3/",
    )


@pytest.mark.parametrize(
    "damage, fragment",
    [
        (lambda p: p.unlink(), "no inputs.jsonl and no outputs/ folder"),
        (lambda p: p.write_text(""), "inputs.jsonl: error: is empty"),
        (lambda p: p.write_text("\n\n"), "inputs.jsonl: error: is empty"),
    ],
)
def test_missing_or_empty_inputs_is_an_error(capsys, corpus, damage, fragment):
    damage(corpus / "inputs.jsonl")
    validate_fails(capsys, corpus, fragment)


def test_empty_annotation_file_is_a_campaign_with_no_records(capsys, corpus):
    # a 0-byte (or blank) annotation file is what a config-only folder is: listed with 0 records and
    # a warning, never a refusal of the whole corpus
    (corpus / STAGE2 / "annotations.jsonl").write_text("\n \n")
    code, out, err = run(capsys, "validate", corpus)
    assert code == 0, out + err
    assert f"{STAGE2}/annotations.jsonl: warning: is empty: campaign stage2 is listed with 0 records" in out
    assert run(capsys, "validate", "--strict", corpus)[0] == 1
    loaded = C.load(corpus)
    assert "stage2" in loaded.empty_campaigns() and "stage2" not in loaded.campaigns()
    code, out, err = run(capsys, "campaigns", corpus, "--json")
    assert code == 0, err
    rows = {r["campaign"]: r for r in json.loads(out)["campaigns"]}
    assert rows["stage2"]["records"] == 0 and rows["stage1"]["records"] > 0


def test_missing_or_unreadable_corpus_folder(capsys, tmp_path):
    code, _, err = run(capsys, "validate", tmp_path / "absent")
    assert code == 1
    (tmp_path / "file").write_text("x")
    code, out, _ = run(capsys, "validate", tmp_path / "file")
    assert code == 1 and "is not a folder" in out


# --- the commands ---------------------------------------------------------------------------------


def test_f1_reports_every_problem_of_both_files_at_once(capsys, corpus):
    path = corpus / STAGE1 / "annotations.jsonl"
    recs = lines(path)
    recs[0]["annotations"] = [{"type": 7, "start": 0, "text": "x"}]
    recs[5]["example_idx"] = "five"
    write_lines(path, recs)
    hyp = corpus / STAGE2 / "annotations.jsonl"
    hyp.write_text(hyp.read_text() + "{oops\n")
    code, _, err = run(capsys, "f1", path, hyp)
    assert code == 1
    assert f"{path}:1: annotations.0.type: type 7 outside" in err
    assert f"{path}:6: example_idx:" in err
    assert f"{hyp}:{RECORDS_PER_FILE + 1}: <json>: malformed JSON" in err


def test_warnings_are_counted_on_stderr_and_strict_fails_on_them(capsys, corpus):
    path = corpus / STAGE1 / "annotations.jsonl"
    recs = lines(path)
    recs.append(recs[0])  # the same record twice
    write_lines(path, recs)
    code, out, err = run(capsys, "validate", corpus)
    assert code == 0 and f"{STAGE1}/annotations.jsonl:{len(recs)}: warning: annotator_group:" in out
    assert "0 errors, 1 warning" in err and out.strip().endswith("1 warning")
    assert run(capsys, "validate", "--strict", corpus)[0] == 1
    code, _, err = run(capsys, "stats", corpus)
    assert code == 0 and "1 warning in" in err
    # a file given alone: its warning printed with file, line and field (validate cannot take the file)
    code, out, err = run(capsys, "f1", path, path, "--json")
    assert code == 0 and json.loads(out)["examples"] == RECORDS_PER_FILE
    assert err.splitlines()[0].startswith(f"{path}:{len(recs)}: warning: annotator_group: a second record")
    assert len(C.load(corpus).warnings) == 1


def test_stats_json_is_strict_json(capsys, corpus):
    for camp in ("stage1", "stage2"):  # no human spans: means of nothing are null, not NaN
        path = corpus / "annotations" / "human" / camp / "annotations.jsonl"
        write_lines(path, [r | {"annotations": []} for r in lines(path)])
    code, out, _ = run(capsys, "stats", corpus, "--json")
    assert code == 0

    def reject(name):
        raise AssertionError(f"{name} in stats --json")

    stats = json.loads(out, parse_constant=reject)
    assert stats["overview_human"]["span_words_mean"] is None


def test_a_copy_of_the_standin_keeps_its_simulated_notice(tmp_path, monkeypatch):
    from hotelcheckspan.book import report

    copy = tmp_path / "elsewhere"
    shutil.copytree(paths.BUNDLED_CORPUS, copy)
    monkeypatch.setenv(paths.DATA_ENV, str(copy))
    c = C.load()
    assert c.root == copy.resolve() and c.simulated
    assert "Simulated data" in report.corpus_banner(c).data


# --- standin: atomic, --force replaces, bad seeds ---------------------------------------------------


def fake_generate(calls):
    def generate(out_dir, seed):
        calls.append(Path(out_dir))
        (Path(out_dir) / "annotations").mkdir(parents=True)
        (Path(out_dir) / "inputs.jsonl").write_text(f"seed {seed}\n")
        return Path(out_dir)

    return generate


def test_standin_force_replaces_rather_than_mixes(capsys, tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(standin, "generate", fake_generate(calls))
    out = tmp_path / "c"
    out.mkdir()
    (out / "stale.jsonl").write_text("old")
    code, _, err = run(capsys, "standin", "--out", out)
    assert code == 1 and "not empty" in err and (out / "stale.jsonl").exists()
    code, _, _ = run(capsys, "standin", "--out", out, "--force", "--seed", "3")
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["annotations", "inputs.jsonl"]
    assert (out / "inputs.jsonl").read_text() == "seed 3\n"
    assert calls[0] != out and calls[0].parent == out.parent  # written elsewhere, then moved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c"]  # no temporary folder left


def test_standin_failure_mid_write_leaves_nothing(capsys, tmp_path, monkeypatch):
    def generate(out_dir, seed):
        (Path(out_dir) / "inputs.jsonl").write_text("half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(Path(out_dir) / "annotations.jsonl"))

    monkeypatch.setattr(standin, "generate", generate)
    code, _, err = run(capsys, "standin", "--out", tmp_path / "new")
    assert code == 1 and "No space left on device" in err
    assert list(tmp_path.iterdir()) == []
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "inputs.jsonl").write_text("previous")
    code, _, _ = run(capsys, "standin", "--out", kept, "--force")
    assert code == 1 and (kept / "inputs.jsonl").read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["kept"]


@pytest.mark.parametrize("seed", ["-1", "-5"])
def test_negative_seed_is_a_clean_error(capsys, tmp_path, seed):
    code, _, err = run(capsys, "standin", "--out", tmp_path / "c", "--seed", seed)
    assert code == 1 and "--seed must be a non-negative integer" in err
    assert not (tmp_path / "c").exists()
