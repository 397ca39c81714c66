"""Boundary-tolerant span matching: the SemEval-2013 task 9.1 schemes, as nervaluate counts them.

Span F1 (:mod:`.span_f1`) credits characters; these schemes judge whole spans. Each hypothesis
span is *correct*, *incorrect*, *partial* or *spurious* against the reference spans of its
example, and each reference span left unmatched is *missed* (Segura-Bedmar et al. 2013; the
``nervaluate`` package, version 1.2.1, whose rules these are, rule for rule):

``strict``
    correct: same boundaries and same type; incorrect: overlaps a reference span otherwise.
``exact``
    correct: same boundaries, any type; incorrect: overlaps otherwise.
``partial``
    correct: same boundaries, any type; partial: overlaps otherwise (never incorrect).
``ent_type`` (the "type" scheme)
    correct: overlaps a reference span of the same type (the closest boundaries win);
    incorrect: overlaps only spans of other types.

A hypothesis span matches at most one reference span and a reference span is matched at most
once: hypothesis spans are taken in order (factgenie's: record, then position in the record)
and each takes the first still-unmatched reference span, in order, that qualifies (in
``ent_type``, the same-type one with the smallest summed start and end distance, the first on a
tie). Overlapping or repeated spans of one side (real exports have them; so does a pooled
annotator set) are separate spans: a repeated hypothesis span finds its reference span taken
and counts as incorrect, partial or spurious. "Overlap" is nervaluate's: at least
``min_overlap_percentage`` (default 1) per cent of the reference span's characters, so a
one-character overlap with a reference span longer than 100 characters does not count.

Offsets: spans here end one past their last character; nervaluate's ``end`` is the last
character itself (inclusive), so ``end - 1`` is what it is given.

With ``actual = correct + incorrect + partial + spurious`` and ``possible = correct + incorrect
+ partial + missed``, precision is ``correct / actual`` and recall ``correct / possible`` for
``strict`` and ``exact``; ``partial`` and ``ent_type`` count a partial match as one half
(nervaluate's formula; in ``ent_type`` there are no partial matches). Counts are summed over
examples, then P, R and F1 computed. Per category (``by_type``), each category is scored on
the spans of that category alone, as nervaluate's per-entity results are.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..corpora import KEY
from .span_f1 import _encode_pair

SCHEMES = ("strict", "exact", "partial", "ent_type")
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious")
HALF_CREDIT = ("partial", "ent_type")


def _overlaps(p, t, min_pct: float) -> bool:
    """nervaluate's sufficient overlap (inclusive ends), as a share of the reference span."""
    if p[0] > t[1] or p[1] < t[0]:
        return False
    return ((min(p[1], t[1]) - max(p[0], t[0]) + 1) / (t[1] - t[0] + 1)) * 100.0 >= min_pct


def count_example(ref: list[tuple], hyp: list[tuple], scheme: str, min_pct: float = 1.0) -> list[int]:
    """[correct, incorrect, partial, missed, spurious] of ``hyp`` against ``ref`` on one example;
    spans are (start, inclusive end, type) in order."""
    correct = incorrect = partial = spurious = 0
    matched: set[int] = set()
    for p in hyp:
        hit = other = None
        best = None
        for j, t in enumerate(ref):
            if j in matched:
                continue
            if scheme == "ent_type":
                if _overlaps(p, t, min_pct):
                    if p[2] == t[2]:
                        d = abs(p[0] - t[0]) + abs(p[1] - t[1])
                        if best is None or d < best:
                            hit, best = j, d
                    elif other is None:
                        other = j
                continue
            same = p[0] == t[0] and p[1] == t[1]
            if scheme == "partial":
                if _overlaps(p, t, min_pct):
                    if same:
                        hit = j
                        break
                    if other is None:
                        other = j
                continue
            if same and (scheme == "exact" or p[2] == t[2]):
                hit = j
                break
            if other is None and _overlaps(p, t, min_pct):
                other = j
        if hit is not None:
            correct += 1
            matched.add(hit)
        elif other is not None:
            matched.add(other)
            if scheme == "partial":
                partial += 1
            else:
                incorrect += 1
        else:
            spurious += 1
    return [correct, incorrect, partial, len(ref) - len(matched), spurious]


