"""Span-level agreement (Table 6): factgenie's character-overlap precision, recall and F1, fast.

factgenie (``factgenie/iaa/f1.py``, ``compute_f1_scores``) walks every character of every
hypothesis span and credits it to the first reference span, in order, that covers it, has the
same type (hard mode) and is not yet matched at that character. Summed over spans this is, per
character p, ``min(hyp cover, ref cover)`` (soft) or the sum over types of
``min(hyp cover of t, ref cover of t)`` (hard). Covers are constant between span boundaries, so
they are computed once per elementary segment (difference arrays over sorted boundaries) and
weighted by segment length: the work grows with the number of spans, not characters, and
nothing loops over characters or span pairs in Python.

Behaviours of factgenie kept by default (``convention="factgenie"``), each documented and tested:

* span lengths enter P and R only for examples where *both* sides marked a span; an example
  where only one side marked something counts spans but not length (``convention="all"`` counts
  every example's lengths);
* a duplicate hypothesis span adds length but gets credit only where another reference span is
  still unmatched;
* a pooled annotator set (all groups of a campaign) is one side;
* soft per-category figures credit overlap to the *hypothesis* category while recall divides by
  the *reference* category's length (``per_category="factgenie"``); ``per_category="consistent"``
  counts, for category c, the hypothesis's c characters that any reference covers (precision)
  and the reference's c characters that any hypothesis covers (recall).

``per_example`` returns one row per (example, category) with integer columns ``overlap,
overlap_ref, hyp_length, ref_length, hyp_count, ref_count`` (``overlap_ref`` is the
recall-side overlap, equal to ``overlap`` except in consistent per-category soft mode);
``scores`` sums them into ``precision, recall, f1`` per category plus an ``"all"`` row.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import resampling
from ..categories import CATEGORIES
from ..corpora import KEY

COUNT_COLUMNS = ["overlap", "overlap_ref", "hyp_length", "ref_length", "hyp_count", "ref_count"]


def _ordered(spans: pd.DataFrame) -> pd.DataFrame:
    """Spans in factgenie's order: by record (file order), then position within the record."""
    by = [c for c in ("record_id", "order") if c in spans.columns]
    return spans.sort_values(by, kind="stable") if by else spans


def _encode(spans: pd.DataFrame, ex_index: pd.MultiIndex, cats: list[str]) -> dict[str, np.ndarray]:
    s = _ordered(spans)
    ex = ex_index.get_indexer(pd.MultiIndex.from_frame(s[KEY])) if len(s) else np.zeros(0, np.int64)
    keep = ex >= 0
    start = s["start"].to_numpy(np.int64)
    end = s["end"].to_numpy(np.int64) if "end" in s.columns else start + s["text"].str.len().to_numpy(np.int64)
    codes = pd.Categorical(s["type"], categories=cats).codes.astype(np.int64)
    return {"ex": ex[keep].astype(np.int64), "start": start[keep], "end": end[keep], "type": codes[keep]}


def _segments(ref: dict, hyp: dict, active: np.ndarray):
    """Elementary segments between all span boundaries of the active examples.

    Returns global boundaries ``b`` (segment i is [b[i], b[i+1])), each segment's length and
    example, and per side the global start and end of its active spans and the mask selecting them.
    """
    width = int(max(ref["end"].max(initial=0), hyp["end"].max(initial=0))) + 1

    def glob(side):
        on = active[side["ex"]]
        return side["ex"][on] * width + side["start"][on], side["ex"][on] * width + side["end"][on], on

    rs, re_, ron = glob(ref)
    hs, he, hon = glob(hyp)
    b = np.unique(np.concatenate([rs, re_, hs, he]))
    seg_len = np.diff(b)
    seg_ex = b[:-1] // width
    return b, seg_len, seg_ex, {"ref": (rs, re_, ron), "hyp": (hs, he, hon)}


def _cover(b: np.ndarray, starts: np.ndarray, ends: np.ndarray, types: np.ndarray, n_cat: int) -> np.ndarray:
    """(n_cat, n_segments): how many spans of each category cover each segment."""
    n = b.size
    lo = types * n + np.searchsorted(b, starts)
    hi = types * n + np.searchsorted(b, ends)
    diff = np.bincount(lo, minlength=n_cat * n) - np.bincount(hi, minlength=n_cat * n)
    return np.cumsum(diff.reshape(n_cat, n), axis=1)[:, : n - 1]


