"""The rendered site, opened page by page in headless Chromium, as a reader meets it, offline.

Every request that leaves the local server is blocked and is a failure: the site must work on a
train (MathJax, fonts and icons are served from the site). On every page of ``_toc.yml``, at
1280 px: no console error, no uncaught exception, no failed request or HTTP error, every image
loaded, every internal link and anchor resolving, one search box, the provenance footer, the
mathematics typeset; chapters carry the simulated-data notice and a figure or table. At 390 px
(a phone) the primary and secondary sidebar toggles open and close the navigation; at 1280 px
the toggle collapses the sidebar and brings it back. Launch (Binder, Colab), source and
repository links are well formed for the repository of ``_config.yml`` (they need the network,
so they are not followed); the downloads (CITATION.cff, licences, data sheet) are the real files.
Screenshots go to _build/screenshots/.

`make test` builds the site first (`make book`); Chromium comes from Debian (`.ci/run` installs it).
"""

from __future__ import annotations

import csv
import functools
import http.server
import re
import shutil
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest
import yaml

from hotelcheckspan import paths

ROOT = paths.REPO_ROOT
SITE = ROOT / "_build" / "html"
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

pytestmark = [
    pytest.mark.skipif(not (SITE / "index.html").exists(), reason="no built site: run `make book` first"),
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (apt-get install chromium)"),
]


def toc_pages() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(toc.get("parts", toc.get("chapters", [])))
    return [str(Path(f).with_suffix(".html")) for f in files]


PAGES = toc_pages()
CHAPTERS = [p for p in PAGES if p.startswith("notebooks/")]


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
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


