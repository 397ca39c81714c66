"""Chapter 11's readings after review: a baseline is "below the judges" only where its
significance cluster is below every judge's; a baseline "detects better" than the weakest judge
only where the paired difference's interval is above zero; the human ceiling is read against the
metrics scored like for like (its texts, its target); the detection target's counts; acc23's tie
threshold and the random levels; the tables ordered as the board.

Oracles: the rules written plainly on hand-made frames, scipy's Kendall tau on the ceiling's
texts, and meta_evaluation.difference called on a matrix built here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from hotelcheckspan.analyses import metric_targets
from hotelcheckspan.analyses import metric_validation as mv
from hotelcheckspan.book import tables
from hotelcheckspan.book.readings import validate_your_metric as ch11
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import meta_evaluation as me
from hotelcheckspan.metrics import resampling


def keys(n: int) -> pd.DataFrame:
    return pd.DataFrame({"dataset": "d", "split": "test", "setup_id": "s", "example_idx": np.arange(n)})


def board_validation(rows, clusters=True) -> mv.Validation:
    """A validation whose only statistic is tau-b on errors: ``rows`` = (metric, kind, value,
    cluster), plus a ceiling row."""
    stats_rows = [
        {"metric": m, "kind": k, "target": "errors", "statistic": "kendall_tau_b", "value": v}
        | {"low": v - 0.04, "high": v + 0.04, "n": 100, "epsilon": np.nan, "random": 0.0}
        for m, k, v, _ in rows
    ]
    stats_rows.append(
        {"metric": mv.CEILING, "kind": "human ceiling", "target": "errors", "statistic": "kendall_tau_b"}
        | {"value": 0.2, "low": 0.1, "high": 0.3, "n": 50, "epsilon": np.nan, "random": np.nan}
    )
    cl = pd.DataFrame(
        [
            {"target": "errors", "statistic": "kendall_tau_b", "metric": m, "value": v, "cluster": c}
            for m, _, v, c in rows
        ]
        if clusters
        else [],
        columns=["target", "statistic", "metric", "value", "cluster"],
    )
    return mv.Validation(pd.DataFrame(stats_rows), pd.DataFrame(), cl, {"level": 0.95}, None, {})


def test_a_baseline_is_below_the_judges_only_where_its_cluster_is_below_every_judges():
    v = board_validation(
        [
            ("j1", "judge", 0.50, 1),
            ("j2", "judge", 0.30, 2),
            ("b1", "baseline", 0.25, 2),  # below j2 by the point estimate, in j2's cluster
            ("b2", "baseline", 0.10, 3),
            ("b3", "baseline", 0.05, 3),
        ]
    )
    said = ch11._board_readings(v, "")
    # the rule written plainly: clusters strictly greater than the largest judge cluster
    assert said["baselines_below_judges"] == "two"
    assert said["baseline_vs_judge"] == "below"
    assert "but the two share cluster 2: the data cannot tell them apart" in said["baseline_judge_reading"]
    assert "Two of the three baselines lie in a cluster below every judge's." in said["baseline_judge_reading"]
    assert said["baselines_summary"].endswith("(b1 shares cluster 2 with j2)")


def test_a_baseline_sharing_a_cluster_with_a_better_judge_is_named_too():
    v = board_validation(
        [
            ("j1", "judge", 0.50, 1),
            ("b1", "baseline", 0.45, 1),
            ("j2", "judge", 0.30, 2),
            ("b2", "baseline", 0.25, 3),
        ]
    )
    said = ch11._board_readings(v, "")
    assert said["best_baseline"] == "b1" and said["baseline_vs_judge"] == "above"
    assert "its cluster (1) is above the judge's (2)" in said["baseline_judge_reading"]
    assert "b1 shares cluster 1 with j1" in said["baseline_judge_reading"]
    assert said["baselines_below_judges"] == "one"


def test_without_clusters_the_point_estimates_are_read_and_said_to_be_so():
    v = board_validation([("j1", "judge", 0.5, None), ("b1", "baseline", 0.2, None)], clusters=False)
    said = ch11._board_readings(v, "")
    assert "no significance clusters were computed here" in said["baseline_judge_reading"]
    assert "significance cluster" not in said["baselines_summary"]


def detection_validation(seed: int = 0) -> mv.Validation:
    """200 texts with a binary target; a weak judge, a baseline far better than it and one
    within noise of it, their detection statistics on one matrix."""
    rng = np.random.default_rng(seed)
    n = 200
    y = rng.random(n) < 0.5
    judge = -(y * 0.3 + rng.normal(0, 1, n))
    strong = -(y * 2.0 + rng.normal(0, 1, n))
    close = judge - 0.12 * y + rng.normal(0, 0.5, n)
    data = keys(n).assign(majority=y.astype(float), weak_judge=judge, strong=strong, close=close)
    kinds = {"weak_judge": "judge", "strong": "baseline", "close": "baseline"}
    weights = resampling.matrix(data[KEY], 200, 0)
    det = me.detection(data[list(kinds)], data["majority"], weights, statistics=["roc_auc"])
    statistics = det.assign(kind=det["metric"].map(kinds), target="majority", random=0.5)
    empty = pd.DataFrame(columns=["target", "statistic", "metric", "value", "cluster"])
    return mv.Validation(statistics, pd.DataFrame(), empty, {"level": 0.95}, data, kinds, weights=weights)


def test_a_baseline_detects_better_than_the_weakest_judge_only_where_the_paired_interval_is_above_zero():
    v = detection_validation()
    det = mv.leaderboard(v, "majority", "roc_auc")
    over = det[
        (det["kind"] == "baseline")
        & (det["value"].round(2) > det.loc[det["metric"] == "weak_judge", "value"].round(2).iloc[0])
    ]
    fresh = resampling.matrix(v.data[KEY], 200, 0)  # the oracle: the matrix rebuilt, difference called directly
    verdict = {}
    for m in over["metric"]:
        d = me.difference(v.data[[m, "weak_judge"]], v.data["majority"], m, "weak_judge", fresh, statistics=["roc_auc"])
        assert mv.difference(v, m, "weak_judge", "majority", "roc_auc")["low"] == pytest.approx(d["low"].iloc[0])
        verdict[m] = d["low"].iloc[0] > 0
    said = ch11._beat_weakest_judge(v, det, "")
    assert verdict == {"strong": True, "close": False}  # the data were built so (close: within noise)
    reading = said["baselines_beat_judges"]
    assert reading.startswith("strong detects better than the weakest judge, weak_judge (paired difference")
    assert "; close scores above it, but the paired difference's interval includes zero" in reading
    assert reading.endswith("so it is not told apart from it")
    assert said["detection_summary"] == (
        "strong detects better than the weakest judge, weak_judge, and close is not told apart from it"
    )


def test_the_detection_target_says_how_many_texts_one_record_decides():
    data = keys(6).assign(
        n_humans=[1, 1, 1, 2, 2, 4], majority=pd.array([True, False, True, pd.NA, True, pd.NA], dtype="boolean")
    )
    v = mv.Validation(pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), {}, data, {})
    said = ch11._majority_said(v)
    # counted plainly: 4 texts with a target, 3 of them with one record; 3 with two or more, 2 dropped
    assert said.startswith("Of the 4 texts with that target, 3 have a single human record, which decides alone;")
    assert "of the 3 with two or more records, 2 are dropped because their records disagree." in said
    assert said.endswith('The "majority" is mostly one person\'s judgement.')


def acc23_validation(eps, values, randoms) -> mv.Validation:
    rows = [
        {"metric": f"m{i}", "kind": "baseline", "target": "errors", "statistic": "acc23", "value": v}
        | {"low": v - 0.02, "high": v + 0.02, "n": 10, "epsilon": e, "random": r}
        for i, (e, v, r) in enumerate(zip(eps, values, randoms))
    ]
    return mv.Validation(pd.DataFrame(rows), pd.DataFrame(), pd.DataFrame(), {}, None, {})


def test_acc23s_tie_threshold_and_random_level_are_read_from_the_statistics():
    said = ch11._acc23_reading(acc23_validation([0.0, 0.0], [0.6, 0.41], [0.40, 0.44]))
    assert "tie threshold is 0 for every one of the 2 metrics: only equal scores tie" in said
    assert "acc23 0.40 to 0.44 here" in said and "m1 is at or below its own random level" in said
    said = ch11._acc23_reading(acc23_validation([0.0, 2.1e-5, 3e-7], [0.6, 0.6, 0.6], [0.4, 0.4, 0.4]))
    assert "0 for one of the 3 metrics and at most 0.0001 for the others" in said
    assert "every metric is above its own random level" in said


def test_the_metrics_are_scored_on_the_ceilings_texts_against_its_target(iaa, iaa_validation):
    scores, held = metric_targets.ceiling_split(iaa)
    judge = "zeroshot-o3-mini"
    row = iaa_validation.ceiling_texts.query("metric == @judge and target == 'errors'").iloc[0]
    assert row["statistic"] == "kendall_tau_b" and row["n"] == len(scores)
    x = scores[KEY].merge(metric_targets.campaign_scores(iaa, judge), on=KEY, how="left")[judge]
    assert row["value"] == pytest.approx(stats.kendalltau(x, held["errors"]).statistic)
    assert set(iaa_validation.ceiling_texts["statistic"]) == {"kendall_tau_b", "roc_auc"}


def test_the_tables_follow_the_boards_order_with_the_random_level_where_it_depends_on_the_metric(iaa_validation):
    board = mv.leaderboard(iaa_validation, "errors", "kendall_tau_b")
    assert "Random" not in tables.metric_board(board, "kendall_tau_b").frame.columns
    shown = tables.metric_statistics(
        iaa_validation.statistics, "errors", ["kendall_tau_b", "acc23"], order=board["metric"], random=["acc23"]
    ).frame
    assert list(shown["Metric"]) == list(board["metric"])  # the ceiling is last on both
    acc23 = iaa_validation.statistics.query("target == 'errors' and statistic == 'acc23'").set_index("metric")
    for metric, cell in zip(shown["Metric"], shown["Acc23 at random"]):
        assert cell == tables.number(acc23.loc[metric, "random"])
