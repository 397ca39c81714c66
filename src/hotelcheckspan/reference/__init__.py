"""The foundation every layer may import: the paper's reported figures (:mod:`.paper`), the
calibration loss's terms (:mod:`.targets`) and how each figure entered the stand-in
(:mod:`.provenance`). Nothing here imports ``simulation``, ``analyses`` or ``book``."""
