"""WMT's MQM span annotations, read as they ship: the Marot viewer's TSV (Google's WMT releases
from 2020 on, github.com/google/wmt-mqm-human-evaluation), into the corpus' tidy frames.

One row per error: the error's span is marked in ``target`` with ``<v>`` and ``</v>``; a
``No-error`` row is a rated segment with no error; an error row that marks nothing (an omission,
a source error) is an error of the segment without a span. Two column sets are read: the
legacy ``system, doc, doc_id, seg_id, rater, source, target, category, severity[, comment]`` and
Marot's ``system, doc, docSegId, globalSegId, rater, source, target, category, severity,
metadata`` (a JSON object); a file without a header line is read in Marot's order.

How it maps onto factgenie's key (so every command computes on it as on an export):

- ``dataset``: the test set, from the file name (``mqm_ted_ende.tsv`` -> ``ted``,
  ``mqm_newstest2021_zhen.tsv`` -> ``newstest2021``; the file's stem where the name says none);
- ``split``: the language pair (``en-de``, from the file name, else the metadata's
  ``evaluation.source_language`` and ``target_language``), as factgenie's own MT exports write it,
  so that the frame's rule (one block per split) computes per language pair as mt-metrics-eval does;
- ``setup_id``: the system (the references ``ref``, ``refA``, ``ref-B``, ``Human-*`` flagged as
  such: :func:`is_reference`); ``example_idx``: the global segment id;
- a campaign per file: its raters are the annotator groups (one record per rater, system and
  segment; the rater's name is the annotator id), its span types the severities it uses (default),
  the categories, or both (``span_type``); a file in a folder named ``model`` or ``llm`` (or given
  as a judge) is an LLM's MQM-style spans, a model campaign: ``model/<llm>/mqm_ted_ende.tsv``,
  named as the human file it annotates, so that its test set and language pair are the same.

Marot's hands-on-the-wheel checks (severity ``HOTW-test``, category ``Found`` or ``Missed``: a
deliberately damaged translation the rater must catch) are a campaign of their own, role
``attention``: never errors of a system. :func:`catch_rates` reports each rater's.

A file declares no categories: every severity and category it uses is a type. The MQM score
(:func:`scores`) weighs each error by WMT's weights (:data:`WMT_WEIGHTS`) or the user's; a
severity no weight names weighs 0 and is said once, with its rows (:func:`unweighted`).

Bad rows get the package's bad-input rule, every one at once with file, line and field: a line
with too few fields, a header without a column the format needs, an unbalanced or nested
``<v>``, a segment id that is no whole number, metadata that is no JSON object: errors; a marked
target whose text differs from the segment's other rows: a warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from . import files, layouts
from . import problems as P
from .keys import KEY
from .problems import Problem

LEGACY = ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category", "severity"]
MAROT = ["system", "doc", "docSegId", "globalSegId", "rater", "source", "target", "category", "severity"]
OPTIONAL = ("comment", "metadata", "note")
SPAN_TYPES = ("severity", "category", "both")
NO_ERROR = "no-error"
HOTW = "hotw-test"
FOUND, MISSED = "found", "missed"
SEVERITY_ORDER = ["Critical", "Major", "Minor", "Neutral"]  # types listed in this order, then as they appear
REFERENCE = re.compile(r"^(ref|reference|human)([-_.]?[a-z0-9]+)?$", re.IGNORECASE)
_MARK = re.compile(r"</?v>")
UNBALANCED = "unbalanced"  # a warning's class: <v> markers that do not pair up
NOT_MQM = "not-mqm"  # a warning's class: a TSV file of the folder that is no MQM file (not read)
_PAIR = re.compile(r"(?:^|[_.-])([a-z]{2})([a-z]{2})(?=$|[_.-])")
_SET = re.compile(r"^(?:sxs_)?mqm[_-]?(.*?)(?:[_.-][a-z]{4})?$", re.IGNORECASE)

# WMT's MQM weights (Freitag et al. 2021; the repository's README): Major 5, Minor 1, Minor
# Fluency/Punctuation 0.1, Non-translation 25 (whatever its severity), Neutral and No-error 0.
WMT_WEIGHTS = {"Major": 5.0, "Minor": 1.0, "Minor:Fluency/Punctuation": 0.1, "*:Non-translation": 25.0, "Neutral": 0.0}
WEIGHT_RULE = """A weight is NAME=VALUE: NAME a severity ("Major"), a severity and a category
("Minor:Fluency/Punctuation"), any severity with a category ("*:Non-translation"), or a category
alone (a factgenie corpus' span types: "Incorrect"). Names match without regard to letter case or
a trailing "!"; a category matches itself and its sub-categories ("Fluency" matches
"Fluency/Spelling"). The most specific weight applies: severity and category, then any severity
and the category, then the severity, then the category; a span no weight names weighs 0."""


def is_reference(system: str) -> bool:
    """Whether a system is a human reference translation (``ref``, ``refA``, ``ref-B``, ``Human-A``)."""
    return bool(REFERENCE.match(system.strip()))


def language_pair(name: str) -> str | None:
    """The language pair a file name states (``mqm_ted_ende`` -> ``en-de``), or None."""
    found = _PAIR.findall(Path(name).name.split(".")[0].lower())
    return f"{found[-1][0]}-{found[-1][1]}" if found else None


def test_set(name: str) -> str:
    """The test set a file name states (``mqm_newstest2021_ende`` -> ``newstest2021``), else its stem."""
    stem = Path(name).name.split(".")[0]
    m = _SET.match(stem)
    got = (m.group(1) if m else stem).strip("_-")
    return got or stem


@dataclass
class _Row:
    line: int
    system: str
    doc: str
    segment: int
    rater: str
    source: str
    target: str
    text: str  # the target without markers
    span: tuple[int, str] | None  # (start, text) of the marked span in ``text``
    category: str
    severity: str
    metadata: dict = field(default_factory=dict)


def _unmark(value: str, rel: str, line: int, column: str, problems: list[Problem]) -> tuple[str, tuple | None]:
    """``value`` without ``<v>`` markers and the marked span (start, text), or None where it marks
    none. Real files carry quirks, each a warning with its line, the row still an error of its
    segment: an opening ``<v>`` never closed marks to the end of the text; markers in another
    order mark nothing; a second span in one row is not counted (a row marks one error)."""
    marks = list(_MARK.finditer(value))
    if not marks:
        return value, None
    kinds = [m.group(0) for m in marks]
    text = _MARK.sub("", value)
    if kinds == ["<v>"]:
        start = marks[0].start()
        problems.append(
            P.warning(
                rel, line, column, "an opening <v> is never closed: the span runs to the end of the text", UNBALANCED
            )
        )
        return text, (start, text[start:]) if text[start:] else None
    if kinds[:2] != ["<v>", "</v>"] or len(kinds) % 2:
        problems.append(
            P.warning(
                rel,
                line,
                column,
                f"unbalanced <v> markers ({' '.join(kinds)}): the row is an error without a span",
                UNBALANCED,
            )
        )
        return text, None
    if len(kinds) > 2:
        problems.append(
            P.warning(rel, line, column, f"{len(kinds) // 2} spans marked in one row: the first counts", UNBALANCED)
        )
    first, second = marks[0], marks[1]
    start = first.start()
    return text, (start, value[first.end() : second.start()])


def _columns(header: list[str], rel: str, problems: list[Problem]) -> dict[str, int] | None:
    """Column name -> index of a header line, or None with one error naming what is missing."""
    names = [h.strip() for h in header]
    for required in (LEGACY, MAROT):
        if all(c in names for c in required):
            return {c: names.index(c) for c in [*required, *OPTIONAL] if c in names}
    have = set(names)
    legacy_missing = [c for c in LEGACY if c not in have]
    marot_missing = [c for c in MAROT if c not in have]
    missing = min(legacy_missing, marot_missing, key=len)
    plural = "s" if len(missing) > 1 else ""
    problems.append(Problem(rel, 1, "<header>", f"missing column{plural} {', '.join(missing)}"))
    return None


def _rows(path: Path, rel: str, problems: list[Problem]) -> list[_Row]:
    """The rows of one MQM file; every bad row is a problem."""
    text = files.read_text(path, rel, problems)
    if text is None:
        return []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        problems.append(Problem(rel, 0, "", "is empty"))
        return []
    first = lines[0].split("\t")
    if first[:2] == ["system", "doc"]:
        cols = _columns(first, rel, problems)
        if cols is None:
            return []
        body = enumerate(lines[1:], start=2)
    else:  # no header: Marot's order
        cols = {c: i for i, c in enumerate([*MAROT, "metadata"])}
        body = enumerate(lines, start=1)
    seg_col = "seg_id" if "seg_id" in cols else "globalSegId"
    need = max(cols[c] for c in cols if c not in OPTIONAL) + 1
    rows: list[_Row] = []
    for lineno, line in body:
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) < need:
            problems.append(
                Problem(rel, lineno, "<tsv>", f"{len(parts)} fields, the format has {need} (tab-separated, no quoting)")
            )
            continue
        n_before = len(problems)
        seg = parts[cols[seg_col]].strip()
        try:
            segment = int(seg)
        except ValueError:
            problems.append(Problem(rel, lineno, seg_col, f"segment id {seg!r:.40} is no whole number"))
            segment = -1
        meta: dict = {}
        for name in ("metadata",):
            if name in cols and cols[name] < len(parts) and parts[cols[name]].strip():
                raw = parts[cols[name]].strip()
                value, message = files.parse_json(raw)
                if message or not isinstance(value, dict):
                    if name == "metadata" and raw.startswith("{"):
                        problems.append(Problem(rel, lineno, name, message or "is no JSON object"))
                else:
                    meta = value
        target, span = _unmark(parts[cols["target"]], rel, lineno, "target", problems)
        source, source_span = _unmark(parts[cols["source"]], rel, lineno, "source", problems)
        if any(p.is_error for p in problems[n_before:]):
            continue
        rows.append(
            _Row(
                lineno,
                parts[cols["system"]].strip(),
                parts[cols["doc"]].strip(),
                segment,
                parts[cols["rater"]].strip(),
                source,
                parts[cols["target"]],
                target,
                span,
                parts[cols["category"]].strip(),
                parts[cols["severity"]].strip(),
                meta | ({"source_span": source_span} if source_span else {}),
            )
        )
    return rows


def _lowered(value: str) -> str:
    return value.strip().lower().rstrip("!")


def _type_name(row: _Row, span_type: str) -> str:
    if span_type == "severity":
        return row.severity
    if span_type == "category":
        return row.category
    return f"{row.severity}/{row.category}"


def _ordered(types: list[str], span_type: str) -> list[str]:
    """Types in a stable order: the known severities first (for severity types), then as they appear."""
    seen = list(dict.fromkeys(types))
    if span_type != "severity":
        return seen
    known = [s for s in SEVERITY_ORDER if s in seen]
    return known + [t for t in seen if t not in known]


@dataclass
class Read:
    """What :func:`read` made of MQM files: the corpus' parts (examples, records, spans frames as
    the factgenie reader makes them) and, per campaign, its kind, role, file, categories."""

    examples: pd.DataFrame
    records: list[dict]
    spans: list[dict]
    campaigns: dict[str, dict]


MIN_FIELDS = len(MAROT)  # an MQM row has at least these many tab-separated fields


def _looks_mqm(path: Path) -> bool:
    """Whether a TSV file's first line is an MQM header (``system``, ``doc``, ...) or a row of at
    least :data:`MIN_FIELDS` fields (a per-segment scores file, ``system mqm_avg_score seg_id``, is not)."""
    try:
        with path.open("rb") as fh:
            first = fh.readline(65536).decode("utf-8", "replace").rstrip("\r\n").split("\t")
    except OSError:
        return True  # unreadable: the reader says why
    return first[:2] == ["system", "doc"] or len(first) >= MIN_FIELDS


def mqm_files(root: Path, problems: list[Problem] | None = None) -> list[Path]:
    """The MQM files of ``root``: the file itself, or every ``*.tsv`` below the folder whose first
    line is MQM's (sorted); a folder's other TSV files are named in a warning and not read."""
    if root.is_file():
        return [root]
    found = sorted(p for p in root.rglob("*.tsv") if p.is_file())
    out = [p for p in found if _looks_mqm(p)]
    for p in found:
        if p not in out and problems is not None:
            problems.append(
                P.warning(
                    p.relative_to(root).as_posix(),
                    1,
                    "",
                    "not an MQM file (its first line is neither the header nor a row of the Marot viewer's "
                    "columns): not read",
                    NOT_MQM,
                )
            )
    return out


def is_mqm(root: Path) -> bool:
    """Whether ``root`` is an MQM file (``*.tsv``) or a folder of them with no factgenie layout."""
    if root.is_file():
        return root.suffix.lower() == ".tsv"
    if not root.is_dir():
        return False
    factgenie = any(layouts._exists(root / n) for n in ("annotations", "campaigns", "inputs.jsonl", "outputs"))
    return not factgenie and bool(mqm_files(root))


def _kind(path: Path, root: Path) -> str:
    rel = path.relative_to(root).parts[:-1] if root.is_dir() else ()
    return "model" if any(p.lower() in ("model", "llm", "models", "llms") for p in rel) else "human"


def read(root: Path, problems: list[Problem], span_type: str = "severity") -> Read:
    """Every MQM file of ``root`` (:func:`mqm_files`) as corpus parts (module docstring)."""
    if span_type not in SPAN_TYPES:
        raise ValueError(f"span_type must be one of {', '.join(SPAN_TYPES)}, not {span_type!r}")
    base = root.parent if root.is_file() else root
    examples: dict[tuple, dict] = {}
    records: list[dict] = []
    spans: list[dict] = []
    campaigns: dict[str, dict] = {}
    groups: dict[tuple, int] = {}  # (kind, rater) -> group, across files: one rater, one group
    read_files = [(path, path.relative_to(base).as_posix()) for path in mqm_files(root, problems)]
    read_files = [(path, rel, _rows(path, rel, problems)) for path, rel in read_files]
    # one list of types for every campaign of the read (so that campaigns compare): the severities
    # (categories, or both) any file uses, in a stable order
    every = _ordered(
        [
            _type_name(r, span_type)
            for _, _, rows in read_files
            for r in rows
            if _lowered(r.severity) not in (NO_ERROR, HOTW)
        ],
        span_type,
    )
    types = every or ["No-error"]
    type_idx = {t: i for i, t in enumerate(types)}
    for path, rel, rows in read_files:
        if not rows:
            continue
        pair = language_pair(path.name)
        if pair is None:
            evs = [r.metadata.get("evaluation") for r in rows]
            ev = next((e for e in evs if isinstance(e, dict)), {})
            src, tgt = ev.get("source_language"), ev.get("target_language")
            pair = f"{src}-{tgt}" if src and tgt else "unknown"
        dataset = test_set(path.name)
        kind = _kind(path, root)
        name = Path(rel).with_suffix("").as_posix().replace("/", "-")
        main = [r for r in rows if _lowered(r.severity) != HOTW]
        hotw = [r for r in rows if _lowered(r.severity) == HOTW]
        texts: dict[tuple, tuple[str, int]] = {}
        for r in main + hotw:
            key = (dataset, pair, r.system, r.segment)
            if key not in texts:
                texts[key] = (r.text, r.line)
                examples.setdefault(
                    key,
                    dict(zip(KEY, key))
                    | {
                        "description": r.source,
                        "summary": r.text,
                        "aspect": None,
                        "sources": None,
                        "segments": None,
                        "segments_dropped": None,
                    },
                )
            elif r.text != texts[key][0] and r in main:
                problems.append(
                    P.warning(
                        rel,
                        r.line,
                        "target",
                        f"the segment's text differs from line {texts[key][1]}'s (the first is kept; its span "
                        "counts at its offsets)",
                        P.SHIFTED,
                    )
                )
        for part, rows_, role in ((name, main, "annotation"), (f"{name}-hotw", hotw, "attention")):
            if not rows_:
                continue
            campaigns[part] = {
                "kind": kind if role == "annotation" else "human",
                "file": rel,
                "categories": list(types),
                "config": {
                    "annotation_span_categories": [{"name": t} for t in types],
                    "annotation_overlap_allowed": True,
                    "role": role,
                    "mqm": {"span_type": span_type, "file": rel},
                },
            }
            by_record: dict[tuple, list[_Row]] = {}
            for r in rows_:
                by_record.setdefault((r.system, r.segment, r.rater), []).append(r)
            for (system, segment, rater), mine in by_record.items():
                group = groups.setdefault(
                    (campaigns[part]["kind"], rater), sum(k == campaigns[part]["kind"] for k, _ in groups)
                )
                key = (dataset, pair, system, segment)
                rid = len(records)
                errors = [r for r in mine if _lowered(r.severity) not in (NO_ERROR, HOTW)]
                caught = None
                if role == "attention":
                    caught = any(_lowered(r.category) == FOUND for r in mine)
                who = {
                    "record_id": rid,
                    "kind": campaigns[part]["kind"],
                    "campaign": part,
                    "stage": pd.NA,
                    "annotator_id": rater,
                    "annotator_group": group,
                    **dict(zip(KEY, key)),
                }
                records.append(
                    who
                    | {
                        "impression": pd.NA,
                        "no_errors": (not caught) if role == "attention" else not errors,
                        "n_spans": len(errors),
                        "has_text": True,
                        "file": rel,
                        "line": mine[0].line,
                    }
                )
                for order, r in enumerate(errors):
                    t = _type_name(r, span_type)
                    start, marked = r.span if r.span is not None else (0, "")
                    spans.append(
                        who
                        | {
                            "order": order,
                            "start": start,
                            "end": start + len(marked),
                            "type": t,
                            "type_idx": type_idx[t],
                            "text": marked,
                            "reason": str(r.metadata.get("note", "")) if r.metadata else "",
                            "placed": True if r.span is not None else pd.NA,
                            "severity": r.severity,
                            "category": r.category,
                        }
                    )
    frame = layouts._finish(list(examples.values()))
    return Read(frame, records, spans, campaigns)


# --- the MQM score ------------------------------------------------------------------------------


def parse_weights(given) -> dict[str, float]:
    """Weights from ``NAME=VALUE`` strings (or a mapping), :data:`WEIGHT_RULE`; ``ValueError`` for
    a malformed one."""
    if isinstance(given, dict):
        return {str(k): float(v) for k, v in given.items()}
    out = {}
    for item in given or []:
        name, sep, value = str(item).rpartition("=")
        try:
            out[name.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep or not name.strip():
            raise ValueError(f"weight {item!r} is not NAME=VALUE (e.g. Major=5, Minor:Fluency/Punctuation=0.1)")
    return out


def _category_matches(rule: str, category: str) -> bool:
    rule, category = _lowered(rule), _lowered(category)
    return category == rule or category.startswith(rule + "/")


def weigh(spans: pd.DataFrame, weights: dict[str, float]) -> pd.Series:
    """Each span's weight (:data:`WEIGHT_RULE`), NaN where no weight names it. ``spans`` has
    ``severity`` (NA for a factgenie corpus) and ``category``."""
    sev = spans["severity"].astype("string").fillna("").map(_lowered)
    cat = spans["category"].astype("string").fillna("")
    out = pd.Series(float("nan"), index=spans.index)
    rules = sorted(weights.items(), key=lambda kv: _specificity(kv[0]))  # least specific first: later ones win
    for name, value in rules:
        s, sep, c = name.partition(":")
        if sep:
            hit = cat.map(lambda v, c=c: _category_matches(c, v))
            if s.strip() != "*":
                hit &= sev == _lowered(s)
        else:
            hit = (sev == _lowered(name)) | ((sev == "") & cat.map(lambda v, n=name: _category_matches(n, v)))
        out[hit.to_numpy()] = value
    return out


def _specificity(name: str) -> int:
    s, sep, _ = name.partition(":")
    if sep:
        return 3 if s.strip() != "*" else 2
    return 1


def unweighted(spans: pd.DataFrame, weights: dict[str, float], records: pd.DataFrame) -> pd.DataFrame:
    """The severities (or, where spans have none, the categories) no weight names: ``name,
    spans, lines`` (the file and line of the first five records holding them), each said once."""
    w = weigh(spans, weights)
    gone = spans[w.isna()]
    if gone.empty:
        return pd.DataFrame(columns=["name", "spans", "lines"])
    where = records.set_index("record_id")[["file", "line"]]
    name = gone["severity"].astype("string").fillna(gone["category"].astype("string"))
    rows = []
    for value, part in gone.groupby(name.to_numpy(), sort=False):
        at = where.loc[part["record_id"].drop_duplicates().to_numpy()[:5]]
        lines = ", ".join(f"{f}:{ln}" for f, ln in zip(at["file"], at["line"]))
        rows.append(
            {"name": value, "spans": len(part), "lines": lines + (", ..." if part["record_id"].nunique() > 5 else "")}
        )
    return pd.DataFrame(rows)


def scores(corpus, weights: dict[str, float] | None = None, per: str = "system") -> pd.DataFrame:
    """The MQM score of the human annotation: per segment and rater the sum of its errors' weights
    (0 for a clean segment), averaged over the segment's raters; ``per="text"``: one row per text
    (the key, ``score``, ``raters``); ``per="system"``: the mean over each system's segments
    (``dataset, split, system, score, texts, reference``), sorted by score (lower is better, as
    WMT prints it). ``weights`` default to :data:`WMT_WEIGHTS`."""
    weights = WMT_WEIGHTS if weights is None else weights
    attention = {n for n, c in corpus.configs.items() if (c or {}).get("role") == "attention"}
    rec = corpus.records[(corpus.records["kind"] == "human") & ~corpus.records["campaign"].isin(attention)]
    sp = corpus.spans[corpus.spans["record_id"].isin(rec["record_id"])]
    w = weigh(sp, weights).fillna(0.0)
    per_record = w.groupby(sp["record_id"].to_numpy()).sum()
    rec = rec.assign(score=rec["record_id"].map(per_record).fillna(0.0).astype(float))
    text = rec.groupby(KEY, sort=False).agg(score=("score", "mean"), raters=("record_id", "size")).reset_index()
    if per == "text":
        return text
    if per != "system":
        raise ValueError(f"per must be system or text, not {per!r}")
    out = (
        text.groupby(["dataset", "split", "setup_id"], sort=False)
        .agg(score=("score", "mean"), texts=("score", "size"))
        .reset_index()
        .rename(columns={"setup_id": "system"})
    )
    out["reference"] = out["system"].map(is_reference)
    return out.sort_values(["dataset", "split", "score", "system"], kind="stable").reset_index(drop=True)


def catch_rates(corpus) -> pd.DataFrame:
    """Each rater's hands-on-the-wheel checks (the ``attention`` campaigns of MQM files):
    ``rater, checks, caught, catch_rate``; empty where the corpus has none."""
    names = [n for n, c in corpus.configs.items() if (c or {}).get("mqm") and (c or {}).get("role") == "attention"]
    rec = corpus.records[corpus.records["campaign"].isin(names)]
    if rec.empty:
        return pd.DataFrame(columns=["rater", "checks", "caught", "catch_rate"])
    caught = ~rec["no_errors"].astype(bool)
    grouped = rec.assign(caught=caught).groupby("annotator_id", sort=True)
    out = grouped.agg(checks=("caught", "size"), caught=("caught", "sum"))
    out["catch_rate"] = out["caught"] / out["checks"]
    return out.reset_index().rename(columns={"annotator_id": "rater"})
