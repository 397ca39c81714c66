"""Span-level precision, recall and F1 (Table 6) under several definitions, fast and exact.

Two choices define a span F1, and published tools differ in both:

``metric`` (what counts as agreement)
    ``"char"``: factgenie 1.2.1 (``factgenie/iaa/f1.py``, ``compute_f1_scores``). Every character
    of every hypothesis span is credited to the first reference span, in order, that covers it,
    has the same type (hard mode) and is not yet matched at that character. Summed over spans
    this is, per character p, ``min(hyp cover, ref cover)`` (soft) or the sum over types of
    ``min(hyp cover of t, ref cover of t)`` (hard).

    ``"char-greedy"``: factgenie's earlier script (``scripts/evaluation/f1.py``, last state of
    May 2025). Each hypothesis span's overlaps are taken longest first and a character, once
    claimed by a reference span, is credited again only to that same reference span. Worked out,
    a character p of hypothesis span h is credited when some reference covers p (soft), or
    (hard) when a reference of h's type covers p and p's first claim, made by the first
    hypothesis span in order with a same-type reference at p, was of h's type. Two identical
    hypothesis spans are both credited in full, so recall can exceed 1.

    ``"span"``: the paper's prose ("a span is counted as a true positive when a span in the
    hypothesis overlaps with a span in the reference"). Precision is the share of hypothesis
    spans that overlap at least one reference span (of the same type in hard mode), recall the
    share of reference spans that overlap at least one hypothesis span; counts, not characters.

``convention`` (which examples' span lengths, or span counts, enter the denominators)
    ``"both"``: only examples where *both* sides marked something (factgenie 1.2.1; the old name
    ``"factgenie"`` is accepted). A hypothesis that marks an example the reference left clean
    costs no precision.

    ``"either"``: every example where either side marked something (the May 2025 script; the
    old name ``"all"`` is accepted). An example where neither side marked has no length to add,
    so this equals counting every evaluated example.

    ``None`` takes the metric's own: ``"both"`` for ``"char"``, ``"either"`` for
    ``"char-greedy"`` and ``"span"``.

The May 2025 script keys claimed characters by ``id()`` of the pandas row it is looking at.
Rows are rebuilt on every pass over the reference spans, so the same reference span may get a
new id on the next hypothesis span (its earlier claim is then not recognised) and two different
reference spans may share one (CPython reuses freed addresses; the second is then taken for the
first). Ids decide the result only where a character is looked at twice: where two hypothesis
spans of an example overlap (a repeated span, or overlapping spans in a pooled set) or two
reference spans do. Where no side overlaps itself within an example, the script is
deterministic and ``"char-greedy"`` equals it; elsewhere ``"char-greedy"`` gives what the script
computes when every reference row keeps one id of its own, the reading its comment states
("unique identifier for this reference span"). As run, the script gives a repeated hypothesis
span credit once or twice depending on memory reuse, and overlapping reference spans can push
its precision above 1. Both properties are tested against the script itself.

Other behaviours kept from factgenie, each tested:

* a pooled annotator set (all groups of a campaign) is one side;
* soft per-category figures credit overlap to the *hypothesis* category while recall divides by
  the *reference* category's length (``per_category="factgenie"``); ``per_category="consistent"``
  (``"char"`` only) counts, for category c, the hypothesis's c characters that any reference
  covers (precision) and the reference's c characters that any hypothesis covers (recall).
  ``"span"`` is consistent per category by construction.

Speed: covers are constant between span boundaries, so everything is computed per elementary
segment (difference arrays over sorted boundaries) weighted by segment length; nothing loops
over characters or span pairs in Python. Example keys are encoded as integers once
(:class:`SpanTable`, built once per loaded corpus); a pair is then scored on numpy arrays alone
(:func:`count_arrays`), and the bootstrap and the Table 6 builder reuse those per-example counts.

``per_example`` returns one row per (example, category) with integer columns ``overlap,
overlap_ref, hyp_length, ref_length, hyp_count, ref_count``: the precision and recall
numerators and denominators (for ``"span"`` these count spans, not characters) and the spans
of each side. ``scores`` sums them into ``precision, recall, f1`` per category.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..categories import CATEGORIES
from ..corpora import KEY
from . import resampling

COUNT_COLUMNS = ["overlap", "overlap_ref", "hyp_length", "ref_length", "hyp_count", "ref_count"]
METRICS = ("char", "char-greedy", "span")
CONVENTIONS = ("both", "either")
ALIASES = {"factgenie": "both", "all": "either"}
DEFAULT_CONVENTION = {"char": "both", "char-greedy": "either", "span": "either"}

# The definitions compared in chapter 04, in the order shown there: (label, metric, convention).
DEFINITIONS = [
    ("factgenie 1.2.1", "char", "both"),
    ("every example's lengths", "char", "either"),
    ("factgenie May 2025", "char-greedy", "either"),
    ("span overlap (prose)", "span", "either"),
]
DEFINITION_LABELS = {(metric, convention): label for label, metric, convention in DEFINITIONS}


def resolve(metric: str = "char", convention: str | None = None) -> tuple[str, str]:
    """Check a (metric, convention) pair and return it with aliases and defaults resolved."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, not {metric!r}")
    convention = DEFAULT_CONVENTION[metric] if convention is None else ALIASES.get(convention, convention)
    if convention not in CONVENTIONS:
        names = ", ".join([*CONVENTIONS, *ALIASES])
        raise ValueError(f"convention must be one of {names}, not {convention!r}")
    return metric, convention


