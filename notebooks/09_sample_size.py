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
# # How many examples does it take?

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
import numpy as np
import pandas as pd

import hotelcheckspan
from hotelcheckspan import annotator_sets, paths
from hotelcheckspan.analyses import dataset_level, example_level, impressions
from hotelcheckspan.analyses import sample_size as ss
from hotelcheckspan.analyses.judges import leaderboard
from hotelcheckspan.annotator_sets import HUMAN_SETS, groups_of, judges
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book import sample_size_plots as ssp
from hotelcheckspan.book.readings import sample_size as chapter
from hotelcheckspan.corpora import frame as F

plots.set_theme()
corpus = hotelcheckspan.load()
stage2 = dataset_level.stage2_examples(corpus)
llms = judges(corpus)  # the paper's five in the order of its Table 3
RESAMPLES = 1000
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# The paper compares LLMs as span annotators on {glue:text}`n_examples` examples and reads differences of
# a few F1 points. Would a smaller test set have led to the same conclusions, and how many examples does
# a comparison like this need? {cite:t}`shaib2024annotation` answer that question
# for summarisation systems by drawing many smaller test sets from the full one and reading the
# smallest, largest and average win rate over them: a size is enough when even the smallest and
# the largest lead to the full set's conclusion, that is, when every draw agrees. This chapter
# applies their method to span annotation, with one change of criterion: an order counts as
# reproduced where it holds in {glue:text}`level` of the test sets, a threshold of the book's own that
# Shaib et al. do not use (theirs, every draw, is its limit). The questions:
#
# 1. How often does a test set of n examples rank two judges as the full set does, by
#    span F1 and by balanced accuracy against the human majority? ([Ranking stability](stability))
# 2. From how many examples is each ranking stable with {glue:text}`level` probability, and how sure is that
#    number? ([Smallest stable n](smallest))
# 3. How many examples do the paper's own comparisons need, at the gaps its Table 6 reports?
#    ([The paper's gaps](paper-gaps))
# 4. How wide are the intervals of the agreement figures at a given n? ([Precision](widths))
# 5. How many ratings do the impression tests of Section 6.5 need, at the paper's effects? ([Power](power))
# 6. How do I plan my own campaign? ([Planning](planning))
# 7. What does the real public corpus say? ([The public corpus](public))
#
# Every measure is a function of per-example counts summed over the examples, so a test set
# is a weight vector over the examples and thousands of test sets are one matrix product (see
# the methods page). Everything is seeded.

# %% [markdown]
# (stability)=
# ## Ranking stability (Table 6 and Section 6.2)
#
# Each judge is scored on the {glue:text}`n_examples` stage-2 examples by span F1
# against each of the four human sets, averaged over them as Table 6 averages its
# pairs (hard: the type must match; soft: any type; the book's default span-F1 definition,
# {glue:text}`convention`), and by balanced accuracy (BACC) against
# the clear human majority on "any error" (all but one of the four sets agreeing, as in
# {chapter}`03`). Both prompts of gpt-4o and o3-mini are kept apart, which gives
# {glue:text}`n_pairs` pairs of {glue:text}`n_llms` judges. The full-set scores:

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
chapter.stability_table(within, within_sizes)

# %% mystnb={"figure": {"caption": "Share of the test sets of n examples that rank each pair of judges as the full stage-2 set does, one panel per pair: by span F1, hard and soft against the four human sets and by balanced accuracy against the human majority (colours). Dashed: subsets of the corpus (without replacement); solid: draws with replacement, extrapolating past the corpus size (dotted). The grey dashed line is the threshold, labelled on the y axis. A measure by which a pair is tied on the full set has no line (nothing to order), and the panel's title says so; lines at the top lie on top of each other.", "name": "fig-stability"}}
ssp.stability_curves(within, beyond, ss.THRESHOLD, corpus_size=N, order=llms)

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
tables.dropdown(tables.show(ss.readable(summary), decimals=3), "Every pair: the smallest stable n, with its interval")

