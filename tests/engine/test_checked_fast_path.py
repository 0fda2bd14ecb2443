"""``Game.apply`` accepts an action that ``legal_actions()`` just listed without checking
the rules again: these tests pin down that this shortcut changes nothing (R7–R22 are
checked in test_rules.py; here: the same result as the full check, and no stale pass)."""

from __future__ import annotations

import pytest
from game_kit import VARIANT_COMBOS, variant_label

from engine import Action, Game, IllegalAction, SeatView, Variants, new_game
from engine.rng import Rng
from engine.sim import ACTION_ID, ACTIONS


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
    with pytest.raises(IllegalAction, match="not_your_turn"):
        game.apply(action, seat=(seat + 1) % 3)
    over = _turns(3, Variants(), 4)[-1]
    assert over.legal_actions() == []
    with pytest.raises(IllegalAction, match="race_over"):
        over.apply(action)


@pytest.mark.parametrize("junk", [None, "play", {"type": "play", "suit": "jelly"}, 0])
def test_anything_but_an_action_is_refused_right_after_the_list(junk: object) -> None:
    # Found by the mypyc build's test: the shortcut's lookup finds nothing for junk, and a
    # bare dict.get returns None for nothing, which once let None through as "listed".
    game = new_game(players=4, seed=3)
    game.legal_actions()
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="not_an_action"):
        game.apply(junk)
    assert game.to_dict() == before
    assert game.legal_actions()


def _core_state(game: Game) -> dict[str, object]:
    """Every slot of the game's core, the generator's state in place of the generator."""
    core = game.core
    state = {name: getattr(core, name) for name in type(core).__slots__ if name != "rng"}
    state["rng"] = core.rng.state
    return state


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_a_seeded_deal_is_the_general_set_up_and_plays_the_same(variants: Variants) -> None:
    # new_game builds a plain seeded deal directly; an explicit full tank for every seat
    # (the default, spelled out) takes the general set-up.
    for players in (3, 4, 5):
        for seed in range(12):
            plain = new_game(players=players, seed=seed, variants=variants)
            general = new_game(players=players, seed=seed, variants=variants, gas=[5] * players)
            assert _core_state(plain) == _core_state(general)
            rng = Rng(seed)
            while not plain.is_over:
                actions = plain.legal_actions()
                assert actions == general.legal_actions()
                pick = rng.below(len(actions))
                assert plain.apply(actions[pick]) == general.apply(actions[pick])
            assert plain.to_dict() == general.to_dict()


class _OwnAction(Action):
    """A subclass: never equal to the table's actions (Action's __eq__ wants its class)."""

    __slots__ = ()


def _old_legal_id(game: Game, action: object) -> int:
    """The lookup Game.legal_id made before it read a fresh action's fields as a tuple."""
    if game.is_over or not isinstance(action, Action):
        return -1
    aid = ACTION_ID.get(action, -1)
    value = action.value
    if aid < 0 or type(action.gas) is not int or (value is not None and type(value) is not int):
        return -1
    return aid if ACTIONS[aid] in game.legal_actions() else -1


def test_a_fresh_action_is_found_exactly_as_by_its_hash_and_equality() -> None:
    game = new_game(players=4, seed=21, variants=VARIANT_COMBOS[-1])
    rng = Rng(21)
    checked = 0
    while not game.is_over:
        for a in [*game.legal_actions(), *ACTIONS[::7]]:
            fields = (a.type, a.suit, a.gas, a.zero_effect, a.value, a.discard)
            as_text = tuple(None if f is None or type(f) is int else str(f) for f in fields)
            odd: list[object] = [
                Action(*fields),
                Action(*as_text),  # type: ignore[arg-type]
                Action(a.type, a.suit, a.gas == 1, a.zero_effect, a.value, a.discard),
                Action(a.type, a.suit, float(a.gas), a.zero_effect, a.value, a.discard),  # type: ignore[arg-type]
                _OwnAction(*fields),
                fields,
            ]
            for action in odd:
                assert game.legal_id(action) == _old_legal_id(game, action)
                checked += 1
        actions = game.legal_actions()
        game.apply(actions[rng.below(len(actions))])
    assert checked > 1000


@pytest.mark.parametrize("stride", [1, 3, 7])
def test_views_asked_now_and_then_equal_views_built_from_nothing(stride: int) -> None:
    # Game.view keeps the hand sizes up to date move by move once a view has asked for
    # them, and remembers the round's public tricks: asked every turn or only now and then,
    # and on clones, its views are the ones SeatView.of builds from the core alone.
    for variants in VARIANT_COMBOS[::3]:
        game = new_game(players=5, seed=stride, variants=variants)
        rng = Rng(stride)
        turn = 0
        while not game.is_over:
            if turn % stride == 0:
                for seat in [*range(game.players), None]:
                    assert game.view(seat) == SeatView.of(game.core, seat)
                twin = game.clone()
                assert twin.view(0) == game.view(0)
            actions = game.legal_actions()
            game.apply(actions[rng.below(len(actions))])
            turn += 1
        assert game.view(None) == SeatView.of(game.core, None)
