"""Readings of chapter 10 ("Evaluate your own judge"): the leaderboard's top judges, the human
ceiling, how many neighbours this corpus tells apart, and the same on the real corpus.

Every comparison is made at the precision the leaderboard shows (two decimals), so a sentence
never calls one judge best where the table shows a tie, nor an interval clear of the ceiling
where its shown bound equals it."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import fisher_exact

from ... import review
from ...analyses import judges, sample_size
from ...annotator_sets import AnnotatorSet, display_name
from ...corpora import KEY, slug_frame
from .. import labels, prose, tables
from . import Passage, simulated_only

DECIMALS = 2  # as tables.leaderboard shows the scores


def _ceiling(board: pd.DataFrame) -> pd.Series:
    return board.set_index("judge").loc[judges.CEILING]


def _ranked(board: pd.DataFrame) -> pd.DataFrame:
    return board[board["judge"] != judges.CEILING].reset_index(drop=True)


def _apart(board: pd.DataFrame) -> dict[str, int]:
    said = _ranked(board)["tell_apart"].dropna()
    return {w: int((said == w).sum()) for w in ("yes", "uncertain", "no")}


def _shown(v) -> float:
    return round(float(v), DECIMALS)


def _count(n: int) -> str:
    """A count as the object of a verb: "none" rather than "no"."""
    return "none" if n == 0 else prose.count_words(n)


def _placement(ranked: pd.DataFrame, ceiling: float) -> str:
    """Where the judges' soft-F1 intervals lie against the ceiling, as the table shows them:
    "the intervals of one judge lie wholly above it, two contain it and two lie wholly below it"."""
    low, high = ranked["f1_soft_low"].map(_shown), ranked["f1_soft_high"].map(_shown)
    above = int((low > ceiling).sum())
    below = int((high < ceiling).sum())
    within = len(ranked) - above - below
    said = [
        f"{prose.count_words(n)} {one if n == 1 else many}"
        for n, one, many in (
            (above, "lies wholly above it", "lie wholly above it"),
            (within, "contains it", "contain it"),
            (below, "lies wholly below it", "lie wholly below it"),
        )
        if n
    ]
    return f"of the judges' intervals, {prose.names(said)} (against the ceiling's estimate)"


def _leaders(ranked: pd.DataFrame) -> list[str]:
    """The judges that lead by span F1, soft: the first and every judge a paired bootstrap test does
    not tell apart from it (the leaderboard's ``leads``); never a chain of neighbours."""
    if "leads" not in ranked:  # a board without the paired test: the first alone
        return [str(ranked.iloc[0]["judge"])]
    leads = ranked["leads"].astype("boolean").fillna(False).astype(bool).to_numpy().copy()
    leads[0] = True
    return [str(j) for j in ranked.loc[leads, "judge"]]


def _apart_words(leaders: list[str]) -> str:
    """ "a paired bootstrap test tells neither of the others apart from gpt-4o" (two or more leaders)."""
    others = len(leaders) - 1
    if others == 1:
        return f"a paired bootstrap test does not tell {display_name(leaders[1])} apart from {display_name(leaders[0])}"
    return f"a paired bootstrap test tells {'neither' if others == 2 else 'none'} of the others apart from " + (
        display_name(leaders[0])
    )


def _lead_text(ranked: pd.DataFrame, leaders: list[str]) -> str:
    """ "gpt-4o leads with a span F1, soft, of 0.32 [0.28, 0.36]", or, where a paired test tells none of
    the others apart from the first, "gpt-4o, gpt-4o (LS) and gemma-3 lead (span F1, soft: ...): a paired
    bootstrap test tells neither of the others apart from gpt-4o"."""
    rows = ranked.set_index("judge")
    iv = {
        j: tables.interval(rows.loc[j, "f1_soft"], rows.loc[j, "f1_soft_low"], rows.loc[j, "f1_soft_high"])
        for j in leaders
    }
    if len(leaders) == 1:
        said = f"{display_name(leaders[0])} leads with a span F1, soft, of {iv[leaders[0]]}"
        first = ranked.iloc[0]
        ahead = ranked.iloc[1].get("first_ahead") if len(ranked) > 1 else None
        if ahead is not None and pd.notna(ahead) and first.get("tell_apart") in ("no", "uncertain"):  # two questions
            second = ranked.iloc[1]
            said += (
                f" (a paired bootstrap test puts it ahead of {display_name(second['judge'])} in "
                f"{second['first_ahead']:.1%} of this corpus' resamples; whether a new test set of this size orders "
                f"the two in {sample_size.THRESHOLD:.0%} of draws, the examples-needed question below, is answered "
                f"'{first['tell_apart']}')"
            )
        return said
    return (
        f"{prose.names([display_name(j) for j in leaders])} lead "
        f"(span F1, soft: {prose.names([iv[j] for j in leaders])}): "
        f"{_apart_words(leaders)}"
    )


def _bacc_lead(board: pd.DataFrame, best: str) -> dict | None:
    """The leaderboard's paired comparison of its two judges with the highest BACC
    (``board.attrs["bacc_lead"]``, :meth:`judges.Scored.bacc_versus`) where it is about ``best``."""
    lead = board.attrs.get("bacc_lead")
    usable = lead is not None and lead["better"] == best and np.isfinite(lead["share"])  # NaN: no resample has both
    return lead if usable else None


SETTLED = ("the same judge", "a different judge", "the same judge, tied with others")  # both picks settled
FEW = 10  # fewer texts than this in a class behind a balanced accuracy: the reading says how few


def _few(row) -> str:
    """ "; it rests on 4 error-free texts of 84" where a BACC rests on fewer than :data:`FEW`
    texts of one class of the clear majority, else "" (a rate on few texts says how few)."""
    n, errors = row.get("majority_examples"), row.get("majority_errors")
    if n is None or errors is None or pd.isna(n) or pd.isna(errors):
        return ""
    n, errors = int(n), int(errors)
    fewer, which = (n - errors, "error-free") if n - errors <= errors else (errors, "erroneous")
    if fewer >= FEW or n == 0:
        return ""
    return f"; it rests on {prose.count_words(fewer)} {which} text{'s' if fewer != 1 else ''} of {n:,}"


def _bacc_reading(ranked: pd.DataFrame, leaders: list[str], lead: dict | None = None) -> tuple[str, str]:
    """The judge(s) highest by BACC at the precision shown, whether the corpus separates the first
    from the next (``lead``: the paired resamples, :func:`_bacc_lead`) and whether it is the top
    judge by span F1, soft: (sentence, what the Summary says of the two measures' picks). "Best" and
    "the same/a different judge" are said only where both picks are settled: the BACC leader ahead
    in :data:`~hotelcheckspan.analyses.sample_size.THRESHOLD` of the paired resamples, the soft-F1
    leader told apart from the next one down."""
    shown = ranked["bacc"].map(_shown)
    if shown.isna().all():
        return (
            "No judge has a balanced accuracy here: no text a judge annotated has a clear human majority.",
            "none (no judge has one)",
        )
    top = leaders[0]
    f1_open = (
        f"by span F1 {prose.names([display_name(j) for j in leaders])} are not told apart" if len(leaders) > 1 else ""
    )
    best = shown.max()
    tied = ranked.loc[shown == best]
    if len(tied) > 1:
        who = prose.names([display_name(j) for j in tied["judge"]])
        among = (
            "the leader by span F1 among them" if top in set(tied["judge"]) else "the leader by span F1 not among them"
        )
        same = "the same judge, tied with others" if top in set(tied["judge"]) else "a different judge"
        text = (
            f"By balanced accuracy against the majority {prose.count_words(len(tied))} judges tie at "
            f"{tables.number(best, DECIMALS)} ({who}; {among}): the clear-majority examples cannot separate them."
        )
        return text, same
    row = tied.iloc[0]
    name, iv = display_name(row["judge"]), tables.interval(row["bacc"], row["bacc_low"], row["bacc_high"])
    iv += _few(row)
    alone = int(ranked["bacc"].notna().sum()) == 1
    settled = alone or (lead is not None and lead["share"] >= sample_size.THRESHOLD)
    single = ""
    if lead is not None and lead["single_rater"]:
        single = (
            f" {lead['single_rater']:,} of the {lead['examples']:,} examples with a clear majority rest on a "
            "single human set, whose mark alone is the majority."
        )
    if lead is None and not alone:
        return (
            f"By balanced accuracy against the majority {name} is highest ({iv}); this board does not say whether "
            "the corpus separates it from the next.",
            f"{name} is highest by balanced accuracy, not compared with the next",
        )
    if not settled:
        other = ranked.set_index("judge").loc[lead["worse"]]
        other_iv = tables.interval(other["bacc"], other["bacc_low"], other["bacc_high"])
        ahead = f"{lead['share']:.0%}"
        text = (
            f"By balanced accuracy against the majority {name} is highest ({iv}), not separable from "
            f"{display_name(lead['worse'])} ({other_iv}): it is ahead in {ahead} of the paired resamples, short of "
            f"the {sample_size.THRESHOLD:.0%} that would separate them.{single}"
        )
        return text, f"{name} is highest by balanced accuracy, not separable from {display_name(lead['worse'])}"
    ahead = "" if alone else f"; ahead of {display_name(lead['worse'])} in {lead['share']:.0%} of the paired resamples"
    if f1_open:
        text = (
            f"By balanced accuracy against the majority {name} is best ({iv}{ahead}); as {f1_open}, this corpus "
            f"does not say whether the two measures pick the same judge.{single}"
        )
        return text, f"{name} is best by balanced accuracy"
    same = "the same judge" if row["judge"] == top else "a different judge"
    text = (
        f"By balanced accuracy against the majority {name} is best ({iv}{ahead}), {same} "
        f"{'as' if same == 'the same judge' else 'from the one'} by span F1.{single}"
    )
    return text, same


def _bacc_ceiling_note(ranked: pd.DataFrame, ceiling: pd.Series) -> str:
    """Where a judge's BACC is above the ceiling's as shown: the two rest on different references
    (a judge meets the human majority only where it is clear, a set that disagrees dropping out;
    the ceiling meets each human set against the others on every text they annotated), so no
    judge is above human agreement by it."""
    if pd.isna(ceiling.get("bacc")):
        return ""
    above = ranked[ranked["bacc"].map(_shown) > _shown(ceiling["bacc"])]
    if above.empty:
        return ""
    who = prose.names([display_name(j) for j in above["judge"]])
    verb = "is" if len(above) == 1 else "are"
    return (
        f" By BACC {who} {verb} above the ceiling's {tables.number(ceiling['bacc'], DECIMALS)} as shown, but the two "
        "rest on different references: a judge meets the majority of all the human sets where it is clear (a text "
        "they split on drops out), the ceiling each human set against the others alone (the rule in the table of "
        "what was compared); that is no judge above human agreement."
    )


def _board_readings(board: pd.DataFrame, prefix: str, ceiling_required: bool = True) -> dict[str, str]:
    """The readings shared by both corpora, names prefixed (``""`` or ``"real_"``). A board without
    a ceiling row (no two human sets on a common example) is read without it where
    ``ceiling_required`` is False (the real corpus, which may be any factgenie corpus); the
    stand-in's always has one."""
    has_ceiling = judges.CEILING in set(board["judge"])
    if ceiling_required and not has_ceiling:
        raise ValueError(f"chapter 10 reads a leaderboard against its ceiling; this one has none: {board.attrs}")
    ranked = _ranked(board)
    top = ranked.iloc[0]
    leaders = _leaders(ranked)
    apart = _apart(board)
    n_pairs = max(0, len(ranked) - 1)
    shown_bacc = ranked["bacc"].map(_shown)
    best_bacc = str(ranked.loc[shown_bacc.idxmax(), "judge"]) if shown_bacc.notna().any() else ""
    bacc_text, same = _bacc_reading(ranked, leaders, _bacc_lead(board, best_bacc))
    lead = _lead_text(ranked, leaders)
    out = {
        f"{prefix}n_judges": prose.count_words(len(ranked)),
        f"{prefix}top_judge": display_name(str(top["judge"])),
        f"{prefix}top_soft": tables.interval(top["f1_soft"], top["f1_soft_low"], top["f1_soft_high"]),
        f"{prefix}lead": lead,
        f"{prefix}bacc_reading": bacc_text,
        f"{prefix}same_best": same,
        f"{prefix}n_pairs": prose.count_words(n_pairs),
        f"{prefix}n_apart": _count(apart["yes"]),
        f"{prefix}n_uncertain": _count(apart["uncertain"]),
        f"{prefix}n_not_apart": _count(apart["no"]),
    }
    if len(leaders) == 1:
        out[f"{prefix}rank_said"] = f"{out[f'{prefix}top_judge']} ranks first of {out[f'{prefix}n_judges']}"
    else:
        out[f"{prefix}rank_said"] = (
            f"{prose.names([display_name(j) for j in leaders])} lead the {out[f'{prefix}n_judges']}, "
            f"{_apart_words(leaders)},"
        )
    if n_pairs:
        out[f"{prefix}neighbours_said"] = (
            f"Of its {out[f'{prefix}n_pairs']} neighbouring pairs, its texts order {out[f'{prefix}n_apart']} with "
            f"confidence, {out[f'{prefix}n_uncertain']} with an uncertain margin and {out[f'{prefix}n_not_apart']} "
            "not at all."
        )
    else:
        out[f"{prefix}neighbours_said"] = "With one judge there is no neighbouring pair to order."
    first = "" if len(leaders) == 1 else "the first "
    if has_ceiling:
        out[f"{prefix}bacc_reading"] += _bacc_ceiling_note(ranked, _ceiling(board))
        ceiling = _ceiling(board)
        out |= {
            f"{prefix}ceiling_soft": tables.interval(
                ceiling["f1_soft"], ceiling["f1_soft_low"], ceiling["f1_soft_high"]
            ),
            f"{prefix}ceiling_hard": tables.interval(
                ceiling["f1_hard"], ceiling["f1_hard_low"], ceiling["f1_hard_high"]
            ),
            f"{prefix}top_vs_ceiling": prose.compare(
                top["f1_soft"], ceiling["f1_soft"], DECIMALS, "above", "below", "level with"
            ),
            f"{prefix}placement": _placement(ranked, _shown(ceiling["f1_soft"])),
        }
        out[f"{prefix}ceiling_said"] = (
            f"{out[f'{prefix}top_vs_ceiling']} the human sets' agreement with each other "
            f"({out[f'{prefix}ceiling_soft']}; hard {out[f'{prefix}ceiling_hard']}); {out[f'{prefix}placement']}"
        )
        vs_ceiling = f"{first}{out[f'{prefix}top_vs_ceiling']} the human ceiling ({out[f'{prefix}ceiling_soft']})"
        out[f"{prefix}lead_said"] = (
            f"{lead}{', ' if len(leaders) == 1 else '; the first is '}{out[f'{prefix}ceiling_said']}."
        )
    else:
        reason = board.attrs.get("compared", {}).get("ceiling", {}).get("reason") or "no pair of human sets"
        out[f"{prefix}ceiling_said"] = f"with no human ceiling to read it against ({reason})"
        vs_ceiling = f"with no human ceiling ({reason})"
        out[f"{prefix}lead_said"] = f"{lead}, {out[f'{prefix}ceiling_said']}."
    neighbours = (
        f", and of its {out[f'{prefix}n_pairs']} neighbouring pairs the corpus orders {out[f'{prefix}n_apart']} with "
        "confidence"
        if n_pairs
        else ""
    )
    leaders_said = (
        f"{out[f'{prefix}top_judge']} leads by span F1, soft"
        if len(leaders) == 1
        else f"{prose.names([display_name(j) for j in leaders])} lead by span F1, soft, {_apart_words(leaders)}"
    )
    if same in SETTLED or same.startswith("none"):
        by_bacc, best_summary = f"by BACC the best is {same}", f"here they pick {same}"
    else:
        f1_open = (
            f", and by span F1 {prose.names([display_name(j) for j in leaders])} are not told apart"
            if len(leaders) > 1
            else ""
        )
        by_bacc, best_summary = same, f"here this corpus does not settle it: {same}{f1_open}"
    out[f"{prefix}best_summary"] = best_summary
    out[f"{prefix}summary"] = f"{leaders_said}, {vs_ceiling}; {by_bacc}{neighbours}."
    return out


def table6_note(corpus, result: dict) -> str:
    """What the judge's Table 6 rows (``evaluate_judge(...)["table6"]``) compare. A row may pool
    the judge with another campaign (the book's Human - LLM (O3-Mini) row holds both o3-mini
    prompts): that is the book's choice, since the paper's Table 6 has one row per model and does
    not say how it combined the prompts, and the reader is told so."""
    comps = {c["name"]: c for c in judges.comparisons(corpus)}
    judge = result["judge"]
    notes = []
    for name in dict.fromkeys(result["table6"]["comparison"]):
        hyps = list(dict.fromkeys(AnnotatorSet.parse(h).campaign for h in comps[name]["hyp"]))
        refs = len(comps[name]["ref"])
        shown = display_name(name)
        if len(hyps) > 1:
            notes.append(
                f"{shown} pools {prose.names([display_name(h) for h in hyps])}, so its pairs are the "
                f"{prose.count_words(refs)} human sets against each of them; pooling is the book's choice, as the "
                "paper's Table 6 has one row per model and does not say how it combined a model's prompts"
            )
        else:
            notes.append(f"{shown} sets the {prose.count_words(refs)} human sets against {display_name(judge)} alone")
    return "; ".join(notes) + "."


PLANNED = ("gpt-4o", "gpt-4o-ls")  # the pair chapter 09's planning example asks about
RESEEDS = 6  # seeds 0 (the leaderboard's) to 5 of the with-replacement draws behind an answer


def answer_grid(n_examples: int) -> np.ndarray:
    """The sizes ``sample_size.examples_needed`` tries by default (its answer is one of them)."""
    return np.unique(np.geomspace(10, sample_size.MAX_FACTOR * n_examples, 40).astype(int))


def reseeded_curves(corpus, pair=PLANNED, seeds: int = RESEEDS, n_resamples: int = 1000) -> pd.DataFrame:
    """The share of test sets that order ``pair`` by span F1, soft as the full corpus does (the
    leaderboard's neighbour question), drawn with seeds 0 to ``seeds`` - 1 on the default grid of
    sizes (:func:`sample_size.stability`, with replacement): how far the curve, and the answer read
    off it, move with the random test sets alone. Columns: ``seed`` and
    :func:`sample_size.stability`'s (``n, same_order`` and ``low, high``, the Wilson interval of
    ``n_resamples`` draws); empty where the corpus lacks a judge of ``pair``."""
    if not set(pair) <= set(judges.judges(corpus)):
        return pd.DataFrame(columns=["seed", "n", "same_order", "low", "high"])
    table = sample_size.judges_f1_table(
        corpus, list(pair), judges.references(corpus), judges.default_examples(corpus), match="soft"
    )
    sizes = answer_grid(table.n_examples)
    curves = [
        sample_size.stability(table, sizes, n_resamples, seed, replace=True).assign(seed=seed) for seed in range(seeds)
    ]
    return pd.concat(curves, ignore_index=True)


def answers_of(curves: pd.DataFrame) -> pd.DataFrame:
    """Per seed of :func:`reseeded_curves`, the examples needed (``smallest_stable``): columns
    ``seed, n_needed``."""
    rows = [
        {"seed": seed, "n_needed": float(sample_size.smallest_stable(c).iloc[0]["n_stable"])}
        for seed, c in curves.groupby("seed", sort=True)
    ]
    return pd.DataFrame(rows, columns=["seed", "n_needed"])


def reseeded_answers(corpus, pair=PLANNED, seeds: int = RESEEDS, n_resamples: int = 1000) -> pd.DataFrame:
    """The examples needed to order ``pair`` with seeds 0 to ``seeds`` - 1 (:func:`answers_of`
    :func:`reseeded_curves`). Columns: ``seed, n_needed``."""
    return answers_of(reseeded_curves(corpus, pair, seeds, n_resamples))


def _bound(v) -> str:
    """An examples-needed figure as the neighbours table shows it."""
    return "more than tried" if not np.isfinite(float(v)) else f"{int(v):,}"


def _band(curves: pd.DataFrame) -> str:
    """Where the share sits within Monte Carlo error of the threshold: the sizes at which, with at
    least one seed, the Wilson interval of the share holds it; with the seeds' range of the share
    at the band's two ends. Empty where no size does."""
    t = sample_size.THRESHOLD
    near = curves[(curves["low"] <= t) & (curves["high"] >= t)]
    if near.empty:
        return ""
    lo, hi = int(near["n"].min()), int(near["n"].max())
    spread = curves.groupby("n")["same_order"].agg(["min", "max"])

    def at(n):
        a, b = spread.loc[n, "min"], spread.loc[n, "max"]
        return f"{a:.3f} at {n:,}" if round(a, 3) == round(b, 3) else f"{a:.3f} to {b:.3f} at {n:,}"

    seeds = prose.count_words(curves["seed"].nunique())
    where = f"at {lo:,} examples" if lo == hi else f"between about {lo:,} and {hi:,} examples"
    ends = at(lo) if lo == hi else f"{at(lo)} and {at(hi)}"
    return (
        f"{where} the share of test sets in the same order is within Monte Carlo error of {t:.0%} (with at least "
        f"one of the {seeds} seeds, the Wilson interval of its share holds {t:.0%}; over the seeds the share is "
        f"{ends})"
    )


def grid_note(board: pd.DataFrame, curves: pd.DataFrame, n_resamples: int = 1000) -> str:
    """Why chapter 09 gives the planned pair other numbers than this leaderboard (``curves``:
    :func:`reseeded_curves`): an answer is the first size of the grid tried at which the share
    clears the threshold, and near the threshold the share sits within Monte Carlo error of it
    over a band of sizes, so other draws or another grid can answer with another size of that
    band, whether or not these seeds moved the answer. Empty where the pair is not in the corpus."""
    if curves.empty:
        return ""
    answers = answers_of(curves)
    got = sorted({int(v) for v in answers["n_needed"] if np.isfinite(v)})
    grid = answer_grid(int(board["examples"].dropna().iloc[0]))
    excerpt = ""
    if got:
        lo, hi = np.searchsorted(grid, got[0]), np.searchsorted(grid, got[-1])
        near = grid[max(0, lo - 1) : hi + 2]
        excerpt = ", ".join(f"{int(g):,}" for g in near)
    said = prose.names([f"{v:,}" for v in got]).replace(" and ", " or ") if got else "more than the grid holds"
    steps = int(hi - lo) if got else 0
    seeds = prose.count_words(len(answers))
    if steps == 0:
        answered = f"drawn with {seeds} seeds this question is answered {said} each time"
    else:
        apart = (
            "sizes next to each other on that grid"
            if steps == len(got) - 1
            else f"sizes up to {prose.count_words(steps)} steps apart on that grid"
        )
        answered = (
            f"drawn with {seeds} seeds this question is answered {said}: {apart}, as near "
            f"{sample_size.THRESHOLD:.0%} the share rises so slowly that the draws alone move the answer"
        )
    band = _band(curves)
    why = (
        f". Yet {band}, so which size first clears {sample_size.THRESHOLD:.0%} depends on the sizes tried and on "
        "the draws: that is why chapter 09's coarser grid can answer with another size"
        if band
        else ""
    )
    row = board[board["judge"].isin(PLANNED) & board["next"].isin(PLANNED)]
    here = ""
    if len(row):
        r = row.iloc[0]
        here = (
            f" The leaderboard's seed gives {_bound(r['n_needed'])}; its interval, {_bound(r['n_low'])} to "
            f"{_bound(r['n_high'])}, is what the number is worth."
        )
    return (
        f"an answer is the first size of a grid of sizes (here …, {excerpt}, …) from which the order holds in "
        f"{sample_size.THRESHOLD:.0%} of {n_resamples:,} test sets, and {answered}{why}.{here}"
    )


def _simulation() -> str:
    """What the stand-in's judges were built from, labels by rule (the provenance file)."""
    counts = tables.figure_status("table3_llm_campaigns/gpt-4o/total")
    majority = tables.figure_status("llm_majority_alignment")
    widening = tables.figure_status("table3_llm_campaigns/gpt-4o/avg_len")
    f1 = tables.figure_status("table6_span_level/Human - LLM (GPT-4o)/F1_S")
    return (
        f"On the simulated stand-in the judges' span counts and flagged records are *{counts}* from the "
        f"paper's Tables 3 and 4; their agreement with the human majority is *{majority}* (the generator was "
        "changed after gpt-4o's agreement came out far from the paper's; see the data sheet), and BACC, which the "
        f"paper does not report, moved with that change, so it is *{majority}* too. Their span F1 against the "
        f"humans is *{f1}*: it follows partly from two hand choices that act on it directly: each campaign's "
        f"span widening, *{widening}* (set by hand in the order of Table 3's span lengths, `annotators.LLM_WIDENING`), "
        f"and the flagged records, *{majority}* (re-set after looking at the majority agreement). So this "
        "ranking and its distance to the ceiling show how "
        "the leaderboard reads on simulated judges, not how the paper's models compare on the real annotations."
    )


def _review_reading(marks: pd.DataFrame) -> str:
    """Per corpus, the judge whose spans most often cover a whole sentence against the humans'
    share, at the precision the table shows (one decimal of a percentage), with its span counts.
    "Most often" only where a one-sided Fisher exact test of the leader's share against the next
    judge's rejects at 1 - :data:`judges.LEVEL`; else the largest share, with the next judge's
    beside it."""
    said = []
    for name, rows in marks.groupby("corpus", sort=False):
        humans = rows[rows["judge"] == review.marks.HUMANS].iloc[0]
        llms = rows[(rows["judge"] != review.marks.HUMANS) & (rows["spans_with_text"] > 0)]
        shown = (llms["whole_sentence_share"] * 100).round(1)
        hits = (llms["whole_sentence_share"] * llms["spans_with_text"]).round().astype(int)
        top = llms.loc[shown == shown.max()]
        names = list(top["judge_name"])
        human = round(float(humans["whole_sentence_share"]) * 100, 1)
        above = int((shown > human).sum())
        counts = prose.names([f"{hits[i]:,} of {int(llms.loc[i, 'spans_with_text']):,}" for i in top.index])
        share = f"{tables.number(shown.max(), 1)}% of {'its' if len(top) == 1 else 'their'} spans, {counts}"
        rest = llms.drop(index=top.index)
        p = float("nan")
        if len(top) == 1 and not rest.empty:  # the leader against the next: one-sided Fisher exact test
            nxt = rest.loc[rest["whole_sentence_share"].idxmax()]
            k1, n1 = int(hits[top.index[0]]), int(top["spans_with_text"].iloc[0])
            k2, n2 = int(hits[nxt.name]), int(nxt["spans_with_text"])
            p = float(fisher_exact([[k1, n1 - k1], [k2, n2 - k2]], alternative="greater").pvalue)
        clear = len(top) == 1 and (rest.empty or p < 1 - judges.LEVEL)
        tail = (
            f"the humans {tables.number(human, 1)}%; {prose.count_words(above)} of {prose.count_words(len(llms))} "
            "judges above the humans"
        )
        if clear or len(top) > 1:
            verb = "marks" if len(top) == 1 else "mark"
            said.append(
                f"on the {name} corpus {prose.names(names)} {verb} whole sentences most often ({share}; {tail})"
            )
        else:
            nxt = rest.loc[rest["whole_sentence_share"].idxmax()]
            k, n = int(hits[nxt.name]), int(nxt["spans_with_text"])
            pct = tables.number(nxt["whole_sentence_share"] * 100, 1)
            said.append(
                f"on the {name} corpus {names[0]} has the largest share of whole-sentence spans ({share}; {tail}), "
                f"too few spans to set it apart from {nxt['judge_name']} ({pct}%, {k:,} of {n:,}): "
                f"a one-sided Fisher exact test of the two shares gives p = {tables.number(p, 2)}, above "
                f"{tables.number(1 - judges.LEVEL, 2)} (and spans of one text are not independent draws)"
            )
    hallucinated = marks.loc[marks["judge"] != review.marks.HUMANS, "hallucination_share"]
    none = "no judge's span is a hallucination" if (hallucinated.fillna(0) == 0).all() else ""
    text = "; ".join(said)
    return text[0].upper() + text[1:] + "." + (f" In these corpora {none}." if none else "")


def paper_length_note() -> str:
    """What Table 3's span lengths allow of Section 5's "often highlighting entire sentences", from
    the paper's figures. A summary averages one sentence (Section 3.3), so a sentence is taken to be a
    whole summary, at least the shortest summary's words; a span has at least the shortest span's.
    A share s of whole-sentence spans then needs a mean length of at least
    s × sentence + (1 − s) × shortest span, so s is at most
    (mean − shortest span) / (sentence − shortest span), the mean at the most its rounding allows:
    at the shortest summary (the bound) and at the mean one (a typical value), as chapter 05 gives
    it (:func:`..llm_annotators.whole_sentence_bound`)."""
    from .llm_annotators import whole_sentence_bound

    value = tables.paper_value
    ls, humans = value("table3_llm_campaigns/gpt-4o (LS)/avg_len"), value("dataset/span_words/mean")
    w = whole_sentence_bound()
    longest = tables.number(value("dataset/summary_words/max"))
    return (
        f"Table 3 gives gpt-4o spans of {w['gpt_words']} words on average (gpt-4o (LS) {ls}) against the humans' "
        f"{humans} (Section 4.4). A summary averages one sentence of {w['summary_words_mean']} words "
        f"({w['summary_words_min']} to {longest}); taking a sentence to be a whole summary and a span to have at "
        f"least {w['shortest_span_words']} word, and gpt-4o's {w['gpt_words']} at the most its rounding allows "
        f"({w['gpt_words_most']}), at most ({w['gpt_words_most']} − {w['shortest_span_words']})/"
        f"({w['summary_words_min']} − {w['shortest_span_words']}) = {w['whole_bound_max']} of gpt-4o's spans can "
        f"be whole sentences, and up to {w['whole_bound_mean']} at a sentence of {w['summary_words_mean']} words "
        f"(taken at {w['summary_words_mean_low']}, the least its rounding allows): "
        'a tension with "often", not a contradiction.'
    )


def _review_simulation(marks: pd.DataFrame | None = None) -> str:
    """What the stand-in's whole-sentence shares and span lengths rest on, and where its lengths
    invert the paper's Table 3 against the humans (``marks``: :func:`review.marks_by_corpus`)."""
    widening = tables.figure_status("table3_llm_campaigns/gpt-4o/avg_len")
    base = (
        "On the simulated stand-in the judges' span boundaries were widened by hand, campaign by campaign, "
        f"in the order of the paper's Table 3 lengths (*{widening}*; "
        "see the data sheet), so its whole-sentence shares and span lengths follow that setting; only the real "
        "corpora's rows are evidence."
    )
    if marks is None:
        return base
    from ...reference import paper

    humans = paper.printed("dataset/span_words/mean")
    stand_in = marks[(marks["corpus"] == "stand-in") & (marks["judge"] != review.marks.HUMANS)]
    missed, undecided = [], []
    for row in stand_in.itertuples():
        name = next((p for p, c in paper.LLM_CAMPAIGNS.items() if c == row.judge), None)
        if name is None or pd.isna(row.words_vs_humans):
            continue
        # a ratio of two rounded figures: its range over their rounding, not a second decimal it lacks
        length = paper.printed(f"table3_llm_campaigns/{name}/avg_len")
        low, high = length.low / humans.high, length.high / humans.low
        ours = round(float(row.words_vs_humans), 2)
        if low < 1 < high:
            undecided.append(display_name(row.judge))
        elif ours != 1 and (ours > 1) != (low > 1):
            missed.append(
                f"{display_name(row.judge)}'s spans are {tables.number(ours, 2)}× the humans' here against "
                f"{tables.number(low, 2)}× to {tables.number(high, 2)}× in the paper"
            )
    said = base
    if missed:
        said += (
            " The setting misses the paper where it reverses a judge against the humans at any rounding of the "
            f"paper's lengths: {'; '.join(missed)} (Table 3's length over the humans' {humans.value:g} words, "
            "each over its rounding)."
        )
    if undecided:
        said += (
            f" Against {prose.names(undecided)} the paper's lengths decide no order: within their rounding "
            f"Table 3's length may lie on either side of the humans' {humans.value:g}."
        )
    return said


def _built_in(corpus, board: pd.DataFrame) -> str:
    """On the stand-in, the neighbouring pairs told apart whose lower judge marks almost nothing
    (fewer spans than one per hundred examples compared): their order follows from span counts the
    generator sets (Tables 3 and 4), not from where the spans fall. Empty elsewhere."""
    if not getattr(corpus, "simulated", False):
        return ""
    ranked = _ranked(board)
    told = ranked[ranked["tell_apart"] == "yes"]
    examples = judges.default_examples(corpus)
    spans = corpus.spans[corpus.spans["kind"] == "model"]
    if examples is not None:
        spans = spans.merge(examples[KEY].drop_duplicates(), on=KEY)
    per = spans.groupby("campaign").size()
    n = len(examples) if examples is not None else len(corpus.examples)
    said = []
    for row in told.itertuples():
        a, b = int(per.get(row.judge, 0)), int(per.get(row.next, 0))
        if b * 100 < n:
            said.append(
                f"{display_name(row.judge)} > {display_name(row.next)} sets {a:,} spans against {b:,} on the {n:,} "
                "examples"
            )
    if not said:
        return ""
    status = tables.figure_status("table3_llm_campaigns/gpt-4o/total")
    return (
        f"Of the pairs it orders, {prose.names(said)}: span counts *{status}* from the paper's Tables 3 and 4, so "
        f"{'that order is' if len(said) == 1 else 'those orders are'} put in by the generator (a judge that marks "
        "almost nothing cannot match the humans' spans)."
    )


def bases(corpus, real=None) -> dict[str, Passage]:
    """What each Summary bullet of chapter 10 rests on (:func:`hotelcheckspan.book.labels.basis`):
    the judges' agreement on this corpus, and on the real test split. The judges' span F1 is keyed
    to the provenance file's Table 6 entry as it stands, beside the hand-set widening that shapes
    it (a generator constant chosen against Table 3's lengths); the humans' agreement, the
    ceiling, averages every pair of the four sets, so it is keyed to Table 6's three human rows."""
    judges_f1 = ("the judges' span F1", "table6_span_level/Human - LLM (GPT-4o)/F1_S")
    widening = ("their span widening", "annotators.LLM_WIDENING")
    humans = (
        ("the humans' agreement, from Table 6's stage-1 row", "table6_span_level/Group A - Group B (Stage 1)/F1_S"),
        ("stage-2 row", "table6_span_level/Group A - Group B (Stage 2)/F1_S"),
        ("cross-stage row", "table6_span_level/Stage 1 - Stage 2/F1_S"),
    )
    out = {
        "board_basis": labels.basis(corpus, judges_f1, widening, *humans),
        "best_basis": labels.basis(corpus, judges_f1, widening, ("balanced accuracy", "llm_majority_alignment")),
        "neighbours_basis": labels.basis(
            corpus, judges_f1, widening, ("their span counts", "table3_llm_campaigns/gpt-4o/total")
        ),
    }
    if real is not None:
        from .. import real_shape

        which = "the d2t test split" if real_shape.bundled(real) == "test" else real_shape.name(real)
        out |= {"real_basis": labels.basis(real, name=f"real annotations ({which})")}
    return out


def readings(
    corpus,
    board: pd.DataFrame,
    real_board: pd.DataFrame | None = None,
    result: dict | None = None,
    marks: pd.DataFrame | None = None,
    real=None,
    curves: pd.DataFrame | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 10's prose needs, from the leaderboards the chapter shows (``board``
    on ``corpus``; ``real_board`` on the real corpus), the ``evaluate_judge`` result it shows the
    Table 6 rows of, the automatic review marks (``review.marks_by_corpus``) and the planned
    pair's stability curves with other seeds (:func:`reseeded_curves`)."""
    out: dict[str, str | Passage] = _board_readings(board, "") | bases(corpus, real)
    out["grid_note"] = grid_note(board, curves) if curves is not None else ""
    out["built_in"] = Passage(_built_in(corpus, board))
    out["paper_length_note"] = paper_length_note()
    out["n_examples"] = tables.number(
        len(judges.default_examples(corpus)) if judges.is_hotelcheckspan(corpus) else len(corpus.examples)
    )
    out["n_references"] = prose.count_words(len(judges.references(corpus)))
    out["level"] = f"{judges.LEVEL:.0%}"
    out["threshold"] = f"{sample_size.THRESHOLD:.0%}"
    out["simulated_note"] = simulated_only(corpus, _simulation())
    out["table6_note"] = table6_note(corpus, result) if result is not None else ""
    if real_board is not None:
        out |= _board_readings(real_board, "real_", ceiling_required=False)
        c = real_board.attrs["compared"]
        out["real_n_examples"] = f"{c['examples']:,}"
        out["real_n_judges_words"] = prose.count_words(len(_ranked(real_board)))
    if real is not None:
        out |= _real_corpus(real, out)
    if marks is not None:
        out["review_reading"] = _review_reading(marks)
        out["review_simulated_note"] = simulated_only(corpus, _review_simulation(marks))
        named = [n for n in dict.fromkeys(marks["corpus"]) if n != "stand-in"]
        out["review_which"] = (
            "Every judge of every bundled corpus"
            if named == ["d2t iaa", "d2t test"]
            else f"Every judge of the stand-in and of {prose.names(f'the {n} corpus' for n in named)}"
        )
    return out


def _real_corpus(real, values: dict) -> dict[str, str | Passage]:
    """What the real leaderboard's introduction says of its corpus: the bundled test split by what
    its source says of it, any other by what it holds (``values``: the readings so far, with the
    ``real_`` ones of the leaderboard)."""
    from .. import real_shape

    ex = real.examples
    systems = prose.count_words(slug_frame(ex)["setup_id"].nunique())  # as factgenie joins them
    domains = prose.count_words(ex["dataset"].nunique())
    human = real.records[real.records["kind"] == "human"]
    sets = human.merge(ex[KEY], on=KEY)[[*KEY, "campaign", "annotator_group"]].drop_duplicates()
    sets_per_text = sets.groupby(KEY).size()  # human sets (a campaign's group) per text
    lo, hi = (int(sets_per_text.min()), int(sets_per_text.max())) if len(sets_per_text) else (0, 0)
    per_text = (
        prose.count_words(lo)
        if lo == hi
        else f"{prose.count_words(lo)} {'or' if hi == lo + 1 else 'to'} {prose.count_words(hi)}"
    )
    out: dict[str, str | Passage] = {
        "real_n_systems": systems,
        "real_n_domains": domains,
        "real_humans_per_text": per_text,
        "review_sheet_of": "the real test split"
        if real_shape.bundled(real) == "test"
        else f"the {real_shape.name(real)} corpus",
    }
    n, judges_words = values.get("real_n_examples", f"{len(ex):,}"), values.get("real_n_judges_words", "")
    kind = "a simulation, not real annotations" if real.simulated else "real annotations, not a simulation"
    if real_shape.bundled(real) == "test":
        about = (
            f'The public corpus "Large Language Models as Span Annotators" (data-to-text; MIT) has a test split of '
            f"{n} texts from {systems} generating systems on {domains} domains, each annotated by {per_text} crowd "
            f"workers and by {judges_words} LLM judges: {kind}."
        )
    else:
        plural = {w: "" if v == "one" else "s" for w, v in (("s", systems), ("d", domains), ("j", judges_words))}
        about = (
            f"The corpus `{real_shape.name(real)}` has {n} texts (the ones its judges annotated) from {systems} "
            f"generating system{plural['s']} on {domains} dataset{plural['d']}, each annotated by {per_text} human "
            f"set{'s' if hi != 1 else ''} and by {judges_words} LLM judge{plural['j']}: {kind}."
        )
    out["real_about"] = Passage(about)
    return out
