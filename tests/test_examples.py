"""Example-level agreement, pinned on small hand-computed cases."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import balanced_accuracy_score, cohen_kappa_score

from hotelcheckspan.analyses import example_level as E
from hotelcheckspan.analyses import span_level as S
from hotelcheckspan.categories import CATEGORIES
from hotelcheckspan.corpora import KEY, load

NC, MIS, INC = CATEGORIES


def key(i):
    return {"dataset": "d", "split": "short", "setup_id": "s", "example_idx": i}


def marks_frame(table: dict) -> pd.DataFrame:
    """{rater: {example: set of types}} -> marks frame."""
    rows = []
    for rater, per_ex in table.items():
        for i, types in per_ex.items():
            row = key(i) | {"rater": rater} | {t: t in types for t in CATEGORIES}
            row[E.ANY] = bool(types)
            rows.append(row)
    return pd.DataFrame(rows)


FOUR = marks_frame(
    {
        "r1": {0: {NC}, 1: set(), 2: {MIS}, 3: {INC}},
        "r2": {0: {NC}, 1: set(), 2: {MIS, NC}, 3: set()},
        "r3": {0: {NC}, 1: {MIS}, 2: {MIS}, 3: set()},
        "r4": {0: set(), 1: set(), 2: {NC}, 3: set()},
    }
)


def test_votes_and_vote_table():
    v = E.votes(FOUR).set_index("example_idx")
    assert v.loc[0, NC] == 3 and v.loc[2, MIS] == 3 and v.loc[2, NC] == 2 and v.loc[3, INC] == 1
    assert v[E.ANY].tolist() == [3, 1, 4, 1] and (v["raters"] == 4).all()
    t = E.vote_table(E.votes(FOUR)).set_index("votes")
    assert t[E.ANY].tolist() == [0, 2, 0, 1, 1]
    assert t[NC].tolist() == [2, 0, 1, 1, 0] and t[f"{NC} %"].sum() == pytest.approx(100)


def test_majority_keeps_only_clear_cases():
    maj = E.majority(E.votes(FOUR)).set_index("example_idx")
    assert maj.loc[0, NC] is True or maj.loc[0, NC] == True  # noqa: E712  3 of 4
    assert pd.isna(maj.loc[2, NC])  # 2-2 tie
    assert maj.loc[1, E.ANY] == False and maj.loc[2, E.ANY] == True  # noqa: E712


def test_alignment_paradox_model_that_never_marks():
    maj = E.majority(E.votes(FOUR))
    silent = marks_frame({"m": {i: set() for i in range(4)}})
    a = E.alignment(maj, silent).set_index("label")
    # Any: clear cases are 0 (error, 3-1), 1 (no error, 1-3), 2 (error, 4-0), 3 (no error): 2 of 4 right
    assert a.loc[E.ANY, "examples"] == 4 and a.loc[E.ANY, "agreement"] == 0.5
    assert a.loc[E.ANY, "bacc"] == 0.5 and a.loc[E.ANY, "kappa"] == 0.0 and a.loc[E.ANY, "recall_error"] == 0.0
    # Incorrect: every example is clearly error-free, so a silent model is 'perfect'
    assert a.loc[INC, "agreement"] == 1.0 and a.loc[INC, "majority_errors"] == 0


def test_count_based_replicates_equal_sklearn():
    rng = np.random.default_rng(1)
    for _ in range(50):
        truth, pred = rng.random(30) < rng.random(), rng.random(30) < rng.random()
        counts = np.array([(truth & pred).sum(), (truth & ~pred).sum(), (~truth & pred).sum(), (~truth & ~pred).sum()])
        got = E._from_counts(counts.astype(float))
        assert got["agreement"] == pytest.approx((truth == pred).mean())
        if truth.all() or not truth.any():  # one class: the recall of that class
            assert got["bacc"] == pytest.approx((truth == pred).mean())
        if len(np.unique(np.r_[truth, pred])) == 2 and truth.any() and (~truth).any():
            assert got["bacc"] == pytest.approx(balanced_accuracy_score(truth, pred))
        if not np.isnan(got["kappa"]):
            assert got["kappa"] == pytest.approx(cohen_kappa_score(truth, pred))


def test_alignment_from_counts_equals_sklearn_to_the_bit():
    """alignment() sums confusion counts; its BACC and kappa are scikit-learn's own numbers."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 40))
        truth, pred = rng.random(n) < rng.random(), rng.random(n) < rng.random()
        maj = pd.DataFrame({"dataset": "d", "split": "s", "setup_id": "x", "example_idx": range(n), E.ANY: truth})
        maj[E.ANY] = maj[E.ANY].astype("boolean")
        model = maj[KEY].assign(rater="m", **{E.ANY: pred})
        got = E.alignment(maj, model).set_index("label").loc[E.ANY]
        assert got["agreement"] == (truth == pred).mean()
        if truth.any() and (~truth).any():
            assert got["bacc"] == balanced_accuracy_score(truth, pred)
        if len(np.unique(np.r_[truth, pred])) == 2:
            assert got["kappa"] == cohen_kappa_score(truth, pred)
        else:
            assert np.isnan(got["kappa"])


