"""Correlation of error counts between two annotator sets, as ``factgenie iaa pearson`` computes it.

factgenie 1.2.1 (``factgenie/iaa/pearson.py``, ``compute_pearson_scores``): per example (those
both sides annotated) and category, count each side's spans; then

* ``micro_pearson``: Pearson's r (scipy's ``pearsonr``) over every (example, category) pair of
  counts, with its two-sided p-value ``micro_p_value``;
* per category, r and p over the examples;
* ``macro_pearson`` / ``macro_p_value``: the plain mean of the per-category r and p.

Its categories are those *present* in the span index of the two campaigns (every group's
spans, not only the compared groups'), in the campaign's category order; a category nobody
marked is left out, not counted as zero everywhere. Where one side's counts are constant (for
instance it never marks a category) r is undefined: scipy returns NaN, and so does a mean
over it (factgenie's macro figure is then NaN too). Spans count as they are in the file:
overlapping and duplicate spans each count, as factgenie counts them.

``per_example`` returns one row per (example, category) with columns ``category``, the example
key, ``ref_count`` and ``hyp_count``; :func:`correlations` turns it into factgenie's figures.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from scipy.stats import pearsonr

from ..corpora import KEY
from .span_f1 import _key_codes


def present(categories: list[str], *span_frames: pd.DataFrame) -> list[str]:
    """The categories (in ``categories`` order) that some span of ``span_frames`` has."""
    seen = set().union(*(set(f["type"]) for f in span_frames))
    return [c for c in categories if c in seen]


def count_matrix(spans: pd.DataFrame, examples: pd.DataFrame, categories: list[str]) -> np.ndarray:
    """(examples, categories) span counts of ``spans`` on the rows of ``examples`` (key columns)."""
    ex_codes, sp_codes = _key_codes([examples[KEY], spans[KEY]])
    size = int(max(ex_codes.max(initial=-1), sp_codes.max(initial=-1))) + 1
    lookup = np.full(size, -1, np.int64)
    lookup[ex_codes] = np.arange(ex_codes.size)
    row = lookup[sp_codes]
    col = pd.Index(categories).get_indexer(spans["type"].to_numpy())
    keep = (row >= 0) & (col >= 0)
    flat = np.bincount(row[keep] * len(categories) + col[keep], minlength=len(examples) * len(categories))
    return flat.reshape(len(examples), len(categories))


def per_example(ref: pd.DataFrame, hyp: pd.DataFrame, examples: pd.DataFrame, categories: list[str]) -> pd.DataFrame:
    """Per example and category, each side's number of spans (examples sorted by key, as
    factgenie's pivot sorts them; ``examples`` must be distinct)."""
    ex = examples[KEY].sort_values(KEY, kind="stable").reset_index(drop=True)
    r, h = count_matrix(ref, ex, categories), count_matrix(hyp, ex, categories)
    out = ex.loc[ex.index.repeat(len(categories))].reset_index(drop=True)
    out.insert(0, "category", np.tile(categories, len(ex)))
    out["ref_count"], out["hyp_count"] = r.ravel(), h.ravel()
    return out


