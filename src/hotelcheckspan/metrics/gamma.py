"""Mathet et al.'s γ between two annotator sets, exactly as factgenie 1.2.1 computes it, and fast.

factgenie's ``iaa gamma`` (``factgenie/iaa/gamma.py``, ``compute_gamma_scores``) scores each
example separately with pygamma-agreement 0.5.9: a continuum of both sides' spans (annotator =
``"<campaign>-anngroup-<group>"``, category = the type's index as a string, zero-length spans
dropped), ``np.random.seed(42)``, then ``compute_gamma(CombinedCategoricalDissimilarity(alpha,
beta, delta_empty), soft=...)``. An example where fewer than two annotators marked anything gets
no γ but S∅ = 1 / (1 + spans); the result is the mean γ and the mean S∅ (rounded to 3
decimals), γ of an example that fails being 0.0.

γ = 1 - observed disorder / expected disorder:

* the disorder of a continuum is the cost of its best alignment divided by the mean number of
  units per annotator. An alignment groups the units into unitary alignments of one unit per
  annotator or an empty unit; a pair costs ``alpha * pos + beta * cat`` with
  ``pos = ((|Δstart| + |Δend|) / (len1 + len2))² * delta_empty`` and ``cat`` 0 for equal types,
  1 otherwise (pygamma compiles its categorical part before setting ``delta_empty``, so it is
  always 1); a unit beside an empty one costs ``delta_empty``, and pairs dearer than
  ``2 * delta_empty`` are never considered. The hard alignment uses every unit exactly once
  (for two annotators: a min-cost assignment with empty units, ``linear_sum_assignment`` on a
  padded matrix); soft γ (pygamma's ``soft=True``) uses every unit at least once (a min-cost edge
  cover, reduced to an assignment on costs less each unit's cheapest option);
* the expected disorder is the mean disorder of 30 random continua drawn by pygamma's
  ``StatisticalContinuumSampler`` (normal numbers of units, gaps and durations with the
  continuum's means and deviations, categories by their frequency). pygamma draws from numpy's
  global generator in the calling thread right after ``np.random.seed(42)``; the same calls on a
  ``RandomState(42)`` give the same continua, without touching the global generator.

Every step keeps pygamma's float32 arithmetic and summation order, so the values are the
same as pygamma's (tested per example against factgenie's own function). Limit: two annotators
per example (a comparison of two single-group sets, or of sets whose campaigns have one group on
the example); more raise :class:`TooManyAnnotators` (pygamma's exact search is exponential in
the number of annotators).

factgenie's two defaults differ: its Python function ``compute_gamma`` has ``soft_gamma=True``,
its command line ``factgenie iaa gamma`` computes hard γ unless ``--soft_gamma`` is given.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from itertools import chain

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment

from ..corpora import KEY

ALPHA = BETA = DELTA_EMPTY = 1.0  # factgenie's defaults (function and command line)
N_SAMPLES = 30  # pygamma's default number of sampled continua
SEED = 42  # factgenie seeds numpy's global generator with 42 before every example
SOFT_FUNCTION = True  # factgenie.iaa.gamma.compute_gamma(soft_gamma=True)
SOFT_CLI = False  # factgenie iaa gamma: --soft_gamma is a flag, off by default
SEGMENT_PRECISION = 1e-6  # pyannote.core's shortest segment

SPAN_COLUMNS = [*KEY, "annotator", "start", "end", "label"]
EXAMPLE_COLUMNS = [*KEY, "annotators", "spans", "gamma", "s_empty"]


class TooManyAnnotators(ValueError):
    """An example with more than two annotators (this implementation aligns two)."""


def annotator_id(campaign: str, group) -> str:
    """factgenie's annotator name of a span: ``"<campaign>-anngroup-<group>"``."""
    return f"{campaign}-anngroup-{'all' if group is None else group}"


# --- one continuum --------------------------------------------------------------------------------
# A continuum of two annotators is a pair of unit lists, each sorted as pygamma sorts its units
# (start, end, category) without duplicates: pygamma keeps an annotator's units in a sorted set.


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


# --- pygamma's StatisticalContinuumSampler --------------------------------------------------------


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


# --- one example ----------------------------------------------------------------------------------


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


def per_example(
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


def summary(table: pd.DataFrame) -> dict:
    """factgenie's result from a :func:`per_example` table: ``gamma_scores``, ``s_empty_scores``
    (the defined values, in example order), ``gamma_mean`` and ``s_empty_mean`` (its means
    rounded to 3 decimals, 0.0 when none) and ``example_count``; plus ``gamma`` and ``s_empty``,
    the same means unrounded (None when none)."""
    raw = table.attrs.get("raw_gamma") or [None if np.isnan(g) else g for g in table["gamma"]]
    gamma_scores = [g for g in raw if g is not None and not np.isnan(g)]
    s_empty_scores = [s for s in table["s_empty"].tolist() if not np.isnan(s)]
    gamma_mean = float(np.nanmean(gamma_scores)) if gamma_scores else 0.0
    s_empty_mean = float(np.nanmean(s_empty_scores)) if s_empty_scores else 0.0
    return {
        "gamma_scores": [float(g) for g in gamma_scores],
        "s_empty_scores": s_empty_scores,
        "gamma_mean": round(gamma_mean, 3),
        "s_empty_mean": round(s_empty_mean, 3),
        "example_count": len(table),
        "gamma": gamma_mean if gamma_scores else None,
        "s_empty": s_empty_mean if s_empty_scores else None,
    }
