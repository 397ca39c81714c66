"""mt-metrics-eval's statistics (``stats.py``, ``pce.py``, ``tau_optimization.py``), the oracle of
the metric statistics' tests and benchmark, from the shared reference folder (beside the clone, as
CI puts it, or /work/shared; see its SOURCE.md). Never imported by the package. ``STATS`` and
``PCE`` are None where the folder is absent (the tests then skip)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def _folder() -> Path | None:
    for root in (Path(__file__).resolve().parents[2] / "shared", Path("/work/shared")):
        folder = root / "reference" / "mt-metrics-eval"
        if (folder / "mt_metrics_eval" / "stats.py").is_file():
            return folder
    return None


FOLDER = _folder()
STATS = PCE = None
if FOLDER is not None:
    sys.path.insert(0, str(FOLDER))
    from mt_metrics_eval import pce as PCE  # noqa: F401, N812
    from mt_metrics_eval import stats as STATS  # noqa: F401, N812


def permutation_sig_diff(first, second, y, masks, variant="b"):
    """mt-metrics-eval's PermutationSigDiff (KendallVariants, no early stopping) with its swap
    draws replaced by ``masks`` (a set mask: the first metric's score goes to its hybrid), as
    ComputeSigMatrix calls it: p-value that ``first`` beats ``second``. Returns (delta, hybrid
    deltas)."""
    draws = iter(masks.astype(int))
    real = STATS.np.random.binomial
    STATS.np.random.binomial = lambda n, p, size: next(draws)
    try:
        corr_first, corr_second = (STATS.Correlation(1, list(y), list(v)) for v in (first, second))
        params = STATS.PermutationSigDiffParams(block_size=len(masks))
        _, delta, _, corrs = STATS.PermutationSigDiff(
            corr_second, corr_first, STATS.KendallVariants, k=len(masks), params=params, variant=variant
        )
    finally:
        STATS.np.random.binomial = real
    return delta, np.array([c2 - c1 for c2, c1 in corrs])
