"""Benchmarks that print figures (never asserts): memory per stored game and a load test.

``python -m bench memory [--games 100] [--cap 100]``
    Bytes per stored game (fresh, mid-race, finished), measured with tracemalloc on real
    sessions played with the normal bots; then fills a capped store with 5x its cap and
    shows the number of games and the memory stay flat.

``python -m bench load [--players 100] [--duration 30] [--think 1.0] [--bots normal]``
    Starts a real uvicorn on 127.0.0.1 (free port, rate limits off), runs N concurrent
    players that each create races and play them to the end over HTTP, with a think time
    between moves, for a bounded duration; prints moves/s, p50/p90/p99/max latency of a
    human move (bots' replies included), creation latency and errors; stops the server.

``python -m bench weight [--races 3] [--bots normal]``
    Bytes on the wire per move of whole races at 3 and 5 players, with and without
    JavaScript, compressed and not (see :mod:`bench.weight`).

``python -m bench languages [--renders 40] [--moves 6]``
    A table's bytes and render time in every shipped language beside English's (see
    :mod:`bench.languages`).

``python -m bench load --compare --players 200 [--duration 30]``
    The same load three times: memory store with 1 worker, Redis with 1 worker, Redis with
    2 workers, on a fresh ``redis-server`` it starts on a loopback port, side by side.

``python -m bench hardload [--hard 40] [--normal 20] [--duration 30] [--think 1.0]``
    The same against races with hard bots and with normal bots at once: move latency
    p50/p99 per level, and from the server's debug lines the rollouts of every hard search
    (median, zero-rollout and near-empty searches counted), budgets and queue waits.
``python -m bench friends [--races 50] [--duration 30] [--think 0.5] [--talk 2]``
    Two-person races on live event streams (:mod:`bench.friends`): move-to-other-table
    latency p50/p99 and errors.

``python -m bench open [--races 2000]``
    How long the SQLite store takes to open a file of that many finished 4-player races
    (every row is checked through ``GameSession.from_dict``; :mod:`bench.store`).

``python -m bench bots [--positions 30] [--budget-ms 200]``
    The hard bot's rollouts per decision on the wall clock, one process and two through
    the server's worker pool (:mod:`bench.bots`).

``python -m bench rollouts [--baseline REV] [--runs 3] [--positions 30] [--budget-ms 200]``
    Rollouts a real hard-bot search of that much CPU holds, this checkout against a
    baseline revision in one run, builds taking turns (:mod:`bench.rollouts`).

``python -m bench review [--reviews 10] [--players 20] [--think 0.5]``
    The time of an after-race review of a finished 4-player race, and normal-move latency
    while that many reviews run at once (:mod:`bench.review`).

``python -m bench tournament --jobs 2 [the options of python -m bench.tournament]``
    The bot tournament with its games on a process pool (:mod:`bench.tournament_run`).

``python -m bench ratings [--games 200] [--jobs 1]``
    The bot levels' ratings from four-level games, as the server would rate them
    (:mod:`bench.ratings`; docs/ratings.md).

``python -m bench daily-board [--entries 1000,10000] [--views 20] [--database-url URL]``
    One view of ``/daily``'s board (the head, the count, the player's own result) as a day
    fills up, beside ranking every row in Python (:mod:`bench.daily_board`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bots.runner import HUMAN_SEAT, STARVED_ROLLOUTS, BotRunner
from app.races.operations import play, session_state
from app.races.record import DERIVED, DERIVED_LIMIT, GameConfig, GameSession, new_session
from app.settings import Settings
from app.storage.sqlite import MemoryStore
from bench import bots as bench_bots
from bench import daily_board as bench_daily_board
from bench import friends as bench_friends
from bench import languages as bench_languages
from bench import ratings as bench_ratings
from bench import review as bench_review
from bench import rollouts as bench_rollouts
from bench import tournament_run as bench_tournament
from bench import weight as bench_weight
from bench.redis_process import RedisProcess
from bench.server import (
    find_free_port,
    percentile,
    scratch_data_dir,
    stop_server,
    uvicorn_command,
    wait_until_healthy,
)
from engine import game as engine_game
from engine import sim as engine_sim
from engine.bots import BOT_LEVELS

# ------------------------------------------------------------------ memory


def _play(session: GameSession, rng: random.Random, human_moves: int | None) -> None:
    """Advance ``session`` by random human moves (all of them when None), each with the
    bots' replies, through the domain's own :func:`~app.races.operations.play`."""
    runner = BotRunner()

    async def moves() -> None:
        done = 0
        while not session.game.is_over and (human_moves is None or done < human_moves):
            action = rng.choice(session.game.legal_actions())
            await play(session, HUMAN_SEAT, action, time.time(), runner)
            session_state(session)
            done += 1

    asyncio.run(moves())


def _drop_engine_cache() -> int:
    """Empty the engine's shared legal-action caches (the core's legal sets and the checked
    game's listings of them); return how many legal sets the core's held.

    Those caches are process-wide (small by construction, never evicted) and not part of any
    game, so they are emptied before each reading to count stored games only; they refill as
    games are played.
    """
    held = len(engine_sim.LEGAL_CACHE)
    engine_sim.LEGAL_CACHE.clear()
    engine_game._LISTED.clear()
    return held


def _started(config: GameConfig, settings: Settings) -> GameSession:
    """A new race with the bots' opening moves played (as
    :func:`app.races.operations.begin` does when a race starts)."""
    session = new_session(config, settings)
    asyncio.run(BotRunner().run_bots(session))
    session_state(session)
    return session


def _saved_bytes(session: GameSession) -> tuple[int, int]:
    """JSON bytes of the race as a store keeps it (``GameSession.to_dict``: settings, deal,
    seats and moves), and the same with the game and the event log (one object per event)
    saved beside them, as the records before format 3 kept them."""
    saved = session.to_dict()
    now = len(json.dumps(saved, separators=(",", ":")))
    both = {**saved, "game": session.game.to_dict(), "events": session.events.dicts()}
    return now, len(json.dumps(both, separators=(",", ":")))


def _measure(
    count: int, stage: str, settings: Settings, rng: random.Random
) -> tuple[float, float, tuple[float, float]]:
    """Average traced bytes, events and saved JSON bytes (now, with the game and log) per
    session for ``count`` sessions at ``stage``."""
    moves = {"fresh": 0, "mid": 12, "finished": None}[stage]
    _drop_engine_cache()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = []
    for i in range(count):
        players = 3 + i % 3
        session = _started(GameConfig(players=players, bots="normal"), settings)
        _play(session, rng, moves)
        kept.append(session)
    _drop_engine_cache()
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    stats = after.compare_to(before, "filename")
    grown = sum(stat.size_diff for stat in stats if "tracemalloc" not in stat.traceback[0].filename)
    events = statistics.mean(len(s.events) for s in kept)
    saved = [_saved_bytes(s) for s in kept]
    return (
        grown / count,
        events,
        (statistics.mean(n for n, _ in saved), statistics.mean(o for _, o in saved)),
    )


def bench_memory(games: int, cap: int) -> None:
    """Print bytes per stored game and show the cap bounding the store."""
    settings = Settings(access_log=False, rate_limit_enabled=False)
    rng = random.Random(1)
    # Warm the engine's bounded legal-action cache so it is not billed to the first games.
    for _ in range(40):
        _play(_started(GameConfig(bots="normal"), settings), rng, None)
    print(f"memory per stored game ({games} sessions each, normal bots, 3-5 players)")
    for stage in ("fresh", "mid", "finished"):
        per_game, events, (saved, old) = _measure(games, stage, settings, rng)
        print(
            f"  {stage:<9} {per_game / 1024:7.1f} KiB/game   ({events:5.1f} events kept; "
            f"saved {saved / 1024:.1f} KiB, {old / 1024:.1f} KiB with its game and log)"
        )

    print(f"cap: a store of max_games={cap}, filled with {5 * cap} finished races")
    store: MemoryStore[GameSession] = MemoryStore(
        GameSession.from_dict, max_games=cap, idle_expiry_seconds=1e9, evict_min_idle_seconds=0
    )
    _drop_engine_cache()
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(1, 5 * cap + 1):
        session = _started(GameConfig(players=3 + i % 3, bots="normal"), settings)
        _play(session, rng, None)
        asyncio.run(store.create(session, "bench"))
        DERIVED.keep(session)  # as a worker's save (app.races.unit.Races) keeps its copy
        if i % cap == 0:
            cached = _drop_engine_cache()
            gc.collect()
            # The races' rows are SQLite's own memory, which tracemalloc does not see.
            used = tracemalloc.get_traced_memory()[0] - base + store.size()
            print(
                f"  after {i:6d} races: {len(store):5d} stored, "
                f"{used / 1024 / 1024:7.2f} MiB traced and in SQLite "
                f"({used / max(1, len(store)) / 1024:.1f} KiB/stored game; "
                f"engine cache held {cached} entries; {len(DERIVED.ids())} races' derived copies)"
            )
    tracemalloc.stop()
    print(
        "  the store never holds more than max_games; the worker's derived copies of races "
        f"(app.races.record.DERIVED, at most {DERIVED_LIMIT}) come on top of it"
    )


# ------------------------------------------------------------------ load


@dataclass
class LoadStats:
    """What the load test collected."""

    move_ms: list[float] = field(default_factory=list)
    create_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0

    def error(self, kind: str) -> None:
        """Count one error of ``kind``."""
        self.errors[kind] = self.errors.get(kind, 0) + 1


def _start_server(
    port: int,
    players: int,
    env: dict[str, str] | None = None,
    output: Any = None,
    workers: int = 1,
) -> subprocess.Popen[bytes]:
    """A uvicorn of ``workers`` processes on 127.0.0.1:``port`` for ``players`` (``env`` over
    the bench's defaults; its stderr to ``output`` if given); waits until it answers
    ``/healthz``."""
    full_env = {
        **os.environ,
        "ZZV_RATE_LIMIT_ENABLED": "false",  # every simulated player shares 127.0.0.1
        "ZZV_MAX_GAMES_PER_CLIENT": str(max(2000, players * 20)),
        "ZZV_ACCESS_LOG": "false",
        "ZZV_MAX_GAMES": str(max(2000, players * 20)),
        "ZZV_LOG_LEVEL": "warning",
        "ZZV_DATA_DIR": scratch_data_dir(),
        **(env or {}),
    }
    command = uvicorn_command(
        port, "--no-access-log", "--log-level", "warning", "--timeout-graceful-shutdown", "5",
        "--workers", str(workers),
    )  # fmt: skip
    process = subprocess.Popen(command, env=full_env, stdin=subprocess.DEVNULL, stderr=output)
    return wait_until_healthy(process, port)


async def _timed_post(
    client: Any,
    stats: LoadStats,
    timings: list[float],
    what: str,
    expected: int,
    url: str,
    **request: Any,
) -> Any:
    """POST to ``url``, adding its latency to ``timings``; the JSON body, or None on failure.

    A failure (an exception, or a status other than ``expected``) is counted in ``stats``
    under the exception's name or ``"<what> <status>"``.
    """
    started = time.perf_counter()
    try:
        response = await client.post(url, **request)
    except Exception as exc:
        stats.error(type(exc).__name__)
        return None
    timings.append((time.perf_counter() - started) * 1000)
    if response.status_code != expected:
        stats.error(f"{what} {response.status_code}")
        return None
    return response.json()


async def _player(
    client: Any, stats: LoadStats, deadline: float, think: float, bots: str, seed: int
) -> None:
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, think or 0.05))  # do not all start in one instant
    while time.monotonic() < deadline:
        create = {"players": 4, "bots": bots}
        body = await _timed_post(
            client, stats, stats.create_ms, "create", 201, "/api/games", json=create
        )
        if body is None:
            continue
        auth = {"Authorization": f"Bearer {body['token']}"}
        url = f"/api/games/{body['game_id']}/actions"
        state = body["state"]
        while not state["game_over"] and time.monotonic() < deadline:
            if think:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            payload = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
            moved = await _timed_post(
                client, stats, stats.move_ms, "move", 200, url, json=payload, headers=auth
            )
            if moved is None:
                break
            state = moved
        if state["game_over"]:
            stats.games_finished += 1


async def _run_load(
    base_url: str, players: int, duration: float, think: float, bots: str
) -> LoadStats:
    import httpx

    stats = LoadStats()
    deadline = time.monotonic() + duration

    async def one(seed: int) -> None:
        # One client (one keep-alive connection) per player, like real browsers; a single
        # shared pool of 100 connections costs the load generator more than the server.
        async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
            await _player(client, stats, deadline, think, bots, seed)

    await asyncio.gather(*(one(seed) for seed in range(players)))
    return stats


def bench_load(players: int, duration: float, think: float, bots: str, url: str | None) -> None:
    """Run the load test and print its figures."""
    process = None
    if url is None:
        port = find_free_port()
        process = _start_server(port, players)
        url = f"http://127.0.0.1:{port}"
    try:
        started = time.monotonic()
        stats = asyncio.run(_run_load(url, players, duration, think, bots))
        elapsed = time.monotonic() - started
    finally:
        if process is not None:
            stop_server(process)
    moves = stats.move_ms
    print(
        f"load: {players} concurrent players, {bots} bots, 4 seats, think "
        f"{think:.2f}s (uniform 0.5x-1.5x), {elapsed:.1f}s against {url}"
    )
    print(f"  human moves        {len(moves)}  ({len(moves) / elapsed:.1f} moves/s)")
    print(f"  races finished     {stats.games_finished}   races created {len(stats.create_ms)}")
    print(
        "  move latency ms    "
        f"p50 {percentile(moves, 50):.1f}  p90 {percentile(moves, 90):.1f}  "
        f"p99 {percentile(moves, 99):.1f}  max {max(moves, default=float('nan')):.1f}"
    )
    print(
        "  create latency ms  "
        f"p50 {percentile(stats.create_ms, 50):.1f}  p99 {percentile(stats.create_ms, 99):.1f}"
    )
    total_errors = sum(stats.errors.values())
    detail = ", ".join(f"{k}: {v}" for k, v in sorted(stats.errors.items()))
    print(f"  errors             {total_errors}" + (f"  ({detail})" if detail else ""))


# ------------------------------------------------------------------ load per store

STORE_SETUPS = (("memory", 1), ("redis", 1), ("redis", 2))
"""(store, workers) compared by ``load --compare``, in this order."""


def _measure_setup(
    players: int, duration: float, think: float, bots: str, workers: int, env: dict[str, str]
) -> tuple[LoadStats, float]:
    """Start a server, run the players against it, stop it: (stats, seconds)."""
    port = find_free_port()
    process = _start_server(port, players, env, workers=workers)
    try:
        started = time.monotonic()
        stats = asyncio.run(_run_load(f"http://127.0.0.1:{port}", players, duration, think, bots))
        return stats, time.monotonic() - started
    finally:
        stop_server(process)


def _error_counts(stats: LoadStats) -> str:
    detail = ", ".join(f"{k}: {v}" for k, v in sorted(stats.errors.items()))
    return f"{sum(stats.errors.values())}" + (f" ({detail})" if detail else "")


def bench_compare(players: int, duration: float, think: float, bots: str) -> None:
    """The same load against :data:`STORE_SETUPS`, one after the other on a fresh
    ``redis-server`` started here on a loopback port; prints them side by side."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="zzv-bench-") as folder:
        redis = RedisProcess(find_free_port(), Path(folder))
        redis.start()
        try:
            for store, workers in STORE_SETUPS:
                redis.flush()
                env = {"ZZV_REDIS_URL": redis.url} if store == "redis" else {}
                stats, elapsed = _measure_setup(players, duration, think, bots, workers, env)
                rows.append((store, workers, stats, elapsed))
        finally:
            redis.stop()
    print(
        f"load: {players} concurrent players, {bots} bots, 4 seats, think {think:.2f}s, "
        f"{duration:.0f}s per setup; server, Redis and players share this machine's cores"
    )
    print(f"  {'store':<7}{'workers':>8}{'moves/s':>10}{'p50 ms':>9}{'p99 ms':>9}  errors")
    for store, workers, stats, elapsed in rows:
        moves = stats.move_ms
        print(
            f"  {store:<7}{workers:>8}{len(moves) / elapsed:>10.1f}"
            f"{percentile(moves, 50):>9.1f}{percentile(moves, 99):>9.1f}  {_error_counts(stats)}"
        )


# ------------------------------------------------------------------ hard-bot load


async def _run_mixed(
    base_url: str, groups: dict[str, int], duration: float, think: float
) -> dict[str, LoadStats]:
    """Players of several bot levels at once (``{level: players}``); stats per level."""
    import httpx

    stats = {level: LoadStats() for level in groups}
    deadline = time.monotonic() + duration

    async def one(level: str, seed: int) -> None:
        async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
            await _player(client, stats[level], deadline, think, level, seed)

    players = [(level, i) for level, count in groups.items() for i in range(count)]
    await asyncio.gather(*(one(level, 1000 * n + i) for n, (level, i) in enumerate(players)))
    return stats


def _searches(log_path: str) -> list[dict[str, Any]]:
    """The server's "hard bot searched" debug lines (rollouts, budget, queue wait)."""
    found = []
    with open(log_path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if '"hard bot searched"' in line:
                with contextlib.suppress(ValueError):
                    found.append(json.loads(line))
    return found


def _print_searches(searches: list[dict[str, Any]]) -> None:
    rollouts = [float(s["rollouts"]) for s in searches]
    budgets = [float(s["budget_ms"]) for s in searches]
    waits = [float(s["wait_ms"]) for s in searches]
    wide = sum(1 for s in searches if s.get("wide"))
    zero = sum(1 for r in rollouts if r == 0)
    starved = sum(1 for r in rollouts if r < STARVED_ROLLOUTS)
    print(f"  hard searches      {len(searches)}  (spread over every worker: {wide})")
    if not searches:
        return
    print(
        f"  rollouts/search    median {statistics.median(rollouts):.0f}  "
        f"p10 {percentile(rollouts, 10):.0f}  p90 {percentile(rollouts, 90):.0f}"
    )
    print(
        f"  zero rollouts      {zero}   under {STARVED_ROLLOUTS} rollouts {starved} "
        f"({100 * starved / len(searches):.1f}%, each logged and counted)"
    )
    print(
        f"  budget ms          median {statistics.median(budgets):.0f}  min {min(budgets):.0f}"
        f"   queue wait ms p50 {percentile(waits, 50):.0f}  p99 {percentile(waits, 99):.0f}"
    )


def bench_hardload(hard: int, normal: int, duration: float, think: float) -> None:
    """Hard-bot races alongside normal ones on a real uvicorn; print latency by level,
    rollouts per hard search and the near-empty searches."""
    port = find_free_port()
    load_before = os.getloadavg()[0]
    with tempfile.NamedTemporaryFile("w+b", suffix=".log") as log_file:
        process = _start_server(port, hard + normal, {"ZZV_LOG_LEVEL": "debug"}, log_file)
        url = f"http://127.0.0.1:{port}"
        try:
            started = time.monotonic()
            groups = {"normal": normal, "hard": hard}
            stats = asyncio.run(_run_mixed(url, groups, duration, think))
            elapsed = time.monotonic() - started
        finally:
            stop_server(process)
        searches = _searches(log_file.name)
    print(
        f"hardload: {hard} hard-bot and {normal} normal-bot races at once, 4 seats, think "
        f"{think:.2f}s, {elapsed:.1f}s against {url}"
    )
    print(
        f"  machine: {os.cpu_count()} cores, load average {load_before:.1f} before the run and "
        f"{os.getloadavg()[0]:.1f} after (other work on the machine skews the figures)"
    )
    for level, level_stats in stats.items():
        moves = level_stats.move_ms
        errors = sum(level_stats.errors.values())
        print(
            f"  {level:<7} moves {len(moves):5d}  p50 {percentile(moves, 50):7.1f} ms  "
            f"p99 {percentile(moves, 99):7.1f} ms  max {max(moves, default=float('nan')):7.1f} "
            f"ms  creates {len(level_stats.create_ms)}  errors {errors}"
        )
    _print_searches(searches)


def _parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per benchmark."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    memory = sub.add_parser("memory", help="bytes per stored game; the cap bounds memory")
    memory.add_argument("--games", type=int, default=100, help="sessions measured per stage")
    memory.add_argument("--cap", type=int, default=100, help="max_games of the capped store")
    load = sub.add_parser("load", help="concurrent players against a real uvicorn")
    load.add_argument("--players", type=int, default=100)
    load.add_argument("--duration", type=float, default=30.0, help="seconds (bounded run)")
    load.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    load.add_argument("--bots", default="normal", choices=BOT_LEVELS)
    load.add_argument("--url", default=None, help="use a running server instead of starting one")
    load.add_argument(
        "--compare",
        action="store_true",
        help="memory/1 worker, Redis/1 worker, Redis/2 workers side by side",
    )
    weight = sub.add_parser("weight", help="bytes on the wire per move, 3 and 5 players")
    bench_weight.add_arguments(weight)
    languages = sub.add_parser("languages", help="each language's table beside English's")
    bench_languages.add_arguments(languages)
    hardload = sub.add_parser("hardload", help="hard-bot races alongside normal ones")
    hardload.add_argument("--hard", type=int, default=40, help="concurrent hard-bot players")
    hardload.add_argument("--normal", type=int, default=20, help="concurrent normal players")
    hardload.add_argument("--duration", type=float, default=30.0, help="seconds (bounded run)")
    hardload.add_argument("--think", type=float, default=1.0, help="mean seconds between moves")
    friends = sub.add_parser(
        "friends", help="two-person races on live event streams: move-to-other-table latency"
    )
    bench_friends.add_arguments(friends)
    store = sub.add_parser("store", help="the store's own cost per move: memory vs Redis")
    store.add_argument("--races", type=int, default=20, help="seeded races played")
    store.add_argument("--moves", type=int, default=2000, help="people's moves measured")
    durable = sub.add_parser(
        "durable", help="what the write-through to SQLite adds per move (memory vs SQLite)"
    )
    durable.add_argument("--races", type=int, default=20, help="seeded races played")
    durable.add_argument("--moves", type=int, default=2000, help="people's moves measured")
    opening = sub.add_parser("open", help="the SQLite store's open on a file of finished races")
    opening.add_argument("--races", type=int, default=2000, help="finished races in the file")
    bots = sub.add_parser("bots", help="hard-bot rollouts per decision, one process and two")
    bench_bots.add_arguments(bots)
    rollouts = sub.add_parser(
        "rollouts", help="hard-bot rollouts per real search, against a baseline revision"
    )
    bench_rollouts.add_arguments(rollouts)
    review = sub.add_parser("review", help="after-race review time; moves while reviews run")
    bench_review.add_arguments(review)
    tournament = sub.add_parser(
        "tournament", help="python -m bench.tournament with its games on --jobs processes"
    )
    bench_tournament.add_arguments(tournament)
    ratings = sub.add_parser("ratings", help="the bot levels' fixed ratings, from bot games")
    bench_ratings.add_arguments(ratings)
    daily_board = sub.add_parser("daily-board", help="one view of /daily's board as a day fills")
    bench_daily_board.add_arguments(daily_board)
    return parser


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point: ``python -m bench <command> ...`` (see ``--help``)."""
    args = _parser().parse_args(argv)
    if args.command == "tournament":
        raise SystemExit(bench_tournament.bench_tournament(args))
    if args.command == "ratings":
        raise SystemExit(bench_ratings.bench_ratings(args))
    if args.command == "daily-board":
        bench_daily_board.bench_daily_board(args)
    elif args.command == "review":
        bench_review.bench_review(args)
    elif args.command == "rollouts":
        bench_rollouts.bench_rollouts(args)
    elif args.command == "bots":
        bench_bots.bench_bots(args.positions, args.budget_ms)
    elif args.command == "memory":
        bench_memory(args.games, args.cap)
    elif args.command == "weight":
        bench_weight.bench_weight(args.races, args.bots, args.url)
    elif args.command == "languages":
        bench_languages.bench_languages(args.renders, args.moves)
    elif args.command == "hardload":
        bench_hardload(args.hard, args.normal, args.duration, args.think)
    elif args.command == "store":
        from bench.store import bench_store

        bench_store(args.races, args.moves)
    elif args.command == "durable":
        from bench.store import bench_durable

        bench_durable(args.races, args.moves)
    elif args.command == "open":
        from bench.store import bench_open

        bench_open(args.races)
    elif args.command == "friends":
        bench_friends.bench_friends(
            args.races, args.duration, args.think, args.url, args.talk, args.rounds
        )
    elif args.compare:
        bench_compare(args.players, args.duration, args.think, args.bots)
    else:
        bench_load(args.players, args.duration, args.think, args.bots, args.url)


if __name__ == "__main__":
    main()
