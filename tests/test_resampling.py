"""One bootstrap under every interval: the weights of a set of examples depend on those examples
and the seed alone, so a judge's interval is the same whatever else is in the run and whatever
its folder is called."""

import shutil

import numpy as np
import pandas as pd
import pytest

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import example_level, judges, metric_validation
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import resampling

INTERVALS = ["f1_soft_low", "f1_soft_high", "f1_hard_low", "f1_hard_high", "bacc_low", "bacc_high"]


def keys(n: int) -> pd.DataFrame:
    return pd.DataFrame({"dataset": "d", "split": "s", "setup_id": "x", "example_idx": range(n)})


def test_weights_are_multinomial_counts_of_the_examples():
    w = resampling.matrix(keys(30), 4000, seed=0)
    assert w.shape == (4000, 30) and (w.sum(axis=1) == 30).all() and (w >= 0).all()
    assert np.allclose(w.mean(axis=0), 1, atol=0.1)  # each example drawn once per replicate on average
    assert np.var(w[:, 0]) == pytest.approx(30 * (1 / 30) * (29 / 30), rel=0.1)  # binomial(n, 1/n)


def test_weights_follow_the_examples_not_their_order():
    ex = keys(25)
    shuffled = ex.sample(frac=1, random_state=3).reset_index(drop=True)
    a, b = resampling.matrix(ex, 50, seed=1), resampling.matrix(shuffled, 50, seed=1)
    at = pd.MultiIndex.from_frame(ex).get_indexer(pd.MultiIndex.from_frame(shuffled))
    assert np.array_equal(a[:, at], b)


def test_other_examples_or_another_seed_give_other_weights():
    base = resampling.matrix(keys(25), 50, seed=1)
    assert not np.array_equal(base, resampling.matrix(keys(25), 50, seed=2))
    other = keys(25).assign(example_idx=range(1, 26))
    assert not np.array_equal(base, resampling.matrix(other, 50, seed=1))
    assert resampling.matrix(keys(0), 7).shape == (7, 0)


@pytest.fixture(scope="module")
def iaa_with_copy(tmp_path_factory):
    """The bundled d2t iaa split, and a copy of it with one judge's folder copied under another name."""
    root = tmp_path_factory.mktemp("iaa") / "corpus"
    shutil.copytree(paths.REAL_CORPUS, root)
    model = root / "annotations" / "model" / "d2t-eval" / "iaa"
    shutil.copytree(model / "zeroshot-gpt4o", model / "zeroshot-gpt4o-again")
    return hotelcheckspan.load(paths.REAL_CORPUS), hotelcheckspan.load(root)


def test_a_judge_copied_under_another_name_gets_the_same_intervals(iaa_with_copy):
    _, copied = iaa_with_copy
    names = {j for j in judges.judges(copied) if j.startswith("zeroshot-gpt4o")}
    assert len(names) == 2
    board = judges.leaderboard(copied, distinguish=False, n_boot=200).set_index("judge")
    first, second = (board.loc[n, ["f1_soft", *INTERVALS, "bacc"]].astype(float) for n in sorted(names))
    pd.testing.assert_series_equal(first, second, check_names=False)


def test_a_judge_s_intervals_do_not_depend_on_the_other_judges(iaa_with_copy):
    plain, copied = iaa_with_copy
    alone = judges.leaderboard(plain, ["zeroshot-llama3-3"], distinguish=False, n_boot=200).set_index("judge")
    every = judges.leaderboard(plain, distinguish=False, n_boot=200).set_index("judge")
    more = judges.leaderboard(copied, distinguish=False, n_boot=200).set_index("judge")
    for board in (every, more):
        pd.testing.assert_series_equal(
            alone.loc["zeroshot-llama3-3", INTERVALS].astype(float),
            board.loc["zeroshot-llama3-3", INTERVALS].astype(float),
        )


