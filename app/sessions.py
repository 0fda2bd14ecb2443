"""Game sessions: one human at seat 0 against bots, with a lock, a turn counter and an event log.

This module is the only place that drives the engine for the web and API layers:

* :func:`start_game` deals a new game, plays the bots until the human is to move and stores it;
* :func:`play_turn` applies the human's action and the bots' replies under the game's lock;
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

import anyio.to_thread

from app.errors import GameExpired, GameNotFound, IllegalMove, ServerFull, StaleTurn
from app.settings import Settings
from app.store import GameStore, StoreFull
from app.vocabulary import BotLevel
from engine import (
    MAX_DECISIONS,
    Action,
    Event,
    Game,
    IllegalAction,
    Observation,
    Variants,
    new_game,
    observe,
)
from engine.bots import DEFAULT_BOT_BUDGET_MS, make_bot

log = logging.getLogger("zzv.sessions")

HUMAN_SEAT = 0
"""The human always sits at seat 0."""

# A bot that keeps the engine from reaching the human's turn is a bug; never spin forever.
# No race lasts more decisions than this, so a correct game always returns well before.
_MAX_BOT_DECISIONS_PER_CALL = MAX_DECISIONS


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
    bot_workers: int = 2
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


def bot_seed(engine_seed: int, seat: int, decision: int) -> int:
    """Per-decision bot seed from (game seed, seat, decision number): reproducible, stateless."""
    digest = hashlib.blake2b(f"{engine_seed}:{seat}:{decision}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def choose_bot_action(
    level: BotLevel,
    game: Game,
    seat: int,
    seed: int,
    budget_ms: int = DEFAULT_BOT_BUDGET_MS,
    workers: int = 2,
) -> Action:
    """The bot decision for ``seat``: the one place bots are called.

    A fresh bot per decision, seeded from (game, seat, decision number), sees only its
    seat's observation, so nothing needs to be stored between turns. The bots that do not
    search replay exactly from the seed; the hard bot thinks for ``budget_ms`` of wall
    time over ``workers`` processes, so how far it gets (and so its move) can vary.
    """
    options: dict[str, Any] = {}
    if level == "hard":
        # The search runs in the bots' shared worker processes: a CPU-bound search in this
        # process would hold the GIL and slow every other race's requests.
        options = {"time_budget_ms": budget_ms, "workers": workers}
    return make_bot(level, seed, **options).choose(game.observation(seat))


def start_game(store: SessionStore, config: GameConfig, settings: Settings) -> GameSession:
    """Deal a new race, let the bots play until the human is to move, and store it.

    Raises :class:`app.errors.ServerFull` when no slot can be freed. Runs the bots inline:
    call it from a worker thread (``anyio.to_thread.run_sync``) inside async code.
    """
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
        bot_workers=settings.hard_bot_workers,
    )
    # new_game() reports nothing; the log opens with the first deal, like every later one.
    session.record_events([game.deal_event()])
    _run_bots(session)
    try:
        store.put(session)
    except StoreFull as exc:
        raise ServerFull() from exc
    return session


async def start_game_async(
    store: SessionStore, config: GameConfig, settings: Settings
) -> GameSession:
    """:func:`start_game` with the bots' thinking off the event loop."""
    return await anyio.to_thread.run_sync(start_game, store, config, settings)


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
    }
    session.delivered = total
    return state


async def read_state(session: GameSession, since: int | None = None) -> SessionState:
    """:func:`session_state` taken under the game's lock (finishing any pending bot turns)."""
    async with session.lock:
        if _bots_pending(session):
            await anyio.to_thread.run_sync(_run_bots, session)
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
        await anyio.to_thread.run_sync(_apply_human, session, action)
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
    game = session.game
    _run_bots(session)  # a previous call may have been cut short; never lose a game
    if game.is_over:
        raise IllegalMove("The race is over; start a new one.")
    try:
        events = game.apply(action, seat=HUMAN_SEAT)
    except IllegalAction as exc:
        raise IllegalMove(str(exc)) from exc
    session.turn += 1
    session.record_events(events)
    _run_bots(session)


def _bots_pending(session: GameSession) -> bool:
    seat = session.game.current_seat
    return seat is not None and seat != HUMAN_SEAT


def _run_bots(session: GameSession) -> None:
    """Let the bots move until the human is to play or the race is over."""
    game = session.game
    for _ in range(_MAX_BOT_DECISIONS_PER_CALL):
        seat = game.current_seat
        if seat is None or seat == HUMAN_SEAT:
            return
        seed = bot_seed(session.engine_seed, seat, session.bot_decisions)
        session.bot_decisions += 1
        try:
            action = choose_bot_action(
                session.config.bots,
                game,
                seat,
                seed,
                budget_ms=session.bot_budget_ms,
                workers=session.bot_workers,
            )
            events = game.apply(action, seat=seat)
        except Exception as exc:
            # A faulty bot must not freeze the race: fall back to the first legal turn. Log
            # the error's type only: its message may name the bot's (hidden) cards.
            log.error(
                "bot failed; played a fallback turn",
                extra={"bots": session.config.bots, "seat": seat, "error": type(exc).__name__},
            )
            events = game.apply(game.legal_actions()[0], seat=seat)
        session.record_events(events)
    log.error("bots did not hand the turn back after %d decisions", _MAX_BOT_DECISIONS_PER_CALL)
