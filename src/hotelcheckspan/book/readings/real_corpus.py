"""Chapter 08 (the real data-to-text corpus): the numbers and readings its prose needs.

Every value is rounded once, here, to what the chapter's tables show (two decimals), so a
sentence never says 0.48 beside a table cell showing 0.49.
"""

from __future__ import annotations

import pandas as pd

from ...annotator_sets import display_name
from .. import prose, tables
from . import beyond_f1, kappa_paradox, span_gamma

DECIMALS = 2  # as the chapter's tables show them


def alignment_table(llm: pd.DataFrame) -> tables.Table:
    """``example_level.models_vs_majority`` for readers: per type pooled and any error, each
    model's examples, errors, raw agreement and balanced accuracy with its interval."""
    columns = ["model", "label", "examples", "majority_errors", "model_errors", "agreement", "bacc", "bacc_low"]
    shown = llm[llm["label"].isin(["per type (pooled)", "Any"])][[*columns, "bacc_high"]]
    return tables.show(shown)


def most_contested(votes: pd.DataFrame, categories) -> dict:
    """The key of the text whose human votes are most split: the largest mean, over categories,
    of p(1 - p), p the share of the sets that voted that category (``example_level.votes``)."""
    shares = votes[list(categories)].div(votes["raters"], axis=0)
    return votes.loc[
        (shares * (1 - shares)).mean(axis=1).idxmax(), ["dataset", "split", "setup_id", "example_idx"]
    ].to_dict()


def highlight_sets(complete, models) -> list[str]:
    """The annotator sets a highlighted text shows, in order: two human groups, the LLMs, the
    other human groups (``complete``: the groups that annotated every text)."""
    return [*[g.spec for g in complete[:2]], *models, *[g.spec for g in complete[2:]]]


def _n(v) -> str:
    return tables.number(round(float(v), DECIMALS), DECIMALS)


def _extreme(values: pd.Series, best: bool, decimals: int = DECIMALS) -> tuple[str, float]:
    """The label(s) with the highest (``best``) or lowest value as shown: every label tied with
    it once rounded to ``decimals`` is named, so the prose never singles out one of two equal
    cells."""
    shown = values.astype(float).round(decimals)
    target = shown.max() if best else shown.min()
    return prose.names(shown.index[shown == target]), float(target)


def llm_spread(shares: pd.DataFrame, human: str, category: str) -> str:
    """How much the LLM campaigns differ in volume (spans) and in the share of ``category``, as
    the composition table shows them (shares with one decimal)."""
    llms = shares[shares["campaign"] != human]
    spans = llms["spans"].astype(int)
    share = llms[category].astype(float)
    return (
        f"The LLMs mark between {spans.min()} and {spans.max()} spans, and {category} makes between "
        f"{tables.number(share.min(), 1)}% and {tables.number(share.max(), 1)}% of them."
    )


def llm_vs_humans(f1: float, low: float, high: float, human_f1: float) -> str:
    """Where the best LLM's F1 lies against the human-human F1, read with its interval (all as
    shown, two decimals): the estimate's side is a finding only where the human figure lies
    outside the interval. One phrase for the body and the summary, so they cannot part."""
    side = "above" if f1 > human_f1 else "below" if f1 < human_f1 else "level with"
    if low <= human_f1 <= high:
        return (
            f"{side} the human-human figure by its estimate, but that figure lies within its interval: "
            "on these texts the LLM and a second human group are not told apart"
        )
    return f"{side} the human-human figure, which lies outside its interval"


def _chapter(
    corpus,
    *,
    groups: list,
    complete: list,
    models: list[str],
    human: str,
    composition: pd.DataFrame,
    reliability: pd.DataFrame,
    t6: pd.DataFrame,
    llm: pd.DataFrame,
    min_agree: int,
    n_boot: int,
    level: float,
) -> dict[str, str]:
    """Every value chapter 08 glues.

    ``composition``: :func:`dataset_level.campaign_table` (its ``<category> %`` columns are the
    shares of each campaign's spans);
    ``reliability``: :func:`example_level.reliability_ci`'s frame (``label, measure, estimate``);
    ``t6``: :func:`span_level.table6`'s frame; ``llm``: :func:`example_level.models_vs_majority`'s.
    """
    cats = list(corpus.categories)
    shares = composition[["name", "spans", *[f"{c} %" for c in cats]]].set_axis(["campaign", "spans", *cats], axis=1)
    kappa = reliability[reliability["measure"] == "fleiss_kappa"].set_index("label")["estimate"]
    per_cat = kappa.loc[cats]
    by = t6.set_index(["comparison", "match"])
    human_f1 = round(float(by.loc[("humans vs humans", "hard"), "f1"]), DECIMALS)
    llm_rows = t6[(t6["comparison"] != "humans vs humans") & (t6["match"] == "hard")]
    best = llm_rows.loc[llm_rows["f1"].idxmax()]
    best_f1, low, high = (round(float(best[c]), DECIMALS) for c in ("f1", "f1_low", "f1_high"))
    pooled = llm[llm["label"] == "per type (pooled)"].set_index("model")
    best_cat, best_kappa = _extreme(per_cat, best=True)
    worst_cat, worst_kappa = _extreme(per_cat, best=False)
    best_bacc_model, best_bacc = _extreme(pooled["bacc"], best=True)
    top_category = str(shares.set_index("campaign").loc[human, cats].astype(float).idxmax())
    same_order = list(pooled["bacc"].rank(method="first")) == list(pooled["agreement"].rank(method="first"))
    return {
        "n_groups": str(len(groups)),
        "n_models": str(len(models)),
        "n_examples": str(len(corpus.examples)),
        "n_boot": f"{n_boot:,}",
        "ci_level": f"{level:.0%}",
        "n_categories": str(len(cats)),
        "n_warnings": str(len(corpus.warnings)),
        "top_human_category": top_category,
        "llm_spread": llm_spread(shares, human, top_category),
        "n_complete": str(len(complete)),
        "kappa_any": _n(kappa.loc["Any"]),
        "kappa_best_category": best_cat,
        "kappa_best": _n(best_kappa),
        "kappa_worst_category": worst_cat,
        "kappa_worst": _n(worst_kappa),
        "human_f1_hard": _n(human_f1),
        "human_f1_soft": _n(by.loc[("humans vs humans", "soft"), "f1"]),
        "best_llm": display_name(str(best["comparison"]).removeprefix("humans vs ")),
        "best_llm_f1": tables.interval(best_f1, low, high),
        "best_llm_vs_humans": llm_vs_humans(best_f1, low, high, human_f1),
        "min_agree": str(min_agree),
        "best_bacc_model": best_bacc_model,
        "best_bacc": _n(best_bacc),
        "rank_word": "in the same order as" if same_order else "in a different order from",
    }


def readings(
    corpus,
    *,
    prevalence: pd.DataFrame | None = None,
    beyond: pd.DataFrame | None = None,
    gamma_beside: pd.DataFrame | None = None,
    gamma_ranks: dict | None = None,
    **computed,
) -> dict:
    """Every value chapter 08 glues: the chapter's own (keyword arguments as :func:`_chapter` takes
    them) and, given them, its sections' AC1 (``prevalence``), beyond F1 and γ readings."""
    out = _chapter(corpus, **computed)
    if prevalence is not None:
        out |= kappa_paradox.readings(prevalence, prefix="kp8")
    if beyond is not None:
        out |= beyond_f1.readings(beyond, prefix="bf8")
    if gamma_beside is not None:
        out |= span_gamma.readings(corpus, beside=gamma_beside, agreement=gamma_ranks)
    return out
