"""``hotelcheckspan`` command line: validate, standin, stats, f1.

Every failure prints one clear line per problem to stderr and exits non-zero; no tracebacks.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from . import corpora
from .analyses import dataset_level
from .annotator_sets import AnnotatorSet, parse_group
from .corpora import KEY
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


def cmd_validate(args) -> int:
    problems = corpora.validate(args.path)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    c = corpora.load(args.path)
    print(f"ok: {len(c.examples)} examples, {len(c.records)} records, {len(c.spans)} spans")
    return 0


def cmd_standin(args) -> int:
    # imported here, not at the top: the simulation pulls in rouge-score and nltk, which
    # validate, stats and f1 do not need and which would slow every command's start
    from .simulation import standin

    out = Path(args.out)
    if out.exists() and any(out.iterdir()) and not args.force:
        raise CliError(f"{out} is not empty (use --force to overwrite)")
    seed = standin.SEED if args.seed is None else args.seed
    standin.generate(out, seed=seed)
    print(f"wrote the stand-in corpus (seed {seed}) to {out}")
    return 0


def _json_ready(df: pd.DataFrame) -> list[dict]:
    return json.loads(df.to_json(orient="records"))


def cmd_stats(args) -> int:
    c = corpora.load(args.path)
    tables = {
        "overview_human": dataset_level.overview(c, "human"),
        "table2_human_types": dataset_level.type_distribution(c, "human"),
        "campaigns_all_examples": dataset_level.campaign_table(c),
    }
    if "stage2" in set(c.records["campaign"]):
        tables["campaigns_stage2_examples"] = dataset_level.campaign_table(c, dataset_level.stage2_examples(c), by_group=True)
    if args.json:
        print(json.dumps({k: v if isinstance(v, dict) else _json_ready(v) for k, v in tables.items()}, indent=1))
        return 0
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.precision", 2):
        for name, table in tables.items():
            print(f"== {name}")
            print(pd.Series(table).to_string() if isinstance(table, dict) else table.to_string(index=False))
            print()
    return 0


def _side(path: str, group: int | None):
    records, span_frame, categories, problems = corpora.read_annotation_file(path)
    if problems:
        more = f" (and {len(problems) - 1} more problem(s) in the file)" if len(problems) > 1 else ""
        raise CliError(f"{problems[0]}{more}")
    if group is not None:
        annotators = AnnotatorSet(str(Path(path).parent.name), group)
        records, span_frame = annotators.filter(records), annotators.filter(span_frame)
    return records, span_frame, categories


def cmd_f1(args) -> int:
    ref_rec, ref_spans, ref_cats = _side(args.ref, _group(args.ref_group))
    hyp_rec, hyp_spans, hyp_cats = _side(args.hyp, _group(args.hyp_group))
    if ref_cats != hyp_cats:
        raise CliError(f"the two campaigns' categories differ: {ref_cats} vs {hyp_cats}")
    examples = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
    if examples.empty:
        raise CliError("no example has a record on both sides (check the files and --ref-group/--hyp-group)")
    table = span_f1.span_f1(ref_spans, hyp_spans, examples, match=args.match, metric=args.metric,
                            convention=args.convention, by_type=args.by_type, per_category=args.per_category,
                            categories=ref_cats)
    overall = table.iloc[0]
    result = {"precision": float(overall["precision"]), "recall": float(overall["recall"]),
              "f1": float(overall["f1"]), "ref_count": int(overall["ref_count"]),
              "hyp_count": int(overall["hyp_count"]), "examples": int(len(examples))}
    if args.by_type:
        result["by_type"] = {
            r.category: {"precision": float(r.precision), "recall": float(r.recall), "f1": float(r.f1),
                         "ref_count": int(r.ref_count), "hyp_count": int(r.hyp_count)}
            for r in table.iloc[1:].itertuples()
        }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{args.match} match, {args.metric} metric, {span_f1.resolve(args.metric, args.convention)[1]} convention, "
          f"{result['examples']} examples, "
          f"{result['ref_count']} reference and {result['hyp_count']} hypothesis spans")
    cols = ["category", "precision", "recall", "f1", "ref_count", "hyp_count"]
    print(table[cols].to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hotelcheckspan", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check a factgenie-layout corpus; list every problem")
    p.add_argument("path")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("standin", help="regenerate the bundled simulated corpus")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=None, help="default: the seed of the bundled corpus")
    p.add_argument("--force", action="store_true", help="write into a non-empty folder")
    p.set_defaults(func=cmd_standin)

    p = sub.add_parser("stats", help="dataset-level tables (Tables 2-4)")
    p.add_argument("path")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("f1", help="span-level precision/recall/F1 between two annotations.jsonl files")
    p.add_argument("ref")
    p.add_argument("hyp")
    p.add_argument("--ref-group", default=None, help="annotator group of REF (default: all groups)")
    p.add_argument("--hyp-group", default=None, help="annotator group of HYP (default: all groups)")
    p.add_argument("--match", choices=["hard", "soft"], default="hard")
    p.add_argument("--metric", choices=list(span_f1.METRICS), default="char",
                   help="char: factgenie 1.2.1's character overlap (default); char-greedy: factgenie's May 2025 "
                        "script; span: the share of spans that overlap a span of the other side")
    p.add_argument("--convention", choices=[*span_f1.CONVENTIONS, *span_f1.ALIASES], default=None,
                   help="whose span lengths count: both (examples both sides marked; factgenie 1.2.1) or either "
                        "(every example); default: the metric's own (both for char, either otherwise)")
    p.add_argument("--by-type", action="store_true")
    p.add_argument("--per-category", choices=["factgenie", "consistent"], default="factgenie",
                   help="soft per-category definition (see the methods page)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_f1)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CliError as err:
        print(f"hotelcheckspan {args.command}: {err}", file=sys.stderr)
    except corpora.CorpusError as err:
        print(f"hotelcheckspan {args.command}: {err}", file=sys.stderr)
    except (FileNotFoundError, NotADirectoryError, PermissionError) as err:
        print(f"hotelcheckspan {args.command}: {err}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
