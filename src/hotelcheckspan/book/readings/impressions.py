"""Chapter 07 (errors and impressions): the numbers and readings its prose needs."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ...analyses import impressions as analysis
from ...corpora import KEY
from ...reference import checks, paper
from .. import labels, prose, tables
from . import Passage, simulated_only

# --- the chapter's paper-vs-ours tables (``tables.versus``) -------------------------------------------

MORE_THAN = 4  # the paper reports the mean "when more than 4 errors" (the key of its figure)
BANDS = {"high (6-7)": "high_rated_6_7", "mid (4-5)": "mid_low", "low (1-3)": "mid_low"}  # band -> figure


def welch_beside_paper(welch: Mapping, corpus) -> tables.Table:
    """``impressions.errors_vs_none`` beside the paper's means, t and p (Section 6.5)."""
    rows = [
        ("mean impression, no errors", "impressions/mean_no_error", welch["mean_no_error"]),
        ("mean impression, with errors", "impressions/mean_with_error", welch["mean_with_error"]),
        ("t (Welch)", "impressions/t_errors_vs_none", welch["t"], 1),
        ("p", "impressions/p", tables.pvalue(welch["p"])),
        ("degrees of freedom", None, welch["df"], 0),
        # d's sign and interval clear of zero are put in as t's are: the row takes t's label, and the
        # paper's cell the d its t and group sizes imply (it reports no d)
        ("Cohen's d [95% CI]", "impressions/t_errors_vs_none", (welch["d"], welch["d_low"], welch["d_high"])),
    ]
    table = tables.versus(rows, corpus)
    d = implied("cohens_d")
    row = table.frame.index[-1]
    table.frame.loc[row, "Paper"] = f"{tables.number(d['value'])} (implied by t and the group sizes)"
    table.frame.loc[row, "Difference"] = tables.signed_number(welch["d"] - d["value"])
    return table


def implied(quantity: str) -> pd.Series:
    """One row of what the paper's figures imply (:func:`hotelcheckspan.reference.checks.implied`):
    ``value`` at the printed figures, ``low``/``high`` over their rounding."""
    return checks.implied().set_index("id").loc[quantity]


def count_beside_paper(ratings: pd.DataFrame, corr: pd.DataFrame, corpus) -> tables.Table:
    """The correlation of error count and impression, and the mean impression of records with more
    than :data:`MORE_THAN` errors, beside the paper's."""
    many = ratings.loc[ratings["errors"] > MORE_THAN, "impression"]
    rows = [
        ("Pearson r, errors vs impression", "impressions/r_error_count_vs_impression", float(corr.loc[0, "r"])),
        (
            f"mean impression, more than {prose.count_words(MORE_THAN)} errors",
            "impressions/mean_when_more_than_4_errors",
            none_beyond(ratings, corpus) if many.empty else float(many.mean()),
        ),
    ]
    return tables.versus(rows, corpus)


def none_beyond(ratings: pd.DataFrame, corpus) -> str:
    """The cell for a corpus with no record beyond :data:`MORE_THAN` errors: how many it has at
    most, and on the stand-in why (a summary carries at most so many planted claims)."""
    most = int(ratings["errors"].max()) if len(ratings) else 0
    cell = f"none: at most {prose.count_words(most)} errors a record"
    if getattr(corpus, "simulated", False):
        from ...simulation.summaries import TEMPLATES  # the stand-in's sentence shapes

        cell += f" (a summary carries at most {prose.count_words(max(map(sum, TEMPLATES)))} claims)"
    return cell


def types_beside_paper(per_type: pd.DataFrame, corpus) -> tables.Table:
    """Mean impression and drop per error type (``impressions.by_type`` indexed by type) beside the paper's."""
    by_type = paper.figures()["impressions"]["by_type"]
    rows = [
        (f"{t}: {what}", f"impressions/by_type/{t}/{what}", float(per_type.loc[t, what]))
        for t in by_type
        for what in ("mean", "drop")
    ]
    return tables.versus(rows, corpus)


