"""Operations on races: the only place that drives the engine and the store for the web
and API layers.

* :func:`start_game` deals a new race, reserves its slot in the store (so a refused
  creation never runs a bot), then plays the bots until a person is to move;
* :func:`find_player` / :func:`find_public` authenticate a request and give a
  :class:`Player`, which holds no game state of its own;
* :func:`play_turn` applies a person's action and the bots' replies under the race's lock;
* :func:`read_state` / :func:`session_state` build what a seat may see: the engine's
  observation of that seat plus the public events since its previous response, ``turn``
  and the table (who sits where, the clock);
* :func:`read_record` is the public record (settings, seed once over, every public event);
* :func:`join_race`, :func:`start_race`, :func:`enforce_clock` run the multiplayer side:
  invited people take their seats, the creator starts, the turn clock's autopilot moves
  for a person whose time ran out (who sits where lives in :class:`app.races.lobby.Lobby`).

Every operation loads the race from the store, under the race's lock when it changes
anything, and saves it before the lock is released; the lock is shared by every worker on
a shared store (see :mod:`app.storage.redis_store` for why a lock rather than a
compare-and-set). So any worker serves any request. Nothing here knows about HTTP beyond
raising :mod:`app.http.errors` exceptions.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, TypedDict, TypeVar, cast

import anyio.to_thread

from app import metrics
from app.bots.runner import HUMAN_SEAT, RUNNER, bot_seed, choose_bot_action, run_bots_inline
from app.http.errors import (
    GameExpired,
    GameLost,
    GameNotFound,
    IllegalMove,
    LobbyRefused,
    NotCreator,
    NotYourTurn,
    RaceNotStarted,
    ServerFull,
    StaleTurn,
    TooManyGames,
)
from app.races.lobby import LobbyError, Status
from app.races.record import GameConfig, GameSession, new_session, new_token, token_digest
from app.settings import Settings
from app.storage.interface import ClientFull, GameStore, StoreFull
from app.vocabulary import BotLevel
from engine import Action, IllegalAction, Observation, observe, observe_public

log = logging.getLogger("zzv.sessions")

AUTOPILOT_LEVEL: BotLevel = "normal"
"""The bot that moves for a person whose time ran out (from that seat's observation only)."""

wall_clock: Callable[[], float] = time.time
"""The turn clock's time: wall-clock seconds, the same in every worker (tests may stop it)."""

_PACED_CATCH_UP = 8
"""Most paced bot moves a bots-only race makes in one go after nobody watched for a while."""

SessionStore = GameStore[GameSession]
"""The store of live races, as every route sees it."""

T = TypeVar("T")


@dataclass(eq=False)
class Player:
    """An authenticated hold on a race: a seat's (``seat``) or a spectator's (None).

    It carries no authority over the game itself: every operation here loads the race from
    the store, so any worker sharing the store can serve the next request. ``deadline`` is
    the turn clock as the store's head said when the request was authenticated; ``seen`` is
    the race as the last operation left it (what a page renders).
    """

    store: SessionStore
    game_id: str
    seat: int | None
    deadline: float | None = None
    seen: GameSession | None = None

    @property
    def own_seat(self) -> int:
        """The seat this player sits at (:class:`GameNotFound` for a spectator)."""
        if self.seat is None:  # spectators only ever reach the read-only operations
            raise GameNotFound()
        return self.seat

    @property
    def session(self) -> GameSession:
        """The race as the last operation on this player left it."""
        if self.seen is None:
            raise RuntimeError("No operation has loaded this race yet.")
        return self.seen


async def start_game(
    store: SessionStore, config: GameConfig, settings: Settings, owner: str
) -> tuple[GameSession, SessionState]:
    """Deal a race for client ``owner`` and let the bots play until a person is to move.

    The slot is reserved in the store before any bot thinks, so a refused creation
    (:class:`ServerFull`, :class:`TooManyGames`) costs no bot time. A race waiting for
    invited people plays nothing yet. Returns the session (with the creator's ``token``)
    and the creator's first state.
    """
    session = new_session(config, settings)
    try:
        await store.add(session, owner)
    except StoreFull as exc:
        raise ServerFull() from exc
    except ClientFull as exc:
        raise TooManyGames(settings.client_cap) from exc
    async with store.lock(session.id):
        await _begin(session)
        state = session_state(session, seat=None if config.watch else HUMAN_SEAT)
        await store.save(session)
    metrics.RACES_STARTED.inc()
    return session, state


async def find_player(store: SessionStore, game_id: str, token: str | None) -> Player:
    """The seat of ``game_id`` whose token is ``token``; only then the race's idle clock moves.

    Raises :class:`GameNotFound` for an unknown id or a wrong/missing token alike, and
    :class:`GameExpired` / :class:`GameLost` only when the token opened a race that is gone.
    """
    digest = token_digest(token) if token else None
    head = await store.head(game_id)
    if head is not None:
        seat = None if digest is None else head.seat_of(digest)
        if seat is None:
            raise GameNotFound()
        await store.touch(game_id)
        return Player(store, game_id, seat, head.deadline)
    tombstone = await store.tombstone(game_id)
    if tombstone is not None and digest is not None and tombstone.seat_of(digest) is not None:
        raise GameLost() if tombstone.reason == "restarted" else GameExpired()
    raise GameNotFound()


async def find_public(store: SessionStore, game_id: str) -> Player:
    """A spectator's hold on ``game_id`` (its public view only); :class:`GameNotFound`.

    Watching does not move the race's idle clock: only its seats' requests do.
    """
    head = await store.head(game_id)
    if head is None:
        raise GameNotFound()
    return Player(store, game_id, None, head.deadline)


@contextlib.asynccontextmanager
async def _locked(player: Player) -> AsyncIterator[GameSession]:
    """The race loaded under its lock; whatever the block does to it is saved at the end."""
    async with player.store.lock(player.game_id):
        session = await player.store.load(player.game_id)
        if session is None:  # evicted or expired since the request was authenticated
            raise GameExpired()
        try:
            yield session
        finally:
            player.deadline = session.lobby.deadline
            player.seen = session
            await player.store.save(session)


async def _inspect(player: Player, look: Callable[[GameSession], T]) -> T:
    """``look`` at the race without changing it: on a snapshot store a plain load, else
    under the race's lock so a move in progress is not read half-way."""
    store = player.store
    if store.snapshots:
        session = await store.load(player.game_id)
    else:
        async with store.lock(player.game_id):
            session = await store.load(player.game_id)
    if session is None:
        raise GameExpired()
    player.seen = session
    player.deadline = session.lobby.deadline
    return look(session)


class TableState(TypedDict):
    """The public side of a table: phase, seats, the turn clock, the autopilot's last move."""

    status: Status
    seats: list[dict[str, Any]]
    clock: dict[str, Any] | None
    autopilot: dict[str, int] | None
    last_mover: int | None
    watch: bool


class SessionState(Observation, TableState):
    """What a client is sent: the seat's observation (or the public one) plus the
    session's fields and the table's."""

    game_id: str
    turn: int
    events: list[dict[str, Any]]
    event_count: int
    notice: str | None


def session_state(
    session: GameSession, since: int | None = None, seat: int | None = HUMAN_SEAT
) -> SessionState:
    """What ``seat`` may see now: ``observation(seat)`` + ``events`` + ``turn`` + the table.

    ``seat`` None is a spectator: the engine's public view, with no hand. ``events`` are
    those since the seat's previous response (or since index ``since`` if given); either
    way that seat's delivery cursor moves to the end. Call with the race loaded under its
    lock (or from the thread that holds it) so the game is not read while bots move.
    """
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
            **table_state(session),
            "game_id": session.id,
            "turn": session.turn,
            "events": session.events.dicts(start),
            "event_count": total,
            "notice": RUNNER.notice(session.config.bots),
        },
    )
    if seat is not None:
        session.lobby.seats[seat].delivered = total
    return state


