"""The hard bot's search with root parallelism, as the server runs it: ``python -m bench bots``.

``python -m bench.search_speed`` measures one process. Here the same
seeded positions are searched by a hard bot with ``workers=2`` whose jobs go to the
server's worker processes (:mod:`app.bots.pool`: ``spawn``ed, at a lower CPU priority),
and the one-process figure is printed beside it: the rollouts of a decision that ran its
whole budget and the milliseconds per decision on the wall clock, and how many decisions
pruning settled before their budget. A second process only pays off when a core is free
for it, so on a busy machine the two-process row can fall below the one-process row.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from app.bots import pool
from bench.build import describe
from bench.search_speed import Decision, full_budget_rollouts, measure
from engine.bots.search import HardBot

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
    """Print, for one process and for two, the rollouts of a decision that ran its whole
    budget, milliseconds per decision, and how many decisions pruning settled early."""
    print(describe())
    print(f"hard bot, 4 players, {positions} positions, {budget_ms:g} ms budget, wall clock")
    print(f"{'processes':<11}{'rollouts/decision':>19}{'ms/decision':>14}{'settled early':>15}")
    alone = measure(HardBot(1, time_budget_ms=budget_ms), positions)
    _row(1, alone)
    try:
        executor = _started_pool()
        shared = HardBot(1, time_budget_ms=budget_ms, workers=WORKERS, map_jobs=executor.map)
        spread = measure(shared, positions)
    finally:
        pool.shutdown_workers()
    _row(WORKERS, spread)
    one, two = full_budget_rollouts(alone), full_budget_rollouts(spread)
    if one and two:
        print(f"two processes / one: {two / one:.2f}x the rollouts per decision")
    else:
        print("two processes / one: no ratio, as every decision of a row settled early")


def _row(processes: int, decisions: list[Decision]) -> None:
    """One row of the table: rollouts of a whole-budget decision (0 if every decision was
    settled early), mean wall milliseconds of all of them, and the early ones' count."""
    ms = sum(d.wall_ms for d in decisions) / len(decisions)
    settled = sum(d.settled for d in decisions)
    print(f"{processes:<11}{full_budget_rollouts(decisions):>19.1f}{ms:>14.1f}{settled:>15}")
