"""``hotelcheckspan`` command line: validate, campaigns, standin, stats, f1, gamma, pearson, judge, metric,
baselines, review.

Every failure prints one clear line per problem to stderr and exits 1; no tracebacks, no hangs.
Warnings (quirks of real exports that factgenie computes with) are counted on stderr.
"""

from __future__ import annotations

import argparse
import json
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
from .plain import plain
from .review import command as review_command


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


SUMMARY_AFTER = 20  # with more warnings than this, validate summarises them per class and file


def _warning_summary(warns: list) -> list[str]:
    """One line per file (warnings per class) and a line of totals per class."""
    by_file: dict[str, dict[str, int]] = {}
    totals: dict[str, int] = {}
    for _, kind, file, n in severity.summary(warns):
        by_file.setdefault(file, {})[kind] = n
        totals[kind] = totals.get(kind, 0) + n

    def counts(d):
        return ", ".join(f"{k} {n}" for k, n in sorted(d.items(), key=lambda kv: (-kv[1], kv[0])))

    lines = [f"{len(warns)} warnings by class and file (--verbose lists every line):"]
    lines += [f"  {file}: warning: {counts(d)}" for file, d in by_file.items()]
    lines.append(f"  total: {counts(totals)}")
    return lines


def cmd_validate(args) -> int:
    corpus, problems = corpora.read_corpus(args.path)
    errs, warns = severity.errors(problems), severity.warnings(problems)
    summarise = len(warns) > SUMMARY_AFTER and not args.verbose
    for p in errs if summarise else problems:
        print(p.tagged())
    if summarise:
        print("\n".join(_warning_summary(warns)))
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
        print(json.dumps(plain(tables), indent=1, allow_nan=False))
        return 0
    with pd.option_context("display.width", 200, "display.max_columns", 30, "display.precision", 2):
        for name, table in tables.items():
            print(f"== {name}")
            three = lambda x: f"{x:.3f}"  # noqa: E731 (fixed decimals: never 5.61e-01)
            print(
                pd.Series(table).to_string(float_format=three)
                if isinstance(table, dict)
                else table.to_string(index=False, float_format=three)
            )
            print()
    return 0


def _side_words(side: dict) -> str:
    """One side of a comparison for readers: its file and which of its groups."""
    groups = side["groups"]
    chosen = (
        f"group {side['group']} of {len(groups)}"
        if side["group"] is not None
        else f"{len(groups)} groups pooled ({', '.join(groups)})"
        if len(groups) > 1
        else f"its one group ({groups[0]})"
        if groups
        else "no group"
    )
    return f"{side['file']}, {chosen}"


