"""One frame per run (``hotelcheckspan.corpora.frame``): what every number rests on, resolved once
and named in every output, on the export of "LLMs as Span Annotators" as it ships, in small
(``real_shapes`` "wide": three tasks, d2t-eval with three splits, a qualification task and its
key, mt-eval's JSON Lines inputs and a 0-byte annotation file, propaganda's 18 categories, and a
dev split whose first and last judges' intervals are apart)."""

from __future__ import annotations

import json
import re
import shlex

import numpy as np
import pandas as pd
import pytest
import real_shapes  # noqa: I001 (the tests' own builder)

import hotelcheckspan
from hotelcheckspan import api, cli, paths
from hotelcheckspan.book import real_shape, report
from hotelcheckspan.book.readings import evaluate_your_judge
from hotelcheckspan.corpora import KEY
from hotelcheckspan.corpora import frame as F
from hotelcheckspan.corpora import problems as P

QUALIFICATION = "d2t-eval-qualification-qualification-task"
KEY_CAMPAIGN = "d2t-eval-qualification-qualification-key"


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    # small enough for many commands: four test texts per domain and system, the iaa split's first
    # eight groups (the qualification task keeps every group; the dev split its six texts)
    return real_shapes.build(tmp_path_factory.mktemp("frame") / "export", "wide", texts=range(6, 10), groups=8)


def run(capsys, *args) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --- splits -------------------------------------------------------------------------------------


def test_several_splits_are_blocks_never_pooled_unless_asked(wide, capsys):
    frame = F.load(wide, task="d2t-eval")
    assert frame.per == "split" and [label for label, _ in frame.parts()] == ["dev", "iaa", "test"]
    for label, block in frame.parts():
        assert set(block.corpus.records["split"]) == {label} and block.part == label
    code, out, err = run(capsys, "judges", wide, "--task", "d2t-eval", "--n-boot", 50, "--no-distinguish", "--json")
    assert code == 0, err
    data = json.loads(out)
    board = pd.DataFrame(data["leaderboard"])
    assert set(board["part"]) == {"dev", "iaa", "test"} and data["settings"]["frame"]["per"] == "split"
    for part, rows in board.groupby("part"):  # each block ranks its own split's judges
        assert all(j.startswith(f"d2t-eval-{part}-") for j in rows["judge"] if j != "humans (ceiling)")
    code, out, err = run(capsys, "judges", wide, "--task", "d2t-eval", "--pool", "--n-boot", 50, "--no-distinguish")
    assert code == 0, err and "splits dev, iaa, test (pooled (asked))" in out
    # a command that computes one number per run refuses in one line naming the splits
    code, _, err = run(capsys, "judge", wide, "d2t-eval-dev-copyist", "--task", "d2t-eval")
    assert code == 1 and err.strip().splitlines()[-1].endswith("or pool them with --pool (pool=True)")
    assert (
        "the frame has 3 splits (dev, iaa, test)" in err.strip().splitlines()[-1]
    )  # one line, after the warnings' count
    code, _, err = run(capsys, "f1", wide, "d2t-eval-test/A", "d2t-eval-test-gpt4o", "--task", "d2t-eval")
    assert code == 1 and "choose one with --split" in err
    with pytest.raises(ValueError, match=r"3 splits \(dev, iaa, test\)"):
        api.leaderboard(wide, task="d2t-eval", n_boot=20)


