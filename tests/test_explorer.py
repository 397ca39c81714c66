"""The example explorer: its JSON (``hotelcheckspan.book.explorer``), its Sphinx extension and,
in headless Chromium, its page (``book/_static/explorer.js``).

The JSON must hold every example and every span of the corpus as the loader gives them; its
votes must equal :func:`hotelcheckspan.analyses.example_level.votes`, its pairwise span F1 the
per-pair F1 of :func:`hotelcheckspan.metrics.span_f1.span_f1` (and hand-computed values on the
toy corpus). In the browser, on a tiny page served from a temporary folder: filters change the
list, an example opens, its highlights cover exactly the characters the loader gives, reasons
are shown, a reason holding markup is shown as text, and a phone's 390 px are never exceeded.
"""

from __future__ import annotations

import dataclasses
import functools
import http.server
import importlib.util
import itertools
import json
import math
import os
import posixpath
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import test_site
from matplotlib.colors import to_rgb
from test_site import CHROMIUM, DESKTOP, PHONE, Reader, _QuietHandler

from hotelcheckspan import corpora, paths
from hotelcheckspan.analyses import example_level
from hotelcheckspan.annotator_sets import AnnotatorSet, groups_of
from hotelcheckspan.book import explorer, report
from hotelcheckspan.categories import ANY, palette
from hotelcheckspan.corpora import KEY
from hotelcheckspan.metrics import span_f1

ROOT = paths.REPO_ROOT
STATIC = ROOT / "book" / "_static"
MALICIOUS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script> & "quotes"'
ROUNDED = 0.5 * 10**-explorer.DECIMALS + 1e-12  # F1 is written to DECIMALS
chromium = test_site.browser  # the site tests' Chromium fixture, reused under this name
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine (apt-get install chromium)")


# --- reading the JSON back ------------------------------------------------------------------


def load_json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def unpack(example: dict, source, categories: list[str]) -> dict:
    """An example of a chunk as objects (the format the module's docstring gives), with its source."""
    text = example["text"]
    records = []
    for who, record_id, annotator, impression, no_errors, spans in example["records"]:
        records.append(
            {
                "who": who,
                "record_id": record_id,
                "annotator": annotator,
                "impression": impression,
                "no_errors": no_errors,
                "spans": [
                    {
                        "start": sp[0],
                        "end": sp[1],
                        "type": categories[sp[2]] if isinstance(sp[2], int) else sp[2],
                        "reason": sp[3],
                        "placed": None if sp[4] is None else bool(sp[4]),
                        "text": sp[5] if len(sp) > 5 else text[sp[0] : sp[1]],
                    }
                    for sp in spans
                ],
            }
        )
    return {"id": example["id"], "source": source, "text": text, "records": records}


def read(folder: Path) -> tuple[dict, pd.DataFrame, list[dict]]:
    """(index, its rows as a frame, every example of every chunk, unpacked, with its source)."""
    index = load_json(folder / explorer.INDEX)
    rows = pd.DataFrame(index["rows"], columns=index["columns"])
    sources = [src for name in index["sources"] for src in load_json(folder / name)["sources"]]
    examples = [e for name in index["chunks"] for e in load_json(folder / name)["examples"]]
    numbers = rows["source"].tolist()
    examples = [
        unpack(e, None if pd.isna(n) else sources[int(n)], index["categories"]) for e, n in zip(examples, numbers)
    ]
    return index, rows, examples


def spans_of(index: dict, rows: pd.DataFrame, examples: list[dict]) -> pd.DataFrame:
    """The spans of the JSON as a frame: who, record, the example's key, and the span's fields."""
    out = []
    for ex in examples:
        key = rows.loc[rows["id"] == ex["id"], KEY].iloc[0].to_dict()
        for rec in ex["records"]:
            who = index["who"][rec["who"]]
            for order, s in enumerate(rec["spans"]):
                out.append(
                    {
                        "record_id": rec["record_id"],
                        "kind": who["kind"],
                        "campaign": who["campaign"],
                        "group": who["group"],
                        "annotator_id": rec["annotator"],
                        **key,
                        "rank": order,
                        **s,
                    }
                )
    return pd.DataFrame(out)


def human_sets(corpus) -> list[AnnotatorSet]:
    human = corpus.records[corpus.records["kind"] == "human"]
    pairs = human[["campaign", "annotator_group"]].drop_duplicates()
    return [AnnotatorSet(c, int(g)) for c, g in zip(pairs["campaign"], pairs["annotator_group"])]


@pytest.fixture(scope="module")
def real():
    return corpora.load(paths.REAL_CORPUS)


@pytest.fixture(scope="module")
def real_test():
    return corpora.load(paths.REAL_TEST_CORPUS)


@pytest.fixture(scope="module")
def built(tmp_path_factory, toy, real, real_test):
    """Each corpus built once: name -> (corpus, folder, sizes)."""
    out = {}
    for name, corpus, size in (("toy", toy, 3), ("real", real, explorer.CHUNK_SIZE), ("test", real_test, 50)):
        folder = tmp_path_factory.mktemp(name)
        out[name] = corpus, folder, explorer.build(corpus, folder, name, chunk_size=size)
    return out


