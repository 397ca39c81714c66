"""The readings of chapters 06 (error clusters) and 08 (the real corpus): each says what its
numbers say, rounded once, as the chapter's tables show them."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import dataset_level, example_level, span_level
from hotelcheckspan.annotator_sets import groups_of
from hotelcheckspan.book import real_shape, tables
from hotelcheckspan.book.readings import Passage, error_clusters, real_corpus


def candidates(mean_pick, low_pick, mean_paper, low_paper) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "k": [30, 15],
            "chosen by": ["silhouette's pick", "the paper"],
            "silhouette": [0.1, 0.09],
            "largest cluster %": [9.0, 12.0],
            "mean ARI": [mean_pick, mean_paper],
            "lowest ARI": [low_pick, low_paper],
        }
    )


def test_more_stable_only_where_neither_measure_says_otherwise():
    tied_low = error_clusters.stability_reading(candidates(0.70, 0.55, 0.78, 0.551))
    assert "the more stable" in tied_low and "neither k is clearly the more stable" in tied_low
    assert "the same lowest ARI" in tied_low
    both = error_clusters.stability_reading(candidates(0.70, 0.50, 0.78, 0.60))
    assert "the paper's k is the more stable, by its mean and by its lowest ARI" in both
    split = error_clusters.stability_reading(candidates(0.70, 0.65, 0.78, 0.60))
    assert "disagree" in split and "neither k" in split
    same = error_clusters.stability_reading(candidates(0.9, 0.8, 0.9, 0.8))
    assert "both are equally stable" in same and "below 0.8" not in same


def _purity_by_plain_loop(cross: pd.DataFrame, shuffles: int, seed: int) -> list[float]:
    """Shuffle the types over the spans of the same clusters, one shuffle at a time, and count."""
    rng = np.random.default_rng(seed)
    clusters_, types = [], []
    for c, row in enumerate(cross.itertuples(index=False)):
        for t, n in enumerate(row):
            clusters_ += [c] * n
            types += [t] * n
    out = []
    for _ in range(shuffles):
        shuffled = rng.permutation(types)
        table = pd.crosstab(pd.Series(clusters_), pd.Series(shuffled))
        out.append(100 * table.max(axis=1).sum() / len(types))
    return out


def test_type_purity_against_shuffled_types():
    cross = pd.DataFrame({"Incorrect": [8, 1, 3], "Misleading": [2, 9, 4], "Not Checkable": [5, 5, 6]})
    got = error_clusters.type_purity(cross, permutations=4000, seed=1)
    total = cross.to_numpy().sum()
    assert got["purity"] == pytest.approx(100 * (8 + 9 + 6) / total)
    assert got["baseline"] == pytest.approx(100 * 16 / total)  # the commonest type over all spans
    plain = _purity_by_plain_loop(cross, 1500, seed=7)  # another generator, drawn one shuffle at a time
    assert got["expected"] == pytest.approx(np.mean(plain), abs=0.6)
    assert got["low"] == pytest.approx(np.quantile(plain, 0.025), abs=2.5)
    assert got["high"] == pytest.approx(np.quantile(plain, 0.975), abs=2.5)
    assert got["baseline"] <= got["low"] <= got["expected"] <= got["high"]  # the floor is below chance
    assert error_clusters.type_purity(cross) == error_clusters.type_purity(cross)  # seeded


def test_purity_is_read_against_its_chance_range():
    base = dict(
        candidates=candidates(0.7, 0.5, 0.7, 0.5),
        k=3,
        paper_k=3,
        k_range=(2, 4),
        table7=pd.DataFrame({"count": [10], "pct": [10.0]}),
        type_test=pd.DataFrame(
            {
                "p-value": [0.5],
                "cells expected below 5": [0],
                "cells": [4],
                "Cramér's V": [0.2],
                "Cramér's V (bias-corrected)": [0.1],
            }
        ),
        claim_counts=pd.Series({"soft": 1, "concrete": 1, "mixed": 0, "none": 0}),
        strata=pd.DataFrame({"annotators": [2, 4], "spans": [10, 10], "agreed": [2, 6]}),
        consensus_tests=pd.DataFrame(
            {
                "test": ["crude (Fisher's exact test)", "stratified by annotators (Cochran-Mantel-Haenszel)"],
                "spans": [20, 20],
                "odds ratio": [0.8, 0.8],
                "low": [0.5, 0.5],
                "high": [1.2, 1.2],
                "p-value": [0.4, 0.4],
            }
        ),
        per_cluster=pd.DataFrame(
            {
                "cluster": [0, 1],
                "label": ["a", "b"],
                "claim": ["soft", "concrete"],
                "size": [5, 5],
                "agreed": [20.0, 60.0],
            }
        ),
        level=0.95,
    )

    class Sim:
        simulated = False

    mixed = error_clusters.readings(Sim(), cross=pd.DataFrame({"Incorrect": [5, 5], "Misleading": [4, 6]}), **base)
    pure = error_clusters.readings(Sim(), cross=pd.DataFrame({"Incorrect": [10, 0], "Misleading": [0, 10]}), **base)
    assert mixed["purity_reading"].startswith("within what shuffled types reach")
    assert "towards the annotated types" in pure["purity_reading"] and pure["purity"] == "100"
    # no verdict on the paper's "error types": its clusters are kinds of claim, not the annotated types
    assert "error type" not in mixed["purity_reading"] + pure["purity_reading"]
    assert pure["low_cluster"] == "a" and "60% (in the paper's direction)" in pure["kind_reading"]
    # the pooled shares carry no verdict of their own: the span-level test's, as the Summary says it
    assert pure["kind_reading"].endswith(f"the paper's reading is {pure['paper_claim']} here.")


def test_support_pooled_by_the_clusters_kind():
    per_cluster = pd.DataFrame(
        {
            "cluster": [0, 1, 2, 3],
            "label": ["a", "b", "c", "d"],
            "claim": ["soft", "soft", "concrete", "mixed"],
            "size": [10, 30, 20, 5],
            "agreed": [50.0, 10.0, 80.0, 100.0],
        }
    )
    got = error_clusters.support_by_kind(per_cluster).set_index("claim")
    assert got.loc["soft", "agreed"] == pytest.approx(100 * (5 + 3) / 40)
    assert got.loc["concrete", "agreed"] == pytest.approx(80.0) and "mixed" not in got.index


@pytest.fixture(scope="module")
def chapter08():
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    human, models = corpus.campaigns("human")[0], corpus.campaigns("model")
    groups = groups_of(corpus, human)
    complete = [g for g in groups if len(g.select(corpus)[0]) == len(corpus.examples)]
    marks = example_level.marks(corpus, complete)
    specs = [g.spec for g in groups]
    comparisons = [
        {"name": "humans vs humans", "ref": [a], "hyp": specs[i + 1 :]} for i, a in enumerate(specs[:-1])
    ] + [{"name": f"humans vs {m}", "ref": specs, "hyp": [m]} for m in models]
    pairs, counts = span_level.pairwise(corpus, comparisons)
    t6 = span_level.table6(pairs, counts, n_boot=50, seed=0)
    min_agree = math.ceil(0.75 * len(complete))
    llm = example_level.models_vs_majority(corpus, models, raters=complete, n_boot=50, seed=0, min_agree=min_agree)
    plan = real_shape.plan(corpus)
    assert plan.raters == complete and plan.groups == groups and plan.models == models
    values = real_corpus.readings(
        corpus,
        plan=plan,
        composition=dataset_level.campaign_table(corpus),
        reliability=example_level.reliability_ci(marks, n_boot=20, seed=0),
        t6=t6,
        llm=llm,
        min_agree=min_agree,
        n_boot=50,
        level=0.95,
    )
    return values, t6


def test_chapter_08_says_the_figure_its_table_shows(chapter08):
    """The best LLM's F1 in the prose is the one in the Table 6 cell beside it (rounded once)."""
    values, t6 = chapter08
    shown = tables.show(t6, columns=["comparison", "match", "f1"]).frame
    cell = shown[(shown["Comparison"] == f"humans vs {values['best_llm']}") & (shown["Match"] == "hard")].iloc[0, 2]
    assert cell == values["best_llm_f1"]  # estimate and interval, as the table shows them
    assert all(isinstance(v, (str, Passage)) for v in values.values())
    assert values["n_warnings"] == "3" and values["n_examples"] == "12"


