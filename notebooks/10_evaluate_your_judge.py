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
# # Evaluate your own judge

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
from IPython.display import display

import hotelcheckspan
from hotelcheckspan import annotator_sets, paths, review
from hotelcheckspan.analyses import judges
from hotelcheckspan.book import plots, readings, real_shape, report, tables
from hotelcheckspan.book.readings import evaluate_your_judge
from hotelcheckspan.corpora import frame as F

plots.set_theme()
corpus = hotelcheckspan.load()
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# The dataset exists to evaluate LLMs as faithfulness judges against human span annotations. An
# LLM judge is a factgenie model campaign: drop its export into the corpus (or point
# `hotelcheckspan judge` at it) and it is scored wherever the paper's LLMs are, in Tables 3-6,
# against the human majority, in {chapter}`05` and in the sample-size chapter. This chapter ranks
# every judge of the corpus side by side:
#
# 1. How do the judges rank by span F1 against the human annotators and by balanced accuracy
#    against their majority, and how far are they from the humans' agreement with each other?
#    ([The leaderboard](leaderboard))
# 2. Can this corpus tell each judge from the next one down? ([Neighbours](neighbours))
# 3. How does the ranking look on real annotations? ([The real corpus](real-leaderboard))
# 4. How often do the judges hallucinate a span, repeat one or mark a whole sentence, and how do I
#    have their spans and explanations reviewed? ([Review the judges](review))
# 5. How do I score my own judge? ([Bring your own judge](byoj))
#
# Span F1 is the book's Table 6 definition (character overlap, soft: any category, hard: the
# category must match), of the judge against each of the {glue:text}`n_references` human
# sets on the {glue:text}`n_examples` examples they share, averaged over the sets as
# Table 6 averages its pairs; balanced accuracy (BACC) is on "any error" against the clear human
# majority ({chapter}`03`). Intervals are {glue:text}`level` percentile bootstrap intervals over examples.
#
# The box above is about the stand-in, the corpus of [the leaderboard](leaderboard),
# [Neighbours](neighbours), [Bring your own judge](byoj) and the stand-in rows of
# [the review](review). The real corpora, [the test split](real-leaderboard) and the d2t rows of the
# review, are real annotations, each with a box of its own where it is loaded.

# %% [markdown]
# (leaderboard)=
# ## The leaderboard
#
# Every judge of the corpus (each of its model campaigns), ranked by span F1, soft; the last row is the ceiling, the
# human sets against each other (span F1 averaged over every pair of sets; BACC of
# each set against the clear majority of the others).

# %%
board = judges.leaderboard(corpus)
tables.leaderboard(board)

# %% [markdown]
# Every leaderboard says what it compared: the human sets, the examples, the span F1 definition,
# the majority rule and the ceiling (`hotelcheckspan judge` prints the same, its `--json` has it
# under `compared`). The definition credits overlapping characters as factgenie 1.2.1 does but
# counts span lengths on every example either side annotated (convention "either"), where
# factgenie 1.2.1 counts them only on examples both sides marked ({chapter}`04` says why).

# %% tags=["remove-input"]
tables.compared(board)

# %% [markdown]
# {glue:text}`lead_said` {glue:text}`bacc_reading`
#
# ```{glue:md} simulated_note
# :format: myst
# ```

# %% [markdown]
# (neighbours)=
# ## Neighbours: can this corpus tell them apart?
#
# For each judge and the next one down, the number of examples a test set needs so that it
# orders the two by span F1, soft as the full corpus does in {glue:text}`threshold` of draws ({chapter}`09`'s
# `examples_needed`, test sets drawn with replacement), with its {glue:text}`level` interval. "yes": even the
# interval's upper end fits in this corpus; "uncertain": the estimate fits, the upper end does
# not; "no": the corpus is too small to order them.

# %%
tables.neighbours(board)

# %% [markdown]
# Of the {glue:text}`n_pairs` neighbouring pairs, this corpus orders {glue:text}`n_apart` with
# confidence, {glue:text}`n_uncertain` with an uncertain margin and {glue:text}`n_not_apart` not
# at all: a leaderboard's adjacent ranks are only as firm as these rows say. {glue:md}`built_in`
#
# {chapter}`09` plans the comparison of gpt-4o with gpt-4o (LS) and gives it other numbers: its
# planning call draws its test sets with another seed, and its table of smallest stable sizes reads
# the answer off a coarser grid of sizes. The question is the same (span F1, soft against the same
# human sets on the same examples, test sets drawn with replacement); {glue:text}`grid_note`

# %% [markdown]
# (real-leaderboard)=
# ## The real corpus
#
# {glue:md}`real_about` The same leaderboard, against its human sets, with BACC against their
# clear majority (where one set annotated a text, its mark decides; the table under the leaderboard
# says so). `HOTELCHECKSPAN_REAL_DATA` points this section at any other factgenie corpus.

# %%
# the corpus of the real sections (HOTELCHECKSPAN_REAL_DATA, _TASK, _SPLIT), checked as `make corpus-check` checks it
real_frame = real_shape.framed(paths.real_corpus_dir(paths.REAL_TEST_CORPUS), **paths.real_selection())
real = real_frame.corpus
real_names = annotator_sets.names(real)  # its judges and human sets as the glossary names them, on every page
report.corpus_banner(real, real_frame)