# --- the JSON ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["toy", "real", "test"])
def test_every_example_and_its_texts_are_written(built, name):
    corpus, folder, _ = built[name]
    index, rows, examples = read(folder)
    keys = pd.concat([corpus.examples[KEY], corpus.records[KEY]]).drop_duplicates()
    assert len(rows) == len(keys) == len(examples)
    assert rows["id"].tolist() == list(range(len(rows))) == [e["id"] for e in examples]
    merged = keys.merge(rows[KEY], on=KEY, how="outer", indicator=True)
    assert (merged["_merge"] == "both").all()
    with_text = rows.merge(corpus.examples[[*KEY, "description", "summary"]], on=KEY, how="left")
    for ex, src, txt in zip(examples, with_text["description"], with_text["summary"]):
        assert ex["source"] == (None if pd.isna(src) else src)
        assert ex["text"] == (None if pd.isna(txt) else txt)
    lengths = [r[index["columns"].index("text_length")] for r in index["rows"]]
    assert lengths == [None if pd.isna(t) else len(t) for t in with_text["summary"]]


@pytest.mark.parametrize("name", ["toy", "real", "test"])
def test_every_record_and_span_is_written_as_the_loader_gives_it(built, name):
    corpus, folder, _ = built[name]
    index, rows, examples = read(folder)
    records = [r["record_id"] for e in examples for r in e["records"]]
    assert sorted(records) == sorted(corpus.records["record_id"].tolist())
    got = spans_of(index, rows, examples).sort_values(["record_id", "rank"]).reset_index(drop=True)
    want = corpus.spans.sort_values(["record_id", "order"]).reset_index(drop=True)
    assert len(got) == len(want)
    for col in [
        "record_id",
        "kind",
        "campaign",
        "annotator_id",
        *KEY,
        "start",
        "end",
        "type",
        "text",
        "reason",
        "placed",
    ]:
        assert got[col].tolist() == want[col].tolist(), col
    human = want["kind"] == "human"
    assert got.loc[human, "group"].tolist() == want.loc[human, "annotator_group"].astype(int).tolist()
    assert got.loc[~human, "group"].isna().all()  # a judge's groups are pooled
    assert got["rank"].tolist() == want.groupby("record_id").cumcount().tolist()


@pytest.mark.parametrize("name", ["toy", "real", "test"])
def test_votes_equal_example_level_votes(built, name):
    corpus, folder, _ = built[name]
    index, rows, _ = read(folder)
    labels = [*corpus.categories, ANY]
    assert index["categories"] == corpus.categories
    ours = pd.DataFrame(rows["votes"].tolist(), columns=labels).assign(raters=rows["raters"])
    ours = pd.concat([rows[KEY], ours], axis=1)
    reference = example_level.votes(example_level.marks(corpus, human_sets(corpus)))
    merged = ours.merge(reference, on=KEY, how="left", suffixes=("", "_ref"), indicator=True)
    voted = merged["_merge"] == "both"
    assert voted.sum() == len(reference)
    for col in [*labels, "raters"]:
        assert merged.loc[voted, col].tolist() == merged.loc[voted, f"{col}_ref"].astype(int).tolist(), col
    assert (merged.loc[~voted, [*labels, "raters"]] == 0).all().all()  # no human record: no vote


def test_pairwise_f1_on_the_toy_corpus_by_hand(built):
    """Toy pairs (docstring of tests/toy.py), hard and soft F1 per pair of human sets:
    ex0: 1A-1B 1/3, 1A-2A 1, 1B-2A 1/3, and 0 for the three pairs with 2B (it marked nothing);
    ex1: only 1B-2B overlap (soft: [3,5) of 2 and 7 characters, F1 4/9), 1A-2A undefined;
    ex2: 1A-1B 0; ex3: 1A-1B hard 0, soft [12,14) of 5 and 2 characters, F1 4/7."""
    _, folder, _ = built["toy"]
    _, rows, _ = read(folder)
    rows = rows.set_index("example_idx").sort_index()
    assert rows["pairs"].tolist() == [6, 5, 1, 1]
    assert np.allclose(rows["f1"], [5 / 18, 0, 0, 0], atol=ROUNDED)
    assert np.allclose(rows["f1_soft"], [5 / 18, (4 / 9) / 5, 0, 4 / 7], atol=ROUNDED)


