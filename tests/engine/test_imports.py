"""The engine's modules import one another without a cycle, and nothing outside the engine.

Every import counts, wherever it is written: at the top, inside a function, or under
``TYPE_CHECKING``; a cycle hidden in a function is still a cycle."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "spades" / "engine"


def engine_imports(folder: Path) -> dict[str, set[str]]:
    """Module name → the engine modules it imports (``spades.engine.X`` → ``X``)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        name = path.stem
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                if node.level:
                    raise AssertionError(f"{name}: use absolute imports, not relative ones")
                targets = [node.module]
                if node.module == "spades.engine":
                    targets = [f"spades.engine.{a.name}" for a in node.names]
            for target in targets:
                if target.startswith("spades.engine."):
                    deps.add(target.split(".")[2])
                elif target.startswith("spades"):
                    deps.add(f"outside:{target}")
        graph[name] = deps
    return graph


def import_order(graph: dict[str, set[str]]) -> list[str]:
    """The modules in an order where each comes after what it imports (CycleError if none)."""
    return list(TopologicalSorter(graph).static_order())


def test_engine_imports_form_no_cycle() -> None:
    graph = engine_imports(ENGINE)
    assert {"match", "observation", "records", "events"} <= set(graph)
    try:
        order = import_order(graph)
    except CycleError as exc:
        raise AssertionError(f"import cycle in spades.engine: {' -> '.join(exc.args[1])}") from None
    assert order.index("match") < order.index("records")
    assert order.index("observation") < order.index("match")
    assert order.index("events") < order.index("match")


def test_engine_modules_import_only_the_engine() -> None:
    graph = engine_imports(ENGINE)
    for name, deps in graph.items():
        outside = sorted(d for d in deps if d.startswith("outside:"))
        assert not outside, f"spades.engine.{name} imports {outside}: the engine stands alone"
        if name != "__init__":
            assert "__init__" not in deps, f"{name} imports the package, not a module"

