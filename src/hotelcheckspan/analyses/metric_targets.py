"""What a faithfulness metric is validated against: human targets per example, a campaign read
as a metric, and the human ceiling.

Every column is oriented so that *higher = more faithful* (as scores files are, see
:mod:`hotelcheckspan.corpora.scores`), except ``majority``, a detection target (True = the
humans say the text has an error).

Which records count: the human records (``kind == "human"``) whose example is in
``corpus.examples``, i.e. whose annotated text the corpus holds (``has_text``). A record on a
key without a text is left out: no metric can score a text the corpus does not have. (On the d2t
test split, 476 of the 2,151 human records are on "iaa" keys whose texts live in another folder:
the targets use the other 1,675, on all 1,200 texts.) Every record counts once, as factgenie
counts it, duplicates of a group included.

Frames:

``targets`` (:func:`human_targets`)
    one row per example of ``corpus.examples`` with at least one human record, in that order:
    the key, ``errors``, ``error_free``, ``impression``, ``majority``, ``errors:<category>`` per
    category of the human campaigns (in config order) and ``n_humans``. Worked example: an
    example with four human records holding 1, 2, 1 and 0 spans (types Incorrect; Incorrect and
    Misleading; Incorrect; none) and impressions 6, 5, 6 and 7 has ``errors`` = -(1+2+1+0)/4 =
    -1.0, ``error_free`` = 1/4 = 0.25 (one record has no span), ``impression`` = (6+5+6+7)/4 =
    6.0, ``majority`` = True (3 of 4 records have an error, and 3 >= 3/4 of 4),
    ``errors:Incorrect`` = -(1+1+1+0)/4 = -0.75, ``errors:Misleading`` = -(0+1+0+0)/4 = -0.25,
    ``errors:Not Checkable`` = 0.0, ``n_humans`` = 4. With 0, 1, 0 and 2 spans instead, 2 of 4
    records have an error and 2 of 4 have none: neither side has 3/4, ``majority`` is <NA>.
``scores`` (:func:`campaign_scores`, the first frame of :func:`ceiling_split`)
    one row per example: the key and float columns, higher = more faithful, NaN where the
    campaign has no record of the example.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..categories import ANY
from ..corpora import KEY, Corpus, frame
from .example_level import majority as _majority
from .example_level import votes as _votes

CLEAR_SHARE = frame.CLEAR_SHARE  # a clear majority: at least three quarters of the example's records agree
TARGETS = ["errors", "error_free", "impression", "majority"]  # then errors:<category>, n_humans
TYPE_PREFIX = "errors:"
CEILING = "human ceiling"  # the held-out record's column names in ceiling_split's scores


def human_records(corpus: Corpus) -> pd.DataFrame:
    """The corpus' human records on examples of ``corpus.examples`` (those with a text)."""
    rec = corpus.records[corpus.records["kind"] == "human"]
    return rec.merge(corpus.examples[KEY], on=KEY, how="inner")


def human_categories(corpus: Corpus) -> list[str]:
    """The span categories of the human campaigns, every name once, in config order."""
    out: list[str] = []
    for campaign in corpus.campaigns("human"):
        out += [c for c in corpus.campaign_categories.get(campaign, []) if c not in out]
    return out


def clear_votes(n: pd.Series) -> pd.Series:
    """The records that must agree for a clear majority among ``n``: ceil(3n/4) (1 of 1, 2 of
    2, 3 of 3, 3 of 4, 4 of 5): the one rule of every clear majority (``corpora.frame.CLEAR_SHARE``)."""
    return np.ceil(CLEAR_SHARE * n.astype(float) - 1e-9).astype(int)


def weighted_columns(spans: pd.DataFrame, weights: dict | None) -> dict[str, dict]:
    """The weighted targets a corpus has: ``mqm`` (WMT's weights) where its spans carry MQM
    severities, ``weighted`` (``weights``) where the user gave weights; name -> weights."""
    from ..corpora import mqm

    out = {}
    if spans["severity"].notna().any():
        out["mqm"] = mqm.WMT_WEIGHTS
    if weights:
        out["weighted"] = dict(weights)
    return out


def _record_weights(records: pd.DataFrame, spans: pd.DataFrame, weights: dict) -> pd.Series:
    """Per record (aligned with ``records``), the sum of its spans' weights (0 for a record
    without spans; a span no weight names weighs 0)."""
    from ..corpora import mqm

    mine = spans[spans["record_id"].isin(records["record_id"])]
    w = mqm.weigh(mine, weights).fillna(0.0)
    per = w.groupby(mine["record_id"].to_numpy()).sum()
    return records["record_id"].map(per).fillna(0.0).astype(float)


