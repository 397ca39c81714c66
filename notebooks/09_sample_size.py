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
# # How many examples does it take?
#
# ## Overview
#
# The paper compares LLMs as span annotators on {glue:text}`n_examples` examples and reads differences of
# a few F1 points. Would a smaller test set have led to the same conclusions, and how many examples does
# a comparison like this need? {cite:t}`shaib2024annotation` answer that question
# for summarisation systems by drawing many smaller test sets from the full one and counting how
# often they agree with it. This chapter applies their method to span annotation:
#
# 1. How often does a test set of n examples rank two LLM annotators as the full set does, by
#    span F1 and by balanced accuracy against the human majority? ([Ranking stability](stability))
# 2. From how many examples is each ranking stable with {glue:text}`level` probability, and how sure is that
#    number? ([Smallest stable n](smallest))
# 3. How wide are the intervals of the agreement figures at a given n? ([Precision](widths))
# 4. How many ratings do the impression tests of Section 6.5 need? ([Power](power))
# 5. How do I plan my own campaign? ([Planning](planning))
# 6. What does the real public corpus say? ([The public corpus](public))
#
# Every measure is a function of per-example counts summed over the examples, so a test set
# is a weight vector over the examples and thousands of test sets are one matrix product (see
# the methods page). Everything is seeded.

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

# %%
import numpy as np
import pandas as pd

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import dataset_level, example_level, impressions
from hotelcheckspan.analyses import sample_size as ss
from hotelcheckspan.annotator_sets import HUMAN_SETS, groups_of, judges
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book import sample_size_plots as ssp
from hotelcheckspan.book.readings import sample_size as chapter

plots.set_theme()
corpus = hotelcheckspan.load()
stage2 = dataset_level.stage2_examples(corpus)
llms = judges(corpus)
RESAMPLES = 1000
report.corpus_banner(corpus)

# %% [markdown]
# (stability)=
# ## Ranking stability (Table 6 and Section 6.2)
#
# Each LLM campaign is scored on the {glue:text}`n_examples` stage-2 examples by span F1
# against each of the four human annotator sets, averaged over them as Table 6 averages its
# pairs (hard: the type must match; soft: any type; the book's default span-F1 definition,
# {glue:text}`convention`), and by balanced accuracy (BACC) against
# the clear human majority on "any error" (all but one of the four sets agreeing, as in
# {chapter}`03`). Both prompts of gpt-4o and o3-mini are kept apart, which gives
# {glue:text}`n_pairs` pairs of {glue:text}`n_llms` campaigns. The full-set scores:

# %%
scores = [ss.judges_f1_table(corpus, llms, HUMAN_SETS, stage2, match=m) for m in ("hard", "soft")]
scores.append(ss.majority_table(corpus, llms, HUMAN_SETS, stage2, measure="bacc"))
N = scores[0].n_examples
full = pd.DataFrame({t.measure: t.full() for t in scores}, index=scores[0].systems).rename_axis("LLM").reset_index()
tables.show(full, decimals=3)

# %% [markdown]
# We then draw {glue:text}`resamples` test sets of n examples for each n, in two designs:
#
# - **without replacement**: subsets of the corpus, n from {glue:text}`smallest_n` up to all
#   {glue:text}`n_examples`. This asks whether a smaller test set *taken from this one* reaches
#   the same order; at the full size every test set is the full set itself, so the answer is
#   certain there.
# - **with replacement**: the corpus stands in for the population and each test set is a fresh
#   draw of n examples from it, so n can go beyond the corpus (to {glue:text}`max_n`). This is
#   the design for planning: it asks whether a *new* test set of n examples like these would
#   reproduce the order, and it does not become certain at the corpus size.
#
# {cite:t}`shaib2024annotation` sample their smaller test sets "with replacement", which may mean
# within a test set (the second design) or only between test sets (the first); the two answer
# different questions, so the chapter shows both.
#
# A test set "ranks the pair as the full set" when its difference has the full set's sign; a
# tie, or a pair tied on the full set, never counts as ranked.

# %%
within_sizes = [*range(25, N, 25), N]
beyond_sizes = np.unique(np.geomspace(25, 4 * N, 11).astype(int))
within = ss.stability(scores, within_sizes, RESAMPLES, seed=0, replace=False)
beyond = ss.stability(scores, beyond_sizes, RESAMPLES, seed=1, replace=True)
curves = within.pivot_table(index=["measure", "pair"], columns="n", values="same_order", sort=False).reset_index()
tables.show(curves.rename(columns=str), decimals=3)

