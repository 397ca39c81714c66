"""``hotelcheckspan`` command line: validate, standin, stats, f1, gamma.

Every failure prints one clear line per problem to stderr and exits 1; no tracebacks, no hangs.
Warnings (quirks of real exports that factgenie computes with) are counted on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pandas as pd
import yaml

from . import api, corpora
from .analyses import dataset_level
from .annotator_sets import parse_group
from .corpora import problems as severity
from .metrics import span_f1


class CliError(Exception):
    """A problem to report on one line, then exit 1."""


def _group(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_group(value)
    except ValueError as err:
        raise CliError(str(err)) from None


def _warn_count(warnings: list, what: str) -> None:
    if warnings:
        n = len(warnings)
        print(
            f"{n} warning{'s' if n != 1 else ''} in {what} (kept, as factgenie keeps them; "
            "`hotelcheckspan validate` lists them)",
            file=sys.stderr,
        )


def cmd_validate(args) -> int:
    corpus, problems = corpora.read_corpus(args.path)
    for p in problems:
        print(p.tagged())
    errs, warns = severity.errors(problems), severity.warnings(problems)
    if problems:
        print(severity.count(problems), file=sys.stderr)
    if errs or (warns and args.strict):
        return 1
    extra = f", {len(warns)} warning{'s' if len(warns) != 1 else ''}" if warns else ""
    print(f"ok: {len(corpus.examples)} examples, {len(corpus.records)} records, {len(corpus.spans)} spans{extra}")
    return 0


def _write_standin(out: Path, seed: int, force: bool) -> None:
    """Generate into a temporary folder beside ``out`` and move it into place only when complete."""
    # imported here, not at the top: the simulation pulls in rouge-score and nltk, which
    # validate, stats and f1 do not need and which would slow every command's start
    from .simulation import standin

    if out.exists() or out.is_symlink():
        if not out.is_dir():
            raise CliError(f"{out} exists and is not a folder")
        if any(out.iterdir()) and not force:
            raise CliError(f"{out} is not empty (use --force to replace it)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    old = None
    try:
        standin.generate(tmp, seed=seed)
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
            os.replace(out, old / "replaced")
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and (old / "replaced").exists() and not out.exists():
            os.replace(old / "replaced", out)  # put the previous folder back
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def cmd_standin(args) -> int:
    from .simulation.standin import SEED  # see _write_standin for why this import is here

    seed = SEED if args.seed is None else args.seed
    if seed < 0:
        raise CliError(f"--seed must be a non-negative integer, not {seed}")
    out = Path(args.out)
    _write_standin(out, seed, args.force)
    print(f"wrote the stand-in corpus (seed {seed}) to {out}")
    return 0


def _plain(value):
    """JSON-ready values: NaN and infinities become null (strict JSON has neither)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, pd.DataFrame):
        return _plain(value.astype(object).where(value.notna(), None).to_dict(orient="records"))
    if value is None or value is pd.NA:
        return None
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def cmd_stats(args) -> int:
    c = corpora.load(args.path)
    _warn_count(c.warnings, args.path)
    tables = {
        "overview_human": dataset_level.overview(c, "human"),
        "table2_human_types": dataset_level.type_distribution(c, "human"),
        "campaigns_all_examples": dataset_level.campaign_table(c),
    }
    if "stage2" in set(c.records["campaign"]):
        tables["campaigns_stage2_examples"] = dataset_level.campaign_table(
            c, dataset_level.stage2_examples(c), by_group=True
        )
    if args.json:
        print(json.dumps(_plain(tables), indent=1, allow_nan=False))
        return 0
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.precision", 2):
        for name, table in tables.items():
            print(f"== {name}")
            print(pd.Series(table).to_string() if isinstance(table, dict) else table.to_string(index=False))
            print()
    return 0


