"""The migration 0004 upgrades races saved in format 2 (game, packed log, deal and moves)
to format 3 (deal and moves): each race loads as the race it was, its game and public log
now derived from its moves; a race whose moves do not give its game is left as it was and
skipped as unreadable. And the numbers format 3 stores its moves as stay what they were."""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from alembic import command
from alembic.config import Config
from record_kit import old_unpack_move
from store_kit import make_store, run_sync, start_redis

from app.races.record import (
    DERIVED,
    MOVE_KINDS,
    SESSION_FORMAT,
    GameSession,
    decode_move,
    encode_move,
    move_kind,
    move_seat,
)
from app.storage.migrations.versions.v0004_race_moves import convert
from app.storage.redis_store import RedisStore
from app.storage.saved import SAVE_FORMAT, SavedMemoryStore
from app.storage.sqlite import MIGRATIONS_DIR, SqliteStore, connect
from engine.sim import ACTIONS

FIXTURE = Path(__file__).parent / "data" / "format2_races.json"


def _fixture() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return loaded


def _file_at_0003(path: Path, races: list[dict[str, Any]]) -> None:
    """A race file as the previous version left it: schema 0003, ``races`` in its rows."""
    engine = connect(path)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0003")
        for seq, race in enumerate(races, start=1):
            conn.exec_driver_sql(
                "INSERT INTO races (id, owner, data, updated_at, seq) VALUES (?, ?, ?, ?, ?)",
                (race["id"], "client", orjson.dumps(race), time.time(), seq),
            )
    engine.dispose()


def _stored(path: Path) -> dict[str, dict[str, Any]]:
    engine = connect(path)
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT id, data FROM races").all()
    engine.dispose()
    return {str(game_id): orjson.loads(data) for game_id, data in rows}


def test_the_migration_upgrades_format_2_races(tmp_path: Path) -> None:
    fixture = _fixture()
    races, events = fixture["races"], fixture["events"]
    broken = copy.deepcopy(races[1])
    broken["id"] = "broken"
    broken["moves"] = broken["moves"][:-1]  # its moves no longer give its game
    path = tmp_path / "races.sqlite3"
    _file_at_0003(path, [*races, broken])

    store = SqliteStore(path, GameSession.from_dict, max_games=100, idle_expiry_seconds=1e9)
    asyncio.run(store.open())
    loaded = sorted(game_id for game_id, _, _ in store.rows())
    asyncio.run(store.close())
    assert loaded == sorted(race["id"] for race in races)
    assert store.skipped == 1

    stored = _stored(path)
    assert stored["broken"] == broken  # left as it was
    for race, race_events in zip(races, events, strict=True):
        upgraded = stored[race["id"]]
        assert upgraded["format"] == SESSION_FORMAT == 3
        assert not {"game", "log", "events"} & set(upgraded)
        assert ("start" in upgraded) == bool(race["config"]["lesson"])
        same = set(race) - {"format", "game", "log", "start", "moves"}
        assert same == set(upgraded) - {"format", "start", "moves"}
        assert all(upgraded[key] == race[key] for key in same)
        assert [decode_move(code) for code in upgraded["moves"]] == [
            old_unpack_move(packed) for packed in race["moves"]
        ]
        DERIVED.clear()  # derived from the deal, as a new process would
        session = GameSession.from_dict(upgraded)
        assert session.game.to_dict() == race["game"]
        assert session.events.dicts() == race_events
        assert session.dealt().to_dict() == race["start"]


def test_a_race_saved_without_its_deal_is_not_converted() -> None:
    race = _fixture()["races"][0]
    converted = convert(race)
    assert converted is not None and converted["format"] == 3
    assert convert({**race, "start": None}) is None


@pytest.mark.parametrize("index", range(4))
def test_each_converted_race_saves_again_as_it_loaded(index: int) -> None:
    race = _fixture()["races"][index]
    converted = convert(race)
    assert converted is not None
    DERIVED.clear()
    session = GameSession.from_dict(converted)
    assert orjson.loads(orjson.dumps(session.to_dict())) == converted


