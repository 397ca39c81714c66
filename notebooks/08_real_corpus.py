# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Real annotations: LLMs as span annotators
#
# ## Overview
#
# Every other chapter runs on the simulated stand-in for the gated HotelCheckSpan release. This
# one runs the same package functions on **real** human and LLM annotations of **another task
# and corpus**: the data-to-text "iaa" split of "Large Language Models as Span Annotators"
# {cite:p}`kasner2025spanannotators` (MIT licence, bundled verbatim in `data/span-annotation-d2t-iaa/`
# with its `SOURCE.md`). There, {glue:text}`n_groups` human annotator groups and
# {glue:text}`n_models` LLMs marked errors in the same {glue:text}`n_examples` texts generated
# from structured data (football matches, phone specifications, weather forecasts), in
# {glue:text}`n_categories` categories. It is read through the public API a user would call on
# their own factgenie export, `hotelcheckspan.load(path)`.
#
# What carries over to HotelCheckSpan: the measures (span F1 as factgenie computes it, votes,
# chance-corrected agreement, balanced accuracy against a human majority) and the questions.
# What does not: the numbers. The task (data-to-text, not hotel summaries), the categories,
# the texts (a paragraph, not one sentence) and the design (many annotators on a few texts,
# not four on hundreds) all differ, so no figure here is a stand-in for a HotelCheckSpan one.
#
# 1. What is in the corpus, and what quirks does the export carry? ([Composition](composition))
# 2. How much did each campaign mark, per category? ([Dataset level](dataset))
# 3. Do annotators agree on *which texts* have which errors? ([Example level](example))
# 4. Do they mark the *same words*, humans among themselves and LLMs against humans?
#    ([Span level](span))
# 5. Which LLM follows the human majority, once silence is not rewarded? ([BACC](real-llms))
# 6. What does disagreement look like on one text? ([The most contested text](contested))
#
# Intervals are central {glue:text}`ci_level` percentile bootstrap intervals over texts (seeded); with
# {glue:text}`n_examples` texts they are wide.

# %%
import math

import pandas as pd
from myst_nb import glue

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import dataset_level, example_level, span_gamma, span_level
from hotelcheckspan.annotator_sets import groups_of
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book.readings import span_gamma as gamma_readings

plots.set_theme()
corpus = hotelcheckspan.load(paths.REAL_CORPUS)
human = corpus.campaigns("human")[0]
models = corpus.campaigns("model")
groups = groups_of(corpus, human)
glue("n_groups", len(groups), display=False)
glue("n_models", len(models), display=False)
glue("n_examples", len(corpus.examples), display=False)
N_BOOT, LEVEL = 1000, 0.95  # bootstrap replicates and interval level of every interval below
glue("n_boot", f"{N_BOOT:,}", display=False)
glue("ci_level", f"{LEVEL:.0%}", display=False)
glue("n_categories", len(corpus.categories), display=False)
report.corpus_banner(corpus)

# %% [markdown]
# (composition)=
# ## Composition
#
# One row per campaign: records (one annotator group on one text), the texts they cover, and
# spans. The human campaign is one factgenie campaign whose annotator groups each annotated the
# texts once; each LLM campaign is one group.

# %%
composition = dataset_level.campaign_table(corpus)[
    ["name", "kind", "records", "error_records", "spans", "spans_per_record", "mean_words"]
]
composition.columns = [
    "campaign",
    "kind",
    "records",
    "records with errors",
    "spans",
    "spans per record",
    "mean span length (words)",
]
composition.style.set_uuid("composition").hide(axis="index").format(precision=2)

# %% [markdown]
# The export is real, so it has quirks: {glue:text}`n_warnings` warnings, listed below. factgenie
# computes its metrics with these spans, and so does every table here (nothing is dropped).

# %%
warnings = pd.DataFrame(
    [{"file": w.file, "line": w.line, "field": w.field, "warning": w.message} for w in corpus.warnings]
)
glue("n_warnings", len(warnings), display=False)
warnings.style.set_uuid("warnings").hide(axis="index")

# %% [markdown]
# (dataset)=
# ## Dataset level: what each campaign marked
#
# Share of each campaign's spans per category (the human row pools every group).