def _hyp_order_credit(b, hs, he, htype, r_all, n_cat) -> np.ndarray:
    """factgenie's soft credit per hypothesis category: on each segment the first ``ref cover``
    hypothesis spans covering it get credit, in factgenie's order, which is the order of ``hs``.
    Returns (n_cat, n_segments)."""
    n_seg = b.size - 1
    first, past = np.searchsorted(b, hs), np.searchsorted(b, he)
    k = past - first
    if n_seg <= 0 or k.sum() == 0:
        return np.zeros((n_cat, max(n_seg, 0)), np.int64)
    span = np.repeat(np.arange(k.size), k)
    seg = np.repeat(first, k) + np.arange(span.size) - np.repeat(np.cumsum(k) - k, k)
    o = np.lexsort((span, seg))
    seg_sorted = seg[o]
    new_group = np.r_[True, seg_sorted[1:] != seg_sorted[:-1]]
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(seg_sorted.size), 0))
    credited = (np.arange(seg_sorted.size) - group_start) < r_all[seg_sorted]
    flat = np.bincount(htype[span[o]][credited] * n_seg + seg_sorted[credited], minlength=n_cat * n_seg)
    return flat.reshape(n_cat, n_seg)


def _overlaps(ref: dict, hyp: dict, active: np.ndarray, n_ex: int, n_cat: int, match: str, per_category: str,
              by_type: bool) -> np.ndarray:
    """(2, n_cat, n_ex) overlap lengths: precision side and recall side."""
    out = np.zeros((2, n_cat, n_ex), np.int64)
    if not active.any():
        return out
    b, seg_len, seg_ex, coords = _segments(ref, hyp, active)
    if b.size < 2:
        return out
    rs, re_, ron = coords["ref"]
    hs, he, hon = coords["hyp"]
    h, r = _cover(b, hs, he, hyp["type"][hon], n_cat), _cover(b, rs, re_, ref["type"][ron], n_cat)

    def per_ex(values: np.ndarray) -> np.ndarray:
        return np.stack([np.bincount(seg_ex, weights=v * seg_len, minlength=n_ex) for v in values]).astype(np.int64)

    if match == "hard":
        out[0] = out[1] = per_ex(np.minimum(h, r))
        return out
    h_all, r_all = h.sum(axis=0), r.sum(axis=0)
    if not by_type:
        out[0, 0] = out[1, 0] = per_ex(np.minimum(h_all, r_all)[None, :])[0]
    elif per_category == "consistent":
        out[0] = per_ex(np.minimum(h, r_all[None, :]))
        out[1] = per_ex(np.minimum(r, h_all[None, :]))
    else:
        out[0] = out[1] = per_ex(_hyp_order_credit(b, hs, he, hyp["type"][hon], r_all, n_cat))
    return out


def per_example(ref: pd.DataFrame, hyp: pd.DataFrame, examples: pd.DataFrame, match: str = "hard",
                convention: str = "factgenie", by_type: bool = False, per_category: str = "factgenie",
                categories: list[str] | None = None) -> pd.DataFrame:
    """Per-example, per-category counts of a reference and a hypothesis span set.

    ``ref`` and ``hyp`` are span frames (columns: the example key, ``start``, ``end`` or ``text``,
    ``type``; ``record_id`` and ``order`` fix factgenie's span order). ``examples`` lists the
    examples evaluated (key columns); spans of other examples are ignored. Without ``by_type``
    the category column is ``"all"``.
    """
    if match not in ("hard", "soft"):
        raise ValueError(f"match must be 'hard' or 'soft', not {match!r}")
    if convention not in ("factgenie", "all"):
        raise ValueError(f"convention must be 'factgenie' or 'all', not {convention!r}")
    if per_category not in ("factgenie", "consistent"):
        raise ValueError(f"per_category must be 'factgenie' or 'consistent', not {per_category!r}")
    cats = list(categories) if categories is not None else _categories(ref, hyp)
    ex_frame = examples[KEY].drop_duplicates().reset_index(drop=True)
    ex_index = pd.MultiIndex.from_frame(ex_frame)
    n_ex, n_cat = len(ex_frame), max(1, len(cats))
    r, h = _encode(ref, ex_index, cats), _encode(hyp, ex_index, cats)

    def by_cat(side: dict, weights: np.ndarray | None) -> np.ndarray:
        flat = np.bincount(side["type"] * n_ex + side["ex"], weights=weights, minlength=n_cat * n_ex)
        return flat.reshape(n_cat, n_ex).astype(np.int64)

    counts = {
        "hyp_count": by_cat(h, None), "ref_count": by_cat(r, None),
        "hyp_length": by_cat(h, (h["end"] - h["start"]).astype(float)),
        "ref_length": by_cat(r, (r["end"] - r["start"]).astype(float)),
    }
    both = (counts["hyp_count"].sum(axis=0) > 0) & (counts["ref_count"].sum(axis=0) > 0)
    if convention == "factgenie":
        counts["hyp_length"] = counts["hyp_length"] * both
        counts["ref_length"] = counts["ref_length"] * both
    overlap = _overlaps(r, h, both, n_ex, n_cat, match, per_category, by_type)

    if not by_type:
        counts = {k: v.sum(axis=0, keepdims=True) for k, v in counts.items()}
        overlap = overlap.sum(axis=1, keepdims=True) if match == "hard" else overlap[:, :1]
        cats_out = ["all"]
    else:
        cats_out = cats
    frame = ex_frame.loc[np.tile(np.arange(n_ex), len(cats_out))].reset_index(drop=True)
    frame.insert(0, "category", np.repeat(cats_out, n_ex))
    frame["overlap"] = overlap[0].ravel()
    frame["overlap_ref"] = overlap[1].ravel()
    for k, v in counts.items():
        frame[k] = v.ravel()
    return frame[["category", *KEY, *COUNT_COLUMNS]]