def bands_beside_paper(bands: pd.DataFrame, corpus) -> tables.Table:
    """The share of records with errors per rating band (``impressions.bands`` indexed by band) beside the paper's."""
    rows = [
        (f"{band} with errors (%)", f"impressions/{key}_with_errors_pct", float(bands.loc[band, "with errors (%)"]), 1)
        for band, key in BANDS.items()
    ]
    return tables.versus(rows, corpus)


SIZES = ("negligible", "small", "medium", "large")


def _size(d: float) -> str:
    """Cohen's conventional name for an effect size."""
    return "negligible" if abs(d) < 0.2 else "small" if abs(d) < 0.5 else "medium" if abs(d) < 0.8 else "large"


def effect_size(d: float, low: float, high: float) -> str:
    """Cohen's name for an effect, or the names at its interval's ends where they differ
    ("medium to large"); an interval across zero starts at negligible."""
    if low <= 0 <= high:
        ends = ["negligible", _size(max(abs(low), abs(high)))]
    else:
        ends = sorted({_size(low), _size(high)}, key=SIZES.index)
    return _size(d) if len(set(ends)) == 1 else f"{ends[0]} to {ends[-1]}"


def p_text(p) -> str:
    """A p-value as prose: "p < 0.001" or "p = 0.012" (the table's three decimals)."""
    shown = tables.pvalue(p)
    return f"p < {shown[1:]}" if shown.startswith("<") else f"p = {shown}"