# %% [markdown]
# Readings, per measure:
#
# - **Span F1, soft**: {glue:text}`soft_early` of the {glue:text}`n_pairs` pairs are ordered in
#   {glue:text}`level` of test sets from the smallest size tried ({glue:text}`smallest_n` examples). The
#   hardest is {glue:text}`soft_hard_pair` (a difference of {glue:text}`soft_hard_diff`), which
#   needs {glue:text}`soft_hard_n` examples drawn afresh (interval {glue:text}`soft_hard_ci`).
#   {glue:text}`soft_ties` {glue:text}`soft_single`
# - **Span F1, hard**: {glue:text}`hard_early` pairs are settled from {glue:text}`smallest_n`
#   examples; the hardest, {glue:text}`hard_hard_pair` (difference {glue:text}`hard_hard_diff`),
#   needs {glue:text}`hard_hard_n` (interval {glue:text}`hard_hard_ci`).
#   {glue:text}`hard_ties` {glue:text}`hard_single`
# - **BACC against the majority**: {glue:text}`bacc_early` pairs are settled from
#   {glue:text}`smallest_n` examples, and {glue:text}`bacc_beyond` pairs need more examples than
#   the corpus has (with replacement); the hardest, {glue:text}`bacc_hard_pair` (difference
#   {glue:text}`bacc_hard_diff`), needs {glue:text}`bacc_hard_n` (interval
#   {glue:text}`bacc_hard_ci`). {glue:text}`bacc_ties` Every judge's BACC lies within
#   {glue:text}`bacc_spread` of chance ({glue:text}`chance`). {glue:text}`bacc_chance` {glue:text}`bacc_single`
#
# {glue:md}`bacc_chance_note`
#
# Of the {glue:text}`n_measures` measures' hardest pairs, {glue:text}`prompt_pairs_hardest` are the two prompts of
# one model.
#
# {glue:md}`simulated_note`

# %% [markdown]
# (paper-gaps)=
# ## At the paper's own gaps
#
# The gaps above are this corpus' own. The paper's Table 6 reports span F1, soft and hard for the
# three models it compares (gemma-3, gpt-4o and o3-mini; its gpt-4o and o3-mini rows may pool both
# prompts), and a reading about the paper's comparisons rests on those gaps. We keep this corpus'
# spread of a test set's difference and centre it on the paper's gap: each drawn difference, less
# the full set's, plus the paper's gap (test sets drawn with replacement, {glue:text}`resamples` per
# size, on the planning grid of `examples_needed` up to {glue:text}`gap_max_n` examples, the same
# test sets for both gaps). The range is over the rounding of the paper's printed figures. The
# normal approximation (the gap over the per-example standard deviation of the difference, scaled
# by the square root of n, set to the normal quantile of the threshold) checks the resampling.

# %%
needs = ss.needs_at_paper_gaps(scores[:2], ss.planning_sizes(N), RESAMPLES, seed=10)
tables.dropdown(
    tables.show(chapter.gaps_table(needs, corpus), decimals={"paper's gap": 2, "this corpus' gap": 3}),
    "Every measure: the examples needed at the paper's gap and at this corpus'",
)

# %% [markdown]
# By span F1, soft the paper's closest pair is {glue:text}`soft_paper_pair`, a gap of
# {glue:text}`soft_paper_gap` ({glue:text}`soft_paper_range` over its rounding). It needs
# {glue:text}`soft_paper_n` examples ({glue:text}`soft_paper_n_range`; normal approximation
# {glue:text}`soft_paper_normal`), so the {glue:text}`n_examples` stage-2 examples are
# {glue:text}`soft_paper_word` for the paper's soft order. By span F1, hard the closest is
# {glue:text}`hard_paper_pair` (a gap of {glue:text}`hard_paper_gap`, {glue:text}`hard_paper_range`), which
# needs {glue:text}`hard_paper_n` ({glue:text}`hard_paper_n_range`; normal approximation
# {glue:text}`hard_paper_normal`): the stage-2 examples are {glue:text}`hard_paper_word` for the paper's
# hard order. The paper reports no balanced accuracy for its LLMs, so the BACC order has no paper gap
# to be read at. "≤ {glue:text}`gap_min_n`" marks a need at the grid's first size, where fewer examples may
# do. {glue:text}`normal_reading`
#
# {glue:md}`paper_gap_note`

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
chapter.widths_table(widths, [width_sizes[0], N, width_sizes[-1]])

# %% mystnb={"figure": {"caption": "Width of the interval against the number of examples (log-log): the humans' agreement (span F1, hard and soft, and Fleiss' kappa) in the first panel, then one panel per LLM for its raw agreement with the human majority, drawn over the other LLMs' lines in grey; the stage-2 corpus size dotted.", "name": "fig-widths"}}
ssp.interval_widths(widths, corpus_size=N)

