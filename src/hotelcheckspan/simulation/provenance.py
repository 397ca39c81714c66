"""How each paper figure relates to the stand-in: *set*, *calibrated* or *emergent*
(``data/standin_provenance.yaml``), for labelling every paper-vs-stand-in row.

The file mirrors ``data/paper_figures.yaml``: an entry ``{status, reason}`` applies to the figure
it sits on and everything below it, the deepest entry wins, and an entry keyed by a column name
(``total``) applies to that column of every row of its table.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from .. import paths

PROVENANCE = paths.DATA_ROOT / "standin_provenance.yaml"
STATUSES = ("set", "calibrated", "emergent")


@lru_cache(maxsize=4)
def _read(path: Path, stamp: tuple) -> dict:
    if not stamp:
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: expected a mapping of figures, not {type(data).__name__}")
    _check(data, (), path)
    return data


def _check(node: dict, where: tuple, path: Path) -> None:
    if "status" in node and node["status"] not in STATUSES:
        raise ValueError(
            f"{path.name}: {'/'.join(where)}: status must be one of {', '.join(STATUSES)}, not {node['status']!r}"
        )
    for key, value in node.items():
        if isinstance(value, dict):
            _check(value, (*where, str(key)), path)


def load(path: Path | None = None) -> dict:
    """The provenance file as a nested mapping (empty when there is none)."""
    path = Path(path or PROVENANCE)
    stat = path.stat() if path.is_file() else None
    return _read(path, (stat.st_mtime_ns, stat.st_size) if stat else ())  # re-read when the file changes


def lookup(*keys: str, path: Path | None = None) -> dict:
    """``{status, reason}`` of a figure: the deepest entry along ``keys`` that has a status,
    e.g. ``lookup("table6_span_level", "Stage 1 - Stage 2", "F1_H")``. A key the file does not
    list (a row such as a campaign name) is stepped over, so column entries apply to every row.
    Raises ``KeyError`` when no entry on the path has a status."""
    node, found = load(path), None
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            continue
        node = node[key]
        if isinstance(node, dict) and "status" in node:
            found = {"status": node["status"], "reason": node.get("reason", "")}
    if found is None:
        raise KeyError(f"no stand-in provenance for {'/'.join(keys)}")
    return found


def status(*keys: str, path: Path | None = None, default: str | None = None) -> str:
    """The status alone: ``"set"``, ``"calibrated"`` or ``"emergent"``; ``default`` (when given)
    for a figure the file does not cover."""
    try:
        return lookup(*keys, path=path)["status"]
    except KeyError:
        if default is None:
            raise
        return default
