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

from hotelcheckspan import annotator_sets, paths
from hotelcheckspan.analyses import dataset_level, example_level, span_gamma, span_level, span_measures
from hotelcheckspan.book import plots, readings, real_shape, report, tables
from hotelcheckspan.book.readings import real_corpus

plots.set_theme()
# the corpus the chapter reads (HOTELCHECKSPAN_REAL_DATA, _TASK, _SPLIT), checked as `make corpus-check` checks it
frame = real_shape.framed(paths.real_corpus_dir(), **paths.real_selection())  # what every number rests on
corpus = frame.corpus
plan = real_shape.plan(corpus)  # every human group, the groups that rated the same texts, the LLMs
models = plan.models
names = annotator_sets.names(corpus)  # its judges and human sets as the glossary names them, on every page
N_BOOT, LEVEL = 1000, 0.95  # bootstrap replicates and interval level of every interval below
report.corpus_banner(corpus, frame)

# %% [markdown]
# ## Overview
#
# The paper's chapters ({chapter}`01` to {chapter}`07`) run on the simulated stand-in for the gated
# HotelCheckSpan release; this one, like {chapter}`11` and the real sections of {chapter}`09` and
# {chapter}`10`, runs the same package functions on **real** human and LLM annotations of **another task
# and corpus**, read through the public API a user would call on their own factgenie export,
# `hotelcheckspan.load(path)`. By default that is the data-to-text "iaa" split of "Large Language
# Models as Span Annotators" {cite:p}`kasner2026spanannotators` (MIT licence, bundled verbatim in
# `data/span-annotation-d2t-iaa/` with its `SOURCE.md`); `HOTELCHECKSPAN_REAL_DATA` points the
# chapter at any other factgenie corpus (the README's "Running on another corpus").
# {glue:md}`about`
#
# What carries over to HotelCheckSpan: the measures (span F1 under the book's definition, factgenie
# 1.2.1's character overlap with the span lengths of factgenie's May 2025 script, and factgenie's own
# two beside it; votes, chance-corrected agreement, balanced accuracy against a human majority) and
# the questions.
# What does not: the numbers. {glue:text}`differs`, so no figure here is a stand-in for a
# HotelCheckSpan one.
#
# 1. What is in the corpus, and what quirks does the export carry? ([Composition](composition))
# 2. How much did each campaign mark, per category? ([Dataset level](dataset))
# 3. Do annotators agree on *which texts* have which errors? ([Example level](example))
# 4. Do they mark the *same words*, humans among themselves and LLMs against humans?
#    ([Span level](span))
# 5. Which LLM follows the human majority, once silence is not rewarded? ([BACC](real-llms))
# 6. What does disagreement look like on one text? ([The most contested text](contested))
#
# Intervals are central {glue:text}`ci_level` percentile bootstrap intervals over texts
# ({glue:text}`n_boot` resamples, seeded); with {glue:text}`n_examples` texts they are
# {glue:text}`interval_width`.

# %% [markdown]
# (composition)=
# ## Composition
#
# One row per campaign: records (one annotator group on one text), the texts they cover, and
# spans. {glue:text}`human_design`; each judge is one group.

# %%
composition = dataset_level.campaign_table(corpus)
tables.real_composition(composition, names=names)

# %% [markdown]
# {glue:text}`warnings_said`

# %%
tables.load_warnings(corpus)

# %% [markdown]
# (dataset)=
# ## Dataset level: what each campaign marked
#
# Share of each campaign's spans per category (a human campaign's row pools its groups).

# %%
tables.category_shares(composition, corpus.categories, names=names)

# %% [markdown]
# Humans mark {glue:text}`top_human_category` most often. {glue:text}`llm_spread`

# %% [markdown]
# (example)=
# ## Example level: votes, kappa and alpha
#
# A group votes "error of category *c*" on a text when it marked at least one span of *c* there.
# The chance-corrected coefficients (Fleiss' kappa, Krippendorff's alpha; zero is chance, one is
# perfect agreement) need raters who all rated the same texts: {glue:text}`raters_said`.

# %%
marks = example_level.marks(corpus, plan.raters, plan.texts)
votes = example_level.votes(marks)
tables.text_votes(votes, corpus.categories)

# %%
reliability = example_level.reliability_ci(marks, n_boot=N_BOOT, seed=0)  # empty with fewer than two raters
real_corpus.reliability_table(reliability)

# %% [markdown]
# {glue:text}`kappa_reading`

# %% [markdown]
# (span)=
# ## Span level: human groups with each other and with each LLM
#
# P, R and F1 under the book's definition (factgenie 1.2.1's character overlap, span lengths counted
# on every text as factgenie's May 2025 script counts them; see {chapter}`04`, [which span F1 the
# paper reported](definitions)), hard (the category must match) and soft (any overlap), per pair of
# sides on the texts both annotated, averaged over pairs as in the HotelCheckSpan paper's
# Table 6. "humans vs humans" averages every unordered pair of groups that annotated a common text;
# "humans vs *model*" every group against the model. Intervals resample texts ({glue:text}`n_boot`
# times, seeded).

# %%
comparisons = real_shape.comparisons(corpus, plan)  # humans vs humans, humans vs each LLM: pairs sharing texts
pairs, counts = span_level.pairwise(corpus, comparisons)
t6 = span_level.table6(pairs, counts, n_boot=N_BOOT, seed=0)
tables.span_prf(t6, names=names)

# %% mystnb={"figure": {"caption": "Span F1 of every pair behind each row (dots) and their mean (bar), hard and soft match, on the real data-to-text corpus.", "name": "fig-real-pair-spread"}}
plots.pair_spread(pairs, names=names)

