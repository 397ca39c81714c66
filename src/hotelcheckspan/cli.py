"""The hotelcheckspan command line: thin over the public API (``hotelcheckspan.api``).

Every failure prints one clear line per problem to stderr and exits 1; no tracebacks, no hangs.
Nothing heavy is imported until a command runs, so ``hotelcheckspan --help`` answers at once;
every command reads its corpus once, with the selection it was given (``--task``, ``--split``,
``--campaign``), and refuses to pool span categories that differ.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import sys
import tempfile
from pathlib import Path

from . import cli_args as args_
from . import cli_output as out
from .cli_output import SUMMARY_AFTER

# span F1's definitions, as metrics.span_f1 names them (a test checks that they agree; they are
# written here so that building the parser imports no numpy)
F1_METRICS = ("char", "char-greedy", "span")
F1_CONVENTIONS = ("both", "either")
F1_ALIASES = ("factgenie", "all")
CONVENTION_WORDS = {
    "both": "span lengths summed over the examples both sides marked",
    "either": "span lengths summed over every example either side marked",
}
# the methods page's name of each definition it lists (metrics.span_f1.DEFINITION_LABELS)
F1_DEFINITION_NAMES = {
    ("char", "both"): "factgenie 1.2.1",
    ("char", "either"): "every example's lengths",
    ("char-greedy", "either"): "factgenie May 2025",
    ("span", "either"): "span overlap (prose)",
}
METRIC_WORDS = {
    "char": "character overlap as factgenie 1.2.1 credits it",
    "char-greedy": "character overlap as factgenie's May 2025 script credits it (greedy)",
    "span": "the share of spans that overlap a span of the other side (the paper's prose)",
}

DESCRIPTION = (
    "Read factgenie annotation exports (any corpus, one task at a time) and compute span-level agreement, "
    "LLM judges' scores and metric validation as the HotelCheckSpan compendium does."
)
EPILOG = (
    "Commands that read a corpus take --task, --split and --campaign (select before you compute); table "
    "commands take --format text|csv|tsv|latex|json; every JSON records the settings it ran with. "
    "hotelcheckspan COMMAND --help describes a command; the methods page of the book defines every measure."
)


# fewer texts than this in a class of a detection target (BACC, ROC AUC): the output says so
MIN_CLASS = 10
KEY_COLUMNS = ["dataset", "split", "setup_id", "example_idx"]  # corpora.KEY, written here so --help imports no pandas


class CliError(Exception):
    """A problem to report on one line, then exit 1."""


def _f1_definition(metric: str, convention: str) -> str:
    """The definition as the methods page names it, then in words; a pair it does not name is a
    variant of those it does."""
    name = F1_DEFINITION_NAMES.get((metric, convention), "a variant of the methods page's definitions")
    return f"{name}: {METRIC_WORDS[metric]}, {CONVENTION_WORDS[convention]}"


# --- corpus commands ------------------------------------------------------------------------------


def _root(args, path=None) -> Path:
    """The corpus of ``args``: a folder, or an MQM file (``*.tsv``)."""
    root = Path(path if path is not None else args.corpus)
    if root.is_file() and root.suffix.lower() == ".tsv":
        return root
    if not root.is_dir():
        raise CliError(f"{root} is not a corpus folder" if root.exists() else f"{root}: no corpus folder here")
    return root


def _framed(args, path=None):
    """The frame of ``args`` (:func:`hotelcheckspan.corpora.frame.load`): the corpus of its
    ``corpus`` or ``path``, read once with the selection, and what every number rests on, decided
    once from the frame options; the corpus' warnings counted on stderr."""
    from .corpora import frame as F

    per = getattr(args, "per", None)
    frame = F.load(
        _root(args, path),
        task=args.task,
        split=args.split,
        campaigns=args.campaigns,
        reference=getattr(args, "reference", None),
        exclude=getattr(args, "exclude", None),
        roles=getattr(args, "roles", None),
        per=per if per in F.PER else None,
        pool=getattr(args, "pool", False) or per in ("none", "setup_id"),  # agreement's --per asks to pool splits
        texts=getattr(args, "texts", "with-output"),
        span_type=getattr(args, "span_type", "severity"),
    )
    out.report_corpus_warnings(frame.selected, args)
    return frame


def _settings(args, frame, **values) -> dict:
    """A JSON's settings: the command's, the selection and the frame."""
    return out.settings(args, selection=_selection(frame.selected), frame=frame.settings(), **values)


def _blocks(frame, what: str):
    """The frame's blocks (one per split unless pooled); one clear line where the command computes
    one number per run and the frame has several."""
    from .corpora import frame as F

    try:
        return F.one_block(frame, what) if what else frame
    except ValueError as err:
        raise CliError(str(err)) from None


def _selection(corpus) -> dict:
    from .corpora.selection import describe

    return describe(corpus)


def cmd_validate(args) -> int:
    from . import corpora
    from .corpora import problems as severity

    corpus, problems = corpora.read_corpus(args.path, task=args.task, split=args.split, campaigns=args.campaigns)
    errs, warns = severity.errors(problems), severity.warnings(problems)
    summarise = len(warns) > SUMMARY_AFTER and not args.verbose
    for p in errs if summarise else problems:
        print(p.tagged())
    if summarise:
        print("\n".join(out.summary_lines(warns)))
    elif warns:
        for line in out.causes(warns):
            print(line)
    if problems:
        print(severity.count(problems), file=sys.stderr)
    if errs or (warns and args.strict):
        return 1
    extra = f", {len(warns)} warning{'s' if len(warns) != 1 else ''}" if warns else ""
    empty = corpus.empty_campaigns()
    extra += (
        f", {len(empty)} config-only campaign{'s' if len(empty) != 1 else ''} ({', '.join(empty)})" if empty else ""
    )
    print(f"ok: {len(corpus.examples)} examples, {len(corpus.records)} records, {len(corpus.spans)} spans{extra}")
    return 0


def cmd_campaigns(args) -> int:
    frame = _framed(args, args.path)
    corpus = frame.selected
    table = corpus.campaign_table()
    table.insert(
        2,
        "role",
        [frame.roles.get(n, "judge" if k == "model" else "") for n, k in zip(table["campaign"], table["kind"])],
    )
    table.insert(3, "in_frame", [n in frame.reference or n in frame.judges for n in table["campaign"]])
    tasks = corpus.tasks()
    lines = [f"{len(table)} campaigns of {corpus.root}" + (f"; tasks: {', '.join(tasks)}" if tasks else "")]
    lines += frame.header()
    notes = [
        f"{n} has no records (a config and no annotation file, or an empty one): listed with 0 records, left out "
        "of every computation"
        for n in corpus.empty_campaigns()
    ]
    notes.append("names follow one rule from the folders (the methods page, Campaign names); roles too (Roles)")
    out.emit(
        args,
        _settings(args, frame),
        lines=lines,
        notes=notes,
        tables={"campaigns": table},
        data={"tasks": tasks, "campaigns": table, "selection": _selection(corpus)},
    )
    return 0


def _stacked(parts: list[tuple[str, dict]]) -> dict:
    """Tables of several blocks as one table each, the block in a leading ``part`` column (one
    block: its tables as they are)."""
    import pandas as pd

    if len(parts) == 1:
        return parts[0][1]
    names = list(dict.fromkeys(n for _, tables in parts for n in tables))
    framed = [(label, {n: out.as_frame(t) for n, t in tables.items()}) for label, tables in parts]
    return {
        n: pd.concat(
            [t[n].assign(part=label)[["part", *t[n].columns]] for label, t in framed if n in t], ignore_index=True
        )
        for n in names
    }


def cmd_stats(args) -> int:
    from .analyses import dataset_level

    frame = _framed(args, args.path)
    frame.corpus.check_categories()
    parts = []
    for label, block in frame.parts():
        corpus = block.corpus
        tables = {
            "overview_human": dataset_level.overview(corpus, "human"),
            "table2_human_types": dataset_level.type_distribution(corpus, "human"),
            "campaigns_all_examples": dataset_level.campaign_table(corpus),
        }
        if block.paper:
            tables["campaigns_stage2_examples"] = dataset_level.campaign_table(
                corpus, dataset_level.stage2_examples(corpus), by_group=True
            )
        parts.append((label, tables))
    corpus = frame.corpus
    lines = frame.header() + [
        f"{len(corpus.records[KEY_COLUMNS].drop_duplicates()):,} texts, {len(corpus.records):,} records, "
        f"{len(corpus.spans):,} spans"
    ]
    out.emit(
        args,
        _settings(args, frame),
        lines=lines,
        notes=out.report_left_out(corpus),
        tables=_stacked(parts),
        names=_names(corpus),
    )
    return 0


