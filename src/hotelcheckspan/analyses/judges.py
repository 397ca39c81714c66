"""LLM judges: every model campaign of a corpus scored against the humans and ranked.

An LLM judge is a model campaign; the judges are discovered in the loaded corpus
(:func:`hotelcheckspan.annotator_sets.judges`), so a campaign a user adds is scored wherever the
paper's five are. Two views:

``leaderboard(corpus)``
    one row per judge, ranked by span F1, soft against the human sets (averaged over
    them, as Table 6 averages its pairs), with span F1, hard and balanced accuracy (BACC) against the
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

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..annotator_sets import HUMAN_SETS, AnnotatorSet, group_labels, in_paper, is_paper_corpus, judges, parse_all
from ..categories import ANY
from ..corpora import KEY, Corpus
from ..corpora.frame import CLEAR_SHARE
from ..metrics import resampling
from . import dataset_level, example_level, sample_size, span_level

CEILING = "humans (ceiling)"  # the leaderboard's human-human row
LEVEL = 0.95  # the level of every interval of the leaderboard

LEADERBOARD_COLUMNS = [
    "rank",
    "judge",
    "in_paper",
    "examples",
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
    "bacc_reason",
    "majority_examples",
    "majority_errors",
    "first_ahead",
    "leads",
    "next",
    "n_needed",
    "n_low",
    "n_high",
    "tell_apart",
]


is_hotelcheckspan = is_paper_corpus


# the clear human majority outside HotelCheckSpan: at least this share of an example's human
# raters agree (on HotelCheckSpan's four sets that is 3-1 or 4-0, the paper's rule)
AGREE_SHARE = CLEAR_SHARE  # the one rule of every clear majority (corpora.frame)


@dataclass(frozen=True)
class Setting:
    """What a corpus' judges are compared with, decided once per corpus: whether it is
    HotelCheckSpan; the reference sets (the four of Tables 4-6 there, else every group of every
    human campaign that annotated an example some judge annotated); the raters whose clear
    majority is the truth for BACC and the rule (``min_agree``: None for the paper's 3-1 or 4-0,
    else :data:`AGREE_SHARE` of the sets that annotated the example); the examples (the stage-2
    examples on HotelCheckSpan, else those some judge annotated; None without judges)."""

    hotelcheckspan: bool
    refs: list[AnnotatorSet]
    raters: list[AnnotatorSet]
    min_agree: float | None
    examples: pd.DataFrame | None


def setting(corpus: Corpus) -> Setting:
    """:class:`Setting` of ``corpus``."""
    if is_hotelcheckspan(corpus):
        return Setting(True, list(HUMAN_SETS), list(HUMAN_SETS), None, dataset_level.stage2_examples(corpus))
    rec = corpus.records
    judged = rec.loc[rec["kind"] == "model", KEY].drop_duplicates().reset_index(drop=True)
    humans = rec[rec["kind"] == "human"]
    groups = humans[["campaign", "annotator_group", *KEY]]
    if len(judged):
        groups = groups.merge(judged, on=KEY)
    found = groups[["campaign", "annotator_group"]].drop_duplicates()
    order = {c: i for i, c in enumerate(dict.fromkeys(humans["campaign"]))}
    refs = sorted(
        (AnnotatorSet(c, int(g)) for c, g in zip(found["campaign"], found["annotator_group"]) if pd.notna(g)),
        key=lambda s: (order[s.campaign], s.group),
    )
    return Setting(False, refs, refs, AGREE_SHARE, judged if len(judged) else None)


def references(corpus: Corpus) -> list[AnnotatorSet]:
    """The human sets judges are scored against (:class:`Setting`)."""
    return setting(corpus).refs


def default_examples(corpus: Corpus) -> pd.DataFrame | None:
    """The examples judges are compared on (:class:`Setting`): the stage-2 examples on
    HotelCheckSpan (Tables 4-6), else the examples some judge annotated (None without judges), so
    that the humans' agreement with each other (the ceiling) is measured where the judges are."""
    return setting(corpus).examples


