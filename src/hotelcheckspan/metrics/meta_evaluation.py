"""Meta-evaluation of faithfulness metrics against human targets: the statistics of the metrics
shared tasks (WMT's mt-metrics-eval, Deutsch et al. 2021 and 2023, TRUE, FRANK), each with a
percentile bootstrap interval from one resample matrix shared by every metric.

Inputs. ``scores`` is a frame with one numeric column per metric (higher = more faithful; NaN
where a metric has no score), ``target`` the human target per row (higher = more faithful; for
detection, ``majority``: True where the humans' clear majority says the text has an error).
Examples whose target is NaN are dropped; a metric is scored on the examples it has (column
``n``). ``weights`` is :func:`hotelcheckspan.metrics.resampling.weights` of all rows: (n_boot, n)
counts, one row per resample.

A resample with repeated examples. A row of weights ``w`` stands for the data set in which
example i appears ``w_i`` times, and every statistic of a resample is the statistic of that
expanded data set: the value equals scipy's (or scikit-learn's, or mt-metrics-eval's) function
called on ``np.repeat(x, w)`` (the tests check this). In particular two copies of one example
form a pair tied in both the metric and the target, and the Kendall variants count it as such.
Nothing is expanded: the statistics are computed from the weights.

* Kendall tau-b and tau-c (scipy's ``kendalltau`` variants, mt-metrics-eval's
  ``KendallVariants``): concordant minus discordant pairs is ``sum_{i<j} w_i w_j sign(x_i - x_j)
  sign(y_i - y_j)``, for all resamples at once (a column of weights each) over the distinct
  (score, target) cells: the cells in the order of the side with more distinct values, the
  other side's codes their levels, and ``sum_{k<k'} w_k w_k' sign(level_k' - level_k)`` in blocks
  of cells, the pairs inside a block by a product with its pair-sign matrix, the pairs across
  blocks from each block's weight per level against the cumulative weight before it; the pairs
  tied on the ordering side are taken out. O(cells x (levels + block)) per resample in matrix
  products; more than 64 levels (both sides continuous) are split into two parts of about the
  square root of the levels each. The ties come from the weight of each distinct value.
* acc23 (Deutsch et al. 2023, "Ties matter"; mt-metrics-eval ``KendallWithTiesOpt`` with
  ``sample_rate=1``): pairwise accuracy with ties, ``(concordant + tied in both) / pairs``, where a
  metric pair is tied when its absolute difference is at most epsilon, and epsilon is chosen to
  maximise it among 0 and every distinct absolute difference of the metric's scores (the
  smallest maximiser, as ``np.nanargmax`` over the sorted candidates). Epsilon is re-optimised
  in every resample: the interval then includes the calibration's own variability (with a
  fixed epsilon it would be too narrow, and the point estimate optimistic for it). Exact, by a
  bounded search per resample (:class:`_Search`): the gain of tying every pair within a
  threshold E (+1 a pair tied in the target, -1 a concordant one) is computed exactly for all
  resamples in O(cells x bits of the target's levels) lookups of running sums
  (:class:`_FixedLevels`), and between two thresholds the gain can rise at most by the pairs
  tied in the target; intervals of differences that can still hold a resample's maximum are
  halved, and the last ones scanned pair by pair in order of difference. O(n log n) per
  resample and threshold; the thresholds and scans a resample needs depend on how flat its
  curve is near the maximum (a few for a curve falling from epsilon 0, tens of thousands of
  pairs where it is flat). In :func:`example_level` only the resamples that can be the
  interval's ends are searched to the end (:func:`_order_rows`; the others are bounded, which
  places them below or above those ends): the value, epsilon and interval are those of every
  resample searched.
* Spearman: Pearson of the mid-ranks of the expanded data, computed from the weight of each
  distinct value (sums over the distinct cells, exact); Pearson: the frequency-weighted Pearson,
  from sums of the values shifted by their full-sample means (matrix-vector products).
* Detection (target ``majority``, the positive class is "has an error", ranked by the negated
  score): ROC AUC and average precision (scikit-learn's definitions, with ties); balanced
  accuracy at a threshold chosen by stratified k-fold cross-validation (on the training folds,
  the threshold maximising balanced accuracy; the held-out folds' predictions pooled), never on
  the examples it is reported on; its interval resamples the pooled held-out predictions.

Undefined values (a constant metric's correlation, a class absent from a resample) are NaN,
never an exception or a warning; intervals ignore undefined resamples.

System level (:func:`system_level`), comparisons (:func:`permutation_test`,
:func:`significance`, :func:`clusters`, :func:`difference`) and :func:`random_baseline` say
their definitions in their docstrings.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import threading
import weakref
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import sparse
from scipy import stats as sps
from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_limits

from hotelcheckspan.corpora.problems import CorpusError, Problem
from hotelcheckspan.metrics import resampling

EXAMPLE_STATISTICS = ("kendall_tau_b", "kendall_tau_c", "acc23", "spearman", "pearson")
DETECTION_STATISTICS = ("roc_auc", "average_precision", "bacc")
SYSTEM_STATISTICS = (
    "pearson",
    "kendall_tau_b",
    "pairwise_accuracy",
    "soft_pairwise_accuracy",
    "partial_pearson",
    "partial_spearman",
    "item_pearson",
    "item_kendall_tau_b",
)
COLUMNS = ["metric", "statistic", "value", "low", "high", "n", "epsilon"]

_BLOCK = 2048  # pairs per block of the pair-by-pair Kendall of many rows


def _one_blas_thread(fn):
    """Run ``fn`` with one BLAS thread. Its matrix products are many and small: on a busy machine,
    BLAS threads waiting for each other make one of them cost hundreds of milliseconds instead of
    one (the setting is restored on return)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with threadpool_limits(1, user_api="blas"):
            return fn(*args, **kwargs)

    return wrapper


# --- inputs ---------------------------------------------------------------------------------------


def _labels(values, n: int, name: str, problems: list[Problem]) -> np.ndarray | None:
    """An (n,) array of labels (system or item), or None with a problem."""
    if values is None:
        return None
    arr = np.asarray(values, dtype=object)
    if arr.ndim != 1 or len(arr) != n:
        problems.append(Problem(name, 0, "", f"{len(arr)} labels for {n} rows of scores"))
        return None
    missing = np.flatnonzero(pd.isna(arr))
    if missing.size:
        problems.append(Problem(name, int(missing[0]) + 1, "", f"{missing.size} rows without a label"))
    return arr


def _inputs(scores, target, weights, *, binary: bool = False, system=None, item=None):
    """Validated ``(names, X (metrics, n), y (n,), W (n_boot, n), system, item)``; every problem
    at once as a :class:`CorpusError` (file: the argument's name, line: the row, 1-based)."""
    problems: list[Problem] = []
    if not isinstance(scores, pd.DataFrame):
        scores = pd.DataFrame(scores)
    n = len(scores)
    names = [str(c) for c in scores.columns]
    for name in sorted({c for c in names if names.count(c) > 1}):
        problems.append(Problem("scores", 0, name, "two metrics with one name"))
    columns = []
    for name, (_, col) in zip(names, scores.items()):
        values = pd.to_numeric(col.astype(object).where(col.notna(), np.nan), errors="coerce").astype(float)
        bad = np.flatnonzero((values.isna() & col.notna()).to_numpy() | np.isinf(values.to_numpy()))
        if bad.size:
            problems.append(
                Problem(
                    "scores",
                    int(bad[0]) + 1,
                    name,
                    f"{bad.size} values not finite numbers (first: {col.iloc[bad[0]]!r})",
                )
            )
        columns.append(values.to_numpy())
    X = np.array(columns, float).reshape(len(names), n)

    y = np.full(n, np.nan)
    if isinstance(target, pd.Series) and not target.index.equals(scores.index):
        problems.append(Problem("target", 0, "", "its index differs from the scores' index"))
    else:
        t = pd.Series(np.asarray(target, dtype=object)) if not isinstance(target, pd.Series) else target
        if len(t) != n:
            problems.append(Problem("target", 0, "", f"{len(t)} values for {n} rows of scores"))
        else:
            raw = t.astype(object).where(t.notna(), np.nan)
            num = pd.to_numeric(raw, errors="coerce").astype(float).to_numpy()
            bad = np.flatnonzero((np.isnan(num) & t.notna().to_numpy()) | np.isinf(num))
            if binary:
                bad = np.union1d(bad, np.flatnonzero(~np.isnan(num) & (num != 0) & (num != 1)))
            if bad.size:
                kind = "True/False" if binary else "finite numbers"
                problems.append(
                    Problem(
                        "target",
                        int(bad[0]) + 1,
                        str(t.name or ""),
                        f"{bad.size} values not {kind} (first: {t.iloc[bad[0]]!r})",
                    )
                )
            y = num

    W = np.asarray(weights, float)
    if W.ndim != 2 or W.shape[1] != n:
        problems.append(Problem("weights", 0, "", f"shape {W.shape}, expected (n_boot, {n})"))
    elif (W < 0).any() or not np.isfinite(W).all():
        problems.append(Problem("weights", 0, "", "negative or non-finite weights"))
    sys_labels = _labels(system, n, "system", problems)
    item_labels = _labels(item, n, "item", problems)
    if problems:
        raise CorpusError(problems, "the metric statistics' input")
    return names, X, y, W, sys_labels, item_labels


_DERIVED: list = []  # (weak reference to an array, what, derived array): the last few derived, reused
_DERIVED_LOCK = threading.Lock()
_USERS: dict = {}  # id of an array -> the statistics running on it (:func:`_deriving`)


@contextlib.contextmanager
def _deriving(W: np.ndarray):
    """While the block runs, what :func:`_derived` makes of ``W`` (and of the copies of its
    columns, once they are gone) is kept for every statistic that asks; when the last block running
    on ``W`` ends, it goes: at a hundred times the d2t test split a transpose is a gigabyte that
    the statistics after the example-level ones never read."""
    with _DERIVED_LOCK:
        _USERS[id(W)] = _USERS.get(id(W), 0) + 1
    try:
        yield
    finally:
        with _DERIVED_LOCK:
            _USERS[id(W)] -= 1
            if not _USERS[id(W)]:
                del _USERS[id(W)]
                alive = [(entry, entry[0]()) for entry in _DERIVED]
                _DERIVED[:] = [entry for entry, array in alive if array is not None and array is not W]


def _derived(W: np.ndarray, what, make):
    """``make(W)``, computed once for this very array (a run passes one weights matrix to every
    metric and statistic: its transpose and its full-sample row are made once, not per metric).
    Threads that ask at once wait for the one that makes it (two copies of a 1,000-row matrix of
    every text would double the largest arrays of a run)."""
    with _DERIVED_LOCK:
        _DERIVED[:] = [entry for entry in _DERIVED if entry[0]() is not None]  # an array gone takes its own
        for ref, kind, value in _DERIVED:
            if ref() is W and kind == what:
                return value
        value = make(W)
        _DERIVED.insert(0, (weakref.ref(W), what, value))
        del _DERIVED[4:]
        return value


def _with_full(W: np.ndarray) -> np.ndarray:
    """The weights with a first row of ones: row 0 is the full sample, rows 1: the resamples.
    Weights drawn by :func:`resampling.matrix` are rows 1: of such an array already: it is
    returned as it is (at a hundred times the d2t test split a copy is another gigabyte)."""
    base = W.base
    if (
        isinstance(base, np.ndarray)
        and base.shape == (W.shape[0] + 1, W.shape[1])
        and base.dtype == W.dtype
        and base.flags.c_contiguous
        and W.flags.c_contiguous
        and W.ctypes.data == base.ctypes.data + base.strides[0]
        and (base[0] == 1).all()
    ):
        return base
    return _derived(W, "full", lambda w: np.vstack([np.ones((1, w.shape[1])), w]))


def _transposed(W: np.ndarray, dtype=np.float64) -> np.ndarray:
    """``W.T`` as a C-contiguous array of ``dtype`` (examples x rows), made once per array."""
    return _derived(W, ("T", np.dtype(dtype).str), lambda w: np.ascontiguousarray(w.T, dtype=dtype))


def _kept(keep: np.ndarray, Wf: np.ndarray) -> np.ndarray:
    """The columns of ``Wf`` a metric's examples keep (``Wf`` itself where it keeps them all)."""
    return Wf if keep.all() else np.compress(keep, Wf, axis=1)


# --- per-value weights, ranks, Pearson ----------------------------------------------------------


def _groups(values: np.ndarray, W: np.ndarray):
    """Distinct values (ascending), each example's value code, and the (rows, k) weight of each
    distinct value in each row of W."""
    order = np.argsort(values, kind="stable")
    v = values[order]
    new = np.r_[True, v[1:] != v[:-1]] if v.size else np.zeros(0, bool)
    starts = np.flatnonzero(new)
    code = np.empty(values.size, np.int64)
    code[order] = np.cumsum(new) - 1
    G = np.add.reduceat(np.take(W, order, axis=1), starts, axis=1) if v.size else np.zeros((W.shape[0], 0))
    return v[starts], code, G


