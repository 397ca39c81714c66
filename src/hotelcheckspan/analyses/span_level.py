"""Span-level agreement (Table 6): span F1 between annotator sets, averaged over pairs.

A comparison (``data/comparisons.yaml``) pairs every reference annotator set with every
hypothesis set; each pair is scored with :mod:`hotelcheckspan.metrics.span_f1` on the examples
both sets annotated, and Table 6 averages the per-pair P, R and F1, with bootstrap intervals
that resample examples once for all pairs of a comparison.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from .. import paths
from ..annotator_sets import parse_all
from ..corpora import KEY
from ..metrics import resampling
from ..metrics.span_f1 import COUNT_COLUMNS, prf, per_example, scores


def load_comparisons(path=None) -> list[dict]:
    """The comparisons of ``data/comparisons.yaml`` (or ``path``), defaults applied."""
    spec = yaml.safe_load(Path(path or paths.COMPARISONS).read_text(encoding="utf-8"))
    defaults = spec.get("defaults", {})
    return [defaults | c for c in spec["comparisons"]]


def iter_pairs(corpus, comparisons: list[dict] | None = None):
    """Every (comparison, ref set, hyp set) pair: yields ``(name, ref_set, hyp_set, ref_spans,
    hyp_spans, examples)`` (the sets as :class:`AnnotatorSet`), the examples being those both sets annotated, restricted to the
    comparison's ``examples`` campaign when it names one."""
    comparisons = comparisons if comparisons is not None else load_comparisons()
    for comp in comparisons:
        restrict = None
        if comp.get("examples"):
            restrict = corpus.records.loc[corpus.records["campaign"] == comp["examples"], KEY].drop_duplicates()
        for ref_set in parse_all(comp["ref"]):
            ref_rec, ref_sp = ref_set.require(corpus)
            for hyp_set in parse_all(comp["hyp"]):
                hyp_rec, hyp_sp = hyp_set.require(corpus)
                ex = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
                if restrict is not None:
                    ex = ex.merge(restrict, on=KEY)
                yield comp["name"], ref_set, hyp_set, ref_sp, hyp_sp, ex


