"""Select before you compute: the part of a corpus one computation sees.

A factgenie export can hold several tasks with their own span categories (the public export of
"LLMs as Span Annotators" holds d2t-eval, mt-eval and propaganda in one folder), several splits
and many campaigns. Nothing pools categories that differ (:meth:`Corpus.check_categories`), so
a computation on such a corpus first selects:

``task``
    a task folder (``layouts.TASK_RULE``: ``d2t-eval`` keeps the campaigns below
    ``annotations/<kind>/d2t-eval/``); a value that is no task folder is a dataset prefix (``d2t``
    keeps the records whose ``dataset`` is ``d2t`` or starts with ``d2t-``, ``wmt24`` those of
    ``wmt24-news``, ...). A campaign added from outside the corpus belongs to every task.
``split``
    one split or several (records, spans and examples of those splits; compared after slugifying,
    as factgenie compares keys).
``campaigns``
    campaign names (as ``hotelcheckspan campaigns`` lists them) or their folders. Where no human
    campaign is named every human campaign (of the task) is kept, and where no model campaign is
    named every model campaign, so ``campaigns=["gpt4o"]`` keeps one judge and its humans and
    ``campaigns=["test"]`` one human campaign and every judge.

Examples are those of the split(s) and, when a task or campaigns are chosen, those a kept record
annotated. Warnings of the files left out are left out. Campaign names never change with the
selection (they are given on the whole corpus). ``Corpus.selection`` records what was kept and
which campaigns were left out (name -> task), for every output to say.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd

from .keys import ADDED, KEY, closest, slug_frame
from .keys import as_list as _as_list
from .keys import slug as _slug

# The corpus is taken as it comes (``Corpus`` of corpora.corpus, which calls this module): this
# module does not import it, so the two never import each other.


def is_added(corpus, name: str) -> bool:
    """Whether ``name`` is a campaign added from outside the corpus (``hotelcheckspan judge``)."""
    return corpus.campaign_folders.get(name, "").startswith(f"{ADDED}/")


def resolve_campaigns(corpus, given) -> list[str]:
    """The campaign names ``given`` (names, folders inside the corpus or annotation files in them)
    stand for; ``ValueError`` naming every campaign when one is none of these."""
    out, unknown = [], []
    for item in _as_list(given):
        if item in corpus.campaign_folders:
            out.append(item)
            continue
        found = corpus.campaign_at(item) if (Path(item).exists() or (Path(corpus.root) / item).exists()) else None
        if found is None:
            unknown.append(item)
        else:
            out.append(found)
    if unknown:
        hint = closest(unknown[0], corpus.campaign_folders) or f" ({len(corpus.campaign_folders)} campaigns)"
        raise ValueError(
            f"no campaign {', '.join(map(repr, unknown))} in {corpus.root}{hint}; `hotelcheckspan campaigns` lists "
            "them with their folders"
        )
    return list(dict.fromkeys(out))


def task_campaigns(corpus, task: str) -> list[str] | None:
    """The campaigns of task folder ``task`` (added ones included), or None when no campaign has
    that task (then ``task`` is a dataset prefix)."""
    mine = [n for n, t in corpus.campaign_tasks.items() if t == task]
    if not mine:
        return None
    return mine + [n for n in corpus.campaign_folders if is_added(corpus, n) and n not in mine]


def _dataset_prefix(frame: pd.DataFrame, prefix: str) -> pd.Series:
    slug = frame["dataset"].map(_slug)
    want = _slug(prefix)
    return (slug == want) | slug.str.startswith(want + "-")


def select(corpus, task: str | None = None, split=None, campaigns=None):
    """``corpus`` restricted to ``task``, ``split`` and ``campaigns`` (see the module docstring);
    the corpus itself (unchanged) when none is given. ``ValueError`` naming what there is when a
    task, split or campaign is unknown or the selection holds no record."""
    splits = _as_list(split)
    named = resolve_campaigns(corpus, campaigns)
    if task is None and not splits and not named:
        return corpus
    kinds = corpus.campaign_kinds
    keep = list(corpus.campaign_folders)
    prefix = None
    if task is not None:
        in_task = task_campaigns(corpus, task)
        if in_task is None:
            if not _dataset_prefix(corpus.records, task).any():
                datasets = sorted(corpus.records["dataset"].map(_slug).unique())
                raise ValueError(
                    f"no task {task!r} in {corpus.root}: it is no task folder (tasks: "
                    f"{', '.join(corpus.tasks()) or 'none'}) and no dataset starts with it (datasets: "
                    f"{', '.join(datasets) or 'none'})"
                )
            prefix = task
        else:
            keep = [n for n in keep if n in in_task]
            outside = [n for n in named if n not in in_task]
            if outside:
                raise ValueError(
                    f"campaign {', '.join(map(repr, outside))} is not in task {task!r} (its task: "
                    f"{', '.join(corpus.campaign_tasks.get(n, '') or 'none' for n in outside)})"
                )
    if named:
        for kind in ("human", "model"):
            if any(kinds.get(n) == kind for n in named):
                keep = [n for n in keep if kinds.get(n) != kind or n in named]
    rec, sp = corpus.records, corpus.spans
    rec_keep = rec["campaign"].isin(keep)
    sp_keep = sp["campaign"].isin(keep)
    if splits:
        wanted = {_slug(s) for s in splits}
        have = sorted(rec["split"].map(_slug).unique())
        missing = sorted(wanted - set(have))
        if missing:
            near = closest(missing[0], have)
            raise ValueError(
                f"no split {', '.join(map(repr, missing))} in {corpus.root}{near[:-1] + '; ' if near else ' ('}"
                f"splits: {', '.join(have)})"
            )
        rec_keep &= rec["split"].map(_slug).isin(wanted)
        sp_keep &= sp["split"].map(_slug).isin(wanted)
    if prefix is not None:
        rec_keep &= _dataset_prefix(rec, prefix)
        sp_keep &= _dataset_prefix(sp, prefix)
    records, spans = rec[rec_keep].reset_index(drop=True), sp[sp_keep].reset_index(drop=True)
    asked = {"task": task, "split": splits or None, "campaigns": named or None}
    if records.empty:
        raise ValueError(f"the selection {_describe(asked)} holds no annotation record in {corpus.root}")
    examples = corpus.examples
    if splits:
        examples = examples[examples["split"].map(_slug).isin({_slug(s) for s in splits})]
    if task is not None or named:
        have = slug_frame(records[KEY]).drop_duplicates()
        mine = slug_frame(examples[KEY]).merge(have, on=KEY, how="left", indicator=True)["_merge"].eq("both")
        examples = examples[mine.to_numpy()]
    examples = examples.reset_index(drop=True)
    kept = set(records["campaign"]) | {n for n in keep if n in corpus.empty_campaigns()}
    dropped = {n: corpus.campaign_tasks.get(n, "") for n in corpus.campaign_folders if n not in kept}
    dropped_folders = [corpus.campaign_folders[n] + "/" for n in dropped]
    gone = rec.loc[~rec_keep, ["file", "line"]]
    gone_lines = set(zip(gone["file"], gone["line"]))
    warnings = [
        w
        for w in corpus.warnings
        if not any(w.file.startswith(f) for f in dropped_folders) and (w.file, w.line) not in gone_lines
    ]

    def only(d: dict) -> dict:
        return {k: v for k, v in d.items() if k in kept}

    return dataclasses.replace(
        corpus,
        examples=examples,
        records=records,
        spans=spans,
        configs=only(corpus.configs),
        campaign_categories=only(corpus.campaign_categories),
        warnings=warnings,
        campaign_folders=only(corpus.campaign_folders),
        campaign_kinds=only(corpus.campaign_kinds),
        campaign_tasks=only(corpus.campaign_tasks),
        selection=asked | {"left_out": {**corpus.selection.get("left_out", {}), **dropped}},
    )


def _describe(asked: dict) -> str:
    parts = [f"{k} {', '.join(v) if isinstance(v, list) else v}" for k, v in asked.items() if v]
    return "(" + "; ".join(parts) + ")" if parts else "(everything)"


def describe(corpus) -> dict:
    """What a computation on ``corpus`` saw, for its output: ``task``, ``split``, ``campaigns``
    as selected (None: all), ``left_out`` (campaigns outside the selection, name -> task) and
    ``config_only`` (campaigns listed with no annotation file, left out of every computation)."""
    sel = corpus.selection
    return {
        "task": sel.get("task"),
        "split": sel.get("split"),
        "campaigns": sel.get("campaigns"),
        "left_out": dict(sel.get("left_out", {})),
        "config_only": corpus.empty_campaigns(),
    }
