"""Parameters of a sweep: one case in every run, the rest only in the slow sweeps.

Imported as ``sweep_kit`` (tests/ is on the path). The README's test command keeps one
case of each size or language sweep, usually the tightest fit; ``-m slow`` runs the others
(the README names it), so every case still runs in CI.
"""

from __future__ import annotations

from typing import Any

import pytest


def sweep(quick: Any, *slow: Any) -> list[Any]:
    """``quick`` as a parameter of every run, then each of ``slow`` marked ``slow``."""
    return [quick, *(pytest.param(value, marks=pytest.mark.slow) for value in slow)]
