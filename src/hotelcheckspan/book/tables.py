"""The one presentation layer: every table a chapter shows goes through :func:`show`.

Analyses return tidy frames with machine names and full-precision floats; readers need
something else. :func:`show` turns a frame into a :class:`Table` that a notebook displays as
the cell's result, following the book's rules:

- no index column; plain-English headers (``majority_errors`` -> "Majority errors",
  ``f1`` -> "F1"; pass ``headers={"col": "Header"}`` to choose one);
- integers as integers (a float column whose values are all whole, such as counts that went
  through a join, shows ``31`` not ``31.0``); other numbers with ``decimals`` (default 2;
  a mapping per column is accepted);
- p-values (a column named ``p`` or ``p-value``, or listed in ``pvalues=``) as ``0.012`` or
  ``<0.001``, never ``0.0``;
- a dash where a value does not exist or a comparison does not apply (None, NaN);
- intervals in one cell, ``0.15 [0.07, 0.24]``: a column ``x`` with ``x_low``/``x_high`` (or
  ``x low``/``x high``) beside it is merged automatically; ``intervals={"x": ("low", "high")}``
  names the bounds explicitly;
- booleans as "yes"/"no"; a dict or list in a cell is an error, not a dump; text is never cut.

The result renders as HTML (``_repr_html_``; deterministic, so nbval compares it strictly) and
as a clean fixed-width text (``repr``), never as a memory address. A table wider than the
672-pixel content column should be shown compactly (see :func:`side_by_side`) with the full
version in :func:`dropdown`, which collapses it and scrolls it sideways.

Paper against ours: :func:`versus` builds the compact comparison from rows
``(measure, figure_key, ours)`` where ``figure_key`` is the path of the paper's value in
``data/paper_figures.yaml`` with ``/`` between levels (``"dataset/human_spans"``,
``"table3_llm_campaigns/gemma-3/total"``; ``None`` when the paper reports nothing). On a
simulated corpus it adds a "Figure is" column with the label the rule of
:mod:`hotelcheckspan.reference.provenance` gives, the first that applies of: ``calibrated, off by
0.02`` (a term of the calibration loss, with its distance), ``tuned`` (adjusted after looking at
it, or a generator constant was chosen against it), ``set`` (a generator input, "set, missed by
27" where the stand-in misses it beyond its stated tolerance), ``derived (total ÷ records)`` (a
function of figures with one of those labels, saying of which) or ``emergent`` (none of these).
One figure has one label, in every table and page. On a real corpus the column is left out:
nothing was set there.
:func:`mark` adds the same column to any frame. A row may say which examples ours is computed on
(``on="stage2"``): set beside a paper figure on other examples, it is refused.

Chapter-specific helpers (``table3``, ``correlation``, ...) sit at the bottom; each takes the
frame an analysis returns and calls :func:`show` with the right headers. ``tests/test_tables.py``
renders every public function of this module on a toy corpus, so add a case there when adding one.
"""

from __future__ import annotations

import functools
import math
import numbers
import re
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

import numpy as np
import pandas as pd

from ..annotator_sets import NOT_IN_PAPER, display_name, paper_order
from ..categories import CATEGORIES
from ..metric_names import metric_name, metric_words
from ..reference import checks, paper
from ..reference import provenance as _provenance

DASH = "–"
CONTENT_WIDTH_PX = 672


def corpus_names(func):
    """Adds ``names=`` to a table function: a corpus' display names
    (:func:`hotelcheckspan.annotator_sets.names`), through which the table's text cells are read
    (:meth:`Table.named`). Without it a table names judges and human sets by the rules that need no
    corpus (:func:`~hotelcheckspan.annotator_sets.display_name`)."""

    @functools.wraps(func)
    def wrapper(*args, names=None, **kwargs):
        result = func(*args, **kwargs)
        return result.named(names) if names is not None and result is not None else result

    return wrapper


# words that keep their own spelling in headers
_WORDS = {
    "f1": "F1",
    "ci": "CI",
    "p": "p",
    "llm": "LLM",
    "llms": "LLMs",
    "id": "ID",
    "bacc": "BACC",
    "icc": "ICC",
    "ols": "OLS",
    "se": "SE",
    "df": "df",
    "pct": "%",
    "idx": "index",
    "rec": "record",
    "n": "n",
}


# --- cells ---------------------------------------------------------------------------------------


# the paper's Table 6 symbols (a frame's column, "paper P_H") as the glossary writes the statistics
_TABLE6_SYMBOLS = {"P": "span precision", "R": "span recall", "F1": "span F1"}
_TABLE6_SYMBOL = re.compile(r"\b(P|R|F1)_([HS])\b")
_TABLE6_RATIO = re.compile(r"\bP_([HS]) / R_\1\b")


def statistic_words(text: str) -> str:
    """Table 6's symbols in ``text`` written as the glossary writes them: "P_H" -> "span precision,
    hard", "F1_S" -> "span F1, soft", a ratio "P_H / R_H" -> "span precision / recall, hard"."""
    mode = {"H": "hard", "S": "soft"}
    text = _TABLE6_RATIO.sub(lambda m: f"span precision / recall, {mode[m.group(1)]}", text)
    return _TABLE6_SYMBOL.sub(lambda m: f"{_TABLE6_SYMBOLS[m.group(1)]}, {mode[m.group(2)]}", text)


def header(name) -> str:
    """A plain-English header for a column name: ``spans_per_record`` -> "Spans per record";
    Table 6's symbols as the glossary writes them ("paper P_H" -> "Paper span precision, hard")."""
    text = statistic_words(re.sub(r"^f1_(hard|soft)\b", r"span F1, \1", str(name)))
    if not re.fullmatch(r"[a-z0-9_ ]+", text):  # already written for readers ("B more (%)")
        return text[:1].upper() + text[1:]
    words = [_WORDS.get(w, w) for w in re.split(r"[_ ]+", text.strip()) if w]
    if not words:
        return text
    first = words[0]
    words[0] = first if first in _WORDS.values() else first[:1].upper() + first[1:]
    return " ".join(words)


def is_missing(v) -> bool:
    """None, NaN and pandas' NA: a cell where a value does not exist or does not apply."""
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isnan(float(v))


def number(v, decimals: int = 2) -> str:
    """A number for readers: integers as integers, other numbers with ``decimals``, a dash for
    missing values, text unchanged. Negative zero is shown as zero."""
    if is_missing(v):
        return DASH
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (Mapping, list, tuple, set, np.ndarray)):
        raise TypeError(f"a table cell holds a {type(v).__name__} ({v!r:.60}); show its parts as columns")
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        text = f"{float(v):.{decimals}f}"
        return text[1:] if re.fullmatch(r"-0\.?0*", text) else text
    return str(v)


def signed_number(v, decimals: int = 2) -> str:
    """A difference: "+" on positive values, no sign on zero at the precision shown."""
    text = number(v, decimals)
    if text == DASH or isinstance(v, str):
        return text
    return "+" + text if float(v) > 0 and text.strip("0.") else text


