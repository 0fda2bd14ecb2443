"""The write-through SQLite store beyond the shared store scenarios: what a new process finds
in the file (races at their turn, tombstones, an unreadable row skipped), the file's journal
mode, the migrations against the schema a database in memory gets, and the store the
settings choose by default."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from app_kit import bare_session, bearer, create, make_settings, move
from fastapi.testclient import TestClient
from store_kit import ManualClock

from app.backup import RACE_FILE, build_store
from app.main import create_app
from app.races.lobby import token_digest
from app.races.record import GameSession
from app.storage.interface import StoreUnavailable, Tombstone
from app.storage.saved import SavedMemoryStore
from app.storage.sqlite import SCHEMA, MemoryStore, SqliteStore, connect, migrate
from engine import new_game


def store_on(path: Path, clock: ManualClock | None = None, **bounds: Any) -> SqliteStore[Any]:
    """A SQLite store on ``path`` with roomy bounds unless told otherwise."""
    bounds = {"max_games": 100, "idle_expiry_seconds": 100.0, **bounds}
    if clock is not None:
        bounds["clock"] = clock
    return SqliteStore(path, GameSession.from_dict, **bounds)


def session(game_id: str) -> GameSession:
    """A minimal race whose seat 0 opens with the token ``token-<id>``."""
    return bare_session(new_game(players=3, seed=1), game_id, f"token-{game_id}")


def test_a_new_store_on_the_file_continues_every_race_from_its_turn(tmp_path: Path) -> None:
    path = tmp_path / "races.sqlite3"

    async def first() -> None:
        store = store_on(path)
        await store.open()
        for name in "abc":
            await store.create(session(name), "client")
        async with store.lock("b") as found:
            assert found.record is not None and found.lease is not None
            found.record.turn = 7
            await store.save(found.record, found.lease)
        # no close: the process is killed here

    async def second() -> None:
        store = store_on(path)
        await store.open()
        assert await store.count() == 3
        found = await store.fetch("b", token_digest("token-b"))
        assert found.record is not None and found.record.turn == 7 and found.seat == 0
        await store.close()

    asyncio.run(first())
    asyncio.run(second())


def test_expired_evicted_and_wiped_races_stay_gone_in_a_new_store(tmp_path: Path) -> None:
    path = tmp_path / "races.sqlite3"
    clock = ManualClock(5000.0)

    async def first() -> None:
        store = store_on(path, clock, max_games=2, evict_min_idle_seconds=0.0)
        await store.open()
        await store.create(session("old"), "client")
        clock.now += 10
        await store.create(session("wiped"), "client")
        await store.create(session("new"), "client")  # full: "old" is evicted
        await store.wipe("wiped")
        clock.now += 100
        await store.fetch("new")  # "new" is found expired on the way: gone too

    async def second() -> None:
        store = store_on(path)
        await store.open()
        assert await store.count() == 0
        assert (await store.fetch("old")).gone == Tombstone((token_digest("token-old"), "", ""))
        assert (await store.fetch("new")).gone is not None
        assert (await store.fetch("wiped")).gone is None
        await store.close()

    asyncio.run(first())
    asyncio.run(second())


def test_an_unreadable_row_is_skipped_counted_and_logged_and_the_rest_load(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "races.sqlite3"

    async def fill() -> None:
        store = store_on(path)
        await store.open()
        for name in "abcde":
            await store.create(session(name), "client")
        await store.close()

    asyncio.run(fill())
    with sqlite3.connect(path) as raw:
        raw.execute("UPDATE races SET data = ? WHERE id = 'c'", (b'{"format": 99}',))
        raw.execute("UPDATE races SET data = ? WHERE id = 'd'", (b"\x00not json",))

    async def reopen() -> tuple[list[str], int]:
        store = store_on(path)
        await store.open()
        loaded = sorted(game_id for game_id, _, _ in store.rows())
        await store.close()
        return loaded, store.skipped

    with caplog.at_level(logging.ERROR, logger="zzv.store"):
        loaded, skipped = asyncio.run(reopen())
    assert loaded == ["a", "b", "e"]
    assert skipped == 2
    skipped = [
        r for r in caplog.records if r.getMessage() == "a stored race is unreadable; skipped"
    ]
    assert sorted(r.__dict__["game_id"] for r in skipped) == ["c", "d"]
    with sqlite3.connect(path) as raw:  # kept in the file for whoever can read them later
        assert raw.execute("SELECT count(*) FROM races").fetchone() == (5,)


def test_the_race_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    async def scenario() -> dict[str, int]:
        store = store_on(tmp_path / "races.sqlite3")
        await store.open()
        await store.create(session("a"), "client")
        modes = {path.name: path.stat().st_mode & 0o777 for path in tmp_path.iterdir()}
        await store.close()
        return modes

    modes = asyncio.run(scenario())
    assert modes == dict.fromkeys(
        ["races.sqlite3", "races.sqlite3-wal", "races.sqlite3-shm"], 0o600
    )


def test_the_file_is_in_wal_mode_with_normal_sync(tmp_path: Path) -> None:
    engine = connect(tmp_path / "races.sqlite3")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    engine.dispose()


def schema_of(conn: sqlite3.Connection) -> dict[str, Any]:
    """Each table's columns (name, type, not null, default, key) and indexes (name, unique,
    columns), as SQLite describes them."""
    tables = [
        name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    ]
    found = {}
    for table in tables:
        if table == "alembic_version":
            continue
        columns = [row[1:] for row in conn.execute(f"PRAGMA table_info({table})")]
        indexes = sorted(
            (name, unique, [c[2] for c in conn.execute(f"PRAGMA index_info({name})")])
            for _, name, unique, *_ in conn.execute(f"PRAGMA index_list({table})")
        )
        found[table] = (columns, indexes)
    return found


def test_the_migrations_build_exactly_the_schema(tmp_path: Path) -> None:
    engine = connect(tmp_path / "races.sqlite3")
    migrate(engine)
    migrate(engine)  # a second upgrade finds nothing to do
    with engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").all() == [("0004",)]
    engine.dispose()
    memory = sqlite3.connect(":memory:")
    memory.executescript(SCHEMA)
    with contextlib.closing(sqlite3.connect(tmp_path / "races.sqlite3")) as migrated:
        assert schema_of(migrated) == schema_of(memory) and set(schema_of(memory)) == {
            "races",
            "tombstones",
            "outbox",
        }
    memory.close()


def test_the_default_store_is_the_race_file_in_the_data_folder(tmp_path: Path) -> None:
    store = build_store(make_settings(durable=True, data_dir=tmp_path))
    assert isinstance(store, SqliteStore) and store.path == tmp_path / RACE_FILE
    elsewhere = build_store(make_settings(durable=True))
    assert isinstance(elsewhere, SqliteStore)
    # tests/conftest.py points the user's data folder at a temporary one
    assert elsewhere.path.is_relative_to(Path(os.environ["XDG_DATA_HOME"]))
    assert type(build_store(make_settings(durable=False))) is MemoryStore
    saved = build_store(make_settings(durable=False, data_dir=tmp_path))
    assert isinstance(saved, SavedMemoryStore)


def test_an_api_race_continues_in_a_new_app_on_the_same_file(tmp_path: Path) -> None:
    """A race played through the API continues from its turn in a new app on the race
    file (the settings' default store); a race that expired before answers 410."""
    settings = make_settings(durable=True, data_dir=tmp_path, idle_expiry_seconds=600)
    clock = ManualClock()
    store = store_on(tmp_path / RACE_FILE, clock, idle_expiry_seconds=600)
    with TestClient(create_app(settings, store=store)) as client:
        gone_id, gone_token, _ = create(client, bots="random", seed=4)
        clock.now += 601
        assert client.get(f"/api/games/{gone_id}", headers=bearer(gone_token)).status_code == 410
        game_id, token, state = create(client, bots="random", seed=3)
        for _ in range(3):
            answered = move(client, game_id, token, state["turn"], state["legal_actions"][0])
            assert answered.status_code == 200, answered.text
            state = answered.json()
    with TestClient(create_app(settings)) as again:
        found = again.get(f"/api/games/{game_id}", headers=bearer(token))
        assert found.status_code == 200
        assert found.json()["turn"] == state["turn"] == 3
        assert found.json()["legal_actions"] == state["legal_actions"]
        assert again.get(f"/api/games/{gone_id}", headers=bearer(gone_token)).status_code == 410
        answered = move(again, game_id, token, 3, state["legal_actions"][0])
        assert answered.status_code == 200, answered.text


def test_a_write_the_file_refuses_is_a_503_and_the_race_stays_as_it_was(tmp_path: Path) -> None:
    """The race file refuses the move's write (a trigger behind the store's back refuses
    every change to a race):
    the move answers 503 with a sentence, the race is still at its turn, the failure is
    counted, and the race's lock was given back."""
    from app.metrics import STORE_ERRORS

    def failures() -> float:
        return float(STORE_ERRORS.labels(operation="write")._value.get())

    settings = make_settings(durable=True, data_dir=tmp_path)
    with TestClient(create_app(settings)) as client:
        game_id, token, state = create(client, bots="random", seed=3)
        with sqlite3.connect(tmp_path / RACE_FILE) as raw:
            raw.execute(
                "CREATE TRIGGER refuse BEFORE UPDATE ON races BEGIN"
                " SELECT RAISE(ABORT, 'refused'); END"
            )
        before = failures()
        refused = move(client, game_id, token, state["turn"], state["legal_actions"][0])
        assert refused.status_code == 503, refused.text
        assert refused.json()["message"].endswith(".")
        assert failures() == before + 1
        found = client.get(f"/api/games/{game_id}", headers=bearer(token))
        assert found.status_code == 200 and found.json()["turn"] == state["turn"]
        again = move(client, game_id, token, state["turn"], state["legal_actions"][0])
        assert again.status_code == 503  # not a lock held for ever: the same refusal


def test_the_file_keeps_only_the_tombstones_memory_can_hold(tmp_path: Path) -> None:
    path = tmp_path / "races.sqlite3"
    clock = ManualClock(5000.0)
    stamps = iter(range(1, 100))

    async def scenario() -> None:
        store = SqliteStore(
            path,
            GameSession.from_dict,
            wall_clock=lambda: float(next(stamps)),
            max_games=100,
            idle_expiry_seconds=10.0,
            expired_memory=3,
            clock=clock,
        )
        await store.open()
        for name in "abcde":
            await store.create(session(name), "client")
            clock.now += 1
        clock.now += 4
        for _ in "abcde":  # one expires at each step, each written with its own stamp
            clock.now += 1
            assert await store.sweep() == 1
        await store.close()
        again = store_on(path, expired_memory=3)
        await again.open()
        await again.close()

    asyncio.run(scenario())
    with sqlite3.connect(path) as raw:
        assert sorted(raw.execute("SELECT id FROM tombstones").fetchall()) == [
            ("c",),
            ("d",),
            ("e",),
        ]


def test_a_store_nobody_opened_opens_its_file_on_first_use_and_stays_closed_after_close(
    tmp_path: Path,
) -> None:
    path = tmp_path / "races.sqlite3"

    async def scenario() -> None:
        store = store_on(path)  # an app served without its lifespan never calls open()
        await store.create(session("a"), "client")
        await store.close()
        with pytest.raises(StoreUnavailable):
            await store.create(session("b"), "client")
        again = store_on(path)
        await again.open()
        assert [game_id for game_id, _, _ in again.rows()] == ["a"]
        await again.close()

    asyncio.run(scenario())


def test_the_checkpoint_a_stop_begins_with_leaves_the_races_in_the_main_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "races.sqlite3"

    async def scenario() -> None:
        store = store_on(path)
        await store.open()
        await store.create(session("a"), "client")
        await store.checkpoint()
        with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as raw:
            # immutable: the main file alone, the write-ahead log unread
            assert raw.execute("SELECT id FROM races").fetchall() == [("a",)]
        await store.close()

    asyncio.run(scenario())


def test_an_upgrade_takes_over_the_races_an_older_server_saved_on_its_stop(
    tmp_path: Path,
) -> None:
    """A data folder holding ``races.json`` from a server without the race file (the
    memory store saved on its last graceful stop): the first start on the race file keeps
    every one of those races, and a second start does not take them again."""

    async def older_server() -> None:
        saved = SavedMemoryStore(
            tmp_path, GameSession.from_dict, max_games=10, idle_expiry_seconds=100
        )
        await saved.open()
        for name in "ab":
            await saved.create(session(name), "client")
        async with saved.lock("b") as found:
            assert found.record is not None and found.lease is not None
            found.record.turn = 4
            await saved.save(found.record, found.lease)
        await saved.close()

    async def upgraded(expected: int) -> None:
        store = store_on(tmp_path / "races.sqlite3")
        await store.open()
        assert await store.count() == expected
        found = await store.fetch("b", token_digest("token-b"))
        assert found.record is not None and found.record.turn == 4
        await store.close()

    asyncio.run(older_server())
    assert (tmp_path / "races.json").is_file()
    asyncio.run(upgraded(2))
    assert not (tmp_path / "races.json").exists()
    assert (tmp_path / "races.json.imported").is_file()
    asyncio.run(upgraded(2))  # from the race file alone now
