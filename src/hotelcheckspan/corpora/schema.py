"""The shape of every JSON line and config a corpus holds, as pydantic models (strict types).

Models accept extra fields (real exports carry more, e.g. ``id``, ``thinking_trace``) but never
coerce types: ``"false"`` is not a boolean and ``"3"`` is not an integer. Offsets and counts are
bounded so that nothing overflows a 64-bit column; ``example_idx``, a key, is not (the format
has no bound: a key beyond 64 bits is kept as a Python integer).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

MAX_INT = 2**53  # exact in float and in int64: beyond it an offset or index means nothing
Index = Annotated[StrictInt, Field(ge=0, le=MAX_INT)]
AnyInt = Annotated[StrictInt, Field(ge=-MAX_INT, le=MAX_INT)]
Key = Annotated[StrictInt, Field(ge=0)]


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class SpanIn(_Loose):
    type: AnyInt
    start: Index
    text: Annotated[StrictStr, Field(min_length=1)]
    reason: StrictStr | None = None


class FlagIn(_Loose):
    label: StrictStr
    value: StrictBool


class OptionIn(_Loose):
    label: StrictStr
    value: StrictStr | StrictInt | None = None


class _Keyed(_Loose):
    """The example key every record and text line carries (the first fields, in this order)."""

    dataset: StrictStr
    split: StrictStr
    setup_id: StrictStr
    example_idx: Key


class RecordIn(_Keyed):
    """One annotation record (one annotator, one example)."""

    annotations: list[SpanIn]
    annotator_id: StrictStr | None = None
    annotator_group: Index | None = None
    flags: list[FlagIn] = Field(default_factory=list)  # factories: a literal default is deep-copied per line
    options: list[OptionIn] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)


class RecordMetadataIn(_Loose):
    """What factgenie keeps in a record's ``metadata`` (it overrides the campaign config)."""

    annotator_id: StrictStr | None = None
    annotator_group: Index | None = None
    stage: Index | None = None


class ExampleIn(_Keyed):
    """One line of our ``inputs.jsonl``: an example with its input and the annotated text."""

    summary: StrictStr
    description: StrictStr = ""
    aspect: StrictStr | None = None
    sources: list[StrictStr] | Index | None = None
    segments: Index | None = None
    segments_dropped: Index | None = None


class OutputIn(_Keyed):
    """One line of factgenie's ``outputs/**/*.jsonl``: the text that was annotated."""

    output: StrictStr


class InputIn(_Loose):
    """One line of a JSON Lines inputs file (factgenie's MT exports: ``input_idx, src, doc_id,
    dataset, split, example_idx``); every field optional, the key parts strict where given."""

    dataset: StrictStr | None = None
    split: StrictStr | None = None
    example_idx: Key | None = None


class CategoryIn(_Loose):
    name: Annotated[StrictStr, Field(min_length=1)]
    description: StrictStr | None = None
    color: StrictStr | None = None


class ConfigIn(_Loose):
    """A campaign's ``config.yaml`` (or the ``config`` of factgenie's ``metadata.json``)."""

    annotation_span_categories: Annotated[list[CategoryIn], Field(min_length=1)]
    annotation_overlap_allowed: StrictBool | None = None
    annotators_per_example: Annotated[StrictInt, Field(ge=1, le=MAX_INT)] | None = None
    stage: Index | None = None
    simulated: StrictBool = False


class MetadataIn(_Loose):
    """factgenie's ``metadata.json`` of a campaign."""

    id: StrictStr | None = None
    mode: StrictStr | None = None
    config: dict[str, Any]
