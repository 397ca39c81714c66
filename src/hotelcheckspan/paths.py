"""Every filesystem location the package uses, in one place.

The corpus folder can be redirected with the ``HOTELCHECKSPAN_DATA`` environment variable so
that the book and the CLI run on the real (gated) release or any other factgenie export.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "HOTELCHECKSPAN_DATA"
CACHE_ENV = "HOTELCHECKSPAN_CACHE"

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_ROOT = REPO_ROOT / "data"
BUNDLED_CORPUS = DATA_ROOT / "hotelcheckspan"
PAPER_FIGURES = DATA_ROOT / "paper_figures.yaml"
CLUSTER_LABELS = DATA_ROOT / "cluster_labels.yaml"
COMPARISONS = DATA_ROOT / "comparisons.yaml"


def corpus_dir() -> Path:
    """The corpus to analyse: ``$HOTELCHECKSPAN_DATA`` if set, else the bundled stand-in."""
    override = os.environ.get(DATA_ENV)
    return Path(override).expanduser().resolve() if override else BUNDLED_CORPUS


def is_bundled(path: Path | str | None = None) -> bool:
    """Whether ``path`` (default: the active corpus) is the bundled simulated corpus."""
    p = Path(path).resolve() if path is not None else corpus_dir()
    return p == BUNDLED_CORPUS.resolve()


def cache_dir() -> Path:
    """Where derived artefacts (embeddings) are cached; ``$HOTELCHECKSPAN_CACHE`` overrides."""
    override = os.environ.get(CACHE_ENV)
    path = Path(override).expanduser() if override else REPO_ROOT / ".cache" / "hotelcheckspan"
    path.mkdir(parents=True, exist_ok=True)
    return path
