"""Clustering: offline model, embedding cache, determinism, and each statistic on toy data."""

import os

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import silhouette_score

from hotelcheckspan.analyses import clusters as K
from hotelcheckspan.corpora import KEY


class NoModel:
    def encode(self, *a, **k):
        raise AssertionError("the cache should have answered")


@pytest.fixture(scope="module")
def model():
    return K.load_model()


def test_offline_model_load_gives_real_embeddings(model):
    assert os.environ.get("HF_HUB_OFFLINE") == "1"
    v = model.encode(["close to the beach", "near the beach", "free parking"], normalize_embeddings=True)
    assert v.shape == (3, 384)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2  # paraphrases sit closer than unrelated claims


def test_embedding_cache_is_keyed_by_model_and_text(tmp_path, model):
    texts = ["an owl in the lobby", "a zebra crossing", "an owl in the lobby"]  # not in the committed store
    first = K.embed(texts, cache_dir=tmp_path, model=model)
    assert first.shape == (3, 384) and np.allclose(first[0], first[2])
    assert np.linalg.norm(first, axis=1) == pytest.approx(np.ones(3), abs=1e-5)
    again = K.embed(list(reversed(texts)), cache_dir=tmp_path, model=NoModel())
    assert np.array_equal(again, first[::-1])
    stored = np.load(tmp_path / "embeddings-all-MiniLM-L6-v2.npz")
    assert len(stored.files) == 2 and K._key("an owl in the lobby") in stored.files
    assert K._key("a short walk") != K._key("a short walk ")


def blobs():
    rng = np.random.default_rng(0)
    centres = np.eye(8)[:3] * 5
    sizes = [30, 20, 10]
    return np.vstack([c + rng.normal(0, 0.3, (n, 8)) for c, n in zip(centres, sizes)]), sizes


def test_clustering_is_deterministic_and_numbered_by_size():
    X, sizes = blobs()
    a, ca = K.cluster(X, 3)
    b, cb = K.cluster(X, 3)
    assert np.array_equal(a, b) and np.allclose(ca, cb)
    assert np.bincount(a).tolist() == sizes


def test_silhouette_picks_the_true_k_and_is_cached(tmp_path):
    X, _ = blobs()
    curve = K.silhouette_curve(X, ks=range(2, 7), cache_dir=tmp_path)
    assert K.best_k(curve) == 3
    assert len(list(tmp_path.glob("silhouette-*.csv"))) == 1
    pd.testing.assert_frame_equal(K.silhouette_curve(X, ks=range(2, 7), cache_dir=tmp_path), curve)
    tie = pd.DataFrame({"k": [4, 2, 3], "silhouette": [0.5, 0.5, 0.1]})
    assert K.best_k(tie) == 2


def test_top_terms_and_central_spans():
    texts = pd.Series(["short walk", "short walk to the beach", "rooftop bar", "cocktail bar"])
    labels = np.array([0, 0, 1, 1])
    terms = K.top_terms(texts, labels, n=3)
    assert "walk" in terms[0] and terms[1][0] == "bar"
    assert "bar cocktail" not in K.top_terms(texts, labels, n=50)[1]  # no bigram across two spans
    X = np.array([[1.0, 0], [0.9, 0.1], [0, 1.0], [0.2, 0.8]])
    centres = np.array([[1.0, 0], [0, 1.0]])
    assert K.central(texts, X, labels, centres, n=1) == {0: ["short walk"], 1: ["rooftop bar"]}


def test_top_terms_are_only_terms_the_cluster_contains():
    texts = pd.Series(["short walk", "short walk", "rooftop bar", "cocktail bar", "spa"])
    labels = np.array([0, 0, 1, 1, 2])
    terms = K.top_terms(texts, labels, n=5)
    for c, found in terms.items():
        words = " ".join(texts[labels == c])
        assert all(t in words for t in found), (c, found)  # no padding with other clusters' vocabulary
    assert terms[2] == ["spa"] and terms[0] == ["short", "short walk", "walk"]


