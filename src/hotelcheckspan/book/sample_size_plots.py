"""Figures of the sample-size chapter: stability curves, interval widths and power against n.

Sized for a 672-pixel column (6.7 in at 100 dpi) with fonts of at least 9 pt and legends outside
the data. Pairs of systems keep one colour across panels (keyed by the unordered pair, since the
order of a pair can differ between measures).
"""

from __future__ import annotations

import os
import textwrap

import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import seaborn as sns
from matplotlib.lines import Line2D

from .plots import finish

WIDTH = 6.7  # inches: 670 px at the theme's 100 dpi
FONT = 9


def _pair_key(row, prefix: str = "") -> str:
    return " vs ".join(sorted(name[len(prefix) :] for name in (row["better"], row["worse"])))


def _common_prefix(frames) -> str:
    """A prefix every system name shares up to a separator ("zeroshot-"), dropped from labels."""
    names = sorted({n for f in frames for n in (*f["better"], *f["worse"])})
    prefix = os.path.commonprefix(names) if len(names) > 1 else ""
    cut = max(prefix.rfind("-"), prefix.rfind("_"), prefix.rfind("/"))
    return prefix[: cut + 1] if cut >= 0 else ""


def _colours(keys) -> dict[str, tuple]:
    keys = sorted(set(keys))
    return dict(zip(keys, sns.color_palette("tab10" if len(keys) <= 10 else "tab20", len(keys))))


MAX_COLOURS = 8  # more lines than this are told apart by colour and line style together
_DASHES = ["-", "--", ":", "-.", (0, (6, 1, 1, 1, 1, 1)), (0, (1, 3)), (0, (8, 2))]


def _styles(keys) -> tuple[dict[str, dict], list[Line2D]]:
    """Line style per pair and the legend's handles. Up to ``MAX_COLOURS`` pairs: one colour
    each. More: the colour says the pair's first system, the line style its second, so a legend
    of a few colours and a few styles names every line."""
    keys = sorted(set(keys))
    if len(keys) <= MAX_COLOURS:
        colours = _colours(keys)
        return {k: {"color": colours[k], "ls": "-"} for k in keys}, [
            Line2D([], [], color=colours[k], lw=1.4, marker="o", ms=2.5, label=k) for k in keys
        ]
    firsts = sorted({k.split(" vs ")[0] for k in keys})
    seconds = sorted({k.split(" vs ")[1] for k in keys})
    colours = dict(zip(firsts, sns.color_palette("tab10", len(firsts))))
    dashes = {n: _DASHES[i % len(_DASHES)] for i, n in enumerate(seconds)}
    styles = {k: {"color": colours[k.split(" vs ")[0]], "ls": dashes[k.split(" vs ")[1]]} for k in keys}
    handles = [Line2D([], [], color=colours[n], lw=2, label=f"{n} vs ...") for n in firsts] + [
        Line2D([], [], color="#555555", lw=1.4, ls=dashes[n], label=f"... vs {n}") for n in seconds
    ]
    return styles, handles


def _small_fonts(ax) -> None:
    ax.tick_params(labelsize=FONT)
    ax.xaxis.label.set_size(FONT + 1)
    ax.yaxis.label.set_size(FONT + 1)
    ax.title.set_size(FONT + 1)


