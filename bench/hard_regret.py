"""How much win chance the hard bot's choice gives up: ``python -m bench.hard_regret``.

Takes positions from games between normal bots and, at each, runs a long reference
search: every candidate of the hard bot (:func:`~engine.bots.search.rank_candidates`) on
the same ``--worlds`` sampled worlds, nothing pruned. Then the hard bot's own search runs
with each fixed budget (rollouts, so the figures do not depend on the machine's speed or
load) and several seeds, and its choice is scored by the reference: the regret is the
reference value of the best candidate minus that of the one chosen, in win chance.

Both the bot's search and the reference come with 1 opponent model (every other seat
plays as the normal bot) or all of :data:`~engine.bots.search.OPPONENT_MODELS` cycled
over worlds, so the table shows what a search costs when its model of the others is
right and when it is not. A sound search gives up less as its budget grows. The budgets
are rollout counts, so the figures do not depend on the machine; ``python -m
engine.bots.bench`` tells how many fit in 200 ms of CPU on a given machine.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from engine.actions import Action
from engine.bots import NormalBot
from engine.bots.base import mix_seed
from engine.bots.candidates import best_candidate
from engine.bots.search import (
    DEFAULT_CANDIDATES,
    OPPONENT_MODELS,
    Stop,
    rank_candidates,
    run_worlds,
)
from engine.game import new_game
from engine.rng import Rng
from engine.seat_view import SeatView
from engine.sim import SimState

MODELS = (1, len(OPPONENT_MODELS))


@dataclass(frozen=True, slots=True)
class Reference:
    """A long search's verdict on one position: each candidate's mean value and the
    standard error of its paired difference to the best."""

    means: list[float]
    errors: list[float]

    def regret(self, chosen: int) -> float:
        """Win chance given up by playing candidate ``chosen`` instead of the best."""
        return max(self.means) - self.means[chosen]


GamePosition = tuple[SimState, SeatView, list[Action]]
"""A position of a real game: its core, the deciding seat's view, the shortlist ranked."""


def game_positions(count: int, seed: int, width: int) -> list[GamePosition]:
    """``count`` positions from seeded 4-player games between normal bots, each at a
    random point where the first ``width`` candidates hold more than one action: the
    real game's core (a copy), the seat's view and those candidates, best first."""
    rng = Rng(seed)
    found: list[GamePosition] = []
    game_number = 0
    while len(found) < count:
        game = new_game(players=4, seed=mix_seed(seed, game_number))
        game_number += 1
        target, decision = rng.below(60), 0
        while not game.is_over and game.current_seat is not None:
            seat = game.current_seat
            view = game.view(seat)
            if decision >= target:
                ranked = rank_candidates(view, view.legal_actions(), width)
                if len(ranked) > 1:
                    found.append((game.core.clone(), view, ranked))
                    break
            game.apply(NormalBot(decision).choose(view), seat)
            decision += 1
    return found


def positions(count: int, seed: int) -> list[tuple[SeatView, list[Action]]]:
    """``count`` positions from seeded games between normal bots, each at a random point
    where the hard bot would have more than one candidate, with those candidates."""
    return [(view, ranked) for _, view, ranked in game_positions(count, seed, DEFAULT_CANDIDATES)]


def reference(
    observation: SeatView, shortlist: list[Action], worlds: int, models: int, seed: int
) -> Reference:
    """Every candidate on the same ``worlds`` worlds, unpruned (see the module docstring)."""
    stop = Stop(worlds * len(shortlist), None)
    rows = run_worlds(observation, shortlist, seed, stop, models, prune=False)[0]
    count = len(rows)
    means = [sum(row[i] for row in rows) / count for i in range(len(shortlist))]
    best = max(range(len(shortlist)), key=lambda i: means[i])
    errors = []
    for i in range(len(shortlist)):
        diffs = [row[best] - row[i] for row in rows]
        mean = sum(diffs) / count
        errors.append(math.sqrt(sum((d - mean) ** 2 for d in diffs) / (count - 1) / count))
    return Reference(means, errors)


def regret_table(
    count: int, worlds: int, budgets: list[int], seeds: int, seed: int = 7
) -> tuple[dict[tuple[int, int, int], float], float]:
    """Mean regret keyed by (search's models, reference's models, budget in rollouts), and
    the median over positions of the reference's largest standard error (its noise)."""
    totals = {(m, r, b): 0.0 for m in MODELS for r in MODELS for b in budgets}
    noise = []
    for p, (observation, shortlist) in enumerate(positions(count, seed)):
        refs = {r: reference(observation, shortlist, worlds, r, mix_seed(seed, p)) for r in MODELS}
        noise.append(max(refs[1].errors))
        for m in MODELS:
            for b in budgets:
                for s in range(seeds):
                    stop = Stop(b, None)
                    rows, _, _, alive = run_worlds(
                        observation, shortlist, mix_seed(p, s, b), stop, m
                    )
                    chosen = best_candidate(rows, alive)
                    for r in MODELS:
                        totals[(m, r, b)] += refs[r].regret(chosen) / (count * seeds)
    return totals, sorted(noise)[len(noise) // 2]


def main(argv: list[str] | None = None) -> None:
    """Print the regret table."""
    parser = argparse.ArgumentParser(description="Hard bot's regret against a long search.")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=1000, help="reference worlds per position")
    parser.add_argument("--budgets", default="125,250,500,1000", help="rollouts per search")
    parser.add_argument("--seeds", type=int, default=4, help="searches per position and budget")
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.budgets.split(",")]
    table, noise = regret_table(args.positions, args.worlds, budgets, args.seeds)
    print(
        f"{args.positions} positions (4 players), reference {args.worlds} worlds per "
        f"candidate, {args.seeds} searches per budget; regret in win chance"
    )
    print(f"{'search models':<15}{'true models':<13}{'rollouts':>9}{'regret':>10}")
    for (m, r, b), value in sorted(table.items()):
        print(f"{m:<15}{r:<13}{b:>9}{value:>10.4f}")
    print(f"reference noise (median largest paired standard error): {noise:.4f}")


if __name__ == "__main__":
    main()
