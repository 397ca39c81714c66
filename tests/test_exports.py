"""The paper-ready exports (``make exports``): well-formed booktabs LaTeX holding the chapters' numbers.

The LaTeX writer is tested on a frame full of LaTeX specials; the written exports in
``_build/exports`` (made by ``make exports``, which ``make book`` runs) are checked file by file:
each table's LaTeX has balanced environments, booktabs rules, one cell per column in every row,
escaped specials, and every value of its CSV; a table shown by a chapter holds every number of
that chapter's executed output.
"""

from __future__ import annotations

import csv
import json
import math
import re
from html.parser import HTMLParser

import pandas as pd
import pytest

from hotelcheckspan import paths
from hotelcheckspan.book import exports

ROOT = paths.REPO_ROOT
OUT = ROOT / "_build" / "exports"
TABLES = [e for e in exports.EXPORTS if e.kind == "table"]
FIGURES = [e for e in exports.EXPORTS if e.kind == "figure"]
UNESCAPED = re.compile(r"(?<!\\)[%#$_&]")
NUMBER = re.compile(r"\d+(?:\.\d+)?")
SPECIALS = {
    r"\%": "%",
    r"\#": "#",
    r"\$": "$",
    r"\_": "_",
    r"\&": "&",
    r"\{": "{",
    r"\}": "}",
    r"\textasciitilde ": "~",
    r"\textasciicircum ": "^",
    r"\textbackslash ": "\\",
}


def problems_of(tex: str) -> list[str]:
    """What is wrong with a LaTeX table: unbalanced environments, missing rules, bad rows."""
    out, stack = [], []
    for kind, env in re.findall(r"\\(begin|end)\{(\w+)\}", tex):
        if kind == "begin":
            stack.append(env)
        elif not stack or stack.pop() != env:
            out.append(f"\\end{{{env}}} without its \\begin")
    out += [f"\\begin{{{env}}} never ended" for env in stack]
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        if tex.count(rule) != 1:
            out.append(f"{rule} appears {tex.count(rule)} times")
    spec = re.search(r"\\begin\{tabular\}\{([^{}]*(?:\{[^}]*\}[^{}]*)*)\}", tex)
    if not spec:
        return out + ["no tabular"]
    ncols = len(re.findall(r"p\{[^}]*\}|[lrc]", spec.group(1)))
    for i, row in enumerate(rows_of(tex)):
        if len(row) != ncols:
            out.append(f"row {i}: {len(row)} cells for {ncols} columns")
        for cell in row:
            if UNESCAPED.search(cell):
                out.append(f"row {i}: unescaped special character in {cell!r}")
    return out


def rows_of(tex: str) -> list[list[str]]:
    """Header and body rows of the tabular, as raw LaTeX cells."""
    body = tex.split(r"\toprule", 1)[1].split(r"\bottomrule", 1)[0].replace(r"\midrule", "")
    rows = [r.strip() for r in re.split(r"\\\\\s*\n", body) if r.strip()]
    return [[c.strip() for c in re.split(r"(?<!\\)&", r)] for r in rows]


def unescape(cell: str) -> str:
    for latex, plain in SPECIALS.items():
        cell = cell.replace(latex, plain)
    return cell


def same(latex_cell: str, csv_cell: str) -> bool:
    """Whether the LaTeX cell shows the CSV value (numbers to the LaTeX cell's precision)."""
    shown, value = unescape(latex_cell), csv_cell.strip()
    if value == "":
        return shown == "--"
    try:
        number = float(value)
    except ValueError:
        return shown == value
    if math.isnan(number):
        return shown == "--"
    decimals = len(shown.split(".")[1]) if "." in shown else 0
    return (
        re.fullmatch(r"-?\d+(\.\d+)?", shown) is not None and abs(float(shown) - number) <= 0.5 * 10**-decimals + 1e-9
    )


