"""How each paper figure entered the stand-in, by rule: *not simulated*, *calibrated*, *tuned*,
*set*, *derived*, *by construction* or *emergent* (the first that applies, in that order).

The label of a figure is derived, never typed:

- *not simulated*: the file says ``simulated: false``: the stand-in has no counterpart of the
  figure (the qualification task's candidates and pass rule, the release's extra file), so
  nothing in it can agree or disagree with the paper's, and nothing emerges;

- *calibrated*: the figure is a term of the calibration loss (:data:`.targets.LOSS_TERMS`, the list
  :func:`hotelcheckspan.simulation.calibration.loss` sums over); shown with its achieved distance;
- *tuned*: ``data/standin_provenance.yaml`` says, under ``tuned``, what was adjusted after looking
  at the figure and when (the data sheet tells the story), or a generator constant listed under
  ``constants`` was chosen against it (its ``chosen_against`` names the figure or a figure above
  it: a constant chosen against a whole table was chosen against each of its figures; one chosen
  against one figure says nothing about its neighbours or the table above it). A constant is
  tuned on a figure whether or not the generator reads the figure, so tuned outranks set;
- *set*: the file marks it ``input: true`` (the generator reads it from ``data/paper_figures.yaml``;
  ``tests/test_provenance.py`` records which figures the generator reads and checks the file
  against them) and states the ``tolerance`` within which the stand-in must reproduce it (0, exact,
  unless stated; a number is absolute, ``"10%"`` relative); a set figure the stand-in misses is
  labelled "set, missed by ...", unless the file says it is a ``bound`` (``upper`` or ``lower``: a
  limit the stand-in must stay within, not a value aimed at) and the stand-in keeps it: "set, a
  bound respected";
- *derived*: the file gives ``derived_from`` (figure keys; a key without ``/`` names a figure of
  the same row, ``total``) and ``how`` (shown as "derived (total ÷ records)"), and every input is
  itself calibrated, tuned, set or derived: the figure agrees with the paper as far as its inputs
  do. One emergent input makes it emergent;
- *by construction*: the generator puts in the figure's direction, significance or bound, whatever
  its size: the file says how under ``built_in`` (records with errors rate lower because every
  marked record loses a share of the paper's drops), or a constant lists the figure under
  ``builds_in`` (at most three planted claims per summary bound the errors a record can have), or
  the figure is computed (``derived_from``) from figures none of which is emergent and one of
  which is by construction (F1 from a precision and recall whose ratio the hand-set widening
  fixes: what bounds them bounds it). A figure computed from figures labelled by construction or
  tuned is never emergent: their direct causes are its own;
- *emergent*: none of these: no generator input was chosen with the figure or its direct causes
  in view.

The file mirrors ``data/paper_figures.yaml``: an entry's fields apply to the figure it sits on and
everything below it, the deepest wins, and an entry keyed by a column name (``total``) applies to
that column of every row of its table. Each entry also says the ``status`` a reader sees and a
``reason``; the test fails when a ``status`` differs from the rule's. Its ``constants`` section
lists every hand-set constant of :mod:`hotelcheckspan.simulation` as ``module.NAME`` with
``chosen_against`` (figure keys, the figures the constant was chosen looking at, and those it
shapes through them: Table 4's types come from the confusion rows chosen against Table 2) and
``why``; ``builds_in`` (figure keys) lists the figures whose direction, significance or bound the
constant puts in without being chosen against them; a seed or draw picked among candidates by
bounds on figures that are already set or calibrated lists those under ``screened_on`` instead
(meeting a set figure's bound is how it is set; a bound on any other figure is a
``chosen_against``). A key's part may be ``*``: any row of a table
(``table4_dataset_level_stage2_subset/*/Incorrect``).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from .. import paths
from . import paper, targets

PROVENANCE = paths.DATA_ROOT / "standin_provenance.yaml"
BUILT = "by construction"
NOT_SIMULATED = "not simulated"
# the rule's order: the first that applies
STATUSES = (NOT_SIMULATED, "calibrated", "tuned", "set", "derived", BUILT, "emergent")
WITHIN_ROUNDING = "within the paper's rounding"  # a calibrated figure the paper prints whole, ours inside its rounding
BOUND_KEPT = "a bound respected"  # a set figure that is a bound (``bound: upper`` or ``lower``), kept
FIELDS = (
    "status",
    "reason",
    "input",
    "tolerance",
    "tuned",
    "in_code",
    "derived_from",
    "how",
    "built_in",
    "simulated",
    "bound",
)
DERIVABLE = ("calibrated", "tuned", "set", "derived")  # the labels an input of a derived figure may have
CONSTANTS = "constants"  # the section listing the generator's hand-set constants


@lru_cache(maxsize=4)
def _read(path: Path, stamp: tuple) -> dict:
    if not stamp:
        return {}
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path.name}: expected a mapping of figures, not {type(data).__name__}")
    _check(data, (), path)
    return data


def _check(node: dict, where: tuple, path: Path) -> None:
    if not where and isinstance(node.get(CONSTANTS), dict):
        for name, entry in node[CONSTANTS].items():
            if not isinstance(entry, dict) or not isinstance(entry.get("chosen_against"), list) or not entry.get("why"):
                raise ValueError(f"{path.name}: constants: {name}: needs chosen_against (a list) and why")
            if "builds_in" in entry and not isinstance(entry["builds_in"], list):
                raise ValueError(f"{path.name}: constants: {name}: builds_in must be a list of figure keys")
        node = {k: v for k, v in node.items() if k != CONSTANTS}
    if "derived_from" in node and (not isinstance(node["derived_from"], list) or not node.get("how")):
        raise ValueError(f"{path.name}: {'/'.join(where)}: derived_from must be a list of figure keys, with how")
    if "bound" in node and node["bound"] not in ("upper", "lower"):
        raise ValueError(f"{path.name}: {'/'.join(where)}: bound must be upper or lower, not {node['bound']!r}")
    if "simulated" in node and node["simulated"] is not False:
        raise ValueError(
            f"{path.name}: {'/'.join(where)}: simulated: write false (the stand-in has no such figure), or omit it"
        )
    if "status" in node and node["status"] not in STATUSES:
        raise ValueError(
            f"{path.name}: {'/'.join(where)}: status must be one of {', '.join(STATUSES)}, not {node['status']!r}"
        )
    if "tolerance" in node:
        _tolerance(node["tolerance"], 1.0, f"{path.name}: {'/'.join(where)}")
    for key, value in node.items():
        if isinstance(value, dict):
            _check(value, (*where, str(key)), path)


def _tolerance(tol, theirs: float, where: str = "") -> float:
    """A tolerance in the figure's units: a number as it is, ``"10%"`` of the paper's value."""
    if isinstance(tol, numbers.Real) and not isinstance(tol, bool) and tol >= 0:
        return float(tol)
    if isinstance(tol, str) and tol.endswith("%"):
        try:
            return abs(float(theirs)) * float(tol[:-1]) / 100
        except ValueError:
            pass
    raise ValueError(f"{where}: tolerance must be a non-negative number or a percentage such as '10%', not {tol!r}")


def _stamp(path: Path | None) -> tuple[Path, tuple]:
    path = Path(path or PROVENANCE)
    stat = path.stat() if path.is_file() else None
    return path, (stat.st_mtime_ns, stat.st_size) if stat else ()


def load(path: Path | None = None) -> dict:
    """The provenance file as a nested mapping (empty when there is none)."""
    return _read(*_stamp(path))  # re-read when the file changes


@lru_cache(maxsize=8)
def _chosen_index(path: Path, stamp: tuple, field: str = "chosen_against") -> tuple[tuple[str, tuple], ...]:
    """Every (constant, figure path) of the file's ``constants`` under ``field`` (``chosen_against``
    or ``builds_in``); a ``*`` part stays as it is (any row)."""
    return tuple(
        (name, tuple(str(k).split("/")) if "*" in str(k) else tuple(map(str, _parts(k))))
        for name, entry in (_read(path, stamp).get(CONSTANTS) or {}).items()
        for k in entry.get(field) or []
    )


def _under(parts: tuple, above: tuple) -> bool:
    """Whether a figure's key parts lie at or below ``above`` (whose ``*`` matches any part)."""
    return len(parts) >= len(above) and all(a in ("*", p) for a, p in zip(above, parts))


