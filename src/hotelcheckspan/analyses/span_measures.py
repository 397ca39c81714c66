"""Span agreement beyond F1 for every Table 6 comparison: the SemEval-2013 boundary schemes
(:mod:`..metrics.boundaries`, as nervaluate counts them) and factgenie's correlation of
per-example error counts (:mod:`..metrics.error_counts`), beside the book's span F1.

As Table 6 does for F1, each measure is computed per pair of annotator sets on the examples
both annotated and averaged over the comparison's pairs; a bootstrap replicate resamples the
examples once for all pairs of a comparison (seeded). Pearson's r of a replicate comes from
weighted sums of the per-example counts, so no replicate recomputes anything per example.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..corpora import KEY
from ..metrics import boundaries, error_counts, resampling
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


def pairs(corpus, comparisons: list[dict] | None = None) -> tuple[pd.DataFrame, list[dict]]:
    """Per pair of annotator sets: the book's hard span F1, each scheme's P/R/F1 and counts, and
    factgenie's micro and macro Pearson r of error counts.

    Returns ``(frame, per_example)``: ``frame`` has columns ``comparison, ref, hyp, examples,
    measure, value``; ``per_example`` holds, per pair, the per-example arrays the bootstrap
    resamples (the examples' keys, F1 counts, scheme counts, correlation sums).
    """
    comparisons = comparisons if comparisons is not None else span_level.load_comparisons()
    f1_pairs, f1_counts = span_level.pairwise(corpus, comparisons, matches=("hard",))
    rows, arrays = [], []
    for i, (name, ref_set, hyp_set, ref_sp, hyp_sp, ex) in enumerate(span_level.iter_pairs(corpus, comparisons)):
        f1_row = f1_pairs.iloc[i]
        assert (f1_row["ref"], f1_row["hyp"]) == (ref_set.spec, hyp_set.spec)
        ex = ex.drop_duplicates(KEY).sort_values(KEY, kind="stable").reset_index(drop=True)
        counts = boundaries.per_example(ref_sp, hyp_sp, ex, categories=corpus.categories)
        scheme_counts = {
            s: counts[counts["scheme"] == s][list(boundaries.COUNTS)].to_numpy(float) for s in boundaries.SCHEMES
        }
        present = error_counts.present(
            corpus.categories,
            *(corpus.spans[corpus.spans["campaign"] == c] for c in (ref_set.campaign, hyp_set.campaign)),
        )
        per_ex = error_counts.per_example(ref_sp, hyp_sp, ex, present)  # ``ex`` is sorted as it sorts
        x, y = (per_ex[c].to_numpy(float).reshape(len(ex), len(present)) for c in ("ref_count", "hyp_count"))
        sums = np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1)  # (examples, categories, 6)
        corr = error_counts.correlations(per_ex)
        f1c = f1_counts[f1_counts["row"] == i]
        f1_by_ex = (
            f1c.set_index(KEY)[span_level.COUNT_COLUMNS[:4]].reindex(pd.MultiIndex.from_frame(ex)).fillna(0).to_numpy()
        )
        values = {"F1 (book)": float(f1_row["f1"]), "Pearson r (micro)": corr["micro_pearson"]}
        values["Pearson r (macro)"] = corr["macro_pearson"]
        for s, label in SCHEME_LABELS.items():
            p, r, f = (float(v) for v in boundaries.prf(scheme_counts[s].sum(axis=0), s))
            values |= {f"{label} precision": p, f"{label} recall": r, f"{label} F1": f}
            for k, v in zip(boundaries.COUNTS, scheme_counts[s].sum(axis=0)):
                values[f"{label} {k}"] = int(v)
        for measure, value in values.items():
            rows.append(
                {
                    "comparison": name,
                    "ref": ref_set.spec,
                    "hyp": hyp_set.spec,
                    "examples": len(ex),
                    "measure": measure,
                    "value": value,
                }
            )
        arrays.append(
            {
                "comparison": name,
                "examples": ex,
                "f1": f1_by_ex,
                "schemes": scheme_counts,
                "sums": sums,
            }
        )
    return pd.DataFrame(rows), arrays


def table(
    pair_frame: pd.DataFrame, per_example: list[dict], n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Per comparison, each measure of :data:`MEASURES` averaged over pairs, with its interval.

    Columns: ``comparison, pairs`` and per measure the estimate, ``<measure>_low`` and
    ``<measure>_high``. A pair whose correlation is undefined (a constant side) is left out of
    the correlation's mean, and so of its replicates.
    """
    out = []
    for comp in dict.fromkeys(pair_frame["comparison"]):
        mine = [a for a in per_example if a["comparison"] == comp]
        keys = pd.concat([a["examples"] for a in mine]).drop_duplicates().sort_values(KEY).reset_index(drop=True)
        at = pd.MultiIndex.from_frame(keys)
        weights = resampling.matrix(keys, n_boot, seed)  # the comparison's examples decide its replicates
        reps = {m: [] for m in MEASURES}
        for a in mine:
            w = weights[:, at.get_indexer(pd.MultiIndex.from_frame(a["examples"]))]  # (n_boot, examples of the pair)
            reps["F1 (book)"].append(span_level.prf(*(w @ a["f1"]).T)[2])
            for s, label in SCHEME_LABELS.items():
                reps[f"{label} F1"].append(boundaries.prf(w @ a["schemes"][s], s)[2])
            micro = np.einsum("be,ecs->bs", w, a["sums"])
            reps["Pearson r (micro)"].append(_pearson_from_sums(micro))
        est = pair_frame[pair_frame["comparison"] == comp].pivot_table(
            index=["ref", "hyp"], columns="measure", values="value", sort=False
        )
        row = {"comparison": comp, "pairs": len(mine)}
        for m in MEASURES:
            row[m] = float(est[m].mean())
            stacked = np.stack(reps[m])  # (pairs, n_boot)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # a replicate where every r is undefined
                low, high = resampling.interval(np.nanmean(stacked, axis=0), level)
            row[f"{m}_low"], row[f"{m}_high"] = low, high
        out.append(row)
    return pd.DataFrame(out)


def ranks(frame: pd.DataFrame) -> pd.DataFrame:
    """The rank of each comparison (1 = highest) under each measure of :data:`MEASURES`."""
    out = frame[["comparison"]].copy()
    for m in MEASURES:
        out[m] = frame[m].rank(ascending=False, method="min").astype("Int64")
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
