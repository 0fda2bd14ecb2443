"""How many examples a Hypothesis property test tries: a share of its full count in the
README's test command, the full count in the slow sweeps (``-m slow``) or under
``--hypothesis-profile=slow``.

Imported as ``property_kit`` (tests/ is on the path). tests/conftest.py switches to the
full counts before any test module is imported, and marks the property tests ``slow`` as
well in that run, so the sweeps run each property with its full count while every run
still tries each property on a few examples.
"""

from __future__ import annotations

FAST_SHARE = 5
"""The README's command tries one example in this many of a property's full count."""

FAST_FLOOR = 10
"""Fewest examples a property tries in any run."""

SLOW_PROFILE = "slow"
"""The Hypothesis profile (``--hypothesis-profile=slow``) that asks for the full counts."""

_counts = {"full": False}


def use_full_counts() -> None:
    """Every property from now on tries its full count (the slow run; called by the root
    conftest before test modules are imported)."""
    _counts["full"] = True


def full_counts() -> bool:
    """Whether this run tries the full counts."""
    return _counts["full"]


def examples(full: int) -> int:
    """``max_examples`` for a property whose full count is ``full``."""
    if _counts["full"]:
        return full
    return min(full, max(FAST_FLOOR, full // FAST_SHARE))
