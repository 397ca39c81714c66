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
from hotelcheckspan.analyses import dataset_level
from hotelcheckspan.book import paper, plots, prose, report, tables

plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
report.corpus_banner(corpus)

# %% [markdown]
# (sizes)=
# ## Sizes and splits (Sections 3.3 and 4.3)
#
# Stage 1 annotated every example twice (groups A and B); stage 2 annotated
# {glue:text}`n_stage2` examples of the short split twice more. The model campaigns annotated
# every example once each.

# %%
stage2 = dataset_level.stage2_examples(corpus)
prose.number("n_stage2", len(stage2))
tables.sizes(dataset_level.sizes(corpus))

# %%
ov = dataset_level.overview(corpus, "human")
n_llm = int((corpus.records["kind"] == "model").sum())
shape = [
    ("examples", "dataset/examples", len(corpus.examples)),
    ("short split", "dataset/splits/short", int((corpus.examples["split"] == "short").sum())),
    ("long split", "dataset/splits/long", int((corpus.examples["split"] == "long").sum())),
    ("stage-2 examples", "campaigns/stage2/examples", len(stage2)),
    ("human records", "dataset/human_records", ov["records"]),
    ("LLM records", "dataset/llm_records", n_llm),
]
tables.versus(shape, corpus)

# %% [markdown]
# (lengths)=
# ## Description and summary lengths (Section 3.3)
#
# The split is by description length: the short half went to stage 2 because it was quicker
# to annotate.

# %% mystnb={"figure": {"caption": "Left: histogram of description length in words, one line per split. Right: histogram of summary length in words over all examples.", "name": "fig-lengths"}, "image": {"alt": "Two histograms: description lengths in words for the short and the long split, and summary lengths in words."}}
plots.length_distributions(corpus.examples)

# %%
ex = corpus.examples
lengths = [
    ("description words, mean", "dataset/description_words/mean", float(ex["description_words"].mean()), 1),
    ("description words, min", "dataset/description_words/min", int(ex["description_words"].min())),
    ("description words, max", "dataset/description_words/max", int(ex["description_words"].max())),
    ("description sentences, mean", "dataset/description_sentences_mean", float(ex["description_sentences"].mean()), 1),
    ("summary words, mean", "dataset/summary_words/mean", float(ex["summary_words"].mean()), 1),
    ("summary words, min", "dataset/summary_words/min", int(ex["summary_words"].min())),
    ("summary words, max", "dataset/summary_words/max", int(ex["summary_words"].max())),
]
tables.versus(lengths, corpus)

# %% [markdown]
# (sources)=
# ## Sources and de-duplication (Section 3.2)
#
# Each description concatenates {glue:text}`min_sources` to {glue:text}`max_sources` source
# descriptions of the same hotel; a segment is dropped when its BLEU or ROUGE-L F1 against a
# segment already kept exceeds {glue:text}`dedup_threshold` (`hotelcheckspan.dedup`, with
# sacrebleu and rouge-score). The share removed {glue:text}`dedup_trend` with the number of sources.

# %%
dedup = dataset_level.dedup_summary(corpus)
prose.number("min_sources", int(dedup["sources"].min()))
prose.number("max_sources", int(dedup["sources"].max()))
prose.word("dedup_threshold", reported["preprocessing"]["dedup_rule"].split("> ")[1].split()[0])
rising = dedup.sort_values("sources")["dropped %"].is_monotonic_increasing
prose.word("dedup_trend", "rises steadily" if rising else "does not rise steadily")
tables.dedup(dedup)

# %% [markdown]
# (spans)=
# ## Span lengths and types (Section 4.4, Table 2)

# %% mystnb={"figure": {"caption": "Box plots of span length in words: all human spans pooled, then each LLM campaign.", "name": "fig-span-lengths"}, "image": {"alt": "Box plots of span lengths in words for the human annotators pooled and for each LLM campaign."}}
plots.span_lengths(corpus.spans)

# %%
types = dataset_level.type_distribution(corpus, "human").set_index("type")
spans_rows = [
    ("human spans", "dataset/human_spans", ov["spans"]),
    ("spans per record", "dataset/spans_per_record", ov["spans_per_record"]),
    ("spans per error record", "dataset/spans_per_error_record", ov["spans_per_error_record"]),
    ("span words, mean", "dataset/span_words/mean", ov["span_words_mean"], 1),
    ("span words, median", "dataset/span_words/median", ov["span_words_median"], 1),
    ("span words, max", "dataset/span_words/max", ov["span_words_max"]),
    *[
        (f"{t} (%)", f"table2_human_span_types/{t}/pct", float(types.loc[t, "pct"]), 1)
        for t in reported["table2_human_span_types"]
    ],
]
tables.versus(spans_rows, corpus)

