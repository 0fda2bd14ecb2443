"""Game sessions: people and bots at one table, with a lock, a turn counter and an event log.

This module is the only place that drives the engine for the web and API layers:

* :func:`start_game_async` deals a new game, stores it, then plays the bots until a person
  is to move (a refused creation never runs a bot);
* :func:`play_turn` applies a person's action and the bots' replies under the game's lock
  (the bots run through :mod:`app.bot_runner`);
* :func:`read_state` / :func:`session_state` build what a client may see: the engine's
  ``observation(0)`` plus the public events since the previous response plus ``turn``;
* :func:`game_record` is the public record (settings, seed once over, every public event);
* :func:`join_race`, :func:`start_race`, :func:`enforce_clock` run the multiplayer side:
  invited people take their seats, the creator starts, the turn clock's autopilot moves
  for a person whose time ran out (who sits where lives in :class:`app.lobby.Lobby`).

Nothing here knows about HTTP beyond raising :mod:`app.errors` exceptions.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

import anyio.to_thread

from app import metrics
from app.bot_runner import HUMAN_SEAT, RUNNER, bot_seed, choose_bot_action, run_bots_inline
from app.errors import (
    GameExpired,
    GameNotFound,
    IllegalMove,
    LobbyRefused,
    NotCreator,
    NotYourTurn,
    RaceNotStarted,
    ServerFull,
    StaleTurn,
)
from app.lobby import Lobby, LobbyError, Status
from app.settings import Settings
from app.store import GameStore, StoreFull
from app.vocabulary import BotLevel
from engine import (
    Action,
    Event,
    EventLog,
    Game,
    IllegalAction,
    Observation,
    Variants,
    new_game,
    observe,
    observe_public,
)
from engine.bots import DEFAULT_BOT_BUDGET_MS

log = logging.getLogger("zzv.sessions")

AUTOPILOT_LEVEL: BotLevel = "normal"
"""The bot that moves for a person whose time ran out (from that seat's observation only)."""

wall_clock: Callable[[], float] = time.time
"""The turn clock's time: wall-clock seconds, the same in every worker (tests may stop it)."""

_PACED_CATCH_UP = 8
"""Most paced bot moves a bots-only race makes in one go after nobody watched for a while."""


@dataclass(frozen=True)
class GameConfig:
    """What a player chose when starting a race."""

    players: int = 4
    bots: BotLevel = "normal"
    variants: Variants = field(default_factory=Variants)
    seed: int | None = None
    """The public seed; None asks the server to draw one."""
    people: int = 1
    """How many seats are people's: the creator and ``people - 1`` invited friends."""
    watch: bool = False
    """A bots-only race paced for spectators ("Watch the bots race")."""


def new_game_id() -> str:
    """A fresh unguessable game id (used in URLs; it is not a credential)."""
    return secrets.token_urlsafe(12)


def new_token() -> str:
    """A fresh player token: 256 random bits, the only credential for a game."""
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    """SHA-256 of a token: what is remembered about a game after it expires."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class GameSession:
    """One live race: the engine game plus everything the server tracks about it.

    ``turn`` counts the human's applied actions; a request must echo it. ``events`` holds the
    public event log, packed (memory: a game keeps hundreds of events).
    ``lobby`` says who sits where; each seat remembers how many events it was sent.


    ``suggestion`` is the last hint shown (``{"seat", "turn", "action", "reason"}``, the
    action in engine JSON); ``suggestions_taken`` counts, per seat (as a string key), the
    moves that matched the hint for that seat's turn. ``flash`` carries one message to the
    next page view of one seat (a refused move's reason after the redirect that keeps the
    table at its own address); it holds nothing that seat did not send or may not see.
    """

    id: str
    token: str
    config: GameConfig
    game: Game
    seed: int
    seed_chosen: bool
    engine_seed: int
    turn: int = 0
    events: EventLog = field(default_factory=EventLog)
    bot_decisions: int = 0
    last_seen: float = 0.0
    bot_budget_ms: int = DEFAULT_BOT_BUDGET_MS
    suggestion: dict[str, Any] | None = None
    suggestions_taken: dict[str, int] = field(default_factory=dict)
    flash: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    lobby: Lobby = field(default=None)  # type: ignore[assignment]  # set in __post_init__

    def __post_init__(self) -> None:
        # Without a lobby the session is the classic one: the creator alone against bots.
        if self.lobby is None:
            self.lobby = Lobby.create(self.game.players, 1, token_digest(self.token))

    def bots_may_move(self, seat: int) -> bool:
        """Whether the bots play ``seat`` now: a bot's seat, once the race started, and
        not in a bots-only race (whose moves come one by one on its clock)."""
        lobby = self.lobby
        return lobby.started and not lobby.paced and not lobby.is_person(seat)

    @property
    def status(self) -> Status:
        """``waiting`` for people to join, ``playing``, or ``over``."""
        if self.game.is_over:
            return "over"
        return "playing" if self.lobby.started else "waiting"

    @property
    def token_digest(self) -> str:
        """SHA-256 of the token (kept after expiry to tell 410 from 404)."""
        return token_digest(self.token)

    def check_token(self, token: str | None) -> bool:
        """Constant-time check of a presented token."""
        return token is not None and hmac.compare_digest(token.encode(), self.token.encode())

    def record_events(self, events: list[Event]) -> None:
        """Append engine events to the public log."""
        self.events.extend(events)


SessionStore = GameStore[GameSession]
"""The store of live races, as every route sees it."""


def derive_engine_seed(seed: int, settings: Settings) -> int:
    """Shuffle seed for the engine, keyed with the server secret.

    The public seed is shown in the finished game's record. Keying it means nobody can
    feed it to the (open source) engine offline and recover the deals and so the identity
    of face-down cards; the same server (same secret) still replays the same seed exactly.
    """
    key = settings.seed_secret.get_secret_value().encode()
    digest = hmac.new(key, str(seed).encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def new_session(config: GameConfig, settings: Settings) -> GameSession:
    """Deal a new race and seat its people and bots (not stored yet; no bot has played)."""
    seed_chosen = config.seed is not None
    seed = config.seed if config.seed is not None else secrets.randbelow(2**53)
    engine_seed = derive_engine_seed(seed, settings)
    game = new_game(players=config.players, seed=engine_seed, variants=config.variants)
    token = new_token()
    if config.watch:
        lobby = Lobby.bots_only(config.players, settings.watch_pace_seconds)
    else:
        lobby = Lobby.create(
            config.players, config.people, token_digest(token), turn_seconds=settings.turn_seconds
        )
    session = GameSession(
        id=new_game_id(),
        token=token,
        config=config,
        game=game,
        seed=seed,
        seed_chosen=seed_chosen,
        engine_seed=engine_seed,
        bot_budget_ms=settings.bot_time_budget_ms,
        lobby=lobby,
    )
    # new_game() reports nothing; the log opens with the first deal, like every later one.
    session.record_events([game.deal_event()])
    return session


def _store_new(store: SessionStore, session: GameSession) -> None:
    try:
        store.put(session)
    except StoreFull as exc:
        raise ServerFull() from exc


def start_game(store: SessionStore, config: GameConfig, settings: Settings) -> GameSession:
    """Deal and store a new race, then let the bots play inline until a person is to move.

    For the benchmarks and scripts; the server uses :func:`start_game_async`.
    Raises :class:`app.errors.ServerFull` when no slot can be freed.
    """
    session = new_session(config, settings)
    _store_new(store, session)
    run_bots_inline(session)
    session.lobby.arm_clock(session.game.current_seat, wall_clock())
    return session


async def start_game_async(
    store: SessionStore, config: GameConfig, settings: Settings
) -> GameSession:
    """Deal a new race, store it, and let the bots play until a person is to move.

    The store's capacity check comes first: a refused creation (:class:`ServerFull`) never
    made a bot think. Nobody knows the new id until this returns, and the lock is held
    while the bots play all the same. A race waiting for invited people plays nothing yet.
    """
    session = new_session(config, settings)
    _store_new(store, session)
    async with session.lock:
        await _begin(session)
    metrics.RACES_STARTED.inc()
    return session


@dataclass(frozen=True)
class Player:
    """A race seen from one seat: the session and the seat its token opens."""

    session: GameSession
    seat: int


def find_player(store: SessionStore, game_id: str, token: str | None) -> Player:
    """The game ``game_id`` and the seat whose token is ``token``.

    Raises :class:`GameNotFound` for an unknown id or a wrong/missing token alike, and
    :class:`GameExpired` only when the token matches a game that expired.
    """
    session = store.get(game_id)
    if session is not None:
        seat = session.lobby.seat_of(token)
        if seat is not None:
            return Player(session, seat)
        raise GameNotFound()
    digest = store.expired_token_digest(game_id)
    if (
        digest is not None
        and token is not None
        and hmac.compare_digest(digest, token_digest(token))
    ):
        raise GameExpired()
    raise GameNotFound()


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


def find_session(store: SessionStore, game_id: str, token: str | None) -> GameSession:
    """The game ``game_id`` if ``token`` is the token of one of its seats (see
    :func:`find_player`)."""
    return find_player(store, game_id, token).session


def find_public(store: SessionStore, game_id: str) -> GameSession:
    """The game ``game_id`` for its watch link (public view only); :class:`GameNotFound`."""
    session = store.get(game_id)
    if session is None:
        raise GameNotFound()
    return session


def session_state(
    session: GameSession, since: int | None = None, seat: int | None = HUMAN_SEAT
) -> SessionState:
    """What ``seat`` may see now: ``observation(seat)`` + ``events`` + ``turn`` + the table.

    ``seat`` None is a spectator: the engine's public view, with no hand. ``events`` are
    those since the seat's previous response (or since index ``since`` if given); either
    way that seat's delivery cursor moves to the end. Call with the session's lock held
    (or from the thread that holds it) so the game is not read while bots move.
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


async def read_state(
    session: GameSession, since: int | None = None, seat: int | None = HUMAN_SEAT
) -> SessionState:
    """:func:`session_state` taken under the game's lock (finishing any pending bot turns
    and any move the turn clock owes)."""
    async with session.lock:
        await _settle_locked(session, wall_clock())
        return session_state(session, since, seat)


async def play_turn(
    session: GameSession,
    turn: int,
    action: Action,
    seat: int = HUMAN_SEAT,
    since: int | None = None,
) -> SessionState:
    """Apply ``seat``'s ``action`` for ``turn`` and the bots' replies; return the new state
    (its events as :func:`session_state` picks them with ``since``).

    The game's lock is held across the move and every bot reply, so of several
    concurrent or repeated submissions for the same turn exactly one is applied.
    Raises :class:`StaleTurn` (carrying the current state) when ``turn`` is not current,
    :class:`RaceNotStarted` in the lobby, :class:`NotYourTurn` when another seat is to
    move, and :class:`IllegalMove` with the engine's sentence when the rules forbid it.
    """
    async with session.lock:
        if turn != session.turn:
            raise StaleTurn(session_state(session, seat=seat))
        if session.status == "waiting":
            raise RaceNotStarted()
        current = session.game.current_seat
        if current is not None and current != seat:
            raise NotYourTurn(session_state(session, seat=seat))
        await RUNNER.run_bots(session)  # a previous call may have been cut short
        _apply_human(session, action, seat)
        metrics.MOVES.inc()
        session.lobby.last_mover = seat
        await RUNNER.run_bots(session)
        session.lobby.arm_clock(session.game.current_seat, wall_clock())
        return session_state(session, since, seat)


async def join_race(session: GameSession, code: str, name: str | None) -> tuple[Player, str]:
    """Seat the person holding invite ``code``; return their seat and their new token.

    Raises :class:`LobbyRefused` (used/unknown code, race started, bad name). Once every
    invited seat is taken the race starts by itself.
    """
    token = new_token()
    async with session.lock:
        try:
            seat = session.lobby.join(code, token_digest(token), name)
        except LobbyError as exc:
            raise LobbyRefused(exc.code, exc.message) from exc
        if session.lobby.started:
            await _begin(session)
    return Player(session, seat), token


async def start_race(player: Player) -> SessionState:
    """The creator starts now: empty seats become bots; return the creator's state.

    Raises :class:`NotCreator` for any other seat; starting a running race changes nothing.
    """
    if player.seat != HUMAN_SEAT:
        raise NotCreator()
    session = player.session
    async with session.lock:
        if not session.lobby.started:
            session.lobby.start()
            await _begin(session)
        return session_state(session, seat=player.seat)


async def enforce_clock(session: GameSession, now: float | None = None) -> bool:
    """Make the moves the turn clock owes (autopilot or paced bot); True if any was made.

    Safe to call from every stream at once: the lock and the deadline re-read under it
    mean one caller applies the move and the others find nothing overdue.
    """
    now = wall_clock() if now is None else now
    if not session.lobby.overdue(now):
        return False
    async with session.lock:
        return await _settle_locked(session, now)


Suggester = Callable[[Observation, int], tuple[dict[str, Any], str]]
"""Computes a hint from the human's observation and a seed: (action JSON, reason)."""


async def suggest_move(
    session: GameSession, seat: int, suggester: Suggester
) -> dict[str, Any] | None:
    """Ask ``suggester`` for a move for ``seat``'s turn and remember it for counting.

    ``None`` when it is not that seat's turn (or the race is over). The suggester sees the
    seat's observation only; the hint's seed is the turn number, nothing secret.
    """
    async with session.lock:
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


def game_record(session: GameSession) -> dict[str, Any]:
    """The public record: settings, every public event; the seed only once the race is over.

    While the race runs the record is partial (``complete`` false, no seed) because a
    server-drawn seed would let a player replay the game on this server and look ahead.
    Call with the session's lock held.
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


async def read_record(session: GameSession) -> dict[str, Any]:
    """:func:`game_record` under the game's lock."""
    async with session.lock:
        return game_record(session)


def _apply_human(session: GameSession, action: Action, seat: int = HUMAN_SEAT) -> None:
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
    _apply_human(session, action)
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
    if _bots_pending(session):
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