def test_chapter_08_reads_the_best_llm_against_humans_with_its_interval():
    """Above by its estimate is not above when the human figure lies in the LLM's interval
    (issue 28: the summary said "above" where the body said "within its interval")."""
    within = real_corpus.llm_vs_humans(0.30, 0.22, 0.38, 0.26)
    assert within.startswith("above the human-human figure by its estimate") and "within its interval" in within
    assert real_corpus.llm_vs_humans(0.30, 0.28, 0.33, 0.26) == (
        "above the human-human figure, which lies outside its interval"
    )
    assert real_corpus.llm_vs_humans(0.20, 0.15, 0.24, 0.26).startswith("below the human-human figure, which lies out")
    assert real_corpus.llm_vs_humans(0.26, 0.20, 0.30, 0.26).startswith("level with")


def test_chapter_08_says_one_thing_in_body_and_summary():
    source = (paths.REPO_ROOT / "notebooks" / "08_real_corpus.py").read_text(encoding="utf-8")
    body, summary = source.split("## Summary")
    for text in (body, summary):
        assert "{glue:text}`best_llm_vs_humans`" in text
    assert "llm_vs_human_word" not in source and "within_word" not in source


# --- chapter 08 after review (issue 35): definitions, coverage, BACC read with its intervals ----------


