"""The judge tools on any factgenie corpus (issue 25): corpora made to have one human group,
campaign folders that share a name, human groups on different examples, no clear majority and a
config-only campaign (``tests/shaped.py``), and the two bundled real splits.

Every expectation is derived from the records the corpora were written with (not from the
package's reader): the human sets, the examples, the clear majority by the documented rule
(:data:`judges.AGREE_SHARE` of the sets that annotated an example), span F1 by the
character-by-character reference of ``tests/span_reference.py`` averaged as Table 6 averages,
balanced accuracy by scikit-learn; γ between same-named folders is checked against factgenie's
own code in ``tests/test_gamma.py``, with the other tests that import pygamma.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import shutil
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
import shaped
import yaml
from sklearn.metrics import balanced_accuracy_score
from span_reference import per_character
from strict import strict

import hotelcheckspan
from hotelcheckspan import paths
from hotelcheckspan.analyses import judges as J
from hotelcheckspan.book import paper_shape
from hotelcheckspan.corpora import load
from hotelcheckspan.corpora import problems as P

# a RuntimeWarning (e.g. "Mean of empty slice") leaking from a judge tool fails the test
pytestmark = pytest.mark.filterwarnings("error")

SHAPES = list(shaped.SHAPES)


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    """Every shape of ``tests/shaped.py`` written once: shape -> corpus folder."""
    base = tmp_path_factory.mktemp("shaped")
    return {shape: shaped.build(base / shape, shape) for shape in SHAPES}


def campaigns_of(shape: str) -> dict[str, shaped.Campaign]:
    """The campaigns a shape was written with, by path below ``annotations/`` (records as written)."""
    return {c.path: c for c in shaped.SHAPES[shape]()[0] if c.records is not None}


def _records(shape: str, kind: str) -> dict[str, list[dict]]:
    return {p: c.records for p, c in campaigns_of(shape).items() if p.startswith(f"{kind}/")}


def letter(group: int) -> str:
    return chr(ord("A") + group)


# --- references computed from the written records --------------------------------------------


def human_sets(shape: str) -> dict[str, dict[int, list[dict]]]:
    """``"<campaign>/<letter>"`` -> {example_idx: record} of every human group (campaign named by
    its last folder: every human campaign of these shapes is alone of its kind)."""
    out = {}
    for path, recs in _records(shape, "human").items():
        name = path.rsplit("/", 1)[-1]
        for g in sorted({r["annotator_group"] for r in recs}):
            out[f"{name}/{letter(g)}"] = {r["example_idx"]: r for r in recs if r["annotator_group"] == g}
    return out


def judge_sets(shape: str) -> dict[str, dict[int, dict]]:
    """The documented name of every judge (shaped.SAME_NAMES, else its folder) -> {example_idx: record}."""
    out = {}
    for path, recs in _records(shape, "model").items():
        folder = path.removeprefix("model/")
        out[shaped.SAME_NAMES.get(folder, folder)] = {r["example_idx"]: r for r in recs}
    return out


def _spans(recs: dict[int, dict], examples) -> dict:
    return {i: [(a["start"], a["start"] + len(a["text"]), a["type"]) for a in recs[i]["annotations"]] for i in examples}


def reference_f1(ref: dict[int, dict], hyp: dict[int, dict], match: str, convention: str = "either") -> float | None:
    """Span F1 of ``hyp`` against ``ref`` on the examples both annotated (per_character), None
    when they share none."""
    common = sorted(set(ref) & set(hyp))
    if not common:
        return None
    c = per_character(_spans(ref, common), _spans(hyp, common), common, match, convention)["all"]
    p = c["overlap"] / c["hyp_length"] if c["hyp_length"] else 0.0
    r = c["overlap_ref"] / c["ref_length"] if c["ref_length"] else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def mean_f1(pairs, match: str, convention: str = "either") -> float | None:
    """Table 6's averaging: the mean F1 over the (ref, hyp) pairs that share an example."""
    scores = [f for f in (reference_f1(r, h, match, convention) for r, h in pairs) if f is not None]
    return float(np.mean(scores)) if scores else None


