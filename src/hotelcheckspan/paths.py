"""Every filesystem location the package uses, in one place.

The corpus folder can be redirected with the ``HOTELCHECKSPAN_DATA`` environment variable so
that the book and the CLI run on the real (gated) release or any other factgenie export.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "HOTELCHECKSPAN_DATA"
# the real-corpus chapters (08, the real parts of 10 and 11) take any factgenie corpus through this
REAL_DATA_ENV = "HOTELCHECKSPAN_REAL_DATA"
# ... and the part of it they read (`hotelcheckspan.load(..., task=, split=)`): one task of an
# export that holds several, one split
REAL_TASK_ENV = "HOTELCHECKSPAN_REAL_TASK"
REAL_SPLIT_ENV = "HOTELCHECKSPAN_REAL_SPLIT"
CACHE_ENV = "HOTELCHECKSPAN_CACHE"

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_ROOT = REPO_ROOT / "data"
BUNDLED_CORPUS = DATA_ROOT / "hotelcheckspan"
# a real, public factgenie export (MIT): the d2t "iaa" split of "Large Language Models as Span
# Annotators" (Kasner et al.), copied verbatim; see its SOURCE.md
REAL_CORPUS = DATA_ROOT / "span-annotation-d2t-iaa"
# its d2t "test" split (MIT, verbatim; see its SOURCE.md): 1,200 texts from four systems, six judges
REAL_TEST_CORPUS = DATA_ROOT / "span-annotation-d2t-test"
# WMT 2021's TED talks English-German MQM annotations (Apache-2.0, verbatim; see its SOURCE.md): the
# field's other format (hotelcheckspan.corpora.mqm), with the system table its README publishes
MQM_FOLDER = DATA_ROOT / "wmt-mqm-ted-ende"
MQM_TED = MQM_FOLDER / "mqm_ted_ende.tsv"
# the built-in metric baselines of each bundled corpus, computed by `make baselines` (the
# embedding baselines take minutes on a CPU): <corpus folder name>.csv and its .sha256 of the texts
BASELINES = DATA_ROOT / "baselines"
# deterministic results computed once for the bundled corpora and committed (`make derived`): the
# span embeddings, silhouette curves and seed-stability runs of chapter 06, keyed like the cache
# (by model and text, by a digest of the embeddings); read after the cache, never written at run time
DERIVED = DATA_ROOT / "derived"
PAPER_FIGURES = DATA_ROOT / "paper_figures.yaml"
CLUSTER_LABELS = DATA_ROOT / "cluster_labels.yaml"
COMPARISONS = DATA_ROOT / "comparisons.yaml"


def corpus_dir() -> Path:
    """The corpus to analyse: ``$HOTELCHECKSPAN_DATA`` if set, else the bundled stand-in."""
    override = os.environ.get(DATA_ENV)
    return Path(override).expanduser().resolve() if override else BUNDLED_CORPUS


def real_corpus_dir(default: Path | None = REAL_CORPUS) -> Path | None:
    """The real corpus a real-corpus chapter reads: ``$HOTELCHECKSPAN_REAL_DATA`` if set (any
    factgenie corpus), else ``default`` (one of the bundled public splits; None: whether one is set)."""
    override = os.environ.get(REAL_DATA_ENV)
    return Path(override).expanduser().resolve() if override else default


def real_selection() -> dict[str, str | None]:
    """The part of the real corpus the real-corpus chapters read, as ``load`` takes it:
    ``task`` from ``$HOTELCHECKSPAN_REAL_TASK`` and ``split`` from ``$HOTELCHECKSPAN_REAL_SPLIT``
    (None where unset: the whole corpus)."""
    return {"task": os.environ.get(REAL_TASK_ENV) or None, "split": os.environ.get(REAL_SPLIT_ENV) or None}


def _cache_root() -> Path:
    override = os.environ.get(CACHE_ENV)
    return Path(override).expanduser() if override else REPO_ROOT / ".cache" / "hotelcheckspan"


def cache_dir() -> Path:
    """Where derived artefacts (embeddings) are cached; ``$HOTELCHECKSPAN_CACHE`` overrides."""
    path = _cache_root()
    path.mkdir(parents=True, exist_ok=True)
    return path


def keep_matplotlib_cache_local() -> Path:
    """Point matplotlib's config and font cache (``MPLCONFIGDIR``) into the cache folder, unless
    the user has chosen one, so that plotting writes nothing in the home folder. Only sets the
    variable: matplotlib creates the folder if and when it is imported."""
    os.environ.setdefault("MPLCONFIGDIR", str(_cache_root() / "matplotlib"))
    return Path(os.environ["MPLCONFIGDIR"])
