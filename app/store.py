"""Where live games are kept: the :class:`GameStore` interface and the in-memory default.

Routes only ever talk to :class:`GameStore`, so a shared store for several workers (keeping
``Game.to_dict()`` plus the session's small bookkeeping) can replace :class:`MemoryStore`
without touching them. The in-memory store bounds memory three ways: a hard cap on the
number of games, idle expiry, and eviction of the least recently used idle game when full.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from cachetools import LRUCache

Clock = Callable[[], float]


class StoredGame(Protocol):
    """What the store needs of a game it keeps (:class:`app.sessions.GameSession` has it):
    an id, when it was last used (the store sets it), and the digest of its token, kept
    after expiry so an expired game's owner gets 410 rather than 404."""

    @property
    def id(self) -> str:
        """The game's id."""

    last_seen: float

    @property
    def token_digest(self) -> str:
        """SHA-256 of the game's token."""


G = TypeVar("G", bound=StoredGame)


class ManualClock:
    """A clock that only moves when told to: for tests and simulations of expiry.

    >>> clock = ManualClock(10.0); clock.now += 5; clock()
    15.0
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


class StoreFull(Exception):
    """Raised by :meth:`GameStore.put` when no game is idle enough to make room."""


class GameStore(Protocol[G]):
    """The storage interface every route goes through, for games of type ``G``."""

    def get(self, game_id: str) -> G | None:
        """Return the live game ``game_id`` (marking it used now), or None if unknown/expired."""

    def put(self, session: G) -> None:
        """Store a new or changed game; may evict an idle one, raises :class:`StoreFull`."""

    def delete(self, game_id: str) -> None:
        """Forget a game (no error if it is unknown)."""

    def sweep(self) -> int:
        """Drop every expired game now; return how many were dropped."""

    def expired_token_digest(self, game_id: str) -> str | None:
        """Token digest of a game that expired or was evicted, so it can be answered with 410."""

    def __len__(self) -> int:
        """Number of live games held."""


class MemoryStore(Generic[G]):
    """Process-local :class:`GameStore`: an access-ordered dict with idle expiry and a cap.

    The dict is kept in last-use order, so both expiry and LRU eviction only ever look at
    its front. A small bounded memory of expired ids lets the routes answer 410 instead of
    404 for a race that timed out. The clock is injectable so tests can move time.
    """

    def __init__(
        self,
        max_games: int,
        idle_expiry_seconds: float,
        evict_min_idle_seconds: float = 0.0,
        expired_memory: int = 10_000,
        clock: Clock = time.monotonic,
    ) -> None:
        """Create an empty store with the given bounds."""
        self.max_games = max_games
        self.idle_expiry_seconds = idle_expiry_seconds
        self.evict_min_idle_seconds = evict_min_idle_seconds
        self.clock = clock
        self._games: OrderedDict[str, G] = OrderedDict()
        self._expired: LRUCache[str, str] | None = (
            LRUCache(maxsize=expired_memory) if expired_memory > 0 else None
        )
        # Sync routes run in a thread pool, async ones on the loop: guard the dict for both.
        self._mutex = threading.Lock()

    def __len__(self) -> int:
        """Number of live games held (expired ones not yet swept included)."""
        return len(self._games)

    def get(self, game_id: str) -> G | None:
        """Return the live game and mark it as used now; expired games are dropped here."""
        now = self.clock()
        with self._mutex:
            session = self._games.get(game_id)
            if session is None:
                return None
            if now - session.last_seen >= self.idle_expiry_seconds:
                self._retire(game_id)
                return None
            session.last_seen = now
            self._games.move_to_end(game_id)
            return session

    def put(self, session: G) -> None:
        """Store ``session``, making room by expiry or LRU eviction of an idle game if full."""
        now = self.clock()
        with self._mutex:
            session.last_seen = now
            if session.id in self._games:
                self._games.move_to_end(session.id)
                return
            self._sweep_locked(now)
            if len(self._games) >= self.max_games:
                oldest_id, oldest = next(iter(self._games.items()))
                if now - oldest.last_seen < self.evict_min_idle_seconds:
                    raise StoreFull("every stored game is in active use")
                self._retire(oldest_id)
            self._games[session.id] = session

    def delete(self, game_id: str) -> None:
        """Forget ``game_id`` entirely (it will answer 404, not 410)."""
        with self._mutex:
            self._games.pop(game_id, None)
            if self._expired is not None:
                self._expired.pop(game_id, None)

    def sweep(self) -> int:
        """Drop every game idle for longer than the expiry; return how many went."""
        now = self.clock()
        with self._mutex:
            return self._sweep_locked(now)

    def expired_token_digest(self, game_id: str) -> str | None:
        """Token digest of a recently expired or evicted game, else None."""
        if self._expired is None:
            return None
        with self._mutex:
            return self._expired.get(game_id)

    def _sweep_locked(self, now: float) -> int:
        dropped = 0
        # Front of the dict = least recently used, so stop at the first fresh game.
        while self._games:
            game_id, session = next(iter(self._games.items()))
            if now - session.last_seen < self.idle_expiry_seconds:
                break
            self._retire(game_id)
            dropped += 1
        return dropped

    def _retire(self, game_id: str) -> None:
        session = self._games.pop(game_id)
        if self._expired is not None:
            self._expired[game_id] = session.token_digest
