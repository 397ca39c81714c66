"""mt-metrics-eval's statistics (``stats.py``, ``pce.py``, ``tau_optimization.py``), the oracle of
the metric statistics' tests and benchmark, from the shared reference folder (beside the clone, as
CI puts it, or /work/shared; see its SOURCE.md). Never imported by the package. ``STATS`` and
``PCE`` are None where the folder is absent (the tests then skip)."""

from __future__ import annotations

import sys
from pathlib import Path


def _folder() -> Path | None:
    for root in (Path(__file__).resolve().parents[2] / "shared", Path("/work/shared")):
        folder = root / "reference" / "mt-metrics-eval"
        if (folder / "mt_metrics_eval" / "stats.py").is_file():
            return folder
    return None


FOLDER = _folder()
STATS = PCE = None
if FOLDER is not None:
    sys.path.insert(0, str(FOLDER))
    from mt_metrics_eval import pce as PCE  # noqa: F401, N812
    from mt_metrics_eval import stats as STATS  # noqa: F401, N812
