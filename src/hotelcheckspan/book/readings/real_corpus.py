"""Chapter 08 (the real data-to-text corpus): the numbers and readings its prose needs.

Every value is rounded once, here, to what the chapter's tables show (two decimals), so a
sentence never says 0.48 beside a table cell showing 0.49.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ...analyses import example_level, span_level
from ...annotator_sets import AnnotatorSet, display_name
from ...corpora import KEY
from ...metrics import span_f1
from .. import prose, tables
from . import Passage, beyond_f1, kappa_paradox, span_gamma

DECIMALS = 2  # as the chapter's tables show them

# The span-F1 definitions the chapter sets side by side: the book's (every table's), then
# factgenie's own two (chapter 04, "Which span F1 did the paper report?")
BOOK = "book"
FACTGENIE = [d for d in span_f1.DEFINITIONS if d[0].startswith("factgenie")]
DEFINITIONS = [(BOOK, span_level.BOOK_METRIC, span_level.BOOK_CONVENTION), *FACTGENIE]
# how each is said in prose, and how it differs from the book's (which takes 1.2.1's character
# overlap and counts lengths on every text, as the May 2025 script does)
DEFINITION_WORDS = {
    "factgenie 1.2.1": ("factgenie 1.2.1's definition", "span lengths counted only on texts both sides marked"),
    "factgenie May 2025": ("factgenie's May 2025 script's", "greedy overlap credit"),
}


@tables.corpus_names
def alignment_table(llm: pd.DataFrame) -> tables.Table:
    """``example_level.models_vs_majority`` for readers: per type pooled and any error, each
    model's examples, errors, raw agreement and balanced accuracy with its interval."""
    columns = ["model", "label", "examples", "majority_errors", "model_errors", "agreement", "bacc", "bacc_low"]
    shown = llm[llm["label"].isin(["per type (pooled)", "Any"])][[*columns, "bacc_high"]]
    return tables.show(shown)


@tables.corpus_names
def definitions_table(means: pd.DataFrame) -> tables.Table:
    """:func:`span_level.definition_means` for readers: per comparison and match, F1 under each
    definition (the book's first), estimates only."""
    wide = means.pivot_table(index=["comparison", "match"], columns="definition", values="f1", sort=False)
    labels = [label for label in dict.fromkeys(means["definition"])]
    wide = wide[labels].reset_index()
    wide.columns.name = None
    return tables.show(wide, headers={label: f"F1 ({label})" for label in labels})


def best_by_definition(means: pd.DataFrame, human: str = "humans vs humans") -> dict[str, str]:
    """Which LLM agrees best with the humans by span F1, hard under each of factgenie's definitions
    (every LLM tied with the first once rounded is named), and whether that depends on the
    definition (against the book's, :func:`span_level.definition_means` rows ``BOOK``): it depends
    only where no LLM is first, alone or tied, under every definition. A sentence for the body and a
    shorter one for the summary."""
    hard = means[(means["match"] == "hard") & (means["comparison"] != human) & means["f1"].notna()]
    firsts, said = {}, []
    for label in dict.fromkeys(hard["definition"]):
        f1 = hard[hard["definition"] == label].set_index("comparison")["f1"].round(DECIMALS)
        top = [display_name(c.removeprefix("humans vs ")) for c in f1.index[f1 == f1.max()]]
        firsts[label] = set(top)
        if label != BOOK:
            name, how = DEFINITION_WORDS.get(label, (label, ""))
            who = f"{prose.names(top)}{', tied as shown' if len(top) > 1 else ''}"
            said.append((name, f" ({how})" if how else "", who, _n(f1.max())))
    if not said or BOOK not in firsts:
        return {"best_by_definition": "", "best_by_definition_short": ""}
    parts = [
        f"under {name}{how} the highest span F1, hard is {who}'s ({value})"
        if i == 0
        else f"under {name}{how} {who} ({value})"
        for i, (name, how, who, value) in enumerate(said)
    ]
    common = set.intersection(*firsts.values())
    if all(f == firsts[BOOK] for f in firsts.values()):
        verdict = "the same LLM has the highest estimate under every definition"
    elif common:  # first, alone or tied, under every definition: the highest does not depend on it
        verdict = (
            f"{prose.names(sorted(common))} {'has' if len(common) == 1 else 'have'} the highest estimate or "
            f"{'ties' if len(common) == 1 else 'tie'} for it under every definition, so the definition does not "
            "change which is highest"
        )
    else:
        verdict = "which LLM has the highest estimate depends on the definition"
    verdict += (
        " (estimates: whether the texts order two LLMs is a paired comparison's question, which chapter 09 sizes)"
    )
    short = ", ".join(f"under {name} {who}" for name, _, who, _ in said)
    return {
        "best_by_definition": f"{_capital(', '.join(parts))}: {verdict}.",
        "best_by_definition_short": f"{_capital(verdict)} ({short}).",
    }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def reliability_table(reliability: pd.DataFrame) -> tables.Table | None:
    """``example_level.reliability_ci`` for readers, a row per category (its kappa, alpha, AC1 and
    share of error votes with their intervals); no table (None) where the corpus has no pair of
    human raters, so ``reliability`` is empty."""
    if reliability.empty:
        return None
    return tables.show(example_level.reliability_summary(reliability), headers={"error type": "Category"})


