"""Reading a metric's scores file (corpora/scores.py): every error at once with file, line and
column, the warnings, key matching after slugifying, the direction flip and the round trip."""

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hotelcheckspan import paths
from hotelcheckspan.corpora import KEY, CorpusError, load
from hotelcheckspan.corpora.scores import (
    CONSTANT,
    MISSING_SCORE,
    UNKNOWN_KEY,
    UNSCORED,
    read_scores,
    write_scores,
)

HEADER = "dataset,split,setup_id,example_idx"


def where(problems) -> set[tuple[int, str]]:
    return {(p.line, p.field) for p in problems}


def raises(path, corpus, **kw) -> CorpusError:
    with pytest.raises(CorpusError) as info:
        read_scores(path, corpus, **kw)
    assert all(p.file == str(path) and p.is_error for p in info.value.problems)
    return info.value


@pytest.fixture(scope="module")
def test_split():
    return load(paths.REAL_TEST_CORPUS)


def test_a_good_csv_is_keyed_as_the_corpus_spells_it(toy, tmp_path):
    f = tmp_path / "s.csv"
    f.write_text(f"{HEADER},m,n\ntoy,long,s,3,0.5,1\nTOY,Short,s,0,0.25,2\ntoy,short,s,1,1e-3,3\n")
    s = read_scores(f, toy)
    # in corpus order (examples 0, 1, 3), keys spelled as the corpus spells them
    assert s.frame[KEY].values.tolist() == [["toy", "short", "s", 0], ["toy", "short", "s", 1], ["toy", "long", "s", 3]]
    assert s.frame["m"].tolist() == [0.25, 0.001, 0.5] and s.frame["n"].tolist() == [2.0, 3.0, 1.0]
    assert s.metrics == ["m", "n"] and s.directions == {"m": "higher", "n": "higher"}
    assert s.frame["example_idx"].dtype == toy.examples["example_idx"].dtype
    assert [p.kind for p in s.problems] == [UNSCORED]  # 3 of 4 examples: one left out
    assert "scores 3 of the corpus' 4 examples: the other 1 " in s.problems[0].message


def test_keys_match_after_slugifying_as_factgenie_does(test_split, tmp_path):
    # the gsmarena texts spell the system "llama3.3"; a scores file writing "llama3-3" finds them
    assert "llama3.3" in set(test_split.examples.query("dataset == 'd2t-gsmarena'")["setup_id"])
    f = tmp_path / "s.csv"
    f.write_text(f"{HEADER},m\nd2t-gsmarena,test,llama3-3,7,0.5\nD2T GSMArena,TEST,Llama3.3,8,0.75\n")
    s = read_scores(f, test_split)
    assert s.frame["setup_id"].tolist() == ["llama3.3", "llama3.3"]
    assert s.frame["dataset"].tolist() == ["d2t-gsmarena"] * 2 and s.frame["example_idx"].tolist() == [7, 8]
    assert [p.kind for p in s.problems] == [UNSCORED]


def test_lower_is_better_is_negated_and_recorded(toy, tmp_path):
    f = tmp_path / "s.csv"
    f.write_text(f"{HEADER},errors,prob\ntoy,short,s,0,3,0.9\ntoy,short,s,1,0,0.1\ntoy,short,s,2,1,0.4\n")
    s = read_scores(f, toy, lower_is_better=["errors"])
    assert s.frame["errors"].tolist() == [-3.0, 0.0, -1.0] and s.frame["prob"].tolist() == [0.9, 0.1, 0.4]
    assert not np.signbit(s.frame["errors"].to_numpy()[1])  # 0 stays 0, not -0
    assert s.directions == {"errors": "lower", "prob": "higher"}


