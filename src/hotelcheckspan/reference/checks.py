"""The paper checked by rule: relations among its figures, declared as data beside them
(``data/paper_relations.yaml``), checked by a small engine, and what its own tables imply.

Reading the paper finds a new list of problems each pass; rules find the same list every time.
The rules are those the field uses to check a paper's figures (statcheck, GRIM and GRIMMER, the
arithmetic of tables) and a few this paper's tables call for (kappa from a vote histogram, a
judge's agreement with a clear majority, claims as predicates over tables). See ``RULES``.

Rounding. A figure printed with d decimals stands for any value within ±0.5·10^-d of it: a
float input takes the relation's ``tolerance`` (the half-unit of the decimals the paper prints;
an input may set its own), an integer input is an exact count unless it says otherwise, and the
reported value is taken at ±``tolerance``. A relation is *consistent* if some choice of
unrounded inputs inside their intervals gives a value inside the reported value's interval
(interval arithmetic: every rule's formula is monotone in each input, so its range over the box
of inputs is spanned by the box's corners, which the engine evaluates). Predicates are consistent
if the claim holds somewhere in that box (the paper gets the benefit of its rounding), and say so
when it holds only there and not at the printed values.

Readings. A relation checks one reading of the paper's words (its ``reading``, with the
``assumptions`` it makes: both shown to readers; a rule's default reading where it gives none).
Relations that read one claim differently share a ``readings_of`` key; relations with the same
``reading`` under that key make one reading, which fits when each of them is consistent. A claim
is *inconsistent* only when every reading tried fails; where one fits and another fails, each of
its relations is "depends on the reading", naming both. One standard for the readings nothing
computes: a reading the text allows that rests on what the paper does not print (``unprinted``:
task times, words marked per stage) shows what the figures would need under it, and where every
reading the printed figures decide fails, it makes the claim depend on the reading (a verdict
holds under every reading the text allows), everywhere alike. A share that only
largest-remainder rounding reproduces (the row forced to sum to 100%) is "depends on the
rounding". Bounds are true bounds: the extreme the tables allow, never a typical value, from each
printed figure's rounding (:func:`..paper.printed`).

Verdicts: "consistent", "inconsistent", "depends on the reading", "depends on the rounding",
"not decidable by rule" (a text against a text, read by a person, a figure the paper does not give, or a
rule that cannot fail at the paper's sizes: GRIM once n reaches ten to the power of the decimals).
A ``text`` relation may record the person's reading (``read_as: inconsistent``, or ``depends on the
reading`` where the words admit a reading under which both statements hold). A relation on a reading
the text excludes (``not_a_reading``: why, with the quote) shows what the figures give under it and
is "not decidable by rule": it neither rescues nor condemns the claim. An inconsistent
relation names the ``problem`` it belongs to, so the headline (:func:`headline`) counts distinct
problems, rounding conventions and alternative readings apart.

Frames:

``run(relations, figures)``
    one row per relation: ``id, section, rule, claim, reading, inputs, computed, reported,
    tolerance, verdict, reason, outcome, group, problem`` (all text; ``inputs`` reads
    ``name = value; ...``, ``outcome`` is the relation's own reading's result: fits, fails, fits
    by largest remainder, read as inconsistent, rests on what the paper does not print, or –;
    ``group`` the claim it reads, ``problem`` the distinct problem it belongs to).
``implied(figures)``
    one row per quantity the paper's tables imply: ``id, section, quantity, inputs, value, low,
    high, shown, method`` (``value`` at the printed figures, ``low``/``high`` over their rounding,
    ``shown`` the same for readers).
``problems(results)``
    one row per distinct problem: ``problem, found, sections, relations, claim``.
"""

from __future__ import annotations

import ast
import itertools
import math
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml
from scipy import signal, stats
from statsmodels.stats.power import NormalIndPower, TTestIndPower

from .. import paths
from ..corpora.problems import CorpusError, Problem
from . import paper

RELATIONS_FILE = paths.DATA_ROOT / "paper_relations.yaml"
# no verdict is named like one of the paper's error types (its Not Checkable): the glossary, "verdict"
CONSISTENT, INCONSISTENT, READING, ROUNDING, NOT_DECIDABLE = VERDICTS = (
    "consistent",
    "inconsistent",
    "depends on the reading",
    "depends on the rounding",
    "not decidable by rule",
)
FITS, FAILS, FITS_BY_REMAINDER, READ_INCONSISTENT, UNPRINTED, NO_OUTCOME = (
    "fits",
    "fails",
    "fits by largest remainder",
    "read as inconsistent",
    "rests on what the paper does not print",
    "–",
)
COLUMNS = [
    "id",
    "section",
    "rule",
    "claim",
    "reading",
    "inputs",
    "computed",
    "reported",
    "tolerance",
    "verdict",
    "reason",
    "outcome",
    "group",
    "problem",
]
IMPLIED_COLUMNS = ["id", "section", "quantity", "inputs", "value", "low", "high", "shown", "method"]
REQUIRED = ("id", "rule", "section", "claim", "inputs", "tolerance", "expect")
POWER, ALPHA = 0.8, 0.05  # the power and level of implied()'s sample sizes (two-sided tests)
MAX_ROUNDED = 13  # rounded scalar inputs per relation (2^13 corners)
WHAT = "the paper's relations"

# The paper's sections in reading order, with the titles the page groups the checks under
SECTIONS = {
    "3.3": "3.3 Data composition",
    "3.4": "3.4 Availability",
    "4.2": "4.2 Annotation interface and guidelines",
    "4.3": "4.3 Annotators",
    "4.4": "4.4 Dataset statistics",
    "5": "5 LLM annotation collection",
    "6.1": "6.1 Dataset-level agreement",
    "6.2": "6.2 Example-level agreement",
    "6.3": "6.3 Span-level agreement",
    "6.4": "6.4 Error and disagreement analysis",
    "6.5": "6.5 Errors and impression scores",
    "8": "8 Limitations",
    "9": "9 Ethical considerations",
    "11": "11 Bibliographical references",
    "Appendix B": "Appendix B Human annotation guidelines",
    "Appendix C": "Appendix C LLM evaluation details",
    "README": "The public release's README",
}


# --- figures --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One figure as the paper prints it: ``value`` (a float, a vector of floats or a text),
    the interval ``low``..``high`` its rounding allows (equal to ``value`` for an exact count),
    ``printed`` (how it reads) and ``integer`` (a count known only to lie in ``low``..``high``)."""

    value: Any
    low: Any
    high: Any
    printed: str
    integer: bool = False

    @property
    def is_text(self) -> bool:
        return isinstance(self.value, str)

    @property
    def is_vector(self) -> bool:
        return isinstance(self.value, np.ndarray) and self.value.ndim == 1


def decimals_of(tolerance: float) -> int:
    """The printed decimals a half-unit tolerance stands for (0.005 -> 2; 0.5 or more -> 0)."""
    return max(0, round(-math.log10(2 * tolerance))) if tolerance and tolerance < 0.5 else 0


def _fmt(x: float, d: int) -> str:
    """A number at d decimals; a dash for a missing one, no negative zero."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    text = f"{float(x):.{max(d, 0)}f}"
    return text[1:] if re.fullmatch(r"-0\.?0*", text) else text


def _number(value, tol: float) -> Figure:
    """A number as printed: an int is exact (a count) unless a tolerance is given, a float is
    rounded at ``tol``."""
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int) and not tol:
        return Figure(float(value), float(value), float(value), str(value))
    v = float(value)
    return Figure(v, v - tol, v + tol, _fmt(v, decimals_of(tol)) if tol else str(value))


def _text(value: str) -> Figure:
    """A figure printed as text: "<0.001", ">0.95", "0.68-0.69", "~0.35", ">90", or plain words."""
    s = value.strip()
    sign, body = (s[0], s[1:].strip()) if s[:1] in "<>~" else ("", s)
    parts = body.split("-") if sign == "" and body.count("-") == 1 and not body.startswith("-") else [body]
    try:
        nums = [float(p.rstrip("%")) for p in parts]
    except ValueError:
        return Figure(s, None, None, s)
    d = max(len(p.split(".")[1]) if "." in p else 0 for p in parts)
    half = 0.5 * 10.0**-d
    if sign == "<":
        return Figure(nums[0], -math.inf, nums[0], s)
    if sign == ">":
        return Figure(nums[0], nums[0], math.inf, s)
    return Figure(float(np.mean(nums)), nums[0] - half, nums[-1] + half, s)


def _vector(values, tol: float) -> Figure:
    v = np.asarray([float(x) for x in values])
    exact = all(isinstance(x, int) and not isinstance(x, bool) for x in values) and not tol
    half = 0.0 if exact else tol
    d = 0 if exact else decimals_of(tol)
    printed = ", ".join(str(x) if exact else _fmt(float(x), d) for x in values)
    return Figure(v, v - half, v + half, printed)


def figure_of(value, tol: float = 0.0) -> Figure:
    """A value read from the figures (or a literal) as a :class:`Figure`."""
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, (list, tuple)):
        if all(isinstance(x, str) for x in value):
            return Figure(" / ".join(value), None, None, " / ".join(value))
        return _vector(value, tol)
    if isinstance(value, (int, float)):
        return _number(value, tol)
    raise ValueError(f"a {type(value).__name__} is not a figure; name its fields")


# --- the formulas ---------------------------------------------------------------------------------


def harmonic_mean(precision, recall):
    """F1 of precision and recall (0 where both are 0)."""
    p, r = np.asarray(precision, float), np.asarray(recall, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)


def p_from_t(t, df):
    """Two-sided p of Student's t with ``df`` degrees of freedom (statcheck's recomputation)."""
    return 2 * stats.t.sf(np.abs(np.asarray(t, float)), np.asarray(df, float))


def p_from_r(r, n):
    """Two-sided p of Pearson's r on n pairs, through t = r sqrt((n-2) / (1-r^2))."""
    r, n = np.asarray(r, float), np.asarray(n, float)
    return p_from_t(r * np.sqrt((n - 2) / (1 - r**2)), n - 2)


def grim_possible(mean: float, n, decimals: int, scale=(1, 7), items: int = 1) -> np.ndarray:
    """GRIM (Brown and Heathers 2017): can a mean of n integer ratings on ``scale`` (each the sum
    of ``items`` items) print as ``mean`` at ``decimals``? True where some integer sum S in
    [lo n items, hi n items] has S / (n items) within half a unit of the printed mean (either
    rounding of a half). ``scale`` ends may be None (unbounded)."""
    n = np.asarray(n, np.int64)
    total = n * items
    half = 0.5 * 10.0**-decimals
    lo = np.ceil((mean - half) * total - 1e-9)
    hi = np.floor((mean + half) * total + 1e-9)
    if scale[0] is not None:
        lo = np.maximum(lo, scale[0] * total)
    if scale[1] is not None:
        hi = np.minimum(hi, scale[1] * total)
    return (lo <= hi) & (n > 0)


def grimmer_possible(mean: float, sd: float, n: int, decimals: int, sd_decimals: int | None = None, scale=(1, 7)):
    """GRIMMER (Anaya 2016), exactly: can n integer ratings on ``scale`` have a mean and a sample
    SD that print as ``mean`` and ``sd``? Every (sum, sum of squares) that n ratings can reach is
    enumerated (a boolean table filled rating by rating), so the answer is exact, not the parity
    test; meant for the small n where GRIM and GRIMMER bite (n up to a few hundred)."""
    lo, hi = scale
    k = hi - lo  # ratings shifted to 0..k: the SD is unchanged
    sd_decimals = decimals if sd_decimals is None else sd_decimals
    reach = np.zeros((k * n + 1, k * k * n + 1), bool)
    reach[0, 0] = True
    for _ in range(n):
        step = np.zeros_like(reach)
        for v in range(k + 1):
            step[v:, v * v :] |= reach[: reach.shape[0] - v, : reach.shape[1] - v * v]
        reach = step
    s, q = np.nonzero(reach)
    means = lo + s / n
    with np.errstate(invalid="ignore"):
        sds = np.sqrt(np.maximum(q - s.astype(float) ** 2 / n, 0) / (n - 1)) if n > 1 else np.zeros_like(means)
    ok = (np.abs(means - mean) <= 0.5 * 10.0**-decimals + 1e-9) & (np.abs(sds - sd) <= 0.5 * 10.0**-sd_decimals + 1e-9)
    return bool(ok.any())