ACTION_TABLE = "0adeec7e7ff8452458576cd7ee3f7da220035a455bc5ca083d1bb60d25f54c32"
"""SHA-256 of the engine's action table (``engine.sim.ACTIONS``, as JSON) that stored moves
are numbered by."""


def test_the_action_table_stored_moves_are_numbered_by_is_unchanged() -> None:
    """A stored move names its action by its index in the engine's action table: a change
    of that table (another order, an action added in the middle) would replay every stored
    race wrong. Changing it needs a migration of the stored races, then a new digest here."""
    table = json.dumps([action.to_dict() for action in ACTIONS]).encode()
    assert len(ACTIONS) == 139 and hashlib.sha256(table).hexdigest() == ACTION_TABLE


def test_every_action_of_every_seat_and_kind_is_one_number_and_back() -> None:
    codes = {
        encode_move(kind, seat, action): (kind, seat, action)
        for kind in MOVE_KINDS
        for seat in range(5)
        for action in ACTIONS
    }
    assert len(codes) == 3 * 5 * len(ACTIONS) and max(codes) < 10_000
    assert all(decode_move(code) == told for code, told in codes.items())
    assert all(
        move_seat(code) == seat and move_kind(code) == kind
        for code, (kind, seat, _) in codes.items()
    )


def _loads_as_it_was(session: GameSession, race: dict[str, Any], events: Any) -> None:
    assert session.game.to_dict() == race["game"]
    assert session.events.dicts() == events


def test_redis_upgrades_format_2_races_once_when_it_opens(tmp_path: Path) -> None:
    fixture = _fixture()
    races, events = fixture["races"], fixture["events"]
    server = start_redis(tmp_path)

    async def scenario() -> None:
        older = make_store("redis", server)
        assert isinstance(older, RedisStore)
        for race in races:  # stored as an older server left them
            converted = convert(race)
            assert converted is not None
            await older.create(GameSession.from_dict(converted), "client")
            await older.redis.hset(f"zzv:game:{race['id']}", "data", orjson.dumps(race))
        await older.redis.delete("zzv:format")
        await older.close()
        DERIVED.clear()
        store = make_store("redis", server)
        assert isinstance(store, RedisStore)
        await store.open()
        for race, race_events in zip(races, events, strict=True):
            kept = orjson.loads(await store.redis.hget(f"zzv:game:{race['id']}", "data"))
            assert kept["format"] == 3 and "game" not in kept
            DERIVED.clear()
            session = (await store.fetch(race["id"])).record
            assert session is not None
            _loads_as_it_was(session, race, race_events)
        # Once: a later open finds the marker and reads no race.
        await store.redis.hset(f"zzv:game:{races[0]['id']}", "data", orjson.dumps(races[0]))
        await store.close()
        again = make_store("redis", server)
        assert isinstance(again, RedisStore)
        await again.open()
        stored = orjson.loads(await again.redis.hget(f"zzv:game:{races[0]['id']}", "data"))
        assert stored["format"] == 2
        await again.close()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_saved_races_file_of_format_2_races_loads_upgraded(tmp_path: Path) -> None:
    fixture = _fixture()
    races, events = fixture["races"], fixture["events"]
    document = {
        "format": SAVE_FORMAT,
        "races": [{"race": race, "owner": "client"} for race in races],
    }
    (tmp_path / "races.json").write_text(json.dumps(document), encoding="utf-8")
    store = SavedMemoryStore(
        tmp_path, GameSession.from_dict, max_games=100, idle_expiry_seconds=1e9
    )
    asyncio.run(store.open())
    assert store.unreadable == 0
    for race, race_events in zip(races, events, strict=True):
        DERIVED.clear()
        session = run_sync(store.fetch(race["id"])).record
        assert session is not None
        _loads_as_it_was(session, race, race_events)
