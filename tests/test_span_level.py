"""Table 6's companions (per-category figures, the length convention, the paper beside ours) on
the toy corpus; every expected value worked out by hand from the spans in ``tests/toy.py``.

The comparison is stage 1's two groups (references) against m1 (hypothesis) on examples 0-3:

* St. 1A vs m1: ex 0 INC [0,5) vs INC [0,8); ex 1 - vs MIS [3,5); ex 2 NC [6,8) vs -;
  ex 3 MIS [9,14) vs NC [9,11).
* St. 1B vs m1: ex 0 INC [0,2) + MIS [6,11) vs INC [0,8); ex 1 NC [3,5) vs MIS [3,5); ex 2 -;
  ex 3 NC [12,14) vs NC [9,11).

Under factgenie's convention lengths count only where both sides marked something (ex 0 and 3
for the first pair; ex 0, 1 and 3 for the second).
"""

import pandas as pd
import pytest

from hotelcheckspan.analyses import span_level as S
from hotelcheckspan.categories import CATEGORIES

NC, MIS, INC = CATEGORIES
COMPARISON = [{"name": "S1-m1", "ref": ["stage1/A", "stage1/B"], "hyp": ["m1"]}]


def test_per_category_averages_each_variant_over_the_pairs(toy):
    t = S.per_category(toy, COMPARISON, convention="both")  # factgenie 1.2.1's lengths
    assert t.columns.tolist() == ["comparison", "category", "variant", "precision", "recall", "f1"]
    assert len(t) == 9 and set(t["comparison"]) == {"S1-m1"}
    got = t.set_index(["category", "variant"])[["precision", "recall", "f1"]]

    def prf(category, variant):
        return got.loc[(category, variant)].tolist()

    # hard, INC: pair 1 overlap 5 of hyp 8 / ref 5; pair 2 overlap 2 of hyp 8 / ref 2
    assert prf(INC, "hard") == pytest.approx([(5 / 8 + 2 / 8) / 2, 1, (10 / 13 + 0.4) / 2])
    assert prf(MIS, "hard") == [0, 0, 0] and prf(NC, "hard") == [0, 0, 0]
    # soft as factgenie: overlap is credited to the hypothesis' type and recall divides by the
    # reference's length of that type, so pair 2 credits 4 characters to INC against 2 of INC
    # reference: a recall of 2
    assert prf(INC, "soft (factgenie)") == pytest.approx([(5 / 8 + 4 / 8) / 2, (1 + 2) / 2, (10 / 13 + 0.8) / 2])
    assert prf(MIS, "soft (factgenie)") == pytest.approx([(0 + 1) / 2, (0 + 0.4) / 2, (0 + 4 / 7) / 2])
    assert prf(NC, "soft (factgenie)") == pytest.approx([(1 + 0) / 2, 0, 0])
    # soft, consistent: precision counts the hypothesis' c characters any reference covers,
    # recall the reference's c characters any hypothesis covers; recall stays within 1
    assert prf(INC, "soft (consistent)") == pytest.approx([(5 / 8 + 4 / 8) / 2, 1, (10 / 13 + 2 / 3) / 2])
    assert prf(MIS, "soft (consistent)") == pytest.approx([(0 + 1) / 2, (2 / 5 + 2 / 5) / 2, (0 + 4 / 7) / 2])
    assert prf(NC, "soft (consistent)") == pytest.approx([(1 + 0) / 2, (0 + 2 / 4) / 2, 0])


def test_convention_effect_counts_lengths_of_one_sided_examples(toy):
    t = S.convention_effect(toy, COMPARISON)
    assert t.columns.tolist() == ["comparison", "match", "f1 (both marked)", "f1 (every example)", "difference"]
    got = t.set_index("match")
    # F1 = 2 overlap / (hyp length + ref length). Pair 1: overlap 5 hard, 7 soft; lengths 10 + 10
    # under factgenie's convention, 12 + 12 with ex 1 and 2 counted. Pair 2 has no one-sided
    # example: overlap 2 hard, 6 soft over 12 + 11 either way.
    hard = got.loc["hard"]
    assert hard["f1 (both marked)"] == pytest.approx((10 / 20 + 4 / 23) / 2)
    assert hard["f1 (every example)"] == pytest.approx((10 / 24 + 4 / 23) / 2)
    assert hard["difference"] == pytest.approx(-1 / 24)
    soft = got.loc["soft"]
    assert soft["f1 (both marked)"] == pytest.approx((14 / 20 + 12 / 23) / 2)
    assert soft["f1 (every example)"] == pytest.approx((14 / 24 + 12 / 23) / 2)
    assert soft["difference"] == pytest.approx((14 / 24 - 14 / 20) / 2)


def t6_row(comparison, match, p, r, f):
    return {
        "comparison": comparison,
        "match": match,
        "pairs": 2,
        "precision": p,
        "precision_low": p - 0.1,
        "precision_high": p + 0.1,
        "recall": r,
        "recall_low": r - 0.05,
        "recall_high": r + 0.05,
        "f1": f,
        "f1_low": f - 0.02,
        "f1_high": f + 0.2,
    }


def test_versus_table6_rounds_ours_and_says_what_the_paper_does_not_have():
    t6 = pd.DataFrame(
        [
            t6_row("A-B", "hard", 0.123, 0.456, 0.2),
            t6_row("A-B", "soft", 0.3, 0.5, 0.4),
            t6_row("new", "hard", 0.5, 0.5, 0.5),
            t6_row("new", "soft", 0.6, 0.6, 0.6),
        ]
    )
    paper = {
        "table6_span_level": {"A-B": {"P_H": 0.1, "R_H": 0.2, "F1_H": 0.15, "P_S": 0.29, "R_S": 0.28, "F1_S": 0.28}}
    }
    v = S.versus_table6(t6, paper)
    assert v["comparison"].tolist() == ["A-B", "new"]
    assert v.columns.tolist()[:7] == ["comparison", "paper P_H", "P_H", "P_H 95% CI", "paper R_H", "R_H", "R_H 95% CI"]
    assert len(v.columns) == 1 + 2 * 3 * 3
    ab = v.set_index("comparison").loc["A-B"]
    assert (ab["paper P_H"], ab["P_H"], ab["P_H 95% CI"]) == (0.1, 0.12, "0.02-0.22")
    assert (ab["R_H"], ab["R_H 95% CI"], ab["F1_H 95% CI"]) == (0.46, "0.41-0.51", "0.18-0.40")
    assert (ab["paper F1_S"], ab["F1_S"], ab["F1_S 95% CI"]) == (0.28, 0.4, "0.38-0.60")
    new = v.set_index("comparison").loc["new"]
    assert new["paper P_H"] == new["paper F1_S"] == "not in the paper" and new["F1_S"] == 0.6
