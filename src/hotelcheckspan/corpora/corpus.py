"""The in-memory corpus: three tidy frames, each campaign's config and categories, and the
warnings found while reading it.

Frames of a :class:`Corpus`:

``examples``
    ``dataset, split, setup_id, example_idx`` (the key), ``description`` (the input; for a
    factgenie export, the input as JSON text), ``summary`` (the annotated text), ``aspect,
    sources, description_words, description_sentences, summary_words`` and, where the input
    has them, ``segments, segments_dropped`` (segments before de-duplication, and how many it
    dropped).
``records``
    one row per annotation record: ``record_id, kind`` ("human"|"model"), ``campaign, stage,
    annotator_id, annotator_group``, the key, ``impression`` (1-7 or <NA>), ``no_errors``
    (the checkbox, <NA> when absent), ``n_spans, file, line``.
``spans``
    one row per span: ``record_id, kind, campaign, stage, annotator_id, annotator_group``, the
    key, ``order`` (position within the record), ``start, end`` (end = start + len(text)),
    ``type`` (category name), ``type_idx, text, reason, words``.

Keys are spelled as the corpus' texts spell them (records are matched to texts after slugifying,
as factgenie does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .problems import CategoryMismatch, Problem

KEY = ["dataset", "split", "setup_id", "example_idx"]  # an example, as factgenie keys it
WHO = ["record_id", "kind", "campaign", "stage", "annotator_id", "annotator_group"]  # a record's annotator
RECORD_COLUMNS = [*WHO, *KEY, "impression", "no_errors", "n_spans", "file", "line"]
SPAN_COLUMNS = [*WHO, *KEY, "order", "start", "end", "type", "type_idx", "text", "reason", "words"]


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

    def campaigns(self, kind: str | None = None) -> list[str]:
        recs = self.records if kind is None else self.records[self.records["kind"] == kind]
        return list(dict.fromkeys(recs["campaign"]))
