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

* Kendall tau-b and tau-c (scipy's ``kendalltau`` variants): concordant minus discordant pairs
  is ``sum_{i<j} w_i w_j sign(x_i - x_j) sign(y_i - y_j)``, computed for all resamples at once
  over the distinct (score, target) cells: with few distinct values on one side (targets of
  counts or shares, judges' counts) from a dense table of cell weights and its cumulative sums,
  otherwise as the quadratic form ``w' (Sx * Sy) w / 2`` of the pair-sign matrices in matrix
  products; the ties come from the weight of each distinct value.
* acc23 (Deutsch et al. 2023, "Ties matter"; mt-metrics-eval ``KendallWithTiesOpt`` with
  ``sample_rate=1``): pairwise accuracy with ties, ``(concordant + tied in both) / pairs``, where a
  metric pair is tied when its absolute difference is at most epsilon, and epsilon is chosen to
  maximise it among 0 and every distinct absolute difference of the metric's scores (the
  smallest maximiser, as ``np.nanargmax`` over the sorted candidates). Epsilon is re-optimised
  in every resample: the interval then includes the calibration's own variability (with a
  fixed epsilon it would be too narrow, and the point estimate optimistic for it). Exact and
  vectorised: the pairs of distinct cells sorted once by difference, and per resample the best
  prefix sum of the pair weights ``w_i w_j`` (signed: +1 target-tied, -1 concordant), searched
  in blocks of pairs of which only the few that can hold the maximum are summed in full
  (:func:`_max_prefix`). The slowest statistic: about a second per metric for 1,200
  continuous scores and 1,000 resamples (``benchmarks/meta_evaluation.py``).
* Spearman: Pearson of the mid-ranks of the expanded data, computed from the weight of each
  distinct value; Pearson: the frequency-weighted Pearson.
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

from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats as sps
from sklearn.model_selection import StratifiedKFold

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

_CHUNK = 1 << 24  # elements of a working array (chunks of resamples or of pairs)
_BLOCK = 2048  # pairs per block of the acc23 search


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


def _with_full(W: np.ndarray) -> np.ndarray:
    """The weights with a first row of ones: row 0 is the full sample, rows 1: the resamples."""
    return np.vstack([np.ones((1, W.shape[1])), W])


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


def _midranks(values: np.ndarray, W: np.ndarray):
    """Mid-ranks of each example in each row's expanded data (rows, n), and the number of
    distinct values present in each row."""
    _, code, G = _groups(values, W)
    below = np.cumsum(G, axis=1) - G
    return np.take(below + (G + 1) / 2, code, axis=1), (G > 0).sum(axis=1)


