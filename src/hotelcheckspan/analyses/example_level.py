"""Example-level agreement (Table 5, Section 6.2): who said an example has an error of a type.

A *rater* is an :class:`~hotelcheckspan.annotator_sets.AnnotatorSet` (a campaign, or one group
of it), given as a set or as its spec (``"stage1/A"``, ``"gpt-4o"``). A rater votes "error of
type t" on an example when any of its records there has a span of type t; "Any" is a vote for
an error of any type.

Frames:

``votes``
    one row per example: the key, then per type and ``Any`` the number of raters voting error,
    and ``raters`` (how many raters have a record on the example).
``marks``
    one row per (example, rater): the key, ``rater``, then a boolean per type and ``Any``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from krippendorff import alpha as _kalpha
from statsmodels.stats.inter_rater import fleiss_kappa
from statsmodels.stats.proportion import proportion_confint

from ..annotator_sets import HUMAN_SETS, parse_all
from ..categories import ANY, CATEGORIES
from ..corpora import KEY, Corpus
from ..corpora.frame import CLEAR_SHARE
from ..metrics import coefficients, resampling

LABELS = [*CATEGORIES, ANY]


def _labels(frame: pd.DataFrame) -> list[str]:
    """The label columns of a marks, votes or majority frame (its categories, then Any)."""
    return [c for c in frame.columns if c not in (*KEY, "rater", "raters")]


def marks(
    corpus: Corpus, raters, examples: pd.DataFrame | None = None, categories: list[str] | None = None
) -> pd.DataFrame:
    """Per example and rater: did the rater mark an error of each type (and of any type)?

    ``raters`` are annotator sets (or their specs); the ``rater`` column holds their names.
    ``categories`` default to the corpus' (``corpus.categories``)."""
    cats = list(categories) if categories is not None else corpus.categories
    named = [c for c in cats if c in (*KEY, "rater", "raters", ANY)]  # columns of the marks and votes frames
    if named or len(set(cats)) < len(cats):
        raise ValueError(f"categories must be distinct and not named as a column of the frame: {cats}")
    frames = []
    for rater in parse_all(raters):
        rec, spans = rater.select(corpus)
        m = rec[KEY].drop_duplicates().reset_index(drop=True)
        texts = pd.MultiIndex.from_frame(m)
        hits = spans.loc[spans["type"].isin(cats), [*KEY, "type"]].drop_duplicates()
        for c in cats:  # a span of the type on the text (spans on texts without a record count nowhere)
            m[c] = texts.isin(pd.MultiIndex.from_frame(hits.loc[hits["type"] == c, KEY]))
        m[ANY] = m[cats].any(axis=1)
        m.insert(len(KEY), "rater", rater.name)
        frames.append(m)
    out = pd.concat(frames, ignore_index=True)
    if examples is not None:
        out = out.merge(examples[KEY].drop_duplicates(), on=KEY)
    return out


def votes(marks_frame: pd.DataFrame) -> pd.DataFrame:
    """Number of raters voting error per example and type (Table 5's unit)."""
    grouped = marks_frame.groupby(KEY, sort=True)
    out = grouped[_labels(marks_frame)].sum().astype(int)
    out["raters"] = grouped.size()
    return out.reset_index()


def vote_table(votes_frame: pd.DataFrame) -> pd.DataFrame:
    """Table 5: how many examples got 0, 1, ... n error votes, per type and Any (count and %)."""
    n = int(votes_frame["raters"].max())
    counts = pd.DataFrame(
        {t: votes_frame[t].value_counts().reindex(range(n + 1), fill_value=0) for t in _labels(votes_frame)}
    )
    counts.index.name = "votes"
    shares = 100 * counts / len(votes_frame)
    return counts.join(shares.add_suffix(" %")).reset_index()


