"""How many examples does a comparison need? Ranking stability, interval widths and power as
the test set grows, after Shaib et al. (seed 004), adapted to span annotation.

Every measure here is a function of per-example counts summed over the examples (span F1 is a
ratio of summed overlaps and lengths; balanced accuracy and raw agreement come from summed
confusion cells; Fleiss' kappa from summed per-example agreement). A resample is therefore a
weight vector over the examples (0/1 for a subset drawn without replacement, counts for a draw
with replacement), and thousands of resamples at many sizes are one matrix product
``weights @ counts``: nothing is re-matched per resample.

A :class:`ScoreTable` holds the counts of one measure, ``(examples, columns)``, and how summed
counts become one score per *system* (a judge, or "human-human"). The functions:

``stability(table, sizes, replace=...)``
    per pair of systems and size n, the share of resamples of n examples that rank the pair as
    the full set does (``same_order``), with a Wilson interval for the Monte Carlo error.
    Without replacement n runs up to the corpus size, where the answer is 1 by construction;
    with replacement the corpus stands in for the population and n can go beyond it
    (extrapolation). Shaib et al. (seed 004) draw "with replacement", which may mean either
    design, so both are offered.
``smallest_stable(curve)``
    per pair, the smallest n from which ``same_order`` stays at or above the threshold (0.95).
``stable_n_uncertainty(table, sizes, replace=...)``
    the same smallest n on bootstrap replicates of the corpus: its sampling uncertainty.
``interval_widths(table, sizes)``
    the width of the 95% percentile interval of each score from n examples.
``impression_power(ratings, sizes)``
    the power of the impression t-test and of the error-count correlation, resampled and from
    statsmodels' power tools.
``examples_needed(corpus, a, b)``
    the planning question for two judges of one's own corpus.
``needs_at_paper_gaps(tables, sizes)``
    the examples a fresh test set needs at the paper's own Table 6 gaps (this corpus' spread of
    the difference, centred on the paper's gap), beside this corpus' own gaps.
``paper_impression_effects()``, ``analytic_power(effects, sizes)``
    Section 6.5's effects as the paper's figures imply them, and statsmodels' power at them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.power import NormalIndPower, TTestIndPower
from statsmodels.stats.proportion import proportion_confint

from ..annotator_sets import HUMAN_SETS, AnnotatorSet, parse_all
from ..categories import ANY
from ..corpora import KEY, Corpus
from ..metrics import coefficients, resampling
from . import example_level, span_level
from .span_level import BOOK_CONVENTION

# The book's span-F1 definition (character overlap, lengths counted wherever either side marked)
DEFAULT_CONVENTION = BOOK_CONVENTION
THRESHOLD = 0.95
MAX_FACTOR = 8  # examples_needed draws test sets of up to this many times the corpus
COUNTS = ["overlap", "overlap_ref", "hyp_length", "ref_length"]
CELLS = ["tp", "fn", "fp", "tn"]
HUMAN_HUMAN = "human-human"  # the one system of :func:`human_f1_table`
_CHUNK = 1 << 22  # elements of a working array of resampled sums (larger ones cost more in fresh memory than they save)


@dataclass(frozen=True)
class ScoreTable:
    """Per-example counts of one measure and how their sums become one score per system.

    ``examples``: the example keys (one row per row of ``counts``); ``counts``: (examples,
    columns) floats; ``reduce``: summed counts (resamples, columns) -> scores (resamples, systems).
    """

    measure: str
    systems: tuple[str, ...]
    examples: pd.DataFrame
    counts: np.ndarray
    reduce: Callable[[np.ndarray], np.ndarray]

    @property
    def n_examples(self) -> int:
        return len(self.counts)

    def full(self) -> np.ndarray:
        """The scores on every example: (systems,)."""
        return self.reduce(self.counts.sum(axis=0, keepdims=True))[0]

    def resampled(self, weights: np.ndarray) -> np.ndarray:
        """Scores for every row of ``weights`` (resamples, examples): one matrix product."""
        return self.reduce(product(weights, self.counts))


_EXACT32 = 2**24  # every integer below this is a float32, so are sums of them that stay below it


def _whole(counts: np.ndarray) -> bool:
    return bool(np.all(counts == np.floor(counts)))


def product(weights: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``weights @ counts`` in double precision. Where the weights are single precision (the
    test sets' counts, :func:`_weights`) and ``counts`` are non-negative integers whose sums stay
    below 2**24, it is computed in single precision: every partial sum is then an exact integer
    whatever order the BLAS library adds in (the result is the same on every machine), at twice
    the speed."""
    counts = np.asarray(counts, float)
    if weights.dtype == np.float32 and weights.size and counts.size and counts.min() >= 0:
        if _whole(counts):
            # a sum of w_e c_e is at most (largest row sum) x (largest count of its column) and at
            # most (largest weight) x (its column's total)
            bound = np.minimum(weights.sum(axis=1).max() * counts.max(axis=0), weights.max() * counts.sum(axis=0))
            if float(bound.max()) < _EXACT32:
                return (weights @ counts.astype(np.float32)).astype(float)
    return np.asarray(weights, float) @ counts


# --- reducers: summed counts -> scores ---------------------------------------------------------


def _mean_f1(sums: np.ndarray, group_sizes: tuple[int, ...]) -> np.ndarray:
    """F1 of every (reference, hypothesis) pair, averaged per system (Table 6's averaging).

    ``sums`` holds, per resample, the pairs' overlaps, then their recall-side overlaps, hypothesis
    lengths and reference lengths (four blocks of one column per pair); the arithmetic is
    :func:`~hotelcheckspan.metrics.span_f1.prf`'s."""
    o, o_ref, hyp_len, ref_len = np.moveaxis(sums.reshape(sums.shape[0], 4, -1), 1, 0)
    # 2PR / (P + R) with P = o / hyp_len and R = o_ref / ref_len; an empty side has no overlap,
    # so the denominator is zero exactly where prf's F1 is zero
    den = o * ref_len + o_ref * hyp_len
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(den > 0, 2 * o * o_ref / den, 0.0)
    starts = np.r_[0, np.cumsum(group_sizes)[:-1]]
    return np.add.reduceat(f1, starts, axis=1) / np.asarray(group_sizes)


def _confusion(sums: np.ndarray, measure: str) -> np.ndarray:
    """Balanced accuracy or raw agreement per system from summed tp, fn, fp, tn cells. The
    balanced accuracy of a resample with one class only is undefined (NaN), as chapter 03's
    intervals have it (:func:`example_level.alignment_ci`): scored by the one recall left, a judge
    that never flags would reach 1 in every resample without a majority error. A resample where
    it is undefined never ranks a pair (:func:`_same_order`)."""
    tp, fn, fp, tn = np.moveaxis(sums.reshape(sums.shape[0], -1, 4), 2, 0)
    pos, neg = tp + fn, fp + tn
    with np.errstate(invalid="ignore", divide="ignore"):
        if measure == "agreement":
            return (tp + tn) / (pos + neg)
        return np.where((pos > 0) & (neg > 0), (tp / pos + tn / neg) / 2, np.nan)


def _coefficient(sums: np.ndarray, name: str, raters: int) -> np.ndarray:
    """One chance-corrected coefficient from summed per-example terms
    (:func:`hotelcheckspan.metrics.coefficients.binary_from_sums`)."""
    return coefficients.binary_from_sums(sums, raters)[name][:, None]


# --- score tables --------------------------------------------------------------------------------


