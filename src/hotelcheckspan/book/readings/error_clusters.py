"""Chapter 06 (error clusters): the numbers and readings its prose needs.

:func:`readings` takes what the chapter computed (the candidate-k table, the cluster tables, the
consensus tests) and returns every glued value, formatted once for readers. Two readings answer
claims of the paper's Section 6.4: that the clusters are "error types" (:func:`type_purity`) and
that clusters of concrete facilities and services agree more than soft ones
(:func:`support_by_kind`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...analyses import clusters
from ...reference import checks, paper
from .. import labels, tables
from . import Passage, simulated_only


def consensus_table(strata: pd.DataFrame) -> tables.Table:
    """``clusters.consensus_by_stratum`` for readers: spans with support per stratum and its share."""
    renamed = strata.rename(
        columns={"annotators": "annotators per example", "agreed": "spans with support", "share": "share %"}
    )
    return tables.show(renamed, decimals={"share %": 1})


def cluster_consensus_table(per_cluster: pd.DataFrame) -> tables.Table:
    """``clusters.by_consensus`` for readers: each cluster's spans and their share with support."""
    renamed = per_cluster.rename(columns={"label": "name", "size": "spans", "agreed": "share with support %"})
    return tables.show(renamed, decimals={"share with support %": 1})


PICK, PAPER = "silhouette's pick", "the paper"
ALPHA = 0.05
PERMUTATIONS = 2000  # shuffles of the types over the clusters for the purity expected by chance
PERMUTATION_SEED = 0
Z_CELL = 1.96  # an adjusted residual beyond this: the type is over-represented in the group (5%, cell by cell)
EDGE = 3  # a pick this close to the end of the k range rests on where the range stops
NAMED = "named"
# Section 6.4, "Error Type Breakdown": the cluster groups the paper gives each error type, by name ("named")
# or admitted by its examples and wording (the words quoted): "Non-checkable errors frequently describe ...
# Walking Distance, Facility Description, and Experience claims"; "Misleading errors tend to involve
# overstated amenities or proximity (e.g., 'easy access to attractions,' 'spa centre with a hot tub')";
# "Incorrect errors mostly concern concrete facility or feature mentions (e.g., 'business centre,'
# 'in-room service')", which names no group of Table 7
PAPER_TYPE_GROUPS = {
    "Not Checkable": {
        "Walking Distance": NAMED,
        "Facility Description": NAMED,
        "Experience/Atmosphere": NAMED,
    },
    "Misleading": {
        "Amenity Availability": NAMED,
        "Proximity": NAMED,
        "Access Convenience": "its example 'easy access to attractions'",
    },
    "Incorrect": {
        "Business Facility": "its example 'business centre'",
        "Amenity Availability": "its example 'in-room service'; 'concrete facility or feature'",
        "Dining/Food": "'concrete facility or feature'",
        "Facility Description": "'concrete facility or feature'",
    },
}


def _n(v, d: int = 2) -> str:
    return tables.number(round(float(v), d), d)


def stability_reading(candidates: pd.DataFrame) -> str:
    """Which k is the more stable across seeds, from mean *and* lowest pairwise ARI as shown
    (two decimals): "more stable" only when neither measure favours the other k."""
    c = candidates.set_index("chosen by")
    mean = {w: round(float(c.loc[w, "mean ARI"]), 2) for w in (PICK, PAPER)}
    low = {w: round(float(c.loc[w, "lowest ARI"]), 2) for w in (PICK, PAPER)}
    name = {PICK: "the silhouette's pick", PAPER: "the paper's k"}
    sign = lambda d: (d[PAPER] > d[PICK]) - (d[PAPER] < d[PICK])  # noqa: E731 (+1: the paper's k higher)
    s_mean, s_low = sign(mean), sign(low)
    pref = lambda s: PAPER if s > 0 else PICK  # noqa: E731
    other = lambda s: PICK if s > 0 else PAPER  # noqa: E731
    if s_mean == 0 and s_low == 0:
        verdict = "both are equally stable"
    elif s_mean == s_low:
        verdict = f"{name[pref(s_mean)]} is the more stable, by its mean and by its lowest ARI"
    elif s_low == 0:
        verdict = (
            f"{name[pref(s_mean)]} has the higher mean ARI but the same lowest ARI, so neither k is clearly the "
            "more stable"
        )
    elif s_mean == 0:
        verdict = (
            f"{name[pref(s_low)]} has the higher lowest ARI but the same mean, so neither k is clearly the more stable"
        )
    else:
        verdict = (
            f"the two measures disagree ({name[pref(s_mean)]} has the higher mean ARI, "
            f"{name[other(s_mean)]} the higher lowest ARI), so neither k is clearly the more stable"
        )
    lead = (
        "runs with different seeds share only part of their partitions (mean ARI below 0.8); "
        if max(mean.values()) < 0.8
        else ""
    )
    return (
        f"{lead}{verdict} (lowest pairwise ARI {_n(low[PICK])} at the silhouette's pick, {_n(low[PAPER])} at "
        f"the paper's k). The clusters below, their names and shares, are seed {clusters.SEED}'s; the tests of types "
        "and the location shares are given for every seed too (in the table of seeds under Location claims)."
    )


