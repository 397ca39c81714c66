"""What can be wrong with an input: a :class:`Problem` (an error or a warning) and the
:class:`CorpusError` that :func:`~hotelcheckspan.corpora.load` raises when there are errors.

Errors mean the data cannot be read or means nothing; warnings are quirks of real exports that
factgenie computes with (the data is kept and counted). See ``book/methods.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"

# The classes of warnings (``Problem.kind``): the quirks of real exports factgenie computes with.
CASE = "case"  # a span's text differs from the text at its start only in letter case
SHIFTED = "shifted"  # a span's text sits one or two characters before or after its start
MISPLACED = "misplaced"  # a span's text is elsewhere in the annotated text
NOT_FOUND = "not-found"  # a span's text is nowhere in the annotated text
PAST_END = "past-end"  # a span runs past the end of the annotated text
NO_TEXT = "no-text"  # a record whose example has no annotated text
OVERLAP = "overlap"  # overlapping spans where the campaign's config forbids overlaps
DUPLICATE_RECORD = "duplicate-record"  # a second record of one group for one example
DUPLICATE_SPAN = "duplicate-span"  # the same span twice in a record
DUPLICATE_OUTPUT = "duplicate-output"  # the same output twice in outputs/
NO_INPUTS = "no-inputs"  # an inputs/ file that holds no list of inputs (not shown)
SYMLINK_LOOP = "symlink-loop"  # a folder reached again through a symlink (skipped)
EMPTY_CAMPAIGN = "empty-campaign"  # a campaign folder with its config and no annotation file (left out)
EMPTY_FILE = "empty-file"  # an annotation file with no line (0 bytes or blank): its campaign has 0 records
OUTSIDE = "outside"  # a problem of a campaign outside the selection or the frame: it does not block the run
NO_CONFIG = "no-config"  # a lone annotation file read without its campaign's config
# a record none of whose spans is in its example's text, all of them in the text of the example
# its orig_example_idx names (ORIG_EXAMPLE) or of another example (OTHER_EXAMPLE): one warning per
# record says the cause, instead of a not-found per span and a duplicate-record
ORIG_EXAMPLE = "orig-example"
OTHER_EXAMPLE = "other-example"
UNPLACED = (MISPLACED, NOT_FOUND, PAST_END)  # span classes whose words or place are unknown


@dataclass(frozen=True)
class Problem:
    """One defect in the input: where it is (file, line, field; line 0 for the whole file) and
    what is wrong, with its severity (``"error"`` or ``"warning"``) and, for a warning, its
    machine-readable class (``kind``: ``"case"``, ``"shifted"``, ``"misplaced"``, ...; see the
    constants of this module)."""

    file: str
    line: int
    field: str
    message: str
    severity: str = ERROR
    kind: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def _where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    def __str__(self) -> str:
        """``FILE:LINE: FIELD: message`` (``FILE: message`` for a path-level problem)."""
        field = f" {self.field}:" if self.field else ""
        return f"{self._where()}:{field} {self.message}"

    def tagged(self) -> str:
        """``FILE:LINE: error: FIELD: message``, the compiler convention editors understand; a
        warning ends with its class in brackets, as compilers name theirs (``[case]``)."""
        field = f" {self.field}:" if self.field else ""
        kind = f" [{self.kind}]" if self.kind else ""
        return f"{self._where()}: {self.severity}:{field} {self.message}{kind}"


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.is_error]


def warnings(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if not p.is_error]


def warning(file: str, line: int, field: str, message: str, kind: str) -> Problem:
    """A warning of class ``kind``."""
    return Problem(file, line, field, message, WARNING, kind)


def summary(problems: list[Problem]) -> list[tuple[str, str, str, int]]:
    """``(severity, class, file, count)`` per class and file, in file order then by count; an
    error's class is ``"error"`` unless it has one."""
    counts: dict[tuple[str, str, str], int] = {}
    for p in problems:
        key = (p.severity, p.kind or p.severity, p.file)
        counts[key] = counts.get(key, 0) + 1
    return [(*k, n) for k, n in sorted(counts.items(), key=lambda kv: (kv[0][2], kv[0][0], -kv[1], kv[0][1]))]


def ordered(problems: list[Problem]) -> list[Problem]:
    """Problems in file and line order (stable within a line)."""
    return sorted(problems, key=lambda p: (p.file, p.line))


def count(problems: list[Problem]) -> str:
    """'2 errors, 1 warning'."""
    n_err, n_warn = len(errors(problems)), len(warnings(problems))
    return f"{n_err} error{'s' if n_err != 1 else ''}, {n_warn} warning{'s' if n_warn != 1 else ''}"


class CorpusError(ValueError):
    """Raised with every error found (one per line); warnings are not errors."""

    def __init__(self, problems: list[Problem], what: str = "the corpus"):
        self.problems = problems
        if len(problems) == 1:  # one line, naming its file
            super().__init__(str(problems[0]))
            return
        lines = "\n".join(str(p) for p in problems)
        super().__init__(f"{len(problems)} errors in {what}:\n{lines}")


class CategoryMismatch(ValueError):
    """Two compared campaigns have different span categories (``hint``: how to choose one set)."""

    def __init__(
        self, first: str, first_categories: list[str], second: str, second_categories: list[str], hint: str = ""
    ):
        self.categories = (first_categories, second_categories)
        tail = f"; {hint}" if hint else ""
        super().__init__(
            f"the categories of {first} and {second} differ: {first_categories} vs {second_categories}{tail}"
        )
