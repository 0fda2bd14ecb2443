"""The narrow interface a place to keep races offers (:class:`Backend`): SQLite
(:mod:`app.storage.sqlite_backend`, a file or memory) and Redis
(:mod:`app.storage.redis_store`).

A backend knows rows, leases and tombstones, never the rules: every bound it applies
(which races are stale, how many to drop, how long a lease lasts) comes in as an argument
from :class:`app.storage.policy.PolicyStore`, where the caps, eviction, expiry, tombstones
and slots are decided once for both backends. Each verb is atomic on its own (one script
on Redis, one transaction under a mutex on SQLite); a policy that spans verbs holds a
claim (``claim``) for as long as it must not be interleaved.

Rows are ordered by their *last use*: their creation, their last save, and every read
made with a digest that opens one of their seats. A race "last used before ``t``" is one
whose last use is at or before ``t``. A race whose lock is held is never retired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.storage.interface import RecordHead, Tombstone


@dataclass(frozen=True, slots=True)
class Found:
    """What a backend's read found.

    ``head`` is None when the race is gone (``gone``: its tombstone, if any is kept).
    ``data`` is the stored race, set unless a digest was given that opens none of its seats.
    ``busy`` (a locking read only): another holder has the lock; nothing was read.
    ``held``: this read took the lock.
    """

    head: RecordHead | None = None
    data: bytes | None = None
    gone: Tombstone | None = None
    busy: bool = False
    held: bool = False


class Backend(Protocol):
    """Rows of races, their locks, tombstones, named claims and the outbox; every verb may
    raise :class:`~app.storage.interface.StoreUnavailable`."""

    async def insert(
        self, game_id: str, owner: str, head: RecordHead, data: bytes, now: float
    ) -> None:
        """Add a race, last used ``now``, listed under client address ``owner`` and its
        head's player."""

    async def read(
        self,
        game_id: str,
        now: float,
        stale_before: float,
        digest: str | None,
        token: str | None = None,
        lease_seconds: float = 0.0,
    ) -> Found:
        """Read a race. One last used before ``stale_before`` and not locked is retired on
        the way (found gone); when ``digest`` opens none of its seats only the head is
        returned. Otherwise, without ``token``, a digest that opens a seat makes ``now``
        its last use; with ``token``, the race's lock is taken as ``token`` for
        ``lease_seconds`` (``held``), unless another holds it (``busy``)."""

    async def write(
        self,
        game_id: str,
        token: str,
        head: RecordHead,
        data: bytes,
        now: float,
        outbox: bytes | None,
    ) -> bool:
        """If ``token`` holds the race's lock: store the race (and ``outbox`` under its id),
        make ``now`` its last use and give the lock back, all in one step; True. Else
        write nothing; False."""

    async def delete(self, game_id: str) -> None:
        """Forget a race and its tombstone (its outbox message stays)."""

    async def retire(self, before: float, limit: int) -> int:
        """Retire up to ``limit`` unlocked races last used before ``before``, the least
        recently used first, each leaving a tombstone (kept as long as the backend keeps
        tombstones); how many went."""

    async def idle(self, before: float, limit: int) -> list[str]:
        """The ids of up to ``limit`` races last used before ``before`` (a look: nothing
        moves), the least recently used first as far as the backend's index tells."""

    async def live(self, owner: str | None = None, player: int | None = None) -> list[str]:
        """The races created from ``owner`` (or by ``player``) that are not over, oldest
        first."""

    async def count(self) -> int:
        """How many races are held."""

    async def claim(self, name: str, value: str, ttl_seconds: float) -> str:
        """Set claim ``name`` to ``value`` for ``ttl_seconds`` unless it holds a value; the
        value it holds afterwards. A race's lock is the claim ``lock:<id>``."""

    async def held(self, name: str) -> str | None:
        """The value claim ``name`` holds, if any."""

    async def renew(self, name: str, value: str, ttl_seconds: float) -> bool:
        """Extend claim ``name`` by ``ttl_seconds`` from now if it still holds ``value``."""

    async def release(self, name: str, value: str) -> None:
        """Empty claim ``name`` if it still holds ``value``."""

    async def outbox(self) -> dict[str, bytes]:
        """Every message a write left and nobody cleared, by race id."""

    async def clear_outbox(self, game_id: str) -> None:
        """Drop ``game_id``'s message (no error if there is none)."""

    async def open(self) -> None:
        """Prepare at server start."""

    async def close(self) -> None:
        """Release at a graceful stop."""

    async def ping(self) -> None:
        """Return if reachable."""
