"""The metric statistics against mt-metrics-eval's own functions (``tests/mteval_reference.py``:
the shared reference folder's verbatim ``stats.py`` and ``pce.py``; skipped where it is absent):
``KendallVariants`` (tau-b, tau-c), ``KendallWithTiesOpt`` (acc23 and its epsilon, sample_rate=1),
``PermutationSigDiff`` (PERM-BOTH, fed the same swap masks), ``Agreement`` (pairwise accuracy) and
``pce.compute_pairwise_p_values`` (soft pairwise accuracy, fed the same sign draws); the clusters
follow ``AssignRanks`` (written here from its definition: the reference folder does not carry
``data.py``). A resample stands for the data with example i repeated w_i times: the reference is
called on ``np.repeat``. Cases with ties on either side, constant sides, repeated examples, NaNs,
few and many distinct values (every path of the blocked sums and of acc23's search)."""

import itertools

import numpy as np
import pandas as pd
import pytest
from mteval_reference import PCE, STATS, permutation_sig_diff

from hotelcheckspan.metrics import meta_evaluation as me
from hotelcheckspan.metrics import resampling

pytestmark = pytest.mark.skipif(STATS is None, reason="the shared mt-metrics-eval reference folder is absent")


def rep(values, w):
    return np.repeat(np.asarray(values), np.asarray(w).astype(int))


def frame(*columns):
    return pd.DataFrame({f"m{i}": c for i, c in enumerate(columns)})


def case(name: str, n: int = 40, seed: int = 0):
    """(x, y) of a named shape."""
    rng = np.random.default_rng(seed)
    y_levels = rng.integers(0, 4, n).astype(float)
    if name == "ties both":
        return np.round(y_levels + rng.normal(size=n)), y_levels
    if name == "continuous x, tied y":
        return y_levels + rng.normal(size=n), y_levels
    if name == "continuous both":  # more than _LEVELS distinct values on both sides: the split path
        y = rng.normal(size=n)
        return y + rng.normal(size=n), y
    if name == "few x, many y":  # the ordering side is y
        y = rng.normal(size=n)
        return (y > 0).astype(float) + rng.integers(0, 2, n), y
    if name == "constant x":
        return np.full(n, 2.0), y_levels
    if name == "constant y":
        return rng.normal(size=n), np.ones(n)
    raise ValueError(name)


SHAPES = ["ties both", "continuous x, tied y", "continuous both", "few x, many y", "constant x", "constant y"]


def same(a, b):
    return (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, abs=1e-12)


# --- Kendall tau-b and tau-c ----------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_kendall_of_each_resample_equals_kendall_variants_on_the_repeated_data(shape):
    n = 90 if shape == "continuous both" else 40
    x, y = case(shape, n)
    W = me._with_full(resampling.weights(n, 6, np.random.default_rng(1)))
    b, c = me._kendall_w(x, y, W)
    for r, w in enumerate(W):
        assert same(b[r], STATS.KendallVariants(rep(y, w), rep(x, w), variant="b")[0]), (shape, r)
        assert same(c[r], STATS.KendallVariants(rep(y, w), rep(x, w), variant="c")[0]), (shape, r)


def test_kendall_through_example_level_drops_nans_and_repeats_examples():
    x, y = case("ties both", 30, seed=3)
    x[[2, 7]], y[[4]] = np.nan, np.nan
    w = resampling.weights(30, 1, np.random.default_rng(5))
    table = me.example_level(frame(x), pd.Series(y), w, statistics=("kendall_tau_b", "kendall_tau_c"))
    keep = ~np.isnan(x) & ~np.isnan(y)
    for statistic, variant in (("kendall_tau_b", "b"), ("kendall_tau_c", "c")):
        row = table.set_index("statistic").loc[statistic]
        assert row["value"] == pytest.approx(STATS.KendallVariants(y[keep], x[keep], variant=variant)[0], abs=1e-12)
        wk = w[0][keep]
        want = STATS.KendallVariants(rep(y[keep], wk), rep(x[keep], wk), variant=variant)[0]
        assert row["low"] == pytest.approx(want, abs=1e-12) and row["n"] == keep.sum()


def test_kendall_of_permuted_scores_equals_kendall_variants():
    """The random baseline's three paths: (score, target) cells, blocks of levels for distinct
    scores (with ties among the scores too), rows one by one."""
    rng = np.random.default_rng(2)
    for shape, n in (("ties both", 40), ("continuous x, tied y", 200), ("continuous both", 80)):
        x, y = case(shape, n, seed=4)
        if shape == "continuous x, tied y":
            x[:20] = np.round(x[:20])  # some equal scores among distinct ones
        perms = rng.random((7, n)).argsort(axis=1)
        b, c = me._kendall_permuted(x, y, perms)
        for r, p in enumerate(perms):
            assert same(b[r], STATS.KendallVariants(y, x[p], variant="b")[0]), (shape, r)
            assert same(c[r], STATS.KendallVariants(y, x[p], variant="c")[0]), (shape, r)


# --- acc23 and its epsilon ------------------------------------------------------------------------