def test_consensus_needs_another_record_overlapping():
    key = {"dataset": "d", "split": "s", "setup_id": "x"}
    spans = pd.DataFrame(
        [
            key | {"example_idx": 0, "record_id": 1, "start": 0, "end": 5},
            key | {"example_idx": 0, "record_id": 2, "start": 4, "end": 9},  # overlaps record 1
            key | {"example_idx": 0, "record_id": 2, "start": 20, "end": 25},  # alone
            key | {"example_idx": 0, "record_id": 3, "start": 9, "end": 12},  # touches 4-9 only at its end: no overlap
            key | {"example_idx": 1, "record_id": 4, "start": 0, "end": 5},  # other example
            key | {"example_idx": 1, "record_id": 4, "start": 2, "end": 6},  # same record: does not count
        ]
    )
    assert K.consensus(spans).tolist() == [True, True, False, False, False, False]


def test_cluster_by_type_is_a_tidy_one_row_test():
    spans = pd.DataFrame({"type": ["Incorrect"] * 10 + ["Misleading"] * 10})
    labels = np.array([0] * 10 + [1] * 10)
    table, test = K.by_type(spans, labels)
    assert table.loc[0, "Incorrect"] == 10 and len(test) == 1
    row = test.iloc[0]
    assert row["p-value"] < 0.01 and row["cells expected below 5"] == 0 and row["degrees of freedom"] == 1


def test_lexicon_rule_on_hand_cases():
    texts = pd.Series(
        [
            "a short walk",
            "an outdoor pool",
            "a rooftop bar with stunning views",
            "the opera house",
            "in the city centre",
            "a fitness centre",
            "a Cosy ambience",
        ]
    )
    kinds = K.claim_kinds(texts)
    assert kinds["claim"].tolist() == ["soft", "concrete", "mixed", "none", "soft", "concrete", "soft"]
    assert kinds.loc[0, "family"] == "walking" and kinds.loc[3, "family"] == ""
    assert "views" in kinds.loc[2, "family"] and "dining" in kinds.loc[2, "family"]


def test_lexicon_file_is_the_rule_and_bad_patterns_name_the_file(tmp_path):
    path = tmp_path / "lexicon.yaml"
    path.write_text("kinds:\n  soft: {vague: [nice]}\n  concrete: {things: ['pools?']}\n")
    kinds = K.claim_kinds(pd.Series(["nice pools", "a pool", "nicer", "nothing"]), K.read_lexicon(path))
    assert kinds["claim"].tolist() == ["mixed", "concrete", "none", "none"]  # word boundaries: "nicer" is not "nice"
    path.write_text("kinds:\n  soft: {vague: ['(unclosed']}\n  concrete: {}\n")
    with pytest.raises(ValueError, match="lexicon.yaml: soft/vague"):
        K.read_lexicon(path)
    path.write_text("kinds: [soft\n")  # broken YAML: an error naming the file, not a traceback from yaml
    with pytest.raises(ValueError, match="lexicon.yaml: not valid YAML"):
        K.read_lexicon(path)
    path.write_text("kinds:\n  soft: {}\n")
    with pytest.raises(ValueError, match="lexicon.yaml"):
        K.read_lexicon(path)


def test_unnamed_clusters_get_family_and_top_terms():
    spans = pd.DataFrame({"clean": ["short walk", "short walk to the beach", "rooftop bar", "cocktail bar"]})
    X = np.array([[1.0, 0], [0.9, 0.1], [0, 1.0], [0.2, 0.8]])
    labels, centres = np.array([0, 0, 1, 1]), np.array([[1.0, 0], [0, 1.0]])
    ov = K.overview(spans, X, labels, centres, names={"rooftop bar": "Bars"})
    assert ov["label"].tolist()[1] == "Bars"
    assert ov["label"].tolist()[0].startswith("Walking (") and "walk" in ov["label"][0]
    assert K.group_of(ov["label"][0]) == "Walking Distance"  # the family's Table 7 group
    assert ov["claim"].tolist() == ["soft", "concrete"] and ov["size"].tolist() == [2, 2]


