"""Chapters 04 and 05 read against the paper: the type confusion of overlapping human spans
(Section 4.1's Misleading / Not Checkable boundary), what ignoring labels gains (Section 6.3),
each prompt alone beside the pooled Table 6 row, and the readings built on them. Expected values
are worked out by hand on the toy corpus of ``tests/toy.py`` or taken from scikit-learn."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score

from hotelcheckspan.analyses import span_level
from hotelcheckspan.annotator_sets import judges
from hotelcheckspan.book import labels
from hotelcheckspan.book.readings import llm_annotators as r05
from hotelcheckspan.book.readings import span_level_agreement as r04
from hotelcheckspan.reference import paper
from hotelcheckspan.simulation import annotators as sim

NC, MIS, INC = "Not Checkable", "Misleading", "Incorrect"


@pytest.fixture(scope="module")
def toy_overlaps(toy):
    return span_level.overlapping_types(toy)


def test_overlapping_types_on_the_toy_corpus(toy_overlaps):
    # by hand (tests/toy.py): St.1A-St.1B overlap on ex0 (Incorrect [0,5) / Incorrect [0,2)) and ex3
    # (Misleading [9,14) / Not Checkable [12,14)); St.1A-St.2A on ex0; St.1B-St.2A on ex0; St.1B-St.2B on
    # ex1 (Not Checkable [3,5) / Incorrect [3,8)); St.1A-St.2B and St.2A-St.2B share no marked example
    got = sorted(map(tuple, toy_overlaps[["first", "second", "example_idx", "first_type", "second_type"]].values))
    assert got == sorted(
        [
            ("stage1/A", "stage1/B", 0, INC, INC),
            ("stage1/A", "stage1/B", 3, MIS, NC),
            ("stage1/A", "stage2/A", 0, INC, INC),
            ("stage1/B", "stage2/A", 0, INC, INC),
            ("stage1/B", "stage2/B", 1, NC, INC),
        ]
    )


def test_overlapping_types_restricted_to_examples(toy):
    ex = toy.examples[toy.examples["example_idx"].isin([0, 1])]
    out = span_level.overlapping_types(toy, examples=ex)
    assert sorted(out["example_idx"]) == [0, 0, 0, 1]
    # a touching, not overlapping, span is no pair: St.1B's [0,2) and [6,11) never meet St.1A's [0,5) twice
    assert len(span_level.overlapping_types(toy, ["stage1/A", "stage1/B"])) == 2


def test_type_confusion_matrix_by_hand(toy, toy_overlaps):
    m = span_level.type_confusion(toy_overlaps, toy.categories).set_index("type")
    assert list(m.index) == list(toy.categories) and list(m.columns) == list(toy.categories)
    expected = pd.DataFrame(0, index=list(toy.categories), columns=list(toy.categories))
    expected.loc[INC, INC], expected.loc[MIS, NC], expected.loc[NC, INC] = 3, 1, 1
    assert (m.values == expected.values).all()


def test_type_pairs_by_hand(toy, toy_overlaps):
    t = span_level.type_pairs(toy_overlaps, toy.categories).set_index("types")
    assert t["count"].sum() == 5 and len(t) == 6
    assert t.loc[INC, "count"] == 3 and t.loc[f"{NC} / {MIS}", "count"] == 1 and t.loc[f"{NC} / {INC}", "count"] == 1
    assert t.loc[f"{NC} / {MIS}", "share of disagreements"] == pytest.approx(0.5)
    # pooled types of both sides: Incorrect 7, Not Checkable 2, Misleading 1 of 10
    assert t.loc[f"{NC} / {MIS}", "expected share"] == pytest.approx(2 * 0.2 * 0.1)
    assert t.loc[INC, "expected share"] == pytest.approx(0.49)
    assert t["expected share"].sum() == pytest.approx(1.0)
    assert t.loc[f"{NC} / {MIS}", "expected share of disagreements"] == pytest.approx(0.02 / 0.23)
    assert np.isnan(t.loc[INC, "share of disagreements"])


def test_type_kappa_by_hand(toy_overlaps):
    # observed agreement 3/5; first side 3 INC, 1 MIS, 1 NC, second 4 INC, 1 NC: chance 0.6*0.8 + 0.2*0.2
    assert span_level.type_kappa(toy_overlaps) == pytest.approx((0.6 - 0.52) / (1 - 0.52))
    assert span_level.type_kappa(toy_overlaps) == pytest.approx(
        cohen_kappa_score(toy_overlaps["first_type"], toy_overlaps["second_type"])
    )


def test_label_gain_and_prompts_on_the_toy_corpus(toy):
    comps = [{"name": "h-m", "ref": ["stage1/A", "stage1/B"], "hyp": ["m1", "m2"]}]
    pairs, _ = span_level.pairwise(toy, comps)
    gain = span_level.label_gain(pairs).set_index("comparison").loc["h-m"]
    wide = pairs.pivot_table(index=["ref", "hyp"], columns="match", values="f1")
    assert gain["pairs"] == 4
    assert gain["gain"] == pytest.approx((wide["soft"] - wide["hard"]).mean())
    assert gain["placement loss"] == pytest.approx(1 - wide["soft"].mean())
    # St.1A against m2: ex0 m2 marks "ab" Not Checkable inside St.1A's Incorrect "ab cd": hard 0, soft
    # P = 2/2 (m2 marks 2 characters on the examples St.1A annotated), R = 2/(5 + 2 + 5) -> F1 = 2/7
    one = pairs[(pairs["ref"] == "stage1/A") & (pairs["hyp"] == "m2")].set_index("match")["f1"]
    assert one["hard"] == 0 and one["soft"] == pytest.approx(2 * 1 * (2 / 12) / (1 + 2 / 12))
    prompts = span_level.by_prompt(pairs).set_index("hypothesis")
    assert list(prompts.index) == [span_level.POOLED, "m1", "m2"]
    assert prompts.loc[span_level.POOLED, "soft"] == pytest.approx(prompts.loc[["m1", "m2"], "soft"].mean())
    assert prompts.loc["m2", "pairs"] == 2 and prompts.loc[span_level.POOLED, "pairs"] == 4


def test_confusion_readings_follow_the_table():
    overlaps = pd.DataFrame(
        {"first_type": [NC, NC, MIS, INC, MIS], "second_type": [MIS, MIS, NC, INC, MIS]}, dtype=object
    )
    cats = [NC, MIS, INC]
    out = r04.confusion_readings(overlaps, cats)
    assert out["conf_n"] == "5"
    assert out["conf_same"] == "40%"  # 2 of 5 pairs give one type
    assert out["conf_nc_mis"] == "100%"  # all three disagreements are Misleading / Not Checkable
    assert out["conf_top_disagreement"] == f"{NC} / {MIS}"


def test_confusion_share_is_read_against_chance_with_an_interval():
    # 80 of 125 disagreements against an expected 0.569: the 95% Wilson interval (by hand,
    # (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)) covers the expected share, so the reading
    # is "not distinguishable from chance"; with 110 of 125 it is not covered
    z, n = 1.959963984540054, 125
    for k, covered in ((80, True), (110, False)):
        p = k / n
        centre, half = p + z * z / (2 * n), z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        lo, hi = (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)
        assert bool(lo <= 0.569 <= hi) == covered
    first = [NC] * 40 + [MIS] * 40 + [NC] * 20 + [INC] * 25 + [NC] * 50
    second = [MIS] * 40 + [NC] * 40 + [INC] * 20 + [MIS] * 25 + [NC] * 50
    overlaps = pd.DataFrame({"first_type": first, "second_type": second}, dtype=object)
    out = r04.confusion_readings(overlaps, [NC, MIS, INC])
    assert out["conf_nc_mis_count"] == "80 of 125"
    assert out["conf_nc_mis_interval"] == "95% Wilson interval 55% to 72%"


def test_confusion_note_names_the_calibrated_type_process(corpus):
    # the stand-in's types are not just the hand-chosen rows: a calibrated shared-type draw and leans
    overlaps = span_level.overlapping_types(corpus)
    note = r04.confusion_readings(overlaps, corpus.categories, corpus)["conf_sim_note"].text
    assert "type_agreement" in note and "type_lean" in note and "CONFUSION" in note
    assert f"{sim.HUMAN.type_lean:.1f}" in note


def test_prompt_and_label_readings_on_the_stand_in(corpus):
    pairs, _ = span_level.pairwise(corpus)
    out = r04.label_readings(pairs, paper.figures())
    t6 = paper.figures()["table6_span_level"]
    implied = np.mean([t6[r]["F1_S"] - t6[r]["F1_H"] for r in r04.HUMAN_ROWS])
    assert out["paper_label_gain"] == f"{implied:.2f}"
    gain = span_level.label_gain(pairs).set_index("comparison").loc[r04.HUMAN_ROWS]
    assert out["label_gain"] == f"{gain['gain'].mean():.2f}"
    n_placement = int((gain["placement loss"] > gain["gain"]).sum())
    assert out["label_placement_rows"] == str(n_placement)
    prompts = r04.prompt_readings(pairs, paper.figures(), judges(corpus))
    # the model rows that pool two prompts: gpt-4o and o3-mini (the stage 1 - stage 2 row pools humans)
    assert prompts["prompt_rows"] == "2" and prompts["prompt_models"] == "gpt-4o and o3-mini"
    alone = span_level.by_prompt(pairs, judges(corpus)).set_index(["comparison", "hypothesis"])
    for row, (a, b) in {r04.GPT_ROW: ("gpt-4o", "gpt-4o-ls"), r04.O3_ROW: ("o3-mini", "o3-mini-ls")}.items():
        mine = pairs[(pairs["comparison"] == row) & (pairs["hyp"] == a) & (pairs["match"] == "soft")]["f1"]
        assert alone.loc[(row, a), "soft"] == pytest.approx(mine.mean())
        assert alone.loc[(row, span_level.POOLED), "soft"] == pytest.approx(
            (alone.loc[(row, a), "soft"] + alone.loc[(row, b), "soft"]) / 2
        )


def test_llm_recall_above_precision_is_built_in_on_the_stand_in(corpus):
    # under the book's definition a pair's R / P is L_hyp / L_ref: the note says the direction is put in by
    # set counts and tuned lengths, and the provenance file labels the LLM rows' P and R so
    pairs, counts = span_level.pairwise(corpus)
    t6 = span_level.table6(pairs, counts, n_boot=20)
    out = r04.recall_precision_readings(paper.figures(), t6, corpus)
    assert "built in" in out["ours_recall_note"].text and "LLM_WIDENING" in out["ours_recall_note"].text
    for row in ("Human - LLM (Gemma3)", "Human - LLM (GPT-4o)"):
        for col in ("P_H", "R_H", "P_S", "R_S"):
            assert labels.kind(f"table6_span_level/{row}/{col}") == "by construction"


def test_label_claim_depends_on_the_reading():
    # Table 6's human rows: ΔF1 / F1_S = 0.18/0.28, 0.13/0.28, 0.12/0.24 -> mean 0.536 (labels cost most of
    # the soft agreement) while 1 - F1_S (0.72 to 0.76) exceeds ΔF1 (at most 0.18) in every row
    t6 = paper.figures()["table6_span_level"]
    share = np.mean([(t6[r]["F1_S"] - t6[r]["F1_H"]) / t6[r]["F1_S"] for r in r04.HUMAN_ROWS])
    assert share == pytest.approx((0.18 / 0.28 + 0.13 / 0.28 + 0.12 / 0.24) / 3)
    pairs = pd.DataFrame(
        {
            "comparison": [r for r in r04.HUMAN_ROWS for _ in (0, 1)],
            "ref": "a",
            "hyp": "b",
            "match": ["hard", "soft"] * 3,
            "f1": [0.1, 0.3] * 3,
            "examples": 5,
        }
    )
    out = r04.label_readings(pairs, paper.figures())
    # a ratio of rounded figures, shown with its range over their rounding (each F1 within 0.005)
    low = np.mean([1 - (t6[r]["F1_H"] + 0.005) / (t6[r]["F1_S"] - 0.005) for r in r04.HUMAN_ROWS])
    high = np.mean([1 - (t6[r]["F1_H"] - 0.005) / (t6[r]["F1_S"] + 0.005) for r in r04.HUMAN_ROWS])
    assert out["paper_label_share"] == f"54% ({100 * low:.0f}% to {100 * high:.0f}% over its rounding)"
    assert low > 0.5 and out["label_share"] == "67%"
    assert out["label_claim"].startswith("depends on the reading")


def test_llm_recall_above_precision_reading():
    out = r04.recall_precision_readings(paper.figures())
    # Table 6: only gpt-4o has R above P in both modes (gemma-3 soft P 0.24 > R 0.18; o3-mini P 0.62, R 0.03)
    assert out["paper_recall_above"] == "gpt-4o"
    assert out["paper_recall_below"] == "gemma-3 and o3-mini"


def test_length_note_follows_the_label(corpus):
    out = r05.lengths(corpus, paper.figures())
    key = "table3_llm_campaigns/gpt-4o/avg_len"
    assert f"*{labels.kind(key)}*" in out["length_note"].text
    assert "finding" not in out["longer_reading"] or not corpus.simulated
    # the paper's reading counts every Table 3 campaign: o3-mini (LS)'s 5.5 is longer than the humans' 4
    assert "o3-mini (LS)" in out["paper_longer"] and "gemma-3" in out["paper_longer"]


def test_widening_order_by_hand():
    # widening (gemma-3 0.75, gpt-4o 0.45, gpt-4o (LS) 0.45, o3-mini 0.2, o3-mini (LS) 0.5) against Table 3's
    # lengths (4.7, 3.8, 3.9, 3.0, 5.5): of 10 pairs 8 concordant, 1 discordant (gemma-3 / o3-mini (LS)),
    # 1 tied in widening (the two gpt-4o prompts): tau-b = 7 / sqrt(9 x 10)
    assert r05.widening_order(paper.figures()) == pytest.approx(7 / np.sqrt(90))
    w = r05.widening_against_table3(paper.figures())
    assert w["swapped"] == [("gemma-3", "o3-mini (LS)")] and w["tied"] == [("gpt-4o", "gpt-4o (LS)")]
    note = r05._length_note(paper.figures())
    assert f"*{labels.kind('table3_llm_campaigns/gpt-4o/avg_len')}*" in note
    # the order is followed only in part, the swap and the tie named (chapter 05's review)
    assert "only in part (gemma-3 and o3-mini (LS) the other way round; gpt-4o and gpt-4o (LS) tied)" in note
    assert "neither their order nor a miss of Table 3's is a finding about the models" in note
