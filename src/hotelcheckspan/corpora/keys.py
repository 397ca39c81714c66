"""The example key and how factgenie compares it, in one place every reader and selection uses.

factgenie keys an example by ``(dataset, split, setup_id, example_idx)`` and joins two files after
python-slugify's ``slugify`` of the first three (``setup_id: llama3-3`` finds ``llama3.3``). This
module imports nothing of the package, so the corpus, its layouts, its readers and the selection
all build on it without importing each other.
"""

from __future__ import annotations

import difflib
from functools import cache
from pathlib import Path

import pandas as pd
from slugify import slugify

KEY = ["dataset", "split", "setup_id", "example_idx"]  # an example, as factgenie keys it
# where api.load_with_campaign links an outside campaign folder (``<corpus>/added-judge/model/<folder>``)
ADDED = "added-judge"


@cache
def slug(text: str) -> str:
    """One key part as factgenie compares it."""
    return slugify(text)


def slug_key(dataset: str, split: str, setup_id: str, example_idx: int) -> tuple:
    """The example key as factgenie compares it."""
    return (slug(dataset), slug(split), slug(setup_id), int(example_idx))


def slug_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with dataset, split and setup_id slugified (for joining two files)."""
    out = frame.copy()
    for col in KEY[:3]:
        out[col] = out[col].map(slug)
    return out


def as_list(value) -> list[str]:
    """A selection option as a list of names: None, one name, "a,b" or a list of them."""
    if value is None:
        return []
    if isinstance(value, (str, Path)):
        value = [value]
    out: list[str] = []
    for v in value:  # "a,b" and ["a", "b"] alike
        out += [part.strip() for part in str(v).split(",") if part.strip()]
    return out


def closest(name: str, names) -> str:
    """' (closest: a, b)' naming the names most like a misspelt ``name``, or ''."""
    names, given = [str(n) for n in names], str(name).lower()

    def score(candidate: str) -> float:  # the whole name, or its last words ("gpt5" is near "...-test-gpt4o")
        words = candidate.lower().split("-")
        tails = ["-".join(words[i:]) for i in range(len(words))]
        return max(difflib.SequenceMatcher(None, given, t).ratio() for t in tails)

    ranked = sorted(((score(n), i, n) for i, n in enumerate(names)), key=lambda x: (-x[0], x[1]))
    hits = [n for r, _, n in ranked if r >= 0.6][:3]
    hits += [n for n in names if given in n.lower() and n not in hits][: 3 - len(hits)]
    return f" (closest: {', '.join(hits)})" if hits else ""
