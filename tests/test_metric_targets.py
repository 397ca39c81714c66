"""Human targets per example, a campaign as a metric and the human ceiling
(analyses/metric_targets.py), computed by hand from tests/toy.py and a one-record corpus."""

import dataclasses
import json
import math

import numpy as np
import pandas as pd
import pytest
import toy as toy_module
import yaml

from hotelcheckspan import paths
from hotelcheckspan.analyses import metric_targets as mt
from hotelcheckspan.corpora import KEY, load

NAN = float("nan")
TYPES = ["Not Checkable", "Misleading", "Incorrect"]  # the toy's categories, config order


def test_toy_targets_by_hand(toy):
    # human records per example (tests/toy.py), spans per record, impression = 7 - spans:
    #   ex0: a1 [Inc], b1 [Inc, Mis], c1 [Inc], d1 []      -> spans 1, 2, 1, 0
    #   ex1: a1 [], b1 [NC], c1 [], d1 [Inc, Inc]          -> spans 0, 1, 0, 2
    #   ex2: a2 [NC], b1 []                                -> spans 1, 0
    #   ex3: a2 [Mis], b1 [NC]                             -> spans 1, 1
    expected = pd.DataFrame(
        {
            "errors": [-4 / 4, -3 / 4, -1 / 2, -2 / 2],
            "error_free": [1 / 4, 2 / 4, 1 / 2, 0 / 2],
            "impression": [(6 + 5 + 6 + 7) / 4, (7 + 6 + 7 + 5) / 4, (6 + 7) / 2, (6 + 6) / 2],
            # ex0: 3 of 4 with an error (3 >= 3/4 * 4); ex1: 2-2; ex2: 1-1 (2 of 2 needed); ex3: 2-0
            "majority": pd.array([True, pd.NA, pd.NA, True], dtype="boolean"),
            "errors:Not Checkable": [0.0, -1 / 4, -1 / 2, -1 / 2],
            "errors:Misleading": [-1 / 4, 0.0, 0.0, -1 / 2],
            "errors:Incorrect": [-3 / 4, -2 / 4, 0.0, 0.0],
            "n_humans": [4, 4, 2, 2],
        }
    )
    got = mt.human_targets(toy)
    assert got[KEY].values.tolist() == toy.examples[KEY].values.tolist()
    pd.testing.assert_frame_equal(got.drop(columns=KEY), expected)
    assert got.attrs["has_impressions"] and mt.has_impressions(got)
    assert mt.target_columns(got) == list(expected.columns[:-1])


def test_clear_majority_is_three_quarters():
    n = pd.Series(range(1, 9))
    assert mt.clear_votes(n).tolist() == [math.ceil(0.75 * k) for k in range(1, 9)] == [1, 2, 3, 3, 4, 5, 6, 6]


