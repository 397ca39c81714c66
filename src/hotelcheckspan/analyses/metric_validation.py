"""Validating an automatic faithfulness metric against the human span annotations (the paper's
second use of the dataset), with the statistics of the metrics shared tasks.

A metric is a column of scores per example (a scores file, :mod:`hotelcheckspan.corpora.scores`;
a judge of the corpus read as a metric, :func:`metric_targets.campaign_scores`; a built-in
baseline, :mod:`hotelcheckspan.metrics.baselines`), higher = more faithful. It is compared with
the human targets of :mod:`metric_targets` (``errors``, ``error_free``, ``impression``, per type
``errors:<category>``; ``majority`` for detection) by :mod:`hotelcheckspan.metrics.meta_evaluation`:

- example level: Kendall tau-b and tau-c, acc23 with its tie threshold, Spearman, Pearson;
- detection of the clear human majority's "has an error": ROC AUC, average precision, balanced
  accuracy at a cross-validated threshold;
- system level (where the corpus has several generating systems, ``setup_id`` as factgenie
  joins them): system correlations, pairwise and soft pairwise accuracy, partial correlation
  with the system regressed out, item-averaged correlations;

every interval a percentile bootstrap over examples from **one** weights matrix shared by every
metric and statistic (so two metrics' intervals are paired), beside the **human ceiling** (one
human record per example, held out, scored as a metric against the others, on the examples with
two or more: :func:`metric_targets.ceiling_split`) and the **random baseline** (each metric's
own scores permuted). Significance clusters (PERM-BOTH, mt-metrics-eval's ``AssignRanks``)
group the metrics that the data cannot tell apart.

Frames (:class:`Validation`):

``statistics``
    ``metric, kind`` ("metric", "judge", "baseline", "human ceiling"), ``target, statistic,
    value, low, high, n, epsilon`` (acc23's tie threshold) and ``random`` (the random baseline:
    the metric's own scores permuted).
``system``
    the system-level rows (``metric, kind, target, statistic, value, low, high, n, group``);
    computed per split (a language pair of an MT export: mt-metrics-eval's system level is per
    language pair) with at least three systems, ``group`` the split, and where a block pools
    several splits also their mean (``group`` "mean of N", no interval); empty when no split has
    three systems.
``clusters``
    ``target, statistic, metric, value, cluster`` (1 = the best cluster).
``ceiling_texts``
    the metrics scored like for like with the ceiling: on its examples, against its target (the
    records left after the held-out one), with its resamples; each target's primary statistic
    (:func:`primary_statistic`). ``metric, kind, target, statistic, value, low, high, n``.
"""

from __future__ import annotations

import hashlib
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from .. import paths
from ..annotator_sets import judges
from ..corpora import KEY, Corpus, slug_frame
from ..metrics import meta_evaluation as me
from ..metrics import resampling
from . import metric_targets

LEVEL = 0.95
ALPHA = 0.05  # the significance level of the clusters' permutation tests
CEILING = metric_targets.CEILING
JSON_STATISTICS = [*me.EXAMPLE_STATISTICS, *me.DETECTION_STATISTICS]
MIN_SYSTEMS = 3  # system-level statistics need at least this many generating systems
RANDOM_EXACT = me.RANDOM_EXACT  # statistic -> what a metric scoring at random reaches, by definition


def primary_statistic(target: str) -> str:
    """The statistic a target's metrics are ranked by: ROC AUC for detection (``majority``),
    Kendall tau-b for the others."""
    return "roc_auc" if target == "majority" else "kendall_tau_b"


