"""The paper-ready exports (``make exports``) published with the site, and a directive that lists them.

``{exports}`` renders ``_build/exports/index.csv`` as a table: each export's caption, the
chapter that shows it and download links to its files. The files are copied to ``exports/`` in
the built site when the build finishes. A missing export folder is a build warning (an error
under ``-W``), so a site is never published with dead download links.

Under every table and figure of a chapter (issue 29), a line of download links:

- every table: "CSV", the table as shown (header row, then one line per row, the cells' text),
  written by the build into ``_tables/`` of the site. A build step rather than a ``data:`` URI in
  the table's HTML: the executed notebooks stay as they are (nbval compares them), every table gets
  one whichever way it was made (the presentation layer, pandas, a dropdown), and a page does not
  carry its tables twice;
- every figure: "PNG", the image the page shows;
- a table or figure that ``make exports`` writes as well (the export's ``shown_by`` call is in the
  cell): its LaTeX and CSV, or its PDF, from ``exports/``.

Table cells are also separated by whitespace in the HTML (``</td> <td>``, a line after a row),
so that the search index and its snippets do not run the cells of a row together.
"""

from __future__ import annotations

import csv
import html
import io
import posixpath
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)
SITE_FOLDER = "exports"


def exports_dir(app) -> Path:
    return Path(app.srcdir) / app.config.hotelcheckspan_exports


