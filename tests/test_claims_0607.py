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
    # walking has a family of its own, so an auto-named walking cluster is Table 7's Walking Distance
    assert K.group_of("Walking (stroll, easy stroll)") == "Walking Distance"
    assert K.group_of("Walking Distance (walk)") == "Walking Distance"
    kinds = K.claim_kinds(pd.Series(["a short walk from the beach", "an easy stroll", "near the beach"]))
    assert kinds["family"].str.split(", ").str[0].tolist() == ["walking", "walking", "proximity"]
    assert (kinds["claim"] == "soft").all()  # both families soft: the kinds did not move
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


def test_bias_corrected_cramers_v_by_hand_and_near_zero_for_unrelated_variables():
    table = np.array([[10, 5, 5], [4, 8, 8]])  # n = 40, 2 x 3
    chi2 = chi2_contingency(table, correction=False)[0]
    n, r, c = 40, 2, 3
    phi2 = max(0.0, chi2 / n - (r - 1) * (c - 1) / (n - 1))  # Bergsma (2013), eq. for phi-tilde squared
    r_t, c_t = r - (r - 1) ** 2 / (n - 1), c - (c - 1) ** 2 / (n - 1)
    assert K.cramers_v_corrected(table) == pytest.approx(math.sqrt(phi2 / min(r_t - 1, c_t - 1)))
    assert K.cramers_v_corrected(np.array([[30, 0], [0, 30]])) == pytest.approx(1.0, abs=0.02)
    # 29 clusters x 3 types, 767 spans, types drawn independently of clusters: the plain V sits near
    # sqrt(56 / (767 * 2)) = 0.19, the corrected one near zero
    rng = np.random.default_rng(0)
    plain, corrected = [], []
    for _ in range(100):
        t = pd.crosstab(rng.integers(0, 29, 767), rng.choice(3, 767, p=[0.15, 0.4, 0.45])).to_numpy()
        plain.append(math.sqrt(chi2_contingency(t, correction=False)[0] / (767 * 2)))
        corrected.append(K.cramers_v_corrected(t))
    assert np.mean(plain) == pytest.approx(math.sqrt(56 / (767 * 2)), abs=0.02)
    assert np.mean(corrected) < 0.06 < np.mean(plain) - 0.1


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


def test_roughly_one_third_is_a_wording_question_the_book_gives_no_verdict_on():
    from hotelcheckspan.reference import checks

    v = checks.check().set_index("id")
    assert v.loc["s64_proximity_third", "rule"] == "text"
    assert v.loc["s64_proximity_third", "verdict"] == "depends on the reading"
    assert not {"s64_proximity_third_named_cluster", "s64_proximity_third_examples"} & set(v.index)
    rel = next(r for r in checks.load() if r["id"] == "s64_proximity_third")
    assert "127 of the 464 embedded spans (27.4%)" in rel["params"]["reading"]  # the 464 reading, tried
    assert round(100 * 127 / 464, 1) == 27.4


def test_location_readings_against_table7():
    table7 = paper.frame(paper.figures()["clustering"]["table7_clusters"], "cluster (paper)")
    shares = K.location_share(
        overview(["Proximity (var.)", "Central Location", "Walking Distance", "Dining/Food"], [30, 10, 5, 55])
    )
    per_seed = pd.DataFrame({"seed": [0, 1, 2], "Proximity": [30.0, 25.0, 33.3], "all of them": [45.0, 40.0, 50.0]})
    got = EC.location_readings(shares, table7, 0.95, per_seed)
    t7 = table7.set_index("cluster (paper)")["pct"]
    assert got["paper_prox_share"] == tables.number(t7["Proximity (var.)"], 1)
    loc = t7["Proximity (var.)"] + t7["Central Location"] + t7["Walking Distance"]
    assert got["paper_loc_share"] == tables.number(loc, 1)
    assert got["prox_share"] == "30.0" and got["loc_share"] == "45.0"
    assert got["prox_vs_paper"] == "within"  # 29.9 lies in the interval around 30 of 100
    assert (got["prox_seed_low"], got["prox_seed_high"], got["prox_seed_vs_paper"]) == ("25.0", "33.3", "within")
    assert (got["loc_seed_low"], got["loc_seed_high"], got["loc_seed_vs_paper"]) == ("40.0", "50.0", "within")
    assert not any("third" in key for key in got)  # no verdict of the book's own on "roughly one third"


class Sim:
    simulated = True


def test_type_pairings_read_each_residual():
    residuals = pd.DataFrame(
        {
            "group": ["Business Facility", "Proximity", "Amenity Availability", "Amenity Availability"],
            "type": ["Incorrect", "Misleading", "Misleading", "Incorrect"],
            "spans": [9, 10, 1, 12],
            "expected": [3.0, 10.0, 6.0, 4.0],
            "residual": [3.1, 0.0, -2.5, 2.4],
        }
    )
    pairings = EC.type_pairings(residuals)
    got = pairings.set_index(["type", "group"])
    assert got.loc[("Incorrect", "Business Facility"), "reading"] == "over-represented"
    assert got.loc[("Misleading", "Proximity"), "reading"] == "as expected"
    assert got.loc[("Misleading", "Amenity Availability"), "reading"] == "under-represented"
    assert got.loc[("Not Checkable", "Walking Distance"), "reading"] == "no such cluster here"
    # the paper names no group for Incorrect: 'concrete facility or feature mentions (e.g., business centre,
    # in-room service)' admits Business Facility and Amenity Availability alike; 'easy access' is Access
    assert got.loc[("Incorrect", "Business Facility"), "paper"] != EC.NAMED
    assert got.loc[("Incorrect", "Amenity Availability"), "reading"] == "over-represented"
    assert got.loc[("Misleading", "Access Convenience"), "paper"].startswith("its example")
    assert set(got.xs("Not Checkable")["paper"]) == {EC.NAMED}
    read = EC.pairing_readings(pairings, pd.DataFrame({"Cramér's V": [0.25]}))
    named = int((pairings["paper"] == EC.NAMED).sum())
    assert (read["pairings_held"], read["pairings_n"]) == ("2", str(len(pairings)))
    assert (read["pairings_named_held"], read["pairings_named_n"]) == ("0", str(named))
    assert "only in part" in read["pairings_reading"] and "by construction" not in read["pairings_reading"]
    simulated = EC.pairing_readings(pairings, pd.DataFrame(), Sim())["pairings_reading"]
    assert "by construction" in simulated and "summaries.FAMILIES" in simulated


