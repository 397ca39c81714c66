"""Loading a factgenie export: time against record count, with factgenie's own reader beside it.

Synthetic exports in factgenie's layout (``outputs/`` with the annotated texts, ``inputs/``,
one human and one LLM campaign below ``annotations/``) of increasing size are written to a
temporary folder; ``hotelcheckspan.load`` reads each (validating every line and placing every
span in its text), and the time per 10,000 records is printed with its ratio to the smallest
size: a flat ratio means loading is linear in the number of records.

The reference is factgenie 1.2.1's annotation index as its web app builds it
(``workflows.load_annotations_from_file`` on each annotation file, then one frame of records
exploded into spans as ``analysis.generate_span_index`` does), run from factgenie's source with
only those functions taken out of ``workflows.py`` (the module itself starts the web app's
imports). It reads records without checking them and never opens ``outputs/``, so it is a
floor, not a like-for-like; when factgenie is not installed only our times are printed.
A share of the LLM spans carry each quirk of real exports (case, shifted, elsewhere, past the
end) and some records have no output, so the warnings are exercised too.

    .venv/bin/python benchmarks/load.py [--sizes 2500 5000 10000 25000]
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import tempfile
import time
import types
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

import hotelcheckspan

CATEGORIES = ["Contradictory", "Not checkable", "Misleading", "Other"]
WORDS = "the hotel offers a quiet room near the beach with free parking and a pool open all year".split()


def write_export(root: Path, n_records: int, seed: int = 0) -> None:
    """A factgenie-layout export of ``n_records`` records: half human (two groups), half LLM."""
    rng = np.random.default_rng(seed)
    n_examples = n_records // 3  # two human records and one LLM record per example
    texts = [" ".join(rng.choice(WORDS, size=rng.integers(20, 60))).capitalize() + "." for _ in range(n_examples)]
    (root / "outputs" / "synth").mkdir(parents=True)
    (root / "inputs" / "synth").mkdir(parents=True)
    key = {"dataset": "synth", "split": "test", "setup_id": "model-1"}
    kept = [i for i in range(n_examples) if i % 50 != 7]  # every 50th example has no output
    with open(root / "outputs" / "synth" / "outputs.jsonl", "w") as fh:
        for i in kept:
            fh.write(json.dumps(key | {"example_idx": i, "output": texts[i]}) + "\n")
    (root / "inputs" / "synth" / "test.json").write_text(json.dumps([{"table": i} for i in range(n_examples)]))
    config = {"annotation_span_categories": [{"name": c} for c in CATEGORIES], "annotation_overlap_allowed": False}

    def spans(text: str, quirky: bool) -> list[dict]:
        out, pos = [], 0
        for _ in range(rng.integers(0, 4)):
            start = text.find(" ", pos + int(rng.integers(0, 15))) + 1
            if start <= 0 or start >= len(text) - 10:
                break
            end = text.find(" ", start + 3)
            end = end if end > 0 else len(text)
            span = {"type": int(rng.integers(len(CATEGORIES))), "start": start, "text": text[start:end]}
            roll = rng.random() if quirky else 1.0
            if roll < 0.05:
                span["text"] = span["text"].upper()  # case
            elif roll < 0.08:
                span["start"] += 1  # shifted
            elif roll < 0.10:
                span["start"] = len(text) - 2  # past the end
            out.append(span)
            pos = end + 1
        return out

    for kind, camp, groups in (("human", "humans", (0, 1)), ("model", "judge", (0,))):
        folder = root / "annotations" / kind / camp
        folder.mkdir(parents=True)
        (folder / "config.yaml").write_text(yaml.safe_dump(config))
        with open(folder / "annotations.jsonl", "w") as fh:
            for i in range(n_examples):
                for g in groups:
                    rec = key | {
                        "example_idx": i,
                        "annotator_group": g,
                        "annotations": spans(texts[i], kind == "model"),
                        "metadata": {"annotator_id": f"{camp}-{g}", "campaign_id": camp},
                    }
                    fh.write(json.dumps(rec) + "\n")


def factgenie_reader():
    """factgenie's annotation-file reader (three functions of ``workflows.py``), or None."""
    spec = importlib.util.find_spec("factgenie")
    if spec is None:
        return None
    path = Path(spec.origin).parent / "workflows.py"
    tree = ast.parse(path.read_text())
    wanted = {"load_annotations_from_file", "load_annotations_from_record", "create_annotation_example_record"}
    body = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in wanted]
    module = types.ModuleType("factgenie_reader")
    from slugify import slugify

    module.__dict__.update({"json": json, "slugify": slugify})
    exec(compile(ast.Module(body=body, type_ignores=[]), str(path), "exec"), module.__dict__)
    return module


def factgenie_load(reader, root: Path) -> pd.DataFrame:
    """factgenie's span index of the export's campaigns (records read, then exploded)."""
    records = []
    for file in sorted(root.glob("annotations/*/*/annotations.jsonl")):
        config = yaml.safe_load((file.parent / "config.yaml").read_text())
        records += reader.load_annotations_from_file(str(file), {"id": file.parent.name, "config": config})
    index = pd.DataFrame.from_records(records)
    index = index[index["annotations"].apply(len) > 0].explode("annotations").reset_index(drop=True)
    for col, field in (("annotation_type", "type"), ("annotation_start", "start"), ("annotation_text", "text")):
        index[col] = index["annotations"].apply(lambda a, f=field: a[f])
    return index


def best_of(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2500, 5000, 10000, 25000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    reader = factgenie_reader()
    print(f"{'records':>8} {'spans':>7} {'warnings':>8} {'ours s':>7} {'s/10k':>6} {'ratio':>6}", end="")
    print(f" {'factgenie s':>11} {'s/10k':>6} {'ours/fg':>7}" if reader else "  (factgenie not installed)")
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            root = Path(tmp) / f"export-{size}"
            write_export(root, size)
            corpus = hotelcheckspan.load(root)
            n = len(corpus.records)
            ours = best_of(lambda root=root: hotelcheckspan.load(root), args.repeats)
            per = ours / n * 10_000
            first = first or per
            line = f"{n:>8} {len(corpus.spans):>7} {len(corpus.warnings):>8} "
            line += f"{ours:>7.2f} {per:>6.2f} {per / first:>6.2f}"
            if reader:
                assert len(factgenie_load(reader, root)) == len(corpus.spans)  # the same spans
                theirs = best_of(lambda root=root: factgenie_load(reader, root), args.repeats)
                line += f" {theirs:>11.2f} {theirs / n * 10_000:>6.2f} {ours / theirs:>7.1f}"
            print(line)


if __name__ == "__main__":
    main()
