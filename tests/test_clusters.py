"""Clustering: offline model, embedding cache, determinism, and each statistic on toy data."""

import os

import numpy as np
import pandas as pd
import pytest

from hotelcheckspan.analyses import clusters as K


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
    texts = ["a short walk", "a rooftop bar", "a short walk"]
    first = K.embed(texts, cache_dir=tmp_path, model=model)
    assert first.shape == (3, 384) and np.allclose(first[0], first[2])
    assert np.linalg.norm(first, axis=1) == pytest.approx(np.ones(3), abs=1e-5)
    again = K.embed(list(reversed(texts)), cache_dir=tmp_path, model=NoModel())
    assert np.array_equal(again, first[::-1])
    stored = np.load(tmp_path / "embeddings-all-MiniLM-L6-v2.npz")
    assert len(stored.files) == 2 and K._key("a short walk") in stored.files
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


def test_consensus_needs_another_record_overlapping():
    key = {"dataset": "d", "split": "s", "setup_id": "x"}
    spans = pd.DataFrame([
        key | {"example_idx": 0, "record_id": 1, "start": 0, "end": 5},
        key | {"example_idx": 0, "record_id": 2, "start": 4, "end": 9},   # overlaps record 1
        key | {"example_idx": 0, "record_id": 2, "start": 20, "end": 25},  # alone
        key | {"example_idx": 0, "record_id": 3, "start": 9, "end": 12},   # touches 4-9 only at its end: no overlap
        key | {"example_idx": 1, "record_id": 4, "start": 0, "end": 5},   # other example
        key | {"example_idx": 1, "record_id": 4, "start": 2, "end": 6},   # same record: does not count
    ])
    assert K.consensus(spans).tolist() == [True, True, False, False, False, False]


def test_cluster_by_type_and_claim_tests():
    spans = pd.DataFrame({"type": ["Incorrect"] * 10 + ["Misleading"] * 10})
    labels = np.array([0] * 10 + [1] * 10)
    table, test = K.by_type(spans, labels)
    assert table.loc[0, "Incorrect"] == 10 and test["p"] < 0.01 and test["cells_expected_below_5"] == 0
    overview = pd.DataFrame({"cluster": [0, 1], "label": ["a", "b"], "claim": ["soft", "concrete"]})
    agreed = pd.Series([False] * 8 + [True] * 2 + [True] * 9 + [False])
    kinds, fisher = K.consensus_by_claim(labels, agreed, overview)
    assert kinds.set_index("claim").loc["soft", "agreed"] == 20 and kinds.set_index("claim").loc["concrete", "agreed"] == 90
    assert fisher["odds_ratio"] < 1 and fisher["p"] < 0.01


def test_labels_file_names_every_bundled_cluster():
    from hotelcheckspan import corpora as corpus

    spans = K.human_spans(corpus.load())
    X = K.embed(list(spans["clean"]))
    k = K.best_k(K.silhouette_curve(X))
    labels, centers = K.cluster(X, k)
    overview = K.overview(spans, X, labels, centers)
    assert (overview["label"] != "unlabelled").all(), overview[overview["label"] == "unlabelled"]
    assert set(overview["claim"]) == {"soft", "concrete"}
    assert overview["size"].sum() == len(spans)
