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
# # Example-level agreement

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
from hotelcheckspan.analyses import dataset_level, example_level
from hotelcheckspan.annotator_sets import HUMAN_SETS, judges
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book.readings import example_level_agreement
from hotelcheckspan.reference import paper

N_BOOT, LEVEL = 1000, 0.95
plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
stage2 = dataset_level.stage2_examples(corpus)
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# Do annotators find errors in the *same summaries*? On the {glue:text}`n_stage2` stage-2
# examples every summary has {glue:text}`n_raters` human annotations (the human sets St. 1A, St. 1B,
# St. 2A and St. 2B). This chapter answers:
#
# 1. How many of the annotators vote "error" per example and type? ([Table 5](table5))
# 2. How much of that agreement is beyond chance? ([Fleiss' kappa, Krippendorff's alpha and Gwet's AC1](chance))
# 3. How well do LLMs match the human majority, and does raw agreement tell the truth?
#    ([Section 6.2](llms))
# 4. When the annotators agree that a summary is faulty, do they agree on where?
#    ([Section 7](masking))
#
# Intervals are {glue:text}`level_pct`% percentile bootstrap intervals over examples
# ({glue:text}`n_boot` resamples, seeded), except for recall, whose interval is exact
# (Clopper-Pearson) given the majority's errors.

# %% [markdown]
# (table5)=
# ## Error votes per example (Table 5)
#
# A vote is an annotator marking at least one span of the type in the example; two annotators
# can vote for the same type having marked different spans. Shares are percentages of the
# examples.

# %%
marks = example_level.marks(corpus, HUMAN_SETS, stage2)
votes = example_level.votes(marks)
t5 = example_level.vote_table(votes)
tables.show(t5, decimals=1)

# %% [markdown]
# Beside the paper, vote by vote, and as one distance per type: the total variation distance
# between the two distributions (half the summed differences of the shares; zero means the same
# distribution).

# %%
example_level_agreement.table5_beside_paper(t5, corpus)

# %%
distance = example_level.vote_distance(t5, reported["table5_example_level_votes"])
example_level_agreement.vote_distance_table(distance, corpus)

# %% [markdown]
# (chance)=
# ## Agreement beyond chance
#
# The paper reads Table 5 directly. Chance-corrected coefficients say how far the annotators
# agree beyond what their marking rates alone would produce (zero is chance, one is perfect):
# Fleiss' kappa, Krippendorff's alpha and Gwet's AC1, which counts chance differently where errors
# are rare ([Kappa and AC1 when errors are rare](kappa-paradox) shows how).

# %%
rel_ci = example_level.reliability_ci(marks, n_boot=N_BOOT, seed=0, level=LEVEL)
tables.show(example_level.reliability_summary(rel_ci))

# %% [markdown]
# (llms)=
# ## LLMs against the human majority (Section 6.2)
#
# Following the paper, an example counts where all annotators but at most one agree; the
# majority label is then the truth. Beside the paper's raw agreement we report balanced
# accuracy (BACC, the mean of recall on error and on no-error, as in the ABSINTH paper
# {cite:p}`mascarell2024absinth`). A model that never marks anything gets a BACC of one half
# whatever the class balance.
#
# Recall, and the error half of BACC, rest on the examples the majority marks as erroneous,
# and per type there are very few: {glue:text}`maj_inc` for Incorrect,
# {glue:text}`maj_mis` for Misleading and {glue:text}`maj_nc` for Not Checkable, against
# {glue:text}`maj_any` for any error. The "majority errors" column gives that sample per row;
# with a handful of examples the intervals span most of the scale, and per-type recall says
# next to nothing.

# %%
models = judges(corpus)
llm = example_level.models_vs_majority(corpus, models, examples=stage2, n_boot=N_BOOT, seed=0)
tables.folded(
    tables.show(example_level.alignment_summary(llm)),
    ["Model", "Error type", "Balanced accuracy [95% CI]", "Raw agreement [95% CI]"],
    "Every column: clear examples, majority errors, the model's marks and recall",
)

# %% [markdown]
# ```{glue:md} bacc_dashes
# :format: myst
# ```

# %% [markdown]
# The paper reports raw agreement only:

# %%
example_level_agreement.alignment_beside_paper(llm, corpus)

# %% mystnb={"figure": {"caption": "The conservative alignment paradox: raw agreement with the human majority against balanced accuracy, per model, with bootstrap intervals at the level the overview gives.", "name": "fig-paradox"}}
plots.paradox(llm)

# %% [markdown]
# (kappa-paradox)=
# ## Kappa and AC1 when errors are rare
#
# The reliability table above shows Gwet's AC1 beside kappa and alpha. All three subtract
# from the observed agreement the agreement expected by chance, and they part where most
# examples have no error of a type: kappa expects chance agreement $\pi^2 + (1-\pi)^2$,
# near one when the share $\pi$ of error votes is small, AC1 expects $2\pi(1-\pi)$, near
# zero (the "kappa paradox", see the methods page). The terms per type:

# %%
prevalence = example_level.prevalence(marks)
tables.prevalence(prevalence)