# --- two sides: f1, gamma, pearson ----------------------------------------------------------------


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


def _group(value: str | None) -> None:
    """A value that is no group at all: one clear line."""
    from .annotator_sets import parse_group

    if value is None:
        return
    try:
        parse_group(value)
    except ValueError as err:
        raise CliError(str(err)) from None


def _with_text(side, texts: str) -> tuple:
    """``side`` (an Annotations) under the frame's text rule: where its texts are known and the
    rule is "with-output", without the records whose example has no text; and how many it left out."""
    if texts != "with-output" or side.records["has_text"].isna().all():
        return side, 0
    keep = side.records["has_text"].fillna(True).astype(bool)
    if keep.all():
        return side, 0
    gone = int((~keep).sum())
    records = side.records[keep.to_numpy()].reset_index(drop=True)
    spans = side.spans[side.spans["record_id"].isin(records["record_id"])].reset_index(drop=True)
    return dataclasses.replace(side, records=records, spans=spans), gone


def _sides(args) -> tuple:
    """The two sides of a pair command, their groups and what they rest on: two annotation files
    (read once; the same file once; pooled over whatever splits they hold, as factgenie pools
    them, and said), or a corpus and two sides of it ("campaign" or "campaign/GROUP"),
    compared within the frame (one split, or pooled when asked)."""
    from . import api, corpora
    from .annotator_sets import AnnotatorSet

    inputs = args.inputs
    _group(args.ref_group), _group(args.hyp_group)
    if len(inputs) == 3:
        frame = _blocks(_framed(args, inputs[0]), f"{args.command} CORPUS A B")
        corpus = frame.corpus
        sides, groups = [], []
        for spec, given, flag in (
            (inputs[1], args.ref_group, "--ref-group"),
            (inputs[2], args.hyp_group, "--hyp-group"),
        ):
            try:
                s = AnnotatorSet.parse(spec)
            except ValueError as err:
                raise CliError(str(err)) from None
            if s.group is not None and given is not None:
                raise CliError(f"{spec} names a group and {flag} another: give one")
            if s.campaign in frame.left_out:
                raise CliError(f"{s.campaign} is outside the frame ({frame.left_out[s.campaign]})")
            sides.append(api.annotations_of(corpus, s.campaign))
            groups.append(given if s.group is None else spec.partition("/")[2])
        return sides[0], sides[1], groups[0], groups[1], frame
    if len(inputs) != 2:
        raise CliError(
            f"{args.command} takes two annotation files (REF HYP) or a corpus folder and two sides "
            f"(CORPUS A B), not {len(inputs)} arguments"
        )
    if any(getattr(args, k) for k in ("task", "split", "campaigns", "reference", "exclude", "roles")) or args.pool:
        raise CliError(
            "--task, --split, --campaign and the frame options select within a corpus: give CORPUS A B, not two files"
        )
    ref_path, hyp_path = inputs
    if Path(ref_path).is_dir():
        raise CliError(f"{ref_path} is a folder: give two annotation files, or a corpus folder and two sides")
    first = api.read_annotations(ref_path)
    second = first if hyp_path == ref_path else api.read_annotations(hyp_path)
    errs = [p for s in (first, second) for p in s.errors]
    if errs:
        raise corpora.CorpusError(list(dict.fromkeys(errs)), " and ".join(dict.fromkeys([ref_path, hyp_path])))
    seen = []
    for side in (first, second):
        if all(side is not s for s in seen):
            seen.append(side)
            out.report_file_warnings(side.warnings, args.verbose)
    first, gone_ref = _with_text(first, args.texts)
    second, gone_hyp = (first, 0) if hyp_path == ref_path else _with_text(second, args.texts)
    files = {"texts": args.texts, "without_text": {"records": gone_ref + gone_hyp}}
    return first, second, args.ref_group, args.hyp_group, files


def _compared(args, measure, **options) -> tuple[dict, object]:
    """``measure`` (``api.span_f1``, ``span_gamma`` or ``span_pearson``) of HYP against REF; a
    ValueError becomes one clear line; a side whose groups are pooled is said on stderr. Returns
    the result and what it rests on (the frame, or a dict for two files)."""
    from . import corpora

    ref, hyp, ref_group, hyp_group, frame = _sides(args)
    try:
        result = measure(ref, hyp, ref_group=ref_group, hyp_group=hyp_group, **options)
    except ValueError as err:
        if isinstance(err, corpora.CorpusError):
            raise
        raise CliError(str(err)) from None
    for name, flag in (("reference", "--ref-group"), ("hypothesis", "--hyp-group")):
        side = result["compared"][name]
        if side["group"] is None and len(side["groups"]) > 1:
            print(
                f"{name} {side['file']}: its {len(side['groups'])} annotator groups are pooled, as factgenie "
                f"pools them ({flag} or {side['campaign']}/GROUP chooses one)",
                file=sys.stderr,
            )
    return result, frame


def _rests_on(frame) -> list[str]:
    """What a pair command's figure rests on, for the top of its text output."""
    if isinstance(frame, dict):  # two files
        gone = frame["without_text"]["records"]
        return [
            "frame: two files, every record of both"
            + (f"; {gone:,} records without a text left out (--texts all counts them)" if gone else "")
        ]
    return frame.header()


def _splits_words(splits: list[str]) -> str:
    """ "split test" or "splits long, short (pooled)"."""
    return f"split {splits[0]}" if len(splits) == 1 else f"splits {', '.join(splits)} (pooled)"


def _pair_settings(args, frame, result: dict, **values) -> dict:
    """The settings of a pair command: the groups chosen (as the result names them), the selection
    and the frame."""
    cmp = result["compared"]
    groups = {"ref_group": cmp["reference"]["group"], "hyp_group": cmp["hypothesis"]["group"]}
    if isinstance(frame, dict):
        return out.settings(args, **groups, **values) | {"selection": None, "frame": frame | {"splits": cmp["splits"]}}
    return _settings(args, frame, **groups, **values)


def cmd_f1(args) -> int:
    from . import api

    metric, convention = _resolve_f1(args.metric, args.convention)
    result, frame = _compared(
        args,
        api.span_f1,
        match=args.match,
        metric=metric,
        convention=convention,
        by_type=args.by_type,
        per_category=args.per_category,
    )
    definition = _f1_definition(metric, convention)
    cfg = _pair_settings(
        args,
        frame,
        result,
        match=args.match,
        metric=metric,
        convention=convention,
        definition=definition,
        by_type=args.by_type,
        per_category=args.per_category,
    )
    rows = [{"category": "all", **{k: result[k] for k in ("precision", "recall", "f1", "ref_count", "hyp_count")}}]
    rows += [{"category": cat, **vals} for cat, vals in result.get("by_type", {}).items()]
    lines = _rests_on(frame) + [
        f"{args.match} match, {metric} metric, {convention} convention, {result['examples']} texts "
        f"({_splits_words(result['compared']['splits'])}), {result['ref_count']} reference and "
        f"{result['hyp_count']} hypothesis spans",
        " · ".join(f"{side}: {_side_words(result['compared'][side])}" for side in ("reference", "hypothesis")),
    ]
    notes = [f"span F1 definition: {definition}"]
    if convention == "both":
        notes.append(
            "hotelcheckspan judge and the book's Table 6 use --convention either with the char metric "
            f"({F1_DEFINITION_NAMES[('char', 'either')]})"
        )
    out.emit(args, cfg, lines=lines, notes=notes, tables={"f1": _frame(rows)}, data=result, json_notes=False)
    return 0


def _resolve_f1(metric: str, convention: str | None) -> tuple[str, str]:
    from .metrics import span_f1

    try:
        return span_f1.resolve(metric, convention)
    except ValueError as err:
        raise CliError(str(err)) from None


