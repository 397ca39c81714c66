"""Chapter 09 (how many examples does it take?): the numbers and readings its prose needs.

The resampling itself is slow, so the chapter computes its tables once (``sample_size.stability``,
``stable_n_summary``, ``interval_widths``, ``impression_power``, ...) and passes them here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...analyses import sample_size as ss
from ...annotator_sets import display_name, groups_of
from ...reference import paper
from ...reference.provenance import BUILT
from .. import labels, prose, tables
from . import Passage, simulated_only


def stability_table(within: pd.DataFrame, sizes: Sequence[int]):
    """``ss.stability`` as a table of the share in the same order per measure, pair and test-set
    size: a few sizes open, every size in a dropdown. A pair tied on the full set reads "a and b,
    tied" (no order to reproduce: its share is zero throughout)."""
    tied = within["difference"] == 0
    within = within.assign(pair=within["pair"].where(~tied, within["pair"].str.replace(" > ", " and ") + ", tied"))
    curves = within.pivot_table(index=["measure", "pair"], columns="n", values="same_order", sort=False)
    sizes = list(sizes)
    return tables.folded(
        tables.show(curves.reset_index().rename(columns=str), decimals=3),
        ["Measure", "Pair", *map(str, sizes[:: len(sizes) // 2])],
        "Every test-set size",
    )


def widths_table(widths: pd.DataFrame, sizes: Sequence[int]) -> tables.Table:
    """``ss.interval_widths`` at the given numbers of examples, one column each."""
    shown = widths[widths["n"].isin(list(sizes))]
    shown = shown.pivot_table(index=["measure", "system"], columns="n", values="width", sort=False)
    return tables.show(shown.reset_index().rename(columns=str), decimals=3)


MEASURES = (("soft", "span F1, soft"), ("hard", "span F1, hard"), ("bacc", "balanced accuracy"))
CHANCE_BACC = 0.5  # the balanced accuracy of a judge whose flags ignore the truth
SQUARE_ROOT = 0.05  # a log-log slope within this of -1/2 "follows the square-root law"
CONTAINS = 0.05  # a subset curve within this of n / N "follows how often a subset holds the deciding example"
NORMAL_CLOSE = 0.15  # the normal approximation "agrees" within this share of the resampled n (a step of the grid)
# Shaib et al. (seed 004), Section 3 and the conclusion, quoted: the sizes their method found for summarisation
SHAIB_FOUND = (
    "Shaib et al. found the better summarisation system emerging \u201cafter just 25-50 samples\u201d and call "
    "\u201ca test size of 50\u201d sufficient for human evaluation"
)
TARGET_POWER = 0.8
TABLE_DECIMALS = 3  # the chapter shows its tables with three decimals; the prose quotes them as shown
CONVENTION_TEXT = {
    "either": "span lengths counted on every example either side marked",
    "both": "span lengths counted only on examples both sides marked",
}


def _n(value, decimals: int = 2) -> str:
    return tables.number(value, decimals)


def _pair(pair: str, joiner: str = " > ") -> str:
    """A pair ("gpt-4o > gpt-4o-ls") in display names ("gpt-4o > gpt-4o (LS)")."""
    return joiner.join(display_name(p) for p in pair.split(" > "))


def _prompt_pair(pair: str) -> bool:
    """Whether a pair ("gpt-4o > gpt-4o-ls") is the two prompts of one model."""
    a, b = pair.split(" > ")
    return a.removesuffix("-ls") == b.removesuffix("-ls")


def single_example_readings(
    loo: pd.DataFrame | None, within: pd.DataFrame | None = None, corpus_size: int | None = None
) -> dict[str, str]:
    """Per measure, the pairs whose order one example decides (``sample_size.leave_one_out``:
    leaving it out ties or reverses them), and, given the subset curves (``within``), whether the
    share of subsets ranking them as the full set follows the share that hold that example (n / N):
    then it measures how often a test set contains one example, not how far apart the pair is."""
    out = {}
    for key, measure in MEASURES:
        part = loo[(loo["measure"] == measure) & (loo["deciding"] == 1)] if loo is not None else loo
        if part is None or part.empty:
            out[f"{key}_single"] = ""
            continue
        pairs = [_pair(p) for p in part["pair"]]
        text = (
            f"A single example decides the order of {prose.names(pairs)}: leaving it out ties or reverses "
            f"{'the pair' if len(pairs) == 1 else 'each pair'}"
        )
        if within is not None and corpus_size:
            curves = within[(within["measure"] == measure) & within["pair"].isin(part["pair"])]
            gap = float((curves["same_order"] - curves["n"] / corpus_size).abs().max())
            if gap <= CONTAINS:
                text += (
                    f", and the share of subsets that rank {'it' if len(pairs) == 1 else 'them'} as the full set "
                    f"stays within {_n(gap, 2)} of n / {corpus_size}, the share that hold that example: "
                    "the need measures how often a test set contains one example, not how far apart the two are"
                )
        out[f"{key}_single"] = text + "."
    return out


def chance_readings(flagged: pd.DataFrame | None, summary: pd.DataFrame) -> dict[str, str]:
    """Balanced accuracy's campaigns at chance (``sample_size.flags``: flagging every example with
    a clear majority, or none, but at most one) and the pairs between two of them; how far the
    campaigns' BACC lie from 0.5 at most."""
    if flagged is None or flagged.empty:
        return {"bacc_chance": "", "bacc_spread": "", "bacc_chance_pairs": "no", "bacc_rest": ""}
    at = flagged[flagged["at_chance"]]
    spread = _n(float((flagged["bacc"] - CHANCE_BACC).abs().max()), TABLE_DECIMALS)
    if at.empty:
        return {"bacc_chance": "", "bacc_spread": spread, "bacc_chance_pairs": "no", "bacc_rest": ""}
    names = set(at["system"])
    bacc = summary[(summary["measure"] == "balanced accuracy") & (summary["difference"] != 0)]
    among = [p for p in bacc["pair"] if set(p.split(" > ")) <= names]
    examples = int(flagged["examples"].iloc[0])
    said = [f"{display_name(r['system'])} flags {r['flagged']}" for _, r in at.iterrows()]
    text = (
        f"Of the {examples} examples with a clear majority, {prose.names(said)}: a campaign that flags all of them "
        f"or none, but at most one, has a balanced accuracy at chance ({prose.names(_n(b, 3) for b in at['bacc'])}) "
        "whatever the majority says"
    )
    rest = ""
    if among:
        verb = "compares" if len(among) == 1 else "compare"
        text += f", and {prose.count_words(len(among))} of the ordered pairs {verb} two such campaigns"
        others = bacc[~bacc["pair"].isin(among)]
        if len(others):
            median = others["n_with_replacement"].replace(np.inf, 1e12).median()
            rest = (
                f"Without the {'pair' if len(among) == 1 else prose.count_words(len(among)) + ' pairs'} between two "
                "campaigns at chance, the median "
                f"BACC pair needs {ss.describe_n(median if median < 1e12 else np.inf, int(bacc['max_n'].iloc[0]))} "
                "examples."
            )
    return {
        "bacc_chance": text + ".",
        "bacc_spread": spread,
        "bacc_chance_pairs": prose.count_words(len(among)),
        "bacc_rest": rest,
    }


def _chance_note(table, short: bool = False) -> str:
    """On the stand-in: why campaigns sit at chance by BACC (the generator sets how many records
    each flags, from Table 3: ``llm_majority_alignment``'s provenance); ``short``: in a clause."""
    at = ss.flags(table)
    at = at[at["at_chance"]]
    if at.empty:
        return ""
    if short:
        return (
            f"On the stand-in their chance level is *{BUILT}*: the generator sets how many records each campaign "
            "flags from Table 3, whose rows make these flag every record or almost none."
        )
    return (
        f"On the stand-in this is *{BUILT}*: {labels.reason('llm_majority_alignment', 'tuned')}, "
        f"and Table 3's rows make {prose.names(display_name(m) for m in at['system'])} flag every record or "
        "almost none."
    )


def stability_readings(
    summary: pd.DataFrame,
    corpus_size: int,
    smallest_n: int,
    loo: pd.DataFrame | None = None,
    within: pd.DataFrame | None = None,
    flagged: pd.DataFrame | None = None,
) -> dict[str, str]:
    """Per measure: how many pairs are ordered from the smallest size, how many need more than the
    corpus, and the hardest pair with its n and interval (``sample_size.stable_n_summary``); the
    pairs whose order one example decides (``loo``, ``sample_size.leave_one_out``, with the subset
    curves ``within``) and the campaigns at chance by BACC (``flagged``, ``sample_size.flags``).
    The pairs by span F1, soft, ordered from the smallest size and the rest: the smallest gap among the
    first (``gap_settled``) and the largest among the others (``gap_unsettled``)."""
    s = summary.assign(rank_n=summary["n_with_replacement"].replace(np.inf, 1e12))

    def first(col: str):
        """A grid's first size, where the summary says it (``min_n``)."""
        return s[col].iloc[0] if col in s else None

    max_n = int(s["max_n"].iloc[0])
    out: dict[str, str] = {}
    hardest_pairs = []
    for key, measure in MEASURES:
        part = s[(s["measure"] == measure) & (s["difference"] != 0)]
        hardest = part.sort_values(["rank_n", "difference"], ascending=[False, True]).iloc[0]
        hardest_pairs.append(hardest["pair"])
        out |= {
            f"{key}_early": _n(int((part["n_with_replacement"] <= smallest_n).sum())),
            f"{key}_beyond": _n(int((part["n_with_replacement"] > corpus_size).sum())),
            f"{key}_hard_pair": _pair(hardest["pair"]),
            f"{key}_hard_diff": _n(hardest["difference"], TABLE_DECIMALS),
            f"{key}_hard_n": ss.describe_n(hardest["n_with_replacement"], hardest["max_n"], first("min_n")),
            f"{key}_hard_ci": (
                f"{ss.describe_n(hardest['n_low'], hardest['max_n'], first('min_n'))} to "
                f"{ss.describe_n(hardest['n_high'], hardest['max_n'], first('min_n'))}"
            ),
        }
    for key, measure in MEASURES:
        ties = s[(s["measure"] == measure) & (s["difference"] == 0)]["pair"].map(lambda p: _pair(p, " and "))
        out[f"{key}_ties"] = f"Tied on the full set, and so never ranked: {prose.names(ties)}." if len(ties) else ""
    soft_all = s[(s["measure"] == "span F1, soft") & (s["difference"] != 0)]
    unsettled = soft_all[soft_all["n_with_replacement"] > smallest_n]
    settled = soft_all[soft_all["n_with_replacement"] <= smallest_n]
    low, high = settled["difference"].min(), unsettled["difference"].max()
    out |= {
        "gap_settled": _n(low, TABLE_DECIMALS) if len(settled) else "none",
        "gap_unsettled": _n(high, TABLE_DECIMALS) if len(unsettled) else "zero",
        "close_pairs": prose.names(unsettled["pair"].map(lambda p: _pair(p, " vs "))) if len(unsettled) else "none",
        "close_n": ss.describe_n(unsettled["n_with_replacement"].min(), max_n) if len(unsettled) else "no more",
        "gap_split": (
            f"No pair lies between {_n(high, TABLE_DECIMALS)} and {_n(low, TABLE_DECIMALS)} apart, so where in that "
            "range the need starts to grow is not tested here."
            if len(settled) and len(unsettled) and high < low
            else "The pairs do not split by their gap alone: a closer pair is ordered early where a wider one is not."
            if len(settled) and len(unsettled)
            else ""
        ),
    }
    median_bacc = s[(s["measure"] == "balanced accuracy") & (s["difference"] != 0)]["rank_n"].median()
    median_soft = soft_all["rank_n"].median()
    for key, median in (("bacc_median", median_bacc), ("soft_median", median_soft)):
        out[key] = ss.describe_n(median if median < 1e12 else np.inf, max_n)
    out["bacc_vs_soft"] = (
        "less stably than"
        if median_bacc > median_soft
        else "more stably than"
        if median_bacc < median_soft
        else "about as stably as"
    )
    n_prompt = sum(map(_prompt_pair, hardest_pairs))
    out["prompt_pairs_hardest"] = _n(n_prompt)
    out["n_measures"] = _n(len(MEASURES))
    out |= single_example_readings(loo, within, corpus_size)
    out |= chance_readings(flagged, s)
    decided = loo[(loo["measure"] == "balanced accuracy") & (loo["deciding"] == 1)] if loo is not None else []
    out["bacc_single_pairs"] = prose.count_words(len(decided))
    return out


def _enough(needs: pd.DataFrame, corpus_size: int) -> str:
    """Whether ``corpus_size`` examples order every pair of ``needs`` (rows of one measure of
    ``sample_size.needs_at_paper_gaps``) at the paper's gaps, and over their rounding: the verdict
    at the printed gaps, qualified wherever the rounding's widest (``n_paper_low``) or narrowest
    (``n_paper_high``) gaps would turn it."""
    if needs["n_paper"].max() > corpus_size:
        if needs["n_paper_low"].max() <= corpus_size:
            return "not enough at the printed gaps, though enough at the widest gaps their rounding allows"
        return "not enough, even at the widest gaps their rounding allows"
    if needs["n_paper_high"].max() > corpus_size:
        return "enough at the printed gaps, though not at the narrowest gaps their rounding allows"
    return "enough"


def paper_gap_readings(needs: pd.DataFrame, corpus_size: int) -> dict[str, str]:
    """The examples the paper's own comparisons need (``sample_size.needs_at_paper_gaps``): per
    measure (span F1, soft and hard) the pair the paper's Table 6 has closest, its gap, the
    examples at it and over the gap's rounding, the normal approximation's answer, and whether the
    corpus' examples are enough. The readings rest on the paper's gaps, never this corpus' own."""
    out: dict[str, str] = {}
    for key, measure in MEASURES[:2]:
        part = needs[needs["measure"] == measure]
        closest = part.sort_values(["n_paper", "paper_gap"], ascending=[False, True]).iloc[0]
        m = int(closest["max_n"])
        out |= {
            f"{key}_paper_pair": _pair(closest["pair"], " and "),
            f"{key}_paper_gap": _n(closest["paper_gap"]),
            f"{key}_paper_range": f"{_n(closest['paper_gap_low'])} to {_n(closest['paper_gap_high'])}",
            f"{key}_paper_n": ss.describe_n(closest["n_paper"], m),
            f"{key}_paper_n_range": (
                f"{ss.describe_n(closest['n_paper_low'], m)} to {ss.describe_n(closest['n_paper_high'], m)}"
            ),
            f"{key}_paper_normal": ss.describe_n(closest["n_normal"], m),
            f"{key}_paper_word": _enough(part, corpus_size),
            f"{key}_own_gap": _n(closest["gap"], TABLE_DECIMALS),
            f"{key}_own_n": ss.describe_n(closest["n_own"], m),
            f"{key}_gap_vs_paper": prose.compare(
                abs(closest["gap"]), closest["paper_gap"], 2, "wider than", "narrower than"
            ),
        }
    out["gap_max_n"] = f"{int(needs['max_n'].max()):,}"
    out["normal_reading"] = _normal_reading(needs)
    out["gap_min_n"] = f"{int(needs['min_n'].min()):,}" if "min_n" in needs else ""
    return out


def _normal_reading(needs: pd.DataFrame) -> str:
    """How far the normal approximation is from the resampled n at the paper's gap, row by row
    (rows at the grid's first size, an upper bound, left out), and why where it is far: a
    skewed difference (``skew``) falls below zero more or less often than a symmetric one."""
    first = needs["min_n"] if "min_n" in needs else pd.Series(0, index=needs.index)
    rows = needs[np.isfinite(needs["n_paper"]) & (needs["n_paper"] > first) & np.isfinite(needs["n_normal"])]
    if rows.empty:
        return ""
    off = (rows["n_normal"] - rows["n_paper"]).abs() / rows["n_paper"]
    far = rows[off > NORMAL_CLOSE]
    text = (
        f"The normal approximation is within {NORMAL_CLOSE:.0%} of the resampled need in "
        f"{prose.count_words(len(rows) - len(far))} of the {prose.count_words(len(rows))} rows whose need lies "
        "beyond the grid's first size"
    )
    if far.empty:
        return text + "."
    said = [
        f"{_pair(r['pair'])} by {r['measure']} "
        f"({ss.describe_n(r['n_normal'], r['max_n'])} against {ss.describe_n(r['n_paper'], r['max_n'])})"
        for _, r in far.iterrows()
    ]
    text += f"; it is further off for {prose.names(said)}"
    skew = far["skew"] if "skew" in far else pd.Series(0.0, index=far.index)
    right = (skew > 0) & (far["n_normal"] > far["n_paper"])
    left = (skew < 0) & (far["n_normal"] < far["n_paper"])
    if (right | left).all():
        skews = prose.names(_n(v) for v in far["skew"])
        if right.all():
            text += (
                f". There the drawn difference is skewed to the right (skewness {skews} on test sets of the corpus' "
                "size, more on fewer examples), so it falls below zero less often than a symmetric one would: "
                "fewer examples suffice than the normal approximation says"
            )
        elif left.all():
            text += (
                f". There the drawn difference is skewed to the left (skewness {skews} on test sets of the corpus' "
                "size, more on fewer examples), so it falls below zero more often than a symmetric one would: "
                "more examples are needed than the normal approximation says"
            )
    else:
        text += ", beyond what the grid's steps and the Monte Carlo error explain"
    return text + "."


def width_readings(widths: pd.DataFrame, kappa_table, corpus_size: int) -> dict[str, str]:
    """Interval widths (``sample_size.interval_widths``): the soft human-human F1's at the corpus
    size and its log-log slope, and Fleiss' kappa with its interval."""
    soft = widths[(widths["measure"] == "span F1, soft") & (widths["system"] == "human-human")]
    slope = ss.width_slope(soft).iloc[0]
    kappa_ci = widths[(widths["measure"] == kappa_table.measure) & (widths["n"] == corpus_size)].iloc[0]
    return {
        "w_soft_full": _n(soft.loc[soft["n"] == corpus_size, "width"].iloc[0], 3),
        "w_slope": _n(slope["slope"]),
        "w_ratio": _n(slope["halving_factor"], 1),
        "square_root": (
            "follow the square-root law, as any figure computed from n examples drawn independently must: a "
            "property of the resampling design, not a finding about the corpus"
            if abs(slope["slope"] + 0.5) <= SQUARE_ROOT
            else "do not follow the square-root law that a figure computed from n examples drawn independently "
            "follows once n is large: at these sizes the figure is still far from normal"
        ),
        "kappa": _n(kappa_table.full()[0], 3),
        "w_kappa_full": _n(kappa_ci["width"], 3),
        "kappa_word": "enough" if kappa_ci["low"] > 0 else "not enough",
    }


def power_readings(ratings: pd.DataFrame, power: pd.DataFrame, largest: int, paper_effects=None) -> dict[str, str]:
    """The impression tests' power: at the paper's own effects (Cohen's d implied by its t and
    group sizes, its r; ``sample_size.paper_impression_effects``), the records statsmodels needs,
    on which the reading rests; beside them this corpus' effects, its resampled power
    (``sample_size.impression_power`` up to ``largest`` records) and statsmodels' answer."""
    effects = ss.impression_effects(ratings)
    theirs = ss.paper_impression_effects() if paper_effects is None else paper_effects
    need = ss.records_for_power(ratings, power=TARGET_POWER).set_index("test")["records"]
    first = ss.first_power(power, "resampled", power=TARGET_POWER).set_index("test")["n"]
    paper_need = max(theirs["t_records_high"], theirs["r_records_high"])
    return {
        "records": f"{effects['records']:,}",
        "d": _n(effects["d"]),
        "r": _n(effects["r"]),
        "t_n80": ss.describe_n(first.iloc[0], largest),
        "r_n80": ss.describe_n(first.iloc[1], largest),
        "t_sm80": _n(int(need.iloc[0])),
        "r_sm80": _n(int(need.iloc[1])),
        "target": f"{TARGET_POWER:.0%}",
        "paper_t": str(paper.value("impressions/t_errors_vs_none")),
        "paper_r": _n(theirs["r"]),
        "paper_d": _n(theirs["d"]),
        "paper_records": f"{theirs['records']:,}",
        "paper_records_source": (
            f"{theirs['records']:,} by the book's count, two records per example in each stage; the paper "
            "prints no total"
        ),
        "paper_t80": _n(int(theirs["t_records"])),
        "paper_r80": _n(int(theirs["r_records"])),
        "paper_t80_range": f"{int(theirs['t_records_low'])} to {int(theirs['t_records_high'])}",
        "paper_r80_range": f"{int(theirs['r_records_low'])} to {int(theirs['r_records_high'])}",
        "power_word": (
            "a small fraction of"
            if paper_need < theirs["records"] / 5
            else "fewer than"
            if paper_need <= theirs["records"]
            else "more than"
        ),
        "d_vs_paper": prose.compare(effects["d"], theirs["d"], 2, "larger than", "smaller than"),
    }


# the figure key each row of :func:`power_table` stands beside, for its "Figure is" label: Cohen's d
# and the records for power follow the t-test's effect, r's follow r's; the share of error-free
# records follows how human spans gather in records
T_KEY, R_KEY = "impressions/t_errors_vs_none", "impressions/r_error_count_vs_impression"


def _power_keys(share: float) -> list:
    from ...reference import provenance

    spread = ["dataset/spans_per_record", "dataset/spans_per_error_record"]
    return [
        T_KEY,
        R_KEY,
        provenance.derived(share, spread, "1 − spans per record ÷ spans per error record"),
        T_KEY,
        R_KEY,
        "dataset/human_records",
    ]


def power_note(corpus) -> Passage:
    """What the generator puts in of the impression effects (the provenance file's ``built_in``
    and ``reason``), on a simulated corpus: the labels of the power table's t and r rows."""
    kind_t, kind_r = labels.kind(T_KEY), labels.kind(R_KEY)
    same = kind_t == kind_r
    return simulated_only(
        corpus,
        (
            f"On the stand-in both effects are *{kind_t}*"
            if same
            else f"On the stand-in the t-test's effect is *{kind_t}* and the correlation's *{kind_r}*"
        )
        + f": {labels.reason(T_KEY, 'built_in')}; {labels.reason(T_KEY)}. The corpus' own records for "
        f"{TARGET_POWER:.0%} power therefore follow from an effect the generator made significant, and are no "
        "estimate of what the paper's ratings need.",
    )


def power_table(ratings: pd.DataFrame, paper_effects=None, corpus=None) -> pd.DataFrame:
    """The impression tests' effects and the records for 80% power, the paper's beside this
    corpus': columns ``quantity, paper, this corpus``, as text for readers (counts whole, other
    figures at two decimals; the paper's implied by its t, r and records,
    ``sample_size.paper_impression_effects``), and on a simulated ``corpus`` "Figure is", the
    rule's label of this corpus' figure (:func:`hotelcheckspan.book.tables.mark`)."""
    effects = ss.impression_effects(ratings)
    theirs = ss.paper_impression_effects() if paper_effects is None else paper_effects
    need = ss.records_for_power(ratings, power=TARGET_POWER).set_index("test")["records"]
    rows = [
        ("Cohen's d, errors vs none", theirs["d"], effects["d"]),
        ("r, error count and impression", theirs["r"], effects["r"]),
        ("share of records without an error", theirs["share_no_error"], effects["share_no_error"]),
        (f"records for {TARGET_POWER:.0%} power, t-test", theirs["t_records"], need.iloc[0]),
        (f"records for {TARGET_POWER:.0%} power, correlation", theirs["r_records"], need.iloc[1]),
        ("records rated", theirs["records"], effects["records"]),
    ]
    text = [(q, *(_n(v) if v != int(v) else f"{int(v):,}" for v in values)) for q, *values in rows]
    frame = pd.DataFrame(text, columns=["quantity", "paper", "this corpus"])
    if corpus is None:
        return frame
    return tables.mark(frame, _power_keys(effects["share_no_error"]), corpus)


def power_draws_table(power: pd.DataFrame) -> tables.Table:
    """``sample_size.impression_power`` for readers: per test and number of records the resampled
    power, the Wilson interval of its Monte Carlo error (named so) and statsmodels' power."""
    return tables.show(power, decimals=3, headers={"low": "Monte Carlo low", "high": "Monte Carlo high"})


def _table6_key(system: str, measure: str) -> str:
    """The key of Table 6's row for a judge (``gpt-4o`` -> "Human - LLM (GPT-4o)") and
    measure's column."""
    for row in paper.figures()["table6_span_level"]:
        if row.startswith("Human - LLM (") and display_name(row.removeprefix("Human - LLM (")[:-1]) == display_name(
            system
        ):
            return f"table6_span_level/{row}/{ss.PAPER_F1[measure]}"
    raise KeyError(f"Table 6 has no row for {system!r}")


def gaps_table(needs: pd.DataFrame, corpus) -> pd.DataFrame:
    """``sample_size.readable_gaps`` with, on a simulated ``corpus``, "Figure is": the rule's label
    of this corpus' gap and its need, a difference of the two campaigns' span F1 against the
    humans (Table 6's rows), labelled by the rule from those rows' labels (derived, by construction or
    emergent)."""
    from ...reference import provenance

    keys = []
    for _, r in needs.iterrows():
        a, b = r["pair"].split(" > ")
        keys.append(
            provenance.derived(
                r["gap"], [_table6_key(a, r["measure"]), _table6_key(b, r["measure"])], "difference of two rows"
            )
        )
    return tables.mark(ss.readable_gaps(needs), keys, corpus)


def public_readings(real, real_summary: pd.DataFrame | None, real_n: int | None, real_max_n: int | None):
    """The public corpus' stability (chapter 08's corpus), or why there is none."""
    if real is None or real_summary is None:
        return {
            "public_reading": "This build has no copy of the public corpus (hotelcheckspan.paths.REAL_CORPUS), so "
            "this section has nothing to compute; rebuild with the corpus in data/ to fill it.",
            "public_examples": "an unknown number of",
        }
    soft = real_summary[(real_summary["measure"] == "span F1, soft") & (real_summary["difference"] != 0)]
    beyond = int((soft["n_with_replacement"] > real_n).sum())
    never = int((~np.isfinite(soft["n_high"])).sum())
    humans = [g for c in real.campaigns("human") for g in groups_of(real, c)]
    return {
        "public_examples": _n(real_n),
        "public_reading": (
            f"The public corpus has {real_n} examples annotated by {len(real.campaigns('model'))} judges and "
            f"{len(humans)} human sets, {len(soft)} pairs of judges with different span F1, soft. Drawing "
            f"with replacement, {beyond} of these pairs need more than {real_n} examples to be ordered as on the "
            f"full set in {ss.THRESHOLD:.0%} of test sets, and for {never} the upper end of the interval is beyond "
            f"{real_max_n:,} examples. With {real_n} examples the corpus can order judges only where they "
            f"differ grossly; telling close ones apart takes far more than {real_n} examples."
        ),
    }


def _crossing(fine: pd.DataFrame, fine_draws: int, n_resamples: int, table_n: str, grid) -> str:
    """Why Monte Carlo answers differ: where a precise curve (``fine``, ``fine_draws`` draws per
    size) crosses the threshold, and which grid sizes a curve of ``n_resamples`` draws can
    therefore report as the first stable one."""
    f = fine.sort_values("n").reset_index(drop=True)
    reached = f.index[f["same_order"] >= ss.THRESHOLD]
    if not len(reached) or reached[0] == 0:
        return ""
    k = reached[0]
    lo, hi = f.iloc[k - 1], f.iloc[k]
    half = 1.96 * np.sqrt(ss.THRESHOLD * (1 - ss.THRESHOLD) / n_resamples)  # Wilson/Wald half-width there
    candidates = [int(lo["n"])] if ss.THRESHOLD - lo["same_order"] < half else []
    candidates.append(int(hi["n"]))
    if hi["same_order"] - ss.THRESHOLD < half and k + 1 < len(f):
        candidates.append(int(f.iloc[k + 1]["n"]))
    text = (
        f" With {fine_draws:,} draws per size the share of test sets in the same order is "
        f"{_n(lo['same_order'], 3)} at {int(lo['n']):,} examples and {_n(hi['same_order'], 3)} at {int(hi['n']):,}, "
        f"the next size of the planning grid, so the curve crosses {ss.THRESHOLD:.0%} between the two"
    )
    if len(candidates) > 1:
        text += (
            f"; a curve of {n_resamples:,} draws is uncertain by about {_n(half, 3)} either way there, so its first "
            f"stable size is {prose.names(f'{c:,}' for c in candidates).replace(' and ', ' or ')} with the seed."
        )
    else:
        text += f", beyond the Monte Carlo error of a curve of {n_resamples:,} draws (about {_n(half, 3)})."
    if grid is not None:
        coarse = [int(g) for g in grid if g >= hi["n"]]
        if coarse and table_n == f"{coarse[0]:,}":
            text += (
                f" The smallest-stable-n table's grid is coarser ({len(grid)} sizes), and its first size past the "
                f"crossing is {coarse[0]:,}: that is its answer."
            )
    return text


def plan_reading(plan, summary: pd.DataFrame) -> str:
    """The planning answer set beside the smallest-stable-n table's row for the same pair and
    measure (span F1, soft, with replacement): two Monte Carlo estimates on different grids of
    sizes and different seeds, which need not give the same n."""
    pair = f"{plan['better']} > {plan['worse']}"
    row = summary[(summary["measure"] == "span F1, soft") & (summary["pair"] == pair)]
    if row.empty:
        return ""
    r = row.iloc[0]
    m = int(r["max_n"])
    overlap = not (plan["n_high"] < r["n_low"] or r["n_high"] < plan["n_low"])
    return (
        f"The smallest-stable-n table above gives this pair {ss.describe_n(r['n_with_replacement'], m)} "
        f"(interval {ss.describe_n(r['n_low'], m)} to {ss.describe_n(r['n_high'], m)}) by span F1, soft with "
        f"replacement, where this answer is {ss.describe_n(plan['n_needed'], plan['max_n'])}: both are estimates "
        "from random test sets, on different grids of sizes and seeds, and their intervals "
        + ("overlap, so they do not disagree." if overlap else "do not overlap.")
    )


def plan_readings(
    plan, summary: pd.DataFrame, board=None, fine=None, fine_draws: int = 0, grid=None, n_resamples: int = 1000
) -> dict[str, str]:
    """The planning answer beside the smallest-stable-n table's row for the same pair (soft span
    F1, with replacement) and chapter 10's leaderboard (``board``, ``judges.leaderboard``), and
    why they differ: ``fine`` is ``sample_size.stability`` of the pair with ``fine_draws`` draws
    on sizes of the planning grid around the answers, ``grid`` the smallest-stable-n table's
    sizes. ``plan_reading``: the two answers of this chapter (:func:`plan_reading`); ``ch10_reading``: chapter 10's
    answer and what its call shares with this one (it follows the chapter's "{chapter}`10`'s
    leaderboard ..." in the notebook, where the role is rendered); ``crossing_reading``: why."""
    pair = f"{plan['better']} > {plan['worse']}"
    row = summary[(summary["measure"] == "span F1, soft") & (summary["pair"] == pair)]
    if row.empty:
        return {"plan_reading": "", "ch10_reading": "does not compare these two.", "crossing_reading": ""}
    r = row.iloc[0]
    table_n = ss.describe_n(r["n_with_replacement"], int(r["max_n"]))
    out = {
        "plan_reading": plan_reading(plan, summary),
        "ch10_reading": "does not order these two as neighbours, so it gives no answer for them.",
        "crossing_reading": "",
    }
    hit = board[(board["judge"] == plan["better"]) & (board["next"] == plan["worse"])] if board is not None else []
    if len(hit):
        h = hit.iloc[0]
        worse = board.loc[board["judge"] == plan["worse"], "f1_soft"]
        same = np.isclose(h["f1_soft"], plan["score_better"]) and np.isclose(worse.iloc[0], plan["score_worse"])
        out["ch10_reading"] = f"answers {ss.describe_n(h['n_needed'], plan['max_n'])} for the same pair: " + (
            "it makes this call, with the same span F1, soft scores (the same human sets, examples and span-F1 "
            "definition) and the same grid of sizes, but its own random seed."
            if same
            else f"it scores them {_n(h['f1_soft'], 3)} and {_n(worse.iloc[0], 3)}, on other terms than this call."
        )
    if fine is not None and len(fine):
        out["crossing_reading"] = _crossing(fine, fine_draws, n_resamples, table_n, grid).strip()
    return out


def prompt_differences(systems) -> str:
    """What separates the two prompts of a model in the generator: each has its own rows of
    Tables 3 and 4 (span counts, spans per error record, type shares); beyond those, the hand-set
    parameters of :data:`simulation.annotators.LLM_CAMPAIGNS` (span widening, weight of the
    type preference) they do or do not share."""
    from ...simulation.annotators import LLM_CAMPAIGNS

    names = ("span widening", "weight of its type preference")
    said = []
    for m in systems:
        base = m.removesuffix("-ls")
        if m == base or base not in systems or base not in LLM_CAMPAIGNS or m not in LLM_CAMPAIGNS:
            continue
        differ = [n for n, a, b in zip(names, LLM_CAMPAIGNS[base][2:], LLM_CAMPAIGNS[m][2:]) if a != b]
        said.append(
            f"{base}'s two differ in {prose.names(differ)}" if differ else f"{base}'s two share every other parameter"
        )
    return prose.names(said)


def _simulation(systems) -> str:
    """What the stand-in's judges were built from, labels by rule."""
    counts = labels.kind("table4_dataset_level_stage2_subset/gpt-4o/total")
    f1 = labels.kind("table6_span_level/Human - LLM (GPT-4o)/F1_S")
    majority = labels.kind("llm_majority_alignment")
    agreement = f"*{f1}*" if f1 == majority else f"*{f1}* (span F1) and *{majority}* (against the majority)"
    prompts = prompt_differences(systems)
    return (
        "In the simulation the answer depends on how far apart the judges were set: their span counts "
        f"are *{counts}* from the paper's Tables 3 and 4, their agreement with the humans is {agreement}"
        + (
            ". The two prompts of a model are set from their own rows of Tables 3 and 4 (span counts, spans per "
            f"error record, type shares); beyond those, {prompts}, so they differ by little more than how much "
            "and which types they mark. The real prompt variants may differ more."
            if prompts
            else "."
        )
    )


def _own_in_table(needs: pd.DataFrame | None, summary: pd.DataFrame | None, key: str, measure: str) -> str:
    """The smallest-stable-n table's answer (``summary``) for the pair the paper has closest by
    ``measure`` (``needs``), at this corpus' own gap, oriented as this corpus orders it; empty
    where the table has no such row."""
    if needs is None or summary is None:
        return ""
    part = needs[needs["measure"] == measure]
    closest = part.sort_values(["n_paper", "paper_gap"], ascending=[False, True]).iloc[0]
    better, worse = closest["pair"].split(" > ")
    pair = f"{better} > {worse}" if closest["gap"] >= 0 else f"{worse} > {better}"
    row = summary[(summary["measure"] == measure) & (summary["pair"] == pair)]
    if row.empty:
        return ""
    r = row.iloc[0]
    return ss.describe_n(r["n_with_replacement"], int(r["max_n"]))


def _paper_gap_note(
    gaps: dict[str, str], corpus_size: int, needs: pd.DataFrame | None = None, summary: pd.DataFrame | None = None
) -> str:
    """Why the stand-in's own gaps cannot answer for the paper (shown on a simulated corpus), and
    why its n at its own gap need not be the smallest-stable-n table's (another grid and seed)."""
    text = (
        f"The stand-in's own gaps are simulated and say nothing of the paper's: by span F1, soft, its gap between "
        f"{gaps['soft_paper_pair']} is {gaps['soft_own_gap']}, {gaps['soft_gap_vs_paper']} the paper's "
        f"{gaps['soft_paper_gap']}, and at its own gap the pair needs {gaps['soft_own_n']} examples where the "
        f"paper's needs {gaps['soft_paper_n']}; by span F1, hard, {gaps['hard_own_gap']} against "
        f"{gaps['hard_paper_gap']}, {gaps['hard_own_n']} examples against {gaps['hard_paper_n']}. Only the spread "
        f"of a test set's difference is taken from the stand-in's {corpus_size} examples, and the real examples "
        "may spread more or less."
    )
    shown = {k: _own_in_table(needs, summary, k, m) for k, m in MEASURES[:2]}
    differ = [k for k in ("soft", "hard") if shown[k] and shown[k] != gaps[f"{k}_own_n"]]
    if differ and needs is not None and summary is not None:
        said = [f"{shown[k]} where this table has {gaps[f'{k}_own_n']} (span F1, {k})" for k in differ]
        sizes = ss.planning_sizes(corpus_size)
        step = float(np.median(sizes[1:] / sizes[:-1]) - 1)
        grid = (
            f"the planning grid (sizes about {step:.0%} apart, from {sizes[0]:,})"
            if int(needs["max_n"].max()) == int(sizes[-1])
            else "its own grid"
        )
        text += (
            f" At its own gap the smallest-stable-n table above gives the pair {prose.names(said)}: both draw "
            f"test sets with replacement, but this table on {grid} with its own seed, that one on a coarser grid "
            "with another, so each reports the first size of its own grid past a noisy crossing."
        )
    return text


def bases(corpus) -> dict[str, Passage]:
    """What each Summary bullet of chapter 09 rests on (:func:`hotelcheckspan.book.labels.basis`):
    the paper's gaps and effects, and the stand-in's spread between examples, which the paper does
    not report."""
    f1 = "table6_span_level/Human - LLM (GPT-4o)/F1_S"
    spread = ("the spread of the LLM rows between examples", f1)
    return {
        "gaps_basis": labels.basis(corpus, spread, paper=True),
        "close_basis": labels.basis(corpus, ("the LLMs' gaps", f1), spread),
        # the flagged records, and so each campaign's BACC against the majority, were set after looking at it
        "bacc_basis": labels.basis(corpus, ("balanced accuracy", "llm_majority_alignment"), spread),
        "power_basis": labels.paper_basis(),
    }


def readings(
    corpus,
    *,
    scores: Sequence,
    within: pd.DataFrame,
    beyond: pd.DataFrame,
    summary: pd.DataFrame,
    widths: pd.DataFrame,
    kappa_table,
    ratings: pd.DataFrame,
    power: pd.DataFrame,
    n_resamples: int,
    n_outer: int,
    n_inner: int,
    real=None,
    real_summary: pd.DataFrame | None = None,
    real_beyond: pd.DataFrame | None = None,
    plan=None,
    needs: pd.DataFrame | None = None,
    board: pd.DataFrame | None = None,
    fine: pd.DataFrame | None = None,
    fine_draws: int = 0,
    grid=None,
    paper_effects: dict | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 09's prose glues. ``scores`` are the LLMs' full-set score tables (hard
    and span F1, soft, BACC), ``within``/``beyond`` their stability curves without and with
    replacement, ``summary`` ``stable_n_summary``, ``widths`` ``interval_widths`` (with
    ``kappa_table``, Fleiss' kappa's score table, among them), ``power`` ``impression_power`` on
    ``ratings``; ``real`` the public corpus with its ``real_summary`` and ``real_beyond``;
    ``needs`` ``needs_at_paper_gaps``; ``plan`` ``examples_needed`` with chapter 10's leaderboard
    ``board``, the precise curve ``fine`` (``fine_draws`` draws) and the table's ``grid`` of sizes
    (:func:`plan_readings`); ``paper_effects`` ``paper_impression_effects`` (default: the paper's)."""
    n = scores[0].n_examples
    systems = scores[0].systems
    smallest = int(within["n"].min())
    real_n = int(real_summary["corpus_size"].iloc[0]) if real_summary is not None else None
    gaps = paper_gap_readings(needs, n) if needs is not None and len(needs) else {}
    bacc = [t for t in scores if t.measure == "balanced accuracy"]
    return bases(corpus) | {
        "n_examples": _n(n),
        "n_llms": _n(len(systems)),
        "n_pairs": _n(len(systems) * (len(systems) - 1) // 2),
        "convention": CONVENTION_TEXT.get(ss.DEFAULT_CONVENTION, f"span-length convention {ss.DEFAULT_CONVENTION}"),
        "resamples": f"{n_resamples:,}",
        "level": f"{ss.THRESHOLD:.0%}",
        "max_factor": _n(ss.MAX_FACTOR),
        "max_n": f"{int(beyond['n'].max()):,}",
        "mc_halfwidth": _n((within["high"] - within["low"]).max() / 2, 3),
        "n_outer": _n(n_outer),
        "n_inner": _n(n_inner),
        "smallest_n": _n(smallest),
        **stability_readings(
            summary,
            n,
            smallest,
            loo=ss.leave_one_out(scores),
            within=within,
            flagged=ss.flags(bacc[0]) if bacc else None,
        ),
        "shaib_found": SHAIB_FOUND,
        **width_readings(widths, kappa_table, n),
        **power_readings(ratings, power, int(power["n"].max()), paper_effects),
        **public_readings(real, real_summary, real_n, int(real_beyond["n"].max()) if real_beyond is not None else None),
        "simulated_note": simulated_only(corpus, _simulation(systems)),
        **(plan_readings(plan, summary, board, fine, fine_draws, grid, n_resamples) if plan is not None else {}),
        **gaps,
        "paper_gap_note": simulated_only(corpus, _paper_gap_note(gaps, n, needs, summary) if gaps else ""),
        "power_note": power_note(corpus),
        "bacc_chance_note": simulated_only(corpus, _chance_note(bacc[0]) if bacc else ""),
        "bacc_chance_short": simulated_only(corpus, _chance_note(bacc[0], short=True) if bacc else ""),
        "chance": _n(CHANCE_BACC, 1),
    }
