"""Choosing the races' store from the settings: Redis, the SQLite file (the default), or
SQLite in memory (optionally saved to a data directory on a graceful stop)
(:mod:`app.storage`)."""

from __future__ import annotations

from typing import Any

from app.paths import data_folder
from app.races.operations import SessionStore
from app.races.record import GameSession
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
