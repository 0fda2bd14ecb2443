"""Leaving is losing (docs/ratings.md): who left a race, and the result handed to the
results (:func:`finish_of`, once, through the store's outbox), those people last in it.
A race ended before its first trick is aborted: no result at all."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from app.races import operations
from app.races.record import GameSession, move_kind, move_seat
from app.results.daily_times import sealed_until
from app.results.ratings import places
from app.results.store import Finish, SeatResult
from engine import EventKind

CLOCK_TURNS = 2
"""A person's last turns in a row that the autopilot played: they left."""

_TRICK_ENDS = frozenset({EventKind.TRICK_WON.value, EventKind.TRICK_ALL_TUNED_UP.value})


def aborted(session: GameSession) -> bool:
    return not session.game.is_over and not any(
        event["kind"] in _TRICK_ENDS for event in session.events.dicts()
    )


def leavers(session: GameSession, now: float) -> frozenset[int]:
    """The seats whose person left ``session``, over at wall-clock ``now``: the race was
    ended for them, they were clocked out or away, or it is a daily (cup) attempt that
    ended after its day (week) closed."""
    people = [seat.index for seat in session.lobby.seats if seat.person]
    closes = sealed_until(session.config.daily, session.config.cup)
    if closes is not None and now >= closes:
        return frozenset(people)
    lobby = session.lobby
    gone = {seat for seat in people if lobby.is_away(seat) or _clocked_out(session, seat)}
    return frozenset(session.left) | gone


def _clocked_out(session: GameSession, seat: int) -> bool:
    own = [move_kind(code) for code in session.moves if move_seat(code) == seat]
    last = own[-CLOCK_TURNS:]
    return len(last) == CLOCK_TURNS and all(kind == "autopilot" for kind in last)


def rated_with_people(session: GameSession) -> bool:
    """Whether ``session`` is a running race that would rate a person the results know."""
    lobby = session.lobby
    known = any(seat.person and seat.player is not None for seat in lobby.seats)
    return session.status == "playing" and not session.practice and not lobby.paced and known


def finish_of(session: GameSession, now: float) -> Finish | None:
    """What the results keep of ``session``, over at wall-clock ``now``; None while it runs,
    when it was aborted, or when nobody the results know sat in it."""
    game = session.game
    lobby = session.lobby
    known = any(seat.player is not None for seat in lobby.seats)
    if session.status != "over" or not known or aborted(session):
        return None
    record = operations.game_record(session)
    config = session.config
    kind = "daily" if config.daily is not None else "cup" if config.cup is not None else "race"
    tricks = Counter(
        event["seat"] for event in record["events"] if event["kind"] == EventKind.TRICK_WON.value
    )
    left = leavers(session, now)
    finish = places(game.laps, game.gas, game.winner, left)
    seats = tuple(
        SeatResult(
            seat=seat.index,
            name=seat.name,
            place=finish[seat.index],
            laps=game.laps[seat.index],
            tricks=tricks[seat.index],
            gas=game.gas[seat.index],
            player_id=seat.player if seat.person else None,
            bot_level=None if seat.person else config.bots,
            left=seat.index in left,
        )
        for seat in lobby.seats
    )
    return Finish(
        game_id=session.id,
        finished_at=datetime.fromtimestamp(now, UTC),
        players=config.players,
        people=lobby.people(),
        bots=config.bots,
        settings=config.to_dict(),
        practice=session.practice,
        record=record,
        seats=seats,
        kind=kind,
        # A daily attempt's deal is revealed once its day closed, a cup deal's once its week
        # did (the record, built now, holds it back): kept aside until then.
        sealed=operations.revealed(session) if kind != "race" and game.is_over else None,
    )
