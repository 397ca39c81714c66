"""The statistics of metric meta-evaluation against references: scipy (Kendall tau-b/c, Spearman,
Pearson), scikit-learn (ROC AUC, average precision, balanced accuracy, stratified folds),
statsmodels (partial correlation), and brute-force re-implementations, written here from their
definitions, of mt-metrics-eval's ``tau_optimization`` (acc23 and its epsilon),
``PermutationSigDiff`` (PERM-BOTH), ``PairwisePermutationSigDiff``, ``pce.py`` (soft pairwise
accuracy) and ``AssignRanks``. A bootstrap resample is checked against the reference called on
the explicitly repeated data."""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps
import statsmodels.api as sm
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, balanced_accuracy_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold

from hotelcheckspan.corpora.problems import CorpusError
from hotelcheckspan.metrics import meta_evaluation as me
from hotelcheckspan.metrics import resampling

# --- references ---------------------------------------------------------------------------------


def acc23_reference(x, y):
    """mt-metrics-eval's tau_optimization with sample_rate=1, acc23, one row, from its definition:
    candidates 0 and every |x_i - x_j|; a pair is a metric tie when |x_i - x_j| <= epsilon; right
    when tied in both or concordant and not a metric tie; the first (smallest) maximising epsilon."""
    pairs = list(itertools.combinations(range(len(x)), 2))
    best = None
    for eps in [0.0] + sorted({abs(x[i] - x[j]) for i, j in pairs}):
        right = 0
        for i, j in pairs:
            dx, dy = x[i] - x[j], y[i] - y[j]
            right += (dy == 0) if abs(dx) <= eps else (dx * dy > 0)
        if best is None or right / len(pairs) > best[0]:
            best = (right / len(pairs), eps)
    return best


def cv_bacc_reference(x, err, folds, seed):
    """Held-out predictions: on the training folds every threshold between distinct scores (and
    below and above all), predict an error where score < threshold, the best balanced accuracy
    (the first, lowest, on ties); pooled over the stratified folds."""
    pred = np.zeros(len(x), bool)
    for train, test in StratifiedKFold(folds, shuffle=True, random_state=seed).split(np.zeros(len(x)), err):
        u = np.unique(x[train])
        candidates = [-np.inf] + [(a + b) / 2 for a, b in zip(u[:-1], u[1:])] + [np.inf]
        scores = [balanced_accuracy_score(err[train], x[train] < t) for t in candidates]
        pred[test] = x[test] < candidates[int(np.argmax(scores))]
    return pred


def rep(values, w):
    return np.repeat(np.asarray(values), w.astype(int), axis=0)


def one_draw(n, seed):
    return resampling.weights(n, 1, np.random.default_rng(seed))


def frame(*columns):
    return pd.DataFrame({f"m{i}": c for i, c in enumerate(columns)})


def value(table, metric, statistic, column="value"):
    return table.set_index(["metric", "statistic"]).loc[(metric, statistic), column]


def data(n=30, seed=0, continuous=False):
    """A target with many ties (or none) and metrics with ties, one continuous. Few target
    values and many take different paths (dense tables or pair matrices)."""
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n) if continuous else rng.integers(0, 4, n).astype(float)
    return y, frame(y + rng.normal(size=n), rng.integers(0, 3, n).astype(float), np.round(y + rng.normal(size=n)))


# --- example level against scipy ------------------------------------------------------------------

SCIPY = {
    "kendall_tau_b": lambda x, y: sps.kendalltau(x, y).statistic,
    "kendall_tau_c": lambda x, y: sps.kendalltau(x, y, variant="c").statistic,
    "spearman": lambda x, y: sps.spearmanr(x, y).statistic,
    "pearson": lambda x, y: sps.pearsonr(x, y).statistic,
}


@pytest.mark.parametrize(("seed", "continuous"), [(0, False), (1, False), (2, True), (3, True)])
def test_full_sample_equals_scipy_and_a_resample_equals_scipy_on_the_repeated_data(seed, continuous):
    y, scores = data(seed=seed, continuous=continuous)
    w = one_draw(len(y), seed + 100)
    table = me.example_level(scores, pd.Series(y), w)
    for metric, x in scores.items():
        for statistic, reference in SCIPY.items():
            assert value(table, metric, statistic) == pytest.approx(reference(x, y), abs=1e-12)
            # one resample: its interval is that resample's value
            assert value(table, metric, statistic, "low") == pytest.approx(
                reference(rep(x, w[0]), rep(y, w[0])), abs=1e-12
            )


