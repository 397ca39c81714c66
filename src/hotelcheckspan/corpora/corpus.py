"""The in-memory corpus: three tidy frames, each campaign's config and categories, and the
warnings found while reading it.

Frames of a :class:`Corpus`:

``examples``
    ``dataset, split, setup_id, example_idx`` (the key), ``source`` (the input the text is
    checked against; for a factgenie export, the input as JSON text), ``text`` (the annotated
    text), ``description`` and ``summary`` (HotelCheckSpan's names of the same two columns,
    equal to them), ``aspect,
    sources, description_words, description_sentences, summary_words`` and, where the input
    has them, ``segments, segments_dropped`` (segments before de-duplication, and how many it
    dropped).
``records``
    one row per annotation record: ``record_id, kind`` ("human"|"model"), ``campaign, stage,
    annotator_id, annotator_group``, the key, ``impression`` (1-7 or <NA>), ``no_errors``
    (the checkbox, <NA> when absent), ``n_spans``, ``has_text`` (whether the record's example
    has an annotated text; a record without one still counts in counts, votes and F1),
    ``file, line``.
``spans``
    one row per span: ``record_id, kind, campaign, stage, annotator_id, annotator_group``, the
    key, ``order`` (position within the record), ``start, end`` (end = start + len(text)),
    ``type`` (category name), ``type_idx, text, reason``, ``placed`` (whether the span's text
    is at its start in the annotated text exactly, up to letter case, or within two characters;
    False for a text elsewhere or nowhere, a span past the end, a record without text) and
    ``words`` (of the span's text). Metrics count every span by ``start`` and ``end``, as
    factgenie does; analyses of span words or places use :attr:`Corpus.placed_spans`;
    ``severity`` (MQM's: Major, Minor, ...; <NA> in a factgenie export) and ``category`` (the
    span's category: its type in a factgenie export, MQM's category in an MQM file), which the
    weighted targets read whatever the span type is. An MQM error that marks no span (an
    omission) is a span of length 0 at 0, ``placed`` <NA>: it counts as an error of its text and
    adds nothing to span lengths.

``example_idx`` is int64, or Python integers (object) in all three frames when a value does
not fit in 64 bits (the format has no bound).

Keys are spelled as the corpus' texts spell them (records are matched to texts after slugifying,
as factgenie does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import selection
from .keys import KEY
from .problems import CategoryMismatch, Problem

WHO = ["record_id", "kind", "campaign", "stage", "annotator_id", "annotator_group"]  # a record's annotator
RECORD_COLUMNS = [*WHO, *KEY, "impression", "no_errors", "n_spans", "has_text", "file", "line"]
SPAN_COLUMNS = [
    *WHO,
    *KEY,
    "order",
    "start",
    "end",
    "type",
    "type_idx",
    "text",
    "reason",
    "placed",
    "words",
    "severity",
    "category",
]


@dataclass
class Corpus:
    """A loaded corpus. ``warnings`` lists every quirk kept as factgenie keeps it (errors make
    :func:`~hotelcheckspan.corpora.load` raise, so a corpus has none)."""

    root: Path
    examples: pd.DataFrame
    records: pd.DataFrame
    spans: pd.DataFrame
    configs: dict[str, dict] = field(default_factory=dict)
    campaign_categories: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)
    # campaign name -> its folder, relative to ``root`` (POSIX); names follow layouts.NAME_RULE.
    # Config-only campaigns (a folder with a config and no annotation file) are here too, with no
    # record in the frames.
    campaign_folders: dict[str, str] = field(default_factory=dict)
    # campaign name -> "human" | "model", and -> its task (layouts.TASK_RULE; "" where none)
    campaign_kinds: dict[str, str] = field(default_factory=dict)
    campaign_tasks: dict[str, str] = field(default_factory=dict)
    # what :meth:`select` (or ``load(..., task=, split=, campaigns=)``) kept: ``task``, ``split``,
    # ``campaigns`` as asked, and ``left_out``, the campaigns outside it (name -> task); empty: all
    selection: dict = field(default_factory=dict)

    @property
    def simulated(self) -> bool:
        """Whether any campaign config says ``simulated: true`` (the stand-in's do)."""
        return any(cfg.get("simulated") is True for cfg in self.configs.values())

    @property
    def categories(self) -> list[str]:
        """The span categories, in config order (with several lists, every name once, in order
        of first appearance)."""
        out: list[str] = []
        for cats in self.campaign_categories.values():
            out += [c for c in cats if c not in out]
        return out

    def categories_of(self, *campaigns: str) -> list[str]:
        """The categories the given campaigns share; :class:`CategoryMismatch` names both lists
        when two differ (they cannot be compared)."""
        lists = [(c, self.campaign_categories[c]) for c in dict.fromkeys(campaigns) if c in self.campaign_categories]
        for (name, cats), (other, other_cats) in zip(lists, lists[1:]):
            if cats != other_cats:
                raise CategoryMismatch(name, cats, other, other_cats)
        return list(lists[0][1]) if lists else self.categories

    @property
    def placed_spans(self) -> pd.DataFrame:
        """The spans whose text is at their offsets (``placed``): the ones analyses of span
        words and places (span lengths, highlights, clusters) use."""
        return self.spans[self.spans["placed"].fillna(False).astype(bool)]

    def left_out(self) -> dict[str, int]:
        """What text-dependent analyses leave out: ``spans`` not placed, and ``records`` (with
        ``spans_of_records``, their spans) whose example has no text."""
        no_text = ~self.records["has_text"].fillna(True).astype(bool)
        return {
            "spans": int((~self.spans["placed"].fillna(True).astype(bool)).sum()),
            "records": int(no_text.sum()),
            "spans_of_records": int(self.records.loc[no_text, "n_spans"].sum()),
        }

    def campaigns(self, kind: str | None = None) -> list[str]:
        """The campaigns with records (of ``kind``), in reading order; config-only campaigns are
        not among them (:meth:`empty_campaigns`)."""
        recs = self.records if kind is None else self.records[self.records["kind"] == kind]
        return list(dict.fromkeys(recs["campaign"]))

    def empty_campaigns(self) -> list[str]:
        """The config-only campaigns: a folder with a config and no annotation file. They are
        listed (``campaign_table``) and left out of every computation; outputs name them."""
        have = set(self.records["campaign"])
        return [n for n in self.campaign_folders if n not in have]

    def tasks(self) -> list[str]:
        """The tasks of the campaigns with records (``layouts.TASK_RULE``), sorted; [] where the
        corpus has none."""
        have = set(self.records["campaign"])
        return sorted({t for n, t in self.campaign_tasks.items() if t and n in have})

    def select(self, task: str | None = None, split=None, campaigns=None) -> Corpus:
        """The part of the corpus a computation should see: one task, some splits, some
        campaigns (see :func:`hotelcheckspan.corpora.selection.select`, which this calls)."""
        return selection.select(self, task=task, split=split, campaigns=campaigns)

    def check_categories(self) -> list[str]:
        """The one list of span categories of the campaigns with records; where two differ (two
        tasks in one export), :class:`CategoryMismatch` naming both campaigns, their tasks and
        the options that select one (``--task``/``task=``, ``--campaign``/``campaigns=``).
        Nothing pools categories that differ."""
        have = self.campaigns()
        lists = [(c, self.campaign_categories[c]) for c in have if c in self.campaign_categories]
        for name, cats in lists[1:]:
            first, first_cats = lists[0]
            if cats != first_cats:
                raise CategoryMismatch(
                    self._labelled(first), first_cats, self._labelled(name), cats, hint=self._choose_hint()
                )
        return list(lists[0][1]) if lists else self.categories

    def _labelled(self, name: str) -> str:
        task = self.campaign_tasks.get(name, "")
        return f"{name} (task {task})" if task else name

    def _choose_hint(self) -> str:
        tasks = self.tasks()
        if len(tasks) > 1:
            return f"choose one task with --task (task= in Python): {', '.join(tasks)}"
        return "choose campaigns with --campaign (campaigns= in Python)"

    def campaign_table(self) -> pd.DataFrame:
        """One row per campaign, config-only ones included (0 records): ``campaign`` (its name,
        unique in the corpus), ``kind``, ``task`` ("" where the corpus has none), ``path`` (its
        folder below the corpus root), ``records, examples, groups, spans``."""
        rec, sp = self.records, self.spans
        rows = []
        names = self.campaigns() + [n for n in self.empty_campaigns() if n not in set(rec["campaign"])]
        for name in names:
            mine = rec[rec["campaign"] == name]
            rows.append(
                {
                    "campaign": name,
                    "kind": mine["kind"].iloc[0] if len(mine) else self.campaign_kinds.get(name, ""),
                    "task": self.campaign_tasks.get(name, ""),
                    "path": self.campaign_folders.get(name, ""),
                    "records": len(mine),
                    "examples": len(mine[KEY].drop_duplicates()),
                    "groups": int(mine["annotator_group"].nunique()),
                    "spans": int((sp["campaign"] == name).sum()),
                }
            )
        return pd.DataFrame(
            rows, columns=["campaign", "kind", "task", "path", "records", "examples", "groups", "spans"]
        )

    def campaign_at(self, path: str | Path) -> str | None:
        """The name of the campaign whose folder (or an annotation file in it) is ``path``, a path
        inside the corpus (absolute, or relative to the corpus root or the working folder)."""
        root = Path(self.root).resolve()
        given = Path(path)
        candidates = [given.resolve()] if given.is_absolute() else [(root / given).resolve(), given.resolve()]
        for cand in candidates:
            for folder in (cand, cand.parent, cand.parent.parent):  # the folder, a file in it, files/<file>
                if not folder.is_relative_to(root):
                    continue
                rel = folder.relative_to(root).as_posix()
                hit = next((n for n, f in self.campaign_folders.items() if f == rel), None)
                if hit is not None:
                    return hit
        return None
