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
``wide``
    the export as it ships, in small: task d2t-eval with three splits (``test`` and ``iaa`` as in
    ``export``, and ``dev``: the next test texts relabelled, with the six judges and a seventh
    that copies human group A, :data:`COPYIST`, so the first and last judges' intervals are
    apart), a qualification task and its answer key on split ``gold-iaa`` (the iaa texts
    relabelled; the key is group A's records); task mt-eval (:func:`_mt_eval`: the iaa texts as
    translations of two language pairs, the pair in ``split`` as the export writes it, inputs as
    JSON Lines with the source in ``src``, a judge whose ``annotations.jsonl`` has 0 bytes); and
    propaganda with :data:`PROPAGANDA_CATEGORIES` categories.

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
SHAPES = ("export", "one-group", "staggered", "collide", "config-only", "wide")
DEV_TEXTS = range(14, 20)  # the test split's texts relabelled as split "dev" in the wide export
COPYIST = "copyist"  # a dev judge whose records are human group A's: it leads by a margin
PROPAGANDA_CATEGORIES = 18  # as the export's propaganda task
PAIRS = {"d2t-football": "en-cs", "d2t-gsmarena": "en-cs", "d2t-openweather": "en-de"}  # mt-eval's language pairs


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


def _relabelled_config(src: Path, dst: Path, n_categories: int = len(RENAMED)) -> None:
    config = yaml.safe_load(src.read_text(encoding="utf-8"))
    cats = config["annotation_span_categories"]
    cats += [dict(cats[-1]) for _ in range(n_categories - len(cats))]
    names = RENAMED + [f"Technique {i}" for i in range(len(RENAMED) + 1, n_categories + 1)]
    for cat, name in zip(cats, names):
        cat["name"] = name
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")


SETUPS = ["gemma2", "gpt4o", "llama3-3", "phi3-5"]  # the iaa split's systems, one text per domain each


def _propaganda(root: Path, groups: int | None = None, n_categories: int = len(RENAMED)) -> None:
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
    _relabelled_config(IAA / "annotations/human/d2t-eval/iaa/config.yaml", human / "config.yaml", n_categories)
    rows = [rename(r) for r in _lines(IAA / "annotations/human/d2t-eval/iaa/annotations.jsonl") if _kept(r, groups)]
    _write_lines(human / "annotations.jsonl", rows)
    for judge in ("zeroshot-gpt4o", "zeroshot-o3-mini"):
        src = IAA / f"annotations/model/d2t-eval/iaa/{judge}"
        dst = root / f"annotations/model/propaganda/zeroshot/{judge.removeprefix('zeroshot-')}"
        _relabelled_config(src / "config.yaml", dst / "config.yaml", n_categories)
        rows = [rename(r) for r in _lines(src / "annotations.jsonl")]
        if judge == "zeroshot-o3-mini":
            moved = [r for r in rows if r["annotations"]][:MOVED]
            for r in moved:
                r["example_idx"] = (r["example_idx"] + 1) % len(SETUPS)  # another text's id
        _write_lines(dst / "annotations.jsonl", rows)


def _relabel_split(r: dict, split: str) -> dict:
    return r | {"split": split}


def _dev(root: Path) -> None:
    """The test texts :data:`DEV_TEXTS` relabelled as split "dev": texts, inputs, human records,
    the six judges and :data:`COPYIST` (group A's records as a judge)."""
    kept = set()
    for src in sorted((TEST / "outputs").rglob("*.jsonl")):
        rows = [_relabel_split(r, "dev") for r in _lines(src) if r["example_idx"] in DEV_TEXTS]
        kept |= {(r["dataset"], r["setup_id"].replace(".", "-"), r["example_idx"]) for r in rows}
        _write_lines(root / str(src.relative_to(TEST)).replace("-test.jsonl", "-dev.jsonl"), rows)
    for src in sorted((TEST / "inputs").rglob("test.json")):
        dst = root / src.relative_to(TEST).with_name("dev.json")
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)

    def on_dev(r):
        return r["split"] == "test" and (r["dataset"], r["setup_id"].replace(".", "-"), r["example_idx"]) in kept

    human = [_relabel_split(r, "dev") for r in _lines(TEST / "annotations/human/d2t-eval/test/annotations.jsonl")]
    human = [r for r in human if (r["dataset"], r["setup_id"].replace(".", "-"), r["example_idx"]) in kept]
    folder = root / "annotations/human/d2t-eval/dev"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(TEST / "annotations/human/d2t-eval/test/config.yaml", folder / "config.yaml")
    _write_lines(folder / "annotations.jsonl", human)
    for judge in sorted((TEST / "annotations/model/d2t-eval/test").iterdir()):
        dst = root / f"annotations/model/d2t-eval/dev/zeroshot-{judge.name}"
        _copy_campaign(judge, dst, keep=on_dev, change=lambda r: _relabel_split(r, "dev"))
    copyist = root / f"annotations/model/d2t-eval/dev/{COPYIST}"
    copyist.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(TEST / "annotations/model/d2t-eval/test/gpt4o/config.yaml", copyist / "config.yaml")
    _write_lines(copyist / "annotations.jsonl", [r for r in human if r["annotator_group"] == 0])