def test_acc23_resample_equals_the_reference_on_the_repeated_data():
    y, scores = data(n=14, seed=4)
    for seed in range(4):
        w = one_draw(len(y), seed + 100)
        table = me.example_level(scores, pd.Series(y), w, statistics=("acc23",))
        for metric, x in scores.items():
            assert value(table, metric, "acc23", "low") == pytest.approx(acc23_reference(rep(x, w[0]), rep(y, w[0]))[0])
            assert value(table, metric, "acc23") == pytest.approx(acc23_reference(x.to_numpy(), y)[0])


def test_repeated_copies_of_one_example_are_tied_in_both():
    # x = [0, 1], y = [0, 1] drawn as [2, 1]: expanded x = [0, 0, 1], y = [0, 0, 1]. tau-b: one
    # concordant... two concordant pairs, the copy pair tied in both: (2 - 0) / sqrt(2 * 2) = 1;
    # acc23: the copy pair is right (tied in both), the two others concordant: 3 / 3 = 1
    x, y, w = np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([[2.0, 1.0]])
    table = me.example_level(frame(x), pd.Series(y), w, statistics=("kendall_tau_b", "acc23"))
    assert value(table, "m0", "kendall_tau_b", "low") == pytest.approx(sps.kendalltau([0, 0, 1], [0, 0, 1]).statistic)
    assert value(table, "m0", "kendall_tau_b", "low") == pytest.approx(1.0)
    assert value(table, "m0", "acc23", "low") == 1.0


# --- acc23 and epsilon ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "y", "acc", "eps"),
    [
        # pairs: (0,1) tied in y, |dx| = 0.1; the five others concordant with |dx| >= 1.
        # eps = 0: 5/6; eps = |0.5 - 0.6|: the tie is right and the others stay right: 6/6
        ([0.5, 0.6, 2, 3], [1, 1, 2, 3], 1.0, abs(0.5 - 0.6)),
        # ties in the target must be predicted as ties: all six pairs tied in y, differences
        # 1 (3 pairs), 2 (2), 3 (1): eps 0 -> 0/6, 1 -> 3/6, 2 -> 5/6, 3 -> 6/6
        ([1, 2, 3, 4], [1, 1, 1, 1], 1.0, 3.0),
        # a metric tie where the humans differ is wrong at every epsilon
        ([5, 5], [1, 2], 0.0, 0.0),
        # all discordant: 0 at every epsilon; the smallest candidate is kept
        ([3, 2, 1], [1, 2, 3], 0.0, 0.0),
        # (0,1) tied in y with |dx| 1; (0,2) concordant |dx| .5; (1,2) discordant; (0,3), (1,3),
        # (2,3) concordant |dx| 3, 2, 2.5. eps 0: 4/6; .5: 3/6; 1: 4/6 again; 2: 3/6. The maximum
        # 4/6 is reached at 0 and at 1: the smallest, 0, is kept
        ([0.0, 1.0, 0.5, 3.0], [0, 0, 1, 2], 4 / 6, 0.0),
    ],
)
def test_acc23_hand_cases(x, y, acc, eps):
    table = me.example_level(frame(np.array(x, float)), pd.Series(np.array(y, float)), np.ones((1, len(x))))
    assert value(table, "m0", "acc23") == pytest.approx(acc)
    assert value(table, "m0", "acc23", "epsilon") == eps
    assert acc23_reference(np.array(x, float), np.array(y, float)) == (pytest.approx(acc), eps)


values = st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.5, -1.0]), min_size=2, max_size=9)


@given(values, st.data())
def test_acc23_and_epsilon_equal_the_reference_on_random_data_with_ties(x, draw):
    y = draw.draw(st.lists(st.integers(0, 2), min_size=len(x), max_size=len(x)))
    x, y = np.array(x), np.array(y, float)
    (got,), (eps,) = me._acc23_w(x, y, np.ones((1, x.size)))
    want = acc23_reference(x, y)
    assert got == pytest.approx(want[0]) and eps == want[1]


