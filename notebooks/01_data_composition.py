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
# # Data composition
#
# ## Overview
#
# What the corpus holds before anyone agrees or disagrees about it. This chapter answers:
#
# 1. How many examples, splits and annotation records are there? ([Sizes](sizes), Sections 3.3 and 4.3)
# 2. How long are the descriptions and summaries? ([Lengths](lengths), Section 3.3)
# 3. How many sources feed each description, and what does de-duplication remove?
#    ([Sources](sources), Section 3.2)
# 4. How long are the annotated spans, and of which types? ([Spans](spans), Section 4.4 and Table 2)
#
# Every figure the paper reports sits beside ours in a "paper vs. this corpus" table.

# %%
import hotelcheckspan
from hotelcheckspan.analyses import dataset_level
from hotelcheckspan.book import paper, plots, report

plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
report.corpus_banner(corpus)

# %% [markdown]
# (sizes)=
# ## Sizes and splits (Sections 3.3 and 4.3)
#
# Stage 1 annotated every example twice (groups A and B); stage 2 annotated 245 examples of the
# short split twice more. Five LLM campaigns annotated every example once.

# %%
dataset_level.sizes(corpus)

# %%
ov = dataset_level.overview(corpus, "human")
paper.versus([
    ("examples", reported["dataset"]["examples"], len(corpus.examples)),
    ("short split", reported["dataset"]["splits"]["short"], int((corpus.examples["split"] == "short").sum())),
    ("long split", reported["dataset"]["splits"]["long"], int((corpus.examples["split"] == "long").sum())),
    ("stage-2 examples", reported["campaigns"]["stage2"]["examples"], len(dataset_level.stage2_examples(corpus))),
    ("human records", reported["dataset"]["human_records"], ov["records"]),
    ("LLM records", reported["dataset"]["llm_records"], int((corpus.records["kind"] == "model").sum())),
])

# %% [markdown]
# (lengths)=
# ## Description and summary lengths (Section 3.3)
#
# The split is by description length: the short half went to stage 2 because it was quicker
# to annotate.

# %% mystnb={"figure": {"caption": "Description length by split (left) and summary length (right).", "name": "fig-lengths"}, "image": {"alt": "Two histograms: description lengths in words for the short and long split, and summary lengths in words."}}
plots.length_distributions(corpus.examples)

# %%
ex = corpus.examples
dw, sw = reported["dataset"]["description_words"], reported["dataset"]["summary_words"]
paper.versus([
    ("description words, mean", dw["mean"], round(float(ex["description_words"].mean()), 1)),
    ("description words, min", dw["min"], int(ex["description_words"].min())),
    ("description words, max", dw["max"], int(ex["description_words"].max())),
    ("description sentences, mean", reported["dataset"]["description_sentences_mean"],
     round(float(ex["description_sentences"].mean()), 1)),
    ("summary words, mean", sw["mean"], round(float(ex["summary_words"].mean()), 1)),
    ("summary words, min", sw["min"], int(ex["summary_words"].min())),
    ("summary words, max", sw["max"], int(ex["summary_words"].max())),
])

# %% [markdown]
# (sources)=
# ## Sources and de-duplication (Section 3.2)
#
# Each description concatenates one to four source descriptions of the same hotel; a segment is
# dropped when its BLEU or ROUGE-L F1 against a segment already kept exceeds 0.8
# (`hotelcheckspan.dedup`, with sacrebleu and rouge-score). The more sources, the more is removed.

# %%
dataset_level.dedup_summary(corpus).round(1)

# %% [markdown]
# (spans)=
# ## Span lengths and types (Section 4.4, Table 2)

# %% mystnb={"figure": {"caption": "Span length in words, human annotators against each LLM campaign.", "name": "fig-span-lengths"}, "image": {"alt": "Box plots of span lengths in words for humans and each LLM campaign."}}
plots.span_lengths(corpus.spans)

# %%
types = dataset_level.type_distribution(corpus, "human").set_index("type")
sw = reported["dataset"]["span_words"]
t2 = reported["table2_human_span_types"]
paper.versus([
    ("human spans", reported["dataset"]["human_spans"], ov["spans"]),
    ("spans per record", reported["dataset"]["spans_per_record"], round(ov["spans_per_record"], 2)),
    ("spans per error record", reported["dataset"]["spans_per_error_record"], round(ov["spans_per_error_record"], 2)),
    ("span words, mean", sw["mean"], round(ov["span_words_mean"], 1)),
    ("span words, median", sw["median"], ov["span_words_median"]),
    ("span words, max", sw["max"], ov["span_words_max"]),
    *[(f"{t} (%)", t2[t]["pct"], round(float(types.loc[t, "pct"]), 1)) for t in t2],
])

# %% [markdown]
# ## Summary
#
# - The stand-in corpus has the paper's shape: 496 examples in two splits of 248 and 1,482 human
#   records, and its lengths and span counts were set from the paper's marginals, so the matches
#   above are by construction, not findings. It has 2,480 LLM records (five campaigns x 496); the
#   paper counts 1,984 (four x 496) though its Table 3 lists five campaigns.
# - Two things differ and are worth knowing: simulated descriptions have fewer, longer sentences
#   than the real ones, and simulated spans are slightly shorter (the annotators' boundary
#   habits were set, not measured). Spans per error record also comes out lower than the
#   paper's 1.31, because the simulation plants at most three claims per summary.
# - Not Checkable and Misleading dominate the human spans, as in Table 2; the next chapter asks
#   whether the campaigns agree on them.
