"""Slow, obviously faithful references for the span metric, used by tests and benchmarks.

``per_character`` follows factgenie's algorithm character by character on plain Python lists.
``factgenie_f1`` runs factgenie's own ``compute_f1_scores`` (its source, from the installed
``factgenie`` package) with its web-app imports stubbed, since the metric itself needs neither.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import types
from pathlib import Path

import pandas as pd

KEY = ["dataset", "split", "setup_id", "example_idx"]


def per_character(ref: dict, hyp: dict, examples: list, match: str = "hard", convention: str = "factgenie",
                  per_category: str = "factgenie") -> dict:
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


def _load_factgenie_f1():
    spec = importlib.util.find_spec("factgenie")
    if spec is None:
        return None
    root = Path(spec.origin).parent
    analysis = ast.parse((root / "analysis.py").read_text())
    fn = next(n for n in analysis.body if isinstance(n, ast.FunctionDef) and n.name == "get_ref_hyp_spans")
    stub_analysis = types.ModuleType("factgenie.analysis")
    exec(compile(ast.Module(body=[fn], type_ignores=[]), str(root / "analysis.py"), "exec"), stub_analysis.__dict__)
    flask = types.ModuleType("flask")
    flask.current_app = None
    saved = {k: sys.modules.get(k) for k in ("flask", "factgenie.analysis")}
    sys.modules.update({"flask": flask, "factgenie.analysis": stub_analysis})
    try:
        module = types.ModuleType("factgenie_iaa_f1")
        exec(compile((root / "iaa" / "f1.py").read_text(), str(root / "iaa" / "f1.py"), "exec"), module.__dict__)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return module


FACTGENIE = _load_factgenie_f1()


def factgenie_f1(ref: dict, hyp: dict, examples: list, match: str, categories: list) -> dict:
    """factgenie's compute_f1_scores on the same input (types as category names)."""
    rows = []
    for camp, side in (("ref", ref), ("hyp", hyp)):
        for ex, spans in side.items():
            for s, e, t in spans:
                rows.append(dict(zip(KEY, ex)) | {"campaign_id": camp, "annotator_group": 0,
                                                   "annotation_type": categories.index(t), "annotation_start": s,
                                                   "annotation_end": e, "annotation_text": "x" * (e - s)})
    span_index = pd.DataFrame(rows)
    example_list = pd.DataFrame(examples, columns=KEY)
    return FACTGENIE.compute_f1_scores(span_index, [("ref", None), ("hyp", None)], example_list,
                                       match_mode=match, category_breakdown=True)