def test_pairwise_f1_equals_span_f1_pair_by_pair(built):
    """On the real test split, every example with two human sets: span_f1.span_f1 of the pair."""
    corpus, folder, _ = built["test"]
    _, rows, _ = read(folder)
    human = corpus.records[corpus.records["kind"] == "human"]
    sets = human.groupby(KEY)["annotator_group"].unique()
    two = sets[sets.map(len) == 2]
    assert len(two) > 400
    spans = corpus.spans[corpus.spans["kind"] == "human"]
    by_key = {k: g for k, g in spans.groupby(KEY)}
    rows = rows.set_index(KEY)
    checked = 0
    for key, groups in two.items():
        ex = pd.DataFrame([key], columns=KEY)
        sp = by_key.get(key, spans.iloc[:0])
        a, b = sp[sp["annotator_group"] == groups[0]], sp[sp["annotator_group"] == groups[1]]
        row = rows.loc[key]
        for match, col in (("hard", "f1"), ("soft", "f1_soft")):
            ref = span_f1.span_f1(
                a, b, ex, match=match, metric="char", convention="either", categories=corpus.categories
            )
            defined = int(ref["hyp_length"].iat[0] + ref["ref_length"].iat[0]) > 0
            if defined:
                assert row[col] == pytest.approx(ref["f1"].iat[0], abs=ROUNDED), (key, match)
                checked += 1
            else:
                assert pd.isna(row[col]) and row["pairs"] == 0
    assert checked > 200


def test_who_names_every_set_and_judge(built):
    corpus, folder, _ = built["real"]
    index, rows, _ = read(folder)
    who = pd.DataFrame(index["who"])
    in_order = [s.spec for c in corpus.campaigns("human") for s in groups_of(corpus, c)]  # groups in order
    assert who.loc[who["kind"] == "human", "spec"].tolist() == in_order
    assert who.loc[who["kind"] == "model", "campaign"].tolist() == corpus.campaigns("model")
    # "marked": a set or judge is listed exactly where it has a span there, with its types as bits
    marked = {(i, w): m for i, pairs in zip(rows["id"], rows["marked"]) for w, m in pairs}
    sp = corpus.spans.merge(rows[[*KEY, "id"]], on=KEY)
    want = {}
    for s in sp.itertuples():
        w = next(
            j
            for j, x in enumerate(index["who"])
            if x["campaign"] == s.campaign and (x["group"] is None or x["group"] == s.annotator_group)
        )
        want[(s.id, w)] = want.get((s.id, w), 0) | (1 << corpus.categories.index(s.type))
    assert marked == want


def test_sizes_are_the_files_on_disk(built):
    for name, (corpus, folder, sizes) in built.items():
        index, _, examples = read(folder)
        size = index["chunk_size"]
        assert sizes["examples"] == len(examples)
        assert sizes["chunks"] == math.ceil(len(examples) / size) == len(index["chunks"])
        assert sizes["records"] == len(corpus.records) and sizes["spans"] == len(corpus.spans)
        assert sizes["index_bytes"] == (folder / explorer.INDEX).stat().st_size
        assert sizes["chunk_bytes"] == [(folder / c).stat().st_size for c in index["chunks"]]
        assert sizes["source_bytes"] == [(folder / c).stat().st_size for c in index["sources"]]
        assert sizes["total_bytes"] == sum(p.stat().st_size for p in folder.glob("*.json"))
        sources = [s for name in index["sources"] for s in load_json(folder / name)["sources"]]
        assert len(sources) == len(set(sources)) == sizes["sources"]  # each distinct source once
        assert set(sources) == set(corpus.examples["description"].dropna())
        for c, chunk in enumerate(index["chunks"]):  # the page finds example i in chunk i // chunk_size
            ids = [e["id"] for e in json.loads((folder / chunk).read_text())["examples"]]
            assert ids == list(range(c * size, min((c + 1) * size, len(examples))))


def test_a_rebuild_leaves_no_stale_chunk(toy, tmp_path):
    explorer.build(toy, tmp_path, "toy", chunk_size=1)
    explorer.build(toy, tmp_path, "toy", chunk_size=3)
    assert sorted(p.name for p in tmp_path.glob("chunk-*.json")) == ["chunk-0000.json", "chunk-0001.json"]


def test_text_is_written_unescaped(toy, tmp_path):
    spans = toy.spans.copy()
    spans["reason"] = spans["reason"].astype(object)
    spans.iloc[0, spans.columns.get_loc("reason")] = MALICIOUS
    explorer.build(dataclasses.replace(toy, spans=spans), tmp_path, "toy")
    raw = (tmp_path / "chunk-0000.json").read_text(encoding="utf-8")
    assert json.dumps(MALICIOUS, ensure_ascii=False) in raw  # only JSON's own escapes: no &lt; or \u003c


def test_palette_is_the_highlights_palette(built):
    """One colour per category in the chapters' highlights and here (report.highlight_palette)."""
    for corpus, folder, _ in built.values():
        index, _, _ = read(folder)
        assert index["palette"] == report.highlight_palette(corpus.categories)
        assert list(index["palette"]) == list(palette(corpus.categories))
        assert index["alpha"] == report.ALPHA


def test_names_are_display_names_with_groups_numbered_alike(built):
    index, _, _ = read(built["test"][1])
    names = [w["name"] for w in index["who"] if w["kind"] == "human"]
    # the corpus' one human campaign's groups, by the glossary's rule; past Z every group is a number
    assert all(re.fullmatch(r"group \d+", n) for n in names), names
    assert len(set(names)) == len(names)
    toy_names = [w["name"] for w in read(built["toy"][1])[0]["who"]]
    assert toy_names == ["St. 1A", "St. 1B", "St. 2A", "St. 2B", "m1", "m2"]


