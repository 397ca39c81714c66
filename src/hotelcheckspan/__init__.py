"""HotelCheckSpan compendium: load factgenie annotation exports and compute the paper's analyses.

The public API is what a user calls on their own data (the command line is a thin layer over
it): :func:`load` (a corpus folder, or one task, split or set of campaigns of it),
:func:`read_annotations` (one campaign's annotation file with its config),
:func:`annotations_of` (a campaign of a loaded corpus as one side of a comparison),
:func:`span_f1` (span-level P/R/F1 between two such sides), :func:`span_gamma` (Mathet et al.'s
γ between them, as factgenie computes it), :func:`span_pearson` (factgenie's correlation of
per-example error counts), :func:`agreement` (a whole table of such comparisons),
:func:`evaluate_judge` (one LLM judge scored as the paper's are, with its rank),
:func:`leaderboard` (every judge at once) and :func:`evaluate_metric` (automatic metrics
validated against the human annotations). Everything else is reached through the subpackages
(``corpora``, ``metrics``, ``analyses``, ``simulation``, ``book``).

The names are imported on first use, so that ``hotelcheckspan --help`` starts without numpy,
pandas or scipy.
"""

from __future__ import annotations

import importlib

# before anything imports matplotlib (the book's plots): its cache goes to our cache folder
from .paths import keep_matplotlib_cache_local as _keep_local

_keep_local()

_PUBLIC = {
    "AnnotatorSet": "annotator_sets",
    "agreement": "api",
    "annotations_of": "api",
    "evaluate_judge": "api",
    "evaluate_metric": "api",
    "leaderboard": "api",
    "load": "api",
    "read_annotations": "api",
    "span_f1": "api",
    "span_gamma": "api",
    "span_pearson": "api",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    if name in _PUBLIC:
        value = getattr(importlib.import_module(f".{_PUBLIC[name]}", __name__), name)
        globals()[name] = value  # imported once
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_PUBLIC))
