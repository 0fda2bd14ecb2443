"""Bots are reproducible, cannot leak hidden cards, and play sensibly in clear positions."""

from __future__ import annotations

import gc
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest
from game_kit import VARIANT_COMBOS, random_positions

from engine import Action, ActionType, Game, Suit, new_game
from engine.bots import BOT_LEVELS, make_bot
from engine.bots.determinize import Determinizer
from engine.rng import Rng

OPTIONS: dict[str, dict[str, int]] = {"hard": {"iterations": 40}}


def _choose(kind: str, seed: int, game: Game) -> Action:
    seat = game.current_seat
    assert seat is not None
    return make_bot(kind, seed, **OPTIONS.get(kind, {})).choose(game.observation(seat))


@pytest.mark.parametrize("kind", BOT_LEVELS)
def test_same_observation_and_seed_give_the_same_move(kind: str) -> None:
    for n, game in enumerate(random_positions(4, VARIANT_COMBOS[n_variant(kind)], 5, 10, stride=5)):
        observation = game.observation(game.current_seat or 0)
        moves = {make_bot(kind, n, **OPTIONS.get(kind, {})).choose(observation) for _ in range(3)}
        assert len(moves) == 1
        # A bot object reused for the same observation answers the same too.
        bot = make_bot(kind, n, **OPTIONS.get(kind, {}))
        assert bot.choose(observation) == bot.choose(observation)


def n_variant(kind: str) -> int:
    """Spread the kinds over different variant sets."""
    return BOT_LEVELS.index(kind) * 2 + 1


def test_random_bot_seeds_matter() -> None:
    game = new_game(players=4, seed=8)
    observation = game.observation(game.current_seat or 0)
    moves = {make_bot("random", seed).choose(observation) for seed in range(20)}
    assert len(moves) > 5


@pytest.mark.parametrize("kind", BOT_LEVELS)
def test_cards_the_bot_cannot_see_do_not_change_its_move(kind: str) -> None:
    """Twin games: same public history and own hand, other hidden cards, same move."""
    for n, game in enumerate(random_positions(4, VARIANT_COMBOS[n_variant(kind)], 9, 8, stride=4)):
        seat = game.current_seat
        assert seat is not None
        twin = Game.over(Determinizer(game.observation(seat)).sample_parts(Rng(1000 + n))[0])
        if twin.to_dict()["hands"] == game.to_dict()["hands"]:
            continue
        assert twin.observation(seat) == game.observation(seat)
        assert _choose(kind, n, twin) == _choose(kind, n, game)


def _last_to_play(middle: int = 0) -> Game:
    """Trick 6, seat 3 plays last holding a slippy with 3 gas; seat 0 leads a jelly at 6."""
    game = new_game(
        players=4,
        seed=3,
        hands=[["jelly"], ["salty"], ["chippy"], ["slippy"]],
        lead=0,
        gas=[2, 0, 0, 3],
        middle=middle,
        speed=[0, 0, 0, 0],
        trick=6,
    )
    game.apply(Action.play(Suit.JELLY, gas=2))  # 4 + 2 = 6
    game.apply(Action.tune_up(Suit.SALTY))
    game.apply(Action.tune_up(Suit.CHIPPY))
    return game


@pytest.mark.parametrize("kind", ["easy", "normal", "hard"])
def test_last_seat_wins_the_lap_with_the_least_gas(kind: str) -> None:
    """Slippy + 2 gas = 7 beats the 6 and wins the lap; more gas would be waste."""
    for seed in range(5):
        action = _choose(kind, seed, _last_to_play())
        assert action == Action.play(Suit.SLIPPY, gas=2), action


@pytest.mark.parametrize("kind", ["easy", "normal", "hard"])
def test_no_gas_is_burnt_on_a_trick_that_cannot_be_won(kind: str) -> None:
    """Seat 3 holds a 1 with 3 gas against a 10: no amount of gas wins, so none is spent."""
    game = new_game(
        players=4,
        seed=3,
        hands=[["slippy", "jelly"], ["salty", "beans"], ["chippy", "beans"], ["lichen", "salty"]],
        lead=0,
        gas=[5, 0, 0, 3],
        trick=5,
    )
    game.apply(Action.play(Suit.SLIPPY, gas=5))
    game.apply(Action.tune_up(Suit.SALTY))
    game.apply(Action.tune_up(Suit.CHIPPY))
    for seed in range(8):
        action = _choose(kind, seed, game)
        assert action.gas == 0, action


def test_normal_tunes_up_for_a_rich_middle() -> None:
    """Nothing to win cheaply and 5 gas waiting in the middle: the normal bot tunes up."""
    game = new_game(
        players=4,
        seed=3,
        hands=[
            ["slippy", "jelly", "salty"],
            ["salty", "beans", "chippy"],
            ["chippy", "beans", "lichen"],
            ["lichen", "salty", "chippy"],
        ],
        lead=0,
        gas=[5, 0, 0, 0],
        middle=5,
        removed=10,
        speed=[2, 0, 0, 0],
        trick=4,
    )
    game.apply(Action.play(Suit.SLIPPY, gas=3))
    action = _choose("normal", 1, game)
    assert action.type is ActionType.TUNE_UP


def test_hard_bot_time_budget_stops_the_search() -> None:
    """A 60 ms budget on the CPU clock is spent, and not overrun by more than the last
    batch of rollouts (the search's own safety margin covers it)."""
    game = new_game(players=5, seed=4)
    observation = game.observation(game.current_seat or 0)
    bot = make_bot("hard", seed=1, time_budget_ms=60, clock="cpu")
    # A full collection of everything the test process holds (the app's modules, other
    # tests' objects) can fall inside the search and cost more than its budget; it is
    # the interpreter's pause, not the search overrunning, so it is taken first.
    gc.collect()
    start = time.thread_time()
    bot.choose(observation)
    spent = time.thread_time() - start
    assert 0.030 < spent < 0.060 + 0.010
    assert bot.last_rollouts > 0  # type: ignore[attr-defined]


def test_hard_bot_root_parallel_workers_agree_on_legality() -> None:
    game = new_game(players=4, seed=6)
    seat = game.current_seat
    assert seat is not None
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        bot = make_bot("hard", seed=2, iterations=30, workers=2, map_jobs=pool.map)
        first = bot.choose(game.observation(seat))
        assert first in game.legal_actions()
        assert bot.choose(game.observation(seat)) == first  # fixed work: reproducible
    alone = make_bot("hard", seed=2, iterations=30)
    assert alone.choose(game.observation(seat)) in game.legal_actions()


def test_hard_bot_with_several_workers_needs_someone_to_run_them() -> None:
    with pytest.raises(ValueError, match="map_jobs"):
        make_bot("hard", seed=2, workers=2)


def test_hard_bot_iteration_budget_is_exact_work() -> None:
    """``iterations`` fixes the number of rollouts, whatever the clock says (unless pruning
    leaves one candidate first: not within so few here)."""
    game = new_game(players=4, seed=12)
    observation = game.observation(game.current_seat or 0)
    for iterations in (17, 64):
        bot = make_bot("hard", seed=5, iterations=iterations)
        bot.choose(observation)
        assert getattr(bot, "last_rollouts", None) == iterations
        assert getattr(bot, "last_settled", None) is False