def _along(keys: tuple, path: Path | None) -> dict:
    """The fields in force for a figure: for each field, the deepest entry along ``keys`` that
    has it. A key the file does not list (a row such as a campaign name) is stepped over, so
    column entries apply to every row."""
    node, found, figure = load(path), {}, paper.figures()
    for key in keys:
        table = isinstance(figure, dict) and len(figure) > 1 and all(isinstance(v, dict) for v in figure.values())
        figure = figure.get(key) if isinstance(figure, dict) else None
        if not isinstance(node, dict) or key not in node:
            if table:  # a row of a table the file does not list: its column entries apply
                continue
            break  # a figure the file does not cover: nothing deeper applies
        node = node[key]
        if isinstance(node, dict):
            found.update({f: node[f] for f in FIELDS if f in node})
    return found


def lookup(*keys: str, path: Path | None = None) -> dict:
    """``{status, reason}`` as the file declares them (the deepest entry along ``keys`` with a
    status), e.g. ``lookup("table6_span_level", "Stage 1 - Stage 2", "F1_H")``. Raises
    ``KeyError`` when no entry on the path has a status."""
    fields = _along(tuple(keys), path)
    if "status" not in fields:
        raise KeyError(f"no stand-in provenance for {'/'.join(keys)}")
    return {"status": fields["status"], "reason": fields.get("reason", "")}


