"""Chapters 06 and 07 read against the paper: the Section 6.4 location share and type pairings,
one consensus reading in body and Summary, labels from the rule, stable embeddings and map.

References: statsmodels' adjusted residuals and Wilson interval, scipy's chi-square, hand counts."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2_contingency
from sklearn.decomposition import PCA
from statsmodels.stats.contingency_tables import Table

from hotelcheckspan.analyses import clusters as K
from hotelcheckspan.book import labels, tables
from hotelcheckspan.book.readings import error_clusters as EC
from hotelcheckspan.book.readings import impressions as IR
from hotelcheckspan.reference import paper


def overview(names, sizes):
    return pd.DataFrame({"cluster": range(len(names)), "label": names, "size": sizes})


# --- analyses --------------------------------------------------------------------------------------


def test_cluster_groups_drop_the_detail_and_map_families_to_table7():
    assert K.group_of("Proximity (var.)") == "Proximity"
    assert K.group_of("Amenity Availability (Fitness)") == "Amenity Availability"
    assert K.group_of("Central Location") == "Central Location"
    assert K.group_of("Business (facilities, conference)") == "Business Facility"  # a family-made name
    assert K.group_of("Dining (bar, rooftop)") == "Dining/Food"
    # every family of the lexicon has a Table 7 group, so no auto-named cluster escapes the pairings
    families = {f for fams in K.read_lexicon().values() for f in fams}
    assert families <= set(K.FAMILY_GROUPS)


def test_location_share_counts_by_hand_with_wilson_intervals():
    ov = overview(
        ["Proximity (var.)", "Proximity (minutes)", "Central Location", "Business Facility"], [30, 10, 20, 40]
    )
    got = K.location_share(ov, level=0.95).set_index("group")
    assert got.loc["Proximity", "spans"] == 40 and got.loc["Proximity", "clusters"] == 2
    assert got.loc["Walking Distance", "spans"] == 0
    assert got.loc["all of them", "share"] == pytest.approx(60.0)
    # Wilson interval by its formula, for 40 of 100
    p, n, z = 0.4, 100, 1.959963984540054
    centre, half = (
        (p + z * z / (2 * n)) / (1 + z * z / n),
        z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n),
    )
    assert got.loc["Proximity", "low"] == pytest.approx(100 * (centre - half))
    assert got.loc["Proximity", "high"] == pytest.approx(100 * (centre + half))


def test_type_residuals_are_statsmodels_adjusted_residuals():
    names = ["Proximity (a)", "Proximity (b)", "Business Facility", "Dining/Food"]
    rng = np.random.default_rng(1)
    labels_ = rng.integers(0, 4, 300)
    types = np.where(labels_ == 2, "Incorrect", rng.choice(["Misleading", "Not Checkable", "Incorrect"], 300))
    spans = pd.DataFrame({"type": types})
    got = K.type_residuals(spans, labels_, overview(names, np.bincount(labels_, minlength=4)))
    groups = pd.Series(labels_).map(dict(enumerate(K.group_of(n) for n in names)))
    ref = Table(pd.crosstab(groups, spans["type"]), shift_zeros=False)
    want = ref.standardized_resids.stack()
    for _, row in got.iterrows():
        assert row["residual"] == pytest.approx(want.loc[(row["group"], row["type"])])
        assert row["expected"] == pytest.approx(ref.fittedvalues.loc[row["group"], row["type"]])
    assert got.loc[(got["group"] == "Business Facility") & (got["type"] == "Incorrect"), "residual"].item() > 5
    assert got["spans"].sum() == 300 and got["group"].iloc[0] == "Proximity"  # the largest group first


def test_cramers_v_from_the_chi_square():
    spans = pd.DataFrame({"type": ["Incorrect"] * 12 + ["Misleading"] * 8 + ["Not Checkable"] * 10})
    labels_ = np.array([0] * 9 + [1] * 3 + [1] * 6 + [2] * 2 + [2] * 7 + [0] * 3)
    table, test = K.by_type(spans, labels_)
    chi2 = chi2_contingency(table.to_numpy(), correction=False)[0]
    want = math.sqrt(chi2 / (len(spans) * (min(table.shape) - 1)))
    assert test.iloc[0]["Cramér's V"] == pytest.approx(want)
    _, perfect = K.by_type(pd.DataFrame({"type": ["Incorrect"] * 5 + ["Misleading"] * 5}), np.array([0] * 5 + [1] * 5))
    assert perfect.iloc[0]["Cramér's V"] == pytest.approx(1.0)


def test_map_is_the_pca_up_to_sign_and_a_grid_cell():
    X = np.random.default_rng(0).normal(size=(120, 16))
    xy = K.map_2d(X)
    ref = PCA(n_components=2, svd_solver="full").fit_transform(X)
    cell = np.exp2(np.floor(np.log2(np.ptp(ref, axis=0) / K.MAP_GRID)))  # a power of two near range/grid
    assert np.all(cell <= np.ptp(ref, axis=0) / K.MAP_GRID) and np.all(cell > np.ptp(ref, axis=0) / K.MAP_GRID / 2)
    for j in range(2):
        sign = np.sign(xy[:, j] @ ref[:, j])
        assert np.abs(xy[:, j] - sign * ref[:, j]).max() <= cell[j] / 2 + 1e-12
        assert np.array_equal(xy[:, j] / cell[j], np.round(xy[:, j] / cell[j]))  # every point on the lattice


def test_map_does_not_move_with_last_bit_jitter():
    """What another CPU or thread count does to float32 embeddings (a few ulps) leaves the map."""
    X = np.random.default_rng(0).normal(size=(300, 32)).astype(np.float32)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    jitter = np.random.default_rng(1).integers(-2, 3, X.shape) * np.spacing(X)
    assert not np.array_equal(X, X + jitter)
    assert np.array_equal(K.map_2d(X), K.map_2d(X + jitter))
    assert np.array_equal(K.map_2d(X), K.map_2d(X[:, ::1].copy()))


@pytest.fixture(scope="module")
def model():
    return K.load_model()


def test_a_texts_embedding_does_not_depend_on_its_batch(tmp_path, model):
    """Cached one by one, a text gets the same bytes whether it was embedded alone or with
    others, in one run or two: a warm cache and a cold one draw the same map."""
    texts = ["a short walk", "a rooftop bar with stunning views over the old harbour at night", "free parking"]
    together = K.embed(texts, cache_dir=tmp_path / "one")
    K.embed(texts[:1], cache_dir=tmp_path / "two")
    in_two_runs = K.embed(texts, cache_dir=tmp_path / "two")
    assert together.tobytes() == in_two_runs.tobytes()
    batched = model.encode(texts, normalize_embeddings=True, show_progress_bar=False)
    assert np.allclose(together, batched, atol=1e-5)  # the same vectors up to the last bits


def test_a_texts_embedding_does_not_depend_on_torchs_threads(model):
    import torch

    texts = ["within easy reach of the main shopping street", "a well-equipped gym"]
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = np.stack([model.encode([t], normalize_embeddings=True, show_progress_bar=False)[0] for t in texts])
        torch.set_num_threads(2)
        got = K.encode_alone(model, texts)
        assert torch.get_num_threads() == 2  # given back as it was
    finally:
        torch.set_num_threads(before)
    assert got.tobytes() == one.astype(np.float32).tobytes()


# --- chapter 06 readings ---------------------------------------------------------------------------


def test_roughly_one_third_as_the_relations_file_reads_it():
    rel = EC._relation(EC.THIRD_NAMED)
    third, tol = rel["reported"]["value"], rel["tolerance"]
    assert EC.third_reading(third) == "roughly one third"
    assert EC.third_reading(third + tol + 0.2) == "more than roughly one third"
    assert EC.third_reading(third - tol - 0.2) == "less than roughly one third"


def test_location_readings_against_table7():
    table7 = paper.frame(paper.figures()["clustering"]["table7_clusters"], "cluster (paper)")
    shares = K.location_share(
        overview(["Proximity (var.)", "Central Location", "Walking Distance", "Dining/Food"], [30, 10, 5, 55])
    )
    got = EC.location_readings(shares, table7, 0.95)
    t7 = table7.set_index("cluster (paper)")["pct"]
    assert got["paper_prox_share"] == tables.number(t7["Proximity (var.)"], 1)
    loc = t7["Proximity (var.)"] + t7["Central Location"] + t7["Walking Distance"]
    assert got["paper_loc_share"] == tables.number(loc, 1)
    assert got["prox_share"] == "30.0" and got["loc_share"] == "45.0"
    assert got["prox_vs_paper"] == "within"  # 29.9 lies in the interval around 30 of 100
    assert got["paper_loc_third"] == "more than roughly one third"


def test_type_pairings_read_each_residual():
    residuals = pd.DataFrame(
        {
            "group": ["Business Facility", "Proximity", "Amenity Availability"],
            "type": ["Incorrect", "Misleading", "Misleading"],
            "spans": [9, 10, 1],
            "expected": [3.0, 10.0, 6.0],
            "residual": [3.1, 0.0, -2.5],
        }
    )
    got = EC.type_pairings(residuals).set_index(["type", "group"])["reading"]
    assert got[("Incorrect", "Business Facility")] == "over-represented"
    assert got[("Misleading", "Proximity")] == "as expected"
    assert got[("Misleading", "Amenity Availability")] == "under-represented"
    assert got[("Not Checkable", "Walking Distance")] == "no such cluster here"
    read = EC.pairing_readings(EC.type_pairings(residuals), pd.DataFrame({"Cramér's V": [0.25]}))
    assert read["pairings_held"] == "1" and read["pairings_n"] == str(len(got)) and read["cramers_v"] == "0.25"
    assert "only in part" in read["pairings_reading"]


def _base(per_cluster, p_cmh, or_cmh):
    return dict(
        candidates=pd.DataFrame(
            {
                "k": [3, 3],
                "chosen by": ["silhouette's pick", "the paper"],
                "silhouette": [0.1, 0.1],
                "largest cluster %": [50.0, 50.0],
                "mean ARI": [0.7, 0.7],
                "lowest ARI": [0.5, 0.5],
            }
        ),
        k=3,
        paper_k=3,
        k_range=(2, 4),
        table7=pd.DataFrame({"cluster (paper)": ["Proximity (var.)"], "count": [10], "pct": [10.0]}),
        cross=pd.DataFrame({"Incorrect": [5, 5], "Misleading": [4, 6]}),
        type_test=pd.DataFrame({"p-value": [0.5], "cells expected below 5": [0], "cells": [4], "Cramér's V": [0.1]}),
        claim_counts=pd.Series({"soft": 1, "concrete": 1, "mixed": 0, "none": 0}),
        strata=pd.DataFrame({"annotators": [2, 4], "spans": [10, 10], "agreed": [2, 6]}),
        consensus_tests=pd.DataFrame(
            {
                "test": ["crude (Fisher's exact test)", "stratified by annotators (Cochran-Mantel-Haenszel)"],
                "spans": [20, 20],
                "odds ratio": [or_cmh, or_cmh],
                "low": [0.5, 0.5],
                "high": [1.2, 1.2],
                "p-value": [p_cmh, p_cmh],
            }
        ),
        per_cluster=per_cluster,
        level=0.95,
    )


class Real:
    simulated = False


@pytest.mark.parametrize("p_cmh, or_cmh, verdict", [(0.4, 0.8, "not reproduced"), (0.001, 0.5, "reproduced")])
@pytest.mark.parametrize("concrete_share", [60.0, 20.0])
def test_one_consensus_reading_in_body_and_summary(p_cmh, or_cmh, verdict, concrete_share):
    """The cluster-level pooled shares never carry a verdict of their own: the body's sentence
    ends with the span-level verdict the Summary glues (issue 28: "agree more, as the paper says"
    beside "not reproduced")."""
    per_cluster = pd.DataFrame(
        {"cluster": [0, 1], "label": ["a", "b"], "claim": ["soft", "concrete"], "size": [5, 5]}
    ).assign(agreed=[40.0, concrete_share])
    got = EC.readings(Real(), **_base(per_cluster, p_cmh, or_cmh))
    assert got["paper_claim"] == verdict
    assert got["kind_reading"].endswith(f"the paper's reading is {verdict} here.")
    assert "as the paper says" not in got["kind_reading"]
    direction = "in the paper's direction" if concrete_share > 40 else "against the paper's direction"
    assert direction in got["kind_reading"]


def test_the_k_table_and_its_note_give_the_same_label(corpus):
    """The first row of the k table and the note under it label our span count alike."""
    reported = paper.figures()
    rows = EC.k_rows(reported, len(corpus.placed_spans.query("kind == 'human'")), 10, 5)
    shown = tables.versus(rows, corpus).frame.set_index("Measure")
    label = shown.iloc[0]["Figure is"]
    note = EC.embedded_note(corpus, reported, rows[0][2])
    kind, _, gap = label.partition(", ")
    assert f"whose number is {kind} from the paper's" in note and (not gap or gap in note)
    assert f"*{labels.kind('clustering/spans_embedded')}*" in note
    assert "emergent" not in shown.iloc[0]["Figure is"] or kind == "emergent"


def test_simulation_note_takes_the_labels_from_the_rule():
    note = EC.simulation_note()
    t7 = labels.kind("clustering/table7_clusters")
    assert f"Table 7's cluster sizes are *{t7}*" in note
    assert f"The chosen k is *{labels.kind('clustering/k_chosen')}*" in note
    if t7 != "emergent":
        assert labels.reason("clustering/table7_clusters") in note


# --- chapter 07 readings ---------------------------------------------------------------------------


def test_order_of_costs_is_by_design_when_the_drops_are_inputs():
    by_type = paper.figures()["impressions"]["by_type"]
    note = IR.order_note(by_type, holds=True)
    kinds = {t: labels.kind(f"impressions/by_type/{t}/drop") for t in by_type}
    basis = IR.bases(SimpleNamespace(simulated=True))["order_basis"].text
    for t, k in kinds.items():
        assert f"the {t} drop *{k}*" in basis  # the bullet's lead labels each drop (with its miss, given ours)
    if all(k.startswith(("set", "calibrated", "tuned")) for k in kinds.values()):
        assert "by design" in note and "no finding" in note
        assert "put in" in IR.order_note(by_type, holds=False)
    else:
        assert "by design" not in note
        for t, k in kinds.items():
            assert f"{t} *{k}*" in note
