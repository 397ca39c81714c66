"""Reading and validating factgenie annotation corpora into tidy frames.

Modules: ``problems`` (Problem, its two severities, CorpusError), ``schema`` (the pydantic
shapes of lines and configs), ``files`` (defensive reading), ``layouts`` (where campaigns and
texts are, in our layout and factgenie's), ``corpus`` (the Corpus), ``reader`` (load,
validate, read_annotations).
"""

from .corpus import KEY, RECORD_COLUMNS, SPAN_COLUMNS, Corpus
from .keys import ADDED, slug_frame
from .layouts import EXAMPLE_COLUMNS, NAME_RULE
from .problems import ERROR, WARNING, CategoryMismatch, CorpusError, Problem
from .reader import Annotations, load, read_annotations, read_corpus, validate

__all__ = [
    "ADDED",
    "ERROR",
    "EXAMPLE_COLUMNS",
    "KEY",
    "NAME_RULE",
    "RECORD_COLUMNS",
    "SPAN_COLUMNS",
    "WARNING",
    "Annotations",
    "CategoryMismatch",
    "Corpus",
    "CorpusError",
    "Problem",
    "load",
    "read_annotations",
    "read_corpus",
    "slug_frame",
    "validate",
]
