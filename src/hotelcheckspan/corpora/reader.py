"""Read a factgenie-layout corpus into tidy frames, reporting every problem at once.

Layout (DESIGN.md): ``inputs.jsonl`` at the root and one folder per campaign below
``annotations/{human,model}/``, each with its ``config.yaml`` (or factgenie's own
``metadata.json``) and one or more ``*.jsonl`` annotation files (directly or under ``files/``).

Frames of a :class:`Corpus`:

``examples``
    ``dataset, split, setup_id, example_idx`` (the key), ``description, summary, aspect,
    sources, description_words, description_sentences, summary_words`` and, where the input has
    them, ``segments, segments_dropped`` (segments before de-duplication, and how many it dropped).
``records``
    one row per annotation record: ``record_id, kind`` ("human"|"model"), ``campaign, stage,
    annotator_id, annotator_group``, the key, ``impression`` (1-7 or <NA>), ``no_errors``
    (the checkbox, <NA> when absent), ``n_spans, file, line``.
``spans``
    one row per span: ``record_id, kind, campaign, stage, annotator_id, annotator_group``, the
    key, ``order`` (position within the record), ``start, end`` (end = start + len(text)),
    ``type`` (category name), ``type_idx, text, reason, words``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import yaml
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError

from .. import paths
from ..categories import CATEGORIES

KEY = ["dataset", "split", "setup_id", "example_idx"]
IMPRESSION_RANGE = (1, 7)
NO_ERROR_LABELS = (
    "I did not find any errors in the summary",
    "There were no errors in the summary",
)

EXAMPLE_COLUMNS = KEY + [
    "description", "summary", "aspect", "sources",
    "description_words", "description_sentences", "summary_words", "segments", "segments_dropped",
]
RECORD_COLUMNS = ["record_id", "kind", "campaign", "stage", "annotator_id", "annotator_group"] + KEY + [
    "impression", "no_errors", "n_spans", "file", "line",
]
SPAN_COLUMNS = ["record_id", "kind", "campaign", "stage", "annotator_id", "annotator_group"] + KEY + [
    "order", "start", "end", "type", "type_idx", "text", "reason", "words",
]


@dataclass(frozen=True)
class Problem:
    """One defect in the input: where it is and what is wrong."""

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: {self.message}"


class CorpusError(ValueError):
    """Raised by :func:`load` with every problem found, one per line."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        lines = "\n".join(str(p) for p in problems)
        super().__init__(f"{len(problems)} problem(s) in the corpus:\n{lines}")


@dataclass
class Corpus:
    """The three tidy frames of a corpus, plus campaign configs and what lenient mode skipped."""

    root: Path
    examples: pd.DataFrame
    records: pd.DataFrame
    spans: pd.DataFrame
    configs: dict[str, dict] = field(default_factory=dict)
    skipped: list[Problem] = field(default_factory=list)

    @property
    def simulated(self) -> bool:
        return paths.is_bundled(self.root)

    def campaigns(self, kind: str | None = None) -> list[str]:
        recs = self.records if kind is None else self.records[self.records["kind"] == kind]
        return list(dict.fromkeys(recs["campaign"]))


# --- schemas of one JSON line ---------------------------------------------------------------


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class SpanIn(_Loose):
    type: StrictInt
    start: StrictInt
    text: StrictStr
    reason: StrictStr | None = None


class FlagIn(_Loose):
    label: StrictStr
    value: StrictBool


class OptionIn(_Loose):
    label: StrictStr
    value: StrictStr | StrictInt | None = None


class RecordIn(_Loose):
    dataset: StrictStr
    split: StrictStr
    setup_id: StrictStr
    example_idx: StrictInt
    annotations: list[SpanIn]
    annotator_id: StrictStr | None = None
    annotator_group: StrictInt | None = None
    flags: list[FlagIn] = []
    options: list[OptionIn] = []
    metadata: dict[str, Any] = {}


class ExampleIn(_Loose):
    dataset: StrictStr
    split: StrictStr
    setup_id: StrictStr
    example_idx: StrictInt
    summary: StrictStr
    description: StrictStr = ""
    aspect: StrictStr | None = None
    sources: list[StrictStr] | StrictInt | None = None


def _loc(loc: tuple) -> str:
    return ".".join(str(x) for x in loc)


