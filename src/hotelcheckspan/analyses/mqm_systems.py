"""What the compendium adds to a published MQM table: each system's interval, which systems the
segments tell apart, the raters behind the scores, and a reference-based metric validated
against the experts as WMT's metrics task validates one.

Frames (the corpus is an MQM file read by :mod:`hotelcheckspan.corpora.mqm`, within its frame):

``systems`` (:func:`system_intervals`)
    ``system, score, low, high, texts, reference, cluster, p_next``: the MQM score (lower is
    better) with a percentile bootstrap interval over the segments (one weights matrix of
    segments, shared by every system, so two systems' resamples are paired), and the significance
    cluster (1 = the best): walking down the ranking, a system starts a new cluster when some
    system of the current cluster is better in a one-sided paired bootstrap test at ``alpha``
    (mt-metrics-eval's ``AssignRanks`` on those p-values); ``p_next`` is that test's p against the
    next system down (the share of resamples in which this one is not better; NaN for the last).
``raters`` (:func:`rater_table`)
    ``rater, texts, systems, score``: how many segment-system pairs each rater rated, of how many
    systems, and their mean MQM score.
``reproduction`` (:func:`reproduction`)
    ``system, published, ours, difference, within_rounding, published_rank, rank``: a published
    system table (``data/wmt-mqm-ted-ende/published.yaml``) beside the scores recomputed here.
``reference_scores`` (:func:`reference_metric`)
    a scores file's frame: the key and ``chrf`` (sacrebleu's sentence chrF of a system's
    translation against the reference system's translation of the same segment), for every
    system but the reference.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd

from ..corpora import KEY, mqm
from ..metrics import meta_evaluation as me
from ..metrics import resampling

SEGMENT = ["dataset", "split", "example_idx"]  # a segment: the same source, every system's translation
ALPHA = 0.05
LEVEL = 0.95


def _segments_by_system(corpus, weights=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(segment keys, segments x systems MQM scores, NaN where a system was not rated)."""
    per_text = mqm.scores(corpus, weights, per="text")
    wide = per_text.pivot_table(index=SEGMENT, columns="setup_id", values="score", aggfunc="first", sort=True)
    return wide.index.to_frame(index=False), wide


def system_intervals(
    corpus, weights=None, *, n_boot: int = 1000, seed: int = 0, level: float = LEVEL, alpha: float = ALPHA
) -> pd.DataFrame:
    """Each system's MQM score with its interval and significance cluster (module docstring)."""
    keys, wide = _segments_by_system(corpus, weights)
    scores = wide.to_numpy(float)
    rated = ~np.isnan(scores)
    filled = np.where(rated, scores, 0.0)
    w = resampling.matrix(keys, n_boot, seed)  # the segments decide the resamples
    reps = (w @ filled) / (w @ rated)
    estimate = filled.sum(axis=0) / rated.sum(axis=0)
    bounds = [resampling.interval(reps[:, j], level) for j in range(scores.shape[1])]
    out = pd.DataFrame(
        {
            "system": list(wide.columns),
            "score": estimate,
            "low": [b[0] for b in bounds],
            "high": [b[1] for b in bounds],
            "texts": rated.sum(axis=0),
            "reference": [mqm.is_reference(s) for s in wide.columns],
        }
    )
    order = np.lexsort((out["system"].to_numpy(), out["score"].to_numpy()))
    out = out.iloc[order].reset_index(drop=True)
    ranked = [list(wide.columns).index(s) for s in out["system"]]
    p = np.ones((len(ranked), len(ranked)))
    for i in range(len(ranked)):
        for j in range(i + 1, len(ranked)):  # is the better one (i) lower than j in the resamples?
            a, b = reps[:, ranked[i]], reps[:, ranked[j]]
            p[i, j] = float(np.mean(a >= b))  # one-sided: the share of resamples where i is not better
    out["cluster"] = me.assign_clusters(p, alpha)
    out["p_next"] = [p[i, i + 1] for i in range(len(ranked) - 1)] + [np.nan]
    return out


def listed_segments(path=None) -> pd.DataFrame:
    """The repository's per-segment score file (``*.avg_seg_scores.tsv``): ``system, seg_id,
    rated`` for every segment it lists (a segment no rater rated has the score ``None``)."""
    from .. import paths

    raw = pd.read_csv(path or paths.MQM_FOLDER / "mqm_ted_ende.avg_seg_scores.tsv", sep=r"\s+")
    return pd.DataFrame({"system": raw["system"], "seg_id": raw["seg_id"], "rated": raw["mqm_avg_score"].notna()})


