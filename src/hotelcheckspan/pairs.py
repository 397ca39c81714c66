"""Two sides compared: one campaign, file or annotator group against another.

``annotations_of`` (a campaign of a loaded corpus as one side), ``span_f1``, ``span_pearson``
and ``span_gamma`` compare two annotation files (or two sides of a corpus) as ``hotelcheckspan
f1``, ``pearson`` and ``gamma`` do and return what their ``--json`` prints. Options beyond the
reference and hypothesis are keyword arguments of
:func:`hotelcheckspan.metrics.span_f1.count_arrays` (``match``, ``metric``, ``convention``,
``by_type``, ``per_category``), which scores the arrays each file is encoded into once. The
public API (:mod:`hotelcheckspan.api`) re-exports them; the agreement table
(:mod:`hotelcheckspan.analyses.agreement`) calls them for every pair of a table.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .annotator_sets import AnnotatorSet, group_labels, parse_group
from .corpora import KEY, Annotations, CategoryMismatch, Corpus, CorpusError, read_annotations, slug_frame
from .corpora.keys import slug_key
from .metrics import error_counts as _error_counts
from .metrics import gamma as _gamma
from .metrics import span_f1 as _metric


def annotations_of(corpus: Corpus, campaign: str) -> Annotations:
    """One campaign of a loaded corpus as one side of a comparison: what :func:`read_annotations`
    returns for its file, read with the corpus (its ``path`` is the campaign's folder), so that
    :func:`span_f1`, :func:`span_gamma` and :func:`span_pearson` compare two campaigns of a corpus
    by name (``hotelcheckspan f1 CORPUS A B``). ``ValueError`` naming the campaigns when it has
    none of that name, or none with records (a config-only campaign)."""
    if campaign not in corpus.campaigns():
        if campaign in corpus.empty_campaigns():
            raise ValueError(f"campaign {campaign!r} is empty: {_empty_words(corpus, campaign)}")
        raise ValueError(
            f"no campaign {campaign!r} in {corpus.root} (campaigns: {', '.join(corpus.campaigns()) or 'none'})"
        )
    records = corpus.records[corpus.records["campaign"] == campaign].reset_index(drop=True)
    spans = corpus.spans[corpus.spans["campaign"] == campaign].reset_index(drop=True)
    folder = Path(corpus.root) / corpus.campaign_folders.get(campaign, campaign)
    return Annotations(
        folder,
        campaign,
        str(records["kind"].iloc[0]),
        records,
        spans,
        list(corpus.campaign_categories.get(campaign, corpus.categories)),
    )


def _empty_words(corpus: Corpus, campaign: str) -> str:
    folder = corpus.campaign_folders.get(campaign, "")
    return (
        f"its folder {folder}/ has a config and no annotation file (*.jsonl), so it has no record to score "
        "(factgenie lists it and computes nothing with it)"
    )


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
            have = ", ".join(group_labels(ann.records["annotator_group"].unique()))
            raise ValueError(f"{ann.path} has no annotator group {group} (its groups: {have or 'none'})")
    return ann, slug_frame(records), slug_frame(spans)


# --- one file encoded once ---------------------------------------------------------------------
# ``span_f1`` is called once per comparison, often many times on the same two files (every group
# against every other). What does not depend on the comparison (the file's slugified example
# keys, sorted, each row's position among them, spans as arrays in factgenie's order, type codes)
# is computed once per :class:`Annotations` and kept on it; a comparison maps both files' positions
# to the examples they share and is then numpy on those arrays. Nothing is kept between files.


@dataclass(frozen=True)
class _Encoded:
    records: pd.DataFrame  # the frames encoded (a replaced frame is encoded again)
    spans: pd.DataFrame
    categories: tuple[str, ...]
    keys: np.ndarray  # sorted distinct slugified example keys, one string each; codes index it
    rec_ex: np.ndarray  # example code of each record
    rec_group: np.ndarray
    side: _metric.Side  # spans in factgenie's order, ``ex`` the example code
    span_group: np.ndarray  # annotator group of each span, in the same order


def _slug_keys(*frames: pd.DataFrame) -> tuple[np.ndarray, list[np.ndarray]]:
    """The sorted distinct slugified example keys of ``frames`` (one string each, one slugify per
    distinct key) and, per frame, each row's position among them."""
    distinct = pd.concat([f[KEY] for f in frames], ignore_index=True).drop_duplicates()
    if distinct.empty:
        return np.zeros(0, str), [np.zeros(len(f), np.int64) for f in frames]
    # slugs are letters, digits and hyphens, so the separator cannot make two keys one string
    slugs = ["\x1f".join(map(str, slug_key(*k))) for k in distinct.itertuples(index=False)]
    keys, code = np.unique(np.array(slugs, str), return_inverse=True)
    per_distinct = pd.Series(code.ravel(), index=pd.MultiIndex.from_frame(distinct))
    return keys, [per_distinct.reindex(pd.MultiIndex.from_frame(f[KEY])).to_numpy(np.int64) for f in frames]


def _encoded(ann: Annotations) -> _Encoded:
    """The arrays of ``ann`` (computed on first use, then kept on the object)."""
    enc = ann.__dict__.get("_encoded")
    if (
        enc is not None
        and enc.records is ann.records
        and enc.spans is ann.spans
        and enc.categories == tuple(ann.categories)
    ):
        return enc
    keys, (rec_ex, span_ex) = _slug_keys(ann.records, ann.spans)
    side, order = _metric._side(ann.spans, span_ex, list(ann.categories))
    enc = _Encoded(
        ann.records,
        ann.spans,
        tuple(ann.categories),
        keys,
        rec_ex,
        ann.records["annotator_group"].to_numpy(),
        side,
        ann.spans["annotator_group"].to_numpy()[order],
    )
    ann.__dict__["_encoded"] = enc
    return enc


def _chosen(ann: Annotations, group: int | str | None) -> tuple[np.ndarray, np.ndarray, _metric.Side]:
    """The file's example keys, the sorted keys of the records of ``group`` (all groups: None)
    and its spans; ``ValueError`` naming the group and the file's groups when it has none."""
    enc = _encoded(ann)
    if group is None:
        return enc.keys, enc.keys[np.unique(enc.rec_ex)], enc.side
    g = parse_group(group) if isinstance(group, str) else int(group)
    chosen = enc.rec_group == g
    if not chosen.any():
        have = ", ".join(group_labels(set(enc.rec_group.tolist())))
        raise ValueError(f"{ann.path} has no annotator group {group} (its groups: {have or 'none'})")
    return enc.keys, enc.keys[np.unique(enc.rec_ex[chosen])], enc.side.take(enc.span_group == g)


def _local(side: _metric.Side, keys: np.ndarray, examples: np.ndarray) -> _metric.Side:
    """``side`` with example codes (positions in ``keys``) replaced by positions in ``examples``
    (sorted keys; -1: not there, as for a span whose code is already -1)."""
    pos = np.searchsorted(examples, keys)
    found = pos < examples.size
    found[found] = examples[pos[found]] == keys[found]
    lookup = np.append(np.where(found, pos, -1), -1)
    return _metric.Side(lookup[side.ex], side.start, side.end, side.type)


def _compared(ref: Annotations, ref_group, hyp: Annotations, hyp_group) -> dict:
    """What a comparison compared, for its result: each side's file, the group chosen (None: all
    pooled, as factgenie pools them) and every group the file has, as readers write them."""
    out = {}
    for name, ann, group in (("reference", ref, ref_group), ("hypothesis", hyp, hyp_group)):
        have = sorted(int(g) for g in ann.records["annotator_group"].dropna().unique())
        labels = group_labels(have)
        chosen = None
        if group is not None:
            g = parse_group(group) if isinstance(group, str) else int(group)
            chosen = labels[have.index(g)] if g in have else str(group)
        out[name] = {"file": str(ann.path), "campaign": ann.campaign, "group": chosen, "groups": labels}
    # the splits the two sides' records hold: a pair of files is compared over all of them, pooled
    out["splits"] = sorted({str(x) for ann in (ref, hyp) for x in ann.records["split"].unique()})
    return out


def _scored(sums: np.ndarray) -> dict:
    """``{precision, recall, f1, ref_count, hyp_count}`` from summed counts (``COUNT_COLUMNS`` order)."""
    p, r, f = (float(x) for x in _metric.prf(*sums[:4]))
    return {"precision": p, "recall": r, "f1": f, "ref_count": int(sums[5]), "hyp_count": int(sums[4])}


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
    f1, ref_count, hyp_count, examples, compared}`` (``compared``: each side's ``file``, the
    ``group`` chosen, None where all are pooled, and its ``groups``) plus ``by_type`` (category ->
    the same without ``examples`` and ``compared``) when ``by_type``. Raises
    :class:`CorpusError` when a side has errors, :class:`CategoryMismatch` when the campaigns'
    categories differ and ``ValueError`` when no example is annotated by both.

    The first call on an :class:`Annotations` object encodes it and keeps the encoding on it, so
    calling once per comparison on the same objects costs little (``benchmarks/span_f1.py``);
    replacing its ``records`` or ``spans`` frame encodes it again.
    """
    ref_ann = ref if isinstance(ref, Annotations) else read_annotations(ref)
    hyp_ann = hyp if isinstance(hyp, Annotations) else read_annotations(hyp)
    for ann in (ref_ann, hyp_ann):
        if ann.errors:
            raise CorpusError(ann.errors, str(ann.path))
    if ref_ann.categories_from_types or hyp_ann.categories_from_types:
        return _span_f1_by_type_number(
            ref_ann,
            hyp_ann,
            ref_group,
            hyp_group,
            match=match,
            metric=metric,
            convention=convention,
            by_type=by_type,
            **options,
        )
    if ref_ann.categories != hyp_ann.categories:
        raise CategoryMismatch(str(ref_ann.path), ref_ann.categories, str(hyp_ann.path), hyp_ann.categories)
    per_category = options.pop("per_category", "factgenie")
    if options:
        raise TypeError(f"span_f1() got unexpected keyword arguments: {', '.join(options)}")
    ref_keys, ref_ex, ref_side = _chosen(ref_ann, ref_group)
    hyp_keys, hyp_ex, hyp_side = _chosen(hyp_ann, hyp_group)
    examples = np.intersect1d(ref_ex, hyp_ex)
    if examples.size == 0:
        raise ValueError("no example has a record on both sides (check the files and the groups)")
    r, h = _local(ref_side, ref_keys, examples), _local(hyp_side, hyp_keys, examples)
    n_ex, cats = examples.size, list(ref_ann.categories)
    n_cat = max(1, len(cats))
    overall = _metric.count_arrays(r, h, n_ex, n_cat, match, metric, convention, False, per_category)
    result = _scored(overall.sum(axis=2)[:, 0]) | {"examples": int(n_ex)}
    if by_type:
        per_cat = _metric.count_arrays(r, h, n_ex, n_cat, match, metric, convention, True, per_category).sum(axis=2)
        result["by_type"] = {c: _scored(per_cat[:, i]) for i, c in enumerate(cats)}
    return result | {"compared": _compared(ref_ann, ref_group, hyp_ann, hyp_group)}


def _span_f1_by_type_number(ref_ann, hyp_ann, ref_group, hyp_group, *, by_type, **options) -> dict:
    """:func:`span_f1` when a side has no config: types compared by number, as factgenie compares
    them, named from the other side's config where it has one."""
    ref_ann, ref_rec, ref_spans = _side(ref_ann, ref_group)
    hyp_ann, hyp_rec, hyp_spans = _side(hyp_ann, hyp_group)
    named = next((a.categories for a in (ref_ann, hyp_ann) if not a.categories_from_types), [])
    n = max(len(ref_ann.categories), len(hyp_ann.categories), len(named))
    categories = list(named) + [f"type {i}" for i in range(len(named), n)]
    ref_spans, hyp_spans = (s.assign(type=[categories[i] for i in s["type_idx"]]) for s in (ref_spans, hyp_spans))
    examples = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
    if examples.empty:
        raise ValueError("no example has a record on both sides (check the files and the groups)")
    table = _metric.span_f1(ref_spans, hyp_spans, examples, by_type=by_type, categories=categories, **options)
    scored = lambda r: {  # noqa: E731
        "precision": float(r.precision),
        "recall": float(r.recall),
        "f1": float(r.f1),
        "ref_count": int(r.ref_count),
        "hyp_count": int(r.hyp_count),
    }
    rows = list(table.itertuples())
    result = scored(rows[0]) | {"examples": int(len(examples))}
    if by_type:
        result["by_type"] = {r.category: scored(r) for r in rows[1:]}
    return result | {"compared": _compared(ref_ann, ref_group, hyp_ann, hyp_group)}