def clear_majority(votes: list[bool]) -> bool | None:
    """The documented rule: at least AGREE_SHARE of the sets that annotated the example agree."""
    if not votes:
        return None
    need = math.ceil(J.AGREE_SHARE * len(votes) - 1e-9)
    if sum(votes) >= need:
        return True
    if len(votes) - sum(votes) >= need:
        return False
    return None


def sklearn_bacc(truth: list[bool], pred: list[bool]) -> float | None:
    """scikit-learn's balanced accuracy (its warning on a one-class truth silenced), None when empty."""
    if not truth:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(balanced_accuracy_score(truth, pred))


def majority_of(sets: dict[str, dict[int, dict]], examples) -> dict[int, bool]:
    """The clear majority on "any error" of ``sets`` per example where it is clear."""
    out = {}
    for i in examples:
        m = clear_majority([bool(s[i]["annotations"]) for s in sets.values() if i in s])
        if m is not None:
            out[i] = m
    return out


def judge_bacc(shape: str, judge: str) -> tuple[float | None, int, int]:
    """(BACC, examples with a clear majority the judge annotated, how many of them the majority calls erroneous)."""
    mine = judge_sets(shape)[judge]
    maj = majority_of(human_sets(shape), mine)
    truth = [maj[i] for i in sorted(maj)]
    return sklearn_bacc(truth, [bool(mine[i]["annotations"]) for i in sorted(maj)]), len(truth), sum(truth)


def ceiling_bacc(shape: str) -> float | None:
    """Each human set against the clear majority of the others, averaged over the sets that meet one."""
    sets = human_sets(shape)
    scores = []
    for name, mine in sets.items():
        maj = majority_of({k: v for k, v in sets.items() if k != name}, mine)
        score = sklearn_bacc([maj[i] for i in sorted(maj)], [bool(mine[i]["annotations"]) for i in sorted(maj)])
        if score is not None:
            scores.append(score)
    return float(np.mean(scores)) if scores else None


def expected_compared(shape: str) -> dict:
    """What ``compared`` must say, counted from the records."""
    sets, judged = human_sets(shape), set().union(*judge_sets(shape).values())
    per_example = {i: sum(i in s for s in sets.values()) for i in judged}
    pairs = sum(bool(set(a) & set(b)) for a, b in itertools.combinations(sets.values(), 2))
    return {
        "references": list(sets),
        "examples": len({i for s in sets.values() for i in s} & judged),
        "human_records": sum(len(set(s) & judged) for s in sets.values()),
        "single_rater_examples": sum(n == 1 for n in per_example.values()),
        "pairs": pairs,
    }


def same_values(js, py, where="result"):
    """``py`` (what evaluate_judge returns) holds the values ``js`` (the CLI's JSON) holds: None
    where the JSON has null, frames as lists of rows."""
    if isinstance(py, pd.DataFrame):
        py = py.to_dict(orient="records")
    if isinstance(py, dict):
        assert isinstance(js, dict) and set(js) == {str(k) for k in py}, where
        for k, v in py.items():
            same_values(js[str(k)], v, f"{where}.{k}")
    elif isinstance(py, (list, tuple)):
        assert isinstance(js, list) and len(js) == len(py), where
        for i, (a, b) in enumerate(zip(js, py)):
            same_values(a, b, f"{where}[{i}]")
    elif py is None or py is pd.NA or (isinstance(py, (float, np.floating)) and np.isnan(py)):
        assert js is None, where
    elif isinstance(py, (str, bool, np.bool_)):
        assert js == py, where
    else:
        assert js == pytest.approx(float(py), rel=1e-12, abs=1e-12), where