def pvalue(p) -> str:
    """A p-value: three decimals, ``<0.001`` below that (never ``0.0``), text kept as given."""
    if is_missing(p):
        return DASH
    if isinstance(p, str):
        return p
    p = float(p)
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def interval(estimate, low, high, decimals: int = 2) -> str:
    """An estimate with its interval in one cell: ``0.15 [0.07, 0.24]`` (a dash if no estimate)."""
    if is_missing(estimate):
        return DASH
    if is_missing(low) or is_missing(high):
        return number(estimate, decimals)
    return f"{number(estimate, decimals)} [{number(low, decimals)}, {number(high, decimals)}]"


_NUMBER_TEXT = re.compile(r"(?:[-−+]|[<>] ?)?\d[\d,.]*%?(?: \[[^\]]*\]| \([^)]*\))?")


def _numeric_text(values: pd.Series) -> bool:
    """Whether a column of text holds numbers already formatted ("0.64 [0.52, 0.75]", "31 (34)",
    "<0.001", "> 980"), so that it is right-aligned like any number; empty cells and dashes do not count."""
    if not (pd.api.types.is_object_dtype(values) or pd.api.types.is_string_dtype(values)):
        return False
    texts = [v.strip() for v in values if isinstance(v, str) and v.strip() not in ("", DASH, "-")]
    if len(texts) == 0 or any(not isinstance(v, str) for v in values if not is_missing(v)):
        return False
    return all(_NUMBER_TEXT.fullmatch(t) for t in texts)


def _whole(values: pd.Series) -> bool:
    """Whether every present value of a numeric column is a whole number (counts as floats)."""
    v = pd.to_numeric(values, errors="coerce").dropna()
    return len(v) > 0 and bool(np.all(np.isclose(v, np.round(v), rtol=0, atol=1e-9)))


# --- the table -----------------------------------------------------------------------------------


_INTERVAL = re.compile(r"(\S+) (\[[-−+0-9.,<% ]+\])")
_SHORT_WORD = 16  # a hyphenated word up to this long is one word on a phone ("gpt-4o-ls", "d2t-gsmarena")


def _keep_whole(match: re.Match) -> str:
    word = match.group(0)
    # an identifier or a path breaks after "_" or "/" (and before a file's "."), never inside a part
    if "&" not in word:
        if "/" in word[1:-1]:
            word = re.sub(r"(?<=\w)\.(?=\w)", "<wbr>.", word)
        word = re.sub(r"(?<=\w)([_/])(?=\w)", r"\1<wbr>", word)
    if len(word) > _SHORT_WORD or "-" not in word[1:-1] or "&" in word:
        return word
    return f'<span class="hcs-word">{word}</span>'


def _cell_html(text, numeric: bool) -> str:
    """One cell's HTML: the text escaped (corpus strings are never markup); in a numeric column an
    interval ``0.13 [0.08, 0.19]`` keeps its bounds in their own lighter span, so a reader never
    takes the next column's value for part of the interval; in a text column a short hyphenated
    name is kept whole (a squeezed column otherwise breaks "gemma-3" into "gemma-" and "3")."""
    html = escape(str(text))
    if numeric:
        return _INTERVAL.sub(r'\1 <span class="hcs-ci">\2</span>', html)
    return re.sub(r"\S+", _keep_whole, html)


class Table:
    """A formatted table: ``frame`` holds the display strings (one per cell), ``numeric`` says
    which columns are right-aligned. Displays as HTML in a notebook, as text in a console.

    ``labels`` is how many leading columns together name a row (a model and an error type, a
    corpus and a judge): in a table wider than the screen they stay in view together while the
    others scroll (book/_static/tables.css and phone.js)."""

    def __init__(
        self,
        frame: pd.DataFrame,
        numeric: Sequence[bool],
        caption: str | None = None,
        cards: bool | str = False,
        labels: int = 1,
        keep: Sequence[str] | None = None,
    ):
        self.frame = frame
        self.numeric = list(numeric)
        self.caption = caption
        # on a phone (below 700 px) each row becomes a card of "header: value" lines, so a
        # paper-vs-corpus row's label and arithmetic are never cut off; "always": at every width
        # (checks of the paper, whose seven columns of sentences do not fit a desktop column either)
        if cards not in (True, False, "always"):
            raise ValueError(f"cards={cards!r}: True, False or 'always'")
        self.cards = cards
        if not isinstance(labels, numbers.Integral) or not 1 <= labels <= max(1, len(frame.columns) - 1):
            raise ValueError(
                f"labels={labels!r}: a table of {len(frame.columns)} columns has 1 to "
                f"{max(1, len(frame.columns) - 1)} label columns (at least one column must scroll)"
            )
        self.labels = int(labels)
        # a card of every width is folded to these columns until the reader opens it (phone.js):
        # by default its first (what it is about) and its last (the answer, a check's verdict)
        cols = [str(c) for c in frame.columns]
        keep = [cols[0], cols[-1]] if keep is None and cols else list(keep or [])
        missing = [c for c in keep if c not in cols]
        if missing:
            raise KeyError(f"no column {missing[0]!r} to keep in a folded card; the table has {cols}")
        self.keep = keep

    def named(self, names) -> Table:
        """This table with its text cells and caption read through ``names`` (a corpus' display
        names, :func:`hotelcheckspan.annotator_sets.names`): a judge or human set of a corpus
        the rules without a corpus cannot name ("zeroshot-gpt4o" is "gpt4o" where no other judge
        of its corpus runs gpt4o)."""
        frame = self.frame.copy()
        for col, numeric in zip(self.frame.columns, self.numeric):
            if not numeric:
                frame[col] = [names(v) for v in frame[col]]
        caption = names(self.caption) if self.caption else self.caption
        return Table(frame, self.numeric, caption, self.cards, labels=self.labels, keep=self.keep)

    def to_html(self) -> str:
        """Deterministic HTML (no random ids, so stored outputs compare strictly)."""
        numeric = self.numeric
        align = ["right" if n else "left" for n in numeric]
        # a column of long texts (warnings, reasons) keeps a readable width when the table is squeezed
        wide = [
            not n and max((len(v) for v in self.frame[c]), default=0) > 40
            for c, n in zip(self.frame.columns, self.numeric)
        ]
        head = "".join(
            f'<th style="text-align:{a}{";min-width:10em" if w else ""}">{escape(str(c))}</th>'
            for c, a, w in zip(self.frame.columns, align, wide)
        )
        labels = [escape(str(c), quote=True) for c in self.frame.columns]
        kept = [
            ' class="hcs-keep"' if self.cards == "always" and str(c) in self.keep else "" for c in self.frame.columns
        ]
        body = "".join(
            "<tr>"
            + "".join(
                f'<td data-label="{lab}"{k} style="text-align:{a}">{_cell_html(v, n)}</td>'
                for v, a, n, lab, k in zip(row, align, self.numeric, labels, kept)
            )
            + "</tr>"
            for row in self.frame.itertuples(index=False)
        )
        cap = f"<caption>{escape(self.caption)}</caption>" if self.caption else ""
        kind = "hcs-table" + {False: "", True: " hcs-cards", "always": " hcs-cards hcs-cards-always"}[self.cards]
        # the scroll box keeps a wide table inside the column, its label columns sticky (tables.css);
        # one label column is the default and adds no attribute (stored outputs stay as they were)
        labels = f' data-labels="{self.labels}"' if self.labels > 1 else ""
        return (
            f'<div class="hcs-scroll"><table class="dataframe {kind}"{labels}>{cap}<thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>"
        )

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        cols = [str(c) for c in self.frame.columns]
        widths = [max([len(c), *(len(v) for v in self.frame[col])]) for c, col in zip(cols, self.frame.columns)]
        line = lambda cells: "  ".join(  # noqa: E731 (one-line layout helper)
            v.rjust(w) if n else v.ljust(w) for v, w, n in zip(cells, widths, self.numeric)
        ).rstrip()
        return "\n".join([line(cols), *(line(list(r)) for r in self.frame.itertuples(index=False))])

    def width_px(self, char_px: float = 7.6, pad_px: float = 16.0) -> float:
        """Estimated rendered width at the book's table font (about 7.6 px per character,
        headers wrapping at spaces): what a table must keep under ``CONTENT_WIDTH_PX``."""
        total = 0.0
        for col in self.frame.columns:
            longest_word = max((len(w) for w in str(col).split()), default=0)
            cell = max((len(v) for v in self.frame[col]), default=0)
            total += max(longest_word, cell) * char_px + pad_px
        return total


