"""The opponent-model screen: its chances are the ones a rollout draws from, and its
log-likelihood tells a bot the model describes from one it does not."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import pytest

from bench.model_fit import anchors, decisions, log_likelihood, main, policy_weights
from engine.bots.heuristic import NORMAL
from engine.bots.policy import choose_id
from engine.rng import Rng
from engine.sim import SimState


def test_policy_weights_are_the_chances_a_rollout_draws_with() -> None:
    style = replace(NORMAL, temperature=1.0)
    state = SimState.new(4, seed=9)
    ids, chances = policy_weights(state, style)
    assert len(ids) > 2 and math.isclose(sum(chances), 1.0)
    draws = Counter(choose_id(state, style, Rng(k)) for k in range(4000))
    assert set(draws) <= set(ids)
    for action, chance in zip(ids, chances, strict=True):
        assert abs(draws[action] / 4000 - chance) < 0.03


def test_without_a_temperature_the_chance_is_shared_by_the_best_scores() -> None:
    state = SimState.new(3, seed=2)
    ids, chances = policy_weights(state, NORMAL)
    assert chances == (1.0 / len(ids),) * len(ids)
    assert all(choose_id(state, NORMAL, Rng(k)) in ids for k in range(20))


def test_decisions_are_the_moves_made_where_there_was_a_choice() -> None:
    found = decisions(3, 2, seed=7, kind="normal")
    assert len(found) > 20
    wide = replace(NORMAL, temperature=1.0)
    for state, action in found:
        assert action in state.legal()
        assert len(policy_weights(state, wide)[0]) > 1


def test_the_normal_bot_is_described_exactly_and_a_random_one_is_not() -> None:
    normal = decisions(3, 2, seed=7, kind="normal")
    uniform, best = anchors(normal)
    assert best == 1.0
    exact = log_likelihood(normal, 0.0)
    assert exact > log_likelihood(normal, 1.0) > uniform
    # Every move is one of the best scores' tie, which shares the chance evenly.
    ties = [len(policy_weights(state, NORMAL)[0]) for state, _ in normal]
    assert exact == pytest.approx(-sum(math.log(n) for n in ties) / len(ties))
    chaotic = decisions(3, 2, seed=7, kind="random")
    uniform, best = anchors(chaotic)
    assert best < 0.5
    # Random moves are often not even sensible: the sharp model finds them unlikely.
    assert log_likelihood(chaotic, 0.15) < log_likelihood(chaotic, 1.5) < uniform + 1.0


def test_the_log_likelihood_is_the_mean_log_chance_of_each_move() -> None:
    found = decisions(3, 1, seed=3, kind="normal")[:12]
    style = replace(NORMAL, temperature=0.5)
    by_hand = []
    for state, action in found:
        ids, chances = policy_weights(state, style)
        by_hand.append(math.log(chances[ids.index(action)]))
    assert log_likelihood(found, 0.5) == pytest.approx(sum(by_hand) / len(by_hand))


def test_the_screen_prints_every_temperature(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--races", "1", "--kind", "hard", "--iterations", "20", "--temperatures", "0.15,1"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("3 players, 1 races of hard at 20 rollouts:")
    assert "uniform pick" in lines[1]
    assert lines[2].split()[-1] != lines[3].split()[-1]
