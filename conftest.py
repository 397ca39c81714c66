"""nbval's run of the chapters: every output byte for byte, and (``--book-cache``) the book's execution.

nbval compares each cell's fresh outputs with the stored notebook's after its sanitizing, and
skips figures (image/png). Here every output must also be the stored one exactly: figures, glued
values and metadata included. Only the execution counter may differ: nbval's kernel runs each
cell without history, so it numbers none. A text stream (print, a warning) fails, stored or fresh:
the kernel sends one in chunks that depend on timing, which nbval merges before it compares, so
it cannot be compared byte for byte (the chapters show their text through display and glue). The
stored twins are written single-threaded (`make notebooks`: OMP/OpenBLAS/MKL at one thread), and
nbval's kernel runs with the machine's threads, as a reader's kernel or the book's would. So this
fails on a displayed number that depends on BLAS threading or on the last bits of floating point,
and on a figure that moves by a pixel. It also fails on a memory address in an output.

With ``--book-cache FOLDER`` (`make test`), each notebook of which every code cell ran and passed
so is cached in Jupyter Book's execution cache as its execution
(:func:`hotelcheckspan.book.execute.adopt`, which also refuses a notebook with a cell slower than
the book's timeout). What nbval executed is, output for output, the stored notebook, so the book
built next takes it from the cache instead of executing the chapter a second time.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path

import pytest

ADOPTED = "nbval_adopted"  # a pytest-xdist worker's chapters, passed to the controller


def pytest_addoption(parser):
    parser.addoption(
        "--book-cache",
        type=Path,
        default=None,
        help="cache each chapter nbval executed with every output the stored one in this Jupyter Book "
        "execution cache (hotelcheckspan.book.execute.adopt)",
    )


def _nbval_cell(item) -> bool:
    return type(item).__name__ == "IPyNbCell" and hasattr(item, "cell")


def _plain(outputs) -> str:
    """Outputs as JSON, without the execution counter (nbval's kernel keeps none)."""
    return json.dumps(
        [{k: v for k, v in dict(o).items() if k != "execution_count"} for o in outputs], sort_keys=True, default=dict
    )


def differences(stored, fresh) -> list[str]:
    """Which outputs of a cell differ, by kind ("output 2: image/png"), without printing a PNG."""
    if len(stored) != len(fresh):
        return [f"{len(stored)} outputs stored, {len(fresh)} now"]
    out = []
    for i, (a, b) in enumerate(zip(stored, fresh)):
        a, b = dict(a), dict(b)
        for kind in sorted(set(a.get("data", {})) | set(b.get("data", {}))):
            if a.get("data", {}).get(kind) != b.get("data", {}).get(kind):
                out.append(f"output {i}: {kind}")
        for key in sorted((set(a) | set(b)) - {"data", "execution_count"}):
            if _plain([{key: a.get(key)}]) != _plain([{key: b.get(key)}]):
                out.append(f"output {i}: {key}")
    return out or ["the outputs differ"]


class _Chapters:
    """Per notebook: its code cells, those that ran and passed with every output the stored one,
    the seconds they took (the kernel's start included) and when its last cell finished."""

    def __init__(self):
        self.cells: dict[str, set[int]] = {}
        self.exact: dict[str, set[int]] = {}
        self.seconds: dict[str, float] = {}
        self.longest: dict[str, float] = {}
        self.finished: dict[str, float] = {}
        self.sent: dict[str, dict] = {}  # on pytest-xdist's controller: what the workers executed so

    def executed(self) -> dict[str, dict]:
        """The notebooks that ran whole with every output the stored one: seconds, the longest cell, and
        when the last cell finished."""
        mine = {
            nb: {"seconds": self.seconds.get(nb, 0.0), "longest": self.longest.get(nb, 0.0), "at": self.finished[nb]}
            for nb, cells in self.cells.items()
            if cells and self.exact.get(nb) == cells
        }
        return mine | self.sent


_KEY = pytest.StashKey[_Chapters]()
_STORED = pytest.StashKey[list]()
_SAID = pytest.StashKey[str]()  # what the controller cached, for the terminal summary


def pytest_configure(config):
    config.stash[_KEY] = _Chapters()


def pytest_collection_modifyitems(session, config, items):
    """Each notebook's code cells, counted from the notebook (a selection of some cells runs a part
    of it), and each cell's stored outputs as stored, before nbval merges them in place."""
    chapters = config.stash[_KEY]
    for item in items:
        if _nbval_cell(item):
            nb = str(Path(item.parent.path).resolve())
            if nb not in chapters.cells:
                code = [c for c in item.parent.nb.cells if c.cell_type == "code"]
                chapters.cells[nb] = set(range(len(code)))
            item.stash[_STORED] = copy.deepcopy(list(item.cell.get("outputs", [])))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if not _nbval_cell(item):
        return
    report = outcome.get_result()
    chapters = item.config.stash[_KEY]
    nb = str(Path(item.parent.path).resolve())
    chapters.seconds[nb] = chapters.seconds.get(nb, 0.0) + report.duration
    chapters.finished[nb] = time.time()
    if call.when != "call" or not report.passed:
        return
    chapters.longest[nb] = max(chapters.longest.get(nb, 0.0), report.duration)
    fresh = getattr(item, "test_outputs", None)
    if fresh is None:  # nbval ran the cell without keeping its outputs: nothing to compare
        return
    stored = item.stash[_STORED]
    text = _plain(fresh)
    wrong = [] if _plain(stored) == text else differences(stored, fresh)
    streams = [
        f"{o.get('name')}, {side}"
        for side, outs in (("stored", stored), ("fresh", fresh))
        for o in outs
        if o.get("output_type") == "stream"
    ]
    if streams:
        wrong.append(f"a text stream ({'; '.join(streams)}), which cannot be compared byte for byte")
    if "object at 0x" in text or "Styler object" in text:
        wrong.append("a memory address in an output")
    if wrong:
        report.outcome = "failed"
        report.longrepr = (
            f"{item.parent.path.name}, cell {item.cell_num}: the fresh outputs are not the stored ones byte for byte "
            f"({'; '.join(wrong)}); nbval's comparison skips figures and sanitizes, this one does not"
        )
    else:
        chapters.exact.setdefault(nb, set()).add(item.cell_num)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """On the controller of pytest-xdist: a worker's chapters that passed whole."""
    sent = getattr(node, "workeroutput", {}).get(ADOPTED)
    if sent:
        node.config.stash[_KEY].sent.update(json.loads(sent))


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    whole = config.stash[_KEY].executed()
    if hasattr(config, "workeroutput"):  # a pytest-xdist worker: the controller caches
        config.workeroutput[ADOPTED] = json.dumps(whole)
        return
    if config.getoption("book_cache") is None or not whole:
        return
    from hotelcheckspan.book import execute

    cached = execute.adopt(
        {Path(nb): run for nb, run in whole.items()}, root=config.rootpath, cache_dir=config.getoption("book_cache")
    )
    config.stash[_SAID] = (
        f"{len(cached)} of {len(whole)} notebooks executed by nbval with every output the stored one cached "
        f"for the book in {config.getoption('book_cache')}: {', '.join(p.name for p in sorted(cached)) or 'none'}"
    )


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _SAID in config.stash:
        terminalreporter.write_line(config.stash[_SAID])
