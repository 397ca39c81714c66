"""Sample size: constructed cases whose answer is known, and the weight-matrix computation
against naive loops that re-score each resample from scratch."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import balanced_accuracy_score
from statsmodels.stats.inter_rater import fleiss_kappa

from hotelcheckspan.analyses import example_level as E
from hotelcheckspan.analyses import sample_size as SS
from hotelcheckspan.annotator_sets import PAPER_NAMES, AnnotatorSet
from hotelcheckspan.categories import ANY
from hotelcheckspan.corpora import KEY, Corpus, load
from hotelcheckspan.metrics import span_f1 as F

N = 40  # examples of the constructed corpus
TRUE_SPAN = (10, 20)


def constructed(judges: dict[str, set[int]], n: int = N, wrong: dict[str, set[int]] | None = None) -> Corpus:
    """A corpus of ``n`` examples, each with one error at TRUE_SPAN that two reference sets
    ("ref/A", "ref/B") always mark. A judge marks the error on the examples it is given, and a
    span elsewhere (40-50) on the examples of ``wrong``."""
    wrong = wrong or {}
    examples = pd.DataFrame({"dataset": "d", "split": "s", "setup_id": "x", "example_idx": range(n)})
    records, spans = [], []

    def add(campaign, group, marked, misplaced=()):
        for i in range(n):
            rid = len(records)
            records.append(
                {
                    "record_id": rid,
                    "kind": "model" if group is None else "human",
                    "campaign": campaign,
                    "annotator_group": 0 if group is None else group,
                    **examples.iloc[i].to_dict(),
                }
            )
            for j, (start, end) in enumerate([TRUE_SPAN] * (i in marked) + [(40, 50)] * (i in misplaced)):
                spans.append(
                    {
                        "record_id": rid,
                        "campaign": campaign,
                        "annotator_group": records[-1]["annotator_group"],
                        **examples.iloc[i].to_dict(),
                        "order": j,
                        "start": start,
                        "end": end,
                        "type": "Incorrect",
                    }
                )

    add("ref", 0, set(range(n)))
    add("ref", 1, set(range(n)))
    for name, marked in judges.items():
        add(name, None, marked, wrong.get(name, ()))
    cols = ["record_id", "campaign", "annotator_group", *KEY, "order", "start", "end", "type"]
    return Corpus(Path("constructed"), examples, pd.DataFrame(records), pd.DataFrame(spans, columns=cols))


REFS = ["ref/A", "ref/B"]
GOOD = set(range(N)) - {3, 17, 29}  # finds 37 of the 40 errors


@pytest.fixture(scope="module")
def bundled():
    return load()


# --- weights ------------------------------------------------------------------------------------


def test_subset_weights_draw_each_example_at_most_once():
    w = SS.subset_weights(30, 12, 500, np.random.default_rng(0))
    assert w.shape == (500, 30) and set(np.unique(w)) <= {0.0, 1.0}
    assert (w.sum(axis=1) == 12).all()
    # every example equally likely: inclusion rate n/N
    assert np.allclose(w.mean(axis=0), 12 / 30, atol=0.08)


def test_bootstrap_weights_are_counts_summing_to_n_each_example_equally_likely():
    rng = np.random.default_rng(1)
    for n in (3, 75):  # few draws are counted one by one, many as one multinomial draw per row
        w = SS.bootstrap_weights(20, n, 2000, rng)
        assert w.shape == (2000, 20) and (w.sum(axis=1) == n).all() and (w >= 0).all()
        assert np.allclose(w.mean(axis=0), n / 20, rtol=0.1)
        # the count of one example is binomial(n, 1/20)
        assert np.var(w[:, 0]) == pytest.approx(n * (1 / 20) * (19 / 20), rel=0.15)


def test_subset_larger_than_corpus_is_refused():
    with pytest.raises(ValueError, match="n <= 10"):
        SS.subset_weights(10, 11, 5, np.random.default_rng(0))
    table = SS.judges_f1_table(constructed({"a": GOOD, "b": GOOD}), ["a", "b"], REFS)
    with pytest.raises(ValueError, match="replace=True"):
        SS.stability(table, [N + 1], 10)


# --- the matrix product equals re-scoring every resample ---------------------------------------


def test_span_f1_of_every_resample_equals_a_naive_loop(bundled):
    """Subsets: each resample re-scored with span_f1 on its examples; with replacement: the
    per-example rows repeated as drawn, summed and scored."""
    judges, refs = ["gpt-4o", "gemma-3"], ["stage2/A", "stage2/B"]
    ex = E.marks(bundled, ["stage2/A"])[KEY].drop_duplicates().reset_index(drop=True)
    for match in ("hard", "soft"):
        table = SS.judges_f1_table(bundled, judges, refs, ex, match=match)
        rng = np.random.default_rng(3)
        sub = SS.subset_weights(len(ex), 60, 5, rng)
        boot = SS.bootstrap_weights(len(ex), 60, 5, rng)
        fast_sub, fast_boot = table.resampled(sub), table.resampled(boot)
        for k, judge in enumerate(judges):
            hyp = AnnotatorSet.parse(judge).require(bundled)[1]
            ref_spans = [AnnotatorSet.parse(ref).require(bundled)[1] for ref in refs]
            for r in range(len(sub)):
                chosen = table.examples.loc[sub[r] > 0]
                f1 = np.mean(
                    [
                        F.span_f1(ref, hyp, chosen, match=match, convention=SS.DEFAULT_CONVENTION).iloc[0]["f1"]
                        for ref in ref_spans
                    ]
                )
                assert fast_sub[r, k] == pytest.approx(f1, abs=1e-12)
            per_ref = [
                F.per_example(ref, hyp, table.examples, match=match, convention=SS.DEFAULT_CONVENTION).merge(
                    table.examples, on=KEY
                )
                for ref in ref_spans
            ]
            for r in range(len(boot)):
                f1s = [F.scores(c.loc[c.index.repeat(boot[r].astype(int))]).iloc[0]["f1"] for c in per_ref]
                assert fast_boot[r, k] == pytest.approx(np.mean(f1s), abs=1e-12)


def test_balanced_accuracy_and_agreement_of_every_resample_equal_example_level(bundled):
    ex = E.marks(bundled, ["stage2/A"])[KEY].drop_duplicates().reset_index(drop=True)
    judges = ["gpt-4o", "o3-mini"]
    bacc = SS.majority_table(bundled, judges, examples=ex)
    agree = SS.majority_table(bundled, judges, examples=ex, measure="agreement")
    maj = E.majority(E.votes(E.marks(bundled, E.HUMAN_SETS, ex)))
    w = SS.subset_weights(len(ex), 80, 4, np.random.default_rng(4))
    fast_b, fast_a = bacc.resampled(w), agree.resampled(w)
    for k, judge in enumerate(judges):
        judge_marks = E.marks(bundled, [judge], ex)
        for r in range(len(w)):
            chosen = bacc.examples.loc[w[r] > 0]
            al = E.alignment(maj.merge(chosen, on=KEY), judge_marks.merge(chosen, on=KEY)).set_index("label")
            assert fast_b[r, k] == pytest.approx(al.loc[ANY, "bacc"], abs=1e-12)
            assert fast_a[r, k] == pytest.approx(al.loc[ANY, "agreement"], abs=1e-12)


def test_fleiss_kappa_of_every_resample_equals_statsmodels(bundled):
    marks = E.marks(bundled, E.HUMAN_SETS)
    table = SS.fleiss_table(marks)
    assert table.full()[0] == pytest.approx(E.reliability(marks).set_index("label").loc[ANY, "fleiss_kappa"])
    w = SS.bootstrap_weights(table.n_examples, 50, 10, np.random.default_rng(5))
    wide = marks.pivot_table(index=KEY, columns="rater", values=ANY, aggfunc="first").dropna().astype(int).to_numpy()
    for r, kappa in enumerate(table.resampled(w)[:, 0]):
        data = np.repeat(wide, w[r].astype(int), axis=0)
        ones = data.sum(axis=1)
        assert kappa == pytest.approx(fleiss_kappa(np.c_[data.shape[1] - ones, ones]), abs=1e-12)


def test_gwet_ac1_of_every_resample_equals_the_coefficient(bundled):
    from hotelcheckspan.metrics import coefficients

    marks = E.marks(bundled, E.HUMAN_SETS)
    table = SS.ac1_table(marks)
    assert table.full()[0] == pytest.approx(E.reliability(marks).set_index("label").loc[ANY, "gwet_ac1"])
    w = SS.bootstrap_weights(table.n_examples, 20, 10, np.random.default_rng(5))
    wide = marks.pivot_table(index=KEY, columns="rater", values=ANY, aggfunc="first").dropna().astype(int).to_numpy()
    for r, ac1 in enumerate(table.resampled(w)[:, 0]):
        data = np.repeat(wide, w[r].astype(int), axis=0)
        assert ac1 == pytest.approx(coefficients.gwet_ac1(coefficients.category_counts(data)), abs=1e-12)


def test_confusion_table_matches_sklearn_balanced_accuracy():
    rng = np.random.default_rng(6)
    truth = pd.Series(rng.random(50) < 0.4, dtype="boolean").mask(rng.random(50) < 0.2)
    pred = pd.Series(rng.random(50) < 0.5)
    ex = pd.DataFrame({"dataset": "d", "split": "s", "setup_id": "x", "example_idx": range(50)})
    table = SS.confusion_table(truth, {"m": pred}, ex)
    known = truth.notna().to_numpy()
    assert table.full()[0] == pytest.approx(balanced_accuracy_score(truth[known].astype(bool), pred[known]))


# --- constructed cases with known answers -------------------------------------------------------


@pytest.mark.parametrize("replace", [False, True])
def test_identical_annotators_are_never_reliably_ranked(replace):
    table = SS.judges_f1_table(constructed({"a": GOOD, "b": set(GOOD)}), ["a", "b"], REFS)
    sizes = [5, 10, 20, N] if not replace else [5, 20, N, 4 * N]
    curve = SS.stability(table, sizes, 300, seed=0, replace=replace)
    assert (curve["same_order"] == 0).all()
    assert np.isinf(SS.smallest_stable(curve)["n_stable"]).all()


@pytest.mark.parametrize("replace", [False, True])
def test_far_apart_annotators_are_ranked_correctly_from_small_n(replace):
    """One judge finds 37 of 40 errors, the other marks the wrong words everywhere."""
    corpus = constructed({"good": GOOD, "bad": set()}, wrong={"bad": set(range(N))})
    table = SS.judges_f1_table(corpus, ["good", "bad"], REFS)
    curve = SS.stability(table, [5, 10, 20, N], 500, seed=0, replace=replace)
    assert curve["pair"].iloc[0] == "good > bad"
    assert SS.smallest_stable(curve)["n_stable"].iloc[0] == 5
    assert (curve["same_order"] >= 0.99).all()


def test_examples_needed_answers_small_for_far_apart_and_never_for_identical():
    far = constructed({"good": GOOD, "bad": set()}, wrong={"bad": set(range(N))})
    need = SS.examples_needed(far, "bad", "good", REFS, n_resamples=200, n_outer=20, n_inner=50)
    assert need["better"] == "good" and need["examples"] == N
    assert need["n_needed"] <= 10 and need["n_high"] <= 10
    same = constructed({"a": GOOD, "b": set(GOOD)})
    need = SS.examples_needed(same, "a", "b", REFS, n_resamples=200, n_outer=20, n_inner=50)
    assert np.isinf(need["n_needed"]) and np.isinf(need["n_low"])


def test_annotators_differing_on_one_example_are_ordered_exactly_when_it_is_drawn():
    """b misses one error a finds; otherwise they agree. A subset of n of N examples contains
    that example with probability n/N (hypergeometric), and only then are they ordered."""
    table = SS.judges_f1_table(constructed({"a": GOOD, "b": GOOD - {5}}), ["a", "b"], REFS)
    curve = SS.stability(table, [4, 10, 20, 30, N], 2000, seed=0)
    assert curve["pair"].iloc[0] == "a > b"
    assert np.allclose(curve["same_order"], curve["n"] / N, atol=0.035)
    assert curve["same_order"].iloc[-1] == 1  # the whole corpus is the full set
    assert ((curve["low"] <= curve["n"] / N + 1e-9) & (curve["n"] / N <= curve["high"] + 1e-9)).mean() >= 0.8


def test_stable_n_uncertainty_brackets_the_point_estimate_and_is_seeded():
    corpus = constructed({"a": GOOD, "b": GOOD - {1, 2, 4, 8, 9, 11}})
    table = SS.judges_f1_table(corpus, ["a", "b"], REFS)
    sizes = [2, 4, 8, 16, 32, 64]
    point = SS.smallest_stable(SS.stability(table, sizes, 500, seed=0, replace=True)).iloc[0]
    unc = SS.stable_n_uncertainty(table, sizes, True, n_outer=40, n_inner=100, seed=1).iloc[0]
    assert unc["n_low"] <= point["n_stable"] <= unc["n_high"]
    again = SS.stable_n_uncertainty(table, sizes, True, n_outer=40, n_inner=100, seed=1).iloc[0]
    assert unc.equals(again)


def test_interval_width_shrinks_like_one_over_root_n(bundled):
    table = SS.human_f1_table(bundled, E.HUMAN_SETS, match="soft")
    w = SS.interval_widths(table, [50, 200, 800], 2000, seed=0).set_index("n")["width"]
    assert w[50] / w[200] == pytest.approx(2, rel=0.2) and w[200] / w[800] == pytest.approx(2, rel=0.2)


def test_tables_on_different_examples_are_not_resampled_together():
    a = SS.judges_f1_table(constructed({"a": GOOD, "b": GOOD}), ["a", "b"], REFS)
    b = SS.judges_f1_table(constructed({"a": GOOD, "b": GOOD}, n=N - 1), ["a", "b"], REFS)
    with pytest.raises(ValueError, match="same examples"):
        SS.stability([a, b], [5], 10)


# --- power --------------------------------------------------------------------------------------


def ratings_frame(n=400, seed=7):
    rng = np.random.default_rng(seed)
    errors = rng.poisson(0.8, n)
    impression = np.clip(np.round(5 - 0.6 * errors + rng.normal(0, 1.2, n)), 1, 7)
    return pd.DataFrame({"impression": impression, "errors": errors, "has_error": errors > 0})


def test_resampled_student_and_pearson_p_values_equal_scipy():
    """Student's pooled t-test, the test Cohen's d and statsmodels' TTestIndPower assume; with
    replacement a record drawn twice counts twice (scipy on the repeated records)."""
    r = ratings_frame()
    y, x, err = r["impression"].to_numpy(), r["errors"].to_numpy(float), r["has_error"].to_numpy()
    t_cols = np.stack([~err, y * ~err, y**2 * ~err, err, y * err, y**2 * err], axis=1).astype(float)
    r_cols = np.stack([np.ones_like(x), x, y, x**2, y**2, x * y], axis=1)
    for w in (
        SS.subset_weights(len(r), 30, 5, np.random.default_rng(8)),
        SS.bootstrap_weights(len(r), 30, 5, np.random.default_rng(9)),
    ):
        for row, p_t, p_r in zip(w, SS._student_p(w @ t_cols), SS._pearson_p(w @ r_cols)):
            ys, xs, es = np.repeat(y, row.astype(int)), np.repeat(x, row.astype(int)), np.repeat(err, row.astype(int))
            assert p_t == pytest.approx(stats.ttest_ind(ys[~es], ys[es], equal_var=True).pvalue, rel=1e-9)
            assert p_r == pytest.approx(stats.pearsonr(xs, ys).pvalue, rel=1e-9)


def test_power_resampled_tracks_statsmodels_and_fisher_z_closed_form():
    r = ratings_frame()
    curve = SS.impression_power(r, [10, 30, 60, 120], 1000, seed=0)
    assert (curve.groupby("test")["resampled"].apply(lambda s: s.is_monotonic_increasing)).all()
    assert np.abs(curve["resampled"] - curve["statsmodels"]).max() < 0.08
    z = np.arctanh(stats.pearsonr(r["errors"], r["impression"]).statistic)
    crit = stats.norm.ppf(0.975)
    for n, analytic in curve.loc[curve["test"].str.startswith("correlation"), ["n", "statsmodels"]].to_numpy():
        closed = stats.norm.cdf(abs(z) * np.sqrt(n - 3) - crit) + stats.norm.cdf(-abs(z) * np.sqrt(n - 3) - crit)
        assert analytic == pytest.approx(closed, rel=1e-9)
    need = SS.records_for_power(r).set_index("test")["records"]
    reached = SS.first_power(curve, "statsmodels").set_index("test")["n"]
    assert (need <= reached).all()


# --- figures ------------------------------------------------------------------------------------


def test_figures_render_the_same_bytes_twice():
    import io

    from hotelcheckspan.book import plots
    from hotelcheckspan.book import sample_size_plots as ssp

    def png(fig) -> bytes:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", metadata={"Software": None})
        return buf.getvalue()

    plots.set_theme()
    corpus = constructed({"a": GOOD, "b": GOOD - {5}, "c": set(range(N // 2))})
    table = SS.judges_f1_table(corpus, ["a", "b", "c"], REFS)
    within = SS.stability(table, [5, 20, N], 100, seed=0)
    beyond = SS.stability(table, [5, 20, N, 2 * N], 100, seed=0, replace=True)
    widths = SS.interval_widths(table, [5, 20, N], 100, seed=0)
    power = SS.impression_power(ratings_frame(), [10, 40], 100, seed=0)
    for make in (
        lambda: ssp.stability_curves(within, beyond, corpus_size=N),
        lambda: ssp.interval_widths(widths, N),
        lambda: ssp.power_curves(power),
    ):
        first, second = png(make()), png(make())
        assert first == second and len(first) > 1000


# --- the paper's own effects --------------------------------------------------------------------


def mean_table(x: np.ndarray, systems=("a", "b")) -> SS.ScoreTable:
    """A score table whose scores are plain means of per-example values ``x`` (examples, systems):
    summed counts are (sum of each system's values, number of examples)."""
    counts = np.column_stack([x, np.ones(len(x))])
    examples = pd.DataFrame({"example_idx": range(len(x))})
    return SS.ScoreTable("mean", tuple(systems), examples, counts, lambda s: s[:, :-1] / s[:, -1:])


def test_paper_gaps_read_table6_and_the_range_of_its_rounding():
    """Table 6: soft F1 0.26 (gpt-4o) and 0.21 (gemma-3), hard 0.11 and 0.08, by hand."""
    gaps = SS.paper_gaps().set_index(["measure", "better", "worse"])
    soft = gaps.loc[("span F1, soft", "gpt-4o", "gemma-3")]
    assert soft["gap"] == pytest.approx(0.05) and (soft["gap_low"], soft["gap_high"]) == pytest.approx((0.04, 0.06))
    assert gaps.loc[("span F1, hard", "gpt-4o", "gemma-3"), "gap"] == pytest.approx(0.03)
    assert gaps.loc[("span F1, soft", "gemma-3", "o3-mini"), "gap"] == pytest.approx(0.16)
    assert len(gaps) == 6  # three models, two measures


def test_at_its_own_gap_the_shifted_curve_is_the_with_replacement_curve(bundled):
    """Moving the difference to the pair's own full-set gap changes nothing: the same test sets
    give the same shares as stability(replace=True)."""
    table = SS.judges_f1_table(bundled, ["gpt-4o", "gemma-3"], SS.HUMAN_SETS, match="soft")
    full = dict(zip(table.systems, table.full()))
    better, worse = sorted(full, key=full.get, reverse=True)
    gaps = pd.DataFrame([{"better": better, "worse": worse, "gap": full[better] - full[worse], "label": "own"}])
    shifted = SS.stability_at_gaps(table, gaps, [10, 40, 160], 300, seed=4)
    plain = SS.stability(table, [10, 40, 160], 300, seed=4, replace=True)
    assert np.array_equal(shifted["same_order"].to_numpy(), plain["same_order"].to_numpy())


def test_shifted_curve_of_a_mean_follows_the_normal_probability():
    """For a difference of means the share of test sets in the gap's order is about
    Phi(gap sqrt(n) / sd) (scipy's normal), whatever this corpus' own gap is."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, 2)) * [1.0, 1.0] + [0.3, 0.0]  # own gap about 0.3
    table = mean_table(x)
    sd = np.std(x[:, 0] - x[:, 1], ddof=1)
    gap = 0.1
    gaps = pd.DataFrame([{"better": "a", "worse": "b", "gap": gap, "label": "paper"}])
    curve = SS.stability_at_gaps(table, gaps, [50, 200, 800], 4000, seed=1)
    expected = stats.norm.cdf(gap * np.sqrt(curve["n"]) / sd)
    assert np.allclose(curve["same_order"], expected, atol=0.025)


def test_normal_n_solves_the_normal_probability_for_the_threshold():
    n = SS.normal_n(sd=2.0, gap=0.1, threshold=0.95)
    assert stats.norm.cdf(0.1 * np.sqrt(n) / 2.0) >= 0.95 > stats.norm.cdf(0.1 * np.sqrt(n - 1) / 2.0)
    assert SS.normal_n(1.0, 0.0) == np.inf


def test_difference_sd_of_a_mean_is_the_sd_of_the_per_example_difference():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(1500, 2)) * [2.0, 1.0]
    sd = SS.difference_sd(mean_table(x), "a", "b", n_resamples=3000, seed=0)
    assert sd == pytest.approx(np.std(x[:, 0] - x[:, 1], ddof=1), rel=0.05)


def test_needs_at_paper_gaps_need_more_where_the_gap_is_narrower(bundled):
    from hotelcheckspan.analyses import dataset_level

    stage2 = dataset_level.stage2_examples(bundled)
    llms = ["gemma-3", "gpt-4o", "o3-mini"]
    scores = [SS.judges_f1_table(bundled, llms, SS.HUMAN_SETS, stage2, match=m) for m in ("hard", "soft")]
    needs = SS.needs_at_paper_gaps(scores, SS.planning_sizes(len(stage2)), 300, seed=0)
    assert len(needs) == 6
    assert (needs["min_n"] == SS.planning_sizes(len(stage2))[0]).all()  # the grid's first size, an upper bound
    first = needs.iloc[0]
    better, worse = first["pair"].split(" > ")
    table = scores[0] if first["measure"] == scores[0].measure else scores[1]
    assert first["sd"] == SS.difference_sd(table, better, worse, seed=0)
    assert first["skew"] == SS.difference_skew(table, better, worse, seed=0)
    # the narrowest gap the rounding allows needs at least as many examples as the printed one, the widest at most
    assert (needs["n_paper_low"] <= needs["n_paper"]).all() and (needs["n_paper"] <= needs["n_paper_high"]).all()
    soft = needs[needs["measure"] == "span F1, soft"].set_index("pair")
    assert soft.loc["gpt-4o > gemma-3", "n_paper"] >= soft.loc["gpt-4o > o3-mini", "n_paper"]  # 0.05 against 0.21
    # the resampled answer and the normal approximation agree within a factor of two
    finite = needs[np.isfinite(needs["n_paper"]) & (needs["n_paper"] > 20)]
    assert ((finite["n_paper"] / finite["n_normal"]).between(0.5, 2)).all()


def test_paper_impression_effects_are_the_papers_implied_d_and_power():
    """d = t sqrt(1/n1 + 1/n2) by hand from t = 11.9 and the records the paper's rates imply; the
    records for 80% power reach it by scipy's noncentral t, one fewer does not."""
    e = SS.paper_impression_effects()
    n2 = e["records"] * (1 - e["share_no_error"])
    n1 = e["records"] - n2
    assert e["d"] == pytest.approx(11.9 * np.sqrt(1 / n1 + 1 / n2))
    assert 0.6 < e["d"] < 0.66 and e["r"] == -0.31

    def power_by_hand(n_total):
        a, b = n_total * e["share_no_error"], n_total * (1 - e["share_no_error"])
        df = a + b - 2
        crit = stats.t.ppf(0.975, df)
        nc = e["d"] * np.sqrt(a * b / (a + b))
        return stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc)

    assert power_by_hand(e["t_records"]) >= 0.8 > power_by_hand(e["t_records"] - 1)
    curve = SS.analytic_power(e, [e["t_records"]]).set_index("test")["power"]
    assert curve["t-test (errors vs none)"] == pytest.approx(power_by_hand(e["t_records"]), abs=1e-6)
    # the correlation: Fisher's z closed form, n = 3 + ((z_0.975 + z_0.8) / atanh|r|)^2
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert e["r_records"] == np.ceil(3 + (z / np.arctanh(0.31)) ** 2)