def with_ties_opt(x, y):
    tau, epsilon, _ = STATS.KendallWithTiesOpt(y, x, variant="acc23", sample_rate=1.0)
    return tau, epsilon


@pytest.fixture(params=["default", "small steps"])
def search(request, monkeypatch):
    """The search's sizes as shipped, and small enough that every branch runs (halving down to
    a few pairs, scans in blocks of 3 pairs, a coarse first pass for intervals, a few columns
    per search)."""
    if request.param == "small steps":
        monkeypatch.setattr(me, "_SPLIT", 0.01)
        monkeypatch.setattr(me, "_SCAN", 3)
        monkeypatch.setattr(me, "_COARSE", 3)
        monkeypatch.setattr(me, "_TABLE", 300)  # a few columns per search
    return request.param


@pytest.mark.parametrize("shape", SHAPES)
def test_acc23_and_epsilon_of_each_resample_equal_kendall_with_ties_opt(shape, search):
    x, y = case(shape, 24, seed=6)
    W = me._with_full(resampling.weights(24, 5, np.random.default_rng(7)))
    got, eps = me._acc23_w(x, y, W)
    for r, w in enumerate(W):
        tau, epsilon = with_ties_opt(rep(x, w), rep(y, w))
        assert got[r] == pytest.approx(tau, abs=1e-12) and eps[r] == epsilon, (shape, r)


def test_acc23_interval_from_bounds_equals_the_interval_of_every_resample(search):
    """example_level computes acc23 exactly only on the resamples that can be the interval's
    order statistics; its value, epsilon and interval are those of every resample computed."""
    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 30).astype(float)
    x = y + rng.normal(size=30)
    W = resampling.weights(30, 120, np.random.default_rng(9))
    row = me.example_level(frame(x), pd.Series(y), W, statistics=("acc23",)).iloc[0]
    everyone = [with_ties_opt(rep(x, w), rep(y, w))[0] for w in W]
    tau, epsilon = with_ties_opt(x, y)
    assert row["value"] == pytest.approx(tau, abs=1e-12) and row["epsilon"] == epsilon
    assert (row["low"], row["high"]) == pytest.approx(resampling.interval(np.array(everyone), 0.95), abs=1e-12)


def test_acc23_of_permuted_scores_equals_kendall_with_ties_opt(search):
    rng = np.random.default_rng(10)
    for x, y in (case("ties both", 30, 11), case("continuous x, tied y", 30, 12), case("few x, many y", 30, 13)):
        perms = rng.random((5, x.size)).argsort(axis=1)
        got = me._acc23_permuted(x, y, perms)
        assert got == pytest.approx([with_ties_opt(x[p], y)[0] for p in perms], abs=1e-12)


# --- PERM-BOTH and the clusters -------------------------------------------------------------------


@pytest.mark.parametrize(("statistic", "variant"), [("kendall_tau_b", "b"), ("kendall_tau_c", "c")])
@pytest.mark.parametrize("shape", ["ties both", "continuous x, tied y", "continuous both"])
@pytest.mark.parametrize("kept", [True, False], ids=["weights kept", "weights made when read"])
def test_perm_both_equals_permutation_sig_diff_on_the_same_masks(statistic, variant, shape, kept, monkeypatch):
    """Whether the hybrids' weights are kept or made again into one array as they are read (on
    large corpora), PERM-BOTH's null is mt-metrics-eval's."""
    if not kept:
        monkeypatch.setattr(me, "_KEPT_WEIGHTS", 0)
        monkeypatch.setattr(me, "_COLUMNS", 16)  # several chunks through the one array
    n = 70 if shape == "continuous both" else 40
    x, y = case(shape, n, seed=14)
    rng = np.random.default_rng(15)
    other = np.round(x + rng.normal(size=n), 1) if shape != "continuous both" else x + rng.normal(size=n)
    masks = me._draws(150, n, 3)[0]
    delta, null = permutation_sig_diff(x, other, y, masks, variant)
    va, vb, ours, hybrid = me._perm_both(statistic, x, other, y, me._draws(150, n, 3), 5, 3)
    assert ours == pytest.approx(delta, abs=1e-12)
    assert hybrid == pytest.approx(null, abs=1e-12)
    got = me.permutation_test(frame(x, other), pd.Series(y), "m0", "m1", statistic, n_permutations=150, seed=3)
    # a draw within rounding of the observed difference reaches it (as the module documents)
    assert got["p_value"].iloc[0] == np.mean(null >= delta - 1e-9)


def assign_ranks(sig_matrix, pval):
    """mt-metrics-eval's AssignRanks (data.py), from its definition."""
    ranks, rank, start = [], 1, 0
    for i in range(sig_matrix.shape[0]):
        if any(sig_matrix[start:i, i] <= pval):
            rank, start = rank + 1, i
        ranks.append(rank)
    return ranks