def _targets(
    keys: pd.DataFrame, records: pd.DataFrame, spans: pd.DataFrame, categories: list[str], weighted: dict | None = None
) -> pd.DataFrame:
    """The targets on the examples ``keys`` (in that order) that have a record in ``records``;
    ``spans`` are all spans (those of ``records`` are picked by ``record_id``); ``weighted``:
    name -> weights of the weighted targets (:func:`weighted_columns`)."""
    weighted = weighted or {}
    rec = records.assign(
        _errors=records["n_spans"].astype(float),
        _free=(records["n_spans"] == 0).astype(float),
        _impression=records["impression"].astype("Float64").astype(float),
        **{f"_w_{name}": _record_weights(records, spans, w) for name, w in weighted.items()},
    )
    grouped = rec.groupby(KEY, sort=False)
    out = grouped[["_errors", "_free", "_impression", *(f"_w_{n}" for n in weighted)]].mean()
    out.columns = ["errors", "error_free", "impression", *weighted]
    out["errors"] = 0.0 - out["errors"]
    for name in weighted:  # minus the weighted error score (WMT's MQM score for mqm): higher = more faithful
        out[name] = 0.0 - out[name]
    out["n_humans"] = grouped.size()
    out = keys[KEY].merge(out.reset_index(), on=KEY, how="inner")

    # the clear majority on "any error": example_level's votes and majority, one rater a record
    marks = rec[KEY].assign(rater=rec["record_id"].to_numpy(), **{ANY: (rec["n_spans"] > 0).to_numpy()})
    votes = _votes(marks)
    clear = _majority(votes, min_agree=clear_votes(votes["raters"]))
    out = out.merge(clear.rename(columns={ANY: "majority"}), on=KEY, how="left")

    typed = spans[spans["record_id"].isin(rec["record_id"])]
    counts = typed.groupby([*KEY, "type"], sort=False).size().unstack("type")
    counts = counts.reindex(columns=categories).fillna(0.0)
    counts.columns = [TYPE_PREFIX + c for c in categories]
    out = out.merge(counts.reset_index(), on=KEY, how="left")
    for c in categories:
        col = TYPE_PREFIX + c
        out[col] = 0.0 - out[col].fillna(0.0) / out["n_humans"]
    out["majority"] = out["majority"].astype("boolean")
    out["n_humans"] = out["n_humans"].astype(int)
    return out[[*KEY, *TARGETS, *weighted, *(TYPE_PREFIX + c for c in categories), "n_humans"]]


def human_targets(corpus: Corpus, weights: dict | None = None) -> pd.DataFrame:
    """The human targets per example (module docstring: columns and a worked example).

    - ``errors``: minus the mean number of error spans per human record of the example;
    - ``error_free``: the share of its human records with no span;
    - ``impression``: the mean overall impression (1-7) of its records that have one; all NaN
      when no record has one (factgenie exports without the slider), then
      ``has_impressions`` is False;
    - ``majority``: the clear human majority on "any error": True (an error) / False (none) /
      <NA> (no clear majority), clear when at least three quarters of the example's records
      agree (:func:`clear_votes`: 3-1 or 4-0 of four, 2-0 of two, 3-0 of three). On an example
      with one record, that record decides;
    - ``errors:<category>``: minus the mean number of spans of that category per record;
    - ``n_humans``: the example's human records.

    - ``mqm`` (where the spans carry MQM severities): minus WMT's MQM score of the text, the
      weighted errors (:data:`hotelcheckspan.corpora.mqm.WMT_WEIGHTS`) summed per record and
      averaged over its records; ``weighted`` (where ``weights`` are given): the same with them.

    ``frame.attrs["has_impressions"]`` says whether any record has an impression."""
    rec = human_records(corpus)
    out = _targets(
        corpus.examples, rec, corpus.spans, human_categories(corpus), weighted_columns(corpus.spans, weights)
    )
    out.attrs["has_impressions"] = bool(rec["impression"].notna().any())
    return out


def has_impressions(targets: pd.DataFrame) -> bool:
    """Whether a targets frame has any impression (False for exports without the slider)."""
    return bool(targets["impression"].notna().any())


def target_columns(targets: pd.DataFrame) -> list[str]:
    """The target columns of a targets frame (not the key, not ``n_humans``)."""
    return [c for c in targets.columns if c not in (*KEY, "n_humans")]


def _as_metric(records: pd.DataFrame) -> pd.DataFrame:
    """Per example: minus the mean span count and minus the share of records with a span (with
    one record: minus its span count, and -1 or 0)."""
    rec = records.assign(
        _count=records["n_spans"].astype(float),
        _any=(records["n_spans"] > 0).astype(float),
        _impression=records["impression"].astype("Float64").astype(float),
    )
    out = rec.groupby(KEY, sort=False)[["_count", "_any", "_impression"]].mean()
    out[["_count", "_any"]] = 0.0 - out[["_count", "_any"]]
    return out.reset_index()


