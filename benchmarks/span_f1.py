"""Span F1: the fast path against factgenie's own function and a per-character reference, as ratios.

Cases, each hard and soft, timed in one process with file reading excluded:

* a real public factgenie corpus (the d2t-eval "iaa" split of "LLMs as Span Annotators", the
  copy in ``data/span-annotation-d2t-iaa`` that chapter 08 reads): every human annotator
  group against every LLM campaign and every pair of human groups. Records are read as factgenie
  reads them (overlapping spans and all); factgenie 1.2.1's ``compute_f1_scores`` gets a span
  index of the two campaigns, built before its clock starts. factgenie takes about a second per
  comparison, so by default it is timed on an evenly spread sample of comparisons (``--full``:
  all of them); ours is timed on all of them, the corpus encoding included;
* every Table 6 pair of the bundled corpus, against the per-character reference;
* generated corpora of 20,000 records;
* the public API on the real corpus: ``read_annotations`` of each file (not timed), then
  ``hotelcheckspan.span_f1`` once per comparison, as a user scripting over groups calls it
  (the encoding of each file, made on its first call and kept, is timed);
* the per-call overhead of the public frame-in, frame-out ``span_f1`` on a one-span pair;
* memory (tracemalloc peak) as the generated corpus grows.

Results are checked equal before a ratio is printed. Prints ratios (higher is better), not
seconds, except the per-call overhead.

    .venv/bin/python benchmarks/span_f1.py [--full]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

import hotelcheckspan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from span_reference import FACTGENIE, factgenie_f1, per_character  # noqa: E402
from timing import timed  # noqa: E402  (benchmarks/ is the script's folder)

from hotelcheckspan import corpora, paths  # noqa: E402
from hotelcheckspan.analyses import span_level  # noqa: E402
from hotelcheckspan.categories import CATEGORIES  # noqa: E402
from hotelcheckspan.corpora import KEY  # noqa: E402
from hotelcheckspan.metrics import span_f1  # noqa: E402

# --- the real public corpus ----------------------------------------------------------------------


def read_real(root: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Spans and records of every annotations.jsonl below ``root``, spans as factgenie's span
    index has them (``campaign_id, annotator_group``, the key, ``annotation_type`` index,
    ``annotation_start, annotation_end``) plus our ``record_id, order, start, end, type``.
    Nothing is dropped: repeated records and overlapping spans stay, as factgenie reads them."""
    spans, records = [], []
    for path in sorted(root.glob("annotations/**/annotations.jsonl")):
        campaign = path.parent.name if "model" in path.parts else "human"
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            who = {"campaign_id": campaign, "annotator_group": rec.get("annotator_group", 0)} | {k: rec[k] for k in KEY}
            records.append(who)
            for order, a in enumerate(rec["annotations"]):
                spans.append(
                    who
                    | {
                        "record_id": len(records) - 1,
                        "order": order,
                        "annotation_type": a["type"],
                        "annotation_start": a["start"],
                        "annotation_end": a["start"] + len(a["text"]),
                    }
                )
    spans = pd.DataFrame(spans)
    spans["start"], spans["end"] = spans["annotation_start"], spans["annotation_end"]
    spans["type"] = spans["annotation_type"].astype(str)
    return spans, pd.DataFrame(records)


def real_comparisons(spans: pd.DataFrame) -> list[tuple]:
    """(ref (campaign, group), hyp (campaign, group)): every human group against every LLM
    campaign (all its groups), and every pair of human groups."""
    human = sorted(
        {(c, g) for c, g in spans[["campaign_id", "annotator_group"]].itertuples(index=False) if c == "human"}
    )
    models = sorted({(c, None) for c in spans["campaign_id"] if c != "human"})
    return [(h, m) for h in human for m in models] + list(combinations(human, 2))


def ours_real(spans: pd.DataFrame, records: pd.DataFrame, comparisons: list, match: str) -> list[tuple]:
    """Our P/R/F1 of every comparison: encode the corpus once, then arrays only."""
    categories = sorted(spans["type"].unique())
    table = span_f1.SpanTable(spans, records, categories)
    rec_codes = table.codes(records)
    campaign, group = spans["campaign_id"].to_numpy(), spans["annotator_group"].to_numpy()
    r_campaign, r_group = records["campaign_id"].to_numpy(), records["annotator_group"].to_numpy()
    cache = {}

    def side(who):
        if who not in cache:
            c, g = who
            keep, rkeep = campaign == c, r_campaign == c
            if g is not None:
                keep, rkeep = keep & (group == g), rkeep & (r_group == g)
            cache[who] = table.side(keep), np.unique(rec_codes[rkeep])
        return cache[who]

    out = []
    for ref, hyp in comparisons:
        (r, r_ex), (h, h_ex) = side(ref), side(hyp)
        ex = np.intersect1d(r_ex, h_ex)
        arr = span_f1.count_arrays(r, h, table.n_examples, len(categories), match)[:, 0, ex].sum(axis=1)
        out.append(tuple(float(x) for x in span_f1.prf(*arr[:4])))
    return out


