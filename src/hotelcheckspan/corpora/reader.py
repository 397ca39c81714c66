"""Read a corpus (or one campaign file) into tidy frames, reporting every problem at once.

Severities (see ``book/methods.md``):

errors
    the data cannot be read or cannot be computed with: an unreadable, non-UTF-8 or non-regular
    file, malformed JSON or YAML, a wrong type or missing field (no integer start, no text), a
    span type outside the campaign's categories, an impression outside 1-7, an
    ``annotator_group`` outside ``annotators_per_example``, a malformed config value, a missing
    or empty file the corpus needs. :func:`load` raises :class:`CorpusError` listing them all.
warnings
    quirks of real exports that factgenie computes with, kept as factgenie keeps them, each
    with its class (``Problem.kind``): a span's text at its start up to letter ``case``,
    ``shifted`` one or two characters, ``misplaced`` elsewhere in the text, ``not-found``
    anywhere, or running ``past-end``; a record whose example has ``no-text``; an ``overlap``
    the config forbids; a ``duplicate-record`` of a group and example; a ``duplicate-span``.
    Metrics count every span by ``start`` and ``len(text)``; the spans frame's ``placed`` and
    the records frame's ``has_text`` tell text-dependent analyses what to leave out.
    :func:`load` returns the corpus with them in ``Corpus.warnings``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
from pydantic import ValidationError

from . import files, layouts, mqm, words
from . import problems as P
from .corpus import KEY, RECORD_COLUMNS, SPAN_COLUMNS, Corpus
from .keys import closest
from .layouts import Campaign, Texts
from .problems import WARNING, CorpusError, Problem, errors, ordered, warnings
from .schema import OptionIn, RecordIn, RecordMetadataIn

IMPRESSION_RANGE = (1, 7)
NO_ERROR_LABELS = (
    "I did not find any errors in the summary",
    "There were no errors in the summary",
)


def _impression(options: list[OptionIn], rel: str, lineno: int, problems: list[Problem]):
    for i, opt in enumerate(options):
        if "impression" not in opt.label.lower():
            continue
        try:
            value = int(str(opt.value))
        except ValueError:
            problems.append(
                Problem(rel, lineno, f"options.{i}.value", f"impression {opt.value!r} is not a whole number")
            )
            return pd.NA
        lo, hi = IMPRESSION_RANGE
        if not lo <= value <= hi:
            problems.append(Problem(rel, lineno, f"options.{i}.value", f"impression {value} outside {lo}-{hi}"))
            return pd.NA
        return value
    return pd.NA


def _no_errors(flags) -> bool | type(pd.NA):
    for flag in flags:
        label = flag.label.lower()
        if flag.label in NO_ERROR_LABELS or "no error" in label or "any errors" in label:
            return flag.value
    return pd.NA


def _place(span_text: str, start: int, text: str, lowered: str) -> tuple[str, str]:
    """Where ``span_text`` is in ``text`` relative to ``start``: ``("", "")`` when exactly
    there, else a warning class and what to say. ``lowered`` is ``text.lower()`` (computed once
    per record). factgenie matches a model's span text lower-cased and stripped, at its first
    occurrence, and keeps the model's text: hence case and one-or-two-character shifts."""
    end = start + len(span_text)
    if text[start:end] == span_text:
        return "", ""
    if end > len(text):
        return P.PAST_END, f"span [{start}, {end}) runs past the end of the text ({len(text)} characters)"
    want = span_text.lower()
    if text[start:end].lower() == want:
        return P.CASE, f"{span_text!r:.80} differs from the text at {start} ({text[start:end]!r:.80}) only in case"
    for shift in (-1, 1, -2, 2):
        at = start + shift
        if at >= 0 and text[at : at + len(span_text)].lower() == want:
            return P.SHIFTED, f"{span_text!r:.80} is at {at}, not at its start {start}"
    found = lowered.find(want.strip())
    if found >= 0:
        return P.MISPLACED, (
            f"{span_text!r:.80} is not at {start} ({text[start:end]!r:.80}) but elsewhere in the text (at {found})"
        )
    return P.NOT_FOUND, f"{span_text!r:.80} is nowhere in the text (at {start} it holds {text[start:end]!r:.80})"


_TEXT_FIELD = {P.CASE: "text", P.SHIFTED: "start", P.MISPLACED: "text", P.NOT_FOUND: "text", P.PAST_END: "start"}
_COUNTED = "; counted by start and length, as factgenie counts it"


