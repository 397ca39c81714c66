"""The fast span metric equals factgenie's algorithm on any input (property-based)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from span_reference import FACTGENIE, factgenie_f1, per_character

from hotelcheckspan.annotator_sets import AnnotatorSet
from hotelcheckspan.categories import CATEGORIES
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import span_f1 as S

EXAMPLES = [("d", "short", "s", i) for i in range(4)]
span_st = st.tuples(st.integers(0, 20), st.integers(1, 8), st.sampled_from(CATEGORIES)).map(
    lambda t: (t[0], t[0] + t[1], t[2])
)
side_st = st.dictionaries(st.sampled_from(EXAMPLES), st.lists(span_st, max_size=5), max_size=4)


def frame(side: dict) -> pd.DataFrame:
    rows = [
        dict(zip(KEY, ex)) | {"record_id": 0, "order": i, "start": s, "end": e, "type": t}
        for ex, spans in side.items()
        for i, (s, e, t) in enumerate(spans)
    ]
    return pd.DataFrame(rows, columns=KEY + ["record_id", "order", "start", "end", "type"])


def fast(ref, hyp, examples, **kw) -> dict:
    counts = S.per_example(frame(ref), frame(hyp), pd.DataFrame(examples, columns=KEY), categories=CATEGORIES, **kw)
    sums = counts.groupby("category")[S.COUNT_COLUMNS].sum()
    return {c: {k: int(v) for k, v in row.items()} for c, row in sums.iterrows()}


def nonzero(d: dict) -> dict:
    return {c: v for c, v in d.items() if any(v.values())}


def soft_per_category(ref, hyp, examples):
    """Soft per-category scores as factgenie computes them and with the consistent definition."""
    return tuple(
        S.scores(
            S.per_example(
                frame(ref), frame(hyp), examples, match="soft", by_type=True, per_category=pc, categories=CATEGORIES
            )
        ).set_index("category")
        for pc in ("factgenie", "consistent")
    )


@given(
    ref=side_st,
    hyp=side_st,
    match=st.sampled_from(["hard", "soft"]),
    convention=st.sampled_from(["factgenie", "all"]),
    per_category=st.sampled_from(["factgenie", "consistent"]),
)
def test_fast_equals_per_character_reference(ref, hyp, match, convention, per_category):
    examples = EXAMPLES[:3]
    want = per_character(ref, hyp, examples, match, convention, per_category)
    overall = fast(ref, hyp, examples, match=match, convention=convention)
    assert overall["all"] == want["all"]
    per_cat = fast(ref, hyp, examples, match=match, convention=convention, by_type=True, per_category=per_category)
    assert nonzero(per_cat) == nonzero({c: v for c, v in want.items() if c != "all"})


@pytest.mark.skipif(FACTGENIE is None, reason="factgenie is not installed (make test installs it)")
@given(ref=side_st, hyp=side_st, match=st.sampled_from(["hard", "soft"]))
def test_fast_equals_factgenie_compute_f1_scores(ref, hyp, match):
    if not any(ref.values()) and not any(hyp.values()):
        return  # factgenie itself fails on an empty span index
    examples = EXAMPLES[:3]
    theirs = factgenie_f1(ref, hyp, examples, match, CATEGORIES)
    ours = fast(ref, hyp, examples, match=match)["all"]
    assert (ours["overlap"], ours["hyp_length"], ours["ref_length"], ours["hyp_count"], ours["ref_count"]) == (
        theirs["overlap_length"],
        theirs["hyp_length"],
        theirs["ref_length"],
        theirs["hyp_count"],
        theirs["ref_count"],
    )
    table = S.scores(S.per_example(frame(ref), frame(hyp), pd.DataFrame(examples, columns=KEY), match=match))
    for m in ("precision", "recall", "f1"):
        assert round(float(table[m].iloc[0]), 3) == theirs[m]
    per_cat = fast(ref, hyp, examples, match=match, by_type=True)
    for idx, cat in enumerate(CATEGORIES):
        if idx in theirs["categories"]:
            c = theirs["categories"][idx]
            mine = per_cat.get(cat, dict.fromkeys(S.COUNT_COLUMNS, 0))
            assert (mine["overlap"], mine["hyp_length"], mine["ref_length"]) == (
                c["overlap_length"],
                c["hyp_length"],
                c["ref_length"],
            )


def one(ref, hyp, **kw):
    ex = sorted(set(ref) | set(hyp)) or EXAMPLES[:1]
    return S.scores(S.per_example(frame(ref), frame(hyp), pd.DataFrame(ex, columns=KEY), **kw)).iloc[0]


def test_duplicate_hypothesis_spans_add_length_but_no_credit():
    ex = EXAMPLES[0]
    single = one({ex: [(0, 4, "Incorrect")]}, {ex: [(0, 4, "Incorrect")]})
    double = one({ex: [(0, 4, "Incorrect")]}, {ex: [(0, 4, "Incorrect"), (0, 4, "Incorrect")]})
    assert (single["overlap"], single["hyp_length"], single["precision"]) == (4, 4, 1.0)
    assert (double["overlap"], double["hyp_length"], double["precision"]) == (4, 8, 0.5)
    assert double["recall"] == 1.0


def test_length_counted_only_where_both_sides_marked_by_default():
    a, b = EXAMPLES[0], EXAMPLES[1]
    ref = {a: [(0, 5, "Misleading")], b: [(0, 10, "Misleading")]}
    hyp = {a: [(0, 5, "Misleading")]}
    fg = one(ref, hyp, convention="factgenie")
    every = one(ref, hyp, convention="all")
    assert (fg["ref_length"], fg["recall"], fg["ref_count"]) == (5, 1.0, 2)
    assert (every["ref_length"], round(every["recall"], 4)) == (15, round(5 / 15, 4))


def test_hard_requires_type_soft_does_not():
    ex = EXAMPLES[0]
    ref, hyp = {ex: [(0, 6, "Misleading")]}, {ex: [(2, 6, "Not Checkable")]}
    assert one(ref, hyp, match="hard")["overlap"] == 0
    soft = one(ref, hyp, match="soft")
    assert (soft["overlap"], soft["precision"], round(soft["recall"], 4)) == (4, 1.0, round(4 / 6, 4))


def test_soft_per_category_factgenie_is_inconsistent_consistent_variant_is_not():
    ex = EXAMPLES[0]
    ref, hyp = {ex: [(0, 6, "Misleading")]}, {ex: [(0, 6, "Not Checkable")]}
    examples = pd.DataFrame([ex], columns=KEY)
    fg, cons = soft_per_category(ref, hyp, examples)
    # factgenie credits overlap to the hypothesis' category but divides recall by the reference's length
    assert fg.loc["Not Checkable", "overlap"] == 6 and fg.loc["Not Checkable", "ref_length"] == 0
    assert fg.loc["Not Checkable", "recall"] == 0 and fg.loc["Misleading", "recall"] == 0
    assert cons.loc["Not Checkable", "precision"] == 1.0 and cons.loc["Misleading", "recall"] == 1.0


def test_bootstrap_interval_contains_estimate_and_is_seeded():
    rng = np.random.default_rng(0)
    ref = {ex: [(0, int(rng.integers(2, 9)), "Incorrect")] for ex in EXAMPLES}
    hyp = {ex: [(int(rng.integers(0, 4)), 8, "Incorrect")] for ex in EXAMPLES}
    counts = S.per_example(frame(ref), frame(hyp), pd.DataFrame(EXAMPLES, columns=KEY))
    a, b = S.bootstrap(counts, n_boot=200, seed=3), S.bootstrap(counts, n_boot=200, seed=3)
    pd.testing.assert_frame_equal(a, b)
    assert ((a["low"] <= a["estimate"] + 1e-12) & (a["estimate"] <= a["high"] + 1e-12)).all()
    assert (a["high"] - a["low"]).max() > 0


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="match must be"):
        one({}, {}, match="fuzzy")
    with pytest.raises(ValueError, match="convention must be"):
        one({}, {}, convention="mine")


def test_worked_example_of_the_methods_page():
    """book/methods.md computes this example by hand; the package must agree."""
    ex = EXAMPLES[0]
    ref = {ex: [(5, 26, "Misleading")]}
    hyp = {ex: [(12, 26, "Not Checkable"), (28, 40, "Misleading")]}
    assert one(ref, hyp, match="hard")["f1"] == 0
    soft = one(ref, hyp, match="soft")
    assert (round(soft["precision"], 2), round(soft["recall"], 2), round(soft["f1"], 2)) == (0.54, 0.67, 0.60)
    examples = pd.DataFrame([ex], columns=KEY)
    fg, cons = soft_per_category(ref, hyp, examples)
    assert fg.loc["Misleading", "recall"] == 0 and fg.loc["Not Checkable", "recall"] == 0
    assert round(cons.loc["Misleading", "recall"], 2) == 0.67 and cons.loc["Not Checkable", "precision"] == 1.0


def test_pooled_annotator_set_is_one_side():
    """All groups of a campaign pooled: their spans are one reference, as factgenie does."""
    from hotelcheckspan import corpora as corpus

    c = corpus.load()
    rec_all, sp_all = AnnotatorSet.parse("stage1").require(c)
    rec_a, sp_a = AnnotatorSet.parse("stage1/A").require(c)
    rec_b, sp_b = AnnotatorSet.parse("stage1/B").require(c)
    _, hyp = AnnotatorSet.parse("gpt-4o").require(c)
    ex = rec_all[KEY].drop_duplicates()
    pooled = S.span_f1(sp_all, hyp, ex, match="soft").iloc[0]
    assert pooled["ref_count"] == len(sp_a) + len(sp_b)
    assert pooled["hyp_count"] == len(hyp)