def readings(
    corpus,
    *,
    ratings: pd.DataFrame,
    welch: Mapping,
    corr: pd.DataFrame,
    per_type: pd.DataFrame,
    bands: pd.DataFrame,
    variance: Mapping,
    effect: pd.DataFrame,
    per_type_models: pd.DataFrame,
    n_boot: int,
) -> dict[str, str | Passage]:
    """Every value chapter 07's prose glues, from what the chapter computed: ``ratings``
    (``impressions.ratings``), ``welch`` (``errors_vs_none``), ``corr`` (``count_correlation``),
    ``per_type`` (``by_type`` indexed by type), ``bands`` (``bands`` indexed by band),
    ``variance`` (``annotator_variance``), ``effect`` (``error_effect_models``),
    ``per_type_models`` and the bootstrap's ``n_boot``."""
    reported = paper.figures()
    imp = reported["impressions"]
    low, high = reported["campaigns"]["impression_scale"]
    inc = "Incorrect"
    paper_order = sorted(imp["by_type"], key=lambda t: -imp["by_type"][t]["drop"])
    our_order = list(per_type.sort_values("drop", ascending=False).index)
    type_of = {"n_" + t.lower().replace(" ", "_"): t for t in imp["by_type"]}
    orders = {
        m: [type_of[t] for t in g.sort_values("coef")["term"]] for m, g in per_type_models.groupby("model", sort=False)
    }
    agree = [m for m, o in orders.items() if o == paper_order]
    mid = float(bands.loc["mid (4-5)", "with errors (%)"])
    e = effect.set_index("model")["coef"]
    ols, mixed = e.iloc[0], e.iloc[1]
    paper_d = implied("cohens_d")
    per_example = ratings.groupby(KEY).size()

    # the stand-in's labels for the figures the ratings were built from, as the tables show them
    rows = [("the mean impression without errors", "impressions/mean_no_error", welch["mean_no_error"])]
    rows += [(f"the {t} drop", f"impressions/by_type/{t}/drop", float(per_type.loc[t, "drop"])) for t in imp["by_type"]]
    found = labels.kinds(rows)
    keys = dict((m, k) for m, k, _ in rows)
    hit = [m for m, lab in found.items() if lab == "set"]
    by_reason: dict[str, list[str]] = {}
    for m, lab in found.items():
        if lab.startswith("set, missed"):
            by_reason.setdefault(labels.reason(keys[m]), []).append(f"{m} ({lab.removeprefix('set, ')})")
    missed = [f"{', '.join(names)}: {why}" for why, names in by_reason.items()]
    means = labels.kind(f"impressions/by_type/{inc}/mean")
    note = (
        "On the stand-in, the no-error mean and the per-type drops are inputs of the simulated ratings, *"
        + labels.kind("impressions/mean_no_error")
        + "*"
        + (f"; reproduced within their tolerance: {', '.join(hit)}" if hit else "")
        + (f". Missed beyond their tolerance: {'; '.join(missed)}" if missed else "")
        + f". The means per type are *{means}*"
        + (": the no-error mean minus the drop" if means != "emergent" else "")
        + f"; {_stats_said(means)}."
    )
    return bases(corpus, welch=welch, per_type=per_type) | {
        "scale_low": tables.number(low),
        "scale_high": tables.number(high),
        "n_boot": tables.number(n_boot),
        "n_ratings": tables.number(len(ratings)),
        "n_annotators": tables.number(ratings["annotator_id"].nunique()),
        "effect_size": effect_size(welch["d"], welch["d_low"], welch["d_high"]),
        "d_ci": tables.interval(welch["d"], welch["d_low"], welch["d_high"]),
        "paper_d": tables.number(paper_d["value"]),
        "d_reading": prose.compare(abs(welch["d"]), abs(paper_d["value"]), 2, "larger", "smaller", "the same"),
        "direction": "lower" if welch["mean_with_error"] < welch["mean_no_error"] else "not lower",
        "significance": "significantly" if welch["p"] < 0.05 else "not significantly",
        "p_welch": p_text(welch["p"]),
        "gap_no_error": tables.number(abs(welch["mean_no_error"] - imp["mean_no_error"])),
        "gap_dir": prose.compare(welch["mean_no_error"], imp["mean_no_error"], 2, "above", "below", "equal to"),
        "inc_drop_reading": prose.compare(
            per_type.loc[inc, "drop"], imp["by_type"][inc]["drop"], 2, "larger than", "smaller than", "the same as"
        ),
        "inc_drop": tables.number(per_type.loc[inc, "drop"]),
        "paper_inc_drop": tables.number(imp["by_type"][inc]["drop"]),
        "t_reading": prose.compare(abs(welch["t"]), abs(imp["t_errors_vs_none"]), 1, "larger", "smaller", "the same"),
        "r_reading": prose.compare(
            abs(corr.loc[0, "r"]), abs(imp["r_error_count_vs_impression"]), 2, "stronger", "weaker", "as strong"
        ),
        "t_ours": tables.number(welch["t"], 1),
        "r_ours": tables.number(corr.loc[0, "r"]),
        "spread_reading": spread_reading(welch, corr, imp),
        "mid_pct": tables.number(mid, 1),
        "mid_reading": "more than half, as the paper says" if mid > 50 else 'fewer than the paper\'s "over half"',
        "band_claim_needs": Passage(band_claim_needs(ratings, bands)),
        "sim_means_note": simulated_only(corpus, note),
        "paper_order": ", then ".join(paper_order),
        "paper_drops": ", ".join(tables.number(imp["by_type"][t]["drop"]) for t in paper_order),
        "order_reading": order_reading(
            ", ".join(tables.number(per_type.loc[t, "drop"]) for t in paper_order),
            our_order == paper_order,
            orders,
            agree,
        ),
        "order_note": simulated_only(corpus, order_note(imp["by_type"], len(agree) == len(orders))),
        "icc_pct": tables.number(100 * variance["icc"], 0),
        "icc_source": simulated_only(corpus, icc_source(variance)),
        "variance_note": simulated_only(corpus, variance_note(variance)),
        "per_example_caveat": Passage(per_example_caveat(per_example, corpus)),
        "ols_coef": tables.number(ols),
        "mixed_coef": tables.number(mixed),
        "mixed_reading": "changes little" if abs(mixed - ols) < 0.1 * abs(ols) else "changes the estimate",
        "mixed_note": simulated_only(
            corpus,
            "The simulated annotators' rating offsets are drawn independently of how much they mark, so the mixed "
            "model's estimates stay close to the ordinary ones here. On real data, where annotators who mark more "
            "may also rate more harshly, the mixed model is the one to trust.",
        ),
    }


