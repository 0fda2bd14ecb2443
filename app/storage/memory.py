"""The process-local store: live races in this process's memory, with idle expiry and caps."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from cachetools import LRUCache

from app.storage.interface import (
    ClientFull,
    Clock,
    Fetched,
    Lease,
    LeaseLost,
    R,
    RecordHead,
    StoreFull,
    Tombstone,
    decode,
    encode,
)

K = TypeVar("K")


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
class _Entry:
    data: bytes
    """The race as JSON: every read decodes a fresh copy, as from a shared store."""
    head: RecordHead
    owner: str
    last_seen: float
    player: int | None = None
    """The player it counts against (its head's when it was stored)."""
    busy: int = 0
    lease: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class MemoryStore(Generic[R]):
    """Process-local :class:`GameStore`: an access-ordered dict with idle expiry and caps.

    The dict is kept in last-use order, so expiry and LRU eviction only ever look at its
    front. A small bounded memory of gone ids lets the routes answer 410 instead of 404. The
    clock is injectable so tests can move time. Each race is kept encoded and every read
    decodes a copy with ``loader``, so a request changes nothing stored until it saves: the
    same contract as the Redis store's.
    """

    def __init__(
        self,
        loader: Callable[[dict[str, Any]], R],
        max_games: int,
        idle_expiry_seconds: float,
        evict_min_idle_seconds: float = 0.0,
        expired_memory: int = 10_000,
        clock: Clock = time.monotonic,
        max_games_per_client: int | None = None,
        max_games_per_address: int | None = None,
    ) -> None:
        """Create an empty store with the given bounds; ``loader`` rebuilds a record from
        its dict. ``max_games_per_client`` caps the live races of one player,
        ``max_games_per_address`` those created from one client address (None: no cap)."""
        self.loader = loader
        self.max_games = max_games
        self.idle_expiry_seconds = idle_expiry_seconds
        self.evict_min_idle_seconds = evict_min_idle_seconds
        self.max_games_per_client = max_games_per_client
        self.max_games_per_address = max_games_per_address
        self.clock = clock
        self._games: OrderedDict[str, _Entry] = OrderedDict()
        # The ids each address and each player created, oldest first (dicts keep order);
        # an id whose race is gone or over is dropped when next counted.
        self._owned: dict[str, dict[str, None]] = {}
        self._played: dict[int, dict[str, None]] = {}
        self._gone: LRUCache[str, Tombstone] | None = (
            LRUCache(maxsize=expired_memory) if expired_memory > 0 else None
        )
        self._slots: dict[str, tuple[str, float]] = {}
        self._outbox: dict[str, bytes] = {}
        # Tests and benchmarks may call in from another thread than the app's event loop.
        self._mutex = threading.Lock()

    def __len__(self) -> int:
        """Number of live races held (expired ones not yet swept included)."""
        return len(self._games)

    async def open(self) -> None:
        """Nothing to prepare (see :class:`app.storage.saved.SavedMemoryStore`)."""

    async def close(self) -> None:
        """Nothing to release."""

    async def ping(self) -> None:
        """Always reachable."""

    async def count(self) -> int:
        """Number of live races held."""
        return len(self._games)

    async def slot(self, name: str) -> str | None:
        """The value slot ``name`` holds until its time runs out (this process only: a
        memory store serves one worker)."""
        with self._mutex:
            return self._slot_locked(name)

    async def hold_slot(self, name: str, value: str, ttl_seconds: float) -> str:
        """Set ``name`` to ``value`` unless it holds one; the value it holds."""
        with self._mutex:
            held = self._slot_locked(name)
            if held is None:
                self._slots[name] = (value, self.clock() + ttl_seconds)
                held = value
            return held

    async def free_slot(self, name: str, value: str) -> None:
        """Empty ``name`` if it still holds ``value``."""
        with self._mutex:
            if self._slot_locked(name) == value:
                del self._slots[name]

    def _slot_locked(self, name: str) -> str | None:
        found = self._slots.get(name)
        if found is None:
            return None
        if found[1] <= self.clock():
            del self._slots[name]
            return None
        return found[0]

    def entries(self) -> list[tuple[str, bytes, str]]:
        """Every live race as ``(id, its JSON, owner)``, least recently used first."""
        with self._mutex:
            return [(game_id, e.data, e.owner) for game_id, e in self._games.items()]

    def heads(self) -> dict[str, RecordHead]:
        """Every live race's head by id."""
        with self._mutex:
            return {game_id: entry.head for game_id, entry in self._games.items()}

    async def create(self, record: R, owner: str) -> None:
        """Store ``record`` for ``owner``, making room by expiry or LRU eviction if full."""
        now = self.clock()
        data = encode(record)
        head = record.head()
        with self._mutex:
            self._sweep_locked(now)
            self._check_caps_locked(owner, head.player)
            if len(self._games) >= self.max_games:
                self._evict_one_locked(now)
            self._games[record.id] = _Entry(data, head, owner, now, player=head.player)
            self._own(record.id, owner, head.player)

    def _check_caps_locked(self, owner: str, player: int | None) -> None:
        """Raise :class:`ClientFull` if ``player``, then ``owner``, holds its cap."""
        mine = () if player is None else self._live_locked(self._played, player)
        cap = self.max_games_per_client
        if cap is not None and len(mine) >= cap:
            raise ClientFull("player", cap, mine)
        cap = self.max_games_per_address
        if cap is not None and len(self._live_locked(self._owned, owner)) >= cap:
            raise ClientFull("address", cap, mine)

    def _live_locked(self, index: dict[K, dict[str, None]], key: K) -> tuple[str, ...]:
        """The live races ``index`` holds under ``key``, oldest first; the ids of races
        gone or over are dropped (a race that is over never plays again)."""
        ids = index.get(key)
        if ids is None:
            return ()
        for game_id in list(ids):
            entry = self._games.get(game_id)
            if entry is None or not entry.head.live:
                del ids[game_id]
        if not ids:
            del index[key]
        return tuple(ids)

    def _own(self, game_id: str, owner: str, player: int | None) -> None:
        self._owned.setdefault(owner, {})[game_id] = None
        if player is not None:
            self._played.setdefault(player, {})[game_id] = None

    async def fetch(self, game_id: str, digest: str | None = None) -> Fetched[R]:
        """A copy of the live race (none when ``digest`` opens no seat), or what remains."""
        entry = self._live(game_id)
        if entry is None:
            return Fetched(gone=self._tombstone(game_id))
        seat = None if digest is None else entry.head.seat_of(digest)
        if digest is not None and seat is None:
            return Fetched(head=entry.head)
        if seat is not None:
            self._touch(game_id)
        return Fetched(self._decode(entry.data), entry.head, seat)

    @contextlib.asynccontextmanager
    async def lock(self, game_id: str, digest: str | None = None) -> AsyncIterator[Fetched[R]]:
        """Hold the race's lock and read it; while held the race is marked busy (never
        evicted or expired)."""
        entry = self._live(game_id)
        if entry is None:
            yield Fetched(gone=self._tombstone(game_id))
            return
        seat = None if digest is None else entry.head.seat_of(digest)
        if digest is not None and seat is None:
            yield Fetched(head=entry.head)
            return
        async with entry.lock:
            if self._games.get(game_id) is not entry:  # wiped or evicted while we waited
                yield Fetched(gone=self._tombstone(game_id))
                return
            entry.busy += 1
            token = secrets.token_hex(8)
            entry.lease = token
            try:
                record = self._decode(entry.data)
                yield Fetched(record, entry.head, seat, lease=Lease(game_id, token))
            finally:
                if entry.lease == token:
                    entry.lease = None
                entry.busy -= 1

    async def save(self, record: R, lease: Lease, outbox: bytes | None = None) -> None:
        """Write the race back, and ``outbox`` beside it (only with its current lease), and
        move its idle clock."""
        data = encode(record)
        with self._mutex:
            entry = self._games.get(record.id)
            if entry is None or lease.game_id != record.id or entry.lease != lease.token:
                raise LeaseLost()
            entry.data, entry.head, entry.lease = data, record.head(), None
            if outbox is not None:
                self._outbox[record.id] = outbox
        self._touch(record.id)

    async def outbox(self) -> dict[str, bytes]:
        """Every message left in the outbox, by race id (in this process's memory)."""
        with self._mutex:
            return dict(self._outbox)

    async def clear_outbox(self, game_id: str) -> None:
        """Drop ``game_id``'s message from the outbox."""
        with self._mutex:
            self._outbox.pop(game_id, None)

    async def wipe(self, game_id: str) -> None:
        """Forget ``game_id`` entirely (it will answer 404, not 410)."""
        with self._mutex:
            entry = self._games.pop(game_id, None)
            if entry is not None:
                self._disown(game_id, entry)
            if self._gone is not None:
                self._gone.pop(game_id, None)

    async def sweep(self) -> int:
        """Drop every race idle for longer than the expiry; return how many went."""
        now = self.clock()
        with self._mutex:
            return self._sweep_locked(now)

    async def idle_ids(self, seconds: float, limit: int = 1000) -> list[str]:
        """The ids of up to ``limit`` races untouched for ``seconds``, least recently used
        first."""
        now = self.clock()
        found: list[str] = []
        with self._mutex:
            # Front of the dict = least recently used, so stop at the first fresh game.
            for game_id, entry in self._games.items():
                if now - entry.last_seen < seconds or len(found) >= limit:
                    break
                found.append(game_id)
        return found

    def restore(self, game_id: str, data: bytes, owner: str) -> None:
        """Put back a saved race as if just used (loading after a restart; no caps).
        ``ValueError`` if ``data`` is not a race this store's loader reads."""
        head = self._decode(data).head()
        with self._mutex:
            self._games[game_id] = _Entry(data, head, owner, self.clock(), player=head.player)
            self._own(game_id, owner, head.player)

    def bury(self, game_id: str, tombstone: Tombstone) -> None:
        """Remember a gone race (used when loading saved races after a restart)."""
        if self._gone is not None:
            with self._mutex:
                self._gone[game_id] = tombstone

    def _decode(self, data: bytes) -> R:
        return self.loader(decode(data))

    def _tombstone(self, game_id: str) -> Tombstone | None:
        if self._gone is None:
            return None
        with self._mutex:
            return self._gone.get(game_id)

    def _touch(self, game_id: str) -> None:
        now = self.clock()
        with self._mutex:
            entry = self._games.get(game_id)
            if entry is not None:
                entry.last_seen = now
                self._games.move_to_end(game_id)

    def _live(self, game_id: str) -> _Entry | None:
        now = self.clock()
        with self._mutex:
            entry = self._games.get(game_id)
            if entry is not None and self._expired(entry, now):
                self._retire(game_id)
                return None
            return entry

    def _expired(self, entry: _Entry, now: float) -> bool:
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
        self._disown(game_id, entry)
        if self._gone is not None:
            self._gone[game_id] = Tombstone(entry.head.digests)

    def _disown(self, game_id: str, entry: _Entry) -> None:
        _forget(self._owned, entry.owner, game_id)
        if entry.player is not None:
            _forget(self._played, entry.player, game_id)


def _forget(index: dict[K, dict[str, None]], key: K, game_id: str) -> None:
    """Drop ``game_id`` from ``index[key]``, and the key once it holds none."""
    ids = index.get(key)
    if ids is not None:
        ids.pop(game_id, None)
        if not ids:
            del index[key]
