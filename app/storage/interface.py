"""The storage interface (:class:`GameStore`) and the small values it deals in.

Routes never touch a store directly; :mod:`app.races` does, through this interface. Every
store is :class:`app.storage.policy.PolicyStore`: the rules below, written once, over one
of two backends (:mod:`app.storage.backend`): SQLite (:mod:`app.storage.sqlite_backend`;
on a file, the default store :mod:`app.storage.sqlite`, or in memory,
:mod:`app.storage.memory`, optionally saved to a data directory: :mod:`app.storage.saved`)
or Redis (:mod:`app.storage.redis_store`, shared by every worker).

A store keeps *records*: any object with an ``id``, a small :class:`RecordHead` and a
``to_dict()`` (the races of :mod:`app.races.record`). It does not import the races: a
store that needs to rebuild records from their dicts is handed a loader. Every store bounds
what it holds three ways: a hard cap on the number of games (with eviction of the least
recently used idle game when full), idle expiry, and caps on the live (unfinished) races of
one player and of one client address (:class:`ClientFull`). A game whose lock is held (a
move in progress) is never evicted or expired.
"""

from __future__ import annotations

import contextlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

import orjson

Clock = Callable[[], float]

GoneReason = Literal["expired", "restarted"]
"""Why a game that existed is gone: idle expiry / eviction, or a server that was killed."""


ANY_CHANGE = b"1"
"""A live notice's data for any change of a race (a quick message alone travels as its
JSON instead): what a store that announces its saves, and the live hub, publish."""


class StoreFull(Exception):
    """Raised by :meth:`GameStore.create` when no game is idle enough to make room."""


CapLimit = Literal["player", "address"]
"""Which cap a creation reached: its player's, or its client address's."""


class ClientFull(Exception):
    """Raised by :meth:`GameStore.create` when the new race's player already holds its cap
    of live races (``limit`` "player"), or the races created from its client address do
    (``limit`` "address"). ``cap`` is the cap reached; ``races`` the ids of the player's own
    live races, oldest first (none when the race names no player)."""

    def __init__(self, limit: CapLimit, cap: int, races: tuple[str, ...] = ()) -> None:
        """Say which cap was reached and the player's live races."""
        super().__init__(f"{limit} cap of {cap} live races reached")
        self.limit = limit
        self.cap = cap
        self.races = races


class StoreUnavailable(Exception):
    """The store cannot be reached (Redis down): callers answer 503, never 500."""


