"""Where things are in a corpus folder: campaigns and the annotated texts, in either layout.

*Our layout* (the bundled corpus): ``inputs.jsonl`` at the root holds every example with its
input (``description``) and annotated text (``summary``); campaigns sit below
``annotations/{human,model}/<name>/`` with a ``config.yaml`` and ``annotations.jsonl``.

*factgenie's export layout* (e.g. "Large Language Models as Span Annotators"): the annotated
texts are in ``outputs/**/*.jsonl`` (``dataset, split, setup_id, example_idx, output``), the
inputs in ``inputs/**/<dataset>/<split>.json`` (a JSON list, or an object holding one list,
whose ``example_idx``-th element is the input), campaigns below ``annotations/`` as above or
factgenie's own ``campaigns/<id>/metadata.json`` with ``files/*.jsonl``.

Records find their text by the example key after python-slugify's ``slugify`` of dataset,
split and setup_id, as factgenie joins them (``setup_id: llama3-3`` finds ``llama3.3``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import pandas as pd
from pydantic import ValidationError

from . import files, words
from .keys import ADDED, KEY, slug_key
from .keys import slug as _slug
from .problems import DUPLICATE_OUTPUT, EMPTY_CAMPAIGN, NO_INPUTS, SYMLINK_LOOP, WARNING, Problem, warning
from .schema import ConfigIn, ExampleIn, InputIn, MetadataIn, OutputIn

CONFIG_FILES = ("config.yaml", "metadata.json")
TEXT_FOLDERS = ("outputs", "inputs")
# ``source`` (the input the text is checked against) and ``text`` (the annotated text) are the
# neutral names; ``description`` and ``summary`` are HotelCheckSpan's names for the same two
# columns (aliases, equal to them), which the book's chapters on the paper use.
ALIASES = {"description": "source", "summary": "text"}
EXAMPLE_COLUMNS = KEY + [
    "source",
    "text",
    "description",
    "summary",
    "aspect",
    "sources",
    "description_words",
    "description_sentences",
    "summary_words",
    "segments",
    "segments_dropped",
]


# --- walking the folder ---------------------------------------------------------------------


def walk(root: Path, problems: list[Problem], skip_top=TEXT_FOLDERS) -> list[Path]:
    """Every file below ``root`` (symlinks followed once; loops and unreadable folders reported),
    except those in the top-level text folders, sorted."""
    out, seen = [], set()

    def visit(folder: Path, depth: int):
        try:
            st = folder.stat()
        except OSError as err:
            problems.append(Problem(_rel(folder, root), 0, "", f"cannot read folder: {err.strerror or err}"))
            return
        if (st.st_dev, st.st_ino) in seen:
            problems.append(
                warning(
                    _rel(folder, root),
                    0,
                    "",
                    "symlink loop: this folder is already being read; skipped",
                    SYMLINK_LOOP,
                )
            )
            return
        seen.add((st.st_dev, st.st_ino))
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as err:
            problems.append(Problem(_rel(folder, root), 0, "", f"cannot list folder: {err.strerror or err}"))
            return
        for entry in entries:
            path = Path(entry.path)
            if depth == 0 and entry.name in skip_top:
                continue
            try:
                is_dir = entry.is_dir()  # follows symlinks
            except OSError:
                is_dir = False
            if is_dir and not entry.name.endswith(".jsonl"):  # a folder named *.jsonl is reported as one
                visit(path, depth + 1)
            else:
                out.append(path)

    visit(root, 0)
    return out


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


def _exists(path: Path) -> bool:
    """True for anything at ``path``, broken or looping symlinks included."""
    try:
        path.lstat()
        return True
    except OSError:
        return False


# --- campaigns ------------------------------------------------------------------------------


@dataclass
class Campaign:
    """One campaign folder: its name, kind, validated config, annotation files (none for a
    config-only campaign) and task (:data:`TASK_RULE`; "" where the corpus has no tasks)."""

    name: str
    kind: str
    folder: Path
    config_file: Path | None
    config: dict = field(default_factory=dict)
    categories: list[str] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    task: str = ""

    @property
    def overlap_allowed(self) -> bool:
        # factgenie reads a missing value as "not allowed"
        return bool(self.config.get("annotation_overlap_allowed"))

    @property
    def simulated(self) -> bool:
        return bool(self.config.get("simulated", False))


def campaign_folder(annotation_file: Path) -> Path:
    """The campaign folder of an annotation file (factgenie keeps them in ``files/``)."""
    parent = annotation_file.parent
    if parent.name == "files" and any(_exists(parent.parent / c) for c in CONFIG_FILES):
        return parent.parent
    return parent


def read_config(folder: Path, root: Path | None, problems: list[Problem]) -> tuple[Path | None, dict, str | None]:
    """The campaign config of ``folder`` (``config.yaml``, else factgenie's ``metadata.json``),
    validated. Returns ``(config file or None, config, kind from metadata mode or None)``;
    every defect is a problem (an empty config means the campaign cannot be used)."""

    def rel(p):
        return _rel(p, root) if root is not None else str(p)

    yaml_file, meta_file = folder / "config.yaml", folder / "metadata.json"
    kind = None
    if _exists(yaml_file):
        path = yaml_file
        raw, lines = files.read_yaml(path, rel(path), problems)
        if raw is None and not any(p.file == rel(path) for p in problems):
            problems.append(Problem(rel(path), 0, "", "is empty"))
            return path, {}, None
        prefix = ""
    elif _exists(meta_file):
        path = meta_file
        meta = files.read_json(path, rel(path), problems)
        lines = {}
        if meta is None:
            return path, {}, None
        try:
            meta = MetadataIn.model_validate(meta)
        except ValidationError as err:
            problems.extend(files.validation_problems(err, rel(path), 0))
            return path, {}, None
        mode = (meta.mode or "").lower()
        kind = "model" if "llm" in mode else "human" if mode else None
        raw, prefix = meta.config, "config."
    else:
        return None, {}, None
    if raw is None:
        return path, {}, kind
    if not isinstance(raw, dict):
        problems.append(Problem(rel(path), 0, "<root>", f"expected a mapping of settings, got {type(raw).__name__}"))
        return path, {}, kind
    try:
        config = ConfigIn.model_validate(raw)
    except ValidationError as err:
        problems.extend(files.validation_problems(err, rel(path), lines, prefix))
        return path, {}, kind
    names = [c.name for c in config.annotation_span_categories]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        problems.append(
            Problem(
                rel(path),
                lines.get("annotation_span_categories", 0),
                prefix + "annotation_span_categories",
                f"category named twice: {dupes}",
            )
        )
        return path, {}, kind
    return path, raw, kind


def _kind(parts: tuple, config: dict, mode_kind: str | None) -> str:
    if "model" in parts or "llm" in parts:
        return "model"
    if "human" in parts:
        return "human"
    if mode_kind:
        return mode_kind
    return "model" if "model" in config else "human"


def discover(root: Path, problems: list[Problem]) -> list[Campaign]:
    """Every campaign below ``root``: a folder with a config and annotation files (``*.jsonl``).

    An annotation file without a config beside it is an error; a config without annotation files
    (a config-only campaign) is a campaign with no files and a warning: it is listed, with 0
    records, and computes nothing. Two folders whose names (:data:`NAME_RULE`) are one are an
    error naming both.
    """
    all_files = walk(root, problems)
    annotation_files = [p for p in all_files if p.suffix == ".jsonl" and p.parent != root]
    configs = {p.parent for p in all_files if p.name in CONFIG_FILES}
    by_folder: dict[Path, list[Path]] = {}
    for p in annotation_files:
        by_folder.setdefault(campaign_folder(p), []).append(p)
    campaigns = []
    for folder in sorted(set(by_folder) | configs):
        rel_folder = _rel(folder, root)
        config_file, config, mode_kind = read_config(folder, root, problems)
        if config_file is None:
            for p in by_folder[folder]:
                problems.append(
                    Problem(
                        _rel(p, root),
                        0,
                        "",
                        f"no config.yaml or metadata.json in {rel_folder}/: the campaign's categories are unknown",
                    )
                )
            continue
        if folder not in by_folder:
            problems.append(  # factgenie lists such a campaign and computes nothing with it
                warning(
                    _rel(config_file, root),
                    0,
                    "",
                    f"campaign {rel_folder}/ has no annotation file (*.jsonl): listed with 0 records and left "
                    "out of every computation, as factgenie leaves it out",
                    EMPTY_CAMPAIGN,
                )
            )
        if not config:
            continue  # the config's problems are already reported
        parts = folder.relative_to(root).parts
        categories = [c["name"] for c in config["annotation_span_categories"]]
        campaigns.append(
            Campaign(
                folder.name,
                _kind(parts, config, mode_kind),
                folder,
                config_file,
                config,
                categories,
                sorted(by_folder.get(folder, [])),
            )
        )
    _unique_names(campaigns, root, problems)
    _tasks(campaigns, root)
    return campaigns


TOP_FOLDERS = ("annotations", "campaigns")
KIND_FOLDERS = ("human", "model", "llm")


def _name_parts(folder: Path, root: Path) -> list[str]:
    """A campaign folder's path below ``annotations/<kind>/`` (or ``campaigns/``), as parts."""
    parts = list(folder.relative_to(root).parts)
    if parts and parts[0] in TOP_FOLDERS:
        parts = parts[1:]
    if len(parts) > 1 and parts[0] in KIND_FOLDERS:
        parts = parts[1:]
    return parts


def _unique_names(campaigns: list[Campaign], root: Path, problems: list[Problem]) -> None:
    """Name every campaign by one rule, from its path alone (:data:`NAME_RULE`); two folders the
    rule gives one name are an error naming both (names never merge)."""
    added = [c for c in campaigns if c.folder.relative_to(root).parts[:1] == (ADDED,)]
    own = [c for c in campaigns if c not in added]
    for kind in dict.fromkeys(c.kind for c in own):
        group = [c for c in own if c.kind == kind]
        parts = [_name_parts(c.folder, root) for c in group]
        common = 0
        while all(len(p) > common + 1 for p in parts) and len({p[common] for p in parts}) == 1:
            common += 1
        for c, p in zip(group, parts):
            c.name = "-".join(p[common:])
    names = [c.name for c in own]
    for c in own:
        if names.count(c.name) > 1:  # a human and a model campaign with one name: the kind leads
            c.name = f"{c.kind}-{c.name}"
    names = [c.name for c in own]
    for c in own:
        if names.count(c.name) > 1:  # still one name (e.g. "a/b" in annotations/ and campaigns/): the whole path
            c.name = "-".join(c.folder.relative_to(root).parts)
    first: dict[str, Campaign] = {}
    for c in sorted(own, key=lambda c: c.folder.relative_to(root).as_posix()):
        if c.name in first:  # e.g. "a-b/c" and "a/b-c": one name, "a-b-c", for two folders
            other = first[c.name]
            problems.append(
                Problem(
                    _rel(c.config_file or c.folder, root),
                    0,
                    "",
                    f"campaign folders {_rel(other.folder, root)}/ and {_rel(c.folder, root)}/ both get the name "
                    f"{c.name!r} by the naming rule (the methods page, 'Campaign names'): rename one folder "
                    "so that the two are not scored as one",
                )
            )
        else:
            first[c.name] = c
    taken = {c.name for c in own}
    for c in added:
        c.name = c.folder.name if c.folder.name not in taken else f"{c.folder.name} (added)"


def _tasks(campaigns: list[Campaign], root: Path) -> None:
    """Give every campaign its task (:data:`TASK_RULE`)."""
    own = [c for c in campaigns if c.folder.relative_to(root).parts[:1] != (ADDED,)]
    parts = {id(c): _name_parts(c.folder, root) for c in own}
    deep = {p[0] for p in parts.values() if len(p) > 1}
    for c in own:
        p = parts[id(c)]
        c.task = p[0] if len(p) > 1 or p[0] in deep else ""


TASK_RULE = """A campaign's task is the first folder below ``annotations/<kind>/`` (or ``campaigns/``)
when the campaign sits deeper than that folder, or when it is that folder and other campaigns sit
below a folder of the same name: so ``annotations/human/d2t-eval/test`` and
``annotations/model/d2t-eval/test/gpt4o`` are task "d2t-eval", ``annotations/human/mt-eval`` is
task "mt-eval" beside ``annotations/model/mt-eval/zeroshot/...``. A corpus whose campaigns all
sit right below ``annotations/<kind>/`` (HotelCheckSpan's) has no tasks (""). A folder added
from outside the corpus belongs to every task."""


NAME_RULE = """A campaign's name is its folder's path below ``annotations/<kind>/`` (or factgenie's
``campaigns/``), without the leading folders every campaign of its kind shares, its parts joined
by "-" (the last folder is always kept). So ``annotations/model/gpt-4o`` is "gpt-4o",
``annotations/model/d2t-eval/iaa/zeroshot-gpt4o`` beside five other ``d2t-eval/iaa/`` judges is
"zeroshot-gpt4o", and ``annotations/model/mt-eval/cot/llama3-3`` beside ``mt-eval/zeroshot/...``
is "cot-llama3-3". Where a human and a model campaign would share a name, the kind leads
("human-x", "model-x"). Two folders that still get one name (``zeroshot-gpt4o/x`` and
``zeroshot/gpt4o-x`` are both "zeroshot-gpt4o-x") are an error naming both folders: names never
merge, so two campaigns are never scored as one. A folder added from outside the corpus
(``hotelcheckspan judge CORPUS FOLDER``) is named by its own folder, "<name> (added)" where the
corpus has a campaign of that name. A config-only folder (a config and no annotation file) is
named like any other. The name depends on the corpus' folders only, never on the order they are
read in, nor on a selection (``--task``, ``--split``, ``--campaign``)."""


# --- texts ----------------------------------------------------------------------------------


@dataclass
class Texts:
    """The examples of a corpus and, by slugified key, each example's key and annotated text;
    ``by_orig``: the slugified key of each text that carries an ``orig_example_idx`` (as
    factgenie's MT exports do), by (slugified dataset, split, setup_id, orig_example_idx)."""

    examples: pd.DataFrame
    by_key: dict[tuple, tuple[tuple, str]]
    source: str  # "inputs.jsonl", "outputs/" or "" (none)
    by_orig: dict[tuple, tuple] = field(default_factory=dict)


def _is_json(text) -> bool:
    """Whether a source is a JSON object or list (factgenie's data inputs): it has no words or
    sentences to count."""
    return isinstance(text, str) and text[:1] in ("{", "[")


def _word_count(text: pd.Series) -> pd.Series:
    """Words of each text; <NA> for a JSON source (a data record has no words to count)."""
    json_rows = text.map(_is_json).astype(bool)
    if not json_rows.any():
        return words.counts(text)
    out = pd.Series(pd.NA, index=text.index, dtype="Int64")
    out[~json_rows] = words.counts(text[~json_rows]).astype("Int64")
    return out


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _sentence_count(text: pd.Series) -> pd.Series:
    """Sentences of each text; <NA> for a JSON source."""
    counts = [
        pd.NA if _is_json(t) else (len([s for s in _SENTENCE_END.split(t.strip()) if s]) if t else 0)
        for t in text.fillna("").astype(str)
    ]
    return pd.Series(counts, index=text.index, dtype="Int64")


def fits_int64(values: pd.Series) -> bool:
    """Whether every value of an integer column fits in int64."""
    return len(values) == 0 or int(values.max()) < 2**63


def _finish(rows: list[dict]) -> pd.DataFrame:
    named = [c for c in EXAMPLE_COLUMNS if not c.endswith(("_words", "_sentences")) and c not in ALIASES.values()]
    examples = pd.DataFrame(rows, columns=named)
    for alias, neutral in ALIASES.items():
        examples[neutral] = examples[alias]
    examples["description_words"] = _word_count(examples["description"])
    examples["description_sentences"] = _sentence_count(examples["description"])
    examples["summary_words"] = _word_count(examples["summary"])
    return examples[EXAMPLE_COLUMNS]


def _from_inputs_jsonl(path: Path, rel: str, problems: list[Problem]) -> Texts:
    rows, by_key, first = [], {}, {}
    for lineno, ex in files.iter_jsonl(path, ExampleIn, rel, problems):
        key = (ex.dataset, ex.split, ex.setup_id, ex.example_idx)
        slug = slug_key(*key)
        if slug in first:
            problems.append(
                Problem(rel, lineno, "example_idx", f"duplicate example {key}, first on line {first[slug]}")
            )
            continue
        first[slug] = lineno
        by_key[slug] = (key, ex.summary)
        n_sources = len(ex.sources) if isinstance(ex.sources, list) else ex.sources
        rows.append(
            dict(zip(KEY, key))
            | {
                "description": ex.description,
                "summary": ex.summary,
                "aspect": ex.aspect,
                "sources": n_sources,
                "segments": ex.segments,
                "segments_dropped": ex.segments_dropped,
            }
        )
    return Texts(_finish(rows), by_key, "inputs.jsonl")


SOURCE_FIELDS = ("src", "source", "input")  # where a JSON Lines input keeps the text a translation is checked against


def _inputs(root: Path, problems: list[Problem]) -> dict[tuple, str]:
    """factgenie inputs by (slug dataset, slug split, example_idx), and by (slug dataset, slug
    split, "input_idx", id) where a line carries an ``input_idx``: the input as text.

    Two layouts: ``inputs/**/<dataset>/<split>.json``, a JSON list (or an object holding one
    list) whose ``example_idx``-th element is the input, kept as JSON text; and
    ``inputs/**/<dataset>/<split>.jsonl`` (factgenie's MT exports), one input per line keyed by its
    own ``dataset``, ``split`` and ``example_idx`` (the folder, file and line number where a field
    is missing), the source in ``src`` (or ``source``, ``input``; else the whole line)."""
    out = {}
    folder = root / "inputs"
    if not _exists(folder):
        return out
    for path in walk(folder, problems, skip_top=()):
        rel = _rel(path, root)
        if path.suffix == ".jsonl":
            _jsonl_inputs(path, rel, problems, out)
            continue
        if path.suffix != ".json":
            continue
        data = files.read_json(path, rel, problems)
        if data is None:
            continue
        items = data
        if isinstance(data, dict):
            lists = [v for v in data.values() if isinstance(v, list)]
            items = lists[0] if len(lists) == 1 else None
        if not isinstance(items, list):
            problems.append(
                Problem(
                    rel,
                    0,
                    "<root>",
                    "not a JSON list of inputs (nor an object holding one list): these inputs are not shown",
                    WARNING,
                    NO_INPUTS,
                )
            )
            continue
        dataset, split = path.parent.name, path.stem
        for i, item in enumerate(items):
            out[(_slug(dataset), _slug(split), i)] = json.dumps(item, ensure_ascii=False)
    return out


def _jsonl_inputs(path: Path, rel: str, problems: list[Problem], out: dict) -> None:
    """The inputs of one JSON Lines file into ``out`` (see :func:`_inputs`)."""
    found: list[Problem] = []
    for lineno, line in files.iter_jsonl(path, InputIn, rel, found):
        extra = line.model_extra or {}
        dataset = line.dataset if line.dataset is not None else path.parent.name
        split = line.split if line.split is not None else path.stem
        idx = line.example_idx if line.example_idx is not None else lineno - 1
        source = next((extra[f] for f in SOURCE_FIELDS if isinstance(extra.get(f), str)), None)
        text = source if source is not None else json.dumps(line.model_dump(), ensure_ascii=False)
        out[(_slug(dataset), _slug(split), idx)] = text
        if isinstance(extra.get("input_idx"), (str, int)):
            out[(_slug(dataset), _slug(split), "input_idx", str(extra["input_idx"]))] = text
    # an input file that cannot be read is not shown; its texts are still annotated and counted
    problems.extend(replace(p, severity=WARNING, kind=NO_INPUTS) if p.is_error else p for p in found)


def _input_of(inputs: dict, slug: tuple, line) -> str:
    """The input of the output ``line`` (its slugified key ``slug``): by key, else by the
    ``input_idx`` of its metadata; "" where there is none."""
    found = inputs.get((slug[0], slug[1], slug[3]))
    if found is not None:
        return found
    meta = (line.model_extra or {}).get("metadata")
    if isinstance(meta, dict) and isinstance(meta.get("input_idx"), (str, int)):
        return inputs.get((slug[0], slug[1], "input_idx", str(meta["input_idx"])), "")
    return ""


def _orig_index(line) -> int | None:
    """A text line's ``orig_example_idx`` (an extra field) when it is a whole number."""
    value = (line.model_extra or {}).get("orig_example_idx")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _from_outputs(root: Path, problems: list[Problem]) -> Texts:
    rows, by_key, first, by_orig = [], {}, {}, {}
    inputs = _inputs(root, problems)
    out_files = [p for p in walk(root / "outputs", problems, skip_top=()) if p.suffix == ".jsonl"]
    if not out_files:
        problems.append(Problem("outputs", 0, "", "holds no *.jsonl file: the annotated texts are missing"))
    for path in out_files:
        rel = _rel(path, root)
        for lineno, out in files.iter_jsonl(path, OutputIn, rel, problems):
            key = (out.dataset, out.split, out.setup_id, out.example_idx)
            slug = slug_key(*key)
            if slug in first:
                same = by_key[slug][1] == out.output
                problems.append(
                    Problem(
                        rel,
                        lineno,
                        "example_idx",
                        f"output {key} already read at {first[slug]}"
                        + (" (same text)" if same else " with a different text"),
                        WARNING if same else "error",
                        DUPLICATE_OUTPUT if same else "",
                    )
                )
                continue
            first[slug] = f"{rel}:{lineno}"
            by_key[slug] = (key, out.output)
            orig = _orig_index(out)
            if orig is not None:
                by_orig.setdefault((*slug[:3], orig), slug)
            rows.append(
                dict(zip(KEY, key))
                | {
                    "description": _input_of(inputs, slug, out),
                    "summary": out.output,
                    "aspect": None,
                    "sources": None,
                    "segments": None,
                    "segments_dropped": None,
                }
            )
    return Texts(_finish(rows), by_key, "outputs/", by_orig)


def read_texts(root: Path, problems: list[Problem]) -> Texts:
    """The annotated texts of the corpus at ``root``; none at all is an error (span texts
    could not be checked)."""
    if _exists(root / "inputs.jsonl"):
        return _from_inputs_jsonl(root / "inputs.jsonl", "inputs.jsonl", problems)
    if _exists(root / "outputs"):
        return _from_outputs(root, problems)
    problems.append(
        Problem(
            str(root),
            0,
            "",
            "no inputs.jsonl and no outputs/ folder: the annotated texts are missing, so no span can be checked",
        )
    )
    return Texts(_finish([]), {}, "")
