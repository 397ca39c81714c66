"""Results as strict JSON: what every ``--json`` of the command line prints."""

from __future__ import annotations

import math

import pandas as pd


def plain(value):
    """JSON-ready values: frames as lists of records; NaN, infinities and <NA> become null (strict
    JSON has none of them); numpy scalars become Python numbers."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, pd.DataFrame):
        return plain(value.astype(object).where(value.notna(), None).to_dict(orient="records"))
    if value is None or value is pd.NA:
        return None
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
