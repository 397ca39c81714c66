"""Validating a metric end to end (analyses.metric_validation, evaluate_metric, the `metric` and
`baselines` commands): the statistics are meta_evaluation's on the right columns, the JSON has
the documented shape, bad scores files are one line each, and the bundled baselines are used only
on the texts they were computed on."""

from __future__ import annotations

import concurrent.futures
import json
import shutil

import numpy as np
import pandas as pd
import pytest
import sweep
from scipy import stats
from strict import strict

import hotelcheckspan
from hotelcheckspan import cli, paths
from hotelcheckspan.analyses import metric_targets
from hotelcheckspan.analyses import metric_validation as mv
from hotelcheckspan.corpora import KEY
from hotelcheckspan.corpora.scores import write_scores
from hotelcheckspan.metrics import baselines, resampling
from hotelcheckspan.metrics import meta_evaluation as me
from hotelcheckspan.plain import plain


def test_a_judges_statistic_is_kendalls_tau_of_its_span_counts_against_the_humans(iaa, iaa_validation):
    targets = metric_targets.human_targets(iaa)
    judge = "zeroshot-o3-mini"
    scores = metric_targets.campaign_scores(iaa, judge)
    both = targets.merge(scores, on=KEY)
    row = iaa_validation.statistics.query("metric == @judge and target == 'errors' and statistic == 'kendall_tau_b'")
    assert row["value"].iloc[0] == pytest.approx(stats.kendalltau(both[judge], both["errors"]).statistic)
    assert row["low"].iloc[0] <= row["value"].iloc[0] <= row["high"].iloc[0]
    assert row["kind"].iloc[0] == "judge" and row["random"].iloc[0] == 0.0


def test_every_metric_shares_one_resample_matrix(iaa, iaa_validation):
    """The statistics equal meta_evaluation's called once on every metric with one weights matrix:
    the one the examples' keys give (resampling.matrix, seed 0)."""
    data = iaa_validation.data
    names = list(iaa_validation.kinds)
    weights = resampling.matrix(data[KEY], 100, 0)
    direct = me.example_level(data[names], data["errors"].astype(float), weights)
    ours = iaa_validation.statistics.query("target == 'errors' and kind != 'human ceiling'")[direct.columns]
    pd.testing.assert_frame_equal(ours.reset_index(drop=True), direct, check_dtype=False)


def test_the_parts_computed_on_two_threads_equal_one_thread(iaa, monkeypatch):
    """evaluate runs its independent parts on two threads: the same frames, bit for bit, as running
    them one after another on one (an executor that runs each part when it is submitted)."""

    class OneThread:
        def __init__(self, max_workers=None):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def submit(self, fn, *args):
            done = concurrent.futures.Future()
            done.set_result(fn(*args))
            return done

    monkeypatch.setattr(mv, "ThreadPoolExecutor", OneThread)
    serial = mv.evaluate(iaa, n_boot=200, n_permutations=200, n_random=50)
    monkeypatch.undo()
    threaded = mv.evaluate(iaa, n_boot=200, n_permutations=200, n_random=50)
    for part in ("statistics", "system", "clusters", "ceiling_texts"):
        pd.testing.assert_frame_equal(getattr(serial, part), getattr(threaded, part), check_exact=True)


def test_a_corpus_without_impressions_has_no_impression_target(iaa, iaa_validation):
    assert "impression" not in iaa_validation.compared["targets"]
    with pytest.raises(ValueError, match="no target 'impression'"):
        mv.evaluate(iaa, targets=["impression"], n_boot=10)


def test_the_ceiling_is_a_held_out_human_on_examples_with_two_or_more(iaa, iaa_validation):
    ceiling = iaa_validation.statistics.query("kind == 'human ceiling'")
    assert set(ceiling["target"]) == {"errors", "error_free", "majority"}
    scores, targets = metric_targets.ceiling_split(iaa)
    row = ceiling.query("target == 'errors' and statistic == 'pearson'").iloc[0]
    assert row["n"] == len(scores)
    assert row["value"] == pytest.approx(stats.pearsonr(scores[mv.CEILING], targets["errors"]).statistic)


def test_json_has_one_object_per_metric_and_target_with_every_statistic(iaa_validation):
    out = strict(json.dumps(plain(iaa_validation.to_json()), allow_nan=False))
    assert out["compared"]["examples"] == 12
    objects = out["metrics"]
    assert {(o["metric"], o["target"]) for o in objects} == set(
        map(tuple, iaa_validation.statistics[["metric", "target"]].drop_duplicates().to_numpy())
    )
    for o in objects:
        assert {"metric", "target", "n", *mv.JSON_STATISTICS} <= set(o)
        for s in mv.JSON_STATISTICS:
            assert set(o[s]) >= {"value", "low", "high"}
        assert "epsilon" in o["acc23"]
        if o["target"] == "majority":  # detection statistics only
            assert o["kendall_tau_b"]["value"] is None
        else:
            assert o["roc_auc"]["value"] is None


