"""Readings of the γ sections (chapter 04 on Table 6's comparisons, chapter 08 on the real
corpus): γ beside F1, how the two order the comparisons, and why they differ."""

from __future__ import annotations

import pandas as pd

from ...metrics import gamma
from .. import prose
from ..tables import number


def readings(corpus, *, beside: pd.DataFrame, agreement: dict) -> dict[str, str]:
    """``beside``: :func:`~hotelcheckspan.analyses.span_gamma.beside_f1`; ``agreement``:
    :func:`~hotelcheckspan.analyses.span_gamma.rank_agreement`."""
    rows = beside.dropna(subset=["gamma"]).set_index("comparison")
    per_pair = rows[["gamma_examples", "examples", "pairs"]]
    top_gamma = rows["gamma"].idxmax()
    top_f1 = rows["f1"].idxmax()
    tied_f1 = [c for c in rows.index[rows["f1_rank"] == rows.loc[top_f1, "f1_rank"]] if c != top_f1]
    # the comparison whose γ rank is furthest from its F1 rank
    shift = (rows["gamma_rank"] - rows["f1_rank"]).abs()
    moved = shift.idxmax()
    out = {
        "gamma_mode": "soft" if gamma.SOFT_CLI else "hard",
        "gamma_comparisons": str(agreement["comparisons"]),
        "gamma_tau": number(agreement["tau"], 2),
        "gamma_tau_all": number(agreement.get("tau_all", agreement["tau"]), 2),
        "gamma_order": "the same order as" if not agreement["moved"] else "a different order from",
        "gamma_moved_count": str(len(agreement["moved"])),
        "gamma_left_out_text": _left_out(agreement, per_pair),
        "gamma_shown_text": _shown(agreement),
        "gamma_f1_top_text": _f1_top(rows, per_pair, top_f1, tied_f1),
        "gamma_top": top_gamma,
        "gamma_top_value": number(rows.loc[top_gamma, "gamma"], 2),
        "gamma_top_f1": number(rows.loc[top_gamma, "f1"], 2),
        "gamma_top_f1_rank": str(int(rows.loc[top_gamma, "f1_rank"])),
        "gamma_top_examples": number(per_pair.loc[top_gamma, "gamma_examples"], 0),
        "gamma_top_pairs": number(per_pair.loc[top_gamma, "pairs"], 0),
        "gamma_f1_top": top_f1,
        "gamma_f1_top_value": number(rows.loc[top_f1, "gamma"], 2),
        "gamma_f1_top_examples": number(per_pair.loc[top_f1, "gamma_examples"], 0),
        "gamma_f1_top_pairs": number(per_pair.loc[top_f1, "pairs"], 0),
        "gamma_examples_of": number(per_pair["examples"].max(), 0),
        "gamma_moved": moved,
        "gamma_moved_f1_rank": str(int(rows.loc[moved, "f1_rank"])),
        "gamma_moved_gamma_rank": str(int(rows.loc[moved, "gamma_rank"])),
        "gamma_moved_examples": number(per_pair.loc[moved, "gamma_examples"], 0),
        "gamma_moved_pairs": number(per_pair.loc[moved, "pairs"], 0),
        "gamma_negative": str(int((rows["gamma"] < 0).sum())),
        "gamma_moved_direction": "better" if rows.loc[moved, "gamma_rank"] < rows.loc[moved, "f1_rank"] else "worse",
        # of the texts every pair compared (pairs share different numbers of texts: summed per pair)
        "gamma_share": f"{rows['gamma_examples'].sum() / rows['pair_examples'].sum():.0%}",
        "gamma_chance": "above chance in every row"
        if (rows["gamma"] > 0).all()
        else f"below chance in {int((rows['gamma'] < 0).sum())} of {len(rows)} rows",
        "gamma_min": number(rows["gamma"].min(), 2),
        "gamma_max": number(rows["gamma"].max(), 2),
        "gamma_f1_top_pairs_text": _pairs(per_pair.loc[top_f1, "pairs"]),
        "gamma_moved_text": _moved(rows, per_pair, moved, top_gamma),
        "gamma_below_zero": _below_zero(rows),
    }
    return out


