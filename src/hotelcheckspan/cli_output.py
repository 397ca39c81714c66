"""What the command line prints: tables in one of five formats, the settings a result was
computed with, warnings with file, line and field, and progress bars.

Formats (``--format``): ``text`` (readers: a header saying what was compared, notes, then each
table with three decimals), ``csv`` and ``tsv`` (every table, each after a ``# NAME`` line, the
header and notes as ``#`` lines above; ``--table NAME`` prints one table and nothing else, the
header going to stderr), ``latex`` (booktabs tables, ``%`` comments) and ``json`` (strict JSON:
``settings``, then the command's own keys; undefined values are null). Numbers in csv and tsv
have six significant digits, so that nothing a CPU or BLAS threading can change is shown.
"""

from __future__ import annotations

import json
import sys

FORMATS = ("text", "csv", "tsv", "latex", "json")
SUMMARY_AFTER = 20  # more warnings than this are summarised per class and file (--verbose: all)


class OutputError(ValueError):
    """A request the output cannot satisfy (an unknown table name)."""


def version() -> str:
    """The installed package's version ("unknown" when it is run from a source tree only)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version

    try:
        return _version("hotelcheckspan")
    except PackageNotFoundError:
        return "unknown"


def chosen_format(args) -> str:
    """The format asked for: ``--json`` is ``--format json``; both with another format is an error."""
    fmt = getattr(args, "format", None)
    if getattr(args, "json", False):
        if fmt not in (None, "json"):
            raise OutputError(f"--json and --format {fmt} ask for two formats: give one")
        return "json"
    return fmt or "text"


def settings(args, **values) -> dict:
    """What a result was computed with, for its JSON: the command, the package version, the
    corpus selection (where the command reads a corpus) and the command's own options."""
    out = {"command": args.command, "version": version()}
    if hasattr(args, "task"):
        out["selection"] = {"task": args.task, "split": args.split, "campaigns": args.campaigns}
    return out | values


def as_frame(table):
    """A table as a frame: a frame as it is, a dict as ``name, value`` rows."""
    return _frame(table)


def _frame(table):
    import pandas as pd

    if isinstance(table, pd.DataFrame):
        return table
    if isinstance(table, dict):  # one value per row, each keeping its type (a count stays a whole number)
        return pd.DataFrame({"name": list(table), "value": pd.Series(list(table.values()), dtype=object)})
    return pd.DataFrame(table)


def _text_cell(value) -> str:
    import pandas as pd

    if value is None or (isinstance(value, float) or value is pd.NA) and pd.isna(value):
        return "–"
    if isinstance(value, float):
        return f"{round(value, 3) + 0.0:.3f}"  # never "-0.000"
    return str(value)


def text_table(table) -> str:
    """A table for readers: three decimals, "–" where a value is undefined."""
    frame = _frame(table)
    if frame.empty:
        return "(none)"
    return frame.astype(object).map(_text_cell).to_string(index=False)


def _machine(table, fmt: str, name: str) -> str:
    frame = _frame(table)
    if fmt == "latex":
        from .book.exports import to_latex

        return to_latex(frame, caption=name, label=name.replace("_", "-"), digits=3).rstrip("\n")
    return frame.to_csv(index=False, sep="\t" if fmt == "tsv" else ",", float_format="%.6g").rstrip("\n")


def emit(
    args,
    settings_: dict,
    *,
    lines=(),
    notes=(),
    tables: dict | None = None,
    data: dict | None = None,
    json_notes: bool = True,
    titles: dict | None = None,
    names=None,
) -> None:
    """Print a result in the chosen format: ``lines`` (what was compared), ``notes`` (what a
    reader must know: degenerate targets, what was left out), ``tables`` (name -> frame or dict)
    and, for JSON, ``data`` (default: the tables) after ``settings``, with ``notes`` unless
    ``json_notes`` is False (a result that is exactly the API's, whose settings say the rest).
    ``titles``: a table's heading for readers (text), by its name (what ``--table`` takes).

    The formats for readers (text, LaTeX) name judges, human sets and baseline metrics as the
    book does: by ``names``, the corpus' display names (:func:`hotelcheckspan.annotator_sets.names`),
    else by the rules that need no corpus; csv, tsv and JSON keep the machine ids a script selects by."""
    from .plain import plain

    fmt = chosen_format(args)
    tables = tables or {}
    if fmt in ("text", "latex"):
        lines, notes, tables = _for_readers(lines, notes, tables, names)
    if fmt == "json":
        payload = {"settings": settings_} | (data if data is not None else tables)
        if notes and json_notes:
            payload.setdefault("notes", list(notes))
        print(json.dumps(plain(payload), indent=1, allow_nan=False))
        return
    if fmt == "text":
        for line in lines:
            print(line)
        for note in notes:
            print(f"note: {note}")
        for name, table in tables.items():
            print(f"\n== {(titles or {}).get(name, name)}")
            print(text_table(table))
        return
    only = getattr(args, "table", None)
    if only is not None:
        if only not in tables:
            raise OutputError(f"no table {only!r} in this output (tables: {', '.join(tables)})")
        tables = {only: tables[only]}
        for line in [*lines, *(f"note: {n}" for n in notes)]:
            print(line, file=sys.stderr)
    comment = "%" if fmt == "latex" else "#"
    if only is None:
        for line in [*lines, *(f"note: {n}" for n in notes)]:
            print(f"{comment} {line}")
    for i, (name, table) in enumerate(tables.items()):
        if only is None:
            title = (titles or {}).get(name, name)
            print(f"{comment} == {name}" + (f": {title}" if title != name else ""))
        print(_machine(table, fmt, name))
        if i < len(tables) - 1:
            print()


