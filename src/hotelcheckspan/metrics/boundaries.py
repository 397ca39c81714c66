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
character itself (inclusive), so ``end - 1`` is what it is given. A zero-length reference span
has no character to share and overlaps nothing (nervaluate divides by its length, zero, and
stops).

With ``actual = correct + incorrect + partial + spurious`` and ``possible = correct + incorrect
+ partial + missed``, precision is ``correct / actual`` and recall ``correct / possible`` for
``strict`` and ``exact``; ``partial`` and ``ent_type`` count a partial match as one half
(nervaluate's formula; in ``ent_type`` there are no partial matches). Counts are summed over
examples, then P, R and F1 computed. Per category (``by_type``), each category is scored on
the spans of that category alone, as nervaluate's per-entity results are.

Speed: :func:`count_groups` scores any number of groups (an example of a pair, or a pair's
example and category) at once. The matching is sequential only along the hypothesis spans of a
group: step i takes the i-th hypothesis span of every group, as (groups, reference spans)
arrays, and the four schemes keep one matched-mask each. :func:`count_example`, the rules span
by span, is the readable statement the tests hold it to.
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


def count_groups(
    n_groups: int, ref: tuple, hyp: tuple, schemes=SCHEMES, min_overlap_percentage: float = 1.0
) -> dict[str, np.ndarray]:
    """Per scheme, the (n_groups, 5) counts in ``COUNTS`` order of every group's hypothesis spans
    against its reference spans (:func:`count_example` of each group).

    ``ref`` and ``hyp`` are ``(group, start, inclusive end, type code)`` arrays, each group's
    spans in order (factgenie's) and the groups in any order among themselves."""
    (rg, rs, re_, rt), (hg, hs, he, ht) = ([np.asarray(a, np.int64) for a in side] for side in (ref, hyp))
    r_order, h_order = np.argsort(rg, kind="stable"), np.argsort(hg, kind="stable")
    rg, rs, re_, rt = (a[r_order] for a in (rg, rs, re_, rt))
    hg, hs, he, ht = (a[h_order] for a in (hg, hs, he, ht))
    n_ref, n_hyp = np.bincount(rg, minlength=n_groups), np.bincount(hg, minlength=n_groups)
    width = max(1, int(n_ref.max(initial=0)))
    slot = np.arange(rg.size) - (np.cumsum(n_ref) - n_ref)[rg]
    t0, t1, tt = (np.zeros((n_groups, width), np.int64) for _ in range(3))
    valid = np.zeros((n_groups, width), bool)
    t0[rg, slot], t1[rg, slot], tt[rg, slot], valid[rg, slot] = rs, re_, rt, True
    counts = {s: np.zeros((n_groups, len(COUNTS)), np.int64) for s in schemes}
    matched = {s: np.zeros((n_groups, width), bool) for s in schemes}
    h_first = np.cumsum(n_hyp) - n_hyp
    groups = np.flatnonzero(n_hyp > 0)
    for i in range(int(n_hyp.max(initial=0))):
        groups = groups[n_hyp[groups] > i]
        at = h_first[groups] + i
        p0, p1, pt = hs[at, None], he[at, None], ht[at, None]
        r0, r1, rtype, live = t0[groups], t1[groups], tt[groups], valid[groups]
        # nervaluate's overlap: at least min_overlap_percentage per cent of the reference span
        shared = np.minimum(p1, r1) - np.maximum(p0, r0) + 1
        with np.errstate(divide="ignore", invalid="ignore"):
            share = (shared / (r1 - r0 + 1)) * 100.0
        overlap = live & ~((p0 > r1) | (p1 < r0)) & (share >= min_overlap_percentage)
        same = live & (p0 == r0) & (p1 == r1)
        typed = rtype == pt
        for scheme in schemes:
            free = ~matched[scheme][groups]
            if scheme == "ent_type":  # the same-type overlap with the closest boundaries, the first on a tie
                cand = overlap & free & typed
                distance = np.where(cand, np.abs(p0 - r0) + np.abs(p1 - r1), np.iinfo(np.int64).max)
                hit_at = distance.argmin(axis=1)
                other = overlap & free & ~typed
            else:
                cand = same & free & (typed if scheme == "strict" else True)
                if scheme == "partial":
                    cand &= overlap
                hit_at = cand.argmax(axis=1)
                other = overlap & free
            hit, has_other = cand.any(axis=1), other.any(axis=1)
            take = np.where(hit, hit_at, other.argmax(axis=1))
            took = hit | has_other
            matched[scheme][groups[took], take[took]] = True
            c = counts[scheme]
            c[groups, 0] += hit
            c[groups, 2 if scheme == "partial" else 1] += ~hit & has_other
            c[groups, 4] += ~took
    for scheme in schemes:
        counts[scheme][:, 3] = n_ref - matched[scheme].sum(axis=1)
    return counts


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
    r, h = (side.take((side.ex >= 0) & (side.ex < n_ex)) for side in (r, h))
    used = np.zeros(len(cats), bool)
    used[r.type], used[h.type] = True, True
    present = np.flatnonzero(used).tolist()
    labels = ["all", *([cats[t] for t in present] if by_type else [])]
    # one group per (category label, example): "all" keeps every span, a category its own
    sides = []
    for side in (r, h):
        group = [side.ex]
        if by_type:
            group += [(1 + present.index(t)) * n_ex + side.ex[side.type == t] for t in present]
        keep = [np.ones(side.ex.size, bool)] + ([side.type == t for t in present] if by_type else [])
        sides.append(
            (
                np.concatenate(group),
                *(np.concatenate([a[k] for k in keep]) for a in (side.start, side.end - 1, side.type)),
            )
        )
    counts = count_groups(len(labels) * n_ex, *sides, schemes, min_overlap_percentage)
    frame = pd.DataFrame(
        {
            "scheme": np.repeat(list(schemes), len(labels) * n_ex),
            "category": np.tile(np.repeat(labels, n_ex), len(schemes)),
        }
    )
    keys = ex_frame.iloc[np.tile(np.arange(n_ex), len(schemes) * len(labels))].reset_index(drop=True)
    values = pd.DataFrame(np.concatenate([counts[s] for s in schemes]), columns=list(COUNTS))
    return pd.concat([frame, keys, values], axis=1)


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