def _by_type_number(ref_ann: Annotations, hyp_ann: Annotations, *spans: pd.DataFrame) -> tuple[list[str], list]:
    """The categories two sides are compared by, and ``spans`` with their ``type`` named by them.

    Both sides with a config: their categories, which must be equal (:class:`CategoryMismatch`).
    A side without one (``categories_from_types``): types compared by number, as factgenie
    compares them, named from the other side's config where it has one (as :func:`span_f1`)."""
    if not (ref_ann.categories_from_types or hyp_ann.categories_from_types):
        if ref_ann.categories != hyp_ann.categories:
            raise CategoryMismatch(str(ref_ann.path), ref_ann.categories, str(hyp_ann.path), hyp_ann.categories)
        return list(ref_ann.categories), list(spans)
    named = next((a.categories for a in (ref_ann, hyp_ann) if not a.categories_from_types), [])
    n = max(len(ref_ann.categories), len(hyp_ann.categories), len(named))
    categories = list(named) + [f"type {i}" for i in range(len(named), n)]
    return categories, [s.assign(type=[categories[i] for i in s["type_idx"]]) for s in spans]


def span_pearson(
    ref: Annotations | str | Path,
    hyp: Annotations | str | Path,
    *,
    ref_group: int | str | None = None,
    hyp_group: int | str | None = None,
    tests: str = "factgenie",
    seed: int = 0,
    n_resamples: int = _error_counts.PERMUTATIONS,
) -> dict:
    """Pearson's r of per-example error counts, as ``factgenie iaa pearson`` computes it.

    Sides, groups and examples as in :func:`span_f1`. Returns ``{micro_pearson, micro_p_value,
    macro_pearson, macro_p_value, examples, by_type}`` where ``by_type`` maps each category
    some span of either file has (factgenie's categories) to ``{pearson, p_value, ref_count,
    hyp_count}``; r is NaN where a side's counts are constant (see
    :mod:`hotelcheckspan.metrics.error_counts`); ``compared`` as :func:`span_f1`. factgenie's
    micro r is over every (example, category) cell and its macro p-value the mean of the
    per-category p-values; ``tests="examples"`` adds ``examples_tests``, a statistician's tests
    (:func:`~hotelcheckspan.metrics.error_counts.example_tests`: r of per-example totals with
    its t-test, and a permutation test of macro r permuting examples, seeded by ``seed``).
    Raises as :func:`span_f1` does.
    """
    if tests not in ("factgenie", "examples"):
        raise ValueError(f"tests must be factgenie or examples, not {tests!r}")
    ref_ann, ref_rec, ref_spans = _side(ref, ref_group)
    hyp_ann, hyp_rec, hyp_spans = _side(hyp, hyp_group)
    categories, (ref_spans, hyp_spans, ref_all, hyp_all) = _by_type_number(
        ref_ann, hyp_ann, ref_spans, hyp_spans, ref_ann.spans, hyp_ann.spans
    )
    examples = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
    if examples.empty:
        raise ValueError("no example has a record on both sides (check the files and the groups)")
    cats = _error_counts.present(categories, ref_all, hyp_all)
    counts = _error_counts.per_example(ref_spans, hyp_spans, examples.drop_duplicates(KEY), cats)
    result = _error_counts.correlations(counts)
    result["by_type"] = result.pop("categories")
    if tests == "examples":
        result["examples_tests"] = _error_counts.example_tests(counts, n_resamples=n_resamples, seed=seed)
    return result | {"compared": _compared(ref_ann, ref_group, hyp_ann, hyp_group)}


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
    ``gamma_mean`` and ``s_empty_mean`` (factgenie's: the same means, 0.0 when none),
    ``gamma_examples`` and ``s_empty_examples`` (how many examples each mean is over),
    ``examples``, ``soft`` and ``compared`` (as :func:`span_f1`). ``gamma_mean`` is unrounded, like
    ``gamma`` (factgenie prints it rounded to 3 decimals). Raises as :func:`span_f1` does, and
    :class:`~hotelcheckspan.metrics.gamma.TooManyAnnotators` (a ``ValueError``) when an example
    has more than two annotators (a pooled set whose groups both marked it: choose groups).
    """
    ref_ann, ref_rec, ref_spans = _side(ref, ref_group)
    hyp_ann, hyp_rec, hyp_spans = _side(hyp, hyp_group)
    _by_type_number(ref_ann, hyp_ann)  # γ labels spans by type number; this checks the categories agree
    examples = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
    if examples.empty:
        raise ValueError("no example has a record on both sides (check the files and the groups)")
    # factgenie names an annotator "<campaign folder>-anngroup-<group>"; two files whose folders
    # share a name (or one file against itself) would merge into one annotator, so each side is
    # told apart by the file it came from where the names collide (elsewhere factgenie's names,
    # whose order the alignment follows, are kept)
    names = [
        [_gamma.annotator_id(c, g) for c, g in zip(sp["campaign"], sp["annotator_group"])]
        for sp in (ref_spans, hyp_spans)
    ]
    ref_ids = {_gamma.annotator_id(ref_ann.campaign, g) for g in ref_rec["annotator_group"].unique()}
    hyp_ids = {_gamma.annotator_id(hyp_ann.campaign, g) for g in hyp_rec["annotator_group"].unique()}
    if ref_ids & hyp_ids:
        names = [[f"{n} [{i} {side}]" for n in ns] for i, (side, ns) in enumerate(zip(("ref", "hyp"), names), 1)]
    spans = pd.concat([ref_spans, hyp_spans], ignore_index=True)
    spans = spans.assign(annotator=names[0] + names[1], label=spans["type_idx"].astype(str))
    table = _gamma.per_example(spans, examples, soft=soft, alpha=alpha, beta=beta, delta_empty=delta_empty)
    fg = _gamma.summary(table)
    return {
        "gamma": fg["gamma"],
        "s_empty": fg["s_empty"],
        "gamma_mean": fg["gamma"] if fg["gamma"] is not None else 0.0,  # unrounded, at gamma's precision
        "s_empty_mean": fg["s_empty"] if fg["s_empty"] is not None else 0.0,
        "gamma_examples": len(fg["gamma_scores"]),
        "s_empty_examples": len(fg["s_empty_scores"]),
        "examples": int(len(examples)),
        "soft": bool(soft),
        "compared": _compared(ref_ann, ref_group, hyp_ann, hyp_group),
    }
