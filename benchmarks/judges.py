"""The judges' leaderboard: today's one-pass engine against the package as it was before it
(commit BEFORE, read from this clone's git history into a package of its own), side by side in
one process on the same loaded corpora, as ratios.

Before, the leaderboard counted its span statistics, then for each neighbouring pair of judges
called the planning function, which counted the pair's span statistics again from the corpus and
drew its own test sets; each judge's BACC interval had its own random stream (the seed plus the
judge's position). Now the corpus is read once (:class:`hotelcheckspan.analyses.judges.Scored`),
every estimate is computed from those per-example statistics, and one set of test sets, drawn
from the examples' keys, serves every pair. The point estimates (soft and hard span F1, BACC)
are checked equal before a ratio is printed; intervals and the Monte Carlo answers differ by
design (the random streams are now keyed by the examples).

Also printed: how many functions receive the corpus in a leaderboard call ("stops": distinct
functions called with the corpus object among their arguments, in the order first called) and
how often that sequence moves back into a module it had left ("returns"), for both versions.

    .venv/bin/python benchmarks/judges.py
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from timing import timed  # noqa: E402  (benchmarks/ is the script's folder)

from hotelcheckspan import load, paths
from hotelcheckspan.analyses import judges

BEFORE = "a128227"  # main before the one engine (issue 33)
ROOT = Path(__file__).resolve().parents[1]
POINTS = ["f1_soft", "f1_hard", "bacc"]


def package_before(folder: Path):
    """The package at BEFORE as ``hotelcheckspan_before`` (None without that commit here)."""
    listing = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", BEFORE, "src/hotelcheckspan"],
        capture_output=True,
        text=True,
    )
    if listing.returncode:
        return None
    for name in listing.stdout.split():
        if not name.endswith(".py"):
            continue
        blob = subprocess.run(["git", "-C", str(ROOT), "show", f"{BEFORE}:{name}"], capture_output=True, text=True)
        target = folder / "hotelcheckspan_before" / Path(name).relative_to("src/hotelcheckspan")
        target.parent.mkdir(parents=True, exist_ok=True)
        # its absolute imports of itself point at itself, not at today's package
        target.write_text(blob.stdout.replace("from hotelcheckspan.", "from hotelcheckspan_before."), encoding="utf-8")
    sys.path.insert(0, str(folder))
    return importlib.import_module("hotelcheckspan_before")


def trace(board, corpus) -> tuple[int, int]:
    """(stops, returns) of one leaderboard call (see the module docstring)."""
    first: list[tuple[str, str]] = []

    def profile(frame, event, arg):
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if module.startswith("hotelcheckspan") and any(v is corpus for v in frame.f_locals.values()):
            key = (module, frame.f_code.co_name)
            if key not in first:
                first.append(key)

    sys.setprofile(profile)
    try:
        board(corpus)
    finally:
        sys.setprofile(None)
    seen, returns, prev = set(), 0, None
    for module, _ in first:
        if module != prev:
            returns += module in seen
            seen.add(module)
        prev = module
    return len(first), returns


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        before = package_before(Path(tmp))
        if before is None:
            print(f"commit {BEFORE} is not in this clone's history: nothing to compare with")
            return
        old_judges = importlib.import_module("hotelcheckspan_before.analyses.judges")
        old_load = importlib.import_module("hotelcheckspan_before.corpora").load
        print(
            f"{'corpus':<12} {'judges':>6} {'before s':>9} {'now s':>7} {'ratio':>6}  {'stops before/now':>17}  returns"
        )
        for name, path in [
            ("stand-in", paths.BUNDLED_CORPUS),
            ("d2t iaa", paths.REAL_CORPUS),
            ("d2t test", paths.REAL_TEST_CORPUS),
        ]:
            now_corpus, old_corpus = load(path), old_load(path)
            t_new, new = timed(lambda: judges.leaderboard(now_corpus))
            t_old, old = timed(lambda: old_judges.leaderboard(old_corpus))
            a = new.set_index("judge")[POINTS].astype(float)
            b = old.set_index("judge").loc[a.index, POINTS].astype(float)
            assert np.allclose(a.to_numpy(), b.to_numpy(), equal_nan=True, rtol=0, atol=1e-12), (a, b)
            stops_new, returns_new = trace(judges.leaderboard, now_corpus)
            stops_old, returns_old = trace(old_judges.leaderboard, old_corpus)
            print(
                f"{name:<12} {len(a) - 1:>6} {t_old:9.1f} {t_new:7.1f} {t_old / t_new:5.1f}x"
                f"  {stops_old:>8}/{stops_new:<8}  {returns_old}/{returns_new}",
                flush=True,
            )


if __name__ == "__main__":
    main()
