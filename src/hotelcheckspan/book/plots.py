"""One look for every figure: the seaborn theme, with each error type in its colour from
:mod:`hotelcheckspan.categories`, drawn to be read at the size the book shows it.

Rules every figure here follows (``tests/test_plots.py`` checks them for every function):

- drawn at the book's content width, ``WIDTH`` inches at 100 dpi = 672 px, so it is shown at
  100% and its fonts (``set_theme``: at least 9.9 pt, DejaVu Sans, which matplotlib ships, so
  PNGs do not depend on the machine's fonts) stay at least 9 pt as displayed;
- constrained layout; legends outside the data (above the axes, via ``fig.legend(loc="outside
  upper center")``), never on a title or a point;
- no two text labels overlap (tick labels, axis labels, titles, legends, annotations);
- deterministic: the same data draw byte-identical PNGs (no jitter, no random placement).

The caption of a figure is in the notebook cell's ``mystnb: figure:`` metadata; each function's
docstring says exactly what it draws so the caption can say it too.
"""

from __future__ import annotations

import os

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ..annotator_sets import display_name
from ..categories import COLORS, PLOT_ORDER

DPI = 100
WIDTH = 6.72  # inches: 672 px at DPI, the content column of the book's theme
OURS, PAPER, HUMAN, MUTED = "#2a6f97", "#d62728", "#7f7f7f", "#dddddd"


def set_theme() -> None:
    """Apply the compendium's seaborn theme (deterministic fonts and sizes for stable PNGs). In a
    notebook, figures are stored at twice their pixels ("retina": shown at the content width,
    sharp on a high-density screen and when a phone reader zooms in)."""
    try:
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("retina")
    except (ImportError, AttributeError):  # outside IPython: nothing is shown inline
        pass
    sns.set_theme(context="notebook", style="whitegrid", font_scale=0.9, palette=[COLORS[t] for t in PLOT_ORDER])
    plt.rcParams.update(
        {
            "figure.dpi": DPI,
            "savefig.dpi": DPI,
            "figure.figsize": (WIDTH, 3.6),
            "font.family": "sans-serif",
            "font.sans-serif": ["DejaVu Sans"],
            "axes.titleweight": "bold",
            "svg.hashsalt": "hotelcheckspan",
            "legend.frameon": False,
            # notebooks save with bbox_inches="tight": a small pad keeps the PNG at the content width
            "savefig.pad_inches": 0.02,
        }
    )


def figure(nrows: int = 1, ncols: int = 1, height: float = 3.6, **kwargs):
    """A figure at the content width with constrained layout (legends may sit outside)."""
    return plt.subplots(nrows, ncols, figsize=(WIDTH, height), layout="constrained", **kwargs)


def finish(fig):
    """Close a figure, so that a notebook shows it once, as the cell's result."""
    plt.close(fig)
    return fig


def _unit_axis(ax) -> None:
    """An x axis for scores in [0, 1] on side-by-side panels: a margin so that a dot at 0 or 1
    is drawn whole, and three short ticks so that one panel's "1" never meets the next one's "0"."""
    ax.set_xlim(-0.05, 1.05)
    ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"])


def _shared_prefix(names) -> str:
    """A prefix that two or more names share up to a separator ("zeroshot-"): on a phone the
    labels cannot spare the room, so they drop it and the axis says so ("" if there is none)."""
    names = sorted({str(n) for n in names})
    if len(names) < 2:
        return ""
    prefix = os.path.commonprefix(names)
    cut = max(prefix.rfind("-"), prefix.rfind("_"), prefix.rfind("/"))
    return prefix[: cut + 1] if cut >= 2 else ""


def _left_out(prefix: str) -> str:
    return f'"{prefix}" left out of the names' if prefix else ""


def _dots_with_intervals(ax, table: pd.DataFrame, y: np.ndarray, series: list[tuple]) -> None:
    """One dot per row at height ``y`` with its interval as horizontal bars, for each series
    ``(column, legend label, colour, vertical offset)``; bounds in ``column_low, column_high``."""
    for column, label, color, dy in series:
        ax.errorbar(
            table[column],
            y + dy,
            xerr=[table[column] - table[f"{column}_low"], table[f"{column}_high"] - table[column]],
            fmt="o",
            color=color,
            label=label,
            capsize=3,
        )


