"""Small seeded factgenie corpora of shapes HotelCheckSpan's is not, written into a folder.

Every corpus is in factgenie's export layout: the annotated texts in
``outputs/<dataset>/<setup_id>.jsonl`` (``dataset, split, setup_id, example_idx, output``) and
the campaigns below ``annotations/{human,model}/<path>/`` with a ``config.yaml`` and an
``annotations.jsonl``. The campaigns use two categories of their own (:data:`CATEGORIES`), not
HotelCheckSpan's three, and have no stages, flags or impressions.

Text ``i`` is eight words ``"i0w0 i0w1 ... i0w7"`` (:func:`text`); a span is a run of one or two
whole words (:func:`span`), so where it starts can be read off. :func:`marks` draws the spans of
one record: none, or one or two runs that never overlap. The shapes (:data:`SHAPES`) are what
issue 25 found the judge tools broke on: one human group, campaign folders that share a name,
human groups on different examples, no clear human majority anywhere, and a campaign folder that
holds only its config.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

CATEGORIES = ["Wrong", "Odd"]
DATASET, SPLIT, SETUP = "toy-data", "test", "sys-a"
WORDS = 8


def text(idx: int) -> str:
    """The annotated text of example ``idx``: eight distinct words."""
    return " ".join(f"i{idx}w{k}" for k in range(WORDS))


def span(idx: int, first: int, n_words: int, category: int) -> dict:
    """A span of ``n_words`` whole words of text ``idx`` from word ``first``."""
    words = text(idx).split(" ")
    start = sum(len(w) + 1 for w in words[:first])
    return {"type": category, "start": start, "text": " ".join(words[first : first + n_words])}


def marks(rng: np.random.Generator, idx: int, p_error: float = 0.5) -> list[dict]:
    """The spans of one record on text ``idx``: none with probability ``1 - p_error``, else one or
    two non-overlapping runs of one or two words (each in its own half of the text)."""
    if rng.random() >= p_error:
        return []
    halves = rng.choice(2, size=rng.integers(1, 3), replace=False)
    return [
        span(idx, 4 * int(h) + int(rng.integers(0, 3)), int(rng.integers(1, 3)), int(rng.integers(len(CATEGORIES))))
        for h in sorted(halves)
    ]


def record(idx: int, group: int, spans: list[dict]) -> dict:
    """One annotation record as factgenie exports it."""
    return {
        "dataset": DATASET,
        "split": SPLIT,
        "setup_id": SETUP,
        "example_idx": idx,
        "annotations": spans,
        "annotator_group": group,
    }


@dataclass
class Campaign:
    """A campaign folder: ``path`` below ``annotations/`` (``"human/..."`` or ``"model/..."``),
    its records (None: a folder with its config only) and extra config keys."""

    path: str
    records: list[dict] | None
    config: dict = field(default_factory=lambda: {"annotation_overlap_allowed": False})


def config(extra: dict) -> dict:
    """A campaign config with :data:`CATEGORIES` and ``extra``."""
    return {"annotation_span_categories": [{"name": c} for c in CATEGORIES]} | extra


def write_campaign(folder: Path, camp: Campaign) -> Path:
    """Write one campaign folder (``config.yaml`` and, unless config-only, ``annotations.jsonl``)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(yaml.safe_dump(config(camp.config)), encoding="utf-8")
    if camp.records is not None:
        lines = "".join(json.dumps(r) + "\n" for r in camp.records)
        (folder / "annotations.jsonl").write_text(lines, encoding="utf-8")
    return folder


