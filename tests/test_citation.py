"""Citable as released: CITATION.cff valid, the metadata files agree, the BibTeX complete, and the
references page listing exactly what the text cites, with author-year labels."""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib

import jsonschema
import pytest
import yaml
from pybtex.database import parse_file, parse_string

from hotelcheckspan import paths

ROOT = paths.REPO_ROOT
SCHEMA = ROOT / "tests" / "schemas" / "citation-file-format-1.2.0.json"
BIB = ROOT / "book" / "references.bib"
CITE = re.compile(r"\{cite(?::[a-z]+)?\}`([^`]+)`")


def cff() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def config() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def package_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def cited_keys() -> set[str]:
    """Every key cited by a chapter source or a page of the book."""
    keys = set()
    for path in [*(ROOT / "notebooks").glob("*.py"), *(ROOT / "book").glob("*.md")]:
        for group in CITE.findall(path.read_text(encoding="utf-8")):
            keys |= {k.strip() for k in group.split(",") if k.strip()}
    return keys


def citing_extension():
    spec = importlib.util.spec_from_file_location("citing", ROOT / "book" / "_ext" / "citing.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_citation_cff_is_valid_cff_1_2_0():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = [f"{'/'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(cff())]
    assert not errors, "\n".join(errors)


def test_the_schema_check_catches_a_broken_file():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    broken = cff() | {"authors": [{"nme": "typo"}], "date-released": "21 November 2026"}
    assert (
        len(list(jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).iter_errors(broken)))
        >= 2
    )


def test_metadata_files_agree_with_the_package_and_the_book():
    meta, zenodo = cff(), json.loads((ROOT / ".zenodo.json").read_text(encoding="utf-8"))
    assert meta["version"] == zenodo["version"] == package_version()
    assert meta["title"] == zenodo["title"] == config()["title"]
    # the repository URL is written once, in _config.yml; CITATION.cff must follow it
    assert meta["repository-code"] == config()["repository"]["url"]
    assert re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", config()["repository"]["url"])


def test_zenodo_metadata_is_complete():
    zenodo = json.loads((ROOT / ".zenodo.json").read_text(encoding="utf-8"))
    assert zenodo["upload_type"] == "software"
    assert zenodo["license"] == cff()["license"]
    assert zenodo["creators"] and all(c.get("name") for c in zenodo["creators"])
    assert zenodo["description"].strip() and zenodo["keywords"]
    for rel in zenodo["related_identifiers"]:
        assert {"identifier", "relation"} <= rel.keys()


def test_the_paper_is_an_lrec_2026_proceedings_paper():
    entry = parse_file(str(BIB)).entries["schmidtova2026hotelcheckspan"]
    assert entry.type == "inproceedings"
    assert "LREC 2026" in entry.fields["booktitle"]
    assert "ELRA" in entry.fields["publisher"]
    assert entry.fields["year"] == "2026"
    assert [p.last_names[0] for p in entry.persons["author"]] == ["Schmidtov{\\'a}", "Du{\\v{s}}ek", "Mahamood"]
    preferred = cff()["preferred-citation"]
    assert preferred["year"] == 2026 and "LREC 2026" in preferred["collection-title"]
    assert "ELRA" in preferred["publisher"]["name"]


def test_the_real_corpus_paper_is_cited_completely():
    entry = parse_file(str(BIB)).entries["kasner2026spanannotators"]
    assert entry.type == "inproceedings"
    assert entry.fields["booktitle"] == "Proceedings of the First Workshop on Multilingual Multicultural Evaluation"
    assert entry.fields["pages"] == "1--22" and entry.fields["year"] == "2026"
    assert "A Comparative Study of {LLMs} and Humans" in entry.fields["title"]
    assert len(entry.persons["author"]) == 10


def test_keys_and_years_agree_and_plain_bibtex_reads_every_entry():
    """A key's year is its year field's; every entry is a type plain BibTeX styles know (a
    @software entry needs biblatex), and capitals a style would lower are protected."""
    bib = parse_file(str(BIB)).entries
    plain = {"article", "book", "inproceedings", "incollection", "misc", "techreport", "phdthesis", "mastersthesis"}
    for key, entry in bib.items():
        assert re.search(r"\d{4}", key).group() == entry.fields["year"], f"{key}: year {entry.fields['year']}"
        assert entry.type in plain, f"{key} is @{entry.type}, which plain BibTeX does not know"
        assert entry.type != "misc" or entry.fields.get("howpublished") or entry.fields.get("url"), key
    assert "{F}actgenie" in bib["kasner2024factgenie"].fields["title"]


