"""Computed prose: every number and every reading in a chapter's text comes from a code cell.

A chapter glues what its sentences say and writes ``{glue:text}`name``` in markdown
(``tests/test_prose.py`` fails on any literal number left in notebook markdown). These helpers
make the glued values readable and machine-independent:

Each glue helper returns None, so a cell that ends with one shows nothing.

- :func:`number` glues a value already formatted for readers (``0.56``, ``1482``, ``<0.001``),
  as text, so the stored output never carries a 16-digit float that differs in its last bits
  from one machine to the next;
- :func:`word` glues a computed reading ("higher", "within the interval", "matches");
- :func:`markdown` glues a passage (rendered with ``{glue:md}`name```), for text that only holds
  on some corpora, typically the simulated stand-in: :func:`simulated` glues it only when
  ``corpus.simulated`` and an empty passage otherwise.

Readings are computed by :func:`compare`, :func:`matches` and :func:`within`, so a sentence such
as "ours is {glue:text}`reading` the paper's" stays true on any corpus.
"""

from __future__ import annotations

import numbers

from IPython.display import Markdown
from myst_nb import glue

from .tables import interval, is_missing, pvalue
from .tables import number as fmt


def number(name: str, value, decimals: int = 2, *, signed: bool = False, percent: bool = False) -> None:
    """Glue ``value`` formatted for readers (see :func:`hotelcheckspan.book.tables.number`).
    ``signed`` adds "+" to positive values; ``percent`` appends "%"."""
    text = fmt(value, decimals)
    if (
        signed
        and isinstance(value, numbers.Real)
        and not is_missing(value)
        and float(value) > 0
        and text.strip("0.") != ""
    ):
        text = "+" + text
    if percent and not is_missing(value):
        text += "%"
    glue(name, text, display=False)


def p(name: str, value) -> None:
    """Glue a p-value as ``0.012`` or ``<0.001``."""
    glue(name, pvalue(value), display=False)


def ci(name: str, estimate, low, high, decimals: int = 2) -> None:
    """Glue an estimate with its interval, ``0.15 [0.07, 0.24]``."""
    glue(name, interval(estimate, low, high, decimals), display=False)


def word(name: str, text: str) -> None:
    """Glue a computed reading (a word or phrase)."""
    glue(name, str(text), display=False)


def markdown(name: str, text: str) -> None:
    """Glue a passage of markdown (shown with ``{glue:md}`name```; empty text shows nothing)."""
    glue(name, Markdown(text), display=False)


def simulated(name: str, corpus, text: str) -> None:
    """Glue a passage that explains the simulation only when the corpus is simulated."""
    markdown(name, text if corpus.simulated else "")


def compare(
    ours, theirs, decimals: int = 2, higher: str = "higher than", lower: str = "lower than", same: str = "the same as"
) -> str:
    """How ``ours`` reads against ``theirs`` at the precision shown: equal once rounded to
    ``decimals`` is "the same"."""
    a, b = round(float(ours), decimals), round(float(theirs), decimals)
    return same if a == b else higher if a > b else lower


def matches(ours, theirs, tolerance: float = 0.0, yes: str = "matches", no: str = "does not match") -> str:
    """Whether ``ours`` equals ``theirs`` (within ``tolerance``)."""
    return yes if abs(float(ours) - float(theirs)) <= tolerance else no


def within(value, low, high, yes: str = "within", no: str = "outside") -> str:
    """Whether ``value`` lies in ``[low, high]``."""
    return yes if float(low) <= float(value) <= float(high) else no


def names(items) -> str:
    """Names joined for a sentence: "a", "a and b", "a, b and c"."""
    items = [str(i) for i in items]
    return " and ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + " and " + items[-1]


def count_words(n: int) -> str:
    """A small count as a word ("two things"), so a list's length is never typed."""
    words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    return words[n] if 0 <= n < len(words) else str(n)