# --- encoding --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side's spans as arrays in factgenie's order: example code, start, end, type code."""

    ex: np.ndarray
    start: np.ndarray
    end: np.ndarray
    type: np.ndarray

    def __len__(self) -> int:
        return self.ex.size

    def take(self, keep: np.ndarray) -> Side:
        return Side(self.ex[keep], self.start[keep], self.end[keep], self.type[keep])


def _key_codes(frames: list[pd.DataFrame]) -> list[np.ndarray]:
    """One integer per distinct example key across ``frames`` (same key, same code)."""
    sizes = [len(f) for f in frames]
    code = np.zeros(sum(sizes), np.int64)
    for col in KEY:
        values = np.concatenate([f[col].to_numpy() for f in frames])
        codes, uniques = pd.factorize(values)
        if len(uniques) > 1:
            code = pd.factorize(code * len(uniques) + codes)[0] if code.any() else codes.astype(np.int64)
    return np.split(code, np.cumsum(sizes)[:-1])


def _order(spans: pd.DataFrame) -> np.ndarray:
    """Row positions in factgenie's order: by record (file order), then position in the record."""
    if "record_id" in spans.columns:
        order = spans["order"].to_numpy(np.int64) if "order" in spans.columns else np.zeros(len(spans), np.int64)
        return np.lexsort((order, spans["record_id"].to_numpy(np.int64)))
    return np.arange(len(spans))


def _side(spans: pd.DataFrame, ex: np.ndarray, cats: list[str]) -> tuple[Side, np.ndarray]:
    o = _order(spans)
    start = spans["start"].to_numpy(np.int64)
    end = (
        spans["end"].to_numpy(np.int64)
        if "end" in spans.columns
        else start + spans["text"].str.len().to_numpy(np.int64)
    )
    types = spans["type"].to_numpy()
    if len(types) < 256:  # a dict is cheaper than building an index for a few spans
        index = {c: i for i, c in enumerate(cats)}
        codes = np.array([index.get(t, -1) for t in types], np.int64)
    else:
        codes = pd.Index(cats).get_indexer(types).astype(np.int64)
    ex = np.where(codes >= 0, ex, -1)  # a span of a category outside ``cats`` is not counted
    return Side(ex[o], start[o], end[o], codes[o]), o


