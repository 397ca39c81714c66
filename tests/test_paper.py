"""The paper's figures and the "paper vs. this corpus" tables built from them."""

import pandas as pd

from hotelcheckspan import paths
from hotelcheckspan.book import paper


def test_versus_differences_only_where_both_are_numbers():
    t = paper.versus(
        [("spans", 10, 12), ("F1 range", "0.65-0.67", 0.66), ("ratio", 1.5, 1.25), ("kappa", 0.4, None)], label="toy"
    )
    assert t.columns.tolist() == ["measure", "paper", "toy", "difference"]
    assert t["measure"].tolist() == ["spans", "F1 range", "ratio", "kappa"]
    assert t.loc[0, "difference"] == 2 and t.loc[2, "difference"] == -0.25
    assert pd.isna(t.loc[1, "difference"]) and pd.isna(t.loc[3, "difference"])
    assert t["paper"].dtype == object and t.loc[1, "paper"] == "0.65-0.67" and t.loc[0, "paper"] == 10
    assert paper.versus([("x", 1, 1)]).columns.tolist() == ["measure", "paper", "this corpus", "difference"]


def test_frame_turns_a_paper_table_into_rows():
    t = paper.frame({"gpt-4o": {"total": 272, "avg_len": 3.8}, "gemma-3": {"total": 100, "avg_len": 2.0}}, "campaign")
    assert t.columns.tolist() == ["campaign", "total", "avg_len"]
    assert t.values.tolist() == [["gpt-4o", 272, 3.8], ["gemma-3", 100, 2.0]]


def test_llm_campaign_names_cover_the_papers_rows_and_the_bundled_folders(corpus):
    figures = paper.figures()
    assert set(paper.LLM_CAMPAIGNS) == set(figures["table3_llm_campaigns"])
    assert set(paper.LLM_CAMPAIGNS) <= set(figures["table4_dataset_level_stage2_subset"])
    assert sorted(paper.LLM_CAMPAIGNS.values()) == sorted(corpus.campaigns("model"))


def test_inconsistencies_are_listed_per_chapter_with_their_arithmetic():
    every = paper.inconsistencies()
    assert list(every.columns) == ["figure", "issue", "arithmetic", "chapter"]
    assert every[["figure", "issue", "arithmetic", "chapter"]].notna().all().all()
    ch02 = paper.inconsistencies("02_dataset_level_agreement")
    assert set(ch02["chapter"]) == {"02_dataset_level_agreement"} and len(ch02) >= 2
    assert any("-8.5" in a or "8.5" in i for a, i in zip(ch02["arithmetic"], ch02["issue"]))
    assert paper.inconsistencies("no chapter").empty
    chapters = {p.stem for p in (paths.REPO_ROOT / "notebooks").glob("*.py")}
    assert set(every["chapter"]) <= chapters  # every note is shown by a chapter that exists
