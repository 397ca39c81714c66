"""De-duplication of the stand-in's descriptions: the screened rule against scoring every pair.

The paper drops a segment when sentence BLEU or ROUGE-L F1 against a segment kept before it
exceeds 0.8. The reference scores every pair with sacrebleu and rouge-score, as the rule reads;
``dedup.deduplicate`` screens all pairs of a description at once with n-gram count bounds and
scores only the pairs the bounds let through. Both run on the segment lists the seeded
stand-in generator de-duplicates (recorded while it builds its texts), in one process; the kept
and dropped segments are checked identical before the ratio is printed.

    .venv/bin/python benchmarks/dedup.py [--descriptions N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from hotelcheckspan.reference.paper import figures
from hotelcheckspan.simulation import dedup, summaries, texts
from hotelcheckspan.simulation.standin import SEED


def recorded_segments() -> list[list[str]]:
    """The segment list of every description, as the stand-in generator de-duplicates them."""
    seen: list[list[str]] = []

    def recording(segments, threshold=dedup.THRESHOLD):
        seen.append(list(segments))
        return dedup.deduplicate(segments, threshold)

    original, texts.deduplicate = texts.deduplicate, recording
    try:
        summaries.build_examples(np.random.default_rng(SEED), figures())
    finally:
        texts.deduplicate = original
    return seen


def every_pair(segments: list[str]) -> tuple[list[str], list[int]]:
    """The rule as it reads: each segment against every segment kept before it."""
    kept: list[str] = []
    dropped: list[int] = []
    for i, text in enumerate(segments):
        if any(dedup.is_redundant(text, k) for k in kept):
            dropped.append(i)
        else:
            kept.append(text)
    return kept, dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--descriptions", type=int, default=40, help="descriptions timed (evenly spread)")
    args = parser.parse_args()
    every = recorded_segments()
    step = max(1, len(every) // args.descriptions)
    sample = every[::step][: args.descriptions]
    pairs = sum(len(s) * (len(s) - 1) // 2 for s in sample)

    t = time.perf_counter()
    want = [every_pair(s) for s in sample]
    t_ref = time.perf_counter() - t
    t = time.perf_counter()
    got = [dedup.deduplicate(s) for s in sample]
    t_fast = time.perf_counter() - t
    assert got == want, "screened and every-pair de-duplication disagree"

    dropped = sum(len(d) for _, d in got)
    print("de-duplication: screened vs every pair scored (ratio = every-pair time / screened time)")
    print(
        f"  {len(sample)} of the stand-in's {len(every)} descriptions ({sum(map(len, sample)):,} segments, "
        f"{pairs:,} pairs, {dropped} segments dropped, identical): x{t_ref / t_fast:,.0f}"
    )


if __name__ == "__main__":
    main()