def _n(v) -> str:
    return tables.number(round(float(v), DECIMALS), DECIMALS)


def _extreme(values: pd.Series, best: bool, decimals: int = DECIMALS) -> tuple[str, float]:
    """The label(s) with the highest (``best``) or lowest value as shown: every label tied with
    it once rounded to ``decimals`` is named, so the prose never singles out one of two equal
    cells."""
    shown = values.astype(float).round(decimals)
    target = shown.max() if best else shown.min()
    return prose.names(shown.index[shown == target]), float(target)


def llm_spread(shares: pd.DataFrame, human: str | None, category: str) -> str:
    """How much the judges differ in volume (spans) and in the share of ``category``, as
    the composition table shows them (shares with one decimal): ``shares`` has a row per campaign
    (``campaign, spans`` and a column per category); the LLMs are every row but ``human`` (None:
    every row)."""
    llms = shares if human is None else shares[shares["campaign"] != human]
    spans = llms["spans"].astype(int)
    share = llms[category].astype(float)
    if len(llms) == 1:
        return f"The LLM marks {spans.iloc[0]} spans, and {category} makes {tables.number(share.iloc[0], 1)}% of them."
    return (
        f"The LLMs mark between {spans.min():,} and {spans.max():,} spans, and {category} makes between "
        f"{tables.number(share.min(), 1)}% and {tables.number(share.max(), 1)}% of them."
    )


def llm_vs_humans(f1: float, low: float, high: float, human_f1: float) -> str:
    """Where the best LLM's F1 lies against the human-human F1, read with its interval (all as
    shown, two decimals): the estimate's side is a finding only where the human figure lies
    outside the interval. One phrase for the body and the summary, so they cannot part."""
    side = "above" if f1 > human_f1 else "below" if f1 < human_f1 else "level with"
    if low <= human_f1 <= high:
        return (
            f"{side} the human-human figure by its estimate, but that figure lies within its interval "
            "(a reading of one interval, not a paired test): these texts do not set the LLM apart from a second "
            "human group"
        )
    return f"{side} the human-human figure, which lies outside its interval"


# what the bundled splits' source (their SOURCE.md) says they hold, beyond what the data shows
BUNDLED_TEXTS = "generated from structured data (football matches, phone specifications, weather forecasts)"
WIDE = 0.1  # an interval is "wide" here where the median span-F1 interval of the chapter is wider than this


