"""The example explorer's data: a corpus as static JSON files the book's explorer page reads.

A reader of the dataset wants to browse it: every annotated text with its source, each annotator
set's and each judge's spans with their types and reasons, the examples where annotators
disagree most. :func:`build` writes one corpus into a folder the page fetches from:

``index.json``
    the corpus (``name, label, simulated, categories``, ``palette``: category -> colour from
    :func:`hotelcheckspan.book.report.highlight_palette`, every two told apart at ``alpha``, the
    highlight opacity), ``who`` (every annotator set and judge: ``name, spec, kind, campaign,
    group``), ``chunk_size`` and ``chunks`` (file names), ``sources`` (file names: each distinct
    source once, ``source_chunk`` to a file), and one small row per example (``columns`` names the
    fields of each list in ``rows``): ``id`` (position, which chunk holds it: ``id // chunk_size``),
    the key (``dataset, split, setup_id, example_idx``), ``aspect``, ``text_length`` (characters;
    None without a text), ``snippet`` (the text's first characters), ``source`` (the number of its
    source, in file ``source // source_chunk``; None without one), ``votes`` (per category of
    ``categories`` and "Any", how many human sets marked an error of that type, as
    :func:`hotelcheckspan.analyses.example_level.votes` counts them), ``raters`` (human sets with
    a record), ``f1`` and ``f1_soft`` (mean span F1 over the pairs of human sets on the example,
    hard and soft, to :data:`DECIMALS`; None where no pair is defined), ``pairs`` (pairs defined),
    ``sets`` (``who`` indices with a record) and ``marked`` (``[who, mask]``: bit i of mask set
    when that set or judge marked category i).
``chunk-NNNN.json``
    ``chunk_size`` examples in full: ``id``, ``text`` (``summary``; None for a record whose
    example has no text) and ``records``, each a list ``[who, record_id, annotator, impression,
    no_errors, spans]`` in the corpus' order by who, and each span a list ``[start, end, type,
    reason, placed]`` in the record's order (start and end as the loader gives them; type the
    index of the category in ``categories``; placed 1, 0 or None), with the span's text as a sixth
    item only where it is not ``text[start:end]``. Lists, not objects, because the keys repeated
    on every span weighed more than the spans.
``source-NNNN.json``
    ``{"sources": [...]}``: the distinct sources (the ``description`` column; for a factgenie
    export, the input as JSON text), each once: the d2t test split's four systems write from the
    same inputs, so its examples share a quarter as many sources.

The page fetches a chunk, and the file of its source, when an example of it opens.

Text is written as it is (JSON escapes nothing of HTML); the page inserts every string with
``textContent``. A pair of human sets scores an example with the book's Table 6 definition
(:data:`hotelcheckspan.analyses.span_level.BOOK_METRIC`, ``BOOK_CONVENTION``: character overlap,
lengths counted on every example): its F1 is defined where either set marked something, and is
0 where only one did. All pairs of all examples are scored in one call of
:func:`hotelcheckspan.metrics.span_f1.count_arrays`, each (example, pair) being one unit.

:func:`build_all` writes the loaded corpus (``HOTELCHECKSPAN_DATA`` or the simulated stand-in)
and the two bundled real corpora, each in its folder, and ``corpora.json`` listing them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from .. import paths
from ..analyses.span_level import BOOK_CONVENTION, BOOK_METRIC
from ..annotator_sets import AnnotatorSet, names, paper_order
from ..categories import ANY
from ..corpora import KEY, Corpus
from ..corpora import load as load_corpus
from ..metrics import span_f1
from .report import ALPHA, highlight_palette

FORMAT = 2
CHUNK_SIZE = 50
SOURCE_CHUNK = 20  # distinct sources per source file
SNIPPET = 90  # characters of the text shown in the list of examples
DECIMALS = 3  # of the pairwise F1 in the index (the page shows two)
INDEX = "index.json"
MANIFEST = "corpora.json"
COLUMNS = [
    "id",
    *KEY,
    "aspect",
    "text_length",
    "snippet",
    "source",
    "votes",
    "raters",
    "f1",
    "f1_soft",
    "pairs",
    "sets",
    "marked",
]


# --- who annotated ----------------------------------------------------------------------------


def annotator_sets(corpus: Corpus) -> pd.DataFrame:
    """Every human set and judge of ``corpus``: one row per human (campaign, group) and per model
    campaign (its groups pooled), humans first, in the corpus' order.

    Columns: ``who`` (0, 1, ...), ``name`` (the glossary's display name, the chapters' by one rule:
    :func:`hotelcheckspan.annotator_sets.names`: "St. 1A", "gpt-4o (LS)", "group 3", "gpt4o"),
    ``spec``, ``kind``, ``campaign``, ``group`` (None for a judge, or a human record without a
    group)."""
    rec = corpus.records
    named = names(corpus)
    rows = []
    for kind in ("human", "model"):
        mine = rec[rec["kind"] == kind]
        for campaign in paper_order(dict.fromkeys(mine["campaign"])):  # the paper's Table 3 order where it has them
            groups = mine.loc[mine["campaign"] == campaign, "annotator_group"]
            found = sorted(int(g) for g in groups.dropna().unique()) if kind == "human" else []
            if kind == "human" and groups.isna().any():
                found = [None, *found]
            for group in found or [None]:
                aset = AnnotatorSet(campaign, group)
                rows.append(
                    {"name": named.of(aset.spec), "spec": aset.spec, "kind": kind, "campaign": campaign, "group": group}
                )
    out = pd.DataFrame(rows, columns=["name", "spec", "kind", "campaign", "group"]).astype({"group": "Int64"})
    out.insert(0, "who", np.arange(len(out)))
    return out


def _who_of(frame: pd.DataFrame, sets: pd.DataFrame) -> np.ndarray:
    """The ``who`` of each row of a records or spans frame (a judge's groups are pooled)."""
    group = frame["annotator_group"].where(frame["kind"] == "human").astype("Int64")
    keys = pd.DataFrame({"campaign": frame["campaign"].to_numpy(), "group": group.to_numpy()})
    found = keys.merge(sets[["campaign", "group", "who"]], on=["campaign", "group"], how="left")
    return found["who"].to_numpy(np.int64)


# --- the examples -----------------------------------------------------------------------------


def example_table(corpus: Corpus) -> pd.DataFrame:
    """Every example of the explorer: the corpus' texts in its order, then the examples only
    records name (no text in the corpus), in key order.

    Columns: ``id``, the key, ``description``, ``summary`` (None without a text), ``aspect``."""
    text_columns = ["description", "summary", "aspect"]
    ex = corpus.examples
    texts = ex[[*KEY, *[c for c in text_columns if c in ex.columns]]].drop_duplicates(KEY)
    extra = corpus.records[KEY].drop_duplicates().merge(texts[KEY], on=KEY, how="left", indicator=True)
    extra = extra[extra["_merge"] == "left_only"].drop(columns="_merge")
    extra = extra.sort_values(KEY, key=lambda s: s.astype(str), kind="stable")
    out = pd.concat([texts, extra], ignore_index=True).reindex(columns=[*KEY, *text_columns])
    out[text_columns] = out[text_columns].astype(object).where(out[text_columns].notna(), None)
    out.insert(0, "id", np.arange(len(out)))
    return out


def _ids(frame: pd.DataFrame, examples: pd.DataFrame) -> np.ndarray:
    """The explorer ``id`` of each row of ``frame`` (by its key)."""
    return frame[KEY].merge(examples[[*KEY, "id"]], on=KEY, how="left")["id"].to_numpy(np.int64)


def votes(corpus: Corpus, examples: pd.DataFrame, sets: pd.DataFrame) -> pd.DataFrame:
    """Per example: how many human sets marked an error of each category and of any
    (one groupby, the count :func:`hotelcheckspan.analyses.example_level.votes` makes rater by
    rater), and how many human sets have a record there.

    Columns: ``id``, one per category, ``Any``, ``raters``."""
    cats = corpus.categories
    n = len(examples)
    rec, sp = corpus.records, corpus.spans
    human_rec, human_sp = rec[rec["kind"] == "human"], sp[sp["kind"] == "human"]
    out = pd.DataFrame({"id": examples["id"].to_numpy()})
    marked = pd.DataFrame(
        {"id": _ids(human_sp, examples), "who": _who_of(human_sp, sets), "type": human_sp["type"].to_numpy()}
    ).drop_duplicates()  # a set votes once per example and type
    for cat in cats:
        out[cat] = np.bincount(marked.loc[marked["type"] == cat, "id"].to_numpy(np.int64), minlength=n)
    out[ANY] = np.bincount(marked[["id", "who"]].drop_duplicates()["id"].to_numpy(np.int64), minlength=n)
    raters = pd.DataFrame({"id": _ids(human_rec, examples), "who": _who_of(human_rec, sets)}).drop_duplicates()
    out["raters"] = np.bincount(raters["id"].to_numpy(np.int64), minlength=n)
    return out


def pairwise_f1(corpus: Corpus, examples: pd.DataFrame, sets: pd.DataFrame) -> pd.DataFrame:
    """Per example, the mean span F1 over the pairs of human sets that both have a
    record there, hard and soft, with the book's Table 6 definition; a pair counts where
    either set marked something (F1 is 0 where only one did).

    Columns: ``id, f1, f1_soft`` (NaN where no pair is defined), ``pairs`` (defined pairs)."""
    n = len(examples)
    rec, sp = corpus.records, corpus.spans
    human_rec, human_sp = rec[rec["kind"] == "human"], sp[sp["kind"] == "human"]
    who = pd.DataFrame({"id": _ids(human_rec, examples), "who": _who_of(human_rec, sets)}).drop_duplicates()
    units = who.merge(who, on="id", suffixes=("_a", "_b"))
    units = units[units["who_a"] < units["who_b"]].reset_index(drop=True)
    units["unit"] = np.arange(len(units))
    cats = corpus.categories
    spans = pd.DataFrame(
        {
            "id": _ids(human_sp, examples),
            "who": _who_of(human_sp, sets),
            "start": human_sp["start"].to_numpy(np.int64),
            "end": human_sp["end"].to_numpy(np.int64),
            "type": pd.Index(cats).get_indexer(human_sp["type"]),
        }
    )

    def side(suffix: str) -> span_f1.Side:
        s = spans.merge(units[["id", f"who{suffix}", "unit"]], left_on=["id", "who"], right_on=["id", f"who{suffix}"])
        return span_f1.Side(*(s[c].to_numpy(np.int64) for c in ("unit", "start", "end", "type")))

    ref, hyp = side("_a"), side("_b")
    out = pd.DataFrame({"id": examples["id"].to_numpy()})
    ids = units["id"].to_numpy(np.int64)
    for match, column in (("hard", "f1"), ("soft", "f1_soft")):
        counts = span_f1.count_arrays(ref, hyp, len(units), max(1, len(cats)), match, BOOK_METRIC, BOOK_CONVENTION)
        overlap, overlap_ref, hyp_len, ref_len = counts[:4, 0]
        _, _, f1 = span_f1.prf(overlap, overlap_ref, hyp_len, ref_len)
        defined = (hyp_len + ref_len) > 0
        total = np.bincount(ids[defined], weights=f1[defined], minlength=n)
        pairs = np.bincount(ids[defined], minlength=n)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[column] = np.where(pairs > 0, total / pairs, np.nan)
        out["pairs"] = pairs
    return out


# --- writing ----------------------------------------------------------------------------------


def _plain(values) -> list:
    """A column as JSON-ready Python values (NA -> None, numpy scalars -> Python)."""
    return [None if v is None or (not isinstance(v, str | list) and pd.isna(v)) else v for v in values]


def _dump(obj, path: Path) -> int:
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def _marked(corpus: Corpus, examples: pd.DataFrame, sets: pd.DataFrame) -> dict[int, list]:
    """Per example id, ``[who, mask]`` of every set or judge that marked something."""
    sp = corpus.spans
    bits = pd.DataFrame(
        {
            "id": _ids(sp, examples),
            "who": _who_of(sp, sets),
            "bit": np.left_shift(1, np.maximum(pd.Index(corpus.categories).get_indexer(sp["type"]), 0)),
        }
    ).drop_duplicates()
    masks = bits.groupby(["id", "who"], sort=True)["bit"].sum().reset_index()
    out: dict[int, list] = {}
    for i, w, m in zip(masks["id"].tolist(), masks["who"].tolist(), masks["bit"].tolist()):
        out.setdefault(i, []).append([w, m])
    return out


def _records(corpus: Corpus, examples: pd.DataFrame, sets: pd.DataFrame) -> dict[int, list]:
    """Per example id, its records as lists (``who, record_id, annotator, impression, no_errors,
    spans``), ordered by who then record; each span ``[start, end, type, reason, placed]`` and its
    text where that is not the example's text at its offsets."""
    rec = corpus.records.assign(id=_ids(corpus.records, examples), who=_who_of(corpus.records, sets))
    rec = rec.sort_values(["id", "who", "record_id"], kind="stable")
    sp = corpus.spans.sort_values(["record_id", "order"], kind="stable")
    sp = sp.merge(examples[[*KEY, "summary"]], on=KEY, how="left")
    types = pd.Index(corpus.categories).get_indexer(sp["type"])
    columns = ["start", "end", "reason", "placed", "text", "summary"]
    values = dict(zip(columns, (_plain(sp[c].astype(object)) for c in columns)))
    by_record: dict[int, list] = {}
    for i, rid in enumerate(sp["record_id"].tolist()):
        start, end, text, summary = (values[c][i] for c in ("start", "end", "text", "summary"))
        placed = values["placed"][i]
        span = [start, end, int(types[i]) if types[i] >= 0 else sp["type"].iat[i], values["reason"][i] or ""]
        span.append(None if placed is None else int(bool(placed)))
        if summary is None or start < 0 or summary[start:end] != text:
            span.append(text)
        by_record.setdefault(rid, []).append(span)
    out: dict[int, list] = {}
    fields = zip(
        rec["id"].tolist(),
        rec["who"].tolist(),
        rec["record_id"].tolist(),
        _plain(rec["annotator_id"].astype(object)),
        _plain(rec["impression"].astype(object)),
        _plain(rec["no_errors"].astype(object)),
    )
    for i, who, rid, annotator, impression, no_errors in fields:
        out.setdefault(i, []).append([who, rid, annotator, impression, no_errors, by_record.get(rid, [])])
    return out


def _sources(examples: pd.DataFrame) -> tuple[list[str], list]:
    """(each distinct source once, in first appearance; per example the number of its source)."""
    distinct: dict[str, int] = {}
    numbers = []
    for src in examples["description"]:
        numbers.append(None if src is None else distinct.setdefault(src, len(distinct)))
    return list(distinct), numbers


def _f1(value: float):
    return None if np.isnan(value) else round(float(value), DECIMALS)


def build(
    corpus: Corpus, out_dir: str | Path, name: str, label: str | None = None, chunk_size: int = CHUNK_SIZE
) -> dict:
    """Write ``corpus`` as the explorer's JSON into ``out_dir`` (created; files of an earlier
    build there are replaced) and return its sizes: ``name, examples, records, spans, chunks,
    sources, index_bytes, chunk_bytes, source_bytes`` (lists), ``total_bytes``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("chunk-*.json"), *out.glob("source-*.json")]:
        old.unlink()
    examples = example_table(corpus)
    sets = annotator_sets(corpus)
    cats = corpus.categories
    v = votes(corpus, examples, sets)
    f = pairwise_f1(corpus, examples, sets)
    marked = _marked(corpus, examples, sets)
    rec = corpus.records
    present = pd.DataFrame({"id": _ids(rec, examples), "who": _who_of(rec, sets)}).drop_duplicates()
    present = present.sort_values(["id", "who"]).groupby("id")["who"].agg(list)
    summary = examples["summary"].tolist()
    sources, source_of = _sources(examples)
    rows = []
    vote_matrix = v[[*cats, ANY]].to_numpy(np.int64).tolist()
    keys = {c: _plain(examples[c].astype(object)) for c in (*KEY, "aspect")}
    for i in range(len(examples)):
        text = summary[i]
        rows.append(
            [
                i,
                *(keys[c][i] for c in KEY),
                keys["aspect"][i],
                None if text is None else len(text),
                None if text is None else text[:SNIPPET],
                source_of[i],
                vote_matrix[i],
                int(v["raters"].iat[i]),
                _f1(f["f1"].iat[i]),
                _f1(f["f1_soft"].iat[i]),
                int(f["pairs"].iat[i]),
                present.get(i, []),
                marked.get(i, []),
            ]
        )
    records = _records(corpus, examples, sets)
    chunk_names, chunk_bytes = [], []
    for c, first in enumerate(range(0, len(examples), chunk_size)):
        part = examples.iloc[first : first + chunk_size]
        payload = {
            "chunk": c,
            "examples": [
                {"id": int(i), "text": txt, "records": records.get(int(i), [])}
                for i, txt in zip(part["id"], part["summary"])
            ],
        }
        chunk_names.append(f"chunk-{c:04d}.json")
        chunk_bytes.append(_dump(payload, out / chunk_names[-1]))
    source_names, source_bytes = [], []
    for c, first in enumerate(range(0, len(sources), SOURCE_CHUNK)):
        source_names.append(f"source-{c:04d}.json")
        source_bytes.append(_dump({"sources": sources[first : first + SOURCE_CHUNK]}, out / source_names[-1]))
    index = {
        "format": FORMAT,
        "name": name,
        "label": label or name,
        "simulated": corpus.simulated,
        "categories": cats,
        "palette": highlight_palette(cats),
        "alpha": ALPHA,
        "who": _plain_rows(sets.drop(columns="who")),
        "chunk_size": chunk_size,
        "chunks": chunk_names,
        "source_chunk": SOURCE_CHUNK,
        "sources": source_names,
        "columns": COLUMNS,
        "rows": rows,
    }
    index_bytes = _dump(index, out / INDEX)
    return {
        "name": name,
        "examples": len(examples),
        "records": len(corpus.records),
        "spans": len(corpus.spans),
        "chunks": len(chunk_names),
        "sources": len(sources),
        "index_bytes": index_bytes,
        "chunk_bytes": chunk_bytes,
        "source_bytes": source_bytes,
        "total_bytes": index_bytes + sum(chunk_bytes) + sum(source_bytes),
    }


def _plain_rows(frame: pd.DataFrame) -> list[dict]:
    cols = {c: _plain(frame[c].astype(object)) for c in frame.columns}
    return [{c: cols[c][i] for c in frame.columns} for i in range(len(frame))]


# --- every corpus the book shows --------------------------------------------------------------


def sources() -> list[dict]:
    """The corpora :func:`build_all` writes: the loaded one (``HOTELCHECKSPAN_DATA``, else the
    stand-in), then the bundled real corpora it is not; each ``{name, path, label}``."""
    loaded = paths.corpus_dir()
    if loaded.resolve() == paths.BUNDLED_CORPUS.resolve():
        first = {"name": "standin", "path": loaded, "label": "HotelCheckSpan stand-in (simulated)"}
    else:
        first = {"name": "loaded", "path": loaded, "label": f"the corpus at {loaded.name} (HOTELCHECKSPAN_DATA)"}
    out = [first]
    real = [
        ("d2t-iaa", paths.REAL_CORPUS, "LLMs as Span Annotators: d2t iaa split (real)"),
        ("d2t-test", paths.REAL_TEST_CORPUS, "LLMs as Span Annotators: d2t test split (real)"),
    ]
    for name, path, label in real:
        if path.exists() and path.resolve() != loaded.resolve():
            out.append({"name": name, "path": path, "label": label})
    return out


def fingerprint(corpora: list[dict] | None = None) -> str:
    """A key that changes when a corpus file (its path, size or modification time), this module or
    the highlight palette's (``report.py``) changes: what the book's cache of the explorer's data
    is keyed on."""
    digest = hashlib.sha256(f"format {FORMAT}\n".encode())
    for module in (Path(__file__), Path(__file__).with_name("report.py")):  # the builder and its palette
        digest.update(module.read_bytes())
    for src in corpora if corpora is not None else sources():
        root = Path(src["path"])
        digest.update(f"{src['name']}\t{src['label']}\t{root.resolve()}\n".encode())
        for p in sorted(root.rglob("*")):
            if p.is_file():
                st = p.stat()
                digest.update(f"{p.relative_to(root).as_posix()}\t{st.st_size}\t{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def build_all(out_dir: str | Path, corpora: list[dict] | None = None) -> dict:
    """Write every corpus of :func:`sources` (or ``corpora``) into ``out_dir/<name>/`` and the
    list of them into ``out_dir/corpora.json`` (``name, label, simulated, examples, index``, and
    ``index_bytes, total_bytes``: what the page says a corpus weighs);
    returns ``{name: sizes of build}``. Loading errors raise ``CorpusError`` as :func:`load` does."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    listed, sizes = [], {}
    for src in corpora if corpora is not None else sources():
        corpus = load_corpus(src["path"])
        sizes[src["name"]] = build(corpus, out / src["name"], src["name"], src["label"])
        listed.append(
            {
                "name": src["name"],
                "label": src["label"],
                "simulated": corpus.simulated,
                "examples": sizes[src["name"]]["examples"],
                "index": f"{src['name']}/{INDEX}",
                "index_bytes": sizes[src["name"]]["index_bytes"],
                "total_bytes": sizes[src["name"]]["total_bytes"],
            }
        )
    _dump({"format": FORMAT, "corpora": listed}, out / MANIFEST)
    return sizes


def publish(
    site_static: str | Path, cache: str | Path | None = None, corpora: list[dict] | None = None
) -> tuple[Path, bool]:
    """Put the explorer's data of :func:`sources` (or ``corpora``) into ``site_static`` (the
    site's ``_static/explorer``), building it only when :func:`fingerprint` changed: builds go to
    ``cache`` (default: the package's cache folder, one subfolder per key) and are copied from
    there. Returns (the folder, whether it was built)."""
    corpora = corpora if corpora is not None else sources()
    key = fingerprint(corpora)
    target = Path(site_static)
    stamp = target / "STAMP"
    if stamp.exists() and stamp.read_text(encoding="utf-8").strip() == key:
        return target, False
    folder = Path(cache) if cache is not None else paths.cache_dir() / "explorer"
    built = folder / key[:20]
    fresh = not (built / MANIFEST).exists()
    if fresh:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=folder, prefix=".building-"))
        tmp.chmod(0o755)  # mkdtemp's 0700 was copied into the site: a web server answered 403
        try:
            build_all(tmp, corpora)
            (tmp / "STAMP").write_text(key + "\n", encoding="utf-8")
            shutil.rmtree(built, ignore_errors=True)
            os.replace(tmp, built)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        for old in folder.iterdir():  # earlier keys: keep only this one
            if old != built and old.is_dir() and not old.name.startswith("."):
                shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(built, target)
    return target, fresh
