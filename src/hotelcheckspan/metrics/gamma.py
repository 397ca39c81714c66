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
  global generator in the calling thread right after ``np.random.seed(42)``; the same draws are
  read here from a ``RandomState(42)`` stream, without touching the global generator.

Every step keeps pygamma's float32 arithmetic and summation order, so the values are the
same as pygamma's (tested per example against factgenie's own function). Limit: two annotators
per example (a comparison of two single-group sets, or of sets whose campaigns have one group on
the example); more raise :class:`TooManyAnnotators` (pygamma's exact search is exponential in
the number of annotators).

Speed: every continuum of a run (all the examples of all the pairs of a table, and their 30
chance continua each) is one :class:`Continua` batch of flat unit arrays. The sampler draws for
every continuum at once: each continuum reads the same seeded stream of doubles at its own
position, numpy's legacy normal (the polar method, which keeps its second value for the next
call) is a look-up in arrays computed once per stream, and since a sampled unit reads one
accepted pair and one double whatever its values, every unit's place in the stream follows from
its row's first by binary lifting (a continuum whose draws include a duration drawn again is
drawn step by step). Alignment costs are computed per shape (units of each annotator) on whole
arrays; where no unit could pair with two others the best matching is every cheap pair, where
the units of one side have one cheap partner each it is the cheapest pair of each unit of the
other side, elsewhere ``linear_sum_assignment`` decides; float32 sums are taken row-wise over
rows of one length, which is numpy's summation of each row alone. The one-continuum-at-a-time
reference these replace is kept in ``tests/beyond_f1_reference.py``.

factgenie's two defaults differ: its Python function ``compute_gamma`` has ``soft_gamma=True``,
its command line ``factgenie iaa gamma`` computes hard γ unless ``--soft_gamma`` is given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
# a matching gain closer to zero than this is left to linear_sum_assignment rather than taken as
# certainly part of the best matching (its float arithmetic could round it away)
_CLEAR_GAIN = 1e-9

SPAN_COLUMNS = [*KEY, "annotator", "start", "end", "label"]
EXAMPLE_COLUMNS = [*KEY, "annotators", "spans", "gamma", "s_empty"]


class TooManyAnnotators(ValueError):
    """An example with more than two annotators (this implementation aligns two)."""


def annotator_id(campaign: str, group) -> str:
    """factgenie's annotator name of a span: ``"<campaign>-anngroup-<group>"``."""
    return f"{campaign}-anngroup-{'all' if group is None else group}"


def too_many_message(key: str, names) -> str:
    """The error of an example with more than two annotators (``key``: the example, ``names``:
    its annotators' names, sorted)."""
    return (
        f"example {key} has {len(names)} annotators ({', '.join(names)}); γ here aligns two: "
        "choose one annotator group per side"
    )


# --- continua in batches --------------------------------------------------------------------------


@dataclass(frozen=True)
class Continua:
    """``n`` two-annotator continua as flat unit arrays: per unit its continuum, side (0: the
    annotator whose name sorts first), start, end and category code (codes ordered as the
    categories' labels). Sorted as pygamma keeps an annotator's units, by (start, end,
    category) without duplicates, continuum by continuum and side by side."""

    n: int
    cont: np.ndarray
    side: np.ndarray
    start: np.ndarray
    end: np.ndarray
    cat: np.ndarray

    @classmethod
    def build(cls, n: int, cont, side, start, end, cat) -> Continua:
        cont, side, cat = (np.asarray(a, np.int64) for a in (cont, side, cat))
        start, end = np.asarray(start, np.float64), np.asarray(end, np.float64)
        group = cont * 2 + side
        o = np.argsort(start)  # (numpy's fast sort; its order of equal starts is settled below)
        o = o[np.argsort(group[o], kind="stable")]
        g, s = group[o], start[o]
        if ((g[1:] == g[:-1]) & (s[1:] == s[:-1])).any():
            # units of one annotator starting together: order them by end and category, drop repeats
            o = np.lexsort((cat, end, start, group))
            g, s, e, c = group[o], start[o], end[o], cat[o]
            keep = np.r_[True, ~((g[1:] == g[:-1]) & (s[1:] == s[:-1]) & (e[1:] == e[:-1]) & (c[1:] == c[:-1]))]
            o, g, s = o[keep], g[keep], s[keep]
        return cls(int(n), g >> 1, g & 1, s, end[o], cat[o])

    def sizes(self) -> tuple[np.ndarray, np.ndarray]:
        """Units of each side, per continuum."""
        return (
            np.bincount(self.cont[self.side == 0], minlength=self.n),
            np.bincount(self.cont[self.side == 1], minlength=self.n),
        )


