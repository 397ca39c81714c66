"""The per-pair paths that computed the beyond-F1 measures before they were vectorised, kept
unchanged as the reference the fast paths are tested and benchmarked against: span_level's
``iter_pairs`` (re-filtering the corpus for every pair), γ per example with pygamma's sampler
one draw at a time (``gamma_per_example``, ``continuum_gamma``) and per pair (``gamma_pairwise``),
the boundary schemes span by span (``boundaries_per_example``), factgenie's error-count Pearson
per pair (``error_counts_per_example``, ``correlations``) and ``span_measures.pairs``
(``measures_pairs``) with its bootstrap table (``measures_table``). Each is the code of the
package as it was, with only its names changed.
"""

from __future__ import annotations

import math
import warnings
from bisect import bisect_right
from itertools import chain

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment
from scipy.stats import pearsonr

from hotelcheckspan.analyses import span_level
from hotelcheckspan.annotator_sets import parse_all
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import boundaries, resampling
from hotelcheckspan.metrics.gamma import SEGMENT_PRECISION, TooManyAnnotators, annotator_id
from hotelcheckspan.metrics.span_f1 import _encode_pair, _key_codes

ALPHA = BETA = DELTA_EMPTY = 1.0
N_SAMPLES = 30
SEED = 42
SOFT_FUNCTION = True
SOFT_CLI = False
SPAN_COLUMNS = [*KEY, "annotator", "start", "end", "label"]
GAMMA_PAIR_COLUMNS = ["comparison", "ref", "hyp", "gamma", "s_empty", "gamma_examples", "s_empty_examples", "examples"]
MEASURES = ["F1 (book)", "strict F1", "exact F1", "partial F1", "type F1", "Pearson r (micro)"]
SCHEME_LABELS = {"strict": "strict", "exact": "exact", "partial": "partial", "ent_type": "type"}


def iter_pairs(corpus, comparisons: list[dict] | None = None):
    """Every (comparison, ref set, hyp set) pair: yields ``(name, ref_set, hyp_set, ref_spans,
    hyp_spans, examples)`` (the sets as :class:`AnnotatorSet`), the examples being those both
    sets annotated, restricted to the comparison's ``examples`` (a campaign's examples, or a
    frame of example keys) when it has one."""
    comparisons = comparisons if comparisons is not None else span_level.load_comparisons(corpus=corpus)
    for comp in comparisons:
        restrict, chosen = None, comp.get("examples")
        if isinstance(chosen, pd.DataFrame):  # the examples themselves (from Python, not the YAML)
            restrict = chosen[KEY].drop_duplicates()
        elif chosen:
            restrict = corpus.records.loc[corpus.records["campaign"] == chosen, KEY].drop_duplicates()
        for ref_set in parse_all(comp["ref"]):
            ref_rec, ref_sp = ref_set.require(corpus)
            for hyp_set in parse_all(comp["hyp"]):
                hyp_rec, hyp_sp = hyp_set.require(corpus)
                ex = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
                if restrict is not None:
                    ex = ex.merge(restrict, on=KEY)
                yield comp["name"], ref_set, hyp_set, ref_sp, hyp_sp, ex


# --- γ (metrics.gamma) ---


def _units(start, end, cat) -> list[tuple[float, float, int]]:
    return sorted(set(zip(map(float, start), map(float, end), map(int, cat))))


def _costs(continua: list[tuple[list, list]], alpha: float, beta: float, delta: np.float32) -> np.ndarray:
    """(continua, k, k) float32 pair costs of every continuum at once (k: the most units of an
    annotator), as pygamma's compiled dissimilarity computes them: float32 positional part,
    categorical part 0 or 1, combined in float64 and stored as float32."""
    k = max(1, max(max(len(a), len(b)) for a, b in continua))
    pad = (0.0, 1.0, -1)
    flat = [u for a, b in continua for side in (a, b) for u in side + [pad] * (k - len(side))]
    arr = np.array(flat, dtype=np.float64).reshape(len(continua), 2, k, 3)
    s32 = arr[..., 0].astype(np.float32)
    e32 = arr[..., 1].astype(np.float32)
    d32 = (arr[..., 1] - arr[..., 0]).astype(np.float32)  # pyannote's duration, then float32
    cat = arr[..., 2]
    ds = np.abs(s32[:, 0, :, None] - s32[:, 1, None, :])
    de = np.abs(e32[:, 0, :, None] - e32[:, 1, None, :])
    pos = (ds + de) / (d32[:, 0, :, None] + d32[:, 1, None, :])
    pos = pos * pos * delta
    mismatch = (cat[:, 0, :, None] != cat[:, 1, None, :]).astype(np.float64)
    return (alpha * pos.astype(np.float64) + beta * mismatch).astype(np.float32)


