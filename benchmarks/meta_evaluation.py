"""Metric meta-evaluation against mt-metrics-eval's own functions, side by side in one process, as
ratios; then the whole ``evaluate_metric`` of chapter 11 on the d2t test split (our seconds).

Data: the d2t test split (1,200 texts; targets ``errors`` and ``error_free``), the metrics of
chapter 11 (six judges, bundled baselines), 1,000 resamples plus the full sample. For each
statistic, mt-metrics-eval's function (``tests/mteval_reference.py``: the shared reference
folder's ``stats.py``; skipped without it) runs on the repeated data ``np.repeat(x, w)`` of the
first resamples, its time scaled to all of them, and its values are checked equal to ours on
those resamples before a ratio is printed:

* Kendall tau-b and tau-c: ``KendallVariants`` per resample; ours ``example_level``;
* acc23 with epsilon re-optimised per resample: ``KendallWithTiesOpt(sample_rate=1)`` per
  resample (seconds a call: it runs on one resample); ours ``example_level`` (which computes
  exactly only the resamples that can be its interval's ends) and every resample exactly;
* the random baseline's acc23: ``KendallWithTiesOpt`` per permutation of the scores;
* PERM-BOTH (Kendall tau-b, 1,000 draws): ``PermutationSigDiff`` fed our swap masks; ours
  ``permutation_test``; and all 78 pairs of chapter 11's clusters (``significance``) against
  the reference's per-pair time times 78;
* system-level pairwise accuracy: ``Agreement`` on the system means of each resample of the
  inputs; ours on all resamples at once, the same means.

Ratio = reference seconds (scaled) / ours; higher is better. The machine's other load shows in
both sides' times; CPU seconds are printed for the whole evaluation too.

    .venv/bin/python benchmarks/meta_evaluation.py [--resamples N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from timing import timed  # noqa: E402  (benchmarks/ is the script's folder)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from mteval_reference import STATS, permutation_sig_diff  # noqa: E402

import hotelcheckspan  # noqa: E402
from hotelcheckspan import paths  # noqa: E402
from hotelcheckspan.analyses import metric_targets  # noqa: E402
from hotelcheckspan.analyses import metric_validation as mv  # noqa: E402
from hotelcheckspan.corpora import KEY  # noqa: E402
from hotelcheckspan.metrics import meta_evaluation as me  # noqa: E402
from hotelcheckspan.metrics import resampling  # noqa: E402

BOOT = 1000


def rep(values, w):
    return np.repeat(np.asarray(values), np.asarray(w).astype(int))


def line(statistic: str, case: str, reference: float, ours: float, equal: bool, note: str = "") -> None:
    print(
        f"  {statistic:<30} {case:<34} {reference:>9.2f} {ours:>8.3f} {reference / ours:>9,.0f}x  "
        f"{'yes' if equal else 'NO':<5} {note}",
        flush=True,
    )


def corpus():
    real = hotelcheckspan.load(paths.real_corpus_dir(paths.REAL_TEST_CORPUS))
    baselines, _ = mv.bundled_baselines(real)
    return real, baselines


def bench_example_level(data: pd.DataFrame, n_ref: int) -> None:
    W = resampling.weights(len(data), BOOT, np.random.default_rng(0))
    Wf = me._with_full(W)
    for target in ("errors", "error_free"):
        y = data[target].astype(float).to_numpy()
        for metric in ("o3-mini", "rouge1_precision", "minilm_support"):
            x = data[metric].to_numpy(float)
            case = f"{metric} / {target}"
            for statistic, variant in (("kendall_tau_b", "b"), ("kendall_tau_c", "c")):
                t_ref, want = timed(
                    lambda: [STATS.KendallVariants(rep(y, w), rep(x, w), variant=variant)[0] for w in Wf[:n_ref]]
                )
                t_ours, table = timed(
                    lambda: me.example_level(data[[metric]], data[target].astype(float), W, statistics=(statistic,))
                )
                got = me._kendall_w(x, y, Wf[:n_ref])[0 if variant == "b" else 1]
                equal = np.allclose(got, want, rtol=0, atol=1e-12, equal_nan=True)
                line(statistic, case, t_ref * (BOOT + 1) / n_ref, t_ours, equal)
            # acc23: one resample of the reference takes seconds
            t_ref, (tau, eps, _) = timed(
                lambda: STATS.KendallWithTiesOpt(rep(y, Wf[1]), rep(x, Wf[1]), variant="acc23", sample_rate=1.0)
            )
            t_ours, _ = timed(
                lambda: me.example_level(data[[metric]], data[target].astype(float), W, statistics=("acc23",))
            )
            t_all, (values, epsilons) = timed(lambda: me._acc23_w(x, y, Wf))
            equal = abs(values[1] - tau) < 1e-12 and epsilons[1] == eps
            line("acc23 (example_level)", case, t_ref * (BOOT + 1), t_ours, equal)
            line("acc23 (every resample exact)", case, t_ref * (BOOT + 1), t_all, equal)


def bench_random_acc23(data: pd.DataFrame) -> None:
    for target in ("errors", "error_free"):
        y = data[target].astype(float).to_numpy()
        for m, metric in enumerate(("o3-mini", "minilm_support")):
            x = data[metric].to_numpy(float)
            perms = np.random.default_rng([0, m]).random((200, x.size)).argsort(axis=1)
            t_ref, (tau, _, _) = timed(
                lambda: STATS.KendallWithTiesOpt(y, x[perms[0]], variant="acc23", sample_rate=1.0)
            )
            t_ours, values = timed(lambda: me._acc23_permuted(x, y, perms))
            line(
                "random baseline acc23 (200)", f"{metric} / {target}", t_ref * 200, t_ours, abs(values[0] - tau) < 1e-12
            )


def bench_perm_both(data: pd.DataFrame, kinds: dict, n_ref: int) -> None:
    y = data["errors"].astype(float)
    first, second = "o3-mini", "rouge1_precision"
    a, b = data[first].to_numpy(float), data[second].to_numpy(float)
    draws = me._draws(1000, len(y), 0)
    t_ref, (delta, null) = timed(lambda: permutation_sig_diff(a, b, y.to_numpy(), draws[0][:n_ref]))
    t_ours, _ = timed(
        lambda: me.permutation_test(data[[first, second]], y, first, second, "kendall_tau_b", n_permutations=1000)
    )
    _, _, ours_delta, ours_null = me._perm_both("kendall_tau_b", a, b, y.to_numpy(), draws, 5, 0)
    equal = abs(ours_delta - delta) < 1e-12 and np.allclose(ours_null[:n_ref], null, rtol=0, atol=1e-12)
    per_pair = t_ref * 1000 / n_ref
    line("PERM-BOTH tau-b (1,000 draws)", f"{first} vs {second}", per_pair, t_ours, equal)
    names = list(kinds)
    pairs = len(names) * (len(names) - 1) // 2
    t_sig, _ = timed(lambda: me.significance(data[names], y, "kendall_tau_b", n_permutations=1000))
    line(
        f"significance ({pairs} pairs)",
        "chapter 11's clusters",
        per_pair * pairs,
        t_sig,
        equal,
        "(ref: per pair x pairs)",
    )


def bench_system_level(data: pd.DataFrame, n_ref: int) -> None:
    """Pairwise accuracy over the systems' means in each resample of the inputs (the means
    computed once for both sides)."""
    system, item = mv.systems(data)
    codes, systems = pd.factorize(system, sort=True)
    Wf = me._with_full(me.cluster_weights(item, BOOT, np.random.default_rng(0)))
    y = data["errors"].astype(float).to_numpy()
    x = data["rouge1_precision"].to_numpy(float)
    mx, my, _ = me._within_systems(x, y, codes, len(systems), np.ascontiguousarray(Wf.T))
    t_ref, want = timed(lambda: [np.divide(*STATS.Agreement(list(b), list(a))) for a, b in zip(mx[:n_ref], my)])
    t_ours, got = timed(lambda: me._masked_pairwise_accuracy(mx, my))
    line(
        "system pairwise accuracy",
        "rouge1_precision / errors",
        t_ref * (BOOT + 1) / n_ref,
        t_ours,
        np.allclose(got[:n_ref], want, rtol=0, atol=1e-12),
        f"({len(systems)} systems' means)",
    )


def bench_evaluate(real, baselines) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    hotelcheckspan.evaluate_metric(real, baselines=baselines)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"  evaluate_metric on the d2t test split, as chapter 11 calls it: {wall:.1f} s ({cpu:.1f} s of CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resamples", type=int, default=20, help="resamples the quick references run on (default 20)")
    args = parser.parse_args()
    real, baselines = corpus()
    if STATS is None:
        print("mt-metrics-eval's reference folder is absent: only our evaluation is timed")
    else:
        metrics, kinds = mv.metric_frame(real, None, baseline_names=baselines)
        data = metric_targets.human_targets(real).merge(metrics, on=KEY, how="left")
        print(
            "metric statistics vs mt-metrics-eval's own functions, d2t test split (ratio = reference / ours)\n"
            f"  {'statistic':<30} {'case':<34} {'ref s':>9} {'ours s':>8} {'ratio':>10}  equal"
        )
        bench_example_level(data, args.resamples)
        bench_random_acc23(data)
        bench_perm_both(data, kinds, args.resamples * 5)
        bench_system_level(data, args.resamples * 10)
    bench_evaluate(real, baselines)


if __name__ == "__main__":
    main()
