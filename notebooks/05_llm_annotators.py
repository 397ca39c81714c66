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
# # LLM annotators
#
# ## Overview
#
# The paper collects span annotations from gemma-3, gpt-4o and o3-mini (the latter two also
# with a less strict prompt) and finds over-annotation (gpt-4o), under-annotation (o3-mini),
# longer spans and type biases (Sections 5 and 6.1). On the 245 stage-2 examples, this
# chapter answers:
#
# 1. How much do LLMs mark compared with humans? ([Volume](volume))
# 2. Do they select longer spans? ([Span length](length))
# 3. Which types do they prefer? ([Type bias](llm-types))
# 4. On which kinds of claims do they agree with humans? ([Agreement by aspect](aspects))
# 5. What does it look like on a summary? ([Examples](show))

# %%
import hotelcheckspan
from hotelcheckspan.analyses import dataset_level, llm_annotators
from hotelcheckspan.book import paper, plots, report

plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
stage2 = dataset_level.stage2_examples(corpus)
report.corpus_banner(corpus)

# %% [markdown]
# (volume)=
# ## Over- and under-annotation (Section 5)

# %%
vol = llm_annotators.volume(corpus, stage2)
vol.round(2)

# %%
v = vol.set_index("name")
t4 = reported["table4_dataset_level_stage2_subset"]
human_mean = sum(t4[g]["total"] for g in ("St. 1A", "St. 1B", "St. 2A", "St. 2B")) / 4
paper.versus([(f"{name}: spans / mean human campaign", round(t4[name]["total"] / human_mean, 2),
               round(float(v.loc[model, "spans"] / v.loc[v["kind"] == "human", "spans"].mean()), 2))
              for name, model in paper.LLM_CAMPAIGNS.items()])

# %% [markdown]
# (length)=
# ## Span length (Section 5, Table 3)
#
# The paper notes that gpt-4o and gemma-3 often highlight whole sentences instead of the
# minimal span.

# %%
paper.versus([(f"{name}: mean span words", reported["table3_llm_campaigns"][name]["avg_len"],
               round(float(v.loc[model, "mean_words"]), 1)) for name, model in paper.LLM_CAMPAIGNS.items()]
             + [("humans: mean span words", reported["dataset"]["span_words"]["mean"],
                 round(float(dataset_level.overview(corpus)["span_words_mean"]), 1))])

# %% [markdown]
# (llm-types)=
# ## Type bias (Sections 5 and 6.1)
#
# Percentage points above (+) or below (-) the pooled human share of each type.

# %%
llm_annotators.type_bias(corpus, stage2).round(1)

# %% [markdown]
# (aspects)=
# ## Where LLMs and humans agree
#
# Soft span agreement of gpt-4o against each of the four human sets, counts pooled over the
# four pairs, per summary aspect.

# %%
llm_annotators.agreement_by_aspect(corpus, "gpt-4o", stage2).round(3)

# %% [markdown]
# (show)=
# ## Three contested summaries
#
# Summaries where the four human annotations split 2-2 on whether there is an error at all and
# gpt-4o marked something. Hover a highlight to see its type and, for LLMs, the stated reason.

# %%
contested = llm_annotators.contested_examples(corpus, "gpt-4o", n=3, examples=stage2)
sets = ["stage1/A", "stage1/B", "stage2/A", "stage2/B", "gemma-3", "gpt-4o", "o3-mini"]
report.highlight(corpus, contested.iloc[0].to_dict(), sets)

# %%
report.highlight(corpus, contested.iloc[1].to_dict(), sets)

# %%
report.highlight(corpus, contested.iloc[2].to_dict(), sets)

# %% [markdown]
# The reasons LLMs give for their spans, first five of gpt-4o:

# %%
llm_annotators.reasons(corpus, "gpt-4o", n=5, examples=stage2)

# %% [markdown]
# ## Summary
#
# - gpt-4o marks about twice as much as the average human campaign and o3-mini almost nothing,
#   as in the paper, by construction of the counts.
# - Simulated LLM spans are longer than human spans because the simulated LLMs widen spans to
#   the whole claim or sentence more often, which reproduces the paper's observation rather
#   than testing it.
# - Type biases emerge from mixing each model's Table 3 type preference with the true claim
#   status: gemma-3 leans to Misleading, gpt-4o to Incorrect, and both mark less Not
#   Checkable than humans, whose most frequent type it is. The paper's o3-mini rows rest on one
#   to five spans and say nothing about bias.
# - The simulated LLM reasons are templates, not model output: read them as placeholders for
#   the real rationales in the gated release, which the paper found often self-contradictory.
