"""Readings for the section "Beyond F1: boundaries and error counts" (chapters 04 and 08).

Does a boundary-tolerant scheme, or the correlation of error counts, order the comparisons as
span F1 does? The values name the comparison each measure ranks first, count the comparisons
whose rank changes, and give the mean cost of boundary and of type disagreement (the F1 gained
from strict to exact matching, i.e. ignoring types, and from exact to partial, i.e. accepting
any overlap).
"""

from __future__ import annotations

import pandas as pd

from ...analyses import span_measures
from ..prose import count_words
from ..tables import number


def _first(values: pd.Series, firsts: list[str]) -> str:
    """The comparison a measure ranks first, naming those tied with it (within half a point,
    :func:`span_measures.ranks`)."""
    best = str(values.idxmax())
    others = [c for c in firsts if c != best]
    return best if not others else f"{best} (tied within half a point with {' and '.join(others)})"


def _moved_said(moved: int, n: int) -> str:
    """ "all seven comparisons change rank", "three of the seven comparisons change rank"."""
    if moved == 0:
        return "no comparison changes rank"
    if moved == n:
        return {1: "the one comparison changes rank", 2: "both comparisons change rank"}.get(
            n, f"all {count_words(n)} comparisons change rank"
        )
    verb = "changes" if moved == 1 else "change"
    return f"{count_words(moved)} of the {count_words(n)} comparisons {verb} rank"


def readings(table: pd.DataFrame, prefix: str = "bf", t6: pd.DataFrame | None = None) -> dict[str, str]:
    """``table``: :func:`hotelcheckspan.analyses.span_measures.table`. Ranks treat values within
    half a point (:data:`span_level.TIE`) as tied, so "highest" and a rank change are never a
    difference the printed figures cannot show.

    The type cost (exact against strict F1) is measured at exact boundaries only; given ``t6``
    (:func:`span_level.table6` of the same comparisons), ``<prefix>_soft_gain`` is the cost of
    types in character overlap beside it: span F1, soft against hard, averaged over the comparisons."""
    ranks = span_measures.ranks(table).set_index("comparison")
    by = table.set_index("comparison")
    firsts = {m: list(ranks.index[ranks[m] == 1]) for m in span_measures.MEASURES if by[m].notna().any()}
    top = {m: _first(by[m], firsts[m]) for m in firsts}
    moved = int((ranks["partial F1"] != ranks["F1 (book)"]).fillna(False).sum())
    moved_r = int((ranks["Pearson r (micro)"] != ranks["F1 (book)"]).fillna(False).sum())
    type_cost = float((by["exact F1"] - by["strict F1"]).mean())
    boundary_cost = float((by["partial F1"] - by["exact F1"]).mean())
    out = {
        f"{prefix}_n": count_words(len(table)),
        f"{prefix}_top_f1": top["F1 (book)"],
        f"{prefix}_top_partial": top["partial F1"],
        f"{prefix}_top_strict": top["strict F1"],
        f"{prefix}_top_r": top.get("Pearson r (micro)", "none"),
        f"{prefix}_same_top": "the same comparison"
        if firsts["partial F1"] == firsts["F1 (book)"]
        else "the same comparisons"
        if set(firsts["partial F1"]) == set(firsts["F1 (book)"])
        else "one of the same comparisons"
        if set(firsts["partial F1"]) & set(firsts["F1 (book)"])
        else "a different comparison",
        f"{prefix}_moved": count_words(moved),
        f"{prefix}_moved_said": _moved_said(moved, len(table)),
        f"{prefix}_moved_r": count_words(moved_r),
        f"{prefix}_type_cost": number(type_cost, 2),
        f"{prefix}_exact_max": number(by["exact F1"].max(), 2),
        f"{prefix}_boundary_cost": number(boundary_cost, 2),
        f"{prefix}_bigger": "boundaries" if boundary_cost > type_cost else "types",
        f"{prefix}_r_min": number(by["Pearson r (micro)"].min(), 2),
        f"{prefix}_r_max": number(by["Pearson r (micro)"].max(), 2),
    }
    if t6 is not None:
        f1 = t6.pivot_table(index="comparison", columns="match", values="f1", sort=False)
        out[f"{prefix}_soft_gain"] = number(float((f1["soft"] - f1["hard"]).mean()), 2)
    return out