def type_purity(
    cross: pd.DataFrame, permutations: int = PERMUTATIONS, seed: int = PERMUTATION_SEED, level: float = 0.95
) -> dict[str, float]:
    """How far clusters sort the annotated types: the share (%) of a cluster's spans that carry
    its commonest type, over all spans (``purity``), against what clusters unrelated to type give:
    the same clusters with the types shuffled over their spans ``permutations`` times (seeded),
    their mean (``expected``) and central ``level`` range (``low``, ``high``); ``baseline`` is the
    commonest type's share overall, the floor that small clusters rise above by chance alone.
    ``cross`` is the cluster x type count table of :func:`clusters.by_type`."""
    counts = cross.to_numpy(dtype=int)
    n_clusters, n_types = counts.shape
    total = int(counts.sum())
    cluster_of = np.repeat(np.arange(n_clusters), counts.sum(axis=1))
    types = np.repeat(np.tile(np.arange(n_types), n_clusters), counts.ravel())  # in cluster order, as cluster_of
    rng = np.random.default_rng(seed)
    shuffled = types[np.argsort(rng.random((permutations, total)), axis=1)]
    cell = cluster_of[None, :] * n_types + shuffled + (np.arange(permutations) * n_clusters * n_types)[:, None]
    tables_ = np.bincount(cell.ravel(), minlength=permutations * n_clusters * n_types).reshape(
        permutations, n_clusters, n_types
    )
    chance = 100 * tables_.max(axis=2).sum(axis=1) / total
    tail = (1 - level) / 2
    return {
        "purity": 100 * counts.max(axis=1).sum() / total,
        "baseline": 100 * counts.sum(axis=0).max() / total,
        "expected": float(chance.mean()),
        "low": float(np.quantile(chance, tail)),
        "high": float(np.quantile(chance, 1 - tail)),
    }


def purity_reading(purity: dict[str, float]) -> str:
    """The purity against its chance range, in the words the page uses (rounded as shown)."""
    shown = {key: round(value) for key, value in purity.items()}
    if shown["purity"] > shown["high"]:
        return "above what shuffled types reach: clusters go some way towards the annotated types"
    if shown["purity"] < shown["low"]:
        return "below what shuffled types reach"
    return "within what shuffled types reach: the clusters do not sort the annotated types beyond chance"


def support_by_kind(per_cluster: pd.DataFrame) -> pd.DataFrame:
    """Support (% of spans another annotator's span overlaps) pooled over the clusters whose
    commonest claim kind is soft or concrete. ``per_cluster`` is :func:`clusters.by_consensus`'s
    frame. Columns: ``claim, clusters, spans, agreed`` (agreed in %)."""
    f = per_cluster[per_cluster["claim"].isin(["soft", "concrete"])].assign(
        n_agreed=lambda d: d["agreed"] * d["size"] / 100
    )
    out = f.groupby("claim").agg(clusters=("cluster", "size"), spans=("size", "sum"), n_agreed=("n_agreed", "sum"))
    out["agreed"] = 100 * out["n_agreed"] / out["spans"]
    return out.drop(columns="n_agreed").reset_index()


