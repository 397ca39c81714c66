"""A whole table of comparisons in one call: every hypothesis side against the
reference sets, per split (or dataset, or generating system), averaged as asked.

Reproducing a paper's agreement table (each LLM against the human annotators, per split, hard
and span F1, soft, γ, Pearson) otherwise takes one ``f1``, ``gamma`` and ``pearson`` call per pair on
hand-filtered copies of the files. :func:`table` makes every pair's comparison with the same
functions those commands call (:func:`hotelcheckspan.span_f1`, :func:`~hotelcheckspan.span_gamma`,
:func:`~hotelcheckspan.span_pearson`, on :func:`~hotelcheckspan.pairs.annotations_of` sides), so
each cell equals what the single command prints for that pair.

Averaging over the reference sets (``average``):

``mean``
    each measure per (reference, hypothesis) pair on the examples both annotated, then the mean
    over the pairs that share an example (Table 6's averaging; ``pairs`` says how many);
``pooled``
    the reference sets pooled into one side, as factgenie pools the groups of one file
    (γ is undefined where two pooled sets marked one example: it takes two annotators);
``none``
    one row per pair.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..annotator_sets import AnnotatorSet, group_labels, groups_of, judges
from ..corpora import KEY, Annotations, Corpus
from ..corpora.keys import slug as _slug
from ..corpora.keys import slug_key

MEASURES = ("f1", "gamma", "pearson")
AVERAGES = ("mean", "pooled", "none")
PER = ("split", "dataset", "setup_id")
MATCHES = ("hard", "soft")


def _sets(corpus: Corpus, specs, default) -> tuple[list[AnnotatorSet], dict]:
    """Annotator sets from specs ("campaign" or "campaign/GROUP"), checked against the corpus,
    and how the user wrote each (the table names them so)."""
    if not specs:
        return default, {}
    out, written = [], {}
    for spec in specs:
        s = AnnotatorSet.parse(spec)
        if s.campaign not in corpus.campaigns():
            if s.campaign in corpus.empty_campaigns():
                raise ValueError(f"campaign {s.campaign!r} is empty (a config and no annotation file)")
            raise ValueError(
                f"no campaign {s.campaign!r} in {corpus.root} (campaigns: {', '.join(corpus.campaigns())})"
            )
        if s.group is not None and s.select(corpus)[0].empty:
            have = [g.group for g in groups_of(corpus, s.campaign)]
            raise ValueError(
                f"{s.campaign} has no annotator group {spec.partition('/')[2]} (its groups: "
                f"{', '.join(group_labels(have))})"
            )
        out.append(s)
        written[s] = str(spec)
    return out, written


def _label(corpus: Corpus, s: AnnotatorSet, written: dict | None = None) -> str:
    """A set as the user wrote it (``written``), else as readers write it, its group as the
    campaign's other groups are written."""
    if written and s in written:
        return written[s]
    if s.group is None:
        return s.campaign
    groups = [g.group for g in groups_of(corpus, s.campaign)]
    return f"{s.campaign}/{dict(zip(groups, group_labels(groups)))[s.group]}"


def _keys(records: pd.DataFrame) -> set:
    """The texts of ``records``, as factgenie compares keys."""
    return {slug_key(*k) for k in records[KEY].drop_duplicates().itertuples(index=False)}


def _side(corpus: Corpus, campaigns: list[str], part: pd.Series | None) -> dict[str, Annotations]:
    """Each campaign of ``campaigns`` as a comparison side, restricted to the rows of ``part``."""
    from ..pairs import annotations_of

    out = {}
    for c in dict.fromkeys(campaigns):
        ann = annotations_of(corpus, c)
        if part is not None:
            keep_r = ann.records["record_id"].isin(part)
            keep_s = ann.spans["record_id"].isin(part)
            ann.records = ann.records[keep_r].reset_index(drop=True)
            ann.spans = ann.spans[keep_s].reset_index(drop=True)
        out[c] = ann
    return out


def _pooled(refs: list[AnnotatorSet], sides: dict[str, Annotations]) -> Annotations | None:
    """The reference sets as one side: their records and spans together, each set a group of its own."""
    recs, spans = [], []
    for i, s in enumerate(refs):
        ann = sides[s.campaign]
        r, sp = s.filter(ann.records), s.filter(ann.spans)
        recs.append(r.assign(campaign="pooled", annotator_group=i))
        spans.append(sp.assign(campaign="pooled", annotator_group=i))
    records = pd.concat(recs, ignore_index=True)
    if records.empty:
        return None
    first = sides[refs[0].campaign]
    return Annotations(
        first.path, "pooled", "human", records, pd.concat(spans, ignore_index=True), list(first.categories)
    )


