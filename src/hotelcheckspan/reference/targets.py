"""The terms of the stand-in's calibration loss: which paper figures the simulated human process
is fitted to, and the tolerance each enters in.

:func:`hotelcheckspan.simulation.calibration.loss` sums, over exactly these terms, the squared
distance in units of the tolerance, and :mod:`.provenance` labels exactly these figures
*calibrated*: one list, read by both, so a label cannot claim a fit the loss does not make.

A term is a figure key of ``data/paper_figures.yaml`` and a distance: ``"difference"`` (ours
minus the paper's figure) or ``"tvd"`` (the total variation distance between our distribution and
the paper's, for Table 5's vote distributions).
"""

from __future__ import annotations

from dataclasses import dataclass

F1_TOLERANCE = 0.05
TVD_TOLERANCE = 0.05
WORDS_TOLERANCE = 0.5  # the mean human span length, in units of half a word

HUMAN_ROWS = ("Group A - Group B (Stage 1)", "Group A - Group B (Stage 2)", "Stage 1 - Stage 2")
VOTE_LABELS = ("Any", "Not Checkable", "Misleading", "Incorrect")
F1S = ("F1_H", "F1_S")


@dataclass(frozen=True)
class Term:
    """One term of the calibration loss: the figure, its distance and its tolerance."""

    key: str
    distance: str  # "difference" or "tvd"
    tolerance: float


LOSS_TERMS: tuple[Term, ...] = (
    *(Term(f"table6_span_level/{row}/{f1}", "difference", F1_TOLERANCE) for row in HUMAN_ROWS for f1 in F1S),
    *(Term(f"table5_example_level_votes/{label}", "tvd", TVD_TOLERANCE) for label in VOTE_LABELS),
    Term("dataset/span_words/mean", "difference", WORDS_TOLERANCE),
)


def term(key: str) -> Term | None:
    """The loss term for a figure key, or for the distribution it is part of
    (``"table5_example_level_votes/Any/0"`` -> the Any term); None when it is not a term."""
    for t in LOSS_TERMS:
        if key == t.key or key.startswith(t.key + "/"):
            return t
    return None
