"""Chapter 06 (error clusters): the numbers and readings its prose needs.

:func:`readings` takes what the chapter computed (the candidate-k table, the cluster tables, the
consensus tests) and returns every glued value, formatted once for readers. Two readings answer
claims of the paper's Section 6.4: that the clusters are "error types" (:func:`type_purity`) and
that clusters of concrete facilities and services agree more than soft ones
(:func:`support_by_kind`).
"""

from __future__ import annotations

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
PURITY_MARGIN = 10  # percentage points above the commonest type's share before clusters read as types
Z_CELL = 1.96  # an adjusted residual beyond this: the type is over-represented in the group (5%, cell by cell)
# data/paper_relations.yaml's readings of "roughly one third" (its reported value and tolerance are used)
THIRD_NAMED, THIRD_EXAMPLES = "s64_proximity_third_named_cluster", "s64_proximity_third_examples"
# Section 6.4, "Error Type Breakdown": the cluster groups the paper names for each error type
# ("Non-checkable errors frequently describe ... Walking Distance, Facility Description, and Experience
# claims"; "Misleading errors tend to involve overstated amenities or proximity"; "Incorrect errors mostly
# concern concrete facility or feature mentions (e.g., 'business centre', ...)")
PAPER_TYPE_GROUPS = {
    "Not Checkable": ("Walking Distance", "Facility Description", "Experience/Atmosphere"),
    "Misleading": ("Amenity Availability", "Proximity"),
    "Incorrect": ("Business Facility",),
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
        "the paper's k). Cluster names and shares below are one seed's."
    )


def type_purity(cross: pd.DataFrame) -> dict[str, float]:
    """How far clusters are error types: the share (%) of a cluster's spans that carry its
    commonest type, over all spans (``purity``), against the commonest type's share overall
    (``baseline``: the least clusters unrelated to type would reach; small clusters reach more by
    chance). ``cross`` is the cluster x type
    count table of :func:`clusters.by_type`."""
    counts = cross.to_numpy(dtype=float)
    total = counts.sum()
    return {"purity": 100 * counts.max(axis=1).sum() / total, "baseline": 100 * counts.sum(axis=0).max() / total}


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


def embedded_note(corpus, reported: dict, n_embedded: int | None) -> str:
    """Why the first row of the k table compares all human spans: the paper embedded a subset of
    its human spans without saying which, this page embeds every human span. On the stand-in, the
    labels of both figures are the rule's (:mod:`hotelcheckspan.book.labels`), as the table shows."""
    paper_n = reported["clustering"]["spans_embedded"]
    total = reported["dataset"]["human_spans"]
    ours = "" if n_embedded is None else f" ({n_embedded:,})"
    if corpus.simulated:
        label = tables.figure_label("dataset/human_spans", n_embedded) if n_embedded is not None else None
        label = label or labels.kind("dataset/human_spans")
        kind, _, gap = label.partition(", ")
        ours += f", whose number is {kind} from the paper's {total:,}" + (f" ({gap})" if gap else "")
        ours += f"; the paper's {paper_n:,} is *{labels.kind('clustering/spans_embedded')}* here"
    return (
        f"The paper embedded {paper_n:,} of its {total:,} human spans and does not say which; this page embeds "
        f"every human span{ours}, so the first row sets all human spans beside the paper's, not its selection."
    )


def k_rows(reported: dict, n_embedded: int, n_texts: int, k: int) -> list[tuple]:
    """The rows of the k table for ``tables.versus``: all human spans (all are embedded here; the
    paper embedded a subset), the distinct texts among them, and the chosen k."""
    paper_n = reported["clustering"]["spans_embedded"]
    return [
        (f"human spans, all embedded here (the paper embedded {paper_n:,})", "dataset/human_spans", n_embedded, 0),
        ("distinct span texts", tables.NOT_IN_PAPER, n_texts, 0),
        ("chosen k", "clustering/k_chosen", k, 0),
    ]


def _relation(rid: str) -> dict:
    return next(r.data for r in checks.load() if r.get("id") == rid)


def third_reading(share: float) -> str:
    """Whether a share (%) is "roughly one third" as ``data/paper_relations.yaml`` reads the
    phrase (its reported value, within its tolerance)."""
    rel = _relation(THIRD_NAMED)
    third, tol = float(rel["reported"]["value"]), float(rel["tolerance"])
    return (
        "roughly one third"
        if abs(round(share, 1) - third) <= tol
        else ("more than roughly one third" if share > third else "less than roughly one third")
    )


