"""The provenance extension (book/_ext/provenance.py) without building the site: every bundled
corpus with the checksum of its own list, and a page's corpus read from its corpus banner."""

from __future__ import annotations

import hashlib
import importlib.util
import sys

import pytest
from docutils import nodes

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.book import report

pytest.importorskip("sphinx")


def extension():
    spec = importlib.util.spec_from_file_location("provenance", paths.REPO_ROOT / "book" / "_ext" / "provenance.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def sha256(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_bundled_corpus_is_listed_with_the_checksum_of_its_list():
    P = extension()
    found = {p.name: P.corpus_facts(p) for p in P.bundled_corpora()}
    real_ones = (paths.REAL_CORPUS, paths.REAL_TEST_CORPUS, paths.MQM_FOLDER)
    assert set(found) == {paths.BUNDLED_CORPUS.name, *(p.name for p in real_ones)}
    assert found[paths.BUNDLED_CORPUS.name].checksum == sha256(paths.DATA_ROOT / "SHA256SUMS")
    for real in real_ones:
        assert found[real.name].checksum == sha256(real / "SHA256SUMS")
        assert not found[real.name].simulated
    assert all(f.matches_manifest for f in found.values())
    assert found[paths.BUNDLED_CORPUS.name].simulated


class _Env:
    """Stands in for Sphinx's BuildEnvironment (page_corpus keeps its cache there)."""


class _App:
    def __init__(self):
        self.env = _Env()


def test_a_page_names_the_corpus_its_banner_shows():
    P = extension()
    # an MQM file is named by its file, in the bundled folder that holds it
    cases = ((paths.REAL_CORPUS, False, paths.REAL_CORPUS), (paths.BUNDLED_CORPUS, True, paths.BUNDLED_CORPUS))
    for corpus_path, simulated, folder in (*cases, (paths.MQM_TED, False, paths.MQM_FOLDER)):
        doc = nodes.document(None, None)
        doc += nodes.raw("", report.corpus_banner(hotelcheckspan.load(corpus_path)).data, format="html")
        facts = P.page_corpus(_App(), doc)
        assert facts.path.name == folder.name and facts.simulated is simulated
        assert ("simulated stand-in" in facts.label()) is simulated
    assert P.page_corpus(_App(), nodes.document(None, None)) is None
