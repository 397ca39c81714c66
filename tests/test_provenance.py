"""Labels by rule: every set / calibrated / tuned / emergent label the book shows is derived from the
generator's inputs, the calibration loss's terms and the tuned list, and nothing says otherwise.

- the status the provenance file writes out for every figure is the rule's;
- the figures the generator reads are exactly those the file marks as inputs (recorded by running
  the generator on a paper whose every read is logged);
- a figure is labelled calibrated exactly when it is a term of the loss ``calibration.loss`` sums;
- set figures the stand-in misses say so, with the gap; calibrated ones carry their distance;
- no chapter types a label: prose and Summaries glue it.
"""

from __future__ import annotations

import ast
import re

import numpy as np
import pandas as pd
import pytest
import yaml

from hotelcheckspan import paths
from hotelcheckspan.book import tables
from hotelcheckspan.reference import paper, provenance, targets

SKIP = ("notes", "preprocessing")  # not figures the book compares


def _leaves(node, path=()):
    """Every figure of data/paper_figures.yaml as its path (a list is one figure: a distribution)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if not (path == () and k in SKIP):
                yield from _leaves(v, (*path, k))
    else:
        yield path


def _entries(node, path=()):
    """Every entry of the provenance file that sits on a figure (not on its fields)."""
    for k, v in node.items():
        if k in provenance.FIELDS:
            continue
        if isinstance(v, dict):
            yield (*path, k), v
            yield from _entries(v, (*path, k))


def test_every_status_the_file_writes_out_is_the_rules():
    wrong = [
        f"{'/'.join(map(str, p))}: file says {provenance.declared(*p, default='nothing')}, rule {provenance.kind(p)}"
        for p in _leaves(paper.figures())
        if provenance.declared(*p, default=None) != provenance.kind(p)
    ]
    assert not wrong, "\n".join(wrong)
    for where, entry in _entries(provenance.load()):
        if entry.get("status") in ("set", "tuned") or entry.get("input") or entry.get("tuned"):
            assert entry.get("reason") or provenance.lookup(*where)["reason"], where


def test_every_entry_names_a_figure_the_paper_has():
    reported = paper.figures()
    for where, _ in _entries(provenance.load()):
        node = reported
        for key in where:  # a key names a figure, or a column of every row of a table
            if key in node:
                node = node[key]
            else:
                assert all(isinstance(row, dict) and key in row for row in node.values()), where
                node = next(iter(node.values()))[key]


def test_calibrated_is_exactly_a_term_of_the_loss():
    from hotelcheckspan.simulation import calibration

    calibrated = {"/".join(map(str, p)) for p in _leaves(paper.figures()) if provenance.kind(p) == "calibrated"}
    assert calibrated == {t.key for t in targets.LOSS_TERMS}
    # the loss sums over exactly these terms: moving a term's value moves the loss, moving any
    # other figure of `measure` does not
    rows = [{"figure": t.key, "key": t.key, "paper": 0.3, "ours": 0.3} for t in targets.LOSS_TERMS]
    rows.append({"figure": "P_H", "key": "table6_span_level/Stage 1 - Stage 2/P_H", "paper": 0.15, "ours": 0.9})
    m = pd.DataFrame(rows)
    assert calibration.loss(m) == 0
    for t in targets.LOSS_TERMS:
        moved = m.assign(ours=np.where(m["key"] == t.key, 0.3 + t.tolerance, m["ours"]))
        assert calibration.loss(moved) == pytest.approx(1.0), t.key
    # and `measure` names its figures with the keys the labels read
    assert {t.key for t in targets.LOSS_TERMS} <= set(_measured_keys())


def _measured_keys():
    from hotelcheckspan.simulation import calibration

    return (
        [f"table6_span_level/{r}/{m}_{t}" for r in calibration.HUMAN_ROWS for t in "HS" for m in ("P", "R", "F1")]
        + [f"table5_example_level_votes/{label}" for label in calibration.VOTE_LABELS]
        + ["dataset/span_words/mean"]
    )


def test_calibration_measure_keys_every_row(corpus):
    from hotelcheckspan.simulation import calibration

    m = calibration.measure(corpus)
    assert m["key"].tolist() == _measured_keys()
    for key in m["key"]:
        paper.resolve(key)  # every key is a figure of the paper


class _Recorder(dict):
    """The paper's figures, logging the path of every figure read."""

    def __init__(self, data, path, log):
        super().__init__({k: _Recorder(v, (*path, k), log) if isinstance(v, dict) else v for k, v in data.items()})
        self._path, self._log = path, log

    def __getitem__(self, key):
        value = super().__getitem__(key)
        if not isinstance(value, _Recorder):
            self._log.add((*self._path, key))
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default