@pytest.mark.parametrize("block", [1, 2, 5])
def test_acc23_search_in_small_blocks_is_exact(monkeypatch, block):
    """The bounded search (exact gains at thresholds, intervals halved while they can hold the
    maximum, then scanned pair by pair) against the reference, with intervals and scan blocks
    small enough that every branch runs."""
    monkeypatch.setattr(me, "_SPLIT", 0.01 * block)
    monkeypatch.setattr(me, "_SCAN", block)
    rng = np.random.default_rng(block)
    for _ in range(15):
        n = int(rng.integers(3, 11))
        x = np.round(rng.normal(size=n), 1)
        y = rng.integers(0, 3, n).astype(float)
        W = me._with_full(resampling.weights(n, 3, rng))
        got, eps = me._acc23_w(x, y, W)
        for r in range(W.shape[0]):
            want = acc23_reference(rep(x, W[r]), rep(y, W[r]))
            assert got[r] == pytest.approx(want[0]) and eps[r] == want[1]
        perms = rng.random((4, n)).argsort(axis=1)
        permuted = me._acc23_permuted(x, y, perms)
        assert permuted == pytest.approx([acc23_reference(x[p], y)[0] for p in perms])


# --- detection against scikit-learn ---------------------------------------------------------------


def detection_data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    err = rng.random(n) < 0.4
    return err, frame(np.round(rng.normal(size=n) - err, 1), rng.integers(0, 4, n).astype(float))


@pytest.mark.parametrize("seed", range(3))
def test_detection_equals_sklearn(seed):
    err, scores = detection_data(seed=seed)
    w = one_draw(len(err), seed + 100)
    table = me.detection(scores, pd.Series(err), w, folds=5, seed=seed)
    for metric, x in scores.items():
        x = x.to_numpy()
        assert value(table, metric, "roc_auc") == pytest.approx(roc_auc_score(err, -x))
        assert value(table, metric, "average_precision") == pytest.approx(average_precision_score(err, -x))
        pred = cv_bacc_reference(x, err, 5, seed)
        assert value(table, metric, "bacc") == pytest.approx(balanced_accuracy_score(err, pred))
        e, xr = rep(err, w[0]), rep(x, w[0])
        assert value(table, metric, "roc_auc", "low") == pytest.approx(roc_auc_score(e, -xr))
        assert value(table, metric, "average_precision", "low") == pytest.approx(average_precision_score(e, -xr))
        # the interval resamples the pooled held-out predictions
        assert value(table, metric, "bacc", "low") == pytest.approx(balanced_accuracy_score(e, rep(pred, w[0])))


def test_bacc_needs_enough_examples_of_each_class():
    err, scores = detection_data(n=12)
    err[:] = False
    err[:3] = True  # three errors, five folds
    table = me.detection(scores, pd.Series(err), np.ones((2, 12)))
    assert np.isnan(value(table, "m0", "bacc"))


# --- comparisons ----------------------------------------------------------------------------------


def perm_both_reference(statistic, a, b, y, n, seed):
    """mt-metrics-eval's PermutationSigDiff loop (no early stopping), the same masks."""
    za, zb = sps.zscore(a), sps.zscore(b)
    delta = statistic(za, y) - statistic(zb, y)
    masks = np.random.default_rng(seed).random((n, len(y))) < 0.5
    # a draw within rounding of the observed difference reaches it (as the module documents)
    hits = [statistic(np.where(m, za, zb), y) - statistic(np.where(m, zb, za), y) >= delta - 1e-9 for m in masks]
    return delta, np.mean(hits)


@pytest.mark.parametrize(
    ("statistic", "continuous"),
    [(s, False) for s in ("kendall_tau_b", "kendall_tau_c", "spearman", "pearson", "roc_auc")]
    + [("kendall_tau_b", True), ("kendall_tau_c", True)],
)
def test_perm_both_equals_the_reference(statistic, continuous):
    rng = np.random.default_rng(7)
    n = 25
    y = rng.normal(size=n) if continuous else rng.integers(0, 3, n).astype(float)
    target = y if statistic != "roc_auc" else (y == 0).astype(float)
    a, b = np.round(-target + rng.normal(size=n), 1), rng.integers(0, 4, n).astype(float)
    fn = (lambda x, t: roc_auc_score(t, -x)) if statistic == "roc_auc" else SCIPY[statistic]
    delta, p = perm_both_reference(fn, a, b, target, 200, seed=3)
    got = me.permutation_test(frame(a, b), pd.Series(target), "m0", "m1", statistic, n_permutations=200, seed=3)
    assert got["delta"].iloc[0] == pytest.approx(delta, abs=1e-12)
    assert got["p_value"].iloc[0] == p


