"""The rendered site, opened page by page in headless Chromium, as a reader meets it.

Fails on: a console error, an image that did not load, an internal link or anchor that does not
resolve, a page of the table of contents missing from the navigation, a chapter without the
simulated-data notice. Saves a screenshot of each page under _build/screenshots/.

`make test` builds the site first (`make book`); Chromium comes from Debian (`.ci/run`
installs it). The only resource allowed from outside the site is MathJax's CDN script, which a
reader online loads and this machine cannot reach.
"""

from __future__ import annotations

import functools
import http.server
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
ALLOWED_EXTERNAL = ("https://cdn.jsdelivr.net/npm/mathjax@3/",)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

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


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("id", "name") and v:
                self.ids.add(v)


@functools.lru_cache(maxsize=None)
def ids_of(path: Path) -> frozenset:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return frozenset(parser.ids)


@pytest.fixture(scope="module")
def server():
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(SITE))
    handler.log_message = lambda *a, **k: None
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


def test_every_page_renders_cleanly(server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    pages = toc_pages()
    problems: list[str] = []
    external_seen: set[str] = set()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.route("**/*", lambda route: route.continue_() if urlparse(route.request.url).hostname == "127.0.0.1"
               else (external_seen.add(route.request.url), route.abort())[1])

    # the navigation of the landing page (index.html redirects to it) must list every page of the toc
    page.goto(server + "index.html", wait_until="load")
    page.wait_for_url(server + pages[0])
    nav = {urlparse(urljoin(page.url, h)).path.lstrip("/")
           for h in page.eval_on_selector_all("nav.bd-docs-nav a, #bd-docs-nav a", "els => els.map(e => e.getAttribute('href'))")
           if h}
    for rel in pages[1:]:
        if rel not in nav:
            problems.append(f"{rel}: missing from the navigation")

    for rel in pages:
        errors: list[str] = []
        on_console = lambda msg: errors.append(msg.text) if msg.type == "error" else None  # noqa: E731
        on_error = lambda exc: errors.append(f"uncaught: {exc}")  # noqa: E731
        page.on("console", on_console)
        page.on("pageerror", on_error)
        response = page.goto(server + rel, wait_until="load")
        page.wait_for_timeout(300)
        if response is None or response.status != 200:
            problems.append(f"{rel}: HTTP {response.status if response else 'no response'}")
        for e in errors:
            if "net::ERR_FAILED" in e and any(u.startswith(ALLOWED_EXTERNAL) for u in external_seen):
                continue  # the allowed external script, unreachable from this machine
            problems.append(f"{rel}: console error: {e}")
        page.remove_listener("console", on_console)
        page.remove_listener("pageerror", on_error)

        broken = page.eval_on_selector_all(
            "img", "els => els.filter(e => !(e.complete && e.naturalWidth > 0)).map(e => e.getAttribute('src'))")
        problems += [f"{rel}: image did not load: {src}" for src in broken]
        if rel.startswith("notebooks/"):
            if page.locator(".simulated-notice").count() == 0 or "Simulated data" not in page.inner_text("main"):
                problems.append(f"{rel}: no simulated-data notice")
            if page.locator("main img").count() == 0 and page.locator("main table").count() == 0:
                problems.append(f"{rel}: neither a figure nor a table rendered")

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

    unexpected = sorted(u for u in external_seen if not u.startswith(ALLOWED_EXTERNAL))
    problems += [f"unexpected external resource: {u}" for u in unexpected]
    context.close()
    assert not problems, "\n".join(problems)
    assert len(list(SHOTS.glob("*.png"))) >= len(pages)
