"""γ (metrics.gamma) equals factgenie 1.2.1's own ``compute_gamma_scores`` (pygamma-agreement
0.5.9 underneath) per example: its alignments equal pygamma's, its sampled continua are
pygamma's sampler's draws, and every γ of the Table 6 pairs of the bundled corpus and of the
real corpus' pairs is factgenie's (the slow tier an even spread over every pair, every example with
``HOTELCHECKSPAN_FULL_SWEEP=1``; the unit tier a sample)."""

from __future__ import annotations

import json
import logging
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
import shaped
import sweep
from gamma_reference import FACTGENIE_GAMMA, factgenie_gamma
from strict import strict

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import span_level
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import gamma

needs_oracle = pytest.mark.skipif(FACTGENIE_GAMMA is None, reason="factgenie or pygamma-agreement is not installed")


@pytest.fixture(autouse=True)
def _quiet():
    """pygamma logs a warning per alignment when the CBC solver is absent."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


def ours_vs_factgenie(spans: pd.DataFrame, sets: list[tuple], examples: pd.DataFrame, soft: bool):
    """(our per-example table, our factgenie-shaped summary, factgenie's result) for one pair."""
    sp = spans.assign(
        annotator=[gamma.annotator_id(c, g) for c, g in zip(spans["campaign"], spans["annotator_group"])],
        label=spans["type_idx"].astype(str),
    )
    table = gamma.per_example(sp, examples, soft=soft)
    return table, gamma.summary(table), factgenie_gamma(spans, sets, examples, soft)


def assert_same(ours: dict, theirs: dict):
    """Per example identical γ (the same float32) and S∅, and factgenie's rounded means."""
    assert [float(g) for g in theirs["gamma_scores"]] == ours["gamma_scores"]
    assert theirs["s_empty_scores"] == ours["s_empty_scores"]
    for k in ("gamma_mean", "s_empty_mean", "example_count"):
        assert theirs[k] == ours[k], k


# --- the pieces against pygamma -------------------------------------------------------------------


def random_units(rng, n_annotators=2, max_units=6, length=80, categories=3, min_units=0):
    """Random annotators' (start, end, category) arrays; the first has a unit (as sampled ones do)."""
    out = []
    for _ in range(n_annotators):
        n = int(rng.integers(max(min_units, 0 if out else 1), max_units + 1))
        start = rng.integers(0, length, n)
        end = start + rng.integers(1, 25, n)
        out.append((start, end, rng.integers(0, categories, n)))
    return out


def pygamma_continuum(units):
    import pygamma_agreement as pa
    from pyannote.core import Segment

    c = pa.Continuum()
    for i, (s, e, cat) in enumerate(units):
        c.add_annotator(f"a{i}")
        for a, b, k in zip(s, e, cat):
            c.add(f"a{i}", Segment(int(a), int(b)), str(k))
    return c


def batch(continua: list) -> gamma.Continua:
    """Several continua (each a list of two annotators' (start, end, category) arrays) as one batch."""
    parts = [
        (np.full(len(s), i), np.full(len(s), k), s, e, c)
        for i, units in enumerate(continua)
        for k, (s, e, c) in enumerate(units)
    ]
    arrays = [np.concatenate(a) for a in zip(*parts)]
    return gamma.Continua.build(len(continua), *arrays)


@needs_oracle
@pytest.mark.parametrize("soft", [False, True])
def test_best_alignment_disorder_is_pygammas(soft):
    """Continua of every shape in one batch, each disorder pygamma's (an annotator may have no unit)."""
    import pygamma_agreement as pa

    dissim = pa.CombinedCategoricalDissimilarity(alpha=1.0, beta=1.0, delta_empty=1.0)
    rng = np.random.default_rng(7)
    units = [random_units(rng) for _ in range(40)]
    got = gamma._disorders(batch(units), soft, 1.0, 1.0, 1.0)
    for u, g in zip(units, got):
        c = pygamma_continuum(u)
        want = (c.get_best_soft_alignment if soft else c.get_best_alignment)(dissim).disorder
        assert g == np.float32(want), (u, g, want)


@needs_oracle
def test_sampled_continua_are_pygammas_draws():
    """After seeding, the sampler draws for every continuum of a batch the continua pygamma's
    StatisticalContinuumSampler draws from numpy's global generator (same units, same order),
    without touching that generator."""
    rs, streams = np.random.RandomState(5), gamma._Streams(1, 5, 4096)
    one, calls = np.zeros(1, np.int64), [("normal", 2.5, 0.7), ("uniform",), ("normal", -1.0, 3.0)]
    for call in [*calls, ("normal", 0.0, 0.0), ("uniform",)] * 40:  # numpy's legacy stream, interleaved
        want = rs.random_sample() if call[0] == "uniform" else rs.normal(*call[1:])
        got = streams.uniform(one) if call[0] == "uniform" else streams.normal(one, *(np.array([v]) for v in call[1:]))
        assert got[0] == want
    from pygamma_agreement.sampler import StatisticalContinuumSampler

    rng = np.random.default_rng(3)
    units = [random_units(rng, max_units=5) for _ in range(10)]
    state = np.random.get_state()[1].copy()
    drawn = gamma._sample(gamma._statistics(batch(units)), 5, 42)
    assert np.array_equal(np.random.get_state()[1], state)  # the global generator is left alone
    for i, u in enumerate(units):
        sampler = StatisticalContinuumSampler()
        sampler.init_sampling(pygamma_continuum(u))
        np.random.seed(42)
        for j in range(5):
            theirs = sampler.sample_from_continuum
            mine = drawn.cont == i * 5 + j
            for k, name in enumerate(theirs.annotators):
                side = mine & (drawn.side == k)
                want = [(x.segment.start, x.segment.end, x.annotation) for x in theirs.iterunits(name)]
                assert want == [(s, e, str(c)) for s, e, c in zip(drawn.start[side], drawn.end[side], drawn.cat[side])]


@needs_oracle
@pytest.mark.parametrize("soft", [False, True])
def test_continuum_gamma_is_pygammas(soft):
    import pygamma_agreement as pa

    dissim = pa.CombinedCategoricalDissimilarity(alpha=1.0, beta=1.0, delta_empty=1.0)
    rng = np.random.default_rng(11)
    for _ in range(4):
        units = random_units(rng, max_units=4, min_units=1)
        c = pygamma_continuum(units)
        np.random.seed(42)
        want = c.compute_gamma(dissim, soft=soft).gamma
        assert gamma.continuum_gamma(units, soft=soft) == want


# --- behaviour ------------------------------------------------------------------------------------


def test_identical_annotations_have_gamma_one_and_lone_annotators_s_empty():
    ex = pd.DataFrame([("d", "s", "x", 0), ("d", "s", "x", 1), ("d", "s", "x", 2)], columns=KEY)
    rows = [
        ("d", "s", "x", 0, "a", 3, 9, "0"),
        ("d", "s", "x", 0, "b", 3, 9, "0"),
        ("d", "s", "x", 1, "a", 3, 9, "0"),
        ("d", "s", "x", 1, "a", 12, 20, "1"),
        ("d", "s", "x", 1, "b", 5, 5, "1"),  # zero-length: dropped, as factgenie drops it
    ]
    spans = pd.DataFrame(rows, columns=gamma.SPAN_COLUMNS)
    table = gamma.per_example(spans, ex)
    assert table["gamma"].tolist()[0] == 1.0 and np.isnan(table["gamma"].tolist()[1:]).all()
    assert table["s_empty"].tolist()[1:] == [1 / 3, 1.0]
    assert table["annotators"].tolist() == [2, 1, 0] and table["spans"].tolist() == [2, 2, 0]
    s = gamma.summary(table)
    assert s["gamma_mean"] == 1.0 and s["s_empty_mean"] == round((1 / 3 + 1) / 2, 3) and s["example_count"] == 3


def test_more_than_two_annotators_is_a_clear_error():
    ex = pd.DataFrame([("d", "s", "x", 0)], columns=KEY)
    spans = pd.DataFrame([("d", "s", "x", 0, name, 3, 9, "0") for name in ("a", "b", "c")], columns=gamma.SPAN_COLUMNS)
    with pytest.raises(gamma.TooManyAnnotators, match="3 annotators .*a, b, c.*one annotator group per side"):
        gamma.per_example(spans, ex)


def test_disagreement_lowers_gamma():
    ex = pd.DataFrame([("d", "s", "x", 0)], columns=KEY)

    def g(hyp):
        ref = [("d", "s", "x", 0, "a", 10, 20, "0"), ("d", "s", "x", 0, "a", 40, 50, "1")]
        return gamma.per_example(pd.DataFrame(ref + hyp, columns=gamma.SPAN_COLUMNS), ex)["gamma"].iloc[0]

    near = g([("d", "s", "x", 0, "b", 11, 20, "0"), ("d", "s", "x", 0, "b", 40, 50, "1")])
    shifted = g([("d", "s", "x", 0, "b", 15, 26, "0"), ("d", "s", "x", 0, "b", 40, 50, "1")])
    retyped = g([("d", "s", "x", 0, "b", 15, 26, "1"), ("d", "s", "x", 0, "b", 40, 50, "0")])
    assert 1 > near > shifted > retyped


# --- factgenie's own function on the corpora ------------------------------------------------------


def table6_pairs():
    corpus = hotelcheckspan.load(paths.BUNDLED_CORPUS)
    return corpus, list(span_level.iter_pairs(corpus))


def real_pairs(human_pairs: int = 10):
    """Every human group against every LLM campaign (as the F1 tests compare them) and the first
    ``human_pairs`` pairs of human groups sharing texts, with the examples both annotated.
    (factgenie takes about a second per example here: all 406 pairs of groups would take hours.)"""
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    rec = corpus.records
    groups = sorted({(c, g) for c, g in rec.loc[rec["kind"] == "human", ["campaign", "annotator_group"]].values})
    models = sorted(set(rec.loc[rec["kind"] == "model", "campaign"]))
    out = []

    def side(c, g):
        def mine(frame):
            keep = frame["campaign"] == c
            return keep & (frame["annotator_group"] == g) if g is not None else keep

        return rec.loc[mine(rec), KEY].drop_duplicates(), corpus.spans[mine(corpus.spans)]

    n_human = 0
    for ref, hyp in [*((h, (m, None)) for h in groups for m in models), *combinations(groups, 2)]:
        (r_ex, r_sp), (h_ex, h_sp) = side(*ref), side(*hyp)
        ex = r_ex.merge(h_ex, on=KEY)
        if len(ex) and (hyp[1] is None or n_human < human_pairs):
            out.append((ref, hyp, pd.concat([r_sp, h_sp]), ex))
            n_human += hyp[1] is not None
    return out


@needs_oracle
@pytest.mark.parametrize("soft", [False, True])
def test_table6_sample_equals_factgenie(soft):
    """Unit tier: the first examples both sides marked (and a few others) of two Table 6 pairs."""
    _, pairs = table6_pairs()
    chosen = [pairs[1], next(p for p in pairs if p[2].spec == "gpt-4o")]
    for name, rs, hs, rsp, hsp, ex in chosen:
        spans = pd.concat([rsp, hsp])
        marked = rsp[KEY].drop_duplicates().merge(hsp[KEY].drop_duplicates()).merge(ex, on=KEY).head(6)
        sample = pd.concat([marked, ex.head(3)]).drop_duplicates()
        _, ours, theirs = ours_vs_factgenie(spans, [(rs.campaign, rs.group), (hs.campaign, hs.group)], sample, soft)
        assert len(ours["gamma_scores"]) >= 3, name
        assert_same(ours, theirs)


@needs_oracle
def test_real_corpus_sample_equals_factgenie():
    pairs = real_pairs()
    for ref, hyp, spans, ex in (pairs[0], pairs[-1]):
        _, ours, theirs = ours_vs_factgenie(spans, [ref, hyp], ex.head(6), soft=False)
        assert_same(ours, theirs)


def spread(items, soft: bool, of: int = 48, start: int = 0):
    """Every ``of``-th item from ``start``, the soft convention half a step later than the hard
    one: with 48, between them every 24th item, each under one of the two conventions
    (tests/sweep.py). pygamma takes about half a second per example: the full sweep takes about
    twenty minutes."""
    return sweep.share(items, start + (of // 2 if soft else 0), of=of)


@needs_oracle
@pytest.mark.slow
@pytest.mark.parametrize("soft", [False, True])
def test_table6_pairs_equal_factgenie(soft):
    """An even spread of the examples of every Table 6 pair, each pair from an example of its own
    (every example with the full sweep)."""
    _, pairs = table6_pairs()
    checked = 0
    for i, (name, rs, hs, rsp, hsp, ex) in enumerate(pairs):
        spans = pd.concat([rsp, hsp])
        ex = spread(ex, soft, start=i)
        table, ours, theirs = ours_vs_factgenie(spans, [(rs.campaign, rs.group), (hs.campaign, hs.group)], ex, soft)
        assert_same(ours, theirs)
        checked += len(ours["gamma_scores"])
    assert checked >= 20  # enough examples with a γ, not only S∅


@needs_oracle
@pytest.mark.slow
@pytest.mark.parametrize("soft", [False, True])
def test_real_corpus_pairs_equal_factgenie(soft):
    """Every text of an even spread of the real corpus' pairs (every pair with the full sweep):
    every 29th, a step prime to the six LLMs each human group is listed with and short enough to
    meet each of them, so that every LLM is among them."""
    checked, seen = 0, set()
    pairs = real_pairs()
    for ref, hyp, spans, ex in spread(pairs, soft, of=29):
        _, ours, theirs = ours_vs_factgenie(spans, [ref, hyp], ex, soft)
        assert_same(ours, theirs)
        checked += len(ours["gamma_scores"])
        seen.add(hyp)
    assert checked >= 40
    assert {hyp for _, hyp, _, _ in pairs if hyp[1] is None} <= seen  # every LLM


# --- the public API and the command line ----------------------------------------------------------

TOY_STAGE1 = "annotations/human/stage1/annotations.jsonl"
TOY_M1 = "annotations/model/m1/annotations.jsonl"


def run_cli(capsys, *args):
    from hotelcheckspan import cli

    capsys.readouterr()
    code = cli.main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


@needs_oracle
def test_gamma_tells_same_named_folders_apart(capsys, tmp_path):
    """cot/llama3-3 against zeroshot/llama3-3 (tests/shaped.py's "same-names" corpus): γ is
    defined, over the examples both marked, and equals factgenie's on the same spans with the
    campaigns named apart. (Here, with the other tests that import pygamma, which compiles its
    functions for about ten seconds in each process that imports it.)"""
    root = shaped.build(tmp_path / "same-names", "same-names")
    cot, zero = (root / f"annotations/model/mt-eval/{v}/llama3-3/annotations.jsonl" for v in ("cot", "zeroshot"))
    code, out, err = run_cli(capsys, "gamma", cot, zero, "--json")
    assert code == 0, err
    res = strict(out)
    camps = {c.path: c for c in shaped.SHAPES["same-names"]()[0] if c.records is not None}

    def marked(recs):
        return {r["example_idx"] for r in recs if r["annotations"]}

    both = marked(camps["model/mt-eval/cot/llama3-3"].records) & marked(
        camps["model/mt-eval/zeroshot/llama3-3"].records
    )
    assert res["gamma"] is not None and res["gamma_examples"] == len(both) > 0
    corpus = hotelcheckspan.load(root)
    names = ["cot-llama3-3", "zeroshot-llama3-3"]
    spans = corpus.spans[corpus.spans["campaign"].isin(names)]
    examples = corpus.records.loc[corpus.records["campaign"].isin(names), KEY].drop_duplicates()
    theirs = factgenie_gamma(spans, [(n, 0) for n in names], examples, soft=False)
    # factgenie rounds its means to 3 decimals; ours are the same means, unrounded, at gamma's precision
    assert round(res["gamma_mean"], 3) == theirs["gamma_mean"]
    assert round(res["s_empty_mean"], 3) == theirs["s_empty_mean"]
    assert res["gamma_mean"] == res["gamma"] == pytest.approx(float(np.mean(theirs["gamma_scores"])), abs=1e-6)


@needs_oracle
def test_span_gamma_between_groups_of_one_file(toy_root, toy):
    """Toy stage 1, A against B: both marked examples 0 and 3 (γ); only B marked example 1 and
    only A example 2, one span each (S∅ = 1/2)."""
    stage1 = toy_root / TOY_STAGE1
    res = hotelcheckspan.span_gamma(stage1, stage1, ref_group="A", hyp_group="B")
    assert set(res) == {
        "compared",
        "gamma",
        "s_empty",
        "gamma_mean",
        "s_empty_mean",
        "gamma_examples",
        "s_empty_examples",
        "examples",
        "soft",
    }
    assert (res["gamma_examples"], res["s_empty_examples"], res["examples"]) == (2, 2, 4)
    assert res["s_empty"] == 0.5 and res["soft"] is False
    spans = toy.spans[toy.spans["campaign"] == "stage1"]
    examples = toy.records.loc[toy.records["campaign"] == "stage1", KEY].drop_duplicates()
    for soft in (False, True):
        theirs = factgenie_gamma(spans, [("stage1", 0), ("stage1", 1)], examples, soft)
        ours = hotelcheckspan.span_gamma(stage1, stage1, ref_group=0, hyp_group="B", soft=soft)
        # factgenie rounds its means to 3 decimals; span_gamma gives them unrounded
        assert round(ours["gamma_mean"], 3) == theirs["gamma_mean"]
        assert round(ours["s_empty_mean"], 3) == theirs["s_empty_mean"]
        assert ours["gamma"] == pytest.approx(float(np.mean(theirs["gamma_scores"])), abs=1e-6)
    # a set against itself: factgenie's one name would make it one annotator (S∅ only, no γ); each
    # side is told apart by its file, so every example A marked has γ 1 and the others S∅ 1
    itself = hotelcheckspan.span_gamma(stage1, stage1, ref_group="A", hyp_group="A")
    marked_by_a = spans.loc[spans["annotator_group"] == 0, KEY].drop_duplicates()
    assert itself["gamma"] == pytest.approx(1.0) and itself["gamma_examples"] == len(marked_by_a)
    assert itself["s_empty_examples"] == itself["examples"] - len(marked_by_a)
    assert itself["s_empty"] in (None, 1.0)


def test_span_gamma_tells_two_files_with_one_folder_name_apart(toy_root, tmp_path):
    """Two campaign folders named alike (cot/m1 and zeroshot/m1): factgenie's annotator names
    collide; each side is named by its file, so γ is defined (the spans differ)."""
    for variant, shift in (("cot", 0), ("zeroshot", 3)):
        folder = tmp_path / variant / "m1"
        folder.mkdir(parents=True)
        (folder / "config.yaml").write_text((toy_root / TOY_M1).with_name("config.yaml").read_text())
        lines = (toy_root / TOY_M1).read_text().splitlines()
        moved = []
        for line in lines:
            rec = json.loads(line)
            for a in rec["annotations"]:
                a["start"] += shift  # past the text where it ends: kept as factgenie keeps it
            moved.append(json.dumps(rec))
        (folder / "annotations.jsonl").write_text("\n".join(moved) + "\n")
    res = hotelcheckspan.span_gamma(tmp_path / "cot/m1/annotations.jsonl", tmp_path / "zeroshot/m1/annotations.jsonl")
    assert res["gamma_examples"] > 0 and res["gamma"] is not None and res["gamma"] < 1
    assert res["compared"]["reference"]["file"].endswith("cot/m1/annotations.jsonl")


def test_span_gamma_takes_what_read_annotations_returns(toy_root):
    ann = hotelcheckspan.read_annotations(toy_root / TOY_STAGE1)
    by_path = hotelcheckspan.span_gamma(toy_root / TOY_STAGE1, toy_root / TOY_M1, ref_group="B")
    assert hotelcheckspan.span_gamma(ann, str(toy_root / TOY_M1), ref_group="B") == by_path
    assert "span_gamma" in hotelcheckspan.__all__


@pytest.mark.parametrize("extra", [[], ["--soft"]])
def test_gamma_json_is_what_span_gamma_returns(capsys, toy_root, extra):
    import json

    stage1 = toy_root / TOY_STAGE1
    code, out, err = run_cli(capsys, "gamma", stage1, toy_root / TOY_M1, "--ref-group", "B", "--json", *extra)
    assert code == 0, err
    printed = json.loads(out, parse_constant=lambda c: pytest.fail(f"not strict JSON: {c}"))
    assert printed.pop("settings")["soft"] == bool(extra)  # the JSON records what it ran with
    assert printed == hotelcheckspan.span_gamma(stage1, toy_root / TOY_M1, ref_group="B", soft=bool(extra))


def test_gamma_text_output(capsys, toy_root):
    stage1 = toy_root / TOY_STAGE1
    code, out, _ = run_cli(capsys, "gamma", stage1, stage1, "--ref-group", "A", "--hyp-group", "B")
    res = hotelcheckspan.span_gamma(stage1, stage1, ref_group="A", hyp_group="B")
    assert code == 0
    lines = out.splitlines()
    assert lines.pop(0) == "frame: two files, every record of both"
    assert lines[0] == "hard gamma, 4 texts"
    assert lines[1].split()[:2] == ["gamma", f"{res['gamma']:.3f}"] and lines[2].split()[:2] == ["S_empty", "0.500"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["missing.jsonl", TOY_STAGE1], "no such file"),
        ([TOY_STAGE1, TOY_STAGE1, "--ref-group", "7"], "has no annotator group 7 (its groups: A, B)"),
        ([TOY_STAGE1, TOY_M1], "3 annotators"),  # stage 1 pooled: groups A and B both marked example 0
    ],
)
def test_gamma_errors_are_one_line(capsys, toy_root, args, message):
    code, out, err = run_cli(capsys, "gamma", *[toy_root / a for a in args[:2]], *args[2:])
    assert code == 1 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


# --- the analysis and the readings ----------------------------------------------------------------


@pytest.fixture(scope="module")
def toy_gamma(toy):
    from hotelcheckspan.analyses import span_gamma

    comparisons = [
        {"name": "A-B", "ref": ["stage1/A"], "hyp": ["stage1/B"]},
        {"name": "groups-m1", "ref": ["stage1/A", "stage1/B"], "hyp": ["m1"]},
    ]
    pairs, per_example = span_gamma.pairwise(toy, comparisons)
    return pairs, per_example, span_gamma.by_comparison(pairs, per_example, n_boot=200, seed=0)


def test_pairwise_gamma_is_the_mean_of_span_gamma(toy_root, toy_gamma):
    pairs, per_example, _ = toy_gamma
    assert pairs[["comparison", "ref", "hyp"]].values.tolist() == [
        ["A-B", "stage1/A", "stage1/B"],
        ["groups-m1", "stage1/A", "m1"],
        ["groups-m1", "stage1/B", "m1"],
    ]
    stage1, m1 = toy_root / TOY_STAGE1, toy_root / TOY_M1
    for row, (ref, hyp, rg) in enumerate([(stage1, stage1, "A"), (stage1, m1, "A"), (stage1, m1, "B")]):
        api = hotelcheckspan.span_gamma(ref, hyp, ref_group=rg, hyp_group="B" if hyp == stage1 else None)
        got = pairs.iloc[row]
        assert got["gamma"] == pytest.approx(api["gamma"]) and got["s_empty"] == pytest.approx(api["s_empty"])
        assert (got["gamma_examples"], got["examples"]) == (api["gamma_examples"], api["examples"])
        assert (per_example["row"] == row).sum() == api["examples"]


def test_by_comparison_averages_pairs_with_intervals(toy_gamma):
    pairs, _, table = toy_gamma
    assert table["comparison"].tolist() == ["A-B", "groups-m1"] and table["pairs"].tolist() == [1, 2]
    compared = pairs.groupby("comparison", sort=False)["examples"]
    assert table["pair_examples"].tolist() == compared.sum().tolist()  # every pair's texts, summed
    assert table["examples"].tolist() == compared.max().tolist()
    means = pairs.groupby("comparison", sort=False)[["gamma", "s_empty"]].mean()
    assert table["gamma"].tolist() == pytest.approx(means["gamma"].tolist())
    for m in ("gamma", "s_empty"):
        assert (table[f"{m}_low"] <= table[f"{m}_high"]).all()


def test_rank_agreement_and_readings():
    from hotelcheckspan.analyses import span_gamma
    from hotelcheckspan.book.readings import span_gamma as gamma_readings

    gammas = pd.DataFrame(
        {
            "comparison": ["x", "y", "z"],
            "gamma": [0.5, 0.1, 0.3],
            "gamma_low": [0.4, 0.0, 0.2],
            "gamma_high": [0.6, 0.2, 0.4],
            "pairs": [2, 1, 1],
            "gamma_pairs": [2, 1, 1],
            "gamma_examples": [4, 10, 6],
            "examples": [20, 20, 20],  # the most texts a pair of the comparison shares
            "pair_examples": [25, 20, 20],  # x's two pairs share 20 and 5 texts
            "s_empty": [0.9, 0.5, 0.7],
        }
    )
    t6 = pd.DataFrame(
        {"comparison": ["x", "y", "z"], "match": "hard", "f1": [0.1, 0.3, 0.2], "f1_low": 0.0, "f1_high": 0.5}
    )
    beside = span_gamma.beside_f1(gammas, t6)
    assert beside["f1_rank"].tolist() == [3, 1, 2] and beside["gamma_rank"].tolist() == [1, 3, 2]
    # x's γ rests on 4 examples, fewer than MIN_GAMMA_EXAMPLES (5): left out of the order; y and z swap
    agreement = span_gamma.rank_agreement(beside)
    assert span_gamma.MIN_GAMMA_EXAMPLES == 5
    assert agreement == {
        "tau": pytest.approx(-1.0),
        "comparisons": 2,
        "moved": ["y", "z"],
        "left_out": ["x"],
        "tau_all": pytest.approx(-1.0),
        "discordant": 1,
        "shown": 0,  # F1's intervals of y and z overlap (0.0-0.5 both)
        "min_examples": 5,
    }
    everything = span_gamma.rank_agreement(beside, min_examples=0)
    assert (everything["comparisons"], everything["moved"], everything["left_out"]) == (3, ["x", "y"], [])
    text = gamma_readings.readings(None, beside=beside, agreement=agreement)
    assert all(isinstance(v, str) for v in text.values())
    assert (text["gamma_top"], text["gamma_top_f1_rank"], text["gamma_top_examples"]) == ("x", "3", "4")
    assert (text["gamma_top_pairs"], text["gamma_examples_of"]) == ("2", "20")
    assert (text["gamma_f1_top"], text["gamma_order"], text["gamma_tau"]) == ("y", "a different order from", "-1.00")
    assert text["gamma_moved"] == "x" and text["gamma_negative"] == "0"
    assert (text["gamma_moved_direction"], text["gamma_chance"]) == ("better", "above chance in every row")
    # 4 + 10 + 6 of the 25 + 20 + 20 texts the pairs compared, not of (2 + 1 + 1) pairs x the most (20):
    # a pair sharing fewer texts (chapter 08's group 28, on 5 of 12) counts only those
    assert text["gamma_share"] == f"{20 / 65:.0%}"
    assert "x (a γ on 4 examples in all)" in text["gamma_left_out_text"]
    assert text["gamma_shown_text"].endswith("the rank change is not shown.")


def test_ranks_tie_values_the_printed_figures_cannot_tell_apart():
    from hotelcheckspan.analyses import span_gamma

    # chapter 04's hard F1: stage 2 0.1353 and stage 1 0.1348 differ by 0.0005, under half a point: one rank
    ranks = span_level.tied_ranks(pd.Series([0.1353, 0.1348, 0.12, 0.11, float("nan")]))
    assert ranks.tolist()[:4] == [1, 1, 3, 4] and pd.isna(ranks.iloc[4])
    assert span_level.tied_ranks([0.30, 0.296, 0.292]).tolist() == [1, 1, 1]  # ties chain down
    gammas = pd.DataFrame(
        {
            "comparison": ["a", "b", "c"],
            "gamma": [0.0, 0.2, 0.1],
            "gamma_low": [-0.1, 0.1, 0.0],
            "gamma_high": [0.1, 0.3, 0.2],
            "pairs": 1,
            "gamma_pairs": 1,
            "gamma_examples": 40,
            "examples": 100,
            "pair_examples": 100,
            "s_empty": 0.7,
        }
    )
    t6 = pd.DataFrame(
        {"comparison": ["a", "b", "c"], "match": "hard", "f1": [0.1353, 0.1348, 0.05], "f1_low": 0.0, "f1_high": 0.3}
    )
    beside = span_gamma.beside_f1(gammas, t6)
    assert beside["f1_rank"].tolist() == [1, 1, 3]
    agreement = span_gamma.rank_agreement(beside)
    # a and b tie in F1 (rank 1, 1, 3), γ ranks b, c, a (1, 2, 3): only a against c is ordered differently
    # (F1 a > c, γ c > a); a moves 1 -> 3, c 3 -> 2, b keeps rank 1
    assert agreement["discordant"] == 1 and agreement["moved"] == ["a", "c"]
