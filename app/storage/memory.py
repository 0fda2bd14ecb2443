"""The process-local store: live races in this process's memory, with idle expiry and caps."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Generic

from cachetools import LRUCache

from app.storage.interface import (
    ClientFull,
    Clock,
    R,
    RecordHead,
    StoreFull,
    Tombstone,
)


class ManualClock:
    """A clock that only moves when told to: for tests and simulations of expiry.

    >>> clock = ManualClock(10.0); clock.now += 5; clock()
    15.0
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@dataclass(eq=False)
class _Entry(Generic[R]):
    record: R
    owner: str
    last_seen: float
    busy: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class MemoryStore(Generic[R]):
    """Process-local :class:`GameStore`: an access-ordered dict with idle expiry and caps.

    The dict is kept in last-use order, so expiry and LRU eviction only ever look at its
    front. A small bounded memory of gone ids lets the routes answer 410 instead of 404. The
    clock is injectable so tests can move time. Records are kept as live objects: ``load``
    returns the stored object itself and ``save`` only moves its idle clock.
    """

    snapshots = False

    def __init__(
        self,
        max_games: int,
        idle_expiry_seconds: float,
        evict_min_idle_seconds: float = 0.0,
        expired_memory: int = 10_000,
        clock: Clock = time.monotonic,
        max_games_per_client: int | None = None,
    ) -> None:
        """Create an empty store with the given bounds."""
        self.max_games = max_games
        self.idle_expiry_seconds = idle_expiry_seconds
        self.evict_min_idle_seconds = evict_min_idle_seconds
        self.max_games_per_client = max_games_per_client
        self.clock = clock
        self._games: OrderedDict[str, _Entry[R]] = OrderedDict()
        self._owned: dict[str, set[str]] = {}
        self._gone: LRUCache[str, Tombstone] | None = (
            LRUCache(maxsize=expired_memory) if expired_memory > 0 else None
        )
        # Tests and benchmarks may call in from another thread than the app's event loop.
        self._mutex = threading.Lock()

    def __len__(self) -> int:
        """Number of live games held (expired ones not yet swept included)."""
        return len(self._games)

    async def open(self) -> None:
        """Nothing to prepare (see :class:`app.storage.saved.SavedMemoryStore`)."""

    async def close(self) -> None:
        """Nothing to release."""

    async def ping(self) -> None:
        """Always reachable."""

    async def count(self) -> int:
        """Number of live games held."""
        return len(self._games)

    def cached_count(self) -> int:
        """Number of live games held (exact: nothing to wait for)."""
        return len(self._games)

    def entries(self) -> list[tuple[R, str]]:
        """Every live record with its owner, least recently used first (for saving)."""
        with self._mutex:
            return [(entry.record, entry.owner) for entry in self._games.values()]

    async def add(self, record: R, owner: str) -> None:
        """Store ``record`` for ``owner``, making room by expiry or LRU eviction if full."""
        now = self.clock()
        with self._mutex:
            self._sweep_locked(now)
            owned = self._owned.get(owner, set())
            if self.max_games_per_client is not None and len(owned) >= self.max_games_per_client:
                raise ClientFull()
            if len(self._games) >= self.max_games:
                self._evict_one_locked(now)
            self._games[record.id] = _Entry(record, owner, now)
            self._owned.setdefault(owner, set()).add(record.id)

    async def head(self, game_id: str) -> RecordHead | None:
        """The live game's head, None if unknown or expired."""
        entry = self._live(game_id)
        return None if entry is None else entry.record.head()

    async def load(self, game_id: str) -> R | None:
        """The live record itself (not a copy)."""
        entry = self._live(game_id)
        return None if entry is None else entry.record

    async def touch(self, game_id: str) -> None:
        """Mark the game used now (it moves to the back of the LRU order)."""
        now = self.clock()
        with self._mutex:
            entry = self._games.get(game_id)
            if entry is not None:
                entry.last_seen = now
                self._games.move_to_end(game_id)

    async def save(self, record: R) -> None:
        """The stored object is the live one: only its idle clock moves."""
        await self.touch(record.id)

    @contextlib.asynccontextmanager
    async def lock(self, game_id: str) -> AsyncIterator[None]:
        """Hold the game's lock; while held the game is marked busy (never evicted/expired)."""
        with self._mutex:
            entry = self._games.get(game_id)
        if entry is None:  # unknown game: nothing to protect, callers then find nothing
            yield
            return
        async with entry.lock:
            entry.busy += 1
            try:
                yield
            finally:
                entry.busy -= 1

    async def delete(self, game_id: str) -> None:
        """Forget ``game_id`` entirely (it will answer 404, not 410)."""
        with self._mutex:
            entry = self._games.pop(game_id, None)
            if entry is not None:
                self._disown(entry)
            if self._gone is not None:
                self._gone.pop(game_id, None)

    async def sweep(self) -> int:
        """Drop every game idle for longer than the expiry; return how many went."""
        now = self.clock()
        with self._mutex:
            return self._sweep_locked(now)

    async def tombstone(self, game_id: str) -> Tombstone | None:
        """What is remembered of a game that is gone, else None."""
        if self._gone is None:
            return None
        with self._mutex:
            return self._gone.get(game_id)

    def restore(self, record: R, owner: str) -> None:
        """Put back a saved game as if just used (loading after a restart; no caps)."""
        with self._mutex:
            self._games[record.id] = _Entry(record, owner, self.clock())
            self._owned.setdefault(owner, set()).add(record.id)

    def bury(self, game_id: str, tombstone: Tombstone) -> None:
        """Remember a gone game (used when loading saved games after a restart)."""
        if self._gone is not None:
            with self._mutex:
                self._gone[game_id] = tombstone

    def _live(self, game_id: str) -> _Entry[R] | None:
        now = self.clock()
        with self._mutex:
            entry = self._games.get(game_id)
            if entry is not None and self._expired(entry, now):
                self._retire(game_id)
                return None
            return entry

    def _expired(self, entry: _Entry[R], now: float) -> bool:
        return entry.busy == 0 and now - entry.last_seen >= self.idle_expiry_seconds

    def _evict_one_locked(self, now: float) -> None:
        # Front of the dict = least recently used; a busy game (move in progress) is skipped.
        for game_id, entry in self._games.items():
            if entry.busy:
                continue
            if now - entry.last_seen < self.evict_min_idle_seconds:
                break
            self._retire(game_id)
            return
        raise StoreFull("every stored game is in active use")

    def _sweep_locked(self, now: float) -> int:
        expired = []
        # Front of the dict = least recently used, so stop at the first fresh game.
        for game_id, entry in self._games.items():
            if now - entry.last_seen < self.idle_expiry_seconds:
                break
            if not entry.busy:
                expired.append(game_id)
        for game_id in expired:
            self._retire(game_id)
        return len(expired)

    def _retire(self, game_id: str) -> None:
        entry = self._games.pop(game_id)
        self._disown(entry)
        if self._gone is not None:
            self._gone[game_id] = Tombstone(entry.record.head().digests)

    def _disown(self, entry: _Entry[R]) -> None:
        owned = self._owned.get(entry.owner)
        if owned is not None:
            owned.discard(entry.record.id)
            if not owned:
                del self._owned[entry.owner]
