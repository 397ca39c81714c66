"""Execute the book's pages into Jupyter Book's execution cache, one page per core.

Jupyter Book (myst-nb's "cache" mode) executes each page as Sphinx reads it, one after another.
``make book`` runs this first: every page of the table of contents whose code is not in the cache
is executed on a pool of processes as myst-nb executes it (the book's Markdown settings for a MyST
page, the page's own folder, the book's timeout, the same cache record; only the kernel is stopped
at once after the last cell, see :func:`_execute`), with its progress, so the build then takes
every page from the cache. One page runs per core, the later chapters (the longest) first: a
page's kernel spends much of its time starting and importing, on one core, so on the two cores the
budgets are set on (the book in a minute) two pages side by side finish the book in about two
thirds of the time one after another take; a page's recorded time then includes its share of the
cores with the page beside it (``benchmarks/chapters.py`` times each chapter alone, against its
10 s). A page that fails here is not cached: the build executes it again and reports its error as
it always does. Where the book's settings ask for anything else (another execution mode, a temporary folder,
errors allowed, a page's own execution settings), those pages are left to the build.

What ran, and when, is written beside the cache (:data:`RUN_RECORD`) for the provenance footer,
which says which pages this build executed.

A chapter executed elsewhere before the build, whose every output was found to be the stored one,
byte for byte, is cached as its stored notebook (:func:`adopt`): `make test` has nbval execute the
chapters (``conftest.py``), so the book built next does not execute them a second time. Such a
chapter counts as run in this build only within the same make run (:data:`RUN_ENV`).

    python -m hotelcheckspan.book.execute [--jobs N] [--root BOOK] [--cache FOLDER]
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path

import yaml

from hotelcheckspan import paths

RUN_RECORD = ".hotelcheckspan-run.json"  # in the cache folder: dropped with it
ADOPTED_RECORD = ".hotelcheckspan-adopted.json"  # what adopt() cached, until run() reads it
# set by the Makefile once per make run (sub-makes inherit it): a chapter adopted in another run
# (one whose build never came) is not said to have run in this build
RUN_ENV = "HOTELCHECKSPAN_BUILD_RUN"


def default_jobs() -> int:
    """Pages executed at a time: one per CPU this process may run on (at least one)."""
    from hotelcheckspan.metrics.baselines import default_workers  # pandas: only when pages run

    return max(1, default_workers())


def book_config(root: Path) -> dict:
    return yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8")) or {}


def toc_files(root: Path = paths.REPO_ROOT) -> list[str]:
    """Every page of the table of contents (``_toc.yml``), in reading order, as it names them
    (no suffix)."""
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
    return files


def pages(root: Path = paths.REPO_ROOT) -> list[Path]:
    """The executable pages of the table of contents, in reading order: notebooks, and MyST
    Markdown pages that are notebooks (myst-nb's own test: a ``file_format: mystnb`` or jupytext
    front matter)."""
    from myst_nb.core.read import is_myst_markdown_notebook

    found = []
    for name in toc_files(root):
        for suffix in (".ipynb", ".md"):
            path = root / Path(name).with_suffix(suffix)
            if path.exists() and (suffix == ".ipynb" or is_myst_markdown_notebook(path.read_text(encoding="utf-8"))):
                found.append(path)
                break
    return found


def _md_config(root: Path):
    """The book's MyST settings (``parse:`` of _config.yml), as Jupyter Book hands them to Sphinx."""
    from myst_parser.config.main import MdParserConfig

    parse = book_config(root).get("parse") or {}
    options = {k.removeprefix("myst_"): v for k, v in parse.items() if k.startswith("myst_")}
    if "enable_extensions" in options:
        options["enable_extensions"] = set(options["enable_extensions"])
    return MdParserConfig(**options)


def read(path: Path, root: Path):
    """The page's notebook as the build reads it."""
    import nbformat
    from myst_nb.core.config import NbParserConfig
    from myst_nb.core.read import create_nb_reader

    if path.suffix == ".ipynb":
        return nbformat.read(path, as_version=4)
    text = path.read_text(encoding="utf-8")
    return create_nb_reader(str(path), _md_config(root), NbParserConfig(), text).read(text)


