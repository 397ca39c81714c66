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
# # Dataset-level agreement

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
import hotelcheckspan
from hotelcheckspan.analyses import dataset_level
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book.readings import dataset_level_agreement
from hotelcheckspan.reference import paper

plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
stage2 = dataset_level.stage2_examples(corpus)
STAGES = {"stage1": "Stage 1", "stage2": "Stage 2"}  # stage names as the tables show them
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# Before asking whether annotators marked the same errors, the paper compares what each
# human set and judge marked overall (Section 6.1). This chapter answers:
#
# 1. How many spans of each type did each judge mark? ([Table 3](table3))
# 2. On the {glue:text}`n_stage2` stage-2 examples, how do the four human sets and the judges compare?
#    ([Table 4](table4))
# 3. Does group B mark more than group A, and stage 2 less than stage 1? ([Section 6.1](effects))
# 4. Does the paper's own Table 4 support its claim that the checkbox wording made no significant
#    difference? ([Appendix B](appendix-b))
# 5. How are the error types distributed per human set and judge? ([Figure](shares))

# %% [markdown]
# (table3)=
# ## Judges on all examples (Table 3)
#
# Each cell reads *ours (paper)*. Avg len is the mean span length in words; the full table,
# with spans per error record and the paper's and our figures in separate columns, is in the
# dropdown below it.

# %%
t3 = dataset_level.table3(corpus, reported, paper.LLM_CAMPAIGNS)
tables.table3(t3)

# %%
tables.wide(t3, decimals={"paper avg len": 1, "avg len": 1})  # the paper prints one decimal

# %% [markdown]
# Totals: {glue:text}`t3_exact`; the largest gap is {glue:text}`t3_worst_name`, with
# {glue:text}`t3_worst_ours` spans against the paper's {glue:text}`t3_worst_paper`. The
# densities are another matter: the paper's spans per record for gpt-4o
# ({glue:text}`p_spr_gpt4o`) and gpt-4o (LS) ({glue:text}`p_spr_gpt4o_ls`)
# {glue:text}`short_reading` its totals divided by the {glue:text}`n_short_paper` short-split
# examples, not by all {glue:text}`n_examples_paper` (which gives {glue:text}`p_all_gpt4o` and
# {glue:text}`p_all_gpt4o_ls`), which suggests those two judges marked (almost) only the
# short split, or that their rates are Table 4's counts over the {glue:text}`n_stage2` stage-2
# examples; either way the caption's all examples do not give them (listed with
# [the paper's own inconsistencies](inconsistencies-02)). Here
# {glue:text}`short_shares` spans are on the short split, for {glue:text}`spr_gpt4o` and
# {glue:text}`spr_gpt4o_ls` spans per record over all records{glue:md}`short_why`.
# {glue:text}`records_reading` (see the checks [below](inconsistencies-02)).
#
# ```{glue:md} t3_note
# :format: myst
# ```

# %% [markdown]
# (table4)=
# ## Human sets and judges on the stage-2 examples (Table 4)
#
# Cells read *ours (paper)*.

# %%
t4 = dataset_level.table4(corpus, reported, paper.LLM_CAMPAIGNS)
tables.table4(t4)

# %% [markdown]
# The totals differ from the paper's by at most {glue:text}`t4_total_gap` spans
# ({glue:text}`t4_total_gap_name`); per type the largest gap is {glue:text}`t4_cell`, with
# {glue:text}`t4_cell_ours` against {glue:text}`t4_cell_paper`. The paper's gpt-4o has
# {glue:text}`t4_gpt4o_paper` spans on these examples and {glue:text}`t3_gpt4o_paper` on all of
# them (Table 3): nearly all on these, as its densities above suggested (see
# [the inconsistencies](inconsistencies-02)).
#
# ```{glue:md} t4_note
# :format: myst
# ```