def test_reliability_perfect_and_chance():
    perfect = marks_frame({r: {0: {NC}, 1: set(), 2: {NC}, 3: set()} for r in ("a", "b", "c")})
    rel = E.reliability(perfect).set_index("label")
    assert rel.loc[NC, "fleiss_kappa"] == pytest.approx(1.0) and rel.loc[NC, "krippendorff_alpha"] == pytest.approx(1.0)
    assert np.isnan(rel.loc[INC, "fleiss_kappa"])  # nobody ever marks Incorrect: undefined, not 1
    # hand computation for FOUR / Any: votes 3,1,4,1 of 4 -> Fleiss' kappa
    n, k = 4, 4
    ones = np.array([3, 1, 4, 1])
    p = ones.sum() / (n * k)
    pi = ((ones * (ones - 1) + (k - ones) * (k - ones - 1)) / (k * (k - 1))).mean()
    pe = p**2 + (1 - p) ** 2
    assert E.reliability(FOUR).set_index("label").loc[E.ANY, "fleiss_kappa"] == pytest.approx((pi - pe) / (1 - pe))


def test_bootstraps_are_seeded_and_bracket_the_estimate():
    maj = E.majority(E.votes(FOUR))
    model = marks_frame({"m": {0: {NC}, 1: set(), 2: {MIS}, 3: set()}})
    a, b = E.alignment_ci(maj, model, n_boot=300, seed=4), E.alignment_ci(maj, model, n_boot=300, seed=4)
    pd.testing.assert_frame_equal(a, b)
    ok = a.dropna()
    assert ((ok["low"] <= ok["estimate"] + 1e-9) & (ok["estimate"] <= ok["high"] + 1e-9)).all()
    r = E.reliability_ci(FOUR, n_boot=100, seed=0)
    assert set(r["measure"]) == {"fleiss_kappa", "krippendorff_alpha", "gwet_ac1", "positive_share"}


def test_marks_from_a_corpus_match_its_spans():
    c = load()
    m = E.marks(c, ["stage1/A"])
    spans = c.spans[(c.spans["campaign"] == "stage1") & (c.spans["annotator_group"] == 0)]
    assert len(m) == 496
    assert int(m[E.ANY].sum()) == spans[KEY].drop_duplicates().shape[0]
    assert int(m[INC].sum()) == spans.loc[spans["type"] == INC, KEY].drop_duplicates().shape[0]
    # a category that would overwrite a column of the frame, or given twice, is refused
    for categories in ([INC, "split"], [INC, "rater"], [INC, "raters"], [INC, E.ANY], [INC, INC]):
        with pytest.raises(ValueError, match="distinct and not named as a column"):
            E.marks(c, ["stage1/A"], categories=categories)


def test_comparisons_are_data_and_pairs_average_like_table6(tmp_path):
    c = load()
    spec = tmp_path / "comparisons.yaml"
    spec.write_text(
        "defaults: {examples: stage2}\ncomparisons:\n  - {name: mine, ref: [stage1/A, stage1/B], hyp: [gemma-3]}\n"
    )
    pairs, counts = S.pairwise(c, S.load_comparisons(spec))
    assert pairs["hyp"].unique().tolist() == ["gemma-3"] and len(pairs) == 4  # 2 pairs x hard/soft
    assert (pairs["examples"] == 245).all()
    t = S.table6(pairs, counts, n_boot=200, seed=0).set_index("match")
    hard = pairs[pairs["match"] == "hard"]
    assert t.loc["hard", "f1"] == pytest.approx(hard["f1"].mean())  # mean of per-pair F1, not F1 of means
    assert t.loc["hard", "f1_low"] <= t.loc["hard", "f1"] <= t.loc["hard", "f1_high"]
    assert (pairs.set_index("match").loc["soft", "f1"].to_numpy() >= hard["f1"].to_numpy()).all()
    with pytest.raises(ValueError, match="no records"):
        S.pairwise(c, [{"name": "x", "ref": ["stage9/A"], "hyp": ["gemma-3"]}])
    with pytest.raises(ValueError, match="neither a number nor a letter"):  # never silently pooled
        S.pairwise(c, [{"name": "x", "ref": ["stage1/?"], "hyp": ["gemma-3"]}])


def test_highlight_draws_spans_and_says_what_it_cannot():
    from hotelcheckspan.book import report

    summary = "Stay in the heart of Kyoto."
    spans = pd.DataFrame(
        {"start": [8, 12, 21], "end": [26, 17, 26], "type": ["Misleading", "Incorrect", NC], "reason": ["", "why", ""]}
    )
    html = report._marked(summary, spans, report.highlight_palette())
    assert html.count("<mark") == 1 and "the heart of Kyoto</mark>" in html
    # the two spans inside the drawn one are listed with their reason, each saying it is not drawn
    assert html.count("(overlaps a span above, not drawn)") == 2 and "</em> why</li>" in html