def _shares() -> str:
    """The share of its type's drop a marked span takes off, in words (the stand-in's constant)."""
    from ...simulation.annotators import IMPRESSION_DROP_SHARE  # the stand-in's hand-set shares

    first, later = IMPRESSION_DROP_SHARE
    return f"{tables.number(first)} of it for the first span, {tables.number(later)} for each later one"


def _stats_said(means: str) -> str:
    """What the stand-in puts in of t, p and r, and what their size follows from (the provenance
    file's ``built_in`` and ``reason``), with the drop shares in words."""
    t_key, r_key = "impressions/t_errors_vs_none", "impressions/r_error_count_vs_impression"
    t_kind, r_kind = labels.kind(t_key), labels.kind(r_key)
    size = labels.reason(t_key).split("; ", 1)[-1]  # "the size follows from ..."
    if t_kind == r_kind == labels.provenance.BUILT:
        return (
            f"t, its p and the sign of r are *{t_kind}* (every marked span takes a share of the paper's drop for "
            f"its type off the impression, {_shares()}, so records with errors rate lower), and {size}, not "
            "from the paper's t and r"
        )
    if t_kind == r_kind == means:
        return f"and so are t and r: {size}"
    if t_kind == r_kind:
        return f"t and r are *{t_kind}*: {size}"
    return f"t is *{t_kind}* and r *{r_kind}*: {size}"


def spread_reading(welch: Mapping, corr: pd.DataFrame, imp: Mapping) -> str:
    """Why t, d and r differ from the paper's: the pooled SD of the ratings against the one the
    paper's means and t imply (:func:`implied` ``pooled_sd``), and the gap between the means."""
    gap = welch["mean_no_error"] - welch["mean_with_error"]
    ours = gap / welch["d"]
    theirs = implied("pooled_sd")
    paper_gap = imp["mean_no_error"] - imp["mean_with_error"]
    spread = prose.compare(ours, theirs["value"], 2, "more than", "less than", "as much as")
    said = (
        f"the ratings spread {spread} the paper's (a pooled standard deviation of {tables.number(ours)} against "
        f"the {tables.number(theirs['value'])} its means and t imply), with a gap between the means of "
        f"{tables.number(gap)} against its {tables.number(paper_gap)}"
    )
    larger = (
        abs(welch["t"]) > abs(imp["t_errors_vs_none"])
        and abs(welch["d"]) > implied("cohens_d")["value"]
        and abs(corr.loc[0, "r"]) > abs(imp["r_error_count_vs_impression"])
    )
    if spread == "less than" and larger:
        return said + (": the smaller spread, not a larger gap, makes t, d and r larger" if gap <= paper_gap else "")
    return said