def _row_stats(owner: np.ndarray, values: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.mean`` and ``np.std`` of each owner's values (``values`` grouped by owner, in order):
    rows of one length are stacked, and numpy reduces each row of a stack as it reduces the row
    alone."""
    mean, std = np.full(n, np.nan), np.full(n, np.nan)
    lengths = np.bincount(owner, minlength=n)
    starts = np.cumsum(lengths) - lengths
    for length in np.unique(lengths[lengths > 0]):
        rows = np.flatnonzero(lengths == length)
        block = values[starts[rows, None] + np.arange(length)]
        mean[rows], std[rows] = block.mean(axis=1), block.std(axis=1)
    return mean, std


@dataclass(frozen=True)
class _Statistics:
    """What pygamma's sampler takes from each continuum: mean and deviation of the number of
    units per annotator, of the gaps and of the durations, and the categories' cumulative shares
    (one row per continuum)."""

    count: tuple[np.ndarray, np.ndarray]
    gap: tuple[np.ndarray, np.ndarray]
    duration: tuple[np.ndarray, np.ndarray]
    cdf: np.ndarray


def _statistics(c: Continua) -> _Statistics:
    na, nb = c.sizes()
    first = np.r_[True, (c.cont[1:] != c.cont[:-1]) | (c.side[1:] != c.side[:-1])] if c.cont.size else np.zeros(0, bool)
    # pygamma's gaps: 0, then each side's gaps between consecutive units, then each side's first
    # start where it is positive, in that order
    inner = np.flatnonzero(~first)
    lead = np.flatnonzero(first & (c.start > 0))
    owner = np.concatenate([np.arange(c.n), c.cont[inner], c.cont[lead]])
    slot = np.concatenate([np.zeros(c.n, np.int64), 1 + c.side[inner], 3 + c.side[lead]])
    position = np.concatenate([np.zeros(c.n, np.int64), inner, lead])
    values = np.concatenate([np.zeros(c.n), c.start[inner] - c.end[inner - 1], c.start[lead]])
    o = np.lexsort((position, slot, owner))
    gap = _row_stats(owner[o], values[o], c.n)
    duration = _row_stats(c.cont, c.end - c.start, c.n)
    counts = np.stack([na, nb], axis=1)
    n_cat = int(c.cat.max(initial=0)) + 1
    weights = np.bincount(c.cont * n_cat + c.cat, minlength=c.n * n_cat).reshape(c.n, n_cat).astype(float)
    weights /= (na + nb)[:, None]
    cdf = weights.cumsum(axis=1)
    return _Statistics((counts.mean(axis=1), counts.std(axis=1)), gap, duration, cdf / cdf[:, -1:])


class _StreamTooShort(Exception):
    """The precomputed stream of doubles ran out: draw again from a longer one."""


class _Streams:
    """numpy's legacy ``RandomState(seed)`` as pygamma's sampler reads it, for many continua at
    once, each at its own position of the same stream of doubles.

    ``normal(loc, scale)`` is the polar method: pairs of doubles are drawn until one falls in
    the unit disc, the first value is returned and the second kept for the next ``normal`` call;
    ``uniform()`` is the next double. Which pair is accepted from a position, and its two
    values, are computed once for every position of the stream (``log`` is the C library's, as
    numpy's, through ``math.log``).

    A unit of a sampled annotator reads two normals and a uniform: one accepted pair (its first
    value and, kept from before or kept for after, a second one) and the double after it, and it
    leaves the kept value's presence as it found it. From a unit's position the next unit's is
    therefore ``next_ok + 3``, whatever the values: :meth:`places` follows that map i steps
    at once (binary lifting), for every unit of every continuum."""

    def __init__(self, n: int, seed: int, length: int):
        u = np.random.RandomState(seed).random_sample(length)
        x = 2.0 * u - 1.0
        r2 = x[:-1] * x[:-1] + x[1:] * x[1:]  # the pair read from each position
        ok = (r2 < 1.0) & (r2 != 0.0)
        f = np.full(r2.size + 1, np.nan)
        f[:-1][ok] = np.sqrt(-2.0 * np.fromiter(map(math.log, r2[ok].tolist()), float, int(ok.sum())) / r2[ok])
        self.first = f * np.r_[x[1:], np.nan]  # returned: f * x2
        self.second = f * np.r_[x[:-1], np.nan]  # kept: f * x1
        self.limit = r2.size  # no accepted pair from here on (or beyond the stream)
        self.next_ok = np.full(length + 4, self.limit, np.int64)
        for parity in (0, 1):
            idx = np.arange(parity, r2.size, 2)
            cand = np.where(ok[idx], idx, self.limit)
            self.next_ok[idx] = np.minimum.accumulate(cand[::-1])[::-1]
        self.u = u
        self.pos = np.zeros(n, np.int64)
        self.kept = np.zeros(n, bool)
        self.value = np.zeros(n)
        # a unit's map, the last place standing for "beyond the stream" (a pair and a double after it)
        beyond = self.next_ok.size
        step = np.where(self.next_ok + 2 < length, self.next_ok + 3, beyond)
        self._jumps = [np.r_[np.minimum(step, beyond), beyond]]

    def normal(self, rows: np.ndarray, loc: np.ndarray, scale: np.ndarray) -> np.ndarray:
        kept = self.kept[rows]
        q = self.next_ok[self.pos[rows]]
        fresh = ~kept
        if (q[fresh] >= self.limit).any():
            raise _StreamTooShort
        g = np.where(kept, self.value[rows], self.first[q])
        drawn = rows[fresh]
        self.value[drawn] = self.second[q[fresh]]
        self.pos[drawn] = q[fresh] + 2
        self.kept[rows] = fresh
        return loc + scale * g

    def uniform(self, rows: np.ndarray) -> np.ndarray:
        p = self.pos[rows]
        if (p >= self.u.size).any():
            raise _StreamTooShort
        self.pos[rows] = p + 1
        return self.u[p]

    def places(self, start: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The position ``steps`` units after ``start`` (elementwise)."""
        pos = start.copy()
        for k in range(int(steps.max(initial=0)).bit_length()):
            while len(self._jumps) <= k:
                self._jumps.append(self._jumps[-1][self._jumps[-1]])
            jump = ((steps >> k) & 1).astype(bool)
            pos[jump] = self._jumps[k][pos[jump]]
        if (pos >= self.next_ok.size).any():
            raise _StreamTooShort
        return pos


def _sample(stats: _Statistics, n_samples: int, seed: int) -> Continua:
    """pygamma's ``StatisticalContinuumSampler``: ``n_samples`` continua drawn for each
    continuum (the draws of continuum i are numbered i * n_samples + j), each continuum's draws
    from its own ``RandomState(seed)``. A continuum whose draws include a duration too short for
    pyannote (drawn again: one normal more, which shifts the stream) is drawn again step by step."""
    # doubles a continuum reads: a normal takes 4 / pi pairs on average, a unit two normals and a
    # uniform; with room for the largest draws (a short stream is drawn again, longer)
    units = np.abs(stats.count[0]) + 3 * stats.count[1] + 1
    need = n_samples * 2 * (1.3 + units * (2 * 1.3 + 1)) if len(units) else np.zeros(1)
    length = 1 << max(10, int(np.ceil(np.log2(1.5 * need.max() + 64))))
    n, per = len(stats.cdf), 2 * n_samples  # rows (sample, annotator) per continuum
    while True:
        try:
            counts, *units, redrawn = _sample_units(stats, n_samples, _Streams(n, seed, length))
            if redrawn.any():
                again = np.flatnonzero(redrawn)
                part = _Statistics(
                    *(tuple(a[again] for a in st) for st in (stats.count, stats.gap, stats.duration)), stats.cdf[again]
                )
                counts[again], *more = _sample_steps(part, n_samples, _Streams(again.size, seed, length))
                more[0] = again[more[0] // per] * per + more[0] % per  # rows of the whole batch
                mine = ~redrawn[units[0] // per]
                units = [np.concatenate([a[mine], b]) for a, b in zip(units, more)]
            return _drawn_continua(n * n_samples, counts.ravel(), *units)
        except _StreamTooShort:
            length *= 4


def _sample_units(stats: _Statistics, n_samples: int, streams: _Streams):
    """Every sampled unit at once. The stream is followed row by row (sample, annotator) for
    the positions only: the number of units (a normal), the place of the row's first unit and
    what is kept from before it; then every unit's place is found from its row's first
    (:meth:`_Streams.places`) and its values read at once. Returns the units drawn per
    (continuum, sample, annotator), the units (row = (continuum * n_samples + sample) * 2 +
    annotator, rank in the row, start, end, category) and which continua drew a duration again
    (their units here are not pygamma's)."""
    n = len(stats.cdf)
    everyone = np.arange(n)
    shape = (n, n_samples, 2)
    counts, begin = np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    kept, value = np.zeros(shape, bool), np.zeros(shape)
    for j in range(n_samples):
        total = np.zeros(n, np.int64)
        for side in (0, 1):
            drawn = np.abs(np.trunc(streams.normal(everyone, *stats.count))).astype(np.int64)
            drawn = np.where(total == 0, np.maximum(drawn, 1), drawn)
            total += drawn
            counts[:, j, side], begin[:, j, side] = drawn, streams.pos
            kept[:, j, side], value[:, j, side] = streams.kept, streams.value
            # past the row: after its last unit's pair and double; a kept value is that pair's second
            rows = everyone[drawn > 0]
            q = streams.next_ok[streams.places(streams.pos[rows], drawn[rows] - 1)]
            if (q + 2 >= streams.u.size).any():
                raise _StreamTooShort
            streams.pos[rows] = q + 3
            held = streams.kept[rows]
            streams.value[rows[held]] = streams.second[q[held]]
    counts, begin, kept, value = counts.ravel(), begin.ravel(), kept.ravel(), value.ravel()
    row = np.repeat(np.arange(counts.size), counts)
    firsts = np.cumsum(counts) - counts
    index = np.arange(row.size) - firsts[row]
    q = streams.next_ok[streams.places(begin[row], index)]
    if (q + 2 >= streams.u.size).any():
        raise _StreamTooShort
    first, second = streams.first[q], streams.second[q]
    held, cont = kept[row], row // (2 * n_samples)
    before = np.where(index == 0, value[row], np.r_[np.nan, second[:-1]])  # kept from before
    (gap_mu, gap_sd), (dur_mu, dur_sd) = stats.gap, stats.duration
    gap = gap_mu[cont] + gap_sd[cont] * np.where(held, before, first)
    duration = np.abs(dur_mu[cont] + dur_sd[cont] * np.where(held, first, second))
    # start and end: each row's running sum in the sampler's order (0, + gap, + duration, ...)
    start, end = np.empty(row.size), np.empty(row.size)
    for length in np.unique(counts[counts > 0]).tolist():
        at = firsts[counts == length, None] + np.arange(length)
        running = np.zeros((at.shape[0], 2 * length + 1))
        running[:, 1::2], running[:, 2::2] = gap[at], duration[at]
        running = np.cumsum(running, axis=1)
        start[at], end[at] = running[:, 1::2], running[:, 2::2]
    redrawn = np.zeros(n, bool)
    redrawn[cont[end - start < SEGMENT_PRECISION]] = True
    cat = (stats.cdf[cont] <= streams.u[q + 2][:, None]).sum(axis=1)  # bisect_right
    return counts.reshape(shape), row, index, start, end, cat, redrawn


def _sample_steps(stats: _Statistics, n_samples: int, streams: _Streams):
    """:func:`_sample_units` one unit at a time, each normal and uniform read in the sampler's
    order: for continua whose draws include a duration drawn again."""
    n = len(stats.cdf)
    everyone = np.arange(n)
    (gap_mu, gap_sd), (dur_mu, dur_sd) = stats.gap, stats.duration
    counts = np.zeros((n, n_samples, 2), np.int64)
    parts = []
    for j in range(n_samples):
        total = np.zeros(n, np.int64)
        for side in (0, 1):
            drawn = np.abs(np.trunc(streams.normal(everyone, *stats.count))).astype(np.int64)
            drawn = np.where(total == 0, np.maximum(drawn, 1), drawn)
            counts[:, j, side] = drawn
            last = np.zeros(n)
            active, i = everyone[drawn > 0], 0
            while active.size:
                start = last[active] + streams.normal(active, gap_mu[active], gap_sd[active])
                end = start + np.abs(streams.normal(active, dur_mu[active], dur_sd[active]))
                short = np.flatnonzero(end - start < SEGMENT_PRECISION)
                while short.size:  # pyannote's shortest segment: the duration is drawn again
                    rows = active[short]
                    end[short] = start[short] + np.abs(streams.normal(rows, dur_mu[rows], dur_sd[rows]))
                    short = short[end[short] - start[short] < SEGMENT_PRECISION]
                u = streams.uniform(active)
                cat = (stats.cdf[active] <= u[:, None]).sum(axis=1)  # bisect_right
                parts.append(((active * n_samples + j) * 2 + side, np.full(active.size, i), start, end, cat))
                last[active] = end
                i += 1
                active = active[drawn[active] > i]
            total += drawn
    return counts, *(np.concatenate(a) for a in zip(*parts))


def _drawn_continua(n: int, counts, row, index, start, end, cat) -> Continua:
    """The sampled continua from their units: ``row`` is (continuum, annotator) as continuum * 2
    + side, ``index`` the unit's rank in its row's draws, ``counts`` the units of each row. Units
    are placed row by row in the order drawn; only rows whose starts go backwards are sorted."""
    firsts = np.cumsum(counts) - counts
    order = np.empty(row.size, np.int64)
    order[firsts[row] + index] = np.arange(row.size)
    placed, s = row[order], start[order]
    inner = placed[1:] == placed[:-1]
    backwards = np.zeros(counts.size, bool)
    backwards[placed[1:][inner & (s[1:] < s[:-1])]] = True
    for length in np.unique(counts[backwards]).tolist():  # rows of one length sorted together
        at = firsts[backwards & (counts == length), None] + np.arange(length)
        by_start = np.argsort(s[at], axis=1, kind="stable")
        order[at] = np.take_along_axis(order[at], by_start, axis=1)
        s[at] = np.take_along_axis(s[at], by_start, axis=1)
    if (inner & (s[1:] == s[:-1])).any():  # units starting together: ordered by end and category
        return Continua.build(n, row >> 1, row & 1, start, end, cat)
    return Continua(n, placed >> 1, placed & 1, s, end[order], cat[order])


# --- disorders ------------------------------------------------------------------------------------


def _shape_costs(c: Continua, off: np.ndarray, a: int, b: int, alpha: float, beta: float, delta: np.float32):
    """(len(off), a, b) float32 pair costs of the continua whose units start at ``off``, with
    ``a`` and ``b`` units, as pygamma's compiled dissimilarity computes them: float32 positional
    part, categorical part 0 or 1, combined in float64 and stored as float32."""
    ia, ib = off[:, None] + np.arange(a), off[:, None] + a + np.arange(b)
    s32a, s32b = c.start[ia].astype(np.float32), c.start[ib].astype(np.float32)
    e32a, e32b = c.end[ia].astype(np.float32), c.end[ib].astype(np.float32)
    d32a = (c.end[ia] - c.start[ia]).astype(np.float32)  # pyannote's duration, then float32
    d32b = (c.end[ib] - c.start[ib]).astype(np.float32)
    ds = np.abs(s32a[:, :, None] - s32b[:, None, :])
    de = np.abs(e32a[:, :, None] - e32b[:, None, :])
    pos = (ds + de) / (d32a[:, :, None] + d32b[:, None, :])
    pos = pos * pos * delta
    mismatch = (c.cat[ia][:, :, None] != c.cat[ib][:, None, :]).astype(np.float64)
    return (alpha * pos.astype(np.float64) + beta * mismatch).astype(np.float32)


def _picked(costs: np.ndarray, soft: bool, empty: float) -> np.ndarray:
    """(continua, a + 1, b + 1): which unitary alignments the best (hard) or best soft
    alignment takes, the last row and column standing for the empty unit.

    Hard: every unit once, a unit alone costing ``delta``, so the cost is ``delta * (a + b)``
    plus the least sum of ``cost - 2 delta`` over a matching (pairs dearer than ``2 delta`` are
    never considered). Soft: every unit at least once (an edge cover); its cost is the sum of
    each unit's cheapest option plus the least sum of ``cost - cheapest(a) - cheapest(b)`` over
    a matching. Both matchings take the negative gains; where no unit has two of them the
    matching is all of them, where the units of one side have one each it is the cheapest of
    each unit of the other side, elsewhere ``linear_sum_assignment`` finds it.
    """
    n, a, b = costs.shape
    as64 = costs.astype(np.float64)
    dd = np.where(as64 <= 2.0 * empty, as64, np.inf)
    if soft:
        best_a, best_b = dd.min(axis=2), dd.min(axis=1)
        pair_a, pair_b = best_a < empty, best_b < empty
        m_a, m_b = np.where(pair_a, best_a, empty), np.where(pair_b, best_b, empty)
        gain = np.minimum(dd - m_a[:, :, None] - m_b[:, None, :], 0.0)
    else:
        gain = np.minimum(dd - 2.0 * empty, 0.0)
    matched = gain < 0
    clear = ~(matched & (gain > -_CLEAR_GAIN)).any(axis=(1, 2))
    single_a, single_b = (matched.sum(axis=2) <= 1).all(axis=1), (matched.sum(axis=1) <= 1).all(axis=1)
    plain = single_a & single_b & clear
    # stars: where every unit of one side has at most one cheap partner, each unit of the other
    # side takes its cheapest (when it is clearly the cheapest)
    for axis, star in ((1, single_a & ~plain & clear), (2, single_b & ~plain & clear)):
        idx = np.flatnonzero(star)
        if idx.size:
            g = np.where(matched[idx], gain[idx], np.inf)
            best = np.expand_dims(g.argmin(axis=axis), axis)
            low = np.take_along_axis(g, best, axis)
            np.put_along_axis(g, best, np.inf, axis)
            second = g.min(axis=axis, keepdims=True)
            with np.errstate(invalid="ignore"):  # (inf - inf: a unit with no cheap partner)
                sure = (np.isinf(second) | (second - low > _CLEAR_GAIN)).all(axis=(1, 2))
            ranks = np.arange(g.shape[axis]).reshape((1, -1, 1) if axis == 1 else (1, 1, -1))
            matched[idx[sure]] = ((ranks == best) & np.isfinite(low))[sure]
            plain[idx[sure]] = True
    tangled = np.flatnonzero(~plain)
    if tangled.size:
        found = [linear_sum_assignment(g) for g in gain[tangled]]
        which = np.repeat(tangled, [r.size for r, _ in found])
        rows, cols = np.concatenate([r for r, _ in found]), np.concatenate([c for _, c in found])
        keep = gain[which, rows, cols] < 0
        matched[tangled] = False
        matched[which[keep], rows[keep], cols[keep]] = True
    alone_a, alone_b = ~matched.any(axis=2), ~matched.any(axis=1)
    picked = np.zeros((n, a + 1, b + 1), bool)
    picked[:, :a, :b] = matched
    if soft:  # a unit left out of the matching takes its cheapest option (a pair, or the empty unit)
        arg_a, arg_b = dd.argmin(axis=2), dd.argmin(axis=1)
        picked[:, :a, :b] |= (alone_a & pair_a)[:, :, None] & (np.arange(b) == arg_a[:, :, None])
        picked[:, :a, :b] |= (alone_b & pair_b)[:, None, :] & (np.arange(a)[:, None] == arg_b[:, None, :])
        picked[:, :a, b], picked[:, a, :b] = alone_a & ~pair_a, alone_b & ~pair_b
    else:
        picked[:, :a, b], picked[:, a, :b] = alone_a, alone_b
    return picked


def _disorders(c: Continua, soft: bool, alpha: float, beta: float, delta) -> np.ndarray:
    """(n,) float32: the disorder of the best (hard) or best soft alignment of each continuum.

    pygamma sums the chosen unitary alignments in float32 in the order it enumerates them (first
    annotator's index fastest, the empty unit last) and divides by the mean number of units."""
    delta = np.float32(delta)
    empty = float(delta)
    na, nb = c.sizes()
    shape = na * (int(nb.max(initial=0)) + 1) + nb
    first = np.searchsorted(c.cont, np.arange(c.n))  # each continuum's first unit
    by_shape = np.argsort(shape, kind="stable")
    cuts = np.flatnonzero(np.diff(shape[by_shape])) + 1
    ids_all, m_all, vals_all = [], [], []
    for ids in np.split(by_shape, cuts) if c.n else []:
        a, b = int(na[ids[0]]), int(nb[ids[0]])
        values = np.empty((ids.size, b + 1, a + 1), np.float32)  # column-major: (b side, a side)
        values[:] = delta
        if a and b:
            costs = _shape_costs(c, first[ids], a, b, alpha, beta, delta)
            picked = _picked(costs, soft, empty).transpose(0, 2, 1)
            values[:, :b, :a] = costs.transpose(0, 2, 1)
        else:
            picked = np.zeros((ids.size, b + 1, a + 1), bool)
            picked[:, :b, a], picked[:, b, :a] = True, True
        picked, values = picked.reshape(ids.size, -1), values.reshape(ids.size, -1)
        ids_all.append(ids)
        m_all.append(picked.sum(axis=1))
        vals_all.append(values[picked])
    sums = np.zeros(c.n, np.float32)
    if ids_all:
        ids, m, vals = np.concatenate(ids_all), np.concatenate(m_all), np.concatenate(vals_all)
        starts = np.cumsum(m) - m
        for length in np.unique(m).tolist():
            rows = np.flatnonzero(m == length)
            sums[ids[rows]] = vals[starts[rows, None] + np.arange(length)].sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return sums / ((na + nb) / 2).astype(np.float32)


def gammas(
    continua: Continua,
    *,
    soft: bool = SOFT_FUNCTION,
    alpha: float = ALPHA,
    beta: float = BETA,
    delta_empty: float = DELTA_EMPTY,
    n_samples: int = N_SAMPLES,
    seed: int = SEED,
) -> list:
    """γ of every continuum, each with its chance continua drawn as pygamma draws them after
    ``np.random.seed(seed)``. Returns what pygamma's ``GammaResults.gamma`` returns for each (a
    float32, or 1 when the observed disorder is 0)."""
    if continua.n == 0:
        return []
    observed = _disorders(continua, soft, alpha, beta, delta_empty)
    chance = _sample(_statistics(continua), n_samples, seed)
    expected = _disorders(chance, soft, alpha, beta, delta_empty).reshape(continua.n, n_samples).mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = 1 - observed / expected
    return [1 if o == 0 else v for o, v in zip(observed, values)]


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
    sizes = [len(np.asarray(u[0])) for u in units]
    side = np.repeat([0, 1], sizes)
    start, end, cat = (np.concatenate([np.asarray(u[k], np.float64) for u in units]) for k in range(3))
    c = Continua.build(1, np.zeros(side.size, np.int64), side, start, end, cat)
    kwargs = {"alpha": alpha, "beta": beta, "delta_empty": delta_empty, "n_samples": n_samples, "seed": seed}
    return gammas(c, soft=soft, **kwargs)[0]


# --- examples -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Examples:
    """Spans grouped into examples (rows ``0..n-1``): per example the number of annotators and
    of spans, each example's annotator names (codes into ``names``, sorted), and the continua
    of the examples with exactly two annotators (``two``: those examples, in order)."""

    annotators: np.ndarray
    spans: np.ndarray
    two: np.ndarray
    continua: Continua
    names: np.ndarray
    _row: np.ndarray
    _who: np.ndarray

    def names_of(self, row: int) -> list[str]:
        return [str(s) for s in self.names[np.unique(self._who[self._row == row])]]


def examples_of(n: int, row: np.ndarray, who: np.ndarray, start, end, cat) -> Examples:
    """Group non-empty spans into examples: ``row`` (0..n-1) is each span's example, ``who`` its
    annotator's name (names sort as factgenie's ``"<campaign>-anngroup-<group>"``), ``cat`` its
    category code (codes ordered as the categories' labels)."""
    names, who = np.unique(np.asarray(who), return_inverse=True)
    row = np.asarray(row, np.int64)
    k = max(len(names), 1)
    distinct = np.unique(row * k + who)
    annotators = np.bincount(distinct // k, minlength=n)
    spans = np.bincount(row, minlength=n)
    two = np.flatnonzero(annotators == 2)
    # the first name of each example with two annotators is side 0
    first_of = np.full(n, -1, np.int64)
    starts = np.r_[True, distinct[1:] // k != distinct[:-1] // k] if distinct.size else np.zeros(0, bool)
    first_of[distinct[starts] // k] = distinct[starts] % k
    index = np.full(n, -1, np.int64)
    index[two] = np.arange(two.size)
    keep = index[row] >= 0
    continua = Continua.build(
        two.size,
        index[row[keep]],
        (who[keep] != first_of[row[keep]]).astype(np.int64),
        np.asarray(start)[keep],
        np.asarray(end)[keep],
        np.asarray(cat)[keep],
    )
    return Examples(annotators, spans, two, continua, names, row, who)


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
    labels = sp["label"].astype(str).to_numpy()
    _, cat = np.unique(labels, return_inverse=True)  # codes in the labels' order
    grouped = examples_of(
        len(ex),
        sp["_ex"].to_numpy(),
        sp["annotator"].astype(str).to_numpy(),
        sp["start"].to_numpy(),
        sp["end"].to_numpy(),
        cat,
    )
    crowded = np.flatnonzero(grouped.annotators > 2)
    if crowded.size:
        i = int(crowded[0])
        key = ", ".join(f"{c}={v}" for c, v in zip(KEY, ex.iloc[i]))
        raise TooManyAnnotators(too_many_message(key, grouped.names_of(i)))
    values: list = [None] * len(ex)
    kwargs = {"soft": soft, "alpha": alpha, "beta": beta, "delta_empty": delta_empty}
    for i, v in zip(grouped.two.tolist(), gammas(grouped.continua, **kwargs)):
        values[i] = v
    out = ex.copy()
    out["annotators"] = grouped.annotators
    out["spans"] = grouped.spans
    out["gamma"] = [np.nan if v is None else float(v) for v in values]
    out["s_empty"] = np.where(grouped.annotators < 2, 1 / (1 + grouped.spans), np.nan)
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