def _execute(nb, cwd: str, timeout: int):
    """Executed in a worker process: the notebook (as read for the cache's lookup) executed in
    its page's folder, its execution time, and the traceback where a cell failed.

    The kernel is stopped at once after the last cell's outputs (nbclient's ``immediate``
    shutdown; myst-nb's default lets it exit by itself). A kernel that has imported the scientific
    stack takes about half a second to tear itself down, and now and then does not exit at all
    until jupyter_client's wait runs out (2.5 s, then it is terminated); the page has its outputs
    before either, and no page of the book registers anything to run at exit."""
    from jupyter_cache.executors.utils import single_nb_execution

    result = single_nb_execution(
        nb, cwd=cwd, timeout=timeout, allow_errors=False, meta_override=True, shutdown_kernel="immediate"
    )
    return result.nb, result.time, result.exc_string


def _count(todo) -> str:
    return f"{len(todo)} page" + ("" if len(todo) == 1 else "s")


def _execution(root: Path) -> dict:
    """The book's execution settings (``execute:`` of _config.yml)."""
    return book_config(root).get("execute") or {}


def _cache_folder(config: dict, root: Path, cache_dir: Path | None) -> Path:
    return Path(cache_dir or root / config.get("cache", "_build/.jupyter_cache"))


def _ours(config: dict, root: Path, path: Path, nb) -> bool:
    """Whether the page is executed as myst-nb's cache mode executes it under the book's execution
    settings ``config``, with nothing of its own (another mode, a temporary folder, errors allowed,
    a page's own settings, an excluded page are left to the build)."""
    as_myst_nb = (
        config.get("execute_notebooks", "auto") == "cache"
        and not config.get("run_in_temp", False)
        and not config.get("allow_errors", False)
    )
    rel = path.relative_to(root).as_posix()
    own = set(nb.metadata.get("mystnb", {})) | set(nb.metadata.get("execution", {}))
    return as_myst_nb and not own and not any(fnmatch.fnmatch(rel, p) for p in config.get("exclude_patterns") or [])


def _adopted(where: Path) -> dict[str, float]:
    """The pages :func:`adopt` cached in this make run (:data:`RUN_ENV`) and when each ran; the
    record is read once."""
    path = where / ADOPTED_RECORD
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    finally:
        path.unlink(missing_ok=True)
    run = os.environ.get(RUN_ENV)
    return record.get("pages", {}) if run and record.get("run") == run else {}


