"""γ for the comparisons of Table 6 (or any comparisons file), beside span F1.

Each pair of sides of a comparison is scored with :mod:`hotelcheckspan.metrics.gamma`
on the examples both sets annotated (as Table 6's F1 is), per example as factgenie 1.2.1's
``iaa gamma`` scores it: γ where both sides marked something, S∅ = 1 / (1 + spans) where at most
one side did. A comparison's γ is the mean over its pairs of each pair's mean γ (pairs with no
example both sides marked have none and are left out), with a percentile bootstrap that, as for
Table 6, resamples examples once for all pairs of a comparison.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from ..corpora import KEY
from ..metrics import gamma, resampling
from ..metrics.span_f1 import _key_codes
from .span_level import iter_pairs, load_comparisons, tied_ranks

PAIR_COLUMNS = [
    "comparison",
    "ref",
    "hyp",
    "gamma",
    "s_empty",
    "gamma_examples",
    "s_empty_examples",
    "examples",
]


def _nanmean_rows(values: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The mean of each row's defined values (``values`` holds the rows one after another, rows
    of ``lengths``), computed as pandas' ``Series.mean`` computes it: undefined values as zeros
    in a numpy sum over the whole row, divided by the number defined (NaN when none)."""
    out = np.full(lengths.size, np.nan)
    starts = np.cumsum(lengths) - lengths
    filled, defined = np.where(np.isnan(values), 0.0, values), (~np.isnan(values)).astype(float)
    for length in np.unique(lengths[lengths > 0]).tolist():
        rows = np.flatnonzero(lengths == length)
        at = starts[rows, None] + np.arange(length)
        count = defined[at].sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[rows] = np.where(count > 0, filled[at].sum(axis=1) / count, np.nan)
    return out


