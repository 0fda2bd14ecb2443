"""A finished race handed to the results (:mod:`app.results`), once, by the unit of work:
saved with the change that ended it (the store's outbox) and recorded from there,
idempotently (docs/architecture.md)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from app.races import leaving, operations
from app.races.record import GameSession
from app.results.ratings import places
from app.results.store import Finish, SeatResult
from engine import EventKind


def finish_of(session: GameSession, now: float) -> Finish | None:
    """What the results keep of ``session``, over at wall-clock ``now`` (people who left
    share the last place); None while it runs, when it was aborted, or when nobody the
    results know sat in it."""
    game = session.game
    lobby = session.lobby
    if session.status != "over" or not any(seat.player is not None for seat in lobby.seats):
        return None
    if leaving.aborted(session):
        return None
    record = operations.game_record(session)
    tricks = Counter(
        event["seat"] for event in record["events"] if event["kind"] == EventKind.TRICK_WON.value
    )
    left = leaving.leavers(session, now)
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
            bot_level=None if seat.person else session.config.bots,
            left=seat.index in left,
        )
        for seat in lobby.seats
    )
    return Finish(
        game_id=session.id,
        finished_at=datetime.fromtimestamp(now, UTC),
        players=session.config.players,
        people=lobby.people(),
        bots=session.config.bots,
        settings=session.config.to_dict(),
        practice=session.practice,
        record=record,
        seats=seats,
        kind=_kind(session),
        # A daily attempt's deal is revealed once its day closed, a cup deal's once its week
        # did (the record, built now, holds it back): kept aside until then.
        sealed=operations.revealed(session) if _kind(session) != "race" and game.is_over else None,
    )


def _kind(session: GameSession) -> str:
    config = session.config
    return "daily" if config.daily is not None else "cup" if config.cup is not None else "race"
