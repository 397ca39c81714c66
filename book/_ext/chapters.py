"""``{chapter}`08``` : a link to chapter 08 that cannot drift; and the stand-in's labels and the
paper's figures on pages that are not notebooks (the start page), computed at build time.

The role finds the chapter by its number among the notebooks of the table of contents
(``notebooks/08_*``) and shows "chapter 08", linked to it, with the chapter's title as the link's
tooltip. A number with no chapter is a build error (the book builds with ``-W``), so a renamed or
renumbered chapter cannot leave a dead mention behind.

``{figure-kind}`table2_human_span_types/Incorrect/pct``` shows the label the rule of
:mod:`hotelcheckspan.reference.provenance` gives that paper figure on the stand-in (set,
calibrated, tuned, derived, emergent: :func:`hotelcheckspan.book.labels.kind`), emphasised;
``{figure-kind}`none``` the label of a figure the paper does not report, and
``{figure-kind}`f(table5_example_level_votes/*)``` that of one it does not report that is a function
of the figures named (``KEY/*``: every figure one level below KEY): derived when each is
calibrated, tuned, set or derived, else emergent. ``{paper-figure}`key```
shows the paper's value (``data/paper_figures.yaml``) and ``{paper-count}`key``` how many entries
the paper lists there (campaigns, clusters). ``{figure-labels}`` lists every label with its
meaning and how many of the paper's figures, in which parts of ``data/paper_figures.yaml``, carry
it. A key the paper does not have is a build error. Pages using them are rebuilt when either file
changes.
"""

from __future__ import annotations

import numbers
import re
from collections import Counter

from docutils import nodes
from sphinx.util.docutils import SphinxDirective, SphinxRole

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


# "chapter 08", and "chapter 8" as the data sheet writes it (issue 45)
MENTION = re.compile(r"(?<![\w-])([Cc]hapter (\d\d?))(?![\w-])")
# where a plain mention is left as it is: code, a link already, a heading (its text is the page's
# contents entry), raw HTML
NOT_LINKED = (nodes.literal, nodes.literal_block, nodes.reference, nodes.title, nodes.raw, nodes.FixedTextElement)


def link_mentions(app, doctree, docname):
    """Every plain "chapter 08" of running text (a page in Markdown, the data sheet included from
    data/README.md, a chapter's prose) becomes the same link as ``{chapter}`08```, so that no
    mention of a chapter is left unlinked where the role could not be written."""
    chapters = {m.group(1): d for d in app.env.found_docs if (m := re.fullmatch(r"notebooks/(\d\d)_[a-z0-9_]+", d))}
    for text in list(doctree.findall(nodes.Text)):
        parent, skipped = text.parent, False
        while parent is not None and not skipped:
            skipped = isinstance(parent, NOT_LINKED)
            parent = parent.parent
        source = str(text)
        if skipped or not MENTION.search(source):
            continue
        parts, last = [], 0
        for m in MENTION.finditer(source):
            number = m.group(2).zfill(2)
            if number not in chapters:
                continue
            ref = nodes.reference("", m.group(1), internal=True, classes=["hcs-chapter"])
            ref["refuri"], ref["hcs_chapter"] = "#", chapters[number]
            parts += [nodes.Text(source[last : m.start()]), ref]
            last = m.end()
        if parts:
            parts.append(nodes.Text(source[last:]))
            text.parent.replace(text, parts)


def resolve(app, doctree, docname):
    """Point every chapter link at its page, relative to the page it is on, titled by the chapter
    (a link of the chapter list shows the title itself)."""
    builder = app.builder
    for ref in doctree.findall(nodes.reference):
        target = ref.get("hcs_chapter")
        if not target:
            continue
        ref["refuri"] = builder.get_relative_uri(docname, target)
        title = app.env.titles.get(target)
        if title is not None:
            ref["reftitle"] = title.astext()
            if ref.get("hcs_title_text"):
                ref.children = [nodes.Text(title.astext())]