def table_state(session: GameSession, now: float | None = None) -> TableState:
    """The public side of the table every seat and spectator sees: phase, seats, clock."""
    lobby = session.lobby
    now = wall_clock() if now is None else now
    clock = None
    if lobby.deadline is not None and not lobby.paced:
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
        "last_mover": lobby.last_mover,
        "watch": lobby.paced,
    }


def state_signature(state: SessionState) -> tuple[Any, ...]:
    """What makes a state news to a live client (the clock's countdown alone does not)."""
    joined = tuple(s["joined"] for s in state["seats"])
    return (state["event_count"], state["turn"], state["status"], joined, state["clock"] is None)


def _untouched_by_reading(session: GameSession, seat: int | None, now: float) -> bool:
    """Whether reading ``seat``'s state changes nothing: no bot turn or clock move is
    pending and the seat's delivery cursor is already at the end."""
    if _bots_pending(session) or session.lobby.overdue(now):
        return False
    return seat is None or session.lobby.seats[seat].delivered == len(session.events)


async def read_state(player: Player, since: int | None = None) -> SessionState:
    """:func:`session_state` of the player's seat, finishing any pending bot turns and any
    move the turn clock owes first.

    A read that changes nothing (the usual case) is a plain look; otherwise the race is
    taken under its lock and saved, because the read moves the delivery cursor or runs
    bots. Only a change saves, so a spectator's reads never keep a race alive.
    """
    now = wall_clock()

    def unchanged_state(session: GameSession) -> SessionState | None:
        if not _untouched_by_reading(session, player.seat, now):
            return None
        return session_state(session, since, player.seat)

    state = await _inspect(player, unchanged_state)
    if state is not None:
        return state
    async with _locked(player) as session:
        await _settle_locked(session, now)
        return session_state(session, since, player.seat)


