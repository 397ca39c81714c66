"""The public API, matching the command line: ``load``, ``read_annotations``, ``span_f1`` and
``span_gamma``.

``span_f1`` compares two annotation files as ``hotelcheckspan f1`` does and returns what
``f1 --json`` prints. Options beyond the reference and hypothesis are keyword arguments and are
passed on to :func:`hotelcheckspan.metrics.span_f1.span_f1`, so new metric options need no
change here.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .annotator_sets import AnnotatorSet, parse_group
from .corpora import KEY, Annotations, CategoryMismatch, CorpusError, load, read_annotations, slug_frame
from .metrics import gamma as _gamma
from .metrics import span_f1 as _metric

__all__ = ["load", "read_annotations", "span_f1", "span_gamma"]


def _side(side: Annotations | str | Path, group: int | str | None) -> tuple[Annotations, pd.DataFrame, pd.DataFrame]:
    """The records and spans of one side (optionally one annotator group), keys slugified."""
    ann = side if isinstance(side, Annotations) else read_annotations(side)
    if ann.errors:
        raise CorpusError(ann.errors, str(ann.path))
    records, spans = ann.records, ann.spans
    if group is not None:
        chosen = AnnotatorSet(ann.campaign, parse_group(group) if isinstance(group, str) else int(group))
        records, spans = chosen.filter(records), chosen.filter(spans)
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
    if ref_ann.categories != hyp_ann.categories:
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
        categories=ref_ann.categories,
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


def span_gamma(
    ref: Annotations | str | Path,
    hyp: Annotations | str | Path,
    *,
    ref_group: int | str | None = None,
    hyp_group: int | str | None = None,
    soft: bool = _gamma.SOFT_CLI,
    alpha: float = _gamma.ALPHA,
    beta: float = _gamma.BETA,
    delta_empty: float = _gamma.DELTA_EMPTY,
) -> dict:
    """Mathet et al.'s γ between ``hyp`` and ``ref`` as factgenie 1.2.1 computes it
    (:mod:`hotelcheckspan.metrics.gamma`), per example and averaged.

    Inputs and examples as :func:`span_f1`. ``soft``: soft γ (a unit may be aligned more than
    once); the default is hard γ, as ``factgenie iaa gamma`` computes it without
    ``--soft_gamma`` (factgenie's Python function defaults to soft). Returns ``gamma`` and
    ``s_empty`` (the means over the examples where each is defined; ``None`` when none),
    ``gamma_mean`` and ``s_empty_mean`` (factgenie's: rounded to 3 decimals, 0.0 when none),
    ``gamma_examples`` and ``s_empty_examples`` (how many examples each mean is over),
    ``examples`` and ``soft``. Raises as :func:`span_f1` does, and
    :class:`~hotelcheckspan.metrics.gamma.TooManyAnnotators` (a ``ValueError``) when an example
    has more than two annotators (a pooled set whose groups both marked it: choose groups).
    """
    ref_ann, ref_rec, ref_spans = _side(ref, ref_group)
    hyp_ann, hyp_rec, hyp_spans = _side(hyp, hyp_group)
    if ref_ann.categories != hyp_ann.categories:
        raise CategoryMismatch(str(ref_ann.path), ref_ann.categories, str(hyp_ann.path), hyp_ann.categories)
    examples = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
    if examples.empty:
        raise ValueError("no example has a record on both sides (check the files and the groups)")
    spans = pd.concat([ref_spans, hyp_spans], ignore_index=True)
    spans = spans.assign(
        annotator=[_gamma.annotator_id(c, g) for c, g in zip(spans["campaign"], spans["annotator_group"])],
        label=spans["type_idx"].astype(str),
    )
    table = _gamma.per_example(spans, examples, soft=soft, alpha=alpha, beta=beta, delta_empty=delta_empty)
    fg = _gamma.summary(table)
    return {
        "gamma": fg["gamma"],
        "s_empty": fg["s_empty"],
        "gamma_mean": fg["gamma_mean"],
        "s_empty_mean": fg["s_empty_mean"],
        "gamma_examples": len(fg["gamma_scores"]),
        "s_empty_examples": len(fg["s_empty_scores"]),
        "examples": int(len(examples)),
        "soft": bool(soft),
    }
