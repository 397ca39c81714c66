"""Each chapter executed cold, as the book's build executes it: a fresh kernel (stopped at once
after the last cell, as `make book` stops it), an empty package cache (no embeddings computed
before), the stored notebook's cells in order.
Prints seconds per chapter, alone, beside its budget (10 s) and their sum, then the book's
execution as `make book` runs it (every executed page, the two reference pages included, one page
per core, into an empty execution cache): each page's time as the cache records it, their sum, and
the wall time beside the book's budget (60 s).

    .venv/bin/python benchmarks/chapters.py [NN ...]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
CHAPTER_BUDGET, BOOK_BUDGET = 10.0, 60.0


def execute(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        shutdown_kernel="immediate",  # as make book stops its kernels (hotelcheckspan.book.execute._execute)
    )
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start


def line(label: str, seconds: float, budget: float | None) -> None:
    print(f"{label:<36} {seconds:8.1f}{'' if budget is None or seconds <= budget else '  over'}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="chapter numbers (default: all)")
    args = parser.parse_args()
    paths = sorted((ROOT / "notebooks").glob("*.ipynb"))
    if args.chapters:
        paths = [p for p in paths if p.name[:2] in args.chapters]
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    total = 0.0
    print(f"{'chapter, alone':<36} {'seconds':>8}  (budget {CHAPTER_BUDGET:.0f} s)")
    for path in paths:
        with tempfile.TemporaryDirectory() as cache:
            os.environ["HOTELCHECKSPAN_CACHE"] = cache  # cold: nothing computed before, by any chapter
            seconds = execute(path)
        total += seconds
        line(path.stem, seconds, CHAPTER_BUDGET)
    line("all chapters, alone, one after another", total, None)
    if args.chapters:
        return
    from jupyter_cache import get_cache

    from hotelcheckspan.book import execute as book_execute

    jobs = book_execute.default_jobs()
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as jupyter_cache:
        os.environ["HOTELCHECKSPAN_CACHE"] = cache
        start = time.perf_counter()
        done = book_execute.run(ROOT, Path(jupyter_cache), jobs)
        seconds = time.perf_counter() - start
        recorded = {
            Path(r.uri).relative_to(ROOT).as_posix(): r.data["execution_seconds"]
            for r in get_cache(jupyter_cache).list_cache_records()
        }
    if done["failed"] or done["left"]:
        raise SystemExit(f"not executed here: {[str(p) for p in done['failed'] + done['left']]}")
    # side by side, a page's recorded time includes its share of the cores: the chapter budget is
    # the alone times' above, and the book's is the wall time of its execution
    alone = jobs == 1
    budget = f"(budget {CHAPTER_BUDGET:.0f} s)" if alone else "(beside another page: the budget is on the alone times)"
    print(f"{'page, as the cache records it':<36} {'seconds':>8}  {budget}")
    for page, took in sorted(recorded.items()):
        line(page, took, CHAPTER_BUDGET if alone else None)
    line("every page, as recorded", sum(recorded.values()), None)
    at_a_time = "one page at a time" if alone else f"{jobs} pages at a time"
    line(f"make book's execution, {at_a_time}, wall (budget {BOOK_BUDGET:.0f} s)", seconds, BOOK_BUDGET)


if __name__ == "__main__":
    main()