def test_stability_figure_draws_one_panel_per_pair_and_no_line_for_a_tie():
    from hotelcheckspan.book import sample_size_plots as ssp

    rows = [
        {"measure": m, "better": a, "worse": b, "pair": f"{a} > {b}", "difference": d, "n": n,
         "same_order": 0.0 if d == 0 else 0.9, "design": "with replacement"}
        for a, b, d in (("gpt-4o", "gemma-3", 0.1), ("gpt-4o", "gpt-4o-ls", 0.02), ("o3-mini", "o3-mini-ls", 0.0))
        for m in ("span F1, soft", "span F1, hard")
        for n in (10, 100)
    ]  # fmt: skip
    fig = ssp.stability_curves(pd.DataFrame(rows), None, 0.95, corpus_size=50, order=list(PAPER_NAMES))
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert len(panels) == 3
    titles = [ax.get_title() for ax in panels]
    assert titles[0] == "gemma-3 vs gpt-4o" and titles[1] == "gpt-4o vs gpt-4o (LS)"  # display names, paper order
    assert "tied" in titles[2] and not panels[2].get_lines()[:-2]  # only the threshold and corpus-size lines
    assert "0.95" in [t.get_text() for t in panels[0].get_yticklabels()]  # the threshold on the axis, in its unit


