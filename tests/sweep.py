"""The slow tier's sweeps against slow reference implementations (factgenie's code walks every
character with pandas, pygamma solves an alignment per example): ``make test`` checks an even
spread of the pairs or examples (where several sweeps take turns, between them each item once,
e.g. every human group against one of the LLMs), and ``HOTELCHECKSPAN_FULL_SWEEP=1`` checks
every item of every sweep, as the weekly ``full sweep`` workflow does."""

from __future__ import annotations

import os

FULL = os.environ.get("HOTELCHECKSPAN_FULL_SWEEP") == "1"


def share(items, turn: int, of: int):
    """Every ``of``-th item from the ``turn``-th (every item with the full sweep): ``of`` sweeps
    taking turns 0, 1, ... check each item once between them. A list, or a frame's rows."""
    if FULL:
        return items
    start = turn % of
    return items.iloc[start::of] if hasattr(items, "iloc") else list(items)[start::of]
