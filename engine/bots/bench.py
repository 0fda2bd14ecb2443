"""Search-speed figures for the hard bot: ``python -m engine.bots.bench``.

Plays seeded random openings, asks the hard bot for a move at each, and prints the mean
number of rollouts per decision and the mean wall time in this process. (Root parallelism
over worker processes is the server's business: ``python -m bench bots`` measures it.)

Those wall-clock figures fall when other programs share the machine, so a last line gives
the same search with a fixed number of rollouts, timed by this process's CPU time: the
rollouts a 200 ms decision would run on a core of its own.
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
    """Print rollouts per decision on the wall clock and per CPU second."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--budget-ms", type=float, default=200.0)
    args = parser.parse_args(argv)
    print(describe())
    print(f"hard bot, 4 players, {args.positions} positions, {args.budget_ms:g} ms budget")
    print(f"{'workers':<10}{'rollouts/decision':>20}{'ms/decision':>14}")
    per_decision, ms = measure(HardBot(1, time_budget_ms=args.budget_ms), args.positions)
    print(f"{1:<10}{per_decision:>20.1f}{ms:>14.1f}")
    per_cpu_second = cpu_rate(args.positions)
    print(
        f"fixed work, CPU time: {per_cpu_second * args.budget_ms / 1000:.0f} rollouts per "
        f"{args.budget_ms:g} ms of one core ({per_cpu_second:,.0f} rollouts per CPU second)"
    )


if __name__ == "__main__":
    main()
