"""LLM judges: every model campaign of a corpus scored against the humans and ranked.

An LLM judge is a model campaign; the judges are discovered in the loaded corpus
(:func:`hotelcheckspan.annotator_sets.judges`), so a campaign a user adds is scored wherever the
paper's five are. Two views:

``leaderboard(corpus)``
    one row per judge, ranked by soft span F1 against the human annotator sets (averaged over
    them, as Table 6 averages its pairs), with hard F1 and balanced accuracy (BACC) against the
    clear human majority on "any error", bootstrap intervals, the human-human agreement as the
    ceiling, and whether the corpus can tell each judge from the next one down
    (:func:`~hotelcheckspan.analyses.sample_size.examples_needed`).
``evaluate(corpus, judge)``
    one judge's rows of Tables 3, 5 and 6 as the chapters compute them, its BACC and its rank.

The references: on HotelCheckSpan (a corpus with the four human sets of Tables 4-6) the four
sets on the stage-2 examples, as in the paper; on any other factgenie corpus every annotator
group of every human campaign, each pair of sets on the texts both annotated (chapter 08).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..annotator_sets import HUMAN_SETS, AnnotatorSet, groups_of, in_paper, judges
from ..categories import ANY
from ..corpora import KEY, Corpus
from ..metrics import resampling
from . import dataset_level, example_level, sample_size, span_level

CEILING = "humans (ceiling)"  # the leaderboard's human-human row
LEVEL = 0.95  # the level of every interval of the leaderboard

LEADERBOARD_COLUMNS = [
    "rank",
    "judge",
    "in_paper",
    "f1_soft",
    "f1_soft_low",
    "f1_soft_high",
    "rank_soft",
    "f1_hard",
    "f1_hard_low",
    "f1_hard_high",
    "rank_hard",
    "bacc",
    "bacc_low",
    "bacc_high",
    "rank_bacc",
    "majority_examples",
    "majority_errors",
    "next",
    "n_needed",
    "n_low",
    "n_high",
    "tell_apart",
]


def is_hotelcheckspan(corpus: Corpus) -> bool:
    """Whether the corpus has HotelCheckSpan's four human annotator sets (stage 1 and 2, A and B)."""
    return all(not s.select(corpus)[0].empty for s in HUMAN_SETS)


def references(corpus: Corpus) -> list[AnnotatorSet]:
    """The human sets judges are scored against: the four of Tables 4-6 on HotelCheckSpan, else
    every annotator group of every human campaign."""
    if is_hotelcheckspan(corpus):
        return list(HUMAN_SETS)
    return [g for c in corpus.campaigns("human") for g in groups_of(corpus, c)]


def default_examples(corpus: Corpus) -> pd.DataFrame | None:
    """The examples judges are compared on: the stage-2 examples on HotelCheckSpan (Tables 4-6),
    else None (every example both sides of a pair annotated)."""
    return dataset_level.stage2_examples(corpus) if is_hotelcheckspan(corpus) else None


def majority_raters(corpus: Corpus, refs: list[AnnotatorSet]) -> tuple[list[AnnotatorSet], int | None]:
    """The raters whose clear majority is the truth for BACC, and the votes it takes: on
    HotelCheckSpan the four sets, 3-1 or 4-0 (the paper's rule, ``None``); elsewhere the groups
    that annotated every text, at least three quarters of them agreeing (chapter 08)."""
    if is_hotelcheckspan(corpus):
        return list(HUMAN_SETS), None
    n = len(corpus.examples) if len(corpus.examples) else corpus.records[KEY].drop_duplicates().shape[0]
    complete = [g for g in refs if g.select(corpus)[0][KEY].drop_duplicates().shape[0] >= n]
    raters = complete if len(complete) >= 2 else refs
    return raters, math.ceil(0.75 * len(raters))


def comparisons(corpus: Corpus) -> list[dict]:
    """Table 6's comparisons for this corpus: ``data/comparisons.yaml`` (with its rule adding
    every judge the paper does not have) on HotelCheckSpan; elsewhere "humans vs humans" (every
    pair of reference sets) and "humans vs <judge>" for every judge, as chapter 08 has them."""
    if is_hotelcheckspan(corpus):
        return span_level.load_comparisons(corpus=corpus)
    specs = [s.spec for s in references(corpus)]
    human = [{"name": "humans vs humans", "ref": [a], "hyp": specs[i + 1 :]} for i, a in enumerate(specs[:-1])]
    return human + [{"name": f"humans vs {j}", "ref": specs, "hyp": [j]} for j in judges(corpus)]


