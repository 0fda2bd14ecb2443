"""Where the results live, and the async engine on them: ``ZZV_DATABASE_URL`` (PostgreSQL
by asyncpg, SQLite by aiosqlite), else ``results.sqlite3`` in the data folder, else (with
``ZZV_DURABLE=false`` and no ``ZZV_DATA_DIR``) SQLite in memory. SQLite runs WAL with
``synchronous=NORMAL`` (a killed process loses nothing committed) and foreign keys on.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from app.paths import data_folder
from app.settings import Settings

SQLITE_PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=5000", "foreign_keys=ON")

CONNECT_TIMEOUT_SECONDS = 5.0
"""How long a new connection to PostgreSQL may take before the database counts as down."""


def async_url(raw: str) -> URL:
    """``raw`` with the async driver this server uses for its database."""
    url = make_url("postgresql" + raw[len("postgres") :] if raw.startswith("postgres:") else raw)
    backend = url.get_backend_name()
    if backend == "postgresql":
        return url.set(drivername="postgresql+asyncpg")
    if backend == "sqlite":
        return url.set(drivername="sqlite+aiosqlite")
    raise ValueError(f"ZZV_DATABASE_URL must be a PostgreSQL or SQLite URL, not {backend!r}.")


def results_url(settings: Settings) -> URL:
    """The database ``settings`` point the results at."""
    if settings.database_url is not None:
        return async_url(settings.database_url.get_secret_value())
    if not settings.durable and settings.data_dir is None:
        return make_url("sqlite+aiosqlite://")
    return make_url(f"sqlite+aiosqlite:///{data_folder(settings) / 'results.sqlite3'}")


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def connect(url: URL) -> AsyncEngine:
    """An async engine on ``url``: a SQLite file's folder is made (owner only: results name
    players); in memory, one connection kept for the engine's life."""
    if not is_sqlite(url):
        return create_async_engine(
            url,
            pool_pre_ping=True,
            pool_size=5,
            max_overflow=5,
            # A database that does not answer is reported (503) in seconds, not asyncpg's 60.
            connect_args={"timeout": CONNECT_TIMEOUT_SECONDS},
        )
    database = url.database or ":memory:"
    if database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    engine = create_async_engine(url, poolclass=StaticPool if database == ":memory:" else None)

    @event.listens_for(engine.sync_engine, "connect")
    def _pragmas(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return engine
