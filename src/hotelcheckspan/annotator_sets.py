"""Annotator sets: who annotated, as one value used by the CLI, the comparisons file, every table
and every chapter, and the one name each goes by for readers.

An annotator set is a campaign and, optionally, one annotator group of it (``group=None``: all
groups pooled, as factgenie pools them). It is written ``"stage1/A"`` (group A = 0, B = 1, ...),
``"stage1/0"`` or ``"gpt-4o"`` on the command line and in ``data/comparisons.yaml``; readers see
its display name, by the rules of the glossary ("judge", "human set"):

- a *judge* (a model campaign) by :func:`judge_names`: the paper's five as its Table 3 writes them
  ("gpt-4o (LS)" for ``gpt-4o-ls``), any other by its campaign's name without a leading prompt
  variant ("zeroshot-gpt4o" is "gpt4o") unless another judge of its corpus runs the same model;
- a *human set* (a group of a human campaign) by :func:`human_set_name`: "St. 1A" for
  HotelCheckSpan's stage 1, group A (the paper's writing), "St. 1" for a stage's groups pooled;
  on another corpus "group 3", or "iaa group 3" where it has several human campaigns, and its one
  human campaign, pooled, "humans".

:func:`names` gathers them for one corpus (a :class:`Names`, which also rewrites a text);
:func:`display_name` rewrites a text by the rules that need no corpus (the paper's campaigns, its
stages and groups, Table 6's row names).
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
# Table 6's row names (data/comparisons.yaml, data/paper_figures.yaml) -> how readers see them
_T6_GROUPS = re.compile(r"\bGroup ([A-Z]) - Group ([A-Z]) \(Stage (\d+)\)")
_T6_STAGES = re.compile(r"\bStage (\d+) - Stage (\d+)\b")
_T6_LLM = re.compile(r"\bHuman - LLM \(([^()]+)\)")


def _t6_llm(model: str) -> str:
    """Table 6's "Human - LLM (GPT-4o)" row pools the model's two prompts (gpt-4o and gpt-4o (LS)):
    "humans vs gpt-4o, both prompts"; a row of one judge is "humans vs <judge>"."""
    name = DISPLAY_NAMES.get(model, model)
    both = [c for c in PAPER_NAMES if c == name or c == f"{name}-ls"]
    return f"humans vs {name}{', both prompts' if len(both) > 1 else ''}"


def display_name(text: str) -> str:
    """A campaign's or annotator set's one name for readers wherever it appears in ``text``, by the
    rules that need no corpus: the paper's Table 3 row name ("gpt-4o (LS)" for the folder
    ``gpt-4o-ls``, "o3-mini" for Table 6's "O3-Mini"), a stage's group as the paper's tables write
    it ("St. 1A" for ``stage1/A``, :attr:`AnnotatorSet.name`) and Table 6's rows as comparisons of
    those ("St. 1A vs St. 1B" for "Group A - Group B (Stage 1)", "St. 1 vs St. 2", "humans vs
    gpt-4o, both prompts"), so a set is never called two things on one site. Other text is
    returned unchanged; a judge of another corpus needs its corpus (:func:`names`)."""
    if not isinstance(text, str):
        return text
    text = _T6_GROUPS.sub(lambda m: f"St. {m.group(3)}{m.group(1)} vs St. {m.group(3)}{m.group(2)}", text)
    text = _T6_STAGES.sub(lambda m: f"St. {m.group(1)} vs St. {m.group(2)}", text)
    text = _T6_LLM.sub(lambda m: _t6_llm(m.group(1)), text)
    text = _STAGE_GROUP.sub(lambda m: f"St. {m.group(1)}{m.group(2)}", text)
    return _ALIAS.sub(lambda m: DISPLAY_NAMES[m.group(1)], text)


# The prompt variants a judge's campaign name may begin with ("zeroshot-gpt4o", "cot-llama3-3"):
# its display name leaves the variant out unless another judge of its corpus runs the same model.
PROMPT_VARIANTS = ("zeroshot", "zero-shot", "fewshot", "few-shot", "oneshot", "one-shot", "cot")
_VARIANT = re.compile(r"(" + "|".join(map(re.escape, PROMPT_VARIANTS)) + r")-(.+)")


def model_of(campaign: str) -> tuple[str, str]:
    """A judge's campaign name as (prompt variant, model): ``("zeroshot", "gpt4o")`` for
    "zeroshot-gpt4o", ``("", name)`` where it begins with no variant of :data:`PROMPT_VARIANTS`."""
    m = _VARIANT.fullmatch(campaign)
    return (m.group(1), m.group(2)) if m else ("", campaign)


def judge_names(judges) -> dict[str, str]:
    """Every judge's display name, by one rule, for the judges (model campaigns) of one corpus:

    - the paper's five as its Table 3 writes them ("gpt-4o (LS)" for campaign ``gpt-4o-ls``);
    - any other by its campaign's name without its prompt variant ("gpt4o" for ``zeroshot-gpt4o``),
      unless two judges of the corpus share the model ("cot-llama3-3" beside "zeroshot-llama3-3",
      or "zeroshot-gpt4o" beside a judge named "gpt4o"): then every one of them keeps its name.

    Names never merge: a short name that is another judge's display name keeps the long one. A
    model keeps the spelling its corpus gives it (the public corpus' "gpt4o" is not the paper's
    "gpt-4o": two judges, on other texts with another prompt)."""
    judges = list(dict.fromkeys(str(j) for j in judges))
    models: dict[str, list[str]] = {}
    for j in judges:
        if j not in PAPER_NAMES:
            models.setdefault(model_of(j)[1], []).append(j)
    out = {}
    for j in judges:
        if j in PAPER_NAMES:
            out[j] = PAPER_NAMES[j]
            continue
        model = model_of(j)[1]
        out[j] = model if len(models[model]) == 1 else j
    taken = [n for n in out.values()]
    for j, name in out.items():  # never two judges under one name
        if taken.count(name) > 1 and name != j:
            out[j] = j
    return out


def human_set_name(campaign: str, group: int | None, human_campaigns, labels: dict | None = None) -> str:
    """A human set's display name, by one rule: HotelCheckSpan's stages as the paper writes them
    ("St. 1A" for stage 1, group A; "St. 1" for its groups pooled); on another corpus a group is
    "group 3" where the corpus has one human campaign (which, pooled, is "humans"), "iaa group 3"
    where it has several (each, pooled, by its name). ``labels`` maps a group to how it is
    written (a letter, or a number where the campaign's groups run past Z: :func:`group_labels`)."""
    stage = re.fullmatch(r"stage(\d+)", campaign)
    if group is None:
        if stage:
            return f"St. {stage.group(1)}"
        return "humans" if len(list(human_campaigns)) <= 1 else campaign
    label = (labels or {}).get(group, group_letter(group))
    if stage:
        return f"St. {stage.group(1)}{label}"
    return f"group {label}" if len(list(human_campaigns)) <= 1 else f"{campaign} group {label}"


@dataclass(frozen=True)
class Names:
    """The display names of one corpus' judges and human sets (:func:`names`): ``of`` names one
    (a campaign, or a set as ``"iaa/3"``), calling it rewrites a text (a table cell, a label)."""

    judges: dict
    sets: dict  # human set spec ("iaa/3", "stage1/A") -> display name
    campaigns: dict  # human campaign -> display name, pooled ("iaa" -> "humans")

    def of(self, who) -> str:
        who = str(who)
        return self.judges.get(who) or self.sets.get(who) or self.campaigns.get(who) or display_name(who)

    def __call__(self, text):
        if not isinstance(text, str):
            return text
        if text in self.campaigns:  # a cell naming a human campaign, pooled
            return self.campaigns[text]
        tokens = {**self.judges, **self.sets}
        if tokens:
            pattern = "|".join(map(re.escape, sorted(tokens, key=len, reverse=True)))
            text = re.sub(rf"(?<![\w/.-])({pattern})(?![\w/-])", lambda m: tokens[m.group(1)], text)
        return display_name(text)


def names(corpus) -> Names:
    """The display names of ``corpus``' judges and human sets, by :func:`judge_names` and
    :func:`human_set_name`."""
    humans = list(corpus.campaigns("human"))
    sets = {}
    for campaign in humans:
        groups = [g.group for g in groups_of(corpus, campaign)]
        labels = dict(zip(groups, group_labels(groups)))
        for g in groups:
            name = human_set_name(campaign, g, humans, labels)
            for written in (labels[g], g, group_letter(g)):  # as shown, as numbered, as the spec writes it
                sets[f"{campaign}/{written}"] = name
    return Names(
        judges=judge_names(corpus.campaigns("model")),
        sets=sets,
        campaigns={c: human_set_name(c, None, humans) for c in humans},
    )


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
            raise ValueError(f"human set or judge {spec!r} names no campaign")
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
            raise ValueError(f"human set or judge {self.spec!r} has no records in this corpus")
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
