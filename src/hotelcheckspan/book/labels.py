"""The stand-in's labels in prose: what a chapter says about how its figures entered the simulation,
given by the same rule as the tables' "Figure is" column (:mod:`hotelcheckspan.reference.provenance`),
so a Summary can never call a figure *set* that its table calls *emergent*: one figure, one label.

:func:`passage` takes a chapter's ``versus`` rows and returns markdown that groups them by label,
says by how much each missed set figure was missed and why (the provenance file's reason), what
each derived figure is a function of, and what was tuned (the file's ``tuned`` text, or the
constants chosen against the figure and why); :func:`kinds` gives the labels alone, :func:`kind`
one figure's bare label, for a sentence that names one.

:func:`basis` and :func:`paper_basis` give the lead of a Summary bullet, what it rests on: the
paper's own figures, or this corpus' (on the stand-in, with the rule's label of each figure the
bullet reports); every Summary bullet that glues a reading starts with one (a test checks it).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from ..reference import provenance
from . import tables
from .readings import Passage

# the order a passage lists the labels in (the rule decides in provenance.STATUSES' order)
ORDER = ("set", "calibrated", "tuned", "derived", provenance.BUILT, "emergent", provenance.NOT_SIMULATED)
MEANING = {
    "set": "generator inputs, reproduced within their stated tolerance",
    "calibrated": "terms of the calibration loss, with the distance reached",
    "tuned": "adjusted after looking at them, or a hand-set constant was chosen against them",
    "derived": "functions of figures with one of the labels above, with what of",
    provenance.BUILT: "their direction, significance or bound is put in by the generator, whatever their size",
    "emergent": "none of these: what the simulation gives",
    provenance.NOT_SIMULATED: "the stand-in has no such figure, so nothing in it is compared with the paper's",
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
    """The bare label of one figure key (calibrated, tuned, set, derived, by construction, emergent),
    for a sentence."""
    return provenance.kind(key)


def reason(key, field: str = "reason") -> str:
    """What the provenance file says of a figure: its ``reason``, or (``field="tuned"``) what was
    tuned and when (the file's ``tuned`` text, else the ``why`` of each constant chosen against
    the figure), or (``field="built_in"``) what the generator puts in (the file's ``built_in``
    text, else the ``why`` of each constant that builds it in); empty when it says nothing."""
    said = str(provenance.fields(key).get(field, "")).strip()
    if field in ("tuned", "built_in") and not said:
        consts = provenance.constants()
        names = provenance.chosen(key) if field == "tuned" else provenance.builds_in(key)
        said = "; ".join(f"{consts[name]['why']} (`{name}`)" for name in names)
    if field == "built_in" and not said and provenance.built_through(key):
        how = str(provenance.fields(key).get("how", "")).strip()
        through = [reason("/".join(map(str, k)), "built_in") for k in provenance.built_through(key)]
        said = f"computed ({how}) from figures whose direction or bound is put in: " + "; ".join(
            dict.fromkeys(t for t in through if t)
        )
    return said


def passage(rows: Sequence[tuple], corpus, lead: str = "On the simulated stand-in") -> str:
    """Markdown: the rows' figures grouped by label, each missed set figure with its gap and reason,
    each tuned one with what was tuned; empty for a corpus that is not simulated."""
    if not getattr(corpus, "simulated", False):
        return ""
    groups: dict[str, list[str]] = {k: [] for k in ORDER}
    missed, tuned, built = [], {}, {}
    for measure, key, ours, decimals in map(_row, rows):
        label = tables.figure_label(key, ours, decimals)
        base = provenance.kind(key)
        if label.startswith("set, missed by"):
            missed.append(f"{measure} ({label.removeprefix('set, ')}: {reason(key)})")
            continue
        detail = label.removeprefix(base).strip(" ,")  # "off by 0.02", "(total ÷ records)"
        groups[base].append(
            f"{measure} {detail}" if detail.startswith("(") else f"{measure} ({detail})" if detail else measure
        )
        if base == "tuned":
            tuned.setdefault(reason(key, "tuned"), []).append(measure)
        if base == provenance.BUILT:
            built.setdefault(reason(key, "built_in"), []).append(measure)
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
        if k == provenance.BUILT:
            for what, names in built.items():
                if what:
                    lines.append(f"  What the generator puts in for {', '.join(names)}: {what}.")
    return "\n".join(lines)


PAPER_BASIS = "From the paper's own figures:"


def paper_basis() -> Passage:
    """The lead of a Summary bullet that rests on the paper's figures alone (its tables and text,
    and what they imply), not on the corpus the chapter loaded."""
    return Passage(PAPER_BASIS)


def basis(corpus, *figures: tuple[str, object], paper: bool = False, name: str | None = None) -> Passage:
    """The lead of a Summary bullet that reports this corpus' figures, saying what it rests on.

    ``figures`` are ``(what, key)`` pairs: the figures the bullet reports and the paper figure each
    stands beside (a key of ``data/paper_figures.yaml``, or None for a figure the paper does not
    report), or the generator constant (``module.NAME`` of the provenance file's ``constants``) that
    shapes a figure the paper does not report: *tuned* if it was chosen against a paper figure,
    else *by construction*. On a simulated corpus each gets the rule's label (:func:`kind`): "On the
    stand-in (Table 5's votes *calibrated*; kappa *emergent*):"; on a real corpus "On this corpus:"
    (or "On ``name``:"). A triple ``(what, key, ours)`` (optionally with the row's decimals) gets
    the label its table shows ("the no-error mean *set*, missed by 0.14"). With ``paper`` the
    bullet also rests on the paper's own figures, and says so first."""
    if getattr(corpus, "simulated", False):
        said = "; ".join(f"{f[0]} {_basis_label(*f[1:])}" for f in figures)
        where = f"on the stand-in ({said})" if said else "on the stand-in"
    else:
        where = f"on {name}" if name else "on this corpus"
    lead = f"From the paper's own figures, and {where}:" if paper else f"{where[0].upper()}{where[1:]}:"
    return Passage(lead)


def _basis_label(key, *value) -> str:
    """The label of one figure of a basis, its kind in italics: the bare kind, or with our value
    (and decimals) the label the figure's table shows, its detail after the kind."""
    if not value:
        return f"*{_basis_kind(key)}*"
    ours, decimals = value[0], value[1] if len(value) > 1 else 2
    shown, base = tables.figure_label(key, ours, decimals), provenance.kind(key)
    return f"*{base}*{shown.removeprefix(base)}" if shown.startswith(base) else f"*{shown}*"


def _basis_kind(key) -> str:
    """A figure key's label, or a generator constant's: tuned when chosen against a paper figure,
    else by construction (it shapes the figure by hand)."""
    consts = provenance.constants()
    if isinstance(key, str) and key in consts:
        return "tuned" if consts[key]["chosen_against"] else provenance.BUILT
    return kind(key)


__all__ = ["PAPER_BASIS", "basis", "kind", "kinds", "paper_basis", "passage", "reason"]
