"""Table 6 beyond F1 (boundary schemes and error-count correlation per comparison) and the
readings of the kappa-paradox and beyond-F1 sections."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr

import hotelcheckspan
from hotelcheckspan.analyses import dataset_level, example_level, span_level, span_measures
from hotelcheckspan.annotator_sets import HUMAN_SETS
from hotelcheckspan.book.readings import beyond_f1, kappa_paradox
from hotelcheckspan.metrics import boundaries, error_counts


@pytest.fixture(scope="module")
def corpus():
    return hotelcheckspan.load()


@pytest.fixture(scope="module")
def measured(corpus):
    return span_measures.pairs(corpus)


def test_every_pair_equals_the_metrics_called_directly(corpus, measured):
    frame, _ = measured
    values = frame.set_index(["comparison", "ref", "hyp", "measure"])["value"]
    f1_pairs, _ = span_level.pairwise(corpus, matches=("hard",))
    for i, (name, ref_set, hyp_set, ref_sp, hyp_sp, ex) in enumerate(span_level.iter_pairs(corpus)):
        key = (name, ref_set.spec, hyp_set.spec)
        assert values[(*key, "F1 (book)")] == pytest.approx(f1_pairs.iloc[i]["f1"])
        sc = boundaries.boundary_scores(ref_sp, hyp_sp, ex, categories=corpus.categories).set_index("scheme")
        for scheme, label in span_measures.SCHEME_LABELS.items():
            assert values[(*key, f"{label} F1")] == pytest.approx(sc.loc[scheme, "f1"])
            assert values[(*key, f"{label} missed")] == sc.loc[scheme, "missed"]
        whole = [corpus.spans[corpus.spans["campaign"] == c] for c in (ref_set.campaign, hyp_set.campaign)]
        r = error_counts.error_count_pearson(ref_sp, hyp_sp, ex, corpus.categories, all_spans=tuple(whole))
        assert values[(*key, "Pearson r (micro)")] == pytest.approx(r["micro_pearson"], nan_ok=True)


def test_table_averages_pairs_and_its_intervals_bracket_the_estimates(measured):
    frame, arrays = measured
    t = span_measures.table(frame, arrays, n_boot=200, seed=0)
    assert list(t["comparison"]) == list(dict.fromkeys(frame["comparison"]))
    means = frame.groupby(["comparison", "measure"], sort=False)["value"].mean()
    for _, row in t.iterrows():
        for m in span_measures.MEASURES:
            assert row[m] == pytest.approx(means[(row["comparison"], m)])
            if not np.isnan(row[m]):
                assert row[f"{m}_low"] - 0.05 <= row[m] <= row[f"{m}_high"] + 0.05
    pd_t = span_measures.table(frame, arrays, n_boot=200, seed=0)
    assert pd_t.equals(t)  # seeded


def test_the_replicates_correlation_formula_is_pearsons_r():
    rng = np.random.default_rng(0)
    x, y = rng.poisson(1, (30, 3)).astype(float), rng.poisson(1, (30, 3)).astype(float)
    sums = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1).sum(axis=(0, 1))
    assert span_measures._pearson_from_sums(sums) == pytest.approx(pearsonr(x.ravel(), y.ravel()).statistic)


def test_counts_sum_the_pairs(measured):
    frame, _ = measured
    c = span_measures.counts(frame).set_index(["comparison", "scheme"])
    total = frame[frame["measure"] == "strict correct"].groupby("comparison")["value"].sum()
    for comp, v in total.items():
        assert c.loc[(comp, "strict"), "correct"] == v


def test_readings(corpus, measured):
    frame, arrays = measured
    got = beyond_f1.readings(span_measures.table(frame, arrays, n_boot=50), prefix="x")
    assert got["x_top_f1"].split(" (tied")[0] in set(frame["comparison"]) and got["x_bigger"] in ("boundaries", "types")
    assert all(isinstance(v, str) for v in got.values())
    marks = example_level.marks(corpus, HUMAN_SETS, dataset_level.stage2_examples(corpus))
    prev = example_level.prevalence(marks)
    kp = kappa_paradox.readings(prev, prefix="k")
    widest = prev.set_index("label").loc[kp["k_type"]]
    assert kp["k_ac1"] == f"{widest['gwet_ac1']:.2f}" and kp["k_kappa"] == f"{widest['fleiss_kappa']:.2f}"
    # the rarer the error type, the larger kappa's chance term
    typed = prev[prev["label"] != "Any"]
    assert np.allclose(typed["pe_kappa"], typed["positive_share"] ** 2 + (1 - typed["positive_share"]) ** 2)


def test_readings_treat_f1_within_half_a_point_as_tied():
    # chapter 04: stage 2's F1 0.1353 against stage 1's 0.1348 is no order; partial puts c first
    table = pd.DataFrame(
        {
            "comparison": ["a", "b", "c", "d"],
            "F1 (book)": [0.1353, 0.1348, 0.12, 0.05],
            "strict F1": [0.1, 0.1, 0.1, 0.0],
            "exact F1": [0.2, 0.2, 0.2, 0.1],
            "partial F1": [0.26, 0.28, 0.31, 0.1],
            "type F1": [0.1, 0.1, 0.1, 0.0],
            "Pearson r (micro)": [0.1, 0.2, 0.0, -0.1],
        }
    )
    got = beyond_f1.readings(table, prefix="x")
    assert got["x_top_f1"] == "a (tied within half a point with b)"
    assert got["x_top_partial"] == "c" and got["x_same_top"] == "a different comparison"
    # F1 ranks 1, 1, 3, 4; partial 3, 2, 1, 4: a, b and c move, d keeps its rank
    assert got["x_moved"] == "three"