def judge_json(run, root, judge, *extra) -> tuple[dict, str]:
    code, out, err = run("judge", root, judge, "--json", "--n-boot", 50, *extra)
    assert code == 0, err
    assert "Traceback" not in err and "internal error" not in err
    return strict(out), err


# --- judge on every shape ---------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
def test_judge_json_names_what_it_compared_and_equals_evaluate_judge(run, roots, shape):
    """Strict JSON, exit 0; ``compared`` names the human sets, the examples, the F1 definition
    and convention, the majority rule and the ceiling (defined or why not); evaluate_judge gives
    the same values, None (never NaN) where the JSON has null."""
    judge = next(iter(judge_sets(shape)))
    data, _ = judge_json(run, roots[shape], judge)
    want = expected_compared(shape)
    cmp = data["compared"]
    assert cmp["references"] == want["references"] == cmp["majority"]["raters"]
    assert cmp["human_campaigns"] == sorted({r.split("/")[0] for r in want["references"]})
    assert (cmp["examples"], cmp["human_records"]) == (want["examples"], want["human_records"])
    assert cmp["majority"]["single_rater_examples"] == want["single_rater_examples"]
    assert cmp["examples_rule"] == "the examples some judge annotated"
    assert cmp["judge_examples"] == len(judge_sets(shape)[judge])
    assert (cmp["f1"]["metric"], cmp["f1"]["convention"]) == ("char", "either")
    assert "either" in cmp["f1"]["definition"] and "averaged over the reference sets" in cmp["f1"]["definition"]
    assert f"{J.AGREE_SHARE:.0%}" in cmp["majority"]["rule"]
    ceiling = cmp["ceiling"]
    assert ceiling["defined"] == (want["pairs"] > 0) and ceiling["pairs"] == want["pairs"]
    assert (ceiling["reason"] is None) == ceiling["defined"]
    board_judges = [row["judge"] for row in data["leaderboard"]]
    assert (J.CEILING in board_judges) == ceiling["defined"]  # no ceiling row without a pair of humans
    assert sorted(j for j in board_judges if j != J.CEILING) == sorted(judge_sets(shape))
    assert data["in_paper"] is False and not any(row["in_paper"] for row in data["leaderboard"])

    result = hotelcheckspan.evaluate_judge(roots[shape], judge, n_boot=50)
    settings = data.pop("settings")  # what it ran with, and notes for readers, beside the API's result
    data.pop("notes", None)
    assert (settings["resamples"], settings["seed"], settings["convention"]) == (50, 0, "either")
    same_values(data, result)
    bacc = result["bacc"]
    assert all(v is None or (isinstance(v, float) and math.isfinite(v)) for k, v in bacc.items() if k != "reason")
    assert (bacc["estimate"] is None) == isinstance(bacc["reason"], str)


def test_one_human_group_has_no_ceiling_and_says_why(run, roots):
    data, _ = judge_json(run, roots["one-group"], "judge-a")
    assert data["compared"]["ceiling"] == {
        "defined": False,
        "pairs": 0,
        "examples": 0,
        "bacc_rule": None,
        "reason": "one human set: no pair of humans to agree with each other",
    }
    board = J.leaderboard(load(roots["one-group"]), n_boot=50, distinguish=False)
    assert J.CEILING not in set(board["judge"]) and len(board) == 2
    code, out, err = run("judge", roots["one-group"], "judge-a", "--n-boot", 50)
    assert code == 0 and "human ceiling: none (one human set" in out


def test_staggered_groups_are_counted_where_they_annotated(run, roots):
    """Groups on 0-19, 10-29 and 20-39: A-B and B-C share examples, A-C do not (two ceiling
    pairs); 0-9 and 30-39 have one group each (that group decides the majority there)."""
    cmp = judge_json(run, roots["staggered"], "judge-a")[0]["compared"]
    assert cmp["references"] == ["ann/A", "ann/B", "ann/C"]
    assert (cmp["examples"], cmp["human_records"], cmp["ceiling"]["pairs"]) == (40, 60, 2)
    assert cmp["majority"]["single_rater_examples"] == 20
    assert cmp["ceiling"]["examples"] == 20  # 10-29: two groups each


