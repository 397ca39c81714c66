"""The public API, matching the command line: ``load``, ``read_annotations``, ``span_f1`` and
``evaluate_judge``.

``span_f1`` compares two annotation files as ``hotelcheckspan f1`` does and returns what
``f1 --json`` prints. Options beyond the reference and hypothesis are keyword arguments and are
passed on to :func:`hotelcheckspan.metrics.span_f1.span_f1`, so new metric options need no
change here.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd

from .annotator_sets import AnnotatorSet, group_letter, parse_group
from .corpora import KEY, Annotations, CategoryMismatch, CorpusError, load, read_annotations, slug_frame
from .metrics import span_f1 as _metric

ADDED = "added-judge"  # where load_with_campaign links an outside campaign folder

__all__ = ["evaluate_judge", "load", "load_with_campaign", "read_annotations", "span_f1"]


def _side(side: Annotations | str | Path, group: int | str | None) -> tuple[Annotations, pd.DataFrame, pd.DataFrame]:
    """The records and spans of one side (optionally one annotator group), keys slugified."""
    ann = side if isinstance(side, Annotations) else read_annotations(side)
    if ann.errors:
        raise CorpusError(ann.errors, str(ann.path))
    records, spans = ann.records, ann.spans
    if group is not None:
        chosen = AnnotatorSet(ann.campaign, parse_group(group) if isinstance(group, str) else int(group))
        records, spans = chosen.filter(records), chosen.filter(spans)
        if records.empty:
            have = ", ".join(group_letter(int(g)) for g in sorted(ann.records["annotator_group"].unique()))
            raise ValueError(f"{ann.path} has no annotator group {group} (its groups: {have or 'none'})")
    return ann, slug_frame(records), slug_frame(spans)


def span_f1(
    ref: Annotations | str | Path,
    hyp: Annotations | str | Path,
    *,
    ref_group: int | str | None = None,
    hyp_group: int | str | None = None,
    match: str = "hard",
    metric: str = "char",
    convention: str | None = None,
    by_type: bool = False,
    **options,
) -> dict:
    """Span-level precision, recall and F1 of ``hyp`` against ``ref``.

    ``metric`` and ``convention`` choose the definition (see the methods page): by default
    factgenie 1.2.1's character overlap, span lengths counted where both sides marked; the
    book's Table 6 uses ``convention="either"``, which the paper's figures support.

    ``ref`` and ``hyp`` are what :func:`read_annotations` returns (or paths to annotation
    files); ``ref_group``/``hyp_group`` pick one annotator group (a number or a letter, A = 0;
    default: all groups pooled, as factgenie pools them). Examples are those with a record on
    both sides (keys compared after slugifying, as factgenie does). Returns ``{precision, recall,
    f1, ref_count, hyp_count, examples}`` plus ``by_type`` (category -> the same without
    ``examples``) when ``by_type``. Raises :class:`CorpusError` when a side has errors,
    :class:`CategoryMismatch` when the campaigns' categories differ and ``ValueError`` when no
    example is annotated by both.
    """
    ref_ann, ref_rec, ref_spans = _side(ref, ref_group)
    hyp_ann, hyp_rec, hyp_spans = _side(hyp, hyp_group)
    categories = ref_ann.categories
    if ref_ann.categories_from_types or hyp_ann.categories_from_types:
        # a side without config: compare types by number, as factgenie does, named from the other side's config
        named = next((a.categories for a in (ref_ann, hyp_ann) if not a.categories_from_types), [])
        n = max(len(ref_ann.categories), len(hyp_ann.categories), len(named))
        categories = list(named) + [f"type {i}" for i in range(len(named), n)]
        ref_spans, hyp_spans = (s.assign(type=[categories[i] for i in s["type_idx"]]) for s in (ref_spans, hyp_spans))
    elif ref_ann.categories != hyp_ann.categories:
        raise CategoryMismatch(str(ref_ann.path), ref_ann.categories, str(hyp_ann.path), hyp_ann.categories)
    examples = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
    if examples.empty:
        raise ValueError("no example has a record on both sides (check the files and the groups)")
    table = _metric.span_f1(
        ref_spans,
        hyp_spans,
        examples,
        match=match,
        metric=metric,
        convention=convention,
        by_type=by_type,
        categories=categories,
        **options,
    )
    overall = table.iloc[0]
    result = {
        "precision": float(overall["precision"]),
        "recall": float(overall["recall"]),
        "f1": float(overall["f1"]),
        "ref_count": int(overall["ref_count"]),
        "hyp_count": int(overall["hyp_count"]),
        "examples": int(len(examples)),
    }
    if by_type:
        result["by_type"] = {
            r.category: {
                "precision": float(r.precision),
                "recall": float(r.recall),
                "f1": float(r.f1),
                "ref_count": int(r.ref_count),
                "hyp_count": int(r.hyp_count),
            }
            for r in table.iloc[1:].itertuples()
        }
    return result


def load_with_campaign(corpus: str | Path | None, campaign: str | Path):
    """The corpus at ``corpus`` (default: the active one) with one more model campaign: the
    factgenie campaign folder ``campaign`` (a ``config.yaml`` or ``metadata.json`` and its
    annotation files), read as if it sat in the corpus' folder under ``model/`` (its files are
    linked, not copied). Returns ``(corpus, campaign name)``; raises ``ValueError`` when the
    corpus already has a campaign of that name, :class:`CorpusError` on bad input."""
    from . import paths

    root = (Path(corpus) if corpus is not None else paths.corpus_dir()).resolve()
    folder = Path(campaign)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a campaign folder")
    folder = folder.resolve()
    tmp = Path(tempfile.mkdtemp(prefix=".hotelcheckspan-judge-"))
    try:
        for entry in root.iterdir():
            os.symlink(entry, tmp / entry.name)
        extra = tmp / ADDED / "model"
        extra.mkdir(parents=True)
        os.symlink(folder, extra / folder.name)
        out = load(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    added = set(out.records.loc[out.records["file"].str.startswith(f"{ADDED}/"), "campaign"])
    if added != {folder.name}:  # the loader renamed it (a campaign of that name is in the corpus) or it is empty
        if folder.name in set(out.campaigns()) - added:
            raise ValueError(f"the corpus already has a campaign named {folder.name!r}; rename the folder {folder}")
        raise ValueError(f"{folder} holds no annotation record")
    out.root = root
    return out, folder.name


def evaluate_judge(corpus=None, campaign: str | Path = "", *, n_boot: int = 1000, seed: int = 0) -> dict:
    """Score one LLM judge as the book scores the paper's: its rows of Tables 3, 5 and 6 with
    intervals, its balanced accuracy against the human majority and its rank among the corpus'
    judges (see :func:`hotelcheckspan.analyses.judges.evaluate` for the keys).

    ``corpus`` is a loaded corpus or a corpus folder (default: the active corpus); ``campaign``
    is the name of one of its model campaigns, or the path of a factgenie campaign folder
    outside it, which is then read and added to the corpus as a model campaign. Raises
    ``ValueError`` naming the available campaigns when the name is unknown.
    """
    from .analyses import judges
    from .corpora import Corpus

    loaded = corpus if isinstance(corpus, Corpus) else load(corpus)
    name = str(campaign)
    if name not in loaded.campaigns() and Path(name).is_dir():
        folder = Path(name).resolve()
        if folder.is_relative_to(Path(loaded.root).resolve()):  # a campaign of the corpus, given by its path
            name = folder.name
        else:
            loaded, name = load_with_campaign(loaded.root, folder)
    if name in loaded.campaigns("human"):
        raise ValueError(f"{name!r} is a human campaign, not an LLM judge (judges: {', '.join(judges.judges(loaded))})")
    if name not in loaded.campaigns():
        raise ValueError(
            f"no campaign {name!r} in the corpus and no campaign folder at that path "
            f"(campaigns: {', '.join(loaded.campaigns()) or 'none'})"
        )
    return judges.evaluate(loaded, name, n_boot=n_boot, seed=seed)