def _disorders(continua: list[tuple[list, list]], soft: bool, alpha: float, beta: float, delta) -> list:
    """The disorder of the best (hard) or best soft alignment of each two-annotator continuum
    (a pair of unit lists, the annotator whose name sorts first first).

    Hard: every unit once, a unit alone costing ``delta``, so the cost is ``delta * (na + nb)``
    plus the least sum of ``cost - 2 delta`` over a matching (pairs dearer than ``2 delta`` are
    never considered). Soft: every unit at least once (an edge cover); its cost is the sum of
    each unit's cheapest option plus the least sum of ``cost - cheapest(a) - cheapest(b)`` over
    a matching. Both matchings are ``linear_sum_assignment`` on the non-positive gains; the
    arrays are computed for all continua at once, the matchings one by one.
    """
    delta = np.float32(delta)
    empty = float(delta)
    costs = _costs(continua, alpha, beta, delta)
    n, k = costs.shape[0], costs.shape[1]
    na = [len(a) for a, _ in continua]
    nb = [len(b) for _, b in continua]
    idx = np.arange(k)
    real = (idx[None, :, None] < np.array(na)[:, None, None]) & (idx[None, None, :] < np.array(nb)[:, None, None])
    as64 = costs.astype(np.float64)
    dd = np.where(real & (as64 <= 2.0 * empty), as64, np.inf)
    if soft:
        best_a, best_b = dd.min(axis=2), dd.min(axis=1)
        pair_a, pair_b = best_a < empty, best_b < empty
        m_a, m_b = np.where(pair_a, best_a, empty), np.where(pair_b, best_b, empty)
        gain = np.minimum(dd - m_a[:, :, None] - m_b[:, None, :], 0.0)
        arg_a, arg_b = dd.argmin(axis=2).tolist(), dd.argmin(axis=1).tolist()
        pair_a, pair_b = pair_a.tolist(), pair_b.tolist()
    else:
        gain = np.minimum(dd - 2.0 * empty, 0.0)
    out = []
    for i in range(n):
        a, b = na[i], nb[i]
        d = costs[i]
        matched = []
        if a and b:
            g = gain[i, :a, :b]
            rows, cols = linear_sum_assignment(g)
            matched = [(r, c) for r, c in zip(rows.tolist(), cols.tolist()) if g[r, c] < 0]
        done_a, done_b = {r for r, _ in matched}, {c for _, c in matched}
        if not soft:
            picked = matched + [(r, b) for r in range(a) if r not in done_a]
            picked += [(a, c) for c in range(b) if c not in done_b]
        else:
            chosen = set(matched)
            chosen.update((r, arg_a[i][r]) if pair_a[i][r] else (r, b) for r in range(a) if r not in done_a)
            chosen.update((arg_b[i][c], c) if pair_b[i][c] else (a, c) for c in range(b) if c not in done_b)
            picked = list(chosen)
        # pygamma sums the chosen unitary alignments in the order it enumerates them (first
        # annotator's index fastest, the empty unit last), in float32
        picked.sort(key=lambda t: (t[1], t[0]))
        values = np.array([delta if (r == a or c == b) else d[r, c] for r, c in picked], dtype=np.float32)
        out.append(np.sum(values) / ((a + b) / 2))
    return out


