"""What one view of ``/daily`` costs the results database as a day fills up:
``python -m bench daily-board [--entries 1000,10000] [--views 20] [--database-url URL]``.

For each size, a fresh results database (a SQLite file in a temporary folder, or a new
database on the PostgreSQL server ``--database-url`` names) gets that many counted,
finished daily results, written straight into its tables: once with coarse random figures
(so many are equal), once with every result equal (all share the first rank, as when many
players play the deal the same way). Then, as ``GET /daily`` does for a player on the
board, it reads the day's board as that player sees it
(:meth:`app.results.daily.DailyResults.day_board`: the head, the count and their own
result) ``--views`` times, and prints the mean time per view beside the anchor: the same
board worked out the way the server did before, every row of the day read into Python
and ranked there. The two boards are compared first; a difference stops the bench.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import URL, insert, select, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.results.daily import BoardEntry, DailyResults, DayBoard, counted_on
from app.results.database import async_url
from app.results.models import DailyEntry, FinishedRace, Player, RaceResult
from app.results.store import ResultsStore

DAY = "2026-12-04"
"""The day the bench fills."""


def board_key(entry: BoardEntry) -> tuple[int, bool, int, int, int]:
    """The board's order (docs/daily.md; smaller first): place, then finished before left,
    laps, tricks won and gas left (more first); equal on all four share a rank."""
    return (entry.place, entry.left, -entry.laps, -entry.tricks, -entry.gas)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The bench's options."""
    parser.add_argument(
        "--entries", default="1000,10000", help="results on the day's board, comma-separated"
    )
    parser.add_argument("--views", type=int, default=20, help="views of /daily timed per size")
    parser.add_argument(
        "--database-url",
        default=None,
        help="a PostgreSQL server (postgresql://...) to make each size's database on",
    )


def bench_daily_board(args: argparse.Namespace) -> None:
    """Print the time per view of the day's board, and its anchor, at each size."""
    sizes = [int(size) for size in args.entries.split(",")]
    print(
        f"{'entries':>8} {'results':>9} {'day_board ms':>13} {'all rows in Python ms (anchor)':>31}"
    )
    for size in sizes:
        for equal in (False, True):
            with tempfile.TemporaryDirectory() as folder:
                now, anchor = asyncio.run(
                    _measure(args.database_url, Path(folder), size, args.views, equal)
                )
            spread = "all equal" if equal else "varied"
            print(f"{size:>8} {spread:>9} {now:>13.1f} {anchor:>31.1f}")


async def _database(server: str | None, folder: Path, size: int) -> URL:
    """A fresh results database: a SQLite file in ``folder``, or a new database on the
    PostgreSQL server ``server`` names."""
    if server is None:
        return async_url(f"sqlite:///{folder / 'results.sqlite3'}")
    name = f"zzv_bench_{size}_{secrets.token_hex(4)}"
    engine = create_async_engine(async_url(server), isolation_level="AUTOCOMMIT")
    async with engine.connect() as connection:
        await connection.execute(text(f'CREATE DATABASE "{name}"'))
    await engine.dispose()
    return async_url(server).set(database=name)


async def _measure(
    server: str | None, folder: Path, size: int, views: int, equal: bool
) -> tuple[float, float]:
    store = ResultsStore(await _database(server, folder, size))
    await store.open()
    try:
        player = await _fill(store, size, random.Random(size), equal)
        daily = DailyResults(store)
        board = await daily.day_board(DAY, player)
        if board != await _every_row_in_python(store, player):
            raise SystemExit("the database's board differs from the anchor's")
        now = [await _time(daily.day_board(DAY, player)) for _ in range(views)]
        anchor = [await _time(_every_row_in_python(store, player)) for _ in range(views)]
        return statistics.mean(now) * 1000, statistics.mean(anchor) * 1000
    finally:
        await store.close()


async def _time(call: Any) -> float:
    started = time.perf_counter()
    await call
    return time.perf_counter() - started


async def _fill(store: ResultsStore, size: int, rng: random.Random, equal: bool) -> int:
    """``size`` counted, finished results on :data:`DAY` (all with the same figures when
    ``equal``); the id of a player among them."""
    now = datetime.now(UTC)
    async with store.unit() as session:
        rows = [
            {
                "token_digest": secrets.token_hex(32),
                "name": None,
                "mu": 25.0,
                "sigma": 25 / 3,
                "ordinal": 0.0,
                "created_at": now,
            }
            for _ in range(size)
        ]
        await session.execute(insert(Player), rows)
        players = list(await session.scalars(select(Player.id).order_by(Player.id)))
        games = [f"bench{index:07d}" for index in range(size)]
        await session.execute(
            insert(FinishedRace),
            [
                {
                    "game_id": game,
                    "finished_at": now,
                    "kind": "daily",
                    "players": 4,
                    "people": 1,
                    "bots": "normal",
                    "settings": {},
                    "practice": False,
                    "record": {},
                }
                for game in games
            ],
        )
        await session.execute(
            insert(RaceResult),
            [
                {
                    "game_id": game,
                    "seat": 0,
                    "player_id": player,
                    "name": f"Racer {player}",
                    "place": 1 if equal else rng.randint(1, 4),
                    "laps": 2 if equal else rng.randint(0, 2),
                    "tricks": 7 if equal else rng.randint(0, 12),
                    "gas": 3 if equal else rng.randint(0, 5),
                }
                for game, player in zip(games, players, strict=True)
            ],
        )
        await session.execute(
            insert(DailyEntry),
            [
                {"day": DAY, "player_id": player, "game_id": game, "started_at": now}
                for game, player in zip(games, players, strict=True)
            ],
        )
    return players[len(players) // 2]


async def _every_row_in_python(store: ResultsStore, player_id: int) -> DayBoard:
    """The anchor: every row of the day read into Python, ranked there."""
    query = counted_on(select(RaceResult, DailyEntry.player_id), DailyEntry, DailyEntry.day == DAY)
    async with store.unit() as session:
        rows = (await session.execute(query)).all()
    unranked = [
        BoardEntry(0, r.name, r.place, r.laps, r.tricks, r.gas, player, r.game_id)
        for r, player in rows
    ]
    unranked.sort(key=lambda e: (board_key(e), e.name, e.game_id))
    ranked: list[BoardEntry] = []
    for index, entry in enumerate(unranked):
        tied = ranked and board_key(ranked[-1]) == board_key(entry)
        ranked.append(replace(entry, rank=ranked[-1].rank if tied else index + 1))
    mine = next((e for e in ranked if e.player_id == player_id), None)
    return DayBoard(ranked[:100], len(ranked), mine)


__all__ = ["add_arguments", "bench_daily_board"]
