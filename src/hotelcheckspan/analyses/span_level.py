"""Span-level agreement (Table 6): span F1 between annotator sets, averaged over pairs.

A comparison (``data/comparisons.yaml``) pairs every reference side with every
hypothesis set; each pair is scored with :mod:`hotelcheckspan.metrics.span_f1` on the examples
both sets annotated, and Table 6 averages the per-pair P, R and F1, with bootstrap intervals
that resample examples once for all pairs of a comparison. The corpus's spans are encoded once
per table (:class:`~hotelcheckspan.metrics.span_f1.SpanTable`) and every pair, match mode and
bootstrap replicate works on the resulting integer counts.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from scipy import sparse

from .. import paths
from ..annotator_sets import HUMAN_SETS, NOT_IN_PAPER, AnnotatorSet, judges, parse_all
from ..corpora import KEY
from ..metrics import resampling, span_f1
from ..metrics.span_f1 import COUNT_COLUMNS, per_example, prf, scores

TIE = 0.005  # values closer than half a unit of the two decimals shown share a rank


def tied_ranks(values, tie: float = TIE) -> pd.Series:
    """Ranks of ``values`` (1 = highest, a pandas Series or sequence), where a value within ``tie``
    of the next higher one shares its rank (ties chain down the sorted values): a difference no
    printed figure shows is no order. Missing values get no rank. Returns an Int64 Series on the
    values' index."""
    s = pd.Series(values, dtype=float)
    out = pd.Series(pd.NA, index=s.index, dtype="Int64")
    ordered = s.dropna().sort_values(ascending=False, kind="stable")
    rank, previous = 0, None
    for i, (idx, v) in enumerate(ordered.items(), start=1):
        if previous is None or previous - v >= tie:
            rank = i
        out[idx] = rank
        previous = v
    return out


def load_comparisons(path=None, corpus=None) -> list[dict]:
    """The comparisons of ``data/comparisons.yaml`` (or ``path``), defaults applied.

    With a ``corpus``, the file's ``judges`` rule adds one comparison per model campaign of the
    corpus that no comparison names (``name`` with ``{judge}`` replaced, ``hyp: [<judge>]``), so
    a judge the paper does not have gets its Table 6 row."""
    spec = yaml.safe_load(Path(path or paths.COMPARISONS).read_text(encoding="utf-8"))
    defaults = spec.get("defaults", {})
    comparisons = [defaults | c for c in spec["comparisons"]]
    rule = spec.get("judges")
    if rule and corpus is not None:
        named = {s.campaign for c in comparisons for side in ("ref", "hyp") for s in parse_all(c[side])}
        comparisons += [
            defaults
            | {k: v for k, v in rule.items() if k != "name"}
            | {"name": rule["name"].format(judge=j), "hyp": [j]}
            for j in judges(corpus)
            if j not in named
        ]
    return comparisons


def iter_pairs(corpus, comparisons: list[dict] | None = None):
    """Every (comparison, ref set, hyp set) pair: yields ``(name, ref_set, hyp_set, ref_spans,
    hyp_spans, examples)`` (the sets as :class:`AnnotatorSet`), the examples being those both
    sets annotated (in the reference set's record order), restricted to the comparison's
    ``examples`` (a campaign's examples, or a frame of example keys) when it has one.

    Each set is selected once, its spans frame shared by its pairs and its examples kept as
    positions among the corpus's distinct record keys, so a pair costs one small frame."""
    comparisons = comparisons if comparisons is not None else load_comparisons(corpus=corpus)
    records = corpus.records
    codes, distinct_keys = pd.MultiIndex.from_frame(records[KEY]).factorize()  # codes in first-seen order
    distinct = records[KEY].iloc[np.unique(codes, return_index=True)[1]].reset_index(drop=True)
    rec_who = (records["campaign"].to_numpy(), records["annotator_group"].to_numpy())
    span_who = (corpus.spans["campaign"].to_numpy(), corpus.spans["annotator_group"].to_numpy())
    sets: dict = {}

    def of(aset: AnnotatorSet) -> tuple[np.ndarray, pd.DataFrame]:
        """The set's examples (codes, in record order) and spans."""
        if aset not in sets:
            mine = _Encoded._mask(rec_who, aset)
            if not mine.any():
                aset.require(corpus)  # raises: the set has no records
            sets[aset] = pd.unique(codes[mine]), corpus.spans[_Encoded._mask(span_who, aset)]
        return sets[aset]

    for comp in comparisons:
        restrict, chosen = None, comp.get("examples")
        if isinstance(chosen, pd.DataFrame):  # the examples themselves (from Python, not the YAML)
            restrict = distinct_keys.get_indexer(pd.MultiIndex.from_frame(chosen[KEY].drop_duplicates()))
        elif chosen:
            restrict = codes[records["campaign"].to_numpy() == chosen]
        for ref_set in parse_all(comp["ref"]):
            ref_codes, ref_sp = of(ref_set)
            for hyp_set in parse_all(comp["hyp"]):
                hyp_codes, hyp_sp = of(hyp_set)
                both = ref_codes[np.isin(ref_codes, hyp_codes)]
                if restrict is not None:
                    both = both[np.isin(both, restrict)]
                yield comp["name"], ref_set, hyp_set, ref_sp, hyp_sp, distinct.iloc[both].reset_index(drop=True)


