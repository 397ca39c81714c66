"""The stand-in's labels in prose: what a chapter says about how its figures entered the simulation,
derived from the same rule as the tables' "Figure is" column (:mod:`hotelcheckspan.reference.provenance`),
so a Summary can never call a figure *set* that its table calls *emergent*.

:func:`passage` takes a chapter's ``versus`` rows and returns markdown that groups them by label,
says by how much each missed set figure was missed and why (the provenance file's reason), and what
was tuned; :func:`kinds` gives the labels alone, for a sentence that names one.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from ..reference import provenance
from . import tables

ORDER = ("set", "calibrated", "tuned", "emergent")
MEANING = {
    "set": "generator inputs, reproduced within their stated tolerance",
    "calibrated": "terms of the calibration loss, with the distance reached",
    "tuned": "adjusted after looking at them",
    "emergent": "none of these: what the simulation gives",
}


def _row(row: Sequence):
    measure, key, ours = row[:3]
    decimals = row[3] if len(row) > 3 and row[3] is not None else 2
    est = ours[0] if isinstance(ours, tuple) else ours
    return measure, key, est if isinstance(est, numbers.Real) and not isinstance(est, bool) else None, decimals


def kinds(rows: Sequence[tuple]) -> dict[str, str]:
    """``{measure: label}`` for ``versus`` rows, as their table shows it."""
    return {m: tables.figure_label(k, v, d) for m, k, v, d in map(_row, rows)}


def kind(key) -> str:
    """The bare label of one figure key (set, calibrated, tuned, emergent), for a sentence."""
    return provenance.kind(key)


def reason(key, field: str = "reason") -> str:
    """What the provenance file says of a figure: its ``reason``, or (``field="tuned"``) what was
    tuned and when; empty when it says nothing."""
    return str(provenance.fields(key).get(field, "")).strip()


def passage(rows: Sequence[tuple], corpus, lead: str = "On the simulated stand-in") -> str:
    """Markdown: the rows' figures grouped by label, each missed set figure with its gap and reason,
    each tuned one with what was tuned; empty for a corpus that is not simulated."""
    if not getattr(corpus, "simulated", False):
        return ""
    groups: dict[str, list[str]] = {k: [] for k in ORDER}
    missed, tuned = [], {}
    for measure, key, ours, decimals in map(_row, rows):
        label = tables.figure_label(key, ours, decimals)
        base = label.split(",")[0]
        if label.startswith("set, missed by"):
            missed.append(f"{measure} ({label.removeprefix('set, ')}: {reason(key)})")
            continue
        groups[base].append(f"{measure} ({label.split(', ', 1)[1]})" if "," in label else measure)
        if base == "tuned":
            tuned.setdefault(reason(key, "tuned"), []).append(measure)
    lines = [f"{lead}, by the rule of the data sheet:"]
    for k in ORDER:
        if groups[k]:
            lines.append(f"- *{k}* ({MEANING[k]}): {'; '.join(groups[k])}.")
        if k == "set" and missed:
            lines.append(f"- *set* but missed beyond the tolerance: {'; '.join(missed)}.")
        if k == "tuned":
            for what, names in tuned.items():
                if what:
                    lines.append(f"  What was tuned for {', '.join(names)}: {what}.")
    return "\n".join(lines)


__all__ = ["kind", "kinds", "passage", "reason"]
