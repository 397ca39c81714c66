"""The real public corpus in data/span-annotation-d2t-iaa (factgenie's export layout): it
loads through the public API, its quirks are warnings, and span F1 equals factgenie 1.2.1's own
``compute_f1_scores`` for every human-vs-LLM comparison, overlapping spans included."""

import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest
import sweep
from slugify import slugify
from span_reference import FACTGENIE, raw_records, raw_span_index

import hotelcheckspan
from hotelcheckspan import cli, paths

ROOT = paths.REAL_CORPUS
HUMAN = ROOT / "annotations/human/d2t-eval/iaa/annotations.jsonl"
MODELS = sorted((ROOT / "annotations/model/d2t-eval/iaa").glob("*/annotations.jsonl"))


def shared_copy(root: Path) -> Path | None:
    """The original of a bundled real corpus in ../shared (only the development checkout has it)."""
    return next(
        (
            p / "corpora" / root.name
            for p in (paths.REPO_ROOT.parents[1] / "shared", Path("/work/shared"))
            if (p / "corpora" / root.name).is_dir()
        ),
        None,
    )


BUNDLED_REAL = [paths.REAL_CORPUS, paths.REAL_TEST_CORPUS]
KEY = ["dataset", "split", "setup_id", "example_idx"]


@pytest.fixture(scope="module")
def corpus():
    return hotelcheckspan.load(ROOT)


@pytest.mark.parametrize("root", BUNDLED_REAL, ids=lambda p: p.name)
def test_copy_is_verbatim_with_licence_source_and_checksums(root):
    listed = dict(reversed(line.split(maxsplit=1)) for line in (root / "SHA256SUMS").read_text().splitlines())
    on_disk = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and p.name != "SHA256SUMS"}
    assert set(listed) == on_disk and {"LICENSE", "SOURCE.md"} <= on_disk
    for name, digest in listed.items():
        assert hashlib.sha256((root / name).read_bytes()).hexdigest() == digest, name
    assert "MIT License" in (root / "LICENSE").read_text()


@pytest.mark.parametrize("root", BUNDLED_REAL, ids=lambda p: p.name)
def test_copy_equals_the_shared_original(root):
    shared = shared_copy(root)
    if shared is None:
        pytest.skip("../shared is absent (only the development checkout has it)")
    for path in shared.rglob("*"):
        if path.is_file():
            assert (root / path.relative_to(shared)).read_bytes() == path.read_bytes(), path


def test_loads_through_the_public_api_as_real_data(corpus):
    assert not corpus.simulated
    assert corpus.categories == ["Contradictory", "Not checkable", "Misleading", "Incoherent", "Repetitive", "Other"]
    human = corpus.records[corpus.records["kind"] == "human"]
    assert human["annotator_group"].nunique() == len({r["annotator_group"] for r in raw_records(HUMAN)})
    assert sorted(corpus.campaigns("model")) == sorted(p.parent.name for p in MODELS)
    n_raw = sum(len(raw_records(p)) for p in [HUMAN, *MODELS])
    assert len(corpus.records) == n_raw
    assert len(corpus.spans) == sum(len(r["annotations"]) for p in [HUMAN, *MODELS] for r in raw_records(p))
    # every record found its text although records write 'llama3-3' where outputs/ write 'llama3.3'
    assert "llama3-3" in {r["setup_id"] for r in raw_records(HUMAN)}
    assert set(corpus.records["setup_id"]) <= set(corpus.examples["setup_id"]) and "llama3.3" in set(
        corpus.examples["setup_id"]
    )
    texts = corpus.examples.set_index(KEY)["summary"]
    for row in corpus.spans.itertuples():
        assert texts.loc[(row.dataset, row.split, row.setup_id, row.example_idx)][row.start : row.end] == row.text
    assert corpus.examples["description"].str.len().gt(0).all()  # every example found its input


def test_its_quirks_are_warnings_listed_by_validate(capsys, corpus):
    assert corpus.warnings and all(w.severity == "warning" for w in corpus.warnings)
    overlaps = [w for w in corpus.warnings if "overlap" in w.message]
    duplicates = [w for w in corpus.warnings if w.message.startswith("duplicate of")]
    assert overlaps and duplicates and len(overlaps) + len(duplicates) == len(corpus.warnings)
    assert all("/model/" in w.file for w in corpus.warnings)  # the LLM campaigns forbid overlaps; humans may
    assert cli.main(["validate", str(ROOT)]) == 0
    out, err = capsys.readouterr()
    assert [line for line in out.splitlines() if ": warning: " in line] == [w.tagged() for w in corpus.warnings]
    assert out.splitlines()[-1].startswith(f"ok: {len(corpus.examples)} examples")
    assert cli.main(["validate", "--strict", str(ROOT)]) == 1


def factgenie_span_index() -> pd.DataFrame:
    """factgenie's span index of every campaign of the corpus, built once, read-only."""
    return raw_span_index(tuple((path.parent.name, path) for path in [HUMAN, *MODELS]))