@dataclass(frozen=True, slots=True)
class RecordHead:
    """The few facts about a game that requests need before (or instead of) loading it.

    ``digests`` holds each seat's token digest in seat order ("" where nobody sits): a
    request is authenticated from it, and it outlives the game to answer 410, not 404.
    ``deadline`` is when the turn clock next owes a move (wall-clock seconds), if ever.
    ``live`` is false once the game is over (it no longer counts against any cap), and
    ``player`` is the id of the player who created it, if known (the per-player cap counts
    by it; the store reads it when the game is created).
    """

    digests: tuple[str, ...]
    deadline: float | None = None
    live: bool = True
    player: int | None = None

    def to_json(self) -> str:
        """Compact JSON form (what a shared store keeps beside the game): a list whose third
        item is ``live`` (the Redis store's scripts read it there)."""
        fields = [list(self.digests), self.deadline, self.live, self.player]
        return json.dumps(fields, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> RecordHead:
        """Inverse of :meth:`to_json` (a head stored before ``live`` and ``player`` were
        reads as live, with no player).

        >>> head = RecordHead(("ab", ""), 12.5, live=False, player=7)
        >>> RecordHead.from_json(head.to_json()) == head
        True
        >>> RecordHead.from_json('[["ab"],null]')
        RecordHead(digests=('ab',), deadline=None, live=True, player=None)
        """
        digests, deadline, *rest = json.loads(text)
        live = bool(rest[0]) if rest else True
        player = int(rest[1]) if len(rest) > 1 and rest[1] is not None else None
        return cls(
            tuple(str(d) for d in digests),
            None if deadline is None else float(deadline),
            live,
            player,
        )

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


def encode(record: Record) -> bytes:
    """A record's stored form: its dict as compact JSON (what every store keeps)."""
    return orjson.dumps(record.to_dict())


def decode(data: bytes | str) -> dict[str, Any]:
    """The dict :func:`encode` stored (``ValueError`` if it is not JSON of an object)."""
    found = orjson.loads(data)
    if not isinstance(found, dict):
        raise ValueError("A stored record is not a JSON object.")
    return found


@dataclass(frozen=True)
class Tombstone:
    """What remains of a game that is gone: its seats' token digests and why it went."""

    digests: tuple[str, ...]
    reason: GoneReason = "expired"

    def seat_of(self, digest: str) -> int | None:
        """The seat that ``digest`` opened, or None."""
        return RecordHead(self.digests).seat_of(digest)


@dataclass(frozen=True, slots=True)
class Lease:
    """Proof that a request holds one race's lock: the store accepts a save only from the
    holder of the race's current lease, so a move that outlived its lease is refused
    rather than written over a newer one."""

    game_id: str
    token: str


class LeaseLost(Exception):
    """The save was refused: the lease it carried is no longer the race's (it ran out and
    another request may have taken the lock). Nothing was written."""


@dataclass(frozen=True, slots=True)
class Fetched(Generic[R]):
    """What one read of a race found.

    ``record`` is a copy of the live race (changing it changes nothing stored) and ``head``
    its head; both None when the race is gone, and then ``gone`` says what remains of it,
    if anything. ``seat`` is the seat the request's token digest opened, if any. ``lease``
    is set only when the read was made under the race's lock (:meth:`GameStore.lock`).
    """

    record: R | None = None
    head: RecordHead | None = None
    seat: int | None = None
    gone: Tombstone | None = None
    lease: Lease | None = None


class GameStore(Protocol[R]):
    """The storage interface :mod:`app.races` goes through; every method may raise
    :class:`StoreUnavailable`.

    Five verbs for the races (``create``, ``fetch``, ``lock``, ``save``, ``wipe``), six
    for upkeep (``open``, ``close``, ``sweep``, ``count``, ``ping``, ``idle_ids``), three for
    named slots that point at a race (``slot``, ``hold_slot``, ``free_slot``: the open
    "Race strangers" race of each size), and two for the outbox (``outbox``,
    ``clear_outbox``): a message a save left for delivery elsewhere (a finished race's
    result), kept by race id until its deliverer clears it; no expiry, eviction or wipe
    of the race drops it. Every store hands out copies: what a request changes is stored
    only by :meth:`save`.
    """

    async def create(self, record: R, owner: str) -> None:
        """Store a new race for client address ``owner``; may evict an idle one.

        The race counts against its head's ``player`` (when it names one) and against
        ``owner`` until it is over or gone. Raises :class:`StoreFull` or
        :class:`ClientFull` and then stores nothing.
        """

    async def fetch(self, game_id: str, digest: str | None = None) -> Fetched[R]:
        """One read of the race, without its lock. When ``digest`` opens one of its seats
        the race's idle clock moves (only its seats keep a race alive, not spectators)."""

    def lock(
        self, game_id: str, digest: str | None = None
    ) -> contextlib.AbstractAsyncContextManager[Fetched[R]]:
        """Hold the race's lock (across every worker sharing the store) and read it once.

        The lock is taken only when the race is live and ``digest`` is None (a spectator,
        or a request that authenticated otherwise) or opens one of its seats; otherwise
        the read comes back without a lease. While held the race is neither evicted nor
        expired. Leaving the block gives the lock back unless :meth:`save` already did.
        """

    async def save(
        self, record: R, lease: Lease, outbox: bytes | None = None, notice: bytes | None = None
    ) -> None:
        """Write the changed race back and give its lock back, in one step; moves its idle
        clock. With ``outbox``, that message is kept under the race's id in the same step
        (both are written or neither). A store that announces its saves (Redis, with its
        ``announce`` channel) announces ``notice`` when given, else :data:`ANY_CHANGE`.
        Raises :class:`LeaseLost` (and writes nothing) unless ``lease`` is still the
        race's."""

    async def outbox(self) -> dict[str, bytes]:
        """Every message a save left in the outbox and nobody cleared yet, by race id."""

    async def clear_outbox(self, game_id: str) -> None:
        """Drop race ``game_id``'s message from the outbox (no error if there is none)."""

    async def wipe(self, game_id: str) -> None:
        """Forget a race entirely, tombstone included (no error if it is unknown)."""

    async def open(self) -> None:
        """Prepare the store at server start (load saved races, check the connection)."""

    async def close(self) -> None:
        """Release the store at a graceful stop (save races, close connections)."""

    async def sweep(self) -> int:
        """Drop every expired race now; return how many were dropped."""

    async def count(self) -> int:
        """Number of live races held."""

    async def idle_ids(self, seconds: float, limit: int = 1000) -> list[str]:
        """The ids of up to ``limit`` live races untouched for at least ``seconds``, the
        longest untouched first as far as the store's index tells (a look that moves no idle
        clock and drops nothing)."""

    async def ping(self) -> None:
        """Return if the store is reachable, else raise :class:`StoreUnavailable`."""

    async def slot(self, name: str) -> str | None:
        """The value a named slot holds (a short string shared by every worker), if any."""

    async def hold_slot(self, name: str, value: str, ttl_seconds: float) -> str:
        """Set slot ``name`` to ``value`` for ``ttl_seconds`` unless it holds a value
        already, atomically across workers; the value it holds afterwards."""

    async def free_slot(self, name: str, value: str) -> None:
        """Empty slot ``name`` if it still holds ``value`` (atomically)."""