def test_acc23_pairs_test_is_exact():
    """WMT23's PairwisePermutationSigDiff, every one of the 2^10 swap patterns of 5 examples'
    10 pairs enumerated: the share reaching the observed difference is the p-value."""
    x1, x2, y = np.array([0, 1, 2, 2.5, 4.0]), np.array([3, 1, 2, 0, 4.0]), np.array([0, 0, 1, 2, 2.0])
    (e1,), (e2,) = acc23_reference(x1, y)[1:], acc23_reference(x2, y)[1:]

    def outcomes(x, eps):
        out = []
        for i, j in itertools.combinations(range(5), 2):
            dx, dy = x[i] - x[j], y[i] - y[j]
            out.append((dy == 0) if abs(dx) <= eps else (dx * dy > 0))
        return np.array(out, float)

    o1, o2 = outcomes(x1, e1), outcomes(x2, e2)
    delta = (o1.sum() - o2.sum()) / 10
    hits = [((np.array(s) * (o1 - o2)).sum() / 10 >= delta - 1e-12) for s in itertools.product([1, -1], repeat=10)]
    got = me.permutation_test(frame(x1, x2), pd.Series(y), "m0", "m1", "acc23")
    assert got["delta"].iloc[0] == pytest.approx(delta)
    assert got["p_value"].iloc[0] == pytest.approx(np.mean(hits))


def test_significance_clusters_and_the_order_of_comparisons():
    rng = np.random.default_rng(11)
    y = rng.normal(size=80)
    scores = frame(
        y + rng.normal(scale=3, size=80), y + rng.normal(scale=0.5, size=80), y + rng.normal(scale=0.5, size=80)
    )
    tests = me.significance(scores, pd.Series(y), "pearson", n_permutations=200)
    assert list(zip(tests["first"], tests["second"])) == [("m1", "m2"), ("m1", "m0"), ("m2", "m0")]
    one = me.permutation_test(scores, pd.Series(y), "m1", "m0", "pearson", n_permutations=200)
    assert tests.iloc[1]["p_value"] == one["p_value"].iloc[0]
    table = me.clusters(tests)
    assert list(table["metric"]) == ["m1", "m2", "m0"] and list(table["cluster"]) == [1, 1, 2]


@pytest.mark.parametrize(
    ("p", "ranks"),
    [
        # metric 0 beats 1 and 2: 1 opens cluster 2, and 2 (not beaten by 1) stays with it
        ([[1, 0.01, 0.01], [1, 1, 0.5], [1, 1, 1]], [1, 2, 2]),
        # nobody beats 1; 0 beats 2, which starts cluster 2 although 1 does not beat it
        ([[1, 0.5, 0.01], [1, 1, 0.5], [1, 1, 1]], [1, 1, 2]),
        # p = alpha counts as significant (<=)
        ([[1, 0.05], [1, 1]], [1, 2]),
        # a new cluster only looks back to its own start: 1 beats 2, 2 then 3 beaten by 0 only
        ([[1, 0.5, 0.01, 0.01], [1, 1, 0.01, 0.5], [1, 1, 1, 0.5], [1, 1, 1, 1]], [1, 1, 2, 2]),
    ],
)
def test_assign_clusters_follows_mt_metrics_eval(p, ranks):
    assert me.assign_clusters(np.array(p), 0.05) == ranks


def test_clusters_from_a_hand_made_frame():
    tests = pd.DataFrame(
        {
            "first": ["a", "a", "b"],
            "second": ["b", "c", "c"],
            "statistic": "pearson",
            "value_first": [0.9, 0.9, 0.8],
            "value_second": [0.8, 0.1, 0.1],
            "p_value": [0.2, 0.001, 0.04],
        }
    )
    table = me.clusters(tests)
    assert table.to_dict("list") == {
        "metric": ["a", "b", "c"],
        "statistic": ["pearson"] * 3,
        "value": [0.9, 0.8, 0.1],
        "cluster": [1, 1, 2],
    }


def test_difference_uses_the_same_resamples():
    y, scores = data(n=40, seed=5)
    w = one_draw(40, 9)
    diff = me.difference(scores, pd.Series(y), "m0", "m1", w).set_index("statistic")
    single = me.example_level(scores, pd.Series(y), w)
    for statistic in me.EXAMPLE_STATISTICS:
        a, b = (value(single, m, statistic) for m in ("m0", "m1"))
        ra, rb = (value(single, m, statistic, "low") for m in ("m0", "m1"))
        assert diff.loc[statistic, "value"] == pytest.approx(a - b)
        assert diff.loc[statistic, "low"] == pytest.approx(ra - rb)  # the same resample for both
    W = resampling.weights(40, 300, np.random.default_rng(0))
    twice = [me.difference(scores, pd.Series(y), "m0", "m1", W) for _ in range(2)]
    pd.testing.assert_frame_equal(*twice)


