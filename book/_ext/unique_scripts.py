"""Drop exact duplicate inline <script> lines from the <head> of every built page.

jupyter-book 1.0.4 with sphinx-thebe 0.3.1 and sphinx-togglebutton writes their inline
configuration scripts twice, and the second `const THEBE_JS_URL` throws a SyntaxError in every
reader's browser console. Only identical `<script>...</script>` lines without a `src` are removed.
"""

from pathlib import Path


def _dedupe_file(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    head, sep, body = text.partition("</head>")
    if not sep:
        return
    seen, kept = set(), []
    for line in head.split("\n"):
        key = line.strip()
        if key.startswith("<script>") and key.endswith("</script>"):
            if key in seen:
                continue
            seen.add(key)
        kept.append(line)
    new = "\n".join(kept) + sep + body
    if new != text:
        path.write_text(new, encoding="utf-8")


def _dedupe(app, exception):
    if exception is None and app.builder.format == "html":
        for path in Path(app.outdir).rglob("*.html"):
            _dedupe_file(path)


def setup(app):
    app.connect("build-finished", _dedupe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
