"""Readings of chapter 10 ("Evaluate your own judge"): the leaderboard's top judges, the human
ceiling, how many neighbours this corpus tells apart, and the same on the real corpus.

Every comparison is made at the precision the leaderboard shows (two decimals), so a sentence
never calls one judge best where the table shows a tie, nor an interval clear of the ceiling
where its shown bound equals it."""

from __future__ import annotations

import numpy as np
import pandas as pd

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


def _bacc_reading(ranked: pd.DataFrame, top: str) -> tuple[str, str]:
    """The judge(s) best by BACC at the precision shown, and whether the best is the top judge by
    soft F1: (sentence, "the same judge" / "a different judge" / "...")."""
    shown = ranked["bacc"].map(_shown)
    if shown.isna().all():
        return (
            "No judge has a balanced accuracy here: no text a judge annotated has a clear human majority.",
            "none (no judge has one)",
        )
    best = shown.max()
    tied = ranked.loc[shown == best]
    if len(tied) == 1:
        row = tied.iloc[0]
        same = "the same judge" if row["judge"] == top else "a different judge"
        text = (
            f"By balanced accuracy against the majority {display_name(row['judge'])} is best "
            f"({tables.interval(row['bacc'], row['bacc_low'], row['bacc_high'])}), {same} "
            f"{'as' if same == 'the same judge' else 'from the one'} by span F1."
        )
        return text, same
    who = prose.names([display_name(j) for j in tied["judge"]])
    among = "the leader by span F1 among them" if top in set(tied["judge"]) else "the leader by span F1 not among them"
    same = "the same judge, tied with others" if top in set(tied["judge"]) else "a different judge"
    text = (
        f"By balanced accuracy against the majority {prose.count_words(len(tied))} judges tie at "
        f"{tables.number(best, DECIMALS)} ({who}; {among}): the clear-majority examples cannot separate them."
    )
    return text, same


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
    apart = _apart(board)
    n_pairs = max(0, len(ranked) - 1)
    bacc_text, same = _bacc_reading(ranked, str(top["judge"]))
    out = {
        f"{prefix}n_judges": prose.count_words(len(ranked)),
        f"{prefix}top_judge": display_name(str(top["judge"])),
        f"{prefix}top_soft": tables.interval(top["f1_soft"], top["f1_soft_low"], top["f1_soft_high"]),
        f"{prefix}bacc_reading": bacc_text,
        f"{prefix}same_best": same,
        f"{prefix}n_pairs": prose.count_words(n_pairs),
        f"{prefix}n_apart": _count(apart["yes"]),
        f"{prefix}n_uncertain": _count(apart["uncertain"]),
        f"{prefix}n_not_apart": _count(apart["no"]),
    }
    if n_pairs:
        out[f"{prefix}neighbours_said"] = (
            f"Of its {out[f'{prefix}n_pairs']} neighbouring pairs, its texts order {out[f'{prefix}n_apart']} with "
            f"confidence, {out[f'{prefix}n_uncertain']} with an uncertain margin and {out[f'{prefix}n_not_apart']} "
            "not at all."
        )
    else:
        out[f"{prefix}neighbours_said"] = "With one judge there is no neighbouring pair to order."
    if has_ceiling:
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
            f"({out[f'{prefix}ceiling_soft']}); {out[f'{prefix}placement']}"
        )
        vs_ceiling = f"{out[f'{prefix}top_vs_ceiling']} the human ceiling ({out[f'{prefix}ceiling_soft']})"
    else:
        reason = board.attrs.get("compared", {}).get("ceiling", {}).get("reason") or "no pair of human sets"
        out[f"{prefix}ceiling_said"] = f"with no human ceiling to read it against ({reason})"
        vs_ceiling = f"with no human ceiling ({reason})"
    neighbours = (
        f", and of its {out[f'{prefix}n_pairs']} neighbouring pairs the corpus orders {out[f'{prefix}n_apart']} with "
        "confidence"
        if n_pairs
        else ""
    )
    out[f"{prefix}summary"] = (
        f"{out[f'{prefix}top_judge']} leads by soft span F1, {vs_ceiling}; by BACC the best is {same}{neighbours}."
    )
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


def reseeded_answers(corpus, pair=PLANNED, seeds: int = RESEEDS, n_resamples: int = 1000) -> pd.DataFrame:
    """The examples needed to order ``pair`` by soft span F1 (the leaderboard's neighbour
    question), drawn with seeds 0 to ``seeds`` - 1 on the default grid of sizes: how far the
    answer moves with the random test sets alone. Columns: ``seed, n_needed``; empty where the
    corpus lacks a judge of ``pair``."""
    if not set(pair) <= set(judges.judges(corpus)):
        return pd.DataFrame(columns=["seed", "n_needed"])
    table = sample_size.judges_f1_table(
        corpus, list(pair), judges.references(corpus), judges.default_examples(corpus), match="soft"
    )
    sizes = answer_grid(table.n_examples)
    rows = []
    for seed in range(seeds):
        curve = sample_size.stability(table, sizes, n_resamples, seed, replace=True)
        rows.append({"seed": seed, "n_needed": sample_size.smallest_stable(curve).iloc[0]["n_stable"]})
    return pd.DataFrame(rows)


def _bound(v) -> str:
    """An examples-needed figure as the neighbours table shows it."""
    return "more than tried" if not np.isfinite(float(v)) else f"{int(v):,}"