# %% [markdown]
# On {glue:text}`kp_type`, {glue:text}`kp_share`% of the annotators' decisions are error votes.
# The annotators agree on {glue:text}`kp_pa` of their pairs of decisions there; kappa expects
# {glue:text}`kp_pe_kappa` by chance and so is {glue:text}`kp_kappa`, AC1 expects
# {glue:text}`kp_pe_ac1` and is {glue:text}`kp_ac1`, just {glue:text}`kp_ac1_vs_pa` the observed
# agreement. AC1 is above kappa for {glue:text}`kp_above` types, and the gap is widest for
# {glue:text}`kp_share_gap`. The two answer different questions: kappa asks whether the annotators agree on
# *which* examples have an error, AC1 also credits their agreement that most have none.

# %% [markdown]
# (masking)=
# ## Does example-level agreement mask span-level disagreement? (Section 7)
#
# The paper's conclusion says that example-level agreement often masks disagreement visible at the
# span level, without showing it per example. (Section 6.3 puts the annotators' disagreement
# mainly in labels rather than in which parts are problematic; the checks [below](inconsistencies-03)
# set the two statements side by side.) Per example: how many of the
# {glue:text}`n_raters` human sets marked an error of any type, and how far the sets that marked
# agree on *where*: the span F1 of each pair of them on that example (character overlap as in
# {chapter}`04`; soft ignores the type, hard requires it), averaged over the pairs. We call a mean
# below {glue:text}`mk_threshold` low: a pair's F1 is the characters both marked over the mean of
# what each marked, so below it the two share less than half of what one of them marks on average.

# %%
masked = {match: example_level.masking(corpus, examples=stage2, match=match) for match in ("soft", "hard")}
masking = example_level.masking_table(masked, threshold=example_level.MASKING_THRESHOLD)
tables.show(masking, decimals={"below_threshold_pct": 0})

# %% [markdown]
# Of the {glue:text}`mk_four` examples all {glue:text}`mk_top` sets call faulty, the sets'
# mean pairwise span F1, soft is below {glue:text}`mk_threshold` on {glue:text}`mk_four_below`
# (median {glue:text}`mk_four_median`), {glue:text}`mk_reading`{glue:text}`mk_four_ties`; on {glue:text}`mk_none_shared`
# at least one pair of sets shares no marked character at all, and requiring the same type,
# {glue:text}`mk_four_below_hard` fall below it. Over all {glue:text}`mk_multi` examples with two
# or more error votes, {glue:text}`mk_multi_below` are below it, {glue:text}`mk_multi_share` of
# them{glue:text}`mk_multi_ties`.
#
# ```{glue:md} mk_note
# :format: myst
# ```

# %% [markdown]
# (inconsistencies-03)=
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
tables.inconsistencies("03_example_level_agreement")

# %% tags=["remove-input"]
readings.glue_all(
    example_level_agreement.readings(
        corpus,
        stage2=stage2,
        votes=votes,
        t5=t5,
        distance=distance,
        rel_ci=rel_ci,
        llm=llm,
        prevalence=prevalence,
        masked=masked,
        threshold=example_level.MASKING_THRESHOLD,
        n_boot=N_BOOT,
        level=LEVEL,
    )
)

# %% [markdown]
# ## Summary
#
# - {glue:md}`votes_basis` in the paper's Table 5, {glue:text}`share_12_paper`% of the examples get one or two
#   "error" votes of any type out of {glue:text}`n_raters` ({glue:text}`share_12`% on this corpus):
#   agreement on *whether* a summary is faulty is weak, and the chance-corrected coefficients make
#   that explicit. Kappa for a fixed number of raters voting yes or no follows from the vote
#   histogram alone, so the paper's own Table 5 fixes it: there {glue:text}`paper_top_kappa_type` is
#   highest ({glue:text}`paper_kappa_order`, {glue:text}`level_pct`% bootstrap intervals over the
#   examples the table counts), and {glue:text}`paper_chance_types`. On this corpus, whose votes were
#   fitted to that table within a distance, {glue:text}`top_kappa_type` gets the highest kappa
#   ({glue:text}`top_kappa`), and {glue:text}`chance_types`: {glue:text}`kappa_vs_paper`, so the
#   paper's figures are the ones to read.
# - {glue:md}`paradox_basis` the conservative alignment paradox: {glue:text}`top_agree_who` the
#   highest per-type agreement ({glue:text}`top_agree`) and a balanced accuracy of
#   {glue:text}`top_agree_bacc`, {glue:text}`top_agree_reading`. On any error,
#   {glue:text}`top_recall_sentence`. Per type, with {glue:text}`maj_pooled` majority errors in
#   all, {glue:text}`pooled_recall_sentence`.
# - {glue:md}`masking_basis` Section 7's masking, per example: of the {glue:text}`mk_four` examples all
#   {glue:text}`mk_top` sets call faulty, {glue:text}`mk_four_below` have a mean pairwise span F1,
#   soft, below {glue:text}`mk_threshold`, {glue:text}`mk_reading`{glue:text}`mk_four_ties` (on this corpus; the note
#   under [the section](masking) says what that is worth).
# - {glue:md}`tvd_basis` this corpus' vote distributions lie at a total variation distance of {glue:text}`tvd_min` to
#   {glue:text}`tvd_max` from Table 5's.
#
# ```{glue:md} sim_table5
# :format: myst
# ```