class _Stream:
    """numpy's legacy ``RandomState`` as pygamma's sampler draws from it: ``normal`` (the polar
    method, its second value kept for the next call) and ``random_sample`` share one stream of
    doubles, read here in blocks. ``normal(loc, scale)`` and ``uniform()`` give exactly what
    ``RandomState(seed).normal(loc, scale)`` and ``.random_sample()`` give in the same order."""

    def __init__(self, seed: int):
        rs = np.random.RandomState(seed)
        blocks = iter(lambda: rs.random_sample(512).tolist(), None)  # never None: endless
        self.uniform = chain.from_iterable(blocks).__next__  # the next double of the stream
        self._gauss: float | None = None

    def normal(self, loc: float, scale: float) -> float:
        if self._gauss is not None:
            g, self._gauss = self._gauss, None
            return loc + scale * g
        uniform = self.uniform
        while True:
            x1 = 2.0 * uniform() - 1.0
            x2 = 2.0 * uniform() - 1.0
            r2 = x1 * x1 + x2 * x2
            if r2 < 1.0 and r2 != 0.0:
                break
        f = math.sqrt(-2.0 * math.log(r2) / r2)
        self._gauss = f * x1
        return loc + scale * (f * x2)


class _Sampler:
    """The statistics pygamma's sampler takes from a continuum, and its draws."""

    def __init__(self, units: list[list[tuple[float, float, int]]], n_categories: int):
        gaps = [0.0]
        for side in units:
            gaps.extend(b[0] - a[1] for a, b in zip(side, side[1:]))
        gaps.extend(side[0][0] for side in units if side and side[0][0] > 0)
        durations = [e - s for side in units for s, e, _ in side]
        counts = [len(side) for side in units]
        self.gap = (float(np.mean(gaps)), float(np.std(gaps)))
        self.duration = (float(np.mean(durations)), float(np.std(durations)))
        self.count = (float(np.mean(counts)), float(np.std(counts)))
        weights = np.zeros(n_categories)
        for side in units:
            for *_, c in side:
                weights[c] += 1
        weights /= sum(counts)
        cdf = weights.cumsum()
        self.cdf = (cdf / cdf[-1]).tolist()
        self.n_annotators = len(units)

    def sample(self, stream: _Stream) -> list[list[tuple[float, float, int]]]:
        out, total = [], 0
        normal, uniform, cdf = stream.normal, stream.uniform, self.cdf
        (gap_mu, gap_sd), (dur_mu, dur_sd) = self.gap, self.duration
        for _ in range(self.n_annotators):
            n = abs(int(normal(*self.count)))
            if total == 0:
                n = max(1, n)
            units = []
            last = 0
            for _ in range(n):
                start = last + normal(gap_mu, gap_sd)
                end = start + abs(normal(dur_mu, dur_sd))
                while end - start < SEGMENT_PRECISION:
                    end = start + abs(normal(dur_mu, dur_sd))
                units.append((start, end, bisect_right(cdf, uniform())))
                last = end
            total += n
            out.append(sorted(set(units)))
        return out


def continuum_gamma(
    units: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    *,
    soft: bool = SOFT_FUNCTION,
    alpha: float = ALPHA,
    beta: float = BETA,
    delta_empty: float = DELTA_EMPTY,
    n_samples: int = N_SAMPLES,
    seed: int = SEED,
):
    """γ of one continuum: ``units`` is, per annotator in the order of their names, the
    (start, end, category code) arrays of its spans, category codes in the order of the
    categories' labels. Returns what pygamma's ``GammaResults.gamma`` returns (a float32, or 1
    when the observed disorder is 0)."""
    if len(units) != 2:
        raise TooManyAnnotators(
            f"γ here aligns exactly two annotators; this continuum has {len(units)} "
            "(choose one annotator group per side, e.g. stage1/A)"
        )
    a, b = (_units(*u) for u in units)
    n_categories = max(c for *_, c in a + b) + 1
    sampler = _Sampler([a, b], n_categories)
    stream = _Stream(seed)
    continua = [(a, b)] + [tuple(sampler.sample(stream)) for _ in range(n_samples)]
    observed, *chance = _disorders(continua, soft, alpha, beta, delta_empty)
    expected = float(np.mean(chance))
    if observed == 0:
        return 1
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1 - observed / expected


