"""The command line's shared arguments, declared once: the selection and the frame (every command
that reads a corpus takes them), the output format, progress bars and bootstrap resamples."""

from __future__ import annotations

import argparse

from . import cli_output as out
from .cli_output import SUMMARY_AFTER


def selection_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("selection (select before you compute)")
    g.add_argument(
        "--task",
        default=None,
        help="one task of the corpus: the folder below annotations/<kind>/ (e.g. d2t-eval), or a dataset prefix "
        "(e.g. wmt24); campaigns lists the tasks. An export holding tasks with different categories needs one",
    )
    g.add_argument(
        "--split", action="append", default=None, metavar="SPLIT", help="only the records and texts of SPLIT (repeat)"
    )
    g.add_argument(
        "--campaign",
        action="append",
        default=None,
        dest="campaigns",
        metavar="NAME",
        help="only campaign NAME (a name as campaigns lists it, or its folder; repeat); the human or model "
        "campaigns of a kind none of them is are all kept",
    )


def frame_args(p: argparse.ArgumentParser, per: bool = True) -> None:
    """The frame: what every number rests on (the human reference, the texts, the grouping)."""
    g = p.add_argument_group(
        "the frame (what every number rests on; the header of every output names it)",
        "Human campaigns have roles, recognised from their folders (annotation, iaa, qualification, key, "
        "attention); only annotation and iaa campaigns are references by default. A task with several splits "
        "is computed per split unless pooled.",
    )
    g.add_argument(
        "--reference",
        action="append",
        default=None,
        metavar="NAME",
        help="take human campaign NAME as a reference whatever its role (repeat)",
    )
    g.add_argument("--exclude", action="append", default=None, metavar="NAME", help="leave campaign NAME out (repeat)")
    g.add_argument(
        "--roles",
        default=None,
        metavar="FILE",
        help="a YAML file of campaign: role (annotation, iaa, qualification, key, attention)",
    )
    if per:
        g.add_argument(
            "--per",
            choices=["split", "dataset"],
            default=None,
            help="one block per split (the default where the frame holds several) or per dataset",
        )
    g.add_argument("--pool", action="store_true", help="pool the splits into one block (said in the header)")
    g.add_argument(
        "--texts",
        choices=["with-output", "all"],
        default="with-output",
        help="with-output: records on texts the corpus holds (default; others left out and counted); all: every "
        "record, as factgenie counts them",
    )
    g.add_argument(
        "--span-type",
        choices=["severity", "category", "both"],
        default="severity",
        help="an MQM file's span types: its severities (default, as WMT weighs them), its categories, or both",
    )


def output_args(p: argparse.ArgumentParser, table: bool = True) -> None:
    g = p.add_argument_group("output")
    g.add_argument(
        "--format",
        choices=out.FORMATS,
        default=None,
        help="text for readers (default); csv, tsv or latex, every table after a '# NAME' line; json: strict JSON "
        "with the settings it ran with",
    )
    g.add_argument("--json", action="store_true", help="the same as --format json (undefined values are null)")
    if table:
        g.add_argument("--table", default=None, metavar="NAME", help="with csv, tsv or latex: only the table NAME")
    g.add_argument(
        "--verbose",
        action="store_true",
        help=f"list every warning (by default more than {SUMMARY_AFTER} are summarised per class and file)",
    )


def progress_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: where stderr is a terminal and the output is not JSON)",
    )


def boot_args(p: argparse.ArgumentParser, what: str = "interval") -> None:
    p.add_argument("--n-boot", type=int, default=1000, help=f"bootstrap resamples of every {what} (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the resamples (default 0)")
