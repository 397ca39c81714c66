"""The chapters' figures as a reader meets them: the alt text computed with the figure, and the
drawing made for a phone shown below 500 px (issues 45 and 46).

``hotelcheckspan.book.plots`` draws every figure twice, for the book's 672-px column and for a
phone (one panel per row, 360 px), and computes an alt text from the data it draws; the notebook
stores the column's PNG with the rest inside it, as JSON in a text chunk (``hotelcheckspan``:
``alt``, ``text_px``, ``phone``, ``phone_text_px``; :func:`hotelcheckspan.book.plots.mimebundle`),
which travels with the image through the execution cache and myst-nb (the notebook myst-nb writes
out kept none of an output's other metadata but an image's size). Once a chapter is read, this
gives each such image its alt text, serves it without the chunk (a copy named by its own SHA-256,
as myst-nb names images), and writes the page's image as

    <picture data-phone-text-px="..."><source media="(max-width: 500px)" srcset="PHONE.png">
    <img src="COLUMN.png" alt="..." data-text-px="..."></picture>

so a phone downloads and shows its own drawing and nothing else. ``data-text-px`` is the smallest
text in the image's own pixels, which the browser checks turn into CSS pixels as shown.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import posixpath
import shutil
from pathlib import Path

from docutils import nodes

PHONE_MEDIA = "(max-width: 500px)"
META = "hotelcheckspan"  # the PNG text chunk (hotelcheckspan.book.plots.META)


def _written(folder: Path, data: bytes) -> Path:
    """``data`` as a PNG in ``folder``, named by its SHA-256 (written once)."""
    path = folder / f"{hashlib.sha256(data).hexdigest()}.png"
    if not path.exists():
        path.write_bytes(data)
    return path


def read_figures(app, doctree):
    """Alt text and phone drawing for every image that carries them; the image served without them."""
    from PIL import Image

    for image in doctree.findall(nodes.image):
        uri = Path(app.srcdir) / image["uri"].lstrip("/")  # myst-nb's are relative to the source folder
        if uri.suffix != ".png" or not uri.exists():
            continue
        with Image.open(uri) as im:
            chunk = getattr(im, "text", {}).get(META)
            if chunk is None:
                continue
            plain = io.BytesIO()
            im.save(plain, "PNG")  # the pixels without the text chunks
        extra = json.loads(chunk)
        served = _written(uri.parent, plain.getvalue())
        image["uri"] = posixpath.join(posixpath.dirname(image["uri"]), served.name)
        if extra.get("alt"):
            image["alt"] = extra["alt"]
        image["hcs_text_px"] = extra.get("text_px")
        if extra.get("phone"):
            image["hcs_phone"] = str(_written(uri.parent, base64.b64decode(extra["phone"])))
            image["hcs_phone_text_px"] = extra.get("phone_text_px")


def visit_image(self, node):
    if node.get("hcs_phone"):
        phone = Path(node["hcs_phone"])
        target = Path(self.builder.outdir) / self.builder.imagedir / phone.name
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            shutil.copyfile(phone, target)
        srcset = posixpath.join(self.builder.imgpath, phone.name)
        px = node.get("hcs_phone_text_px")
        self.body.append(f'<picture data-phone-text-px="{px}"><source media="{PHONE_MEDIA}" srcset="{srcset}">')
    type(self).visit_image(self, node)
    if node.get("hcs_text_px") is not None:
        for i in range(len(self.body) - 1, -1, -1):  # the <img> the translator just wrote
            if self.body[i].startswith("<img "):
                self.body[i] = self.body[i].replace("<img ", f'<img data-text-px="{node["hcs_text_px"]}" ', 1)
                break


def depart_image(self, node):
    type(self).depart_image(self, node)
    if node.get("hcs_phone"):
        self.body.append("</picture>")


def setup(app):
    app.connect("doctree-read", read_figures, priority=400)  # before Sphinx collects the images
    app.add_node(nodes.image, override=True, html=(visit_image, depart_image))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