def pairwise(
    corpus, comparisons: list[dict] | None = None, soft: bool = gamma.SOFT_CLI
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per pair of sides: mean γ and mean S∅, and the per-example values behind them.

    Returns ``(pairs, examples)``: ``pairs`` has columns :data:`PAIR_COLUMNS` (means NaN where
    undefined), ``examples`` the key, ``gamma``, ``s_empty`` and ``row`` (the row of ``pairs``).
    ``soft`` as :func:`hotelcheckspan.span_gamma` (default hard, factgenie's ``iaa gamma``).

    Every pair's examples are scored at once: the corpus's spans are encoded once (factgenie's
    annotator names and labels as codes in their sorted order), each (pair, example) is one row,
    and the rows where both sides marked something are one batch of continua for
    :func:`hotelcheckspan.metrics.gamma.gammas`.
    """
    plan = [(name, r, h, ex) for name, r, h, _, _, ex in iter_pairs(corpus, comparisons)]
    if not plan:
        return pd.DataFrame(columns=PAIR_COLUMNS), pd.DataFrame(columns=[*KEY, "gamma", "s_empty"])
    all_ex = pd.concat([ex for *_, ex in plan], ignore_index=True)[KEY]
    n_ex = np.array([len(ex) for *_, ex in plan])
    offsets = np.cumsum(n_ex) - n_ex

    sp = corpus.spans
    sp = sp[(sp["start"] != sp["end"]).to_numpy()]  # factgenie drops zero-length spans
    ex_codes, span_codes = _key_codes([all_ex, sp[KEY]])
    campaign, group = sp["campaign"].to_numpy(), sp["annotator_group"].to_numpy()
    names = np.array([gamma.annotator_id(c, g) for c, g in zip(campaign, group)], dtype=object)
    _, label = np.unique(sp["type_idx"].astype(str).to_numpy(), return_inverse=True)  # codes in the labels' order
    masks: dict = {}

    def mask(aset) -> np.ndarray:
        if aset not in masks:
            keep = campaign == aset.campaign
            masks[aset] = keep & (group == aset.group) if aset.group is not None else keep
        return masks[aset]

    # one row per (pair, example): a span of either set on one of the pair's examples belongs to it
    # (one mask over the spans, so a span the two sets share, a campaign against one of its own
    # groups, is counted once)
    row_of = np.full(int(max(ex_codes.max(initial=-1), span_codes.max(initial=-1))) + 1, -1, np.int64)
    rows, spans = [], []
    for p, (_, ref_set, hyp_set, _) in enumerate(plan):
        mine = ex_codes[offsets[p] : offsets[p] + n_ex[p]]
        row_of[mine] = offsets[p] + np.arange(n_ex[p])
        idx = np.flatnonzero(mask(ref_set) | mask(hyp_set))
        at = row_of[span_codes[idx]]
        rows.append(at[at >= 0])
        spans.append(idx[at >= 0])
        row_of[mine] = -1
    row, idx = np.concatenate(rows), np.concatenate(spans)
    grouped = gamma.examples_of(
        len(all_ex), row, names[idx], sp["start"].to_numpy()[idx], sp["end"].to_numpy()[idx], label[idx]
    )
    pair_of = np.repeat(np.arange(len(plan)), n_ex)
    crowded = set(pair_of[grouped.annotators > 2].tolist())
    for p, (_, ref_set, hyp_set, _) in enumerate(plan):
        corpus.categories_of(ref_set.campaign, hyp_set.campaign)  # raises when they cannot be compared
        if p in crowded:
            i = int(np.flatnonzero((pair_of == p) & (grouped.annotators > 2))[0])
            key = ", ".join(f"{c}={v}" for c, v in zip(KEY, all_ex.iloc[i]))
            raise gamma.TooManyAnnotators(gamma.too_many_message(key, grouped.names_of(i)))
    values = np.full(len(all_ex), np.nan)
    values[grouped.two] = [float(v) for v in gamma.gammas(grouped.continua, soft=soft)]
    s_empty = np.where(grouped.annotators < 2, 1 / (1 + grouped.spans), np.nan)
    pairs = pd.DataFrame(
        {
            "comparison": [name for name, *_ in plan],
            "ref": [r.spec for _, r, _, _ in plan],
            "hyp": [h.spec for _, _, h, _ in plan],
            "gamma": _nanmean_rows(values, n_ex),
            "s_empty": _nanmean_rows(s_empty, n_ex),
            "gamma_examples": np.bincount(pair_of, ~np.isnan(values), len(plan)).astype(np.int64),
            "s_empty_examples": np.bincount(pair_of, ~np.isnan(s_empty), len(plan)).astype(np.int64),
            "examples": n_ex,
        },
        columns=PAIR_COLUMNS,
    )
    examples = all_ex.assign(gamma=values, s_empty=s_empty, row=pair_of)
    return pairs, examples


def by_comparison(
    pairs: pd.DataFrame, examples: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Mean γ and mean S∅ per comparison (over its pairs), with bootstrap intervals.

    A replicate resamples the comparison's examples once for all its pairs; a pair's replicate γ
    is the mean over the drawn examples where it is defined. Columns: ``comparison, pairs,
    gamma_pairs`` (pairs with a γ), ``gamma_examples`` (examples with a γ, summed over the
    pairs), ``examples`` (examples compared per pair, the largest), ``pair_examples`` (examples
    compared, summed over the pairs: the share of them with a γ is ``gamma_examples /
    pair_examples``, whatever each pair shares), ``gamma, gamma_low, gamma_high, s_empty,
    s_empty_low, s_empty_high``.
    """
    codes = pd.MultiIndex.from_frame(examples[KEY]).factorize()[0] if len(examples) else np.zeros(0, int)
    rows_of = examples["row"].to_numpy()
    out = []
    for comp, grp in pairs.groupby("comparison", sort=False):
        sel = np.isin(rows_of, grp.index.to_numpy())
        uniq, first, pos = np.unique(codes[sel], return_index=True, return_inverse=True)
        w = resampling.matrix(examples[KEY][sel].iloc[first], n_boot, seed)  # the comparison's examples decide
        row = {
            "comparison": comp,
            "pairs": len(grp),
            "gamma_pairs": int(grp["gamma"].notna().sum()),
            "gamma_examples": int(grp["gamma_examples"].sum()),
            "examples": int(grp["examples"].max()),
            "pair_examples": int(grp["examples"].sum()),
        }
        for measure in ("gamma", "s_empty"):
            reps = []
            for r in grp.index:
                in_row = rows_of[sel] == r
                vals = np.zeros(uniq.size)
                defined = np.zeros(uniq.size)
                v = examples[measure].to_numpy()[sel][in_row]
                ok = ~np.isnan(v)
                vals[pos[in_row][ok]] = v[ok]
                defined[pos[in_row][ok]] = 1
                with np.errstate(invalid="ignore", divide="ignore"):
                    reps.append((w @ vals) / (w @ defined))
            reps = np.array(reps)
            reps = reps[~np.all(np.isnan(reps), axis=1)]  # pairs with no γ at all are left out
            n_defined = (~np.isnan(reps)).sum(axis=0)
            with np.errstate(invalid="ignore", divide="ignore"):
                boot = np.where(n_defined > 0, np.nansum(reps, axis=0) / n_defined, np.nan)
            row[measure] = float(grp[measure].mean()) if grp[measure].notna().any() else float("nan")
            row[f"{measure}_low"], row[f"{measure}_high"] = resampling.interval(boot, level)
        out.append(row)
    return pd.DataFrame(out)


def table6_gamma(
    corpus, comparisons: list[dict] | None = None, soft: bool = gamma.SOFT_CLI, n_boot: int = 1000, seed: int = 0
) -> pd.DataFrame:
    """:func:`by_comparison` of :func:`pairwise`: γ for every comparison (default Table 6's)."""
    comparisons = comparisons if comparisons is not None else load_comparisons()
    return by_comparison(*pairwise(corpus, comparisons, soft=soft), n_boot=n_boot, seed=seed)


def beside_f1(gammas: pd.DataFrame, t6: pd.DataFrame, match: str = "hard") -> pd.DataFrame:
    """γ beside Table 6's F1 (``match``) per comparison, with each measure's rank (1 = most
    agreement). Columns: ``comparison``, ``f1, f1_low, f1_high``, ``gamma, gamma_low,
    gamma_high``, ``pairs``, ``gamma_pairs``, ``gamma_examples``, ``examples``,
    ``pair_examples``, ``s_empty``, ``f1_rank``, ``gamma_rank`` (see :func:`by_comparison`)."""
    f1 = t6.loc[t6["match"] == match, ["comparison", "f1", "f1_low", "f1_high"]]
    keep = ["comparison", "gamma", "gamma_low", "gamma_high", "pairs", "gamma_pairs", "gamma_examples", "examples"]
    keep += ["pair_examples", "s_empty"]
    out = f1.merge(gammas[keep], on="comparison")
    out["f1_rank"] = tied_ranks(out["f1"]).astype(int)
    out["gamma_rank"] = tied_ranks(out["gamma"]).astype("Float64").astype(float)
    return out


MIN_GAMMA_EXAMPLES = 5  # a γ on fewer examples (all pairs together) says nothing of a comparison's rank


def rank_agreement(table: pd.DataFrame, min_examples: int = MIN_GAMMA_EXAMPLES) -> dict:
    """Kendall's tau (tau-b) between the F1 and the γ order of :func:`beside_f1`'s comparisons,
    leaving out those whose γ rests on fewer than ``min_examples`` examples in all, and the
    comparisons whose two ranks differ among the rest (ranks taken among them, values within
    :data:`span_level.TIE` tied). ``shown`` counts the pairs of comparisons that F1 and γ order
    differently with both intervals clear of each other (a rank change the data show).

    Returns ``{tau, comparisons, moved, left_out, tau_all, discordant, shown}`` (``tau_all``:
    over every comparison with a γ)."""
    both = table.dropna(subset=["f1", "gamma"])
    kept = both[both["gamma_examples"] >= min_examples]
    f1_rank, g_rank = tied_ranks(kept["f1"]), tied_ranks(kept["gamma"])
    tau = kendalltau(-f1_rank.astype(float), -g_rank.astype(float)).statistic if len(kept) > 1 else float("nan")
    tau_all = (
        kendalltau(-both["f1_rank"].astype(float), -both["gamma_rank"].astype(float)).statistic
        if len(both) > 1
        else float("nan")
    )
    moved = kept.loc[f1_rank != g_rank, "comparison"].tolist()
    discordant = shown = 0
    for i, j in itertools.combinations(kept.index, 2):
        a, b = kept.loc[i], kept.loc[j]
        if np.sign(g_rank[j] - g_rank[i]) * np.sign(f1_rank[j] - f1_rank[i]) < 0:
            discordant += 1
            apart_f1 = a["f1_low"] > b["f1_high"] or b["f1_low"] > a["f1_high"]
            apart_g = a["gamma_low"] > b["gamma_high"] or b["gamma_low"] > a["gamma_high"]
            shown += int(apart_f1 and apart_g)
    return {
        "tau": float(tau),
        "comparisons": len(kept),
        "moved": moved,
        "left_out": both.loc[~both.index.isin(kept.index), "comparison"].tolist(),
        "tau_all": float(tau_all),
        "discordant": discordant,
        "shown": shown,
        "min_examples": min_examples,
    }
