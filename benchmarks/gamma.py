"""γ: ours (metrics.gamma) against factgenie 1.2.1's compute_gamma_scores and pygamma-agreement
0.5.9's compute_gamma, side by side in one process, as ratios.

Cases, hard and soft γ:

* the Table 6 pairs of the bundled corpus: factgenie's function on the examples both sides
  marked (by default the first few of every pair; ``--full``: all), ours on the same examples,
  values checked identical per example before the ratio per example is printed; and pygamma's
  own ``Continuum.compute_gamma`` alone (continua built before its clock starts) against ours on
  the same continua as one batch (``gammas``, as a pair's examples are scored);
* pairs of the real corpus (a human group against each LLM, and two human groups);
* a long continuum (two annotators, 40 spans each) against pygamma's compute_gamma;
* the whole Table 6 γ with ours: every pair, every example (seconds, and the ratio to
  factgenie's per-example time over the same examples).

``benchmarks/beyond_f1.py`` compares the whole-table paths with the per-pair path they replaced.

    .venv/bin/python benchmarks/gamma.py [--full]
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import logging
import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from gamma_reference import FACTGENIE_GAMMA, factgenie_gamma  # noqa: E402
from timing import timed  # noqa: E402  (benchmarks/ is the script's folder)

from hotelcheckspan import corpora, paths  # noqa: E402
from hotelcheckspan.analyses import span_gamma, span_level  # noqa: E402
from hotelcheckspan.corpora import KEY  # noqa: E402
from hotelcheckspan.metrics import gamma  # noqa: E402


@contextlib.contextmanager
def c_stdout_silenced():
    """GLPK (under pygamma's soft alignment) prints its solver log from C: send it to /dev/null."""
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)


def named(spans: pd.DataFrame) -> pd.DataFrame:
    return spans.assign(
        annotator=[gamma.annotator_id(c, g) for c, g in zip(spans["campaign"], spans["annotator_group"])],
        label=spans["type_idx"].astype(str),
    )


def both_marked(ref_spans, hyp_spans, examples, limit):
    ex = ref_spans[KEY].drop_duplicates().merge(hyp_spans[KEY].drop_duplicates()).merge(examples, on=KEY)
    return ex if limit is None else ex.head(limit)


def check_equal(ours: dict, theirs: dict, what: str) -> None:
    same = [float(g) for g in theirs["gamma_scores"]] == ours["gamma_scores"]
    same &= all(theirs[k] == ours[k] for k in ("gamma_mean", "s_empty_mean", "example_count"))
    assert same, f"ours and factgenie disagree on {what}"


def pygamma_core(units_by_example: list, soft: bool) -> list:
    """pygamma's compute_gamma alone, continua built outside the clock."""
    import pygamma_agreement as pa
    from pyannote.core import Segment

    dissim = pa.CombinedCategoricalDissimilarity(alpha=1.0, beta=1.0, delta_empty=1.0)
    continua = []
    for units in units_by_example:
        c = pa.Continuum()
        for name, (s, e, lab) in units.items():
            for a, b, k in zip(s, e, lab):
                c.add(name, Segment(a, b), k)
        continua.append(c)

    def run():
        out = []
        for c in continua:
            np.random.seed(gamma.SEED)
            out.append(c.compute_gamma(dissim, soft=soft).gamma)
        return out

    return continua, run


def ours_units(units: dict) -> list:
    """pygamma's input of one example (annotator -> (starts, ends, labels)) as continuum_gamma's."""
    labels = sorted({k for _, _, lab in units.values() for k in lab})
    return [(np.array(s), np.array(e), np.array([labels.index(k) for k in lab])) for s, e, lab in units.values()]


def batch(continua: list) -> gamma.Continua:
    """Continua in ours_units' form as one batch, scored together as the package scores a pair's examples."""
    parts = [
        (np.full(len(s), i), np.full(len(s), k), s, e, c)
        for i, u in enumerate(continua)
        for k, (s, e, c) in enumerate(u)
    ]
    return gamma.Continua.build(len(continua), *(np.concatenate(a) for a in zip(*parts)))


def units_of(spans: pd.DataFrame, examples: pd.DataFrame) -> list[dict]:
    out = []
    for key in examples[KEY].itertuples(index=False):
        sp = spans.merge(pd.DataFrame([key], columns=KEY), on=KEY)
        sp = sp[sp["start"] != sp["end"]]
        out.append(
            {
                name: (g["start"].tolist(), g["end"].tolist(), g["label"].tolist())
                for name, g in sp.groupby("annotator", sort=True)
            }
        )
    return out


