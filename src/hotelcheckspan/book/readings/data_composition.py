"""Chapter 01 (data composition): the numbers and readings its prose needs."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ...analyses import dataset_level
from ...reference import checks, paper
from .. import labels, prose, tables
from . import Passage, simulated_only
from .dataset_level_agreement import shared_records

# --- the rows of the chapter's paper-vs-ours tables (``tables.versus`` rows) ---------------------------


def shape_rows(corpus) -> list[tuple]:
    """Sizes beside the paper's: examples, splits, stage-2 examples, records and annotators."""
    ov = dataset_level.overview(corpus, "human")
    n_llm = int((corpus.records["kind"] == "model").sum())
    annotators = corpus.records[corpus.records["kind"] == "human"].groupby("campaign")["annotator_id"].nunique()
    ex = corpus.examples
    return [
        ("examples", "dataset/examples", len(ex)),
        ("short split", "dataset/splits/short", int((ex["split"] == "short").sum())),
        ("long split", "dataset/splits/long", int((ex["split"] == "long").sum())),
        ("stage-2 examples", "campaigns/stage2/examples", len(dataset_level.stage2_examples(corpus))),
        ("human records (the paper: none; beside ours, the release README's)", "dataset/human_records", ov["records"]),
        ("LLM records (the paper: none; beside ours, the release README's)", "dataset/llm_records", n_llm),
        ("stage-1 annotators", "campaigns/stage1/annotators", annotators["stage1"]),
        (
            "stage-2 annotators (the paper: candidates who qualified)",
            "campaigns/stage2/qualified",
            annotators["stage2"],
        ),
    ]


def length_rows(corpus) -> list[tuple]:
    """Description and summary lengths beside the paper's (Section 3.3)."""
    ex = corpus.examples
    return [
        ("description words, mean", "dataset/description_words/mean", float(ex["description_words"].mean()), 1),
        ("description words, min", "dataset/description_words/min", int(ex["description_words"].min())),
        ("description words, max", "dataset/description_words/max", int(ex["description_words"].max())),
        (
            "description sentences, mean",
            "dataset/description_sentences_mean",
            float(ex["description_sentences"].mean()),
            1,
        ),
        ("summary words, mean", "dataset/summary_words/mean", float(ex["summary_words"].mean()), 1),
        ("summary words, min", "dataset/summary_words/min", int(ex["summary_words"].min())),
        ("summary words, max", "dataset/summary_words/max", int(ex["summary_words"].max())),
    ]


def span_rows(corpus) -> list[tuple]:
    """Human spans, their lengths and their types' shares beside the paper's (Section 4.4, Table 2)."""
    ov = dataset_level.overview(corpus, "human")
    types = dataset_level.type_distribution(corpus, "human").set_index("type")
    return [
        ("human spans", "dataset/human_spans", ov["spans"]),
        ("spans per record", "dataset/spans_per_record", ov["spans_per_record"]),
        ("spans per error record", "dataset/spans_per_error_record", ov["spans_per_error_record"]),
        ("span words, mean", "dataset/span_words/mean", ov["span_words_mean"], 1),
        (
            "span words, median",
            "dataset/span_words/median",
            ov["span_words_median"],
            0 if float(ov["span_words_median"]).is_integer() else 1,  # a median of whole numbers: x or x.5
        ),
        ("span words, max", "dataset/span_words/max", ov["span_words_max"]),
        *[
            (f"{t} (%)", f"table2_human_span_types/{t}/pct", float(types.loc[t, "pct"]), 1)
            for t in paper.figures()["table2_human_span_types"]
        ],
    ]


def _differ(rows: Sequence[tuple], corpus) -> Passage:
    """The length and span figures that differ from the paper's by more than a tenth, led by what
    they rest on (this corpus; on the stand-in, each with its label)."""
    numeric = [r for r in rows if isinstance(tables.paper_value(r[1]), (int, float))]
    differ = [
        (m, ours, tables.paper_value(key), (*rest, 2)[0])
        for m, key, ours, *rest in numeric
        if abs(ours - tables.paper_value(key)) > 0.1 * abs(tables.paper_value(key))
    ]
    said = labels.kinds(numeric) if getattr(corpus, "simulated", False) else {}
    lead = labels.basis(corpus).text
    head = (
        f"- {lead} {prose.count_words(len(differ))} of the length and span figures "
        f"{'differs' if len(differ) == 1 else 'differ'} from the paper's by more than a tenth"
    )
    if not differ:
        return Passage(head + ".")
    return Passage(
        head
        + ":\n"
        + "\n".join(
            f"  - {m}: {tables.number(ours, d)} here against {tables.number(theirs, d)} in the paper"
            + (f" (*{said[m]}*)" if m in said else "")
            for m, ours, theirs, d in differ
        )
    )