# The book's Table 6 definition: the one the paper's figures support (chapter 04, "Which span F1
# did the paper report?"). factgenie 1.2.1 is one flag away: convention="both".
BOOK_METRIC, BOOK_CONVENTION = "char", "either"


class _Encoded:
    """A corpus encoded once for span scoring: its spans as a :class:`SpanTable` and, per
    annotator set, the example codes of its records and its spans as arrays (cached)."""

    def __init__(self, corpus):
        # every annotated example, those without a text too (their records count in F1)
        examples = pd.concat([corpus.examples[KEY], corpus.records[KEY]], ignore_index=True)
        # a corpus without configs has no category lists: the types its spans use
        self.table = span_f1.SpanTable(corpus.spans, examples, corpus.categories or None)
        self.n_categories = len(self.table.categories)
        rec, sp = corpus.records, corpus.spans
        self.rec_codes = self.table.codes(rec)
        self._rec = (rec["campaign"].to_numpy(), rec["annotator_group"].to_numpy())
        self._sp = (sp["campaign"].to_numpy(), sp["annotator_group"].to_numpy())
        self._cache: dict = {}

    @staticmethod
    def _mask(who, aset: AnnotatorSet) -> np.ndarray:
        keep = who[0] == aset.campaign
        return keep & (who[1] == aset.group) if aset.group is not None else keep

    def set(self, aset: AnnotatorSet) -> tuple[np.ndarray, span_f1.Side]:
        """(sorted example codes of the set's records, the set's spans); raises when it has no records."""
        if aset not in self._cache:
            codes = np.unique(self.rec_codes[self._mask(self._rec, aset)])
            if codes.size == 0:
                raise ValueError(f"human set or judge {aset.spec!r} has no records in this corpus")
            self._cache[aset] = codes, self.table.side(self._mask(self._sp, aset))
        return self._cache[aset]

    def campaign_examples(self, campaign: str) -> np.ndarray:
        return np.unique(self.rec_codes[self._rec[0] == campaign])


