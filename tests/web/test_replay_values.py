"""The replay's cards count what they counted in the trick: a face-up 1 strikes 4s and 5s
(the Lichen effect, docs/rules.md R9), so the winner's card, gas and speed add up to the
total its trick-won event reports."""

from __future__ import annotations

import pytest
from game_kit import random_playout

from app.http.web.replay import positions, replay_steps
from engine import Variants, new_game
from engine.rng import Rng


def _struck_cards(seed: int) -> int:
    """Check every finished trick of one random race; return how many cards were struck."""
    game = new_game(players=3 + seed % 3, seed=seed, variants=Variants(zero_five=seed % 2 == 0))
    events = [game.deal_event().to_dict()]
    for _action, new_events in random_playout(game, Rng(seed)):
        events.extend(event.to_dict() for event in new_events)
    steps = replay_steps(events)
    struck = 0
    for step in steps:
        if step.winner is None:
            continue
        lichen = any(c.suit is not None and c.suit.id == "lichen" for c in step.cards)
        for card in step.cards:
            assert card.play is not None
            value, effective = card.play["value"], card.play["effective_value"]
            if value is None:
                continue
            assert effective == (0 if lichen and value in (4, 5) else value)
            struck += effective != value
        (best,) = [c.play for c in step.cards if c.is_best]
        assert best is not None and best["effective_value"] is not None
        total = best["effective_value"] + best["gas"] + (best["speed"] or 0)
        assert total == step.winner_final, step.lines
    assert steps
    return struck


def test_r9_replay_cards_show_what_the_lichen_left_them() -> None:
    assert sum(_struck_cards(seed) for seed in range(12)) > 0, "no race struck a card"


@pytest.mark.parametrize("seed", range(16))
def test_positions_add_up_to_the_games_own_numbers_after_every_move(seed: int) -> None:
    """The position the replay and the reveal show after each event, summed from the
    events alone, is the game's own after every move: each racer's gas, speed and laps,
    the middle and the removed gas (R4, R10, R11, R14, R15, R20, R22)."""
    variants = Variants(
        larger_hands=seed % 3 == 0,
        zero_suit="chippy" if seed % 4 == 1 else None,
        zero_five=seed % 2 == 0,
    )
    game = new_game(players=3 + seed % 3, seed=seed, variants=variants)
    events = [game.deal_event().to_dict()]
    checked = 0
    for _action, new_events in random_playout(game, Rng(seed)):
        events.extend(event.to_dict() for event in new_events)
        obs = game.observation(0)
        position = positions(events, game.players)[-1]
        assert [[s.gas, s.speed, s.laps] for s in position.seats] == [
            [p["gas"], p["speed"], p["laps"]] for p in obs["players"]
        ]
        assert (position.middle, position.removed) == (obs["middle"], obs["removed"])
        checked += 1
    assert checked > 20