# --- random baseline ------------------------------------------------------------------------------


@pytest.mark.parametrize("continuous", [False, True])
def test_kendall_of_many_rows_equals_scipy(continuous):
    """The rows path (permuted scores, hybrids) with few target values and with many."""
    y, scores = data(n=20, seed=8, continuous=continuous)
    rng = np.random.default_rng(0)
    X = np.vstack([scores["m1"].to_numpy()[rng.permutation(20)] for _ in range(5)] + [scores["m0"].to_numpy()])
    b, c = me._kendall_rows(X, y)
    assert b == pytest.approx([sps.kendalltau(x, y).statistic for x in X])
    assert c == pytest.approx([sps.kendalltau(x, y, variant="c").statistic for x in X])


def test_random_baseline_expectations_are_exact_over_all_permutations():
    """For 6 examples with ties the mean over all 720 permutations is 0 (correlations) and 0.5
    (ROC AUC), the values the baseline reports as exact; acc23 per permutation is the reference's."""
    x, y = np.array([0.0, 1.0, 1.0, 2.0, 5.0, 5.0]), np.array([0.0, 0.0, 1.0, 1.0, 1.0, 2.0])
    perms = np.array(list(itertools.permutations(range(6))))
    for statistic, fn in SCIPY.items():
        assert np.mean([fn(x[p], y) for p in perms]) == pytest.approx(0, abs=1e-12), statistic
    assert np.mean([roc_auc_score(y > 0, -x[p]) for p in perms]) == pytest.approx(0.5)
    base = me.random_baseline(frame(x), pd.Series(y), n_random=50).set_index("statistic")
    assert base.loc[list(SCIPY), "value"].tolist() == [0.0] * 4
    assert (base.loc[list(SCIPY), "how"] == "exact").all() and base.loc["acc23", "how"] == "mean of permutations"
    rng = np.random.default_rng([0, 0])
    drawn = rng.random((50, 6)).argsort(axis=1)
    assert base.loc["acc23", "value"] == pytest.approx(np.mean([acc23_reference(x[p], y)[0] for p in drawn]))
    assert base.loc["kendall_tau_b", "low"] == pytest.approx(
        np.quantile([sps.kendalltau(x[p], y).statistic for p in drawn], 0.025)
    )


def test_random_baselines_draw_once_for_every_target_and_equal_each_alone():
    """Several targets at once (a target with a missing value among them, so two sizes of
    permutation), and a subset of the metrics: each frame equals random_baseline of its target
    alone, with the metric's own column's stream."""
    rng = np.random.default_rng(3)
    scores = frame(rng.integers(0, 4, 40).astype(float), rng.normal(size=40), rng.normal(size=40))
    errors = pd.Series(rng.integers(0, 3, 40).astype(float))
    major = pd.Series(rng.integers(0, 2, 40).astype(float)).where(lambda s: s.index != 7)
    asked = {"errors": (errors, me.EXAMPLE_STATISTICS), "majority": (major, me.DETECTION_STATISTICS)}
    together = me.random_baselines(scores, asked, n_random=30, seed=5)
    some = me.random_baselines(scores, asked, metrics=["m2", "m0"], n_random=30, seed=5)
    for key, (target, statistics) in asked.items():
        alone = me.random_baseline(scores, target, statistics=statistics, n_random=30, seed=5)
        pd.testing.assert_frame_equal(together[key], alone)
        kept = alone[alone["metric"].isin(["m0", "m2"])].reset_index(drop=True)
        pd.testing.assert_frame_equal(some[key], kept)
    assert together["majority"]["n"].eq(39).all() and together["errors"]["n"].eq(40).all()


# --- system level ---------------------------------------------------------------------------------


def system_data(seed=0, items=12, systems="ABCD"):
    rng = np.random.default_rng(seed)
    quality = dict(zip(systems, rng.normal(size=len(systems))))
    rows = [(s, i) for i in range(items) for s in systems]
    sys = np.array([s for s, _ in rows])
    item = np.array([i for _, i in rows])
    y = np.array([quality[s] for s in sys]) + rng.normal(size=len(rows))
    y = np.round(y * 2) / 2  # ties
    return sys, item, y, frame(y + rng.normal(scale=0.7, size=len(rows)), rng.normal(size=len(rows)), -y, y)