def band_claim_needs(ratings: pd.DataFrame, bands: pd.DataFrame) -> str:
    """What the paper's band claim needs (:func:`implied` ``high_rated_share_min``: the share of
    records rated 6-7 its figures require), against this corpus' share, and whether this corpus
    could show both band figures at once (at its own share of records with errors, with the paper's
    share among the high-rated, how many of the rest could carry errors at most); and the verdict
    under other readings of the unnamed "mid" and "low" bands."""
    need = implied("high_rated_share_min")
    high = float((ratings["impression"] >= 6).mean())
    errors = float(ratings["has_error"].mean())
    printed_high = paper.printed("impressions/high_rated_6_7_with_errors_pct")
    paper_high = printed_high.value / 100

    def rest(share: float) -> float:  # the rest's share with errors, if the high-rated carry ``share``
        return (errors - high * share) / (1 - high) if high < 1 else float("nan")

    # fixed by the shares, not bounded: its range is only the rounding of the paper's 17.6%
    rest_at, rest_low, rest_high = rest(paper_high), rest(printed_high.high / 100), rest(printed_high.low / 100)
    mid = float(bands.loc["mid (4-5)", "with errors (%)"])
    other = analysis.bands(ratings, {"3-5": (3, 5), "1-5": (1, 5)}).set_index("band")["with errors (%)"]
    pct = lambda v: f"{tables.number(100 * v, 1)}%"  # noqa: E731
    said = (
        f"For its bands to add up, the paper's own figures need at least {pct(need['value'])} of its records "
        f"rated 6-7 ({pct(need['low'])} to {pct(need['high'])} over their rounding), given that "
        f"{pct(paper_high)} of those carry errors, over half of the rest do, and Section 4.4's count of records "
        f"with errors. This corpus rates {pct(high)} of its records so high"
    )
    if high < need["low"] and rest_high <= 0.5:
        spread = "" if pct(rest_low) == pct(rest_high) else f" ({pct(rest_low)} to {pct(rest_high)} over its rounding)"
        said += (
            f", too few to show both band figures at once: with its own share of records with errors "
            f"({pct(errors)}) and the paper's {pct(paper_high)} among the high-rated, {pct(rest_at)} of the rest "
            f"would carry errors{spread}, not over half. The miss comes from how the ratings spread, not from the "
            "errors."
        )
    else:
        said += ", fewer than that." if high < need["low"] else "."
    kept = [(v > 50) == (mid > 50) for v in other]
    verdict = (
        "is the same under others"
        if all(kept)
        else "changes under others"
        if not any(kept)
        else f"changes under {prose.count_words(kept.count(False))} of {prose.count_words(len(kept))} others"
    )
    return (
        said + f" The paper names no bounds for its mid and low bands; 4-5 and 1-3 are our reading, and the verdict "
        f"{verdict}: {pct(other['3-5'] / 100)} of the records rated 3-5 carry errors, and "
        f"{pct(other['1-5'] / 100)} of those rated 1-5."
    )


def order_reading(drops: str, drops_agree: bool, orders: Mapping, agree: list) -> str:
    """Whether the paper's order of the drops holds in this corpus' drops (``drops``, in the paper's
    order: Section 6.5's own measure) and in the models (the paper fits none)."""
    said = f"this corpus' drops ({drops})"
    if len(agree) == len(orders):
        models = f"all {prose.count_words(len(orders))} models"
    else:
        models = (
            f"{', '.join(agree) if agree else 'none'} of the models ({prose.count_words(len(agree))} of "
            f"{prose.count_words(len(orders))})"
        )
    if drops_agree:
        return f"holds in {said} and in {models}"
    return f"does not hold in {said}; it holds in {models}"


def icc_source(variance: Mapping) -> str:
    """On the stand-in: the share between annotators is the generator's offset spread read back."""
    from ...simulation.annotators import IMPRESSION_OFFSET_SD  # the stand-in's hand-set spread

    return (
        f", the spread the generator gives the annotators' offsets read back (a standard deviation of "
        f"{tables.number(IMPRESSION_OFFSET_SD, 1)} set by hand, a variance of "
        f"{tables.number(IMPRESSION_OFFSET_SD**2)} against the {tables.number(variance['between_var'], 3)} "
        "estimated here)"
    )