# %% [markdown]
# (effects)=
# ## Stage and group effects (Section 6.1)
#
# The paper reports that group B marked about {glue:text}`p_b_more`% more than group A, that
# when group B was in the minority during a disagreement it was almost always because B flagged
# an additional error ({glue:text}`p_b_minority`% of those cases), that stage 2 marked
# {glue:text}`p_volume`% less than stage 1, and an inter-group agreement
# {glue:text}`p_agree_points` points higher in stage 2. The text does not name that agreement
# measure: Table 6's two group rows fit it with span F1, hard and not with soft (see the checks
# [below](inconsistencies-02)), so the comparison below uses span F1, hard of group A against group
# B; the table here adds agreement on whether an example has any error, which the paper does not
# report.

# %%
effects = dataset_level.group_effects(corpus)
tables.group_effects(effects)

# %% [markdown]
# Beside the text's figures, the same ratios computed from the paper's own Table 4 totals (the
# paper's value is then Table 4's arithmetic, not a figure it states):

# %%
f1_change = dataset_level.group_f1_change(corpus)
section61 = dataset_level.section61(effects, reported, dataset_level.b_minority(corpus), f1_change)
tables.versus(list(section61.itertuples(index=False, name=None)), corpus)

# %% [markdown]
# ```{glue:md} effects_note
# :format: myst
# ```

# %% [markdown]
# (appendix-b)=
# ## Groups A and B: "no significant difference" (Appendix B)
#
# Appendix B says the checkbox wording made no significant difference; Section 6.1 attributes a
# difference of about {glue:text}`p_b_more`% to it (listed with
# [the paper's own inconsistencies](inconsistencies-02)). The paper reports no test. Here are the
# tests a reader would run on the stage-2 examples, where both groups annotated every example in
# each stage: per example, B's span count against A's (Wilcoxon signed-rank, and a sign test on
# which group marked more), and a chi-square of the two groups' spans over the error types. In
# the table, the statistic is the mean difference B minus A per example (Wilcoxon), the share of
# untied examples where B marked more (sign test) or Pearson's chi-square; n counts the untied
# examples for the Wilcoxon and sign tests and the spans for the chi-square.

# %%
tests = dataset_level.group_tests(corpus)
tables.show(tests.replace({"stage": STAGES}), decimals={"statistic": 2})

# %% [markdown]
# At the {glue:text}`gt_alpha` level, {glue:text}`gt_paired` paired tests and
# {glue:text}`gt_types` type tests find a difference on this corpus (Wilcoxon p
# {glue:text}`gt_w1` in stage 1, {glue:text}`gt_w2` in stage 2).
#
# ```{glue:md} gt_note
# :format: myst
# ```
#
# The paper's own Table 4 allows tests without per-example data: a chi-square of A's against
# B's counts per type in each stage, and a test of their totals as Poisson counts (given the two
# totals, B's share is binomial with one half under equal rates); n counts spans. Both treat spans
# as independent, which spans of the same examples and annotators are not, and which way that
# errs is unknown: spans clustered within annotators spread the counts wider than the tests
# assume, which makes their p-values too small, while two groups annotating the same examples
# move together, which a paired test uses and which can make its p-value smaller (on this corpus
# the paired Wilcoxon gives p {glue:text}`gt_w1` in stage 1 and {glue:text}`gt_w2` in stage 2, the
# rate test on the same totals {glue:text}`gt_rate1` and {glue:text}`gt_rate2`). A paired test
# needs the release's per-example annotations.

# %%
paper_tests = dataset_level.paper_group_tests(reported)
tables.show(paper_tests.replace({"stage": STAGES}), decimals={"statistic": 2})

# %% [markdown]
# On Table 4's counts the type chi-square is {glue:text}`pt_chi1` in stage 1 (p
# {glue:text}`pt_chi1_p`, {glue:text}`pt_df` degrees of freedom) and {glue:text}`pt_chi2`
# in stage 2 (p {glue:text}`pt_chi2_p`): {glue:text}`pt_types` type tests and
# {glue:text}`pt_rates` rate tests fall below {glue:text}`gt_alpha`, {glue:text}`pt_reading`.
# This reading rests on the paper's figures alone, not on the stand-in; accounting for spans that
# are not independent draws could move these p-values either way, as above.

