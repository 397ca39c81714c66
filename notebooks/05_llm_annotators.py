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
# # LLM judges

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
from hotelcheckspan.analyses import dataset_level, llm_annotators, span_level
from hotelcheckspan.annotator_sets import HUMAN_SETS, judges
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book.readings import llm_annotators as chapter
from hotelcheckspan.reference import paper

plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
stage2 = dataset_level.stage2_examples(corpus)
models = judges(corpus)
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# The paper collects span annotations from gemma-3, gpt-4o and o3-mini (the latter two also
# with a less strict prompt) and finds over-annotation (gpt-4o), under-annotation (o3-mini),
# longer spans and type biases (Sections 5 and 6.1). On the {glue:text}`n_stage2` stage-2
# examples (span lengths on all, as Table 3 gives them), this chapter answers:
#
# 1. How much do LLMs mark compared with humans? ([Volume](volume))
# 2. Of what they mark, how much did humans mark too, and how much of what humans marked do
#    they find? ([Precision and recall](pr))
# 3. Do they select longer spans? ([Span length](length))
# 4. Which types do they prefer? ([Type bias](llm-types))
# 5. On which kinds of claims do they agree with humans? ([Agreement by aspect](aspects))
# 6. What does it look like on a summary? ([Examples](show))

# %% [markdown]
# (volume)=
# ## Over- and under-annotation (Section 5)

# %%
vol = llm_annotators.volume(corpus, stage2)
tables.volume(vol)

# %% [markdown]
# Beside the paper's Table 4, which counts spans on the same examples:

# %%
T4 = "table4_dataset_level_stage2_subset"
tables.versus(
    [(f"{n}: spans", chapter.figure_key(T4, n, "total"), int(s)) for n, s in zip(vol["name"], vol["spans"])], corpus
)

# %% [markdown]
# {glue:text}`most_model` marks {glue:text}`most_ratio` times the spans of the mean human set
# (the paper's Table 4: {glue:text}`paper_most_ratio`), and {glue:text}`least_models` the fewest
# ({glue:text}`least_spans`). Which models mark more than the humans and which less:
# {glue:text}`volume_reading`.

# %% [markdown]
# (pr)=
# ## Precision and recall against the humans
#
# Each model against each of the four human sets, soft match (any type), averaged
# over the four pairs as Table 6 does; for scale, stage 1 against stage 2 (humans against
# humans) in the last row. Precision is the share of the model's marked characters that the
# human marked too; recall the share of the human's marked characters the model found.

# %%
humans = [s.spec for s in HUMAN_SETS]
comparisons = [{"name": m, "ref": humans, "hyp": [m], "examples": "stage2"} for m in models] + [
    {"name": chapter.HUMAN_PR_ROW, "ref": humans[:2], "hyp": humans[2:], "examples": "stage2"}
]
pairs, counts = span_level.pairwise(corpus, comparisons, matches=("soft",))
pr = span_level.table6(pairs, counts).rename(columns={"comparison": "name"})
tables.set_prf(pr)

# %% mystnb={"figure": {"caption": "Soft-match precision (blue) and recall (orange) of each judge against the four human sets on the stage-2 examples, averaged over the four pairs, with 95% bootstrap intervals; the last row is stage 1 against stage 2, humans against humans.", "name": "fig-llm-precision-recall"}}
plots.precision_recall(pr)

# %% [markdown]
# {glue:text}`top_recall` finds the most of what humans marked (recall
# {glue:text}`top_recall_value`, {glue:text}`recall_vs_humans` one human stage finds of the
# other, {glue:text}`human_recall`) at a precision of {glue:text}`top_recall_precision`
# against the humans' {glue:text}`human_precision`; {glue:text}`low_recall_clause`
# (recall {glue:text}`low_recall_value`). {glue:text}`precision_reading`. {glue:md}`recall_note`
#
# The paper's own LLM rows of Table 6 (soft match; {chapter}`04`
# sets them beside the book's): {glue:text}`paper_pr`. There {glue:text}`paper_top_precision`'s
# precision is {glue:text}`paper_top_precision_reading` the humans'. The same models here:
# {glue:text}`paper_pr_here`.

# %% [markdown]
# (length)=
# ## Span length (Section 5, Table 3)
#
# Table 3 gives the LLMs' mean span length on all the examples (Section 4.4 the humans'), so
# this table measures ours on all of them too, not on the stage-2 subset of the table above
# (Table 4 gives no lengths).

# %%
chapter.span_words_beside_paper(corpus)

