"""Shape of the code: every module has a layer, the import contracts see every import, the
module that applies a person's move runs without the web stack, and no function is longer
than a screen.

The contracts themselves are import-linter's, in ``pyproject.toml`` (``lint-imports`` runs
them: ``tests/test_quality.py``). These tests keep them honest: a module or folder added to
``app/`` must be placed in a layer, and no contract may leave out the imports that run late
(inside a function) or never (under ``if TYPE_CHECKING:``), since a reader still has to
follow both.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
BIN_DIR = Path(sys.executable).parent
PACKAGES = ("engine", "app", "bench")
MAX_FUNCTION_LINES = 60
WEB_STACK = ("fastapi", "starlette", "jinja2", "jinja2_fragments", "sse_starlette")


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


def _import_linter() -> dict[str, Any]:
    """The ``[tool.importlinter]`` table of pyproject.toml."""
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    table: dict[str, Any] = config["tool"]["importlinter"]
    return table


def _contract(contract_id: str) -> dict[str, Any]:
    found = [c for c in _import_linter()["contracts"] if c["id"] == contract_id]
    assert len(found) == 1, f"pyproject.toml has {len(found)} contracts with id {contract_id!r}"
    return found[0]


def _layer_names(layer: str) -> list[str]:
    """The modules of one layer string: ``a | b`` (independent) or ``a : b`` (not)."""
    return [name.strip() for name in layer.replace(":", "|").split("|")]


def test_every_app_module_and_folder_has_a_layer() -> None:
    """The layers contract names each child of ``app/`` once, entry points on top, the
    engine at the bottom; a new module or folder fails here until it is placed."""
    layers = _contract("layers")["layers"]
    named = [name for layer in layers for name in _layer_names(layer)]
    assert len(named) == len(set(named)), f"a module is in two layers: {named}"
    children = {
        f"app.{path.stem if path.is_file() else path.name}"
        for path in (REPO_ROOT / "app").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").is_file()
    }
    assert children - set(named) == set(), "app modules in no layer"
    assert _layer_names(layers[0]) == ["app.main", "app.cli"]
    assert layers[-1] == "engine"
    assert layers.index("app.http") < layers.index("app.live") < layers.index("app.races")
    assert layers.index("app.races") < layers.index("app.bots | app.storage | app.results")


def test_no_contract_leaves_out_late_or_type_only_imports() -> None:
    """Neither the options nor any contract exclude ``TYPE_CHECKING`` imports, ignore an
    import, or let an indirect import through (imports inside functions are always in
    import-linter's graph: it reads every ``import`` statement of a module)."""
    options = _import_linter()
    assert not options.get("exclude_type_checking_imports", False)
    assert options["include_external_packages"] is True
    for contract in options["contracts"]:
        assert "ignore_imports" not in contract, contract["id"]
        assert not contract.get("allow_indirect_imports", False), contract["id"]
        assert not contract.get("exclude_type_checking_imports", False), contract["id"]


def test_the_contracts_catch_imports_inside_functions_and_type_checking(
    tmp_path: Path,
) -> None:
    """The same options on a made-up package: a forbidden import made only inside a
    function, or only under ``if TYPE_CHECKING:``, breaks the contract all the same."""
    package = tmp_path / "shop"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "web.py").write_text("PAGE = 'page'\n", encoding="utf-8")
    (package / "late.py").write_text("def page():\n    from shop import web\n", encoding="utf-8")
    (package / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from shop.web import PAGE\n",
        encoding="utf-8",
    )
    (package / "clean.py").write_text("VALUE = 1\n", encoding="utf-8")
    options = {k: v for k, v in _import_linter().items() if k not in ("contracts", "root_packages")}
    settings = "\n".join(f"{key} = {json.dumps(value)}" for key, value in options.items())
    for source, broken in (("shop.late", True), ("shop.typed", True), ("shop.clean", False)):
        (tmp_path / "pyproject.toml").write_text(
            textwrap.dedent(
                f"""\
                [tool.importlinter]
                root_packages = ["shop"]
                {settings}

                [[tool.importlinter.contracts]]
                name = "no web"
                type = "forbidden"
                source_modules = ["{source}"]
                forbidden_modules = ["shop.web"]
                """
            ),
            encoding="utf-8",
        )
        result = subprocess.run(
            [str(BIN_DIR / "lint-imports"), "--no-cache"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert (result.returncode != 0) == broken, (source, result.stdout, result.stderr)
        if broken:
            assert f"{source} -> shop.web" in result.stdout, result.stdout


def test_applying_a_move_imports_no_web_stack() -> None:
    """In a fresh interpreter, the modules that apply a person's move (the unit of work
    and the operations, and what they import) load none of the web frameworks or the
    templating."""
    probe = (
        "import json, sys\n"
        "import app.races.unit, app.races.operations\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(WEB_STACK)!r})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(result.stdout) == []


def test_no_function_is_longer_than_a_screen() -> None:
    """Every function and method in engine/, app/ and bench/ is at most 60 lines,
    docstring in."""
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


# Exceptions that only a programmer meets (corrupt input, a wrong call), and log calls:
# their words are for whoever reads the code or the log, not for a player.
_PROGRAMMER_ERRORS = frozenset(
    {"ValueError", "TypeError", "RuntimeError", "KeyError", "LookupError", "AssertionError"}
)
_LOG_CALLS = frozenset({"debug", "info", "warning", "error", "exception", "critical"})


def sentences_in(source: str) -> list[tuple[int, str]]:
    """The string constants of four or more words in ``source``, outside docstrings, log
    calls, ``assert`` messages and raised programmer errors (f-strings' literal parts
    count on their own)."""
    tree = ast.parse(source)
    skipped: set[int] = set()

    def skip(node: ast.AST) -> None:
        skipped.update(id(sub) for sub in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip(node)  # a docstring, or an attribute's
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            called = node.exc.func
            if isinstance(called, ast.Name) and called.id in _PROGRAMMER_ERRORS:
                skip(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in _LOG_CALLS:
                skip(node)
        elif isinstance(node, ast.Assert) and node.msg is not None:
            skip(node.msg)
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and len(node.value.split()) >= 4
    ]


def test_the_engine_and_the_races_speak_in_codes() -> None:
    """No sentence for a player below the web layer: the engine and ``app/races`` hand out
    codes with parameters, and ``app/http`` words them from the message catalog (so every
    sentence can be translated). The racers' names are the game's own, in every language."""
    racer_names = {"Cap'n Salty the Puffin"}
    found = [
        f"{path.relative_to(REPO_ROOT)}:{line}: {text!r}"
        for folder in ("engine", "app/races")
        for path in sorted((REPO_ROOT / folder).rglob("*.py"))
        for line, text in sentences_in(path.read_text(encoding="utf-8"))
        if text not in racer_names
    ]
    assert found == []


def test_the_sentence_finder_tells_words_for_people_from_words_for_programmers() -> None:
    source = (
        "def f(x):\n"
        '    """A docstring of many words."""\n'
        "    if x:\n"
        '        raise ValueError("The seed must be whole.")\n'
        '    log.error("a race was lost here")\n'
        '    return f"{x} is already face up here."\n'
    )
    assert sentences_in(source) == [(6, " is already face up here.")]


def test_every_state_the_web_layer_answers_has_its_previews_worded() -> None:
    """A seat's options (:mod:`engine.options`) name why a card cannot go face up by a
    refusal code; their JSON form takes the function that words it. Only
    :mod:`app.http.previews` makes that form, with the catalog's sentences, so every answer
    the API or a page gives carries the sentence in the reader's language."""
    makers = [
        str(path.relative_to(REPO_ROOT))
        for path in sorted((REPO_ROOT / "app").rglob("*.py"))
        if re.search(r"\.previews\(", path.read_text(encoding="utf-8"))
    ]
    assert makers == ["app/http/previews.py"]
