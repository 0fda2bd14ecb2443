"""Game sessions: one human at seat 0 against bots, with a lock, a turn counter and an event log.

This module is the only place that drives the engine for the web and API layers:

* :func:`start_game_async` deals a new game, stores it, then plays the bots until the human
  is to move (a refused creation never runs a bot);
* :func:`play_turn` applies the human's action and the bots' replies under the game's lock
  (the bots run through :mod:`app.bot_runner`);
* :func:`read_state` / :func:`session_state` build what a client may see: the engine's
  ``observation(0)`` plus the public events since the previous response plus ``turn``;
* :func:`game_record` is the public record (settings, seed once over, every public event).

Nothing here knows about HTTP beyond raising :mod:`app.errors` exceptions.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from app import metrics
from app.bot_runner import HUMAN_SEAT, RUNNER, run_bots_inline
from app.errors import GameExpired, GameNotFound, IllegalMove, ServerFull, StaleTurn
from app.settings import Settings
from app.store import GameStore, StoreFull
from app.vocabulary import BotLevel
from engine import (
    Action,
    Event,
    Game,
    IllegalAction,
    Observation,
    Variants,
    new_game,
    observe,
)
from engine.bots import DEFAULT_BOT_BUDGET_MS

log = logging.getLogger("zzv.sessions")


@dataclass(frozen=True)
class GameConfig:
    """What a player chose when starting a race."""

    players: int = 4
    bots: BotLevel = "normal"
    variants: Variants = field(default_factory=Variants)
    seed: int | None = None
    """The public seed; None asks the server to draw one."""


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
    public event log as compact JSON strings (memory: a game keeps hundreds of them).
    ``delivered`` is how many events the client has already been sent.
    """

    id: str
    token: str
    config: GameConfig
    game: Game
    seed: int
    seed_chosen: bool
    engine_seed: int
    turn: int = 0
    events: list[str] = field(default_factory=list)
    delivered: int = 0
    bot_decisions: int = 0
    last_seen: float = 0.0
    bot_budget_ms: int = DEFAULT_BOT_BUDGET_MS
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def token_digest(self) -> str:
        """SHA-256 of the token (kept after expiry to tell 410 from 404)."""
        return token_digest(self.token)

    def check_token(self, token: str | None) -> bool:
        """Constant-time check of a presented token."""
        return token is not None and hmac.compare_digest(token.encode(), self.token.encode())

    def record_events(self, events: list[Event]) -> None:
        """Append engine events to the public log."""
        self.events.extend(json.dumps(event.to_dict(), separators=(",", ":")) for event in events)


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
    """Deal a new race (not stored yet; the bots have not played)."""
    seed_chosen = config.seed is not None
    seed = config.seed if config.seed is not None else secrets.randbelow(2**53)
    engine_seed = derive_engine_seed(seed, settings)
    game = new_game(players=config.players, seed=engine_seed, variants=config.variants)
    session = GameSession(
        id=new_game_id(),
        token=new_token(),
        config=config,
        game=game,
        seed=seed,
        seed_chosen=seed_chosen,
        engine_seed=engine_seed,
        bot_budget_ms=settings.bot_time_budget_ms,
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
    """Deal and store a new race, then let the bots play inline until the human is to move.

    For the benchmarks and scripts; the server uses :func:`start_game_async`.
    Raises :class:`app.errors.ServerFull` when no slot can be freed.
    """
    session = new_session(config, settings)
    _store_new(store, session)
    run_bots_inline(session)
    return session


async def start_game_async(
    store: SessionStore, config: GameConfig, settings: Settings
) -> GameSession:
    """Deal a new race, store it, and let the bots play until the human is to move.

    The store's capacity check comes first: a refused creation (:class:`ServerFull`) never
    made a bot think. Nobody knows the new id until this returns, and the lock is held
    while the bots play all the same.
    """
    session = new_session(config, settings)
    _store_new(store, session)
    async with session.lock:
        await RUNNER.run_bots(session)
    metrics.RACES_STARTED.inc()
    return session


def find_session(store: SessionStore, game_id: str, token: str | None) -> GameSession:
    """The game ``game_id`` if ``token`` is its token.

    Raises :class:`GameNotFound` for an unknown id or a wrong/missing token alike, and
    :class:`GameExpired` only when the token matches a game that expired.
    """
    session = store.get(game_id)
    if session is not None:
        if session.check_token(token):
            return session
        raise GameNotFound()
    digest = store.expired_token_digest(game_id)
    if (
        digest is not None
        and token is not None
        and hmac.compare_digest(digest, token_digest(token))
    ):
        raise GameExpired()
    raise GameNotFound()


class SessionState(Observation):
    """What a client is sent: the human's observation plus the session's fields."""

    game_id: str
    turn: int
    events: list[dict[str, Any]]
    event_count: int
    notice: str | None


def session_state(session: GameSession, since: int | None = None) -> SessionState:
    """What the human may see now: ``observation(0)`` + ``events`` + ``turn`` (+ ids).

    ``events`` are those since the previous response (or since index ``since`` if given);
    either way the delivery cursor moves to the end. Call with the session's lock held
    (or from the thread that holds it) so the game is not read while bots move.
    """
    total = len(session.events)
    start = session.delivered if since is None else max(0, min(since, total))
    state: SessionState = {
        **observe(session.game, HUMAN_SEAT),
        "game_id": session.id,
        "turn": session.turn,
        "events": [json.loads(text) for text in session.events[start:]],
        "event_count": total,
        "notice": RUNNER.notice(session.config.bots),
    }
    session.delivered = total
    return state


async def read_state(session: GameSession, since: int | None = None) -> SessionState:
    """:func:`session_state` taken under the game's lock (finishing any pending bot turns)."""
    async with session.lock:
        if _bots_pending(session):
            await RUNNER.run_bots(session)
        return session_state(session, since)


async def play_turn(
    session: GameSession, turn: int, action: Action, since: int | None = None
) -> SessionState:
    """Apply the human's ``action`` for ``turn`` and the bots' replies; return the new state
    (its events as :func:`session_state` picks them with ``since``).

    The game's lock is held across the human move and every bot reply, so of several
    concurrent or repeated submissions for the same turn exactly one is applied.
    Raises :class:`StaleTurn` (carrying the current state) when ``turn`` is not current,
    and :class:`IllegalMove` with the engine's sentence when the rules forbid the action.
    """
    async with session.lock:
        if turn != session.turn:
            raise StaleTurn(session_state(session))
        await RUNNER.run_bots(session)  # a previous call may have been cut short
        _apply_human(session, action)
        metrics.MOVES.inc()
        await RUNNER.run_bots(session)
        return session_state(session, since)


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
        "events": [json.loads(text) for text in session.events],
    }


async def read_record(session: GameSession) -> dict[str, Any]:
    """:func:`game_record` under the game's lock."""
    async with session.lock:
        return game_record(session)


def _apply_human(session: GameSession, action: Action) -> None:
    """Apply the human's action (no bot moves); raises :class:`IllegalMove`."""
    game = session.game
    if game.is_over:
        raise IllegalMove("The race is over; start a new one.")
    try:
        events = game.apply(action, seat=HUMAN_SEAT)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from exc
    session.turn += 1
    session.record_events(events)


def play_inline(session: GameSession, action: Action) -> None:
    """The human's action and the bots' replies, in this thread (benchmarks and scripts)."""
    run_bots_inline(session)
    _apply_human(session, action)
    run_bots_inline(session)


def _bots_pending(session: GameSession) -> bool:
    seat = session.game.current_seat
    return seat is not None and seat != HUMAN_SEAT
