"""The review kit (issue 27): automatic marks on hand-made spans, the sheet out and back in
(xlsx and csv, damaged sheets), the scores against references (an explicit cluster bootstrap,
scikit-learn's Cohen's kappa, statsmodels' Fleiss' kappa, the ``agreement`` package's AC1), the
stratified sample and the command.

The tiny corpus below has three outputs and three judges whose spans each exercise one rule; the
expected marks are read off the texts (see the comments)."""

from __future__ import annotations

import argparse
import csv
import doctest
import itertools
import json
import re
import shutil
import zipfile
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest
import yaml

from hotelcheckspan import paths
from hotelcheckspan.corpora import CorpusError
from hotelcheckspan.corpora import load as load_corpus
from hotelcheckspan.corpora import problems as P
from hotelcheckspan.metrics import resampling
from hotelcheckspan.review import automatic_marks, export, judge_marks, marks, read_reviews, score
from hotelcheckspan.review import command as review_command
from hotelcheckspan.review import sheet as S

CATS = ["Incorrect", "Misleading"]
INC, MIS = 0, 1
OUT0 = "Brusque beat Mirassol 3-1 at home. Dellatorre scored a penalty in the 8th minute. The referee was J. Lewis."
OUT1 = "Score: =1+1 was shown. It rained all day."
OUT2 = "A quiet match ended 0-0."
OUTPUTS = {0: OUT0, 1: OUT1, 2: OUT2}
S0 = "Brusque beat Mirassol 3-1 at home."

# judge -> {example: [(type, start, text, reason)]}; the comment says which marks the span has
JUDGES = {
    "judge-alpha": {
        0: [
            (INC, 0, S0, "The data shows 2-1."),  # whole_sentence
            (INC, 0, "Santos scored", "Santos is not a player in the data."),  # hallucination
            (INC, OUT0.index("Dellatorre"), "Dellatorre scored ... the 8th minute", "Wrong minute."),  # hard to parse
            (INC, 0, "brusque beat  Mirassol 3-1 at home.", "Again."),  # repeated (case, spacing)
            (MIS, 5, "N/A", "The data mentions a red card at 80'."),  # no span, implicit span
            (MIS, OUT0.index("penalty"), "penalty", "The text does not mention the league name."),  # implicit
            (INC, OUT0.index("3-1"), "3-1", "The data shows the final score was 2-1."),  # nothing
        ],
        1: [(INC, OUT1.index("=1+1"), "=1+1", "Not a score.")],  # nothing (and no formula in the sheet)
    },
    "judge-beta": {
        0: [(INC, 0, S0, "Wrong score.")],  # whole sentence, not repeated: another judge
        1: [(MIS, OUT1.index("It rained"), "It rained all day.", "The input says sunny.")],  # whole sentence
    },
    "judge-gamma": {
        0: [],
        2: [(MIS, 0, OUT2, "The text does not mention the attendance.")],  # whole sentence, implicit
    },
}
HUMANS = {  # annotator -> {example: [(type, text)]}
    "h1": {0: [(INC, "Mirassol")], 2: [(INC, "0-0")]},
    "h2": {0: [(MIS, "a penalty")]},
}


# the flags of a sheet of a corpus that is not HotelCheckSpan (the tiny one): the study's, without
# HotelCheckSpan's aspect flag
NEUTRAL = ["flag_too_strict", "flag_not_faithfulness", "flag_repeated", "flag_hard_to_parse", "flag_implicit_span"]


def _key(idx: int) -> dict:
    return {"dataset": "tiny", "split": "test", "setup_id": "sys", "example_idx": idx}


