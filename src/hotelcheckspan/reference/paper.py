"""The paper's reported figures (``data/paper_figures.yaml``), which examples each is on, and its
internal inconsistencies.

This is the foundation: the simulation reads its inputs from here and the book its comparisons,
so neither imports the other for the paper's numbers."""

from __future__ import annotations

from dataclasses import dataclass
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


# The paper's row names for the judges -> the campaign folders of the corpus
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


# --- what a printed figure stands for ----------------------------------------------------------------

# A whole number the paper prints is an exact count, unless it is a statistic printed whole: a
# share in percent, a mean, a median, a drop, a length, a change in points (Table 2's "46%",
# Section 4.4's "an average length of 4 words"), which stands for any value within half a unit.
ROUNDED_WHOLES = ("pct", "mean", "median", "drop", "avg_len", "points")


@dataclass(frozen=True)
class Printed:
    """A figure as the paper prints it: its ``value``, the ``decimals`` printed, and the interval
    ``low``..``high`` of values that print so (a half unit of the last decimal either side; an
    exact count has ``low == high == value``)."""

    value: float
    decimals: int
    low: float
    high: float

    @property
    def half(self) -> float:
        """Half a unit of the last printed decimal (0 for an exact count)."""
        return (self.high - self.low) / 2


@lru_cache(maxsize=1)
def _scalars() -> dict[tuple, str]:
    """Every scalar of ``paper_figures.yaml`` as written there (``"0.10"``, not the float 0.1),
    keyed by its path: the digits a figure was printed with, which the loaded floats lose."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    root = yaml.compose(paths.PAPER_FIGURES.read_text(encoding="utf-8"), Loader=loader)
    out: dict[tuple, str] = {}

    def walk(node, where: tuple) -> None:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                walk(v, (*where, k.value))
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                walk(v, (*where, str(i)))
        elif isinstance(node, yaml.ScalarNode):
            out[where] = node.value

    walk(root, ())
    return out


def printed(key: str, tree: dict | None = None) -> Printed:
    """What the paper's figure at ``key`` stands for, from the digits it was printed with: 3.8 is
    any value from 3.75 to 3.85, 0.10 from 0.095 to 0.105; a count is exact, a statistic printed
    whole (:data:`ROUNDED_WHOLES`: Section 4.4's mean span of 4 words) any value within half a
    unit. Every bound the book draws from a printed figure takes it from here (ValueError for a
    figure printed as text, such as ">0.95", whose interval the checks read from the text).
    ``tree``: other figures in the same layout (a test's), whose digits are those of the values."""
    own = tree is None or tree is figures()
    parts, v = lookup(figures() if own else tree, key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"{key} is not printed as a number ({v!r})")
    raw = _scalars().get(tuple(map(str, parts))) if own else None
    digits = (raw if raw is not None else repr(v)).strip().lstrip("+-")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    whole_statistic = decimals == 0 and any(str(parts[-1]).endswith(w) for w in ROUNDED_WHOLES)
    if isinstance(v, int) and not whole_statistic:
        return Printed(float(v), 0, float(v), float(v))
    half = 0.5 * 10.0**-decimals
    return Printed(float(v), decimals, round(float(v) - half, decimals + 1), round(float(v) + half, decimals + 1))


def interval(key: str, tree: dict | None = None) -> tuple[float, float]:
    """The values the paper's figure at ``key`` can stand for (:func:`printed`): ``(low, high)``."""
    p = printed(key, tree)
    return p.low, p.high