def _read_jsonl(path: Path, model: type[BaseModel], rel: str, problems: list[Problem]) -> Iterator[tuple[int, BaseModel]]:
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError as err:
                problems.append(Problem(rel, lineno, "<json>", f"malformed JSON: {err.msg} at column {err.colno}"))
                continue
            if not isinstance(obj, dict):
                problems.append(Problem(rel, lineno, "<json>", f"expected an object, got {type(obj).__name__}"))
                continue
            try:
                yield lineno, model.model_validate(obj)
            except ValidationError as err:
                for e in err.errors():
                    msg = "missing field" if e["type"] == "missing" else e["msg"]
                    problems.append(Problem(rel, lineno, _loc(e["loc"]), msg))


# --- campaigns -------------------------------------------------------------------------------


@dataclass
class Campaign:
    name: str
    kind: str
    folder: Path
    config: dict
    files: list[Path]

    @property
    def categories(self) -> list[str]:
        return [c["name"] if isinstance(c, dict) else str(c) for c in self.config.get("annotation_span_categories", [])]

    @property
    def overlap_allowed(self) -> bool:
        return bool(self.config.get("annotation_overlap_allowed", False))


def _campaign_config(folder: Path) -> tuple[dict | None, str | None]:
    if (folder / "config.yaml").exists():
        return yaml.safe_load((folder / "config.yaml").read_text(encoding="utf-8")) or {}, None
    if (folder / "metadata.json").exists():
        meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
        mode = meta.get("mode", "")
        return meta.get("config", {}), ("model" if "llm" in mode else "human" if mode else None)
    return None, None


def discover_campaigns(root: Path) -> list[Campaign]:
    """Every folder below ``root`` that holds a campaign config and annotation files."""
    campaigns = []
    for folder in sorted(p for p in root.rglob("*") if p.is_dir()):
        config, mode_kind = _campaign_config(folder)
        if config is None:
            continue
        files = sorted(folder.glob("*.jsonl")) + sorted((folder / "files").glob("*.jsonl"))
        parts = folder.relative_to(root).parts
        kind = "model" if "model" in parts else "human" if "human" in parts else (mode_kind or "human")
        campaigns.append(Campaign(folder.name, kind, folder, config, files))
    return campaigns


# --- loading ---------------------------------------------------------------------------------


def _word_count(text: pd.Series) -> pd.Series:
    return text.str.split().str.len().fillna(0).astype(int)


def _sentence_count(text: pd.Series) -> pd.Series:
    return text.map(lambda t: len([s for s in re.split(r"(?<=[.!?])\s+", t.strip()) if s]) if t else 0)


def _read_examples(root: Path, problems: list[Problem]) -> pd.DataFrame:
    path = root / "inputs.jsonl"
    if not path.exists():
        return pd.DataFrame(columns=EXAMPLE_COLUMNS)
    rows, seen = [], {}
    rel = str(path.relative_to(root))
    for lineno, ex in _read_jsonl(path, ExampleIn, rel, problems):
        key = (ex.dataset, ex.split, ex.setup_id, ex.example_idx)
        if key in seen:
            problems.append(Problem(rel, lineno, "example_idx", f"duplicate example {key}, first on line {seen[key]}"))
            continue
        seen[key] = lineno
        n_sources = len(ex.sources) if isinstance(ex.sources, list) else ex.sources
        extra = ex.model_extra or {}
        rows.append(dict(zip(KEY, key)) | {
            "description": ex.description, "summary": ex.summary, "aspect": ex.aspect, "sources": n_sources,
            "segments": extra.get("segments"), "segments_dropped": extra.get("segments_dropped"),
        })
    examples = pd.DataFrame(rows, columns=KEY + ["description", "summary", "aspect", "sources", "segments",
                                                 "segments_dropped"])
    examples["description_words"] = _word_count(examples["description"])
    examples["description_sentences"] = _sentence_count(examples["description"])
    examples["summary_words"] = _word_count(examples["summary"])
    return examples[EXAMPLE_COLUMNS]


def _impression(options: list[OptionIn], rel: str, lineno: int, problems: list[Problem]):
    for i, opt in enumerate(options):
        if "impression" not in opt.label.lower():
            continue
        try:
            value = int(str(opt.value))
        except ValueError:
            problems.append(Problem(rel, lineno, f"options.{i}.value", f"impression {opt.value!r} is not a whole number"))
            return pd.NA
        lo, hi = IMPRESSION_RANGE
        if not lo <= value <= hi:
            problems.append(Problem(rel, lineno, f"options.{i}.value", f"impression {value} outside {lo}-{hi}"))
            return pd.NA
        return value
    return pd.NA