def test_every_error_of_a_damaged_csv_at_once(toy, tmp_path):
    f = tmp_path / "bad.csv"
    f.write_text(
        f"{HEADER},m,n\n"
        "toy,short,s,0,0.5,abc\n"  # 2: n not a number
        "toy,short,s,x1,0.5,1\n"  # 3: example_idx not an integer
        "toy,short,s,-1,0.5,1\n"  # 4: negative
        "toy,short,s,1,0.5\n"  # 5: a field short
        "Toy,short,s,0,0.1,0.2\n"  # 6: the example of line 2 again (after slugifying)
        "toy,,s,2,inf,1\n"  # 7: empty split, infinite score
        "toy,short,s,3,1,2\n"
    )
    err = raises(f, toy)
    assert where(err.problems) == {
        (2, "n"),
        (3, "example_idx"),
        (4, "example_idx"),
        (5, "<csv>"),
        (6, "example_idx"),
        (7, "split"),
        (7, "m"),
    }
    dup = next(p for p in err.problems if p.line == 6)
    assert "first on line 2" in dup.message  # both lines named
    assert str(f) in str(err) and "7 errors" in str(err)


def test_file_level_errors(toy, tmp_path):
    f = tmp_path / "s.csv"
    f.write_text("dataset,split,example_idx,m\ntoy,short,0,1\n")
    assert where(raises(f, toy).problems) == {(1, "setup_id")}
    f.write_text(f"{HEADER}\ntoy,short,s,0\n")
    assert where(raises(f, toy).problems) == {(1, "")}  # no metric column
    f.write_text(f"{HEADER},m,,m\ntoy,short,s,0,1,2,3\n")
    assert where(raises(f, toy).problems) == {(1, "<column 6>"), (1, "m")}  # unnamed, named twice
    f.write_text(f"{HEADER},m\ntoy,short,s,0,1\n")
    assert where(raises(f, toy, lower_is_better=["m", "x"]).problems) == {(0, "x")}
    f.write_text("dataset\tsplit\tsetup_id\texample_idx\tm\ntoy\tshort\ts\t0\t1\n")
    assert "comma-separated" in str(raises(f, toy))
    f.write_text(f"{HEADER},m\n")
    assert "no row" in str(raises(f, toy))


@pytest.mark.parametrize(
    "content, message",
    [(b"", "is empty"), (b"\n \n", "is empty"), (HEADER.encode() + b",m\ntoy,short,s,0,\xff\n", "not UTF-8")],
)
def test_unreadable_files(toy, tmp_path, content, message):
    f = tmp_path / "s.csv"
    f.write_bytes(content)
    err = raises(f, toy)
    assert message in str(err)
    if message == "not UTF-8":
        assert where(err.problems) == {(2, "<utf-8>")}


def test_not_a_file(toy, tmp_path):
    assert "no such file" in str(raises(tmp_path / "missing.csv", toy))
    assert "a folder" in str(raises(tmp_path, toy))


def test_every_error_of_a_damaged_jsonl_at_once(toy, tmp_path):
    good = {"dataset": "toy", "split": "short", "setup_id": "s", "example_idx": 0, "m": 0.5}
    lines = [
        json.dumps(good),
        "{not json",  # 2
        "[1, 2]",  # 3: not an object
        json.dumps({k: v for k, v in good.items() if k != "split"} | {"example_idx": 1}),  # 4: missing split
        json.dumps(good | {"example_idx": 2, "m": "high"}),  # 5: not a number
        json.dumps(good | {"example_idx": 2.5}),  # 6: not an integer
        json.dumps(good | {"example_idx": 3, "m": True}),  # 7: a boolean is no score
        json.dumps(good | {"setup_id": 7, "example_idx": 3}),  # 8: a number as a key part is read as text
        json.dumps(good | {"setup_id": None, "example_idx": 3}),  # 9: null is no key part
    ]
    f = tmp_path / "s.jsonl"
    f.write_text("\n".join(lines) + "\n")
    err = raises(f, toy)
    assert where(err.problems) == {
        (2, "<json>"),
        (3, "<json>"),
        (4, "split"),
        (5, "m"),
        (6, "example_idx"),
        (7, "m"),
        (9, "setup_id"),
    }