def test_stats_and_metric_make_one_block_per_split(wide, capsys):
    code, out, err = run(capsys, "stats", wide, "--task", "d2t-eval", "--json")
    assert code == 0, err
    rows = pd.DataFrame(json.loads(out)["campaigns_all_examples"])
    assert set(rows["part"]) == {"dev", "iaa", "test"}
    assert QUALIFICATION not in set(rows["campaign"]) and KEY_CAMPAIGN not in set(rows["campaign"])
    code, out, err = run(capsys, "metric", wide, "--task", "mt-eval", "--n-boot", 50, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data["parts"]) == {"en-cs", "en-de"}  # mt-eval's language pairs, each a block
    for pair, part in data["parts"].items():
        n = json.loads(json.dumps(part["compared"]))["examples"]
        assert n == len(real_shapes._lines(wide / f"outputs/mt-eval/wmt24-news/{pair}.jsonl"))
    # pooled as asked: the system level is still per language pair, and their mean is said as such
    code, out, err = run(capsys, "metric", wide, "--task", "mt-eval", "--pool", "--n-boot", 50, "--json")
    system = pd.DataFrame(json.loads(out)["system"])
    assert set(system["group"]) == {"en-cs", "en-de", "mean of 2"}
    one = system[(system["statistic"] == "pearson") & (system["target"] == "errors")].set_index("group")["value"]
    assert one["mean of 2"] == pytest.approx(one[["en-cs", "en-de"]].mean())


# --- roles --------------------------------------------------------------------------------------


def test_qualification_and_its_key_are_never_references_by_default(wide, capsys):
    frame = F.load(wide, task="d2t-eval")
    assert frame.roles[QUALIFICATION] == "qualification" and frame.roles[KEY_CAMPAIGN] == "key"
    assert frame.roles["d2t-eval-iaa"] == "iaa" and frame.roles["d2t-eval-test"] == "annotation"
    assert set(frame.reference) == {"d2t-eval-dev", "d2t-eval-iaa", "d2t-eval-test"}
    assert {QUALIFICATION, KEY_CAMPAIGN} <= set(frame.left_out)
    assert not ({QUALIFICATION, KEY_CAMPAIGN} & set(frame.corpus.records["campaign"]))
    header = "\n".join(frame.header())
    assert f"left out: {KEY_CAMPAIGN}: the answer key of a qualification" in header
    # every output names them; --reference takes one, --roles sets a role
    code, out, err = run(capsys, "campaigns", wide, "--task", "d2t-eval", "--json")
    table = pd.DataFrame(json.loads(out)["campaigns"]).set_index("campaign")
    assert table.loc[QUALIFICATION, "role"] == "qualification" and not table.loc[QUALIFICATION, "in_frame"]
    taken = F.load(wide, task="d2t-eval", split="gold-iaa", reference=[QUALIFICATION])
    assert taken.reference == (QUALIFICATION,) and QUALIFICATION not in taken.left_out
    roles = wide.parent / "roles.yaml"
    roles.write_text(f"{QUALIFICATION}: annotation\n", encoding="utf-8")
    assert F.load(wide, task="d2t-eval", roles=roles).roles[QUALIFICATION] == "annotation"
    roles.write_text(f"{QUALIFICATION}: gold\n", encoding="utf-8")
    with pytest.raises(ValueError, match="role 'gold' is none of annotation, iaa"):
        F.load(wide, task="d2t-eval", roles=roles)


@pytest.mark.parametrize(
    ("name", "folder", "role"),
    [
        ("qualification-task", "annotations/human/d2t-eval/qualification/qualification-task", "qualification"),
        ("qualification-key", "annotations/human/d2t-eval/qualification/qualification-key", "key"),
        ("iaa-internal", "annotations/human/d2t-eval/iaa-internal", "iaa"),
        ("attention-checks", "annotations/human/x/attention-checks", "attention"),
        ("screening", "annotations/human/screening", "qualification"),
        ("test", "annotations/human/d2t-eval/test", "annotation"),
        ("stage2", "annotations/human/stage2", "annotation"),
        ("monkey", "annotations/human/monkey", "annotation"),  # "key" only as a word of its own
    ],
)
def test_roles_by_folder_name(name, folder, role):
    assert F.role_by_name(name, folder) == role


def test_the_paper_corpus_keeps_its_frame():
    frame = F.load(paths.BUNDLED_CORPUS)
    assert frame.paper and frame.per is None and frame.pooled and frame.splits == ("long", "short")
    assert frame.reference == ("stage1", "stage2") and not frame.left_out
    assert len(frame.corpus.records) == len(hotelcheckspan.load().records)  # the paper's numbers: every record