class SpanTable:
    """A span frame encoded once (per loaded corpus): integer example codes and type codes.

    ``examples`` (key columns; row i has code i) are the examples that can be evaluated;
    spans of other examples get code -1 and are never counted. Select a side with
    :meth:`side` (a boolean mask over the frame's rows) and score pairs with
    :func:`count_arrays`, without building a pandas object per pair.
    """

    def __init__(self, spans: pd.DataFrame, examples: pd.DataFrame, categories: list[str] | None = None):
        self.examples = examples[KEY].drop_duplicates().reset_index(drop=True)
        self.categories = list(categories) if categories is not None else _categories(spans, spans)
        ex_codes, span_codes = _key_codes([self.examples, spans])
        lookup = np.full(int(max(ex_codes.max(initial=-1), span_codes.max(initial=-1))) + 1, -1, np.int64)
        lookup[ex_codes] = np.arange(ex_codes.size)
        self.all, self._order = _side(spans, lookup[span_codes], self.categories)
        self.n_examples = len(self.examples)

    def side(self, mask: np.ndarray | pd.Series) -> Side:
        """The spans of the rows where ``mask`` (aligned with the encoded frame) is true."""
        keep = np.asarray(mask, bool)[self._order]
        return self.all.take(keep & (self.all.ex >= 0))

    def codes(self, frame: pd.DataFrame) -> np.ndarray:
        """Example codes of the key columns of ``frame`` (-1 for an example not in the table)."""
        mine, theirs = _key_codes([self.examples, frame])
        lookup = np.full(int(max(mine.max(initial=-1), theirs.max(initial=-1))) + 1, -1, np.int64)
        lookup[mine] = np.arange(mine.size)
        return lookup[theirs]


def _categories(ref: pd.DataFrame, hyp: pd.DataFrame) -> list[str]:
    present = set(ref["type"]).union(hyp["type"])
    known = [c for c in CATEGORIES if c in present]
    return known + sorted(present - set(CATEGORIES))


# --- the numeric core ------------------------------------------------------------------------


def _segments(ref: Side, hyp: Side, width: int):
    """Elementary segments between all span boundaries (global coordinates ex * width + pos).

    Returns boundaries ``b`` (segment i is [b[i], b[i+1])), each segment's length and example,
    and per side the index of the first and one-past-last segment of each span.
    """
    rs, re_ = ref.ex * width + ref.start, ref.ex * width + ref.end
    hs, he = hyp.ex * width + hyp.start, hyp.ex * width + hyp.end
    b = np.sort(np.concatenate([rs, re_, hs, he]))
    # np.unique by sorting: its hash table is many times slower on a million boundaries
    b = b[np.r_[True, b[1:] != b[:-1]]] if b.size else b
    first_last = {
        "ref": (np.searchsorted(b, rs), np.searchsorted(b, re_)),
        "hyp": (np.searchsorted(b, hs), np.searchsorted(b, he)),
    }
    return b, np.diff(b), b[:-1] // width, first_last


def _cover(n_b: int, first: np.ndarray, past: np.ndarray, types: np.ndarray, n_cat: int) -> np.ndarray:
    """(n_cat, n_segments): how many spans of each category cover each segment."""
    diff = np.bincount(types * n_b + first, minlength=n_cat * n_b) - np.bincount(
        types * n_b + past, minlength=n_cat * n_b
    )
    return np.cumsum(diff.reshape(n_cat, n_b), axis=1)[:, : n_b - 1]


def _expand(first: np.ndarray, past: np.ndarray):
    """Every (span, segment) pair of spans covering segments [first, past), sorted by segment
    then span order; returns (span, segment, rank of the pair among its segment's pairs)."""
    k = past - first
    span = np.repeat(np.arange(k.size), k)
    seg = np.repeat(first, k) + np.arange(span.size) - np.repeat(np.cumsum(k) - k, k)
    o = np.lexsort((span, seg))
    span, seg = span[o], seg[o]
    new_group = np.r_[True, seg[1:] != seg[:-1]] if seg.size else np.zeros(0, bool)
    group_start = np.maximum.accumulate(np.where(new_group, np.arange(seg.size), 0)) if seg.size else seg
    return span, seg, np.arange(seg.size) - group_start


def _hyp_order_credit(first, past, htype, r_all, n_cat, n_seg) -> np.ndarray:
    """factgenie 1.2.1's soft credit per hypothesis category: on each segment the first
    ``ref cover`` hypothesis spans covering it (in factgenie's order) get credit."""
    span, seg, rank = _expand(first, past)
    credited = rank < r_all[seg]
    return np.bincount(htype[span[credited]] * n_seg + seg[credited], minlength=n_cat * n_seg).reshape(n_cat, n_seg)