def spans_with(counts):
    """(claim, annotators, agreed) -> number of spans."""
    rows = [(c, n, a) for (c, n, a), k in counts.items() for _ in range(k)]
    frame = pd.DataFrame(rows, columns=["claim", "annotators", "agreed"])
    return frame["claim"], frame["agreed"], frame["annotators"]


def test_stratified_test_removes_a_confounding_annotator_count():
    # Within each stratum soft and concrete spans are supported about equally often, but soft
    # spans sit mostly on 2-annotator examples, where support is rarer: crude OR far below 1.
    claim, agreed, strata = spans_with(
        {
            ("soft", 2, True): 30,
            ("soft", 2, False): 70,
            ("concrete", 2, True): 7,
            ("concrete", 2, False): 13,
            ("soft", 4, True): 16,
            ("soft", 4, False): 4,
            ("concrete", 4, True): 70,
            ("concrete", 4, False): 30,
            ("mixed", 4, True): 50,  # not in the test
        }
    )
    test = K.consensus_test(claim, agreed, strata).set_index("test")
    crude = test.loc["crude (Fisher's exact test)"]
    assert crude["odds ratio"] == pytest.approx((46 * 43) / (74 * 77)) and crude["p-value"] < 0.001
    assert crude["spans"] == 240
    cmh = test.loc["stratified by annotators (Cochran-Mantel-Haenszel)"]
    mh = (30 * 13 / 120 + 16 * 30 / 120) / (70 * 7 / 120 + 4 * 70 / 120)  # sum(ad/n) / sum(bc/n)
    assert cmh["odds ratio"] == pytest.approx(mh) and cmh["p-value"] > 0.5 and cmh["low"] < 1 < cmh["high"]
    assert test.loc["same odds ratio in every stratum (Breslow-Day)", "p-value"] > 0.05
    logistic = test.loc["logistic regression, annotators as covariate"]
    assert logistic["low"] < 1 < logistic["high"] and logistic["p-value"] > 0.5
    by = K.consensus_by_stratum(claim, agreed, strata)
    assert by[["annotators", "claim"]].values.tolist() == [[2, "soft"], [2, "concrete"], [4, "soft"], [4, "concrete"]]
    assert by["share"].tolist() == pytest.approx([30, 35, 80, 70]) and by["spans"].tolist() == [100, 20, 20, 100]


def test_stratified_test_finds_a_real_difference():
    claim, agreed, strata = spans_with(
        {
            ("soft", 2, True): 10,
            ("soft", 2, False): 40,
            ("concrete", 2, True): 30,
            ("concrete", 2, False): 20,
            ("soft", 4, True): 20,
            ("soft", 4, False): 30,
            ("concrete", 4, True): 40,
            ("concrete", 4, False): 10,
        }
    )
    test = K.consensus_test(claim, agreed, strata).set_index("test")
    cmh = test.loc["stratified by annotators (Cochran-Mantel-Haenszel)"]
    mh = (10 * 20 / 100 + 20 * 10 / 100) / (40 * 30 / 100 + 30 * 40 / 100)  # sum(ad/n) / sum(bc/n)
    assert cmh["odds ratio"] == pytest.approx(mh) and cmh["high"] < 1 and cmh["p-value"] < 0.001


def test_p_values_for_readers():
    assert K.p_text(0.0) == "<0.001" and K.p_text(4e-58) == "<0.001"
    assert K.p_text(0.2561) == "0.256" and K.p_text(float("nan")) == "–"