@dataclass
class Validation:
    """What :func:`evaluate` returns (see the module docstring for the frames)."""

    statistics: pd.DataFrame
    system: pd.DataFrame
    clusters: pd.DataFrame
    compared: dict = field(default_factory=dict)
    data: pd.DataFrame | None = None  # the examples: key, targets, one column per metric
    kinds: dict = field(default_factory=dict)  # metric -> "metric" | "judge" | "baseline"
    ceiling_texts: pd.DataFrame = field(default_factory=pd.DataFrame)
    weights: np.ndarray | None = field(default=None, repr=False)  # the resamples every statistic shares

    def to_json(self) -> dict:
        """``{"compared": ..., "metrics": [...]}``: one object per metric and target with
        ``metric, kind, target, n`` and, for each statistic of :data:`JSON_STATISTICS`,
        ``{"value", "low", "high"}`` (``acc23`` also ``epsilon``); undefined values None."""

        def plain(v):
            return None if v is None or pd.isna(v) else float(v)

        out = []
        for (metric, target), rows in self.statistics.groupby(["metric", "target"], sort=False):
            by = rows.set_index("statistic")
            obj = {"metric": metric, "kind": rows["kind"].iloc[0], "target": target, "n": int(rows["n"].max())}
            for s in JSON_STATISTICS:
                if s in by.index:
                    r = by.loc[s]
                    obj[s] = {"value": plain(r["value"]), "low": plain(r["low"]), "high": plain(r["high"])}
                    obj[s]["random"] = plain(r["random"])
                    if s == "acc23":
                        obj[s]["epsilon"] = plain(r["epsilon"])
                else:  # a statistic of the other kind of target (detection vs correlation)
                    obj[s] = {"value": None, "low": None, "high": None, "random": None}
                    if s == "acc23":
                        obj[s]["epsilon"] = None
            out.append(obj)
        return {"compared": self.compared, "metrics": out}


def metric_frame(
    corpus: Corpus, scores=None, *, with_judges: bool = True, baseline_names=None, progress: bool | None = None
) -> tuple:
    """Every metric to validate, one row per example of ``corpus.examples``: the key and one
    column per metric (higher = more faithful). ``scores`` is a frame from
    :func:`~hotelcheckspan.corpora.scores.read_scores` (its ``frame``) or None; the corpus'
    judges are added as metrics (minus their span count per text) unless ``with_judges`` is
    False; ``baseline_names`` adds built-in baselines (``True``: all of them; a list of names;
    or a frame of baselines computed before, e.g. :func:`bundled_baselines`; ``progress``: the
    MiniLM and BERTScore progress bars on stderr, as :func:`~hotelcheckspan.metrics.baselines.baselines`
    takes it). Returns ``(frame, kinds)`` with ``kinds`` metric -> "metric" | "judge" | "baseline"."""
    out = corpus.examples[KEY].reset_index(drop=True)
    kinds: dict[str, str] = {}
    if scores is not None:
        frame = scores.frame if hasattr(scores, "frame") else scores
        names = [c for c in frame.columns if c not in KEY]
        out = out.merge(frame[[*KEY, *names]], on=KEY, how="left")
        kinds |= dict.fromkeys(names, "metric")
    if with_judges:
        for judge in judges(corpus):
            col = metric_targets.campaign_scores(corpus, judge)[[*KEY, judge]]
            if judge in kinds:  # a scores column named like a judge keeps its name; the judge is told apart
                col = col.rename(columns={judge: f"{judge} (judge)"})
            out = out.merge(col, on=KEY, how="left")
            kinds[col.columns[-1]] = "judge"
    if isinstance(baseline_names, pd.DataFrame):  # baselines computed before (bundled_baselines)
        frame = baseline_names
        out = out.merge(frame, on=KEY, how="left")
        kinds |= {c: "baseline" for c in frame.columns if c not in KEY}
    elif baseline_names:
        from ..metrics import baselines  # the embedding baselines pull in torch: only when asked

        names = None if baseline_names is True else list(baseline_names)
        frame = baselines.baselines(corpus, names, progress=progress)
        out = out.merge(frame, on=KEY, how="left")
        kinds |= {c: "baseline" for c in frame.columns if c not in KEY}
    return out, kinds