def test_resampling_weights_and_interval():
    from hotelcheckspan.metrics import resampling

    w = resampling.weights(5, 200, np.random.default_rng(0))
    assert w.shape == (200, 5) and (w.sum(axis=1) == 5).all()
    assert resampling.weights(0, 3, np.random.default_rng(0)).shape == (3, 0)
    low, high = resampling.interval(np.r_[np.arange(101.0), np.nan], 0.9)
    assert (low, high) == pytest.approx((5.0, 95.0))  # NaN replicates (undefined statistic) are ignored
    assert all(np.isnan(resampling.interval([np.nan], 0.95)))


def test_exact_recall_interval_for_few_majority_errors():
    low, high = E.recall_interval([0, 1, 3], [1, 4, 0])
    assert low[0] == 0 and high[0] == pytest.approx(0.975)  # 0 of 1: (1 - 0.025) upper bound, by hand
    assert low[1] == pytest.approx(0.0063, abs=1e-4) and high[1] == pytest.approx(0.8059, abs=1e-4)
    assert np.isnan(low[2]) and np.isnan(high[2])
    assert E.with_interval([0.6391, np.nan], [0.52, 0.1], [0.7549, 0.2]) == ["0.64 [0.52, 0.75]", "–"]
    # a bound that rounds to zero is zero, not "-0.00" (chapter 08's alpha on Incoherent); -0.01 keeps its sign
    assert E.with_interval([0.30, -0.001], [-0.004, -0.012], [0.44, 0.0]) == ["0.30 [0.00, 0.44]", "0.00 [-0.01, 0.00]"]


def test_alignment_summary_is_a_readers_table():
    c = load()
    stage2 = c.examples[c.examples["split"] == "short"]
    llm = E.models_vs_majority(c, ["gemma-3"], examples=stage2, n_boot=50, seed=0)
    summary = E.alignment_summary(llm)
    assert list(summary.index) == list(range(len(summary))) and len(summary) == len(E.ALIGNMENT_ROWS)
    assert all(c == c.strip() and "_" not in c for c in summary.columns)
    assert summary["majority errors"].dtype.kind == "i"
    row = llm.set_index("label").loc[E.ANY]
    got = summary.set_index("error type").loc[E.ANY, "recall on majority errors [95% CI]"]
    assert got == f"{row['recall_error']:.2f} [{row['recall_exact_low']:.2f}, {row['recall_exact_high']:.2f}]"
    hits = round(row["recall_error"] * row["majority_errors"])
    assert row["recall_exact_low"] < hits / row["majority_errors"] < row["recall_exact_high"]


def test_vote_distance_by_hand():
    table = pd.DataFrame({"votes": [0, 1, 2], **{t: [2, 1, 1] for t in E.LABELS}})
    reported = {t: [1, 1, 2] for t in E.LABELS}  # shares .5 .25 .25 against .25 .25 .5
    d = E.vote_distance(table, reported)
    assert d["distance"].tolist() == pytest.approx([0.25] * len(E.LABELS))
    assert d["examples"].tolist() == [4] * len(E.LABELS)


def test_standin_figure_origin(tmp_path, monkeypatch):
    from hotelcheckspan.book import tables
    from hotelcheckspan.reference import provenance as P

    path = tmp_path / "standin_provenance.yaml"
    assert P.load(path) == {}
    path.write_text(
        "table3_llm_campaigns:\n  input: true\n  reason: counts\n  avg_len: {input: false, reason: x}\n"
        "llm_majority_alignment: {tuned: after a first look, reason: y}\n"
    )
    assert P.kind("table5_example_level_votes/Any", path=path) == "calibrated"  # a loss term, whatever the file
    assert P.kind("table3_llm_campaigns/gemma-3/total", path=path) == "set"
    assert P.kind("table3_llm_campaigns/gemma-3/avg_len", path=path) == "emergent"  # a column's entry
    assert P.kind("llm_majority_alignment/gpt-4o/any", path=path) == "tuned"
    assert P.kind("clustering/k_chosen", path=path) == "emergent"
    with pytest.raises(KeyError):
        P.declared("clustering", path=path)
    bad = tmp_path / "bad.yaml"
    bad.write_text("table6:\n  status: guessed\n")
    with pytest.raises(ValueError, match="bad.yaml: table6: status must be one of"):
        P.load(bad)
    c = load()
    frame = pd.DataFrame({"measure": ["a", "b"]})
    marked = tables.mark(frame, ["table5_example_level_votes/Any", "llm_majority_alignment"], c)
    assert c.simulated and marked["Figure is"].tolist() == ["calibrated", "tuned"]
    monkeypatch.setattr(type(c), "simulated", property(lambda self: False), raising=False)
    assert "Figure is" not in tables.mark(frame, "clustering", c).columns
