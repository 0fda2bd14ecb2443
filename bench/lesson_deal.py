"""Search for the guided race's deal: ``python -m bench.lesson_deal [--seeds 400]``.

For each engine seed it plays the lesson (:mod:`app.races.lesson`) the way the server does
(the same bots, seeded per decision as ``app.bots.runner`` seeds them), the learner always
taking the coach's advice, and plans the ideas greedily: at each of the learner's turns
the next idea of :data:`app.races.lesson.IDEAS` is introduced if the position lets the
coach show it (ideas that only explain the table may join one that asks for a move). A
seed qualifies when every idea was introduced, in order, and the learner wins the race in
two rounds. It prints the qualifying seeds and, for the first, the plan to paste into
``LESSON_STEPS`` with the coach's words at each step.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from app.bots.runner import bot_seed, choose_bot_action
from app.races import lesson
from engine import Game, new_game
from engine.shapes import Observation


@dataclass
class Played:
    """One coached run of the lesson: the plan it used or found, what the coach said at
    each step, and how the race ended."""

    plan: dict[int, tuple[str, ...]] = field(default_factory=dict)
    words: list[str] = field(default_factory=list)
    winner: int | None = None
    rounds: int = 0
    steps: int = 0


def lesson_game(seed: int, lead: int = lesson.LESSON_LEAD) -> Game:
    """The lesson's game for an engine seed, as the server would deal it from that seed."""
    return new_game(players=lesson.LESSON_PLAYERS, seed=seed, lead=lead)


def play(seed: int, plan: dict[int, tuple[str, ...]] | None = None, max_steps: int = 60) -> Played:
    """Play the coached lesson from ``seed``; with ``plan`` None, plan it greedily."""
    game = lesson_game(seed)
    run = Played(plan={} if plan is None else dict(plan))
    untaught = list(lesson.IDEAS)
    decisions = 0
    while not game.is_over and run.steps < max_steps:
        seat = game.current_seat
        assert seat is not None
        if seat != lesson.LEARNER:
            action = choose_bot_action(
                lesson.LESSON_BOTS, game, seat, bot_seed(seed, seat, decisions)
            )
            decisions += 1
            game.apply(action, seat=seat)
            continue
        obs = game.observation(seat)
        step = lesson.step_of(obs)
        if plan is None:
            ideas = _greedy(untaught, obs)
            if ideas:
                run.plan[step] = ideas
        coaching = lesson.coach_with(obs, run.plan.get(step, ()), step)
        run.words.append(" ".join(said.code for said in (*coaching.lines, coaching.ask)))
        game.apply(coaching.action, seat=seat)
        run.steps += 1
    obs = game.observation(lesson.LEARNER)
    run.winner, run.rounds = obs["winner"], obs["round"]
    return run


def _greedy(untaught: list[str], obs: Observation) -> tuple[str, ...]:
    taken: list[str] = []
    asks = False
    while untaught and lesson.applies(untaught[0], obs):
        idea = untaught[0]
        if idea not in lesson.PASSIVE:
            if asks:
                break
            asks = True
        taken.append(untaught.pop(0))
    return tuple(taken)


def qualifies(run: Played) -> bool:
    """Every idea taught, the learner the winner, in two rounds."""
    taught = [idea for step in sorted(run.plan) for idea in run.plan[step]]
    return taught == list(lesson.IDEAS) and run.winner == lesson.LEARNER and run.rounds == 2


def main() -> None:
    """Print the seeds that qualify and the first one's plan."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=400)
    parser.add_argument("--start", type=int, default=1)
    args = parser.parse_args()
    found = [seed for seed in range(args.start, args.start + args.seeds) if qualifies(play(seed))]
    print(f"{len(found)} of {args.seeds} seeds qualify: {found[:20]}")
    if found:
        run = play(found[0])
        print(f"seed {found[0]}: plan {run.plan}")
        for number, words in enumerate(run.words):
            print(f"  step {number}: {words}")


if __name__ == "__main__":
    main()
