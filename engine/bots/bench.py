"""Search-speed figures for the hard bot: ``python -m engine.bots.bench``.

Plays seeded random openings, asks the hard bot for a move at each, and prints the mean
number of rollouts per decision and the mean wall time, for one process and for root
parallelism over two (``workers=2``). This is how the default (one process) was chosen:
a second process only pays off when a core is actually free.
"""

from __future__ import annotations

import argparse
import time

from engine.bots.search import HardBot
from engine.game import new_game
from engine.rng import Rng


def measure(workers: int, positions: int, budget_ms: float) -> tuple[float, float]:
    """Mean rollouts and milliseconds per decision over ``positions`` seeded positions."""
    rng = Rng(3)
    bot = HardBot(1, time_budget_ms=budget_ms, workers=workers)
    warm = new_game(players=4, seed=0)  # starts the worker processes outside the timing
    bot.choose(warm.observation(warm.current_seat or 0))
    rollouts = 0
    elapsed = 0.0
    for seed in range(positions):
        game = new_game(players=4, seed=seed)
        for _ in range(rng.below(16)):
            actions = game.legal_actions()
            game.apply(actions[rng.below(len(actions))])
        observation = game.observation(game.current_seat or 0)
        start = time.perf_counter()
        bot.choose(observation)
        elapsed += time.perf_counter() - start
        rollouts += bot.last_rollouts
    return rollouts / positions, elapsed * 1000 / positions


def main(argv: list[str] | None = None) -> None:
    """Print rollouts per decision for one and two worker processes."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--budget-ms", type=float, default=200.0)
    args = parser.parse_args(argv)
    print(f"hard bot, 4 players, {args.positions} positions, {args.budget_ms:g} ms budget")
    print(f"{'workers':<10}{'rollouts/decision':>20}{'ms/decision':>14}")
    for workers in (1, 2):
        per_decision, ms = measure(workers, args.positions, args.budget_ms)
        print(f"{workers:<10}{per_decision:>20.1f}{ms:>14.1f}")


if __name__ == "__main__":
    main()
