"""HotelCheckSpan compendium: load factgenie annotation exports and compute the paper's analyses.

The public API is what a user calls on their own data (the command line is a thin layer over
it): :func:`load` (a corpus folder), :func:`read_annotations` (one campaign's annotation file
with its config), :func:`span_f1` (span-level P/R/F1 between two such files),
:func:`span_gamma` (Mathet et al.'s γ between them, as factgenie computes it),
:func:`span_pearson` (factgenie's correlation of per-example error counts) and
:func:`evaluate_judge` (one LLM judge scored as the paper's are, with its rank) and
:func:`evaluate_metric` (automatic metrics validated against the human annotations). Everything else
is reached through the subpackages (``corpora``, ``metrics``, ``analyses``, ``simulation``,
``book``).
"""

from .annotator_sets import AnnotatorSet
from .api import evaluate_judge, evaluate_metric, load, read_annotations, span_f1, span_gamma, span_pearson

__all__ = [
    "AnnotatorSet",
    "evaluate_judge",
    "evaluate_metric",
    "load",
    "read_annotations",
    "span_f1",
    "span_gamma",
    "span_pearson",
]

# before anything imports matplotlib (the book's plots): its cache goes to our cache folder
from .paths import keep_matplotlib_cache_local as _keep_local  # noqa: E402

_keep_local()
