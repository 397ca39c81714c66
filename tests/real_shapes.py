"""Corpora of the shapes the public "LLMs as Span Annotators" export has, built from its two
bundled d2t splits (``data/span-annotation-d2t-iaa``, ``data/span-annotation-d2t-test``).

The export itself holds three tasks with different categories in one folder (d2t-eval,
mt-eval, propaganda), several splits, config-only campaigns and records whose example ids point
at another text. These builders copy lines of the bundled splits (verbatim, or with the one
change a shape needs) into such layouts, small enough for tests:

``export``
    task d2t-eval: the test split's texts :data:`TEST_TEXTS` of each domain and system with its
    human records on them (split "test": group A on all, B on some) and its six judges, the iaa
    split whole (its
    human records, six judges), a config-only judge folder; and task "propaganda": the iaa split
    relabelled (:func:`_propaganda`: other datasets, other category names, texts numbered
    within one setup), the human campaign right below ``annotations/human/propaganda`` as in the
    export, one judge whose records sit on the id of another example with an
    ``orig_example_idx`` naming the right one (as the export's MT records do).
``one-group``
    the iaa split with one human annotator group.
``staggered``
    the test split's subset above alone, group A's records left out on half the texts group B
    annotated: the two groups annotated different, overlapping texts.
``collide``
    the iaa split with two judge folders the naming rule gives one name
    (``zeroshot-gpt4o/x`` and ``zeroshot/gpt4o-x``).
``config-only``
    the iaa split and a judge folder that holds only its config.

``build(root, shape, texts=..., groups=...)`` makes them smaller for what costs time per text or
per pair of groups (the real-corpus chapters): ``texts``, the test split's texts kept per domain
and system (default :data:`TEST_TEXTS`); ``groups``, the iaa split's first human groups kept
(default: all 29).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from hotelcheckspan import paths

IAA, TEST = paths.REAL_CORPUS, paths.REAL_TEST_CORPUS
TEST_TEXTS = range(6, 14)  # the test split's texts kept per domain and system (8 x 3 domains x 4 systems)
RENAMED = ["Falsehood", "Loaded", "Slogan", "Doubt", "Flag", "Else"]  # the relabelled task's categories
MOVED = 5  # records of the relabelled judge moved onto the id of the next example
SHAPES = ("export", "one-group", "staggered", "collide", "config-only")


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write_lines(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _copy_campaign(src: Path, dst: Path, keep=None, change=None) -> None:
    """A campaign folder: its config verbatim, its records filtered by ``keep`` and changed by
    ``change`` (a function of a record returning the record to write)."""
    dst.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src / "config.yaml", dst / "config.yaml")
    rows = [r for r in _lines(src / "annotations.jsonl") if keep is None or keep(r)]
    _write_lines(dst / "annotations.jsonl", [change(r) if change else r for r in rows])


def _small_test(root: Path, task_dir: str = "d2t-eval", stagger: bool = False, texts=TEST_TEXTS) -> set[tuple]:
    """The test split's subset (texts, inputs, human records of split "test" on them, judges)
    below ``root``, with ``stagger`` group A's records left out on every other text group B
    annotated; returns the kept keys."""
    kept = set()
    for src in sorted((TEST / "outputs").rglob("*.jsonl")):
        rows = [r for r in _lines(src) if r["example_idx"] in texts]
        kept |= {(r["dataset"], r["split"], r["setup_id"], r["example_idx"]) for r in rows}
        _write_lines(root / src.relative_to(TEST), rows)
    shutil.copytree(TEST / "inputs", root / "inputs", dirs_exist_ok=True)

    def on_kept(r):
        return (r["dataset"], r["split"], r["setup_id"], r["example_idx"]) in kept or (
            r["setup_id"].replace("-", ".") != r["setup_id"]
            and (r["dataset"], r["split"], r["setup_id"].replace("-", "."), r["example_idx"]) in kept
        )

    human = [r for r in _lines(TEST / "annotations/human/d2t-eval/test/annotations.jsonl") if r["split"] == "test"]
    human = [r for r in human if on_kept(r)]
    if stagger:
        by_b = sorted({_key(r) for r in human if r["annotator_group"] == 1})
        drop = set(by_b[::2])
        human = [r for r in human if not (r["annotator_group"] == 0 and _key(r) in drop)]
    folder = root / f"annotations/human/{task_dir}/test"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(TEST / "annotations/human/d2t-eval/test/config.yaml", folder / "config.yaml")
    _write_lines(folder / "annotations.jsonl", human)
    for judge in sorted((TEST / "annotations/model/d2t-eval/test").iterdir()):
        _copy_campaign(judge, root / f"annotations/model/{task_dir}/test/{judge.name}", keep=on_kept)
    return kept


def _key(r: dict) -> tuple:
    return (r["dataset"], r["split"], r["setup_id"], r["example_idx"])


def _iaa(root: Path, human_keep=None) -> None:
    """The iaa split whole (texts, inputs, human campaign, judges)."""
    for sub in ("outputs", "inputs"):
        shutil.copytree(IAA / sub, root / sub, dirs_exist_ok=True)
    _copy_campaign(IAA / "annotations/human/d2t-eval/iaa", root / "annotations/human/d2t-eval/iaa", keep=human_keep)
    for judge in sorted((IAA / "annotations/model/d2t-eval/iaa").iterdir()):
        _copy_campaign(judge, root / f"annotations/model/d2t-eval/iaa/{judge.name}")


def _config_only(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(IAA / "annotations/model/d2t-eval/iaa/zeroshot-gpt4o/config.yaml", folder / "config.yaml")


def _relabelled_config(src: Path, dst: Path) -> None:
    config = yaml.safe_load(src.read_text(encoding="utf-8"))
    for cat, name in zip(config["annotation_span_categories"], RENAMED):
        cat["name"] = name
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")


SETUPS = ["gemma2", "gpt4o", "llama3-3", "phi3-5"]  # the iaa split's systems, one text per domain each


def _propaganda(root: Path, groups: int | None = None) -> None:
    """The iaa split relabelled as a second task: datasets ``propaganda-*``, categories
    :data:`RENAMED`, and the four texts of a domain numbered 0-3 of one setup "mixed" (their
    ``orig_example_idx`` 10-13, as the export's MT texts carry theirs); one judge's first
    :data:`MOVED` records with spans sit on the id of the next text, their ``orig_example_idx``
    naming their own."""

    def rename(r):
        k = SETUPS.index(r["setup_id"].replace(".", "-"))  # the texts spell llama3.3, the records llama3-3
        dataset = "propaganda-" + r["dataset"].removeprefix("d2t-")
        return r | {"dataset": dataset, "setup_id": "mixed", "example_idx": k, "orig_example_idx": 10 + k}

    for src in sorted((IAA / "outputs").rglob("*.jsonl")):
        rows = [rename(r) for r in _lines(src)]
        _write_lines(root / "outputs/propaganda" / src.parent.name / src.name.replace("d2t-", "propaganda-"), rows)
    human = root / "annotations/human/propaganda"
    _relabelled_config(IAA / "annotations/human/d2t-eval/iaa/config.yaml", human / "config.yaml")
    rows = [rename(r) for r in _lines(IAA / "annotations/human/d2t-eval/iaa/annotations.jsonl") if _kept(r, groups)]
    _write_lines(human / "annotations.jsonl", rows)
    for judge in ("zeroshot-gpt4o", "zeroshot-o3-mini"):
        src = IAA / f"annotations/model/d2t-eval/iaa/{judge}"
        dst = root / f"annotations/model/propaganda/zeroshot/{judge.removeprefix('zeroshot-')}"
        _relabelled_config(src / "config.yaml", dst / "config.yaml")
        rows = [rename(r) for r in _lines(src / "annotations.jsonl")]
        if judge == "zeroshot-o3-mini":
            moved = [r for r in rows if r["annotations"]][:MOVED]
            for r in moved:
                r["example_idx"] = (r["example_idx"] + 1) % len(SETUPS)  # another text's id
        _write_lines(dst / "annotations.jsonl", rows)


def moved_records(root: Path) -> list[int]:
    """The lines (1-based) of the relabelled judge's records that sit on another example's id."""
    path = root / "annotations/model/propaganda/zeroshot/o3-mini/annotations.jsonl"
    return [i for i, r in enumerate(_lines(path), 1) if r["example_idx"] != r["orig_example_idx"] - 10]


def _kept(record: dict, groups: int | None) -> bool:
    """Whether an iaa human record is of the first ``groups`` annotator groups (None: all)."""
    return groups is None or record["annotator_group"] < groups


def build(root: Path, shape: str, texts=TEST_TEXTS, groups: int | None = None) -> Path:
    """Write the corpus of ``shape`` (one of :data:`SHAPES`) below ``root``; returns ``root``
    (``texts`` and ``groups``: see the module docstring)."""
    root.mkdir(parents=True, exist_ok=True)

    def keep(r):
        return _kept(r, groups)

    if shape == "export":
        _small_test(root, texts=texts)
        _iaa(root, human_keep=keep)
        _config_only(root / "annotations/model/d2t-eval/test/qwen")
        _propaganda(root, groups)
    elif shape == "one-group":
        found = {r["annotator_group"] for r in _lines(IAA / "annotations/human/d2t-eval/iaa/annotations.jsonl")}
        _iaa(root, human_keep=lambda r, g=min(found): r["annotator_group"] == g)
    elif shape == "staggered":
        _small_test(root, stagger=True, texts=texts)
    elif shape == "collide":
        _iaa(root, human_keep=keep)
        judges = root / "annotations/model/d2t-eval/iaa"
        shutil.move(judges / "zeroshot-gpt4o", judges / "x")
        (judges / "zeroshot-gpt4o").mkdir()
        shutil.move(judges / "x", judges / "zeroshot-gpt4o" / "x")
        shutil.copytree(judges / "zeroshot-o3-mini", judges / "zeroshot" / "gpt4o-x")
    elif shape == "config-only":
        _iaa(root, human_keep=keep)
        _config_only(root / "annotations/model/d2t-eval/iaa/zeroshot-qwen")
    else:
        raise ValueError(f"no shape {shape!r} (shapes: {', '.join(SHAPES)})")
    return root