class ChapterList(SphinxDirective):
    """The chapters in the order of the table of contents, each linked by its title and marked
    with the corpus it runs on and the corpora of its later sections, read from the ``load``
    calls of its source (:mod:`hotelcheckspan.book.chapter_data`): "stand-in" for the simulated
    paper corpus, "real" for annotations people made. Each item's classes say the same
    (``hcs-main-standin`` / ``hcs-main-real``, ``hcs-section-real``), for the site's tests."""

    def run(self):
        from hotelcheckspan import load, paths
        from hotelcheckspan.book import chapter_data as cd

        self.env.note_reread()  # the chapters' sources and the corpus chosen may change
        simulated = load(paths.corpus_dir()).simulated
        docs = [d for d in self.env.found_docs if re.fullmatch(r"notebooks/\d\d_[a-z0-9_]+", d)]
        items = nodes.enumerated_list(classes=["hcs-chapter-list"])
        for doc in sorted(docs):
            source = paths.REPO_ROOT / f"{doc}.py"
            self.env.note_dependency(str(source))
            data = cd.chapter_data(source)
            ref = nodes.reference("", doc, internal=True, classes=["hcs-chapter-title"])
            ref["refuri"] = "#"
            ref["hcs_chapter"], ref["hcs_title_text"] = doc, True
            main_real = cd.is_real(data.main, simulated)
            classes = ["hcs-main-real" if main_real else "hcs-main-standin"]
            para = nodes.paragraph()
            para += ref
            para += nodes.Text(" ")
            kind = "hcs-data-real" if main_real else "hcs-data-standin"
            label = "real" if main_real else "stand-in"
            explanation = cd.name(data.main, simulated)
            para += nodes.abbreviation(text=label, explanation=explanation, classes=["hcs-data", kind])
            kinds: dict[bool, list[str]] = {}  # "+ real section(s)", their corpora in the tooltip
            for corpus in data.sections:
                kinds.setdefault(cd.is_real(corpus, simulated), []).append(cd.name(corpus, simulated))
            for real, names in kinds.items():
                classes.append("hcs-section-real" if real else "hcs-section-standin")
                text = f"+ {'real' if real else 'stand-in'} section{'s' if len(names) > 1 else ''}"
                para += nodes.Text(" ")
                para += nodes.abbreviation(text=text, explanation=", ".join(names), classes=["hcs-data-section"])
            items += nodes.list_item("", para, classes=classes)
        return [items]


# --- the stand-in's labels and the paper's figures, computed -----------------------------------


def _sources(env) -> None:
    """Rebuild the page when the paper's figures or the stand-in's provenance change."""
    from hotelcheckspan import paths
    from hotelcheckspan.reference import provenance

    env.note_dependency(str(paths.PAPER_FIGURES))
    env.note_dependency(str(provenance.PROVENANCE))


class _PaperRole(SphinxRole):
    """A role on a key of ``data/paper_figures.yaml``; an unknown key is a build error."""

    def run(self):
        from hotelcheckspan.reference import paper

        key = self.text.strip()
        _sources(self.env)
        try:
            node = self.node(key, paper)
        except KeyError:
            msg = self.inliner.reporter.error(f"no paper figure {key!r} in data/paper_figures.yaml", line=self.lineno)
            return [self.inliner.problematic(self.rawtext, self.rawtext, msg)], [msg]
        return [node], []


FUNCTION_OF = re.compile(r"f\((.+)\)")


def _inputs(text: str, paper) -> list[str]:
    """The figure keys of ``f(KEY, KEY/*, ...)``, ``KEY/*`` standing for every figure one level
    below KEY; KeyError for a key the paper does not have."""
    keys = []
    for key in (k.strip() for k in text.split(",")):
        if key.endswith("/*"):
            base = "/".join(map(str, paper.resolve(key[:-2])))
            below = paper.value(base)
            if not isinstance(below, dict) or not below:
                raise KeyError(key)
            keys += [f"{base}/{k}" for k in below]
        else:
            keys.append("/".join(map(str, paper.resolve(key))))
    return keys


class FigureKindRole(_PaperRole):
    def node(self, key, paper):
        from hotelcheckspan.book import labels
        from hotelcheckspan.reference import provenance

        if key == "none":  # a figure the paper does not report: the rule's answer for no key
            return nodes.emphasis(text=labels.kind(None), classes=["hcs-figure-kind"])
        function = FUNCTION_OF.fullmatch(key)
        if function:  # a figure the paper does not report, a function of figures it does
            figure = provenance.derived(float("nan"), _inputs(function.group(1), paper), "a function of them")
            return nodes.emphasis(text=labels.kind(figure), classes=["hcs-figure-kind"])
        return nodes.emphasis(text=labels.kind(paper.resolve(key)), classes=["hcs-figure-kind"])


class PaperFigureRole(_PaperRole):
    def node(self, key, paper):
        return nodes.inline(text=str(paper.value(key)), classes=["hcs-paper-figure"])


