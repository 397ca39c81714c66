"""HotelCheckSpan compendium: load factgenie annotation exports and compute the paper's analyses.

The public API is what a user calls on their own data; everything else is reached through the
subpackages (``corpora``, ``metrics``, ``analyses``, ``simulation``, ``book``).
"""

from .annotator_sets import AnnotatorSet
from .corpora import load

__all__ = ["AnnotatorSet", "load"]
