"""Read a corpus (or one campaign file) into tidy frames, reporting every problem at once.

Severities (see ``book/methods.md``):

errors
    the data cannot be read or means nothing: an unreadable, non-UTF-8 or non-regular file,
    malformed JSON or YAML, a wrong type or missing field, a span type outside the campaign's
    categories, a span whose text is not what the annotated text holds at its offsets, a record
    of an example with no text, an impression outside 1-7, an ``annotator_group`` outside
    ``annotators_per_example``, a malformed config value, a missing or empty file the corpus
    needs. :func:`load` raises :class:`CorpusError` listing them all.
warnings
    quirks of real exports that factgenie computes with, kept as factgenie keeps them:
    overlapping spans where the config forbids overlaps, a record repeated for the same annotator
    group and example, the same span twice in a record. :func:`load` returns the corpus with
    them in ``Corpus.warnings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from pydantic import ValidationError

from . import files, layouts
from .corpus import KEY, RECORD_COLUMNS, SPAN_COLUMNS, Corpus
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


def _check_spans(
    rec: RecordIn, camp: Campaign, text: str | None, rel: str, lineno: int, problems: list[Problem]
) -> None:
    """Errors of each span (type, offsets, text) and warnings (duplicates, forbidden overlaps)."""
    n_cat = len(camp.categories)
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
            continue
        end = span.start + len(span.text)
        if end > len(text):
            problems.append(
                Problem(
                    rel,
                    lineno,
                    f"{where}.start",
                    f"span [{span.start}, {end}) runs past the end of the text ({len(text)} characters)",
                )
            )
        elif text[span.start : end] != span.text:
            problems.append(
                Problem(
                    rel,
                    lineno,
                    f"{where}.text",
                    f"{span.text!r:.80} is not what the text holds at {span.start} ({text[span.start : end]!r:.80})",
                )
            )
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
                )
            )
            continue
        seen[ident] = i
        intervals.append((span.start, span.start + len(span.text), i))
    if camp.overlap_allowed:
        return
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
                    f"{what} although the campaign's config forbids overlaps; kept, as factgenie keeps it",
                    WARNING,
                )
            )
        if e > reach:
            reach, reach_i = e, i


def _read_records(
    camp: Campaign,
    path: Path,
    rel: str,
    texts: Texts | None,
    seen: dict,
    problems: list[Problem],
    records: list[dict],
    spans: list[dict],
) -> None:
    """Append the records and spans of one annotation file; problems go to ``problems``."""
    max_group = camp.config.get("annotators_per_example")
    for lineno, rec in files.iter_jsonl(path, RecordIn, rel, problems):
        n_errors = len(errors(problems))
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
                problems.append(Problem(rel, lineno, "example_idx", f"example {key} has no text in {texts.source}"))
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
                )
            )
        else:
            seen[dup] = f"{rel}:{lineno}"
        impression = _impression(rec.options, rel, lineno, problems)
        _check_spans(rec, camp, text, rel, lineno, problems)
        if len(errors(problems)) > n_errors:
            continue
        stage = meta.stage if meta.stage is not None else camp.config.get("stage")
        who = {
            "record_id": len(records),
            "kind": camp.kind,
            "campaign": camp.name,
            "stage": stage if stage is not None else pd.NA,
            "annotator_id": annotator,
            "annotator_group": group,
            **dict(zip(KEY, key)),
        }
        records.append(
            who
            | {
                "impression": impression,
                "no_errors": _no_errors(rec.flags),
                "n_spans": len(rec.annotations),
                "file": rel,
                "line": lineno,
            }
        )
        for order, s in enumerate(rec.annotations):
            spans.append(
                who
                | {
                    "order": order,
                    "start": s.start,
                    "end": s.start + len(s.text),
                    "type": camp.categories[s.type],
                    "type_idx": s.type,
                    "text": s.text,
                    "reason": s.reason or "",
                }
            )


def _frames(records: list[dict], spans: list[dict]) -> tuple[pd.DataFrame, pd.DataFrame]:
    records_df = pd.DataFrame(records, columns=RECORD_COLUMNS)
    records_df["impression"] = records_df["impression"].astype("Int64")
    records_df["no_errors"] = records_df["no_errors"].astype("boolean")
    records_df["stage"] = records_df["stage"].astype("Int64")
    for col in ("record_id", "annotator_group", "example_idx", "n_spans", "line"):
        records_df[col] = records_df[col].astype("int64")
    spans_df = pd.DataFrame(spans, columns=SPAN_COLUMNS[:-1])
    spans_df["stage"] = spans_df["stage"].astype("Int64")
    for col in ("record_id", "annotator_group", "example_idx", "order", "start", "end", "type_idx"):
        spans_df[col] = spans_df[col].astype("int64")
    spans_df["words"] = spans_df["text"].str.split().str.len().fillna(0).astype(int)
    return records_df, spans_df


def read_corpus(root: Path | str | None = None) -> tuple[Corpus, list[Problem]]:
    """Read the corpus at ``root`` (default: ``paths.corpus_dir()``): the corpus (records with
    errors left out) and every problem, errors and warnings, in file and line order."""
    from .. import paths  # the package's locations; imported here to keep corpora importable alone

    root = Path(root) if root is not None else paths.corpus_dir()
    problems: list[Problem] = []
    empty = Corpus(root, layouts._finish([]), *_frames([], []))
    if not layouts._exists(root):
        return empty, [Problem(str(root), 0, "", "no corpus folder here")]
    if not root.is_dir():
        return empty, [Problem(str(root), 0, "", "is not a folder")]
    texts = layouts.read_texts(root, problems)
    campaigns = layouts.discover(root, problems)
    if not campaigns and not errors(problems):
        problems.append(
            Problem(
                str(root),
                0,
                "",
                "no campaign (a folder with config.yaml or metadata.json and *.jsonl annotation files) found",
            )
        )
    records: list[dict] = []
    spans: list[dict] = []
    seen: dict = {}
    for camp in campaigns:
        for path in camp.files:
            _read_records(
                camp, path, layouts._rel(path, root), texts if texts.source else None, seen, problems, records, spans
            )
    records_df, spans_df = _frames(records, spans)
    corpus = Corpus(
        root,
        texts.examples,
        records_df,
        spans_df,
        {c.name: c.config for c in campaigns},
        {c.name: c.categories for c in campaigns},
    )
    return corpus, ordered(problems)


def load(path: Path | str | None = None) -> Corpus:
    """Load a corpus (default: ``paths.corpus_dir()``, the bundled stand-in unless
    ``$HOTELCHECKSPAN_DATA`` says otherwise).

    Raises :class:`CorpusError` listing every error; otherwise returns the corpus with every
    warning in ``corpus.warnings`` (the data they concern is kept, as factgenie keeps it).
    """
    corpus, problems = read_corpus(path)
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
    span categories; ``problems`` every error and warning of the file (records with errors are
    left out of the frames).
    """

    path: Path
    campaign: str
    kind: str
    records: pd.DataFrame
    spans: pd.DataFrame
    categories: list[str]
    problems: list[Problem] = field(default_factory=list)

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

    The campaign's ``config.yaml`` (or factgenie's ``metadata.json``) must be beside the file
    (or one folder up from ``files/``): it gives the categories. When the file sits in a corpus
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
    if config_file is None:
        problems.append(Problem(str(folder / "config.yaml"), 0, "", "missing: the campaign's categories are unknown"))
    root = corpus_root(path.resolve())
    texts = layouts.read_texts(root, problems) if root is not None else None
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
    records: list[dict] = []
    spans: list[dict] = []
    if config:
        _read_records(camp, path, rel, texts, {}, problems, records, spans)
    else:  # still report every problem of the file itself
        for _ in files.iter_jsonl(path, RecordIn, rel, problems):
            pass
    records_df, spans_df = _frames(records, spans)
    return Annotations(path, camp.name, camp.kind, records_df, spans_df, camp.categories, ordered(problems))


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