def _check_spans(
    rec: RecordIn, camp: Campaign, text: str | None, rel: str, lineno: int, problems: list[Problem]
) -> list[bool]:
    """Errors of each span (type) and warnings (text not at its offsets, duplicates, forbidden
    overlaps). Returns, per span, whether its text is placed: found at its start exactly, up to
    case, or within two characters (False for every span of a record without text)."""
    n_cat = len(camp.categories)
    placed = []
    lowered = text.lower() if text is not None else ""
    for i, span in enumerate(rec.annotations):
        where = f"annotations.{i}"
        if not 0 <= span.type < n_cat:
            problems.append(
                Problem(
                    rel,
                    lineno,
                    f"{where}.type",
                    f"type {span.type} outside the campaign's {n_cat} categories {camp.categories}",
                )
            )
        if text is None:
            placed.append(False)
            continue
        kind, message = _place(span.text, span.start, text, lowered)
        placed.append(kind not in P.UNPLACED)
        if kind:
            problems.append(P.warning(rel, lineno, f"{where}.{_TEXT_FIELD[kind]}", message + _COUNTED, kind))
    seen: dict[tuple, int] = {}
    intervals = []
    for i, span in enumerate(rec.annotations):
        ident = (span.start, span.start + len(span.text), span.type)
        if ident in seen:
            problems.append(
                Problem(
                    rel,
                    lineno,
                    f"annotations.{i}",
                    f"duplicate of annotations.{seen[ident]} (same text, offsets and type); "
                    "kept, as factgenie keeps it",
                    WARNING,
                    P.DUPLICATE_SPAN,
                )
            )
            continue
        seen[ident] = i
        intervals.append((span.start, span.start + len(span.text), i))
    if camp.overlap_allowed:
        return placed
    intervals.sort()
    reach, reach_i = -1, None
    for s, e, i in intervals:
        if s < reach:
            other = rec.annotations[reach_i]
            o_s, o_e = other.start, other.start + len(other.text)
            what = (
                f"marks the same text as annotations.{reach_i} with another type"
                if (s, e) == (o_s, o_e)
                else f"span [{s}, {e}) overlaps annotations.{reach_i} [{o_s}, {o_e})"
            )
            problems.append(
                Problem(
                    rel,
                    lineno,
                    f"annotations.{i}.start",
                    f"{what} although {_overlap_rule(camp)}; kept, as factgenie keeps it",
                    WARNING,
                    P.OVERLAP,
                )
            )
        if e > reach:
            reach, reach_i = e, i
    return placed


def _overlap_rule(camp: Campaign) -> str:
    """Why an overlap is reported: the config's own setting, or its absence read as factgenie reads it."""
    if "annotation_overlap_allowed" in camp.config:
        return "the campaign's config forbids overlaps (annotation_overlap_allowed: false)"
    return "the campaign's config does not allow overlaps (no annotation_overlap_allowed: factgenie reads it as false)"