# figures of paper_figures.yaml taken from the release README, which the paper never prints
README_FIGURES = {"dataset/human_records", "dataset/llm_records"}


def _shape_reading(corpus, shape: Sequence[tuple]) -> str:
    """How the sizes table's rows of the paper compare: on the stand-in, a *set* row is a generator
    input, so its agreement checks nothing and is not counted as a match; the README's rows stand
    apart (the paper prints neither figure)."""
    of_paper = [(m, key, ours) for m, key, ours, *_ in shape if key not in README_FIGURES]
    simulated = getattr(corpus, "simulated", False)
    inputs = [r for r in of_paper if simulated and labels.kind(r[1]) == "set"]
    rest = [r for r in of_paper if r not in inputs]
    matched = [r for r in rest if r[2] == tables.paper_value(r[1])]
    parts = []
    if inputs:
        kept = sum(ours == tables.paper_value(key) for _, key, ours in inputs)
        parts.append(
            (
                "are"
                if kept == len(inputs)
                else f"are, in {prose.count_words(kept)} of {prose.count_words(len(inputs))} rows,"
            )
            + " the paper's because the generator takes them as inputs (set), so their agreement checks nothing"
        )
    if rest:
        parts.append(
            (
                "all match the paper's"
                if len(matched) == len(rest)
                else f"match the paper's in {prose.count_words(len(matched))} of {prose.count_words(len(rest))} rows"
            )
            if not inputs
            else f"of the others, {prose.count_words(len(matched))} of {prose.count_words(len(rest))} match"
        )
    readme = [m.split(" (")[0] for m, key, *_ in shape if key in README_FIGURES]
    tail = (
        f" (the {prose.names(readme)} rows stand beside the release README's figures, which the paper never prints)"
        if len(readme) > 1
        else f" (the {prose.names(readme)} row stands beside the release README's figure, which the paper never prints)"
    )
    return "; ".join(parts) + (tail if readme else "")


def _readme_decomposition() -> dict[str, str]:
    """The release README's LLM records as Table 3's campaigns on the examples each one's printed
    rate allows: a campaign ran on all examples or on the short split, whichever reproduces its
    spans per record at the printed precision (gpt-4o's 1.10 = 272 / 248)."""
    reported = paper.figures()
    ds, t3 = reported["dataset"], reported["table3_llm_campaigns"]
    sizes = {"all": ds["examples"], "short": ds["splits"]["short"]}
    ran = {}
    for name, row in t3.items():
        fits = [where for where, n in sizes.items() if round(row["total"] / n, 2) == round(row["spans_per_record"], 2)]
        ran[name] = fits[0] if len(fits) == 1 else "all"  # the caption's reading where the rate cannot tell
    on_short = [n for n, where in ran.items() if where == "short"]
    n_all = len(ran) - len(on_short)
    total = n_all * sizes["all"] + len(on_short) * sizes["short"]
    gpt = t3[on_short[0]] if on_short else None
    per_example, rest = divmod(ds["llm_records"], sizes["all"])
    other = (
        f"but that count is as well {prose.count_words(per_example)} campaigns on all {sizes['all']} examples "
        f"({per_example} × {sizes['all']} = {ds['llm_records']}), "
        + ("fewer than" if per_example < len(t3) else "more than" if per_example > len(t3) else "as many as")
        + f" Table 3's {prose.count_words(len(t3))}"
        + shared_records(per_example, len(t3))
        + ", so it does not settle them"
        if rest == 0 and per_example != len(t3)
        else "and no whole number of campaigns on every example gives it"
    )
    verdict = tables.check_results().set_index("id").loc["t3_gpt4o_spans_per_record", "verdict"]
    rates = (
        "read as totals over those records, caption and rates contradict each other; read as Table 4's counts "
        "over the stage-2 examples, a base the table does not state, they do not, so the question depends on "
        "the reading"
        if verdict == checks.READING
        else "the paper contradicts itself, caption against rates, whether the rates are over those records or "
        "are Table 4's counts over the stage-2 examples"
        if verdict == checks.INCONSISTENT
        else f"caption and rates are {verdict}"
    )
    return {
        "t3_rates_said": rates,
        "readme_other": other,
        "readme_decomposition": (
            f"{prose.count_words(n_all)} campaigns on all {sizes['all']} examples and the "
            f"{prose.count_words(len(on_short))} {prose.names(on_short)} campaigns on the {sizes['short']} short ones "
            f"({n_all} × {sizes['all']} + {len(on_short)} × {sizes['short']} = {total})"
        ),
        "readme_reading": prose.matches(total, ds["llm_records"], 0, "exactly", "not"),
        "t3_short_name": on_short[0] if on_short else "",
        "t3_short_rate": tables.number(gpt["spans_per_record"]) if gpt else "",
        "t3_short_total": tables.number(gpt["total"]) if gpt else "",
    }