# %%
shares = dataset_level.campaign_table(corpus)[["name", "spans", *[f"{c} %" for c in corpus.categories]]]
shares.columns = ["campaign", "spans", *corpus.categories]
top_human = shares.set_index("campaign").loc[human, corpus.categories].astype(float).idxmax()
glue("top_human_category", top_human, display=False)
shares.style.set_uuid("shares").hide(axis="index").format(precision=1, na_rep="")

# %% [markdown]
# Humans mark {glue:text}`top_human_category` most often. The LLMs differ in volume as much as in
# their mix of categories.

# %% [markdown]
# (example)=
# ## Example level: votes, kappa and alpha
#
# A group votes "error of category *c*" on a text when it marked at least one span of *c* there.
# The chance-corrected coefficients (Fleiss' kappa, Krippendorff's alpha; zero is chance, one is
# perfect agreement) use the {glue:text}`n_complete` groups that annotated every text.

# %%
complete = [g for g in groups if len(g.select(corpus)[0]) == len(corpus.examples)]
glue("n_complete", len(complete), display=False)
marks = example_level.marks(corpus, complete)
votes = example_level.votes(marks)
tables.show(
    votes.assign(text=votes["dataset"] + " / " + votes["setup_id"]),
    columns=["text", *corpus.categories, "Any", "raters"],
    headers={"text": "Text (domain / system)", "raters": "Groups"},
)

# %%
reliability = example_level.reliability_ci(marks, n_boot=300, seed=0)
wide = reliability.pivot(index="label", columns="measure", values=["estimate", "low", "high"])
table = pd.DataFrame(
    {
        "label": wide.index,
        **{
            f"{m} ({part})": wide[(part, m)].to_numpy()
            for m in ("fleiss_kappa", "krippendorff_alpha")
            for part in ("estimate", "low", "high")
        },
    }
)
table = table.set_index("label").loc[[*corpus.categories, "Any"]].reset_index()
kappas = table.set_index("label")["fleiss_kappa (estimate)"].drop("Any")
glue("kappa_any", round(float(table.set_index("label").loc["Any", "fleiss_kappa (estimate)"]), 3), display=False)
glue("kappa_best_category", kappas.idxmax(), display=False)
glue("kappa_best", round(float(kappas.max()), 3), display=False)
glue("kappa_worst_category", kappas.idxmin(), display=False)
glue("kappa_worst", round(float(kappas.min()), 3), display=False)
shown = pd.DataFrame({"label": wide.index})
for m in ("fleiss_kappa", "krippendorff_alpha"):
    for part, suffix in (("estimate", ""), ("low", "_low"), ("high", "_high")):
        shown[m + suffix] = wide[(part, m)].to_numpy()
shown = shown.set_index("label").loc[[*corpus.categories, "Any"]].reset_index()
tables.show(
    shown,
    headers={
        "label": "Category",
        "fleiss_kappa": "Fleiss' kappa [95% CI]",
        "krippendorff_alpha": "Krippendorff's alpha [95% CI]",
    },
)

# %% [markdown]
# Beyond chance, the groups agree most on {glue:text}`kappa_best_category` (Fleiss' kappa
# {glue:text}`kappa_best:.2f`) and least on {glue:text}`kappa_worst_category`
# ({glue:text}`kappa_worst:.2f`); on whether a text has any error at all, kappa is
# {glue:text}`kappa_any:.2f`.

# %% [markdown]
# (span)=
# ## Span level: human groups with each other and with each LLM
#
# P, R and F1 as factgenie computes them (hard: the category must match; soft: any overlap), per
# pair of annotator sets on the texts both annotated, averaged over pairs as in the paper's
# Table 6. "humans vs humans" averages every unordered pair of groups; "humans vs *model*" every
# group against the model. Intervals resample texts ({glue:text}`n_boot` times, seeded).

# %%
specs = [g.spec for g in groups]
comparisons = [{"name": "humans vs humans", "ref": [a], "hyp": specs[i + 1 :]} for i, a in enumerate(specs[:-1])] + [
    {"name": f"humans vs {m}", "ref": specs, "hyp": [m]} for m in models
]
pairs, counts = span_level.pairwise(corpus, comparisons)
t6 = span_level.table6(pairs, counts, n_boot=N_BOOT, seed=0)
tables.show(
    t6,
    columns=["comparison", "match", "pairs", "precision", "recall", "f1"],
    headers={"f1": "F1 [95% CI]", "precision": "Precision [95% CI]", "recall": "Recall [95% CI]"},
)