def _f1(corpus, names, refs, examples, n_boot, seed) -> pd.DataFrame:
    """Span F1 (hard and soft) of every judge against every reference, and of every pair of
    references (the ceiling), averaged over pairs with bootstrap intervals (Table 6's)."""
    specs = [r.spec for r in refs]
    extra = {} if examples is None else {"examples": examples}
    comps = [{"name": j, "ref": specs, "hyp": [j], **extra} for j in names]
    comps += [{"name": CEILING, "ref": [a], "hyp": specs[i + 1 :], **extra} for i, a in enumerate(specs[:-1])]
    pairs, counts = span_level.pairwise(corpus, comps)
    return span_level.table6(pairs, counts, n_boot=n_boot, seed=seed)


def _bacc_ceiling(corpus, raters, examples, min_agree, n_boot, seed) -> dict:
    """Each human rater against the clear majority of the others (on any error), BACC averaged
    over raters, with a bootstrap interval (one set of resamples for every rater)."""
    if len(raters) < 3:
        return {"bacc": float("nan"), "bacc_low": float("nan"), "bacc_high": float("nan")}
    blocks, frame = [], None
    all_marks = example_level.marks(corpus, raters, examples)
    for r in raters:
        others = all_marks[all_marks["rater"] != r.name]
        need = None if min_agree is None else math.ceil(0.75 * (len(raters) - 1))
        maj = example_level.majority(example_level.votes(others), need)
        mine = all_marks[all_marks["rater"] == r.name]
        merged = maj[KEY + [ANY]].merge(mine[KEY + [ANY]], on=KEY, suffixes=("_h", "_m"))
        if frame is None:
            frame = merged[KEY]
        merged = frame.merge(merged, on=KEY, how="left")
        known = merged[f"{ANY}_h"].notna().to_numpy()
        t = merged[f"{ANY}_h"].fillna(False).to_numpy(bool)
        p = merged[f"{ANY}_m"].fillna(False).to_numpy(bool)
        blocks.append(np.stack([t & p, t & ~p, ~t & p, ~t & ~p], axis=1) * known[:, None])
    counts = np.hstack(blocks).astype(float)
    reduce = lambda sums: np.nanmean(sample_size._confusion(sums, "bacc"), axis=1)  # noqa: E731
    estimate = float(reduce(counts.sum(axis=0, keepdims=True))[0])
    reps = reduce(resampling.weights(len(counts), n_boot, np.random.default_rng(seed)) @ counts)
    low, high = resampling.interval(reps, LEVEL)
    return {"bacc": estimate, "bacc_low": low, "bacc_high": high}


def _tell_apart(result: dict) -> str:
    """ "yes" where even the interval's upper end of the examples needed is within the corpus,
    "uncertain" where the estimate is but the upper end is not, "no" where the estimate is not."""
    n = result["examples"]
    if result["n_needed"] <= n:
        return "yes" if result["n_high"] <= n else "uncertain"
    return "no"


