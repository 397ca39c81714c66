"""LLMs as annotators (Sections 5-6) on the toy corpus: every expected value counted by hand
from the span list in ``tests/toy.py``."""

import pandas as pd
import pytest
from toy import key

from hotelcheckspan.analyses import dataset_level, example_level
from hotelcheckspan.analyses import llm_annotators as L
from hotelcheckspan.categories import CATEGORIES
from hotelcheckspan.corpora import KEY

NC, MIS, INC = CATEGORIES


def test_volume_is_relative_to_the_pooled_human_sets(toy):
    v = L.volume(toy).set_index("name")
    assert v.columns.tolist() == [
        "kind",
        "spans",
        "spans_per_record",
        "mean_words",
        "x human spans/record",
        "x human length",
    ]
    # humans: 10 spans over 12 records (5/6 per record), 15 words over 10 spans (1.5 words)
    assert v.loc["m1", "x human spans/record"] == pytest.approx(0.75 / (5 / 6))
    assert v.loc["m1", "x human length"] == pytest.approx((5 / 3) / 1.5)
    assert v.loc["m2", "x human spans/record"] == pytest.approx(0.25 / (5 / 6))
    assert v.loc["m2", "x human length"] == pytest.approx(1 / 1.5)
    assert v.loc["St. 1B", "x human spans/record"] == pytest.approx(1.2)
    assert v.loc["St. 1B", "x human length"] == pytest.approx(1.25 / 1.5)


def test_volume_on_stage2_examples(toy):
    v = L.volume(toy, dataset_level.stage2_examples(toy)).set_index("name")
    # humans on examples 0-1: 7 spans over 8 records, 11 words over 7 spans; m1: 2 spans, 2 records, 4 words
    assert v.loc["m1", "spans"] == 2
    assert v.loc["m1", "x human spans/record"] == pytest.approx(1 / (7 / 8))
    assert v.loc["m1", "x human length"] == pytest.approx(2 / (11 / 7))


def test_type_bias_is_share_minus_pooled_human_share(toy):
    b = L.type_bias(toy).set_index("campaign")
    assert b.index.tolist() == ["m1", "m2"] and b.columns.tolist() == ["spans", *CATEGORIES]
    # humans: 3 NC, 2 MIS, 5 INC of 10 spans = 30 / 20 / 50 %
    assert b.loc["m1"].tolist() == pytest.approx([3, 100 / 3 - 30, 100 / 3 - 20, 100 / 3 - 50])
    assert b.loc["m2"].tolist() == pytest.approx([1, 70, -20, -50])


def test_type_bias_on_stage2_examples(toy):
    b = L.type_bias(toy, dataset_level.stage2_examples(toy)).set_index("campaign")
    # humans on examples 0-1: 1 NC, 1 MIS, 5 INC of 7; m1 there: 1 MIS, 1 INC
    assert b.loc["m1", [NC, MIS, INC]].tolist() == pytest.approx([-100 / 7, 50 - 100 / 7, 50 - 500 / 7])


def test_agreement_by_aspect_pools_the_four_pairs_soft(toy):
    a = L.agreement_by_aspect(toy, "m1", convention="both")
    assert a.columns.tolist() == ["aspect", "examples", "precision", "recall", "f1", "ref_count", "hyp_count"]
    assert a["aspect"].tolist() == ["location", "rooms"]  # sorted by F1
    loc, rooms = a.set_index("aspect").loc["location"], a.set_index("aspect").loc["rooms"]
    # location = examples 0 and 2; overlaps 5 + 4 + 5 over m1's 8 characters in three pairs, ref 5 + 7 + 5
    assert (loc["examples"], loc["ref_count"], loc["hyp_count"]) == (2, 5, 4)
    assert (loc["precision"], loc["recall"], loc["f1"]) == pytest.approx((14 / 24, 14 / 17, 28 / 41))
    # rooms = examples 1 and 3: overlaps 2 + 2 + 2, hyp lengths 2 + 2 + 2 + 2, ref 5 + 2 + 2 + 7
    assert (rooms["examples"], rooms["ref_count"], rooms["hyp_count"]) == (2, 5, 6)
    assert (rooms["precision"], rooms["recall"], rooms["f1"]) == pytest.approx((6 / 8, 6 / 16, 0.5))


def test_agreement_by_aspect_hard_and_restricted(toy):
    hard = L.agreement_by_aspect(toy, "m1", match="hard", convention="both").set_index("aspect")
    assert hard.loc["location", ["precision", "recall", "f1"]].tolist() == pytest.approx([12 / 24, 12 / 17, 24 / 41])
    assert hard.loc["rooms", ["precision", "recall", "f1"]].tolist() == [0, 0, 0]  # the types never agree there
    sub = L.agreement_by_aspect(toy, "m1", dataset_level.stage2_examples(toy), convention="both").set_index("aspect")
    assert sub["examples"].tolist() == [1, 1]
    assert sub.loc["rooms", ["precision", "recall", "f1"]].tolist() == pytest.approx([1, 4 / 9, 8 / 13])