def _wpearson(X, Y, W: np.ndarray) -> np.ndarray:
    """Frequency-weighted Pearson per row of W (X, Y: (n,) or (rows, n)), two-pass; NaN where a
    side has no spread (callers also check for a single distinct value, which rounding can
    hide)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        M = W.sum(axis=1)
        dx = X - ((W * X).sum(axis=1) / M)[:, None]
        dy = Y - ((W * Y).sum(axis=1) / M)[:, None]
        sxx, syy = (W * dx * dx).sum(axis=1), (W * dy * dy).sum(axis=1)
        r = (W * dx * dy).sum(axis=1) / np.sqrt(sxx * syy)
        flat = (sxx <= 0) | (syy <= 0) | (M < 2)
    return np.where(flat, np.nan, np.clip(r, -1, 1))


def _pearson_w(x, y, W):
    _, _, gx = _groups(x, W)
    _, _, gy = _groups(y, W)
    r = _wpearson(x, y, W)
    return np.where(((gx > 0).sum(1) < 2) | ((gy > 0).sum(1) < 2), np.nan, r)


def _spearman_w(x, y, W):
    rx, kx = _midranks(x, W)
    ry, ky = _midranks(y, W)
    return np.where((kx < 2) | (ky < 2), np.nan, _wpearson(rx, ry, W))


# --- Kendall tau-b, tau-c -------------------------------------------------------------------------


def _cells(x: np.ndarray, y: np.ndarray, W: np.ndarray):
    """Distinct (x, y) cells: their x, y and (rows, cells) weights."""
    order = np.lexsort((y, x))
    xs, ys = x[order], y[order]
    new = np.r_[True, (xs[1:] != xs[:-1]) | (ys[1:] != ys[:-1])] if xs.size else np.zeros(0, bool)
    starts = np.flatnonzero(new)
    T = np.add.reduceat(np.take(W, order, axis=1), starts, axis=1) if xs.size else np.zeros((W.shape[0], 0))
    return xs[starts], ys[starts], T


def _pair_form(T: np.ndarray, block) -> np.ndarray:
    """``sum_{i<j} T_i T_j A_ij`` per row of T for a symmetric pair matrix A with a zero diagonal,
    given in row blocks by ``block(start, stop) -> (stop - start, k)``: matrix products for all
    rows at once, memory bounded by the block size."""
    k = T.shape[1]
    out = np.zeros(T.shape[0])
    # integer sums below 2**24 are exact in float32, twice as fast in matrix products
    dtype = np.float32 if T.sum(axis=1).max(initial=0) ** 2 < 2**24 else np.float64
    T = T.astype(dtype)
    step = max(1, _CHUNK // max(k, 1) // 8)
    for s in range(0, k, step):
        out += np.einsum("ri,ri->r", T[:, s : s + step], T @ block(s, s + step).astype(dtype).T)
    return out / 2


def _sign_form(T: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Concordant minus discordant pairs, ``sum_{i<j} T_i T_j sign(a_i - a_j) sign(b_i - b_j)``."""
    return _pair_form(T, lambda s, e: np.sign(a[s:e, None] - a[None, :]) * np.sign(b[s:e, None] - b[None, :]))


def _tie_pairs(G: np.ndarray) -> np.ndarray:
    return (G * (G - 1) / 2).sum(axis=1)


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


def _dense_codes(values: np.ndarray) -> tuple[np.ndarray, int]:
    codes = np.unique(values, return_inverse=True)[1].reshape(-1)
    return codes, int(codes.max(initial=-1)) + 1