def embedded_note(corpus, reported: dict, n_embedded: int | None, n_texts: int | None = None) -> str:
    """What the first two rows of the k table set beside the paper's 464 "embedded" spans: the paper
    does not say which of its human spans it embedded, so the page takes both readings of "all
    annotated error spans" (its checks list them): every human span (first row) and their
    distinct texts (second row). On the stand-in, each figure's label is the rule's
    (:mod:`hotelcheckspan.book.labels`), as the table shows."""
    paper_n = reported["clustering"]["spans_embedded"]
    total = reported["dataset"]["human_spans"]
    ours = "" if n_embedded is None else f" ({n_embedded:,})"
    texts = "" if n_texts is None else f" ({n_texts:,})"
    if corpus.simulated:
        label = tables.figure_label("dataset/human_spans", n_embedded) if n_embedded is not None else None
        label = label or labels.kind("dataset/human_spans")
        kind, _, gap = label.partition(", ")
        ours += f", whose number is {kind} from the paper's {total:,}" + (f" ({gap})" if gap else "")
        texts += f", *{labels.kind('clustering/spans_embedded')}* here"
    return (
        f"The paper embedded {paper_n:,} of its {total:,} human spans and does not say which. This page embeds "
        f"every human span{ours}, set in the first row beside the paper's {total:,}; read as the distinct texts "
        f"of the human spans, the paper's {paper_n:,} is set in the second row beside ours{texts}. Which reading "
        "the paper meant it does not say (its checks, at the end of the chapter, list both)."
    )


def k_rows(reported: dict, n_embedded: int, n_texts: int, k: int) -> list[tuple]:
    """The rows of the k table for ``tables.versus``: all human spans (all are embedded here) beside
    the paper's human spans, their distinct texts beside the paper's embedded spans (one reading of
    them), and the chosen k."""
    return [
        ("human spans, all embedded here", "dataset/human_spans", n_embedded, 0),
        (
            "distinct span texts (the paper's embedded spans, read as distinct texts)",
            "clustering/spans_embedded",
            n_texts,
            0,
        ),
        ("chosen k", "clustering/k_chosen", k, 0),
    ]


def k_reading(curve: pd.DataFrame | None, candidates: pd.DataFrame, k: int, paper_k: int, k_hi: int) -> str:
    """The silhouette's pick against the paper's k, and whether the pick sits at or near the end of
    the search range (within :data:`EDGE` of it), where the curve has not shown that it falls."""
    c = candidates.set_index("chosen by")
    sil = {w: _n(c.loc[w, "silhouette"], 3) for w in (PICK, PAPER)}
    lead = (
        f"The silhouette picks k = {k}, the paper's k"
        if k == paper_k
        else f"The silhouette picks k = {k} (silhouette {sil[PICK]}) where the paper reports k = {paper_k} "
        f"(silhouette {sil[PAPER]} here)"
    )
    if k_hi - k >= EDGE:
        return lead + "."
    where = "the end of the search range" if k == k_hi else f"{k_hi - k} below the end of the search range ({k_hi})"
    rise = ""
    if curve is not None and len(curve):
        by_k = curve.set_index("k")["silhouette"]
        first, last = int(by_k.index.min()), int(by_k.index.max())
        rise = f"; the curve rises from {_n(by_k[first], 3)} at k = {first} to {_n(by_k[k], 3)} at k = {k}" + (
            f" and is {_n(by_k[last], 3)} at k = {last}" if last != k else ""
        )
    return f"{lead}, {where}{rise}: a pick this near the edge may rest on where the range stops."


