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
# # Errors and impressions

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
from hotelcheckspan.analyses import impressions
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book.readings import impressions as impression_readings
from hotelcheckspan.reference import paper

plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
imp = reported["impressions"]
ratings = impressions.ratings(corpus)
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# Every human annotator also rated each summary's overall impression on a scale from
# {glue:text}`scale_low` to {glue:text}`scale_high`. Section 6.5
# of the paper asks how errors move that rating. This chapter answers:
#
# 1. Are summaries with errors rated lower? ([t-test](ttest))
# 2. Does the rating fall with the number of errors? ([Correlation](count))
# 3. Which error type costs most? ([Per type](impression-types))
# 4. How many highly rated summaries contain errors? ([Rating bands](bands))
# 5. Do the conclusions survive once we respect that each annotator rates many summaries on
#    their own scale? ([Beyond the paper](models))

# %% [markdown]
# ## Summary
#
# - {glue:md}`effect_basis` records with errors are rated {glue:text}`direction`, {glue:text}`significance`
#   ({glue:text}`p_welch`), with a {glue:text}`effect_size` effect (Cohen's d
#   {glue:text}`d_ci`; the paper's t and group sizes imply {glue:text}`paper_d`). The no-error mean is
#   {glue:text}`gap_no_error` {glue:text}`gap_dir` the paper's; the Incorrect drop ({glue:text}`inc_drop`)
#   is {glue:text}`inc_drop_reading` the paper's {glue:text}`paper_inc_drop`; t ({glue:text}`t_ours`)
#   comes out {glue:text}`t_reading` than the paper's, d {glue:text}`d_reading` and r ({glue:text}`r_ours`)
#   {glue:text}`r_reading`: {glue:text}`spread_reading`. Of the mid-rated records, {glue:text}`mid_pct`%
#   carry errors, {glue:text}`mid_reading`.
#
# ```{glue:md} band_claim_needs
# :format: myst
# ```
#
# ```{glue:md} sim_means_note
# :format: myst
# ```
#
# - {glue:md}`order_basis` the paper's order of costs, {glue:text}`paper_order` (its drops
#   {glue:text}`paper_drops`), {glue:text}`order_reading`.
#
# ```{glue:md} order_note
# :format: myst
# ```
#
# - {glue:md}`icc_basis` about {glue:text}`icc_pct`% of the variance of the ratings lies between
#   annotators{glue:md}`icc_source`.
#   Accounting for it {glue:text}`mixed_reading`: the any-error effect is
#   {glue:text}`ols_coef` without and {glue:text}`mixed_coef` with a random intercept per
#   annotator.
#
# ```{glue:md} mixed_note
# :format: myst
# ```

# %% [markdown]
# (ttest)=
# ## With and without errors (Section 6.5)
#
# Welch's t-test (unequal variances; the paper names no variant of its t-test) of the impression
# of records without errors against records with at least one, and Cohen's d with a {glue:text}`n_boot`-resample bootstrap
# interval.

# %%
n_boot = 2000
welch = impressions.errors_vs_none(ratings, n_boot=n_boot)
impression_readings.welch_beside_paper(welch, corpus)

# %% [markdown]
# (count)=
# ## Number of errors (Section 6.5)

# %%
corr = impressions.count_correlation(ratings)
tables.correlation(corr)

# %%
counts = impressions.by_count(ratings)
impression_readings.count_beside_paper(ratings, corr, corpus)

# %% mystnb={"figure": {"caption": "Mean impression by number of errors marked in the record (blue dots, with 95% confidence intervals; a group marked + pools that many errors and more). Red cross: the paper's mean for records without errors; red dashed line: its mean over all records with errors.", "name": "fig-impression-count"}}
plots.impression_by_count(counts, {"0": imp["mean_no_error"]}, paper_with_error=imp["mean_with_error"])

# %%
tables.by_count(counts)

# %% [markdown]
# (impression-types)=
# ## Per error type (Section 6.5)
#
# Mean impression of records with at least one error of the type, and its drop from the
# no-error mean (a record with two types counts for both, as we read the paper).

# %%
per_type = impressions.by_type(ratings).set_index("type")
impression_readings.types_beside_paper(per_type, corpus)

# %% [markdown]
# (bands)=
# ## Rating bands (Section 6.5)

# %%
b = impressions.bands(ratings).set_index("band")
impression_readings.bands_beside_paper(b, corpus)

# %% [markdown]
# (rule-checks-07)=
# ## The paper's figures checked by rule
#
# The paper's impression figures checked against each other by rule, as
# `data/paper_relations.yaml` declares them; each row names its rule: statcheck (does the p-value
# follow from the statistic and its degrees of freedom), GRIM (can a mean of whole-number ratings
# over that many records take the printed value; once the records reach ten to the power of the
# decimals printed every mean is possible, and a check that cannot fail is not decidable by rule),
# plain arithmetic, or a predicate over the paper's figures (do the errors it counts fit in its
# longest summary). These are
# checks of the paper alone: where this corpus comes close to a figure, that says nothing about
# which of the paper's numbers is right.

# %%
tables.inconsistencies("07_impressions")

# %% [markdown]
# (models)=
# ## Beyond the paper: do ratings cluster by annotator?
#
# The t-test and the correlation treat {glue:text}`n_ratings` ratings as independent, but
# {glue:text}`n_annotators` annotators gave them, each with their own scale. How much of the
# variance sits between annotators?

# %%
variance = impressions.annotator_variance(ratings)
tables.annotator_variance(variance)

# %% [markdown]
# ```{glue:md} variance_note
# :format: myst
# ```
#
# The any-error effect with and without a random intercept per annotator (statsmodels MixedLM).
#
# ```{glue:md} per_example_caveat
# :format: myst
# ```

# %%
effect = impressions.error_effect_models(ratings)
tables.models(effect)

# %% [markdown]
# And the effect of one more error of each type, from ordinary least squares, the mixed model,
# and an ordinal logit (statsmodels OrderedModel, coefficients on the log-odds scale) as a check
# that treating the rating scale as interval does not drive the ordering.

# %%
per_type_models = impressions.per_type_models(ratings)
tables.models(per_type_models)

# %% tags=["remove-input"]
readings.glue_all(
    impression_readings.readings(
        corpus,
        ratings=ratings,
        welch=welch,
        corr=corr,
        per_type=per_type,
        bands=b,
        variance=variance,
        effect=effect,
        per_type_models=per_type_models,
        n_boot=n_boot,
    )
)