def test_stability_across_seeds(tmp_path):
    X, _ = blobs()
    ari = K.stability(X, 3, seeds=range(4), cache_dir=tmp_path)
    assert len(ari) == 6 and ari["ari"].tolist() == pytest.approx([1.0] * 6)  # clear blobs: same partition
    assert len(list(tmp_path.glob("stability-*.csv"))) == 1
    pd.testing.assert_frame_equal(K.stability(X, 3, seeds=range(4), cache_dir=tmp_path), ari)
    noisy = np.random.default_rng(0).normal(size=(60, 4))  # no structure: partitions differ by seed
    assert K.stability(noisy, 6, seeds=range(3), cache_dir=tmp_path)["ari"].max() < 0.9
    curve = pd.DataFrame({"k": [3], "silhouette": [0.9]})  # read from the curve where it has the k
    both = K.compare_k(X, curve, {"silhouette": 3, "other": 5}, seeds=range(3), cache_dir=tmp_path)
    assert both["k"].tolist() == [3, 5] and both.loc[0, "silhouette"] == 0.9
    assert both.loc[1, "silhouette"] == pytest.approx(silhouette_score(X, K.cluster(X, 5)[0]))  # computed
    assert both.loc[0, "mean ARI"] == pytest.approx(1.0) and both.loc[0, "largest cluster %"] == pytest.approx(50)


def test_seed_runs_are_each_seeds_clustering_stored_and_read_back(tmp_path):
    X, _ = blobs()
    noisy = np.vstack([X, np.random.default_rng(3).normal(0, 2, (20, 8))])
    runs = K.seed_runs(noisy, 4, seeds=range(3), cache_dir=tmp_path)
    assert runs.columns.tolist() == ["0", "1", "2"] and len(runs) == len(noisy)
    for s in range(3):
        assert np.array_equal(runs[str(s)].to_numpy(), K.cluster(noisy, 4, seed=s)[0])
    assert len(list(tmp_path.glob("runs-*.csv"))) == 1
    pd.testing.assert_frame_equal(K.seed_runs(noisy, 4, seeds=range(3), cache_dir=tmp_path), runs)
    ari = K.stability(noisy, 4, seeds=range(3), cache_dir=tmp_path)  # from the same runs
    fresh = K.adjusted_rand_score(K._fit(noisy, 4, 0).labels_, K._fit(noisy, 4, 2).labels_)
    assert ari.set_index(["seed_a", "seed_b"]).loc[(0, 2), "ari"] == pytest.approx(fresh, rel=1e-12)


def test_across_seeds_reads_each_run_as_one_clustering_is_read():
    X, _ = blobs()
    texts = ["near the beach"] * 30 + ["a rooftop bar"] * 20 + ["a short walk"] * 10
    types = ["Misleading"] * 25 + ["Incorrect"] * 5 + ["Not Checkable"] * 20 + ["Misleading"] * 10
    spans = pd.DataFrame({"clean": texts, "type": types})
    runs = pd.DataFrame({str(s): K.cluster(X, 3, seed=s)[0] for s in (0, 1)})
    per_seed, residuals = K.across_seeds(spans, X, runs, names={})
    assert per_seed["seed"].tolist() == [0, 1] and set(residuals["seed"]) == {0, 1}
    labels, centres = K.cluster(X, 3, seed=0)
    ov = K.overview(spans, X, labels, centres, names={})
    _, test = K.by_type(spans, labels)
    assert per_seed.loc[0, "p-value"] == pytest.approx(test.iloc[0]["p-value"])
    shares = K.location_share(ov).set_index("group")["share"]
    assert per_seed.loc[0, "Proximity"] == pytest.approx(shares["Proximity"]) == pytest.approx(50.0)
    assert per_seed.loc[0, "Walking Distance"] == pytest.approx(100 * 10 / 60)
    pd.testing.assert_frame_equal(
        residuals[residuals["seed"] == 0].drop(columns="seed").reset_index(drop=True),
        K.type_residuals(spans, labels, ov),
    )