def _value_weights(values: np.ndarray, WT: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each example's value code (0..k-1, ascending) and the weight of each distinct value per
    column of WT (examples x columns): (k, columns)."""
    codes, k = _codes(values)
    return codes, _summing(codes, k, WT.dtype) @ WT


def _pearson_w(x, y, W):
    """Frequency-weighted Pearson per row of W, from sums of the values shifted by their means on
    the full sample (matrix-vector products; the shift keeps the sums' cancellation small); NaN
    where a side has a single distinct value."""
    WT = _transposed(W)
    u, v = (x - x.mean(), y - y.mean()) if x.size else (x, y)
    M, Su, Sv = W.sum(axis=1), u @ WT, v @ WT
    with np.errstate(invalid="ignore", divide="ignore"):
        sxx, syy = (u * u) @ WT - Su * Su / M, (v * v) @ WT - Sv * Sv / M
        r = ((u * v) @ WT - Su * Sv / M) / np.sqrt(sxx * syy)
    single = (np.count_nonzero(_value_weights(x, WT)[1], axis=0) < 2) | (
        np.count_nonzero(_value_weights(y, WT)[1], axis=0) < 2
    )
    return np.where(single | (sxx <= 0) | (syy <= 0), np.nan, np.clip(r, -1, 1))


def _spearman_w(x, y, W):
    """Spearman per row of W: Pearson of the mid-ranks of the expanded data. A value's mid-rank
    is the weight below it plus (its weight + 1) / 2; the mean mid-rank is (M + 1) / 2; every sum
    goes over the distinct (x, y) cells (exact: half-integers times counts)."""
    WT = _transposed(W)
    M = W.sum(axis=1)
    center = (M + 1) / 2
    (cx, Gx), (cy, Gy) = _value_weights(x, WT), _value_weights(y, WT)
    rx = _cumsum0(Gx) - Gx / 2 + 0.5 - center  # mid-rank minus the mean, per distinct value
    ry = _cumsum0(Gy) - Gy / 2 + 0.5 - center
    keys, cell = np.unique(cx * (cy.max(initial=0) + 1) + cy, return_inverse=True)
    T = _summing(cell.reshape(-1), keys.size, np.float64) @ WT
    kx, ky = keys // (cy.max(initial=0) + 1), keys % (cy.max(initial=0) + 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        sxy = np.einsum("cr,cr->r", T, rx[kx] * ry[ky])
        sxx, syy = np.einsum("gr,gr->r", Gx, rx * rx), np.einsum("gr,gr->r", Gy, ry * ry)
        r = sxy / np.sqrt(sxx * syy)
    single = (np.count_nonzero(Gx, axis=0) < 2) | (np.count_nonzero(Gy, axis=0) < 2)
    return np.where(single | (sxx <= 0) | (syy <= 0) | (M < 2), np.nan, np.clip(r, -1, 1))


# --- sums over ordered entries, one column per resample -------------------------------------------

_LEVELS = 64  # most levels one pass of _pair_signs takes; more are split into a high and a low part
_COLUMNS = 128  # columns (resamples, draws) per chunk: the working arrays stay in the processor's cache


def _exact_dtype(total) -> type:
    """float32 when every sum of products of weights stays an integer below 2**24 (exact there, and
    twice as fast in matrix products), else float64."""
    return np.float32 if float(total) ** 2 < 2**24 else np.float64


def _chunks(n_columns: int) -> list[slice]:
    return [slice(s, min(n_columns, s + _COLUMNS)) for s in range(0, max(n_columns, 1), _COLUMNS)]


def _cumsum0(A: np.ndarray, inplace: bool = False) -> np.ndarray:
    """Cumulative sum along the first axis (``inplace``: into A). For wide rows (a column per
    resample) adding whole rows is several times faster than numpy's cumsum, which walks such
    an array across."""
    if A.ndim == 1 or A[:1].size < 64:
        return np.cumsum(A, axis=0, out=A if inplace else None)
    out = A if inplace else np.array(A, copy=True)
    for i in range(1, out.shape[0]):
        np.add(out[i], out[i - 1], out=out[i])
    return out


def _codes(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Dense codes 0..k-1 of the values in ascending order, and k."""
    codes = np.unique(values, return_inverse=True)[1].reshape(-1)
    return codes, int(codes.max(initial=-1)) + 1


def _summing(rows: np.ndarray, n_rows: int, dtype) -> sparse.csr_matrix:
    """The sparse matrix whose product with an array sums its rows into ``rows`` (row i of the
    array into row ``rows[i]`` of the result)."""
    return sparse.csr_matrix((np.ones(rows.size, dtype), (rows, np.arange(rows.size))), shape=(n_rows, rows.size))


def _sign_matrix(K: int, dtype) -> np.ndarray:
    """``S[l, l'] = sign(l' - l)``."""
    return np.sign(np.arange(K)[None, :] - np.arange(K)[:, None]).astype(dtype)


def _between(H: np.ndarray, S: np.ndarray) -> np.ndarray:
    """``sum_{g < g'} sum_{l, l'} H[g, l] H[g', l'] sign(l' - l)`` per column of H (groups, levels,
    columns; S from :func:`_sign_matrix`): each group against the cumulative weight before it."""
    before = _cumsum0(H) - H
    return np.einsum("glr,glr->r", before, S @ H).astype(np.float64)


def _pair_plan(codes: np.ndarray, dtype) -> dict:
    """What :func:`_pair_signs` needs from the levels of the entries alone: blocks of B entries
    with each block's (B, B) pair-sign matrix and level indicators; more than :data:`_LEVELS`
    levels split into a high and a low part, each with about the square root of the levels."""
    K = int(codes.max(initial=0)) + 1
    if K > _LEVELS:
        K2 = int(np.ceil(np.sqrt(K)))
        hi, lo = codes // K2, codes % K2
        by_hi = np.argsort(hi, kind="stable")
        return {
            "levels": K,
            "hi": _pair_plan(hi, dtype),
            "lo": _pair_plan(lo[by_hi], dtype),
            "by_hi": by_hi,
            "cells": _summing(codes, (int(hi.max()) + 1) * K2, dtype),
            "shape": (int(hi.max()) + 1, K2),
            "S": _sign_matrix(K2, dtype),
        }
    B = int(np.clip(K, 16, 64))
    C = codes.size
    nb = max(1, -(-C // B))
    cb = np.zeros(nb * B, np.int64)
    cb[:C] = codes
    cb = cb.reshape(nb, B)
    U = np.sign(cb[:, None, :] - cb[:, :, None]) * np.triu(np.ones((B, B), bool), 1)
    Y = cb[:, None, :] == np.arange(K)[None, :, None]
    if C % B:  # padding entries weigh nothing; keep them out of the level totals too
        Y[-1, :, C % B :] = False
    return {"levels": K, "B": B, "U": U.astype(dtype), "Y": Y.astype(dtype), "S": _sign_matrix(K, dtype)}


def _pair_signs(plan: dict, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``sum_{k < k'} w_k w_k' sign(level_k' - level_k)`` for each column w of T (entries in their
    fixed order, columns), and the weight of each level per column. The pairs inside a block
    from a product with its (B, B) sign matrix, the pairs across blocks from each block's weight
    per level and the weights of the blocks before (:func:`_between`): O(entries x (levels + B))
    per column, in matrix products."""
    C, R = T.shape
    if "hi" in plan:
        # pairs of different high levels; then, ordered by high level, the pairs of low levels,
        # minus those this order puts across high levels
        H = (plan["cells"] @ T).reshape(*plan["shape"], R)
        s_hi, _ = _pair_signs(plan["hi"], T)
        s_lo, _ = _pair_signs(plan["lo"], np.take(T, plan["by_hi"], axis=0))
        return s_hi + s_lo - _between(H, plan["S"]), H.reshape(-1, R)[: plan["levels"]]
    B, nb = plan["B"], plan["U"].shape[0]
    if C == nb * B:
        Wb = T.reshape(nb, B, R)
    else:
        Wb = np.zeros((nb * B, R), T.dtype)
        Wb[:C] = T
        Wb = Wb.reshape(nb, B, R)
    within = np.einsum("bir,bir->r", Wb, plan["U"] @ Wb).astype(np.float64)
    H = plan["Y"] @ Wb  # (blocks, levels, columns)
    return within + _between(H, plan["S"]), H.sum(axis=0)


def _concordance_plan(p: np.ndarray, q: np.ndarray, dtype) -> dict:
    """What :func:`_concordance` needs from the entries' values alone: entries with equal (p, q)
    merge into cells, ordered by the side with more distinct values (ties by the other side),
    whose codes are the levels of :func:`_pair_signs`; the cells of one value of the ordering
    side form a group."""
    (gp, kp), (gq, kq) = _codes(p), _codes(q)
    swapped = kq > kp
    if swapped:
        (gp, kp), (gq, kq) = (gq, kq), (gp, kp)
    keys, cell = np.unique(gp * kq + gq, return_inverse=True)
    positions = keys // kq
    cell = cell.reshape(-1)
    return {
        "cells": _summing(cell, keys.size, dtype),
        "order": np.argsort(cell) if keys.size == cell.size else None,  # no two entries share a cell
        "groups": _summing(positions, kp, dtype) if kp < keys.size else None,
        "pairs": _pair_plan(keys % kq, dtype),
        "swapped": swapped,
    }


def _concordance(plan: dict, W: np.ndarray) -> dict:
    """Concordant minus discordant pairs, ``sum_{k < k'} w_k w_k' sign(p_k - p_k') sign(q_k - q_k')``,
    for each column w of W (entries, columns). Summed into cells, counted by :func:`_pair_signs`,
    which counts the pairs inside a group of the ordering side as concordant (its levels ascend
    there): those are taken out, ``(G^2 - sum of cells^2) / 2``. Returns ``s``, the weight of each
    distinct value of the ordering side (``G``, values x columns) and of the other side (``L``),
    and ``swapped`` (True: the ordering side is q)."""
    T = np.take(W, plan["order"], axis=0) if plan["order"] is not None else plan["cells"] @ W
    s, L = _pair_signs(plan["pairs"], T)
    if plan["groups"] is not None:
        G = plan["groups"] @ T
        s -= (np.einsum("gr,gr->r", G, G).astype(np.float64) - np.einsum("cr,cr->r", T, T).astype(np.float64)) / 2
    else:
        G = T
    return {"s": s, "G": G, "L": L, "swapped": plan["swapped"]}


def _tie_stats(G: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tied pairs and distinct values present per column, from each value's weight (values x columns)."""
    squares = np.einsum("gr,gr->r", G, G).astype(np.float64)
    return (squares - G.sum(axis=0, dtype=np.float64)) / 2, np.count_nonzero(G, axis=0)


def _kendall_from(s, M, n1, n2, kx, ky):
    """tau-b and tau-c (scipy's formulas) from concordant minus discordant ``s``, sizes ``M``,
    tied pairs ``n1``, ``n2`` and distinct values ``kx``, ``ky``."""
    tot = M * (M - 1) / 2
    undefined = (n1 == tot) | (n2 == tot)
    m = np.minimum(kx, ky).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau_b = s / np.sqrt((tot - n1) * (tot - n2))
        tau_c = 2 * s / (M**2 * (m - 1) / m)
    return np.where(undefined, np.nan, np.clip(tau_b, -1, 1)), np.where(undefined, np.nan, np.clip(tau_c, -1, 1))


def _kendall_w(x, y, W):
    """tau-b and tau-c per row of W (module docstring: the value on the repeated data)."""
    M = W.sum(axis=1)
    dtype = _exact_dtype(M.max(initial=0))
    plan = _concordance_plan(x, y, dtype)
    s, nx, kx, ny, ky = (np.zeros(W.shape[0]) for _ in range(5))
    WT = _transposed(W, dtype)
    for cols in _chunks(W.shape[0]):
        out = _concordance(plan, np.ascontiguousarray(WT[:, cols]))
        (a, ka), (b, kb) = _tie_stats(out["G"]), _tie_stats(out["L"])
        if out["swapped"]:
            (a, ka), (b, kb) = (b, kb), (a, ka)
        s[cols], nx[cols], kx[cols], ny[cols], ky[cols] = out["s"], a, ka, b, kb
    return _kendall_from(s, M, nx, ny, kx, ky)


# --- acc23 with its tie threshold -----------------------------------------------------------------

_SPLIT = 2  # an interval of more pairs than _SPLIT x the lookups of one evaluation is split, else scanned
_SCAN = 1024  # pairs per block of a scan
_TABLE = 1 << 23  # entries of acc23's running-sum tables at a time: more columns go in chunks
_COARSE = 1  # for a percentile interval, every row's bounds first halved down to _COARSE x _SPLIT x lookups


def _band_ends(xs: np.ndarray, E: float) -> np.ndarray:
    """For each position i (xs ascending): the first position j with ``xs[j] - xs[i] > E``, by the
    difference as computed (epsilon's candidates are these differences, not sums)."""
    N = xs.size
    H = np.searchsorted(xs, xs + E, side="right")
    while N:
        up = (H < N) & (xs[np.minimum(H, N - 1)] - xs <= E)
        down = (H > 0) & (xs[np.maximum(H - 1, 0)] - xs > E)
        if not (up.any() or down.any()):
            break
        H = H + up - down
    return H


def _running_sums(seg: np.ndarray, pos: np.ndarray, W: np.ndarray, n_seg: int) -> tuple[np.ndarray, np.ndarray]:
    """For each segment s < n_seg a zero row, then the running sums, in position order, of the
    weights ``W[pos]`` of its entries. Returns ``(keys, rows)``, keys ``seg * (N + 1) + pos`` sorted
    (N = len(W)): segment s's weight before position h is row ``searchsorted(keys, s * (N + 1) + h) + s``."""
    key = seg * (W.shape[0] + 1) + pos
    order = np.argsort(key, kind="stable")
    rows = np.arange(order.size) + seg[order] + 1
    Z = np.zeros((order.size + n_seg, W.shape[1]), W.dtype)
    Z[rows] = W[pos[order]]
    for i in rows:
        np.add(Z[i], Z[i - 1], out=Z[i])
    return key[order], Z


class _FixedLevels:
    """acc23's band sums for positions (ascending scores) with fixed target levels ``levels`` and
    weights W (positions x columns). ``at(H, cols)``: per column, ``A = sum_i w_i sum_{j < H_i} w_j
    q(L_j, L_i)`` with ``q(b, a) = [b = a] - [b > a]`` (a pair's gain when epsilon ties it: right
    if tied in the target, wrong instead of right if concordant) and ``T``, its part with b = a.
    The pairs of equal levels from running sums per level; the pairs with L_j > L_i from the bits
    of the levels: at the highest bit where they differ, i has a 0 and j a 1 under equal higher
    bits (a wavelet split), so one running sum per node of each bit. O(positions x bits) lookups,
    in tables with a row per column (a column's lookups read one row)."""

    def __init__(self, levels: np.ndarray, W: np.ndarray):
        N = W.shape[0]
        K = int(levels.max(initial=0)) + 1
        D = max(1, int(np.ceil(np.log2(K)))) if K > 1 else 1
        pos = np.arange(N)
        parts = [(levels, pos, K, levels, pos)]  # entries (segment, position), segments, queries
        for d in range(D):
            b = D - 1 - d
            node, side = levels >> (b + 1), (levels >> b) & 1
            asking = (side == 0) & np.isin(node, node[side == 1])  # a node without ones adds nothing
            parts.append((node[side == 1], pos[side == 1], ((K - 1) >> (b + 1)) + 1, node[asking], pos[asking]))
        tables, self.lookups, offset = [], [], 0
        for seg, p, n_seg, qseg, qpos in parts:
            keys, Z = _running_sums(seg, p, W, n_seg)
            self.lookups.append((keys, qseg * (N + 1), qseg + offset, qpos))
            tables.append(Z)
            offset += Z.shape[0]
        self.table = np.concatenate(tables)  # a row per lookup: all columns at once
        self.tableT = np.ascontiguousarray(self.table.T)  # a row per column: some columns
        above = np.concatenate([q[3] for q in self.lookups[1:]])  # the positions asking for pairs above
        self.Wabove = W[above]
        self.WT, self.WaboveT = np.ascontiguousarray(W.T), np.ascontiguousarray(self.Wabove.T)
        self.W, self.levels, self.dtype, self.size = W, levels, W.dtype, N + above.size

    def at(self, H: np.ndarray, cols: np.ndarray | None = None):
        rows = np.concatenate([np.searchsorted(k, base + H[q]) + shift for k, base, shift, q in self.lookups])
        N, R = self.W.shape
        if cols is None or cols.size == R:
            V = np.take(self.table, rows, axis=0)
            T = np.einsum("qr,qr->r", V[:N], self.W).astype(np.float64)
            return T - np.einsum("qr,qr->r", V[N:], self.Wabove).astype(np.float64), T
        V = np.take(self.tableT[cols], rows, axis=1)
        T = np.einsum("rq,rq->r", V[:, :N], self.WT[cols]).astype(np.float64)
        return T - np.einsum("rq,rq->r", V[:, N:], self.WaboveT[cols]).astype(np.float64), T

    def signs(self, ii, jj):
        a, b = self.levels[ii], self.levels[jj]
        return (b == a).astype(np.int8) - (b > a)

    def columns(self, cols):
        return self.W if cols.size == self.W.shape[1] else self.W[:, cols]

    @staticmethod
    def values(W, ii, jj, signs):
        out = np.take(W, ii, axis=0)
        out *= np.take(W, jj, axis=0)
        out *= signs[:, None]
        return out


class _VaryingLevels:
    """The same band sums when every position weighs 1 and the levels differ by column (``L``:
    positions x columns; the random baseline's permuted targets): tables of counts per
    (position, level, column), in 16 bits where the counts fit."""

    def __init__(self, L: np.ndarray, K: int, dtype):
        N, R = L.shape
        counts = np.int16 if N < 2**15 else np.int32
        level = np.arange(K)[None, :, None]
        equal = np.zeros((N + 1, K, R), counts)
        gain = np.zeros((N + 1, K, R), counts)
        equal[1:] = L[:, None, :] == level
        gain[1:] = equal[1:]
        gain[1:] -= L[:, None, :] > level
        self.equal, self.gain = _cumsum0(equal, inplace=True), _cumsum0(gain, inplace=True)
        self.L, self.K, self.size, self.dtype = L, K, N, dtype

    def at(self, H: np.ndarray, cols: np.ndarray | None = None):
        R = self.L.shape[1]
        cols = np.arange(R) if cols is None else cols
        flat = (H[:, None] * self.K + self.L[:, cols]) * R + cols[None, :]
        T = np.take(self.equal, flat).sum(axis=0, dtype=np.float64)
        return np.take(self.gain, flat).sum(axis=0, dtype=np.float64), T

    def signs(self, ii, jj):
        return None

    def columns(self, cols):
        return self.L[:, cols], self.dtype

    @staticmethod
    def values(restricted, ii, jj, signs):
        L, dtype = restricted
        a, b = np.take(L, ii, axis=0), np.take(L, jj, axis=0)
        out = (b == a).astype(dtype)
        out -= b > a
        return out


def _pairs_between(xs: np.ndarray, H0: np.ndarray, H1: np.ndarray):
    """The pairs (i, j), j in [H0_i, H1_i), sorted by their difference ``xs[j] - xs[i]``."""
    counts = H1 - H0
    ii = np.repeat(np.arange(xs.size), counts)
    jj = np.arange(ii.size) - np.repeat(np.cumsum(counts) - counts, counts) + H0[ii]
    d = xs[jj] - xs[ii]
    order = np.argsort(d, kind="stable")
    return ii[order], jj[order], d[order]


def _scan(ev, ii, jj, d, cols, start, best, eps):
    """Every candidate of an interval, in order: the gains at the ends of its runs of equal
    differences (``start``: the gain before the interval), for the columns ``cols``; a column's
    ``best`` and ``eps`` move to a larger gain, or to an equal one at a smaller epsilon (the
    smallest maximiser wins, in whatever order the intervals come)."""
    signs = ev.signs(ii, jj)
    if signs is not None:  # discordant pairs never change the gain
        keep = signs != 0
        ii, jj, d, signs = ii[keep], jj[keep], d[keep], signs[keep]
    ends = np.flatnonzero(np.r_[d[1:] != d[:-1], True]) if d.size else np.zeros(0, int)
    restricted = ev.columns(cols)
    carry = start.astype(ev.dtype)
    for s in range(0, d.size, _SCAN):
        e = min(d.size, s + _SCAN)
        prefix = _cumsum0(ev.values(restricted, ii[s:e], jj[s:e], None if signs is None else signs[s:e]), inplace=True)
        prefix += carry  # integers below 2**24 in float32: exact
        at = ends[(ends >= s) & (ends < e)] - s
        if at.size:
            candidates = prefix if at.size == e - s else prefix[at]
            top = candidates.max(axis=0)
            look = np.flatnonzero(top >= best[cols])
            if look.size:  # the first run end reaching the block's maximum
                first = np.argmax(candidates[:, look] == top[look], axis=0)
                where = d[s + at[first]]
                c = cols[look]
                better = (top[look] > best[c]) | (where < eps[c])  # equal gains: the smaller epsilon
                best[c[better]], eps[c[better]] = top[look][better], where[better]
        carry = prefix[-1].copy()


class _Search:
    """acc23's search over epsilon, per column: the largest gain (0 at epsilon 0) and the smallest
    epsilon reaching it. gain(E) at a threshold E is exact (``ev.at``); on an interval (E', E] of
    differences the gain is at most gain(E') + the interval's pairs tied in the target. Intervals
    whose bound reaches a column's best known gain are halved (the new threshold evaluated for
    the columns that need it), the most promising first, while they hold more than
    ``resolution`` pairs; the rest are parked. :meth:`bounds` gives each column's gain within
    bounds after :meth:`refine`; :meth:`exact` scans the parked intervals of the columns asked,
    pair by pair in order of their differences (:func:`_scan`)."""

    def __init__(self, xs: np.ndarray, ev, R: int):
        self.xs, self.ev, self.R = xs, ev, R
        N = xs.size
        self.gend = _band_ends(xs, 0.0)
        self.A0, self.T0 = ev.at(self.gend)
        Ainf, Tinf = ev.at(np.full(N, N))
        g_end, t_end = Ainf - self.A0, Tinf - self.T0
        self.concordant = t_end - g_end  # concordant pairs of distinct scores
        self.lb = np.maximum(0, g_end)
        # where to halve an interval: the median of the differences among a subsample of positions
        sub = xs[:: max(1, N // 150)]
        i, j = np.triu_indices(sub.size, 1)
        self.sample = np.unique(sub[j] - sub[i])
        whole = (
            0.0,
            xs[-1] - xs[0] if N else 0.0,
            self.gend,
            np.full(N, N),
            np.arange(R),
            np.zeros(R),
            np.zeros(R),
            g_end,
            t_end,
        )
        self.parked = [whole]
        self.best, self.eps, self.done = np.zeros(R), np.zeros(R), np.zeros(R, bool)

    def refine(self, resolution: int, cols: np.ndarray | None = None):
        """Halve the parked intervals (of the columns ``cols``; None: all) down to ``resolution`` pairs."""
        ev, xs = self.ev, self.xs
        pending, count, parked = [], 0, []
        for interval in self.parked:
            part = interval if cols is None else _restrict(interval, cols)
            rest = None if cols is None else _restrict(interval, np.setdiff1d(interval[4], cols))
            if part is not None:
                heapq.heappush(pending, (0.0, count, part))
                count += 1
            if rest is not None:
                parked.append(rest)
        while pending:
            _, _, (e0, e1, H0, H1, cols_, g0, t0, g1, t1) = heapq.heappop(pending)
            keep = g0 + t1 - t0 >= self.lb[cols_]
            interval = (e0, e1, H0, H1, cols_[keep], g0[keep], t0[keep], g1[keep], t1[keep])
            e0, e1, H0, H1, cols_, g0, t0, g1, t1 = interval
            m = int((H1 - H0).sum())
            if not cols_.size or not m:
                continue
            em = self._middle(e0, e1, H0, H1) if m > max(resolution, _SPLIT * ev.size) else None
            if em is None:
                parked.append(interval)
                continue
            Hm = _band_ends(xs, em)
            A, T = ev.at(Hm, cols_)
            gm, tm = A - self.A0[cols_], T - self.T0[cols_]
            self.lb[cols_] = np.maximum(self.lb[cols_], gm)
            for half in ((e0, em, H0, Hm, cols_, g0, t0, gm, tm), (em, e1, Hm, H1, cols_, gm, tm, g1, t1)):
                heapq.heappush(pending, (-float((half[5] + half[8] - half[6] - self.lb[cols_]).max()), count, half))
                count += 1
        self.parked = sorted(parked, key=lambda t: t[0])
        return self

    def _middle(self, e0, e1, H0, H1):
        inside = self.sample[(self.sample > e0) & (self.sample < e1)]
        if not inside.size:  # none sampled there: the interval's own differences
            inside = _pairs_between(self.xs, H0, H1)[2]
            inside = inside[inside < e1]
        return float(inside[inside.size // 2]) if inside.size else None

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each column's largest gain lies in ``[low, high]`` (exact where :meth:`exact` ran)."""
        high = self.lb.copy()
        for _, _, _, _, cols, g0, t0, _, t1 in self.parked:
            np.maximum.at(high, cols, g0 + t1 - t0)
        low = np.where(self.done, self.best, self.lb)
        return low, np.where(self.done, self.best, high)

    def exact(self, cols: np.ndarray | None = None):
        """``(gain, epsilon)`` of every column, exact for ``cols`` (None: all)."""
        cols = np.arange(self.R) if cols is None else np.setdiff1d(cols, np.flatnonzero(self.done))
        if cols.size:
            self.refine(0, cols)
            asked = np.zeros(self.R, bool)
            asked[cols] = True
            # the most promising intervals first, so that the best gains found prune the others
            for e0, e1, H0, H1, c, g0, t0, g1, t1 in sorted(
                self.parked, key=lambda p: -float((p[5] + p[8] - p[6]).max())
            ):
                ub = g0 + t1 - t0
                # a larger gain, or an equal one before the best known (a bound's position is unknown)
                bar = np.maximum(self.lb[c], self.best[c])
                earlier = np.where(self.best[c] >= self.lb[c], e0 < self.eps[c], True)
                keep = asked[c] & ((ub > bar) | ((ub == bar) & earlier))
                if keep.any():
                    _scan(self.ev, *_pairs_between(self.xs, H0, H1), c[keep], g0[keep], self.best, self.eps)
            self.parked = [p for p in (_restrict(p, p[4][~asked[p[4]]]) for p in self.parked) if p is not None]
            self.done[cols] = True
        return self.best, self.eps


def _restrict(interval, cols):
    """The interval for the columns ``cols`` among its own, or None."""
    e0, e1, H0, H1, c, g0, t0, g1, t1 = interval
    keep = np.isin(c, cols)
    return (e0, e1, H0, H1, c[keep], g0[keep], t0[keep], g1[keep], t1[keep]) if keep.any() else None


def _order_rows(low: np.ndarray, high: np.ndarray, level: float) -> np.ndarray:
    """The rows whose value, known to lie in ``[low, high]`` (NaN: undefined, left out as
    :func:`resampling.interval` does), can be one of the order statistics the percentile interval
    at ``level`` interpolates between (numpy's linear method). Any other row lies strictly below or
    above each of them whatever its value in its bounds, so the interval is the same with it at
    either bound."""
    ok = np.flatnonzero(~np.isnan(low))
    n = ok.size
    if not n:
        return ok
    alpha = (1 - level) / 2
    ranks = {min(n - 1, int(np.floor(q * (n - 1))) + k) for q in (alpha, 1 - alpha) for k in (0, 1)}
    lo, hi = low[ok], high[ok]
    slo, shi = np.sort(lo), np.sort(hi)
    near = np.zeros(n, bool)
    for k in ranks:
        near |= (hi >= slo[k]) & (lo <= shi[k])
    return ok[near]


def _acc23_w(x, y, W, level: float | None = None):
    """acc23 and its epsilon per row of W, epsilon re-optimised in each row (module docstring):
    ``(pairs of copies of one cell + concordant pairs + max(0, max_e gain(e))) / pairs``, the
    positions being the distinct (score, target) cells in ascending score (:class:`_Search`).
    With ``level``, rows 1: only feed a percentile interval at that level: those that cannot be
    one of its order statistics (:func:`_order_rows`) are only bounded, their value a bound (the
    interval is the same) and their epsilon NaN."""
    M = W.sum(axis=1)
    dtype = _exact_dtype(M.max(initial=0))
    (gx, _), (gy, ky) = _codes(x), _codes(y)
    keys, cell = np.unique(gx * max(ky, 1) + gy, return_inverse=True)
    T = _summing(cell.reshape(-1), keys.size, dtype) @ _transposed(W, dtype)
    T64 = T.astype(np.float64)
    same = (T64 * (T64 - 1) / 2).sum(axis=0)  # pairs of copies of one cell: tied in both
    pairs = M * (M - 1) / 2
    R = W.shape[0]
    best, eps, conc = np.zeros(R), np.zeros(R), np.zeros(R)
    if keys.size > 1:
        xs, levels = np.unique(x)[keys // max(ky, 1)], keys % max(ky, 1)
        lookups = keys.size * (1 + int(np.ceil(np.log2(max(int(levels.max()) + 1, 2)))))
        step = max(1, _TABLE // lookups)  # columns per search: tables of at most _TABLE entries

        def searches(cols):
            for s in range(0, cols.size, step):
                part = cols[s : s + step]
                yield part, _Search(xs, _FixedLevels(levels, np.ascontiguousarray(T[:, part])), part.size)

        if level is None or R < 2:
            for part, search in searches(np.arange(R)):
                conc[part] = search.concordant
                best[part], eps[part] = search.exact()
        else:
            low, high = np.zeros(R), np.zeros(R)
            for part, search in searches(np.arange(R)):
                conc[part] = search.concordant
                search.refine(_COARSE * _SPLIT * search.ev.size)
                if part[0] == 0:  # the full sample: its value and epsilon
                    search.exact(np.array([0]))
                    best[0], eps[0] = search.best[0], search.eps[0]
                low[part], high[part] = search.bounds()
            with np.errstate(invalid="ignore", divide="ignore"):
                bounds = [(same + conc + b) / pairs for b in (low, high)]
            rows = _order_rows(bounds[0][1:], bounds[1][1:], level) + 1
            best[1:], eps[1:] = low[1:], np.nan
            for part, search in searches(rows):
                best[part], eps[part] = search.exact()
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (same + conc + best) / pairs
    return np.where(M < 2, np.nan, value), np.where(M < 2, np.nan, eps)


_ROW_BLOCK = 64  # resamples a ranking statistic handles at once: its temporaries are a few copies of a block


def _in_row_blocks(arg: int, size: int = _ROW_BLOCK, whole=None):
    """A statistic computed on blocks of ``size`` rows of its positional argument ``arg`` (the
    resamples' weights, or the permutations) and joined: every row's value is the row's own (the
    same arithmetic, row by row), and the temporaries hold one block, not all rows. ``whole(*args)``
    true: computed at once (a row of scores per row of weights is not split). ``columns`` (a
    keyword, a boolean mask): the statistic of those columns of ``arg``, each block's taken as it
    comes (the columns of all rows are never copied at once)."""

    def wrap(statistic):
        @functools.wraps(statistic)
        def blocked(*args, columns=None):
            rows = args[arg]

            def of(block):
                return block if columns is None else np.compress(columns, block, axis=1)

            if rows.shape[0] <= size or (whole is not None and whole(*args[:arg], of(rows[:1]), *args[arg + 1 :])):
                return statistic(*args[:arg], of(rows), *args[arg + 1 :])
            parts = [
                statistic(*args[:arg], of(rows[i : i + size]), *args[arg + 1 :]) for i in range(0, len(rows), size)
            ]
            if isinstance(parts[0], tuple):  # several values per row (tau-b and tau-c): each joined
                return tuple(np.concatenate(values) for values in zip(*parts))
            return np.concatenate(parts)

        return blocked

    return wrap


def random_permutations(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """``rng.random((rows, n)).argsort(axis=1)``, the same permutations, in less time on large
    ``n``: ``random`` draws integers over 2**53, so each draw's integer with its position in the
    low bits is one 63-bit key, and sorting the keys orders the draws. Where ``n`` needs more
    than 10 bits the keys keep the draws' leading bits only; a row where two keys share them
    (about one row in ten thousand at 120,000 draws) is ordered by ``argsort`` of its draws, as
    are rows with equal draws."""
    u = rng.random((rows, n))
    if n < 2:
        return u.argsort(axis=1)
    bits = (n - 1).bit_length()
    keys = np.empty((rows, n), np.int64)
    np.multiply(u, 2.0**53, out=keys, casting="unsafe")  # exact: each draw is an integer over 2**53
    keys >>= max(0, 53 + bits - 63)
    keys <<= bits
    keys |= np.arange(n)
    keys.sort(axis=1)
    for start in range(0, rows, 16):  # the rows where two leading parts tie, 16 at a time
        lead = keys[start : start + 16] >> bits
        for r in np.flatnonzero((lead[:, 1:] == lead[:, :-1]).any(axis=1)):
            keys[start + r] = u[start + r].argsort()  # positions: the mask below keeps them
    keys &= (1 << bits) - 1
    return keys.astype(np.intp, copy=False)


def _inverse(perms: np.ndarray) -> np.ndarray:
    """Each row's inverse permutation (what ``argsort`` of a permutation gives, in linear time)."""
    inv = np.empty_like(perms)
    np.put_along_axis(inv, perms, np.arange(perms.shape[1])[None, :], axis=1)
    return inv


@_in_row_blocks(2, _ROW_BLOCK // 2)
def _acc23_permuted(x: np.ndarray, y: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """acc23 (epsilon optimised) of each permutation of the scores, example i getting
    ``x[perm[i]]``. The scores in ascending order are the positions and each permutation gives
    them targets: with few distinct scores, the (score, target) cells weighted by how many of each
    a permutation makes (:class:`_FixedLevels`); otherwise each score a position and each
    permutation its own levels (:class:`_VaryingLevels`), in chunks of permutations. Blocks of
    permutations run one after another, as in :func:`_permuted`."""
    n = x.size
    order = np.argsort(x, kind="stable")
    (gx, kx), (gy, K) = _codes(x[order]), _codes(y)
    inv = _inverse(perms)  # the example each score goes to
    dtype = _exact_dtype(n)
    out = np.empty(perms.shape[0])
    if kx * K <= n:
        cells = gx[None, :] * K + gy[inv[:, order]]  # (permutations, positions)
        R = cells.shape[0]
        counts = np.bincount((cells + (np.arange(R) * kx * K)[:, None]).ravel(), minlength=R * kx * K)
        T = np.ascontiguousarray(counts.reshape(R, kx * K).T, dtype=dtype)
        used = np.flatnonzero(T.any(axis=1))
        T = T[used]
        T64 = T.astype(np.float64)
        same = (T64 * (T64 - 1) / 2).sum(axis=0)  # equal scores and targets: tied in both
        if used.size < 2:
            return np.where(n < 2, np.nan, same / max(n * (n - 1) / 2, 1))
        search = _Search(np.unique(x)[used // K], _FixedLevels(used % K, T), R)
        return (same + search.concordant + search.exact()[0]) / (n * (n - 1) / 2)
    xs = x[order]
    sizes = np.diff(np.r_[np.flatnonzero(np.r_[True, xs[1:] != xs[:-1]]), n])
    tied = np.repeat(sizes > 1, sizes)  # positions in a group of equal scores
    group_of = np.repeat(np.arange((sizes > 1).sum()), sizes[sizes > 1])
    n_tied = max(1, int((sizes > 1).sum()))
    step = max(1, (1 << 23) // max((n + 1) * K, 1))  # permutations per chunk: tables of at most 8M entries
    for s in range(0, perms.shape[0], step):
        L = np.ascontiguousarray(gy[inv[s : s + step][:, order]].T)  # (positions, permutations)
        R = L.shape[1]
        # pairs of equal scores (tied by every epsilon) are right when tied in the target
        key = (group_of[:, None] * K + L[tied]) + (np.arange(R) * n_tied * K)[None, :]
        counts = np.bincount(key.ravel(), minlength=R * n_tied * K).astype(np.float64)
        same = (counts * (counts - 1) / 2).reshape(R, -1).sum(axis=1)
        search = _Search(xs, _VaryingLevels(L, K, dtype), R)
        out[s : s + step] = (same + search.concordant + search.exact()[0]) / (n * (n - 1) / 2)
    return out


# --- detection ------------------------------------------------------------------------------------


@_in_row_blocks(2, whole=lambda x, pos, W: np.ndim(x) != 1)
def _auc_w(x, pos, W):
    """ROC AUC of "has an error" (``pos``) ranked by ``-x``, per row of W (ties count half)."""
    _, _, Gp = _groups(-x, W * pos)
    _, _, Gn = _groups(-x, W * (1 - pos))
    P, N = Gp.sum(1), Gn.sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = (Gp * (np.cumsum(Gn, axis=1) - Gn + Gn / 2)).sum(1) / (P * N)
    return np.where((P == 0) | (N == 0), np.nan, auc)


@_in_row_blocks(2, whole=lambda x, pos, W: np.ndim(x) != 1)
def _ap_w(x, pos, W):
    """Average precision of "has an error" ranked by ``-x`` (scikit-learn's step-wise sum over
    distinct scores), per row of W."""
    _, _, Gp = _groups(x, W * pos)  # ascending x = descending -x
    _, _, Gn = _groups(x, W * (1 - pos))
    tp, fp = np.cumsum(Gp, axis=1), np.cumsum(Gn, axis=1)
    P = Gp.sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        ap = (Gp * precision).sum(1) / P
    return np.where(P == 0, np.nan, ap)


def _folds(pos: np.ndarray, folds: int, seed: int):
    """Stratified folds (scikit-learn, shuffled with ``seed``), or None when a class has fewer
    examples than folds."""
    counts = np.bincount(pos.astype(np.int64), minlength=2)
    if counts.min() < folds or folds < 2:
        return None
    return list(StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed).split(np.zeros(pos.size), pos))


def _cv_predictions(
    X: np.ndarray, pos: np.ndarray, folds: int, seed: int, order=None, ascending=None
) -> np.ndarray | None:
    """Held-out "has an error" predictions (rows, n) for each row of scores X: in each fold the
    threshold t maximising balanced accuracy on the training folds (predict an error where
    score < t; t is -inf, +inf or the midpoint between consecutive distinct training scores; the
    smallest maximiser), applied to the held-out fold. None when the folds cannot be made.
    ``order``: each row's examples in ascending score, when known (the order of equal scores
    does not matter); ``ascending``: the scores in ascending order, where every row of X holds
    the same scores (a permutation's), so that a row's training scores in order are read from it."""
    splits = _folds(pos, folds, seed)
    if splits is None:
        return None
    R, n = X.shape
    pred = np.zeros(X.shape, bool)
    errors = pos.astype(np.int8)
    for train, test in splits:
        k = train.size
        if order is None:
            Xt = np.take(X, train, axis=1)
            sorted_train = np.argsort(Xt, axis=1, kind="stable")
            xs = np.take_along_axis(Xt, sorted_train, axis=1)
            err = errors[train][sorted_train]
        else:
            in_train = np.zeros(n, bool)
            in_train[train] = True
            kept = np.flatnonzero(in_train[order])  # each row's training examples, in its order
            sorted_train = np.take(order, kept).reshape(R, k)
            if ascending is None:
                xs = np.take_along_axis(X, sorted_train, axis=1)
            else:
                xs = ascending[kept.reshape(R, k) - (np.arange(R) * n)[:, None]]
            err = errors[sorted_train]
        n_err = int(err[0].sum(dtype=np.int64))
        # cutting below the c lowest (c = 0..k) predicts c errors, e of them right: balanced
        # accuracy (e / n_err + (n_ok - c + e) / n_ok) / 2 is (e k - c n_err + n_ok n_err) /
        # (2 n_err n_ok), so its smallest maximiser is the first maximum of the whole number
        # e k - c n_err over the cuts between distinct scores (no rounding can break a tie)
        gain = np.empty((R, k + 1), np.int64)
        gain[:, 0] = 0
        np.cumsum(err, axis=1, dtype=np.int64, out=gain[:, 1:])
        gain[:, 1:] *= k
        gain[:, 1:] -= np.arange(1, k + 1) * n_err
        np.copyto(gain[:, 1:k], np.iinfo(np.int64).min, where=~(xs[:, 1:] > xs[:, :-1]))
        best = np.argmax(gain, axis=1)
        lo = np.take_along_axis(xs, np.clip(best - 1, 0, k - 1)[:, None], axis=1)[:, 0]
        hi = np.take_along_axis(xs, np.clip(best, 0, k - 1)[:, None], axis=1)[:, 0]
        mid = lo + (hi - lo) / 2
        t = np.where(best == 0, -np.inf, np.where(best == k, np.inf, np.where(mid > lo, mid, hi)))
        pred[:, test] = np.take(X, test, axis=1) < t[:, None]
    return pred


@_in_row_blocks(2, whole=lambda x, pos, W: np.ndim(x) != 1)
def _bacc_from(pred: np.ndarray, pos: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Balanced accuracy of fixed predictions (n,) or (rows, n) per row of W."""
    P, N = W @ pos, W @ (1 - pos)
    tp = (W * (pred & (pos == 1))).sum(1)
    tn = (W * (~pred & (pos == 0))).sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((P == 0) | (N == 0), np.nan, (tp / P + tn / N) / 2)


# --- one metric, many weight rows -----------------------------------------------------------------


def _replicates(
    statistic: str, x, y, W, folds: int = 5, seed: int = 0, cache: dict | None = None, level=None, columns=None
):
    """(values, epsilons or None) of ``statistic`` per row of W (``cache``: a dict kept across
    the statistics of one metric, so tau-b and tau-c share their pair counts; ``level``: rows 1:
    only feed a percentile interval at that level, see :func:`_acc23_w`). ``columns``: a boolean
    mask of W's columns that x and y are (the detection statistics take them block by block)."""
    if statistic in ("roc_auc", "average_precision"):
        return (_auc_w if statistic == "roc_auc" else _ap_w)(x, y, W, columns=columns), None
    if statistic == "bacc":
        pred = _cv_predictions(x[None, :], y, folds, seed)
        if pred is None:
            return np.full(W.shape[0], np.nan), None
        return _bacc_from(pred[0], y, W, columns=columns), None
    if columns is not None:
        W = _kept(columns, W)
    if statistic == "pearson":
        return _pearson_w(x, y, W), None
    if statistic == "spearman":
        return _spearman_w(x, y, W), None
    if statistic in ("kendall_tau_b", "kendall_tau_c"):
        cache = {} if cache is None else cache
        if "kendall" not in cache:
            cache["kendall"] = _kendall_w(x, y, W)
        b, c = cache["kendall"]
        return (b if statistic == "kendall_tau_b" else c), None
    if statistic == "acc23":
        return _acc23_w(x, y, W, level)
    raise ValueError(f"unknown statistic {statistic!r}")


def _row(metric, statistic, values, level, n, eps=None) -> dict:
    low, high = resampling.interval(values[1:], level)
    return {
        "metric": metric,
        "statistic": statistic,
        "value": float(values[0]),
        "low": low,
        "high": high,
        "n": int(n),
        "epsilon": float(eps[0]) if eps is not None else float("nan"),
    }


def _check_statistics(statistics, allowed, what):
    unknown = [s for s in statistics if s not in allowed]
    if unknown:
        raise CorpusError(
            [Problem("statistics", 0, s, f"unknown {what} statistic (one of {', '.join(allowed)})") for s in unknown],
            "statistics",
        )


@_one_blas_thread
def example_level(
    scores: pd.DataFrame,
    target,
    weights: np.ndarray,
    *,
    statistics=EXAMPLE_STATISTICS,
    level: float = 0.95,
) -> pd.DataFrame:
    """Example-level correlation of each metric with the target, with paired percentile
    bootstrap intervals (the same resamples for every metric).

    Returns one row per metric and statistic: ``metric, statistic, value, low, high, n,
    epsilon`` (``n``: examples with both a score and a target; ``epsilon``: acc23's tie
    threshold on the full sample, NaN for the other statistics)."""
    _check_statistics(statistics, EXAMPLE_STATISTICS, "example-level")
    names, X, y, W, _, _ = _inputs(scores, target, weights)
    Wf = _with_full(W)
    rows, last = [], (None, None)
    with _deriving(Wf):
        for name, x in zip(names, X):
            keep, cache = ~np.isnan(x) & ~np.isnan(y), {}
            if last[0] is None or not np.array_equal(keep, last[0]):  # metrics on the same examples share one copy
                last = (keep, None)  # the previous copy goes before the next is made
                last = (keep, _kept(keep, Wf))
            for statistic in statistics:
                values, eps = _replicates(statistic, x[keep], y[keep], last[1], cache=cache, level=level)
                rows.append(_row(name, statistic, values, level, keep.sum(), eps))
        last = (None, None)
    return pd.DataFrame(rows, columns=COLUMNS)


@_one_blas_thread
def detection(
    scores: pd.DataFrame,
    majority,
    weights: np.ndarray,
    *,
    statistics=DETECTION_STATISTICS,
    folds: int = 5,
    seed: int = 0,
    level: float = 0.95,
) -> pd.DataFrame:
    """How well each metric detects the texts the humans' clear majority marks as erroneous
    (``majority`` True; NaN: no clear majority, dropped). A higher score means "more
    faithful", so the positive class "has an error" is ranked by the negated score.

    ``roc_auc`` and ``average_precision`` are scikit-learn's; ``bacc`` is balanced accuracy of
    held-out predictions, the threshold chosen on the other folds of a stratified ``folds``-fold
    split (shuffled with ``seed``; NaN when a class has fewer than ``folds`` examples), its
    interval from the same resamples of the pooled held-out predictions. Returns ``metric,
    statistic, value, low, high, n`` (``epsilon`` always NaN)."""
    _check_statistics(statistics, DETECTION_STATISTICS, "detection")
    names, X, y, W, _, _ = _inputs(scores, majority, weights, binary=True)
    Wf = _with_full(W)
    rows = []
    for name, x in zip(names, X):
        keep = ~np.isnan(x) & ~np.isnan(y)
        columns = None if keep.all() else keep
        for statistic in statistics:
            values, _ = _replicates(statistic, x[keep], y[keep], Wf, folds, seed, columns=columns)
            rows.append(_row(name, statistic, values, level, keep.sum()))
    return pd.DataFrame(rows, columns=COLUMNS)


@_one_blas_thread
def difference(
    scores: pd.DataFrame,
    target,
    first: str,
    second: str,
    weights: np.ndarray,
    *,
    statistics=EXAMPLE_STATISTICS,
    folds: int = 5,
    seed: int = 0,
    level: float = 0.95,
) -> pd.DataFrame:
    """``statistic(first) - statistic(second)`` on the examples both metrics scored, with its
    paired bootstrap interval: each resample's difference of the two metrics' values on that
    resample (acc23: each metric's epsilon re-optimised in it). Detection statistics need a
    True/False target. Returns ``first, second, statistic, value, low, high, n``."""
    binary = any(s in DETECTION_STATISTICS for s in statistics)
    _check_statistics(statistics, EXAMPLE_STATISTICS + DETECTION_STATISTICS, "example-level or detection")
    names, X, y, W, _, _ = _inputs(scores, target, weights, binary=binary)
    _check_metrics([first, second], names)
    a, b = X[names.index(first)], X[names.index(second)]
    keep = ~np.isnan(a) & ~np.isnan(b) & ~np.isnan(y)
    Wf = np.compress(keep, _with_full(W), axis=1)
    rows, cache_a, cache_b = [], {}, {}
    for statistic in statistics:
        va, _ = _replicates(statistic, a[keep], y[keep], Wf, folds, seed, cache_a)
        vb, _ = _replicates(statistic, b[keep], y[keep], Wf, folds, seed, cache_b)
        delta = va - vb
        low, high = resampling.interval(delta[1:], level)
        rows.append(
            {"first": first, "second": second, "statistic": statistic, "value": float(delta[0])}
            | {"low": low, "high": high, "n": int(keep.sum())}
        )
    return pd.DataFrame(rows, columns=["first", "second", "statistic", "value", "low", "high", "n"])


def _check_metrics(wanted, names):
    missing = [m for m in wanted if m not in names]
    if missing:
        raise CorpusError([Problem("scores", 0, m, "no such metric column") for m in missing], "the comparison")


# --- many score rows, one target (permutations) ---------------------------------------------------


def _ties_sorted(S: np.ndarray):
    """Tied pairs and distinct values of each row of an ascending-sorted matrix."""
    R, n = S.shape
    start = np.ones((R, n), bool)
    start[:, 1:] = S[:, 1:] != S[:, :-1]
    run = np.cumsum(start, axis=1) - 1 + (np.arange(R) * n)[:, None]
    lengths = np.bincount(run.ravel(), minlength=R * n).reshape(R, n).astype(float)
    return (lengths * (lengths - 1) / 2).sum(1), start.sum(1)


def _pearson_rows(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    dx = X - X.mean(axis=1, keepdims=True)
    dy = y - y.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        r = dx @ dy / np.sqrt((dx * dx).sum(1) * (dy @ dy))
    flat = (np.ptp(X, axis=1) == 0) | (np.ptp(y) == 0) if X.shape[1] else np.ones(X.shape[0], bool)
    return np.where(flat, np.nan, np.clip(r, -1, 1))


def _spearman_rows(X, y, ranks=None):
    return _pearson_rows(sps.rankdata(X, axis=1) if ranks is None else ranks, sps.rankdata(y))


def _concordance_rows(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Concordant minus discordant pairs of each row of X against y. With few target values
    (fewer than n / 4): each row sorted once, and for each target value a the cumulative count
    of a among strictly lower scores (ties excluded) meets ``sign(y_j - a)``: ``O(rows * n *
    values)``. Otherwise blocks of example pairs, ``O(rows * n**2)``."""
    R, n = X.shape
    gy, ky = _codes(y)
    if 4 * ky >= n:
        ii, jj = np.triu_indices(n, 1)
        sy = np.sign(y[ii] - y[jj])
        keep = sy != 0
        ii, jj, sy = ii[keep], jj[keep], sy[keep]
        XT = np.ascontiguousarray(X.T)
        s = np.zeros(R)
        for a in range(0, ii.size, _BLOCK):
            b = a + _BLOCK
            s += sy[a:b] @ np.sign(np.take(XT, ii[a:b], axis=0) - np.take(XT, jj[a:b], axis=0))
        return s
    order = np.argsort(X, axis=1, kind="stable")
    xs = np.take_along_axis(X, order, axis=1)
    levels = gy[order]
    start = np.ones((R, n), bool)
    start[:, 1:] = xs[:, 1:] != xs[:, :-1]
    first = np.maximum.accumulate(np.where(start, np.arange(n), 0), axis=1)  # start of each tie run
    s = np.zeros(R)
    for a in range(ky):
        count = np.hstack([np.zeros((R, 1)), np.cumsum(levels == a, axis=1)])
        below = np.take_along_axis(count, first, axis=1)  # value a among strictly lower scores
        s += (np.sign(levels - a) * below).sum(axis=1)
    return s


def _kendall_rows(X: np.ndarray, y: np.ndarray):
    """tau-b and tau-c of each row of X against y, all rows at once."""
    R, n = X.shape
    s = _concordance_rows(X, y)
    n1, kx = _ties_sorted(np.sort(X, axis=1))
    n2, ky = _ties_sorted(np.sort(y)[None, :])
    return _kendall_from(s, np.full(R, float(n)), n1, n2, kx, ky)


def _auc_rows(X, pos, ranks=None):
    """ROC AUC per row (``ranks``: the mid-ranks of -X, when known)."""
    ranks = sps.rankdata(-X, axis=1) if ranks is None else ranks
    P, N = pos.sum(), (1 - pos).sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = (ranks @ pos - P * (P + 1) / 2) / (P * N)
    return np.full(X.shape[0], np.nan) if P == 0 or N == 0 else auc


def _ap_rows(X, pos, order=None):
    """Average precision of "has an error" ranked by -X, per row (ties as scikit-learn;
    ``order``: each row's examples in ascending score, when known)."""
    R, n = X.shape
    order = np.argsort(X, axis=1, kind="stable") if order is None else order  # ascending score = descending -score
    xs = np.take_along_axis(X, order, axis=1)
    tp = np.cumsum(pos[order], axis=1)
    end = np.ones((R, n), bool)
    end[:, :-1] = xs[:, 1:] != xs[:, :-1]
    prev = np.maximum.accumulate(np.where(end, tp, 0), axis=1)
    prev = np.hstack([np.zeros((R, 1)), prev[:, :-1]])
    P = pos.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        ap = (np.where(end, (tp - prev) * tp / (np.arange(n) + 1), 0)).sum(1) / P
    return np.full(R, np.nan) if P == 0 else ap


def _bacc_rows(X, pos, folds, seed):
    pred = _cv_predictions(X, pos, folds, seed)
    if pred is None:
        return np.full(X.shape[0], np.nan)
    return _bacc_from(pred, pos, np.ones((1, pos.size)))


def _rows(statistic: str, X: np.ndarray, y: np.ndarray, folds: int, seed: int) -> np.ndarray:
    """``statistic`` of each row of scores X against y on the full sample (no epsilon search)."""
    if X.shape[1] < 2:
        return np.full(X.shape[0], np.nan)
    if statistic == "pearson":
        return _pearson_rows(X, y)
    if statistic == "spearman":
        return _spearman_rows(X, y)
    if statistic in ("kendall_tau_b", "kendall_tau_c"):
        b, c = _kendall_rows(X, y)
        return b if statistic == "kendall_tau_b" else c
    if statistic == "roc_auc":
        return _auc_rows(X, y)
    if statistic == "average_precision":
        return _ap_rows(X, y)
    if statistic == "bacc":
        return _bacc_rows(X, y, folds, seed)
    raise ValueError(f"no row form for {statistic!r}")


# --- comparisons ----------------------------------------------------------------------------------


def _zscore(x: np.ndarray) -> np.ndarray:
    """scipy's ``zscore`` (ddof 0); a constant metric becomes zeros instead of NaN."""
    sd = x.std()
    return (x - x.mean()) / sd if sd > 0 else np.zeros_like(x)


def _acc23_outcomes(x: np.ndarray, y: np.ndarray, eps: float) -> np.ndarray:
    """Per pair i < j: right (1) or wrong (0) under acc23 with tie threshold ``eps``."""
    ii, jj = np.triu_indices(x.size, 1)
    dx, sy = x[ii] - x[jj], np.sign(y[ii] - y[jj])
    tie = np.abs(dx) <= eps
    return np.where(tie, sy == 0, np.sign(dx) * sy > 0)


def _entry_concordance(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """For each entry k, ``sum_k' sign(p_k' - p_k) sign(q_k' - q_k)`` over all entries (unit weights):
    the counts of entries below-left, above-right, above-left and below-right of it, from the
    cumulative counts on the grid of distinct values."""
    (gp, kp), (gq, kq) = _codes(p), _codes(q)
    if kp * kq > 1 << 24:  # a grid that big: the pairs directly, in chunks of entries
        out = np.zeros(p.size)
        step = max(1, (1 << 22) // max(p.size, 1))
        for s in range(0, p.size, step):
            out[s : s + step] = (
                np.sign(p[None, :] - p[s : s + step, None]) * np.sign(q[None, :] - q[s : s + step, None])
            ).sum(1)
        return out
    grid = np.zeros((kp + 1, kq + 1))
    np.add.at(grid, (gp + 1, gq + 1), 1)
    P2 = grid.cumsum(0).cumsum(1)  # P2[i, j]: entries with p code < i and q code < j
    below_left = P2[gp, gq]
    below_right = P2[gp, kq] - P2[gp, gq + 1]
    above_left = P2[kp, gq] - P2[gp + 1, gq]
    above_right = p.size - P2[gp + 1, kq] - P2[kp, gq + 1] + P2[gp + 1, gq + 1]
    return below_left + above_right - below_right - above_left


_KEPT_WEIGHTS = 1 << 28  # bytes of PERM-BOTH's hybrid weights kept for every comparison (:class:`_MaskWeights`)


def _draws(n_permutations: int, n: int, seed: int) -> tuple[np.ndarray, _MaskWeights]:
    """PERM-BOTH's swap masks, ``default_rng(seed).random((n_permutations, n)) < 0.5``, and, for
    :func:`_hybrid_kendall`, the weights of the first-like hybrids' entries (a's scores then
    b's: the mask, then its complement), in chunks of draws."""
    rng = np.random.default_rng(seed)
    masks = np.empty((n_permutations, n), bool)
    for cols in _chunks(n_permutations):  # the same stream as one draw of every row, a chunk at a time
        masks[cols] = rng.random((cols.stop - cols.start, n)) < 0.5
    return masks, _MaskWeights(masks, _exact_dtype(n))


class _MaskWeights:
    """The weights of :func:`_draws`, a chunk of draws at a time: made once and kept for every
    comparison where all of them take at most :data:`_KEPT_WEIGHTS` bytes, else each made when it
    is read (on a hundred times the d2t test split all of them at once are two gigabytes)."""

    def __init__(self, masks: np.ndarray, dtype):
        self.dtype = dtype
        self.by_example = np.ascontiguousarray(masks.T)  # transposed once: a chunk is then a plain copy
        kept = 2 * masks.size * np.dtype(dtype).itemsize <= _KEPT_WEIGHTS
        self._made = list(self._make()) if kept else None
        if kept:
            self.by_example = None  # every chunk is made: the transposed masks are not read again

    def _make(self, into: bool = False):
        """Each chunk's weights; ``into``: each written into the same array, read before the next
        (half a gigabyte of fresh pages per comparison on a hundred times the d2t test split)."""
        n, R = self.by_example.shape
        buffer = np.empty((2 * n, min(R, _COLUMNS)), self.dtype) if into else None
        for cols in _chunks(R):
            c = cols.stop - cols.start
            w = buffer[:, :c] if buffer is not None else np.empty((2 * n, c), self.dtype)
            w[:n] = self.by_example[:, cols]
            np.subtract(1, w[:n], out=w[n:])  # the complement, b's entries
            yield w

    def __iter__(self):
        return iter(self._made) if self._made is not None else self._make(into=True)


def _hybrid_kendall(za: np.ndarray, zb: np.ndarray, y: np.ndarray, weights: _MaskWeights, tau_c: bool = True):
    """tau-b and tau-c of every first-like hybrid (a's score where the mask is set, b's
    elsewhere) and every second-like one (the other scores), against y: ``(b_first, c_first,
    b_second, c_second)``. One set of entries, a's scores then b's, weighted 1 where a hybrid
    takes them (``weights`` of :func:`_draws`): a column per first-like hybrid, all scored at
    once by :func:`_concordance`. A second-like hybrid weighs each entry 1 - w, and its
    concordance is the quadratic form at 1 - w, ``S(1) - a.w + S(w)`` with ``a`` of
    :func:`_entry_concordance`. ``tau_c=False``: tau-c (its distinct values) left out, NaN."""
    n = za.size
    dtype = weights.dtype
    p, q = np.r_[za, zb], np.r_[y, y]
    plan = _concordance_plan(p, q, dtype)
    a = _entry_concordance(p, q)
    counts = np.bincount(_codes(p)[0]).astype(np.float64)  # entries per distinct score
    n2, ky = _tie_stats(np.bincount(_codes(y)[0])[:, None])
    parts = []
    for w in weights:
        out = _concordance(plan, w)
        X = out["L"] if out["swapped"] else out["G"]  # the weight of each distinct score
        # a hybrid takes one entry per example: its weights sum to n; the second-like ones are
        # counts - X, whose squares sum to counts^2 - 2 counts.X + X^2
        squares = np.einsum("gr,gr->r", X, X).astype(np.float64)
        squares_second = counts @ counts - 2 * (counts.astype(dtype) @ X) + squares
        parts.append(
            (
                out["s"],
                out["s"] + a.sum() / 2 - a @ w,
                (squares - n) / 2,
                (squares_second - n) / 2,
                np.count_nonzero(X, axis=0) if tau_c else np.zeros(X.shape[1]),
                np.count_nonzero(X != counts[:, None].astype(dtype), axis=0) if tau_c else np.zeros(X.shape[1]),
            )
        )
    s1, s2, n1, n1_second, k1, k1_second = map(np.concatenate, zip(*parts))
    M = np.full(s1.size, float(n))
    b1, c1 = _kendall_from(s1, M, n1, n2, k1, ky)
    b2, c2 = _kendall_from(s2, M, n1_second, n2, k1_second, ky)
    if not tau_c:
        c1, c2 = np.full(c1.shape, np.nan), np.full(c2.shape, np.nan)
    return b1, c1, b2, c2


def _perm_both(statistic, a, b, y, draws, folds, seed):
    """PERM-BOTH (mt-metrics-eval ``PermutationSigDiff``, without early stopping) of
    ``statistic(a) > statistic(b)`` with the swap masks of ``draws`` (:func:`_draws`): (value a,
    value b, delta, permuted deltas)."""
    masks, weights = draws
    za, zb = _zscore(a), _zscore(b)
    if statistic in ("kendall_tau_b", "kendall_tau_c"):
        ones = np.ones((1, y.size))
        k = 0 if statistic == "kendall_tau_b" else 1
        va, vb = float(_kendall_w(za, y, ones)[k][0]), float(_kendall_w(zb, y, ones)[k][0])
        b_first, c_first, b_second, c_second = _hybrid_kendall(za, zb, y, weights, tau_c=k == 1)
        first_like, second_like = (b_first, b_second) if k == 0 else (c_first, c_second)
    else:
        va, vb = _rows(statistic, np.vstack([za, zb]), y, folds, seed).tolist()
        second_like = _rows(statistic, np.where(masks, zb, za), y, folds, seed)
        first_like = _rows(statistic, np.where(masks, za, zb), y, folds, seed)
    return va, vb, va - vb, first_like - second_like


def _pairs_test(a, b, y, alternative: str = "greater"):
    """mt-metrics-eval's ``PairwisePermutationSigDiff`` for acc23 (WMT23/24's choice): each
    metric's epsilon optimised once, then each pair's outcome swapped between the metrics with
    probability 1/2. The null distribution of the difference is that of ``2 B - K`` with
    ``B ~ Binomial(K, 1/2)`` over the K pairs where the metrics' outcomes differ, so the
    p-value is exact (the limit of their Monte Carlo estimate); two-sided: ``|2 B - K| >= |D|``."""
    ones = np.ones((1, y.size))
    (va,), (ea,) = _acc23_w(a, y, ones)
    (vb,), (eb,) = _acc23_w(b, y, ones)
    d = _acc23_outcomes(a, y, ea).astype(np.int64) - _acc23_outcomes(b, y, eb)
    K, D = int(np.abs(d).sum()), int(d.sum())
    if alternative == "two-sided":
        B = np.arange(K + 1)
        p = float(sps.binom.pmf(B, K, 0.5)[np.abs(2 * B - K) >= abs(D)].sum())
    else:
        p = float(sps.binom.sf(np.ceil((D + K) / 2) - 1, K, 0.5))
    return va, vb, va - vb, p


@_one_blas_thread
def permutation_test(
    scores: pd.DataFrame,
    target,
    first: str,
    second: str,
    statistic: str,
    *,
    n_permutations: int = 1000,
    seed: int = 0,
    alternative: str = "greater",
    folds: int = 5,
) -> pd.DataFrame:
    """Paired permutation test that ``first`` has the higher ``statistic`` than ``second``, on
    the examples both scored.

    PERM-BOTH (Deutsch et al. 2021; mt-metrics-eval ``stats.PermutationSigDiff``): both metrics'
    scores are standardised (z-scores, ddof 0), and in each of ``n_permutations`` draws every
    example's two scores are swapped with probability 1/2 (mask ``rng.random((n_permutations,
    n)) < 0.5``, ``rng = np.random.default_rng(seed)``; where set, the "first-like" hybrid takes
    first's score); ``p_value`` is the share of draws whose ``statistic(first-like) -
    statistic(second-like)`` is at least the observed ``delta`` (``alternative="two-sided"``:
    whose absolute value is at least ``|delta|``), a draw within 1e-9 of it counting as reaching
    it (the unswapped draw must, whatever the rounding). No early stopping (mt-metrics-eval
    with ``block_size >= k``). For the Kendall variants every draw's two hybrids are scored at
    once: one set of entries (first's scores, then second's), a first-like hybrid a column of
    0/1 weights over them (:func:`_hybrid_kendall`), the second-like one its complement. For
    ``acc23`` the test is WMT23/24's ``PairwisePermutationSigDiff`` (each metric's epsilon fixed
    at its optimum on these examples, pair outcomes swapped), with the exact p-value (see
    ``_pairs_test``). Returns one row: ``first, second, statistic, value_first, value_second,
    delta, p_value, n, n_permutations``."""
    binary = statistic in DETECTION_STATISTICS
    _check_statistics([statistic], EXAMPLE_STATISTICS + DETECTION_STATISTICS, "example-level or detection")
    if alternative not in ("greater", "two-sided"):
        raise CorpusError([Problem("alternative", 0, "", f"{alternative!r}: 'greater' or 'two-sided'")], "the test")
    names, X, y, _, _, _ = _inputs(scores, target, np.zeros((0, len(scores))), binary=binary)
    _check_metrics([first, second], names)
    a, b = X[names.index(first)], X[names.index(second)]
    keep = ~np.isnan(a) & ~np.isnan(b) & ~np.isnan(y)
    return pd.DataFrame(
        [_test(statistic, a[keep], b[keep], y[keep], first, second, n_permutations, seed, alternative, folds)]
    )


def _test(statistic, a, b, y, first, second, n_permutations, seed, alternative, folds, draws=None) -> dict:
    """One comparison's row; ``draws``: PERM-BOTH's masks and their transpose (:func:`_draws`)
    when the caller has them already."""
    if y.size < 2:
        va = vb = delta = p = float("nan")
        n_perm = 0
    elif statistic == "acc23":
        va, vb, delta, p = _pairs_test(a, b, y, alternative)
        n_perm = 0
    else:
        draws = _draws(n_permutations, y.size, seed) if draws is None else draws
        va, vb, delta, null = _perm_both(statistic, a, b, y, draws, folds, seed)
        with np.errstate(invalid="ignore"):
            # draws within rounding of the observed difference reach it (the unswapped draw must)
            hit = np.abs(null) >= abs(delta) - 1e-9 if alternative == "two-sided" else null >= delta - 1e-9
        p = float(hit.mean()) if np.isfinite(delta) and n_permutations else float("nan")
        n_perm = n_permutations
    return {
        "first": first,
        "second": second,
        "statistic": statistic,
        "value_first": va,
        "value_second": vb,
        "delta": delta,
        "p_value": p,
        "n": int(y.size),
        "n_permutations": n_perm,
    }


@_one_blas_thread
def significance(
    scores: pd.DataFrame,
    target,
    statistic: str,
    *,
    n_permutations: int = 1000,
    seed: int = 0,
    folds: int = 5,
) -> pd.DataFrame:
    """Every pairwise :func:`permutation_test` among the metrics, mt-metrics-eval's
    ``ComputeSigMatrix``: metrics ordered by decreasing ``statistic`` on their own examples (ties
    by name), and for each i < j in that order the p-value that metric i beats metric j (on the
    examples both scored). Rows as :func:`permutation_test`'s, in that order."""
    binary = statistic in DETECTION_STATISTICS
    names, X, y, _, _, _ = _inputs(scores, target, np.zeros((0, len(scores))), binary=binary)
    values = {}
    for name, x in zip(names, X):
        keep = ~np.isnan(x) & ~np.isnan(y)
        values[name] = float(_replicates(statistic, x[keep], y[keep], np.ones((1, keep.sum())), folds, seed)[0][0])
    ranked = sorted(names, key=lambda m: (-np.nan_to_num(values[m], nan=-np.inf), m))
    rows, draws = [], {}  # the draws depend only on the number of examples: drawn once per number
    for i, j in combinations(range(len(ranked)), 2):
        a, b = X[names.index(ranked[i])], X[names.index(ranked[j])]
        keep = ~np.isnan(a) & ~np.isnan(b) & ~np.isnan(y)
        n = int(keep.sum())
        if statistic != "acc23" and n >= 2 and n not in draws:
            draws[n] = _draws(n_permutations, n, seed)
        rows.append(
            _test(
                statistic,
                a[keep],
                b[keep],
                y[keep],
                ranked[i],
                ranked[j],
                n_permutations,
                seed,
                "greater",
                folds,
                draws.get(n),
            )
        )
    frame = pd.DataFrame(
        rows,
        columns=[
            "first",
            "second",
            "statistic",
            "value_first",
            "value_second",
            "delta",
            "p_value",
            "n",
            "n_permutations",
        ],
    )
    frame.attrs["values"] = values
    return frame


def assign_clusters(pvalues: np.ndarray, alpha: float = 0.05) -> list[int]:
    """mt-metrics-eval's ``AssignRanks``: ``pvalues[i, j]`` (i < j, metrics in decreasing order of
    the statistic) is the p-value that metric i beats metric j. Walking down the order, metric
    i starts a new cluster (rank + 1) when some metric of the current cluster beats it with
    p <= alpha; the current cluster then starts at i."""
    p = np.asarray(pvalues, float)
    ranks, rank, start = [], 1, 0
    for i in range(p.shape[0]):
        if np.any(p[start:i, i] <= alpha):
            rank, start = rank + 1, i
        ranks.append(rank)
    return ranks


def clusters(tests: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Significance clusters from :func:`significance`'s rows (or any frame with ``first,
    second, value_first, value_second, p_value``): metrics in decreasing order of their value
    (ties by name), :func:`assign_clusters` on the p-values. Returns ``metric, statistic,
    value, cluster`` (a nullable integer: <NA> for a metric whose value is undefined)."""
    values = dict(tests.attrs.get("values", {}))
    for row in tests.itertuples(index=False):
        values.setdefault(row.first, row.value_first)
        values.setdefault(row.second, row.value_second)
    order = sorted(values, key=lambda m: (-np.nan_to_num(values[m], nan=-np.inf), m))
    index = {m: i for i, m in enumerate(order)}
    p = np.ones((len(order), len(order)))
    for row in tests.itertuples(index=False):
        i, j = index[row.first], index[row.second]
        if i < j:
            p[i, j] = row.p_value
    statistic = tests["statistic"].iloc[0] if len(tests) else ""
    defined = [i for i, m in enumerate(order) if np.isfinite(values[m])]
    cluster = pd.array([pd.NA] * len(order), dtype="Int64")
    cluster[defined] = assign_clusters(p[np.ix_(defined, defined)], alpha)
    return pd.DataFrame(
        {"metric": order, "statistic": statistic, "value": [values[m] for m in order], "cluster": cluster}
    )


# --- random baseline ------------------------------------------------------------------------------

_EXACT = {"pearson": 0.0, "spearman": 0.0, "kendall_tau_b": 0.0, "kendall_tau_c": 0.0, "roc_auc": 0.5}
RANDOM_EXACT = _EXACT  # what random_baseline's value is by definition, statistic by statistic


@_in_row_blocks(2, _ROW_BLOCK // 2)
def _kendall_permuted(x: np.ndarray, y: np.ndarray, perms: np.ndarray):
    """tau-b and tau-c of each permutation of the scores, example i getting ``x[perm[i]]``:
    the (score, target) cells weighted by how many of each a permutation makes, scored by
    :func:`_concordance`; the ties of either side are those of x and y. With many cells (two
    sides of many values: faster) the permuted rows one by one (:func:`_kendall_rows`). Blocks of
    permutations one after another, as in :func:`_permuted` (a pair of tables per block)."""
    n = x.size
    if n < 2:
        return np.full(perms.shape[0], np.nan), np.full(perms.shape[0], np.nan)
    (gx, kx), (gy, K) = _codes(x), _codes(y)
    (n1, k1), (n2, k2) = (_tie_stats(np.bincount(g)[:, None].astype(np.float64)) for g in (gx, gy))
    R = perms.shape[0]
    if kx * K > 8 * n and K > _LEVELS:
        return _kendall_rows(x[perms], y)
    if kx * K > 8 * n:  # each permutation gives the ascending scores their target levels
        inv = _inverse(perms)
        order = np.argsort(x, kind="stable")
        L = gy[inv[:, order]]  # (permutations, positions)
        tied = 0.0
        if kx < n:  # equal scores: their levels sorted, and the pairs of distinct levels among them taken out
            keys = np.sort(gx[order][None, :] * K + L, axis=1)
            L = keys - gx[order][None, :] * K
            new = np.ones(keys.shape, bool)
            new[:, 1:] = keys[:, 1:] != keys[:, :-1]
            at = np.arange(n)[None, :]
            equal_pairs = (at - np.maximum.accumulate(np.where(new, at, 0), axis=1)).sum(axis=1)
            tied = n1[0] - equal_pairs
        s = _pair_signs_levels(np.ascontiguousarray(L.T), K) - tied
        return _kendall_from(s, np.full(R, float(n)), n1[0], n2[0], k1[0], k2[0])
    cells = gx[perms] * K + gy[None, :]  # (permutations, examples): the cell each example lands in
    dtype = _exact_dtype(n)
    counts = np.bincount((cells + (np.arange(R) * kx * K)[:, None]).ravel(), minlength=R * kx * K)
    T = counts.reshape(R, kx * K).T.astype(dtype)
    grid = np.arange(kx * K)
    plan = _concordance_plan(grid // K, grid % K, dtype)
    s = np.concatenate([_concordance(plan, np.ascontiguousarray(T[:, cols]))["s"] for cols in _chunks(R)])
    return _kendall_from(s, np.full(R, float(n)), n1[0], n2[0], k1[0], k2[0])


def _pair_signs_levels(L: np.ndarray, K: int) -> np.ndarray:
    """``sum_{k < k'} sign(L_k' - L_k)`` per column of L (positions x columns of level codes, unit
    weights): the pairs inside blocks of 16 positions compared directly, the pairs across blocks
    from each block's count per level (:func:`_between`)."""
    C, R = L.shape
    B = 16
    nb = -(-C // B)
    Lb = np.full((nb * B, R), -1, np.int64)
    Lb[:C] = L
    Lb = Lb.reshape(nb, B, R)
    valid = Lb >= 0
    upper = np.triu(np.ones((B, B), bool), 1)[None, :, :, None]
    signs = np.sign(Lb[:, None, :, :] - Lb[:, :, None, :]).astype(np.int8)  # [b, i, j] = sign(L_j - L_i)
    pairs = upper & valid[:, :, None, :] & valid[:, None, :, :]
    within = np.where(pairs, signs, 0).sum(axis=(0, 1, 2), dtype=np.int64)
    blocks = np.repeat(np.arange(nb), B)[:, None]
    key = ((blocks * K + Lb.reshape(-1, R)) * R + np.arange(R))[valid.reshape(-1, R)]
    dtype = _exact_dtype(C)
    H = np.bincount(key, minlength=nb * K * R).reshape(nb, K, R).astype(dtype)
    return within + _between(H, _sign_matrix(K, dtype))


@_in_row_blocks(3, _ROW_BLOCK // 2)
def _permuted(statistic: str, x, y, perms, folds: int, seed: int) -> np.ndarray:
    """``statistic`` of each permutation of the scores against y (example i gets
    ``x[perm[i]]``), sorting the scores once: a row's ranks are the permuted ranks of x, its
    examples in ascending score the inverse permutation of the ascending order of x. Blocks of
    permutations run one after another (each row is its own permutation's: the same values, and
    the temporaries hold a block)."""
    R, n = perms.shape
    if n < 2:
        return np.full(R, np.nan)
    if statistic == "spearman":
        return _pearson_rows(sps.rankdata(x)[perms], sps.rankdata(y))
    if statistic == "roc_auc":
        ranks = sps.rankdata(-x)[perms]
        return _auc_rows(ranks, y, ranks)  # the ranks of -X are all it reads
    X = x[perms]
    if statistic not in ("average_precision", "bacc"):
        return _rows(statistic, X, y, folds, seed)
    ascending = np.argsort(x, kind="stable")
    order = _inverse(perms)[:, ascending]  # each row's examples, ascending score
    if statistic == "average_precision":
        return _ap_rows(X, y, order)
    pred = _cv_predictions(X, y, folds, seed, order, x[ascending])
    return np.full(R, np.nan) if pred is None else _bacc_from(pred, y, np.ones((1, n)))


@_one_blas_thread
def random_baseline(
    scores: pd.DataFrame,
    target,
    *,
    statistics=EXAMPLE_STATISTICS,
    n_random: int = 200,
    seed: int = 0,
    folds: int = 5,
    level: float = 0.95,
) -> pd.DataFrame:
    """What a metric scoring at random reaches: each metric's own scores randomly permuted
    among its examples (``n_random`` permutations, ``rng.random((n_random, n)).argsort(1)`` with
    ``rng = np.random.default_rng([seed, m])`` for the metric in column ``m``), so ties and
    distribution are the metric's.

    ``value`` is the expectation over permutations: exactly 0 for the correlations and 0.5 for
    ROC AUC (``how = "exact"``; NaN where the statistic is undefined), the mean over the
    permutations for acc23 (epsilon re-optimised on each), average precision and bacc
    (``how = "mean of permutations"``). ``low, high``: the central ``level`` range of the
    permutations' values (the range a random metric falls in on this sample). The scores are
    sorted once: a permutation's ranks are the permuted ranks, its examples in ascending score
    the permuted order; its Kendall S and acc23 come from the (score, target) cells it fills or
    from the targets it gives the ascending scores. Returns
    ``metric, statistic, value, low, high, n, how``. :func:`random_baselines` does several
    targets with one set of permutations."""
    return random_baselines(scores, {"": (target, statistics)}, n_random=n_random, seed=seed, folds=folds, level=level)[
        ""
    ]


@_one_blas_thread
def random_baselines(
    scores: pd.DataFrame,
    targets: dict,
    *,
    metrics: list[str] | None = None,
    n_random: int = 200,
    seed: int = 0,
    folds: int = 5,
    level: float = 0.95,
) -> dict[str, pd.DataFrame]:
    """:func:`random_baseline` of several targets, name -> (target, statistics), each metric's
    permutations drawn once for all of them (they depend on the metric's column and the number
    of examples it is scored on only, so every frame equals its own :func:`random_baseline`).
    ``metrics``: the columns to compute (default all; a column keeps its position's stream)."""
    allowed = EXAMPLE_STATISTICS + DETECTION_STATISTICS
    prepared = {}
    for key, (target, statistics) in targets.items():
        _check_statistics(statistics, allowed, "example-level or detection")
        binary = any(s in DETECTION_STATISTICS for s in statistics)
        names, X, y, _, _, _ = _inputs(scores, target, np.zeros((0, len(scores))), binary=binary)
        prepared[key] = (X, y, tuple(statistics))
    rows: dict[str, list] = {key: [] for key in targets}
    for m, name in enumerate(str(c) for c in scores.columns):
        if metrics is not None and name not in metrics:
            continue
        drawn: dict[int, np.ndarray] = {}  # permutations by number of examples
        for key, (X, y, statistics) in prepared.items():
            x = X[m]
            keep = ~np.isnan(x) & ~np.isnan(y)
            xk, yk = x[keep], y[keep]
            if xk.size not in drawn:
                drawn[xk.size] = random_permutations(np.random.default_rng([seed, m]), n_random, xk.size)
            rows[key] += _random_rows(name, xk, yk, drawn[xk.size], statistics, folds, seed, level)
    columns = ["metric", "statistic", "value", "low", "high", "n", "how"]
    out = {key: pd.DataFrame(found, columns=columns) for key, found in rows.items()}
    if metrics is not None:  # rows in the order of the columns asked for
        order = {name: i for i, name in enumerate(str(c) for c in scores.columns)}
        out = {k: f.sort_values("metric", key=lambda s: s.map(order), kind="stable") for k, f in out.items()}
        out = {k: f.reset_index(drop=True) for k, f in out.items()}
    return out


def _random_rows(name, xk, yk, perms, statistics, folds, seed, level) -> list[dict]:
    """The rows of :func:`random_baseline` for one metric and target."""
    n_random = perms.shape[0]
    rows = []
    kendall = None
    for statistic in statistics:
        if statistic == "acc23":
            values = _acc23_permuted(xk, yk, perms) if xk.size >= 2 else np.full(n_random, np.nan)
        elif statistic in ("kendall_tau_b", "kendall_tau_c"):
            if kendall is None:
                kendall = _kendall_permuted(xk, yk, perms)
            values = kendall[0 if statistic == "kendall_tau_b" else 1]
        else:
            values = _permuted(statistic, xk, yk, perms, folds, seed)
        low, high = resampling.interval(values, level)
        if statistic in _EXACT:
            defined = np.isfinite(values).any()
            value, how = (_EXACT[statistic] if defined else float("nan")), "exact"
        else:
            value = float(np.nanmean(values)) if np.isfinite(values).any() else float("nan")
            how = "mean of permutations"
        rows.append(
            {"metric": name, "statistic": statistic, "value": value, "low": low, "high": high}
            | {"n": int(xk.size), "how": how}
        )
    return rows


# --- system level ---------------------------------------------------------------------------------


def cluster_weights(item, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """(n_boot, n) weights that resample items (inputs) with replacement, each example taking its
    item's count: a bootstrap that keeps the systems paired on their inputs (WMT's
    system-level bootstrap). Pass it as ``weights`` to :func:`system_level`."""
    codes, uniques = pd.factorize(np.asarray(item, dtype=object))
    return resampling.weights(len(uniques), n_boot, rng)[:, codes]


def _masked_pearson(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Pearson per row over the columns where both are defined."""
    ok = ~np.isnan(A) & ~np.isnan(B)
    k = ok.sum(1)
    a, b = np.where(ok, A, 0.0), np.where(ok, B, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        da = np.where(ok, a - (a.sum(1) / k)[:, None], 0.0)
        db = np.where(ok, b - (b.sum(1) / k)[:, None], 0.0)
        saa, sbb = (da * da).sum(1), (db * db).sum(1)
        r = (da * db).sum(1) / np.sqrt(saa * sbb)
    return np.where((k < 2) | (saa == 0) | (sbb == 0), np.nan, np.clip(r, -1, 1))


def _masked_pairs(A: np.ndarray, B: np.ndarray):
    """Per row, over column pairs i < j defined on both sides: the signs of A and B differences
    and the validity mask, each (rows, pairs)."""
    ii, jj = np.triu_indices(A.shape[1], 1)
    ok = ~np.isnan(A[:, ii]) & ~np.isnan(A[:, jj]) & ~np.isnan(B[:, ii]) & ~np.isnan(B[:, jj])
    with np.errstate(invalid="ignore"):
        return np.sign(A[:, ii] - A[:, jj]), np.sign(B[:, ii] - B[:, jj]), ok


def _masked_kendall_b(A, B):
    sa, sb, ok = _masked_pairs(A, B)
    tot = ok.sum(1)
    n1, n2 = (ok & (sa == 0)).sum(1), (ok & (sb == 0)).sum(1)
    s = np.where(ok, sa * sb, 0).sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = s / np.sqrt((tot - n1) * (tot - n2))
    return np.where((n1 == tot) | (n2 == tot), np.nan, np.clip(tau, -1, 1))


def _masked_pairwise_accuracy(A, B):
    """mt-metrics-eval's ``Agreement``: share of pairs whose difference has the same sign (a tie
    on both sides agrees)."""
    sa, sb, ok = _masked_pairs(A, B)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok.sum(1) == 0, np.nan, (ok & (sa == sb)).sum(1) / ok.sum(1))


def _firsts(codes: np.ndarray, k: int) -> np.ndarray:
    """Index of each group's first example (-1 for a group without examples)."""
    out = np.full(k, -1)
    present, index = np.unique(codes, return_index=True)
    out[present] = index
    return out


def _matrix(values: np.ndarray, rows_codes: np.ndarray, cols_codes: np.ndarray, shape) -> np.ndarray:
    """(rows, cols) mean of values per (row code, column code), NaN where empty."""
    total = np.zeros(shape)
    count = np.zeros(shape)
    np.add.at(total, (rows_codes, cols_codes), values)
    np.add.at(count, (rows_codes, cols_codes), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / count, np.nan)


def _paired_p_values(V: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """mt-metrics-eval's ``compute_pairwise_p_values``: ``p[i, j]`` (i < j) the share of sign
    draws (``signs``: (n_permutations, items) of +-1) with ``signs @ d >= sum(d)``, d = V_i - V_j
    on the items both systems have (V: (systems, items), NaN where a system lacks an item).
    Differences within rounding of the observed one count as reaching it."""
    S = V.shape[0]
    p = np.full((S, S), np.nan)
    for i, j in combinations(range(S), 2):
        both = ~np.isnan(V[i]) & ~np.isnan(V[j])
        if both.any():
            d = V[i, both] - V[j, both]
            p[i, j] = np.mean(signs[:, both] @ d >= d.sum() - 1e-9 * np.abs(d).sum())
    return p


def _unpaired_p_values(pooled: list[np.ndarray], n_permutations: int, seed: int) -> np.ndarray:
    """Without items: ``p[i, j]`` the share of random relabellings of the two systems' pooled
    examples (sizes kept; ``default_rng([seed, i, j]).random((n_permutations, n)).argsort(1)``,
    the first ``n_i`` positions labelled i) whose difference of means reaches the observed."""
    S = len(pooled)
    p = np.full((S, S), np.nan)
    for i, j in combinations(range(S), 2):
        a, b = pooled[i], pooled[j]
        if a.size and b.size:
            values = np.concatenate([a, b])
            labels = random_permutations(np.random.default_rng([seed, i, j]), n_permutations, values.size) < a.size
            null = (labels @ values) / a.size - ((~labels) @ values) / b.size
            p[i, j] = np.mean(null >= a.mean() - b.mean() - 1e-9 * np.abs(values).sum() / min(a.size, b.size))
    return p


def _soft_pairwise_accuracy(x, y, sys_codes, S, item_codes, n_items, n_permutations, seed, cache=None) -> float:
    """1 - PCE (Thompson et al. 2024; mt-metrics-eval ``pce.py``): for each system pair the
    permutation p-value that the first system beats the second, by the metric and by the
    humans with the same draws; SPA = 1 - mean |p_metric - p_human| over the pairs. ``cache``:
    a dict kept across calls (the sign draws depend on their number, the items' and the seed
    only; a side's p-values on its values, the systems, the items and the draws: a metric's are
    the same for every target, the humans' for every metric)."""
    cache = {} if cache is None else cache
    draws = (n_permutations, n_items, repr(seed))
    codes = (sys_codes.tobytes(), None if item_codes is None else item_codes.tobytes(), S, *draws)
    if item_codes is not None:
        if ("signs", *draws) not in cache:
            cache[("signs", *draws)] = np.where(
                np.random.default_rng(seed).random((n_permutations, n_items)) < 0.5, 1.0, -1.0
            )
        signs = cache[("signs", *draws)]

        def p_values(v):
            return _paired_p_values(_matrix(v, sys_codes, item_codes, (S, n_items)), signs)
    else:

        def p_values(v):
            return _unpaired_p_values([v[sys_codes == s] for s in range(S)], n_permutations, seed)

    def cached(v):
        key = ("p", v.tobytes(), *codes)
        if key not in cache:
            cache[key] = p_values(v)
        return cache[key]

    gap = np.abs(cached(x) - cached(y))[np.triu_indices(S, 1)]
    gap = gap[~np.isnan(gap)]
    return 1 - float(gap.mean()) if gap.size else float("nan")


def _within_systems(x, y, sc, S, WT):
    """Per column of WT (examples x columns): the systems' weighted means of x and y (columns x
    systems; NaN for a system without weight) and the Pearson correlation of the residuals
    within systems (FRANK's partial correlation). Sums per system of the values offset by the
    system's first value, so a system of equal values has exactly that mean and no spread."""
    if not sc.size:
        nothing = np.full((WT.shape[1], S), np.nan)
        return nothing, nothing.copy(), np.full(WT.shape[1], np.nan)
    firsts = _firsts(sc, S)
    onehot = np.zeros((sc.size, S))
    onehot[np.arange(sc.size), sc] = 1
    u = (x - x[np.maximum(firsts, 0)][sc])[:, None] * onehot
    v = (y - y[np.maximum(firsts, 0)][sc])[:, None] * onehot
    n_s, u1, v1, u2, v2, uv = np.split(WT.T @ np.hstack([onehot, u, v, u * u, v * v, u * v]), 6, axis=1)  # one pass
    with np.errstate(invalid="ignore", divide="ignore"):
        mx = np.where(firsts >= 0, x[np.maximum(firsts, 0)], np.nan) + u1 / n_s
        my = np.where(firsts >= 0, y[np.maximum(firsts, 0)], np.nan) + v1 / n_s
        here = n_s > 0
        cxx = np.where(here, u2 - u1 * u1 / n_s, 0).sum(axis=1)
        cyy = np.where(here, v2 - v1 * v1 / n_s, 0).sum(axis=1)
        r = np.where(here, uv - u1 * v1 / n_s, 0).sum(axis=1) / np.sqrt(cxx * cyy)
    M = WT.sum(axis=0)
    return mx, my, np.where((cxx <= 0) | (cyy <= 0) | (M < 2), np.nan, np.clip(r, -1, 1))


def _ranks_within_systems(x, y, sc, S, WT):
    """FRANK's partial Spearman per column of WT: the mid-ranks of x and y in the column's expanded
    data (per distinct value: the weight below + (its weight + 1) / 2), their residuals within
    systems, correlated; every sum over the distinct (x, y, system) cells, in half-integers."""
    if not sc.size:
        return np.full(WT.shape[1], np.nan)
    (cx, Gx), (cy, Gy) = _value_weights(x, WT), _value_weights(y, WT)
    rx, ry = _cumsum0(Gx) - Gx / 2 + 0.5, _cumsum0(Gy) - Gy / 2 + 0.5  # mid-rank of each distinct value
    ky = int(cy.max(initial=0)) + 1
    keys, cell = np.unique((cx * ky + cy) * S + sc, return_inverse=True)
    T = _summing(cell.reshape(-1), keys.size, WT.dtype) @ WT
    gx, gy, gs = keys // S // ky, keys // S % ky, keys % S
    per_system = _summing(gs, S, WT.dtype)
    a, b = rx[gx], ry[gy]
    n_s, s_x, s_y = per_system @ T, per_system @ (T * a), per_system @ (T * b)
    s_xx, s_yy, s_xy = per_system @ (T * a * a), per_system @ (T * b * b), per_system @ (T * a * b)
    with np.errstate(invalid="ignore", divide="ignore"):
        here = n_s > 0
        cxx = np.where(here, s_xx - s_x * s_x / n_s, 0).sum(axis=0)
        cyy = np.where(here, s_yy - s_y * s_y / n_s, 0).sum(axis=0)
        r = np.where(here, s_xy - s_x * s_y / n_s, 0).sum(axis=0) / np.sqrt(cxx * cyy)
    M = WT.sum(axis=0)
    return np.where((cxx <= 0) | (cyy <= 0) | (M < 2), np.nan, np.clip(r, -1, 1))


@_one_blas_thread
def system_level(
    scores: pd.DataFrame,
    target,
    system,
    weights: np.ndarray,
    *,
    item=None,
    n_permutations: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    shared: dict | None = None,
) -> pd.DataFrame:
    """System-level validity of each metric, on the examples where it and the target exist.

    * ``pearson``, ``kendall_tau_b``: between system scores, the mean over a system's examples
      of the metric and of the target;
    * ``pairwise_accuracy``: mt-metrics-eval's ``Agreement`` (WMT23's pairwise accuracy) over
      system pairs: the share whose metric difference has the target difference's sign;
    * ``soft_pairwise_accuracy``: 1 - PCE (Thompson et al. 2024, mt-metrics-eval ``pce.py``)
      with ``n_permutations`` sign draws (``rng.random((n_permutations, items)) < 0.5`` gives
      +1, with ``rng = np.random.default_rng(seed)``; the same draws for metric and humans).
      With ``item`` the systems are paired on their items (as in ``pce.py``); without it the
      test permutes system labels among the two systems' examples. Point value only (low,
      high NaN): a permutation test inside each resample is not computed;
    * ``partial_pearson``, ``partial_spearman``: FRANK's partial correlation with the system
      regressed out: metric and target (for Spearman their mid-ranks) minus their system
      means, i.e. the residuals of a regression on system dummies, then Pearson (from the
      sums per system of each resample, :func:`_within_systems`, :func:`_ranks_within_systems`);
    * with ``item``: ``item_pearson``, ``item_kendall_tau_b``: mt-metrics-eval's
      ``average_by="item"`` correlation: per item across its systems, items where it is
      undefined dropped, averaged.

    Intervals are percentile intervals over the rows of ``weights``, statistics computed on
    the expanded data as in the module docstring. Pass :func:`cluster_weights` to resample
    items (systems kept paired; needed for the item-averaged intervals, which weight each
    item's correlation by its count and are NaN when weights differ within an item). Returns
    ``metric, statistic, value, low, high, n`` (``epsilon`` NaN).

    ``shared``: one dict passed to the calls that differ in their target only (the same scores,
    weights, systems and items): what depends on a metric or on the humans alone (the sign
    draws, each side's p-values), on the weights (with their full-sample row) or on the weights
    and the examples every metric keeps (the items' weights) is computed by the first call that
    needs it and looked up by the others. Its keys hold what the values were computed on (the
    weights are checked against the copy kept), so another call's inputs are never mistaken for
    them; what is the size of the weights is kept once per dict, never once per metric."""
    names, X, y, W, sys_labels, item_labels = _inputs(scores, target, weights, system=system, item=item)
    if sys_labels is None:
        raise CorpusError(
            [Problem("system", 0, "", "system-level statistics need the system of each row")], "system_level"
        )
    systems = sorted(set(sys_labels.tolist()), key=str)
    sys_all = _positions(systems, sys_labels)
    S = len(systems)
    items = sorted(set(item_labels.tolist()), key=str) if item_labels is not None else None
    item_all = _positions(items, item_labels) if items is not None else None
    shared = {} if shared is None else shared
    # the weights as given are held by the dict (so their id names them), with their full-sample
    # rows and a generation: weights refilled in place since are read again, as a new generation
    held = shared.get(("weights", id(weights)))
    if held is None or not np.array_equal(held[1][1:], W):  # (False for another shape too)
        held = (weights, _with_full(W), 0 if held is None else held[2] + 1)
        shared[("weights", id(weights))] = held
    Wf, weights_key = held[1], ("weights", id(weights), held[2])
    rows = []
    for name, x in zip(names, X):
        keep = ~np.isnan(x) & ~np.isnan(y)
        xk, yk, sc, Wk = x[keep], y[keep], sys_all[keep], _kept(keep, Wf)
        n = int(keep.sum())
        WT = _transposed(Wk)
        mx, my, partial = _within_systems(xk, yk, sc, S, WT)
        out = {
            "pearson": _masked_pearson(mx, my),
            "kendall_tau_b": _masked_kendall_b(mx, my),
            "pairwise_accuracy": _masked_pairwise_accuracy(mx, my),
        }
        ic = item_all[keep] if item_all is not None else None
        spa = _soft_pairwise_accuracy(xk, yk, sc, S, ic, len(items) if items else 0, n_permutations, seed, shared)
        out["soft_pairwise_accuracy"] = np.r_[spa, np.full(W.shape[0], np.nan)]
        out["partial_pearson"] = partial
        out["partial_spearman"] = _ranks_within_systems(xk, yk, sc, S, WT)
        if ic is not None:
            if keep.all():  # the examples of every metric scored on all (one copy per dict)
                key = ("items", weights_key, ic.tobytes(), len(items))
                if key not in shared:
                    shared[key] = _item_weights(Wk, ic, len(items))
                found = shared[key]
            else:
                found = _item_weights(Wk, ic, len(items))
            out |= _item_averaged(xk, yk, sc, S, ic, len(items), found)
        for statistic, values in out.items():
            values = np.asarray(values, float)
            low, high = resampling.interval(values[1:], level) if values.size > 1 else (np.nan, np.nan)
            rows.append(
                {"metric": name, "statistic": statistic, "value": float(values[0]), "low": low, "high": high}
                | {"n": n, "epsilon": float("nan")}
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def _positions(values: list, labels) -> np.ndarray:
    """Each label's position in ``values`` (a dictionary's look-up, not a list's scan)."""
    where = {v: i for i, v in enumerate(values)}
    return np.fromiter((where[v] for v in labels.tolist()), dtype=np.int64, count=len(labels))


def _item_weights(Wk, ic, n_items) -> tuple[np.ndarray, np.ndarray]:
    """Each item's weight in each row of Wk, its first example's (rows, items), and whether the
    row weighs every example of an item alike (rows,)."""
    firsts = _firsts(ic, n_items)
    present = firsts >= 0
    Wi = np.zeros((Wk.shape[0], n_items))
    Wi[:, present] = Wk[:, firsts[present]]
    return Wi, (Wk == Wi[:, ic]).all(axis=1)


def _item_averaged(x, y, sc, S, ic, n_items, item_weights) -> dict:
    """Item-averaged Pearson and Kendall tau-b (per item across systems, NaN items dropped),
    row 0 the plain mean, later rows weighted by each item's resample count (NaN unless the
    weights are constant within each item); ``item_weights``: :func:`_item_weights` of the
    resample weights and ``ic``."""
    mx, my = _matrix(x, ic, sc, (n_items, S)), _matrix(y, ic, sc, (n_items, S))
    per_item = {"item_pearson": _masked_pearson(mx, my), "item_kendall_tau_b": _masked_kendall_b(mx, my)}
    Wi, constant = item_weights
    out = {}
    for statistic, corr in per_item.items():
        defined = ~np.isnan(corr)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = (Wi[:, defined] @ corr[defined]) / Wi[:, defined].sum(1)
        out[statistic] = np.where(constant, mean, np.nan)
    return out