def test_sample_size_figures_keep_the_books_figure_rules():
    """The book's figure rules (tests/test_plots.py) on the chapter's figures with the hard cases:
    fifteen pairs of long names sharing a prefix, a tied pair, the paper's power curves."""
    import itertools

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from test_plots import CONTENT_PX, MIN_PX, texts

    from hotelcheckspan.book import plots
    from hotelcheckspan.book import sample_size_plots as ssp

    plots.set_theme()
    systems = [f"zeroshot-{m}" for m in ("claude-3-7-sonnet", "gemini-2-0-flash-thinking", "gpt4o", "o3-mini")]
    rows = [
        {"measure": m, "better": a, "worse": b, "pair": f"{a} > {b}", "difference": 0.0 if j == 3 else 0.1, "n": n,
         "same_order": 0.0 if j == 3 else min(1.0, n / 100), "design": design}
        for (i, a), (j, b) in itertools.combinations(enumerate(systems), 2)
        for m in ("span F1, soft", "span F1, hard")
        for design, sizes in (("without replacement", (3, 6, 12)), ("with replacement", (3, 30, 600)))
        for n in sizes
    ]  # fmt: skip
    frame = pd.DataFrame(rows)
    within, beyond = frame[frame["design"] == "without replacement"], frame[frame["design"] == "with replacement"]
    power = SS.impression_power(ratings_frame(), [10, 40, 100], 100, seed=0)
    paper = SS.analytic_power(SS.paper_impression_effects(), range(10, 101, 10))
    for fig in (ssp.stability_curves(within, beyond, corpus_size=12, order=systems), ssp.power_curves(power, paper)):
        assert fig.get_figwidth() * fig.dpi <= CONTENT_PX + 1
        shown = texts(fig)
        assert all(t.get_fontsize() * fig.dpi / 72 >= MIN_PX - 0.01 for t, _ in shown)
        for (a, ba), (b, bb) in itertools.combinations(shown, 2):
            inter = min(ba.x1, bb.x1) - max(ba.x0, bb.x0), min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
            assert not (inter[0] > 1 and inter[1] > 1), f"{a.get_text()!r} overlaps {b.get_text()!r}"
        r = FigureCanvasAgg(fig).get_renderer()
        for leg in fig.legends:
            assert not any(leg.get_window_extent(r).overlaps(ax.get_window_extent(r)) for ax in fig.axes)