# %% [markdown]
# Longer on average than the humans' spans ({glue:text}`paper_human_words` words in the paper,
# {glue:text}`human_words` here): in the paper's Table 3, {glue:text}`paper_longer`
# ({glue:text}`paper_longer_rounding`); here, {glue:text}`ours_longer`: {glue:text}`longer_reading`.
# {glue:md}`length_note`
#
# Section 5 adds that gpt-4o and gemma-3, instead of the minimal span, are "often highlighting
# entire sentences". The summaries are single sentences, so that is the whole summary. Table 3
# gives gpt-4o a mean span of {glue:text}`paper_gpt_words` words, {glue:text}`paper_gpt_vs_human`;
# the paper compares no means, and the mean does not rule out "often": with every other span one
# word long and the mean at the most its rounding allows ({glue:text}`gpt_words_most` words), up to
# {glue:text}`whole_bound_mean` of gpt-4o's spans could be whole summaries of the average
# {glue:text}`summary_words_mean` words, {glue:text}`whole_bound_max` at the shortest
# ({glue:text}`summary_words_min` words). {glue:md}`whole_basis`
# {glue:text}`whole_share` of gpt-4o's spans cover at least {glue:text}`whole_pct` of their
# summary.
#
# The paper's own figures on the judges, checked by rule (the human groups' own are in
# {chapter}`02`; Section 6.2's o3-mini agreements and the footnote on
# Section 5's prompts are added here):

# %%
checked = tables.inconsistencies("05_llm_annotators", select=chapter.paper_checks)
checked

# %% [markdown]
# {glue:text}`checks_said`
#
# ```{glue:md} check_problems
# :format: myst
# ```

# %% [markdown]
# (llm-types)=
# ## Type bias (Sections 5 and 6.1)
#
# Percentage points above (+) or below (-) the pooled human share of each type.

# %%
bias = llm_annotators.type_bias(corpus, stage2)
tables.type_bias(bias)

# %% [markdown]
# {glue:text}`few_bias_rows`

# %% [markdown]
# (aspects)=
# ## Where LLMs and humans agree
#
# Soft span agreement of gpt-4o against each of the four human sets, counts pooled over the
# four pairs, per summary aspect.

# %%
aspects = llm_annotators.agreement_by_aspect(corpus, "gpt-4o", stage2)
tables.aspects(aspects)

# %% [markdown]
# Each aspect rests on {glue:text}`aspect_min` to {glue:text}`aspect_max` examples
# ({glue:text}`aspect_few` of them on fewer than {glue:text}`aspect_few_limit`), and the table gives
# no intervals: read it as a description of these examples. {glue:md}`aspects_basis`
# {glue:md}`aspects_note`

# %% [markdown]
# (show)=
# ## Contested summaries
#
# Summaries where the four human annotations split evenly on whether there is an error at all
# and gpt-4o marked something, the first {glue:text}`n_contested` of them. A highlight's colour
# gives its type; the reasons attached to gpt-4o's spans in these summaries are listed after them.
# {glue:md}`reasons_warning`
#
# {glue:md}`texts_note`

# %%
n_contested = 3
contested = llm_annotators.contested_examples(corpus, "gpt-4o", n=n_contested, examples=stage2)
sets = ["stage1/A", "stage1/B", "stage2/A", "stage2/B", "gemma-3", "gpt-4o", "o3-mini"]
report.highlight(corpus, contested.iloc[0].to_dict(), sets)

# %%
report.highlight(corpus, contested.iloc[1].to_dict(), sets)

# %%
report.highlight(corpus, contested.iloc[2].to_dict(), sets)

# %% [markdown]
# The reasons attached to gpt-4o's spans in these summaries ({glue:text}`n_reasons` spans):

# %%
reasons = llm_annotators.reasons(corpus, "gpt-4o", n=20, examples=contested)
tables.reasons(reasons)

# %% tags=["remove-input"]
readings.glue_all(
    chapter.readings(
        corpus,
        stage2=stage2,
        vol=vol,
        pr=pr,
        bias=bias,
        contested=contested,
        reasons=reasons,
        figures=reported,
        aspects=aspects,
        shown=checked.results,
    )
)

# %% [markdown]
# ## Summary
#
# - {glue:md}`volume_basis` {glue:text}`most_model` marks {glue:text}`most_ratio` times as much as the average human
#   set and {glue:text}`least_models` least ({glue:text}`least_spans`); which models
#   mark more than the humans: {glue:text}`volume_reading`. {glue:md}`volume_note`
# - {glue:md}`recall_basis` {glue:text}`top_recall` finds the most of what humans marked, with a precision of
#   {glue:text}`top_recall_precision` against the humans' own {glue:text}`human_precision`
#   ({numref}`fig-llm-precision-recall`). {glue:text}`precision_reading`.
# - {glue:md}`lengths_basis` spans longer on average than the humans', on all examples: {glue:text}`paper_longer` in the
#   paper's Table 3 ({glue:text}`paper_longer_rounding`), {glue:text}`ours_longer` here. Section 5's
#   "often entire sentences" is a wording question, not a contradiction: gpt-4o's
#   {glue:text}`paper_gpt_words`-word mean in Table 3 allows up to {glue:text}`whole_bound_mean` of
#   its spans to be whole summaries of average length ({glue:text}`whole_bound_max` of the shortest).
# - {glue:md}`bias_basis` {glue:text}`bias_lean` (percentage points above the humans' share),
#   {glue:text}`bias_paper_reading`; {glue:text}`bias_all_paper`, where Section 5 characterises
#   gemma-3; {glue:text}`top_human_type` is the humans' most frequent type, and
#   {glue:text}`top_human_reading`. {glue:md}`bias_note` The paper's o3-mini rows rest on
#   {glue:text}`o3_min` to {glue:text}`o3_max` spans and say nothing about bias.
#
# ```{glue:md} reasons_note
# :format: myst
# ```