def campaign_scores(corpus: Corpus, campaign: str) -> pd.DataFrame:
    """A campaign (an LLM judge) as a metric: one row per example of ``corpus.examples``, the
    key, ``<campaign>`` = minus the number of its spans on the example and ``<campaign> (any
    error)`` = minus whether it marked any span (-1.0 or 0.0); NaN where the campaign has no
    record of the example. Should the campaign have several records of an example, the mean
    over them (minus the mean count, minus the share of records with a span).

    E.g. a judge marking two spans on a text scores -2.0 and -1.0 there, and 0.0 and 0.0 on a
    text where it marked none."""
    known = corpus.campaigns()
    if campaign not in known:
        raise ValueError(f"no campaign {campaign!r} in the corpus (campaigns: {', '.join(known)})")
    rec = corpus.records[corpus.records["campaign"] == campaign]
    per = _as_metric(rec).rename(columns={"_count": campaign, "_any": f"{campaign} (any error)"})
    out = corpus.examples[KEY].merge(per.drop(columns="_impression"), on=KEY, how="left")
    return out


def ceiling_split(corpus: Corpus, seed: int = 0, weights: dict | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The human ceiling: how well one human record, read as a metric, predicts the others.

    On the examples with at least two human records, one record per example is held out, drawn
    uniformly at random (``numpy.random.default_rng(seed)``, one uniform number per record in
    ``corpus.examples`` then ``record_id`` order; the lowest draw of each example is held out,
    so a seed always gives the same split). The held-out record's own scores are the "metric":
    ``human ceiling`` = minus its span count, ``human ceiling (any error)`` = minus whether it
    has a span (-1.0 or 0.0) and, when the corpus has impressions, ``human ceiling
    (impression)`` = its impression. The targets (:func:`human_targets`' columns) are recomputed
    from the example's other records: with two records, the other record alone (so its
    ``majority`` is its own any-error); with four, the other three (majority: all three agree).

    E.g. an example with records of 1 and 3 spans whose first record is held out scores -1.0
    and -1.0; its targets are ``errors`` = -3.0, ``error_free`` = 0.0, ``majority`` = True.

    Returns ``(scores, targets)``, both with one row per such example, in the order of
    ``corpus.examples``, on the same keys."""
    rec = human_records(corpus)
    order = corpus.examples[KEY].reset_index(drop=True).assign(_pos=lambda d: np.arange(len(d)))
    rec = rec.merge(order, on=KEY).sort_values(["_pos", "record_id"], kind="stable").reset_index(drop=True)
    n = rec.groupby("_pos")["record_id"].transform("size")
    rec = rec[n >= 2].reset_index(drop=True)
    draws = np.random.default_rng(seed).random(len(rec))
    held = rec.assign(_draw=draws).sort_values(["_pos", "_draw"], kind="stable").drop_duplicates("_pos")
    rest = rec[~rec["record_id"].isin(held["record_id"])]
    keys = held.sort_values("_pos")[KEY].reset_index(drop=True)

    per = _as_metric(held).rename(
        columns={"_count": CEILING, "_any": f"{CEILING} (any error)", "_impression": f"{CEILING} (impression)"}
    )
    if not bool(human_records(corpus)["impression"].notna().any()):
        per = per.drop(columns=f"{CEILING} (impression)")
    weighted = weighted_columns(corpus.spans, weights)
    for name, w in weighted.items():  # the held-out record's own weighted score, as a metric
        mine = held.assign(_w=0.0 - _record_weights(held, corpus.spans, w)).groupby(KEY, sort=False)["_w"].mean()
        per = per.merge(mine.rename(f"{CEILING} ({name})").reset_index(), on=KEY, how="left")
    scores = keys.merge(per, on=KEY, how="left")
    targets = _targets(keys, rest, corpus.spans, human_categories(corpus), weighted)
    targets.attrs["has_impressions"] = bool(rest["impression"].notna().any())
    return scores, targets


def coverage(corpus: Corpus) -> dict[str, int]:
    """How many human records and examples the targets use and leave out: ``records`` (human
    records on examples with a text), ``records_without_text`` (left out), ``examples`` (with at
    least one human record), ``ceiling_examples`` (with at least two)."""
    rec = corpus.records[corpus.records["kind"] == "human"]
    used = human_records(corpus)
    per = used.groupby(KEY).size()
    return {
        "records": len(used),
        "records_without_text": len(rec) - len(used),
        "examples": int(len(per)),
        "ceiling_examples": int((per >= 2).sum()),
    }
