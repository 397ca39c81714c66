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
# # Data composition

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
from hotelcheckspan.book.readings import data_composition
from hotelcheckspan.reference import paper

plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# What the corpus holds before anyone agrees or disagrees about it. This chapter answers:
#
# 1. How many examples, splits and annotation records are there? ([Sizes](sizes), Sections 3.3 and 4.3)
# 2. How were the stage-2 annotators chosen, and what can be checked of it? ([Qualification](qualification), Section 4.3)
# 3. How long are the descriptions and summaries? ([Lengths](lengths), Section 3.3)
# 4. How many sources feed each description, and what does de-duplication remove?
#    ([Sources](sources), Section 3.2)
# 5. How long are the annotated spans, and of which types? ([Spans](spans), Section 4.4 and Table 2)
#
# Every figure of these sections that a corpus can show sits beside ours in a "paper vs. this
# corpus" table.

# %% [markdown]
# (sizes)=
# ## Sizes and splits (Sections 3.3 and 4.3)
#
# Stage 1 annotated every example twice (groups A and B); stage 2 annotated
# {glue:text}`n_stage2` examples of the short split twice more. In this corpus every model
# campaign has one record per example, as Table 3's caption and Section 5 say the campaigns ran.
# The paper prints no count of records, human or LLM; the figures beside ours are the ones the
# release's README gives. Read as each campaign's total over the records it has, Table 3's own
# rates put {glue:text}`readme_decomposition`, {glue:text}`readme_reading` the README's count of
# LLM records, {glue:text}`readme_other`. Table 3's caption runs every campaign on all examples:
# {glue:text}`t3_rates_said` (see [the paper's own inconsistencies](inconsistencies-01)). Nor does the paper say how many people
# annotated in stage 2, only how many candidates qualified for it (see [Qualification](qualification)):
# beside our count of stage-2 annotators stands that number, an upper bound, not a count of the same thing.

# %%
tables.sizes(dataset_level.sizes(corpus))

# %%
shape = data_composition.shape_rows(corpus)
tables.versus(shape, corpus)

# %% [markdown]
# (qualification)=
# ## Qualification for stage 2 (Section 4.3)
#
# Stage 2 took its annotators from a qualification task (the attention checks of stage 1 and
# examples set aside from the short split; Section 4.3 says each had a reference error, though one
# attention check is the error-free example: a contradiction if "reference error" means a planted
# error, none if it means the reference answer, as the partial points for the "no errors" checkbox
# suggest). Of {glue:text}`q_candidates` candidates,
# {glue:text}`q_qualified` qualified; the pass rule was {glue:text}`q_rule`, while Section 9 pays
# its bonus above {glue:text}`q_bonus_above` points: one threshold worded twice, or a pass threshold
# and a higher bonus threshold, depending on the reading (see [the paper's own checks](inconsistencies-01)).

# %%
qualification = dataset_level.qualification(reported)
tables.qualification(qualification)

# %% [markdown]
# A pass rate of {glue:text}`q_rate` with a Wilson interval from {glue:text}`q_low` to
# {glue:text}`q_high`: so few candidates pin the rate down only roughly. What this book can check
# is that arithmetic, the two wordings of the rule, and that stage 2 had no more annotators than
# qualified: this corpus has {glue:text}`q_annotators` distinct stage-2 annotators,
# {glue:text}`q_annotators_reading` the qualified count{glue:md}`q_annotators_note`.
#
# What it cannot check: who qualified and with what score. The paper gives no scores, and the
# release's extra file, described as attention checks and qualification items
# ({glue:text}`extra_examples` examples, {glue:text}`extra_records` records and
# {glue:text}`extra_spans` spans by its README), has a schema that cannot be read from here, so no
# reader of this package loads it. Nor do its counts fit the task Section 4.3 describes: its
# {glue:text}`extra_examples` examples are {glue:text}`extra_items_reading` the
# {glue:text}`q_items` qualification items, and its {glue:text}`extra_records` records
# {glue:text}`extra_records_reading` the {glue:text}`q_all_records` that every candidate answering
# every item would leave. Its records per example are {glue:text}`extra_per_item`,
# {glue:text}`extra_whole`, so not every item in it was seen by the same number of annotators. On
# the real release, that file might give the candidates' scores against the reference errors (if it
# holds every candidate's answers, which its counts leave open), the pass rate under either wording
# of the rule, and whether a candidate's score predicts how well they agree with the others in
# stage 2. Whether qualifying made stage 2 better is another
# question this corpus cannot answer: stage 2 also differs in its examples' length, its batches
# and its recruitment filter, so {chapter}`02`'s stage comparison does not isolate the task.
#
# ```{glue:md} q_note
# :format: myst
# ```