def majority_raters(corpus: Corpus, refs: list[AnnotatorSet]) -> tuple[list[AnnotatorSet], float | None]:
    """The raters whose clear majority is the truth for BACC, and the rule: on HotelCheckSpan the
    four sets, 3-1 or 4-0 (the paper's rule, ``None``); elsewhere every reference set, a
    majority being clear on an example where at least :data:`AGREE_SHARE` of the sets that
    annotated it agree (on an example only one set annotated, that set decides)."""
    if is_hotelcheckspan(corpus):
        return list(HUMAN_SETS), None
    return list(refs), AGREE_SHARE


def comparisons(corpus: Corpus, where: Setting | None = None) -> list[dict]:
    """Table 6's comparisons for this corpus: ``data/comparisons.yaml`` (with its rule adding
    every judge the paper does not have) on HotelCheckSpan; elsewhere "humans vs humans" (every
    pair of reference sets) and "humans vs <judge>" for every judge, as chapter 08 has them."""
    where = where if where is not None else setting(corpus)
    if where.hotelcheckspan:
        return span_level.load_comparisons(corpus=corpus)
    specs = [s.spec for s in where.refs]
    human = [{"name": "humans vs humans", "ref": [a], "hyp": specs[i + 1 :]} for i, a in enumerate(specs[:-1])]
    return human + [{"name": f"humans vs {j}", "ref": specs, "hyp": [j]} for j in judges(corpus)]


def _board_comparisons(names, refs, examples) -> list[dict]:
    """The leaderboard's span comparisons: every judge against every reference, and (the
    ceiling) every pair of references."""
    specs = [r.spec for r in refs]
    extra = {} if examples is None else {"examples": examples}
    comps = [{"name": j, "ref": specs, "hyp": [j], **extra} for j in names]
    return comps + [{"name": CEILING, "ref": [a], "hyp": specs[i + 1 :], **extra} for i, a in enumerate(specs[:-1])]


def _bacc_ceiling(all_marks: pd.DataFrame, raters: list[str], min_agree, n_boot: int, seed: int) -> dict:
    """Each human rater (``rater`` names of ``all_marks``, :func:`example_level.marks`) against the
    clear majority of the others (on any error), BACC averaged over raters, with a bootstrap
    interval (one set of resamples of the raters' examples for every rater). Undefined (with
    ``bacc_reason``) where fewer than two raters annotated a common example."""
    undefined = {"bacc": float("nan"), "bacc_low": float("nan"), "bacc_high": float("nan")}
    if len(raters) < (3 if min_agree is None else 2):
        return undefined | {"bacc_reason": "fewer human sets than a rater and a majority of others need"}
    marks = all_marks[all_marks["rater"].isin(raters)]
    frame = marks[KEY].drop_duplicates().sort_values(KEY)
    blocks = []
    for r in raters:
        maj = example_level.majority(example_level.votes(marks[marks["rater"] != r]), min_agree)
        mine = marks[marks["rater"] == r]
        merged = maj[KEY + [ANY]].merge(mine[KEY + [ANY]], on=KEY, suffixes=("_h", "_m"))
        merged = frame.merge(merged, on=KEY, how="left")
        known = merged[f"{ANY}_h"].notna().to_numpy()
        t = merged[f"{ANY}_h"].fillna(False).to_numpy(bool)
        p = merged[f"{ANY}_m"].fillna(False).to_numpy(bool)
        blocks.append(np.stack([t & p, t & ~p, ~t & p, ~t & ~p], axis=1) * known[:, None])
    counts = np.hstack(blocks).astype(float)
    compared = counts.reshape(len(counts), len(raters), 4).sum(axis=(0, 2)) > 0  # raters with a majority to meet
    if not compared.any():
        return undefined | {"bacc_reason": "no human set meets a clear majority of the others on any error"}

    def reduce(sums):  # BACC averaged over the raters compared (never a mean of an empty slice)
        per_rater = sample_size._confusion(sums, "bacc")[:, compared]
        known = ~np.isnan(per_rater)
        return np.where(known.any(axis=1), np.nansum(per_rater, axis=1) / np.maximum(known.sum(axis=1), 1), np.nan)

    estimate = float(reduce(counts.sum(axis=0, keepdims=True))[0])
    reps = reduce(resampling.matrix(frame, n_boot, seed) @ counts)
    low, high = resampling.interval(reps, LEVEL)
    return {"bacc": estimate, "bacc_low": low, "bacc_high": high, "bacc_reason": None}


