"""The paper's reported figures (``data/paper_figures.yaml``) and side-by-side comparisons."""

from __future__ import annotations

from functools import lru_cache

import pandas as pd
import yaml

from .. import paths
from ..annotator_sets import PAPER_NAMES


@lru_cache(maxsize=1)
def figures() -> dict:
    """The transcribed figures of the paper, as nested dicts (see the YAML's comments)."""
    return yaml.safe_load(paths.PAPER_FIGURES.read_text(encoding="utf-8"))


def versus(rows: list[tuple], label: str = "this corpus") -> pd.DataFrame:
    """A "paper vs. this corpus" table from ``(measure, paper value, our value)`` triples.

    Non-numeric paper values (ranges such as "0.65-0.67", bounds such as ">0.95") are kept as
    text and get no difference.
    """
    out = []
    for measure, theirs, ours in rows:
        diff = ours - theirs if isinstance(theirs, (int, float)) and isinstance(ours, (int, float)) else None
        out.append({"measure": measure, "paper": theirs, label: ours, "difference": diff})
    frame = pd.DataFrame(out)
    frame["paper"] = frame["paper"].astype(object)
    return frame


# The paper's row names for the LLM campaigns -> the campaign folders of the corpus
LLM_CAMPAIGNS = {paper_name: campaign for campaign, paper_name in PAPER_NAMES.items()}


def frame(rows: dict, index_name: str) -> pd.DataFrame:
    """A table of the paper (a mapping of row name -> columns) as a frame."""
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis(index_name).reset_index()


def inconsistencies(chapter: str | None = None) -> pd.DataFrame:
    """The paper's internal inconsistencies (``notes`` of ``data/paper_figures.yaml``), each with
    its arithmetic; only those a chapter (``"02_dataset_level_agreement"``) discusses when given.

    Columns: ``figure, issue, arithmetic, chapter``."""
    notes = pd.DataFrame(figures()["notes"], columns=["figure", "issue", "arithmetic", "chapter"])
    return notes if chapter is None else notes[notes["chapter"] == chapter].reset_index(drop=True)
