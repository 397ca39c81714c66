"""The review kit for LLM judges' spans and explanations (issue 27).

Reviewers check each span an LLM judge marked, as the d2t study's review guidelines ask: is it an
error (Error / Not an error / No span given / Hallucination), is the explanation right, which
flags apply. :func:`export` writes the spans to a spreadsheet (judges anonymised, the key kept
apart, automatic marks pre-filled), :func:`automatic_marks` and :func:`judge_marks` compute the
marks no reviewer is needed for (and the paper's whole-sentence and span-length observations),
:func:`read_reviews` checks and de-anonymises completed sheets and :func:`score` scores them
(per judge, with cluster-bootstrap intervals over outputs, and the reviewers' agreement).
"""

from .marks import automatic_marks, judge_marks, marks_by_corpus
from .scoring import read_reviews, score
from .sheet import ExportResult, export, preview

__all__ = [
    "ExportResult",
    "automatic_marks",
    "export",
    "judge_marks",
    "marks_by_corpus",
    "preview",
    "read_reviews",
    "score",
]