async def read_config(player: Player) -> GameConfig:
    """The settings the race was started with."""
    return await _inspect(player, lambda session: session.config)


async def play_turn(
    player: Player, turn: int, action: Action, since: int | None = None
) -> SessionState:
    """Apply the player's ``action`` for ``turn`` and the bots' replies; return the new
    state (its events as :func:`session_state` picks them with ``since``).

    The race's lock (shared by every worker on the store) is held across the move and
    every bot reply, so of several concurrent or repeated submissions for the same turn
    exactly one is applied. Raises :class:`StaleTurn` (carrying the current state) when
    ``turn`` is not current, :class:`RaceNotStarted` in the lobby, :class:`NotYourTurn`
    when another seat is to move, and :class:`IllegalMove` with the engine's sentence
    when the rules forbid it.
    """
    seat = player.own_seat
    async with _locked(player) as session:
        await _settle_locked(session, wall_clock())
        if turn != session.turn:
            raise StaleTurn(session_state(session, seat=seat))
        if session.status == "waiting":
            raise RaceNotStarted()
        current = session.game.current_seat
        if current is not None and current != seat:
            raise NotYourTurn(session_state(session, seat=seat))
        _apply_person(session, action, seat)
        metrics.MOVES.inc()
        session.lobby.last_mover = seat
        await RUNNER.run_bots(session)
        session.lobby.arm_clock(session.game.current_seat, wall_clock())
        return session_state(session, since, seat)


async def join_race(
    store: SessionStore, game_id: str, code: str, name: str | None
) -> tuple[Player, str]:
    """Seat the person holding invite ``code``; return their seat and their new token.

    Raises :class:`GameNotFound`, or :class:`LobbyRefused` (used/unknown code, race
    started, bad name). Once every invited seat is taken the race starts by itself.
    """
    player = await find_public(store, game_id)
    token = new_token()
    async with _locked(player) as session:
        try:
            player.seat = session.lobby.join(code, token_digest(token), name)
        except LobbyError as exc:
            raise LobbyRefused(exc.code, exc.message) from exc
        if session.lobby.started:
            await _begin(session)
    return player, token


async def start_race(player: Player) -> SessionState:
    """The creator starts now: empty seats become bots; return the creator's state.

    Raises :class:`NotCreator` for any other seat; starting a running race changes nothing.
    """
    if player.seat != HUMAN_SEAT:
        raise NotCreator()
    async with _locked(player) as session:
        if not session.lobby.started:
            session.lobby.start()
            await _begin(session)
        return session_state(session, seat=player.seat)


async def enforce_clock(player: Player, now: float | None = None) -> bool:
    """Make the moves the turn clock owes (autopilot or paced bot); True if any was made.

    Safe to call from every stream at once: the lock and the deadline re-read under it
    mean one caller applies the move and the others find nothing overdue. The deadline
    known to ``player`` decides whether to look at all, so an idle race costs no load.
    """
    now = wall_clock() if now is None else now
    if player.deadline is None or now < player.deadline:
        return False
    async with _locked(player) as session:
        return await _settle_locked(session, now)


Suggester = Callable[[Observation, int], tuple[dict[str, Any], str]]
"""Computes a hint from a seat's observation and a seed: (action JSON, reason)."""


async def suggest_move(player: Player, suggester: Suggester) -> dict[str, Any] | None:
    """Ask ``suggester`` for a move for the player's turn and remember it for counting.

    ``None`` when it is not that seat's turn (or the race is over). The suggester sees the
    seat's observation only; the hint's seed is the turn number, nothing secret.
    """
    seat = player.own_seat
    async with _locked(player) as session:
        if session.game.current_seat != seat or session.status != "playing":
            return None
        observation = session.game.observation(seat)
        action, reason = await anyio.to_thread.run_sync(suggester, observation, session.turn)
        hint = {"seat": seat, "turn": session.turn, "action": action, "reason": reason}
        session.suggestion = hint
        return hint


def current_suggestion(session: GameSession, seat: int) -> dict[str, Any] | None:
    """The hint shown to ``seat`` for the current turn, if that seat asked for one."""
    hint = session.suggestion
    fresh = hint is not None and hint["turn"] == session.turn and hint["seat"] == seat
    return hint if fresh else None


async def leave_flash(player: Player, notice: dict[str, Any]) -> None:
    """Keep ``notice`` (a sentence and the seat's own choices) for the seat's next view of
    the table, tied to the current turn."""
    seat = player.own_seat
    async with _locked(player) as session:
        session.flash = {"turn": session.turn, "seat": seat, **notice}


