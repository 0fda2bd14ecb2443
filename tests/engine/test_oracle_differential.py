"""The one rules core plays exactly the game of the engine it replaced.

Differential testing against an oracle: the checked engine as it was before
:class:`~engine.game.Game` became a wrapper over the core (``tests/engine/oracle/
old_game.py``, kept unchanged, with its own rules code) plays seeded random games side by
side with the new :class:`Game` and the bare core :class:`SimState`, action by action,
over every player count and every variant combination (the 0 suit replacing each racer
suit in turn). After every action: the legal sets are equal (same actions, same order),
the events are equal, the states are equal (every field of the core's; every tenth game
the whole saved state, hands as sets, after every action), and at the end the winners.
A refusal's sentence is compared too, for a few illegal actions per game. The big run
(10,080 games) is marked ``slow`` (the README's slow sweeps, run by CI too); a smaller one
always runs.
"""

from __future__ import annotations

from typing import Any

import pytest
from game_kit import canonical, cycled_variants, differential_race
from oracle import old_game

from app.http.race_words import refusal_sentence
from engine import Action, Game, IllegalAction, Variants, new_game
from engine.cards import SUIT_ORDER
from engine.rng import Rng
from engine.sim import ACTIONS, SUIT_INDEX, SimState

GAMES = 10_080  # 3 player counts x 8 variant combinations x 420 deals
QUICK_GAMES = 240  # 3 x 8 x 10, always run
FULL_EVERY = 10


def _fields(game: Any) -> tuple[Any, ...]:
    """Every part of a game's state but the trick records, in the core's terms (for the
    oracle's Game and the new one alike: the new one keeps most of them in its core)."""
    if isinstance(game, Game):
        core, discards = game.core, list(game.core.discards)
        plays, tricks = game.to_dict()["plays"], game.core.tricks
    else:
        core, discards = game, [SUIT_INDEX[card] for card in game.discards]
        plays, tricks = [p.to_dict() for p in game.plays], game.round_tricks
    return (
        core.round,
        core.trick,
        core.lead,
        game.current_seat,
        core.middle,
        core.removed,
        game.winner,
        core.rng.state,
        list(game.gas),
        list(core.speed),
        list(game.laps),
        list(core.zero_five),
        [[hand.count(suit) for suit in SUIT_ORDER] for hand in game.hands],
        discards,
        [SUIT_INDEX[card] for card in game.set_aside],
        plays,
        list(core.lap_order),
        len(tricks),
    )


def _refusals(oracle: Any, game: Game, rng: Rng) -> None:
    """A few illegal actions: both refuse them with the same sentence (the engine's refusal
    worded by the catalog), nothing changed."""
    legal = set(game.legal_actions())
    for _ in range(3):
        action = ACTIONS[rng.below(len(ACTIONS))]
        if action in legal:
            continue
        twin = Action.from_dict(action.to_dict())
        refusal = game.why_illegal(twin)
        assert refusal is not None and oracle.why_illegal(twin) == refusal_sentence(refusal)
        state = game.to_dict()
        with pytest.raises(IllegalAction) as refused:
            game.apply(twin)
        assert refused.value.refusal == refusal
        assert game.to_dict() == state


def _play_all(players: int, variants: Variants, seed: int, full: bool) -> int:
    """Play one random game on the oracle, the new Game and the bare core, comparing as
    it goes; return its length."""
    oracle = old_game.new_game(players=players, seed=seed, variants=variants)
    game = new_game(players=players, seed=seed, variants=variants)
    sim = SimState.new(players, seed, variants)
    assert game.to_dict() == sim.to_dict() == canonical(oracle.to_dict())
    assert game.deal_event() == oracle.deal_event()
    rng = Rng(seed)
    moves = 0
    while oracle.winner is None:
        legal = oracle.legal_actions()
        assert game.legal_actions() == legal, (players, variants, seed, moves)
        ids = sim.legal()
        assert [ACTIONS[i] for i in ids] == legal
        if moves % 7 == 0:
            _refusals(oracle, game, rng)
        pick = rng.below(len(ids))
        # A fresh copy, as a request brings it, on the new Game; the listed one on the oracle.
        fresh = Action.from_dict(legal[pick].to_dict())
        told = [e.to_dict() for e in oracle.apply(legal[pick])]
        assert [e.to_dict() for e in game.apply(fresh)] == told, (players, variants, seed, moves)
        sim.apply(ids[pick])
        moves += 1
        assert _fields(game) == _fields(oracle), (players, variants, seed, moves)
        if full:
            assert game.to_dict() == sim.to_dict() == canonical(oracle.to_dict())
            saved = game.to_dict()
            assert (saved["round_tricks"], saved["last_trick"]) == (
                oracle.round_tricks,
                oracle.last_trick,
            )
    assert game.winner == sim.winner == oracle.winner
    assert game.to_dict() == sim.to_dict() == canonical(oracle.to_dict())
    return moves


def _run(games: int) -> int:
    moves = 0
    for game_index in range(games):
        players, variants = differential_race(game_index)
        moves += _play_all(players, variants, game_index, game_index % FULL_EVERY == 0)
    return moves


@pytest.mark.slow
def test_the_core_agrees_with_the_oracle_over_10000_games() -> None:
    assert _run(GAMES) > GAMES * 50  # the games really were played


def test_the_core_agrees_with_the_oracle_over_a_few_hundred_games() -> None:
    assert _run(QUICK_GAMES) > QUICK_GAMES * 50


@pytest.mark.parametrize("players", [3, 4, 5])
def test_conversion_both_ways_is_exact_at_every_point(players: int) -> None:
    """Game -> SimState -> Game at every action of a few games in every variant, and the
    converted states continue exactly as the original."""
    for variant_index in range(8):
        variants = cycled_variants(variant_index * 9)
        game = new_game(players=players, seed=variant_index, variants=variants)
        rng = Rng(variant_index)
        while game.winner is None:
            sim = game.core.clone()
            assert sim.to_dict() == canonical(game.to_dict())
            back = Game.over(sim.clone())
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
