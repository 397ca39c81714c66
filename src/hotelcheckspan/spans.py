"""Span-level agreement (Table 6): factgenie's character-overlap precision, recall and F1, fast.

factgenie (``factgenie/iaa/f1.py``, ``compute_f1_scores``) walks every character of every
hypothesis span and credits it to the first reference span, in order, that covers it, has the
same type (hard mode) and is not yet matched at that character. Summed over spans this is, per
character p, ``min(hyp cover, ref cover)`` (soft) or the sum over types of
``min(hyp cover of t, ref cover of t)`` (hard). Covers come from difference arrays, so nothing
loops over characters or span pairs in Python.

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

from .corpus import CATEGORIES, KEY

CHUNK_POSITIONS = 1 << 20  # characters processed at once: memory stays flat as the corpus grows
COUNT_COLUMNS = ["overlap", "overlap_ref", "hyp_length", "ref_length", "hyp_count", "ref_count"]


def _ordered(spans: pd.DataFrame) -> pd.DataFrame:
    """Spans in factgenie's order: by record (file order), then position within the record."""
    by = [c for c in ("record_id", "order") if c in spans.columns]
    return spans.sort_values(by, kind="stable") if by else spans


def _encode(spans: pd.DataFrame, ex_index: pd.DataFrame, cats: list[str]) -> dict[str, np.ndarray]:
    s = _ordered(spans).merge(ex_index, on=KEY, how="inner", sort=False)
    start = s["start"].to_numpy(np.int64)
    end = s["end"].to_numpy(np.int64) if "end" in s.columns else start + s["text"].str.len().to_numpy(np.int64)
    return {"ex": s["_ex"].to_numpy(np.int64), "start": start, "end": end,
            "type": pd.Categorical(s["type"], categories=cats).codes.astype(np.int64)}


def _sub(side: dict[str, np.ndarray], mask: np.ndarray) -> dict[str, np.ndarray]:
    return {k: v[mask] for k, v in side.items()}


def _cover(side: dict, base: np.ndarray, n_pos: int, n_cat: int) -> np.ndarray:
    """(n_cat, n_pos) array: how many spans of each category cover each position."""
    width = n_pos + 1
    lo = side["type"] * width + base[side["ex"]] + side["start"]
    hi = side["type"] * width + base[side["ex"]] + side["end"]
    diff = np.bincount(lo, minlength=n_cat * width) - np.bincount(hi, minlength=n_cat * width)
    return np.cumsum(diff.reshape(n_cat, width), axis=1)[:, :n_pos]


def _hyp_order_credit(hyp: dict, base: np.ndarray, ref_total: np.ndarray, n_cat: int) -> np.ndarray:
    """factgenie's soft credit per hypothesis category: at each character the first ``ref cover``
    hypothesis spans (in order) covering it get credit. Returns (n_cat, n_pos) credits."""
    lens = hyp["end"] - hyp["start"]
    keep = lens > 0
    lens, n_pos = lens[keep], ref_total.size
    if lens.size == 0:
        return np.zeros((n_cat, n_pos), np.int64)
    span = np.repeat(np.arange(lens.size), lens)
    offset = np.arange(span.size) - np.repeat(np.cumsum(lens) - lens, lens)
    pos = base[hyp["ex"][keep]][span] + hyp["start"][keep][span] + offset
    order = np.lexsort((span, pos))
    pos_sorted = pos[order]
    first = np.r_[True, pos_sorted[1:] != pos_sorted[:-1]]
    group_start = np.maximum.accumulate(np.where(first, np.arange(pos_sorted.size), 0))
    credited = (np.arange(pos_sorted.size) - group_start) < ref_total[pos_sorted]
    types = hyp["type"][keep][span[order]]
    flat = np.bincount(types[credited] * n_pos + pos_sorted[credited], minlength=n_cat * n_pos)
    return flat.reshape(n_cat, n_pos)