def _frame(rows):
    import pandas as pd

    return pd.DataFrame(rows)


def cmd_gamma(args) -> int:
    from . import api

    result, frame = _compared(args, api.span_gamma, soft=args.soft)
    cfg = _pair_settings(args, frame, result, soft=args.soft)

    def show(value):
        return "undefined" if value is None else f"{value:.3f}"

    lines = _rests_on(frame) + [
        f"{'soft' if args.soft else 'hard'} gamma, {result['examples']} texts",
        f"gamma    {show(result['gamma'])}  (mean over the {result['gamma_examples']} examples both sides marked; "
        f"factgenie's gamma_mean {result['gamma_mean']:.3f}, 0 where undefined)",
        f"S_empty  {show(result['s_empty'])}  (mean over the {result['s_empty_examples']} others; factgenie's "
        f"s_empty_mean {result['s_empty_mean']:.3f})",
    ]
    rows = [
        {
            "measure": "gamma",
            "value": result["gamma"],
            "factgenie_mean": result["gamma_mean"],
            "examples": result["gamma_examples"],
        },
        {
            "measure": "S_empty",
            "value": result["s_empty"],
            "factgenie_mean": result["s_empty_mean"],
            "examples": result["s_empty_examples"],
        },
    ]
    tables = {} if out.chosen_format(args) == "text" else {"gamma": _frame(rows)}
    out.emit(args, cfg, lines=lines, tables=tables, data=result, json_notes=False)
    return 0


def cmd_pearson(args) -> int:
    from . import api

    result, frame = _compared(args, api.span_pearson, tests=args.tests, seed=args.seed)
    cfg = _pair_settings(args, frame, result, tests=args.tests, seed=args.seed)
    lines = _rests_on(frame) + [f"Pearson's r of per-example error counts, {result['examples']} texts"]
    rows = [
        {"category": "micro", "r": result["micro_pearson"], "p": result["micro_p_value"]},
        {"category": "macro", "r": result["macro_pearson"], "p": result["macro_p_value"]},
    ]
    rows += [
        {
            "category": cat,
            "r": v["pearson"],
            "p": v["p_value"],
            "ref_count": v["ref_count"],
            "hyp_count": v["hyp_count"],
        }
        for cat, v in result["by_type"].items()
    ]
    notes = [
        "factgenie's definitions: micro r over every (example, category) cell of counts; per-category r over the "
        "examples; macro r and macro p the plain means of the per-category r and p (a mean of p-values is no "
        "p-value; --tests examples adds a statistician's tests)"
    ]
    tables = {"pearson": _frame(rows).astype({"ref_count": "Int64", "hyp_count": "Int64"})}
    st = result.get("examples_tests")
    if st is not None:
        tables["examples_tests"] = _frame(
            [
                {
                    "statistic": "r of per-example total counts",
                    "r": st["example_pearson"],
                    "p": st["example_p_value"],
                    "test": "t-test of Pearson's r, one observation per example",
                },
                {
                    "statistic": "macro r (categories where defined)",
                    "r": st["macro_pearson"],
                    "p": st["macro_p_value_permutation"],
                    "test": f"permutation of examples ({st['permutations']:,}{', exact' if st['exact'] else ''})",
                },
            ]
        )
    out.emit(args, cfg, lines=lines, notes=notes, tables=tables, data=result, json_notes=False)
    return 0


# --- judges -------------------------------------------------------------------------------------------


def _table5_notes(table5) -> list[str]:
    """What a reader must know about Table 5's rows: where BACC is undefined or degenerate (one
    class only: it is then the recall of the class present, without an interval) and where it rests on fewer
    than 10 examples of a class."""
    import pandas as pd

    notes = []
    for r in table5.itertuples():
        n, errors = int(r.examples), int(r.majority_errors)
        if n == 0:
            notes.append(f"{r.label}: no example with a clear human majority; agreement and BACC undefined")
        elif errors in (0, n):
            which = "marks no example with it" if errors == 0 else "marks every example with it"
            value = (
                "undefined"
                if pd.isna(r.bacc)
                else "the recall of the class present, not a balanced accuracy, and has no interval"
            )
            notes.append(f"{r.label}: the clear majority {which} (of {n}): its BACC is {value}")
        elif min(errors, n - errors) < MIN_CLASS:
            fewer, what = (errors, "with the error") if errors < n - errors else (n - errors, "without it")
            notes.append(f"{r.label}: BACC rests on {fewer} example{'s' if fewer != 1 else ''} {what} of {n}")
    return notes


def _interval(estimate, low, high) -> str:
    import pandas as pd

    if pd.isna(estimate):
        return "undefined"
    bounds = " (no interval)" if pd.isna(low) or pd.isna(high) else f" [{low:.3f}, {high:.3f}]"
    return f"{estimate:.3f}{bounds}"


def _judge_text_lines(result: dict) -> list[str]:
    """``judge`` for readers: what it was compared with, its BACC and its rank."""
    bacc, rank = result["bacc"], {k: "unranked" if v is None else v for k, v in result["rank"].items()}
    bacc_s = {k: "undefined" if v is None else f"{v:.3f}" for k, v in bacc.items() if k != "reason"}
    cmp = result["compared"]
    refs = cmp["references"]
    ceiling = cmp["ceiling"]
    return [
        f"judge {result['judge']}"
        + (" (not one of the paper's five)" if result["frame"]["paper"] and not result["in_paper"] else ""),
        f"compared with: {len(refs)} human set{'s' if len(refs) != 1 else ''} "
        f"({', '.join(refs[:8])}{', ...' if len(refs) > 8 else ''}) of {', '.join(cmp['human_campaigns'])}, "
        f"{cmp['human_records']} human records on the {cmp['examples']} examples compared; "
        f"{cmp['judge_examples']} of them shared with the judge "
        f"({cmp['examples_rule']})",
        f"span F1: {cmp['f1']['definition']}; each pair's P, R and F1 are what `hotelcheckspan f1 CORPUS SET "
        f"{result['judge']} --match soft|hard --convention either` prints (its default, convention both, is factgenie "
        "1.2.1's), and the judge's row averages them over its pairs",
        f"human majority: {cmp['majority']['rule']}; {cmp['majority']['single_rater_examples']} examples have "
        "one human set",
        "human ceiling: "
        + (
            f"every pair of human sets sharing examples ({ceiling['pairs']} pair{'s' if ceiling['pairs'] != 1 else ''})"
            if ceiling["defined"]
            else f"none ({ceiling['reason']})"
        ),
        f"rank among the corpus' {rank['of']} judges: {rank['soft']} by span F1, soft, {rank['hard']} by hard, "
        f"{rank['bacc']} by balanced accuracy",
        f"balanced accuracy against the human majority (any error): {bacc_s['estimate']}"
        + (
            f" [{bacc_s['low']}, {bacc_s['high']}]"
            if bacc["low"] is not None and bacc["high"] is not None
            else " (no interval)"
            if bacc["estimate"] is not None
            else ""
        )
        + (f" ({bacc['reason']})" if bacc["reason"] else ""),
    ]


def _estimates(frame, columns: dict[str, str], readable: bool) -> dict:
    """Columns ``name -> prefix`` of a frame with ``prefix``, ``prefix_low``, ``prefix_high``: for
    readers one cell "0.28 [0.23, 0.32]" named "name [95% CI]"; for scripts (csv, tsv) the three
    numbers in columns of their own (``name``, ``name_low``, ``name_high``)."""
    out = {}
    for name, prefix in columns.items():
        est, low, high = frame[prefix], frame[f"{prefix}_low"], frame[f"{prefix}_high"]
        if readable:
            out[f"{name} [95% CI]"] = [_interval(*v) for v in zip(est, low, high)]
        else:
            out |= {name: est.to_numpy(), f"{name}_low": low.to_numpy(), f"{name}_high": high.to_numpy()}
    return out


