"""The paper's de-duplication of concatenated hotel descriptions (Section 3.2).

A segment is dropped when, against a segment already kept, sentence BLEU (sacrebleu, on its
0-1 scale) exceeds 0.8 or ROUGE-L F1 (rouge-score) exceeds 0.8.

Scoring every pair is quadratic in Python, so a pair is first screened with two upper bounds
that only need token counts; a pair is skipped only when neither score can pass the threshold:

- ROUGE-L F1 = 2 LCS / (|a| + |b|) and LCS <= the multiset overlap of the two token lists;
- BLEU = BP * (p1 p2 p3 p4)^(1/4) <= BP * p1^(1/4), since every (smoothed) p_n <= 1.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from rouge_score import rouge_scorer, tokenizers
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

THRESHOLD = 0.8

_bleu = BLEU(effective_order=True)
_rouge = rouge_scorer.RougeScorer(["rougeL"])
_rouge_tok = tokenizers.DefaultTokenizer()
_bleu_tok = Tokenizer13a()


@dataclass(frozen=True)
class _Seg:
    text: str
    rouge_counts: Counter
    rouge_len: int
    bleu_counts: Counter
    bleu_len: int


def _seg(text: str) -> _Seg:
    rt = _rouge_tok.tokenize(text)
    bt = _bleu_tok(text).split()
    return _Seg(text, Counter(rt), len(rt), Counter(bt), len(bt))


def bleu(candidate: str, kept: str) -> float:
    """Sentence BLEU of ``candidate`` against ``kept``, on a 0-1 scale."""
    return _bleu.sentence_score(candidate, [kept]).score / 100.0


def rouge_l(candidate: str, kept: str) -> float:
    """ROUGE-L F1 of the two segments."""
    return _rouge.score(kept, candidate)["rougeL"].fmeasure


def _may_exceed(cand: _Seg, kept: _Seg, threshold: float) -> bool:
    if cand.rouge_len and kept.rouge_len:
        overlap = sum((cand.rouge_counts & kept.rouge_counts).values())
        if 2 * overlap / (cand.rouge_len + kept.rouge_len) > threshold:
            return True
    if cand.bleu_len and kept.bleu_len:
        p1 = sum((cand.bleu_counts & kept.bleu_counts).values()) / cand.bleu_len
        bp = 1.0 if cand.bleu_len >= kept.bleu_len else math.exp(1 - kept.bleu_len / cand.bleu_len)
        if bp * p1**0.25 > threshold:
            return True
    return False


def is_redundant(candidate: str, kept: str, threshold: float = THRESHOLD) -> bool:
    """The paper's rule for one pair: BLEU > threshold or ROUGE-L F1 > threshold."""
    return bleu(candidate, kept) > threshold or rouge_l(candidate, kept) > threshold


def deduplicate(segments: list[str], threshold: float = THRESHOLD) -> tuple[list[str], list[int]]:
    """Keep segments in order, dropping each one redundant with a segment kept before it.

    Returns the kept segments and the indices of the dropped ones.
    """
    kept: list[_Seg] = []
    dropped: list[int] = []
    for i, text in enumerate(segments):
        cand = _seg(text)
        if any(_may_exceed(cand, k, threshold) and is_redundant(text, k.text, threshold) for k in kept):
            dropped.append(i)
        else:
            kept.append(cand)
    return [k.text for k in kept], dropped
