"""The package's layers, read from the source: no import cycle among spades' modules, and a
pure engine.

Every import counts, wherever it is written: at the top, under ``if TYPE_CHECKING:`` (a
type-only import is still a dependency a reader must follow) or inside a function.
Importing ``spades.a.b`` is an edge to that module only, not to the package ``spades.a``
Python also runs first: a package's ``__init__`` gathering its own modules is no cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "spades"
ENGINE_MAY_NOT_USE = ("bots", "server", "tui", "cli", "store", "web")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The spades modules ``name`` (at ``path``) imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _spades(alias.name, known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                up = parts[:len(parts) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:
                    yield sub  # a module of the package
                else:
                    yield from _spades(base, known)


def _spades(target: str, known: dict[str, Path]) -> Iterator[str]:
    while target and target not in known:
        target = target.rpartition(".")[0]
    if target.startswith("spades"):
        yield target


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: set(imported(name, path, known)) - {name} for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_graph_is_read() -> None:
    edges = graph()
    assert "spades.server.tables" in edges
    assert "spades.engine.match" in edges["spades.server.tables"] or any(
        m.startswith("spades.engine") for m in edges["spades.server.tables"])


def test_no_import_cycle() -> None:
    found = cycles(graph())
    assert not found, "import cycles among spades' modules:\n" + "\n".join(
        " <-> ".join(group) for group in found)


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_engine_stands_alone() -> None:
    bad = [f"{name} imports {dep}" for name, deps in graph().items()
           if name.startswith("spades.engine") for dep in sorted(deps)
           if dep.split(".")[1:2] and dep.split(".")[1] in ENGINE_MAY_NOT_USE]
    assert not bad, "the engine uses layers above it:\n" + "\n".join(bad)


APPS = ("cli", "tui", "server")  # spades.cli is the command line that starts the others
ENTRY = ("__main__", "cli")  # may import any app


def _layer(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def test_layers_point_inward() -> None:
    """What the apps share (engine, bots, presentation, store, session…) imports no app, and
    the terminal and the server do not import each other or the command line."""
    bad = []
    for name, deps in graph().items():
        layer = _layer(name)
        for dep in sorted(deps):
            other = _layer(dep)
            if other not in APPS or other == layer:
                continue
            if layer not in ENTRY:
                bad.append(f"{name} imports {dep}")
    assert not bad, "imports that point outward:\n" + "\n".join(bad)
