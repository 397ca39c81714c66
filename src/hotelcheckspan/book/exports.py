"""Paper-ready exports: every reproduced table as LaTeX (booktabs) and CSV, every figure as PDF and PNG.

Each export calls the same package functions as the chapter that shows it, on the active corpus
(``$HOTELCHECKSPAN_DATA`` or the bundled stand-in), and its caption says which corpus that was::

    python -m hotelcheckspan.book.exports OUT        # make exports: OUT = _build/exports

writes ``OUT/<name>.tex`` and ``OUT/<name>.csv`` per table, ``OUT/<name>.pdf`` and
``OUT/<name>.png`` per figure, and ``OUT/index.csv`` (name, kind, chapter, caption, files).
A LaTeX table needs ``\\usepackage{booktabs}`` in the paper's preamble.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd

import hotelcheckspan
from hotelcheckspan.analyses import clusters, dataset_level, example_level, impressions, span_level
from hotelcheckspan.analyses import judges as judges_analysis
from hotelcheckspan.annotator_sets import HUMAN_SETS, judges
from hotelcheckspan.book import plots
from hotelcheckspan.corpora import CorpusError
from hotelcheckspan.reference import paper


class Inputs:
    """What several exports share, computed once and only when an export asks for it; the
    corpus is the active one unless one is given."""

    def __init__(self, corpus=None):
        if corpus is not None:
            self.corpus = corpus  # fills the cached property

    @cached_property
    def corpus(self):
        return hotelcheckspan.load()

    @cached_property
    def reported(self) -> dict:
        return paper.figures()

    @cached_property
    def stage2(self) -> pd.DataFrame:
        return dataset_level.stage2_examples(self.corpus)

    @cached_property
    def pairs(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return span_level.pairwise(self.corpus)

    @cached_property
    def majority_alignment(self) -> pd.DataFrame:
        """Every judge against the clear human majority (chapter 03's table and figure)."""
        return example_level.models_vs_majority(
            self.corpus, judges(self.corpus), examples=self.stage2, n_boot=1000, seed=0
        )

    @cached_property
    def error_spans(self) -> pd.DataFrame:
        return clusters.human_spans(self.corpus)

    @cached_property
    def embeddings(self) -> np.ndarray:
        return clusters.embed(list(self.error_spans["clean"]))

    @cached_property
    def curve(self) -> pd.DataFrame:
        return clusters.silhouette_curve(self.embeddings)

    @cached_property
    def k(self) -> int:
        return clusters.best_k(self.curve)

    @cached_property
    def clustering(self) -> tuple[np.ndarray, np.ndarray]:
        return clusters.cluster(self.embeddings, self.k)

    @cached_property
    def cluster_overview(self) -> pd.DataFrame:
        labels, centers = self.clustering
        return clusters.overview(self.error_spans, self.embeddings, labels, centers)

    @cached_property
    def ratings(self) -> pd.DataFrame:
        return impressions.ratings(self.corpus)


@dataclass(frozen=True)
class Export:
    """One table or figure of the paper, reproduced.

    ``chapter`` is the notebook that shows it; ``shown_by`` the call in that chapter whose cell
    output is the table or figure (the tests compare a table's numbers with it; the site links the
    export's files under that output, book/_ext/exports_links.py); ``digits`` the decimals of the
    table's floats (as the chapter rounds them).
    """

    name: str
    kind: str  # "table" or "figure"
    chapter: str
    caption: str
    make: Callable[[Inputs], object]
    shown_by: str | None = None
    digits: int = 2


def _table6(i: Inputs) -> pd.DataFrame:
    pairs, counts = i.pairs
    return span_level.versus_table6(span_level.table6(pairs, counts, n_boot=1000, seed=0), i.reported)


def _cluster_map(i: Inputs):
    labels, _ = i.clustering
    return plots.cluster_map(
        clusters.map_2d(i.embeddings), labels, i.error_spans["type"].to_numpy(), i.cluster_overview["label"].tolist()
    )


EXPORTS: list[Export] = [
    Export(
        "table2_human_span_types",
        "table",
        "01_data_composition",
        "Human spans per error type (Table 2).",
        lambda i: dataset_level.type_distribution(i.corpus, "human"),
        digits=1,
    ),
    Export(
        "table3_llm_campaigns",
        "table",
        "02_dataset_level_agreement",
        "LLM annotation campaigns on all examples, beside the paper (Table 3).",
        lambda i: dataset_level.table3(i.corpus, i.reported, paper.LLM_CAMPAIGNS),
        shown_by="dataset_level.table3(",
    ),
    Export(
        "table4_stage2_subset",
        "table",
        "02_dataset_level_agreement",
        "Every campaign on the stage-2 examples, beside the paper (Table 4).",
        lambda i: dataset_level.table4(i.corpus, i.reported, paper.LLM_CAMPAIGNS),
        shown_by="dataset_level.table4(",
    ),
    Export(
        "table5_example_level_votes",
        "table",
        "03_example_level_agreement",
        "Examples by number of annotators voting error, per type (Table 5).",
        lambda i: example_level.vote_table(example_level.votes(example_level.marks(i.corpus, HUMAN_SETS, i.stage2))),
        digits=1,
        shown_by="example_level.vote_table(",
    ),
    Export(
        "table5_llm_majority",
        "table",
        "03_example_level_agreement",
        "Every LLM judge against the clear human majority: recall, balanced accuracy and raw agreement per "
        "error type and for any error, with 95% intervals (Section 6.2, on Table 5's examples).",
        lambda i: example_level.alignment_summary(i.majority_alignment),
        shown_by="example_level.alignment_summary(",
    ),
    Export(
        "table6_span_level",
        "table",
        "04_span_level_agreement",
        "Span-level precision, recall and F1, hard (H) and soft (S), beside the paper (Table 6).",
        _table6,
        shown_by="span_level.versus_table6(",
    ),
    Export(
        "table7_clusters",
        "table",
        "06_error_clusters",
        "Clusters of human error spans (Table 7).",
        lambda i: i.cluster_overview,
        shown_by="clusters.overview(",
        digits=1,
    ),
    Export(
        "table_judge_leaderboard",
        "table",
        "10_evaluate_your_judge",
        "Every LLM judge ranked by span F1, soft against the human sets, with span F1, hard, balanced "
        "accuracy against their majority, 95% intervals, the human-human ceiling (last row) and the examples "
        "needed to order each judge and the next.",
        lambda i: judges_analysis.readable(judges_analysis.leaderboard(i.corpus)),
        shown_by="judges.leaderboard(",
    ),
    Export(
        "figure_lengths",
        "figure",
        "01_data_composition",
        "Description and summary lengths.",
        lambda i: plots.length_distributions(i.corpus.examples),
        shown_by="plots.length_distributions(",
    ),
    Export(
        "figure_span_lengths",
        "figure",
        "01_data_composition",
        "Span lengths, humans and each LLM.",
        lambda i: plots.span_lengths(i.corpus.spans),
        shown_by="plots.span_lengths(",
    ),
    Export(
        "figure_type_shares",
        "figure",
        "02_dataset_level_agreement",
        "Error types per campaign (stage-2 examples).",
        lambda i: plots.type_shares(dataset_level.campaign_table(i.corpus, i.stage2, by_group=True)),
        shown_by="plots.type_shares(",
    ),
    Export(
        "figure_paradox",
        "figure",
        "03_example_level_agreement",
        "Raw agreement against balanced accuracy per LLM.",
        lambda i: plots.paradox(i.majority_alignment),
        shown_by="plots.paradox(",
    ),
    Export(
        "figure_pair_spread",
        "figure",
        "04_span_level_agreement",
        "Per-pair span F1 behind Table 6.",
        lambda i: plots.pair_spread(i.pairs[0], i.reported["table6_span_level"]),
        shown_by="plots.pair_spread(",
    ),
    Export(
        "figure_silhouette",
        "figure",
        "06_error_clusters",
        "Silhouette over the number of clusters.",
        lambda i: plots.silhouette(i.curve, i.k, i.reported["clustering"]["k_chosen"]),
        shown_by="plots.silhouette(",
    ),
    Export(
        "figure_cluster_map",
        "figure",
        "06_error_clusters",
        "Human error spans in two dimensions, by cluster.",
        _cluster_map,
        shown_by="plots.cluster_map(",
    ),
    Export(
        "figure_impression_by_count",
        "figure",
        "07_impressions",
        "Mean impression per number of errors.",
        lambda i: plots.impression_by_count(
            impressions.by_count(i.ratings),
            {"0": i.reported["impressions"]["mean_no_error"]},
            paper_with_error=i.reported["impressions"]["mean_with_error"],
        ),
        shown_by="plots.impression_by_count(",
    ),
]


# pandas escapes the cells and headers (Styler ``escape="latex"``) but not the caption
LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def escape_latex(text: str) -> str:
    return "".join(LATEX_SPECIALS.get(c, c) for c in text)


def corpus_note(corpus) -> str:
    """What the caption says about the data the numbers come from."""
    if corpus.simulated:
        return "Computed on the simulated stand-in corpus of the compendium, not on the paper's data."
    return f"Computed on the corpus {corpus.root.name}."


def _column_format(frame: pd.DataFrame) -> str:
    """Right-aligned numbers, left-aligned short text, wrapped paragraphs for long text."""
    out = []
    for col in frame.columns:
        values = frame[col].dropna()
        if pd.api.types.is_numeric_dtype(frame[col]) and not pd.api.types.is_bool_dtype(frame[col]):
            out.append("r")
        elif len(values) and values.astype(str).str.len().max() > 40:
            out.append("p{5.5cm}")
        else:
            out.append("l")
    return "".join(out)


def decimals(values: pd.Series, digits: int) -> int:
    """The fewest decimals (at most ``digits``) that show every value as rounded to ``digits``."""
    values = values.dropna().astype(float).round(digits)
    return next(d for d in range(digits + 1) if np.allclose(values, values.round(d), rtol=0, atol=1e-9))


def _rounded(frame: pd.DataFrame, digits: int) -> pd.DataFrame:
    """Floats rounded to ``digits``; float columns holding whole numbers only become integers."""
    out = frame.reset_index(drop=True).copy()
    for col in out.columns:
        if pd.api.types.is_float_dtype(out[col]):
            out[col] = out[col].round(digits)
            if decimals(out[col], digits) == 0:
                out[col] = out[col].astype("Int64")
    return out


def to_latex(frame: pd.DataFrame, caption: str, label: str, digits: int = 2) -> str:
    """A booktabs table (no index column, LaTeX specials escaped, missing values as --).

    Each float column shows the decimals its values need, at most ``digits``."""
    table = _rounded(frame, digits)
    styler = (
        table.style.hide(axis="index")
        .format(na_rep="--", escape="latex", thousands=None)
        .format_index(escape="latex", axis=1)
    )
    for col in table.columns:
        if pd.api.types.is_float_dtype(table[col]):
            styler = styler.format(precision=decimals(table[col], digits), na_rep="--", subset=[col])
    return styler.to_latex(
        hrules=True,
        column_format=_column_format(table),
        caption=escape_latex(caption),
        label=f"tab:{label}",
        position="htbp",
        position_float="centering",
    )


def write(export: Export, inputs: Inputs, out: Path) -> list[Path]:
    """Compute one export and write its files; returns their paths."""
    result = export.make(inputs)
    caption = f"{export.caption} {corpus_note(inputs.corpus)}"
    if export.kind == "table":
        frame = _rounded(result, export.digits)
        tex, csv = out / f"{export.name}.tex", out / f"{export.name}.csv"
        tex.write_text(to_latex(result, caption, export.name, export.digits), encoding="utf-8")
        frame.to_csv(csv, index=False)
        return [tex, csv]
    pdf, png = out / f"{export.name}.pdf", out / f"{export.name}.png"
    result.savefig(pdf, metadata={"CreationDate": None, "Title": caption})
    result.savefig(png, dpi=200, metadata={"Software": None})
    return [pdf, png]


def export_all(out: Path, only: list[str] | None = None, corpus=None) -> pd.DataFrame:
    """Write every export (or those named in ``only``) into ``out``, from ``corpus`` (default: the
    active one); returns the index frame."""
    matplotlib.use("Agg")
    plots.set_theme()
    out.mkdir(parents=True, exist_ok=True)
    inputs = Inputs(corpus)
    chosen = [e for e in EXPORTS if only is None or e.name in only]
    unknown = sorted(set(only or []) - {e.name for e in EXPORTS})
    if unknown:
        raise ValueError(f"unknown export(s): {', '.join(unknown)}")
    rows = []
    for export in chosen:
        files = write(export, inputs, out)
        rows.append(
            {
                "name": export.name,
                "kind": export.kind,
                "chapter": export.chapter,
                "caption": f"{export.caption} {corpus_note(inputs.corpus)}",
                "files": " ".join(p.name for p in files),
                "note": corpus_note(inputs.corpus),  # the caption's last sentence: a page says it once
            }
        )
    index = pd.DataFrame(rows)
    index.to_csv(out / "index.csv", index=False)
    return index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hotelcheckspan.book.exports", description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="folder to write into (make exports: _build/exports)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="export only these (names as in index.csv)")
    args = parser.parse_args(argv)
    try:
        index = export_all(args.out, args.only)
    except (ValueError, OSError, CorpusError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{len(index)} exports written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