# --- texts ----------------------------------------------------------------------------------------


def test_one_text_set_per_pair_the_same_in_every_command(wide, capsys):
    """f1 CORPUS A B, agreement's cell of the pair and judge's pairs rest on the same texts; judge's
    claim that f1 --convention either prints each pair's figure holds."""
    sel = ["--task", "d2t-eval", "--split", "test"]
    judge = "d2t-eval-test-gpt4o"
    code, out, err = run(capsys, "agreement", wide, *sel, "--average", "none", "--hyp", judge, "--json")
    assert code == 0, err
    cells = {r["reference"]: r for r in json.loads(out)["agreement"]}
    soft = []
    for ref, row in cells.items():
        code, out, err = run(capsys, "f1", wide, ref, judge, *sel, "--json")
        single = json.loads(out)
        assert single["examples"] == row["texts"] and single["f1"] == pytest.approx(row["f1_hard"], abs=1e-12)
        code, out, _ = run(capsys, "f1", wide, ref, judge, *sel, "--match", "soft", "--convention", "either", "--json")
        soft.append(json.loads(out)["f1"])
    code, out, err = run(capsys, "judge", wide, judge, *sel, "--n-boot", 50, "--json")
    assert code == 0, err
    data = json.loads(out)
    mine = next(r for r in data["leaderboard"] if r["judge"] == judge)
    assert mine["f1_soft"] == pytest.approx(np.mean(soft), abs=1e-12)  # the pairs' mean, as judge says
    code, out, _ = run(capsys, "judge", wide, judge, *sel, "--n-boot", 50)
    assert "`hotelcheckspan f1 CORPUS SET" in out and "--convention either` prints" in out


def test_records_without_a_text_are_left_out_and_counted(capsys):
    """The d2t test split's human campaign holds 476 records on iaa keys whose texts are not in
    the folder: left out of every number under the one text rule, counted in the header."""
    frame = F.load(paths.REAL_TEST_CORPUS)
    loaded = hotelcheckspan.load(paths.REAL_TEST_CORPUS)
    gone = ~loaded.records["has_text"].astype(bool)
    assert frame.without_text["records"] == int(gone.sum()) > 0
    assert frame.corpus.records["has_text"].astype(bool).all()
    assert f"texts: {int(gone.sum()):,} records on" in "\n".join(frame.header())
    every = F.load(paths.REAL_TEST_CORPUS, texts="all")
    assert len(every.corpus.records) == len(loaded.records) and every.without_text["records"] == 0


# --- inputs, files, selection --------------------------------------------------------------------


def test_json_lines_inputs_are_joined_and_absent_sources_make_baselines_undefined(wide, capsys):
    mt = hotelcheckspan.load(wide, task="mt-eval")
    assert (mt.examples["source"].str.len() > 0).all()  # every translation has its source
    out_file = wide.parent / "baselines.csv"
    code, out, err = run(capsys, "baselines", wide, "--task", "propaganda", "-o", out_file, "--only", "chrf")
    assert code == 0, err
    assert "have no source: the source-based baselines are undefined (empty) there, not 0" in err
    assert pd.read_csv(out_file)["chrf"].isna().all()
    code, out, err = run(capsys, "baselines", wide, "--task", "mt-eval", "-o", out_file, "--only", "chrf")
    assert pd.read_csv(out_file)["chrf"].notna().all() and "no source" not in err


def test_a_0_byte_file_in_another_task_blocks_nothing(wide, capsys):
    code, out, err = run(capsys, "campaigns", wide, "--json")
    assert code == 0, err
    rows = pd.DataFrame(json.loads(out)["campaigns"]).set_index("campaign")
    assert rows.loc["mt-eval-zeroshot-gpt4o", "records"] == 0
    code, out, err = run(capsys, "validate", wide, "--verbose")
    assert code == 0 and "zeroshot/gpt4o/annotations.jsonl: warning: is empty" in out
    for command in (["stats", wide, "--task", "d2t-eval"], ["stats", wide, "--task", "mt-eval"]):
        code, _, err = run(capsys, *command)
        assert code == 0, err