def _judge_tables(result: dict, readable: bool = True) -> dict:
    import pandas as pd

    t3 = result["table3"]
    if not result["in_paper"]:  # its paper columns would be empty
        t3 = t3[[c for c in t3.columns if not str(c).startswith("paper ")]]
    t5 = result["table5"]
    table5 = pd.DataFrame(
        {
            "label": t5["label"],
            "examples": t5["examples"],
            "majority_errors": t5["majority_errors"],
            "model_errors": t5["model_errors"],
            **_estimates(
                t5,
                {"agreement": "agreement", "bacc": "bacc"}
                | ({} if readable else {"kappa": "kappa", "recall_error": "recall_error"}),
                readable,
            ),
        }
    )
    t6 = result["table6"]
    table6 = pd.DataFrame(
        {
            "comparison": t6["comparison"],
            "match": t6["match"],
            "pairs": t6["pairs"],
            "precision": t6["precision"],
            "recall": t6["recall"],
            **_estimates(t6, {"f1": "f1"}, readable),
        }
    )
    board = result["leaderboard"]
    board = board[["rank", "judge", "f1_soft", "f1_hard", "bacc"]] if readable else board
    return {"table3": t3, "table5": table5, "table6": table6, "leaderboard": board}


def _table6_notes(corpus, result: dict) -> list[str]:
    """Where the judge's Table 6 row is the paper's comparison that pools it with another campaign
    (gpt-4o with gpt-4o-ls, o3-mini with o3-mini-ls), say so and give the judge's own scores (its
    leaderboard row), so the pooled row is not read as the judge's."""
    from .analyses import judges

    hyps = {c["name"]: c["hyp"] for c in judges.comparisons(corpus)}
    board = result["leaderboard"].set_index("judge")
    notes = []
    for comparison in dict.fromkeys(result["table6"]["comparison"]):
        pooled = hyps.get(comparison, [])
        if len(pooled) > 1:
            own = board.loc[result["judge"]] if result["judge"] in board.index else None
            alone = (
                f"; {result['judge']} alone is its leaderboard row (span F1, soft: {own['f1_soft']:.3f}, hard: "
                f"{own['f1_hard']:.3f})"
                if own is not None
                else ""
            )
            notes.append(
                f"Table 6: {comparison} is the paper's comparison, which pools {' and '.join(pooled)}: its P/R/F1 "
                f"average the pairs of every human set with each of them{alone}"
            )
    return notes


JUDGE_TITLES = {
    "table3": "Table 3 (spans, density, length, types)",
    "table5": "Table 5 (against the clear human majority; [95% CI])",
    "table6": "Table 6 (the comparison that holds the judge: span P/R/F1 averaged over its pairs; [95% CI])",
    "leaderboard": "Leaderboard (ranked by span F1, soft)",
}


def cmd_judge(args) -> int:
    from . import api

    _positive(args.n_boot, "--n-boot")
    root = _root(args)
    corpus, name = api.resolve_judge(root, args.campaign, task=args.task, split=args.split, campaigns=args.campaigns)
    out.report_corpus_warnings(corpus, args)
    frame = _blocks(api.frame_of(corpus, **_frame_options(args)), "judge")
    result = api.evaluate_judge(frame, name, n_boot=args.n_boot, seed=args.seed)
    cfg = _settings(
        args,
        frame,
        resamples=args.n_boot,
        seed=args.seed,
        match=["soft", "hard"],
        metric=result["compared"]["f1"]["metric"],
        convention=result["compared"]["f1"]["convention"],
    )
    notes = _table5_notes(result["table5"]) + _table6_notes(frame.corpus, result) + out.report_left_out(frame.corpus)
    fmt = out.chosen_format(args)
    tables = _judge_tables(result, readable=fmt in ("text", "latex")) if fmt != "json" else {}
    lines = frame.header() + _judge_text_lines(result)
    out.emit(
        args,
        cfg,
        lines=lines,
        notes=notes,
        tables=tables,
        data=result,
        titles=JUDGE_TITLES,
        names=_names(frame.corpus),
    )
    if result["compared"]["judge_examples"] == 0:
        print(
            f"hotelcheckspan judge: {name} shares no example with the human annotators it is compared with "
            f"({result['compared']['examples_rule']}): its span F1, balanced accuracy and rank are undefined",
            file=sys.stderr,
        )
        return 1
    return 0


def _frame_options(args) -> dict:
    """The frame options of ``args`` (as :func:`hotelcheckspan.api.frame_of` takes them)."""
    per = getattr(args, "per", None)
    return {
        "reference": getattr(args, "reference", None),
        "exclude": getattr(args, "exclude", None),
        "roles": getattr(args, "roles", None),
        "per": per if per in ("split", "dataset") else None,
        "pool": getattr(args, "pool", False),
        "texts": getattr(args, "texts", "with-output"),
    }


def _positive(value: int, flag: str) -> None:
    if value < 1:
        raise CliError(f"{flag} must be a positive whole number, not {value}")


def cmd_judges(args) -> int:
    from . import api
    from .analyses import judges

    _positive(args.n_boot, "--n-boot")
    frame = _framed(args)
    frame.corpus.check_categories()
    boards, lines, notes = [], frame.header(), out.report_left_out(frame.corpus)
    parts = frame.parts()
    for label, block in parts:
        board = api.leaderboard(
            block, n_boot=args.n_boot, seed=args.seed, distinguish=args.distinguish, progress=out.progress_wanted(args)
        )
        cmp = board.attrs["compared"]
        refs = cmp["references"]
        where = f"{frame.per} {label}: " if len(parts) > 1 else ""
        lines += [
            f"{where}{int((board['judge'] != judges.CEILING).sum())} judges, compared with {len(refs)} human "
            f"set{'s' if len(refs) != 1 else ''} ({', '.join(refs[:8])}{', ...' if len(refs) > 8 else ''}) "
            f"on the {cmp['examples']} texts compared ({cmp['examples_rule']})",
            f"{where}human ceiling: "
            + (
                f"every pair of human sets, on the {cmp['ceiling']['examples']} texts two of them annotated"
                if cmp["ceiling"]["defined"]
                else cmp["ceiling"]["reason"]
            ),
        ]
        undefined = board[(board["judge"] != judges.CEILING) & board["f1_soft"].isna()]
        notes += [f"{where}{j}: shares no text with the human annotators (unranked)" for j in undefined["judge"]]
        notes += [
            f"{where}{r.judge}: BACC rests on {min(r.majority_errors, r.majority_examples - r.majority_errors)} texts "
            f"of one class of {r.majority_examples}"
            for r in board.itertuples()
            if r.judge != judges.CEILING
            and not _na(r.majority_examples)
            and 0 < min(r.majority_errors, r.majority_examples - r.majority_errors) < MIN_CLASS
        ]
        boards.append((label, board, cmp))
    cmp = boards[0][2]
    lines[len(frame.header()) : len(frame.header())] = [
        f"span F1: {cmp['f1']['definition']}",
        f"human majority: {cmp['majority']['rule']}",
    ]
    cfg = _settings(
        args,
        frame,
        resamples=args.n_boot,
        seed=args.seed,
        distinguish=args.distinguish,
        match=["soft", "hard"],
        metric=cmp["f1"]["metric"],
        convention=cmp["f1"]["convention"],
    )
    text = out.chosen_format(args) == "text"
    if text:
        tables = {
            (f"leaderboard_{label}" if len(parts) > 1 else "leaderboard"): judges.readable(board, digits=3)
            for label, board, _ in boards
        }
        titles = {f"leaderboard_{label}": f"leaderboard, {frame.per} {label}" for label, _, _ in boards}
    else:
        tables = _stacked([(label, {"leaderboard": board}) for label, board, _ in boards])
        titles = {}
    data = {"compared": {label: c for label, _, c in boards} if len(parts) > 1 else cmp, **tables}
    out.emit(args, cfg, lines=lines, notes=notes, tables=tables, data=data, titles=titles, names=_names(frame.corpus))
    return 0


def _names(corpus):
    """The display names of ``corpus``' judges and human sets, for the formats a person reads."""
    from .annotator_sets import names

    return names(corpus)


def _na(value) -> bool:
    import pandas as pd

    return value is None or pd.isna(value)


# --- agreement: a table of comparisons -------------------------------------------------------------