# %% [markdown]
# The same means under factgenie's own definitions (estimates only; the intervals above are the
# book's):

# %%
by_definition = span_level.definition_means(corpus, comparisons, real_corpus.DEFINITIONS, {real_corpus.BOOK: pairs})
real_corpus.definitions_table(by_definition, names=names)

# %% [markdown]
# {glue:text}`human_f1_said` By span F1, hard under the book's definition, the highest estimate against
# the human groups is {glue:text}`best_llm`'s ({glue:text}`best_llm_f1`); it
# {glue:text}`best_llm_vs_humans`. {glue:text}`best_by_definition`

# %% [markdown]
# (real-llms)=
# ## LLMs against the human majority (BACC)
#
# {glue:text}`majority_said` Raw agreement rewards a model that marks little where errors are rare;
# balanced accuracy (BACC, mean recall on error and on no-error) does not.

# %%
min_agree = math.ceil(frame.majority_share * len(plan.raters))  # the one clear-majority rule (corpora.frame)
llm = example_level.models_vs_majority(
    corpus, models, raters=plan.raters, examples=plan.texts, n_boot=N_BOOT, seed=0, min_agree=min_agree
)
real_corpus.alignment_table(llm, names=names)

# %% mystnb={"figure": {"caption": "Raw agreement with the human majority against balanced accuracy, per LLM, with 95% bootstrap intervals (real data-to-text corpus). A point without an interval has none because too many resamples leave balanced accuracy undefined: they hold no error-free text, or no error, among the few with a clear majority.", "name": "fig-real-paradox"}}
plots.paradox(llm, names=names)

# %% [markdown]
# {glue:text}`bacc_said`

# %% [markdown]
# (contested)=
# ## The most contested text
#
# The text on which {glue:text}`contested_who` split most evenly, averaged over categories (the
# mean of $p(1-p)$, $p$ being the share of them voting for a category), with the spans of
# {glue:text}`raters_phrase` and of every LLM that annotated it: the first groups and LLMs stand
# open, the others are collapsed under one line. Overlapping spans of one annotator are counted on
# the row, not drawn.

# %%
contested = real_shape.contested(corpus, plan, votes)
report.highlight(corpus, contested, real_shape.shown_on(corpus, plan, contested), shown=2)

# %% [markdown]
# (real-beyond-f1)=
# ## Beyond F1 on real annotations: AC1, boundaries and error counts
#
# Gwet's AC1 beside Fleiss' kappa for {glue:text}`raters_phrase`, with the chance agreement each
# subtracts (see {chapter}`03` and the methods page):

# %%
prevalence = example_level.prevalence(marks)  # empty with fewer than two raters
tables.prevalence(prevalence, label="Category")

# %% [markdown]
# {glue:text}`ac1_reading`
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
    names=names,
)

# %% [markdown]
# {glue:text}`bf8_top_f1` has the highest span F1, {glue:text}`bf8_top_partial` the highest
# partial-match F1 ({glue:text}`bf8_same_top`); {glue:text}`bf8_moved_said` (values within half a
# point of each other count as tied). At exact boundaries, ignoring categories (exact against
# strict F1) gains {glue:text}`bf8_type_cost` F1 on average (exact F1 is at most
# {glue:text}`bf8_exact_max` in any row); in
# character overlap it gains {glue:text}`bf8_soft_gain` (span F1, soft against hard in the span-level
# table). Accepting a partial overlap at half credit (partial against exact F1) gains a further
# {glue:text}`bf8_boundary_cost`. Error counts correlate with micro r from {glue:text}`bf8_r_min`
# to {glue:text}`bf8_r_max`, highest for {glue:text}`bf8_top_r`.

# %% [markdown]
# (real-gamma)=
# ## γ beside F1 on the real corpus
#
# The same comparisons scored with Mathet et al.'s γ as `factgenie iaa gamma` computes it
# ({glue:text}`gamma_mode` γ; see {chapter}`04`, [its γ section](gamma) and the [methods page](methods-gamma)): per text
# where both sides marked something, their spans aligned at the least cost and that disorder
# compared with chance ($\gamma = 1$ for identical spans, $0$ at chance level); texts at most one
# side marked get $S_\emptyset$ instead. Each row's γ is the mean over its pairs, beside span F1, hard.

# %%
gamma_pairs, gamma_per_example = span_gamma.pairwise(corpus, comparisons)
gammas = span_gamma.by_comparison(gamma_pairs, gamma_per_example, n_boot=N_BOOT, seed=0, level=LEVEL)
gamma_beside = span_gamma.beside_f1(gammas, t6)
gamma_ranks = span_gamma.rank_agreement(gamma_beside)
tables.gamma_beside_f1(gamma_beside, unit="Texts", names=names)

# %% tags=["remove-input"]
readings.glue_all(
    real_corpus.readings(
        corpus,
        plan=plan,
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
        by_definition=by_definition,
    ),
    names=names,
)

# %% [markdown]
# γ orders the {glue:text}`gamma_comparisons` rows in {glue:text}`gamma_order` span F1, hard (Kendall's
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
# - {glue:text}`summary_humans` the highest span F1, hard against them under the book's definition is
#   {glue:text}`best_llm`'s, which {glue:text}`best_llm_vs_humans`.
#   {glue:text}`best_by_definition_short`
# - {glue:text}`summary_kappa`
# - What carries over is the method (span F1 under the book's definition with factgenie's two
#   beside it, kappa and alpha, balanced accuracy against a majority), not the values, which belong
#   to another task, other categories and {glue:text}`n_examples` texts.
