"""Where live games are kept: the async :class:`GameStore` interface and the in-memory default.

Routes never touch a store directly; :mod:`app.sessions` does, through this interface, so the
in-memory store (one process, optionally saved to a data directory on a graceful stop) and the
Redis store (:mod:`app.stores.redis_store`, shared by every worker) are interchangeable.

A store keeps *records*: any object with an ``id``, a small :class:`RecordHead` and a
``to_dict()`` (the races of :mod:`app.race`). It does not import sessions: a store that needs
to rebuild records from their dicts is handed a loader. Every store bounds what it holds
three ways: a hard cap on the number of games (with eviction of the least recently used idle
game when full), idle expiry, and a per-client cap on live games. A game whose lock is held
(a move in progress) is never evicted or expired.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from cachetools import LRUCache

Clock = Callable[[], float]

GoneReason = Literal["expired", "restarted"]
"""Why a game that existed is gone: idle expiry / eviction, or a server that was killed."""


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
    """Raised by :meth:`GameStore.add` when no game is idle enough to make room."""


class ClientFull(Exception):
    """Raised by :meth:`GameStore.add` when the client already has its cap of live games."""


class StoreUnavailable(Exception):
    """The store cannot be reached (Redis down): callers answer 503, never 500."""


@dataclass(frozen=True, slots=True)
class RecordHead:
    """The few facts about a game that requests need before (or instead of) loading it.

    ``digests`` holds each seat's token digest in seat order ("" where nobody sits): a
    request is authenticated from it, and it outlives the game to answer 410, not 404.
    ``deadline`` is when the turn clock next owes a move (wall-clock seconds), if ever.
    """

    digests: tuple[str, ...]
    deadline: float | None = None

    def to_json(self) -> str:
        """Compact JSON form (what a shared store keeps beside the game)."""
        return json.dumps([list(self.digests), self.deadline], separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> RecordHead:
        """Inverse of :meth:`to_json`.

        >>> head = RecordHead(("ab", ""), 12.5)
        >>> RecordHead.from_json(head.to_json()) == head
        True
        """
        digests, deadline = json.loads(text)
        return cls(tuple(str(d) for d in digests), None if deadline is None else float(deadline))

    def seat_of(self, digest: str) -> int | None:
        """The seat whose token digest is ``digest`` (constant time per seat), or None."""
        found = None
        for seat, known in enumerate(self.digests):
            if known and hmac.compare_digest(known, digest):
                found = seat
        return found


class Record(Protocol):
    """What a store keeps: a race seen from the outside."""

    @property
    def id(self) -> str:
        """The game id (the store's key)."""

    def head(self) -> RecordHead:
        """The game's seats' digests and clock (see :class:`RecordHead`)."""

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (what a shared or saved store writes)."""


R = TypeVar("R", bound=Record)


@dataclass(frozen=True)
class Tombstone:
    """What remains of a game that is gone: its seats' token digests and why it went."""

    digests: tuple[str, ...]
    reason: GoneReason = "expired"

    def seat_of(self, digest: str) -> int | None:
        """The seat that ``digest`` opened, or None."""
        return RecordHead(self.digests).seat_of(digest)


class GameStore(Protocol[R]):
    """The storage interface :mod:`app.sessions` goes through; every method may raise
    :class:`StoreUnavailable`."""

    snapshots: bool
    """True when :meth:`load` returns an independent copy (a read then needs no lock);
    False when it returns the live object, which only the lock holder may read."""

    async def open(self) -> None:
        """Prepare the store at server start (load saved games, check the connection)."""

    async def close(self) -> None:
        """Release the store at a graceful stop (save games, close connections)."""

    async def add(self, record: R, owner: str) -> None:
        """Store a new game for client ``owner``; may evict an idle one.

        Raises :class:`StoreFull` or :class:`ClientFull` and then stores nothing.
        """

    async def head(self, game_id: str) -> RecordHead | None:
        """The live game's :class:`RecordHead` (cheap; does not move its idle clock)."""

    async def load(self, game_id: str) -> R | None:
        """The live game ``game_id`` or None; does not move its idle clock."""

    async def touch(self, game_id: str) -> None:
        """Move the game's idle clock to now (only for requests holding its token)."""

    async def save(self, record: R) -> None:
        """Write a changed game back (call with its lock held); also moves its idle clock."""

    def lock(self, game_id: str) -> contextlib.AbstractAsyncContextManager[None]:
        """Exclusive access to one game, across every worker sharing the store.

        While held, the game is neither evicted nor expired.
        """

    async def delete(self, game_id: str) -> None:
        """Forget a game entirely, tombstone included (no error if it is unknown)."""

    async def sweep(self) -> int:
        """Drop every expired game now; return how many were dropped."""

    async def tombstone(self, game_id: str) -> Tombstone | None:
        """What remains of a game that expired, was evicted or was lost to a restart."""

    async def count(self) -> int:
        """Number of live games held."""

    def cached_count(self) -> int:
        """Live games as known without any I/O (for a metrics gauge read synchronously):
        exact for the memory store, the last :meth:`count` for a shared one."""

    async def ping(self) -> None:
        """Return if the store is reachable, else raise :class:`StoreUnavailable`."""


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
        """Nothing to prepare (see :class:`app.stores.saved.SavedMemoryStore`)."""

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
