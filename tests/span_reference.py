"""Slow, obviously faithful references for the span metric, used by tests and benchmarks.

``per_character`` follows factgenie's algorithm character by character on plain Python lists.
``factgenie_f1`` runs factgenie's own ``compute_f1_scores`` (its source, from the installed
``factgenie`` package) with its web-app imports stubbed, since the metric itself needs neither.
``may2025_f1`` runs the May 2025 script's ``compute_f1_scores`` from the shared reference folder
(absent: ``MAY2025 is None``); ``per_span`` is the paper's prose definition, span by span.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import logging
import sys
import types
from functools import cache
from pathlib import Path

import pandas as pd
from slugify import slugify

KEY = ["dataset", "split", "setup_id", "example_idx"]


def per_character(
    ref: dict,
    hyp: dict,
    examples: list,
    match: str = "hard",
    convention: str = "factgenie",
    per_category: str = "factgenie",
) -> dict:
    """``ref``/``hyp``: example -> list of (start, end, type) in factgenie order.

    Returns {category or "all": {overlap, overlap_ref, hyp_length, ref_length, hyp_count, ref_count}}.
    """

    def zero():
        return dict.fromkeys(["overlap", "overlap_ref", "hyp_length", "ref_length", "hyp_count", "ref_count"], 0)

    out = {"all": zero()}
    for ex in examples:
        R, H = ref.get(ex, []), hyp.get(ex, [])
        for side, spans in (("ref", R), ("hyp", H)):
            for s, e, t in spans:
                out["all"][f"{side}_count"] += 1
                out.setdefault(t, zero())[f"{side}_count"] += 1
        if convention == "factgenie" and not (R and H):
            continue
        for side, spans in (("ref", R), ("hyp", H)):
            for s, e, t in spans:
                out["all"][f"{side}_length"] += e - s
                out[t][f"{side}_length"] += e - s
        matched = set()
        for hs, he, ht in H:
            for p in range(hs, he):
                for rid, (rs, re_, rt) in enumerate(R):
                    if rs <= p < re_:
                        if match == "hard" and rt != ht:
                            continue
                        if (p, rid) not in matched:
                            matched.add((p, rid))
                            out["all"]["overlap"] += 1
                            out["all"]["overlap_ref"] += 1
                            if per_category == "factgenie" or match == "hard":
                                out[ht]["overlap"] += 1
                                out[ht]["overlap_ref"] += 1
                            break
        if match == "soft" and per_category == "consistent":
            for p_side, spans, others in (("overlap", H, R), ("overlap_ref", R, H)):
                for p in range(0, max([e for _, e, _ in H + R], default=0)):
                    for t in {t for _, _, t in spans}:
                        mine = sum(1 for s, e, tt in spans if tt == t and s <= p < e)
                        theirs = sum(1 for s, e, _ in others if s <= p < e)
                        out[t][p_side] += min(mine, theirs)
    return out


def load_factgenie_iaa(name: str, helper: str | None = None) -> types.ModuleType | None:
    """factgenie 1.2.1's ``iaa/<name>.py`` executed from its installed source, unchanged, with its
    web app (``flask``) stubbed and, when the module imports one function of ``factgenie.analysis``
    (``helper``), that function alone lifted from its source; None when factgenie is not installed."""
    spec = importlib.util.find_spec("factgenie")
    if spec is None:
        return None
    root = Path(spec.origin).parent
    flask = types.ModuleType("flask")
    flask.current_app = None
    stubs = {"flask": flask}
    if helper is not None:
        analysis = ast.parse((root / "analysis.py").read_text())
        fn = next(n for n in analysis.body if isinstance(n, ast.FunctionDef) and n.name == helper)
        stub_analysis = types.ModuleType("factgenie.analysis")
        code = compile(ast.Module(body=[fn], type_ignores=[]), str(root / "analysis.py"), "exec")
        exec(code, stub_analysis.__dict__)
        stubs["factgenie.analysis"] = stub_analysis
    saved = {k: sys.modules.get(k) for k in stubs}
    sys.modules.update(stubs)
    try:
        module = types.ModuleType(f"factgenie_iaa_{name}")
        path = root / "iaa" / f"{name}.py"
        exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return module


FACTGENIE = load_factgenie_iaa("f1", "get_ref_hyp_spans")


@cache
def raw_records(path: Path) -> list[dict]:
    """The records of an annotation file as plain JSON (read once per path)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@cache
