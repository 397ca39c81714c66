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
# # MQM: the field's other format

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
from hotelcheckspan import paths
from hotelcheckspan.analyses import mqm_systems
from hotelcheckspan.book import readings, report, tables
from hotelcheckspan.book.readings import mqm as mqm_readings
from hotelcheckspan.corpora import frame as F

ted = hotelcheckspan.load(paths.MQM_TED)  # WMT 2021's TED talks, English to German, as the repository ships it
frame = F.resolve(ted)  # one split (the language pair en-de), the raters' annotation as the reference
N_BOOT = 1000  # bootstrap resamples: of whole segments for the systems, of segment-system pairs for the metric
ALPHA, LEVEL = mqm_systems.ALPHA, mqm_systems.LEVEL  # the paired tests' level and the intervals' coverage
report.corpus_banner(ted, frame)

# %% [markdown]
# ## Overview
#
# Machine translation evaluates with span annotations too. Its Multidimensional Quality Metrics
# (MQM) annotations mark each error of a translation with a category and a severity, made by
# professional translators; Google released them for the WMT submissions from 2020 on in the Marot
# viewer's tab-separated format, whose columns changed once over the years (both column sets are
# read here) {cite:p}`freitag2021experts`. LLM span annotators for
# translation are judged against exactly these, so this chapter reads one such file with the same
# package a factgenie export goes through, `hotelcheckspan.load("mqm_ted_ende.tsv")`, and asks:
#
# 1. What does the file hold, once read into the corpus' frames? ([Reading it](reading))
# 2. Does the recomputed system table equal the published one? ([The published table](published))
# 3. Which systems do the segments tell apart? ([Intervals and clusters](clusters))
# 4. Who rated what? ([The raters](raters))
# 5. Does a reference-based metric agree with the experts, as WMT's metrics task asks?
#    ([A metric against MQM](metric))
#
# The file is bundled verbatim in `data/wmt-mqm-ted-ende/` (Apache-2.0, with its `SOURCE.md`).
# Its annotations are real: no number here is simulated.

# %% tags=["remove-input"]
systems = mqm_systems.system_intervals(ted, n_boot=N_BOOT, alpha=ALPHA, level=LEVEL)
published = mqm_systems.published()
table = mqm_systems.reproduction(systems, published)
raters = mqm_systems.rater_table(ted)
chrf = mqm_systems.reference_metric(ted)  # chrF of each system's translation against the reference's
validation = hotelcheckspan.evaluate_metric(
    mqm_systems.without_reference(ted),
    chrf,
    targets=["mqm"],
    with_judges=False,
    n_boot=N_BOOT,
    statistics=["kendall_tau_b", "pearson"],
)
readings.glue_all(
    mqm_readings.readings(
        ted,
        table=table,
        published=published,
        systems_frame=systems,
        raters_frame=raters,
        validation=validation,
        alpha=ALPHA,
        level=LEVEL,
        n_boot=N_BOOT,
    )
)

# %% [markdown]
# (reading)=
# ## Reading it: one row per error, a record per rater and segment
#
# One row of the file is one error: its span is marked in the translation with `<v>` and `</v>`,
# its category is hierarchical (`Accuracy/Mistranslation`, `Fluency/Punctuation`) and its
# severity Major or Minor; a segment the rater found clean has one `No-error` row. The reader keeps
# factgenie's key: the test set is the dataset, the language pair the split (as factgenie's own
# MT exports write it, so the frame's one block per split is one block per language pair), the
# system the `setup_id` and the segment the example; each rater is an annotator group, and each
# rater's rows on one segment of one system are one record. The span's offsets are counted in the
# translation without its markers, and an error that marks nothing (an omission) counts as an
# error of the segment without a span.
#
# The file holds {glue:text}`n_systems` systems' translations of {glue:text}`n_segments` segments,
# {glue:text}`n_rated` rated segment-system pairs by {glue:text}`n_raters` raters:
# {glue:text}`n_clean` found clean and {glue:text}`n_errors` errors ({glue:text}`n_major` Major,
# {glue:text}`n_minor` Minor), of which {glue:text}`n_spanless` mark no span. {glue:text}`quirks`
# The repository's per-segment score file lists {glue:text}`n_listed` segments: the
# {glue:text}`n_unrated` it leaves without a score (segments {glue:text}`unrated_range`, one talk)
# were rated by no one and are not in the file, so the published table rests on the rated ones.

# %% [markdown]
# (published)=
# ## The published table, recomputed
#
# A segment's MQM score is the sum of its errors' weights ({glue:text}`wmt_weights`; a clean
# segment's `No-error` row weighs nothing), averaged over its raters; a system's
# score is the mean over its segments, lower being better. `hotelcheckspan target mqm_ted_ende.tsv
# --target mqm` computes it; the repository's README prints it to two decimals
# ({glue:text}`source`).

# %%
tables.mqm_reproduction(table)