def cmd_agreement(args) -> int:
    metric, convention = _resolve_f1(args.metric, args.convention)
    frame = _framed(args)
    corpus = frame.corpus
    per = {None: frame.per, "none": None}.get(args.per, args.per)
    measures = args.measure or ["f1"]
    matches = ["hard", "soft"] if args.match == "both" else [args.match]
    average = "none" if args.matrix else args.average
    refs, hyps = args.ref, args.hyp
    if args.matrix:  # every set against every other: human groups and judges alike
        from .annotator_sets import groups_of, judges

        every = [g.spec for c in corpus.campaigns("human") for g in groups_of(corpus, c)] + judges(corpus)
        refs, hyps = refs or every, hyps or every
    from .analyses import agreement as _agreement

    table = _agreement.table(
        corpus,
        refs,
        hyps,
        measures=measures,
        match=matches,
        metric=metric,
        convention=convention,
        soft_gamma=args.soft_gamma,
        per=per,
        average=average,
        progress=out.progress_wanted(args),
    )
    used = table.attrs["settings"]
    definition = _f1_definition(metric, convention)
    cfg = _settings(args, frame, **used, definition=definition)
    lines = frame.header() + [
        f"{len(used['hypotheses'])} hypothesis sets against {len(used['references'])} reference sets"
        + (f", one block of rows per {per}" if per else "")
        + f"; averaged: {average}"
        + ("; texts: the distinct texts compared, pair_*: sums over the pairs" if average == "mean" else ""),
        f"span F1, {' and '.join(matches)}: {definition}" if "f1" in measures else "",
    ]
    tables = {"agreement": table}
    titles = {"agreement": f"agreement ({average} over the reference sets)"}
    if args.matrix:
        value = args.matrix_value or (
            f"f1_{matches[-1]}"
            if "f1" in measures
            else next(c for c in ("gamma", "pearson_micro") if c in table.columns)
        )
        if value not in table.columns:
            raise CliError(f"--matrix-value {value} is no column of the table ({', '.join(table.columns[5:])})")
        matrix = table.pivot_table(index=["part", "hypothesis"], columns="reference", values=value, aggfunc="first")
        order = [r for r in used["references"] if r in matrix.columns]
        rows = sorted(matrix.index, key=lambda k: (k[0], used["hypotheses"].index(k[1])))
        matrix = matrix.reindex(index=rows, columns=order)
        tables = {"matrix": matrix.reset_index()} | tables
        titles["matrix"] = f"matrix of {value} (rows: hypothesis, columns: reference)"
    out.emit(
        args,
        cfg,
        lines=[x for x in lines if x],
        notes=out.report_left_out(corpus),
        tables=tables,
        data={"agreement": table} | ({"matrix_value": value} if args.matrix else {}),
        titles=titles,
        names=_names(corpus),
    )
    return 0


# --- metric ---------------------------------------------------------------------------------------------


def system_rows(v):
    """The system-level rows with ``group`` (the split each is computed on, or the mean of
    several), ``systems`` (the generating systems it rests on) and ``texts`` (the texts: what the
    statistics module calls ``n``)."""
    systems = _systems_per_metric(v)
    out_ = v.system.assign(
        texts=v.system["n"],
        systems=[systems.get((g, m, t)) for g, m, t in zip(v.system["group"], v.system["metric"], v.system["target"])],
    )
    return out_[["group", "metric", "kind", "target", "statistic", "value", "low", "high", "systems", "texts"]]


def _metric_tables(v, text: bool = True) -> tuple[dict, list[str], dict]:
    """Per target the metrics ranked by the primary statistic (Kendall tau-b; ROC AUC for the
    majority), the system-level statistics and the significance clusters, with the notes a
    reader needs (degenerate classes, the ceiling's subset)."""
    import pandas as pd

    from .analyses import metric_validation as mv

    c = v.compared
    notes = []
    tables, titles = {}, {}
    for target in c["targets"]:
        statistic = "roc_auc" if target == "majority" else "kendall_tau_b"
        board = mv.leaderboard(v, target, statistic)
        titles[target] = f"{target}: {statistic} [95% CI] (random: the metric's own scores permuted)"
        value = (
            {statistic: [_interval(*x) for x in zip(board["value"], board["low"], board["high"])]}
            if text
            else {statistic: board["value"], f"{statistic}_low": board["low"], f"{statistic}_high": board["high"]}
        )
        tables[target] = pd.DataFrame(
            {
                "metric": board["metric"],
                "kind": board["kind"],
                **value,
                "random": board["random"],
                "texts": board["n"],
                "cluster": board["cluster"],
            }
        )
    if not text:  # scripts: every statistic of every metric and target, as the JSON has them
        every = v.statistics.rename(columns={"n": "texts"})
        tables["statistics"] = every[
            [c for c in every.columns if c != "epsilon"] + (["epsilon"] if "epsilon" in every else [])
        ]
        titles["statistics"] = "every example-level and detection statistic (value, low, high; acc23's epsilon)"
    if len(v.system):
        system = system_rows(v)
        if text:  # readers: per target, one row per metric and a column per statistic (intervals: csv, json)
            for target, rows in system.groupby("target", sort=False):
                index = ["group", "metric"] if rows["group"].nunique() > 1 else ["metric"]
                wide = rows.pivot_table(index=index, columns="statistic", values="value", aggfunc="first", sort=False)
                wide = wide.reindex(columns=[s for s in dict.fromkeys(rows["statistic"]) if s in wide.columns])
                counts = rows.groupby(index, sort=False)[["systems", "texts"]].first()
                tables[f"system_{target}"] = counts.join(wide).reset_index()
                titles[f"system_{target}"] = f"system level, {target} (values; intervals with --format csv or json)"
        else:
            tables["system"] = system
        means = sorted({g for g in system["group"] if str(g).startswith("mean of")})
        if means:
            notes.append(
                f"system level: computed per split (a language pair of an MT export), as mt-metrics-eval computes it, "
                f"and averaged over the splits ({means[0]}; the mean has no interval)"
            )
    else:
        notes.append(
            f"no system-level statistics: the texts come from {c['systems']} generating "
            f"system{'s' if c['systems'] != 1 else ''} (3 or more needed)"
        )
    if len(v.clusters):
        tables["clusters"] = v.clusters
        titles["clusters"] = "significance clusters (1 = the best; PERM-BOTH, mt-metrics-eval's AssignRanks)"
    if "majority" in c["targets"] and v.data is not None:
        maj = v.data["majority"].dropna()
        n, errors = len(maj), int(maj.astype(bool).sum())
        fewer = min(errors, n - errors)
        if n and fewer < MIN_CLASS:
            which = "error-free texts" if n - errors <= errors else "texts with an error"
            notes.append(f"majority: ROC AUC, average precision and BACC rest on {fewer} {which} of {n}")
    if not c["ceiling_examples"]:
        notes.append("no human ceiling: no text has two or more human records")
    elif c["ceiling_examples"] != c["examples"]:
        notes.append(
            f"the human ceiling is measured on {c['ceiling_examples']:,} of the {c['examples']:,} texts (those with "
            "two or more human records), another subset than the metrics' (ceiling_texts: the metrics on its texts)"
        )
    return tables, notes, titles


