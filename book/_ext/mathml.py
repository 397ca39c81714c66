"""The book's mathematics as MathML, written at build time (issue 45: light pages).

MathJax typeset the formulas in the reader's browser: 1.16 MB of script and fonts for a few
formulas took chapter 03, 04, 08, the methods page and "The paper, checked" to 2.0-2.4 MB. This
math renderer (``html_math_renderer: mathml``) converts each page's TeX once, when the page is
written, with MathJax's own TeX input run by node (``mathml.js``; the npm package is fetched by
``make mathjax`` into ``.cache/mathjax``) and writes the MathML into the page: browsers draw
MathML themselves, screen readers read it, and no script or font is downloaded for it. A formula
MathJax cannot read is a build error, never a red box on the page.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx.util.math import get_node_equation_number

HERE = Path(__file__).parent


def _mathjax(app) -> Path:
    return Path(app.srcdir) / app.config.hotelcheckspan_mathjax


def convert(app, items: list[tuple[str, bool]]) -> list[str]:
    """The MathML of each (TeX, display) pair, in one node process."""
    node, main = shutil.which("node"), _mathjax(app)
    if node is None or not main.exists():
        raise ExtensionError(f"TeX to MathML needs node and MathJax's npm package at {main} (make mathjax)")
    done = subprocess.run(
        [node, str(HERE / "mathml.js"), str(main.resolve())],
        input=json.dumps(items),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        raise ExtensionError(f"MathJax could not convert the page's TeX: {done.stderr.strip()}")
    out = json.loads(done.stdout)
    for (tex, _), mml in zip(items, out):
        if "<merror" in mml:
            raise ExtensionError(f"MathJax cannot read the TeX {tex!r}: {mml}")
    # one line: the indentation MathJax adds would be text between the elements of a paragraph
    return [re.sub(r">\s+<", "><", m).strip() for m in out]


def _key(node) -> tuple[str, bool]:
    return node.astext(), isinstance(node, nodes.math_block)


def collect(app, doctree, docname):
    """Convert every formula of the page being written, in one call."""
    if app.builder.format != "html":
        return
    wanted = {_key(n) for n in doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block)))}
    cache = app.builder.__dict__.setdefault("hcs_mathml", {})
    missing = sorted(wanted - set(cache))
    if missing:
        cache.update(zip(missing, convert(app, missing)))


def visit_math(self, node):
    self.body.append(f'<span class="math">{self.builder.hcs_mathml[_key(node)]}</span>')
    raise nodes.SkipNode


def visit_math_block(self, node):
    self.body.append(self.starttag(node, "div", CLASS="math"))
    if node["number"]:
        self.body.append(f'<span class="eqno">({get_node_equation_number(self, node)})')
        self.add_permalink_ref(node, "Link to this equation")
        self.body.append("</span>")
    self.body.append(self.builder.hcs_mathml[_key(node)] + "</div>\n")
    raise nodes.SkipNode


def setup(app):
    app.add_config_value("hotelcheckspan_mathjax", ".cache/mathjax/es5/node-main.js", "env")
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_math_block, None))
    app.connect("doctree-resolved", collect)
    return {"parallel_read_safe": True, "parallel_write_safe": False}
