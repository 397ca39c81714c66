"""Impression statistics pinned on small hand-computed cases."""

import numpy as np
import pandas as pd
import pytest

from hotelcheckspan.analyses import impressions as I


def frame(rows):
    """rows: (annotator, impression, n_nc, n_m, n_i)."""
    r = pd.DataFrame(rows, columns=["annotator_id", "impression", "n_not_checkable", "n_misleading", "n_incorrect"])
    r["impression"] = r["impression"].astype(float)
    r["errors"] = r[["n_not_checkable", "n_misleading", "n_incorrect"]].sum(axis=1)
    r["has_error"] = r["errors"] > 0
    return r


SMALL = frame(
    [
        ("a", 6, 0, 0, 0),
        ("a", 5, 0, 0, 0),
        ("b", 7, 0, 0, 0),
        ("b", 4, 1, 0, 0),
        ("a", 3, 0, 1, 1),
        ("b", 2, 0, 0, 1),
        ("a", 4, 1, 1, 0),
        ("b", 5, 0, 0, 0),
    ]
)


def test_welch_t_and_cohens_d_by_hand():
    none = np.array([6, 5, 7, 5.0])
    some = np.array([4, 3, 2, 4.0])
    v0, v1 = none.var(ddof=1), some.var(ddof=1)
    t = (none.mean() - some.mean()) / np.sqrt(v0 / 4 + v1 / 4)
    df = (v0 / 4 + v1 / 4) ** 2 / ((v0 / 4) ** 2 / 3 + (v1 / 4) ** 2 / 3)
    d = (none.mean() - some.mean()) / np.sqrt((3 * v0 + 3 * v1) / 6)
    got = I.errors_vs_none(SMALL, n_boot=200)
    assert (got["mean_no_error"], got["mean_with_error"]) == (5.75, 3.25)
    assert got["t"] == pytest.approx(t) and got["df"] == pytest.approx(df) and got["d"] == pytest.approx(d)
    assert got["d_low"] <= got["d"] <= got["d_high"]


@pytest.mark.filterwarnings(
    "ignore::RuntimeWarning", "ignore::scipy.stats.ConstantInputWarning", "ignore::scipy.stats.DegenerateDataWarning"
)
def test_correlations_by_hand():
    r = frame([("a", 7, 0, 0, 0), ("a", 5, 1, 0, 0), ("a", 3, 2, 0, 0), ("a", 1, 3, 0, 0)])
    corr = I.count_correlation(r).set_index("method")
    assert corr.loc["Pearson", "r"] == pytest.approx(-1.0) and corr.loc["Spearman", "r"] == pytest.approx(-1.0)


def test_by_count_by_type_and_bands_by_hand():
    counts = I.by_count(SMALL, cap=2).set_index("errors")
    assert counts.loc["0", "mean"] == 5.75 and counts.loc["1", "mean"] == 3.0 and counts.loc["2+", "mean"] == 3.5
    assert counts.loc["0", "low"] < 5.75 < counts.loc["0", "high"]
    types = I.by_type(SMALL).set_index("type")
    # Incorrect: records rated 3 and 2 -> mean 2.5, drop 5.75 - 2.5
    assert types.loc["Incorrect", "mean"] == 2.5 and types.loc["Incorrect", "drop"] == pytest.approx(3.25)
    assert types.loc["Misleading", "records"] == 2 and types.loc["Misleading", "mean"] == 3.5
    b = I.bands(SMALL).set_index("band")
    assert b.loc["high (6-7)", "with errors (%)"] == 0 and b.loc["low (1-3)", "with errors (%)"] == 100
    assert b.loc["mid (4-5)", "records"] == 4 and b.loc["mid (4-5)", "with errors (%)"] == 50


def test_mixed_model_recovers_annotator_variance_and_effects():
    rng = np.random.default_rng(0)
    rows, offsets = [], []
    for j in range(40):
        offset = rng.normal(0, 1.0)
        offsets.append(offset)
        for _ in range(15):
            nc, m, i = rng.poisson(0.4), rng.poisson(0.3), rng.poisson(0.15)
            rows.append((f"a{j}", 5 + offset - 0.8 * nc - 0.5 * m - 1.6 * i + rng.normal(0, 0.5), nc, m, i))
    r = frame(rows)
    var = I.annotator_variance(r)
    assert var["converged"] and var["between_var"] == pytest.approx(np.var(offsets, ddof=1), abs=0.2)
    assert 0.2 < var["icc"] < 0.6
    models = I.per_type_models(r).set_index(["model", "term"])
    mixed = models.loc["MixedLM"]
    assert mixed.loc["n_incorrect", "coef"] == pytest.approx(-1.6, abs=0.15)
    assert mixed.loc["n_misleading", "coef"] == pytest.approx(-0.5, abs=0.15)
    # the mixed model's interval is narrower than OLS's once annotator offsets are modelled
    width = models["high"] - models["low"]
    assert width.loc[("MixedLM", "n_incorrect")] < width.loc[("OLS", "n_incorrect")]
    ordinal = models.loc["OrderedModel"]
    assert ordinal.loc["n_incorrect", "coef"] < ordinal.loc["n_misleading", "coef"] < 0
    effect = I.error_effect_models(r).set_index("model")
    assert (effect["coef"] < 0).all()


def test_ratings_from_the_bundled_corpus():
    from hotelcheckspan import corpora as corpus

    c = corpus.load()
    r = I.ratings(c)
    assert len(r) == 1482 and r["impression"].between(1, 7).all()
    human = c.spans[c.spans["kind"] == "human"]
    assert int(r["errors"].sum()) == len(human)
    assert int(r["n_incorrect"].sum()) == int((human["type"] == "Incorrect").sum())