def _chunk_counts(ref: dict, hyp: dict, n_ex: int, n_cat: int, match: str, per_category: str,
                  by_type: bool) -> np.ndarray:
    """Overlaps of one chunk of examples: (2, n_cat, n_ex) for precision- and recall-side overlap."""
    extent = np.zeros(n_ex, np.int64)
    for side in (ref, hyp):
        np.maximum.at(extent, side["ex"], side["end"])
    base = np.r_[0, np.cumsum(extent)[:-1]].astype(np.int64)
    n_pos = int(extent.sum())
    out = np.zeros((2, n_cat, n_ex), np.int64)
    if n_pos == 0:
        return out
    pos_ex = np.repeat(np.arange(n_ex), extent)
    h, r = _cover(hyp, base, n_pos, n_cat), _cover(ref, base, n_pos, n_cat)

    def per_ex(values: np.ndarray) -> np.ndarray:
        return np.stack([np.bincount(pos_ex, weights=v, minlength=n_ex) for v in values]).astype(np.int64)

    if match == "hard":
        out[0] = out[1] = per_ex(np.minimum(h, r))
        return out
    h_all, r_all = h.sum(axis=0), r.sum(axis=0)
    if not by_type:
        total = per_ex(np.minimum(h_all, r_all)[None, :])[0]
        out[0, 0] = out[1, 0] = total
    elif per_category == "consistent":
        out[0] = per_ex(np.minimum(h, r_all[None, :]))
        out[1] = per_ex(np.minimum(r, h_all[None, :]))
    else:
        out[0] = out[1] = per_ex(_hyp_order_credit(hyp, base, r_all, n_cat))
    return out


def per_example(ref: pd.DataFrame, hyp: pd.DataFrame, examples: pd.DataFrame, match: str = "hard",
                convention: str = "factgenie", by_type: bool = False, per_category: str = "factgenie",
                categories: list[str] | None = None) -> pd.DataFrame:
    """Per-example, per-category counts of a reference and a hypothesis span set.

    ``ref`` and ``hyp`` are span frames (columns: the example key, ``start``, ``end`` or ``text``,
    ``type``; ``record_id`` and ``order`` fix factgenie's span order). ``examples`` lists the
    examples evaluated (key columns). Without ``by_type`` the category column is ``"all"``.
    """
    if match not in ("hard", "soft"):
        raise ValueError(f"match must be 'hard' or 'soft', not {match!r}")
    if convention not in ("factgenie", "all"):
        raise ValueError(f"convention must be 'factgenie' or 'all', not {convention!r}")
    if per_category not in ("factgenie", "consistent"):
        raise ValueError(f"per_category must be 'factgenie' or 'consistent', not {per_category!r}")
    cats = list(categories) if categories is not None else _categories(ref, hyp)
    ex_index = examples[KEY].drop_duplicates().reset_index(drop=True)
    ex_index["_ex"] = np.arange(len(ex_index))
    n_ex, n_cat = len(ex_index), max(1, len(cats))
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

    overlap = np.zeros((2, n_cat, n_ex), np.int64)
    # chunks of whole examples, so that the position arrays never exceed CHUNK_POSITIONS
    extent = np.zeros(n_ex, np.int64)
    for side in (r, h):
        np.maximum.at(extent, side["ex"], side["end"])
    active = np.flatnonzero(both)
    chunk_of = np.cumsum(extent[active]) // CHUNK_POSITIONS
    for cid in np.unique(chunk_of):
        chunk = active[chunk_of == cid]
        remap = np.full(n_ex, -1)
        remap[chunk] = np.arange(chunk.size)
        rs, hs = _sub(r, remap[r["ex"]] >= 0), _sub(h, remap[h["ex"]] >= 0)
        rs["ex"], hs["ex"] = remap[rs["ex"]], remap[hs["ex"]]
        overlap[:, :, chunk] = _chunk_counts(rs, hs, chunk.size, n_cat, match, per_category, by_type)

    if not by_type:
        counts = {k: v.sum(axis=0, keepdims=True) for k, v in counts.items()}
        overlap = overlap.sum(axis=1, keepdims=True) if match == "hard" else overlap[:, :1]
        cats_out = ["all"]
    else:
        cats_out = cats
    frame = ex_index[KEY].loc[np.tile(np.arange(n_ex), len(cats_out))].reset_index(drop=True)
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


def _prf(overlap, overlap_ref, hyp_length, ref_length):
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
    p, r, f = _prf(*(sums[c].to_numpy() for c in COUNT_COLUMNS[:4]))
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
    alpha = (1 - level) / 2
    for cat, grp in counts.groupby("category", sort=False):
        mat = grp[COUNT_COLUMNS[:4]].to_numpy(float)
        weights = rng.multinomial(len(mat), np.full(len(mat), 1 / len(mat)), size=n_boot) if len(mat) else np.zeros((n_boot, 0))
        boot = weights @ mat
        est = _prf(*mat.sum(axis=0))
        dist = _prf(*boot.T)
        for name, e, d in zip(("precision", "recall", "f1"), est, dist):
            rows.append({"category": cat, "metric": name, "estimate": float(e),
                         "low": float(np.quantile(d, alpha)), "high": float(np.quantile(d, 1 - alpha))})
    return pd.DataFrame(rows)
