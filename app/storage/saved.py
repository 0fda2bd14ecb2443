"""The in-memory store, kept across graceful restarts in ``ZZV_DATA_DIR``: ``races.json``
holds the live races and the outbox, written atomically as a stop begins, after each change
in its grace and at its end, read and removed at the next start (an unreadable entry is kept
aside in ``races.json.bad``). ``known.jsonl`` gets a flushed ``{"id", "digests"}`` line per
creation and seat taken: a known race missing from ``races.json`` (a kill's) gets a
"restarted" tombstone (410, not 404). It is rewritten with the live races at start and stop.
"""

from __future__ import annotations

import base64
import json
import logging
import os
from pathlib import Path
from typing import IO, Any

import orjson

from app.storage.interface import Lease, R, Tombstone
from app.storage.migrations.versions.v0004_race_moves import upgraded
from app.storage.sqlite import MemoryStore

log = logging.getLogger("zzv.store")

SAVE_FORMAT = 1
"""Version of ``races.json``."""


class SavedMemoryStore(MemoryStore[R]):
    """A :class:`~app.storage.sqlite.MemoryStore` saved to ``data_dir`` (module doc)."""

    def __init__(self, data_dir: Path, loader: Any, **bounds: Any) -> None:
        super().__init__(loader, **bounds)
        self.data_dir = data_dir
        self.races_path = data_dir / "races.json"
        self.known_path = data_dir / "known.jsonl"
        self._journal: IO[str] | None = None
        self._noted: dict[str, tuple[str, ...]] = {}
        self.unreadable = 0
        """Saved races the last :meth:`open` could not read (-1: the whole file)."""
        self._write_through = False

    async def open(self) -> None:
        """Load the races saved by the last graceful stop; tombstone the ones lost."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        restored = self._restore()
        lost = {i: d for i, d in _read_known(self.known_path).items() if i not in restored}
        for game_id, digests in lost.items():
            self.bury(game_id, Tombstone(digests, "restarted"))
        self.races_path.unlink(missing_ok=True)  # a later kill must not resurrect them
        self._rewrite_known()
        log.info(
            "races loaded",
            extra={"restored": len(restored), "lost": len(lost), "unreadable": self.unreadable},
        )

    async def checkpoint(self) -> None:
        """Save every race now and after each change until :meth:`close` (a stop begins: a
        kill in its grace loses no answered move)."""
        self._write_through = True
        saved = await self._write_races()
        log.info("races saved as the stop began", extra={"saved": saved})

    async def close(self) -> None:
        saved = await self._write_races()
        self._write_through = False
        self._rewrite_known()  # which closes the known-races file
        log.info("races saved", extra={"saved": saved})

    async def create(self, record: R, owner: str) -> None:
        await super().create(record, owner)
        await self._stored(record)

    async def save(
        self, record: R, lease: Lease, outbox: bytes | None = None, notice: bytes | None = None
    ) -> None:
        await super().save(record, lease, outbox, notice)
        await self._stored(record)

    async def _stored(self, record: R) -> None:
        """Before answering, note a new race or a newly taken seat in ``known.jsonl``;
        during a stop, write the races."""
        digests = record.head().digests
        if self._noted.get(record.id) != digests:
            if self._journal is None:
                self._journal = self.known_path.open("a", encoding="utf-8")
            self._journal.write(_known_line(record.id, digests))
            self._journal.flush()  # in the OS's hands: survives a killed process
            self._noted[record.id] = digests
        if self._write_through:
            await self._write_races()

    async def _write_races(self) -> int:
        """Write ``races.json`` atomically; return how many races it holds."""
        entries = self.rows()
        races = ",".join(
            f'{{"owner":{json.dumps(owner)},"race":{data.decode()}}}' for _, data, owner in entries
        )
        messages = await self.outbox()
        outbox = {game_id: base64.b64encode(m).decode() for game_id, m in messages.items()}
        document = f'{{"format":{SAVE_FORMAT},"races":[{races}],"outbox":{json.dumps(outbox)}}}'
        _write_atomically(self.races_path, document)
        return len(entries)

    def _restore(self) -> set[str]:
        """Load ``races.json`` race by race; an unreadable file is kept aside whole."""
        self.unreadable = 0
        if not self.races_path.is_file():
            return set()
        try:
            payload = json.loads(self.races_path.read_text(encoding="utf-8"))
            if not isinstance(payload, dict) or payload.get("format") != SAVE_FORMAT:
                raise ValueError(f"not a races file of format {SAVE_FORMAT}")
            items = payload["races"]
            if not isinstance(items, list):
                raise ValueError("no list of races")
            outbox = {str(k): base64.b64decode(v) for k, v in payload.get("outbox", {}).items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            kept = self._free_bad_path()
            os.replace(self.races_path, kept)
            log.error(
                "saved races unreadable; kept aside, starting without them",
                extra={"error": repr(exc), "kept": str(kept)},
            )
            self.unreadable = -1
            return set()
        self.keep_outbox(outbox)
        restored: set[str] = set()
        bad: list[Any] = []
        for index, item in enumerate(items):
            try:
                game_id = str(item["race"]["id"])
                if game_id in restored:
                    raise ValueError(f"race {game_id} saved twice")
                self.restore(game_id, orjson.dumps(upgraded(item["race"])), str(item["owner"]))
                restored.add(game_id)
            except Exception as exc:  # any damage to one entry must spare the others
                log.error(
                    "a saved race is unreadable; skipped",
                    extra={"entry": index, "error": repr(exc)},
                )
                bad.append(item)
        if bad:
            self.unreadable = len(bad)
            document = {"format": SAVE_FORMAT, "races": bad}
            kept = self._free_bad_path()
            _write_atomically(kept, json.dumps(document, separators=(",", ":")))
            log.error(
                "unreadable saved races kept aside", extra={"skipped": len(bad), "kept": str(kept)}
            )
        return restored

    def _free_bad_path(self) -> Path:
        """Where to keep unreadable saved races for a person to look at (never loaded):
        ``races.json.bad``, or ``races.json.bad.N``, so nothing kept aside is overwritten."""
        target, number = self.data_dir / "races.json.bad", 1
        while target.exists():
            number += 1
            target = self.data_dir / f"races.json.bad.{number}"
        return target

    def _rewrite_known(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None
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
