"""The percentile bootstrap shared by every interval in the package.

A replicate draws the examples with replacement. Where a statistic is a function of per-example
sums (span, alignment and Table 6 intervals), a replicate is a row of multinomial weights
applied to the per-example values.
"""

from __future__ import annotations

import numpy as np


def weights(n: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """(n_boot, n) counts: how often each of ``n`` examples is drawn in each replicate."""
    if n == 0:
        return np.zeros((n_boot, 0))
    return rng.multinomial(n, np.full(n, 1 / n), size=n_boot)


def interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """Percentile interval of replicate values, ignoring undefined (NaN) replicates."""
    values = np.asarray(values, float)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return float("nan"), float("nan")
    alpha = (1 - level) / 2
    low, high = np.quantile(values, [alpha, 1 - alpha])
    return float(low), float(high)