def test_a_set_with_two_records_on_a_text_counts_once(built):
    """The d2t test split's group 37 annotated some texts twice: 67 sets, 68 records there."""
    corpus, folder, _ = built["test"]
    _, rows, examples = read(folder)
    human = corpus.records[corpus.records["kind"] == "human"]
    twice = human.groupby([*KEY, "annotator_group"]).size()
    twice = twice[twice > 1].reset_index()[KEY].drop_duplicates()
    assert len(twice) > 0
    for key in twice.itertuples(index=False):
        row = rows.merge(pd.DataFrame([key], columns=KEY), on=KEY).iloc[0]
        records = [r for r in examples[int(row["id"])]["records"] if r["who"] in row["sets"]]
        n_human = human.merge(pd.DataFrame([key], columns=KEY), on=KEY)
        assert row["raters"] == n_human["annotator_group"].nunique() < len(n_human)
        assert len(records) == len(n_human)


def _lab(hex_colour: str, alpha: float = 1.0) -> np.ndarray:
    """CIELAB (D65) of a colour laid at ``alpha`` over white (sRGB formulas of IEC 61966-2-1)."""
    rgb = alpha * np.array(to_rgb(hex_colour)) + (1 - alpha)
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ lin
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_lab_conversion_matches_published_values():
    assert np.allclose(_lab("#ffffff"), [100, 0, 0], atol=0.05)
    assert np.allclose(_lab("#ff0000"), [53.24, 80.09, 67.20], atol=0.1)  # sRGB red, D65
    assert np.allclose(_lab("#000000"), [0, 0, 0], atol=0.05)


@pytest.mark.parametrize("name", ["toy", "real", "test"])
def test_no_two_categories_alike_at_the_highlight_alpha(built, name):
    """Highlights are the category's colour at ``alpha`` over the page, underlined in full: every
    two categories differ by at least 10 CIELAB units (ΔE*ab) as backgrounds and 20 as underlines."""
    _, folder, _ = built[name]
    index, _, _ = read(folder)
    for (a, ca), (b, cb) in itertools.combinations(index["palette"].items(), 2):
        assert np.linalg.norm(_lab(ca, index["alpha"]) - _lab(cb, index["alpha"])) >= 10, (a, b)
        assert np.linalg.norm(_lab(ca) - _lab(cb)) >= 20, (a, b)


# --- which corpora, and the cache ---------------------------------------------------------------


def test_sources_are_the_loaded_corpus_and_the_real_ones(monkeypatch):
    monkeypatch.delenv(paths.DATA_ENV, raising=False)
    names = [s["name"] for s in explorer.sources()]
    assert names == ["standin", "d2t-iaa", "d2t-test"]
    assert "simulated" in explorer.sources()[0]["label"]
    monkeypatch.setenv(paths.DATA_ENV, str(paths.REAL_CORPUS))
    got = explorer.sources()
    assert [s["name"] for s in got] == ["loaded", "d2t-test"]  # not twice
    assert Path(got[0]["path"]) == paths.REAL_CORPUS.resolve()


def test_build_all_lists_every_corpus(toy_root, tmp_path):
    chosen = [
        {"name": "toy", "path": toy_root, "label": "the toy"},
        {"name": "iaa", "path": paths.REAL_CORPUS, "label": "real iaa"},
    ]
    sizes = explorer.build_all(tmp_path, chosen)
    manifest = json.loads((tmp_path / explorer.MANIFEST).read_text())
    assert [c["name"] for c in manifest["corpora"]] == ["toy", "iaa"] == list(sizes)
    assert [c["examples"] for c in manifest["corpora"]] == [4, 12]
    assert all((tmp_path / c["index"]).exists() for c in manifest["corpora"])
    assert [c["simulated"] for c in manifest["corpora"]] == [False, False]


def test_build_all_reports_a_broken_corpus_as_problems(tmp_path):
    bad = tmp_path / "bad"
    (bad / "annotations" / "human" / "x").mkdir(parents=True)
    (bad / "inputs.jsonl").write_text("{not json\n")
    with pytest.raises(corpora.CorpusError) as err:
        explorer.build_all(tmp_path / "out", [{"name": "bad", "path": bad, "label": "bad"}])
    assert "inputs.jsonl" in str(err.value)


def test_publish_builds_once_per_corpus_state(toy_root, tmp_path):
    root = shutil.copytree(toy_root, tmp_path / "toy")
    chosen = [{"name": "toy", "path": root, "label": "toy"}]
    site, cache = tmp_path / "site" / "_static" / "explorer", tmp_path / "cache"
    assert explorer.publish(site, cache, chosen) == (site, True)
    assert (site / "toy" / explorer.INDEX).exists()
    assert explorer.publish(site, cache, chosen) == (site, False)  # unchanged: nothing done
    shutil.rmtree(site.parent.parent)  # a clean site: copied from the cache, not built
    assert explorer.publish(site, cache, chosen) == (site, False)
    assert (site / "toy" / explorer.INDEX).exists()
    inputs = root / "inputs.jsonl"
    os.utime(inputs, ns=(inputs.stat().st_atime_ns, inputs.stat().st_mtime_ns + 10**9))
    assert explorer.publish(site, cache, chosen) == (site, True)  # a corpus file changed
    assert len([p for p in cache.iterdir() if not p.name.startswith(".")]) == 1  # the old build is gone
    assert (site / "STAMP").read_text().strip() == explorer.fingerprint(chosen)


