"""Which build of the engine this process runs: pure Python, or with mypyc extensions.

``ZZV_MYPYC=1`` makes a wheel whose rules modules, the checked path and the simulation
path, are compiled (hatch_build.py); an editable install is always pure. The benchmarks
print :func:`describe` first, so every figure says which build it measured.
"""

from __future__ import annotations

import importlib

#: The modules the compiled build compiles (pyproject.toml lists them for hatch_build.py).
COMPILABLE = (
    "engine.rng",
    "engine.events",
    "engine.view",
    "engine.game",
    "engine.sim",
    "engine.bots.rollout",
)


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILABLE` that this process imported as C extensions.

    >>> set(compiled_modules()) <= set(COMPILABLE)
    True
    """
    found = []
    for name in COMPILABLE:
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
        return (
            "engine build: pure Python (ZZV_MYPYC=1 builds the compiled one: README.md, Benchmarks)"
        )
    return f"engine build: mypyc-compiled {', '.join(compiled)}"