# %% [markdown]
# (power)=
# ## Power of the impression tests (Section 6.5)
#
# The paper's two impression tests are a t-test of records without errors against records with
# errors (the paper names no variant; here Cohen's d, statsmodels' power and the resampled power
# all use Student's test, with the pooled variance) and the correlation of the error count with the
# impression. The paper reports t = {glue:text}`paper_t` and r = {glue:text}`paper_r` on its human
# records ({glue:text}`paper_records_source`); with
# the group sizes its rates imply, its t means Cohen's d = {glue:text}`paper_d`
# (`reference.checks.implied`). At these effects statsmodels' solvers (`TTestIndPower` with the
# paper's share of error-free records; `NormalIndPower` on Fisher's z of r) need
# {glue:text}`paper_t80` records for the t-test ({glue:text}`paper_t80_range` over the rounding of its
# figures) and {glue:text}`paper_r80` for the correlation ({glue:text}`paper_r80_range`) to reach
# {glue:text}`target` power: {glue:text}`power_word` the records the paper collected.

# %%
paper_effects = ss.paper_impression_effects()  # d from the paper's t and group sizes (reference.checks.implied)
paper_power = ss.analytic_power(paper_effects, range(10, 205, 5))
ratings = impressions.ratings(corpus)
power = ss.impression_power(ratings, [10, 15, 20, 30, 40, 50, 60, 80, 100, 150, 200], RESAMPLES, seed=5)
tables.show(chapter.power_table(ratings, paper_effects, corpus))

# %% [markdown]
# Beside the paper's effects, this corpus' own: its d of {glue:text}`d` is {glue:text}`d_vs_paper`
# the paper's, and on n records drawn with replacement from its {glue:text}`records` records the tests
# reach {glue:text}`target` power with about {glue:text}`t_n80` and {glue:text}`r_n80` records
# (statsmodels' solvers at its effects: {glue:text}`t_sm80` and {glue:text}`r_sm80`). Records are
# treated as independent, as the tests assume; {chapter}`07` shows that ratings cluster by annotator,
# so a campaign should count annotators as well as records.
#
# {glue:md}`power_note`
#
# The table below gives, per number of records, the share of {glue:text}`resamples` draws in which the
# test rejects (Resampled), the Wilson interval of that share for the Monte Carlo error of the
# draws (Monte Carlo low and high), and statsmodels' power at this corpus' effects (Statsmodels).

# %%
tables.dropdown(
    chapter.power_draws_table(power), "Every test and number of records: the resampled power and statsmodels'"
)

# %% mystnb={"figure": {"caption": "Power of the impression tests against the number of records, one panel per test: statsmodels' power at the paper's effects (red; Cohen's d implied by its t), and this corpus' resampled power (blue, with its Monte Carlo interval) and statsmodels' at this corpus' effects (blue dashed); the target power dashed grey and labelled on the y axis.", "name": "fig-power"}}
ssp.power_curves(power, paper_power)

# %% [markdown]
# (planning)=
# ## Planning a campaign
#
# `sample_size.examples_needed(corpus, judge_a, judge_b)` answers "how many examples do I need
# to tell these two judges apart?" on any corpus the package reads: it compares the two
# sides by span F1 against reference sets (or by BACC against their majority), draws
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
# {glue:text}`plan_reading` {chapter}`10`'s leaderboard {glue:text}`ch10_reading`
# {glue:text}`crossing_reading` An answer of this kind is a point on a slowly rising curve; its
# interval, not its last digits, is what a plan should use.

# %% tags=["hide-input"]
# chapter 10's leaderboard on the pair (its answer for a pair does not depend on the other judges in the
# run), and the pair's curve near the answers with many draws: why the answers differ
board = leaderboard(corpus, [plan["better"], plan["worse"]])
pair = summary[(summary["measure"] == "span F1, soft") & (summary["pair"] == f"{plan['better']} > {plan['worse']}")]
ch10 = board[(board["judge"] == plan["better"]) & (board["next"] == plan["worse"])]
answers = np.array([plan["n_needed"], *ch10["n_needed"], *pair["n_with_replacement"]])
answers = answers[np.isfinite(answers)]
near = [n for n in ss.planning_sizes(N) if answers.min() / 1.3 <= n <= answers.max() * 1.3]
pair_table = ss.judges_f1_table(corpus, [plan["better"], plan["worse"]], HUMAN_SETS, stage2, match="soft")
FINE = 20_000
fine = ss.stability(pair_table, near, FINE, seed=11, replace=True)
tables.show(
    fine[["n", "same_order", "low", "high"]],
    headers={"n": "Examples", "same_order": "Same order as the full set"},
    decimals=3,
    caption=f"{plan['better']} against {plan['worse']} by span F1, soft, {FINE:,} draws per size",
)