# %%
# Readings for the summary below, all computed from the tables above
ds = reported["dataset"]
matched = [m for m, key, ours, *_ in shape if ours == tables.paper_value(key)]
prose.number("n_examples", len(corpus.examples))
prose.number("n_short", shape[1][2])
prose.number("n_long", shape[2][2])
prose.number("n_human_records", ov["records"])
prose.word(
    "shape_reading",
    "all match the paper's"
    if len(matched) == len(shape)
    else f"match the paper's in {prose.count_words(len(matched))} of {prose.count_words(len(shape))} rows",
)
n_campaigns = corpus.records.loc[corpus.records["kind"] == "model", "campaign"].nunique()
prose.number("n_llm_records", n_llm)
prose.word("n_llm_campaigns", prose.count_words(n_campaigns))
prose.number("paper_llm_records", ds["llm_records"])
prose.word("paper_llm_campaigns", prose.count_words(round(ds["llm_records"] / ds["examples"])))
prose.word("paper_table3_campaigns", prose.count_words(len(reported["table3_llm_campaigns"])))
prose.number("n_human_spans", ov["spans"])
prose.number("paper_human_spans", ds["human_spans"])
prose.word("spans_reading", prose.compare(ov["spans"], ds["human_spans"], 0, "more than", "fewer than", "as many as"))
prose.number("spans_gap_pct", abs(100 * (ov["spans"] / ds["human_spans"] - 1)), 1)

# what differs beyond a tenth of the paper's value
rows = [r for r in lengths + spans_rows if isinstance(tables.paper_value(r[1]), (int, float))]
differ = [
    (m, ours, tables.paper_value(key), (*rest, 2)[0])
    for m, key, ours, *rest in rows
    if abs(ours - tables.paper_value(key)) > 0.1 * abs(tables.paper_value(key))
]
prose.markdown(
    "differ_block",
    (
        f"- {prose.count_words(len(differ)).capitalize()} of the length and span figures "
        f"{'differs' if len(differ) == 1 else 'differ'} from the paper's by more than a tenth"
        + (
            ":\n"
            + "\n".join(
                f"  - {m}: {tables.number(ours, d)} here against {tables.number(theirs, d)} in the paper"
                for m, ours, theirs, d in differ
            )
            if differ
            else "."
        )
    ),
)
prose.simulated(
    "simulation_note",
    corpus,
    f"On the simulated stand-in, the sizes are written by the generator, so the {prose.count_words(len(matched))} "
    f"that match the paper's do so by construction (the generator writes every model campaign Table 3 lists over "
    "every example, hence its LLM record count); the span "
    "counts are calibrated (each campaign's *expected* count is solved to the paper's), so they land near the "
    "paper's figure, not on it; descriptions are rendered from facts plus filler, and span boundaries follow "
    "annotator habits that were set, not measured, so sentence counts and span lengths are not findings.",
)
prose.word("most_frequent_type", types["count"].idxmax())
prose.word("second_type", types["count"].nlargest(2).index[1])
paper_order = sorted(
    reported["table2_human_span_types"], key=lambda t: -reported["table2_human_span_types"][t]["count"]
)
prose.word(
    "type_order_reading",
    "as in Table 2"
    if list(types["count"].sort_values(ascending=False).index[:2]) == paper_order[:2]
    else f"while Table 2 has {paper_order[0]} and {paper_order[1]}",
)

# %% [markdown]
# (inconsistencies-01)=
# ## The paper's own inconsistencies
#
# Figures of the paper this chapter compares with that contradict each other or the paper's
# other tables, each with its arithmetic (all are listed under `notes` in
# `data/paper_figures.yaml`). Where this corpus comes close to such a figure, that says nothing
# about which of the paper's numbers is right.

# %%
tables.show(paper.inconsistencies("01_data_composition").drop(columns="chapter"))

# %% [markdown]
# ## Summary
#
# - This corpus has {glue:text}`n_examples` examples in splits of {glue:text}`n_short` and
#   {glue:text}`n_long`, and {glue:text}`n_human_records` human records; its sizes
#   {glue:text}`shape_reading`. It has {glue:text}`n_llm_records` LLM records
#   ({glue:text}`n_llm_campaigns` campaigns); the paper counts {glue:text}`paper_llm_records`,
#   as many as {glue:text}`paper_llm_campaigns` campaigns over every example, though its Table 3
#   lists {glue:text}`paper_table3_campaigns`.
# - Humans marked {glue:text}`n_human_spans` spans, {glue:text}`spans_reading` the
#   paper's {glue:text}`paper_human_spans` (a gap of {glue:text}`spans_gap_pct`%).
#
# ```{glue:md} differ_block
# :format: myst
# ```
#
# ```{glue:md} simulation_note
# :format: myst
# ```
#
# - {glue:text}`most_frequent_type` and {glue:text}`second_type` are the most frequent human
#   span types, {glue:text}`type_order_reading`; the next chapter asks whether the campaigns
#   agree on them.
