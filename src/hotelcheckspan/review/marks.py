"""The review marks that need no reviewer: rules on a span's text, its reason and the output text.

A reviewer of LLM judges (the review guidelines of the related d2t study; issue 27) marks each
span *Hallucination* or *No span given* and flags it *Repeated*, *Hard to parse* or *Implicit
span*. Where a rule can decide these from the text alone, the rule is here, so that the review
sheet comes pre-filled and a whole corpus can be measured without a reviewer. The paper's two
observations on gpt-4o and gemma-3 (Section 5: spans that are "entire sentences", longer than
minimal) are measured too. Every rule is deliberately conservative: a mark the rule sets should
be one a reviewer would set.

Text comparisons are *tokenisation-blind*: letter case, whitespace, curly vs straight quotes and
dash variants are not differences (:func:`normalise`). Rules, each with its examples:

``no_span``
    the span's text is blank, or a placeholder the output does not hold (no letter or digit, or
    "N/A", "none", "null", "nil", "no span"): no span was given. Quote marks or a dash that *are*
    in the output are a span (a judge may point at stray punctuation).
``hallucination``
    the span's text is not in the output, not even piece by piece (:func:`fragments`): the judge
    quotes words the output does not have. Every such span is one the loader warns about
    (``not-found``, or ``past-end`` where its offsets also run past the end).
``repeated``
    the same judge reported the same text (case and whitespace aside) earlier on the same output.
``hard_to_parse``
    the text is not in the output as one piece, and holds an ellipsis or several pieces (split
    at ``...``, ``…``, newlines, ``" / "``, ``;``, or two or more quoted parts): the judge
    stitched several spans into one. A ``" / "`` or ``;`` the output itself has is no mark.
``implicit_span``
    the reason says the output *leaves something out* (:data:`OMISSION`: "the text does not
    mention the league name", "... which is not mentioned in the text") or points at the data
    (:data:`DATA`: "the data mentions a red card") while the span is no real span (``no_span``,
    or at least 90% of the output): the error has no place in the text. "The description does
    not mention X" (the *input* lacks X: Not Checkable) and "omits"/"leaves out" (often an
    incomplete list the span does hold) are not matched; an omission reason on a span that does
    hold an incomplete list is (the rule cannot tell them apart: the reviewer decides).
``whole_sentence``
    the span covers at least 90% of the characters of the sentence(s) it overlaps
    (:func:`sentences` splits the output); <NA> where the span cannot be placed in the output.

Every mark but ``no_span`` and ``repeated`` needs the output's text: it is <NA> for a span of an
output without text.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

import pandas as pd

from ..annotator_sets import judges as corpus_judges
from ..corpora import KEY, Corpus

MARKS = ["no_span", "hallucination", "repeated", "hard_to_parse", "implicit_span", "whole_sentence"]
WHOLE_SENTENCE = 0.9  # share of the overlapped sentences' characters a span must cover
HUMANS = "humans"  # the row of judge_marks for the human campaigns, pooled

_QUOTES = {"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "–": "-", "—": "-", "‑": "-", "−": "-"}
_ELLIPSIS = re.compile(r"\.\s?\.\s?\.|…")
_SEPARATOR = re.compile(r"\s*(?:\.\s?\.\s?\.+|…|\n+|\s/\s|;)\s*")
_QUOTED = re.compile(r'"([^"]+)"')
_WORD = re.compile(r"\w", re.UNICODE)
PLACEHOLDERS = {"", "na", "none", "null", "nil", "nospan", "nospangiven"}  # normalised, letters and digits only

# the reason says the output leaves something out (a mention the data has and the text lacks)
OMISSION = re.compile(
    r"\b(?:text|summary|output)\s+(?:does|do|did)\s*(?:not|n't)\s+(?:mention|include|list|report)\b"
    r"|\b(?:text|summary|output)\s+(?:fails?|failed)\s+to\s+(?:mention|include|list|report)\b"
    r"|\bnot\s+(?:mentioned|included|listed|reported)\s+in\s+the\s+(?:text|summary|output)\b"
    r"|\b(?:missing|absent)\s+(?:from|in)\s+the\s+(?:text|summary|output)\b",
    re.IGNORECASE,
)
# the reason points at the input data
DATA = re.compile(r"\b(?:data|input|table)\b", re.IGNORECASE)
# tokens before a full stop that do not end a sentence (besides single capital initials: "J. Lewis")
# (spelled as written: "No. 5" is an abbreviation, "said no." ends a sentence)
ABBREVIATIONS = {"Mr", "Mrs", "Ms", "Dr", "St", "vs", "No", "Nr", "approx", "e.g", "i.e", "cf", "Fig", "Jr", "Sr"}
_END = re.compile(r"([.!?…]+[\"'”’)\]]*)\s+|\n+")


def _straight(text: str) -> str:
    """Curly quotes and dash variants as their ASCII forms."""
    for curly, plain in _QUOTES.items():
        if curly in text:
            text = text.replace(curly, plain)
    return text


@dataclass(frozen=True)
class Output:
    """An output text with its :func:`normalise` form, computed once for all its spans (every
    rule below takes an ``Output`` or a plain string)."""

    text: str
    flat: str

    @classmethod
    def of(cls, output: str | Output) -> Output:
        return output if isinstance(output, Output) else cls(output, normalise(output))


@functools.lru_cache(maxsize=1 << 16)  # a pure function of its text, called several times per span
def normalise(text: str) -> str:
    """The text as the rules compare it: NFKC, case-folded, quotes and dashes straightened, and
    no whitespace at all (so that tokenisation differences are no differences).

    >>> normalise("Brusque  WON 3 – 1")
    'brusquewon3-1'
    """
    return "".join(_straight(unicodedata.normalize("NFKC", text)).casefold().split())


def _collapsed(text: str) -> str:
    """Case-folded, whitespace runs as one space: what makes two reports the same text."""
    return " ".join(_straight(unicodedata.normalize("NFKC", text)).casefold().split())


def fragments(text: str) -> list[str]:
    """The pieces a span's text is stitched from: its quoted parts when it is two or more quoted
    parts and nothing else but punctuation, else the parts between ellipses, newlines,
    ``" / "`` and ``;``; pieces without a letter or digit are dropped.

    >>> fragments("scored twice ... in the 90th minute")
    ['scored twice', 'in the 90th minute']
    >>> fragments('"three goals"; "a red card"')
    ['three goals', 'a red card']
    >>> fragments("850 / 900 MHz")
    ['850', '900 MHz']
    >>> fragments("one piece")
    ['one piece']
    """
    text = _straight(text)
    quoted = _QUOTED.findall(text)
    if len(quoted) >= 2 and not _WORD.search(_QUOTED.sub("", text).replace("and", "")):
        pieces = quoted
    else:
        pieces = _SEPARATOR.split(text)
    return [p.strip() for p in pieces if _WORD.search(p)]


def is_no_span(text: str, output: str | Output | None = None) -> bool:
    """No span given: the text is blank, or a placeholder (no letter or digit, or "N/A",
    "none", ...: :data:`PLACEHOLDERS`) that the output does not hold (``output=None``: no text
    to look in).

    >>> out = 'It won 3-1. " " The end.'
    >>> is_no_span("   ", out), is_no_span("N/A", out), is_no_span("...", out), is_no_span("3-1", out)
    (True, True, True, False)
    >>> is_no_span('" "', out)  # stray quotes the output has: a span
    False
    """
    if not text.strip():
        return True
    if not _is_placeholder(text):
        return False
    return output is None or not is_found(text, output)


@functools.lru_cache(maxsize=1 << 16)  # a pure function of its text, asked by several marks per span
def _is_placeholder(text: str) -> bool:
    return "".join(_WORD.findall(normalise(text))).replace("_", "") in PLACEHOLDERS


def is_found(text: str, output: str | Output) -> bool:
    """Whether the span's text is in the output, tokenisation aside (:func:`normalise`).

    >>> is_found("Brusque won 3 - 1", "Brusque won 3-1 at home.")
    True
    >>> is_found("Santos won", "Brusque won 3-1 at home.")
    False
    """
    return normalise(text) in Output.of(output).flat


def is_hallucination(text: str, output: str | Output) -> bool:
    """The span's text is not in the output, not even piece by piece (a stitched span whose
    pieces are all there is *hard to parse*, not hallucinated).

    >>> out = "Brusque beat Mirassol 3-1. Dellatorre scored a penalty."
    >>> is_hallucination("Santos scored", out), is_hallucination("Brusque beat ... a penalty", out)
    (True, False)
    >>> is_hallucination("Brusque beat ... a red card", out)
    True
    """
    output = Output.of(output)
    if is_no_span(text, output) or is_found(text, output):
        return False
    return not all(normalise(piece) in output.flat for piece in fragments(text))


def is_hard_to_parse(text: str, output: str | Output) -> bool:
    """The text is not in the output as one piece and holds an ellipsis or several pieces.

    >>> out = "Brusque beat Mirassol 3-1. It has bands 850 / 900 MHz."
    >>> is_hard_to_parse("Brusque beat ... 3-1", out), is_hard_to_parse('"Brusque"; "Mirassol"', out)
    (True, True)
    >>> is_hard_to_parse("850 / 900 MHz", out), is_hard_to_parse("Brusque beat Mirassol", out)
    (False, False)
    """
    output = Output.of(output)
    if is_no_span(text, output) or is_found(text, output):
        return False
    return bool(_ELLIPSIS.search(text)) or len(fragments(text)) >= 2


def is_implicit_span(text: str, reason: str, output: str | Output) -> bool:
    """The error has no place in the text: the reason says the output leaves something out
    (:data:`OMISSION`), or it points at the data (:data:`DATA`) while the span is no real span
    (no letter or digit, or at least 90% of the output's characters).

    >>> out = "Pyramids FC beat El Gouna 1-0. It was a tight game."
    >>> is_implicit_span("Pyramids FC beat El Gouna 1-0.", "The text does not mention the league name.", out)
    True
    >>> is_implicit_span("N/A", "The data mentions a red card at 80'.", out)
    True
    >>> is_implicit_span("1-0", "The data shows the final score was 2-0.", out)
    False
    >>> is_implicit_span("a tight game", "This is not mentioned in the data.", out)
    False
    """
    reason = _straight(reason or "")
    if OMISSION.search(reason):
        return True
    if not DATA.search(reason):
        return False
    output = Output.of(output)
    if is_no_span(text, output):
        return True
    place = locate(text, 0, output.text)
    size = len(output.text.strip())
    return place is not None and size > 0 and (place[1] - place[0]) >= WHOLE_SENTENCE * size


def sentences(text: str) -> list[tuple[int, int]]:
    """The output's sentences as ``[start, end)`` character ranges, surrounding whitespace left
    out. A sentence ends at ``.``, ``!``, ``?`` or ``…`` (with any closing quotes or brackets)
    followed by whitespace, or at a line break; a full stop after a single capital letter (an
    initial: "J. Lewis") or after an abbreviation of :data:`ABBREVIATIONS` ends none.

    >>> t = "J. Lewis scored. Yapi was off (90').  Dr. No won!"
    >>> [t[s:e] for s, e in sentences(t)]
    ['J. Lewis scored.', "Yapi was off (90').", 'Dr. No won!']
    """
    cuts = [0]
    for m in _END.finditer(text):
        if m.group(1) is not None:
            token = text[: m.start(1) + 1].split()[-1] if text[: m.start(1) + 1].split() else ""
            word = token.rstrip(".").lstrip("(\"'“‘[")
            if m.group(1).startswith(".") and ((len(word) == 1 and word.isupper()) or word in ABBREVIATIONS):
                continue
            cuts.append(m.end(1))
        else:
            cuts.append(m.start())
    cuts.append(len(text))
    out = []
    for s, e in zip(cuts, cuts[1:]):
        piece = text[s:e]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            out.append((s + lead, s + len(piece.rstrip())))
    return out


def locate(text: str, start: int, output: str) -> tuple[int, int] | None:
    """Where the span's text is in the output: at ``start`` or up to two characters from it
    (letter case aside, as the loader places spans), else its first occurrence; ``None`` when it
    is nowhere.

    >>> locate("beat", 7, "Brusque beat Mirassol"), locate("BEAT", 0, "Brusque beat Mirassol")
    ((8, 12), (8, 12))
    """
    want = text.lower()
    low = output.lower()
    for shift in (0, -1, 1, -2, 2):
        at = start + shift
        if at >= 0 and low[at : at + len(want)] == want:
            return at, at + len(want)
    stripped = want.strip()
    found = low.find(stripped) if stripped else -1
    return None if found < 0 else (found, found + len(stripped))


def is_whole_sentence(place: tuple[int, int] | None, spans_of_sentences: list[tuple[int, int]]) -> bool | None:
    """Whether ``[a, b)`` covers at least 90% of the characters of the sentences it overlaps
    (``None`` when the span has no place).

    >>> t = "Brusque beat Mirassol 3-1. Dellatorre scored a penalty."
    >>> is_whole_sentence(locate("Brusque beat Mirassol 3-1", 0, t), sentences(t))
    True
    >>> is_whole_sentence(locate("Mirassol 3-1", 0, t), sentences(t))
    False
    """
    if place is None:
        return None
    a, b = place
    over = [(s, e) for s, e in spans_of_sentences if s < b and e > a]
    if not over:
        return False
    total = sum(e - s for s, e in over)
    covered = sum(min(b, e) - max(a, s) for s, e in over)
    return covered >= WHOLE_SENTENCE * total


def span_marks(spans: pd.DataFrame, examples: pd.DataFrame) -> pd.DataFrame:
    """The marks (:data:`MARKS`, nullable booleans) of any spans frame (``corpus.spans`` rows),
    beside its columns, in its order; ``examples`` gives each output's text (``summary``)."""
    cols = list(spans.columns)
    frame = spans.reset_index(drop=True)
    texts = examples[KEY + ["summary"]].drop_duplicates(KEY)
    joined = frame[KEY].merge(texts, on=KEY, how="left", sort=False)
    outputs = joined["summary"].tolist()
    seen: dict[str, tuple[Output, list[tuple[int, int]]]] = {}  # each output prepared once
    rows = []
    for text, reason, start, output in zip(frame["text"], frame["reason"].fillna(""), frame["start"], outputs):
        text = "" if pd.isna(text) else str(text)
        if not isinstance(output, str):
            rows.append((is_no_span(text), pd.NA, pd.NA, pd.NA, pd.NA))
            continue
        if output not in seen:
            seen[output] = (Output.of(output), sentences(output))
        prepared, its_sentences = seen[output]
        no_span = is_no_span(text, prepared)
        place = None if no_span else locate(text, int(start), output)
        whole = is_whole_sentence(place, its_sentences)
        rows.append(
            (
                no_span,
                is_hallucination(text, prepared),
                is_hard_to_parse(text, prepared),
                is_implicit_span(text, str(reason), prepared),
                pd.NA if whole is None else whole,
            )
        )
    marks = pd.DataFrame(rows, columns=["no_span", "hallucination", "hard_to_parse", "implicit_span", "whole_sentence"])
    marks["repeated"] = _repeated(frame)
    out = frame[cols].copy()
    for mark in MARKS:
        out[mark] = marks[mark].astype("boolean")
    return out


def _repeated(spans: pd.DataFrame) -> pd.Series:
    """Whether a span repeats an earlier span's text (case and whitespace aside) of the same
    judge (campaign and annotator) on the same output; record and span order decide "earlier"."""
    same = spans["text"].fillna("").map(_collapsed)
    who = ["campaign", "annotator_id", *KEY]
    ordered = spans.assign(_same=same, _pos=range(len(spans))).sort_values(["record_id", "order", "_pos"])
    first = ~ordered.duplicated([*who, "_same"])
    out = ~first.reindex(range(len(spans)))
    return out & (same.str.strip() != "")


def automatic_marks(corpus: Corpus, judges: list[str] | None = None) -> pd.DataFrame:
    """One row per LLM judge span (``corpus.spans`` rows of model campaigns, the ``judges``
    given or all of them): ``record_id, campaign, annotator_id, dataset, split, setup_id,
    example_idx, order, start, end, type, text, reason, words`` and the marks :data:`MARKS`
    (nullable booleans, see the module docstring)."""
    chosen = corpus_judges(corpus) if judges is None else list(judges)
    spans = corpus.spans[(corpus.spans["kind"] == "model") & corpus.spans["campaign"].isin(chosen)]
    cols = ["record_id", "campaign", "annotator_id", *KEY, "order", "start", "end", "type", "text", "reason", "words"]
    return span_marks(spans[cols], corpus.examples)


def judge_marks(corpus: Corpus) -> pd.DataFrame:
    """Per LLM judge, and one row ``"humans"`` (the human campaigns pooled, the same rules):
    ``judge, spans, spans_with_text`` (spans whose output has a text: the denominators of the
    text-dependent shares), ``<mark>_share`` for each mark of :data:`MARKS` (share of spans),
    ``mean_words`` (mean words per span) and ``words_vs_humans`` (that mean over the humans')."""
    cols = ["record_id", "campaign", "annotator_id", *KEY, "order", "start", "end", "type", "text", "reason", "words"]
    humans = span_marks(corpus.spans.loc[corpus.spans["kind"] == "human", cols], corpus.examples)
    frames = [(judge, group) for judge, group in automatic_marks(corpus).groupby("campaign", sort=False)]
    order = {j: i for i, j in enumerate(corpus_judges(corpus))}
    frames.sort(key=lambda jg: order.get(jg[0], len(order)))
    rows = []
    for name, marks in [*frames, (HUMANS, humans)]:
        row = {"judge": name, "spans": len(marks), "spans_with_text": int(marks["hallucination"].notna().sum())}
        for mark in MARKS:
            values = marks[mark].dropna().astype(float)
            row[f"{mark}_share"] = float(values.mean()) if len(values) else float("nan")
        row["mean_words"] = float(marks["words"].mean()) if len(marks) else float("nan")
        rows.append(row)
    out = pd.DataFrame(rows)
    human_words = out.loc[out["judge"] == HUMANS, "mean_words"].iloc[0]
    out["words_vs_humans"] = out["mean_words"] / human_words if human_words else float("nan")
    return out


def marks_by_corpus(corpora: dict) -> pd.DataFrame:
    """:func:`judge_marks` of several corpora (name -> Corpus) in one frame, a ``corpus`` column
    first and, after ``judge`` (the campaign), ``judge_name``: the judge as its corpus names it for
    readers (:func:`hotelcheckspan.annotator_sets.names`: the iaa split's ``zeroshot-gpt4o`` is
    "gpt4o", as the test split's ``gpt4o``)."""
    from ..annotator_sets import names

    frames = []
    for name, corpus in corpora.items():
        marks = judge_marks(corpus).assign(corpus=name)
        named = names(corpus)
        marks.insert(marks.columns.get_loc("judge") + 1, "judge_name", [named.of(j) for j in marks["judge"]])
        frames.append(marks)
    out = pd.concat(frames, ignore_index=True)
    return out[["corpus", *[c for c in out.columns if c != "corpus"]]]