@pytest.fixture(scope="module")
def real():
    corpus = real_shape.check(hotelcheckspan.load(paths.REAL_CORPUS))
    return corpus, real_shape.plan(corpus)


def test_definition_means_are_table6_estimates_under_each_definition(real):
    """The book's column is Table 6's F1; factgenie's columns are the per-pair means of the pairs
    scored under that definition, computed here plainly from ``pairwise``."""
    corpus, plan = real
    comparisons = real_shape.comparisons(corpus, plan)
    pairs, counts = span_level.pairwise(corpus, comparisons)
    means = span_level.definition_means(corpus, comparisons, real_corpus.DEFINITIONS, {real_corpus.BOOK: pairs})
    assert list(dict.fromkeys(means["definition"])) == ["book", "factgenie 1.2.1", "factgenie May 2025"]
    t6 = span_level.table6(pairs, counts, n_boot=10, seed=0).set_index(["comparison", "match"])
    book = means[means["definition"] == "book"].set_index(["comparison", "match"])
    assert book["f1"].tolist() == pytest.approx(t6.loc[book.index, "f1"].tolist())
    both, _ = span_level.pairwise(corpus, comparisons, metric="char", convention="both")
    hard = both[(both["match"] == "hard") & (both["comparison"] == "humans vs humans") & (both["examples"] > 0)]
    got = means.set_index(["definition", "comparison", "match"]).loc[("factgenie 1.2.1", "humans vs humans", "hard")]
    assert got["f1"] == pytest.approx(hard["f1"].mean()) and got["pairs"] == len(hard)


def _means(f1: dict[str, list[float]]) -> pd.DataFrame:
    """A definition_means frame of hard F1: definition -> F1 of humans vs humans, vs a, vs b."""
    comps = ["humans vs humans", "humans vs a", "humans vs b"]
    return pd.DataFrame(
        [
            {"definition": d, "comparison": c, "match": "hard", "pairs": 1, "f1": v}
            for d, values in f1.items()
            for c, v in zip(comps, values)
        ]
    )


