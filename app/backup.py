"""Where the settings keep the data: the races' store (:func:`build_store`: Redis, the
SQLite file (the default), or SQLite in memory, optionally saved to a data directory on a
graceful stop), and ``zzv backup FOLDER``: SQLite's online backup of the race and results
files while the server runs (``cp`` of a WAL file being written can be torn); Redis and
PostgreSQL are named, not copied.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from app.paths import data_folder
from app.races.operations import SessionStore
from app.races.record import GameSession
from app.results.database import is_sqlite, results_url
from app.settings import Settings
from app.storage.redis_store import RedisStore
from app.storage.saved import SavedMemoryStore
from app.storage.sqlite import MemoryStore, SqliteStore

RACE_FILE = "races.sqlite3"


def build_store(settings: Settings, announce: str | None = None) -> SessionStore:
    """The store ``settings`` ask for: Redis if ``redis_url`` (publishing each save on
    ``announce`` + the race's id when given); else the SQLite file in :func:`data_folder`
    unless ``durable`` is off; else SQLite in memory (saved to ``data_dir`` if set)."""
    bounds: dict[str, Any] = {
        "max_games": settings.max_games,
        "idle_expiry_seconds": settings.idle_expiry_seconds,
        "evict_min_idle_seconds": settings.evict_min_idle_seconds,
        "max_games_per_client": settings.player_cap,
        "max_games_per_address": settings.address_cap,
    }
    if settings.redis_url is not None:
        return RedisStore.connect(
            settings.redis_url.get_secret_value(),
            GameSession.from_dict,
            settings.redis_timeout_seconds,
            tombstone_seconds=settings.tombstone_seconds,
            lock_timeout_seconds=settings.lock_timeout_seconds,
            announce=announce,
            **bounds,
        )
    bounds["expired_memory"] = settings.expired_memory
    if settings.durable:
        path = data_folder(settings) / RACE_FILE
        return SqliteStore(path, GameSession.from_dict, **bounds)
    if settings.data_dir is not None:
        return SavedMemoryStore(settings.data_dir, GameSession.from_dict, **bounds)
    return MemoryStore(GameSession.from_dict, **bounds)


class BackupRefused(ValueError):
    """The backup would overwrite a file already in the destination folder."""


def back_up(settings: Settings, destination: Path) -> tuple[list[Path], list[str]]:
    """Copy each SQLite file ``settings`` keep data in (if made yet) into ``destination``, a
    snapshot each; the copies, and a sentence for each kind of data kept somewhere else (or
    nowhere, in memory). :class:`BackupRefused`, writing nothing, if one would replace a
    file there."""
    files: list[Path] = []
    elsewhere: list[str] = []
    if settings.redis_url is not None:
        elsewhere.append("The live races are in Redis: back them up with its own persistence.")
    elif settings.durable:
        files.append(data_folder(settings) / RACE_FILE)
    else:
        elsewhere.append("The live races are in memory only (ZZV_DURABLE=false).")
    url = results_url(settings)
    if not is_sqlite(url):
        elsewhere.append("The results are in PostgreSQL: back them up with pg_dump.")
    elif url.database in (None, "", ":memory:"):
        elsewhere.append("The results are in memory only (ZZV_DURABLE=false, no ZZV_DATA_DIR).")
    else:
        files.append(Path(url.database))
    present = [source for source in files if source.is_file()]
    taken = [
        destination / source.name for source in present if (destination / source.name).exists()
    ]
    if taken:
        names = ", ".join(str(path) for path in taken)
        raise BackupRefused(f"{names} already exists: back up into a new or empty folder.")
    destination.mkdir(parents=True, exist_ok=True)
    copied = []
    for source in present:
        target = destination / source.name
        partial = target.with_name(target.name + ".partial")
        with closing(sqlite3.connect(source)) as origin, closing(sqlite3.connect(partial)) as copy:
            origin.backup(copy)
        partial.rename(target)  # a copy is whole, or not there
        copied.append(target)
    return copied, elsewhere