def test_system_level_against_scipy_statsmodels_and_definitions():
    sys, item, y, scores = system_data()
    w = one_draw(len(y), 1)
    table = me.system_level(scores, pd.Series(y), sys, w, item=item, n_permutations=100)
    dummies = pd.get_dummies(sys, dtype=float).to_numpy()
    for metric, x in scores.items():
        x = x.to_numpy()
        mx, my = pd.Series(x).groupby(sys).mean(), pd.Series(y).groupby(sys).mean()
        assert value(table, metric, "pearson") == pytest.approx(sps.pearsonr(mx, my).statistic)
        assert value(table, metric, "kendall_tau_b") == pytest.approx(sps.kendalltau(mx, my).statistic)
        agree = [np.sign(mx[a] - mx[b]) == np.sign(my[a] - my[b]) for a, b in itertools.combinations(mx.index, 2)]
        assert value(table, metric, "pairwise_accuracy") == pytest.approx(np.mean(agree))
        # FRANK: residuals of OLS on system dummies, correlated
        rx, ry = (sm.OLS(v, dummies).fit().resid for v in (x, y))
        assert value(table, metric, "partial_pearson") == pytest.approx(np.corrcoef(rx, ry)[0, 1])
        rrx, rry = (sm.OLS(sps.rankdata(v), dummies).fit().resid for v in (x, y))
        assert value(table, metric, "partial_spearman") == pytest.approx(np.corrcoef(rrx, rry)[0, 1])
        # on a resample: weighted least squares with the counts = OLS on the repeated rows
        e = w[0].astype(int)
        rx, ry = (sm.OLS(rep(v, e), rep(dummies, e)).fit().resid for v in (x, y))
        assert value(table, metric, "partial_pearson", "low") == pytest.approx(np.corrcoef(rx, ry)[0, 1])
        # per item across systems, NaN items dropped, averaged (mt-metrics-eval average_by="item")
        for statistic, fn in (("item_pearson", SCIPY["pearson"]), ("item_kendall_tau_b", SCIPY["kendall_tau_b"])):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                per_item = [fn(x[item == i], y[item == i]) for i in np.unique(item)]
            assert value(table, metric, statistic) == pytest.approx(np.nanmean(per_item))


def pce_reference(x, y, sys, item, n_permutations, seed):
    """pce.py: per system pair, p = share of sign draws with sum(s * (a - b)) >= sum(a - b), the
    same draws for the metric and the humans; 1 - mean |p_metric - p_human|."""
    systems, items = sorted(set(sys)), sorted(set(item))
    signs = np.where(np.random.default_rng(seed).random((n_permutations, len(items))) < 0.5, 1.0, -1.0)

    def p_values(v):
        table = {(s, i): v[k] for k, (s, i) in enumerate(zip(sys, item))}
        out = []
        for a, b in itertools.combinations(systems, 2):
            d = np.array([table[a, i] - table[b, i] for i in items])
            out.append(np.mean([(s * d).sum() >= d.sum() for s in signs]))
        return np.array(out)

    return 1 - np.mean(np.abs(p_values(x) - p_values(y)))


def test_soft_pairwise_accuracy_equals_the_reference_and_its_properties():
    sys, item, y, scores = system_data(seed=2, items=10)
    table = me.system_level(scores, pd.Series(y), sys, np.ones((1, len(y))), item=item, n_permutations=150, seed=4)
    for metric, x in scores.items():
        want = pce_reference(x.to_numpy(), y, sys, item, 150, 4)
        assert value(table, metric, "soft_pairwise_accuracy") == pytest.approx(want)
    # m3 is the target itself, m2 the target reversed
    assert value(table, "m3", "soft_pairwise_accuracy") == 1.0
    assert value(table, "m3", "pairwise_accuracy") == 1.0 and value(table, "m2", "pairwise_accuracy") == 0.0
    assert value(table, "m3", "pearson") == pytest.approx(1.0)
    unpaired = me.system_level(scores, pd.Series(y), sys, np.ones((1, len(y))), n_permutations=150, seed=4)
    assert value(unpaired, "m3", "soft_pairwise_accuracy") == 1.0
    for metric, x in scores.items():
        want = unpaired_reference(x.to_numpy(), y, sys, 150, 4)
        assert value(unpaired, metric, "soft_pairwise_accuracy") == pytest.approx(want)


