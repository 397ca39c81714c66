"""The public API a user calls: load, read_annotations and span_f1, matching the CLI."""

import inspect
import json

import pytest

import hotelcheckspan
from hotelcheckspan import cli, paths
from hotelcheckspan.corpora import CategoryMismatch, CorpusError

STAGE1 = paths.BUNDLED_CORPUS / "annotations/human/stage1/annotations.jsonl"
GPT4O = paths.BUNDLED_CORPUS / "annotations/model/gpt-4o/annotations.jsonl"


@pytest.fixture(scope="module")
def read():
    """The two files as read_annotations reads them, read once (read-only)."""
    return {STAGE1: hotelcheckspan.read_annotations(STAGE1), GPT4O: hotelcheckspan.read_annotations(GPT4O)}


def test_the_api_is_exported():
    assert {"load", "read_annotations", "span_f1"} <= set(hotelcheckspan.__all__)
    params = inspect.signature(hotelcheckspan.span_f1).parameters
    positional = [p for p in params.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert [p.name for p in positional] == ["ref", "hyp"]  # every option is a keyword
    assert {"ref_group", "hyp_group", "match", "convention"} <= set(params)


def test_load_defaults_to_the_active_corpus():
    c = hotelcheckspan.load()
    assert c.root == paths.corpus_dir() and len(c.records) > 0


def test_read_annotations_gives_records_spans_categories_problems(read):
    ann = read[STAGE1]
    assert ann.campaign == "stage1" and ann.kind == "human"
    assert ann.categories == ["Not Checkable", "Misleading", "Incorrect"]
    assert ann.problems == [] and len(ann.records) > 0
    assert set(ann.spans["type"]) <= set(ann.categories)
    assert ann.records["n_spans"].sum() == len(ann.spans)


@pytest.mark.parametrize(
    "extra", [[], ["--match", "soft"], ["--ref-group", "A", "--hyp-group", "B"], ["--convention", "all", "--by-type"]]
)
def test_span_f1_returns_what_f1_json_prints(capsys, read, extra):
    hyp = STAGE1 if "--hyp-group" in extra else GPT4O
    assert cli.main(["f1", str(STAGE1), str(hyp), "--json", *extra]) == 0
    printed = json.loads(capsys.readouterr().out)
    opts = dict(zip(extra[::2], extra[1::2])) if "--by-type" not in extra else {"--convention": "all"}
    result = hotelcheckspan.span_f1(
        read[STAGE1],
        read[hyp],
        ref_group=opts.get("--ref-group"),
        hyp_group=opts.get("--hyp-group"),
        match=opts.get("--match", "hard"),
        convention=opts.get("--convention", "factgenie"),
        by_type="--by-type" in extra,
    )
    settings = printed.pop("settings")  # the JSON records what it ran with; the rest is the API's result
    assert result == printed
    assert {"precision", "recall", "f1", "ref_count", "hyp_count", "examples"} <= set(result)
    want = opts.get("--convention", "factgenie")
    assert (settings["match"], settings["metric"]) == (opts.get("--match", "hard"), "char")
    assert settings["convention"] == {"factgenie": "both", "all": "either"}[want]
    assert settings["version"] and settings["command"] == "f1"


def test_span_f1_accepts_paths_and_swaps_precision_and_recall():
    ab = hotelcheckspan.span_f1(STAGE1, STAGE1, ref_group="A", hyp_group=1)
    ba = hotelcheckspan.span_f1(STAGE1, STAGE1, ref_group=1, hyp_group="A")
    assert ab["precision"] == pytest.approx(ba["recall"]) and ab["ref_count"] == ba["hyp_count"]


def test_span_f1_passes_further_options_to_the_metric(read):
    soft = hotelcheckspan.span_f1(read[STAGE1], read[GPT4O], match="soft", by_type=True, per_category="consistent")
    default = hotelcheckspan.span_f1(read[STAGE1], read[GPT4O], match="soft", by_type=True)
    assert soft["f1"] == default["f1"] and soft["by_type"] != default["by_type"]
    with pytest.raises(TypeError):
        hotelcheckspan.span_f1(read[STAGE1], read[GPT4O], no_such_option=1)


def test_span_f1_refuses_broken_files_and_different_categories(tmp_path):
    camp = tmp_path / "a"
    camp.mkdir()
    (camp / "config.yaml").write_text("annotation_span_categories:\n- name: X\n")
    (camp / "annotations.jsonl").write_text('{"dataset": "d"}\n')
    ann = hotelcheckspan.read_annotations(camp / "annotations.jsonl")
    assert [p.field for p in ann.errors] == ["split", "setup_id", "example_idx", "annotations"]
    with pytest.raises(CorpusError, match="annotations.jsonl:1: split: missing field"):
        hotelcheckspan.span_f1(ann, GPT4O)
    (camp / "annotations.jsonl").write_text(
        '{"dataset": "hotelcheckspan", "split": "short", "setup_id": "x", "example_idx": 0, "annotations": []}\n'
    )
    with pytest.raises(CategoryMismatch, match=r"\['X'\] vs \['Not Checkable', 'Misleading', 'Incorrect'\]"):
        hotelcheckspan.span_f1(camp / "annotations.jsonl", GPT4O)


def test_span_f1_encodes_a_file_once_and_gives_the_frame_path_values(read):
    """Repeated calls reuse the encoding kept on the Annotations object; the values equal the
    frame-in, frame-out metric on the slugified frames, for every pair of groups and modes."""
    import pandas as pd

    from hotelcheckspan.corpora import KEY, slug_frame
    from hotelcheckspan.metrics import span_f1 as metric

    ann, gpt = read[STAGE1], read[GPT4O]
    for g in (0, 1, None):
        rec = slug_frame(ann.records if g is None else ann.records[ann.records["annotator_group"] == g])
        spans = slug_frame(ann.spans if g is None else ann.spans[ann.spans["annotator_group"] == g])
        ex = rec[KEY].drop_duplicates().merge(slug_frame(gpt.records)[KEY].drop_duplicates(), on=KEY)
        for match in ("hard", "soft"):
            for metric_name in metric.METRICS:
                want = metric.span_f1(
                    spans, slug_frame(gpt.spans), ex, match=match, metric=metric_name, categories=ann.categories,
                    by_type=True,
                )  # fmt: skip
                got = hotelcheckspan.span_f1(ann, gpt, ref_group=g, match=match, metric=metric_name, by_type=True)
                assert got["examples"] == len(ex)
                for row in want.itertuples():
                    mine = got if row.category == "all" else got["by_type"][row.category]
                    assert mine["f1"] == pytest.approx(row.f1, abs=1e-12) and mine["ref_count"] == row.ref_count
    encoded = ann.__dict__["_encoded"]
    hotelcheckspan.span_f1(ann, gpt)
    assert ann.__dict__["_encoded"] is encoded  # kept, not rebuilt
    changed = hotelcheckspan.read_annotations(STAGE1)
    hotelcheckspan.span_f1(changed, gpt)
    changed.spans = pd.concat([changed.spans, changed.spans], ignore_index=True)  # a replaced frame is re-encoded
    doubled = hotelcheckspan.span_f1(changed, gpt)
    assert doubled["ref_count"] == 2 * hotelcheckspan.span_f1(ann, gpt)["ref_count"]


def test_span_f1_matches_two_files_on_their_shared_slugified_keys():
    """Each file's example keys are its own (nothing is kept between files): two files sharing
    some of their examples, one spelling the dataset in capitals, are compared on the shared
    examples as factgenie matches them, after slugifying, in either order."""
    from hotelcheckspan.corpora import KEY, slug_frame
    from hotelcheckspan.metrics import span_f1 as metric

    ref, hyp = hotelcheckspan.read_annotations(STAGE1), hotelcheckspan.read_annotations(GPT4O)
    idx = sorted(ref.records["example_idx"].unique())
    for ann, keep in ((ref, idx[: 2 * len(idx) // 3]), (hyp, idx[len(idx) // 3 :])):
        ann.records = ann.records[ann.records["example_idx"].isin(keep)]
        ann.spans = ann.spans[ann.spans["example_idx"].isin(keep)]
    hyp.records = hyp.records.assign(dataset=hyp.records["dataset"].str.upper())
    hyp.spans = hyp.spans.assign(dataset=hyp.spans["dataset"].str.upper())
    assert not set(hyp.records["dataset"]) & set(ref.records["dataset"])
    shared = slug_frame(ref.records)[KEY].drop_duplicates().merge(slug_frame(hyp.records)[KEY].drop_duplicates())
    want = metric.span_f1(slug_frame(ref.spans), slug_frame(hyp.spans), shared, categories=ref.categories).iloc[0]
    fewest = min(len(a.records[KEY].drop_duplicates()) for a in (ref, hyp))
    for a, b, ref_count in ((ref, hyp, want.ref_count), (hyp, ref, want.hyp_count)):
        got = hotelcheckspan.span_f1(a, b)
        assert 0 < got["examples"] == len(shared) < fewest
        assert got["f1"] == pytest.approx(want.f1, abs=1e-12) and got["ref_count"] == ref_count
