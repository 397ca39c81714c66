"""What can be wrong with an input: a :class:`Problem` (an error or a warning) and the
:class:`CorpusError` that :func:`~hotelcheckspan.corpora.load` raises when there are errors.

Errors mean the data cannot be read or means nothing; warnings are quirks of real exports that
factgenie computes with (the data is kept and counted). See ``book/methods.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One defect in the input: where it is (file, line, field; line 0 for the whole file) and
    what is wrong, with its severity (``"error"`` or ``"warning"``)."""

    file: str
    line: int
    field: str
    message: str
    severity: str = ERROR

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
        """``FILE:LINE: error: FIELD: message``, the compiler convention editors understand."""
        field = f" {self.field}:" if self.field else ""
        return f"{self._where()}: {self.severity}:{field} {self.message}"


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.is_error]


def warnings(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if not p.is_error]


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
    """Two compared campaigns have different span categories."""

    def __init__(self, first: str, first_categories: list[str], second: str, second_categories: list[str]):
        self.categories = (first_categories, second_categories)
        super().__init__(f"the categories of {first} and {second} differ: {first_categories} vs {second_categories}")
