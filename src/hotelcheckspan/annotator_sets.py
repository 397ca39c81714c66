"""Annotator sets: who annotated, as one value used by the CLI, the comparisons file, every table
and every chapter.

An annotator set is a campaign and, optionally, one annotator group of it (``group=None``: all
groups pooled, as factgenie pools them). It is written ``"stage1/A"`` (group A = 0, B = 1, ...),
``"stage1/0"`` or ``"gpt-4o"``; its display name follows the paper's tables ("St. 1A" for stage 1
group A, the campaign name otherwise).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

import pandas as pd

LETTERS = string.ascii_uppercase
# campaign folder -> the paper's row name, where the paper names a campaign otherwise (Tables 3-4)
PAPER_NAMES = {
    "gemma-3": "gemma-3",
    "gpt-4o": "gpt-4o",
    "gpt-4o-ls": "gpt-4o (LS)",
    "o3-mini": "o3-mini",
    "o3-mini-ls": "o3-mini (LS)",
}


# every other name a campaign goes by (its folder, Table 6's row names) -> its one display name
DISPLAY_NAMES = {
    **{folder: name for folder, name in PAPER_NAMES.items() if folder != name},
    "Gemma3": "gemma-3",
    "GPT-4o": "gpt-4o",
    "O3-Mini": "o3-mini",
}
_ALIAS = re.compile(
    r"(?<![\w-])(" + "|".join(map(re.escape, sorted(DISPLAY_NAMES, key=len, reverse=True))) + r")(?![\w-])"
)


# a stage's group as the command line and data/comparisons.yaml write it ("stage1/A")
_STAGE_GROUP = re.compile(r"(?<![\w/-])stage(\d+)/([A-Z])(?![\w/-])")


def display_name(text: str) -> str:
    """A campaign's or annotator set's one name for readers wherever it appears in ``text``: the
    paper's Table 3 row name ("gpt-4o (LS)" for the folder ``gpt-4o-ls``, "o3-mini" for Table 6's
    "O3-Mini"), and a stage's group as the paper's tables write it ("St. 1A" for ``stage1/A``,
    :attr:`AnnotatorSet.name`), so a set is never called two things on one site. Other text is
    returned unchanged."""
    if not isinstance(text, str):
        return text
    text = _STAGE_GROUP.sub(lambda m: f"St. {m.group(1)}{m.group(2)}", text)
    return _ALIAS.sub(lambda m: DISPLAY_NAMES[m.group(1)], text)


def paper_order(names) -> list:
    """``names`` (campaigns, their display names or human sets) in the paper's order: human sets
    first as Tables 4-6 list them (St. 1A, St. 1B, St. 2A, St. 2B), then the paper's LLM campaigns
    in Table 3's order, then any other in the order given."""
    names = list(names)
    llm = list(PAPER_NAMES)
    llm_display = list(PAPER_NAMES.values())

    def key(item):
        i, name = item
        text = str(name)
        human = re.fullmatch(r"(?:St\. (\d+)([A-Z])|stage(\d+)(?:/([A-Z0-9]+))?)", text)
        if human:
            return (0, human.group(0).replace("stage", "St. "), i)
        for order in (llm, llm_display):
            if text in order:
                return (1, order.index(text), i)
        return (2, 0, i)

    return [name for _, name in sorted(enumerate(names), key=key)]


