"""The public API, matching the command line: ``load`` (with its selection: ``task``, ``split``,
``campaigns``), ``read_annotations``, ``annotations_of`` (a campaign of a loaded corpus as one
side of a comparison), ``span_f1``, ``span_gamma``, ``span_pearson``, ``agreement`` (a whole table
of comparisons), ``evaluate_judge``, ``leaderboard`` and ``evaluate_metric``.

``span_f1``, ``span_gamma``, ``span_pearson`` and ``annotations_of`` live in
:mod:`hotelcheckspan.pairs` (two sides compared), re-exported here; this module imports the
analyses only inside the functions that run them, and nothing below it imports this module.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from pathlib import Path

from .corpora import Corpus, CorpusError, load, read_annotations
from .corpora.keys import ADDED
from .pairs import _empty_words, annotations_of, span_f1, span_gamma, span_pearson

__all__ = [
    "agreement",
    "frame_of",
    "annotations_of",
    "evaluate_judge",
    "evaluate_metric",
    "leaderboard",
    "load",
    "load_with_campaign",
    "read_annotations",
    "resolve_judge",
    "span_f1",
    "span_gamma",
    "span_pearson",
]


def _outside(problem, folder: Path):
    """A problem of the linked campaign folder, named by the folder's own path."""
    linked = f"{ADDED}/model/{folder.name}"
    if problem.file == linked or problem.file.startswith(linked + "/"):
        return dataclasses.replace(problem, file=str(folder) + problem.file[len(linked) :])
    return problem


def load_with_campaign(
    corpus: str | Path | None, campaign: str | Path, *, task: str | None = None, split=None, campaigns=None
):
    """The corpus at ``corpus`` (default: the active one) with one more model campaign: the
    factgenie campaign folder ``campaign`` (a ``config.yaml`` or ``metadata.json`` and its
    annotation files), read as if it sat in the corpus' folder under ``model/`` (its files are
    linked, not copied), then the selection (``task``, ``split``, ``campaigns``, as :func:`load`;
    the added campaign belongs to every task and is always kept). Returns ``(corpus, campaign
    name)``; raises ``ValueError`` when the folder holds no record, :class:`CorpusError` on bad
    input."""
    from . import paths

    root = (Path(corpus) if corpus is not None else paths.corpus_dir()).resolve()
    folder = Path(campaign)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a campaign folder")
    folder = folder.resolve()
    tmp = Path(tempfile.mkdtemp(prefix=".hotelcheckspan-judge-"))
    try:
        for entry in root.iterdir():
            os.symlink(entry, tmp / entry.name)
        extra = tmp / ADDED / "model"
        extra.mkdir(parents=True)
        os.symlink(folder, extra / folder.name)
        try:
            out = load(tmp, task=task)
        except CorpusError as err:  # name the user's files, not the temporary folder's links
            raise CorpusError([_outside(p, folder) for p in err.problems], str(root)) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    out.warnings = [_outside(p, folder) for p in out.warnings]
    added = list(dict.fromkeys(out.records.loc[out.records["file"].str.startswith(f"{ADDED}/"), "campaign"]))
    if not added:
        raise ValueError(f"{folder} holds no annotation record")
    out.root = root
    named = _named(campaigns)
    if split is not None or named:
        out = out.select(split=split, campaigns=[*named, added[0]] if named else None)
    return out, added[0]


def _named(campaigns) -> list[str]:
    from .corpora.keys import as_list as _as_list

    return _as_list(campaigns)


def _looks_outside(root: Path, name: str) -> bool:
    """Whether ``name`` is written as a path (a separator, or absolute) to a folder outside the
    corpus at ``root``: then it is read as an added campaign, without loading the corpus twice."""
    given = Path(name)
    if not (given.is_absolute() or os.sep in name or "/" in name) or not given.is_dir():
        return False
    return not given.resolve().is_relative_to(root.resolve()) and not (root / name).exists()