def _read_records(
    camp: Campaign,
    path: Path,
    rel: str,
    texts: Texts | None,
    seen: dict,
    problems: list[Problem],
    records: Rows,
    spans: Rows,
) -> None:
    """Append the records and spans of one annotation file; problems go to ``problems``."""
    max_group = camp.config.get("annotators_per_example")
    file_start = len(problems)
    elsewhere: set[int] = set()  # lines of records whose spans sit in another example's text
    for lineno, rec in files.iter_jsonl(path, RecordIn, rel, problems):
        n_before = len(problems)  # errors of this record are among problems[n_before:]
        try:
            meta = RecordMetadataIn.model_validate(rec.metadata)
        except ValidationError as err:
            problems.extend(files.validation_problems(err, rel, lineno, "metadata."))
            meta = RecordMetadataIn()
        group = rec.annotator_group if rec.annotator_group is not None else meta.annotator_group
        group = group if group is not None else 0
        if max_group is not None and group >= max_group:
            problems.append(
                Problem(
                    rel,
                    lineno,
                    "annotator_group",
                    f"group {group} outside 0-{max_group - 1} (the config's annotators_per_example is {max_group})",
                )
            )
        annotator = rec.annotator_id or meta.annotator_id or f"{camp.name}-group{group}"
        key = (rec.dataset, rec.split, rec.setup_id, rec.example_idx)
        slug = layouts.slug_key(*key)
        text = None
        if texts is not None:
            found = texts.by_key.get(slug)
            if found is None:
                problems.append(
                    P.warning(
                        rel,
                        lineno,
                        "example_idx",
                        f"example {key} has no text in {texts.source}; the record counts, "
                        "analyses of span words and places leave it out",
                        P.NO_TEXT,
                    )
                )
            else:
                key, text = found
        dup = (camp.name, group, slug)
        if dup in seen:
            problems.append(
                Problem(
                    rel,
                    lineno,
                    "annotator_group",
                    f"a second record of group {group} for {key} "
                    f"(first at {seen[dup]}); both kept, as factgenie keeps them",
                    WARNING,
                    P.DUPLICATE_RECORD,
                )
            )
        else:
            seen[dup] = f"{rel}:{lineno}"
        impression = _impression(rec.options, rel, lineno, problems)
        n_spans_before = len(problems)
        placed = _check_spans(rec, camp, text, rel, lineno, problems)
        if text is not None and placed and not any(placed):
            moved = _elsewhere(rec, slug, texts)
            if moved is not None:  # one cause instead of a symptom per span
                kind, where = moved
                problems[n_spans_before:] = [p for p in problems[n_spans_before:] if p.kind not in P.UNPLACED]
                problems.append(P.warning(rel, lineno, "example_idx", where, kind))
                elsewhere.add(lineno)
        if any(p.is_error for p in problems[n_before:]):
            continue
        stage = meta.stage if meta.stage is not None else camp.config.get("stage")
        who = (
            len(records),
            camp.kind,
            camp.name,
            stage if stage is not None else pd.NA,
            records.shared(annotator),
            group,
            *(records.shared(k) for k in key[:3]),
            key[3],
        )
        records.add(
            *who,
            impression,
            _no_errors(rec.flags),
            len(rec.annotations),
            pd.NA if texts is None else text is not None,
            rel,
            lineno,
        )
        categories = camp.categories
        for order, s in enumerate(rec.annotations):
            spans.add(
                *who,
                order,
                s.start,
                s.start + len(s.text),
                categories[s.type],
                s.type,
                s.text,
                s.reason or "",
                pd.NA if texts is None else placed[order],
            )
    if elsewhere:  # a second record "of the same example" is a symptom of the same cause
        firsts = {f"{rel}:{line}" for line in elsewhere}
        problems[file_start:] = [
            p
            for p in problems[file_start:]
            if not (
                p.kind == P.DUPLICATE_RECORD
                and (p.line in elsewhere or any(f"(first at {f})" in p.message for f in firsts))
            )
        ]


MAX_CANDIDATES = 2000  # other texts of one dataset, split and system searched for a record's spans


def _text_groups(texts: Texts) -> dict[tuple, list[tuple]]:
    """The slugified keys of ``texts`` by (dataset, split, setup_id), computed once per Texts."""
    groups = texts.__dict__.get("_groups")
    if groups is None:
        groups = {}
        for slug in texts.by_key:
            groups.setdefault(slug[:3], []).append(slug)
        texts.__dict__["_groups"] = groups
    return groups


def _elsewhere(rec: RecordIn, own: tuple, texts: Texts) -> tuple[str, str] | None:
    """For a record none of whose spans is in its own example's text: the warning class and
    message when every span is at its start (exactly, up to case, or a character or two away) in
    the text of the example its ``orig_example_idx`` names (``orig-example``), or of another
    example of the same dataset, split and system (``other-example``); None otherwise."""
    spans = [(s.start, s.text) for s in rec.annotations]

    def fits(slug) -> bool:
        text = texts.by_key[slug][1]
        low = text.lower()
        return all(_place(t, st, text, low)[0] not in P.UNPLACED for st, t in spans)

    n = len(spans)
    tail = f"; counted on its own example_idx {own[3]}, as factgenie counts it"
    orig = (rec.model_extra or {}).get("orig_example_idx")
    if isinstance(orig, int) and not isinstance(orig, bool):
        cand = texts.by_orig.get((*own[:3], orig))
        if cand is not None and cand != own and fits(cand):
            return P.ORIG_EXAMPLE, (
                f"none of its {n} spans is in the text of its example {own[3]}, all are in the text of example "
                f"{cand[3]}, whose orig_example_idx ({orig}) is the record's: it sits on the id of another "
                f"example{tail}"
            )
    for cand in _text_groups(texts).get(own[:3], [])[:MAX_CANDIDATES]:
        if cand != own and fits(cand):
            return P.OTHER_EXAMPLE, (
                f"none of its {n} spans is in the text of its example {own[3]}, all are in the text of example "
                f"{cand[3]}: it sits on the id of another example{tail}"
            )
    return None


READ_SPAN_COLUMNS = [c for c in SPAN_COLUMNS if c not in ("words", "severity", "category")]  # what a reader adds


