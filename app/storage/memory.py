"""The store in this process's memory: the SQLite backend on a database in memory, under
the shared rules of :mod:`app.storage.policy` (the write-through file store,
:mod:`app.storage.sqlite`, is the same store on a file)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.storage.interface import Clock, R, RecordHead, Tombstone, decode
from app.storage.policy import PolicyStore
from app.storage.sqlite_backend import SqliteBackend


class MemoryStore(PolicyStore[R]):
    """A :class:`~app.storage.policy.PolicyStore` on SQLite: in memory, or on the file
    ``path`` when given (see :class:`app.storage.sqlite.SqliteStore`). Every read decodes
    a fresh copy with ``loader``, so a request changes nothing stored until it saves."""

    def __init__(
        self,
        loader: Callable[[dict[str, Any]], R],
        *,
        clock: Clock = time.monotonic,
        expired_memory: int = 10_000,
        path: Path | None = None,
        wall_clock: Clock = time.time,
        **bounds: Any,
    ) -> None:
        """An empty store with the ``bounds`` of :class:`~app.storage.policy.PolicyStore`;
        ``loader`` rebuilds a record from its dict. At most ``expired_memory`` tombstones
        are kept; ``wall_clock`` dates the rows."""
        self.sqlite = SqliteBackend(
            path,
            lambda data: loader(decode(data)).head(),
            clock=clock,
            expired_memory=expired_memory,
            wall_clock=wall_clock,
        )
        super().__init__(self.sqlite, loader, clock=clock, **bounds)

    def __len__(self) -> int:
        """Number of races held (read without I/O)."""
        return len(self.sqlite)

    def entries(self) -> list[tuple[str, bytes, str]]:
        """Every race as ``(id, its JSON, owner)``, least recently used first."""
        return self.sqlite.rows()

    def heads(self) -> dict[str, RecordHead]:
        """Every race's head by id."""
        return self.sqlite.heads()

    def tombstones(self) -> dict[str, Tombstone]:
        """Every kept tombstone by id."""
        return self.sqlite.tombstones()

    def restore(self, game_id: str, data: bytes, owner: str) -> None:
        """Put back a saved race as if just used (loading after a restart; no caps).
        ``ValueError`` if ``data`` is not a race this store's loader reads."""
        head = self.loader(decode(data)).head()
        with self.sqlite.mutex:
            self.sqlite.put(game_id, owner, head, data, self.clock())

    def bury(self, game_id: str, tombstone: Tombstone) -> None:
        """Remember a gone race (a race a restart lost)."""
        self.sqlite.bury(game_id, tombstone)
