"""WMT's MQM span annotations read as they ship (``hotelcheckspan.corpora.mqm``): the published
TED table reproduced, the reader on rows of each kind and on bad rows, the MQM score as a human
target, raters' agreement, an LLM's MQM spans as a judge, a metric validated per language pair."""

from __future__ import annotations

import json
import math
from pathlib import Path

import mqm_shapes as S  # noqa: I001 (the tests' own builders)
import numpy as np
import pandas as pd
import pytest
import yaml

import hotelcheckspan
from hotelcheckspan import cli, paths
from hotelcheckspan.analyses import metric_targets
from hotelcheckspan.corpora import frame as F
from hotelcheckspan.corpora import mqm

SHARED = paths.REPO_ROOT.parent / "shared" / "corpora" / "wmt-mqm-ted-ende"


def run(capsys, *args) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(scope="module")
def ted():
    return hotelcheckspan.load(paths.MQM_TED)


# --- the published table ------------------------------------------------------------------------


def test_the_ted_table_is_reproduced_within_its_rounding_and_in_its_order(capsys):
    published = yaml.safe_load((paths.MQM_FOLDER / "published.yaml").read_text(encoding="utf-8"))
    names = published["names"]
    printed = {names.get(k, k): v for k, v in published["scores"].items()}
    code, out, err = run(capsys, "target", paths.MQM_TED, "--target", "mqm", "--per", "system", "--json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    ours = {r["system"]: r["score"] for r in rows}
    assert set(ours) == set(printed) and len(rows) == 14
    half = 0.5 * 10 ** -published["decimals"]  # the printed value's rounding, plus the README's stated slack
    for system, value in printed.items():
        assert abs(ours[system] - value) <= 2 * half, (system, ours[system], value)
    assert [r["system"] for r in rows] == list(printed)  # the README's order, best (lowest) first
    assert all(r["texts"] == 529 for r in rows)
    assert [r["system"] for r in rows if r["reference"]] == ["ref"]


def test_per_segment_scores_equal_the_repositorys(ted):
    # their header is space-separated, their rows tab-separated; the reference is "ref-A" there; a
    # segment a system was not rated on is NaN there and absent here
    theirs = pd.read_csv(paths.MQM_FOLDER / "mqm_ted_ende.avg_seg_scores.tsv", sep=r"\s+").dropna()
    theirs = theirs.replace({"system": {"ref-A": "ref"}}).rename(
        columns={"system": "setup_id", "seg_id": "example_idx"}
    )
    ours = mqm.scores(ted, per="text")
    both = ours.merge(theirs, on=["setup_id", "example_idx"], how="inner")
    assert len(both) == len(ours) == len(theirs) == 7406  # every rated segment of every system, both ways
    assert np.allclose(-both["score"], both["mqm_avg_score"], atol=1e-9)
    # and the per-text human target is the same score, negated (higher = more faithful)
    target = metric_targets.human_targets(ted).merge(ours, on=hotelcheckspan.corpora.KEY)
    assert np.allclose(target["mqm"], -target["score"])


def test_the_bundled_copy_equals_the_shared_original():
    if not SHARED.is_dir():
        pytest.skip("../shared is absent (only the development checkout has it)")
    for name in ("mqm_ted_ende.tsv", "mqm_ted_ende.avg_seg_scores.tsv", "LICENSE"):
        assert (paths.MQM_FOLDER / name).read_bytes() == (SHARED / name).read_bytes(), name


def test_the_ted_file_reads_with_its_one_quirk_as_a_warning(ted):
    assert len(ted.records) == 7406 and ted.records["annotator_group"].nunique() == 4
    assert set(ted.examples["split"]) == {"en-de"} and set(ted.examples["dataset"]) == {"ted"}
    (warning,) = ted.warnings
    assert warning.line == 6444 and warning.kind == mqm.UNBALANCED and "never closed" in warning.message
    placed = ted.spans[ted.spans["placed"].fillna(False).astype(bool)]
    texts = ted.examples.set_index(hotelcheckspan.corpora.KEY)["text"]
    for r in placed.sample(200, random_state=0).itertuples():
        text = texts.loc[(r.dataset, r.split, r.setup_id, r.example_idx)]
        assert text[r.start : r.end] == r.text


# --- rows of each kind -------------------------------------------------------------------------


@pytest.fixture
def kinds_root(tmp_path):
    S.kinds(tmp_path)
    S.marot(tmp_path)
    return tmp_path


def test_rows_of_each_kind(kinds_root):
    corpus = hotelcheckspan.load(kinds_root)
    legacy = corpus.spans[corpus.spans["campaign"] == "mqm_kinds_ende"]
    by = {(r.setup_id, r.example_idx, r.category): r for r in legacy.itertuples()}
    katze = by[("sysA", 1, "Accuracy/Mistranslation")]
    assert (katze.start, katze.end, katze.text, katze.type) == (4, 9, "Katze", "Major")  # offsets without markers
    omission = by[("sysA", 2, "Accuracy/Omission")]
    assert (omission.start, omission.end, omission.text) == (0, 0, "") and pd.isna(omission.placed)
    whole = by[("ref", 2, "Non-translation!")]
    assert whole.text == S.TARGETS[1] and whole.placed
    rec = corpus.records.set_index(["campaign", "setup_id", "example_idx", "annotator_id"])
    clean = rec.loc[("mqm_kinds_ende", "ref", 1, "r2")]
    assert clean["n_spans"] == 0 and bool(clean["no_errors"])  # a No-error row: a rated segment, no span
    assert rec.loc[("mqm_kinds_ende", "sysA", 2, "r1"), "n_spans"] == 1  # the omission counts as an error
    text = corpus.examples.set_index("setup_id").loc["sysA"]
    assert "<v>" not in "".join(corpus.examples["text"]) and set(text["source"]) <= set(S.SOURCES)
    assert mqm.is_reference("ref") and mqm.is_reference("Human-A") and mqm.is_reference("refA")
    assert not mqm.is_reference("sysA") and not mqm.is_reference("Online-W")
    # the newer column set: docSegId, globalSegId and a JSON metadata column
    newer = corpus.spans[corpus.spans["campaign"] == "mqm_generalMT2023_ende"]
    assert list(newer["example_idx"]) == [101] and list(newer["text"]) == ["saß"]
    # one type list for every campaign of a read: the severities any file uses
    assert corpus.categories_of(*corpus.campaigns()) == ["Critical", "Major", "Minor", "Neutral"]


@pytest.mark.parametrize(
    ("span_type", "expected"),
    [("severity", "Major"), ("category", "Accuracy/Mistranslation"), ("both", "Major/Accuracy/Mistranslation")],
)
def test_the_span_type_is_what_the_user_asks(kinds_root, span_type, expected):
    corpus = hotelcheckspan.load(kinds_root, span_type=span_type)
    katze = corpus.spans[(corpus.spans["text"] == "Katze")].iloc[0]
    assert katze["type"] == expected and katze["severity"] == "Major" and katze["category"] == "Accuracy/Mistranslation"


def test_hands_on_the_wheel_checks_are_a_role_of_their_own(kinds_root, capsys):
    framed = F.load(kinds_root)
    assert framed.roles["mqm_generalMT2023_ende-hotw"] == "attention"
    assert "mqm_generalMT2023_ende-hotw" in framed.left_out and "mqm_generalMT2023_ende-hotw" not in framed.reference
    assert "hotw" not in " ".join(framed.corpus.records["campaign"])  # never errors of the system
    rates = mqm.catch_rates(framed.selected).set_index("rater")
    assert rates.loc["r1", "catch_rate"] == 1.0 and rates.loc["r2", "catch_rate"] == 0.0
    code, out, err = run(capsys, "target", kinds_root, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {r["rater"]: r["catch_rate"] for r in data["catch_rates"]} == {"r1": 1.0, "r2": 0.0}


def test_the_score_weighs_by_name_and_says_what_weighs_nothing(kinds_root, capsys):
    corpus = F.load(kinds_root / "mqm_kinds_ende.tsv").corpus
    got = mqm.scores(corpus).set_index("system")["score"]
    assert got.to_dict() == pytest.approx(S.KINDS_SCORES)
    code, out, err = run(capsys, "target", kinds_root / "mqm_kinds_ende.tsv")
    assert code == 0, err
    assert "note: Critical: no weight names it, so its 1 spans weigh 0 (records at mqm_kinds_ende.tsv:5)" in out
    # --weight amends WMT's weights for --target mqm; --target weighted takes the given ones alone
    code, out, err = run(capsys, "target", kinds_root / "mqm_kinds_ende.tsv", "--weight", "Critical=10", "--json")
    rows = {r["system"]: r["score"] for r in json.loads(out)["rows"]}
    assert rows["sysA"] == pytest.approx(S.KINDS_SCORES["sysA"] + 10 / 3)
    code, out, err = run(
        capsys, "target", kinds_root / "mqm_kinds_ende.tsv", "--target", "weighted", "--weight", "Major=2", "--json"
    )
    rows = {r["system"]: r["score"] for r in json.loads(out)["rows"]}
    assert rows == pytest.approx({"sysA": 2 / 3, "ref": 2 / 3})  # Non-translation! is Major here, weighs 2
    code, _, err = run(capsys, "target", kinds_root / "mqm_kinds_ende.tsv", "--weight", "Major")
    assert code == 1 and "is not NAME=VALUE" in err


def test_weights_follow_the_most_specific_name():
    spans = pd.DataFrame(
        {
            "severity": ["Minor", "Minor", "Major", "Major", "Minor", pd.NA],
            "category": [
                "Fluency/Punctuation",
                "Fluency/Spelling",
                "Non-translation!",
                "Accuracy",
                "non-translation",
                "Incorrect",
            ],
        }
    )
    w = mqm.weigh(spans, {**mqm.WMT_WEIGHTS, "Incorrect": 3})
    assert list(w) == [0.1, 1.0, 25.0, 5.0, 25.0, 3.0]
    assert mqm.parse_weights(["Major=5", "Minor:Fluency/Punctuation=0.1"]) == {
        "Major": 5.0,
        "Minor:Fluency/Punctuation": 0.1,
    }


def test_a_weighted_target_on_a_factgenie_corpus(capsys):
    code, out, err = run(
        capsys, "target", paths.REAL_CORPUS, "--target", "weighted", "--weight", "Contradictory=3", "--per", "text",
        "--json",
    )  # fmt: skip
    assert code == 0, err
    rows = pd.DataFrame(json.loads(out)["rows"])
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    human = corpus.records[corpus.records["kind"] == "human"]
    contradictory = corpus.spans[(corpus.spans["kind"] == "human") & (corpus.spans["type"] == "Contradictory")]
    per_record = contradictory.groupby("record_id").size().reindex(human["record_id"], fill_value=0) * 3
    expected = human.assign(w=per_record.to_numpy()).groupby(hotelcheckspan.corpora.KEY)["w"].mean()
    got = rows.set_index(hotelcheckspan.corpora.KEY)["score"]
    assert np.allclose(got.sort_index(), expected.sort_index())
    code, _, err = run(capsys, "target", paths.REAL_CORPUS)
    assert code == 1 and "--target weighted" in err  # no severities: say how to weigh a factgenie corpus


# --- bad rows ----------------------------------------------------------------------------------


def test_bad_rows_are_reported_all_at_once_with_their_lines(tmp_path, capsys):
    s, t = S.SOURCES, S.TARGETS
    path = tmp_path / "mqm_bad_ende.tsv"
    path.write_text(
        "\n".join(
            [
                S.LEGACY,
                S.row("sysA", "d", 1, 1, "r1", s[0], "Die <v>Katze saß", "Accuracy", "Major", ""),  # never closed
                S.row("sysA", "d", 2, "two", "r1", s[1], t[1], "No-error", "No-error", ""),  # no whole number
                "sysA\td\t3\t3\tr1\tonly six",  # too few fields
                S.row("sysA", "d", 3, 3, "r1", s[2], "Wir </v>gingen<v> früh.", "Style", "Minor", ""),  # reversed
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    code, out, err = run(capsys, "validate", path)
    assert code == 1
    assert "mqm_bad_ende.tsv:3: error: seg_id: segment id 'two' is no whole number" in out
    assert "mqm_bad_ende.tsv:4: error: <tsv>: 6 fields, the format has 9" in out
    assert "mqm_bad_ende.tsv:2: warning: target: an opening <v> is never closed" in out
    assert "mqm_bad_ende.tsv:5: warning: target: unbalanced <v> markers (</v> <v>)" in out
    with pytest.raises(hotelcheckspan.corpora.CorpusError) as info:
        hotelcheckspan.load(path)
    assert len(info.value.problems) == 2  # the two errors, together
    missing = tmp_path / "mqm_cols_ende.tsv"
    missing.write_text("system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", missing)
    assert code == 1 and "mqm_cols_ende.tsv:1: error: <header>: missing column severity" in out


# --- everything else on MQM ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    return S.three(tmp_path_factory.mktemp("three"))


def test_raters_agree_per_language_pair(three, capsys):
    framed = F.load(three)
    assert framed.per == "split" and [label for label, _ in framed.parts()] == ["en-de", "zh-en"]
    code, out, err = run(capsys, "agreement", three, "--matrix", "--measure", "f1", "--json")
    assert code == 0, err
    rows = pd.DataFrame(json.loads(out)["agreement"])
    human = rows[rows["hypothesis"].str.contains("/") & rows["reference"].str.contains("/")]
    assert set(human["part"]) == {"en-de", "zh-en"} and (human["texts"] == 24).all()  # three raters, every segment
    ende = three / "mqm_sxs_ende.tsv"
    code, out, err = run(capsys, "f1", three, "mqm_sxs_ende/A", "mqm_sxs_ende/B", "--split", "en-de", "--json")
    assert code == 0, err
    pair = human[(human["hypothesis"] == "mqm_sxs_ende/B") & (human["reference"] == "mqm_sxs_ende/A")]
    assert json.loads(out)["f1"] == pytest.approx(float(pair["f1_hard"].iloc[0]))
    assert ende.exists()


def test_an_llms_mqm_spans_are_a_judge(three, capsys):
    code, out, err = run(capsys, "judges", three, "--n-boot", 50, "--no-distinguish", "--json")
    assert code == 0, err
    board = pd.DataFrame(json.loads(out)["leaderboard"])
    assert set(board["part"]) == {"en-de", "zh-en"}
    judged = board[board["judge"] != "humans (ceiling)"]
    assert sorted(judged["judge"]) == ["model-gpt-mqm_sxs_ende", "model-gpt-mqm_sxs_zhen"]
    assert judged["f1_soft"].notna().all() and judged["bacc"].notna().all()
    code, out, err = run(capsys, "judge", three, "model-gpt-mqm_sxs_ende", "--split", "en-de", "--n-boot", 50)
    assert code == 0, err and "judge model-gpt-mqm_sxs_ende" in out


def test_a_metric_is_validated_against_mqm_per_language_pair(three, tmp_path, capsys):
    corpus = hotelcheckspan.load(three)
    keys = corpus.examples[hotelcheckspan.corpora.KEY]
    # a metric that reads the target: minus the human MQM score plus seeded noise (any metric would do)
    target = metric_targets.human_targets(corpus).set_index(hotelcheckspan.corpora.KEY)["mqm"]
    noise = np.random.default_rng(0).normal(scale=2.0, size=len(keys))
    scores = keys.assign(length=target.reindex(pd.MultiIndex.from_frame(keys)).to_numpy() + noise)
    path = tmp_path / "scores.csv"
    scores.to_csv(path, index=False)
    code, out, err = run(capsys, "metric", three, path, "--target", "mqm", "--n-boot", 100, "--no-judges", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data["parts"]) == {"en-de", "zh-en"} and data["settings"]["frame"]["per"] == "split"
    for pair, part in data["parts"].items():
        (row,) = [m for m in part["metrics"] if m["metric"] == "length" and m["target"] == "mqm"]
        assert row["n"] == 24 and not math.isnan(row["kendall_tau_b"]["value"] or float("nan"))
        system = pd.DataFrame(part["system"])
        assert set(system["target"]) == {"mqm"} and (system["texts"] == 24).all() and (system["systems"] == 3).all()


def test_the_ted_frame_and_its_human_target_in_metric(ted):
    framed = F.resolve(ted)
    assert framed.per is None and framed.splits == ("en-de",) and framed.reference == ("mqm_ted_ende",)
    targets = metric_targets.human_targets(ted)
    assert "mqm" in targets and targets["mqm"].max() <= 0
    assert metric_targets.weighted_columns(ted.spans, None) == {"mqm": mqm.WMT_WEIGHTS}


@pytest.mark.parametrize(
    ("name", "pair", "test_set"),
    [
        ("mqm_ted_ende.tsv", "en-de", "ted"),
        ("mqm_newstest2021_zhen.tsv", "zh-en", "newstest2021"),
        ("sxs_mqm_generalMT2023_ende.3ratingsPerSegment.tsv", "en-de", "generalMT2023"),
        ("ratings.tsv", None, "ratings"),
    ],
)
def test_names_of_wmt_files(name, pair, test_set):
    assert mqm.language_pair(name) == pair and mqm.test_set(name) == test_set


def test_a_folder_reads_its_mqm_files_and_names_the_others(tmp_path):
    S.kinds(tmp_path)
    (tmp_path / "scores.tsv").write_text("system\tscore\tseg_id\nsysA\t-1.0\t1\n", encoding="utf-8")
    corpus = hotelcheckspan.load(tmp_path)
    assert corpus.campaigns() == ["mqm_kinds_ende"]
    assert any(w.kind == mqm.NOT_MQM and w.file == "scores.tsv" for w in corpus.warnings)


def test_mqm_files_are_found_by_layout(tmp_path):
    assert mqm.is_mqm(paths.MQM_TED) and mqm.is_mqm(paths.MQM_FOLDER)
    assert not mqm.is_mqm(paths.REAL_CORPUS) and not mqm.is_mqm(Path(tmp_path))


def test_the_command_line_takes_the_span_type(kinds_root, capsys):
    """--span-type on every command that reads a corpus: an MQM file's categories as its span types."""
    types = {}
    for span_type in ("category", "severity"):
        code, out, err = run(capsys, "stats", kinds_root, "--span-type", span_type, "--json")
        assert code == 0, err
        types[span_type] = {row["type"] for row in json.loads(out)["table2_human_types"]}
    assert "Accuracy/Mistranslation" in types["category"] and "Major" not in types["category"]
    assert "Major" in types["severity"] and "Accuracy/Mistranslation" not in types["severity"]
    code, out, err = run(capsys, "stats", kinds_root, "--json")  # severity by default
    assert {row["type"] for row in json.loads(out)["table2_human_types"]} == types["severity"]
