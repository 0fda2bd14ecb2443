"""Ending the races people walked away from before the store forgets them (docs/ratings.md,
"Leaving is losing"): the app's sweep ends, through the unit of work (which records the
result), every rated race with a person idle for :func:`left_after` seconds."""

from __future__ import annotations

from app.races import leaving
from app.races.errors import RaceError
from app.races.unit import Races
from app.settings import Settings

IDLE_SHARE = 0.5
"""The share of the store's idle expiry after which a race's people have left."""


def left_after(settings: Settings) -> float:
    """Seconds a rated race may sit untouched before its people count as gone."""
    return settings.idle_expiry_seconds * IDLE_SHARE


async def end_idle_races(races: Races) -> int:
    """End as left every rated race with a person untouched for :func:`left_after` seconds;
    how many were ended."""
    ended = 0
    for game_id in await races.store.idle_ids(left_after(races.settings)):
        found = (await races.store.fetch(game_id)).record
        if found is None or not leaving.rated_with_people(found):
            continue
        try:
            async with races.open(game_id, None, write=True, spectator=True) as race:
                if leaving.rated_with_people(race.session):
                    race.end_left([seat.index for seat in race.session.lobby.seats if seat.person])
                    ended += 1
        except RaceError:  # gone meanwhile, or its save was refused: the next sweep sees it
            continue
    return ended