# %% [markdown]
# All {glue:text}`n_published` systems come out {glue:text}`same_order` as the README lists them
# (its ranks included), {glue:text}`within_unit_said`. Rounded half-up, {glue:text}`n_within_rounding`
# of them print as the README prints them, and {glue:text}`n_truncated` are the printed value with
# the later digits cut off, {glue:text}`rounding_said`. The largest gap is
# {glue:text}`largest_gap_system`'s, {glue:text}`largest_gap` ({glue:text}`largest_gap_ours`
# against the printed {glue:text}`largest_gap_published`), {glue:text}`gap_vs_unit` one unit. The
# reproduction is therefore read at one unit of the printed last digit, and the test that pins it
# (`tests/test_mqm.py`) holds every system to that and to the README's order.

# %% [markdown]
# (clusters)=
# ## What the table does not print: intervals and clusters
#
# The published table gives each system one number. Resampling the segments (every system's
# translations of a segment stay together, so two systems' resamples are paired) gives each an
# interval ({glue:text}`level`, over {glue:text}`n_boot` resamples), and a one-sided paired bootstrap
# test between every two systems (at {glue:text}`alpha`) groups them into significance clusters as
# WMT's metrics task groups metrics (mt-metrics-eval's `AssignRanks`): walking down the ranking, a
# system starts a new cluster when a system of the current cluster is better in the paired test.

# %%
tables.mqm_systems(systems)

# %% [markdown]
# {glue:text}`best_system` scores best ({glue:text}`best_interval`), and the reference translation
# is {glue:text}`ref_rank`, with an MQM score of {glue:text}`ref_errors`: the experts found errors in
# the human translation too. The segments sort the systems into {glue:text}`n_clusters` clusters,
# the first holding {glue:text}`first_cluster`. Between neighbours in the ranking,
# {glue:text}`neighbours_said` (the median interval spans {glue:text}`median_width`): a printed
# order between neighbours is a difference the segments show only where the test tells them apart.

# %% [markdown]
# (raters)=
# ## The raters
#
# Each segment-system pair has {glue:text}`raters_per_pair`; who rated what is the file's design,
# not the reader's choice. A rater's mean score mixes how strict the rater is with which systems
# and segments the rater drew, so the means below describe the workload, not the raters' severity.

# %%
tables.mqm_raters(raters)

# %% [markdown]
# {glue:text}`rater_most` rated the most pairs ({glue:text}`rater_most_texts`),
# {glue:text}`rater_least` the fewest ({glue:text}`rater_least_texts`); the mean scores run from
# {glue:text}`rater_low_score` ({glue:text}`rater_low`) to {glue:text}`rater_high_score`
# ({glue:text}`rater_high`). With {glue:text}`one_rater` per pair the file has no inter-rater
# agreement to report; WMT's later side-by-side files, with several raters on every segment, do, and
# `hotelcheckspan agreement` computes it on them as on any factgenie export (the tests build such a
# file).

# %% [markdown]
# (metric)=
# ## A metric against MQM, as WMT's metrics task validates one
#
# The reference translation is one of the rated systems, so a reference-based metric can be
# computed here offline: sacrebleu's sentence chrF of each other system's translation against the
# reference's translation of the same segment. It is validated against the MQM score of each
# segment (negated, so that higher is better, as for every target of the package) with the
# statistics of {doc}`11_validate_your_metric`: Kendall τb between segments, and at system level
# the pairwise accuracy of WMT 2023, on the {glue:text}`chrf_n_systems` systems other than the
# reference.

# %%
tables.metric_statistics(validation.statistics, "mqm", ["kendall_tau_b", "pearson"], order=["chrf"])

# %% [markdown]
# Segment by segment, chrF's τb with the experts is {glue:text}`chrf_tau` on
# {glue:text}`chrf_texts` segment-system pairs (its interval {glue:text}`chrf_tau_vs_zero` zero);
# its Pearson correlation {glue:text}`chrf_pearson`. These intervals resample the segment-system
# pairs one by one, as chapter 11 resamples its texts, not whole segments as the system table
# above does. Between systems, chrF orders {glue:text}`chrf_pairwise` of the
# {glue:text}`chrf_pairs` system pairs as the experts order them (pairwise accuracy), and the
# systems' mean chrF has a Pearson correlation of {glue:text}`chrf_system_pearson` with their mean
# MQM; within a system (the partial correlation, with the system regressed out) it is
# {glue:text}`chrf_partial`. The pairwise accuracy with an optimised tie threshold (`acc23`) is
# left out of this page for time (its threshold search over these many pairs takes tens of
# seconds); `hotelcheckspan metric` computes it with the rest.

# %% [markdown]
# ## Summary
#
# - WMT's MQM annotations read into the same frames as a factgenie export: a segment, a system and
#   a rater are an example, a setup and a group; severity and category are both kept; the language
#   pair is a split, so every command computes per language pair.
# - The README's TED English-German table is reproduced {glue:text}`same_order` (the reference
#   translation {glue:text}`ref_rank`, as printed), each system within one unit of the printed last
#   digit ({glue:text}`unit`); the largest gap is {glue:text}`largest_gap_system`'s
#   {glue:text}`largest_gap`.
# - What the table does not print: each system's interval, and the significance clusters the
#   segments sort the systems into ({glue:text}`n_clusters`).
# - chrF against the reference agrees with the experts at τb {glue:text}`chrf_tau` segment by
#   segment, and orders {glue:text}`chrf_pairwise` of the system pairs as they do.