def stability_curves(within, beyond=None, threshold: float = 0.95, corpus_size: int | None = None):
    """Share of test sets ranking each pair as the full set, against n: one row per measure,
    subsets of the corpus (left) and draws with replacement extrapolating past it (right); the
    threshold dashed, the corpus size dotted. ``within`` and ``beyond`` are
    :func:`~hotelcheckspan.analyses.sample_size.stability` frames."""
    frames = [within] if beyond is None else [within, beyond]
    measures = list(dict.fromkeys(within["measure"]))
    prefix = _common_prefix(frames)
    styles, handles = _styles([_pair_key(r, prefix) for f in frames for _, r in f.iterrows()])
    legend_rows = -(-len(handles) // 2)
    legend_height = 0.22 * legend_rows + 0.2
    height = 2.1 * len(measures) + 0.5 + legend_height
    fig, axes = plt.subplots(len(measures), len(frames), figsize=(WIDTH, height), sharey=True, squeeze=False)
    for row, measure in enumerate(measures):
        for col, frame in enumerate(frames):
            ax = axes[row, col]
            part = frame[frame["measure"] == measure]
            for _, g in part.groupby("pair", sort=False):
                key = _pair_key(g.iloc[0], prefix)
                ax.plot(g["n"], g["same_order"], **styles[key], lw=1.4, marker="o", ms=2.5, label=key)
            ax.axhline(threshold, color="#333333", ls="--", lw=1)
            if col == 1 and corpus_size:
                ax.axvline(corpus_size, color="#777777", ls=":", lw=1.2)
                ax.set_xscale("log")
            ax.set_ylim(-0.03, 1.03)
            design = part["design"].iloc[0] if len(part) else ""
            ax.set(
                xlabel="examples in the test set (n)" if row == len(measures) - 1 else "",
                ylabel=f"{measure}\nsame order" if col == 0 else "",
                title="",
            )
            if row == 0:  # wrapped: half the column is narrow on a phone
                title = design + (" (corpus size dotted)" if col == 1 and corpus_size else "")
                ax.set_title(textwrap.fill(title, 30))
            _small_fonts(ax)
    for ax in axes[:, 1:].ravel():
        ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axes[-1, 0].text(
        0.98,
        threshold - 0.03,
        f"{threshold:.0%}",
        transform=axes[-1, 0].get_yaxis_transform(),
        ha="right",
        va="top",
        fontsize=FONT,
        color="#333333",
    )
    fig.tight_layout(rect=(0, legend_height / height, 1, 1))
    fig.legend(
        handles,
        [h.get_label() for h in handles],
        loc="lower center",
        ncol=2,
        fontsize=FONT,
        frameon=False,
        bbox_to_anchor=(0.5, 0),
    )
    plt.close(fig)
    return fig


def interval_widths(widths, corpus_size: int | None = None):
    """Width of the 95% interval against n (log-log), one line per measure and system; the
    corpus size dotted. ``widths`` is an :func:`~hotelcheckspan.analyses.sample_size.interval_widths` frame."""
    fig, ax = plt.subplots(figsize=(WIDTH, 4.0))
    labels = [
        m if m.startswith(s) else f"{m}, {s}" if s == "human-human" else f"{s}: {m}"
        for m, s in zip(widths["measure"], widths["system"])
    ]
    data = widths.assign(line=labels)
    colours = dict(zip(dict.fromkeys(labels), sns.color_palette("tab10", len(set(labels)))))
    for line, g in data.groupby("line", sort=False):
        ax.plot(g["n"], g["width"], marker="o", ms=2.5, lw=1.4, color=colours[line], label=line)
    if corpus_size:
        ax.axvline(corpus_size, color="#777777", ls=":", lw=1.2)
    ax.set(xscale="log", yscale="log", xlabel="examples (n)", ylabel="width of the 95% interval")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(mticker.LogLocator(subs=(1, 2, 5)))
        axis.set_major_formatter(mticker.FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(mticker.NullFormatter())
    _small_fonts(ax)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=FONT, frameon=False)
    return finish(fig)


def power_curves(power, target: float = 0.8):
    """Power against the number of records, resampled (solid, with its Monte Carlo interval)
    and from statsmodels (dashed), one colour per test; the target power dashed grey."""
    fig, ax = plt.subplots(figsize=(WIDTH, 3.2))
    colours = dict(zip(dict.fromkeys(power["test"]), ["#2a6f97", "#b5651d"]))
    for test, g in power.groupby("test", sort=False):
        ax.plot(g["n"], g["resampled"], color=colours[test], marker="o", ms=3, lw=1.5, label=f"{test}, resampled")
        ax.fill_between(g["n"], g["low"], g["high"], color=colours[test], alpha=0.2, lw=0)
        ax.plot(g["n"], g["statsmodels"], color=colours[test], ls="--", lw=1.3, label=f"{test}, statsmodels")
    ax.axhline(target, color="#777777", ls="--", lw=1)
    ax.set(xlabel="records (n)", ylabel="power at alpha = 0.05", ylim=(0, 1.02))
    _small_fonts(ax)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, fontsize=FONT, frameon=False)
    return finish(fig)
