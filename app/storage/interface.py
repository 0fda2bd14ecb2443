"""The storage interface (:class:`GameStore`) and the small values it deals in.

Routes never touch a store directly; :mod:`app.races.operations` does, through this
interface, so the in-memory store (:mod:`app.storage.memory`, one process, optionally saved
to a data directory: :mod:`app.storage.saved`) and the Redis store
(:mod:`app.storage.redis_store`, shared by every worker) are interchangeable.

A store keeps *records*: any object with an ``id``, a small :class:`RecordHead` and a
``to_dict()`` (the races of :mod:`app.races.record`). It does not import the races: a
store that needs to rebuild records from their dicts is handed a loader. Every store bounds
what it holds three ways: a hard cap on the number of games (with eviction of the least
recently used idle game when full), idle expiry, and a per-client cap on live games. A game
whose lock is held (a move in progress) is never evicted or expired.
"""

from __future__ import annotations

import contextlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

Clock = Callable[[], float]

GoneReason = Literal["expired", "restarted"]
"""Why a game that existed is gone: idle expiry / eviction, or a server that was killed."""


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
    """The storage interface :mod:`app.races.operations` goes through; every method may raise
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
