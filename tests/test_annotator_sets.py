"""AnnotatorSet: one parser, one filter, and one display name for every judge and human set."""

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
    assert display_name("O3-Mini against gpt-4o-ls") == "o3-mini against gpt-4o (LS)"
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


def test_a_judge_is_named_by_one_rule_the_prompt_variant_kept_only_where_two_share_a_model():
    from hotelcheckspan.annotator_sets import judge_names, model_of

    # the public corpus' iaa split: every judge zero-shot, no model twice -> the variant goes
    iaa = ["zeroshot-claude-3-7-sonnet", "zeroshot-gpt4o", "zeroshot-o3-mini"]
    assert judge_names(iaa) == {j: j.removeprefix("zeroshot-") for j in iaa}
    # its test split names the same judges without the prefix: one name for each judge
    assert judge_names(["claude-3-7-sonnet", "gpt4o"]) == {"claude-3-7-sonnet": "claude-3-7-sonnet", "gpt4o": "gpt4o"}
    # two judges of one model (prompt variants as folders, the campaign-name rule's "cot-llama3-3"): kept
    mt = judge_names(["cot-llama3-3", "zeroshot-llama3-3", "zeroshot-gpt4o"])
    assert mt == {"cot-llama3-3": "cot-llama3-3", "zeroshot-llama3-3": "zeroshot-llama3-3", "zeroshot-gpt4o": "gpt4o"}
    # a model beside its zero-shot run: both keep their names, never one name for two judges
    assert judge_names(["gpt4o", "zeroshot-gpt4o"]) == {"gpt4o": "gpt4o", "zeroshot-gpt4o": "zeroshot-gpt4o"}
    # the paper's five as Table 3 writes them; a user's judge that would take one of their names keeps its own
    paper = judge_names(["gpt-4o", "gpt-4o-ls", "zeroshot-gpt-4o", "o3-mini-ls"])
    assert paper == {
        "gpt-4o": "gpt-4o",
        "gpt-4o-ls": "gpt-4o (LS)",
        "zeroshot-gpt-4o": "zeroshot-gpt-4o",
        "o3-mini-ls": "o3-mini (LS)",
    }
    assert model_of("zeroshot-gpt4o") == ("zeroshot", "gpt4o") and model_of("llama3-3") == ("", "llama3-3")
    assert model_of("cotton-judge") == ("", "cotton-judge")  # a variant is a whole word before "-"


def test_a_human_set_is_written_one_way():
    from hotelcheckspan.annotator_sets import human_set_name

    assert human_set_name("stage1", 0, ["stage1", "stage2"]) == "St. 1A"
    assert human_set_name("stage2", None, ["stage1", "stage2"]) == "St. 2"
    assert human_set_name("iaa", 3, ["iaa"], {3: "3"}) == "group 3"
    assert human_set_name("iaa", None, ["iaa"]) == "humans"
    assert human_set_name("iaa", 3, ["iaa", "test"], {3: "3"}) == "iaa group 3"
    assert human_set_name("test", None, ["iaa", "test"]) == "test"


def test_a_corpus_names_its_judges_and_human_sets_in_any_text():
    from hotelcheckspan import load, paths
    from hotelcheckspan.annotator_sets import names

    iaa = names(load(paths.REAL_CORPUS))
    assert iaa.of("zeroshot-gpt4o") == "gpt4o" and iaa.of("iaa/0") == "group 0" and iaa.of("iaa") == "humans"
    assert iaa("humans vs zeroshot-gpt4o") == "humans vs gpt4o"
    assert iaa("iaa/12 and zeroshot-o3-mini") == "group 12 and o3-mini"
    assert iaa("iaa") == "humans" and iaa("d2t iaa") == "d2t iaa"  # the split's name is not the people's
    # a path names its folders as they are
    path = "annotations/model/d2t-eval/iaa/zeroshot-gpt4o/annotations.jsonl"
    assert iaa(path) == path
    standin = names(load())
    assert standin.of("gpt-4o-ls") == "gpt-4o (LS)" and standin.of("stage1/A") == "St. 1A"
    assert standin("Group A - Group B (Stage 1)") == "St. 1A vs St. 1B"


def test_table6_rows_read_as_comparisons_of_human_sets_and_judges():
    from hotelcheckspan.annotator_sets import display_name

    assert display_name("Group A - Group B (Stage 2)") == "St. 2A vs St. 2B"
    assert display_name("Stage 1 - Stage 2") == "St. 1 vs St. 2"
    assert display_name("Human - LLM (GPT-4o)") == "humans vs gpt-4o, both prompts"  # it pools gpt-4o (LS)
    assert display_name("Human - LLM (Gemma3)") == "humans vs gemma-3"
    assert display_name("Human - LLM (my-judge)") == "humans vs my-judge"
