"""Shape of the code: no import cycles between the modules of ``engine`` and ``app``.

The checks read the source with :mod:`ast` (nothing is imported), so they see every module,
including ones no test happens to import.

The import graph has an edge for every import at module level, those under
``if TYPE_CHECKING:`` included: a type-only import is still a dependency a reader has to
follow, and a cycle hidden behind ``TYPE_CHECKING`` (the store once imported the sessions
it stores) is still two modules that cannot be understood or replaced one at a time.
Imports inside functions are left out: they run on call, not on import, and the few there
are deliberately defer heavy optional modules. Importing ``a.b.c`` also runs ``a/__init__``
and ``a/b/__init__``, so those packages are edges too (except the packages that contain
the importing module: they are already being imported).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "app")


def _modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name (``app.web`` for its ``__init__``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _module_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """Statements that run on import: the body, and what ``if``/``try`` blocks hold."""
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, ast.If):
            pending.extend([*node.body, *node.orelse])
        elif isinstance(node, ast.Try):
            pending.extend([*node.body, *node.orelse, *node.finalbody])
            for handler in node.handlers:
                pending.extend(handler.body)


def _with_packages(name: str, known: dict[str, Path]) -> set[str]:
    """``name`` and every package above it that is one of ours."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & set(known)


def _imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Our modules that ``module`` imports at module level (packages above them too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in _module_level(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets |= _with_packages(alias.name, known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: len(module.split(".")) - node.level + is_package]
                base = ".".join([*anchor, *([base] if base else [])])
            targets |= _with_packages(base, known)
            for alias in node.names:  # ``from app import api`` imports the module app.api
                targets |= _with_packages(f"{base}.{alias.name}", known)
    # A package's own ``__init__`` has already begun when its module is imported.
    return targets - _with_packages(module, known)


def import_graph() -> dict[str, set[str]]:
    """Module name -> the modules of ours it imports on import."""
    known = _modules()
    return {name: _imports(name, path, known) for name, path in known.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path ``[a, b, ..., a]``, or None if the graph has none."""
    done: set[str] = set()
    for root in sorted(graph):
        if root in done:
            continue
        path: list[str] = [root]
        on_path = {root}
        stack = [iter(sorted(graph[root]))]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                done.add(path[-1])
                on_path.discard(path.pop())
            elif child in on_path:
                return [*path[path.index(child) :], child]
            elif child not in done:
                path.append(child)
                on_path.add(child)
                stack.append(iter(sorted(graph[child])))
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The checker itself: a made-up three-module cycle is found, a chain is not."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_type_checking_and_package_imports() -> None:
    graph = import_graph()
    assert "app.web" in graph["app.errors"]  # the package runs before its module
    assert "app.sessions" in graph["app.deps"]
    assert "engine.events" in graph["engine"]


def test_no_import_cycles_in_engine_or_app() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
