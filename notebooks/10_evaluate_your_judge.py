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
# # Evaluate your own judge
#
# ## Overview
#
# The dataset exists to evaluate LLMs as faithfulness judges against human span annotations. An
# LLM judge is a factgenie model campaign: drop its export into the corpus (or point
# `hotelcheckspan judge` at it) and it is scored wherever the paper's LLMs are, in Tables 3-6,
# against the human majority, in chapter 05 and in the sample-size chapter. This chapter ranks
# every judge of the corpus side by side:
#
# 1. How do the judges rank by span F1 against the human annotators and by balanced accuracy
#    against their majority, and how far are they from the humans' agreement with each other?
#    ([The leaderboard](leaderboard))
# 2. Can this corpus tell each judge from the next one down? ([Neighbours](neighbours))
# 3. How does the ranking look on real annotations? ([The real corpus](real-leaderboard))
# 4. How do I score my own judge? ([Bring your own judge](byoj))
#
# Span F1 is the book's Table 6 definition (character overlap, soft: any category, hard: the
# category must match), of the judge against each of the {glue:text}`n_references` human
# annotator sets on the {glue:text}`n_examples` examples they share, averaged over the sets as
# Table 6 averages its pairs; balanced accuracy (BACC) is on "any error" against the clear human
# majority (chapter 03). Intervals are {glue:text}`level` percentile bootstrap intervals over examples.

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
import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import judges
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book.readings import evaluate_your_judge
from hotelcheckspan.corpora import CorpusError

plots.set_theme()
corpus = hotelcheckspan.load()
report.corpus_banner(corpus)

# %% [markdown]
# (leaderboard)=
# ## The leaderboard
#
# Every model campaign of the corpus, ranked by soft span F1; the last row is the ceiling, the
# human annotator sets against each other (span F1 averaged over every pair of sets; BACC of
# each set against the clear majority of the others).

# %%
board = judges.leaderboard(corpus)
tables.leaderboard(board)

# %% [markdown]
# {glue:text}`top_judge` leads with a soft F1 of {glue:text}`top_soft`, {glue:text}`top_vs_ceiling`
# the humans' agreement with each other ({glue:text}`ceiling_soft`; hard {glue:text}`ceiling_hard`);
# {glue:text}`placement`. {glue:text}`bacc_reading`
#
# ```{glue:md} simulated_note
# :format: myst
# ```

# %% [markdown]
# (neighbours)=
# ## Neighbours: can this corpus tell them apart?
#
# For each judge and the next one down, the number of examples a test set needs so that it
# orders the two by soft F1 as the full corpus does in {glue:text}`threshold` of draws (chapter 09's
# `examples_needed`, test sets drawn with replacement), with its {glue:text}`level` interval. "yes": even the
# interval's upper end fits in this corpus; "uncertain": the estimate fits, the upper end does
# not; "no": the corpus is too small to order them.

# %%
tables.neighbours(board)

# %% [markdown]
# Of the {glue:text}`n_pairs` neighbouring pairs, this corpus orders {glue:text}`n_apart` with
# confidence, {glue:text}`n_uncertain` with an uncertain margin and {glue:text}`n_not_apart` not
# at all: a leaderboard's adjacent ranks are only as firm as these rows say.

# %% [markdown]
# (real-leaderboard)=
# ## The real corpus
#
# The public corpus of chapter 08 ("Large Language Models as Span Annotators", data-to-text) has
# its own LLM campaigns and several human annotator groups. The same leaderboard: every group
# against each judge, BACC against the groups' clear majority (three quarters of the groups that
# annotated every text agreeing). Its texts are few, so its intervals are wide.

# %%
real_board = None
try:
    real_board = judges.leaderboard(hotelcheckspan.load(paths.REAL_CORPUS))
except (CorpusError, OSError):
    pass
tables.leaderboard(real_board) if real_board is not None else None

# %%
tables.neighbours(real_board) if real_board is not None else None

# %% [markdown]
# On the real corpus {glue:text}`real_top_judge` leads ({glue:text}`real_top_soft`),
# {glue:text}`real_top_vs_ceiling` the human groups' agreement with each other
# ({glue:text}`real_ceiling_soft`); {glue:text}`real_placement`. {glue:text}`real_bacc_reading` Of its
# {glue:text}`real_n_pairs` neighbouring pairs, its texts order {glue:text}`real_n_apart` with confidence,
# {glue:text}`real_n_uncertain` with an uncertain margin and {glue:text}`real_n_not_apart` not at all.
#
# ```{glue:md} real_note
# :format: myst
# ```

# %% [markdown]
# (byoj)=
# ## Bring your own judge
#
# Run your model as a factgenie LLM campaign on the corpus' examples, export it, and either drop
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
tables.show(
    result["table6"],
    columns=["comparison", "match", "pairs", "precision", "recall", "f1"],
    headers={"f1": "F1 [95% CI]", "precision": "Precision [95% CI]", "recall": "Recall [95% CI]"},
)

# %% [markdown]
# {glue:text}`table6_note`

# %% tags=["remove-input"]
readings.glue_all(evaluate_your_judge.readings(corpus, board, real_board, result))

# %% [markdown]
# ## Summary
#
# - Every model campaign of the corpus is a judge: {glue:text}`top_judge` ranks first of
#   {glue:text}`n_judges` by soft span F1 against the human sets, and the humans' agreement with
#   each other ({glue:text}`ceiling_soft`) is the ceiling a judge is read against.
# - Span F1 and balanced accuracy need not agree on the best judge; here they pick
#   {glue:text}`same_best`.
# - Adjacent ranks are not all settled: of its {glue:text}`n_pairs` neighbouring pairs, this
#   corpus orders {glue:text}`n_apart` with confidence.
# - `hotelcheckspan judge CORPUS CAMPAIGN` and `hotelcheckspan.evaluate_judge` score a new judge
#   in the same way, from a campaign of the corpus or a factgenie campaign folder outside it.
