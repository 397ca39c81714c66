"""The readings of chapters 04 (span-level agreement), 05 (LLM annotators) and 09 (sample size):
every value is text for readers, the paper's figures are read right, the readings follow the
numbers they describe, and the simulation is explained only on a simulated corpus."""

import dataclasses

import numpy as np
import pandas as pd
import pytest

from hotelcheckspan.analyses import dataset_level, example_level, impressions, llm_annotators, span_level
from hotelcheckspan.analyses import sample_size as ss
from hotelcheckspan.annotator_sets import HUMAN_SETS, NOT_IN_PAPER, display_name
from hotelcheckspan.book import prose, tables
from hotelcheckspan.book.readings import Passage
from hotelcheckspan.book.readings import llm_annotators as r05
from hotelcheckspan.book.readings import sample_size as r09
from hotelcheckspan.book.readings import span_level_agreement as r04
from hotelcheckspan.reference import paper


def real_copy(corpus):
    """The bundled corpus with every config saying it is not simulated."""
    return dataclasses.replace(corpus, configs={k: {**v, "simulated": False} for k, v in corpus.configs.items()})


def assert_readable(values: dict):
    for name, value in values.items():
        assert isinstance(value, (str, Passage)), f"{name} is {type(value).__name__}"
        text = value.text if isinstance(value, Passage) else value
        assert "nan" not in text.lower().split(), f"{name} shows a missing value: {text!r}"


# --- chapter 04 ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def span_tables(corpus):
    pairs, counts = span_level.pairwise(corpus)
    t6 = span_level.table6(pairs, counts, n_boot=50, seed=0)
    defs = span_level.definitions(corpus, n_boot=20, seed=0)
    return {"t6": t6, "pairs": pairs, "defs": defs, "effect": span_level.convention_effect(corpus)}


@pytest.fixture(scope="module")
def ch04(corpus, span_tables):
    return r04.readings(corpus, n_boot=50, **span_tables)


def test_ch04_values_are_text(ch04):
    assert_readable(ch04)
    assert ch04["n_boot"] == "50"


def test_ch04_reads_the_papers_table6_right(ch04):
    # Section 6.3: gpt-4o's soft F1 0.26 lies within the human rows' 0.24-0.28, which the paper calls
    # human-level; its stage-2 "highest" 0.28 is a tie with stage 1
    assert ch04["paper_gpt_soft"] == "0.26"
    assert ch04["paper_human_soft"] == "0.24 to 0.28"
    assert ch04["paper_gpt_place"] == "within the range of the human rows"
    assert ch04["paper_top_reading"] == "a tie"
    assert ch04["paper_top_rows"] == "Group A - Group B (Stage 1) and Group A - Group B (Stage 2)"
    # o3-mini: the both-marked floor counts characters (the metric's unit), under the stated assumption of
    # a 2-character span against a 24-word summary of at most 9 characters a word: 0.62 x 2 / 216 = 0.0057;
    # in words it would be 0.62 / 24 = 0.026. The printed 0.03 lies above either floor and far below the
    # typical 0.50: factgenie 1.2.1's rule reaches it, far from typical lengths; span counting cannot give
    # the hard precision
    assert (ch04["o3_p"], ch04["o3_r"]) == ("0.62", "0.03")
    assert ch04["o3_floor"] == f"{0.62 * 2 / (9 * 24):.3f}" == "0.006"
    assert ch04["o3_floor_words"] == f"{0.62 / 24:.3f}" == "0.026"
    assert (ch04["floor_span_chars"], ch04["floor_summary_chars"]) == ("2", "216")
    assert ch04["both_verdict"] == "can" and ch04["both_reach"].startswith("only far from typical lengths")
    assert ch04["span_hard_reachable"] == "cannot" and ch04["span_soft_reachable"] == "can"
    assert ch04["o3_f1s_hm"] == "0.06"  # 2 x 0.62 x 0.03 / 0.65, against the printed 0.05


def test_ch04_gpt4o_reading_follows_the_books_table6(ch04, span_tables):
    soft = span_tables["t6"][span_tables["t6"]["match"] == "soft"].set_index("comparison")["f1"]
    gpt, human = soft[r04.GPT_ROW], soft[r04.HUMAN_ROWS]
    assert ch04["gpt_place"] == r04.place(gpt, human.min(), human.max())
    assert ch04["gpt_soft"].startswith(tables.number(gpt))
    assert ch04["best_human_row"] == human.idxmax()


