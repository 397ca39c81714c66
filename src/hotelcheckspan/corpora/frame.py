"""What every number of a run rests on: the frame, resolved once from the corpus and the selection.

A run (a command, an API call, a chapter) computes on the texts of one task, a human reference
and a grouping. :func:`resolve` decides them once, from what the corpus shows and what the user
asked, and every command, :func:`hotelcheckspan.evaluate_judge`, :func:`~hotelcheckspan.leaderboard`,
:func:`~hotelcheckspan.evaluate_metric`, the agreement table and the real-corpus chapters take the
:class:`Frame` it returns; every output names it (:meth:`Frame.header`, :meth:`Frame.settings`).

**Roles.** Every human campaign has one (:data:`ROLES`): the annotation itself, an
inter-annotator subset, a qualification (screening) task, its answer key, or attention
(quality-control) items. Only the first two are references by default; the others are left out
and named in every output. A role is, in this order: what the user said (``reference=``,
``exclude=``, a roles file), what the campaign's config declares (``role:``; the MQM reader
declares its quality-control rows so), then :data:`ROLE_RULE` on the campaign's folder.

**Texts.** One rule for every comparison: a record counts where its text is in the corpus (an
output in ``outputs/``, a line of ``inputs.jsonl``, a segment of an MQM file); a record whose
example has no text is left out and counted (``texts="all"`` keeps them, as factgenie counts
them). A pair of sides is compared on the texts both annotated, within the frame.

**Splits.** A task with several splits is computed per split (one block each: :meth:`Frame.parts`)
unless the user pools them (``pool=True``) or groups otherwise (``per="dataset"``). HotelCheckSpan's
corpus is the exception the paper makes: its tables pool the short and long splits.

**The clear majority** of the human raters on a text is one rule everywhere: at least
:data:`CLEAR_SHARE` of the raters who annotated it agree (3-1 or 4-0 of four, 2-0 of two, 3-0 of
three, one rater alone decides).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import yaml

from ..annotator_sets import is_paper_layout
from .keys import KEY, as_list, closest, slug

ROLES = {
    "annotation": "the annotation itself",
    "iaa": "an inter-annotator subset",
    "qualification": "a qualification (screening) task",
    "key": "the answer key of a qualification",
    "attention": "attention (quality-control) items",
}
REFERENCE_ROLES = ("annotation", "iaa")  # the human reference by default
CLEAR_SHARE = 0.75  # a clear majority: at least this share of the text's raters agree
TEXT_RULES = {
    "with-output": "records on texts the corpus holds (an example without a text is left out and counted)",
    "all": "every record, texts or not, as factgenie counts them",
}
PER = ("split", "dataset")

ROLE_RULE = """A human campaign's role, unless the user or its config says otherwise, follows its
folder path below ``annotations/`` (and its name), read as words split at "/", "-", "_" and ".":
"key" or "answer(s)" with "qualification", or a last word "key": the answer key of a
qualification; "qualification", "qual", "screening" or "training": a qualification task;
"attention", "hotw", "control" or "qc": attention (quality-control) items; "iaa": an
inter-annotator subset; otherwise the annotation itself. A campaign named as none of these whose
texts all lie within another human campaign's, with fewer records, is an inter-annotator subset
of it."""

_WORDS = re.compile(r"[/\-_.\s]+")


def _words(text: str) -> list[str]:
    return [w for w in _WORDS.split(text.lower()) if w]


def role_by_name(name: str, folder: str = "") -> str:
    """A human campaign's role from its folder path and name (:data:`ROLE_RULE`)."""
    words = _words(f"{folder}/{name}")
    last = _words(name)[-1:] or words[-1:]
    if ("qualification" in words or "qual" in words) and {"key", "answer", "answers"} & set(words):
        return "key"
    if last == ["key"]:
        return "key"
    if {"qualification", "qual", "screening", "training"} & set(words):
        return "qualification"
    if {"attention", "hotw", "control", "qc"} & set(words):
        return "attention"
    if "iaa" in words:
        return "iaa"
    return "annotation"


def read_roles(path: str | Path) -> dict[str, str]:
    """A roles file: YAML mapping campaign names to roles (``qualification-task: qualification``);
    ``ValueError`` naming the file and the line's key when a role is none of :data:`ROLES`."""
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as err:
        raise ValueError(f"{path}: cannot read the roles file ({err})") from None
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: a roles file maps campaign names to roles ({', '.join(ROLES)})")
    bad = {k: v for k, v in raw.items() if v not in ROLES}
    if bad:
        k, v = next(iter(bad.items()))
        raise ValueError(f"{path}: {k}: role {v!r} is none of {', '.join(ROLES)}")
    return {str(k): str(v) for k, v in raw.items()}


def _keys(records: pd.DataFrame) -> set[tuple]:
    return set(map(tuple, records[KEY].drop_duplicates().itertuples(index=False)))