# --- the page, the script and the extension ----------------------------------------------------


def _extension():
    spec = importlib.util.spec_from_file_location("explorer_ext", ROOT / "book" / "_ext" / "explorer.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_points_at_the_data_the_extension_writes():
    ext = _extension()
    page = (ROOT / f"{ext.PAGE}.md").read_text(encoding="utf-8")
    base = re.search(r'<div id="hcs-explorer" class="hcs-explorer" data-base="([^"]+)"', page).group(1)
    assert "```{raw} html" in page
    here = posixpath.dirname(ext.PAGE)  # the page is written to _build/html/book/explorer.html
    assert posixpath.normpath(posixpath.join(here, base)) == ext.SITE_FOLDER


def test_the_script_inserts_no_markup():
    """Data reaches the page through textContent only: no HTML parsing entry point in the script."""
    script = (STATIC / "explorer.js").read_text(encoding="utf-8")
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        assert sink not in script, sink
    for remote in re.findall(r"https?://[^\s\"'`]+", script):  # no fetch from elsewhere (a hint names localhost)
        assert remote.startswith("http://localhost:8000/"), remote


def test_the_extension_publishes_the_data_and_loads_the_script_on_its_page_only(tmp_path):
    """A minimal Sphinx build of the explorer page with the extension (no notebooks executed)."""
    src = tmp_path / "src"
    (src / "book").mkdir(parents=True)
    # the page's glossary links as their words (this build has no glossary: only the explorer's extension)
    page = (ROOT / "book" / "explorer.md").read_text(encoding="utf-8")
    words = re.sub(r"\{term\}`([^`<]+?)(?: <[^>`]+>)?`", r"\1", page)
    (src / "book" / "explorer.md").write_text(words, encoding="utf-8")
    (src / "index.md").write_text("# Index\n\n```{toctree}\nbook/explorer\n```\n")
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        'extensions = ["myst_parser", "explorer"]\n'
        f"html_static_path = [{str(STATIC)!r}]\n"
    )
    env = os.environ | {paths.CACHE_ENV: str(tmp_path / "cache")}
    env.pop(paths.DATA_ENV, None)
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", str(src), str(tmp_path / "out")]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    site = tmp_path / "out"
    manifest = json.loads((site / "_static" / "explorer" / explorer.MANIFEST).read_text())
    assert [c["name"] for c in manifest["corpora"]] == [s["name"] for s in explorer.sources()]
    page, index = (site / "book" / "explorer.html").read_text(), (site / "index.html").read_text()
    assert re.search(r'<script defer="defer" src="\.\./_static/explorer\.js', page)
    assert 'href="../_static/explorer.css' in page
    assert "explorer.js" not in index and "explorer.css" not in index
    stamp = (site / "_static" / "explorer" / "STAMP").stat().st_mtime_ns
    again = subprocess.run([c for c in cmd if c != "-q"], env=env, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "example explorer: data up to date" in again.stdout
    assert (site / "_static" / "explorer" / "STAMP").stat().st_mtime_ns == stamp


# --- in the browser -----------------------------------------------------------------------------

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><link rel="stylesheet" href="explorer.css"><title>explorer</title></head>
<body style="margin: 0 1rem; font-family: sans-serif">
<div id="hcs-explorer" class="hcs-explorer" data-base="data/"></div>
<script src="explorer.js"></script>
</body></html>
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory, toy_root):
    """A tiny page with the explorer's script and the data of the toy corpus (one reason holding
    markup) and of the real iaa corpus; returns (folder, {name: corpus})."""
    folder = tmp_path_factory.mktemp("explorer-site")
    toy = shutil.copytree(toy_root, folder / "corpus-toy")
    m1 = toy / "annotations" / "model" / "m1" / "annotations.jsonl"
    m1.write_text(m1.read_text().replace('"r1"', json.dumps(MALICIOUS)))
    chosen = [
        {"name": "toy", "path": toy, "label": "the toy corpus"},
        {"name": "iaa", "path": paths.REAL_CORPUS, "label": "real iaa"},
        {"name": "test", "path": paths.REAL_TEST_CORPUS, "label": "real test"},
    ]
    explorer.build_all(folder / "data", chosen)
    for name in ("explorer.js", "explorer.css"):
        shutil.copy(STATIC / name, folder / name)
    (folder / "index.html").write_text(PAGE)
    return folder, {c["name"]: corpora.load(c["path"]) for c in chosen}


@pytest.fixture(scope="module")
def server(site):
    handler = functools.partial(_QuietHandler, directory=str(site[0]))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


def listed(page) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all(".hx-open", "els => els.map(e => e.dataset.id)")]


def ids_of(corpus, keys: pd.DataFrame) -> list[int]:
    """Explorer ids of example keys (the explorer lists the corpus' texts in its order)."""
    order = explorer.example_table(corpus)[[*KEY, "id"]]
    return sorted(order.merge(keys[KEY].drop_duplicates(), on=KEY)["id"].tolist())


