"""factgenie's correlation of error counts (``factgenie iaa pearson``): ours equals factgenie
1.2.1's own ``compute_pearson_scores`` on the bundled corpus and on the real public corpus."""

import itertools
import json
import math
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sweep
from slugify import slugify
from span_reference import load_factgenie_iaa, raw_records, raw_span_index

import hotelcheckspan
from hotelcheckspan import cli, paths
from hotelcheckspan.metrics import error_counts

KEY = ["dataset", "split", "setup_id", "example_idx"]


FACTGENIE = load_factgenie_iaa("pearson")
pytestmark = [
    pytest.mark.skipif(FACTGENIE is None, reason="factgenie is not installed"),
    pytest.mark.filterwarnings("ignore::scipy.stats.ConstantInputWarning"),  # factgenie's, where r is NaN
]


@cache
def read(path: Path):
    return hotelcheckspan.read_annotations(path)


def example_list(sides: list[tuple[Path, int | None]]) -> pd.DataFrame:
    """factgenie's example list: examples with a record of every side (slugified keys)."""
    keys = []
    for path, group in sides:
        keys.append(
            {
                (slugify(r["dataset"]), slugify(r["split"]), slugify(r["setup_id"]), r["example_idx"])
                for r in raw_records(path)
                if group is None or r["annotator_group"] == group
            }
        )
    return pd.DataFrame(sorted(set.intersection(*keys)), columns=KEY)


def assert_equal_to_factgenie(ref: Path, ref_group, hyp: Path, hyp_group) -> dict:
    names = {"ref": ref, "hyp": hyp} if ref != hyp else {"ref": ref}
    index = raw_span_index(tuple(names.items()))
    camp = {p: n for n, p in names.items()}
    theirs = FACTGENIE.compute_pearson_scores(
        index, example_list([(ref, ref_group), (hyp, hyp_group)]), [(camp[ref], ref_group), (camp[hyp], hyp_group)]
    )
    ours = hotelcheckspan.span_pearson(read(ref), read(hyp), ref_group=ref_group, hyp_group=hyp_group)
    categories = read(ref).categories
    assert ours["examples"] == theirs["example_count"]
    for k in ("micro_pearson", "micro_p_value", "macro_pearson", "macro_p_value"):
        assert ours[k] == pytest.approx(float(theirs[k]), abs=1e-12, nan_ok=True), k
    assert list(ours["by_type"]) == [categories[int(c)] for c in theirs["categories"]]
    for c, vals in theirs["categories"].items():
        mine = ours["by_type"][categories[int(c)]]
        assert mine["pearson"] == pytest.approx(float(vals["micro_pearson"]), abs=1e-12, nan_ok=True), c
        assert mine["p_value"] == pytest.approx(float(vals["micro_p_value"]), abs=1e-12, nan_ok=True), c
    return ours


BUNDLED = paths.BUNDLED_CORPUS / "annotations"
REAL = paths.REAL_CORPUS / "annotations"
REAL_HUMAN = REAL / "human/d2t-eval/iaa/annotations.jsonl"
REAL_MODELS = sorted((REAL / "model/d2t-eval/iaa").glob("*/annotations.jsonl"))


@cache
def real_groups() -> list[int]:
    return sorted({int(r["annotator_group"]) for r in raw_records(REAL_HUMAN)})


@pytest.mark.parametrize(
    "ref, ref_group, hyp, hyp_group",
    [
        ("human/stage1", 0, "human/stage2", 1),
        ("human/stage1", 0, "human/stage1", 1),
        ("human/stage2", None, "model/gpt-4o", None),
    ],
)
def test_bundled_corpus_equals_factgenie(ref, ref_group, hyp, hyp_group):
    ours = assert_equal_to_factgenie(
        BUNDLED / ref / "annotations.jsonl", ref_group, BUNDLED / hyp / "annotations.jsonl", hyp_group
    )
    assert -1 <= ours["micro_pearson"] <= 1


@pytest.mark.parametrize("model", REAL_MODELS, ids=lambda p: p.parent.name)
def test_real_corpus_equals_factgenie_for_every_llm_against_two_groups(model):
    for group in real_groups()[:2]:
        assert_equal_to_factgenie(REAL_HUMAN, group, model, None)


