"""What built this site, on every page: package version, git commit, corpus checksum, simulation.

Computed once per build (``builder-inited``) and shown in the footer of every page; chapters
(executed notebooks) also say when they last ran, how long it took and whether their outputs
came from the execution cache. Two directives show the same facts in full on the provenance
page:

``{provenance}``            a table: package version, commit, corpus path and checksum, simulated
``{execution-statistics}``  one row per executed chapter, in the style of QuantEcon's
                            "Execution statistics" page (run time, last run, cache or executed)

The corpus checksum is the SHA-256 of the corpus' ``sha256sum`` listing (one ``<hash>  <path>``
line per file, paths sorted bytewise), so for the bundled stand-in it equals
``sha256sum data/SHA256SUMS``, and the footer says whether the files still match that list. A
corpus that carries its own ``SHA256SUMS`` (the public corpus, paths relative to its folder) is
listed the same way, so its checksum equals ``sha256sum data/<corpus>/SHA256SUMS``.

Each page's footer names the corpus that page loads, read from the chapter's corpus banner
(:func:`hotelcheckspan.book.report.corpus_banner`: the stand-in's notice, or "Running on the
corpus at <folder>", or at a file of a bundled folder); a page without one names the build's
default corpus.
``{bundled-corpora}`` lists every corpus bundled under ``data/`` with its checksum.
"""

from __future__ import annotations

import hashlib
import html
import json
import platform
import re
import subprocess
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective

from hotelcheckspan.book.execute import RUN_RECORD

PROVENANCE_DOC = "book/provenance"


@dataclass(frozen=True)
class Provenance:
    package: str
    commit: str  # short hash, "<hash> + uncommitted changes", or "uncommitted" outside git
    corpus: Path
    checksum: str
    simulated: bool
    matches_manifest: bool | None  # bundled corpus only: do the files match data/SHA256SUMS?
    built: datetime

    def corpus_label(self) -> str:
        kind = "simulated stand-in" if self.simulated else "real or external corpus"
        return f"{kind}, sha256 {self.checksum[:12]}"


@dataclass(frozen=True)
class CorpusFacts:
    """One corpus as a footer and the provenance page name it."""

    path: Path
    simulated: bool
    checksum: str
    manifest: Path | None  # the SHA256SUMS its files are checked against
    matches_manifest: bool | None

    def label(self) -> str:
        kind = "simulated stand-in" if self.simulated else f"real corpus {self.path.name}"
        return f"{kind}, sha256 {self.checksum[:12]}"