def raw_span_index(files: tuple[tuple[str, Path], ...]) -> pd.DataFrame:
    """factgenie's span index of ``(campaign, annotation file)`` pairs, built from the raw files as
    factgenie builds it (slugified ids, end = start + len(text), spans in file order); read-only."""
    rows = []
    for campaign, path in files:
        for r in raw_records(path):
            for a in r["annotations"]:
                rows.append(
                    {
                        "campaign_id": campaign,
                        "annotator_group": int(r["annotator_group"]),
                        "dataset": slugify(r["dataset"]),
                        "split": slugify(r["split"]),
                        "setup_id": slugify(r["setup_id"]),
                        "example_idx": int(r["example_idx"]),
                        "annotation_type": int(a["type"]),
                        "annotation_start": int(a["start"]),
                        "annotation_end": int(a["start"]) + len(a["text"]),
                    }
                )
    return pd.DataFrame(rows)


def factgenie_f1(ref: dict, hyp: dict, examples: list, match: str, categories: list) -> dict:
    """factgenie's compute_f1_scores on the same input (types as category names)."""
    rows = []
    for camp, side in (("ref", ref), ("hyp", hyp)):
        for ex, spans in side.items():
            for s, e, t in spans:
                rows.append(
                    dict(zip(KEY, ex))
                    | {
                        "campaign_id": camp,
                        "annotator_group": 0,
                        "annotation_type": categories.index(t),
                        "annotation_start": s,
                        "annotation_end": e,
                        "annotation_text": "x" * (e - s),
                    }
                )
    span_index = pd.DataFrame(rows)
    example_list = pd.DataFrame(examples, columns=KEY)
    return FACTGENIE.compute_f1_scores(
        span_index, [("ref", None), ("hyp", None)], example_list, match_mode=match, category_breakdown=True
    )


def per_span(ref: dict, hyp: dict, examples: list, match: str = "hard", convention: str = "either") -> dict:
    """The paper's prose, span by span: a hypothesis span is a true positive when it overlaps a
    reference span (of its type under ``hard``), and a reference span is found when a hypothesis
    span overlaps it. Returns {category or "all": the six counts}, counts of spans."""

    def zero():
        return dict.fromkeys(["overlap", "overlap_ref", "hyp_length", "ref_length", "hyp_count", "ref_count"], 0)

    def overlaps(a, b):
        return max(a[0], b[0]) < min(a[1], b[1]) and (match == "soft" or a[2] == b[2])

    out = {"all": zero()}
    for ex in examples:
        R, H = ref.get(ex, []), hyp.get(ex, [])
        counted = bool(R and H) or convention == "either"
        for side, mine, theirs, hit in (("hyp", H, R, "overlap"), ("ref", R, H, "overlap_ref")):
            for span in mine:
                for key in ("all", span[2]):
                    row = out.setdefault(key, zero())
                    row[f"{side}_count"] += 1
                    row[f"{side}_length"] += counted
                    row[hit] += any(overlaps(span, other) for other in theirs)
    return out


def _shared() -> Path | None:
    """The shared reference folder beside the clone (as CI puts it), or /work/shared."""
    for root in (Path(__file__).resolve().parents[2] / "shared", Path("/work/shared")):
        if (root / "reference").is_dir():
            return root
    return None


def _load_may2025():
    """``compute_f1_scores`` of factgenie's May 2025 ``scripts/evaluation/f1.py``, from the shared
    reference folder (the function only: the script's imports start factgenie's web app)."""
    shared = _shared()
    path = shared / "reference" / "factgenie-2025-05" / "scripts_evaluation_f1.py" if shared else None
    if path is None or not path.is_file():
        return None
    tree = ast.parse(path.read_text(encoding="utf-8"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "compute_f1_scores")
    module = types.ModuleType("factgenie_2025_05_f1")
    module.__dict__["logger"] = logging.getLogger("factgenie_2025_05_f1")
    exec(compile(ast.Module(body=[fn], type_ignores=[]), str(path), "exec"), module.__dict__)
    return module


MAY2025 = _load_may2025()


def may2025_f1(ref: dict, hyp: dict, examples: list, match: str, categories: list, distinct_ids: bool = False) -> dict:
    """The May 2025 script's compute_f1_scores on the same input (types as category indices).

    The script keys claimed characters by ``id()`` of a pandas row, which CPython may reuse;
    ``distinct_ids=True`` runs it with each reference row identified by its index label instead.
    """
    rows = []
    for group, side in (("ref", ref), ("hyp", hyp)):
        for ex, spans in side.items():
            if ex not in examples:
                continue
            for s, e, t in spans:
                rows.append(
                    dict(zip(KEY, ex))
                    | {
                        "annotator_group_id": group,
                        "annotation_type": categories.index(t),
                        "annotation_start": s,
                        "annotation_end": e,
                    }
                )
    span_index = pd.DataFrame(
        rows, columns=KEY + ["annotator_group_id", "annotation_type", "annotation_start", "annotation_end"]
    )
    globs = MAY2025.compute_f1_scores.__globals__
    if distinct_ids:
        globs["id"] = lambda row: row.name
    try:
        return MAY2025.compute_f1_scores(span_index, ["ref"], ["hyp"], match_mode=match, category_breakdown=True)
    finally:
        globs.pop("id", None)