def test_every_seeds_pairings_and_ranges():
    residuals = pd.DataFrame(
        {
            "group": ["Business Facility", "Experience/Atmosphere"] * 2,
            "type": ["Incorrect", "Not Checkable"] * 2,
            "spans": [9, 10, 2, 10],
            "expected": [3.0, 5.0, 3.0, 10.0],
            "residual": [3.1, 2.5, -0.5, 0.0],
            "seed": [0, 0, 1, 1],
        }
    )
    held = EC.seed_pairings(residuals).set_index("seed")
    assert held.loc[0].tolist() == [1, 2] and held.loc[1].tolist() == [0, 0]  # named, all
    per_seed = pd.DataFrame({"seed": [0, 1], "p-value": [0.03, 0.2], "Cramér's V (bias-corrected)": [0.1, 0.05]})
    got = EC.seed_readings(per_seed, residuals)
    assert (got["p_seed_low"], got["p_seed_high"], got["p_seed_below"]) == ("0.030", "0.200", "1")
    assert got["held_named_seed"] == "from 0 to 1 over the seeds" and got["held_seed"] == "from 0 to 2 over the seeds"
    same = EC.seed_readings(per_seed, residuals[residuals["seed"] == 0])  # one seed: every seed alike
    assert same["held_named_seed"] == "1 at every seed"


def test_the_edge_of_the_k_range_is_named_with_the_curve():
    cand = pd.DataFrame({"chosen by": ["silhouette's pick", "the paper"], "silhouette": [0.221, 0.13]})
    curve = pd.DataFrame({"k": range(2, 31), "silhouette": np.linspace(0.066, 0.216, 29)}).assign(
        silhouette=lambda d: d["silhouette"].where(d["k"] != 29, 0.221)
    )
    near = EC.k_reading(curve, cand, 29, 15, 30)
    assert "1 below the end of the search range (30)" in near and "0.066 at k = 2" in near
    assert "0.216 at k = 30" in near and "may rest on where the range stops" in near
    assert "the end of the search range" in EC.k_reading(curve, cand, 30, 15, 30)
    assert EC.k_reading(curve, cand, 20, 15, 30).endswith("(silhouette 0.130 here).")


def test_the_checks_lead_counts_questions_not_checks():
    from hotelcheckspan.book import tables as T

    results = T.inconsistencies("06_error_clusters").results
    lead = EC.checks_lead(results)
    questions = results.groupby("group")["verdict"].first()
    n_read = int((questions == "depends on the reading").sum())
    assert n_read < int((results["verdict"] == "depends on the reading").sum())  # readings come in pairs
    assert f"Of the {len(questions)} questions checked here" in lead
    assert f"{n_read} questions depend on the reading" in lead
    # Table 7's counts and shares fit read with Walking Distance inside another row (the fresh review)
    assert "inconsistent under every reading" not in lead and "1 is consistent" in lead


def test_k_is_tuned_and_the_distinct_texts_sit_beside_the_papers_464(corpus):
    assert labels.kind("clustering/k_chosen") == "tuned"
    assert "Table 7" in labels.reason("clustering/k_chosen", "tuned")
    rows = EC.k_rows(paper.figures(), 767, 385, 29)
    shown = tables.versus(rows, corpus).frame.set_index("Measure")
    assert shown.iloc[1]["Paper"] == "464" and shown.iloc[1]["This corpus"] == "385"
    assert shown.iloc[2]["Figure is"] == "tuned"


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
        type_test=pd.DataFrame(
            {
                "p-value": [0.5],
                "cells expected below 5": [0],
                "cells": [4],
                "Cramér's V": [0.1],
                "Cramér's V (bias-corrected)": [0.0],
            }
        ),
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
    # on the stand-in the outcome is summaries.VAGUE's, set by hand: no verdict on the paper's reading
    sim = EC.readings(Sim(), **_base(per_cluster, p_cmh, or_cmh))
    assert "summaries.VAGUE" in sim["consensus_verdict"].text and "reproduced" not in sim["consensus_verdict"].text
    assert "not for the paper" in sim["kind_reading"] and "reproduced" not in sim["kind_reading"]


def test_no_direction_where_the_interval_takes_in_one():
    per_cluster = pd.DataFrame(
        {"cluster": [0, 1], "label": ["a", "b"], "claim": ["soft", "concrete"], "size": [5, 5], "agreed": [40, 60]}
    )
    got = EC.readings(Real(), **_base(per_cluster, 0.32, 0.84))
    assert got["cmh_reading"].startswith("the interval takes in one")
    assert "less support" in got["cmh_reading"] and "nor more" in got["cmh_reading"]


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
