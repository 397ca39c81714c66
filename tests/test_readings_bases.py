"""Summaries say what they rest on (issue 35): every Summary bullet of a chapter on the paper's data
that glues a reading starts with its basis, glued from ``labels.basis`` (this corpus' figures, on
the stand-in with the rule's label of each) or ``labels.paper_basis`` (the paper's own figures).

Checked by rule: the bullets are read from the notebooks' markdown, the glued names are found in
the chapter's readings module (its source, by AST), and each basis function is run on the stand-in
and on the same corpus marked real.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from hotelcheckspan import paths
from hotelcheckspan.book import chapter_data, labels
from hotelcheckspan.book.readings import Passage
from hotelcheckspan.reference import provenance

NOTEBOOKS = paths.REPO_ROOT / "notebooks"
# the chapters on the paper's data (08, 11 and 12 open on real corpora: their Summaries are about
# those), by the start page's rule
PAPER_CHAPTERS = sorted(
    p for p in NOTEBOOKS.glob("[0-9][0-9]_*.py") if chapter_data.chapter_data(p).main == chapter_data.PAPER
)
BASIS = re.compile(r"^- \{glue:md\}`(\w+_basis)`")
LABEL = re.compile(r"\*([a-z ]+)\*")


def summary_bullets(path: Path) -> list[str]:
    """The bullets of a notebook's Summary, each joined into one line (markdown cells only)."""
    bullets, in_summary, open_, cell = [], False, False, "code"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# %%"):
            cell = "markdown" if "[markdown]" in line else "code"
            in_summary = open_ = False
            continue
        if cell != "markdown":
            continue
        text = line[2:] if line.startswith("# ") else line.lstrip("#")
        if text.startswith("## "):
            in_summary, open_ = text.strip() == "## Summary", False
        elif in_summary and text.startswith("- "):
            bullets.append(text)
            open_ = True
        elif in_summary and open_ and text.startswith("  "):
            bullets[-1] += " " + text.strip()
        else:
            open_ = False
    return bullets


def readings_modules(path: Path) -> list[str]:
    """The readings modules a notebook imports (``from hotelcheckspan.book.readings import x``)."""
    found = re.findall(r"from hotelcheckspan\.book\.readings import ([\w, ]+?)(?: as \w+)?$", path.read_text(), re.M)
    return [f"hotelcheckspan.book.readings.{m.strip()}" for names in found for m in names.split(",")]


def basis_calls(module: str) -> dict[str, str]:
    """``{glued name: function called}`` for every dict entry of a module whose key ends in
    ``_basis`` (the function's name: ``basis``, ``paper_basis``, ...)."""
    tree = ast.parse(Path(importlib.import_module(module).__file__).read_text(encoding="utf-8"))
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and str(k.value).endswith("_basis"):
                    func = v.func if isinstance(v, ast.Call) else None
                    out[k.value] = getattr(func, "attr", getattr(func, "id", type(v).__name__))
    return out


def test_the_bullet_reader_on_a_toy(tmp_path):
    toy = "# %% [markdown]\n# ## Summary\n#\n# - {glue:md}`a_basis` one\n#   two\n# - three\n#\n#   not a bullet\n"
    path = tmp_path / "toy.py"
    path.write_text(toy + "# %%\nx = 1\n", encoding="utf-8")
    assert summary_bullets(path) == ["- {glue:md}`a_basis` one two", "- three"]


@pytest.mark.parametrize("path", PAPER_CHAPTERS, ids=lambda p: p.stem)
def test_each_summary_bullet_says_what_it_rests_on(path):
    bullets = summary_bullets(path)
    assert bullets, path.stem
    calls: dict[str, str] = {}
    for module in readings_modules(path):
        calls |= basis_calls(module)
    for bullet in bullets:
        if "{glue:" not in bullet:
            continue  # a bullet that reports no figure (a command, an API) rests on nothing to say
        m = BASIS.match(bullet)
        assert m, f"{path.stem}: a Summary bullet that glues a reading starts with its basis: {bullet[:90]}"
        assert calls.get(m.group(1)) in ("basis", "paper_basis"), (path.stem, m.group(1), calls.get(m.group(1)))


