"""Small MQM files in the Marot viewer's TSV format, one of each kind of row, for the tests.

``kinds``: the legacy column set (``doc_id, seg_id``), one system and the reference on three
segments: an error with a span, a clean segment (``No-error``), an omission (an error that marks
nothing), Minor Fluency/Punctuation, Non-translation, Neutral and a severity WMT's weights do not
name (``Critical``). ``marot``: the newer column set (``docSegId, globalSegId`` and a JSON
``metadata``) with hands-on-the-wheel rows (one caught, one missed). ``three``: three raters on
every segment of two systems (as WMT 2023's side-by-side files), two language pairs, and an LLM's
MQM-style spans in ``model/gpt/`` beside them, named as the files they annotate.
"""

from __future__ import annotations

import json
from pathlib import Path

LEGACY = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"
MAROT = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata"

SOURCES = ["The cat sat on the mat.", "It rained all day.", "We left early."]
TARGETS = ["Die Katze saß auf der Matte.", "Es regnete den ganzen Tag.", "Wir gingen früh."]


def row(*fields) -> str:
    return "\t".join(str(f) for f in fields)


def mark(text: str, part: str) -> str:
    """``text`` with ``part`` (its first occurrence) marked as an error span."""
    i = text.index(part)
    return f"{text[:i]}<v>{part}</v>{text[i + len(part) :]}"


def kinds(folder: Path) -> Path:
    """The legacy file of every kind of row (module docstring); returns its path."""
    s, t = SOURCES, TARGETS
    lines = [
        LEGACY,
        row("sysA", "doc1", 1, 1, "r1", s[0], mark(t[0], "Katze"), "Accuracy/Mistranslation", "Major", ""),
        row("sysA", "doc1", 1, 1, "r1", s[0], mark(t[0], "."), "Fluency/Punctuation", "Minor", ""),
        row("sysA", "doc1", 2, 2, "r1", s[1], t[1], "Accuracy/Omission", "Minor", "nothing marked"),
        row("sysA", "doc1", 3, 3, "r1", s[2], mark(t[2], "früh"), "Style/Awkward", "Neutral", ""),
        row("sysA", "doc1", 3, 3, "r1", s[2], mark(t[2], "gingen"), "Accuracy/Mistranslation", "Critical", ""),
        row("ref", "doc1", 1, 1, "r2", s[0], t[0], "No-error", "No-error", ""),
        row("ref", "doc1", 2, 2, "r2", s[1], mark(t[1], "Es regnete den ganzen Tag."), "Non-translation!", "Major", ""),
        row("ref", "doc1", 3, 3, "r2", s[2], t[2], "No-error", "No-error", ""),
    ]
    path = folder / "mqm_kinds_ende.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# the MQM scores of kinds(): sysA 5 + 0.1 (segment 1), 1 (segment 2), 0 + 0 (Neutral, Critical unnamed);
# ref 0, 25 (Non-translation), 0
KINDS_SCORES = {"sysA": (5.1 + 1.0 + 0.0) / 3, "ref": (0.0 + 25.0 + 0.0) / 3}


def marot(folder: Path) -> Path:
    """The newer column set with hands-on-the-wheel checks (module docstring)."""
    s, t = SOURCES, TARGETS
    meta = json.dumps({"timestamp": 1700000000000, "note": ""})
    lines = [
        MAROT,
        row("sysB", "doc9", 1, 101, "r1", s[0], mark(t[0], "saß"), "Fluency/Grammar", "Minor", meta),
        row("sysB", "doc9", 2, 102, "r1", s[1], t[1], "No-error", "No-error", meta),
        row("sysB", "doc9", 3, 103, "r1", s[2], t[2], "Found", "HOTW-test", json.dumps({"note": "injected"})),
        row("sysB", "doc9", 3, 103, "r2", s[2], t[2], "Missed", "HOTW-test", json.dumps({"note": "injected"})),
        row("sysB", "doc9", 3, 103, "r2", s[2], t[2], "No-error", "No-error", meta),
    ]
    path = folder / "mqm_generalMT2023_ende.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


PAIRS = ("ende", "zhen")
SYSTEMS = ("sys1", "sys2", "sys3")
RATERS = ("rA", "rB", "rC")


def three(folder: Path, segments: int = 8) -> Path:
    """Three raters on every segment of three systems, two language pairs; an LLM's spans in
    ``model/`` (module docstring). Deterministic: who marks what follows the indices."""
    for pair in PAIRS:
        lines = [LEGACY]
        llm = [LEGACY]
        for seg in range(1, segments + 1):
            target = f"Satz {seg} mit einigen Worten hier und dort."
            source = f"Sentence {seg} with some words here and there."
            for k, system in enumerate(SYSTEMS):
                for j, rater in enumerate(RATERS):
                    if (seg + k) % 3 == 0 or (seg + k + j) % 5 == 0:  # clean for all three, or one dissents
                        lines.append(row(system, "d", seg, seg, rater, source, target, "No-error", "No-error", ""))
                        continue
                    part = "einigen Worten" if (seg + j) % 2 else "hier und dort"
                    severity = "Major" if (seg * (k + 1) + j) % 4 == 0 else "Minor"
                    lines.append(
                        row(
                            system,
                            "d",
                            seg,
                            seg,
                            rater,
                            source,
                            mark(target, part),
                            "Accuracy/Mistranslation",
                            severity,
                            "",
                        )
                    )
                if (seg + k) % 2:
                    llm.append(
                        row(
                            system,
                            "d",
                            seg,
                            seg,
                            "gpt",
                            source,
                            mark(target, "einigen Worten"),
                            "Accuracy",
                            "Minor",
                            "",
                        )
                    )
                else:
                    llm.append(row(system, "d", seg, seg, "gpt", source, target, "No-error", "No-error", ""))
        (folder / "model" / "gpt").mkdir(parents=True, exist_ok=True)
        (folder / f"mqm_sxs_{pair}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (folder / "model" / "gpt" / f"mqm_sxs_{pair}.tsv").write_text("\n".join(llm) + "\n", encoding="utf-8")
    return folder