def width(page) -> int:
    return page.evaluate("Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")


def start(chromium, server, viewport, corpus="toy"):
    reader = Reader(chromium, server, viewport)
    page = reader.open(f"index.html#corpus={corpus}")
    page.wait_for_selector(".hx-open")
    page.evaluate("document.querySelector('.hx-filters').open = true")
    return reader, page


@needs_chromium
def test_filters_change_the_list(site, server, chromium):
    corpus = site[1]["toy"]
    reader, page = start(chromium, server, PHONE)
    assert page.eval_on_selector_all(".hx-corpus option", "os => os.map(o => o.value)") == ["toy", "iaa", "test"]
    assert listed(page) == [0, 1, 2, 3]
    sp = corpus.spans
    page.select_option(".hx-type", label="Misleading")
    assert listed(page) == ids_of(corpus, sp[sp["type"] == "Misleading"])
    page.select_option(".hx-type", label="any type")
    page.select_option(".hx-who", label="m2")  # annotated every example
    assert listed(page) == ids_of(corpus, corpus.records[corpus.records["campaign"] == "m2"])
    page.select_option(".hx-type", label="Not Checkable")  # m2 marked one
    assert listed(page) == ids_of(corpus, sp[(sp["campaign"] == "m2") & (sp["type"] == "Not Checkable")])
    page.select_option(".hx-type", label="any type")
    page.select_option(".hx-who", label="anyone")
    votes = example_level.votes(example_level.marks(corpus, human_sets(corpus)))
    page.fill(".hx-min-votes", "2")
    assert listed(page) == ids_of(corpus, votes[votes[ANY] >= 2])
    page.fill(".hx-min-votes", "0")
    page.check(".hx-split")
    assert listed(page) == ids_of(corpus, votes[(votes[ANY] > 0) & (votes[ANY] < votes["raters"])])
    page.uncheck(".hx-split")
    page.eval_on_selector(".hx-max-f1", "e => { e.value = '0.2'; e.dispatchEvent(new Event('input')); }")
    assert listed(page) == [1, 2, 3]  # example 0's F1 is 5/18 (test_pairwise_f1_on_the_toy_corpus_by_hand)
    page.eval_on_selector(".hx-max-f1", "e => { e.value = '1'; e.dispatchEvent(new Event('input')); }")
    page.select_option(".hx-sort", "f1-low")
    assert listed(page)[-1] == 0  # the highest F1 last
    assert reader.problems("filters") == []
    reader.close()


def _rows_in_dom(page) -> list[dict]:
    return page.eval_on_selector_all(
        ".hx-example .hx-row",
        """rows => rows.map(r => ({
            record: Number(r.dataset.record),
            marks: [...r.querySelectorAll('mark')].map(m => [m.dataset.spans.split(' ').map(Number), m.textContent]),
            texts: [...r.querySelectorAll('.hx-span-text')].map(e => e.textContent),
            reasons: [...r.querySelectorAll('.hx-reason')].map(e => e.textContent),
        }))""",
    )


def _check_highlights(page, corpus, example_id):
    """Every record's highlights cover text[start:end] as the loader gives start and end."""
    table = explorer.example_table(corpus)
    key = table.loc[example_id, KEY].to_dict()
    text = table.loc[example_id, "summary"]
    mask = np.logical_and.reduce([corpus.spans[k] == v for k, v in key.items()])
    spans = corpus.spans[mask]
    records = corpus.records[np.logical_and.reduce([corpus.records[k] == v for k, v in key.items()])]
    rows = _rows_in_dom(page)
    assert sorted(r["record"] for r in rows) == sorted(records["record_id"])
    checked = 0
    for row in rows:
        mine = spans[spans["record_id"] == row["record"]].sort_values("order")
        assert row["texts"] == mine["text"].tolist()
        assert row["reasons"] == [r if r else "no reason given" for r in mine["reason"]]
        for i, (start, end) in enumerate(zip(mine["start"], mine["end"])):
            shown = "".join(t for covering, t in row["marks"] if i in covering)
            assert shown == text[max(0, start) : max(0, min(end, len(text)))], (row["record"], i)
            checked += 1
    return checked


@needs_chromium
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_an_example_opens_with_its_spans_where_the_loader_puts_them(site, server, chromium, viewport):
    reader, page = start(chromium, server, viewport)
    page.click('.hx-open[data-id="0"]')
    page.wait_for_selector(".hx-example .hx-row")
    assert "example=0" in page.url
    assert _check_highlights(page, site[1]["toy"], 0) == 6  # ex0's spans: 4 human, 2 judges'
    reasons = page.locator(".hx-example .hx-reason")
    assert reasons.count() == 6 and all(reasons.nth(i).is_visible() for i in range(6))
    assert page.locator(".hx-source pre").text_content() == "one two <three>"  # the source, as text
    page.click(".hx-back")
    page.wait_for_selector(".hx-open")
    assert page.locator(".hx-example").is_hidden()
    # the real corpus: the example with most spans, overlapping ones included
    corpus = site[1]["iaa"]
    table = explorer.example_table(corpus)
    busiest = int(table.merge(corpus.spans.groupby(KEY).size().rename("n").reset_index(), on=KEY)["n"].idxmax())
    page.goto(server + f"index.html#corpus=iaa&example={busiest}")
    page.wait_for_selector(".hx-example .hx-row")
    assert _check_highlights(page, corpus, busiest) == int(
        corpus.spans.merge(table.loc[[busiest], KEY], on=KEY).shape[0]
    )
    page.click(".hx-source summary")
    assert page.locator(".hx-source pre").is_visible()
    assert width(page) <= viewport["width"]
    assert reader.problems("example") == []
    reader.close()