def write_one_record_corpus(root):
    """Three texts, one human record each (categories A and B, no impression slider), and one
    record on a key whose text is not in the corpus."""
    root.mkdir()
    summary = "ab cd ef"
    inputs = [
        {"dataset": "one", "split": "test", "setup_id": "sys", "example_idx": i, "summary": summary, "description": "x"}
        for i in range(3)
    ]
    (root / "inputs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in inputs))
    folder = root / "annotations" / "human" / "people"
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(yaml.safe_dump({"annotation_span_categories": [{"name": "A"}, {"name": "B"}]}))
    a, b = 0, 1
    records = {
        0: [(a, 0, "ab"), (a, 3, "cd"), (b, 6, "ef")],
        1: [],
        2: [(b, 3, "cd")],
        9: [(a, 0, "ab")],  # no text: left out
    }
    lines = [
        {
            "dataset": "one",
            "split": "test",
            "setup_id": "sys",
            "example_idx": i,
            "annotator_id": "p1",
            "annotator_group": 0,
            "annotations": [{"type": t, "start": s, "text": x} for t, s, x in spans],
        }
        for i, spans in records.items()
    ]
    (folder / "annotations.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return load(root)


def test_one_record_per_example_decides_alone(tmp_path):
    corpus = write_one_record_corpus(tmp_path / "one")
    got = mt.human_targets(corpus)
    assert got["example_idx"].tolist() == [0, 1, 2]  # example 9 has no text
    expected = pd.DataFrame(
        {
            "errors": [-3.0, 0.0, -1.0],
            "error_free": [0.0, 1.0, 0.0],
            "impression": [NAN, NAN, NAN],
            "majority": pd.array([True, False, True], dtype="boolean"),  # the one record decides
            "errors:A": [-2.0, 0.0, 0.0],
            "errors:B": [-1.0, 0.0, -1.0],
            "n_humans": [1, 1, 1],
        }
    )
    pd.testing.assert_frame_equal(got.drop(columns=KEY), expected)
    assert not got.attrs["has_impressions"] and not mt.has_impressions(got)
    assert mt.coverage(corpus) == {"records": 3, "records_without_text": 1, "examples": 3, "ceiling_examples": 0}
    scores, targets = mt.ceiling_split(corpus)
    assert scores.empty and targets.empty  # no example has two records
    assert list(scores.columns) == [*KEY, mt.CEILING, f"{mt.CEILING} (any error)"]  # no impressions


def test_campaign_scores(toy):
    # m1: ex0 1 span, ex1 1, ex2 0, ex3 1; m2: ex0 1 span, the others none
    m1 = mt.campaign_scores(toy, "m1")
    assert list(m1.columns) == [*KEY, "m1", "m1 (any error)"]
    assert m1["m1"].tolist() == [-1.0, -1.0, 0.0, -1.0] and m1["m1 (any error)"].tolist() == [-1.0, -1.0, 0.0, -1.0]
    m2 = mt.campaign_scores(toy, "m2")
    assert m2["m2"].tolist() == [-1.0, 0.0, 0.0, 0.0] and m2["m2 (any error)"].tolist() == [-1.0, 0.0, 0.0, 0.0]
    # a campaign without a record of an example: NaN there
    records = toy.records[~((toy.records["campaign"] == "m1") & (toy.records["example_idx"] == 2))]
    partial = mt.campaign_scores(dataclasses.replace(toy, records=records), "m1")
    assert partial["m1"].isna().tolist() == [False, False, True, False]
    # a human campaign reads the same way: the mean over its records (stage2 on ex0: 1 and 0 spans)
    s2 = mt.campaign_scores(toy, "stage2")
    assert s2["stage2"].tolist()[:2] == [-0.5, -1.0] and s2["stage2"].isna().tolist() == [False, False, True, True]
    assert s2["stage2 (any error)"].tolist()[:2] == [-0.5, -0.5]
    with pytest.raises(ValueError, match="no campaign 'm3'"):
        mt.campaign_scores(toy, "m3")


def toy_human_records(toy):
    """(record_id, example_idx, span types, impression) of the toy's human records, from the
    toy's own table (not from the package)."""
    ids = toy.records.set_index(["campaign", "annotator_id", "example_idx"])["record_id"]
    out = []
    for campaign in ("stage1", "stage2"):
        for annotator, _, idx, spans in toy_module.CAMPAIGNS[campaign][2]:
            types = [TYPES[t] for t, *_ in spans]
            out.append((int(ids[(campaign, annotator, idx)]), idx, types, 7 - len(types)))
    return out


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_ceiling_split_on_the_toy(toy, seed):
    recs = sorted(toy_human_records(toy), key=lambda r: (r[1], r[0]))  # example order, then record id
    draws = np.random.default_rng(seed).random(len(recs))
    held = {}
    for (rid, idx, types, imp), d in zip(recs, draws):
        if idx not in held or d < held[idx][0]:
            held[idx] = (d, rid, types, imp)
    scores, targets = mt.ceiling_split(toy, seed=seed)
    assert scores[KEY].equals(targets[KEY]) and scores["example_idx"].tolist() == [0, 1, 2, 3]
    for row, target in zip(scores.itertuples(index=False), targets.to_dict("records")):
        idx = row.example_idx
        _, rid, types, imp = held[idx]
        assert row[4:] == (-float(len(types)), -float(bool(types)), float(imp))
        rest = [r for r in recs if r[1] == idx and r[0] != rid]
        n = len(rest)
        with_error = sum(bool(r[2]) for r in rest)
        assert target["n_humans"] == n
        assert target["errors"] == pytest.approx(-sum(len(r[2]) for r in rest) / n)
        assert target["error_free"] == pytest.approx((n - with_error) / n)
        assert target["impression"] == pytest.approx(sum(r[3] for r in rest) / n)
        need = math.ceil(0.75 * n)
        clear = True if with_error >= need else False if n - with_error >= need else None
        assert (None if pd.isna(target["majority"]) else bool(target["majority"])) == clear
        for t in TYPES:
            assert target[f"errors:{t}"] == pytest.approx(-sum(r[2].count(t) for r in rest) / n)


def test_ceiling_split_is_deterministic_and_seeded(toy):
    a = mt.ceiling_split(toy, seed=3)
    b = mt.ceiling_split(toy, seed=3)
    pd.testing.assert_frame_equal(a[0], b[0])
    pd.testing.assert_frame_equal(a[1], b[1])
    held = {tuple(mt.ceiling_split(toy, seed=s)[0].iloc[:, 4:].to_numpy().ravel()) for s in range(10)}
    assert len(held) > 1  # other seeds hold out other records


def test_the_test_split_targets_the_texts_it_has():
    corpus = load(paths.REAL_TEST_CORPUS)
    cov = mt.coverage(corpus)
    # 2,151 human records, 476 of them on "iaa" keys without a text in this folder; 1,200 texts
    assert cov["records"] + cov["records_without_text"] == 2151 and cov["records_without_text"] == 476
    assert cov["examples"] == 1200
    targets = mt.human_targets(corpus)
    assert len(targets) == 1200 and targets["n_humans"].sum() == cov["records"]
    assert targets["impression"].isna().all() and not targets.attrs["has_impressions"]
    assert set(targets["n_humans"]) <= {1, 2}  # so the clear majority is 1-0 or 2-0
    scores, ceiling_targets = mt.ceiling_split(corpus)
    assert len(scores) == len(ceiling_targets) == cov["ceiling_examples"] == (targets["n_humans"] >= 2).sum()
    assert (ceiling_targets["n_humans"] == 1).all() and ceiling_targets["majority"].notna().all()
