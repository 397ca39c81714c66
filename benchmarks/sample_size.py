"""Sample size: how the cost of resampling grows with the resamples and the corpus, as ratios.

A test set is a weight vector over the examples, so R test sets at each of S sizes cost one
(R*S x N) @ (N x K) product over the per-example count table (K columns: four counts per
reference-hypothesis pair), plus drawing the weights. The count table is built once. Cases:

- resamples: ranking stability of the five LLM campaigns by soft span F1 on the bundled
  corpus, 10 sizes, R from 250 to 4,000 per size (ratios to R = 250);
- corpus size: the same on corpora of k times the 245 stage-2 examples (the count table tiled,
  so the answer is unchanged and only the size grows), test sets of the same fractions of the
  corpus (ratios to k = 1);
- against re-scoring: each test set re-scored from the spans with ``span_f1`` per pair, as a
  naive loop would, against the matrix product (ratio per test set).

    .venv/bin/python benchmarks/sample_size.py
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from hotelcheckspan import load
from hotelcheckspan.analyses import dataset_level
from hotelcheckspan.analyses import sample_size as ss
from hotelcheckspan.annotator_sets import HUMAN_SETS, AnnotatorSet
from hotelcheckspan.metrics.span_f1 import span_f1
from hotelcheckspan.reference.paper import LLM_CAMPAIGNS


def timed(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    corpus = load()
    stage2 = dataset_level.stage2_examples(corpus)
    llms = list(LLM_CAMPAIGNS.values())
    t_table = timed(lambda: ss.judges_f1_table(corpus, llms, HUMAN_SETS, stage2, match="soft"), repeat=1)
    table = ss.judges_f1_table(corpus, llms, HUMAN_SETS, stage2, match="soft")
    n = table.n_examples
    fractions = np.linspace(0.1, 1.0, 10)
    sizes = np.unique((fractions * n).astype(int))

    print(
        f"sample size: ranking stability, {len(llms)} LLM campaigns x {len(HUMAN_SETS)} human sets "
        f"({table.counts.shape[1]} count columns), {len(sizes)} sizes"
    )
    base = None
    for r in (250, 500, 1000, 2000, 4000):
        t = timed(lambda: ss.stability(table, sizes, r, seed=0, replace=False))
        base = base or t
        print(f"  {r:>5,} resamples per size: time x{t / base:.2f} of 250 (resamples x{r / 250:.0f})")
    t1000 = timed(lambda: ss.stability(table, sizes, 1000, seed=0, replace=False))
    print(f"  building the count table once costs x{t_table / t1000:.2f} of 1,000 resamples at every size")

    base = None
    for k in (1, 2, 4, 8):
        big = replace(
            table,
            examples=table.examples.loc[np.tile(np.arange(n), k)].reset_index(drop=True),
            counts=np.tile(table.counts, (k, 1)),
        )
        big_sizes = np.unique((fractions * n * k).astype(int))
        t = timed(lambda: ss.stability(big, big_sizes, 1000, seed=0, replace=False))
        base = base or t
        print(f"  corpus of {n * k:>5,} examples (x{k}), test sets of the same fractions: time x{t / base:.2f} of x1")

    rng = np.random.default_rng(0)
    weights = ss.subset_weights(n, n // 2, 20, rng)
    refs = [s.require(corpus)[1] for s in HUMAN_SETS]
    hyps = [AnnotatorSet.parse(m).require(corpus)[1] for m in llms]

    def naive():
        for w in weights:
            chosen = table.examples.loc[w > 0]
            for hyp in hyps:
                np.mean(
                    [
                        span_f1(ref, hyp, chosen, match="soft", convention=ss.DEFAULT_CONVENTION).iloc[0]["f1"]
                        for ref in refs
                    ]
                )

    t_naive = timed(naive, repeat=1) / len(weights)
    t_matrix = timed(lambda: table.resampled(ss.subset_weights(n, n // 2, 1000, rng))) / 1000
    print(f"  one test set: re-scoring every pair from the spans x{t_naive / t_matrix:,.0f} the matrix product")


if __name__ == "__main__":
    main()
