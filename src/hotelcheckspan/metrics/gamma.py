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
_FAR = 1e12  # cost of an alignment pygamma never considers

SPAN_COLUMNS = [*KEY, "annotator", "start", "end", "label"]
EXAMPLE_COLUMNS = [*KEY, "annotators", "spans", "gamma", "s_empty"]


class TooManyAnnotators(ValueError):
    """An example with more than two annotators (this implementation aligns two)."""


def annotator_id(campaign: str, group) -> str:
    """factgenie's annotator name of a span: ``"<campaign>-anngroup-<group>"``."""
    return f"{campaign}-anngroup-{'all' if group is None else group}"


# --- one continuum --------------------------------------------------------------------------------


class _Units:
    """One annotator's units in pygamma's order (start, end, category), duplicates removed."""

    __slots__ = ("start", "end", "cat", "s32", "e32", "d32")

    def __init__(self, start: np.ndarray, end: np.ndarray, cat: np.ndarray):
        order = np.lexsort((cat, end, start))
        start, end, cat = start[order], end[order], cat[order]
        if start.size > 1:
            keep = np.ones(start.size, bool)
            keep[1:] = (start[1:] != start[:-1]) | (end[1:] != end[:-1]) | (cat[1:] != cat[:-1])
            start, end, cat = start[keep], end[keep], cat[keep]
        self.start, self.end, self.cat = start, end, cat
        self.s32 = start.astype(np.float32)
        self.e32 = end.astype(np.float32)
        self.d32 = (end - start).astype(np.float32)  # pyannote's duration, then float32

    def __len__(self) -> int:
        return self.start.size


def _costs(a: _Units, b: _Units, alpha: float, beta: float, delta: np.float32) -> np.ndarray:
    """(len a, len b) float32 pair costs as pygamma's compiled dissimilarity computes them."""
    ds = np.abs(a.s32[:, None] - b.s32[None, :])
    de = np.abs(a.e32[:, None] - b.e32[None, :])
    pos = (ds + de) / (a.d32[:, None] + b.d32[None, :])
    pos = pos * pos * delta
    cat = (a.cat[:, None] != b.cat[None, :]).astype(np.float64)
    return (alpha * pos.astype(np.float64) + beta * cat).astype(np.float32)


def _disorder(a: _Units, b: _Units, soft: bool, alpha: float, beta: float, delta: np.float32) -> np.float32:
    """The disorder of the best (hard) or best soft alignment of a two-annotator continuum;
    ``a`` is the annotator whose name sorts first."""
    na, nb = len(a), len(b)
    d = _costs(a, b, alpha, beta, delta)
    dd = d.astype(np.float64)
    valid = dd <= 2.0 * float(delta)
    empty = float(delta)
    chosen: list[tuple[int, int, np.float32]] = []  # (index in a, index in b, cost); n = empty unit
    if not soft:
        n = na + nb
        cost = np.full((n, n), _FAR)
        cost[:na, :nb] = np.where(valid, dd, _FAR)
        cost[np.arange(na), nb + np.arange(na)] = empty
        cost[na + np.arange(nb), np.arange(nb)] = empty
        cost[na:, nb:] = 0.0
        rows, cols = linear_sum_assignment(cost)
        for r, c in zip(rows.tolist(), cols.tolist()):
            if r < na:
                chosen.append((r, c, d[r, c]) if c < nb else (r, nb, delta))
            elif c < nb:
                chosen.append((na, c, delta))
    else:
        masked = np.where(valid, dd, np.inf)
        best_a = masked.min(axis=1, initial=np.inf)
        best_b = masked.min(axis=0, initial=np.inf)
        pair_a = best_a < empty
        pair_b = best_b < empty
        m_a = np.where(pair_a, best_a, empty)
        m_b = np.where(pair_b, best_b, empty)
        gain = np.where(valid, dd - m_a[:, None] - m_b[None, :], 0.0)
        gain = np.minimum(gain, 0.0)
        covered_a, covered_b = np.zeros(na, bool), np.zeros(nb, bool)
        picked = set()
        if na and nb:
            for r, c in zip(*linear_sum_assignment(gain)):
                if gain[r, c] < 0:
                    picked.add((int(r), int(c)))
                    covered_a[r] = covered_b[c] = True
        arg_a = masked.argmin(axis=1) if nb else np.zeros(na, int)
        arg_b = masked.argmin(axis=0) if na else np.zeros(nb, int)
        for i in np.flatnonzero(~covered_a).tolist():
            picked.add((i, int(arg_a[i])) if pair_a[i] else (i, nb))
        for j in np.flatnonzero(~covered_b).tolist():
            picked.add((int(arg_b[j]), j) if pair_b[j] else (na, j))
        chosen = [(i, j, delta if (i == na or j == nb) else d[i, j]) for i, j in picked]
    # pygamma sums the chosen unitary alignments in the order it enumerates them (first
    # annotator's index fastest, the empty unit last), in float32
    chosen.sort(key=lambda t: (t[1], t[0]))
    total = np.sum(np.array([c for _, _, c in chosen], dtype=np.float32))
    return total / ((na + nb) / 2)


# --- pygamma's StatisticalContinuumSampler --------------------------------------------------------


class _Sampler:
    """The statistics pygamma's sampler takes from a continuum, and its draws."""

    def __init__(self, units: list[_Units], n_categories: int):
        gaps = [0.0]
        for u in units:
            gaps.extend((u.start[1:] - u.end[:-1]).tolist())
        gaps.extend(float(u.start[0]) for u in units if len(u) and u.start[0] > 0)
        durations = np.concatenate([u.end - u.start for u in units])
        counts = [len(u) for u in units]
        self.gap = (float(np.mean(gaps)), float(np.std(gaps)))
        self.duration = (float(np.mean(durations)), float(np.std(durations)))
        self.count = (float(np.mean(counts)), float(np.std(counts)))
        weights = np.zeros(n_categories)
        for u in units:
            np.add.at(weights, u.cat, 1)
        weights /= sum(counts)
        cdf = weights.cumsum()
        self.cdf = cdf / cdf[-1]
        self.n_annotators = len(units)

    def sample(self, rs: np.random.RandomState) -> list[_Units]:
        out, total = [], 0
        normal, uniform = rs.normal, rs.random_sample
        for _ in range(self.n_annotators):
            n = abs(int(normal(*self.count)))
            if total == 0:
                n = max(1, n)
            starts, ends, cats = [], [], []
            last = 0
            for _ in range(n):
                start = last + normal(*self.gap)
                end = start + abs(normal(*self.duration))
                while end - start < SEGMENT_PRECISION:
                    end = start + abs(normal(*self.duration))
                cats.append(int(self.cdf.searchsorted(uniform(), side="right")))
                starts.append(start)
                ends.append(end)
                last = end
            total += n
            out.append(_Units(np.array(starts, float), np.array(ends, float), np.array(cats, np.int64)))
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
    a, b = (_Units(np.asarray(s, float), np.asarray(e, float), np.asarray(c, np.int64)) for s, e, c in units)
    delta = np.float32(delta_empty)
    observed = _disorder(a, b, soft, alpha, beta, delta)
    n_categories = int(max(a.cat.max(initial=-1), b.cat.max(initial=-1))) + 1
    sampler = _Sampler([a, b], n_categories)
    rs = np.random.RandomState(seed)
    chance = [_disorder(*sampler.sample(rs), soft, alpha, beta, delta) for _ in range(n_samples)]
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