def about(corpus, plan) -> str:
    """The corpus the chapter ran on, after the overview's default: what the bundled iaa split
    holds, or where the corpus is (and its selection) and what it holds."""
    from .. import real_shape

    which = real_shape.bundled(corpus)
    groups, llms, texts = len(plan.groups), len(plan.models), len(corpus.examples)
    cats = len(corpus.categories)
    if which == "iaa":
        return (
            f"In that split, {groups} human annotator groups and {llms} LLMs marked errors in {texts} texts "
            f"{BUNDLED_TEXTS}, in {cats} categories: {coverage(corpus, plan)}. {group_ids(corpus, plan)}"
        )
    datasets = sorted(corpus.examples["dataset"].astype(str).unique())
    campaigns = corpus.campaigns("human")
    where = (
        "the data-to-text test split of the same corpus (bundled in `data/span-annotation-d2t-test/`)"
        if which == "test"
        else f"the corpus at `{Path(corpus.root).name}`{real_shape.selection_words(corpus)}"
    )
    return (
        f"Here it runs on {where}: {groups} human annotator group{'s' if groups != 1 else ''} in "
        f"{_campaigns(len(campaigns))} and {llms} LLM{'s' if llms != 1 else ''} marked errors in {texts:,} texts "
        f"of {prose.count_words(len(datasets))} dataset{'s' if len(datasets) != 1 else ''} ({', '.join(datasets)})"
        f"{' ' + BUNDLED_TEXTS if which == 'test' else ''}, in {cats} categories ({', '.join(corpus.categories)}). "
        f"{group_ids(corpus, plan)}"
    )


def _texts_per_group(corpus, plan) -> pd.Series:
    """How many texts each human group annotated (indexed by the group's spec)."""
    return pd.Series({g.spec: len(g.filter(corpus.records)[KEY].drop_duplicates()) for g in plan.groups}, dtype="int64")


def coverage(corpus, plan) -> str:
    """Who annotated how many texts: "28 of the 29 groups annotated all 12 texts and one 5, every
    LLM all 12" (the groups by how many texts, most first; the LLMs' texts are their records')."""
    per_group = _texts_per_group(corpus, plan)
    total = plan.human_texts

    def texts(n: int, first: bool) -> str:
        return (f"all {n:,} texts" if n == total else f"{n:,} of the {total:,} texts") if first else f"{n:,}"

    counts = per_group.value_counts().sort_index(ascending=False)  # most texts first
    if len(counts) == 1:
        who = "each group" if len(per_group) > 1 else "the group"
        humans = f"{who} annotated {texts(int(counts.index[0]), True)}"
    else:
        parts = [
            f"{prose.count_words(int(k))}{f' of the {len(per_group)} groups annotated' if i == 0 else ''} "
            f"{texts(int(n), i == 0)}"
            for i, (n, k) in enumerate(counts.items())
        ]
        humans = prose.names(parts)
    per_model = pd.Series([len(AnnotatorSet(m).filter(corpus.records)[KEY].drop_duplicates()) for m in plan.models])
    if per_model.empty:
        return humans
    llms = f"every LLM all {total:,}" if int(per_model.min()) == total else f"the LLMs {_range(per_model, words=False)}"
    return f"{humans}, {llms}"


def group_ids(corpus, plan) -> str:
    """What a human annotator group is in the export: one annotator id (each group's records
    carry one id) or several pooled."""
    rec = pd.concat([g.filter(corpus.records) for g in plan.groups], ignore_index=True)
    if rec.empty or "annotator_id" not in rec or rec["annotator_id"].isna().all():
        return ""
    ids = pd.Series({g.spec: g.filter(corpus.records)["annotator_id"].nunique() for g in plan.groups})
    if int(ids.max()) == 1:
        one = "Each human group is" if len(ids) > 1 else "The human group is"
        return f"{one} one annotator id of the export (its records name no other annotator)."
    return f"A human group pools {_range(ids, words=False)} annotator ids of the export."


def _campaigns(n: int) -> str:
    return "one human campaign" if n == 1 else f"{prose.count_words(n)} human campaigns"


