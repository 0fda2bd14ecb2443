"""Which build of the engine this process runs: pure Python, or with mypyc extensions.

``ZZV_MYPYC=1`` makes a wheel whose rules modules, the checked path and the simulation
path, are compiled (hatch_build.py compiles the modules pyproject.toml lists); an
editable install is always pure. The benchmarks print :func:`describe` first, so every
figure says which build it measured.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

#: The checkout's pyproject.toml (resolved: a benchmark run through a link to ``bench/``,
#: beside an installed compiled build, still reads the checkout's list).
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def compile_list() -> list[str]:
    """The files the compiled build compiles, as pyproject.toml lists them for the hook.

    >>> "engine/sim.py" in compile_list()
    True
    """
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    files: list[str] = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"][
        "compile"
    ]
    return files


def compilable() -> list[str]:
    """The modules of :func:`compile_list`, by name.

    >>> "engine.sim" in compilable()
    True
    """
    return [path.removesuffix(".py").replace("/", ".") for path in compile_list()]


def compiled_modules() -> list[str]:
    """The modules of :func:`compilable` that this process imports as C extensions.

    >>> set(compiled_modules()) <= set(compilable())
    True
    """
    found = []
    for name in compilable():
        origin = getattr(importlib.import_module(name), "__file__", None) or ""
        if not origin.endswith(".py"):
            found.append(name)
    return found


def describe() -> str:
    """One line naming the build, for the benchmarks' output.

    >>> describe().startswith("engine build: ")
    True
    """
    compiled = compiled_modules()
    if not compiled:
        return "engine build: pure Python (ZZV_MYPYC=1 builds the compiled one: docs/benchmarks.md)"
    return f"engine build: mypyc-compiled {', '.join(compiled)}"
