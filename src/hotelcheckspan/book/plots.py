"""One look for every figure: the seaborn theme, with each error type in its colour from
:mod:`hotelcheckspan.categories`, drawn to be read at the size the book shows it.

Rules every figure here follows (``tests/test_plots.py`` checks them for every function):

- drawn at the book's content width, ``WIDTH`` inches at 100 dpi = 672 px, so it is shown at
  100% and its fonts (``set_theme``: at least 9.9 pt, DejaVu Sans, which matplotlib ships, so
  PNGs do not depend on the machine's fonts) stay at least 9 pt as displayed;
- drawn a second time for a phone (:func:`drawn`): ``PHONE_WIDTH`` wide, one panel per row, the
  same fonts, so that its text is at least 11 CSS px on a 390-px screen (issue 45; the column's
  figure shrunk to 342 px had 5-7 px text). The book shows that drawing below 500 px
  (``book/_ext/figures.py``), and its alt text, computed from the same data, says the numbers a
  reader takes from the figure (issue 46);
- constrained layout; legends outside the data (above the axes, via ``fig.legend(loc="outside
  upper center")``), never on a title or a point;
- no two text labels overlap (tick labels, axis labels, titles, legends, annotations);
- deterministic: the same data draw byte-identical PNGs (no jitter, no random placement).

The caption of a figure is in the notebook cell's ``mystnb: figure:`` metadata; each function's
docstring says exactly what it draws so the caption can say it too.
"""

from __future__ import annotations

import base64
import contextvars
import functools
import io
import json
import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure
from matplotlib.text import Text

from ..annotator_sets import display_name
from ..categories import COLORS, PLOT_ORDER

DPI = 100
WIDTH = 6.72  # inches: 672 px at DPI, the content column of the book's theme
PHONE_WIDTH = 3.6  # inches: 360 px at DPI, about a phone's column (342 px at 390)
PHONE_PANEL = 1.0  # a panel drawn for a phone is this share of its height in the column's drawing
_PHONE = contextvars.ContextVar("phone", default=False)
OURS, PAPER, HUMAN, MUTED = "#2a6f97", "#d62728", "#7f7f7f", "#dddddd"


def set_theme() -> None:
    """Apply the compendium's seaborn theme (deterministic fonts and sizes for stable PNGs). In a
    notebook, figures are stored at twice their pixels ("retina": shown at the content width,
    sharp on a high-density screen and when a phone reader zooms in), with the alt text and the
    phone's drawing of :func:`drawn` inside the PNG (:func:`mimebundle`)."""
    try:
        # the inline backend registers its own PNG formatter when it is first loaded (matplotlib
        # loads it with the first figure): loaded now, so that the book's replaces it for good
        import matplotlib_inline.backend_inline  # noqa: F401
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:  # outside IPython: nothing is shown inline
        shell = None
    if shell is not None:  # figures stored as :func:`mimebundle` writes them ("retina", and the book's metadata)
        formatter = shell.display_formatter.formatters["image/png"]
        formatter.for_type(Figure, mimebundle)
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


def phone() -> bool:
    """Whether the figure being drawn is the phone's (:func:`drawn`)."""
    return _PHONE.get()


def figure(nrows: int = 1, ncols: int = 1, height: float = 3.6, **kwargs):
    """A figure at the content width with constrained layout (legends may sit outside). Drawn for
    a phone, it is ``PHONE_WIDTH`` wide with one panel per row, each as tall as a row of the
    column's drawing, and the axes keep the shape asked for (``axes[0]`` is the first panel)."""
    if not phone():
        return plt.subplots(nrows, ncols, figsize=(WIDTH, height), layout="constrained", **kwargs)
    squeeze = kwargs.pop("squeeze", True)
    n = nrows * ncols
    fig, axes = plt.subplots(
        n, 1, figsize=(PHONE_WIDTH, height * ncols * PHONE_PANEL), layout="constrained", squeeze=False, **kwargs
    )
    axes = axes.reshape(nrows, ncols)
    if squeeze:
        axes = axes[0, 0] if n == 1 else axes.ravel() if 1 in (nrows, ncols) else axes
    return fig, axes