def campaign_roles(corpus, told: Mapping[str, str] | None = None) -> dict[str, tuple[str, str]]:
    """Every human campaign of ``corpus`` (config-only ones too) -> ``(role, why)``, by the
    precedence of the module docstring."""
    told = dict(told or {})
    humans = [n for n, k in corpus.campaign_kinds.items() if k == "human"]
    rec = corpus.records[corpus.records["kind"] == "human"]
    out: dict[str, tuple[str, str]] = {}
    for name in humans:
        declared = (corpus.configs.get(name) or {}).get("role")
        if name in told:
            out[name] = (told[name], "as the user set it")
        elif isinstance(declared, str) and declared in ROLES:
            out[name] = (declared, "as its config declares")
        else:
            by_name = role_by_name(name, corpus.campaign_folders.get(name, ""))
            out[name] = (by_name, "by its folder's name" if by_name != "annotation" else "")
    # a campaign the names call the annotation, whose texts all lie within a larger one's: a subset
    sizes = rec.groupby("campaign").size()
    keys = {n: _keys(rec[rec["campaign"] == n]) for n in sizes.index}
    for name, (role, why) in list(out.items()):
        if role != "annotation" or why or name not in keys:
            continue
        for other in sizes.index:
            if other != name and sizes[other] > sizes[name] and keys[name] and keys[name] <= keys[other]:
                if out[other][0] in REFERENCE_ROLES:
                    out[name] = ("iaa", f"its texts all lie within {other}'s")
                    break
    return {n: (r, why or "by default") for n, (r, why) in out.items()}


@dataclass(frozen=True)
class Frame:
    """What the numbers of a run rest on (see the module docstring).

    ``corpus``: the corpus the run computes on: the selection's texts, the reference campaigns
    and the judges, records without a text left out under the ``texts`` rule; ``selected``: the
    selection before the frame (what was read). ``splits``: the splits of the frame's records;
    ``per``: "split" or "dataset" where the run makes one block per value (:meth:`parts`), None
    where it computes on all of them at once (``pooled`` says whether that pools several splits).
    ``roles``: human campaign -> role; ``reference``: the human campaigns taken as reference;
    ``judges``: the model campaigns; ``left_out``: campaign -> why it is outside the frame;
    ``without_text``: records and texts the text rule left out; ``paper``: the corpus is laid out as
    HotelCheckSpan's (:func:`hotelcheckspan.annotator_sets.is_paper_layout`), so its short and
    long splits are pooled as the paper pools them."""

    corpus: object
    selected: object
    task: str | None
    splits: tuple[str, ...]
    per: str | None
    pooled: bool
    roles: Mapping[str, str]
    role_reasons: Mapping[str, str]
    reference: tuple[str, ...]
    judges: tuple[str, ...]
    left_out: Mapping[str, str]
    texts: str = "with-output"
    without_text: Mapping[str, int] = field(default_factory=dict)
    paper: bool = False
    part: str | None = None  # the value of ``per`` this frame is the block of (None: not a block)
    majority_share: float = CLEAR_SHARE

    @property
    def categories(self) -> list[str]:
        """The one list of span categories of the frame's campaigns."""
        return self.corpus.check_categories()

    def parts(self) -> list[tuple[str, Frame]]:
        """One ``(label, frame)`` per block the run computes: each value of ``per`` (a split, a
        dataset), or ``[("all", self)]`` where the frame is computed at once."""
        if self.per is None:
            return [("all", self)]
        out = []
        rec = self.corpus.records
        values = rec[self.per].map(slug)
        for value in dict.fromkeys(sorted(values)):
            label = str(rec.loc[values == value, self.per].iloc[0])
            corpus = _restrict(self.corpus, values == value, self.per, value)
            splits = tuple(dict.fromkeys(corpus.records["split"].astype(str)))
            block = dataclasses.replace(self, corpus=corpus, splits=splits, per=None, pooled=len(splits) > 1)
            out.append((label, dataclasses.replace(block, part=label)))
        return out

    def settings(self) -> dict:
        """The frame for a JSON's ``settings``."""
        return {
            "task": self.task,
            "splits": list(self.splits),
            "per": self.per,
            "pooled": self.pooled,
            "part": self.part,
            "reference": list(self.reference),
            "judges": list(self.judges),
            "roles": dict(self.roles),
            "left_out": dict(self.left_out),
            "texts": self.texts,
            "without_text": dict(self.without_text),
            "majority": f"at least {self.majority_share:.0%} of a text's raters agree",
            "paper": self.paper,
        }

    def header(self) -> list[str]:
        """The frame in a few lines, for the top of a text output."""
        n_texts = len(self.corpus.records[KEY].drop_duplicates())
        splits = ", ".join(self.splits) or "none"
        if self.per is not None:
            how = f"one block per {self.per}"
        elif self.pooled:
            how = "pooled" + (" (the paper pools its splits)" if self.paper else " (asked)")
        else:
            how = "one split" if len(self.splits) == 1 else "no split"
        lines = [
            f"frame: task {self.task or '(the whole corpus)'}; split{'s' if len(self.splits) != 1 else ''} "
            f"{splits} ({how}); {n_texts:,} texts",
            f"reference: {', '.join(self.reference) or 'none'}"
            + (f"; judges: {len(self.judges)}" if self.judges else "; no judge"),
        ]
        by_why: dict[str, list[str]] = {}
        for name, why in self.left_out.items():
            by_why.setdefault(why, []).append(name)
        for why, names in by_why.items():
            hint = " (--reference NAME takes one)" if why.endswith("not a reference by default") else ""
            lines.append(f"left out: {', '.join(names)}: {why}{hint}")
        gone = self.without_text.get("records", 0)
        if gone:
            lines.append(
                f"texts: {gone:,} record{'s' if gone != 1 else ''} on {self.without_text.get('texts', 0):,} "
                "examples without a text left out (--texts all counts them, as factgenie does)"
            )
        return lines


