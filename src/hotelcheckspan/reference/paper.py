"""The paper's reported figures (``data/paper_figures.yaml``), which examples each is on, and its
internal inconsistencies.

This is the foundation: the simulation reads its inputs from here and the book its comparisons,
so neither imports the other for the paper's numbers."""

from __future__ import annotations

from functools import lru_cache

import pandas as pd
import yaml

from .. import paths
from ..annotator_sets import PAPER_NAMES


@lru_cache(maxsize=1)
def figures() -> dict:
    """The transcribed figures of the paper, as nested dicts (see the YAML's comments)."""
    return yaml.load(
        paths.PAPER_FIGURES.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    )


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


# Which examples each of the paper's tables is computed on: "all" (the 496 examples) or "stage2"
# (the 245 stage-2 examples), from the tables' captions and Sections 4.4, 6.2 and 6.5. A figure whose
# set the paper does not state (Section 6.1's text, the clustering) has no entry.
SCOPES = {
    "dataset": "all",  # Sections 3.3 and 4.4
    "table2_human_span_types": "all",  # "all 794 human spans"
    "table3_llm_campaigns": "all",  # "All campaigns were run on the full set of 496 examples"
    "table4_dataset_level_stage2_subset": "stage2",  # "calculated on the subset of 245 Stage 2 examples"
    "table5_example_level_votes": "stage2",  # "all 245 examples annotated by four annotators"
    "llm_majority_alignment": "stage2",  # Section 6.2, the Table 5 examples with a clear majority
    "table6_span_level": "stage2",  # "on the Stage 2 subset"
    "impressions": "all",  # "available for all annotated summaries across the four campaigns"
}
EXAMPLE_SETS = ("all", "stage2")


def scope(key: str | None) -> str | None:
    """Which examples the paper's figure at ``key`` (``"table3_llm_campaigns/gpt-4o/avg_len"``) is
    on: ``"all"``, ``"stage2"``, or None where the paper does not say."""
    if not isinstance(key, str):
        return None
    return SCOPES.get(key.split("/")[0].split(".")[0])


def check_scope(measure: str, key: str | None, on: str | None) -> None:
    """Refuse to set a value computed on one set of examples (``on``) beside a paper figure
    computed on another: a stage-2 span length is no reproduction of Table 3's full-set one.
    ``on=None`` (the row does not say) is not checked."""
    if on is None:
        return
    if on not in EXAMPLE_SETS:
        raise ValueError(f"{measure}: examples {on!r} is not one of {', '.join(EXAMPLE_SETS)}")
    theirs = scope(key)
    if theirs is not None and theirs != on:
        raise ValueError(
            f"{measure}: ours is computed on the {on!r} examples but the paper's {key} is on {theirs!r}; "
            "compare like with like (compute ours on the paper's examples, or show it without the paper's figure)"
        )


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


def lookup(tree, key: str):
    """Resolve a ``/``-separated path (``.`` also accepted where unambiguous) in a nested mapping;
    returns (path tuple, value) or raises KeyError."""
    parts: list = []
    node, rest = tree, key
    while rest:
        if not isinstance(node, dict):
            raise KeyError(key)
        match = next(
            (
                k
                for k in sorted(map(str, node), key=len, reverse=True)
                if rest == k or rest.startswith(k + "/") or rest.startswith(k + ".")
            ),
            None,
        )
        if match is None:
            raise KeyError(key)
        parts.append(match)
        node = node[match] if match in node else node[type(next(iter(node)))(match)]
        rest = rest[len(match) + 1 :]
    return tuple(parts), node


def resolve(key: str) -> tuple:
    """The path of a figure key as a tuple of its levels (``"dataset/span_words/mean"`` ->
    ``("dataset", "span_words", "mean")``); KeyError when the paper has no such figure."""
    return lookup(figures(), key)[0]


def value(key: str):
    """The paper's figure at ``key``; KeyError when the paper has no such figure."""
    try:
        return lookup(figures(), key)[1]
    except KeyError:
        raise KeyError(f"{key!r} is not a figure in {paths.PAPER_FIGURES.name}") from None