def ratings_from_votes(histogram) -> np.ndarray:
    """The (units, raters) 0/1 matrix of a yes-vote histogram (``histogram[k]`` units with k of
    m = len - 1 raters voting yes), yes votes first in each row: what the histogram stands for."""
    h = np.asarray(histogram, int)
    m = len(h) - 1
    k = np.repeat(np.arange(m + 1), h)
    return (np.arange(m)[None, :] < k[:, None]).astype(int)


def _vote_parts(histogram) -> tuple[float, float]:
    """Observed agreement p_a and the yes share p of a binary vote histogram with m raters."""
    h = np.asarray(histogram, float)
    m = len(h) - 1
    k = np.arange(m + 1)
    agree = (k * (k - 1) + (m - k) * (m - k - 1)) / (m * (m - 1))
    return float((h * agree).sum() / h.sum()), float((h * k).sum() / (h.sum() * m))


def fleiss_from_votes(histogram) -> float:
    """Fleiss' kappa of m raters voting yes/no, from the histogram of yes votes alone:
    p_a = mean of [k(k-1) + (m-k)(m-k-1)] / [m(m-1)], p_e = p^2 + (1-p)^2 (p the yes share)."""
    pa, p = _vote_parts(histogram)
    pe = p**2 + (1 - p) ** 2
    return float((pa - pe) / (1 - pe)) if pe < 1 else float("nan")


def ac1_from_votes(histogram) -> float:
    """Gwet's AC1 (Gwet 2008) from the same histogram: p_e = 2 p (1 - p)."""
    pa, p = _vote_parts(histogram)
    pe = 2 * p * (1 - p)
    return float((pa - pe) / (1 - pe))


def unanimity_from_votes(histogram) -> float:
    """The share of units on which every rater agrees (0 or m yes votes)."""
    h = np.asarray(histogram, float)
    return float((h[0] + h[-1]) / h.sum())


def yes_votes(histogram) -> float:
    """Total yes votes of a histogram: the sum of k times the units with k yes votes."""
    h = np.asarray(histogram, float)
    return float((np.arange(len(h)) * h).sum())


def at_least(histogram, k: int) -> float:
    """Units with at least k yes votes."""
    return float(np.asarray(histogram, float)[int(k) :].sum())


def tvd(a, b) -> float:
    """Total variation distance of two count vectors' shares (0 = same distribution, 1 = disjoint)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.abs(a / a.sum() - b / b.sum()).sum() / 2)


def max_tvd(*vectors) -> float:
    """The largest total variation distance between any two of the count vectors."""
    return max(tvd(a, b) for a, b in itertools.combinations(vectors, 2))


def largest_remainder(counts, total: int = 100) -> np.ndarray:
    """Whole shares of ``total`` by the largest-remainder method (floors, then one more to the
    largest remainders until the row sums to ``total``): how tables forced to 100% round."""
    c = np.asarray(counts, float)
    exact = total * c / c.sum()
    out = np.floor(exact)
    order = np.argsort(-(exact - out), kind="stable")
    out[order[: int(round(total - out.sum()))]] += 1
    return out.astype(int)


def solve_integer(numerator: Figure, reported: Figure, scale: float = 1.0, upto: int = 100_000) -> np.ndarray:
    """The integers n for which ``scale * numerator / n`` can print as ``reported``: the
    denominators (records, examples) a printed rate implies."""
    n = np.arange(1, upto + 1, dtype=float)
    lo, hi = scale * numerator.low / n, scale * numerator.high / n
    return n[(hi >= reported.low - 1e-12) & (lo <= reported.high + 1e-12)].astype(int)


def _integers(values: np.ndarray) -> str:
    if len(values) == 0:
        return "none"
    runs = np.split(values, np.nonzero(np.diff(values) != 1)[0] + 1)
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs)


# --- the box of unrounded inputs --------------------------------------------------------------------


def _scalars(inputs: Mapping[str, Figure]) -> dict[str, Figure]:
    """The inputs with every vector spread into scalars (``name[0]``, ``name[1]``, ...)."""
    out = {}
    for name, f in inputs.items():
        if f.is_text:
            raise ValueError(f"input {name} is text ({f.printed!r}); this rule needs numbers")
        if f.is_vector:
            for i, (v, lo, hi) in enumerate(zip(f.value, f.low, f.high)):
                out[f"{name}[{i}]"] = Figure(float(v), float(lo), float(hi), _fmt(float(v), 3))
        else:
            out[name] = f
    return out


def box(figures: list[Figure]) -> np.ndarray:
    """(1 + 2^k, len(figures)): the printed values, then every corner of the box spanned by the
    rounding intervals of the k figures that are not exact."""
    printed = np.array([f.value for f in figures], float)
    loose = [i for i, f in enumerate(figures) if f.high > f.low]
    if len(loose) > MAX_ROUNDED:
        raise ValueError(f"{len(loose)} rounded inputs; at most {MAX_ROUNDED} are spanned")
    if any(not np.isfinite([figures[i].low, figures[i].high]).all() for i in loose):
        raise ValueError("an input is only bounded on one side (printed as '<x' or '>x'); give its value")
    corners = np.array(list(itertools.product((False, True), repeat=len(loose))), bool).reshape(2 ** len(loose), -1)
    rows = np.repeat(printed[None, :], len(corners), axis=0)
    lows = np.array([figures[i].low for i in loose], float)
    highs = np.array([figures[i].high for i in loose], float)
    rows[:, loose] = np.where(corners, highs, lows)
    return np.vstack([printed[None, :], rows])


@dataclass(frozen=True)
class Outcome:
    """A rule's answer: what it computed (text for readers), the verdict and why."""

    computed: str
    verdict: str
    reason: str = ""


def _distinct_decimals(values, d: int, edge: float, most: int = 3) -> int:
    """The decimals (d, or up to ``most`` more) at which no value reads as an exact rounding edge
    of the printed precision (a half unit of ``edge`` decimals): 44.49 must not show as 44.5 beside
    a printed 45, where 44.5 could round either way."""

    def at_edge(shown: float, exact: float) -> bool:
        k = 2 * shown * 10.0**edge  # an odd whole number at a half unit
        return abs(k - round(k)) < 1e-6 and round(k) % 2 == 1 and abs(shown - exact) > 1e-12

    for extra in range(most + 1):
        if not any(at_edge(float(_fmt(v, d + extra)), float(v)) for v in values):
            return d + extra
    return d + most


def _overlap(lo: float, hi: float, reported: Figure) -> bool:
    eps = 1e-9 * max(1.0, abs(lo), abs(hi))
    return hi >= reported.low - eps and lo <= reported.high + eps


def _ranged(values: np.ndarray, d: int) -> str:
    """The value at the printed inputs, with its range over their rounding when it has one."""
    at, lo, hi = float(values[0]), float(np.min(values)), float(np.max(values))
    text = _fmt(at, d)
    return text if _fmt(lo, d) == _fmt(hi, d) else f"{text} [{_fmt(lo, d)}, {_fmt(hi, d)}]"


def _compare(values: np.ndarray, reported: Figure | None, tol: float, what: str = "") -> Outcome:
    """A computed value (over the box) against the reported one's rounding interval."""
    d = decimals_of(tol) + 1 if tol else (0 if np.allclose(values, np.round(values)) else 3)
    computed = _ranged(values, d)
    if reported is None or reported.is_text and reported.low is None:
        return Outcome(computed, NOT_DECIDABLE, f"the paper reports no {what or 'value'} to compare with")
    lo, hi = float(np.min(values)), float(np.max(values))
    if _overlap(lo, hi, reported):
        return Outcome(computed, CONSISTENT)
    return Outcome(computed, INCONSISTENT, f"{computed} cannot print as {reported.printed}")


# --- the rules ------------------------------------------------------------------------------------


def _linear(inputs: Mapping[str, Figure], params: Mapping) -> np.ndarray:
    scalars = list(_scalars(inputs).values())
    weights = np.asarray(params.get("weights", [1.0] * len(scalars)), float)
    if len(weights) != len(scalars):
        raise ValueError(f"{len(weights)} weights for {len(scalars)} numbers")
    return box(scalars) @ weights


def rule_sum(inputs, reported, params, tol) -> Outcome:
    """Parts (times their ``weights``) sum to the reported total."""
    return _compare(_linear(inputs, params), reported, tol, "total")


_OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}


def rule_bound(inputs, reported, params, tol) -> Outcome:
    """A sum of parts (times ``weights``) stands in relation ``op`` (<=, <, >=, >) to a bound:
    consistent if some unrounded parts and bound satisfy it."""
    op = params.get("op", "<=")
    values = _linear(inputs, params)
    d = decimals_of(tol) + 1 if tol else (0 if np.allclose(values, np.round(values)) else 3)
    computed = _ranged(values, d)
    lo, hi = float(np.min(values)), float(np.max(values))
    ok = {"<=": lo <= reported.high, "<": lo < reported.high, ">=": hi >= reported.low, ">": hi > reported.low}[op]
    if ok:
        return Outcome(computed, CONSISTENT)
    return Outcome(computed, INCONSISTENT, f"{computed} is not {op} {reported.printed}")


def rule_share(inputs, reported, params, tol) -> Outcome:
    """Percentages of a whole: each part's 100 * part / whole prints as the reported share,
    rounded to the nearest (the whole defaults to the sum of the parts). Where that fails but
    largest-remainder rounding of the exact counts (of the parts, or of the whole ``row`` they
    stand in, at ``row_index``) gives the printed shares, the verdict is "depends on the
    rounding": a convention that forces a row to 100%, not a contradiction."""
    parts = inputs["parts"]
    whole = inputs.get("whole")
    if params.get("solve_whole"):
        return _share_of_some_whole(parts, reported, params)
    rows, cells = [], []
    names = list(params.get("labels", [])) or [f"part {i + 1}" for i in range(len(np.atleast_1d(parts.value)))]
    p_lo, p_hi = np.atleast_1d(parts.low), np.atleast_1d(parts.high)
    w_lo = whole.low if whole is not None else p_lo.sum()
    w_hi = whole.high if whole is not None else p_hi.sum()
    at_whole = whole.value if whole is not None else np.atleast_1d(parts.value).sum()
    r_low, r_high, r_val = np.atleast_1d(reported.low), np.atleast_1d(reported.high), np.atleast_1d(reported.value)
    if len(r_val) != len(p_lo):
        raise ValueError(f"{len(p_lo)} parts but {len(r_val)} reported shares")
    exact_shares = 100 * np.atleast_1d(parts.value) / at_whole
    d = _distinct_decimals(exact_shares, decimals_of(tol) + 1, decimals_of(tol))
    for i, v in enumerate(np.atleast_1d(parts.value)):
        lo, hi = 100 * p_lo[i] / w_hi, 100 * p_hi[i] / w_lo
        rows.append(_fmt(100 * v / at_whole, d) if _fmt(lo, d) == _fmt(hi, d) else f"{_fmt(lo, d)}-{_fmt(hi, d)}")
        if not _overlap(lo, hi, Figure(r_val[i], r_low[i], r_high[i], "")):
            cells.append(f"{names[i]} {rows[-1]} printed {_fmt(r_val[i], decimals_of(tol))}")
    computed = ", ".join(rows)
    if not cells:
        return Outcome(computed, CONSISTENT)
    reason = "; ".join(cells) if len(cells) <= 3 else f"{len(cells)} of {len(rows)} shares differ, as {cells[0]}"
    row = inputs.get("row")
    if row is not None:
        counts, at = np.atleast_1d(row.low), [int(i) for i in params.get("row_index", range(len(p_lo)))]
        exact = bool((np.atleast_1d(row.low) == np.atleast_1d(row.high)).all())
        exact = exact and (whole is None or (whole.low == whole.high and counts.sum() == whole.value))
        exact = exact and bool((counts[at] == p_lo).all())
    else:
        counts, at = p_lo, list(range(len(p_lo)))
        exact = whole is None or (whole.low == whole.high and p_lo.sum() == whole.value)
    if exact and tol == 0.5 and (p_lo == p_hi).all() and (largest_remainder(counts)[at] == r_val).all():
        reason += "; largest-remainder rounding (which forces the row to 100%) gives the printed shares"
        return Outcome(computed, ROUNDING, reason)
    if params.get("find_whole") and (p_lo == p_hi).all():
        reason += f"; the printed shares fit a whole of {_integers(wholes(p_lo, r_low, r_high, int(3 * at_whole)))}"
    return Outcome(computed, INCONSISTENT, reason)