def drawn(describe):
    """A figure function drawn twice, for the book's column and for a phone (:func:`phone` true
    while it draws), with an alt text ``describe`` computes from the same arguments: the figure
    returned is the column's, the phone's at ``.hcs_phone``, the text at ``.hcs_alt``."""

    def wrap(draw):
        @functools.wraps(draw)
        def both(*args, **kwargs):
            fig = draw(*args, **kwargs)
            token = _PHONE.set(True)
            try:
                fig.hcs_phone = draw(*args, **kwargs)
            finally:
                _PHONE.reset(token)
            fig.hcs_alt = describe(*args, **kwargs)
            return fig

        return both

    return wrap


def smallest_text(fig) -> float:
    """The size of a figure's smallest drawn text, in points."""
    sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    return min(sizes) if sizes else 0.0


def png(fig, scale: int = 2, metadata: dict | None = None) -> tuple[bytes, float]:
    """A figure as the notebook stores it (``scale`` times its pixels, cut to what is drawn, as
    IPython's "retina" does), with ``metadata`` as text chunks, and its smallest text in that
    image's pixels."""
    buf = io.BytesIO()
    chunks = {"Software": None, **(metadata or {})}
    fig.savefig(buf, format="png", dpi=DPI * scale, bbox_inches="tight", metadata=chunks)
    return buf.getvalue(), smallest_text(fig) * DPI * scale / 72


META = "hotelcheckspan"  # the PNG text chunk holding what the book reads beside the image


