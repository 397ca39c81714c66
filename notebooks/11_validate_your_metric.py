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
# # Validate your own metric

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
from hotelcheckspan import annotator_sets, paths
from hotelcheckspan.analyses import metric_validation as mv
from hotelcheckspan.book import plots, readings, real_shape, report, tables
from hotelcheckspan.book.readings import validate_your_metric
from hotelcheckspan.corpora import frame as F

plots.set_theme()
# the corpus of the real sections (HOTELCHECKSPAN_REAL_DATA, _TASK, _SPLIT), checked as `make corpus-check` checks it
real_frame = real_shape.framed(paths.real_corpus_dir(paths.REAL_TEST_CORPUS), **paths.real_selection())
real = real_frame.corpus
real_names = annotator_sets.names(real)  # its judges as the glossary names them, on every page
report.corpus_banner(real, real_frame)

# %% [markdown]
# ## Overview
#
# The paper names three uses of its annotations: studying disagreement, evaluating LLMs as judges
# ({chapter}`10`) and **validating automatic faithfulness metrics**. A metric gives each text a
# score; the human span annotations say, per text, how many errors the annotators found and, where
# the majority is clear, whether the text has an error (the targets shown here; the [methods
# page](../book/methods.md) defines the others `evaluate_metric` computes by default: the share of a
# text's human records with no span, and the mean impression where a corpus has impressions). This
# chapter asks how well a metric's scores agree with that, with the statistics the metrics shared
# tasks use (pairwise accuracy with ties and its tie calibration, acc23, proposed in "Ties Matter"
# {cite:p}`deutsch2023ties` and adopted by WMT's metrics task; Deutsch et al.'s resampling
# {cite:p}`deutsch2021resampling`; TRUE {cite:p}`honovich2022true` and FRANK
# {cite:p}`pagnoni2021frank`), each beside the humans' own agreement (the ceiling) and, where it
# depends on the metric, what a metric scoring at random reaches:
#
# 1. Which metric agrees best with the humans, text by text, and which can the data not tell
#    apart? ([Example level](example-level))
# 2. Does it find the texts with errors? ([Detection](detection))
# 3. Does it rank the generating systems as the humans do? ([System level](system-level))
# 4. Where does lexical support fail? ([By domain](by-domain))
# 5. The board on the stand-in, and how to validate your own metric. ([Your metric](your-metric))
#
# The metrics here are the corpus' LLM judges read as metrics (minus the number of spans a judge
# marked on a text) and cheap baselines computed offline: the text's words found in its source
# (ROUGE-1 and ROUGE-L precision), chrF (character n-grams; its recall weighting makes it measure
# mostly how much of a long source the text covers), each sentence's best all-MiniLM-L6-v2 match
# in the source, averaged over the text's sentences (`minilm_support`) or the weakest sentence's
# (`minilm_support_min`), BERTScore precision with the same weights (which reads only the start
# of a source as long as these), and minus the length in words (the embedding baselines where
# `make baselines` computed them for the corpus). The methods page defines every target and
# statistic.

# %% [markdown]
# By default the real corpus is the test split of "Large Language Models as Span Annotators"
# {cite:p}`kasner2026spanannotators`; `HOTELCHECKSPAN_REAL_DATA` points the chapter's real
# sections at any other factgenie corpus. {glue:md}`corpus_said` Every example-level and
# detection interval below is a {glue:text}`level` percentile bootstrap over the texts, from one
# matrix of {glue:text}`n_resamples` resamples shared by every metric, so two metrics' intervals
# are paired. The other intervals have their own resamples, as many: the system level resamples
# inputs (a system's texts on one input go together), each domain resamples its own texts, and
# the human ceiling its own subset of texts. The baselines' scores: {glue:text}`baselines_from` (the embedding baselines take minutes
# on a CPU, so `make baselines` computes them once, with a digest of the texts they belong to).

# %% [markdown]
# (example-level)=
# ## Example level: does the metric order the texts as the humans do?
#
# The target is `errors`, minus the mean number of error spans per human record of a text (higher
# = more faithful, as every metric here). Kendall's τb is the share of pairs of texts the metric
# and the humans order alike minus the share they order oppositely, corrected for ties. Clusters
# follow the metrics shared tasks' rule: walking down the ranking, a metric starts a new cluster
# when some metric of the current cluster beats it in a paired permutation test (PERM-BOTH, at
# the {glue:text}`alpha` level). A metric scoring at random (its own scores shuffled among the
# texts) has τb {glue:text}`random_tau` in expectation whatever its scores, so the board has no
# random column; the tables below show the random level where it depends on the metric.
# {glue:text}`ceiling_rule`

# %%
baselines, baselines_from = mv.bundled_baselines(real)
# the two targets this chapter shows (the default adds error_free, and impression where a corpus has it)
validation = hotelcheckspan.evaluate_metric(real, baselines=baselines, targets=["errors", "majority"])
board = mv.leaderboard(validation, "errors", "kendall_tau_b")
tables.metric_board(board, "kendall_tau_b", names=real_names)

# %% [markdown]
# {glue:text}`top_reading`; the first cluster, of {glue:text}`n_clusters`, holds
# {glue:text}`first_cluster`. {glue:text}`ceiling_reading` {glue:text}`baseline_judge_reading`{glue:text}`undefined_baselines`
#
# The other statistics of the shared tasks on the same target: Kendall's τc, the pairwise
# accuracy with ties acc23 (its tie threshold chosen to maximise it, re-chosen in every resample),
# Spearman and Pearson; at random τc, Spearman and Pearson are {glue:text}`random_tau` like τb,
# while acc23's random level depends on the metric's ties, so it has a column.
# {glue:text}`acc23_reading`

