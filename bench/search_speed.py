"""Search-speed figures for the hard bot: ``python -m bench.search_speed``.

Plays seeded random openings and asks the hard bot for a move at each, once with the
budget on the wall clock (what the server runs) and once on the searching thread's CPU
clock (what a decision of that budget runs on a core of its own, however busy the
machine; the tournaments' ``--clock cpu``). A search that has pruned all its candidates
but one stops there, so the figures come in two parts: the rollouts a decision that ran
its whole budget held, and how soon the others were settled. (Root parallelism over
worker processes is the server's business: ``python -m bench bots`` measures it.)

A last line times the same search with a fixed number of rollouts by this process's CPU
time, the figure older revisions printed. It comes out lower than the CPU-clock line:
the rollouts of one search reuse the choices its first rollouts scored, so a short search
pays more per rollout than a full budget's.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from bench.build import describe
from engine.bots.search import HardBot
from engine.game import new_game
from engine.rng import Rng
from engine.shapes import Observation


def positions(count: int) -> list[Observation]:
    """The observations of ``count`` seeded random openings, for the seat to act."""
    rng = Rng(3)
    found = []
    for seed in range(count):
        game = new_game(players=4, seed=seed)
        for _ in range(rng.below(16)):
            actions = game.legal_actions()
            game.apply(actions[rng.below(len(actions))])
        found.append(game.observation(game.current_seat or 0))
    return found


@dataclass(frozen=True, slots=True)
class Decision:
    """One measured decision: its rollouts, wall and CPU milliseconds, and whether the
    search stopped before its budget with one candidate left."""

    rollouts: int
    wall_ms: float
    cpu_ms: float
    settled: bool


def measure(bot: HardBot, count: int) -> list[Decision]:
    """``bot``'s decisions at ``count`` seeded positions (one warm-up decision first,
    outside the timing)."""
    warm = new_game(players=4, seed=0)
    bot.choose(warm.observation(warm.current_seat or 0))
    found = []
    for observation in positions(count):
        start, start_cpu = time.perf_counter(), time.thread_time()
        bot.choose(observation)
        wall, cpu = time.perf_counter() - start, time.thread_time() - start_cpu
        found.append(Decision(bot.last_rollouts, wall * 1000, cpu * 1000, bot.last_settled))
    return found


def full_budget_rollouts(decisions: list[Decision]) -> float:
    """Mean rollouts of the ``decisions`` whose search ran its whole budget (0 if none
    did): how many rollouts a decision of that budget holds.

    >>> full_budget_rollouts([Decision(900, 200.0, 199.0, False), Decision(40, 9.0, 9.0, True)])
    900.0
    """
    full = [d.rollouts for d in decisions if not d.settled]
    return sum(full) / len(full) if full else 0.0


def report(clock: str, decisions: list[Decision]) -> str:
    """A sentence on ``decisions``: how many rollouts a search that ran its whole budget
    held, and how soon the others were settled."""
    full = [d for d in decisions if not d.settled]
    early = [d for d in decisions if d.settled]
    wall = sum(d.wall_ms for d in decisions) / len(decisions)
    parts = [f"{clock} clock: {len(decisions)} decisions, {wall:.1f} wall ms each on average"]
    if full:
        cpu = sum(d.cpu_ms for d in full) / len(full)
        parts.append(
            f"{len(full)} ran the whole budget: {full_budget_rollouts(full):,.0f} rollouts "
            f"and {cpu:.1f} CPU ms each"
        )
    if early:
        rollouts = sum(d.rollouts for d in early) / len(early)
        cpu = sum(d.cpu_ms for d in early) / len(early)
        parts.append(
            f"{len(early)} settled early (one candidate left): {rollouts:,.0f} rollouts "
            f"and {cpu:.1f} CPU ms each"
        )
    return "; ".join(parts)


def cpu_rate(count: int, iterations: int = 400) -> float:
    """Rollouts per second of CPU time, one process, a fixed number per decision."""
    bot = HardBot(1, iterations=iterations)
    rollouts = 0
    elapsed = 0.0
    for observation in positions(count):
        start = time.process_time()
        bot.choose(observation)
        elapsed += time.process_time() - start
        rollouts += bot.last_rollouts
    return rollouts / elapsed


def main(argv: list[str] | None = None) -> None:
    """Print rollouts per decision on the wall and CPU clocks, and per CPU second."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--budget-ms", type=float, default=200.0)
    args = parser.parse_args(argv)
    print(describe())
    print(f"hard bot, 4 players, {args.positions} positions, {args.budget_ms:g} ms budget")
    for clock in ("wall", "cpu"):
        print(
            report(
                clock,
                measure(HardBot(1, time_budget_ms=args.budget_ms, clock=clock), args.positions),
            )
        )
    per_cpu_second = cpu_rate(args.positions)
    print(
        f"fixed work, CPU time: {per_cpu_second * args.budget_ms / 1000:.0f} rollouts per "
        f"{args.budget_ms:g} ms of one core ({per_cpu_second:,.0f} rollouts per CPU second)"
    )


if __name__ == "__main__":
    main()