def public_api_real(comparisons: list, match: str, repeat: int = 3) -> tuple[float, list[tuple]]:
    """Best time of ``hotelcheckspan.span_f1`` over every comparison, on files read (fresh, so
    their encoding is timed) before the clock starts; and the P/R/F1."""
    root = paths.REAL_CORPUS / "annotations"
    files = {"human": next(root.glob("human/**/annotations.jsonl"))}
    files |= {p.parent.name: p for p in root.glob("model/**/annotations.jsonl")}
    best, out = float("inf"), []
    for _ in range(repeat):
        read = {name: hotelcheckspan.read_annotations(path) for name, path in files.items()}
        t = time.perf_counter()
        out = [
            hotelcheckspan.span_f1(read[r[0]], read[h[0]], ref_group=r[1], hyp_group=h[1], match=match)
            for r, h in comparisons
        ]
        best = min(best, time.perf_counter() - t)
    return best, [(o["precision"], o["recall"], o["f1"]) for o in out]


def factgenie_real(index: dict, examples: dict, comparisons: list, match: str) -> list[tuple]:
    out = []
    for ref, hyp in comparisons:
        res = FACTGENIE.compute_f1_scores(index[ref[0], hyp[0]], [ref, hyp], examples[ref, hyp], match_mode=match)
        out.append((res["precision"], res["recall"], res["f1"]))
    return out


