# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Real annotations: LLMs as span annotators

# %% tags=["remove-cell", "colab"]
# Colab: clone the repository (package and data) and install it as the README says
try:
    import hotelcheckspan  # noqa: F401
except ImportError:
    import os
    import subprocess
    import sys

    repo = "https://github.com/hotelcheckspan/compendium"
    clone = os.path.abspath("hotelcheckspan-compendium")
    subprocess.run(["git", "clone", "--depth", "1", repo, clone], check=True)
    cpu = "https://download.pytorch.org/whl/cpu"  # torch's CPU build
    subprocess.run([sys.executable, "-m", "pip", "install", "--extra-index-url", cpu, "-e", clone], check=True)
    sys.path.insert(0, os.path.join(clone, "src"))
    os.chdir(os.path.join(clone, "notebooks"))

# %% tags=["remove-input"]
import math

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import dataset_level, example_level, judges, span_gamma, span_level, span_measures
from hotelcheckspan.annotator_sets import groups_of
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book.readings import real_corpus

plots.set_theme()
corpus = hotelcheckspan.load(paths.real_corpus_dir())
human = corpus.campaigns("human")[0]
models = corpus.campaigns("model")
groups = groups_of(corpus, human)
N_BOOT, LEVEL = 1000, 0.95  # bootstrap replicates and interval level of every interval below
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# The paper's chapters ({chapter}`01` to {chapter}`07`) run on the simulated stand-in for the gated
# HotelCheckSpan release; this one, like {chapter}`11` and the real sections of {chapter}`09` and
# {chapter}`10`, runs the same package functions on **real** human and LLM annotations of **another task
# and corpus**: the data-to-text "iaa" split of "Large Language Models as Span Annotators"
# {cite:p}`kasner2026spanannotators` (MIT licence, bundled verbatim in `data/span-annotation-d2t-iaa/`
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

# %% [markdown]
# (composition)=
# ## Composition
#
# One row per campaign: records (one annotator group on one text), the texts they cover, and
# spans. The human campaign is one factgenie campaign whose annotator groups each annotated the
# texts once; each LLM campaign is one group.

# %%
composition = dataset_level.campaign_table(corpus)
tables.real_composition(composition)

# %% [markdown]
# The export is real, so it has quirks: {glue:text}`n_warnings` warnings, listed below. factgenie
# computes its metrics with these spans, and so does every table here (nothing is dropped).

# %%
tables.load_warnings(corpus)

# %% [markdown]
# (dataset)=
# ## Dataset level: what each campaign marked
#
# Share of each campaign's spans per category (the human row pools every group).

# %%
tables.category_shares(composition, corpus.categories)

# %% [markdown]
# Humans mark {glue:text}`top_human_category` most often. {glue:text}`llm_spread`

# %% [markdown]
# (example)=
# ## Example level: votes, kappa and alpha
#
# A group votes "error of category *c*" on a text when it marked at least one span of *c* there.
# The chance-corrected coefficients (Fleiss' kappa, Krippendorff's alpha; zero is chance, one is
# perfect agreement) use the {glue:text}`n_complete` groups that annotated every text.

# %%
complete = [g for g in groups if len(g.select(corpus)[0]) == len(corpus.examples)]
marks = example_level.marks(corpus, complete)
votes = example_level.votes(marks)
tables.text_votes(votes, corpus.categories)

# %%
reliability = example_level.reliability_ci(marks, n_boot=300, seed=0)
tables.show(example_level.reliability_summary(reliability), headers={"error type": "Category"})

# %% [markdown]
# Beyond chance, the groups agree most on {glue:text}`kappa_best_category` (Fleiss' kappa
# {glue:text}`kappa_best`) and least on {glue:text}`kappa_worst_category`
# ({glue:text}`kappa_worst`); on whether a text has any error at all, kappa is
# {glue:text}`kappa_any`.

# %% [markdown]
# (span)=
# ## Span level: human groups with each other and with each LLM
#
# P, R and F1 as factgenie computes them (hard: the category must match; soft: any overlap), per
# pair of annotator sets on the texts both annotated, averaged over pairs as in the paper's
# Table 6. "humans vs humans" averages every unordered pair of groups; "humans vs *model*" every
# group against the model. Intervals resample texts ({glue:text}`n_boot` times, seeded).

