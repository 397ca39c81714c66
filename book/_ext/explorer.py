"""The example explorer page (``book/explorer.md``): its data, written when the site is built,
and its script and stylesheet, loaded on that page only.

When an HTML build finishes, :func:`hotelcheckspan.book.explorer.publish` puts the explorer's
JSON (the loaded corpus and the bundled real corpora) into ``_static/explorer/`` of the site.
It is built once per corpus state: the build is cached under the package's cache folder, keyed
on every corpus file's path, size and modification time and on the builder's code, so an
unchanged rebuild only copies it (or does nothing when the site already holds that state).
A corpus that cannot be loaded is a build warning (an error under ``-W``) naming its problems.

``explorer.js`` and ``explorer.css`` (in ``book/_static``, an ``html_static_path``) are added to
the explorer page alone, not to every page of the book.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)
PAGE = "book/explorer"  # the docname of the page hosting the explorer
SITE_FOLDER = "_static/explorer"  # where its data goes in the built site


def publish_data(app, exception):
    """Write (or copy from the cache) the explorer's data once the HTML build succeeded."""
    if exception is not None or app.builder.format != "html":
        return
    page = app.config.hotelcheckspan_explorer_page
    if page not in app.env.found_docs:
        return
    from hotelcheckspan.book import explorer
    from hotelcheckspan.corpora import CorpusError

    try:
        folder, built = explorer.publish(Path(app.outdir) / SITE_FOLDER)
    except CorpusError as err:
        logger.warning(f"example explorer: a corpus could not be loaded: {err}", location=page)
        return
    logger.info(f"example explorer: data {'built' if built else 'up to date (cached)'} in {folder}")


def add_assets(app, pagename, templatename, context, doctree):
    """Load the explorer's script and stylesheet on its page (Sphinx drops them after the page)."""
    if pagename != app.config.hotelcheckspan_explorer_page:
        return
    app.builder.add_css_file("explorer.css")
    app.builder.add_js_file("explorer.js", defer="defer")


def setup(app):
    app.add_config_value("hotelcheckspan_explorer_page", PAGE, "html")
    app.connect("html-page-context", add_assets)
    app.connect("build-finished", publish_data)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