def wholes(parts, low, high, upto: int) -> np.ndarray:
    """The whole numbers from the largest part up to ``upto`` of which every exact count in
    ``parts`` is a share (in percent) within its printed interval ``low``..``high``."""
    parts = np.asarray(parts, float)
    n = np.arange(int(parts.max()), int(upto) + 1, dtype=float)
    s = 100 * parts[None, :] / n[:, None]
    ok = ((s >= np.asarray(low, float) - 1e-9) & (s <= np.asarray(high, float) + 1e-9)).all(axis=1)
    return n[ok].astype(int)


def _share_of_some_whole(parts: Figure, reported: Figure, params: Mapping) -> Outcome:
    """``solve_whole``: the shares are of one whole the paper does not give (as a rate without
    its denominator is solved for, :func:`rule_ratio`): the whole numbers up to ``whole_max``
    (default three times the parts' sum) of which every printed share is its count's share;
    consistent if there is one."""
    if not np.array_equal(np.atleast_1d(parts.low), np.atleast_1d(parts.high)):
        raise ValueError("solving for the whole needs exact counts")
    counts = np.atleast_1d(parts.value)
    upto = int(params.get("whole_max", 3 * counts.sum()))
    found = wholes(counts, np.atleast_1d(reported.low), np.atleast_1d(reported.high), upto)
    computed = f"whole = {_integers(found)}"
    if len(found):
        return Outcome(computed, CONSISTENT)
    return Outcome(computed, INCONSISTENT, f"no whole number up to {upto} gives every printed share")


def rule_ratio(inputs, reported, params, tol) -> Outcome:
    """``scale * numerator / denominator`` prints as the reported rate. Without a denominator,
    the integers up to ``denominator_max`` that reproduce the rate (``n = a to b``) are solved
    for: consistent if there are any."""
    scale = float(params.get("scale", 1.0))
    num = _summed(inputs["numerator"])
    if "denominator" not in inputs:
        upto = int(inputs["denominator_max"].high)
        found = solve_integer(num, reported, scale, upto)
        computed = f"n = {_integers(found)}"
        if len(found):
            return Outcome(computed, CONSISTENT)
        return Outcome(computed, INCONSISTENT, f"no whole number up to {upto} gives {reported.printed}")
    den = _summed(inputs["denominator"])
    b = box([num, den])
    values = scale * b[:, 0] / b[:, 1]
    out = _compare(values, reported, tol, "rate")
    if out.verdict == INCONSISTENT:
        implied = solve_integer(num, reported, scale, int(10 * den.high) + 10)
        out = Outcome(
            out.computed, out.verdict, f"{out.reason}; the printed rate implies a denominator of {_integers(implied)}"
        )
    return out


def _summed(f: Figure) -> Figure:
    """A vector input as the sum of its elements (an exact sum of counts stays exact)."""
    if not f.is_vector:
        return f
    return Figure(float(f.value.sum()), float(f.low.sum()), float(f.high.sum()), " + ".join(f.printed.split(", ")))


def rule_change(inputs, reported, params, tol) -> Outcome:
    """The relative change from ``old`` to ``new`` in percent, 100 (new - old) / old (each may be
    a sum of parts)."""
    old, new = _summed(inputs["old"]), _summed(inputs["new"])
    b = box([old, new])
    return _compare(100 * (b[:, 1] - b[:, 0]) / b[:, 0], reported, tol, "change")


def rule_f1(inputs, reported, params, tol) -> Outcome:
    """F1 is the harmonic mean of precision and recall, 2 P R / (P + R)."""
    b = box([inputs["precision"], inputs["recall"]])
    return _compare(harmonic_mean(b[:, 0], b[:, 1]), reported, tol, "F1")


def rule_statcheck(inputs, reported, params, tol) -> Outcome:
    """statcheck's rule: recompute the two-sided p from the test statistic and its degrees of
    freedom (``test: t``: inputs ``statistic`` and ``df``; ``test: r``: ``statistic`` and ``n``);
    consistent if some unrounded statistic and df give a p the reported p allows ("<0.001" is
    any p below 0.001)."""
    test = params.get("test", "t")
    size = inputs["df"] if test == "t" else inputs["n"]
    b = box([inputs["statistic"], size])
    p = p_from_t(b[:, 0], b[:, 1]) if test == "t" else p_from_r(b[:, 0], b[:, 1])
    lo, hi = float(np.min(p)), float(np.max(p))
    computed = f"p = {lo:.1e} to {hi:.1e}" if lo != hi else f"p = {lo:.1e}"
    if reported is None:
        return Outcome(computed, NOT_DECIDABLE, "the paper reports no p for this statistic")
    if _overlap(lo, hi, reported):
        return Outcome(computed, CONSISTENT)
    return Outcome(computed, INCONSISTENT, f"{computed} cannot be reported as p {reported.printed}")


def _n_values(inputs: Mapping[str, Figure]) -> np.ndarray:
    if "n" in inputs:
        n = inputs["n"]
        return np.arange(math.ceil(n.low), math.floor(n.high) + 1)
    return np.arange(math.ceil(inputs["n_min"].low), math.floor(inputs["n_max"].high) + 1)


def rule_grim(inputs, reported, params, tol) -> Outcome:
    """GRIM: the mean of integer ratings (``scale``, ``items`` per rating) is possible with its n
    (an exact n, or every n in a range: ``n`` with a rounding range, or ``n_min``..``n_max``);
    consistent if some n in range allows it; not decidable by rule where every n is at least ten to the
    power of the decimals, since then every mean is possible and the check cannot fail."""
    mean = inputs["mean"]
    d = decimals_of(tol)
    n = _n_values(inputs)
    scale = tuple(params.get("scale", (1, 7)))
    ok = grim_possible(mean.value, n, d, scale, int(params.get("items", 1)))
    computed = f"possible for {ok.sum()} of {len(n)} values of n ({_integers(n)})"
    if ok.all() and n.min() * int(params.get("items", 1)) >= 10**d:
        places = f"{d} decimal{'s' if d != 1 else ''}"
        return Outcome(computed, NOT_DECIDABLE, f"GRIM cannot fail at n ≥ {10**d} with {places}, so it says nothing")
    if ok.any():
        return Outcome(computed, CONSISTENT)
    return Outcome(computed, INCONSISTENT, f"no n in {_integers(n)} gives a mean of {mean.printed}")


def rule_grimmer(inputs, reported, params, tol) -> Outcome:
    """GRIMMER: the mean and SD of n integer ratings on ``scale`` are possible together (exact
    enumeration, see :func:`grimmer_possible`)."""
    d = decimals_of(tol)
    n = _n_values(inputs)
    scale = tuple(params.get("scale", (1, 7)))
    ok = np.array([grimmer_possible(inputs["mean"].value, inputs["sd"].value, int(k), d, scale=scale) for k in n])
    computed = f"possible for {ok.sum()} of {len(n)} values of n ({_integers(n)})"
    return Outcome(computed, CONSISTENT if ok.any() else INCONSISTENT, "" if ok.any() else "no n allows both")


COEFFICIENTS: dict[str, Callable] = {
    "fleiss": fleiss_from_votes,
    "ac1": ac1_from_votes,
    "unanimity": unanimity_from_votes,
}


def rule_kappa_from_votes(inputs, reported, params, tol) -> Outcome:
    """Agreement of m raters voting yes/no from each input's vote histogram alone
    (``coefficient``: fleiss, ac1 or unanimity); the reported figure names the input claimed to
    have the highest: consistent if it does (a tie at full precision counts)."""
    name = params.get("coefficient", "fleiss")
    values = {k: COEFFICIENTS[name](f.value) for k, f in inputs.items()}
    computed = ", ".join(f"{k} {_fmt(v, 2)}" for k, v in values.items())
    if reported is None:
        return Outcome(computed, NOT_DECIDABLE, "no claim about the order")
    claimed = reported.printed
    if claimed not in values:
        raise ValueError(f"the claimed highest, {claimed!r}, is not one of the inputs {list(values)}")
    top = max(values.values())
    if values[claimed] >= top - 1e-12:
        return Outcome(computed, CONSISTENT)
    best = max(values, key=values.get)
    return Outcome(
        computed, INCONSISTENT, f"{best} is highest ({_fmt(top, 2)}); {claimed} has {_fmt(values[claimed], 2)}"
    )


def clear_majority(histograms: list[np.ndarray]) -> tuple[int, int, int]:
    """(clear no, clear yes, unclear) units of one or more vote histograms: clear where all but
    one rater agree (3-1 or 4-0 of four) and that is more than half, as Section 6.2 counts them."""
    no = yes = unclear = 0
    for h in histograms:
        h = np.asarray(h, int)
        m = len(h) - 1
        need = m - 1 if m - 1 > m / 2 else m
        k = np.arange(m + 1)
        yes += int(h[k >= need].sum())
        no += int(h[m - k >= need].sum())
        unclear += int(h[(k < need) & (m - k < need)].sum())
    return no, yes, unclear