def differs(corpus, plan) -> str:
    """How the corpus differs from HotelCheckSpan, the clause before "so no figure here is a
    stand-in": the bundled iaa split by what its source says, any other by its texts' length and
    its design (groups on texts)."""
    from .. import real_shape

    if real_shape.bundled(corpus) == "iaa":
        return (
            "The task (data-to-text, not hotel summaries), the categories, the texts (a paragraph, not one "
            "sentence) and the design (many annotators on a few texts, not four on hundreds) all differ"
        )
    text = corpus.examples["text"].dropna().astype(str)
    words = float(text.str.split().str.len().mean()) if len(text) else float("nan")
    per_text = _groups_per_text(corpus, plan)
    return (
        f"The task and its texts (a mean of {tables.number(words, 0)} words, not one sentence), the categories and "
        f"the design ({len(plan.groups)} human annotator group{'s' if len(plan.groups) != 1 else ''} on "
        f"{plan.human_texts:,} texts, {_range(per_text, words=False)} per text; not four on hundreds) all differ"
    )


def _groups_per_text(corpus, plan) -> pd.Series:
    keys = pd.concat([g.filter(corpus.records)[KEY].drop_duplicates() for g in plan.groups], ignore_index=True)
    return keys.value_counts()


def _range(counts: pd.Series, words: bool = True) -> str:
    """ "one to two" (``words``) or "5 to 12": the smallest and largest of ``counts``."""
    lo, hi = (int(counts.min()), int(counts.max())) if len(counts) else (0, 0)
    say = prose.count_words if words else (lambda n: f"{n:,}")
    return say(lo) if lo == hi else f"{say(lo)} to {say(hi)}"


def human_design(corpus, plan) -> str:
    """The human campaigns and their groups, for the composition table's reader."""
    campaigns = corpus.campaigns("human")
    texts = _texts_per_group(corpus, plan)
    n = len(plan.groups)
    each = (
        "every text"
        if len(texts) and int(texts.min()) == plan.human_texts
        else f"{_range(texts, words=False)} of the {plan.human_texts:,} texts"
    )
    if len(campaigns) == 1 and n == 1:
        return f"The human campaign is one factgenie campaign with one annotator group, which annotated {each}"
    if len(campaigns) == 1:
        return f"The human campaign is one factgenie campaign whose {n} annotator groups each annotated {each}"
    return (
        f"The {prose.count_words(len(campaigns))} human campaigns are factgenie campaigns whose {n} annotator groups "
        f"each annotated {each}"
    )


def warnings_said(corpus) -> str:
    n = len(corpus.warnings)
    if n == 0:
        return "Loading the export raised no warning: it has none of the quirks factgenie computes with."
    return (
        f"The export is real, so it has quirks: {n} warning{'s' if n != 1 else ''}, listed below. factgenie keeps "
        "these spans when it computes its metrics, and so does every table here (nothing is dropped)."
    )


def raters_phrase(plan) -> str:
    """Who the example-level coefficients compare: "the 28 groups that annotated every text"."""
    n = len(plan.raters)
    if not plan.pairs:
        return "the one human group" if len(plan.groups) == 1 else "the human group with the most texts"
    if plan.every_text:
        return f"the {n} groups that annotated every text"
    return f"the {n} groups that annotated the same {len(plan.texts):,} texts"


def raters_said(plan) -> str:
    """What the coefficients use, after "need raters who all rated the same texts: "."""
    if not plan.pairs:
        return (
            f"{plan.no_pair}, so there is no pair of raters and no chance-corrected agreement; the votes below are "
            f"{raters_phrase(plan)}'s on its {len(plan.texts):,} texts"
        )
    if plan.every_text:
        return f"here {raters_phrase(plan)}"
    return (
        f"here {raters_phrase(plan)} (the two groups that share the most texts, with every group that annotated "
        f"all of them; {plan.human_texts - len(plan.texts):,} of the {plan.human_texts:,} human-annotated texts lie "
        "outside this block and out of the example-level sections)"
    )


