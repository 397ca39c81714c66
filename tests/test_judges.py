"""Bring your own judge: a model campaign added to a copy of the bundled corpus is scored wherever
the paper's five LLMs are (Tables 3-6, BACC, chapter 05, the sample-size comparisons, the
leaderboard and the exports), and ``hotelcheckspan judge`` / ``evaluate_judge`` score it.

The added judge, ``acme-judge``, is gpt-4o's campaign with every third span dropped and every
fifth span's type rotated: close to gpt-4o, yet not equal to it.
"""

from __future__ import annotations

import csv
import json
import re
import shutil

import numpy as np
import pandas as pd
import pytest
from strict import strict

import hotelcheckspan
from hotelcheckspan import paths, review
from hotelcheckspan.analyses import dataset_level, example_level, llm_annotators, span_level
from hotelcheckspan.analyses import judges as J
from hotelcheckspan.analyses import sample_size as ss
from hotelcheckspan.annotator_sets import HUMAN_SETS, NOT_IN_PAPER, judges, parse_all
from hotelcheckspan.book import exports, tables
from hotelcheckspan.corpora import load
from hotelcheckspan.reference import paper

ACME = "acme-judge"
CATS = ["Not Checkable", "Misleading", "Incorrect"]


def perturbed_campaign(folder, name: str = ACME, skip: set | None = None) -> None:
    """Write gpt-4o's campaign to ``folder`` as ``name``: every third span dropped, every fifth
    span's type rotated, the config without the paper's name (and without the records of the
    example keys in ``skip``)."""
    src = paths.BUNDLED_CORPUS / "annotations" / "model" / "gpt-4o"
    folder.mkdir(parents=True)
    config = (src / "config.yaml").read_text(encoding="utf-8").replace("paper_name: gpt-4o\n", "")
    (folder / "config.yaml").write_text(config.replace("gpt-4o-2024-08-06", "acme-1"), encoding="utf-8")
    lines, k = [], 0
    for line in (src / "annotations.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if skip and (rec["dataset"], rec["split"], rec["setup_id"], rec["example_idx"]) in skip:
            continue
        kept = []
        for span in rec["annotations"]:
            k += 1
            if k % 3 == 0:
                continue
            if k % 5 == 0:
                span = span | {"type": (span["type"] + 1) % 3}
            kept.append(span)
        rec["annotations"] = kept
        rec["metadata"] = rec.get("metadata", {}) | {"annotator_id": name, "campaign_id": name}
        lines.append(json.dumps(rec))
    (folder / "annotations.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def acme_root(tmp_path_factory):
    """A copy of the bundled corpus with ``annotations/model/acme-judge/`` added."""
    root = tmp_path_factory.mktemp("acme") / "corpus"
    shutil.copytree(paths.BUNDLED_CORPUS, root)
    perturbed_campaign(root / "annotations" / "model" / ACME)
    return root


@pytest.fixture(scope="module")
def acme(acme_root):
    return load(acme_root)


@pytest.fixture(scope="module")
def stage2(acme):
    return dataset_level.stage2_examples(acme)


@pytest.fixture(scope="module")
def evaluated(acme):
    return hotelcheckspan.evaluate_judge(acme, ACME, n_boot=200)


def test_judges_are_discovered_paper_five_first(corpus, acme):
    assert judges(corpus) == list(paper.LLM_CAMPAIGNS.values())
    assert judges(acme) == [*paper.LLM_CAMPAIGNS.values(), ACME]


def test_tables_3_and_4_have_the_judge_not_in_the_paper(acme, corpus):
    figures = paper.figures()
    t3 = dataset_level.table3(acme, figures, paper.LLM_CAMPAIGNS)
    t4 = dataset_level.table4(acme, figures, paper.LLM_CAMPAIGNS)
    ours = dataset_level.campaign_table(acme).set_index("campaign").loc[ACME]
    row3 = t3.set_index("campaign").loc[ACME]
    assert row3["total"] == ours["spans"] and row3["spans/rec."] == round(ours["spans_per_record"], 2)
    assert row3[[c for c in t3.columns if c.startswith("paper ")]].isna().all()
    assert ACME in set(t4["campaign"])
    # the paper's rows are unchanged by the added judge
    base = dataset_level.table3(corpus, figures, paper.LLM_CAMPAIGNS)
    pd.testing.assert_frame_equal(t3.iloc[: len(base)], base, check_dtype=False)
    # the book says so in the paper column, not with a dash
    compact = tables.table3(t3).frame
    assert compact.iloc[-1, 0] == f"{ACME} ({NOT_IN_PAPER})"
    assert "(" not in compact.iloc[-1, 1]  # ours alone
    full = tables.show(tables.say_not_in_paper(t4)).frame
    assert (full.iloc[-1][[c for c in full.columns if c.startswith("Paper")]] == NOT_IN_PAPER).all()
    assert tables.number(full.iloc[0]["Paper total"]) == str(
        figures["table4_dataset_level_stage2_subset"]["St. 1A"]["total"]
    )


def test_table5_majority_agreement_and_bacc(acme, stage2):
    llm = example_level.models_vs_majority(acme, judges(acme), examples=stage2, n_boot=50)
    mine = llm[llm["model"] == ACME].set_index("label")
    assert set(mine.index) == set(example_level.ALIGNMENT_ROWS)
    assert mine.loc["Any", "bacc_low"] <= mine.loc["Any", "bacc"] <= mine.loc["Any", "bacc_high"]
    assert ACME in set(example_level.alignment_summary(llm)["model"])


def test_table6_rule_adds_humans_vs_the_judge(acme, corpus):
    comps = span_level.load_comparisons(corpus=acme)
    assert [c["name"] for c in comps] == [c["name"] for c in span_level.load_comparisons()] + [f"Human - LLM ({ACME})"]
    assert comps[-1]["hyp"] == [ACME] and comps[-1]["ref"] == [s.spec for s in HUMAN_SETS]
    assert comps[-1]["examples"] == "stage2"
    assert span_level.load_comparisons(corpus=corpus) == span_level.load_comparisons()  # the paper's five only
    pairs, counts = span_level.pairwise(acme)
    t6 = span_level.table6(pairs, counts, n_boot=50)
    row = t6[(t6["comparison"] == f"Human - LLM ({ACME})") & (t6["match"] == "soft")].iloc[0]
    assert row["pairs"] == 4 and 0 < row["f1"] < 1
    shown = span_level.compact_table6(t6, paper.figures()).set_index("Comparison")
    assert shown.loc[f"Human - LLM ({ACME})", "paper span F1, soft"] == NOT_IN_PAPER
    versus = span_level.versus_table6(t6, paper.figures()).set_index("comparison")
    assert (
        versus.loc[f"Human - LLM ({ACME})", [c for c in versus.columns if c.startswith("paper")]] == NOT_IN_PAPER
    ).all()
    assert (
        versus.loc["Human - LLM (GPT-4o)", "paper F1_S"]
        == paper.figures()["table6_span_level"]["Human - LLM (GPT-4o)"]["F1_S"]
    )


def test_chapter05_tables_have_the_judge(acme, stage2):
    assert ACME in set(llm_annotators.volume(acme, stage2)["name"])
    assert ACME in set(llm_annotators.type_bias(acme, stage2)["campaign"])
    assert len(llm_annotators.agreement_by_aspect(acme, ACME, stage2)) > 0


def test_sample_size_compares_the_judge(acme, stage2):
    llms = judges(acme)
    table = ss.judges_f1_table(acme, llms, HUMAN_SETS, stage2, match="soft")
    assert ACME in table.systems
    curve = ss.stability(table, [50, 100], 20, seed=0, replace=True)
    assert curve["pair"].str.contains(ACME).sum() == 2 * (len(llms) - 1)


def test_leaderboard_ranks_the_judge_beside_the_papers(acme, stage2):
    board = J.leaderboard(acme, n_boot=100, n_resamples=50, n_outer=5, n_inner=20)
    assert list(board.columns) == J.LEADERBOARD_COLUMNS
    assert board["judge"].tolist()[-1] == J.CEILING
    ranked = board[board["judge"] != J.CEILING]
    assert set(ranked["judge"]) == set(judges(acme)) and ranked["rank"].tolist() == sorted(ranked["rank"])
    assert (ranked["f1_soft"].diff().dropna() <= 0).all()
    assert not bool(ranked.set_index("judge").loc[ACME, "in_paper"])
    assert ranked["tell_apart"].iloc[:-1].isin(["yes", "uncertain", "no"]).all() and ranked["next"].iloc[-1] is None
    # the same numbers as the tables: soft F1 as Table 6 averages its pairs, BACC as Table 5
    pairs, _ = span_level.pairwise(
        acme, [{"name": ACME, "ref": [s.spec for s in HUMAN_SETS], "hyp": [ACME], "examples": "stage2"}]
    )
    me = ranked.set_index("judge").loc[ACME]
    assert me["f1_soft"] == pytest.approx(pairs[pairs["match"] == "soft"]["f1"].mean())
    llm = example_level.models_vs_majority(acme, judges(acme), examples=stage2, n_boot=100)
    assert me["bacc"] == pytest.approx(llm.set_index(["model", "label"]).loc[(ACME, "Any"), "bacc"])
    for m in ("f1_soft", "f1_hard", "bacc"):
        assert (board[f"{m}_low"] <= board[m] + 1e-12).all() and (board[m] <= board[f"{m}_high"] + 1e-12).all()
    shown = J.readable(board)  # the exported form
    assert shown["judge"].tolist() == board["judge"].tolist()
    top = board.loc[0, ["f1_soft", "f1_soft_low", "f1_soft_high"]]
    assert shown["span F1, soft [95% CI]"].iloc[0] == tables.interval(*top)
    assert shown["tell apart"].iloc[-1] is None and "nan" not in shown.astype(str).to_string()


def test_bacc_lead_compares_the_top_two_on_the_intervals_resamples(corpus):
    """The leaderboard's paired BACC comparison (finding 3 of chapter 10's review): the share of
    resamples in which the first is ahead, against a plain loop over the same resample weights
    with scikit-learn's balanced accuracy; its marginal intervals are the leaderboard's."""
    from sklearn.metrics import balanced_accuracy_score

    from hotelcheckspan.metrics import resampling

    board = J.leaderboard(corpus, n_boot=200, distinguish=False)
    lead = board.attrs["bacc_lead"]
    ranked = board[board["judge"] != J.CEILING].sort_values("bacc", ascending=False)
    assert [lead["better"], lead["worse"]] == ranked["judge"].tolist()[:2]
    # the oracle: the paper's clear majority (3-1 or 4-0 of the four sets) written plainly
    stage2 = dataset_level.stage2_examples(corpus)
    marks = example_level.marks(corpus, [*HUMAN_SETS, *parse_all([lead["better"], lead["worse"]])], stage2)
    human = marks[marks["rater"].isin([s.name for s in HUMAN_SETS])].groupby(J.KEY)["Any"].agg(["sum", "size"])
    clear = human[(human["sum"] >= 3) | (human["size"] - human["sum"] >= 3)]
    truth = (clear["sum"] >= 3).rename("truth").reset_index()
    units = marks.loc[marks["rater"].isin([lead["better"], lead["worse"]]), J.KEY].drop_duplicates()
    weights = resampling.matrix(units, 200, 0)
    units = units.reset_index(drop=True).assign(w=list(weights.T))
    scores = {}
    for judge in (lead["better"], lead["worse"]):
        mine = marks.loc[marks["rater"] == judge, [*J.KEY, "Any"]].merge(truth, on=J.KEY).merge(units, on=J.KEY)
        w = np.stack(mine["w"].to_numpy())  # (examples, resamples)
        scores[judge] = np.array(
            [
                balanced_accuracy_score(mine["truth"], mine["Any"].astype(bool), sample_weight=w[:, b])
                for b in range(200)
            ]
        )
        row = board.set_index("judge").loc[judge]
        assert np.percentile(scores[judge], [2.5, 97.5]) == pytest.approx([row["bacc_low"], row["bacc_high"]])
    assert lead["share"] == pytest.approx(np.mean(scores[lead["better"]] > scores[lead["worse"]]))
    assert lead["examples"] == len(clear) and lead["single_rater"] == 0  # four sets on every stage-2 example


def test_ceiling_says_on_how_many_examples_and_shown_ties_share_a_rank():
    """Findings 8 and 9 of chapter 10's review: the ceiling's examples are those both human sets
    annotated (one or two crowd workers per text on the d2t test split); judges tied at the
    precision shown share their rank in the table, the frame keeps its numeric rank."""
    real = load(paths.REAL_TEST_CORPUS)
    board = J.leaderboard(real, n_boot=50, distinguish=False)
    c = board.attrs["compared"]
    assert c["ceiling"]["examples"] == c["examples"] - c["majority"]["single_rater_examples"]
    shown = tables.leaderboard(board).frame
    assert shown.loc[shown["Judge"] == "humans (ceiling)", "Rank"].item() == "–"
    soft = board["f1_soft"].round(2)
    for i, r in enumerate(shown["Rank"][:-1]):
        tied = (soft == soft.iloc[i]).sum() > 1
        assert r.endswith("=") == tied and int(r.rstrip("=")) == 1 + int((soft.iloc[:-1] > soft.iloc[i]).sum())
    assert board["rank"].dropna().tolist() == list(range(1, len(board)))  # the API's rank is unchanged
    said = tables.compared(board).frame.set_index("Compared").loc["Ceiling", "Here"]
    assert said == (
        f"1 pair of human sets, on the {c['ceiling']['examples']:,} examples both annotated; "
        "BACC: each human set against the other on any error"
    )


def test_the_ceilings_bacc_rule_is_the_clear_majority_of_the_other_three():
    """The paper's four sets: a held-out set meets the other three only where all three agree (3-0),
    so the ceiling's BACC rests on fewer examples than a judge's 3-1 or 4-0; the table says so."""
    board = J.leaderboard(load(), n_boot=20, distinguish=False)
    rule = board.attrs["compared"]["ceiling"]["bacc_rule"]
    assert "3-0 of 3" in rule and "75%" in rule
    said = tables.compared(board).frame.set_index("Compared").loc["Ceiling", "Here"]
    assert said.endswith(f"BACC: {rule}")


def test_neighbours_show_the_grids_first_size_as_an_upper_bound():
    """Finding 10 of chapter 10's review: an answer at the first size tried (10) means "10 or
    fewer"; other sizes and "more than tried" are shown as they are."""
    frame = pd.DataFrame(
        {
            "judge": ["a", "b", "c"],
            "next": ["b", "c", None],
            "examples": [245, 245, 245],
            "n_needed": [10.0, 87.0, np.nan],
            "n_low": [10.0, 19.0, np.nan],
            "n_high": [15.0, np.inf, np.nan],
            "tell_apart": ["yes", "uncertain", None],
        }
    )
    assert ss.planning_sizes(245)[0] == 10
    shown = tables.neighbours(frame).frame
    assert shown["Examples needed"].tolist() == ["≤ 10", "87"]
    assert shown["95% interval"].tolist() == ["≤ 10 to 15", "19 to more than tried"]


def test_review_marks_show_every_share_with_one_decimal():
    """Finding 12 of chapter 10's review: a column of zeros reads "0.0" like its neighbours."""
    marks = pd.DataFrame(
        {
            "corpus": ["c", "c"],
            "judge": ["a", "humans"],
            "spans": [25, 100],
            "spans_with_text": [25, 100],
            "hallucination_share": [0.0, 0.0],
            "whole_sentence_share": [0.24, 0.088],
            "mean_words": [10.7, 8.6],
            "words_vs_humans": [1.25, 1.0],
        }
    )
    shown = tables.review_marks(marks).frame
    assert shown["Hallucination (%)"].tolist() == ["0.0", "0.0"]
    assert shown["Whole sentence (%)"].tolist() == ["24.0", "8.8"]


def test_exports_contain_the_judge(acme, tmp_path):
    only = [
        "table3_llm_campaigns",
        "table4_stage2_subset",
        "table5_llm_majority",
        "table6_span_level",
        "figure_paradox",
    ]
    exports.export_all(tmp_path, only, corpus=acme)
    for name, column, value in (
        ("table3_llm_campaigns", "campaign", ACME),
        ("table4_stage2_subset", "campaign", ACME),
        ("table5_llm_majority", "model", ACME),
        ("table6_span_level", "comparison", f"Human - LLM ({ACME})"),
    ):
        with open(tmp_path / f"{name}.csv", encoding="utf-8") as f:
            assert value in {row[column] for row in csv.DictReader(f)}, name
        assert ACME in (tmp_path / f"{name}.tex").read_text(encoding="utf-8")
    assert (tmp_path / "figure_paradox.png").stat().st_size > 0


def test_evaluate_judge_equals_the_tables(evaluated, acme, stage2):
    assert evaluated["judge"] == ACME and evaluated["in_paper"] is False
    t3 = dataset_level.table3(acme, paper.figures(), paper.LLM_CAMPAIGNS)
    pd.testing.assert_frame_equal(evaluated["table3"], t3[t3["campaign"] == ACME].reset_index(drop=True))
    llm = example_level.models_vs_majority(acme, judges(acme), examples=stage2, n_boot=200)
    pd.testing.assert_frame_equal(evaluated["table5"], llm[llm["model"] == ACME].reset_index(drop=True))
    pairs, counts = span_level.pairwise(acme)
    t6 = span_level.table6(pairs, counts, n_boot=200)
    pd.testing.assert_frame_equal(
        evaluated["table6"], t6[t6["comparison"] == f"Human - LLM ({ACME})"].reset_index(drop=True)
    )
    any_row = evaluated["table5"].set_index("label").loc["Any"]
    assert evaluated["bacc"] == {
        "estimate": any_row["bacc"],
        "low": any_row["bacc_low"],
        "high": any_row["bacc_high"],
        "reason": None,
    }
    assert evaluated["rank"]["of"] == 6 and 1 <= evaluated["rank"]["soft"] <= 6


def test_evaluate_judge_of_a_paper_judge_gives_its_paper_rows(corpus):
    out = hotelcheckspan.evaluate_judge(corpus, "gpt-4o-ls", n_boot=50)
    assert out["in_paper"] and out["table3"]["campaign"].tolist() == ["gpt-4o (LS)"]
    assert out["table3"]["paper total"].iloc[0] == paper.figures()["table3_llm_campaigns"]["gpt-4o (LS)"]["total"]
    assert out["table6"]["comparison"].unique().tolist() == ["Human - LLM (GPT-4o)"]


def test_judge_json_is_strict_and_equals_evaluate_judge(run, acme_root, evaluated):
    code, out, err = run("judge", acme_root, ACME, "--json", "--n-boot", 200)
    assert code == 0, err
    data = strict(out)
    assert data["judge"] == ACME and data["rank"] == evaluated["rank"]
    assert data["bacc"]["estimate"] == pytest.approx(evaluated["bacc"]["estimate"])
    t6 = pd.DataFrame(data["table6"])
    assert np.allclose(t6["f1"], evaluated["table6"]["f1"]) and np.allclose(t6["f1_low"], evaluated["table6"]["f1_low"])
    t3 = data["table3"][0]
    assert t3["total"] == int(evaluated["table3"]["total"].iloc[0]) and t3["paper total"] is None


def test_judge_text_output(run, acme_root):
    code, out, err = run("judge", acme_root, ACME, "--n-boot", 50)
    assert code == 0, err
    assert out.startswith("frame: task (the whole corpus); splits long, short (pooled (the paper pools its splits))")
    assert f"judge {ACME} (not one of the paper's five)" in out and "== Table 6" in out and "Traceback" not in out + err


def test_judge_with_an_outside_campaign_folder(run, tmp_path, evaluated):
    folder = tmp_path / "exports" / ACME
    perturbed_campaign(folder)
    code, out, err = run("judge", paths.BUNDLED_CORPUS, folder, "--json", "--n-boot", 200)
    assert code == 0, err
    data = strict(out)
    assert data["judge"] == ACME and data["rank"] == evaluated["rank"]
    assert data["table6"][0]["f1"] == pytest.approx(evaluated["table6"]["f1"].iloc[0])
    assert not any(tmp_path.glob(".hotelcheckspan-judge-*"))


def test_judge_errors_are_clear(run, tmp_path):
    code, out, err = run("judge", paths.BUNDLED_CORPUS, "no-such-judge")
    assert code == 1 and "no-such-judge" in err and "gpt-4o-ls" in err and "stage1" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    code, _, err = run("judge", paths.BUNDLED_CORPUS, "stage2")
    assert code == 1 and "human campaign" in err
    code, _, err = run("judge", tmp_path / "nowhere", "gpt-4o")
    assert code == 1 and "nowhere" in err
    (tmp_path / "gpt-4o").mkdir()
    (tmp_path / "gpt-4o" / "config.yaml").write_text("annotation_span_categories: []\n")
    code, _, err = run("judge", paths.BUNDLED_CORPUS, tmp_path / "gpt-4o")
    assert code == 1 and "Traceback" not in err
    perturbed_campaign(tmp_path / "named" / "gpt-4o")  # a valid folder named as a campaign of the corpus
    code, out, err = run("judge", paths.BUNDLED_CORPUS, tmp_path / "named" / "gpt-4o", "--n-boot", "20")
    assert code == 0, err
    assert "judge gpt-4o (added) (not one of the paper's five)" in out.splitlines()  # its own folder, told apart


def test_a_judge_sharing_no_example_with_the_humans_is_unranked_not_scored_zero(run, tmp_path, stage2):
    """A judge that annotated none of the stage-2 examples has no span F1 (not 0): its Table 6
    pairs are left out, it is unranked, the leaderboard says "undefined" (the CLI:
    test_damaged_inputs); a comparison mixing it with a judge that has examples is that judge's
    F1, not halved."""
    root = tmp_path / "corpus"
    shutil.copytree(paths.BUNDLED_CORPUS, root)
    perturbed_campaign(root / "annotations" / "model" / "off-judge", "off-judge", set(stage2.itertuples(index=False)))
    off = load(root)
    refs = ["stage1/A", "stage1/B", "stage2/A", "stage2/B"]
    comps = [
        {"name": "mixed", "ref": refs, "hyp": ["gpt-4o", "off-judge"], "examples": "stage2"},
        {"name": "gpt-4o", "ref": refs, "hyp": ["gpt-4o"], "examples": "stage2"},
        {"name": "off", "ref": refs, "hyp": ["off-judge"], "examples": "stage2"},
    ]
    t6 = span_level.table6(*span_level.pairwise(off, comps), n_boot=50).set_index(["comparison", "match"])
    for match in ("hard", "soft"):
        assert t6.loc[("mixed", match), "pairs"] == t6.loc[("gpt-4o", match), "pairs"] == len(refs)
        assert t6.loc[("mixed", match), "f1"] == pytest.approx(t6.loc[("gpt-4o", match), "f1"])
        assert t6.loc[("gpt-4o", match), "f1"] > 0
        assert t6.loc[("off", match), "pairs"] == 0 and t6.loc["off", match].drop("pairs").isna().all()
    board = J.leaderboard(off, n_boot=50, distinguish=False)
    me = board[board["judge"] == "off-judge"].iloc[0]
    assert pd.isna(me["rank"]) and pd.isna(me["f1_soft"]) and pd.isna(me["rank_hard"])
    assert board["rank"].dropna().tolist() == list(range(1, len(judges(off))))
    readable = J.readable(board)
    assert readable.loc[readable["judge"] == "off-judge", "span F1, soft [95% CI]"].item() == "undefined"
    code, out, _ = run("judge", root, "gpt-4o", "--n-boot", 50)  # the CLI's line is for the off judge only
    assert code == 0 and "shares no example" not in out


def test_leaderboard_on_the_real_corpus_ranks_its_six():
    real = load(paths.REAL_CORPUS)
    board = J.leaderboard(real, n_boot=100, distinguish=False)
    ranked = board[board["judge"] != J.CEILING]
    assert len(ranked) == 6 and set(ranked["judge"]) == set(real.campaigns("model"))
    ceiling = board.set_index("judge").loc[J.CEILING]
    assert 0 < ceiling["f1_soft"] < 1 and not ceiling["in_paper"]


def test_chapter10_readings_cover_every_glued_name(corpus):
    from hotelcheckspan.book.readings import Passage, evaluate_your_judge

    board = J.leaderboard(corpus, n_boot=50, n_resamples=50, n_outer=5, n_inner=20)
    real = load(paths.REAL_TEST_CORPUS)
    marks = review.marks_by_corpus({"stand-in": corpus, "d2t test": real})
    values = evaluate_your_judge.readings(corpus, board, board, None, marks, real)
    assert all(isinstance(v, (str, Passage)) for v in values.values())
    assert values["real_n_systems"] == "four" and values["real_n_domains"] == "three"  # setup ids slugified
    assert values["real_humans_per_text"] == "one or two"
    assert values["top_judge"] == board["judge"].iloc[0] and values["n_judges"] == "five"
    assert values["simulated_note"].text  # the stand-in says it is simulated
    source = (paths.REPO_ROOT / "notebooks" / "10_evaluate_your_judge.py").read_text(encoding="utf-8")
    glued = set(re.findall(r"\{glue:(?:text|md)\}`(\w+)", source)) | set(re.findall(r"```\{glue:md\} (\w+)", source))
    assert glued and glued <= set(values), sorted(glued - set(values))


def test_stats_lists_the_judge_in_fixed_decimals(run, acme_root):
    code, out, err = run("stats", acme_root)
    assert code == 0, err
    assert ACME in out and not re.search(r"\de[-+]\d", out)


def test_versus_says_not_in_the_paper_for_a_judge(acme):
    shown = tables.versus(
        [("gpt-4o: total", "table3_llm_campaigns/gpt-4o/total", 270), (f"{ACME}: total", NOT_IN_PAPER, 182)], acme
    ).frame.set_index("Measure")
    assert shown.loc[f"{ACME}: total", "Paper"] == NOT_IN_PAPER
    assert shown.loc[f"{ACME}: total", "Difference"] == tables.DASH == shown.loc[f"{ACME}: total", "Figure is"]
    assert shown.loc["gpt-4o: total", "Paper"] == "272" and shown.loc["gpt-4o: total", "Difference"] == "-2"


def test_the_leaderboard_reads_the_corpus_in_one_place(corpus):
    """One engine: the corpus goes into few functions (the span statistics and the marks are read
    once, in Scored), and the walk does not keep coming back to a module it left. Counted as
    benchmarks/judges.py counts: distinct functions called with the corpus among their arguments,
    in the order first called, and how often that order moves back into a module already left."""
    import sys

    first = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_globals.get("__name__", "").startswith("hotelcheckspan"):
            if any(v is corpus for v in frame.f_locals.values()):
                key = (frame.f_globals["__name__"], frame.f_code.co_name)
                if key not in first:
                    first.append(key)

    sys.setprofile(profile)
    try:
        J.leaderboard(corpus, ["gpt-4o", "gemma-3"], n_boot=20, n_resamples=20, n_outer=2, n_inner=10)
    finally:
        sys.setprofile(None)
    modules = [m for m, _ in first]
    returns = sum(1 for i, m in enumerate(modules) if i and m != modules[i - 1] and m in modules[: i - 1])
    assert len(first) <= 15 and returns <= 5, first
    assert ("hotelcheckspan.analyses.sample_size", "examples_needed") not in first  # no second reading of spans