def _agreements(histograms, flagged: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (agreements, true positives) a judge flagging F units (F in ``flagged``) can reach
    with the clear majority: F_clear of its flags on clear units, tp of them on clear errors;
    agreements = clear no - (F_clear - tp) + tp. Each pair once, in no particular order."""
    no, yes, unclear = clear_majority(histograms)
    clear = no + yes
    # F flags put F_clear on clear units for every F_clear in [F - unclear, F]: mark those ranges
    edges = np.zeros(clear + 2, int)
    flagged = np.asarray(flagged, int)
    low, high = np.clip(flagged - unclear, 0, None), np.minimum(flagged, clear)
    keep = low <= high
    np.add.at(edges, low[keep], 1)
    np.add.at(edges, high[keep] + 1, -1)
    fc, tp = np.meshgrid(np.flatnonzero(np.cumsum(edges)[: clear + 1]), np.arange(yes + 1), indexing="ij")
    ok = (tp <= fc) & (fc - tp <= no)
    return (no - (fc - tp) + tp)[ok], tp[ok]


def _flagged(inputs: Mapping[str, Figure], units: int) -> tuple[np.ndarray, str]:
    """How many units the judge can have flagged, over everything the tables allow.

    With ``total`` and ``per_flagged`` (a campaign's spans and spans per flagged record on all
    examples, Table 3) and ``spans`` (its spans on these units, Table 4): N records flagged in all
    (every N that prints as the rate), of which the units hold F, with N - F flagged records
    outside holding the other total - spans spans, at least one each; so F runs from
    max(N - (total - spans), 1) to min(spans, N). With ``spans`` and ``per_flagged`` alone, the
    rate is applied to these units' spans; with ``spans`` alone, at most one unit per span."""
    spans = inputs["spans"]
    if "per_flagged" in inputs and "total" in inputs:
        total = inputs["total"]
        found = solve_integer(total, inputs["per_flagged"], 1.0, max(units, int(total.high)))
        outside = int(total.high) - int(spans.low)
        least = 1 if spans.low > 0 else 0
        flagged = sorted(
            {f for n in found for f in range(max(int(n) - outside, least), min(int(spans.high), int(n), units) + 1)}
        )
        how = (
            f"{_integers(np.array(flagged, int))} flagged (of the {_integers(found)} records Table 3's "
            f"{total.printed} / {inputs['per_flagged'].printed} gives, those on these examples)"
        )
        return np.array(flagged, int), how
    if "per_flagged" in inputs:
        found = solve_integer(spans, inputs["per_flagged"], 1.0, units)
        return found, f"{_integers(found)} flagged ({spans.printed} / {inputs['per_flagged'].printed})"
    return np.arange(0, min(int(spans.high), units) + 1), f"at most {int(spans.high)} flagged"


def flags_allowed(campaign: str, units: int, figures: Mapping | None = None) -> np.ndarray:
    """Every number of the ``units`` stage-2 examples a judge can have flagged, as Tables 3
    and 4 allow (its spans and spans per flagged record on all examples, its spans on these; see
    :func:`_flagged`): what the paper's own tables fix of a judge's marks, before any corpus."""
    f = paper.figures() if figures is None else figures
    t3, t4 = f["table3_llm_campaigns"][campaign], f["table4_dataset_level_stage2_subset"][campaign]
    inputs = {
        "total": figure_of(t3["total"]),
        "per_flagged": figure_of(
            t3["spans_per_error_record"], _half(f, f"table3_llm_campaigns/{campaign}/spans_per_error_record")
        ),
        "spans": figure_of(t4["total"]),
    }
    return _flagged(inputs, units)[0]


def _agreements_per_type(inputs: Mapping[str, Figure], types: list[str]) -> tuple[np.ndarray, np.ndarray, str]:
    """Every (agreements, true positives) over the types pooled when each type's flags are bounded
    by its own spans (``votes<T>`` with ``spans<T>``, Table 4's split of a judge's spans): each
    type's reachable pairs (:func:`_agreements`), summed over the types in every combination."""
    reach = np.ones((1, 1), int)  # reach[a, t]: a agreements with t true positives reachable
    said = []
    for t in types:
        h = inputs[f"votes{t}"].value
        flagged, how = _flagged({"spans": inputs[f"spans{t}"]}, int(np.sum(h)))
        agree, tp = _agreements([h], flagged)
        own = np.zeros((int(agree.max()) + 1, int(tp.max()) + 1), int)
        own[agree, tp] = 1
        reach = (signal.convolve2d(reach, own) > 0).astype(int)
        said.append(f"{t.strip('_') or 'votes'} {how}")
    agree, tp = np.nonzero(reach)
    return agree, tp, "; ".join(said)


def rule_clear_majority(inputs, reported, params, tol) -> Outcome:
    """A judge's agreement with the clear human majority (Section 6.2), from the vote histograms
    (inputs named ``votes...``; several are pooled, as per-type agreement pools the types) and
    how many units the judge flagged (per type where each ``votes<T>`` has its ``spans<T>``).
    ``solve: agreement`` (default): consistent if the reported agreement is reachable.
    ``solve: true_positives``: given the ``agreement``, the clear errors the judge must have found;
    consistent if the reported number is possible. ``true_positives_at_most`` bounds the clear
    errors the judge hits, where the text says how many it finds."""
    hists = [f.value for k, f in inputs.items() if k.startswith("votes")]
    no, yes, unclear = clear_majority(hists)
    types = [k[len("votes") :] for k in inputs if k.startswith("votes")]
    if len(types) > 1 and all(f"spans{t}" in inputs for t in types):
        agree, tp, how = _agreements_per_type(inputs, types)
    else:
        flagged, how = _flagged(inputs, no + yes + unclear)
        agree, tp = _agreements(hists, flagged)
    if "true_positives_at_most" in inputs:  # what the text says of the judge's hits on clear errors
        cap = inputs["true_positives_at_most"]
        agree, tp = agree[tp <= cap.high], tp[tp <= cap.high]
        how += f", at most {cap.printed} of them on a clear error"
    share = agree / (no + yes)
    if params.get("solve", "agreement") == "agreement":
        if not len(share):
            return Outcome(how, INCONSISTENT, "no agreement is reachable")
        computed = f"{how}: agreement {_fmt(share.min(), 3)} to {_fmt(share.max(), 3)}"
        hit = (share >= reported.low - 1e-9) & (share <= reported.high + 1e-9)
        if hit.any():
            return Outcome(computed, CONSISTENT)
        return Outcome(
            computed,
            INCONSISTENT,
            f"{reported.printed} is outside what the judge's flags allow on the {no + yes} clear units "
            f"({_fmt(share.min(), 3)} to {_fmt(share.max(), 3)})",
        )
    a = inputs["agreement"]
    possible = np.unique(tp[(share >= a.low - 1e-9) & (share <= a.high + 1e-9)])
    computed = f"{how}, agreement {a.printed}: true positives {_integers(possible)}"
    if len(possible) == 0:
        return Outcome(computed, INCONSISTENT, f"agreement {a.printed} is not reachable")
    claimed = np.arange(math.ceil(reported.low), math.floor(reported.high) + 1)
    if np.isin(claimed, possible).any():
        return Outcome(computed, CONSISTENT)
    found = f"at least {possible.min()} clear error{'' if possible.min() == 1 else 's'} found"
    return Outcome(computed, INCONSISTENT, f"{found}, not {reported.printed}")


def rule_spread(inputs, reported, params, tol) -> Outcome:
    """A count spread over a subset in proportion to its size (exact binomial test of ``inside``
    of ``total`` against the share ``subset`` / reported size, or the ``share`` given; two-sided,
    or one-sided with ``alternative: greater`` or ``less`` where the claim has a direction):
    consistent if p >= ``alpha`` (default 0.001)."""
    inside, total = int(_summed(inputs["inside"]).value), int(_summed(inputs["total"]).value)
    share = float(params["share"]) if "share" in params else inputs["subset"].value / reported.value
    alpha = float(params.get("alpha", 0.001))
    p = stats.binomtest(inside, total, share, alternative=params.get("alternative", "two-sided")).pvalue
    computed = f"{inside} of {total} ({100 * inside / total:.1f}%) against {100 * share:.1f}%: p = {p:.2g}"
    if p >= alpha:
        return Outcome(computed, CONSISTENT)
    return Outcome(computed, INCONSISTENT, f"so uneven a spread has p = {p:.2g} < {alpha:g}")


def rule_homogeneity(inputs, reported, params, tol) -> Outcome:
    """The same distribution over categories in every row (Pearson's chi-square test of
    homogeneity on the rows' counts, scipy): a claim of no difference (``claim: same``, the
    default) is consistent if p >= ``alpha`` (default 0.05), a claim of a difference
    (``claim: differ``) if p < alpha. With ``categories: k`` a row's counts are read k at a time
    and summed (several groups' counts pooled into one row)."""
    k = params.get("categories")
    table = np.array(
        [np.atleast_1d(_exact(f, n)).reshape(-1, int(k)).sum(axis=0) if k else _exact(f, n) for n, f in inputs.items()],
        float,
    )
    table = table[:, table.sum(axis=0) > 0]
    chi2, p, dof, _ = stats.chi2_contingency(table, correction=False)
    alpha = float(params.get("alpha", 0.05))
    shares = "; ".join(
        f"{k} " + ", ".join(_fmt(100 * x / row.sum(), 1) for x in row) + "%" for k, row in zip(inputs, table)
    )
    computed = f"{shares}: chi-square {chi2:.2f} ({dof} df), p = {p:.2g}"
    same = params.get("claim", "same") == "same"
    if (p >= alpha) == same:
        return Outcome(computed, CONSISTENT)
    if same:
        return Outcome(computed, INCONSISTENT, f"the rows differ: p = {p:.2g} < {alpha:g}")
    return Outcome(computed, INCONSISTENT, f"no difference shown: p = {p:.2g} >= {alpha:g}")


def _exact(f: Figure, name: str) -> np.ndarray:
    if not np.array_equal(np.atleast_1d(f.low), np.atleast_1d(f.high)):
        raise ValueError(f"input {name} must be exact counts")
    return np.atleast_1d(f.value)


def rule_text(inputs, reported, params, tol) -> Outcome:
    """A statement against a statement (or a figure the paper does not give): no arithmetic can
    decide it; the reading is recorded with its quotes (and the relation's ``read_as``, a
    person's reading, is shown beside it)."""
    return Outcome("–", NOT_DECIDABLE, str(params.get("reading", "text, not numbers")))


# --- predicates -----------------------------------------------------------------------------------


def _minmax(reduce, ufunc):
    def f(*args):
        if len(args) == 1:
            return reduce(np.asarray(args[0], float))
        return ufunc.reduce(np.broadcast_arrays(*[np.asarray(a, float) for a in args]))

    return f


def whole_numbers(*values) -> np.ndarray:
    """The whole numbers from the least to the greatest of ``values``: every count a rounded
    figure allows (its corners over the box, or the bounds given), to search over in a predicate."""
    flat = np.concatenate([np.atleast_1d(np.asarray(v, float)) for v in values])
    return np.arange(math.ceil(flat.min() - 1e-9), math.floor(flat.max() + 1e-9) + 1, dtype=float)


FUNCTIONS: dict[str, Callable] = {
    "min": _minmax(np.min, np.minimum),
    "max": _minmax(np.max, np.maximum),
    "abs": np.abs,
    "floor": np.floor,
    "ceil": np.ceil,
    "sum": lambda v: float(np.sum(v)),
    "len": lambda v: float(len(v)),
    "tvd": tvd,
    "max_tvd": max_tvd,
    "yes": yes_votes,
    "at_least": at_least,
    "fleiss": fleiss_from_votes,
    "ac1": ac1_from_votes,
    "whole": whole_numbers,
}
_BINARY = {
    ast.Add: np.add,
    ast.Sub: np.subtract,
    ast.Mult: np.multiply,
    ast.Div: np.divide,
    ast.FloorDiv: np.floor_divide,
    ast.Pow: np.power,
}
_COMPARE = {ast.Lt: np.less, ast.LtE: np.less_equal, ast.Gt: np.greater, ast.GtE: np.greater_equal}


def parse_expression(text: str) -> ast.Expression:
    """Parse a predicate; only arithmetic, comparisons, and/or/not, numbers, lists, input names,
    subscripts and :data:`FUNCTIONS` are allowed (ValueError otherwise)."""
    tree = ast.parse(text, mode="eval")
    allowed = (
        ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.UnaryOp, ast.USub, ast.UAdd, ast.Not,
        ast.Compare, ast.Eq, ast.Call, ast.Name, ast.Load, ast.Constant, ast.List, ast.Tuple, ast.Subscript,
        *_BINARY, *_COMPARE,
    )  # fmt: skip
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            raise ValueError(f"{type(node).__name__} is not allowed in a predicate")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS):
            raise ValueError(f"only {', '.join(FUNCTIONS)} may be called")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise ValueError(f"{node.value!r}: only numbers are constants")
    return tree