def kappa_reading(reliability: pd.DataFrame, cats: list[str], plan) -> str:
    if not plan.pairs:
        return f"As {plan.no_pair}, there is no Fleiss' kappa, Krippendorff's alpha or Gwet's AC1 here."
    kappa = reliability[reliability["measure"] == "fleiss_kappa"].set_index("label")["estimate"]
    per_cat = kappa.loc[[c for c in cats if c in kappa.index]]
    if per_cat.notna().sum() == 0:
        return "No category has both votes for and against an error here, so Fleiss' kappa is undefined for each."
    best_cat, best = _extreme(per_cat.dropna(), best=True)
    worst_cat, worst = _extreme(per_cat.dropna(), best=False)
    return (
        f"By Fleiss' kappa, the groups agree most on {best_cat} ({_n(best)}) and least on {worst_cat} "
        f"({_n(worst)}){_prevalence(reliability, best_cat, worst_cat)}; on whether a text has any error at all, "
        f"kappa is {_n(kappa.loc['Any'])}."
    )


def _prevalence(reliability: pd.DataFrame, best_cat: str, worst_cat: str) -> str:
    """Where Gwet's AC1 orders kappa's extremes the other way: kappa falls where error votes are
    rare (the prevalence effect), so its order is the order of how rare, not only of agreement."""
    ac1 = reliability[reliability["measure"] == "gwet_ac1"].set_index("label")["estimate"]
    if best_cat not in ac1.index or worst_cat not in ac1.index or pd.isna(ac1[best_cat]) or pd.isna(ac1[worst_cat]):
        return ""
    if ac1[worst_cat] <= ac1[best_cat]:
        return ""
    return (
        f", an order Gwet's AC1 reverses ({worst_cat} {_n(ac1[worst_cat])}, {best_cat} {_n(ac1[best_cat])}): "
        "kappa falls where error votes are rare"
    )


def _chapter(
    corpus,
    *,
    plan,
    composition: pd.DataFrame,
    reliability: pd.DataFrame,
    t6: pd.DataFrame,
    llm: pd.DataFrame,
    min_agree: int,
    n_boot: int,
    level: float,
) -> dict[str, str | Passage]:
    """Every value chapter 08 glues.

    ``plan``: :func:`hotelcheckspan.book.real_shape.plan` of ``corpus``;
    ``composition``: :func:`dataset_level.campaign_table` (its ``<category> %`` columns are the
    shares of each campaign's spans);
    ``reliability``: :func:`example_level.reliability_ci`'s frame (``label, measure, estimate``;
    empty without two raters);
    ``t6``: :func:`span_level.table6`'s frame; ``llm``: :func:`example_level.models_vs_majority`'s.
    """
    from .. import real_shape

    cats = list(corpus.categories)
    shares = composition[["name", "kind", "spans", *[f"{c} %" for c in cats]]].set_axis(
        ["campaign", "kind", "spans", *cats], axis=1
    )
    human_spans = corpus.spans.loc[corpus.spans["kind"] == "human", "type"].value_counts().reindex(cats, fill_value=0)
    top_category = str(human_spans.idxmax())
    by = t6.set_index(["comparison", "match"])
    has_humans = ("humans vs humans", "hard") in by.index and by.loc[("humans vs humans", "hard"), "pairs"] > 0
    human_f1 = round(float(by.loc[("humans vs humans", "hard"), "f1"]), DECIMALS) if has_humans else float("nan")
    llm_rows = t6[(t6["comparison"] != "humans vs humans") & (t6["match"] == "hard") & t6["f1"].notna()]
    best = llm_rows.loc[llm_rows["f1"].idxmax()]
    best_f1, low, high = (round(float(best[c]), DECIMALS) for c in ("f1", "f1_low", "f1_high"))
    widths = (t6["f1_high"] - t6["f1_low"]).dropna()
    data_to_text = real_shape.bundled(corpus) is not None
    out = {
        "about": Passage(about(corpus, plan)),
        "differs": differs(corpus, plan),
        "n_groups": str(len(plan.groups)),
        "n_models": str(len(plan.models)),
        "n_examples": f"{len(corpus.examples):,}",
        "n_boot": f"{n_boot:,}",
        "ci_level": f"{level:.0%}",
        "interval_width": "wide" if len(widths) and float(widths.median()) > WIDE else "narrow",
        "n_categories": str(len(cats)),
        "n_warnings": str(len(corpus.warnings)),
        "warnings_said": warnings_said(corpus),
        "human_design": human_design(corpus, plan),
        "top_human_category": top_category,
        "llm_spread": llm_spread(shares[shares["kind"] == "model"], None, top_category),
        "raters_phrase": raters_phrase(plan),
        "raters_said": raters_said(plan),
        "kappa_reading": kappa_reading(reliability, cats, plan),
        "best_llm": display_name(str(best["comparison"]).removeprefix("humans vs ")),
        "best_llm_f1": tables.interval(best_f1, low, high),
        "contested_who": "the groups"
        if plan.pairs
        else "the human group and the LLMs (one group alone never splits a text)",
    }
    kind = "real data-to-text annotations" if data_to_text else "these real annotations"
    if has_humans:
        out["human_f1_said"] = (
            f"Two human groups share {_n(human_f1)} F1 on average (hard; soft "
            f"{_n(by.loc[('humans vs humans', 'soft'), 'f1'])})."
        )
        out["best_llm_vs_humans"] = "lies " + llm_vs_humans(best_f1, low, high, human_f1)
        out["summary_humans"] = (
            f"On {kind}, two human groups share a span F1, hard, of {_n(human_f1)} on average: humans disagree on "
            "the words even where they agree on the category, so an LLM's span F1 against humans has to be read "
            "against the human-human figure;"
        )
    else:
        out["human_f1_said"] = f"As {plan.no_pair}, there is no human-human row."
        out["best_llm_vs_humans"] = "has no human-human figure to be read against"
        out["summary_humans"] = f"On {kind} there is no human-human span F1 to read an LLM's against ({plan.no_pair});"
    out |= _majority(llm, plan, min_agree)
    out["summary_kappa"] = _summary_kappa(reliability, cats, plan)
    return out