def pairwise(
    corpus,
    comparisons: list[dict] | None = None,
    matches=("hard", "soft"),
    convention: str | None = BOOK_CONVENTION,
    metric: str = BOOK_METRIC,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per pair of sides and match mode: P/R/F1, and the per-example counts behind them.

    ``metric`` and ``convention`` choose the span-F1 definition (default: the book's, see
    ``BOOK_METRIC``). Returns ``(pairs, counts)``: ``pairs`` has columns ``comparison, ref, hyp,
    match, precision, recall, f1, examples`` and the summed counts, one row per pair and mode;
    ``counts`` is the per-example counts of every row (the key, ``category`` "all", the
    ``COUNT_COLUMNS``, ``code``: the example's integer code, and ``row``: the row of ``pairs``).
    """
    enc = _Encoded(corpus)
    comparisons = comparisons if comparisons is not None else load_comparisons(corpus=corpus)
    rows, counts = [], []
    done: dict[tuple, np.ndarray] = {}  # a pair scored on the same examples in two comparisons is counted once
    for comp in comparisons:
        chosen = comp.get("examples")
        if isinstance(chosen, pd.DataFrame):  # the examples themselves (from Python, not the YAML)
            restrict = np.unique(enc.table.codes(chosen[KEY].drop_duplicates()))
        else:
            restrict = enc.campaign_examples(chosen) if chosen else None
        for ref_set in parse_all(comp["ref"]):
            ref_codes, ref_side = enc.set(ref_set)
            for hyp_set in parse_all(comp["hyp"]):
                hyp_codes, hyp_side = enc.set(hyp_set)
                corpus.categories_of(ref_set.campaign, hyp_set.campaign)  # raises when they cannot be compared
                codes = np.intersect1d(ref_codes, hyp_codes)
                codes = codes if restrict is None else np.intersect1d(codes, restrict)
                codes = codes[codes >= 0]
                for match in matches:
                    key = (ref_set, hyp_set, match, codes.tobytes())
                    if key not in done:  # a pair sharing no example (groups on other texts) has no counts
                        done[key] = (
                            span_f1.count_arrays(
                                ref_side, hyp_side, enc.table.n_examples, enc.n_categories, match, metric, convention
                            )[:, 0, codes]
                            if codes.size
                            else np.zeros((len(COUNT_COLUMNS), 0))
                        )
                    arr = done[key]
                    sums = arr.sum(axis=1)
                    p, r, f = prf(*sums[:4])
                    rows.append(
                        {
                            "comparison": comp["name"],
                            "ref": ref_set.spec,
                            "hyp": hyp_set.spec,
                            "match": match,
                            "precision": float(p),
                            "recall": float(r),
                            "f1": float(f),
                            "examples": len(codes),
                            **dict(zip(COUNT_COLUMNS, sums.tolist())),
                        }
                    )
                    counts.append((codes, arr, len(rows) - 1))
    return pd.DataFrame(rows), _counts_frame(enc.table, counts)


def _counts_frame(table: span_f1.SpanTable, counts: list[tuple]) -> pd.DataFrame:
    """One frame of every pair's per-example counts, built once from the arrays."""
    if not counts:
        return pd.DataFrame(columns=["category", *KEY, *COUNT_COLUMNS, "code", "row"])
    codes = np.concatenate([c for c, _, _ in counts])
    frame = table.examples.iloc[codes].reset_index(drop=True)
    frame.insert(0, "category", "all")
    values = np.concatenate([a for _, a, _ in counts], axis=1)
    for i, col in enumerate(COUNT_COLUMNS):
        frame[col] = values[i]
    frame["code"] = codes
    frame["row"] = np.repeat([r for _, _, r in counts], [c.size for c, _, _ in counts])
    return frame


def table6(
    pairs: pd.DataFrame, counts: pd.DataFrame, n_boot: int = 1000, seed: int = 0, level: float = 0.95
) -> pd.DataFrame:
    """Average per-pair P/R/F1 per comparison and match mode, with bootstrap intervals.

    A replicate resamples examples once for all pairs of a comparison and averages the pairs'
    replicate P/R/F1. Pairs that share no example are left out (``pairs`` counts the others; a
    comparison with none has NaN throughout). Columns: ``comparison, match, pairs, precision,
    recall, f1`` and ``<metric>_low``, ``<metric>_high``.
    """
    out = []
    rows = counts["row"].to_numpy()
    codes = counts["code"].to_numpy() if "code" in counts.columns else None
    if codes is None:  # counts built elsewhere: encode their keys once
        codes = pd.MultiIndex.from_frame(counts[KEY]).factorize()[0] if len(counts) else np.zeros(0, np.int64)
    values = counts[COUNT_COLUMNS[:4]].to_numpy(float)
    keys = counts[KEY]
    for (comp, match), grp in pairs.groupby(["comparison", "match"], sort=False):
        sel = np.isin(rows, grp.index.to_numpy())
        uniq, first, pos = np.unique(codes[sel], return_index=True, return_inverse=True)
        n = uniq.size
        # the comparison's examples decide its replicates (not the other comparisons, nor names)
        weights = resampling.matrix(keys[sel].iloc[first], n_boot, seed)
        # every pair's per-example counts side by side, (examples, pairs x 4): one product with the
        # weights gives every pair's replicate sums (integer counts: exact, whatever the order)
        pair_rows, pair_of = np.unique(rows[sel], return_inverse=True)
        # (sparse: most pairs of many annotator groups share a few examples)
        cols = (pair_of[:, None] * 4 + np.arange(4)).ravel()
        mat = sparse.csr_array((values[sel].ravel(), (np.repeat(pos, 4), cols)), shape=(n, pair_rows.size * 4))
        sums = np.asarray((mat.T @ weights.T).T).reshape(n_boot, pair_rows.size, 4)
        # a pair sharing no example (a judge and a human set that annotated different examples) has
        # no P/R/F1: it is left out of the estimate, as it is of the replicates; none left, none
        per_pair = np.stack(prf(*np.moveaxis(sums, 2, 0)), axis=1).transpose(2, 1, 0)  # (pairs, 3, n_boot)
        per_pair = np.ascontiguousarray(per_pair)
        reps = np.mean(per_pair, axis=0) if pair_rows.size else None  # (3, n_boot)
        compared = grp[grp["examples"] > 0]
        row = {"comparison": comp, "match": match, "pairs": len(compared)}
        for i, m in enumerate(("precision", "recall", "f1")):
            row[m] = float(compared[m].mean()) if len(compared) else np.nan
            row[f"{m}_low"], row[f"{m}_high"] = (
                resampling.interval(reps[i], level) if reps is not None else (np.nan, np.nan)
            )
        out.append(row)
    return pd.DataFrame(out)


def definitions(corpus, comparisons: list[dict] | None = None, n_boot: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Table 6 under every span-F1 definition of :data:`span_f1.DEFINITIONS`.

    Columns: ``definition, metric, convention`` and the :func:`table6` columns.
    """
    frames = []
    for label, metric, convention in span_f1.DEFINITIONS:
        pairs, counts = pairwise(corpus, comparisons, metric=metric, convention=convention)
        t6 = table6(pairs, counts, n_boot=n_boot, seed=seed)
        t6.insert(0, "convention", convention)
        t6.insert(0, "metric", metric)
        t6.insert(0, "definition", label)
        frames.append(t6)
    return pd.concat(frames, ignore_index=True)


def definition_means(
    corpus, comparisons: list[dict] | None = None, definitions=None, scored: dict | None = None
) -> pd.DataFrame:
    """Table 6's estimates (no intervals) under each span-F1 definition: the mean P/R/F1 over the
    pairs that share an example, as :func:`table6` averages them.

    ``definitions``: ``(label, metric, convention)`` triples (default :data:`span_f1.DEFINITIONS`);
    ``scored``: label -> the :func:`pairwise` frame of a definition already scored on these
    comparisons (not scored again). Columns: ``definition, comparison, match, pairs, precision,
    recall, f1``."""
    frames, scored = [], scored or {}
    for label, metric, convention in definitions if definitions is not None else span_f1.DEFINITIONS:
        pairs = scored.get(label)
        if pairs is None:
            pairs, _ = pairwise(corpus, comparisons, metric=metric, convention=convention)
        compared = pairs[pairs["examples"] > 0]
        means = compared.groupby(["comparison", "match"], sort=False)[["precision", "recall", "f1"]].mean()
        means.insert(0, "pairs", compared.groupby(["comparison", "match"], sort=False).size())
        frames.append(means.reset_index().assign(definition=label))
    out = pd.concat(frames, ignore_index=True)
    return out[["definition", "comparison", "match", "pairs", "precision", "recall", "f1"]]


def versus_table6(t6: pd.DataFrame, figures: dict) -> pd.DataFrame:
    """Table 6 beside the paper: per comparison, span precision, recall and F1, hard (H) and soft
    (S), paper and ours (the
    paper's columns say "not in the paper" for a comparison the paper does not have)."""
    paper = figures["table6_span_level"]
    rows = []
    for comp in dict.fromkeys(t6["comparison"]):
        row = {"comparison": comp}
        for match, tag in (("hard", "H"), ("soft", "S")):
            ours = t6[(t6["comparison"] == comp) & (t6["match"] == match)].iloc[0]
            for metric, short in (("precision", "P"), ("recall", "R"), ("f1", "F1")):
                row[f"paper {short}_{tag}"] = paper[comp].get(f"{short}_{tag}") if comp in paper else NOT_IN_PAPER
                row[f"{short}_{tag}"] = round(float(ours[metric]), 2)
                row[f"{short}_{tag} 95% CI"] = f"{ours[metric + '_low']:.2f}-{ours[metric + '_high']:.2f}"
        rows.append(row)
    return pd.DataFrame(rows)


def compact_table6(t6: pd.DataFrame, figures: dict) -> pd.DataFrame:
    """Table 6 for reading: per comparison, span F1, hard and soft, ours with its 95% interval beside
    the paper's ("not in the paper" where the paper has no such row). Values are strings with 2 decimals."""
    paper = figures["table6_span_level"]
    rows = []
    for comp in dict.fromkeys(t6["comparison"]):
        row = {"Comparison": comp}
        for match, tag in (("hard", "H"), ("soft", "S")):
            ours = t6[(t6["comparison"] == comp) & (t6["match"] == match)].iloc[0]
            row[f"span F1, {match}"] = (
                f"{ours['f1']:.2f} (no interval)"
                if pd.isna(ours["f1_low"]) or pd.isna(ours["f1_high"])
                else f"{ours['f1']:.2f} [{ours['f1_low']:.2f}, {ours['f1_high']:.2f}]"
            )
            value = paper.get(comp, {}).get(f"F1_{tag}")
            row[f"paper span F1, {match}"] = (
                NOT_IN_PAPER if comp not in paper else "" if value is None else f"{value:.2f}"
            )
        rows.append(row)
    return pd.DataFrame(rows)


def definitions_versus(defs: pd.DataFrame, figures: dict, measure: str = "f1") -> pd.DataFrame:
    """One measure of Table 6 under every definition beside the paper: a row per comparison and
    match mode, a column per definition (labels of :data:`span_f1.DEFINITIONS`)."""
    short = {"precision": "P", "recall": "R", "f1": "F1"}[measure]
    paper = figures["table6_span_level"]
    wide = defs.pivot_table(index=["comparison", "match"], columns="definition", values=measure, sort=False)
    wide = wide[[label for label, *_ in span_f1.DEFINITIONS]].reset_index()
    wide.insert(
        2, "paper", [paper.get(c, {}).get(f"{short}_{m[0].upper()}") for c, m in zip(wide["comparison"], wide["match"])]
    )
    wide.columns.name = None
    return wide.rename(columns={"comparison": "Comparison", "match": "Match"})


def per_category(corpus, comparisons: list[dict] | None = None, convention: str = BOOK_CONVENTION) -> pd.DataFrame:
    """Per-category P/R/F1 (character overlap, ``convention`` for the lengths) averaged over each
    comparison's pairs: hard, soft as factgenie computes it, and soft with the consistent
    per-category definition.

    Columns: ``comparison, category, variant, precision, recall, f1``.
    """
    rows = []
    variants = (
        ("hard", "hard", "factgenie"),
        ("soft (factgenie)", "soft", "factgenie"),
        ("soft (consistent)", "soft", "consistent"),
    )
    for name, ref_set, hyp_set, ref_sp, hyp_sp, ex in iter_pairs(corpus, comparisons):
        cats = corpus.categories_of(ref_set.campaign, hyp_set.campaign)
        for variant, match, pc in variants:
            table = scores(
                per_example(
                    ref_sp,
                    hyp_sp,
                    ex,
                    match=match,
                    convention=convention,
                    by_type=True,
                    per_category=pc,
                    categories=cats,
                )
            )
            rows += [
                {
                    "comparison": name,
                    "category": r.category,
                    "variant": variant,
                    "precision": r.precision,
                    "recall": r.recall,
                    "f1": r.f1,
                }
                for r in table.itertuples()
            ]
    out = pd.DataFrame(rows)
    return (
        out.groupby(["comparison", "category", "variant"], sort=False)[["precision", "recall", "f1"]]
        .mean()
        .reset_index()
    )


def convention_effect(corpus, comparisons: list[dict] | None = None) -> pd.DataFrame:
    """Table 6 F1 (factgenie 1.2.1's character overlap) when lengths count only where both sides
    marked (factgenie 1.2.1) against every example's lengths (the book's default).

    Columns: ``comparison, match, f1 (both marked), f1 (every example), difference``.
    """
    a, _ = pairwise(corpus, comparisons, metric="char", convention="both")
    b, _ = pairwise(corpus, comparisons, metric="char", convention="either")
    keys = ["comparison", "match"]
    fa = a.groupby(keys, sort=False)["f1"].mean().rename("f1 (both marked)")
    fb = b.groupby(keys, sort=False)["f1"].mean().rename("f1 (every example)")
    out = pd.concat([fa, fb], axis=1).reset_index()
    out["difference"] = out["f1 (every example)"] - out["f1 (both marked)"]
    return out


# --- which definition did the paper use? structural checks on the paper's own figures ----------


def _paper_row(aset: AnnotatorSet, table4: dict) -> str:
    """The Table 3/4 row of an annotator set: 'St. 1A' for a stage's group, else the campaign
    whose name matches once '(LS)' is written '-ls'."""
    if aset.name in table4:
        return aset.name
    for key in table4:
        if key.lower().replace(" (ls)", "-ls") == aset.campaign:
            return key
    raise KeyError(f"no Table 4 row for {aset.spec!r}")


def _marked_words(aset: AnnotatorSet, figures: dict) -> tuple[float, float, float]:
    """(words marked on the stage-2 subset, mean span words, spans per error record) of a set,
    from Tables 3 and 4 (human sets: the paper's mean span length and spans per error record)."""
    table3, table4, dataset = (
        figures["table3_llm_campaigns"],
        figures["table4_dataset_level_stage2_subset"],
        figures["dataset"],
    )
    row = _paper_row(aset, table4)
    if row in table3:
        words, per_error = table3[row]["avg_len"], table3[row]["spans_per_error_record"]
    else:
        words, per_error = dataset["span_words"]["mean"], dataset["spans_per_error_record"]
    return table4[row]["total"] * words, words, per_error


def implied_recall(figures: dict, comparisons: list[dict] | None = None) -> pd.DataFrame:
    """What the paper's own soft precision implies for its soft recall under each length rule.

    Any character-overlap definition has P = O / L_hyp and R = O / L_ref with one overlap O, so
    R = P x L_hyp / L_ref. Counting every example's lengths, L is all a set marked on the 245
    examples (Table 4 spans x mean span words, Tables 2-3). Counting only examples both sides
    marked, L_ref is at most one summary (the paper's longest, in words) per such example, since
    one set's spans in a summary do not overlap, while L_hyp is at least one span per example (a
    set's mean span length says nothing of its spans in those examples). The metric counts
    characters: the floor is R >= P x (shortest span) / (longest summary), in characters, under
    the stated assumption (:data:`SHORTEST_SPAN_CHARS`, :data:`SUMMARY_CHARS_PER_WORD` x the
    longest summary's words), since the paper gives words only. Pairs are averaged as Table 6 does. Columns:
    ``comparison, paper P_S, paper R_S, R (every example), R floor (both marked), R (both marked,
    typical)``; the typical value uses spans per error record x mean span words on each side.
    """
    comparisons = comparisons if comparisons is not None else load_comparisons()
    table6 = figures["table6_span_level"]
    longest = figures["dataset"]["summary_words"]["max"]
    rows = []
    for comp in comparisons:
        paper = table6.get(comp["name"])
        if paper is None:
            continue
        every, floor, typical = [], [], []
        for ref in parse_all(comp["ref"]):
            ref_total, ref_words, ref_per_error = _marked_words(ref, figures)
            for hyp in parse_all(comp["hyp"]):
                hyp_total, hyp_words, hyp_per_error = _marked_words(hyp, figures)
                every.append(hyp_total / ref_total)
                floor.append(SHORTEST_SPAN_CHARS / (SUMMARY_CHARS_PER_WORD * longest))  # a short span, a whole summary
                typical.append((hyp_per_error * hyp_words) / (ref_per_error * ref_words))
        p = paper["P_S"]
        rows.append(
            {
                "comparison": comp["name"],
                "paper P_S": p,
                "paper R_S": paper["R_S"],
                "R (every example)": p * float(np.mean(every)),
                "R floor (both marked)": p * float(np.mean(floor)),
                "R (both marked, typical)": p * float(np.mean(typical)),
            }
        )
    return pd.DataFrame(rows)


# Words and characters behind the both-marked floor of :func:`implied_recall`. The paper gives
# lengths in words only; the metric counts characters. Assumed: a span is at least one word of two
# characters ("no"), and a summary of the paper's longest (24 words) has at most this many
# characters per word with its space (English hotel prose averages about six).
SHORTEST_SPAN_CHARS = 2
SUMMARY_CHARS_PER_WORD = 9


def reachable_means(denominators: list[int], printed: float, decimals: int = 2) -> tuple[bool, float]:
    """Whether a mean over pairs of fractions k / d (one pair per denominator d, k = 0..d) can
    round to ``printed``; returns (reachable, the nearest reachable mean). Under the paper's
    prose definition a pair's precision is such a fraction, d being the hypothesis's span count."""
    sums = {0.0}
    for d in denominators:
        sums = {s + k / d for s in sums for k in range(d + 1)}
    means = np.array(sorted(sums)) / len(denominators)
    nearest = float(means[np.argmin(np.abs(means - printed))])
    return bool(np.any(np.abs(means - printed) <= 0.5 * 10**-decimals + 1e-12)), nearest


def hard_soft_ratio_check(figures: dict, comparisons: list[dict] | None = None) -> pd.DataFrame:
    """For each Table 6 row, the P/R ratio in hard and in soft mode with its range within the
    printed rounding. For a single pair, any character-overlap definition gives both modes the
    same denominators, so the ratios must agree. Columns: ``comparison, pairs, P_H / R_H, range (hard),
    P_S / R_S, range (soft), ranges meet``; also ``F1_H between precision and recall`` (a single pair's F1 lies
    between its P and R, each at its printed rounding)."""
    from ..reference.paper import printed  # every bound from a printed figure's rounding

    comparisons = comparisons if comparisons is not None else load_comparisons()
    n_pairs = {c["name"]: len(c["ref"]) * len(c["hyp"]) for c in comparisons}
    rows = []
    for comp, v in figures["table6_span_level"].items():
        out = {"comparison": comp, "pairs": n_pairs.get(comp)}
        at = {k: printed(f"table6_span_level/{comp}/{k}", figures) for k in v}
        ranges = []
        for tag in ("H", "S"):
            p, r = at[f"P_{tag}"], at[f"R_{tag}"]
            lo, hi = p.low / r.high, p.high / max(r.low, 1e-9)
            out[f"P_{tag} / R_{tag}"] = p.value / r.value if r.value else float("nan")
            out[f"range ({'hard' if tag == 'H' else 'soft'})"] = f"{lo:.2f}-{hi:.2f}"
            ranges.append((lo, hi))
        out["ranges meet"] = ranges[0][0] <= ranges[1][1] and ranges[1][0] <= ranges[0][1]
        f1, p, r = at["F1_H"], at["P_H"], at["R_H"]
        out["F1_H between precision and recall"] = min(p.low, r.low) <= f1.high and f1.low <= max(p.high, r.high)
        rows.append(out)
    return pd.DataFrame(rows)


def self_overlaps(corpus, comparisons: list[dict] | None = None) -> int:
    """Examples in which some Table 6 annotator set has two spans that overlap each other: only
    there can factgenie 1.2.1's character credit and the May 2025 script's greedy credit differ."""
    comparisons = comparisons if comparisons is not None else load_comparisons(corpus=corpus)
    sets = {s for comp in comparisons for side in ("ref", "hyp") for s in parse_all(comp[side])}
    flagged = set()
    for aset in sets:
        sp = aset.filter(corpus.spans).sort_values([*KEY, "start"])
        groups = sp.groupby(KEY, sort=False)
        prev_end = groups["end"].cummax().groupby(groups.ngroup()).shift()  # the furthest end so far
        hit = sp[sp["start"] < prev_end]
        flagged |= set(map(tuple, hit[KEY].itertuples(index=False)))
    return len(flagged)


def annotator_pairs(corpus, comparisons: list[dict] | None = None) -> pd.DataFrame:
    """How many pairs each Table 6 row averages over, under the two readings of the paper's
    "averaged over all pairwise comparisons": pairs of annotator *sets* (the book's: a group's
    records pooled into one set, so a group row is one pair) or pairs of individual *annotators*
    who annotated a common example (each model campaign is one annotator).

    Columns: ``comparison, set pairs, annotator pairs``."""
    comparisons = comparisons if comparisons is not None else load_comparisons()
    rows = []
    for comp in comparisons:
        restrict = None
        if comp.get("examples"):
            restrict = corpus.records.loc[corpus.records["campaign"] == comp["examples"], KEY].drop_duplicates()
        found, n_sets = set(), 0
        for ref_set in parse_all(comp["ref"]):
            ref_rec = ref_set.require(corpus)[0][[*KEY, "annotator_id"]]
            for hyp_set in parse_all(comp["hyp"]):
                hyp_rec = hyp_set.require(corpus)[0][[*KEY, "annotator_id"]]
                both = ref_rec.merge(hyp_rec, on=KEY, suffixes=("_ref", "_hyp"))
                if restrict is not None:
                    both = both.merge(restrict, on=KEY)
                n_sets += 1
                found |= {
                    (ref_set.campaign, hyp_set.campaign, *p)
                    for p in both[["annotator_id_ref", "annotator_id_hyp"]].itertuples(index=False)
                }
        rows.append({"comparison": comp["name"], "set pairs": n_sets, "annotator pairs": len(found)})
    return pd.DataFrame(rows)


# --- what labels cost, and which prompts a row pools (Section 6.3 read against Table 6) ------------


def label_gain(pairs: pd.DataFrame) -> pd.DataFrame:
    """F1 with labels (hard: types must match) and without (soft: any type) per pair of
    :func:`pairwise`, and what ignoring labels gains, averaged over each comparison's pairs as
    Table 6 averages them. Section 6.3 reads the soft-hard gap (its "ΔF1") as disagreement about
    labels and 1 - span F1, soft as disagreement about where the error is.

    Columns: ``comparison, pairs, f1 (labels), f1 (no labels), gain, placement loss`` (1 - span F1, soft).
    """
    wide = pairs[pairs["examples"] > 0].pivot_table(
        index=["comparison", "ref", "hyp"], columns="match", values="f1", sort=False
    )
    wide["gain"] = wide["soft"] - wide["hard"]
    out = wide.groupby(level="comparison", sort=False).agg(
        pairs=("gain", "size"), hard=("hard", "mean"), soft=("soft", "mean"), gain=("gain", "mean")
    )
    out["placement loss"] = 1 - out["soft"]
    return out.reset_index().rename(columns={"hard": "f1 (labels)", "soft": "f1 (no labels)"})


POOLED = "pooled (the book's row)"  # the hypothesis column of by_prompt for a row's pairs all together


def by_prompt(pairs: pd.DataFrame, models=None) -> pd.DataFrame:
    """Each Table 6 row that pools several hypothesis campaigns (gpt-4o with gpt-4o (LS): one model,
    two prompts) beside each campaign alone: mean F1 over the row's pairs, and over the pairs of
    each hypothesis set alone. Pooling the prompts is the book's reading; the paper's Table 6 has
    one row per model and does not say how it combined them.

    ``models`` (campaign names) keeps the rows whose hypotheses are all among them (the model rows;
    ``judges(corpus)``), so a row pooling two human sets is left out. Columns: ``comparison,
    hypothesis`` (POOLED, the book's row, else the set's spec), ``pairs, hard, soft`` (mean F1)."""
    compared = pairs[pairs["examples"] > 0]
    rows = []
    for comp, grp in compared.groupby("comparison", sort=False):
        hyps = list(dict.fromkeys(grp["hyp"]))
        if len(hyps) < 2 or (models is not None and not set(hyps) <= set(models)):
            continue
        for hyp, sel in [(POOLED, grp)] + [(h, grp[grp["hyp"] == h]) for h in hyps]:
            f1 = sel.groupby("match")["f1"].mean()
            rows.append(
                {
                    "comparison": comp,
                    "hypothesis": hyp,
                    "pairs": int(sel["match"].value_counts().max()),
                    "hard": float(f1.get("hard", np.nan)),
                    "soft": float(f1.get("soft", np.nan)),
                }
            )
    return pd.DataFrame(rows, columns=["comparison", "hypothesis", "pairs", "hard", "soft"])


# --- the Misleading / Not Checkable boundary (Section 4.1): types of overlapping spans --------------


def overlapping_types(corpus, sets=None, examples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every pair of overlapping spans from two different annotator sets on the same example, with
    both spans' types: for each pair of ``sets`` (default the four human sets, in the order given),
    each span of the first and each span of the second that share at least one character
    (``start < other end`` both ways) are one row. ``examples`` (a frame of example keys)
    restricts the examples. A span overlapping two spans of the other set gives two rows.

    Columns: the example key, ``first, second`` (set specs), ``first_type, second_type``."""
    sets = parse_all(sets) if sets is not None else HUMAN_SETS
    spans = corpus.spans[[*KEY, "campaign", "annotator_group", "start", "end", "type"]]
    if examples is not None:
        spans = spans.merge(examples[KEY].drop_duplicates(), on=KEY)
    cols = [*KEY, "first", "second", "first_type", "second_type"]
    frames = []
    for i, a in enumerate(sets):
        sa = a.filter(spans)[[*KEY, "start", "end", "type"]]
        for b in sets[i + 1 :]:
            sb = b.filter(spans)[[*KEY, "start", "end", "type"]]
            both = sa.merge(sb, on=KEY, suffixes=("_a", "_b"))
            both = both[(both["start_a"] < both["end_b"]) & (both["start_b"] < both["end_a"])]
            frames.append(
                both.assign(first=a.spec, second=b.spec).rename(
                    columns={"type_a": "first_type", "type_b": "second_type"}
                )[cols]
            )
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=cols)


def type_confusion(overlaps: pd.DataFrame, categories) -> pd.DataFrame:
    """The type-confusion matrix of :func:`overlapping_types`: overlapping span pairs counted by
    the first set's type (rows) and the second's (columns), every category present.

    Columns: ``type`` (the first set's) and one per category."""
    table = pd.crosstab(
        pd.Categorical(overlaps["first_type"], categories=list(categories)),
        pd.Categorical(overlaps["second_type"], categories=list(categories)),
        dropna=False,
    )
    table = table.reindex(index=list(categories), columns=list(categories), fill_value=0)
    table.index.name, table.columns.name = "type", None
    return table.reset_index()


def type_pairs(overlaps: pd.DataFrame, categories) -> pd.DataFrame:
    """Unordered type pairs of overlapping spans (which set is first does not matter): count, share
    of all overlapping pairs, share among the pairs whose types differ, and the share chance would
    give, both spans' types drawn independently from the types' pooled shares in ``overlaps``.

    Columns: ``types`` ("Misleading / Not Checkable"), ``same, count, share, expected share,
    share of disagreements, expected share of disagreements``."""
    cats = list(categories)
    n = len(overlaps)
    pooled = pd.concat([overlaps["first_type"], overlaps["second_type"]]).value_counts().reindex(cats, fill_value=0)
    p = pooled / pooled.sum() if pooled.sum() else pooled.astype(float)
    rank = {c: i for i, c in enumerate(cats)}
    key = [tuple(sorted((a, b), key=rank.get)) for a, b in zip(overlaps["first_type"], overlaps["second_type"])]
    found = pd.Series(key, dtype=object).value_counts()
    rows = []
    for i, a in enumerate(cats):
        for b in cats[i:]:
            expected = p[a] * p[b] * (1 if a == b else 2)
            rows.append(
                {
                    "types": a if a == b else f"{a} / {b}",
                    "same": a == b,
                    "count": int(found.get((a, b), 0)),
                    "expected share": float(expected),
                }
            )
    out = pd.DataFrame(rows)
    out["share"] = out["count"] / n if n else np.nan
    differ = ~out["same"]
    n_diff = out.loc[differ, "count"].sum()
    exp_diff = out.loc[differ, "expected share"].sum()
    out["share of disagreements"] = np.where(differ, out["count"] / n_diff if n_diff else np.nan, np.nan)
    out["expected share of disagreements"] = np.where(
        differ, out["expected share"] / exp_diff if exp_diff else np.nan, np.nan
    )
    return out[
        [
            "types",
            "same",
            "count",
            "share",
            "expected share",
            "share of disagreements",
            "expected share of disagreements",
        ]
    ]


def type_kappa(overlaps: pd.DataFrame) -> float:
    """Cohen's kappa of the two types over the overlapping span pairs (scikit-learn): agreement on
    the label where two sets marked the same place, beyond what each side's type shares give."""
    from sklearn.metrics import cohen_kappa_score

    if overlaps.empty:
        return float("nan")
    return float(cohen_kappa_score(overlaps["first_type"], overlaps["second_type"]))


def label_gain_versus(gain: pd.DataFrame, figures: dict) -> pd.DataFrame:
    """:func:`label_gain` beside the paper's Table 6: its implied gain (F1_S - F1_H of the row) and
    placement loss (1 - F1_S). Columns: ``comparison, f1 (labels), f1 (no labels), gain, paper gain,
    placement loss, paper placement loss`` (the paper's are missing for a row it does not have)."""
    t6 = figures["table6_span_level"]
    out = gain.drop(columns="pairs").copy()
    row = [t6.get(c) for c in out["comparison"]]
    out.insert(4, "paper gain", [r["F1_S"] - r["F1_H"] if r else np.nan for r in row])
    out["paper placement loss"] = [1 - r["F1_S"] if r else np.nan for r in row]
    return out


def by_prompt_versus(prompts: pd.DataFrame, figures: dict) -> pd.DataFrame:
    """:func:`by_prompt` with the paper's Table 6 row (one per model) beside every option:
    columns ``paper span F1, hard`` and ``paper span F1, soft`` added (its F1_H and F1_S)."""
    t6 = figures["table6_span_level"]
    out = prompts.copy()
    out["paper span F1, hard"] = [t6.get(c, {}).get("F1_H", np.nan) for c in out["comparison"]]
    out["paper span F1, soft"] = [t6.get(c, {}).get("F1_S", np.nan) for c in out["comparison"]]
    return out
