"""Loading factgenie exports: the bundled corpus, other layouts, and every kind of bad input."""

import json
from pathlib import Path

import pytest
import yaml

from hotelcheckspan.corpora import reader as C
from hotelcheckspan import paths

KEY = {"dataset": "d", "split": "short", "setup_id": "s"}
CONFIG = {"annotation_span_categories": [{"name": n} for n in C.CATEGORIES], "annotation_overlap_allowed": False}


def write_corpus(root: Path, records: list, inputs=None, config=CONFIG, raw_lines=()) -> Path:
    inputs = inputs if inputs is not None else [KEY | {"example_idx": i, "summary": "A quiet hotel near the beach."}
                                                  for i in range(3)]
    (root / "inputs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in inputs))
    camp = root / "annotations" / "human" / "stage1"
    camp.mkdir(parents=True)
    (camp / "config.yaml").write_text(yaml.safe_dump(config))
    lines = [json.dumps(r) for r in records] + list(raw_lines)
    (camp / "annotations.jsonl").write_text("".join(line + "\n" for line in lines))
    return root


def rec(idx=0, spans=(), annotator="a1", group=0, impression="5", **extra):
    r = KEY | {"example_idx": idx, "annotator_id": annotator, "annotator_group": group,
               "annotations": [{"type": t, "start": s, "text": x} for t, s, x in spans],
               "flags": [{"label": "There were no errors in the summary", "value": not spans}],
               "options": [{"type": "slider", "label": "Overall impression", "value": impression}]}
    return r | extra


def test_bundled_corpus_has_the_papers_shape():
    c = C.load()
    assert c.simulated
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
    assert set(c.spans["type"]) == set(C.CATEGORIES)
    summaries = c.examples.set_index(C.KEY)["summary"]
    for row in c.spans.sample(50, random_state=0).itertuples():
        summary = summaries.loc[(row.dataset, row.split, row.setup_id, row.example_idx)]
        assert summary[row.start:row.end] == row.text


def test_clean_small_corpus_loads(tmp_path):
    root = write_corpus(tmp_path, [rec(0, [(2, 2, "quiet")]), rec(1), rec(0, annotator="a2", group=1)])
    c = C.load(root)
    assert not c.simulated
    assert len(c.records) == 3 and len(c.spans) == 1
    s = c.spans.iloc[0]
    assert (s["type"], s["start"], s["end"], s["words"]) == ("Incorrect", 2, 7, 1)
    assert c.records["impression"].tolist() == [5, 5, 5]


def test_every_problem_is_reported_at_once_with_file_line_and_field(tmp_path):
    records = [
        rec(0, [(3, 2, "quiet")]),                           # 1: type outside the categories
        rec(0, [(1, 1, "quiet")], annotator="a2"),           # 2: text not at start
        rec(1, [(1, 2, "quiet hotel"), (0, 8, "hotel near")], annotator="a3"),  # 3: overlap
        rec(1, impression="9"),                              # 4: impression outside 1-7
        rec(1),                                              # 5: duplicate of line 4's annotator/example
        rec(7, annotator="a9"),                              # 6: unknown example
        {k: v for k, v in rec(2, annotator="a5").items() if k != "annotations"},  # 7: missing field
        rec(2, [(0, "x", "A")], annotator="a6"),             # 8: start not an integer
    ]
    root = write_corpus(tmp_path, records, raw_lines=['{"dataset": "d", "split": '])  # 9: malformed JSON
    problems = C.validate(root)
    got = {(p.line, p.field) for p in problems}
    rel = "annotations/human/stage1/annotations.jsonl"
    assert all(p.file == rel for p in problems)
    assert (1, "annotations.0.type") in got
    assert (2, "annotations.0.text") in got
    assert (3, "annotations.1.start") in got
    assert (4, "options.0.value") in got
    assert (5, "annotator_id") in got
    assert (6, "example_idx") in got
    assert (7, "annotations") in got
    assert (8, "annotations.0.start") in got
    assert (9, "<json>") in got
    with pytest.raises(C.CorpusError) as err:
        C.load(root)
    assert len(err.value.problems) == len(problems)
    assert f"{rel}:4: options.0.value: impression 9 outside 1-7" in str(err.value)


def test_lenient_mode_skips_bad_spans_and_says_which(tmp_path):
    root = write_corpus(tmp_path, [rec(0, [(2, 2, "quiet"), (1, 20, "nowhere")])])
    with pytest.raises(C.CorpusError):
        C.load(root)
    c = C.load(root, lenient=True)
    assert len(c.spans) == 1 and c.records["n_spans"].tolist() == [1]
    assert [(p.line, p.field) for p in c.skipped] == [(1, "annotations.1.text")]


def test_bad_inputs_file_and_missing_config_are_reported(tmp_path):
    inputs = [KEY | {"example_idx": 0, "summary": "x"}, KEY | {"example_idx": 0, "summary": "y"}, KEY | {"example_idx": 1}]
    root = write_corpus(tmp_path, [rec(0)], inputs=inputs, config={"annotation_overlap_allowed": False})
    got = {(p.file, p.line, p.field) for p in C.validate(root)}
    assert ("inputs.jsonl", 2, "example_idx") in got
    assert ("inputs.jsonl", 3, "summary") in got
    assert ("annotations/human/stage1/config.yaml", 0, "annotation_span_categories") in got


def test_reads_exports_without_annotator_id_options_or_flags(tmp_path):
    """The public 'LLMs as span annotators' corpus carries only the key, group and annotations."""
    minimal = [KEY | {"example_idx": i, "annotator_group": g, "annotations": [{"type": 1, "start": 2, "text": "quiet"}]}
               for i in range(2) for g in (0, 1)]
    c = C.load(write_corpus(tmp_path, minimal))
    assert len(c.records) == 4 and len(c.spans) == 4
    assert c.records["impression"].isna().all() and c.records["no_errors"].isna().all()
    assert c.records["annotator_id"].nunique() == 2  # one pseudo-annotator per group


def test_reads_factgenie_campaign_folders(tmp_path):
    (tmp_path / "inputs.jsonl").write_text(json.dumps(KEY | {"example_idx": 0, "summary": "A quiet hotel."}) + "\n")
    camp = tmp_path / "campaigns" / "llm-eval-1"
    (camp / "files").mkdir(parents=True)
    (camp / "metadata.json").write_text(json.dumps({"id": "llm-eval-1", "mode": "llm_eval", "config": CONFIG}))
    line = KEY | {"example_idx": 0, "metadata": {"annotator_id": "gpt", "annotator_group": 0},
                  "annotations": [{"type": 0, "start": 2, "text": "quiet", "reason": "unsupported"}]}
    (camp / "files" / "out.jsonl").write_text(json.dumps(line) + "\n")
    c = C.load(tmp_path)
    assert c.records["kind"].tolist() == ["model"] and c.records["annotator_id"].tolist() == ["gpt"]
    assert c.spans["reason"].tolist() == ["unsupported"]


def test_data_folder_comes_from_one_environment_variable(tmp_path, monkeypatch):
    monkeypatch.delenv(paths.DATA_ENV, raising=False)
    assert paths.corpus_dir() == paths.BUNDLED_CORPUS
    monkeypatch.setenv(paths.DATA_ENV, str(tmp_path))
    assert paths.corpus_dir() == tmp_path.resolve()
    assert not paths.is_bundled()


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no corpus folder"):
        C.load(tmp_path / "nope")