class Rows:
    """The rows of a frame as they are read, one list per column (a dict per row would take
    several times the memory of the frame it becomes), with repeated text values kept once."""

    BLOCK = 1 << 16  # rows kept as tuples before they are moved into the columns, a block at a time

    def __init__(self, columns: list[str]):
        self.columns = list(columns)
        self.values: list[list] = [[] for _ in columns]
        self._block: list[tuple] = []
        self._strings: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self.values[0]) + len(self._block)

    def add(self, *row) -> None:
        """One row, every column's value in order."""
        if len(row) != len(self.columns):
            raise ValueError(f"a row of {len(row)} values for {len(self.columns)} columns")
        self._block.append(row)
        if len(self._block) >= self.BLOCK:
            self._flush()

    def _flush(self) -> None:
        """The block's rows moved into the columns (one transposition in C instead of a Python
        loop over the columns of every row)."""
        if self._block:
            for values, column in zip(self.values, zip(*self._block)):
                values.extend(column)
            self._block = []

    def add_dict(self, row: dict) -> None:
        self.add(*(row.get(c) for c in self.columns))

    def columns_read(self) -> list[list]:
        """Every row read so far, one list per column."""
        self._flush()
        return self.values

    def extend_columns(self, columns: list[list], record_id: int = 0) -> None:
        """Rows read apart (:meth:`columns_read` of the same columns), after these; ``record_id``
        added to their record ids, which were counted from 0."""
        self._flush()
        for name, values, more in zip(self.columns, self.values, columns):
            values.extend([v + record_id for v in more] if name == "record_id" and record_id else more)

    def shared(self, text):
        """``text``, as the one object every row with this value holds."""
        return self._strings.setdefault(text, text) if isinstance(text, str) else text

    def frame(self, columns: list[str] | None = None) -> pd.DataFrame:
        self._flush()
        names = columns or self.columns
        return pd.DataFrame({c: self.values[self.columns.index(c)] for c in names}, columns=names)


PARALLEL_BYTES = 32 << 20  # annotation files larger than this in all are read one campaign per core


def _read_campaign(camp: Campaign, root: Path, texts: Texts | None, records: Rows, spans: Rows) -> list[Problem]:
    """Append the records and spans of one campaign's files to ``records`` and ``spans``; returns
    their problems. A record is a duplicate only of one of its own campaign, so campaigns can be
    read apart."""
    problems: list[Problem] = []
    seen: dict = {}
    for path in camp.files:
        rel = layouts._rel(path, root)
        if _blank(path):  # a campaign whose file holds nothing: listed with 0 records, as a config-only one
            problems.append(
                P.warning(
                    rel,
                    0,
                    "",
                    f"is empty: campaign {camp.name} is listed with 0 records from this file and computes nothing "
                    "with it",
                    P.EMPTY_FILE,
                )
            )
            continue
        _read_records(camp, path, rel, texts, seen, problems, records, spans)
    return problems


_FORKED: tuple = ()  # (campaigns, root, texts) of the read in progress, inherited by its forked workers


def _read_forked(i: int) -> tuple[list[list], list[list], list[Problem]]:
    """Campaign ``i`` of :data:`_FORKED`, in a worker: its rows' columns (record ids from 0) and problems."""
    records, spans = Rows(RECORD_COLUMNS), Rows(READ_SPAN_COLUMNS)
    with files.no_cycle_collection():
        found = _read_campaign(_FORKED[0][i], *_FORKED[1:], records, spans)
    return records.columns_read(), spans.columns_read(), found


def _may_fork() -> bool:
    """Whether workers may be forked from this process: on Linux, from a process of one
    thread (a thread holding a lock at the fork would leave it held in the worker), as the command
    line is; a notebook's kernel, which runs threads of its own, reads one campaign at a time."""
    import multiprocessing
    import threading

    linux = sys.platform.startswith("linux")  # macOS's system libraries are not safe to fork
    return linux and "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