async def take_flash(player: Player) -> dict[str, Any] | None:
    """The notice left for this seat (once), if it is still about the current turn."""
    seat = player.own_seat
    if not await _inspect(player, lambda session: _flash_for(session, seat)):
        return None  # the usual case: nothing to take, so nothing to save
    async with _locked(player) as session:
        flash = session.flash
        if flash is None or flash["seat"] != seat:
            return None
        session.flash = None
        return flash if flash["turn"] == session.turn else None


def _flash_for(session: GameSession, seat: int) -> bool:
    return session.flash is not None and session.flash["seat"] == seat


def game_record(session: GameSession) -> dict[str, Any]:
    """The public record: settings, every public event; the seed only once the race is over.

    While the race runs the record is partial (``complete`` false, no seed) because a
    server-drawn seed would let a player replay the game on this server and look ahead.
    """
    game = session.game
    over = bool(game.is_over)
    return {
        "game_id": session.id,
        "complete": over,
        "settings": {
            "players": session.config.players,
            "bots": session.config.bots,
            "variants": game.observation(HUMAN_SEAT)["variants"],
        },
        "seed": session.seed if over or session.seed_chosen else None,
        "winner": game.winner if over else None,
        "turn": session.turn,
        "events": session.events.dicts(),
    }


async def read_record(player: Player) -> dict[str, Any]:
    """:func:`game_record` of the race."""
    return await _inspect(player, game_record)


def _apply_person(session: GameSession, action: Action, seat: int = HUMAN_SEAT) -> None:
    """Apply a person's move (no bot moves; the turn was checked by the caller)."""
    game = session.game
    if game.is_over:
        raise IllegalMove("The race is over; start a new one.")
    try:
        events = game.apply(action, seat=seat)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from exc
    hint = current_suggestion(session, seat)
    if hint is not None and hint["action"] == action.to_dict():
        key = str(seat)
        session.suggestions_taken[key] = session.suggestions_taken.get(key, 0) + 1
    session.turn += 1
    session.record_events(events)


def play_inline(session: GameSession, action: Action) -> None:
    """The creator's action and the bots' replies, in this thread (benchmarks and scripts)."""
    run_bots_inline(session)
    _apply_person(session, action)
    run_bots_inline(session)


async def _begin(session: GameSession) -> None:
    """The race just started: bots that lead play, the clock starts for the first person.
    Call with the lock held."""
    session.lobby.last_mover = None
    await RUNNER.run_bots(session)
    session.lobby.arm_clock(session.game.current_seat, wall_clock())


async def _settle_locked(session: GameSession, now: float) -> bool:
    """Finish pending bot turns and make the moves the clock owes at ``now``; True if the
    clock moved. Call with the lock held."""
    if _bots_pending(session):  # a previous call may have been cut short
        await RUNNER.run_bots(session)
    if not session.lobby.overdue(now):
        return False
    person = await anyio.to_thread.run_sync(_clock_moves, session, now)
    if person:  # the autopilot moved for a person: the bots reply, the next clock starts
        await RUNNER.run_bots(session)
        session.lobby.arm_clock(session.game.current_seat, now)
    return True


def _clock_moves(session: GameSession, now: float) -> bool:
    """The moves owed by the clock at ``now``: one autopilot move for a person who ran out
    of time (True), or the paced moves of a bots-only race (False). Call with the lock."""
    lobby = session.lobby
    game = session.game
    for _ in range(_PACED_CATCH_UP):
        seat = game.current_seat
        if seat is None or session.status != "playing" or not lobby.overdue(now):
            break
        level = session.config.bots if lobby.paced else AUTOPILOT_LEVEL
        seed = bot_seed(session.engine_seed, seat, session.bot_decisions)
        session.bot_decisions += 1
        action = choose_bot_action(level, game, seat, seed, budget_ms=session.bot_budget_ms)
        session.record_events(game.apply(action, seat=seat))
        lobby.last_mover = None
        if lobby.is_person(seat):
            session.turn += 1
            lobby.note_autopilot(seat, session.turn)
            return True
        # A paced race catches up with the time nobody watched, a few moves at most.
        assert lobby.deadline is not None
        lobby.arm_clock(game.current_seat, lobby.deadline)
    return False


def _bots_pending(session: GameSession) -> bool:
    seat = session.game.current_seat
    return seat is not None and session.bots_may_move(seat)


__all__ = [
    "AUTOPILOT_LEVEL",
    "GameConfig",
    "GameSession",
    "Player",
    "SessionState",
    "SessionStore",
    "TableState",
    "enforce_clock",
    "find_player",
    "find_public",
    "game_record",
    "join_race",
    "play_turn",
    "read_record",
    "read_state",
    "start_game",
    "start_race",
]