def declared(*keys: str, path: Path | None = None, default: str | None = None) -> str:
    """The status the file declares (what its reader sees); :func:`kind` is what the rule says."""
    try:
        return lookup(*keys, path=path)["status"]
    except KeyError:
        if default is None:
            raise
        return default


def _parts(key) -> tuple:
    if isinstance(key, (tuple, list)):
        return tuple(key)
    try:
        return paper.resolve(key)
    except KeyError:
        return tuple(str(key).split("/"))


def constants(path: Path | None = None) -> dict:
    """The ``constants`` section: ``{"module.NAME": {chosen_against, why, [screened_on]}}``."""
    return dict(load(path).get(CONSTANTS) or {})


def chosen(key, path: Path | None = None) -> list[str]:
    """The constants (``module.NAME``) chosen against a figure: those whose ``chosen_against``
    names the figure or a figure above it (a constant chosen against Table 7 was chosen against
    each of its sizes)."""
    return _constants_on(key, "chosen_against", path)


def builds_in(key, path: Path | None = None) -> list[str]:
    """The constants (``module.NAME``) that put in a figure's direction, significance or bound
    (their ``builds_in`` names it or a figure above it)."""
    return _constants_on(key, "builds_in", path)


def _constants_on(key, field: str, path: Path | None) -> list[str]:
    parts = tuple(map(str, _parts(key)))
    out = []
    for name, above in _chosen_index(*_stamp(path), field):
        if _under(parts, above) and name not in out:
            out.append(name)
    return out


def inputs(key, path: Path | None = None) -> list[tuple]:
    """The figures a derived figure is a function of (``derived_from``), as key tuples; a key
    without ``/`` names a figure of the same row where the row has one (``total``), else a
    top-level figure (``table3_llm_campaigns``)."""
    parts = _parts(key)
    out = []
    for k in _along(parts, path).get("derived_from") or []:
        sibling = (*parts[:-1], str(k))
        try:
            paper.resolve("/".join(map(str, sibling)))
        except KeyError:
            sibling = None
        out.append(sibling if "/" not in str(k) and sibling else _parts(k))
    return out


class Derived(float):
    """A number computed from the paper's figures that a row shows in place of a figure key (a
    ratio of two of Table 4's totals, kappa from Table 5's votes), carrying what it is a function
    of: its label is *derived* when each of ``inputs`` (figure keys) is calibrated, tuned, set or
    derived, *by construction* when none is emergent and one is by construction, else emergent.
    Make one with :func:`derived`; it is a float everywhere else."""

    inputs: tuple[str, ...] = ()
    how: str = ""


def derived(value: float, inputs, how: str) -> Derived:
    """``value`` as a :class:`Derived` figure: ``derived(272 / 248, ["table3_llm_campaigns/gpt-4o/total",
    "dataset/splits/short"], "total ÷ short-split records")``. Raises KeyError on an input the paper
    does not have, so a typo cannot pass for an emergent input."""
    out = Derived(value)
    out.inputs = tuple(str(k) for k in inputs)
    out.how = str(how)
    for k in out.inputs:
        paper.resolve(k)
    return out


def kind(key, path: Path | None = None, _seen: frozenset = frozenset()) -> str:
    """The rule's label for a figure key (``"table3_llm_campaigns/gemma-3/total"`` or its parts):
    not simulated (the stand-in has no such figure), calibrated (a loss term), tuned, set (an
    input), derived (a function of calibrated, tuned, set or derived figures), by construction
    (its direction, significance or bound put in, or a function of figures none emergent and one
    by construction) or emergent. A :class:`Derived` number is labelled by its inputs; not a key (None, or a bare
    number computed from the paper's figures): emergent."""
    if isinstance(key, Derived):
        got = [kind(k, path) for k in key.inputs]
        if got and all(g in DERIVABLE for g in got):
            return "derived"
        return BUILT if got and all(g in (*DERIVABLE, BUILT) for g in got) else "emergent"
    if key is None or isinstance(key, numbers.Real):
        return "emergent"
    parts = _parts(key)
    fields = _along(parts, path)
    if fields.get("simulated") is False:
        return NOT_SIMULATED
    if targets.term("/".join(map(str, parts))) is not None:
        return "calibrated"
    if fields.get("tuned") or chosen(parts, path):
        return "tuned"
    if fields.get("input"):
        return "set"
    if fields.get("derived_from") and parts not in _seen:
        got = [kind(k, path, _seen | {parts}) for k in inputs(parts, path)]
        if all(g in DERIVABLE for g in got):
            return "derived"
        if all(g in (*DERIVABLE, BUILT) for g in got):
            return BUILT
    if fields.get("built_in") or builds_in(parts, path):
        return BUILT
    return "emergent"


