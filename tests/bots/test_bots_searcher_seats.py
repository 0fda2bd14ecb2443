"""A hard bot told which seats are searching bots scores each candidate by the reply that
serves such a seat best: the first of them to move after the candidate plays, of the
normal policy's few best actions, the one whose rollout leaves it the best chance."""

from __future__ import annotations

from typing import Any

import pytest

import bench.tournament as tournament
from bench.tournament import GameJob, parse_seat, play_game
from engine import new_game
from engine.bots.base import Bot
from engine.bots.heuristic import NORMAL
from engine.bots.policy import score_ids
from engine.bots.rollout import Decisions, chances, rollout_seats
from engine.bots.search import (
    HardBot,
    Stop,
    Told,
    best_sensible,
    noisy_model,
    play_replying,
    run_worlds,
)
from engine.game import Game
from engine.rng import Rng
from engine.sim import INFO, TUNE_UP, SimState, legal_ids
from engine.variants import Variants


def _position(seed: int, plays: int = 1) -> Game:
    game = new_game(players=3, seed=seed)
    for _ in range(plays):
        game.apply(game.legal_actions()[0], game.current_seat)
    return game


def _sensible(legal: tuple[int, ...], scores: list[float], chances: list[float]) -> list[int]:
    """The indices of the actions not plainly wasteful (gas on a card that cannot win, or
    more than the same card needs for the same chance), worked out from every score: what
    the policy's scan with only_sensible keeps."""
    best_for: dict[tuple[int, int, int, int], float] = {}
    keep: list[int] = []
    for i, a in enumerate(legal):
        kind, suit, gas, value, effect = INFO[a]
        if kind == TUNE_UP or gas == 0:
            keep.append(i)
            continue
        seen = best_for.get((kind, suit, value, effect))
        if chances[i] <= 0.0 or (seen is not None and chances[i] <= seen + 1e-9):
            continue
        best_for[kind, suit, value, effect] = chances[i]
        keep.append(i)
    return keep


def _replies(state: SimState, width: int) -> list[int]:
    key = state.legal_key()
    scores, chances = score_ids(state, key, NORMAL)
    legal = legal_ids(key)
    return [legal[i] for i in sorted(_sensible(legal, scores, chances), key=lambda i: -scores[i])][
        :width
    ]


def test_the_searching_seat_plays_the_reply_best_for_itself() -> None:
    noisy = noisy_model(0, 0.15)
    differs = 0
    for seed in range(12):
        world = _position(seed).core
        me = world.turn
        replier = (me + 1) % 3  # moves right after the candidate, in the same trick
        styles = [NORMAL if i == me else noisy for i in range(3)]
        candidate = _replies(world, 1)[0]
        values, rollouts = play_replying(
            world, candidate, 99 + seed, styles, Decisions(), frozenset({replier}), 3
        )
        after = world.clone()
        assert after.play_out(candidate) and after.turn == replier
        reply_seed = Rng(99 + seed).next_u64()  # nothing was drawn before the reply
        outcomes = []
        for reply in _replies(after, 3):
            branch = after.clone()
            assert branch.play_out(reply)
            outcomes.append(rollout_seats(branch, Rng(reply_seed), styles, False))
        assert rollouts == len(outcomes) >= 1
        assert values == max(outcomes, key=lambda v: v[replier])
        differs += values != outcomes[0]  # not simply the normal policy's own first choice
        # The searching bot's own world is untouched.
        assert world.turn == me
    assert differs >= 2


