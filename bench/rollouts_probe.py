"""The child of ``python -m bench rollouts``: real hard-bot searches on the CPU clock.

Run as a script with one build's directory first on ``PYTHONPATH``; it imports that
build's engine only, through names every revision since the CPU clock has had. It builds
the seeded openings, warms up with one search, prints ``ready``, and then answers each
position number read from stdin with one JSON line: the rollouts of that position's
decision, whether its search settled on one candidate before its budget (revisions
without early stopping never do), and its CPU milliseconds. An empty line ends it.

``python bench/rollouts_probe.py POSITIONS BUDGET_MS``
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING

from engine.bots.search import HardBot
from engine.game import new_game
from engine.rng import Rng

if TYPE_CHECKING:  # the probe also runs on baseline builds, which may lack this module
    from engine.shapes import Observation


def positions(count: int) -> list[Observation]:
    """The observations of ``bench.search_speed``'s seeded four-player openings.

    A copy, not an import of that bench: each build would import its own, and the two
    builds must search the very same positions whatever their bench says."""
    rng = Rng(3)
    found = []
    for seed in range(count):
        game = new_game(players=4, seed=seed)
        for _ in range(rng.below(16)):
            actions = game.legal_actions()
            game.apply(actions[rng.below(len(actions))])
        found.append(game.observation(game.current_seat or 0))
    return found


def main() -> None:
    """Answer position numbers until an empty line (see the module docstring)."""
    count, budget_ms = int(sys.argv[1]), float(sys.argv[2])
    openings = positions(count)
    bot = HardBot(1, time_budget_ms=budget_ms, clock="cpu")
    warm = new_game(players=4, seed=0)
    bot.choose(warm.observation(warm.current_seat or 0))
    print("ready", flush=True)
    for line in sys.stdin:
        if not line.strip():
            return
        started = time.thread_time()
        bot.choose(openings[int(line)])
        cpu_ms = (time.thread_time() - started) * 1000
        settled = bool(getattr(bot, "last_settled", False))
        print(json.dumps([bot.last_rollouts, settled, cpu_ms]), flush=True)


if __name__ == "__main__":
    main()
