"""The span-F1 definitions (metric x convention): hand-computed cases, and exactness to the May
2025 factgenie script and to a span-by-span reference (property-based)."""

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from span_reference import MAY2025, may2025_f1, per_span
from test_spans import EXAMPLES, frame, nonzero, side_st

from hotelcheckspan import cli
from hotelcheckspan.analyses import span_level
from hotelcheckspan.categories import CATEGORIES
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import span_f1 as S

INC, MIS, NC = "Incorrect", "Misleading", "Not Checkable"


def fast(ref, hyp, examples, **kw) -> dict:
    counts = S.per_example(frame(ref), frame(hyp), pd.DataFrame(examples, columns=KEY), categories=CATEGORIES, **kw)
    sums = counts.groupby("category")[S.COUNT_COLUMNS].sum()
    return {c: {k: int(v) for k, v in row.items()} for c, row in sums.iterrows()}


def table(ref, hyp, examples=None, by_type=False, **kw) -> pd.DataFrame:
    examples = examples or sorted(set(ref) | set(hyp)) or EXAMPLES[:1]
    return S.span_f1(
        frame(ref), frame(hyp), pd.DataFrame(examples, columns=KEY), categories=CATEGORIES, by_type=by_type, **kw
    ).set_index("category")


def prf(t, cat="all"):
    return tuple(round(float(t.loc[cat, m]), 4) for m in ("precision", "recall", "f1"))


# --- hand-computed cases -----------------------------------------------------------------------

A, B = EXAMPLES[0], EXAMPLES[1]
# example A: both sides mark; example B: only the reference marks
REF = {A: [(0, 10, MIS)], B: [(0, 30, NC)]}
HYP = {A: [(5, 15, MIS), (20, 24, INC)]}


def test_the_four_definitions_by_hand():
    # char, both (factgenie 1.2.1): overlap 5, hyp length 14, ref length 10 (B's 30 not counted)
    assert prf(table(REF, HYP, match="hard", metric="char", convention="both")) == (
        round(5 / 14, 4),
        0.5,
        round(2 * (5 / 14) * 0.5 / (5 / 14 + 0.5), 4),
    )
    # char, either: B's 30 reference characters join the recall denominator
    t = table(REF, HYP, match="hard", metric="char", convention="either")
    assert prf(t)[:2] == (round(5 / 14, 4), round(5 / 40, 4))
    # char-greedy (May 2025): same as char here (no side has overlapping spans)
    assert prf(table(REF, HYP, match="hard", metric="char-greedy")) == prf(t)
    # span (paper's prose): 1 of 2 hypothesis spans overlaps a reference; 1 of 2 reference spans found
    assert prf(table(REF, HYP, match="hard", metric="span")) == (0.5, 0.5, 0.5)
    # soft does not change these (the Incorrect span overlaps nothing)
    assert prf(table(REF, HYP, match="soft", metric="span")) == (0.5, 0.5, 0.5)


def test_span_metric_hard_needs_the_type_soft_does_not():
    ref, hyp = {A: [(0, 10, MIS)]}, {A: [(8, 12, NC), (30, 31, NC)]}
    assert prf(table(ref, hyp, match="hard", metric="span")) == (0, 0, 0)
    assert prf(table(ref, hyp, match="soft", metric="span")) == (0.5, 1.0, round(2 * 0.5 / 1.5, 4))
    # per category: hypothesis NC spans, one of two overlapping; the MIS reference span found (soft)
    t = table(ref, hyp, match="soft", metric="span", by_type=True)
    assert prf(t, NC)[:1] == (0.5,) and prf(t, MIS)[1] == 1.0
    # touching is not overlapping
    assert prf(table({A: [(0, 10, MIS)]}, {A: [(10, 12, MIS)]}, match="hard", metric="span")) == (0, 0, 0)


def test_greedy_credits_duplicates_in_full_char_does_not():
    ref, hyp = {A: [(0, 4, INC)]}, {A: [(0, 4, INC), (0, 4, INC)]}
    char = table(ref, hyp, match="hard", metric="char")
    greedy = table(ref, hyp, match="hard", metric="char-greedy")
    assert (char.loc["all", "overlap"], char.loc["all", "recall"]) == (4, 1.0)
    assert (greedy.loc["all", "overlap"], greedy.loc["all", "precision"], greedy.loc["all", "recall"]) == (8, 1.0, 2.0)


