"""The rendered site, opened page by page in headless Chromium, as a reader meets it, offline.

Every request that leaves the local server is blocked and is a failure: the site must work on a
train (fonts and icons are served from the site, the mathematics is MathML). On every page of ``_toc.yml``, at
1280 px: no console error, no uncaught exception, no failed request or HTTP error, every image
loaded, every internal link and anchor resolving, one search box, the provenance footer, the
mathematics written as MathML; chapters carry the simulated-data notice and a figure or table. At 390 px
(a phone) the primary and secondary sidebar toggles open and close the navigation; at 1280 px
the toggle collapses the sidebar and brings it back. Launch (Binder, Colab), source and
repository links are well formed for the repository of ``_config.yml`` (they need the network,
so they are not followed); the downloads (CITATION.cff, licences, data sheet) are the real files.
Screenshots go to _build/screenshots/. axe-core (``make axe``, from npm) audits every page at both
widths in light and dark mode for WCAG 2.0/2.1 A and AA, and a keyboard walk uses the pages and
the explorer without a mouse (issue 46).

The checks that read a page as it loads share one visit per page and width (:class:`Visits`),
each reporting as a test of its own; the checks that use a page (toggles, keyboard, scrolling)
open their own.

`make test` builds the site first (`make book`); Chromium comes from Debian (`.ci/run` installs it).
``HOTELCHECKSPAN_SITE`` points the checks at another built site (an ``html`` folder) than
``_build/html``. The checks that need no browser (the bookkeeping rule on code snippets) run
without a built site.
"""

from __future__ import annotations

import ast
import csv
import functools
import http.server
import io
import json
import os
import re
import shutil
import threading
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest
import yaml

from hotelcheckspan import paths
from hotelcheckspan.book import execute

ROOT = paths.REPO_ROOT
SITE = Path(os.environ.get("HOTELCHECKSPAN_SITE") or ROOT / "_build" / "html")
SHOTS = ROOT / "_build" / "screenshots"
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

NO_SITE = "no built site: run `make book` first"
NO_CHROMIUM = "no chromium on this machine (apt-get install chromium)"


def toc_pages() -> list[str]:
    return [str(Path(f).with_suffix(".html")) for f in execute.toc_files(ROOT)]


PAGES = toc_pages()
CHAPTERS = [p for p in PAGES if p.startswith("notebooks/")]
# the chapters that load a real public corpus (the bundled d2t splits, WMT's TED file) and no stand-in
REAL_CHAPTERS = [p for p in CHAPTERS if any(n in p for n in ("08_real_corpus", "12_mqm"))]


def repository() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("id", "name") and v:
                self.ids.add(v)


@functools.cache
def ids_of(path: Path) -> frozenset:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return frozenset(parser.ids)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    if not (SITE / "index.html").exists():
        pytest.skip(NO_SITE)
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