class PaperCountRole(_PaperRole):
    def node(self, key, paper):
        entries = paper.value(key)
        if not isinstance(entries, (dict, list)):
            raise KeyError(key)
        return nodes.inline(text=str(len(entries)), classes=["hcs-paper-figure"])


def _is_figure(value) -> bool:
    """A reported figure: a number, a list of numbers (a vote distribution) or a text holding one
    (">0.95", "0.65-0.67"); names, rules and settings are not."""
    if isinstance(value, bool):
        return False
    if isinstance(value, numbers.Real):
        return True
    if isinstance(value, list):
        return bool(value) and all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value)
    return isinstance(value, str) and re.fullmatch(r"[<>~+-]?\d[\d.,]*(?:-\d[\d.,]*)?%?", value.strip()) is not None


def paper_figures(tree: dict, where: tuple = ()) -> list[tuple]:
    """The key (a tuple of levels) of every figure the paper reports, ``notes`` left out."""
    out = []
    for key, value in tree.items():
        if not where and key == "notes":
            continue
        if isinstance(value, dict):
            out += paper_figures(value, (*where, key))
        elif _is_figure(value):
            out.append((*where, key))
    return out


# the parts of data/paper_figures.yaml that are not a table, as a reader finds them in the paper
PARTS = {
    "dataset": "the corpus' sizes (Sections 3.3 and 4.4)",
    "campaigns": "the annotation campaigns (Section 4.3)",
    "dataset_level_text": "the text of Section 6.1",
    "llm_majority_alignment": "the LLMs' agreement with the human majority (Section 6.2)",
    "clustering": "the clusters (Section 6.4, Table 7)",
    "impressions": "the impressions (Section 6.5)",
    "preprocessing": "the de-duplication (Section 3.2)",
}


def part_name(key: str) -> str:
    """A part of ``data/paper_figures.yaml`` as the paper names it: ``table4_...`` is "Table 4",
    the others as :data:`PARTS` says (a part it does not list: its key's words)."""
    table = re.fullmatch(r"table(\d+)_\w*", key)
    return f"Table {table.group(1)}" if table else PARTS.get(key, key.replace("_", " "))


class FigureLabels(SphinxDirective):
    """Every label, what it means, and how many of the paper's figures carry it, per part of
    ``data/paper_figures.yaml`` (its top-level keys)."""

    def run(self):
        from hotelcheckspan.book import labels
        from hotelcheckspan.reference import paper

        _sources(self.env)
        figures = paper_figures(paper.figures())
        counts: dict[str, Counter] = {k: Counter() for k in labels.ORDER}
        for key in figures:
            counts.setdefault(labels.kind(key), Counter())[key[0]] += 1
        items = nodes.bullet_list(classes=["hcs-figure-labels"])
        for label, parts in counts.items():
            item = nodes.paragraph()
            item += nodes.emphasis(text=label)
            item += nodes.Text(f" ({labels.MEANING.get(label, '')}): ")
            total = sum(parts.values())
            item += nodes.Text(f"{total} of the paper's {len(figures)} figures")
            for i, (part, n) in enumerate(sorted(parts.items(), key=lambda kv: (-kv[1], kv[0]))):
                item += nodes.Text(", in " if i == 0 else ", ")
                item += nodes.Text(f"{part_name(part)} ({n})")
            item += nodes.Text(".")
            items += nodes.list_item("", item)
        return [items]


class SimulatedOnly(SphinxDirective):
    """Its content only when the corpus the book is built on (``HOTELCHECKSPAN_DATA``, else the
    bundled stand-in) says it is simulated; otherwise one line naming that corpus. The page is
    re-read on every build, so pointing the book at another corpus cannot leave the notice behind."""

    has_content = True

    def run(self):
        from hotelcheckspan import load, paths

        self.env.note_reread()
        root = paths.corpus_dir()
        if load(root).simulated:
            return self.parse_content_to_nodes()
        text = f"Every chapter runs on the corpus at {root.name}, which is not simulated."
        return [nodes.paragraph(text, text, classes=["hcs-corpus-note"])]


def setup(app):
    app.add_directive("simulated-only", SimulatedOnly)
    app.add_role("chapter", ChapterRole())
    app.add_role("figure-kind", FigureKindRole())
    app.add_role("paper-figure", PaperFigureRole())
    app.add_role("paper-count", PaperCountRole())
    app.add_directive("figure-labels", FigureLabels)
    app.add_directive("chapter-list", ChapterList)
    app.connect("doctree-resolved", link_mentions, priority=400)
    app.connect("doctree-resolved", resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
