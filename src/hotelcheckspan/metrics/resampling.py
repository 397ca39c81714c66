"""The one bootstrap under every interval of the package.

Every estimate is a function of per-example sufficient statistics summed over examples (span
overlaps and lengths, confusion counts, metric scores and targets), so a bootstrap replicate is
a row of multinomial weights over the examples and every replicate of every statistic is one
matrix product ``weights @ statistics``.

The weights of a set of examples depend on nothing but those examples (their keys) and the seed:
:func:`matrix` derives its random stream from a digest of the sorted keys, and draws in that
sorted order. The same examples therefore get the same replicates in every run and every output,
whatever else is in the run (another judge, a judge's folder name, the order in which frames
list the examples): a judge's interval is a property of the judge and its examples.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np
import pandas as pd


def _unit_labels(units) -> np.ndarray:
    """One text label per unit: a frame's row (its columns joined) or a sequence's item."""
    if isinstance(units, pd.DataFrame):
        if units.shape[1] == 0:
            return np.array(["" for _ in range(len(units))], dtype=object)
        cols = [units[c].astype(str).to_numpy(dtype=object) for c in units.columns]
        out = cols[0]
        for col in cols[1:]:
            out = out + "\x1f" + col
        return np.asarray(out, dtype=object)
    return np.array([str(u) for u in units], dtype=object)


def seed_sequence(units, seed: int = 0) -> np.random.SeedSequence:
    """The random stream of a set of units: the seed and a SHA-256 digest of the sorted unit
    labels (:func:`matrix`)."""
    labels = np.sort(_unit_labels(units))
    digest = hashlib.sha256("\n".join(labels).encode("utf-8")).digest()
    words = np.frombuffer(digest, dtype=np.uint32).tolist()
    return np.random.SeedSequence([int(seed), *words])


_KEPT: OrderedDict = OrderedDict()  # the last matrices drawn (a run asks for one set of units many times)
KEEP = 2  # matrices kept: at a hundred times the d2t test split one is 1,000 x 120,000 doubles, ~1 GB
_SEEN: OrderedDict = OrderedDict()  # fingerprint of units as given -> their key in _KEPT


def _fingerprint(units) -> bytes | None:
    """A cheap digest of ``units`` as given (values, dtypes and order), to find a kept matrix
    without computing the units' labels; None where there is none (labels are computed)."""
    if isinstance(units, pd.DataFrame):
        rows = pd.util.hash_pandas_object(units, index=False).to_numpy()
        what = repr((list(units.columns), [str(t) for t in units.dtypes]))
    else:
        rows = np.asarray(units)
        if rows.dtype.kind not in "iu":
            return None
        what = rows.dtype.str
    return hashlib.sha256(what.encode("utf-8") + rows.tobytes()).digest()


def matrix(units, n_boot: int, seed: int = 0) -> np.ndarray:
    """(n_boot, n) float counts: how often each of ``units`` (a frame of example keys, one row per
    example, or a sequence of labels) is drawn in each of ``n_boot`` replicates (n draws with
    replacement). Column j belongs to unit j; the draw is made over the units sorted by label,
    from :func:`seed_sequence`, so it depends on the set of units and the seed only.

    A run asks for the same units' matrix many times (every judge's interval on the texts all
    judges annotated): the last :data:`KEEP` are kept, keyed by the sorted labels' digest, and
    returned read-only (the same values a fresh draw gives; nothing may write into them). The
    matrix is rows 1: of one with a first row of ones (the full sample), which the statistics
    that need that row take as it is instead of copying the matrix under it."""
    print_ = _fingerprint(units)
    seen = (print_, int(n_boot), int(seed)) if print_ is not None else None
    if seen is not None and _SEEN.get(seen) in _KEPT:
        key = _SEEN[seen]
        _KEPT.move_to_end(key)
        return _KEPT[key]
    labels = _unit_labels(units)
    n = labels.size
    if n == 0:
        return np.zeros((n_boot, 0))
    order = np.argsort(labels, kind="stable")
    digest = hashlib.sha256("\n".join(labels[order]).encode("utf-8")).digest()
    key = (digest, hashlib.sha256(order.tobytes()).digest(), int(n_boot), int(seed))
    if seen is not None:
        _SEEN[seen] = key
        while len(_SEEN) > 64:
            _SEEN.popitem(last=False)
    kept = _KEPT.get(key)
    if kept is not None:
        _KEPT.move_to_end(key)
        return kept
    words = np.frombuffer(digest, dtype=np.uint32).tolist()
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), *words]))
    out = counts(rng, n, n, n_boot, columns=order, full_row=True)
    out.base.flags.writeable = out.flags.writeable = False
    _KEPT[key] = out
    while len(_KEPT) > KEEP:
        _KEPT.popitem(last=False)
    return out


def counts(
    rng: np.random.Generator,
    n_units: int,
    n: int,
    n_draws: int,
    block: int = 1 << 22,
    columns: np.ndarray | None = None,
    full_row: bool = False,
) -> np.ndarray:
    """(n_draws, n_units) float counts of ``n`` uniform draws with replacement per row (a
    multinomial draw): uniform integers counted in blocks of rows, cheaper than one binomial per
    unit and row. ``columns[i]`` is the column where draw ``i`` is counted (default ``i``): the
    same as counting in order and permuting the columns, without moving the matrix.
    ``full_row``: the counts are rows 1: of an array whose row 0 is ones (its ``base``)."""
    whole = np.empty((n_draws + int(full_row), n_units))
    if full_row:
        whole[0] = 1.0
    out = whole[1:] if full_row else whole
    step = max(1, block // max(n, 1))
    for first in range(0, n_draws, step):
        rows = min(n_draws, first + step) - first
        chosen = rng.integers(0, n_units, size=(rows, n))
        if columns is not None:
            chosen = columns[chosen]
        chosen += (np.arange(rows) * n_units)[:, None]  # row r's units counted in bins of their own
        out[first : first + rows] = np.bincount(chosen.ravel(), minlength=rows * n_units).reshape(rows, n_units)
    return out


def weights(n: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """(n_boot, n) counts from a given generator: for resamples of units that have no keys
    (a simulation's draws). Estimates on a corpus use :func:`matrix`."""
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