def location_readings(
    shares: pd.DataFrame, table7: pd.DataFrame, level: float, per_seed: pd.DataFrame | None = None
) -> dict[str, str]:
    """Section 6.4's "proximity ... roughly one third of all annotations", on the clusters of
    :func:`clusters.location_share` (``shares``, one seed's) and on the paper's Table 7 (``table7``:
    ``cluster (paper), count, pct``): our share of spans in Proximity clusters and in all location
    clusters, each with its interval and, given ``per_seed`` (:func:`clusters.across_seeds`), its
    range over the seeds, beside the paper's (as printed). No verdict on "roughly one third": that
    is a wording question (a text relation of ``data/paper_relations.yaml``)."""
    t7 = table7.assign(group=table7["cluster (paper)"].map(clusters.group_of))
    paper_prox = float(t7.loc[t7["group"] == "Proximity", "pct"].sum())
    paper_loc = float(t7.loc[t7["group"].isin(clusters.LOCATION_GROUPS), "pct"].sum())
    # Table 7's row one too many (checks.table7_extra_rows): a sub-cluster listed beside its parent,
    # whose spans, if its parent is a location row, the location sum counts twice
    extra = checks.table7_extra_rows()
    extra = extra[extra["name"].map(clusters.group_of).isin(clusters.LOCATION_GROUPS)]
    paper_locs = [paper_loc] + [round(paper_loc - float(x), 1) for x in extra["pct"]]
    sh = shares.set_index("group")
    prox, loc = sh.loc["Proximity"], sh.loc["all of them"]

    def against(low: float, high: float, values: list[float]) -> str:
        inside = [low <= v <= high for v in values]
        return "within" if all(inside) else "outside" if not any(inside) else "partly within"

    out = {
        "prox_share": tables.number(float(prox["share"]), 1),
        "prox_ci": f"[{tables.number(float(prox['low']), 1)}, {tables.number(float(prox['high']), 1)}]",
        "loc_share": tables.number(float(loc["share"]), 1),
        "loc_ci": f"[{tables.number(float(loc['low']), 1)}, {tables.number(float(loc['high']), 1)}]",
        "paper_prox_share": tables.number(paper_prox, 1),
        "paper_loc_share": tables.number(paper_loc, 1),
        "paper_loc_note": "".join(
            f" (or {tables.number(v, 1)}% if {name}'s {tables.number(int(n))} spans already lie in another location "
            "row, as Table 7's sums suggest of a row listed beside its parent: see the checks)"
            for v, name, n in zip(paper_locs[1:], extra["name"], extra["count"])
        ),
        "prox_vs_paper": "within" if prox["low"] <= paper_prox <= prox["high"] else "outside",
        "loc_vs_paper": against(float(loc["low"]), float(loc["high"]), paper_locs),
        "loc_groups": ", ".join(clusters.LOCATION_GROUPS),
        "level_pct_loc": str(round(100 * level)),
    }
    if per_seed is not None and len(per_seed):
        for key, column, paper_value in (("prox", "Proximity", paper_prox), ("loc", "all of them", paper_loc)):
            lo, hi = round(float(per_seed[column].min()), 1), round(float(per_seed[column].max()), 1)
            out[f"{key}_seed_low"] = tables.number(lo, 1)
            out[f"{key}_seed_high"] = tables.number(hi, 1)
            out[f"{key}_seed_vs_paper"] = against(lo, hi, paper_locs if key == "loc" else [paper_value])
    return out


def type_pairings(residuals: pd.DataFrame) -> pd.DataFrame:
    """The paper's pairings of error types with cluster groups (:data:`PAPER_TYPE_GROUPS`: named,
    or admitted by its examples and wording) against the adjusted residuals of
    :func:`clusters.type_residuals`: per pairing, the spans, the residual and a reading
    ("over-represented" beyond :data:`Z_CELL`, "under-represented", "as expected", or "no such
    cluster here"). Columns: ``type, group, paper, spans, expected, residual, reading`` (``paper``:
    "named" or the words that admit the group)."""
    r = residuals.set_index(["type", "group"])
    rows = []
    for typ, groups in PAPER_TYPE_GROUPS.items():
        for g, basis in groups.items():
            row = {"type": typ, "group": g, "paper": basis}
            if (typ, g) in r.index:
                cell = r.loc[(typ, g)]
                z = float(cell["residual"])
                reading = "over-represented" if z > Z_CELL else "under-represented" if z < -Z_CELL else "as expected"
                row |= {"spans": int(cell["spans"]), "expected": float(cell["expected"]), "residual": z}
            else:
                row |= {"spans": 0, "expected": float("nan"), "residual": float("nan")}
                reading = "no such cluster here"
            rows.append(row | {"reading": reading})
    return pd.DataFrame(rows)


def _held(pairings: pd.DataFrame) -> dict[str, int]:
    over = pairings["reading"] == "over-represented"
    named = pairings["paper"] == NAMED
    return {
        "named": int((over & named).sum()),
        "named_n": int(named.sum()),
        "all": int(over.sum()),
        "all_n": len(pairings),
        "absent": int((pairings["reading"] == "no such cluster here").sum()),
    }