def _qualification(root: Path) -> None:
    """A qualification task on the iaa texts relabelled as split "gold-iaa" (every iaa group a
    candidate) and its answer key (group A's records), below ``qualification/`` as in the export."""
    for src in sorted((IAA / "outputs").rglob("*.jsonl")):
        rows = [_relabel_split(r, "gold-iaa") for r in _lines(src)]
        _write_lines(root / str(src.relative_to(IAA)).replace("-iaa.jsonl", "-gold-iaa.jsonl"), rows)
    for src in sorted((IAA / "inputs").rglob("iaa.json")):
        shutil.copyfile(src, root / src.relative_to(IAA).with_name("gold-iaa.json"))
    rows = [_relabel_split(r, "gold-iaa") for r in _lines(IAA / "annotations/human/d2t-eval/iaa/annotations.jsonl")]
    for name, keep in (
        ("qualification-task", rows),
        ("qualification-key", [r for r in rows if r["annotator_group"] == 0]),
    ):
        folder = root / f"annotations/human/d2t-eval/qualification/{name}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(IAA / "annotations/human/d2t-eval/iaa/config.yaml", folder / "config.yaml")
        _write_lines(folder / "annotations.jsonl", keep)


MT_OFFSET = {"d2t-football": 0, "d2t-gsmarena": 100, "d2t-openweather": 0}  # ids unique within a pair


def _mt(r: dict) -> dict:
    """An iaa key as an mt-eval key: dataset wmt24-news, the language pair in ``split``."""
    idx = r["example_idx"] + MT_OFFSET[r["dataset"]]
    return r | {"dataset": "wmt24-news", "split": PAIRS[r["dataset"]], "example_idx": idx}


def _mt_eval(root: Path) -> None:
    """Task mt-eval: the iaa texts as translations (outputs/mt-eval/wmt24-news/<pair>.jsonl), their
    inputs as JSON Lines (inputs/mt-eval/wmt24-news/<pair>.jsonl: ``input_idx, src, doc_id,
    dataset, split, example_idx``), the human campaign right below annotations/human/mt-eval (its
    first three groups), one judge with records and one whose annotation file has 0 bytes."""
    outputs: dict[str, list] = {}
    inputs: dict[str, dict] = {}
    for src in sorted((IAA / "outputs").rglob("*.jsonl")):
        for r in _lines(src):
            m = _mt(r)
            outputs.setdefault(m["split"], []).append(m | {"metadata": {"input_idx": f"{m['example_idx']}|doc"}})
            data = json.loads((IAA / "inputs/d2t-eval" / r["dataset"] / "iaa.json").read_text(encoding="utf-8"))
            item = data[r["example_idx"]] if isinstance(data, list) else next(iter(data.values()))[r["example_idx"]]
            inputs.setdefault(m["split"], {})[m["example_idx"]] = {
                "input_idx": f"{m['example_idx']}|doc|{m['split']}",
                "src": json.dumps(item, ensure_ascii=False)[:400],
                "doc_id": "doc",
                "dataset": m["dataset"],
                "split": m["split"],
                "example_idx": m["example_idx"],
            }
    for pair, rows in outputs.items():
        _write_lines(root / f"outputs/mt-eval/wmt24-news/{pair}.jsonl", rows)
        _write_lines(root / f"inputs/mt-eval/wmt24-news/{pair}.jsonl", list(inputs[pair].values()))
    human = root / "annotations/human/mt-eval"
    _relabelled_config(IAA / "annotations/human/d2t-eval/iaa/config.yaml", human / "config.yaml")
    rows = [
        _mt(r) for r in _lines(IAA / "annotations/human/d2t-eval/iaa/annotations.jsonl") if r["annotator_group"] < 3
    ]
    _write_lines(human / "annotations.jsonl", rows)
    judge = root / "annotations/model/mt-eval/zeroshot/llama3-3"
    _relabelled_config(IAA / "annotations/model/d2t-eval/iaa/zeroshot-llama3-3/config.yaml", judge / "config.yaml")
    _write_lines(
        judge / "annotations.jsonl",
        [_mt(r) for r in _lines(IAA / "annotations/model/d2t-eval/iaa/zeroshot-llama3-3/annotations.jsonl")],
    )
    empty = root / "annotations/model/mt-eval/zeroshot/gpt4o"
    _relabelled_config(IAA / "annotations/model/d2t-eval/iaa/zeroshot-gpt4o/config.yaml", empty / "config.yaml")
    (empty / "annotations.jsonl").write_bytes(b"")


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
    elif shape == "wide":
        _small_test(root, texts=texts)
        _iaa(root, human_keep=keep)
        _dev(root)
        _qualification(root)
        _mt_eval(root)
        _propaganda(root, groups, PROPAGANDA_CATEGORIES)
    elif shape == "config-only":
        _iaa(root, human_keep=keep)
        _config_only(root / "annotations/model/d2t-eval/iaa/zeroshot-qwen")
    else:
        raise ValueError(f"no shape {shape!r} (shapes: {', '.join(SHAPES)})")
    return root
