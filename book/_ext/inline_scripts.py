"""Page chrome: each inline <script> once per page, launch buttons only on notebooks, and two phone
fixes (issue 20).

Launch buttons: sphinx-book-theme offers Binder/Colab on MyST Markdown pages too, pointing at a
``.md`` file Colab cannot open; :func:`launch_only_on_notebooks` keeps them on chapters whose
source is an ``.ipynb``. Phones: ``book/_static/phone.js`` closes the on-page contents drawer
after a tap on one of its entries and hides a button's tooltip once it was tapped.

Inline scripts once per page (Sphinx 7.4 lists some twice):

Sphinx 7.4's HTML builder re-adds, when it starts writing, every asset registered after
``Builder.init()``, turning an inline script's filename ``None`` into ``""``; the copy already
added with ``None`` then no longer compares equal, so the script is written twice. jupyter-book 1.x
is tied to Sphinx 7, and two of its extensions register inline scripts that late:
sphinx-thebe's configuration (``const THEBE_JS_URL = ...``, whose second copy throws a
SyntaxError in every reader's console) and sphinx-togglebutton's selector. This drops the second
copy from the page's script list before the template renders it (no HTML is rewritten).
"""

from __future__ import annotations


def _key(script) -> tuple:
    return (script.filename or "", script.priority, tuple(sorted(script.attributes.items())))


def unique_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        if _key(script) not in seen:
            seen.add(_key(script))
            unique.append(script)
    scripts[:] = unique


def launch_only_on_notebooks(app, pagename, templatename, context, doctree):
    """Drop the theme's launch buttons (Binder, Colab) from pages that are not notebooks."""
    buttons = context.get("header_buttons")
    if not buttons or pagename not in app.env.found_docs:
        return
    if str(app.env.doc2path(pagename)).endswith(".ipynb"):
        return
    buttons[:] = [b for b in buttons if b.get("label") != "launch-buttons"]


def setup(app):
    app.connect("html-page-context", unique_scripts, priority=900)
    app.connect("html-page-context", launch_only_on_notebooks, priority=900)
    app.add_js_file("phone.js", loading_method="defer")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
