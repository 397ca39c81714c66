"""Terms link to the glossary (``book/_ext/glossary_links.py``), in the built site.

Every link the extension writes must land on an entry of the glossary page, every chapter that
uses a plain technical term (BACC, AC1, γ, TVD, ...) in its text links its first mention, and no
link sits inside a code cell or a table. ``HOTELCHECKSPAN_SITE`` points at another built site
than ``_build/html``, as for ``tests/test_site.py``.
"""

from __future__ import annotations

import os
import re
import sys
from html import unescape
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = Path(os.environ.get("HOTELCHECKSPAN_SITE") or ROOT / "_build" / "html")
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import glossary_links  # noqa: E402

pytestmark = pytest.mark.skipif(not (SITE / "book" / "glossary.html").exists(), reason="no built site: make book")
LINK = re.compile(r'<a class="hcs-term[^"]*" href="([^"#]*)#([^"]+)"[^>]*>(.*?)</a>')


def pages():
    return sorted((SITE / "notebooks").glob("*.html")) + sorted(
        p for p in (SITE / "book").glob("*.html") if p.name != "glossary.html"
    )


def test_every_glossary_link_lands_on_an_entry():
    glossary = (SITE / "book" / "glossary.html").read_text(encoding="utf-8")
    anchors = {a: unescape(t).strip() for a, t in re.findall(r'<dt id="(term-[^"]+)">([^<]*)', glossary)}
    assert {"term-BACC", "term-derived", "term-tuned"} <= set(anchors)
    found = 0
    for page in pages():
        for href, anchor, text in LINK.findall(page.read_text(encoding="utf-8")):
            found += 1
            assert (page.parent / href).resolve() == (SITE / "book" / "glossary.html").resolve(), (page.name, href)
            assert anchor in anchors, (page.name, anchor)
            assert glossary_links._key(unescape(text)) == glossary_links._key(anchors[anchor]), (page.name, text)
    assert found > 0


def test_a_plain_term_in_a_chapter_links_its_first_mention():
    alternatives = "|".join(re.escape(t).replace("'", "['\u2019]") for t in glossary_links.PLAIN)
    plain = re.compile(rf"(?<![\w-])({alternatives})(?![\w-])")
    for page in sorted((SITE / "notebooks").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        main = html[html.find('<main id="main-content"') :]
        paragraphs = re.findall(r"<p>(.*?)</p>", main, re.S)
        linked = {glossary_links._key(unescape(t)) for _, _, t in LINK.findall(main)}
        for para in paragraphs:
            text = unescape(re.sub(r"<a [^>]*>.*?</a>|<code.*?</code>|<[^>]+>", " ", para, flags=re.S))
            for term in plain.findall(text):
                assert glossary_links._key(term) in linked, (
                    page.name,
                    term,
                )  # mentioned in running text, so linked once


def test_no_glossary_link_inside_code_or_a_table():
    for page in pages():
        html = page.read_text(encoding="utf-8")
        for block in re.findall(r"<pre.*?</pre>|<table.*?</table>", html, re.S):
            assert "hcs-term" not in block, page.name
