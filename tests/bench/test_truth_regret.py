"""The regret screen against the real deal: its truth is the real game's, its regrets are
what a choice gives up against the best sensible action, and it prints every variant."""

from __future__ import annotations

import pytest

from bench.truth_regret import WIDEST, choice, main, positions, regrets, truth
from engine.bots.base import mix_seed
from engine.bots.heuristic import NORMAL
from engine.bots.rollout import rollout_seats
from engine.rng import Rng
from engine.sim import ACTION_ID


def test_positions_carry_the_real_game_and_its_sensible_actions() -> None:
    for core, view, ranked in positions(3, seed=4):
        assert view.seat is not None and core.turn == view.seat
        assert core.hands[view.seat] == list(view.hand)
        assert 1 < len(ranked) <= WIDEST
        assert all(action in view.legal_actions() for action in ranked)


def test_truth_is_the_real_round_against_normal_bots() -> None:
    core, view, ranked = positions(1, seed=4)[0]
    seat = view.seat
    assert seat is not None
    values = truth(core, seat, ranked[:3])
    for action in ranked[:3]:
        runs = []
        for k in range(3):
            state = core.clone()
            state.apply(ACTION_ID[action])
            runs.append(rollout_seats(state, Rng(k), [NORMAL] * state.players, False)[seat])
        assert values[action] == sum(runs) / 3
    # The real game is left as it was: working out the truth twice gives the same values.
    assert values == truth(core, seat, ranked[:3])


def test_regrets_are_what_the_choice_gives_up(capsys: pytest.CaptureFixture[str]) -> None:
    found = regrets(2, 1, ["0.15/0/3/24", "0.15/0.3/3/24"], seed=4)
    assert all(len(v) == 2 for v in found.values())
    pairs = zip(positions(2, seed=4), found["0.15/0/3/24"], strict=True)
    for p, ((core, view, ranked), regret) in enumerate(pairs):
        assert view.seat is not None
        values = truth(core, view.seat, ranked)
        picked = choice(view, ranked, "0.15/0/3/24", mix_seed(p, 0))
        assert picked in ranked[:3]
        assert regret == max(values.values()) - values[picked] >= 0.0
    main(["--positions", "1", "--seeds", "1", "--variants", "0.15/0/2/16,0/0/2/16"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and "minus first +0.0000" in lines[1]


def test_a_variant_may_search_for_a_cpu_time_instead_of_a_count() -> None:
    core, view, ranked = positions(1, seed=4)[0]
    assert view.seat is not None
    assert choice(view, ranked, "0.15/0/4/30ms", 5) in ranked[:4]
    values = truth(core, view.seat, ranked)
    (regret,) = regrets(1, 1, ["0.15/0/4/30ms"], seed=4)["0.15/0/4/30ms"]
    # Whatever the search picked, its regret is what that pick gives up against the best.
    assert any(regret == max(values.values()) - values[a] for a in ranked[:4])
    with pytest.raises(ValueError):
        choice(view, ranked, "0.15/0/4/soon", 5)