# %% [markdown]
# (lengths)=
# ## Description and summary lengths (Section 3.3)
#
# The split is by description length: the short half went to stage 2 because it was quicker
# to annotate.

# %% mystnb={"figure": {"caption": "Left: histogram of description length in words, one line per split. Right: histogram of summary length in words over all examples.", "name": "fig-lengths"}}
plots.length_distributions(corpus.examples)

# %%
lengths = data_composition.length_rows(corpus)
tables.versus(lengths, corpus)

# %% [markdown]
# (sources)=
# ## Sources and de-duplication (Section 3.2)
#
# Each description concatenates {glue:text}`min_sources` to {glue:text}`max_sources` source
# descriptions of the same hotel{glue:md}`sources_note`; a segment is dropped when its BLEU or
# ROUGE-L F1 against a segment already kept exceeds {glue:text}`dedup_threshold`
# (`hotelcheckspan.dedup`, with sacrebleu and rouge-score). The share removed
# {glue:text}`dedup_trend` with the number of sources{glue:md}`dedup_note`.

# %%
dedup = dataset_level.dedup_summary(corpus)
tables.dedup(dedup)

# %% [markdown]
# (spans)=
# ## Span lengths and types (Section 4.4, Table 2)

# %% mystnb={"figure": {"caption": "Box plots of span length in words: all human spans pooled, then each judge; each box is labelled with the number of spans (n) it is drawn from.", "name": "fig-span-lengths"}}
plots.span_lengths(corpus.spans)

# %%
spans_rows = data_composition.span_rows(corpus)
tables.versus(spans_rows, corpus)

# %% [markdown]
# (inconsistencies-01)=
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
tables.inconsistencies("01_data_composition")

# %% tags=["remove-input"]
readings.glue_all(
    data_composition.readings(
        corpus,
        shape=shape,
        lengths=lengths,
        spans=spans_rows,
        dedup=dedup,
        qualification=qualification,
    )
)

# %% [markdown]
# ## Summary
#
# - {glue:md}`sizes_basis` this corpus has {glue:text}`n_examples` examples in splits of {glue:text}`n_short` and
#   {glue:text}`n_long`, and {glue:text}`n_human_records` human records; its sizes
#   {glue:text}`shape_reading`. It has {glue:text}`n_llm_records` LLM records, one per example
#   for each of {glue:text}`n_llm_campaigns` judges. The paper never counts LLM records: the
#   {glue:text}`readme_llm_records` records beside ours come from the release's README. Read as
#   totals over the records each campaign has, Table 3's rates put
#   {glue:text}`readme_decomposition`, {glue:text}`readme_reading` that count
#   ({glue:text}`t3_short_name`'s {glue:text}`t3_short_rate` spans per record is
#   {glue:text}`t3_short_total` over {glue:text}`n_short` records), while its caption runs all
#   {glue:text}`table3_campaigns` campaigns on every example ({glue:text}`table3_records`
#   records); their spans add up to the README's {glue:text}`table3_spans`. The inconsistency is
#   inside the paper, caption against rates (the rates may as well be Table 4's counts over the
#   stage-2 examples); the README's count fits the first reading, {glue:text}`readme_other`
#   (listed above).
# - {glue:md}`qualification_basis` stage 2's annotators passed a qualification: {glue:text}`q_qualified` of
#   {glue:text}`q_candidates` candidates, a pass rate of {glue:text}`q_rate` (Wilson interval
#   {glue:text}`q_low` to {glue:text}`q_high`). Who passed, and with what score, needs the
#   release's extra file, which nothing here can read yet.
# - {glue:md}`spans_basis` humans marked {glue:text}`n_human_spans` spans, {glue:text}`spans_reading`
#   the paper's {glue:text}`paper_human_spans` (a gap of {glue:text}`spans_gap_pct`%).
#
# ```{glue:md} differ_block
# :format: myst
# ```
#
# ```{glue:md} simulation_note
# :format: myst
# ```
#
# - {glue:md}`types_basis` {glue:text}`most_frequent_type` and {glue:text}`second_type` are the most frequent human
#   span types, {glue:text}`type_order_reading`; the next chapter asks whether the human sets
#   and judges agree on them.