def test_interval_widths_draw_each_llm_in_its_own_panel():
    """Issue 36, Fig 9.2: five LLM lines in near colours overlapped along their length. Now the
    measures computed once share a panel, in colours and markers that differ; each system of a
    measure computed per system has a panel of its own, its line the one coloured line there (the
    other systems' in grey behind it)."""
    from matplotlib.colors import to_hex

    from hotelcheckspan.book import plots
    from hotelcheckspan.book import sample_size_plots as ssp

    plots.set_theme()
    sizes = [25, 100, 400]
    once = [("span F1, soft", "human-human"), ("Fleiss' kappa", "Fleiss' kappa")]
    llms = ["gemma-3", "gpt-4o", "gpt-4o-ls", "o3-mini", "o3-mini-ls"]
    rows = [
        {"measure": m, "system": s, "n": n, "width": (1 + i / 10) / np.sqrt(n)}
        for i, (m, s) in enumerate([*once, *[("raw agreement", x) for x in llms]])
        for n in sizes
    ]
    fig = ssp.interval_widths(pd.DataFrame(rows), corpus_size=245)
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in shown] == [
        "the humans' agreement",
        "gemma-3",
        "gpt-4o",
        "gpt-4o (LS)",
        "o3-mini",
        "o3-mini (LS)",
    ]
    data_lines = lambda ax: [ln for ln in ax.get_lines() if len(ln.get_xdata()) == len(sizes)]  # noqa: E731
    humans = data_lines(shown[0])
    assert len(humans) == len(once)
    assert len({to_hex(ln.get_color()) for ln in humans}) == len(once)
    assert len({ln.get_marker() for ln in humans}) == len(once)
    for ax in shown[1:]:
        coloured = [ln for ln in data_lines(ax) if to_hex(ln.get_color()) != "#cccccc"]
        assert len(coloured) == 1 and len(data_lines(ax)) == len(llms), ax.get_title()


