"""What every chapter shows first: which corpus it runs on, and whether it is simulated."""

from __future__ import annotations

from html import escape

from IPython.display import HTML

from .corpus import Corpus

SIMULATED_TEXT = (
    "Simulated data. The numbers on this page come from the bundled stand-in corpus, a seeded "
    "simulation set from the paper's marginals, not from the real (gated) HotelCheckSpan "
    "annotations. Agreement, clusters and test statistics emerge from the simulation and are "
    "compared with the paper, not tuned to it."
)


def corpus_banner(corpus: Corpus) -> HTML:
    """An HTML notice naming the corpus; a warning when it is the simulated stand-in."""
    if corpus.simulated:
        return HTML(f'<div class="admonition warning simulated-notice"><p class="admonition-title">'
                    f"Simulated data</p><p>{escape(SIMULATED_TEXT)}</p></div>")
    return HTML(f'<div class="admonition note corpus-notice"><p class="admonition-title">Corpus</p>'
                f"<p>Running on the corpus at <code>{escape(corpus.root.name)}</code> "
                f"({len(corpus.records)} records).</p></div>")
