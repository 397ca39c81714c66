"""AnnotatorSet: one parser, one filter and the paper's names for every annotator set."""

import pandas as pd
import pytest

from hotelcheckspan.annotator_sets import HUMAN_SETS, AnnotatorSet, group_letter, groups_of, parse_group


@pytest.mark.parametrize("text, group", [("A", 0), ("b", 1), ("0", 0), ("12", 12), ("Z", 25)])
def test_groups_are_letters_or_numbers(text, group):
    assert parse_group(text) == group


@pytest.mark.parametrize("text", ["?", "AB", "", "-1", "1.5"])
def test_anything_else_is_refused(text):
    with pytest.raises(ValueError, match="neither a number nor a letter"):
        parse_group(text)


def test_spec_name_and_paper_name():
    s = AnnotatorSet.parse("stage1/B")
    assert (s.campaign, s.group, s.spec, s.name, s.paper_name) == ("stage1", 1, "stage1/B", "St. 1B", "St. 1B")
    assert AnnotatorSet.parse("stage2/0") == AnnotatorSet("stage2", 0)
    pooled = AnnotatorSet.parse("gpt-4o-ls")
    assert (pooled.group, pooled.spec, pooled.name, pooled.paper_name) == (
        None,
        "gpt-4o-ls",
        "gpt-4o-ls",
        "gpt-4o (LS)",
    )
    assert AnnotatorSet("iaa", 30).spec == "iaa/30" and group_letter(2) == "C"
    assert [s.name for s in HUMAN_SETS] == ["St. 1A", "St. 1B", "St. 2A", "St. 2B"]
    with pytest.raises(ValueError, match="names no campaign"):
        AnnotatorSet.parse("/A")


class _Toy:
    records = pd.DataFrame(
        {"campaign": ["s", "s", "s", "m"], "annotator_group": [0, 1, 1, 0], "record_id": [0, 1, 2, 3]}
    )
    spans = pd.DataFrame({"campaign": ["s", "s", "m"], "annotator_group": [1, 1, 0], "record_id": [1, 2, 3]})


def test_select_filters_by_campaign_and_group():
    rec, sp = AnnotatorSet("s", 1).select(_Toy)
    assert rec["record_id"].tolist() == [1, 2] and sp["record_id"].tolist() == [1, 2]
    rec, sp = AnnotatorSet("s").select(_Toy)  # all groups pooled
    assert rec["record_id"].tolist() == [0, 1, 2] and sp["record_id"].tolist() == [1, 2]
    assert [g.spec for g in groups_of(_Toy, "s")] == ["s/A", "s/B"]
    with pytest.raises(ValueError, match="no records"):
        AnnotatorSet("s", 5).require(_Toy)


def test_every_name_of_a_campaign_reads_as_its_one_display_name():
    from hotelcheckspan.annotator_sets import DISPLAY_NAMES, PAPER_NAMES, display_name

    for folder, name in PAPER_NAMES.items():
        assert display_name(folder) == name
    assert display_name("Human - LLM (O3-Mini) against gpt-4o-ls") == "Human - LLM (o3-mini) against gpt-4o (LS)"
    # a name inside a longer word is someone else's campaign and stays
    assert display_name("my-gpt-4o-ls gpt-4o-lsx") == "my-gpt-4o-ls gpt-4o-lsx"
    assert display_name(3) == 3
    assert set(DISPLAY_NAMES.values()) <= set(PAPER_NAMES.values())


def test_campaigns_are_ordered_as_the_paper_lists_them():
    from hotelcheckspan.annotator_sets import PAPER_NAMES, paper_order

    table4 = ["St. 1A", "St. 1B", "St. 2A", "St. 2B", "gemma-3", "gpt-4o", "gpt-4o (LS)", "o3-mini (LS)", "o3-mini"]
    assert paper_order(table4)[-2:] == ["o3-mini", "o3-mini (LS)"]
    assert paper_order(reversed(table4))[:4] == ["St. 1A", "St. 1B", "St. 2A", "St. 2B"]
    assert paper_order(["zeta", *reversed(PAPER_NAMES), "alpha"]) == [*PAPER_NAMES, "zeta", "alpha"]


def test_glued_prose_names_campaigns_by_display_name_but_keeps_what_a_reader_types():
    from hotelcheckspan.book.readings import _named

    text = "gpt-4o-ls leads; run `hotelcheckspan judge CORPUS gpt-4o-ls`, then\n```\ngpt-4o-ls\n```\no3-mini-ls"
    assert _named(text) == (
        "gpt-4o (LS) leads; run `hotelcheckspan judge CORPUS gpt-4o-ls`, then\n```\ngpt-4o-ls\n```\no3-mini (LS)"
    )