def cmd_f1(args) -> int:
    result = _compared(
        args,
        api.span_f1,
        match=args.match,
        metric=args.metric,
        convention=args.convention,
        by_type=args.by_type,
        per_category=args.per_category,
    )
    if args.json:
        print(json.dumps(plain(result), allow_nan=False))
        return 0
    print(
        f"{args.match} match, {args.metric} metric, {span_f1.resolve(args.metric, args.convention)[1]} convention, "
        f"{result['examples']} examples, "
        f"{result['ref_count']} reference and {result['hyp_count']} hypothesis spans"
    )
    print(" · ".join(f"{side}: {_side_words(result['compared'][side])}" for side in ("reference", "hypothesis")))
    rows = [{"category": "all", **{k: result[k] for k in ("precision", "recall", "f1", "ref_count", "hyp_count")}}]
    rows += [{"category": cat, **vals} for cat, vals in result.get("by_type", {}).items()]
    print(pd.DataFrame(rows).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


def _judge_text(result: dict) -> str:
    """``judge`` for readers: the judge's rows of Tables 3, 5 and 6, its BACC and its rank."""
    digits = lambda x: f"{x:.3f}"  # noqa: E731
    bacc, rank = result["bacc"], {k: "unranked" if v is None else v for k, v in result["rank"].items()}
    bacc = {k: "undefined" if v is None or pd.isna(v) else f"{v:.3f}" for k, v in bacc.items() if k != "reason"}
    t3 = result["table3"]
    if not result["in_paper"]:  # its paper columns would be empty: the first line says so
        t3 = t3[[c for c in t3.columns if not str(c).startswith("paper ")]]
    cmp = result["compared"]
    refs = cmp["references"]
    ceiling = cmp["ceiling"]
    lines = [
        f"judge {result['judge']}" + ("" if result["in_paper"] else " (not in the paper)"),
        f"compared with: {len(refs)} human annotator set{'s' if len(refs) != 1 else ''} "
        f"({', '.join(refs[:8])}{', ...' if len(refs) > 8 else ''}) of {', '.join(cmp['human_campaigns'])}, "
        f"{cmp['human_records']} human records on the {cmp['examples']} examples compared; "
        f"{cmp['judge_examples']} of them shared with the judge "
        f"({cmp['examples_rule']})",
        f"span F1: {cmp['f1']['definition']}",
        f"human majority: {cmp['majority']['rule']}; {cmp['majority']['single_rater_examples']} examples have "
        "one human set",
        "human ceiling: "
        + (
            f"every pair of human sets sharing examples ({ceiling['pairs']} pair{'s' if ceiling['pairs'] != 1 else ''})"
            if ceiling["defined"]
            else f"none ({ceiling['reason']})"
        ),
        f"rank among the corpus' {rank['of']} judges: {rank['soft']} by soft span F1, {rank['hard']} by hard, "
        f"{rank['bacc']} by balanced accuracy",
        f"balanced accuracy against the human majority (any error): {bacc['estimate']} [{bacc['low']}, {bacc['high']}]"
        + (f" ({result['bacc']['reason']})" if result["bacc"]["reason"] else ""),
        *(
            ["it shares no example with the human annotators among those judges are compared on: unranked"]
            if len(result["table6"]) and (result["table6"]["pairs"] == 0).all()
            else []
        ),
        "",
        "== Table 3 (spans, density, length, types)",
        t3.to_string(index=False, float_format=lambda x: f"{x:.2f}"),
        "",
        "== Table 5 (against the clear human majority; _low/_high: 95% interval)",
        result["table5"]
        .drop(columns=["model"])[
            [
                "label",
                "examples",
                "majority_errors",
                "model_errors",
                "agreement",
                "agreement_low",
                "agreement_high",
                "bacc",
                "bacc_low",
                "bacc_high",
            ]
        ]
        .to_string(index=False, float_format=digits),
        "",
        "== Table 6 (span P/R/F1 averaged over pairs; _low/_high: 95% interval)",
        result["table6"][["comparison", "match", "pairs", "precision", "recall", "f1", "f1_low", "f1_high"]].to_string(
            index=False, float_format=digits
        ),
        "",
        "== Leaderboard (ranked by soft span F1)",
        result["leaderboard"][["rank", "judge", "f1_soft", "f1_hard", "bacc"]].to_string(
            index=False, float_format=digits
        ),
    ]
    return "\n".join(lines)


def cmd_judge(args) -> int:
    root = Path(args.corpus)
    if args.n_boot < 1:
        raise CliError(f"--n-boot must be a positive whole number, not {args.n_boot}")
    if not root.is_dir():
        raise CliError(f"{root} is not a corpus folder")
    corpus, name = api.resolve_judge(root, args.campaign)
    added = corpus.campaign_folders.get(name, "").startswith(f"{corpora.ADDED}/")
    _warn_count(corpus.warnings, args.corpus + (f" and {args.campaign}" if added else ""))
    result = api.evaluate_judge(corpus, name, n_boot=args.n_boot, seed=args.seed)
    if args.json:
        print(json.dumps(plain(result), indent=1, allow_nan=False))
        return 0
    print(_judge_text(result))
    return 0


def cmd_campaigns(args) -> int:
    corpus = corpora.load(args.path)
    _warn_count(corpus.warnings, args.path)
    table = corpus.campaign_table()
    if args.json:
        print(json.dumps(plain(table), indent=1, allow_nan=False))
        return 0
    print(table.to_string(index=False))
    print(f"\nnames: {corpora.NAME_RULE.splitlines()[0]} ... (see the methods page)")
    return 0


def _metric_text(v) -> str:
    """A metric validation for readers: per target, the metrics ranked by the primary statistic
    (Kendall tau-b; ROC AUC for the majority), with intervals, the random baseline and the ceiling."""
    from .analyses import metric_validation as mv

    c = v.compared
    lines = [
        f"{c['examples']:,} examples with a human target ({c['human_records']:,} human records; "
        f"{c['human_records_without_text']:,} on examples without a text left out); the human ceiling on the "
        f"{c['ceiling_examples']:,} examples with two or more; {c['resamples']:,} bootstrap resamples shared by "
        f"every metric; {c['orientation']}",
    ]
    for target in c["targets"]:
        statistic = "roc_auc" if target == "majority" else "kendall_tau_b"
        board = mv.leaderboard(v, target, statistic)

        def three(x):  # never "-0.000"
            return f"{round(float(x), 3) + 0.0:.3f}"

        def cell(r):
            return "undefined" if pd.isna(r.value) else f"{three(r.value)} [{three(r.low)}, {three(r.high)}]"

        lines += ["", f"== {target}: {statistic} [95% CI] (random: the metric's own scores permuted)"]
        rows = [
            {
                "metric": r.metric,
                "kind": r.kind,
                statistic: cell(r),
                "random": "" if pd.isna(r.random) else three(r.random),
                "n": r.n,
                "cluster": "" if pd.isna(r.cluster) else int(r.cluster),
            }
            for r in board.itertuples()
        ]
        lines.append(pd.DataFrame(rows).to_string(index=False))
    return "\n".join(lines)


def cmd_metric(args) -> int:
    from .corpora.scores import read_scores

    if args.n_boot < 1:
        raise CliError(f"--n-boot must be a positive whole number, not {args.n_boot}")
    corpus = corpora.load(args.corpus)
    _warn_count(corpus.warnings, args.corpus)
    scores = None
    if args.scores is not None:
        scores = read_scores(args.scores, corpus, lower_is_better=args.lower_is_better or ())
        _warn_count(scores.problems, args.scores)
    result = api.evaluate_metric(
        corpus,
        scores,
        targets=args.target,
        with_judges=not args.no_judges,
        baselines=args.baselines or None,
        n_boot=args.n_boot,
        seed=args.seed,
    )
    if args.json:
        print(json.dumps(plain(result.to_json()), indent=1, allow_nan=False))
        return 0
    print(_metric_text(result))
    return 0


def cmd_baselines(args) -> int:
    from .corpora.scores import write_scores
    from .metrics import baselines

    corpus = corpora.load(args.corpus)
    _warn_count(corpus.warnings, args.corpus)
    frame = baselines.baselines(corpus, args.only or None, progress=True)  # the bar on stderr, the file where -o says
    out = write_scores(frame, args.out)
    print(f"wrote {len(frame.columns) - 4} baselines on {len(frame):,} examples to {out}")
    return 0


def _read_sides(ref: str, hyp: str) -> list:
    """Both annotation files read once (the same file once), errors raised, warnings counted."""
    sides = [api.read_annotations(ref)]
    sides.append(sides[0] if hyp == ref else api.read_annotations(hyp))
    errs = [p for s in sides for p in s.errors]
    if errs:
        raise corpora.CorpusError(list(dict.fromkeys(errs)), " and ".join(dict.fromkeys([ref, hyp])))
    for side in {id(s): s for s in sides}.values():
        _warn_count(side.warnings, str(side.path))
    return sides


def _compared(args, measure, **options) -> dict:
    """``measure`` (``api.span_f1``, ``span_gamma`` or ``span_pearson``) of HYP against REF: both
    files read once, their warnings counted, the groups passed as written (so that an absent group
    is named as the user named it) and a ValueError turned into one clear line. A side whose
    groups are pooled is said on stderr (the result's ``compared`` says it too)."""
    sides = _read_sides(args.ref, args.hyp)
    _group(args.ref_group), _group(args.hyp_group)  # a value that is no group at all: one clear line
    try:
        result = measure(sides[0], sides[1], ref_group=args.ref_group, hyp_group=args.hyp_group, **options)
    except ValueError as err:
        if isinstance(err, corpora.CorpusError):
            raise
        raise CliError(str(err)) from None
    for name, flag in (("reference", "--ref-group"), ("hypothesis", "--hyp-group")):
        side = result["compared"][name]
        if side["group"] is None and len(side["groups"]) > 1:
            print(
                f"{name} {side['file']}: its {len(side['groups'])} annotator groups are pooled, as factgenie "
                f"pools them ({flag} chooses one)",
                file=sys.stderr,
            )
    return result


def cmd_gamma(args) -> int:
    result = _compared(args, api.span_gamma, soft=args.soft)
    if args.json:
        print(json.dumps(plain(result), allow_nan=False))
        return 0

    def show(value):
        return "undefined" if value is None else f"{value:.3f}"

    print(f"{'soft' if args.soft else 'hard'} gamma, {result['examples']} examples")
    print(f"gamma    {show(result['gamma'])}  (mean over the {result['gamma_examples']} examples both sides marked)")
    print(f"S_empty  {show(result['s_empty'])}  (mean over the {result['s_empty_examples']} others)")
    return 0


def cmd_pearson(args) -> int:
    result = _compared(args, api.span_pearson)
    if args.json:
        print(json.dumps(plain(result), allow_nan=False))
        return 0
    print(f"Pearson's r of per-example error counts (factgenie iaa pearson), {result['examples']} examples")
    rows = [
        {"category": "micro", "r": result["micro_pearson"], "p": result["micro_p_value"]},
        {"category": "macro", "r": result["macro_pearson"], "p": result["macro_p_value"]},
    ]
    rows += [{"category": cat, "r": v["pearson"], "p": v["p_value"]} | v for cat, v in result["by_type"].items()]
    table = pd.DataFrame(rows).drop(columns=["pearson", "p_value"])
    table = table.astype({"ref_count": "Int64", "hyp_count": "Int64"}).astype(object)
    table["p"] = [p if pd.isna(p) else "<0.001" if p < 0.001 else f"{p:.3f}" for p in table["p"]]
    print(table.where(table.notna(), "–").to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    return 0


def _pair_parser(sub, name: str, help: str, func) -> argparse.ArgumentParser:
    """A command comparing two annotation files (REF, HYP), optionally one group of each."""
    p = sub.add_parser(name, help=help)
    p.add_argument("ref")
    p.add_argument("hyp")
    p.add_argument("--ref-group", default=None, help="annotator group of REF (default: all groups)")
    p.add_argument("--hyp-group", default=None, help="annotator group of HYP (default: all groups)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=func)
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hotelcheckspan", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check a corpus folder; list every error and warning")
    p.add_argument("path")
    p.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    p.add_argument(
        "--verbose",
        action="store_true",
        help=f"list every warning (by default, more than {SUMMARY_AFTER} are summarised per class and file)",
    )
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("campaigns", help="list a corpus' campaigns: name, kind, folder, records, groups, spans")
    p.add_argument("path")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_campaigns)

    p = sub.add_parser("standin", help="regenerate the bundled simulated corpus")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=None, help="default: the seed of the bundled corpus")
    p.add_argument("--force", action="store_true", help="replace a non-empty folder")
    p.set_defaults(func=cmd_standin)

    p = sub.add_parser("stats", help="dataset-level tables (Tables 2-4)")
    p.add_argument("path")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_stats)

    p = _pair_parser(sub, "f1", "span-level precision/recall/F1 between two annotation files", cmd_f1)
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

    p = sub.add_parser(
        "judge",
        help="score one LLM judge: its rows of Tables 3, 5 and 6, its balanced accuracy and its rank",
    )
    p.add_argument("corpus", help="the corpus folder (factgenie layout)")
    p.add_argument(
        "campaign",
        help="a model campaign of the corpus (its name, as `hotelcheckspan campaigns` lists it, or its folder), "
        "or the path of a factgenie campaign folder outside it, whatever its name (added as one)",
    )
    p.add_argument("--n-boot", type=int, default=1000, help="bootstrap replicates of every interval (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="strict JSON (no NaN: missing values are null)")
    p.set_defaults(func=cmd_judge)

    p = _pair_parser(
        sub, "gamma", "Mathet et al.'s gamma between two annotation files, as factgenie computes it", cmd_gamma
    )
    p.add_argument(
        "--soft",
        action="store_true",
        help="soft gamma (a span may be aligned more than once; factgenie's --soft_gamma); default: hard",
    )

    _pair_parser(sub, "pearson", "correlation of per-example error counts (factgenie iaa pearson)", cmd_pearson)
    p = sub.add_parser(
        "metric",
        help="validate automatic metrics against the human annotations (correlations, detection, system level, "
        "clusters, human ceiling, random baseline)",
    )
    p.add_argument("corpus", help="the corpus folder (factgenie layout)")
    p.add_argument(
        "scores",
        nargs="?",
        default=None,
        help="a scores file (CSV or JSON Lines: dataset, split, setup_id, example_idx and one column per metric); "
        "without it, the corpus' judges (and --baselines) are the metrics",
    )
    p.add_argument(
        "--target",
        action="append",
        default=None,
        help="a human target (errors, error_free, impression, majority, errors:<category>); repeat for several "
        "(default: errors, error_free, impression where the corpus has it, majority)",
    )
    p.add_argument(
        "--lower-is-better",
        action="append",
        default=None,
        metavar="NAME",
        help="a metric whose lower scores mean more faithful (repeat for several)",
    )
    p.add_argument("--no-judges", action="store_true", help="leave the corpus' LLM judges out of the metrics")
    p.add_argument("--baselines", action="store_true", help="add the built-in baselines (ROUGE, chrF, MiniLM, ...)")
    p.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples of every interval (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="strict JSON (undefined values are null)")
    p.set_defaults(func=cmd_metric)

    p = sub.add_parser(
        "baselines",
        help="write the built-in baselines of a corpus as a scores file",
        description="Write the built-in baselines of a corpus (ROUGE, chrF, MiniLM support, BERTScore, length) as a "
        "scores file.",
        epilog="MiniLM support and BERTScore run a transformer on the CPU (minutes on a thousand texts; a progress bar "
        "on stderr). Their results are cached per text in the folder baselines of the cache folder "
        "($HOTELCHECKSPAN_CACHE, else .cache/hotelcheckspan in the repository): a second run only reads them, and an "
        "interrupted run resumes where it stopped.",
    )
    p.add_argument("corpus")
    p.add_argument("-o", "--out", required=True, help="the scores file to write (.csv or .jsonl)")
    p.add_argument("--only", action="append", default=None, metavar="NAME", help="one baseline (repeat for several)")
    p.set_defaults(func=cmd_baselines)

    review_command.add_parser(sub)
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
    except Exception as err:  # noqa: BLE001 (a bug of ours, not of the input: one line, never a traceback)
        where = err.__traceback__
        while where.tb_next is not None:
            where = where.tb_next
        at = f"{Path(where.tb_frame.f_code.co_filename).name}:{where.tb_lineno}"
        print(
            f"{prefix} internal error ({type(err).__name__} at {at}: {err}); please report it with the command",
            file=sys.stderr,
        )
    return 1


if __name__ == "__main__":
    sys.exit(main())
