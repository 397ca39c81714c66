"""Figures are deterministic (nbval skips PNGs, so this is where that is checked)."""

import io

import numpy as np

from hotelcheckspan import corpora as corpus
from hotelcheckspan.analyses import dataset_level as dataset
from hotelcheckspan.analyses import impressions
from hotelcheckspan.analyses import span_level as spans
from hotelcheckspan.book import plots


def png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def test_every_figure_renders_the_same_bytes_twice():
    plots.set_theme()
    c = corpus.load()
    pairs, _ = spans.pairwise(c)
    table = dataset.campaign_table(c, dataset.stage2_examples(c), by_group=True)
    counts = impressions.by_count(impressions.ratings(c))
    rng = np.random.default_rng(0)
    xy, labels = rng.normal(size=(60, 2)), np.repeat(np.arange(3), 20)
    types = np.array(["Incorrect", "Misleading", "Not Checkable"] * 20)
    makers = [
        lambda: plots.length_distributions(c.examples),
        lambda: plots.span_lengths(c.spans),
        lambda: plots.type_shares(table),
        lambda: plots.pair_spread(pairs, {"Stage 1 - Stage 2": {"F1_H": 0.12, "F1_S": 0.24}}),
        lambda: plots.impression_by_count(counts, {"0": 4.79}),
        lambda: plots.cluster_map(xy, labels, types, ["a", "b", "c"]),
    ]
    for make in makers:
        first, second = png(make()), png(make())
        assert first == second and len(first) > 1000