def _read_campaigns(
    campaigns: list[Campaign], root: Path, texts: Texts | None, problems: list[Problem]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The records and spans frames of ``campaigns``, in their order; problems go to ``problems``.

    Where their files pass :data:`PARALLEL_BYTES` in all (ten times the d2t test split does) and
    :func:`_may_fork`, the campaigns are read side by side, one per core, in processes forked
    from this one (the texts inherited at the fork, not sent), the most lines first. Each worker returns
    its campaign's rows, which are joined in the campaigns' order, the record ids numbered on, into
    the frames one reader makes of them: what is read, and every problem, is the same either way."""
    global _FORKED
    records, spans = Rows(RECORD_COLUMNS), Rows(READ_SPAN_COLUMNS)
    size = sum(_size(f) for c in campaigns for f in c.files)
    workers = min(len(campaigns), files.cores())
    if not (workers > 1 and size >= PARALLEL_BYTES and _may_fork()):
        for camp in campaigns:
            problems += _read_campaign(camp, root, texts, records, spans)
        return _frames(records, spans)
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    # a campaign's work is about its records: the most lines first (estimated from its first MiB)
    lines = [sum(_lines_estimate(f) for f in c.files) for c in campaigns]
    order = sorted(range(len(campaigns)), key=lambda i: -lines[i])
    _FORKED = (campaigns, root, texts)
    try:
        with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
            done = dict(zip(order, pool.map(_read_forked, order)))
    finally:
        _FORKED = ()
    for i in range(len(campaigns)):
        record_columns, span_columns, found = done.pop(i)
        offset = len(records)
        records.extend_columns(record_columns, record_id=offset)
        spans.extend_columns(span_columns, record_id=offset)
        problems += found
    return _frames(records, spans)


def _size(path: Path) -> int:
    """Bytes of ``path``; 0 where it cannot be read (the reader reports it)."""
    try:
        return os.path.getsize(path) if files.is_regular(path) else 0
    except OSError:
        return 0


def _lines_estimate(path: Path) -> float:
    """The lines of ``path``, estimated from those of its first MiB (0 where it cannot be read:
    the reader reports it)."""
    size = _size(path)  # 0 for what is not a regular file, which is never opened
    if not size:
        return 0.0
    try:
        with path.open("rb") as fh:
            head = fh.read(1 << 20)
    except OSError:
        return 0.0
    return size * (head.count(b"\n") + 1) / max(len(head), 1)


def _frames(records: Rows | list[dict], spans: Rows | list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The records and spans frames of what a reader read (``Rows``, or one dict per row)."""
    extra = None
    if isinstance(spans, list):  # one dict per row (the MQM reader, small files): severity and category given
        extra = pd.DataFrame(spans, columns=["severity", "category"]) if spans and "severity" in spans[0] else None
        rows = Rows(READ_SPAN_COLUMNS)
        for row in spans:
            rows.add_dict(row)
        spans = rows
    if isinstance(records, list):
        rows = Rows(RECORD_COLUMNS)
        for row in records:
            rows.add_dict(row)
        records = rows
    records_df = records.frame(RECORD_COLUMNS)
    records_df["impression"] = records_df["impression"].astype("Int64")
    records_df["no_errors"] = records_df["no_errors"].astype("boolean")
    records_df["has_text"] = records_df["has_text"].astype("boolean")
    records_df["stage"] = records_df["stage"].astype("Int64")
    for col in ("record_id", "annotator_group", "n_spans", "line"):
        records_df[col] = records_df[col].astype("int64")
    spans_df = spans.frame(READ_SPAN_COLUMNS)
    spans_df["stage"] = spans_df["stage"].astype("Int64")
    spans_df["placed"] = spans_df["placed"].astype("boolean")
    for col in ("record_id", "annotator_group", "order", "start", "end", "type_idx"):
        spans_df[col] = spans_df[col].astype("int64")
    spans_df["words"] = words.counts(spans_df["text"])
    spans_df["severity"] = (extra["severity"] if extra is not None else pd.Series(pd.NA, index=spans_df.index)).astype(
        "category"
    )
    spans_df["category"] = (extra["category"] if extra is not None else spans_df["type"]).astype("category")
    return records_df, spans_df


def _same_index_type(*frames: pd.DataFrame) -> None:
    """``example_idx`` as int64 in every frame, or as Python integers in every frame when one
    does not fit in 64 bits (frames are joined on it)."""
    fits = all(layouts.fits_int64(f["example_idx"]) for f in frames)
    for f in frames:
        f["example_idx"] = f["example_idx"].astype("int64" if fits else object)


def _texts_read(texts: Texts, found: list[Problem]) -> bool:
    """Whether span texts can be checked against ``texts``: there are texts, or there is no
    error reading them. When none could be read (an empty or unreadable ``inputs.jsonl``), the
    error says so once, instead of a ``no-text`` warning for every record."""
    return bool(texts.source) and (bool(texts.by_key) or not errors(found))


def _to_read(campaigns: list[Campaign], root: Path, task: str | None, named: list[str]) -> list[Campaign]:
    """The campaigns whose files a selection needs (all of them when it cannot tell before
    reading: no selection, or a task that is a dataset prefix rather than a folder)."""
    out = campaigns
    if task is not None and any(c.task == task for c in campaigns):
        out = [c for c in out if c.task == task or c.folder.relative_to(root).parts[:1] == (layouts.ADDED,)]
    if named:
        by_name = {c.name: c for c in campaigns}
        folders = {c.folder.resolve(): c.name for c in campaigns}
        wanted = set()
        for item in named:
            if item in by_name:
                wanted.add(item)
                continue
            for cand in (Path(item), root / item):  # a folder, or an annotation file in it
                for folder in (cand, cand.parent, cand.parent.parent):
                    hit = folders.get(folder.resolve()) if layouts._exists(folder) else None
                    if hit:
                        wanted.add(hit)
        kinds = {by_name[n].kind for n in wanted if n in by_name}
        out = [c for c in out if c.kind not in kinds or c.name in wanted]
    return out


def _blank(path: Path) -> bool:
    """Whether a regular annotation file holds nothing but white space (a 0-byte file among them)."""
    try:
        if not files.is_regular(path):
            return False
        size = path.stat().st_size
        if size > 4096:
            return False
        return not path.read_bytes().strip()
    except OSError:
        return False


def _as_outside(problem: Problem, task: str | None) -> Problem:
    """A problem of a campaign outside the selection, as a warning that names it: it never blocks
    the selected part (``validate`` the whole corpus to see it as it is)."""
    if not problem.is_error:
        return problem
    return replace(
        problem,
        severity=WARNING,
        kind=P.OUTSIDE,
        message=f"{problem.message} (outside the selection --task {task}: it does not block it)",
    )


def _check_selection(found: list[Campaign], texts: Texts, root: Path, task: str | None, named: list[str]) -> None:
    """An unknown task or campaign, before any annotation file is read: ``ValueError`` in one line
    with the closest names (a dataset prefix is a task too: a dataset of the texts or a campaign
    folder's name starts with it)."""
    if task is not None:
        tasks = sorted({c.task for c in found if c.task})
        datasets = sorted(set(texts.examples["dataset"].map(layouts._slug)))
        prefix = layouts._slug(task)
        is_prefix = any(d == prefix or d.startswith(prefix + "-") for d in datasets)
        if task not in tasks and not is_prefix and tasks:
            near = closest(task, tasks + datasets)
            listed = f"tasks: {', '.join(tasks)}" + (
                f"; datasets: {', '.join(datasets[:12])}{', ...' if len(datasets) > 12 else ''}" if datasets else ""
            )
            raise ValueError(f"no task {task!r} in {root}{near[:-1] + '; ' if near else ' ('}{listed})")
    if named:
        names = [c.name for c in found]
        folders = {c.folder.resolve() for c in found}
        for item in named:
            if item in names:
                continue
            cands = [Path(item), root / item]
            if any(f.resolve() in folders for c in cands for f in (c, c.parent, c.parent.parent) if layouts._exists(f)):
                continue
            raise ValueError(f"no campaign {item!r} in {root}{closest(item, names)}")


def _outside_selection(problem: Problem, root: Path, task: str | None, tasks: set[str]) -> bool:
    """Whether ``problem`` is in a campaign folder of another task than the selected one."""
    if task is None or task not in tasks:
        return False
    parts = Path(problem.file).parts
    if parts[:1] not in (("annotations",), ("campaigns",)):
        return False
    rest = parts[1:]
    if rest[:1] and rest[0] in layouts.KIND_FOLDERS and len(rest) > 1:
        rest = rest[1:]
    return bool(rest) and rest[0] in tasks and rest[0] != task


def _read_mqm(root: Path, task, split, campaigns, span_type: str) -> tuple[Corpus, list[Problem]]:
    """An MQM file or folder of them (:mod:`~hotelcheckspan.corpora.mqm`) as a corpus, then the selection."""
    problems: list[Problem] = []
    got = mqm.read(root, problems, span_type)
    records_df, spans_df = _frames(got.records, got.spans)
    _same_index_type(got.examples, records_df, spans_df)
    names = list(got.campaigns)
    corpus = Corpus(
        root,
        got.examples,
        records_df,
        spans_df,
        {n: c["config"] for n, c in got.campaigns.items()},
        {n: c["categories"] for n, c in got.campaigns.items()},
        campaign_folders={n: got.campaigns[n]["file"] + ("#hotw" if n.endswith("-hotw") else "") for n in names},
        campaign_kinds={n: got.campaigns[n]["kind"] for n in names},
        campaign_tasks=dict.fromkeys(names, ""),
    )
    if not names and not errors(problems):
        problems.append(Problem(str(root), 0, "", "no MQM rows found (a *.tsv file of the Marot viewer's format)"))
    if errors(problems):
        return corpus, ordered(problems)
    corpus.warnings = warnings(problems)
    if task is not None or split or campaigns:
        corpus = corpus.select(task=task, split=split, campaigns=campaigns)
    return corpus, ordered(corpus.warnings)


def read_corpus(
    root: Path | str | None = None, *, task: str | None = None, split=None, campaigns=None, span_type: str = "severity"
) -> tuple[Corpus, list[Problem]]:
    """Read the corpus at ``root`` (default: ``paths.corpus_dir()``): the corpus (records with
    errors left out) and every problem, errors and warnings, in file and line order.

    ``task``, ``split`` and ``campaigns`` select (:mod:`~hotelcheckspan.corpora.selection`): only
    the files of the selected campaigns are read, and problems of other tasks' campaign folders
    are warnings naming them; campaign names are given on the whole corpus, as without a
    selection. An MQM file (``*.tsv``) or a folder of them is read by
    :mod:`~hotelcheckspan.corpora.mqm`, its span types chosen by ``span_type`` (severity,
    category or both)."""
    with files.no_cycle_collection():
        return _read_corpus(root, task, split, campaigns, span_type)


def _read_corpus(root, task, split, campaigns, span_type) -> tuple[Corpus, list[Problem]]:
    from .. import paths  # the package's locations; imported here to keep corpora importable alone
    from .keys import as_list as _as_list

    asked = _as_list(campaigns)
    root = Path(root) if root is not None else paths.corpus_dir()
    problems: list[Problem] = []
    empty = Corpus(root, layouts._finish([]), *_frames([], []))
    if not layouts._exists(root):
        return empty, [Problem(str(root), 0, "", "no corpus folder here")]
    if mqm.is_mqm(root):
        return _read_mqm(root, task, split, asked, span_type)
    if not root.is_dir():
        return empty, [Problem(str(root), 0, "", "is not a folder (nor an MQM file, *.tsv)")]
    n_before = len(problems)
    texts = layouts.read_texts(root, problems)
    checked = _texts_read(texts, problems[n_before:])
    found = layouts.discover(root, problems)
    if not found and not errors(problems):
        problems.append(
            Problem(
                str(root),
                0,
                "",
                "no campaign (a folder with config.yaml or metadata.json and *.jsonl annotation files) found",
            )
        )
    _check_selection(found, texts, root, task, asked)
    reading = _to_read(found, root, task, asked)
    records_df, spans_df = _read_campaigns(reading, root, texts if checked else None, problems)
    _same_index_type(texts.examples, records_df, spans_df)
    corpus = Corpus(
        root,
        texts.examples,
        records_df,
        spans_df,
        {c.name: c.config for c in found},
        {c.name: c.categories for c in found},
        campaign_folders={c.name: c.folder.relative_to(root).as_posix() for c in found},
        campaign_kinds={c.name: c.kind for c in found},
        campaign_tasks={c.name: c.task for c in found},
    )
    tasks = {c.task for c in found if c.task}
    problems = [_as_outside(p, task) if _outside_selection(p, root, task, tasks) else p for p in problems]
    if task is not None or _as_list(split) or asked:
        if errors(problems):  # the selection cannot be made on a corpus that cannot be read
            return corpus, ordered(problems)
        corpus.warnings = warnings(problems)
        corpus = corpus.select(task=task, split=split, campaigns=asked)
        problems = errors(problems) + corpus.warnings
    return corpus, ordered(problems)


def load(
    path: Path | str | None = None, *, task: str | None = None, split=None, campaigns=None, span_type: str = "severity"
) -> Corpus:
    """Load a corpus (default: ``paths.corpus_dir()``, the bundled stand-in unless
    ``$HOTELCHECKSPAN_DATA`` says otherwise), optionally one part of it.

    ``task`` (a task folder such as ``"d2t-eval"``, or a dataset prefix), ``split`` (a split or
    a list of them) and ``campaigns`` (names or folders) select what is read and kept, as
    :meth:`Corpus.select` selects (see :mod:`hotelcheckspan.corpora.selection`); an export that
    holds several tasks with different categories is loaded one task at a time.

    Raises :class:`CorpusError` listing every error; otherwise returns the corpus with every
    warning in ``corpus.warnings`` (the data they concern is kept, as factgenie keeps it).
    ``ValueError`` names what there is when the selection names an unknown task, split or
    campaign. ``path`` may be WMT's MQM TSV (a file or a folder of them:
    :mod:`~hotelcheckspan.corpora.mqm`), whose span types ``span_type`` chooses: the errors'
    severity (default), category, or both ("Major/Accuracy/Mistranslation").
    """
    corpus, problems = read_corpus(path, task=task, split=split, campaigns=campaigns, span_type=span_type)
    if errors(problems):
        raise CorpusError(errors(problems), str(corpus.root))
    corpus.warnings = warnings(problems)
    return corpus


def validate(path: Path | str) -> list[Problem]:
    """Every problem (errors and warnings) of the corpus at ``path``, in file and line order."""
    return read_corpus(path)[1]


# --- one campaign file ----------------------------------------------------------------------


@dataclass
class Annotations:
    """One campaign's annotation file read with its config (:func:`read_annotations`).

    ``records`` and ``spans`` are frames as in :class:`Corpus`; ``categories`` the campaign's
    span categories (``type 0``, ``type 1``, ... when ``categories_from_types``: no config was
    beside the file); ``problems`` every error and warning of the file (records with errors are
    left out of the frames).
    """

    path: Path
    campaign: str
    kind: str
    records: pd.DataFrame
    spans: pd.DataFrame
    categories: list[str]
    problems: list[Problem] = field(default_factory=list)
    categories_from_types: bool = False

    @property
    def errors(self) -> list[Problem]:
        return errors(self.problems)

    @property
    def warnings(self) -> list[Problem]:
        return warnings(self.problems)


def corpus_root(path: Path) -> Path | None:
    """The corpus folder an annotation file belongs to (the parent of its ``annotations`` or
    ``campaigns`` folder) when that folder has texts, else None."""
    for parent in path.parents:
        if parent.name in ("annotations", "campaigns"):
            root = parent.parent
            if layouts._exists(root / "inputs.jsonl") or layouts._exists(root / "outputs"):
                return root
    return None


def read_annotations(path: Path | str) -> Annotations:
    """Records, spans, categories and problems of one factgenie annotation file (``*.jsonl``).

    The campaign's ``config.yaml`` (or factgenie's ``metadata.json``) beside the file (or one
    folder up from ``files/``) gives the categories; without one (a warning), the categories are
    the type numbers used, as factgenie compares them. When the file sits in a corpus
    folder with texts (``inputs.jsonl`` or ``outputs/``), span texts are checked against them.
    """
    path = Path(path)
    problems: list[Problem] = []
    rel = str(path)
    folder = layouts.campaign_folder(path)
    if not files.is_regular(path):
        files.read_bytes(path, rel, problems)  # says why: missing, a folder, a FIFO, a loop
        records, spans = _frames([], [])
        return Annotations(path, folder.name, "human", records, spans, [], problems)
    config_file, config, mode_kind = layouts.read_config(folder, None, problems)
    from_types = config_file is None
    if from_types:  # factgenie compares types by number and needs no config: neither do we
        config = {"annotation_span_categories": [{"name": n} for n in _type_names(path, rel)]}
        problems.append(
            P.warning(
                rel,
                0,
                "",
                f"no config.yaml or metadata.json beside it: categories taken from the types used "
                f"({', '.join(c['name'] for c in config['annotation_span_categories']) or 'none'})",
                P.NO_CONFIG,
            )
        )
    root = corpus_root(path.resolve())
    texts = None
    if root is not None:  # the texts' problems name their files in full: the user named no corpus folder
        found: list[Problem] = []
        texts = layouts.read_texts(root, found)
        problems += [replace(p, file=str(root / p.file)) for p in found]
        texts = texts if _texts_read(texts, found) else None
    parts = path.resolve().parts
    camp = Campaign(
        folder.name,
        layouts._kind(parts, config, mode_kind),
        folder,
        config_file,
        config,
        [c["name"] for c in config.get("annotation_span_categories", [])],
        [path],
    )
    records, spans = Rows(RECORD_COLUMNS), Rows(READ_SPAN_COLUMNS)
    if config:
        _read_records(camp, path, rel, texts, {}, problems, records, spans)
    else:  # still report every problem of the file itself
        for _ in files.iter_jsonl(path, RecordIn, rel, problems):
            pass
    records_df, spans_df = _frames(records, spans)
    _same_index_type(records_df, spans_df)
    return Annotations(path, camp.name, camp.kind, records_df, spans_df, camp.categories, ordered(problems), from_types)


def _type_names(path: Path, rel: str) -> list[str]:
    """``type 0`` ... ``type K`` for the largest type K the file uses (its problems are reported
    when the file is read for its records)."""
    types = [s.type for _, rec in files.iter_jsonl(path, RecordIn, rel, []) for s in rec.annotations]
    return [f"type {i}" for i in range(max([t for t in types if t >= 0], default=-1) + 1)]


__all__ = [
    "KEY",
    "NO_ERROR_LABELS",
    "Annotations",
    "Corpus",
    "CorpusError",
    "Problem",
    "load",
    "read_annotations",
    "read_corpus",
    "validate",
]
