"""The store :mod:`app.races` uses (:class:`PolicyStore`): the rules every store keeps,
written once above the verbs of a :class:`Backend`, which each store (SQLite or Redis)
implements knowing rows, leases and tombstones but no rule (the bounds are the policy's
attributes). The rules: a game cap (evicting the least recently used idle one), idle expiry
(tombstones: 410, not 404), caps per player and per address; a locked race is never evicted
or expired. Locks are renewed leases that fence saves; named slots point at a race; the
outbox keeps a save's message until cleared. Reads hand out copies; every method may raise
``StoreUnavailable``. Each verb is atomic on its own, so concurrent creations never pass a
cap together. A race's *last use* is its creation, its last save or a read whose digest
opens a seat; "last used before ``t``" includes ``t``.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol

from app.storage.interface import (
    ANY_CHANGE,
    ClientFull,
    Clock,
    Fetched,
    Lease,
    LeaseLost,
    R,
    RecordHead,
    StoreFull,
    StoreUnavailable,
    Tombstone,
    decode,
    encode,
)

Take = tuple[str, float] | None
"""A lock a read takes: its token and its lease's seconds (None: a plain read)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A read's find: ``head`` None when the race is gone (``gone``: its tombstone, if
    kept); ``data`` unless the digest opens no seat (with a lock to take: the lock is
    taken); ``busy``: another holds the lock (nothing read)."""

    head: RecordHead | None = None
    data: bytes | None = None
    gone: Tombstone | None = None
    busy: bool = False


class Backend(Protocol):
    """Every verb may raise :class:`~app.storage.interface.StoreUnavailable`; now is ``clock()``."""

    async def admit(
        self, game_id: str, owner: str, head: RecordHead, data: bytes
    ) -> tuple[str, tuple[str, ...]]:
        """Add a race, last used now, listed under client address ``owner`` and its
        head's player, in one step: ``("ok", ())``; else add nothing and say which bound held
        (``"player"``, ``"address"`` or ``"full"``) with the player's live races, oldest
        first. The bounds, :class:`PolicyStore`'s: up to :data:`SWEPT_ON_CREATE` races last
        used before ``now - idle_seconds`` are retired first; then a player holding
        ``per_player`` live races, or an address holding ``per_address`` (None: no cap), is
        refused; then, when ``max_games`` are held, the least recently used unlocked race
        last used before ``now - evict_idle_seconds`` is retired to make room, else the
        store is full."""

    async def read(self, game_id: str, digest: str | None, lock: Take = None) -> Found:
        """Read a race, retiring it on the way if idle past the expiry and not locked; only
        its head when ``digest`` opens no seat. Else, without ``lock``, an opening digest
        makes now its last use; with ``lock``, its lock is taken unless another holds it
        (``busy``)."""

    async def write(
        self, lease: Lease, head: RecordHead, data: bytes, outbox: bytes | None, notice: bytes
    ) -> bool:
        """If ``lease`` holds the lock, in one step store the race with its ``head`` and
        stored ``data`` (and ``outbox``, a message left under its id), make now its last
        use, give the lock back: True; else False. A backend that announces its writes
        announces ``notice``."""

    async def wipe(self, game_id: str) -> None:
        """Forget ``game_id`` and its tombstone: it will answer 404, not 410 (its outbox
        message stays)."""

    async def sweep(self) -> int:
        """Retire up to :data:`SWEPT_AT_ONCE` unlocked races idle past the expiry, oldest
        first, each leaving a tombstone; how many went."""

    async def idle_ids(self, seconds: float, limit: int = 1000) -> list[str]:
        """The ids of up to ``limit`` races untouched for ``seconds``, the longest untouched
        first as far as the index tells (a look: it moves and drops nothing)."""

    async def count(self) -> int: ...

    async def claim(self, name: str, value: str, ttl_seconds: float) -> str:
        """Set ``name`` to ``value`` for ``ttl_seconds`` unless it holds one; the value it
        then holds. A race's lock is the claim ``lock:<id>``; a named slot pointing at a
        race, ``slot:<name>``."""

    async def held(self, name: str) -> str | None: ...

    async def renew(self, name: str, value: str, ttl_seconds: float) -> bool:
        """Extend claim ``name`` by ``ttl_seconds`` from now if it still holds ``value``."""

    async def release(self, name: str, value: str) -> None:
        """Empty claim ``name`` if it still holds ``value``."""

    async def wait(self, name: str, seconds: float) -> None:
        """Return once claim ``name`` may have been emptied, at most ``seconds`` later."""

    async def outbox(self) -> dict[str, bytes]: ...

    async def clear_outbox(self, game_id: str) -> None: ...

    async def open(self) -> None: ...

    async def ping(self) -> None: ...


RELEASE_RETRY_SECONDS = 0.5
"""How often a lock that could not be given back (the backend unreachable) is tried again."""

SWEPT_ON_CREATE = 100
"""Stale races a creation retires first, so they count against no cap."""

SWEPT_AT_ONCE = 1000
"""Stale races one sweep retires at most."""


class PolicyStore(Backend, Generic[R]):
    def __init__(
        self,
        loader: Callable[[dict[str, Any]], R],
        *,
        max_games: int,
        idle_expiry_seconds: float,
        evict_min_idle_seconds: float = 0.0,
        max_games_per_client: int | None = None,
        max_games_per_address: int | None = None,
        lock_timeout_seconds: float = 30.0,
        clock: Clock = time.time,
    ) -> None:
        """``max_games_per_client``/``_per_address`` cap one player's/address's live races
        (None: no cap); ``lock_timeout_seconds`` is a lock's lease."""
        self.loader = loader
        self.idle_seconds = idle_expiry_seconds
        self.evict_idle_seconds = evict_min_idle_seconds
        self.max_games = max_games
        self.per_player = max_games_per_client
        self.per_address = max_games_per_address
        self.lease_seconds = lock_timeout_seconds
        self.clock = clock
        self._keepers: dict[str, asyncio.TimerHandle | asyncio.Task[None]] = {}
        self._retries: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        """Stop retrying lock releases (a graceful stop; each store then closes its own)."""
        for task in list(self._retries):
            task.cancel()

    async def create(self, record: R, owner: str) -> None:
        """Store a new race of address ``owner`` (counted against it and its head's
        ``player`` while live), maybe evicting an idle one; else raise :class:`ClientFull`
        or :class:`StoreFull`, storing nothing."""
        outcome, mine = await self.admit(record.id, owner, record.head(), encode(record))
        if outcome == "full":
            raise StoreFull("every stored game is in active use")
        if outcome == "player" and self.per_player is not None:
            raise ClientFull("player", self.per_player, mine)
        if outcome == "address" and self.per_address is not None:
            raise ClientFull("address", self.per_address, mine)

    def _fetched(self, found: Found, digest: str | None, lease: Lease | None) -> Fetched[R]:
        if found.head is None:
            return Fetched(gone=found.gone)
        seat = None if digest is None else found.head.seat_of(digest)
        if found.data is None or (digest is not None and seat is None):
            return Fetched(head=found.head)
        return Fetched(self.loader(decode(found.data)), found.head, seat, lease=lease)

    async def fetch(self, game_id: str, digest: str | None = None) -> Fetched[R]:
        """A copy of the live race (none when ``digest`` opens no seat), or what remains,
        without its lock. A seat's read moves the race's idle clock (not a spectator's)."""
        return self._fetched(await self.read(game_id, digest), digest, None)

    @contextlib.asynccontextmanager
    async def lock(self, game_id: str, digest: str | None = None) -> AsyncIterator[Fetched[R]]:
        """The race's lock (across workers), taken and read in one step, waiting up to a
        lease (else :class:`StoreUnavailable`); taken only on a live race whose seat
        ``digest`` (if any) opens. Renewed while the block runs, given back on leaving
        unless :meth:`save` did."""
        token = secrets.token_hex(16)
        give_up = time.monotonic() + self.lease_seconds
        take = token, self.lease_seconds
        while (found := await self.read(game_id, digest, take)).busy:
            left = give_up - time.monotonic()
            if left <= 0:
                raise StoreUnavailable("the race stayed locked")
            await self.wait(f"lock:{game_id}", left)
        if found.data is None:  # gone, or a digest that opens no seat: nothing was locked
            yield self._fetched(found, digest, None)
            return
        lease = Lease(game_id, token)
        self._keep(lease)
        try:
            yield self._fetched(found, digest, lease)
        finally:
            keeper = self._keepers.pop(token, None)
            if keeper is not None:  # no save gave the lock back
                keeper.cancel()
                await self._give_back(lease)

    def _keep(self, lease: Lease) -> None:
        """Renew ``lease`` a third of its length from now (and so on while its holder
        works): a timer, so a move that ends sooner starts no task."""

        def renew() -> None:
            self._keepers[lease.token] = asyncio.create_task(self._renewed(lease))

        loop = asyncio.get_running_loop()
        self._keepers[lease.token] = loop.call_later(self.lease_seconds / 3, renew)

    async def _renewed(self, lease: Lease) -> None:
        with contextlib.suppress(StoreUnavailable):
            if not await self.renew(f"lock:{lease.game_id}", lease.token, self.lease_seconds):
                return
        self._keep(lease)

    async def _give_back(self, lease: Lease) -> None:
        """Release the lock; while the backend is unreachable keep trying in the
        background, so no race stays locked past an outage longer than it must."""
        name = f"lock:{lease.game_id}"
        try:
            await self.release(name, lease.token)
        except StoreUnavailable:
            task = asyncio.create_task(self._retry_release(name, lease.token))
            self._retries.add(task)
            task.add_done_callback(self._retries.discard)

    async def _retry_release(self, name: str, token: str) -> None:
        give_up = time.monotonic() + self.lease_seconds
        while time.monotonic() < give_up:
            await asyncio.sleep(RELEASE_RETRY_SECONDS)
            with contextlib.suppress(StoreUnavailable):
                await self.release(name, token)
                return

    async def save(
        self, record: R, lease: Lease, outbox: bytes | None = None, notice: bytes | None = None
    ) -> None:
        """Write the race (and ``outbox``) and give its lock back in one step, only with its
        current lease (else :class:`LeaseLost`); a backend that announces saves announces
        ``notice`` (None: :data:`~app.storage.interface.ANY_CHANGE`)."""
        stored = record.head(), encode(record), outbox, notice or ANY_CHANGE
        if lease.game_id != record.id or not await self.write(lease, *stored):
            raise LeaseLost()
        keeper = self._keepers.pop(lease.token, None)
        if keeper is not None:
            keeper.cancel()