# %% mystnb={"figure": {"caption": "Share of the test sets of n examples that rank each pair of LLM campaigns as the full stage-2 set does, by hard and soft span F1 against the four human sets and by balanced accuracy against the human majority. Left: subsets of the corpus (without replacement); right: draws with replacement, extrapolating past the corpus size (dotted). Dashed: 95%.", "name": "fig-stability"}, "image": {"alt": "Six panels of stability curves, one line per pair of LLM campaigns; most lines sit at 1 from the smallest n, a few rise slowly towards the 95% line."}}
ssp.stability_curves(within, beyond, ss.THRESHOLD, corpus_size=N)

# %% [markdown]
# (smallest)=
# ## Smallest stable n
#
# For each pair, the smallest n from which the order is reproduced in at least {glue:text}`level` of test sets
# (at that n and every larger one on the grid). Beside the point estimate, its uncertainty: the
# whole with-replacement procedure repeated on {glue:text}`n_outer` bootstrap replicates of the
# corpus ({glue:text}`n_inner` test sets per size each); the interval holds the central
# {glue:text}`level` of the replicates' answers, "> {glue:text}`max_n`" where replicates never get
# there. The Monte Carlo error of a single curve is small beside it (Wilson half-width at most
# {glue:text}`mc_halfwidth` at {glue:text}`resamples` draws).

# %%
N_OUTER, N_INNER = 100, 200
uncertainty = ss.stable_n_uncertainty(scores, beyond_sizes, replace=True, n_outer=N_OUTER, n_inner=N_INNER, seed=2)
summary = ss.stable_n_summary(within, beyond, uncertainty)
tables.show(ss.readable(summary), decimals=3)

# %% [markdown]
# Readings, per measure:
#
# - **Soft span F1**: {glue:text}`soft_early` of the {glue:text}`n_pairs` pairs are ordered in
#   {glue:text}`level` of test sets from the smallest size tried ({glue:text}`smallest_n` examples). The
#   hardest is {glue:text}`soft_hard_pair` (a difference of {glue:text}`soft_hard_diff`), which
#   needs {glue:text}`soft_hard_n` examples drawn afresh (interval {glue:text}`soft_hard_ci`).
#   {glue:text}`soft_ties`
# - **Hard span F1**: {glue:text}`hard_early` pairs are settled from {glue:text}`smallest_n`
#   examples; the hardest, {glue:text}`hard_hard_pair` (difference {glue:text}`hard_hard_diff`),
#   needs {glue:text}`hard_hard_n` (interval {glue:text}`hard_hard_ci`).
#   {glue:text}`hard_ties`
# - **BACC against the majority**: {glue:text}`bacc_early` pairs are settled from
#   {glue:text}`smallest_n` examples, and {glue:text}`bacc_beyond` pairs need more examples than
#   the corpus has (with replacement); the hardest, {glue:text}`bacc_hard_pair` (difference
#   {glue:text}`bacc_hard_diff`), needs {glue:text}`bacc_hard_n` (interval
#   {glue:text}`bacc_hard_ci`). {glue:text}`bacc_ties`
#
# The order of the three models the paper compares (gemma-3, gpt-4o and o3-mini with their
# default prompts) by soft span F1 needs at most {glue:text}`paper_trio_n` examples, with an
# upper bound of {glue:text}`paper_trio_hi`: the {glue:text}`n_examples` examples are
# {glue:text}`paper_trio_word` for it. By BACC the same three need up to {glue:text}`paper_trio_bacc_n` (upper bound
# {glue:text}`paper_trio_bacc_hi`). Of the {glue:text}`n_measures` measures' hardest pairs,
# {glue:text}`prompt_pairs_hardest` are the two prompts of one model.
#
# {glue:md}`simulated_note`