def pairs_table(
    pairs: pd.DataFrame,
    counts: pd.DataFrame,
    systems: Mapping[str, Sequence[int]],
    examples: pd.DataFrame | None = None,
    measure: str = "span F1",
) -> ScoreTable:
    """Span F1 per system, the mean over its pairs, from the per-example counts that
    :func:`~hotelcheckspan.analyses.span_level.pairwise` computed (``pairs``, ``counts``): the
    span statistics are counted once, where Table 6 counts them, and read here.

    ``systems`` maps a system's name to its rows of ``pairs`` (one match mode); ``examples``
    (default: every example of those rows, sorted) fixes the rows of the table, an example a pair
    does not cover counting zero for it."""
    rows = [int(r) for in_rows in systems.values() for r in in_rows]
    sizes = [len(r) for r in systems.values()]
    if 0 in sizes:
        raise ValueError("every system needs at least one (reference, hypothesis) pair")
    mine = counts[counts["row"].isin(rows)]
    if examples is None:
        examples = mine[KEY].drop_duplicates().sort_values(KEY)
    index = examples[KEY].drop_duplicates().reset_index(drop=True)
    where = pd.MultiIndex.from_frame(index)
    values = np.zeros((len(index), 4, len(rows)))  # column blocks: overlap, overlap_ref, lengths
    by_row = dict(list(mine.groupby("row", sort=False)))
    for i, r in enumerate(rows):
        if r not in by_row:  # a pair sharing no example: zeros throughout
            continue
        at = where.get_indexer(pd.MultiIndex.from_frame(by_row[r][KEY]))
        keep = at >= 0
        values[at[keep], :, i] = by_row[r].loc[keep, COUNTS].to_numpy(float)
    return ScoreTable(
        measure,
        tuple(systems),
        index,
        values.reshape(len(index), -1),
        partial(_mean_f1, group_sizes=tuple(sizes)),
    )


def _examples_of(records: pd.DataFrame) -> pd.DataFrame:
    return records[KEY].drop_duplicates()


def judges_f1_table(
    corpus: Corpus,
    judges,
    references=HUMAN_SETS,
    examples: pd.DataFrame | None = None,
    *,
    match: str = "soft",
    convention: str = DEFAULT_CONVENTION,
) -> ScoreTable:
    """Span F1 of each judge (a judge, or a human set such as ``"stage1/A"``) against every
    reference set, averaged over the references, as Table 6 averages its pairs.

    ``examples`` defaults to those every judge annotated; each (reference, judge) pair is scored
    on the examples both annotated among them (by :func:`span_level.pairwise`).
    """
    judges, references = parse_all(judges), parse_all(references)
    if examples is None:
        examples = _common_examples(corpus, judges)
    refs = [r.spec for r in references]
    comps = [{"name": j.spec, "ref": refs, "hyp": [j.spec], "examples": examples} for j in judges]
    pairs, counts = span_level.pairwise(corpus, comps, matches=(match,), convention=convention)
    systems = {j.spec: pairs.index[pairs["comparison"] == j.spec].tolist() for j in judges}
    return pairs_table(pairs, counts, systems, examples, f"span F1, {match}")


def human_f1_table(
    corpus: Corpus,
    sets=HUMAN_SETS,
    examples: pd.DataFrame | None = None,
    *,
    match: str = "soft",
    convention: str = DEFAULT_CONVENTION,
) -> ScoreTable:
    """One system, ``"human-human"``: span F1 averaged over every pair of the human sets."""
    sets = parse_all(sets)
    if examples is None:
        examples = _common_examples(corpus, sets)
    comps = [
        {"name": HUMAN_HUMAN, "ref": [a.spec], "hyp": [b.spec], "examples": examples} for a, b in combinations(sets, 2)
    ]
    pairs, counts = span_level.pairwise(corpus, comps, matches=(match,), convention=convention)
    return pairs_table(pairs, counts, {HUMAN_HUMAN: pairs.index.tolist()}, examples, f"span F1, {match}")


def _common_examples(corpus: Corpus, sets: list[AnnotatorSet]) -> pd.DataFrame:
    out = None
    for s in sets:
        ex = _examples_of(s.require(corpus)[0])
        out = ex if out is None else out.merge(ex, on=KEY)
    return out.reset_index(drop=True)


def confusion_table(
    truth: pd.Series, predictions: Mapping[str, pd.Series], examples: pd.DataFrame, measure: str = "bacc"
) -> ScoreTable:
    """Balanced accuracy (``"bacc"``) or raw ``"agreement"`` of each system's boolean prediction
    against a boolean truth with gaps (``<NA>``: no clear truth, the example counts for nobody).

    ``truth`` and each prediction are aligned with the rows of ``examples``.
    """
    if measure not in ("bacc", "agreement"):
        raise ValueError(f"measure must be 'bacc' or 'agreement', not {measure!r}")
    known = truth.notna().to_numpy()
    t = truth.fillna(False).to_numpy(bool)
    blocks = []
    for pred in predictions.values():
        p = pred.to_numpy(bool)
        blocks.append(np.stack([t & p, t & ~p, ~t & p, ~t & ~p], axis=1) * known[:, None])
    return ScoreTable(
        "balanced accuracy" if measure == "bacc" else "agreement with majority",
        tuple(predictions),
        examples[KEY].reset_index(drop=True),
        np.hstack(blocks).astype(float),
        partial(_confusion, measure=measure),
    )


def majority_table(
    corpus: Corpus,
    judges,
    raters=HUMAN_SETS,
    examples: pd.DataFrame | None = None,
    *,
    label: str = ANY,
    measure: str = "bacc",
    min_agree: int | None = None,
) -> ScoreTable:
    """Each judge against the clear human majority (:func:`example_level.majority`, default 3-1
    or 4-0 of four) on one label of :data:`example_level.LABELS` (default: any error), as
    balanced accuracy or raw agreement. Examples without a clear majority count for nobody."""
    judges = parse_all(judges)
    if examples is None:
        examples = _common_examples(corpus, judges)
    maj = example_level.majority(example_level.votes(example_level.marks(corpus, raters, examples)), min_agree)
    frame = examples[KEY].merge(maj[KEY + [label]], on=KEY, how="left")
    preds = {}
    for judge in judges:
        m = example_level.marks(corpus, [judge], examples)
        preds[judge.spec] = frame[KEY].merge(m[KEY + [label]], on=KEY, how="left")[label].fillna(False).astype(bool)
    return confusion_table(frame[label].astype("boolean"), preds, frame, measure)


def fleiss_table(marks_frame: pd.DataFrame, label: str = ANY, examples: pd.DataFrame | None = None) -> ScoreTable:
    """Fleiss' kappa of the raters of ``marks_frame`` (:func:`example_level.marks`) on ``label``,
    on the examples every rater annotated (in the order of ``examples`` when given, each of
    which must have every rater): one system, ``"Fleiss' kappa"``."""
    wide = marks_frame.pivot_table(index=KEY, columns="rater", values=label, aggfunc="first")
    if examples is not None:
        wide = wide.reindex(pd.MultiIndex.from_frame(examples[KEY]))
        if wide.isna().any().any():
            raise ValueError("some of the examples lack a rater's marks; Fleiss' kappa needs every rater")
    wide = wide.dropna().astype(int)
    data = wide.to_numpy()
    terms = partial(_coefficient, name="fleiss_kappa", raters=data.shape[1])
    return ScoreTable(
        f"Fleiss' kappa ({label})", ("Fleiss' kappa",), wide.reset_index()[KEY], coefficients.binary_terms(data), terms
    )


