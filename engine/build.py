"""Which build of the engine this process runs: pure Python, or with mypyc extensions.

``ZZV_MYPYC=1`` makes a wheel whose rules modules, the checked path and the simulation
path, are compiled (hatch_build.py); an editable install is always pure. The benchmarks
print :func:`describe` first, so every figure says which build it measured.
"""

from __future__ import annotations

from types import ModuleType

from engine import events, game, rng, seat_view, sim, view
from engine.bots import policy, rollout

# Imported by plain statements, so the import graph (and lint-imports) sees every one.
_COMPILABLE_MODULES: tuple[ModuleType, ...] = (
    rng,
    events,
    view,
    seat_view,
    game,
    sim,
    policy,
    rollout,
)

#: The modules the compiled build compiles (pyproject.toml lists them for hatch_build.py).
COMPILABLE = tuple(module.__name__ for module in _COMPILABLE_MODULES)


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILABLE` that this process imported as C extensions.

    >>> set(compiled_modules()) <= set(COMPILABLE)
    True
    """
    found = []
    for module in _COMPILABLE_MODULES:
        origin = getattr(module, "__file__", None) or ""
        if not origin.endswith(".py"):
            found.append(module.__name__)
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