def _restrict(corpus, keep_records: pd.Series, column: str | None = None, value: str | None = None):
    """``corpus`` with the records ``keep_records`` (a boolean Series on its records) and their
    spans; where ``column`` and ``value`` are given, its examples of that value too."""
    records = corpus.records[keep_records.to_numpy()].reset_index(drop=True)
    spans = corpus.spans[corpus.spans["record_id"].isin(records["record_id"])].reset_index(drop=True)
    examples = corpus.examples
    if column is not None:
        examples = examples[examples[column].map(slug) == value].reset_index(drop=True)
    return dataclasses.replace(corpus, records=records, spans=spans, examples=examples)


def _check_names(corpus, names: list[str], what: str) -> None:
    known = list(corpus.campaign_folders)
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(
            f"no campaign {', '.join(map(repr, unknown))} to {what} in {corpus.root}{closest(unknown[0], known)}"
        )


def resolve(
    corpus,
    *,
    reference=None,
    exclude=None,
    roles: Mapping[str, str] | str | Path | None = None,
    per: str | None = None,
    pool: bool = False,
    texts: str = "with-output",
) -> Frame:
    """The frame of ``corpus`` (a loaded corpus, already selected by task, split and campaigns).

    ``reference``: human campaigns to take as references whatever their role (a name or a list);
    ``exclude``: campaigns to leave out (human or model); ``roles``: campaign -> role, or the
    path of a roles file (:func:`read_roles`); ``per``: "split" or "dataset" (one block each),
    default one block per split where the frame holds several and ``pool`` is not asked;
    ``texts``: :data:`TEXT_RULES`. ``ValueError`` names an unknown campaign (with the closest
    names), role, rule or grouping."""
    if texts not in TEXT_RULES:
        raise ValueError(f"texts must be {' or '.join(TEXT_RULES)}, not {texts!r}")
    if per is not None and per not in PER:
        raise ValueError(f"per must be {' or '.join(PER)}, not {per!r}")
    told = read_roles(roles) if isinstance(roles, (str, Path)) else dict(roles or {})
    _check_names(corpus, list(told), "give a role")
    bad = {k: v for k, v in told.items() if v not in ROLES}
    if bad:
        k, v = next(iter(bad.items()))
        raise ValueError(f"{k}: role {v!r} is none of {', '.join(ROLES)}")
    forced, dropped = as_list(reference), as_list(exclude)
    _check_names(corpus, forced, "take as reference")
    _check_names(corpus, dropped, "exclude")
    not_human = [n for n in forced if corpus.campaign_kinds.get(n) != "human"]
    if not_human:
        raise ValueError(f"{', '.join(not_human)}: a reference is a human campaign (judges are compared with it)")

    found = campaign_roles(corpus, told)
    role = {n: r for n, (r, _) in found.items()}
    why = {n: w for n, (_, w) in found.items()}
    with_records = set(corpus.campaigns())
    reference = [n for n in corpus.campaigns("human") if (role[n] in REFERENCE_ROLES or n in forced)]
    reference = [n for n in reference if n not in dropped]
    judges = [n for n in corpus.campaigns("model") if n not in dropped]
    left_out: dict[str, str] = {}
    for name in corpus.campaign_folders:
        if name in dropped:
            left_out[name] = "excluded"
        elif name not in with_records:
            left_out[name] = "no records (config only or an empty file)"
        elif corpus.campaign_kinds.get(name) == "human" and name not in reference:
            left_out[name] = f"{ROLES[role[name]]} {why[name]}: not a reference by default"
    keep = corpus.records["campaign"].isin([*reference, *judges])
    without = {"records": 0, "texts": 0}
    has_text = corpus.records["has_text"]
    if texts == "with-output" and has_text.notna().any():
        gone = keep & ~has_text.fillna(True).astype(bool)
        without = {
            "records": int(gone.sum()),
            "texts": int(len(corpus.records.loc[gone, KEY].drop_duplicates())),
        }
        keep &= ~gone
    framed = _restrict(corpus, keep)
    inside = {*reference, *judges, *(n for n in corpus.campaign_folders if n not in with_records and n not in dropped)}

    def only(d: Mapping) -> dict:
        return {n: v for n, v in d.items() if n in inside}

    framed = dataclasses.replace(
        framed,
        configs=only(corpus.configs),
        campaign_categories=only(corpus.campaign_categories),
        campaign_folders=only(corpus.campaign_folders),
        campaign_kinds=only(corpus.campaign_kinds),
        campaign_tasks=only(corpus.campaign_tasks),
    )
    splits = tuple(dict.fromkeys(framed.records["split"].astype(str)))
    paper = is_paper_layout(framed)
    if per is None and not pool and not paper and len({slug(s) for s in splits}) > 1:
        per = "split"
    pooled = per is None and len(splits) > 1
    return Frame(
        corpus=framed,
        selected=corpus,
        task=corpus.selection.get("task"),
        splits=splits,
        per=per,
        pooled=pooled,
        roles=role,
        role_reasons=why,
        reference=tuple(reference),
        judges=tuple(judges),
        left_out=left_out,
        texts=texts,
        without_text=without,
        paper=paper,
    )