@needs_chromium
def test_a_reason_holding_markup_is_shown_as_text(site, server, chromium):
    reader, page = start(chromium, server, PHONE)
    page.click('.hx-open[data-id="1"]')  # toy example 1: m1's span, whose reason is the markup
    page.wait_for_selector(".hx-example .hx-row")
    reasons = page.eval_on_selector_all(".hx-reason", "els => els.map(e => e.textContent)")
    assert MALICIOUS in reasons
    assert page.locator(".hcs-explorer img, .hcs-explorer script").count() == 0
    assert page.evaluate("window.__xss") is None
    titles = page.eval_on_selector_all("mark", "ms => ms.map(m => m.title)")
    assert any(MALICIOUS in t for t in titles)  # the tooltip too, as text
    assert reader.problems("markup") == []
    reader.close()


@needs_chromium
def test_the_page_fits_a_phone(site, server, chromium):
    reader, page = start(chromium, server, PHONE, corpus="iaa")
    assert width(page) <= PHONE["width"]
    for i in range(3):
        page.click(f'.hx-open[data-id="{i}"]')
        page.wait_for_selector(".hx-example .hx-row")
        page.click(".hx-source summary")
        assert width(page) <= PHONE["width"], i
        page.click(".hx-back")
        page.wait_for_selector(".hx-open")
    assert reader.problems("phone") == []
    reader.close()


@needs_chromium
def test_from_disk_the_page_says_how_to_serve_it(site, chromium):
    """Chromium blocks fetch() on file:// pages; the explorer says so instead of failing silently."""
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto((site[0] / "index.html").as_uri())
    page.wait_for_selector(".hx-status.hx-error")
    assert "http.server" in page.text_content(".hx-status")
    context.close()


@needs_chromium
def test_counts_have_thousands_separators_and_sets_are_told_from_records(site, server, chromium):
    """The d2t test split: 1,207 examples; where a set annotated a text twice, the heading counts
    sets and records apart, as the vote summary counts sets."""
    corpus = site[1]["test"]
    reader, page = start(chromium, server, PHONE, corpus="test")
    n = len(explorer.example_table(corpus))
    assert n >= 1000
    label = page.text_content(".hx-corpus-label")
    assert f"{n:,} examples" in label and "The list weighs" in label
    assert page.text_content(".hx-count") == f"{n:,} of {n:,} examples"
    human = corpus.records[corpus.records["kind"] == "human"]
    per = human.groupby(KEY).agg(records=("record_id", "size"), sets=("annotator_group", "nunique"))
    key, counts = next((k, c) for k, c in per.iterrows() if c["records"] > c["sets"])
    example_id = ids_of(corpus, pd.DataFrame([key], columns=KEY))[0]
    page.goto(server + f"index.html#corpus=test&example={example_id}")
    page.wait_for_selector(".hx-example .hx-rows h3")  # its records may be collapsed (a text-less example)
    heading = page.text_content(".hx-example .hx-rows h3")
    assert heading == f"Human sets ({counts['sets']} sets, {counts['records']} records)"
    assert f"of {counts['sets']} sets" in page.text_content(".hx-stats")
    assert reader.problems("counts") == []
    reader.close()


@needs_chromium
def test_textless_examples_come_last_and_open_collapsed(site, server, chromium):
    """Issue 36, the d2t test split: records of a text the corpus lacks list after every example
    with a text, whatever the order chosen (sorted by votes they came first), and such an example
    opens with its records' offsets collapsed (it made a page of 46,615 px)."""
    corpus = site[1]["test"]
    table = explorer.example_table(corpus)
    textless = set(table.loc[table["summary"].isna(), "id"])
    assert textless, "the test split has records without a text"
    reader, page = start(chromium, server, PHONE, corpus="test")
    n = len(table)
    for order in ("votes", "judges", "f1-low", "order"):
        page.select_option(".hx-sort", order)
        assert not textless & set(listed(page)), f"sorted by {order}, a text-less example is on the first page"
    page.select_option(".hx-sort", "votes")
    seen = listed(page)
    while page.locator(".hx-next").is_enabled():
        page.click(".hx-next")
        seen += listed(page)
    assert len(seen) == n and set(seen[-len(textless) :]) == textless
    page.click(f'.hx-open[data-id="{seen[-1]}"]')
    page.wait_for_selector(".hx-example .hx-rows")
    assert page.locator(".hx-example details.hx-collapsed").count() >= 1
    assert page.eval_on_selector_all(".hx-example details.hx-collapsed", "ds => ds.every(d => !d.open)")
    assert not page.locator(".hx-example .hx-row").first.is_visible()
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 3 * PHONE["height"], f"a text-less example opens {height} px tall"
    assert reader.problems("textless") == []
    reader.close()