def _systems_per_metric(v) -> dict:
    """(group, metric, target) -> the generating systems where both have a value (what a system
    row rests on), per split and summed over the splits for a "mean of N" row."""
    import numpy as np
    import pandas as pd

    from .analyses import metric_validation as mv
    from .corpora import slug_frame

    system, _ = mv.systems(v.data)
    split = slug_frame(v.data[KEY_COLUMNS])["split"].to_numpy()
    split_codes, splits = pd.factorize(split, use_na_sentinel=False)
    system_codes, systems = pd.factorize(np.asarray(system, dtype=object), use_na_sentinel=False)
    pairs = split_codes * max(len(systems), 1) + system_codes  # one code per (split, system)
    where = {value: i for i, value in enumerate(splits)}
    out_ = {}
    for target in v.compared["targets"]:
        if target == "majority" or target not in v.data:
            continue
        for metric in v.kinds:
            keep = v.data[metric].notna().to_numpy() & v.data[target].notna().to_numpy()
            present = np.unique(pairs[keep])
            per_split = np.bincount(present // max(len(systems), 1), minlength=len(splits))
            for group in set(v.system["group"]):
                if str(group).startswith("mean of"):
                    out_[(group, metric, target)] = int(present.size)
                else:
                    out_[(group, metric, target)] = int(per_split[where[group]]) if group in where else 0
    return out_


def cmd_metric(args) -> int:
    from . import api
    from .corpora.scores import read_scores

    _positive(args.n_boot, "--n-boot")
    frame = _framed(args)
    frame.corpus.check_categories()
    parts = frame.parts()
    lines, notes, blocks, datas = frame.header(), [], [], {}
    scores = None
    if args.scores is not None:  # read once, against every text of the frame; each block takes its own
        scores = read_scores(args.scores, frame.corpus, lower_is_better=args.lower_is_better or ())
        out.report_file_warnings(scores.problems, args.verbose)
    for label, block in parts:
        where = f"{frame.per} {label}: " if len(parts) > 1 else ""
        result = api.evaluate_metric(
            block,
            scores,
            targets=args.target,
            with_judges=not args.no_judges,
            baselines=args.baselines or None,
            n_boot=args.n_boot,
            seed=args.seed,
            progress=out.progress_wanted(args),
        )
        c = result.compared
        tables, block_notes, titles = _metric_tables(result, text=out.chosen_format(args) == "text")
        notes += [where + n for n in block_notes]
        lines.append(
            f"{where}{c['examples']:,} texts with a human target ({c['human_records']:,} human records); "
            f"{c['resamples']:,} bootstrap resamples shared by every metric; {c['orientation']}"
        )
        blocks.append((label, tables, titles))
        data = result.to_json()
        data["system"] = system_rows(result) if len(result.system) else []
        data["clusters"] = result.clusters
        datas[label] = data
    notes += out.report_left_out(frame.corpus)
    cfg = _settings(
        args,
        frame,
        resamples=args.n_boot,
        seed=args.seed,
        targets=blocks and list(datas.values())[0]["compared"]["targets"],
        scores=args.scores,
        lower_is_better=args.lower_is_better,
        judges=not args.no_judges,
        baselines=bool(args.baselines),
    )
    if len(parts) == 1:
        tables, titles, data = blocks[0][1], blocks[0][2], datas[parts[0][0]]
    elif out.chosen_format(args) == "text":
        tables = {f"{n}_{label}": t for label, ts, _ in blocks for n, t in ts.items()}
        titles = {f"{n}_{label}": f"{frame.per} {label}, {ti}" for label, ts, tis in blocks for n, ti in tis.items()}
        data = {}
    else:
        tables = _stacked([(label, ts) for label, ts, _ in blocks])
        titles = {}
        data = {"parts": datas}
    out.emit(args, cfg, lines=lines, notes=notes, tables=tables, data=data, titles=titles, names=_names(frame.corpus))
    return 0


def cmd_baselines(args) -> int:
    from .corpora.scores import write_scores
    from .metrics import baselines

    frame = _framed(args)
    corpus = frame.corpus
    frame_ = baselines.baselines(
        corpus, args.only or None, progress=args.progress
    )  # None: a bar where stderr is a terminal
    path = write_scores(frame_, args.out)
    no_source = int((corpus.examples["source"].fillna("") == "").sum())
    for line in frame.header():
        print(line, file=sys.stderr)
    if no_source:
        print(
            f"{no_source:,} of the {len(corpus.examples):,} texts have no source: the source-based baselines are "
            "undefined (empty) there, not 0",
            file=sys.stderr,
        )
    print(f"wrote {len(frame_.columns) - 4} baselines on {len(frame_):,} texts to {path}")
    return 0


TARGET_CHOICES = ("mqm", "weighted", "errors", "error_free", "impression")


def cmd_target(args) -> int:
    """The human target of a corpus per system or per text: WMT's MQM score (``--target mqm``),
    a severity-weighted score with the user's weights (``--target weighted --weight ...``), or an
    error count."""
    from .analyses import metric_targets
    from .corpora import mqm

    frame = _framed(args)
    corpus = frame.corpus
    try:
        weights = mqm.parse_weights(args.weight) if args.weight else None
    except ValueError as err:
        raise CliError(str(err)) from None
    if args.target == "weighted" and not weights:
        raise CliError("--target weighted needs weights: --weight Major=5 --weight Minor=1 (see --help)")
    if args.target == "mqm" and not corpus.spans["severity"].notna().any():
        raise CliError(
            "--target mqm weighs MQM severities, and this corpus' spans have none (a factgenie export): use "
            "--target weighted --weight CATEGORY=VALUE"
        )
    used = {**mqm.WMT_WEIGHTS, **(weights or {})} if args.target == "mqm" else weights  # --weight amends WMT's
    humans = metric_targets.human_targets(corpus, weights if args.target == "weighted" else None)
    if args.target not in humans.columns or (args.target == "impression" and humans["impression"].isna().all()):
        raise CliError(f"no target {args.target} on this corpus")
    if args.target == "mqm":
        per_text = mqm.scores(corpus, used, per="text")
        per_text = per_text.rename(columns={"score": "score"})
    else:
        per_text = humans[[*KEY_COLUMNS, "n_humans"]].assign(score=humans[args.target].astype(float))
        per_text = per_text.rename(columns={"n_humans": "raters"})[[*KEY_COLUMNS, "score", "raters"]]
        if args.target in ("weighted", "errors"):
            per_text["score"] = 0.0 - per_text["score"]  # the score as published: errors counted, lower is better
    notes = []
    if used is not None:
        gone = mqm.unweighted(corpus.spans, used, corpus.records)
        for r in gone.itertuples():
            notes.append(f"{r.name}: no weight names it, so its {r.spans:,} spans weigh 0 (records at {r.lines})")
    lower = args.target in ("mqm", "weighted", "errors")
    direction = "lower is better (errors weighed)" if lower else "higher is better"
    if args.per == "text":
        table = per_text
    else:
        grouped = per_text.groupby(["dataset", "split", "setup_id"], sort=False)
        table = grouped.agg(score=("score", "mean"), texts=("score", "size")).reset_index()
        table = table.rename(columns={"setup_id": "system"})
        table["reference"] = table["system"].map(mqm.is_reference)
        table = table.sort_values(["dataset", "split", "score", "system"], ascending=[True, True, lower, True])
        table = table.reset_index(drop=True)
    rates = mqm.catch_rates(frame.selected)
    lines = frame.header() + [
        f"target {args.target} per {args.per}: "
        + (
            "the mean over a system's texts of each text's score (its raters' scores averaged)"
            if args.per == "system"
            else "each text's score, its raters' scores averaged"
        )
        + f"; {direction}",
    ]
    if used is not None:
        lines.append("weights: " + ", ".join(f"{k}={v:g}" for k, v in used.items()) + "; any other weighs 0")
    tables = {args.per: table}
    if len(rates):
        tables["catch_rates"] = rates
        lines.append("hands-on-the-wheel checks: each rater's share of the damaged translations caught (catch_rates)")
    cfg = _settings(args, frame, target=args.target, per=args.per, weights=used)
    data = {"rows": table, "catch_rates": rates} if len(rates) else {"rows": table}
    out.emit(args, cfg, lines=lines, notes=notes, tables=tables, data=data)
    return 0


def _warn_count(warnings: list, what: str) -> None:
    if warnings:
        n = len(warnings)
        print(
            f"{n} warning{'s' if n != 1 else ''} in {what} (kept, as factgenie keeps them; "
            "`hotelcheckspan validate` lists them)",
            file=sys.stderr,
        )


class _Lazy:
    """A module imported on first use (``corpora`` for the handlers that name it at module level),
    so that ``--help`` imports no pandas."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        import importlib

        return getattr(importlib.import_module(self._name), attr)


corpora = _Lazy("hotelcheckspan.corpora")


# --- standin ----------------------------------------------------------------------------------------------


def _write_standin(out_dir: Path, seed: int, force: bool) -> None:
    """Generate into a temporary folder beside ``out_dir`` and move it into place only when complete."""
    # imported here: the simulation pulls in rouge-score and nltk, which no other command needs
    from .simulation import standin

    if out_dir.exists() or out_dir.is_symlink():
        if not out_dir.is_dir():
            raise CliError(f"{out_dir} exists and is not a folder")
        if any(out_dir.iterdir()) and not force:
            raise CliError(f"{out_dir} is not empty (use --force to replace it)")
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=out_dir.parent))
    old = None
    try:
        standin.generate(tmp, seed=seed)
        if out_dir.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".old", dir=out_dir.parent))
            os.replace(out_dir, old / "replaced")
        os.replace(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and (old / "replaced").exists() and not out_dir.exists():
            os.replace(old / "replaced", out_dir)  # put the previous folder back
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def cmd_standin(args) -> int:
    from .simulation.standin import SEED  # see _write_standin for why this import is here

    seed = SEED if args.seed is None else args.seed
    if seed < 0:
        raise CliError(f"--seed must be a non-negative integer, not {seed}")
    _write_standin(Path(args.out), seed, args.force)
    print(f"wrote the stand-in corpus (seed {seed}) to {args.out}")
    return 0


# --- the parser ---------------------------------------------------------------------------------------------


class _Version(argparse.Action):
    """``--version``: the package version, looked up only when asked."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"hotelcheckspan {out.version()}")
        parser.exit()


PAIR_INPUTS = (
    "two annotation files REF HYP (factgenie *.jsonl; a config.yaml beside each names its categories), or a "
    "corpus folder and two sides of it, CORPUS A B: a campaign as campaigns lists it, optionally "
    "/GROUP (test/A, gpt4o)"
)


def _pair_parser(sub, name: str, help: str, description: str, func) -> argparse.ArgumentParser:
    """A command comparing two sides: REF HYP files, or CORPUS A B."""
    p = sub.add_parser(
        name,
        help=help,
        description=description,
        usage=f"hotelcheckspan {name} [options] REF HYP\n       hotelcheckspan {name} [options] CORPUS A B",
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help=PAIR_INPUTS)
    p.add_argument(
        "--ref-group",
        default=None,
        help="the annotator group of REF (a letter, A = 0, or a number; default: all pooled)",
    )
    p.add_argument(
        "--hyp-group",
        default=None,
        help="the annotator group of HYP (a letter, A = 0, or a number; default: all pooled)",
    )
    args_.selection_args(p)
    args_.frame_args(p, per=False)
    args_.output_args(p)
    p.set_defaults(func=func)
    return p


def _review_placeholder(sub) -> None:
    """``review`` listed without importing it (it pulls in pandas); its own parser is built when
    the command is ``review``."""
    sub.add_parser(
        "review", help="review LLM judges' spans: a sheet for reviewers, completed sheets scored", add_help=False
    )


def build_parser(full: bool = True) -> argparse.ArgumentParser:
    """The command line's parser; ``full=False`` lists ``review`` without building its parser
    (what ``--help`` and every other command need)."""
    parser = argparse.ArgumentParser(prog="hotelcheckspan", description=DESCRIPTION, epilog=EPILOG)
    parser.add_argument("--version", action=_Version, help="print the package version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="check a corpus folder; list every error and warning with file, line, field")
    p.add_argument("path", help="the corpus folder (factgenie layout)")
    p.add_argument("--strict", action="store_true", help="exit 1 on warnings too")
    p.add_argument(
        "--verbose",
        action="store_true",
        help=f"list every warning (by default more than {SUMMARY_AFTER} are summarised per class and file)",
    )
    args_.selection_args(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser(
        "campaigns", help="list a corpus' campaigns: name, kind, role, task, folder, records, groups, spans"
    )
    p.add_argument("path", help="the corpus folder (factgenie layout)")
    args_.selection_args(p)
    args_.frame_args(p, per=False)
    args_.output_args(p)
    p.set_defaults(func=cmd_campaigns)

    p = sub.add_parser("stats", help="dataset-level tables (Tables 2-4) of one task")
    p.add_argument("path", help="the corpus folder (factgenie layout)")
    args_.selection_args(p)
    args_.frame_args(p)
    args_.output_args(p)
    p.set_defaults(func=cmd_stats)

    p = _pair_parser(
        sub,
        "f1",
        "span precision, recall and F1 between two annotation files or two campaigns",
        "Span-level P/R/F1 of HYP against REF on the examples both annotated. Default: factgenie 1.2.1's "
        "definition (char metric, convention both); judge and the book's Table 6 use convention either.",
        cmd_f1,
    )
    p.add_argument(
        "--match",
        choices=["hard", "soft"],
        default="hard",
        help="hard: a span's category must match; soft: any category (default hard)",
    )
    p.add_argument(
        "--metric",
        choices=list(F1_METRICS),
        default="char",
        help="char: factgenie 1.2.1's character overlap (default); char-greedy: factgenie's May 2025 script's "
        "greedy overlap; span: the share of spans that overlap a span of the other side",
    )
    p.add_argument(
        "--convention",
        choices=[*F1_CONVENTIONS, *F1_ALIASES],
        default=None,
        help="whose span lengths count: both (only the examples where both sides marked a span: factgenie 1.2.1) "
        "or either (every example: the May 2025 script's length rule; with the char metric the methods page's "
        "'every example's lengths', which judge and Table 6 use); factgenie and all are old "
        "names of both and either; default: the metric's own (both for char, either otherwise)",
    )
    p.add_argument("--by-type", action="store_true", help="also P/R/F1 per category")
    p.add_argument(
        "--per-category",
        choices=["factgenie", "consistent"],
        default="factgenie",
        help="soft per-category figures: factgenie (overlap credited to the hypothesis span's category, recall "
        "divided by the reference category's length) or consistent (see the methods page)",
    )

    p = _pair_parser(
        sub,
        "gamma",
        "Mathet et al.'s gamma between two annotation files or two campaigns, as factgenie computes it",
        "Mathet et al.'s gamma per example (where both sides marked) and S_empty elsewhere, as factgenie 1.2.1's "
        "iaa gamma computes them, averaged.",
        cmd_gamma,
    )
    p.add_argument(
        "--soft",
        action="store_true",
        help="soft gamma (a span may be aligned more than once; factgenie's --soft_gamma); default: hard",
    )

    p = _pair_parser(
        sub,
        "pearson",
        "correlation of per-example error counts (factgenie's iaa pearson)",
        "Pearson's r of the two sides' error counts per example and category, as factgenie 1.2.1 computes it: "
        "micro r over every (example, category) cell, per-category r over the examples, macro r and macro p the "
        "means of the per-category r and p.",
        cmd_pearson,
    )
    p.add_argument(
        "--tests",
        choices=["factgenie", "examples"],
        default="factgenie",
        help="factgenie: factgenie's figures only (default); examples: also r of the per-example total counts "
        "(one observation per example, scipy's test) and a permutation test of macro r that permutes examples",
    )
    p.add_argument("--seed", type=int, default=0, help="the seed of the permutation test (--tests examples)")

    p = sub.add_parser(
        "judge", help="score one LLM judge: its rows of Tables 3, 5 and 6, its balanced accuracy and its rank"
    )
    p.add_argument("corpus", help="the corpus folder (factgenie layout)")
    p.add_argument(
        "campaign",
        help="a model campaign of the corpus (its name, as campaigns lists it, or its folder), or the path of a "
        "factgenie campaign folder outside it, whatever its name (added as one)",
    )
    args_.boot_args(p)
    args_.selection_args(p)
    args_.frame_args(p, per=False)
    args_.output_args(p)
    p.set_defaults(func=cmd_judge)

    p = sub.add_parser("judges", help="score and rank every LLM judge of a corpus at once (the leaderboard)")
    p.add_argument("corpus", help="the corpus folder (factgenie layout)")
    args_.boot_args(p)
    p.add_argument(
        "--distinguish",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="for each judge and the next, how many examples order them by span F1, soft (the slow part; default on)",
    )
    args_.progress_args(p)
    args_.selection_args(p)
    args_.frame_args(p)
    args_.output_args(p)
    p.set_defaults(func=cmd_judges)

    p = sub.add_parser(
        "agreement",
        help="a whole table of comparisons in one call: every judge against chosen human sets, per split, averaged",
        description="Every hypothesis set (default: every judge) against the reference sets (default: every "
        "human annotator group), with f1, gamma or pearson, per split, dataset or system, averaged over the "
        "reference sets as asked; each cell equals what f1, gamma or pearson print for that pair.",
    )
    p.add_argument("corpus", help="the corpus folder (factgenie layout)")
    p.add_argument(
        "--ref",
        action="append",
        default=None,
        metavar="SET",
        help="a reference side: a campaign, or campaign/GROUP (repeat; default: every human group)",
    )
    p.add_argument(
        "--hyp",
        action="append",
        default=None,
        metavar="SET",
        help="a hypothesis side (repeat; default: every judge)",
    )
    p.add_argument(
        "--measure",
        action="append",
        choices=["f1", "gamma", "pearson"],
        default=None,
        help="what to compute (repeat; default f1)",
    )
    p.add_argument("--match", choices=["hard", "soft", "both"], default="both", help="span F1's match (default both)")
    p.add_argument("--metric", choices=list(F1_METRICS), default="char", help="span F1's metric (as f1; default char)")
    p.add_argument(
        "--convention",
        choices=[*F1_CONVENTIONS, *F1_ALIASES],
        default=None,
        help="span F1's length convention (as f1; default: the metric's own, both for char)",
    )
    p.add_argument("--soft-gamma", action="store_true", help="soft gamma (as gamma --soft)")
    p.add_argument(
        "--per",
        choices=["none", "split", "dataset", "setup_id"],
        default=None,
        help="one block of rows per split, dataset or generating system, or none (the splits pooled); default: "
        "per split where the frame holds several, else none",
    )
    p.add_argument(
        "--average",
        choices=["mean", "pooled", "none"],
        default="mean",
        help="over the reference sets: mean of the per-pair values (Table 6's averaging; default), pooled (the "
        "sets as one side, as factgenie pools a file's groups) or none (one row per pair)",
    )
    p.add_argument(
        "--matrix",
        action="store_true",
        help="every set against every other (default: every human group and judge), shown as a matrix",
    )
    p.add_argument(
        "--matrix-value",
        default=None,
        metavar="COLUMN",
        help="the column the matrix shows (default: f1 of the last match, else gamma or pearson_micro)",
    )
    args_.progress_args(p)
    args_.selection_args(p)
    args_.frame_args(p, per=False)
    args_.output_args(p)
    p.set_defaults(func=cmd_agreement)

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
    args_.boot_args(p)
    args_.progress_args(p)
    args_.selection_args(p)
    args_.frame_args(p)
    args_.output_args(p)
    p.set_defaults(func=cmd_metric)

    p = sub.add_parser(
        "target",
        help="the human target per system or per text: WMT's MQM score, a severity-weighted score, error counts",
        description="The human target of a corpus (an MQM file, or any factgenie export) per system or per text. "
        "--target mqm weighs MQM errors by WMT's weights (Major 5, Minor 1, Minor Fluency/Punctuation 0.1, "
        "Non-translation 25, Neutral 0; --weight amends them); --target weighted by the weights given alone.",
        epilog=None,
    )
    p.add_argument("corpus", help="an MQM file (*.tsv), a folder of them, or a factgenie corpus folder")
    p.add_argument("--target", choices=list(TARGET_CHOICES), default="mqm", help="the target (default mqm)")
    p.add_argument("--per", choices=["system", "text"], default="system", help="per system (default) or per text")
    p.add_argument(
        "--weight",
        action="append",
        default=None,
        metavar="NAME=VALUE",
        help="a weight (repeat): a severity (Major=5), a severity and category (Minor:Fluency/Punctuation=0.1), any "
        "severity with a category (*:Non-translation=25), or a category (Incorrect=3); with --target mqm they "
        "amend WMT's",
    )
    args_.selection_args(p)
    args_.frame_args(p, per=False)
    args_.output_args(p)
    p.set_defaults(func=cmd_target)

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
    p.add_argument("corpus", help="the corpus folder (factgenie layout)")
    p.add_argument("-o", "--out", required=True, help="the scores file to write (.csv or .jsonl)")
    p.add_argument("--only", action="append", default=None, metavar="NAME", help="one baseline (repeat for several)")
    args_.progress_args(p)
    args_.selection_args(p)
    args_.frame_args(p, per=False)
    p.set_defaults(func=cmd_baselines)

    if full:
        from .review import command as review_command

        review_command.add_parser(sub)
    else:
        _review_placeholder(sub)

    p = sub.add_parser("standin", help="regenerate the bundled simulated corpus")
    p.add_argument("--out", required=True, help="the folder to write (it must be empty, or --force)")
    p.add_argument("--seed", type=int, default=None, help="default: the seed of the bundled corpus")
    p.add_argument("--force", action="store_true", help="replace a non-empty folder")
    p.set_defaults(func=cmd_standin)
    return parser


def _command(argv: list[str]) -> str | None:
    """The command word of ``argv`` (the first argument that is no option)."""
    return next((a for a in argv if not a.startswith("-")), None)


def parse(argv: list[str]) -> argparse.Namespace:
    """The arguments of ``argv``: a command's options and positional arguments in any order
    (argparse's intermixed parsing, command by command; ``review``'s own sub-commands parse as
    usual)."""
    command = _command(argv)
    parser = build_parser(full=command == "review")
    if command is None or command == "review" or argv.index(command) != 0:
        return parser.parse_args(argv)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if command not in sub.choices:
        return parser.parse_args(argv)
    args = sub.choices[command].parse_intermixed_args(argv[1:])
    args.command = command
    return args


def _keep_freed_memory() -> None:
    """Have glibc's malloc keep what numpy frees for the next arrays, instead of handing each
    large array back to the kernel and faulting its pages in again when the next one is made. At
    a hundred times the d2t test split the resampling's arrays (a few MB to a few hundred) are
    made and freed thousands of times: the page faults took about a tenth of ``metric``'s time
    (``benchmarks/scale.py``). The heap's free top is kept up to 512 MB and the blocks freed
    below it are reused. A second thread's arena still maps each block over its 64 MB on its
    own: giving every thread the main heap (``M_ARENA_MAX`` 1) made the threads wait on its lock,
    slower in all. A command is one process, so what it keeps goes back at its exit:
    :func:`main` sets this only when it reads the command line itself (the ``hotelcheckspan``
    command, ``python -m hotelcheckspan.cli``), never when a program calls it with arguments or
    imports the package. Where the C library is not glibc, nothing changes."""
    try:
        import ctypes

        if not os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc"):
            return
        mallopt = ctypes.CDLL(None).mallopt
    except (ImportError, AttributeError, OSError, ValueError):
        return
    m_trim_threshold, m_top_pad, m_mmap_max = -1, -2, -4  # malloc.h
    mallopt(m_mmap_max, 0)  # large blocks from the heap, not each from mmap
    mallopt(m_trim_threshold, 512 << 20)  # the heap's free top kept up to 512 MB
    mallopt(m_top_pad, 64 << 20)  # and grown 64 MB beyond each need (fewer calls to the kernel)


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the command line, read by the command itself: a process of its own
        _keep_freed_memory()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse(argv)
    prefix = f"hotelcheckspan {args.command}:"
    try:
        return _quiet_pipe(args.func, args)
    except (CliError, out.OutputError) as err:
        print(f"{prefix} {err}", file=sys.stderr)
    except OSError as err:
        where = f" {err.filename}" if err.filename else ""
        print(f"{prefix} cannot write or read{where}: {err.strerror or err}", file=sys.stderr)
    except (UnicodeError, RecursionError, MemoryError) as err:
        print(f"{prefix} {type(err).__name__}: {err}", file=sys.stderr)
    except ValueError as err:  # CorpusError, CategoryMismatch and every clear refusal of the API
        print(f"{prefix} {err}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{prefix} interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # noqa: BLE001 (a bug of ours, not of the input: one line, never a traceback)
        import yaml

        if isinstance(err, yaml.YAMLError):
            print(f"{prefix} {type(err).__name__}: {err}", file=sys.stderr)
            return 1
        where = err.__traceback__
        while where.tb_next is not None:
            where = where.tb_next
        at = f"{Path(where.tb_frame.f_code.co_filename).name}:{where.tb_lineno}"
        print(
            f"{prefix} internal error ({type(err).__name__} at {at}: {err}); please report it with the command",
            file=sys.stderr,
        )
    return 1


def _quiet_pipe(func, args) -> int:
    """``func(args)``, ending quietly where the reader of stdout went away (``| head``): the
    rest of the output is dropped, as a Unix tool drops it."""
    try:
        code = func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python flushes stdout at exit: into nothing
        return 0


if __name__ == "__main__":
    sys.exit(main())