# --- what decides an order, and what a table shows -----------------------------------------------


def test_leave_one_out_finds_the_example_that_decides_an_order():
    """a and b differ on example 5 only (b misses that error): dropping it ties them, so it alone
    decides; a and c differ on many examples, so no single one does. The oracle re-scores the
    corpus with the example removed from scratch."""
    corpus = constructed({"a": GOOD, "b": GOOD - {5}, "c": set(range(N // 2))})
    table = SS.judges_f1_table(corpus, ["a", "b", "c"], REFS)
    loo = SS.leave_one_out(table).set_index("pair")
    assert loo.loc["a > b", "examples"] == (5,) and loo.loc["a > b", "deciding"] == 1
    assert loo.loc["a > c", "deciding"] == 0
    for pair, row in loo.iterrows():
        i, j = (table.systems.index(s) for s in pair.split(" > "))
        for e in range(N):
            kept = table.examples.drop(index=e).reset_index(drop=True)
            again = SS.judges_f1_table(corpus, ["a", "b", "c"], REFS, kept).full()
            assert (np.sign(again[i] - again[j]) != np.sign(row["difference"])) == (e in row["examples"])


def test_flags_put_a_judge_that_flags_all_or_none_but_one_at_chance():
    truth = pd.Series([True] * 4 + [False] * 6 + [pd.NA] * 2, dtype="boolean")
    preds = {
        "all": pd.Series([True] * 12),
        "one": pd.Series([True] + [False] * 11),
        "good": pd.Series([True] * 3 + [False] * 9),
    }
    ex = pd.DataFrame({"dataset": "d", "split": "s", "setup_id": "x", "example_idx": range(12)})
    f = SS.flags(SS.confusion_table(truth, preds, ex)).set_index("system")
    assert f["examples"].tolist() == [10, 10, 10] and f["flagged"].tolist() == [10, 1, 3]
    assert f["at_chance"].tolist() == [True, True, False]
    known = truth.notna().to_numpy()
    for name, pred in preds.items():  # scikit-learn's balanced accuracy on the examples with a truth
        assert f.loc[name, "bacc"] == pytest.approx(balanced_accuracy_score(truth[known].astype(bool), pred[known]))


def test_balanced_accuracy_of_a_resample_with_one_class_is_undefined_and_never_ranks():
    """As chapter 03's intervals: a resample without a majority error has no balanced accuracy
    (the one recall left would put a judge that never flags at 1)."""
    truth = pd.Series([True, False, False, False], dtype="boolean")
    preds = {"never": pd.Series([False] * 4), "always": pd.Series([True] * 4)}
    ex = pd.DataFrame({"dataset": "d", "split": "s", "setup_id": "x", "example_idx": range(4)})
    table = SS.confusion_table(truth, preds, ex)
    w = np.array([[0, 1, 1, 1], [1, 1, 0, 0]], float)
    got = table.resampled(w)
    assert np.isnan(got[0]).all() and got[1] == pytest.approx([0.5, 0.5])
    full = np.array([0.6, 0.4])
    assert not SS._same_order(np.array([[np.nan, np.nan]]), full, [(0, 1)]).any()


def test_describe_n_marks_the_grids_ends():
    assert SS.describe_n(10, 1960, 10) == "≤ 10" and SS.describe_n(11, 1960, 10) == "11"
    assert SS.describe_n(np.inf, 1960, 10) == "> 1,960" and SS.describe_n(10, 1960) == "10"


def test_readable_summary_shows_a_tied_pair_as_tied_without_an_n():
    corpus = constructed({"a": GOOD, "b": set(GOOD), "c": set()})
    table = SS.judges_f1_table(corpus, ["a", "b", "c"], REFS)
    within = SS.stability(table, [5, 20, N], 50, seed=0)
    beyond = SS.stability(table, [5, 20, N, 2 * N], 50, seed=1, replace=True)
    unc = SS.stable_n_uncertainty(table, [5, 20, N, 2 * N], n_outer=4, n_inner=20, seed=2)
    shown = SS.readable(SS.stable_n_summary(within, beyond, unc)).set_index("pair (better first)")
    tied = shown.loc["a and b, tied"]
    assert (tied["n, subsets"], tied["n, with replacement"], tied["95% interval"]) == ("—", "—", "—")
    far = shown.loc["a > c"]  # c marks nothing: ordered from the first size, which is all the grid can say
    assert far["n, subsets"] == "≤ 5" and far["n, with replacement"] == "≤ 5"


def test_difference_skew_of_a_mean_is_the_per_example_skew_over_root_n():
    """The bootstrap mean of n values drawn from a sample has skewness g1 / sqrt(n), g1 the
    sample's skewness (its third cumulant over n squared): an exponential sample's is about
    2 / sqrt(n), a normal one's about none. 20,000 draws estimate a skewness within about 0.02."""
    rng = np.random.default_rng(3)
    n = 100
    for x in (np.column_stack([rng.exponential(1.0, n), np.zeros(n)]), rng.normal(size=(n, 2))):
        d = x[:, 0] - x[:, 1]
        assert SS.difference_skew(mean_table(x), "a", "b", 20000) == pytest.approx(stats.skew(d) / np.sqrt(n), abs=0.06)
    skewed = SS.difference_skew(mean_table(np.column_stack([rng.exponential(1.0, n), np.zeros(n)])), "a", "b", 20000)
    assert skewed > 0.1  # about 2 / sqrt(100)