def leaderboard(
    corpus: Corpus,
    names: list[str] | None = None,
    *,
    examples: pd.DataFrame | None = None,
    n_boot: int = 1000,
    seed: int = 0,
    distinguish: bool = True,
    n_resamples: int = 1000,
    n_outer: int = 100,
    n_inner: int = 200,
) -> pd.DataFrame:
    """Every judge (default: every model campaign of the corpus) ranked by soft span F1.

    Columns (:data:`LEADERBOARD_COLUMNS`): ``rank`` (by soft F1; the ceiling row has none),
    ``judge``, ``in_paper`` (one of the paper's five), ``f1_soft``, ``f1_hard`` (span F1 against
    each reference set, averaged over them) and ``bacc`` (balanced accuracy against the clear
    human majority on any error), each with ``_low``/``_high`` bootstrap bounds (at
    :data:`LEVEL`) and its own ``rank_*``; ``majority_examples`` and ``majority_errors`` (the
    examples with a clear majority and how many of them it calls erroneous: the sample behind
    BACC); then, for every judge but the last, ``next`` (the
    judge ranked below it), ``n_needed, n_low, n_high`` (examples needed to order the two by
    soft F1 in 95% of test sets, and its interval; ``inf`` beyond eight times the corpus) and
    ``tell_apart`` ("yes", "uncertain", "no": whether this corpus' examples suffice). The last
    row, ``judge`` = :data:`CEILING`, is the humans against each other: F1 averaged over every
    pair of reference sets, BACC of each rater against the others' clear majority.
    ``distinguish=False`` leaves the neighbour columns empty (they take the most time).
    """
    names = judges(corpus) if names is None else list(names)
    if not names:
        raise ValueError("the corpus has no model campaign (no LLM judge) to rank")
    refs = references(corpus)
    examples = default_examples(corpus) if examples is None else examples
    f1 = _f1(corpus, names, refs, examples, n_boot, seed).set_index(["comparison", "match"])
    raters, min_agree = majority_raters(corpus, refs)
    table5 = example_level.models_vs_majority(
        corpus, names, raters=raters, examples=examples, n_boot=n_boot, seed=seed, min_agree=min_agree
    )
    bacc = table5[table5["label"] == ANY].set_index("model")
    rows = []
    for who in [*names, CEILING]:
        row = {"judge": who, "in_paper": is_hotelcheckspan(corpus) if who == CEILING else in_paper(who)}
        for match in ("soft", "hard"):
            r = f1.loc[(who, match)]
            row |= {f"f1_{match}": r["f1"], f"f1_{match}_low": r["f1_low"], f"f1_{match}_high": r["f1_high"]}
        if who == CEILING:
            row |= _bacc_ceiling(corpus, raters, examples, min_agree, n_boot, seed)
        else:
            row |= {m: bacc.loc[who, m] for m in ("bacc", "bacc_low", "bacc_high")}
            row |= {"majority_examples": bacc.loc[who, "examples"], "majority_errors": bacc.loc[who, "majority_errors"]}
        rows.append(row)
    out = pd.DataFrame(rows)
    judged = out["judge"] != CEILING
    for measure in ("soft", "hard", "bacc"):
        col = measure if measure == "bacc" else f"f1_{measure}"
        out[f"rank_{measure}"] = out[col].where(judged).rank(ascending=False, method="min").astype("Int64")
    order = out[judged].sort_values(["f1_soft", "judge"], ascending=[False, True])
    out = pd.concat([order, out[~judged]], ignore_index=True)
    out.insert(0, "rank", out["rank_soft"])
    for col in ("next", "n_needed", "n_low", "n_high", "tell_apart"):
        out[col] = None
    if distinguish:
        ranked = out.loc[out["judge"] != CEILING, "judge"].tolist()
        for i, (a, b) in enumerate(zip(ranked, ranked[1:])):
            res = sample_size.examples_needed(
                corpus,
                a,
                b,
                refs,
                measure="span F1",
                match="soft",
                examples=examples,
                n_resamples=n_resamples,
                n_outer=n_outer,
                n_inner=n_inner,
                seed=seed,
            )
            out.loc[i, ["next", "n_needed", "n_low", "n_high"]] = [b, res["n_needed"], res["n_low"], res["n_high"]]
            out.loc[i, "tell_apart"] = _tell_apart(res)
    for col in ("n_needed", "n_low", "n_high"):
        out[col] = pd.to_numeric(out[col])
    return out[LEADERBOARD_COLUMNS]