def _greedy_hard_credit(first, past, htype, r, n_cat, n_seg) -> np.ndarray:
    """The May 2025 script's hard credit per category: on each segment, the hypothesis spans
    with a same-type reference there are eligible; the first eligible one fixes the claimed
    type, and every eligible span of that type is credited."""
    span, seg, _ = _expand(first, past)
    t = htype[span]
    eligible = r[t, seg] > 0
    span, seg, t = span[eligible], seg[eligible], t[eligible]
    claimed = np.full(n_seg, -1, np.int64)
    # first eligible span per segment: pairs are sorted by segment then span order
    is_first = np.r_[True, seg[1:] != seg[:-1]] if seg.size else np.zeros(0, bool)
    claimed[seg[is_first]] = t[is_first]
    credited = t == claimed[seg]
    return np.bincount(t[credited] * n_seg + seg[credited], minlength=n_cat * n_seg).reshape(n_cat, n_seg)


def _matched(first, past, types, other_cover: np.ndarray) -> np.ndarray:
    """Whether each span overlaps a span of the other side (``other_cover``: (n_cat or 1, n_seg))."""
    hit = np.concatenate([np.zeros((other_cover.shape[0], 1), np.int64), np.cumsum(other_cover > 0, axis=1)], axis=1)
    return (hit[types, past] - hit[types, first]) > 0


def count_arrays(
    ref: Side,
    hyp: Side,
    n_ex: int,
    n_cat: int,
    match: str = "hard",
    metric: str = "char",
    convention: str | None = None,
    by_type: bool = False,
    per_category: str = "factgenie",
) -> np.ndarray:
    """(6, n_cat or 1, n_ex) integer counts in ``COUNT_COLUMNS`` order, per category and example.

    ``ref`` and ``hyp`` hold example codes 0..n_ex-1 (spans with other codes are ignored) and type
    codes 0..n_cat-1. Without ``by_type`` the category axis has one entry (all categories).
    """
    if match not in ("hard", "soft"):
        raise ValueError(f"match must be 'hard' or 'soft', not {match!r}")
    metric, convention = resolve(metric, convention)
    if per_category not in ("factgenie", "consistent"):
        raise ValueError(f"per_category must be 'factgenie' or 'consistent', not {per_category!r}")
    if per_category == "consistent" and metric == "char-greedy":
        raise ValueError("per_category='consistent' is defined for metric 'char' ('span' is consistent already)")
    ref = ref.take((ref.ex >= 0) & (ref.ex < n_ex))
    hyp = hyp.take((hyp.ex >= 0) & (hyp.ex < n_ex))

    def by_cat(side: Side, weights=None) -> np.ndarray:
        return np.bincount(side.type * n_ex + side.ex, weights=weights, minlength=n_cat * n_ex).reshape(n_cat, n_ex)

    out = np.zeros((6, n_cat, n_ex), np.int64)
    out[4], out[5] = by_cat(hyp), by_cat(ref)
    marked_both = (out[4].sum(axis=0) > 0) & (out[5].sum(axis=0) > 0)
    counted = marked_both if convention == "both" else np.ones(n_ex, bool)
    if metric == "span":
        out[2], out[3] = out[4] * counted, out[5] * counted
    else:
        out[2] = by_cat(hyp, (hyp.end - hyp.start).astype(float)) * counted
        out[3] = by_cat(ref, (ref.end - ref.start).astype(float)) * counted
    # overlap exists only where both sides marked; restricting to those examples is exact
    ref, hyp = ref.take(marked_both[ref.ex]), hyp.take(marked_both[hyp.ex])
    if len(ref) and len(hyp):
        _overlap(out, ref, hyp, n_ex, n_cat, match, metric, per_category, by_type)
    return out if by_type else out.sum(axis=1, keepdims=True)