def test_every_key_a_page_names_exists():
    """Keys named in text ("`key` in `book/references.bib`"), not only in {cite} roles."""
    named = set()
    for path in [*(ROOT / "book").glob("*.md"), *(ROOT / "notebooks").glob("*.py"), ROOT / "data" / "README.md"]:
        named |= set(re.findall(r"`([a-z]+\d{4}[a-z_]+)` in `book/references\.bib`", path.read_text(encoding="utf-8")))
    assert named, "the pattern no longer finds the keys the data sheet names"
    assert not named - set(parse_file(str(BIB)).entries), sorted(named - set(parse_file(str(BIB)).entries))


def test_the_compendium_has_a_plain_bibtex_entry_too():
    text = citing_extension().compendium_bibtex(ROOT, plain=True)
    entry = parse_string(text, "bibtex").entries["hotelcheckspan_compendium_misc"]
    assert entry.type == "misc" and config()["repository"]["url"] in entry.fields["howpublished"]
    assert package_version() in entry.fields["note"]


def test_the_compendium_entry_has_url_and_version():
    text = citing_extension().compendium_bibtex(ROOT)
    entry = parse_string(text, "bibtex").entries["hotelcheckspan_compendium"]
    assert entry.type == "software"
    assert entry.fields["url"] == config()["repository"]["url"]
    assert entry.fields["version"] == package_version()
    assert entry.fields["year"] == str(cff()["date-released"])[:4]


def test_every_citation_resolves_and_every_entry_is_cited():
    entries = set(parse_file(str(BIB)).entries)
    cited = cited_keys()
    assert cited, "no citation found: the pattern no longer matches how the text cites"
    assert not cited - entries, f"cited but not in references.bib: {sorted(cited - entries)}"
    assert not entries - cited, f"in references.bib but cited nowhere: {sorted(entries - cited)}"


def test_author_year_labels():
    labels = citing_extension().AuthorYearLabels
    bib = parse_file(str(BIB)).entries
    assert labels.label(bib["schmidtova2026hotelcheckspan"]) == "Schmidtová et al., 2026"
    one = parse_string("@article{x, author={Plank, Barbara}, title={T}, year={2022}}", "bibtex").entries["x"]
    two = parse_string("@article{y, author={Da San Martino, G. and Yu, S.}, title={T}, year={2019}}", "bibtex")
    assert labels.label(one) == "Plank, 2022"
    assert labels.label(two.entries["y"]) == "Da San Martino and Yu, 2019"


# each entry a list item of the references' list (book/_ext/access.py: ARIA 1.2 deprecates doc-biblioentry)
ENTRY = re.compile(r'id="ref-([^"]+)"[^>]*role="listitem">\s*<span class="label">(.*?)</span>\s*<p>', re.S)


def bibliography(html: str) -> dict[str, str]:
    """The entries of a sphinxcontrib-bibtex bibliography (``bibtex_cite_id = "ref-{key}"``): key -> label."""
    return {key: re.sub(r"<[^>]+>", "", label) for key, label in ENTRY.findall(html)}


def test_the_references_page_lists_exactly_what_the_text_cites():
    page = ROOT / "_build" / "html" / "book" / "references.html"
    if not page.exists():
        pytest.skip("no built site: run `make book` first")
    entries = bibliography(page.read_text(encoding="utf-8"))
    assert set(entries) == cited_keys()
    for key, label in entries.items():
        assert re.fullmatch(r"\[?[^\[\]]+ \d{4}[a-z]?\]?", label.replace(",", "")), f"{key}: label {label!r}"
        assert re.search(r"(et al\.|and [A-Z]|^\[?[A-Z][^,]*), \d{4}", label), f"{key}: not author-year: {label!r}"


def test_the_compendium_entry_names_every_licence_as_the_licence_files_state_them():
    """The BibTeX's licence is the code's (CITATION.cff) and what else is under another licence:
    each exception as the files that carry it state it (LICENSE-data's CC BY-NC 4.0, the public
    corpora's MIT)."""
    ext = citing_extension()
    entry = parse_string(ext.compendium_bibtex(ROOT), "bibtex").entries["hotelcheckspan_compendium"]
    said = entry.fields["license"]
    assert said.startswith(f"{cff()['license']} (code)")
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith(f"{cff()['license']} License")
    stated = {
        "CC BY-NC 4.0": "CC BY-NC 4.0",
        "MIT": "MIT License",
        "Apache-2.0": "Apache License",
    }  # as its file names it
    for licence, what, files in ext.OTHER_LICENCES:
        assert f"{licence} ({what})" in said
        for name in files:
            assert stated[licence] in (ROOT / name).read_text(encoding="utf-8"), name
    assert sorted(str(p.relative_to(ROOT)) for p in (ROOT / "data").glob("*/LICENSE")) == sorted(
        f for _, _, files in ext.OTHER_LICENCES for f in files if f.startswith("data/")
    )
    plain = parse_string(ext.compendium_bibtex(ROOT, plain=True), "bibtex").entries["hotelcheckspan_compendium_misc"]
    assert said in plain.fields["note"]
