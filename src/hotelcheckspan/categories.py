"""Error categories: HotelCheckSpan's names in config order, the order figures use, one colour each.

A corpus carries its own categories (each campaign's ``annotation_span_categories``); these are
HotelCheckSpan's, used where a corpus does not say otherwise. Every figure and highlighted text
takes its colours from :func:`color`, so a category looks the same everywhere.
"""

from __future__ import annotations

CATEGORIES = ["Not Checkable", "Misleading", "Incorrect"]  # type index 0, 1, 2 in the paper's config
ANY = "Any"  # an error of any category

PLOT_ORDER = ["Incorrect", "Misleading", "Not Checkable"]  # most severe first
COLORS = {"Incorrect": "#d62728", "Misleading": "#ff7f0e", "Not Checkable": "#1f77b4", ANY: "#555555"}
# colours for categories of other corpora, in the order they appear (colour-blind safe, Okabe-Ito)
_OTHER = ["#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c564b", "#999999", "#0072b2", "#f0e442"]


def plot_order(categories: list[str] | None = None) -> list[str]:
    """The categories in figure order: HotelCheckSpan's by severity, any others as given."""
    if categories is None:
        return list(PLOT_ORDER)
    known = [c for c in PLOT_ORDER if c in categories]
    return known + [c for c in categories if c not in known]


def color(category: str, categories: list[str] | None = None) -> str:
    """The colour of ``category``; a category HotelCheckSpan does not have gets one by its
    position among ``categories`` (the corpus' own list), so the colour is stable per corpus."""
    if category in COLORS:
        return COLORS[category]
    others = [c for c in (categories or [category]) if c not in COLORS]
    index = others.index(category) if category in others else len(others)
    return _OTHER[index % len(_OTHER)]


def palette(categories: list[str] | None = None) -> dict[str, str]:
    """Category -> colour for every category of ``categories`` (default: HotelCheckSpan's)."""
    order = plot_order(categories)
    return {c: color(c, order) for c in order}
