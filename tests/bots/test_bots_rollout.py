"""The hard bot's rollouts on the simulation path decide exactly as the heuristic does.

:func:`engine.bots.rollout.rollout` (SimState, integer actions, pruned scoring) must play
the same round as :func:`engine.bots.search.rollout` (checked Game, Situation, every
action scored) from the same position and generator: the same actions, the same random
draws, the same final state and values. Checked over positions of random games in every
player count and variant combination, for the normal style (argmax with random
tie-breaks) and the easy one (softmax over sensible actions).
"""

from __future__ import annotations

import pytest

from engine import Variants, new_game
from engine.bots import make_bot
from engine.bots.heuristic import EASY, NORMAL, Style, score_actions
from engine.bots.rollout import rollout, score_ids
from engine.bots.search import DEFAULT_NOISE, OPPONENT_MODELS, Stop, run_worlds
from engine.bots.search import rollout as checked_rollout
from engine.bots.situation import from_game
from engine.cards import RACER_SUITS
from engine.rng import Rng
from engine.sim import SimState, canonical


def _variants(index: int) -> Variants:
    larger, zero, zero_five = ((index >> bit) & 1 for bit in range(3))
    return Variants(
        larger_hands=bool(larger),
        zero_suit=RACER_SUITS[index % len(RACER_SUITS)] if zero else None,
        zero_five=bool(zero_five),
    )


@pytest.mark.parametrize("style", [NORMAL, EASY], ids=["normal", "easy"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_sim_rollouts_play_the_same_rounds_as_checked_rollouts(players: int, style: Style) -> None:
    compared = 0
    for index in range(24):
        game = new_game(players=players, seed=index, variants=_variants(index))
        rng = Rng(index)
        while game.winner is None:
            if rng.below(4) == 0:
                sim = SimState.from_game(game)
                copy = game.clone()
                expected = checked_rollout(copy, Rng(compared), style)
                assert rollout(sim, Rng(compared), style) == expected, (index, compared)
                assert sim.to_dict() == canonical(copy.to_dict()), (index, compared)
                compared += 1
            legal = game.legal_actions()
            game.apply(legal[rng.below(len(legal))])
    assert compared > 200


def test_sim_scores_are_the_heuristic_scores() -> None:
    """Every action's score and chance, not only the chosen one, are the same floats."""
    for index in range(40):
        game = new_game(players=3 + index % 3, seed=index, variants=_variants(index))
        rng = Rng(index)
        while game.winner is None:
            sim = SimState.from_game(game)
            for style in (NORMAL, EASY):
                assert score_ids(sim, sim.legal_key(), style) == score_actions(
                    from_game(game), style
                )
            legal = game.legal_actions()
            game.apply(legal[rng.below(len(legal))])


def test_other_seats_play_their_own_style() -> None:
    """``others`` drives every seat but ``seat``: the same style gives the same round as
    one style for all, and a different one changes some rounds (it is really used)."""
    changed = 0
    for index in range(30):
        state = SimState.new(4, index)
        seat = state.turn
        same = rollout(state.clone(), Rng(index), NORMAL, NORMAL, seat)
        assert same == rollout(state.clone(), Rng(index), NORMAL)
        other = state.clone()
        rollout(other, Rng(index), NORMAL, EASY, seat)
        plain = state.clone()
        rollout(plain, Rng(index), NORMAL)
        changed += other.to_dict() != plain.to_dict()
    assert changed > 0


@pytest.mark.parametrize("models", [0, len(OPPONENT_MODELS) + 1])
def test_hard_bot_rejects_an_unknown_number_of_opponent_models(models: int) -> None:
    with pytest.raises(ValueError, match="models"):
        make_bot("hard", 1, iterations=10, models=models)


@pytest.mark.parametrize("models", [1, len(OPPONENT_MODELS)])
def test_hard_bot_plays_legally_with_each_opponent_modelling(models: int) -> None:
    game = new_game(players=4, seed=8)
    observation = game.observation(game.current_seat or 0)
    bot = make_bot("hard", 3, iterations=60, models=models)
    assert bot.choose(observation) in game.legal_actions()


@pytest.mark.parametrize("noise", [-0.1, 10.5])
def test_hard_bot_rejects_noise_out_of_range(noise: float) -> None:
    with pytest.raises(ValueError, match="noise"):
        make_bot("hard", 1, iterations=10, noise=noise)


def test_noise_reaches_the_modelled_opponents_and_only_them() -> None:
    # The same worlds and rollout seeds: noise 0 plays the normal model exactly (twice the
    # same rows); noise changes the opponents' replies, so some values move.
    game = new_game(players=4, seed=8)
    seat = game.current_seat or 0
    observation = game.observation(seat)
    shortlist = game.legal_actions()[:3]
    stop = Stop(60, None)
    exact = run_worlds(observation, shortlist, 5, stop, prune=False, noise=0.0)[0]
    assert exact == run_worlds(observation, shortlist, 5, stop, prune=False, noise=0.0)[0]
    noisy = run_worlds(observation, shortlist, 5, stop, prune=False, noise=DEFAULT_NOISE)[0]
    assert len(noisy) == len(exact)
    assert noisy != exact
