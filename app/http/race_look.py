"""A look at a race that may not be there, for the pages that have somewhere else to turn
(a finished race's kept record, the invite page of a browser with no seat yet)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from app.races.errors import RaceError
from app.races.unit import Race, Races

T = TypeVar("T")


async def look(
    races: Races,
    game_id: str,
    token: str | None,
    read: Callable[[Race], T],
    *,
    spectator: bool = False,
) -> T | RaceError:
    """What ``read`` finds in the race opened for reading, or the refusal that opened none
    (:meth:`app.races.unit.Races.open`: unknown, gone, or not this token's)."""
    try:
        async with races.open(game_id, token, spectator=spectator) as race:
            return read(race)
    except RaceError as refusal:
        return refusal