def _overlap(out, ref: Side, hyp: Side, n_ex, n_cat, match, metric, per_category, by_type) -> None:
    width = int(max(ref.end.max(), hyp.end.max())) + 1
    b, seg_len, seg_ex, fl = _segments(ref, hyp, width)
    n_seg = b.size - 1
    if n_seg <= 0:
        return
    (rf, rp), (hf, hp) = fl["ref"], fl["hyp"]
    h, r = _cover(b.size, hf, hp, hyp.type, n_cat), _cover(b.size, rf, rp, ref.type, n_cat)
    h_all, r_all = h.sum(axis=0), r.sum(axis=0)

    def per_ex(values: np.ndarray) -> np.ndarray:
        flat = np.bincount(
            (np.arange(values.shape[0])[:, None] * n_ex + seg_ex[None, :]).ravel(),
            weights=(values * seg_len).ravel(),
            minlength=values.shape[0] * n_ex,
        )
        return flat.reshape(values.shape[0], n_ex).astype(np.int64)

    if metric == "span":
        cover_of_ref = r if match == "hard" else r_all[None, :]
        cover_of_hyp = h if match == "hard" else h_all[None, :]
        h_types = hyp.type if match == "hard" else np.zeros_like(hyp.type)
        r_types = ref.type if match == "hard" else np.zeros_like(ref.type)
        hit_h = _matched(hf, hp, h_types, cover_of_ref)
        hit_r = _matched(rf, rp, r_types, cover_of_hyp)
        out[0] = np.bincount(hyp.type * n_ex + hyp.ex, weights=hit_h.astype(float), minlength=n_cat * n_ex).reshape(
            n_cat, n_ex
        )
        out[1] = np.bincount(ref.type * n_ex + ref.ex, weights=hit_r.astype(float), minlength=n_cat * n_ex).reshape(
            n_cat, n_ex
        )
        return
    if metric == "char-greedy":
        credit = _greedy_hard_credit(hf, hp, hyp.type, r, n_cat, n_seg) if match == "hard" else h * (r_all > 0)[None, :]
        out[0] = out[1] = per_ex(credit)
        return
    if match == "hard":
        out[0] = out[1] = per_ex(np.minimum(h, r))
    elif not by_type:
        out[0, 0] = out[1, 0] = per_ex(np.minimum(h_all, r_all)[None, :])[0]
    elif per_category == "consistent":
        out[0] = per_ex(np.minimum(h, r_all[None, :]))
        out[1] = per_ex(np.minimum(r, h_all[None, :]))
    else:
        out[0] = out[1] = per_ex(_hyp_order_credit(hf, hp, hyp.type, r_all, n_cat, n_seg))


# --- frames in, frames out -------------------------------------------------------------------


def _encode_pair(ref: pd.DataFrame, hyp: pd.DataFrame, examples: pd.DataFrame, categories):
    """Both sides as arrays against the distinct ``examples`` (codes 0..n-1, in first-seen order);
    returns (ref, hyp, positions of the distinct examples in ``examples``, categories)."""
    cats = list(categories) if categories is not None else _categories(ref, hyp)
    ex_codes, r_codes, h_codes = _key_codes([examples, ref, hyp])
    _, first = np.unique(ex_codes, return_index=True)
    first.sort()
    size = int(max(ex_codes.max(initial=-1), r_codes.max(initial=-1), h_codes.max(initial=-1))) + 1
    lookup = np.full(size, -1, np.int64)
    lookup[ex_codes[first]] = np.arange(first.size)
    r, _ = _side(ref, lookup[r_codes], cats)
    h, _ = _side(hyp, lookup[h_codes], cats)
    return r, h, first, cats


def per_example(
    ref: pd.DataFrame,
    hyp: pd.DataFrame,
    examples: pd.DataFrame,
    match: str = "hard",
    convention: str | None = None,
    by_type: bool = False,
    per_category: str = "factgenie",
    categories: list[str] | None = None,
    metric: str = "char",
) -> pd.DataFrame:
    """Per-example, per-category counts of a reference and a hypothesis span set.

    ``ref`` and ``hyp`` are span frames (columns: the example key, ``start``, ``end`` or ``text``,
    ``type``; ``record_id`` and ``order`` fix factgenie's span order). ``examples`` lists the
    examples evaluated (key columns); spans of other examples are ignored. Without ``by_type``
    the category column is ``"all"``.
    """
    r, h, first, cats = _encode_pair(ref, hyp, examples, categories)
    ex_frame = examples[KEY].iloc[first].reset_index(drop=True)
    n_ex = len(ex_frame)
    arr = count_arrays(r, h, n_ex, max(1, len(cats)), match, metric, convention, by_type, per_category)
    cats_out = cats if by_type else ["all"]
    columns = {"category": np.repeat(cats_out, n_ex)}
    columns |= {col: np.tile(ex_frame[col].to_numpy(), len(cats_out)) for col in KEY}
    columns |= {col: arr[i].ravel() for i, col in enumerate(COUNT_COLUMNS)}
    return pd.DataFrame(columns)