def cmd_f1(args) -> int:
    sides = [api.read_annotations(args.ref), api.read_annotations(args.hyp)]
    if args.ref == args.hyp:
        sides[1] = sides[0]
    errs = [p for s in sides for p in s.errors]
    if errs:
        raise corpora.CorpusError(list(dict.fromkeys(errs)), " and ".join(dict.fromkeys([args.ref, args.hyp])))
    for s in dict.fromkeys(id(s) for s in sides):
        side = next(x for x in sides if id(x) == s)
        _warn_count(side.warnings, str(side.path))
    try:
        result = api.span_f1(
            sides[0],
            sides[1],
            ref_group=_group(args.ref_group),
            hyp_group=_group(args.hyp_group),
            match=args.match,
            metric=args.metric,
            convention=args.convention,
            by_type=args.by_type,
            per_category=args.per_category,
        )
    except ValueError as err:
        if isinstance(err, corpora.CorpusError):
            raise
        raise CliError(str(err)) from None
    if args.json:
        print(json.dumps(_plain(result), allow_nan=False))
        return 0
    print(
        f"{args.match} match, {args.metric} metric, {span_f1.resolve(args.metric, args.convention)[1]} convention, "
        f"{result['examples']} examples, "
        f"{result['ref_count']} reference and {result['hyp_count']} hypothesis spans"
    )
    rows = [{"category": "all", **{k: result[k] for k in ("precision", "recall", "f1", "ref_count", "hyp_count")}}]
    rows += [{"category": cat, **vals} for cat, vals in result.get("by_type", {}).items()]
    print(pd.DataFrame(rows).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


def cmd_gamma(args) -> int:
    sides = [api.read_annotations(args.ref), api.read_annotations(args.hyp)]
    if args.ref == args.hyp:
        sides[1] = sides[0]
    errs = [p for s in sides for p in s.errors]
    if errs:
        raise corpora.CorpusError(list(dict.fromkeys(errs)), " and ".join(dict.fromkeys([args.ref, args.hyp])))
    for s in dict.fromkeys(id(s) for s in sides):
        _warn_count(next(x for x in sides if id(x) == s).warnings, str(next(x for x in sides if id(x) == s).path))
    try:
        result = api.span_gamma(
            sides[0], sides[1], ref_group=_group(args.ref_group), hyp_group=_group(args.hyp_group), soft=args.soft
        )
    except ValueError as err:
        if isinstance(err, corpora.CorpusError):
            raise
        raise CliError(str(err)) from None
    if args.json:
        print(json.dumps(_plain(result), allow_nan=False))
        return 0

    def show(value):
        return "undefined" if value is None else f"{value:.3f}"

    print(f"{'soft' if args.soft else 'hard'} gamma, {result['examples']} examples")
    print(f"gamma    {show(result['gamma'])}  (mean over the {result['gamma_examples']} examples both sides marked)")
    print(f"S_empty  {show(result['s_empty'])}  (mean over the {result['s_empty_examples']} others)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hotelcheckspan", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check a corpus folder; list every error and warning")
    p.add_argument("path")
    p.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("standin", help="regenerate the bundled simulated corpus")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=None, help="default: the seed of the bundled corpus")
    p.add_argument("--force", action="store_true", help="replace a non-empty folder")
    p.set_defaults(func=cmd_standin)

    p = sub.add_parser("stats", help="dataset-level tables (Tables 2-4)")
    p.add_argument("path")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("f1", help="span-level precision/recall/F1 between two annotation files")
    p.add_argument("ref")
    p.add_argument("hyp")
    p.add_argument("--ref-group", default=None, help="annotator group of REF (default: all groups)")
    p.add_argument("--hyp-group", default=None, help="annotator group of HYP (default: all groups)")
    p.add_argument("--match", choices=["hard", "soft"], default="hard")
    p.add_argument(
        "--metric",
        choices=list(span_f1.METRICS),
        default="char",
        help="char: factgenie 1.2.1's character overlap (default); char-greedy: factgenie's May 2025 "
        "script; span: the share of spans that overlap a span of the other side",
    )
    p.add_argument(
        "--convention",
        choices=[*span_f1.CONVENTIONS, *span_f1.ALIASES],
        default=None,
        help="whose span lengths count: both (examples both sides marked; factgenie 1.2.1) or either "
        "(every example); default: the metric's own (both for char, either otherwise)",
    )
    p.add_argument("--by-type", action="store_true")
    p.add_argument(
        "--per-category",
        choices=["factgenie", "consistent"],
        default="factgenie",
        help="soft per-category definition (see the methods page)",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_f1)

    p = sub.add_parser("gamma", help="Mathet et al.'s gamma between two annotation files, as factgenie computes it")
    p.add_argument("ref")
    p.add_argument("hyp")
    p.add_argument("--ref-group", default=None, help="annotator group of REF (default: all groups)")
    p.add_argument("--hyp-group", default=None, help="annotator group of HYP (default: all groups)")
    p.add_argument(
        "--soft",
        action="store_true",
        help="soft gamma (a span may be aligned more than once; factgenie's --soft_gamma); default: hard",
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_gamma)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    prefix = f"hotelcheckspan {args.command}:"
    try:
        return args.func(args)
    except CliError as err:
        print(f"{prefix} {err}", file=sys.stderr)
    except corpora.CorpusError as err:
        print(f"{prefix} {err}", file=sys.stderr)
    except (corpora.CategoryMismatch, ValueError) as err:
        print(f"{prefix} {err}", file=sys.stderr)
    except OSError as err:
        where = f" {err.filename}" if err.filename else ""
        print(f"{prefix} cannot write or read{where}: {err.strerror or err}", file=sys.stderr)
    except (UnicodeError, yaml.YAMLError, RecursionError, MemoryError) as err:
        print(f"{prefix} {type(err).__name__}: {err}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{prefix} interrupted", file=sys.stderr)
        return 130
    return 1


if __name__ == "__main__":
    sys.exit(main())