def _qualification(corpus, q: pd.DataFrame) -> dict[str, str | Passage]:
    """The qualification section: the paper's rate with its interval (``q``:
    ``dataset_level.qualification``), our stage-2 pool against the qualified count, and what the
    release's extra file could and could not tell."""
    row = q.iloc[0]
    extra = paper.figures()["dataset"]["extra_file"]
    n_stage2 = int(corpus.records.loc[corpus.records["campaign"] == "stage2", "annotator_id"].nunique())
    per_item = extra["records"] / extra["examples"]
    key = "campaigns/stage2/qualified"
    # the qualification task: items worth one point each, so as many items as the rule's points
    n_items = int(str(row["rule"]).split(" of ")[1].split()[0])
    least = int(row["candidates"]) * n_items  # records if every candidate answered every item
    relations = {r["id"]: r for r in checks.load()}
    bonus_above = relations["s43_qualification_two_thresholds"]["inputs"]["more_than"]["value"]
    return {
        "q_candidates": tables.number(int(row["candidates"])),
        "q_qualified": tables.number(int(row["qualified"])),
        "q_rule": str(row["rule"]),
        "q_bonus_above": prose.count_words(int(bonus_above)),
        "q_items": prose.count_words(n_items),
        "q_all_records": tables.number(least),
        "extra_items_reading": prose.compare(extra["examples"], n_items, 0, "more than", "fewer than", "as many as"),
        "extra_records_reading": prose.compare(extra["records"], least, 0, "more than", "fewer than", "as many as"),
        "q_rate": tables.number(float(row["rate"])),
        "q_low": tables.number(float(row["rate_low"])),
        "q_high": tables.number(float(row["rate_high"])),
        "q_annotators": tables.number(n_stage2),
        "q_annotators_reading": prose.compare(
            n_stage2,
            int(row["qualified"]),
            0,
            "more than (which the paper's account does not allow)",
            "fewer than",
            "as many as",
        ),
        "q_annotators_note": simulated_only(
            corpus,
            f"; on the stand-in that count is *{labels.kind(key)}* (the generator takes the qualified count as "
            "the number who annotated), so it checks nothing",
        ),
        "extra_examples": tables.number(extra["examples"]),
        "extra_records": tables.number(extra["records"]),
        "extra_spans": tables.number(extra["spans"]),
        "extra_per_item": tables.number(per_item, 1),
        "extra_whole": "a whole number" if float(per_item).is_integer() else "not a whole number",
        "q_note": simulated_only(
            corpus,
            "The stand-in simulates no qualification task: its stage-2 pool is the paper's qualified count, "
            f"taken as the number who annotated (the stage-2 annotators row of the sizes table is "
            f"*{labels.kind(key)}*); the candidates, the pass rule and the extra file have no stand-in figure "
            f"(*{labels.kind('campaigns/stage2/candidates')}*), so nothing about them emerges from it.",
        ),
    }


