"""Chapter 07 (errors and impressions): the numbers and readings its prose needs."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ...reference import paper
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
        ("Cohen's d [95% CI]", None, (welch["d"], welch["d_low"], welch["d_high"])),
    ]
    return tables.versus(rows, corpus)


def count_beside_paper(ratings: pd.DataFrame, corr: pd.DataFrame, corpus) -> tables.Table:
    """The correlation of error count and impression, and the mean impression of records with more
    than :data:`MORE_THAN` errors, beside the paper's."""
    many = ratings.loc[ratings["errors"] > MORE_THAN, "impression"]
    rows = [
        ("Pearson r, errors vs impression", "impressions/r_error_count_vs_impression", float(corr.loc[0, "r"])),
        (
            "mean impression, more than four errors",
            "impressions/mean_when_more_than_4_errors",
            "no record has more than four" if many.empty else float(many.mean()),
        ),
    ]
    return tables.versus(rows, corpus)


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


def _size(d: float) -> str:
    """Cohen's conventional name for an effect size."""
    return "negligible" if abs(d) < 0.2 else "small" if abs(d) < 0.5 else "medium" if abs(d) < 0.8 else "large"


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
    type_of = {"n_" + t.lower().replace(" ", "_"): t for t in imp["by_type"]}
    orders = {
        m: [type_of[t] for t in g.sort_values("coef")["term"]] for m, g in per_type_models.groupby("model", sort=False)
    }
    agree = [m for m, o in orders.items() if o == paper_order]
    mid = float(bands.loc["mid (4-5)", "with errors (%)"])
    e = effect.set_index("model")["coef"]
    ols, mixed = e.iloc[0], e.iloc[1]

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
    t_kind, r_kind = labels.kind("impressions/t_errors_vs_none"), labels.kind("impressions/r_error_count_vs_impression")
    noise = "whose size the simulated raters' noise sets, not the paper"
    if t_kind == r_kind == labels.provenance.BUILT:
        stats = (
            f"t, its p and the sign of r are *{t_kind}* ("
            + labels.reason("impressions/t_errors_vs_none", "built_in").split(", so ")[0]
            + "), their size is what the simulated raters' noise and the clipping give, not the paper"
        )
    elif t_kind == r_kind == means:
        stats = f"and so are t and r, {noise}"
    elif t_kind == r_kind:
        stats = f"t and r are *{t_kind}*, {noise}"
    else:
        stats = f"t is *{t_kind}* and r *{r_kind}*, {noise}"
    note = (
        "On the stand-in, the no-error mean and the per-type drops are inputs of the simulated ratings, *"
        + labels.kind("impressions/mean_no_error")
        + "*"
        + (f"; reproduced within their tolerance: {', '.join(hit)}" if hit else "")
        + (f". Missed beyond their tolerance: {'; '.join(missed)}" if missed else "")
        + f". The means per type are *{means}*"
        + (": the no-error mean minus the drop" if means != "emergent" else "")
        + f"; {stats}."
    )
    return bases(corpus) | {
        "scale_low": tables.number(low),
        "scale_high": tables.number(high),
        "n_boot": tables.number(n_boot),
        "n_ratings": tables.number(len(ratings)),
        "n_annotators": tables.number(ratings["annotator_id"].nunique()),
        "effect_size": _size(welch["d"]),
        "d_ci": tables.interval(welch["d"], welch["d_low"], welch["d_high"]),
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
        "mid_pct": tables.number(mid, 1),
        "mid_reading": "more than half, as the paper says" if mid > 50 else 'fewer than the paper\'s "over half"',
        "sim_means_note": simulated_only(corpus, note),
        "paper_order": ", then ".join(paper_order),
        "order_reading": f"in all {prose.count_words(len(orders))} models, as in the paper"
        if len(agree) == len(orders)
        else f"in {', '.join(agree) if agree else 'none'} of the models ({prose.count_words(len(agree))} of "
        f"{prose.count_words(len(orders))})",
        "order_note": simulated_only(corpus, order_note(imp["by_type"], len(agree) == len(orders))),
        "icc_pct": tables.number(100 * variance["icc"], 0),
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


def bases(corpus) -> dict[str, Passage]:
    """What each Summary bullet of chapter 07 rests on (:func:`hotelcheckspan.book.labels.basis`)."""
    return {
        "effect_basis": labels.basis(
            corpus,
            ("the no-error mean", "impressions/mean_no_error"),
            ("the effect's sign and significance", "impressions/t_errors_vs_none"),
            ("r's sign", "impressions/r_error_count_vs_impression"),
        ),
        "order_basis": labels.basis(corpus, ("the drops per type", "impressions/by_type/Incorrect/drop")),
        "icc_basis": labels.basis(corpus, ("the annotators' own scales", None)),
    }


def order_note(by_type: Mapping, holds: bool) -> str:
    """Whether the order of costs per type came from the data or was put in: on the stand-in each
    type's drop is a generator input when the rule labels it so (:mod:`hotelcheckspan.book.labels`),
    and then the paper's order is in the ratings by design, as chapter 05 says of its span counts."""
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
    elif designed:
        verdict = "so the order was put in only in part; the rest is what the simulation gives"
    else:
        verdict = "so no drop was put in, and the order is what the simulation gives"
    return f"On the stand-in the drops per type are generator inputs by the rule ({shown}), {verdict}."