def test_a_problem_outside_the_frame_is_a_warning_naming_it(wide, tmp_path, capsys):
    import shutil

    root = tmp_path / "broken"
    shutil.copytree(wide, root)
    key = root / "annotations/human/d2t-eval/qualification/qualification-key/annotations.jsonl"
    key.write_text(key.read_text(encoding="utf-8") + '{"not": "a record"}\n', encoding="utf-8")
    with pytest.raises(hotelcheckspan.corpora.CorpusError):
        hotelcheckspan.load(root, task="d2t-eval")  # the loader alone refuses, as ever
    frame = F.load(root, task="d2t-eval")
    outside = [w for w in frame.selected.warnings if w.kind == P.OUTSIDE]
    assert outside and all(KEY_CAMPAIGN in w.message and "outside the frame" in w.message for w in outside)
    code, out, err = run(
        capsys, "judges", root, "--task", "d2t-eval", "--split", "test", "--n-boot", 20, "--no-distinguish"
    )
    assert code == 0, err
    # inside the frame the same error refuses the run
    code, _, err = run(capsys, "judges", root, "--task", "d2t-eval", "--reference", KEY_CAMPAIGN, "--n-boot", 20)
    assert code == 1 and "qualification-key/annotations.jsonl" in err


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--task", "d2t-evl"], "no task 'd2t-evl' in"),
        (["--task", "d2t-eval", "--split", "tst"], "no split 'tst'"),
        (["--task", "d2t-eval", "--campaign", "gpt5"], "no campaign 'gpt5'"),
    ],
)
def test_an_unknown_selection_gets_one_line_with_the_closest_names(wide, capsys, args, expected):
    code, _, err = run(capsys, "stats", wide, *args)
    line = err.strip().splitlines()[-1]
    assert code == 1 and expected in line and "closest: " in line
    assert "annotation" not in err.split("closest")[0]  # not the 0-byte file's warning instead


# --- the first and the last apart ----------------------------------------------------------------


def test_who_leads_is_not_a_chain_of_neighbours(wide):
    board = api.leaderboard(wide, task="d2t-eval", split="dev", n_boot=300, distinguish=False)
    ranked = board[board["judge"] != "humans (ceiling)"].reset_index(drop=True)
    first, last = ranked.iloc[0], ranked.iloc[-1]
    assert first["judge"] == "d2t-eval-dev-copyist" and first["f1_soft_low"] > last["f1_soft_high"]  # apart
    assert ranked["leads"].tolist() == [True] + [False] * (len(ranked) - 1)
    values = evaluate_your_judge._board_readings(board, "")
    assert values["lead"].startswith("d2t-eval-dev-copyist leads with a span F1, soft, of")
    assert "none told apart" not in values["summary"]


# --- the corpus checks and the chapters' first cell --------------------------------------------------


def test_the_corpus_checks_say_ok_and_what_the_chapters_read(capsys, monkeypatch):
    assert real_shape.main() == 0
    out = capsys.readouterr().out
    assert out.count("ok: ") == 2 and "1,200 texts of split test, human reference test, 6 LLM judges" in out


def test_a_chapter_refuses_several_splits_in_one_line(wide):
    frame, line = real_shape.read_frame(wide, task="d2t-eval")
    assert "holds several splits (dev, iaa, test)" in line and paths.REAL_SPLIT_ENV in line and "\n" not in line
    frame, line = real_shape.read_frame(wide, task="d2t-eval", split="test")
    assert line is None and frame.splits == ("test",)
    html = report.corpus_banner(frame.corpus, frame).data
    n = len(frame.corpus.records[KEY].drop_duplicates())
    assert f"Every number below rests on {n} texts of split test, the human reference d2t-eval-test" in html