# %% tags=["remove-input"]
tables.dropdown(
    tables.metric_statistics(
        validation.statistics,
        "errors",
        ["kendall_tau_b", "kendall_tau_c", "acc23", "spearman", "pearson"],
        order=board["metric"],
        random=["acc23"],
        names=real_names,
    ),
    "Every example-level statistic, target errors",
)

# %% [markdown]
# (detection)=
# ## Detection: does the metric find the texts with errors?
#
# Where at least {glue:text}`clear_share` of a text's human records agree on whether it has an
# error, that majority is a binary target. {glue:text}`majority_said` A metric detects errors well
# when low scores go with "error". The statistics are ROC AUC (threshold-free), average precision,
# and balanced accuracy at a threshold chosen by cross-validation on other texts, never on the
# texts it is reported on; the last two are shown with what a metric scoring at random reaches.

# %%
tables.metric_statistics(
    validation.statistics,
    "majority",
    ["roc_auc", "average_precision", "bacc"],
    order=board["metric"],
    random=["average_precision", "bacc"],
    names=real_names,
)

# %% [markdown]
# {glue:text}`top_detector` detects best by ROC AUC ({glue:text}`top_auc`),
# {glue:text}`detectors_close_said`; {glue:text}`below_random`. {glue:text}`detection_random` By
# ROC AUC, {glue:text}`baselines_beat_judges`. {glue:text}`ceiling_detection`

# %% [markdown]
# (system-level)=
# ## System level: does the metric rank the generating systems?
#
# {glue:text}`systems_said` A system's score is the mean over its texts, for the metric and for
# the humans; the intervals resample inputs, keeping the systems paired. Pairwise accuracy is the
# share of system pairs ordered as the humans order them. The soft version (the complement of
# PCE, {cite:p}`thompson2024spa`) compares, pair by pair, the permutation p-values that one system
# beats the other by the metric and by the humans, so a metric is charged by how far its
# confidence on each pair is from the humans'; it has no interval (a permutation test inside every
# resample is not computed). Kendall τb of system means correlates the systems' mean scores with
# their mean targets. The partial correlation regresses the system out (FRANK), asking whether the
# metric orders texts *within* a system. Item-averaged τb (mt-metrics-eval's `average_by="item"`)
# is not a ranking of systems: for each input, τb between the metric's and the humans' scores of
# the systems' texts on it, averaged over the inputs.

# %% tags=["remove-input"]
tables.metric_statistics(
    validation.system.assign(n=0),
    "errors",
    ["pairwise_accuracy", "soft_pairwise_accuracy", "kendall_tau_b", "partial_pearson", "item_kendall_tau_b"],
    order=board["metric"],
    headers={"kendall_tau_b": "Kendall τb of system means"},
    names=real_names,
) if len(validation.system) else None  # no system level with fewer than three systems

# %% [markdown]
# {glue:text}`system_reading`

# %% [markdown]
# (by-domain)=
# ## By domain: where does lexical support fail?
#
# {glue:text}`domains_said`

# %%
domains = mv.by_group(validation, "dataset")
tables.by_group(domains, "kendall_tau_b", names=real_names)

# %% [markdown]
# {glue:text}`domain_reading`.

# %% [markdown]
# (your-metric)=
# ## The stand-in, and your own metric
#
# The example-level board (target errors, Kendall's τb) on the bundled corpus:

# %%
corpus = hotelcheckspan.load()
report.corpus_banner(corpus, F.resolve(corpus))  # the stand-in's frame: its splits pooled, as the paper pools them

# %%
standin_baselines, standin_baselines_from = mv.bundled_baselines(corpus)
standin = hotelcheckspan.evaluate_metric(corpus, baselines=standin_baselines, targets=["errors"])  # the board's target
tables.metric_board(mv.leaderboard(standin, "errors", "kendall_tau_b"), "kendall_tau_b")

# %% [markdown]
# ```{glue:md} simulated_note
# :format: myst
# ```
#
# A metric computed elsewhere (an NLI model, a GPU run) comes in as a scores file: one row per
# text, keyed as factgenie keys it, one column per metric.
#
# ```bash
# hotelcheckspan baselines data/span-annotation-d2t-test -o scores.csv     # the built-in baselines
# hotelcheckspan metric data/span-annotation-d2t-test my-scores.csv --json  # your metric, judged
# hotelcheckspan metric data/span-annotation-d2t-test my-scores.csv --lower-is-better my_error_rate
# ```
#
# `hotelcheckspan.evaluate_metric(corpus, "my-scores.csv")` returns the same from Python. A key
# the corpus does not have, a duplicate, a score that is not a number: each is named with its
# file, line and column, all at once.

# %% tags=["remove-input"]
readings.glue_all(
    validate_your_metric.readings(
        validation, domains, standin, corpus, baselines_from=baselines_from, real_corpus=real
    ),
    names=real_names,
)

# %% [markdown]
# ## Summary
#
# - On real annotations, text by text, {glue:text}`top_reading`, and the first significance
#   cluster holds {glue:text}`first_cluster`; by τb {glue:text}`baselines_summary`, while in
#   detection by ROC AUC {glue:text}`detection_summary`.
# - {glue:text}`system_summary`
# - Any metric computed anywhere is validated the same way from a scores file, beside the human
#   ceiling and a random baseline, with paired intervals.
