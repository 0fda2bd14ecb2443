"""How well the search's opponent model predicts a bot's moves: ``python -m
bench.model_fit``.

The hard bot plays every seat it is not told is a normal bot as the normal policy
choosing through a softmax at a temperature (``noise``). This screen plays races between
bots of one kind (by default hard bots at a fixed number of rollouts, so the figures
repeat), and at each decision with more than one sensible action asks how likely the move
actually made was under that model (:func:`policy_weights`, the very weights a rollout
draws from) at several temperatures. It prints the mean log-likelihood
per decision at each, beside two anchors: a uniform pick among the sensible actions, and
how often the move was the normal policy's best. The higher the figure, the better the
model describes that bot; below the uniform pick it describes it worse than no model.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import replace

from engine.bots import make_bot
from engine.bots.base import mix_seed
from engine.bots.heuristic import NORMAL, Style
from engine.bots.policy import decide
from engine.game import MAX_DECISIONS, new_game
from engine.sim import ACTION_ID, SimState

#: The temperatures the screen reports by default (0.15 is the search's default).
TEMPERATURES = (0.05, 0.15, 0.5, 0.75, 1.0, 1.25, 1.5)

#: The normal policy with some noise: every sensible action has a weight (one object, as
#: the policy keeps tables per style).
_EVERY_SENSIBLE = replace(NORMAL, temperature=1.0)

#: A decision: the rules core's state as the deciding seat faced it (hidden cards
#: included; the policy reads only what that seat may know) and the action id it played.
Decision = tuple[SimState, int]


def policy_weights(s: SimState, style: Style) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """The action ids ``style`` may play for the current seat of ``s`` and the chance of
    each (:func:`engine.bots.policy.decide`): with a temperature, the softmax over the
    sensible actions a rollout draws from; without, an even share of the best scores' tie.

    >>> from engine.bots.policy import choose_id
    >>> from engine.rng import Rng
    >>> s = SimState.new(3, seed=2)
    >>> ids, chances = policy_weights(s, NORMAL)
    >>> ids == (choose_id(s, NORMAL, Rng(1)),), chances
    (True, (1.0,))
    >>> ids, chances = policy_weights(s, replace(NORMAL, temperature=1.0))
    >>> len(ids) > 1, round(sum(chances), 9)
    (True, 1.0)
    """
    ids, running = decide(s, style)
    if running is None:
        return ids, (1.0 / len(ids),) * len(ids)
    total = running[-1]
    return ids, tuple((b - a) / total for a, b in zip((0.0, *running), running, strict=False))


def decisions(players: int, races: int, seed: int, kind: str, **options: object) -> list[Decision]:
    """Every decision with more than one sensible action in ``races`` races between bots
    of ``kind`` (with ``options``, e.g. ``iterations=400`` for hard bots), seats seeded
    apart, the races dealt from ``seed`` on."""
    found: list[Decision] = []
    for race in range(races):
        game = new_game(players=players, seed=mix_seed(seed, race))
        bots = [make_bot(kind, mix_seed(seed, race, seat), **options) for seat in range(players)]
        for _ in range(MAX_DECISIONS):
            seat = game.current_seat
            if game.winner is not None or seat is None:
                break
            action = bots[seat].choose(game.view(seat))
            state = game.core.clone()
            if len(policy_weights(state, _EVERY_SENSIBLE)[0]) > 1:
                found.append((state, ACTION_ID[action]))
            game.apply(action)
    return found


def log_likelihood(found: Sequence[Decision], temperature: float) -> float:
    """The mean log-likelihood of the moves in ``found`` under the normal policy choosing
    at ``temperature`` (0: a uniform pick among its best scores' tie).

    A move the model gives no weight counts as likely as one in a million, so that one
    such move does not make the mean minus infinity.
    """
    style = replace(NORMAL, temperature=temperature)
    total = 0.0
    for state, action in found:
        ids, weights = policy_weights(state, style)
        chance = 0.0
        for candidate, weight in zip(ids, weights, strict=True):
            if candidate == action:
                chance = weight
        total += math.log(max(chance, 1e-6))
    return total / len(found) if found else 0.0


def anchors(found: Sequence[Decision]) -> tuple[float, float]:
    """A uniform pick's mean log-likelihood over the sensible actions of ``found``, and
    the share of moves that were the normal policy's best (or one of its tie)."""
    if not found:
        return 0.0, 0.0
    uniform = best = 0.0
    for state, action in found:
        ids, _ = policy_weights(state, _EVERY_SENSIBLE)
        uniform -= math.log(len(ids))
        best += action in policy_weights(state, NORMAL)[0]
    return uniform / len(found), best / len(found)


def main(argv: list[str] | None = None) -> None:
    """Print the log-likelihood of a bot kind's moves at each temperature."""
    parser = argparse.ArgumentParser(description="How well the opponent model fits a bot.")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--races", type=int, default=60)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--kind", default="hard", help="the bots whose moves are predicted")
    parser.add_argument("--iterations", type=int, default=400, help="hard bots' rollouts")
    parser.add_argument(
        "--temperatures", default=",".join(map(str, TEMPERATURES)), help="comma-separated"
    )
    args = parser.parse_args(argv)
    options: dict[str, object] = {"iterations": args.iterations} if args.kind == "hard" else {}
    found = decisions(args.players, args.races, args.seed, args.kind, **options)
    uniform, best = anchors(found)
    where = f"{args.kind} at {args.iterations} rollouts" if options else args.kind
    print(
        f"{args.players} players, {args.races} races of {where}: {len(found)} decisions "
        f"with more than one sensible action; the normal policy's best played in {best:.1%}"
    )
    print(f"uniform pick among the sensible actions  {uniform:.3f}")
    for temperature in (float(t) for t in args.temperatures.split(",")):
        figure = log_likelihood(found, temperature)
        print(f"normal policy at temperature {temperature:<5g}     {figure:.3f}")


if __name__ == "__main__":
    main()