# %% [markdown]
# (shares)=
# ## Error types per human set and judge

# %% mystnb={"figure": {"caption": "Share of each error type among the spans of each human set and judge on the stage-2 examples, one bar each, on the loaded corpus (the simulated stand-in unless the banner above names another).", "name": "fig-type-shares"}}
plots.type_shares(dataset_level.campaign_table(corpus, stage2, by_group=True))

# %% [markdown]
# {glue:md}`shares_basis` {glue:text}`shares_reading`.

# %% [markdown]
# (inconsistencies-02)=
# ## The paper's figures, checked by rule
#
# Relations among the paper's figures that touch this chapter's (sums, shares, ratios, the kappa a
# vote histogram implies, what a count of clear examples allows, ...), each as the rule computes
# it beside what the paper prints, with the reading of the paper's words it takes and its verdict
# (`data/paper_relations.yaml`, checked by `hotelcheckspan.reference.checks`; the book's page on the
# paper lists them all). Open: those inconsistent under every reading the text allows, those that
# hold under one reading and fail under another, or fail under every reading the printed figures
# decide and are held open by one resting on what the paper does not print (both named), and
# statements a person reads as contradicting each other under every reading of their words; every
# check is in the list under them. Where this corpus comes close
# to a figure found inconsistent, that says nothing about which of the paper's numbers is right.

# %%
tables.inconsistencies("02_dataset_level_agreement")

# %% tags=["remove-input"]
readings.glue_all(
    dataset_level_agreement.readings(
        corpus, t3=t3, t4=t4, effects=effects, stage2=stage2, tests=tests, paper_tests=paper_tests, f1_change=f1_change
    )
)

# %% [markdown]
# ## Summary
#
# - {glue:md}`t4_basis` Table 4's own totals give group B {glue:text}`t4_b_more_pooled`% more spans than group A
#   over both stages, {glue:text}`t4_b_more_s1`% in stage 1 and {glue:text}`t4_b_more_s2`% in stage 2 (the text: about
#   {glue:text}`p_b_more`% across both stages), and stage 2 {glue:text}`t4_volume`% fewer spans
#   than stage 1, where the text has a reduction in "annotation volume" of {glue:text}`p_volume`%:
#   {glue:text}`volume_where` (see the checks above).
# - {glue:md}`appb_basis` Appendix B's "no significant difference" between the groups, tested on Table 4's counts:
#   {glue:text}`pt_types` type tests and {glue:text}`pt_rates` rate tests fall below
#   {glue:text}`gt_alpha`, {glue:text}`pt_reading` (with the caveat that spans are not
#   independent draws).
# - {glue:md}`groups_basis` {glue:text}`b_more_reading`: {glue:text}`b_more_pooled_pct`% over both
#   stages, {glue:text}`b_more_s1_pct`% in stage 1 and {glue:text}`b_more_s2_pct`% in stage 2,
#   against the {glue:text}`t4_b_more_pooled`%, {glue:text}`t4_b_more_s1`% and
#   {glue:text}`t4_b_more_s2`% of the paper's own Table 4 totals, which the stand-in's totals follow
#   ({glue:text}`b_text_reading`, "roughly" read as its checks read it, to the nearest ten).
#   Where a B set stands alone against the other sets, which agree, on whether an example has an
#   error (the paper's "B in the minority"; {glue:text}`b_minority_cases` such splits), B is the one
#   marking in {glue:text}`b_marking_pct`% of them (a group-A set alone: in
#   {glue:text}`a_marking_pct`% of {glue:text}`a_minority_cases`), {glue:text}`b_marking_reading`{glue:md}`b_marking_size`.
#
# ```{glue:md} b_note
# :format: myst
# ```
#
# - {glue:md}`extremes_basis` {glue:text}`most_name` marks most, {glue:text}`most_ratio` times the mean human set,
#   and {glue:text}`least_name` least ({glue:text}`least_spans`), {glue:text}`extremes_reading`;
#   the counts say nothing yet about whether anyone marked the *same* errors, which the next
#   two chapters ask.
