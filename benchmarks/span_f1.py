"""Span F1: the fast path against per-character references, run side by side, as ratios.

References: ``per_character`` (tests/span_reference.py, factgenie's algorithm character by
character) and, where installed, factgenie's own ``compute_f1_scores``. Cases: every Table 6
pair of the bundled corpus (hard and soft), and generated corpora of 20,000+ records. Memory:
tracemalloc peak of the fast path as the generated corpus grows. Prints ratios, not seconds.

    .venv/bin/python benchmarks/span_f1.py
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from span_reference import FACTGENIE, factgenie_f1, per_character  # noqa: E402

from hotelcheckspan import corpus, spans  # noqa: E402
from hotelcheckspan.corpus import CATEGORIES, KEY  # noqa: E402


def as_dicts(sp: pd.DataFrame) -> dict:
    sp = sp.sort_values(["record_id", "order"], kind="stable")
    out: dict = {}
    for row in sp.itertuples(index=False):
        out.setdefault((row.dataset, row.split, row.setup_id, row.example_idx), []).append((row.start, row.end, row.type))
    return out


def timed(fn, repeat=1):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def bundled_pairs():
    return [(rs, hs, ex) for *_, rs, hs, ex in spans.iter_pairs(corpus.load())]


def generated(n_records: int, seed: int = 0, per_side: int = 1):
    """Examples with ``per_side`` reference and hypothesis records each (a pooled annotator set
    when > 1), ``n_records`` records in all; about 1.2 spans of 3-30 characters per record."""
    rng = np.random.default_rng(seed)
    n_ex = n_records // (2 * per_side)
    rows = []
    for side in ("ref", "hyp"):
        n_spans = rng.poisson(1.2, size=n_ex * per_side)
        rec = np.repeat(np.arange(n_ex * per_side), n_spans)
        ex = rec // per_side
        start = rng.integers(0, 110, size=ex.size)
        length = rng.integers(3, 30, size=ex.size)
        rows.append(pd.DataFrame({"dataset": "gen", "split": "x", "setup_id": "s", "example_idx": ex,
                                  "record_id": rec, "order": 0, "start": start, "end": start + length,
                                  "type": np.array(CATEGORIES)[rng.integers(0, 3, size=ex.size)]}))
    examples = pd.DataFrame({"dataset": "gen", "split": "x", "setup_id": "s", "example_idx": np.arange(n_ex)})
    return rows[0], rows[1], examples


def fast_counts(ref, hyp, ex, match):
    return spans.per_example(ref, hyp, ex, match=match, categories=CATEGORIES)


def main() -> None:
    print("span F1: fast path vs references (ratio = reference time / fast time; higher is better)")
    cases = bundled_pairs()
    for match in ("hard", "soft"):
        t_fast, _ = timed(lambda: [fast_counts(r, h, e, match) for r, h, e in cases], repeat=3)
        prepared = [(as_dicts(r), as_dicts(h), [tuple(x) for x in e[KEY].itertuples(index=False)]) for r, h, e in cases]
        t_ref, want = timed(lambda: [per_character(r, h, e, match) for r, h, e in prepared])
        got = [spans.scores(fast_counts(r, h, e, match)).iloc[0] for r, h, e in cases]
        assert all(int(g["overlap"]) == w["all"]["overlap"] and int(g["hyp_length"]) == w["all"]["hyp_length"]
                   for g, w in zip(got, want)), "fast and reference disagree"
        line = f"  bundled corpus, {len(cases)} Table 6 pairs, {match}: per-character reference x{t_ref / t_fast:,.1f}"
        if FACTGENIE is not None:
            t_fg, _ = timed(lambda: [factgenie_f1(r, h, e, match, CATEGORIES) for r, h, e in prepared])
            line += f", factgenie compute_f1_scores x{t_fg / t_fast:,.0f}"
        print(line)

    n_records = 20_000
    for per_side in (1, 10):
        ref, hyp, ex = generated(n_records, per_side=per_side)
        prepared = (as_dicts(ref), as_dicts(hyp), [tuple(x) for x in ex[KEY].itertuples(index=False)])
        shape = "one record per side" if per_side == 1 else f"{per_side} pooled records per side"
        for match in ("hard", "soft"):
            t_fast, counts = timed(lambda: fast_counts(ref, hyp, ex, match), repeat=3)
            t_ref, want = timed(lambda: per_character(*prepared, match))
            assert int(counts["overlap"].sum()) == want["all"]["overlap"], "fast and reference disagree"
            line = (f"  generated corpus, {n_records:,} records ({len(ex):,} examples, {shape}), {match}: "
                    f"per-character reference x{t_ref / t_fast:,.1f}")
            if FACTGENIE is not None and match == "hard":
                t_fg, fg = timed(lambda: factgenie_f1(*prepared, match, CATEGORIES))
                assert fg["overlap_length"] == want["all"]["overlap"], "factgenie and reference disagree"
                line += f", factgenie compute_f1_scores x{t_fg / t_fast:,.0f}"
            print(line, flush=True)

    print("memory of the fast path (tracemalloc peak) as the corpus grows:")
    base = None
    for n_records in (20_000, 80_000, 320_000):
        ref, hyp, ex = generated(n_records, seed=1)
        tracemalloc.start()
        fast_counts(ref, hyp, ex, "soft")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        base = base or peak / n_records
        print(f"  {n_records:>7,} records: peak {peak / n_records:,.0f} bytes per record "
              f"(x{peak / n_records / base:.2f} of the 20,000-record case)")


if __name__ == "__main__":
    main()