def pairing_readings(pairings: pd.DataFrame, type_test: pd.DataFrame, corpus=None) -> dict[str, str]:
    """How many of the paper's type-cluster pairings hold here (over-represented): those it names
    and all its words admit; on the stand-in, the type mixes that decide them were set from the
    same passage of the paper (``summaries.FAMILIES``), so the reading says "by construction"."""
    held = _held(pairings)
    if held["all"] == held["all_n"]:
        reading = "the paper's breakdown by type holds here"
    elif held["all"]:
        reading = "the paper's breakdown by type holds here only in part"
    else:
        reading = "none of the paper's pairings of types with clusters holds here"
    if getattr(corpus, "simulated", False):
        reading += (
            ", by construction: the stand-in's families draw their types from mixes set by hand from this same "
            "passage of the paper (summaries.FAMILIES)"
        )
    return {
        "pairings_named_n": str(held["named_n"]),
        "pairings_named_held": str(held["named"]),
        "pairings_n": str(held["all_n"]),
        "pairings_held": str(held["all"]),
        "pairings_absent": str(held["absent"]),
        "pairings_reading": reading,
        "z_cell": tables.number(Z_CELL, 2),
    }


def seed_pairings(residuals_by_seed: pd.DataFrame) -> pd.DataFrame:
    """Per seed, how many of the paper's pairings are over-represented (:func:`type_pairings` on
    each seed's residuals, :func:`clusters.across_seeds`): ``seed, named, all`` (named: of the
    pairings the paper names)."""
    rows = []
    for seed, res in residuals_by_seed.groupby("seed", sort=True):
        held = _held(type_pairings(res))
        rows.append({"seed": int(seed), "named": held["named"], "all": held["all"]})
    return pd.DataFrame(rows)


def seed_table(per_seed: pd.DataFrame, residuals_by_seed: pd.DataFrame) -> tables.Table:
    """Every seed's readings side by side: the chi-square p of cluster and type, the bias-corrected
    Cramér's V, the location shares and the paper's pairings held (named, and all its words admit)."""
    held = seed_pairings(residuals_by_seed)
    n_named = sum(b == NAMED for groups in PAPER_TYPE_GROUPS.values() for b in groups.values())
    n_all = sum(len(groups) for groups in PAPER_TYPE_GROUPS.values())
    frame = per_seed.merge(held, on="seed").assign(**{"p-value": lambda d: d["p-value"].map(clusters.p_text)})
    frame = frame.rename(
        columns={
            "Cramér's V (bias-corrected)": "V (bias-corrected)",
            **{g: f"{g} %" for g in (*clusters.LOCATION_GROUPS, "all of them")},
            "all of them %": "all location %",
            "named": f"pairings held, of {n_named} named",
            "all": f"pairings held, of {n_all}",
        }
    )
    frame = frame.rename(columns={"all of them %": "all location %"})
    percent = {c: 1 for c in frame.columns if c.endswith("%")}
    return tables.show(frame, decimals={"V (bias-corrected)": 2, **percent})


def seed_readings(per_seed: pd.DataFrame, residuals_by_seed: pd.DataFrame) -> dict[str, str]:
    """The ranges over the seeds the prose gives beside seed 0's readings."""
    p = per_seed["p-value"]
    held = seed_pairings(residuals_by_seed)
    v = per_seed["Cramér's V (bias-corrected)"]
    return {
        "n_runs": str(len(per_seed)),
        "p_seed_low": clusters.p_text(float(p.min())),
        "p_seed_high": clusters.p_text(float(p.max())),
        "p_seed_below": str(int((p < ALPHA).sum())),
        "v_seed_low": _n(v.min()),
        "v_seed_high": _n(v.max()),
        "held_seed": _range(held["all"]),
        "held_named_seed": _range(held["named"]),
    }


def _range(counts: pd.Series) -> str:
    low, high = int(counts.min()), int(counts.max())
    return f"{low} at every seed" if low == high else f"from {low} to {high} over the seeds"