# %%
comparisons = judges.comparisons(corpus)  # humans vs humans, and humans vs each LLM
pairs, counts = span_level.pairwise(corpus, comparisons)
t6 = span_level.table6(pairs, counts, n_boot=N_BOOT, seed=0)
tables.span_prf(t6)

# %% mystnb={"figure": {"caption": "Span F1 of every pair behind each row (dots) and their mean (bar), hard and soft match, on the real data-to-text corpus.", "name": "fig-real-pair-spread"}, "image": {"alt": "Two strip plots, hard and soft match: per-pair F1 for humans vs humans and for humans vs each LLM, with the mean as a bar."}}
plots.pair_spread(pairs)

# %% [markdown]
# Two human groups share {glue:text}`human_f1_hard` F1 on average (hard; soft
# {glue:text}`human_f1_soft`). By hard F1, the LLM that agrees best with the human groups is
# {glue:text}`best_llm` ({glue:text}`best_llm_f1`); it lies {glue:text}`best_llm_vs_humans`.

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
llm = example_level.models_vs_majority(corpus, models, raters=complete, n_boot=N_BOOT, seed=0, min_agree=min_agree)
real_corpus.alignment_table(llm)

# %% mystnb={"figure": {"caption": "Raw agreement with the human majority against balanced accuracy, per LLM, with 95% bootstrap intervals (real data-to-text corpus).", "name": "fig-real-paradox"}, "image": {"alt": "Two dot plots, per category pooled and any error: for each LLM, raw agreement and balanced accuracy with intervals."}}
plots.paradox(llm)

# %% [markdown]
# Pooled over categories, the majority is followed best by {glue:text}`best_bacc_model` (BACC
# {glue:text}`best_bacc`); balanced accuracy ranks the LLMs {glue:text}`rank_word` raw
# agreement here.

# %% [markdown]
# (contested)=
# ## The most contested text
#
# The text on which the groups split most evenly, averaged over categories (the mean of
# $p(1-p)$, $p$ being the share of groups voting for a category), with the spans of every
# group that annotated all texts and of every LLM: the first groups and LLMs stand open, the others
# are collapsed under one line. Overlapping spans of one annotator are counted on the row, not drawn.

# %%
contested = real_corpus.most_contested(votes, corpus.categories)
report.highlight(corpus, contested, real_corpus.highlight_sets(complete, models), shown=4)

# %% [markdown]
# (real-beyond-f1)=
# ## Beyond F1 on real annotations: AC1, boundaries and error counts
#
# Gwet's AC1 beside Fleiss' kappa for the {glue:text}`n_complete` groups that annotated every
# text, with the chance agreement each subtracts (see {chapter}`03` and the methods page):

# %%
prevalence = example_level.prevalence(marks)
tables.prevalence(prevalence, label="Category")

# %% [markdown]
# On {glue:text}`kp8_type`, {glue:text}`kp8_share`% of the groups' decisions are error votes; the
# groups agree on {glue:text}`kp8_pa` of their pairs of decisions there, kappa expects {glue:text}`kp8_pe_kappa`
# by chance and is {glue:text}`kp8_kappa`, AC1 expects {glue:text}`kp8_pe_ac1` and is
# {glue:text}`kp8_ac1`. AC1 is above kappa for {glue:text}`kp8_above` categories.
#
# The SemEval-2013 boundary schemes and factgenie's correlation of error counts for the
# comparisons of the span-level table above, averaged over pairs (intervals resample texts, drawn
# on their own, so an F1 interval here can differ in its last digit from the span-level table's):

# %%
measures, measure_arrays = span_measures.pairs(corpus, comparisons)
beyond = span_measures.table(measures, measure_arrays, n_boot=N_BOOT, seed=0)
tables.folded(
    tables.show(beyond, columns=["comparison", "pairs", *span_measures.MEASURES]),
    ["Comparison", "F1 (book) [95% CI]", "Partial F1 [95% CI]"],
    "Every measure: strict, exact and type F1, Pearson r, and the pairs behind each row",
)

