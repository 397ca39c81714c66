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
