"""A metric's scores as input: a CSV or JSON Lines file with one row per example.

A scores file is keyed by factgenie's example key (``dataset, split, setup_id, example_idx``)
and has one further column per metric, e.g.::

    dataset,split,setup_id,example_idx,my_metric,other
    d2t-football,test,llama3.3,0,0.81,12
    d2t-football,test,llama3.3,1,0.35,

or, as JSON Lines, ``{"dataset": "d2t-football", "split": "test", "setup_id": "llama3.3",
"example_idx": 0, "my_metric": 0.81, "other": 12}`` per line. Keys are matched to the corpus'
examples as the loader matches records to texts (python-slugify's ``slugify`` of dataset, split
and setup_id, the integer ``example_idx``: ``llama3-3`` finds ``llama3.3``).

Scores are oriented so that *higher = more faithful*: a metric named in ``lower_is_better``
(an error count, a hallucination probability) is negated on reading and its direction recorded
as ``"lower"`` (``"higher"`` otherwise), so every statistic reads the columns the same way.

Errors (the file cannot be used; raised together as one :class:`CorpusError`): an unreadable,
non-regular, non-UTF-8 or empty file, a malformed CSV row or JSON line, a missing or unnamed key
column, a column named twice, an empty key value, a ``example_idx`` that is no non-negative
integer, one example on two rows (both lines named), a score that is not a finite number (file,
line, column), no metric column, a ``lower_is_better`` name that is no metric column.

Warnings (kept in :attr:`Scores.problems`; ``Problem.kind`` below): a key not in the corpus
(the row is counted and kept out), a missing score (empty cell, ``NA``, ``NaN``, JSON ``null``
or an absent JSON field: NaN, the metric is computed on the examples it has), a metric with one
value on every example, a file that leaves examples of the corpus without a row (``unscored``:
they are left out of its statistics; e.g. 42 of 84).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from . import files
from .corpus import KEY, Corpus
from .keys import slug_key
from .problems import CorpusError, Problem, errors, ordered, warning

# the classes of the reader's warnings (``Problem.kind``)
UNKNOWN_KEY = "unknown-key"  # a row whose example is not in the corpus (kept out)
MISSING_SCORE = "missing-score"  # a row without a score for some metric (NaN)
CONSTANT = "constant"  # a metric with one value on every example it scores
UNSCORED = "unscored"  # the file leaves examples of the corpus without a row (they are left out)
LOW_COVERAGE = UNSCORED  # the former name of the class (it was raised below half the examples only)

HIGHER, LOWER = "higher", "lower"  # a metric's direction in the file (the frame is always higher = better)
JSONL_SUFFIXES = (".jsonl", ".ndjson")
MISSING_TEXTS = {"", "na", "nan", "null", "none", "n/a"}  # CSV cells read as a missing score
_INTEGER = re.compile(r"[+]?[0-9]+")


@dataclass
class Scores:
    """A scores file read against a corpus.

    ``frame``: the corpus' key columns (spelled as the corpus spells them, in the order of
    ``corpus.examples``), then one float column per metric (higher = more faithful), one row
    per example of the corpus the file scores. ``metrics``: the metric names in file order.
    ``directions``: metric -> ``"higher"`` or ``"lower"`` (the file's orientation; a
    ``"lower"`` metric is negated in ``frame``). ``problems``: the warnings."""

    frame: pd.DataFrame
    metrics: list[str]
    directions: dict[str, str]
    path: Path
    problems: list[Problem] = field(default_factory=list)


def _is_jsonl(path: Path, text: str) -> bool:
    if path.suffix.lower() in JSONL_SUFFIXES:
        return True
    if path.suffix.lower() == ".csv":
        return False
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def _csv_rows(text: str, rel: str, problems: list[Problem]) -> tuple[list[str], list[tuple[int, dict]]]:
    """The header and ``(line, {column: cell})`` per data row; malformed rows are problems."""
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), strict=True)
    header: list[str] | None = None
    rows: list[tuple[int, dict]] = []
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            problems.append(Problem(rel, start, "<csv>", f"malformed CSV: {err}"))
            if reader.line_num < start:  # nothing consumed: stop rather than loop
                break
            continue
        if not cells or (len(cells) == 1 and not cells[0].strip()):
            continue
        if header is None:
            header = [c.strip() for c in cells]
            for i, name in enumerate(header, start=1):
                if not name:
                    problems.append(Problem(rel, start, f"<column {i}>", "a column with no name"))
            dupes = sorted({n for n in header if n and header.count(n) > 1})
            for name in dupes:
                problems.append(Problem(rel, start, name, "column named twice"))
            continue
        if len(cells) != len(header):
            problems.append(
                Problem(rel, start, "<csv>", f"expected {len(header)} fields as in the header, got {len(cells)}")
            )
            continue
        rows.append((start, dict(zip(header, cells))))
    return header or [], rows


def _jsonl_rows(text: str, rel: str, problems: list[Problem]) -> tuple[list[str], list[tuple[int, dict]]]:
    """The columns (first appearance order) and ``(line, object)`` per good line."""
    columns: dict[str, None] = {}
    rows = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        obj, message = files.parse_json(line)
        if message:
            problems.append(Problem(rel, lineno, "<json>", message))
            continue
        if not isinstance(obj, dict):
            problems.append(Problem(rel, lineno, "<json>", f"expected an object, got {type(obj).__name__}"))
            continue
        columns.update(dict.fromkeys(obj))
        rows.append((lineno, obj))
    return list(columns), rows


def _key_text(row: dict, rel: str, line: int, column: str, problems: list[Problem]) -> str | None:
    if column not in row:
        problems.append(Problem(rel, line, column, "missing field"))
        return None
    value = row[column]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        problems.append(Problem(rel, line, column, f"expected a string, got {_show(value)}"))
        return None
    text = str(value).strip()
    if not text:
        problems.append(Problem(rel, line, column, "empty"))
        return None
    return text


def _index(row: dict, rel: str, line: int, problems: list[Problem]) -> int | None:
    """A non-negative integer from an int, an integral float (as pandas writes ints beside
    NaN) or a string of digits."""
    if "example_idx" not in row:
        problems.append(Problem(rel, line, "example_idx", "missing field"))
        return None
    value = row["example_idx"]
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        number = int(value.strip())
    elif isinstance(value, str) and re.fullmatch(r"[+]?[0-9]+\.0*", value.strip()):
        number = int(value.strip().split(".")[0])
    else:
        problems.append(Problem(rel, line, "example_idx", f"not an integer: {_show(value)}"))
        return None
    if number < 0:
        problems.append(Problem(rel, line, "example_idx", f"negative: {number}"))
        return None
    return number


def _score(value, rel: str, line: int, column: str, problems: list[Problem]) -> float | None:
    """A finite float, NaN for a missing score, or None with a problem."""
    if value is None or (isinstance(value, str) and value.strip().lower() in MISSING_TEXTS):
        return math.nan
    if isinstance(value, bool):
        problems.append(Problem(rel, line, column, f"not a number: {_show(value)}"))
        return None
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (TypeError, ValueError, OverflowError):
        problems.append(Problem(rel, line, column, f"not a number: {_show(value)}"))
        return None
    if not math.isfinite(number):
        problems.append(Problem(rel, line, column, f"not a finite number: {_show(value)}"))
        return None
    return number


def _show(value) -> str:
    return f"{json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value):.60}"


def _example_positions(corpus: Corpus) -> dict[tuple, int]:
    """Slugified key -> row position in ``corpus.examples``."""
    ex = corpus.examples
    return {slug_key(*k): i for i, k in enumerate(zip(ex["dataset"], ex["split"], ex["setup_id"], ex["example_idx"]))}


def read_scores(path: str | os.PathLike, corpus: Corpus, *, lower_is_better=()) -> Scores:
    """Read a scores file (CSV, or JSON Lines for ``.jsonl``/``.ndjson`` or a first ``{``) and
    match its rows to ``corpus``' examples. Raises :class:`CorpusError` with every error at once;
    see the module docstring for what is an error and what a warning."""
    path = Path(path)
    rel = str(path)
    problems: list[Problem] = []
    text = files.read_text(path, rel, problems)
    if text is None:
        raise CorpusError(problems, f"the scores file {rel}")
    if not text.strip():
        raise CorpusError([Problem(rel, 0, "", "is empty")], f"the scores file {rel}")
    jsonl = _is_jsonl(path, text)
    columns, rows = (_jsonl_rows if jsonl else _csv_rows)(text, rel, problems)
    if jsonl and not rows and errors(problems):  # no line is an object: its keys are unknown
        raise CorpusError(ordered(errors(problems)), f"the scores file {rel}")
    header_line = 0 if jsonl else 1
    if isinstance(lower_is_better, str):
        lower_is_better = (lower_is_better,)
    missing_keys = [k for k in KEY if k not in columns]
    for k in missing_keys:
        hint = ""
        if not jsonl and len(columns) == 1 and any(sep in columns[0] for sep in "\t;"):
            hint = " (the header has one column: scores files are comma-separated)"
        problems.append(Problem(rel, header_line, k, f"missing key column{hint}"))
    metrics = [c for c in columns if c not in KEY and c]
    if columns and not metrics:
        problems.append(Problem(rel, header_line, "", "no metric column beside the key columns"))
    if not rows and not errors(problems):
        problems.append(Problem(rel, 0, "", "holds no scores (no row after the header)"))
    for name in dict.fromkeys(lower_is_better):
        if name not in metrics:
            problems.append(
                Problem(rel, 0, str(name), f"named in lower_is_better but no metric column (metrics: {metrics})")
            )
    if missing_keys:  # rows cannot be keyed: report the file-level errors only
        raise CorpusError(ordered(errors(problems)), f"the scores file {rel}")

    positions = _example_positions(corpus)
    first_line: dict[tuple, int] = {}
    kept: list[tuple[int, int, list[float]]] = []  # (line, example position, scores)
    unknown: list[tuple[int, tuple]] = []
    for line, row in rows:
        parts = [_key_text(row, rel, line, k, problems) for k in KEY[:3]]
        idx = _index(row, rel, line, problems)
        values = [_score(row.get(m), rel, line, m, problems) for m in metrics]
        if any(p is None for p in parts) or idx is None:
            continue
        slug = slug_key(*parts, idx)
        if slug in first_line:
            problems.append(
                Problem(
                    rel,
                    line,
                    "example_idx",
                    f"duplicate example {(*parts, idx)}: first on line {first_line[slug]}",
                )
            )
            continue
        first_line[slug] = line
        if any(v is None for v in values):
            continue
        if slug not in positions:
            unknown.append((line, (*parts, idx)))
            continue
        kept.append((line, positions[slug], values))
    if errors(problems):
        raise CorpusError(ordered(errors(problems)), f"the scores file {rel}")

    warnings = [
        warning(rel, line, "example_idx", f"example {key} is not in the corpus: left out", UNKNOWN_KEY)
        for line, key in unknown
    ]
    for line, _, values in kept:
        absent = [m for m, v in zip(metrics, values) if math.isnan(v)]
        if absent:
            warning_text = f"no score for {', '.join(absent)}: the metric is computed on the examples it has"
            warnings.append(warning(rel, line, absent[0], warning_text, MISSING_SCORE))

    kept.sort(key=lambda r: r[1])
    frame = corpus.examples[KEY].iloc[[p for _, p, _ in kept]].reset_index(drop=True)
    table = np.array([v for _, _, v in kept], dtype=float).reshape(len(kept), len(metrics))
    directions = {m: LOWER if m in lower_is_better else HIGHER for m in metrics}
    for j, m in enumerate(metrics):
        frame[m] = 0.0 - table[:, j] if directions[m] == LOWER else table[:, j]
        present = frame[m].dropna()
        if present.nunique() <= 1:
            what = "no score at all" if present.empty else f"the same score ({present.iloc[0]:g}) on every example"
            warnings.append(warning(rel, header_line, m, f"{what}: no statistic can rank examples by it", CONSTANT))
    n_examples = len(corpus.examples)
    if len(kept) < n_examples:
        scored = {p for _, p, _ in kept}
        first = next(i for i in range(n_examples) if i not in scored)
        example = tuple(
            v.item() if hasattr(v, "item") else v for v in corpus.examples[KEY].iloc[first]
        )  # not np.int64(0)
        warnings.append(
            warning(
                rel,
                0,
                "",
                f"scores {len(kept):,} of the corpus' {n_examples:,} examples: the other {n_examples - len(kept):,} "
                f"(the first: {example}) are left out of every statistic of its metrics",
                UNSCORED,
            )
        )
    return Scores(frame, metrics, directions, path, ordered(warnings))


def write_scores(frame: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write a scores frame (the key columns, then metric columns) as CSV, or as JSON Lines when
    ``path`` ends in ``.jsonl``/``.ndjson``; NaN becomes an empty cell or ``null``. Floats are
    written exactly (shortest round-trip repr), so :func:`read_scores` reads back the same
    numbers. The file is replaced atomically."""
    path = Path(path)
    missing = [k for k in KEY if k not in frame.columns]
    if missing:
        raise ValueError(f"a scores frame needs the key columns {KEY}; missing: {missing}")
    metrics = [c for c in frame.columns if c not in KEY]
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        if path.suffix.lower() in JSONL_SUFFIXES:
            for row in frame[KEY + metrics].itertuples(index=False):
                obj = {
                    **{k: (int(v) if k == "example_idx" else str(v)) for k, v in zip(KEY, row[:4])},
                    **{m: (None if pd.isna(v) else float(v)) for m, v in zip(metrics, row[4:])},
                }
                fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
        else:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(KEY + metrics)
            for row in frame[KEY + metrics].itertuples(index=False):
                writer.writerow([*row[:3], int(row[3]), *("" if pd.isna(v) else repr(float(v)) for v in row[4:])])
    tmp.replace(path)
    return path
