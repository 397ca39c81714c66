"""The stand-in's annotation process: set counts, calibrated agreement, and the calibration itself."""

import dataclasses

import numpy as np
import pytest
import yaml
from scipy.special import expit

from hotelcheckspan import paths
from hotelcheckspan.analyses import dataset_level
from hotelcheckspan.reference.paper import LLM_CAMPAIGNS, figures
from hotelcheckspan.simulation import annotators, calibration, summaries
from hotelcheckspan.simulation.texts import Hotel


@pytest.fixture(scope="module")
def bundled(corpus):
    return corpus


def small_examples(n=64, seed=0):
    """Examples with real planted claims but no description (fast): all count as stage-2."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        h = Hotel(
            "The Oak Inn",
            "Paris",
            "France",
            ["the Louvre", "the Marais", "Notre-Dame", "the Eiffel Tower"],
            "Gare du Nord",
            "modern",
            "French",
            "city",
            1.2,
        )
        summary, aspect, claims, _ = summaries._summary(h, rng, 14.7)
        out.append(summaries.Example("short", i, h, "", summary, aspect, claims, [], 0, 0, stage2=True))
    return out


def test_every_config_says_simulated():
    configs = sorted(paths.BUNDLED_CORPUS.rglob("config.yaml"))
    assert len(configs) == 7
    for path in configs:
        assert yaml.safe_load(path.read_text())["simulated"] is True, path


def test_human_agreement_meets_the_calibration_tolerances(bundled):
    m = calibration.targeted(calibration.measure(bundled)).set_index("figure")
    assert len(m) == 10  # 3 Table 6 rows x F1 hard and soft, 4 Table 5 distributions
    off = (m["ours"] - m["paper"]).abs()
    assert (off <= calibration.TOLERANCE).all(), m[off > calibration.TOLERANCE].to_string()


def test_llm_flagged_records_follow_table3_spans_per_error_record(bundled):
    t3, t4 = figures()["table3_llm_campaigns"], figures()["table4_dataset_level_stage2_subset"]
    stage2 = dataset_level.stage2_examples(bundled)
    recs = bundled.records.merge(stage2)
    for name in ("gemma-3", "gpt-4o", "gpt-4o (LS)"):
        mine = recs[recs["campaign"] == LLM_CAMPAIGNS[name]]
        expected = t4[name]["total"] / t3[name]["spans_per_error_record"]
        flagged = int((mine["n_spans"] > 0).sum())
        assert abs(flagged - expected) <= 0.1 * expected, (name, flagged, expected)
        assert mine["n_spans"].sum() / flagged == pytest.approx(t3[name]["spans_per_error_record"], abs=0.1)


def test_solve_alpha_hits_the_expected_count():
    logits = np.random.default_rng(0).normal(size=500)
    alpha = annotators.solve_alpha(logits, 123.0)
    assert expit(alpha + logits).sum() == pytest.approx(123.0, rel=1e-6)
    assert annotators.solve_alpha(logits, 0.0) == -np.inf


def test_llm_process_meets_its_spans_and_flagged_records_on_average():
    ex = small_examples()
    paper = figures()
    a = annotators.llm_annotator("gpt-4o", paper)
    s1, s2 = annotators.solve_llm(ex, spans=60.0, flagged=45.0)
    rng = np.random.default_rng(1)
    runs = [[annotators.annotate_llm(a, e, s1, s2, rng) for e in ex] for _ in range(200)]
    flagged = np.mean([sum(bool(s) for s in run) for run in runs])
    spans = np.mean([sum(len(s) for s in run) for run in runs])
    assert flagged == pytest.approx(45.0, rel=0.03)
    assert spans == pytest.approx(60.0, rel=0.03)


def test_human_process_round_trips_its_parameters():
    p = annotators.HUMAN
    assert annotators.HumanProcess.from_vector(p.vector(), widen=p.widen) == p
    assert list(p.as_dict()) == list(calibration.GRID)


def test_calibration_is_deterministic_and_never_worse_than_its_start():
    ex = small_examples()
    start = annotators.HUMAN.vector()
    grid = {name: sorted({v, round(0.5 * v + 0.1, 6)}) for name, v in zip(calibration.GRID, start)}
    runs = [calibration.calibrate(examples=ex, seeds=(3,), grid=grid, start=start, sweeps=1) for _ in range(2)]
    (best, table), (best2, table2) = runs
    assert best == best2 and table.equals(table2)
    start_loss = table.set_index(list(calibration.GRID)).loc[tuple(start), "loss"]
    assert table["loss"].iloc[0] <= start_loss
    assert len(table) > 1


def test_measure_reads_the_paper_and_the_corpus(bundled):
    m = calibration.measure(bundled).set_index("figure")
    assert (
        m.loc["Group A - Group B (Stage 1) F1_S", "paper"]
        == figures()["table6_span_level"]["Group A - Group B (Stage 1)"]["F1_S"]
    )
    assert 0 <= m.loc["TVD Any", "ours"] <= 1
    assert m.loc["human span words, mean", "ours"] == pytest.approx(
        bundled.spans.loc[bundled.spans["kind"] == "human", "words"].mean()
    )


def test_provenance_lookup_takes_the_deepest_status():
    from hotelcheckspan.reference import provenance

    assert provenance.status("table6_span_level", "Stage 1 - Stage 2", "F1_H") == "calibrated"
    # which of P and R is larger is put in by the set span counts (issue 44: no longer emergent)
    assert provenance.status("table6_span_level", "Stage 1 - Stage 2", "P_H") == "by construction"
    assert provenance.status("table6_span_level", "Human - LLM (GPT-4o)", "F1_S") == "by construction"
    assert provenance.status("impressions", "t_errors_vs_none") == "by construction"  # the drops are put in
    assert provenance.status("impressions", "by_type", "Incorrect", "drop") == "set"
    assert provenance.status("impressions", "by_type", "Incorrect", "mean") == "derived"  # no-error mean - drop
    assert provenance.declared("impressions", "by_type", "Incorrect", "drop") == "set"
    with pytest.raises(KeyError):
        provenance.declared("no such table")


def test_bundled_corpus_meets_every_bound_its_draw_was_chosen_on(bundled):
    from hotelcheckspan.simulation import standin

    result = standin.checks(bundled)
    assert result["ok"].all(), result[~result["ok"]].to_string()
    # a check can fail: a corpus without group B's stage-2 spans misses Table 6 and Table 4
    spans = bundled.spans
    fake = dataclasses.replace(
        bundled, spans=spans[~((spans["campaign"] == "stage2") & (spans["annotator_group"] == 1))]
    )
    assert not standin.checks(fake)["ok"].all()