def _majority(llm: pd.DataFrame, plan, min_agree: int) -> dict[str, str]:
    """The majority rule of the BACC section and its reading."""
    if plan.pairs:
        rule = (
            f"A category counts on a text where at least {min_agree} of {raters_phrase(plan)} agree (the share the "
            "paper's rule, all but one of four annotators, asks); the majority label is then the truth."
        )
    else:
        rule = (
            f"With {raters_phrase(plan)} alone on its texts, its vote is the truth on each of its "
            f"{len(plan.texts):,} texts (a majority of one: no text is left out for being unclear)."
        )
    pooled = llm[llm["label"] == "per type (pooled)"].set_index("model").dropna(subset=["bacc"])
    if pooled.empty:
        said = "No LLM shares a text with a clear majority here, so no balanced accuracy is defined."
    else:
        said = _pooled_bacc(pooled)
    return {"majority_said": rule, "bacc_said": f"{said} {_any_bacc(llm)}".strip()}


def _shown(v) -> float:
    return round(float(v), DECIMALS)


def _overlap(a: pd.Series, b: pd.Series) -> bool:
    """Whether two BACC intervals overlap as printed (bounds that touch there overlap)."""
    bounds = (a["bacc_low"], a["bacc_high"], b["bacc_low"], b["bacc_high"])
    if any(pd.isna(x) for x in bounds):
        return True  # no interval: nothing tells the two apart
    lo_a, hi_a, lo_b, hi_b = (_shown(x) for x in bounds)
    return lo_a <= hi_b and lo_b <= hi_a


