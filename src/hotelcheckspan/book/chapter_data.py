"""Which corpus each chapter runs on, read from the chapter's own code (the start page's list).

A chapter's corpora are the ``hotelcheckspan.load(...)`` and ``real_shape.framed(...)`` (a load
and its frame) calls of its reviewed source (``notebooks/NN_topic.py``), in order: the first is
the chapter's data, later ones are sections on another corpus. A call without an argument loads
the paper's corpus (``paths.corpus_dir()``: ``HOTELCHECKSPAN_DATA``, else the bundled stand-in);
one naming ``paths.REAL_CORPUS`` or ``paths.REAL_TEST_CORPUS``, directly or as the default of
``paths.real_corpus_dir(...)``, loads that public corpus (or the one ``HOTELCHECKSPAN_REAL_DATA``
points at), and ``paths.MQM_TED`` WMT's TED file. Reading the calls, rather than a list kept by
hand, means the start page cannot say a chapter runs on the stand-in after it was moved to real
annotations; a call this rule cannot read is an error, not a guess.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from .. import paths

PAPER = "paper"  # the corpus of paths.corpus_dir(): the stand-in unless HOTELCHECKSPAN_DATA says otherwise
_CONSTANTS = {
    "REAL_CORPUS": paths.REAL_CORPUS,
    "REAL_TEST_CORPUS": paths.REAL_TEST_CORPUS,
    "MQM_TED": paths.MQM_TED,
}
# how the start page names each bundled public corpus
NAMES = {
    paths.REAL_CORPUS.name: "d2t iaa split",
    paths.REAL_TEST_CORPUS.name: "d2t test split",
    paths.MQM_TED.name: "WMT 2021 TED MQM",
}


@dataclass(frozen=True)
class Load:
    """One ``load`` call: ``corpus`` is :data:`PAPER` or the folder a public corpus is read from;
    ``line`` its line in the chapter's source."""

    corpus: str | Path
    line: int


_LOADERS = {("hotelcheckspan", "load"), ("real_shape", "framed")}  # a corpus read, or read and framed


def _is_load(call: ast.Call) -> bool:
    f = call.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and (f.value.id, f.attr) in _LOADERS


def _constant(node: ast.AST) -> Path | None:
    """``paths.REAL_CORPUS`` -> its folder (None for anything else)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "paths":
        return _CONSTANTS.get(node.attr)
    return None


def _corpus(call: ast.Call, where: str) -> str | Path:
    if not call.args and not call.keywords:
        return PAPER
    arg = call.args[0] if call.args else call.keywords[0].value
    found = _constant(arg)
    if found is not None:
        return found
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "real_corpus_dir":
        default = _constant(arg.args[0]) if arg.args else paths.REAL_CORPUS
        if default is not None:
            return paths.real_corpus_dir(default)
    raise ValueError(f"{where}, line {call.lineno}: cannot tell which corpus {ast.unparse(call)} loads")


def loads(source: str, where: str = "<chapter>") -> list[Load]:
    """Every ``hotelcheckspan.load(...)`` and ``real_shape.framed(...)`` call of a chapter's source,
    in the order of its lines."""
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call) and _is_load(n)]
    return [Load(_corpus(c, where), c.lineno) for c in sorted(calls, key=lambda c: (c.lineno, c.col_offset))]


@dataclass(frozen=True)
class ChapterData:
    """A chapter's data: ``main`` the corpus it opens with, ``sections`` the other corpora it
    loads later, each once, in order (each :data:`PAPER` or a folder)."""

    main: str | Path
    sections: tuple


def chapter_data(path: Path) -> ChapterData:
    """The corpora one chapter's source (``notebooks/NN_topic.py``) loads."""
    found = loads(path.read_text(encoding="utf-8"), str(path))
    if not found:
        raise ValueError(f"{path}: no hotelcheckspan.load(...) or real_shape.framed(...) call, so no corpus to name")
    main = found[0].corpus
    rest = tuple(dict.fromkeys(x.corpus for x in found[1:] if x.corpus != main))
    return ChapterData(main, rest)


def name(corpus: str | Path, simulated: bool) -> str:
    """A corpus as the start page names it: "stand-in" (the paper's corpus when simulated),
    "HotelCheckSpan" (the paper's corpus when not), or a public corpus' name ("d2t test split")."""
    if corpus == PAPER:
        return "stand-in" if simulated else "HotelCheckSpan"
    folder = Path(corpus)
    return NAMES.get(folder.name, folder.name)


def is_real(corpus: str | Path, simulated: bool) -> bool:
    """Whether a corpus holds real annotations (every corpus but a simulated paper corpus)."""
    return not (corpus == PAPER and simulated)