def published(path=None) -> dict:
    """A published system table as transcribed: ``scores`` (system -> score as printed, the
    file's system names), ``decimals``, ``source``."""
    import yaml

    from .. import paths

    raw = yaml.safe_load(Path(path or paths.MQM_FOLDER / "published.yaml").read_text(encoding="utf-8"))
    names = raw.get("names", {})
    return {
        "scores": {names.get(k, k): float(v) for k, v in raw["scores"].items()},
        "decimals": int(raw["decimals"]),
        "source": raw["source"],
    }


def reproduction(systems: pd.DataFrame, table: dict) -> pd.DataFrame:
    """The published table beside :func:`system_intervals`' scores (module docstring):
    ``within_rounding`` says whether ours rounds to the printed value (half a unit of its last
    digit); ranks by score, 1 = the best (lowest)."""
    ours = systems.set_index("system")["score"]
    printed = pd.Series(table["scores"])
    half = 0.5 * 10 ** -table["decimals"]
    out = pd.DataFrame({"system": list(printed.index), "published": printed.to_numpy()})
    out["ours"] = out["system"].map(ours)
    out["difference"] = out["ours"] - out["published"]
    out["within_rounding"] = out["difference"].abs() <= half + 1e-12
    out["published_rank"] = np.arange(1, len(out) + 1)
    out["rank"] = out["ours"].rank(method="min").astype(int)
    return out


def rater_table(corpus, weights=None) -> pd.DataFrame:
    """Each rater's workload and mean score (module docstring)."""
    rec = corpus.records[corpus.records["kind"] == "human"]
    attention = {n for n, c in corpus.configs.items() if (c or {}).get("role") == "attention"}
    rec = rec[~rec["campaign"].isin(attention)]
    sp = corpus.spans[corpus.spans["record_id"].isin(rec["record_id"])]
    w = mqm.weigh(sp, mqm.WMT_WEIGHTS if weights is None else weights).fillna(0.0)
    per = w.groupby(sp["record_id"].to_numpy()).sum()
    rec = rec.assign(score=rec["record_id"].map(per).fillna(0.0))
    out = rec.groupby("annotator_id", sort=True).agg(
        texts=("record_id", "size"), systems=("setup_id", "nunique"), score=("score", "mean")
    )
    return out.reset_index().rename(columns={"annotator_id": "rater"})


def reference_system(corpus) -> str:
    """The corpus' one reference translation among its systems; ``ValueError`` where there is
    none or several."""
    refs = sorted({s for s in corpus.examples["setup_id"] if mqm.is_reference(str(s))})
    if len(refs) != 1:
        raise ValueError(f"a reference-based metric needs one reference system, and the corpus has {refs or 'none'}")
    return refs[0]


def reference_metric(corpus) -> pd.DataFrame:
    """sacrebleu's sentence chrF of every system's translation against the reference's
    (:func:`hotelcheckspan.metrics.baselines.chrf`), as a scores frame (module docstring)."""
    from ..metrics.baselines import chrf

    ref = reference_system(corpus)
    ex = corpus.examples
    refs = ex[ex["setup_id"] == ref].set_index(SEGMENT)["text"]
    mine = ex[ex["setup_id"] != ref].reset_index(drop=True)
    against = refs.reindex(pd.MultiIndex.from_frame(mine[SEGMENT])).to_numpy()
    has = pd.notna(against)
    values = np.full(len(mine), np.nan)
    if has.any():
        values[has] = chrf(mine.loc[has, "text"].tolist(), [str(a) for a in against[has]])[:, 0]
    return mine[KEY].assign(chrf=values)


def without_reference(corpus):
    """The corpus without its reference system's texts and records (a reference-based metric
    cannot score the reference itself)."""
    ref = reference_system(corpus)
    keep = corpus.records["setup_id"] != ref
    records = corpus.records[keep.to_numpy()].reset_index(drop=True)
    spans = corpus.spans[corpus.spans["record_id"].isin(records["record_id"])].reset_index(drop=True)
    examples = corpus.examples[corpus.examples["setup_id"] != ref].reset_index(drop=True)
    return dataclasses.replace(corpus, records=records, spans=spans, examples=examples)
