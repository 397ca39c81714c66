"""Reading and validating factgenie annotation corpora into tidy frames."""

from .reader import KEY, Corpus, CorpusError, Problem, load, read_annotation_file, read_corpus, validate

__all__ = ["KEY", "Corpus", "CorpusError", "Problem", "load", "read_annotation_file", "read_corpus", "validate"]