def _concordance_w(cx: np.ndarray, cy: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Concordant minus discordant pairs per row of cell weights T. With few distinct values on
    one side (a target of counts or shares, a judge's counts) the cells go into a dense
    (rows, values of x, values of y) table and each x value meets the cumulative weights of the
    lower x values, ``O(rows * kx * ky**2)``; otherwise the quadratic form of the pair-sign
    matrix, ``O(rows * cells**2)`` in matrix products."""
    (gx, kx), (gy, ky) = _dense_codes(cx), _dense_codes(cy)
    if min(kx * ky * ky, ky * kx * kx) >= cx.size**2:
        return _sign_form(T, cx, cy)
    if ky * kx * kx < kx * ky * ky:  # few x values: the same with the roles swapped
        (gx, kx), (gy, ky) = (gy, ky), (gx, kx)
    # integer sums below 2**24 are exact in float32 (half the memory traffic); chunks of rows
    # small enough to stay in cache
    dtype = np.float32 if T.sum(axis=1).max(initial=0) ** 2 < 2**24 else np.float64
    S = np.sign(np.arange(ky)[None, :] - np.arange(ky)[:, None]).astype(dtype)  # S[a, b] = sign(b - a)
    out = np.empty(T.shape[0])
    rows = max(1, (1 << 20) // max(kx * ky, 1))
    for r in range(0, T.shape[0], rows):
        D = np.zeros((min(rows, T.shape[0] - r), kx, ky), dtype)
        D[:, gx, gy] = T[r : r + rows]
        lower = np.cumsum(D, axis=1) - D  # weight of each y value among strictly lower x values
        out[r : r + rows] = np.einsum("rjk,rjk->r", D, lower @ S)
    return out


def _kendall_w(x, y, W):
    cx, cy, T = _cells(x, y, W)
    s = _concordance_w(cx, cy, T)
    _, _, gx = _groups(x, W)
    _, _, gy = _groups(y, W)
    return _kendall_from(s, W.sum(1), _tie_pairs(gx), _tie_pairs(gy), (gx > 0).sum(1), (gy > 0).sum(1))


# --- acc23 with its tie threshold -----------------------------------------------------------------


def _acc23_pairs(cx: np.ndarray, cy: np.ndarray):
    """Pairs of distinct cells that can change acc23, sorted by the metric difference: their
    indices, difference and ``v`` (+1: tied in the target, right when tied in the metric; -1:
    concordant, right unless tied). Discordant pairs are wrong at every epsilon and dropped."""
    ii, jj = np.triu_indices(cx.size, 1)
    sy = np.sign(cy[ii] - cy[jj])
    v = (sy == 0).astype(np.int8) - (np.sign(cx[ii] - cx[jj]) * sy > 0).astype(np.int8)
    keep = np.flatnonzero(v)
    d = np.abs(cx[ii[keep]] - cx[jj[keep]])
    order = np.argsort(d, kind="stable")
    keep = keep[order]
    return ii[keep], jj[keep], d[order], v[keep]


def _max_prefix(values, n_pairs: int, n_rows: int, is_end: np.ndarray, signs: np.ndarray | None = None):
    """Per row, the maximum of the prefix sums of ``values`` over the sorted pairs, taken at the
    ends of runs of equal differences (``is_end``) and at a baseline 0 before the first pair;
    its position (the first maximum; -1 for the baseline) and the row's total negative mass.

    ``values(start, stop, rows)`` gives the (stop - start, len(rows)) pair values of those rows
    (``signs``: each pair's sign when it is the same in every row). Exact, in two passes over
    blocks of pairs: the first keeps each block's sum and positive mass (and the prefix at
    block ends that close a run, a lower bound of the maximum); the second recomputes, for each
    row, only the blocks that could hold a larger (or an earlier equal) prefix: those where the
    prefix before the block plus its positive mass reaches the lower bound."""
    rows, block = np.arange(n_rows), _BLOCK
    starts = np.arange(0, n_pairs, block)
    sums = np.zeros((starts.size, n_rows))
    positive = np.zeros((starts.size, n_rows))
    for k, s in enumerate(starts):
        e = min(n_pairs, s + block)
        a = values(s, e, rows)
        sums[k] = a.sum(axis=0)
        positive[k] = np.maximum(a, 0, out=a).sum(axis=0) if signs is None else a[signs[s:e] > 0].sum(axis=0)
    negative = (sums - positive).sum(axis=0)
    after = np.cumsum(sums, axis=0)
    before = after - sums
    # the lower bound: the baseline and the prefix at block ends that close a run
    closes = is_end[np.minimum(starts + block, n_pairs) - 1] if n_pairs else np.zeros(0, bool)
    best, where = np.zeros(n_rows), np.full(n_rows, -1)
    for k in np.flatnonzero(closes):
        better = after[k] > best
        best, where = np.where(better, after[k], best), np.where(better, min(n_pairs, starts[k] + block) - 1, where)
    for k, s in enumerate(starts):
        bound = before[k] + positive[k]
        e = min(n_pairs, s + block)
        look = np.flatnonzero((bound > best) | ((bound == best) & (where >= s)))
        if not look.size:
            continue
        f = np.cumsum(values(s, e, look), axis=0, dtype=float) + before[k, look]
        ends = np.flatnonzero(is_end[s:e])
        if not ends.size:
            continue
        at = f[ends]
        i = np.argmax(at, axis=0)
        top = at[i, np.arange(look.size)]
        pos = s + ends[i]
        better = (top > best[look]) | ((top == best[look]) & (pos < where[look]) & (where[look] >= 0))
        best[look] = np.where(better, top, best[look])
        where[look] = np.where(better, pos, where[look])
    return best, where, -negative


def _acc23_w(x, y, W):
    """acc23 and its epsilon per row of W, epsilon re-optimised in each row (module docstring).

    acc23 = (pairs of copies of one cell + concordant pairs + max_e gain(e)) / pairs, where
    gain(e) sums ``v w_i w_j`` over the pairs of distinct cells whose difference is at most e
    (:func:`_max_prefix` finds the maximum; the concordant pairs are its negative mass)."""
    cx, cy, T = _cells(x, y, W)
    ii, jj, d, v = _acc23_pairs(cx, cy)
    M = W.sum(1)
    same = _tie_pairs(T)  # pairs of copies of one cell: tied in both
    # integer sums below 2**24 are exact in float32, which halves the memory traffic
    dtype = np.float32 if M.max(initial=0) ** 2 / 2 < 2**24 else np.float64
    TT, vd = np.ascontiguousarray(T.T, dtype=dtype), v.astype(dtype)[:, None]
    buffers = np.empty((2, _BLOCK, T.shape[0]), dtype)

    def values(s, e, rows):
        if rows.size == TT.shape[1]:  # all rows: into reused buffers
            a, b = buffers[0, : e - s], buffers[1, : e - s]
            np.take(TT, ii[s:e], axis=0, out=a)
            np.take(TT, jj[s:e], axis=0, out=b)
        else:
            part = np.take(TT, rows, axis=1)
            a, b = np.take(part, ii[s:e], axis=0), np.take(part, jj[s:e], axis=0)
        a *= b
        a *= vd[s:e]
        return a

    is_end = np.r_[d[1:] != d[:-1], True] if d.size else np.zeros(0, bool)
    best, where, conc = _max_prefix(values, d.size, T.shape[0], is_end, v)
    eps = np.where(where >= 0, d[np.maximum(where, 0)] if d.size else 0.0, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (same + conc + best) / (M * (M - 1) / 2)
    return np.where(M < 2, np.nan, value), np.where(M < 2, np.nan, eps)


# --- detection ------------------------------------------------------------------------------------


def _auc_w(x, pos, W):
    """ROC AUC of "has an error" (``pos``) ranked by ``-x``, per row of W (ties count half)."""
    _, _, Gp = _groups(-x, W * pos)
    _, _, Gn = _groups(-x, W * (1 - pos))
    P, N = Gp.sum(1), Gn.sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = (Gp * (np.cumsum(Gn, axis=1) - Gn + Gn / 2)).sum(1) / (P * N)
    return np.where((P == 0) | (N == 0), np.nan, auc)


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


def _cv_predictions(X: np.ndarray, pos: np.ndarray, folds: int, seed: int) -> np.ndarray | None:
    """Held-out "has an error" predictions (rows, n) for each row of scores X: in each fold the
    threshold t maximising balanced accuracy on the training folds (predict an error where
    score < t; t is -inf, +inf or the midpoint between consecutive distinct training scores; the
    smallest maximiser), applied to the held-out fold. None when the folds cannot be made."""
    splits = _folds(pos, folds, seed)
    if splits is None:
        return None
    R = X.shape[0]
    pred = np.zeros(X.shape, bool)
    for train, test in splits:
        Xt = np.take(X, train, axis=1)
        order = np.argsort(Xt, axis=1, kind="stable")
        xs = np.take_along_axis(Xt, order, axis=1)
        err = pos[train][order]
        k = train.size
        n_err = err[0].sum()
        n_ok = k - n_err
        cum_err = np.hstack([np.zeros((R, 1)), np.cumsum(err, axis=1)])  # errors among the k lowest
        cuts = np.arange(k + 1)
        bacc = (cum_err / n_err + (n_ok - (cuts - cum_err)) / n_ok) / 2
        valid = np.ones((R, k + 1), bool)
        valid[:, 1:k] = xs[:, 1:] > xs[:, :-1]
        best = np.argmax(np.where(valid, bacc, -np.inf), axis=1)
        lo = np.take_along_axis(xs, np.clip(best - 1, 0, k - 1)[:, None], axis=1)[:, 0]
        hi = np.take_along_axis(xs, np.clip(best, 0, k - 1)[:, None], axis=1)[:, 0]
        mid = lo + (hi - lo) / 2
        t = np.where(best == 0, -np.inf, np.where(best == k, np.inf, np.where(mid > lo, mid, hi)))
        pred[:, test] = np.take(X, test, axis=1) < t[:, None]
    return pred


def _bacc_from(pred: np.ndarray, pos: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Balanced accuracy of fixed predictions (n,) or (rows, n) per row of W."""
    P, N = W @ pos, W @ (1 - pos)
    tp = (W * (pred & (pos == 1))).sum(1)
    tn = (W * (~pred & (pos == 0))).sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((P == 0) | (N == 0), np.nan, (tp / P + tn / N) / 2)


# --- one metric, many weight rows -----------------------------------------------------------------


def _replicates(statistic: str, x, y, W, folds: int = 5, seed: int = 0, cache: dict | None = None):
    """(values, epsilons or None) of ``statistic`` per row of W (``cache``: a dict kept across
    the statistics of one metric, so tau-b and tau-c share their pair counts)."""
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
        return _acc23_w(x, y, W)
    if statistic == "roc_auc":
        return _auc_w(x, y, W), None
    if statistic == "average_precision":
        return _ap_w(x, y, W), None
    if statistic == "bacc":
        pred = _cv_predictions(x[None, :], y, folds, seed)
        if pred is None:
            return np.full(W.shape[0], np.nan), None
        return _bacc_from(pred[0], y, W), None
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
    rows = []
    for name, x in zip(names, X):
        keep, cache = ~np.isnan(x) & ~np.isnan(y), {}
        for statistic in statistics:
            values, eps = _replicates(statistic, x[keep], y[keep], np.compress(keep, Wf, axis=1), cache=cache)
            rows.append(_row(name, statistic, values, level, keep.sum(), eps))
    return pd.DataFrame(rows, columns=COLUMNS)


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
        for statistic in statistics:
            values, _ = _replicates(statistic, x[keep], y[keep], np.compress(keep, Wf, axis=1), folds, seed)
            rows.append(_row(name, statistic, values, level, keep.sum()))
    return pd.DataFrame(rows, columns=COLUMNS)


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


def _spearman_rows(X, y):
    return _pearson_rows(sps.rankdata(X, axis=1), sps.rankdata(y))


def _concordance_rows(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Concordant minus discordant pairs of each row of X against y. With few target values
    (fewer than n / 4): each row sorted once, and for each target value a the cumulative count
    of a among strictly lower scores (ties excluded) meets ``sign(y_j - a)``: ``O(rows * n *
    values)``. Otherwise blocks of example pairs, ``O(rows * n**2)``."""
    R, n = X.shape
    gy, ky = _dense_codes(y)
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


def _kendall_hybrids(z1: np.ndarray, z2: np.ndarray, y: np.ndarray, A: np.ndarray):
    """tau-b and tau-c of the hybrids ``where(A, z1, z2)`` (A: (rows, n) of 0/1) against y:
    concordant minus discordant is ``(a'A11a + b'A22b) / 2 + a'A12b`` (b = 1 - a) with
    ``Akl = sign(y_i - y_j) sign(zk_i - zl_j)``, three matrix products for all rows at once.
    With few target values the hybrids are scored as rows (:func:`_kendall_rows`), faster then."""
    if 4 * _dense_codes(y)[1] < y.size:
        return _kendall_rows(np.where(A > 0, z1, z2), y)
    Bm = 1 - A
    s = np.zeros(A.shape[0])
    n = y.size
    step = max(1, _CHUNK // max(n, 1) // 8)
    for a in range(0, n, step):
        sy = np.sign(y[a : a + step, None] - y[None, :])
        for zl, zr, left, right, half in ((z1, z1, A, A, True), (z2, z2, Bm, Bm, True), (z1, z2, A, Bm, False)):
            block = sy * np.sign(zl[a : a + step, None] - zr[None, :])
            part = np.einsum("ri,ri->r", left[:, a : a + step], right @ block.T)
            s += part / 2 if half else part
    H = np.sort(np.where(A > 0, z1, z2), axis=1)
    n1, kx = _ties_sorted(H)
    n2, ky = _ties_sorted(np.sort(y)[None, :])
    return _kendall_from(s, np.full(A.shape[0], float(n)), n1, n2, kx, ky)


def _auc_rows(X, pos):
    ranks = sps.rankdata(-X, axis=1)
    P, N = pos.sum(), (1 - pos).sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = (ranks @ pos - P * (P + 1) / 2) / (P * N)
    return np.full(X.shape[0], np.nan) if P == 0 or N == 0 else auc


def _ap_rows(X, pos):
    """Average precision of "has an error" ranked by -X, per row (ties as scikit-learn)."""
    R, n = X.shape
    order = np.argsort(X, axis=1, kind="stable")  # ascending score = descending -score
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


def _perm_both(statistic, a, b, y, n_permutations, seed, folds):
    """PERM-BOTH (mt-metrics-eval ``PermutationSigDiff``, without early stopping) of
    ``statistic(a) > statistic(b)``: (value a, value b, delta, permuted deltas)."""
    za, zb = _zscore(a), _zscore(b)
    masks = np.random.default_rng(seed).random((n_permutations, y.size)) < 0.5
    A = masks.astype(float)
    if statistic in ("kendall_tau_b", "kendall_tau_c"):
        k = 0 if statistic == "kendall_tau_b" else 1
        va, vb = (_kendall_rows(np.vstack([za, zb]), y)[k]).tolist()
        # hybrid "second-like" takes b's score where the mask is set, "first-like" a's
        second_like = _kendall_hybrids(zb, za, y, A)[k]
        first_like = _kendall_hybrids(za, zb, y, A)[k]
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
    with ``block_size >= k``). For ``acc23`` the test is WMT23/24's
    ``PairwisePermutationSigDiff`` (each metric's epsilon fixed at its optimum on these
    examples, pair outcomes swapped), with the exact p-value (see ``_pairs_test``). Returns
    one row: ``first, second, statistic, value_first, value_second, delta, p_value, n,
    n_permutations``."""
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


def _test(statistic, a, b, y, first, second, n_permutations, seed, alternative, folds) -> dict:
    if y.size < 2:
        va = vb = delta = p = float("nan")
        n_perm = 0
    elif statistic == "acc23":
        va, vb, delta, p = _pairs_test(a, b, y, alternative)
        n_perm = 0
    else:
        va, vb, delta, null = _perm_both(statistic, a, b, y, n_permutations, seed, folds)
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
    rows = []
    for i, j in combinations(range(len(ranked)), 2):
        a, b = X[names.index(ranked[i])], X[names.index(ranked[j])]
        keep = ~np.isnan(a) & ~np.isnan(b) & ~np.isnan(y)
        rows.append(
            _test(statistic, a[keep], b[keep], y[keep], ranked[i], ranked[j], n_permutations, seed, "greater", folds)
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


def _acc23_permuted(x: np.ndarray, y: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """acc23 (epsilon optimised) of each permutation of the scores: example i gets
    ``x[perm[i]]``. The multiset of score differences does not change, so the pairs of score
    positions are sorted once and each permutation only changes which target pair they meet."""
    n = x.size
    ii, jj = np.triu_indices(n, 1)
    d = np.abs(x[ii] - x[jj])
    order = np.argsort(d, kind="stable")
    ii, jj, d = ii[order], jj[order], d[order]
    sx = np.sign(x[ii] - x[jj])[:, None]
    codes = np.unique(y, return_inverse=True)[1].astype(np.int32)
    YT = np.ascontiguousarray(codes[np.argsort(perms, axis=1)].T)  # (positions, permutations)

    def values(s, e, rows):
        part = YT if rows.size == YT.shape[1] else np.take(YT, rows, axis=1)
        sy = np.sign(np.take(part, ii[s:e], axis=0) - np.take(part, jj[s:e], axis=0))
        return (sy == 0).astype(np.float32) - (sx[s:e] * sy > 0)

    is_end = np.r_[d[1:] != d[:-1], True] if d.size else np.zeros(0, bool)
    best, _, conc = _max_prefix(values, d.size, perms.shape[0], is_end)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (conc + best) / (n * (n - 1) / 2)


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
    ``rng = np.random.default_rng(seed)``), so ties and distribution are the metric's.

    ``value`` is the expectation over permutations: exactly 0 for the correlations and 0.5 for
    ROC AUC (``how = "exact"``; NaN where the statistic is undefined), the mean over the
    permutations for acc23 (epsilon re-optimised on each), average precision and bacc
    (``how = "mean of permutations"``). ``low, high``: the central ``level`` range of the
    permutations' values (the range a random metric falls in on this sample). Returns
    ``metric, statistic, value, low, high, n, how``."""
    allowed = EXAMPLE_STATISTICS + DETECTION_STATISTICS
    _check_statistics(statistics, allowed, "example-level or detection")
    binary = any(s in DETECTION_STATISTICS for s in statistics)
    names, X, y, _, _, _ = _inputs(scores, target, np.zeros((0, len(scores))), binary=binary)
    rows = []
    for m, (name, x) in enumerate(zip(names, X)):
        keep = ~np.isnan(x) & ~np.isnan(y)
        xk, yk = x[keep], y[keep]
        perms = np.random.default_rng([seed, m]).random((n_random, xk.size)).argsort(axis=1)
        for statistic in statistics:
            if statistic == "acc23":
                values = _acc23_permuted(xk, yk, perms) if xk.size >= 2 else np.full(n_random, np.nan)
            else:
                values = _rows(statistic, xk[perms], yk, folds, seed)
            low, high = resampling.interval(values, level)
            if statistic in _EXACT:
                defined = np.isfinite(values).any()
                value, how = (_EXACT[statistic] if defined else float("nan")), "exact"
            else:
                value = float(np.nanmean(values)) if np.isfinite(values).any() else float("nan")
                how = "mean of permutations"
            rows.append(
                {"metric": name, "statistic": statistic, "value": value, "low": low, "high": high}
                | {"n": int(keep.sum()), "how": how}
            )
    return pd.DataFrame(rows, columns=["metric", "statistic", "value", "low", "high", "n", "how"])


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


def _group_residuals(X: np.ndarray, codes: np.ndarray, k: int, W: np.ndarray):
    """Weighted group means (rows, k) of X ((n,) or (rows, n)) and the residuals (rows, n).

    The means are offsets from each group's first value, so a group of equal values has
    exactly that mean and exactly zero residuals; a group without weight in a row has a NaN
    mean and zero residuals (its examples weigh nothing there)."""
    X2 = np.broadcast_to(X, W.shape)
    onehot = np.zeros((codes.size, k))
    onehot[np.arange(codes.size), codes] = 1
    firsts = _firsts(codes, k)
    ref = (
        np.where(firsts >= 0, X2[:, np.maximum(firsts, 0)], np.nan) if codes.size else np.full((W.shape[0], k), np.nan)
    )
    dev = X2 - np.take(ref, codes, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = ref + ((W * dev) @ onehot) / (W @ onehot)
    residuals = X2 - np.take(means, codes, axis=1)
    return means, np.where(np.isnan(residuals), 0.0, residuals)


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
            labels = np.random.default_rng([seed, i, j]).random((n_permutations, values.size)).argsort(axis=1) < a.size
            null = (labels @ values) / a.size - ((~labels) @ values) / b.size
            p[i, j] = np.mean(null >= a.mean() - b.mean() - 1e-9 * np.abs(values).sum() / min(a.size, b.size))
    return p


def _soft_pairwise_accuracy(x, y, sys_codes, S, item_codes, n_items, n_permutations, seed) -> float:
    """1 - PCE (Thompson et al. 2024; mt-metrics-eval ``pce.py``): for each system pair the
    permutation p-value that the first system beats the second, by the metric and by the
    humans with the same draws; SPA = 1 - mean |p_metric - p_human| over the pairs."""
    if item_codes is not None:
        signs = np.where(np.random.default_rng(seed).random((n_permutations, n_items)) < 0.5, 1.0, -1.0)
        pm = _paired_p_values(_matrix(x, sys_codes, item_codes, (S, n_items)), signs)
        ph = _paired_p_values(_matrix(y, sys_codes, item_codes, (S, n_items)), signs)
    else:
        pm = _unpaired_p_values([x[sys_codes == s] for s in range(S)], n_permutations, seed)
        ph = _unpaired_p_values([y[sys_codes == s] for s in range(S)], n_permutations, seed)
    gap = np.abs(pm - ph)[np.triu_indices(S, 1)]
    gap = gap[~np.isnan(gap)]
    return 1 - float(gap.mean()) if gap.size else float("nan")


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
      means, i.e. the residuals of a regression on system dummies, then Pearson;
    * with ``item``: ``item_pearson``, ``item_kendall_tau_b``: mt-metrics-eval's
      ``average_by="item"`` correlation: per item across its systems, items where it is
      undefined dropped, averaged.

    Intervals are percentile intervals over the rows of ``weights``, statistics computed on
    the expanded data as in the module docstring. Pass :func:`cluster_weights` to resample
    items (systems kept paired; needed for the item-averaged intervals, which weight each
    item's correlation by its count and are NaN when weights differ within an item). Returns
    ``metric, statistic, value, low, high, n`` (``epsilon`` NaN)."""
    names, X, y, W, sys_labels, item_labels = _inputs(scores, target, weights, system=system, item=item)
    if sys_labels is None:
        raise CorpusError(
            [Problem("system", 0, "", "system-level statistics need the system of each row")], "system_level"
        )
    systems = sorted(set(sys_labels.tolist()), key=str)
    sys_all = np.array([systems.index(s) for s in sys_labels])
    S = len(systems)
    items = sorted(set(item_labels.tolist()), key=str) if item_labels is not None else None
    item_all = np.array([items.index(i) for i in item_labels]) if items is not None else None
    Wf = _with_full(W)
    rows = []
    for name, x in zip(names, X):
        keep = ~np.isnan(x) & ~np.isnan(y)
        xk, yk, sc, Wk = x[keep], y[keep], sys_all[keep], np.compress(keep, Wf, axis=1)
        n = int(keep.sum())
        (mx, rx), (my, ry) = _group_residuals(xk, sc, S, Wk), _group_residuals(yk, sc, S, Wk)
        out = {
            "pearson": _masked_pearson(mx, my),
            "kendall_tau_b": _masked_kendall_b(mx, my),
            "pairwise_accuracy": _masked_pairwise_accuracy(mx, my),
        }
        ic = item_all[keep] if item_all is not None else None
        spa = _soft_pairwise_accuracy(xk, yk, sc, S, ic, len(items) if items else 0, n_permutations, seed)
        out["soft_pairwise_accuracy"] = np.r_[spa, np.full(W.shape[0], np.nan)]
        out["partial_pearson"] = _wpearson(rx, ry, Wk)
        (_, rrx), (_, rry) = (_group_residuals(_midranks(v, Wk)[0], sc, S, Wk) for v in (xk, yk))
        out["partial_spearman"] = _wpearson(rrx, rry, Wk)
        if ic is not None:
            out |= _item_averaged(xk, yk, sc, S, ic, len(items), Wk)
        for statistic, values in out.items():
            values = np.asarray(values, float)
            low, high = resampling.interval(values[1:], level) if values.size > 1 else (np.nan, np.nan)
            rows.append(
                {"metric": name, "statistic": statistic, "value": float(values[0]), "low": low, "high": high}
                | {"n": n, "epsilon": float("nan")}
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def _item_averaged(x, y, sc, S, ic, n_items, Wk) -> dict:
    """Item-averaged Pearson and Kendall tau-b (per item across systems, NaN items dropped),
    row 0 the plain mean, later rows weighted by each item's resample count (NaN unless the
    weights are constant within each item)."""
    mx, my = _matrix(x, ic, sc, (n_items, S)), _matrix(y, ic, sc, (n_items, S))
    per_item = {"item_pearson": _masked_pearson(mx, my), "item_kendall_tau_b": _masked_kendall_b(mx, my)}
    firsts = _firsts(ic, n_items)
    present = firsts >= 0
    Wi = np.zeros((Wk.shape[0], n_items))
    Wi[:, present] = Wk[:, firsts[present]]
    constant = (Wk == Wi[:, ic]).all(axis=1)
    out = {}
    for statistic, corr in per_item.items():
        defined = ~np.isnan(corr)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = (Wi[:, defined] @ corr[defined]) / Wi[:, defined].sum(1)
        out[statistic] = np.where(constant, mean, np.nan)
    return out