def _measure(ref: Annotations, ref_group, hyp: Annotations, hyp_group, measures, matches, options: dict) -> dict | None:
    """Every measure of one comparison (None when the two share no example). ``options``: span
    F1's ``metric`` and ``convention``, γ's ``soft_gamma``."""
    from ..metrics.gamma import TooManyAnnotators
    from ..pairs import span_f1, span_gamma, span_pearson

    groups = {"ref_group": ref_group, "hyp_group": hyp_group}
    row: dict = {}
    try:
        if "f1" in measures:
            for m in matches:
                r = span_f1(ref, hyp, **groups, match=m, metric=options["metric"], convention=options["convention"])
                row |= {f"precision_{m}": r["precision"], f"recall_{m}": r["recall"], f"f1_{m}": r["f1"]}
                row |= {"examples": r["examples"], "ref_spans": r["ref_count"], "hyp_spans": r["hyp_count"]}
        if "pearson" in measures:
            r = span_pearson(ref, hyp, **groups)
            row |= {"pearson_micro": r["micro_pearson"], "pearson_macro": r["macro_pearson"], "examples": r["examples"]}
        if "gamma" in measures:
            try:
                r = span_gamma(ref, hyp, **groups, soft=options["soft_gamma"])
                row |= {"gamma": r["gamma"], "s_empty": r["s_empty"], "examples": r["examples"]}
            except TooManyAnnotators:
                row |= {"gamma": np.nan, "s_empty": np.nan, "note": "gamma takes one annotator per side per example"}
    except ValueError as err:
        if "no example has a record on both sides" in str(err):
            return None
        raise
    return row


