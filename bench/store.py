"""What the store costs per move: ``python -m bench store [--races 20] [--moves 2000]``.

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
from app.storage.memory import MemoryStore
from app.storage.redis_store import RedisStore
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
