"""Lighter pages (issue 36): the icons a page uses, not the theme's whole icon library, and
figures stored in a palette of their own colours.

Icons. pydata-sphinx-theme 0.15.4 ships Font Awesome 6.5.2 whole: a 103 kB stylesheet naming
about 2,000 icons and three fonts (solid 156 kB, brands 118 kB, regular 25 kB), of which the book
shows some twenty (``book/_templates/layout.html`` already leaves out its 1.5 MB script). Once the
pages are written, :func:`icons` reads the icon names every page uses (``fa-bars``, ...), writes
``_static/icons/icons.css``: the library's stylesheet with only the glyph rules of those icons and
with fonts cut down to their glyphs (WOFF, fontTools' subsetter). The template links that
stylesheet. An icon name a page uses that the library does not have is a build error.

Figures. matplotlib writes a figure as 32-bit RGBA; a chart has few colours besides the
antialiasing between them, so :func:`figures` stores each opaque PNG of ``_images`` in a palette
of at most 256 of its colours (median cut, no dithering: deterministic), where that is at most
two thirds of the file. A figure with transparent pixels is left as it is. The chapters' own
notebooks and the exports (``make exports``) keep matplotlib's files.
"""

from __future__ import annotations

import re
from pathlib import Path

FA = Path("vendor") / "fontawesome" / "6.5.2"
ICON = re.compile(r"\bfa-([a-z0-9]+(?:-[a-z0-9]+)*)\b")
# classes of the library that are not icons (styles, sizes, animations)
NOT_ICONS = {"solid", "regular", "brands", "lg", "xs", "sm", "xl", "fw", "spin", "pulse", "border", "inverse"}
FONTS = {"solid": "fa-solid-900", "brands": "fa-brands-400", "regular": "fa-regular-400"}
GLYPH_RULE = re.compile(r'^((?:\.fa-[a-z0-9-]+:(?:before|after),?)+)\{content:"\\([0-9a-f]+)"\}$')


def used_icons(outdir: Path) -> set[str]:
    """The icon names (``bars`` for ``fa-bars``) in the class attributes of every written page."""
    names: set[str] = set()
    for page in outdir.rglob("*.html"):
        for classes in re.findall(r'class="([^"]*\bfa-[^"]*)"', page.read_text(encoding="utf-8")):
            names |= {m for m in ICON.findall(classes)}
    return {n for n in names if n not in NOT_ICONS and not re.fullmatch(r"\dx|rotate-\d+|flip-\w+", n)}


def _rules(css: str) -> list[str]:
    """The top-level rules of a minified stylesheet, in order (an @-rule with its block whole)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(css):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append(css[start : i + 1])
                start = i + 1
    return out


def trimmed_css(css: str, names: set[str]) -> tuple[str, dict[str, str]]:
    """The stylesheet with the glyph rules of ``names`` only (and no @font-face: the caller writes
    its own), and each kept name's code point."""
    kept, points = [], {}
    for rule in _rules(css):
        if rule.startswith("@font-face"):
            continue
        glyph = GLYPH_RULE.match(rule)
        if glyph is None:
            kept.append(rule)
            continue
        selectors = [s.split(":")[0][len(".fa-") :] for s in glyph.group(1).split(",")]
        wanted = [s for s in selectors if s in names]
        if wanted:
            kept.append(",".join(f".fa-{s}:before" for s in wanted) + '{content:"\\' + glyph.group(2) + '"}')
            points.update({s: glyph.group(2) for s in wanted})
    return "".join(kept), points


def _subset(ttf: Path, codepoints: set[int], out: Path) -> None:
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff"  # zlib: no brotli needed, unlike woff2
    options.layout_features = []
    options.name_IDs = ["*"]  # the licence and the family name stay in the font
    font = subset.load_font(str(ttf), options)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=sorted(codepoints))
    sub.subset(font)
    subset.save_font(font, str(out), options)


def icons(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    library = outdir / "_static" / FA
    css = (library / "css" / "all.min.css").read_text(encoding="utf-8")
    names = used_icons(outdir)
    body, points = trimmed_css(css, names)
    missing = sorted(names - set(points))
    if missing:
        raise RuntimeError(f"icons the pages use that Font Awesome 6.5.2 does not have: {missing}")
    target = outdir / "_static" / "icons"
    target.mkdir(parents=True, exist_ok=True)
    codepoints = {int(p, 16) for p in points.values()}
    faces = []
    for style, stem in FONTS.items():
        _subset(library / "webfonts" / f"{stem}.ttf", codepoints, target / f"{stem}.woff")
        family = "Font Awesome 6 Brands" if style == "brands" else "Font Awesome 6 Free"
        weight = 900 if style == "solid" else 400
        faces.append(
            f'@font-face{{font-display:block;font-family:"{family}";font-style:normal;font-weight:{weight};'
            f'src:url({stem}.woff) format("woff")}}'
        )
    header = "/* Font Awesome Free 6.5.2 (icons CC BY 4.0, fonts SIL OFL 1.1, code MIT), cut to this site's icons */\n"
    (target / "icons.css").write_text(header + "".join(faces) + body, encoding="utf-8")


def figures(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from PIL import Image

    for png in sorted((Path(app.outdir) / "_images").glob("*.png")):
        with Image.open(png) as im:
            if im.mode == "P":
                continue
            rgba = im.convert("RGBA")
        if rgba.getextrema()[3][0] < 255:  # transparent somewhere: a palette would lose it
            continue
        palette = rgba.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        smaller = png.with_suffix(".tmp")
        palette.save(smaller, "PNG", optimize=True)
        if smaller.stat().st_size <= png.stat().st_size * 2 / 3:
            smaller.replace(png)
        else:
            smaller.unlink()


def setup(app):
    app.connect("build-finished", icons)
    app.connect("build-finished", figures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