def evaluate(tree: ast.AST, env: Mapping[str, Any]):
    """Evaluate a parsed predicate with every rounded input an array over the box's corners:
    comparisons hold corner by corner, except ``==``, which holds where the difference of its
    sides changes sign (or is zero) somewhere in the box."""
    ev = lambda n: evaluate(n, env)  # noqa: E731
    if isinstance(tree, ast.Expression):
        return ev(tree.body)
    if isinstance(tree, ast.Constant):
        return tree.value
    if isinstance(tree, ast.Name):
        return env[tree.id]
    if isinstance(tree, (ast.List, ast.Tuple)):
        return np.array([ev(e) for e in tree.elts], float)
    if isinstance(tree, ast.Subscript):
        return np.asarray(ev(tree.value))[int(ev(tree.slice))]
    if isinstance(tree, ast.Call):
        return FUNCTIONS[tree.func.id](*[ev(a) for a in tree.args])
    if isinstance(tree, ast.BinOp):
        return _BINARY[type(tree.op)](ev(tree.left), ev(tree.right))
    if isinstance(tree, ast.UnaryOp):
        v = ev(tree.operand)
        return np.logical_not(v) if isinstance(tree.op, ast.Not) else (-v if isinstance(tree.op, ast.USub) else v)
    if isinstance(tree, ast.BoolOp):
        reduce = np.logical_and.reduce if isinstance(tree.op, ast.And) else np.logical_or.reduce
        return reduce(np.broadcast_arrays(*[np.asarray(ev(v)) for v in tree.values]))
    if isinstance(tree, ast.Compare):
        left, out = ev(tree.left), True
        for op, right_node in zip(tree.ops, tree.comparators):
            right = ev(right_node)
            if isinstance(op, ast.Eq):
                diff = np.asarray(left, float) - np.asarray(right, float)
                held = bool(np.min(diff) <= 1e-12 and np.max(diff) >= -1e-12)
            else:
                held = _COMPARE[type(op)](left, right)
            out, left = np.logical_and(out, held), right
        return out
    raise ValueError(f"cannot evaluate {type(tree).__name__}")


def rule_predicate(inputs, reported, params, tol) -> Outcome:
    """A claim as a predicate over the figures (``expr``, in input names; ``show`` is the number
    that decides it, shown as computed, as ``show_label = value`` or in ``show_format``, a text
    with ``{}`` where the value goes): consistent if it holds for some unrounded inputs, with
    the reason "only within rounding" where it fails at the printed values."""
    scalar = {k: f for k, f in inputs.items() if not f.is_vector and not f.is_text}
    names = list(scalar)
    corners = box([scalar[k] for k in names])
    env: dict[str, Any] = {k: corners[:, i] for i, k in enumerate(names)}
    for k, f in inputs.items():
        if f.is_vector:
            if not np.array_equal(f.low, f.high):
                raise ValueError(f"vector input {k} must be exact counts in a predicate")
            env[k] = f.value
    held = np.broadcast_to(np.asarray(evaluate(parse_expression(str(params["expr"])), env), bool), (len(corners),))
    computed = "holds" if held[0] else "fails"
    if "show" in params:
        shown = np.broadcast_to(
            np.asarray(evaluate(parse_expression(str(params["show"])), env), float), (len(corners),)
        )
        value = _ranged(shown, int(params.get("show_decimals", 2)))
        label = params.get("show_label", params["show"])
        computed = str(params["show_format"]).format(value) if "show_format" in params else f"{label} = {value}"
    if held[0]:
        return Outcome(computed, CONSISTENT)
    if held.any():
        return Outcome(computed, CONSISTENT, "holds only within rounding, not at the printed values")
    return Outcome(computed, INCONSISTENT, str(params.get("fails", "the claim fails for every unrounded input")))


RULES: dict[str, Callable[..., Outcome]] = {
    "sum": rule_sum,
    "bound": rule_bound,
    "share": rule_share,
    "ratio": rule_ratio,
    "change": rule_change,
    "f1": rule_f1,
    "statcheck": rule_statcheck,
    "grim": rule_grim,
    "grimmer": rule_grimmer,
    "kappa_from_votes": rule_kappa_from_votes,
    "clear_majority": rule_clear_majority,
    "spread": rule_spread,
    "homogeneity": rule_homogeneity,
    "predicate": rule_predicate,
    "text": rule_text,
}

# What a relation assumes when it says nothing more (its ``reading`` adds to it): shown beside each check.
RULE_READINGS = {
    "sum": "the parts as printed add up to the total (counts exact, decimals at their rounding)",
    "bound": "the parts as printed stay within the bound",
    "share": "each share is its count over the whole, rounded to the nearest (and, where that fails, "
    "largest-remainder rounding of the row)",
    "ratio": "the rate is its numerator over its denominator (without one: over some whole number)",
    "change": "the change in percent of the old value",
    "f1": "one pair: F1 is the harmonic mean of its P and R",
    "statcheck": "a two-sided p from the statistic and its degrees of freedom (Student's t; Pearson's r)",
    "grim": "a mean of whole-number ratings over the records the tables allow",
    "grimmer": "a mean and SD of whole-number ratings over the records the tables allow",
    "kappa_from_votes": "four raters voting yes or no on each example, as Table 5 counts them",
    "clear_majority": "clear human majority: 3-1 or 4-0 of four; the judge flags as many examples as the tables allow",
    "spread": "a count spread over a subset in proportion to its size (exact binomial test)",
    "homogeneity": "the rows' counts are independent draws (chi-square test of homogeneity)",
    "predicate": "the claim as a comparison of the figures, anywhere within their rounding",
    "text": "a statement against a statement: a person reads it, no arithmetic decides it",
}
# what a person may record for a text relation (``read_as``): "depends on the reading" where the
# words admit a reading under which both statements hold and one under which they do not
TEXT_READINGS = ("inconsistent", "consistent", READING)


# --- the relations file ---------------------------------------------------------------------------


@dataclass
class Relation:
    """One declared relation with the line it starts on and the line of each of its fields."""

    data: dict
    line: int = 0
    lines: dict = field(default_factory=dict)
    file: str = "paper_relations.yaml"

    def __getitem__(self, key):
        return self.data[key]

    def get(self, key, default=None):
        return self.data.get(key, default)

    def problem(self, fld: str, message: str) -> Problem:
        return Problem(self.file, self.lines.get(fld.split(".")[0], self.line), fld, message)


