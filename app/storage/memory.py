"""The store in this process's memory: the SQLite backend on a database in memory (or on a
file: :mod:`app.storage.sqlite`), under the rules of :mod:`app.storage.policy`."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.storage.interface import Clock, R, decode
from app.storage.policy import PolicyStore
from app.storage.sqlite_backend import SqliteBackend


class MemoryStore(PolicyStore[R]):
    """A :class:`~app.storage.policy.PolicyStore` on SQLite, in memory or on the file
    ``path``; every read decodes a fresh copy."""

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

    def restore(self, game_id: str, data: bytes, owner: str) -> None:
        """Put back a saved race as just used, past every cap (``ValueError``: unreadable)."""
        head = self.loader(decode(data)).head()
        with self.sqlite.mutex:
            self.sqlite.put(game_id, owner, head, data, self.clock())