class Reader:
    """A browser tab that blocks and records every request leaving the site, and records every
    console error, uncaught exception, failed request and HTTP error.

    With ``network=True`` each visit waits until the network is idle (:data:`QUIET` seconds with
    no request in flight; the local server answers in milliseconds), so that every request a page
    makes, late ones included, is recorded and its bytes counted: the tests of what a page loads
    use it (every page at 1280 px). The tests of layout and interaction take the page once it has
    loaded, and record what it does while they use it."""

    QUIET, LIMIT = 0.15, 10.0

    def __init__(self, browser, server: str, viewport: dict, network: bool = False, **options):
        self.server = server
        self.network = network
        self.context = browser.new_context(viewport=viewport, **options)
        self.page = self.context.new_page()
        self.events: list[str] = []
        self.in_flight: set = set()
        self.left: set = set()  # the previous page's requests still in flight when the tab moved on
        self.page.on("request", lambda r: self.in_flight.add(r))
        self.page.on("requestfinished", lambda r: self.in_flight.discard(r))
        self.page.on("requestfailed", self._failed)
        self.bytes = 0  # what the page downloaded (routing disables the browser's cache: every visit counts all)
        self.page.route("**/*", self._route)
        self.page.on("response", self._count)
        self.page.on("console", lambda m: self.events.append(f"console error: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.events.append(f"uncaught: {e}"))
        self.page.on("response", lambda r: self.events.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

    def _route(self, route):
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            self.events.append(f"request leaving the site: {route.request.url}")
            route.abort()

    def _failed(self, request):
        self.in_flight.discard(request)
        if request in self.left and "ERR_ABORTED" in (request.failure or ""):
            return  # the browser cancels what the page being left still loads (a favicon after "load")
        if request.resource_type == "image" and "ERR_ABORTED" in (request.failure or ""):
            return  # a lazy image's fetch restarted by the browser; every image's loading is checked on the page
        self.events.append(f"request failed: {request.url} ({request.failure})")

    def _count(self, response):
        try:
            self.bytes += int(response.headers.get("content-length") or 0)
        except ValueError:
            pass

    def open(self, rel: str):
        self.events.clear()
        self.left = set(self.in_flight)
        self.bytes = 0
        response = self.page.goto(self.server + rel, wait_until="load")
        if self.network:
            self._settle()
        if response is None or response.status != 200:
            self.events.append(f"HTTP {response.status if response else 'no response'}")
        return self.page

    def _settle(self):
        """Until no request has been in flight for QUIET seconds (Playwright's "networkidle" waits
        half a second, the same rule for a remote server)."""
        end, since = time.monotonic() + self.LIMIT, None
        while time.monotonic() < end:
            if self.in_flight:
                since = None
            elif since is None:
                since = time.monotonic()
            elif time.monotonic() - since >= self.QUIET:
                return
            self.page.wait_for_timeout(25)
        self.events.append(f"requests still in flight after {self.LIMIT:.0f} s: {[r.url for r in self.in_flight]}")

    def problems(self, rel: str) -> list[str]:
        found = [f"{rel}: {e}" for e in self.events]
        self.events.clear()
        return found

    def close(self):
        self.context.close()


def visible(page, selector: str) -> int:
    return page.eval_on_selector_all(
        selector,
        "els => els.filter(e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);"
        " return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'"
        " && r.right > 0 && r.left < innerWidth; }).length",
    )


# the element is shown and inside the viewport (a hidden sidebar slides off-screen)
IN_VIEW = (
    "e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);"
    " return r.width > 0 && s.visibility !== 'hidden' && r.right > 1 && r.left < innerWidth - 1; }"
)


def in_view(page, selector: str) -> bool:
    """Whether the element is shown and inside the viewport (:data:`IN_VIEW`)."""
    return page.eval_on_selector(selector, IN_VIEW)


def gone(page, selector: str, within: int = 2000) -> bool:
    """Whether the element leaves the view within ``within`` ms (a sidebar sliding shut)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"s => !({IN_VIEW})(document.querySelector(s))", arg=selector, timeout=within)
    except PlaywrightTimeout:
        return False
    return True


JPEG_MAX = 65_500  # px: JPEG's largest side (the paper's checks are a taller page: PNG)


def shot_of(rel: str, suffix: str = ".jpg") -> Path:
    """The whole-page screenshot of a page, for a person to look through."""
    return SHOTS / rel.replace("/", "__").replace(".html", suffix)


class Visits:
    """Every page of the toc opened once at 1280 px and once at 390 px, with what each check found
    there (``found``): a page costs Chromium most to open and lay out, so the checks that read a
    page as it loads share one visit per width, in an order that leaves each the page it expects.

    At 1280 px (the network watched, as a reader downloads it cold): the landing page, then each
    page clean (``clean``, its screenshot), its repository links (``links``: the start page and
    the chapters), a chapter's downloads (``downloads``), and how it reads (``reads``, axe-core
    injected last). At 390 px: its sidebars opened and closed (``navigation``, on the page as it
    loaded), then how it reads. What the page logs while a check runs (a console error, a failed
    request) is that check's; a page that does not open, or an exception inside a check, is a
    finding of that check on that page, and the other checks and pages go on."""

    CHECKS = ("clean", "links", "downloads", "reads", "navigation")

    def __init__(self):
        self.checked: dict[str, dict[str, list[str]]] = {c: {} for c in self.CHECKS}
        self.seen: dict[str, dict] = {"banners": {}, "listed": {}}

    def visit(self, reader, rel: str, checks: list) -> None:
        """Open ``rel`` with ``reader`` and run each ``(check, work)`` on it in turn; ``work(page,
        downloaded)`` gets the page and the bytes it took to load, cold."""
        try:
            page = reader.open(rel)
        except Exception as error:  # noqa: BLE001 (every check of this page says so; the others go on)
            events = reader.problems(rel)
            for check, _ in checks:
                self.checked[check].setdefault(rel, []).extend([f"{rel}: did not open: {_said(error)}", *events])
            return
        downloaded = reader.bytes
        for check, work in checks:
            self.run(check, rel, reader, lambda: work(page, downloaded))

    def run(self, check: str, rel: str, reader, work) -> None:
        try:
            found = work()
        except (Exception, pytest.fail.Exception) as error:  # noqa: BLE001 (a finding on this page)
            found = [f"{rel}: {check}: {_said(error)}"]
        self.checked[check].setdefault(rel, []).extend(found + reader.problems(rel))

    def found(self, check: str, rel: str | None = None) -> list[str]:
        pages = [rel] if rel else list(self.checked[check])
        return [p for r in pages for p in self.checked[check].get(r, [])]


def _said(error: BaseException) -> str:
    """An exception as a finding: its type and message (Playwright's call log included), cut short."""
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 1500 else text[:1500] + " ..."


@pytest.fixture(scope="module")
def visits(server, browser) -> Visits:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for rel in PAGES:
        for suffix in (".jpg", ".png"):
            shot_of(rel, suffix).unlink(missing_ok=True)
    out = Visits()
    desktop = Reader(browser, server, DESKTOP, network=True)
    try:
        out.run("clean", "index.html", desktop, lambda: _landing(desktop, server))
        for rel in PAGES:
            checks = [("clean", lambda page, _, rel=rel: _renders_cleanly(page, rel, server))]
            if rel in (PAGES[0], *CHAPTERS):
                checks.append(("links", lambda page, _, rel=rel: _repository_links(page, rel)))
            if rel in CHAPTERS:
                checks.append(("downloads", lambda page, _, rel=rel: _downloads(page, rel)))
            checks.append(("reads", lambda page, cold, rel=rel: _read_at(page, rel, DESKTOP, cold, out.seen)))
            out.visit(desktop, rel, checks)
    finally:
        desktop.close()
    phone = Reader(browser, server, PHONE)
    try:
        for rel in PAGES:
            checks = [
                ("navigation", lambda page, _, rel=rel: _phone_navigation(page, rel)),
                ("reads", lambda page, _, rel=rel: _read_at(page, rel, PHONE, 0, out.seen)),
            ]
            out.visit(phone, rel, checks)
    finally:
        phone.close()
    return out


def _landing(reader, server: str) -> list[str]:
    """The landing page (index.html redirects to it) lists every page of the toc in its navigation."""
    page = reader.open("index.html")
    page.wait_for_url(server + PAGES[0])
    nav = {
        urlparse(urljoin(page.url, h)).path.lstrip("/")
        for h in page.eval_on_selector_all("nav.bd-docs-nav a", "els => els.map(e => e.getAttribute('href'))")
        if h
    }
    return [f"{rel}: missing from the navigation" for rel in PAGES[1:] if rel not in nav] + reader.problems(
        "index.html"
    )


def _renders_cleanly(page, rel: str, server: str) -> list[str]:
    """A page open at 1280 px: MathML, images, one search box, the footer, its notice, no table
    wider than the column, every internal link and anchor resolving; its screenshot taken."""
    problems = []
    # every formula is MathML written at build time (book/_ext/mathml.py): none is left as raw
    # TeX, and no page loads a script to typeset it
    math = page.locator("main .math").count()
    typeset = page.locator("main .math > math").count()
    if typeset < math:
        problems.append(f"{rel}: {math - typeset} of {math} formulas not MathML")
    if page.evaluate("() => [...document.scripts].some(s => /mathjax/i.test(s.src)) || 'MathJax' in window"):
        problems.append(f"{rel}: the page loads MathJax")
    broken = page.eval_on_selector_all(
        "img", "els => els.filter(e => !(e.complete && e.naturalWidth > 0)).map(e => e.getAttribute('src'))"
    )
    problems += [f"{rel}: image did not load: {src}" for src in broken]
    searches = visible(page, ".search-button-field, input[type=search], form.bd-search")
    if searches != 1:
        problems.append(f"{rel}: {searches} search boxes")
    footer = page.locator(".provenance-footer")
    if footer.count() != 1 or not re.search(
        r"hotelcheckspan \S+; commit \S+.*sha256 [0-9a-f]{12}", footer.inner_text()
    ):
        problems.append(f"{rel}: no provenance footer (version, commit, corpus checksum)")
    if page.locator("link[rel=icon]").count() != 1:
        problems.append(f"{rel}: no favicon link")
    if rel in REAL_CHAPTERS:  # real public corpora: a corpus note, never the warning
        if page.locator(".corpus-notice").count() == 0 or page.locator(".simulated-notice").count():
            problems.append(f"{rel}: the real-corpus chapter must carry the corpus note and no simulated notice")
    elif rel in CHAPTERS:
        if page.locator(".simulated-notice").count() == 0 or "Simulated data" not in page.inner_text("main"):
            problems.append(f"{rel}: no simulated-data notice")
    if rel in CHAPTERS and page.locator("main img").count() == 0 and page.locator("main table").count() == 0:
        problems.append(f"{rel}: neither a figure nor a table rendered")
    # every table a reader sees fits the content column, or scrolls inside its own box (which
    # fits) with its first column sticky (full tables in collapsed dropdowns may not fit)
    wide = page.evaluate(
        """() => { const article = document.querySelector('main article') || document.querySelector('main');
            const room = article.getBoundingClientRect().width;
            return [...article.querySelectorAll('table')]
              .filter(t => !t.closest('details:not([open])') && t.getBoundingClientRect().width > room + 1)
              .filter(t => { const box = t.closest('.hcs-scroll');
                return !box || box.getBoundingClientRect().width > room + 1
                  || getComputedStyle(t.querySelector('td, th')).position !== 'sticky'; })
              .map(t => Math.round(t.getBoundingClientRect().width) + ' px > ' + Math.round(room) + ' px'); }"""
    )
    problems += [f"{rel}: a table wider than the content column ({w})" for w in wide]

    for href in page.eval_on_selector_all("main a[href]", "els => els.map(e => e.getAttribute('href'))"):
        absolute = urljoin(server + rel, href)
        if not absolute.startswith(server):
            continue
        target, anchor = urldefrag(absolute)
        path = SITE / urlparse(target).path.lstrip("/")
        if path.is_dir():
            path = path / "index.html"
        if not path.exists():
            problems.append(f"{rel}: link to a missing page: {href}")
        elif anchor and path.suffix == ".html" and anchor not in ids_of(path):
            problems.append(f"{rel}: link to a missing anchor: {href}")

    # JPEG where it can: a long page's PNG takes twice as long
    if page.evaluate("() => document.documentElement.scrollHeight") > JPEG_MAX:
        page.screenshot(path=str(shot_of(rel, ".png")), full_page=True)
    else:
        page.screenshot(path=str(shot_of(rel)), full_page=True, quality=80)
    return problems


def test_every_page_renders_cleanly_offline(visits):
    assert not visits.found("clean"), "\n".join(visits.found("clean"))
    shots = [next((p for p in (shot_of(rel), shot_of(rel, ".png")) if p.exists()), None) for rel in PAGES]
    assert all(p is not None and p.stat().st_size > 0 for p in shots), shots


def _phone_navigation(page, rel: str) -> list[str]:
    """:func:`_sidebars`; where they failed, a sidebar may be left open over the page, which is then
    loaded again for the checks that follow."""
    try:
        found = _sidebars(page, rel)
    except Exception:
        page.reload(wait_until="load")
        raise
    if found:
        page.reload(wait_until="load")
    return found


def _sidebars(page, rel: str) -> list[str]:
    """At 390 px: each sidebar toggle opens its sidebar (with links), and a tap beside it closes it."""
    name = rel.replace("/", "__").replace(".html", "")
    sidebars = [("primary", ".primary-toggle", ".bd-sidebar-primary")]
    if page.locator(".secondary-toggle").count():
        sidebars.append(("secondary", ".secondary-toggle", ".bd-sidebar-secondary"))
    for which, toggle, sidebar in sidebars:
        if in_view(page, sidebar):
            return [f"{rel}: {which} sidebar shown before it was opened"]
        page.click(toggle)
        page.wait_for_function(
            f"() => {{ const r = document.querySelector('{sidebar}').getBoundingClientRect();"
            " return r.left >= 0 && r.right <= innerWidth; }"
        )
        if not in_view(page, sidebar):
            return [f"{rel}: the {which} toggle does not open the {which} sidebar"]
        links = page.locator(f"{sidebar} a[href]")
        if not (links.count() and links.first.is_visible()):
            return [f"{rel}: the {which} sidebar opened without links"]
        page.screenshot(path=str(SHOTS / f"phone-{which}-open__{name}.png"))
        # a reader closes it by tapping beside it, on the page it covers
        box = page.locator(sidebar).bounding_box()
        x = box["x"] + box["width"] + 20 if which == "primary" else max(box["x"] - 20, 5)
        page.mouse.click(x, PHONE["height"] / 2)
        if not gone(page, sidebar):
            return [f"{rel}: the {which} sidebar does not close"]
        page.wait_for_timeout(150)
        if in_view(page, sidebar):
            return [f"{rel}: the {which} sidebar opens again after closing"]
    return []


@pytest.mark.parametrize("rel", PAGES)
def test_phone_navigation_opens_and_closes(visits, rel):
    assert not visits.found("navigation", rel), visits.found("navigation", rel)


def test_desktop_toggle_collapses_the_sidebar(server, browser):
    reader = Reader(browser, server, DESKTOP)
    try:
        for rel in (PAGES[0], CHAPTERS[0]):
            page = reader.open(rel)
            width = page.eval_on_selector("main", "e => e.getBoundingClientRect().width")
            assert in_view(page, ".bd-sidebar-primary")
            page.click(".primary-toggle")
            page.wait_for_timeout(500)
            assert not in_view(page, ".bd-sidebar-primary"), f"{rel}: the toggle does not collapse the sidebar"
            assert page.eval_on_selector("main", "e => e.getBoundingClientRect().width") > width
            page.screenshot(path=str(SHOTS / f"desktop-collapsed__{rel.replace('/', '__').replace('.html', '')}.png"))
            page.click(".primary-toggle")
            page.wait_for_timeout(500)
            assert in_view(page, ".bd-sidebar-primary"), f"{rel}: the toggle does not bring the sidebar back"
            assert not reader.problems(rel)
    finally:
        reader.close()


def _repository_links(page, rel: str) -> list[str]:
    """The start page and every chapter: repository and source buttons; on chapters, launch links."""
    repo = repository()
    url, branch = repo["url"].rstrip("/"), repo.get("branch", "main")
    owner_repo = urlparse(url).path.strip("/")
    hrefs = page.eval_on_selector_all(
        ".article-header-buttons a[href], .header-article-items a[href]", "els => els.map(e => e.href)"
    )
    problems = [] if url in hrefs else [f"{rel}: no repository button"]
    source = Path(rel).with_suffix(".ipynb" if rel in CHAPTERS else ".md").as_posix()
    if not any(h.startswith(f"{url}/blob/{branch}/{source}") for h in hrefs):
        problems.append(f"{rel}: no source link")
    if rel in CHAPTERS:
        binder = f"https://mybinder.org/v2/gh/{owner_repo}/{branch}?urlpath=lab/tree/{source}"
        colab = f"https://colab.research.google.com/github/{owner_repo}/blob/{branch}/{source}"
        problems += [] if binder in hrefs else [f"{rel}: no Binder launch link ({binder})"]
        problems += [] if colab in hrefs else [f"{rel}: no Colab launch link ({colab})"]
    return problems


def test_links_to_the_repository_source_and_launch_services(visits):
    assert set(visits.checked["links"]) == {PAGES[0], *CHAPTERS}
    assert not visits.found("links"), "\n".join(visits.found("links"))


@pytest.mark.parametrize(
    "page_rel, files",
    [
        ("book/citing.html", ["CITATION.cff", "LICENSE", "LICENSE-data", ".zenodo.json"]),
        ("book/datasheet.html", ["data/README.md", "data/SHA256SUMS", "LICENSE-data"]),
    ],
)
def test_downloads_are_the_real_documents(server, browser, page_rel, files):
    reader = Reader(browser, server, DESKTOP)
    try:
        page = reader.open(page_rel)
        links = page.eval_on_selector_all("main a.download[href], main a[download]", "els => els.map(e => e.href)")
        for name in files:
            matches = [h for h in links if h.endswith("/" + Path(name).name)]
            assert matches, f"{page_rel}: no download link to {name}"
            body = page.request.get(matches[0]).body()
            assert body == (ROOT / name).read_bytes(), f"{page_rel}: the download of {name} is not the file"
        assert not reader.problems(page_rel)
    finally:
        reader.close()


def test_exports_are_linked_for_download(server, browser):
    index = ROOT / "_build" / "exports" / "index.csv"
    reader = Reader(browser, server, DESKTOP)
    try:
        page = reader.open("book/citing.html")
        links = page.eval_on_selector_all(".exports-table a.download[href]", "els => els.map(e => e.href)")
        with index.open(encoding="utf-8") as fh:
            files = [f for row in csv.DictReader(fh) for f in row["files"].split()]
        assert sorted(Path(urlparse(h).path).name for h in links) == sorted(files)
        for h in links:
            assert page.request.get(h).status == 200, h
        with index.open(encoding="utf-8") as fh:
            notes = {row["note"] for row in csv.DictReader(fh)}
        for note in notes:  # the data note is said once above the table, not in every row
            text = page.inner_text("main").replace("\u2019", "'")  # docutils' smart quotes
            assert text.count(note) == 1, f"{note!r} not said exactly once"
    finally:
        reader.close()


CITE = re.compile(r"\{cite(?::[a-z]+)?\}`([^`]+)`")
MAX_OPEN_CODE_LINES = 30


def source_of(rel: str) -> Path:
    """The reviewed source of a page: a chapter's .py, a book page's .md."""
    stem = ROOT / Path(rel).with_suffix("")
    return stem.with_suffix(".py") if rel in CHAPTERS else stem.with_suffix(".md")


# --- what a reader meets on every page, at both widths (issues 20, 29 and 36) ------------------------

PAGE_BUDGET = 1_500_000  # bytes a page may download, everything included (HTML, styles, scripts, fonts, images)
# phone screens a page may be tall at 390 px (issue 45: "The paper, checked" was 132, chapter 09 48.6;
# secondary material folds: long tables, per-item detail, code-heavy parts, secondary figures)
PAGE_SCREENS = 30
BANNER = ".simulated-notice, .corpus-notice"

# every image of the article: its rendered aspect ratio against its file's
IMAGES = """() => [...document.querySelectorAll('main img')]
  .filter(i => i.getBoundingClientRect().width > 0 && i.naturalWidth > 0 && !i.closest('details:not([open])'))
  .map(i => { const r = i.getBoundingClientRect();
    return [i.getAttribute('src'), r.width / r.height, i.naturalWidth / i.naturalHeight]; })"""

# words of a visible table cell broken across two lines inside the word ("Compariso|n"): a line may
# break at a space, a hyphen, an underscore's <wbr> or a slash, never between two letters
MID_WORD = """() => { const out = [];
  for (const cell of document.querySelectorAll('main table td, main table th')) {
    if (!cell.getBoundingClientRect().width || cell.closest('details:not([open])')) continue;
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/[\\p{L}\\p{N}]{2,30}/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out; }"""

# tables wider than their box: scrolled sideways. The checks of the paper (cards) never are.
SCROLLING = """() => [...document.querySelectorAll('main table')]
  .filter(t => t.getBoundingClientRect().width > 0 && !t.closest('details:not([open])'))
  .filter(t => { const box = t.closest('.hcs-scroll, .pst-scrollable-table-container, .cell_output') || t;
    return box.scrollWidth > box.clientWidth + 1; })
  .map(t => ({cards: t.classList.contains('hcs-cards-always'),
    head: (t.rows[0] ? t.rows[0].innerText : '').replace(/\\s+/g, ' ').slice(0, 40),
    label: (() => { const row = t.tBodies[0] && t.tBodies[0].rows[0]; if (!row) return 0;
      return [...row.cells]
        .filter(c => c.getBoundingClientRect().width > 0 && getComputedStyle(c).position === 'sticky')
        .reduce((w, c) => w + c.getBoundingClientRect().width, 0); })()}))"""

# display equations: each fits its column (no sideways scrolling inside the equation's box)
EQUATIONS = """() => [...document.querySelectorAll('main div.math > math')]
  .filter(e => e.getBoundingClientRect().width > 0)
  .filter(e => e.getBoundingClientRect().width > e.parentElement.clientWidth + 1)
  .map(e => Math.round(e.getBoundingClientRect().width))"""

# "chapter 08" (or "chapter 8") in the article's running text that is not a link
PLAIN_CHAPTERS = """() => { const out = [];
  const root = document.querySelector('main article') || document.querySelector('main');
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {acceptNode: n =>
    n.parentElement.closest('a, code, pre, h1, h2, h3, h4, h5, h6, script, style, .cell_input, mjx-container')
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  for (let n = walk.nextNode(); n; n = walk.nextNode())
    for (const m of n.data.matchAll(/(?<![\\w-])[Cc]hapter \\d\\d?(?![\\w-])/g)) out.push(m[0]);
  return out; }"""

BANNER_PLACE = f"""() => {{ const b = document.querySelector('{BANNER}'); if (!b) return null;
  const r = b.getBoundingClientRect();
  return {{real: b.classList.contains('corpus-notice'), top: r.top + scrollY, bottom: r.bottom + scrollY}}; }}"""

# the start page's chapter list: each item's link, marks and place
CHAPTER_LIST = """() => [...document.querySelectorAll('main ol.hcs-chapter-list > li')].map(li => {
  const r = li.getBoundingClientRect(), a = li.querySelector('a');
  return {href: new URL(a.getAttribute('href'), location.href).pathname.replace(/^\\//, ''),
    title: a.innerText.trim(), main: li.classList.contains('hcs-main-real') ? 'real' : 'stand-in',
    realSection: li.classList.contains('hcs-section-real'), bottom: r.bottom + scrollY,
    marks: [...li.querySelectorAll('.hcs-data, .hcs-data-section')].map(m => m.innerText.trim())}; })"""
FIRST_SCREEN_LINKS = """() => [...document.querySelectorAll('main a')].filter(a => {
  const r = a.getBoundingClientRect(); return r.width > 0 && r.bottom + scrollY <= innerHeight; })
  .map(a => new URL(a.getAttribute('href'), location.href).pathname.replace(/^\\//, ''))"""


# --- issue 46: WCAG 2.1 AA by axe-core, in light and dark mode ------------------------------------------

# axe-core from npm (make axe): the tests inject it, the site never loads it
AXE = ROOT / ".cache" / "axe" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_RUN = """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
  .then(r => r.violations.map(v => [v.id, v.impact, v.nodes.length,
    v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 2).join(''))]))"""
# the theme's own switch (pydata-sphinx-theme sets both attributes and nothing else)
SET_MODE = "m => { document.documentElement.dataset.theme = m; document.documentElement.dataset.mode = m; }"


def axe_violations(page, where: str) -> list[str]:
    """Every WCAG 2.0/2.1 A and AA violation axe-core finds on the page as it is, in light and in
    dark mode (the page is left in light mode), one line per rule and mode."""
    if not AXE.exists():
        pytest.fail(f"no axe-core at {AXE}: run `make axe` (make test fetches it)")
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE))
        # the mode switches at once: a colour caught in the theme's transition is neither mode's
        page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
    out = []
    for mode in ("light", "dark"):
        page.evaluate(SET_MODE, mode)
        for rule, impact, n, examples in page.evaluate(AXE_RUN, AXE_TAGS):
            out.append(f"{where}, {mode} mode: {rule} ({impact}) on {n} element(s), e.g. {examples}")
    page.evaluate(SET_MODE, "light")
    return out


# Cards (a table whose rows are cards of "header: value" lines): each line at least as tall as its
# header, which floats in the line's left padding; a header of two lines drew over the next (issue 45)
CARD_LABELS = """() => [...document.querySelectorAll('main table.hcs-cards td')]
  .filter(c => c.getBoundingClientRect().height > 0 && !c.closest('details:not([open])'))
  .filter(c => { const label = getComputedStyle(c, '::before');
    if (label.content === 'none' || label.display === 'none') return false;
    const s = getComputedStyle(c);
    const room = c.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
    return parseFloat(label.height) > room + 1; })
  .map(c => c.dataset.label + ' (' + Math.round(parseFloat(getComputedStyle(c, '::before').height)) + ' px) over a '
    + Math.round(c.clientHeight) + ' px line: ' + c.innerText.slice(0, 40))"""

# At 1280 px every open table shows all its columns, its answer (a verdict, "files match") among
# them: none scrolls sideways in its box (issue 45; the provenance page's checksums pushed "files
# match their list" out of view, the noted inconsistencies lost 23 px of "Why")
CUT_TABLES = """() => [...document.querySelectorAll('main table')]
  .filter(t => t.getBoundingClientRect().width > 0 && !t.closest('details:not([open])'))
  .map(t => [t, t.closest('.hcs-scroll, .pst-scrollable-table-container, .cell_output') || t.parentElement])
  .filter(([t, box]) => box.scrollWidth > box.clientWidth + 1)
  .map(([t, box]) => {
    const head = t.tHead ? [...t.tHead.rows[0].cells] : [...t.rows[0].cells];
    const right = box.getBoundingClientRect().right;
    const hidden = head.filter(c => c.getBoundingClientRect().right > right + 1).map(c => c.innerText.trim());
    return (box.scrollWidth - box.clientWidth) + ' px too wide, out of view: ' + hidden.join(', '); })"""

# Figures on a phone: every figure's smallest text (data-text-px: its size in the image's own
# pixels, measured by hotelcheckspan.book.plots when it was drawn) as shown, in CSS px
FIGURE_TEXT = """() => [...document.querySelectorAll('main img')]
  .filter(i => i.getBoundingClientRect().width > 0 && !i.closest('details:not([open])'))
  .map(i => { const pic = i.closest('picture'), source = pic && pic.querySelector('source');
    const phone = source && i.currentSrc === new URL(source.getAttribute('srcset'), location.href).href;
    const px = parseFloat(phone ? pic.dataset.phoneTextPx : i.dataset.textPx);
    return [i.getAttribute('src'), px * i.getBoundingClientRect().width / i.naturalWidth]; })"""
FIGURE_TEXT_MIN = 11  # CSS px at 390 px (issue 45)

# On a phone, a table that fits its box keeps each short hyphenated name on one line: the label
# column's cap of a third of the screen is for tables that scroll (issue 45: names broke at every
# hyphen while a third of the table stood empty)
BROKEN_NAMES = """() => [...document.querySelectorAll('main .hcs-scroll')]
  .filter(b => b.getBoundingClientRect().width > 0 && !b.closest('details:not([open])'))
  .filter(b => b.scrollWidth <= b.clientWidth + 1)
  .flatMap(b => [...b.querySelectorAll('.hcs-word')])
  .filter(w => new Set([...w.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size > 1)
  .map(w => w.innerText.trim())"""


def _read_at(page, rel: str, size: dict, downloaded: int, seen: dict) -> list[str]:
    """The checks of :func:`test_pages_read_well_at_both_widths` on a page open at one width;
    ``downloaded``: the bytes the page took to load (cold); ``seen`` gathers each chapter's
    notice (``banners``) and the start page's chapter list (``listed``) for the checks across
    pages."""
    problems: list[str] = []
    at = f"{rel} at {size['width']} px"
    problems += axe_violations(page, at)
    problems += [f"{at}: a card's header {c}" for c in page.evaluate(CARD_LABELS)]
    problems += [
        f"{at}: {src} drawn at {shown:.2f}:1, its file is {natural:.2f}:1"
        for src, shown, natural in page.evaluate(IMAGES)
        if abs(shown / natural - 1) > 0.02
    ]
    problems += [f"{at}: {w!r} broken inside the word in a table" for w in page.evaluate(MID_WORD)]
    for t in page.evaluate(SCROLLING):
        if t["cards"]:
            problems.append(f"{at}: a check of the paper scrolls sideways ({t['head']!r})")
        elif size is PHONE and t["label"] > size["width"] / 3 + 1:
            problems.append(f"{at}: label column {t['label']:.0f} px, over a third ({t['head']!r})")
    if rel in CHAPTERS:
        place = page.evaluate(BANNER_PLACE)
        if place is None or place["bottom"] > size["height"]:
            problems.append(f"{at}: the corpus notice is not in the first screen ({place})")
        seen["banners"][rel] = place or {}
    if rel == PAGES[0]:
        items = page.evaluate(CHAPTER_LIST)
        seen["listed"][size["width"]] = items
        problems += [
            f"{at}: chapter {i['title']!r} below the first screen" for i in items if i["bottom"] > size["height"]
        ]
        links = set(page.evaluate(FIRST_SCREEN_LINKS))
        problems += [
            f"{at}: no link to {t} in the first screen" for t in (CHAPTERS[0], "book/citing.html") if t not in links
        ]
    if rel == "book/explorer.html":
        page.wait_for_selector(".hx-open")
        first = page.eval_on_selector(".hx-open", "e => e.getBoundingClientRect().bottom + scrollY")
        if first > size["height"]:
            problems.append(f"{at}: the first example ends at {first:.0f} px, below the first screen")
        page.click(".hx-open")  # an example open, its source folded out
        page.wait_for_selector(".hx-example .hx-row")
        page.click(".hx-source summary")
        problems += axe_violations(page, f"{at}, an example open")
    if size is PHONE:
        height = page.evaluate("() => document.documentElement.scrollHeight")
        if height > PAGE_SCREENS * PHONE["height"]:
            problems.append(f"{at}: {height / PHONE['height']:.1f} screens tall, over {PAGE_SCREENS}")
        problems += [
            f"{at}: a figure's smallest text is {px:.1f} CSS px, under {FIGURE_TEXT_MIN} ({src})"
            for src, px in page.evaluate(FIGURE_TEXT)
            if not px >= FIGURE_TEXT_MIN
        ]
        problems += [f"{at}: {w!r} broken in a table that fits" for w in page.evaluate(BROKEN_NAMES)]
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > PHONE["width"] + 1:
            problems.append(f"{rel}: {width} px wide at {PHONE['width']} px")
        split = page.evaluate(SPLIT_WORDS)
        problems += [f"{rel}: {t!r} is split inside a word at {PHONE['width']} px" for t in split]
        found, undeclared = page.evaluate(LABEL_CHECK)
        problems += [f"{at}: {f}" for f in found]
        problems += [
            f"{at}: rows named by more columns than declared ({a} + {b}): labels={n}" for a, b, n in undeclared
        ]
        problems += [f"{at}: a display equation {w} px wide" for w in page.evaluate(EQUATIONS)]
        return problems
    # desktop only
    problems += [f"{at}: a table {t}" for t in page.evaluate(CUT_TABLES)]
    if downloaded > PAGE_BUDGET:
        problems.append(f"{rel}: {downloaded / 1e6:.2f} MB downloaded, over {PAGE_BUDGET / 1e6:.2f} MB")
    problems += [f"{rel}: {m!r} is not a link to its chapter" for m in page.evaluate(PLAIN_CHAPTERS)]
    problems += _reads_well(rel, page)
    return problems


def test_pages_read_well_at_both_widths(visits):
    """Every page once at 1280 px and once at 390 px (issues 20, 29, 36):

    - one table style (padded or ruled cells); no page wider than a phone; no bookkeeping cell open
      over thirty lines; the footer names the corpus the page loads; every cited key resolves;
      Colab only on notebooks; no memory address in a table;
    - at most :data:`PAGE_BUDGET` bytes a page, cold; every page at most :data:`PAGE_SCREENS`
      phone screens tall at 390 px;
    - every figure at its file's aspect ratio, at both widths;
    - no table cell broken inside a word; the checks of the paper (their verdicts) never scroll
      sideways, at either width; at 390 px a scrolling table's sticky label column is at
      most a third of the screen, its label columns in view when scrolled (``LABEL_CHECK``), and no
      link, code or short name in a table split inside a word; every display equation fits;
    - a chapter's corpus notice in its first screen, at both widths; no plain "chapter NN" that is
      not a link;
    - the start page's first screen, at both widths: where to start, how to cite and every
      chapter, each marked with the data its page says it runs on; the explorer's first example
      in its first screen;
    - issue 46: no WCAG 2.0/2.1 A or AA violation axe-core finds, in light and dark mode, at both
      widths, on every page and on the explorer with an example open;
    - issue 45: no card's header taller than its line, at both widths; every open table's columns
      in view at 1280 px; every figure's text at least :data:`FIGURE_TEXT_MIN` CSS px at 390 px."""
    problems = visits.found("reads")
    # the start page marks each chapter with the data its page runs on (its first corpus notice)
    for width, items in visits.seen["listed"].items():
        if [i["href"] for i in items] != CHAPTERS:
            problems.append(f"the start page at {width} px lists {[i['href'] for i in items]}, not the chapters")
        for item in items:
            real = visits.seen["banners"].get(item["href"], {}).get("real")
            if real is None or (item["main"] == "real") != real:
                problems.append(f"the start page marks {item['href']} {item['main']!r}; its page says real={real}")
    assert sorted(visits.seen["listed"]) == [PHONE["width"], DESKTOP["width"]]
    assert not problems, "\n".join(problems)


def _reads_well(rel: str, page) -> list[str]:
    """The checks of issue 20 on a page open at 1280 px."""
    problems = []
    bare = page.evaluate(
        """() => [...document.querySelectorAll('main table')].filter(t => {
            const r = t.getBoundingClientRect(); if (!r.width || !r.height) return false;
            const cell = t.querySelector('td, th'); if (!cell) return false;
            const s = getComputedStyle(cell);
            const pad = parseFloat(s.paddingLeft) + parseFloat(s.paddingRight);
            const border = ['Top', 'Bottom', 'Left', 'Right'].some(
              side => parseFloat(s['border' + side + 'Width']) > 0 && s['border' + side + 'Style'] !== 'none');
            return pad < 2 && !border; }).length"""
    )
    if bare:
        problems.append(f"{rel}: {bare} table(s) whose cells have neither padding nor a border")
    long_cells = page.evaluate(
        f"""() => [...document.querySelectorAll('main .cell_input')].filter(c => {{
            const r = c.getBoundingClientRect(); if (!r.width || !r.height) return false;
            if (c.closest('details:not([open])')) return false;
            return c.innerText.split('\\n').length > {MAX_OPEN_CODE_LINES}; }}).length"""
    )
    if long_cells:
        problems.append(f"{rel}: {long_cells} open code cell(s) over {MAX_OPEN_CODE_LINES} lines")
    footer = page.locator(".provenance-footer").inner_text()
    # the footer names the page's own corpus, the one its first notice names (a section on another
    # corpus, as chapter 10's real leaderboard, carries a notice of its own)
    first = page.locator(BANNER).first
    if page.locator(BANNER).count() and "corpus-notice" in (first.get_attribute("class") or ""):
        name = re.search(r"corpus at (\S+)", first.inner_text())
        named = name.group(1).rstrip(".") if name else None
        # a file read as it ships (WMT's MQM file) is named by the footer as the bundled folder holding it
        folders = {named} | {p.parent.name for p in paths.DATA_ROOT.glob(f"*/{named}")} if named else set()
        if not any(f"real corpus {f}" in footer for f in folders):
            problems.append(f"{rel}: the footer does not name the corpus the page loads ({footer!r})")
    elif page.locator(".simulated-notice").count() and "simulated stand-in" not in footer:
        problems.append(f"{rel}: a simulated page whose footer does not say so ({footer!r})")
    text = source_of(rel).read_text(encoding="utf-8")
    cited = {k.strip() for group in CITE.findall(text) for k in group.split(",")}
    linked = set(
        page.eval_on_selector_all(
            "main a[href*='#ref-']", "els => els.map(e => e.getAttribute('href').split('#ref-')[1])"
        )
    )
    problems += [f"{rel}: citation {k} does not resolve to the references" for k in sorted(cited - linked)]
    colab = page.locator("a[href*='colab.research.google.com']").count()
    if rel not in CHAPTERS and colab:
        problems.append(f"{rel}: a Colab button on a page that is not a notebook")
    if re.search(r"Styler at 0x|object at 0x", page.inner_text("main")):
        problems.append(f"{rel}: a memory address on the page")
    return problems


# a link, inline code or short hyphenated name inside a table breaks only between words, never
# inside one ("P / DF", "false_alar / m", "gemma- / 3"): a table that does not fit scrolls inside
# its own box instead (book/_static/tables.css, tables._cell_html)
SPLIT_WORDS = """() => [...document.querySelectorAll('main table a, main table code, main table .hcs-word')]
  .filter(e => e.getBoundingClientRect().width > 0 && !e.closest('details:not([open])'))
  .filter(e => {
    const words = e.innerText.trim().split(/[\\s\\/-]+/).filter(Boolean);
    if (words.some(w => w.length > 30)) return false;  // a checksum may break anywhere
    const lines = new Set([...e.getClientRects()].filter(r => r.width > 0)
      .map(r => Math.round(r.top))).size;
    return lines > Math.max(words.length, 1); })
  .map(e => e.innerText.trim())"""


def test_phone_contents_drawer_closes_after_a_tap(server, browser):
    """book/_static/phone.js: tapping an entry of the on-page contents jumps there and closes the
    drawer that covered the page; the toggle's tooltip does not stay on screen."""
    reader = Reader(browser, server, PHONE)
    try:
        page = reader.open(CHAPTERS[0])
        page.click(".secondary-toggle")
        page.wait_for_function(
            "() => { const r = document.querySelector('.bd-sidebar-secondary').getBoundingClientRect();"
            " return r.left >= 0 && r.right <= innerWidth; }"
        )
        page.locator(".bd-sidebar-secondary a[href^='#']").nth(1).click()
        assert gone(page, ".bd-sidebar-secondary"), "the contents drawer stays open after a tap"
        page.click(".primary-toggle")
        page.wait_for_timeout(300)
        assert visible(page, ".tooltip.show") == 0, "a tooltip stays on screen after a tap"
        assert not reader.problems(CHAPTERS[0])
    finally:
        reader.close()


def test_a_tap_leaves_no_tooltip_on_a_touch_screen(server, browser):
    """Issue 20: on a touch screen (no hover) a tap on a sidebar toggle showed its tooltip, which
    stayed over the next buttons after the sidebar closed (book/_static/tables.css)."""
    reader = Reader(browser, server, PHONE, has_touch=True, is_mobile=True)
    try:
        page = reader.open(CHAPTERS[0])
        page.tap(".primary-toggle")
        page.wait_for_timeout(500)
        assert visible(page, ".tooltip") == 0, "a tap shows the toggle's tooltip over the next buttons"
        page.tap("body", position={"x": PHONE["width"] - 20, "y": PHONE["height"] / 2})
        page.wait_for_timeout(500)
        assert not in_view(page, ".bd-sidebar-primary"), "the primary sidebar does not close after a tap beside it"
        assert visible(page, ".tooltip") == 0, "a tooltip stays on screen after a tap"
        assert not reader.problems(CHAPTERS[0])
    finally:
        reader.close()


# At 390 px (test_pages_read_well_at_both_widths): no visible cell cuts its content; a paper-vs-
# corpus table is a column of cards inside the screen; a table wider than the screen keeps its label
# columns (the first, or as many as it declares; on a phone stacked into the first, phone.js) in view
# and uncovered when scrolled to its right end; a table whose rows need more leading columns to be
# told apart than it declares (``Table(labels=)``, which ``show`` infers by the same rule) is named.
LABEL_CHECK = """() => {
  const out = [], undeclared = [];
  const text = c => c.innerText.replace(/\\s+/g, ' ').trim().slice(0, 40);
  for (const box of document.querySelectorAll('main .hcs-scroll')) {
    if (box.closest('details:not([open])')) continue;
    const table = box.querySelector('table');
    const cells = [...table.querySelectorAll('th, td')].filter(c => c.getBoundingClientRect().width > 0);
    // no visible cell cuts its own content (a word wider than its column)
    for (const c of cells) if (c.scrollWidth > c.clientWidth + 1) out.push('cell content clipped: ' + text(c));
    if (table.classList.contains('hcs-cards')) {
      for (const cell of table.querySelectorAll('td')) {
        const r = cell.getBoundingClientRect();
        if (r.width > 0 && (r.right > innerWidth + 1 || r.left < -1))
          out.push('card cell outside the screen: ' + text(cell));
        // a card line takes the card's width (a squeezed cell prints a letter per line)
        if (r.width > 0 && (getComputedStyle(cell).position === 'sticky' || r.width < 0.8 * box.clientWidth))
          out.push('card cell squeezed to ' + Math.round(r.width) + ' px: ' + text(cell));
      }
      continue;
    }
    if (box.getBoundingClientRect().right > innerWidth + 1) out.push('a scroll box wider than the screen');
    if (box.scrollWidth <= box.clientWidth + 1) continue;
    const n = table.classList.contains('hcs-stacked') ? 1 : parseInt(table.dataset.labels || '1', 10);
    const rows = [...table.tBodies[0].rows];
    // the row's name: the fewest leading columns whose values tell every row apart
    const key = k => rows.map(r => [...r.cells].slice(0, k).map(c => c.innerText.trim()).join('\\u0000'));
    let needed = 1;
    const distinct = k => new Set(key(k)).size;
    while (needed < 3 && distinct(needed) < rows.length && distinct(needed + 1) > distinct(needed)) needed++;
    if (needed > n) {
      const heads = [...table.tHead.rows[0].cells].map(c => c.innerText.trim());
      undeclared.push([heads[0], heads[1], needed]);
    }
    box.scrollLeft = box.scrollWidth;
    const b = box.getBoundingClientRect();
    for (const row of rows.filter(r => r.getClientRects().length)) {  // a long table's folded rows are not shown
      let before = null;
      for (let k = 0; k < n; k++) {
        const cell = row.cells[k], r = cell.getBoundingClientRect();
        if (r.left < b.left - 1 || r.right > b.right + 1)
          out.push(`label column ${k + 1} scrolled away: ${text(cell)}`);
        if (before && r.left < before.right - 1) out.push(`label column ${k + 1} under column ${k}: ${text(cell)}`);
        cell.scrollIntoView({block: 'center', inline: 'nearest', behavior: 'instant'});  // the theme scrolls smoothly
        const s = cell.getBoundingClientRect();
        const top = document.elementFromPoint(s.left + Math.min(4, s.width / 2), s.top + s.height / 2);
        if (!top || !cell.contains(top)) out.push(`label column ${k + 1} covered by the values: ${text(cell)}`);
        before = r;
      }
    }
    box.scrollLeft = 0;
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) out.push('the page is wider than the screen');
  return [out, undeclared]; }"""


def test_chapter_mentions_are_links_to_their_chapter(server, browser):
    """{chapter}`NN` renders "chapter NN" linked to that chapter's page, titled by it; a plain
    mention is linked alike, "chapter 8" as the data sheet writes it too (issue 45)."""
    reader = Reader(browser, server, DESKTOP)
    found = {}
    for rel in ("book/methods.html", "book/datasheet.html"):
        page = reader.open(rel)
        found[rel] = page.eval_on_selector_all(
            "main a.hcs-chapter",
            "els => els.map(e => [e.textContent, e.getAttribute('href'), e.getAttribute('title')])",
        )
    reader.close()
    assert all(found.values()), "the methods page and the data sheet mention chapters: they must be links"
    assert any(re.fullmatch(r"[Cc]hapter \d", t) for t, _, _ in found["book/datasheet.html"])
    for text, href, title in [link for links in found.values() for link in links]:
        number = re.fullmatch(r"[Cc]hapter (\d\d?)", text).group(1).zfill(2)
        assert re.search(rf"notebooks/{number}_\w+\.html", href), (text, href)
        assert title, text


# --- issue 29: label columns, stripes and shadows, downloads, bookkeeping, search --------------------


def _wide_two_label_table() -> str:
    """A presentation-layer table that scrolls at 390 px, its rows named by two columns."""
    import pandas as pd

    from hotelcheckspan.book import tables

    rows = [(m, t) for m in ("gemma-3", "gpt-4o (LS)", "o3-mini") for t in ("Incorrect", "Misleading")]
    frame = pd.DataFrame(
        {"Model": [m for m, _ in rows], "Error type": [t for _, t in rows]}
        | {f"Measure {i}": [f"0.{i}{j} [0.0{j}, 0.9{j}]" for j in range(len(rows))] for i in range(1, 8)}
    )
    return tables.Table(frame, [False, False, *[True] * 7], labels=2).to_html()


def _pixel(shot, x: float, y: float) -> tuple[int, int, int]:
    return shot.getpixel((round(x), round(y)))[:3]


def test_two_label_columns_stack_into_one_with_their_stripes_and_shadows(server, browser):
    """Issues 29 and 36, on a table made for the check and shown on a chapter page at 390 px: its
    two label columns are stacked into one sticky column of at most a third of the screen (the
    second label a line under the first, its own cells hidden), which stays in view and uncovered
    when the table is scrolled to its right end; each sticky label cell is painted like its own row
    (zebra stripes in step, pixel for pixel); the shadow saying there is more to the right shows
    over the striped rows, and once scrolled a shadow falls from the label column onto the values."""
    from PIL import Image

    reader = Reader(browser, server, PHONE)
    html = _wide_two_label_table()
    url = server + CHAPTERS[0]

    def inject(route):
        body = route.fetch().text()
        marker = '<article class="bd-article">'
        route.fulfill(
            body=body.replace(marker, marker + f'<div id="hcs-check">{html}</div>', 1), content_type="text/html"
        )

    try:
        reader.page.route(url, inject)
        page = reader.open(CHAPTERS[0])
        found, undeclared = page.evaluate(LABEL_CHECK.replace("main .hcs-scroll", "#hcs-check .hcs-scroll"))
        assert not found and not undeclared, found + undeclared
        box = page.locator("#hcs-check .hcs-scroll")
        box.scroll_into_view_if_needed()
        assert page.evaluate(
            "() => { const b = document.querySelector('#hcs-check .hcs-scroll');"
            " return b.scrollWidth > b.clientWidth + 20; }"
        ), "the check's table does not scroll"
        stacked = page.evaluate(
            """() => [...document.querySelectorAll('#hcs-check tbody tr')].map(r => [
                (r.cells[0].querySelector('.hcs-sublabel') || {}).textContent, r.cells[1].textContent,
                getComputedStyle(r.cells[1]).display, r.cells[0].getBoundingClientRect().width])"""
        )
        for sub, second, display, width in stacked:
            assert sub == second and display == "none", (sub, second, display)
            assert width <= PHONE["width"] / 3 + 1, f"the stacked label column is {width:.0f} px wide"

        def geometry():
            return page.evaluate(
                """() => { const b = document.querySelector('#hcs-check .hcs-scroll');
                  const rows = [...b.querySelectorAll('tbody tr')].map(r => [...r.cells]
                    .filter(c => c.getBoundingClientRect().width > 0).slice(0, 2).map(c => {
                    const x = c.getBoundingClientRect(); return [x.left, x.right, x.top, x.bottom]; }));
                  const x = b.getBoundingClientRect(); return {box: [x.left, x.right, x.top, x.bottom], rows}; }"""
            )

        def shot():
            return Image.open(io.BytesIO(page.screenshot())).convert("RGB")

        g, img = geometry(), shot()
        stripes = set()
        for label, value in g["rows"]:
            y = label[3] - 3  # the cells' bottom padding: no text there
            painted = [_pixel(img, label[0] + 3, y), _pixel(img, value[0] + 3, y)]
            assert max(abs(a - b) for a, b in zip(*painted)) <= 2, (
                f"a sticky label cell is painted {painted[0]}, its row {painted[1]}"
            )
            stripes.add(painted[1])
        assert len(stripes) == 2, f"rows are not striped in two colours: {stripes}"
        left, right = g["box"][0], g["box"][1]
        for label, _ in g["rows"]:
            y = label[3] - 3
            edge, inside = _pixel(img, right - 2, y), _pixel(img, right - 48, y)
            assert sum(edge) < sum(inside) - 12, f"no shadow at the right edge over a row ({edge} vs {inside})"

        page.evaluate("() => { const b = document.querySelector('#hcs-check .hcs-scroll'); b.scrollLeft = 60; }")
        page.wait_for_timeout(200)
        g, img = geometry(), shot()
        for label, _ in g["rows"]:
            y = label[3] - 3
            near, far = _pixel(img, label[1] + 2, y), _pixel(img, label[1] + 40, y)
            assert sum(near) < sum(far) - 12, f"no shadow from the label column once scrolled ({near} vs {far})"
            assert abs(label[0] - left) <= 1, "the label column moved"
        assert not reader.problems(CHAPTERS[0])
    finally:
        reader.close()


DOWNLOADS = """() => {
  // a cell's text as the table holds it (not the button that folds a card, phone.js)
  const text = c => { const x = c.cloneNode(true); x.querySelectorAll('.hcs-unfold').forEach(b => b.remove());
    return x.textContent.replace(/\\s+/g, ' ').trim(); };
  const rows = t => [...t.rows].map(r => [...r.cells].map(text))
    .filter(r => r.length);
  const links = el => { const p = el && el.nextElementSibling;
    return p && p.matches('p.hcs-downloads') ? [...p.querySelectorAll('a')].map(a => [a.textContent, a.href]) : null; };
  const tables = [...document.querySelectorAll('main table')].filter(t => !t.closest('.hcs-downloads'))
    .map(t => ({what: 'table ' + (t.rows[0] ? t.rows[0].textContent.replace(/\\s+/g, ' ').trim().slice(0, 50) : ''),
                links: links(t.closest('.hcs-scroll, .pst-scrollable-table-container') || t), rows: rows(t)}));
  const figures = [...document.querySelectorAll('main .cell_output img')].map(i => ({
    what: 'figure ' + (i.alt || i.src).slice(0, 50), src: i.src,
    links: links(i.closest('figure') || i.closest('a.image-reference') || i)}));
  return {tables, figures}; }"""


def _downloads(page, rel: str) -> list[str]:
    """Issue 29: under every table of a chapter a CSV link whose file parses to the table's rows
    (header and cells as shown); under every figure a PNG link to the image itself; under the
    tables and figures ``make exports`` writes (``shown_by`` in hotelcheckspan.book.exports), their
    LaTeX or PDF as well, and every such export is linked once on its chapter's page."""
    from hotelcheckspan.book import exports

    problems: list[str] = []
    found = page.evaluate(DOWNLOADS)
    if not (found["tables"] or found["figures"]):
        return [f"{rel}: no table or figure"]
    for table in found["tables"]:
        if not table["links"]:
            problems.append(f"{rel}: no download links under {table['what']}")
            continue
        csvs = [h for label, h in table["links"] if label == "CSV"]
        if len(csvs) != 1:
            problems.append(f"{rel}: {len(csvs)} CSV links under {table['what']}")
            continue
        response = page.request.get(csvs[0])
        got = list(csv.reader(io.StringIO(response.text()))) if response.ok else None
        if got != table["rows"]:
            problems.append(f"{rel}: the CSV of {table['what']} is not its rows ({csvs[0]})")
    for figure in found["figures"]:
        pngs = [h for label, h in figure["links"] or [] if label == "PNG"]
        if pngs != [figure["src"]]:
            problems.append(f"{rel}: no PNG link to the image under {figure['what']} ({pngs})")
        elif page.request.get(pngs[0]).body()[:8] != b"\x89PNG\r\n\x1a\n":
            problems.append(f"{rel}: the PNG link of {figure['what']} is not a PNG")
    linked = [h for item in found["tables"] + found["figures"] for _, h in item["links"] or []]
    chapter = Path(rel).stem
    for export in [e for e in exports.EXPORTS if e.chapter == chapter and e.shown_by]:
        ext = "tex" if export.kind == "table" else "pdf"
        hits = [h for h in linked if h.endswith(f"/exports/{export.name}.{ext}")]
        if len(hits) != 1:
            problems.append(f"{rel}: {export.name}.{ext} linked {len(hits)} times")
        elif not page.request.get(hits[0]).ok:
            problems.append(f"{rel}: {hits[0]} does not download")
    return problems


@pytest.mark.parametrize("rel", CHAPTERS)
def test_every_table_and_figure_has_its_download_links(visits, rel):
    assert rel in visits.checked["downloads"]
    assert not visits.found("downloads", rel), "\n".join(visits.found("downloads", rel))


class _TableRows(HTMLParser):
    """The cells of every table row of a page, as text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def test_search_sees_the_cells_of_a_table_apart(server):
    """Issue 29: the search index (and its snippets, the text of the page) read a table row's cells
    with whitespace between them: no word of the index glues the end of one cell to the start of
    the next ("gpt-4o" then "0.35" indexed as "4o0")."""
    run_together = re.compile(r"</t[dhr]><")
    bad = [rel for rel in PAGES if run_together.search((SITE / rel).read_text(encoding="utf-8"))]
    assert not bad, f"table cells run together in the HTML of {bad}"
    index = (SITE / "searchindex.js").read_text(encoding="utf-8")
    # a term left by an earlier build of the same folder maps to no page: not in the index
    found = json.loads(index[index.index("(") + 1 : index.rindex(")")])["terms"]
    terms = {t for t, docs in found.items() if docs != []}
    glued, pairs = set(), 0
    for rel in CHAPTERS:
        parser = _TableRows()
        parser.feed((SITE / rel).read_text(encoding="utf-8"))
        for row in parser.rows:
            for a, b in zip(row, row[1:]):
                end, start = re.findall(r"\w+", a.lower())[-1:], re.findall(r"\w+", b.lower())[:1]
                # a word of three letters or more, then a cell: glued, they make a word no cell holds
                if end and start and len(end[0]) > 2 and len(start[0]) > 1 and re.search(r"[a-z]", end[0]):
                    pairs += 1
                    if end[0] + start[0] in terms:
                        glued.add(f"{rel}: {a[-20:]!r} + {b[:20]!r}")
    assert pairs > 50, "too few table cells to check"
    assert not glued, "cells run together in the search index:\n" + "\n".join(sorted(glued)[:20])


# --- the bookkeeping check (issue 29): an open code cell is an analysis a reader would copy -----------
#
# The rule, over the source of every code cell whose input a reader sees open (not removed, not
# collapsed): each top-level statement is
#   bookkeeping  - an assignment of a literal list, tuple, set or dict holding text (headers, names
#                  of columns to show);
#                - an assignment to a frame's ``.columns`` / ``.index`` / ``.name`` / ``.names``
#                  (renaming), or of/to a chain of renaming and formatting methods on a value
#                  (``x.rename(...)``, ``.rename_axis``, ``.set_axis``, ``.round``, ``.astype``,
#                  ``.reset_index``, ``.add_prefix``, ``.add_suffix``, ``.format``, ``.to_string``),
#                  or a display (``tables.*``, ``display``, ``print``) of such a chain;
#                - a guard: ``try`` whose every handler only passes, an ``if`` testing ``is None`` /
#                  ``is not None``, a value ``a if c else None`` (either branch None);
#                - a glue call (``glue``, ``glue_all``, ...) or a display of one;
#   neutral      - an import; the display of a value (a name, attribute or item); a presentation
#                  call (``tables.*``, ``display``) of values, literals or format options;
#   work         - anything else (an analysis call, a computation).
# A cell fails when it has bookkeeping and no work: it only renames, formats or guards.

FORMAT_METHODS = frozenset(
    {"rename", "rename_axis", "set_axis", "round", "astype", "reset_index", "add_prefix", "add_suffix", "format"}
    | {"to_string"}
)
LABEL_ATTRIBUTES = frozenset({"columns", "index", "name", "names"})
DISPLAY_CALLS = frozenset({"display", "print"})
PRESENTATION_MODULES = frozenset({"tables"})


def _call_name(call: ast.Call) -> tuple[str | None, str]:
    """(module or receiver name, function name) of a call: ``tables.show`` -> ("tables", "show")."""
    f = call.func
    if isinstance(f, ast.Name):
        return None, f.id
    if isinstance(f, ast.Attribute):
        return (f.value.id if isinstance(f.value, ast.Name) else None), f.attr
    return None, ""


def _literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _value(node: ast.AST) -> bool:
    """A value already computed: a name, an attribute or item of one, a literal."""
    if isinstance(node, (ast.Name, ast.Constant)) or _literal(node):
        return True
    if isinstance(node, ast.Attribute):
        return _value(node.value)
    if isinstance(node, ast.Subscript):
        return _value(node.value) and _value(node.slice)
    return False


def _format_chain(node: ast.AST) -> bool:
    """A value put through renaming/formatting methods only, at least one of them."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if node.func.attr not in FORMAT_METHODS:
        return False
    args = [*node.args, *(k.value for k in node.keywords)]
    if not all(_value(a) or isinstance(a, ast.Lambda) for a in args):
        return False
    inner = node.func.value
    return _value(inner) or _format_chain(inner)


def _glue(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _call_name(node)[1].startswith("glue")


def _presentation(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    module, name = _call_name(node)
    return module in PRESENTATION_MODULES or (module is None and name in DISPLAY_CALLS)


def _is_none(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _classify(stmt: ast.stmt) -> str:
    """'bookkeeping', 'neutral' or 'work' (see the rule above)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return "neutral"
    if isinstance(stmt, ast.Try):
        swallowed = stmt.handlers and all(
            all(
                isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
                for s in h.body
            )
            for h in stmt.handlers
        )
        return "bookkeeping" if swallowed else "work"
    if isinstance(stmt, ast.If):
        tests = [stmt.test] if not isinstance(stmt.test, ast.BoolOp) else stmt.test.values
        guard = any(
            isinstance(t, ast.Compare)
            and any(isinstance(op, (ast.Is, ast.IsNot)) for op in t.ops)
            and any(_is_none(c) for c in [t.left, *t.comparators])
            for t in tests
        )
        return "bookkeeping" if guard else "work"
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        value = stmt.value
        if value is None:
            return "neutral"
        if all(isinstance(t, ast.Attribute) and t.attr in LABEL_ATTRIBUTES for t in targets):
            return "bookkeeping"
        if isinstance(value, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and _literal(value):
            leaves = [n for n in ast.walk(value) if isinstance(n, ast.Constant)]
            if any(isinstance(n.value, str) for n in leaves):
                return "bookkeeping"
        return _expression(value)
    if isinstance(stmt, ast.Expr):
        return _expression(stmt.value)
    return "work"


def _expression(node: ast.AST) -> str:
    if isinstance(node, ast.IfExp) and (_is_none(node.body) or _is_none(node.orelse)):
        return "bookkeeping"
    if _glue(node) or _format_chain(node):
        return "bookkeeping"
    if _value(node):
        return "neutral"
    if _presentation(node):
        args = [*node.args, *(k.value for k in node.keywords)]
        kinds = {_expression(a) for a in args}
        if "work" in kinds:
            return "work"
        return "bookkeeping" if "bookkeeping" in kinds else "neutral"
    return "work"


def bookkeeping_only(source: str) -> bool:
    """Whether a cell's code only renames, formats or guards (the rule above)."""
    try:
        body = ast.parse(source).body
    except SyntaxError:  # IPython syntax (magics): not Python the rule can read
        return False
    kinds = {_classify(s) for s in body}
    return "bookkeeping" in kinds and "work" not in kinds


def test_the_bookkeeping_rule_on_hand_written_cells():
    """The rule on cells whose verdict is plain by reading them."""
    flagged = [
        'headers = {"f1": "F1", "bacc": "BACC"}',
        'table.columns = ["Model", "F1"]\ntable',
        'shown = board.rename(columns={"f1": "F1"})\nshown',
        'tables.show(board.rename(columns={"f1": "F1"}).round(2))',
        "try:\n    del board['x']\nexcept KeyError:\n    pass",
        "ci = result['ci'] if result is not None else None",
        "if board is not None:\n    tables.show(board)",
        'glue("n_examples", n, display=False)',
        'display(glue("k", k))',
        'cols = ["comparison", "f1"]\ntables.show(pairs[cols])',
        "per_cat.columns.name = None",
    ]
    passed = [
        "board = judges.leaderboard(corpus)\ntables.leaderboard(board)",
        "tables.neighbours(board)",
        "tables.show(t5, decimals=1)",
        "N_BOOT = 1000\nt6 = span_level.table6(pairs, counts, n_boot=N_BOOT, seed=0)",
        'x = frame.rename(columns={"a": "b"})\ny = analysis.fit(x)',
        "try:\n    fit = model.fit()\nexcept ValueError:\n    fit = None",
        "import hotelcheckspan\ncorpus = hotelcheckspan.load()",
        "plots.paradox(llm)",
        "%matplotlib inline",
    ]
    assert [s for s in flagged if not bookkeeping_only(s)] == []
    assert [s for s in passed if bookkeeping_only(s)] == []


# Open cells that fail the rule, (chapter, first line), to be folded into an analysis call or
# tagged remove-input. The check fails on a cell not listed, and on a listed cell that no longer
# fails; none is left.
BOOKKEEPING_TODAY: set[tuple[str, str]] = set()

OPEN_CELLS = """() => [...document.querySelectorAll('main .cell_input')]
  .filter(e => !e.closest('details') && !e.closest('.tag_hide-input, .tag_hide-cell, .tag_remove-input'))
  .map(e => (e.querySelector('pre') || e).textContent)"""


def test_no_open_cell_only_renames_formats_or_guards(server, browser):
    """Issue 29: every code cell a reader sees open is an analysis a reader would copy; bookkeeping
    goes into a book helper or a cell tagged remove-input / hide-input (the rule above)."""
    reader = Reader(browser, server, DESKTOP)
    failing: set[tuple[str, str]] = set()
    try:
        for rel in CHAPTERS:
            page = reader.open(rel)
            for source in page.evaluate(OPEN_CELLS):
                if bookkeeping_only(source):
                    failing.add((Path(rel).stem[:2], source.strip().splitlines()[0]))
    finally:
        reader.close()
    new = sorted(failing - BOOKKEEPING_TODAY)
    fixed = sorted(BOOKKEEPING_TODAY - failing)
    listed = "\n".join(f"chapter {c}: {line}" for c, line in new)
    assert not new, "open cells that only rename, format or guard:\n" + listed
    assert not fixed, "cells that pass now (drop them from BOOKKEEPING_TODAY):\n" + "\n".join(map(str, fixed))


# --- issue 46: every control by keyboard alone, its focus visible -------------------------------------

# the element that has the focus: what it is, whether a focus ring (outline or box shadow) is drawn
FOCUSED = """sels => { const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e), r = e.getBoundingClientRect();
  const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
  return {name: e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className
      ? '.' + e.className.trim().split(/\\s+/).slice(0, 3).join('.') : ''),
    text: (e.getAttribute('aria-label') || e.innerText || '').trim().slice(0, 40), ring,
    shown: r.width > 0 && r.height > 0, hits: sels.filter(x => e.matches(x))}; }"""
KEYS = ["#pst-skip-link a", ".primary-toggle", ".secondary-toggle", ".search-button__button", "main summary", "main a"]


def tab_to(page, selector: str, limit: int = 150) -> list[dict]:
    """Press Tab until the focus is on ``selector``; every element focused on the way, the last
    one ``selector``'s (an AssertionError if it is not reached)."""
    seen = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = page.evaluate(FOCUSED, [selector, *KEYS])
        if now is None:
            continue
        seen.append(now)
        if selector in now["hits"]:
            return seen
    raise AssertionError(f"{selector} not reached in {limit} tabs; focused: {[s['name'] for s in seen[-5:]]}")


def no_ring(seen: list[dict]) -> list[str]:
    return [f"{s['name']} {s['text']!r}" for s in seen if s["shown"] and not s["ring"]]


def test_every_control_is_reachable_and_usable_by_keyboard(server, browser):
    """Issue 46, by keyboard alone on a chapter: the first Tab reaches a skip link that moves on to
    the main content; every element the Tab key reaches on the way to the controls shows a focus
    ring; at 1280 px the sidebar toggle closes and opens the sidebar, a fold opens and closes, and
    the search opens, takes a query and lists results; at 390 px the navigation and the contents
    drawer open, their links are reached, and Escape closes them, the focus back on the toggle."""
    problems: list[str] = []
    rel = CHAPTERS[0]
    reader = Reader(browser, server, DESKTOP)
    try:
        page = reader.open(rel)
        first = tab_to(page, "#pst-skip-link a", limit=1)
        problems += [f"the skip link shows no focus ring: {s}" for s in no_ring(first)]
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        if not page.evaluate("() => !!document.activeElement.closest('#main-content')"):
            problems.append("after the skip link, Tab does not go on in the main content")
        page = reader.open(rel)
        seen = tab_to(page, ".primary-toggle")
        page.keyboard.press("Enter")
        if not gone(page, ".bd-sidebar-primary"):
            problems.append("Enter on the sidebar toggle does not close the sidebar")
        page.wait_for_timeout(200)  # the theme moves the focus 100 ms after a toggle
        if not page.evaluate("() => document.activeElement.matches('.primary-toggle')"):
            problems.append("after the sidebar closes, the focus is not on its toggle")
            page.focus(".primary-toggle")
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => ({IN_VIEW})(document.querySelector('.bd-sidebar-primary'))")
        seen += tab_to(page, "main summary")
        page.keyboard.press("Enter")
        if not page.evaluate("() => document.activeElement.parentElement.open"):
            problems.append("Enter on a fold does not open it")
        page.keyboard.press("Enter")
        if page.evaluate("() => document.activeElement.parentElement.open"):
            problems.append("Enter on an open fold does not close it")
        problems += [f"no focus ring at 1280 px on {s}" for s in no_ring(seen)]
        page = reader.open(rel)
        seen = tab_to(page, ".search-button__button")
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement && document.activeElement.matches('input[type=search]')")
        page.keyboard.type("kappa")
        page.keyboard.press("Enter")
        page.wait_for_url("**/search.html?q=kappa*")
        page.wait_for_selector("#search-results li", timeout=10_000)
        problems += reader.problems(rel) + reader.problems("search.html")
    finally:
        reader.close()
    reader = Reader(browser, server, PHONE)
    try:
        for toggle, sidebar in (
            (".primary-toggle", ".bd-sidebar-primary"),
            (".secondary-toggle", ".bd-sidebar-secondary"),
        ):
            page = reader.open(rel)
            seen = tab_to(page, toggle)
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => ({IN_VIEW})(document.querySelector('{sidebar}'))")
            seen += tab_to(page, f"{sidebar} a")
            page.keyboard.press("Escape")
            if not gone(page, sidebar):
                problems.append(f"Escape does not close {sidebar} at 390 px")
            elif not page.evaluate("s => document.activeElement.matches(s)", toggle):
                problems.append(f"after Escape the focus is not back on {toggle}")
            problems += [f"no focus ring at 390 px on {s}" for s in no_ring(seen)]
        problems += reader.problems(rel)
    finally:
        reader.close()
    assert not problems, "\n".join(dict.fromkeys(problems))


def test_check_cards_fold_to_their_claim_and_verdict(server, browser):
    """Issue 45: a check of the paper's figures is a card folded to what it is about and its
    verdict (cards at every width, ``tables.Table(cards="always")``), and a button, reached and
    pressed by keyboard, opens the rest of it and says so. A chapter's checks to read stand under
    a line that counts them (the first dropdown of cards), opened here as a reader opens it."""
    reader = Reader(browser, server, PHONE)
    try:
        page = reader.open(CHAPTERS[1])
        page.locator("main details.hcs-dropdown:has(table.hcs-cards-always) > summary").first.click()
        rows = page.locator("main details[open] table.hcs-cards-always > tbody > tr")
        first = rows.evaluate_all("rs => rs.findIndex(r => r.classList.contains('hcs-folded'))")
        assert first >= 0, "no folded check on the page"
        shown = """r => [...r.cells].filter(c => c.getBoundingClientRect().height > 0).map(c => c.dataset.label)"""
        row = rows.nth(first)
        folded = row.evaluate(shown)
        kept = row.evaluate("r => [...r.cells].filter(c => c.classList.contains('hcs-keep')).map(c => c.dataset.label)")
        assert folded == kept and "Verdict" in kept, (folded, kept)
        button = row.locator(".hcs-unfold")
        assert button.get_attribute("aria-expanded") == "false"
        button.focus()
        page.keyboard.press("Enter")
        assert button.get_attribute("aria-expanded") == "true"
        assert len(row.evaluate(shown)) == row.evaluate("r => r.cells.length") > len(kept)
        assert not reader.problems(CHAPTERS[1])
    finally:
        reader.close()


def test_the_built_site_is_readable_by_anyone():
    """Issue 45: every file of the built site is 0644 and every folder 0755, so a web server
    running as another user serves it all (``_static/explorer`` was 0700: its data answered 403)."""
    if not (SITE / "index.html").exists():
        pytest.skip(NO_SITE)
    wrong = []
    for root, dirs, files in os.walk(SITE):
        if Path(root).stat().st_mode & 0o777 != 0o755:
            wrong.append(f"{root}: {oct(Path(root).stat().st_mode & 0o777)}")
        wrong += [
            f"{Path(root) / f}: {oct(mode)}"
            for f in files
            if (mode := (Path(root) / f).stat().st_mode & 0o777) != 0o644
        ]
    assert not wrong, "\n".join(wrong[:20])


# --- one name for each thing (issue 45): the names the glossary retired, nowhere on the built site ---

# Each retired name, as a pattern, with the name the glossary gives the thing instead. The built
# pages are read as a reader reads them: their text, their title, and the text a page carries in
# attributes (a figure's alt text, a card's column label, a tooltip), and the explorer's names.
RETIRED = {
    r"\bzeroshot-[a-z0-9][\w.-]*\b": "a judge's display name (no prompt variant unless two judges share a model)",
    r"\b(?:gpt-4o|o3-mini)-ls\b": "gpt-4o (LS), o3-mini (LS)",
    r"\bLLM annotators?\b": "judge",
    r"\bLLM campaigns?\b": "judge",
    r"\b[Aa]nnotator sets?\b": "human set, or judge",
    r"\b[Ss]tage \d+ ?[A-Z]\b": "St. 1A",
    r"\bGroup [A-Z] - Group [A-Z]\b|\bStage \d+ - Stage \d+\b|\bHuman - LLM \(": "St. 1A vs St. 1B, humans vs gpt-4o",
    r"\bstage\d+/[A-Z0-9]+\b|\b(?:iaa|test)/ ?[A-Z0-9]{1,2}\b": "St. 1A, group 3",
    r"\b[Hh]ard (?:span )?F1\b|\b[Ss]oft (?:span )?F1\b|\bF1 \(?(?:hard|soft)\b": "span F1, hard; span F1, soft",
    r"\b(?:P|R|F1)_[HS]\b": "span F1, hard; span precision, soft; ...",
    r"\bnot checkable\b": "not decidable by rule (a verdict); Not Checkable is the error type",
    r"\b(?:rouge1|rougeL)_(?:precision|recall|f1)\b|\bminilm_\w+|\bbertscore_\w+": "ROUGE-L precision, ...",
}


# Where a retired name legitimately stays, each rule as narrow as it can be:
# - a folder or file path ("annotations/model/d2t-eval/iaa/zeroshot-gpt4o/annotations.jsonl"): the
#   name with a "/" right before or after it is part of a path, which names a folder as it is;
# - a machine id in code: a <code> element whose whole text is the name (campaign `gpt-4o-ls`, the
#   set `stage1/A` as the command line takes it);
# - a command line in inline code (<code> whose text starts with "hotelcheckspan " or ".venv/bin/");
# - code a reader types, as it is typed: a code block (<pre>) and a notebook cell's source
#   (div.cell_input);
# - a writing the glossary records as retired, marked ``<span class="hcs-retired">``.
class _Prose(HTMLParser):
    """A page's text as a reader reads it, in runs: the text of one block (a paragraph, a table
    cell, a heading), its inline elements joined as they render (an identifier broken by ``<wbr>``
    reads whole), each character tied to the <code>/<pre> element it sits in, if any; attribute
    texts are runs of their own. Scripts, styles, notebook cells' sources and the glossary's
    record of retired writings (``hcs-retired``) are left out."""

    SKIP = {"script", "style"}
    ATTRS = ("alt", "title", "aria-label", "data-label")
    VOID = {"br", "img", "wbr", "hr", "meta", "link", "input", "source", "col", "area", "base", "embed", "param"}
    BLOCKS = {"p", "div", "td", "th", "tr", "li", "ul", "ol", "dt", "dd", "dl", "table", "caption", "summary"}
    BLOCKS |= {"details", "section", "article", "h1", "h2", "h3", "h4", "h5", "h6", "br", "title", "figcaption"}
    BLOCKS |= {"nav", "header", "footer", "aside", "main", "body", "head", "blockquote", "label", "button"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, int | None]] = []  # (tag, skipped, its code element)
        self.codes: list[list[str]] = []  # the text of each <code>/<pre> element
        self.blocks: set[int] = set()  # the code elements that are code blocks (<pre>)
        self.runs: list[tuple[str, list[tuple[int, int, int | None]]]] = []
        self.text, self.segments = [], []

    def close_run(self):
        text = "".join(self.text)
        if text.strip():
            self.runs.append((text, self.segments))
        self.text, self.segments = [], []

    @property
    def skipping(self) -> bool:
        return any(s for _, s, _ in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag in self.BLOCKS:
            self.close_run()
        if not self.skipping:
            for name in self.ATTRS:
                if a.get(name):
                    self.runs.append((a[name], [(0, len(a[name]), None)]))
        if tag in self.VOID:
            return
        skipped = tag in self.SKIP or "cell_input" in classes or "hcs-retired" in classes
        code = self.stack[-1][2] if self.stack else None
        if tag in ("code", "pre") and code is None:
            self.codes.append([])
            code = len(self.codes) - 1
        if tag == "pre" and code is not None:
            self.blocks.add(code)
        self.stack.append((tag, skipped, code))

    def handle_endtag(self, tag):
        if tag in self.BLOCKS:
            self.close_run()
        if any(t == tag for t, _, _ in self.stack):
            while self.stack and self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        if self.skipping:
            return
        data = data.replace("\u00ad", "").replace("\u200b", "")
        code = self.stack[-1][2] if self.stack else None
        if code is not None:
            self.codes[code].append(data)
        start = sum(len(t) for t in self.text)
        self.text.append(data)
        self.segments.append((start, start + len(data), code))


def retired_names(html: str) -> list[tuple[str, str]]:
    """(name, the glossary's name instead) for every retired name in a page's text, but for the
    legitimate places above."""
    parser = _Prose()
    parser.feed(html)
    parser.close_run()
    found = []
    for text, segments in parser.runs:
        for pattern, instead in RETIRED.items():
            for m in re.finditer(pattern.replace(" ", r"\s+"), text):  # a line may break anywhere
                if text[: m.start()].endswith("/") or text[m.end() :].startswith("/"):
                    continue  # part of a path
                code = next((c for a, b, c in segments if a <= m.start() < b), None)
                if code in parser.blocks:
                    continue  # a code block: typed as it stands
                whole = "".join(parser.codes[code]).strip() if code is not None else None
                if whole is not None and (whole == m.group(0) or whole.startswith(("hotelcheckspan ", ".venv/bin/"))):
                    continue  # a machine id, or a command line
                found.append((m.group(0), instead))
    return found


def test_retired_names_are_caught_and_their_legitimate_places_are_not():
    page = (
        "<p>Chapter 05: LLM annotators, F1_H and hard F1; zeroshot-gpt4o leads; St. 1A against stage 1 A</p>"
        "<img alt='span F1 (hard) of gpt-4o-ls'>"
        "<p>its folder <code>annotations/model/d2t-eval/iaa/zeroshot-gpt4o</code>, "
        "annotations/model/x/zeroshot-gpt4o/annotations.jsonl, the campaign <code>gpt-4o-ls</code>, "
        "<code>hotelcheckspan f1 CORPUS stage1/A gpt-4o-ls</code>, "
        "<span class='hcs-retired'>Group A - Group B (Stage 1)</span></p>"
        "<div class='cell_input'><pre>tables.metric_board(board, 'rougeL_precision')</pre></div>"
        "<p>but <code>the zeroshot-gpt4o judge</code> and the verdict not checkable</p>"
        "<td>1 − F1_<wbr>S</td><td>rougeL_<wbr>precision</td><td>gpt-4o</td><td>-ls</td>"
    )
    # per piece of text, in the order of the patterns: the prose, the alt text, the last code element
    assert [name for name, _ in retired_names(page)] == [
        *("zeroshot-gpt4o", "LLM annotators", "stage 1 A", "hard F1", "F1_H"),
        *("gpt-4o-ls", "F1 (hard"),
        *("zeroshot-gpt4o", "not checkable"),
        *("F1_S", "rougeL_precision"),  # read whole across <wbr>; two cells never join
    ]


def explorer_names() -> dict[str, list[str]]:
    """What the explorer writes for readers: each corpus' names of its human sets and judges (its
    index files), and the text its script puts on the page (the script's string literals)."""
    out = {}
    for index in sorted((SITE / "_static" / "explorer").glob("*/index.json")):
        who = json.loads(index.read_text(encoding="utf-8"))["who"]
        out[f"_static/explorer/{index.parent.name}"] = [w["name"] for w in who]
    script = (SITE / "_static" / "explorer.js").read_text(encoding="utf-8")
    out["_static/explorer.js"] = re.findall(r'"((?:[^"\\\n]|\\.)*)"', script)
    return out


def test_no_page_uses_a_name_the_glossary_retired():
    """Issue 45: one name for each thing. No page of the built site (its text, title, alt texts,
    column labels and tooltips) and no name in the explorer uses a retired name, but for the
    narrow places listed above (a path, a machine id or command line in code, a notebook cell's
    source, the glossary's record of a retired writing). Fails listing page and name."""
    if not (SITE / "index.html").exists():
        pytest.skip(NO_SITE)
    found: dict[str, dict[str, int]] = {}
    for rel in PAGES:
        for name, instead in retired_names((SITE / rel).read_text(encoding="utf-8")):
            key = f"{name!r} (say: {instead})"
            found.setdefault(rel, {}).setdefault(key, 0)
            found[rel][key] += 1
    for where, names in explorer_names().items():
        for name in names:
            for pattern, instead in RETIRED.items():
                if re.search(pattern, name):
                    found.setdefault(where, {}).setdefault(f"{name!r} (say: {instead})", 0)
                    found[where][f"{name!r} (say: {instead})"] += 1
    assert not found, "retired names on the site:\n" + "\n".join(
        f"{rel}: " + "; ".join(f"{k} x{n}" for k, n in names.items()) for rel, names in found.items()
    )


def test_a_long_table_shows_its_first_rows_and_a_button_for_the_rest(server, browser):
    """Issue 45: a table of more than twelve rows shows its first eight and, under it, a button
    that names how many rows it holds; the button shows every row and folds them again."""
    reader = Reader(browser, server, PHONE)
    try:
        page = reader.open("book/paper_checked.html")
        shown = """t => [...t.tBodies].flatMap(b => [...b.rows])
            .filter(r => getComputedStyle(r).display !== 'none').length"""
        tables = [
            t
            for t in page.query_selector_all("main table.hcs-table")
            if not t.evaluate("t => !!t.closest('details:not([open])')")
        ]
        long = [t for t in tables if t.evaluate("t => [...t.tBodies].flatMap(b => [...b.rows]).length") > 12]
        assert long, "no table of more than twelve rows on the page"
        table = long[0]
        n = table.evaluate("t => [...t.tBodies].flatMap(b => [...b.rows]).length")
        button = table.evaluate_handle(
            """t => { let e = (t.closest('.hcs-scroll') || t).nextElementSibling;  // under the download links
                      return e && e.matches('p.hcs-downloads') ? e.nextElementSibling : e; }"""
        ).as_element()
        assert table.evaluate(shown) == 8
        assert button.get_attribute("aria-expanded") == "false" and button.inner_text().strip() == f"Show all {n} rows"
        button.click()
        assert table.evaluate(shown) == n and button.get_attribute("aria-expanded") == "true"
        button.click()
        assert table.evaluate(shown) == 8
        short = [t for t in tables if t.evaluate("t => [...t.tBodies].flatMap(b => [...b.rows]).length") <= 12]
        assert all(
            t.evaluate(shown) == t.evaluate("t => [...t.tBodies].flatMap(b => [...b.rows]).length") for t in short
        )
        assert not reader.problems("book/paper_checked.html")
    finally:
        reader.close()