def one_block(frame: Frame, what: str) -> Frame:
    """``frame`` where it is one block (one split, or pooled as asked); ``ValueError`` naming the
    splits where the run would otherwise pool several ("choose one with --split, or pool them")."""
    if frame.per is None:
        return frame
    values = [label for label, _ in frame.parts()]
    raise ValueError(
        f"{what} computes one number per run, and the frame has {len(values)} {frame.per}s "
        f"({', '.join(values)}): choose one with --{frame.per} (split= in Python), or pool them with --pool "
        "(pool=True)"
        if frame.per == "split"
        else f"{what} computes one number per run: group with --per split or pool with --pool"
    )


def _campaign_of_file(corpus, file: str) -> str | None:
    """The campaign whose folder holds ``file`` (a path relative to the corpus root)."""
    for name, folder in corpus.campaign_folders.items():
        if file == folder or file.startswith(folder.rstrip("/") + "/"):
            return name
    return None


def load(
    path=None,
    *,
    task: str | None = None,
    split=None,
    campaigns=None,
    reference=None,
    exclude=None,
    roles=None,
    per: str | None = None,
    pool: bool = False,
    texts: str = "with-output",
    span_type: str = "severity",
) -> Frame:
    """Read the corpus at ``path`` with the selection (``task``, ``split``, ``campaigns``, as
    :func:`hotelcheckspan.load`) and resolve its frame (the other options, as :func:`resolve`).

    An error in a campaign outside the frame (outside the selection, left out by its role, or
    excluded) is a warning naming it, never a refusal of the run; an error inside it raises
    :class:`~hotelcheckspan.corpora.CorpusError` listing every one, as :func:`hotelcheckspan.load`
    does. ``span_type``: an MQM file's span types (:func:`hotelcheckspan.load`)."""
    from . import problems as P
    from .reader import read_corpus

    corpus, problems = read_corpus(path, task=task, span_type=span_type)
    corpus.warnings = P.warnings(problems)
    errs = P.errors(problems)
    if errs:
        told = read_roles(roles) if isinstance(roles, (str, Path)) else dict(roles or {})
        found = campaign_roles(corpus, told)
        forced, dropped = set(as_list(reference)), set(as_list(exclude))
        outside = {n for n, (r, _) in found.items() if r not in REFERENCE_ROLES and n not in forced} | dropped
        kept = []
        for p in problems:
            owner = _campaign_of_file(corpus, p.file) if p.is_error else None
            if owner in outside:
                why = "excluded" if owner in dropped else ROLES[found[owner][0]]
                p = dataclasses.replace(
                    p,
                    severity=P.WARNING,
                    kind=P.OUTSIDE,
                    message=f"{p.message} (campaign {owner}, {why}, is outside the frame: it does not block the run)",
                )
            kept.append(p)
        problems = kept
        if P.errors(problems):
            raise P.CorpusError(P.errors(problems), str(corpus.root))
        corpus.warnings = P.warnings(problems)
        if task is not None:
            corpus = corpus.select(task=task)
    if as_list(split) or as_list(campaigns):
        corpus = corpus.select(task=task, split=split, campaigns=campaigns)
    return resolve(corpus, reference=reference, exclude=exclude, roles=roles, per=per, pool=pool, texts=texts)
