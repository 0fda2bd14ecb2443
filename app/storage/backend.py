"""Where races are kept (:class:`Backend`: SQLite or Redis), knowing rows, leases and
tombstones but no rule: every bound comes in as an argument from
:class:`app.storage.policy.PolicyStore`. Each verb is atomic on its own, so concurrent
creations never pass a cap together. A race's *last use* is its creation, its last save or
a read whose digest opens a seat; "last used before ``t``" includes ``t``. A race whose lock
is held is never retired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from app.storage.interface import Lease, RecordHead, Tombstone

Take = tuple[str, float] | None
"""A lock a read takes: its token and its lease's seconds (None: a plain read)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A read's find: ``head`` None when the race is gone (``gone``: its tombstone, if
    kept); ``data`` unless the digest opens no seat; ``busy``: another holds the lock
    (nothing read); ``held``: this read took the lock."""

    head: RecordHead | None = None
    data: bytes | None = None
    gone: Tombstone | None = None
    busy: bool = False
    held: bool = False


@dataclass(frozen=True, slots=True)
class Bounds:
    """The numbers a creation at ``now`` is admitted by: up to ``swept`` races last used
    before ``now - idle_seconds`` are retired first; then a player holding ``per_player``
    live races, or an address holding ``per_address`` (None: no cap), is refused; then, when
    ``max_games`` are held, the least recently used unlocked race last used before ``now -
    evict_idle_seconds`` is retired to make room, else the store is full."""

    idle_seconds: float
    evict_idle_seconds: float
    max_games: int
    per_player: int | None
    per_address: int | None
    swept: int


class Backend(Protocol):
    """Every verb may raise :class:`~app.storage.interface.StoreUnavailable`."""

    async def admit(
        self, game_id: str, owner: str, head: RecordHead, data: bytes, now: float, bounds: Bounds
    ) -> tuple[str, tuple[str, ...]]:
        """Add a race, last used ``now``, listed under client address ``owner`` and its
        head's player, within ``bounds``, in one step: ``("ok", ())``; else add nothing and
        say which bound held (``"player"``, ``"address"`` or ``"full"``) with the player's
        live races, oldest first."""

    async def read(
        self, game_id: str, now: float, stale_before: float, digest: str | None, lock: Take = None
    ) -> Found:
        """Read a race, retiring it on the way if last used before ``stale_before`` and not
        locked; only its head when ``digest`` opens no seat. Else, without ``lock``, an
        opening digest makes ``now`` its last use; with ``lock``, its lock is taken
        (``held``) unless another holds it (``busy``)."""

    async def write(
        self, lease: Lease, head: RecordHead, data: bytes, outbox: bytes | None, notice: bytes
    ) -> bool:
        """If ``lease`` holds the lock, in one step store the race with its ``head`` and
        stored ``data`` (and ``outbox``, a message left under its id), make now its last
        use, give the lock back: True; else False. A backend that announces its writes
        announces ``notice``."""

    async def delete(self, game_id: str) -> None:
        """Forget a race and its tombstone (its outbox message stays)."""

    async def retire(self, before: float, limit: int) -> int:
        """Retire up to ``limit`` unlocked races last used before ``before``, oldest first,
        each leaving a tombstone; how many went."""

    async def idle(self, before: float, limit: int) -> list[str]:
        """Up to ``limit`` ids last used before ``before``, oldest first as the index tells
        (a look: nothing moves)."""

    async def count(self) -> int: ...

    async def claim(self, name: str, value: str, ttl_seconds: float) -> str:
        """Set ``name`` to ``value`` for ``ttl_seconds`` unless it holds one; the value it
        then holds. A race's lock is the claim ``lock:<id>``."""

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

    async def close(self) -> None: ...

    async def ping(self) -> None: ...
