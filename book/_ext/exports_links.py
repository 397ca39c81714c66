"""The paper-ready exports (``make exports``) published with the site, and a directive that lists them.

``{exports}`` renders ``_build/exports/index.csv`` as a table: each export's caption, the
chapter that shows it and download links to its files. The files are copied to ``exports/`` in
the built site when the build finishes. A missing export folder is a build warning (an error
under ``-W``), so a site is never published with dead download links.
"""

from __future__ import annotations

import csv
import posixpath
import shutil
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


def setup(app):
    app.add_config_value("hotelcheckspan_exports", "_build/exports", "env")
    app.add_directive("exports", ExportsTable)
    app.connect("build-finished", copy_exports)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
