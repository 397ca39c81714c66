"""The paper's figures and the "paper vs. this corpus" tables built from them."""

import pandas as pd
import pytest

from hotelcheckspan import paths
from hotelcheckspan.reference import paper


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


def test_a_subset_value_is_never_set_beside_a_full_set_figure(corpus):
    from hotelcheckspan.book import tables

    assert paper.scope("table3_llm_campaigns/gemma-3/avg_len") == "all"
    assert paper.scope("table4_dataset_level_stage2_subset/gemma-3/total") == "stage2"
    assert paper.scope("dataset_level_text/group_b_more_annotations_pct") is None  # the paper does not say
    stage2_length = ("gemma-3 span words, stage-2 examples", "table3_llm_campaigns/gemma-3/avg_len", 6.1, 1, "stage2")
    with pytest.raises(ValueError, match="'stage2' examples but the paper's table3_llm_campaigns/gemma-3/avg_len"):
        tables.versus([stage2_length], corpus)
    with pytest.raises(ValueError, match="stage2"):
        tables.versus([stage2_length[:4]], corpus, on="stage2")
    shown = tables.versus([(*stage2_length[:4], "all")], corpus).frame  # computed on all examples: allowed
    assert shown["Paper"].tolist() == ["4.7"]
    row = ("gemma-3, stage-2 examples", "table4_dataset_level_stage2_subset/gemma-3/total", 92)
    ok = tables.versus([row], corpus, on="stage2")
    assert ok.frame["Paper"].tolist() == ["92"]
    with pytest.raises(ValueError, match="not one of"):
        tables.versus([("x", "dataset/examples", 496, 0, "short")], corpus)


def test_layering_nothing_below_the_book_imports_it():
    """``simulation``, ``corpora``, ``metrics``, ``analyses`` and ``reference`` never import
    ``hotelcheckspan.book`` (the presentation layer), and ``reference`` imports none of the layers
    above it: the paper's figures and the stand-in's provenance are the foundation."""
    import ast

    root = paths.REPO_ROOT / "src" / "hotelcheckspan"
    above = {"reference": ("book", "simulation", "analyses", "corpora", "metrics")}
    # the package's vocabulary of bad input (Problem, CorpusError) is shared by every layer
    allowed = {"hotelcheckspan.corpora.problems"}
    wrong = []
    for layer in ("simulation", "corpora", "metrics", "analyses", "reference"):
        forbidden = ("book", *above.get(layer, ()))
        for path in sorted((root / layer).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    if node.level:  # relative: resolve against the module's package
                        here = path.relative_to(root).parent.parts
                        package = here[: len(here) - node.level + 1]
                        base = ".".join(("hotelcheckspan", *package, *([base] if base else [])))
                    names = [base] + [f"{base}.{a.name}" for a in node.names]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                for name in names:
                    parts = name.split(".")
                    if name.startswith(tuple(allowed)):
                        continue
                    if parts[:1] == ["hotelcheckspan"] and len(parts) > 1 and parts[1] in forbidden:
                        wrong.append(f"{path.relative_to(root)}: imports {name}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_the_inconsistencies_issue_18_lists_are_flagged_with_arithmetic_that_holds():
    reported = paper.figures()
    notes = paper.inconsistencies()
    by = {
        c: " ".join(notes.loc[notes["chapter"] == c, ["issue", "arithmetic"]].to_numpy().ravel())
        for c in notes["chapter"]
    }
    t7 = reported["clustering"]["table7_clusters"]
    total, shares = sum(r["count"] for r in t7.values()), round(sum(r["pct"] for r in t7.values()), 1)
    assert total > 425 and shares > 100
    assert f"= {total} > 425" in by["06_error_clusters"] and f"= {shares}%" in by["06_error_clusters"]
    assert "£9 + £4.60 = £13.60" in by["01_data_composition"] and "£12.60" in by["01_data_composition"]
    assert "at least three points" in by["01_data_composition"] and "more than 3 points" in by["01_data_composition"]
    t6 = reported["table6_span_level"]
    assert t6["Group A - Group B (Stage 2)"]["F1_S"] == t6["Group A - Group B (Stage 1)"]["F1_S"]  # the tie
    assert "highest" in by["04_span_level_agreement"]
    t3 = reported["table3_llm_campaigns"]
    assert t3["gpt-4o"]["avg_len"] < reported["dataset"]["span_words"]["mean"] < t3["gemma-3"]["avg_len"]
    assert "entire sentences" in by["05_llm_annotators"]
    llm_total = sum(r["total"] for r in t3.values())
    readme = reported["dataset"]["llm_records"]
    assert readme == 4 * reported["dataset"]["examples"] and len(t3) == 5
    assert (
        f"= {llm_total}" in by["01_data_composition"].replace(",", "")
        or f"{llm_total} are" in by["01_data_composition"]
    )
    assert "1,984" in by["01_data_composition"] and "2,480" in by["01_data_composition"]
    votes = reported["table5_example_level_votes"]["Any"]
    majority, none = votes[0] + votes[1] + votes[3] + votes[4], votes[0] + votes[1]
    bound = (none + reported["table4_dataset_level_stage2_subset"]["o3-mini (LS)"]["total"]) / majority
    assert round(bound, 2) == 0.68 < 0.69  # only the top of "0.68-0.69" exceeds the bound
    assert f"{bound:.3f}" in by["03_example_level_agreement"]


@pytest.mark.parametrize("chapter", sorted(set(paper.inconsistencies()["chapter"])))
def test_every_inconsistency_is_shown_by_its_chapter(chapter):
    source = (paths.REPO_ROOT / "notebooks" / f"{chapter}.py").read_text(encoding="utf-8")
    assert f'tables.inconsistencies("{chapter}"' in source  # the chapter's checks, or its own choice of them
