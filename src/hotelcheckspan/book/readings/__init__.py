"""The numbers and readings each chapter's prose needs: one module per chapter, one function each.

A chapter's text says ``{glue:text}`name``` (or ``{glue:md}`name``` for a passage); the values
come from ``readings(corpus, ...)`` in the chapter's module here (``data_composition`` for
chapter 01, and so on), which returns ``{name: value}``: a value is text already formatted for
readers (numbers through :func:`hotelcheckspan.book.tables.number`, readings through
:mod:`hotelcheckspan.book.prose`'s ``compare``/``within``/...), or a :class:`Passage` of
markdown. The chapter glues them all in one short cell whose input the page hides::

    # %% tags=["remove-input"]
    readings.glue_all(data_composition.readings(corpus, stage2=stage2))

so the page shows the question, the analysis, the table or figure and the reading, and the
bookkeeping lives here, tested like the rest of the package. A function may take what the
chapter already computed (a slow table) as keyword arguments instead of computing it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...annotator_sets import display_name
from ...metric_names import metric_words


@dataclass(frozen=True)
class Passage:
    """A passage of markdown, glued for ``{glue:md}`` (empty text shows nothing)."""

    text: str


def simulated_only(corpus, text: str) -> Passage:
    """A passage that explains the simulation: its text on a simulated corpus, empty otherwise."""
    return Passage(text if corpus.simulated else "")


def _named(text: str, names=None) -> str:
    """Judges and human sets by their one display name (``names``, a corpus' display names:
    :func:`~hotelcheckspan.annotator_sets.names`; without it the rules that need no corpus,
    :func:`~hotelcheckspan.annotator_sets.display_name`) and baseline metrics by theirs
    (:func:`~hotelcheckspan.metric_names.metric_words`), outside inline code, where a folder name
    is what a reader types."""
    rename = names if names is not None else display_name
    parts = text.split("`")
    return "`".join(rename(metric_words(p)) if i % 2 == 0 else p for i, p in enumerate(parts))


def glue_all(values: Mapping[str, str | Passage], names=None) -> None:
    """Glue every reading (text with ``glue:text``, a :class:`Passage` as markdown); shows nothing.
    ``names``: the display names of the chapter's corpus, for a corpus the rules without one
    cannot name."""
    from IPython.display import Markdown  # notebook dependencies, imported where they are used
    from myst_nb import glue

    for name, value in values.items():
        if isinstance(value, Passage):
            glue(name, Markdown(_named(value.text, names)), display=False)
        elif isinstance(value, str):
            glue(name, _named(value, names), display=False)
        else:
            raise TypeError(f"reading {name!r} is {type(value).__name__}, not text: format it for readers first")


__all__ = ["Passage", "glue_all", "simulated_only"]
