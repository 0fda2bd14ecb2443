"""The default store: the races in a SQLite file, every change committed before it is
answered (:mod:`app.storage.sqlite_backend`), under :mod:`app.storage.policy`'s rules."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from app.storage.interface import R
from app.storage.memory import MemoryStore

log = logging.getLogger("zzv.store")

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