def evaluate(corpus: Corpus, judge: str, *, n_boot: int = 1000, seed: int = 0, figures: dict | None = None) -> dict:
    """One judge's rows of the book's tables, computed as the chapters compute them.

    Returns a dict: ``judge``, ``in_paper``; ``table3`` (its row of Table 3 on HotelCheckSpan,
    paper columns NaN for a judge the paper does not have; elsewhere its row of
    :func:`dataset_level.campaign_table`); ``table5`` (:func:`example_level.models_vs_majority`
    rows of the judge: agreement with the clear human majority, BACC, kappa and recall per type
    and for any error, with intervals; computed with every judge, as chapter 03 does);
    ``bacc`` (the "any error" BACC: ``estimate, low, high``); ``table6`` (the
    :func:`span_level.table6` rows of the comparisons whose hypothesis includes the judge);
    ``rank`` (``soft``, ``hard``, ``bacc``: its rank among the corpus' judges, None where its
    score is undefined; ``of``: how many) and ``leaderboard`` (:func:`leaderboard` without the neighbour columns).
    """
    available = judges(corpus)
    if judge not in available:
        known = ", ".join(corpus.campaigns()) or "none"
        raise ValueError(f"no campaign {judge!r} in the corpus (campaigns: {known})")
    examples = default_examples(corpus)
    if is_hotelcheckspan(corpus):
        from ..reference import paper

        figures = figures if figures is not None else paper.figures()
        t3 = dataset_level.table3(corpus, figures, paper.LLM_CAMPAIGNS)
        row_name = next((p for p, c in paper.LLM_CAMPAIGNS.items() if c == judge), judge)
        table3 = t3[t3["campaign"] == row_name].reset_index(drop=True)
    else:
        t3 = dataset_level.campaign_table(corpus)
        table3 = t3[t3["campaign"] == judge].reset_index(drop=True)
    refs = references(corpus)
    raters, min_agree = majority_raters(corpus, refs)
    t5 = example_level.models_vs_majority(
        corpus, available, raters=raters, examples=examples, n_boot=n_boot, seed=seed, min_agree=min_agree
    )
    table5 = t5[t5["model"] == judge].reset_index(drop=True)
    comps = comparisons(corpus)
    pairs, counts = span_level.pairwise(corpus, comps)
    t6 = span_level.table6(pairs, counts, n_boot=n_boot, seed=seed)
    mine = [c["name"] for c in comps if judge in {AnnotatorSet.parse(h).campaign for h in c["hyp"]}]
    table6 = t6[t6["comparison"].isin(mine)].reset_index(drop=True)
    board = leaderboard(corpus, available, examples=examples, n_boot=n_boot, seed=seed, distinguish=False)
    me = board[board["judge"] == judge].iloc[0]
    anyrow = table5[table5["label"] == ANY].iloc[0]
    return {
        "judge": judge,
        "in_paper": in_paper(judge),
        "table3": table3,
        "table5": table5,
        "bacc": {"estimate": anyrow["bacc"], "low": anyrow["bacc_low"], "high": anyrow["bacc_high"]},
        "table6": table6,
        "rank": {  # None where the judge's score is undefined (it shares no example with the humans)
            "soft": None if pd.isna(me["rank_soft"]) else int(me["rank_soft"]),
            "hard": None if pd.isna(me["rank_hard"]) else int(me["rank_hard"]),
            "bacc": None if pd.isna(me["rank_bacc"]) else int(me["rank_bacc"]),
            "of": len(available),
        },
        "leaderboard": board.drop(columns=["next", "n_needed", "n_low", "n_high", "tell_apart"]),
    }


def _n(value) -> str | None:
    """An examples-needed number for readers: the integer, "more than tried" beyond the grid."""
    if value is None or pd.isna(value):
        return None
    return "more than tried" if not np.isfinite(value) else f"{int(value):,}"


def readable(board: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """:func:`leaderboard` for a paper: every score as "0.32 [0.28, 0.36]" ("undefined" where the
    judge shares no example with the humans), the neighbour columns as text (missing where a
    judge has no next one). Columns: ``rank, judge,
    soft F1 [95% CI], hard F1 [95% CI], BACC [95% CI], next, examples needed, 95% interval,
    tell apart``."""

    def cell(m):
        return [
            "undefined" if pd.isna(e) else f"{e:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
            for e, lo, hi in zip(board[m], board[f"{m}_low"], board[f"{m}_high"])
        ]

    return pd.DataFrame(
        {
            "rank": board["rank"],
            "judge": board["judge"],
            "soft F1 [95% CI]": cell("f1_soft"),
            "hard F1 [95% CI]": cell("f1_hard"),
            "BACC [95% CI]": cell("bacc"),
            "next": board["next"],
            "examples needed": [_n(v) for v in board["n_needed"]],
            "95% interval": [
                f"{_n(lo)} to {_n(hi)}" if not pd.isna(lo) else None for lo, hi in zip(board["n_low"], board["n_high"])
            ],
            "tell apart": board["tell_apart"],
        }
    )