# %% [markdown]
# (widths)=
# ## Precision of the agreement figures
#
# How wide is the {glue:text}`level` interval of a figure computed on n examples? For each n we
# draw {glue:text}`resamples` sets with replacement and take the central {glue:text}`level` of the
# figure's values: human-human span F1 (the mean over the six pairs of human sets, hard and soft),
# Fleiss' kappa of the four human sets on "any error", and each LLM's raw agreement with the
# majority (Section 6.2). On the full set the soft human-human F1 interval is
# {glue:text}`w_soft_full` wide. Its width falls with n at a log-log slope of
# {glue:text}`w_slope`: the intervals {glue:text}`square_root`, and halving one takes about
# {glue:text}`w_ratio` times the examples.
# Fleiss' kappa, {glue:text}`kappa`, has an interval {glue:text}`w_kappa_full` wide at the
# full size, which is {glue:text}`kappa_word` to tell it from zero.

# %%
human_tables = [ss.human_f1_table(corpus, HUMAN_SETS, stage2, match=m) for m in ("hard", "soft")]
human_tables.append(ss.fleiss_table(example_level.marks(corpus, HUMAN_SETS, stage2), examples=stage2))
agree = ss.majority_table(corpus, llms, HUMAN_SETS, stage2, measure="agreement")
width_sizes = np.unique(np.r_[np.geomspace(25, 4 * N, 9).astype(int), N])  # the corpus size on the grid
widths = pd.concat(
    [
        ss.interval_widths(human_tables, width_sizes, RESAMPLES, seed=3),
        ss.interval_widths(agree, width_sizes, RESAMPLES, seed=4),
    ],
    ignore_index=True,
)
shown_widths = widths[widths["n"].isin([width_sizes[0], N, width_sizes[-1]])]
shown_widths = shown_widths.pivot_table(index=["measure", "system"], columns="n", values="width", sort=False)
tables.show(shown_widths.reset_index().rename(columns=str), decimals=3)

# %% mystnb={"figure": {"caption": "Width of the 95% interval against the number of examples (log-log), for human-human span F1, Fleiss' kappa and each LLM's raw agreement with the human majority; the stage-2 corpus size dotted.", "name": "fig-widths"}, "image": {"alt": "Straight falling lines on log-log axes, one per agreement figure, all with slope about minus one half."}}
ssp.interval_widths(widths, corpus_size=N)

# %% [markdown]
# (power)=
# ## Power of the impression tests (Section 6.5)
#
# The paper's two impression tests, Welch's t-test of records without errors against records
# with errors and the correlation of the error count with the impression, on n records drawn
# with replacement from the {glue:text}`records` human records; beside the resampled power,
# statsmodels' analytic power (`TTestIndPower` at the full set's Cohen's d of
# {glue:text}`d` and its share of error-free records; `NormalIndPower` on Fisher's z of
# r = {glue:text}`r`). The tests reach {glue:text}`target` power with about {glue:text}`t_n80` and
# {glue:text}`r_n80` records (resampled; statsmodels' solvers: {glue:text}`t_sm80` and
# {glue:text}`r_sm80`), {glue:text}`power_word` the {glue:text}`records` collected. Records are
# treated as independent, as the tests assume; {chapter}`07` shows that ratings cluster by
# annotator, so a campaign should count annotators as well as records.

# %%
ratings = impressions.ratings(corpus)
power = ss.impression_power(ratings, [10, 15, 20, 30, 40, 50, 60, 80, 100, 150, 200], RESAMPLES, seed=5)
tables.show(power, decimals=3)

# %% mystnb={"figure": {"caption": "Power of the impression tests against the number of records: resampled (solid, with its Monte Carlo interval) and statsmodels' analytic power (dashed); 80% dashed grey.", "name": "fig-power"}, "image": {"alt": "Two rising power curves, resampled and analytic close together, crossing 80% below a hundred records."}}
ssp.power_curves(power)

# %% [markdown]
# (planning)=
# ## Planning a campaign
#
# `sample_size.examples_needed(corpus, judge_a, judge_b)` answers "how many examples do I need
# to tell these two judges apart?" on any corpus the package reads: it compares the two
# annotator sets by span F1 against reference sets (or by BACC against their majority), draws
# test sets with replacement up to {glue:text}`max_factor` times the corpus, and returns the smallest n from
# which the full corpus' order holds in {glue:text}`level` of them, with its interval. For the two gpt-4o
# prompts, a pair that differs by prompt only:

