"""Scoring a judge (``hotelcheckspan judge``): the one-pass computation against the way it was
computed before, side by side in one process, as ratios.

Before, ``judges.evaluate`` computed its Table 6 rows, then called the leaderboard, which
computed its own span counts for every pair again, the models' agreement with the majority again
and the ceiling's, and bootstrapped Table 6 one pair at a time (a dense product per pair). Now
:class:`~hotelcheckspan.analyses.judges.Scored` counts each pair once and bootstraps all pairs
of a comparison in one sparse product. The reference below is that former path, built from the
same public functions (``span_level.pairwise`` per view, ``models_vs_majority`` per view, the
former per-pair Table 6 bootstrap copied here); the span F1 and the Table 5 rows are checked
equal (to the last bit: the counts are integers) before a ratio is printed.

    .venv/bin/python benchmarks/judges.py
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from timing import timed  # noqa: E402  (benchmarks/ is the script's folder)

from hotelcheckspan import load, paths
from hotelcheckspan.analyses import example_level, judges, span_level
from hotelcheckspan.metrics import resampling
from hotelcheckspan.metrics.span_f1 import COUNT_COLUMNS, prf


def per_pair_table6(pairs, counts, n_boot=1000, seed=0, level=0.95) -> pd.DataFrame:
    """Table 6 as it was bootstrapped before: one dense product per pair (the former loop)."""
    rng = np.random.default_rng(seed)
    rows = counts["row"].to_numpy()
    codes = counts["code"].to_numpy()
    values = counts[COUNT_COLUMNS[:4]].to_numpy(float)
    out = []
    for (comp, match), grp in pairs.groupby(["comparison", "match"], sort=False):
        sel = np.isin(rows, grp.index.to_numpy())
        uniq, pos = np.unique(codes[sel], return_inverse=True)
        weights = resampling.weights(uniq.size, n_boot, rng)
        per_pair = []
        for row in np.unique(rows[sel]):
            in_row = rows[sel] == row
            mat = np.zeros((uniq.size, 4))
            mat[pos[in_row]] = values[sel][in_row]
            per_pair.append(np.stack(prf(*(weights @ mat).T)))
        reps = np.mean(per_pair, axis=0) if per_pair else None
        compared = grp[grp["examples"] > 0]
        row = {"comparison": comp, "match": match, "pairs": len(compared)}
        for i, m in enumerate(("precision", "recall", "f1")):
            row[m] = float(compared[m].mean()) if len(compared) else np.nan
            row[f"{m}_low"], row[f"{m}_high"] = resampling.interval(reps[i], level) if per_pair else (np.nan, np.nan)
        out.append(row)
    return pd.DataFrame(out)


def former(corpus, judge: str) -> dict:
    """``evaluate`` as it was: every view computes what it needs."""
    names = judges.judges(corpus)
    examples = judges.default_examples(corpus)
    refs = judges.references(corpus)
    raters, min_agree = judges.majority_raters(corpus, refs)
    t5 = example_level.models_vs_majority(corpus, names, raters=raters, examples=examples, min_agree=min_agree)
    comps = judges.comparisons(corpus)
    t6 = per_pair_table6(*span_level.pairwise(corpus, comps))
    board_f1 = per_pair_table6(*span_level.pairwise(corpus, judges._board_comparisons(names, refs, examples)))
    example_level.models_vs_majority(corpus, names, raters=raters, examples=examples, min_agree=min_agree)
    judges._bacc_ceiling(corpus, raters, examples, min_agree, 1000, 0)
    return {"table5": t5[t5["model"] == judge].reset_index(drop=True), "table6": t6, "f1": board_f1}


def main() -> None:
    print("judge scoring: one pass (Scored) against the former per-view path, equal values first")
    for root, judge in ((paths.REAL_TEST_CORPUS, "gpt4o"), (paths.REAL_CORPUS, "zeroshot-gpt4o"), (None, "gpt-4o")):
        corpus = load(root)
        t_old, old = timed(lambda: former(corpus, judge), repeat=2)
        t_new, new = timed(lambda: judges.evaluate(corpus, judge), repeat=2)
        scored = judges.Scored(corpus, judges.judges(corpus), judges.default_examples(corpus), 1000, 0)
        pd.testing.assert_frame_equal(new["table5"], old["table5"], check_exact=True)
        mine = old["table6"][old["table6"]["comparison"].isin(set(new["table6"]["comparison"]))].reset_index(drop=True)
        pd.testing.assert_frame_equal(new["table6"], mine, check_exact=True)
        pd.testing.assert_frame_equal(scored.f1, old["f1"], check_exact=True)
        name = (root or paths.BUNDLED_CORPUS).name
        print(
            f"  {name} ({len(corpus.examples):,} examples, {len(judges.judges(corpus))} judges, "
            f"{len(judges.references(corpus))} human sets): former / one pass x{t_old / t_new:.1f} "
            "(Table 5, Table 6 and the leaderboard's F1 equal)"
        )


if __name__ == "__main__":
    main()