def bench_pairs(cases: list, soft: bool, label: str) -> tuple[float, int]:
    """cases: (what, spans, sets, examples). Returns factgenie's seconds per γ example."""
    t_ours = t_fg = t_core = t_mine = 0.0
    n = 0
    for what, spans, sets, ex in cases:
        if ex.empty:  # factgenie returns no result at all on no example
            continue
        sp = named(spans)
        t1, table = timed(lambda: gamma.per_example(sp, ex, soft=soft), repeat=3)
        with c_stdout_silenced():
            t2, theirs = timed(lambda: factgenie_gamma(spans, sets, ex, soft))
        check_equal(gamma.summary(table), theirs, what)
        units = units_of(sp, ex)
        _, run = pygamma_core(units, soft)
        with c_stdout_silenced():
            t3, core = timed(run)
        assert [float(g) for g in core] == gamma.summary(table)["gamma_scores"], f"pygamma disagrees on {what}"
        prepared = batch([ours_units(u) for u in units])
        t4, mine = timed(lambda: gamma.gammas(prepared, soft=soft), repeat=3)
        assert mine == core, f"gammas and pygamma disagree on {what}"
        t_ours, t_fg, t_core, t_mine, n = t_ours + t1, t_fg + t2, t_core + t3, t_mine + t4, n + len(ex)
    print(
        f"  {label}, {'soft' if soft else 'hard'} γ, {n} examples both sides marked, identical per example:\n"
        f"    per example, continua prepared for both (ours in one batch): pygamma x{t_core / t_mine:,.0f}"
        f" (ours {t_mine / n * 1e3:.1f} ms, pygamma {t_core / n * 1e3:.0f} ms on this machine now)\n"
        f"    per pair, spans in: factgenie compute_gamma_scores x{t_fg / t_ours:,.0f}",
        flush=True,
    )
    return t_fg / n, n


def bench_long(soft: bool) -> None:
    rng = np.random.default_rng(0)
    units = {}
    for name in ("a-anngroup-0", "b-anngroup-0"):
        start = np.sort(rng.choice(4000, 40, replace=False)) * 2
        units[name] = (start.tolist(), (start + rng.integers(3, 40, 40)).tolist(), rng.integers(0, 3, 40).astype(str))
    _, run = pygamma_core([units], soft)
    with c_stdout_silenced():
        t_core, want = timed(run)
    prepared = ours_units(units)
    t_ours, got = timed(lambda: gamma.continuum_gamma(prepared, soft=soft), repeat=3)
    assert got == want[0], "ours and pygamma disagree on the long continuum"
    print(
        f"  one continuum, two annotators with 40 spans each, {'soft' if soft else 'hard'} γ: identical; "
        f"pygamma compute_gamma x{t_core / t_ours:,.0f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="factgenie on every example both sides marked (slow)")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # pygamma warns on every alignment that the CBC solver is absent
    print("γ: ours vs references (ratio = reference time / our time; higher is better)")
    limit = None if args.full else 3
    corpus = corpora.load(paths.BUNDLED_CORPUS)
    pairs = list(span_level.iter_pairs(corpus))
    per_example = {}
    if FACTGENIE_GAMMA is None:
        print("  factgenie or pygamma-agreement is not installed: only our own timing is printed")
    else:
        table6 = [
            (f"{name}: {rs} vs {hs}", pd.concat([rsp, hsp]), [(rs.campaign, rs.group), (hs.campaign, hs.group)], ex)
            for name, rs, hs, rsp, hsp, ex in pairs
            for ex in [both_marked(rsp, hsp, ex, limit)]
        ]
        real = corpora.load(paths.REAL_CORPUS)
        rec, sp = real.records, real.spans
        models = sorted(set(rec.loc[rec["kind"] == "model", "campaign"]))

        def side(c, g):
            keep = (sp["campaign"] == c) & ((sp["annotator_group"] == g) if g is not None else True)
            rkeep = (rec["campaign"] == c) & ((rec["annotator_group"] == g) if g is not None else True)
            return sp[keep], rec.loc[rkeep, KEY].drop_duplicates()

        real_cases = []
        for ref, hyp in [*((("iaa", 0), (m, None)) for m in models), (("iaa", 0), ("iaa", 1))]:
            (rsp, rex), (hsp, hex_) = side(*ref), side(*hyp)
            ex = both_marked(rsp, hsp, rex.merge(hex_, on=KEY), limit)
            real_cases.append((f"real {ref} vs {hyp}", pd.concat([rsp, hsp]), [ref, hyp], ex))
        for soft in (False, True):
            per_example[soft], _ = bench_pairs(table6, soft, "bundled corpus, every Table 6 pair")
            bench_pairs(real_cases, soft, "real corpus, a human group vs each LLM and vs another group")
            bench_long(soft)
    for soft in (False, True):
        t, (pair_table, _) = timed(lambda: span_gamma.pairwise(corpus, soft=soft))
        n = int(pair_table["gamma_examples"].sum())
        line = (
            f"  whole Table 6 γ with ours ({len(pair_table)} pairs, every example, {n} with a γ), "
            f"{'soft' if soft else 'hard'}: {t:.1f} s"
        )
        if soft in per_example:
            fg = per_example[soft] * n
            line += f" (factgenie at its per-example rate: about {fg / 60:,.0f} min, x{fg / t:,.0f})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
