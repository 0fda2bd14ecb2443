"""Search-speed figures for the hard bot: ``python -m engine.bots.bench``.

Plays seeded random openings, asks the hard bot for a move at each, and prints the mean
number of rollouts per decision and the mean wall time in this process, once with the
budget on the wall clock (what the server runs) and once on the searching thread's CPU
clock (what a decision of that budget runs on a core of its own, however busy the
machine; the tournaments' ``--clock cpu``). (Root parallelism over worker processes is
the server's business: ``python -m bench bots`` measures it.)

A last line times the same search with a fixed number of rollouts by this process's CPU
time, the figure older revisions printed. It comes out lower than the CPU-clock line:
the rollouts of one search reuse the choices its first rollouts scored, so a short search
pays more per rollout than a full budget's.
"""

from __future__ import annotations

import argparse
import time

from engine.bots.search import HardBot
from engine.build import describe
from engine.game import new_game
from engine.rng import Rng
from engine.view import Observation


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


def measure(bot: HardBot, count: int) -> tuple[float, float]:
    """Mean rollouts and milliseconds per decision of ``bot`` over ``count`` seeded
    positions (one warm-up decision first, outside the timing)."""
    warm = new_game(players=4, seed=0)
    bot.choose(warm.observation(warm.current_seat or 0))
    rollouts = 0
    elapsed = 0.0
    for observation in positions(count):
        start = time.perf_counter()
        bot.choose(observation)
        elapsed += time.perf_counter() - start
        rollouts += bot.last_rollouts
    return rollouts / count, elapsed * 1000 / count


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
    print(f"{'clock':<10}{'rollouts/decision':>20}{'wall ms/decision':>19}")
    for clock in ("wall", "cpu"):
        bot = HardBot(1, time_budget_ms=args.budget_ms, clock=clock)
        per_decision, ms = measure(bot, args.positions)
        print(f"{clock:<10}{per_decision:>20.1f}{ms:>19.1f}")
    per_cpu_second = cpu_rate(args.positions)
    print(
        f"fixed work, CPU time: {per_cpu_second * args.budget_ms / 1000:.0f} rollouts per "
        f"{args.budget_ms:g} ms of one core ({per_cpu_second:,.0f} rollouts per CPU second)"
    )


if __name__ == "__main__":
    main()
