"""factgenie 1.2.1's own ``compute_gamma_scores`` (with pygamma-agreement 0.5.9 underneath), the
oracle of :mod:`hotelcheckspan.metrics.gamma`, for tests and benchmarks.

factgenie's module imports its web app (``flask``) and its analysis module for one helper; the
metric needs neither, so both are stubbed and the module's own source is executed unchanged.
``FACTGENIE_GAMMA is None`` when factgenie or pygamma-agreement is not installed.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import types
from pathlib import Path

import pandas as pd

from hotelcheckspan.corpora import KEY


def _load():
    spec = importlib.util.find_spec("factgenie")
    if spec is None or importlib.util.find_spec("pygamma_agreement") is None:
        return None
    root = Path(spec.origin).parent
    analysis = ast.parse((root / "analysis.py").read_text())
    fn = next(n for n in analysis.body if isinstance(n, ast.FunctionDef) and n.name == "format_group_id")
    stub_analysis = types.ModuleType("factgenie.analysis")
    exec(compile(ast.Module(body=[fn], type_ignores=[]), str(root / "analysis.py"), "exec"), stub_analysis.__dict__)
    flask = types.ModuleType("flask")
    flask.current_app = None
    saved = {k: sys.modules.get(k) for k in ("flask", "factgenie.analysis")}
    sys.modules.update({"flask": flask, "factgenie.analysis": stub_analysis})
    try:
        module = types.ModuleType("factgenie_iaa_gamma")
        path = root / "iaa" / "gamma.py"
        exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    module.tqdm = _quiet_tqdm
    return module


class _quiet_tqdm:
    """factgenie's progress bar, silenced."""

    def __init__(self, *args, **kwargs):
        pass

    def set_postfix(self, *args, **kwargs):
        pass

    def update(self, *args):
        pass

    def close(self):
        pass


FACTGENIE_GAMMA = _load()


def span_index(spans: pd.DataFrame) -> pd.DataFrame:
    """factgenie's span index from our spans (``campaign, annotator_group, type_idx, start, end``)."""
    return pd.DataFrame(
        {
            **{k: spans[k].to_numpy() for k in KEY},
            "campaign_id": spans["campaign"].to_numpy(),
            "annotator_group": spans["annotator_group"].to_numpy(),
            "annotation_type": spans["type_idx"].to_numpy(),
            "annotation_start": spans["start"].to_numpy(),
            "annotation_end": spans["end"].to_numpy(),
        }
    )


def factgenie_gamma(spans: pd.DataFrame, sets: list[tuple], examples: pd.DataFrame, soft: bool) -> dict:
    """factgenie's ``compute_gamma_scores`` of the annotator sets ``[(campaign, group or None), ...]``
    on ``examples`` (columns ``KEY``), defaults alpha = beta = delta_empty = 1."""
    return FACTGENIE_GAMMA.compute_gamma_scores(
        span_index(spans).reset_index(drop=True),
        sets,
        examples[KEY].reset_index(drop=True),
        alpha=1.0,
        beta=1.0,
        delta_empty=1.0,
        soft_gamma=soft,
        save_plots_dir=None,
    )
