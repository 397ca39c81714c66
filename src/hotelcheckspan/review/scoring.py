"""Completed review sheets in: checked against the export's key, de-anonymised, and scored.

:func:`read_reviews` reads one or more completed sheets (xlsx or csv, one or several reviewers)
and reports every defect at once, each naming its file, row and column (and in a workbook its
sheet and cell): a value not exactly one the sheet lists (letter case too: "error", "Y", "no"
are refused; spaces around a value do not count), a missing mark (``error_mark`` always;
``explanation_mark`` unless "No span given"; the reviewer on a reviewed row), marks that break
the sheet's rules (:data:`~.sheet.RULES`: "Not an error" with an explanation other than "Not an
error", an Error explained "Not an error", Implicit span without "No span given"), a row whose
id is not in the export or appears twice, a changed span text (the key keeps a hash of each
row's text), a sheet of another export, a missing key. The flags are those of the export (the
key names them). A row counts as reviewed when it has a reviewer, a comment, an explanation
mark, or an error mark or flag other than the export pre-filled; other rows are not reviewed (a
warning counts them). A sheet written without the reviewer column holds one reviewer's work,
named after the file's stem; there a pre-filled row left exactly as it was (a pre-filled "No
span given" with no explanation) is not reviewed: a comment marks it reviewed.

:func:`score` gives, per judge, the share of its spans that are real errors (``Error`` among
the reviewed spans), the distribution of error marks, of explanation marks and of flags, with
percentile intervals from a cluster bootstrap over outputs (one weights matrix,
:func:`hotelcheckspan.metrics.resampling.matrix`, resampling outputs, shared by every share), and
the agreement of reviewers on spans reviewed more than once: Cohen's kappa (scikit-learn) on the
first two reviewers of each span (by name) and per pair of reviewers, and, over all of a span's
reviewers, Fleiss' kappa and Gwet's AC1 (:mod:`hotelcheckspan.metrics.coefficients`, with every
category of the field's list counting in AC1's chance term).

A span reviewed twice counts once in the shares: its value is the share of its reviewers who
gave the mark.
"""

from __future__ import annotations

import itertools
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from ..corpora import KEY
from ..corpora.problems import CorpusError, Problem, errors
from ..corpora.problems import warning as warning_problem
from ..metrics import coefficients, resampling
from . import sheet as S

NOT_REVIEWED = "not-reviewed"  # the warning class counting a sheet's unreviewed rows


def frame_columns(flags: list[str]) -> list[str]:
    """The columns of :func:`read_reviews`' frame for an export with these flag columns."""
    return [
        "row_id",
        "output_id",
        "evaluator",
        "judge",
        "reviewer",
        *KEY,
        "type",
        "text",
        "error_mark",
        "explanation_mark",
        *flags,
        "comments",
        "file",
        "line",
    ]


def _load_key(path: Path) -> tuple[dict | None, list[Problem]]:
    name = str(path)
    try:
        key = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, [Problem(name, 0, "", "no such key file")]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        return None, [Problem(name, 0, "", f"cannot read the key file ({type(err).__name__}: {err})")]
    fmt = key.get("format") if isinstance(key, dict) else None
    if isinstance(fmt, str) and fmt.startswith(S.KEY_FORMAT.rsplit("/", 1)[0] + "/") and fmt != S.KEY_FORMAT:
        return None, [
            Problem(
                name,
                0,
                "format",
                f"a key of format {fmt!r}; this version reads {S.KEY_FORMAT!r} (the sheet's flags and rules): "
                "export again",
            )
        ]
    if fmt != S.KEY_FORMAT:
        return None, [Problem(name, 0, "format", f"not a review key (its format is not {S.KEY_FORMAT!r})")]
    for part in ("export_id", "flags", "evaluators", "outputs", "rows"):
        if part not in key:
            return None, [Problem(name, 0, part, "missing from the key file")]
    flags = key["flags"]
    if not isinstance(flags, dict) or not flags or any(f not in S.FLAGS for f in flags):
        known = ", ".join(S.FLAGS)
        return None, [Problem(name, 0, "flags", f"not the sheet's flags (column: label; columns among {known})")]
    return key, []


def _find_key(sheet_path: Path) -> Path | None:
    """``OUT.key.json`` beside the sheet, else the only ``*.key.json`` in its folder."""
    beside = S.key_path(sheet_path)
    if beside.is_file():
        return beside
    found = sorted(sheet_path.parent.glob("*.key.json"))
    return found[0] if len(found) == 1 else None