def table(
    corpus: Corpus,
    refs=None,
    hyps=None,
    *,
    measures=("f1",),
    match=MATCHES,
    metric: str = "char",
    convention: str | None = None,
    soft_gamma: bool = False,
    per: str | None = None,
    average: str = "mean",
    progress: bool = False,
) -> pd.DataFrame:
    """Every hypothesis set against the reference sets, one row per (part, hypothesis[,
    reference]).

    ``refs`` and ``hyps`` are annotator sets as written on the command line ("test/A", "gpt4o";
    default: every group of every human campaign, and every judge). ``measures``: any of
    :data:`MEASURES`; ``match``: "hard", "soft" or both (F1); ``metric`` and ``convention``: the
    span F1 definition (:func:`hotelcheckspan.span_f1`: factgenie 1.2.1's by default);
    ``per``: a key column (:data:`PER`) to make one block of rows per value (its slugified
    spelling, as factgenie joins keys); ``average``: :data:`AVERAGES` (module docstring).

    Columns: ``part`` ("all" without ``per``), ``hypothesis``, ``reference`` (the set, as the user
    wrote it; "mean of N sets" or "N sets pooled"), ``pairs`` (pairs sharing a text; 1 for
    ``none``), ``texts`` (the distinct texts compared: those the hypothesis shares with some
    reference), with ``mean`` the sums over the pairs under names of their own (``pair_examples``,
    ``pair_ref_spans``, ``pair_hyp_spans``; elsewhere ``ref_spans``, ``hyp_spans``), then per
    measure ``precision_<match>, recall_<match>, f1_<match>``, ``gamma, s_empty``,
    ``pearson_micro, pearson_macro``.
    ``frame.attrs["settings"]`` records the options. The categories of every set must agree
    (:meth:`Corpus.check_categories`); a pair sharing no example is left out."""
    from ..metrics import span_f1 as _f1

    measures = [m for m in MEASURES if m in (measures if not isinstance(measures, str) else [measures])]
    matches = [m for m in MATCHES if m in (match if not isinstance(match, str) else [match])]
    if not measures:
        raise ValueError(f"no measure among {', '.join(MEASURES)}")
    if "f1" in measures and not matches:
        raise ValueError("match must be hard, soft or both")
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {', '.join(AVERAGES)}, not {average!r}")
    if per is not None and per not in PER:
        raise ValueError(f"per must be one of {', '.join(PER)}, not {per!r}")
    metric, convention = _f1.resolve(metric, convention)
    corpus.check_categories()
    humans = [g for c in corpus.campaigns("human") for g in groups_of(corpus, c)]
    ref_sets, written = _sets(corpus, refs, humans)
    hyp_sets, written_hyp = _sets(corpus, hyps, [AnnotatorSet(j) for j in judges(corpus)])
    written |= written_hyp
    if not ref_sets:
        raise ValueError("no reference set: the selection has no human campaign (name one with --ref)")
    if not hyp_sets:
        raise ValueError("no hypothesis set: the selection has no judge (name one with --hyp)")
    rec = corpus.records
    if per is None:
        parts = {"all": None}
    else:
        values = rec[per].map(_slug)
        parts = {v: rec.loc[values == v, "record_id"] for v in dict.fromkeys(sorted(values))}
    options = {"metric": metric, "convention": convention, "soft_gamma": soft_gamma}
    campaigns = [s.campaign for s in ref_sets + hyp_sets]
    rows = []
    from tqdm import tqdm

    todo = [(name, h) for name in parts for h in hyp_sets]
    sides: dict[str, Annotations] = {}
    built_for = None
    for name, h in tqdm(todo, desc="agreement", unit="row", disable=not progress, leave=False):
        if built_for != name:  # every hypothesis of a part reuses its sides: each file encoded once per part
            sides, built_for = _side(corpus, campaigns, parts[name]), name
        hyp = sides[h.campaign]
        if h.filter(hyp.records).empty:  # the hypothesis annotated nothing in this part
            continue
        head = {"part": name, "hypothesis": _label(corpus, h, written)}
        present = [r for r in ref_sets if r != h and not r.filter(sides[r.campaign].records).empty]
        if average == "pooled":
            refs_here = present
            pooled = _pooled(refs_here, sides)
            got = None if pooled is None else _measure(pooled, None, hyp, h.group, measures, matches, options)
            if got is not None:
                rows.append(
                    head | {"reference": f"{len(refs_here)} sets pooled", "pairs": 1, "texts": got["examples"]} | got
                )
            continue
        pair_rows, texts = [], set()
        for r in present:
            got = _measure(sides[r.campaign], r.group, hyp, h.group, measures, matches, options)
            if got is not None:
                label = _label(corpus, r, written)
                pair_rows.append(head | {"reference": label, "pairs": 1, "texts": got["examples"]} | got)
                texts |= _keys(r.filter(sides[r.campaign].records)) & _keys(h.filter(hyp.records))
        if average == "none" or len(pair_rows) == 1:  # one pair: its own row, named by its reference
            rows += pair_rows
        elif pair_rows:
            values = pd.DataFrame(pair_rows).drop(columns=["part", "hypothesis", "reference", "pairs", "texts"])
            values = values.select_dtypes("number")
            mean = values.mean().to_dict()
            for col in ("examples", "ref_spans", "hyp_spans"):  # sums over the pairs, under names of their own
                mean.pop(col, None)
                if col in values:
                    mean[f"pair_{col}"] = int(values[col].sum())
            head |= {"reference": f"mean of {len(pair_rows)} sets", "pairs": len(pair_rows), "texts": len(texts)}
            rows.append(head | mean)
    columns = ["part", "hypothesis", "reference", "pairs", "texts"]
    if average == "mean":
        columns += ["pair_examples"]
    if "f1" in measures:
        columns += ["pair_ref_spans", "pair_hyp_spans"] if average == "mean" else ["ref_spans", "hyp_spans"]
        columns += [f"{k}_{m}" for m in matches for k in ("precision", "recall", "f1")]
    if "gamma" in measures:
        columns += ["gamma", "s_empty"]
    if "pearson" in measures:
        columns += ["pearson_micro", "pearson_macro"]
    if average == "mean":  # a single pair's row keeps its counts under the pair names
        for r in rows:
            if r.get("pairs") == 1:
                for col in ("examples", "ref_spans", "hyp_spans"):
                    if col in r:
                        r[f"pair_{col}"] = r.pop(col)
    out = pd.DataFrame(rows, columns=columns + (["note"] if any("note" in r for r in rows) else []))
    for col in ("pairs", "texts", "pair_examples", "pair_ref_spans", "pair_hyp_spans", "ref_spans", "hyp_spans"):
        if col in out:
            out[col] = out[col].astype("Int64")
    out.attrs["settings"] = {
        "references": [_label(corpus, r, written) for r in ref_sets],
        "hypotheses": [_label(corpus, h, written) for h in hyp_sets],
        "measures": measures,
        "match": matches,
        "per": per,
        "average": average,
    } | options
    return out


__all__ = ["AVERAGES", "MEASURES", "PER", "table"]
