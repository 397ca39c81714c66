"""The package's modules import one another without circles.

Every import statement counts, those inside functions too (an import deferred to run time is
still a dependency): the frame and the corpus sit low, the analyses, the API and the command line
build on them, and nothing below reaches back up.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

from hotelcheckspan import paths

PACKAGE = paths.REPO_ROOT / "src" / "hotelcheckspan"


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> nx.DiGraph:
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
                for alias in node.names:  # `from . import selection` imports the module itself
                    sub = f"{target}.{alias.name}"
                    graph.add_edge(name, sub if sub in modules else target)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    graph.add_edge(name, alias.name)
    return graph.subgraph(modules).copy()


def test_no_module_imports_itself_back():
    graph = _graph()
    graph.remove_edges_from(nx.selfloop_edges(graph))
    cycles = sorted(sorted(c) for c in nx.simple_cycles(graph, length_bound=6))
    assert cycles == [], f"import circles: {cycles[:5]}"


def test_the_graph_sees_deferred_imports():
    # the check above would pass vacuously if imports inside functions were missed
    graph = _graph()
    assert graph.has_edge("hotelcheckspan.cli", "hotelcheckspan.api")  # cli imports api inside its commands
    assert graph.has_edge("hotelcheckspan.corpora.corpus", "hotelcheckspan.corpora.selection")
    assert graph.has_edge("hotelcheckspan.analyses.agreement", "hotelcheckspan.pairs")
