"""Whether a corpus is shaped like HotelCheckSpan's, as the book's paper chapters (01-07, 09 and
the paper parts of 10 and 11) need it: refused before any chapter runs, in one line naming what
is missing.

What the chapters need: the human campaigns ``stage1`` and ``stage2``, each with annotator groups
A and B (0 and 1); the overall impression (an option) on human records; HotelCheckSpan's three
span categories in every campaign; the splits ``short`` and ``long``. The real release must be
converted to this factgenie layout first (README). Any other factgenie corpus goes to the
real-corpus chapters (08 and the real parts of 10 and 11) through ``HOTELCHECKSPAN_REAL_DATA``.

``python -m hotelcheckspan.book.paper_shape`` checks the corpus the book would load
(``HOTELCHECKSPAN_DATA`` or the bundled stand-in) and exits 1 with that line where it falls short.
"""

from __future__ import annotations

import sys

from .. import paths
from ..categories import CATEGORIES
from ..corpora import Corpus, CorpusError, load

STAGES = {"stage1": [0, 1], "stage2": [0, 1]}
SPLITS = ("short", "long")


def missing(corpus: Corpus) -> list[str]:
    """What the corpus lacks for the paper chapters (empty: it has everything)."""
    out = []
    rec = corpus.records
    human = rec[rec["kind"] == "human"]
    for stage, groups in STAGES.items():
        mine = human[human["campaign"] == stage]
        if mine.empty:
            out.append(f"the human campaign {stage}")
            continue
        absent = [g for g in groups if g not in set(mine["annotator_group"])]
        if absent:
            out.append(f"groups {', '.join('AB'[g] for g in absent)} in {stage}")
    if human.empty or human["impression"].isna().all():
        out.append("overall impressions on the human records")
    other = {c: cats for c, cats in corpus.campaign_categories.items() if list(cats) != CATEGORIES}
    if other:
        name, cats = next(iter(other.items()))
        out.append(
            f"HotelCheckSpan's categories ({', '.join(CATEGORIES)}) in {len(other)} campaign"
            f"{'s' if len(other) != 1 else ''} (e.g. {name}: {', '.join(cats)})"
        )
    splits = set(corpus.examples["split"])
    if not set(SPLITS) <= splits:
        out.append(f"the splits {' and '.join(SPLITS)} (it has {', '.join(sorted(map(str, splits))) or 'none'})")
    return out


def refusal(corpus: Corpus) -> str | None:
    """The one line that refuses ``corpus`` for the paper chapters, or None where it fits."""
    lacks = missing(corpus)
    if not lacks:
        return None
    return (
        f"{corpus.root} is not shaped like HotelCheckSpan: it lacks {'; '.join(lacks)}. The paper chapters "
        f"need that shape (convert the release to it, see the README); any factgenie corpus runs in the "
        f"real-corpus chapters with {paths.REAL_DATA_ENV}={corpus.root}"
    )


def main() -> int:
    root = paths.corpus_dir()
    try:
        corpus = load(root)
    except CorpusError as err:
        print(f"the book's corpus {root} cannot be read: {err}", file=sys.stderr)
        return 1
    line = refusal(corpus)
    if line:
        print(line, file=sys.stderr)
        return 1
    splits = ", ".join(sorted(map(str, set(corpus.examples["split"]))))
    print(
        f"ok: {root}: {len(corpus.examples):,} texts (splits {splits}, pooled as the paper pools them), "
        f"{len(corpus.records):,} records{' (simulated)' if corpus.simulated else ''}: the paper's chapters "
        "(01-07, 09, the stand-in parts of 10 and 11) read it"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