def write_tiny(root: Path) -> Path:
    """The tiny corpus in the factgenie layout the reader takes (as tests/toy.py writes its own)."""
    root.mkdir(parents=True, exist_ok=True)
    lines = [_key(i) | {"summary": text, "description": f"source of output {i}"} for i, text in OUTPUTS.items()]
    (root / "inputs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    config = {"annotation_span_categories": [{"name": c} for c in CATS], "annotation_overlap_allowed": True}

    def campaign(kind, name, records):
        folder = root / "annotations" / kind / name
        folder.mkdir(parents=True)
        (folder / "config.yaml").write_text(yaml.safe_dump(config))
        (folder / "annotations.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))

    for judge, per_example in JUDGES.items():
        records = [
            _key(i)
            | {
                "annotator_id": judge,
                "annotator_group": 0,
                "annotations": [{"type": t, "start": s, "text": x, "reason": r} for t, s, x, r in spans],
            }
            for i, spans in per_example.items()
        ]
        campaign("model", judge, records)
    records = [
        _key(i)
        | {
            "annotator_id": who,
            "annotator_group": g,
            "annotations": [{"type": t, "start": OUTPUTS[i].index(x), "text": x} for t, x in spans],
        }
        for g, (who, per_example) in enumerate(HUMANS.items())
        for i, spans in per_example.items()
    ]
    campaign("human", "people", records)
    return root


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return load_corpus(write_tiny(tmp_path_factory.mktemp("tiny") / "corpus"))


# ---------------------------------------------------------------------------------------------
# automatic marks


def test_the_documented_examples_hold():
    result = doctest.testmod(marks, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 20 and result.failed == 0
    result = doctest.testmod(S)
    assert result.attempted >= 2 and result.failed == 0


def test_marks_of_hand_made_spans(tiny):
    m = automatic_marks(tiny)
    assert len(m) == 11 and list(m["campaign"].unique()) == ["judge-alpha", "judge-beta", "judge-gamma"]
    alpha = m[(m["campaign"] == "judge-alpha") & (m["example_idx"] == 0)].sort_values("order")
    expected = {  # order -> the marks set (every other mark is False or <NA>)
        0: {"whole_sentence"},
        1: {"hallucination"},
        2: {"hard_to_parse"},
        3: {"repeated"},
        4: {"no_span", "implicit_span"},
        5: {"implicit_span"},
        6: set(),
    }
    for order, marked in expected.items():
        row = alpha[alpha["order"] == order].iloc[0]
        got = {mark for mark in marks.MARKS if row[mark] is True or (not pd.isna(row[mark]) and bool(row[mark]))}
        assert got == marked, (order, row["text"], got)
    # spans that cannot be placed in the output have no whole-sentence mark
    assert alpha.set_index("order").loc[[1, 2, 3, 4], "whole_sentence"].isna().all()
    others = m[m["campaign"] != "judge-alpha"].set_index("text")
    assert others.loc[S0, "whole_sentence"] and not others.loc[S0, "repeated"]  # another judge: no repeat
    assert others.loc[OUT2, "implicit_span"] and others.loc["It rained all day.", "whole_sentence"]
    assert not others.loc["It rained all day.", "implicit_span"]  # "the input says": but a real span


def test_every_hallucination_is_a_span_the_loader_cannot_find(tiny):
    """The loader's ``not-found`` warnings name file, line and ``annotations.N.text``: the
    hallucinated span is among them (and the tokenisation-blind rules clear the respaced repeat)."""
    not_found = {
        (Path(p.file).parent.name, p.line, int(p.field.split(".")[1])) for p in tiny.warnings if p.kind == P.NOT_FOUND
    }
    m = automatic_marks(tiny)
    hallucinated = m[m["hallucination"].fillna(False).astype(bool)]
    records = tiny.records.set_index("record_id")
    for _, row in hallucinated.iterrows():
        assert (row["campaign"], int(records.loc[row["record_id"], "line"]), int(row["order"])) in not_found
    assert len(hallucinated) == 1 and len(not_found) > len(hallucinated)


def test_judge_marks_per_judge_and_humans(tiny):
    table = judge_marks(tiny).set_index("judge")
    assert list(table.index) == ["judge-alpha", "judge-beta", "judge-gamma", "humans"]
    alpha = table.loc["judge-alpha"]
    assert alpha["spans"] == 8
    for mark, n in {"no_span": 1, "hallucination": 1, "repeated": 1, "hard_to_parse": 1, "implicit_span": 2}.items():
        assert alpha[f"{mark}_share"] == pytest.approx(n / 8), mark
    # whole sentence over the four spans with a place: S0 yes; "penalty", "3-1", "=1+1" no
    assert alpha["whole_sentence_share"] == pytest.approx(1 / 4)
    assert table.loc["judge-beta", "whole_sentence_share"] == 1.0
    assert table.loc["humans", "spans"] == 3 and table.loc["humans", "whole_sentence_share"] == 0.0
    words = tiny.spans.groupby("campaign")["words"].mean()
    assert table.loc["humans", "mean_words"] == pytest.approx(words["people"])
    assert table.loc["judge-alpha", "mean_words"] == pytest.approx(words["judge-alpha"])
    assert table.loc["judge-alpha", "words_vs_humans"] == pytest.approx(words["judge-alpha"] / words["people"])


@pytest.mark.parametrize(
    "text, pieces",
    [
        ("Brusque won. Santos lost!", ["Brusque won.", "Santos lost!"]),
        ("J. Lewis refereed. St. Louis won", ["J. Lewis refereed.", "St. Louis won"]),
        ("It is 2.5 km away.\nRooms are big.", ["It is 2.5 km away.", "Rooms are big."]),
        ('He said "no." Then left.', ['He said "no."', "Then left."]),
    ],
)
def test_sentence_split(text, pieces):
    assert [text[s:e] for s, e in marks.sentences(text)] == pieces


def test_whole_sentence_threshold_is_ninety_percent():
    text = "abcdefghij klmnopqrst. Next one."  # first sentence: 22 characters
    assert marks.is_whole_sentence((0, 20), marks.sentences(text))  # 20/22 = 0.91
    assert not marks.is_whole_sentence((0, 19), marks.sentences(text))  # 19/22 = 0.86
    # a span over one and a half sentences covers 27 of 32 characters: not whole
    assert not marks.is_whole_sentence((0, 27), marks.sentences(text))


# ---------------------------------------------------------------------------------------------
# the sheet out


def _key_of(path: Path) -> dict:
    return json.loads(S.key_path(path).read_text())


def _xlsx_rows(path: Path) -> list[dict]:
    ws = openpyxl.load_workbook(path)["spans"]
    header = [c.value for c in ws[1]]
    return [dict(zip(header, row)) for row in ws.iter_rows(min_row=2, values_only=True)]


def test_xlsx_export_layout(tiny, tmp_path):
    out = tmp_path / "review.xlsx"
    result = export(tiny, out)
    key = _key_of(out)
    assert (result.rows, result.outputs, result.left_out) == (11, 3, 0)
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["spans", "outputs", "about"]
    ws = wb["spans"]
    header = [c.value for c in ws[1]]
    assert header == S.sheet_columns(NEUTRAL) and header[0] == "output_id" and header[-1] == "reviewer"
    rows = _xlsx_rows(out)
    # grouped by output: each output's rows are contiguous, outputs in corpus order
    ids = [r["output_id"] for r in rows]
    assert ids == sorted(ids) and len(set(ids)) == 3
    # anonymised: evaluators E1..E3, the judges' names nowhere in the workbook, the key de-anonymises
    assert sorted(key["evaluators"]) == ["E1", "E2", "E3"] and sorted(key["evaluators"].values()) == sorted(JUDGES)
    assert {r["evaluator"] for r in rows} == {"E1", "E2", "E3"}
    with zipfile.ZipFile(out) as z:
        xml = b"".join(z.read(n) for n in z.namelist())
    assert not any(j.encode() in xml for j in JUDGES)
    # drop-downs carry the allowed values
    lists = {str(dv.sqref).split(":")[0][:-1]: dv.formula1 for dv in ws.data_validations.dataValidation}
    letter = {col: openpyxl.utils.get_column_letter(i + 1) for i, col in enumerate(header)}
    assert lists[letter["error_mark"]] == '"Error,Not an error,No span given,Hallucination"'
    assert lists[letter["explanation_mark"]] == '"Correct,Partially correct,Incomplete,Vague,Incorrect,Not an error"'
    assert all(lists[letter[f]] == '"Yes"' for f in NEUTRAL)
    # pre-filled where certain, and said so
    by_text = {r["text"]: r for r in rows}
    assert by_text["Santos scored"]["error_mark"] == "Hallucination"
    assert by_text["N/A"]["error_mark"] == "No span given"
    assert by_text["brusque beat  Mirassol 3-1 at home."]["flag_repeated"] == "Yes"
    assert by_text["Dellatorre scored ... the 8th minute"]["flag_hard_to_parse"] == "Yes"
    assert by_text["Santos scored"]["prefilled"] == "error_mark"
    assert by_text["penalty"]["auto_implicit_span"] == "yes" and by_text["penalty"]["flag_implicit_span"] is None
    assert by_text["3-1"]["prefilled"] is None and by_text["3-1"]["error_mark"] is None
    # a text starting with "=" stays text
    assert by_text["=1+1"]["text"] == "=1+1"
    # outputs sheet: text and source, reachable from the row
    outputs = {r[0]: r for r in wb["outputs"].iter_rows(min_row=2, values_only=True)}
    o = by_text["3-1"]["output_id"]
    assert outputs[o][5] == OUT0 and outputs[o][6] == "source of output 0"
    row = next(i for i, r in enumerate(rows, 2) if r["text"] == "3-1")
    assert ws.cell(row, 1).hyperlink.location == f"outputs!A{list(outputs).index(o) + 2}"
    # the key: every row, its output, evaluator and text hash
    assert set(key["rows"]) == {r["row_id"] for r in rows}
    for r in rows:
        spec = key["rows"][r["row_id"]]
        assert spec["output"] == r["output_id"] and spec["evaluator"] == r["evaluator"]
        assert spec["text_hash"] == S.text_hash(r["text"])


def test_csv_export_notes_and_companion(tiny, tmp_path):
    out = tmp_path / "review.csv"
    result = export(tiny, out)
    lines = out.read_text().splitlines()
    notes = [line for line in lines if line.startswith("#")]
    assert lines[: len(notes)] == notes  # notes lead
    assert any("Error | Not an error | No span given | Hallucination" in n for n in notes)
    assert any(result.export_id in n for n in notes)
    body = list(csv.DictReader(lines[len(notes) :]))
    assert list(body[0]) == S.sheet_columns(NEUTRAL) and len(body) == 11
    companion = list(csv.DictReader(S.outputs_path(out).read_text().splitlines()))
    assert [c["text"] for c in companion] == [OUT0, OUT1, OUT2]
    assert result.outputs_path == S.outputs_path(out)


def test_export_is_deterministic_and_seeded(tiny, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for suffix in ("xlsx", "csv"):
        a, b = tmp_path / "a" / f"r-{suffix}.{suffix}", tmp_path / "b" / f"r-{suffix}.{suffix}"
        export(tiny, a, seed=3)
        export(tiny, b, seed=3)
        assert a.read_bytes() == b.read_bytes()
        assert S.key_path(a).read_bytes() == S.key_path(b).read_bytes()
    orders = {
        tuple(_key_of(_export(tiny, tmp_path / f"s{seed}.csv", seed=seed))["evaluators"].values()) for seed in range(8)
    }
    assert len(orders) > 1  # the seed decides who is E1
    # the judges' order as given does not matter
    export(tiny, tmp_path / "a" / "j.csv", judges=["judge-gamma", "judge-alpha"], seed=5)
    export(tiny, tmp_path / "b" / "j.csv", judges=["judge-alpha", "judge-gamma"], seed=5)
    assert (tmp_path / "a" / "j.csv").read_bytes() == (tmp_path / "b" / "j.csv").read_bytes()


def _export(corpus, path, **kw):
    export(corpus, path, **kw)
    return path


def test_export_refuses_bad_arguments(tiny, tmp_path):
    with pytest.raises(ValueError, match="no LLM judge 'nobody'"):
        export(tiny, tmp_path / "r.xlsx", judges=["nobody"])
    with pytest.raises(ValueError, match=r"\.xlsx or a \.csv"):
        export(tiny, tmp_path / "r.ods")
    with pytest.raises(ValueError, match="cannot hold one span of each"):
        export(tiny, tmp_path / "r.xlsx", sample=2)


# ---------------------------------------------------------------------------------------------
# the stratified sample


@pytest.fixture(scope="module")
def bundled_marks():
    corpus = load_corpus(paths.BUNDLED_CORPUS)
    return automatic_marks(corpus)


@pytest.mark.parametrize("n", [15, 60, 200])
def test_sample_is_stratified_and_proportional(bundled_marks, n):
    spans = bundled_marks
    sizes = spans.groupby(["campaign", "type"]).size()
    chosen = S.stratified_sample(spans, n, np.random.default_rng(0))
    got = chosen.groupby(["campaign", "type"]).size().reindex(sizes.index, fill_value=0)
    assert got.sum() == n
    assert (got >= 1).all() and (got <= sizes).all()
    # a larger stratum never gets fewer spans than a smaller one
    by_size = got.to_numpy()[np.argsort(sizes.to_numpy(), kind="stable")]
    assert (np.diff(by_size) >= 0).all()
    quota = n * sizes / sizes.sum()
    if (quota >= 1).all() or n >= 60:  # once the minimum of one costs little: within one of the quota
        assert ((got - quota).abs()[quota >= 1] < 1 + 1e-9).all()
    assert chosen.index.is_unique and chosen.index.isin(spans.index).all()


def test_sample_is_seeded_and_keeps_outputs_together(bundled_marks):
    spans = bundled_marks
    a = S.stratified_sample(spans, 60, np.random.default_rng(1))
    b = S.stratified_sample(spans, 60, np.random.default_rng(1))
    c = S.stratified_sample(spans, 60, np.random.default_rng(2))
    assert a.index.equals(b.index) and not a.index.equals(c.index)
    # drawn along one order of outputs, the sample sits on fewer outputs than an unclustered
    # stratified draw of the same sizes would (the mean over 20 such draws)
    outputs = a[["dataset", "split", "setup_id", "example_idx"]].drop_duplicates()
    rng = np.random.default_rng(0)
    sizes = a.groupby(["campaign", "type"]).size()
    plain = []
    for _ in range(20):
        parts = [
            g.sample(sizes[k], random_state=int(rng.integers(1 << 30)))
            for k, g in spans.groupby(["campaign", "type"])
            if k in sizes
        ]
        plain.append(len(pd.concat(parts)[["dataset", "split", "setup_id", "example_idx"]].drop_duplicates()))
    assert len(outputs) < np.mean(plain)


def test_sample_of_everything_is_everything(bundled_marks):
    assert len(S.stratified_sample(bundled_marks, 10_000, np.random.default_rng(0))) == len(bundled_marks)


# ---------------------------------------------------------------------------------------------
# completed sheets in: a reviewer's work done programmatically


def _fill_xlsx(path: Path, out: Path, marks_by_row: dict, reviewer: str | None) -> None:
    """Write ``marks_by_row`` (row_id -> {column: value}) into a copy of the sheet, as a reviewer
    would with the drop-downs; ``reviewer`` in the reviewer column of every row filled."""
    wb = openpyxl.load_workbook(path)
    ws = wb["spans"]
    col = {c.value: c.column for c in ws[1]}
    for i in range(2, ws.max_row + 1):
        rid = ws.cell(i, col["row_id"]).value
        if rid in marks_by_row:
            for name, value in marks_by_row[rid].items():
                ws.cell(i, col[name]).value = value
            if reviewer is not None:
                ws.cell(i, col["reviewer"]).value = reviewer
    wb.save(out)


def _fill_csv(path: Path, out: Path, marks_by_row: dict, reviewer: str | None, delimiter=",") -> None:
    lines = path.read_text().splitlines(keepends=True)
    notes = [line for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(lines[len(notes) :]))
    for row in rows:
        if row["row_id"] in marks_by_row:
            row.update(marks_by_row[row["row_id"]])
            if reviewer is not None:
                row["reviewer"] = reviewer
    with out.open("w", newline="") as f:
        f.writelines(notes)
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), delimiter=delimiter)
        writer.writeheader()
        writer.writerows(rows)


def _explained(mark: str, otherwise: str) -> str:
    """The explanation mark a consistent reviewer gives: none for "No span given", "Not an error"
    for a span that is not an error, else ``otherwise``."""
    return {"No span given": "", "Not an error": "Not an error"}.get(mark, otherwise)


def _plan(key: dict) -> tuple[dict, dict]:
    """Two reviewers' marks: ann reviews every row, bob the rows of the first two outputs and
    disagrees on every third of them. Error or not: by the row's position; pre-filled marks kept."""
    ann, bob = {}, {}
    for i, (rid, spec) in enumerate(sorted(key["rows"].items())):
        pre = spec["prefilled"].get("error_mark")
        mark = pre or ("Error" if i % 2 == 0 else "Not an error")
        ann[rid] = {"error_mark": mark, "explanation_mark": _explained(mark, "Correct")}
        if i % 4 == 1:
            ann[rid]["flag_too_strict"] = "Yes"
        if spec["output"] in ("O001", "O002"):
            other = mark if i % 3 else ("Not an error" if mark == "Error" else "Error")
            bob[rid] = {"error_mark": other, "explanation_mark": _explained(other, "Vague")}
    return ann, bob


@pytest.mark.parametrize("first, second", [("xlsx", "xlsx"), ("csv", "csv"), ("xlsx", "csv")])
def test_round_trip(tiny, tmp_path, first, second):
    sheet = tmp_path / f"review.{first}"
    export(tiny, sheet)
    key = _key_of(sheet)
    ann, bob = _plan(key)
    done = []
    for who, plan, fmt in (("ann", ann, first), ("bob", bob, second)):
        source = sheet if fmt == first else export(tiny, tmp_path / f"other-review.{fmt}").path
        out = tmp_path / f"{who}.{fmt}"
        (_fill_xlsx if fmt == "xlsx" else _fill_csv)(source, out, plan, who)
        done.append(out)
    if first != second:  # two formats, two keys of the same export: pass one
        assert S.key_path(done[1].with_name("other-review.csv")).read_text() == S.key_path(sheet).read_text()
    frame, problems = read_reviews(done, key=S.key_path(sheet))
    assert not P.errors(problems)
    assert len(frame) == len(ann) + len(bob)
    # de-anonymised with the key
    judge_of = {rid: key["evaluators"][spec["evaluator"]] for rid, spec in key["rows"].items()}
    assert (frame["judge"] == frame["row_id"].map(judge_of)).all()
    assert set(frame["reviewer"]) == {"ann", "bob"}
    result = score(frame, n_boot=200, seed=4)
    # the share of real errors per judge: per span the share of its reviewers saying Error
    expected = {}
    for rid in ann:
        votes = [plan[rid]["error_mark"] == "Error" for plan in (ann, bob) if rid in plan]
        expected.setdefault(judge_of[rid], []).append(np.mean(votes))
    judges = result["judges"].set_index("judge")
    for judge, values in expected.items():
        assert judges.loc[judge, "error_share"] == pytest.approx(np.mean(values))
        assert judges.loc[judge, "spans"] == len(values)
    flags = result["flags"].set_index(["judge", "flag"])
    for judge in expected:
        rids = [r for r in ann if judge_of[r] == judge]
        share = np.mean([np.mean([p[r].get("flag_too_strict") == "Yes" for p in (ann, bob) if r in p]) for r in rids])
        assert flags.loc[(judge, "Too strict"), "share"] == pytest.approx(share)
    explanations = result["explanations"]
    assert np.allclose(explanations.groupby("judge")["share"].sum(), 1.0)


def test_intervals_are_a_cluster_bootstrap_over_outputs(tiny, tmp_path):
    """The reference: each replicate rebuilds the data from whole outputs drawn with replacement
    (the same draws) and takes the plain share; the interval is numpy's quantiles of those."""
    sheet = tmp_path / "review.xlsx"
    export(tiny, sheet)
    ann, _ = _plan(_key_of(sheet))
    _fill_xlsx(sheet, tmp_path / "ann.xlsx", ann, "ann")
    frame, _ = read_reviews([tmp_path / "ann.xlsx"])
    n_boot, seed = 300, 9
    result = score(frame, n_boot=n_boot, seed=seed)["judges"].set_index("judge")
    outputs = sorted(frame["output_id"].unique())
    draws = resampling.weights(len(outputs), n_boot, np.random.default_rng(seed))
    for judge, rows in frame.groupby("judge"):
        reps = []
        for w in draws:
            data = pd.concat(
                [rows[rows["output_id"] == o] for o, k in zip(outputs, w) for _ in range(int(k))] or [rows.iloc[:0]]
            )
            reps.append((data["error_mark"] == "Error").mean() if len(data) else np.nan)
        reps = np.array(reps, float)
        low, high = np.quantile(reps[~np.isnan(reps)], [0.025, 0.975])
        assert result.loc[judge, "error_low"] == pytest.approx(low)
        assert result.loc[judge, "error_high"] == pytest.approx(high)


def test_agreement_against_references(tiny, tmp_path):
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import fleiss_kappa

    agreement = pytest.importorskip("agreement.metrics")
    sheet = tmp_path / "review.xlsx"
    export(tiny, sheet)
    ann, bob = _plan(_key_of(sheet))
    _fill_xlsx(sheet, tmp_path / "ann.xlsx", ann, "ann")
    _fill_xlsx(sheet, tmp_path / "bob.xlsx", bob, "bob")
    frame, _ = read_reviews([tmp_path / "ann.xlsx", tmp_path / "bob.xlsx"])
    result = score(frame, n_boot=10)
    both = sorted(bob)
    a = [ann[r]["error_mark"] for r in both]
    b = [bob[r]["error_mark"] for r in both]
    counts = np.array([[(x == m) + (y == m) for m in S.ERROR_MARKS] for x, y in zip(a, b)], float)
    row = result["agreement"].set_index("field").loc["error_mark"]
    assert row["spans"] == len(both) and row["reviews"] == 2 * len(both)
    assert row["observed"] == pytest.approx(np.mean(np.array(a) == np.array(b)))
    assert row["cohen_kappa"] == pytest.approx(cohen_kappa_score(a, b, labels=S.ERROR_MARKS))
    assert row["fleiss_kappa"] == pytest.approx(fleiss_kappa(counts))
    assert row["gwet_ac1"] == pytest.approx(agreement.gwets_gamma(counts))
    pair = result["agreement_pairs"].set_index("field").loc["error_mark"]
    assert (pair["reviewer_a"], pair["reviewer_b"]) == ("ann", "bob")
    assert pair["cohen_kappa"] == pytest.approx(cohen_kappa_score(a, b))


def test_a_sheet_without_reviewer_column_names_the_reviewer_after_the_file(tiny, tmp_path):
    sheet = tmp_path / "review.csv"
    export(tiny, sheet, reviewer_column=False)
    ann, _ = _plan(_key_of(sheet))
    _fill_csv(sheet, tmp_path / "carla.csv", ann, None)
    frame, _ = read_reviews([tmp_path / "carla.csv"], key=S.key_path(sheet))
    # without initials a row is reviewed where it differs from the pre-fill: a pre-filled
    # "No span given" left as it is, without explanation or comment, is not
    key = _key_of(sheet)
    changed = {
        r
        for r, marks_ in ann.items()
        if marks_["error_mark"] != key["rows"][r]["prefilled"].get("error_mark", "") or marks_["explanation_mark"]
    }
    assert set(frame["reviewer"]) == {"carla"} and set(frame["row_id"]) == changed and len(changed) == len(ann) - 1


def test_unreviewed_rows_are_counted_not_scored(tiny, tmp_path):
    sheet = tmp_path / "review.xlsx"
    export(tiny, sheet)
    key = _key_of(sheet)
    some = dict(list(_plan(key)[0].items())[:4])
    _fill_xlsx(sheet, tmp_path / "ann.xlsx", some, "ann")
    frame, problems = read_reviews(tmp_path / "ann.xlsx")
    assert len(frame) == 4
    (warn,) = problems
    assert warn.kind == "not-reviewed" and warn.message.startswith(f"{len(key['rows']) - 4} of {len(key['rows'])}")


def test_semicolon_csv_and_header_notes_are_read(tiny, tmp_path):
    """A CSV saved by a spreadsheet in a locale with ';' as separator still reads; lines are the
    file's lines (the notes counted)."""
    sheet = tmp_path / "review.csv"
    export(tiny, sheet)
    ann, _ = _plan(_key_of(sheet))
    _fill_csv(sheet, tmp_path / "ann.csv", ann, "ann", delimiter=";")
    frame, _ = read_reviews([tmp_path / "ann.csv"], key=S.key_path(sheet))
    assert len(frame) == len(ann)
    lines = (tmp_path / "ann.csv").read_text().splitlines()
    for _, row in frame.iterrows():
        assert lines[row["line"] - 1].split(";")[1] == row["row_id"]


def test_damaged_sheets_report_every_problem_at_once(tiny, tmp_path):
    """Two files, five defects: an unknown category, a missing error mark and a missing
    explanation in the xlsx; a foreign row and a changed span text in the csv."""
    xlsx, csv_sheet = tmp_path / "review.xlsx", tmp_path / "review-csv.csv"
    export(tiny, xlsx)
    export(tiny, csv_sheet)
    key = _key_of(xlsx)
    ann, _ = _plan(key)
    rids = sorted(ann)
    ordinary = [r for r in rids if not key["rows"][r]["prefilled"]]
    bad = dict(ann)
    bad[ordinary[0]] = {"error_mark": "Eror", "explanation_mark": "Correct"}
    bad[ordinary[1]] = {"error_mark": "", "explanation_mark": "Correct"}
    bad[ordinary[2]] = {"error_mark": "Error", "explanation_mark": ""}
    _fill_xlsx(xlsx, tmp_path / "ann.xlsx", bad, "ann")
    lines = csv_sheet.read_text().splitlines(keepends=True)
    notes = [line for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(lines[len(notes) :]))
    for row in rows:
        row.update(ann[row["row_id"]], reviewer="bob")
    rows[0]["row_id"] = "R999"
    rows[1]["text"] = rows[1]["text"] + " (edited)"
    with (tmp_path / "bob.csv").open("w", newline="") as f:
        f.writelines(notes)
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(CorpusError) as caught:
        read_reviews([tmp_path / "ann.xlsx", tmp_path / "bob.csv"], key=S.key_path(xlsx))
    line_of = {r["row_id"]: i for i, r in enumerate(_xlsx_rows(xlsx), 2)}
    found = {(Path(p.file).name, p.line, p.field) for p in caught.value.problems}
    first = len(notes) + 2  # the csv's first row: after the notes and the header
    assert found == {
        ("ann.xlsx", line_of[ordinary[0]], "error_mark"),
        ("ann.xlsx", line_of[ordinary[1]], "error_mark"),
        ("ann.xlsx", line_of[ordinary[2]], "explanation_mark"),
        ("bob.csv", first, "row_id"),
        ("bob.csv", first + 1, "text"),
    }
    assert "'Eror' is not one of" in str(caught.value) and "5 errors" in str(caught.value)


def test_sheets_that_cannot_be_read(tiny, tmp_path):
    sheet = tmp_path / "review.xlsx"
    export(tiny, sheet)
    (tmp_path / "broken.xlsx").write_bytes(b"not a zip")
    (tmp_path / "latin.csv").write_bytes("row_id,text\nR001,caf\xe9\n".encode("latin-1"))
    with pytest.raises(CorpusError) as caught:
        read_reviews(
            [tmp_path / "broken.xlsx", tmp_path / "latin.csv", tmp_path / "missing.csv"], key=S.key_path(sheet)
        )
    messages = {Path(p.file).name: p.message for p in caught.value.problems}
    assert "xlsx workbook" in messages["broken.xlsx"]
    assert "not UTF-8" in messages["latin.csv"]
    assert messages["missing.csv"] == "no such file"
    with pytest.raises(CorpusError, match="no key file"):
        read_reviews([tmp_path / "elsewhere" / "x.csv"])
    # a column dropped from the header
    wb = openpyxl.load_workbook(sheet)
    wb["spans"].delete_cols(S.sheet_columns(NEUTRAL).index("error_mark") + 1)
    wb.save(tmp_path / "nocol.xlsx")
    with pytest.raises(CorpusError, match="error_mark: column missing"):
        read_reviews([tmp_path / "nocol.xlsx"], key=S.key_path(sheet))


def test_a_sheet_of_another_export_is_refused(tiny, tmp_path):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    export(tiny, tmp_path / "one" / "review.xlsx")
    export(tiny, tmp_path / "two" / "review.csv", judges=["judge-beta"])
    with pytest.raises(CorpusError, match="this sheet is of export"):
        read_reviews([tmp_path / "two" / "review.csv"], key=S.key_path(tmp_path / "one" / "review.xlsx"))
    with pytest.raises(CorpusError, match="come from 2 exports"):
        read_reviews([tmp_path / "one" / "review.xlsx", tmp_path / "two" / "review.csv"])


def test_the_same_reviewer_twice_on_a_row_is_an_error(tiny, tmp_path):
    sheet = tmp_path / "review.xlsx"
    export(tiny, sheet)
    ann, _ = _plan(_key_of(sheet))
    _fill_xlsx(sheet, tmp_path / "a1.xlsx", ann, "ann")
    _fill_xlsx(sheet, tmp_path / "a2.xlsx", ann, "ann")
    with pytest.raises(CorpusError, match="reviewed by ann before"):
        read_reviews([tmp_path / "a1.xlsx", tmp_path / "a2.xlsx"], key=S.key_path(sheet))


# ---------------------------------------------------------------------------------------------
# the command


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hotelcheckspan")
    review_command.add_parser(parser.add_subparsers(dest="command", required=True))
    return parser


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    return args.func(args)


def test_command_export_and_score(tiny, tmp_path, capsys):
    root = write_tiny(tmp_path / "corpus")
    out = tmp_path / "sheet.xlsx"
    assert _run(["review", "export", str(root), "-o", str(out), "--seed", "2"]) == 0
    said = capsys.readouterr().out
    assert "11 span rows (3 outputs, 3 judges" in said and str(S.key_path(out)) in said
    ann, _ = _plan(_key_of(out))
    _fill_xlsx(out, tmp_path / "ann.xlsx", ann, "ann")
    assert (
        _run(["review", "score", str(tmp_path / "ann.xlsx"), "--key", str(S.key_path(out)), "--json", "--n-boot", "50"])
        == 0
    )
    text = capsys.readouterr().out

    def refuse(constant):
        raise AssertionError(f"not strict JSON: {constant}")

    data = json.loads(text, parse_constant=refuse)
    assert data["settings"]["command"] == "review score" and data["settings"]["resamples"] == 50  # what it ran with
    assert data["summary"]["reviews"] == len(ann)
    assert {r["judge"] for r in data["judges"]} == set(JUDGES)
    assert {r["flag"] for r in data["flags"]} == {S.FLAGS[f] for f in NEUTRAL}  # no aspect flag off HotelCheckSpan
    assert data["agreement"] == [] or all(r["cohen_kappa"] is None for r in data["agreement"])
    assert _run(["review", "score", str(tmp_path / "ann.xlsx"), "--n-boot", "50"]) == 0
    assert "== judges" in capsys.readouterr().out


def test_command_sample_and_bad_input(tmp_path, capsys):
    root = write_tiny(tmp_path / "corpus")
    assert _run(["review", "export", str(root), "-o", str(tmp_path / "s.csv"), "--sample", "5"]) == 0
    assert "stratified sample of 5 spans" in capsys.readouterr().out
    with pytest.raises(ValueError, match="no LLM judge 'nope'"):
        _run(["review", "export", str(root), "--judges", "nope", "-o", str(tmp_path / "n.xlsx")])
    with pytest.raises(ValueError, match="is not a corpus folder"):
        _run(["review", "export", str(tmp_path / "none"), "-o", str(tmp_path / "n.xlsx")])
    with pytest.raises(ValueError, match="--sample must be a positive"):
        _run(["review", "export", str(root), "--sample", "0", "-o", str(tmp_path / "n.xlsx")])
    with pytest.raises(ValueError, match="nothing to score"):
        _run(["review", "score", str(tmp_path / "s.csv")])
    with pytest.raises(CorpusError):
        _run(["review", "score", str(tmp_path / "nothing.csv"), "--key", str(S.key_path(tmp_path / "s.csv"))])


def _wired() -> bool:
    """Whether ``hotelcheckspan review`` exists (``--help`` exits 0 then, 2 for an unknown command)."""
    import contextlib
    import io

    from hotelcheckspan import cli

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            cli.build_parser().parse_args(["review", "--help"])
        except SystemExit as done:
            return done.code == 0
    return False


@pytest.mark.skipif(not _wired(), reason="the integrator has not added review to hotelcheckspan.cli yet")
def test_main_cli_reports_bad_input_on_one_line(tmp_path, capsys):
    from hotelcheckspan import cli

    root = write_tiny(tmp_path / "corpus")
    assert cli.main(["review", "export", str(root), "-o", str(tmp_path / "r.ods")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("hotelcheckspan review:") and len(err.strip().splitlines()) == 1
    assert cli.main(["review", "export", str(root), "-o", str(tmp_path / "r.xlsx")]) == 0


# ---------------------------------------------------------------------------------------------
# the sheet's rules (issue 34): no key replaced unasked, marks that agree, values exactly as the
# sheet lists them, flags that follow the corpus


def test_export_never_replaces_an_earlier_export_unasked(tiny, tmp_path):
    out = tmp_path / "r.csv"
    first = export(tiny, out, judges=["judge-alpha"])
    kept = {f: f.read_bytes() for f in (out, tmp_path / "r.outputs.csv", tmp_path / "r.key.json")}
    with pytest.raises(ValueError) as caught:
        export(tiny, out)
    said = str(caught.value)
    assert "\n" not in said and "force=True" in said and all(str(f) in said for f in kept)
    # an xlsx of the same base name would write the same key: refused, naming the key alone
    with pytest.raises(ValueError) as caught:
        export(tiny, tmp_path / "r.xlsx")
    assert str(tmp_path / "r.key.json") in str(caught.value) and str(tmp_path / "r.xlsx") not in str(caught.value)
    assert not (tmp_path / "r.xlsx").exists()
    assert all(f.read_bytes() == data for f, data in kept.items())  # nothing touched
    # a key left alone is refused too (its sheet may have been moved away to be filled)
    out.unlink()
    with pytest.raises(ValueError, match="r.outputs.csv and .*r.key.json exist"):
        export(tiny, out)
    second = export(tiny, out, force=True)
    assert second.export_id != first.export_id and _key_of(out)["export_id"] == second.export_id


def test_command_refuses_to_replace_a_key_on_one_line(tmp_path, run):
    root = write_tiny(tmp_path / "corpus")
    out = tmp_path / "r.xlsx"
    assert run("review", "export", root, "-o", out, "--judges", "judge-alpha")[0] == 0
    key = S.key_path(out).read_bytes()
    code, said, err = run("review", "export", root, "-o", out)
    assert code == 1 and said == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("hotelcheckspan review:") and str(S.key_path(out)) in err and "--force" in err
    assert S.key_path(out).read_bytes() == key
    code, said, _ = run("review", "export", root, "-o", out, "--force")
    assert code == 0 and len(_key_of(out)["evaluators"]) == len(JUDGES)


def _broken(error: str, explanation: str, implicit: bool) -> set[str]:
    """The columns the study's guidelines find wrong on a reviewed row, written out plainly: an
    explanation is required unless no span was given; a span that is "Not an error" has the
    explanation "Not an error" ("the error span and the explanation do not address an error"),
    and an Error's explanation is not that; "Implicit span" is for a span not given."""
    wrong = set()
    if explanation == "" and error != "No span given":
        wrong.add("explanation_mark")
    if error == "Not an error" and explanation not in ("", "Not an error"):
        wrong.add("explanation_mark")
    if error == "Error" and explanation == "Not an error":
        wrong.add("explanation_mark")
    if implicit and error != "No span given":
        wrong.add("flag_implicit_span")
    return wrong


def _csv_lines(path: Path) -> dict[str, int]:
    """row_id -> its line in a CSV sheet (the file's own lines, notes counted)."""
    return {line.split(",")[1]: i for i, line in enumerate(path.read_text().splitlines(), 1) if line.startswith("O")}


def test_marks_must_agree_every_combination(tiny, tmp_path):
    """Every error mark x explanation mark (or none) x Implicit span, each on one reviewed row
    (six reviewers' CSV sheets hold the 56 rows): the rows the guidelines find wrong are reported,
    every one at once, by file, line and column; the others are read as they were filled."""
    sheet = tmp_path / "review.csv"
    export(tiny, sheet)
    rids = sorted(_key_of(sheet)["rows"])
    line_of = _csv_lines(sheet)
    combos = list(itertools.product(S.ERROR_MARKS, ["", *S.EXPLANATION_MARKS], [False, True]))
    expected, good, files = set(), [], []
    for k in range(0, len(combos), len(rids)):
        out = tmp_path / f"r{k}.csv"
        plan = {}
        for rid, (error, explanation, implicit) in zip(rids, combos[k : k + len(rids)]):
            plan[rid] = {"error_mark": error, "explanation_mark": explanation, "flag_implicit_span": "Yes" * implicit}
            wrong = _broken(error, explanation, implicit)
            expected |= {(out.name, line_of[rid], col) for col in wrong}
            if not wrong:
                good.append((f"r{k}", rid, error, explanation, implicit))
        _fill_csv(sheet, out, plan, f"r{k}")
        files.append(out)
    with pytest.raises(CorpusError) as caught:
        read_reviews(files, key=S.key_path(sheet))
    assert {(Path(p.file).name, p.line, p.field) for p in caught.value.problems} == expected
    assert len(caught.value.problems) == len(expected)  # each once
    # the consistent rows alone read back as filled
    for k, out in enumerate(files):
        keep = {rid for who, rid, *_ in good if who == out.stem}
        rows = list(csv.DictReader([x for x in out.read_text().splitlines() if not x.startswith("#")]))
        plan = {r["row_id"]: {c: r[c] for c in ("error_mark", "explanation_mark", "flag_implicit_span")} for r in rows}
        _fill_csv(sheet, out, {rid: plan[rid] for rid in keep}, out.stem)
    frame, _ = read_reviews(files, key=S.key_path(sheet))
    got = {
        (
            r.reviewer,
            r.row_id,
            r.error_mark,
            "" if pd.isna(r.explanation_mark) else r.explanation_mark,
            r.flag_implicit_span,
        )
        for r in frame.itertuples()
    }
    assert got == set(good)


def test_an_inconsistent_workbook_names_sheet_and_cell(tiny, tmp_path, run):
    sheet = tmp_path / "review.xlsx"
    export(tiny, sheet)
    key = _key_of(sheet)
    ordinary = [r for r in sorted(key["rows"]) if not key["rows"][r]["prefilled"]]
    plan = {
        ordinary[0]: {"error_mark": "Not an error", "explanation_mark": "Correct"},  # the user's case
        ordinary[1]: {"error_mark": "Error", "explanation_mark": "Not an error"},
        ordinary[2]: {"error_mark": "Error", "explanation_mark": "Vague", "flag_implicit_span": "Yes"},
        ordinary[3]: {"error_mark": "Not an error", "explanation_mark": "Not an error"},  # fine
    }
    _fill_xlsx(sheet, tmp_path / "ann.xlsx", plan, "ann")
    header = [c.value for c in openpyxl.load_workbook(tmp_path / "ann.xlsx")["spans"][1]]
    letter = {c: openpyxl.utils.get_column_letter(header.index(c) + 1) for c in header}
    row = {r["row_id"]: i for i, r in enumerate(_xlsx_rows(sheet), 2)}
    code, said, err = run("review", "score", tmp_path / "ann.xlsx", "--n-boot", "20")
    assert code == 1 and said == "" and "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[0] == "hotelcheckspan review: 3 errors in the review sheets:"
    wanted = [
        (ordinary[0], "explanation_mark"),
        (ordinary[1], "explanation_mark"),
        (ordinary[2], "flag_implicit_span"),
    ]
    for (rid, col), line in zip(wanted, lines[1:]):
        where = f"{tmp_path / 'ann.xlsx'}:{row[rid]}: {col}: sheet 'spans', cell {letter[col]}{row[rid]}:"
        assert line.startswith(where), line
        assert rid in line
    assert "'Correct' with error_mark 'Not an error'" in lines[1]


def _notes_of(path: Path) -> list[str]:
    """The sheet's own instructions: sheet 'about' of a workbook, the leading '# ' lines of a CSV."""
    if path.suffix == ".xlsx":
        return [r[0] for r in openpyxl.load_workbook(path)["about"].iter_rows(values_only=True)]
    return [line[2:] for line in path.read_text().splitlines() if line.startswith("# ")]


def _listed(notes: list[str]) -> dict[str, list[str]]:
    """Review column -> the values the instructions list for it (blank aside)."""
    out = {}
    for line in notes:
        if m := re.fullmatch(r"(error_mark|explanation_mark) \([^)]*\): (.+)", line):
            out[m.group(1)] = m.group(2).split(" | ")
        elif m := re.fullmatch(r"(flag_\w+) \([^)]*\): (\w+) or blank: .+", line):
            out[m.group(1)] = [m.group(2)]
    return out


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_values_exactly_as_the_sheet_lists_them(tiny, tmp_path, fmt, run):
    """The sheet's instructions (and its drop-down lists) and the reader agree: every value
    listed reads, with spaces around it; another spelling of one ("yes", "Y", "no", "error")
    is an error naming file, line and column, all at once, and its message names the value meant."""
    sheet = tmp_path / f"review.{fmt}"
    export(tiny, sheet)
    listed = _listed(_notes_of(sheet))
    assert set(listed) == {"error_mark", "explanation_mark", *NEUTRAL}
    assert all(listed[f] == ["Yes"] for f in NEUTRAL)
    assert any("exactly as listed" in n and "letter case too" in n for n in _notes_of(sheet))
    if fmt == "xlsx":
        ws = openpyxl.load_workbook(sheet)["spans"]
        header = [c.value for c in ws[1]]
        drop = {
            header[openpyxl.utils.column_index_from_string(str(dv.sqref)[0]) - 1]: dv.formula1
            for dv in ws.data_validations.dataValidation
        }
        assert drop == {col: '"' + ",".join(values) + '"' for col, values in listed.items()}
    fill = _fill_xlsx if fmt == "xlsx" else _fill_csv
    rids = sorted(_key_of(sheet)["rows"])
    # every listed value, in consistent pairs, some with spaces around it
    errors_ = listed["error_mark"]
    pairs = [("Error", x) for x in listed["explanation_mark"] if x != "Not an error"]
    pairs += [("Not an error", "Not an error"), ("Hallucination", "Not an error"), ("No span given", "")]
    plan = {}
    for i, (rid, (e, x)) in enumerate(zip(rids, pairs)):
        plan[rid] = {"error_mark": f" {e} " if i % 3 == 0 else e, "explanation_mark": x}
        plan[rid] |= {f: (" Yes" if i % 2 else "Yes") for f in NEUTRAL if f != "flag_implicit_span"}
    assert {p["error_mark"].strip() for p in plan.values()} == set(errors_)
    fill(sheet, tmp_path / f"ann.{fmt}", plan, "ann")
    frame, _ = read_reviews([tmp_path / f"ann.{fmt}"], key=S.key_path(sheet))
    got = frame.set_index("row_id")
    for rid, p in plan.items():
        assert got.loc[rid, "error_mark"] == p["error_mark"].strip()
        assert (pd.isna(got.loc[rid, "explanation_mark"]) and p["explanation_mark"] == "") or (
            got.loc[rid, "explanation_mark"] == p["explanation_mark"]
        )
        assert got.loc[rid, "flag_too_strict"]
    # other spellings: each an error, all at once
    bad_values = [
        ("flag_too_strict", "Y", None),
        ("flag_repeated", "no", "leave a flag blank"),
        ("flag_hard_to_parse", "yes", "write 'Yes'"),
        ("flag_not_faithfulness", "TRUE", None),
        ("flag_too_strict", "x", None),
        ("error_mark", "error", "write 'Error'"),
        ("error_mark", "not  an error", "write 'Not an error'"),
        ("explanation_mark", "correct", "write 'Correct'"),
    ]
    bad = {}
    for rid, (col, value, _) in zip(rids, bad_values):
        bad[rid] = {"error_mark": "Error", "explanation_mark": "Vague", col: value}
    fill(sheet, tmp_path / f"bob.{fmt}", bad, "bob")
    line_of = {r["row_id"]: i for i, r in enumerate(_xlsx_rows(sheet), 2)} if fmt == "xlsx" else _csv_lines(sheet)
    with pytest.raises(CorpusError) as caught:
        read_reviews([tmp_path / f"bob.{fmt}"], key=S.key_path(sheet))
    problems = caught.value.problems
    assert {(Path(p.file).name, p.line, p.field) for p in problems} == {
        (f"bob.{fmt}", line_of[rid], col) for rid, (col, _, _) in zip(rids, bad_values)
    }
    for rid, (col, value, hint) in zip(rids, bad_values):
        (p,) = [p for p in problems if p.line == line_of[rid]]
        assert repr(value) in p.message and (hint is None or hint in p.message), p.message
    # the same, through the command: every problem, no traceback
    code, said, err = run("review", "score", tmp_path / f"bob.{fmt}", "--key", S.key_path(sheet))
    assert code == 1 and said == "" and "Traceback" not in err
    assert err.splitlines()[0] == f"hotelcheckspan review: {len(bad_values)} errors in the review sheets:"
    assert len(err.strip().splitlines()) == 1 + len(bad_values)


def test_flags_follow_the_corpus(tiny, toy, tmp_path):
    """HotelCheckSpan's aspect flag only on a HotelCheckSpan sheet (the corpus has its four human
    sets, stage 1 and 2, groups A and B: the toy corpus does, the tiny d2t-like one has none, and
    the toy without its stage-2 campaign lacks two)."""
    import toy as toy_corpus

    d2t, hotel = tmp_path / "d2t.xlsx", tmp_path / "hotel.xlsx"
    export(tiny, d2t)
    export(toy, hotel)
    for path, flags in ((d2t, NEUTRAL), (hotel, [*NEUTRAL[:2], "flag_not_aspect_related", *NEUTRAL[2:]])):
        wb = openpyxl.load_workbook(path)
        header = [c.value for c in wb["spans"][1]]
        assert [c for c in header if c.startswith("flag_")] == flags
        assert list(_key_of(path)["flags"]) == flags
        assert list(_listed(_notes_of(path))) == ["error_mark", "explanation_mark", *flags]
    wb = openpyxl.load_workbook(d2t)
    everything = " ".join(str(v) for ws in wb for row in ws.iter_rows(values_only=True) for v in row if v)
    comments = " ".join(c.comment.text for c in wb["spans"][1] if c.comment)
    assert "aspect" not in (everything + comments).lower()
    # the hotel sheet's outputs name each summary's aspect
    outputs = openpyxl.load_workbook(hotel)["outputs"]
    head = [c.value for c in outputs[1]]
    assert head == ["output_id", "dataset", "split", "setup_id", "example_idx", "aspect", "text", "source"]
    for values in outputs.iter_rows(min_row=2, values_only=True):
        row = dict(zip(head, values))
        assert row["aspect"] == toy_corpus.EXAMPLES[row["example_idx"]][1]
    # without its stage-2 humans the toy corpus is no HotelCheckSpan: the study's flags only
    root = toy_corpus.write(tmp_path / "toy")
    shutil.rmtree(root / "annotations" / "human" / "stage2")
    export(load_corpus(root), tmp_path / "partial.csv")
    assert list(_key_of(tmp_path / "partial.csv")["flags"]) == NEUTRAL


def test_the_aspect_flag_is_scored_on_a_hotelcheckspan_sheet(toy, tmp_path, run):
    out = tmp_path / "hotel.csv"
    assert run("review", "export", toy.root, "-o", out)[0] == 0
    key = _key_of(out)
    rids = sorted(key["rows"])
    aspect = {rids[0], rids[2]}  # two of the four spans off the summary's aspect
    plan = {
        rid: {"error_mark": "Not an error", "explanation_mark": "Not an error"}
        | ({"flag_not_aspect_related": "Yes"} if rid in aspect else {})
        for rid in rids
    }
    _fill_csv(out, tmp_path / "ann.csv", plan, "ann")
    code, said, err = run("review", "score", tmp_path / "ann.csv", "--json", "--n-boot", "20")
    assert code == 0, err
    flags = [r for r in json.loads(said)["flags"] if r["flag"] == "Not aspect related"]
    judge_of = {rid: key["evaluators"][spec["evaluator"]] for rid, spec in key["rows"].items()}
    for judge in set(judge_of.values()):
        mine = [r for r in rids if judge_of[r] == judge]
        (row,) = [r for r in flags if r["judge"] == judge]
        assert row["share"] == pytest.approx(np.mean([r in aspect for r in mine]))
    # every flag of the sheet is scored (a d2t sheet's: test_command_export_and_score)
    labels = {r["flag"] for r in json.loads(said)["flags"]}
    assert labels == {S.FLAGS[f] for f in [*NEUTRAL, "flag_not_aspect_related"]}


def test_a_key_of_the_earlier_format_is_refused(tiny, tmp_path):
    sheet = tmp_path / "review.csv"
    export(tiny, sheet)
    key = _key_of(sheet)
    del key["flags"]
    S.key_path(sheet).write_text(json.dumps(key | {"format": "hotelcheckspan-review-key/1"}))
    with pytest.raises(CorpusError, match="format 'hotelcheckspan-review-key/1'.*export again"):
        read_reviews([sheet])
