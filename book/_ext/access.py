"""Every reader, keyboard and screen reader included (issue 46: WCAG 2.1 AA, checked by axe-core
in tests/test_site.py), and a site any web server can read (issue 45).

- Tables: each table a page shows has a caption a screen reader announces. One the table brings
  (``tables.show(caption=...)``, a Markdown table's title) is kept; a table without one gets its
  section's title ("Table 2 of 3 under 'Span-level agreement'"), visually hidden, since the
  heading above already says it to a sighted reader. Each scroll box around a table (the
  presentation layer's ``.hcs-scroll``, the theme's ``.pst-scrollable-table-container``) is a
  region named by that caption and reachable by the keyboard (``tabindex="0"``), so the columns
  past its edge can be scrolled without a mouse (book/_static/tables.css draws its focus ring).
- A cell's "Show code cell source" fold (myst-nb) is named by what it shows: its aria-label
  "Toggle hidden content" hid the visible words from voice control.
- References: sphinxcontrib-bibtex's entries are docutils citations, written as ``role="list"``
  around entries with the deprecated ``doc-biblioentry`` role; here each entry is a list item.
- Built files are readable by anyone (0644, folders 0755) whatever the umask or a copied
  temporary folder said: a web server running as another user answered 403 on ``_static/explorer``.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

from docutils import nodes

HIDDEN = "hcs-sr-only"  # visually hidden, read by screen readers (tables.css)
# a raw HTML table, with the presentation layer's scroll box around it when there is one
RAW_TABLE = re.compile(r'(<div class="hcs-scroll"[^>]*>\s*)?(<table\b[^>]*>)(\s*<caption\b[^>]*>.*?</caption>)?', re.S)
CONTAINER = re.compile(
    r'<div class="pst-scrollable-table-container">(\s*<table\b[^>]*>\s*<caption\b[^>]*\bid="([^"]+)")', re.S
)


def _section_title(node) -> str:
    while node is not None:
        if isinstance(node, nodes.section) and node.children and isinstance(node[0], nodes.title):
            return node[0].astext()
        node = node.parent
    return ""


def _tables(doctree) -> list:
    """The page's tables in order: docutils tables, and raw HTML nodes holding tables."""
    out = []
    for node in doctree.findall(lambda n: isinstance(n, (nodes.table, nodes.raw))):
        if isinstance(node, nodes.table) or ("html" in node.get("format", "").split() and "<table" in node.astext()):
            out.append(node)
    return out


def caption_tables(app, doctree, docname):
    """A caption for every table, and a named, focusable region for every scroll box of one."""
    if app.builder.format != "html":
        return
    slug = re.sub(r"[^a-z0-9]+", "-", docname.lower()).strip("-")
    found = _tables(doctree)
    by_section: dict[str, int] = {}
    for node in found:  # how many tables each section holds, to say "2 of 3"
        for _ in RAW_TABLE.finditer(node.astext()) if isinstance(node, nodes.raw) else [None]:
            by_section[_section_title(node)] = by_section.get(_section_title(node), 0) + 1
    seen: dict[str, int] = {}
    count = 0

    def name(node) -> tuple[str, str]:
        nonlocal count
        count += 1
        section = _section_title(node)
        seen[section] = seen.get(section, 0) + 1
        where = f"under \u2018{section}\u2019" if section else "on this page"
        total = by_section.get(section, 1)
        text = f"Table {seen[section]} of {total} {where}" if total > 1 else f"The table {where}"
        return f"hcs-table-{slug}-{count}", text

    for node in found:
        if isinstance(node, nodes.table):
            ident, text = name(node)
            titles = [c for c in node.children if isinstance(c, nodes.title)]
            if not node["ids"]:  # a titled table needs an id of its own (numfig)
                node["ids"].append(f"{ident}-table")
            if titles:
                titles[0]["ids"].append(ident)
            else:
                node.insert(0, nodes.title(text, text, ids=[ident], classes=[HIDDEN]))
            continue

        def label(match):
            box, table, caption = match.group(1), match.group(2), match.group(3)
            ident, text = name(node)
            if caption:
                caption = re.sub(r"<caption\b", f'<caption id="{ident}"', caption, count=1)
            else:
                caption = f'<caption id="{ident}" class="{HIDDEN}">{html.escape(text)}</caption>'
            if box:
                box = box.replace("<div ", f'<div role="region" tabindex="0" aria-labelledby="{ident}" ', 1)
            return (box or "") + table + caption

        node.replace_self(nodes.raw("", RAW_TABLE.sub(label, node.astext()), format=node["format"]))


def name_containers(app, pagename, templatename, context, doctree):
    """The theme's scroll box around a docutils table: a region named by the table's caption."""
    body = context.get("body")
    if body:
        context["body"] = CONTAINER.sub(
            r'<div class="pst-scrollable-table-container" role="region" tabindex="0" aria-labelledby="\2">\1', body
        )


def visit_citation(self, node):
    if not isinstance(node.previous_sibling(), type(node)):
        self.body.append('<div role="list" class="citation-list">\n')
    self.body.append(self.starttag(node, "div", classes=[node.tagname], role="listitem"))


def depart_citation(self, node):
    self.body.append("</div>\n")
    if not isinstance(node.next_node(descend=False, siblings=True), type(node)):
        self.body.append("</div>\n")


def visit_hidden_cell(self, node):
    """myst-nb's fold of a hidden cell, without an aria-label that hid its visible words."""
    self.body.append(f'<details class="admonition hide {" ".join(node["classes"])}">\n<summary>\n')
    self.body.append(f'<p class="collapsed admonition-title">{html.escape(node["prompt_show"])}</p>\n')
    self.body.append(f'<p class="expanded admonition-title">{html.escape(node["prompt_hide"])}</p>\n')
    self.body.append("</summary>\n")


def depart_hidden_cell(self, node):
    self.body.append("</details>\n")


def readable(app, exception):
    """Every built file 0644 and folder 0755."""
    if exception is not None or app.builder.format != "html":
        return
    for root, dirs, files in os.walk(app.outdir):
        os.chmod(root, 0o755)
        for f in files:
            path = Path(root) / f
            if not path.is_symlink():
                os.chmod(path, 0o644)


def setup(app):
    from myst_nb.sphinx_ import HideCodeCellNode

    app.add_node(nodes.citation, override=True, html=(visit_citation, depart_citation))
    app.add_node(HideCodeCellNode, override=True, html=(visit_hidden_cell, depart_hidden_cell))
    app.connect("doctree-resolved", caption_tables, priority=600)  # after exports_links reads the tables
    app.connect("html-page-context", name_containers)
    app.connect("build-finished", readable, priority=900)  # after every other step writes its files
    return {"parallel_read_safe": True, "parallel_write_safe": True}