def test_best_llm_under_each_definition_names_ties_as_shown():
    """The reviewer's case: o3-mini first under the book's and 1.2.1's definitions, tied with
    claude once rounded under the May 2025 script's (0.4854 and 0.4882 both show 0.49): first or
    tied under all three, so the pick does not depend on the definition."""
    got = real_corpus.best_by_definition(
        _means(
            {
                "book": [0.44, 0.4854, 0.4616],
                "factgenie 1.2.1": [0.49, 0.5233, 0.4911],
                "factgenie May 2025": [0.45, 0.4854, 0.4882],
            }
        )
    )
    said = got["best_by_definition"]
    assert said.startswith("Under factgenie 1.2.1's definition (span lengths counted only on texts both sides marked)")
    assert "the highest span F1, hard is a's (0.52)" in said
    assert "script's (greedy overlap credit) a and b, tied as shown (0.49)" in said
    assert "a has the highest estimate or ties for it under every definition, so the definition does not change" in said
    assert said.endswith(
        "(estimates: whether the texts order two LLMs is a paired comparison's question, which chapter 09 sizes)."
    )
    assert "depends on the definition" not in said + got["best_by_definition_short"]
    # no LLM first (alone or tied) under every definition: then, and only then, it depends
    apart = real_corpus.best_by_definition(
        _means(
            {"book": [0.4, 0.50, 0.44], "factgenie 1.2.1": [0.4, 0.55, 0.50], "factgenie May 2025": [0.4, 0.40, 0.50]}
        )
    )
    assert "which LLM has the highest estimate depends on the definition (estimates" in apart["best_by_definition"]
    assert apart["best_by_definition_short"].startswith("Which LLM has the highest estimate depends")
    same = real_corpus.best_by_definition(
        _means({"book": [0.4, 0.5, 0.3], "factgenie 1.2.1": [0.4, 0.6, 0.3], "factgenie May 2025": [0.4, 0.5, 0.45]})
    )
    assert "the same LLM has the highest estimate under every definition (estimates" in same["best_by_definition"]


def test_chapter_08_says_how_many_texts_each_group_annotated(real):
    """Counted here from the records directly: 28 groups on all 12 texts, group 28 on 5; each
    group's records carry one annotator id."""
    corpus, plan = real
    human = corpus.records[corpus.records["kind"] == "human"]
    per_group = human.groupby("annotator_group")[["dataset", "setup_id", "example_idx"]].apply(
        lambda r: len(r.drop_duplicates())
    )
    assert sorted(per_group.value_counts().items()) == [(5, 1), (12, 28)]
    said = real_corpus.coverage(corpus, plan)
    assert said == "28 of the 29 groups annotated all 12 texts and one 5, every LLM all 12"
    assert (human.groupby("annotator_group")["annotator_id"].nunique() == 1).all()
    assert real_corpus.group_ids(corpus, plan).startswith("Each human group is one annotator id of the export")
    about = real_corpus.about(corpus, plan)
    assert "in the same 12 texts" not in about and "28 of the 29 groups annotated all 12 texts" in about


def _llm(rows: list[tuple]) -> pd.DataFrame:
    """models_vs_majority rows: (model, label, examples, majority errors, model errors, agreement,
    bacc, low, high, recall)."""
    cols = ["model", "label", "examples", "majority_errors", "model_errors", "agreement", "bacc", "bacc_low"]
    return pd.DataFrame(rows, columns=[*cols, "bacc_high", "recall_error"])


def test_pooled_bacc_is_read_with_its_interval_and_the_any_row_with_its_error_free_texts():
    """Chapter 08's case: o3-mini's 0.93 [0.83, 1.00] overlaps claude's and gemini's 0.92 [0.83,
    1.00], which find the same majority errors and mark one more decision; the any-error BACC
    rests on the one clear text without an error and has no interval."""
    pooled = "per type (pooled)"
    llm = _llm(
        [
            ("o3", pooled, 62, 8, 8, 0.968, 0.928, 0.833, 1.0, 0.875),
            ("claude", pooled, 62, 8, 9, 0.952, 0.919, 0.826, 1.0, 0.875),
            ("gemini", pooled, 62, 8, 9, 0.952, 0.919, 0.826, 1.0, 0.875),
            ("llama", pooled, 62, 8, 12, 0.871, 0.819, 0.668, 0.962, 0.75),
            *[(m, "Any", 8, 7, 7, 1.0, 1.0, float("nan"), float("nan"), 1.0) for m in ("o3", "claude", "gemini")],
            ("llama", "Any", 8, 7, 8, 0.875, 0.5, float("nan"), float("nan"), 1.0),
        ]
    )
    said = real_corpus._pooled_bacc(llm[llm["label"] == pooled].set_index("model")) + " " + real_corpus._any_bacc(llm)
    # overlapping intervals are read as neither an order nor a tie (a paired comparison decides)
    assert "best by o3 (BACC 0.93 [0.83, 1.00]); its interval overlaps every other LLM's, which neither orders" in said
    assert "nor ties them (a paired comparison on the same resamples would tell) (the next, claude" in said
    assert "does not tell" not in said
    assert "the next, claude and gemini at 0.92, each find the majority's errors as often and mark one more" in said
    assert "8 texts have a clear majority, one of them without an error" in said
    assert "rests on that text, and too many resamples hold no error-free text" in said
    # an LLM clear of the first's interval is said to be
    apart = llm[llm["label"] == pooled].set_index("model")
    apart.loc["llama", ["bacc_low", "bacc_high"]] = [0.60, 0.82]
    text = real_corpus._pooled_bacc(apart)
    assert "its interval is clear of llama's and overlaps those of claude and gemini, which neither orders" in text
    # a first without an interval is not read as overlapping anything
    bare = apart.copy()
    bare.loc["o3", ["bacc_low", "bacc_high"]] = float("nan")
    assert "without an interval for o3 (too many resamples leave BACC undefined), so nothing here tells it apart" in (
        real_corpus._pooled_bacc(bare)
    )


