"""Errors and the overall impression (Section 6.5), and what clustering by annotator changes.

The unit is a human record with an impression (1-7). ``ratings(corpus)`` returns one row per such
record: ``record_id, campaign, annotator_id`` and the example key, ``impression``,
``errors`` (spans marked), ``has_error``, and per type ``n_<type>`` (spans of that type).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
from scipy import stats
from statsmodels.miscmodels.ordinal_model import OrderedModel

from ..categories import CATEGORIES
from ..corpora import KEY, Corpus
from ..metrics import resampling

TYPE_COLUMNS = {t: "n_" + t.lower().replace(" ", "_") for t in CATEGORIES}
BANDS = {"low (1-3)": (1, 3), "mid (4-5)": (4, 5), "high (6-7)": (6, 7)}


def ratings(corpus: Corpus) -> pd.DataFrame:
    """Human records with an impression, their error count and counts per type."""
    rec = corpus.records[(corpus.records["kind"] == "human") & corpus.records["impression"].notna()]
    counts = corpus.spans.pivot_table(index="record_id", columns="type", values="start", aggfunc="size", fill_value=0)
    counts = counts.reindex(columns=CATEGORIES, fill_value=0).rename(columns=TYPE_COLUMNS)
    out = (
        rec[["record_id", "campaign", "annotator_id", *KEY, "impression"]]
        .merge(counts, left_on="record_id", right_index=True, how="left")
        .fillna({c: 0 for c in TYPE_COLUMNS.values()})
    )
    out[list(TYPE_COLUMNS.values())] = out[list(TYPE_COLUMNS.values())].astype(int)
    out["impression"] = out["impression"].astype(float)
    out["errors"] = out[list(TYPE_COLUMNS.values())].sum(axis=1)
    out["has_error"] = out["errors"] > 0
    return out.reset_index(drop=True)


def cohens_d(a: np.ndarray, b: np.ndarray) -> float:
    """Standardised mean difference (a - b) with the pooled standard deviation."""
    na, nb = len(a), len(b)
    pooled = np.sqrt(((na - 1) * np.var(a, ddof=1) + (nb - 1) * np.var(b, ddof=1)) / (na + nb - 2))
    return float((np.mean(a) - np.mean(b)) / pooled)


def errors_vs_none(r: pd.DataFrame, n_boot: int = 2000, seed: int = 0) -> dict:
    """Welch's t-test of impression without vs with errors, and Cohen's d with a bootstrap CI.

    Positive t and d mean records without errors are rated higher.
    """
    none = r.loc[~r["has_error"], "impression"].to_numpy()
    some = r.loc[r["has_error"], "impression"].to_numpy()
    test = stats.ttest_ind(none, some, equal_var=False)
    rng = np.random.default_rng(seed)
    boot = [cohens_d(rng.choice(none, none.size), rng.choice(some, some.size)) for _ in range(n_boot)]
    d_low, d_high = resampling.interval(boot, 0.95)
    return {
        "mean_no_error": float(none.mean()),
        "mean_with_error": float(some.mean()),
        "n_no_error": int(none.size),
        "n_with_error": int(some.size),
        "t": float(test.statistic),
        "df": float(test.df),
        "p": float(test.pvalue),
        "d": cohens_d(none, some),
        "d_low": d_low,
        "d_high": d_high,
    }


def count_correlation(r: pd.DataFrame) -> pd.DataFrame:
    """Pearson and Spearman correlation of the number of errors with the impression.

    Columns: ``method, r, p, low, high`` (95% CI: Fisher z for Pearson, bootstrap for Spearman).
    """
    pear = stats.pearsonr(r["errors"], r["impression"])
    ci = pear.confidence_interval(0.95)
    spear = stats.spearmanr(r["errors"], r["impression"])
    boot = stats.bootstrap(
        (r["errors"].to_numpy(), r["impression"].to_numpy()),
        lambda x, y: stats.spearmanr(x, y).statistic,
        paired=True,
        vectorized=False,
        n_resamples=1000,
        random_state=np.random.default_rng(0),
        method="percentile",
    )
    return pd.DataFrame(
        [
            {"method": "Pearson", "r": float(pear.statistic), "p": float(pear.pvalue), "low": ci.low, "high": ci.high},
            {
                "method": "Spearman",
                "r": float(spear.statistic),
                "p": float(spear.pvalue),
                "low": float(boot.confidence_interval.low),
                "high": float(boot.confidence_interval.high),
            },
        ]
    )


def by_count(r: pd.DataFrame, cap: int = 4) -> pd.DataFrame:
    """Mean impression per number of errors (``cap`` and more pooled), with a t-based 95% CI."""
    group = r["errors"].clip(upper=cap).map(lambda n: f"{n}+" if n == cap else str(n))
    rows = []
    for name, vals in r["impression"].groupby(group, sort=True):
        n, m = len(vals), vals.mean()
        half = stats.t.ppf(0.975, n - 1) * vals.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan
        rows.append({"errors": name, "records": n, "mean": m, "low": m - half, "high": m + half})
    return pd.DataFrame(rows)


def by_type(r: pd.DataFrame) -> pd.DataFrame:
    """Mean impression of records with at least one error of each type and its drop from the
    no-error mean, as in Section 6.5 (a record with several types counts for each)."""
    base = r.loc[~r["has_error"], "impression"].mean()
    rows = []
    for t, col in TYPE_COLUMNS.items():
        vals = r.loc[r[col] > 0, "impression"]
        rows.append({"type": t, "records": len(vals), "mean": vals.mean(), "drop": base - vals.mean()})
    return pd.DataFrame(rows).sort_values("drop", ascending=False).reset_index(drop=True)


def bands(r: pd.DataFrame, cuts: dict[str, tuple[int, int]] | None = None) -> pd.DataFrame:
    """Share of records in each rating band that contain at least one error: the bands of
    :data:`BANDS`, or ``cuts`` (``{name: (lowest, highest rating)}``, another reading of the paper's
    unnamed "mid" and "low"). Columns: ``band, records, with errors (%)``."""
    rows = []
    for name, (lo, hi) in (BANDS if cuts is None else cuts).items():
        part = r[r["impression"].between(lo, hi)]
        rows.append({"band": name, "records": len(part), "with errors (%)": 100 * part["has_error"].mean()})
    return pd.DataFrame(rows)


def _mixed(formula: str, r: pd.DataFrame):
    """Random-intercept-per-annotator model (REML, statsmodels' default optimiser: L-BFGS
    returned a degenerate fit with an infinite log-likelihood on the bundled corpus)."""
    fit = smf.mixedlm(formula, data=r, groups=r["annotator_id"]).fit(reml=True)
    if not (fit.converged and np.isfinite(fit.llf)):
        raise RuntimeError(f"MixedLM did not converge for {formula!r}")
    return fit


def _formula() -> str:
    return "impression ~ " + " + ".join(TYPE_COLUMNS.values())


def per_type_models(r: pd.DataFrame) -> pd.DataFrame:
    """Effect of one more error of each type on the impression, three ways.

    - ``OLS``: ordinary least squares, every rating independent (what a plain regression assumes);
    - ``MixedLM``: a random intercept per annotator (statsmodels), since each annotator rates many
      summaries on their own scale;
    - ``OrderedModel``: ordinal logit (statsmodels), a check that the 1-7 scale being ordinal,
      not interval, does not change the ordering; its coefficients are on the log-odds scale.

    Columns: ``model, term, coef, low, high, p``.
    """
    rows = []
    ols = smf.ols(_formula(), data=r).fit()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence chatter; checked through `converged` below
        mixed = _mixed(_formula(), r)
        ordinal = OrderedModel(r["impression"].astype(int), r[list(TYPE_COLUMNS.values())], distr="logit").fit(
            method="bfgs", disp=False, maxiter=2000
        )
    for name, fit in (("OLS", ols), ("MixedLM", mixed), ("OrderedModel", ordinal)):
        ci = fit.conf_int()
        for term in TYPE_COLUMNS.values():
            rows.append(
                {
                    "model": name,
                    "term": term,
                    "coef": float(fit.params[term]),
                    "low": float(ci.loc[term].iloc[0]),
                    "high": float(ci.loc[term].iloc[1]),
                    "p": float(fit.pvalues[term]),
                }
            )
    return pd.DataFrame(rows)


def annotator_variance(r: pd.DataFrame) -> dict:
    """How much of the impression's variance sits between annotators (intraclass correlation of
    an intercept-only mixed model) and whether the mixed model converged."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        null = _mixed("impression ~ 1", r)
    between = float(null.cov_re.iloc[0, 0])
    return {
        "annotators": int(r["annotator_id"].nunique()),
        "between_var": between,
        "within_var": float(null.scale),
        "icc": between / (between + float(null.scale)),
        "converged": bool(null.converged),
    }


def error_effect_models(r: pd.DataFrame) -> pd.DataFrame:
    """The paper's contrast (any error vs none) as a regression, ignoring the annotators (OLS,
    equivalent to a pooled t-test) and with a random intercept per annotator (MixedLM).

    Columns: ``model, coef, se, low, high, p`` for the effect of having an error.
    """
    data = r.assign(has_error=r["has_error"].astype(int))
    ols = smf.ols("impression ~ has_error", data=data).fit()
    mixed = _mixed("impression ~ has_error", data)
    rows = []
    for name, fit in (("OLS (ratings independent)", ols), ("MixedLM (annotator intercept)", mixed)):
        lo, hi = fit.conf_int().loc["has_error"]
        rows.append(
            {
                "model": name,
                "coef": float(fit.params["has_error"]),
                "se": float(fit.bse["has_error"]),
                "low": float(lo),
                "high": float(hi),
                "p": float(fit.pvalues["has_error"]),
            }
        )
    return pd.DataFrame(rows)
