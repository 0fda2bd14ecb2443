"""What the store costs per move: ``python -m bench store [--races 20] [--moves 2000]``, and
what the default store's write-through to SQLite adds: ``python -m bench durable``.

The same seeded races are played move by move through :mod:`app.races.operations` (authenticate,
then ``play_turn`` under the race's lock, as the routes do) once on the in-memory store and
once on a Redis store (a ``redis-server`` started here on a loopback port), in this one
process with no HTTP in between. Random bots reply, so the moves cost the same on both and
the difference between the two columns is the store's own cost per move: the Redis round
trips, and encoding and decoding the race. Wall and CPU time are printed, so a machine busy
with other work can be told apart from a slow store.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from app.races.operations import SessionStore
from app.races.record import GameConfig, GameSession
from app.races.unit import Races
from app.settings import Settings
from app.storage.redis_store import RedisStore
from app.storage.sqlite import MemoryStore, SqliteStore
from bench.redis_process import RedisProcess
from bench.server import find_free_port, percentile
from engine import Action


async def _play_races(store: SessionStore, races: int, moves: int) -> list[tuple[float, float]]:
    """(wall ms, CPU ms) of each person's move over ``races`` seeded races, ``moves`` in all."""
    settings = Settings(seed_secret="bench", rate_limit_enabled=False, access_log=False)
    races_of = Races(store, settings)
    timings: list[tuple[float, float]] = []
    rng = random.Random(1)
    for race in range(races):
        config = GameConfig(players=3 + race % 3, bots="random", seed=race)
        session, state = await races_of.create(config, "bench")
        while state["current_seat"] is not None and len(timings) < moves * (race + 1) // races:
            action = Action.from_dict(rng.choice(state["legal_actions"]))
            wall, cpu = time.perf_counter(), time.process_time()
            async with races_of.open(session.id, session.token, write=True) as opened:
                state = await opened.play(state["turn"], action, since=state["event_count"])
            timings.append(
                ((time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000)
            )
    return timings


def _row(name: str, timings: list[tuple[float, float]]) -> str:
    walls = [wall for wall, _ in timings]
    cpus = [cpu for _, cpu in timings]
    return (
        f"  {name:<7}{len(timings):>7}{percentile(walls, 50):>9.2f}{percentile(walls, 99):>9.2f}"
        f"{statistics.mean(cpus):>11.2f}"
    )


def bench_store(races: int, moves: int) -> None:
    """Print the per-move cost of each store, side by side (see the module doc)."""
    memory_store: SessionStore = MemoryStore(
        GameSession.from_dict, max_games=races + 1, idle_expiry_seconds=1e9
    )
    stores: list[tuple[str, Callable[[str], SessionStore]]] = [
        ("memory", lambda _url: memory_store),
        ("redis", lambda url: RedisStore.connect(
            url, GameSession.from_dict, 2.0, max_games=races + 1, idle_expiry_seconds=1e9
        )),
    ]  # fmt: skip
    rows = []
    with tempfile.TemporaryDirectory(prefix="zzv-bench-") as folder:
        redis = RedisProcess(find_free_port(), Path(folder))
        redis.start()
        try:
            for name, build in stores:
                timings = asyncio.run(_measure(build(redis.url), races, moves))
                rows.append(_row(name, timings))
        finally:
            redis.stop()
    print(f"store cost per move: {races} seeded races, random bots, in one process, no HTTP")
    print(f"  {'store':<7}{'moves':>7}{'p50 ms':>9}{'p99 ms':>9}{'CPU ms/move':>11}")
    print("\n".join(rows))


async def _measure(store: SessionStore, races: int, moves: int) -> list[tuple[float, float]]:
    try:
        return await _play_races(store, races, moves)
    finally:
        await store.close()


# ------------------------------------------------------------------ write-through cost


def _sqlite_store(folder: Path, races: int) -> SqliteStore[GameSession]:
    return SqliteStore(
        folder / "races.sqlite3",
        GameSession.from_dict,
        max_games=races + 1,
        idle_expiry_seconds=1e9,
    )


def _write_once(store: SqliteStore[GameSession], game_id: str, owner: str, data: bytes) -> None:
    """One save's write alone: the race's row in one transaction (as ``save`` commits it)."""
    store.overwrite(game_id, data)


async def _time_writes(
    store: SqliteStore[GameSession], writes: int, off_the_loop: bool
) -> list[float]:
    """Wall ms of ``writes`` row writes, on the event loop's thread or handed to a thread."""
    rows = store.rows()
    timings = []
    for i in range(writes):
        game_id, data, owner = rows[i % len(rows)]
        started = time.perf_counter()
        if off_the_loop:
            await asyncio.to_thread(_write_once, store, game_id, owner, data)
        else:
            _write_once(store, game_id, owner, data)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


async def _durable_rounds(
    folder: Path, races: int, moves: int, rounds: int
) -> tuple[list[tuple[float, float]], list[tuple[float, float]], list[float], list[float]]:
    """Memory and SQLite moves in alternating rounds (so a busy spell hits both alike), then
    the bare row write on and off the loop."""
    memory: list[tuple[float, float]] = []
    sqlite: list[tuple[float, float]] = []
    for round_ in range(rounds):
        memory += await _play_races(
            MemoryStore(GameSession.from_dict, max_games=races + 1, idle_expiry_seconds=1e9),
            races,
            moves // rounds,
        )
        store = _sqlite_store(folder / f"round-{round_}", races)
        await store.open()
        try:
            sqlite += await _play_races(store, races, moves // rounds)
        finally:
            await store.close()
    store = _sqlite_store(folder / "writes", races)
    await store.open()
    try:
        await _play_races(store, races, races)
        inline, threaded = [], []
        for _ in range(rounds):
            inline += await _time_writes(store, moves // rounds, off_the_loop=False)
            threaded += await _time_writes(store, moves // rounds, off_the_loop=True)
    finally:
        await store.close()
    return memory, sqlite, inline, threaded


def bench_durable(races: int, moves: int, rounds: int = 4) -> None:
    """Print what the write-through costs per move: the same seeded races on the memory
    store and on the SQLite store (``app.storage.sqlite``), and one row write on the event
    loop's thread against the same write handed to a worker thread."""
    with tempfile.TemporaryDirectory(prefix="zzv-bench-") as folder:
        memory, sqlite, inline, threaded = asyncio.run(
            _durable_rounds(Path(folder), races, moves, rounds)
        )
    print(
        f"write-through cost per move: {races} seeded races, random bots, one process, no "
        f"HTTP, {rounds} alternating rounds; SQLite in WAL mode, synchronous=NORMAL"
    )
    print(f"  {'store':<7}{'moves':>7}{'p50 ms':>9}{'p99 ms':>9}{'CPU ms/move':>13}")
    print(_row("memory", memory))
    print(_row("sqlite", sqlite))
    walls = [[wall for wall, _ in timings] for timings in (memory, sqlite)]
    added = [percentile(walls[1], q) - percentile(walls[0], q) for q in (50, 99)]
    print(
        f"  added by the write-through: p50 {added[0]:.3f} ms, p99 {added[1]:.3f} ms "
        "(aim: ≤ 1 ms p50)"
    )
    print(f"one save's row write alone ({len(inline)} writes each):")
    for name, timings in (("on the loop", inline), ("to_thread", threaded)):
        print(
            f"  {name:<12} p50 {percentile(timings, 50):.3f} ms  "
            f"p99 {percentile(timings, 99):.3f} ms"
        )


# ------------------------------------------------------------------ opening a file


async def _finished_races(kinds: int) -> list[bytes]:
    """The stored JSON of ``kinds`` seeded 4-player races played to the end (random bots)."""
    store = MemoryStore(GameSession.from_dict, max_games=kinds + 1, idle_expiry_seconds=1e9)
    races_of = Races(store, Settings(seed_secret="bench", rate_limit_enabled=False))
    rng = random.Random(1)
    for seed in range(kinds):
        session, state = await races_of.create(GameConfig(players=4, bots="random", seed=seed), "b")
        while state["current_seat"] is not None:
            action = Action.from_dict(rng.choice(state["legal_actions"]))
            async with races_of.open(session.id, session.token, write=True) as opened:
                state = await opened.play(state["turn"], action, since=state["event_count"])
    return [data for _, data, _ in store.rows()]


async def _open_times(folder: Path, races: int, kinds: int, runs: int) -> list[float]:
    """Wall ms of :meth:`SqliteStore.open` on a file of ``races`` finished races (``kinds``
    distinct games, each stored under many ids: every row is read alike)."""
    stored = await _finished_races(kinds)
    store = _sqlite_store(folder, races)
    await store.open()
    for i in range(races):
        store.restore(f"bench-{i:06d}", stored[i % len(stored)], "bench")
    await store.close()
    timings = []
    for _ in range(runs):
        store = _sqlite_store(folder, races)
        started = time.perf_counter()
        await store.open()
        timings.append((time.perf_counter() - started) * 1000)
        assert len(store) == races
        await store.close()
    return timings


def bench_open(races: int, kinds: int = 20, runs: int = 3) -> None:
    """Print how long the SQLite store takes to open a file of ``races`` finished 4-player
    races (the open reads every row through ``GameSession.from_dict`` to check it), beside
    the same open of an empty file (the migration check every start pays)."""
    with tempfile.TemporaryDirectory(prefix="zzv-bench-") as folder:
        empty = asyncio.run(_open_times(Path(folder) / "empty", 0, kinds, runs))
        timings = asyncio.run(_open_times(Path(folder) / "full", races, kinds, runs))
    best, anchor = min(timings), min(empty)
    print(f"SqliteStore.open on {races} finished 4-player races ({kinds} distinct), {runs} runs")
    print(f"  best {best:.0f} ms, median {statistics.median(timings):.0f} ms")
    print(f"  an empty file, the same run: best {anchor:.0f} ms")
    print(f"  {(best - anchor) / max(races, 1):.3f} ms per race (best runs)")
