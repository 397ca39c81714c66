"""Write the stand-in corpus in factgenie's export layout (``inputs.jsonl`` and one folder per
campaign with ``config.yaml`` and ``annotations.jsonl``); every config says ``simulated: true``."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from ..categories import CATEGORIES, COLORS
from .annotators import LLM_CAMPAIGNS, PAPER_NAME
from .summaries import INC, MIS, NC, Example

DATASET = "hotelcheckspan"
SETUP_ID = "gemini-1.5-flash"


def key(e: Example) -> dict:
    return {"dataset": DATASET, "split": e.split, "setup_id": SETUP_ID, "example_idx": e.idx}


def record(rec: dict) -> dict:
    """One factgenie record from a simulated one (:func:`.annotators.annotate`)."""
    e = rec["example"]
    out = key(e)
    human = "annotator_id" in rec
    if human:
        out["annotator_id"] = rec["annotator_id"]
    out["annotator_group"] = rec["annotator_group"]
    out["annotations"] = [
        {"type": s["type"], "start": s["start"], "text": e.summary[s["start"] : s["end"]], "reason": s["reason"]}
        for s in rec["spans"]
    ]
    if human:
        imp = rec["impression"]
        out["flags"] = [{"label": rec["no_errors_label"], "value": not rec["spans"]}]
        out["options"] = [
            {
                "type": "slider",
                "label": "Overall impression",
                "index": str(imp - 1),
                "value": str(imp),
                "optionList": [str(i) for i in range(1, 8)],
            }
        ]
        out["metadata"] = {"stage": rec["stage"], "batch": rec["batch"]}
    else:
        out["metadata"] = {"annotator_id": rec["campaign"], "campaign_id": rec["campaign"]}
    return out


def _categories() -> list[dict]:
    descriptions = {
        NC: "The statement cannot be checked against the description.",
        MIS: "The statement distorts what the description says (exaggeration, ambiguity).",
        INC: "The statement contradicts the description.",
    }
    return [{"name": c, "color": COLORS[c], "description": descriptions[c]} for c in CATEGORIES]


def _dump_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def _dump_yaml(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def write(
    out: Path, examples: list[Example], campaign_records: dict[str, list[dict]], no_error_labels: tuple[str, str]
) -> None:
    """The whole corpus below ``out``."""
    inputs = [
        key(e)
        | {
            "description": e.description,
            "summary": e.summary,
            "aspect": e.aspect,
            "sources": e.sources,
            "segments": e.segments,
            "segments_dropped": e.dropped,
        }
        for e in examples
    ]
    _dump_jsonl(out / "inputs.jsonl", inputs)
    cats = _categories()
    for camp in ("stage1", "stage2"):
        folder = out / "annotations" / "human" / camp
        _dump_yaml(
            folder / "config.yaml",
            {
                "annotation_span_categories": cats,
                "annotation_overlap_allowed": False,
                "annotation_granularity": "words",
                "stage": int(camp[-1]),
                "flags": list(no_error_labels),
                "options": [{"type": "slider", "label": "Overall impression", "values": [str(i) for i in range(1, 8)]}],
                "simulated": True,
            },
        )
        rows = [record(r) for r in campaign_records[camp]]
        rows.sort(key=lambda r: (r["annotator_group"], r["metadata"]["batch"], r["split"], r["example_idx"]))
        _dump_jsonl(folder / "annotations.jsonl", rows)
    for camp, (model, prompt, *_rest) in LLM_CAMPAIGNS.items():
        folder = out / "annotations" / "model" / camp
        _dump_yaml(
            folder / "config.yaml",
            {
                "annotation_span_categories": cats,
                "annotation_overlap_allowed": False,
                "model": model,
                "prompt_variant": prompt,
                "prompt_template": (
                    "Given the hotel description and its summary, mark every span of the summary that is "
                    + ("clearly " if prompt == "less strict" else "")
                    + "Incorrect, Misleading or Not Checkable with respect to the description. "
                    "Answer in JSON with the span text, its type and a reason.\n\n"
                    "Description: {description}\nSummary: {summary}"
                ),
                "model_args": {"temperature": 0, "seed": 42},
                "paper_name": PAPER_NAME[camp],
                "simulated": True,
            },
        )
        rows = [record(r | {"campaign": camp}) for r in campaign_records[camp]]
        rows.sort(key=lambda r: (r["split"], r["example_idx"]))
        _dump_jsonl(folder / "annotations.jsonl", rows)