def test_greedy_hard_first_claim_fixes_the_type():
    # overlapping references of two types; the first hypothesis span (NC) claims 2-5 for NC, so
    # the later MIS hypothesis span gets credit only at 0-2 where no NC reference is
    ref = {A: [(0, 5, MIS), (2, 8, NC)]}
    hyp = {A: [(2, 8, NC), (0, 5, MIS)]}
    greedy = table(ref, hyp, match="hard", metric="char-greedy", by_type=True)
    assert (greedy.loc[NC, "overlap"], greedy.loc[MIS, "overlap"]) == (6, 2)
    char = table(ref, hyp, match="hard", metric="char", by_type=True)
    assert (char.loc[NC, "overlap"], char.loc[MIS, "overlap"]) == (6, 5)


def test_conventions_old_names_and_defaults():
    both = table(REF, HYP, match="soft", metric="char", convention="both")
    assert prf(table(REF, HYP, match="soft", metric="char", convention="factgenie")) == prf(both)
    assert prf(table(REF, HYP, match="soft", metric="char")) == prf(both)  # char's own: both
    either = table(REF, HYP, match="soft", metric="char", convention="either")
    assert prf(table(REF, HYP, match="soft", metric="char", convention="all")) == prf(either)
    assert either.loc["all", "ref_length"] == 40 and both.loc["all", "ref_length"] == 10
    # span, both: only example A's spans are counted
    assert prf(table(REF, HYP, match="hard", metric="span", convention="both"))[:2] == (0.5, 1.0)
    assert S.resolve("char-greedy") == ("char-greedy", "either") and S.resolve("span") == ("span", "either")


def test_bad_definitions_are_named():
    with pytest.raises(ValueError, match="metric must be"):
        table(REF, HYP, metric="token")
    with pytest.raises(ValueError, match="convention must be"):
        table(REF, HYP, convention="neither")
    with pytest.raises(ValueError, match="consistent"):
        table(REF, HYP, metric="char-greedy", match="soft", by_type=True, per_category="consistent")


@pytest.mark.parametrize("metric", S.METRICS)
def test_bootstrap_works_for_every_definition(metric):
    rng = np.random.default_rng(1)
    ref = {ex: [(0, int(rng.integers(2, 9)), INC), (12, 15, MIS)] for ex in EXAMPLES}
    hyp = {ex: [(int(rng.integers(0, 4)), 8, INC)] for ex in EXAMPLES[:3]}
    counts = S.per_example(frame(ref), frame(hyp), pd.DataFrame(EXAMPLES, columns=KEY), metric=metric)
    ci = S.bootstrap(counts, n_boot=300, seed=2)
    assert ((ci["low"] <= ci["estimate"] + 1e-12) & (ci["estimate"] <= ci["high"] + 1e-12)).all()
    assert (ci["high"] - ci["low"]).max() > 0


def test_span_table_scores_like_frames():
    """The once-per-corpus encoding gives the same counts as encoding each pair's frames."""
    rng = np.random.default_rng(0)
    rows = [
        dict(zip(KEY, ex))
        | {
            "record_id": rec,
            "order": i,
            "start": s,
            "end": s + int(rng.integers(1, 9)),
            "type": CATEGORIES[int(rng.integers(0, 3))],
            "campaign": camp,
        }
        for rec, (ex, camp) in enumerate((ex, camp) for ex in EXAMPLES for camp in ("x", "y"))
        for i, s in enumerate(rng.integers(0, 30, size=int(rng.integers(0, 4))))
    ]
    spans = pd.DataFrame(rows)
    examples = pd.DataFrame(EXAMPLES[:3], columns=KEY)
    enc = S.SpanTable(spans, pd.DataFrame(EXAMPLES, columns=KEY), CATEGORIES)
    codes = enc.codes(examples)
    for metric in S.METRICS:
        arr = S.count_arrays(
            enc.side(spans["campaign"] == "x"),
            enc.side(spans["campaign"] == "y"),
            enc.n_examples,
            len(CATEGORIES),
            "soft",
            metric,
        )[:, 0, codes]
        want = S.per_example(
            spans[spans["campaign"] == "x"],
            spans[spans["campaign"] == "y"],
            examples,
            match="soft",
            metric=metric,
            categories=CATEGORIES,
        )
        assert (arr.T == want[S.COUNT_COLUMNS].to_numpy()).all()