def location_readings(shares: pd.DataFrame, table7: pd.DataFrame, level: float) -> dict[str, str]:
    """Section 6.4's "proximity ... roughly one third of all annotations", on the clusters of
    :func:`clusters.location_share` (``shares``) and on the paper's Table 7 (``table7``: ``cluster
    (paper), count, pct``): our share of spans in Proximity clusters and in all location clusters,
    each with its interval, beside the paper's (as printed, of its 425 spans)."""
    t7 = table7.assign(group=table7["cluster (paper)"].map(clusters.group_of))
    paper_prox = float(t7.loc[t7["group"] == "Proximity", "pct"].sum())
    paper_loc = float(t7.loc[t7["group"].isin(clusters.LOCATION_GROUPS), "pct"].sum())
    sh = shares.set_index("group")
    prox, loc = sh.loc["Proximity"], sh.loc["all of them"]
    rel = _relation(THIRD_NAMED)
    out = {
        "third_value": tables.number(float(rel["reported"]["value"]), 1),
        "third_tol": tables.number(float(rel["tolerance"]), 0),
        "prox_share": tables.number(float(prox["share"]), 1),
        "prox_ci": f"[{tables.number(float(prox['low']), 1)}, {tables.number(float(prox['high']), 1)}]",
        "loc_share": tables.number(float(loc["share"]), 1),
        "loc_ci": f"[{tables.number(float(loc['low']), 1)}, {tables.number(float(loc['high']), 1)}]",
        "paper_prox_share": tables.number(paper_prox, 1),
        "paper_loc_share": tables.number(paper_loc, 1),
        "prox_third": third_reading(float(prox["share"])),
        "loc_third": third_reading(float(loc["share"])),
        "paper_prox_third": third_reading(paper_prox),
        "paper_loc_third": third_reading(paper_loc),
        "prox_vs_paper": "within" if prox["low"] <= paper_prox <= prox["high"] else "outside",
        "loc_vs_paper": "within" if loc["low"] <= paper_loc <= loc["high"] else "outside",
        "loc_groups": ", ".join(clusters.LOCATION_GROUPS),
        "level_pct_loc": str(round(100 * level)),
    }
    return out


def type_pairings(residuals: pd.DataFrame) -> pd.DataFrame:
    """The paper's pairings of error types with cluster groups (:data:`PAPER_TYPE_GROUPS`) against
    the adjusted residuals of :func:`clusters.type_residuals`: per pairing, the spans, the residual
    and a reading ("over-represented" beyond :data:`Z_CELL`, "under-represented", "as expected",
    or "no such cluster here"). Columns: ``type, group, spans, expected, residual, reading``."""
    r = residuals.set_index(["type", "group"])
    rows = []
    for typ, groups in PAPER_TYPE_GROUPS.items():
        for g in groups:
            if (typ, g) in r.index:
                cell = r.loc[(typ, g)]
                z = float(cell["residual"])
                reading = "over-represented" if z > Z_CELL else "under-represented" if z < -Z_CELL else "as expected"
                rows.append(
                    {
                        "type": typ,
                        "group": g,
                        "spans": int(cell["spans"]),
                        "expected": float(cell["expected"]),
                        "residual": z,
                        "reading": reading,
                    }
                )
            else:
                rows.append(
                    {
                        "type": typ,
                        "group": g,
                        "spans": 0,
                        "expected": float("nan"),
                        "residual": float("nan"),
                        "reading": "no such cluster here",
                    }
                )
    return pd.DataFrame(rows)


