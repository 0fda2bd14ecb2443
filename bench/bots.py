"""The hard bot's search with root parallelism, as the server runs it: ``python -m bench bots``.

The engine's own ``python -m engine.bots.bench`` measures one process. Here the same
seeded positions are searched by a hard bot with ``workers=2`` whose jobs go to the
server's worker processes (:mod:`app.bots.pool`: ``spawn``ed, at a lower CPU priority),
and the one-process figure is printed beside it: mean rollouts and milliseconds per
decision on the wall clock. A second process only pays off when a core is free for it,
so on a busy machine the two-process row can fall below the one-process row.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from app.bots import pool
from engine.bots.bench import measure
from engine.bots.search import HardBot
from engine.build import describe

WORKERS = 2
"""Processes of the parallel row (the server's default ``ZZV_HARD_BOT_WORKERS``)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``python -m bench bots``."""
    parser.add_argument("--positions", type=int, default=30, help="seeded positions searched")
    parser.add_argument("--budget-ms", type=float, default=200.0, help="wall time per decision")


def _started_pool(timeout: float = 60.0) -> ProcessPoolExecutor:
    """The worker processes, every one of them booted (a search's clock must not pay for it)."""
    executor = pool.get_pool(WORKERS)
    deadline = time.monotonic() + timeout
    while not pool.warmed(WORKERS):
        if time.monotonic() > deadline:
            raise SystemExit(f"the {WORKERS} worker processes did not start in {timeout:.0f} s")
        time.sleep(0.05)
    return executor


def bench_bots(positions: int, budget_ms: float) -> None:
    """Print rollouts and milliseconds per decision for one process and for two."""
    print(describe())
    print(f"hard bot, 4 players, {positions} positions, {budget_ms:g} ms budget, wall clock")
    print(f"{'processes':<11}{'rollouts/decision':>19}{'ms/decision':>14}")
    alone = measure(HardBot(1, time_budget_ms=budget_ms), positions)
    print(f"{1:<11}{alone[0]:>19.1f}{alone[1]:>14.1f}")
    try:
        executor = _started_pool()
        shared = HardBot(1, time_budget_ms=budget_ms, workers=WORKERS, map_jobs=executor.map)
        spread = measure(shared, positions)
    finally:
        pool.shutdown_workers()
    print(f"{WORKERS:<11}{spread[0]:>19.1f}{spread[1]:>14.1f}")
    print(f"two processes / one: {spread[0] / alone[0]:.2f}x the rollouts per decision")