# --- properties ----------------------------------------------------------------------------------


@given(ref=side_st, hyp=side_st, match=st.sampled_from(["hard", "soft"]), conv=st.sampled_from(["both", "either"]))
def test_span_metric_equals_span_by_span_reference(ref, hyp, match, conv):
    examples = EXAMPLES[:3]
    want = per_span(ref, hyp, examples, match, conv)
    assert fast(ref, hyp, examples, match=match, metric="span", convention=conv)["all"] == want["all"]
    per_cat = fast(ref, hyp, examples, match=match, metric="span", convention=conv, by_type=True)
    assert nonzero(per_cat) == nonzero({c: v for c, v in want.items() if c != "all"})


def _check_against_script(ref, hyp, match, distinct_ids):
    examples = EXAMPLES[:3]
    theirs = may2025_f1(ref, hyp, examples, match, CATEGORIES, distinct_ids=distinct_ids)
    t = table(ref, hyp, examples, match=match, metric="char-greedy", convention="either", by_type=True)
    for m in ("precision", "recall", "f1"):
        assert round(float(t.loc["all", m]), 3) == theirs[m]
    assert (int(t.loc["all", "ref_count"]), int(t.loc["all", "hyp_count"])) == (
        theirs["ref_count"],
        theirs["hyp_count"],
    )
    if t.loc["all", "ref_count"] and t.loc["all", "hyp_count"]:
        per_cat = t.iloc[1:]
        for idx, c in theirs["categories"].items():
            mine = per_cat.loc[CATEGORIES[idx]]
            assert tuple(round(float(mine[m]), 3) for m in ("precision", "recall", "f1")) == (
                c["precision"],
                c["recall"],
                c["f1"],
            )


@pytest.mark.skipif(MAY2025 is None, reason="the May 2025 factgenie script is not in ../shared/reference")
@given(ref=side_st, hyp=side_st, match=st.sampled_from(["hard", "soft"]))
def test_greedy_equals_may2025_script_with_distinct_ids(ref, hyp, match):
    """Any input, overlapping and duplicate spans included, when each reference row keeps its own id."""
    _check_against_script(ref, hyp, match, distinct_ids=True)


def _disjoint(spans: list) -> list:
    """Drop spans that overlap an earlier kept one (a record without overlaps)."""
    kept = []
    for s in sorted(spans):
        if not kept or s[0] >= kept[-1][1]:
            kept.append(s)
    return kept


@pytest.mark.skipif(MAY2025 is None, reason="the May 2025 factgenie script is not in ../shared/reference")
@given(
    ref=side_st.map(lambda d: {ex: _disjoint(v) for ex, v in d.items()}),
    hyp=side_st.map(lambda d: {ex: _disjoint(v) for ex, v in d.items()}),
    match=st.sampled_from(["hard", "soft"]),
)
def test_greedy_equals_may2025_script_as_it_runs_where_no_side_overlaps_itself(ref, hyp, match):
    """The script as it runs (with CPython's id()): exact whenever no two spans of one side
    overlap within an example, as in any single annotator's record without overlaps."""
    _check_against_script(ref, hyp, match, distinct_ids=False)


@pytest.mark.skipif(MAY2025 is None, reason="the May 2025 factgenie script is not in ../shared/reference")
def test_may2025_script_as_run_depends_on_row_ids_where_a_side_repeats_a_span():
    """A repeated hypothesis span: credited twice with one id per reference row (char-greedy),
    once or twice as the script runs, depending on whether CPython reuses the row's address."""
    ref, hyp = {A: [(0, 4, INC)]}, {A: [(0, 4, INC), (0, 4, INC)]}
    assert may2025_f1(ref, hyp, [A], "hard", CATEGORIES, distinct_ids=True)["recall"] == 2.0
    assert prf(table(ref, hyp, match="hard", metric="char-greedy"))[:2] == (1.0, 2.0)
    assert may2025_f1(ref, hyp, [A], "hard", CATEGORIES)["recall"] in (1.0, 2.0)


