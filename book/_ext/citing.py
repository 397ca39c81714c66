"""Author-year references and BibTeX shown from its one source.

- A pybtex style ``authoryear`` for sphinxcontrib-bibtex (``bibtex_default_style``): the list on
  the references page is sorted by author and year and labelled "Kasner et al., 2024", as the
  text cites (``bibtex_reference_style = author_year``), instead of "[KPSBD24]".
- ``{bibtex} key [key ...]``: the BibTeX of entries of ``bibtex_bibfiles``, as a code block, so
  the citing page shows exactly what the references page formats.
- ``{bibtex-compendium}``: the compendium's own BibTeX, written from ``CITATION.cff`` (title,
  authors, version, release date, the code's licence, with :data:`OTHER_LICENCES`) and the
  repository URL of ``_config.yml``.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from docutils import nodes
from pybtex.database import parse_string
from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from sphinx.util.docutils import SphinxDirective


def _surname(person) -> str:
    """A surname as printed: LaTeX accents and braces resolved ({\\v{s}} -> š)."""
    return " ".join(part.render_as("text") for part in [*person.rich_prelast_names, *person.rich_last_names])


class AuthorYearLabels(BaseLabelStyle):
    """Labels "Plank, 2022", "Kasner and Zouhar, 2025", "Kasner et al., 2024" (a/b on clashes)."""

    def format_labels(self, sorted_entries):
        labels = [self.label(e) for e in sorted_entries]
        seen: dict[str, int] = {}
        for label in labels:
            if labels.count(label) > 1:
                seen[label] = seen.get(label, 0) + 1
                yield f"{label}{chr(ord('a') + seen[label] - 1)}"
            else:
                yield label

    @staticmethod
    def label(entry) -> str:
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        names = [_surname(p) for p in people]
        if not names:
            who = entry.fields.get("title", entry.key)
        elif len(names) == 1:
            who = names[0]
        elif len(names) == 2:
            who = f"{names[0]} and {names[1]}"
        else:
            who = f"{names[0]} et al."
        return f"{who}, {entry.fields.get('year', 'n.d.')}"


class AuthorYearStyle(UnsrtStyle):
    default_label_style = "authoryear"
    default_sorting_style = "author_year_title"


# --- BibTeX as a code block -------------------------------------------------------------------


def _bibfiles(env) -> list[Path]:
    return [Path(env.srcdir) / f for f in env.config.bibtex_bibfiles]


def _code(text: str) -> nodes.literal_block:
    block = nodes.literal_block(text, text)
    block["language"] = "bibtex"
    return block


def raw_entry(text: str, key: str) -> str | None:
    """An entry exactly as written in a .bib file (pybtex keeps no source text): from its
    ``@type{key,`` to the brace that closes it."""
    match = re.search(r"@\w+\s*\{\s*" + re.escape(key) + r"\s*,", text)
    if not match:
        return None
    depth = 0
    for i in range(match.start(), len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0 and text[i] == "}":
            return text[match.start() : i + 1]
    return None


class BibtexEntries(SphinxDirective):
    """The entries as written in the book's .bib files, for readers to copy."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self):
        found = {}
        for path in _bibfiles(self.env):
            self.env.note_dependency(str(path))
            text = path.read_text(encoding="utf-8")
            parse_string(text, "bibtex")  # a malformed file fails the build here, not in a reader's paper
            for key in self.arguments[0].split():
                found.setdefault(key, raw_entry(text, key))
        missing = [k for k, v in found.items() if v is None]
        if missing:
            raise self.error(f"no BibTeX entry for {', '.join(missing)} in {self.env.config.bibtex_bibfiles}")
        return [_code("\n\n".join(found.values()) + "\n")]


def _bibtex_name(person: dict) -> str:
    if "family-names" in person:
        return f"{person['family-names']}, {person.get('given-names', '')}".strip(", ")
    return "{" + person["name"] + "}"


# What the compendium holds besides its code, under another licence than CITATION.cff's (the
# code's): (licence, what, the files that state it). A test reads those files.
OTHER_LICENCES = (
    ("CC BY-NC 4.0", "the stand-in corpus and the other data, figures and text", ("LICENSE-data",)),
    (
        "MIT",
        "the bundled public d2t corpora",
        ("data/span-annotation-d2t-iaa/LICENSE", "data/span-annotation-d2t-test/LICENSE"),
    ),
    ("Apache-2.0", "the bundled WMT MQM annotations", ("data/wmt-mqm-ted-ende/LICENSE",)),
)


def licences(cff: dict) -> str:
    """Every licence of the compendium in one line: the code's (CITATION.cff) and the exceptions."""
    return "; ".join([f"{cff['license']} (code)", *(f"{lic} ({what})" for lic, what, _ in OTHER_LICENCES)])


def compendium_bibtex(root: Path, plain: bool = False) -> str:
    """The compendium's BibTeX entry, from CITATION.cff and the repository URL in _config.yml:
    ``@software`` (biblatex), or with ``plain`` a ``@misc`` entry that plain BibTeX styles accept
    (version and URL in ``howpublished``/``note``)."""
    cff = yaml.safe_load((root / "CITATION.cff").read_text(encoding="utf-8"))
    url = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]
    fields = [
        ("title", "{" + cff["title"] + "}"),
        ("author", " and ".join(_bibtex_name(a) for a in cff["authors"])),
        ("year", str(cff["date-released"])[:4]),
        ("version", str(cff["version"])),
        ("url", url),
        ("license", licences(cff)),
    ]
    if cff.get("doi"):
        fields.append(("doi", cff["doi"]))
    if plain:
        keep = {"title", "author", "year", "doi"}
        fields = [(k, v) for k, v in fields if k in keep] + [
            ("howpublished", "\\url{" + url + "}"),
            ("note", f"Version {cff['version']}; licences: {licences(cff)}"),
        ]
    width = max(len(k) for k, _ in fields)
    body = ",\n".join(f"  {k.ljust(width)} = {{{v}}}" for k, v in fields)
    kind, key = ("misc", "hotelcheckspan_compendium_misc") if plain else ("software", "hotelcheckspan_compendium")
    return f"@{kind}{{{key},\n{body}\n}}\n"


class BibtexCompendium(SphinxDirective):
    def run(self):
        root = Path(self.env.srcdir)
        self.env.note_dependency(str(root / "CITATION.cff"))
        note = nodes.paragraph(
            text="For biblatex (@software); for plain BibTeX styles, which lack @software, the @misc entry below."
        )
        return [_code(compendium_bibtex(root)), note, _code(compendium_bibtex(root, plain=True))]


def setup(app):
    register_plugin("pybtex.style.labels", "authoryear", AuthorYearLabels)
    register_plugin("pybtex.style.formatting", "authoryear", AuthorYearStyle)
    app.add_directive("bibtex", BibtexEntries)
    app.add_directive("bibtex-compendium", BibtexCompendium)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
