"""The stores on SQLite, under :mod:`app.storage.policy`'s rules: in this process's memory
(:class:`MemoryStore`), or the default, the races in a file, every change committed before
it is answered (:class:`SqliteStore`, :mod:`app.storage.sqlite_backend`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from app.storage.interface import Clock, R, decode
from app.storage.policy import PolicyStore
from app.storage.sqlite_backend import SqliteBackend

log = logging.getLogger("zzv.store")


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


SAVED_BY_OLDER_SERVERS = "races.json"
"""The file the memory store saves its races to on a graceful stop, in the same folder."""


class SqliteStore(MemoryStore[R]):
    """The store on the file ``path``, made with its folder at :meth:`open` or first use."""

    def __init__(self, path: Path, loader: Callable[[dict[str, Any]], R], **bounds: Any) -> None:
        super().__init__(loader, path=path, **bounds)
        self.path = path

    async def open(self) -> None:
        """Create or migrate the file, check every row, take over an older server's save."""
        await super().open()
        imported = self._import_saved(self.path.with_name(SAVED_BY_OLDER_SERVERS))
        counts = {"restored": len(self), "imported": imported, "skipped": self.sqlite.skipped}
        log.info("races loaded", extra={"file": str(self.path), **counts})

    def _import_saved(self, saved: Path) -> int:
        """Take over the races an older server saved (those not in the file yet), then keep
        its file aside as ``races.json.imported``; how many came in."""
        if not saved.is_file():
            return 0
        try:
            payload = orjson.loads(saved.read_bytes())
            items = list(payload["races"]) if payload.get("format") == 1 else []
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            log.error("an older server's saved races are unreadable", extra={"error": repr(exc)})
            return 0
        held = self.sqlite.heads()
        imported = 0
        for item in items:
            try:
                game_id, owner = str(item["race"]["id"]), str(item["owner"])
                if game_id in held:
                    continue
                self.restore(game_id, orjson.dumps(item["race"]), owner)
            except (ValueError, KeyError, TypeError) as exc:
                log.error(
                    "a race saved by an older server is unreadable; skipped",
                    extra={"error": repr(exc)},
                )
                continue
            imported += 1
        saved.rename(saved.with_name(saved.name + ".imported"))
        log.info("races taken over from an older server's save", extra={"imported": imported})
        return imported

    async def checkpoint(self) -> None:
        """As a stop begins: fold the write-ahead log into the main file."""
        self.sqlite.checkpoint()
        log.info(
            "races saved as the stop began", extra={"saved": len(self), "file": str(self.path)}
        )