def _campaign(folder, records):
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(
        "annotation_span_categories:\n- {name: Incorrect}\n- {name: Misleading}\n"
        "- {name: Not Checkable}\nannotation_overlap_allowed: false\n"
    )
    lines = [
        json.dumps(
            {
                "dataset": "d",
                "split": "short",
                "setup_id": "s",
                "example_idx": i,
                "annotations": [{"type": t, "start": s, "text": "x" * n} for s, n, t in spans],
            }
        )
        for i, spans in enumerate(records)
    ]
    (folder / "annotations.jsonl").write_text("\n".join(lines) + "\n")
    return str(folder / "annotations.jsonl")


@pytest.mark.parametrize(
    "metric, convention, want",
    [
        # example 0: ref MIS 0-10, hyp MIS 5-15 and INC 20-24; example 1: ref NC 0-30, hyp nothing
        ("char", None, (5 / 14, 5 / 10)),
        ("char", "both", (5 / 14, 5 / 10)),
        ("char", "factgenie", (5 / 14, 5 / 10)),
        ("char", "either", (5 / 14, 5 / 40)),
        ("char", "all", (5 / 14, 5 / 40)),
        ("char-greedy", None, (5 / 14, 5 / 40)),
        ("char-greedy", "both", (5 / 14, 5 / 10)),
        ("span", None, (1 / 2, 1 / 2)),
        ("span", "both", (1 / 2, 1 / 1)),
    ],
)
def test_cli_f1_every_definition_by_hand(tmp_path, capsys, metric, convention, want):
    ref = _campaign(tmp_path / "ref", [[(0, 10, 1)], [(0, 30, 2)]])
    hyp = _campaign(tmp_path / "hyp", [[(5, 10, 1), (20, 4, 0)], []])
    args = ["f1", ref, hyp, "--json", "--metric", metric] + (["--convention", convention] if convention else [])
    assert cli.main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["precision"], out["recall"]) == pytest.approx(want)
    assert out["f1"] == pytest.approx(2 * want[0] * want[1] / (want[0] + want[1]))
    assert cli.main(["f1", ref, hyp, "--metric", metric]) == 0
    assert f"{metric} metric" in capsys.readouterr().out


def test_worked_example_of_the_methods_page_every_definition():
    """book/methods.md works this example by hand under every definition."""
    ref = {A: [(5, 26, MIS)]}
    hyp = {A: [(12, 26, NC), (28, 40, MIS)]}
    for metric in ("char", "char-greedy"):
        assert prf(table(ref, hyp, match="hard", metric=metric)) == (0, 0, 0)
        assert tuple(round(x, 2) for x in prf(table(ref, hyp, match="soft", metric=metric))) == (0.54, 0.67, 0.6)
    assert tuple(round(x, 2) for x in prf(table(ref, hyp, match="soft", metric="span"))) == (0.5, 1.0, 0.67)
    assert prf(table(ref, hyp, match="hard", metric="span")) == (0, 0, 0)
    ref2 = ref | {B: [(0, 30, MIS)]}
    assert prf(table(ref2, hyp, [A, B], match="soft", convention="both"))[:2] == (round(14 / 26, 4), round(14 / 21, 4))
    assert round(prf(table(ref2, hyp, [A, B], match="soft", convention="either"))[1], 2) == 0.27
    assert prf(table(ref2, hyp, [A, B], match="soft", metric="span"))[1] == 0.5


# --- the evidence of chapter 04, on toy figures ---------------------------------------------------


def test_reachable_means_of_span_precision():
    # eight pairs, four with one hypothesis span and four with four: means are multiples of 1/32
    assert span_level.reachable_means([1] * 4 + [4] * 4, 0.20) == (False, 6 / 32)
    assert span_level.reachable_means([1] * 4 + [4] * 4, 0.62) == (True, 20 / 32)
    assert span_level.reachable_means([3], 0.33) == (True, 1 / 3)


def test_hard_soft_ratio_check_flags_a_pair_that_no_definition_gives():
    figures = {
        "table6_span_level": {
            "bad": {"P_H": 0.22, "R_H": 0.19, "F1_H": 0.15, "P_S": 0.33, "R_S": 0.24, "F1_S": 0.28},
            "good": {"P_H": 0.10, "R_H": 0.10, "F1_H": 0.10, "P_S": 0.29, "R_S": 0.28, "F1_S": 0.28},
        }
    }
    comps = [{"name": "bad", "ref": ["a"], "hyp": ["b"]}, {"name": "good", "ref": ["a"], "hyp": ["b"]}]
    t = span_level.hard_soft_ratio_check(figures, comps).set_index("comparison")
    assert not t.loc["bad", "ranges meet"] and not t.loc["bad", "F1_H between precision and recall"]
    assert t.loc["good", "ranges meet"] and t.loc["good", "F1_H between precision and recall"]
    assert t.loc["bad", "range (hard)"] == f"{0.215 / 0.195:.2f}-{0.225 / 0.185:.2f}"


