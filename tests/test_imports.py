"""No import circles in src/hokm: between modules, and between the package's layers (its subpackages).

Every import statement counts, wherever it stands: at module level, inside a function (a lazy
import is still a dependency), and under ``if TYPE_CHECKING:`` (a type-only dependency is still a
dependency of the design). ``from package import name`` depends on the package's ``__init__`` and,
when ``name`` is a submodule, on that module too; ``from package.module import name`` on that module.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for path in (SRC / "hokm").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


Graph = dict[str, set[str]]


def import_graph() -> Graph:
    """Module -> the modules it imports, for every module of ``hokm``."""
    modules = _modules()
    graph: Graph = {m: set() for m in modules}

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    for module, (path, is_package) in modules.items():
        package = module if is_package else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                targets = [origin] + [f"{origin}.{a.name}" for a in node.names]
            for target in targets:
                found = owner(target)
                if found is not None and found != module:
                    graph[module].add(found)
    return graph


def layer(module: str) -> str:
    """The layer a module belongs to: ``hokm.engine`` for ``hokm.engine.game``, else itself."""
    return ".".join(module.split(".")[:2])


def circles(graph: Graph) -> list[set[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    out.append(group)
    return out


def test_the_graph_sees_imports_of_every_kind() -> None:
    graph = import_graph()
    assert "hokm.engine.tricks" in graph["hokm.engine.game"]  # module level
    assert "hokm.search._heuristic_kernel" in graph["hokm.search.pimc"]  # inside a function
    assert "hokm.engine.view" in graph["hokm.search.parallel"]  # under TYPE_CHECKING
    assert "hokm.engine" in graph["hokm.bench.engine"]  # ``from ..engine import Game``: the package
    assert len(graph) > 100


def test_no_circle_between_modules() -> None:
    found = circles(import_graph())
    assert not found, f"import circles: {found}"


def test_no_circle_between_layers() -> None:
    graph = import_graph()
    layers: Graph = {layer(m): set() for m in graph}
    for a, targets in graph.items():
        for b in targets:
            if layer(a) != layer(b):
                layers[layer(a)].add(layer(b))
    assert not circles(layers), f"layers that import each other: {circles(layers)}"


def test_a_circle_is_found() -> None:
    graph: Graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(graph) == [{"a", "b", "c"}]
    assert circles({"x": {"y"}, "y": set()}) == []