def _grouped(side, n_ex: int, cats: list[str]) -> list[list[tuple]]:
    """Per example code, the spans (start, inclusive end, type name) in factgenie's order."""
    out: list[list[tuple]] = [[] for _ in range(n_ex)]
    for ex, s, e, t in zip(side.ex.tolist(), side.start.tolist(), side.end.tolist(), side.type.tolist()):
        if 0 <= ex < n_ex:
            out[ex].append((s, e - 1, cats[t]))
    return out


def per_example(
    ref: pd.DataFrame,
    hyp: pd.DataFrame,
    examples: pd.DataFrame,
    schemes=SCHEMES,
    by_type: bool = False,
    categories: list[str] | None = None,
    min_overlap_percentage: float = 1.0,
) -> pd.DataFrame:
    """Per example, scheme and category (``"all"``, and each category present when ``by_type``),
    the counts ``correct, incorrect, partial, missed, spurious``.

    Frames as for :func:`.span_f1.per_example` (``record_id`` and ``order`` fix the span order).
    """
    unknown = set(schemes) - set(SCHEMES)
    if unknown:
        raise ValueError(f"scheme must be among {', '.join(SCHEMES)}, not {', '.join(sorted(unknown))}")
    r, h, first, cats = _encode_pair(ref, hyp, examples, categories)
    ex_frame = examples[KEY].iloc[first].reset_index(drop=True)
    n_ex = len(ex_frame)
    rs, hs = _grouped(r, n_ex, cats), _grouped(h, n_ex, cats)
    present = [c for c in cats if any(t == c for spans in (*rs, *hs) for *_, t in spans)]
    labels = ["all", *(present if by_type else [])]
    rows = []
    for scheme in schemes:
        for label in labels:
            for i in range(n_ex):
                ref_i, hyp_i = rs[i], hs[i]
                if label != "all":
                    ref_i = [s for s in ref_i if s[2] == label]
                    hyp_i = [s for s in hyp_i if s[2] == label]
                rows.append([scheme, label, i, *count_example(ref_i, hyp_i, scheme, min_overlap_percentage)])
    frame = pd.DataFrame(rows, columns=["scheme", "category", "_ex", *COUNTS])
    keys = ex_frame.iloc[frame["_ex"].to_numpy()].reset_index(drop=True)
    return pd.concat([frame[["scheme", "category"]], keys, frame[list(COUNTS)]], axis=1)


def prf(counts: np.ndarray, scheme: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision, recall and F1 from (..., 5) counts in ``COUNTS`` order (0 where undefined)."""
    c = np.asarray(counts, float)
    correct, incorrect, partial, missed, spurious = np.moveaxis(c, -1, 0)
    actual = correct + incorrect + partial + spurious
    possible = correct + incorrect + partial + missed
    credit = correct + 0.5 * partial if scheme in HALF_CREDIT else correct
    p = np.divide(credit, actual, out=np.zeros_like(credit), where=actual > 0)
    r = np.divide(credit, possible, out=np.zeros_like(credit), where=possible > 0)
    f = np.divide(2 * p * r, p + r, out=np.zeros_like(p), where=(p + r) > 0)
    return p, r, f


def scores(counts: pd.DataFrame) -> pd.DataFrame:
    """Summed counts and P/R/F1 per scheme and category.

    Columns: ``scheme, category, correct, incorrect, partial, missed, spurious, actual,
    possible, precision, recall, f1``.
    """
    sums = counts.groupby(["scheme", "category"], sort=False)[list(COUNTS)].sum().reset_index()
    mat = sums[list(COUNTS)].to_numpy()
    sums["actual"] = mat[:, [0, 1, 2, 4]].sum(axis=1)
    sums["possible"] = mat[:, :4].sum(axis=1)
    out = []
    for scheme, grp in sums.groupby("scheme", sort=False):
        p, r, f = prf(grp[list(COUNTS)].to_numpy(), scheme)
        out.append(grp.assign(precision=p, recall=r, f1=f))
    return pd.concat(out, ignore_index=True)


def boundary_scores(
    ref: pd.DataFrame,
    hyp: pd.DataFrame,
    examples: pd.DataFrame,
    schemes=SCHEMES,
    by_type: bool = False,
    categories: list[str] | None = None,
    min_overlap_percentage: float = 1.0,
) -> pd.DataFrame:
    """The schemes' counts and P/R/F1 of ``hyp`` against ``ref`` on ``examples`` (:func:`scores`
    of :func:`per_example`)."""
    return scores(per_example(ref, hyp, examples, schemes, by_type, categories, min_overlap_percentage))


__all__ = ["COUNTS", "SCHEMES", "boundary_scores", "count_example", "per_example", "prf", "scores"]