def _categories(ref: pd.DataFrame, hyp: pd.DataFrame) -> list[str]:
    present = set(ref["type"]).union(hyp["type"])
    known = [c for c in CATEGORIES if c in present]
    return known + sorted(present - set(CATEGORIES))


def prf(overlap, overlap_ref, hyp_length, ref_length):
    p = np.divide(overlap, hyp_length, out=np.zeros(np.shape(overlap), float), where=np.asarray(hyp_length) > 0)
    r = np.divide(overlap_ref, ref_length, out=np.zeros(np.shape(overlap), float), where=np.asarray(ref_length) > 0)
    f = np.divide(2 * p * r, p + r, out=np.zeros(np.shape(p), float), where=(p + r) > 0)
    return p, r, f


def scores(counts: pd.DataFrame) -> pd.DataFrame:
    """Sum per-example counts into precision, recall and F1 per category (and ``"all"``).

    Columns: ``category, precision, recall, f1, examples`` and the summed ``COUNT_COLUMNS``.
    With per-category counts the ``"all"`` row sums categories; in soft mode use the
    overall (not per-category) call for the overall figure, as factgenie does.
    """
    sums = counts.groupby("category", sort=False)[COUNT_COLUMNS].sum()
    n_examples = counts.groupby("category", sort=False).size()
    p, r, f = prf(*(sums[c].to_numpy() for c in COUNT_COLUMNS[:4]))
    out = sums.reset_index()
    out.insert(1, "precision", p)
    out.insert(2, "recall", r)
    out.insert(3, "f1", f)
    out.insert(4, "examples", n_examples.to_numpy())
    return out


def span_f1(ref: pd.DataFrame, hyp: pd.DataFrame, examples: pd.DataFrame, match: str = "hard",
            convention: str = "factgenie", by_type: bool = False, per_category: str = "factgenie",
            categories: list[str] | None = None) -> pd.DataFrame:
    """P/R/F1 of ``hyp`` against ``ref`` on ``examples``: an ``"all"`` row, plus one per category
    when ``by_type`` (the ``"all"`` row always comes from the overall computation)."""
    overall = scores(per_example(ref, hyp, examples, match, convention, False, categories=categories))
    if not by_type:
        return overall
    per_cat = scores(per_example(ref, hyp, examples, match, convention, True, per_category, categories))
    return pd.concat([overall, per_cat], ignore_index=True)


def bootstrap(counts: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """Percentile intervals for P/R/F1 from resampling examples with replacement (seeded).

    Columns: ``category, metric, estimate, low, high``.
    """
    rng = np.random.default_rng(seed)
    rows = []
    for cat, grp in counts.groupby("category", sort=False):
        mat = grp[COUNT_COLUMNS[:4]].to_numpy(float)
        boot = resampling.weights(len(mat), n_boot, rng) @ mat
        est = prf(*mat.sum(axis=0))
        dist = prf(*boot.T)
        for name, e, d in zip(("precision", "recall", "f1"), est, dist):
            low, high = resampling.interval(d, level)
            rows.append({"category": cat, "metric": name, "estimate": float(e), "low": low, "high": high})
    return pd.DataFrame(rows)