# %% [markdown]
# (public)=
# ## The public corpus
#
# The public "LLMs as span annotators" corpus of {chapter}`08` {cite:p}`kasner2026spanannotators` has many
# human annotators but only {glue:text}`public_examples` examples, so the within-corpus design can only go up to
# its size, and the with-replacement design extrapolates from very little. Its judges
# are compared by span F1 against every human annotator group (BACC is left out here: on so few
# examples its clear-majority decisions are few; {chapter}`08` reads it).
#
# {glue:text}`public_reading`

# %%
real = hotelcheckspan.load(paths.REAL_CORPUS)
report.corpus_banner(real, F.resolve(real))  # what this section rests on

# %%
real_llms = real.campaigns("model")
real_names = annotator_sets.names(real)  # its judges as the glossary names them, on every page
real_humans = [g for c in real.campaigns("human") for g in groups_of(real, c)]
real_scores = [ss.judges_f1_table(real, real_llms, real_humans, match=m) for m in ("hard", "soft")]
real_n = real_scores[0].n_examples
real_within = ss.stability(real_scores, range(3, real_n + 1), RESAMPLES, seed=7, replace=False)
real_sizes = np.unique(np.geomspace(3, 50 * real_n, 10).astype(int))
real_beyond = ss.stability(real_scores, real_sizes, RESAMPLES, seed=8, replace=True)
# fewer replicates than for the stand-in: 29 reference groups make each replicate 29 times the work
real_unc = ss.stable_n_uncertainty(real_scores, real_sizes, True, n_outer=N_OUTER // 2, n_inner=N_INNER // 2, seed=9)
real_summary = ss.stable_n_summary(real_within, real_beyond, real_unc)
tables.dropdown(
    tables.show(ss.readable(real_summary), decimals=3, names=real_names),
    "Every pair of the public corpus' judges: the smallest stable n, with its interval",
)

# %% mystnb={"figure": {"caption": "The public corpus of {chapter}`08`: share of the test sets of n texts that rank each pair of its judges as the full set does, one panel per pair, by span F1, hard and soft (colours). Dashed: subsets of the corpus; solid: draws with replacement past the corpus size (dotted). The grey dashed line is the threshold; lines at the top lie on top of each other.", "name": "fig-public-stability"}}
ssp.stability_curves(real_within, real_beyond, ss.THRESHOLD, corpus_size=real_n, order=real_llms, names=real_names)

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
        needs=needs,
        board=board,
        fine=fine,
        fine_draws=FINE,
        grid=beyond_sizes,
        paper_effects=paper_effects,
    ),
    names=real_names,  # the public corpus' judges (the stand-in's need no corpus to be named)
)

# %% [markdown]
# ## Summary
#
# - {glue:md}`close_basis` every pair of judges at least {glue:text}`gap_settled` apart in span F1,
#   soft, is ordered as on the full set by {glue:text}`smallest_n` examples ({glue:text}`shaib_found`).
#   Closer pairs are not: {glue:text}`close_pairs` need {glue:text}`close_n` examples or more by span F1, soft,
#   and the uncertainty of that need is itself wide. {glue:text}`gap_split` A ranking of judges
#   on a corpus of this size should report how stable each pair's order is, not only the scores.
# - {glue:md}`gaps_basis` at the paper's own gaps (Table 6), with the stand-in's spread between
#   examples (the paper reports none), the {glue:text}`n_examples` stage-2 examples would be, for the
#   soft order of the three models the paper compares, {glue:text}`soft_paper_word`; for their hard
#   order they would be {glue:text}`hard_paper_word` (the pair {glue:text}`hard_paper_pair` would need
#   {glue:text}`hard_paper_n` examples, {glue:text}`hard_paper_n_range` over the rounding). The spread
#   is simulated, so this rehearses the question rather than answers it for the paper's data: on the
#   real examples, which may spread more or less, the answer may differ either way.
# - {glue:md}`bacc_basis` balanced accuracy against the human majority ranks {glue:text}`bacc_vs_soft` span F1, soft
#   (the median pair needs {glue:text}`bacc_median` examples against {glue:text}`soft_median`): every
#   judge's BACC lies within {glue:text}`bacc_spread` of chance ({glue:text}`chance`), so the gaps
#   between them are small. {glue:text}`bacc_chance` {glue:md}`bacc_chance_short` {glue:text}`bacc_rest`
# - {glue:md}`power_basis` at the paper's effects the impression tests reach {glue:text}`target` power with
#   {glue:text}`paper_t80` and {glue:text}`paper_r80` records, {glue:text}`power_word` the ratings the paper
#   collected.
# - `sample_size.examples_needed` answers the planning question for any pair of sides
#   on any corpus the package reads.