def legend_above(fig, ax=None, ncol: int | None = None, **kwargs):
    """One legend for the figure, above the axes, outside the data; duplicate labels merged."""
    axes = [ax] if ax is not None else fig.axes
    seen = {}
    for a in axes:
        for h, lab in zip(*a.get_legend_handles_labels()):
            if not lab.startswith("_"):
                seen.setdefault(lab, h)
    if seen:
        fig.legend(seen.values(), seen.keys(), loc="outside upper center", ncol=ncol or len(seen), **kwargs)


def length_distributions(examples):
    """Left: histogram of description length in words, one step line per split (short, long).
    Right: histogram of summary length in words (all examples)."""
    fig, axes = figure(1, 2, height=3.2)
    palette = {"short": "#4c72b0", "long": "#8172b3"}
    for split, color in palette.items():
        part = examples[examples["split"] == split]
        axes[0].hist(part["description_words"], bins=30, histtype="step", lw=1.6, color=color, label=f"{split} split")
    axes[0].set(xlabel="description length (words)", ylabel="examples")
    words = examples["summary_words"].astype(int)
    edges = np.arange(words.min() - 0.5, words.max() + 1.5)
    axes[1].hist(words, bins=edges, color="#4c72b0", label="_summaries")
    axes[1].set(xlabel="summary length (words)", ylabel="examples")
    legend_above(fig, axes[0])
    return finish(fig)


def span_lengths(spans):
    """Box plots of span length in words: all human spans pooled, then each model campaign under
    its display name, each box labelled with its number of spans (spans whose text is not at their
    offsets, ``placed`` false, left out)."""
    if "placed" in spans.columns:
        spans = spans[spans["placed"].fillna(False).astype(bool)]
    data = spans.assign(annotator=spans["campaign"].where(spans["kind"] == "model", "humans"))
    order = ["humans", *[c for c in dict.fromkeys(data["annotator"]) if c != "humans"]]
    fig, ax = figure(height=0.35 * len(order) + 1.2)
    groups = [data.loc[data["annotator"] == a, "words"].to_numpy() for a in order]
    ax.boxplot(
        groups,
        orientation="horizontal",
        tick_labels=[f"{display_name(a)}, n = {len(g)}" for a, g in zip(order, groups)],
        widths=0.6,
        patch_artist=True,
        boxprops={"facecolor": MUTED, "edgecolor": "#555555"},
        medianprops={"color": "#333333"},
        whiskerprops={"color": "#555555"},
        capprops={"color": "#555555"},
        flierprops={"marker": "o", "markersize": 2, "markerfacecolor": "#555555", "markeredgecolor": "#555555"},
    )
    ax.invert_yaxis()
    ax.set(xlabel="span length (words)", ylabel="")
    return finish(fig)


def type_shares(table, title: str | None = None):
    """Stacked horizontal bars: share (%) of each error type among a campaign's spans, one bar
    per row of a ``dataset_level.campaign_table`` (campaigns without spans are empty bars)."""
    shares = table.set_index("name")[[f"{t} %" for t in PLOT_ORDER]].fillna(0)
    shares.columns = PLOT_ORDER
    shares.index = [display_name(str(n)) for n in shares.index]
    fig, ax = figure(height=0.32 * len(shares) + 1.4)
    left = np.zeros(len(shares))
    for t in PLOT_ORDER:
        ax.barh(shares.index, shares[t], left=left, color=COLORS[t], label=t)
        left = left + shares[t].to_numpy()
    ax.invert_yaxis()
    ax.set(xlabel="share of the campaign's spans (%)", xlim=(0, 100))
    if title:
        fig.suptitle(title, fontweight="bold")
    legend_above(fig, ax)
    return finish(fig)


def paradox(table):
    """Raw agreement (grey) and balanced accuracy (blue) of each model against the human majority,
    with 95% intervals, per type pooled (left) and for any error (right), from
    ``example_level.models_vs_majority``; the dotted line is chance (0.5) for balanced accuracy."""
    fig, axes = figure(1, 2, height=0.45 * table["model"].nunique() + 1.6, sharey=True)
    prefix = _shared_prefix(table["model"])
    for ax, lab in zip(axes, ["per type (pooled)", "Any"]):
        t = table[table["label"] == lab].reset_index(drop=True)
        y = np.arange(len(t))
        _dots_with_intervals(
            ax, t, y, [("agreement", "raw agreement", HUMAN, -0.15), ("bacc", "balanced accuracy", OURS, 0.15)]
        )
        ax.axvline(0.5, color="#555555", lw=0.8, ls=":")
        ax.set(
            yticks=list(y),
            yticklabels=[display_name(str(m)[len(prefix) :]) for m in t["model"]],
            xlabel="score vs. human majority",
            title="per type (pooled)" if lab != "Any" else "any error",
        )
        _unit_axis(ax)
    axes[0].set_ylabel(_left_out(prefix))
    axes[0].invert_yaxis()
    legend_above(fig)
    return finish(fig)