def ac1_table(marks_frame: pd.DataFrame, label: str = ANY, examples: pd.DataFrame | None = None) -> ScoreTable:
    """Gwet's AC1 of the raters, as :func:`fleiss_table` (the same per-example counts, another
    chance agreement): one system, ``"Gwet's AC1"``."""
    kappa = fleiss_table(marks_frame, label, examples)
    raters = kappa.reduce.keywords["raters"]
    terms = partial(_coefficient, name="gwet_ac1", raters=raters)
    return ScoreTable(f"Gwet's AC1 ({label})", ("Gwet's AC1",), kappa.examples, kappa.counts, terms)


# --- resampling weights --------------------------------------------------------------------------


def subset_weights(n_total: int, n: int, n_draws: int, rng: np.random.Generator) -> np.ndarray:
    """(n_draws, n_total) weights: each row ``n`` of the examples drawn without replacement (0/1;
    numpy's multivariate hypergeometric draw)."""
    if not 0 < n <= n_total:
        raise ValueError(f"a subset needs 0 < n <= {n_total}, not {n}")
    return rng.multivariate_hypergeometric(np.ones(n_total, np.int64), n, size=n_draws, method="count").astype(float)


def bootstrap_weights(n_total: int, n: int, n_draws: int, rng: np.random.Generator) -> np.ndarray:
    """(n_draws, n_total) counts: each row ``n`` examples drawn with replacement (uniformly;
    :func:`hotelcheckspan.metrics.resampling.counts`)."""
    return resampling.counts(rng, n_total, n, n_draws)


def _weights(n_total, sizes, n_draws, rng, replace):
    """One block of ``n_draws`` weight rows per size, stacked: (len(sizes) * n_draws, n_total)."""
    draw = bootstrap_weights if replace else subset_weights
    out = np.empty((len(sizes) * n_draws, n_total), np.float32)  # counts: exact in single precision
    for k, n in enumerate(sizes):
        out[k * n_draws : (k + 1) * n_draws] = draw(n_total, n, n_draws, rng)
    return out