# %%
by = t6.set_index(["comparison", "match"])
human_f1 = float(by.loc[("humans vs humans", "hard"), "f1"])
llm_rows = t6[(t6["comparison"] != "humans vs humans") & (t6["match"] == "hard")]
best = llm_rows.loc[llm_rows["f1"].idxmax()]
glue("human_f1_hard", round(human_f1, 3), display=False)
glue("human_f1_soft", round(float(by.loc[("humans vs humans", "soft"), "f1"]), 3), display=False)
glue("best_llm", best["comparison"].removeprefix("humans vs "), display=False)
glue("best_llm_f1", round(float(best["f1"]), 3), display=False)
glue("llm_vs_human_word", "above" if best["f1"] > human_f1 else "below", display=False)
glue("within_word", "within" if best["f1_low"] <= human_f1 <= best["f1_high"] else "outside", display=False)

# %% mystnb={"figure": {"caption": "Span F1 of every pair behind each row (dots) and their mean (bar), hard and soft match, on the real data-to-text corpus.", "name": "fig-real-pair-spread"}, "image": {"alt": "Two strip plots, hard and soft match: per-pair F1 for humans vs humans and for humans vs each LLM, with the mean as a bar."}}
plots.pair_spread(pairs)

# %% [markdown]
# Two human groups share {glue:text}`human_f1_hard:.2f` F1 on average (hard; soft
# {glue:text}`human_f1_soft:.2f`). The LLM closest to the human groups is
# {glue:text}`best_llm` ({glue:text}`best_llm_f1:.2f`), {glue:text}`llm_vs_human_word` the
# human-human figure, which lies {glue:text}`within_word` that LLM's interval.

# %% [markdown]
# (real-llms)=
# ## LLMs against the human majority (BACC)
#
# A category counts on a text where at least {glue:text}`min_agree` of the
# {glue:text}`n_complete` groups agree (the share the paper's rule, all but one of four
# annotators, asks); the majority label is then the truth. Raw agreement rewards a model that marks
# little where errors are rare; balanced accuracy (BACC, mean recall on error and on no-error)
# does not.

# %%
min_agree = math.ceil(0.75 * len(complete))
glue("min_agree", min_agree, display=False)
llm = example_level.models_vs_majority(corpus, models, raters=complete, n_boot=N_BOOT, seed=0, min_agree=min_agree)
llm_show = llm[llm["label"].isin(["per type (pooled)", "Any"])][
    ["model", "label", "examples", "majority_errors", "model_errors", "agreement", "bacc", "bacc_low", "bacc_high"]
]
pooled = llm[llm["label"] == "per type (pooled)"].set_index("model")
glue("best_bacc_model", pooled["bacc"].idxmax(), display=False)
glue("best_bacc", round(float(pooled["bacc"].max()), 3), display=False)
same_order = list(pooled["bacc"].rank(method="first")) == list(pooled["agreement"].rank(method="first"))
glue("rank_word", "in the same order as" if same_order else "in a different order from", display=False)
llm_show.style.set_uuid("bacc").hide(axis="index").format(precision=2, na_rep="n/a")

# %% mystnb={"figure": {"caption": "Raw agreement with the human majority against balanced accuracy, per LLM, with 95% bootstrap intervals (real data-to-text corpus).", "name": "fig-real-paradox"}, "image": {"alt": "Two dot plots, per category pooled and any error: for each LLM, raw agreement and balanced accuracy with intervals."}}
plots.paradox(llm)

# %% [markdown]
# Pooled over categories, {glue:text}`best_bacc_model` follows the majority best (BACC
# {glue:text}`best_bacc:.2f`); balanced accuracy ranks the LLMs {glue:text}`rank_word` raw
# agreement here.

