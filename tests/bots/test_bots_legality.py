"""Bots only ever return legal actions: thousands of random positions, every variant,
3 to 5 seats; the hard bot on fewer positions with a small fixed budget."""

from __future__ import annotations

import pytest
from game_kit import VARIANT_COMBOS, random_positions, variant_label

from engine import Action, Variants, new_game
from engine.bots import BOT_LEVELS, make_bot

CHEAP_KINDS = [k for k in BOT_LEVELS if k != "hard"]


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_cheap_bots_only_play_legal_actions(variants: Variants, players: int) -> None:
    checked = 0
    for n, game in enumerate(random_positions(players, variants, seed=players, count=150)):
        seat = game.current_seat
        assert seat is not None
        observation = game.observation(seat)
        legal = game.legal_actions()
        for kind in CHEAP_KINDS:
            action = make_bot(kind, seed=n).choose(observation)
            assert isinstance(action, Action)
            assert action in legal, (kind, action, game.to_dict())
            assert action.to_dict() in observation["legal_actions"]
            checked += 1
    assert checked == 150 * len(CHEAP_KINDS)


@pytest.mark.parametrize("variants", VARIANT_COMBOS, ids=variant_label)
def test_hard_bot_only_plays_legal_actions(variants: Variants) -> None:
    for n, game in enumerate(random_positions(4, variants, seed=11, count=12, stride=7)):
        seat = game.current_seat
        assert seat is not None
        action = make_bot("hard", seed=n, iterations=24).choose(game.observation(seat))
        assert action in game.legal_actions(), (action, game.to_dict())


@pytest.mark.parametrize("kind", BOT_LEVELS)
def test_bots_finish_whole_games_in_every_variant(kind: str) -> None:
    """Whole games with bots in every seat end with a winner (no stuck or illegal move)."""
    options = {"iterations": 6, "candidates": 3} if kind == "hard" else {}
    for index, variants in enumerate(VARIANT_COMBOS if kind != "hard" else VARIANT_COMBOS[::3]):
        game = new_game(players=3 + index % 3, seed=index, variants=variants)
        moves = 0
        while not game.is_over:
            seat = game.current_seat
            assert seat is not None
            bot = make_bot(kind, seed=moves, **options)
            game.apply(bot.choose(game.observation(seat)), seat)
            moves += 1
            assert moves < 3000
        assert game.winner is not None


def test_unknown_kind_and_options_are_refused() -> None:
    with pytest.raises(ValueError, match="Unknown bot kind"):
        make_bot("expert", seed=1)
    with pytest.raises(ValueError, match="takes no options"):
        make_bot("normal", seed=1, iterations=5)
    with pytest.raises(ValueError, match="depth"):
        make_bot("hard", seed=1, depth=3)


def test_bots_refuse_an_observation_without_a_turn() -> None:
    game = new_game(players=3, seed=1)
    seat = game.current_seat
    assert seat is not None
    waiting = game.observation((seat + 1) % 3)
    for kind in BOT_LEVELS:
        with pytest.raises(ValueError, match="not this seat's turn"):
            make_bot(kind, seed=1).choose(waiting)
