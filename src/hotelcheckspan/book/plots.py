"""One look for every figure: the seaborn theme, with each error type in its colour from
:mod:`hotelcheckspan.categories`."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns

from ..categories import COLORS, PLOT_ORDER


def set_theme() -> None:
    """Apply the compendium's seaborn theme (deterministic fonts and sizes for stable PNGs)."""
    sns.set_theme(context="notebook", style="whitegrid", palette=[COLORS[t] for t in PLOT_ORDER])
    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 100, "figure.figsize": (7.0, 4.0),
                         "axes.titleweight": "bold", "svg.hashsalt": "hotelcheckspan"})


def finish(fig):
    """Lay out and close a figure, so that a notebook shows it once, as the cell's result."""
    fig.tight_layout()
    plt.close(fig)
    return fig


def length_distributions(examples):
    """Description words by split and summary words, side by side."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    sns.histplot(examples, x="description_words", hue="split", bins=30, ax=axes[0], element="step",
                 palette={"short": "#4c72b0", "long": "#8172b3"})
    axes[0].set(xlabel="description length (words)", ylabel="examples", title="Descriptions")
    sns.histplot(examples, x="summary_words", discrete=True, ax=axes[1], color="#4c72b0")
    axes[1].set(xlabel="summary length (words)", ylabel="examples", title="Summaries")
    return finish(fig)


def span_lengths(spans):
    """Span length in words, humans against each model campaign."""
    data = spans.assign(annotator=spans["campaign"].where(spans["kind"] == "model", "humans"))
    fig, ax = plt.subplots(figsize=(8, 3.6))
    sns.boxplot(data, x="words", y="annotator", ax=ax, color="#cccccc", fliersize=2)
    ax.set(xlabel="span length (words)", ylabel="")
    return finish(fig)


def type_shares(table, title="Error types per campaign"):
    """Stacked bars of type shares per campaign, from a ``dataset.campaign_table``."""
    shares = table.set_index("name")[[f"{t} %" for t in PLOT_ORDER]].fillna(0)
    shares.columns = PLOT_ORDER
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(shares) + 1.4))
    left = None
    for t in PLOT_ORDER:
        ax.barh(shares.index, shares[t], left=left, color=COLORS[t], label=t)
        left = shares[t] if left is None else left + shares[t]
    ax.invert_yaxis()
    ax.set(xlabel="share of the campaign's spans (%)", xlim=(0, 100), title=title)
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=3, frameon=False)
    return finish(fig)


def paradox(table):
    """Raw agreement against balanced accuracy per model, per type (pooled) and for any error,
    from ``example_level.models_vs_majority``: where the two diverge, agreement rewards silence."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for ax, lab in zip(axes, ["per type (pooled)", "Any"]):
        t = table[table["label"] == lab].reset_index(drop=True)
        y = range(len(t))
        for measure, color, dy in (("agreement", "#999999", -0.15), ("bacc", "#2a6f97", 0.15)):
            ax.errorbar(t[measure], [v + dy for v in y], xerr=[t[measure] - t[f"{measure}_low"],
                        t[f"{measure}_high"] - t[measure]], fmt="o", color=color, label=measure, capsize=3)
        ax.axvline(0.5, color="#555555", lw=0.8, ls=":")
        ax.set(yticks=list(y), yticklabels=t["model"], xlim=(0, 1), xlabel="score against the human majority",
               title=lab)
    axes[0].invert_yaxis()
    axes[1].legend(loc="lower right")
    return finish(fig)


def pair_spread(pairs, paper_table6=None):
    """Per-pair F1 behind each Table 6 average (dots), the average (bar) and the paper's (cross)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    comps = list(dict.fromkeys(pairs["comparison"]))
    for ax, match in zip(axes, ("hard", "soft")):
        p = pairs[pairs["match"] == match]
        means = p.groupby("comparison", sort=False)["f1"].mean().reindex(comps)
        ax.barh(comps, means, color="#dddddd", label="our mean")
        for i, comp in enumerate(comps):  # pairs spread evenly around the row: deterministic, unlike jitter
            f1 = p.loc[p["comparison"] == comp, "f1"].to_numpy()
            offsets = np.linspace(-0.2, 0.2, len(f1)) if len(f1) > 1 else np.zeros(1)
            ax.scatter(f1, i + offsets, color="#2a6f97", s=30, zorder=4, label="one pair")
        if paper_table6:
            key = "F1_H" if match == "hard" else "F1_S"
            xs = [paper_table6.get(c, {}).get(key) for c in comps]
            ax.scatter([x for x in xs if x is not None], [c for c, x in zip(comps, xs) if x is not None],
                       marker="X", s=70, color="#d62728", zorder=5, label="paper")
        ax.set(xlim=(0, 1), xlabel=f"F1 ({match})", ylabel="", title=f"{match.capitalize()} match")
    handles, labels = axes[1].get_legend_handles_labels()
    seen = dict(zip(labels, handles))
    axes[1].legend(seen.values(), seen.keys(), loc="lower right")
    axes[0].invert_yaxis()
    return finish(fig)


def silhouette(curve, chosen: int, paper_k: int | None = None):
    """Silhouette over k, the chosen k marked (and the paper's, if given)."""
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.plot(curve["k"], curve["silhouette"], marker="o", color="#2a6f97")
    ax.axvline(chosen, color="#2a6f97", ls="--", lw=1, label=f"chosen k = {chosen}")
    if paper_k:
        ax.axvline(paper_k, color="#d62728", ls=":", lw=1.2, label=f"paper's k = {paper_k}")
    ax.set(xlabel="k (number of clusters)", ylabel="silhouette")
    ax.legend(loc="lower right")
    return finish(fig)


def cluster_map(xy, labels, types, names):
    """The spans in 2-D (PCA of their embeddings): colour per error type, cluster names at the centres."""
    fig, ax = plt.subplots(figsize=(9, 6.5))
    for t in PLOT_ORDER:
        m = np.asarray(types) == t
        ax.scatter(xy[m, 0], xy[m, 1], s=10, alpha=0.6, color=COLORS[t], label=t)
    for c, name in enumerate(names):
        pts = xy[labels == c]
        if len(pts):
            ax.annotate(name, pts.mean(axis=0), fontsize=7, ha="center",
                        bbox={"boxstyle": "round,pad=0.2", "fc": "white", "alpha": 0.7, "lw": 0})
    ax.set(xlabel="PC 1", ylabel="PC 2", xticks=[], yticks=[])
    ax.legend(loc="upper right", markerscale=2)
    return finish(fig)


def impression_by_count(table, paper_means=None):
    """Mean impression per number of errors with 95% CIs; the paper's means as crosses."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.errorbar(table["errors"], table["mean"], yerr=[table["mean"] - table["low"], table["high"] - table["mean"]],
                fmt="o-", color="#2a6f97", capsize=4, label="this corpus")
    if paper_means:
        ax.scatter(list(paper_means), list(paper_means.values()), marker="X", s=70, color="#d62728", zorder=5,
                   label="paper")
    ax.set(xlabel="errors marked in the record", ylabel="mean impression (1-7)", ylim=(1, 7))
    ax.legend(loc="upper right")
    return finish(fig)
