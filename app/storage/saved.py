"""The in-memory store, kept across graceful restarts in a data directory.

Two files in ``ZZV_DATA_DIR``:

* ``races.json`` — every live race, written (atomically) on a graceful stop and read and
  removed at the next start, so a restart or a deploy keeps the races in progress;
* ``known.jsonl`` — one line ``{"id", "digests"}`` appended (and flushed) as each race is
  created and whenever somebody takes a seat in it. It is the durable marker for a process
  that was killed without saving: at the next start every known race that is not in
  ``races.json`` gets a tombstone saying the server restarted, so its links answer 410
  "the server restarted", not 404 "another browser". (A race that merely expired before
  the kill says the same; both are gone.)
  The file is rewritten with only the live races at each start and stop, so it stays small.

Token digests are stored, never tokens.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import IO, Any

import orjson

from app.storage.interface import Lease, R, Tombstone
from app.storage.memory import MemoryStore

log = logging.getLogger("zzv.store")

SAVE_FORMAT = 1
"""Version of ``races.json``."""


class SavedMemoryStore(MemoryStore[R]):
    """A :class:`~app.storage.memory.MemoryStore` saved to ``data_dir`` on close, loaded
    on open."""

    def __init__(self, data_dir: Path, loader: Any, **bounds: Any) -> None:
        """``loader`` rebuilds a record from its ``to_dict()``; ``bounds`` as MemoryStore."""
        super().__init__(loader, **bounds)
        self.data_dir = data_dir
        self._known: IO[str] | None = None
        self._noted: dict[str, tuple[str, ...]] = {}

    @property
    def races_path(self) -> Path:
        """Where the live races are saved on a graceful stop."""
        return self.data_dir / "races.json"

    @property
    def known_path(self) -> Path:
        """The append-only list of created races (see the module doc)."""
        return self.data_dir / "known.jsonl"

    async def open(self) -> None:
        """Load the races saved by the last graceful stop; tombstone the ones lost."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        restored = self._restore()
        lost = 0
        for game_id, digests in _read_known(self.known_path).items():
            if game_id not in restored:
                self.bury(game_id, Tombstone(digests, "restarted"))
                lost += 1
        self.races_path.unlink(missing_ok=True)  # a later kill must not resurrect them
        self._rewrite_known()
        log.info("races loaded", extra={"restored": len(restored), "lost": lost})

    async def close(self) -> None:
        """Save every live race, then close the known-races file."""
        entries = self.entries()
        races = ",".join(
            f'{{"owner":{json.dumps(owner)},"race":{data.decode()}}}' for _, data, owner in entries
        )
        _write_atomically(self.races_path, f'{{"format":{SAVE_FORMAT},"races":[{races}]}}')
        self._rewrite_known()
        if self._known is not None:
            self._known.close()
            self._known = None
        log.info("races saved", extra={"saved": len(entries)})

    async def create(self, record: R, owner: str) -> None:
        """Store the race and note it in ``known.jsonl`` before answering."""
        await super().create(record, owner)
        self._note(record.id, record.head().digests)

    async def save(self, record: R, lease: Lease) -> None:
        """Note a newly taken seat in ``known.jsonl`` (so that person gets 410 too)."""
        await super().save(record, lease)
        digests = record.head().digests
        if self._noted.get(record.id) != digests:
            self._note(record.id, digests)

    def _note(self, game_id: str, digests: tuple[str, ...]) -> None:
        if self._known is None:
            self._known = self.known_path.open("a", encoding="utf-8")
        self._known.write(_known_line(game_id, digests))
        self._known.flush()  # in the OS's hands: survives a killed process
        self._noted[game_id] = digests

    def _restore(self) -> set[str]:
        if not self.races_path.is_file():
            return set()
        try:
            payload = json.loads(self.races_path.read_text(encoding="utf-8"))
            if payload.get("format") != SAVE_FORMAT:
                raise ValueError("unknown format")
            items = list(payload["races"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.error("saved races unreadable; starting empty", extra={"error": repr(exc)})
            return set()
        restored: set[str] = set()
        for item in items:
            try:
                game_id = str(item["race"]["id"])
                self.restore(game_id, orjson.dumps(item["race"]), str(item["owner"]))
            except (ValueError, KeyError, TypeError) as exc:
                log.error("a saved race is unreadable; skipped", extra={"error": repr(exc)})
                continue
            restored.add(game_id)
        return restored

    def _rewrite_known(self) -> None:
        if self._known is not None:
            self._known.close()
            self._known = None
        heads = {game_id: head.digests for game_id, head in self.heads().items()}
        _write_atomically(self.known_path, "".join(_known_line(i, d) for i, d in heads.items()))
        self._noted = heads


def _known_line(game_id: str, digests: tuple[str, ...]) -> str:
    return json.dumps({"id": game_id, "digests": list(digests)}, separators=(",", ":")) + "\n"


def _read_known(path: Path) -> dict[str, tuple[str, ...]]:
    """The races noted in ``path``; a later line for a race replaces an earlier one."""
    known: dict[str, tuple[str, ...]] = {}
    if not path.is_file():
        return known
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            item = json.loads(line)
            known[str(item["id"])] = tuple(str(d) for d in item["digests"])
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by the kill itself
    return known


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_suffix(path.suffix + ".tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