def factgenie_examples(ref_group) -> pd.DataFrame:
    """factgenie's example list: examples with a record of both sides (slugified)."""

    def keys(records):
        return {(slugify(r["dataset"]), slugify(r["split"]), slugify(r["setup_id"]), r["example_idx"]) for r in records}

    human = [r for r in raw_records(HUMAN) if ref_group is None or r["annotator_group"] == ref_group]
    model = raw_records(MODELS[0])
    return pd.DataFrame(sorted(keys(human) & keys(model)), columns=KEY)


@pytest.fixture(scope="module")
def sides():
    return hotelcheckspan.read_annotations(HUMAN), {p.parent.name: hotelcheckspan.read_annotations(p) for p in MODELS}


def quirky(name: str) -> bool:
    """Whether the LLM campaign has warnings (overlapping or duplicate spans)."""
    return bool(hotelcheckspan.read_annotations(next(p for p in MODELS if p.parent.name == name)).warnings)


def assert_f1_equals_factgenie(sides, model: str, match: str, groups: list[int]) -> None:
    human, models = sides
    index = factgenie_span_index()
    for group in groups:
        examples = factgenie_examples(group)
        pair = index[
            ((index["campaign_id"] == "iaa") & (index["annotator_group"] == group)) | (index["campaign_id"] == model)
        ].reset_index(drop=True)
        theirs = FACTGENIE.compute_f1_scores(pair, [("iaa", group), (model, None)], examples, match_mode=match)
        ours = hotelcheckspan.span_f1(human, models[model], ref_group=group, match=match)
        assert ours["examples"] == len(examples)
        for k in ("ref_count", "hyp_count"):
            assert ours[k] == theirs[k], (model, group, k)
        for k in ("precision", "recall", "f1"):
            assert round(ours[k], 3) == pytest.approx(theirs[k], abs=1e-9), (model, group, k)


def human_groups(sides) -> list[int]:
    """The human annotator groups, the one with the most spans first."""
    spans = sides[0].spans["annotator_group"].value_counts()
    return sorted((int(g) for g in sides[0].records["annotator_group"].unique()), key=lambda g: (-spans.get(g, 0), g))


MODES = [(p.parent.name, "hard") for p in MODELS] + [(p.parent.name, "soft") for p in MODELS if quirky(p.parent.name)]


# factgenie walks every character with pandas' iterrows (about 0.5 s per pair): the unit tests
# compare every LLM campaign with the busiest human group; the slow tier compares, in hard mode,
# every human group with one LLM campaign, the campaigns taking turns (every pair with the full
# sweep, tests/sweep.py), and in soft mode the LLM campaigns with overlapping or duplicate spans
# against every fourth human group
@pytest.mark.skipif(FACTGENIE is None, reason="factgenie is not installed")
@pytest.mark.parametrize("model, match", MODES)
def test_f1_equals_factgenie_for_every_llm_against_the_busiest_human_group(sides, model, match):
    assert_f1_equals_factgenie(sides, model, match, human_groups(sides)[:1])


@pytest.mark.slow
@pytest.mark.skipif(FACTGENIE is None, reason="factgenie is not installed")
@pytest.mark.parametrize("model, match", MODES)
def test_f1_equals_factgenie_for_each_llm_against_a_share_of_the_human_groups(sides, model, match):
    groups = sorted(human_groups(sides))
    turn = sorted(sides[1]).index(model)
    hard = sweep.share(groups, turn, of=len(sides[1]))
    assert_f1_equals_factgenie(sides, model, match, hard if match == "hard" else groups[::4])


def test_the_soft_comparison_covers_the_quirks():
    assert sum(quirky(p.parent.name) for p in MODELS) >= 1


def test_f1_cli_computes_every_human_vs_llm_comparison(capsys):
    for model in MODELS:
        assert cli.main(["f1", str(HUMAN), str(model), "--json"]) == 0
        out, _ = capsys.readouterr()
        result = json.loads(out)
        assert result["examples"] == len(raw_records(model)) and 0 <= result["f1"] <= 1


def test_chapter_08_shows_real_data_read_through_its_frame():
    """The chapter reads the corpus framed (loaded, checked, one block: real_shape.framed) with the
    selection the environment gives, and says so in its first cell's corpus notice."""
    source = (paths.REPO_ROOT / "notebooks" / "08_real_corpus.py").read_text()
    assert "real_shape.framed(paths.real_corpus_dir(), **paths.real_selection())" in source
    assert "kasner2026spanannotators" in source
    nb = json.loads((paths.REPO_ROOT / "notebooks" / "08_real_corpus.ipynb").read_text())
    first_code = next(  # after the Colab cell, silent here
        c for c in nb["cells"] if c["cell_type"] == "code" and "colab" not in c["metadata"].get("tags", [])
    )
    html = "".join("".join(o.get("data", {}).get("text/html", "")) for o in first_code["outputs"])
    assert "corpus-notice" in html and ROOT.name in html
    assert "simulated-notice" not in html and "Simulated data" not in html