@needs_chromium
def test_controls_are_touch_sized_on_a_phone(site, server, chromium):
    """Issue 36: on a phone every control a finger hits is at least 44 px high (selects were 21 px,
    the checkbox 13 px); the checkbox is a 24 px box in a 44 px row; the list's chips and facts are
    at least 12 px (they were 10-11 px)."""
    reader, page = start(chromium, server, PHONE, corpus="iaa")
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.hcs-explorer select, .hcs-explorer input, .hcs-explorer button,'
            + ' .hcs-explorer summary')].filter(e => e.getBoundingClientRect().width > 0)
          .map(e => [e.tagName + (e.type ? ':' + e.type : '') + '.' + e.className, e.getBoundingClientRect().height,
                     e.closest('label') ? e.closest('label').getBoundingClientRect().height : null])"""
    )
    assert len(sizes) >= 8
    for what, height, row in sizes:
        if what.startswith("INPUT:checkbox"):
            assert height >= 24 and row >= 44, (what, height, row)
        else:
            assert height >= 44, (what, height)
    fonts = page.eval_on_selector_all(
        ".hx-chip, .hx-fact", "es => es.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert fonts and min(fonts) >= 12, min(fonts)
    assert reader.problems("touch") == []
    reader.close()


@needs_chromium
def test_every_fold_shows_its_mark_and_each_text_names_who_wrote_it(site, server, chromium):
    """Issue 45, on a phone: "Sort and filter" and "Source" are flex rows there, which lose the
    browser's disclosure triangle; each fold draws its own, closed and open. Each text's heading
    names the system that wrote it as such ("written by gemini-1.5-flash"), not as a bare name
    beside the judges."""
    corpus = site[1]["toy"]
    reader = Reader(chromium, server, PHONE)
    page = reader.open("index.html#corpus=toy")
    page.wait_for_selector(".hx-open")
    marks = """() => [...document.querySelectorAll('.hcs-explorer summary')]
      .filter(s => s.getBoundingClientRect().width > 0)
      .map(s => [s.innerText.trim().slice(0, 20), s.parentElement.open, getComputedStyle(s).display,
                 getComputedStyle(s, '::before').content])"""
    found = []
    for view in ("the list", "an example"):
        if view == "an example":
            page.click('.hx-open[data-id="0"]')
            page.wait_for_selector(".hx-example .hx-row")
        for flip in (False, True):
            if flip:
                page.eval_on_selector_all(".hcs-explorer details", "ds => ds.forEach(d => { d.open = !d.open; })")
            found += page.evaluate(marks)
    assert {text for text, *_ in found} >= {"Sort and filter", "Source (the input th"}
    for text, is_open, display, before in found:
        native = display == "list-item"
        drawn = before == ('"\u25be"' if is_open else '"\u25b8"')
        assert native or drawn, f"the fold {text!r} ({'open' if is_open else 'closed'}) shows no disclosure mark"
    table = explorer.example_table(corpus)
    heading = page.text_content(".hx-example .hx-title")
    assert heading.endswith(f" · written by {table.loc[0, 'setup_id']}"), heading
    keys = page.eval_on_selector_all(".hx-key", "els => els.map(e => e.textContent)")
    assert all(" · written by " in k for k in keys) and keys
    assert reader.problems("folds") == []
    reader.close()


@needs_chromium
def test_the_explorer_by_keyboard_alone(site, server, chromium):
    """Issue 46: with the keyboard alone a reader changes the corpus, opens "Sort and filter",
    opens an example and its source, and goes back to the list; every control shows its focus."""
    reader = Reader(chromium, server, DESKTOP)
    page = reader.open("index.html#corpus=toy")
    page.wait_for_selector(".hx-open")
    seen = test_site.tab_to(page, ".hx-corpus")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => location.hash.includes('corpus=iaa')")
    page.wait_for_selector(".hx-open")
    seen += test_site.tab_to(page, ".hx-filters > summary")
    was = page.evaluate("() => document.querySelector('.hx-filters').open")  # open on a wide screen
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.querySelector('.hx-filters').open") != was
    seen += test_site.tab_to(page, ".hx-open")
    page.keyboard.press("Enter")
    page.wait_for_selector(".hx-example .hx-row")
    seen += test_site.tab_to(page, ".hx-source > summary")
    page.keyboard.press("Enter")
    assert page.locator(".hx-source pre").is_visible()
    for _ in range(30):  # back up to "back to the list", above the source
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.matches('.hx-back')"):
            break
    page.keyboard.press("Enter")
    page.wait_for_selector(".hx-open")
    assert page.locator(".hx-example").is_hidden()
    assert test_site.no_ring(seen) == []
    assert reader.problems("keyboard") == []
    reader.close()
