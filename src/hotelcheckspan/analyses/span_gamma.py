"""γ for the comparisons of Table 6 (or any comparisons file), beside span F1.

Each pair of annotator sets of a comparison is scored with :mod:`hotelcheckspan.metrics.gamma`
on the examples both sets annotated (as Table 6's F1 is), per example as factgenie 1.2.1's
``iaa gamma`` scores it: γ where both sides marked something, S∅ = 1 / (1 + spans) where at most
one side did. A comparison's γ is the mean over its pairs of each pair's mean γ (pairs with no
example both sides marked have none and are left out), with a percentile bootstrap that, as for
Table 6, resamples examples once for all pairs of a comparison.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import kendalltau

from ..corpora import KEY
from ..metrics import gamma, resampling
from .span_level import iter_pairs, load_comparisons

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


def _with_names(spans: pd.DataFrame) -> pd.DataFrame:
    """Spans with factgenie's annotator names and category labels (the type's index)."""
    return spans.assign(
        annotator=[gamma.annotator_id(c, g) for c, g in zip(spans["campaign"], spans["annotator_group"])],
        label=spans["type_idx"].astype(str),
    )


def pairwise(
    corpus, comparisons: list[dict] | None = None, soft: bool = gamma.SOFT_CLI
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per pair of annotator sets: mean γ and mean S∅, and the per-example values behind them.

    Returns ``(pairs, examples)``: ``pairs`` has columns :data:`PAIR_COLUMNS` (means NaN where
    undefined), ``examples`` the key, ``gamma``, ``s_empty`` and ``row`` (the row of ``pairs``).
    ``soft`` as :func:`hotelcheckspan.span_gamma` (default hard, factgenie's ``iaa gamma``).
    """
    spans = _with_names(corpus.spans)
    campaign, group = spans["campaign"].to_numpy(), spans["annotator_group"].to_numpy()
    rows, frames = [], []
    for name, ref_set, hyp_set, _, _, ex in iter_pairs(corpus, comparisons):
        corpus.categories_of(ref_set.campaign, hyp_set.campaign)  # raises when they cannot be compared
        # one mask over the named spans rather than the pair's two frames, which would hold a span
        # twice where the sets overlap (a campaign against one of its own groups)
        mine = np.zeros(len(spans), bool)
        for aset in (ref_set, hyp_set):
            mine |= (campaign == aset.campaign) & ((group == aset.group) if aset.group is not None else True)
        table = gamma.per_example(spans[mine], ex, soft=soft)
        g, s = table["gamma"], table["s_empty"]
        rows.append(
            {
                "comparison": name,
                "ref": ref_set.spec,
                "hyp": hyp_set.spec,
                "gamma": float(g.mean()) if g.notna().any() else float("nan"),
                "s_empty": float(s.mean()) if s.notna().any() else float("nan"),
                "gamma_examples": int(g.notna().sum()),
                "s_empty_examples": int(s.notna().sum()),
                "examples": len(table),
            }
        )
        frames.append(table[[*KEY, "gamma", "s_empty"]].assign(row=len(rows) - 1))
    examples = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*KEY, "gamma", "s_empty"])
    return pd.DataFrame(rows, columns=PAIR_COLUMNS), examples


def by_comparison(
    pairs: pd.DataFrame, examples: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Mean γ and mean S∅ per comparison (over its pairs), with bootstrap intervals.

    A replicate resamples the comparison's examples once for all its pairs; a pair's replicate γ
    is the mean over the drawn examples where it is defined. Columns: ``comparison, pairs,
    gamma_pairs`` (pairs with a γ), ``gamma_examples`` (examples with a γ, summed over the
    pairs), ``examples`` (examples compared per pair, the largest), ``gamma, gamma_low,
    gamma_high, s_empty, s_empty_low, s_empty_high``.
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
    gamma_high``, ``pairs``, ``gamma_pairs``, ``gamma_examples``, ``examples``, ``s_empty``,
    ``f1_rank``, ``gamma_rank`` (see :func:`by_comparison`)."""
    f1 = t6.loc[t6["match"] == match, ["comparison", "f1", "f1_low", "f1_high"]]
    keep = ["comparison", "gamma", "gamma_low", "gamma_high", "pairs", "gamma_pairs", "gamma_examples", "examples"]
    keep.append("s_empty")
    out = f1.merge(gammas[keep], on="comparison")
    out["f1_rank"] = out["f1"].rank(ascending=False, method="min").astype(int)
    out["gamma_rank"] = out["gamma"].rank(ascending=False, method="min")
    return out


def rank_agreement(table: pd.DataFrame) -> dict:
    """Kendall's tau between the F1 and the γ order of :func:`beside_f1`'s comparisons, and the
    comparisons whose two ranks differ. Returns ``{tau, comparisons, moved}``."""
    both = table.dropna(subset=["f1", "gamma"])
    tau = kendalltau(both["f1"], both["gamma"]).statistic if len(both) > 1 else float("nan")
    moved = both.loc[both["f1_rank"] != both["gamma_rank"], "comparison"].tolist()
    return {"tau": float(tau), "comparisons": len(both), "moved": moved}