def git_commit(root: Path) -> str:
    """The checked-out commit; ``+ uncommitted changes`` if the tree differs; ``uncommitted`` outside git."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=10", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "uncommitted"
    return f"{head} + uncommitted changes" if dirty else head


def corpus_listing(corpus: Path, base: Path | None = None) -> str:
    """``sha256sum``-style listing of every file of the corpus, paths relative to ``base`` (its
    parent by default); a ``SHA256SUMS`` inside the corpus is the list itself, not listed."""
    base = corpus.parent if base is None else base
    lines = []
    files = sorted(
        (p for p in corpus.rglob("*") if p.is_file() and p != corpus / "SHA256SUMS"),
        key=lambda p: p.relative_to(base).as_posix(),
    )
    for p in files:
        digest = hashlib.sha256(p.read_bytes()).hexdigest()
        lines.append(f"{digest}  {p.relative_to(base).as_posix()}\n")
    return "".join(lines)


def corpus_facts(corpus: Path) -> CorpusFacts:
    """Checksum, simulation and manifest check of one corpus folder."""
    import hotelcheckspan
    from hotelcheckspan import paths

    own = corpus / "SHA256SUMS"
    if own.exists():  # a corpus with its own list: paths relative to the corpus folder
        manifest, listing = own, corpus_listing(corpus, base=corpus)
    else:
        bundled = corpus.resolve() == paths.BUNDLED_CORPUS.resolve()
        manifest = paths.DATA_ROOT / "SHA256SUMS" if bundled else None
        listing = corpus_listing(corpus)
    matches = None
    if manifest is not None and manifest.exists():
        matches = sorted(manifest.read_text(encoding="utf-8").splitlines()) == sorted(listing.splitlines())
    return CorpusFacts(
        path=corpus,
        simulated=hotelcheckspan.load(corpus).simulated,  # what the corpus' configs say, not its path
        checksum=hashlib.sha256(listing.encode()).hexdigest(),
        manifest=manifest,
        matches_manifest=matches,
    )


def bundled_corpora() -> list[Path]:
    """Every corpus bundled under data/: a folder with an ``annotations/`` folder (a factgenie
    export) or of MQM files (WMT's TSV)."""
    from hotelcheckspan import paths
    from hotelcheckspan.corpora import mqm

    return sorted(
        p for p in paths.DATA_ROOT.iterdir() if p.is_dir() and ((p / "annotations").is_dir() or mqm.is_mqm(p))
    )


def _corpus_folder(name: str) -> Path | None:
    """The bundled corpus a banner names: the build's default corpus, a folder under data/, or the
    folder under data/ holding the named file (an MQM file is read as it ships, in its folder)."""
    from hotelcheckspan import paths

    default = paths.corpus_dir()
    if default.name == name:
        return default
    if (paths.DATA_ROOT / name).is_dir():
        return paths.DATA_ROOT / name
    holding = [p for p in bundled_corpora() if (p / name).is_file()]
    return holding[0] if holding else None


# the two banners of hotelcheckspan.book.report.corpus_banner: the stand-in's, or "Running on the
# corpus at <code>folder</code>"
SIMULATED_BANNER = "simulated-notice"
BANNER_CORPUS = re.compile(
    r'class="admonition note corpus-notice".*?Running on the corpus at <code>([^<]+)</code>', re.S
)


def page_corpus(app, doctree) -> CorpusFacts | None:
    """The corpus a page loads, from its corpus banner (None: the page loads none)."""
    if doctree is None:
        return None
    from hotelcheckspan import paths

    for node in doctree.findall(nodes.raw):
        text = node.astext()
        found = BANNER_CORPUS.search(text)
        if found or SIMULATED_BANNER in text:
            name = html.unescape(found.group(1)) if found else paths.corpus_dir().name
            if not hasattr(app.env, "hotelcheckspan_corpus_facts"):
                app.env.hotelcheckspan_corpus_facts = {}
            cache = app.env.hotelcheckspan_corpus_facts
            if name not in cache:
                folder = _corpus_folder(name)
                cache[name] = corpus_facts(folder) if folder is not None else None
            return cache[name]
    return None


def collect(root: Path) -> Provenance:
    import hotelcheckspan  # the book's own package: the corpus it will read
    from hotelcheckspan import paths

    corpus = paths.corpus_dir()
    listing = corpus_listing(corpus)
    simulated = hotelcheckspan.load(corpus).simulated  # what the corpus' configs say, not its path
    manifest = paths.DATA_ROOT / "SHA256SUMS"  # the bundled corpus' checksums
    bundled = corpus.resolve() == paths.BUNDLED_CORPUS.resolve()
    matches = (manifest.read_text(encoding="utf-8") == listing) if bundled and manifest.exists() else None
    try:
        pkg = version("hotelcheckspan")
    except PackageNotFoundError:
        pkg = "not installed"
    return Provenance(
        package=pkg,
        commit=git_commit(root),
        corpus=corpus,
        checksum=hashlib.sha256(listing.encode()).hexdigest(),
        simulated=simulated,
        matches_manifest=matches,
        built=datetime.now(UTC),
    )


def _when(ts: float | None) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC") if ts else "-"


def _ran_now(app, doc: str) -> float | None:
    """When the execution before this build ran this page, if one did in this make run: ``make
    book``'s (hotelcheckspan.book.execute), or in ``make test`` nbval's, whose chapters it
    cached (hotelcheckspan.book.execute.adopt)."""
    return app.env.hotelcheckspan_ran_now.get(str(Path(app.env.doc2path(doc)).resolve()))


def from_cache(app, doc: str, data: dict) -> bool:
    """A page came from the execution cache unless this build executed it: before the build
    read it (``make book`` executes the pages into the cache first) or as it read
    it (its run is no older than the build)."""
    if _ran_now(app, doc):
        return False
    return bool(data.get("mtime")) and data["mtime"] < app.env.hotelcheckspan_build_start


def last_run(app, doc: str, data: dict) -> float | None:
    return _ran_now(app, doc) or data.get("mtime")


def exec_data(env) -> dict[str, dict]:
    from myst_nb.sphinx_ import NbMetadataCollector

    return {doc: d["exec_data"] for doc, d in NbMetadataCollector.get_doc_data(env).items() if d.get("exec_data")}


# --- build hooks ------------------------------------------------------------------------------


def on_builder_inited(app):
    app.env.hotelcheckspan_build_start = time.time()
    # what `make book` executed just before this build; read once (a later build without that
    # step executed none of it)
    record = Path(app.srcdir) / (app.config.nb_execution_cache_path or ".jupyter_cache") / RUN_RECORD
    ran = json.loads(record.read_text(encoding="utf-8")) if record.exists() else {}
    record.unlink(missing_ok=True)
    app.env.hotelcheckspan_ran_now = ran.get("pages", {})
    app.env.hotelcheckspan_provenance = collect(Path(app.srcdir))


def on_page_context(app, pagename, templatename, context, doctree):
    prov: Provenance = app.env.hotelcheckspan_provenance
    link = context["pathto"](PROVENANCE_DOC)
    loaded = page_corpus(app, doctree)
    parts = [
        f"hotelcheckspan {escape(prov.package)}",
        f"commit {escape(prov.commit)}",
        f"corpus: {escape(loaded.label() if loaded else prov.corpus_label())}",
    ]
    run = exec_data(app.env).get(pagename)
    if run:
        how = "from the execution cache" if from_cache(app, pagename, run) else "executed in this build"
        page = "chapter" if pagename.startswith("notebooks/") else "page"  # the provenance page runs code too
        parts.append(
            f"this {page} ran {_when(last_run(app, pagename, run))} in {run.get('runtime') or 0:.1f} s ({how})"
        )
    context["theme_extra_footer"] = (
        f'<p class="provenance-footer">Built {prov.built:%Y-%m-%d %H:%M} UTC from '
        f'{"; ".join(parts)}. <a href="{link}">Provenance</a></p>'
    )


# --- directives -------------------------------------------------------------------------------


class ProvenanceTable(SphinxDirective):
    """A two-column table of what built this page."""

    def run(self):
        prov: Provenance = self.env.hotelcheckspan_provenance
        if prov.matches_manifest is None:
            manifest = "not applicable (not the bundled corpus)"
        else:
            manifest = "yes" if prov.matches_manifest else "no: the bundled files differ from data/SHA256SUMS"
        rows = [
            ("hotelcheckspan version", prov.package),
            ("git commit", prov.commit),
            ("built", f"{prov.built:%Y-%m-%d %H:%M} UTC"),
            ("corpus", prov.corpus.name),
            ("simulated", "yes: the bundled stand-in" if prov.simulated else "no"),
            ("corpus checksum (sha256 of its file listing)", prov.checksum),
            ("files match data/SHA256SUMS", manifest),
            ("python", platform.python_version()),
            ("machine", f"{platform.system()} {platform.machine()}"),
        ]
        table = _table(
            ["what", "value"],
            [[nodes.Text(a), _checksum(b) if b == prov.checksum else nodes.literal(text=b)] for a, b in rows],
        )
        table["classes"].append("provenance-table")
        return [table]


class BundledCorpora(SphinxDirective):
    """Every corpus bundled under data/, with its checksum and whether its files match their list."""

    def run(self):
        rows = []
        for folder in bundled_corpora():
            facts = corpus_facts(folder)
            self.env.note_dependency(str(facts.manifest)) if facts.manifest else None
            check = "-" if facts.matches_manifest is None else ("yes" if facts.matches_manifest else "no")
            manifest = facts.manifest.relative_to(folder.parent.parent).as_posix() if facts.manifest else "-"
            rows.append(
                [
                    nodes.literal(text=f"data/{folder.name}"),
                    nodes.Text("simulated stand-in" if facts.simulated else "real, public"),
                    _checksum(facts.checksum),
                    nodes.Text(f"{check} ({manifest})"),
                ]
            )
        table = _table(["corpus", "kind", "checksum (sha256 of its file listing)", "files match their list"], rows)
        table["classes"].append("provenance-table")
        return [table]


class ChapterRunsNode(nodes.General, nodes.Element):
    """Placeholder, filled once every chapter has executed."""


class ExecutionStatistics(SphinxDirective):
    def run(self):
        self.env.hotelcheckspan_exec_table_docs = getattr(self.env, "hotelcheckspan_exec_table_docs", set())
        self.env.hotelcheckspan_exec_table_docs.add(self.env.docname)
        return [ChapterRunsNode()]


class ExecutionStatsTransform(SphinxPostTransform):
    default_priority = 8  # before the references are resolved

    def run(self, **kwargs):
        for node in list(self.document.findall(ChapterRunsNode)):
            node.replace_self(self.table())

    def table(self):
        app, env, here = self.app, self.env, self.env.docname
        rows = []
        for doc, data in sorted(exec_data(env).items()):
            ref = pending_xref(
                refdoc=here, reftarget="/" + doc, reftype="doc", refdomain="std", refexplicit=False, refwarn=True
            )
            ref += nodes.inline(text=doc)
            status = "ok" if data.get("succeeded") else f"failed: {data.get('error') or ''}"
            source = "execution cache" if from_cache(app, doc, data) else "executed in this build"
            rows.append(
                [
                    ref,
                    nodes.Text(_when(last_run(app, doc, data))),
                    nodes.Text("-" if data.get("runtime") is None else f"{data['runtime']:.1f}"),
                    nodes.Text(source),
                    nodes.Text(status),
                ]
            )
        return _table(["chapter", "last executed", "run time (s)", "outputs from", "status"], rows)


def _checksum(value: str) -> nodes.raw:
    """A checksum as code that may break between its groups of eight digits (``<wbr>``, nothing a
    copy picks up), so that the column after it stays in view (issue 45: the 64 digits pushed
    "files match their list" out of view at both widths)."""
    groups = "<wbr>".join(escape(value[i : i + 8]) for i in range(0, len(value), 8))
    return nodes.raw("", f'<code class="docutils literal notranslate hcs-checksum">{groups}</code>', format="html")


def _table(header: list[str], rows: list[list[nodes.Node]]) -> nodes.table:
    table = nodes.table(classes=["colwidths-auto"])
    group = nodes.tgroup(cols=len(header))
    table += group
    group += [nodes.colspec(colwidth=1) for _ in header]
    head = nodes.thead()
    group += head
    head += nodes.row("", *[nodes.entry("", nodes.paragraph(text=h)) for h in header])
    body = nodes.tbody()
    group += body
    for cells in rows:
        body += nodes.row("", *[nodes.entry("", nodes.paragraph("", "", c)) for c in cells])
    return table


def on_env_updated(app, env):
    """Re-write the pages with an execution table whenever any chapter has been read."""
    return sorted(getattr(env, "hotelcheckspan_exec_table_docs", set()))


def setup(app):
    app.connect("builder-inited", on_builder_inited)
    app.connect("html-page-context", on_page_context)
    app.connect("env-updated", on_env_updated)
    app.add_node(ChapterRunsNode)
    app.add_directive("provenance", ProvenanceTable)
    app.add_directive("bundled-corpora", BundledCorpora)
    app.add_directive("execution-statistics", ExecutionStatistics)
    app.add_post_transform(ExecutionStatsTransform)
    return {"parallel_read_safe": False, "parallel_write_safe": True, "env_version": 1}