def unpaired_reference(x, y, sys, n_permutations, seed):
    """Without items: per system pair, the documented relabellings of the pooled examples (a
    difference within 1e-9 of the observed one reaches it), the same draws for both sides."""
    systems = sorted(set(sys))

    def p_values(v):
        out = []
        for (i, a), (j, b) in itertools.combinations(enumerate(systems), 2):
            pooled, k = np.r_[v[sys == a], v[sys == b]], (sys == a).sum()
            draws = np.random.default_rng([seed, i, j]).random((n_permutations, pooled.size)).argsort(axis=1) < k
            obs = v[sys == a].mean() - v[sys == b].mean()
            null = [pooled[d].mean() - pooled[~d].mean() for d in draws]
            out.append(np.mean(np.array(null) >= obs - 1e-9))
        return np.array(out)

    return 1 - np.mean(np.abs(p_values(x) - p_values(y)))


def test_what_the_targets_share_is_looked_up_never_mistaken():
    """system_level with one ``shared`` dict over several targets (one with gaps, so each metric
    keeps other examples), weights (clustered and not) and draws gives each call's own table."""
    sys, item, y, scores = system_data(seed=5)
    by_system = np.argsort(sys, kind="stable")  # each system's rows together, items 0..11
    sys, item, y, scores = sys[by_system], item[by_system], y[by_system], scores.iloc[by_system]
    scores = scores.reset_index(drop=True)
    # a metric scoring item 4 as item 3: the targets with a gap at one or the other keep the
    # same scores, systems and values, on other examples (so other columns of the weights)
    rows = np.arange(y.size)
    scores["twins"] = (rows - (item == 4)).astype(float)
    gappy = np.where(item == 3, np.nan, -y)
    shifted = np.where(item == 4, np.nan, -y)
    clustered = me.cluster_weights(item, 40, np.random.default_rng(1))
    plain = resampling.weights(len(y), 40, np.random.default_rng(2))
    refilled = clustered.copy()
    shared: dict = {}
    for W, target, n_permutations, seed in [
        (clustered, y, 60, 0),
        (clustered, gappy, 60, 0),
        (clustered, shifted, 60, 0),
        (plain, y, 60, 0),
        (clustered, y, 60, 3),
        (clustered, y, 30, 0),
        (clustered, y[::-1].copy(), 60, 0),
        (refilled, y, 60, 0),
        (refilled, y, 60, [0, 1]),  # a seed numpy takes as a sequence
    ]:
        args = (scores, pd.Series(target), sys, W)
        kwargs = {"item": item, "n_permutations": n_permutations, "seed": seed}
        alone = me.system_level(*args, **kwargs)
        pd.testing.assert_frame_equal(me.system_level(*args, **kwargs, shared=shared), alone)
        if W is refilled:  # the same array, other weights in it: read as the weights they are
            refilled[:] = me.cluster_weights(item, 40, np.random.default_rng(9))
    assert {key[0] for key in shared} == {"weights", "signs", "p", "items"}


def test_cluster_weights_resample_items_and_item_intervals_need_them():
    sys, item, y, scores = system_data(seed=3)
    W = me.cluster_weights(item, 50, np.random.default_rng(0))
    assert W.shape == (50, len(y)) and (W.sum(1) == 4 * 12).all()
    for i in np.unique(item):
        assert (W[:, item == i] == W[:, item == i][:, :1]).all()
    paired = me.system_level(scores, pd.Series(y), sys, W, item=item, n_permutations=50)
    examples = me.system_level(
        scores,
        pd.Series(y),
        sys,
        resampling.weights(len(y), 50, np.random.default_rng(0)),
        item=item,
        n_permutations=50,
    )
    assert np.isfinite(value(paired, "m0", "item_pearson", "low"))
    assert np.isnan(value(examples, "m0", "item_pearson", "low"))


# --- intervals, undefined values, bad input -------------------------------------------------------


def test_intervals_contain_the_estimate_and_the_same_weights_give_the_same_result():
    rng = np.random.default_rng(0)
    y = rng.normal(size=150)
    scores = frame(y + rng.normal(size=150), np.round(y + rng.normal(size=150)))
    W = resampling.weights(150, 200, np.random.default_rng(1))
    first = me.example_level(scores, pd.Series(y), W)
    assert ((first["low"] <= first["value"]) & (first["value"] <= first["high"])).all()
    pd.testing.assert_frame_equal(first, me.example_level(scores, pd.Series(y), W))
    # the same resamples for every metric: one metric's row is the same alone or with others
    alone = me.example_level(scores[["m1"]], pd.Series(y), W)
    pd.testing.assert_frame_equal(alone.reset_index(drop=True), first[first["metric"] == "m1"].reset_index(drop=True))