# --- outputs a researcher scripts -------------------------------------------------------------------


def test_csv_is_tidy_and_holds_every_statistic(capsys):
    code, out, err = run(
        capsys, "judge", paths.REAL_CORPUS, "zeroshot-gpt4o", "--n-boot", 50, "--format", "csv", "--table", "table5"
    )
    assert code == 0, err
    table = pd.read_csv(pd.io.common.StringIO(out))
    assert {"bacc", "bacc_low", "bacc_high", "kappa", "kappa_low"} <= set(table.columns)
    assert not any("[" in str(v) for v in table.to_numpy().ravel())  # numbers, not "0.28 [0.23, 0.32]"
    code, out, err = run(
        capsys, "metric", paths.REAL_CORPUS, "--n-boot", 50, "--format", "csv", "--table", "statistics"
    )
    stats = pd.read_csv(pd.io.common.StringIO(out))
    assert {"kendall_tau_c", "acc23", "spearman", "pearson", "average_precision", "bacc"} <= set(stats["statistic"])


def test_options_and_positional_arguments_go_in_any_order(tmp_path, capsys):
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    scores = corpus.examples[KEY].assign(m=np.arange(len(corpus.examples), dtype=float))
    path = tmp_path / "scores.csv"
    scores.to_csv(path, index=False)
    code, out, err = run(capsys, "metric", paths.REAL_CORPUS, "--json", "--n-boot", 20, path, "--no-judges")
    assert code == 0, err and json.loads(out)["settings"]["scores"] == str(path)


def test_a_closed_pipe_ends_quietly(tmp_path):
    import subprocess
    import sys

    done = subprocess.run(
        f"{shlex.quote(sys.executable)} -m hotelcheckspan.cli campaigns {shlex.quote(str(paths.REAL_CORPUS))} "
        "| head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Broken pipe" not in done.stderr and "Traceback" not in done.stderr


def test_messages_print_plain_numbers(tmp_path, capsys):
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    path = tmp_path / "few.csv"
    corpus.examples[KEY].head(3).assign(m=[0.1, 0.2, 0.3]).to_csv(path, index=False)
    code, out, err = run(capsys, "metric", paths.REAL_CORPUS, path, "--n-boot", 20, "--no-judges")
    assert "scores 3 of the corpus' 12 examples" in err and "np.int64" not in out + err


# --- every README command on the export as it ships ----------------------------------------------------

README_COMMANDS = re.compile(r"^\.venv/bin/hotelcheckspan (\S+) (/path/to/export.*?)(?:\s+#.*)?$", re.MULTILINE)


def test_every_readme_command_runs_on_the_export_with_no_pooled_number(wide, capsys, tmp_path):
    """The README's commands on an export of several tasks and splits: each runs with no
    traceback, and each number it prints is per split (or it refuses in one line naming them)."""
    readme = (paths.REPO_ROOT / "README.md").read_text(encoding="utf-8").replace("\\\n", " ")
    found = README_COMMANDS.findall(readme)
    assert len(found) >= 8
    for command, rest in found:
        args = shlex.split(rest.replace("/path/to/export", str(wide)).replace("> agreement.csv", ""))
        args = [a.replace("-o", "-o") for a in args]
        if command == "baselines" and "-o" in args:
            args[args.index("-o") + 1] = str(tmp_path / "b.csv")
        if command in ("judges", "metric", "judge", "agreement"):
            args += ["--n-boot", "20"] if command != "agreement" else []
        if command == "judges":
            args += ["--no-distinguish"]
        code, out, err = run(capsys, command, *args)
        assert code in (0, 1), (command, args, err)
        if code == 1:  # a refusal: one line, naming the splits or the categories
            assert len(err.strip().splitlines()) <= 2, (command, err)
            continue
        if "--json" in args:
            frame = json.loads(out)["settings"].get("frame") or {}
            assert frame.get("per") == "split" or len(frame.get("splits", [])) <= 1 or frame.get("pooled") is False, (
                command,
                frame,
            )