def test_beyond_f1_says_the_type_cost_beside_hard_to_soft_and_all_moves():
    from hotelcheckspan.analyses import span_measures
    from hotelcheckspan.book.readings import beyond_f1

    table = pd.DataFrame(
        {
            "comparison": ["x", "y"],
            "pairs": 1,
            **{m: [0.5, 0.4] for m in span_measures.MEASURES},
        }
    )
    table["partial F1"] = [0.3, 0.35]  # the two swap
    table["strict F1"], table["exact F1"] = [0.05, 0.02], [0.07, 0.02]
    t6 = pd.DataFrame({"comparison": ["x", "x", "y", "y"], "match": ["hard", "soft"] * 2, "f1": [0.5, 0.6, 0.4, 0.6]})
    got = beyond_f1.readings(table, prefix="b", t6=t6)
    assert got["b_moved_said"] == "both comparisons change rank"
    assert beyond_f1._moved_said(7, 7) == "all seven comparisons change rank"
    assert beyond_f1._moved_said(1, 7) == "one of the seven comparisons changes rank"
    assert got["b_type_cost"] == "0.01" and got["b_soft_gain"] == "0.15" and got["b_exact_max"] == "0.07"
    assert "b_soft_gain" not in beyond_f1.readings(table, prefix="b")  # chapter 04 passes no t6


def test_ch08_reliability_and_prevalence_tables_are_left_out_without_two_raters():
    """With a pair of human raters, a row per category under the header Category; with one rater
    (reliability and prevalence empty), no table at all rather than an empty one."""
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    plan = real_shape.plan(corpus)
    marks = example_level.marks(corpus, plan.raters, plan.texts)
    shown = real_corpus.reliability_table(example_level.reliability_ci(marks, n_boot=20, seed=0))
    assert shown.frame.columns[0] == "Category" and len(shown.frame) == len(
        example_level.reliability(marks)["label"].unique()
    )
    alone = example_level.marks(corpus, plan.raters[:1], plan.texts)
    assert real_corpus.reliability_table(example_level.reliability_ci(alone, n_boot=20, seed=0)) is None
    assert tables.prevalence(example_level.prevalence(alone), label="Category") is None
    assert tables.prevalence(example_level.prevalence(marks), label="Category").frame.columns[0] == "Category"


def test_kappas_extremes_name_the_prevalence_effect_where_ac1_reverses_them():
    """Chapter 08's review: Fleiss' kappa near zero on rare categories is the prevalence effect; where
    Gwet's AC1 orders kappa's best and worst categories the other way, the reading says so."""
    from hotelcheckspan.book.readings import real_corpus

    rel = pd.DataFrame(
        {
            "measure": ["fleiss_kappa"] * 3 + ["gwet_ac1"] * 3,
            "label": ["Contradictory", "Other", "Any"] * 2,
            "estimate": [0.71, -0.01, 0.4, 0.71, 0.94, 0.5],
        }
    )
    said = real_corpus._prevalence(rel, "Contradictory", "Other")
    assert said == (
        ", an order Gwet's AC1 reverses (Other 0.94, Contradictory 0.71): kappa falls where error votes are rare"
    )
    same = rel.assign(estimate=[0.71, -0.01, 0.4, 0.9, 0.5, 0.5])
    assert real_corpus._prevalence(same, "Contradictory", "Other") == ""