def resolve_judge(corpus=None, campaign: str | Path = "", *, task: str | None = None, split=None, campaigns=None):
    """The corpus and the name of the judge ``campaign`` names: a model campaign's name, the path
    of its folder (or of an annotation file in it) inside the corpus, or a factgenie campaign
    folder outside it, whatever its name (read and added as a model campaign, see
    :func:`load_with_campaign`). ``corpus`` is a loaded corpus or a folder, read once with the
    selection (``task``, ``split``, ``campaigns``, as :func:`load`). Returns ``(corpus, name)``;
    ``ValueError`` naming the judges when ``campaign`` is none of these or a human campaign, and
    saying so when it is a config-only campaign (empty) or outside the selection."""
    from . import paths
    from .analyses import judges
    from .corpora import Corpus

    name = str(campaign)
    selection = {"task": task, "split": split, "campaigns": campaigns}
    if isinstance(corpus, Corpus):
        loaded = corpus.select(**selection)
    else:
        root = Path(corpus) if corpus is not None else paths.corpus_dir()
        if _looks_outside(root, name):
            loaded, name = load_with_campaign(root, name, **selection)
            return loaded, name
        loaded = load(root, **selection)
    if name in loaded.empty_campaigns():
        raise ValueError(f"campaign {name!r} is empty: {_empty_words(loaded, name)}")
    outside = loaded.selection.get("left_out", {})
    if name in outside:
        task_of = outside[name]
        raise ValueError(
            f"campaign {name!r} is outside the selection"
            + (f" (its task is {task_of}: --task {task_of} selects it)" if task_of else " (--campaign selects it)")
        )
    if name not in loaded.campaigns() and (Path(name).exists() or (Path(loaded.root) / name).exists()):
        inside = loaded.campaign_at(name)
        if inside is not None and inside in loaded.empty_campaigns():
            raise ValueError(f"campaign {inside!r} ({name}) is empty: {_empty_words(loaded, inside)}")
        if inside is not None:
            name = inside
        elif Path(name).is_dir() and not Path(name).resolve().is_relative_to(Path(loaded.root).resolve()):
            loaded, name = load_with_campaign(loaded.root, name, **selection)
        else:
            raise ValueError(
                f"{campaign} is inside the corpus but is no campaign folder of it "
                f"(`hotelcheckspan campaigns {loaded.root}` lists them with their folders)"
            )
    if name in loaded.campaigns("human"):
        raise ValueError(f"{name!r} is a human campaign, not an LLM judge (judges: {', '.join(judges.judges(loaded))})")
    if name not in loaded.campaigns():
        raise ValueError(
            f"no campaign {name!r} in the corpus and no campaign folder at that path "
            f"(judges: {', '.join(judges.judges(loaded)) or 'none'}; human campaigns: "
            f"{', '.join(loaded.campaigns('human')) or 'none'}; `hotelcheckspan campaigns` lists every campaign "
            "with its folder)"
        )
    return loaded, name


def _n_boot(n_boot) -> None:
    if not isinstance(n_boot, int) or isinstance(n_boot, bool) or n_boot < 1:
        raise ValueError(f"n_boot must be a positive whole number of bootstrap replicates, not {n_boot!r}")


FRAME_OPTIONS = ("reference", "exclude", "roles", "per", "pool", "texts")  # corpora.frame.resolve's options


def frame_of(corpus=None, *, task: str | None = None, split=None, campaigns=None, **options):
    """What a run rests on (:class:`hotelcheckspan.corpora.frame.Frame`): ``corpus`` is a frame
    (returned as it is), a loaded corpus (selected, then resolved) or a folder (read with the
    selection, errors outside the frame as warnings: :func:`hotelcheckspan.corpora.frame.load`);
    ``options`` are the frame's (``reference``, ``exclude``, ``roles``, ``per``, ``pool``,
    ``texts``)."""
    from . import paths
    from .corpora import frame as F

    if isinstance(corpus, F.Frame):
        if task is not None or split is not None or campaigns is not None or options:
            raise ValueError("a frame is already resolved: select and set its options when resolving it")
        return corpus
    if isinstance(corpus, Corpus):
        return F.resolve(corpus.select(task=task, split=split, campaigns=campaigns), **options)
    return F.load(
        corpus if corpus is not None else paths.corpus_dir(), task=task, split=split, campaigns=campaigns, **options
    )


