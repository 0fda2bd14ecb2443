"""The simulation path (engine/sim.py) plays exactly the game of the checked path.

Differential testing: seeded random games are played on a :class:`Game` and a
:class:`SimState` side by side, action by action, over every player count and every
variant combination (the 0 suit replacing each racer suit in turn). After every action
the legal action sets must be equal (same actions, same order), the states must be equal,
and at the end the winners. Every tenth game compares the whole saved state
(``to_dict``, hands as sets) after every action; the others compare every field of the
state except the public trick records, which those full comparisons cover.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine import Game, Variants, new_game
from engine.cards import RACER_SUITS, SUIT_ORDER
from engine.rng import Rng
from engine.sim import ACTIONS, SUIT_INDEX, SimState, canonical

GAMES = 10_080  # 3 player counts x 8 variant combinations x 420 deals
FULL_EVERY = 10


def _variants(index: int) -> Variants:
    larger, zero, zero_five = ((index >> bit) & 1 for bit in range(3))
    return Variants(
        larger_hands=bool(larger),
        zero_suit=RACER_SUITS[(index // 8) % len(RACER_SUITS)] if zero else None,
        zero_five=bool(zero_five),
    )


def _fields(game: Game) -> tuple[Any, ...]:
    """Every part of a checked game's state but the trick records, in the sim's terms."""
    return (
        game.round,
        game.trick,
        game.lead,
        game.current_seat,
        game.middle,
        game.removed,
        game.winner,
        game.rng.state,
        game.gas,
        game.speed,
        game.laps,
        game.zero_five,
        [[hand.count(suit) for suit in SUIT_ORDER] for hand in game.hands],
        [SUIT_INDEX[card] for card in game.discards],
        [SUIT_INDEX[card] for card in game.set_aside],
        [p.to_dict() for p in game.plays],
        game.lap_order,
        len(game.round_tricks),
    )


def _sim_fields(sim: SimState) -> tuple[Any, ...]:
    return (
        sim.round,
        sim.trick,
        sim.lead,
        None if sim.winner >= 0 else sim.turn,
        sim.middle,
        sim.removed,
        None if sim.winner < 0 else sim.winner,
        sim.rng.state,
        sim.gas,
        sim.speed,
        sim.laps,
        sim.zero_five,
        sim.hands,
        sim.discards,
        sim.set_aside,
        [p.to_dict() for p in sim.trick_plays()],
        sim.lap_order,
        len(sim.tricks),
    )


def _play_both(players: int, variants: Variants, seed: int, full: bool) -> int:
    """Play one random game on both paths, comparing as it goes; return its length."""
    game = new_game(players=players, seed=seed, variants=variants)
    sim = SimState.new(players, seed, variants)
    assert sim.to_dict() == canonical(game.to_dict())
    rng = Rng(seed)
    moves = 0
    while game.winner is None:
        legal = game.legal_actions()
        ids = sim.legal()
        assert [ACTIONS[i] for i in ids] == legal, (players, variants, seed, moves)
        pick = rng.below(len(ids))
        game.apply(legal[pick])
        sim.apply(ids[pick])
        moves += 1
        assert _sim_fields(sim) == _fields(game), (players, variants, seed, moves)
        if full:
            assert sim.to_dict() == canonical(game.to_dict()), (players, variants, seed, moves)
    assert sim.winner == game.winner
    assert sim.to_dict() == canonical(game.to_dict())
    return moves


@pytest.mark.slow
def test_sim_path_agrees_with_checked_path_over_10000_games() -> None:
    combos = list(itertools.product((3, 4, 5), range(8)))
    moves = 0
    for game_index in range(GAMES):
        players, variant_index = combos[game_index % len(combos)]
        variants = _variants(variant_index + 8 * (game_index // len(combos)))
        moves += _play_both(players, variants, game_index, game_index % FULL_EVERY == 0)
    assert moves > GAMES * 50  # the games really were played


@pytest.mark.parametrize("players", [3, 4, 5])
def test_conversion_both_ways_is_exact_at_every_point(players: int) -> None:
    """Game -> SimState -> Game at every action of a few games in every variant, and the
    converted states continue exactly as the original."""
    for variant_index in range(8):
        variants = _variants(variant_index * 9)
        game = new_game(players=players, seed=variant_index, variants=variants)
        rng = Rng(variant_index)
        while game.winner is None:
            sim = SimState.from_game(game)
            assert sim.to_dict() == canonical(game.to_dict())
            back = sim.to_game()
            assert canonical(back.to_dict()) == canonical(game.to_dict())
            assert back.legal_actions() == game.legal_actions()
            legal = game.legal_actions()
            pick = rng.below(len(legal))
            game.apply(legal[pick])
            back.apply(legal[pick])
            sim.apply(sim.legal()[pick])
            assert sim.to_dict() == canonical(game.to_dict()) == canonical(back.to_dict())


def test_a_clone_is_independent() -> None:
    sim = SimState.new(4, 7)
    before = sim.to_dict()
    copy = sim.clone()
    rng = Rng(7)
    while copy.winner < 0:
        legal = copy.legal()
        copy.apply(legal[rng.below(len(legal))])
    assert sim.to_dict() == before
    assert copy.to_dict() != before
