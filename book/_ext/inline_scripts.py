"""Each inline <script> once per page (Sphinx 7.4 lists some twice).

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


def setup(app):
    app.connect("html-page-context", unique_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