def systems(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The generating system (``setup_id`` slugified, as factgenie joins ids) and the item (the
    input: dataset and example_idx) of each row."""
    slug = slug_frame(frame[KEY])
    system = slug["setup_id"].to_numpy()
    item = (slug["dataset"] + "\x1f" + slug["split"] + "\x1f" + frame["example_idx"].astype(str)).to_numpy()
    return system, item


def _long(frame: pd.DataFrame, kinds: dict, target: str, random: pd.DataFrame | None) -> pd.DataFrame:
    out = frame.assign(kind=frame["metric"].map(kinds), target=target)
    if random is not None:
        out = out.merge(random[["metric", "statistic", "value"]].rename(columns={"value": "random"}), how="left")
    else:
        out["random"] = np.nan
    return out


def evaluate(
    corpus: Corpus,
    scores=None,
    *,
    targets: list[str] | None = None,
    with_judges: bool = True,
    baseline_names=None,
    n_boot: int = 1000,
    seed: int = 0,
    level: float = LEVEL,
    n_permutations: int = 1000,
    n_random: int = 200,
    cluster_on: tuple[str, str] | None = ("errors", "kendall_tau_b"),
    system_level: bool = True,
    progress: bool = False,
    target_weights: dict | None = None,
    statistics: list[str] | None = None,
) -> Validation:
    """Validate every metric of :func:`metric_frame` against the human targets.

    ``targets`` default to ``errors``, ``error_free``, ``impression`` (where the corpus has
    impressions), ``mqm`` (where its spans carry MQM severities) and ``majority``;
    ``errors:<category>`` and ``weighted`` (with ``target_weights``, name -> weight as
    :func:`hotelcheckspan.corpora.mqm.parse_weights` reads them) are accepted too.
    ``statistics``: the example-level statistics to compute (default all of
    :data:`~hotelcheckspan.metrics.meta_evaluation.EXAMPLE_STATISTICS`; acc23's tie calibration is
    the costly one on thousands of texts). One weights
    matrix (``n_boot`` resamples of the examples with a human target, seeded) serves every
    metric and statistic; the ceiling has its own (its examples are those with two or more human
    records). ``cluster_on`` = (target, statistic) for the significance clusters (None: none).
    ``progress`` shows a progress bar of the steps on stderr, and the slow baselines' bars
    (:func:`metric_frame`).
    """
    from tqdm import tqdm

    bar = tqdm(total=2 * len(targets or metric_targets.TARGETS) + 4, desc="metric", disable=not progress, leave=False)
    humans = metric_targets.human_targets(corpus, target_weights)
    if humans.empty:
        raise ValueError("the corpus has no human record on an example with a text: nothing to validate against")
    available = metric_targets.target_columns(humans)
    if not metric_targets.has_impressions(humans):  # a corpus without impressions has no impression target
        available = [t for t in available if t != "impression"]
    if targets is None:
        targets = [t for t in [*metric_targets.TARGETS[:-1], "mqm", metric_targets.TARGETS[-1]] if t in available]
    unknown = [t for t in targets if t not in available]
    if unknown:
        raise ValueError(f"no target {', '.join(map(repr, unknown))} on this corpus (targets: {', '.join(available)})")
    metrics, kinds = metric_frame(
        corpus, scores, with_judges=with_judges, baseline_names=baseline_names, progress=progress
    )
    if not kinds:
        raise ValueError("no metric to validate: give a scores file, or keep the corpus' judges")
    data = humans.merge(metrics, on=KEY, how="left")
    names = list(kinds)
    X = data[names]
    sys_codes, items = systems(data)
    n_systems = len(set(sys_codes))  # over the block; the system level counts them per split

    def target_input(target: str) -> tuple[pd.Series, tuple]:
        """The target's values and the statistics computed on them."""
        if target == "majority":
            return data[target].astype("Float64").astype(float), me.DETECTION_STATISTICS
        return data[target].astype(float), tuple(statistics or me.EXAMPLE_STATISTICS)

    def example_level(target: str) -> pd.DataFrame:
        y, chosen = target_input(target)
        if target == "majority":
            stats = me.detection(X, y, weights, level=level, seed=seed)
        else:
            stats = me.example_level(X, y, weights, statistics=chosen, level=level)
        bar.update()
        return stats

    def random_rows(metrics: list[str]) -> dict[str, pd.DataFrame]:
        # every target's random baseline of these metrics, each metric's permutations drawn once
        inputs = {target: target_input(target) for target in targets}
        found = me.random_baselines(X, inputs, metrics=metrics, n_random=n_random, seed=seed)
        bar.update()
        return found

    def ceiling_level():
        found = _ceiling(corpus, targets, n_boot, seed, level, data[[*KEY, *names]], kinds, target_weights)
        bar.update()
        return found

    def system_rows() -> pd.DataFrame:
        empty = pd.DataFrame(columns=["metric", "kind", "target", "statistic", "value", "low", "high", "n", "group"])
        # one system level per split (a language pair of an MT export), as mt-metrics-eval computes
        # it; where a block pools several, each is computed and their mean said as such
        split = slug_frame(data[KEY])["split"].to_numpy()
        groups = [g for g in dict.fromkeys(split) if len(set(sys_codes[split == g])) >= MIN_SYSTEMS]
        if not (system_level and groups):
            return empty
        system_targets = [t for t in targets if t != "majority"]
        by_target: dict[str, list] = {t: [] for t in system_targets}
        for g in groups:  # a group's resamples of its items drawn once, for every target
            rows = split == g
            part_items = items[rows]
            items_rng = np.random.default_rng(resampling.seed_sequence(np.unique(part_items.astype(str)), seed))
            cluster_w = me.cluster_weights(part_items, n_boot, items_rng)
            part_scores = X[rows].reset_index(drop=True)
            shared: dict = {}  # what the targets share: a metric's side, the weights' (system_level)
            for target in system_targets:
                s = me.system_level(
                    part_scores,
                    data.loc[rows, target].astype(float).reset_index(drop=True),
                    sys_codes[rows],
                    cluster_w,
                    item=part_items,
                    n_permutations=n_permutations,
                    seed=seed,
                    shared=shared,
                )
                by_target[target].append(s.assign(kind=s["metric"].map(kinds), target=target, group=str(g)))
        found = []
        for target, per_group in by_target.items():
            found += per_group
            if len(per_group) > 1:  # the mean over the groups (no interval: each group has its own resamples)
                both = pd.concat(per_group, ignore_index=True)
                mean = both.groupby(["metric", "statistic"], sort=False).agg(value=("value", "mean"), n=("n", "sum"))
                mean = mean.reset_index().assign(
                    low=np.nan,
                    high=np.nan,
                    kind=lambda d: d["metric"].map(kinds),
                    target=target,
                    group=f"mean of {len(per_group)}",
                )
                found.append(mean)
            bar.update()
        return pd.concat(found, ignore_index=True)

    def cluster_rows() -> pd.DataFrame:
        if cluster_on is None or cluster_on[0] not in targets or len(names) < 2:
            return pd.DataFrame(columns=["target", "statistic", "metric", "value", "cluster"])
        target, statistic = cluster_on
        y = data[target].astype("Float64").astype(float)
        tests = me.significance(X, y, statistic, n_permutations=n_permutations, seed=seed)
        found = me.clusters(tests, alpha=ALPHA).assign(target=target)
        return found[["target", "statistic", "metric", "value", "cluster"]]

    # The parts share no state and each draws from its own seeded generator, so two threads (numpy
    # releases the GIL in its array work) give what one gives; every BLAS call keeps one thread for
    # the whole run (the parts' own limits nest inside this one). The longest parts go first (the
    # system level, one per split, then the random baselines), so that neither thread is left
    # with a long one at the end; those two need no bootstrap weights, which are drawn meanwhile.
    with threadpool_limits(1, user_api="blas"), ThreadPoolExecutor(max_workers=2) as pool:
        system_part = pool.submit(system_rows)
        randoms = [pool.submit(random_rows, names[half::2]) for half in range(min(2, len(names)))]
        weights = resampling.matrix(data[KEY], n_boot, seed)  # the examples decide the replicates
        cluster_part = pool.submit(cluster_rows)
        rows = [pool.submit(example_level, target) for target in targets]
        parts = [cluster_part, pool.submit(ceiling_level), system_part]
        rows = [row.result() for row in rows]
        randoms = [r.result() for r in randoms]
        clusters, (ceiling, ceiling_texts), system = (part.result() for part in parts)
    bar.close()
    random = {t: pd.concat([r[t] for r in randoms], ignore_index=True) for t in targets}
    rows = [_long(stats, kinds, target, random[target]) for stats, target in zip(rows, targets)]
    statistics = pd.concat([*rows, ceiling], ignore_index=True)

    coverage = metric_targets.coverage(corpus)
    compared = {
        "examples": int(len(data)),
        "human_records": coverage["records"],
        "human_records_without_text": coverage["records_without_text"],
        "ceiling_examples": coverage["ceiling_examples"],
        "targets": list(targets),
        "metrics": {k: kinds[k] for k in names},
        "systems": int(n_systems),
        "resamples": int(n_boot),
        "level": level,
        "alpha": ALPHA,
        "clear_majority": f"at least {metric_targets.CLEAR_SHARE:.0%} of an example's human records agree",
        "orientation": "higher = more faithful, for every metric and target but majority (True = an error)",
    }
    return Validation(statistics, system, clusters, compared, data, kinds, ceiling_texts, weights)


CEILING_TEXTS_COLUMNS = ["metric", "kind", "target", "statistic", "value", "low", "high", "n"]


def _ceiling(
    corpus: Corpus,
    targets: list[str],
    n_boot: int,
    seed: int,
    level: float,
    metrics: pd.DataFrame,
    kinds: dict,
    target_weights: dict | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The human ceiling on each target: one held-out human record per example against the
    others (same statistics; its own resamples of the examples it is defined on); and the
    metrics (``metrics``: key and one column per metric) scored like for like, on those examples
    against that target with those resamples, by each target's primary statistic only (the
    comparison the ceiling is read by; a subset of the texts, so cheap)."""
    scores, held_targets = metric_targets.ceiling_split(corpus, seed=seed, weights=target_weights)
    if scores.empty:
        return pd.DataFrame(columns=[*me.COLUMNS, "kind", "target", "random"]), pd.DataFrame(
            columns=CEILING_TEXTS_COLUMNS
        )
    weights = resampling.matrix(scores[KEY], n_boot, seed)
    names = [c for c in metrics.columns if c not in KEY]
    X = scores[KEY].merge(metrics, on=KEY, how="left")[names]
    out, alike = [], []
    for target in targets:
        if target not in held_targets.columns:
            continue
        if target == "majority":
            x = scores[[f"{CEILING} (any error)"]].rename(columns={f"{CEILING} (any error)": CEILING})
            y = held_targets[target].astype("Float64").astype(float)
            stats = me.detection(x, y, weights, level=level, seed=seed)
            same = me.detection(X, y, weights, statistics=[primary_statistic(target)], level=level, seed=seed)
        else:
            column = f"{CEILING} ({target})" if target in ("impression", "mqm", "weighted") else CEILING
            if column not in scores.columns:
                continue
            x = scores[[column]].rename(columns={column: CEILING})
            y = held_targets[target].astype(float)
            stats = me.example_level(x, y, weights, level=level)
            same = me.example_level(X, y, weights, statistics=[primary_statistic(target)], level=level)
        out.append(stats.assign(kind="human ceiling", target=target, random=np.nan))
        alike.append(same.assign(kind=same["metric"].map(kinds), target=target)[CEILING_TEXTS_COLUMNS])
    ceiling = pd.concat(out, ignore_index=True) if out else pd.DataFrame()
    return ceiling, (pd.concat(alike, ignore_index=True) if alike else pd.DataFrame(columns=CEILING_TEXTS_COLUMNS))


def difference(validation: Validation, first: str, second: str, target: str, statistic: str) -> pd.Series:
    """``statistic(first) - statistic(second)`` on ``target`` with its paired interval, from the
    resamples every statistic of ``validation`` was computed with (:func:`meta_evaluation.difference`,
    no new matrix). Returns one row: ``first, second, statistic, value, low, high, n``."""
    data = validation.data
    y = data[target].astype("Float64").astype(float)
    level = validation.compared.get("level", LEVEL)
    return me.difference(
        data[[first, second]], y, first, second, validation.weights, statistics=[statistic], level=level
    ).iloc[0]


def leaderboard(validation: Validation, target: str = "errors", statistic: str = "kendall_tau_b") -> pd.DataFrame:
    """One statistic on one target, metrics ranked (the ceiling last), with the random baseline
    and the significance cluster where one was computed. Columns: ``metric, kind, value, low,
    high, random, n, cluster``."""
    rows = validation.statistics
    rows = rows[(rows["target"] == target) & (rows["statistic"] == statistic)]
    ceiling = rows[rows["kind"] == "human ceiling"]
    ranked = rows[rows["kind"] != "human ceiling"].sort_values(["value", "metric"], ascending=[False, True])
    out = pd.concat([ranked, ceiling], ignore_index=True)
    cl = validation.clusters
    cl = cl[(cl["target"] == target) & (cl["statistic"] == statistic)][["metric", "cluster"]]
    out = out.merge(cl, on="metric", how="left") if len(cl) else out.assign(cluster=pd.NA)
    out["cluster"] = out["cluster"].astype("Int64")
    return out[["metric", "kind", "value", "low", "high", "random", "n", "cluster"]]


def by_group(
    validation: Validation,
    column: str = "dataset",
    *,
    target: str = "errors",
    statistic: str = "kendall_tau_b",
    n_boot: int = 1000,
    seed: int = 0,
    level: float = LEVEL,
) -> pd.DataFrame:
    """One statistic on one target within each value of a key column (``dataset``: the domain;
    ``setup_id``: the generating system, slugified), each group with its own resamples.
    Columns: ``group, metric, kind, value, low, high, n``."""
    data = validation.data
    groups = slug_frame(data[KEY])[column] if column in ("dataset", "split", "setup_id") else data[column]
    names = list(validation.kinds)
    out = []
    for g in dict.fromkeys(groups):
        part = data[(groups == g).to_numpy()].reset_index(drop=True)
        w = resampling.matrix(part[KEY], n_boot, seed)
        y = part[target].astype("Float64").astype(float)
        if statistic in me.DETECTION_STATISTICS:
            stats = me.detection(part[names], y, w, statistics=[statistic], level=level, seed=seed)
        else:
            stats = me.example_level(part[names], y, w, statistics=[statistic], level=level)
        out.append(stats.assign(group=g, kind=stats["metric"].map(validation.kinds)))
    frame = pd.concat(out, ignore_index=True)
    return frame[["group", "metric", "kind", "value", "low", "high", "n"]]


# the baselines cheap enough to compute while a chapter runs (seconds); the embedding ones take minutes
CHEAP_BASELINES = ["rouge1_precision", "rougeL_precision", "chrf", "length"]


def texts_digest(corpus: Corpus) -> str:
    """SHA-256 of the corpus' examples (keys, texts and sources): what a bundled baselines file
    was computed on."""
    h = hashlib.sha256()
    for row in corpus.examples[[*KEY, "text", "source"]].astype(str).itertuples(index=False):
        h.update("\x1f".join(row).encode("utf-8") + b"\x1e")
    return h.hexdigest()


def bundled_baselines(corpus: Corpus):
    """The built-in baselines of ``corpus``: read from ``data/baselines/<corpus folder>.csv`` when
    that file was computed on exactly these texts (its ``.sha256`` says so), else the cheap ones
    (:data:`CHEAP_BASELINES`) computed now. Returns ``(scores frame, source)``, ``source`` saying
    which ("bundled <file>" or "computed now: ...")."""
    from ..corpora.scores import read_scores

    name = Path(corpus.root).resolve().name
    file, digest = paths.BASELINES / f"{name}.csv", paths.BASELINES / f"{name}.sha256"
    if file.is_file() and digest.is_file() and digest.read_text().split()[0] == texts_digest(corpus):
        return read_scores(file, corpus).frame, f"bundled {file.relative_to(paths.REPO_ROOT)}"
    from ..metrics import baselines

    return baselines.baselines(corpus, CHEAP_BASELINES), f"computed now: {', '.join(CHEAP_BASELINES)}"


def write_bundled(root) -> Path:
    """Compute every built-in baseline of the corpus at ``root`` into ``data/baselines/`` with the
    digest of its texts (``make baselines``)."""
    from ..corpora import load
    from ..corpora.scores import write_scores
    from ..metrics import baselines

    corpus = load(root)
    name = Path(corpus.root).resolve().name
    paths.BASELINES.mkdir(parents=True, exist_ok=True)
    out = write_scores(baselines.baselines(corpus), paths.BASELINES / f"{name}.csv")
    (paths.BASELINES / f"{name}.sha256").write_text(f"{texts_digest(corpus)}  {name} (keys, texts, sources)\n")
    return out


if __name__ == "__main__":
    for root in sys.argv[1:]:
        print(f"wrote {write_bundled(root)}")