def built_through(key, path: Path | None = None) -> list[tuple]:
    """The inputs (``derived_from``) through which a figure is by construction: those labelled by
    construction, where none is emergent (empty for a figure the rule labels otherwise)."""
    if kind(key, path) != BUILT:
        return []
    parts = _parts(key)
    return [k for k in inputs(parts, path) if kind(k, path) == BUILT]


def status(*keys: str, path: Path | None = None, default: str | None = None) -> str:
    """The rule's label (:func:`kind`) of the figure at ``keys``; ``default`` is accepted for
    compatibility (the rule always has an answer: a figure nothing aims at is emergent)."""
    return kind(keys, path)


def fields(key, path: Path | None = None) -> dict:
    """The provenance fields in force for a figure key (``status``, ``reason``, ``input``,
    ``tolerance``, ``tuned``, ``in_code``, ``built_in``: each from the deepest entry that has it)."""
    return _along(_parts(key), path)


def tolerance(key, theirs: float, path: Path | None = None) -> float:
    """Within how much the stand-in must reproduce a set figure (0 unless the file says)."""
    parts = _parts(key)
    return _tolerance(_along(parts, path).get("tolerance", 0), theirs, "/".join(map(str, parts)))


@dataclass(frozen=True)
class Label:
    """A figure's label: its ``kind`` and, where it applies, a ``gap``: how far a set figure was
    missed beyond its tolerance, or a calibrated figure's achieved distance (``distance`` names
    it: "off by" for a difference, "TVD" for a distribution); a derived figure's ``source`` says
    what it is a function of."""

    kind: str
    gap: float | None = None
    distance: str = "off by"
    source: str = ""  # a derived figure: what it is a function of ("total ÷ records"), the file's ``how``


def _real(v) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and not math.isnan(float(v))


def _refuse_a_key_above_a_loss_term(key) -> None:
    if not isinstance(key, str):
        return
    try:
        where = "/".join(map(str, paper.resolve(key)))
    except KeyError:
        return
    below = [t.key for t in targets.LOSS_TERMS if t.key.startswith(where + "/")]
    if below:
        raise ValueError(
            f"{key} holds calibrated figures ({below[0]}, ...): label each row by its own figure key, "
            "not by the table's"
        )


def label(key, ours=None, distance: float | None = None, path: Path | None = None) -> Label:
    """The label of a figure given our value: set figures say whether (and by how much) they were
    missed; calibrated ones carry their distance (``distance`` for a distribution term, where the
    row's own value is not the distance).

    A key above a calibrated figure (a whole table, ``"table5_example_level_votes"``, whose rows
    are calibration terms) is refused: the rule would call it emergent while its rows are
    calibrated, so a row must be labelled by its own figure's key."""
    _refuse_a_key_above_a_loss_term(key)
    k = kind(key, path)
    if k == "derived":
        how = key.how if isinstance(key, Derived) else fields(key, path).get("how", "")
        return Label(k, source=str(how).strip())
    if k not in ("set", "calibrated"):
        return Label(k)
    theirs = paper.value(key) if isinstance(key, str) else None
    if k == "calibrated":
        t = targets.term("/".join(map(str, _parts(key))))
        if t.distance == "tvd":
            return Label(k, distance, "TVD") if distance is not None else Label(k)
        if _real(ours) and _real(theirs) and "/".join(map(str, _parts(key))) == t.key:
            if isinstance(theirs, numbers.Integral):  # printed whole: any value within half a unit prints so
                gap = max(0.0, abs(float(ours) - float(theirs)) - 0.5)
                return Label(k, 0.0, WITHIN_ROUNDING) if gap == 0 else Label(k, gap, "off the paper's rounding by")
            return Label(k, abs(float(ours) - float(theirs)))
        return Label(k)
    bound = fields(key, path).get("bound")
    if bound and _real(ours) and _real(theirs):  # a bound the stand-in must stay within, not a value aimed at
        kept = float(ours) <= float(theirs) if bound == "upper" else float(ours) >= float(theirs)
        if kept:
            return Label(k, None, BOUND_KEPT)
    if _real(ours) and _real(theirs):
        gap = abs(float(ours) - float(theirs))
        if gap > tolerance(key, theirs, path) + 1e-9:
            return Label(k, gap)
    return Label(k)


__all__ = [
    "BUILT",
    "BOUND_KEPT",
    "DERIVABLE",
    "Derived",
    "NOT_SIMULATED",
    "Label",
    "STATUSES",
    "WITHIN_ROUNDING",
    "builds_in",
    "built_through",
    "chosen",
    "constants",
    "declared",
    "derived",
    "fields",
    "inputs",
    "kind",
    "label",
    "load",
    "lookup",
    "status",
    "tolerance",
]
