"""Span agreement beyond F1 for every Table 6 comparison: the SemEval-2013 boundary schemes
(:mod:`..metrics.boundaries`, as nervaluate counts them) and factgenie's correlation of
per-example error counts (:mod:`..metrics.error_counts`), beside the book's span F1.

As Table 6 does for F1, each measure is computed per pair of sides on the examples
both annotated and averaged over the comparison's pairs; a bootstrap replicate resamples the
examples once for all pairs of a comparison (seeded). Pearson's r of a replicate comes from
weighted sums of the per-example counts, so no replicate recomputes anything per example.

Every pair is scored at once: the corpus's spans are encoded once (a
:class:`~hotelcheckspan.metrics.span_f1.SpanTable` over the pairs' examples, each annotator set's
spans selected once), each (pair, example) is one group of
:func:`~hotelcheckspan.metrics.boundaries.count_groups`, and the correlations of all pairs are a
few calls of :func:`~hotelcheckspan.metrics.error_counts.pearson_rows` (one per series length).
Every per-example count and every bootstrap weight is an integer, so a comparison's replicate sums
are one exact matrix product for all its pairs.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..corpora import KEY
from ..metrics import boundaries, error_counts, resampling, span_f1
from . import span_level

SCHEME_LABELS = {"strict": "strict", "exact": "exact", "partial": "partial", "ent_type": "type"}
MEASURES = ["F1 (book)", *(f"{label} F1" for label in SCHEME_LABELS.values()), "Pearson r (micro)"]


def _pearson_from_sums(s: np.ndarray) -> np.ndarray:
    """r from summed (n, x, y, xx, yy, xy) along the last axis; NaN where a side is constant."""
    n, x, y, xx, yy, xy = np.moveaxis(s, -1, 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        cov = xy - x * y / n
        vx, vy = xx - x * x / n, yy - y * y / n
        return np.where((vx > 1e-12) & (vy > 1e-12), cov / np.sqrt(vx * vy), np.nan)


COUNT_SLICES = {"f1": slice(0, 4), **{s: slice(4 + 5 * i, 9 + 5 * i) for i, s in enumerate(boundaries.SCHEMES)}}
COUNT_SLICES["sums"] = slice(24, 30)  # a pair's per-example columns in table's one product


def pairs(corpus, comparisons: list[dict] | None = None) -> tuple[pd.DataFrame, list[dict]]:
    """Per pair of sides: the book's span F1, hard, each scheme's P/R/F1 and counts, and
    factgenie's micro and macro Pearson r of error counts.

    Returns ``(frame, per_example)``: ``frame`` has columns ``comparison, ref, hyp, examples,
    measure, value``; ``per_example`` holds, per pair, the per-example arrays the bootstrap
    resamples: ``examples`` (the pair's examples sorted by key), ``codes`` (their rows in
    ``all_examples``, every pair's examples sorted by key), ``f1`` (F1 counts), ``schemes``
    (scheme counts) and ``sums`` (correlation sums, examples x categories x 6).
    """
    comparisons = comparisons if comparisons is not None else span_level.load_comparisons()
    f1_pairs, f1_counts = span_level.pairwise(corpus, comparisons, matches=("hard",))
    plan = [(name, r, h, ex) for name, r, h, _, _, ex in span_level.iter_pairs(corpus, comparisons)]
    assert f1_pairs[["ref", "hyp"]].values.tolist() == [[r.spec, h.spec] for _, r, h, _ in plan]
    if not plan:
        return pd.DataFrame(columns=["comparison", "ref", "hyp", "examples", "measure", "value"]), []
    # every pair's examples sorted by key, as factgenie's pivot sorts them; codes are rows of ``keys``
    every = pd.concat([ex for *_, ex in plan], ignore_index=True)[KEY]
    keys = every.drop_duplicates().sort_values(KEY, kind="stable").reset_index(drop=True)
    table = span_f1.SpanTable(corpus.spans, keys, corpus.categories)
    n_cat = len(table.categories)
    sizes = np.array([len(ex) for *_, ex in plan])
    codes_all = table.codes(every)
    codes = [np.unique(c) for c in np.split(codes_all, np.cumsum(sizes)[:-1])]
    n_ex = np.array([c.size for c in codes])
    offsets = np.cumsum(n_ex) - n_ex
    pair_of = np.repeat(np.arange(len(plan)), n_ex)  # one group per (pair, example)

    who = corpus.spans["campaign"].to_numpy(), corpus.spans["annotator_group"].to_numpy()
    sides: dict = {}

    def side(aset) -> span_f1.Side:
        if aset not in sides:
            keep = who[0] == aset.campaign
            sides[aset] = table.side(keep & (who[1] == aset.group) if aset.group is not None else keep)
        return sides[aset]

    types = corpus.spans.groupby("campaign", sort=False)["type"].agg(set).to_dict()
    row_of = np.full(len(keys), -1, np.int64)
    spans: dict = {"ref": [], "hyp": []}
    present = []
    for p, (_, ref_set, hyp_set, _) in enumerate(plan):
        row_of[codes[p]] = offsets[p] + np.arange(n_ex[p])
        for label, aset in (("ref", ref_set), ("hyp", hyp_set)):
            sd = side(aset)
            rows = row_of[sd.ex]
            keep = rows >= 0
            spans[label].append((rows[keep], sd.start[keep], sd.end[keep] - 1, sd.type[keep]))
        row_of[codes[p]] = -1
        # factgenie's categories: those present in either whole campaign's spans
        seen = types.get(ref_set.campaign, set()) | types.get(hyp_set.campaign, set())
        present.append(np.array([i for i, c in enumerate(table.categories) if c in seen], np.int64))
    ref, hyp = ([np.concatenate(a) for a in zip(*spans[label])] for label in ("ref", "hyp"))
    n_groups = int(n_ex.sum())
    scheme_counts = boundaries.count_groups(n_groups, ref, hyp)
    ref_count, hyp_count = (
        np.bincount(s[0] * n_cat + s[3], minlength=n_groups * n_cat).reshape(n_groups, n_cat) for s in (ref, hyp)
    )
    micro, macro = _correlations(ref_count, hyp_count, pair_of, present, n_ex)

    # the book's F1 counts of each (pair, example), from Table 6's per-example counts
    f1_by_group = np.zeros((n_groups, 4))
    if len(f1_counts):
        group_key = pair_of * len(keys) + np.concatenate(codes)  # ascending: pairs in order, codes sorted
        found = f1_counts["row"].to_numpy() * len(keys) + table.codes(f1_counts[KEY])
        at = np.minimum(np.searchsorted(group_key, found), n_groups - 1)
        hit = group_key[at] == found
        f1_by_group[at[hit]] = f1_counts[span_level.COUNT_COLUMNS[:4]].to_numpy(float)[hit]

    measures = ["F1 (book)", "Pearson r (micro)", "Pearson r (macro)"]
    columns = [f1_pairs["f1"].to_numpy(float), micro, macro]
    for s, label in SCHEME_LABELS.items():
        summed = np.zeros((len(plan), len(boundaries.COUNTS)))
        np.add.at(summed, pair_of, scheme_counts[s].astype(float))
        measures += [f"{label} {m}" for m in ("precision", "recall", "F1", *boundaries.COUNTS)]
        columns += [*boundaries.prf(summed, s), *summed.T]
    values = np.stack(columns, axis=1)  # (pairs, measures)
    frame = pd.DataFrame(
        {
            "comparison": np.repeat([name for name, *_ in plan], len(measures)),
            "ref": np.repeat([r.spec for _, r, _, _ in plan], len(measures)),
            "hyp": np.repeat([h.spec for _, _, h, _ in plan], len(measures)),
            "examples": np.repeat(n_ex, len(measures)),
            "measure": np.tile(measures, len(plan)),
            "value": values.ravel(),
        }
    )
    arrays = []
    for p, (name, *_) in enumerate(plan):
        mine = slice(offsets[p], offsets[p] + n_ex[p])
        x, y = ref_count[mine][:, present[p]].astype(float), hyp_count[mine][:, present[p]].astype(float)
        arrays.append(
            {
                "comparison": name,
                "examples": keys.iloc[codes[p]].reset_index(drop=True),
                "codes": codes[p],
                "all_examples": keys,
                "f1": f1_by_group[mine],
                "schemes": {s: scheme_counts[s][mine].astype(float) for s in boundaries.SCHEMES},
                "sums": np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1),
            }
        )
    return frame, arrays


def _correlations(x: np.ndarray, y: np.ndarray, pair_of: np.ndarray, present: list, n_ex: np.ndarray):
    """factgenie's micro and macro Pearson r of every pair (:func:`error_counts.correlations`):
    ``x`` and ``y`` are the (groups, categories) counts, ``present`` each pair's categories."""
    n_pairs = len(present)
    for p in range(n_pairs):  # factgenie's errors, the first pair's first
        if not present[p].size or not n_ex[p]:
            raise ValueError("neither side marked any span: there are no categories to correlate")
        if n_ex[p] < 2:
            raise ValueError("the correlation of error counts needs at least two examples")
    micro, macro = np.full(n_pairs, np.nan), np.full(n_pairs, np.nan)
    n_present = np.array([c.size for c in present])
    offsets = np.cumsum(n_ex) - n_ex
    # series of one length are one call: micro r over (example, category) cells, example-major
    for (length, width), group in _by_size(n_ex, n_present).items():
        rows = offsets[group, None] + np.arange(length)
        cats = np.stack([present[p] for p in group])
        cx, cy = (a[rows[:, :, None], cats[:, None, :]] for a in (x, y))  # (pairs, examples, categories)
        micro[group] = error_counts.pearson_rows(cx.reshape(len(group), -1), cy.reshape(len(group), -1))[0]
        per_cat = error_counts.pearson_rows(
            cx.transpose(0, 2, 1).reshape(-1, length), cy.transpose(0, 2, 1).reshape(-1, length)
        )[0]
        macro[group] = np.mean(per_cat.reshape(len(group), width), axis=1)
    return micro, macro


def _by_size(*sizes: np.ndarray) -> dict[tuple, np.ndarray]:
    """The indices of each distinct tuple of sizes."""
    key = np.stack(sizes, axis=1)
    uniq, inverse = np.unique(key, axis=0, return_inverse=True)
    return {tuple(int(v) for v in u): np.flatnonzero(inverse.ravel() == i) for i, u in enumerate(uniq)}


def table(
    pair_frame: pd.DataFrame, per_example: list[dict], n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Per comparison, each measure of :data:`MEASURES` averaged over pairs, with its interval.

    Columns: ``comparison, pairs`` and per measure the estimate, ``<measure>_low`` and
    ``<measure>_high``. A pair whose correlation is undefined (a constant side) is left out of
    the correlation's mean, and so of its replicates.
    """
    out = []
    for comp in pd.unique(pair_frame["comparison"]):
        mine = [a for a in per_example if a["comparison"] == comp]
        codes = np.unique(np.concatenate([a["codes"] for a in mine]))
        keys = mine[0]["all_examples"].iloc[codes].reset_index(drop=True)
        weights = resampling.matrix(keys, n_boot, seed)  # the comparison's examples decide its replicates
        # every pair's per-example counts side by side (examples, pairs, 30): counts and weights are
        # integers, so one product gives every pair's replicate sums exactly
        block = np.zeros((codes.size, len(mine), COUNT_SLICES["sums"].stop))
        for k, a in enumerate(mine):
            at = np.searchsorted(codes, a["codes"])
            block[at, k, COUNT_SLICES["f1"]] = a["f1"]
            for s in boundaries.SCHEMES:
                block[at, k, COUNT_SLICES[s]] = a["schemes"][s]
            block[at, k, COUNT_SLICES["sums"]] = a["sums"].sum(axis=1)
        sums = (weights @ block.reshape(codes.size, -1)).reshape(n_boot, len(mine), -1)
        reps = {"F1 (book)": span_level.prf(*np.moveaxis(sums[..., COUNT_SLICES["f1"]], -1, 0))[2]}
        for s, label in SCHEME_LABELS.items():
            reps[f"{label} F1"] = boundaries.prf(sums[..., COUNT_SLICES[s]], s)[2]
        reps["Pearson r (micro)"] = _pearson_from_sums(sums[..., COUNT_SLICES["sums"]])
        est = pair_frame[pair_frame["comparison"] == comp].pivot_table(
            index=["ref", "hyp"], columns="measure", values="value", sort=False
        )
        row = {"comparison": comp, "pairs": len(mine)}
        for m in MEASURES:
            row[m] = float(est[m].mean()) if m in est else np.nan  # (a measure undefined for every pair)
            stacked = np.ascontiguousarray(reps[m].T)  # (pairs, n_boot)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # a replicate where every r is undefined
                low, high = resampling.interval(np.nanmean(stacked, axis=0), level)
            row[f"{m}_low"], row[f"{m}_high"] = low, high
        out.append(row)
    return pd.DataFrame(out)


def ranks(frame: pd.DataFrame) -> pd.DataFrame:
    """The rank of each comparison (1 = highest) under each measure of :data:`MEASURES`; values
    within :data:`span_level.TIE` of each other share a rank (:func:`span_level.tied_ranks`)."""
    out = frame[["comparison"]].copy()
    for m in MEASURES:
        out[m] = span_level.tied_ranks(frame[m])
    return out


def counts(pair_frame: pd.DataFrame) -> pd.DataFrame:
    """Per comparison and scheme, the counts summed over the comparison's pairs.

    Columns: ``comparison, scheme`` and ``correct, incorrect, partial, missed, spurious``.
    """
    rows = []
    for comp, grp in pair_frame.groupby("comparison", sort=False):
        values = grp.groupby("measure")["value"].sum()
        for label in SCHEME_LABELS.values():
            rows.append(
                {"comparison": comp, "scheme": label} | {k: int(values[f"{label} {k}"]) for k in boundaries.COUNTS}
            )
    return pd.DataFrame(rows)
