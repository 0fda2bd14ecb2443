"""Take-backs in a race with one person (docs/api.md): the recorded moves are cut just
before the person's last action and the race rebuilt from its deal by replaying the rest,
turn and bot counters included, so the bots (seeded from their decision count) answer a
different card as they would have. A recording that does not reproduce the race as it
stands is refused, never rewritten. A race that used a take-back is practice."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from app.races.errors import TakebackRefused
from app.races.lobby import AutopilotMove
from app.races.record import GameSession, decode_move, move_kind, move_seat
from engine import EventLog, Game, IllegalAction

log = logging.getLogger("zzv.races")

PERSON_KINDS = frozenset({"person", "autopilot"})
"""Kinds of recorded action that are a person's turn (the autopilot plays it for them)."""


@dataclass
class _Replayed:
    """The race rebuilt up to a cut in its recording."""

    game: Game
    events: EventLog
    turn: int
    bot_decisions: int
    autopilot_moves: list[int]
    autopilot: AutopilotMove | None


def can_take_back(session: GameSession, seat: int) -> bool:
    """Whether ``seat`` could take back now (what the table's button is shown for)."""
    return _refusal(session, seat) is None


def _refusal(session: GameSession, seat: int) -> TakebackRefused | None:
    if session.lobby.people() > 1:
        return TakebackRefused("takeback_with_people")
    if session.status == "over":
        return TakebackRefused("takeback_race_over")
    if _last_own_move(session, seat) is None:
        return TakebackRefused("nothing_to_take_back")
    return None


def _last_own_move(session: GameSession, seat: int) -> int | None:
    moves = session.moves
    for index in range(len(moves) - 1, -1, -1):
        if move_seat(moves[index]) == seat and move_kind(moves[index]) in PERSON_KINDS:
            return index
    return None


def take_back(session: GameSession, seat: int, now: float) -> None:
    """Undo ``seat``'s last turn and everything after it, in place; or raise
    :class:`TakebackRefused` and change nothing."""
    refusal = _refusal(session, seat)
    if refusal is not None:
        raise refusal
    cut = _last_own_move(session, seat)
    assert cut is not None
    kept = _replay(session, cut)
    lobby = session.lobby
    session.game = kept.game
    session.events = kept.events
    session.turn = kept.turn
    session.bot_decisions = kept.bot_decisions
    del session.moves[cut:]
    session.practice = True
    lobby.autopilot_moves = kept.autopilot_moves
    lobby.autopilot = kept.autopilot
    lobby.last_mover = seat
    for place in lobby.seats:
        place.delivered = min(place.delivered, len(kept.events))
    lobby.arm_clock(session.game.current_seat, now)


def _replay(session: GameSession, cut: int) -> _Replayed:
    """The race rebuilt from its deal up to recorded action ``cut`` (excluded), once the
    whole recording is checked to give the race as it stands."""
    game = session.dealt()
    events = EventLog([game.deal_event()])
    turn = decisions = 0
    autopilot_moves = [0] * game.players
    autopilot: AutopilotMove | None = None
    kept: _Replayed | None = None
    try:
        for index, code in enumerate(session.moves):
            kind, seat, action = decode_move(code)
            if index == cut:
                kept = _Replayed(
                    game.clone(), events.copy(), turn, decisions,
                    list(autopilot_moves), None if autopilot is None else autopilot.copy(),
                )  # fmt: skip
            events.extend(game.apply(action, seat=seat))
            if kind in PERSON_KINDS:
                turn += 1
            if kind != "person":
                decisions += 1
            if kind == "autopilot":
                autopilot_moves[seat] += 1
                autopilot = {"seat": seat, "turn": turn}
    except IllegalAction:
        kept = None
    if kept is None or game != session.game or events != session.events:
        log.error("a race's recording does not reproduce it; the take-back was refused")
        raise TakebackRefused("takeback_unavailable")
    return kept
