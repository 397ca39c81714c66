"""The benchmarks' one stopwatch: the best of a few runs, and what the last run returned."""

from __future__ import annotations

import time


def timed(fn, repeat: int = 1):
    """``(best seconds over repeat runs, fn's result)``."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result