# %% [markdown]
# {glue:text}`bf8_top_f1` has the highest span F1, {glue:text}`bf8_top_partial` the highest
# partial-match F1 ({glue:text}`bf8_same_top`); {glue:text}`bf8_moved` of the
# {glue:text}`bf8_n` comparisons change rank. Ignoring categories gains {glue:text}`bf8_type_cost`
# F1 on average and accepting any overlap a further {glue:text}`bf8_boundary_cost`. Error counts
# correlate with micro r from {glue:text}`bf8_r_min` to {glue:text}`bf8_r_max`, highest for
# {glue:text}`bf8_top_r`.

# %% [markdown]
# (real-gamma)=
# ## γ beside F1 on the real corpus
#
# The same comparisons scored with Mathet et al.'s γ as `factgenie iaa gamma` computes it
# ({glue:text}`gamma_mode` γ; see {chapter}`04`, [its γ section](gamma) and the [methods page](methods-gamma)): per text
# where both sides marked something, their spans aligned at the least cost and that disorder
# compared with chance ($\gamma = 1$ for identical spans, $0$ at chance level); texts only one
# side marked get $S_\emptyset$ instead. Each row's γ is the mean over its pairs, beside hard F1.

# %%
gamma_pairs, gamma_per_example = span_gamma.pairwise(corpus, comparisons)
gammas = span_gamma.by_comparison(gamma_pairs, gamma_per_example, n_boot=N_BOOT, seed=0, level=LEVEL)
gamma_beside = span_gamma.beside_f1(gammas, t6)
gamma_ranks = span_gamma.rank_agreement(gamma_beside)
tables.gamma_beside_f1(gamma_beside, unit="Texts")

# %% tags=["remove-input"]
readings.glue_all(
    real_corpus.readings(
        corpus,
        groups=groups,
        complete=complete,
        models=models,
        human=human,
        composition=composition,
        reliability=reliability,
        t6=t6,
        llm=llm,
        min_agree=min_agree,
        n_boot=N_BOOT,
        level=LEVEL,
        prevalence=prevalence,
        beyond=beyond,
        gamma_beside=gamma_beside,
        gamma_ranks=gamma_ranks,
    )
)

# %% [markdown]
# γ orders the {glue:text}`gamma_comparisons` rows in {glue:text}`gamma_order` hard F1 (Kendall's
# tau {glue:text}`gamma_tau`; {glue:text}`gamma_moved_count` rows change rank). Both sides marked
# {glue:text}`gamma_share` of the compared texts, so γ rests on those texts. The largest move is
# {glue:text}`gamma_moved` (F1 rank {glue:text}`gamma_moved_f1_rank`, γ rank
# {glue:text}`gamma_moved_gamma_rank`): where both sides marked a text, its spans match the humans'
# in place and type {glue:text}`gamma_moved_direction` than its character overlap ranks it. γ ranges
# from {glue:text}`gamma_min` to {glue:text}`gamma_max`, {glue:text}`gamma_chance`.

# %% [markdown]
# ## Summary
#
# - The compendium reads a real factgenie export as it is: texts from `outputs/` joined on
#   slugified ids, any number of categories, and the export's quirks kept and counted as
#   factgenie keeps them ({glue:text}`n_warnings` warnings here, none an error).
# - On real data-to-text annotations, two human groups share {glue:text}`human_f1_hard` span
#   F1 on average (hard match): humans disagree on the words even where they agree on the
#   category, so an LLM's span F1 against humans has to be read against the human-human figure;
#   the LLM that agrees best with them by hard F1, {glue:text}`best_llm`, lies
#   {glue:text}`best_llm_vs_humans`.
# - Chance-corrected agreement differs widely between categories ({glue:text}`kappa_best_category`
#   against {glue:text}`kappa_worst_category`).
# - What carries over is the method (factgenie's span F1, kappa and alpha, balanced accuracy
#   against a majority), not the values, which belong to another task, other categories and
#   {glue:text}`n_examples` texts.
