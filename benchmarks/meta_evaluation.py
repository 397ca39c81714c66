"""Metric meta-evaluation: the shared-resample path against the references called per resample, as ratios.

The case the brief sets: 10 metrics x 1,200 examples x 1,000 bootstrap resamples, the
example-level statistics of ``hotelcheckspan.metrics.meta_evaluation.example_level`` (Kendall
tau-b and tau-c, acc23 with its epsilon re-optimised in every resample, Spearman, Pearson).
Simulated data shaped like the d2t test split: a target with many ties (minus the mean error
spans of one or two human records per text), metrics of decreasing quality, a third of them
rounded to integers (judge-like counts, many ties), the rest continuous.

References, each on the repeated data ``np.repeat(x, w)`` of a resample: scipy's ``kendalltau``
(variants b and c), ``spearmanr`` and ``pearsonr``; for acc23, its definition (mt-metrics-eval's
``tau_optimization`` with ``sample_rate=1``) in plain numpy: all pairs of the repeated data
sorted by score difference, a cumulative sum of their outcomes, the best run end (mt-metrics-eval
itself is not installed here, and its pure-Python search is not timed). The references are
slow, so they run on the first ``--reference`` resamples (default 20) and their time is scaled
to 1,000; the values of both paths on those resamples are checked equal before a ratio is
printed. Also: detection (ROC AUC, average precision) against scikit-learn per resample, and
PERM-BOTH (Kendall tau-b, 1,000 draws) against scipy per permuted pair of hybrids.

Prints ratios (reference time / ours; higher is better; ours the best of two runs) and our
seconds for the whole case. The machine's other load shows in both sides' times.

    .venv/bin/python benchmarks/meta_evaluation.py [--reference N]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
import scipy.stats as sps
from sklearn.metrics import average_precision_score, roc_auc_score
from timing import timed  # noqa: E402  (benchmarks/ is the script's folder)

from hotelcheckspan.metrics import meta_evaluation as me
from hotelcheckspan.metrics import resampling

N, METRICS, RESAMPLES = 1200, 10, 1000


def simulated(seed: int = 0) -> tuple[pd.DataFrame, pd.Series]:
    rng = np.random.default_rng(seed)
    records = rng.integers(1, 3, N)
    errors = rng.poisson(0.8, (N, 2))
    target = -np.where(records == 1, errors[:, 0], errors.mean(axis=1))
    columns = {}
    for m in range(METRICS):
        x = target + rng.normal(scale=0.6 + 0.4 * m, size=N)
        columns[f"metric{m}"] = np.round(x) if m % 3 == 0 else x
    return pd.DataFrame(columns), pd.Series(target, name="target")


def acc23_numpy(x: np.ndarray, y: np.ndarray) -> float:
    """acc23 at the best epsilon on one data set, by its definition, in plain numpy."""
    i, j = np.triu_indices(x.size, 1)
    dx, sy = x[i] - x[j], np.sign(y[i] - y[j])
    d = np.abs(dx)
    order = np.argsort(d, kind="stable")
    v = ((sy == 0).astype(np.int64) - (np.sign(dx) * sy > 0))[order]
    ends = np.r_[d[order][1:] != d[order][:-1], True]
    best = max(0, int(np.cumsum(v)[ends].max()))
    return (int((np.sign(dx) * sy > 0).sum()) + best) / d.size


REFERENCES = {
    "kendall_tau_b": lambda x, y: sps.kendalltau(x, y).statistic,
    "kendall_tau_c": lambda x, y: sps.kendalltau(x, y, variant="c").statistic,
    "acc23": acc23_numpy,
    "spearman": lambda x, y: sps.spearmanr(x, y).statistic,
    "pearson": lambda x, y: sps.pearsonr(x, y).statistic,
}


def reference(statistic, scores, target, W):
    x_all, y = scores.to_numpy().T, target.to_numpy()
    return np.array([[REFERENCES[statistic](np.repeat(x, w), np.repeat(y, w)) for w in W.astype(int)] for x in x_all])


def ours_on(statistic, scores, target, W):
    """Our per-resample values (the internal the public call computes its interval from)."""
    y = target.to_numpy()
    return np.array([me._replicates(statistic, x, y, W)[0] for x in scores.to_numpy().T])


def bench_example_level(n_reference: int) -> None:
    scores, target = simulated()
    W = resampling.weights(N, RESAMPLES, np.random.default_rng(1))
    sub = W[:n_reference]
    print(
        f"  example level, {METRICS} metrics x {N:,} examples x {RESAMPLES:,} resamples "
        f"(references on {n_reference} resamples, scaled to {RESAMPLES:,}):"
    )
    total_ours = total_ref = 0.0
    for statistic in me.EXAMPLE_STATISTICS:
        t_ref, want = timed(lambda: reference(statistic, scores, target, sub))
        got = ours_on(statistic, scores, target, sub)
        assert np.allclose(got, want, rtol=0, atol=1e-10), f"{statistic}: ours and the reference disagree"
        t_ours, _ = timed(lambda: me.example_level(scores, target, W, statistics=(statistic,)), repeat=2)
        scaled = t_ref * RESAMPLES / n_reference
        total_ours, total_ref = total_ours + t_ours, total_ref + scaled
        name = "numpy per resample" if statistic == "acc23" else "scipy per resample"
        print(
            f"    {statistic:<14} {name} x{scaled / t_ours:,.0f} (ours {t_ours:.2f} s; "
            f"identical on the {n_reference} compared)",
            flush=True,
        )
    t_all, _ = timed(lambda: me.example_level(scores, target, W))
    print(
        f"    all five in one example_level call: {t_all:.1f} s; the references together x{total_ref / t_all:,.0f}",
        flush=True,
    )


def bench_detection(n_reference: int) -> None:
    scores, target = simulated(2)
    err = pd.Series(target.to_numpy() < -0.5)
    W = resampling.weights(N, RESAMPLES, np.random.default_rng(3))
    sub = W[:n_reference].astype(int)
    e = err.to_numpy()
    for statistic, fn in (("roc_auc", roc_auc_score), ("average_precision", average_precision_score)):

        def ref():
            return np.array([[fn(np.repeat(e, w), -np.repeat(x, w)) for w in sub] for x in scores.to_numpy().T])

        t_ref, want = timed(ref)
        got = np.array([me._replicates(statistic, x, e.astype(float), sub)[0] for x in scores.to_numpy().T])
        assert np.allclose(got, want, rtol=0, atol=1e-10), f"{statistic}: ours and scikit-learn disagree"
        t_ours, _ = timed(lambda: me.detection(scores, err, W, statistics=(statistic,)))
        print(
            f"  detection {statistic}: scikit-learn per resample x{t_ref * RESAMPLES / n_reference / t_ours:,.0f} "
            f"(ours {t_ours:.2f} s; identical on the {n_reference} compared)",
            flush=True,
        )


def bench_permutation(n_reference: int) -> None:
    scores, target = simulated(4)
    y = target.to_numpy()
    a, b = scores["metric0"].to_numpy(), scores["metric1"].to_numpy()
    za, zb = sps.zscore(a), sps.zscore(b)
    masks = np.random.default_rng(0).random((1000, N)) < 0.5

    def ref():
        return np.array(
            [
                sps.kendalltau(np.where(m, za, zb), y).statistic - sps.kendalltau(np.where(m, zb, za), y).statistic
                for m in masks[: n_reference * 5]
            ]
        )

    t_ref, want = timed(ref)
    got = me._perm_both("kendall_tau_b", a, b, y, 1000, 0, 5)[3][: n_reference * 5]
    assert np.allclose(got, want, rtol=0, atol=1e-10), "PERM-BOTH: ours and scipy disagree"
    t_ours, _ = timed(lambda: me.permutation_test(scores, target, "metric0", "metric1", "kendall_tau_b"))
    print(
        f"  PERM-BOTH, Kendall tau-b, 1,000 draws: scipy per draw x{t_ref * 1000 / (n_reference * 5) / t_ours:,.0f} "
        f"(ours {t_ours:.2f} s; identical on the {n_reference * 5} compared)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=int, default=20, help="resamples the references run on (default 20)")
    args = parser.parse_args()
    print(
        "metric meta-evaluation: shared-resample path vs references (ratio = reference time / ours; higher is better)"
    )
    bench_example_level(args.reference)
    bench_detection(args.reference)
    bench_permutation(args.reference)


if __name__ == "__main__":
    main()