def pairwise(corpus, comparisons: list[dict] | None = None, matches=("hard", "soft"),
             convention: str = "factgenie") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per pair of annotator sets and match mode: P/R/F1, and the per-example counts behind them.

    Returns ``(pairs, counts)``: ``pairs`` has columns ``comparison, ref, hyp, match, precision,
    recall, f1, examples`` and the summed counts, one row per pair and mode; ``counts`` is the
    :func:`per_example` frame of every row, with ``row`` giving the row of ``pairs``.
    """
    rows, counts = [], []
    for name, ref_set, hyp_set, ref_sp, hyp_sp, ex in iter_pairs(corpus, comparisons):
        for match in matches:
            c = per_example(ref_sp, hyp_sp, ex, match=match, convention=convention,
                            categories=corpus.categories_of(ref_set.campaign, hyp_set.campaign))
            score = scores(c).iloc[0]
            rows.append({"comparison": name, "ref": ref_set.spec, "hyp": hyp_set.spec, "match": match,
                         **score.drop("category").to_dict()})
            counts.append(c.assign(row=len(rows) - 1))
    return pd.DataFrame(rows), (pd.concat(counts, ignore_index=True) if counts else pd.DataFrame())


def table6(pairs: pd.DataFrame, counts: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """Average per-pair P/R/F1 per comparison and match mode, with bootstrap intervals.

    A replicate resamples examples once for all pairs of a comparison and averages the pairs'
    replicate P/R/F1. Columns: ``comparison, match, pairs, precision, recall, f1`` and
    ``<metric>_low``, ``<metric>_high``.
    """
    rng = np.random.default_rng(seed)
    out = []
    for (comp, match), grp in pairs.groupby(["comparison", "match"], sort=False):
        c = counts[counts["row"].isin(grp.index)]
        keys = c[KEY].drop_duplicates().reset_index(drop=True)
        keys["_u"] = np.arange(len(keys))
        c = c.merge(keys, on=KEY)
        n = len(keys)
        weights = resampling.weights(n, n_boot, rng)
        per_pair = []
        for _, pc in c.groupby("row", sort=True):
            mat = np.zeros((n, 4))
            mat[pc["_u"].to_numpy()] = pc[COUNT_COLUMNS[:4]].to_numpy(float)
            per_pair.append(np.stack(prf(*(weights @ mat).T)))
        reps = np.mean(per_pair, axis=0)  # (3, n_boot)
        row = {"comparison": comp, "match": match, "pairs": len(grp)}
        for i, m in enumerate(("precision", "recall", "f1")):
            row[m] = float(grp[m].mean())
            row[f"{m}_low"], row[f"{m}_high"] = resampling.interval(reps[i], level)
        out.append(row)
    return pd.DataFrame(out)


def versus_table6(t6: pd.DataFrame, figures: dict) -> pd.DataFrame:
    """Table 6 beside the paper: per comparison, P/R/F1 hard (H) and soft (S), paper and ours."""
    paper = figures["table6_span_level"]
    rows = []
    for comp in dict.fromkeys(t6["comparison"]):
        row = {"comparison": comp}
        for match, tag in (("hard", "H"), ("soft", "S")):
            ours = t6[(t6["comparison"] == comp) & (t6["match"] == match)].iloc[0]
            for metric, short in (("precision", "P"), ("recall", "R"), ("f1", "F1")):
                row[f"paper {short}_{tag}"] = paper.get(comp, {}).get(f"{short}_{tag}")
                row[f"{short}_{tag}"] = round(float(ours[metric]), 2)
                row[f"{short}_{tag} 95% CI"] = f"{ours[metric + '_low']:.2f}-{ours[metric + '_high']:.2f}"
        rows.append(row)
    return pd.DataFrame(rows)


def per_category(corpus, comparisons: list[dict] | None = None) -> pd.DataFrame:
    """Per-category P/R/F1 averaged over each comparison's pairs: hard, soft as factgenie
    computes it, and soft with the consistent per-category definition.

    Columns: ``comparison, category, variant, precision, recall, f1``.
    """
    rows = []
    variants = (("hard", "hard", "factgenie"), ("soft (factgenie)", "soft", "factgenie"),
                ("soft (consistent)", "soft", "consistent"))
    for name, ref_set, hyp_set, ref_sp, hyp_sp, ex in iter_pairs(corpus, comparisons):
        cats = corpus.categories_of(ref_set.campaign, hyp_set.campaign)
        for variant, match, pc in variants:
            table = scores(per_example(ref_sp, hyp_sp, ex, match=match, by_type=True, per_category=pc,
                                       categories=cats))
            rows += [{"comparison": name, "category": r.category, "variant": variant,
                      "precision": r.precision, "recall": r.recall, "f1": r.f1} for r in table.itertuples()]
    out = pd.DataFrame(rows)
    return out.groupby(["comparison", "category", "variant"], sort=False)[["precision", "recall", "f1"]].mean().reset_index()


def convention_effect(corpus, comparisons: list[dict] | None = None) -> pd.DataFrame:
    """Table 6 F1 under factgenie's length convention against counting every example's lengths.

    Columns: ``comparison, match, f1 (factgenie), f1 (all examples), difference``.
    """
    a, _ = pairwise(corpus, comparisons, convention="factgenie")
    b, _ = pairwise(corpus, comparisons, convention="all")
    keys = ["comparison", "match"]
    fa = a.groupby(keys, sort=False)["f1"].mean().rename("f1 (factgenie)")
    fb = b.groupby(keys, sort=False)["f1"].mean().rename("f1 (all examples)")
    out = pd.concat([fa, fb], axis=1).reset_index()
    out["difference"] = out["f1 (all examples)"] - out["f1 (factgenie)"]
    return out