def pearson_rows(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """scipy's ``pearsonr`` (r and p) of each row of ``x`` with the same row of ``y``, (n,
    length) arrays: one call along the rows, which computes each row as a call on that row
    alone does; NaN (silently) where a side is constant."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if x.shape[-1] < 2:
        raise ValueError("the correlation of error counts needs at least two examples")
    if x.shape[0] == 0:
        return np.zeros(0), np.zeros(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's ConstantInputWarning: the result is NaN
        res = pearsonr(np.ascontiguousarray(x), np.ascontiguousarray(y), axis=-1)
    return np.atleast_1d(res.statistic), np.atleast_1d(res.pvalue)


def _pearson(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """scipy's pearsonr of two series; NaN (silently) where a side is constant."""
    r, p = pearson_rows(x[None, :], y[None, :])
    return float(r[0]), float(p[0])


def correlations(counts: pd.DataFrame) -> dict:
    """factgenie's figures from :func:`per_example` counts.

    Returns ``{micro_pearson, micro_p_value, macro_pearson, macro_p_value, examples,
    categories: {category: {pearson, p_value, ref_count, hyp_count}}}`` (NaN where undefined).
    """
    categories = list(dict.fromkeys(counts["category"]))
    if not categories:
        raise ValueError("neither side marked any span: there are no categories to correlate")
    r, h = counts["ref_count"].to_numpy(), counts["hyp_count"].to_numpy()
    micro = _pearson(r, h)
    per_cat = {}
    for c in categories:
        sel = counts["category"].to_numpy() == c
        rho, p = _pearson(r[sel], h[sel])
        per_cat[c] = {"pearson": rho, "p_value": p, "ref_count": int(r[sel].sum()), "hyp_count": int(h[sel].sum())}
    return {
        "micro_pearson": micro[0],
        "micro_p_value": micro[1],
        "macro_pearson": float(np.mean([v["pearson"] for v in per_cat.values()])),
        "macro_p_value": float(np.mean([v["p_value"] for v in per_cat.values()])),
        "examples": int(len(counts) // len(categories)),
        "categories": per_cat,
    }


def error_count_pearson(
    ref: pd.DataFrame,
    hyp: pd.DataFrame,
    examples: pd.DataFrame,
    categories: list[str],
    all_spans: tuple[pd.DataFrame, ...] | None = None,
) -> dict:
    """``factgenie iaa pearson`` of two span frames on ``examples`` (see the module docstring).

    ``categories`` is the campaigns' category order; the categories correlated are those
    present in ``all_spans`` (default: ``ref`` and ``hyp``; pass the whole campaigns' spans to
    follow factgenie exactly when comparing single groups).
    """
    cats = present(categories, *(all_spans if all_spans is not None else (ref, hyp)))
    return correlations(per_example(ref, hyp, examples.drop_duplicates(KEY), cats))


# --- a statistician's tests beside factgenie's figures ------------------------------------------
# factgenie's micro r treats every (example, category) cell as an observation, so an example
# counts K times and the categories' different count levels enter r; its macro p-value is a mean
# of p-values, which is no p-value. One observation per example, and a permutation of examples
# (which keeps the categories of an example together), are what a statistician would test.

PERMUTATIONS = 9999  # random permutations of the macro test (exact below this many orderings)
_NULL_CHUNK = 1 << 22  # elements of one (permutations, examples, categories) working array


def _count_arrays(counts: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(examples, categories) counts of each side from :func:`per_example` rows."""
    categories = list(dict.fromkeys(counts["category"]))
    k = len(categories)
    shape = (len(counts) // k, k)
    return (
        counts["ref_count"].to_numpy(float).reshape(shape),
        counts["hyp_count"].to_numpy(float).reshape(shape),
        categories,
    )


def _macro(rc: np.ndarray, hc: np.ndarray, denom: np.ndarray) -> float:
    return float(np.mean((rc * hc).sum(axis=0) / denom))


def macro_permutation_test(ref: np.ndarray, hyp: np.ndarray, n_resamples: int = PERMUTATIONS, seed: int = 0):
    """Two-sided permutation test of macro r (the mean over categories of Pearson's r between the
    columns of ``ref`` and ``hyp``, examples x categories, every column non-constant): the
    examples of ``hyp`` are permuted, all categories of an example together. Every ordering
    when there are at most ``n_resamples`` of them (exact), else ``n_resamples`` random ones
    (``numpy.random.default_rng(seed)``). The p-value follows scipy's ``permutation_test``
    (``permutation_type="pairings"``): the share of the null at least as extreme on each side
    (plus one for the observed value when random), twice the smaller, at most 1. Returns
    ``(macro r, p-value, permutations, exact)``."""
    import itertools
    import math

    n = ref.shape[0]
    rc, hc = ref - ref.mean(axis=0), hyp - hyp.mean(axis=0)
    denom = np.sqrt((rc**2).sum(axis=0) * (hc**2).sum(axis=0))
    observed = _macro(rc, hc, denom)
    exact = math.factorial(n) <= n_resamples
    if exact:
        perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64).reshape(-1, n)
    else:
        rng = np.random.default_rng(seed)
        perms = rng.permuted(np.tile(np.arange(n), (n_resamples, 1)), axis=1)
    chunk = max(1, _NULL_CHUNK // max(1, n * ref.shape[1]))
    null = np.concatenate(
        [
            (np.einsum("nk,bnk->bk", rc, hc[perms[i : i + chunk]]) / denom).mean(axis=1)
            for i in range(0, len(perms), chunk)
        ]
    )
    adjustment = 0 if exact else 1
    gamma = abs(np.finfo(float).eps * 100 * observed)
    less = (np.count_nonzero(null <= observed + gamma) + adjustment) / (len(perms) + adjustment)
    greater = (np.count_nonzero(null >= observed - gamma) + adjustment) / (len(perms) + adjustment)
    return observed, float(min(1.0, 2 * min(less, greater))), int(len(perms)), bool(exact)


def example_tests(counts: pd.DataFrame, n_resamples: int = PERMUTATIONS, seed: int = 0) -> dict:
    """A statistician's tests from :func:`per_example` counts, beside factgenie's figures.

    ``example_pearson``, ``example_p_value``: Pearson's r (scipy's ``pearsonr`` and its t-test)
    of the two sides' total error counts per example, one observation per example;
    ``macro_pearson``: the mean of the per-category r over the categories where it is defined
    (``macro_categories``: both sides' counts vary), ``macro_p_value_permutation``: its
    :func:`macro_permutation_test` (``permutations``, ``exact``). NaN where undefined."""
    ref, hyp, categories = _count_arrays(counts)
    n = ref.shape[0]
    ex_r, ex_p = _pearson(ref.sum(axis=1), hyp.sum(axis=1)) if n >= 2 else (float("nan"), float("nan"))
    varies = (ref.std(axis=0) > 0) & (hyp.std(axis=0) > 0)
    out = {
        "example_pearson": ex_r,
        "example_p_value": ex_p,
        "macro_categories": [c for c, v in zip(categories, varies) if v],
        "macro_pearson": float("nan"),
        "macro_p_value_permutation": float("nan"),
        "permutations": 0,
        "exact": False,
    }
    if varies.any() and n >= 3:
        r, p, perms, exact = macro_permutation_test(ref[:, varies], hyp[:, varies], n_resamples, seed)
        out |= {"macro_pearson": r, "macro_p_value_permutation": p, "permutations": perms, "exact": exact}
    return out