def test_place_reads_at_the_precision_shown():
    assert r04.place(0.31, 0.26, 0.29) == "above every human row"
    assert r04.place(0.2, 0.24, 0.28) == "below every human row"
    assert r04.place(0.284, 0.24, 0.28) == "within the range of the human rows"  # 0.28 once rounded


def test_ch04_row_readings_count_both_kinds_of_pair(corpus, ch04):
    counts = span_level.annotator_pairs(corpus).set_index("comparison")
    specs = {c["name"]: len(c["ref"]) * len(c["hyp"]) for c in span_level.load_comparisons()}
    assert counts["set pairs"].to_dict() == specs
    assert ch04["group_set_pairs"] == "1"
    assert int(ch04["group_annotator_pairs"]) == counts.loc[r04.GROUP_ROW, "annotator pairs"] > 1
    # a model campaign is one annotator: human-LLM annotator pairs are the human annotators times the models
    humans = corpus.records[corpus.records["kind"] == "human"]["annotator_id"].nunique()
    assert counts.loc["Human - LLM (Gemma3)", "annotator pairs"] == humans


def test_ch04_noise_counts_overlapping_rows(span_tables):
    out = r04.noise(span_tables["t6"], span_tables["pairs"])
    per_match = span_tables["t6"].groupby("match").size()
    assert int(out["n_row_pairs"]) == sum(n * (n - 1) // 2 for n in per_match)
    assert 0 <= int(out["overlapping_rows"]) <= int(out["n_row_pairs"])


def test_ch04_noise_counts_intervals_as_printed():
    # two rows whose intervals are 0.2685 and 0.2720 apart print as [0.17, 0.27] and [0.27, 0.34]: they
    # touch as a reader sees them, so they count as overlapping; a third clear of both does not
    t6 = pd.DataFrame(
        {
            "comparison": ["a", "b", "c"],
            "match": ["soft"] * 3,
            "f1": [0.22, 0.31, 0.6],
            "f1_low": [0.17, 0.2720, 0.5],
            "f1_high": [0.2685, 0.34, 0.7],
        }
    )
    pairs = pd.DataFrame({"comparison": ["a", "b", "c"], "match": ["soft"] * 3, "f1": [0.2, 0.3, 0.6]})
    out = r04.noise(t6, pairs)
    assert (out["overlapping_rows"], out["n_row_pairs"]) == ("1", "3")


def test_ch04_simulation_text_only_on_a_simulated_corpus(corpus, span_tables):
    stand_in = r04.readings(corpus, n_boot=50, **span_tables)
    real = r04.readings(real_copy(corpus), n_boot=50, **span_tables)
    assert stand_in["simulated_note"].text and stand_in["standin_note"].text
    assert real["simulated_note"].text == "" and real["standin_note"].text == ""
    # the labels are the rule's, not typed
    assert f"*{tables.figure_status('table6_span_level/Human - LLM (GPT-4o)/F1_S')}*" in stand_in["simulated_note"].text


# --- chapter 05 ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ch05_inputs(corpus):
    stage2 = dataset_level.stage2_examples(corpus)
    models = corpus.campaigns("model")
    humans = [s.spec for s in HUMAN_SETS]
    comparisons = [{"name": m, "ref": humans, "hyp": [m], "examples": "stage2"} for m in models] + [
        {"name": r05.HUMAN_PR_ROW, "ref": humans[:2], "hyp": humans[2:], "examples": "stage2"}
    ]
    pairs, counts = span_level.pairwise(corpus, comparisons, matches=("soft",))
    contested = llm_annotators.contested_examples(corpus, "gpt-4o", n=3, examples=stage2)
    return {
        "stage2": stage2,
        "vol": llm_annotators.volume(corpus, stage2),
        "pr": span_level.table6(pairs, counts, n_boot=50).rename(columns={"comparison": "name"}),
        "bias": llm_annotators.type_bias(corpus, stage2),
        "contested": contested,
        "reasons": llm_annotators.reasons(corpus, "gpt-4o", n=20, examples=contested),
    }


@pytest.fixture(scope="module")
def ch05(corpus, ch05_inputs):
    return r05.readings(corpus, **ch05_inputs)


def test_ch05_values_are_text(ch05):
    assert_readable(ch05)


def test_ch05_longer_spans_read_from_table3(ch05):
    # Table 3 against Section 4.4's 4 words: gemma-3 (4.7) and o3-mini (LS) (5.5, on 4 spans) are
    # longer; gpt-4o (3.8) and gpt-4o (LS) (3.9) are not
    assert ch05["paper_longer"] == "gemma-3 and o3-mini (LS) with only 4 spans"
    assert "gpt-4o" not in ch05["paper_longer"]
    assert ch05["paper_gpt_words"] == "3.8"
    # 3.8 (3.75 to 3.85) against the humans' "4" (3.5 to 4.5): the order depends on the rounding
    assert ch05["paper_gpt_vs_human"].startswith("shorter or longer than the humans' depending on how")
    # within that rounding gpt-4o (3.8) and gpt-4o (LS) (3.9) may be longer too; o3-mini's 3.0 may not
    assert ch05["paper_longer_rounding"].endswith("gpt-4o and gpt-4o (LS) may be longer too")
    # whole summaries among gpt-4o's spans, every other span one word: s <= (3.85 - 1) / (L - 1)
    # ... and L at the least its rounding allows (the summaries' mean 14.7 may be 14.65): a bound
    assert ch05["whole_bound_mean"] == f"{100 * 2.85 / 13.65:.1f}%" == "20.9%"
    assert ch05["whole_bound_max"] == f"{100 * 2.85 / 6:.1f}%" == "47.5%"


def test_ch05_shows_the_llm_checks_once_per_problem():
    """Chapter 05's checks of the paper: the LLM campaigns' only (the human groups' are chapter 02's),
    Section 6.2's o3-mini agreements and footnote 7 added, the rows of one problem side by side."""
    from hotelcheckspan.reference import checks

    results = checks.check()
    shown = r05.paper_checks(results)
    ids = list(shown["id"])
    for human in ("appb_no_significant_difference", "s61_volume_change_per_record", "s61_similar_counts_humans",
                  "s61_no_shift_pooled", "t4_st1a_shares", "t5_types_votes_within_t4_spans"):  # fmt: skip
        assert human not in ids, human
    for rid in ("s62_o3mini_any_agreement", "s62_o3mini_ls_true_positives", "s8_prompts_in_appendix",
                "s62_gemma3_true_positives", "s5_ls_prompt_description", "s61_similar_distributions"):  # fmt: skip
        assert rid in ids, rid
    problem = shown["problem"].where(shown["problem"] != "–", shown["id"])
    bad = problem[shown["verdict"] == checks.INCONSISTENT]
    # each problem's rows are contiguous, and the count said is of distinct problems
    assert all(
        bad.iloc[i] != bad.iloc[j] or all(bad.iloc[i:j] == bad.iloc[i])
        for i in range(len(bad))
        for j in range(i, len(bad))
    )
    # the chapter's table shows exactly these rows
    table = tables.inconsistencies(r05.CHAPTER, select=r05.paper_checks)
    assert list(table.results["id"]) == ids
    said = r05.checks_readings(shown)
    n = checks.problems(shown).shape[0]
    if n:
        assert f"{prose.count_words(n)} distinct problem" in said["checks_said"]
    else:  # no row found inconsistent: the sentence says so instead of counting none
        assert said["checks_said"].startswith("No row is found inconsistent") and not said["check_problems"].text
    # one made-up inconsistent row: counted in one sentence, singular
    one = shown.head(1).assign(verdict=checks.INCONSISTENT, problem="a problem", group="g", relations="x")
    said_one = r05.checks_readings(one)["checks_said"]
    assert said_one.startswith("The one row found inconsistent") and "is one distinct problem:" in said_one
    gpt = [
        i
        for i in ids
        if i in ("t3_gpt4o_spans_per_record", "t3_gpt4o_ls_spans_per_record", "t3_gpt4o_spread", "t3_gpt4o_ls_spread")
    ]
    # the gpt-4o campaigns' rates fit read as Table 4's counts over the stage-2 examples: shown, no problem
    assert len(gpt) == 4 and not checks.problems(shown)["relations"].str.contains("t3_gpt4o_spans_per_record").any()


def test_ch05_few_span_bias_rows_are_flagged():
    bias = pd.DataFrame({"spans": [89, 1, 1]}, index=["gemma-3", "o3-mini", "o3-mini-ls"])
    assert r05._few_bias_rows(bias) == (
        "The o3-mini and o3-mini (LS) rows rest on 1 span each: their points say nothing about a bias."
    )
    assert r05._few_bias_rows(bias.iloc[:1]).startswith("Every row rests on at least")


def test_ch05_lengths_compare_full_set_with_full_set(corpus, ch05):
    """Table 3 is on all 496 examples: ours must be too, not the stage-2 subset."""
    full = llm_annotators.volume(corpus).set_index("name")
    human = dataset_level.overview(corpus)["span_words_mean"]
    assert ch05["human_words"] == tables.number(human, 1)
    longer = [m for m in corpus.campaigns("model") if full.loc[m, "mean_words"] > human]
    assert longer and all(full.loc[m, "spans"] >= r05.FEW_SPANS for m in longer)
    assert ch05["ours_longer"] == (prose.names([display_name(m) for m in longer]) or "none")
    # the stage-2 subset gives other lengths, which Table 3 must not be set beside
    subset = llm_annotators.volume(corpus, dataset_level.stage2_examples(corpus)).set_index("name")
    assert not np.allclose(subset.loc[longer, "mean_words"], full.loc[longer, "mean_words"])


def test_ch05_volume_label_is_the_rules(corpus, ch05):
    status = tables.figure_status("table4_dataset_level_stage2_subset/gpt-4o (LS)/total")
    assert ch05["volume_status"] == status
    assert f"*{status}*" in ch05["volume_note"].text


def test_ch05_figure_keys_map_our_names_to_the_papers_rows():
    assert r05.figure_key("table4_dataset_level_stage2_subset", "gpt-4o-ls", "total") == (
        "table4_dataset_level_stage2_subset/gpt-4o (LS)/total"
    )
    assert r05.figure_key("table4_dataset_level_stage2_subset", "St. 2B", "total").endswith("St. 2B/total")
    assert r05.figure_key("table3_llm_campaigns", "my-judge", "avg_len") == NOT_IN_PAPER
    assert tables.paper_value(r05.figure_key("table3_llm_campaigns", "o3-mini-ls", "avg_len")) == 5.5


def test_ch05_precision_reading_names_models_clearly_above():
    pr = pd.DataFrame(
        {
            "name": ["a", "b", r05.HUMAN_PR_ROW],
            "precision": [0.5, 0.2, 0.3],
            "precision_low": [0.4, 0.1, 0.25],
            "precision_high": [0.6, 0.3, 0.35],
            "recall": [0.2, 0.6, 0.25],
        }
    )
    out = r05.precision_recall(pr)
    assert out["precision_reading"] == "a has a precision clearly above the humans'"
    assert (out["top_recall"], out["low_recall"], out["recall_vs_humans"]) == ("b", "a", "higher than")


def test_ch05_simulation_text_only_on_a_simulated_corpus(corpus, ch05_inputs):
    real = r05.readings(real_copy(corpus), **ch05_inputs)
    # every note of the simulation is gone; the Summary's bases say what a real corpus rests on, with no label
    assert all(v.text == "" for k, v in real.items() if isinstance(v, Passage) and not k.endswith("_basis"))
    assert {v.text for k, v in real.items() if k.endswith("_basis")} == {
        "On this corpus:",
        "From the paper's own figures, and on this corpus:",
    }


# --- chapter 09 ------------------------------------------------------------------------------------


def summary_frame(rows):
    """A ``stable_n_summary``-shaped frame from (measure, pair, difference, n_with_replacement, n_high)."""
    f = pd.DataFrame(rows, columns=["measure", "pair", "difference", "n_with_replacement", "n_high"])
    return f.assign(n_subsets=25.0, n_low=25.0, corpus_size=245, max_n=980)


def test_ch09_stability_readings_find_the_hardest_pairs():
    inf = np.inf
    s = summary_frame(
        [
            ("span F1, soft", "gpt-4o > gemma-3", 0.1, 25, 50),
            ("span F1, soft", "gpt-4o > gpt-4o-ls", 0.01, 400, inf),
            ("span F1, soft", "gemma-3 > o3-mini", 0.2, 25, 25),
            ("span F1, hard", "gpt-4o > gemma-3", 0.05, 100, 300),
            ("span F1, hard", "o3-mini > o3-mini-ls", 0.0, 25, 25),
            ("balanced accuracy", "gpt-4o > gemma-3", 0.02, inf, inf),
            ("balanced accuracy", "gemma-3 > o3-mini", 0.3, 25, 25),
        ]
    )
    out = r09.stability_readings(s, corpus_size=245, smallest_n=25)
    assert out["soft_hard_n"] == "400"
    assert out["soft_beyond"] == "1" and out["soft_early"] == "2"
    assert out["hard_ties"] == "Tied on the full set, and so never ranked: o3-mini and o3-mini (LS)."  # display names
    assert out["bacc_hard_n"] == "> 980" and out["bacc_hard_ci"] == "25 to > 980"
    assert out["prompt_pairs_hardest"] == "1"  # soft's hardest is a prompt pair; hard's and BACC's are not
    assert out["close_pairs"] == "gpt-4o vs gpt-4o (LS)"  # the only soft pair not settled at 25
    assert out["soft_hard_pair"] == "gpt-4o > gpt-4o (LS)"
    assert out["bacc_vs_soft"] == "less stably than"
    # the soft pairs settled at 25 are 0.1 and 0.2 apart, the one not settled 0.01: nothing lies between
    assert (out["gap_settled"], out["gap_unsettled"]) == ("0.100", "0.010")
    assert out["gap_split"].startswith("No pair lies between 0.010 and 0.100")


def test_ch09_stability_readings_flag_orders_one_example_decides_and_judges_at_chance():
    s = summary_frame(
        [
            ("span F1, soft", "o3-mini-ls > o3-mini", 0.003, np.inf, np.inf),
            ("span F1, soft", "gpt-4o > gemma-3", 0.1, 36, 156),
            ("span F1, hard", "gpt-4o > gemma-3", 0.03, 326, np.inf),
            ("balanced accuracy", "gpt-4o > gemma-3", 0.012, np.inf, np.inf),
            ("balanced accuracy", "gemma-3 > o3-mini", 0.045, 679, np.inf),
            ("balanced accuracy", "gpt-4o > o3-mini", 0.057, 75, np.inf),
            ("balanced accuracy", "gpt-4o-ls > o3-mini", 0.004, 980, np.inf),
        ]
    )
    loo = pd.DataFrame(
        {
            "measure": ["span F1, soft", "span F1, soft", "balanced accuracy"],
            "pair": ["o3-mini-ls > o3-mini", "gpt-4o > gemma-3", "gpt-4o-ls > o3-mini"],
            "deciding": [1, 0, 1],
        }
    )
    # the subset curve of the decided pair follows n / 245 (the share of subsets holding the example)
    within = pd.DataFrame(
        {
            "measure": "span F1, soft",
            "pair": "o3-mini-ls > o3-mini",
            "n": [25, 100, 245],
            "same_order": [0.1, 0.4, 1.0],
        }
    )
    flagged = pd.DataFrame(
        {
            "system": ["gemma-3", "gpt-4o", "gpt-4o-ls", "o3-mini"],
            "examples": 172,
            "flagged": [59, 157, 172, 1],
            "bacc": [0.540, 0.553, 0.5, 0.496],
            "at_chance": [False, False, True, True],
        }
    )
    out = r09.stability_readings(s, 245, 25, loo=loo, within=within, flagged=flagged)
    assert out["soft_single"].startswith("A single example decides the order of o3-mini (LS) > o3-mini")
    assert "not how far apart" in out["soft_single"]  # 0.1 vs 25/245, 0.4 vs 100/245: within 0.05
    assert out["hard_single"] == ""
    assert out["bacc_single"].startswith("A single example decides the order of gpt-4o (LS) > o3-mini")
    assert "not how far apart" not in out["bacc_single"]  # no subset curve given for it
    assert out["bacc_spread"] == "0.053"  # gpt-4o: 0.553 - 0.5
    assert "gpt-4o (LS) flags 172 and o3-mini flags 1" in out["bacc_chance"]
    assert "one of the ordered pairs compares two such campaigns" in out["bacc_chance"]
    # the median of the other three BACC pairs (75, 679, > 980)
    assert out["bacc_rest"] == (
        "Without the pair between two campaigns at chance, the median BACC pair needs 679 examples."
    )


def needs_frame(rows):
    """``sample_size.needs_at_paper_gaps`` rows: (measure, pair, paper gap, own gap, n own, n paper, n low, n high)."""
    cols = ["measure", "pair", "paper_gap", "gap", "n_own", "n_paper", "n_paper_low", "n_paper_high"]
    f = pd.DataFrame(rows, columns=cols)
    return f.assign(
        paper_gap_low=f["paper_gap"] - 0.01, paper_gap_high=f["paper_gap"] + 0.01, n_normal=100.0, max_n=1960
    )


def test_ch09_paper_gap_readings_rest_on_the_papers_gaps():
    """The closest pair is the paper's (most examples at the paper's gap), not the stand-in's, and
    'enough' compares the paper's need (and its rounding's) with the corpus size."""
    needs = needs_frame(
        [
            ("span F1, soft", "gpt-4o > gemma-3", 0.05, 0.10, 33, 171, 114, 257),
            ("span F1, soft", "gemma-3 > o3-mini", 0.16, 0.01, 900, 17, 15, 19),  # narrow on the stand-in only
            ("span F1, hard", "gpt-4o > gemma-3", 0.03, 0.03, 257, 294, 171, 663),
            ("span F1, hard", "gemma-3 > o3-mini", 0.06, 0.09, 22, 44, 29, 66),
        ]
    )
    out = r09.paper_gap_readings(needs, corpus_size=245)
    assert out["soft_paper_pair"] == "gpt-4o and gemma-3" and out["soft_paper_n"] == "171"
    assert out["soft_paper_word"].startswith("enough at the printed gaps")  # 171 <= 245 < 257
    # 294 > 245, but the widest gap the rounding allows needs 171 <= 245: the rounding caveat both ways
    assert (
        out["hard_paper_word"]
        == "not enough at the printed gaps, though enough at the widest gaps their rounding allows"
    )
    assert r09.paper_gap_readings(needs, corpus_size=150)["hard_paper_word"] == (
        "not enough, even at the widest gaps their rounding allows"  # 171 > 150
    )
    assert out["soft_paper_range"] == "0.04 to 0.06" and out["soft_paper_n_range"] == "114 to 257"
    assert out["soft_gap_vs_paper"] == "wider than"  # 0.10 against 0.05
    assert r09.paper_gap_readings(needs, corpus_size=700)["hard_paper_word"] == "enough"


def test_ch09_normal_reading_says_where_the_approximation_is_off_and_why():
    needs = needs_frame(
        [
            ("span F1, hard", "gpt-4o > gemma-3", 0.03, 0.03, 257, 337, 171, 760),
            ("span F1, hard", "gemma-3 > o3-mini", 0.06, 0.09, 19, 38, 25, 66),
            ("span F1, soft", "gpt-4o > o3-mini", 0.21, 0.32, 10, 10, 10, 10),  # at the grid's first size
        ]
    ).assign(n_normal=[304.0, 50.0, 6.0], skew=[-0.1, 0.19, 0.07], min_n=10)
    text = r09.paper_gap_readings(needs, corpus_size=245)["normal_reading"]
    assert "in one of the two rows" in text  # 304 is within 15% of 337; the row at 10 is left out
    assert "gemma-3 > o3-mini by span F1, hard (50 against 38)" in text and "skewed to the right" in text
    assert "0.19" in text and "fewer examples suffice" in text
    symmetric = needs.assign(skew=[-0.1, -0.2, 0.07])  # skewed the other way: not what explains it
    assert "Monte Carlo error" in r09.paper_gap_readings(symmetric, corpus_size=245)["normal_reading"]


def test_ch09_tables_beside_the_paper_carry_the_rules_label(corpus):
    """The gaps table labels this corpus' gaps (differences of Table 6's emergent LLM rows), the
    power table each figure by its key: d and r are put in by the generator, records are set."""
    needs = needs_frame([("span F1, soft", "gpt-4o > gemma-3", 0.05, 0.10, 33, 171, 114, 257)])
    gaps = r09.gaps_table(needs, corpus)
    assert gaps["Figure is"].tolist() == [tables.figure_label("table6_span_level/Human - LLM (GPT-4o)/F1_S")]
    assert "Figure is" not in r09.gaps_table(needs, real_copy(corpus))
    ratings = impressions.ratings(corpus)
    table = r09.power_table(ratings, corpus=corpus).set_index("quantity")["Figure is"]
    built = tables.figure_label("impressions/t_errors_vs_none")
    assert built == "by construction" and table["Cohen's d, errors vs none"] == built
    assert table["r, error count and impression"] == tables.figure_label("impressions/r_error_count_vs_impression")
    assert table["records for 80% power, t-test"] == built and table["records rated"] == "set"
    assert "*by construction*" in r09.power_note(corpus).text and r09.power_note(real_copy(corpus)).text == ""


def test_ch09_power_readings_rest_on_the_papers_effects(corpus):
    from hotelcheckspan.reference import checks

    implied = checks.implied().set_index("id")
    ratings = impressions.ratings(corpus)
    power = ss.impression_power(ratings, [20, 100, 200], 50, seed=5)
    out = r09.power_readings(ratings, power, 200)
    assert out["paper_d"] == tables.number(implied.loc["cohens_d", "value"])
    assert out["paper_t80"] == str(int(implied.loc["records_for_power_t", "value"]))
    assert out["paper_r80"] == str(int(implied.loc["records_for_power_r", "value"]))
    assert out["power_word"] == "a small fraction of"  # at most 86 of 1,482 records
    table = r09.power_table(ratings)
    assert table.loc[0, "paper"] == out["paper_d"] and table.loc[0, "this corpus"] == out["d"]
    assert table["paper"].iloc[-1] == "1,482"  # counts stay whole


def test_ch09_plan_readings_say_why_the_answers_differ():
    summary = summary_frame([("span F1, soft", "gpt-4o > gpt-4o-ls", 0.029, 326, 980)])
    plan = {"better": "gpt-4o", "worse": "gpt-4o-ls", "score_better": 0.32, "score_worse": 0.29, "n_needed": 257,
            "n_low": 58, "n_high": np.inf, "max_n": 1960, "examples": 245}  # fmt: skip
    board = pd.DataFrame(
        {
            "judge": ["gpt-4o", "gpt-4o-ls"],
            "next": ["gpt-4o-ls", None],
            "f1_soft": [0.32, 0.29],
            "n_needed": [294, None],
        }
    )
    fine = pd.DataFrame({"n": [224, 257, 294], "same_order": [0.944, 0.955, 0.967]})
    out = r09.plan_readings(plan, summary, board, fine, 20000, grid=[25, 225, 326, 470])
    assert "326" in out["plan_reading"] and "257" in out["plan_reading"]
    assert out["ch10_reading"].startswith("answers 294") and "own random seed" in out["ch10_reading"]
    # 1,000 draws: half-width 1.96 sqrt(0.95 * 0.05 / 1000) = 0.0135; 0.944 and 0.955 are both within it of 0.95
    assert "224, 257 or 294" in out["crossing_reading"] and "0.014" in out["crossing_reading"]
    assert "its first size past the crossing is 326" in out["crossing_reading"]
    other = board.assign(f1_soft=[0.30, 0.29])  # another scoring: not "the same call"
    assert "other terms" in r09.plan_readings(plan, summary, other)["ch10_reading"]
    far = fine.assign(same_order=[0.90, 0.99, 0.995])  # a crossing far beyond the Monte Carlo error
    assert "beyond the Monte Carlo error" in r09.plan_readings(plan, summary, board, far, 20000)["crossing_reading"]


def test_ch09_public_reading_without_the_public_corpus():
    out = r09.public_readings(None, None, None, None)
    assert "no copy" in out["public_reading"]


def test_ch09_readings_on_the_bundled_corpus(corpus):
    stage2 = dataset_level.stage2_examples(corpus)
    llms = corpus.campaigns("model")
    scores = [ss.judges_f1_table(corpus, llms, HUMAN_SETS, stage2, match=m) for m in ("hard", "soft")]
    scores.append(ss.majority_table(corpus, llms, HUMAN_SETS, stage2, measure="bacc"))
    n = scores[0].n_examples
    within = ss.stability(scores, [25, 100, n], 50, seed=0)
    beyond = ss.stability(scores, [25, 100, n, 2 * n], 50, seed=1, replace=True)
    unc = ss.stable_n_uncertainty(scores, [25, 100, n, 2 * n], replace=True, n_outer=4, n_inner=20, seed=2)
    summary = ss.stable_n_summary(within, beyond, unc)
    kappa = ss.fleiss_table(example_level.marks(corpus, HUMAN_SETS, stage2), examples=stage2)
    human = [ss.human_f1_table(corpus, HUMAN_SETS, stage2, match="soft"), kappa]
    widths = ss.interval_widths(human, [25, 100, n], 50, seed=3)
    ratings = impressions.ratings(corpus)
    power = ss.impression_power(ratings, [20, 100], 50, seed=5)
    computed = dict(
        scores=scores,
        within=within,
        beyond=beyond,
        summary=summary,
        widths=widths,
        kappa_table=kappa,
        ratings=ratings,
        power=power,
        n_resamples=50,
        n_outer=4,
        n_inner=20,
    )
    out = r09.readings(corpus, **computed)
    assert_readable(out)
    assert out["n_examples"] == str(n) == str(len(stage2))
    assert out["n_pairs"] == str(len(llms) * (len(llms) - 1) // 2)
    assert out["max_n"] == f"{2 * n:,}"
    assert out["kappa"] == tables.number(kappa.full()[0], 3)
    assert "no copy" in out["public_reading"]
    assert out["simulated_note"].text
    assert r09.readings(real_copy(corpus), **computed)["simulated_note"] == Passage("")
    needs = ss.needs_at_paper_gaps(scores[:2], [25, 100, n, 4 * n], 50, seed=0)
    with_gaps = r09.readings(corpus, **computed, needs=needs)
    assert_readable(with_gaps)
    assert with_gaps["paper_gap_note"].text and with_gaps["soft_paper_gap"] == "0.05"  # Table 6: 0.26 - 0.21
    assert r09.readings(real_copy(corpus), **computed, needs=needs)["paper_gap_note"] == Passage("")


def test_the_inconsistencies_chapters_04_and_05_flag_are_listed():
    """Section 6.3's "highest" stage-2 F1_S (a tie) in chapter 04; Section 5's "entire sentences"
    against Table 3's span lengths in chapter 05."""
    ch04 = paper.inconsistencies("04_span_level_agreement")
    ch05 = paper.inconsistencies("05_llm_annotators")
    assert ch04["issue"].str.contains("highest").any()
    assert ch05["issue"].str.contains("sentences").any() and ch05["arithmetic"].str.contains("3.8").any()


def test_readable_plan_says_beyond_the_grid():
    plan = {
        "better": "a",
        "worse": "b",
        "score_better": 0.3,
        "score_worse": 0.29,
        "examples": 245,
        "n_needed": np.inf,
        "n_low": 300,
        "n_high": np.inf,
        "max_n": 1960,
    }
    row = ss.readable_plan(plan).iloc[0]
    assert row["examples needed"] == "> 1,960"
    assert row["95% interval"] == "300 to > 1,960"
    assert (row["better"], row["examples now"]) == ("a", 245)


def test_ch09_power_draws_table_names_the_monte_carlo_interval(corpus):
    """The resampled power's table: a row per test and size, its Wilson ends named as the Monte
    Carlo error of the draws, shares at three decimals."""
    power = ss.impression_power(impressions.ratings(corpus), [20, 100], 50, seed=5)
    frame = r09.power_draws_table(power).frame
    assert list(frame.columns) == ["Test", "n", "Resampled", "Monte Carlo low", "Monte Carlo high", "Statsmodels"]
    assert len(frame) == len(power)
    assert list(frame["Monte Carlo high"]) == [f"{v:.3f}" for v in power["high"]]
