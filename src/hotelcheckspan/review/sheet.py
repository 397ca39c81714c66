"""The review sheet: LLM judges' spans out to a spreadsheet for reviewers, and the sheet read back.

The sheet follows the review guidelines of the related d2t study (issue 27): one row per judge
span, all spans of one output (across judges) next to each other, judges anonymised, and four
review fields per span.

Files :func:`export` writes for ``OUT.xlsx`` (or ``OUT.csv``); it refuses to replace any of them
unless told to (``force=True``, ``--force``): a replaced key leaves the earlier export's sheets
unscorable.

``OUT.xlsx``
    sheet ``spans`` (:func:`sheet_columns`, one row per span; drop-down lists on the review
    columns; ``output_id`` links to the output's row in sheet ``outputs``), sheet ``outputs``
    (``output_id, dataset, split, setup_id, example_idx``, ``aspect`` on a HotelCheckSpan sheet,
    ``text, source``: the output's text and its source, i.e. the input data) and sheet ``about``
    (:func:`notes`: the task, the allowed values and the rules).
``OUT.csv``
    the same columns after leading ``#`` lines of the same notes (:func:`read_sheet` skips them);
    the outputs go to the companion ``OUT.outputs.csv`` (same columns as sheet ``outputs``).
    UTF-8. Prefer the xlsx for Excel, which may re-type a CSV's cells ("3-1" as a date): a
    changed span text is reported on reading.
``OUT.key.json``
    the key, kept from reviewers: which judge each evaluator ("E1", "E2", ...) is, the sheet's
    flags, each output's example key, and per row its output, evaluator, a hash of its span text
    and what the export pre-filled (:mod:`.scoring` reads it to check and de-anonymise completed
    sheets).

Review columns: ``error_mark`` (:data:`ERROR_MARKS`, required), ``explanation_mark``
(:data:`EXPLANATION_MARKS`, required unless "No span given"), one column per flag ("Yes", or
blank for no: a span may take several flags), ``comments`` and ``reviewer`` (the reviewer's
initials, rightmost as in the guidelines). Values are exactly as listed (letter case too; spaces
around a value do not count), and the marks of a row agree (:data:`RULES`, :func:`inconsistencies`).

Flags (:data:`FLAGS`): every sheet has the study's five, which fit any corpus; its "Not aspect
related" (defined there as "not a faithfulness problem": the study's *aspect* is the quality
judged, faithfulness) is ``flag_not_faithfulness``. HotelCheckSpan's summaries each focus on one aspect of a hotel, so a
HotelCheckSpan sheet (:func:`hotelcheckspan.analyses.judges.is_hotelcheckspan`: the corpus has its
four human sets) has one more flag, ``flag_not_aspect_related`` (the span is about
something other than the summary's aspect), and the outputs' aspect (:func:`sheet_flags`).

The automatic marks (:mod:`.marks`) are in the ``auto_*`` columns; where one is certain the export
pre-fills the review column (Hallucination and No span given in ``error_mark``, Yes in
``flag_repeated`` and ``flag_hard_to_parse``) and names it in ``prefilled`` (shaded in the xlsx):
reviewers may change it.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import tempfile
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..annotator_sets import judges as corpus_judges
from ..corpora import KEY, Corpus
from ..corpora.problems import Problem
from .marks import automatic_marks

ERROR_MARKS = ["Error", "Not an error", "No span given", "Hallucination"]
EXPLANATION_MARKS = ["Correct", "Partially correct", "Incomplete", "Vague", "Incorrect", "Not an error"]
NOT_AN_ERROR = "Not an error"  # an error mark and an explanation mark alike
# every flag a sheet may have, column -> label, in the sheet's order (:func:`sheet_flags` chooses)
FLAGS = {
    "flag_too_strict": "Too strict",
    "flag_not_faithfulness": "Not a faithfulness problem",
    "flag_not_aspect_related": "Not aspect related",
    "flag_repeated": "Repeated",
    "flag_hard_to_parse": "Hard to parse",
    "flag_implicit_span": "Implicit span",
}
HOTELCHECKSPAN_FLAGS = ["flag_not_aspect_related"]  # on HotelCheckSpan sheets only
FLAG_HELP = {  # what each flag means, as the sheet tells reviewers (the study's guidelines)
    "flag_too_strict": "technically an error, but the judge is nitpicking",
    "flag_not_faithfulness": "a problem, but not of faithfulness to the source, e.g. redundant, repetitive or "
    "ungrammatical text",
    "flag_not_aspect_related": "the span is about something other than the aspect the summary focuses on, "
    "named beside the output's text",
    "flag_repeated": "the same judge reported this span again on the same output",
    "flag_hard_to_parse": "several spans in one, or '...' in the middle; white space or tokenisation differences "
    "are not",
    "flag_implicit_span": "no span given, but the reason points at one ('the data mentions X')",
}
YES = "Yes"
NO_SPAN = "No span given"
AUTO = {  # sheet column -> mark of .marks
    "auto_no_span": "no_span",
    "auto_hallucination": "hallucination",
    "auto_repeated": "repeated",
    "auto_hard_to_parse": "hard_to_parse",
    "auto_implicit_span": "implicit_span",
    "auto_whole_sentence": "whole_sentence",
}
SPAN_COLUMNS = ["output_id", "row_id", "evaluator", "type", "start", "text", "reason", "words"]
MARK_COLUMNS = ["error_mark", "explanation_mark"]
OUTPUT_COLUMNS = ["output_id", *KEY, "text", "source"]  # "aspect" goes before "text" on a HotelCheckSpan sheet
VALUES = "every value exactly as listed here (letter case too; spaces around it do not count)"
RULES = [  # the marks of a row agree: the sheet's notes state these, :func:`inconsistencies` checks them
    f"explanation_mark is '{NOT_AN_ERROR}' exactly when error_mark is '{NOT_AN_ERROR}' (a span that is an "
    f"Error has another explanation; Hallucination and {NO_SPAN} may take any)",
    f"flag_implicit_span goes with error_mark '{NO_SPAN}' only",
]
KEY_FORMAT = "hotelcheckspan-review-key/2"  # /2: the key names the sheet's flags
CELL_LIMIT = 32_000  # Excel holds at most 32,767 characters in a cell: longer sources are cut
FIXED_TIME = (2000, 1, 1, 0, 0, 0)  # zip entry times and workbook dates: byte-identical exports
_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")
_ILLEGAL = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")  # characters an xlsx cannot hold

COLUMN_NOTES = {
    "output_id": "the output (system text) the span is in: its text and source are in sheet 'outputs'",
    "row_id": "the span's id in this export (do not edit)",
    "evaluator": "the LLM judge, anonymised",
    "type": "the error category the judge gave",
    "start": "the span's character offset in the output",
    "text": "the span's text (do not edit)",
    "reason": "the judge's explanation",
    "words": "words in the span",
    "prefilled": "review columns the export filled from a certain automatic mark (change them if wrong)",
    "comments": "anything you are unsure about or want to point out",
    "reviewer": "your initials: fill them on every row you review",
} | {col: f"automatic mark '{mark}' (see the methods page): yes or blank" for col, mark in AUTO.items()}


@dataclass(frozen=True)
class ExportResult:
    """What :func:`export` wrote: files, and how many rows, outputs and judges."""

    path: Path
    key_path: Path
    outputs_path: Path | None  # the CSV's companion file of outputs (None for an xlsx)
    export_id: str
    rows: int
    outputs: int
    judges: tuple[str, ...]
    flags: tuple[str, ...]  # the sheet's flag columns (:func:`sheet_flags`)
    complete_outputs: int  # outputs with every span of the chosen judges in the sheet
    left_out: int  # spans not exported: their output has no text to review them against
    sample: int | None = None
    strata: dict = field(default_factory=dict)  # (judge, type) -> spans in the sheet

    def describe(self) -> str:
        """One paragraph for the command line (the evaluators' key is not shown)."""
        lines = [
            f"wrote {self.rows} span rows ({self.outputs} outputs, {len(self.judges)} judges, anonymised) "
            f"to {self.path}",
            f"key (keep it from reviewers): {self.key_path}",
            f"flags: {', '.join(FLAGS[f] for f in self.flags)}"
            + (" (HotelCheckSpan: with its aspect flag)" if set(HOTELCHECKSPAN_FLAGS) & set(self.flags) else ""),
        ]
        if self.outputs_path is not None:
            lines.append(f"outputs (text and source): {self.outputs_path}")
        if self.sample is not None:
            lines.append(
                f"stratified sample of {self.rows} spans over {len(self.strata)} judge x type strata; "
                f"{self.complete_outputs} of {self.outputs} outputs have all their spans in it"
            )
        if self.left_out:
            lines.append(f"left out {self.left_out} spans whose output has no text")
        return "\n".join(lines)


def key_path(path: Path | str) -> Path:
    """The key file beside a sheet: ``OUT.key.json``."""
    path = Path(path)
    return path.with_name(path.stem + ".key.json")


def outputs_path(path: Path | str) -> Path:
    """The CSV's companion file of outputs: ``OUT.outputs.csv``."""
    path = Path(path)
    return path.with_name(path.stem + ".outputs.csv")


def cell_text(value) -> str:
    """A value as the sheet holds it: text without the control characters an xlsx cannot hold."""
    return "" if value is None or (not isinstance(value, str) and pd.isna(value)) else _ILLEGAL.sub("", str(value))


def text_hash(text: str) -> str:
    """The hash of a span text the key keeps: NFC, whitespace runs as one space, stripped (so
    that a spreadsheet's whitespace quirks are no change, and an edit is)."""
    flat = " ".join(unicodedata.normalize("NFC", cell_text(text)).split())
    return hashlib.sha256(flat.encode("utf-8")).hexdigest()[:16]


def sheet_flags(corpus: Corpus) -> list[str]:
    """The flag columns of ``corpus``' sheet: every flag of :data:`FLAGS`, and the HotelCheckSpan
    ones (:data:`HOTELCHECKSPAN_FLAGS`) only where the corpus is HotelCheckSpan
    (:func:`~hotelcheckspan.analyses.judges.is_hotelcheckspan`)."""
    from ..analyses.judges import is_hotelcheckspan

    hotel = is_hotelcheckspan(corpus)
    return [f for f in FLAGS if hotel or f not in HOTELCHECKSPAN_FLAGS]


def review_columns(flags: list[str]) -> list[str]:
    """The columns a reviewer fills (the reviewer's initials aside)."""
    return [*MARK_COLUMNS, *flags, "comments"]


def sheet_columns(flags: list[str]) -> list[str]:
    """The columns of sheet ``spans`` with these flags."""
    return [*SPAN_COLUMNS, *AUTO, *review_columns(flags), "prefilled", "reviewer"]


def allowed_values(flags: list[str]) -> dict[str, list[str]]:
    """Review column -> the values it takes (blank aside): the drop-down lists and what the reader accepts."""
    return {"error_mark": ERROR_MARKS, "explanation_mark": EXPLANATION_MARKS} | {f: [YES] for f in flags}


def inconsistencies(error_mark: str, explanation_mark: str, flags: dict[str, bool]) -> list[tuple[str, str]]:
    """Where a row's marks break :data:`RULES`: ``(column, message)`` pairs, the column being the
    one to correct. Takes valid values (blank: not given); blank marks break no rule here.

    >>> [col for col, _ in inconsistencies("Not an error", "Correct", {"flag_implicit_span": True})]
    ['explanation_mark', 'flag_implicit_span']
    >>> inconsistencies("Error", "Vague", {}), inconsistencies(NO_SPAN, NOT_AN_ERROR, {"flag_implicit_span": True})
    ([], [])
    """
    out = []
    if error_mark in ("Error", NOT_AN_ERROR) and explanation_mark:
        if error_mark == NOT_AN_ERROR and explanation_mark != NOT_AN_ERROR:
            out.append(
                (
                    "explanation_mark",
                    f"{explanation_mark!r} with error_mark {NOT_AN_ERROR!r}: a span that is not an error has "
                    f"explanation_mark {NOT_AN_ERROR!r}",
                )
            )
        elif error_mark == "Error" and explanation_mark == NOT_AN_ERROR:
            out.append(
                (
                    "explanation_mark",
                    f"{NOT_AN_ERROR!r} with error_mark 'Error': the explanation of an error is one of "
                    f"{', '.join(m for m in EXPLANATION_MARKS if m != NOT_AN_ERROR)}",
                )
            )
    if flags.get("flag_implicit_span") and error_mark and error_mark != NO_SPAN:
        out.append(
            (
                "flag_implicit_span",
                f"{YES!r} with error_mark {error_mark!r}: the Implicit span flag goes with {NO_SPAN!r} only",
            )
        )
    return out


def notes(export_id: str, companion: str | None, flags: list[str]) -> list[str]:
    """The sheet's notes: the task, every review column's allowed values and meaning, the rules
    its marks keep, where the outputs are."""
    where = f"in {companion}" if companion else "in sheet 'outputs' (output_id links there)"
    return [
        f"HotelCheckSpan review sheet, export {export_id}: one row per span an LLM judge (anonymised: evaluator) "
        "marked; all spans of one output are together.",
        f"Review all spans of one output together, against the output's text and its source ({where}).",
        f"Review values: {VALUES}.",
        f"error_mark (required): {' | '.join(ERROR_MARKS)}",
        f"explanation_mark (required unless error_mark is '{NO_SPAN}'): {' | '.join(EXPLANATION_MARKS)}",
        *(f"{col} ({FLAGS[col]}): {YES} or blank: {FLAG_HELP[col]}" for col in flags),
        "Several flags may apply to a span.",
        *(f"Rule: {rule}." for rule in RULES),
        "comments: free text; reviewer: your initials on every row you review (a row without initials, comment "
        "or mark of yours is not reviewed)",
        "prefilled: review columns filled from a certain automatic mark; change them if you disagree",
        "Do not edit row_id or text: rows are matched to the export by row_id and their text is checked.",
    ]


def written_files(path: Path | str) -> list[Path]:
    """The files :func:`export` writes for ``path``: the sheet, its outputs (a CSV's), its key."""
    path = Path(path)
    return [path, *([outputs_path(path)] if path.suffix.lower() == ".csv" else []), key_path(path)]


def refuse_to_replace(path: Path | str, force: str = "force=True") -> None:
    """Raise :class:`ValueError` (one line, naming the files and how to ``force``: the command
    line's ``--force``, the API's ``force=True``) when a file :func:`export` would write for
    ``path`` exists: a replaced key leaves the earlier export's sheets unscorable, a replaced
    sheet may be a reviewer's work."""
    there = [str(f) for f in written_files(path) if os.path.lexists(f)]
    if there:
        names = there[0] if len(there) == 1 else ", ".join(there[:-1]) + " and " + there[-1]
        verb, it = ("exists", "it") if len(there) == 1 else ("exist", "them")
        raise ValueError(
            f"{names} {verb} (an earlier export: its sheets need its key to be scored): "
            f"choose another OUT, or pass {force} to replace {it}"
        )


def stratified_sample(spans: pd.DataFrame, n: int, rng: np.random.Generator) -> pd.DataFrame:
    """``n`` spans, allocated to the strata (``campaign`` x ``type``) in proportion to their
    sizes by largest remainders, at least one per non-empty stratum; within a stratum the spans
    of the outputs first in one random order of all outputs are taken, so that the strata draw
    on the same outputs and many outputs come whole. Rows keep ``spans``' order."""
    if n < 1:
        raise ValueError(f"the sample must hold at least one span, not {n}")
    strata = spans.groupby(["campaign", "type"], sort=True).indices
    if n >= len(spans):
        return spans
    if n < len(strata):
        raise ValueError(f"a sample of {n} spans cannot hold one span of each of the {len(strata)} judge x type strata")
    sizes = np.array([len(v) for v in strata.values()])
    quota = n * sizes / sizes.sum()
    alloc = np.minimum(np.maximum(1, np.floor(quota)).astype(int), sizes)
    while alloc.sum() < n:  # the largest remainder among strata with room gets one more
        room = np.where(alloc < sizes, quota - alloc, -np.inf)
        alloc[int(np.argmax(room))] += 1
    while alloc.sum() > n:  # the most over-served stratum above one gives one back
        over = np.where(alloc > 1, alloc - quota, -np.inf)
        alloc[int(np.argmax(over))] -= 1
    outputs = spans[KEY].drop_duplicates()
    rank = pd.Series(rng.permutation(len(outputs)), index=pd.MultiIndex.from_frame(outputs))
    span_rank = rank.reindex(pd.MultiIndex.from_frame(spans[KEY])).to_numpy()
    tie = rng.random(len(spans))
    keep = []
    for positions, k in zip(strata.values(), alloc):
        order = np.lexsort((tie[positions], span_rank[positions]))
        keep.extend(positions[order[:k]])
    return spans.iloc[np.sort(keep)]


def _evaluators(judges: list[str], rng: np.random.Generator) -> dict[str, str]:
    """judge -> "E1", "E2", ... in a seeded random order (of the judges sorted by name, so that
    the order they were given in does not matter)."""
    names = sorted(judges)
    return {names[i]: f"E{k + 1}" for k, i in enumerate(rng.permutation(len(names)))}


def _ids(prefix: str, n: int) -> list[str]:
    width = max(3, len(str(n)))
    return [f"{prefix}{i + 1:0{width}d}" for i in range(n)]


def build(corpus: Corpus, *, judges=None, sample=None, seed=0):
    """The rows of a review sheet, its outputs, its key and its :class:`ExportResult` facts
    (without writing anything): ``(rows, outputs, key, facts)``."""
    available = corpus_judges(corpus)
    chosen = available if judges is None else list(dict.fromkeys(judges))
    unknown = [j for j in chosen if j not in available]
    if unknown:
        raise ValueError(
            f"no LLM judge {', '.join(map(repr, unknown))} in this corpus; its judges: {', '.join(available)}"
        )
    if not chosen:
        raise ValueError("no LLM judge to review: the corpus has no model campaign")
    flags = sheet_flags(corpus)
    evaluator_rng, sample_rng = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    evaluators = _evaluators(chosen, evaluator_rng)
    marks = automatic_marks(corpus, chosen)
    with_text = marks["hallucination"].notna()
    left_out = int((~with_text).sum())
    marks = marks[with_text].reset_index(drop=True)
    if marks.empty:
        raise ValueError(f"the judges {', '.join(chosen)} marked no span on an output with text: nothing to review")
    everything = marks
    if sample is not None:
        marks = stratified_sample(marks, int(sample), sample_rng)
    # outputs in the corpus' order, numbered in the sheet
    examples = corpus.examples.drop_duplicates(KEY).reset_index(drop=True)
    position = pd.Series(range(len(examples)), index=pd.MultiIndex.from_frame(examples[KEY]))
    marks = marks.assign(
        _output=position.reindex(pd.MultiIndex.from_frame(marks[KEY])).to_numpy(),
        evaluator=marks["campaign"].map(evaluators),
        _e=marks["campaign"].map(evaluators).str[1:].astype(int),
    ).sort_values(["_output", "_e", "record_id", "order"], kind="stable")
    used = list(dict.fromkeys(marks["_output"]))
    output_ids = dict(zip(used, _ids("O", len(used))))
    marks["output_id"] = marks["_output"].map(output_ids)
    marks["row_id"] = _ids("R", len(marks))
    rows = pd.DataFrame({col: marks[col].to_numpy() for col in SPAN_COLUMNS})
    rows["text"] = rows["text"].map(cell_text)
    rows["reason"] = rows["reason"].map(cell_text)
    for col, mark in AUTO.items():
        rows[col] = np.where(marks[mark].fillna(False).astype(bool), "yes", "")
    prefill = {
        "error_mark": np.select(
            [marks["no_span"].astype(bool), marks["hallucination"].astype(bool)], [NO_SPAN, "Hallucination"], ""
        ),
        "flag_repeated": np.where(marks["repeated"].astype(bool), YES, ""),
        "flag_hard_to_parse": np.where(marks["hard_to_parse"].fillna(False).astype(bool), YES, ""),
    }
    for col in review_columns(flags):
        rows[col] = prefill.get(col, "")
    rows["prefilled"] = [", ".join(col for col in prefill if prefill[col][i]) for i in range(len(rows))]
    rows["reviewer"] = ""
    ex = examples.iloc[used]
    outputs = pd.DataFrame(
        {
            "output_id": [output_ids[i] for i in used],
            **{k: ex[k].to_numpy() for k in KEY},
            **({"aspect": ex["aspect"].map(cell_text).to_numpy()} if "flag_not_aspect_related" in flags else {}),
            "text": ex["summary"].map(cell_text).to_numpy(),
            "source": ex["description"].map(lambda s: _cut(cell_text(s))).to_numpy(),
        }
    )
    key_rows = {
        r: {
            "output": o,
            "evaluator": e,
            "text_hash": text_hash(t),
            "prefilled": {c: prefill[c][i] for c in prefill if prefill[c][i]},
        }
        for i, (r, o, e, t) in enumerate(zip(rows["row_id"], rows["output_id"], rows["evaluator"], rows["text"]))
    }
    key_outputs = {
        o: {k: (int(v) if k == "example_idx" else str(v)) for k, v in zip(KEY, vals)}
        for o, *vals in zip(outputs["output_id"], *(outputs[k] for k in KEY))
    }
    export_id = hashlib.sha256(json.dumps([key_rows, key_outputs], sort_keys=True).encode()).hexdigest()[:12]
    key = {
        "format": KEY_FORMAT,
        "export_id": export_id,
        "corpus": corpus.root.name,
        "seed": seed,
        "sample": sample,
        "flags": {f: FLAGS[f] for f in flags},
        "evaluators": {e: j for j, e in sorted(evaluators.items(), key=lambda je: int(je[1][1:]))},
        "outputs": key_outputs,
        "rows": key_rows,
    }
    complete = _complete_outputs(marks, everything)
    strata = {f"{j} / {t}": int(n) for (j, t), n in marks.groupby(["campaign", "type"]).size().items()}
    facts = {
        "export_id": export_id,
        "rows": len(rows),
        "outputs": len(outputs),
        "judges": tuple(chosen),
        "flags": tuple(flags),
        "complete_outputs": complete,
        "left_out": left_out,
        "sample": None if sample is None else int(sample),
        "strata": strata,
    }
    return rows, outputs, key, facts


def preview(corpus: Corpus, n: int = 6, *, seed: int = 0) -> pd.DataFrame:
    """The first ``n`` rows of the sheet :func:`export` would write for the whole corpus (the
    spans of its first outputs, as the reviewer meets them; nothing is written)."""
    rows = build(corpus, seed=seed)[0]
    return rows.head(n).reset_index(drop=True)


def _cut(text: str) -> str:
    return text if len(text) <= CELL_LIMIT else text[:CELL_LIMIT] + " … [cut: too long for a spreadsheet cell]"


def _complete_outputs(chosen: pd.DataFrame, everything: pd.DataFrame) -> int:
    """Outputs whose every span (of the chosen judges) is among the chosen rows."""
    have = chosen.groupby(KEY, sort=False).size()
    of = everything.groupby(KEY, sort=False).size()
    return int((have == of.reindex(have.index)).sum())


def export(
    corpus: Corpus, path, *, judges=None, sample=None, seed=0, reviewer_column=True, force=False
) -> ExportResult:
    """Write a review sheet of the LLM judges' spans (``.xlsx`` or ``.csv``, see the module
    docstring) and its key, deterministically (the same arguments give the same bytes).

    ``judges``: model campaigns (default: all, :func:`hotelcheckspan.annotator_sets.judges`);
    ``sample``: a stratified sample of that many spans (:func:`stratified_sample`) instead of all;
    ``seed``: the evaluators' order and the sample; ``reviewer_column=False`` leaves the reviewer
    column out (one reviewer per file: :func:`~hotelcheckspan.review.read_reviews` then names the
    reviewer after the file's stem). Spans whose output has no text are left out (``left_out``).
    An existing sheet, outputs file or key (:func:`written_files`) is replaced only with
    ``force=True``; each file is written whole or not at all.

    Raises :class:`ValueError` for an unknown judge, a sample smaller than the number of judge x
    type strata, another file type, nothing to review, or a file it would replace without ``force``."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".xlsx", ".csv"):
        raise ValueError(f"{path}: the review sheet must be an .xlsx or a .csv file")
    if not force:
        refuse_to_replace(path)
    rows, outputs, key, facts = build(corpus, judges=judges, sample=sample, seed=seed)
    flags = list(facts["flags"])
    if not reviewer_column:
        rows = rows.drop(columns="reviewer")
    companion = None
    if suffix == ".xlsx":
        _atomic(path, _xlsx_bytes(rows, outputs, key["export_id"], flags))
    else:
        companion = outputs_path(path)
        _atomic(path, _csv_bytes(rows, notes(key["export_id"], companion.name, flags)))
        _atomic(companion, _csv_bytes(outputs, []))
    _atomic(key_path(path), (json.dumps(key, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    return ExportResult(path=path, key_path=key_path(path), outputs_path=companion, **facts)


def _atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it (never half a file)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _csv_bytes(frame: pd.DataFrame, header_notes: list[str]) -> bytes:
    buf = io.StringIO()
    for line in header_notes:
        buf.write(f"# {line}\n")
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(frame.columns)
    writer.writerows(frame.itertuples(index=False, name=None))
    return buf.getvalue().encode("utf-8")


def _xlsx_bytes(rows: pd.DataFrame, outputs: pd.DataFrame, export_id: str, flags: list[str]) -> bytes:
    """The workbook: ``spans`` (drop-downs on the review columns, pre-filled cells shaded,
    output ids linked to ``outputs``), ``outputs`` and ``about``; fixed dates and zip times."""
    import datetime

    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation
    from openpyxl.worksheet.hyperlink import Hyperlink

    wb = Workbook()
    wb.properties.created = wb.properties.modified = datetime.datetime(*FIXED_TIME)
    wb.properties.creator = "hotelcheckspan"
    ws = wb.active
    ws.title = "spans"
    out_ws = wb.create_sheet("outputs")
    about = wb.create_sheet("about")
    bold = Font(bold=True)
    shades = [PatternFill("solid", fgColor="DDEBF7"), PatternFill("solid", fgColor="FCE4D6")]
    prefilled_fill = PatternFill("solid", fgColor="FFF2CC")
    wrap = Alignment(wrap_text=True, vertical="top")
    columns = list(rows.columns)
    allowed = allowed_values(flags)
    for j, col in enumerate(columns, 1):
        cell = ws.cell(1, j, col)
        cell.font = bold
        note = COLUMN_NOTES.get(col, "")
        if col in allowed:
            note = f"one of: {', '.join(allowed[col])}" + (f" (blank: no): {FLAG_HELP[col]}" if col in FLAGS else "")
        cell.comment = Comment(note, "hotelcheckspan")
    out_row = {o: i + 2 for i, o in enumerate(outputs["output_id"])}
    shade, last = 1, None
    for i, values in enumerate(rows.itertuples(index=False, name=None), 2):
        record = dict(zip(columns, values))
        if record["output_id"] != last:
            shade, last = 1 - shade, record["output_id"]
        prefilled = set(filter(None, (c.strip() for c in record["prefilled"].split(","))))
        for j, col in enumerate(columns, 1):
            value = record[col]
            if isinstance(value, str) and not value:
                continue
            cell = ws.cell(i, j, value.item() if hasattr(value, "item") else value)
            if isinstance(value, str):
                cell.data_type = "s"  # never a formula, whatever the text starts with
            if col in ("text", "reason", "comments"):
                cell.alignment = wrap
            if col in prefilled:
                cell.fill = prefilled_fill
        id_cell = ws.cell(i, 1)
        id_cell.fill = shades[shade]
        id_cell.hyperlink = Hyperlink(ref=id_cell.coordinate, location=f"outputs!A{out_row[record['output_id']]}")
    n = len(rows) + 1
    for col, values in allowed.items():
        letter = get_column_letter(columns.index(col) + 1)
        dv = DataValidation(
            type="list",
            formula1='"' + ",".join(values) + '"',
            allow_blank=True,
            showErrorMessage=True,
            errorTitle=col,
            error=f"{col}: one of {', '.join(values)}",
        )
        dv.add(f"{letter}2:{letter}{max(n, 2)}")
        ws.add_data_validation(dv)
    widths = {"text": 50, "reason": 60, "comments": 30, "error_mark": 16, "explanation_mark": 18, "prefilled": 18}
    for j, col in enumerate(columns, 1):
        ws.column_dimensions[get_column_letter(j)].width = widths.get(col, max(10, min(len(col) + 2, 24)))
    ws.freeze_panes = "D2"
    ws.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{n}"
    for j, col in enumerate(outputs.columns, 1):
        out_ws.cell(1, j, col).font = bold
    for i, values in enumerate(outputs.itertuples(index=False, name=None), 2):
        for j, value in enumerate(values, 1):
            value = value.item() if hasattr(value, "item") else value
            if isinstance(value, int) and abs(value) > 2**53:
                value = str(value)
            cell = out_ws.cell(i, j, value)
            if isinstance(value, str):
                cell.data_type = "s"
            if outputs.columns[j - 1] in ("text", "source"):
                cell.alignment = wrap
    for j, col in enumerate(outputs.columns, 1):
        if col in ("text", "source"):
            out_ws.column_dimensions[get_column_letter(j)].width = 80
    out_ws.freeze_panes = "B2"
    for i, line in enumerate(notes(export_id, None, flags), 1):
        about.cell(i, 1, line).data_type = "s"
    about.column_dimensions["A"].width = 140
    raw = io.BytesIO()
    wb.save(raw)
    return _fixed_zip(raw.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The same zip with every entry's time and the workbook's modified date fixed (openpyxl
    stamps both with the time of writing)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, FIXED_TIME)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = info.external_attr
            content = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps "modified" with the time of saving
                content = _MODIFIED.sub(rb"\g<1>2000-01-01T00:00:00Z\g<2>", content)
            dst.writestr(fixed, content)
    return out.getvalue()


# ---------------------------------------------------------------------------------------------
# the sheet in


@dataclass
class Sheet:
    """One completed sheet as read: its rows (every column as text, plus ``line``: the row's
    spreadsheet row or CSV line), the columns it has, the line of its header, the export id its
    notes name (or None), and what was wrong with the file itself; for a workbook, the name of
    the sheet read and each column's letter (:meth:`cell` names a cell)."""

    path: str
    rows: pd.DataFrame
    columns: list[str]
    header_line: int
    export_id: str | None
    problems: list[Problem]
    sheet_name: str | None = None  # the workbook's sheet read (None for a CSV)
    letters: dict[str, str] = field(default_factory=dict)  # column -> its letter in the workbook

    def cell(self, column: str, line: int) -> str:
        """Where a value is, for a message: ``"sheet 'spans', cell K12: "`` in a workbook, ``""``
        in a CSV (whose line and column name say it)."""
        if self.sheet_name is None or column not in self.letters:
            return ""
        return f"sheet {self.sheet_name!r}, cell {self.letters[column]}{line}: "


_EXPORT_ID = re.compile(r"export ([0-9a-f]{12})")


def _text(value) -> str:
    """A cell value as text: blank for None, whole floats without ``.0``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_sheet(path: Path | str) -> Sheet:
    """Read a completed sheet (xlsx: its ``spans`` sheet, or its first sheet; csv: after any
    leading ``#`` notes, with ``,``, ``;`` or tab as separator). Never raises for a bad file:
    the problems (missing, unreadable, not a workbook, no header) are returned."""
    path = Path(path)
    name = str(path)
    empty = Sheet(name, pd.DataFrame(columns=["line"]), [], 0, None, [])
    if not path.is_file():
        empty.problems.append(Problem(name, 0, "", "no such file" if not path.exists() else "not a regular file"))
        return empty
    suffix = path.suffix.lower()
    sheet_name = None
    try:
        if suffix == ".xlsx":
            records, notes_text, sheet_name = _xlsx_records(path)
        elif suffix == ".csv":
            records, notes_text = _csv_records(path)
        else:
            empty.problems.append(Problem(name, 0, "", "a review sheet is an .xlsx or a .csv file"))
            return empty
    except _Unreadable as err:
        empty.problems.append(Problem(name, 0, "", str(err)))
        return empty
    header_at = next((i for i, (_, cells) in enumerate(records) if "row_id" in [c.strip() for c in cells]), None)
    if header_at is None:
        empty.problems.append(Problem(name, 0, "", "no header row with a row_id column: is this a review sheet?"))
        return empty
    for _, cells in records[:header_at]:
        notes_text += " " + " ".join(cells)
    header = [c.strip() for c in records[header_at][1]]
    rows = []
    for line, cells in records[header_at + 1 :]:
        if not any(c.strip() for c in cells):
            continue
        cells = list(cells) + [""] * (len(header) - len(cells))
        row = {col: cells[j] for j, col in enumerate(header) if col}
        row["line"] = line
        rows.append(row)
    columns = [c for c in header if c]
    frame = pd.DataFrame(rows, columns=[*dict.fromkeys(columns), "line"])
    found = _EXPORT_ID.search(notes_text)
    letters = {}
    if sheet_name is not None:
        from openpyxl.utils import get_column_letter

        # a name's last column, as the rows take it
        letters = {col: get_column_letter(j + 1) for j, col in enumerate(header) if col}
    export_id = found.group(1) if found else None
    return Sheet(name, frame, columns, records[header_at][0], export_id, [], sheet_name, letters)


class _Unreadable(Exception):
    pass


def _xlsx_records(path: Path) -> tuple[list[tuple[int, list[str]]], str, str]:
    """(row number, cells) of the ``spans`` sheet (or the first), the text of sheet ``about``
    and the name of the sheet read."""
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, TypeError) as err:
        raise _Unreadable(f"cannot read it as an xlsx workbook ({type(err).__name__}: {err})") from None
    try:
        ws = wb["spans"] if "spans" in wb.sheetnames else wb.worksheets[0]
        records = [(i, [_text(v) for v in row]) for i, row in enumerate(ws.iter_rows(values_only=True), 1)]
        about = ""
        if "about" in wb.sheetnames:
            about = " ".join(_text(v) for row in wb["about"].iter_rows(values_only=True) for v in row)
    finally:
        wb.close()
    return records, about, ws.title


def _csv_records(path: Path) -> tuple[list[tuple[int, list[str]]], str]:
    """(line, cells) of a CSV sheet (the line a record starts on), after its leading ``#``
    notes, whose text is returned too; the separator is the one that shows a ``row_id`` header."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise _Unreadable(f"not UTF-8 text (save it as 'CSV UTF-8'): byte {err.start}") from None
    lines = text.splitlines(keepends=True)
    skip = 0
    while skip < len(lines) and lines[skip].lstrip().startswith("#"):
        skip += 1
    notes_text = " ".join(lines[:skip])
    body = "".join(lines[skip:])
    first = body.splitlines()[0] if body.strip() else ""
    delimiter = next((d for d in (",", ";", "\t") if "row_id" in next(csv.reader([first], delimiter=d), [])), ",")
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter)
    records, line = [], skip + 1
    try:
        for cells in reader:
            records.append((line, cells))
            line = skip + reader.line_num + 1
    except csv.Error as err:
        raise _Unreadable(f"line {skip + reader.line_num}: malformed CSV ({err})") from None
    return records, notes_text
