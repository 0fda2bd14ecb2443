"""The game stores, memory, Redis and the write-through SQLite file alike: idle expiry, LRU
eviction of idle games, the cap, the caps on a player's and an address's live races,
sweeping, tombstones, and no expiry or eviction during a move. On the SQLite store every
scenario ends by opening the file again in a new store, which must hold exactly the races
and tombstones the old one held."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as redis_async
from app_kit import await_until, bare_session, wait_until
from store_kit import SCENARIO_KINDS, ManualClock, RedisServer, StoreKind, make_store

from app.races.lobby import token_digest
from app.races.operations import SessionStore
from app.races.record import GameConfig, GameSession
from app.storage.interface import (
    ClientFull,
    Lease,
    LeaseLost,
    RecordHead,
    StoreFull,
    StoreUnavailable,
    Tombstone,
)
from app.storage.redis_store import RedisStore
from app.storage.saved import SavedMemoryStore
from app.storage.sqlite import MemoryStore, SqliteStore
from engine import new_game

Scenario = Callable[[SessionStore, ManualClock], Awaitable[None]]


def session(game_id: str) -> GameSession:
    """A minimal stored game."""
    return bare_session(new_game(players=3, seed=1), game_id, f"token-{game_id}")


@pytest.fixture(params=SCENARIO_KINDS)
def run(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., None]:
    """Runs a scenario against a fresh store of each kind on a manual clock (then, on the
    SQLite store, checks that the file holds what the store held)."""
    kind: StoreKind = request.param
    redis: RedisServer | None = request.getfixturevalue("fresh_redis") if kind == "redis" else None
    path = tmp_path / "races.sqlite3"

    def runner(scenario: Scenario, **bounds: Any) -> None:
        clock = ManualClock(5000.0)
        bounds.setdefault("evict_min_idle_seconds", 0.0)

        async def main() -> None:
            store = make_store(kind, redis, clock=clock, path=path, **bounds)
            await store.open()
            try:
                await scenario(store, clock)
                held = await holdings(store) if isinstance(store, SqliteStore) else None
            finally:
                await store.close()
            if held is not None:
                again = make_store(kind, None, path=path, **bounds)
                assert isinstance(again, SqliteStore)
                await again.open()
                try:
                    assert again.skipped == 0
                    assert await holdings(again) == held
                finally:
                    await again.close()

        asyncio.run(main())

    return runner


async def holdings(store: SqliteStore[GameSession]) -> tuple[Any, ...]:
    """What a SQLite store holds: its races (JSON and owner) by id, its tombstones and its
    outbox (a new store on the same file must hold the same)."""
    races = {game_id: (data, owner) for game_id, data, owner in store.rows()}
    with contextlib.closing(sqlite3.connect(store.path)) as raw:
        tombstones = sorted(raw.execute("SELECT id, digests, reason FROM tombstones"))
    return races, tombstones, await store.outbox()


async def live(store: SessionStore, *ids: str) -> set[str]:
    """Which of ``ids`` are live (looked at as a spectator: no idle clock moves)."""
    return {game_id for game_id in ids if (await store.fetch(game_id)).head is not None}


async def touch(store: SessionStore, game_id: str) -> int | None:
    """Read the race with its seat's token, as that seat's requests do (its idle clock
    moves); the seat the token opened (None once the race is gone)."""
    return (await store.fetch(game_id, token_digest(f"token-{game_id}"))).seat


async def gone(store: SessionStore, game_id: str) -> Tombstone | None:
    """What remains of ``game_id``, if it is gone."""
    found = await store.fetch(game_id)
    assert found.record is None
    return found.gone


def test_touch_keeps_a_game_alive_and_expiry_leaves_a_tombstone(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("a"), "client")
        for _ in range(5):
            clock.now += 90  # each touch keeps it alive although 450 s passed in all
            assert (await store.fetch("a")).head == RecordHead((token_digest("token-a"), "", ""))
            assert await touch(store, "a") == 0
        clock.now += 100
        assert await gone(store, "a") == Tombstone((token_digest("token-a"), "", ""))
        assert await store.count() == 0

    run(scenario, max_games=10, idle_expiry_seconds=100)


def test_reads_without_touch_do_not_move_the_idle_clock(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("a"), "client")
        for _ in range(3):
            clock.now += 40
            await store.fetch("a", "a-wrong-digest")  # a request whose token turns out wrong
            await store.fetch("a")  # a spectator
        assert await live(store, "a") == set()

    run(scenario, max_games=10, idle_expiry_seconds=100)


def test_sweep_drops_only_expired_games(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        for name in "abc":
            await store.create(session(name), "client")
            clock.now += 40
        # a put at 5000, b at 5040, c at 5080; now 5120
        assert await store.sweep() == 1  # a is 120 s idle
        assert await live(store, "a", "b", "c") == {"b", "c"}
        clock.now += 1000
        assert await store.sweep() == 2
        assert await store.count() == 0
        assert await store.sweep() == 0

    run(scenario, max_games=10, idle_expiry_seconds=100)


def test_idle_ids_lists_the_races_untouched_for_long_enough(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        for name in "abc":
            await store.create(session(name), "client")
            clock.now += 40
        # a put at 5000, b at 5040, c at 5080; now 5120
        assert await store.idle_ids(60) == ["a", "b"]
        assert await store.idle_ids(60, limit=1) == ["a"]
        assert await touch(store, "a") == 0  # a seat's read moves its idle clock
        await store.fetch("b")  # a spectator's does not
        assert await store.idle_ids(60) == ["b"]
        assert sorted(await store.idle_ids(0)) == ["a", "b", "c"]
        assert await store.count() == 3  # a look that drops nothing

    run(scenario, max_games=10, idle_expiry_seconds=1000)


def test_full_store_evicts_the_least_recently_used_idle_game(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        for name in "abc":
            await store.create(session(name), "client")
            clock.now += 50
        assert await touch(store, "a") == 0  # a is now the most recently used; b the LRU
        clock.now += 50
        await store.create(session("d"), "client")
        assert await store.count() == 3
        assert await live(store, "a", "b", "c", "d") == {"a", "c", "d"}
        assert await gone(store, "b") == Tombstone((token_digest("token-b"), "", ""))

    run(scenario, max_games=3, idle_expiry_seconds=1000, evict_min_idle_seconds=30)


def test_full_store_refuses_rather_than_evict_an_active_game(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("a"), "client")
        await store.create(session("b"), "client")
        clock.now += 10
        with pytest.raises(StoreFull):
            await store.create(session("c"), "client")
        assert await live(store, "a", "b", "c") == {"a", "b"}
        clock.now += 31
        await store.create(session("c"), "client")
        assert await store.count() == 2

    run(scenario, max_games=2, idle_expiry_seconds=1000, evict_min_idle_seconds=30)


def test_cap_holds_under_many_adds(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        for i in range(200):
            clock.now += 1
            await store.create(session(f"g{i}"), f"client-{i % 7}")
            assert await store.count() <= 50
        assert await store.count() == 50
        assert await live(store, "g199", "g0") == {"g199"}

    run(scenario, max_games=50, idle_expiry_seconds=10_000)


def players_race(game_id: str, player: int | None) -> GameSession:
    """A minimal stored game created by ``player`` (seat 0's), if any."""
    race = session(game_id)
    race.lobby.seats[0].player = player
    return race


async def finish(store: SessionStore, game_id: str) -> None:
    """Play the stored race to its end and save it, as the move that ends a race does."""
    async with store.lock(game_id) as found:
        race, lease = found.record, found.lease
        assert race is not None and lease is not None
        while not race.game.is_over:
            race.game.apply(race.game.legal_actions()[0])
        await store.save(race, lease)


async def refused(store: SessionStore, race: GameSession, owner: str) -> ClientFull:
    """The :class:`ClientFull` that creating ``race`` for ``owner`` raises; it stored
    nothing."""
    held = await store.count()
    with pytest.raises(ClientFull) as caught:
        await store.create(race, owner)
    assert await live(store, race.id) == set() and await store.count() == held
    return caught.value


def test_a_finished_race_frees_its_players_slot_at_once(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(players_race("a", 7), "10.0.0.1")
        await store.create(players_race("b", 7), "10.0.0.1")
        full = await refused(store, players_race("c", 7), "10.0.0.1")
        assert (full.limit, full.cap, full.races) == ("player", 2, ("a", "b"))
        await finish(store, "a")  # no time passes: the slot is free as the race ends
        await store.create(players_race("c", 7), "10.0.0.1")
        assert await live(store, "a", "b", "c") == {"a", "b", "c"}  # a finished race stays
        full = await refused(store, players_race("d", 7), "10.0.0.1")
        assert full.races == ("b", "c")  # the player's unfinished races, oldest first
        clock.now += 61
        await store.create(players_race("d", 7), "10.0.0.1")  # b and c expired

    run(scenario, max_games=10, idle_expiry_seconds=60, max_games_per_client=2)


def test_players_behind_one_address_each_get_races_up_to_its_ceiling(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        school = "10.0.0.1"
        for player, game_id in ((1, "p1a"), (1, "p1b"), (2, "p2a"), (2, "p2b"), (3, "p3a")):
            await store.create(players_race(game_id, player), school)
        full = await refused(store, players_race("p1c", 1), school)  # the player's cap first
        assert (full.limit, full.cap, full.races) == ("player", 2, ("p1a", "p1b"))
        full = await refused(store, players_race("p3b", 3), school)
        assert (full.limit, full.cap, full.races) == ("address", 5, ("p3a",))
        full = await refused(store, players_race("anon", None), school)
        assert (full.limit, full.cap, full.races) == ("address", 5, ())
        await store.create(players_race("p3b", 3), "10.0.0.2")  # another address: room
        await finish(store, "p2a")
        await store.create(players_race("p4a", 4), school)  # a finished race frees the address
        await refused(store, players_race("p5a", 5), school)

    run(
        scenario,
        max_games=20,
        idle_expiry_seconds=60,
        max_games_per_client=2,
        max_games_per_address=5,
    )


def test_the_race_file_keeps_whose_races_are_live_across_a_restart(tmp_path: Path) -> None:
    bounds: dict[str, Any] = {"max_games_per_client": 2, "max_games_per_address": 3}
    path = tmp_path / "races.sqlite3"

    async def main() -> None:
        first = make_store("sqlite", None, path=path, **bounds)
        await first.open()
        for game_id in ("a", "b"):
            await first.create(players_race(game_id, 7), "10.0.0.1")
        await finish(first, "a")
        await first.create(players_race("c", 8), "10.0.0.1")
        await first.close()
        again = make_store("sqlite", None, path=path, **bounds)
        await again.open()
        try:
            await again.create(players_race("d", 7), "10.0.0.1")  # a is over: not counted
            full = await refused(again, players_race("e", 7), "10.0.0.1")
            assert (full.limit, full.races) == ("player", ("b", "d"))
            full = await refused(again, players_race("f", 9), "10.0.0.1")
            assert full.limit == "address"
        finally:
            await again.close()

    asyncio.run(main())


def test_concurrent_creations_never_pass_a_cap_together(run: Any) -> None:
    """Eight creations by one player at once (on Redis their round trips interleave): the
    cap lets exactly three through, whatever the order, and refuses the rest."""

    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        races = [players_race(f"r{i}", 7) for i in range(8)]
        outcomes = await asyncio.gather(
            *(store.create(race, "10.0.0.1") for race in races), return_exceptions=True
        )
        assert [type(o).__name__ for o in outcomes].count("NoneType") == 3, outcomes
        assert all(isinstance(o, ClientFull) for o in outcomes if o is not None)
        assert await store.count() == 3

    run(scenario, max_games=20, idle_expiry_seconds=60, max_games_per_client=3)


def test_a_race_without_a_player_counts_only_against_its_address(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        for n in range(3):  # more than one player's cap: nobody's player
            await store.create(players_race(f"lesson{n}", None), "10.0.0.1")
        full = await refused(store, players_race("lesson3", None), "10.0.0.1")
        assert (full.limit, full.races) == ("address", ())
        await finish(store, "lesson0")
        await store.create(players_race("lesson3", None), "10.0.0.1")

    run(
        scenario,
        max_games=20,
        idle_expiry_seconds=60,
        max_games_per_client=1,
        max_games_per_address=3,
    )


def test_a_game_whose_move_is_in_progress_is_never_evicted_or_expired(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("busy"), "client")
        async with store.lock("busy") as found:
            assert found.lease is not None and found.record is not None
            clock.now += 500  # long past the idle expiry, but a move is in progress
            assert await store.sweep() == 0
            assert await live(store, "busy") == {"busy"}
            with pytest.raises(StoreFull):  # the only game is busy: nothing to evict
                await store.create(session("new"), "client")
            await store.save(found.record, found.lease)
        assert await live(store, "busy") == {"busy"}  # saving moved its clock

    run(scenario, max_games=1, idle_expiry_seconds=100)


def test_delete_forgets_without_a_tombstone(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("a"), "client")
        await store.wipe("a")
        await store.wipe("never-there")
        assert await gone(store, "a") is None

    run(scenario, max_games=5, idle_expiry_seconds=10)


def test_the_outbox_is_written_with_the_save_and_outlives_the_race(run: Any) -> None:
    """A save's outbox message is kept with it (not with a save whose lease is gone); no
    expiry, eviction or wipe of the race drops it; only clear_outbox does."""

    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        for game_id in ("a", "b", "c"):
            await store.create(session(game_id), "client")
        async with store.lock("a") as found:
            assert found.record is not None and found.lease is not None
            await store.save(found.record, found.lease, b'{"result":"a"}')
        async with store.lock("b") as found:
            assert found.record is not None and found.lease is not None
            stale = found.lease
            await store.save(found.record, found.lease)
            with pytest.raises(LeaseLost):  # a refused save leaves no message either
                await store.save(found.record, stale, b'{"result":"b"}')
        assert await store.outbox() == {"a": b'{"result":"a"}'}
        clock.now += 20  # past the idle expiry: every race goes
        assert await store.sweep() == 3
        await store.create(session("d"), "client")
        await store.wipe("a")
        assert await store.outbox() == {"a": b'{"result":"a"}'}
        await store.clear_outbox("a")
        await store.clear_outbox("never-there")
        assert await store.outbox() == {}
        async with store.lock("d") as found:
            assert found.record is not None and found.lease is not None
            await store.save(found.record, found.lease, b'{"result":"d"}')
        assert await store.outbox() == {"d": b'{"result":"d"}'}  # the file holds it too

    run(scenario, max_games=5, idle_expiry_seconds=10)


def test_a_redis_store_round_trips_the_session(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        original = session("a")
        original.turn = 3
        original.record_events([original.game.deal_event()])
        await store.create(original, "client")
        loaded = (await store.fetch("a")).record
        assert loaded is not None and loaded is not original
        assert loaded.to_dict() == original.to_dict()

    run(scenario, max_games=5, idle_expiry_seconds=10)


def test_memory_tombstones_are_bounded() -> None:
    clock = ManualClock(5000.0)
    store: MemoryStore[GameSession] = MemoryStore(
        GameSession.from_dict, max_games=100, idle_expiry_seconds=1, expired_memory=3, clock=clock
    )

    async def scenario() -> None:
        for i in range(10):
            await store.create(session(f"g{i}"), "client")
        clock.now += 5
        assert await store.sweep() == 10
        remembered = [i for i in range(10) if (await store.fetch(f"g{i}")).gone]
        assert len(remembered) == 3

    asyncio.run(scenario())


def _counting_reads(store: MemoryStore[GameSession]) -> list[str]:
    """The ids the store reads from now on, in order."""
    reads: list[str] = []
    read = store.read

    async def counted(game_id: str, *args: Any) -> Any:
        reads.append(game_id)
        return await read(game_id, *args)

    store.read = counted  # type: ignore[method-assign]
    return reads


def test_a_request_waiting_for_a_lock_is_woken_when_it_is_given_back_not_polled() -> None:
    """One process holds every lock of a SQLite store: a waiter tries once, sleeps until
    the holder gives the lock back, then takes it; its second try is its last however
    long the holder held on."""
    store: MemoryStore[GameSession] = MemoryStore(
        GameSession.from_dict, max_games=10, idle_expiry_seconds=60
    )

    async def scenario() -> None:
        await store.create(session("a"), "client")
        reads = _counting_reads(store)
        async with store.lock("a") as held:
            assert held.lease is not None
            waiter = asyncio.create_task(_lock_and_save(store, "a"))
            # The holder's read, then the waiter's try.
            await await_until(lambda: len(reads) >= 2, "the waiter tried the lock")
            await asyncio.sleep(0.02)  # four of the polls Redis makes, five ms apart
        await waiter
        assert reads == ["a", "a", "a"]

    asyncio.run(scenario())


def test_a_waiter_cancelled_as_it_is_woken_hands_the_lock_to_the_next() -> None:
    """Three requests queue for a race's lock; the first is cancelled in the very turn it
    is woken: the second still gets the lock at once (never only when a lease runs
    out), and so does the third after it."""
    store: MemoryStore[GameSession] = MemoryStore(
        GameSession.from_dict, max_games=10, idle_expiry_seconds=60, lock_timeout_seconds=300
    )

    async def scenario() -> None:
        await store.create(session("a"), "client")
        reads = _counting_reads(store)
        async with store.lock("a"):
            queued = [asyncio.create_task(_lock_and_save(store, "a")) for _ in range(3)]
            await await_until(lambda: len(reads) >= 4, "all three tried the lock")
        queued[0].cancel()  # its wake-up is already due: it must pass the turn on
        await asyncio.wait_for(asyncio.gather(*queued[1:]), timeout=60)
        assert queued[0].cancelled()

    asyncio.run(scenario())


async def _lock_and_save(store: SessionStore, game_id: str) -> None:
    async with store.lock(game_id) as found:
        assert found.record is not None and found.lease is not None
        await store.save(found.record, found.lease)


def test_session_dict_round_trip_continues_the_same_race() -> None:
    from app_kit import play_inline, run_bots_inline

    from app.races.operations import session_state
    from app.races.record import new_session
    from app.settings import Settings

    settings = Settings(seed_secret="store-tests")
    first = new_session(GameConfig(players=4, bots="normal", seed=5), settings)
    run_bots_inline(first)
    session_state(first)
    second = GameSession.from_dict(first.to_dict())
    assert second.to_dict() == first.to_dict()
    assert second.token == "" and "token" not in first.to_dict()
    for _ in range(6):
        action = first.game.legal_actions()[0]
        play_inline(first, action)
        play_inline(second, action)
    assert second.to_dict() == first.to_dict()
    with pytest.raises(ValueError, match="format"):
        GameSession.from_dict({**first.to_dict(), "format": 99})


def test_background_sweep_drops_expired_games_without_any_request() -> None:
    from app_kit import make_settings
    from fastapi.testclient import TestClient

    from app.main import create_app

    clock = ManualClock(5000.0)
    store: MemoryStore[GameSession] = MemoryStore(
        GameSession.from_dict, max_games=10, idle_expiry_seconds=60, clock=clock
    )
    app = create_app(make_settings(sweep_interval_seconds=0.05), store=store)
    with TestClient(app) as client:
        assert client.post("/api/games", json={"bots": "random"}).status_code == 201
        assert len(store) == 1
        clock.now += 61
        wait_until(lambda: len(store) == 0, "the sweep removing the idle race", 5)


def test_an_unreachable_redis_is_a_counted_store_error() -> None:
    """Nothing listens on the port: every operation raises StoreUnavailable (the routes'
    503) and the ``zzv_store_errors`` metric counts it by operation."""
    from app.metrics import STORE_ERRORS
    from app.storage.redis_store import RedisStore
    from bench.server import find_free_port

    def failures(operation: str) -> float:
        return float(STORE_ERRORS.labels(operation=operation)._value.get())

    async def scenario() -> None:
        store = RedisStore.connect(
            f"redis://127.0.0.1:{find_free_port()}/0",
            GameSession.from_dict,
            0.5,
            max_games=10,
            idle_expiry_seconds=60,
        )
        before = failures("ping"), failures("read")
        with pytest.raises(StoreUnavailable):
            await store.ping()
        with pytest.raises(StoreUnavailable):
            await store.fetch("some-race")
        assert (failures("ping"), failures("read")) == (before[0] + 1, before[1] + 1)
        await store.close()

    asyncio.run(scenario())


def test_every_store_hands_out_copies(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("a"), "client")
        first = (await store.fetch("a")).record
        assert first is not None
        first.turn = 99  # a request's change to its copy...
        again = (await store.fetch("a")).record
        assert again is not None and again.turn == 0  # ...is not stored until it saves

    run(scenario, max_games=5, idle_expiry_seconds=100)


def test_a_save_needs_the_current_lease(run: Any) -> None:
    """A save carrying a lease that is not the race's current one is refused and writes
    nothing, and the lease is spent once its save gave the lock back."""

    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("a"), "client")
        async with store.lock("a") as found:
            assert found.record is not None and found.lease is not None
            found.record.turn = 1
            with pytest.raises(LeaseLost):
                await store.save(found.record, Lease("a", "someone-else"))
            await store.save(found.record, found.lease)
            found.record.turn = 2
            with pytest.raises(LeaseLost):  # the first save gave the lock back
                await store.save(found.record, found.lease)
        stored = (await store.fetch("a")).record
        assert stored is not None and stored.turn == 1

    run(scenario, max_games=5, idle_expiry_seconds=100)


def test_a_digest_that_opens_no_seat_reads_no_race_and_takes_no_lock(run: Any) -> None:
    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("a"), "client")
        assert (await store.fetch("a", "wrong")).record is None
        async with store.lock("a", "wrong") as found:
            assert found.record is None and found.lease is None and found.head is not None
            async with store.lock("a", token_digest("token-a")) as mine:  # not held: free
                assert mine.seat == 0 and mine.lease is not None

    run(scenario, max_games=5, idle_expiry_seconds=100)


def test_a_race_its_seat_reads_outlives_the_sweep(run: Any) -> None:
    """A seat's reads keep a race alive through the sweep, not only through later reads
    (on Redis a read moves the race's own last use, not the shared LRU set)."""

    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        await store.create(session("read"), "client")
        await store.create(session("idle"), "client")
        clock.now += 80
        assert await touch(store, "read") == 0
        clock.now += 80  # 160 s since either was saved, 80 s since "read" was read
        assert await store.sweep() == 1
        assert await live(store, "read", "idle") == {"read"}
        clock.now += 100
        assert await store.sweep() == 1
        assert await store.count() == 0

    run(scenario, max_games=10, idle_expiry_seconds=100)


def test_eviction_finds_the_least_recently_used_among_many_read_races(run: Any) -> None:
    """Thirty races, all read by their seats after they were saved except one in the
    middle: that one is the least recently used and the one a full store evicts."""

    async def scenario(store: SessionStore, clock: ManualClock) -> None:
        names = [f"g{i}" for i in range(30)]
        for name in names:
            await store.create(session(name), "client")
            clock.now += 1
        clock.now += 100
        for name in names:
            if name != "g17":
                clock.now += 1
                assert await touch(store, name) == 0
        clock.now += 100
        await store.create(session("new"), "client")
        assert await live(store, *names, "new") == {*names, "new"} - {"g17"}
        assert await gone(store, "g17") is not None

    run(scenario, max_games=30, idle_expiry_seconds=10_000, evict_min_idle_seconds=30)


def redis_store_on(server: RedisServer, clock: ManualClock, **bounds: Any) -> SessionStore:
    """A Redis store on ``server`` with the scenarios' bounds, on ``clock``."""
    return make_store("redis", server, clock=clock, **bounds)


def commands_run(server: RedisServer, work: Callable[[], Awaitable[None]]) -> Counter[str]:
    """The Redis commands ``work`` runs, by name, the ones inside scripts included (``INFO
    commandstats``; the counting's own ``CONFIG``/``INFO`` and a new connection's ``CLIENT
    SETINFO`` left out)."""
    import redis as redis_sync

    counter = redis_sync.Redis.from_url(server.url)
    try:
        counter.config_resetstat()
        asyncio.run(work())
        stats = counter.info("commandstats")
    finally:
        counter.close()
    return Counter(
        {
            name.removeprefix("cmdstat_"): int(entry["calls"])
            for name, entry in stats.items()
            if name.split("|")[0] not in ("cmdstat_config", "cmdstat_info", "cmdstat_client")
        }
    )


def test_a_seats_read_is_one_script_of_three_commands_and_a_move_two_of_nine(
    fresh_redis: RedisServer,
) -> None:
    """One script per request: a seat's read is the script, the race's fields and the
    move of its idle clock; a move's lock-and-read and its fenced save are two scripts,
    the save announcing the change to the live channel itself (issue 18's budget: at most
    4 commands per view, 10 per move), and a subscriber hears it."""
    clock = ManualClock(5000.0)
    digest = token_digest("token-a")
    heard: list[Any] = []

    def store_of() -> SessionStore:
        return RedisStore.connect(
            fresh_redis.url, GameSession.from_dict, 2.0, max_games=10,
            idle_expiry_seconds=3600, clock=clock, announce="zzv:live:",
        )  # fmt: skip

    async def prepare() -> None:
        store = store_of()
        await store.create(session("a"), "client")
        await store.fetch("a", digest)  # the scripts are loaded before counting
        async with store.lock("a", digest) as found:
            assert found.record is not None and found.lease is not None
            await store.save(found.record, found.lease)
        await store.close()

    async def read() -> None:
        store = store_of()
        assert (await store.fetch("a", digest)).seat == 0
        await store.close()

    async def move() -> None:
        store = store_of()
        listener = redis_async.Redis.from_url(fresh_redis.url).pubsub()
        await listener.subscribe("zzv:live:a")
        async with store.lock("a", digest) as found:
            assert found.record is not None and found.lease is not None
            found.record.turn = 1
            await store.save(found.record, found.lease)
        deadline = time.monotonic() + 10
        while not heard and time.monotonic() < deadline:  # the first reply is the subscribe's
            message = await listener.get_message(ignore_subscribe_messages=True, timeout=1)
            if message is not None:
                heard.append(message)
        await listener.aclose()
        await store.close()

    asyncio.run(prepare())
    assert commands_run(fresh_redis, read) == {"evalsha": 1, "hmget": 1, "hset": 1}
    counted = commands_run(fresh_redis, move)
    assert counted.pop("subscribe") == 1  # the listener's own
    assert counted["evalsha"] == 2 and counted.total() == 9, counted
    assert [message["data"] for message in heard] == [b"1"]


def test_a_redis_store_sends_its_scripts_again_after_the_server_forgot_them(
    fresh_redis: RedisServer,
) -> None:
    """The store runs its scripts by SHA1; after ``SCRIPT FLUSH`` (as after a Redis
    restart without persistence of scripts) the next read and the next move load them
    again and still work, and the move is kept."""
    import redis as redis_sync

    digest = token_digest("token-a")

    async def scenario() -> None:
        store = RedisStore.connect(
            fresh_redis.url, GameSession.from_dict, 2.0, max_games=10, idle_expiry_seconds=3600
        )
        await store.create(session("a"), "client")
        assert (await store.fetch("a", digest)).seat == 0
        admin = redis_sync.Redis.from_url(fresh_redis.url)
        admin.script_flush()
        assert (await store.fetch("a", digest)).seat == 0
        admin.script_flush()
        async with store.lock("a", digest) as found:
            assert found.record is not None and found.lease is not None
            found.record.turn = 7
            await store.save(found.record, found.lease)
        admin.close()
        reread = await store.fetch("a", digest)
        assert reread.record is not None and reread.record.turn == 7
        await store.close()

    asyncio.run(scenario())


def test_a_redis_race_saved_without_its_own_idle_clock_expires_by_the_lru_set(
    fresh_redis: RedisServer,
) -> None:
    """A race written by a server from before the hash held ``seen`` is still kept alive
    and expired by its LRU entry."""
    import redis as redis_sync

    clock = ManualClock(5000.0)

    async def create() -> None:
        store = redis_store_on(fresh_redis, clock, idle_expiry_seconds=100)
        await store.create(session("old"), "client")
        await store.close()

    asyncio.run(create())
    raw = redis_sync.Redis.from_url(fresh_redis.url)
    try:
        raw.hdel("zzv:game:old", "seen")
    finally:
        raw.close()

    async def later() -> None:
        store = redis_store_on(fresh_redis, clock, idle_expiry_seconds=100)
        clock.now += 60
        assert await live(store, "old") == {"old"}
        clock.now += 60
        assert await gone(store, "old") is not None
        await store.close()

    asyncio.run(later())


def test_a_redis_race_whose_head_predates_live_counts_until_its_next_save(
    fresh_redis: RedisServer,
) -> None:
    """A race written by a server from before heads said whether the race is on counts as
    live (its address's cap) until a save writes its head again."""
    import redis as redis_sync

    clock = ManualClock(5000.0)
    bounds: dict[str, Any] = {"max_games_per_address": 1}

    async def create() -> None:
        store = redis_store_on(fresh_redis, clock, **bounds)
        await store.create(session("old"), "10.0.0.1")
        await store.close()

    asyncio.run(create())
    raw = redis_sync.Redis.from_url(fresh_redis.url)
    try:
        head = RecordHead.from_json(raw.hget("zzv:game:old", "head"))
        raw.hset("zzv:game:old", "head", json.dumps([list(head.digests), None]))
    finally:
        raw.close()

    async def later() -> None:
        store = redis_store_on(fresh_redis, clock, **bounds)
        full = await refused(store, session("new"), "10.0.0.1")
        assert full.limit == "address"
        await finish(store, "old")
        await store.create(session("new"), "10.0.0.1")
        await store.close()

    asyncio.run(later())


def test_a_memory_store_saved_on_a_graceful_stop_keeps_its_outbox(tmp_path: Path) -> None:
    def store() -> SavedMemoryStore[GameSession]:
        return SavedMemoryStore(
            tmp_path, GameSession.from_dict, max_games=5, idle_expiry_seconds=60
        )

    async def scenario() -> None:
        first = store()
        await first.open()
        await first.create(session("a"), "client")
        async with first.lock("a") as found:
            assert found.record is not None and found.lease is not None
            await first.save(found.record, found.lease, b'{"result":"a"}')
        await first.close()
        second = store()
        await second.open()
        assert await second.outbox() == {"a": b'{"result":"a"}'}
        await second.close()

    asyncio.run(scenario())