def test_warnings_unknown_key_missing_score_constant_coverage(toy, tmp_path):
    f = tmp_path / "s.csv"
    f.write_text(f"{HEADER},m,c\ntoy,short,s,0,0.5,1\nother,short,s,0,1,1\ntoy,short,s,1,NA,1\n")
    s = read_scores(f, toy)
    # kept: examples 0 and 1, 2 of 4: the other two unscored; m has one score left (0.5) and c
    # one value (1): both constant
    assert {(p.line, p.field, p.kind) for p in s.problems} == {
        (3, "example_idx", UNKNOWN_KEY),
        (4, "m", MISSING_SCORE),
        (1, "m", CONSTANT),
        (1, "c", CONSTANT),
        (0, "", UNSCORED),
    }
    unscored = next(p for p in s.problems if p.kind == UNSCORED)
    assert "scores 2 of the corpus' 4 examples: the other 2 (the first: " in unscored.message
    assert all(not p.is_error for p in s.problems)
    assert len(s.frame) == 2 and math.isnan(s.frame["m"].iloc[1])
    f.write_text(f"{HEADER},m\ntoy,short,s,0,0.5\n")
    assert {p.kind for p in read_scores(f, toy).problems} == {CONSTANT, UNSCORED}


def test_a_jsonl_without_one_object_reports_its_lines_only(toy, tmp_path):
    f = tmp_path / "s.jsonl"
    f.write_text('{"dataset": \n[1]\n')
    assert where(raises(f, toy).problems) == {(1, "<json>"), (2, "<json>")}


def test_a_missing_json_field_is_a_missing_score(toy, tmp_path):
    f = tmp_path / "s.jsonl"
    rows = [{"dataset": "toy", "split": "short", "setup_id": "s", "example_idx": i, "a": i, "b": -i} for i in range(3)]
    del rows[1]["b"]
    rows[2]["b"] = None
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    s = read_scores(f, toy)
    assert s.frame["b"].isna().tolist() == [False, True, True]
    assert {(p.line, p.kind) for p in s.problems} == {
        (2, MISSING_SCORE),
        (3, MISSING_SCORE),
        (0, CONSTANT),
        (0, UNSCORED),
    }  # b: one score left; 3 of the toy's 4 examples scored


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_write_then_read_round_trips(test_split, tmp_path, suffix):
    rng = np.random.default_rng(1)
    frame = test_split.examples[KEY].sample(700, random_state=0).reset_index(drop=True)
    frame["m"] = rng.normal(size=len(frame)) * 10.0 ** rng.integers(-8, 8, size=len(frame))
    frame["k"] = rng.integers(0, 5, size=len(frame)).astype(float)
    frame.loc[[3, 10], "k"] = np.nan
    path = write_scores(frame, tmp_path / f"scores{suffix}")
    s = read_scores(path, test_split)
    expected = frame.merge(test_split.examples[KEY].reset_index(), on=KEY).sort_values("index").drop(columns="index")
    pd.testing.assert_frame_equal(s.frame, expected.reset_index(drop=True))  # floats exactly equal
    assert s.metrics == ["m", "k"] and [p.kind for p in s.problems] == [UNSCORED] + [MISSING_SCORE] * 2
    assert f"scores 700 of the corpus' {len(test_split.examples):,} examples: the other" in s.problems[0].message


@given(st.lists(st.text(alphabet=st.sampled_from('toy,shr01s."\n\t{}:[]-e5NA '), max_size=30), max_size=6))
def test_any_text_gives_scores_or_a_corpus_error(toy, tmp_path_factory, lines):
    # never another exception type, whatever the file holds
    f = tmp_path_factory.mktemp("fuzz") / "s.csv"
    f.write_text(f"{HEADER},m\n" + "\n".join(lines))
    try:
        read_scores(f, toy)
    except CorpusError as err:
        assert err.problems and all(p.is_error for p in err.problems)