# %%
real_board = judges.leaderboard(real)
tables.leaderboard(real_board, names=real_names)

# %% tags=["remove-input"]
tables.compared(real_board, names=real_names)

# %%
tables.neighbours(real_board, names=real_names)

# %% [markdown]
# On the real corpus {glue:text}`real_lead_said` {glue:text}`real_bacc_reading`
# {glue:text}`real_neighbours_said`

# %% [markdown]
# (review)=
# ## Review the judges: spans and explanations
#
# Section 5 of the paper found that gpt-4o and gemma-3 "frequently violated the core instruction
# to select minimal spans, often highlighting entire sentences". {glue:text}`paper_length_note`
# Some of what a reviewer of a judge's spans looks for needs no reviewer: a span whose text is nowhere in the output
# (*Hallucination*), the same text reported again on one output (*Repeated*), a span of several
# fragments or an ellipsis (*Hard to parse*), an empty span or a reason that points at the data
# instead of the text (*No span given*, *Implicit span*), and the paper's two observations: spans
# covering a whole sentence, and span length against the humans'. The methods page defines each
# mark with examples. {glue:text}`review_which`, beside its humans:

# %% tags=["remove-input"]
# the real corpora the review reads beyond the test split above, each with a box for its own rows
review_set = real_shape.review_corpora(corpus, real)  # the stand-in and the real corpora
for name, other in review_set.items():
    if other is not corpus and other is not real:
        display(report.corpus_banner(other, F.resolve(other), rows=name))

# %%
marks = review.marks_by_corpus(review_set)
tables.review_marks(marks)

# %% [markdown]
# {glue:text}`review_reading`
#
# ```{glue:md} review_simulated_note
# :format: myst
# ```
#
# The rest needs a reviewer: is the span an error, is the explanation right. The review scheme of
# the LLM-evaluator study (one row per span, all spans of one output together, evaluators
# anonymised) is one command away. The first rows of the sheet for {glue:text}`review_sheet_of`, as a
# reviewer meets them (the judge behind each evaluator is in a separate key file):

# %%
tables.review_preview(review.preview(real, 6), names=real_names)

# %% [markdown]
# ```bash
# hotelcheckspan review export data/span-annotation-d2t-test --sample N -o review.xlsx  # N spans, stratified
# # reviewers fill in error_mark, explanation_mark and the flags (drop-down lists), then:
# hotelcheckspan review score review-alice.xlsx review-bob.xlsx --json
# ```
#
# `review score` checks every completed sheet (an unknown mark, a missing one, a row not in the
# export, a changed span: each named by file and row, all at once), de-anonymises the judges with
# the key and reports, per judge, the share of spans that are real errors and the distribution of
# explanation marks and flags with bootstrap intervals over outputs, and the reviewers' agreement
# (Cohen's kappa and Gwet's AC1) on rows reviewed twice. No completed review is bundled, so no
# reviewer marks are shown here.

# %% [markdown]
# (byoj)=
# ## Bring your own judge
#
# Run your model as a factgenie model campaign on the corpus' examples, export it, and either drop
# the campaign folder into the corpus under `annotations/model/` (then every chapter scores it;
# set `HOTELCHECKSPAN_DATA` to that corpus and rebuild the book) or point the command at it:
#
# ```bash
# hotelcheckspan judge data/hotelcheckspan path/to/my-judge          # a table per view
# hotelcheckspan judge data/hotelcheckspan path/to/my-judge --json   # strict JSON
# ```
#
# The command prints the judge's rows of Tables 3, 5 and 6 with intervals, its BACC and its
# rank among the corpus' judges; from Python, `hotelcheckspan.evaluate_judge(corpus, campaign)`
# returns the same as frames. For the judge at the bottom of the leaderboard above, the Table 6
# rows that hold it:

# %%
last = board.loc[board["judge"] != judges.CEILING, "judge"].iloc[-1]
result = hotelcheckspan.evaluate_judge(corpus, last)
tables.span_prf(result["table6"])

# %% [markdown]
# {glue:text}`table6_note`

# %% tags=["remove-input"]
curves = evaluate_your_judge.reseeded_curves(corpus)  # chapter 09's planned pair with other seeds, for the prose
readings.glue_all(
    evaluate_your_judge.readings(corpus, board, real_board, result, marks, real, curves), names=real_names
)

# %% [markdown]
# ## Summary
#
# - {glue:md}`board_basis` every model campaign of the corpus is a judge: {glue:text}`rank_said`
#   by span F1, soft against the human sets, and the humans'
#   agreement with each other ({glue:text}`ceiling_soft`) is the ceiling a judge is read against, a
#   reference rather than an upper bound.
# - {glue:md}`best_basis` span F1 and balanced accuracy need not agree on the best judge;
#   {glue:text}`best_summary`.
# - {glue:md}`neighbours_basis` adjacent ranks are not all settled: of its {glue:text}`n_pairs`
#   neighbouring pairs, this corpus orders {glue:text}`n_apart` with confidence. {glue:md}`built_in`
# - {glue:md}`real_basis` {glue:text}`real_summary`
# - `hotelcheckspan judge CORPUS CAMPAIGN` and `hotelcheckspan.evaluate_judge` score a new judge
#   in the same way, from a campaign of the corpus or a factgenie campaign folder outside it.
