"""The paper's figures for the book's chapters: a thin re-export of :mod:`hotelcheckspan.reference.paper`
(the foundation the simulation reads too), so ``from hotelcheckspan.book import paper`` keeps working."""

from ..reference.paper import (  # noqa: F401
    EXAMPLE_SETS,
    LLM_CAMPAIGNS,
    SCOPES,
    check_scope,
    figures,
    frame,
    inconsistencies,
    scope,
    versus,
)