def _resampled(tables, n_total, sizes, n_draws, rng, replace) -> list[np.ndarray]:
    """Each table's scores on the test sets :func:`_weights` draws (``n_draws`` per size, the sizes
    in order: rows grouped by size), the same draws from ``rng`` in the same order. Where every
    table's counts are whole numbers (each product is then exact, :func:`product`), they are drawn
    a few sizes at a time, about :data:`_CHUNK` weights (or one size's) at once; fractional counts
    (the chance-corrected coefficients' terms) take one product, whose rounding does not depend
    on how the test sets are split."""
    whole = all(_whole(np.asarray(t.counts, float)) for t in tables)
    step = max(1, _CHUNK // max(1, n_draws * n_total)) if whole else max(1, len(sizes))
    parts: list[list[np.ndarray]] = [[] for _ in tables]
    for first in range(0, len(sizes), step):
        weights = _weights(n_total, sizes[first : first + step], n_draws, rng, replace)
        for part, table in zip(parts, tables):
            part.append(table.resampled(weights))
    return [np.concatenate(part) for part in parts]


def rng_of(table: ScoreTable, seed: int = 0) -> np.random.Generator:
    """The random stream of a table's resamples: its examples' keys and the seed
    (:func:`hotelcheckspan.metrics.resampling.seed_sequence`), so the same examples get the same
    test sets whichever systems are in the table."""
    return np.random.default_rng(resampling.seed_sequence(table.examples, seed))


# --- stability of rankings ----------------------------------------------------------------------


def _as_list(tables) -> list[ScoreTable]:
    """One table or several on the same examples (resampled together, with the same weights)."""
    tables = [tables] if isinstance(tables, ScoreTable) else list(tables)
    if not tables:
        raise ValueError("no score table given")
    first = tables[0].examples.reset_index(drop=True)
    for t in tables[1:]:
        if not t.examples.reset_index(drop=True)[KEY].equals(first[KEY]):
            raise ValueError(f"{t.measure!r} is not on the same examples as {tables[0].measure!r}")
    return tables


def _check_sizes(n_total: int, sizes, replace: bool) -> list[int]:
    sizes = sorted({int(n) for n in sizes})
    if not sizes or sizes[0] < 1:
        raise ValueError("sizes must be positive")
    if not replace and sizes[-1] > n_total:
        raise ValueError(f"without replacement n cannot exceed the {n_total} examples; use replace=True to extrapolate")
    return sizes


def _pairs(full: np.ndarray) -> list[tuple[int, int]]:
    """Every pair of systems, the one ahead on the full set first."""
    return [(i, j) if full[i] >= full[j] else (j, i) for i, j in combinations(range(len(full)), 2)]


def _same_order(scores: np.ndarray, full: np.ndarray, pairs) -> np.ndarray:
    """(resamples, pairs): does the resample order each pair strictly as the full set does?
    A tie, an undefined score, or a pair tied on the full set counts as not the same order."""
    out = np.zeros((scores.shape[0], len(pairs)), bool)
    for k, (i, j) in enumerate(pairs):
        d_full = full[i] - full[j]
        if d_full != 0 and np.isfinite(d_full):
            out[:, k] = np.sign(scores[:, i] - scores[:, j]) == np.sign(d_full)
    return out


def _design(replace: bool) -> str:
    return "with replacement" if replace else "without replacement"


def stability(
    tables, sizes, n_resamples: int = 1000, seed: int = 0, replace: bool = False, level: float = 0.95
) -> pd.DataFrame:
    """How often a test set of n examples ranks each pair of systems as the full set does.

    ``tables``: one :class:`ScoreTable` or several on the same examples (drawn together). Without
    replacement (``replace=False``) the test sets are subsets of the corpus (n up to its size; at
    the full size the answer is 1 by construction); with replacement they are drawn from it as
    from a population, so n can exceed it. Shaib et al. (seed 004) sample "with replacement",
    which may mean within a test set (``replace=True``) or only between test sets
    (``replace=False``). Columns: ``measure, better, worse, pair,
    score_better, score_worse, difference, n, design, same_order`` and ``low, high`` (Wilson
    interval of ``same_order`` for the Monte Carlo error of ``n_resamples`` draws, at
    ``level``). ``better`` is the system ahead on the full set.
    """
    tables = _as_list(tables)
    n_total = tables[0].n_examples
    sizes = _check_sizes(n_total, sizes, replace)
    resampled = _resampled(tables, n_total, sizes, n_resamples, rng_of(tables[0], seed), replace)
    rows = []
    for table, scores in zip(tables, resampled):
        full = table.full()
        pairs = _pairs(full)
        same = _same_order(scores, full, pairs)
        hits = same.reshape(len(sizes), n_resamples, len(pairs)).sum(axis=1)
        for k, (i, j) in enumerate(pairs):
            for s, n in enumerate(sizes):
                low, high = proportion_confint(int(hits[s, k]), n_resamples, alpha=1 - level, method="wilson")
                rows.append(
                    {
                        "measure": table.measure,
                        "better": table.systems[i],
                        "worse": table.systems[j],
                        "pair": f"{table.systems[i]} > {table.systems[j]}",
                        "score_better": float(full[i]),
                        "score_worse": float(full[j]),
                        "difference": float(full[i] - full[j]),
                        "n": n,
                        "design": _design(replace),
                        "same_order": hits[s, k] / n_resamples,
                        "low": float(low),
                        "high": float(high),
                    }
                )
    return pd.DataFrame(rows)


def leave_one_out(tables) -> pd.DataFrame:
    """Per measure and pair ordered on the full set: the examples whose removal alone ties or
    reverses the order (each example left out in turn: the summed counts less its row, one
    reduction). Where there is one, that example decides the order, and the share of test sets
    ranking the pair as the full set is about the share that contain it (n / N without
    replacement), whatever the size of the difference.

    Columns: ``measure, pair, difference, deciding`` (how many such examples), ``examples`` (their
    rows of the table, a tuple)."""
    rows = []
    for table in _as_list(tables):
        full = table.full()
        left_out = table.reduce(table.counts.sum(axis=0, keepdims=True) - table.counts)
        for i, j in _pairs(full):
            d = full[i] - full[j]
            if d == 0 or not np.isfinite(d):
                continue
            kept = np.sign(left_out[:, i] - left_out[:, j]) == np.sign(d)
            hit = tuple(int(e) for e in np.flatnonzero(~kept))
            rows.append(
                {
                    "measure": table.measure,
                    "pair": f"{table.systems[i]} > {table.systems[j]}",
                    "difference": float(d),
                    "deciding": len(hit),
                    "examples": hit,
                }
            )
    return pd.DataFrame(rows, columns=["measure", "pair", "difference", "deciding", "examples"])


def flags(table: ScoreTable) -> pd.DataFrame:
    """For a table of :func:`confusion_table` (:func:`majority_table`): per system, the examples
    with a known truth, how many it flags, and its balanced accuracy. A system that flags all of
    them, or none, but at most one is at chance whatever the truth: its balanced accuracy is
    within one example's share of 0.5 (``at_chance``).

    Columns: ``system, examples, flagged, truth_positive, bacc, at_chance``."""
    cells = table.counts.sum(axis=0).reshape(-1, 4)
    tp, fn, fp, tn = cells.T
    n, flagged = tp + fn + fp + tn, tp + fp
    bacc = _confusion(cells.reshape(1, -1), "bacc")[0]
    return pd.DataFrame(
        {
            "system": table.systems,
            "examples": n.astype(int),
            "flagged": flagged.astype(int),
            "truth_positive": (tp + fn).astype(int),
            "bacc": bacc,
            "at_chance": np.minimum(flagged, n - flagged) <= 1,
        }
    )


def _first_stable(n: np.ndarray, prob: np.ndarray, threshold: float) -> float:
    """The smallest n from which ``prob`` stays at or above ``threshold`` (inf if never)."""
    below = np.flatnonzero(prob < threshold)
    if below.size == 0:
        return float(n[0])
    return float(n[below[-1] + 1]) if below[-1] + 1 < len(n) else float("inf")


def smallest_stable(curve: pd.DataFrame, threshold: float = THRESHOLD) -> pd.DataFrame:
    """Per pair, the smallest n of the grid from which the pair is ranked as on the full set
    with probability at least ``threshold`` at that n and every larger one (``inf``: not within
    the grid), and the same read off the Wilson bounds (``n_optimistic`` from ``high``,
    ``n_pessimistic`` from ``low``: the Monte Carlo uncertainty).

    Columns: ``measure, pair, better, worse, difference, design, n_stable, n_optimistic,
    n_pessimistic, max_n, min_n`` (the grid's last and first sizes).
    """
    rows = []
    for (measure, pair, design), g in curve.groupby(["measure", "pair", "design"], sort=False):
        g = g.sort_values("n")
        n = g["n"].to_numpy()
        rows.append(
            {
                "measure": measure,
                "pair": pair,
                "better": g["better"].iloc[0],
                "worse": g["worse"].iloc[0],
                "difference": g["difference"].iloc[0],
                "design": design,
                "n_stable": _first_stable(n, g["same_order"].to_numpy(), threshold),
                "n_optimistic": _first_stable(n, g["high"].to_numpy(), threshold),
                "n_pessimistic": _first_stable(n, g["low"].to_numpy(), threshold),
                "max_n": int(n[-1]),
                "min_n": int(n[0]),
            }
        )
    return pd.DataFrame(rows)


def stable_n_uncertainty(
    tables,
    sizes,
    replace: bool = True,
    n_outer: int = 100,
    n_inner: int = 200,
    seed: int = 0,
    threshold: float = THRESHOLD,
    level: float = 0.95,
    progress: bool = False,
) -> pd.DataFrame:
    """The sampling uncertainty of the smallest stable n: the whole procedure repeated on
    ``n_outer`` bootstrap replicates of the corpus (examples drawn with replacement), each with
    ``n_inner`` resamples per size, a pair oriented by the replicate's own full-set order.

    A test set drawn from a replicate picks *positions* of the replicate's list of examples, so
    its weights over positions have the same law for every replicate: they are drawn once and
    applied to each replicate's counts (``counts[replicate]``), common random numbers that make
    the cost one matrix product per replicate.

    Columns: ``measure, pair, design, n_median, n_low, n_high`` (percentiles over replicates at
    ``level``; ``inf`` where a replicate does not reach the threshold within the grid),
    ``reached`` (share of replicates that do), ``max_n``. Pairs are named by the full corpus'
    order, as in :func:`stability`. ``progress`` shows a bar of the replicates on stderr.
    """
    tables = _as_list(tables)
    n_total = tables[0].n_examples
    sizes = _check_sizes(n_total, sizes, replace)
    rng = rng_of(tables[0], seed)
    weights = _weights(n_total, sizes, n_inner, rng, replace)
    replicates = rng.integers(0, n_total, size=(n_outer, n_total))
    grid = np.asarray(sizes)
    found = []
    from tqdm import tqdm

    bar = tqdm(total=n_outer * len(tables), desc="test sets", unit="replicate", disable=not progress, leave=False)
    for table in tables:
        pairs = _pairs(table.full())
        width = table.counts.shape[1]
        out = np.empty((n_outer, len(pairs)))
        # several replicates' counts side by side: one product each, within a working-array bound
        step = max(1, _CHUNK // max(1, weights.shape[0] * width))
        for first in range(0, n_outer, step):
            block = replicates[first : first + step]
            sums = product(weights, np.concatenate([table.counts[r] for r in block], axis=1))
            sums = sums.reshape(len(weights), len(block), width)
            for b, r in enumerate(block):
                full = table.reduce(table.counts[r].sum(axis=0, keepdims=True))[0]
                prob = _same_order(table.reduce(sums[:, b]), full, pairs)
                prob = prob.reshape(len(sizes), n_inner, -1).mean(axis=1)
                out[first + b] = [_first_stable(grid, prob[:, k], threshold) for k in range(prob.shape[1])]
            bar.update(len(block))
        found.append(out)
    bar.close()
    alpha = (1 - level) / 2
    rows = []
    for table, table_found in zip(tables, found):
        for k, (i, j) in enumerate(_pairs(table.full())):
            f = table_found[:, k]
            lo, med, hi = np.quantile(f, [alpha, 0.5, 1 - alpha], method="inverted_cdf")
            rows.append(
                {
                    "measure": table.measure,
                    "pair": f"{table.systems[i]} > {table.systems[j]}",
                    "design": _design(replace),
                    "n_median": float(med),
                    "n_low": float(lo),
                    "n_high": float(hi),
                    "reached": float(np.isfinite(f).mean()),
                    "max_n": int(grid[-1]),
                }
            )
    return pd.DataFrame(rows)


# --- precision of a figure ----------------------------------------------------------------------


def interval_widths(tables, sizes, n_resamples: int = 1000, seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """The width of the ``level`` percentile interval of each system's score from n examples
    drawn with replacement (the interval a study of n examples like these would report), for
    one table or several on the same examples.

    Columns: ``measure, system, n, estimate`` (full set), ``low, high, width``.
    """
    tables = _as_list(tables)
    sizes = _check_sizes(tables[0].n_examples, sizes, True)
    resampled = _resampled(tables, tables[0].n_examples, sizes, n_resamples, rng_of(tables[0], seed), True)
    alpha = (1 - level) / 2
    rows = []
    for table, scores in zip(tables, resampled):
        scores = scores.reshape(len(sizes), n_resamples, len(table.systems))
        full = table.full()
        for s, n in enumerate(sizes):
            lo, hi = np.nanquantile(scores[s], [alpha, 1 - alpha], axis=0)
            for k, name in enumerate(table.systems):
                rows.append(
                    {
                        "measure": table.measure,
                        "system": name,
                        "n": n,
                        "estimate": float(full[k]),
                        "low": float(lo[k]),
                        "high": float(hi[k]),
                        "width": float(hi[k] - lo[k]),
                    }
                )
    return pd.DataFrame(rows)


def width_slope(widths: pd.DataFrame) -> pd.DataFrame:
    """Per measure and system, the slope of log width against log n (least squares): -0.5 is
    the square-root law, under which halving an interval takes ``2 ** (-1 / slope)`` = 4 times
    the examples. Columns: ``measure, system, slope, halving_factor``."""
    rows = []
    for (measure, system), g in widths.groupby(["measure", "system"], sort=False):
        slope = float(np.polyfit(np.log(g["n"]), np.log(g["width"]), 1)[0])
        rows.append({"measure": measure, "system": system, "slope": slope, "halving_factor": 2 ** (-1 / slope)})
    return pd.DataFrame(rows)


def n_for_width(widths: pd.DataFrame, target: float) -> pd.DataFrame:
    """Per measure and system, the smallest n of the grid whose interval is at most ``target``
    wide (``inf``: none). Columns: ``measure, system, n, width_at_n, max_n``."""
    rows = []
    for (measure, system), g in widths.groupby(["measure", "system"], sort=False):
        g = g.sort_values("n")
        ok = g[g["width"] <= target]
        rows.append(
            {
                "measure": measure,
                "system": system,
                "n": float(ok["n"].iloc[0]) if len(ok) else float("inf"),
                "width_at_n": float(ok["width"].iloc[0]) if len(ok) else float("nan"),
                "max_n": int(g["n"].iloc[-1]),
            }
        )
    return pd.DataFrame(rows)


# --- power of the impression tests --------------------------------------------------------------


def _student_p(sums: np.ndarray) -> np.ndarray:
    """Two-sided p-values of Student's t-test (pooled variance, n0 + n1 - 2 degrees of freedom:
    the test statsmodels' ``TTestIndPower`` and the pooled Cohen's d assume) from summed
    (n0, y0, y0^2, n1, y1, y1^2) per resample."""
    n0, s0, q0, n1, s1, q1 = sums.T
    with np.errstate(invalid="ignore", divide="ignore"):
        df = n0 + n1 - 2
        pooled = ((q0 - s0**2 / n0) + (q1 - s1**2 / n1)) / df
        se2 = pooled * (1 / n0 + 1 / n1)
        t = (s0 / n0 - s1 / n1) / np.sqrt(se2)
        p = 2 * stats.t.sf(np.abs(t), df)
    return np.where((n0 >= 1) & (n1 >= 1) & (df >= 1) & (se2 > 0), p, np.nan)


def _pearson_p(sums: np.ndarray) -> np.ndarray:
    """Two-sided p-values of Pearson's r from summed (1, x, y, x^2, y^2, xy) per resample."""
    n, sx, sy, sxx, syy, sxy = sums.T
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (n * sxy - sx * sy) / np.sqrt((n * sxx - sx**2) * (n * syy - sy**2))
        t = r * np.sqrt((n - 2) / (1 - r**2))
        p = 2 * stats.t.sf(np.abs(t), n - 2)
    return np.where(np.abs(r) < 1, p, np.where(np.abs(r) == 1, 0.0, np.nan))


def impression_power(
    ratings: pd.DataFrame, sizes, n_resamples: int = 1000, seed: int = 0, alpha: float = 0.05
) -> pd.DataFrame:
    """Power of the two impression tests of Section 6.5 at n records, two ways.

    ``ratings`` is :func:`hotelcheckspan.analyses.impressions.ratings` (columns ``impression``,
    ``errors``, ``has_error``). Resampled: the share of ``n_resamples`` draws of n records (with
    replacement, records independent, as the tests assume) in which Student's t-test (pooled
    variance, as the analytic power and Cohen's d) of no-error against error records, or
    Pearson's r of error count and impression, rejects at ``alpha`` (an undefined test counts as
    no rejection). Analytic: statsmodels' ``TTestIndPower`` at the
    full set's Cohen's d and group ratio, and ``NormalIndPower`` on Fisher's z of the full set's r
    (``atanh(r) * sqrt(n - 3)``).

    Columns: ``test, n, resampled, low, high`` (Wilson interval of ``resampled``: the Monte Carlo
    error of ``n_resamples`` draws), ``statsmodels``.
    """
    sizes = sorted({int(n) for n in sizes})
    y = ratings["impression"].to_numpy(float)
    x = ratings["errors"].to_numpy(float)
    err = ratings["has_error"].to_numpy(bool)
    t_cols = np.stack([~err, y * ~err, y**2 * ~err, err, y * err, y**2 * err], axis=1).astype(float)
    r_cols = np.stack([np.ones_like(x), x, y, x**2, y**2, x * y], axis=1)
    units = ratings[["record_id"]] if "record_id" in ratings.columns else np.arange(len(ratings))
    rng = np.random.default_rng(resampling.seed_sequence(units, seed))
    w = _weights(len(y), sizes, n_resamples, rng, True)
    reject = {
        "t-test (errors vs none)": _student_p(product(w, t_cols)) < alpha,
        "correlation (error count)": _pearson_p(product(w, r_cols)) < alpha,
    }
    analytic = analytic_power(impression_effects(ratings), sizes, alpha).set_index(["test", "n"])["power"]
    rows = []
    for test, rej in reject.items():
        hits = rej.reshape(len(sizes), n_resamples).sum(axis=1)
        for s, n in enumerate(sizes):
            low, high = proportion_confint(int(hits[s]), n_resamples, alpha=0.05, method="wilson")
            rows.append(
                {
                    "test": test,
                    "n": n,
                    "resampled": hits[s] / n_resamples,
                    "low": float(low),
                    "high": float(high),
                    "statsmodels": float(analytic[test, n]),
                }
            )
    return pd.DataFrame(rows)


def impression_effects(ratings: pd.DataFrame) -> dict:
    """The full-set effects the analytic power uses: Cohen's d (no errors minus errors), the
    share of records without errors, Pearson's r of error count and impression."""
    y = ratings["impression"].to_numpy(float)
    err = ratings["has_error"].to_numpy(bool)
    none, some = y[~err], y[err]
    pooled = np.sqrt(((none.size - 1) * none.var(ddof=1) + (some.size - 1) * some.var(ddof=1)) / (y.size - 2))
    return {
        "d": float((none.mean() - some.mean()) / pooled),
        "share_no_error": float(none.size / y.size),
        "r": float(stats.pearsonr(ratings["errors"].to_numpy(float), y).statistic),
        "records": int(y.size),
    }


def records_for_power(ratings: pd.DataFrame, power: float = 0.8, alpha: float = 0.05) -> pd.DataFrame:
    """Records needed for ``power`` by statsmodels' solvers (total over both groups for the
    t-test; n = 3 + the Fisher-z sample size for the correlation). Columns: ``test, records``."""
    e = impression_effects(ratings)
    ratio = (1 - e["share_no_error"]) / e["share_no_error"]
    n1 = TTestIndPower().solve_power(effect_size=e["d"], alpha=alpha, power=power, ratio=ratio)
    nz = NormalIndPower().solve_power(effect_size=np.arctanh(e["r"]), alpha=alpha, power=power, ratio=0)
    return pd.DataFrame(
        [
            {"test": "t-test (errors vs none)", "records": float(np.ceil(n1 * (1 + ratio)))},
            {"test": "correlation (error count)", "records": float(np.ceil(nz + 3))},
        ]
    )


def first_power(curve: pd.DataFrame, column: str, power: float = 0.8) -> pd.DataFrame:
    """Per test, the smallest n of the grid from which ``column`` stays at or above ``power``.
    Columns: ``test, n``."""
    return pd.DataFrame(
        [
            {"test": test, "n": _first_stable(g["n"].to_numpy(), g[column].to_numpy(), power)}
            for test, g in curve.groupby("test", sort=False)
        ]
    )


# --- the planning question ----------------------------------------------------------------------


def planning_sizes(n_examples: int) -> np.ndarray:
    """The planning grid of :func:`examples_needed`: about 40 sizes, evenly spaced on a log scale
    from 10 to :data:`MAX_FACTOR` times the corpus."""
    return np.unique(np.geomspace(10, MAX_FACTOR * n_examples, 40).astype(int))


def examples_needed(
    corpus: Corpus,
    judge_a,
    judge_b,
    references=HUMAN_SETS,
    *,
    measure: str = "span F1",
    match: str = "soft",
    convention: str = DEFAULT_CONVENTION,
    examples: pd.DataFrame | None = None,
    sizes=None,
    threshold: float = THRESHOLD,
    n_resamples: int = 1000,
    n_outer: int = 100,
    n_inner: int = 200,
    seed: int = 0,
) -> dict:
    """How many examples does it take to tell two judges apart, on a corpus like this one?

    ``judge_a`` and ``judge_b`` are annotator sets (``"gpt-4o"``, ``"stage2/A"``); they are
    compared by ``measure``: ``"span F1"`` against ``references`` (averaged over them, with
    ``match`` and ``convention``) or ``"bacc"`` / ``"agreement"`` against the references' clear
    majority on any error. Test sets of n examples are drawn with replacement from the corpus
    (its examples standing in for the population), for n on ``sizes`` (default: 10 to
    ``MAX_FACTOR`` times the corpus, about 40 steps); the answer is the smallest n from which the full corpus' order
    is reproduced with probability ``threshold``, with a 95% interval from
    :func:`stable_n_uncertainty`.

    Returns a dict: ``better, worse, score_better, score_worse, examples`` (corpus size),
    ``n_needed, n_low, n_high`` (``inf``: not within ``sizes``), ``max_n``.
    """
    pair = [judge_a, judge_b]
    if measure == "span F1":
        table = judges_f1_table(corpus, pair, references, examples, match=match, convention=convention)
    elif measure in ("bacc", "agreement"):
        table = majority_table(corpus, pair, references, examples, measure=measure)
    else:
        raise ValueError(f"measure must be 'span F1', 'bacc' or 'agreement', not {measure!r}")
    return plans(table, sizes, threshold, n_resamples, n_outer, n_inner, seed).iloc[0].to_dict()


PLAN_COLUMNS = ["better", "worse", "score_better", "score_worse", "examples", "n_needed", "n_low", "n_high", "max_n"]


def plans(
    table: ScoreTable,
    sizes=None,
    threshold: float = THRESHOLD,
    n_resamples: int = 1000,
    n_outer: int = 100,
    n_inner: int = 200,
    seed: int = 0,
    progress: bool = False,
) -> pd.DataFrame:
    """:func:`examples_needed`'s answer for every pair of the table's systems at once (one set of
    test sets, one matrix product per size grid, whatever the number of systems): a row per pair,
    the better on the full set first. Columns: :data:`PLAN_COLUMNS`. ``progress``: a bar on stderr."""
    if sizes is None:
        sizes = planning_sizes(table.n_examples)
    curve = stability(table, sizes, n_resamples, seed, replace=True)
    best = smallest_stable(curve, threshold).set_index("pair")
    unc = stable_n_uncertainty(table, sizes, True, n_outer, n_inner, seed + 1, threshold, progress=progress)
    unc = unc.set_index("pair")
    first = curve.drop_duplicates("pair").set_index("pair")
    out = pd.DataFrame(
        {
            "better": first["better"],
            "worse": first["worse"],
            "score_better": first["score_better"],
            "score_worse": first["score_worse"],
            "examples": table.n_examples,
            "n_needed": best["n_stable"],
            "n_low": unc["n_low"],
            "n_high": unc["n_high"],
            "max_n": best["max_n"],
        }
    )
    return out.reset_index(drop=True)[PLAN_COLUMNS]


# --- reading the results -------------------------------------------------------------------------


def stable_n_summary(
    within: pd.DataFrame, beyond: pd.DataFrame, uncertainty: pd.DataFrame, threshold: float = THRESHOLD
) -> pd.DataFrame:
    """One row per measure and pair: the full-set difference, the smallest stable n among
    subsets of the corpus (without replacement), the smallest stable n drawing with replacement
    and its 95% interval over corpus replicates (:func:`stable_n_uncertainty`); ``min_subsets``
    and ``min_n``: the two grids' first sizes, where an n is only an upper bound ("≤ 25").

    Columns: ``measure, pair, difference, n_subsets, n_with_replacement, n_low, n_high,
    corpus_size, max_n, min_subsets, min_n``; ``inf`` where the threshold is not reached within
    the grid.
    """
    a = smallest_stable(within, threshold)[["measure", "pair", "difference", "n_stable", "max_n", "min_n"]]
    b = smallest_stable(beyond, threshold)[["measure", "pair", "n_stable", "max_n", "min_n"]]
    out = a.rename(columns={"n_stable": "n_subsets", "max_n": "corpus_size", "min_n": "min_subsets"}).merge(
        b.rename(columns={"n_stable": "n_with_replacement"}), on=["measure", "pair"]
    )
    return out.merge(uncertainty[["measure", "pair", "n_low", "n_high"]], on=["measure", "pair"], how="left")[
        [
            "measure",
            "pair",
            "difference",
            "n_subsets",
            "n_with_replacement",
            "n_low",
            "n_high",
            "corpus_size",
            "max_n",
            "min_subsets",
            "min_n",
        ]
    ]


TIED = "tied"  # a pair tied on the full set: nothing to order, no n


def readable(summary: pd.DataFrame) -> pd.DataFrame:
    """:func:`stable_n_summary` for readers: plain headers, n as integers, "≤ first size" at a
    grid's first size (the need may be smaller) or "> max"; a pair tied on the full set reads
    "a and b, tied" with a dash for every n (there is no order to reproduce)."""
    none = [None] * len(summary)
    low_sub = summary["min_subsets"] if "min_subsets" in summary else none
    low_rep = summary["min_n"] if "min_n" in summary else none
    tied = (summary["difference"] == 0).to_numpy()

    def n_or_dash(values, maxes, mins):
        return ["—" if t else describe_n(v, m, lo) for t, v, m, lo in zip(tied, values, maxes, mins)]

    return pd.DataFrame(
        {
            "measure": summary["measure"],
            "pair (better first)": [
                f"{p.replace(' > ', ' and ')}, {TIED}" if t else p for p, t in zip(summary["pair"], tied)
            ],
            "difference": summary["difference"].round(3),
            "n, subsets": n_or_dash(summary["n_subsets"], summary["corpus_size"], low_sub),
            "n, with replacement": n_or_dash(summary["n_with_replacement"], summary["max_n"], low_rep),
            "95% interval": [
                "—" if t else f"{describe_n(lo, m, first)} to {describe_n(hi, m, first)}"
                for t, lo, hi, m, first in zip(tied, summary["n_low"], summary["n_high"], summary["max_n"], low_rep)
            ],
        }
    )


def readable_plan(plan: Mapping) -> pd.DataFrame:
    """:func:`examples_needed`'s answer for readers, one row: the two judges, their scores, the
    examples there are and those needed, with its interval."""
    m = plan["max_n"]
    return pd.DataFrame(
        [
            {
                "better": plan["better"],
                "worse": plan["worse"],
                "score, better": plan["score_better"],
                "score, worse": plan["score_worse"],
                "examples now": plan["examples"],
                "examples needed": describe_n(plan["n_needed"], m),
                "95% interval": f"{describe_n(plan['n_low'], m)} to {describe_n(plan['n_high'], m)}",
            }
        ]
    )


def describe_n(value: float, max_n: int, min_n: int | None = None) -> str:
    """An n for readers: the integer, "> max_n" where the grid never reached the threshold, or
    "≤ min_n" where it is the grid's first size ``min_n`` (the need may be smaller: no smaller
    size was tried)."""
    if not np.isfinite(value):
        return f"> {max_n:,}"
    if min_n is not None and np.isfinite(min_n) and value <= min_n:
        return f"≤ {int(min_n):,}"
    return f"{int(value):,}"


# --- the paper's own effects --------------------------------------------------------------------
#
# The stand-in's gaps between judges are simulated, so a statement about the paper's
# comparisons cannot rest on them. The functions below take the gap from the paper's figures and
# only the spread of a test set's difference from the corpus at hand: the resampled difference
# is moved so that it is centred on the paper's gap (a location shift), and the question "from how
# many examples is the order reproduced?" is asked of that.

PAPER_F1 = {"span F1, soft": "F1_S", "span F1, hard": "F1_H"}  # our measure -> Table 6's column
PAPER_HALF_UNIT = 0.005  # Table 6 prints F1 at two decimals: a printed figure is within this of the value
OWN_GAP, PAPER_GAP = "this corpus' gap", "the paper's gap"


def paper_table6_scores(figures: Mapping | None = None) -> pd.DataFrame:
    """Table 6's human-LLM span F1, one row per campaign and measure: ``measure, system, score``.
    A row "Human - LLM (GPT-4o)" is the campaign of the model's default prompt (``gpt-4o``); the
    paper's row may pool both prompts (``data/comparisons.yaml``)."""
    from ..annotator_sets import display_name
    from ..reference import paper

    table6 = (paper.figures() if figures is None else figures)["table6_span_level"]
    rows = []
    for row, values in table6.items():
        if not row.startswith("Human - LLM ("):
            continue
        system = display_name(row.removeprefix("Human - LLM (").removesuffix(")"))
        rows += [{"measure": m, "system": system, "score": float(values[col])} for m, col in PAPER_F1.items()]
    return pd.DataFrame(rows, columns=["measure", "system", "score"])


def paper_gaps(figures: Mapping | None = None) -> pd.DataFrame:
    """Every pair of Table 6's LLMs per measure, the paper's better first: ``measure, better,
    worse, score_better, score_worse, gap, gap_low, gap_high`` (the gap at the printed figures,
    and its range over their rounding: each figure within :data:`PAPER_HALF_UNIT`)."""
    scores = paper_table6_scores(figures)
    rows = []
    for measure, g in scores.groupby("measure", sort=False):
        for (_, a), (_, b) in combinations(g.iterrows(), 2):
            a, b = (a, b) if a["score"] >= b["score"] else (b, a)
            gap = round(a["score"] - b["score"], 6)
            rows.append(
                {
                    "measure": measure,
                    "better": a["system"],
                    "worse": b["system"],
                    "score_better": a["score"],
                    "score_worse": b["score"],
                    "gap": gap,
                    "gap_low": max(gap - 2 * PAPER_HALF_UNIT, 0.0),
                    "gap_high": gap + 2 * PAPER_HALF_UNIT,
                }
            )
    return pd.DataFrame(rows)


def stability_at_gaps(
    table: ScoreTable, gaps: pd.DataFrame, sizes, n_resamples: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """How often a fresh test set of n examples (drawn with replacement) orders a pair as a
    given gap says, with this corpus' spread of the difference: the resampled difference less the
    full set's, plus ``gap``. At a pair's own full-set gap this is :func:`stability` with
    ``replace=True`` and the same seed (the same test sets).

    ``gaps``: columns ``better, worse, gap`` (``gap`` > 0: ``better`` ahead; 0 or less: never
    ordered) and ``label`` (which gap it is). Columns: ``measure, better, worse, pair, label,
    difference`` (the gap), ``n, design, same_order, low, high`` (Wilson interval of the Monte
    Carlo error), so :func:`smallest_stable` reads it as it reads :func:`stability`.
    """
    sizes = _check_sizes(table.n_examples, sizes, True)
    scores = _resampled([table], table.n_examples, sizes, n_resamples, rng_of(table, seed), True)[0]
    full = table.full()
    index = {s: k for k, s in enumerate(table.systems)}
    rows = []
    for _, g in gaps.iterrows():
        i, j = index[g["better"]], index[g["worse"]]
        moved = scores[:, i] - scores[:, j] - (full[i] - full[j]) + g["gap"]
        same = np.where(np.isfinite(moved), moved > 0, False) & (g["gap"] > 0)
        hits = same.reshape(len(sizes), n_resamples).sum(axis=1)
        for s, n in enumerate(sizes):
            low, high = proportion_confint(int(hits[s]), n_resamples, alpha=1 - level, method="wilson")
            rows.append(
                {
                    "measure": table.measure,
                    "better": g["better"],
                    "worse": g["worse"],
                    "pair": f"{g['better']} > {g['worse']}",
                    "label": g.get("label", ""),
                    "difference": float(g["gap"]),
                    "n": n,
                    "design": f"with replacement, {g.get('label', '')}",
                    "same_order": hits[s] / n_resamples,
                    "low": float(low),
                    "high": float(high),
                }
            )
    return pd.DataFrame(rows)


def _difference_draws(table: ScoreTable, better: str, worse: str, n_resamples: int, seed: int) -> np.ndarray:
    """A pair's difference on ``n_resamples`` bootstrap test sets of the corpus' size."""
    n = table.n_examples
    scores = table.resampled(bootstrap_weights(n, n, n_resamples, rng_of(table, seed)))
    i, j = table.systems.index(better), table.systems.index(worse)
    diff = scores[:, i] - scores[:, j]
    return diff[np.isfinite(diff)]


def difference_sd(table: ScoreTable, better: str, worse: str, n_resamples: int = 2000, seed: int = 0) -> float:
    """The per-example standard deviation of a pair's difference: the bootstrap SD of the
    difference on test sets of the corpus' size times the square root of that size."""
    diff = _difference_draws(table, better, worse, n_resamples, seed)
    return float(np.std(diff, ddof=1) * np.sqrt(table.n_examples))


def difference_skew(table: ScoreTable, better: str, worse: str, n_resamples: int = 2000, seed: int = 0) -> float:
    """The skewness of a pair's difference on bootstrap test sets of the corpus' size (the same
    draws as :func:`difference_sd`): zero where the normal approximation's symmetry holds. A mean
    of n examples has its skewness shrink as 1 / sqrt(n), so a smaller test set is more skewed."""
    return float(stats.skew(_difference_draws(table, better, worse, n_resamples, seed)))


def normal_n(sd: float, gap: float, threshold: float = THRESHOLD) -> float:
    """Examples for a difference of mean ``gap`` and per-example SD ``sd`` to be positive with
    probability ``threshold`` (normal approximation: gap sqrt(n) / sd = z_threshold)."""
    if gap <= 0:
        return float("inf")
    return float(np.ceil((stats.norm.ppf(threshold) * sd / gap) ** 2))


def needs_at_paper_gaps(
    tables, sizes, n_resamples: int = 1000, seed: int = 0, threshold: float = THRESHOLD, figures=None
) -> pd.DataFrame:
    """Per measure of Table 6 (span F1, soft and hard) and pair of the paper's LLMs: the examples a
    fresh test set needs to order the pair in ``threshold`` of draws, at this corpus' own gap and
    at the paper's (with the range over the paper's rounding), both with this corpus' spread of
    the difference and on the same test sets; beside them the normal approximation at the paper's gap.

    ``tables``: score tables (:func:`judges_f1_table`) holding the paper's campaigns. Columns:
    ``measure, pair`` (the paper's better first), ``paper_gap, paper_gap_low, paper_gap_high,
    gap`` (this corpus', signed in the paper's orientation), ``n_own`` (at |gap|, oriented as this
    corpus orders the pair), ``n_paper`` (at the paper's gap), ``n_paper_low, n_paper_high`` (at
    the widest and narrowest gap the rounding allows), ``n_normal``, ``sd`` (per-example SD of the
    difference), ``skew`` (its skewness on test sets of the corpus' size, :func:`difference_skew`),
    ``max_n``, ``min_n`` (the grid's first size: an n there is an upper bound); ``inf`` beyond the
    grid.
    """
    gaps = paper_gaps(figures)
    rows = []
    for table in _as_list(tables):
        part = gaps[(gaps["measure"] == table.measure) & gaps["better"].isin(table.systems)]
        part = part[part["worse"].isin(table.systems)]
        if part.empty:
            continue
        full = dict(zip(table.systems, table.full()))
        wanted = []
        for k, g in part.reset_index(drop=True).iterrows():
            own = full[g["better"]] - full[g["worse"]]
            first, second = (g["better"], g["worse"]) if own >= 0 else (g["worse"], g["better"])
            wanted += [
                {"key": k, "label": OWN_GAP, "better": first, "worse": second, "gap": abs(own)},
                {"key": k, "label": PAPER_GAP, "better": g["better"], "worse": g["worse"], "gap": g["gap"]},
                {"key": k, "label": "low", "better": g["better"], "worse": g["worse"], "gap": g["gap_high"]},
                {"key": k, "label": "high", "better": g["better"], "worse": g["worse"], "gap": g["gap_low"]},
            ]
        wanted = pd.DataFrame(wanted)
        curve = stability_at_gaps(table, wanted, sizes, n_resamples, seed)
        curve["key"] = np.repeat(wanted["key"].to_numpy(), len(curve) // len(wanted))
        found = {
            (key, label): _first_stable(c["n"].to_numpy(), c["same_order"].to_numpy(), threshold)
            for (key, label), c in curve.groupby(["key", "label"], sort=False)
        }
        for k, g in part.reset_index(drop=True).iterrows():
            draws = _difference_draws(table, g["better"], g["worse"], 2000, seed)  # difference_sd's and _skew's
            sd, skew = float(np.std(draws, ddof=1) * np.sqrt(table.n_examples)), float(stats.skew(draws))
            rows.append(
                {
                    "measure": table.measure,
                    "pair": f"{g['better']} > {g['worse']}",
                    "paper_gap": g["gap"],
                    "paper_gap_low": g["gap_low"],
                    "paper_gap_high": g["gap_high"],
                    "gap": float(full[g["better"]] - full[g["worse"]]),
                    "n_own": found[(k, OWN_GAP)],
                    "n_paper": found[(k, PAPER_GAP)],
                    "n_paper_low": found[(k, "low")],
                    "n_paper_high": found[(k, "high")],
                    "n_normal": normal_n(sd, g["gap"], threshold),
                    "sd": sd,
                    "skew": skew,
                    "max_n": int(max(sizes)),
                    "min_n": int(min(sizes)),
                }
            )
    return pd.DataFrame(rows)


def readable_gaps(needs: pd.DataFrame) -> pd.DataFrame:
    """:func:`needs_at_paper_gaps` for readers: the two gaps and the examples each needs ("≤ 10"
    at the grid's first size, where the need may be smaller; the normal approximation, not on
    the grid, as computed)."""
    m = needs["max_n"]
    first = needs["min_n"] if "min_n" in needs else [None] * len(needs)
    return pd.DataFrame(
        {
            "measure": needs["measure"],
            "pair (paper's better first)": needs["pair"],
            "paper's gap": needs["paper_gap"].round(2),
            "n at the paper's gap (over its rounding)": [
                f"{describe_n(v, x, f)} ({describe_n(lo, x, f)} to {describe_n(hi, x, f)})"
                for v, lo, hi, x, f in zip(needs["n_paper"], needs["n_paper_low"], needs["n_paper_high"], m, first)
            ],
            "normal approximation": [describe_n(v, x) for v, x in zip(needs["n_normal"], m)],
            "this corpus' gap": needs["gap"].round(3),
            "n at this corpus' gap": [describe_n(v, x, f) for v, x, f in zip(needs["n_own"], m, first)],
        }
    )


def paper_impression_effects(figures: Mapping | None = None) -> dict:
    """Section 6.5's effects as the paper's own figures imply them
    (:func:`hotelcheckspan.reference.checks.implied`): Cohen's d from its t = 11.9 and its group
    sizes (``d`` with ``d_low``/``d_high`` over the rounding), the share of records without an
    error, its r, its records, and the records statsmodels needs for 80% power at these effects
    (``t_records``, ``r_records``, each with ``_low``/``_high``)."""
    from ..reference import checks, paper

    f = paper.figures() if figures is None else figures
    rows = checks.implied(f).set_index("id")
    records = int(f["dataset"]["human_records"])
    d, none = rows.loc["cohens_d"], rows.loc["human_records_without_error"]
    t_need, r_need = rows.loc["records_for_power_t"], rows.loc["records_for_power_r"]
    return {
        "d": float(d["value"]),
        "d_low": float(d["low"]),
        "d_high": float(d["high"]),
        "share_no_error": float(none["value"]) / records,
        "r": float(f["impressions"]["r_error_count_vs_impression"]),
        "records": records,
        "t_records": float(t_need["value"]),
        "t_records_low": float(t_need["low"]),
        "t_records_high": float(t_need["high"]),
        "r_records": float(r_need["value"]),
        "r_records_low": float(r_need["low"]),
        "r_records_high": float(r_need["high"]),
    }


def analytic_power(effects: Mapping, sizes, alpha: float = 0.05) -> pd.DataFrame:
    """statsmodels' power of the two impression tests at n records for given effects (``d``,
    ``share_no_error``, ``r``: :func:`impression_effects` or :func:`paper_impression_effects`):
    ``TTestIndPower`` with the records split by the share without an error, ``NormalIndPower`` on
    Fisher's z of r with n - 3. Columns: ``test, n, power``."""
    d, share, r = effects["d"], effects["share_no_error"], effects["r"]
    rows = []
    for n in sorted({int(n) for n in sizes}):
        t = TTestIndPower().power(effect_size=d, nobs1=n * share, alpha=alpha, ratio=(1 - share) / share)
        z = NormalIndPower().power(effect_size=np.arctanh(abs(r)), nobs1=max(n - 3, 1), alpha=alpha, ratio=0)
        rows += [
            {"test": "t-test (errors vs none)", "n": n, "power": float(t)},
            {"test": "correlation (error count)", "n": n, "power": float(z)},
        ]
    return pd.DataFrame(rows)
