"""Readings for the section "Kappa and AC1 when errors are rare" (chapters 03 and 08).

Why Fleiss' kappa and Gwet's AC1 part on a type most examples lack: both subtract a chance
agreement from the observed one, kappa's ``pi^2 + (1 - pi)^2`` (near one when the error share
pi is small), AC1's ``2 pi (1 - pi)`` (near zero). The values name the type where the two part
most, its share of error votes, its observed agreement and the two chance terms, so the prose
can show the arithmetic.
"""

from __future__ import annotations

import pandas as pd

from ..prose import compare, count_words, names
from ..tables import number


def readings(prevalence: pd.DataFrame, prefix: str = "kp") -> dict[str, str]:
    """``prevalence``: :func:`hotelcheckspan.analyses.example_level.prevalence`; glue names start
    with ``prefix`` (chapters 03 and 08 each use their own)."""
    frame = prevalence.set_index("label")
    typed = frame.drop(index="Any", errors="ignore").dropna(subset=["gwet_ac1"])
    gap = (typed["gwet_ac1"] - typed["fleiss_kappa"].fillna(0)).sort_values(ascending=False)
    widest = gap.index[0]
    row = typed.loc[widest]
    rare = typed[typed["positive_share"] < 0.5]
    above = int((typed["gwet_ac1"].round(2) > typed["fleiss_kappa"].round(2)).sum())  # as the table shows them
    shares = typed["positive_share"].round(2)  # as the table shows them
    rarest, commonest = shares.index[shares == shares.min()], shares.index[shares == shares.max()]
    if len(typed) < 2 or shares.nunique() == 1:
        where = f"{widest}, though every type has the same share of error votes"
    elif widest in rarest:
        where = (
            f"{widest}, the rarest type"
            if len(rarest) == 1
            else f"{widest}, one of the rarest types ({names(list(rarest))} tie)"
        )
    elif widest in commonest:
        where = f"{widest}, the most common type" if len(commonest) == 1 else f"{widest}, one of the most common types"
    else:
        where = f"{widest}, neither the rarest type nor the most common"
    return {
        f"{prefix}_type": str(widest),
        f"{prefix}_share": number(100 * row["positive_share"], 0),
        f"{prefix}_pa": number(row["pa"], 2),
        f"{prefix}_pe_kappa": number(row["pe_kappa"], 2),
        f"{prefix}_pe_ac1": number(row["pe_ac1"], 2),
        f"{prefix}_kappa": number(row["fleiss_kappa"], 2),
        f"{prefix}_ac1": number(row["gwet_ac1"], 2),
        f"{prefix}_above": _of(above, len(typed)),
        f"{prefix}_rare": _of(len(rare), len(typed)),
        f"{prefix}_ac1_vs_pa": compare(row["gwet_ac1"], row["pa"], 2, "above", "below", "equal to"),
        f"{prefix}_share_gap": where,
    }


def _of(k: int, n: int) -> str:
    """ "all three", "both", "two of three", "none of three": a count of a small whole in words."""
    if k == n:
        return "both" if n == 2 else f"all {count_words(n)}"
    return f"{'none' if k == 0 else count_words(k)} of {count_words(n)}"
