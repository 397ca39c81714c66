"""The beyond-F1 measures computed for every pair at once equal the per-pair paths they replace
(``tests/beyond_f1_reference.py``, the package's code as it was, itself tested against
factgenie, pygamma-agreement and nervaluate), value for value and bit for bit: γ (per example,
per pair, the chance sampling), the boundary schemes, the error-count correlations, the tables'
intervals and ``iter_pairs``. Besides the corpora's own pairs, a corpus built for the cases where
a batch could go astray: pairs sharing no example, a set with no spans, overlapping and repeated
spans, categories one side never uses, a campaign against one of its own groups, a comparison
restricted to a campaign's examples."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pandas as pd
import pytest
import sweep
from beyond_f1_reference import (
    continuum_gamma,
    gamma_pairwise,
    gamma_per_example,
    iter_pairs,
    measures_pairs,
    measures_table,
)
from scipy.stats import pearsonr

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import judges, span_gamma, span_level, span_measures
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import boundaries, error_counts, gamma

EDGE_COMPARISONS = [
    {"name": "overlapping spans", "ref": ["x/A"], "hyp": ["m1", "stage1/B"]},
    {"name": "a set with no spans", "ref": ["x/B"], "hyp": ["stage1/A", "m2"]},
    {"name": "categories one side never uses", "ref": ["stage1/B", "x/A"], "hyp": ["m2"]},
    {"name": "a campaign against its own group", "ref": ["x"], "hyp": ["x/A"]},
    {"name": "restricted", "ref": ["stage1/A", "x/A"], "hyp": ["m1"], "examples": "stage2"},
]
NO_SHARED_EXAMPLE = {"name": "no shared example", "ref": ["stage2/A", "x/B"], "hyp": ["x/C"]}


@pytest.fixture(scope="module")
def edge(toy):
    """The toy corpus with a campaign ``x``: group A marks overlapping and repeated spans on every
    example, group B has records on examples 0 and 1 and no span at all, group C annotated only
    examples 2 and 3 (none of stage 2's)."""
    examples = toy.examples[KEY]
    template_rec, template_span = toy.records.iloc[0], toy.spans.iloc[0]
    marks = {  # (group, example) -> (start, end, category index)
        (0, 0): [(0, 5, 2), (3, 8, 1), (3, 8, 1), (0, 14, 0)],
        (0, 1): [(3, 5, 0), (3, 5, 2), (6, 11, 0)],
        (0, 2): [(6, 8, 0), (6, 8, 0)],
        (0, 3): [(9, 14, 1), (12, 14, 1), (0, 2, 2)],
        (1, 0): [],
        (1, 1): [],
        (2, 2): [(0, 8, 2), (6, 8, 2)],
        (2, 3): [(9, 11, 0)],
    }
    records, spans = [], []
    for record_id, ((group, idx), units) in enumerate(marks.items(), start=int(toy.records["record_id"].max()) + 1):
        who = {"record_id": record_id, "campaign": "x", "annotator_id": f"x{group}", "annotator_group": group}
        key = examples.iloc[idx].to_dict()
        records.append(template_rec.to_dict() | who | key | {"n_spans": len(units)})
        for order, (start, end, cat) in enumerate(units):
            fields = {"order": order, "start": start, "end": end, "type_idx": cat}
            fields |= {"type": toy.categories[cat], "text": "ab cd ef gh ij"[start:end]}
            spans.append(template_span.to_dict() | who | key | fields)
    rec = pd.concat([toy.records, pd.DataFrame(records).astype(toy.records.dtypes)], ignore_index=True)
    sp = pd.concat([toy.spans, pd.DataFrame(spans).astype(toy.spans.dtypes)], ignore_index=True)
    cats = toy.campaign_categories | {"x": toy.campaign_categories["stage1"]}
    return dataclasses.replace(toy, records=rec, spans=sp, campaign_categories=cats)


@pytest.fixture(scope="module")
def bundled():
    return hotelcheckspan.load()


def assert_same_gamma(ours, theirs):
    for a, b in zip(ours, theirs):
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def assert_same_measures(ours, theirs):
    pd.testing.assert_frame_equal(ours[0], theirs[0], check_exact=True)
    assert len(ours[1]) == len(theirs[1])
    for a, b in zip(ours[1], theirs[1]):
        assert a["comparison"] == b["comparison"]
        pd.testing.assert_frame_equal(a["examples"], b["examples"])
        pd.testing.assert_frame_equal(a["all_examples"].iloc[a["codes"]].reset_index(drop=True), b["examples"])
        assert np.array_equal(a["f1"], b["f1"]) and np.array_equal(a["sums"], b["sums"])
        for s in boundaries.SCHEMES:
            assert np.array_equal(a["schemes"][s], b["schemes"][s]), s


# --- pairs and their examples ---------------------------------------------------------------------


def test_iter_pairs_selects_what_the_per_pair_filter_selects(bundled, edge):
    restricted = {"name": "given examples", "ref": ["stage1/A"], "hyp": ["m1", "x/A"]}
    restricted["examples"] = edge.examples[KEY].iloc[[3, 1, 0]]
    for corpus, comparisons in [(bundled, None), (edge, [*EDGE_COMPARISONS, NO_SHARED_EXAMPLE, restricted])]:
        ours, theirs = list(span_level.iter_pairs(corpus, comparisons)), list(iter_pairs(corpus, comparisons))
        assert len(ours) == len(theirs) > 0
        for a, b in zip(ours, theirs):
            assert a[:3] == b[:3]
            for x, y in zip(a[3:], b[3:]):
                pd.testing.assert_frame_equal(x, y)
    with pytest.raises(ValueError, match="no records"):
        list(span_level.iter_pairs(edge, [{"name": "none", "ref": ["x/D"], "hyp": ["m1"]}]))


# --- γ -------------------------------------------------------------------------------------------


def continua_cases(rng) -> list:
    """Continua a batch holds side by side: random ones of many shapes, repeated and overlapping
    units, equal costs (ties for the matching), categories one annotator never uses, one unit
    against many, and units so short that the sampler draws durations again (shorter than
    pyannote's shortest segment)."""
    cases = []
    for _ in range(30):
        units = []
        for _ in range(2):
            n = int(rng.integers(1, 9))
            start = rng.integers(0, 60, n)
            units.append((start, start + rng.integers(1, 20, n), rng.integers(0, 3, n)))
        cases.append(units)
    same = (np.array([0, 0, 4]), np.array([10, 10, 9]), np.array([0, 1, 0]))
    cases.append([same, same])  # identical: γ 1
    cases.append([same, (np.array([0, 0, 0]), np.array([10, 10, 10]), np.array([1, 0, 1]))])
    cases.append([(np.array([0, 20]), np.array([10, 30]), np.array([2, 2])), (np.array([5]), np.array([25]), [0])])
    many = rng.integers(0, 500, 40)
    cases.append([(many, many + 7, rng.integers(0, 3, 40)), (np.array([3]), np.array([9]), np.array([1]))])
    tiny = np.array([0.0, 1e-5, 2e-5])
    cases.append([(tiny, tiny + np.array([1e-6, 3e-6, 2e-6]), np.array([0, 1, 0])), (tiny, tiny + 1.5e-6, [0, 0, 1])])
    return cases


@pytest.mark.parametrize("soft", [False, True])
def test_a_batch_of_continua_has_the_gamma_of_each_alone(soft):
    cases = continua_cases(np.random.default_rng(5))
    parts = [
        (np.full(len(s), i), np.full(len(s), k), s, e, c) for i, u in enumerate(cases) for k, (s, e, c) in enumerate(u)
    ]
    batch = gamma.Continua.build(len(cases), *(np.concatenate(a) for a in zip(*parts)))
    got = gamma.gammas(batch, soft=soft)
    for units, value in zip(cases, got):
        want = continuum_gamma(units, soft=soft)
        assert type(value) is type(want) and value == want, units
        assert gamma.continuum_gamma(units, soft=soft) == want


def test_the_sampler_redraws_durations_below_the_shortest_segment(monkeypatch):
    """The tiny case above is one where pyannote's shortest segment makes the sampler draw a
    duration again: the placed draws flag it, and the step-by-step draws read more normals than
    one per annotator and sample and two per unit."""
    tiny = continua_cases(np.random.default_rng(5))[-1]
    c = gamma.Continua.build(1, np.zeros(6, int), np.repeat([0, 1], 3), *(np.concatenate(a) for a in zip(*tiny)))
    stats = gamma._statistics(c)
    assert gamma._sample_units(stats, gamma.N_SAMPLES, gamma._Streams(1, gamma.SEED, 1 << 14))[-1].all()
    draws = []
    normal = gamma._Streams.normal
    monkeypatch.setattr(
        gamma._Streams, "normal", lambda self, rows, *a: draws.append(rows.size) or normal(self, rows, *a)
    )
    _, row, *_ = gamma._sample_steps(stats, gamma.N_SAMPLES, gamma._Streams(1, gamma.SEED, 1 << 14))
    assert sum(draws) > 2 * gamma.N_SAMPLES + 2 * row.size


def test_placed_draws_equal_draws_step_by_step():
    """Each unit's place found from its row's first (binary lifting over the stream) reads what
    the sampler reads one normal and one uniform at a time."""
    cases = continua_cases(np.random.default_rng(9))[:-1]  # (no duration drawn again)
    parts = [
        (np.full(len(s), i), np.full(len(s), k), s, e, c) for i, u in enumerate(cases) for k, (s, e, c) in enumerate(u)
    ]
    stats = gamma._statistics(gamma.Continua.build(len(cases), *(np.concatenate(a) for a in zip(*parts))))
    n = len(cases) * gamma.N_SAMPLES
    counts, *placed, redrawn = gamma._sample_units(stats, gamma.N_SAMPLES, gamma._Streams(len(cases), 42, 1 << 16))
    assert not redrawn.any()
    step_counts, *stepped = gamma._sample_steps(stats, gamma.N_SAMPLES, gamma._Streams(len(cases), 42, 1 << 16))
    assert np.array_equal(counts, step_counts)
    got = gamma._drawn_continua(n, counts.ravel(), *placed)
    want = gamma._drawn_continua(n, step_counts.ravel(), *stepped)
    for a, b in zip(dataclasses.astuple(got), dataclasses.astuple(want)):
        assert np.array_equal(a, b)


def test_drawn_units_are_placed_as_the_general_sort_places_them():
    """The sampler places units row by row and sorts only rows whose starts go backwards; rows
    with equal starts (and repeated units) take the general sort. Both give Continua.build's."""
    rng = np.random.default_rng(4)
    counts = rng.integers(0, 6, 40)
    row = np.repeat(np.arange(40), counts)
    index = np.concatenate([np.arange(c) for c in counts])
    for starts in ("ascending", "backwards", "equal"):
        start = np.concatenate([np.sort(rng.normal(size=c)) for c in counts])
        if starts != "ascending":
            start = rng.normal(size=row.size).round(0 if starts == "equal" else 6)
        end = start + rng.integers(1, 3, row.size)
        cat = rng.integers(0, 2, row.size)
        shuffled = rng.permutation(row.size)
        got = gamma._drawn_continua(20, counts, *(a[shuffled] for a in (row, index, start, end, cat)))
        want = gamma.Continua.build(20, row >> 1, row & 1, start, end, cat)
        for a, b in zip(dataclasses.astuple(got), dataclasses.astuple(want)):
            assert np.array_equal(a, b), starts


def test_per_example_equals_the_per_example_path(bundled):
    named = bundled.spans.assign(
        annotator=[
            gamma.annotator_id(c, g) for c, g in zip(bundled.spans["campaign"], bundled.spans["annotator_group"])
        ],
        label=bundled.spans["type_idx"].astype(str),
    )
    for _, rs, hs, rsp, hsp, ex in list(span_level.iter_pairs(bundled))[:4]:
        spans = named.loc[pd.concat([rsp, hsp]).index.unique()]
        for soft in (False, True):
            ours, theirs = gamma.per_example(spans, ex, soft=soft), gamma_per_example(spans, ex, soft=soft)
            pd.testing.assert_frame_equal(ours, theirs, check_exact=True)
            assert [type(v) for v in ours.attrs["raw_gamma"]] == [type(v) for v in theirs.attrs["raw_gamma"]]
            assert gamma.summary(ours) == gamma.summary(theirs)


@pytest.mark.parametrize("soft", [False, True])
def test_pairwise_gamma_equals_the_per_pair_path(bundled, edge, soft):
    comparisons = [*EDGE_COMPARISONS, NO_SHARED_EXAMPLE]
    for corpus, comps in [(bundled, None), (edge, comparisons)]:
        ours, theirs = span_gamma.pairwise(corpus, comps, soft=soft), gamma_pairwise(corpus, comps, soft=soft)
        assert_same_gamma(ours, theirs)
        pd.testing.assert_frame_equal(
            span_gamma.by_comparison(*ours, n_boot=200), span_gamma.by_comparison(*theirs, n_boot=200), check_exact=True
        )
    pairs, _ = ours
    assert pairs.loc[pairs["comparison"] == NO_SHARED_EXAMPLE["name"], "examples"].eq(0).all()
    assert pairs["gamma_examples"].gt(0).any() and pairs["s_empty_examples"].gt(0).any()


def test_more_than_two_annotators_fail_as_the_per_pair_path_fails(edge):
    crowded = [EDGE_COMPARISONS[0], {"name": "pooled", "ref": ["stage1"], "hyp": ["x/A"]}]
    with pytest.raises(gamma.TooManyAnnotators) as ours:
        span_gamma.pairwise(edge, crowded)
    with pytest.raises(gamma.TooManyAnnotators) as theirs:
        gamma_pairwise(edge, crowded)
    assert str(ours.value) == str(theirs.value) and "3 annotators" in str(ours.value)


def test_pair_means_are_pandas_means():
    rng = np.random.default_rng(0)
    lengths = rng.integers(0, 14, 200)
    values = rng.normal(size=lengths.sum())
    values[rng.random(values.size) < 0.3] = np.nan
    got = span_gamma._nanmean_rows(values, lengths)
    for row, chunk in zip(got, np.split(values, np.cumsum(lengths)[:-1])):
        want = pd.Series(chunk, dtype=float).mean()
        assert (np.isnan(row) and np.isnan(want)) or row == want


# --- boundaries, error counts and the table --------------------------------------------------------


def test_groups_scored_at_once_equal_count_example_span_by_span():
    rng = np.random.default_rng(2)
    groups, sides = 60, {"ref": [], "hyp": []}
    for g in range(groups):
        for side in sides:
            n = int(rng.integers(0, 7))
            start = rng.integers(0, 150, n)
            sides[side].append(
                [(g, s, s + int(rng.integers(0, 120)), int(t)) for s, t in zip(start, rng.integers(0, 3, n))]
            )
    arrays = {
        k: tuple(np.array([u[i] for spans in v for u in spans], np.int64) for i in range(4)) for k, v in sides.items()
    }
    got = boundaries.count_groups(groups, arrays["ref"], arrays["hyp"])
    for scheme in boundaries.SCHEMES:
        for g in range(groups):
            ref, hyp = ([u[1:] for u in sides[k][g]] for k in ("ref", "hyp"))
            assert got[scheme][g].tolist() == boundaries.count_example(ref, hyp, scheme), (scheme, ref, hyp)


def test_a_zero_length_reference_span_overlaps_nothing():
    """nervaluate divides by a reference span's length; one of no character shares nothing."""
    got = boundaries.count_groups(1, ([0], [5], [4], [0]), ([0, 0], [3, 5], [6, 9], [0, 0]))
    assert {s: got[s][0].tolist() for s in ("strict", "partial")} == {
        "strict": [0, 0, 0, 1, 2],
        "partial": [0, 0, 0, 1, 2],
    }


def test_rows_of_pearson_equal_scipy_row_by_row():
    rng = np.random.default_rng(1)
    for length in (2, 3, 8, 9, 36):
        x, y = rng.poisson(1.0, (20, length)), rng.poisson(0.7, (20, length))
        x[0] = 2  # constant: NaN
        r, p = error_counts.pearson_rows(x, y)
        for i in range(20):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the constant row's
                want = pearsonr(x[i].astype(float), y[i].astype(float))
            assert np.array_equal([r[i], p[i]], [want.statistic, want.pvalue], equal_nan=True)


def test_measures_equal_the_per_pair_path(bundled, edge):
    for corpus, comps in [(bundled, None), (edge, EDGE_COMPARISONS)]:
        ours, theirs = span_measures.pairs(corpus, comps), measures_pairs(corpus, comps)
        assert_same_measures(ours, theirs)
    # the per-pair table stops where a measure is undefined for every pair of a comparison (a set
    # with no spans has a constant count: no r); ours gives it no estimate and keeps the others
    defined = [c for c in EDGE_COMPARISONS if c["name"] != "a set with no spans"]
    for corpus, comps in [(bundled, None), (edge, defined)]:
        ours, theirs = span_measures.pairs(corpus, comps), measures_pairs(corpus, comps)
        pd.testing.assert_frame_equal(
            span_measures.table(*ours, n_boot=300), measures_table(*theirs, n_boot=300), check_exact=True
        )
    table = span_measures.table(*span_measures.pairs(edge, EDGE_COMPARISONS), n_boot=300).set_index("comparison")
    assert np.isnan(table.loc["a set with no spans", "Pearson r (micro)"])
    assert table.drop(columns=[c for c in table.columns if c.startswith("Pearson")]).notna().all().all()


def test_measures_fail_as_the_per_pair_path_fails(edge):
    """A pair sharing no example, or one, has no correlation: the same errors."""
    comps = [EDGE_COMPARISONS[0], NO_SHARED_EXAMPLE]
    with pytest.raises(ValueError) as ours:
        span_measures.pairs(edge, comps)
    with pytest.raises(ValueError) as theirs:
        measures_pairs(edge, comps)
    assert str(ours.value) == str(theirs.value)
    assert str(ours.value) == "neither side marked any span: there are no categories to correlate"
    one = {"name": "one shared example", "ref": ["x/C"], "hyp": ["stage1/A"], "examples": edge.examples[KEY].iloc[[2]]}
    with pytest.raises(ValueError, match="needs at least two examples") as ours:
        span_measures.pairs(edge, [one])
    with pytest.raises(ValueError, match="needs at least two examples"):
        measures_pairs(edge, [one])


# --- the real corpus ------------------------------------------------------------------------------


@pytest.mark.slow
def test_every_real_pair_equals_the_per_pair_path():
    """Chapter 08's comparisons (29 human groups, six LLMs): every γ, every measure, every interval
    of about a sixth of its 580 pairs: every sixth pair of human groups, each group's row taking
    its turn, and every human group against one LLM, the LLMs taking turns (all of them with the
    full sweep, tests/sweep.py: the per-pair path is slow)."""
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    everything = judges.comparisons(corpus)
    humans = [c for c in everything if c["name"] == "humans vs humans"]
    llms = [c for c in everything if c["name"] != "humans vs humans"]
    of = len(llms)
    rows = [{**c, "hyp": sweep.share(c["hyp"], turn, of)} for turn, c in enumerate(humans)]
    comparisons = [c for c in rows if c["hyp"]] + [
        {**c, "ref": sweep.share(c["ref"], turn, of)} for turn, c in enumerate(llms)
    ]
    # every human group against exactly one LLM (every LLM with the full sweep), and every LLM
    assert all(c["ref"] == llms[0]["ref"] for c in llms)
    met = sorted(r for c in comparisons[-of:] for r in c["ref"])
    assert met == sorted(llms[0]["ref"] * (of if sweep.FULL else 1))
    assert {c["name"] for c in comparisons} == {c["name"] for c in everything}
    ours, theirs = span_gamma.pairwise(corpus, comparisons), gamma_pairwise(corpus, comparisons)
    assert_same_gamma(ours, theirs)
    pd.testing.assert_frame_equal(span_gamma.by_comparison(*ours), span_gamma.by_comparison(*theirs), check_exact=True)
    ours, theirs = span_measures.pairs(corpus, comparisons), measures_pairs(corpus, comparisons)
    assert_same_measures(ours, theirs)
    pd.testing.assert_frame_equal(span_measures.table(*ours), measures_table(*theirs), check_exact=True)
