"""``Game.apply`` accepts an action that ``legal_actions()`` just listed without checking
the rules again: these tests pin down that this shortcut changes nothing (R7–R22 are
checked in test_rules.py; here: the same result as the full check, and no stale pass)."""

from __future__ import annotations

import pytest
from game_kit import VARIANT_COMBOS, variant_label

from engine import Action, Game, IllegalAction, Variants, new_game
from engine.rng import Rng


def _turns(players: int, variants: Variants, seed: int) -> list[Game]:
    """Every position of one random race (copies), the last one over."""
    game = new_game(players=players, seed=seed, variants=variants)
    rng = Rng(seed)
    seen = [game.clone()]
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[rng.below(len(actions))])
        seen.append(game.clone())
    return seen


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_a_listed_action_and_its_json_twin_play_the_same(variants: Variants) -> None:
    for players in (3, 4, 5):
        for position in _turns(players, variants, players)[:-1]:
            listed = position.clone()
            legal = listed.legal_actions()
            for i in (0, len(legal) // 2, len(legal) - 1):
                fast, checked = position.clone(), position.clone()
                fast.legal_actions()
                twin = Action.from_dict(legal[i].to_dict())
                assert twin is not legal[i]
                assert fast.apply(legal[i]) == checked.apply(twin)
                assert fast.to_dict() == checked.to_dict()


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_an_action_listed_before_the_last_move_is_checked_again(variants: Variants) -> None:
    refused = 0
    for position in _turns(4, variants, 9)[:-2]:
        game = position.clone()
        before = game.legal_actions()
        game.apply(before[0])
        if game.is_over:
            continue
        for action in before:
            if game.why_illegal(action) is not None:
                state = game.to_dict()
                with pytest.raises(IllegalAction):
                    game.apply(action)
                assert game.to_dict() == state
                refused += 1
    assert refused > 0


def test_a_listed_action_is_refused_for_the_wrong_seat_and_after_the_end() -> None:
    game = new_game(players=3, seed=4)
    action = game.legal_actions()[0]
    seat = game.current_seat
    assert seat is not None
    with pytest.raises(IllegalAction, match="turn"):
        game.apply(action, seat=(seat + 1) % 3)
    over = _turns(3, Variants(), 4)[-1]
    assert over.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        over.apply(action)


@pytest.mark.parametrize("junk", [None, "play", {"type": "play", "suit": "jelly"}, 0])
def test_anything_but_an_action_is_refused_right_after_the_list(junk: object) -> None:
    # Found by the mypyc build's test: the shortcut's lookup finds nothing for junk, and a
    # bare dict.get returns None for nothing, which once let None through as "listed".
    game = new_game(players=4, seed=3)
    game.legal_actions()
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="That is not an action"):
        game.apply(junk)
    assert game.to_dict() == before
    assert game.legal_actions()