def checks_lead(results: pd.DataFrame) -> str:
    """The lead of the chapter's checks of the paper, counted from them: distinct problems
    inconsistent under every reading (named by their ``problem``), and questions (one per claim,
    however many readings it is checked under) that depend on the reading or are consistent."""
    questions = results.groupby("group", sort=False)["verdict"].first()
    bad = results[results["verdict"] == "inconsistent"]
    problems = list(dict.fromkeys(p.split(":")[0] for p in bad["problem"].where(bad["problem"] != "–", bad["claim"])))
    n_read = int((questions == "depends on the reading").sum())
    n_ok = int((questions == "consistent").sum())

    def count(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"

    parts = []
    if problems:
        parts.append(
            f"{count(len(problems), 'problem is', 'problems are')} inconsistent under every reading tried "
            f"({'; '.join(problems)})"
        )
    if n_read:
        parts.append(f"{count(n_read, 'question depends', 'questions depend')} on the reading")
    if n_ok:
        parts.append(f"{count(n_ok, 'is', 'are')} consistent")
    return (
        f"Of the {len(questions)} questions checked here, "
        + ", ".join(parts[:-1])
        + (" and " if len(parts) > 1 else "")
        + parts[-1]
        + " (the tally under the table counts checks, one per reading of a question)."
    )


def readings(
    corpus,
    *,
    candidates: pd.DataFrame,
    k: int,
    paper_k: int,
    k_range: tuple[int, int],
    table7: pd.DataFrame,
    cross: pd.DataFrame,
    type_test: pd.DataFrame,
    claim_counts: pd.Series,
    strata: pd.DataFrame,
    consensus_tests: pd.DataFrame,
    per_cluster: pd.DataFrame,
    level: float,
    n_embedded: int | None = None,
    n_texts: int | None = None,
    location: pd.DataFrame | None = None,
    pairings: pd.DataFrame | None = None,
    curve: pd.DataFrame | None = None,
    overview: pd.DataFrame | None = None,
    residuals: pd.DataFrame | None = None,
    per_seed: pd.DataFrame | None = None,
    residuals_by_seed: pd.DataFrame | None = None,
    checked: pd.DataFrame | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 06 glues (see the chapter for where each appears). ``location`` is
    :func:`clusters.location_share`'s frame and ``pairings`` :func:`type_pairings`' (the Section
    6.4 readings of location shares and type pairings are left out without them); ``per_seed`` and
    ``residuals_by_seed`` are :func:`clusters.across_seeds`' (the ranges over seeds), ``overview``
    and ``residuals`` seed 0's clusters and group residuals, ``checked`` the chapter's checks of the
    paper (:func:`hotelcheckspan.reference.checks.for_chapter`)."""
    k_lo, k_hi = k_range
    c = candidates.set_index("chosen by")
    reported = paper.figures()
    out: dict[str, str | Passage] = {
        "our_model": clusters.MODEL_NAME,
        "n_init": str(clusters.N_INIT),
        "k_lo": str(k_lo),
        "k_hi": str(k_hi),
        "n_seeds": str(len(clusters.SEEDS)),
        "alpha": tables.number(ALPHA, 2),
        "seed0": str(clusters.SEED),
        "ari_pick": _n(c.loc[PICK, "mean ARI"]),
        "ari_paper": _n(c.loc[PAPER, "mean ARI"]),
        "k_reading": k_reading(curve, candidates, k, paper_k, k_hi),
        "ari_reading": stability_reading(candidates),
        "paper_listed": str(len(table7)),
        "paper_k": str(paper_k),
        # the whole Table 7's printed shares fit, as the paper's checks solve for it
        "paper_share_base": checks.implied().set_index("id").loc["table7_whole", "shown"],
        "level_pct": str(round(100 * level)),
        "embedded_note": Passage(embedded_note(corpus, reported, n_embedded, n_texts)),
    }
    if location is not None:
        out |= location_readings(location, table7, level, per_seed)
    if pairings is not None:
        out |= pairing_readings(pairings, type_test, corpus)
    if per_seed is not None and residuals_by_seed is not None:
        out |= seed_readings(per_seed, residuals_by_seed)
    if overview is not None:
        groups = overview["label"].map(clusters.group_of)
        prox = list(dict.fromkeys(overview.loc[groups == "Proximity", "label"]))
        out["prox_examples"] = " and ".join(f"“{name}”" for name in prox[:2]) + (
            " are both" if len(prox) > 1 else " is"
        )
        facility = overview[groups == "Facility Description"]
        kinds = list(dict.fromkeys(facility["claim"]))
        out["facility_spans"] = str(int(facility["size"].sum()))
        out["facility_kind"] = " and ".join(kinds) if kinds else "none"
    if checked is not None:
        out["checks_lead"] = checks_lead(checked)

    # error types per cluster (Section 6.4's clusters are "semantically coherent error types": kinds of claim)
    t = type_test.iloc[0]
    n_runs = out.get("n_runs")
    seeds = (
        f"; over the {n_runs} seeds' runs p runs from {out['p_seed_low']} to {out['p_seed_high']}, below "
        f"{tables.number(ALPHA, 2)} in {out['p_seed_below']} of them"
        if n_runs
        else ""
    )
    out["types_reading"] = (
        (
            "Error types are associated with clusters"
            if t["p-value"] < ALPHA
            else "Error types do not sort into clusters beyond chance"
        )
        + f" at seed {clusters.SEED} (chi-square p = {clusters.p_text(t['p-value'])}, with "
        f"{int(t['cells expected below 5'])} of {int(t['cells'])} cells expected below five, so the approximation "
        f"is rough){seeds}."
    )
    v_plain = float(t["Cramér's V"])
    r, k_types = cross.shape
    n_spans = float(cross.to_numpy().sum())
    out["cramers_v"] = _n(t["Cramér's V (bias-corrected)"])
    out["cramers_v_plain"] = _n(v_plain)
    out["cramers_v_null"] = _n(np.sqrt((r - 1) * (k_types - 1) / (n_spans * min(r - 1, k_types - 1))))
    purity = type_purity(cross)
    out |= {
        "purity": _n(purity["purity"], 0),
        "purity_base": _n(purity["baseline"], 0),
        "purity_expected": _n(purity["expected"], 0),
        "purity_low": _n(purity["low"], 0),
        "purity_high": _n(purity["high"], 0),
        "permutations": f"{PERMUTATIONS:,}",
        "purity_reading": purity_reading(purity),
    }

    # support by number of annotators
    overall = strata.groupby("annotators")[["spans", "agreed"]].sum()
    share = 100 * overall["agreed"] / overall["spans"]
    n_lo, n_hi = int(overall.index.min()), int(overall.index.max())
    out |= {
        "n_lo_ann": str(n_lo),
        "n_hi_ann": str(n_hi),
        "others_lo": str(n_lo - 1),
        "others_hi": str(n_hi - 1),
        "share_lo": _n(share.loc[n_lo], 0),
        "share_hi": _n(share.loc[n_hi], 0),
    }

    # soft against concrete, pooled and stratified
    tests = consensus_tests.set_index("test")
    crude = tests.loc["crude (Fisher's exact test)"]
    cmh = tests.loc["stratified by annotators (Cochran-Mantel-Haenszel)"]
    significant = cmh["p-value"] < ALPHA
    if not significant:
        spans_one = round(float(cmh["low"]), 2) <= 1 <= round(float(cmh["high"]), 2)
        cmh_reading = (
            ("the interval takes in one, so " if spans_one else f"p is not below {tables.number(ALPHA, 2)}, so ")
            + "these spans do not show soft claims getting less support from a second annotator than concrete ones, "
            "nor more"
        )
    else:
        cmh_reading = (
            f"soft claims get {'less' if cmh['odds ratio'] < 1 else 'more'} support from a second annotator than "
            "concrete ones, significantly"
        )
    reproduced = significant and cmh["odds ratio"] < 1
    out |= {
        "n_tested": str(int(cmh["spans"])),
        "n_excluded": str(int(claim_counts["mixed"] + claim_counts["none"])),
        "crude_or": _n(crude["odds ratio"]),
        "crude_p": clusters.p_text(crude["p-value"]),
        "cmh_or": _n(cmh["odds ratio"]),
        "cmh_low": _n(cmh["low"]),
        "cmh_high": _n(cmh["high"]),
        "cmh_p": clusters.p_text(cmh["p-value"]),
        "cmh_reading": cmh_reading,
        "paper_claim": "reproduced" if reproduced else "not reproduced",
    }
    if getattr(corpus, "simulated", False):
        verdict = (
            "On the stand-in this outcome is a property of `summaries.VAGUE`, set by hand: it makes supported soft "
            "claims look more doubtful to every annotator, which raises their shared chance of being marked and also "
            "adds false alarms to the soft spans, with no direction of support set; so it says nothing about the "
            "paper's reading that soft claims concentrate disagreement."
        )
    else:
        verdict = f"The paper's reading that soft claims concentrate disagreement is {out['paper_claim']} here."
    out["consensus_verdict"] = Passage(verdict)

    # concrete clusters agreeing more, cluster by cluster (Section 6.4)
    lowest, highest = per_cluster.iloc[0], per_cluster.iloc[-1]
    kinds = support_by_kind(per_cluster).set_index("claim")
    out |= {
        "low_cluster": str(lowest["label"]),
        "low_cluster_kind": str(lowest["claim"]),
        "low_cluster_share": _n(lowest["agreed"], 0),
        "high_cluster": str(highest["label"]),
        "high_cluster_kind": str(highest["claim"]),
        "high_cluster_share": _n(highest["agreed"], 0),
    }
    decides = "Clusters mix kinds and change with the seed, so the span-level test above decides"
    tail = (
        f"{decides}: the paper's reading is {out['paper_claim']} here."
        if not getattr(corpus, "simulated", False)
        else f"{decides}, and on the stand-in it answers for summaries.VAGUE, not for the paper (see the Summary)."
    )
    if {"soft", "concrete"} <= set(kinds.index):
        soft, concrete = float(kinds.loc["soft", "agreed"]), float(kinds.loc["concrete", "agreed"])
        direction = (
            "in the paper's direction"
            if round(concrete) > round(soft)
            else "the same"
            if round(concrete) == round(soft)
            else "against the paper's direction"
        )
        out["kind_reading"] = (
            f"Pooled over the clusters whose commonest claim is of that kind, soft clusters have "
            f"{_n(soft, 0)}% support and concrete ones {_n(concrete, 0)}% ({direction}). {tail}"
        )
    else:
        out["kind_reading"] = (
            "No cluster here is mostly soft, or none mostly concrete, so the paper's cluster-level claim cannot be "
            f"read off the clusters. {tail}"
        )
    out["sim_clusters"] = simulated_only(corpus, simulation_note())
    return out | bases(corpus)


def bases(corpus) -> dict[str, Passage]:
    """What each Summary bullet of chapter 06 rests on (:func:`hotelcheckspan.book.labels.basis`)."""
    return {
        "k_basis": labels.basis(corpus, ("k", "clustering/k_chosen")),
        "types_basis": labels.basis(corpus, ("each family's mix of error types", "summaries.FAMILIES")),
        "location_basis": labels.basis(
            corpus, ("the cluster sizes", "clustering/table7_clusters/Proximity (var.)/pct"), paper=True
        ),
        "consensus_basis": labels.basis(corpus, ("how doubtful supported soft claims look", "summaries.VAGUE")),
    }


def simulation_note() -> str:
    """What the stand-in's clusters can and cannot say, with each figure's label from the rule
    (:mod:`hotelcheckspan.book.labels`), never typed: Table 7's sizes, the chosen k, the spans."""
    t7 = labels.kind("clustering/table7_clusters")
    k = labels.kind("clustering/k_chosen")
    why = labels.reason("clustering/table7_clusters")
    k_why = labels.reason("clustering/k_chosen", "tuned") if k == "tuned" else ""
    if t7 == "emergent":
        sizes = "Table 7's cluster sizes are *emergent* here: nothing in the simulation aims at them"
    else:
        sizes = f"Table 7's cluster sizes are *{t7}* here" + (f": {why}" if why else "")
    return (
        "On the simulated stand-in the claim families of the summaries were taken from the paper's Table 7, so "
        f"that the clusters resemble the paper's taxonomy is by construction. {sizes}; so the share of location "
        "clusters, and the error types that go with each cluster, say how the generator was written, not what "
        "the paper's annotators did. The generator also treats the families differently by hand: each has its "
        "own mix of supported, Not Checkable, Misleading and Incorrect claims, and supported location, "
        "atmosphere and view claims look more doubtful to every annotator (`simulation.summaries.FAMILIES` and "
        "`VAGUE`; see the data sheet). The association with types and the consensus test follow from those "
        f"hand-set choices and the calibrated annotators. The chosen k is *{k}*" + (f": {k_why}." if k_why else ".")
    )
