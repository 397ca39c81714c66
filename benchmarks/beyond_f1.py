"""The beyond-F1 measures, every pair at once, against the per-pair path they replaced, as ratios.

The per-pair path is the package's code as it was (``tests/beyond_f1_reference.py``: γ one
example and one chance draw at a time, the boundary schemes span by span, one ``pearsonr`` per
series, the corpus filtered again for every pair); both run side by side in one process on:

* the real corpus (``data/span-annotation-d2t-iaa``, chapter 08's comparisons: 12 texts, 29
  human groups and six LLMs, 580 pairs of annotator sets): γ (hard, as ``factgenie iaa gamma``),
  the boundary schemes and error-count correlations (``span_measures.pairs``), their bootstrap
  table (1,000 replicates) and ``span_level.iter_pairs``;
* the bundled corpus (Table 6's comparisons, chapter 04): the same, γ hard and soft.

Every value is checked equal, bit for bit, before a ratio is printed (reference time / ours;
higher is better). The per-pair path runs once (about a minute on the real corpus), ours is the
best of three runs. The γ benchmark against pygamma and factgenie is ``benchmarks/gamma.py``.

    .venv/bin/python benchmarks/beyond_f1.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import beyond_f1_reference as reference  # noqa: E402
from timing import timed  # noqa: E402  (benchmarks/ is the script's folder)

from hotelcheckspan import corpora, paths  # noqa: E402
from hotelcheckspan.analyses import judges, span_gamma, span_level, span_measures  # noqa: E402
from hotelcheckspan.metrics import boundaries  # noqa: E402


def same_frames(ours, theirs, what: str) -> None:
    for a, b in zip(ours, theirs):
        pd.testing.assert_frame_equal(a, b, check_exact=True, obj=what)


def same_measures(ours, theirs) -> None:
    pd.testing.assert_frame_equal(ours[0], theirs[0], check_exact=True, obj="span_measures.pairs")
    assert len(ours[1]) == len(theirs[1])
    for a, b in zip(ours[1], theirs[1]):
        pd.testing.assert_frame_equal(a["examples"], b["examples"])
        assert np.array_equal(a["f1"], b["f1"]) and np.array_equal(a["sums"], b["sums"])
        assert all(np.array_equal(a["schemes"][s], b["schemes"][s]) for s in boundaries.SCHEMES)


def line(what: str, t_ref: float, t_ours: float) -> None:
    print(f"    {what}: x{t_ref / t_ours:,.0f} (identical)", flush=True)


def bench(label: str, corpus, comparisons, softs) -> None:
    n = sum(1 for _ in span_level.iter_pairs(corpus, comparisons))
    print(f"  {label}, {n} pairs of annotator sets:", flush=True)
    t_ref, theirs = timed(lambda: list(reference.iter_pairs(corpus, comparisons)))
    t_ours, ours = timed(lambda: list(span_level.iter_pairs(corpus, comparisons)), repeat=3)
    for a, b in zip(ours, theirs):
        assert a[:3] == b[:3]
        same_frames(a[3:], b[3:], "iter_pairs")
    line("iter_pairs, each pair's spans and examples", t_ref, t_ours)
    for soft in softs:
        t_ref, theirs = timed(lambda: reference.gamma_pairwise(corpus, comparisons, soft=soft))
        t_ours, ours = timed(lambda: span_gamma.pairwise(corpus, comparisons, soft=soft), repeat=3)
        same_frames(ours, theirs, "span_gamma.pairwise")
        n_gamma = int(ours[0]["gamma_examples"].sum())
        line(f"γ ({'soft' if soft else 'hard'}) of every pair, {n_gamma} examples with a γ", t_ref, t_ours)
    t_ref, theirs = timed(lambda: reference.measures_pairs(corpus, comparisons))
    t_ours, ours = timed(lambda: span_measures.pairs(corpus, comparisons), repeat=3)
    same_measures(ours, theirs)
    line("boundary schemes and error-count correlations of every pair", t_ref, t_ours)
    t_ref, table_ref = timed(lambda: reference.measures_table(*theirs, n_boot=1000))
    t_ours, table = timed(lambda: span_measures.table(*ours, n_boot=1000), repeat=3)
    pd.testing.assert_frame_equal(table, table_ref, check_exact=True)
    line("their table with 1,000 bootstrap replicates", t_ref, t_ours)


def main() -> None:
    print("Beyond-F1 measures: every pair at once vs the per-pair path (ratio = per-pair time / ours)")
    real = corpora.load(paths.REAL_CORPUS)
    bench("real corpus (chapter 08)", real, judges.comparisons(real), softs=(False,))
    bench("bundled corpus (Table 6, chapter 04)", corpora.load(paths.BUNDLED_CORPUS), None, softs=(False, True))


if __name__ == "__main__":
    main()