def vote_distance(vote_table_frame: pd.DataFrame, reported: dict[str, list[int]]) -> pd.DataFrame:
    """Per type and Any, the total variation distance between this corpus' vote distribution
    (Table 5) and a reported one (counts per number of votes, as in ``paper_figures.yaml``):
    half the sum of absolute differences of the shares, 0 = identical, 1 = disjoint.

    Columns: ``error type, examples, paper examples, distance``."""
    counts = vote_table_frame.set_index("votes")
    rows = []
    for t in LABELS:
        ours = counts[t].to_numpy(float)
        theirs = np.asarray(reported[t], float)
        size = max(len(ours), len(theirs))
        ours, theirs = np.pad(ours, (0, size - len(ours))), np.pad(theirs, (0, size - len(theirs)))
        rows.append(
            {
                "error type": t,
                "examples": int(ours.sum()),
                "paper examples": int(theirs.sum()),
                "distance": float(np.abs(ours / ours.sum() - theirs / theirs.sum()).sum() / 2),
            }
        )
    return pd.DataFrame(rows)


def majority(votes_frame: pd.DataFrame, min_agree: int | float | None = None) -> pd.DataFrame:
    """The human majority per example and type where it is clear (default: the one rule of every
    clear majority, at least :data:`~hotelcheckspan.corpora.frame.CLEAR_SHARE` of the example's
    raters, rounded up: 3-1 or 4-0 of four, 2-0 of two, 3-0 of three, one rater alone decides; an
    integer: at least that many raters; a float share: at least that share of the example's
    raters, rounded up); ``<NA>`` where it is not. Booleans: True = error."""
    n = votes_frame["raters"]
    if min_agree is None:
        min_agree = CLEAR_SHARE
    if isinstance(min_agree, float):
        need = np.ceil(min_agree * n - 1e-9).astype(int)
    else:
        need = min_agree
    out = votes_frame[KEY].copy()
    for t in _labels(votes_frame):
        v = votes_frame[t]
        out[t] = pd.Series(pd.NA, index=v.index, dtype="boolean").mask(v >= need, True).mask(n - v >= need, False)
    return out


ALIGNMENT_ROWS = [*CATEGORIES, "per type (pooled)", ANY]


def _paired(majority_frame: pd.DataFrame, model_marks: pd.DataFrame) -> pd.DataFrame:
    return majority_frame.merge(model_marks[KEY + _labels(majority_frame)], on=KEY, suffixes=("_h", "_m"))


def _rows(majority_frame: pd.DataFrame) -> list[str]:
    """The alignment rows: each category, the categories pooled, then Any."""
    return [*[t for t in _labels(majority_frame) if t != ANY], "per type (pooled)", ANY]


def _cells(merged: pd.DataFrame, rows: list[str]) -> np.ndarray:
    """(examples, rows, 4) counts of tp, fn, fp, tn per example for each alignment row."""
    out = np.zeros((len(merged), len(rows), 4))
    for t in [r for r in rows if r != "per type (pooled)"]:
        known = merged[f"{t}_h"].notna().to_numpy()
        truth = merged[f"{t}_h"].fillna(False).to_numpy(bool)
        pred = merged[f"{t}_m"].to_numpy(bool)
        cells = np.stack([truth & pred, truth & ~pred, ~truth & pred, ~truth & ~pred], axis=1) * known[:, None]
        out[:, rows.index(t)] = cells
        if t != ANY:
            out[:, rows.index("per type (pooled)")] += cells
    return out


def _from_counts(c: np.ndarray) -> dict[str, np.ndarray]:
    """agreement, bacc, kappa and recall_error from tp, fn, fp, tn counts (last axis)."""
    tp, fn, fp, tn = np.moveaxis(c, -1, 0)
    n, pos, neg = tp + fn + fp + tn, tp + fn, fp + tn
    with np.errstate(invalid="ignore", divide="ignore"):
        rec_pos, rec_neg = tp / pos, tn / neg
        bacc = np.where((pos > 0) & (neg > 0), (rec_pos + rec_neg) / 2, np.where(pos > 0, rec_pos, rec_neg))
        po = (tp + tn) / n
        pe = (pos * (tp + fp) + neg * (fn + tn)) / n**2
        kappa = np.where(pe < 1, (po - pe) / (1 - pe), np.nan)
    return {"agreement": po, "bacc": bacc, "kappa": kappa, "recall_error": rec_pos}