# factgenie filters its span index once per example and group: the slow tier compares every human
# group with one LLM, the LLMs taking turns, and an even sixth of the pairs of human groups, with
# every pair whose macro r both sides define (every pair with the full sweep, tests/sweep.py)
@pytest.mark.slow
def test_real_corpus_equals_factgenie_for_every_llm_and_many_group_pairs():
    groups = real_groups()
    macros = []
    for turn, model in enumerate(REAL_MODELS):
        for group in sweep.share(groups, turn, of=len(REAL_MODELS)):
            macros.append(assert_equal_to_factgenie(REAL_HUMAN, group, model, None)["macro_pearson"])
    pairs = list(itertools.combinations(groups, 2))
    # a macro r is a number only where both sides' counts vary in every category (few pairs of
    # groups, no group-LLM pair): those pairs are always compared, and give a number
    defined = [pair for pair in pairs if counts_vary(*pair)]
    for a, b in sorted(set(sweep.share(pairs, 0, of=6)) | set(defined)):
        macro = assert_equal_to_factgenie(REAL_HUMAN, a, REAL_HUMAN, b)["macro_pearson"]
        assert math.isnan(macro) != ((a, b) in defined), (a, b, macro)
        macros.append(macro)
    assert defined and any(math.isnan(m) for m in macros)  # numbers compared, and NaN where factgenie has NaN


@cache
def human_counts() -> tuple[dict[int, dict[tuple, Counter]], set]:
    """Each human group's count of spans of each category on each of its texts, and the categories
    the file marks (read from the records)."""
    per_text: dict[int, dict[tuple, Counter]] = {}
    for r in raw_records(REAL_HUMAN):
        key = (r["dataset"], r["split"], r["setup_id"], r["example_idx"])
        per_text.setdefault(int(r["annotator_group"]), {})[key] = Counter(s["type"] for s in r["annotations"])
    return per_text, {t for texts in per_text.values() for c in texts.values() for t in c}


def counts_vary(a: int, b: int) -> bool:
    """Whether both human groups' span counts vary over the texts they share, in every category the
    file marks: where their macro r is defined, a constant side making a category's r NaN."""
    per_text, types = human_counts()
    shared = sorted(per_text[a].keys() & per_text[b].keys())
    return all(len({per_text[g][k][t] for k in shared}) > 1 for g in (a, b) for t in types)


def test_by_hand():
    ex = pd.DataFrame([("d", "s", "x", i) for i in range(4)], columns=KEY)

    def spans(per_ex):
        rows = [(*ex.iloc[i], t) for i, types in enumerate(per_ex) for t in types]
        return pd.DataFrame(rows, columns=[*KEY, "type"])

    ref, hyp = spans([["A"], ["A", "A"], [], ["B"]]), spans([["A"], ["A", "B"], ["B"], []])
    got = error_counts.error_count_pearson(ref, hyp, ex, ["A", "B", "C"])
    assert list(got["categories"]) == ["A", "B"]  # C: nobody marked it, left out
    a = np.corrcoef([1, 2, 0, 0], [1, 1, 0, 0])[0, 1]
    b = np.corrcoef([0, 0, 0, 1], [0, 1, 1, 0])[0, 1]
    micro = np.corrcoef([1, 0, 2, 0, 0, 0, 0, 1], [1, 0, 1, 1, 0, 1, 0, 0])[0, 1]
    assert got["categories"]["A"]["pearson"] == pytest.approx(a)
    assert got["categories"]["B"]["pearson"] == pytest.approx(b)
    assert got["micro_pearson"] == pytest.approx(micro)
    assert got["macro_pearson"] == pytest.approx((a + b) / 2)
    silent = error_counts.error_count_pearson(ref, spans([[], [], [], []]), ex, ["A", "B", "C"])
    assert math.isnan(silent["micro_pearson"]) and math.isnan(silent["macro_pearson"])


def test_cli_prints_json_and_a_table(capsys):
    ref, hyp = BUNDLED / "human/stage1/annotations.jsonl", BUNDLED / "human/stage2/annotations.jsonl"
    assert cli.main(["pearson", str(ref), str(hyp), "--ref-group", "A", "--hyp-group", "B", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    api = hotelcheckspan.span_pearson(ref, hyp, ref_group="A", hyp_group="B")
    assert result["micro_pearson"] == pytest.approx(api["micro_pearson"]) and result["examples"] == api["examples"]
    assert cli.main(["pearson", str(ref), str(hyp), "--ref-group", "A", "--hyp-group", "B"]) == 0
    out = capsys.readouterr().out
    assert "micro" in out and "macro" in out and "Misleading" in out
    assert cli.main(["pearson", str(ref), str(BUNDLED / "nowhere.jsonl")]) == 1
