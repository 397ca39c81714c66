"""``hotelcheckspan review``: the review sheet out (``review export``) and completed sheets scored
(``review score``).

The main command line adds these with one call, ``review.command.add_parser(subparsers)``; bad
input raises :class:`ValueError` or :class:`~hotelcheckspan.corpora.CorpusError`, which it turns
into one line and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from ..plain import plain

SUFFIXES = (".xlsx", ".csv")


def cmd_export(args) -> int:
    """Write the review sheet of CORPUS's judges to OUT and its key beside it; say what was written.
    Files of an earlier export are replaced only with ``--force`` (checked before the corpus is read)."""
    from .sheet import export, refuse_to_replace

    root, out = Path(args.corpus), Path(args.out)
    if out.suffix.lower() not in SUFFIXES:
        raise ValueError(f"{out}: the review sheet must be an .xlsx or a .csv file")
    if args.sample is not None and args.sample < 1:
        raise ValueError(f"--sample must be a positive whole number, not {args.sample}")
    if not root.is_dir():
        raise ValueError(f"{root} is not a corpus folder")
    if not out.parent.is_dir():
        raise ValueError(f"{out.parent} is not a folder: cannot write {out.name} there")
    if not args.force:
        refuse_to_replace(out, "--force")
    from ..corpora import frame as F

    framed = F.load(
        root,
        task=args.task,
        split=args.split,
        campaigns=args.campaigns,
        reference=args.reference,
        exclude=args.exclude,
        roles=args.roles,
        pool=True,  # a sheet lists spans, each with its key: the splits side by side, said in the header
        texts=args.texts,
    )
    corpus = framed.corpus
    corpus.check_categories()  # one sheet, one list of categories: a task at a time
    if framed.selected.warnings:
        n = len(framed.selected.warnings)
        print(
            f"{n} warning{'s' if n != 1 else ''} in {args.corpus} (kept, as factgenie keeps them; "
            "`hotelcheckspan validate` lists them)",
            file=sys.stderr,
        )
    for line in framed.header():
        print(line, file=sys.stderr)
    result = export(corpus, out, judges=args.judges, sample=args.sample, seed=args.seed, force=args.force)
    print(result.describe())
    return 0


def _summary(frame: pd.DataFrame) -> dict:
    return {
        "reviews": len(frame),
        "spans": int(frame["row_id"].nunique()),
        "outputs": int(frame["output_id"].nunique()),
        "reviewers": int(frame["reviewer"].nunique()),
        "judges": int(frame["judge"].nunique()),
        "files": int(frame["file"].nunique()),
    }


def cmd_score(args) -> int:
    """Check and score completed review sheets; tables, or strict JSON with ``--json``."""
    from .scoring import read_reviews, score

    if args.n_boot < 1:
        raise ValueError(f"--n-boot must be a positive whole number, not {args.n_boot}")
    frame, problems = read_reviews(args.sheets, key=args.key)
    for p in problems:
        print(p.tagged(), file=sys.stderr)
    if frame.empty:
        raise ValueError("no reviewed row in the sheets (a reviewed row has a reviewer or a mark): nothing to score")
    tables = score(frame, n_boot=args.n_boot, seed=args.seed)
    summary = _summary(frame)
    if args.json:
        settings = {
            "command": "review score",
            "version": _version(),
            "sheets": [str(x) for x in args.sheets],
            "key": args.key,
            "resamples": args.n_boot,
            "seed": args.seed,
        }
        print(json.dumps(plain({"settings": settings, "summary": summary, **tables}), indent=1, allow_nan=False))
        return 0
    print(
        f"{summary['reviews']} reviews of {summary['spans']} spans ({summary['outputs']} outputs) by "
        f"{summary['reviewers']} reviewer{'s' if summary['reviewers'] != 1 else ''}, {summary['judges']} judges; "
        f"low/high: 95% intervals, {args.n_boot} bootstrap replicates over outputs"
    )
    three = lambda x: f"{x:.3f}"  # noqa: E731 (fixed decimals)
    for name, table in tables.items():
        print(f"\n== {name}")
        print(table.to_string(index=False, float_format=three) if len(table) else "(none: no span reviewed twice)")
    return 0


def _version() -> str:
    from ..cli_output import version

    return version()


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add ``review`` (with ``export`` and ``score``) to the main parser's sub-commands."""
    p = subparsers.add_parser("review", help="review LLM judges' spans: a sheet for reviewers, completed sheets scored")
    sub = p.add_subparsers(dest="review_command", required=True)

    e = sub.add_parser("export", help="write the judges' spans to a review sheet (.xlsx or .csv) and its key")
    e.add_argument("corpus", help="the corpus folder (factgenie layout)")
    e.add_argument("--judges", nargs="+", default=None, metavar="JUDGE", help="model campaigns (default: all)")
    e.add_argument("--sample", type=int, default=None, help="a stratified sample of N spans (judge x type)")
    e.add_argument("--seed", type=int, default=0, help="the evaluators' order and the sample (default 0)")
    e.add_argument("-o", "--out", required=True, help="OUT.xlsx or OUT.csv (the key goes to OUT.key.json)")
    e.add_argument(
        "--force",
        action="store_true",
        help="replace OUT, OUT.key.json (and OUT.outputs.csv) of an earlier export (default: refuse)",
    )
    from ..cli_args import frame_args, selection_args

    selection_args(e)
    frame_args(e, per=False)
    e.set_defaults(func=cmd_export)

    s = sub.add_parser("score", help="check completed review sheets and score the judges")
    s.add_argument("sheets", nargs="+", metavar="SHEET", help="completed sheets (.xlsx or .csv)")
    s.add_argument("--key", default=None, help="the export's key (default: SHEET's .key.json beside it)")
    s.add_argument("--n-boot", type=int, default=1000, help="bootstrap replicates of every interval (default 1000)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--json", action="store_true", help="strict JSON (no NaN: missing values are null)")
    s.set_defaults(func=cmd_score)
    return p