# %%
plan = ss.examples_needed(
    corpus,
    "gpt-4o",
    "gpt-4o-ls",
    HUMAN_SETS,
    measure="span F1",
    match="soft",
    examples=stage2,
    n_resamples=RESAMPLES,
    n_outer=50,
    n_inner=200,
    seed=6,
)
tables.show(ss.readable_plan(plan), decimals=3)

# %% [markdown]
# {glue:text}`plan_reading`

# %% [markdown]
# (public)=
# ## The public corpus
#
# The public "LLMs as span annotators" corpus of {chapter}`08` {cite:p}`kasner2026spanannotators` has many
# human annotators but only {glue:text}`public_examples` examples, so the within-corpus design can only go up to
# its size, and the with-replacement design extrapolates from very little. Its LLM campaigns
# are compared by span F1 against every human annotator group (BACC is left out: a clear
# majority among many annotators is a different notion from the paper's rule for four).
#
# {glue:text}`public_reading`

# %%
real = hotelcheckspan.load(paths.REAL_CORPUS)
real_llms = real.campaigns("model")
real_humans = [g for c in real.campaigns("human") for g in groups_of(real, c)]
real_scores = [ss.judges_f1_table(real, real_llms, real_humans, match=m) for m in ("hard", "soft")]
real_n = real_scores[0].n_examples
real_within = ss.stability(real_scores, range(3, real_n + 1), RESAMPLES, seed=7, replace=False)
real_sizes = np.unique(np.geomspace(3, 50 * real_n, 10).astype(int))
real_beyond = ss.stability(real_scores, real_sizes, RESAMPLES, seed=8, replace=True)
# fewer replicates than for the stand-in: 29 reference groups make each replicate 29 times the work
real_unc = ss.stable_n_uncertainty(real_scores, real_sizes, True, n_outer=N_OUTER // 2, n_inner=N_INNER // 2, seed=9)
real_summary = ss.stable_n_summary(real_within, real_beyond, real_unc)
tables.show(ss.readable(real_summary), decimals=3)

# %% mystnb={"figure": {"caption": "The public corpus of chapter 08: share of the test sets of n texts that rank each pair of its LLM annotators as the full set does (left: subsets of the corpus; right: draws with replacement past the corpus size, dotted). With many pairs, the colour names a pair's first LLM and the line style its second. Dashed: 95%.", "name": "fig-public-stability"}, "image": {"alt": "Stability curves for every pair of the public corpus' LLM annotators, with and without replacement; lines coloured by the first LLM and dashed by the second."}}
ssp.stability_curves(real_within, real_beyond, ss.THRESHOLD, corpus_size=real_n)

# %% tags=["remove-input"]
readings.glue_all(
    chapter.readings(
        corpus,
        scores=scores,
        within=within,
        beyond=beyond,
        summary=summary,
        widths=widths,
        kappa_table=human_tables[2],
        ratings=ratings,
        power=power,
        n_resamples=RESAMPLES,
        n_outer=N_OUTER,
        n_inner=N_INNER,
        real=real,
        real_summary=real_summary,
        real_beyond=real_beyond,
        plan=plan,
    )
)

# %% [markdown]
# ## Summary
#
# - Every pair of LLM campaigns further apart in soft span F1 than {glue:text}`gap_unsettled` is
#   ordered as on the full set by {glue:text}`smallest_n` examples, as Shaib et al. found for
#   summarisation systems; the {glue:text}`n_examples` stage-2 examples are
#   {glue:text}`paper_trio_word` for the order of the three models the paper compares.
# - Closer pairs are not: {glue:text}`close_pairs` need {glue:text}`close_n` examples or more
#   by soft F1, and the uncertainty of that need is itself wide. A ranking of LLM annotators on
#   a corpus of this size should report how stable each pair's order is, not only the scores.
# - Balanced accuracy against the human majority ranks {glue:text}`bacc_vs_soft` soft span F1
#   (the median pair needs {glue:text}`bacc_median` examples against {glue:text}`soft_median`):
#   it rests on the examples with a clear majority only, and on few majority errors among them.
# - The impression tests reach {glue:text}`target` power with {glue:text}`power_word` the
#   ratings collected. Interval widths {glue:text}`square_root` (log-log slope
#   {glue:text}`w_slope`): halving an interval costs about {glue:text}`w_ratio` times the examples.
# - `sample_size.examples_needed` answers the planning question for any pair of annotator sets
#   on any corpus the package reads.