def pair_spread(pairs, paper_table6=None):
    """Per comparison (rows) and match mode (hard left, soft right): the F1 of each pair of
    annotator sets (blue dots, spread vertically in a fixed pattern), their mean (grey bar) and,
    if given, the paper's Table 6 F1 (red cross, just below its row so that it hides no dot). A
    prefix the LLMs' names share ("zeroshot-") is left out of the row labels, and the axis says so."""
    comps = list(dict.fromkeys(pairs["comparison"]))
    last = [c.rsplit(" ", 1)[-1] for c in comps]
    prefix = _shared_prefix([w for w in last if "-" in w or "_" in w])
    names = [
        display_name(c[: -len(w)] + w[len(prefix) :] if prefix and w.startswith(prefix) else c)
        for c, w in zip(comps, last)
    ]
    fig, axes = figure(1, 2, height=0.45 * len(comps) + 1.5, sharey=True)
    for ax, match in zip(axes, ("hard", "soft")):
        p = pairs[pairs["match"] == match]
        means = p.groupby("comparison", sort=False)["f1"].mean().reindex(comps)
        ax.barh(comps, means, color=MUTED, label="our mean over pairs")
        for i, comp in enumerate(comps):  # pairs spread evenly around the row: deterministic, unlike jitter
            f1 = p.loc[p["comparison"] == comp, "f1"].to_numpy()
            offsets = np.linspace(-0.2, 0.2, len(f1)) if len(f1) > 1 else np.zeros(1)
            ax.scatter(f1, i + offsets, color=OURS, s=18, zorder=4, label="one pair of annotator sets")
        if paper_table6:
            key = "F1_H" if match == "hard" else "F1_S"
            xs = [paper_table6.get(c, {}).get(key) for c in comps]
            ax.scatter(  # just below its row, clear of the dots, so it hides no pair (a one-pair row's dot)
                [x for x in xs if x is not None],
                [i + 0.32 for i, x in enumerate(xs) if x is not None],
                marker="X",
                s=60,
                color=PAPER,
                zorder=5,
                label="paper (Table 6)",
            )
        ax.set(xlabel=f"F1 ({match} match)", ylabel="")
        _unit_axis(ax)
    axes[0].set_yticks(range(len(comps)), names)
    axes[0].set_ylabel(_left_out(prefix))
    axes[0].invert_yaxis()
    legend_above(fig)
    return finish(fig)


def silhouette(curve, chosen: int, paper_k: int | None = None):
    """Silhouette score for each k (line with dots), the chosen k (dashed) and the paper's k
    (red dotted, if given)."""
    fig, ax = figure(height=3.2)
    ax.plot(curve["k"], curve["silhouette"], marker="o", color=OURS, label="_silhouette")
    ax.axvline(chosen, color=OURS, ls="--", lw=1, label=f"chosen k = {chosen}")
    if paper_k:
        ax.axvline(paper_k, color=PAPER, ls=":", lw=1.4, label=f"paper's k = {paper_k}")
    ax.set(xlabel="k (number of clusters)", ylabel="silhouette")
    legend_above(fig)
    return finish(fig)


