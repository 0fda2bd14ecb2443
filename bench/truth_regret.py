"""How much the hard bot's choice gives up against the real deal: ``python -m
bench.truth_regret``.

:mod:`bench.hard_regret` scores the search against a longer search on the same
kind of sampled worlds, so it cannot see what the sampling itself gets wrong (worlds
dealt without regard to how the opponents played, for one). This screen scores it
against the truth instead: at positions from games between normal bots it plays every
sensible action (up to 40, the normal policy's order) in the *real* game to the end of
the round, every other seat the normal bot exactly (as in a tournament against normal
bots), own later moves the normal policy too, and takes the round-end value
(:func:`engine.bots.rollout.chances`, the mean over 3 rollout seeds for the random tie
breaks). A search variant's regret is the best action's value minus that of the one it
picks, averaged over positions and search seeds; part of it no search can avoid (the
hidden cards are hidden), so only differences between variants on the same positions
mean anything, and the screen prints them paired, with their standard errors.

A variant is ``noise/infer/candidates/rollouts``: the opponent model's temperature, the
inference's temperature (0: off), how many of the policy's best actions are candidates
and the fixed number of rollouts, or a budget of the searching thread's CPU time such as
``200ms`` (what a tournament's ``--clock cpu`` runs; such a search does not repeat
exactly, as the rollouts that fit in it vary a little).
"""

from __future__ import annotations

import argparse
import math

from bench.hard_regret import GamePosition, game_positions
from engine.actions import Action
from engine.bots.base import mix_seed
from engine.bots.candidates import best_candidate, weights_of
from engine.bots.heuristic import NORMAL
from engine.bots.rollout import rollout_seats
from engine.bots.search import CLOCKS, Stop, run_worlds
from engine.rng import Rng
from engine.seat_view import SeatView
from engine.sim import ACTION_ID, SimState

#: The most actions a position's truth is worked out for (more than any search keeps).
WIDEST = 40


def positions(count: int, seed: int) -> list[GamePosition]:
    """``count`` positions from seeded 4-player games between normal bots, each at a
    random point with more than one sensible action: the real game's core, the seat's
    view and its sensible actions, best first."""
    return game_positions(count, seed, WIDEST)


def truth(core: SimState, seat: int, actions: list[Action]) -> dict[Action, float]:
    """Each action's round-end value for ``seat`` in the real game, against normal bots."""
    values: dict[Action, float] = {}
    for action in actions:
        total = 0.0
        for k in range(3):
            state = core.clone()
            state.apply(ACTION_ID[action])
            total += rollout_seats(state, Rng(k), [NORMAL] * state.players, False)[seat]
        values[action] = total / 3
    return values


def choice(view: SeatView, ranked: list[Action], variant: str, seed: int) -> Action:
    """The action a search of ``variant`` (module docstring) picks."""
    noise, infer, candidates, rollouts = variant.split("/")
    shortlist = ranked[: int(candidates)]
    stop = _stop(rollouts)
    rows, logs, _, alive = run_worlds(
        view, shortlist, seed, stop, 1, noise=float(noise), infer=float(infer)
    )
    weights = weights_of(logs) if float(infer) > 0 else None
    return shortlist[best_candidate(rows, alive, weights)]


def _stop(budget: str) -> Stop:
    """A fixed number of rollouts (``880``), or ``200ms`` of this thread's CPU from now."""
    if budget.endswith("ms"):
        return Stop(None, CLOCKS["cpu"]() + float(budget[:-2]) / 1000.0, "cpu")
    return Stop(int(budget), None)


def regrets(count: int, seeds: int, variants: list[str], seed: int) -> dict[str, list[float]]:
    """Per variant, the regret of every (position, search seed), in the same order."""
    found: dict[str, list[float]] = {v: [] for v in variants}
    for p, (core, view, ranked) in enumerate(positions(count, seed)):
        assert view.seat is not None
        values = truth(core, view.seat, ranked)
        best = max(values.values())
        for variant in variants:
            for s in range(seeds):
                found[variant].append(best - values[choice(view, ranked, variant, mix_seed(p, s))])
    return found


def main(argv: list[str] | None = None) -> None:
    """Print each variant's regret and its paired difference to the first."""
    parser = argparse.ArgumentParser(description="Hard bot's regret against the real deal.")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--seeds", type=int, default=2, help="searches per position")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--variants", default="0.15/0/8/500,0/0/8/500", help="noise/infer/candidates/rollouts,..."
    )
    args = parser.parse_args(argv)
    variants = args.variants.split(",")
    found = regrets(args.positions, args.seeds, variants, args.seed)
    base = found[variants[0]]
    print(f"{args.positions} positions (4 players), {args.seeds} searches each; win chance")
    for variant in variants:
        diffs = [a - b for a, b in zip(found[variant], base, strict=True)]
        mean = sum(diffs) / len(diffs)
        spread = sum((d - mean) ** 2 for d in diffs)
        error = math.sqrt(spread / (len(diffs) - 1) / len(diffs)) if len(diffs) > 1 else 0.0
        regret = sum(found[variant]) / len(base)
        print(f"{variant:<16} regret {regret:.4f}  minus first {mean:+.4f} (se {error:.4f})")


if __name__ == "__main__":
    main()