def test_a_round_that_ends_before_any_searching_seat_moves_is_scored_as_it_stands() -> None:
    game = new_game(players=3, seed=5)
    for _ in range(17):  # five tricks of three plays, then two of the sixth
        game.apply(game.legal_actions()[0], game.current_seat)
    world = game.core
    assert (world.trick, len(world.plays), world.round) == (6, 2, 1)
    me = world.turn
    last = _replies(world, 1)[0]
    styles = [NORMAL] * 3
    values, rollouts = play_replying(
        world, last, 7, styles, Decisions(), frozenset({(me + 1) % 3}), 3
    )
    plain = world.clone()
    assert not plain.play_out(last)  # the last card of the round
    assert rollouts == 0
    winner = None if plain.winner < 0 else plain.winner
    assert values == chances(3, plain.laps, plain.gas, plain.lead, winner)
    assert sum(plain.laps) == 1  # the sixth trick's winner took a lap


def test_told_of_a_searching_seat_the_search_scores_other_rounds() -> None:
    for seed in range(3):
        view = _position(20 + seed).view(_position(20 + seed).current_seat)
        assert view.seat is not None
        others = tuple(s for s in range(3) if s != view.seat)
        actions = view.legal_actions()[:4]
        stop = Stop(120, None)
        plain = run_worlds(view, actions, 3, stop, told=Told(normal_seats=others[1:]))
        told = run_worlds(
            view, actions, 3, stop, told=Told(normal_seats=others[1:], searcher_seats=others[:1])
        )
        assert told != plain
        rows, _, used, alive = told
        assert used <= 120 and rows and set(alive) <= set(range(len(actions)))
        # Its own seat among the searching seats changes nothing: it does not model itself.
        same = run_worlds(
            view,
            actions,
            3,
            stop,
            told=Told(normal_seats=others[1:], searcher_seats=(*others[:1], view.seat)),
        )
        assert same == told


def test_the_hard_bot_refuses_impossible_tables() -> None:
    with pytest.raises(ValueError, match="not both"):
        HardBot(1, normal_seats=[1], searcher_seats=[1, 2])
    with pytest.raises(ValueError, match="seat numbers"):
        HardBot(1, searcher_seats=[-1])
    with pytest.raises(ValueError, match="reply_width"):
        HardBot(1, searcher_seats=[1], reply_width=0)


def test_the_tournament_tells_hard_seats_where_the_normal_and_hard_bots_sit_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    told: list[tuple[Any, ...]] = []
    real = tournament.make_bot

    def recording(kind: str, seed: int, **options: Any) -> Bot:
        if kind == "hard":
            seats = ("normal_seats", "searcher_seats", "hard_seats")
            told.append(tuple(options.get(name) for name in seats))
        return real(kind, seed, **options)

    monkeypatch.setattr(tournament, "make_bot", recording)
    for tokens, expected in [
        (("hard:4it", "hard:5it", "normal"), {((2,), None, (0, 1))}),
        (("hard:4it:reply3", "hard:5it:reply2", "normal"), {((2,), (0, 1), (0, 1))}),
        (("hard:4it:blind", "hard:5it:blind:reply3", "normal"), {(None, None, None)}),
    ]:
        specs = tuple(parse_seat(k, None, None) for k in tokens)
        told.clear()
        play_game(GameJob(0, 3, Variants(), 5, specs))  # the first game seats them in order
        assert set(told) == expected


def test_the_candidates_are_the_sensible_actions_worked_out_from_every_score() -> None:
    """best_sensible (the policy's scan that skips wasteful gas) ranks what _sensible keeps
    of the full scan's scores, in the same order, over every variant set."""
    compared = 0
    for variants in (Variants(), Variants(zero_suit="salty", zero_five=True)):
        for seed in range(30):
            game = new_game(players=3 + seed % 3, seed=seed, variants=variants)
            while not game.is_over:
                state = game.core
                key = state.legal_key()
                scores, chances = score_ids(state, key, NORMAL)
                ranked = sorted(
                    _sensible(legal_ids(key), scores, chances), key=lambda i: -scores[i]
                )
                assert best_sensible(state, 99) == ranked
                compared += 1
                game.apply(
                    game.legal_actions()[Rng(seed + compared).below(len(game.legal_actions()))]
                )
    assert compared > 1000