def _corpus_like(simulated: bool):
    return SimpleNamespace(simulated=simulated)


def test_basis_gives_the_rules_label_on_the_stand_in_and_none_on_a_real_corpus():
    sim, real = _corpus_like(True), _corpus_like(False)
    votes = "table5_example_level_votes/Any"
    lead = labels.basis(sim, ("the votes", votes), ("kappa", None)).text
    assert lead == f"On the stand-in (the votes *{provenance.kind(votes)}*; kappa *emergent*):"
    assert labels.basis(sim, ("the votes", votes), paper=True).text.startswith("From the paper's own figures, and on")
    assert labels.basis(real, ("the votes", votes)).text == "On this corpus:"
    assert labels.basis(real, name="the d2t test split").text == "On the d2t test split:"
    assert labels.paper_basis().text == labels.PAPER_BASIS
    # a constant of the generator: tuned when chosen against a paper figure, else put in by construction
    assert "*by construction*" in labels.basis(sim, ("doubt", "summaries.VAGUE")).text
    assert "*tuned*" in labels.basis(sim, ("types", "annotators.CONFUSION")).text


def _bases(module: str):
    return importlib.import_module(f"hotelcheckspan.book.readings.{module}").bases


@pytest.mark.parametrize(
    "module",
    [
        "data_composition",
        "dataset_level_agreement",
        "example_level_agreement",
        "span_level_agreement",
        "llm_annotators",
        "error_clusters",
        "impressions",
        "sample_size",
        "evaluate_your_judge",
    ],
)
def test_every_basis_reads_as_a_lead_with_labels_of_the_rule(corpus, module):
    real = dataclasses.replace(corpus, configs={k: {**v, "simulated": False} for k, v in corpus.configs.items()})
    for target, simulated in ((corpus, True), (real, False)):
        for name, lead in _bases(module)(target).items():
            assert isinstance(lead, Passage) and lead.text.endswith(":"), (module, name)
            found = LABEL.findall(lead.text)
            if simulated and lead.text.startswith(("On the stand-in", "From the paper's own figures, and on the")):
                assert found and set(found) <= set(provenance.STATUSES), (module, name, lead.text)
            else:
                assert not found, (module, name, lead.text)  # a real corpus carries no stand-in label


def test_the_bullets_issue_35_names_say_what_they_rest_on(corpus):
    """09's 'not enough for the hard order' rests on the stand-in's spread; 04's types on the
    calibrated rows and the tuned confusion; 05's recall on flag rates that were set; 06's
    Proximity share on tuned cluster sizes; 07's effect on what the generator puts in."""
    ch09 = _bases("sample_size")(corpus)
    # computed from the LLM rows' F1, by construction through the widening (issue 44)
    assert "*by construction*" in ch09["gaps_basis"].text and "emergent" not in ch09["gaps_basis"].text
    # 09's BACC rests on flagged records the generator was changed to set after looking at the agreement
    assert "balanced accuracy *tuned*" in ch09["bacc_basis"].text
    assert ch09["power_basis"].text == labels.PAPER_BASIS  # the paper's effects alone, no interval widths
    soft = _bases("span_level_agreement")(corpus)["soft_basis"].text
    assert "*calibrated*" in soft and "*tuned*" in soft
    recall = _bases("llm_annotators")(corpus)["recall_basis"].text
    # recall and precision against the humans follow from the set volume and the tuned width and
    # flagged records (chapter 05's review): no "emergent" for them
    assert (
        "span volume *set*" in recall and "span width *tuned*" in recall and "which records they flag *tuned*" in recall
    )
    assert "emergent" not in recall
    assert "*tuned*" in _bases("llm_annotators")(corpus)["whole_basis"].text  # the hand-set widening
    assert "*tuned*" in _bases("error_clusters")(corpus)["location_basis"].text
    assert "*by construction*" in _bases("impressions")(corpus)["effect_basis"].text