def alignment(majority_frame: pd.DataFrame, model_marks: pd.DataFrame) -> pd.DataFrame:
    """One model against the clear human majority, per type, pooled over types and for Any.

    Columns: ``label, examples, majority_errors, model_errors, agreement`` (raw accuracy, as the
    paper reports), ``bacc`` (balanced accuracy, mean recall over error and no-error, as
    scikit-learn's ``balanced_accuracy_score``; one class only: its recall), ``kappa`` (Cohen's,
    as scikit-learn's ``cohen_kappa_score``; NaN where truth and model use one class only),
    ``recall_error`` (share of majority errors the model marks). All from the summed per-example
    confusion counts (:func:`_cells`), as the bootstrap replicates are.
    """
    rows = _rows(majority_frame)
    return _alignment_frame(rows, _cells(_paired(majority_frame, model_marks), rows))


def _alignment_frame(rows: list[str], cells: np.ndarray) -> pd.DataFrame:
    """:func:`alignment`'s frame from per-example cells (examples, rows, 4)."""
    tp, fn, fp, tn = cells.sum(axis=0).T
    n, pos, neg, marked = tp + fn + fp + tn, tp + fn, fp + tn, tp + fp
    with np.errstate(invalid="ignore", divide="ignore"):
        both = (tp / pos + tn / neg) / 2
        bacc = np.where(n == 0, np.nan, np.where((pos > 0) & (neg > 0), both, np.where(pos > 0, tp / pos, tn / neg)))
        # scikit-learn's arithmetic: 1 - disagreeing / expected disagreeing (its confusion matrix)
        expected = ((tn + fn) * (fn + tp)) / n + ((fp + tp) * (tn + fp)) / n
        uniform = (n == 0) | ((pos == 0) & (marked == 0)) | ((neg == 0) & (marked == n))  # one class in all
        kappa = np.where(uniform, np.nan, 1 - (fp + fn) / expected)
        recall = np.where(pos > 0, tp / pos, np.nan)
        agreement = np.where(n > 0, (tp + tn) / n, np.nan)
    return pd.DataFrame(
        {
            "label": rows,
            "examples": n.astype(int),
            "majority_errors": pos.astype(int),
            "model_errors": marked.astype(int),
            "agreement": agreement,
            "bacc": bacc,
            "kappa": kappa,
            "recall_error": recall,
        }
    )


