"""Readings of chapter 10 ("Evaluate your own judge"): the leaderboard's top judges, the human
ceiling, how many neighbours this corpus tells apart, and the same on the real corpus."""

from __future__ import annotations

import pandas as pd

from ...analyses import judges, sample_size
from .. import prose, tables
from . import Passage, simulated_only


def _ceiling(board: pd.DataFrame) -> pd.Series:
    return board.set_index("judge").loc[judges.CEILING]


def _ranked(board: pd.DataFrame) -> pd.DataFrame:
    return board[board["judge"] != judges.CEILING].reset_index(drop=True)


def _apart(board: pd.DataFrame) -> dict[str, int]:
    said = _ranked(board)["tell_apart"].dropna()
    return {w: int((said == w).sum()) for w in ("yes", "uncertain", "no")}


def _board_readings(board: pd.DataFrame, prefix: str) -> dict[str, str]:
    """The readings shared by both corpora, names prefixed (``""`` or ``"real_"``)."""
    ranked, ceiling = _ranked(board), _ceiling(board)
    top = ranked.iloc[0]
    best_bacc = ranked.loc[ranked["bacc"].idxmax()]
    reach = ranked[ranked["f1_soft_high"] >= ceiling["f1_soft"]]
    apart = _apart(board)
    n_pairs = max(0, len(ranked) - 1)
    return {
        f"{prefix}n_judges": prose.count_words(len(ranked)),
        f"{prefix}top_judge": str(top["judge"]),
        f"{prefix}top_soft": tables.interval(top["f1_soft"], top["f1_soft_low"], top["f1_soft_high"]),
        f"{prefix}ceiling_soft": tables.interval(ceiling["f1_soft"], ceiling["f1_soft_low"], ceiling["f1_soft_high"]),
        f"{prefix}ceiling_hard": tables.interval(ceiling["f1_hard"], ceiling["f1_hard_low"], ceiling["f1_hard_high"]),
        f"{prefix}top_vs_ceiling": prose.compare(top["f1_soft"], ceiling["f1_soft"], 2, "above", "below", "level with"),
        f"{prefix}n_reach": prose.count_words(len(reach)),
        f"{prefix}best_bacc_judge": str(best_bacc["judge"]),
        f"{prefix}best_bacc": tables.interval(best_bacc["bacc"], best_bacc["bacc_low"], best_bacc["bacc_high"]),
        f"{prefix}same_best": "the same judge" if best_bacc["judge"] == top["judge"] else "a different judge",
        f"{prefix}n_pairs": prose.count_words(n_pairs),
        f"{prefix}n_apart": prose.count_words(apart["yes"]),
        f"{prefix}n_uncertain": prose.count_words(apart["uncertain"]),
        f"{prefix}n_not_apart": prose.count_words(apart["no"]),
    }


def readings(corpus, board: pd.DataFrame, real_board: pd.DataFrame | None = None) -> dict[str, str | Passage]:
    """Every value chapter 10's prose needs, from the leaderboards the chapter shows (``board``
    on ``corpus``; ``real_board`` on the real corpus, when it was available)."""
    out: dict[str, str | Passage] = _board_readings(board, "")
    out["n_examples"] = tables.number(
        len(judges.default_examples(corpus)) if judges.is_hotelcheckspan(corpus) else len(corpus.examples)
    )
    out["n_references"] = prose.count_words(len(judges.references(corpus)))
    out["level"] = f"{judges.LEVEL:.0%}"
    out["threshold"] = f"{sample_size.THRESHOLD:.0%}"
    out["simulated_note"] = simulated_only(
        corpus,
        "On the simulated stand-in the LLM campaigns were set from the paper's span counts only, so this ranking "
        "and its distance to the ceiling *emerge* from simulated judges; they show how the leaderboard reads, not "
        "how the paper's models compare on the real annotations.",
    )
    if real_board is not None:
        out |= _board_readings(real_board, "real_")
        out["real_note"] = Passage("")
    else:
        out |= {k.replace("", "real_", 1): tables.DASH for k in _board_readings(board, "")}
        out["real_note"] = Passage("The real corpus is not available here, so its leaderboard is left out.")
    return out