@corpus_names
def show(
    frame: pd.DataFrame,
    *,
    headers: Mapping[str, str] | None = None,
    decimals: int | Mapping[str, int] = 2,
    pvalues: Sequence[str] = (),
    intervals: Mapping[str, tuple[str, str]] | None = None,
    columns: Sequence[str] | None = None,
    signed: Sequence[str] = (),
    caption: str | None = None,
    cards: bool | str = False,
    labels: int | None = None,
) -> Table:
    """Format a tidy frame for readers (see the module docstring for the rules).

    ``columns`` selects and orders the columns shown (after intervals are merged, by their
    original names); ``headers`` renames them (others get :func:`header`); ``decimals`` is one
    number or a mapping per column; ``pvalues`` are extra p-value columns; ``intervals`` maps an
    estimate column to its (low, high) columns; ``signed`` columns, and every numeric column named
    "difference", show "+" on positive values. ``labels`` is how many leading columns name a row
    (they stay in view together when the table scrolls); by default the fewest leading columns,
    up to three, whose shown values tell every row apart (:func:`row_name_columns`).
    """
    data = frame.reset_index(drop=True)
    bounds = dict(intervals or {})
    for col in data.columns:  # x with x_low/x_high (or "x low"/"x high") beside it
        for sep in ("_", " "):
            if col not in bounds and f"{col}{sep}low" in data.columns and f"{col}{sep}high" in data.columns:
                bounds[col] = (f"{col}{sep}low", f"{col}{sep}high")
    hidden = {c for pair in bounds.values() for c in pair}
    shown = list(columns) if columns is not None else [c for c in data.columns if c not in hidden]
    pcols = set(pvalues) | {c for c in shown if str(c).lower() in ("p", "p-value", "p value", "pvalue")}
    dec = (lambda c: decimals.get(c, 2)) if isinstance(decimals, Mapping) else (lambda c: decimals)

    out, numeric = {}, []
    for col in shown:
        values = data[col]
        is_num = (pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)) or _numeric_text(
            values
        )
        mixed_num = values.map(lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool) or is_missing(v)).all()
        if col in pcols:
            cells = values.map(pvalue)
        elif col in bounds:
            lo, hi = bounds[col]
            cells = [interval(e, a, b, dec(col)) for e, a, b in zip(values, data[lo], data[hi])]
        elif col in signed or (is_num and re.match(r"(?i)diff(erence)?\b", str(col))):  # differences show their sign
            whole = _whole(values)
            cells = values.map(
                lambda v, d=dec(col): signed_number(int(round(float(v))) if whole and not is_missing(v) else v, d)
            )
        elif (is_num or mixed_num) and _whole(values):
            cells = values.map(
                lambda v: DASH if is_missing(v) else (number(v) if isinstance(v, str) else str(int(round(float(v)))))
            )
        else:
            cells = values.map(lambda v, d=dec(col): display_name(statistic_words(metric_words(number(v, d)))))
        name = headers.get(col, header(col)) if headers else header(col)
        if col in bounds and (not headers or col not in headers):
            name = f"{name} [95% CI]"
        out[name] = list(cells)
        numeric.append(bool(is_num or mixed_num or col in pcols or col in bounds))
    # a paper-vs-corpus table (its label column added by :func:`mark`) is read row by row: cards
    cards = cards or "Figure is" in out
    shown_frame = pd.DataFrame(out, columns=list(out))
    if labels is None:  # a card (on a phone) carries its row's name whole: nothing to keep in view
        labels = 1 if cards else row_name_columns(shown_frame)
    return Table(shown_frame, numeric, display_name(caption) if caption else caption, cards, labels=labels)


def row_name_columns(frame: pd.DataFrame, most: int = 3) -> int:
    """How many leading columns name a row: the fewest whose values tell every row apart, adding
    a column only while it tells more rows apart (so a table whose first column repeats because
    it is grouped, a model per error type, keeps both in view), at most ``most`` and never every
    column."""
    if frame.empty or len(frame.columns) < 2:
        return 1
    cap = min(most, len(frame.columns) - 1)
    distinct = lambda k: len(frame.iloc[:, :k].astype(str).drop_duplicates())  # noqa: E731
    k = 1
    while k < cap and distinct(k) < len(frame) and distinct(k + 1) > distinct(k):
        k += 1
    return k


def record(mapping: Mapping, *, labels: Mapping[str, str] | None = None, decimals: int = 3) -> Table:
    """A dict of results (one figure per key) as a two-column table, never as a dict dump."""
    rows = [{"measure": (labels or {}).get(k, header(k)), "value": number(v, decimals)} for k, v in mapping.items()]
    return Table(pd.DataFrame(rows).rename(columns={"measure": "Measure", "value": "Value"}), [False, True])


def dropdown(table: Table, summary: str = "The full table"):
    """A wide table collapsed under a summary line, scrolling sideways instead of overflowing."""
    from IPython.display import HTML  # IPython is a notebook dependency; the rest of the module does not need it

    return HTML(
        f'<details class="hcs-dropdown"><summary>{escape(summary)}</summary>'
        f'<div style="overflow-x:auto">{table.to_html()}</div></details>'
    )


class Folded:
    """A very wide table as a narrow one that fits a phone (its row names and the columns a reader
    needs first) over the full table collapsed in a dropdown."""

    def named(self, names) -> Folded:
        """Both tables read through ``names`` (:meth:`Table.named`)."""
        out = Folded.__new__(Folded)
        out.narrow, out.full, out.summary = self.narrow.named(names), self.full.named(names), self.summary
        return out

    def __init__(self, table: Table, keep: Sequence[str], summary: str):
        missing = [c for c in keep if c not in table.frame.columns]
        if missing:
            raise KeyError(f"no column {missing[0]!r} to keep; the table has {list(table.frame.columns)}")
        cols = list(table.frame.columns)
        numeric = [table.numeric[cols.index(c)] for c in keep]
        names = min(table.labels, max(1, len(keep) - 1))
        self.narrow = Table(table.frame[list(keep)], numeric, table.caption, table.cards, labels=names)
        self.full, self.summary = table, summary

    def _repr_html_(self) -> str:
        return self.narrow.to_html() + dropdown(self.full, self.summary).data

    def __repr__(self) -> str:
        return repr(self.narrow)


