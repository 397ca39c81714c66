"""LLMs as annotators (Sections 5 and 6): how much, how long, which types, where they agree.

Every function compares model campaigns with the human campaigns on the same examples.
"""

from __future__ import annotations

import pandas as pd

from ..annotator_sets import HUMAN_SETS
from ..categories import ANY, CATEGORIES
from ..corpora import KEY, Corpus
from ..metrics import span_f1
from . import dataset_level, example_level, span_level


def volume(corpus: Corpus, examples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Spans per record and span length per campaign, and each as a ratio to the human mean.

    Columns: ``name, kind, spans, spans_per_record, mean_words, x human spans/record,
    x human length``.
    """
    table = dataset_level.campaign_table(corpus, examples, by_group=True)
    human = table[table["kind"] == "human"]
    per_rec = human["spans"].sum() / human["records"].sum()
    words = (human["mean_words"] * human["spans"]).sum() / human["spans"].sum()
    out = table[["name", "kind", "spans", "spans_per_record", "mean_words"]].copy()
    out["x human spans/record"] = out["spans_per_record"] / per_rec
    out["x human length"] = out["mean_words"] / words
    return out


def type_bias(corpus: Corpus, examples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each model's type shares minus the pooled human shares, in percentage points."""
    table = dataset_level.campaign_table(corpus, examples)
    human = table[table["kind"] == "human"][CATEGORIES].sum()
    human_share = 100 * human / human.sum()
    models = table[table["kind"] == "model"].set_index("campaign")
    out = pd.DataFrame({t: models[f"{t} %"] - human_share[t] for t in CATEGORIES})
    out.insert(0, "spans", models["spans"])
    return out.reset_index()


def agreement_by_aspect(
    corpus: Corpus,
    model: str,
    examples: pd.DataFrame | None = None,
    match: str = "soft",
    metric: str = span_level.BOOK_METRIC,
    convention: str | None = span_level.BOOK_CONVENTION,
) -> pd.DataFrame:
    """P/R/F1 of one model against each human set, pooled over the four pairs, per summary aspect.

    Pooling sums the pairs' counts per aspect (one figure per aspect, not a mean of pairs).
    Columns: ``aspect, examples, precision, recall, f1, ref_count, hyp_count``.
    """
    comparison = [{"name": model, "ref": HUMAN_SETS, "hyp": [model]}]
    frames = []
    for *_, ref_sp, hyp_sp, ex in span_level.iter_pairs(corpus, comparison):
        if examples is not None:
            ex = ex.merge(examples[KEY], on=KEY)
        frames.append(
            span_f1.per_example(
                ref_sp,
                hyp_sp,
                ex,
                match=match,
                metric=metric,
                convention=convention,
                categories=CATEGORIES,
            )
        )
    counts = pd.concat(frames).merge(corpus.examples[KEY + ["aspect"]], on=KEY)
    table = span_f1.scores(counts.assign(category=counts["aspect"])).rename(columns={"category": "aspect"})
    table["examples"] = table["aspect"].map(counts.drop_duplicates(KEY).groupby("aspect").size())
    cols = ["aspect", "examples", "precision", "recall", "f1", "ref_count", "hyp_count"]
    return table[cols].sort_values("f1", ascending=False).reset_index(drop=True)


def contested_examples(corpus: Corpus, model: str, n: int = 3, examples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Examples where the four human sets split 2-2 on whether there is an error and the model
    marked something: the cases a reader should look at. The first ``n`` by example key."""
    votes = example_level.votes(example_level.marks(corpus, HUMAN_SETS, examples))
    model_marks = example_level.marks(corpus, [model], examples)
    split = votes[(votes["raters"] == len(HUMAN_SETS)) & (2 * votes[ANY] == votes["raters"])][KEY]
    marked = model_marks[model_marks[ANY]][KEY]
    return split.merge(marked, on=KEY).sort_values(KEY).head(n).reset_index(drop=True)


def reasons(corpus: Corpus, model: str, n: int = 5, examples: pd.DataFrame | None = None) -> pd.DataFrame:
    """The first ``n`` spans of a model (on ``examples``) with their type and stated reason."""
    sp = corpus.spans[corpus.spans["campaign"] == model]
    if examples is not None:
        sp = sp.merge(examples[KEY], on=KEY)
    return sp[["split", "example_idx", "text", "type", "reason"]].head(n).reset_index(drop=True)