def _pooled_bacc(pooled: pd.DataFrame) -> str:
    """The LLM(s) with the highest pooled BACC as shown, read with the intervals (an LLM whose
    interval overlaps the first's, or that has none, is not told apart from it), the next LLM's
    difference in marks where it finds as many majority errors, and whether BACC orders the LLMs
    as raw agreement does (values within half a point tied)."""
    shown = pooled["bacc"].map(_shown)
    top = list(shown.index[shown == shown.max()])
    first = pooled.loc[top[0]]
    one = len(top) == 1
    value = (
        tables.interval(_shown(first["bacc"]), first["bacc_low"], first["bacc_high"])
        if one
        else f"{_n(first['bacc'])}, tied as shown"
    )
    n, errors = int(first["examples"]), int(first["majority_errors"])
    fewer = min(errors, n - errors)
    few = (
        f"; BACC's {'error' if errors <= n - errors else 'error-free'} half rests on "
        f"{prose.count_words(fewer)} of them, fewer than ten"
        if 0 < fewer < 10
        else ""
    )
    said = (
        f"Pooled over categories ({n:,} decisions, {errors:,} of them majority errors{few}), the majority is "
        f"followed best by {prose.names(display_name(m) for m in top)} (BACC {value})"
    )
    others = pooled.drop(index=top)
    no_interval = [m for m in top if pd.isna(pooled.loc[m, "bacc_low"]) or pd.isna(pooled.loc[m, "bacc_high"])]
    it, its = ("it", "its") if one else ("them", "their")
    if len(others) and no_interval:
        said += (
            f", without an interval for {prose.names(display_name(m) for m in no_interval)} (too many resamples "
            f"leave BACC undefined), so nothing here tells {it} apart from the other LLMs"
        )
    elif len(others):
        near = [m for m, r in others.iterrows() if any(_overlap(pooled.loc[t], r) for t in top)]
        apart = [display_name(m) for m in others.index if m not in near]
        none = any(pd.isna(others.loc[m, "bacc_low"]) or pd.isna(others.loc[m, "bacc_high"]) for m in near)
        missing = " or are missing" if none else ""
        if not apart:
            who = "the other LLM's" if len(others) == 1 else "every other LLM's"
            said += (
                f"; {its} interval overlaps {who}{missing}, which neither orders nor ties them (a paired comparison "
                "on the same resamples would tell)"
            )
        elif near:
            said += (
                f"; {its} interval is clear of {prose.names(apart)}'s and overlaps those of "
                f"{prose.names(display_name(m) for m in near)}{missing}, which neither orders nor ties them (a "
                "paired comparison on the same resamples would tell)"
            )
        else:
            said += f", {its} interval{'' if one else 's'} clear of every other LLM's"
        said += _next_marks(first, others)
    if len(pooled) > 1:
        same = span_level.tied_ranks(pooled["bacc"]).tolist() == span_level.tied_ranks(pooled["agreement"]).tolist()
        order = "in the same order as" if same else "in a different order from"
        said += f"; balanced accuracy ranks the LLMs {order} raw agreement here (values within half a point tied)."
    else:
        said += "; with one LLM there is no ranking to compare with raw agreement's."
    return said


def _next_marks(first: pd.Series, others: pd.DataFrame) -> str:
    """ " (the next, X at 0.92, finds the majority's errors as often and marks one more decision as an
    error)": how little parts the first from the next, where the next finds the same majority errors
    (its lower BACC is then its extra marks alone); "" otherwise."""
    shown = others["bacc"].map(_shown)
    nxt = others[shown == shown.max()]
    more = nxt["model_errors"].astype(int) - int(first["model_errors"])
    same_recall = (nxt["recall_error"] == first["recall_error"]).all()
    if not same_recall or more.nunique() != 1 or int(more.iloc[0]) <= 0:
        return ""
    k, one = int(more.iloc[0]), len(nxt) == 1
    return (
        f" (the next, {prose.names(display_name(m) for m in nxt.index)} at {_n(nxt['bacc'].iloc[0])}, "
        f"{'finds' if one else 'each find'} the majority's errors as often and mark{'s' if one else ''} "
        f"{prose.count_words(k)} more decision{'s' if k != 1 else ''} as an error)"
    )