def test_latex_writer_escapes_and_balances():
    frame = pd.DataFrame(
        {
            "claim": ["50% off & more", "room_type #1", "costs $5 {net}"],
            "share %": [12.345, 3.0, 0.5],
            "count": [3, 10, 0],
        }
    )
    tex = exports.to_latex(frame, "A caption with 100% & more", "demo", digits=1)
    assert problems_of(tex) == []
    header, *body = rows_of(tex)
    assert [unescape(c) for c in header] == ["claim", "share %", "count"]
    assert [unescape(r[0]) for r in body] == list(frame["claim"])
    assert [r[1] for r in body] == ["12.3", "3.0", "0.5"]
    assert [r[2] for r in body] == ["3", "10", "0"]
    assert r"\label{tab:demo}" in tex and r"\caption{A caption with 100\% \& more}" in tex


def test_the_checker_catches_broken_latex():
    tex = exports.to_latex(pd.DataFrame({"a": ["x"], "b": [1]}), "c", "d")
    assert problems_of(tex.replace(r"\end{tabular}", ""))
    assert problems_of(tex.replace("x &", "x_y &"))
    assert problems_of(tex.replace(r"\bottomrule", ""))


def test_decimals_are_as_few_as_the_values_need():
    assert exports.decimals(pd.Series([4.7, 3.8]), 2) == 1
    assert exports.decimals(pd.Series([0.36, 1.1]), 2) == 2
    assert exports.decimals(pd.Series([3.0, 10.0]), 2) == 0


@pytest.fixture(scope="module")
def index() -> pd.DataFrame:
    if not (OUT / "index.csv").exists():
        pytest.skip("no exports: run `make exports` (make book runs it)")
    return pd.read_csv(OUT / "index.csv")