def parse_group(text: str) -> int:
    """A group as a user writes it: a letter (A = 0, B = 1, ...) or a group number."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    if len(text) == 1 and text.upper() in LETTERS:
        return LETTERS.index(text.upper())
    raise ValueError(f"group {text!r} is neither a number nor a letter A-Z")


def group_letter(group: int) -> str:
    """Group 0 -> 'A', 1 -> 'B', ...; numbers past Z stay numbers."""
    return LETTERS[group] if 0 <= group < len(LETTERS) else str(group)


def group_labels(groups) -> list[str]:
    """Groups as a list for readers: letters (A, B, ...) where every group has one, else all
    numbers (never "A ... Z, 26, 27")."""
    groups = sorted(int(g) for g in groups)
    if all(0 <= g < len(LETTERS) for g in groups):
        return [LETTERS[g] for g in groups]
    return [str(g) for g in groups]


@dataclass(frozen=True)
class AnnotatorSet:
    """A campaign, or one annotator group of it."""

    campaign: str
    group: int | None = None

    @classmethod
    def parse(cls, spec: str | AnnotatorSet) -> AnnotatorSet:
        """``"stage1/A"``, ``"stage1/0"`` or ``"gpt-4o"`` (all groups pooled)."""
        if isinstance(spec, AnnotatorSet):
            return spec
        campaign, _, group = spec.partition("/")
        if not campaign:
            raise ValueError(f"annotator set {spec!r} names no campaign")
        return cls(campaign, parse_group(group) if group else None)

    @property
    def spec(self) -> str:
        """How the set is written in ``data/comparisons.yaml`` and on the command line."""
        return self.campaign if self.group is None else f"{self.campaign}/{group_letter(self.group)}"

    @property
    def name(self) -> str:
        """The display name of the paper's tables: 'St. 1A' for a stage's group, else the spec."""
        stage = re.fullmatch(r"stage(\d+)", self.campaign)
        if stage and self.group is not None:
            return f"St. {stage.group(1)}{group_letter(self.group)}"
        return self.spec

    @property
    def paper_name(self) -> str:
        """The row name in the paper's tables ("St. 1A", "gpt-4o (LS)"); the display name otherwise."""
        return PAPER_NAMES.get(self.spec, self.name)

    def __str__(self) -> str:
        return self.spec

    def select(self, corpus) -> tuple[pd.DataFrame, pd.DataFrame]:
        """This set's records and spans in ``corpus`` (empty frames when it has none)."""
        return self.filter(corpus.records), self.filter(corpus.spans)

    def filter(self, frame: pd.DataFrame) -> pd.DataFrame:
        """The rows of a records or spans frame that belong to this set."""
        keep = frame["campaign"] == self.campaign
        if self.group is not None:
            keep &= frame["annotator_group"] == self.group
        return frame[keep]

    def require(self, corpus) -> tuple[pd.DataFrame, pd.DataFrame]:
        """:meth:`select`, raising when the set has no records in ``corpus``."""
        records, spans = self.select(corpus)
        if records.empty:
            raise ValueError(f"annotator set {self.spec!r} has no records in this corpus")
        return records, spans


def parse_all(specs) -> list[AnnotatorSet]:
    """Several sets at once (strings or sets)."""
    return [AnnotatorSet.parse(s) for s in specs]


# HotelCheckSpan's four human annotator sets on the stage-2 examples (Tables 4-6)
HUMAN_SETS = parse_all(["stage1/A", "stage1/B", "stage2/A", "stage2/B"])


PAPER_SPLITS = ("short", "long")  # HotelCheckSpan's splits: summary lengths, which the paper's tables pool


def is_paper_layout(corpus) -> bool:
    """Whether the corpus is laid out as HotelCheckSpan's (human campaigns ``stage1``, ``stage2``,
    ...; splits ``short`` and ``long`` only): its splits are then pooled, as the paper's tables
    pool them, whatever part of it is selected."""
    rec = corpus.records
    staged = rec.loc[rec["kind"] == "human", "campaign"].astype(str).str.fullmatch(r"stage\d+")
    return bool(staged.any()) and set(rec["split"].astype(str)) <= set(PAPER_SPLITS)


def is_paper_corpus(corpus) -> bool:
    """Whether the corpus has HotelCheckSpan's four human annotator sets (stage 1 and 2, A and B):
    then the paper's tables are computed as the paper computes them."""
    sets = corpus.records[["campaign", "annotator_group"]].drop_duplicates()
    found = set(zip(sets["campaign"], sets["annotator_group"]))
    return all((s.campaign, s.group) in found for s in HUMAN_SETS)


def judges(corpus) -> list[str]:
    """Every LLM judge of ``corpus``: its model campaigns, discovered rather than listed. The
    paper's five come first in the paper's order, then any other, in the corpus' order."""
    found = corpus.campaigns("model")
    return [c for c in PAPER_NAMES if c in found] + [c for c in found if c not in PAPER_NAMES]


def in_paper(campaign: str) -> bool:
    """Whether the paper reports this campaign (one of its five LLM campaigns or a human set)."""
    return campaign in PAPER_NAMES or re.fullmatch(r"stage\d+", campaign.partition("/")[0]) is not None


# what a paper column says for a judge the paper does not have
NOT_IN_PAPER = "not in the paper"


def groups_of(corpus, campaign: str) -> list[AnnotatorSet]:
    """One set per annotator group of ``campaign``, in group order."""
    groups = sorted(corpus.records.loc[corpus.records["campaign"] == campaign, "annotator_group"].dropna().unique())
    return [AnnotatorSet(campaign, int(g)) for g in groups]
