"""Take-backs in a race with one person (docs/api.md): the recorded moves are cut just
before the person's last action and the race rebuilt from its deal by replaying the rest,
turn and bot counters included, so the bots (seeded from their decision count) answer a
different card as they would have. A recording that does not reproduce the race as it
stands is refused, never rewritten. A race that used a take-back is practice."""

from __future__ import annotations

import logging

from app.races.errors import TakebackRefused
from app.races.record import GameSession, move_kind, move_seat, replay_moves
from engine import EventLog, Game

log = logging.getLogger("zzv.races")

PERSON_KINDS = frozenset({"person", "autopilot"})
"""Kinds of recorded action that are a person's turn (the autopilot plays it for them)."""


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
    moves = enumerate(session.moves)
    own = [i for i, code in moves if move_seat(code) == seat and move_kind(code) in PERSON_KINDS]
    return own[-1] if own else None


def take_back(session: GameSession, seat: int, now: float) -> None:
    """Undo ``seat``'s last turn and everything after it, in place; or raise
    :class:`TakebackRefused` and change nothing."""
    refusal = _refusal(session, seat)
    if refusal is not None:
        raise refusal
    cut = _last_own_move(session, seat)
    assert cut is not None
    session.game, session.events = _replay(session, cut)
    lobby = session.lobby
    session.turn = session.bot_decisions = 0
    lobby.autopilot_moves, lobby.autopilot = [0] * session.game.players, None
    for code in session.moves[:cut]:  # the counters as they stood at the cut
        kind, mover = move_kind(code), move_seat(code)
        session.turn += kind in PERSON_KINDS
        session.bot_decisions += kind != "person"
        if kind == "autopilot":
            lobby.autopilot_moves[mover] += 1
            lobby.autopilot = {"seat": mover, "turn": session.turn}
    del session.moves[cut:]
    session.practice = True
    lobby.last_mover = seat
    for place in lobby.seats:
        place.delivered = min(place.delivered, len(session.events))
    lobby.arm_clock(session.game.current_seat, now)


def _replay(session: GameSession, cut: int) -> tuple[Game, EventLog]:
    """The game and log rebuilt from the deal up to recorded action ``cut`` (excluded),
    once the whole recording is checked to give the race as it stands."""
    game = session.dealt()
    events = EventLog([game.deal_event()])
    kept: tuple[Game, EventLog] | None = None
    try:
        replay_moves(game, events, session.moves[:cut])
        kept = game.clone(), events.copy()
        replay_moves(game, events, session.moves[cut:])
    except ValueError:  # a recorded move that does not follow
        kept = None
    if kept is None or game != session.game or events != session.events:
        log.error("a race's recording does not reproduce it; the take-back was refused")
        raise TakebackRefused("takeback_unavailable")
    return kept
