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


@dataclass(frozen=True)
class Passage:
    """A passage of markdown, glued for ``{glue:md}`` (empty text shows nothing)."""

    text: str


def simulated_only(corpus, text: str) -> Passage:
    """A passage that explains the simulation: its text on a simulated corpus, empty otherwise."""
    return Passage(text if corpus.simulated else "")


def _named(text: str) -> str:
    """Campaigns by their one display name (:func:`~hotelcheckspan.annotator_sets.display_name`),
    outside inline code, where a folder name is what a reader types."""
    parts = text.split("`")
    return "`".join(display_name(p) if i % 2 == 0 else p for i, p in enumerate(parts))


def glue_all(values: Mapping[str, str | Passage]) -> None:
    """Glue every reading (text with ``glue:text``, a :class:`Passage` as markdown); shows nothing."""
    from IPython.display import Markdown  # notebook dependencies, imported where they are used
    from myst_nb import glue

    for name, value in values.items():
        if isinstance(value, Passage):
            glue(name, Markdown(_named(value.text)), display=False)
        elif isinstance(value, str):
            glue(name, _named(value), display=False)
        else:
            raise TypeError(f"reading {name!r} is {type(value).__name__}, not text: format it for readers first")


__all__ = ["Passage", "glue_all", "simulated_only"]
