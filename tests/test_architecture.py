"""Shape of the code: no import cycles between the modules of ``engine`` and ``app``, and
no function longer than a screen.

Both checks read the source with :mod:`ast` (nothing is imported), so they see every module,
including ones no test happens to import.

The import graph has an edge for every module-level import, inside ``if``/``try`` blocks
too, and those under ``if TYPE_CHECKING:`` included. A type-only import never runs, but it
is still a dependency a reader has to follow: two modules that name each other's types
cannot be understood, tested or replaced one at a time (the store once imported the
sessions it stores, and the view the game that calls it, both only for annotations; each
now declares the small protocol it needs instead). Imports inside functions are left out:
they run on call, and the few there deliberately defer heavy optional modules.

Importing ``a.b.c`` also runs ``a/__init__`` and ``a/b/__init__``, so those packages are
edges too (except the packages that contain the importing module: they are already being
imported).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "app")
MAX_FUNCTION_LINES = 60


def _modules() -> dict[str, Path]:
    """Every module of the packages, by dotted name (``app.http.web`` for its ``__init__``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", None)
    return name == "TYPE_CHECKING"


def _module_level(tree: ast.Module, type_checking: bool = True) -> Iterator[ast.stmt]:
    """Statements that run on import: the body, and what ``if``/``try`` blocks hold
    (``if TYPE_CHECKING:`` blocks only when ``type_checking`` is true)."""
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, ast.If):
            if type_checking or not _is_type_checking(node.test):
                pending.extend(node.body)
            pending.extend(node.orelse)
        elif isinstance(node, ast.Try):
            pending.extend([*node.body, *node.orelse, *node.finalbody])
            for handler in node.handlers:
                pending.extend(handler.body)


def _with_packages(name: str, known: dict[str, Path]) -> set[str]:
    """``name`` and every package above it that is one of ours."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts) + 1)} & set(known)


def _imports(
    module: str, path: Path, known: dict[str, Path], type_checking: bool = True
) -> set[str]:
    """Our modules that ``module`` imports at module level (packages above them too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in _module_level(tree, type_checking):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets |= _with_packages(alias.name, known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: len(module.split(".")) - node.level + is_package]
                base = ".".join([*anchor, *([base] if base else [])])
            targets |= _with_packages(base, known)
            for alias in node.names:  # ``from app import api`` imports the module app.http.api
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


def test_the_graph_sees_package_and_type_checking_imports_only(tmp_path: Path) -> None:
    graph = import_graph()
    assert "app.http.web" in graph["app.http.errors"]  # the package runs before its module
    assert "app.races.operations" in graph["app.http.deps"]
    assert "engine.events" in graph["engine"]
    module = tmp_path / "example.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "from app import settings\n"
        "if TYPE_CHECKING:\n"
        "    from app.races.operations import GameSession\n"
        "def late():\n"
        "    import app.main\n",
        encoding="utf-8",
    )
    known = _modules()
    expected = {"app", "app.settings", "app.races", "app.races.operations"}
    assert _imports("example", module, known) == expected
    assert _imports("example", module, known, type_checking=False) == {"app", "app.settings"}


def test_no_import_cycles_in_engine_or_app() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_store_depends_on_no_other_app_module() -> None:
    """The store is typed against its own ``StoredGame`` protocol, so any store (memory,
    Redis) can be read and tested without the sessions, routes or settings."""
    known = _modules()
    imported = _imports("app.storage.interface", known["app.storage.interface"], known)
    assert {m for m in imported if m.startswith("app.")} == set()


def test_no_function_is_longer_than_a_screen() -> None:
    """Every function and method in engine/ and app/ is at most 60 lines, docstring in."""
    too_long = []
    for name, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}.{node.name} ({path.name}:{node.lineno}): {lines}")
    assert not too_long, "functions over 60 lines:\n" + "\n".join(too_long)
