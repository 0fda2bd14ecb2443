"""Every fully qualified cross-reference in the code's docstrings and comments
(``:func:`engine.bots.policy.choose_id```) and in the README and docs/
(```engine.bots.policy.choose_id```) names something that exists: a function moved or
renamed leaves no reference behind that sends a reader looking for it."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "app", "bench")
ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):`~?((?:engine|app|bench)\.[\w.]+)`")
CODE = re.compile(r"`((?:engine|app|bench)\.[A-Za-z_][\w.]*)`")


def _member(owner: object, name: str) -> bool:
    """Whether ``owner`` has ``name``: an attribute, or for a class a field its instances
    carry (annotated, a slot, or a dataclass field)."""
    if hasattr(owner, name):
        return True
    if not isinstance(owner, type):
        return False
    for klass in owner.__mro__:
        if name in getattr(klass, "__annotations__", {}) or name in getattr(klass, "__slots__", ()):
            return True
    return False


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` names a module, or something inside one, that exists.

    >>> resolves("engine.bots.policy.choose_id"), resolves("engine.bots.policy.no_such")
    (True, False)
    """
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            owner: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not _member(owner, name):
                return False
            owner = getattr(owner, name, None)
        return True
    return False


def _references() -> list[tuple[str, str]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for dotted in ROLE.findall(path.read_text(encoding="utf-8")):
                found.append((str(path.relative_to(ROOT)), dotted.rstrip(".")))
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for dotted in CODE.findall(path.read_text(encoding="utf-8")):
            found.append((str(path.relative_to(ROOT)), dotted.rstrip(".")))
    return found


def test_every_qualified_reference_resolves() -> None:
    references = _references()
    assert sum(where.endswith(".py") for where, _ in references) > 50  # the code's
    assert sum(where.endswith(".md") for where, _ in references) > 50  # and the docs'
    stale = [f"{where}: {dotted}" for where, dotted in references if not resolves(dotted)]
    assert stale == []


@pytest.mark.parametrize(
    ("dotted", "exists"),
    [
        ("engine.bots.rollout.rollout_seats", True),
        ("engine.bots.rollout.Decisions.segment", True),
        ("engine.sim.SimState.turn", True),  # a slot of its instances
        ("engine.bots.rollout.choose_id", False),  # moved to engine.bots.policy
        ("app.races.operations.start_game", False),
    ],
)
def test_the_check_tells_a_stale_reference(dotted: str, exists: bool) -> None:
    assert resolves(dotted) is exists