def prf(overlap, overlap_ref, hyp_length, ref_length):
    """Precision, recall and F1 from numerators and denominators (0 where undefined, as factgenie)."""
    p = np.divide(overlap, hyp_length, out=np.zeros(np.shape(overlap), float), where=np.asarray(hyp_length) > 0)
    r = np.divide(overlap_ref, ref_length, out=np.zeros(np.shape(overlap), float), where=np.asarray(ref_length) > 0)
    f = np.divide(2 * p * r, p + r, out=np.zeros(np.shape(p), float), where=(p + r) > 0)
    return p, r, f


def _score_frame(categories: list[str], sums: np.ndarray, n_examples: int) -> pd.DataFrame:
    """``sums``: (6, n_cat) summed counts."""
    p, r, f = prf(*sums[:4])
    return pd.DataFrame(
        {
            "category": categories,
            "precision": p,
            "recall": r,
            "f1": f,
            "examples": np.full(len(categories), n_examples),
            **dict(zip(COUNT_COLUMNS, sums)),
        }
    )


def scores(counts: pd.DataFrame) -> pd.DataFrame:
    """Sum per-example counts into precision, recall and F1 per category (and ``"all"``).

    Columns: ``category, precision, recall, f1, examples`` and the summed ``COUNT_COLUMNS``.
    In soft mode use the overall (not per-category) call for the overall figure, as factgenie does.
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


def span_f1(
    ref: pd.DataFrame,
    hyp: pd.DataFrame,
    examples: pd.DataFrame,
    match: str = "hard",
    convention: str | None = None,
    by_type: bool = False,
    per_category: str = "factgenie",
    categories: list[str] | None = None,
    metric: str = "char",
) -> pd.DataFrame:
    """P/R/F1 of ``hyp`` against ``ref`` on ``examples``: an ``"all"`` row, plus one per category
    when ``by_type`` (the ``"all"`` row always comes from the overall computation).

    ``metric`` and ``convention`` choose the definition (see the module docstring); the default
    is factgenie 1.2.1's.
    """
    r, h, first, cats = _encode_pair(ref, hyp, examples, categories)
    n_ex, n_cat = first.size, max(1, len(cats))
    overall = count_arrays(r, h, n_ex, n_cat, match, metric, convention, False, per_category)
    table = _score_frame(["all"], overall.sum(axis=2), n_ex)
    if not by_type:
        return table
    per_cat = count_arrays(r, h, n_ex, n_cat, match, metric, convention, True, per_category)
    return pd.concat([table, _score_frame(cats, per_cat.sum(axis=2), n_ex)], ignore_index=True)


def bootstrap(counts: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """Percentile intervals for P/R/F1 from resampling examples with replacement (seeded); works
    for every definition, since each is a ratio of per-example sums.

    Columns: ``category, metric, estimate, low, high``.
    """
    rows = []
    for cat, grp in counts.groupby("category", sort=False):
        weights = resampling.matrix(grp[KEY], n_boot, seed)
        for name, e, low, high in interval_rows(grp[COUNT_COLUMNS[:4]].to_numpy(float), weights, level):
            rows.append({"category": cat, "metric": name, "estimate": e, "low": low, "high": high})
    return pd.DataFrame(rows)


def interval_rows(mat: np.ndarray, weights: np.ndarray, level: float = 0.95):
    """(metric, estimate, low, high) for P, R and F1 of per-example counts ``mat`` (n_ex, 4),
    resampled with ``weights`` (n_boot, n_ex; :func:`hotelcheckspan.metrics.resampling.matrix`)."""
    boot = weights @ mat
    est = prf(*mat.sum(axis=0))
    dist = prf(*boot.T)
    for name, e, d in zip(("precision", "recall", "f1"), est, dist):
        low, high = resampling.interval(d, level)
        yield name, float(e), low, high