def test_contested_examples_on_stage2(toy):
    # human votes for "any error": ex 0 three of four, ex 1 two of four (1B and 2B); m1 marks both
    got = L.contested_examples(toy, "m1", examples=dataset_level.stage2_examples(toy))
    assert got.to_dict("records") == [key(1)]
    silent_there = L.contested_examples(toy, "m2", examples=dataset_level.stage2_examples(toy))
    assert silent_there.empty and silent_there.columns.tolist() == KEY  # m2 marks nothing on ex 1


def test_contested_examples_needs_four_raters(toy):
    # ex 3: only St. 1A and St. 1B rated it, and both marked an error; m1 marked it too
    assert L.contested_examples(toy, "m1").to_dict("records") == [key(1)]


def test_reasons_are_the_models_spans_in_order(toy):
    r = L.reasons(toy, "m1")
    assert r.columns.tolist() == ["split", "example_idx", "text", "type", "reason"]
    assert r.values.tolist() == [
        ["short", 0, "ab cd ef", INC, "r0"],
        ["short", 1, "cd", MIS, "r1"],
        ["long", 3, "gh", NC, "r3"],
    ]
    assert L.reasons(toy, "m1", n=2)["example_idx"].tolist() == [0, 1]
    assert L.reasons(toy, "m1", examples=pd.DataFrame([key(3)]))["text"].tolist() == ["gh"]
    assert L.reasons(toy, "m2")["reason"].tolist() == [""]  # no reason given: empty, not missing


def test_models_vs_majority_on_the_clear_cases(toy):
    """Human majority on examples 0-1 (three of four sets must agree): ex 0 has an Incorrect
    error (3 votes) and no Misleading (1) or Not Checkable (0) one; ex 1 has no error of any single
    type (votes 1 NC, 0 MIS, 1 INC) and a 2-2 tie on any error, which drops out of the Any row."""
    t = example_level.models_vs_majority(
        toy, ["m1", "m2"], examples=dataset_level.stage2_examples(toy), n_boot=200, seed=0
    )
    assert t["model"].tolist() == ["m1"] * 5 + ["m2"] * 5
    assert t["label"].tolist()[:5] == [NC, MIS, INC, "per type (pooled)", "Any"]
    got = t.set_index(["model", "label"])
    assert got["examples"].xs("m1").tolist() == [2, 2, 2, 6, 1]
    assert got["majority_errors"].xs("m1").tolist() == [0, 0, 1, 1, 1]
    # m1 marks INC on ex 0 and MIS on ex 1
    m1 = got.xs("m1")
    assert m1["model_errors"].tolist() == [0, 1, 1, 2, 1]
    assert m1["agreement"].tolist() == pytest.approx([1, 0.5, 1, 5 / 6, 1])
    assert m1["bacc"].tolist() == pytest.approx([1, 0.5, 1, (1 + 4 / 5) / 2, 1])
    # pooled kappa: observed 5/6, expected 1/6 * 2/6 + 5/6 * 4/6 = 22/36
    assert m1.loc[[MIS, INC, "per type (pooled)"], "kappa"].tolist() == pytest.approx([0, 1, (30 - 22) / (36 - 22)])
    assert m1.loc[[NC, "Any"], "kappa"].isna().all()  # one class only: undefined
    assert m1.loc[[INC, "per type (pooled)", "Any"], "recall_error"].tolist() == [1, 1, 1]
    # m2 marks NC on ex 0 only
    m2 = got.xs("m2")
    assert m2["agreement"].tolist() == pytest.approx([0.5, 1, 0.5, 4 / 6, 1])
    assert m2.loc["per type (pooled)", "kappa"] == pytest.approx((24 - 26) / (36 - 26))
    assert m2.loc[INC, "recall_error"] == 0
    # intervals: a measure that is the same on every resample of two examples has a point interval
    assert (m1.loc[INC, "agreement_low"], m1.loc[INC, "agreement_high"]) == (1, 1)
    assert (m1.loc[MIS, "agreement_low"], m1.loc[MIS, "agreement_high"]) == (0, 1)  # 0, 0.5 or 1 per replicate
    assert {f"{m}_{b}" for m in ("agreement", "bacc", "kappa", "recall_error") for b in ("low", "high")} <= set(
        t.columns
    )


def test_models_vs_majority_leaves_out_ties_of_two_raters(toy):
    # all examples: ex 0 (3 of 4 say error) and ex 3 (both stage-1 sets say error) are clear,
    # ex 1 (2-2) and ex 2 (St. 1A yes, St. 1B no) are not
    t = example_level.models_vs_majority(toy, ["m1"], n_boot=10, seed=0).set_index("label")
    assert t.loc["Any", "examples"] == 2