def test_undefined_values_are_nan_without_warnings():
    y = np.array([0.0, 1.0, 2.0, 1.0, np.nan, 0.0, 2.0, 1.0, 0.0, 1.0])
    scores = frame(np.full(10, 3.0), np.r_[np.arange(9.0), np.nan], np.full(10, np.nan))
    err = pd.Series([True, False] * 5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        W = resampling.weights(10, 30, np.random.default_rng(0))
        table = me.example_level(scores, pd.Series(y), W)
        det = me.detection(scores, err, W)
        sysl = me.system_level(scores, pd.Series(y), np.array(list("ab") * 5), W, item=np.repeat(range(5), 2))
        base = me.random_baseline(scores, pd.Series(y), n_random=10)
        test = me.permutation_test(scores, pd.Series(y), "m0", "m1", "kendall_tau_b", n_permutations=20)
    assert not caught, [str(w.message) for w in caught]
    both = [0, 1, 2, 3, 5, 6, 7, 8]  # y is NaN at 4, m1 at 9
    assert table.loc[table["metric"] == "m0", "value"].drop(index=table.index[2]).isna().all()  # all but acc23
    assert value(table, "m1", "pearson") == pytest.approx(sps.pearsonr(np.arange(9.0)[both], y[both]).statistic)
    assert value(table, "m1", "pearson", "n") == 8 and value(table, "m2", "pearson", "n") == 0
    assert table[table["metric"] == "m2"]["value"].isna().all() and det[det["metric"] == "m2"]["value"].isna().all()
    assert np.isnan(value(sysl, "m0", "pearson")) and np.isnan(value(sysl, "m0", "partial_pearson"))
    assert np.isnan(value(base, "m0", "kendall_tau_b")) and np.isnan(test["p_value"].iloc[0])
    table = me.clusters(me.significance(scores, pd.Series(y), "pearson", n_permutations=20))
    assert table["metric"].tolist() == ["m1", "m0", "m2"] and table["cluster"].tolist() == [1, pd.NA, pd.NA]


def test_bad_input_reports_every_problem_at_once():
    scores = pd.DataFrame({"good": [1.0, 2.0, 3.0], "words": ["1", "two", "3"], "inf": [1.0, np.inf, 0.0]})
    with pytest.raises(CorpusError) as info:
        me.example_level(scores, pd.Series([1.0, 2.0]), np.ones((5, 4)))
    lines = str(info.value)
    assert "3 errors" in lines or "4 errors" in lines
    assert "scores:2: words:" in lines and "scores:2: inf:" in lines
    assert "target" in lines and "weights" in lines
    with pytest.raises(CorpusError, match="not True/False"):
        me.detection(pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([0.5, 1.0]), np.ones((1, 2)))
    with pytest.raises(CorpusError, match="no such metric"):
        me.permutation_test(pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([0.5, 1.0]), "a", "b", "pearson")
    with pytest.raises(CorpusError, match="unknown example-level statistic"):
        me.example_level(pd.DataFrame({"a": [1.0, 2.0]}), pd.Series([0.5, 1.0]), np.ones((1, 2)), statistics=("tau",))


class _FewValues:
    """A generator whose draws take five values: rows with equal draws, which argsort orders its own way."""

    def random(self, shape):
        return np.random.default_rng(3).integers(0, 5, shape) / 8.0


@pytest.mark.parametrize("n", [1, 2, 17, 1024, 1025, 5000, 120_000])
def test_random_permutations_are_argsort_of_the_draws(n):
    """The random baselines' and the unpaired test's permutations: ``rng.random((rows, n)).argsort(1)``
    exactly, whether the keys hold a draw whole (small n), keep its leading bits (large n, where a
    row whose leading bits tie is ordered by argsort), or the draws themselves tie."""
    rows = 40 if n < 100_000 else 12
    for seed in range(3):
        want = np.random.default_rng([seed, 1]).random((rows, n)).argsort(axis=1)
        got = me.random_permutations(np.random.default_rng([seed, 1]), rows, n)
        assert got.dtype == want.dtype and np.array_equal(got, want)
    if n > 1:
        assert np.array_equal(me.random_permutations(_FewValues(), 6, n), _FewValues().random((6, n)).argsort(axis=1))
