"""Figures of the sample-size chapter: stability curves, interval widths and power against n.

Sized for the 672-pixel column with legends outside the data, and drawn again for a phone with one
panel per row (:func:`hotelcheckspan.book.plots.drawn`), each with an alt text of the numbers a
reader takes from it. The stability curves are small multiples, one panel per pair of systems in
two columns (one on a phone); within a panel a colour is a measure and the line style a design.
"""

from __future__ import annotations

import textwrap

import matplotlib.ticker as mticker
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from ..annotator_sets import display_name
from . import plots
from .plots import OURS, PAPER, drawn, finish

FONT = 9
PANEL_FONT = 12  # small multiples in two columns, larger than the theme's text: they are small


def _panel_font() -> float:
    """Panel text: larger in the column's two columns of panels, the theme's size on a phone's one."""
    return FONT if plots.phone() else PANEL_FONT


def _columns(panels: int) -> int:
    return 1 if plots.phone() or panels < 2 else 2


def _reaches(part: pd.DataFrame, value: str, target: float, above: bool = True) -> str:
    """The smallest n at which ``value`` reaches ``target`` (or "not by n = ..." the largest)."""
    part = part.sort_values("n")
    hit = part[part[value] >= target] if above else part[part[value] <= target]
    return f"n = {hit['n'].iloc[0]:g}" if len(hit) else f"not by n = {part['n'].max():g}"


def _alt_stability(within, beyond=None, threshold: float = 0.95, corpus_size=None, order=None, names=None) -> str:
    named = names if names is not None else display_name
    data = pd.concat([within] if beyond is None else [within, beyond], ignore_index=True)
    parts = []
    for (a, b), g in data.groupby(["better", "worse"], sort=False):
        lines = [
            f"{m} {_reaches(gm.groupby('n', as_index=False)['same_order'].max(), 'same_order', threshold)}"
            for m, gm in g.groupby("measure", sort=False)
            if not ("difference" in gm and (gm["difference"] == 0).all())
        ]
        parts.append(f"{named(a)} vs {named(b)}: " + (", ".join(lines) or "tied by every measure"))
    return (
        f"One panel per pair: the share of test sets that order the pair as the full set does, against n; "
        f"where it first reaches {threshold:.0%}: " + "; ".join(parts) + "."
    )


def _alt_widths(widths, corpus_size=None) -> str:
    parts = []
    for (m, sys_), g in widths.groupby(["measure", "system"], sort=False):
        g = g.sort_values("n")
        first, last = g.iloc[0], g.iloc[-1]
        who = m if sys_ == "human-human" or m.startswith(str(sys_)) else f"{m}, {display_name(str(sys_))}"
        parts.append(f"{who} {first['width']:.2f} at n = {first['n']:g} to {last['width']:.2f} at n = {last['n']:g}")
    return "Width of the 95% interval against n, log-log: " + "; ".join(parts) + "."


def _alt_power(power, paper=None, target: float = 0.8) -> str:
    parts = []
    for test, g in power.groupby("test", sort=False):
        text = f"{test}: this corpus reaches {target:.0%} at {_reaches(g, 'resampled', target)}"
        if paper is not None and len(p := paper[paper["test"] == test]):
            text += f", the paper's effect at {_reaches(p, 'power', target)}"
        parts.append(text)
    return "Power of the impression tests against the number of records. " + "; ".join(parts) + "."


DESIGN_LABELS = {"without replacement": "subsets of the corpus", "with replacement": "drawn with replacement"}


def _pair_name(a: str, b: str, order: list[str], named) -> str:
    """A pair's panel title, display names (``named``) in the systems' order."""
    a, b = sorted((a, b), key=lambda s: order.index(s) if s in order else len(order))
    return " vs ".join(named(s) for s in (a, b))


def _title(name: str, width: int = 28) -> str:
    """A panel title that fits half the column on a phone: broken before "vs" when long."""
    return name if len(name) <= width else name.replace(" vs ", "\nvs ")


