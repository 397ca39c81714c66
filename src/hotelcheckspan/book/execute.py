"""Execute the book's pages into Jupyter Book's execution cache, as many at a time as there are cores.

Jupyter Book (myst-nb's "cache" mode) executes each page as Sphinx reads it, one after another.
``make book`` runs this first: every page of the table of contents whose code is not in the cache
is executed on a pool of processes, exactly as myst-nb executes it (same reader, working folder,
timeout and cache record), so the build then takes every page from the cache. A page that fails
here is not cached: the build executes it again and reports its error as it always does.

    python -m hotelcheckspan.book.execute [--jobs N] [--root BOOK] [--cache FOLDER]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

import yaml

from hotelcheckspan import paths


def pages(root: Path = paths.REPO_ROOT) -> list[Path]:
    """The executable pages of the table of contents, in reading order: notebooks, and MyST
    Markdown pages whose front matter makes them notebooks (``file_format: mystnb``)."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    files: list[str] = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            files.extend([node["file"]] if "file" in node else [])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(toc.get("parts", toc.get("chapters", [])))
    found = []
    for name in files:
        for suffix in (".ipynb", ".md"):
            path = root / Path(name).with_suffix(suffix)
            if path.exists() and (suffix == ".ipynb" or _is_notebook(path)):
                found.append(path)
                break
    return found


def _is_notebook(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return False
    front = yaml.safe_load(text.split("\n---", 1)[0].removeprefix("---\n")) or {}
    return front.get("file_format") == "mystnb"


def _count(todo: list) -> str:
    return f"{len(todo)} page" + ("" if len(todo) == 1 else "s")


def _read(path: Path):
    import nbformat
    from myst_nb.core.read import myst_nb_reader_plugin

    if path.suffix == ".md":
        return myst_nb_reader_plugin(str(path))
    return nbformat.read(path, as_version=4)


def _execute(path: str, timeout: int):
    """Executed in a worker process: the page's notebook executed in its own folder, its
    execution time, and the traceback where a cell failed."""
    from jupyter_cache.executors.utils import single_nb_execution

    nb, cwd = _read(Path(path)), str(Path(path).parent)
    result = single_nb_execution(nb, cwd=cwd, timeout=timeout, allow_errors=False, meta_override=True)
    return result.nb, result.time, result.exc_string


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)), help="processes (default: the cores)")
    parser.add_argument("--root", type=Path, default=paths.REPO_ROOT, help="the book (default: this repository)")
    parser.add_argument("--cache", type=Path, help="the execution cache (default: _config.yml's execute.cache)")
    args = parser.parse_args(argv)
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    root = args.root.resolve()
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))["execute"]
    where = args.cache or root / config["cache"]
    cache = get_cache(str(where))
    todo = []
    for path in pages(root):
        try:
            cache.match_cache_notebook(_read(path))
        except KeyError:
            todo.append(path)
    if not todo:
        print("every page is in the execution cache")
        return 0
    if args.jobs < 2:
        print(f"{_count(todo)} to execute: the build executes them one after another")
        return 0
    # the longest first (the later chapters), so that no worker is left with one at the end
    todo = [p for p in todo if p.suffix == ".ipynb"][::-1] + [p for p in todo if p.suffix != ".ipynb"]
    jobs = min(args.jobs, len(todo))
    print(f"executing {_count(todo)}, {jobs} at a time, into {args.cache or config['cache']}", flush=True)
    start, failed = time.perf_counter(), []
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        running = {pool.submit(_execute, str(p), config["timeout"]): p for p in todo}
        for done, future in enumerate(as_completed(running), 1):
            path = running[future]
            rel = path.relative_to(root)
            try:
                nb, seconds, traceback = future.result()
            except Exception as error:  # the worker itself broke (not a cell): the build still executes the page
                nb, seconds, traceback = None, 0.0, repr(error)
            if traceback:
                failed.append(rel)
                print(f"  [{done}/{len(todo)}] {rel}: failed, left to the build to execute and report", flush=True)
                continue
            cache.cache_notebook_bundle(
                CacheBundleIn(nb, str(path), data={"execution_seconds": seconds}), check_validity=False, overwrite=True
            )
            print(f"  [{done}/{len(todo)}] {rel}: {seconds:.1f} s", flush=True)
    print(f"executed in {time.perf_counter() - start:.1f} s" + (f"; {len(failed)} failed" if failed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