def test_clusters_rank_the_metrics_by_the_statistic(iaa_validation):
    cl = iaa_validation.clusters
    assert list(cl["value"]) == sorted(cl["value"], reverse=True)
    assert cl["cluster"].iloc[0] == 1 and cl["cluster"].is_monotonic_increasing


def test_the_metric_command_reads_a_scores_file_and_prints_strict_json(tmp_path, capsys, iaa):
    frame = iaa.examples[KEY].assign(
        perfect=metric_targets.human_targets(iaa)["errors"].to_numpy(), noise=np.arange(12) % 5
    )
    path = write_scores(frame, tmp_path / "scores.csv")
    code = cli.main(["metric", str(paths.REAL_CORPUS), str(path), "--no-judges", "--n-boot", "50", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = strict(out)
    perfect = next(o for o in result["metrics"] if o["metric"] == "perfect" and o["target"] == "errors")
    assert perfect["kendall_tau_b"]["value"] == pytest.approx(1.0) and perfect["n"] == 12
    # lower is better: the same metric negated reads perfectly reversed
    code = cli.main(
        ["metric", str(paths.REAL_CORPUS), str(path), "--no-judges", "--n-boot", "20", "--lower-is-better", "perfect"]
    )
    out, _ = capsys.readouterr()
    assert code == 0 and "-1.000" in out


def test_a_damaged_scores_file_is_every_problem_at_once_exit_1(tmp_path, capsys):
    bad = tmp_path / "scores.csv"
    bad.write_text(
        "dataset,split,setup_id,example_idx,m\n"
        "d2t-football,iaa,gpt4o,0,0.5\n"
        "d2t-football,iaa,gpt4o,0,0.7\n"  # duplicate key
        "d2t-football,iaa,gpt4o,x,0.1\n"  # example_idx not an integer
        "d2t-football,iaa,gemma2,0,high\n"  # not a number
    )
    code = cli.main(["metric", str(paths.REAL_CORPUS), str(bad)])
    _, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    for line in (":3:", ":4:", ":5:"):
        assert f"{bad}{line}" in err


def test_the_baselines_command_writes_a_file_the_metric_command_reads(tmp_path, capsys):
    out = tmp_path / "baselines.csv"
    assert cli.main(["baselines", str(paths.REAL_CORPUS), "-o", str(out), "--only", "length"]) == 0
    capsys.readouterr()
    written = pd.read_csv(out)
    assert list(written.columns) == [*KEY, "length"] and len(written) == 12
    assert cli.main(["metric", str(paths.REAL_CORPUS), str(out), "--no-judges", "--n-boot", "20", "--json"]) == 0
    assert {o["metric"] for o in strict(capsys.readouterr().out)["metrics"]} == {"length", mv.CEILING}


def test_bundled_baselines_are_used_only_on_the_texts_they_were_computed_on(tmp_path):
    real = hotelcheckspan.load(paths.REAL_TEST_CORPUS)
    frame, source = mv.bundled_baselines(real)
    assert source.startswith("bundled data/baselines/")
    assert set(frame.columns) - set(KEY) == set(baselines.NAMES)
    # recomputing the cheap ones gives the bundled values (the embedding ones: the slow tier)
    cheap = baselines.baselines(real, mv.CHEAP_BASELINES)
    pd.testing.assert_frame_equal(frame[cheap.columns], cheap, check_exact=False, rtol=1e-12)
    copy = tmp_path / paths.REAL_TEST_CORPUS.name
    shutil.copytree(paths.REAL_TEST_CORPUS, copy)
    out = copy / "outputs/d2t-eval/gpt4o/d2t-football-gpt4o-test.jsonl"
    out.write_text(out.read_text().replace("Brusque", "Brusk", 1))
    _, source = mv.bundled_baselines(hotelcheckspan.load(copy))
    assert source.startswith("computed now")


@pytest.mark.slow
@pytest.mark.parametrize("root", [paths.BUNDLED_CORPUS, paths.REAL_TEST_CORPUS], ids=lambda p: p.name)
def test_the_bundled_embedding_baselines_are_what_the_package_computes(root, tmp_path):
    """A sample of 12 texts recomputed from scratch (an empty cache; every text with the full
    sweep, tests/sweep.py): the committed MiniLM and BERTScore columns are the package's, to
    float32 rounding."""
    corpus = hotelcheckspan.load(root)
    bundled, _ = mv.bundled_baselines(corpus)
    chosen = corpus.examples.index if sweep.FULL else corpus.examples.sample(12, random_state=0).index
    small = type(corpus)(corpus.root, corpus.examples.loc[chosen].reset_index(drop=True), corpus.records, corpus.spans)
    fresh = baselines.baselines(
        small, ["minilm_support", "minilm_support_min", "bertscore_precision"], cache_dir=tmp_path
    )
    mine = small.examples[KEY].merge(bundled, on=KEY)[fresh.columns]
    pd.testing.assert_frame_equal(mine, fresh, check_exact=False, atol=1e-4)