def mimebundle(fig):
    """IPython's PNG of a figure with what the book needs inside it, as JSON in a text chunk
    (:data:`META`) that travels with the image wherever the notebook goes: the alt text, the
    smallest text in the image's pixels, and the phone's drawing (base64) with its own;
    ``book/_ext/figures.py`` reads them and serves the image without them."""
    extra = {"text_px": round(smallest_text(fig) * DPI * 2 / 72, 2)}
    if getattr(fig, "hcs_alt", None):
        extra["alt"] = fig.hcs_alt
    if getattr(fig, "hcs_phone", None) is not None:
        phone_png, phone_px = png(fig.hcs_phone)
        extra |= {"phone": base64.b64encode(phone_png).decode("ascii"), "phone_text_px": round(phone_px, 2)}
    data, _ = png(fig, metadata={META: json.dumps(extra, ensure_ascii=False)})
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        width, height = im.size
    return data, {"width": width // 2, "height": height // 2}


PHONE_LINE = 34  # characters of an axis label or title a line, in a phone's drawing


def _outside(fig, texts) -> list:
    """The drawn texts that pass the figure's left or right edge, once the layout is done (laid
    out and measured, not painted: the PNG paints it once more anyway)."""
    fig.draw_without_rendering()
    r = fig.canvas.get_renderer()
    shown = [t for t in texts if t.get_visible() and t.get_text().strip()]
    boxes = [(t, t.get_window_extent(r)) for t in shown]
    return [t for t, b in boxes if b.x0 < fig.bbox.x0 - 1 or b.x1 > fig.bbox.x1 + 1]


def finish(fig):
    """Close a figure, so that a notebook shows it once, as the cell's result. In a phone's
    drawing, a long axis label or title is broken into lines that fit its width."""
    if phone():
        labels = [t for ax in fig.axes for t in (ax.xaxis.label, ax.yaxis.label, ax.title)]
        labels += [t for t in (getattr(fig, "_supxlabel", None), getattr(fig, "_supylabel", None)) if t is not None]
        for t in labels:
            if len(t.get_text()) > PHONE_LINE and "\n" not in t.get_text():
                t.set_text(textwrap.fill(t.get_text(), PHONE_LINE))
        # a label centred under a narrow panel may still pass the edge: narrower lines until it fits
        widths = {id(t): PHONE_LINE for t in labels}
        for _ in range(5):
            outside = _outside(fig, labels)
            if not outside:
                break
            for t in outside:
                widths[id(t)] -= 5
                t.set_text(textwrap.fill(t.get_text().replace("\n", " "), widths[id(t)]))
    plt.close(fig)
    return fig


def _unit_axis(ax) -> None:
    """An x axis for scores in [0, 1] on side-by-side panels: a margin so that a dot at 0 or 1
    is drawn whole, and three short ticks so that one panel's "1" never meets the next one's "0"."""
    ax.set_xlim(-0.05, 1.05)
    ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"])


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
        ncol = ncol or len(seen)
        if phone():  # a phone's drawing is half as wide: one name a row
            ncol = 1
        fig.legend(seen.values(), seen.keys(), loc="outside upper center", ncol=ncol, **kwargs)


# --- alt texts: what a reader takes from each figure, computed from the data it draws -------------


def _num(v, decimals: int = 2) -> str:
    return "no value" if v is None or pd.isna(v) else f"{float(v):.{decimals}f}"


def _spans_of(spans):
    return spans[spans["placed"].fillna(False).astype(bool)] if "placed" in spans.columns else spans


def _alt_lengths(examples) -> str:
    parts = [
        f"{split} split median {part['description_words'].median():.0f} words "
        f"({part['description_words'].min():.0f}-{part['description_words'].max():.0f})"
        for split in ("short", "long")
        if len(part := examples[examples["split"] == split])
    ]
    words = examples["summary_words"]
    return (
        "Two histograms. Description length: " + "; ".join(parts) + ". Summary length: median "
        f"{words.median():.0f} words ({words.min():.0f}-{words.max():.0f}), {len(words)} examples."
    )


def _alt_span_lengths(spans) -> str:
    data = _spans_of(spans)
    who = data["campaign"].where(data["kind"] == "model", "humans")
    parts = [
        f"{display_name(w)} median {g.median():.0f} words (n = {len(g)})"
        for w, g in data.groupby(who, sort=False)["words"]
    ]
    return "Box plots of span length in words: " + "; ".join(parts) + "."


def _alt_type_shares(table, title=None) -> str:
    rows = table.set_index("name")[[f"{t} %" for t in PLOT_ORDER]].fillna(0)
    parts = [
        f"{display_name(str(n))}: " + ", ".join(f"{t} {r[f'{t} %']:.0f}%" for t in PLOT_ORDER)
        for n, r in rows.iterrows()
    ]
    return "Stacked bars, the share of each error type among a campaign's spans. " + "; ".join(parts) + "."


def _named(names):
    """How a figure names judges and human sets: by a corpus' display names
    (:func:`hotelcheckspan.annotator_sets.names`, the glossary's one rule), else by the rules that
    need no corpus."""
    return names if names is not None else display_name


def _alt_paradox(table, names=None) -> str:
    parts = []
    for lab in ["per type (pooled)", "Any"]:  # the two panels drawn
        t = table[table["label"] == lab]
        name = "any error" if lab == "Any" else lab
        parts.append(
            f"{name}: "
            + ", ".join(
                f"{_named(names)(str(m))} raw agreement {_num(a)}, balanced accuracy {_num(b)}"
                for m, a, b in zip(t["model"], t["agreement"], t["bacc"])
            )
        )
    return "Two dot plots against the human majority, chance 0.5 for balanced accuracy. " + "; ".join(parts) + "."


def _alt_pair_spread(pairs, paper_table6=None, names=None) -> str:
    parts = []
    for comp, g in pairs.groupby("comparison", sort=False):
        means = {m: g.loc[g["match"] == m, "f1"] for m in ("hard", "soft")}
        hard, soft = _num(means["hard"].mean()), _num(means["soft"].mean())
        n = len(means["hard"])
        text = f"{_named(names)(comp)}: mean span F1, hard {hard}, soft {soft} over {n} pair{'s' if n != 1 else ''}"
        paper = (paper_table6 or {}).get(comp)
        if paper:
            text += f" (paper {_num(paper.get('F1_H'))} and {_num(paper.get('F1_S'))})"
        parts.append(text)
    return "Span F1 of each pair of sides, hard and soft match. " + "; ".join(parts) + "."


def _alt_silhouette(curve, chosen, paper_k=None) -> str:
    best = curve.loc[curve["silhouette"].idxmax()]
    at = curve.loc[curve["k"] == chosen, "silhouette"]
    text = (
        f"Silhouette for k = {curve['k'].min()} to {curve['k'].max()}, highest {best['silhouette']:.3f} at "
        f"k = {best['k']:.0f}; chosen k = {chosen}" + (f" (silhouette {at.iloc[0]:.3f})" if len(at) else "")
    )
    return text + (f"; the paper's k = {paper_k}." if paper_k else ".")


def _alt_cluster_map(xy, labels, types, names, max_names: int = 12) -> str:
    types, labels = pd.Series(np.asarray(types)), np.asarray(labels)
    counts = ", ".join(f"{t} {int((types == t).sum())}" for t in PLOT_ORDER if (types == t).any())
    sizes = pd.Series(labels).value_counts().sort_index(kind="stable").sort_values(ascending=False, kind="stable")
    largest = ", ".join(f"{names[c]} ({n})" for c, n in sizes.head(5).items())
    return (
        f"Scatter of {len(labels)} error spans in two dimensions by type ({counts}); the largest clusters: {largest}."
    )


def _alt_impressions(table, paper_means=None, paper_with_error=None) -> str:
    points = ", ".join(f"{e} errors {_num(m)}" for e, m in zip(table["errors"], table["mean"]))
    text = f"Mean impression (1-7) by errors marked in the record: {points}."
    paper = [f"no errors {_num(v)}" for v in (paper_means or {}).values()]
    if paper_with_error is not None:
        paper.append(f"any errors {_num(paper_with_error)}")
    return text + (f" The paper: {', '.join(paper)}." if paper else "")


def _alt_precision_recall(table) -> str:
    parts = [
        f"{display_name(str(n))} precision {_num(p)}, recall {_num(r)}"
        for n, p, r in zip(table["name"], table["precision"], table["recall"])
    ]
    return "Soft-match precision and recall against the human annotations: " + "; ".join(parts) + "."


@drawn(_alt_lengths)
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


@drawn(_alt_span_lengths)
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


@drawn(_alt_type_shares)
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


@drawn(_alt_paradox)
def paradox(table, names=None):
    """Raw agreement (grey) and balanced accuracy (blue) of each judge against the human majority,
    with 95% intervals, per type pooled (left) and for any error (right), from
    ``example_level.models_vs_majority``; the dotted line is chance (0.5) for balanced accuracy.
    Judges are named by ``names``, a corpus' display names."""
    fig, axes = figure(1, 2, height=0.45 * table["model"].nunique() + 1.6, sharey=True)
    for ax, lab in zip(axes, ["per type (pooled)", "Any"]):
        t = table[table["label"] == lab].reset_index(drop=True)
        y = np.arange(len(t))
        _dots_with_intervals(
            ax, t, y, [("agreement", "raw agreement", HUMAN, -0.15), ("bacc", "balanced accuracy", OURS, 0.15)]
        )
        ax.axvline(0.5, color="#555555", lw=0.8, ls=":")
        ax.set(
            yticks=list(y),
            yticklabels=[_named(names)(str(m)) for m in t["model"]],
            xlabel="score vs. human majority",
            title="per type (pooled)" if lab != "Any" else "any error",
        )
        _unit_axis(ax)
    axes[0].invert_yaxis()
    legend_above(fig)
    return finish(fig)


@drawn(_alt_pair_spread)
def pair_spread(pairs, paper_table6=None, names=None):
    """Per comparison (rows) and match mode (hard left, soft right): the span F1 of each pair of
    sides (blue dots, spread vertically in a fixed pattern), their mean (grey bar) and, if given,
    the paper's Table 6 F1 (red cross, just below its row so that it hides no dot). Rows are named
    by ``names``, a corpus' display names of its judges and human sets."""
    comps = list(dict.fromkeys(pairs["comparison"]))
    labels = [_named(names)(c) for c in comps]
    fig, axes = figure(1, 2, height=0.45 * len(comps) + 1.5, sharey=True)
    for ax, match in zip(axes, ("hard", "soft")):
        p = pairs[pairs["match"] == match]
        means = p.groupby("comparison", sort=False)["f1"].mean().reindex(comps)
        ax.barh(comps, means, color=MUTED, label="our mean over pairs")
        for i, comp in enumerate(comps):  # pairs spread evenly around the row: deterministic, unlike jitter
            f1 = p.loc[p["comparison"] == comp, "f1"].to_numpy()
            offsets = np.linspace(-0.2, 0.2, len(f1)) if len(f1) > 1 else np.zeros(1)
            ax.scatter(f1, i + offsets, color=OURS, s=18, zorder=4, label="one pair of sides")
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
        ax.set(xlabel=f"span F1, {match}", ylabel="")
        _unit_axis(ax)
    axes[0].set_yticks(range(len(comps)), labels)
    axes[0].invert_yaxis()
    legend_above(fig)
    return finish(fig)


@drawn(_alt_silhouette)
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


@drawn(_alt_cluster_map)
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


@drawn(_alt_impressions)
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


@drawn(_alt_precision_recall)
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
