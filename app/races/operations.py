"""What happens to a race, as functions of its record (no store, no lock, no HTTP): what a
seat may see, moves, take-backs, quick messages, the bots, the turn clock and the public
record. :mod:`app.races.unit` calls these on the race a request loaded."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, cast, get_args

import anyio.to_thread
from typing_extensions import TypedDict

from app.bots.runner import HUMAN_SEAT, BotRunner, bot_seed, choose_bot_action
from app.races.errors import IllegalMove, TakebackRefused, TalkRefused
from app.races.lobby import AutopilotMove, PublicSeat, RematchOffer, Status
from app.races.record import GameSession, Said, move_kind, move_seat, replay_moves
from app.results.daily_times import sealed_until
from app.storage.policy import PolicyStore
from app.vocabulary import BotLevel, TalkCode
from engine import Action, EventLog, IllegalAction, Observation, Refusal, observe, observe_public
from engine.fairness import commit

log = logging.getLogger("zzv.races")

AUTOPILOT_LEVEL: BotLevel = "normal"
"""The bot that moves for a person whose time ran out (from that seat's observation only)."""

wall_clock: Callable[[], float] = time.time
"""The turn clock's time: wall-clock seconds, the same in every worker (tests may stop it)."""

_PACED_CATCH_UP = 8
"""Most paced bot moves a bots-only race makes in one go after nobody watched for a while."""

SessionStore = PolicyStore[GameSession]


class Clock(TypedDict):
    """The turn clock of the person to move."""

    seat: int | None
    seconds_left: float
    turn_seconds: float


class TableState(TypedDict):
    """The public side of a table: phase, seats, the turn clock, the autopilot's last move."""

    status: Status
    seats: list[PublicSeat]
    clock: Clock | None
    autopilot: AutopilotMove | None
    rematch: RematchOffer | None
    last_mover: int | None
    watch: bool
    practice: bool
    said: list[Said]


class SessionState(Observation, TableState):
    """What a client is sent: the seat's observation (or the public one) plus the
    session's fields and the table's."""

    game_id: str
    turn: int
    events: list[dict[str, Any]]
    event_count: int
    notice: str | None


def session_state(
    session: GameSession,
    since: int | None = None,
    seat: int | None = HUMAN_SEAT,
    *,
    deliver: bool = True,
    now: float | None = None,
    notice: str | None = None,
) -> SessionState:
    """What ``seat`` (None: a spectator) may see now: its observation, the table, and the
    ``events`` since its previous response (or since index ``since``; ``deliver`` moves
    its cursor to the end)."""
    total = len(session.events)
    cursor = 0 if seat is None else session.lobby.seats[seat].delivered
    start = cursor if since is None else max(0, min(since, total))
    game = session.game
    view = observe_public(game) if seat is None else observe(game, seat)
    # Typed as a seat's state; a spectator's differs only in ``seat`` being None.
    state = cast(
        SessionState,
        {
            **view,
            **table_state(session, now),
            "game_id": session.id,
            "turn": session.turn,
            "events": session.events.dicts(start),
            "event_count": total,
            "notice": notice,
        },
    )
    if deliver and seat is not None:
        session.lobby.seats[seat].delivered = total
    return state


def cursor_behind(session: GameSession, seat: int) -> bool:
    return session.lobby.seats[seat].delivered != len(session.events)


def table_state(session: GameSession, now: float | None = None) -> TableState:
    """The public side of the table every seat and spectator sees."""
    lobby = session.lobby
    now = wall_clock() if now is None else now
    clock: Clock | None = None
    if lobby.deadline is not None and not lobby.paced and lobby.started:
        clock = {
            "seat": session.game.current_seat,
            "seconds_left": round(max(0.0, lobby.deadline - now), 1),
            "turn_seconds": lobby.turn_seconds,
        }
    return {
        "status": session.status,
        "seats": lobby.public_seats(),
        "clock": clock,
        "autopilot": lobby.autopilot,
        "rematch": lobby.rematch,
        "last_mover": lobby.last_mover,
        "watch": lobby.paced,
        "practice": session.practice,
        "said": list(session.said),
    }


def play_signature(state: SessionState) -> tuple[Any, ...]:
    """What makes a state news to a live client's table (quick messages aside)."""
    seats = tuple((s["joined"], s["away"]) for s in state["seats"])
    return (state["event_count"], state["turn"], state["status"], seats, state["clock"] is None)


async def play(
    session: GameSession, seat: int, action: Action, now: float, runner: BotRunner
) -> None:
    """Apply ``seat``'s ``action`` (checked by the engine) and the bots' replies, then start
    the next person's clock."""
    if session.status == "over":  # a race ended because someone left is over too
        raise IllegalMove(Refusal.of("race_over"))
    try:
        events = session.game.apply(action, seat=seat)
    except IllegalAction as exc:
        raise IllegalMove(exc.refusal) from exc
    session.turn += 1
    session.record_action(seat, action, "person")
    session.record_events(events)
    session.lobby.last_mover = seat
    session.lobby.note_own_move(seat)
    await runner.run_bots(session)
    session.lobby.arm_clock(session.game.current_seat, now)


def game_record(session: GameSession, now: float | None = None) -> dict[str, Any]:
    """The public record (docs/fair-play.md): settings, every public event and the deal's
    ``commitment``; once :func:`seed_shown` allows at wall-clock ``now``, also what
    :func:`revealed` adds. While the race runs nothing in it determines a hidden card."""
    game = session.game
    over = bool(game.is_over)
    salt = session.salt
    record: dict[str, Any] = {
        "game_id": session.id,
        "complete": over,
        "settings": {
            "players": session.config.players,
            "bots": session.config.bots,
            "variants": game.observation(HUMAN_SEAT)["variants"],
        },
        "practice": session.practice,
        "seed": None,
        "winner": game.winner if over else None,
        "turn": session.turn,
        "events": session.events.dicts(),
        "commitment": None if salt is None else commit(session.engine_seed, salt),
    }
    if seed_shown(session, now):
        record.update(revealed(session))
    # The hard bot's result in each person's seat on this deal, once worked out.
    if over and session.par:
        record["par"] = session.par
    return record


def revealed(session: GameSession) -> dict[str, Any]:
    """What a finished race's record adds (docs/fair-play.md)."""
    committed = session.salt is not None
    return {
        "seed": session.seed,
        "deal_seed": session.engine_seed if committed else None,
        "salt": session.salt,
        "actions": session.actions() if committed else None,
        "bot_key": session.bot_key,
    }


def seed_shown(session: GameSession, now: float | None = None) -> bool:
    """Whether what dealt the race's cards may be shown at wall-clock ``now``: once it is
    over, and a daily (cup) deal's once its day (week) closed too."""
    if not session.game.is_over:
        return False
    closes = sealed_until(session.config.daily, session.config.cup)
    return closes is None or (now is not None and now >= closes)


async def begin(session: GameSession, now: float, runner: BotRunner) -> None:
    """The race just started: bots that lead play, the clock starts for the first person."""
    session.lobby.last_mover = None
    await runner.run_bots(session)
    session.lobby.arm_clock(session.game.current_seat, now)


async def settle(session: GameSession, now: float, runner: BotRunner) -> bool:
    """Finish pending bot turns and make the moves the clock owes at ``now``; whether
    anything changed."""
    pending = bots_pending(session)
    if pending:  # a previous request may have been cut short
        await runner.run_bots(session)
    if not session.lobby.overdue(now):
        return pending
    if not session.lobby.started:  # a race open to strangers waited long enough
        session.lobby.start()
    elif not await anyio.to_thread.run_sync(_clock_moves, session, now):
        return True  # a bots-only race's paced moves: nothing else to do
    await begin(session, now, runner)  # the bots reply, the next clock starts
    return True


def _clock_moves(session: GameSession, now: float) -> bool:
    """One autopilot move for a person out of time at ``now`` (True), or a bots-only race's
    paced moves (False)."""
    lobby = session.lobby
    game = session.game
    for _ in range(_PACED_CATCH_UP):
        seat = game.current_seat
        if seat is None or session.status != "playing" or not lobby.overdue(now):
            break
        level = session.config.bots if lobby.paced else AUTOPILOT_LEVEL
        seed = bot_seed(session.bot_key, seat, session.bot_decisions)
        session.bot_decisions += 1
        action = choose_bot_action(level, game, seat, seed, budget_ms=session.bot_budget_ms)
        session.record_events(game.apply(action, seat=seat))
        person = lobby.is_person(seat)
        session.record_action(seat, action, "autopilot" if person else "bot")
        lobby.last_mover = None
        if person:
            session.turn += 1
            lobby.note_autopilot(seat, session.turn)
            return True
        # A paced race catches up with the time nobody watched, a few moves at most.
        assert lobby.deadline is not None
        lobby.arm_clock(game.current_seat, lobby.deadline)
    return False


def bots_pending(session: GameSession) -> bool:
    seat = session.game.current_seat
    return seat is not None and session.bots_may_move(seat)


PERSON_KINDS = frozenset({"person", "autopilot"})  # a person's turn, theirs or the autopilot's


def can_take_back(session: GameSession, seat: int) -> bool:
    try:
        _takeback_cut(session, seat)
    except TakebackRefused:
        return False
    return True


def _takeback_cut(session: GameSession, seat: int) -> int:
    """Where ``seat``'s last turn is in the recording, or :class:`TakebackRefused`."""
    if session.lobby.people() > 1:
        raise TakebackRefused("takeback_with_people")
    if session.status == "over":
        raise TakebackRefused("takeback_race_over")
    moves = enumerate(session.moves)
    own = [i for i, code in moves if move_seat(code) == seat and move_kind(code) in PERSON_KINDS]
    if not own:
        raise TakebackRefused("nothing_to_take_back")
    return own[-1]


def take_back(session: GameSession, seat: int, now: float) -> None:
    """Undo ``seat``'s last turn and everything after it, in place (docs/api.md): the race
    is replayed from its deal, counters included, so the bots (seeded from their decision
    count) may answer another card; it becomes practice. A refusal changes nothing."""
    cut = _takeback_cut(session, seat)
    game = session.dealt()
    events = EventLog([game.deal_event()])
    try:  # the whole recording must give the race as it stands (it is never rewritten)
        replay_moves(game, events, session.moves[:cut])
        kept = game.clone(), events.copy()
        replay_moves(game, events, session.moves[cut:])
        reproduced = game == session.game and events == session.events
    except ValueError:  # a recorded move that does not follow
        reproduced = False
    if not reproduced:
        log.error("a race's recording does not reproduce it; the take-back was refused")
        raise TakebackRefused("takeback_unavailable")
    session.game, session.events = kept
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


TALK_CODES: tuple[str, ...] = get_args(TalkCode)
"""Every quick message's code, in the order the table offers them (docs/api.md)."""

TALK_KEPT = 12
"""How many of a race's latest messages it keeps."""


def check_talk(session: GameSession, seat: int, code: str) -> None:
    """Raise :class:`TalkRefused` if ``seat`` may not say ``code`` now."""
    if code not in TALK_CODES:
        raise TalkRefused("unknown_message")
    if session.lobby.people() <= 1:
        raise TalkRefused("talk_without_people")
    if session.status == "over":
        raise TalkRefused("talk_race_over")
    if not session.lobby.is_person(seat):
        raise TalkRefused("talk_without_people")


def say(session: GameSession, seat: int, code: str, now: float) -> Said:
    """Add ``seat``'s message ``code`` to the race and return it, unless
    :func:`check_talk` refuses it."""
    check_talk(session, seat, code)
    session.said_count += 1
    message: Said = {
        "n": session.said_count,
        "seat": seat,
        "code": cast(TalkCode, code),  # one of TALK_CODES: check_talk() said so
        "at": round(now, 3),
        "after": len(session.events),
    }
    session.said = [*session.said[-(TALK_KEPT - 1) :], message]
    return message


def said_mark(said: list[Said]) -> int:
    """The number of the latest of ``said`` (0 for none)."""
    return int(said[-1]["n"]) if said else 0