class ExportsTable(SphinxDirective):
    def run(self):
        folder = exports_dir(self.env.app)
        index = folder / "index.csv"
        if not index.exists():
            logger.warning(
                f"no {index.relative_to(self.env.srcdir)}: run `make exports` before building the book",
                location=(self.env.docname, self.lineno),
            )
            return []
        self.env.note_dependency(str(index))
        with index.open(encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        here = posixpath.dirname(self.env.docname)
        # the data note (simulated stand-in or which corpus) is the same for every export: say it once
        notes = {row.get("note") or "" for row in rows}
        shared = notes.pop() if len(notes) == 1 else ""
        if shared:
            for row in rows:
                row["caption"] = row["caption"].removesuffix(shared).rstrip()
        table = nodes.table(classes=["colwidths-auto", "exports-table"])
        group = nodes.tgroup(cols=3)
        table += group
        group += [nodes.colspec(colwidth=1) for _ in range(3)]
        head = nodes.thead()
        head += nodes.row("", *[nodes.entry("", nodes.paragraph(text=h)) for h in ("export", "chapter", "files")])
        body = nodes.tbody()
        group += [head, body]
        for row in rows:
            chapter = f"notebooks/{row['chapter']}"
            if chapter in self.env.found_docs:
                ref = pending_xref(
                    refdoc=self.env.docname,
                    reftarget="/" + chapter,
                    reftype="doc",
                    refdomain="std",
                    refexplicit=False,
                    refwarn=True,
                )
                ref += nodes.inline(text=row["chapter"])
            else:
                ref = nodes.Text(row["chapter"])
            links = nodes.paragraph()
            for i, name in enumerate(row["files"].split()):
                if not (folder / name).exists():
                    logger.warning(f"export file missing: {folder / name}", location=(self.env.docname, self.lineno))
                uri = posixpath.relpath(f"{SITE_FOLDER}/{name}", here)
                links += [
                    nodes.Text(" " if i else ""),
                    nodes.reference("", name.rsplit(".", 1)[1].upper(), refuri=uri, classes=["download"]),
                ]
            body += nodes.row(
                "",
                nodes.entry("", nodes.paragraph(text=row["caption"])),
                nodes.entry("", nodes.paragraph("", "", ref)),
                nodes.entry("", links),
            )
        return [nodes.paragraph(text=f"Every export: {shared}")] + [table] if shared else [table]


def copy_exports(app, exception):
    folder = exports_dir(app)
    if exception is None and app.builder.format == "html" and folder.exists():
        target = Path(app.outdir) / SITE_FOLDER
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(folder, target, ignore=shutil.ignore_patterns(".*"))


# --- download links under every table and figure of a chapter ------------------------------------

TABLES_FOLDER = "_tables"
CHAPTERS = re.compile(r"notebooks/\d\d_[a-z0-9_]+")
# a table, with the presentation layer's scroll box around it when there is one
TABLE = re.compile(r'(<div class="hcs-scroll">\s*)?<table\b.*?</table>(?(1)\s*</div>)', re.S)
CELL_GAP = re.compile(r"(</t[dh]>)(?=<)")
ROW_GAP = re.compile(r"(</tr>)(?=<)")


class _Rows(HTMLParser):
    """The rows of one HTML table as text: every ``<th>``/``<td>`` of every ``<tr>``, whitespace
    collapsed (an interval's bounds stay beside their estimate: "0.13 [0.08, 0.19]")."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def table_rows(table_html: str) -> list[list[str]]:
    parser = _Rows()
    parser.feed(table_html)
    return [r for r in parser.rows if r]


def to_csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def separate_cells(raw: str) -> str:
    """Whitespace between the cells and rows of every table (what the search index reads)."""
    return ROW_GAP.sub("\\1\n", CELL_GAP.sub("\\1 ", raw))


def _links(items: list[tuple[str, str, str]]) -> str:
    """``<p class="hcs-downloads">``: a link per (label, href, kind) item."""
    links = " ".join(
        f'<a class="hcs-download hcs-download-{kind}" href="{html.escape(href, quote=True)}" download>{label}</a>'
        for label, href, kind in items
    )
    return f'<p class="hcs-downloads">Download: {links}</p>'


def _shown_by() -> dict[str, str]:
    """Each export's name and the call of its chapter whose output it is (hotelcheckspan.book.exports)."""
    try:
        from hotelcheckspan.book.exports import EXPORTS
    except ImportError:  # the book's package not installed: no export links, the rest still works
        return {}
    return {e.name: e.shown_by for e in EXPORTS if e.shown_by}


def _chapter_exports(app, docname: str) -> list[dict]:
    """The exports of this chapter (from the written index.csv), each with its ``shown_by`` call."""
    index = exports_dir(app) / "index.csv"
    if not index.exists():
        return []
    calls = _shown_by()
    with index.open(encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if f"notebooks/{r['chapter']}" == docname and r["name"] in calls]
    return [{**r, "call": calls[r["name"]]} for r in rows]


def _export_links(row: dict, here: str, kinds: tuple[str, ...]) -> list[tuple[str, str, str]]:
    names = {"tex": "LaTeX", "csv": "CSV (export)", "pdf": "PDF"}
    out = []
    for name in row["files"].split():
        ext = name.rsplit(".", 1)[1]
        if ext in kinds:
            out.append((names[ext], posixpath.relpath(f"{SITE_FOLDER}/{name}", here), f"export-{ext}"))
    return out


def _image_file(app, node: nodes.image) -> str | None:
    """The file name the HTML builder gives an image in ``_images/`` (Sphinx's own table of them)."""
    for candidate in (node.get("candidates") or {}).values():
        if candidate in app.env.images:
            return app.env.images[candidate][1]
    return None


def add_download_links(app, doctree, docname):
    """Separate table cells on every page; under each table and figure of a chapter, its links."""
    if app.builder.format != "html":
        return
    for raw in list(doctree.findall(nodes.raw)):
        if "html" in raw.get("format", "").split() and "<table" in raw.astext():
            text = separate_cells(raw.astext())
            raw.replace_self(nodes.raw("", text, format=raw["format"]))
    if not CHAPTERS.fullmatch(docname):
        return
    here = posixpath.dirname(docname)
    outdir = Path(app.outdir) / TABLES_FOLDER
    pending = _chapter_exports(app, docname)
    count = 0
    for cell in list(doctree.findall(nodes.container)):
        if "cell" not in cell["classes"]:
            continue
        source = "".join(b.astext() for b in cell.findall(nodes.literal_block))
        export = next((e for e in pending if e["call"] in source), None)
        # an output's container, also inside a collapsed output (a hide-output cell)
        for output in [c for c in cell.findall(nodes.container) if "cell_output" in c["classes"]]:
            for raw in list(output.findall(nodes.raw)):
                if "html" not in raw.get("format", "").split() or "<table" not in raw.astext():
                    continue

                def link(match):
                    nonlocal count, export
                    if match.group(0).count("<table") > 1:  # a table inside a table: not matched whole
                        return match.group(0)
                    count += 1
                    name = f"{docname.rsplit('/', 1)[1]}-table-{count:02d}.csv"
                    outdir.mkdir(parents=True, exist_ok=True)
                    (outdir / name).write_text(to_csv(table_rows(match.group(0))), encoding="utf-8")
                    items = [("CSV", posixpath.relpath(f"{TABLES_FOLDER}/{name}", here), "csv")]
                    if export is not None and export["kind"] == "table":
                        items += _export_links(export, here, ("tex", "csv"))
                        pending.remove(export)
                        export = None
                    return match.group(0) + _links(items)

                raw.replace_self(nodes.raw("", TABLE.sub(link, raw.astext()), format=raw["format"]))
            for image in list(output.findall(nodes.image)):
                file = _image_file(app, image)
                if file is None:
                    continue
                items = [("PNG", posixpath.relpath(f"{app.builder.imagedir}/{file}", here), "png")]
                if export is not None and export["kind"] == "figure":
                    items += _export_links(export, here, ("pdf",))
                    pending.remove(export)
                    export = None
                target = image.parent if isinstance(image.parent, nodes.reference) else image
                target = target.parent if isinstance(target.parent, nodes.figure) else target
                target.parent.insert(target.parent.index(target) + 1, nodes.raw("", _links(items), format="html"))
    for table in list(doctree.findall(nodes.table)):  # tables written in a chapter's text
        rows = [
            [" ".join(entry.astext().split()) for entry in row.findall(nodes.entry)]
            for part in table.findall(lambda n: isinstance(n, (nodes.thead, nodes.tbody)))
            for row in part.children
            if isinstance(row, nodes.row)
        ]
        count += 1
        name = f"{docname.rsplit('/', 1)[1]}-table-{count:02d}.csv"
        outdir.mkdir(parents=True, exist_ok=True)
        (outdir / name).write_text(to_csv(rows), encoding="utf-8")
        link = _links([("CSV", posixpath.relpath(f"{TABLES_FOLDER}/{name}", here), "csv")])
        table.parent.insert(table.parent.index(table) + 1, nodes.raw("", link, format="html"))


def setup(app):
    app.add_config_value("hotelcheckspan_exports", "_build/exports", "env")
    app.add_directive("exports", ExportsTable)
    app.connect("build-finished", copy_exports)
    app.connect("doctree-resolved", add_download_links)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
