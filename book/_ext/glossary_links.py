"""Terms link to the glossary (``book/glossary.md``) without anyone writing the links.

On every page but the glossary, the first mention of a technical term in running text (BACC, AC1,
γ, TVD, ...) becomes a link to its entry, and so does every emphasised mention of a label (*set*,
*calibrated*, *tuned*, *derived*, *emergent*), the words the stand-in's tables and passages use.
Ordinary words that are also terms ("set", "judge", "ceiling") are linked only where emphasised,
so a sentence is never turned into a link by accident. Terms come from the glossary itself, so a
renamed entry cannot leave dead links behind.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes

GLOSSARY = "book/glossary"
# terms whose plain mention is unambiguous; every other glossary term links only where emphasised
PLAIN = (
    *("BACC", "AC1", "γ", "S∅", "TVD", "Fleiss' kappa", "span F1", "hard match", "soft match", "clear majority"),
    *("LS", "GRIM", "human set"),
)
RUNNING = (nodes.paragraph, nodes.caption, nodes.emphasis, nodes.strong)  # running text, captions included
SKIP = (nodes.literal, nodes.literal_block, nodes.reference, nodes.title, nodes.raw, nodes.table, addnodes.pending_xref)


def _key(term: str) -> str:
    """A term as looked up: lower case, a typographic apostrophe ("Fleiss’ kappa") as a plain one."""
    return term.replace("\u2019", "'").lower()


def _entries(env) -> dict[str, str]:
    """``{term, lower-cased: anchor}`` of the glossary's entries."""
    std = env.get_domain("std")
    out = {}
    for name, _disp, kind, doc, anchor, _prio in std.get_objects():
        if kind == "term" and doc == GLOSSARY:
            out[_key(name)] = anchor
    return out


def _skipped(node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, SKIP):
            return True
        parent = parent.parent
    return False


def _link(app, docname, anchor, text) -> nodes.reference:
    uri = app.builder.get_relative_uri(docname, GLOSSARY) + "#" + anchor
    return nodes.reference("", text, internal=True, refuri=uri, classes=["hcs-term"], reftitle="glossary")


def resolve(app, doctree, docname):
    if docname == GLOSSARY or not app.builder.format == "html":
        return
    entries = _entries(app.env)
    if not entries:
        return
    for em in list(doctree.findall(nodes.emphasis)):
        anchor = entries.get(_key(em.astext().strip()))
        if anchor and not _skipped(em):
            em.replace_self(nodes.emphasis("", "", _link(app, docname, anchor, em.astext())))
    plain = [t for t in PLAIN if _key(t) in entries]
    if not plain:
        return
    alternatives = "|".join(re.escape(t).replace("'", "['\u2019]") for t in plain)
    pattern = re.compile(rf"(?<![\w-])({alternatives})(?![\w-])")
    done: set[str] = set()
    for text in list(doctree.findall(nodes.Text)):
        if len(done) == len(plain):
            break
        # running text, a glued value included (myst-nb pastes it as an inline node)
        if not isinstance(text.parent, (*RUNNING, nodes.inline)) or _skipped(text):
            continue
        source = str(text)
        parts, last = [], 0
        for m in pattern.finditer(source):
            if _key(m.group(1)) in done:
                continue
            done.add(_key(m.group(1)))
            anchor = entries[_key(m.group(1))]
            parts += [nodes.Text(source[last : m.start()]), _link(app, docname, anchor, m.group(1))]
            last = m.end()
        if parts:
            parts.append(nodes.Text(source[last:]))
            text.parent.replace(text, parts)


def setup(app):
    app.connect("doctree-resolved", resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