# libyaml's safe loader where PyYAML was built with it (the same documents, several times faster)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(path: Path = RELATIONS_FILE) -> list[Relation]:
    """The relations of ``path`` with their line numbers; CorpusError listing every problem of
    the file's shape (a missing field, an unknown rule or verdict, a repeated id)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    try:
        root = yaml.compose(text, Loader=_LOADER)
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise CorpusError([Problem(path.name, mark.line + 1 if mark else 0, "", f"not YAML: {e}")], WHAT) from None
    if not isinstance(data, dict) or not isinstance(data.get("relations"), list):
        raise CorpusError([Problem(path.name, 1, "relations", "the file holds no list named relations")], WHAT)
    seq = next(v for k, v in root.value if k.value == "relations")
    out = [
        Relation(item, node.start_mark.line + 1, {k.value: k.start_mark.line + 1 for k, _ in node.value}, path.name)
        if isinstance(node, yaml.MappingNode)
        else Relation({"_not_a_mapping": item}, node.start_mark.line + 1, {}, path.name)
        for item, node in zip(data["relations"], seq.value)
    ]
    problems = validate(out)
    if problems:
        raise CorpusError(problems, WHAT)
    return out


def validate(relations: list[Relation]) -> list[Problem]:
    """Problems of shape: each relation a mapping with the required fields, a known rule, a
    known expected verdict, a number for tolerance, a unique id, a parsable predicate."""
    problems, seen = [], {}
    for r in relations:
        if "_not_a_mapping" in r.data:
            problems.append(r.problem("", "a relation must be a mapping of fields"))
            continue
        problems += [r.problem(f, f"missing field {f}") for f in REQUIRED if f not in r.data]
        if "rule" in r.data and r["rule"] not in RULES:
            problems.append(r.problem("rule", f"unknown rule {r['rule']!r}; known: {', '.join(RULES)}"))
        if "expect" in r.data and r["expect"] not in VERDICTS:
            problems.append(r.problem("expect", f"{r['expect']!r} is not one of {', '.join(VERDICTS)}"))
        if "tolerance" in r.data and not isinstance(r["tolerance"], (int, float)):
            problems.append(r.problem("tolerance", f"{r['tolerance']!r} is not a number"))
        if "section" in r.data and str(r["section"]) not in SECTIONS:
            problems.append(r.problem("section", f"{r['section']!r} is not one of {', '.join(SECTIONS)}"))
        if "inputs" in r.data and not isinstance(r["inputs"], dict):
            problems.append(r.problem("inputs", "inputs must be a mapping of name -> figure"))
        if "read_as" in r.data and (r.get("rule") != "text" or r["read_as"] not in TEXT_READINGS):
            problems.append(r.problem("read_as", f"read_as is for text relations, one of {', '.join(TEXT_READINGS)}"))
        if "chapters" in r.data and not (isinstance(r["chapters"], list) and set(r["chapters"]) <= CHAPTERS):
            problems.append(r.problem("chapters", f"chapters must be a list of {', '.join(sorted(CHAPTERS))}"))
        if "assumptions" in r.data and not isinstance(r["assumptions"], list):
            problems.append(r.problem("assumptions", "assumptions must be a list of sentences"))
        for key in ("reading", "readings_of", "problem", "not_a_reading", "unprinted"):
            if key in r.data and not (isinstance(r[key], str) and r[key].strip()):
                problems.append(r.problem(key, f"{key} must be a non-empty text"))
        if "readings_of" in r.data and "reading" not in r.data:
            problems.append(r.problem("readings_of", "a relation among several readings names its own reading"))
        if (
            r.get("rule") == "text"
            and "readings_of" in r.data
            and "read_as" not in r.data
            and "unprinted" not in r.data
        ):
            problems.append(
                r.problem("unprinted", "a text relation among readings says what it rests on that no figure prints")
            )
        if "unprinted" in r.data and ("not_a_reading" in r.data or r.get("read_as") in ("inconsistent", "consistent")):
            problems.append(
                r.problem("unprinted", "unprinted is for a reading the text allows and no printed figure decides")
            )
        rid = r.get("id")
        if rid in seen:
            problems.append(r.problem("id", f"id {rid!r} repeats the relation on line {seen[rid]}"))
        seen.setdefault(rid, r.line)
        for key in ("expr", "show"):
            if key in (r.get("params") or {}):
                try:
                    parse_expression(str(r["params"][key]))
                except (SyntaxError, ValueError) as e:
                    problems.append(r.problem(f"params.{key}", f"not a predicate: {e}"))
    return problems


def _resolve(spec, tol: float, figures: Mapping, implied_rows: Mapping[str, pd.Series]) -> tuple[Figure, str]:
    """An input or reported spec as a Figure and where it comes from: a path into the figures,
    ``{path, fields, tolerance}``, ``{paths: [...]}``, ``{value, source, tolerance, printed}`` (a
    literal cited to the paper; ``printed`` is how the paper words it) or ``{implied: id}`` (a
    quantity of :func:`implied`)."""
    if isinstance(spec, str):
        spec = {"path": spec}
    if not isinstance(spec, dict):
        raise ValueError(f"{spec!r} is neither a path nor a mapping")
    t = float(spec.get("tolerance", tol if not spec.get("exact") else 0.0))
    if "implied" in spec:
        row = implied_rows.get(spec["implied"])
        if row is None:
            raise KeyError(f"implied() has no quantity {spec['implied']!r}")
        return Figure(float(row["value"]), float(row["low"]), float(row["high"]), row["shown"], True), spec["implied"]
    if "value" in spec:
        if not spec.get("source"):
            raise ValueError("a literal value needs its source (where the paper prints it)")
        f = figure_of(spec["value"], t if "tolerance" in spec else _float_tol(spec["value"], tol))
        return (replace(f, printed=str(spec["printed"])) if "printed" in spec else f), spec["source"]
    if "paths" in spec:
        values = [paper.lookup(figures, p)[1] for p in spec["paths"]]
        return figure_of(values, t if "tolerance" in spec else _float_tol(values, tol)), "; ".join(spec["paths"])
    value = paper.lookup(figures, spec["path"])[1]
    if isinstance(value, dict):
        if "fields" not in spec:
            raise ValueError(f"{spec['path']} is a table; name its fields")
        value = [value[f] for f in spec["fields"]]
    figure = figure_of(value, t if "tolerance" in spec else _float_tol(value, tol))
    return _capped(figure, spec, implied_rows), spec["path"]


def _capped(f: Figure, spec: Mapping, implied_rows: Mapping[str, pd.Series] | None = None) -> Figure:
    """A figure printed with one open end ("> 0.95") closed by what it is (``at_most: 1``: a share
    is at most one; ``at_least``), so the box can span it. A bound may be what the paper's own tables
    allow (``at_most: {implied: [id, ...]}``: the highest of those quantities of :func:`implied`)."""
    if "at_most" not in spec and "at_least" not in spec:
        return f
    if f.is_text and f.low is None:
        raise ValueError("at_most and at_least close a number's open end, not a text")

    def bound(key: str, default: float) -> tuple[float, str]:
        given = spec.get(key, default)
        if not isinstance(given, dict):
            return float(given), str(given)
        ids = given["implied"] if isinstance(given["implied"], list) else [given["implied"]]
        rows = [(implied_rows or {}).get(i) for i in ids]
        if any(row is None for row in rows):
            raise KeyError(f"implied() has no quantity {ids[[row is None for row in rows].index(True)]!r}")
        pick = max if key == "at_most" else min
        value = pick(float(row["high" if key == "at_most" else "low"]) for row in rows)
        return value, f"{_fmt(value, 3)}, what the tables allow"

    low, _ = bound("at_least", -math.inf)
    high, said = bound("at_most", math.inf)
    return replace(
        f,
        low=max(float(f.low), low),
        high=min(float(f.high), high),
        printed=f"{f.printed} (at most {said})" if "at_most" in spec else f.printed,
    )


def _float_tol(value, tol: float) -> float:
    """Counts (ints) are exact unless an input says otherwise; printed decimals get ``tol``."""
    values = value if isinstance(value, (list, tuple)) else [value]
    return tol if any(isinstance(v, float) for v in values) else 0.0


def _tolerance_text(tol: float, note: str | None) -> str:
    if note:
        return f"±{_fmt(tol, decimals_of(tol))} ({note})"
    return f"±{_fmt(tol, decimals_of(tol) + 1)}" if tol else "exact"


def run(relations, figures: Mapping | None = None) -> pd.DataFrame:
    """Check every relation (:class:`Relation` objects from :func:`load`, or plain dicts) against
    the figures (default: the paper's). Every problem (a path that is no figure, a rule's bad
    parameters) is collected first and raised at once as a CorpusError naming file, line and field.

    Columns: ``id, section, rule, claim, inputs, computed, reported, tolerance, verdict, reason``."""
    figures = paper.figures() if figures is None else figures
    rels = [r if isinstance(r, Relation) else Relation(dict(r)) for r in relations]
    problems = validate(rels)
    if problems:
        raise CorpusError(problems, WHAT)
    implied_rows: dict = {}
    if any(_uses_implied(r) for r in rels):
        try:
            implied_rows = {row["id"]: row for _, row in implied(figures).iterrows()}
        except KeyError as e:  # figures without a table implied() reads: the relations that need it say so
            problems = [
                r.problem("inputs", f"implied() needs the figure {e.args[0]!r}") for r in rels if _uses_implied(r)
            ]
            raise CorpusError(problems, WHAT) from None
    rows = []
    for r in rels:
        tol = float(r["tolerance"])
        try:
            inputs, texts = {}, []
            for name, spec in r["inputs"].items():
                try:
                    inputs[name], _ = _resolve(spec, tol, figures, implied_rows)
                except (KeyError, ValueError, TypeError) as e:
                    problems.append(r.problem(f"inputs.{name}", _message(e)))
                    continue
                texts.append(f"{name} = {inputs[name].printed}")
            reported = None
            if r.get("reported") is not None:
                try:
                    reported, _ = _resolve(r["reported"], tol, figures, implied_rows)
                    if not reported.is_text:
                        half = tol if np.all(reported.low == reported.high) else 0.0
                        reported = replace(reported, low=reported.low - half, high=reported.high + half)
                except (KeyError, ValueError, TypeError) as e:
                    problems.append(r.problem("reported", _message(e)))
            if len(inputs) < len(r["inputs"]) or (r.get("reported") is not None and reported is None):
                continue
            outcome = _as_declared(r, RULES[r["rule"]](inputs, reported, dict(r.get("params") or {}), tol))
        except (KeyError, ValueError, TypeError, ZeroDivisionError) as e:
            problems.append(r.problem("params", f"{r['rule']}: {_message(e)}"))
            continue
        rows.append(
            {
                "id": r["id"],
                "section": str(r["section"]),
                "rule": r["rule"],
                "claim": r["claim"],
                "reading": _reading_text(r),
                "inputs": "; ".join(texts),
                "computed": outcome.computed,
                "reported": "–" if reported is None else reported.printed,
                "tolerance": _tolerance_text(tol, r.get("tolerance_note")),
                "verdict": outcome.verdict,
                "reason": outcome.reason or "–",
                "outcome": _outcome(r, outcome),
                "group": str(r.get("readings_of") or r["id"]),
                "problem": str(r.get("problem") or "–"),
            }
        )
    if problems:
        raise CorpusError(problems, WHAT)
    return _by_reading(pd.DataFrame(rows, columns=COLUMNS), {r["id"]: r for r in rels})


def _as_declared(r: Relation, outcome: Outcome) -> Outcome:
    """A rule's outcome as the relation declares it: a text relation a person reads as depending on
    the reading takes that verdict; a relation on a reading the text excludes (``not_a_reading``:
    why, with the quote) shows what the figures give under it, not a verdict on the paper."""
    if r["rule"] == "text" and r.get("read_as") == READING:
        rests = (
            f"; the reading that fits rests on what the paper does not print: {r['unprinted']}"
            if r.get("unprinted")
            else ""
        )
        return replace(outcome, verdict=READING, reason=outcome.reason + rests)
    if r.get("unprinted"):
        said = f"rests on what the paper does not print: {r['unprinted']}"
        if outcome.computed != NO_OUTCOME:
            found = {CONSISTENT: "fits", INCONSISTENT: "fails"}.get(outcome.verdict, outcome.verdict)
            said += f"; what the figures need under it: {outcome.computed} ({found})"
        return replace(outcome, verdict=NOT_DECIDABLE, reason=said)
    if r.get("not_a_reading"):
        found = {CONSISTENT: "fits", INCONSISTENT: "fails"}.get(outcome.verdict, outcome.verdict)
        said = f"not a reading of the text ({r['not_a_reading']}); what the figures give under it: {found}"
        return replace(outcome, verdict=NOT_DECIDABLE, reason=said + (f" ({outcome.reason})" if outcome.reason else ""))
    return outcome


def _reading_text(r: Relation) -> str:
    """The reading a relation takes and what it assumes, for readers: its own ``reading`` (else
    the rule's default) and its ``assumptions``."""
    said = [str(r.get("reading") or RULE_READINGS[r["rule"]])] + [str(a) for a in r.get("assumptions") or []]
    return "; ".join(said)


def _outcome(r: Relation, outcome: Outcome) -> str:
    """The relation's own reading's result, before the other readings of its claim are weighed."""
    if r.get("unprinted"):
        return UNPRINTED
    if r["rule"] == "text":
        return READ_INCONSISTENT if r.get("read_as") == "inconsistent" else NO_OUTCOME
    return {CONSISTENT: FITS, INCONSISTENT: FAILS, ROUNDING: FITS_BY_REMAINDER}.get(outcome.verdict, NO_OUTCOME)


def _by_reading(results: pd.DataFrame, rels: Mapping[str, Relation]) -> pd.DataFrame:
    """Weigh the readings of each claim (relations sharing ``readings_of``): a reading fits when
    every relation of it fits (largest-remainder rounding counts as fitting), fails when one fails,
    and rests on what the paper does not print when one of its relations does (``unprinted``: task
    times, words marked per stage) and none fails. Where one reading fits and another fails, every
    relation of the claim is "depends on the reading", naming both. One standard for the readings
    nothing computes: where every reading the printed figures decide fails and one the text allows
    rests on what the paper does not print, the claim depends on the reading too (a verdict holds
    under every reading the text allows, and no printed figure decides that one); only where every
    reading fails is it inconsistent."""
    out = results.copy()
    for group, rows in out.groupby("group", sort=False):
        readings: dict[str, list[str]] = {}
        for i in rows.index:
            readings.setdefault(str(rels[out.at[i, "id"]].get("reading") or ""), []).append(out.at[i, "outcome"])
        if len(readings) < 2:
            continue
        fits = [k for k, v in readings.items() if all(o in (FITS, FITS_BY_REMAINDER) for o in v)]
        fails = [k for k, v in readings.items() if FAILS in v]
        unprinted = [k for k, v in readings.items() if UNPRINTED in v and FAILS not in v]
        said = None
        if fits and fails:
            said = f"fits read as {_quoted(fits)}; fails read as {_quoted(fails)}"
        elif fails and unprinted and not fits:
            said = (
                f"fails under every reading the printed figures decide ({_quoted(fails)}); read as "
                f"{_quoted(unprinted)} it rests on what the paper does not print, so no printed figure decides it"
            )
        elif fails and len(fails) == len(readings):
            for i in rows.index:
                if out.at[i, "verdict"] == INCONSISTENT:
                    out.at[i, "reason"] = f"{out.at[i, 'reason']}; fails under every reading tried ({_quoted(fails)})"
        if said:
            for i in rows.index:
                own = out.at[i, "reason"]
                out.at[i, "verdict"] = READING
                out.at[i, "reason"] = said if own == "–" else f"{said} (this reading: {own})"
    return out


def _quoted(readings: list[str]) -> str:
    return " and ".join(f"'{r}'" for r in readings)


def _uses_implied(r: Relation) -> bool:
    specs = [*(r.get("inputs") or {}).values(), r.get("reported")]
    bounds = [spec.get(k) for spec in specs if isinstance(spec, dict) for k in ("at_most", "at_least")]
    return any(isinstance(spec, dict) and "implied" in spec for spec in [*specs, *bounds])


def _message(e: Exception) -> str:
    text = str(e.args[0]) if e.args else type(e).__name__
    return f"'{text}' is not a figure of the paper" if isinstance(e, KeyError) and "implied" not in text else text


def check(path: Path = RELATIONS_FILE, figures: Mapping | None = None) -> pd.DataFrame:
    """:func:`run` on the relations file (default: ``data/paper_relations.yaml``)."""
    return run(load(path), figures)


def by_section(results: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The results grouped by the paper's section, in reading order: (title, rows) pairs."""
    order = {s: i for i, s in enumerate(SECTIONS)}
    groups = sorted(results.groupby("section", sort=False), key=lambda kv: order.get(kv[0], len(order)))
    return [(SECTIONS.get(s, s), g.reset_index(drop=True)) for s, g in groups]


def summary(results: pd.DataFrame) -> pd.DataFrame:
    """Relations per rule and verdict. Columns: ``rule, relations`` and one per verdict (:data:`VERDICTS`)."""
    counts = pd.crosstab(results["rule"], results["verdict"]).reindex(columns=list(VERDICTS), fill_value=0)
    counts.insert(0, "relations", counts.sum(axis=1))
    return counts.reset_index().rename_axis(columns=None)


BY_RULE, BY_READING_TEXT = "by rule", "by a person's reading"


def problems(results: pd.DataFrame) -> pd.DataFrame:
    """One row per distinct problem: the relations found inconsistent under every reading (by rule)
    and the text relations a person reads as inconsistent, grouped by the ``problem`` they name (a
    relation that names none is a problem of its own). Columns: ``problem, found, sections,
    relations, claim`` (``found``: by rule or by a person's reading; ``claim``: the first
    relation's)."""
    rows = results[(results["verdict"] == INCONSISTENT) | (results["outcome"] == READ_INCONSISTENT)]
    out = []
    for name, grp in rows.groupby(rows["problem"].where(rows["problem"] != "–", rows["id"]), sort=False):
        out.append(
            {
                "problem": name,
                "found": BY_RULE if (grp["verdict"] == INCONSISTENT).any() else BY_READING_TEXT,
                "sections": ", ".join(dict.fromkeys(grp["section"])),
                "relations": ", ".join(grp["id"]),
                "claim": grp["claim"].iloc[0],
            }
        )
    return pd.DataFrame(out, columns=["problem", "found", "sections", "relations", "claim"])


def headline(results: pd.DataFrame) -> dict[str, int]:
    """The counts a reader is told first: ``relations``; ``problems`` (distinct, :func:`problems`),
    of which ``by_rule`` and ``by_reading`` (a person's reading of two statements); ``rounding``
    (distinct printed rows that only largest-remainder rounding gives, grouped as problems are);
    ``readings`` (claims that fit under one reading the text allows and fail under another);
    ``unprinted`` (claims that fail under every reading the printed figures decide and rest, under
    another the text allows, on what the paper does not print: depending on the reading by the one
    standard for readings nothing computes); ``inconsistent_relations`` (relations inconsistent
    under every reading, before grouping)."""
    found = problems(results)
    rounding = results[results["verdict"] == ROUNDING]
    open_groups = results[results["verdict"] == READING].groupby("group", sort=False)["outcome"]
    unprinted = {g for g, o in open_groups if UNPRINTED in set(o) and not {FITS, FITS_BY_REMAINDER} & set(o)}
    return {
        "relations": len(results),
        "problems": len(found),
        "by_rule": int((found["found"] == BY_RULE).sum()),
        "by_reading": int((found["found"] == BY_READING_TEXT).sum()),
        "rounding": int(rounding["problem"].where(rounding["problem"] != "–", rounding["id"]).nunique()),
        "readings": open_groups.ngroups - len(unprinted),
        "unprinted": len(unprinted),
        "inconsistent_relations": int((results["verdict"] == INCONSISTENT).sum()),
    }


# The chapter that shows each table of the paper's figures (the top level of paper_figures.yaml), and,
# for a relation that reads none of them (text, a cited literal, an implied quantity), its section's
CHAPTER_FIGURES = {
    "01_data_composition": ("dataset", "campaigns", "preprocessing", "table2_human_span_types"),
    "02_dataset_level_agreement": (
        "table2_human_span_types",
        "table3_llm_campaigns",
        "table4_dataset_level_stage2_subset",
        "dataset_level_text",
    ),
    "03_example_level_agreement": ("table5_example_level_votes", "llm_majority_alignment"),
    "04_span_level_agreement": ("table6_span_level",),
    "05_llm_annotators": ("table3_llm_campaigns", "table4_dataset_level_stage2_subset"),
    "06_error_clusters": ("clustering",),
    "07_impressions": ("impressions",),
}
SECTION_CHAPTER = {
    "3.3": "01_data_composition",
    "3.4": "01_data_composition",
    "4.2": "01_data_composition",
    "4.3": "01_data_composition",
    "4.4": "01_data_composition",
    "README": "01_data_composition",
    "Appendix B": "01_data_composition",
    "5": "05_llm_annotators",
    "Appendix C": "05_llm_annotators",
    "6.1": "02_dataset_level_agreement",
    "6.2": "03_example_level_agreement",
    "6.3": "04_span_level_agreement",
    "6.4": "06_error_clusters",
    "6.5": "07_impressions",
}


CHAPTERS = set(CHAPTER_FIGURES) | set(SECTION_CHAPTER.values())


def _paths(spec) -> list[str]:
    if isinstance(spec, str):
        return [spec]
    if isinstance(spec, dict):
        return [spec["path"]] if "path" in spec else list(spec.get("paths", []))
    return []


def chapters(relation) -> list[str]:
    """The chapters that show a relation's figures (:data:`CHAPTER_FIGURES`): the figure it must
    reproduce, or its inputs where it reproduces none; where it reads none of the paper's tables,
    the chapter of its section (:data:`SECTION_CHAPTER`). A relation that reads figures of several
    chapters may pin its own (``chapters``: the chapter that reads its section)."""
    if relation.get("chapters") and not _paths(relation.get("reported")):
        return [str(c) for c in relation["chapters"]]
    reported = _paths(relation.get("reported"))  # a relation is about the figure it must reproduce
    specs = [relation.get("reported")] if reported else list((relation.get("inputs") or {}).values())
    tops = {p.split("/")[0] for spec in specs for p in _paths(spec)}
    found = [c for c, keys in CHAPTER_FIGURES.items() if tops & set(keys)]
    if found:
        return found
    home = SECTION_CHAPTER.get(str(relation.get("section")))
    return [home] if home else []


def for_chapter(chapter: str, results: pd.DataFrame | None = None, path: Path = RELATIONS_FILE) -> pd.DataFrame:
    """The checks on the figures a chapter (``"03_example_level_agreement"``) shows: :func:`check`'s
    rows (``results``, computed when not given) for every relation :func:`chapters` gives it,
    inconsistent ones first, then in the file's order. Same columns as :func:`run`."""
    rels = load(path)
    results = check(path) if results is None else results
    ids = [r["id"] for r in rels if chapter in chapters(r)]
    rows = results.set_index("id").loc[[i for i in ids if i in set(results["id"])]].reset_index()
    first = [0 if v == INCONSISTENT else 1 if flagged(v, o) else 2 for v, o in zip(rows["verdict"], rows["outcome"])]
    return rows.assign(_first=first).sort_values("_first", kind="stable").drop(columns="_first").reset_index(drop=True)


def flagged(verdict: str, outcome: str) -> bool:
    """Whether a check is one a chapter shows open: inconsistent under every reading, depending on
    the reading, or two statements a person reads as inconsistent."""
    return verdict in (INCONSISTENT, READING) or outcome == READ_INCONSISTENT


def for_readers(results: pd.DataFrame) -> pd.DataFrame:
    """The results as a reader's table: the verdict followed by its reason where there is one (a
    text relation's: the person's reading), and the reading each check takes.

    Columns: ``claim, rule, reading, inputs, computed, reported, verdict``."""
    verdict = [
        (f"{v}{'' if v.endswith('by rule') else ' by rule'}; {o}" if o == READ_INCONSISTENT else v)
        + ("" if r == "–" else f": {r}")
        for v, r, o in zip(results["verdict"], results["reason"], results["outcome"])
    ]
    cols = ["claim", "rule", "reading", "inputs", "computed", "reported"]
    return results[cols].assign(verdict=verdict).reset_index(drop=True)


def noted(relations, results: pd.DataFrame, figures: Mapping | None = None) -> pd.DataFrame:
    """Each inconsistency noted in ``paper_figures.yaml`` with the relations that decide it (their
    ``note`` field) and their verdicts; a note no relation decides has none.

    Columns: ``figure, relations, verdicts, inconsistent`` (whether a rule finds it so), ``reason``
    (:func:`note_reason`: why its relations decide it so)."""
    notes = (paper.figures() if figures is None else figures).get("notes", [])
    by_id = results.set_index("id")
    rows = []
    for note in notes:
        ids = [r["id"] for r in relations if r.get("note") == note["figure"] and r["id"] in by_id.index]
        found = [by_id.at[i, "verdict"] for i in ids]
        rows.append(
            {
                "figure": note["figure"],
                "relations": ", ".join(ids) or "–",
                "verdicts": ", ".join(sorted(set(found))) or "–",
                "inconsistent": INCONSISTENT in found,
                "reason": note_reason(by_id.loc[ids].reset_index()) if ids else "no relation decides it",
            }
        )
    return pd.DataFrame(rows, columns=["figure", "relations", "verdicts", "inconsistent", "reason"])


# the verdict that decides a note, first: a contradiction, then a reading, a person's reading, a convention
_DECIDING = (INCONSISTENT, READING, NOT_DECIDABLE, ROUNDING, CONSISTENT)


def note_reason(rows: pd.DataFrame) -> str:
    """Why a noted inconsistency's relations (rows of :func:`run`) decide it as they do: the reasons
    of the relations with the deciding verdict (inconsistent first, then depending on the reading,
    not decidable by rule, the rounding, consistent), each once, with the readings that fit beside a
    reading the text excludes; for consistent checks that give none, what they computed against the
    printed figure."""
    top = next(v for v in _DECIDING if (rows["verdict"] == v).any())
    chosen = rows[rows["verdict"] == top]
    if top != CONSISTENT:
        said = [r for r in dict.fromkeys(chosen["reason"]) if r != "–"]
        if top == NOT_DECIDABLE:  # beside a reading the text excludes, the readings that fit
            said += [f"fits read as '{r}'" for r in rows.loc[rows["verdict"] == CONSISTENT, "reading"]]
        return "; ".join(said)
    told = chosen[chosen["reason"] != "–"]
    said = [f"{c}: {r}" for c, r in zip(told["computed"], told["reason"])]
    plain = chosen[chosen["reason"] == "–"]
    if len(plain) == 1:
        said.append(f"{plain['computed'].iloc[0]} can print as {plain['reported'].iloc[0]}")
    elif len(plain):
        said.append(f"each of its {len(plain)} checks gives the printed figure within its rounding")
    return "; ".join(said)


# --- what the paper's own tables imply --------------------------------------------------------------------


def _row(rid, section, quantity, inputs, value, low, high, method, integer=False, d=2) -> dict:
    """One implied quantity; ``shown`` is its value with its range over the figures' rounding
    (for a count, the whole numbers it can be)."""
    if integer and low == high:
        shown = f"{int(low)}"
    elif integer:
        shown = f"{int(low)} to {int(high)}" if np.isfinite(high) else f"{int(low)} or more"
    elif _fmt(low, d) == _fmt(high, d):
        shown = _fmt(value, d)
    else:
        shown = f"{_fmt(value, d)} [{_fmt(low, d)}, {_fmt(high, d)}]"
    values = {"value": float(value), "low": float(low), "high": float(high), "shown": shown, "method": method}
    return {"id": rid, "section": section, "quantity": quantity, "inputs": inputs, **values}


def _count_range(numerator: float, rate: float, tol: float, upto: int) -> tuple[float, float]:
    """The whole numbers n with numerator / n printing as ``rate`` (inf: any n beyond ``upto``)."""
    found = solve_integer(_number(numerator, 0), _number(rate, tol), 1.0, upto)
    high = float(found.max()) if found.max() < upto else math.inf
    return float(found.min()), high


def _implied_votes(f: Mapping) -> list[dict]:
    """Fleiss' kappa and Gwet's AC1 of each column of Table 5, from its vote histogram alone."""
    rows = []
    for t, h in f["table5_example_level_votes"].items():
        votes = f"Table 5 votes {', '.join(map(str, h))}"
        kappa, ac1 = fleiss_from_votes(h), ac1_from_votes(h)
        method = "binary Fleiss' kappa of four raters from the vote histogram"
        rows.append(_row(f"fleiss_{_slug(t)}", "6.2", f"Fleiss' kappa, {t}", votes, kappa, kappa, kappa, method))
        method = "Gwet's AC1 (chance agreement 2p(1 - p)) from the vote histogram"
        rows.append(_row(f"ac1_{_slug(t)}", "6.2", f"Gwet's AC1, {t}", votes, ac1, ac1, ac1, method))
    return rows


def _human_records(f: Mapping) -> tuple[float, float, float]:
    """Human records with an error (at the printed rate, lowest, highest): 794 spans / 1.31."""
    d = f["dataset"]
    lo, hi = _count_range(
        d["human_spans"], d["spans_per_error_record"], _half(f, "dataset/spans_per_error_record"), d["human_records"]
    )
    return d["human_spans"] / d["spans_per_error_record"], lo, hi


def _implied_records(f: Mapping) -> list[dict]:
    """The records behind the paper's rates: human records with and without an error, and each
    judge's records and error records (Table 3's rates over its totals)."""
    d = f["dataset"]
    spans, records = d["human_spans"], d["human_records"]
    at, lo, hi = _human_records(f)
    whole = "integers n with spans / n printing as the rate"
    rows = [
        _row("human_error_records", "4.4", "human records with an error",
             f"{spans} spans / {d['spans_per_error_record']:.2f} per error record", at, lo, hi, whole, True),
        _row("human_records_without_error", "6.5", "human records without an error",
             f"{records} records minus those with an error", records - at, records - hi, records - lo,
             "records minus records with an error", True),
        _row("records_more_than_four_errors_max", "6.5", "records with more than four errors, at most",
             f"{spans} spans on {int(lo)} to {int(hi)} error records", (spans - at) // 4, (spans - hi) // 4,
             (spans - lo) // 4, "each such record holds four spans beyond the one every error record has", True),
    ]  # fmt: skip
    n = d["examples"]
    for llm, row in f["table3_llm_campaigns"].items():
        for key, rid, what, upto in (
            ("spans_per_record", "records", "records behind its spans per record", 4 * n),
            ("spans_per_error_record", "error_records", "records with an error", n),
        ):
            lo, hi = _count_range(row["total"], row[key], _half(f, f"table3_llm_campaigns/{llm}/{key}"), upto)
            at = row["total"] / row[key] if row[key] else math.inf
            text = f"{row['total']} spans / {row[key]:.2f}"
            rows.append(_row(f"{rid}_{_slug(llm)}", "5", f"{llm}: {what}", text, at, lo, hi, whole, True))
    return rows


def _table7(f: Mapping) -> tuple[list[str], np.ndarray, np.ndarray]:
    clusters = f["clustering"]["table7_clusters"]
    counts = np.array([c["count"] for c in clusters.values()], float)
    return list(clusters), counts, np.array([c["pct"] for c in clusters.values()], float)


def table7_wholes(figures: Mapping | None = None) -> np.ndarray:
    """The whole numbers Table 7's printed shares can all be of (count / whole within each share's
    rounding)."""
    f = paper.figures() if figures is None else figures
    names, counts, pct = _table7(f)
    half = np.array([_half(f, f"clustering/table7_clusters/{n}/pct") for n in names])
    return wholes(counts, pct - half, pct + half, 3 * int(counts.sum()) - 1)


def table7_extra_rows(figures: Mapping | None = None) -> pd.DataFrame:
    """The rows of Table 7 one too many: those without which the other counts sum to a whole the
    printed shares are of and the other shares to 100% (within their rounding).

    Columns: ``name, count, pct, rest_count, rest_pct`` (the row, and the other rows' sums)."""
    f = paper.figures() if figures is None else figures
    names, counts, pct = _table7(f)
    fits = set(table7_wholes(f).tolist())
    halves = np.array([_half(f, f"clustering/table7_clusters/{n}/pct") for n in names])
    rows = [
        {"name": names[i], "count": int(counts[i]), "pct": float(pct[i]),
         "rest_count": int(counts.sum() - counts[i]), "rest_pct": float(round(pct.sum() - pct[i], 1))}
        for i in range(len(counts))
        if int(counts.sum() - counts[i]) in fits and abs(pct.sum() - pct[i] - 100) <= halves.sum() - halves[i] + 1e-9
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=["name", "count", "pct", "rest_count", "rest_pct"])


def _implied_clusters(f: Mapping) -> list[dict]:
    """The whole Table 7's printed shares are of (the paper says 464 spans were embedded), and the
    row without which its counts and shares add up (:func:`table7_extra_rows`)."""
    _, counts, _ = _table7(f)
    fits = table7_wholes(f)
    lo, hi = (fits[0], fits[-1]) if len(fits) else (math.nan, math.nan)
    method = "integers every printed share fits (count / whole within the share's rounding)"
    text = f"{len(counts)} counts and their printed shares"
    rows = [_row("table7_whole", "6.4", "the whole Table 7's shares are of", text, lo, lo, hi, method, True)]
    for x in table7_extra_rows(f).itertuples():
        rest = f"the other {len(counts) - 1} rows: {x.rest_count} spans, {x.rest_pct:.1f}%"
        method = "the row without which the counts sum to that whole and the shares to 100% (within their rounding)"
        row = _row(f"table7_extra_row_{_slug(x.name)}", "6.4", "Table 7's row one too many", rest, x.count, x.count,
                   x.count, method, True)  # fmt: skip
        rows.append({**row, "shown": f"{x.name}, {x.count} spans ({x.pct:.1f}%)"})
    return rows


def _implied_impressions(f: Mapping) -> list[dict]:
    """Section 6.5: Cohen's d from t and the group sizes, the t-test's df, the point-biserial r,
    the pooled SD, the power at the paper's records and the records needed for 80% power (the
    analytic side of the sample-size question of Shaib et al.), and how many records the
    bands' error shares require to be rated 6-7."""
    imp, records = f["impressions"], f["dataset"]["human_records"]
    e_at, e_lo, e_hi = _human_records(f)
    t = _number(imp["t_errors_vs_none"], _half(f, "impressions/t_errors_vs_none"))
    n1_at, n2_at = records - e_at, e_at
    grid = np.array(list(itertools.product([t.low, t.high], [records - e_hi, records - e_lo], [e_lo, e_hi])))
    d_box = grid[:, 0] * np.sqrt(1 / grid[:, 1] + 1 / grid[:, 2])
    d_at = t.value * math.sqrt(1 / n1_at + 1 / n2_at)
    ratio = n2_at / n1_at
    r = _number(imp["r_error_count_vs_impression"], _half(f, "impressions/r_error_count_vs_impression"))
    r_pb = [x / math.sqrt(x**2 + records - 2) for x in (t.value, t.low, t.high)]
    gap = imp["mean_no_error"] - imp["mean_with_error"]
    gap_half = _half(f, "impressions/mean_no_error") + _half(f, "impressions/mean_with_error")
    power_t = TTestIndPower().power(effect_size=d_at, nobs1=n1_at, alpha=ALPHA, ratio=ratio)
    power_r = NormalIndPower().power(effect_size=np.arctanh(abs(r.value)), nobs1=records - 3, alpha=ALPHA, ratio=0)
    need_t = [
        math.ceil(TTestIndPower().solve_power(effect_size=x, alpha=ALPHA, power=POWER, ratio=ratio) * (1 + ratio))
        for x in (d_at, d_box.max(), d_box.min())
    ]
    need_r = [
        math.ceil(NormalIndPower().solve_power(effect_size=np.arctanh(x), alpha=ALPHA, power=POWER, ratio=0) + 3)
        for x in (abs(r.value), abs(r.low), abs(r.high))
    ]
    high = paper.printed("impressions/high_rated_6_7_with_errors_pct", f)
    band = [(0.5 - e / records) / (0.5 - h / 100) for e, h in ((e_at, high.value), (e_hi, high.low), (e_lo, high.high))]
    groups = f"t = {t.printed}, records {n1_at:.0f} and {n2_at:.0f}"
    return [
        _row("cohens_d", "6.5", "Cohen's d of errors vs none", groups, d_at, d_box.min(), d_box.max(),
             "d = t sqrt(1/n1 + 1/n2) (Student's t, pooled SD)"),
        _row("impression_t_df", "6.5", "degrees of freedom of the t-test", f"{records} records in two groups",
             records - 2, min(e_lo, records - e_hi) - 1, records - 2,
             "Welch's df lies between the smaller group minus one and n - 2 (Student's)", True),
        _row("point_biserial_r", "6.5", "r of 'has an error' and impression implied by t",
             f"t = {t.printed}, df = {records - 2}", *r_pb, "r = t / sqrt(t^2 + df) (the paper's r is of the count)"),
        _row("pooled_sd", "6.5", "pooled SD of impressions implied by d",
             f"means {imp['mean_no_error']:.2f} and {imp['mean_with_error']:.2f}", gap / d_at,
             (gap - gap_half) / d_box.max(), (gap + gap_half) / d_box.min(),
             "(mean without errors - mean with errors) / d"),
        _row("power_t_paper", "6.5", "power of the t-test at the paper's records", f"d = {d_at:.2f}, {records} records",
             power_t, power_t, power_t, f"statsmodels TTestIndPower, two-sided, alpha {ALPHA}", d=3),
        _row("power_r_paper", "6.5", "power of the correlation at the paper's records",
             f"r = {r.printed}, {records} records", power_r, power_r, power_r,
             "statsmodels NormalIndPower on Fisher's z with n - 3", d=3),
        _row("records_for_power_t", "6.5", f"records for {POWER:.0%} power, t-test", f"d = {d_at:.2f}, {ratio:.2f} : 1",
             *need_t, f"statsmodels TTestIndPower.solve_power, both groups, alpha {ALPHA}", True),
        _row("records_for_power_r", "6.5", f"records for {POWER:.0%} power, correlation", f"r = {r.printed}",
             *need_r, "Fisher's z: n = 3 + ((z_0.975 + z_0.8) / atanh r)^2", True),
        _row("high_rated_share_min", "6.5", "share of records rated 6-7, at least",
             f"{imp['high_rated_6_7_with_errors_pct']}% of them with errors, over 50% of the rest", *band,
             "the share of records with errors mixes the bands' shares"),
    ]  # fmt: skip


def implied(figures: Mapping | None = None) -> pd.DataFrame:
    """What the paper's own figures imply (see the module docstring for the columns): Table 5's
    kappa and AC1, the records behind its rates, the whole of Table 7's shares, Cohen's d from
    its t, the power and sample sizes at its effect sizes."""
    f = paper.figures() if figures is None else figures
    rows = _implied_votes(f) + _implied_agreement(f) + _implied_records(f) + _implied_clusters(f)
    return pd.DataFrame(rows + _implied_impressions(f), columns=IMPLIED_COLUMNS)


def _implied_agreement(f: Mapping) -> list[dict]:
    """Each judge's per-type agreement with the clear human majority, the three types pooled,
    as far as Tables 4 and 5 allow it: each type flagged on at most as many examples as the campaign
    has spans of that type on them (Table 4), every placement of those flags enumerated
    (:func:`rule_clear_majority`'s per-type bound)."""
    votes, t4 = f["table5_example_level_votes"], f["table4_dataset_level_stage2_subset"]
    types = [t for t in votes if t != "Any"]
    rows = []
    for name in f["table3_llm_campaigns"]:
        if name not in t4:
            continue
        inputs = {}
        for t in types:
            inputs[f"votes_{t}"], inputs[f"spans_{t}"] = figure_of(list(votes[t])), figure_of(t4[name][t])
        agree, _, how = _agreements_per_type(inputs, [f"_{t}" for t in types])
        clear = sum(sum(clear_majority([votes[t]])[:2]) for t in types)
        share = agree / clear
        text = f"Table 5's votes per type; {name}'s spans per type on these examples (Table 4)"
        method = f"every placement of at most each type's spans as flags ({how}), over {clear} clear per-type units"
        rid = f"per_type_agreement_{_slug(name)}"
        rows.append(_row(rid, "6.2", f"{name}: per-type agreement with the clear majority", text,
                         share.max(), share.min(), share.max(), method, d=3))  # fmt: skip
    return rows


def _per(total: float, rate: float) -> float:
    return total / rate if rate else math.inf


def _half(figures: Mapping, key: str) -> float:
    """Half a unit of the last decimal the paper prints the figure at ``key`` with
    (:func:`hotelcheckspan.reference.paper.printed`): what every bound drawn from it allows."""
    return paper.printed(key, figures).half


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_").replace("__", "_")