def bench_real(full: bool) -> None:
    spans, records = read_real(paths.REAL_CORPUS)
    comparisons = real_comparisons(spans)
    n_llm = sum(1 for _, h in comparisons if h[1] is None)

    def examples_of(who):
        keep = records["campaign_id"] == who[0]
        if who[1] is not None:
            keep &= records["annotator_group"] == who[1]
        return records.loc[keep, KEY].drop_duplicates()

    # factgenie's inputs, prepared before its clock starts: the span index of the two campaigns
    # and the examples both sides annotated (as its compute_f1 prepares them)
    index, examples = {}, {}
    for ref, hyp in comparisons:
        if (ref[0], hyp[0]) not in index:
            index[ref[0], hyp[0]] = spans[spans["campaign_id"].isin([ref[0], hyp[0]])].reset_index(drop=True)
        examples[ref, hyp] = examples_of(ref).merge(examples_of(hyp), on=KEY)
    step = 1 if full else max(1, len(comparisons) // 24)
    sample = comparisons[::step]
    print(
        f"  real corpus ({len(spans):,} spans; {n_llm} human-group vs LLM and {len(comparisons) - n_llm} "
        f"human-group pairs; factgenie on {len(sample)} of them{'' if full else ', evenly spread; --full for all'}):"
    )
    for match in ("hard", "soft"):
        t_ours, ours = timed(lambda: ours_real(spans, records, comparisons, match), repeat=3)
        t_fg, theirs = timed(lambda: factgenie_real(index, examples, sample, match))
        mine = [ours[comparisons.index(c)] for c in sample]
        assert all(tuple(round(x, 3) for x in m) == tuple(t) for m, t in zip(mine, theirs)), (
            "ours and factgenie disagree"
        )
        per_ours, per_fg = t_ours / len(comparisons), t_fg / len(sample)
        print(
            f"    {match}: factgenie compute_f1_scores x{per_fg / per_ours:,.0f} per comparison "
            f"(identical P/R/F1 on the {len(sample)} compared)",
            flush=True,
        )
        t_api, api = public_api_real(comparisons, match)
        mine = [api[comparisons.index(c)] for c in sample]
        assert all(tuple(round(x, 3) for x in m) == tuple(t) for m, t in zip(mine, theirs)), (
            "the public span_f1 and factgenie disagree"
        )
        print(
            f"    {match}, public API (read_annotations once per file, then span_f1 per comparison, "
            f"reading excluded): factgenie x{per_fg / (t_api / len(comparisons)):,.0f} per comparison "
            f"(identical P/R/F1 on the {len(sample)} compared)",
            flush=True,
        )


# --- bundled and generated corpora ---------------------------------------------------------------


def as_dicts(sp: pd.DataFrame) -> dict:
    sp = sp.sort_values(["record_id", "order"], kind="stable")
    out: dict = {}
    for row in sp.itertuples(index=False):
        out.setdefault((row.dataset, row.split, row.setup_id, row.example_idx), []).append(
            (row.start, row.end, row.type)
        )
    return out


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
        rows.append(
            pd.DataFrame(
                {
                    "dataset": "gen",
                    "split": "x",
                    "setup_id": "s",
                    "example_idx": ex,
                    "record_id": rec,
                    "order": 0,
                    "start": start,
                    "end": start + length,
                    "type": np.array(CATEGORIES)[rng.integers(0, 3, size=ex.size)],
                }
            )
        )
    examples = pd.DataFrame({"dataset": "gen", "split": "x", "setup_id": "s", "example_idx": np.arange(n_ex)})
    return rows[0], rows[1], examples


def fast_scores(ref, hyp, ex, match):
    """The public frame-in, frame-out call: encode, count, score."""
    return span_f1.span_f1(ref, hyp, ex, match=match, categories=CATEGORIES).iloc[0]


def bench_bundled() -> None:
    corpus = corpora.load()
    comparisons = span_level.load_comparisons()  # read before the clock, as the reference's inputs are prepared
    cases = [(rs, hs, ex) for *_, rs, hs, ex in span_level.iter_pairs(corpus, comparisons)]
    for match in ("hard", "soft"):
        t_fast, _ = timed(
            lambda: span_level.pairwise(corpus, comparisons, matches=(match,), metric="char", convention="both"),
            repeat=3,
        )
        prepared = [(as_dicts(r), as_dicts(h), [tuple(x) for x in e[KEY].itertuples(index=False)]) for r, h, e in cases]
        t_ref, want = timed(lambda: [per_character(r, h, e, match) for r, h, e in prepared])
        pairs, _ = span_level.pairwise(corpus, matches=(match,), metric="char", convention="both")
        assert all(int(g) == w["all"]["overlap"] for g, w in zip(pairs["overlap"], want)), "fast and reference disagree"
        line = (
            f"  bundled corpus, {len(cases)} Table 6 pairs, {match} (Table 6 builder, corpus encoded once): "
            f"per-character reference x{t_ref / t_fast:,.1f}"
        )
        if FACTGENIE is not None and match == "hard":
            t_fg, fg = timed(lambda: [factgenie_f1(r, h, e, match, CATEGORIES) for r, h, e in prepared])
            assert all(f["overlap_length"] == w["all"]["overlap"] for f, w in zip(fg, want)), "factgenie disagrees"
            line += f", factgenie compute_f1_scores x{t_fg / t_fast:,.0f}"
        print(line, flush=True)


def bench_generated() -> None:
    n_records = 20_000
    for per_side in (1, 10):
        ref, hyp, ex = generated(n_records, per_side=per_side)
        prepared = (as_dicts(ref), as_dicts(hyp), [tuple(x) for x in ex[KEY].itertuples(index=False)])
        shape = "one record per side" if per_side == 1 else f"{per_side} pooled records per side"
        for match in ("hard", "soft"):
            t_fast, got = timed(lambda: fast_scores(ref, hyp, ex, match), repeat=3)
            t_ref, want = timed(lambda: per_character(*prepared, match))
            assert int(got["overlap"]) == want["all"]["overlap"], "fast and reference disagree"
            line = (
                f"  generated corpus, {n_records:,} records ({len(ex):,} examples, {shape}), {match}: "
                f"per-character reference x{t_ref / t_fast:,.1f}"
            )
            if FACTGENIE is not None and per_side == 1:
                t_fg, fg = timed(lambda: factgenie_f1(*prepared, match, CATEGORIES))
                assert fg["overlap_length"] == int(got["overlap"]), "factgenie and ours disagree"
                line += f", factgenie compute_f1_scores x{t_fg / t_fast:,.0f}"
            print(line, flush=True)


def bench_overhead() -> None:
    ex = pd.DataFrame([("d", "s", "x", 0)], columns=KEY)
    one = ex.assign(record_id=0, order=0, start=0, end=5, type=CATEGORIES[0])
    t, _ = timed(lambda: [fast_scores(one, one, ex, "soft") for _ in range(200)], repeat=3)
    table = span_f1.SpanTable(one, ex, CATEGORIES)
    side = table.side(np.ones(1, bool))
    t_arr, _ = timed(lambda: [span_f1.count_arrays(side, side, 1, 3, "soft") for _ in range(200)], repeat=3)
    print(
        f"  per-call overhead on a one-span pair: public span_f1 (frames in, frame out) {t / 200 * 1e3:.2f} ms, "
        f"encoded count_arrays {t_arr / 200 * 1e3:.2f} ms",
        flush=True,
    )


def bench_memory() -> None:
    print("memory of the fast path (tracemalloc peak) as the corpus grows:")
    base = None
    for n_records in (20_000, 80_000, 320_000):
        ref, hyp, ex = generated(n_records, seed=1)
        tracemalloc.start()
        fast_scores(ref, hyp, ex, "soft")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        base = base or peak / n_records
        print(
            f"  {n_records:>7,} records: peak {peak / n_records:,.0f} bytes per record "
            f"(x{peak / n_records / base:.2f} of the 20,000-record case)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="time factgenie on every real comparison (slow)")
    args = parser.parse_args()
    print("span F1: fast path vs references (ratio = reference time / fast time; higher is better)")
    if FACTGENIE is None:
        print("  factgenie is not installed: its comparisons are skipped")
    else:
        bench_real(args.full)
    bench_overhead()
    bench_bundled()
    bench_generated()
    bench_memory()


if __name__ == "__main__":
    main()