def _block(corpus, what: str, selection: dict, options: dict):
    """The one block a run computes on (:func:`frame_of`, then one split or pooled as asked;
    ``ValueError`` naming the splits otherwise), its categories checked."""
    from .corpora import frame as F

    frame = F.one_block(frame_of(corpus, **selection, **options), what)
    frame.corpus.check_categories()
    return frame


def evaluate_judge(
    corpus=None,
    campaign: str | Path = "",
    *,
    n_boot: int = 1000,
    seed: int = 0,
    task: str | None = None,
    split=None,
    campaigns=None,
    **frame_options,
) -> dict:
    """Score one LLM judge as the book scores the paper's: its rows of Tables 3 and 5 and the Table 6
    comparison that holds it (the paper's pooled row where a model has two prompts; its own row is
    in the leaderboard) with intervals, its balanced accuracy against the human majority and its rank among the corpus'
    judges (see :func:`hotelcheckspan.analyses.judges.evaluate` for the keys; ``frame``: what it
    rests on, :meth:`~hotelcheckspan.corpora.frame.Frame.settings`).

    ``corpus`` is a frame, a loaded corpus or a corpus folder (default: the active corpus);
    ``campaign`` is the name of one of its model campaigns, or the path of a factgenie campaign
    folder outside it, which is then read and added to the corpus as a model campaign. ``task``,
    ``split`` and ``campaigns`` select the part of the corpus it is scored on (as :func:`load`),
    ``frame_options`` the frame (:func:`frame_of`): one split, or several pooled with
    ``pool=True``. Raises ``ValueError`` naming the available campaigns when the name is unknown,
    naming the splits when the frame has several, and :class:`CategoryMismatch` naming the tasks
    when the selection holds campaigns whose categories differ (nothing pools them: choose a task).
    """
    from .analyses import judges
    from .corpora import frame as F

    _n_boot(n_boot)
    if isinstance(corpus, F.Frame):
        frame, name = corpus, str(campaign)
    else:
        loaded, name = resolve_judge(corpus, campaign, task=task, split=split, campaigns=campaigns)
        frame = frame_of(loaded, **frame_options)
    frame = F.one_block(frame, "judge")
    if name in frame.left_out:
        raise ValueError(f"{name} is outside the frame ({frame.left_out[name]})")
    frame.corpus.check_categories()
    result = judges.evaluate(frame.corpus, name, n_boot=n_boot, seed=seed)
    return result | {"frame": frame.settings()}


def _accepts(func, keyword: str) -> bool:
    import inspect

    return keyword in inspect.signature(func).parameters


def leaderboard(
    corpus=None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    distinguish: bool = True,
    progress: bool = False,
    task: str | None = None,
    split=None,
    campaigns=None,
    **frame_options,
):
    """Every judge of one block of the frame scored and ranked at once
    (:func:`hotelcheckspan.analyses.judges.leaderboard`; ``board.attrs["compared"]`` says what it
    compared, ``board.attrs["frame"]`` what it rests on). ``corpus`` is a frame, a loaded corpus or
    a folder, with the selection of :func:`load` and the frame's options (:func:`frame_of`; a
    frame of several splits is refused, naming them: ``hotelcheckspan judges`` makes one board per
    split, and ``frame.parts()`` gives the blocks); ``distinguish`` adds, for each judge and the
    next, how many examples order them (the slow part); ``progress`` shows a progress bar on
    stderr. Raises :class:`CategoryMismatch` naming the tasks when the categories of the selection
    differ."""
    from .analyses import judges

    _n_boot(n_boot)
    frame = _block(corpus, "leaderboard", {"task": task, "split": split, "campaigns": campaigns}, frame_options)
    extra = {"progress": progress} if _accepts(judges.leaderboard, "progress") else {}
    board = judges.leaderboard(frame.corpus, n_boot=n_boot, seed=seed, distinguish=distinguish, **extra)
    board.attrs["frame"] = frame.settings()
    return board


