"""The SemEval-2013 boundary schemes equal nervaluate 1.2.1's counts and P/R/F1: on small
hand cases, on random spans (overlapping, repeated, long), on every Table 6 pair of the bundled
corpus and on every human-group-vs-LLM pair of the real corpus."""

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import hotelcheckspan
from hotelcheckspan import corpora, paths
from hotelcheckspan.analyses import span_level
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import boundaries as B
from hotelcheckspan.metrics.span_f1 import _order

nervaluate = pytest.importorskip("nervaluate")

NAMES = {"strict": "strict", "exact": "exact", "partial": "partial", "ent_type": "ent_type"}


def theirs(ref: pd.DataFrame, hyp: pd.DataFrame, examples: pd.DataFrame, categories: list[str]) -> dict:
    """nervaluate's results on the same spans: one document per example, entities in order,
    ends made inclusive."""

    def docs(spans):
        spans = spans.iloc[_order(spans)]
        by_ex = {}
        for row in spans.itertuples(index=False):
            by_ex.setdefault(tuple(getattr(row, k) for k in KEY), []).append(
                {"label": row.type, "start": int(row.start), "end": int(row.end) - 1}
            )
        return [by_ex.get(tuple(k), []) for k in examples[KEY].itertuples(index=False)]

    ev = nervaluate.Evaluator(docs(ref), docs(hyp), tags=categories, loader="dict")
    return ev.evaluate()


def assert_equal(ref, hyp, examples, categories):
    ours = B.boundary_scores(ref, hyp, examples, by_type=True, categories=categories).set_index(["scheme", "category"])
    res = theirs(ref, hyp, examples, categories)
    for scheme in B.SCHEMES:
        want = res["overall"][NAMES[scheme]]
        got = ours.loc[(scheme, "all")]
        for k in (*B.COUNTS, "actual", "possible"):
            assert int(got[k]) == getattr(want, k), (scheme, k)
        for k in ("precision", "recall", "f1"):
            assert got[k] == pytest.approx(getattr(want, k), abs=1e-12), (scheme, k)
        per_type = res["entities"]
        assert {c for c in ours.loc[scheme].index if c != "all"} == set(per_type)
        for cat, by_scheme in per_type.items():
            want, got = by_scheme[NAMES[scheme]], ours.loc[(scheme, cat)]
            for k in (*B.COUNTS, "precision", "recall", "f1"):
                assert got[k] == pytest.approx(getattr(want, k), abs=1e-12), (scheme, cat, k)


def frame(spans: list[tuple]) -> pd.DataFrame:
    """(example, start, end, type) -> a span frame in that order."""
    rows = [
        {"dataset": "d", "split": "s", "setup_id": "x", "example_idx": ex, "record_id": 0, "order": i}
        | {"start": s, "end": e, "type": t}
        for i, (ex, s, e, t) in enumerate(spans)
    ]
    return pd.DataFrame(rows, columns=[*KEY, "record_id", "order", "start", "end", "type"])


def examples(n):
    return pd.DataFrame([("d", "s", "x", i) for i in range(n)], columns=KEY)


def test_hand_cases():
    # one example: an exact match, a shifted span of another type, a spurious and a missed one
    ref = frame([(0, 0, 10, "A"), (0, 20, 30, "A"), (0, 50, 60, "B")])
    hyp = frame([(0, 0, 10, "A"), (0, 22, 30, "B"), (0, 80, 90, "A")])
    got = B.boundary_scores(ref, hyp, examples(1)).set_index("scheme")
    assert got.loc["strict", list(B.COUNTS)].tolist() == [1, 1, 0, 1, 1]
    assert got.loc["exact", list(B.COUNTS)].tolist() == [1, 1, 0, 1, 1]
    assert got.loc["partial", list(B.COUNTS)].tolist() == [1, 0, 1, 1, 1]
    assert got.loc["ent_type", list(B.COUNTS)].tolist() == [1, 1, 0, 1, 1]
    assert got.loc["partial", "precision"] == pytest.approx(1.5 / 3)
    # a repeated hypothesis span finds its reference taken: incorrect (strict), spurious without overlap left
    rep = B.boundary_scores(frame([(0, 0, 10, "A")]), frame([(0, 0, 10, "A"), (0, 0, 10, "A")]), examples(1))
    assert rep.set_index("scheme").loc["strict", list(B.COUNTS)].tolist() == [1, 0, 0, 0, 1]
    # nervaluate's overlap is a share of the reference span: 1 of 150 characters is below 1 %
    far = B.boundary_scores(frame([(0, 0, 150, "A")]), frame([(0, 149, 160, "A")]), examples(1))
    assert far.set_index("scheme").loc["ent_type", list(B.COUNTS)].tolist() == [0, 0, 0, 1, 1]
    assert_equal(ref, hyp, examples(1), ["A", "B"])


span = st.tuples(st.integers(0, 3), st.integers(0, 160), st.integers(1, 130), st.sampled_from("ABC"))


@given(st.lists(span, max_size=12), st.lists(span, max_size=12))
def test_random_spans_equal_nervaluate(ref, hyp):
    ref = frame([(ex, s, s + n, t) for ex, s, n, t in ref])
    hyp = frame([(ex, s, s + n, t) for ex, s, n, t in hyp])
    if ref.empty and hyp.empty:
        return
    assert_equal(ref, hyp, examples(4), ["A", "B", "C"])


def test_every_table6_pair_of_the_bundled_corpus_equals_nervaluate():
    corpus = corpora.load()
    n = 0
    for _, _, _, ref, hyp, ex in span_level.iter_pairs(corpus):
        assert_equal(ref, hyp, ex, corpus.categories)
        n += 1
    assert n == 26


REAL = paths.REAL_CORPUS / "annotations"


@pytest.mark.slow
def test_every_human_group_vs_llm_pair_of_the_real_corpus_equals_nervaluate():
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    human = corpus.records[corpus.records["kind"] == "human"]
    models = corpus.campaigns("model")
    for group in sorted(human["annotator_group"].unique()):
        ref_rec = human[human["annotator_group"] == group]
        spans = corpus.spans
        ref = spans[(spans["campaign"] == ref_rec["campaign"].iloc[0]) & (spans["annotator_group"] == group)]
        for model in models:
            hyp = corpus.spans[corpus.spans["campaign"] == model]
            hyp_rec = corpus.records[corpus.records["campaign"] == model]
            ex = ref_rec[KEY].drop_duplicates().merge(hyp_rec[KEY].drop_duplicates(), on=KEY)
            assert_equal(ref, hyp, ex, corpus.categories)