def test_implied_recall_by_hand():
    figures = {
        "table6_span_level": {"c": {"P_S": 0.5, "R_S": 0.1}},
        "table3_llm_campaigns": {"gemma-3": {"avg_len": 4, "spans_per_error_record": 1.0}},
        "table4_dataset_level_stage2_subset": {"St. 1A": {"total": 100}, "gemma-3": {"total": 50}},
        "dataset": {"span_words": {"mean": 2}, "spans_per_error_record": 2.0, "summary_words": {"max": 20}},
    }
    row = span_level.implied_recall(figures, [{"name": "c", "ref": ["stage1/A"], "hyp": ["gemma-3"]}]).iloc[0]
    assert row["R (every example)"] == pytest.approx(0.5 * (50 * 4) / (100 * 2))
    # a span of SHORTEST_SPAN_CHARS characters against a whole summary of 20 words of SUMMARY_CHARS_PER_WORD
    assert span_level.SHORTEST_SPAN_CHARS == 2 and span_level.SUMMARY_CHARS_PER_WORD == 9
    assert row["R floor (both marked)"] == pytest.approx(0.5 * 2 / (9 * 20))
    assert row["R (both marked, typical)"] == pytest.approx(0.5 * (1 * 4) / (2 * 2))


def test_self_overlaps_counts_examples_where_a_set_overlaps_itself():
    spans = pd.DataFrame(
        [
            dict(zip(KEY, ex)) | {"campaign": camp, "annotator_group": 0, "start": s, "end": e}
            for ex, camp, s, e in [
                (A, "x", 0, 5),
                (A, "x", 3, 8),
                (B, "x", 0, 5),
                (B, "x", 5, 8),
                (B, "y", 0, 5),
                (B, "y", 1, 2),
            ]
        ]
    )
    corpus = SimpleNamespace(spans=spans)
    assert span_level.self_overlaps(corpus, [{"name": "c", "ref": ["x"], "hyp": ["y"]}]) == 2
    assert span_level.self_overlaps(corpus, [{"name": "c", "ref": ["x"], "hyp": ["x"]}]) == 1


def test_definitions_table_on_the_bundled_corpus(corpus):
    c = corpus
    comps = [{"name": "Human - LLM (O3-Mini)", "ref": ["stage1/A"], "hyp": ["gemma-3"], "examples": "stage2"}]
    defs = span_level.definitions(c, comps, n_boot=50)
    assert defs["definition"].tolist() == [label for label, *_ in S.DEFINITIONS for _ in ("hard", "soft")]
    pairs, _ = span_level.pairwise(c, comps, metric="span", convention="either")
    got = defs[defs["metric"] == "span"].set_index("match")["f1"]
    assert got.to_dict() == pytest.approx(pairs.set_index("match")["f1"].to_dict())
    wide = span_level.definitions_versus(
        defs, {"table6_span_level": {"Human - LLM (O3-Mini)": {"F1_H": 0.02, "F1_S": 0.05}}}
    )
    assert wide.columns.tolist() == ["Comparison", "Match", "paper", *[label for label, *_ in S.DEFINITIONS]]
    assert wide["paper"].tolist() == [0.02, 0.05]
    pairs, counts = span_level.pairwise(c, comps)
    t6 = span_level.table6(pairs, counts, n_boot=50)
    compact = span_level.compact_table6(t6, {"table6_span_level": {}})
    assert compact.columns.tolist() == [
        "Comparison",
        "span F1, hard",
        "paper span F1, hard",
        "span F1, soft",
        "paper span F1, soft",
    ]
    hard = t6.set_index("match").loc["hard"]
    assert compact.loc[0, "span F1, hard"] == f"{hard['f1']:.2f} [{hard['f1_low']:.2f}, {hard['f1_high']:.2f}]"
    assert compact.loc[0, "paper span F1, hard"] == "not in the paper"
