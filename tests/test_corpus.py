"""Loading factgenie exports: the bundled corpus, other layouts, and the two severities."""

import json
from pathlib import Path

import pytest
import yaml

from hotelcheckspan import corpora as C
from hotelcheckspan import paths
from hotelcheckspan.categories import CATEGORIES

KEY = {"dataset": "d", "split": "short", "setup_id": "s"}
CONFIG = {"annotation_span_categories": [{"name": n} for n in CATEGORIES], "annotation_overlap_allowed": False}
STAGE1 = "annotations/human/stage1/annotations.jsonl"


def write_corpus(root: Path, records: list, inputs=None, config=CONFIG, raw_lines=()) -> Path:
    inputs = (
        inputs
        if inputs is not None
        else [KEY | {"example_idx": i, "summary": "A quiet hotel near the beach."} for i in range(3)]
    )
    (root / "inputs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in inputs))
    camp = root / "annotations" / "human" / "stage1"
    camp.mkdir(parents=True)
    (camp / "config.yaml").write_text(yaml.safe_dump(config))
    lines = [json.dumps(r) for r in records] + list(raw_lines)
    (camp / "annotations.jsonl").write_text("".join(line + "\n" for line in lines))
    return root


def rec(idx=0, spans=(), annotator="a1", group=0, impression="5", **extra):
    r = KEY | {
        "example_idx": idx,
        "annotator_id": annotator,
        "annotator_group": group,
        "annotations": [{"type": t, "start": s, "text": x} for t, s, x in spans],
        "flags": [{"label": "There were no errors in the summary", "value": not spans}],
        "options": [{"type": "slider", "label": "Overall impression", "value": impression}],
    }
    return r | extra


def found(problems, severity=None):
    return {(p.line, p.field) for p in problems if severity is None or p.severity == severity}


def test_bundled_corpus_has_the_papers_shape(corpus):
    c = corpus
    assert c.simulated and c.warnings == []
    assert c.categories == CATEGORIES
    assert len(c.examples) == 496 and set(c.examples["split"]) == {"short", "long"}
    human = c.records[c.records["kind"] == "human"]
    assert len(human) == 1482
    assert human.groupby("campaign").size().to_dict() == {"stage1": 992, "stage2": 490}
    assert set(human["annotator_group"]) == {0, 1}
    assert c.records[c.records["kind"] == "model"].groupby("campaign").size().eq(496).all()
    assert sorted(c.campaigns("model")) == ["gemma-3", "gpt-4o", "gpt-4o-ls", "o3-mini", "o3-mini-ls"]
    assert human["impression"].between(1, 7).all() and human["no_errors"].notna().all()
    assert (human["no_errors"] == (human["n_spans"] == 0)).all()
    assert list(c.spans.columns) == C.SPAN_COLUMNS and list(c.records.columns) == C.RECORD_COLUMNS
    assert list(c.examples.columns) == C.EXAMPLE_COLUMNS
    assert set(c.spans["type"]) == set(CATEGORIES)
    summaries = c.examples.set_index(C.KEY)["summary"]
    for row in c.spans.sample(50, random_state=0).itertuples():
        summary = summaries.loc[(row.dataset, row.split, row.setup_id, row.example_idx)]
        assert summary[row.start : row.end] == row.text


def test_clean_small_corpus_loads(tmp_path):
    root = write_corpus(tmp_path, [rec(0, [(2, 2, "quiet")]), rec(1), rec(0, annotator="a2", group=1)])
    c = C.load(root)
    assert not c.simulated and c.warnings == []
    assert len(c.records) == 3 and len(c.spans) == 1
    s = c.spans.iloc[0]
    assert (s["type"], s["start"], s["end"], s["words"]) == ("Incorrect", 2, 7, 1)
    assert c.records["impression"].tolist() == [5, 5, 5]


def test_simulated_is_read_from_the_configs_not_the_path(tmp_path):
    (tmp_path / "sim").mkdir()
    (tmp_path / "real").mkdir()
    assert C.load(write_corpus(tmp_path / "sim", [rec(0)], config=CONFIG | {"simulated": True})).simulated
    assert not C.load(write_corpus(tmp_path / "real", [rec(0)])).simulated


def test_every_error_is_reported_at_once_with_file_line_and_field(tmp_path):
    records = [
        rec(0, [(3, 2, "quiet")]),  # 1: type outside the categories
        rec(0, [(1, 1, "quiet")], annotator="a2", group=1),  # 2: text one character off (a warning)
        rec(1, [(1, 20, "beach. And more")], annotator="a3"),  # 3: past the end of the text (a warning)
        rec(1, impression="9", group=1),  # 4: impression outside 1-7
        rec(7, annotator="a9", group=2),  # 5: an example without text (a warning)
        {k: v for k, v in rec(2, annotator="a5").items() if k != "annotations"},  # 6: missing field
        rec(2, [(0, "x", "A")], annotator="a6", group=1),  # 7: start not an integer
        rec(2, [(0, -1, "A")], annotator="a7", group=2),  # 8: negative start
    ]
    root = write_corpus(tmp_path, records, raw_lines=['{"dataset": "d", "split": '])  # 9: malformed JSON
    problems = C.validate(root)
    assert all(p.file == STAGE1 for p in problems)
    assert {(p.line, p.field, p.kind) for p in problems if not p.is_error} == {
        (2, "annotations.0.start", "shifted"),
        (3, "annotations.0.start", "past-end"),
        (5, "example_idx", "no-text"),
    }
    problems = [p for p in problems if p.is_error]
    assert found(problems) == {
        (1, "annotations.0.type"),
        (4, "options.0.value"),
        (6, "annotations"),
        (7, "annotations.0.start"),
        (8, "annotations.0.start"),
        (9, "<json>"),
    }
    with pytest.raises(C.CorpusError) as err:
        C.load(root)
    assert len(err.value.problems) == len(problems)
    assert f"{STAGE1}:4: options.0.value: impression 9 outside 1-7" in str(err.value)


def test_quirks_of_real_exports_are_warnings_and_kept_as_factgenie_keeps_them(tmp_path):
    records = [
        rec(0, [(1, 2, "quiet hotel"), (0, 8, "hotel near")]),  # 1: overlap, config forbids it
        rec(1, [(2, 2, "quiet"), (2, 2, "quiet")], annotator="a2"),  # 2: the same span twice
        rec(1, [(2, 2, "quiet"), (1, 2, "quiet")], annotator="a3", group=1),  # 3: same text, two types
        rec(0, annotator="a4"),  # 4: group 0 again on example 0
    ]
    root = write_corpus(tmp_path, records)
    problems = C.validate(root)
    assert found(problems, "error") == set()
    assert found(problems, "warning") == {
        (1, "annotations.1.start"),
        (2, "annotations.1"),
        (3, "annotations.1.start"),
        (4, "annotator_group"),
    }
    assert "with another type" in next(p.message for p in problems if p.line == 3)
    c = C.load(root)
    assert len(c.warnings) == 4 and all(w.severity == "warning" for w in c.warnings)
    assert len(c.records) == 4 and len(c.spans) == 6  # nothing dropped
    assert c.records["n_spans"].tolist() == [2, 2, 2, 0]


def test_overlaps_are_fine_where_the_config_allows_them(tmp_path):
    root = write_corpus(
        tmp_path,
        [rec(0, [(1, 2, "quiet hotel"), (0, 8, "hotel near")])],
        config=CONFIG | {"annotation_overlap_allowed": True},
    )
    assert C.validate(root) == []


def test_a_missing_overlap_setting_forbids_overlaps_as_in_factgenie(tmp_path):
    config = {"annotation_span_categories": CONFIG["annotation_span_categories"]}
    root = write_corpus(tmp_path, [rec(0, [(1, 2, "quiet hotel"), (0, 8, "hotel near")])], config=config)
    assert [p.severity for p in C.validate(root)] == ["warning"]


def test_problems_are_tagged_and_one_line(tmp_path):
    p = C.Problem("a.jsonl", 3, "annotations.0.type", "bad", "warning")
    assert str(p) == "a.jsonl:3: annotations.0.type: bad"
    assert p.tagged() == "a.jsonl:3: warning: annotations.0.type: bad"
    assert str(C.Problem("folder/x", 0, "", "is a FIFO")) == "folder/x: is a FIFO"


def test_bad_inputs_file_and_missing_categories_are_reported(tmp_path):
    inputs = [
        KEY | {"example_idx": 0, "summary": "x"},
        KEY | {"example_idx": 0, "summary": "y"},
        KEY | {"example_idx": 1},
    ]
    root = write_corpus(tmp_path, [rec(0)], inputs=inputs, config={"annotation_overlap_allowed": False})
    got = {(p.file, p.line, p.field) for p in C.validate(root)}
    assert ("inputs.jsonl", 2, "example_idx") in got
    assert ("inputs.jsonl", 3, "summary") in got
    assert ("annotations/human/stage1/config.yaml", 0, "annotation_span_categories") in got


def test_reads_exports_without_annotator_id_options_or_flags(tmp_path):
    """The public 'LLMs as span annotators' corpus carries only the key, group and annotations."""
    minimal = [
        KEY | {"example_idx": i, "annotator_group": g, "annotations": [{"type": 1, "start": 2, "text": "quiet"}]}
        for i in range(2)
        for g in (0, 1)
    ]
    c = C.load(write_corpus(tmp_path, minimal))
    assert len(c.records) == 4 and len(c.spans) == 4
    assert c.records["impression"].isna().all() and c.records["no_errors"].isna().all()
    assert c.records["annotator_id"].nunique() == 2  # one pseudo-annotator per group


def test_reads_factgenie_campaign_folders(tmp_path):
    (tmp_path / "inputs.jsonl").write_text(json.dumps(KEY | {"example_idx": 0, "summary": "A quiet hotel."}) + "\n")
    camp = tmp_path / "campaigns" / "llm-eval-1"
    (camp / "files").mkdir(parents=True)
    (camp / "metadata.json").write_text(json.dumps({"id": "llm-eval-1", "mode": "llm_eval", "config": CONFIG}))
    line = KEY | {
        "example_idx": 0,
        "metadata": {"annotator_id": "gpt", "annotator_group": 0},
        "annotations": [{"type": 0, "start": 2, "text": "quiet", "reason": "unsupported"}],
    }
    (camp / "files" / "out.jsonl").write_text(json.dumps(line) + "\n")
    c = C.load(tmp_path)
    assert c.records["kind"].tolist() == ["model"] and c.records["annotator_id"].tolist() == ["gpt"]
    assert c.spans["reason"].tolist() == ["unsupported"]


def test_reads_factgenie_outputs_and_inputs_with_slugified_ids(tmp_path):
    """Texts in outputs/ (setup_id 'm1.5'), inputs in inputs/<dataset>/<split>.json, records
    that write the setup_id slugified ('m1-5'), any number of categories."""
    (tmp_path / "outputs" / "sys").mkdir(parents=True)
    (tmp_path / "outputs" / "sys" / "o.jsonl").write_text(
        "".join(
            json.dumps(
                {"dataset": "D", "split": "test", "setup_id": "m1.5", "example_idx": i, "output": f"Text {i} here."}
            )
            + "\n"
            for i in range(2)
        )
    )
    (tmp_path / "inputs" / "D").mkdir(parents=True)
    (tmp_path / "inputs" / "D" / "test.json").write_text(json.dumps({"items": [{"x": 1}, {"x": 2}]}))
    camp = tmp_path / "annotations" / "model" / "llm"
    camp.mkdir(parents=True)
    cats = ["A", "B", "C", "D", "E"]
    (camp / "config.yaml").write_text(yaml.safe_dump({"annotation_span_categories": [{"name": n} for n in cats]}))
    (camp / "annotations.jsonl").write_text(
        json.dumps(
            {
                "dataset": "d",
                "split": "test",
                "setup_id": "m1-5",
                "example_idx": 1,
                "annotator_group": 0,
                "annotations": [{"type": 4, "start": 5, "text": "1 here"}],
            }
        )
        + "\n"
    )
    c = C.load(tmp_path)
    assert c.categories == cats and c.spans["type"].tolist() == ["E"]
    assert c.records[C.KEY].iloc[0].tolist() == ["D", "test", "m1.5", 1]  # spelled as the texts spell it
    assert len(c.examples) == 2 and json.loads(c.examples["description"].iloc[1]) == {"x": 2}


def test_categories_that_differ_between_compared_campaigns_are_named(tmp_path):
    root = write_corpus(tmp_path, [rec(0)])
    other = root / "annotations" / "human" / "stage2"
    other.mkdir()
    renamed = [{"name": n} for n in ["Not Checkable", "Misleading", "Wrong"]]
    (other / "config.yaml").write_text(yaml.safe_dump({"annotation_span_categories": renamed}))
    (other / "annotations.jsonl").write_text(json.dumps(rec(0, [(2, 2, "quiet")])) + "\n")
    c = C.load(root)
    assert c.categories == CATEGORIES + ["Wrong"]
    assert c.categories_of("stage1") == CATEGORIES
    with pytest.raises(C.CategoryMismatch, match=r"stage1 and stage2 differ: \[.*'Incorrect'\] vs \[.*'Wrong'\]"):
        c.categories_of("stage1", "stage2")


def test_data_folder_comes_from_one_environment_variable(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.DATA_ENV, raising=False)
    assert paths.corpus_dir() == paths.BUNDLED_CORPUS
    monkeypatch.setenv(paths.DATA_ENV, str(tmp_path))
    assert paths.corpus_dir() == tmp_path.resolve()


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(C.CorpusError, match="no corpus folder here"):
        C.load(tmp_path / "nope")
