"""Leaving is losing (docs/ratings.md): who left a race, placed last in its result. A person
left when the race was ended for it (:func:`end_left`), when the autopilot played their
last :data:`CLOCK_TURNS` turns, when it finished while they were away, or when it is a
daily (cup) attempt that ended after its day (week) closed. A race ended before its first
trick is aborted: no result at all."""

from __future__ import annotations

from collections.abc import Iterable

from app.races.record import GameSession, move_kind, move_seat
from app.results.daily_times import sealed_until
from engine import EventKind

CLOCK_TURNS = 2
"""Turns in a row, the race's last ones for that person, that the autopilot played."""

_TRICK_ENDS = frozenset({EventKind.TRICK_WON.value, EventKind.TRICK_ALL_TUNED_UP.value})


def end_left(session: GameSession, seats: Iterable[int]) -> None:
    """End ``session`` because the people at ``seats`` left: nothing moves in it again."""
    session.left = sorted(set(session.left) | set(seats))
    session.lobby.deadline = None


def aborted(session: GameSession) -> bool:
    """Whether ``session`` ended before its first trick was over (it then has no result)."""
    return not session.game.is_over and not any(
        event["kind"] in _TRICK_ENDS for event in session.events.dicts()
    )


def leavers(session: GameSession, now: float) -> frozenset[int]:
    """The seats whose person left ``session``, over at wall-clock ``now``."""
    people = [seat.index for seat in session.lobby.seats if seat.person]
    closes = sealed_until(session.config.daily, session.config.cup)
    if closes is not None and now >= closes:
        return frozenset(people)
    lobby = session.lobby
    gone = {seat for seat in people if lobby.is_away(seat) or _clocked_out(session, seat)}
    return frozenset(session.left) | gone


def _clocked_out(session: GameSession, seat: int) -> bool:
    """Whether the autopilot played ``seat``'s last :data:`CLOCK_TURNS` turns."""
    own = [move_kind(code) for code in session.moves if move_seat(code) == seat]
    last = own[-CLOCK_TURNS:]
    return len(last) == CLOCK_TURNS and all(kind == "autopilot" for kind in last)


def rated_with_people(session: GameSession) -> bool:
    """Whether ``session`` is a running race that would rate a person the results know."""
    lobby = session.lobby
    known = any(seat.person and seat.player is not None for seat in lobby.seats)
    return session.status == "playing" and not session.practice and not lobby.paced and known