def per_example_caveat(per_example: pd.Series, corpus) -> str:
    """What the mixed model leaves out: ratings of one summary share it (``per_example``: ratings
    per example); on the stand-in the generator adds an effect per example."""
    most, least = int(per_example.max()), int(per_example.min())
    if most < 2:
        return ""
    raters = tables.number(least) + ("" if least == most else f" to {tables.number(most)}")
    simulated = getattr(corpus, "simulated", False)
    added = " (on the stand-in, an effect per example that the generator adds)" if simulated else ""
    return (
        f"Each summary is also rated by {raters} annotators, whose ratings share what the summary itself is like"
        f"{added}; the mixed model has only the annotator intercept, so it still treats the ratings of one summary "
        "as independent, and its intervals may be somewhat too narrow."
    )


def variance_note(variance: Mapping) -> str:
    """On the stand-in: what the generator adds to each rating, so the table above reads it back."""
    from ...simulation import annotators as a  # the stand-in's hand-set spreads

    return (
        "On the stand-in this table reads back what the generator put in by hand: each annotator's offset is "
        f"drawn with a standard deviation of {tables.number(a.IMPRESSION_OFFSET_SD, 1)} (a variance of "
        f"{tables.number(a.IMPRESSION_OFFSET_SD**2)}, against the {tables.number(variance['between_var'], 3)} "
        f"estimated), each example's effect with {tables.number(a.IMPRESSION_EXAMPLE_SD)} and each rating's "
        f"noise with {tables.number(a.IMPRESSION_NOISE_SD, 1)}, before the drops, the rounding and the clipping."
    )


def bases(corpus, *, welch: Mapping | None = None, per_type: pd.DataFrame | None = None) -> dict[str, Passage]:
    """What each Summary bullet of chapter 07 rests on (:func:`hotelcheckspan.book.labels.basis`);
    given the chapter's ``welch`` and ``per_type``, set figures carry the label their tables show
    ("*set*, missed by 0.14")."""
    by_type = paper.figures()["impressions"]["by_type"]
    mean = ("the no-error mean", "impressions/mean_no_error")
    drops = [(f"the {t} drop", f"impressions/by_type/{t}/drop") for t in by_type]
    if welch is not None:
        mean = (*mean, welch["mean_no_error"])
    if per_type is not None:
        drops = [(what, key, float(per_type.loc[t, "drop"])) for (what, key), t in zip(drops, by_type)]
    return {
        "effect_basis": labels.basis(
            corpus,
            mean,
            ("the effect's sign and significance", "impressions/t_errors_vs_none"),
            ("r's sign", "impressions/r_error_count_vs_impression"),
        ),
        "order_basis": labels.basis(corpus, *drops),
        "icc_basis": labels.basis(corpus, ("the annotators' own scales", "annotators.IMPRESSION_OFFSET_SD")),
    }


def order_note(by_type: Mapping, holds: bool) -> str:
    """Whether the order of costs per type came from the data or was put in: on the stand-in each
    type's drop is a generator input when the rule labels it so (:mod:`hotelcheckspan.book.labels`;
    the Summary's basis gives each drop's label), and then the paper's order is in the ratings by
    design, as chapter 05 says of its span counts."""
    kinds = {t: labels.kind(f"impressions/by_type/{t}/drop") for t in by_type}
    designed = [t for t, k in kinds.items() if k.startswith(("set", "calibrated", "tuned"))]
    shown = ", ".join(f"{t} *{k}*" for t, k in kinds.items())
    if len(designed) == len(kinds):
        verdict = (
            "so the paper's order is in the simulated ratings by design, and its holding here is no finding"
            if holds
            else "so the paper's order was put in, and the models miss it anyway: noise and clipping outweigh "
            "the gaps between the drops"
        )
        return f"On the stand-in the drops per type are generator inputs (the bullet's lead labels each), {verdict}."
    if designed:
        verdict = "so the order was put in only in part; the rest is what the simulation gives"
    else:
        verdict = "so no drop was put in, and the order is what the simulation gives"
    return f"On the stand-in the drops per type are generator inputs by the rule ({shown}), {verdict}."