# %% [markdown]
# (contested)=
# ## The most contested text
#
# The text on which the groups split most evenly, averaged over categories (the mean of
# $p(1-p)$, $p$ being the share of groups voting for a category), with the spans of every
# group that annotated all texts and of every LLM. Overlapping spans of one annotator are counted on the row, not drawn.

# %%
shares_voted = votes[corpus.categories].div(votes["raters"], axis=0)
contested = votes.loc[
    (shares_voted * (1 - shares_voted)).mean(axis=1).idxmax(), ["dataset", "split", "setup_id", "example_idx"]
].to_dict()
report.highlight(corpus, contested, [g.spec for g in complete] + models)

# %% [markdown]
# (real-gamma)=
# ## γ beside F1 on the real corpus
#
# The same comparisons scored with Mathet et al.'s γ as `factgenie iaa gamma` computes it
# ({glue:text}`gamma_mode` γ; see [chapter 04](gamma) and the [methods page](methods-gamma)): per text
# where both sides marked something, their spans aligned at the least cost and that disorder
# compared with chance ($\gamma = 1$ for identical spans, $0$ at chance level); texts only one
# side marked get $S_\emptyset$ instead. Each row's γ is the mean over its pairs, beside hard F1.

# %%
gamma_pairs, gamma_per_example = span_gamma.pairwise(corpus, comparisons)
gammas = span_gamma.by_comparison(gamma_pairs, gamma_per_example, n_boot=N_BOOT, seed=0, level=LEVEL)
gamma_beside = span_gamma.beside_f1(gammas, t6)
gamma_ranks = span_gamma.rank_agreement(gamma_beside)
tables.show(
    gamma_beside,
    columns=["comparison", "f1", "f1_rank", "gamma", "gamma_rank", "pairs", "gamma_pairs", "gamma_examples", "s_empty"],
    headers={
        "comparison": "Comparison",
        "f1": "Hard F1 [95% CI]",
        "f1_rank": "F1 rank",
        "gamma": "γ [95% CI]",
        "gamma_rank": "γ rank",
        "pairs": "Pairs",
        "gamma_pairs": "Pairs with a γ",
        "gamma_examples": "Texts with a γ (all pairs)",
        "s_empty": "S∅",
    },
)

# %% tags=["remove-input"]
readings.glue_all(gamma_readings.readings(corpus, beside=gamma_beside, agreement=gamma_ranks))

# %% [markdown]
# γ orders the {glue:text}`gamma_comparisons` rows in {glue:text}`gamma_order` hard F1 (Kendall's
# tau {glue:text}`gamma_tau`; {glue:text}`gamma_moved_count` rows change rank). Both sides marked
# {glue:text}`gamma_share` of the compared texts, so γ rests on those texts. The largest move is
# {glue:text}`gamma_moved` (F1 rank {glue:text}`gamma_moved_f1_rank`, γ rank
# {glue:text}`gamma_moved_gamma_rank`): where both sides marked a text, its spans match the humans'
# in place and type {glue:text}`gamma_moved_direction` than its character overlap ranks it. The
# top row by γ is {glue:text}`gamma_top` ({glue:text}`gamma_top_value`), by F1
# {glue:text}`gamma_f1_top`; γ ranges from {glue:text}`gamma_min` to {glue:text}`gamma_max`,
# {glue:text}`gamma_chance`.

# %% [markdown]
# ## Summary
#
# - The compendium reads a real factgenie export as it is: texts from `outputs/` joined on
#   slugified ids, any number of categories, and the export's quirks kept and counted as
#   factgenie keeps them ({glue:text}`n_warnings` warnings here, none an error).
# - On real data-to-text annotations, two human groups share {glue:text}`human_f1_hard:.2f` span
#   F1 on average (hard match): humans disagree on the words even where they agree on the
#   category, so an LLM's span F1 against humans has to be read against the human-human figure;
#   the closest LLM, {glue:text}`best_llm`, is {glue:text}`llm_vs_human_word` it.
# - Chance-corrected agreement differs widely between categories ({glue:text}`kappa_best_category`
#   against {glue:text}`kappa_worst_category`), as it does between HotelCheckSpan's types.
# - What carries over is the method (factgenie's span F1, kappa and alpha, balanced accuracy
#   against a majority), not the values, which belong to another task, other categories and
#   {glue:text}`n_examples` texts.