def _value(value: str, allowed: list[str]) -> str | None:
    """A review value as the sheet lists it: ``""`` when blank, the value when it is exactly one
    of ``allowed`` (spaces around it aside), else None."""
    value = value.strip()
    return "" if not value else value if value in allowed else None


def _refusal(value: str, allowed: list[str], flag: bool) -> str:
    """Why a value is refused, and the value meant where it is plain (another letter case or
    spacing; for a flag, a word for no)."""
    value = value.strip()
    said = f"{value!r} is not {S.YES!r} or blank" if flag else f"{value!r} is not one of {', '.join(allowed)}"
    flat = " ".join(value.split()).casefold()
    meant = next((a for a in allowed if a.casefold() == flat), None)
    if meant is not None:
        return f"{said} (write {meant!r}: values are exactly as the sheet lists them)"
    if flag and flat in {"no", "n", "false", "0", "-"}:
        return f"{said} (leave a flag blank for no)"
    return said


def read_reviews(paths, key=None) -> tuple[pd.DataFrame, list[Problem]]:
    """Completed review sheets (a path or several) checked and de-anonymised with the export's
    key (``key``: its path; default: ``OUT.key.json`` beside each sheet, or the only key file in
    the sheet's folder). Returns one row per reviewed span and reviewer, columns
    :func:`frame_columns` of the export's flags (``judge``: the campaign behind the evaluator;
    flags as booleans; ``explanation_mark`` blank for "No span given" without one), and the
    warnings; raises :class:`~hotelcheckspan.corpora.CorpusError` listing every error of every
    sheet."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if not paths:
        raise ValueError("no review sheet given")
    problems: list[Problem] = []
    keys: dict[Path, dict | None] = {}
    sheet_keys: list[Path | None] = []
    for p in map(Path, paths):
        kp = Path(key) if key is not None else _find_key(p)
        if kp is None:
            problems.append(
                Problem(str(p), 0, "", f"no key file beside it ({S.key_path(p).name}): pass the export's key")
            )
        elif kp not in keys:
            keys[kp], found = _load_key(kp)
            problems += found
        sheet_keys.append(kp)
    exports = {k["export_id"]: kp for kp, k in keys.items() if k is not None}
    if len(exports) > 1:
        problems.append(
            Problem(
                str(paths[0]),
                0,
                "",
                f"the sheets come from {len(exports)} exports (keys {', '.join(map(str, exports.values()))}): "
                "score one export at a time",
            )
        )
    records: list[dict] = []
    seen_by: dict[tuple[str, str], str] = {}
    for p, kp in zip(map(Path, paths), sheet_keys):
        sheet = S.read_sheet(p)
        problems += sheet.problems
        k = keys.get(kp) if kp is not None else None
        if sheet.problems or k is None:
            continue
        records += _check_sheet(sheet, k, problems, seen_by)
    errs = errors(problems)
    if errs:
        raise CorpusError(errs, "the review sheets")
    flags = list(next(k for k in keys.values() if k is not None)["flags"])
    frame = pd.DataFrame(records, columns=frame_columns(flags))
    for flag in flags:
        frame[flag] = frame[flag].astype(bool)
    return frame, problems


def _check_sheet(sheet: S.Sheet, key: dict, problems: list[Problem], seen_by: dict) -> list[dict]:
    """The reviewed rows of one sheet; its defects appended to ``problems``."""
    name = sheet.path
    if sheet.export_id is not None and sheet.export_id != key["export_id"]:
        problems.append(
            Problem(name, 0, "", f"this sheet is of export {sheet.export_id}, the key of export {key['export_id']}")
        )
        return []
    flags = list(key["flags"])
    allowed = S.allowed_values(flags)
    required = ["row_id", "text", *S.MARK_COLUMNS, *flags]
    missing = [c for c in required if c not in sheet.columns]
    for col in missing:
        problems.append(Problem(name, sheet.header_line, col, "column missing from the header"))
    if missing:
        return []
    has_reviewer = "reviewer" in sheet.columns
    anonymous_reviewer = Path(name).stem  # one reviewer per file when the sheet has no reviewer column
    rows_key, evaluators, outputs = key["rows"], key["evaluators"], key["outputs"]
    first_line: dict[str, int] = {}
    out, unreviewed, total = [], 0, 0
    for row in sheet.rows.to_dict("records"):
        line = int(row["line"])
        values = {c: str(row.get(c, "") or "") for c in [*required, "comments", "reviewer", "type"]}
        rid = values["row_id"].strip()
        reviewer = values["reviewer"].strip()
        found: list[Problem] = []

        def report(col: str, message: str) -> None:
            found.append(Problem(name, line, col, sheet.cell(col, line) + message))

        if not rid:
            if any(values[c].strip() for c in [*S.MARK_COLUMNS, *flags, "comments", "reviewer"]):
                report("row_id", "a row with review values but no row_id")
            problems.extend(found)
            continue
        if rid not in rows_key:
            report("row_id", f"row {rid!r} is not in export {key['export_id']}")
        elif rid in first_line:
            report("row_id", f"row {rid} appears again (first on line {first_line[rid]})")
        if found:
            problems.extend(found)
            continue
        first_line[rid] = line
        total += 1
        spec = rows_key[rid]
        if S.text_hash(values["text"]) != spec.get("text_hash"):
            report("text", f"the span's text of row {rid} is not the exported text: do not edit it")
        marks = {}
        for col in [*S.MARK_COLUMNS, *flags]:
            marks[col] = _value(values[col], allowed[col])
            if marks[col] is None:
                report(col, f"row {rid}: {_refusal(values[col], allowed[col], col in flags)}")
        error_mark, explanation = marks["error_mark"], marks["explanation_mark"]
        ticked = {f: marks[f] == S.YES for f in flags}
        prefilled = spec.get("prefilled", {})
        touched = bool(reviewer or values["comments"].strip() or explanation) or (
            error_mark != prefilled.get("error_mark", "")
            or any(ticked[f] != (prefilled.get(f) == S.YES) for f in flags)
        )
        if not touched:
            unreviewed += 1
            continue
        if has_reviewer and not reviewer:
            report("reviewer", f"row {rid} has review values but no reviewer")
        if error_mark == "":
            report("error_mark", f"row {rid} is reviewed but has no error mark (required)")
        if explanation == "" and error_mark not in ("", S.NO_SPAN, None):
            unless = f"required unless error_mark is {S.NO_SPAN!r}"
            report("explanation_mark", f"row {rid} has no explanation mark ({unless})")
        if error_mark is not None and explanation is not None:
            for col, message in S.inconsistencies(error_mark, explanation, ticked):
                report(col, f"row {rid}: {message}")
        who = reviewer if has_reviewer else anonymous_reviewer
        if (rid, who) in seen_by and not found:
            report("reviewer", f"row {rid} was reviewed by {who} before ({seen_by[(rid, who)]})")
        if found:
            problems.extend(found)
            continue
        seen_by[(rid, who)] = f"{name}:{line}"
        output = outputs.get(spec["output"], {})
        out.append(
            {
                "row_id": rid,
                "output_id": spec["output"],
                "evaluator": spec["evaluator"],
                "judge": evaluators.get(spec["evaluator"], spec["evaluator"]),
                "reviewer": who,
                **{k: output.get(k) for k in KEY},
                "type": values["type"],
                "text": values["text"],
                "error_mark": error_mark,
                "explanation_mark": explanation or pd.NA,
                **ticked,
                "comments": values["comments"].strip(),
                "file": name,
                "line": line,
            }
        )
    if unreviewed:
        problems.append(
            warning_problem(
                name, 0, "", f"{unreviewed} of {total} rows not reviewed (no reviewer, no mark)", NOT_REVIEWED
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# scoring


def _per_span(frame: pd.DataFrame, values: np.ndarray) -> tuple[pd.DataFrame, np.ndarray]:
    """Each span's value: the mean over its reviews (NaN reviews left out) of ``values``
    ((reviews, K), NaN where a review has no value); returns the spans (row_id, judge,
    output_id) and their (spans, K) values (NaN rows: no review has a value)."""
    cols = [f"v{k}" for k in range(values.shape[1])]
    data = pd.DataFrame(values, columns=cols).assign(row_id=frame["row_id"].to_numpy())
    means = data.groupby("row_id", sort=True)[cols].mean()
    spans = frame.drop_duplicates("row_id").set_index("row_id").loc[means.index, ["judge", "output_id"]]
    return spans.reset_index(), means.to_numpy(float)


def _shares(
    spans: pd.DataFrame,
    values: np.ndarray,
    labels: list[str],
    judges: list[str],
    outputs: list[str],
    boot: np.ndarray,
    level: float,
    what: str,
) -> pd.DataFrame:
    """Per judge and label, the share of spans with the label and its cluster-bootstrap interval:
    per output and judge, the label's sum and the count of spans with a value; a replicate
    weights the outputs (``boot``: (n_boot, outputs)). Columns ``judge, <what>, spans, count,
    share, low, high``."""
    j = pd.Categorical(spans["judge"], categories=judges).codes
    o = pd.Categorical(spans["output_id"], categories=outputs).codes
    has = ~np.isnan(values).all(axis=1)
    num = np.zeros((len(outputs), len(judges), len(labels)))
    den = np.zeros((len(outputs), len(judges)))
    np.add.at(num, (o[has], j[has]), np.nan_to_num(values[has]))
    np.add.at(den, (o[has], j[has]), 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        point = num.sum(0) / den.sum(0)[:, None]
        reps = np.einsum("bo,ojk->bjk", boot, num) / np.einsum("bo,oj->bj", boot, den)[:, :, None]
    rows = []
    for a, judge in enumerate(judges):
        for b, label in enumerate(labels):
            low, high = resampling.interval(reps[:, a, b], level)
            rows.append(
                {
                    "judge": judge,
                    what: label,
                    "spans": int(den[:, a].sum()),
                    "count": float(num[:, a, b].sum()),
                    "share": float(point[a, b]),
                    "low": low,
                    "high": high,
                }
            )
    return pd.DataFrame(rows, columns=["judge", what, "spans", "count", "share", "low", "high"])


def _indicators(series: pd.Series, labels: list) -> np.ndarray:
    """(reviews, labels) 0/1, NaN rows where the review has no value."""
    values = series.astype(object).where(series.notna(), "").to_numpy()
    out = (values[:, None] == np.array(labels, dtype=object)[None, :]).astype(float)
    out[values == ""] = np.nan
    return out


def score(frame: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95) -> dict[str, pd.DataFrame]:
    """Scores of completed reviews (:func:`read_reviews`' frame), as frames:

    ``judges``
        ``judge, evaluator, spans, reviews, outputs, reviewers, error_share, error_low,
        error_high``: the share of the judge's reviewed spans marked ``Error``.
    ``error_marks``, ``explanations``, ``flags``
        ``judge, mark|flag, spans, count, share, low, high``: the distribution of error marks
        (over reviewed spans), of explanation marks (over spans with one) and the share of spans
        with each flag (flags are not exclusive).
    ``agreement``
        ``field, spans, reviews, observed, cohen_kappa, fleiss_kappa, gwet_ac1`` per review field,
        on spans reviewed by two or more reviewers.
    ``agreement_pairs``
        ``field, reviewer_a, reviewer_b, spans, observed, cohen_kappa`` per pair of reviewers.

    Intervals: ``level`` percentile intervals of ``n_boot`` replicates resampling outputs
    (clusters of spans) with one shared weights matrix, seeded by ``seed``."""
    if n_boot < 1:
        raise ValueError(f"n_boot must be a positive whole number, not {n_boot}")
    judges = sorted(frame["judge"].unique())
    outputs = sorted(frame["output_id"].unique())
    boot = resampling.matrix(outputs, n_boot, seed)  # the outputs decide the replicates
    parts = {
        "error_marks": ("mark", frame["error_mark"], S.ERROR_MARKS),
        "explanations": ("mark", frame["explanation_mark"], S.EXPLANATION_MARKS),
    }
    out = {}
    for name, (what, series, labels) in parts.items():
        spans, values = _per_span(frame, _indicators(series, labels))
        out[name] = _shares(spans, values, labels, judges, outputs, boot, level, what)
    flags = _flags(frame)
    flag_values = frame[flags].to_numpy(float) if len(frame) else np.zeros((0, len(flags)))
    spans, values = _per_span(frame, flag_values)
    out["flags"] = _shares(spans, values, [S.FLAGS[f] for f in flags], judges, outputs, boot, level, "flag")
    errors_only = out["error_marks"][out["error_marks"]["mark"] == "Error"].set_index("judge")
    per_judge = frame.groupby("judge")
    head = pd.DataFrame(
        {
            "judge": judges,
            "evaluator": [per_judge.get_group(j)["evaluator"].iloc[0] for j in judges],
            "spans": [per_judge.get_group(j)["row_id"].nunique() for j in judges],
            "reviews": [len(per_judge.get_group(j)) for j in judges],
            "outputs": [per_judge.get_group(j)["output_id"].nunique() for j in judges],
            "reviewers": [per_judge.get_group(j)["reviewer"].nunique() for j in judges],
        }
    )
    head["error_share"] = errors_only["share"].reindex(judges).to_numpy()
    head["error_low"] = errors_only["low"].reindex(judges).to_numpy()
    head["error_high"] = errors_only["high"].reindex(judges).to_numpy()
    out = {"judges": head, **out}
    out["agreement"], out["agreement_pairs"] = agreement(frame)
    return out


def _flags(frame: pd.DataFrame) -> list[str]:
    """The flag columns of a :func:`read_reviews` frame (the export's flags), in the sheet's order."""
    return [f for f in S.FLAGS if f in frame.columns]


def fields(frame: pd.DataFrame) -> dict[str, list]:
    """The review fields of a frame and their categories (a flag's: False, True)."""
    marks = {"error_mark": S.ERROR_MARKS, "explanation_mark": S.EXPLANATION_MARKS}
    return marks | {f: [False, True] for f in _flags(frame)}


def _cohen(a: np.ndarray, b: np.ndarray, q: int) -> float:
    from sklearn.metrics import cohen_kappa_score

    if len(a) == 0:
        return float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(cohen_kappa_score(a, b, labels=list(range(q)), replace_undefined_by=np.nan))


def agreement(frame: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Reviewers' agreement per review field (:func:`fields`) on the spans two or more reviewers
    reviewed: ``(per field, per field and pair of reviewers)``, see :func:`score`."""
    multi = frame[frame.groupby("row_id")["reviewer"].transform("nunique") >= 2]
    multi = multi.sort_values(["row_id", "reviewer"]).drop_duplicates(["row_id", "reviewer"])
    reviewers = sorted(multi["reviewer"].unique())
    units = sorted(multi["row_id"].unique())
    u = pd.Categorical(multi["row_id"], categories=units).codes
    r = pd.Categorical(multi["reviewer"], categories=reviewers).codes
    rows, pairs = [], []
    for field, labels in fields(frame).items():
        codes = np.full((len(units), len(reviewers)), -1)
        value = multi[field].astype(object).to_numpy()
        code = np.array([labels.index(v) if v in labels else -1 for v in value], int)
        codes[u, r] = code
        counts = np.zeros((len(units), len(labels)), np.int64)
        rated = code >= 0
        np.add.at(counts, (u[rated], code[rated]), 1)
        two = counts.sum(axis=1) >= 2
        stats = coefficients.parts(counts[two]) if two.any() else {}
        first = np.full((len(units), 2), -1)
        ranked = multi.assign(_code=code)[rated].copy()
        ranked["_rank"] = ranked.groupby("row_id").cumcount()
        ranked = ranked[ranked["_rank"] < 2]
        first[pd.Categorical(ranked["row_id"], categories=units).codes, ranked["_rank"].to_numpy()] = ranked["_code"]
        both = (first >= 0).all(axis=1)
        rows.append(
            {
                "field": field,
                "spans": int(two.sum()),
                "reviews": int(counts[two].sum()),
                "observed": stats.get("pa", float("nan")),
                "cohen_kappa": _cohen(first[both, 0], first[both, 1], len(labels)),
                "fleiss_kappa": stats.get("fleiss_kappa", float("nan")),
                "gwet_ac1": stats.get("gwet_ac1", float("nan")),
            }
        )
        for (ia, a), (ib, b) in itertools.combinations(enumerate(reviewers), 2):
            shared = (codes[:, ia] >= 0) & (codes[:, ib] >= 0)
            if not shared.any():
                continue
            x, y = codes[shared, ia], codes[shared, ib]
            pairs.append(
                {
                    "field": field,
                    "reviewer_a": a,
                    "reviewer_b": b,
                    "spans": int(shared.sum()),
                    "observed": float(np.mean(x == y)),
                    "cohen_kappa": _cohen(x, y, len(labels)),
                }
            )
    return (
        pd.DataFrame(
            rows, columns=["field", "spans", "reviews", "observed", "cohen_kappa", "fleiss_kappa", "gwet_ac1"]
        ),
        pd.DataFrame(pairs, columns=["field", "reviewer_a", "reviewer_b", "spans", "observed", "cohen_kappa"]),
    )
