"""Whether a corpus can run in the real-corpus chapters (08 and the real parts of 10 and 11), and
who their sections compare on which texts.

Those chapters take any factgenie corpus: ``HOTELCHECKSPAN_REAL_DATA`` points them at it,
``HOTELCHECKSPAN_REAL_TASK`` chooses one task of an export that holds several (a task folder or a
dataset prefix, as ``hotelcheckspan.load(path, task=...)`` takes it) and
``HOTELCHECKSPAN_REAL_SPLIT`` one split. What they need of it, refused before any chapter runs in
one line naming what is missing (:func:`refusal`): that it reads; one list of span categories
(nothing pools categories that differ, so an export of several tasks runs one task at a time);
a human campaign with records; a judge with records on a text the humans annotated.

Everything else is shown as far as it goes: one human group, groups on different texts, no
impressions, few generating systems. A section that cannot be computed on the corpus (no two
human groups on a common text: no ceiling, no kappa; fewer than three systems: no system level)
says so in a sentence its chapter's readings compute.

``python -m hotelcheckspan.book.real_shape`` checks the corpora the real-corpus chapters would
read (the one ``HOTELCHECKSPAN_REAL_DATA`` names, or the two bundled d2t splits) and exits 1 with
that line where one falls short (``make corpus-check``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..annotator_sets import AnnotatorSet, groups_of
from ..corpora import KEY, CategoryMismatch, Corpus, CorpusError, load
from ..corpora.frame import Frame
from ..corpora.frame import load as load_frame


class NotShaped(ValueError):
    """The corpus cannot run in the real-corpus chapters; the message is the one line saying why."""


def _task_hint(corpus: Corpus) -> str:
    tasks = corpus.tasks()
    if len(tasks) > 1:
        return f"choose one task with {paths.REAL_TASK_ENV} (tasks: {', '.join(tasks)})"
    return f"choose one task or dataset prefix with {paths.REAL_TASK_ENV}"


def missing(corpus: Corpus) -> list[str]:
    """What the corpus lacks for the real-corpus chapters (empty: they run on it)."""
    try:
        corpus.check_categories()
    except CategoryMismatch as err:
        first, second = err.categories
        return [f"one list of span categories (its campaigns have {first} and {second}); {_task_hint(corpus)}"]
    rec = corpus.records
    human = rec[rec["kind"] == "human"]
    model = rec[rec["kind"] == "model"]
    out = []
    if human.empty:
        out.append("a human campaign with annotation records")
    if model.empty:
        out.append("a judge (a model campaign with annotation records)")
    elif len(human) and model[KEY].drop_duplicates().merge(human[KEY].drop_duplicates(), on=KEY).empty:
        out.append("a judge on a text the humans annotated (no LLM record shares a text with a human one)")
    return out


def selection_words(corpus: Corpus) -> str:
    """ " (task d2t-eval; split test)" where a part of the corpus was selected, else ""."""
    said = {k: corpus.selection.get(k) for k in ("task", "split")}
    parts = [f"{k} {v if isinstance(v, str) else ', '.join(v)}" for k, v in said.items() if v]
    return f" ({'; '.join(parts)})" if parts else ""


def refusal(corpus: Corpus) -> str | None:
    """The one line that refuses ``corpus`` for the real-corpus chapters, or None where it runs."""
    lacks = missing(corpus)
    if not lacks:
        return None
    return (
        f"{corpus.root}{selection_words(corpus)} cannot run in the real-corpus chapters (08, the real parts of 10 "
        f"and 11): it lacks {'; '.join(lacks)}"
    )


def check(corpus: Corpus) -> Corpus:
    """``corpus`` where the real-corpus chapters run on it; :class:`NotShaped` with the one line of
    :func:`refusal` otherwise (what ``make corpus-check`` says before the book runs)."""
    line = refusal(corpus)
    if line:
        raise NotShaped(line)
    return corpus


def framed(root: Path, **selection) -> Frame:
    """What a real-corpus chapter reads: the frame of the corpus at ``root`` with ``selection``
    (task, split, as ``load`` takes them), its corpus checked (:func:`check`); :class:`NotShaped`
    with one line where it cannot be read, falls short, or holds several splits (a chapter reads
    one block: ``HOTELCHECKSPAN_REAL_SPLIT`` chooses one)."""
    frame, line = read_frame(root, **selection)
    if line:
        raise NotShaped(line)
    return frame


def read_frame(root: Path, **selection) -> tuple[Frame | None, str | None]:
    """The frame of the corpus at ``root`` and the line that refuses it for the real-corpus
    chapters (None where they run on it); the frame is None where the corpus cannot be read."""
    try:
        frame = load_frame(root, **selection)
    except ValueError as err:  # CorpusError, and an unknown task or split
        return None, f"{root} cannot be read by the real-corpus chapters: {_one_line(err)}"
    refused = refusal(frame.corpus)  # what it lacks first (a task to choose among several comes first)
    gone = frame.without_text.get("records", 0)
    if refused is not None and gone:  # what the frame left out may be why
        refused += (
            f" (the frame left out {gone:,} record{'s' if gone != 1 else ''} on "
            f"{frame.without_text.get('texts', 0):,} examples without a text)"
        )
    if refused is None and frame.per is not None:
        labels = ", ".join(label for label, _ in frame.parts())
        refused = (
            f"{root}{selection_words(frame.corpus)} holds several splits ({labels}); the real-corpus chapters read one "
            f"block: choose one with {paths.REAL_SPLIT_ENV}"
        )
    return frame, refused


def reads(frame: Frame) -> str:
    """What the real-corpus chapters will read, in one line (the corpus check's "ok")."""
    corpus = frame.corpus
    texts = len(corpus.records[KEY].drop_duplicates())
    left = f"; left out: {', '.join(frame.left_out)}" if frame.left_out else ""
    return (
        f"ok: {corpus.root}{selection_words(corpus)}: {texts:,} texts of split {', '.join(frame.splits)}, human "
        f"reference {', '.join(frame.reference)}, {len(frame.judges)} LLM judge{'s' if len(frame.judges) != 1 else ''}"
        f"{left}: the real-corpus chapters (08, the real parts of 10 and 11) read it"
    )


def _one_line(err: Exception) -> str:
    """A loader's error in one line: a corpus with several errors is summed up by its first."""
    if isinstance(err, CorpusError) and len(err.problems) > 1:
        return f"{len(err.problems)} errors, the first: {err.problems[0]} (`hotelcheckspan validate` lists them all)"
    return " ".join(str(err).split())


def read(root: Path, **selection) -> tuple[Corpus | None, str | None]:
    """The corpus at ``root`` (with ``selection``, as ``load`` takes it) and the line that refuses
    it for the real-corpus chapters (None where they run on it); the corpus is None where it
    cannot be read. The same rule as :func:`read_frame`, whose frame's corpus it returns."""
    frame, line = read_frame(root, **selection)
    return (frame.corpus if frame is not None else None), line


def chapter_corpora() -> list[Path]:
    """The corpora the real-corpus chapters read: the one ``HOTELCHECKSPAN_REAL_DATA`` names, else
    the bundled d2t iaa split (chapter 08) and test split (the real parts of 10 and 11)."""
    chosen = paths.real_corpus_dir(None)
    return [chosen] if chosen is not None else [paths.REAL_CORPUS, paths.REAL_TEST_CORPUS]


def bundled(corpus: Corpus) -> str | None:
    """ "iaa" or "test" where ``corpus`` is one of the bundled d2t splits read whole, else None: the
    chapters describe those two by what their source says of them, any other by what it holds."""
    if any(corpus.selection.get(k) for k in ("task", "split", "campaigns")):
        return None
    root = Path(corpus.root).resolve()
    return {paths.REAL_CORPUS.resolve(): "iaa", paths.REAL_TEST_CORPUS.resolve(): "test"}.get(root)


def name(corpus: Corpus) -> str:
    """How the chapters name a real corpus: "d2t iaa" and "d2t test" for the bundled splits, else
    its folder's name with the selection ("export (task d2t-eval)")."""
    which = bundled(corpus)
    return f"d2t {which}" if which else f"{Path(corpus.root).name}{selection_words(corpus)}"


def review_corpora(standin: Corpus, real: Corpus) -> dict[str, Corpus]:
    """The corpora whose judges chapter 10's review section marks (name -> corpus): the stand-in
    and, where ``real`` is the bundled test split, both bundled d2t splits; else the stand-in and
    ``real``."""
    if bundled(real) == "test":
        return {"stand-in": standin, "d2t iaa": load(paths.REAL_CORPUS), "d2t test": real}
    return {"stand-in": standin, name(real): real}


# --- who is compared on which texts -------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """Who the sections of a real-corpus chapter compare, decided once per corpus.

    ``groups``: every annotator group of every human campaign (a campaign without groups as one
    set), in reading order. ``raters`` and ``texts``: the chance-corrected coefficients need
    raters who all rated the same units, so they use the largest block of groups that annotated
    the same texts: the two groups sharing the most texts (ties: the pair whose texts the most
    groups annotated, then reading order), with every other group that annotated all of those
    texts. On the bundled iaa split that is the groups that annotated every text, as chapter 08
    has always compared them. Where no two groups share a text (one human group), ``raters`` is the group with the
    most texts alone and ``texts`` its texts. ``human_texts``: how many texts the human groups
    annotated in all. ``models``: the judges with records."""

    groups: list[AnnotatorSet]
    raters: list[AnnotatorSet]
    texts: pd.DataFrame
    human_texts: int
    models: list[str]

    @property
    def pairs(self) -> bool:
        """Whether two human groups annotated a common text (a ceiling, kappa, alpha exist)."""
        return len(self.raters) >= 2

    @property
    def no_pair(self) -> str:
        """Why there is no pair of human raters ("" where there is one), for the chapters' prose."""
        if self.pairs:
            return ""
        if len(self.groups) == 1:
            return "the corpus has one human group"
        return "no two human groups annotated a common text"

    @property
    def every_text(self) -> bool:
        """Whether the raters' texts are every text a human group annotated."""
        return len(self.texts) == self.human_texts


def human_sets(corpus: Corpus) -> list[AnnotatorSet]:
    """Every annotator group of every human campaign, in reading order (a campaign whose records
    carry no group is one set)."""
    out: list[AnnotatorSet] = []
    for campaign in corpus.campaigns("human"):
        out += groups_of(corpus, campaign) or [AnnotatorSet(campaign)]
    return out


def plan(corpus: Corpus) -> Plan:
    """:class:`Plan` of ``corpus``."""
    groups = human_sets(corpus)
    keyed = [g.filter(corpus.records)[KEY].drop_duplicates() for g in groups]
    texts = pd.concat(keyed, ignore_index=True).drop_duplicates().reset_index(drop=True)
    index = pd.MultiIndex.from_frame(texts)
    incidence = np.zeros((len(groups), len(texts)), dtype=np.int64)
    for i, k in enumerate(keyed):
        incidence[i, index.get_indexer(pd.MultiIndex.from_frame(k))] = 1
    common = incidence @ incidence.T
    np.fill_diagonal(common, 0)
    if len(groups) < 2 or common.max() == 0:
        best = int(incidence.sum(axis=1).argmax()) if len(groups) else 0
        raters = groups[best : best + 1]
        block = incidence[best].astype(bool) if len(groups) else np.zeros(len(texts), bool)
    else:
        top = common.max()
        candidates = []
        for i, j in zip(*np.nonzero(np.triu(common == top))):
            block = incidence[i].astype(bool) & incidence[j].astype(bool)
            members = np.nonzero(incidence[:, block].all(axis=1))[0]
            candidates.append((-len(members), i, j, block, members))
        _, _, _, block, members = min(candidates, key=lambda c: c[:3])
        raters = [groups[m] for m in members]
    return Plan(groups, raters, texts[block].reset_index(drop=True), len(texts), corpus.campaigns("model"))


MIN_SHARED = 2  # texts a pair of sides must share to be compared: a correlation of error counts needs two


def comparisons(corpus: Corpus, plan: Plan) -> list[dict]:
    """The span-level comparisons of the chapter (as :func:`hotelcheckspan.analyses.judges.comparisons`
    writes them): "humans vs humans", every pair of human groups, and "humans vs <LLM>", every
    group against the LLM, keeping only the pairs that share at least :data:`MIN_SHARED` texts
    (groups on different texts have pairs with nothing to compare); a comparison left with no
    pair is left out."""
    from ..annotator_sets import judges

    def keys(frame: pd.DataFrame) -> set:
        return set(map(tuple, frame[KEY].drop_duplicates().itertuples(index=False)))

    rec = corpus.records
    texts = {g.spec: keys(g.filter(rec)) for g in plan.groups}
    llms = judges(corpus)
    texts |= {m: keys(rec[rec["campaign"] == m]) for m in llms}

    def shared(a: str, b: str) -> bool:
        return len(texts[a] & texts[b]) >= MIN_SHARED

    specs = [g.spec for g in plan.groups]
    human = [
        {"name": "humans vs humans", "ref": [a], "hyp": [b for b in specs[i + 1 :] if shared(a, b)]}
        for i, a in enumerate(specs[:-1])
    ]
    llm = [{"name": f"humans vs {m}", "ref": [g for g in specs if shared(g, m)], "hyp": [m]} for m in llms]
    return [c for c in human + llm if c["ref"] and c["hyp"]]


def split_by(plan: Plan) -> list[AnnotatorSet]:
    """Whose votes make a text contested: the raters where two or more rated the same texts, else
    the one human group and the LLMs (one group alone never splits)."""
    return list(plan.raters) if plan.pairs else [*plan.raters, *(AnnotatorSet(m) for m in plan.models)]


def contested(corpus: Corpus, plan: Plan, votes: pd.DataFrame) -> dict:
    """The key of the text on which :func:`split_by` split most evenly, averaged over the
    categories (the mean of p(1 - p), p the share of them voting for a category; the first text
    where several tie). ``votes``: :func:`example_level.votes` of the raters' marks on the plan's
    texts (used as they are where the raters split the text; else the votes are those of
    :func:`split_by`)."""
    from ..analyses import example_level

    if not plan.pairs:
        votes = example_level.votes(example_level.marks(corpus, split_by(plan), plan.texts))
    cats = [c for c in corpus.categories if c in votes.columns]
    shares = votes[cats].div(votes["raters"], axis=0)
    return votes.loc[(shares * (1 - shares)).mean(axis=1).idxmax(), KEY].to_dict()


def shown_on(corpus: Corpus, plan: Plan, key: dict) -> list[str]:
    """The annotator sets whose spans the chapter draws on the text ``key``: the first two raters,
    the LLMs that annotated it, then the other raters (the first ones stand open)."""
    one = pd.DataFrame([key])[KEY]
    on_text = set(corpus.records.merge(one, on=KEY)["campaign"])
    raters = [r.spec for r in plan.raters]
    return [*raters[:2], *[m for m in plan.models if m in on_text], *raters[2:]]


def main() -> int:
    bad = 0
    for root in chapter_corpora():
        frame, line = read_frame(root, **paths.real_selection())
        if line:
            print(line, file=sys.stderr)
            bad += 1
        else:
            print(reads(frame))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