def test_annotator_counts_per_span(corpus):
    spans = K.human_spans(corpus)
    n = K.annotators(corpus, spans)
    assert len(n) == len(spans) and set(n) <= {2, 4}
    stage2 = (
        spans[KEY]
        .merge(
            corpus.records.loc[corpus.records["campaign"] == "stage2", KEY].drop_duplicates(),
            on=KEY,
            how="left",
            indicator=True,
        )["_merge"]
        .eq("both")
        .to_numpy()
    )
    assert ((n == 4).to_numpy() == stage2).all()


def test_every_bundled_cluster_gets_a_name_and_a_claim_kind(corpus):
    spans = K.human_spans(corpus)
    X = K.embed(list(spans["clean"]))
    k = K.best_k(K.silhouette_curve(X))
    for kk in (k, 15):
        labels, centers = K.cluster(X, kk)
        overview = K.overview(spans, X, labels, centers)
        assert overview["label"].str.strip().str.len().gt(0).all()
        assert set(overview["claim"]) <= {"soft", "concrete", "none"}
        assert overview["size"].sum() == len(spans)


@pytest.mark.slow
def test_the_committed_clustering_results_are_what_the_package_computes(corpus, model, tmp_path):
    """data/derived holds chapter 06's embeddings, silhouette curve and seed runs of the bundled
    corpus (make derived): a sample recomputed from scratch gives the same bytes and values."""
    from hotelcheckspan import paths
    from hotelcheckspan.reference import paper

    texts = sorted(set(K.human_spans(corpus)["clean"]))
    stored = np.load(paths.DERIVED / K.EMBEDDINGS)
    assert sorted(stored.files) == sorted(K._key(t) for t in texts)  # every span text, no other
    sample = [texts[i] for i in np.random.default_rng(0).choice(len(texts), 12, replace=False)]
    assert np.array_equal(K.encode_alone(model, sample), np.stack([stored[K._key(t)] for t in sample]))

    X = K.embed(list(K.human_spans(corpus)["clean"]), cache_dir=tmp_path, model=NoModel())
    low, high = paper.figures()["clustering"]["k_search"]
    committed = K.silhouette_curve(X, ks=range(low, high + 1), cache_dir=tmp_path)
    assert not list(tmp_path.glob("silhouette-*.csv"))  # read from data/derived, not computed
    some = [int(k) for k in committed["k"].iloc[[0, len(committed) // 2, -1]]]
    fresh = pd.DataFrame([{"k": k, "silhouette": K._silhouette(X, K._fit(X, k, K.SEED).labels_)} for k in some])
    mine = committed.set_index("k").loc[some, "silhouette"].to_numpy()
    assert mine == pytest.approx(fresh["silhouette"].to_numpy(), rel=1e-9, abs=1e-12)
    k = K.best_k(committed)
    runs = K.stability(X, k, cache_dir=tmp_path)
    assert not list(tmp_path.glob("stability-*.csv"))
    first_pair = K.adjusted_rand_score(K._fit(X, k, 0).labels_, K._fit(X, k, 1).labels_)
    assert runs.iloc[0]["ari"] == pytest.approx(first_pair, rel=1e-12)
    for kk in (k, paper.figures()["clustering"]["k_chosen"]):  # each seed's labels, as the chapter reads them
        stored = K.seed_runs(X, kk, cache_dir=tmp_path)
        assert not list(tmp_path.glob("runs-*.csv"))
        for s in (0, len(K.SEEDS) - 1):
            assert np.array_equal(stored[str(s)].to_numpy(), K.cluster(X, kk, seed=s)[0]), (kk, s)
    from hotelcheckspan import paths as P

    on_disk = sorted(p.name for p in P.DERIVED.glob("*-*.csv"))
    assert len(on_disk) == 5 and sum(n.startswith("runs-") for n in on_disk) == 2  # nothing stale