def adopt(executed: dict[Path, dict], root: Path = paths.REPO_ROOT, cache_dir: Path | None = None) -> list[Path]:
    """Cache chapters executed elsewhere as their stored notebooks: ``executed`` maps a stored
    ``.ipynb`` page to its run (``seconds`` it took, its ``longest`` cell in seconds, and when it
    finished, ``at``), for pages whose every output the caller found to be the stored one, byte
    for byte (``conftest.py``: nbval's run in `make test`). The build then takes them from the
    cache; within the same make run (:data:`RUN_ENV`) its footer says they ran in this build.
    Pages that are not the book's, that the build executes by settings of their own, or with a
    cell slower than the book's timeout (which would fail the build) are not cached. Returns the
    pages cached."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    root = root.resolve()
    config = _execution(root)
    where = _cache_folder(config, root, cache_dir)
    where.mkdir(parents=True, exist_ok=True)
    cache = get_cache(str(where))
    timeout = config.get("timeout", 30)
    limit = timeout if isinstance(timeout, (int, float)) and timeout > 0 else float("inf")  # -1, None: none
    book = set(pages(root))
    cached = {}
    for path, ran in executed.items():
        path = Path(path).resolve()
        if path.suffix != ".ipynb" or path not in book or ran["longest"] > limit:
            continue
        nb = read(path, root)
        if not _ours(config, root, path, nb):
            continue
        cache.cache_notebook_bundle(
            CacheBundleIn(nb, str(path), data={"execution_seconds": ran["seconds"]}),
            check_validity=False,
            overwrite=True,
        )
        cached[str(path)] = ran["at"]
    record = {"run": os.environ.get(RUN_ENV), "pages": cached}
    (where / ADOPTED_RECORD).write_text(json.dumps(record), encoding="utf-8")
    return [Path(p) for p in cached]


def run(root: Path, cache_dir: Path | None = None, jobs: int | None = None) -> dict[str, list[Path]]:
    """Execute the pages not in the cache into it, ``jobs`` at a time (:func:`default_jobs`);
    ``{"executed": [...], "failed": [...], "left": [...]}`` (left: to the build, as the settings
    ask)."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    root, jobs = root.resolve(), max(1, jobs or default_jobs())
    config = _execution(root)
    where = _cache_folder(config, root, cache_dir)
    cache = get_cache(str(where))
    where.mkdir(parents=True, exist_ok=True)
    record = {"started": time.time(), "pages": _adopted(where)}
    (where / RUN_RECORD).write_text(json.dumps(record), encoding="utf-8")
    done: dict[str, list[Path]] = {"executed": [], "failed": [], "left": []}
    todo = {}  # page -> its notebook, as read for the lookup
    for path in pages(root):
        nb = read(path, root)
        try:
            cache.match_cache_notebook(nb)
            continue
        except KeyError:
            pass
        if _ours(config, root, path, nb):
            todo[path] = nb
        else:
            done["left"].append(path)
    if done["left"]:
        print(f"{_count(done['left'])} left to the build (settings of their own)")
    if not todo:
        print("every other page is in the execution cache" if done["left"] else "every page is in the execution cache")
        return done
    jobs = min(jobs, len(todo))
    # side by side, the later chapters first: they take longest, and no worker is left with one at the end
    order = (
        list(todo)
        if jobs == 1
        else [p for p in todo if p.suffix == ".ipynb"][::-1] + [p for p in todo if p.suffix != ".ipynb"]
    )
    shown = where.relative_to(root) if where.is_relative_to(root) else where
    at_a_time = "one at a time" if jobs == 1 else f"{jobs} at a time"
    print(f"executing {_count(todo)}, {at_a_time}, into {shown}", flush=True)
    start = time.perf_counter()
    pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"))
    try:
        timeout = config.get("timeout", 30)
        running = {pool.submit(_execute, todo[p], str(p.parent), timeout): p for p in order}
        for n, future in enumerate(as_completed(running), 1):
            path = running[future]
            rel = path.relative_to(root)
            try:
                nb, seconds, traceback = future.result()
            except Exception as error:  # the worker itself broke (not a cell): the build still executes the page
                nb, seconds, traceback = None, 0.0, repr(error)
            if traceback:
                done["failed"].append(path)
                print(f"  [{n}/{len(todo)}] {rel}: failed, left to the build to execute and report", flush=True)
                continue
            cache.cache_notebook_bundle(
                CacheBundleIn(nb, str(path), data={"execution_seconds": seconds}), check_validity=False, overwrite=True
            )
            done["executed"].append(path)
            record["pages"][str(path)] = time.time()
            (where / RUN_RECORD).write_text(json.dumps(record), encoding="utf-8")
            print(f"  [{n}/{len(todo)}] {rel}: {seconds:.1f} s", flush=True)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        raise
    pool.shutdown()
    failed = f"; {len(done['failed'])} failed" if done["failed"] else ""
    print(f"executed in {time.perf_counter() - start:.1f} s{failed}")
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="pages at a time (default: one per core)")
    parser.add_argument("--root", type=Path, default=paths.REPO_ROOT, help="the book (default: this repository)")
    parser.add_argument("--cache", type=Path, help="the execution cache (default: _config.yml's execute.cache)")
    args = parser.parse_args(argv)
    run(args.root, args.cache, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
