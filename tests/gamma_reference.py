"""factgenie 1.2.1's own ``compute_gamma_scores`` (with pygamma-agreement 0.5.9 underneath), the
oracle of :mod:`hotelcheckspan.metrics.gamma`, for tests and benchmarks.

factgenie's module imports its web app (``flask``) and its analysis module for one helper; the
metric needs neither, so both are stubbed and the module's own source is executed unchanged.
``FACTGENIE_GAMMA is None`` when factgenie or pygamma-agreement is not installed.
"""

from __future__ import annotations

import importlib.util

import pandas as pd
from span_reference import load_factgenie_iaa

from hotelcheckspan.corpora import KEY


def _load():
    if importlib.util.find_spec("pygamma_agreement") is None:
        return None
    module = load_factgenie_iaa("gamma", "format_group_id")
    if module is None:
        return None
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