def grid_note(board: pd.DataFrame, answers: pd.DataFrame, n_resamples: int = 1000) -> str:
    """Why chapter 09 gives the planned pair other numbers than this leaderboard: an answer is a
    size of the grid tried, and the random test sets move it by a step of that grid (``answers``:
    :func:`reseeded_answers`). Empty where the pair is not in the corpus."""
    if answers.empty:
        return ""
    got = sorted({int(v) for v in answers["n_needed"] if np.isfinite(v)})
    grid = answer_grid(int(board["examples"].dropna().iloc[0]))
    excerpt = ""
    if got:
        lo, hi = np.searchsorted(grid, got[0]), np.searchsorted(grid, got[-1])
        near = grid[max(0, lo - 1) : hi + 2]
        excerpt = ", ".join(f"{int(g):,}" for g in near)
    said = prose.names([f"{v:,}" for v in got]).replace(" and ", " or ") if got else "more than the grid holds"
    steps = int(hi - lo) if got else 0
    apart = (
        "one size of that grid whatever the seed"
        if steps == 0
        else "sizes next to each other on that grid"
        if steps == len(got) - 1
        else f"sizes up to {prose.count_words(steps)} steps apart on that grid"
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
        f"{sample_size.THRESHOLD:.0%} of {n_resamples:,} test sets, and drawn with {prose.count_words(len(answers))} "
        f"seeds this question is answered {said}: {apart}, as near {sample_size.THRESHOLD:.0%} the share rises so "
        f"slowly that the draws alone move the answer.{here}"
    )


def _simulation() -> str:
    """What the stand-in's LLM campaigns were built from, labels by rule (the provenance file)."""
    counts = tables.figure_status("table3_llm_campaigns/gpt-4o/total")
    majority = tables.figure_status("llm_majority_alignment")
    f1 = tables.figure_status("table6_span_level/Human - LLM (GPT-4o)/F1_S")
    return (
        f"On the simulated stand-in the LLM campaigns' span counts and flagged records are *{counts}* from the "
        f"paper's Tables 3 and 4; their agreement with the human majority is *{majority}* (the generator was "
        "changed after gpt-4o's agreement came out far from the paper's; see the data sheet), and BACC, which the "
        f"paper does not report, moved with that change; their span F1 against the humans is *{f1}*. So this "
        "ranking and its distance to the ceiling show how "
        "the leaderboard reads on simulated judges, not how the paper's models compare on the real annotations."
    )


def _review_reading(marks: pd.DataFrame) -> str:
    """Per corpus, the judge whose spans most often cover a whole sentence against the humans'
    share, at the precision the table shows (one decimal of a percentage)."""
    said = []
    for name, rows in marks.groupby("corpus", sort=False):
        humans = rows[rows["judge"] == review.marks.HUMANS].iloc[0]
        llms = rows[(rows["judge"] != review.marks.HUMANS) & (rows["spans_with_text"] > 0)]
        shown = (llms["whole_sentence_share"] * 100).round(1)
        top = [display_name(j) for j in llms.loc[shown == shown.max(), "judge"]]
        human = round(float(humans["whole_sentence_share"]) * 100, 1)
        above = int((shown > human).sum())
        said.append(
            f"on the {name} corpus {prose.names(top)} {'marks' if len(top) == 1 else 'mark'} whole sentences most "
            f"often ({tables.number(shown.max(), 1)}% of {'its' if len(top) == 1 else 'their'} spans, the humans "
            f"{tables.number(human, 1)}%; {prose.count_words(above)} of {prose.count_words(len(llms))} judges above "
            "the humans)"
        )
    hallucinated = marks.loc[marks["judge"] != review.marks.HUMANS, "hallucination_share"]
    none = "no judge's span is a hallucination" if (hallucinated.fillna(0) == 0).all() else ""
    text = "; ".join(said)
    return text[0].upper() + text[1:] + "." + (f" In these corpora {none}." if none else "")


def _review_simulation() -> str:
    return (
        "On the simulated stand-in the judges' span boundaries were widened by hand, campaign by campaign, "
        "in the order of the paper's Table 3 lengths (see the data sheet), so its whole-sentence shares "
        "and span lengths restate that setting; only the real corpora's rows are evidence."
    )


def bases(corpus, real=None) -> dict[str, Passage]:
    """What each Summary bullet of chapter 10 rests on (:func:`hotelcheckspan.book.labels.basis`):
    the judges' agreement on this corpus, and on the real test split."""
    judges_f1 = ("the judges' span F1", "table6_span_level/Human - LLM (GPT-4o)/F1_S")
    humans = ("the humans' agreement", "table6_span_level/Group A - Group B (Stage 2)/F1_S")
    out = {
        "board_basis": labels.basis(corpus, judges_f1, humans),
        "best_basis": labels.basis(corpus, judges_f1, ("balanced accuracy", None)),
        "neighbours_basis": labels.basis(corpus, judges_f1),
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
    answers: pd.DataFrame | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 10's prose needs, from the leaderboards the chapter shows (``board``
    on ``corpus``; ``real_board`` on the real corpus), the ``evaluate_judge`` result it shows the
    Table 6 rows of, the automatic review marks (``review.marks_by_corpus``) and the planned
    pair's answers with other seeds (:func:`reseeded_answers`)."""
    out: dict[str, str | Passage] = _board_readings(board, "") | bases(corpus, real)
    out["grid_note"] = grid_note(board, answers) if answers is not None else ""
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
        out["review_simulated_note"] = simulated_only(corpus, _review_simulation())
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
    sets_per_text = sets.groupby(KEY).size()  # human annotator sets (a campaign's group) per text
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
            f"annotator set{'s' if hi != 1 else ''} and by {judges_words} LLM judge{plural['j']}: {kind}."
        )
    out["real_about"] = Passage(about)
    return out