def test_every_export_was_written(index):
    assert list(index["name"]) == [e.name for e in exports.EXPORTS]
    for e in exports.EXPORTS:
        row = index.set_index("name").loc[e.name]
        assert row["kind"] == e.kind and row["chapter"] == e.chapter
        for name in row["files"].split():
            assert (OUT / name).stat().st_size > 0, name
    for e in FIGURES:
        assert (OUT / f"{e.name}.pdf").read_bytes()[:5] == b"%PDF-"
        assert (OUT / f"{e.name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("export", TABLES, ids=[e.name for e in TABLES])
def test_latex_table_is_well_formed_and_holds_the_csv(index, export):
    tex = (OUT / f"{export.name}.tex").read_text(encoding="utf-8")
    assert problems_of(tex) == []
    with (OUT / f"{export.name}.csv").open(encoding="utf-8") as fh:
        table = list(csv.reader(fh))
    latex = rows_of(tex)
    assert len(latex) == len(table), "the LaTeX and the CSV have different numbers of rows"
    assert [unescape(c) for c in latex[0]] == table[0]
    for i, (lrow, crow) in enumerate(zip(latex[1:], table[1:], strict=True), start=1):
        wrong = [(h, lc, cc) for h, lc, cc in zip(table[0], lrow, crow, strict=True) if not same(lc, cc)]
        assert not wrong, f"row {i}: LaTeX shows other values than the CSV: {wrong}"


class _Cells(HTMLParser):
    """The text of the <td> cells of an HTML table (the index, in <th>, is left out)."""

    def __init__(self):
        super().__init__()
        self.cells: list[str] = []
        self._in = False

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self._in = True
            self.cells.append("")

    def handle_endtag(self, tag):
        if tag == "td":
            self._in = False

    def handle_data(self, data):
        if self._in:
            self.cells[-1] += data


def chapter_output(chapter: str, call: str) -> str:
    """The HTML output of the first cell of an executed chapter that makes the call."""
    nb = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and call in "".join(cell["source"]):
            for output in cell.get("outputs", []):
                html = output.get("data", {}).get("text/html")
                if html:
                    return "".join(html)
    raise AssertionError(f"{chapter} shows no table made by {call}: update `shown_by` in book/exports.py")


@pytest.mark.parametrize("export", [e for e in TABLES if e.shown_by], ids=[e.name for e in TABLES if e.shown_by])
def test_latex_table_holds_the_chapters_numbers(index, export):
    parser = _Cells()
    parser.feed(chapter_output(export.chapter, export.shown_by))
    shown = [n for cell in parser.cells for n in NUMBER.findall(cell)]
    assert shown, f"no number in the output of {export.shown_by} in {export.chapter}"
    tex = (OUT / f"{export.name}.tex").read_text(encoding="utf-8")
    ours = [float(n) for row in rows_of(tex)[1:] for cell in row for n in NUMBER.findall(unescape(cell))]
    missing = []
    for text in shown:
        decimals = len(text.split(".")[1]) if "." in text else 0
        tolerance = 0.5 * 10**-decimals + 1e-9
        if not any(abs(float(text) - v) <= tolerance or abs(round(v, decimals) - float(text)) <= 1e-9 for v in ours):
            missing.append(text)
    assert not missing, f"numbers of chapter {export.chapter} missing from {export.name}.tex: {missing}"


@pytest.mark.parametrize("export", exports.EXPORTS, ids=[e.name for e in exports.EXPORTS])
def test_the_chapter_shows_the_export_where_the_site_links_it(export):
    """The site links an export's files under the first cell of its chapter that makes its
    ``shown_by`` call (book/_ext/exports_links.py): that cell must show a table (HTML) for a table
    export and an image for a figure; an export with no such call is linked from the citing page only."""
    if export.shown_by is None:
        assert export.kind == "table", f"{export.name}: a figure export names the call that draws it"
        return
    nb = json.loads((ROOT / "notebooks" / f"{export.chapter}.ipynb").read_text(encoding="utf-8"))
    cells = [c for c in nb["cells"] if c["cell_type"] == "code" and export.shown_by in "".join(c["source"])]
    assert cells, f"{export.chapter} makes no call {export.shown_by}: update `shown_by` in book/exports.py"
    kinds = {m for o in cells[0].get("outputs", []) for m in o.get("data", {})}
    wanted = "image/png" if export.kind == "figure" else "text/html"
    assert wanted in kinds, f"the first cell of {export.chapter} calling {export.shown_by} shows no {wanted}"
    if export.kind == "table":
        assert "<table" in chapter_output(export.chapter, export.shown_by)


def _ext(name: str):
    """A module of book/_ext (Sphinx loads them from there, not as a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "book" / "_ext" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_tables_csv_is_its_rows_and_its_cells_are_read_apart():
    """book/_ext/exports_links.py on the presentation layer's HTML: the CSV holds the header and
    every row as shown (an interval stays with its estimate, text is unescaped), and the HTML the
    search index reads has whitespace between cells and rows."""
    from hotelcheckspan.book import tables

    links = _ext("exports_links")
    frame = pd.DataFrame({"judge": ["gpt-4o", 'a, "b" & <c>'], "f1": ["0.13 [0.08, 0.19]", "0.20"]})
    html = tables.show(frame).to_html()
    rows = links.table_rows(html)
    assert rows == [["Judge", "F1"], ["gpt-4o", "0.13 [0.08, 0.19]"], ['a, "b" & <c>', "0.20"]]
    assert list(csv.reader(links.to_csv(rows).splitlines())) == rows
    apart = links.separate_cells(html)
    assert "</td><" not in apart and "</th><" not in apart and "</tr><" not in apart
    assert links.table_rows(apart) == rows
    assert re.sub(r"<[^<]+?>", "", apart).split() == ["Judge", "F1", "gpt-4o", "0.13", "[0.08,", "0.19]"] + [
        "a,",
        "&quot;b&quot;",
        "&amp;",
        "&lt;c&gt;",
        "0.20",
    ]
    # the table and its scroll box are matched whole, so the links go under the box
    assert links.TABLE.fullmatch(html)


def test_the_exported_impression_figure_draws_the_papers_lines_as_the_chapter_does(corpus):
    """Chapter 07 draws the paper's no-error mean and its mean over records with errors (a dashed
    line); the exported figure draws both too (issue 35: it lacked the line)."""
    from types import SimpleNamespace

    import matplotlib.pyplot as plt

    from hotelcheckspan.analyses import impressions
    from hotelcheckspan.reference import paper

    export = next(e for e in FIGURES if e.name == "figure_impression_by_count")
    reported = paper.figures()
    fig = export.make(SimpleNamespace(ratings=impressions.ratings(corpus), reported=reported))
    dashed = [
        line
        for ax in fig.axes
        for line in ax.get_lines()
        if line.get_linestyle() == "--" and set(line.get_ydata()) == {reported["impressions"]["mean_with_error"]}
    ]
    plt.close(fig)
    assert dashed
