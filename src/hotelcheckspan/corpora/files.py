"""Reading files defensively: every way a file can be unreadable becomes a :class:`Problem`.

Nothing here raises on bad input and nothing can hang: a path is checked to be a regular file
(a FIFO, socket, device, folder or symlink loop is reported, not opened), bytes are decoded as
strict UTF-8 line by line, JSON is parsed without NaN/Infinity, YAML with the safe loader; deep
nesting (``RecursionError``), oversized numbers and OS errors are reported where they occur.
"""

from __future__ import annotations

import gc
import json
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from .problems import Problem

_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: same result, faster

_KINDS = [
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
]


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """The cyclic garbage collector paused while a reader builds its rows: millions of small
    objects, none in a cycle, each of which would otherwise bring the collector back to walk
    everything read so far (a hundred times the d2t test split read in a third less time).
    Reference counting still frees what is dropped; the collector is restored after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _os_message(err: OSError) -> str:
    return err.strerror or str(err)


def is_regular(path: Path) -> bool:
    """Whether ``path`` is a regular file (following symlinks), without ever raising."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def read_bytes(path: Path, rel: str, problems: list[Problem]) -> bytes | None:
    """The bytes of a regular file, or None with a path-level problem."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        problems.append(Problem(rel, 0, "", "no such file" if not path.is_symlink() else "broken symlink"))
        return None
    except OSError as err:
        problems.append(Problem(rel, 0, "", f"cannot read: {_os_message(err)}"))
        return None
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        problems.append(Problem(rel, 0, "", f"is {kind}, not a regular file"))
        return None
    try:
        # O_NONBLOCK: should the file be swapped for a FIFO after the check, open does not block
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            return fh.read()
    except OSError as err:
        problems.append(Problem(rel, 0, "", f"cannot read: {_os_message(err)}"))
        return None


def _utf8(raw: bytes, rel: str, lineno: int, problems: list[Problem]) -> str | None:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        problems.append(
            Problem(rel, lineno, "<utf-8>", f"not UTF-8: byte 0x{raw[err.start]:02x} at column {err.start + 1}")
        )
        return None


def read_text(path: Path, rel: str, problems: list[Problem]) -> str | None:
    """The whole file as UTF-8 text, or None with problems (each undecodable line reported)."""
    data = read_bytes(path, rel, problems)
    if data is None:
        return None
    try:  # the whole file at once; line by line only to say where it is not UTF-8
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    n_before = len(problems)
    lines = [_utf8(raw, rel, i, problems) for i, raw in enumerate(data.split(b"\n"), start=1)]
    return None if len(problems) > n_before else "\n".join(lines)


def _no_constants(name: str):
    raise ValueError(f"{name} is not valid JSON")


def parse_json(text: str) -> tuple[Any, str | None]:
    """``(value, None)`` or ``(None, message)``: strict JSON, no NaN, no runaway nesting."""
    try:
        return json.loads(text, parse_constant=_no_constants), None
    except json.JSONDecodeError as err:
        if text.startswith("\ufeff"):  # Python's own advice (utf-8-sig) means nothing to a user
            return None, "malformed JSON: starts with a byte-order mark (BOM), not allowed in JSON; save without it"
        return None, f"malformed JSON: {err.msg.removesuffix(' at')} at column {err.colno}"  # not 'starting at at'
    except RecursionError:
        return None, "malformed JSON: nested too deeply"
    except ValueError as err:  # NaN/Infinity, integers with thousands of digits
        if "integer string conversion" in str(err):
            return None, f"malformed JSON: a number with more than {sys.get_int_max_str_digits()} digits"
        return None, f"malformed JSON: {err}"


def read_json(path: Path, rel: str, problems: list[Problem]) -> Any:
    """A whole-file JSON value, or None with a problem."""
    text = read_text(path, rel, problems)
    if text is None:
        return None
    value, message = parse_json(text)
    if message:
        problems.append(Problem(rel, 0, "<json>", message))
    return value


def read_yaml(path: Path, rel: str, problems: list[Problem]) -> tuple[Any, dict[str, int]]:
    """A YAML document (safe loader) and the line of each top-level key, or (None, {})."""
    text = read_text(path, rel, problems)
    if text is None:
        return None, {}
    loader = _YAML_LOADER(text)
    try:
        node = loader.get_single_node()
        value = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 0
        problems.append(Problem(rel, line, "<yaml>", f"malformed YAML: {err.problem or err.context}"))
        return None, {}
    except (yaml.YAMLError, RecursionError, ValueError) as err:
        problems.append(Problem(rel, 0, "<yaml>", f"malformed YAML: {type(err).__name__}"))
        return None, {}
    finally:
        loader.dispose()
    lines = {}
    if isinstance(node, yaml.MappingNode):
        lines = {str(k.value): k.start_mark.line + 1 for k, _ in node.value}
    return value, lines


def location(loc: tuple) -> str:
    return ".".join(str(x) for x in loc)


def validation_problems(err: ValidationError, rel: str, line: int | dict, prefix: str = "") -> list[Problem]:
    """One problem per pydantic error; ``line`` is a number or a top-level key -> line map."""
    out = []
    for e in err.errors():
        field = prefix + location(e["loc"])
        msg = "missing field" if e["type"] == "missing" else e["msg"]
        if e["type"] not in ("missing",) and "input" in e and not isinstance(e["input"], (dict, list)):
            msg += f" (got {e['input']!r:.60})"
        at = line if isinstance(line, int) else line.get(str(e["loc"][0]) if e["loc"] else "", 0)
        out.append(Problem(rel, at, field or "<root>", msg))
    return out


def iter_jsonl(
    path: Path, model: type[BaseModel], rel: str, problems: list[Problem]
) -> Iterator[tuple[int, BaseModel]]:
    """``(line number, validated object)`` for every good line; every bad line is a problem.

    A line is parsed and validated in one step (pydantic's JSON mode) and, where that fails or
    the line holds a word strict JSON has no place for (NaN, Infinity), read again step by step
    so that the problem is said as for any other line. A file with no line at all is an error (a
    corpus never needs an empty JSON Lines file).
    """
    data = read_bytes(path, rel, problems)
    if data is None:
        return
    seen_any = False
    malformed: list[Problem] = []
    good = 0
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        seen_any = True
        if b"NaN" not in raw and b"Infinity" not in raw:  # the fast path: parse and check in one step
            try:
                validated = model.model_validate_json(raw)
            except (ValidationError, ValueError, RecursionError):
                pass  # read the line again below, to say what is wrong with it as this module says it
            else:
                good += 1
                yield lineno, validated
                continue
        line = _utf8(raw, rel, lineno, problems)
        if line is None:
            continue
        obj, message = parse_json(line)
        if message:
            malformed.append(Problem(rel, lineno, "<json>", message))
            continue
        good += 1
        if not isinstance(obj, dict):
            problems.append(Problem(rel, lineno, "<json>", f"expected an object, got {type(obj).__name__}"))
            continue
        try:
            yield lineno, model.model_validate(obj)
        except ValidationError as err:
            problems.extend(validation_problems(err, rel, lineno))
        except RecursionError:
            problems.append(Problem(rel, lineno, "<json>", "nested too deeply"))
    if malformed and not good and len(malformed) > 1:  # e.g. a config.yaml given for its annotations.jsonl
        problems.append(
            Problem(
                rel,
                0,
                "<json>",
                f"not a JSON Lines file: none of its {len(malformed)} lines is JSON "
                f"(line {malformed[0].line}: {malformed[0].message})",
            )
        )
    else:
        problems.extend(malformed)
    if not seen_any:
        problems.append(Problem(rel, 0, "", "is empty"))
