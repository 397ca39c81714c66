"""Strict JSON, as every ``--json`` of the command line prints it: NaN and Infinity refused."""

import json


def _reject_constant(name):
    raise ValueError(f"not strict JSON: {name}")


def strict(text: str):
    """``json.loads`` that refuses NaN and Infinity."""
    return json.loads(text, parse_constant=_reject_constant)
