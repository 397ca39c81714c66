"""How each paper figure relates to the stand-in: *set*, *calibrated* or *emergent*
(``data/standin_provenance.yaml``), for labelling every paper-vs-stand-in row."""

from __future__ import annotations

from functools import cache

import yaml

from .. import paths

PROVENANCE = paths.DATA_ROOT / "standin_provenance.yaml"
STATUSES = ("set", "calibrated", "emergent")


@cache
def load() -> dict:
    """The provenance file as a nested mapping (keys as in ``data/paper_figures.yaml``)."""
    return yaml.safe_load(PROVENANCE.read_text(encoding="utf-8"))


def lookup(*path: str) -> dict:
    """``{status, reason}`` of a figure: the deepest entry along ``path`` that has a status,
    e.g. ``lookup("table6_span_level", "Stage 1 - Stage 2", "F1_H")``. Raises ``KeyError`` when
    no entry on the path has one."""
    node, found = load(), None
    for key in path:
        if not isinstance(node, dict) or key not in node:
            break
        node = node[key]
        if isinstance(node, dict) and "status" in node:
            found = {"status": node["status"], "reason": node["reason"]}
    if found is None:
        raise KeyError(f"no stand-in provenance for {'/'.join(path)}")
    return found


def status(*path: str) -> str:
    """The status alone: ``"set"``, ``"calibrated"`` or ``"emergent"``."""
    return lookup(*path)["status"]