@corpus_names
def folded(table: Table, keep: Sequence[str], summary: str = "Every column") -> Folded:
    """``table`` shown by the columns ``keep`` (headers as shown), the full table in a dropdown under it."""
    return Folded(table, keep, summary)


# --- paper against ours -------------------------------------------------------------------------------


def paper_value(key):
    """The paper's figure at ``key`` in ``data/paper_figures.yaml`` (None for no key; a number
    is taken as a figure derived from the paper's, returned as it is)."""
    if key is None or (isinstance(key, numbers.Real) and not isinstance(key, bool)):
        return key
    return paper.value(key)


def figure_status(key: str | None, path: Path | None = None) -> str:
    """How a paper figure entered the stand-in, by rule: set, calibrated, tuned, derived or emergent
    (:func:`hotelcheckspan.reference.provenance.kind`)."""
    return _provenance.kind(key, path)


def figure_label(key, ours=None, decimals: int = 2, distance: float | None = None, path: Path | None = None) -> str:
    """The label a reader sees for a figure, given our value: "set", "set, missed by 27", "set, a
    bound respected", "calibrated, off by 0.02", "calibrated, within the paper's rounding" (a
    figure printed whole), "calibrated, TVD 0.031" (``distance`` of a distribution term),
    "tuned", "derived (total ÷ records)" (what it is a function of) or "emergent". Gaps are shown
    at the row's precision (integers for counts). A key above calibrated figures (a whole table)
    is refused (:func:`~hotelcheckspan.reference.provenance.label`)."""
    lab = _provenance.label(key, ours, distance, path)
    if lab.kind == "derived" and lab.source:
        return f"derived ({lab.source})"
    if lab.distance in (_provenance.WITHIN_ROUNDING, _provenance.BOUND_KEPT):
        return f"{lab.kind}, {lab.distance}"
    if lab.gap is None:
        return lab.kind
    whole = isinstance(ours, numbers.Integral) and isinstance(paper_value(key), numbers.Integral)
    gap = str(int(round(lab.gap))) if whole else number(lab.gap, 3 if lab.distance == "TVD" else decimals)
    return f"{lab.kind}, missed by {gap}" if lab.kind == "set" else f"{lab.kind}, {lab.distance} {gap}"


def mark(frame: pd.DataFrame, figures, corpus, column: str = "Figure is", ours=None, distances=None) -> pd.DataFrame:
    """``frame`` with a column giving, per row, the label of the stand-in's figure (see
    :func:`figure_label`); ``figures`` is one figure key (``"table5_example_level_votes/Any"``)
    for every row or one per row; ``ours`` names the column holding our value, or gives the values
    row by row (so set figures say by how much they were missed, calibrated ones their distance),
    ``distances`` gives calibrated distribution terms their distance per row; derived figures say
    what they are a function of. Unchanged for a corpus that is not simulated."""
    if not getattr(corpus, "simulated", False):
        return frame
    keys = [figures] * len(frame) if isinstance(figures, str) else list(figures)
    values = list(frame[ours]) if isinstance(ours, str) else list(ours) if ours is not None else [None] * len(frame)
    dists = list(distances) if distances is not None else [None] * len(frame)
    return frame.assign(**{column: [figure_label(k, v, distance=d) for k, v, d in zip(keys, values, dists)]})


def versus(
    rows: Sequence[tuple],
    corpus=None,
    *,
    simulated: bool | None = None,
    label: str = "This corpus",
    decimals: int = 2,
    provenance: Path | None = None,
    on: str | None = None,
) -> Table:
    """Paper beside ours: one row per ``(measure, figure_key, ours)``; an optional fourth item
    sets that row's decimals, an optional fifth which examples ours is computed on ("all" or
    "stage2"; ``on`` sets it for every row). ``figure_key`` may also be a number derived from the
    paper's figures (a ratio of two of them, say): it is shown as the paper's value. ``ours`` may
    be a number, text or an ``(estimate, low, high)`` triple; ``figure_key`` :data:`NOT_IN_PAPER`
    marks a row the paper does not have (a judge beyond its five). Difference is ours minus paper
    where both are numbers, else a dash. "Figure is" (the rule's label, :func:`figure_label`:
    calibrated, tuned, set, derived or emergent) is added when the corpus is simulated. A row
    computed on other examples than the paper's figure is refused (ValueError)."""
    simulated = bool(getattr(corpus, "simulated", False)) if simulated is None else simulated
    out = []
    for row in rows:
        measure, key, ours = row[:3]
        d = row[3] if len(row) > 3 and row[3] is not None else decimals
        absent = isinstance(key, str) and key == NOT_IN_PAPER  # a judge the paper does not have
        if not absent:
            paper.check_scope(measure, key, row[4] if len(row) > 4 else on)
        theirs = None if absent else paper_value(key)
        est = ours[0] if isinstance(ours, tuple) else ours
        both = all(isinstance(v, numbers.Real) and not isinstance(v, bool) and not is_missing(v) for v in (theirs, est))
        cell = interval(*ours, decimals=d) if isinstance(ours, tuple) else number(ours, d)
        line = {
            "Measure": display_name(measure),
            "Paper": NOT_IN_PAPER if absent else "not reported" if key is None else number(theirs, d),
            label: cell,
            "Difference": DASH,
        }
        if both and isinstance(theirs, numbers.Integral) and isinstance(est, numbers.Integral):
            line["Difference"] = signed_number(int(est) - int(theirs))
        elif both:
            line["Difference"] = signed_number(float(est) - float(theirs), d)
        if simulated:
            line["Figure is"] = DASH if absent else figure_label(key, est if both else None, d, path=provenance)
        out.append(line)
    frame = pd.DataFrame(out)
    return Table(frame, [False, True, True, True] + ([False] if simulated else []), cards=True)


def side_by_side(
    frame: pd.DataFrame,
    name: str = "campaign",
    decimals: Mapping[str, int] | None = None,
    columns: Sequence[str] | None = None,
) -> Table:
    """A paper-vs-ours frame with columns ``x`` and ``paper x`` as one compact table whose cells
    read ``ours (paper)``: half the columns of the wide form, so it fits the content column.
    ``columns`` picks which measures to show (default: all). A row the paper does not have (every
    ``paper`` column missing: a judge of the corpus beyond the paper's) shows ours alone, its
    name followed by "(not in the paper)"."""
    dec = decimals or {}
    cols = (
        list(columns)
        if columns is not None
        else [c for c in frame.columns if c != name and not str(c).startswith("paper ")]
    )
    absent = not_in_paper(frame)
    names = frame[name].astype(str).map(display_name)
    out = {header(name): [f"{n} ({NOT_IN_PAPER})" if a else n for n, a in zip(names, absent)]}
    for c in cols:
        ours, theirs = frame[c], frame.get(f"paper {c}")
        d = dec.get(c, 2)
        whole = _whole(ours) and (theirs is None or _whole(theirs))
        fmt = (lambda v: DASH if is_missing(v) else str(int(round(float(v))))) if whole else (lambda v: number(v, d))
        out[header(c)] = [
            fmt(o) if theirs is None or a else f"{fmt(o)} ({fmt(t)})"
            for o, t, a in zip(ours, theirs if theirs is not None else ours, absent)
        ]
    return Table(pd.DataFrame(out), [False] + [True] * len(cols), cards=True)


