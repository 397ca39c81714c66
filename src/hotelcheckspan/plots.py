"""One look for every figure: the seaborn theme and one colour per error type."""

from __future__ import annotations

import matplotlib.pyplot as plt
import seaborn as sns

TYPE_ORDER = ["Incorrect", "Misleading", "Not Checkable"]
TYPE_COLORS = {"Incorrect": "#d62728", "Misleading": "#ff7f0e", "Not Checkable": "#1f77b4"}
ANY_COLOR = "#555555"


def set_theme() -> None:
    """Apply the compendium's seaborn theme (deterministic fonts and sizes for stable PNGs)."""
    sns.set_theme(context="notebook", style="whitegrid", palette=[TYPE_COLORS[t] for t in TYPE_ORDER])
    plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 100, "figure.figsize": (7.0, 4.0),
                         "axes.titleweight": "bold", "svg.hashsalt": "hotelcheckspan"})


def type_palette(types=None) -> dict:
    """Colour per error type, restricted to ``types`` when given."""
    return {t: TYPE_COLORS[t] for t in (types or TYPE_ORDER)}


def length_distributions(examples):
    """Description words by split and summary words, side by side."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    sns.histplot(examples, x="description_words", hue="split", bins=30, ax=axes[0], element="step",
                 palette={"short": "#4c72b0", "long": "#8172b3"})
    axes[0].set(xlabel="description length (words)", ylabel="examples", title="Descriptions")
    sns.histplot(examples, x="summary_words", discrete=True, ax=axes[1], color="#4c72b0")
    axes[1].set(xlabel="summary length (words)", ylabel="examples", title="Summaries")
    fig.tight_layout()
    return fig


def span_lengths(spans):
    """Span length in words, humans against each model campaign."""
    data = spans.assign(annotator=spans["campaign"].where(spans["kind"] == "model", "humans"))
    fig, ax = plt.subplots(figsize=(8, 3.6))
    sns.boxplot(data, x="words", y="annotator", ax=ax, color="#cccccc", fliersize=2)
    ax.set(xlabel="span length (words)", ylabel="")
    fig.tight_layout()
    return fig


def type_shares(table, title="Error types per campaign"):
    """Stacked bars of type shares per campaign, from a ``dataset.campaign_table``."""
    shares = table.set_index("name")[[f"{t} %" for t in TYPE_ORDER]].fillna(0)
    shares.columns = TYPE_ORDER
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(shares) + 1.4))
    left = None
    for t in TYPE_ORDER:
        ax.barh(shares.index, shares[t], left=left, color=TYPE_COLORS[t], label=t)
        left = shares[t] if left is None else left + shares[t]
    ax.invert_yaxis()
    ax.set(xlabel="share of the campaign's spans (%)", xlim=(0, 100), title=title)
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncol=3, frameon=False)
    fig.tight_layout()
    return fig