def write(root: Path, campaigns: list[Campaign], n_examples: int) -> Path:
    """Write a corpus of ``n_examples`` texts and ``campaigns`` below ``root``; returns ``root``."""
    out = root / "outputs" / DATASET
    out.mkdir(parents=True, exist_ok=True)
    rows = [
        {"dataset": DATASET, "split": SPLIT, "setup_id": SETUP, "example_idx": i, "output": text(i)}
        for i in range(n_examples)
    ]
    (out / f"{SETUP}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for camp in campaigns:
        write_campaign(root / "annotations" / camp.path, camp)
    return root


def human(path: str, groups: dict[int, range], rng: np.random.Generator) -> Campaign:
    """A human campaign: group ``g`` annotates the examples ``groups[g]`` (random marks)."""
    return Campaign(f"human/{path}", [record(i, g, marks(rng, i)) for g, ex in groups.items() for i in ex])


def model(path: str, examples: range, rng: np.random.Generator) -> Campaign:
    """A model campaign (one group, 0) with random marks on ``examples``."""
    return Campaign(f"model/{path}", [record(i, 0, marks(rng, i)) for i in examples])


# --- the shapes -----------------------------------------------------------------------------


def one_group(seed: int = 1) -> tuple[list[Campaign], int]:
    """One human group on 30 texts, two judges: no pair of humans, so no ceiling."""
    rng = np.random.default_rng(seed)
    n = 30
    return [human("ann", {0: range(n)}, rng), model("judge-a", range(n), rng), model("judge-b", range(n), rng)], n


SAME_NAMES = {  # campaign folder below annotations/model/ -> its documented name (layouts.NAME_RULE)
    "mt-eval/zeroshot/llama3-3": "zeroshot-llama3-3",
    "mt-eval/cot/llama3-3": "cot-llama3-3",
    "mt-eval/cot/deepseek-r1": "cot-deepseek-r1",
}


def same_names(seed: int = 2) -> tuple[list[Campaign], int]:
    """Two human groups on 24 texts; three judges whose folders share names (``llama3-3`` twice)."""
    rng = np.random.default_rng(seed)
    n = 24
    return [human("mt-eval/humans", {0: range(n), 1: range(n)}, rng)] + [
        model(path, range(n), rng) for path in SAME_NAMES
    ], n


STAGGERED = {0: range(0, 20), 1: range(10, 30), 2: range(20, 40)}


def staggered(seed: int = 3) -> tuple[list[Campaign], int]:
    """Three human groups on different, overlapping examples (0-19, 10-29, 20-39); two judges on all 40."""
    rng = np.random.default_rng(seed)
    n = 40
    return [human("ann", STAGGERED, rng), model("judge-a", range(n), rng), model("judge-b", range(n), rng)], n


def no_majority(seed: int = 4) -> tuple[list[Campaign], int]:
    """Two human groups on all 24 texts that never agree on "any error" (group 0 marks the even
    texts, group 1 the odd ones): with :data:`judges.AGREE_SHARE` 3/4 of two sets is both, so
    no text has a clear majority, and no text is one group's alone."""
    rng = np.random.default_rng(seed)
    n = 24
    groups = [record(i, g, marks(rng, i, p_error=1.0) if i % 2 == g else []) for g in (0, 1) for i in range(n)]
    return [Campaign("human/ann", groups), model("judge-a", range(n), rng), model("judge-b", range(n), rng)], n


def config_only(seed: int = 5) -> tuple[list[Campaign], int]:
    """Two human groups and two judges on 20 texts, beside a model campaign folder that holds only
    its config (``model/pending``)."""
    rng = np.random.default_rng(seed)
    n = 20
    return [
        human("ann", {0: range(n), 1: range(n)}, rng),
        model("judge-a", range(n), rng),
        model("judge-b", range(n), rng),
        Campaign("model/pending", None),
    ], n


SHAPES = {
    "one-group": one_group,
    "same-names": same_names,
    "staggered": staggered,
    "no-majority": no_majority,
    "config-only": config_only,
}


def build(root: Path, shape: str) -> Path:
    """Write the corpus of ``shape`` (a key of :data:`SHAPES`) below ``root``; returns ``root``."""
    campaigns, n = SHAPES[shape]()
    return write(root, campaigns, n)