def _no_errors(flags: list[FlagIn]):
    for flag in flags:
        if flag.label in NO_ERROR_LABELS or "no error" in flag.label.lower() or "any errors" in flag.label.lower():
            return flag.value
    return pd.NA


def _check_spans(rec: RecordIn, camp: Campaign, summary: str | None, rel: str, lineno: int,
                 problems: list[Problem]) -> list[int]:
    """Problems of each span in a record; returns the indices of the spans that are bad."""
    bad = []
    n_cat = len(camp.categories)
    for i, span in enumerate(rec.annotations):
        where = f"annotations.{i}"
        ok = True
        if not 0 <= span.type < n_cat:
            problems.append(Problem(rel, lineno, f"{where}.type",
                                    f"type {span.type} outside the campaign's {n_cat} categories {camp.categories}"))
            ok = False
        if span.start < 0 or not span.text:
            problems.append(Problem(rel, lineno, f"{where}.start", f"empty span or negative start {span.start}"))
            ok = False
        elif summary is not None and summary[span.start:span.start + len(span.text)] != span.text:
            found = summary[span.start:span.start + len(span.text)]
            problems.append(Problem(rel, lineno, f"{where}.text",
                                    f"{span.text!r} is not what the summary holds at {span.start} ({found!r})"))
            ok = False
        if not ok:
            bad.append(i)
    if not camp.overlap_allowed:
        ivs = sorted((s.start, s.start + len(s.text), i) for i, s in enumerate(rec.annotations) if i not in bad)
        for (s0, e0, i0), (s1, e1, i1) in zip(ivs, ivs[1:]):
            if s1 < e0:
                problems.append(Problem(rel, lineno, f"annotations.{i1}.start",
                                        f"span [{s1}, {e1}) overlaps annotations.{i0} [{s0}, {e0}) "
                                        "but the campaign forbids overlaps"))
                bad.append(i1)
    return bad


def read_corpus(root: Path | str | None = None) -> tuple[Corpus, list[Problem], list[Problem]]:
    """Read a corpus; return it with its problems split into record-level and span-level ones.

    Record-level problems (unreadable line, missing field, duplicate, unknown example, bad
    impression) leave the record out; span-level problems leave the span out. :func:`load`
    decides what to do with them.
    """
    root = Path(root) if root is not None else paths.corpus_dir()
    if not root.is_dir():
        raise FileNotFoundError(f"no corpus folder at {root}")
    problems: list[Problem] = []
    span_problems: list[Problem] = []
    examples = _read_examples(root, problems)
    summaries = {tuple(r[:4]): r[4] for r in examples[KEY + ["summary"]].itertuples(index=False)}
    campaigns = discover_campaigns(root)
    if not campaigns:
        problems.append(Problem(str(root), 0, "annotations", "no campaign folder (config.yaml or metadata.json with *.jsonl) found"))

    records: list[dict] = []
    spans: list[dict] = []
    seen: dict = {}
    for camp in campaigns:
        if not camp.categories:
            crel = str((camp.folder / "config.yaml").relative_to(root))
            problems.append(Problem(crel, 0, "annotation_span_categories", "missing or empty"))
            continue
        for path in camp.files:
            _read_records(camp, path, str(path.relative_to(root)), summaries, seen, problems, span_problems,
                          records, spans)
    records_df, spans_df = _frames(records, spans)
    if examples.empty and not records_df.empty:
        examples = records_df[KEY].drop_duplicates().reset_index(drop=True).reindex(columns=EXAMPLE_COLUMNS)
    corpus = Corpus(root, examples, records_df, spans_df, {c.name: c.config for c in campaigns})
    return corpus, problems, span_problems