def _for_readers(lines, notes, tables: dict, names):
    """Lines, notes and the text cells of tables with every judge, human set and baseline metric
    by its display name."""
    import pandas as pd

    from .annotator_sets import display_name
    from .metric_names import metric_name, metric_words

    rename = names if names is not None else display_name

    def cell(value, words=metric_words):
        return rename(words(value)) if isinstance(value, str) else value

    def table(frame):
        if not isinstance(frame, pd.DataFrame):
            return frame
        out = frame.copy()
        for col in out.columns:
            if out[col].dtype == object or pd.api.types.is_string_dtype(out[col]):
                # a metric column holds metric ids whole ("length"); elsewhere only ids no word can be
                out[col] = out[col].map(lambda v, c=col: cell(v, metric_name if c == "metric" else metric_words))
        return out

    return [cell(x) for x in lines], [cell(x) for x in notes], {k: table(v) for k, v in tables.items()}


# --- warnings ---------------------------------------------------------------------------------

CAUSES = {  # warning classes that name a cause, said once per file however many records they concern
    "orig-example": "records of {file} sit on the id of another example: their spans are in the text of the "
    "example their orig_example_idx names, not in their own (each counts on its own example_idx, as "
    "factgenie counts it)",
    "other-example": "records of {file} sit on the id of another example: none of their spans is in their own "
    "example's text, all are in another example's (each counts on its own example_idx, as factgenie counts it)",
}


def causes(warnings) -> list[str]:
    """One line per file and cause class (:data:`CAUSES`): "N records of FILE sit on ..."."""
    from .corpora import problems as P

    lines = []
    for _, kind, file, n in P.summary([w for w in warnings if w.kind in CAUSES]):
        lines.append(f"{n} " + CAUSES[kind].format(file=file))
    return lines


def summary_lines(warnings) -> list[str]:
    """Warnings per class and file, each class with its first line as an example."""
    from .corpora import problems as P

    by_file: dict[str, dict[str, int]] = {}
    first: dict[tuple[str, str], str] = {}
    totals: dict[str, int] = {}
    for _, kind, file, n in P.summary(warnings):
        by_file.setdefault(file, {})[kind] = n
        totals[kind] = totals.get(kind, 0) + n
    for w in warnings:
        first.setdefault((w.file, w.kind or w.severity), w.tagged())

    def counts(d):
        return ", ".join(f"{k} {n}" for k, n in sorted(d.items(), key=lambda kv: (-kv[1], kv[0])))

    lines = [f"{len(warnings)} warnings by class and file (--verbose lists every line):"]
    lines += [f"  {file}: warning: {counts(d)}" for file, d in by_file.items()]
    lines.append(f"  total: {counts(totals)}")
    lines += causes(warnings)
    return lines


def list_warnings(warnings, verbose: bool) -> list[str]:
    """Every warning as ``FILE:LINE: warning: FIELD: message [class]``; beyond
    :data:`SUMMARY_AFTER` (and without ``verbose``) a summary per class and file instead."""
    if not warnings:
        return []
    if verbose or len(warnings) <= SUMMARY_AFTER:
        return [w.tagged() for w in warnings] + causes(warnings)
    return summary_lines(warnings)


def report_file_warnings(warnings, verbose: bool) -> None:
    """Warnings of files ``validate`` cannot take (a scores file, a lone annotation file),
    printed on stderr with file, line and field."""
    for line in list_warnings(list(warnings), verbose):
        print(line, file=sys.stderr)


def report_corpus_warnings(corpus, args) -> None:
    """A corpus' warnings on stderr: every line with ``--verbose``, else their count with the
    ``validate`` command that lists them (with the same selection) and one line per cause."""
    warnings = list(corpus.warnings)
    if not warnings:
        return
    if getattr(args, "verbose", False):
        for line in list_warnings(warnings, True):
            print(line, file=sys.stderr)
        return
    n = len(warnings)
    select = f" --task {args.task}" if getattr(args, "task", None) else ""
    select += "".join(f" --split {v}" for v in getattr(args, "split", None) or [])
    select += "".join(f" --campaign {v}" for v in getattr(args, "campaigns", None) or [])
    print(
        f"{n} warning{'s' if n != 1 else ''} in {corpus.root} (kept, as factgenie keeps them; --verbose lists "
        f"them here, as hotelcheckspan validate {corpus.root}{select} does)",
        file=sys.stderr,
    )
    for line in causes(warnings):
        print(line, file=sys.stderr)


def report_left_out(corpus) -> list[str]:
    """Notes naming the campaigns with no records a computation leaves out (a config and no
    annotation file, or an empty one); the frame's header names the others it leaves out."""
    out = []
    for name in corpus.empty_campaigns():
        folder = corpus.campaign_folders.get(name, name)
        out.append(f"left out: campaign {name} ({folder}/ has no annotation record: a config only, or an empty file)")
    return out


# --- progress -----------------------------------------------------------------------------------


def progress_wanted(args) -> bool:
    """A progress bar on stderr: with ``--progress``; by default where stderr is a terminal and
    the output is not JSON (never with ``--no-progress``)."""
    choice = getattr(args, "progress", None)
    if choice is not None:
        return choice
    return chosen_format(args) != "json" and sys.stderr.isatty()
