"""Quirks of real factgenie exports load as classed warnings and compute as factgenie computes
them: each class is built from a copy of a bundled model campaign (gpt-4o) or of the public
corpus (data/span-annotation-d2t-iaa); span F1 equals factgenie 1.2.1's own
``compute_f1_scores`` on the same files, and text-dependent analyses say what they left out.
Also the damaged-input leftovers of issue 17 (a huge example_idx, a symlink loop next to the
campaigns, an absent group, no config beside a file)."""

import json
import os
import shutil
from functools import partial
from pathlib import Path

import pandas as pd
import pytest
from slugify import slugify
from span_reference import FACTGENIE

import hotelcheckspan
from hotelcheckspan import cli, paths
from hotelcheckspan import corpora as C
from hotelcheckspan.analyses import clusters, dataset_level, span_level
from hotelcheckspan.book import report

HUMAN = Path("annotations/human/stage1/annotations.jsonl")
MODEL = Path("annotations/model/gpt-4o/annotations.jsonl")
N_EXAMPLES = 40  # the first examples of the bundled corpus (factgenie's metric is slow)
needs_factgenie = pytest.mark.skipif(FACTGENIE is None, reason="factgenie is not installed")


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def write_lines(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def key(r: dict) -> tuple:
    return tuple(r[k] for k in C.KEY)


def slug(r: dict) -> tuple:
    """The key as factgenie compares it."""
    return (slugify(r["dataset"]), slugify(r["split"]), slugify(r["setup_id"]), r["example_idx"])


def make_quirks(root: Path) -> dict:
    """Damage gpt-4o's spans of a trimmed copy of the bundled corpus, one class per record;
    returns {class: (line, field)} and the removed example."""
    texts = {key(x): x["summary"] for x in lines(root / "inputs.jsonl")}
    recs = lines(root / MODEL)
    with_spans = [i for i, r in enumerate(recs) if r["annotations"]]
    made = {}

    def damage(kind, change):
        for i in with_spans:
            if i in {v[0] - 1 for v in made.values()}:
                continue
            r, text = recs[i], texts[key(recs[i])]
            span = r["annotations"][0]
            new = change(dict(span), text)
            if new is None:
                continue
            r["annotations"][0] = new
            made[kind] = (i + 1, "annotations.0." + ("start" if kind in ("shifted", "past-end") else "text"))
            return
        raise AssertionError(f"no span to make {kind} from")

    def case(s, text):
        swapped = s["text"].swapcase()
        return s | {"text": swapped} if swapped != s["text"] else None

    def shifted(s, text):
        at = s["start"] + 1
        if at + len(s["text"]) > len(text) or text[at : at + len(s["text"])].lower() == s["text"].lower():
            return None
        return s | {"start": at}

    def misplaced(s, text):  # moved to the other end of the text, away from where it is
        at = 0 if s["start"] > len(text) // 2 else len(text) - len(s["text"])
        window = text[at - 2 if at >= 2 else 0 : at + len(s["text"]) + 2].lower()
        if abs(at - s["start"]) <= 2 or s["text"].lower() in window:
            return None
        return s | {"start": at}

    def not_found(s, text):
        absent = ("zq" * len(s["text"]))[: len(s["text"])]
        return s | {"text": absent} if absent not in text.lower() else None

    def past_end(s, text):
        return s | {"start": len(text) - len(s["text"]) + 3} if len(text) >= len(s["text"]) else None

    for kind, change in [
        ("case", case),
        ("shifted", shifted),
        ("misplaced", misplaced),
        ("not-found", not_found),
        ("past-end", past_end),
    ]:
        damage(kind, change)
    write_lines(root / MODEL, recs)
    # one example loses its text: every record of it is kept, with a warning
    damaged = {recs[line - 1]["example_idx"] for line, _ in made.values()}
    gone = next(
        x
        for x in lines(root / "inputs.jsonl")
        if x["example_idx"] not in damaged and any(key(r) == key(x) and r["annotations"] for r in recs)
    )
    write_lines(root / "inputs.jsonl", [x for x in lines(root / "inputs.jsonl") if key(x) != key(gone)])
    return {"made": made, "gone": key(gone)}


@pytest.fixture(scope="module")
def quirks(tmp_path_factory):
    """A copy of the bundled corpus with stage1 and gpt-4o on its first examples, damaged."""
    root = tmp_path_factory.mktemp("quirks") / "corpus"
    shutil.copytree(paths.BUNDLED_CORPUS, root, ignore=shutil.ignore_patterns("stage2", "gemma-3", "o3-*", "*-ls"))
    inputs = lines(root / "inputs.jsonl")
    keep = {key(x) for x in inputs[:N_EXAMPLES]}
    write_lines(root / "inputs.jsonl", inputs[:N_EXAMPLES])
    for f in (HUMAN, MODEL):
        write_lines(root / f, [r for r in lines(root / f) if key(r) in keep])
    info = make_quirks(root)
    return root, info


def factgenie_f1(ref_file: Path, ref_group: int, hyp_file: Path, match: str = "hard") -> dict:
    """factgenie's compute_f1_scores of one group of ``ref_file`` against ``hyp_file``, from the
    raw files as factgenie indexes them (keys slugified, spans end at start + len(text), texts
    never looked at; examples with a record on both sides). Adds ``examples``: their keys."""
    rows, keys = [], {}
    for f, side in ((ref_file, "ref"), (hyp_file, "hyp")):
        for r in lines(f):
            if side == "ref" and r["annotator_group"] != ref_group:
                continue
            keys.setdefault(side, set()).add(slug(r))
            for a in r["annotations"]:
                rows.append(
                    dict(zip(C.KEY, slug(r)))
                    | {
                        "campaign_id": side,
                        "annotator_group": r["annotator_group"],
                        "annotation_type": a["type"],
                        "annotation_start": a["start"],
                        "annotation_end": a["start"] + len(a["text"]),
                    }
                )
    examples = pd.DataFrame(sorted(keys["ref"] & keys["hyp"]), columns=C.KEY)
    scores = FACTGENIE.compute_f1_scores(
        pd.DataFrame(rows), [("ref", ref_group), ("hyp", None)], examples, match_mode=match
    )
    return scores | {"examples": set(map(tuple, examples.itertuples(index=False)))}


def test_each_quirk_class_is_a_warning_with_file_line_and_field(quirks, capsys):
    root, info = quirks
    corpus = hotelcheckspan.load(root)  # loads: warnings only
    got = {(w.kind, w.file, w.line, w.field) for w in corpus.warnings}
    for kind, (line, field) in info["made"].items():
        assert (kind, str(MODEL), line, field) in got, kind
    gone = [r for r in corpus.records.itertuples() if key(r._asdict()) == info["gone"]]
    assert gone and not any(r.has_text for r in gone)
    for r in gone:
        assert ("no-text", r.file, r.line, "example_idx") in got
    assert {w.kind for w in corpus.warnings} == {*info["made"], "no-text"}
    # validate lists them (few: every line), exits 0, and 1 with --strict
    assert cli.main(["validate", str(root)]) == 0
    out = capsys.readouterr().out
    case = next(x for x in out.splitlines() if x.startswith(f"{MODEL}:{info['made']['case'][0]}: warning: "))
    assert case.startswith(f"{MODEL}:{info['made']['case'][0]}: warning: annotations.0.text: ")
    assert "only in case" in case and case.endswith("[case]")
    assert cli.main(["validate", "--strict", str(root)]) == 1


def test_metrics_count_every_span_by_start_and_length(quirks):
    root, info = quirks
    corpus = hotelcheckspan.load(root)
    raw = sum(len(r["annotations"]) for f in (HUMAN, MODEL) for r in lines(root / f))
    assert len(corpus.spans) == raw and len(corpus.records) == sum(len(lines(root / f)) for f in (HUMAN, MODEL))
    model = corpus.spans[corpus.spans["campaign"] == "gpt-4o"]
    raw_model = [(a["start"], a["start"] + len(a["text"])) for r in lines(root / MODEL) for a in r["annotations"]]
    assert sorted(zip(model["start"], model["end"])) == sorted(raw_model)


@needs_factgenie
@pytest.mark.parametrize("match", ["hard", "soft"])
def test_span_f1_equals_factgenie_on_the_quirky_files(quirks, match):
    root, info = quirks
    corpus = hotelcheckspan.load(root)
    for group in (0, 1):
        theirs = factgenie_f1(root / HUMAN, group, root / MODEL, match)
        ours = hotelcheckspan.span_f1(root / HUMAN, root / MODEL, ref_group=group, match=match)
        pairs, _ = span_level.pairwise(
            corpus, [{"name": "x", "ref": [f"stage1/{group}"], "hyp": ["gpt-4o"]}], [match], convention="both"
        )
        assert ours["examples"] == len(theirs["examples"]) == pairs["examples"].iloc[0]  # no-text records count
        assert C.layouts.slug_key(*info["gone"]) in theirs["examples"]  # the example without text is scored
        for k in ("ref_count", "hyp_count"):
            assert ours[k] == theirs[k]
        for k in ("precision", "recall", "f1"):
            assert round(ours[k], 3) == pytest.approx(theirs[k], abs=1e-9)
            assert round(pairs[k].iloc[0], 3) == pytest.approx(theirs[k], abs=1e-9)


def test_text_dependent_analyses_leave_out_what_they_cannot_place_and_say_how_many(quirks):
    root, info = quirks
    corpus = hotelcheckspan.load(root)
    gone = corpus.records[~corpus.records["has_text"]]
    unplaced = {"misplaced", "not-found", "past-end"}
    n_spans = len(unplaced) + int(gone["n_spans"].sum())
    assert corpus.left_out() == {"spans": n_spans, "records": len(gone), "spans_of_records": int(gone["n_spans"].sum())}
    assert (~corpus.spans["placed"]).sum() == n_spans and len(corpus.placed_spans) == len(corpus.spans) - n_spans
    human_gone = int(gone.loc[gone["kind"] == "human", "n_spans"].sum())
    assert len(clusters.human_spans(corpus)) == (corpus.spans["kind"] == "human").sum() - human_gone
    words = corpus.placed_spans.query("kind == 'model'")["words"]
    assert dataset_level.campaign_table(corpus).set_index("campaign").loc["gpt-4o", "mean_words"] == pytest.approx(
        words.mean()
    )
    note = report._warnings_note(corpus)
    assert f"{n_spans} spans whose text is not at their offsets are left out" in note
    assert f"{len(gone)} records have no text" in note
    # counts and votes use every record, the textless ones too
    table = dataset_level.campaign_table(corpus).set_index("campaign")
    assert table.loc["gpt-4o", "records"] == (corpus.records["campaign"] == "gpt-4o").sum()
    from hotelcheckspan.analyses import example_level

    marks = example_level.marks(corpus, ["gpt-4o"])
    assert info["gone"] in {key(r._asdict()) for r in marks.itertuples()}


def test_a_clean_corpus_leaves_nothing_out():
    corpus = hotelcheckspan.load(paths.REAL_CORPUS)
    assert corpus.left_out() == {"spans": 0, "records": 0, "spans_of_records": 0}
    assert corpus.spans["placed"].all() and corpus.records["has_text"].all()
    assert "left out" not in report._warnings_note(corpus)


# --- factgenie's export layout: a text removed from outputs/ ---------------------------------


@pytest.fixture(scope="module")
def iaa_without_a_text(tmp_path_factory):
    root = tmp_path_factory.mktemp("iaa") / "corpus"
    shutil.copytree(paths.REAL_CORPUS, root)
    human = lines(root / "annotations/human/d2t-eval/iaa/annotations.jsonl")
    marked = next(r for r in human if r["annotations"])
    gone = slug(marked)
    for f in sorted((root / "outputs").rglob("*.jsonl")):
        rows = lines(f)
        kept = [o for o in rows if slug(o) != gone]
        if len(kept) < len(rows):
            write_lines(f, kept) if kept else f.unlink()
            return root, gone
    raise AssertionError("the marked example has no output")


def test_export_layout_record_without_output_is_a_warning_and_counts(iaa_without_a_text):
    root, gone = iaa_without_a_text
    corpus = hotelcheckspan.load(root)
    textless = corpus.records[~corpus.records["has_text"]]
    assert len(textless) >= 2  # the humans' and the LLM's records of that example
    assert {tuple(C.layouts.slug_key(*k)) for k in textless[C.KEY].itertuples(index=False)} == {gone}
    no_text = [w for w in corpus.warnings if w.kind == "no-text"]
    assert {(w.file, w.line) for w in no_text} == set(zip(textless["file"], textless["line"]))
    assert all(w.field == "example_idx" and "outputs/" in w.message for w in no_text)
    assert corpus.left_out()["records"] == len(textless)
    assert f"{len(textless)} records have no text" in report._warnings_note(corpus)


@needs_factgenie
def test_export_layout_f1_with_a_textless_example_equals_factgenie(iaa_without_a_text):
    root, gone = iaa_without_a_text
    corpus = hotelcheckspan.load(root)
    human_file = root / "annotations/human/d2t-eval/iaa/annotations.jsonl"
    model_file = next((root / "annotations/model").rglob("annotations.jsonl"))
    model = model_file.parent.name
    group = next(r["annotator_group"] for r in lines(human_file) if r["annotations"] and slug(r) == gone)
    theirs = factgenie_f1(human_file, group, model_file)
    assert gone in theirs["examples"]
    comparison = [{"name": "x", "ref": [f"iaa/{group}"], "hyp": [model]}]
    pairs, _ = span_level.pairwise(corpus, comparison, ["hard"], convention="both")
    assert pairs["examples"].iloc[0] == len(theirs["examples"])
    for k in ("precision", "recall", "f1"):
        assert round(pairs[k].iloc[0], 3) == pytest.approx(theirs[k], abs=1e-9)


# --- validate with many warnings ---------------------------------------------------------------


def test_validate_summarises_many_warnings_per_class_and_file(tmp_path, capsys):
    root = tmp_path / "corpus"
    shutil.copytree(paths.BUNDLED_CORPUS, root)
    recs = lines(root / MODEL)
    n = 0
    for r in recs:
        for a in r["annotations"]:
            if a["text"].swapcase() != a["text"]:
                a["text"] = a["text"].swapcase()
                n += 1
    write_lines(root / MODEL, recs)
    assert n > cli.SUMMARY_AFTER
    assert cli.main(["validate", str(root)]) == 0
    out = capsys.readouterr().out
    assert ": warning: annotations." not in out  # no line per warning
    assert f"{MODEL}: warning: case {n}" in out and f"total: case {n}" in out
    assert cli.main(["validate", "--verbose", str(root)]) == 0
    out = capsys.readouterr().out
    assert sum(": warning: annotations." in x and "only in case" in x for x in out.splitlines()) == n
    assert cli.main(["validate", "--strict", str(root)]) == 1
    assert len(hotelcheckspan.load(root).warnings) == n  # load keeps them all


# --- damaged-input leftovers ---------------------------------------------------------------------


def small_copy(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(paths.BUNDLED_CORPUS, root, ignore=shutil.ignore_patterns("stage2", "gemma-3", "o3-*", "*-ls"))
    inputs = lines(root / "inputs.jsonl")[:10]
    keep = {key(x) for x in inputs}
    write_lines(root / "inputs.jsonl", inputs)
    for f in (HUMAN, MODEL):
        write_lines(root / f, [r for r in lines(root / f) if key(r) in keep])
    return root


@pytest.mark.parametrize("big", [2**53 + 1, 2**63 + 7, 10**30])
def test_a_very_large_example_idx_loads(tmp_path, capsys, big):
    root = small_copy(tmp_path)
    first = lines(root / "inputs.jsonl")[0]
    renumber = lambda rows: [r | {"example_idx": big} if key(r) == key(first) else r for r in rows]  # noqa: E731
    write_lines(root / "inputs.jsonl", renumber(lines(root / "inputs.jsonl")))
    for f in (HUMAN, MODEL):
        write_lines(root / f, renumber(lines(root / f)))
    corpus = hotelcheckspan.load(root)
    assert corpus.warnings == [] and big in set(corpus.records["example_idx"])
    assert big in set(corpus.examples["example_idx"]) and big in set(corpus.spans["example_idx"])
    assert cli.main(["validate", str(root)]) == 0
    capsys.readouterr()
    assert cli.main(["f1", str(root / HUMAN), str(root / MODEL), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["examples"] == 10


def test_a_symlink_loop_next_to_the_campaigns_is_skipped_with_a_warning(tmp_path, capsys):
    root = small_copy(tmp_path)
    (root / "annotations" / "extra").mkdir()
    (root / "annotations" / "extra" / "loop").symlink_to("..")
    corpus = hotelcheckspan.load(root)
    assert [(w.kind, w.file) for w in corpus.warnings] == [("symlink-loop", "annotations/extra/loop")]
    assert cli.main(["validate", str(root)]) == 0
    assert "annotations/extra/loop: warning: symlink loop" in capsys.readouterr().out


def test_f1_names_an_absent_group(tmp_path, capsys):
    root = small_copy(tmp_path)
    assert cli.main(["f1", str(root / HUMAN), str(root / MODEL), "--ref-group", "Z"]) == 1
    err = capsys.readouterr().err
    assert "has no annotator group Z (its groups: A, B)" in err and "Traceback" not in err


@needs_factgenie
def test_f1_without_a_config_takes_the_categories_from_the_types_used(tmp_path, capsys):
    root = small_copy(tmp_path)
    lone = tmp_path / "lone"
    lone.mkdir()
    shutil.copy(root / MODEL, lone / "annotations.jsonl")
    assert cli.main(["f1", str(root / HUMAN), str(lone / "annotations.jsonl"), "--json", "--by-type"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith(f"{lone / 'annotations.jsonl'}: warning: no config.yaml or metadata.json beside it")
    ann = hotelcheckspan.read_annotations(lone / "annotations.jsonl")
    types = sorted({a["type"] for r in lines(lone / "annotations.jsonl") for a in r["annotations"]})
    assert ann.categories == [f"type {i}" for i in range(types[-1] + 1)] and ann.categories_from_types
    assert [w.kind for w in ann.warnings] == ["no-config"]
    with_config = hotelcheckspan.span_f1(root / HUMAN, root / MODEL, by_type=True)
    printed = json.loads(out)
    printed.pop("settings")  # what it ran with
    assert printed.pop("compared")["hypothesis"]["file"] == str(lone / "annotations.jsonl")  # each side by its file
    assert printed == {k: v for k, v in with_config.items() if k != "compared"}  # named from the configured side


def test_a_folder_in_place_of_annotations_jsonl_names_that_path(tmp_path, capsys):
    root = small_copy(tmp_path)
    (root / MODEL).unlink()
    (root / MODEL).mkdir()
    assert cli.main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    assert out.strip() == f"{MODEL}: error: is a folder, not a regular file"


def _read_noting_the_reader(read, noted: Path, *args):
    with noted.open("a") as fh:
        fh.write(f"{os.getpid()}\n")
    return read(*args)


def test_campaigns_read_side_by_side_are_what_one_reader_reads(quirks, tmp_path, monkeypatch):
    """Above ``PARALLEL_BYTES`` the campaigns are read one per core in forked workers: the frames
    (record ids numbered on across campaigns) and every problem, errors of broken lines included,
    are those of the reader that reads them one after another."""
    from hotelcheckspan.corpora import reader

    broken = tmp_path / "broken"
    shutil.copytree(quirks[0], broken)
    with (broken / MODEL).open("a", encoding="utf-8") as fh:
        fh.write('{"not json\n')
        fh.write(json.dumps(lines(broken / MODEL)[0] | {"annotations": [{"start": 0, "text": "x", "type": 99}]}) + "\n")
    found = {}
    for root in (quirks[0], broken, paths.REAL_TEST_CORPUS):
        monkeypatch.setattr(reader, "PARALLEL_BYTES", 1 << 62)
        one, one_problems = reader.read_corpus(root)
        monkeypatch.setattr(reader, "PARALLEL_BYTES", 0)
        monkeypatch.setattr(reader, "_may_fork", lambda: True)  # here, whatever threads pytest runs
        monkeypatch.setattr(reader.files, "cores", lambda: 2)  # and on a machine of one CPU
        readers = tmp_path / f"{root.name}.pids"  # the process that read each campaign
        monkeypatch.setattr(reader, "_read_campaign", partial(_read_noting_the_reader, reader._read_campaign, readers))
        apart, apart_problems = reader.read_corpus(root)
        pids = readers.read_text().split()
        assert len(pids) == apart.records["campaign"].nunique() and str(os.getpid()) not in pids
        pd.testing.assert_frame_equal(apart.records, one.records)
        pd.testing.assert_frame_equal(apart.spans, one.spans)
        assert apart_problems == one_problems
        assert apart.records["record_id"].is_unique
        found[root] = one_problems
    assert {p.severity for p in found[quirks[0]]} == {"warning"}
    assert sum(p.is_error for p in found[broken]) == 2  # the broken line and the unknown type


def test_a_process_running_threads_reads_its_campaigns_itself(quirks, tmp_path, monkeypatch):
    """Workers are forked only from a process of one thread (a thread holding a lock at the fork
    would leave it held in the worker; a notebook's kernel runs threads of its own): with another
    thread running, every campaign is read in this process."""
    import threading

    from hotelcheckspan.corpora import reader

    monkeypatch.setattr(reader, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(reader.files, "cores", lambda: 2)
    readers = tmp_path / "pids"
    monkeypatch.setattr(reader, "_read_campaign", partial(_read_noting_the_reader, reader._read_campaign, readers))
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not reader._may_fork()
        corpus, _ = reader.read_corpus(quirks[0])
    finally:
        release.set()
        other.join()
    assert readers.read_text().split() == [str(os.getpid())] * corpus.records["campaign"].nunique()