def _read_records(camp: Campaign, path: Path, rel: str, summaries: dict, seen: dict, problems: list[Problem],
                  span_problems: list[Problem], records: list[dict], spans: list[dict]) -> None:
    """Append the records and spans of one annotation file; problems go to the two lists."""
    for lineno, rec in _read_jsonl(path, RecordIn, rel, problems):
        key = (rec.dataset, rec.split, rec.setup_id, rec.example_idx)
        n_before = len(problems)
        group = rec.annotator_group if rec.annotator_group is not None else rec.metadata.get("annotator_group", 0)
        annotator = rec.annotator_id or rec.metadata.get("annotator_id") or f"{camp.name}-group{group}"
        dup_key = (camp.name, annotator, key)
        if dup_key in seen:
            problems.append(Problem(rel, lineno, "annotator_id",
                                    f"duplicate record of {annotator} for {key}, first at {seen[dup_key]}"))
        else:
            seen[dup_key] = f"{rel}:{lineno}"
        summary = summaries.get(key)
        if summaries and summary is None:
            problems.append(Problem(rel, lineno, "example_idx", f"example {key} is not in inputs.jsonl"))
        impression = _impression(rec.options, rel, lineno, problems)
        if len(problems) > n_before:
            continue
        bad = _check_spans(rec, camp, summary, rel, lineno, span_problems)
        record_id = len(records)
        stage = rec.metadata.get("stage", camp.config.get("stage"))
        stage = stage if stage is not None else pd.NA
        kept = [(i, s) for i, s in enumerate(rec.annotations) if i not in bad]
        who = {"record_id": record_id, "kind": camp.kind, "campaign": camp.name, "stage": stage,
               "annotator_id": annotator, "annotator_group": group, **dict(zip(KEY, key))}
        records.append(who | {"impression": impression, "no_errors": _no_errors(rec.flags), "n_spans": len(kept),
                              "file": rel, "line": lineno})
        for order, (i, s) in enumerate(kept):
            spans.append(who | {"order": order, "start": s.start, "end": s.start + len(s.text),
                                "type": camp.categories[s.type], "type_idx": s.type, "text": s.text,
                                "reason": s.reason or ""})


def _frames(records: list[dict], spans: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    records_df = pd.DataFrame(records, columns=RECORD_COLUMNS)
    records_df["impression"] = records_df["impression"].astype("Int64")
    records_df["no_errors"] = records_df["no_errors"].astype("boolean")
    records_df["stage"] = records_df["stage"].astype("Int64")
    spans_df = pd.DataFrame(spans, columns=SPAN_COLUMNS[:-1])
    spans_df["stage"] = spans_df["stage"].astype("Int64")
    spans_df["words"] = _word_count(spans_df["text"])
    return records_df, spans_df


def read_annotation_file(path: Path | str) -> tuple[pd.DataFrame, pd.DataFrame, list[str], list[Problem]]:
    """Records, spans, categories and problems of one factgenie ``annotations.jsonl``.

    The campaign's ``config.yaml`` (or ``metadata.json``) beside the file gives the categories;
    without one, types 0-2 are read as the HotelCheckSpan categories. Span texts cannot be
    checked against summaries here, so only the record and span fields are validated.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    config, mode_kind = _campaign_config(path.parent)
    if config is None:
        config = {"annotation_span_categories": [{"name": c} for c in CATEGORIES], "annotation_overlap_allowed": True}
    camp = Campaign(path.parent.name, mode_kind or "human", path.parent, config, [path])
    problems: list[Problem] = []
    records: list[dict] = []
    spans: list[dict] = []
    if not camp.categories:
        problems.append(Problem(str(path.parent / "config.yaml"), 0, "annotation_span_categories", "missing or empty"))
    else:
        _read_records(camp, path, str(path), {}, {}, problems, problems, records, spans)
    records_df, spans_df = _frames(records, spans)
    return records_df, spans_df, camp.categories, problems


def load(path: Path | str | None = None, lenient: bool = False) -> Corpus:
    """Load a corpus (default: ``paths.corpus_dir()``).

    Raises :class:`CorpusError` listing every problem. With ``lenient=True`` bad spans are
    skipped instead and listed in ``Corpus.skipped``; record-level problems still raise.
    """
    corpus, problems, span_problems = read_corpus(path)
    if problems or (span_problems and not lenient):
        raise CorpusError(sorted(problems + span_problems, key=lambda p: (p.file, p.line)))
    corpus.skipped = span_problems
    return corpus


def validate(path: Path | str) -> list[Problem]:
    """Every problem of the corpus at ``path``, in file and line order (empty when clean)."""
    _, problems, span_problems = read_corpus(path)
    return sorted(problems + span_problems, key=lambda p: (p.file, p.line))