class Reader:
    """A browser tab that blocks and records every request leaving the site, and records every
    console error, uncaught exception, failed request and HTTP error."""

    def __init__(self, browser, server: str, viewport: dict, **options):
        self.server = server
        self.context = browser.new_context(viewport=viewport, **options)
        self.page = self.context.new_page()
        self.events: list[str] = []
        self.page.route("**/*", self._route)
        self.page.on("console", lambda m: self.events.append(f"console error: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.events.append(f"uncaught: {e}"))
        self.page.on("requestfailed", lambda r: self.events.append(f"request failed: {r.url} ({r.failure})"))
        self.page.on("response", lambda r: self.events.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

    def _route(self, route):
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            self.events.append(f"request leaving the site: {route.request.url}")
            route.abort()

    def open(self, rel: str):
        self.events.clear()
        response = self.page.goto(self.server + rel, wait_until="load")
        self.page.wait_for_load_state("networkidle")
        if response is None or response.status != 200:
            self.events.append(f"HTTP {response.status if response else 'no response'}")
        return self.page

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


def in_view(page, selector: str) -> bool:
    """Whether the element is shown and inside the viewport (a hidden sidebar slides off-screen)."""
    return page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);"
        " return r.width > 0 && s.visibility !== 'hidden' && r.right > 1 && r.left < innerWidth - 1; }",
    )


def test_every_page_renders_cleanly_offline(server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    reader = Reader(browser, server, DESKTOP)
    problems: list[str] = []

    # the landing page (index.html redirects to it) lists every page of the toc in its navigation
    page = reader.open("index.html")
    page.wait_for_url(server + PAGES[0])
    nav = {
        urlparse(urljoin(page.url, h)).path.lstrip("/")
        for h in page.eval_on_selector_all("nav.bd-docs-nav a", "els => els.map(e => e.getAttribute('href'))")
        if h
    }
    problems += [f"{rel}: missing from the navigation" for rel in PAGES[1:] if rel not in nav]
    problems += reader.problems("index.html")

    for rel in PAGES:
        page = reader.open(rel)
        math = page.locator("main .math").count()
        if math:  # MathJax (served from the site) typesets every formula; none is left as raw TeX
            page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.evaluate("() => MathJax.startup.promise")
            typeset = page.locator("main .math mjx-container").count()
            if typeset < math:
                problems.append(f"{rel}: {math - typeset} of {math} formulas not typeset")
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
        if rel in CHAPTERS and "08_real_corpus" in rel:  # real public corpus: a corpus note, never the warning
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

        page.screenshot(path=str(SHOTS / (rel.replace("/", "__").replace(".html", ".png"))), full_page=True)
        problems += reader.problems(rel)

    reader.close()
    assert not problems, "\n".join(problems)
    assert len(list(SHOTS.glob("*.png"))) >= len(PAGES)


@pytest.mark.parametrize("rel", PAGES)
def test_phone_navigation_opens_and_closes(server, browser, rel):
    reader = Reader(browser, server, PHONE)
    page = reader.open(rel)
    name = rel.replace("/", "__").replace(".html", "")
    try:
        sidebars = [("primary", ".primary-toggle", ".bd-sidebar-primary")]
        if page.locator(".secondary-toggle").count():
            sidebars.append(("secondary", ".secondary-toggle", ".bd-sidebar-secondary"))
        for which, toggle, sidebar in sidebars:
            assert not in_view(page, sidebar), f"{which} sidebar shown before it was opened"
            page.click(toggle)
            page.wait_for_function(
                f"() => {{ const r = document.querySelector('{sidebar}').getBoundingClientRect();"
                " return r.left >= 0 && r.right <= innerWidth; }"
            )
            assert in_view(page, sidebar), f"the {which} toggle does not open the {which} sidebar"
            links = page.locator(f"{sidebar} a[href]")
            assert links.count() and links.first.is_visible(), f"the {which} sidebar opened without links"
            page.screenshot(path=str(SHOTS / f"phone-{which}-open__{name}.png"))
            # a reader closes it by tapping beside it, on the page it covers
            box = page.locator(sidebar).bounding_box()
            x = box["x"] + box["width"] + 20 if which == "primary" else max(box["x"] - 20, 5)
            page.mouse.click(x, PHONE["height"] / 2)
            page.wait_for_timeout(400)
            assert not in_view(page, sidebar), f"the {which} sidebar does not close"
        assert not reader.problems(rel), reader.problems(rel)
    finally:
        reader.close()


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


def test_links_to_the_repository_source_and_launch_services(server, browser):
    repo = repository()
    url, branch = repo["url"].rstrip("/"), repo.get("branch", "main")
    owner_repo = urlparse(url).path.strip("/")
    reader = Reader(browser, server, DESKTOP)
    try:
        for rel in [PAGES[0], *CHAPTERS]:
            page = reader.open(rel)
            hrefs = page.eval_on_selector_all(
                ".article-header-buttons a[href], .header-article-items a[href]", "els => els.map(e => e.href)"
            )
            assert url in hrefs, f"{rel}: no repository button"
            source = Path(rel).with_suffix(".ipynb" if rel in CHAPTERS else ".md").as_posix()
            assert any(h.startswith(f"{url}/blob/{branch}/{source}") for h in hrefs), f"{rel}: no source link"
            if rel in CHAPTERS:
                binder = f"https://mybinder.org/v2/gh/{owner_repo}/{branch}?urlpath=lab/tree/{source}"
                colab = f"https://colab.research.google.com/github/{owner_repo}/blob/{branch}/{source}"
                assert binder in hrefs, f"{rel}: no Binder launch link ({binder})"
                assert colab in hrefs, f"{rel}: no Colab launch link ({colab})"
            assert not reader.problems(rel)
    finally:
        reader.close()


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


def test_pages_read_well_at_both_widths(server, browser):
    """Issue 20: every table has one style (padded or ruled cells), no page is wider than a phone,
    no bookkeeping cell stands open over thirty lines, the footer names the corpus the page loads,
    every cited key resolves, Colab is offered only on notebooks, no table shows a memory address."""
    problems: list[str] = []
    desktop, phone = Reader(browser, server, DESKTOP), Reader(browser, server, PHONE)
    try:
        for rel in PAGES:
            page = desktop.open(rel)
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
            if page.locator(".corpus-notice").count():
                name = re.search(r"corpus at (\S+)", page.locator(".corpus-notice").first.inner_text())
                if not name or f"real corpus {name.group(1).rstrip('.')}" not in footer:
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
            problems += desktop.problems(rel)

            page = phone.open(rel)
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > PHONE["width"] + 1:
                problems.append(f"{rel}: {width} px wide at {PHONE['width']} px")
            problems += phone.problems(rel)
    finally:
        desktop.close()
        phone.close()
    assert not problems, "\n".join(problems)


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
        page.wait_for_timeout(500)
        assert not in_view(page, ".bd-sidebar-secondary"), "the contents drawer stays open after a tap"
        page.click(".primary-toggle")
        page.wait_for_timeout(300)
        assert visible(page, ".tooltip.show") == 0, "a tooltip stays on screen after a tap"
        assert not reader.problems(CHAPTERS[0])
    finally:
        reader.close()


def test_words_in_tables_are_not_split_on_a_phone(server, browser):
    """Issue 20 at 390 px: inside a table a link, inline code or short hyphenated name breaks only
    between words, never inside one ("P / DF", "false_alar / m", "gemma- / 3"): a table that does
    not fit scrolls inside its own box instead (book/_static/tables.css, tables._cell_html)."""
    reader = Reader(browser, server, PHONE)
    problems: list[str] = []
    try:
        for rel in PAGES:
            page = reader.open(rel)
            split = page.evaluate(
                """() => [...document.querySelectorAll('main table a, main table code, main table .hcs-word')]
                  .filter(e => e.getBoundingClientRect().width > 0 && !e.closest('details:not([open])'))
                  .filter(e => {
                    const words = e.innerText.trim().split(/[\\s\\/-]+/).filter(Boolean);
                    if (words.some(w => w.length > 30)) return false;  // a checksum may break anywhere
                    const lines = new Set([...e.getClientRects()].filter(r => r.width > 0)
                      .map(r => Math.round(r.top))).size;
                    return lines > Math.max(words.length, 1); })
                  .map(e => e.innerText.trim())"""
            )
            problems += [f"{rel}: {t!r} is split inside a word at {PHONE['width']} px" for t in split]
            problems += reader.problems(rel)
    finally:
        reader.close()
    assert not problems, "\n".join(problems)


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


@pytest.mark.parametrize("rel", CHAPTERS)
def test_tables_on_a_phone_scroll_with_their_first_column_in_view_or_become_cards(server, browser, rel):
    """At 390 px no table widens the page; a table wider than the screen scrolls inside its own
    box, its first column (the row's label) stays in view when scrolled to the end, and a
    paper-vs-corpus table is a column of cards whose every cell is inside the screen."""
    reader = Reader(browser, server, PHONE)
    page = reader.open(rel)
    problems = page.evaluate(
        """() => {
          const out = [];
          for (const box of document.querySelectorAll('main .hcs-scroll')) {
            if (box.closest('details:not([open])')) continue;
            const table = box.querySelector('table');
            if (table.classList.contains('hcs-cards')) {
              for (const cell of table.querySelectorAll('td')) {
                const r = cell.getBoundingClientRect();
                if (r.width > 0 && (r.right > innerWidth + 1 || r.left < -1))
                  out.push('card cell outside the screen: ' + cell.innerText.slice(0, 40));
                // a card line takes the card's width (a squeezed cell prints a letter per line)
                if (r.width > 0 && (getComputedStyle(cell).position === 'sticky' || r.width < 0.8 * box.clientWidth))
                  out.push('card cell squeezed to ' + Math.round(r.width) + ' px: ' + cell.innerText.slice(0, 40));
              }
              continue;
            }
            if (box.getBoundingClientRect().right > innerWidth + 1) out.push('a scroll box wider than the screen');
            if (box.scrollWidth > box.clientWidth + 1) {
              box.scrollLeft = box.scrollWidth;
              const first = table.querySelector('tbody td');
              const r = first.getBoundingClientRect(), b = box.getBoundingClientRect();
              if (r.left < b.left - 1 || r.right > b.right + 1)
                out.push('first column scrolled away: ' + first.innerText.slice(0, 40));
              box.scrollLeft = 0;
            }
          }
          if (document.documentElement.scrollWidth > innerWidth + 1) out.push('the page is wider than the screen');
          return out; }"""
    )
    problems = [f"{rel}: {p}" for p in problems] + reader.problems(rel)
    reader.close()
    assert not problems, "\n".join(problems)


def test_chapter_mentions_are_links_to_their_chapter(server, browser):
    """{chapter}`NN` renders "chapter NN" linked to that chapter's page, titled by it."""
    reader = Reader(browser, server, DESKTOP)
    page = reader.open("book/methods.html")
    links = page.eval_on_selector_all(
        "main a.hcs-chapter", "els => els.map(e => [e.innerText, e.getAttribute('href'), e.getAttribute('title')])"
    )
    reader.close()
    assert links, "the methods page mentions chapters: they must be links"
    for text, href, title in links:
        number = re.fullmatch(r"chapter (\d\d)", text).group(1)
        assert re.search(rf"notebooks/{number}_\w+\.html", href), (text, href)
        assert title, text