@drawn(_alt_stability)
def stability_curves(
    within, beyond=None, threshold: float = 0.95, corpus_size: int | None = None, order=None, names=None
):
    """Small multiples: one panel per pair of systems (two columns, pairs in the order of
    ``order``, else as they come), the share of test sets of n examples that rank the pair as the
    full set does against n (log scale). In a panel one colour per measure; solid: test sets drawn
    with replacement (``beyond``, past the corpus size), dashed: subsets of the corpus
    (``within``). The threshold is the dashed grey line, labelled on the y axis; the corpus size
    dotted. A pair tied on the full set by a measure has no line for it (nothing to order): the
    panel's title says so. ``within`` and ``beyond`` are
    :func:`~hotelcheckspan.analyses.sample_size.stability` frames. Judges are named by ``names``, a
    corpus' display names (:func:`hotelcheckspan.annotator_sets.names`)."""
    frames = [within] if beyond is None else [within, beyond]
    data = pd.concat(frames, ignore_index=True)
    named = names if names is not None else display_name
    systems = list(order) if order is not None else list(dict.fromkeys([*data["better"], *data["worse"]]))
    data["panel"] = [_pair_name(a, b, systems, named) for a, b in zip(data["better"], data["worse"])]
    ranks = {s: i for i, s in enumerate(systems)}
    first = data.drop_duplicates("panel")
    place = {
        panel: tuple(sorted((ranks.get(a, len(ranks)), ranks.get(b, len(ranks)))))
        for panel, a, b in zip(first["panel"], first["better"], first["worse"])
    }
    panels = sorted(place, key=place.get)  # pairs in the systems' order, first by the first system
    measures = list(dict.fromkeys(data["measure"]))
    colours = dict(zip(measures, sns.color_palette("colorblind", len(measures))))
    designs = list(dict.fromkeys(f["design"].iloc[0] for f in frames))
    styles = dict(zip(designs, ["--", "-"])) if len(designs) == 2 else {designs[0]: "-"}
    ncol = _columns(len(panels))
    nrow = -(-len(panels) // ncol)
    size = _panel_font()
    height = (1.1 if plots.phone() else 1.9) * nrow + 1.0  # a phone stacks the panels: low ones keep the page short
    fig, axes = plots.figure(nrow, ncol, height=height, sharex=True, sharey=True, squeeze=False)
    for ax, panel in zip(axes.ravel(), panels):
        part = data[data["panel"] == panel]
        tied = []
        for measure in measures:
            m = part[part["measure"] == measure]
            if m.empty:
                continue
            if "difference" in m and (m["difference"] == 0).all():
                tied.append(measure)
                continue
            for design, g in m.groupby("design", sort=False):
                g = g.sort_values("n")
                ax.plot(g["n"], g["same_order"], color=colours[measure], ls=styles[design], lw=1.6, label=panel)
        ax.axhline(threshold, color="#777777", ls="--", lw=0.9)
        if corpus_size:
            ax.axvline(corpus_size, color="#777777", ls=":", lw=1.2)
        note = "\n" + textwrap.fill(f"(tied, nothing to order: {', '.join(tied)})", 34) if tied else ""
        ax.set_title(_title(panel) + note, fontsize=size, fontweight="normal")
        ax.set_xscale("log")
        ax.set_ylim(-0.03, 1.05)
        ax.set_yticks([0, 0.5, threshold], ["0", "0.5", f"{threshold:g}"])  # one unit on the axis: shares
        ax.xaxis.set_major_locator(mticker.LogLocator(subs=(1,)))
        ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_locator(mticker.NullLocator())  # the theme draws no tick marks: none computed
        ax.tick_params(labelsize=size)
    for ax in axes.ravel()[len(panels) :]:
        ax.set_visible(False)
    fig.supxlabel("examples in the test set (n, log scale)", fontsize=size)
    fig.supylabel("share in the same order", fontsize=size)
    handles = [Line2D([], [], color=colours[m], lw=2.5, label=m) for m in measures]
    handles += [Line2D([], [], color="#444444", lw=1.6, ls=styles[d], label=DESIGN_LABELS.get(d, d)) for d in designs]
    if corpus_size:
        handles.append(Line2D([], [], color="#777777", ls=":", lw=1.2, label="corpus size"))
    fig.legend(handles=handles, loc="outside upper center", ncol=_columns(2), fontsize=size, frameon=False)
    return finish(fig)


def _small_fonts(ax) -> None:
    ax.tick_params(labelsize=FONT)
    ax.xaxis.label.set_size(FONT + 1)
    ax.yaxis.label.set_size(FONT + 1)
    ax.title.set_size(FONT + 1)


@drawn(_alt_widths)
def interval_widths(widths, corpus_size: int | None = None):
    """Width of the 95% interval against n (log-log), as small multiples that a reader can tell
    apart on a phone: one panel for the measures computed once (the humans' agreement: span F1,
    Fleiss' kappa), each line in its colour and marker, named above the panels, and one panel per
    system of a measure computed per system (each LLM's agreement with the majority), its line drawn dark over the other
    systems' in light grey; the corpus size dotted. ``widths`` is an
    :func:`~hotelcheckspan.analyses.sample_size.interval_widths` frame."""
    lines = widths.drop_duplicates(["measure", "system"])[["measure", "system"]]
    per_system = lines["measure"].value_counts()
    shared = [tuple(r) for r in lines.itertuples(index=False) if per_system[r.measure] == 1]
    systems = [tuple(r) for r in lines.itertuples(index=False) if per_system[r.measure] > 1]
    panels = ([("the humans' agreement", shared)] if shared else []) + [(display_name(s), [(m, s)]) for m, s in systems]
    ncol = _columns(len(panels))
    nrow = -(-len(panels) // ncol)
    size = _panel_font()
    height = (1.6 if plots.phone() else 1.95) * nrow + 0.9
    fig, axes = plots.figure(nrow, ncol, height=height, sharex=True, sharey=True, squeeze=False)
    palette = sns.color_palette("colorblind", max(len(shared), 1))
    markers = ["o", "s", "^", "D", "v", "P"]

    def line(m, s):
        g = widths[(widths["measure"] == m) & (widths["system"] == s)].sort_values("n")
        return g["n"].to_numpy(), g["width"].to_numpy()

    for ax, (title, members) in zip(axes.ravel(), panels):
        if members != shared:  # the other systems of the same measure, in grey behind
            for m, s in systems:
                if (m, s) not in members:
                    ax.plot(*line(m, s), color="#cccccc", lw=1.0, zorder=1)
        for i, (m, s) in enumerate(members):
            x, y = line(m, s)
            colour = palette[i % len(palette)] if members == shared else OURS
            ax.plot(x, y, color=colour, marker=markers[i % len(markers)], ms=4, lw=1.8, zorder=3)
            if members == shared:
                ax.lines[-1].set_label(m if m.startswith(s) or s == "human-human" else f"{m}, {s}")
        if corpus_size:
            ax.axvline(corpus_size, color="#777777", ls=":", lw=1.2)
        ax.set_title(title, fontsize=size, fontweight="normal")
        ax.set(xscale="log", yscale="log")
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_locator(mticker.LogLocator(subs=(1, 2, 5)))
            axis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
            axis.set_minor_locator(mticker.NullLocator())  # the theme draws no tick marks: none computed
        ax.tick_params(labelsize=size)
    for ax in axes.ravel()[len(panels) :]:
        ax.set_visible(False)
    fig.supxlabel("examples (n, log scale)", fontsize=size)
    fig.supylabel("width of the 95% interval", fontsize=size)
    if shared:  # the humans' lines named above the panels, outside the data
        handles, names = axes.ravel()[0].get_legend_handles_labels()
        fig.legend(
            handles, names, loc="outside upper center", ncol=min(len(names), _columns(2)), fontsize=size, frameon=False
        )
    return finish(fig)


@drawn(_alt_power)
def power_curves(power, paper=None, target: float = 0.8):
    """Power against the number of records, one panel per test: this corpus' resampled power
    (solid, with its Monte Carlo interval) and statsmodels' at its effects (dashed), and, given
    ``paper`` (:func:`~hotelcheckspan.analyses.sample_size.analytic_power` at the paper's
    effects), statsmodels' at the paper's (red); the target power dashed grey, labelled on the y
    axis."""
    tests = list(dict.fromkeys(power["test"]))
    fig, axes = plots.figure(1, len(tests), height=3.4 if not plots.phone() else 2.8, sharey=True, squeeze=False)
    for ax, test in zip(axes[0], tests):
        g = power[power["test"] == test]
        ax.fill_between(g["n"], g["low"], g["high"], color=OURS, alpha=0.2, lw=0)
        ax.plot(g["n"], g["resampled"], color=OURS, marker="o", ms=3, lw=1.5, label="this corpus, resampled")
        ax.plot(g["n"], g["statsmodels"], color=OURS, ls="--", lw=1.3, label="this corpus, statsmodels")
        if paper is not None:
            p = paper[paper["test"] == test]
            ax.plot(p["n"], p["power"], color=PAPER, lw=1.6, label="the paper's effect, statsmodels")
        ax.axhline(target, color="#777777", ls="--", lw=1)
        ax.set_yticks([0, 0.5, target, 1], ["0", "0.5", f"{target:g}", "1"])
        ax.set(xlabel="records (n)", ylim=(0, 1.02), title=textwrap.fill(test, 24))
        _small_fonts(ax)
    axes[0, 0].set_ylabel("power at alpha = 0.05", fontsize=FONT + 1)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper center", ncol=_columns(2), fontsize=FONT, frameon=False)
    return finish(fig)
