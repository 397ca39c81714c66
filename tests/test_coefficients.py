"""Gwet's AC1 (and Fleiss' kappa in the same formulation) against the ``agreement`` package
(GPL-3, a test oracle only), statsmodels and irrCAC's published example."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

from hotelcheckspan.analyses import example_level as E
from hotelcheckspan.corpora import load
from hotelcheckspan.metrics import coefficients as C

agreement = pytest.importorskip("agreement.metrics")

# irrCAC's example "cac.raw4raters" (Gwet, Handbook of Inter-Rater Reliability; irrCAC's
# documentation): 12 units, 4 raters, 5 categories, missing ratings as None. irrCAC prints for
# gwet.ac1.raw: pa 0.8181818, pe 0.1903212, AC1 0.7754; for krippen.alpha.raw: 0.7434.
RAW4 = [
    "aa-a", "bbcb", "cccc", "cccc", "bbbb", "abcd", "dddd", "aaba", "bbbb", "-eee", "--aa", "--c-",
]  # fmt: skip


def ratings(rows: list[str]) -> np.ndarray:
    return np.array([[-1 if x == "-" else "abcde".index(x) for x in row] for row in rows])


def test_irrcac_published_example():
    parts = C.parts(C.category_counts(ratings(RAW4)))
    assert round(parts["pa"], 7) == 0.8181818 and round(parts["pe_ac1"], 7) == 0.1903212
    assert round(parts["gwet_ac1"], 4) == 0.7754
    assert parts["gwet_ac1"] == pytest.approx(agreement.gwets_gamma(C.category_counts(ratings(RAW4))), abs=1e-12)
    assert round(agreement.krippendorffs_alpha(C.category_counts(ratings(RAW4))), 4) == 0.7434  # the oracle is irrCAC's


def test_a_three_rater_example_by_hand_and_by_both_oracles():
    # 10 units, 3 raters, labels 0/1/2
    data = ratings(["aaa", "aab", "bbb", "bbb", "ccc", "aac", "aaa", "bbc", "aaa", "ccc"])
    counts = C.category_counts(data)
    # by hand: agreeing pairs per unit (of 3): 3,1,3,3,3,1,3,1,3,3 -> pa = 24/30
    pa = 24 / 30
    pi = np.array([13, 9, 8]) / 30  # shares of a, b, c over the 30 ratings (each unit has 3)
    ac1 = (pa - (pi * (1 - pi)).sum() / 2) / (1 - (pi * (1 - pi)).sum() / 2)
    kappa = (pa - (pi**2).sum()) / (1 - (pi**2).sum())
    assert C.gwet_ac1(counts) == pytest.approx(ac1, abs=1e-12)
    assert C.fleiss_kappa(counts) == pytest.approx(kappa, abs=1e-12)
    assert C.gwet_ac1(counts) == pytest.approx(agreement.gwets_gamma(counts.astype(float)), abs=1e-12)
    assert C.fleiss_kappa(counts) == pytest.approx(agreement.scotts_pi(counts.astype(float)), abs=1e-12)
    assert C.fleiss_kappa(counts) == pytest.approx(sm_fleiss(counts, method="fleiss"), abs=1e-12)
    assert C.gwet_ac1(counts) > C.fleiss_kappa(counts)


def _rows(q: int, raters: int):
    return st.lists(st.lists(st.integers(0, q - 1), min_size=raters, max_size=raters), min_size=2, max_size=40)


matrices = st.integers(2, 4).flatmap(lambda q: st.integers(2, 6).flatmap(lambda raters: _rows(q, raters)))


@given(matrices)
def test_complete_ratings_equal_the_oracles(rows):
    counts = C.category_counts(np.array(rows))
    parts = C.parts(counts)
    assert parts["gwet_ac1"] == pytest.approx(agreement.gwets_gamma(counts.astype(float)), abs=1e-9, nan_ok=True)
    if parts["pe_kappa"] < 1 - 1e-12:
        assert parts["fleiss_kappa"] == pytest.approx(sm_fleiss(counts, method="fleiss"), abs=1e-9)
        assert parts["fleiss_kappa"] == pytest.approx(agreement.scotts_pi(counts.astype(float)), abs=1e-9)
    else:  # everyone used one category: kappa undefined, AC1 perfect
        assert np.isnan(parts["fleiss_kappa"]) and parts["gwet_ac1"] == 1


@given(st.lists(st.lists(st.integers(-1, 2), min_size=4, max_size=4), min_size=3, max_size=30))
def test_missing_ratings_equal_the_oracle(rows):
    data = np.array([r for r in rows if max(r) >= 0])  # a unit nobody rated is no unit
    if len(data) == 0 or not (np.sum(data >= 0, axis=1) >= 2).any():
        return
    counts = C.category_counts(data)
    assert C.gwet_ac1(counts) == pytest.approx(agreement.gwets_gamma(counts.astype(float)), abs=1e-9, nan_ok=True)


def test_reliability_of_the_bundled_corpus_has_ac1_equal_to_the_oracle():
    from hotelcheckspan.analyses import dataset_level
    from hotelcheckspan.annotator_sets import HUMAN_SETS

    corpus = load()
    marks = E.marks(corpus, HUMAN_SETS, dataset_level.stage2_examples(corpus))
    rel = E.reliability(marks).set_index("label")
    wide = E._wide(marks)
    for label in rel.index:
        counts = C.category_counts(wide[label].to_numpy())
        assert rel.loc[label, "gwet_ac1"] == pytest.approx(agreement.gwets_gamma(counts.astype(float)), abs=1e-12)
    prev = E.prevalence(marks).set_index("label")
    assert np.allclose(prev["fleiss_kappa"], rel["fleiss_kappa"], equal_nan=True)
    assert np.allclose(prev["gwet_ac1"], rel["gwet_ac1"])


def test_the_kappa_paradox_on_a_small_case():
    # 20 examples, 4 raters; 18 examples nobody marks, one all mark, one split 2-2
    data = np.zeros((20, 4), int)
    data[0] = 1
    data[1, :2] = 1
    parts = C.parts(C.category_counts(data))
    assert parts["pa"] == pytest.approx((19 + 2 / 6) / 20)
    assert parts["pe_kappa"] > 0.8 and parts["pe_ac1"] < 0.15
    assert parts["gwet_ac1"] > 0.9 > parts["fleiss_kappa"]