@pytest.mark.parametrize("shape", SHAPES)
def test_leaderboard_f1_is_the_reference_definition(run, roots, shape):
    """Each judge's soft and hard F1 is the per-character F1 (convention "either") against every
    human set, averaged over the sets sharing examples with it; the ceiling averages every pair."""
    data, _ = judge_json(run, roots[shape], next(iter(judge_sets(shape))))
    board = {row["judge"]: row for row in data["leaderboard"]}
    sets = list(human_sets(shape).values())
    for name, recs in judge_sets(shape).items():
        for match in ("soft", "hard"):
            assert board[name][f"f1_{match}"] == pytest.approx(mean_f1([(s, recs) for s in sets], match)), name
    if J.CEILING in board:
        for match in ("soft", "hard"):
            want = mean_f1(list(itertools.combinations(sets, 2)), match)
            assert board[J.CEILING][f"f1_{match}"] == pytest.approx(want)


def test_the_f1_convention_named_is_the_one_used(roots):
    """The reference above tells "either" from factgenie's "both" on these texts (else the
    previous test could not catch a swap)."""
    sets = list(human_sets("one-group").values())
    recs = judge_sets("one-group")["judge-a"]
    either = mean_f1([(s, recs) for s in sets], "soft")
    both = mean_f1([(s, recs) for s in sets], "soft", convention="factgenie")
    assert either != pytest.approx(both)


@pytest.mark.parametrize("shape", SHAPES)
def test_leaderboard_bacc_is_sklearns_against_the_documented_majority(run, roots, shape):
    data, _ = judge_json(run, roots[shape], next(iter(judge_sets(shape))))
    board = {row["judge"]: row for row in data["leaderboard"]}
    for name in judge_sets(shape):
        want, n_major, n_errors = judge_bacc(shape, name)
        row = board[name]
        assert (row["majority_examples"], row["majority_errors"]) == (n_major, n_errors), name
        if want is None:
            assert row["bacc"] is None and row["rank_bacc"] is None and "clear human majority" in row["bacc_reason"]
        else:
            assert row["bacc"] == pytest.approx(want) and row["bacc_reason"] is None
            assert row["bacc_low"] <= row["bacc"] <= row["bacc_high"]
    if J.CEILING in board:
        want = ceiling_bacc(shape)
        assert board[J.CEILING]["bacc"] == (None if want is None else pytest.approx(want))


def test_no_clear_majority_anywhere_leaves_bacc_undefined_with_its_reason(run, roots):
    """Two sets that never agree on "any error": 3/4 of two is both, so no example has a clear
    majority; BACC is undefined for every judge, with the reason, in JSON, text and the API. The
    ceiling (each set against the other, which decides alone) never agrees: F1 and BACC 0."""
    assert all(clear_majority([a, not a]) is None for a in (True, False))  # the shape is what it claims
    data, err = judge_json(run, roots["no-majority"], "judge-a")
    assert data["bacc"]["estimate"] is None and data["bacc"]["low"] is None and data["bacc"]["high"] is None
    assert "no example it annotated has a clear human majority" in data["bacc"]["reason"]
    assert data["rank"]["bacc"] is None and data["rank"]["soft"] is not None
    ceiling = next(row for row in data["leaderboard"] if row["judge"] == J.CEILING)
    assert (ceiling["f1_soft"], ceiling["f1_hard"], ceiling["bacc"]) == (0.0, 0.0, 0.0)
    code, out, _ = run("judge", roots["no-majority"], "judge-a", "--n-boot", 50)
    assert code == 0 and "(any error): undefined (no example it annotated has a clear human" in out


# --- names ------------------------------------------------------------------------------------


