"""Chance-corrected agreement of many raters on nominal labels: Gwet's AC1 beside Fleiss' kappa.

Both coefficients are ``(p_a - p_e) / (1 - p_e)`` with the same observed agreement and a
different chance agreement (Gwet 2008; Gwet, *Handbook of Inter-Rater Reliability*, ch. 2 and 5).
With ``r_ik`` the raters putting unit i in category k and ``r_i`` the raters of unit i:

* ``p_a``: over the units with at least two raters, the mean share of agreeing rater pairs,
  ``sum_k r_ik (r_ik - 1) / (r_i (r_i - 1))``;
* ``pi_k``: over the units with at least one rater, the mean of ``r_ik / r_i``;
* Fleiss' kappa: ``p_e = sum_k pi_k**2``; Gwet's AC1: ``p_e = sum_k pi_k (1 - pi_k) / (q - 1)``
  with q categories.

Why they differ where one label dominates (the "kappa paradox"): with two labels and a share
pi of "error", kappa's ``p_e = pi**2 + (1 - pi)**2`` tends to one as pi tends to zero, so a few
disagreements on rare errors pull kappa down however often the raters agree on "no error";
AC1's ``p_e = 2 pi (1 - pi)`` tends to zero, so AC1 tends to the observed agreement.

AC1 is irrCAC's ``gwet.ac1.raw``, missing ratings included (the tests check it against the
``agreement`` package and irrCAC's published example). With every unit rated by every rater
kappa is statsmodels' ``fleiss_kappa``; with missing ratings, formulations of kappa differ in
which units give ``pi_k`` (here, as for AC1, every unit with a rating). Where every rating is
one category kappa is undefined (``p_e = 1``, NaN) and AC1 is ``p_a`` (one: perfect agreement).
"""

from __future__ import annotations

import numpy as np


def category_counts(ratings: np.ndarray) -> np.ndarray:
    """(units, categories) counts from a (units, raters) matrix of category codes 0..q-1
    (negative or NaN: no rating). Binary marks (0/1, True/False) give two categories."""
    data = np.asarray(ratings, float)
    rated = ~np.isnan(data) & (data >= 0)
    codes = np.where(rated, data, 0).astype(np.int64)
    q = max(2, int(codes.max(initial=0)) + 1)
    counts = np.zeros((data.shape[0], q), np.int64)
    rows = np.repeat(np.arange(data.shape[0]), data.shape[1]).reshape(data.shape)
    np.add.at(counts, (rows[rated], codes[rated]), 1)
    return counts


def parts(counts: np.ndarray) -> dict[str, float]:
    """Observed agreement ``p_a``, the category shares' chance terms and both coefficients.

    ``counts``: (units, categories) raters per category (:func:`category_counts`). Returns
    ``pa, pe_kappa, pe_ac1, fleiss_kappa, gwet_ac1`` (NaN where undefined)."""
    counts = np.asarray(counts, float)
    q = counts.shape[1]
    r = counts.sum(axis=1)
    pairs = r >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = float(np.mean((counts[pairs] * (counts[pairs] - 1)).sum(axis=1) / (r[pairs] * (r[pairs] - 1))))
        pi = (counts[r >= 1] / r[r >= 1, None]).mean(axis=0) if (r >= 1).any() else np.full(q, np.nan)
    pe_kappa = float(np.sum(pi**2))
    pe_ac1 = float(np.sum(pi * (1 - pi)) / (q - 1))
    return {
        "pa": pa,
        "pe_kappa": pe_kappa,
        "pe_ac1": pe_ac1,
        "fleiss_kappa": _ratio(pa, pe_kappa),
        "gwet_ac1": _ratio(pa, pe_ac1),
    }


def _ratio(pa: float, pe: float) -> float:
    if not np.isfinite(pa) or not np.isfinite(pe) or pe >= 1:
        return float("nan")
    return float((pa - pe) / (1 - pe))


def gwet_ac1(counts: np.ndarray) -> float:
    """Gwet's AC1 of (units, categories) rater counts (see the module docstring)."""
    return parts(counts)["gwet_ac1"]


def fleiss_kappa(counts: np.ndarray) -> float:
    """Fleiss' kappa of (units, categories) rater counts, irrCAC's formulation (equals
    statsmodels' ``fleiss_kappa`` when every unit has every rater)."""
    return parts(counts)["fleiss_kappa"]


# --- binary marks of raters who all rated every unit, from per-unit sums ---------------------------
#
# With every unit rated by the same m raters on two categories, the three coefficients are
# functions of sums over units, so a bootstrap replicate of them is one product of resampling
# weights with the per-unit terms (see hotelcheckspan.metrics.resampling).

BINARY_TERMS = ["units", "agreeing_pairs", "error_share", "disagreeing"]


def binary_terms(data: np.ndarray) -> np.ndarray:
    """(units, 4) per-unit terms of a (units, m raters) 0/1 matrix, every rater on every unit
    (:data:`BINARY_TERMS`): 1; the share of agreeing rater pairs; the share of raters marking 1;
    ``r0 r1 / (m - 1)``, the unit's disagreeing pairs as Krippendorff's coincidences count them."""
    data = np.asarray(data, float)
    m = data.shape[1]
    ones = data.sum(axis=1)
    zeros = m - ones
    with np.errstate(invalid="ignore", divide="ignore"):
        agreeing = (ones * (ones - 1) + zeros * (zeros - 1)) / (m * (m - 1))
        disagreeing = ones * zeros / (m - 1)
    return np.stack([np.ones_like(ones), agreeing, ones / m, disagreeing], axis=1)


def binary_from_sums(sums: np.ndarray, m: int) -> dict[str, np.ndarray]:
    """Fleiss' kappa, Gwet's AC1, Krippendorff's alpha (nominal) and the share of 1s from summed
    :func:`binary_terms` (rows: replicates), NaN where undefined: kappa and alpha where every
    rating is one category (AC1 is then the observed agreement, one), all with no unit."""
    sums = np.atleast_2d(np.asarray(sums, float))
    units, agreeing, share, disagreeing = sums.T
    with np.errstate(invalid="ignore", divide="ignore"):
        pa = agreeing / units
        p1 = share / units
        pe_kappa = p1**2 + (1 - p1) ** 2
        pe_ac1 = 2 * p1 * (1 - p1)
        n = units * m
        n1 = share * m
        kappa = np.where(pe_kappa < 1, (pa - pe_kappa) / (1 - pe_kappa), np.nan)
        ac1 = np.where(pe_ac1 < 1, (pa - pe_ac1) / (1 - pe_ac1), np.nan)
        alpha = np.where((n1 > 0) & (n1 < n), 1 - (n - 1) * disagreeing / (n1 * (n - n1)), np.nan)
    undefined = units == 0
    return {
        "fleiss_kappa": np.where(undefined, np.nan, kappa),
        "krippendorff_alpha": np.where(undefined, np.nan, alpha),
        "gwet_ac1": np.where(undefined, np.nan, ac1),
        "positive_share": np.where(undefined, np.nan, p1),
    }