def gamma_per_example(
    spans: pd.DataFrame,
    examples: pd.DataFrame,
    *,
    soft: bool = SOFT_FUNCTION,
    alpha: float = ALPHA,
    beta: float = BETA,
    delta_empty: float = DELTA_EMPTY,
) -> pd.DataFrame:
    """γ or S∅ of every example of ``examples`` (columns ``KEY``).

    ``spans`` has columns ``SPAN_COLUMNS``: the key, ``annotator`` (a name; names sort as
    factgenie's ``"<campaign>-anngroup-<group>"``), ``start``, ``end`` and ``label`` (the
    category as factgenie names it: its index as a string). Returns columns ``EXAMPLE_COLUMNS``:
    per example the number of annotators and of (non-empty) spans, ``gamma`` (NaN where fewer
    than two annotators marked something) and ``s_empty`` (NaN where γ is defined).
    """
    ex = examples[KEY].drop_duplicates().reset_index(drop=True)
    sp = spans.loc[spans["start"] != spans["end"], SPAN_COLUMNS]
    sp = sp.merge(ex.reset_index().rename(columns={"index": "_ex"}), on=KEY)
    labels = sorted(set(sp["label"].astype(str)))
    code = {lab: i for i, lab in enumerate(labels)}
    sp = sp.assign(_cat=sp["label"].astype(str).map(code)).sort_values(["_ex", "annotator"], kind="stable")
    ex_of = sp["_ex"].to_numpy()
    who = sp["annotator"].astype(str).to_numpy()
    start, end, cat = (sp[c].to_numpy() for c in ("start", "end", "_cat"))
    bounds = np.searchsorted(ex_of, np.arange(len(ex) + 1))
    gammas = np.full(len(ex), np.nan)
    s_empty = np.full(len(ex), np.nan)
    n_ann = np.zeros(len(ex), int)
    values: list = [None] * len(ex)
    for i in range(len(ex)):
        lo, hi = bounds[i], bounds[i + 1]
        names, first = np.unique(who[lo:hi], return_index=True)
        n_ann[i] = names.size
        if names.size < 2:
            s_empty[i] = 1 / (1 + (hi - lo))
            continue
        cuts = [*(lo + first).tolist(), hi]
        units = []
        for k in range(names.size):
            part = slice(cuts[k], cuts[k + 1])
            labs = cat[part]
            units.append((start[part], end[part], labs))
        if names.size > 2:
            key = ", ".join(f"{c}={v}" for c, v in zip(KEY, ex.iloc[i]))
            raise TooManyAnnotators(
                f"example {key} has {names.size} annotators ({', '.join(names)}); γ here aligns two: "
                "choose one annotator group per side"
            )
        values[i] = continuum_gamma(units, soft=soft, alpha=alpha, beta=beta, delta_empty=delta_empty)
        gammas[i] = float(values[i])
    out = ex.copy()
    out["annotators"] = n_ann
    out["spans"] = np.diff(bounds)
    out["gamma"] = gammas
    out["s_empty"] = s_empty
    out.attrs["raw_gamma"] = values  # pygamma's own types, for factgenie's mean
    return out


# --- γ per pair (analyses.span_gamma) ---


def _with_names(spans: pd.DataFrame) -> pd.DataFrame:
    """Spans with factgenie's annotator names and category labels (the type's index)."""
    return spans.assign(
        annotator=[annotator_id(c, g) for c, g in zip(spans["campaign"], spans["annotator_group"])],
        label=spans["type_idx"].astype(str),
    )