def test_campaigns_lists_the_documented_names_with_their_paths(run, roots):
    code, out, err = run("campaigns", roots["same-names"], "--json")
    assert code == 0, err
    table = {row["campaign"]: row for row in strict(out)["campaigns"]}
    for folder, name in shaped.SAME_NAMES.items():
        assert table[name]["path"] == f"annotations/model/{folder}" and table[name]["kind"] == "model"
        assert table[name]["records"] == len(campaigns_of("same-names")[f"model/{folder}"].records)
    assert table["humans"]["path"] == "annotations/human/mt-eval/humans" and table["humans"]["groups"] == 2
    assert len(table) == 4 and {row["task"] for row in table.values()} == {"mt-eval"}


def _f1_of(data, judge):
    return next(row["f1_soft"] for row in data["leaderboard"] if row["judge"] == judge)


def test_judge_accepts_a_name_a_folder_inside_and_its_file(run, roots, monkeypatch):
    root = roots["same-names"]
    folder = root / "annotations/model/mt-eval/cot/llama3-3"
    by_name, _ = judge_json(run, root, "cot-llama3-3")
    given = [folder, folder / "annotations.jsonl"]
    for arg in given:
        data, _ = judge_json(run, root, arg)
        assert data["judge"] == "cot-llama3-3", arg
        assert data["bacc"] == by_name["bacc"] and data["table6"] == by_name["table6"]
    monkeypatch.chdir(root)  # a path relative to the working folder
    assert judge_json(run, root, "annotations/model/mt-eval/cot/llama3-3")[0]["judge"] == "cot-llama3-3"
    # deepseek-r1 (the one cot judge whose folder name is unique) keeps the name of its path too
    assert judge_json(run, root, folder.parent / "deepseek-r1")[0]["judge"] == "cot-deepseek-r1"


