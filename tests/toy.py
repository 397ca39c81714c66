"""A toy HotelCheckSpan corpus small enough to compute every figure by hand.

Four examples share one summary, ``"ab cd ef gh ij"``: its words sit at characters [0, 2),
[3, 5), [6, 8), [9, 11) and [12, 14), so every span below is a run of whole words whose offsets
and word count can be read off. ``write`` puts it on disk in the factgenie layout the reader
takes (``inputs.jsonl``, ``annotations/{human,model}/<campaign>/config.yaml`` and
``annotations.jsonl``); ``load`` reads it back with the package's own reader.

The spans (type, start, text) per campaign, annotator, group and example; examples 0 and 1 are
the stage-2 examples, 0-2 are "short" and 3 is "long"::

    stage1  a1 A  ex0  Incorrect [0,5) "ab cd"
            a1 A  ex1  -
            a2 A  ex2  Not Checkable [6,8) "ef"
            a2 A  ex3  Misleading [9,14) "gh ij"
            b1 B  ex0  Incorrect [0,2) "ab", Misleading [6,11) "ef gh"
            b1 B  ex1  Not Checkable [3,5) "cd"
            b1 B  ex2  -
            b1 B  ex3  Not Checkable [12,14) "ij"
    stage2  c1 A  ex0  Incorrect [0,5) "ab cd"
            c1 A  ex1  -
            d1 B  ex0  -
            d1 B  ex1  Incorrect [3,8) "cd ef", Incorrect [12,14) "ij"
    m1      (model) ex0 Incorrect [0,8) "ab cd ef" (reason r0), ex1 Misleading [3,5) "cd" (r1),
                    ex2 -, ex3 Not Checkable [9,11) "gh" (r3)
    m2      (model) ex0 Not Checkable [0,2) "ab", ex1-ex3 -

20 records, 14 spans (10 human, 4 model).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from hotelcheckspan.categories import CATEGORIES
from hotelcheckspan.corpora import Corpus
from hotelcheckspan.corpora import load as load_corpus

NC, MIS, INC = range(3)  # type indices in the campaigns' configs (CATEGORIES order)
SUMMARY = "ab cd ef gh ij"
BASE = {"dataset": "toy", "setup_id": "s"}

# example_idx -> split, aspect, description (its word count), sources, segments, segments dropped
EXAMPLES = {
    0: ("short", "location", "one two <three>", 2, 10, 2),
    1: ("short", "rooms", "one two three four five", 2, 6, 1),
    2: ("short", "location", "a b", 3, 9, 0),
    3: ("long", "rooms", "x", 1, None, None),
}

# campaign -> (kind, stage, [(annotator, group, example_idx, [(type, start, text, reason)])])
CAMPAIGNS = {
    "stage1": (
        "human",
        1,
        [
            ("a1", 0, 0, [(INC, 0, "ab cd", "")]),
            ("a1", 0, 1, []),
            ("a2", 0, 2, [(NC, 6, "ef", "")]),
            ("a2", 0, 3, [(MIS, 9, "gh ij", "")]),
            ("b1", 1, 0, [(INC, 0, "ab", ""), (MIS, 6, "ef gh", "")]),
            ("b1", 1, 1, [(NC, 3, "cd", "")]),
            ("b1", 1, 2, []),
            ("b1", 1, 3, [(NC, 12, "ij", "")]),
        ],
    ),
    "stage2": (
        "human",
        2,
        [
            ("c1", 0, 0, [(INC, 0, "ab cd", "")]),
            ("c1", 0, 1, []),
            ("d1", 1, 0, []),
            ("d1", 1, 1, [(INC, 3, "cd ef", ""), (INC, 12, "ij", "")]),
        ],
    ),
    "m1": (
        "model",
        None,
        [
            ("m1", 0, 0, [(INC, 0, "ab cd ef", "r0")]),
            ("m1", 0, 1, [(MIS, 3, "cd", "r1")]),
            ("m1", 0, 2, []),
            ("m1", 0, 3, [(NC, 9, "gh", "r3")]),
        ],
    ),
    "m2": (
        "model",
        None,
        [
            ("m2", 0, 0, [(NC, 0, "ab", "")]),
            ("m2", 0, 1, []),
            ("m2", 0, 2, []),
            ("m2", 0, 3, []),
        ],
    ),
}


def key(idx: int) -> dict:
    """The example key of toy example ``idx``."""
    return BASE | {"split": EXAMPLES[idx][0], "example_idx": idx}


def _record(annotator: str, group: int, idx: int, spans: list, kind: str, stage) -> dict:
    rec = key(idx) | {
        "annotator_id": annotator,
        "annotator_group": group,
        "annotations": [{"type": t, "start": s, "text": x} | ({"reason": r} if r else {}) for t, s, x, r in spans],
    }
    if kind == "human":
        rec |= {
            "flags": [{"label": "There were no errors in the summary", "value": not spans}],
            "options": [{"type": "slider", "label": "Overall impression", "value": str(7 - len(spans))}],
            "metadata": {"stage": stage},
        }
    return rec


def write(root: Path) -> Path:
    """Write the toy corpus below ``root`` (factgenie layout) and return ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    inputs = [
        key(i)
        | {"summary": SUMMARY, "description": desc, "aspect": aspect, "sources": sources}
        | ({"segments": seg, "segments_dropped": dropped} if seg is not None else {})
        for i, (_, aspect, desc, sources, seg, dropped) in EXAMPLES.items()
    ]
    (root / "inputs.jsonl").write_text("".join(json.dumps(x) + "\n" for x in inputs))
    for name, (kind, stage, records) in CAMPAIGNS.items():
        folder = root / "annotations" / kind / name
        folder.mkdir(parents=True)
        config = {"annotation_span_categories": [{"name": c} for c in CATEGORIES], "annotation_overlap_allowed": False}
        if stage is not None:
            config["stage"] = stage
        (folder / "config.yaml").write_text(yaml.safe_dump(config))
        lines = [json.dumps(_record(a, g, i, spans, kind, stage)) for a, g, i, spans in records]
        (folder / "annotations.jsonl").write_text("".join(line + "\n" for line in lines))
    return root


def load(root: Path) -> Corpus:
    """Write the toy corpus below ``root`` and read it with the package's reader."""
    return load_corpus(write(root))
