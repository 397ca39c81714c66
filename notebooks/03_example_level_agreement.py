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
#
# ## Overview
#
# Do annotators find errors in the *same summaries*? On the {glue:text}`n_stage2` stage-2
# examples every summary has {glue:text}`n_raters` human annotations (stage 1 A and B, stage 2 A
# and B). This chapter answers:
#
# 1. How many of the annotators vote "error" per example and type? ([Table 5](table5))
# 2. How much of that agreement is beyond chance? ([Fleiss' kappa and Krippendorff's alpha](chance))
# 3. How well do LLMs match the human majority, and does raw agreement tell the truth?
#    ([Section 6.2](llms))
#
# Intervals are {glue:text}`level_pct`% percentile bootstrap intervals over examples
# ({glue:text}`n_boot` resamples, seeded), except for recall, whose interval is exact
# (Clopper-Pearson) given the majority's errors.

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
from myst_nb import glue

import hotelcheckspan
from hotelcheckspan.analyses import dataset_level, example_level
from hotelcheckspan.annotator_sets import HUMAN_SETS
from hotelcheckspan.book import paper, plots, report, tables

N_BOOT, LEVEL = 1000, 0.95
plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
stage2 = dataset_level.stage2_examples(corpus)
glue("n_stage2", len(stage2), display=False)
glue("n_raters", len(HUMAN_SETS), display=False)
glue("level_pct", round(100 * LEVEL), display=False)
glue("n_boot", N_BOOT, display=False)
report.corpus_banner(corpus)

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
t5.style.hide(axis="index").format(precision=1).set_uuid("t5")

# %% [markdown]
# Beside the paper, vote by vote, and as one distance per type: the total variation distance
# between the two distributions (half the summed differences of the shares; zero means the same
# distribution).

# %%
counts = t5.set_index("votes")
versus_t5 = paper.versus(
    [
        (f"{label}: {v} votes", reported["table5_example_level_votes"][label][v], int(counts.loc[v, label]))
        for label in example_level.LABELS
        for v in counts.index
    ]
)
(
    tables.mark(versus_t5, "table5_example_level_votes", corpus)
    .style.hide(axis="index")
    .format(precision=0, na_rep="–")
    .set_uuid("t5v")
)

# %%
distance = example_level.vote_distance(t5, reported["table5_example_level_votes"])
(
    tables.mark(distance, [f"table5_example_level_votes/{t}" for t in distance["error type"]], corpus)
    .style.hide(axis="index")
    .format({"distance": "{:.3f}"})
    .set_uuid("t5d")
)

# %% [markdown]
# (chance)=
# ## Agreement beyond chance
#
# The paper reads Table 5 directly. Chance-corrected coefficients say how far the annotators
# agree beyond what their marking rates alone would produce (zero is chance, one is perfect).

# %%
rel_ci = example_level.reliability_ci(marks, n_boot=N_BOOT, seed=0, level=LEVEL)
example_level.reliability_summary(rel_ci).style.hide(axis="index").set_uuid("rel")

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
models = list(paper.LLM_CAMPAIGNS.values())
llm = example_level.models_vs_majority(corpus, models, examples=stage2, n_boot=N_BOOT, seed=0)
by = llm.set_index(["model", "label"])
first = models[0]
for name, label in [
    ("maj_inc", "Incorrect"),
    ("maj_mis", "Misleading"),
    ("maj_nc", "Not Checkable"),
    ("maj_any", example_level.ANY),
]:
    glue(name, int(by.loc[(first, label), "majority_errors"]), display=False)
example_level.alignment_summary(llm).style.hide(axis="index").set_uuid("llm")

# %% [markdown]
# The paper reports raw agreement only:

# %%
ma = reported["llm_majority_alignment"]
versus_llm = paper.versus(
    [
        (f"{model}: {which}", ma[name][key], round(float(by.loc[(model, label), "agreement"]), 2))
        for name, model in [("o3-mini", "o3-mini"), ("gemma-3", "gemma-3"), ("gpt-4o", "gpt-4o")]
        for which, key, label in [("per type", "per_type", "per type (pooled)"), ("any error", "any", "Any")]
    ]
)
(
    tables.mark(versus_llm, "llm_majority_alignment", corpus)
    .style.hide(axis="index")
    .format(precision=2, na_rep="–")
    .set_uuid("llmv")
)

# %% mystnb={"figure": {"caption": "The conservative alignment paradox: raw agreement with the human majority against balanced accuracy, per model, with 95% bootstrap intervals.", "name": "fig-paradox"}, "image": {"alt": "Two dot plots, per type pooled and any error: for each LLM campaign, raw agreement and balanced accuracy with intervals; silent models have high agreement but balanced accuracy near 0.5."}}
plots.paradox(llm)

# %% [markdown]
# (inconsistencies-03)=
# ## The paper's own inconsistencies
#
# Figures of the paper this chapter compares with that contradict each other or the paper's
# other tables, each with its arithmetic (all are listed under `notes` in
# `data/paper_figures.yaml`). Where this corpus comes close to such a figure, that says nothing
# about which of the paper's numbers is right.

# %%
tables.show(paper.inconsistencies("03_example_level_agreement").drop(columns="chapter"))

