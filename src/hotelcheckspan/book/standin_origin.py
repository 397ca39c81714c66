"""Where a stand-in figure comes from, for the paper-vs-ours tables: ``set`` (a simulation input),
``calibrated`` (the simulation was fitted to this figure) or ``emergent`` (nothing in the
simulation aims at it).

The stand-in generator records this per figure in ``data/standin_provenance.yaml``, keyed by the
figure's key in ``data/paper_figures.yaml`` (``table5_example_level_votes``), optionally refined
by a dotted sub-key (``table5_example_level_votes.Any``). Without that file every figure is
``emergent``: nothing is claimed to be set or fitted unless the generator says so.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import yaml

from .. import paths
from ..corpora import Corpus

PROVENANCE = paths.DATA_ROOT / "standin_provenance.yaml"
KINDS = ("set", "calibrated", "emergent")
DEFAULT = "emergent"


def read(path: Path | None = None) -> dict[str, str]:
    """Figure key -> kind, from the provenance file (empty if there is none).

    Accepts ``key: kind`` or ``key: {kind: ...}`` at the top level or under ``figures:``; an
    unknown kind is an error naming the file and the key."""
    path = path or PROVENANCE
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    data = data.get("figures", data) if isinstance(data, dict) else {}
    out = {}
    for key, value in data.items():
        kind = value.get("kind", value.get("provenance")) if isinstance(value, dict) else value
        if kind not in KINDS:
            raise ValueError(f"{path}: figure {key!r} has kind {kind!r}; expected one of {', '.join(KINDS)}")
        out[str(key)] = kind
    return out


def kind(figure: str, table: dict[str, str] | None = None) -> str:
    """The kind of a figure: its own entry, else its nearest dotted parent's, else ``emergent``."""
    table = read() if table is None else table
    parts = figure.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in table:
            return table[".".join(parts[:i])]
    return DEFAULT


def mark(frame: pd.DataFrame, figures, corpus: Corpus, column: str = "stand-in figure") -> pd.DataFrame:
    """``frame`` with a column saying, per row, whether the stand-in's figure was set, calibrated
    or emergent; ``figures`` is one figure key for every row or one per row. Unchanged for a
    corpus that is not simulated (its figures are data, not simulation)."""
    if not corpus.simulated:
        return frame
    table = read()
    keys = [figures] * len(frame) if isinstance(figures, str) else list(figures)
    return frame.assign(**{column: [kind(k, table) for k in keys]})
