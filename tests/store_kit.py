"""Test kit for the game stores: a real ``redis-server`` per test session, stores of either
kind, and white-box access to stored races from synchronous tests.

Imported as ``store_kit`` (tests/ is on the path). The ``redis_server`` fixture lives in
tests/conftest.py and yields a :class:`RedisServer`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar

import pytest
from fastapi.testclient import TestClient

from app.races.operations import SessionStore
from app.races.record import DERIVED, GameSession
from app.storage.interface import Clock
from app.storage.redis_store import RedisStore
from app.storage.sqlite import MemoryStore, SqliteStore
from bench.redis_process import RedisProcess
from bench.server import find_free_port

StoreKind = Literal["memory", "redis", "sqlite"]
STORE_KINDS: tuple[StoreKind, ...] = ("memory", "redis")
"""Every store the API and web suites run against, with the same expectations: both
backends (SQLite, here in memory, and Redis) under the same rules."""

SCENARIO_KINDS: tuple[StoreKind, ...] = (*STORE_KINDS, "sqlite")
"""Every store the store scenarios (tests/test_store.py) run against: the SQLite backend in
memory and on a file (the file reopened after each scenario), and Redis. The API suites
run on the file only in a few tests of their own: it differs from memory by its file
alone."""

REDIS_INSTALL_HINT = "install it with `sudo apt-get install -y redis-server`"

T = TypeVar("T")


class ManualClock:
    """A clock that only moves when told to: for tests of expiry and of the turn clock.

    >>> clock = ManualClock(10.0); clock.now += 5; clock()
    15.0
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


RedisServer = RedisProcess
"""A ``redis-server`` started for the tests on a loopback port, in its own directory."""


def start_redis(directory: Path) -> RedisServer:
    """A fresh redis-server on a free loopback port (stop it with ``.stop()``)."""
    server = RedisServer(find_free_port(), directory)
    try:
        server.start()
    except RuntimeError as exc:
        pytest.fail(f"{exc} ({REDIS_INSTALL_HINT})")
    return server


def make_store(
    kind: StoreKind,
    redis: RedisServer | None,
    *,
    max_games: int = 2000,
    idle_expiry_seconds: float = 3600.0,
    evict_min_idle_seconds: float = 120.0,
    max_games_per_client: int = 100_000,
    max_games_per_address: int = 100_000,
    clock: Clock | None = None,
    path: Path | None = None,
) -> SessionStore:
    """A store of ``kind`` with the given bounds (on ``clock`` if given); a SQLite store
    keeps its file at ``path``."""
    bounds: dict[str, Any] = {
        "max_games": max_games,
        "idle_expiry_seconds": idle_expiry_seconds,
        "evict_min_idle_seconds": evict_min_idle_seconds,
        "max_games_per_client": max_games_per_client,
        "max_games_per_address": max_games_per_address,
    }
    if clock is not None:
        bounds["clock"] = clock
    if kind == "memory":
        return MemoryStore(GameSession.from_dict, **bounds)
    if kind == "sqlite":
        assert path is not None, "a SQLite store needs the path of its file"
        return SqliteStore(path, GameSession.from_dict, **bounds)
    assert redis is not None
    return RedisStore.connect(redis.url, GameSession.from_dict, 2.0, **bounds)


class StoreProbe:
    """White-box access to the races of a running in-process app, whatever its store.

    Calls run on the app's event loop (through the test client's portal), where the
    store's connections live.
    """

    def __init__(self, store: SessionStore, client: TestClient) -> None:
        """Probe ``store``, which the app behind ``client`` uses."""
        self.store = store
        self.client = client

    def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """Await ``call()`` on the app's loop."""
        portal = self.client.portal
        assert portal is not None, "use the probe inside `with TestClient(app)`"

        async def wrapper() -> T:
            return await call()

        return portal.call(wrapper)

    def get(self, game_id: str) -> GameSession:
        """A copy of the stored race (change it through :meth:`edit`)."""
        session = self.run(lambda: self.store.fetch(game_id)).record
        assert session is not None, f"race {game_id} is not stored"
        return session

    @contextlib.contextmanager
    def edit(self, game_id: str) -> Iterator[GameSession]:
        """A copy of the stored race, saved back after the block, and kept as this
        process's derived copy (as a server's save keeps it): a test that sets a game
        of its own (a position its moves do not give) has the app load that game."""
        session = self.get(game_id)
        yield session

        async def save() -> None:
            async with self.store.lock(game_id) as found:
                assert found.lease is not None
                await self.store.save(session, found.lease)
            DERIVED.keep(session)

        self.run(save)


def run_sync(coroutine: Awaitable[T]) -> T:
    """Run a coroutine on a fresh loop (for a memory store used outside any app)."""

    async def wrapper() -> T:
        return await coroutine

    return asyncio.run(wrapper())