def test_clusters_follow_assign_ranks_on_permutation_sig_diff_p_values():
    rng = np.random.default_rng(16)
    n = 60
    y = rng.integers(0, 5, n).astype(float)
    scores = frame(*(np.round(y + rng.normal(scale=s, size=n), 1) for s in (0.6, 0.7, 1.5, 3.0, 1.0)))
    tests = me.significance(scores, pd.Series(y), "kendall_tau_b", n_permutations=120, seed=2)
    table = me.clusters(tests)
    order = table["metric"].tolist()
    masks = me._draws(120, n, 2)[0]
    sig = np.ones((len(order), len(order)))
    for i, j in itertools.combinations(range(len(order)), 2):
        delta, null = permutation_sig_diff(scores[order[i]].to_numpy(), scores[order[j]].to_numpy(), y, masks, "b")
        sig[i, j] = np.mean(null >= delta - 1e-9)
    assert table["cluster"].tolist() == assign_ranks(sig, 0.05)
    assert len(set(table["cluster"])) > 1  # the case separates some metrics


# --- system level: pairwise and soft pairwise accuracy -------------------------------------------


def test_pairwise_accuracy_equals_agreement_on_the_system_means():
    rng = np.random.default_rng(17)
    systems, items = list("ABCDE"), 8
    sys = np.repeat(systems, items)
    item = np.tile(np.arange(items), len(systems))
    y = np.round(rng.normal(size=sys.size) + np.repeat(rng.normal(size=len(systems)), items), 1)
    scores = frame(y + rng.normal(scale=0.5, size=sys.size), rng.normal(size=sys.size), np.round(y))
    table = me.system_level(scores, pd.Series(y), sys, np.ones((1, sys.size)), item=item, n_permutations=50)
    table = table.set_index(["metric", "statistic"])
    for metric, x in scores.items():
        mx, my = pd.Series(x.to_numpy()).groupby(sys).mean(), pd.Series(y).groupby(sys).mean()
        agree, pairs = STATS.Agreement(list(my), list(mx))
        assert table.loc[(metric, "pairwise_accuracy"), "value"] == pytest.approx(agree / pairs)


def test_paired_p_values_equal_pce_on_the_same_sign_draws():
    """pce.compute_pairwise_p_values with its draws replaced by ours (integer scores, so its
    float32 sums are exact): p[i, j] for i < j."""
    rng = np.random.default_rng(18)
    V = rng.integers(0, 6, (4, 30)).astype(float)
    signs = np.where(rng.random((200, 30)) < 0.5, 1.0, -1.0)

    class Draws:
        def __init__(self, seed):
            pass

        def random(self, size, dtype):
            return ((signs + 1) / 2).astype(dtype)

    real = PCE.np.random.default_rng
    PCE.np.random.default_rng = Draws
    try:
        want = PCE.compute_pairwise_p_values(V, num_permutations=200)
    finally:
        PCE.np.random.default_rng = real
    got = me._paired_p_values(V, signs)
    upper = np.triu_indices(4, 1)
    assert got[upper] == pytest.approx(want[upper])


def test_order_rows_keep_every_interval_end_whatever_the_others_values():
    """The rows left out by _order_rows may take any value in their bounds: the percentile
    interval of the values stays that of the true values (NaN rows left out)."""
    rng = np.random.default_rng(19)
    for trial in range(200):
        n = int(rng.integers(1, 60))
        true = np.round(rng.normal(size=n), int(rng.integers(0, 3)))
        width = rng.exponential(scale=rng.choice([0.01, 0.3, 2.0]), size=(2, n))
        low, high = true - width[0], true + width[1]
        if trial % 3 == 0:
            gone = rng.random(n) < 0.2
            true[gone] = low[gone] = high[gone] = np.nan
        rows = me._order_rows(low, high, 0.95)
        for fill in (low, high, low + rng.random(n) * (high - low)):
            values = fill.copy()
            values[rows] = true[rows]
            assert resampling.interval(values, 0.95) == resampling.interval(true, 0.95), trial


@pytest.mark.parametrize("split", [0.3, 2.0])
def test_acc23_interval_path_equals_every_resample_on_many_samples(monkeypatch, split):
    """The bounded interval path against every resample searched exactly (itself checked against
    KendallWithTiesOpt above), on samples and halving sizes where the bounds leave some resamples
    inexact near the interval's ends (seed 39 at 0.3: a resample just outside the candidates
    when the full sample is counted among the resamples)."""
    monkeypatch.setattr(me, "_SPLIT", split)
    for seed in (3, 17, 39, 52):
        rng = np.random.default_rng(seed)
        n, R = int(rng.integers(20, 60)), int(rng.integers(40, 200))
        y = rng.integers(0, int(rng.integers(2, 5)), n).astype(float)
        x = y + rng.normal(scale=rng.choice([0.5, 1, 3]), size=n)
        W = me._with_full(resampling.weights(n, R, rng))
        bounded, eps = me._acc23_w(x, y, W, level=0.95)
        exact, eps_exact = me._acc23_w(x, y, W)
        assert bounded[0] == exact[0] and eps[0] == eps_exact[0]
        assert resampling.interval(bounded[1:], 0.95) == resampling.interval(exact[1:], 0.95), seed
