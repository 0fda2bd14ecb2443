"""The small values every store deals in, and its errors.

A store (:class:`app.storage.policy.PolicyStore`) keeps *records*: any object with an
``id``, a small :class:`RecordHead` and a ``to_dict()`` (the races of
:mod:`app.races.record`). It does not import the races: it is handed a loader that
rebuilds a record from its dict.
"""

from __future__ import annotations

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
    """No game is idle enough to make room for a new one."""


CapLimit = Literal["player", "address"]
"""Which cap a creation reached: its player's, or its client address's."""


class ClientFull(Exception):
    """The new race's player already holds its cap of live races (``limit`` "player"), or
    its client address does (``limit`` "address"). ``cap`` is the cap reached; ``races``
    the ids of the player's own live races, oldest first (none when the race names no
    player)."""

    def __init__(self, limit: CapLimit, cap: int, races: tuple[str, ...] = ()) -> None:
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
    ``player`` is the id of the player who created it, if known (the per-player cap).
    """

    digests: tuple[str, ...]
    deadline: float | None = None
    live: bool = True
    player: int | None = None

    def to_json(self) -> str:
        """A compact JSON list whose third item is ``live`` (Redis's scripts read it)."""
        fields = [list(self.digests), self.deadline, self.live, self.player]
        return json.dumps(fields, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> RecordHead:
        """Inverse of :meth:`to_json` (a head stored before ``live`` and ``player`` were
        reads as live, with no player)."""
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
    def id(self) -> str: ...

    def head(self) -> RecordHead: ...

    def to_dict(self) -> dict[str, Any]: ...


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
    is set only when the read was made under the race's lock.
    """

    record: R | None = None
    head: RecordHead | None = None
    seat: int | None = None
    gone: Tombstone | None = None
    lease: Lease | None = None