def pairing_readings(pairings: pd.DataFrame, type_test: pd.DataFrame) -> dict[str, str]:
    """How many of the paper's type-cluster pairings hold here (over-represented), and the
    strength of the whole association (Cramér's V)."""
    held = int((pairings["reading"] == "over-represented").sum())
    absent = int((pairings["reading"] == "no such cluster here").sum())
    v = float(type_test.iloc[0]["Cramér's V"])
    return {
        "cramers_v": tables.number(v, 2),
        "pairings_n": str(len(pairings)),
        "pairings_held": str(held),
        "pairings_absent": str(absent),
        "pairings_reading": (
            "the paper's breakdown by type holds here"
            if held == len(pairings)
            else "the paper's breakdown by type holds here only in part"
            if held
            else "none of the paper's pairings of types with clusters holds here"
        ),
        "z_cell": tables.number(Z_CELL, 2),
    }


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
    location: pd.DataFrame | None = None,
    pairings: pd.DataFrame | None = None,
) -> dict[str, str | Passage]:
    """Every value chapter 06 glues (see the chapter for where each appears). ``location`` is
    :func:`clusters.location_share`'s frame and ``pairings`` :func:`type_pairings`' (the Section
    6.4 readings of location shares and type pairings are left out without them)."""
    k_lo, k_hi = k_range
    c = candidates.set_index("chosen by")
    reported = paper.figures()
    sil = {w: _n(c.loc[w, "silhouette"], 3) for w in (PICK, PAPER)}
    out: dict[str, str | Passage] = {
        "n_init": str(clusters.N_INIT),
        "k_lo": str(k_lo),
        "k_hi": str(k_hi),
        "n_seeds": str(len(clusters.SEEDS)),
        "ari_pick": _n(c.loc[PICK, "mean ARI"]),
        "ari_paper": _n(c.loc[PAPER, "mean ARI"]),
        "k_reading": (
            f"The silhouette picks k = {k}, the paper's k"
            if k == paper_k
            else f"The silhouette picks k = {k} (silhouette {sil[PICK]}) where the paper reports k = {paper_k} "
            f"(silhouette {sil[PAPER]} here)"
        )
        + (", the end of the search range: the curve has not peaked inside it." if k == k_hi else "."),
        "ari_reading": stability_reading(candidates),
        "paper_listed": str(len(table7)),
        "paper_k": str(paper_k),
        "paper_share_base": str(int(round(100 * table7["count"].sum() / table7["pct"].sum()))),
        "level_pct": str(round(100 * level)),
        "embedded_note": Passage(embedded_note(corpus, reported, n_embedded)),
    }
    if location is not None:
        out |= location_readings(location, table7, level)
    if pairings is not None:
        out |= pairing_readings(pairings, type_test)

    # error types per cluster (Section 6.4 calls the clusters "error types")
    t = type_test.iloc[0]
    purity = type_purity(cross)
    out["types_reading"] = (
        (
            "Error types are associated with clusters"
            if t["p-value"] < ALPHA
            else "Error types do not sort into clusters beyond chance"
        )
        + f" (chi-square p = {clusters.p_text(t['p-value'])}, with {int(t['cells expected below 5'])} of "
        f"{int(t['cells'])} cells expected below five, so the approximation is rough)."
    )
    out["purity"] = _n(purity["purity"], 0)
    out["purity_base"] = _n(purity["baseline"], 0)
    out["purity_gap"] = _n(purity["purity"] - purity["baseline"], 0)
    out["purity_reading"] = (
        "clusters group spans by what the claim says, hardly by error type"
        if purity["purity"] - purity["baseline"] < PURITY_MARGIN
        else "clusters go some way towards error types"
    )

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
    out |= {
        "n_tested": str(int(cmh["spans"])),
        "n_excluded": str(int(claim_counts["mixed"] + claim_counts["none"])),
        "crude_or": _n(crude["odds ratio"]),
        "crude_p": clusters.p_text(crude["p-value"]),
        "cmh_or": _n(cmh["odds ratio"]),
        "cmh_low": _n(cmh["low"]),
        "cmh_high": _n(cmh["high"]),
        "cmh_p": clusters.p_text(cmh["p-value"]),
        "cmh_reading": f"soft claims get {'less' if cmh['odds ratio'] < 1 else 'more'} support from a second "
        f"annotator than concrete ones{', significantly' if significant else ', but not significantly'}",
        "paper_claim": "reproduced" if significant and cmh["odds ratio"] < 1 else "not reproduced",
    }

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
            f"{_n(soft, 0)}% support and concrete ones {_n(concrete, 0)}% ({direction}). Clusters mix kinds and "
            "change with the seed, so the span-level test above decides: "
            f"the paper's reading is {out['paper_claim']} here."
        )
    else:
        out["kind_reading"] = (
            "No cluster here is mostly soft, or none mostly concrete, so the paper's cluster-level claim cannot be "
            f"read off the clusters; the span-level test above decides: the paper's reading is {out['paper_claim']} "
            "here."
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
    if t7 == "emergent":
        sizes = "Table 7's cluster sizes are *emergent* here: nothing in the simulation aims at them"
    else:
        sizes = f"Table 7's cluster sizes are *{t7}* here" + (f": {why}" if why else "")
    return (
        "On the simulated stand-in the claim families of the summaries were taken from the paper's Table 7, so "
        f"that the clusters resemble the paper's taxonomy is by construction. {sizes}; so the share of location "
        "clusters, and the error types that go with each cluster, say how the generator was written, not what "
        "the paper's annotators did. The generator also treats the families differently by hand: each has its "
        "own mix of supported, not checkable, misleading and incorrect claims, and supported location, "
        "atmosphere and view claims look more doubtful to every annotator (`simulation.summaries.FAMILIES` and "
        "`VAGUE`; see the data sheet). The association with types and the consensus test follow from those "
        f"hand-set choices and the calibrated annotators. The chosen k is *{k}*."
    )