def _any_bacc(llm: pd.DataFrame) -> str:
    """What the any-error BACC rests on: the texts with a clear majority on "any error" and how
    many of them have none (BACC's error-free half rests on those), and whether it has intervals."""
    anyrow = llm[llm["label"] == "Any"]
    if anyrow.empty:
        return ""
    clear = anyrow["examples"].astype(int)
    free = (anyrow["examples"] - anyrow["majority_errors"]).astype(int)
    if int(clear.max()) == 0:
        return "On whether a text has any error, no text has a clear majority, so there is no BACC."
    texts = f"{_range(clear, words=False)} text{'s' if int(clear.max()) != 1 else ''}"
    k = int(free.max())
    if int(free.min()) != k:
        rests = f"{_range(free, words=False)} of them without an error, depending on the LLM"
    else:
        rests = f"{prose.count_words(k)} of them without an error"
    if k == 0:
        tail = ", so BACC is undefined there"
    else:
        undefined = anyrow["bacc"].notna() & (anyrow["bacc_low"].isna() | anyrow["bacc_high"].isna())
        tail = (
            f": the error-free half of each LLM's BACC rests on "
            f"{'that text' if k == 1 else f'those {prose.count_words(k)} texts'}"
            + (
                ", and too many resamples hold no error-free text for BACC to have an interval"
                if undefined.all()
                else ", and some LLMs' BACC has no interval (too many resamples hold no error-free text)"
                if undefined.any()
                else ""
            )
        )
    return f"On whether a text has any error, {texts} have a clear majority, {rests}{tail}."


def _summary_kappa(reliability: pd.DataFrame, cats: list[str], plan) -> str:
    if not plan.pairs:
        return (
            f"Chance-corrected agreement needs two raters on a common text, and {plan.no_pair}: the span-level "
            "comparisons with the LLMs carry the chapter."
        )
    kappa = reliability[reliability["measure"] == "fleiss_kappa"].set_index("label")["estimate"]
    per_cat = kappa.loc[[c for c in cats if c in kappa.index]].dropna()
    if per_cat.empty:
        return "Fleiss' kappa is undefined for every category here (no category has votes both for and against)."
    best_cat, best = _extreme(per_cat, best=True)
    worst_cat, worst = _extreme(per_cat, best=False)
    return (
        f"Chance-corrected agreement differs between categories: Fleiss' kappa runs from {_n(worst)} on {worst_cat} "
        f"to {_n(best)} on {best_cat}{_prevalence(reliability, best_cat, worst_cat)}."
    )


def readings(
    corpus,
    *,
    prevalence: pd.DataFrame | None = None,
    beyond: pd.DataFrame | None = None,
    gamma_beside: pd.DataFrame | None = None,
    gamma_ranks: dict | None = None,
    by_definition: pd.DataFrame | None = None,
    **computed,
) -> dict:
    """Every value chapter 08 glues: the chapter's own (keyword arguments as :func:`_chapter` takes
    them) and, given them, its sections' AC1 (``prevalence``), beyond F1 and γ readings, and the
    best LLM under factgenie's definitions (``by_definition``: :func:`span_level.definition_means`
    under :data:`DEFINITIONS`)."""
    out = _chapter(corpus, **computed)
    if by_definition is not None:
        out |= best_by_definition(by_definition)
    plan = computed["plan"]
    if prevalence is not None and plan.pairs and prevalence["gwet_ac1"].notna().any():
        kp = kappa_paradox.readings(prevalence, prefix="kp8")
        out |= kp
        out["ac1_reading"] = (
            f"On {kp['kp8_type']}, {kp['kp8_share']}% of the groups' decisions are error votes; the groups agree on "
            f"{kp['kp8_pa']} of their pairs of decisions there, kappa expects {kp['kp8_pe_kappa']} by chance and is "
            f"{kp['kp8_kappa']}, AC1 expects {kp['kp8_pe_ac1']} and is {kp['kp8_ac1']}. AC1 is above kappa for "
            f"{kp['kp8_above']} categories."
        )
    elif prevalence is not None:
        out["ac1_reading"] = f"As {plan.no_pair}, there is no AC1 and no kappa to set beside it."
    if beyond is not None:
        out |= beyond_f1.readings(beyond, prefix="bf8", t6=computed["t6"])
    if gamma_beside is not None:
        out |= span_gamma.readings(corpus, beside=gamma_beside, agreement=gamma_ranks)
    return out
