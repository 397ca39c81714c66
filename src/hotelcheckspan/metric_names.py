"""Each built-in baseline metric's one name for readers (the glossary's "metric"): tables, prose,
figures and the command line's text output write "ROUGE-L precision" where scores files, ``--json``
and the code keep the id ``rougeL_precision`` (``hotelcheckspan.metrics.baselines.NAMES``)."""

from __future__ import annotations

import re

METRIC_NAMES = {
    "rouge1_precision": "ROUGE-1 precision",
    "rougeL_precision": "ROUGE-L precision",
    "chrf": "chrF",
    "minilm_support": "MiniLM support",
    "minilm_support_min": "MiniLM support, weakest sentence",
    "bertscore_precision": "BERTScore precision",
    "length": "minus length",
}
# ids that cannot be an English word, rewritten wherever they stand alone in a text ("length" is
# rewritten only where it is the whole text: a table's metric cell)
_DISTINCT = [m for m in METRIC_NAMES if "_" in m or m == "chrf"]
_ID = re.compile(r"(?<![\w/.`-])(" + "|".join(sorted(_DISTINCT, key=len, reverse=True)) + r")(?![\w/`-])")


def metric_words(text):
    """``text`` with each baseline id that is no English word written as its name wherever it
    stands alone ("rougeL_precision (0.24)" -> "ROUGE-L precision (0.24)"; not inside a longer
    word, a path or code); other values unchanged."""
    if not isinstance(text, str):
        return text
    return _ID.sub(lambda m: METRIC_NAMES[m.group(1)], text)


def metric_name(text):
    """A metric as readers see it: a baseline's id as its name ("length" -> "minus length"), and
    :func:`metric_words` in any other text (a judge, a scores file's metric, keep their names)."""
    if isinstance(text, str) and text in METRIC_NAMES:
        return METRIC_NAMES[text]
    return metric_words(text)