def _place_labels(ax, anchors: np.ndarray, names: list[str], fontsize: float) -> None:
    """Name each anchor with a boxed label that overlaps no other label: each label takes the
    first free spot on a fixed spiral of candidate offsets around its anchor (deterministic), and
    gets a thin leader line when it had to move."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    axbox = ax.get_window_extent(renderer)
    placed = []
    steps = [(0, 0)] + [
        (r * np.cos(a), r * np.sin(a))
        for r in range(14, 400, 14)
        for a in np.linspace(0, 2 * np.pi, 16, endpoint=False)
    ]
    order = np.argsort([-len(n) for n in names], kind="stable")
    for i in order:
        x, y = ax.transData.transform(anchors[i])
        for dx, dy in steps:
            text = ax.annotate(
                names[i],
                anchors[i],
                xytext=(dx, dy),
                textcoords="offset pixels",
                ha="center",
                va="center",
                fontsize=fontsize,
                zorder=6,
                bbox={"boxstyle": "round,pad=0.2", "fc": "white", "alpha": 0.85, "lw": 0},
            )
            box = text.get_window_extent(renderer).expanded(1.15, 1.3)
            inside = box.x0 >= axbox.x0 and box.x1 <= axbox.x1 and box.y0 >= axbox.y0 and box.y1 <= axbox.y1
            if inside and not any(box.overlaps(b) for b in placed):
                if (dx, dy) != (0, 0):
                    ax.plot(
                        [anchors[i][0], ax.transData.inverted().transform((x + dx, y + dy))[0]],
                        [anchors[i][1], ax.transData.inverted().transform((x + dx, y + dy))[1]],
                        color="#444444",
                        lw=0.6,
                        zorder=5,
                    )
                placed.append(box)
                break
            text.remove()


def cluster_map(xy, labels, types, names, max_names: int = 12):
    """The error spans in 2-D (PCA of their embeddings), one dot per span coloured by its error
    type (opaque, with a white rim, so that stacked dots never blend into an unexplained grey),
    and the names of the ``max_names`` largest clusters at the centre of their spans (moved aside,
    with a leader line, where names would overlap); the chapter's table names every cluster."""
    fig, ax = figure(height=5.0)
    xy = np.asarray(xy)
    for t in PLOT_ORDER:
        m = np.asarray(types) == t
        ax.scatter(xy[m, 0], xy[m, 1], s=12, color=COLORS[t], edgecolors="white", linewidths=0.4, label=t)
    ax.set(xlabel="PC 1", ylabel="PC 2", xticks=[], yticks=[])
    pad = 0.08 * (xy.max(axis=0) - xy.min(axis=0))
    ax.set_xlim(xy[:, 0].min() - pad[0], xy[:, 0].max() + pad[0])
    ax.set_ylim(xy[:, 1].min() - pad[1], xy[:, 1].max() + pad[1])
    legend_above(fig, ax, markerscale=2)
    fig.canvas.draw()  # fix the layout before measuring where labels fit
    fig.set_layout_engine("none")
    labels = np.asarray(labels)
    largest = sorted((c for c in range(len(names)) if (labels == c).any()), key=lambda c: (-(labels == c).sum(), c))
    centres = [(c, xy[labels == c].mean(axis=0)) for c in sorted(largest[:max_names])]
    _place_labels(ax, np.array([p for _, p in centres]), [names[c] for c, _ in centres], fontsize=9)
    return finish(fig)


def impression_by_count(table, paper_means=None, paper_with_error: float | None = None):
    """Mean impression per number of errors marked in a record (dots joined by a line) with 95%
    intervals; the paper's means at given error counts as red crosses (``paper_means``, e.g. its
    no-error mean at "0") and its mean over all records with errors as a red dashed line."""
    fig, ax = figure(height=3.2)
    x = np.arange(len(table))
    ax.errorbar(
        x,
        table["mean"],
        yerr=[table["mean"] - table["low"], table["high"] - table["mean"]],
        fmt="o-",
        color=OURS,
        capsize=4,
        label="this corpus (95% CI)",
    )
    if paper_means:
        pos = {str(e): i for i, e in enumerate(table["errors"])}
        pts = [(pos[str(k)], v) for k, v in paper_means.items() if str(k) in pos]
        ax.scatter(
            [p for p, _ in pts], [v for _, v in pts], marker="X", s=70, color=PAPER, zorder=5, label="paper, no errors"
        )
    if paper_with_error is not None:
        ax.axhline(paper_with_error, color=PAPER, ls="--", lw=1, label="paper, any errors")
    ax.set(
        xticks=x,
        xticklabels=table["errors"],
        xlabel="errors marked in the record",
        ylabel="mean impression (1-7)",
        ylim=(1, 7),
    )
    legend_above(fig)
    return finish(fig)


def precision_recall(table: pd.DataFrame):
    """Soft-match precision (blue) and recall (orange) of each annotator set against the human
    sets, with 95% bootstrap intervals, one row per set (``name, precision, precision_low,
    precision_high, recall, recall_low, recall_high``, rows in the order given)."""
    fig, ax = figure(height=0.42 * len(table) + 1.3)
    y = np.arange(len(table))
    _dots_with_intervals(ax, table, y, [("precision", "precision", OURS, -0.13), ("recall", "recall", "#dd8452", 0.13)])
    ax.set(
        yticks=y,
        yticklabels=[display_name(str(n)) for n in table["name"]],
        xlim=(0, 1),
        xlabel="soft span score against the human annotations",
    )
    ax.invert_yaxis()
    legend_above(fig)
    return finish(fig)
