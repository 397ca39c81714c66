"""``{chapter}`08``` : a link to chapter 08 that cannot drift.

The role finds the chapter by its number among the notebooks of the table of contents
(``notebooks/08_*``) and shows "chapter 08", linked to it, with the chapter's title as the link's
tooltip. A number with no chapter is a build error (the book builds with ``-W``), so a renamed or
renumbered chapter cannot leave a dead mention behind.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.util.docutils import SphinxRole

NUMBER = re.compile(r"\d\d")


class ChapterRole(SphinxRole):
    def run(self):
        number = self.text.strip()
        env = self.env
        docs = sorted(d for d in env.found_docs if re.fullmatch(rf"notebooks/{re.escape(number)}_[a-z0-9_]+", d))
        if not NUMBER.fullmatch(number) or len(docs) != 1:
            msg = self.inliner.reporter.error(f"no chapter {number!r} (chapters are notebooks/NN_*)", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, msg)], [msg]
        ref = nodes.reference("", f"chapter {number}", internal=True, classes=["hcs-chapter"])
        ref["refuri"] = "#"  # replaced by the doctree-resolved handler once every title is known
        ref["hcs_chapter"] = docs[0]
        return [ref], []


def resolve(app, doctree, docname):
    """Point every chapter link at its page, relative to the page it is on, titled by the chapter."""
    builder = app.builder
    for ref in doctree.findall(nodes.reference):
        target = ref.get("hcs_chapter")
        if not target:
            continue
        ref["refuri"] = builder.get_relative_uri(docname, target)
        title = app.env.titles.get(target)
        if title is not None:
            ref["reftitle"] = title.astext()


def setup(app):
    app.add_role("chapter", ChapterRole())
    app.connect("doctree-resolved", resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