def gamma_pairwise(
    corpus, comparisons: list[dict] | None = None, soft: bool = SOFT_CLI
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per pair of annotator sets: mean γ and mean S∅, and the per-example values behind them.

    Returns ``(pairs, examples)``: ``pairs`` has columns :data:`GAMMA_PAIR_COLUMNS` (means NaN where
    undefined), ``examples`` the key, ``gamma``, ``s_empty`` and ``row`` (the row of ``pairs``).
    ``soft`` as :func:`hotelcheckspan.span_gamma` (default hard, factgenie's ``iaa gamma``).
    """
    spans = _with_names(corpus.spans)
    campaign, group = spans["campaign"].to_numpy(), spans["annotator_group"].to_numpy()
    rows, frames = [], []
    for name, ref_set, hyp_set, _, _, ex in iter_pairs(corpus, comparisons):
        corpus.categories_of(ref_set.campaign, hyp_set.campaign)  # raises when they cannot be compared
        # one mask over the named spans rather than the pair's two frames, which would hold a span
        # twice where the sets overlap (a campaign against one of its own groups)
        mine = np.zeros(len(spans), bool)
        for aset in (ref_set, hyp_set):
            mine |= (campaign == aset.campaign) & ((group == aset.group) if aset.group is not None else True)
        table = gamma_per_example(spans[mine], ex, soft=soft)
        g, s = table["gamma"], table["s_empty"]
        rows.append(
            {
                "comparison": name,
                "ref": ref_set.spec,
                "hyp": hyp_set.spec,
                "gamma": float(g.mean()) if g.notna().any() else float("nan"),
                "s_empty": float(s.mean()) if s.notna().any() else float("nan"),
                "gamma_examples": int(g.notna().sum()),
                "s_empty_examples": int(s.notna().sum()),
                "examples": len(table),
            }
        )
        frames.append(table[[*KEY, "gamma", "s_empty"]].assign(row=len(rows) - 1))
    examples = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*KEY, "gamma", "s_empty"])
    return pd.DataFrame(rows, columns=GAMMA_PAIR_COLUMNS), examples


# --- the boundary schemes (metrics.boundaries) ---


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


def boundaries_per_example(
    ref: pd.DataFrame,
    hyp: pd.DataFrame,
    examples: pd.DataFrame,
    schemes=boundaries.SCHEMES,
    by_type: bool = False,
    categories: list[str] | None = None,
    min_overlap_percentage: float = 1.0,
) -> pd.DataFrame:
    """Per example, scheme and category (``"all"``, and each category present when ``by_type``),
    the counts ``correct, incorrect, partial, missed, spurious``.

    Frames as for :func:`.span_f1.per_example` (``record_id`` and ``order`` fix the span order).
    """
    unknown = set(schemes) - set(boundaries.SCHEMES)
    if unknown:
        raise ValueError(f"scheme must be among {', '.join(boundaries.SCHEMES)}, not {', '.join(sorted(unknown))}")
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
    frame = pd.DataFrame(rows, columns=["scheme", "category", "_ex", *boundaries.COUNTS])
    keys = ex_frame.iloc[frame["_ex"].to_numpy()].reset_index(drop=True)
    return pd.concat([frame[["scheme", "category"]], keys, frame[list(boundaries.COUNTS)]], axis=1)


# --- error counts (metrics.error_counts) ---


def present_categories(categories: list[str], *span_frames: pd.DataFrame) -> list[str]:
    """The categories (in ``categories`` order) that some span of ``span_frames`` has."""
    seen = set().union(*(set(f["type"]) for f in span_frames))
    return [c for c in categories if c in seen]


def count_matrix(spans: pd.DataFrame, examples: pd.DataFrame, categories: list[str]) -> np.ndarray:
    """(examples, categories) span counts of ``spans`` on the rows of ``examples`` (key columns)."""
    ex_codes, sp_codes = _key_codes([examples[KEY], spans[KEY]])
    size = int(max(ex_codes.max(initial=-1), sp_codes.max(initial=-1))) + 1
    lookup = np.full(size, -1, np.int64)
    lookup[ex_codes] = np.arange(ex_codes.size)
    row = lookup[sp_codes]
    col = pd.Index(categories).get_indexer(spans["type"].to_numpy())
    keep = (row >= 0) & (col >= 0)
    flat = np.bincount(row[keep] * len(categories) + col[keep], minlength=len(examples) * len(categories))
    return flat.reshape(len(examples), len(categories))


def error_counts_per_example(
    ref: pd.DataFrame, hyp: pd.DataFrame, examples: pd.DataFrame, categories: list[str]
) -> pd.DataFrame:
    """Per example and category, each side's number of spans (examples sorted by key, as
    factgenie's pivot sorts them; ``examples`` must be distinct)."""
    ex = examples[KEY].sort_values(KEY, kind="stable").reset_index(drop=True)
    r, h = count_matrix(ref, ex, categories), count_matrix(hyp, ex, categories)
    out = ex.loc[ex.index.repeat(len(categories))].reset_index(drop=True)
    out.insert(0, "category", np.tile(categories, len(ex)))
    out["ref_count"], out["hyp_count"] = r.ravel(), h.ravel()
    return out


def _pearson(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """scipy's pearsonr; NaN (silently) where a side is constant."""
    if len(x) < 2:
        raise ValueError("the correlation of error counts needs at least two examples")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's ConstantInputWarning: the result is NaN
        res = pearsonr(x.astype(float), y.astype(float))
    return float(res.statistic), float(res.pvalue)


def correlations(counts: pd.DataFrame) -> dict:
    """factgenie's figures from :func:`per_example` counts.

    Returns ``{micro_pearson, micro_p_value, macro_pearson, macro_p_value, examples,
    categories: {category: {pearson, p_value, ref_count, hyp_count}}}`` (NaN where undefined).
    """
    categories = list(dict.fromkeys(counts["category"]))
    if not categories:
        raise ValueError("neither side marked any span: there are no categories to correlate")
    r, h = counts["ref_count"].to_numpy(), counts["hyp_count"].to_numpy()
    micro = _pearson(r, h)
    per_cat = {}
    for c in categories:
        sel = counts["category"].to_numpy() == c
        rho, p = _pearson(r[sel], h[sel])
        per_cat[c] = {"pearson": rho, "p_value": p, "ref_count": int(r[sel].sum()), "hyp_count": int(h[sel].sum())}
    return {
        "micro_pearson": micro[0],
        "micro_p_value": micro[1],
        "macro_pearson": float(np.mean([v["pearson"] for v in per_cat.values()])),
        "macro_p_value": float(np.mean([v["p_value"] for v in per_cat.values()])),
        "examples": int(len(counts) // len(categories)),
        "categories": per_cat,
    }


# --- span_measures.pairs ---


def measures_pairs(corpus, comparisons: list[dict] | None = None) -> tuple[pd.DataFrame, list[dict]]:
    """Per pair of annotator sets: the book's hard span F1, each scheme's P/R/F1 and counts, and
    factgenie's micro and macro Pearson r of error counts.

    Returns ``(frame, per_example)``: ``frame`` has columns ``comparison, ref, hyp, examples,
    measure, value``; ``per_example`` holds, per pair, the per-example arrays the bootstrap
    resamples (the examples' keys, F1 counts, scheme counts, correlation sums).
    """
    comparisons = comparisons if comparisons is not None else span_level.load_comparisons()
    f1_pairs, f1_counts = span_level.pairwise(corpus, comparisons, matches=("hard",))
    rows, arrays = [], []
    for i, (name, ref_set, hyp_set, ref_sp, hyp_sp, ex) in enumerate(iter_pairs(corpus, comparisons)):
        f1_row = f1_pairs.iloc[i]
        assert (f1_row["ref"], f1_row["hyp"]) == (ref_set.spec, hyp_set.spec)
        ex = ex.drop_duplicates(KEY).sort_values(KEY, kind="stable").reset_index(drop=True)
        counts = boundaries_per_example(ref_sp, hyp_sp, ex, categories=corpus.categories)
        scheme_counts = {
            s: counts[counts["scheme"] == s][list(boundaries.COUNTS)].to_numpy(float) for s in boundaries.SCHEMES
        }
        present = present_categories(
            corpus.categories,
            *(corpus.spans[corpus.spans["campaign"] == c] for c in (ref_set.campaign, hyp_set.campaign)),
        )
        per_ex = error_counts_per_example(ref_sp, hyp_sp, ex, present)  # ``ex`` is sorted as it sorts
        x, y = (per_ex[c].to_numpy(float).reshape(len(ex), len(present)) for c in ("ref_count", "hyp_count"))
        sums = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1)  # (examples, categories, 6)
        corr = correlations(per_ex)
        f1c = f1_counts[f1_counts["row"] == i]
        f1_by_ex = (
            f1c.set_index(KEY)[span_level.COUNT_COLUMNS[:4]].reindex(pd.MultiIndex.from_frame(ex)).fillna(0).to_numpy()
        )
        values = {"F1 (book)": float(f1_row["f1"]), "Pearson r (micro)": corr["micro_pearson"]}
        values["Pearson r (macro)"] = corr["macro_pearson"]
        for s, label in SCHEME_LABELS.items():
            p, r, f = (float(v) for v in boundaries.prf(scheme_counts[s].sum(axis=0), s))
            values |= {f"{label} precision": p, f"{label} recall": r, f"{label} F1": f}
            for k, v in zip(boundaries.COUNTS, scheme_counts[s].sum(axis=0)):
                values[f"{label} {k}"] = int(v)
        for measure, value in values.items():
            rows.append(
                {
                    "comparison": name,
                    "ref": ref_set.spec,
                    "hyp": hyp_set.spec,
                    "examples": len(ex),
                    "measure": measure,
                    "value": value,
                }
            )
        arrays.append(
            {
                "comparison": name,
                "examples": ex,
                "f1": f1_by_ex,
                "schemes": scheme_counts,
                "sums": sums,
            }
        )
    return pd.DataFrame(rows), arrays


def _pearson_from_sums(s: np.ndarray) -> np.ndarray:
    """r from summed (n, x, y, xx, yy, xy) along the last axis; NaN where a side is constant."""
    n, x, y, xx, yy, xy = np.moveaxis(s, -1, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        cov = xy - x * y / n
        vx, vy = xx - x * x / n, yy - y * y / n
        return np.where((vx > 1e-12) & (vy > 1e-12), cov / np.sqrt(vx * vy), np.nan)


def measures_table(
    pair_frame: pd.DataFrame, per_example: list[dict], n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Per comparison, each measure of :data:`MEASURES` averaged over pairs, with its interval.

    Columns: ``comparison, pairs`` and per measure the estimate, ``<measure>_low`` and
    ``<measure>_high``. A pair whose correlation is undefined (a constant side) is left out of
    the correlation's mean, and so of its replicates.
    """
    out = []
    for comp in dict.fromkeys(pair_frame["comparison"]):
        mine = [a for a in per_example if a["comparison"] == comp]
        keys = pd.concat([a["examples"] for a in mine]).drop_duplicates().sort_values(KEY).reset_index(drop=True)
        at = pd.MultiIndex.from_frame(keys)
        weights = resampling.matrix(keys, n_boot, seed)  # the comparison's examples decide its replicates
        reps = {m: [] for m in MEASURES}
        for a in mine:
            w = weights[:, at.get_indexer(pd.MultiIndex.from_frame(a["examples"]))]  # (n_boot, examples of the pair)
            reps["F1 (book)"].append(span_level.prf(*(w @ a["f1"]).T)[2])
            for s, label in SCHEME_LABELS.items():
                reps[f"{label} F1"].append(boundaries.prf(w @ a["schemes"][s], s)[2])
            micro = np.einsum("be,ecs->bs", w, a["sums"])
            reps["Pearson r (micro)"].append(_pearson_from_sums(micro))
        est = pair_frame[pair_frame["comparison"] == comp].pivot_table(
            index=["ref", "hyp"], columns="measure", values="value", sort=False
        )
        row = {"comparison": comp, "pairs": len(mine)}
        for m in MEASURES:
            row[m] = float(est[m].mean())
            stacked = np.stack(reps[m])  # (pairs, n_boot)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # a replicate where every r is undefined
                low, high = resampling.interval(np.nanmean(stacked, axis=0), level)
            row[f"{m}_low"], row[f"{m}_high"] = low, high
        out.append(row)
    return pd.DataFrame(out)