def agreement(corpus=None, refs=None, hyps=None, *, task: str | None = None, split=None, campaigns=None, **options):
    """A whole table of comparisons in one call (:func:`hotelcheckspan.analyses.agreement.table`):
    every hypothesis set (default: every judge) against the reference sets (default: every human
    annotator group of the frame's reference), one block of rows per split unless pooled (or per
    dataset or system if asked), averaged over the references as asked. ``corpus`` is a frame, a
    loaded corpus or a folder, with the selection of :func:`load`; the frame's options
    (:data:`FRAME_OPTIONS`) among ``options`` go to :func:`frame_of`, the rest to the table
    (its ``per``, when not given, is the frame's)."""
    from .analyses import agreement as _agreement

    framing = {k: options.pop(k) for k in FRAME_OPTIONS if k in options and k != "per"}
    per = options.pop("per", None)
    frame_per = per if per in ("split", "dataset") else None
    frame = (
        frame_of(corpus, task=task, split=split, campaigns=campaigns, per=frame_per, **framing)
        if not _is_frame(corpus)
        else corpus
    )
    table = _agreement.table(frame.corpus, refs, hyps, per=per if per is not None else frame.per, **options)
    table.attrs["frame"] = frame.settings()
    return table


def _is_frame(value) -> bool:
    from .corpora import frame as F

    return isinstance(value, F.Frame)


def evaluate_metric(
    corpus=None,
    scores=None,
    *,
    targets: list[str] | None = None,
    lower_is_better=(),
    with_judges: bool = True,
    baselines=None,
    n_boot: int = 1000,
    seed: int = 0,
    task: str | None = None,
    split=None,
    campaigns=None,
    progress: bool = False,
    **options,
):
    """Validate automatic metrics against the corpus' human annotations, as the metrics shared
    tasks do (:mod:`hotelcheckspan.analyses.metric_validation`): example-level correlations
    (Kendall tau-b and tau-c, acc23, Spearman, Pearson), detection of the human majority's "has
    an error" (ROC AUC, average precision, cross-validated BACC), system-level statistics where
    the corpus has several generating systems, significance clusters, beside the human ceiling
    and a random baseline, with bootstrap intervals from one resample matrix.

    ``corpus`` is a frame, a loaded corpus or a folder (default: the active one), with the
    selection of :func:`load` (``task``, ``split``, ``campaigns``) and the frame's options among
    ``options`` (:data:`FRAME_OPTIONS`; one block: a frame of several splits is refused, naming
    them, unless pooled; ``hotelcheckspan metric`` validates each split); ``scores`` a scores
    file (CSV or JSON Lines keyed by ``dataset, split, setup_id, example_idx``, one column per
    metric, higher = more faithful unless named in ``lower_is_better``), a frame in that shape,
    or None (then the corpus' judges and any ``baselines`` are the metrics). ``baselines``:
    True for every built-in baseline, a list of names, or a frame of baselines computed before
    (``metric_validation.bundled_baselines``). Returns a
    :class:`~hotelcheckspan.analyses.metric_validation.Validation`; ``.to_json()`` is what
    ``hotelcheckspan metric --json`` prints. Raises :class:`CorpusError` naming every bad line of
    a scores file, and :class:`CategoryMismatch` naming the tasks when the categories of the
    selection differ (the targets would pool them: choose a task)."""
    from .analyses import metric_validation
    from .corpora.scores import read_scores

    framing = {k: options.pop(k) for k in FRAME_OPTIONS if k in options}
    frame = _block(corpus, "metric", {"task": task, "split": split, "campaigns": campaigns}, framing)
    loaded = frame.corpus
    if isinstance(scores, (str, Path)):
        scores = read_scores(scores, loaded, lower_is_better=lower_is_better)
    elif scores is not None and lower_is_better:
        scores = scores.assign(**{m: -scores[m] for m in lower_is_better})
    if progress and _accepts(metric_validation.evaluate, "progress"):
        options["progress"] = True
    result = metric_validation.evaluate(
        loaded,
        scores,
        targets=targets,
        with_judges=with_judges,
        baseline_names=baselines,
        n_boot=n_boot,
        seed=seed,
        **options,
    )
    result.compared["frame"] = frame.settings()
    return result