def not_in_paper(frame: pd.DataFrame) -> list[bool]:
    """Per row of a paper-vs-ours frame: True where every ``paper ...`` column is missing, a
    judge (or set) the paper does not have."""
    paper_cols = [c for c in frame.columns if str(c).startswith("paper ")]
    if not paper_cols:
        return [False] * len(frame)
    return frame[paper_cols].isna().all(axis=1).tolist()


def say_not_in_paper(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with "not in the paper" in the paper columns of rows the paper does not have
    (instead of a dash, which would read as a value the paper left out)."""
    absent = np.array(not_in_paper(frame), dtype=bool)
    if not absent.any():
        return frame
    out = frame.copy()
    for col in [c for c in out.columns if str(c).startswith("paper ")]:
        whole = _whole(out[col][~absent])  # counts stay counts beside the text
        out[col] = pd.Series(
            [
                NOT_IN_PAPER if a else v if is_missing(v) or not whole else int(round(float(v)))
                for v, a in zip(out[col], absent)
            ],
            index=out.index,
            dtype=object,
        )
    return out


def wide(
    frame: pd.DataFrame,
    name: str = "campaign",
    summary: str = "The full table, paper and ours in separate columns",
    decimals: int | Mapping[str, int] = 2,
):
    """The wide paper-vs-ours form, collapsed (for the reader who wants every column); a row the
    paper does not have says so in its paper columns. ``decimals`` as :func:`show`'s (a paper
    column at the precision the paper prints it)."""
    return dropdown(show(say_not_in_paper(frame), decimals=decimals), summary)


# --- chapter tables (each takes an analysis' frame) --------------------------------------------------


def table3(frame: pd.DataFrame) -> Table:
    """``dataset_level.table3`` compactly, cells ``ours (paper)``; spans per error record is left
    to the full table (:func:`wide`), so the rest fits the content column."""
    return side_by_side(frame, decimals={"avg len": 1}, columns=["total", "spans/rec.", "avg len", *CATEGORIES])


def table4(frame: pd.DataFrame) -> Table:
    """``dataset_level.table4`` compactly, cells ``ours (paper)``, rows in the paper's order of
    campaigns (Table 3's, where the paper's Table 4 swaps the two o3-mini rows)."""
    order = paper_order(frame["campaign"])
    return side_by_side(frame.set_index("campaign", drop=False).loc[order].reset_index(drop=True))


def sizes(frame: pd.DataFrame) -> Table:
    """``dataset_level.sizes``: examples per split and records per campaign and group."""
    return show(
        frame,
        headers={"what": "What", "which": "Split, human set or judge", "count": "Count", "annotators": "Annotators"},
    )


def dedup(frame: pd.DataFrame) -> Table:
    """``dataset_level.dedup_summary``: de-duplication by number of sources."""
    return show(
        frame,
        headers={
            "sources": "Sources",
            "examples": "Examples",
            "segments": "Segments before",
            "dropped": "Segments dropped",
            "words_mean": "Mean words after",
            "dropped %": "Dropped (%)",
        },
        decimals=1,
    )


def group_effects(frame: pd.DataFrame) -> Table:
    """``dataset_level.group_effects``: stage and group effects per stage."""
    f = frame.assign(stage=frame["stage"].map(lambda s: s.replace("stage", "Stage ")))
    return show(
        f,
        headers={
            "spans A": "Spans, group A",
            "spans B": "Spans, group B",
            "agreement on any error (%)": "Agree on any error (%)",
            "B marked the error (%)": "B marked, where they disagree (%)",
        },
        decimals=1,
    )


def volume(frame: pd.DataFrame) -> Table:
    """``llm_annotators.volume``: spans and span length per campaign, as ratios to humans."""
    return show(
        frame,
        columns=["name", "spans", "spans_per_record", "mean_words", "x human spans/record", "x human length"],
        headers={
            "name": "Human set or judge",
            "spans_per_record": "Spans per record",
            "mean_words": "Mean span words",
            "x human spans/record": "x human spans per record",
            "x human length": "x human span length",
        },
    )


def type_bias(frame: pd.DataFrame) -> Table:
    """``llm_annotators.type_bias``: percentage points above (+) or below the human share."""
    return show(
        frame,
        headers={"campaign": "Campaign", "spans": "Spans", **{t: f"{t} (points)" for t in CATEGORIES}},
        signed=CATEGORIES,
        decimals=1,
    )


def aspects(frame: pd.DataFrame) -> Table:
    """``llm_annotators.agreement_by_aspect``: pooled P/R/F1 per summary aspect."""
    # counts of spans, not characters: the four human sets' spans, and the model's counted once per pair
    return show(
        frame, headers={"ref_count": "Human spans (four sets)", "hyp_count": "Model spans (once per pair)"}, decimals=2
    )


def reasons(frame: pd.DataFrame) -> Table:
    """``llm_annotators.reasons``: spans with their type and stated reason, in full."""
    return show(frame, headers={"example_idx": "Example", "text": "Span"})


def correlation(frame: pd.DataFrame) -> Table:
    """``impressions.count_correlation``: r with its 95% interval and p."""
    return show(frame, intervals={"r": ("low", "high")}, headers={"r": "r [95% CI]"})


def by_count(frame: pd.DataFrame) -> Table:
    """``impressions.by_count``: mean impression per number of errors with its 95% interval."""
    return show(
        frame,
        intervals={"mean": ("low", "high")},
        headers={"errors": "Errors in the record", "mean": "Mean impression [95% CI]"},
    )


def by_type(frame: pd.DataFrame) -> Table:
    """``impressions.by_type``: mean impression per error type and its drop from no error."""
    return show(frame, headers={"mean": "Mean impression", "drop": "Drop from no error"})


def bands(frame: pd.DataFrame) -> Table:
    """``impressions.bands``: share of records with errors per rating band."""
    return show(frame, decimals=1)


def _term(term: str) -> str:
    """A model term (``n_not_checkable``) as the type it counts ("Not Checkable")."""
    names = {"n_" + t.lower().replace(" ", "_"): t for t in CATEGORIES}
    return names.get(term, term)


def models(frame: pd.DataFrame) -> Table:
    """``impressions.error_effect_models`` / ``per_type_models``: coefficient [95% CI], SE, p."""
    f = frame.assign(term=frame["term"].map(_term)) if "term" in frame else frame
    return show(
        f,
        intervals={"coef": ("low", "high")},
        headers={"coef": "Effect [95% CI]", "term": "One more error of type", "se": "SE"},
    )


def annotator_variance(result: Mapping) -> Table:
    """``impressions.annotator_variance``: variance between and within annotators, and the ICC."""
    return record(
        result,
        labels={
            "annotators": "Annotators",
            "between_var": "Variance between annotators",
            "within_var": "Variance within annotators",
            "icc": "Intraclass correlation (share between)",
            "converged": "Model converged",
        },
    )


@corpus_names
def leaderboard(frame: pd.DataFrame) -> Table:
    """``judges.leaderboard``: rank, judge, span F1, soft and hard and BACC with their intervals
    (the ceiling row, the humans against each other, last and unranked). The rank is read off the
    span F1, soft as shown (two decimals): judges tied there share it, marked "2=" (the frame's ``rank``,
    which the API and the CLI keep, orders them by the unrounded score)."""
    shown = frame["f1_soft"].where(frame["rank"].notna()).round(2)
    rank = shown.rank(ascending=False, method="min")
    tied = rank.map(rank.value_counts()) > 1
    frame = frame.assign(rank=[DASH if pd.isna(r) else f"{int(r)}{'=' if t else ''}" for r, t in zip(rank, tied)])
    return show(
        frame,
        columns=["rank", "judge", "f1_soft", "f1_hard", "bacc"],
        headers={
            "rank": "Rank",
            "judge": "Judge",
            "f1_soft": "Span F1, soft [95% CI]",
            "f1_hard": "Span F1, hard [95% CI]",
            "bacc": "BACC [95% CI]",
        },
    )


@corpus_names
def neighbours(frame: pd.DataFrame) -> Table:
    """``judges.leaderboard``'s neighbour columns: each judge and the next one down, the examples
    needed to order them by span F1, soft (with its interval; "> max" beyond the largest test set
    tried; "≤ 10" at the grid's first size, where the order may hold on fewer) and whether this
    corpus can tell them apart."""
    from ..analyses import sample_size

    rows = frame[frame["next"].notna()]
    compared = frame.attrs.get("compared", {}).get("examples")
    n = int(compared if compared is not None else pd.to_numeric(frame["examples"]).max()) if len(rows) else 1
    first = int(sample_size.planning_sizes(n)[0])  # the smallest size the leaderboard's plans try

    def fmt(v):
        if is_missing(v):
            return DASH
        if not np.isfinite(v):
            return "more than tried"
        return f"≤ {first:,}" if int(v) <= first else f"{int(v):,}"

    out = pd.DataFrame(
        {
            "pair": [f"{a} > {b}" for a, b in zip(rows["judge"], rows["next"])],
            "needed": [fmt(v) for v in rows["n_needed"]],
            "interval": [f"{fmt(lo)} to {fmt(hi)}" for lo, hi in zip(rows["n_low"], rows["n_high"])],
            "tell_apart": rows["tell_apart"].tolist(),
        }
    )
    return show(
        out,
        headers={
            "pair": "Pair (by span F1, soft)",
            "needed": "Examples needed",
            "interval": "95% interval",
            "tell_apart": "Can this corpus tell them apart?",
        },
    )


@corpus_names
def compared(board: pd.DataFrame) -> Table:
    """What ``judges.leaderboard`` compared (``board.attrs["compared"]``), one row per fact: the
    human sets, the examples, the span F1 definition, the majority rule, the ceiling."""
    c = board.attrs["compared"]
    refs = c["references"]
    shown = ", ".join(refs[:6]) + (f" and {len(refs) - 6} more" if len(refs) > 6 else "")
    ceiling = c["ceiling"]
    rows = [
        ("Human sets", f"{len(refs)}: {shown} ({c['human_records']:,} records)"),
        ("Examples", f"{c['examples']:,}, {c['examples_rule']}"),
        ("Span F1", c["f1"]["definition"]),
        (
            "Human majority (BACC)",
            f"{c['majority']['rule']}; {c['majority']['single_rater_examples']:,} examples have one human set",
        ),
        (
            "Ceiling",
            f"{ceiling['pairs']:,} pair{'s' if ceiling['pairs'] != 1 else ''} of human sets, on the "
            f"{ceiling['examples']:,} examples {'both' if len(refs) == 2 else 'at least two of them'} annotated"
            + (f"; BACC: {ceiling['bacc_rule']}" if ceiling.get("bacc_rule") else "")
            if ceiling["defined"]
            else f"none: {ceiling['reason']}",
        ),
    ]
    return show(pd.DataFrame(rows, columns=["what", "here"]), headers={"what": "Compared", "here": "Here"})


@corpus_names
def review_marks(frame: pd.DataFrame) -> Table:
    """``review.marks_by_corpus``: per corpus and judge (and the humans), the share of spans each
    automatic review mark holds, span length in words and against the humans'."""
    shares = [c for c in frame.columns if c.endswith("_share")]
    judge = "judge_name" if "judge_name" in frame.columns else "judge"  # its corpus' name for it, where given
    out = frame.copy()
    for c in shares:  # one decimal in every share column, a column of zeros too (never "0" beside "0.0")
        out[c] = [number(v * 100, 1) if not is_missing(v) else DASH for v in out[c]]
    return show(
        out,
        columns=["corpus", judge, "spans", *shares, "mean_words", "words_vs_humans"],
        headers={
            "corpus": "Corpus",
            judge: "Judge",
            "spans": "Spans",
            "no_span_share": "No span (%)",
            "hallucination_share": "Hallucination (%)",
            "repeated_share": "Repeated (%)",
            "hard_to_parse_share": "Hard to parse (%)",
            "implicit_span_share": "Implicit span (%)",
            "whole_sentence_share": "Whole sentence (%)",
            "mean_words": "Words per span",
            "words_vs_humans": "Words vs humans (×)",
        },
        decimals={**{c: 1 for c in shares}, "mean_words": 1, "words_vs_humans": 2, "spans": 0},
    )


def _problem_numbers(rows: pd.DataFrame) -> list[int]:
    """One number per distinct problem for checks (``checks.run`` rows), in order of first
    appearance: checks that name the same ``problem``, or read the same claim (``group``), are one
    problem however many rows show it."""
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    seen: dict[tuple[str, str], int] = {}
    for i, (problem, group) in enumerate(zip(rows["problem"], rows["group"])):
        for key in (("problem", problem), ("group", group)):
            if key[1] in ("–", "", None):
                continue
            if key in seen:
                parent[root(i)] = root(seen[key])
            else:
                seen[key] = i
    numbers: dict[int, int] = {}
    return [numbers.setdefault(root(i), len(numbers) + 1) for i in range(len(rows))]


class Checked:
    """A chapter's checks of the paper's figures by rule: the ones a reader must see (inconsistent
    under every reading, depending on the reading, or two statements read as inconsistent) as
    cards, folded under a line that counts them and the distinct problems they find (issue 45: a
    chapter is at most thirty phone screens tall, and a chapter's cards were up to eighteen), every
    check of the chapter in a second dropdown under it."""

    def __init__(self, results: pd.DataFrame):
        self.results = results

    def _table(self, rows: pd.DataFrame, numbered: bool = False) -> Table:
        frame = checks.for_readers(rows).drop(columns="inputs")
        frame.insert(0, "section", rows["section"].to_numpy())
        headers = {"section": "Paper §", "reading": "Reading"}
        if numbered:  # the open checks: rows of one problem (or of one claim's readings) share a number
            frame.insert(0, "problem", [str(n) for n in _problem_numbers(rows)])
            headers["problem"] = "Problem"
        table = show(frame, headers=headers, cards="always")
        # folded, a card shows which problem, where in the paper, the claim and the verdict
        names = [headers.get(c, header(c)) for c in ("problem", "section", "claim", "verdict")]
        table.keep = [c for c in names if c in table.frame.columns]
        return table

    def flagged(self) -> pd.DataFrame:
        """The checks shown open (:func:`hotelcheckspan.reference.checks.flagged`)."""
        keep = [checks.flagged(v, o) for v, o in zip(self.results["verdict"], self.results["outcome"])]
        return self.results[keep]

    def counts(self) -> dict[str, int]:
        """Checks per verdict (every verdict present, zero where none)."""
        found = self.results["verdict"].value_counts()
        return {v: int(found.get(v, 0)) for v in checks.VERDICTS}

    def flagged_summary(self) -> str:
        """The line the flagged checks fold under: how many, on how many distinct problems, and
        their verdicts ("The 5 checks to read, on 3 problems: inconsistent 2, depends on the reading 3")."""
        bad = self.flagged()
        problems = len(set(_problem_numbers(bad)))
        verdicts = bad["verdict"].value_counts()
        said = ", ".join(f"{v} {int(verdicts[v])}" for v in checks.VERDICTS if v in verdicts.index)
        checks_word = "check" if len(bad) == 1 else "checks"
        problems_word = "problem" if problems == 1 else "problems"
        return f"The {len(bad)} {checks_word} to read, on {problems} {problems_word}: {said}"

    def _repr_html_(self) -> str:
        n = self.counts()
        bad = self.flagged()
        head = dropdown(self._table(bad, numbered=True), self.flagged_summary()).data if len(bad) else ""
        summary = f"All {len(self.results)} checks by rule of the paper's figures in this chapter: " + ", ".join(
            f"{k} {v}" for k, v in n.items()
        )
        return head + dropdown(self._table(self.results), summary).data

    def __repr__(self) -> str:
        return repr(self._table(self.results))


def inconsistencies(chapter: str, select=None) -> Checked:
    """The paper's figures a chapter shows, checked by rule (:func:`hotelcheckspan.reference.checks.for_chapter`,
    the rules of ``data/paper_relations.yaml``, every one listed on the page "The paper, checked"):
    the inconsistent ones open, each with its computed and reported value, and all of the
    chapter's checks in a dropdown. ``select``: a chapter's own choice of checks, a function of
    every check's results (``checks.check()``) returning the rows to show."""
    results = check_results()
    return Checked(checks.for_chapter(chapter, results) if select is None else select(results))


def section_checks(results: pd.DataFrame, headers: Mapping[str, str]):
    """The checks of one part of the paper ("The paper, checked"), collapsed under a line that
    counts them by verdict, each a card folded to its claim and verdict (issue 45: one page of
    every check was 132 phone screens tall)."""
    counts = Checked(results).counts()
    summary = f"{len(results)} checks: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    return dropdown(show(checks.for_readers(results), headers=headers, cards="always"), summary)


@functools.lru_cache(maxsize=1)
def check_results() -> pd.DataFrame:
    """Every check of the paper's figures (:func:`hotelcheckspan.reference.checks.check`), computed
    once per kernel for the tables and the readings that quote a verdict."""
    return checks.check()


STATISTIC_NAMES = {
    "kendall_tau_b": "Kendall τb",
    "kendall_tau_c": "Kendall τc",
    "acc23": "acc23",
    "spearman": "Spearman",
    "pearson": "Pearson",
    "roc_auc": "ROC AUC",
    "average_precision": "Average precision",
    "bacc": "BACC",
    "pairwise_accuracy": "Pairwise accuracy",
    "soft_pairwise_accuracy": "Soft pairwise accuracy",
    "partial_pearson": "Partial Pearson",
    "partial_spearman": "Partial Spearman",
    "item_pearson": "Item-averaged Pearson",
    "item_kendall_tau_b": "Item-averaged τb",
}


@corpus_names
def review_preview(frame: pd.DataFrame) -> Table:
    """``review.preview``: the first rows of a review sheet as a reviewer meets them."""
    return show(
        frame,
        columns=["output_id", "evaluator", "type", "text", "reason", "auto_whole_sentence"],
        headers={
            "output_id": "Output",
            "evaluator": "Evaluator",
            "type": "Type",
            "text": "Span",
            "reason": "Reason",
            "auto_whole_sentence": "Whole sentence (automatic)",
        },
    )


@corpus_names
def metric_board(board: pd.DataFrame, statistic: str) -> Table:
    """``metric_validation.leaderboard``: each metric's statistic with its interval and the
    significance cluster (the human ceiling last). No random column: the board's statistics
    (Kendall tau-b, ROC AUC) reach a constant at random, by definition
    (``metric_validation.RANDOM_EXACT``); the prose says it once."""
    frame = board.copy()
    frame["metric"] = frame["metric"].map(metric_name)
    frame["cluster"] = frame["cluster"].astype(object).where(frame["cluster"].notna(), DASH)
    return show(
        frame,
        intervals={"value": ("low", "high")},
        columns=["metric", "kind", "value", "n", "cluster"],
        headers={
            "metric": "Metric",
            "kind": "Kind",
            "value": f"{STATISTIC_NAMES.get(statistic, statistic)} [95% CI]",
            "n": "Examples",
            "cluster": "Cluster",
        },
        decimals={"value": 2, "n": 0},
    )


@corpus_names
def metric_statistics(
    statistics: pd.DataFrame,
    target: str,
    columns: Sequence[str],
    *,
    order: Sequence[str] | None = None,
    random: Sequence[str] = (),
    headers: dict[str, str] | None = None,
) -> Table:
    """Several statistics of each metric on one target, one column each ("0.54 [0.50, 0.57]").
    ``order``: the metrics' row order (e.g. a leaderboard's; metrics not in it follow, the human
    ceiling last); ``random``: the statistics whose random baseline (the ``random`` column: the
    metric's own scores permuted) gets a column of its own, "<statistic> at random";
    ``headers``: a statistic's column header, where the usual name would mislead."""
    rows = statistics[statistics["target"] == target]
    names = {s: (headers or {}).get(s, STATISTIC_NAMES.get(s, s)) for s in columns}
    wide = {}
    for (metric, kind), grp in rows.groupby(["metric", "kind"], sort=False):
        by = grp.set_index("statistic")
        line = {"Metric": metric_name(metric), "Kind": kind}
        for s in columns:
            line[names[s]] = (
                interval(by.loc[s, "value"], by.loc[s, "low"], by.loc[s, "high"]) if s in by.index else DASH
            )
            if s in random:
                line[f"{names[s]} at random"] = (
                    number(by.loc[s, "random"]) if s in by.index and "random" in by.columns else DASH
                )
        wide[metric] = line
    if order is not None:
        rank = {m: i for i, m in enumerate(order)}
        ceiling = {m for m, line in wide.items() if line["Kind"] == "human ceiling"}
        keys = sorted(wide, key=lambda m: (m in ceiling, rank.get(m, len(rank))))
        wide = {m: wide[m] for m in keys}
    return show(pd.DataFrame(list(wide.values())))


@corpus_names
def by_group(frame: pd.DataFrame, statistic: str, label: str = "Domain") -> Table:
    """``metric_validation.by_group``: one row per metric, one column per group."""
    cells = frame.assign(cell=[interval(v, lo, hi) for v, lo, hi in zip(frame["value"], frame["low"], frame["high"])])
    wide = cells.pivot(index=["metric", "kind"], columns="group", values="cell").reset_index()
    wide.columns.name = None
    order = list(dict.fromkeys(frame["metric"]))
    wide = wide.set_index("metric").loc[order].reset_index()
    wide["metric"] = wide["metric"].map(metric_name)
    return show(
        wide.rename(columns={"metric": "Metric", "kind": "Kind"}),
        caption=f"{STATISTIC_NAMES[statistic]}, by {label.lower()}",
    )


# --- the chapters' tables, named where a chapter shows them --------------------------------------


@corpus_names
def prevalence(frame: pd.DataFrame, label: str = "Error type") -> Table | None:
    """``example_level.prevalence``: per type, the share of error votes, the observed agreement and
    the chance agreement kappa and AC1 each subtract, and the two coefficients (None, no table,
    where ``frame`` is empty: fewer than two raters)."""
    if frame.empty:
        return None
    return show(
        frame,
        headers={
            "label": label,
            "positive_share": "Share of error votes",
            "pa": "Observed agreement",
            "pe_kappa": "Chance (kappa)",
            "pe_ac1": "Chance (AC1)",
            "fleiss_kappa": "Fleiss' kappa",
            "gwet_ac1": "Gwet's AC1",
        },
    )


@corpus_names
def gamma_beside_f1(frame: pd.DataFrame, unit: str = "Examples") -> Table:
    """``span_gamma.beside_f1``: each comparison's span F1, hard and γ with their ranks, the pairs and
    examples γ is defined on, and S∅."""
    return show(
        frame,
        columns=[
            "comparison",
            "f1",
            "f1_rank",
            "gamma",
            "gamma_rank",
            "pairs",
            "gamma_pairs",
            "gamma_examples",
            "s_empty",
        ],
        headers={
            "comparison": "Comparison",
            "f1": "Span F1, hard [95% CI]",
            "f1_rank": "F1 rank",
            "gamma": "γ [95% CI]",
            "gamma_rank": "γ rank",
            "pairs": "Pairs",
            "gamma_pairs": "Pairs with a γ",
            "gamma_examples": f"{unit} with a γ (all pairs)",
            "s_empty": "S∅",
        },
    )


def every_pair(pairs: pd.DataFrame, summary: str = "Every pair"):
    """``span_level.pairwise``'s rows, one per pair of sides and match, collapsed: the
    comparison, both sides, P, R, F1 and each side's span count."""
    cols = ["comparison", "ref", "hyp", "match", "precision", "recall", "f1", "ref_count", "hyp_count"]
    return dropdown(show(pairs[cols]), summary)


@corpus_names
def span_prf(frame: pd.DataFrame) -> Table:
    """``span_level.table6`` rows: comparison, match, pairs, and P, R, F1 with their intervals."""
    return show(
        frame,
        columns=["comparison", "match", "pairs", "precision", "recall", "f1"],
        headers={"f1": "F1 [95% CI]", "precision": "Precision [95% CI]", "recall": "Recall [95% CI]"},
    )


@corpus_names
def set_prf(frame: pd.DataFrame) -> Table:
    """Soft precision, recall and F1 per judge (``llm_annotators`` precision-recall table; its last row the
    humans against each other)."""
    return show(frame, columns=["name", "pairs", "precision", "recall", "f1"], headers={"name": "Judge or humans"})


CLUSTER_HEADERS = {
    "cluster": "cluster",
    "label": "name",
    "claim": "claim",
    "size": "spans",
    "share": "share %",
    "top_terms": "top terms",
    "central": "most central spans",
}


def qualification(frame: pd.DataFrame) -> Table:
    """``dataset_level.qualification``: candidates, those who qualified and the pass rate with its
    Wilson interval, and the pass rule."""
    return show(frame, headers={"rate": "Pass rate [95% Wilson CI]"})


def location_share(frame: pd.DataFrame) -> Table:
    """``clusters.location_share``: per group of location clusters, its spans and their share (in %)
    with its interval."""
    return show(frame, decimals={"share": 1}, intervals={"share": ("low", "high")}, headers={"share": "share %"})


def cluster_overview(frame: pd.DataFrame) -> Table:
    """``clusters.overview`` without its most central spans (see :func:`cluster_centrals`)."""
    named = frame.rename(columns=CLUSTER_HEADERS)
    return show(named.drop(columns=["most central spans"]), decimals={"share %": 1})


def cluster_centrals(frame: pd.DataFrame):
    """Each cluster's most central spans, collapsed under a summary line."""
    named = frame.rename(columns=CLUSTER_HEADERS)
    return dropdown(show(named[["name", "most central spans"]]), "The most central spans of each cluster")


@corpus_names
def real_composition(frame: pd.DataFrame) -> Table:
    """``dataset_level.campaign_table`` of a real corpus: records, records with errors, spans,
    spans per record and mean span length per campaign."""
    return show(
        frame,
        columns=["name", "kind", "records", "error_records", "spans", "spans_per_record", "mean_words"],
        headers={
            "name": "Annotated by",
            "error_records": "Records with errors",
            "spans_per_record": "Spans per record",
            "mean_words": "Mean span length (words)",
        },
    )


@corpus_names
def category_shares(frame: pd.DataFrame, categories: Sequence[str]) -> Table:
    """``dataset_level.campaign_table``'s share of each campaign's spans per category (%)."""
    return show(
        frame,
        columns=["name", "spans", *[f"{c} %" for c in categories]],
        headers={"name": "Annotated by", **{f"{c} %": c for c in categories}},
        decimals=1,
    )


def load_warnings(corpus) -> Table | None:
    """Every load warning of a corpus: file, line, field and message (None, no table, where loading
    warned of nothing)."""
    if not corpus.warnings:
        return None
    return show(
        pd.DataFrame(
            [{"file": w.file, "line": w.line, "field": w.field, "warning": w.message} for w in corpus.warnings],
            columns=["file", "line", "field", "warning"],
        )
    )


@corpus_names
def text_votes(votes: pd.DataFrame, categories: Sequence[str]) -> Table:
    """``example_level.votes`` per text of a real corpus (domain / system), per category and Any."""
    return show(
        votes.assign(text=votes["dataset"] + " / " + votes["setup_id"]),
        columns=["text", *categories, "Any", "raters"],
        headers={"text": "Text (domain / system)", "raters": "Groups"},
    )


def mqm_reproduction(table: pd.DataFrame) -> Table:
    """``mqm_systems.reproduction``: each system's published MQM score beside ours (to the
    published precision and one digit more), their difference and both ranks."""
    return show(
        table[["system", "published", "ours", "difference", "published_rank", "rank"]],
        headers={"published_rank": "Published rank", "rank": "Our rank"},
        decimals={"published": 2, "ours": 3, "difference": 3},
    )


def mqm_systems(systems: pd.DataFrame) -> Table:
    """``mqm_systems.system_intervals``: each system's MQM score with its interval, its
    significance cluster and whether it is a reference translation."""
    return show(
        systems[["system", "score", "low", "high", "cluster", "reference"]],
        headers={"score": "MQM", "reference": "Reference translation"},
        decimals=2,
    )


def mqm_raters(raters: pd.DataFrame) -> Table:
    """``mqm_systems.rater_table``: each rater's segment-system pairs, systems and mean MQM score."""
    return show(raters, headers={"texts": "Segment-system pairs", "score": "Mean MQM"}, decimals=2)
