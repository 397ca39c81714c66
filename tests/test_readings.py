"""The chapters' readings (``hotelcheckspan.book.readings.<chapter>``): every value is text formatted
once for readers, the readings say what the tables show, and simulation notes show only on the
stand-in. Also the rule that makes "rounded once" checkable: a chapter glues text already
formatted and never re-formats it in its markdown (``{glue:text}`x:.2f``` on a value rounded in
code rounds twice: 0.485 glued as ``round(x, 3)`` shows 0.48 or 0.49 depending on the float)."""

from __future__ import annotations

import re

import pytest

from hotelcheckspan import paths
from hotelcheckspan.analyses import dataset_level
from hotelcheckspan.book import labels, tables
from hotelcheckspan.book.readings import Passage


def _text(values: dict) -> dict[str, str]:
    for name, value in values.items():
        assert isinstance(value, (str, Passage)), f"{name} is {type(value).__name__}: format it once, as text"
    return {k: v.text if isinstance(v, Passage) else v for k, v in values.items()}


@pytest.fixture
def not_simulated(corpus, monkeypatch):
    monkeypatch.setattr(type(corpus), "simulated", property(lambda self: False), raising=False)
    return corpus


def _ch01_rows(corpus):
    ov = dataset_level.overview(corpus, "human")
    ex = corpus.examples
    shape = [
        ("examples", "dataset/examples", len(ex)),
        ("short split", "dataset/splits/short", int((ex["split"] == "short").sum())),
        ("long split", "dataset/splits/long", int((ex["split"] == "long").sum())),
        ("stage-2 examples", "campaigns/stage2/examples", len(dataset_level.stage2_examples(corpus))),
        ("LLM records", "dataset/llm_records", int((corpus.records["kind"] == "model").sum())),
    ]
    lengths = [("description words, min", "dataset/description_words/min", int(ex["description_words"].min()))]
    spans = [
        ("human spans", "dataset/human_spans", ov["spans"]),
        ("span words, mean", "dataset/span_words/mean", ov["span_words_mean"], 1),
        ("Incorrect (%)", "table2_human_span_types/Incorrect/pct", 10.3, 1),
    ]
    return dict(shape=shape, lengths=lengths, spans=spans, dedup=dataset_level.dedup_summary(corpus))


def test_data_composition_readings(corpus):
    from hotelcheckspan.book.readings import data_composition

    r = _text(data_composition.readings(corpus, **_ch01_rows(corpus)))
    assert r["n_examples"] == "496" and r["n_stage2"] == "245"
    assert r["shape_reading"] == "match the paper's in four of five rows"  # the README's LLM records differ
    assert (r["readme_llm_records"], r["readme_campaigns"]) == ("1,984", "four")
    assert (r["table3_campaigns"], r["table3_records"], r["table3_spans"]) == ("five", "2,480", "750")
    assert r["n_llm_records"] == "2480" and r["n_llm_campaigns"] == "five"
    spans = int(r["n_human_spans"])
    assert r["spans_label"] == f" (on the stand-in the count is set, missed by {794 - spans})"
    # the passage groups the figures as their table labels them
    note = r["simulation_note"]
    assert "*set* but missed beyond the tolerance: description words, min (missed by 27:" in note
    assert "*calibrated* (terms of the calibration loss, with the distance reached): span words, mean (off by" in note
    assert "*tuned*" in note and "Table 2" in note and "LLM records" in note.split("*emergent*")[1]
    assert r["differ_block"].startswith("- ")


def test_data_composition_says_nothing_of_the_simulation_on_a_real_corpus(not_simulated):
    from hotelcheckspan.book.readings import data_composition

    r = _text(data_composition.readings(not_simulated, **_ch01_rows(not_simulated)))
    assert r["simulation_note"] == "" and r["spans_label"] == ""


def test_label_passage_agrees_with_the_table(corpus):
    rows = _ch01_rows(corpus)["spans"]
    shown = tables.versus(rows, corpus).frame.set_index("Measure")["Figure is"].to_dict()
    assert labels.kinds(rows) == shown
    text = labels.passage(rows, corpus)
    for measure, label in shown.items():
        assert measure in text
        if "," in label:
            assert label.split(", ", 1)[1] in text


# --- rounded once -----------------------------------------------------------------------------------

FORMAT_SPEC = re.compile(r"\{glue(?::text)?\}`[\w-]+:[^`]+`")
PENDING = {"04_span_level_agreement", "06_error_clusters", "08_real_corpus"}  # other engineers' passes
CHAPTERS = [
    pytest.param(p, marks=pytest.mark.xfail(reason="prose pass pending on another branch", strict=False))
    if p.stem in PENDING
    else p
    for p in sorted((paths.REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
]


def test_the_format_rule_catches_a_second_rounding():
    assert FORMAT_SPEC.search("kappa {glue:text}`top_kappa:.2f` here")
    assert not FORMAT_SPEC.search("kappa {glue:text}`top_kappa` here")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_glued_values_are_rounded_once(chapter):
    """Markdown glues text formatted in code; a format spec in the role would round it again."""
    source = chapter.read_text(encoding="utf-8")
    assert not FORMAT_SPEC.findall(source), FORMAT_SPEC.findall(source)