def _tell_apart(result) -> str:
    """ "yes" where even the interval's upper end of the examples needed is within the corpus,
    "uncertain" where the estimate is but the upper end is not, "no" where the estimate is not."""
    n = result["examples"]
    if result["n_needed"] <= n:
        return "yes" if result["n_high"] <= n else "uncertain"
    return "no"


def _human_keys(records: pd.DataFrame, refs, examples) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The reference sets' records (their keys, one row per record) and the distinct examples
    they annotated within ``examples`` (None: all)."""
    keys = pd.concat([r.filter(records)[KEY] for r in refs], ignore_index=True)
    human = keys.drop_duplicates()
    if examples is not None:
        human = human.merge(examples[KEY].drop_duplicates(), on=KEY)
    return keys, human


def _judge_examples(records: pd.DataFrame, names, human: pd.DataFrame) -> dict[str, int]:
    """Per judge, the examples it shares with at least one reference set (``human``: the
    reference sets' examples, :func:`_human_keys`)."""
    return {j: len(records.loc[records["campaign"] == j, KEY].drop_duplicates().merge(human, on=KEY)) for j in names}


def _specs(sets: list[AnnotatorSet]) -> list[str]:
    """Annotator sets as readers write them, a campaign's groups all as letters or all as numbers
    (never "A ... Z, 26")."""
    labels = {}
    for campaign in dict.fromkeys(s.campaign for s in sets):
        groups = [s.group for s in sets if s.campaign == campaign and s.group is not None]
        labels |= {(campaign, g): lab for g, lab in zip(sorted(groups), group_labels(groups))}
    return [s.spec if s.group is None else f"{s.campaign}/{labels[(s.campaign, s.group)]}" for s in sets]


def describe(where: Setting, marks: pd.DataFrame, keys: tuple, ceiling: dict) -> dict:
    """What the judges were compared with, in words and numbers: every output carries it
    (``marks``: the raters' marks, :func:`example_level.marks`; ``keys``: the reference sets'
    records and examples, :func:`_human_keys`). The ceiling's ``examples`` are those at least two
    human sets annotated, the only ones a pair of them is compared on."""
    refs, raters, min_agree = where.refs, where.raters, where.min_agree
    campaigns = list(dict.fromkeys(r.campaign for r in refs))
    ref_records, human_ex = keys
    per_example = marks.loc[marks["rater"].isin([r.name for r in raters]), KEY].merge(human_ex, on=KEY).value_counts()
    rule = (
        "at least 3 of the 4 sets agree (the paper's 3-1 or 4-0)"
        if min_agree is None
        else f"at least {min_agree:.0%} of the sets that annotated the example agree (one set alone decides)"
    )
    share = CLEAR_SHARE if min_agree is None else min_agree
    others = len(raters) - 1  # a held-out set's majority is of the others: 3-0 of three for the paper's four
    need = int(np.ceil(share * others - 1e-9)) if isinstance(share, float) else int(share)
    bacc_rule = (
        None  # one human set: no others to meet
        if others < 1
        else "each human set against the other on any error"
        if others == 1
        else f"each human set against a clear majority of the others on any error: at least {share:.0%} of the "
        f"other sets that annotated the example, rounded up ({need}-0 of {others} where all {others} annotated it)"
        if isinstance(share, float)
        else f"each human set against at least {need} of the other sets on any error"
    )
    on_examples = ref_records.merge(human_ex, on=KEY)
    return {
        "references": _specs(refs),
        "human_campaigns": campaigns,
        "human_records": int(len(on_examples)),
        "examples": int(len(human_ex)),
        "examples_rule": "the stage-2 examples (Tables 4-6)"
        if where.hotelcheckspan
        else "the examples some judge annotated",
        "f1": {
            "metric": span_level.BOOK_METRIC,
            "convention": span_level.BOOK_CONVENTION,
            "definition": "character overlap as factgenie 1.2.1 counts it, span lengths summed over every "
            "example either side annotated (convention 'either'); soft: any category, hard: the "
            "category must match; P, R and F1 of the judge against each reference set on the examples "
            "both annotated, averaged over the reference sets (Table 6's averaging)",
        },
        "majority": {
            "raters": _specs(raters),
            "rule": rule,
            "single_rater_examples": int((per_example == 1).sum()),
        },
        "ceiling": {
            "defined": ceiling["pairs"] > 0,
            "pairs": int(ceiling["pairs"]),
            "examples": int((per_example >= 2).sum()),
            "bacc_rule": bacc_rule,
            "reason": None
            if ceiling["pairs"] > 0
            else (
                "one human set: no pair of humans to agree with each other"
                if len(refs) < 2
                else "no two human sets annotated a common example"
            ),
        },
    }


class Scored:
    """Every judge of a corpus scored against its humans once. The corpus is read here and only
    here: the span statistics of every pair (:func:`span_level.pairwise`) and every rater's
    example marks (:func:`example_level.marks`), once; Table 6's rows, the BACC of Table 5, the
    ceiling and the examples needed to tell judges apart are all computed from them."""

    def __init__(
        self,
        corpus: Corpus,
        names,
        examples=None,
        n_boot: int = 1000,
        seed: int = 0,
        table6_comparisons=None,
        where: Setting | None = None,
    ):
        where = where if where is not None else setting(corpus)
        if examples is not None:
            where = replace(where, examples=examples)
        self.where, self.names, self.examples = where, list(names), where.examples
        self.refs, self.raters, self.min_agree = where.refs, where.raters, where.min_agree
        self.n_boot, self.seed = n_boot, seed
        board_comps = _board_comparisons(self.names, self.refs, self.examples)
        extra = list(table6_comparisons or [])
        self.pairs, self.counts = span_level.pairwise(corpus, board_comps + extra)
        board = set(self.pairs.index[self.pairs["comparison"].isin({c["name"] for c in board_comps})])
        self.f1 = span_level.table6(*_subset(self.pairs, self.counts, board), n_boot=n_boot, seed=seed)
        self.table6 = (
            span_level.table6(
                *_subset(self.pairs, self.counts, set(self.pairs.index) - board), n_boot=n_boot, seed=seed
            )
            if extra
            else None
        )
        self.marks = example_level.marks(corpus, [*self.raters, *parse_all(self.names)], self.examples)
        rater_names = [r.name for r in self.raters]
        self.table5 = example_level.majority_alignment(
            self.marks, rater_names, self.names, n_boot=n_boot, seed=seed, min_agree=self.min_agree
        )
        ceiling_pairs = self.f1.loc[self.f1["comparison"] == CEILING, "pairs"]
        self.ceiling_pairs = int(ceiling_pairs.max()) if len(ceiling_pairs) else 0
        self.ceiling_bacc = _bacc_ceiling(self.marks, rater_names, self.min_agree, n_boot, seed)
        keys = _human_keys(corpus.records, self.refs, self.examples)
        self.examples_of = _judge_examples(corpus.records, self.names, keys[1])
        self.compared = describe(where, self.marks, keys, {"pairs": self.ceiling_pairs})

    def f1_table(self, match: str = "soft") -> sample_size.ScoreTable:
        """Every judge's span F1 against the reference sets on the comparison's examples, as a
        :class:`~hotelcheckspan.analyses.sample_size.ScoreTable` (the counts Table 6 used)."""
        rows = self.pairs[(self.pairs["match"] == match) & self.pairs["comparison"].isin(self.names)]
        systems = {j: rows.index[rows["comparison"] == j].tolist() for j in self.names}
        return sample_size.pairs_table(rows, self.counts, systems, self.examples, f"span F1, {match}")

    def versus_first(self, first: str, match: str = "soft") -> dict[str, float]:
        """Per judge, the share of paired bootstrap resamples (the intervals' weights, drawn on the
        examples of :meth:`f1_table`) in which ``first`` has the higher span F1; NaN where no
        resample has both scores. At :data:`~hotelcheckspan.analyses.sample_size.THRESHOLD` or more,
        the paired test tells the judge apart from ``first``."""
        table = self.f1_table(match)
        if first not in table.systems or table.n_examples == 0:
            return {}
        scores = table.resampled(resampling.matrix(table.examples, self.n_boot, self.seed))
        lead = scores[:, table.systems.index(first)]
        out = {}
        for j, name in enumerate(table.systems):
            both = np.isfinite(lead) & np.isfinite(scores[:, j])
            out[name] = float(np.mean(lead[both] > scores[both, j])) if both.any() else float("nan")
        return out

    def bacc_versus(self, better: str, worse: str) -> dict:
        """Two judges' BACC on the same resamples as their intervals
        (:func:`example_level.bacc_versus`): the share of resamples in which ``better`` is ahead,
        and how many of the clear-majority examples rest on one human set alone."""
        rater_names = [r.name for r in self.raters]
        return example_level.bacc_versus(
            self.marks, rater_names, better, worse, self.n_boot, self.seed, min_agree=self.min_agree
        )

    def board(self) -> pd.DataFrame:
        """The leaderboard's rows (see :func:`leaderboard`), without the neighbour columns."""
        f1 = self.f1.set_index(["comparison", "match"])
        bacc = self.table5[self.table5["label"] == ANY].set_index("model")
        hcs = self.where.hotelcheckspan
        rows = []
        for who in self.names:
            row = {"judge": who, "in_paper": hcs and in_paper(who), "examples": self.examples_of[who]}
            for match in ("soft", "hard"):
                r = f1.loc[(who, match)]
                row |= {f"f1_{match}": r["f1"], f"f1_{match}_low": r["f1_low"], f"f1_{match}_high": r["f1_high"]}
            row |= {m: bacc.loc[who, m] for m in ("bacc", "bacc_low", "bacc_high")}
            n_major = int(bacc.loc[who, "examples"])
            row |= {"majority_examples": n_major, "majority_errors": int(bacc.loc[who, "majority_errors"])}
            row["bacc_reason"] = (
                None
                if not pd.isna(row["bacc"])
                else "it shares no example with the human annotators"
                if self.examples_of[who] == 0
                else "no example it annotated has a clear human majority on any error "
                f"({self.compared['majority']['rule']})"
            )
            rows.append(row)
        if self.ceiling_pairs > 0:
            row = {"judge": CEILING, "in_paper": hcs, "examples": self.compared["examples"]}
            for match in ("soft", "hard"):
                r = f1.loc[(CEILING, match)]
                row |= {f"f1_{match}": r["f1"], f"f1_{match}_low": r["f1_low"], f"f1_{match}_high": r["f1_high"]}
            rows.append(row | self.ceiling_bacc)
        return pd.DataFrame(rows)


def _subset(pairs: pd.DataFrame, counts: pd.DataFrame, rows: set) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The pairs (and their per-example counts) of the given rows of ``pairs``."""
    keep = pairs.index.isin(sorted(rows))
    return pairs[keep], counts[counts["row"].isin(pairs.index[keep])]


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
    scored: Scored | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Every judge (default: every model campaign of the corpus) ranked by span F1, soft.

    Columns (:data:`LEADERBOARD_COLUMNS`): ``rank`` (by span F1, soft; the ceiling row has none),
    ``judge``, ``in_paper`` (one of the paper's five, on the paper's corpus), ``examples`` (the
    examples it shares with the human sets), ``f1_soft``, ``f1_hard`` (span F1 against
    each reference set, averaged over them) and ``bacc`` (balanced accuracy against the clear
    human majority on any error), each with ``_low``/``_high`` bootstrap bounds (at
    :data:`LEVEL`) and its own ``rank_*``; ``bacc_reason`` (why BACC is undefined, else None);
    ``majority_examples`` and ``majority_errors`` (the examples with a clear majority and how many
    of them it calls erroneous: the sample behind BACC); ``first_ahead`` (the share of paired
    bootstrap resamples in which the first judge by span F1, soft is ahead of this one) and ``leads``
    (not told apart from the first by that paired test: ``first_ahead`` below
    :data:`~hotelcheckspan.analyses.sample_size.THRESHOLD`; the first leads; who leads is never a
    chain of neighbours); then, for every judge but the last,
    ``next`` (the judge ranked below it), ``n_needed, n_low, n_high`` (examples needed to order
    the two by span F1, soft in 95% of test sets, and its interval; ``inf`` beyond eight times the
    corpus) and ``tell_apart`` ("yes", "uncertain", "no": whether this corpus' examples suffice).
    The last row, ``judge`` = :data:`CEILING`, is the humans against each other: F1 averaged over
    every pair of reference sets sharing examples, BACC of each rater against the others' clear
    majority; a corpus with no such pair (one human group) has no ceiling row.
    ``board.attrs["compared"]`` says what was compared (:func:`describe`);
    ``board.attrs["bacc_lead"]`` compares the two judges with the highest BACC on the same
    resamples as their intervals (:meth:`Scored.bacc_versus`; None with fewer than two judges with
    a BACC): whether the first is ahead in :data:`~hotelcheckspan.analyses.sample_size.THRESHOLD`
    of them is whether the corpus separates them.

    Every interval resamples the examples a judge is scored on with weights that depend on those
    examples and ``seed`` only (:func:`hotelcheckspan.metrics.resampling.matrix`): a judge's
    interval is the same whatever else is in the run and whatever its folder is called.
    ``distinguish=False`` leaves the neighbour columns empty (they take the most time);
    ``progress`` shows a progress bar of them on stderr.
    """
    names = judges(corpus) if names is None else list(names)
    if not names:
        raise ValueError("the corpus has no model campaign (no LLM judge) to rank")
    scored = scored if scored is not None else Scored(corpus, names, examples, n_boot, seed)
    out = scored.board()
    judged = out["judge"] != CEILING
    for measure in ("soft", "hard", "bacc"):
        col = measure if measure == "bacc" else f"f1_{measure}"
        out[f"rank_{measure}"] = out[col].where(judged).rank(ascending=False, method="min").astype("Int64")
    order = out[judged].sort_values(["f1_soft", "judge"], ascending=[False, True])
    out = pd.concat([order, out[~judged]], ignore_index=True)
    out.insert(0, "rank", out["rank_soft"])
    ahead = scored.versus_first(str(order["judge"].iloc[0])) if order["f1_soft"].notna().any() else {}
    out["first_ahead"] = [ahead.get(j, float("nan")) if j != CEILING else float("nan") for j in out["judge"]]
    out["leads"] = [
        None if j == CEILING or pd.isna(f) else bool(i == 0 or not (a >= sample_size.THRESHOLD))
        for i, (j, f, a) in enumerate(zip(out["judge"], out["f1_soft"], out["first_ahead"]))
    ]
    out.loc[0, "first_ahead"] = float("nan")  # the first against itself
    for col in ("next", "n_needed", "n_low", "n_high", "tell_apart"):
        out[col] = None
    ranked = out.loc[out["judge"] != CEILING, "judge"].tolist()
    if distinguish and len(ranked) > 1:
        plans = sample_size.plans(
            scored.f1_table("soft"),
            n_resamples=n_resamples,
            n_outer=n_outer,
            n_inner=n_inner,
            seed=seed,
            progress=progress,
        )
        by_pair = {frozenset((p["better"], p["worse"])): p for _, p in plans.iterrows()}
        for i, (a, b) in enumerate(zip(ranked, ranked[1:])):
            res = by_pair[frozenset((a, b))]
            out.loc[i, ["next", "n_needed", "n_low", "n_high"]] = [b, res["n_needed"], res["n_low"], res["n_high"]]
            out.loc[i, "tell_apart"] = _tell_apart(res)
    for col in ("n_needed", "n_low", "n_high"):
        out[col] = pd.to_numeric(out[col])
    out = out[LEADERBOARD_COLUMNS]
    out = out.astype({"examples": "Int64", "majority_examples": "Int64", "majority_errors": "Int64"})
    out.attrs["compared"] = scored.compared
    by_bacc = out[(out["judge"] != CEILING) & out["bacc"].notna()].sort_values(
        ["bacc", "judge"], ascending=[False, True]
    )
    lead = by_bacc["judge"].tolist()[:2]
    out.attrs["bacc_lead"] = scored.bacc_versus(*lead) if len(lead) == 2 else None
    return out


def _defined(value):
    """A scalar for a result dict: None where undefined (NaN), a float otherwise."""
    return None if value is None or pd.isna(value) else float(value)


def evaluate(corpus: Corpus, judge: str, *, n_boot: int = 1000, seed: int = 0, figures: dict | None = None) -> dict:
    """One judge's rows of the book's tables, computed as the chapters compute them.

    Returns a dict: ``judge``, ``in_paper``; ``compared`` (what it was compared with: the human
    sets, the examples, the F1 definition, the majority rule and whether there is a ceiling;
    :func:`describe`); ``table3`` (its row of Table 3 on HotelCheckSpan, paper columns NaN for a
    judge the paper does not have; elsewhere its row of :func:`dataset_level.campaign_table`);
    ``table5`` (:func:`example_level.models_vs_majority` rows of the judge: agreement with the
    clear human majority, BACC, kappa and recall per type and for any error, with intervals;
    computed with every judge, as chapter 03 does); ``bacc`` (the "any error" BACC: ``estimate,
    low, high`` (None where undefined) and ``reason`` (why it is undefined, else None));
    ``table6`` (the :func:`span_level.table6` rows of the comparisons whose hypothesis includes
    the judge); ``rank`` (``soft``, ``hard``, ``bacc``: its rank among the corpus' judges, None
    where its score is undefined; ``of``: how many) and ``leaderboard`` (:func:`leaderboard`
    without the neighbour columns; no ceiling row where the corpus has no pair of humans).
    """
    available = judges(corpus)
    if judge not in available:
        known = ", ".join(corpus.campaigns()) or "none"
        raise ValueError(f"no campaign {judge!r} in the corpus (campaigns: {known})")
    where = setting(corpus)
    hcs = where.hotelcheckspan
    if hcs:
        from ..reference import paper

        figures = figures if figures is not None else paper.figures()
        t3 = dataset_level.table3(corpus, figures, paper.LLM_CAMPAIGNS)
        row_name = next((p for p, c in paper.LLM_CAMPAIGNS.items() if c == judge), judge)
        table3 = t3[t3["campaign"] == row_name].reset_index(drop=True)
    else:
        t3 = dataset_level.campaign_table(corpus)
        table3 = t3[t3["campaign"] == judge].reset_index(drop=True)
    comps = comparisons(corpus, where)
    scored = Scored(corpus, available, None, n_boot, seed, table6_comparisons=comps, where=where)
    table5 = scored.table5[scored.table5["model"] == judge].reset_index(drop=True)
    mine = [c["name"] for c in comps if judge in {AnnotatorSet.parse(h).campaign for h in c["hyp"]}]
    table6 = scored.table6[scored.table6["comparison"].isin(mine)].reset_index(drop=True)
    board = leaderboard(corpus, available, n_boot=n_boot, seed=seed, distinguish=False, scored=scored)
    me = board[board["judge"] == judge].iloc[0]
    anyrow = table5[table5["label"] == ANY].iloc[0]
    return {
        "judge": judge,
        "in_paper": hcs and in_paper(judge),
        "compared": scored.compared | {"judge_examples": int(me["examples"])},
        "table3": table3,
        "table5": table5,
        "bacc": {
            "estimate": _defined(anyrow["bacc"]),
            "low": _defined(anyrow["bacc_low"]),
            "high": _defined(anyrow["bacc_high"]),
            "reason": me["bacc_reason"],
        },
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
    span F1, soft [95% CI], span F1, hard [95% CI], BACC [95% CI], next, examples needed, 95% interval,
    tell apart``."""

    def cell(m):
        return [
            "undefined"
            if pd.isna(e)
            else f"{e:.{digits}f} (no interval)"
            if pd.isna(lo) or pd.isna(hi)
            else f"{e:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
            for e, lo, hi in zip(board[m], board[f"{m}_low"], board[f"{m}_high"])
        ]

    return pd.DataFrame(
        {
            "rank": board["rank"],
            "judge": board["judge"],
            "span F1, soft [95% CI]": cell("f1_soft"),
            "span F1, hard [95% CI]": cell("f1_hard"),
            "BACC [95% CI]": cell("bacc"),
            "next": board["next"],
            "examples needed": [_n(v) for v in board["n_needed"]],
            "95% interval": [
                f"{_n(lo)} to {_n(hi)}" if not pd.isna(lo) else None for lo, hi in zip(board["n_low"], board["n_high"])
            ],
            "tell apart": board["tell_apart"],
        }
    )