@pytest.mark.slow
def test_set_is_exactly_what_the_generator_reads():
    from hotelcheckspan.simulation import standin
    from hotelcheckspan.simulation.annotators import annotate
    from hotelcheckspan.simulation.summaries import build_examples

    read: set[tuple] = set()
    recorded = _Recorder(paper.figures(), (), read)
    examples = build_examples(np.random.default_rng(standin.SEED), recorded)
    annotate(examples, recorded, (standin.SEED, standin.DRAW), standin.HUMAN)
    assert read, "the generator read no figure"
    not_inputs = sorted("/".join(p) for p in read if provenance.kind(p) != "set")
    assert not not_inputs, f"read by the generator but not labelled set: {not_inputs}"
    unread = sorted(
        "/".join(map(str, p))
        for p in _leaves(paper.figures())
        if provenance.kind(p) == "set" and p not in read and not provenance.fields(p).get("in_code")
    )
    assert not unread, f"labelled set but the generator neither reads them nor writes them in code: {unread}"


def test_a_set_figure_the_stand_in_misses_says_so(tmp_path):
    # the paper's shortest description has 20 words; the stand-in's 47
    assert tables.figure_label("dataset/description_words/min", 47) == "set, missed by 27"
    assert tables.figure_label("dataset/description_words/min", 20) == "set"
    # a stated tolerance: 10% of the paper's 716.5 words
    assert tables.figure_label("dataset/description_words/mean", 700.0, 1) == "set"
    assert tables.figure_label("dataset/description_words/mean", 600.0, 1) == "set, missed by 116.5"
    assert tables.figure_label("table6_span_level/Stage 1 - Stage 2/F1_H", 0.15) == "calibrated, off by 0.03"
    assert tables.figure_label("table5_example_level_votes/Any", None, distance=0.0491) == "calibrated, TVD 0.049"
    assert tables.figure_label("llm_majority_alignment/gpt-4o/any", 0.41) == "tuned"
    assert tables.figure_label("impressions/r_error_count_vs_impression", -0.4) == "emergent"
    assert tables.figure_label(None, 3) == "emergent" and tables.figure_label(0.5, 0.4) == "emergent"
    shown = tables.versus([("shortest description", "dataset/description_words/min", 47)], simulated=True).frame
    assert shown["Figure is"].tolist() == ["set, missed by 27"]
    bad = tmp_path / "p.yaml"
    bad.write_text("dataset:\n  examples: {input: true, tolerance: lots}\n")
    with pytest.raises(ValueError, match="tolerance"):
        provenance.load(bad)


def test_tuned_figures_are_told_in_the_data_sheet_and_on_the_start_page():
    sheet = (paths.DATA_ROOT / "README.md").read_text(encoding="utf-8")
    intro = (paths.REPO_ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    tuned = [p for p, e in _entries(provenance.load()) if e.get("tuned")]
    assert tuned
    for where in tuned:
        assert f"`{'/'.join(where)}`" in sheet, f"the data sheet does not say what was tuned on {where}"
    assert "never tuned" not in intro
    assert len(re.findall(r"\btuned\b", intro)) >= 1
    for name in ("Table 2", "Section 6.2"):
        assert name in intro, f"the start page does not say that {name} was tuned"


# --- no chapter types a label ---------------------------------------------------------------------------

LABEL_WORDS = re.compile(
    r"\b(calibrated|emergent|emerges?|tuned|by construction|by design)\b|\*set\*|\bare set\b|\bis set\b|\bset from\b",
    re.IGNORECASE,
)
CHAPTERS = sorted((paths.REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.py"))


def _prose(source: str) -> list[tuple[int, str]]:
    """Lines of markdown and string constants in code of a percent-format notebook."""
    out, cell = [], "code"
    lines = source.splitlines()
    for i, line in enumerate(lines, 1):
        if line.startswith("# %%"):
            cell = "markdown" if "[markdown]" in line else "code"
        elif cell == "markdown":
            out.append((i, line))
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append((node.lineno, node.value))
    return out


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_chapters_glue_labels_instead_of_typing_them(chapter):
    """A Summary or a note that says "set", "calibrated", "tuned", "emergent", "by construction" or
    "by design" in its own words can contradict the rule; it glues the label
    (``tables.figure_status``, ``readings``) instead. Figure keys and column names are not prose."""
    typed = [
        f"{chapter.name}:{n}: {text.strip()[:100]}"
        for n, text in _prose(chapter.read_text(encoding="utf-8"))
        if LABEL_WORDS.search(text) and not re.fullmatch(r"[\w/ .()-]+/[\w/ .()-]+", text)
    ]
    assert not typed, "\n".join(typed)


def test_the_provenance_file_is_yaml_the_rule_reads():
    data = yaml.safe_load((paths.DATA_ROOT / "standin_provenance.yaml").read_text(encoding="utf-8"))
    assert data == provenance.load()
    assert set(data) >= {
        "dataset",
        "table2_human_span_types",
        "table3_llm_campaigns",
        "table4_dataset_level_stage2_subset",
        "table5_example_level_votes",
        "llm_majority_alignment",
        "table6_span_level",
        "clustering",
        "impressions",
        "dataset_level_text",
    }