def test_judge_accepts_a_folder_path_relative_to_the_corpus_root(run, roots, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert judge_json(run, roots["same-names"], "annotations/model/mt-eval/cot/llama3-3")[0]["judge"] == "cot-llama3-3"


@pytest.mark.parametrize(("folder", "name"), [("my-judge", "my-judge"), ("cot-llama3-3", "cot-llama3-3 (added)")])
def test_an_outside_copy_is_added_whatever_its_name(run, roots, tmp_path, folder, name):
    """A copy of cot/llama3-3 outside the corpus is scored as the original is; named like a
    corpus campaign it becomes "<name> (added)"; the corpus' own names do not change."""
    root = roots["same-names"]
    shutil.copytree(root / "annotations/model/mt-eval/cot/llama3-3", tmp_path / folder)
    data, _ = judge_json(run, root, tmp_path / folder)
    original, _ = judge_json(run, root, "cot-llama3-3")
    assert data["judge"] == name
    assert {row["judge"] for row in data["leaderboard"]} == {*shaped.SAME_NAMES.values(), name, J.CEILING}
    assert _f1_of(data, name) == pytest.approx(_f1_of(original, "cot-llama3-3"))
    assert data["bacc"]["estimate"] == pytest.approx(original["bacc"]["estimate"])
    assert not any(p.name.startswith(".hotelcheckspan") for p in tmp_path.iterdir())


# --- gamma ------------------------------------------------------------------------------------


def _marked(recs: list[dict]) -> set[int]:
    return {r["example_idx"] for r in recs if r["annotations"]}


@pytest.mark.parametrize("soft", [False, True])
def test_gamma_of_a_file_against_itself_is_one_where_it_marked(run, roots, soft):
    path = roots["same-names"] / "annotations/model/mt-eval/cot/llama3-3/annotations.jsonl"
    code, out, err = run("gamma", path, path, "--json", *(["--soft"] if soft else []))
    assert code == 0, err
    res = strict(out)
    recs = campaigns_of("same-names")["model/mt-eval/cot/llama3-3"].records
    assert res["gamma"] == pytest.approx(1.0) and res["gamma_examples"] == len(_marked(recs))
    assert res["s_empty_examples"] == len(recs) - len(_marked(recs)) and res["s_empty"] == pytest.approx(1.0)


# --- the bundled real corpora -----------------------------------------------------------------


def _human_file(root):
    return next((root / "annotations" / "human").rglob("annotations.jsonl"))


@pytest.mark.parametrize("which", ["REAL_CORPUS", "REAL_TEST_CORPUS"])
def test_judge_on_the_bundled_real_corpora(run, which):
    root = getattr(paths, which)
    corpus = load(root)
    data, err = judge_json(run, root, corpus.campaigns("model")[0])
    cmp = data["compared"]
    raw = [json.loads(line) for line in _human_file(root).read_text(encoding="utf-8").splitlines() if line.strip()]
    if which == "REAL_TEST_CORPUS":  # the test split: two groups annotated the judged texts
        assert cmp["references"] == ["test/A", "test/B"] and cmp["examples"] == 1200
        assert cmp["human_records"] == sum(r["split"] == "test" for r in raw)
    else:  # the iaa split: every one of its 29 groups annotated the 12 texts
        groups = {r["annotator_group"] for r in raw}
        assert len(groups) == 29 and len(cmp["references"]) == len(set(cmp["references"])) == 29
        assert all(ref.startswith("iaa/") for ref in cmp["references"]) and cmp["human_records"] == len(raw)
    assert cmp["ceiling"]["defined"] and cmp["f1"]["convention"] == "either"
    for row in data["leaderboard"]:  # every judge of both splits meets a clear majority somewhere
        assert row["bacc"] is not None and 0 <= row["bacc"] <= 1 and row["bacc_reason"] is None
        assert row["in_paper"] is False
    assert len(data["leaderboard"]) == len(corpus.campaigns("model")) + 1


@pytest.mark.parametrize("which", ["REAL_CORPUS", "REAL_TEST_CORPUS"])
def test_the_book_refuses_a_real_corpus_naming_what_it_lacks(which):
    root = getattr(paths, which)
    line = paper_shape.refusal(load(root))
    config = yaml.safe_load((_human_file(root).with_name("config.yaml")).read_text(encoding="utf-8"))
    first_category = config["annotation_span_categories"][0]["name"]
    split = "iaa" if which == "REAL_CORPUS" else "test"
    assert "\n" not in line and str(root) in line
    for lacking in ("human campaign stage1", "human campaign stage2", "overall impressions", first_category):
        assert lacking in line, lacking
    assert f"the splits short and long (it has {split})" in line


def test_the_book_takes_the_stand_in():
    assert paper_shape.refusal(load(paths.BUNDLED_CORPUS)) is None


def test_the_book_check_exits_1_with_one_line(tmp_path):
    env = os.environ | {paths.DATA_ENV: str(paths.REAL_TEST_CORPUS)}
    done = subprocess.run(
        [sys.executable, "-m", "hotelcheckspan.book.paper_shape"], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0] == paper_shape.refusal(load(paths.REAL_TEST_CORPUS))


# --- the smaller items ------------------------------------------------------------------------


def test_a_config_only_campaign_is_a_warning_and_left_out(roots):
    corpus = load(roots["config-only"])
    empty = [w for w in corpus.warnings if w.kind == P.EMPTY_CAMPAIGN]
    assert len(empty) == 1 and empty[0].file == "annotations/model/pending/config.yaml" and not empty[0].is_error
    assert "pending" not in corpus.campaigns() and set(corpus.campaigns("model")) == {"judge-a", "judge-b"}


def test_judge_counts_an_outside_folders_warnings(run, roots, tmp_path):
    """An outside copy of a judge whose three one-span records have their span's start moved to
    another word (the text is not at its start): three warnings, counted on stderr with the
    folder named; the corpus itself has none."""
    root = roots["one-group"]
    assert load(root).warnings == []
    recs = json.loads(json.dumps(campaigns_of("one-group")["model/judge-a"].records))  # a deep copy
    lone = [r for r in recs if len(r["annotations"]) == 1][:3]
    for rec in lone:
        a = rec["annotations"][0]
        first = shaped.text(rec["example_idx"])[: a["start"]].count(" ")  # the word it started at
        a["start"] = shaped.span(rec["example_idx"], (first + 4) % shaped.WORDS, 1, 0)["start"]
    assert len(lone) == 3
    folder = shaped.write_campaign(tmp_path / "moved", shaped.Campaign("", recs))
    code, out, err = run("judge", root, folder, "--json", "--n-boot", 50)
    assert code == 0, err
    assert f"3 warnings in {root} (kept" in err  # the outside folder's named by its own path with --verbose
    assert strict(out)["judge"] == "moved"
    code, out, err = run("judge", root, folder, "--json", "--n-boot", 50, "--verbose")
    lines = err.strip().splitlines()
    assert len(lines) == 3 and all(line.startswith(f"{folder / 'annotations.jsonl'}:") for line in lines)
    assert all("warning: annotations.0.text:" in line for line in lines)


def test_many_groups_are_listed_as_numbers(run, tmp_path):
    """A file with 29 groups: an absent group's error lists them 0 ... 28, not A ... Z, 26."""
    rng = np.random.default_rng(7)
    root = shaped.write(
        tmp_path / "many",
        [shaped.human("many", {g: range(g, g + 2) for g in range(29)}, rng), shaped.model("judge", range(30), rng)],
        30,
    )
    human = root / "annotations/human/many/annotations.jsonl"
    code, out, err = run("f1", human, root / "annotations/model/judge/annotations.jsonl", "--ref-group", 99)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert f"(its groups: {', '.join(str(g) for g in range(29))})" in err and ", Z" not in err


@pytest.mark.parametrize(
    ("setting", "words"),
    [
        ({}, "no annotation_overlap_allowed: factgenie reads it as false"),
        ({"annotation_overlap_allowed": False}, "annotation_overlap_allowed: false"),
    ],
)
def test_the_overlap_warning_says_where_the_rule_comes_from(tmp_path, setting, words):
    spans = [shaped.span(0, 0, 2, 0), shaped.span(0, 1, 2, 1)]  # words 0-1 and 1-2: they overlap
    camp = shaped.Campaign("human/ann", [shaped.record(0, 0, spans)], setting)
    corpus = load(shaped.write(tmp_path / "c", [camp, shaped.Campaign("model/j", [shaped.record(0, 0, [])])], 1))
    overlaps = [w for w in corpus.warnings if w.kind == P.OVERLAP]
    assert len(overlaps) == 1 and words in overlaps[0].message


def test_a_config_given_to_f1_is_one_error_line(run, roots):
    camp = roots["no-majority"] / "annotations/human/ann"
    assert len((camp / "config.yaml").read_text().splitlines()) > 1
    code, out, err = run(
        "f1", camp / "config.yaml", roots["no-majority"] / "annotations/model/judge-a/annotations.jsonl"
    )
    lines = err.strip().splitlines()
    assert code == 1 and out == "" and len(lines) == 1 and "not a JSON Lines file" in lines[0]


def test_f1_says_when_it_pools_groups(run, roots):
    root = roots["no-majority"]
    human, judge = (
        root / "annotations/human/ann/annotations.jsonl",
        root / "annotations/model/judge-a/annotations.jsonl",
    )
    code, out, err = run("f1", human, judge, "--json")
    assert code == 0 and "its 2 annotator groups are pooled" in err and "--ref-group" in err
    compared = strict(out)["compared"]
    assert compared["reference"] == {"file": str(human), "campaign": "ann", "group": None, "groups": ["A", "B"]}
    assert compared["hypothesis"] == {"file": str(judge), "campaign": "judge-a", "group": None, "groups": ["A"]}
    code, out, err = run("f1", human, judge, "--ref-group", "B", "--json")
    assert code == 0 and "pooled" not in err
    assert strict(out)["compared"]["reference"]["group"] == "B"
