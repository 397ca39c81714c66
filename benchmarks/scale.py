"""A hundred times the corpus on one machine: ``load``, ``judges`` and ``metric`` on copies of the
bundled d2t test split (1,200 texts, six judges) under other split names, 1, 10 and 100 times.

Each size is a factgenie export written to a temporary folder: the test split's texts, inputs,
human records and judges' records, copy ``k`` with its split renamed ``t00`` ... ``t99`` (copy
0 keeps ``test``'s texts under ``t00``). Every command runs in a process of its own, as a user
runs it (``hotelcheckspan judges CORPUS --pool``: one leaderboard of every text, the splits
pooled as asked), and the curve prints each size's wall time and peak memory (the child's
maximum resident set, ``ru_maxrss``) beside the budgets: at 10 times 15 s and 1 GB each, at
100 times 2 minutes and 6 GB. ``judges`` runs with ``--no-distinguish`` (the examples needed
to order each pair of neighbours are a simulation of test sets up to eight times the corpus,
measured by ``benchmarks/sample_size.py``); ``metric`` validates the six judges at 1,000
resamples, as the book does.

    .venv/bin/python benchmarks/scale.py [--factors 1 10 100] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hotelcheckspan import paths

SOURCE = paths.REAL_TEST_CORPUS
BUDGETS = {10: (15.0, 1.0), 100: (120.0, 6.0)}  # factor -> (seconds, GB) per command
COMMANDS = {
    "load": [
        sys.executable,
        "-c",
        "import sys, hotelcheckspan; c = hotelcheckspan.load(sys.argv[1]); print(len(c.records))",
    ],
    "judges": [sys.executable, "-m", "hotelcheckspan.cli", "judges", "{root}", "--pool", "--no-distinguish", "--json"],
    "metric": [sys.executable, "-m", "hotelcheckspan.cli", "metric", "{root}", "--pool", "--json"],
}


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def build(root: Path, factor: int) -> Path:
    """The test split ``factor`` times under split names t00, t01, ... (module docstring)."""
    splits = [f"t{k:02d}" for k in range(factor)]
    for src in sorted((SOURCE / "outputs").rglob("*.jsonl")):
        rows = [json.loads(line) for line in _lines(src)]
        dst = root / src.relative_to(SOURCE)
        dst.parent.mkdir(parents=True, exist_ok=True)
        with dst.open("w", encoding="utf-8") as fh:
            for split in splits:
                for r in rows:
                    fh.write(json.dumps(r | {"split": split}, ensure_ascii=False) + "\n")
    for src in sorted((SOURCE / "inputs").rglob("test.json")):
        for split in splits:
            dst = root / src.relative_to(SOURCE).with_name(f"{split}.json")
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.link(src, dst) if hasattr(os, "link") else shutil.copyfile(src, dst)
    for config in sorted((SOURCE / "annotations").rglob("config.yaml")):
        folder = root / config.parent.relative_to(SOURCE)
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(config, folder / "config.yaml")
        rows = [json.loads(line) for line in _lines(config.parent / "annotations.jsonl")]
        rows = [r for r in rows if r["split"] == "test"]  # the records on the split's own texts
        with (folder / "annotations.jsonl").open("w", encoding="utf-8") as fh:
            for split in splits:
                for r in rows:
                    fh.write(json.dumps(r | {"split": split}, ensure_ascii=False) + "\n")
    return root


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--factors", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--commands", nargs="+", default=list(COMMANDS), choices=list(COMMANDS))
    ap.add_argument("--keep", default=None, help="build the corpora in this folder and keep them")
    args = ap.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="hcs-scale-"))
    print(f"{'factor':>6} {'texts':>8} {'command':>8} {'seconds':>8} {'peak GB':>8}  budget")
    failed = False
    try:
        for factor in args.factors:
            root = base / f"x{factor}"
            if not (root / "outputs").exists():
                build(root, factor)
            for name in args.commands:
                # each measure in a fresh interpreter (ru_maxrss of RUSAGE_CHILDREN is the largest child so
                # far, so each command runs under its own python that reports its own peak)
                wrapped = [
                    sys.executable,
                    "-c",
                    "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]).returncode; "
                    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(r)",
                    *[part.format(root=root) for part in COMMANDS[name]],
                    *([str(root)] if name == "load" else []),
                ]
                start = time.perf_counter()
                done = subprocess.run(
                    wrapped, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False
                )
                seconds = time.perf_counter() - start
                tail = done.stderr.strip().splitlines()
                peak = int(tail[-1]) / 1e6 if tail and tail[-1].isdigit() else float("nan")
                budget = BUDGETS.get(factor)
                verdict = ""
                if budget is not None:
                    ok = seconds <= budget[0] and peak <= budget[1] and done.returncode == 0
                    verdict = f"{budget[0]:.0f} s, {budget[1]:.0f} GB: {'within' if ok else 'OVER'}"
                    failed |= not ok
                if done.returncode:
                    verdict += f" (exit {done.returncode}: {tail[-2] if len(tail) > 1 else ''})"
                print(f"{factor:>6} {1200 * factor:>8,} {name:>8} {seconds:>8.1f} {peak:>8.2f}  {verdict}", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
