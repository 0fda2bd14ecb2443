"""The small values every store deals in, and its errors. A store keeps *records* (an
``id``, a :class:`RecordHead`, a ``to_dict()``) without importing the races: a loader it is
handed rebuilds one from its dict.
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
    """The new race's player (``limit`` "player") or client address (``limit`` "address")
    holds its ``cap`` of live races; ``races``: the player's own, oldest first."""

    def __init__(self, limit: CapLimit, cap: int, races: tuple[str, ...] = ()) -> None:
        super().__init__(f"{limit} cap of {cap} live races reached")
        self.limit = limit
        self.cap = cap
        self.races = races


class StoreUnavailable(Exception):
    """The store cannot be reached (Redis down): callers answer 503, never 500."""


@dataclass(frozen=True, slots=True)
class RecordHead:
    """What requests need before (or instead of) loading a game: ``digests``, each seat's
    token digest ("" where nobody sits; it outlives the game to answer 410); ``deadline``,
    when the turn clock next owes a move (wall-clock s); ``live``, false once over (no cap
    counts it); ``player``, its creator's id, if known (the per-player cap)."""

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
        deadline = None if deadline is None else float(deadline)
        return cls(tuple(str(d) for d in digests), deadline, live, player)

    def seat_of(self, digest: str) -> int | None:
        """The seat whose token digest is ``digest`` (constant time per seat), or None."""
        found = None
        for seat, known in enumerate(self.digests):
            if known and hmac.compare_digest(known, digest):
                found = seat
        return found


class Record(Protocol):
    """What a store keeps: a race seen from the outside."""

    id: str

    def head(self) -> RecordHead: ...

    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Record)


def encode(record: Record) -> bytes:
    """A record's stored form: its dict as compact JSON (what every store keeps)."""
    return orjson.dumps(record.to_dict())


def decode(data: bytes | str) -> dict[str, Any]:
    """The dict :func:`encode` stored (``ValueError`` if it is not JSON)."""
    found: dict[str, Any] = orjson.loads(data)
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
    """A race's lock held: a save is accepted only with the current lease, so a move that
    outlived its lease is refused rather than written over a newer one."""

    game_id: str
    token: str


class LeaseLost(Exception):
    """The save's lease is no longer the race's (it ran out); nothing was written."""


@dataclass(frozen=True, slots=True)
class Fetched(Generic[R]):
    """One read: ``record``, a copy of the live race, and its ``head`` (None when gone:
    ``gone`` then says what remains, if anything); ``seat``, the one the digest opened;
    ``lease``, set when read under the race's lock."""

    record: R | None = None
    head: RecordHead | None = None
    seat: int | None = None
    gone: Tombstone | None = None
    lease: Lease | None = None