def bases(corpus) -> dict[str, Passage]:
    """What each Summary bullet of chapter 01 rests on (:func:`hotelcheckspan.book.labels.basis`)."""
    return {
        "sizes_basis": labels.basis(
            corpus,
            ("sizes", "dataset/examples"),
            ("human records", "dataset/human_records"),
            ("LLM records", "dataset/llm_records"),
            paper=True,
        ),
        "qualification_basis": labels.paper_basis(),
        "spans_basis": labels.basis(corpus, ("human spans", "dataset/human_spans")),
        "types_basis": labels.basis(corpus, ("human type shares", "table2_human_span_types/Incorrect/pct")),
    }


def readings(
    corpus,
    *,
    shape: Sequence[tuple],
    lengths: Sequence[tuple],
    spans: Sequence[tuple],
    dedup: pd.DataFrame,
    qualification: pd.DataFrame | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 01's prose glues: ``shape``, ``lengths`` and ``spans`` are the rows of
    its three paper-vs-ours tables (``tables.versus`` rows), ``dedup`` is
    ``dataset_level.dedup_summary(corpus)``, ``qualification`` ``dataset_level.qualification``
    (the section on Section 4.3's qualification task, when given)."""
    reported = paper.figures()
    ds = reported["dataset"]
    by = {m.split(" (")[0]: ours for m, _, ours, *_ in [*shape, *lengths, *spans]}
    n_examples = len(corpus.examples)
    models = corpus.records.loc[corpus.records["kind"] == "model"]
    human = dataset_level.overview(corpus, "human")
    types = dataset_level.type_distribution(corpus, "human").set_index("type")
    table2 = reported["table2_human_span_types"]
    paper_order = sorted(table2, key=lambda t: -table2[t]["count"])
    ours_order = list(types["count"].sort_values(ascending=False).index)
    t3 = reported["table3_llm_campaigns"]
    rising = dedup.sort_values("sources")["dropped %"].is_monotonic_increasing
    spans_label = labels.kinds(spans).get("human spans", "")
    extra = _qualification(corpus, qualification) if qualification is not None else {}
    return (
        extra
        | bases(corpus)
        | _readme_decomposition()
        | {
            "n_stage2": tables.number(by["stage-2 examples"]),
            "min_sources": tables.number(int(dedup["sources"].min())),
            "max_sources": tables.number(int(dedup["sources"].max())),
            "dedup_threshold": reported["preprocessing"]["dedup_rule"].split("> ")[1].split()[0],
            "dedup_trend": ("rises steadily" if rising else "does not rise steadily"),
            "dedup_note": simulated_only(
                corpus,
                " (on the stand-in by construction: every source of a hotel repeats the same templated facts, "
                "in one of two wordings, so more sources bring more near-duplicates)",
            ),
            "sources_note": simulated_only(
                corpus,
                " (on the stand-in the range and its mix are the generator's choice: the paper says only that "
                "each example aggregates 'one or more' descriptions)",
            ),
            "n_examples": tables.number(n_examples),
            "n_short": tables.number(by["short split"]),
            "n_long": tables.number(by["long split"]),
            "n_human_records": tables.number(human["records"]),
            "shape_reading": _shape_reading(corpus, shape),
            "n_llm_records": tables.number(len(models)),
            "n_llm_campaigns": prose.count_words(models["campaign"].nunique()),
            "readme_llm_records": tables.number(ds["llm_records"]),  # as the tables print counts: no separator
            "table3_campaigns": prose.count_words(len(t3)),
            "table3_records": tables.number(len(t3) * ds["examples"]),
            "table3_spans": tables.number(sum(r["total"] for r in t3.values())),
            "n_human_spans": tables.number(human["spans"]),
            "paper_human_spans": tables.number(ds["human_spans"]),
            "spans_reading": prose.compare(
                human["spans"], ds["human_spans"], 0, "more than", "fewer than", "as many as"
            ),
            "spans_gap_pct": tables.number(abs(100 * (human["spans"] / ds["human_spans"] - 1)), 1),
            "spans_label": simulated_only(corpus, f"; on the stand-in the count is {spans_label}").text
            if spans_label
            else "",
            "differ_block": _differ([*lengths, *spans], corpus),
            "simulation_note": simulated_only(corpus, labels.passage([*shape, *lengths, *spans], corpus)),
            "most_frequent_type": ours_order[0],
            "second_type": ours_order[1],
            "type_order_reading": "as in Table 2"
            if ours_order[:2] == paper_order[:2]
            else f"while Table 2 has {paper_order[0]} and {paper_order[1]}",
        }
    )