def _left_out(agreement: dict, per_pair: pd.DataFrame) -> str:
    """The sentence on the comparisons the rank agreement leaves out (a γ on too few examples), or
    nothing when none is."""
    out = agreement.get("left_out") or []
    if not out:
        return ""
    each = prose.names(f"{c} (a γ on {number(per_pair.loc[c, 'gamma_examples'], 0)} examples in all)" for c in out)
    return (
        f"Left out of that order, as resting on fewer than {agreement['min_examples']} examples: {each}; "
        f"with {'it' if len(out) == 1 else 'them'}, tau is {number(agreement['tau_all'], 2)}."
    )


def _shown(agreement: dict) -> str:
    """Whether the data show any of the rank changes: pairs of comparisons F1 and γ order
    differently, with both measures' intervals clear of each other."""
    n, shown = agreement.get("discordant", 0), agreement.get("shown", 0)
    if n == 0:
        return "No pair of comparisons is ordered differently."
    pairs = f"{n} pair{'' if n == 1 else 's'} of comparisons"
    if shown == 0 and n == 1:
        return (
            f"F1 and γ order {pairs} differently, but F1's or γ's intervals of the two overlap: "
            "the rank change is not shown."
        )
    if shown == 0:
        return (
            f"F1 and γ order {pairs} differently, but in none do both measures' intervals lie clear of each "
            "other: the rank changes are not shown."
        )
    return f"F1 and γ order {pairs} differently; in {shown} of them both intervals lie clear of each other."


def _f1_top(rows: pd.DataFrame, per_pair: pd.DataFrame, top: str, tied: list[str]) -> str:
    """F1's first comparison with how many examples its γ rests on, and any tied with it."""

    def one(c: str) -> str:
        return f"{c}, on {number(per_pair.loc[c, 'gamma_examples'], 0)} across {_pairs(per_pair.loc[c, 'pairs'])}"

    if not tied:
        return f"F1's first, {one(top)}"
    both = prose.names(
        f"{c} (on {number(per_pair.loc[c, 'gamma_examples'], 0)} across {_pairs(per_pair.loc[c, 'pairs'])})"
        for c in [top, *tied]
    )
    return f"F1's first {prose.count_words(1 + len(tied))}, tied within half a point, {both}"


def _pairs(n) -> str:
    """ "its 1 pair", "its 8 pairs"."""
    n = int(n)
    return f"its {n} pair{'' if n == 1 else 's'}"


def _moved(rows: pd.DataFrame, per_pair: pd.DataFrame, moved: str, top_gamma: str) -> str:
    """The sentence on the comparison whose γ rank is furthest from its F1 rank; when that is γ's
    first, which the text has just described, only that it is also the largest move."""
    ranks = f"F1 rank {int(rows.loc[moved, 'f1_rank'])}, γ rank {int(rows.loc[moved, 'gamma_rank'])}"
    if moved == top_gamma:
        return f"It is also the comparison that moves most ({ranks})."
    return (
        f"The largest move is {moved} ({ranks}, a γ on {number(per_pair.loc[moved, 'gamma_examples'], 0)} "
        f"examples across {number(per_pair.loc[moved, 'pairs'], 0)} pairs)."
    )


def _below_zero(rows: pd.DataFrame) -> str:
    """How many comparisons have γ below zero (chance is zero: below it, worse than chance), and how
    many of them clearly: their whole interval below zero."""
    below = rows[rows["gamma"] < 0]
    if below.empty:
        return "none below zero (zero is chance; below it, worse than chance)"
    clearly = int((below["gamma_high"] < 0).sum())
    n = len(below)
    head = f"{n} comparison{'' if n == 1 else 's'} below zero, worse than chance"
    if clearly == n:
        return head + (", its interval too" if n == 1 else ", their intervals too")
    if clearly == 0:
        return head + (
            ", though its interval includes zero" if n == 1 else ", though every one's interval includes zero"
        )
    return head + f", {clearly} of them with the whole interval below it"
