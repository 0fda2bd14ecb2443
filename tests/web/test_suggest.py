"""The hint's numbers and sentences: computed from one seat's observation only."""

from __future__ import annotations

import random

from game_kit import reshuffle_hidden

from app.http.web.suggest import preview, preview_sentence, reason, suggest
from engine import Action, Game, Variants, new_game
from engine.options import Best


def _position(last: bool = False) -> Game:
    """Orange led Chippy + 1 gas (4), Yellow played Beans (4); seat 0 holds Salty, Chippy,
    Jelly (only Jelly in the sixth trick)."""
    hands = [
        ["salty", "chippy", "jelly"],
        ["lichen", "chippy", "slippy"],
        ["salty", "beans", "beans"],
    ]
    if last:
        hands = [["jelly"], ["chippy"], ["beans"]]
    game = new_game(players=3, seed=1, hands=hands, lead=1, gas=[3, 5, 5], middle=2)
    game.apply(Action.from_dict({"type": "play", "suit": "chippy", "gas": 1}), seat=1)
    game.apply(Action.from_dict({"type": "play", "suit": "beans", "gas": 0}), seat=2)
    return game


def test_preview_reads_the_observations_own_numbers() -> None:
    obs = _position().observation(0)
    jelly = preview(obs, {"type": "play", "suit": "jelly", "gas": 2})
    assert jelly is not None and (jelly.final, jelly.gas_left) == (6, 1)
    assert jelly.best == Best(seat=1, final=4) and jelly.beats()
    salty = preview(obs, {"type": "play", "suit": "salty", "gas": 0})
    # Salty grabs 1 gas from the middle first, so 4 gas are on hand, 4 left.
    assert salty is not None and (salty.final, salty.gas_left) == (2, 4) and not salty.beats()
    tune = preview(obs, {"type": "tune_up", "suit": "chippy", "gas": 0})
    assert tune is not None and tune.final is None and not tune.beats()
    assert preview(obs, {"type": "play", "suit": "chippy", "gas": 0}) is None  # blocked


def test_sentences_name_the_rival_the_card_and_the_gas_kept() -> None:
    obs = _position().observation(0)
    assert (
        reason(obs, {"type": "play", "suit": "jelly", "gas": 2})
        == "Beats Orange's 4 with Jelly (4) + 2 gas, scoring 6, keeping 1 gas for trick 6."
    )
    assert (
        reason(obs, {"type": "play", "suit": "salty", "gas": 0})
        == "Lets Orange's 4 stand: Salty (2) goes in cheaply, keeping 4 gas for trick 6."
    )
    assert (
        reason(obs, {"type": "tune_up", "suit": "chippy", "gas": 0})
        == "Tune Up with Chippy rather than chase Orange's 4: 2 gas waits in the middle."
    )
    assert (
        preview_sentence(obs, {"type": "play", "suit": "jelly", "gas": 1})
        == "Jelly (4) + 1 gas scores 5: beats Orange's 4."
    )
    assert "cannot go face up" in preview_sentence(obs, {"type": "play", "suit": "chippy"})


def test_the_sixth_trick_is_about_the_lap() -> None:
    obs = _position(last=True).observation(0)
    line = reason(obs, {"type": "play", "suit": "jelly", "gas": 1})
    assert line == "Beats Orange's 4 with Jelly (4) + 1 gas, scoring 5 to take the lap."


def test_a_suggestion_is_legal_and_sees_only_the_observation() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        variants = Variants(larger_hands=seed % 2 == 0, zero_suit="chippy", zero_five=True)
        game = new_game(players=3 + seed % 3, seed=seed, variants=variants)
        while not game.is_over:
            if game.current_seat == 0:
                obs = game.observation(0)
                hint = suggest(obs, seed=checked)
                assert Action.from_dict(hint["action"]) in game.legal_actions()
                assert hint["reason"].endswith(".") and "None" not in hint["reason"]
                twin = reshuffle_hidden(game, 0, rng)
                assert suggest(twin.observation(0), seed=checked) == hint
                checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 100
