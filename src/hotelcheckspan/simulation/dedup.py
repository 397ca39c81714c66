"""The paper's de-duplication of concatenated hotel descriptions (Section 3.2).

A segment is dropped when, against a segment already kept, sentence BLEU (sacrebleu, on its
0-1 scale) exceeds 0.8 or ROUGE-L F1 (rouge-score) exceeds 0.8.

Scoring every pair with the two libraries is quadratic in Python, so every pair of a
description is first screened at once with upper bounds that need only n-gram counts; the
libraries score only the pairs a bound lets through (about one in three hundred for the
stand-in), so the decisions are exactly theirs:

- ROUGE-L F1 = 2 LCS / (|a| + |b|) and LCS <= the multiset overlap of the two token lists;
- BLEU = BP (p1 ... pk)^(1/k) <= BP (p1 p2)^(1/4), as every (smoothed) p_n <= 1 and p1 p2 <= 1;
  p2 is at most max(matched bigrams, 1/2) / bigrams, the 1/2 being sacrebleu's 'exp' smoothing.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np

THRESHOLD = 0.8
# the bounds are computed in another order than the libraries compute the scores: a pair whose
# bound lands within this margin of the threshold is scored rather than skipped
_MARGIN = 1e-9


@lru_cache(maxsize=1)
def _scorers():
    """sacrebleu's BLEU and rouge-score's ROUGE-L with their tokenizers, made on first use: the
    chapters that only read the simulation's settings do not import them (rouge-score imports
    nltk)."""
    from rouge_score import rouge_scorer, tokenizers
    from sacrebleu.metrics import BLEU
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    return (
        BLEU(effective_order=True),
        rouge_scorer.RougeScorer(["rougeL"]),
        tokenizers.DefaultTokenizer(),
        Tokenizer13a(),
    )


def bleu(candidate: str, kept: str) -> float:
    """Sentence BLEU of ``candidate`` against ``kept``, on a 0-1 scale."""
    return _scorers()[0].sentence_score(candidate, [kept]).score / 100.0


def rouge_l(candidate: str, kept: str) -> float:
    """ROUGE-L F1 of the two segments."""
    return _scorers()[1].score(kept, candidate)["rougeL"].fmeasure


def is_redundant(candidate: str, kept: str, threshold: float = THRESHOLD) -> bool:
    """The paper's rule for one pair: BLEU > threshold or ROUGE-L F1 > threshold."""
    return bleu(candidate, kept) > threshold or rouge_l(candidate, kept) > threshold


def _overlaps(bags: list[Counter]) -> np.ndarray:
    """Multiset overlap sum_v min(a_v, b_v) of every pair of bags, as one matrix.

    min(a, b) = sum_t [a >= t][b >= t], so the overlap is a sum of products of 0/1 matrices; in
    floating point these integer sums are exact in any summation order."""
    vocab = {token: col for col, token in enumerate(dict.fromkeys(t for bag in bags for t in bag))}
    counts = np.zeros((len(bags), len(vocab)))
    for row, bag in enumerate(bags):
        for token, count in bag.items():
            counts[row, vocab[token]] = count
    overlap = np.zeros((len(bags), len(bags)))
    for t in range(1, int(counts.max(initial=0)) + 1):
        reached = (counts >= t).astype(float)
        overlap += reached @ reached.T
    return overlap


@lru_cache(maxsize=2**16)  # descriptions share their filler sentences
def _tokens(segment: str) -> tuple[list[str], list[str]]:
    """The segment's tokens for ROUGE-L and for BLEU (as sacrebleu preprocesses a segment)."""
    _, _, rouge_tok, bleu_tok = _scorers()
    return rouge_tok.tokenize(segment), bleu_tok(segment.rstrip()).split()


def may_exceed(segments: list[str], threshold: float = THRESHOLD) -> tuple[np.ndarray, np.ndarray]:
    """Which pairs the bounds cannot rule out, as two boolean matrices (ROUGE-L, BLEU) whose
    entry [i, j] is segment i as the candidate against segment j as the one kept."""
    rouge_tokens, bleu_tokens = zip(*map(_tokens, segments), strict=True) if segments else ((), ())
    r_len = np.array([len(t) for t in rouge_tokens], dtype=float)
    b_len = np.array([len(t) for t in bleu_tokens], dtype=float)

    r_sum = r_len[:, None] + r_len[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        rouge = 2 * _overlaps([Counter(t) for t in rouge_tokens]) / r_sum
    rouge_may = (r_len[:, None] > 0) & (r_len[None, :] > 0) & (rouge > threshold - _MARGIN)

    unigrams = _overlaps([Counter(t) for t in bleu_tokens])
    bigrams = _overlaps([Counter(zip(t, t[1:])) for t in bleu_tokens])
    hyp, ref = b_len[:, None], b_len[None, :]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bp = np.where(hyp >= ref, 1.0, np.exp(1 - ref / hyp))
        p1 = unigrams / hyp
        p2 = np.where(hyp >= 2, np.maximum(bigrams, 0.5) / (hyp - 1), 1.0)
        bound = bp * (p1 * p2) ** 0.25
    bleu_may = (hyp > 0) & (ref > 0) & (bound > threshold - _MARGIN)
    return rouge_may, bleu_may


def deduplicate(segments: list[str], threshold: float = THRESHOLD) -> tuple[list[str], list[int]]:
    """Keep segments in order, dropping each one redundant with a segment kept before it.

    Returns the kept segments and the indices of the dropped ones.
    """
    rouge_may, bleu_may = may_exceed(segments, threshold)
    kept = np.zeros(len(segments), dtype=bool)
    for i, text in enumerate(segments):
        kept[i] = not any(
            (rouge_may[i, j] and rouge_l(text, segments[j]) > threshold)
            or (bleu_may[i, j] and bleu(text, segments[j]) > threshold)
            for j in np.flatnonzero(kept[:i] & (rouge_may[i, :i] | bleu_may[i, :i]))
        )
    return [s for s, k in zip(segments, kept, strict=True) if k], np.flatnonzero(~kept).tolist()