def test_table5_intervals_of_a_model_do_not_depend_on_the_models_beside_it(corpus):
    stage2 = judges.default_examples(corpus)
    both = example_level.models_vs_majority(corpus, ["gpt-4o", "gemma-3"], examples=stage2, n_boot=200)
    alone = example_level.models_vs_majority(corpus, ["gemma-3"], examples=stage2, n_boot=200)
    pd.testing.assert_frame_equal(both[both["model"] == "gemma-3"].reset_index(drop=True), alone)


def test_a_metric_s_intervals_do_not_depend_on_the_other_metrics(iaa_with_copy):
    plain, copied = iaa_with_copy
    kw = {"n_boot": 100, "n_random": 10, "cluster_on": None, "system_level": False}
    one = metric_validation.evaluate(plain, **kw).statistics
    two = metric_validation.evaluate(copied, **kw).statistics
    cols = ["target", "statistic", "value", "low", "high"]
    mine = one[one["metric"] == "zeroshot-llama3-3"][cols].reset_index(drop=True)
    pd.testing.assert_frame_equal(mine, two[two["metric"] == "zeroshot-llama3-3"][cols].reset_index(drop=True))


def test_examples_needed_reads_the_counts_table6_used(corpus):
    """The leaderboard's neighbour answer is the planning function's on the same judges."""
    from hotelcheckspan.analyses import sample_size

    board = judges.leaderboard(corpus, ["gpt-4o", "gemma-3"], n_boot=50, n_resamples=100, n_outer=10, n_inner=40)
    plan = sample_size.examples_needed(
        corpus,
        "gpt-4o",
        "gemma-3",
        judges.references(corpus),
        examples=judges.default_examples(corpus)[KEY],
        n_resamples=100,
        n_outer=10,
        n_inner=40,
    )
    top = board.iloc[0]
    assert (top["n_needed"], top["n_low"], top["n_high"]) == (plan["n_needed"], plan["n_low"], plan["n_high"])


def test_the_full_sample_row_is_the_matrix_s_own_and_detection_copies_no_columns():
    """The statistics' first row of ones (the full sample) is the array under the drawn matrix,
    not a copy of it; and a detection statistic of some of the examples, its columns taken block
    by block, equals the same statistic on a copy of those columns."""
    from hotelcheckspan.metrics import meta_evaluation as me

    units = pd.DataFrame({"key": [f"t{i}" for i in range(300)]})
    W = resampling.matrix(units, 150, seed=3)
    full = me._with_full(W)
    assert np.shares_memory(full, W) and full.shape == (151, 300)
    assert np.array_equal(full, np.vstack([np.ones((1, 300)), W]))
    assert not W.flags.writeable and not full.flags.writeable
    copied = np.array(W)  # a matrix from elsewhere still gets its row, as a copy
    assert not np.shares_memory(me._with_full(copied), copied)

    rng = np.random.default_rng(0)
    x, pos = rng.normal(size=300).round(1), (rng.random(300) < 0.4).astype(float)
    keep = rng.random(300) < 0.7
    for statistic in ("roc_auc", "average_precision", "bacc"):
        blocked, _ = me._replicates(statistic, x[keep], pos[keep], full, columns=keep)
        copied_columns, _ = me._replicates(statistic, x[keep], pos[keep], np.compress(keep, full, axis=1))
        assert np.array_equal(blocked, copied_columns, equal_nan=True), statistic


def test_the_transpose_lives_while_statistics_run_on_the_weights_and_goes_after():
    """Statistics running at once on one weights matrix share its transpose; once the last of
    them returns it is dropped (at scale it is as large as the matrix)."""
    from hotelcheckspan.metrics import meta_evaluation as me

    W = resampling.matrix(pd.DataFrame({"key": [f"u{i}" for i in range(40)]}), 30, seed=5)
    full = me._with_full(W)

    def held() -> int:
        return sum(entry[0]() is full for entry in me._DERIVED)

    with me._deriving(full):
        with me._deriving(full):
            first = me._transposed(full)
            assert me._transposed(full) is first and held() == 1
        assert held() == 1  # the outer one still runs
    assert held() == 0
    x = np.arange(40.0) % 7
    before = me.example_level(pd.DataFrame({"m": x}), x % 3, W)
    assert held() == 0 and before["value"].notna().all()
