"""No literal number in any notebook's prose: every number a chapter's markdown shows is glued
from the cell that computes it (myst-nb ``{glue...}`` roles and directives) or read from
``data/paper_figures.yaml`` in code, so a rebuild on another corpus cannot leave a stale one.

The rule, on the markdown cells of every ``notebooks/*.py`` (the reviewed source; the .ipynb
twin holds the same cells):

- a *literal number* is a run of digits (with decimals or thousands separators, and an
  optional sign or %) that stands as a word of its own: digits inside names such as gpt-4o,
  o3-mini, gemma-3, F1 or all-MiniLM-L6-v2 are part of the name and do not count;
- not counted: the content of roles (``{glue:text}`x:.2f```, ``{numref}`fig-a```), inline code,
  directive fences and their options, link targets and ``(label)=`` targets, list numbering
  ("1. ..."), and references to the paper's or the book's parts: Table/Tables, Section/Sections,
  Appendix, Figure/Fig., Chapter, and stage names (Stage 1), including lists such as
  "Sections 3.3 and 4.3" or "Tables 2-4"; facts about software and time that no corpus can
  change: version numbers of three parts (factgenie 1.2.1), years and dates (May 2025,
  2025-05-22); inline mathematics (``$p(1-p)$``); and the numbered headings of an argument
  (``**1. Recall from precision.**``).
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.py"))

NUM = r"[A-Z]?\d+(?:\.\d+)*"
REFERENCE = re.compile(
    rf"\b(?:tables?|sections?|appendix|appendices|figures?|figs?\.|chapters?|stages?|§)\s*{NUM}"
    rf"(?:\s*(?:,|and|or|-|–|to)\s*{NUM})*",
    re.IGNORECASE,
)
ROLE = re.compile(r"\{[\w:.-]+\}`[^`]*`")  # {glue:text}`name:.2f`, {numref}`fig-x`
CODE = re.compile(r"``[^`]*``|`[^`]*`")  # inline code
LINK_TARGET = re.compile(r"\]\([^)]*\)")  # [text](target)
VERSION = re.compile(r"\b\d+\.\d+\.\d+\b")  # software versions
DATE = re.compile(r"\b(?:19|20)\d\d(?:-\d\d-\d\d)?\b")  # years and ISO dates
MATH = re.compile(r"\$[^$]+\$")  # inline mathematics
HEADING = re.compile(r"^\s*\*\*\d+\.\s")  # **1. A numbered step of an argument.**
LITERAL = re.compile(r"(?<![\w.\-/])[-+−]?\d+(?:[.,]\d+)*%?(?![\w/])")


def markdown_lines(path: Path):
    """(line number, text) of every markdown line of a jupytext percent notebook."""
    in_md, fence = False, False
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("# %%"):
            in_md, fence = "[markdown]" in line, False
            continue
        if not in_md or not line.startswith("#"):
            continue
        text = line[2:] if line.startswith("# ") else line[1:]
        if text.lstrip().startswith(("```", ":::")):
            fence = not fence if not re.match(r"\s*(```|:::)\s*$", text) or fence else fence
            continue
        if fence and text.lstrip().startswith(":"):  # a directive's options
            continue
        yield no, text


def literal_numbers(text: str) -> list[str]:
    """The literal numbers of one line of markdown under the rule above."""
    if re.fullmatch(r"\s*\([\w-]+\)=\s*", text):  # a (label)= target
        return []
    text = re.sub(r"^\s*\d+\.\s", " ", text)  # list numbering
    for pattern in (ROLE, CODE, LINK_TARGET, REFERENCE, MATH, HEADING, VERSION, DATE):
        text = pattern.sub(" ", text)
    return LITERAL.findall(text)


def test_the_rule_catches_numbers_and_spares_names_and_references():
    assert literal_numbers("soft F1 around 0.5 against 0.28, k = 30, +7.7% in stage 1") == [
        "0.5",
        "0.28",
        "30",
        "+7.7%",
    ]
    assert literal_numbers("1,482 ratings from 90 annotators") == ["1,482", "90"]
    assert literal_numbers("gpt-4o, o3-mini, gemma-3 and all-MiniLM-L6-v2 agree on F1") == []
    assert literal_numbers("Sections 3.3 and 4.3, Tables 2-4, Appendix A, Fig. 7, Stage 1 - Stage 2") == []
    assert literal_numbers("1. How many? ([Table 3](table3))") == []
    assert literal_numbers("ours is {glue:text}`f1:.2f` against {glue:text}`paper_f1`") == []
    assert literal_numbers("(table3)=") == []
    assert literal_numbers("factgenie 1.2.1 (January 2026), the script of 2025-05-22") == []
    assert literal_numbers("**2. Span counts.** the variance $p(1 - p)$ of 0.25") == ["0.25"]
    assert literal_numbers("factgenie 1.2 and 12 pairs") == ["1.2", "12"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_literal_number_in_markdown(path):
    found = [
        f"{path.relative_to(ROOT)}:{no}: {', '.join(nums)} in: {text.strip()}"
        for no, text in markdown_lines(path)
        if (nums := literal_numbers(text))
    ]
    assert not found, (
        "literal numbers in notebook markdown; glue them from the cell that computes them "
        "(myst_nb.glue / hotelcheckspan.book.prose) or read them from data/paper_figures.yaml:\n" + "\n".join(found)
    )
