"""The bundled stand-in corpus: a seeded simulation with the real corpus' shape.

The human annotations of HotelCheckSpan are gated, so the book runs on this simulation by
default. It is built in three steps (``data/README.md`` documents each):

1. **Hotels and texts** (:mod:`.texts`): facts, 1-4 source descriptions, the paper's
   de-duplication (:mod:`.dedup`); the split is by description length.
2. **Summaries with planted claims** (:mod:`.summaries`): one sentence on one aspect, built from
   claims that are *supported*, *Not Checkable*, *Misleading* or *Incorrect* with respect to the
   description.
3. **Simulated annotators** (:mod:`.annotators`): span counts are *set* from the paper's
   Tables 3 and 4 (and LLM flagged records from Table 3's spans per error record); the human
   process's eight parameters are *calibrated* (:mod:`.calibration`) to the paper's human-human
   agreement (Tables 5 and 6, the mean human span length); figures a hand-set constant was
   chosen against (the human type shares of Table 2 through the confusion rows, the LLMs' span
   lengths, Table 7's cluster sizes through the claim families' weights) and the LLMs' agreement
   with the human majority are *tuned*; figures that are functions of those are *derived*;
   everything else (human-LLM span agreement, impression statistics) is *emergent*. The label of
   each figure is given by :mod:`hotelcheckspan.reference.provenance`, which lists every constant
   of this package under ``constants``. :mod:`.writer` writes the factgenie layout.

``generate(out_dir)`` is byte-identical for a given seed.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from .. import corpora
from ..analyses import dataset_level
from ..corpora.reader import NO_ERROR_LABELS
from ..reference.paper import LLM_CAMPAIGNS as PAPER_LLM_CAMPAIGNS
from ..reference.paper import figures
from . import calibration
from .annotators import HUMAN, HUMAN_TABLE4, PAPER_NAME, HumanProcess, annotate
from .summaries import build_examples
from .writer import write

SEED = 1  # the texts: the first seed from 0 up whose corpus met every bound of marginal_checks (data/README.md)
DRAW = 16  # the annotations: the first draw meeting every bound of checks() (choose_draw, data/README.md)


def generate(
    out_dir: Path | str, seed: int = SEED, process: HumanProcess = HUMAN, draw: int = DRAW, examples: list | None = None
) -> Path:
    """Write the stand-in corpus in factgenie layout to ``out_dir``; deterministic for a seed.

    The texts come from the stream ``default_rng(seed)``, the annotations from streams rooted
    at ``(seed, draw)`` (:func:`.annotators.annotate`), so changing the annotation process or draw leaves every text
    unchanged (``examples`` passes texts already built from ``seed``)."""
    out = Path(out_dir)
    paper = figures()
    if examples is None:
        examples = build_examples(np.random.default_rng(seed), paper)
    records = annotate(examples, paper, (seed, draw), process)
    write(out, examples, records, NO_ERROR_LABELS)
    return out


def checks(corpus) -> pd.DataFrame:
    """Every bound the bundled corpus must meet: :func:`marginal_checks` and the calibration
    targets within their tolerance (columns as :func:`marginal_checks`)."""
    m = calibration.targeted(calibration.measure(corpus))
    tol = calibration.TOLERANCE
    agreement = pd.DataFrame(
        {
            "marginal": m["figure"],
            "paper": m["paper"],
            "corpus": m["ours"].round(3),
            "low": m["paper"] - tol,
            "high": m["paper"] + tol,
        }
    )
    agreement["ok"] = (agreement["corpus"] - agreement["paper"]).abs() <= tol
    return pd.concat([marginal_checks(corpus), agreement], ignore_index=True)


def choose_draw(seed: int = SEED, process: HumanProcess = HUMAN, draws=range(1, 201), log=None) -> int:
    """The first annotation draw whose corpus meets every bound of :func:`checks`.

    The process is calibrated in expectation; a single draw of 245 examples scatters around it
    (a Table 5 distribution by about 0.05 of TVD even with a perfect process), so among draws
    this takes the first that lands within every bound. The texts are fixed; each draw is first
    screened on the calibration targets, which need only the human campaigns on the stage-2
    examples (their random streams are those of the whole corpus), then checked whole."""
    paper = figures()
    examples = build_examples(np.random.default_rng(seed), paper)
    with tempfile.TemporaryDirectory() as tmp:
        for draw in draws:
            screen = calibration.targeted(
                calibration.measure(
                    calibration.frames(annotate(examples, paper, (seed, draw), process, parts=(True,), llms=False))
                )
            )
            missed = screen.loc[(screen["ours"] - screen["paper"]).abs() > calibration.TOLERANCE, "figure"]
            if len(missed):
                if log:
                    log(f"draw {draw}: screened out ({', '.join(missed)})")
                continue
            generate(Path(tmp) / str(draw), seed, process, draw, examples)
            result = checks(corpora.load(Path(tmp) / str(draw)))
            if log:
                log(
                    f"draw {draw}: {int((~result['ok']).sum())} bound(s) missed "
                    + ", ".join(result.loc[~result["ok"], "marginal"])
                )
            if result["ok"].all():
                return draw
    raise RuntimeError(f"no draw in {draws} meets every bound")


# --- how the result compares with the paper's marginals -------------------------------------


def marginal_checks(corpus, paper: dict | None = None):
    """Each marginal the stand-in is set from: a frame with the paper's value, ours, the allowed
    band and a verdict (columns ``marginal, paper, corpus, low, high, ok``)."""
    paper = paper or figures()
    rows = []

    def add(what, paper_value, value, lo, hi):
        rows.append(
            {
                "marginal": what,
                "paper": paper_value,
                "corpus": value,
                "low": lo,
                "high": hi,
                "ok": bool(lo <= value <= hi),
            }
        )

    ov = dataset_level.overview(corpus)
    add(
        "human spans",
        paper["dataset"]["human_spans"],
        ov["spans"],
        0.9 * paper["dataset"]["human_spans"],
        1.1 * paper["dataset"]["human_spans"],
    )
    human_records = paper["dataset"]["human_records"]
    add("human records", human_records, ov["records"], human_records, human_records)
    for row in dataset_level.type_distribution(corpus).itertuples():
        ref = paper["table2_human_span_types"][row.type]["pct"]
        add(f"human share {row.type} (%)", ref, round(row.pct, 1), ref - 5, ref + 5)
    full = dataset_level.campaign_table(corpus).set_index("campaign")
    for folder, name in PAPER_NAME.items():
        ref = paper["table3_llm_campaigns"][name]["total"]
        value = int(full.loc[folder, "spans"]) if folder in full.index else 0
        lo, hi = (0, 10) if folder.startswith("o3") else (0.9 * ref, 1.1 * ref)
        add(f"{name} spans, all examples", ref, value, lo, hi)
    recs = corpus.records
    for folder, name in PAPER_NAME.items():
        ref = paper["table3_llm_campaigns"][name]["spans_per_error_record"]
        mine = recs.loc[recs["campaign"] == folder, "n_spans"]
        value = round(float(mine.sum() / max(1, (mine > 0).sum())), 2)
        lo, hi = (1, 2) if folder.startswith("o3") else (ref - 0.1, ref + 0.1)
        add(f"{name} spans per error record", ref, value, lo, hi)
    sub = dataset_level.campaign_table(corpus, dataset_level.stage2_examples(corpus), by_group=True).set_index("name")
    for name in list(HUMAN_TABLE4.values()) + ["gemma-3", "gpt-4o", "gpt-4o (LS)"]:
        folder = PAPER_LLM_CAMPAIGNS.get(name, name)
        ref = paper["table4_dataset_level_stage2_subset"][name]["total"]
        value = int(sub.loc[folder, "spans"]) if folder in sub.index else 0
        add(f"{name} spans, stage-2 examples", ref, value, 0.85 * ref, 1.15 * ref)
    ex = corpus.examples
    d = paper["dataset"]
    add("examples", d["examples"], len(ex), d["examples"], d["examples"])
    add(
        "stage-2 examples",
        paper["campaigns"]["stage2"]["examples"],
        len(dataset_level.stage2_examples(corpus)),
        paper["campaigns"]["stage2"]["examples"],
        paper["campaigns"]["stage2"]["examples"],
    )
    dw = d["description_words"]
    add(
        "description words, mean",
        dw["mean"],
        round(float(ex["description_words"].mean()), 1),
        0.9 * dw["mean"],
        1.1 * dw["mean"],
    )
    add("description words, min", dw["min"], int(ex["description_words"].min()), dw["min"], dw["max"])
    add("description words, max", dw["max"], int(ex["description_words"].max()), dw["min"], dw["max"])
    sw = d["summary_words"]
    add("summary words, mean", sw["mean"], round(float(ex["summary_words"].mean()), 2), sw["mean"] - 1, sw["mean"] + 1)
    add("summary words, min", sw["min"], int(ex["summary_words"].min()), sw["min"], sw["max"])
    add("summary words, max", sw["max"], int(ex["summary_words"].max()), sw["min"], sw["max"])
    add("span words, mean", d["span_words"]["mean"], round(ov["span_words_mean"], 2), 3, 5)
    add("span words, median", d["span_words"]["median"], ov["span_words_median"], 3, 3)
    return pd.DataFrame(rows)