def alignment_ci(
    majority_frame: pd.DataFrame, model_marks: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Bootstrap intervals (examples resampled, seeded) for agreement, bacc, kappa, recall_error.

    Each replicate only changes the confusion counts, so replicates are computed from counts.
    BACC is undefined in a replicate that lacks majority errors or error-free examples; ``undefined``
    is that share of replicates (bacc rows only), and where it exceeds one tail of the interval
    ((1 - level) / 2) the bounds are NaN: the interval does not exist.
    Columns: ``label, measure, estimate, low, high, undefined``.
    """
    paired = _paired(majority_frame, model_marks)
    cells = _cells(paired, _rows(majority_frame))
    weights = resampling.matrix(paired[KEY], n_boot, seed)  # the examples decide, not the model's name
    n, r, c = cells.shape
    counts = (weights @ cells.reshape(n, r * c)).reshape(len(weights), r, c)  # whole counts: exact in any order
    reps = _from_counts(counts)
    # a resample without a majority error (or without a clean example) has no balanced accuracy:
    # the mean of two recalls needs both classes; scoring it by the one recall left would put a
    # model that never marks at 1 (its specificity) in every such resample
    tp, fn, fp, tn = np.moveaxis(counts, -1, 0)
    undefined = ((tp + fn) == 0) | ((fp + tn) == 0)
    reps["bacc"] = np.where(undefined, np.nan, reps["bacc"])
    estimate = _alignment_frame(_rows(majority_frame), cells).set_index("label")
    out = _intervals(estimate, {m: reps[m] for m in reps}, level)
    share = dict(zip(estimate.index, undefined.mean(axis=0)))
    out["undefined"] = np.where(out["measure"] == "bacc", out["label"].map(share), np.nan)
    # percentiles of the defined resamples alone would condition on the class being drawn: where
    # more resamples than one tail's share lack it, there is no interval
    unstable = (out["measure"] == "bacc") & (out["undefined"] > (1 - level) / 2)
    out.loc[unstable, ["low", "high"]] = np.nan
    return out


def _intervals(estimate: pd.DataFrame, reps: dict[str, np.ndarray], level: float) -> pd.DataFrame:
    """Percentile intervals from replicate arrays (n_boot, rows) per measure."""
    rows = []
    for measure, values in reps.items():
        for i, lab in enumerate(estimate.index):
            low, high = resampling.interval(values[:, i], level)
            rows.append(
                {
                    "label": lab,
                    "measure": measure,
                    "estimate": float(estimate.loc[lab, measure]),
                    "low": low,
                    "high": high,
                }
            )
    return pd.DataFrame(rows)


def _wide(marks_frame: pd.DataFrame) -> pd.DataFrame:
    """One row per example, columns (label, rater); only examples every rater annotated."""
    wide = marks_frame.pivot_table(index=KEY, columns="rater", values=_labels(marks_frame), aggfunc="first", sort=False)
    return wide.dropna().astype(int)


RELIABILITY_COLUMNS = [
    "label",
    "examples",
    "raters",
    "fleiss_kappa",
    "krippendorff_alpha",
    "gwet_ac1",
    "positive_share",
]


def _raters(marks_frame: pd.DataFrame) -> int:
    return marks_frame["rater"].nunique()


def _reliability_of(wide: pd.DataFrame) -> pd.DataFrame:
    if wide.columns.get_level_values("rater").nunique() < 2:  # no pair of raters: nothing to agree on
        return pd.DataFrame(columns=RELIABILITY_COLUMNS)
    rows = []
    for t in dict.fromkeys(wide.columns.get_level_values(0)):
        data = wide[t].to_numpy()
        rows.append(
            {
                "label": t,
                "examples": len(data),
                "raters": data.shape[1],
                "fleiss_kappa": _fleiss(data),
                "krippendorff_alpha": _alpha(data),
                "gwet_ac1": _ac1(data),
                "positive_share": float(data.mean()) if len(data) else float("nan"),
            }
        )
    return pd.DataFrame(rows)


def reliability(marks_frame: pd.DataFrame) -> pd.DataFrame:
    """Chance-corrected agreement among raters per type and Any: Fleiss' kappa (statsmodels),
    Krippendorff's alpha (nominal, krippendorff) and Gwet's AC1 (:mod:`..metrics.coefficients`),
    on examples every rater annotated; empty (no row) with fewer than two raters.

    Columns: ``label, examples, raters, fleiss_kappa, krippendorff_alpha, gwet_ac1, positive_share``.
    """
    return _reliability_of(_wide(marks_frame))


def reliability_ci(marks_frame: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """Bootstrap intervals (examples resampled) for :func:`reliability`: every coefficient is a
    function of per-example sums (:func:`hotelcheckspan.metrics.coefficients.binary_terms`), so
    the replicates are one product with the examples' resampling weights. Empty (no row) with fewer
    than two raters, as :func:`reliability`.

    Columns: ``label, measure, estimate, low, high``."""
    wide = _wide(marks_frame)
    estimate = _reliability_of(wide).set_index("label")
    if estimate.empty:
        return pd.DataFrame(columns=["label", "measure", "estimate", "low", "high"])
    weights = resampling.matrix(wide.index.to_frame(index=False), n_boot, seed)
    reps = {m: np.empty((n_boot, len(estimate))) for m in RELIABILITY_MEASURES}
    for i, label in enumerate(estimate.index):
        data = wide[label].to_numpy()
        found = coefficients.binary_from_sums(weights @ coefficients.binary_terms(data), data.shape[1])
        for m in RELIABILITY_MEASURES:
            reps[m][:, i] = found[m]
    return _intervals(estimate, reps, level)


RELIABILITY_MEASURES = ["fleiss_kappa", "krippendorff_alpha", "gwet_ac1", "positive_share"]


def reliability_from_votes(
    histograms: dict[str, list[int]], n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """:func:`reliability_ci` from vote histograms alone (``{label: [examples with 0, 1, ..., m
    error votes]}``, as the paper's Table 5 prints them): with every rater on every example and
    two categories, each coefficient is a function of the histogram, so the examples it stands for
    (:func:`hotelcheckspan.reference.checks.ratings_from_votes`) carry all there is to resample.
    Each label is resampled on its own (a histogram says nothing of which examples are which).

    Columns: ``label, measure, estimate, low, high``."""
    from ..reference.checks import ratings_from_votes

    estimate, reps = {}, {m: np.empty((n_boot, len(histograms))) for m in RELIABILITY_MEASURES}
    for i, (label, histogram) in enumerate(histograms.items()):
        data = ratings_from_votes(histogram)
        terms = coefficients.binary_terms(data)
        found = coefficients.binary_from_sums(terms.sum(axis=0), data.shape[1])
        estimate[label] = {m: float(found[m][0]) for m in RELIABILITY_MEASURES}
        weights = resampling.matrix(np.arange(len(data)), n_boot, seed)
        replicates = coefficients.binary_from_sums(weights @ terms, data.shape[1])
        for m in RELIABILITY_MEASURES:
            reps[m][:, i] = replicates[m]
    return _intervals(pd.DataFrame.from_dict(estimate, orient="index"), reps, level)


def _fleiss(data: np.ndarray) -> float:
    """Fleiss' kappa of a units x raters 0/1 matrix."""
    if len(data) == 0:
        return float("nan")
    ones = data.sum(axis=1)
    table = np.c_[data.shape[1] - ones, ones]
    if table.sum(axis=0).min() == 0:
        return float("nan")
    return float(fleiss_kappa(table, method="fleiss"))


def _ac1(data: np.ndarray) -> float:
    """Gwet's AC1 of a units x raters 0/1 matrix (NaN without units)."""
    if len(data) == 0:
        return float("nan")
    return coefficients.gwet_ac1(coefficients.category_counts(data))


def prevalence(marks_frame: pd.DataFrame) -> pd.DataFrame:
    """Why kappa and AC1 differ, per type and Any: the share of error votes, the observed
    agreement and the chance agreement each coefficient subtracts, on examples every rater
    annotated (the "kappa paradox": when errors are rare kappa's chance agreement nears one);
    empty (no row) with fewer than two raters.

    Columns: ``label, examples, positive_share, pa, pe_kappa, pe_ac1, fleiss_kappa, gwet_ac1``.
    """
    columns = ["label", "examples", "positive_share", "pa", "pe_kappa", "pe_ac1", "fleiss_kappa", "gwet_ac1"]
    if _raters(marks_frame) < 2:
        return pd.DataFrame(columns=columns)
    wide = _wide(marks_frame)
    rows = []
    for t in dict.fromkeys(wide.columns.get_level_values(0)):
        data = wide[t].to_numpy()
        parts = coefficients.parts(coefficients.category_counts(data)) if len(data) else {}
        rows.append(
            {
                "label": t,
                "examples": len(data),
                "positive_share": float(data.mean()) if len(data) else float("nan"),
                **{k: parts.get(k, float("nan")) for k in ("pa", "pe_kappa", "pe_ac1", "fleiss_kappa", "gwet_ac1")},
            }
        )
    return pd.DataFrame(rows)


def _alpha(data: np.ndarray) -> float:
    """Krippendorff's alpha (nominal) of a units x raters 0/1 matrix."""
    if len(data) == 0 or len(np.unique(data)) < 2:
        return float("nan")
    return float(_kalpha(reliability_data=data.T.astype(float), level_of_measurement="nominal"))


def models_vs_majority(
    corpus: Corpus,
    models: list[str],
    raters=HUMAN_SETS,
    examples: pd.DataFrame | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    min_agree: int | float | None = None,
) -> pd.DataFrame:
    """Every model against the clear human majority, with bootstrap intervals: the marks of the
    raters and the models read once (:func:`marks`), then :func:`majority_alignment`.

    Columns: ``model, label, examples, majority_errors, model_errors`` and, for ``agreement``,
    ``bacc``, ``kappa`` and ``recall_error``, the estimate with ``<measure>_low/_high``
    (bootstrap; BACC's bounds NaN where too many resamples leave it undefined, their share in
    ``bacc_undefined``: see :func:`alignment_ci`), and ``recall_exact_low/_high``: the exact
    (Clopper-Pearson) binomial interval of the recall given the majority's errors, which stays
    honest when there are only one or a few of them (a bootstrap of one error example collapses to a point).
    """
    raters, models = parse_all(raters), parse_all(models)
    both = marks(corpus, [*raters, *models], examples)
    return majority_alignment(both, [r.name for r in raters], [m.name for m in models], n_boot, seed, min_agree)


def majority_alignment(
    marks_frame: pd.DataFrame,
    raters: list[str],
    models: list[str],
    n_boot: int = 1000,
    seed: int = 0,
    min_agree: int | float | None = None,
) -> pd.DataFrame:
    """:func:`models_vs_majority` from a marks frame holding the raters' and the models' marks
    (``rater`` names). Each model's interval resamples the examples it shares with the majority,
    from those examples alone (:func:`hotelcheckspan.metrics.resampling.matrix`): the same for a
    model whatever its name and whichever models are beside it."""
    by = dict(list(marks_frame.groupby("rater", sort=False)))
    maj = majority(votes(marks_frame[marks_frame["rater"].isin(raters)]), min_agree)
    empty = marks_frame.iloc[:0]
    frames = []
    for model in models:
        model_marks = by.get(model, empty)
        base = alignment(maj, model_marks)
        ci = alignment_ci(maj, model_marks, n_boot=n_boot, seed=seed)
        wide = ci.pivot(index="label", columns="measure", values=["low", "high"])
        wide.columns = [f"{m}_{b}" for b, m in wide.columns]
        wide["bacc_undefined"] = ci[ci["measure"] == "bacc"].set_index("label")["undefined"]
        frames.append(base.merge(wide.reset_index(), on="label").assign(model=model))
    out = pd.concat(frames, ignore_index=True)
    hits = (out["recall_error"].fillna(0) * out["majority_errors"]).round().astype(int)  # no errors: no hits
    out["recall_exact_low"], out["recall_exact_high"] = recall_interval(hits, out["majority_errors"])
    return out[["model", *[c for c in out.columns if c != "model"]]]


def bacc_versus(
    marks_frame: pd.DataFrame,
    raters: list[str],
    better: str,
    worse: str,
    n_boot: int = 1000,
    seed: int = 0,
    min_agree: int | float | None = None,
) -> dict:
    """Two models' balanced accuracy on "any error" against the clear human majority, compared on
    the same resamples: the examples either model shares with the majority, drawn as
    :func:`majority_alignment` draws them (:func:`hotelcheckspan.metrics.resampling.matrix`, so
    where both models annotated the same examples these are the very resamples behind their
    intervals). A model's cells are zero on an example it did not annotate, so each estimate is
    its own.

    Returns a dict: ``better, worse``; ``share`` (of the resamples where both BACCs are defined,
    those in which ``better``'s exceeds ``worse``'s), ``ties`` (the share level); ``resamples``
    (how many are defined); ``examples`` (the clear-majority examples either model was scored on)
    and ``single_rater`` (those of them one rater alone annotated, so that one rater's mark is the
    majority)."""
    v = votes(marks_frame[marks_frame["rater"].isin(raters)])
    maj = majority(v, min_agree)
    by = dict(list(marks_frame.groupby("rater", sort=False)))
    empty = marks_frame.iloc[:0]
    paired = {m: _paired(maj, by.get(m, empty)) for m in (better, worse)}
    units = pd.concat([p[KEY] for p in paired.values()]).drop_duplicates().reset_index(drop=True)
    rows = _rows(maj)
    cells = {}
    for m, p in paired.items():
        one = _cells(p, rows)[:, rows.index(ANY)]  # (examples, 4)
        at = units.merge(p[KEY].assign(_i=np.arange(len(p))), on=KEY, how="left")["_i"]
        full = np.zeros((len(units), 4))
        full[at.notna().to_numpy()] = one[at.dropna().astype(int).to_numpy()]
        cells[m] = full
    weights = resampling.matrix(units, n_boot, seed)
    reps = {}
    for m, c in cells.items():
        counts = weights @ c
        tp, fn, fp, tn = counts.T
        defined = ((tp + fn) > 0) & ((fp + tn) > 0)
        reps[m] = np.where(defined, _from_counts(counts)["bacc"], np.nan)
    both = ~np.isnan(reps[better]) & ~np.isnan(reps[worse])
    a, b = reps[better][both], reps[worse][both]
    clear = units.merge(maj.loc[maj[ANY].notna(), KEY], on=KEY)
    single = clear.merge(v.loc[v["raters"] == 1, KEY], on=KEY)
    return {
        "better": better,
        "worse": worse,
        "share": float((a > b).mean()) if both.any() else float("nan"),
        "ties": float((a == b).mean()) if both.any() else float("nan"),
        "resamples": int(both.sum()),
        "examples": int(len(clear)),
        "single_rater": int(len(single)),
    }


def recall_interval(hits, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Exact (Clopper-Pearson, statsmodels) interval of ``hits`` out of ``n``; NaN where n is 0."""
    hits, n = np.asarray(hits, float), np.asarray(n, float)
    safe = np.where(n > 0, n, 1)
    low, high = proportion_confint(hits, safe, alpha=1 - level, method="beta")
    return np.where(n > 0, low, np.nan), np.where(n > 0, high, np.nan)


def with_interval(estimate, low, high, digits: int = 2) -> list[str]:
    """ "0.64 [0.52, 0.75]" strings; a dash where the estimate is undefined, "0.50 [–]" where
    the estimate exists but its interval does not."""

    def shown(v) -> str:  # a value that rounds to zero is shown as zero, never "-0.00"
        text = f"{v:.{digits}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text

    out = []
    for e, lo, hi in zip(estimate, low, high):
        if pd.isna(e):
            out.append("–")
        elif pd.isna(lo) or pd.isna(hi):
            out.append(f"{shown(e)} [–]")
        else:
            out.append(f"{shown(e)} [{shown(lo)}, {shown(hi)}]")
    return out


def alignment_summary(table: pd.DataFrame, labels=ALIGNMENT_ROWS, digits: int = 2) -> pd.DataFrame:
    """A reader's table of :func:`models_vs_majority`: per model and label, the number of clear
    examples and of majority errors (the sample behind recall and the error half of BACC), then
    recall (exact interval), balanced accuracy and raw agreement (bootstrap intervals) as
    "0.64 [0.52, 0.75]" strings; "[–]" where an interval does not exist (:func:`undefined_intervals`
    says why)."""
    t = table[table["label"].isin(labels)]
    return pd.DataFrame(
        {
            "model": t["model"].to_numpy(),
            "error type": t["label"].to_numpy(),
            "clear examples": t["examples"].astype(int).to_numpy(),
            "majority errors": t["majority_errors"].astype(int).to_numpy(),
            "model marks": t["model_errors"].astype(int).to_numpy(),
            "recall on majority errors [95% CI]": with_interval(
                t["recall_error"], t["recall_exact_low"], t["recall_exact_high"], digits
            ),
            "balanced accuracy [95% CI]": with_interval(t["bacc"], t["bacc_low"], t["bacc_high"], digits),
            "raw agreement [95% CI]": with_interval(t["agreement"], t["agreement_low"], t["agreement_high"], digits),
        }
    )


def reliability_summary(ci: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """A reader's table of :func:`reliability_ci`: per label, Fleiss' kappa, Krippendorff's alpha,
    Gwet's AC1 and the share of positive marks, each as "estimate [low, high]"."""
    wide = ci.set_index(["label", "measure"])
    labels = list(dict.fromkeys(ci["label"]))
    out = {"error type": labels}
    for measure, name in [
        ("fleiss_kappa", "Fleiss' kappa"),
        ("krippendorff_alpha", "Krippendorff's alpha"),
        ("gwet_ac1", "Gwet's AC1"),
        ("positive_share", "share of error votes"),
    ]:
        part = wide.xs(measure, level="measure").loc[labels]
        out[f"{name} [95% CI]"] = with_interval(part["estimate"], part["low"], part["high"], digits)
    return pd.DataFrame(out)


def undefined_intervals(table: pd.DataFrame) -> pd.DataFrame:
    """The rows of :func:`models_vs_majority` whose BACC has no interval, and why: the share of
    resamples without a majority error (or without an error-free example) of the type, where
    balanced accuracy is undefined. Columns: ``model, label, majority_errors, undefined``."""
    t = table[table["bacc"].notna() & (table["bacc_low"].isna() | table["bacc_high"].isna())]
    return t[["model", "label", "majority_errors", "bacc_undefined"]].rename(columns={"bacc_undefined": "undefined"})


# --- Section 7: does example-level agreement mask span-level disagreement? ----------------------

MASKING_THRESHOLD = 0.5  # "low" pairwise span F1: below one half, fewer than half the marked characters shared


def masking(
    corpus: Corpus,
    raters=HUMAN_SETS,
    examples: pd.DataFrame | None = None,
    match: str = "soft",
    metric: str = "char",
    convention: str = "either",
) -> pd.DataFrame:
    """Per example: how many raters voted "error" of any type (``votes``), and how far the raters
    that marked agree on *where*: the span F1 (:func:`hotelcheckspan.metrics.span_f1.per_example`,
    ``match`` soft ignores the type, hard requires it) of every pair of those raters on the
    example, averaged. Character F1 is symmetric, so each unordered pair counts once.

    Columns: the example key, ``votes``, ``pairs`` (pairs of marking raters), ``mean_f1`` (NaN
    with fewer than two), ``min_f1``, ``max_f1``."""
    from itertools import combinations

    from ..annotator_sets import parse_all
    from ..metrics import span_f1

    sets = parse_all(raters)
    m = marks(corpus, sets, examples)
    wide = m.pivot_table(index=KEY, columns="rater", values=ANY, aggfunc="any").dropna().astype(bool)
    keys = wide.reset_index()[KEY]
    spans = {s.name: s.select(corpus)[1] for s in sets}
    scores = {}
    for a, b in combinations([s.name for s in sets], 2):
        counts = span_f1.per_example(spans[a], spans[b], keys, match=match, convention=convention, metric=metric)
        _, _, f = span_f1.prf(*(counts[c].to_numpy(float) for c in span_f1.COUNT_COLUMNS[:4]))
        both = (wide[a] & wide[b]).to_numpy()
        scores[(a, b)] = pd.Series(np.where(both, f, np.nan), index=pd.MultiIndex.from_frame(counts[KEY]))
    table = pd.DataFrame(scores).reindex(wide.index)
    out = keys.copy()
    out.columns.name = None
    out["votes"] = wide.sum(axis=1).to_numpy().astype(int)
    out["pairs"] = table.notna().sum(axis=1).to_numpy().astype(int)
    out["mean_f1"] = table.mean(axis=1).to_numpy()
    out["min_f1"] = table.min(axis=1).to_numpy()
    out["max_f1"] = table.max(axis=1).to_numpy()
    return out


def masking_summary(frame: pd.DataFrame, threshold: float = MASKING_THRESHOLD) -> pd.DataFrame:
    """:func:`masking` per number of error votes (two or more, where a pair exists): examples,
    median and quartiles (q1, q3) of the mean pairwise span F1, and how many examples fall below
    ``threshold``. Columns: ``error_votes, examples, median_f1, q1_f1, q3_f1, below_threshold,
    below_threshold_pct``."""
    rows = []
    for v, g in frame[frame["votes"] >= 2].groupby("votes"):
        f1 = g["mean_f1"]
        below = int((f1 < threshold).sum())
        rows.append(
            {
                "error_votes": int(v),
                "examples": len(g),
                "median_f1": float(f1.median()),
                "q1_f1": float(f1.quantile(0.25)),
                "q3_f1": float(f1.quantile(0.75)),
                "below_threshold": below,
                "below_threshold_pct": 100 * below / len(g),
            }
        )
    return pd.DataFrame(
        rows,
        columns=["error_votes", "examples", "median_f1", "q1_f1", "q3_f1", "below_threshold", "below_threshold_pct"],
    )


def masking_table(frames: dict[str, pd.DataFrame], threshold: float = MASKING_THRESHOLD) -> pd.DataFrame:
    """:func:`masking_summary` of several match modes (``{"soft": masking(...), "hard": ...}``)
    in one frame, with a ``match`` column first."""
    return pd.concat([masking_summary(f, threshold).assign(match=m) for m, f in frames.items()], ignore_index=True)[
        ["match", "error_votes", "examples", "median_f1", "q1_f1", "q3_f1", "below_threshold", "below_threshold_pct"]
    ]