# %% [markdown]
# ## Summary
#
# - {glue:text}`share_12:.0f`% of the examples get one or two "error" votes of any type out of
#   {glue:text}`n_raters`: agreement on *whether* a summary is faulty is weak, and the
#   chance-corrected coefficients make that explicit. {glue:text}`top_kappa_type` gets the
#   highest Fleiss' kappa ({glue:text}`top_kappa:.2f`); {glue:text}`chance_types`.
# - The conservative alignment paradox: {glue:text}`top_agree_model`, which marks
#   {glue:text}`top_agree_marks` of the {glue:text}`top_agree_n` per-type decisions, has the
#   highest per-type agreement ({glue:text}`top_agree:.2f`) and a balanced accuracy of
#   {glue:text}`top_agree_bacc:.2f`, {glue:text}`top_agree_reading`.
#   {glue:text}`top_recall_model` is the model that finds the most majority errors of any type
#   (recall {glue:text}`top_recall:.2f`, against {glue:text}`second_recall:.2f` for
#   {glue:text}`second_recall_model`); per type, with {glue:text}`maj_pooled` majority errors in
#   all, {glue:text}`top_recall_pooled_model` has the highest pooled recall
#   ({glue:text}`top_recall_pooled:.2f`).
# - gpt-4o's agreement with the majority on any error is {glue:text}`gpt4o_any:.2f`, against the
#   paper's {glue:text}`gpt4o_any_paper` (see the table above).
# - Not Checkable: {glue:text}`nc_zero_ours` examples get no vote here,
#   {glue:text}`nc_zero_reading` the {glue:text}`nc_zero_paper` of Table 5. The vote
#   distributions lie at a total variation distance of {glue:text}`tvd_min:.3f` to
#   {glue:text}`tvd_max:.3f` from the paper's. {glue:text}`sim_table5`

# %%
# Every reading above, computed from the tables of this page.
any_votes = votes[example_level.ANY]
glue("share_12", round(float(100 * any_votes.isin([1, 2]).mean()), 3), display=False)
rel = rel_ci[rel_ci["measure"] == "fleiss_kappa"].set_index("label")
per_type = rel.loc[list(example_level.CATEGORIES)]
glue("top_kappa_type", per_type["estimate"].idxmax(), display=False)
glue("top_kappa", round(float(per_type["estimate"].max()), 3), display=False)
at_chance = per_type.index[(per_type["low"] <= 0) & (per_type["high"] >= 0)].tolist()
glue(
    "chance_types",
    (
        " and ".join(at_chance)
        + (" stay" if len(at_chance) > 1 else " stays")
        + " within chance (their intervals include zero)"
    )
    if at_chance
    else "no type's interval includes zero",
    display=False,
)

pooled = llm[llm["label"] == "per type (pooled)"].set_index("model")
top = pooled["agreement"].idxmax()
glue("top_agree_model", top, display=False)
glue("top_agree_marks", int(pooled.loc[top, "model_errors"]), display=False)
glue("top_agree_n", int(pooled.loc[top, "examples"]), display=False)
glue("top_agree", round(float(pooled.loc[top, "agreement"]), 3), display=False)
glue("top_agree_bacc", round(float(pooled.loc[top, "bacc"]), 3), display=False)
silent_like = pooled.loc[top, "bacc_low"] <= 0.5 <= pooled.loc[top, "bacc_high"]
glue(
    "top_agree_reading",
    "no better than a model that marks nothing (its interval includes one half)"
    if silent_like
    else "better than a model that marks nothing",
    display=False,
)
any_rows = llm[llm["label"] == example_level.ANY].set_index("model")["recall_error"].sort_values(ascending=False)
glue("top_recall_model", any_rows.index[0], display=False)
glue("top_recall", round(float(any_rows.iloc[0]), 3), display=False)
glue("second_recall_model", any_rows.index[1], display=False)
glue("second_recall", round(float(any_rows.iloc[1]), 3), display=False)
glue("maj_pooled", int(pooled["majority_errors"].iloc[0]), display=False)
glue("top_recall_pooled_model", pooled["recall_error"].idxmax(), display=False)
glue("top_recall_pooled", round(float(pooled["recall_error"].max()), 3), display=False)
glue("gpt4o_any", round(float(by.loc[("gpt-4o", example_level.ANY), "agreement"]), 3), display=False)
glue("gpt4o_any_paper", str(ma["gpt-4o"]["any"]), display=False)

nc_ours, nc_paper = int(counts.loc[0, "Not Checkable"]), reported["table5_example_level_votes"]["Not Checkable"][0]
glue("nc_zero_ours", nc_ours, display=False)
glue("nc_zero_paper", nc_paper, display=False)
glue(
    "nc_zero_reading",
    "fewer than" if nc_ours < nc_paper else "more than" if nc_ours > nc_paper else "as many as",
    display=False,
)
glue("tvd_min", round(float(distance["distance"].min()), 3), display=False)
glue("tvd_max", round(float(distance["distance"].max()), 3), display=False)
kinds = sorted({tables.figure_status(f"table5_example_level_votes/{t}") for t in distance["error type"]})
glue(
    "sim_table5",
    (
        f"On the simulated stand-in these distributions are {' or '.join(kinds)} "
        "(see the last column of the tables above); the alignment of the LLMs with the "
        "majority is emergent: nothing in the simulation aims at it."
    )
    if corpus.simulated
    else "",
    display=False,
)
