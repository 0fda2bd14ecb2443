"""A hard bot told which seats are normal bots models those seats exactly: in its rollouts
they play the normal policy without the opponent model's noise, whatever that noise is,
while the other seats keep it."""

from __future__ import annotations

from typing import Any

import pytest
from game_kit import rollout, view_after

import bench.tournament as tournament
from bench.tournament import GameJob, parse_seat, play_game, seating
from engine import new_game
from engine.bots.base import Bot
from engine.bots.heuristic import NORMAL
from engine.bots.rollout import rollout_seats
from engine.bots.search import HardBot, Stop, Told, noisy_model, run_worlds, seat_styles
from engine.rng import Rng
from engine.seat_view import SeatView
from engine.variants import Variants


def _view(seed: int) -> SeatView:
    return view_after(3, seed=seed)


def test_rollout_seats_gives_each_seat_its_own_style() -> None:
    noisy = noisy_model(0, 0.5)
    state = new_game(players=4, seed=8).core
    for k in range(20):
        # One style for a seat and another for the rest is rollout's own split.
        split = rollout(state.clone(), Rng(k), NORMAL, noisy, 2)
        assert split == rollout_seats(state.clone(), Rng(k), [noisy, noisy, NORMAL, noisy])
    mixed = [
        rollout_seats(state.clone(), Rng(k), [NORMAL, noisy, NORMAL, noisy]) for k in range(20)
    ]
    plain = [rollout(state.clone(), Rng(k), NORMAL) for k in range(20)]
    # Two noisy seats out of four change some rounds against every seat playing NORMAL.
    assert mixed != plain


def test_seat_styles_put_the_normal_policy_on_the_bot_and_the_normal_seats() -> None:
    noisy = noisy_model(0, 0.15)
    assert seat_styles(0, 4, noisy, ()) == [NORMAL, noisy, noisy, noisy]
    assert seat_styles(3, 4, noisy, (1, 3)) == [noisy, NORMAL, noisy, NORMAL]


def test_with_every_other_seat_a_normal_bot_the_noise_changes_nothing() -> None:
    view = _view(4)
    assert view.seat is not None
    others = tuple(s for s in range(4) if s != view.seat)
    actions = view.legal_actions()[:4]
    stop = Stop(240, None)
    exact = run_worlds(view, actions, 7, stop, noise=0.0)
    told = run_worlds(view, actions, 7, stop, noise=2.0, told=Told(normal_seats=others))
    assert told == exact
    # Without being told, that much noise plays other rounds.
    assert run_worlds(view, actions, 7, stop, noise=2.0) != exact
    # With one seat left untold, its noise still counts.
    partly = Told(normal_seats=others[1:])
    assert run_worlds(view, actions, 7, stop, noise=2.0, told=partly) != exact


def test_the_hard_bot_told_of_normal_seats_searches_as_without_noise() -> None:
    for seed in range(3):
        view = _view(10 + seed)
        assert view.seat is not None
        others = [s for s in range(4) if s != view.seat]
        told = HardBot(seed, iterations=200, noise=0.4, normal_seats=others)
        exact = HardBot(seed, iterations=200, noise=0.0)
        assert told.choose(view) == exact.choose(view)
    with pytest.raises(ValueError, match="seat numbers"):
        HardBot(1, normal_seats=[-1])


def test_a_tournament_hard_seat_is_told_the_games_normal_seats_unless_blind() -> None:
    told = parse_seat("hard:noise0.4:20it", None, None)
    blind = parse_seat("hard:blind:noise0.4:20it", None, None)
    exact = parse_seat("hard:blind:noise0:20it", None, None)
    normal = parse_seat("normal", None, None)
    differ = 0
    for index in range(3):
        # Every other seat is a normal bot: told of them, the noise is gone.
        one = play_game(GameJob(index, 3, Variants(), 5, (told, normal, normal)))
        two = play_game(GameJob(index, 3, Variants(), 5, (exact, normal, normal)))
        assert [(r.seat, r.won, r.place) for r in one] == [(r.seat, r.won, r.place) for r in two]
        three = play_game(GameJob(index, 3, Variants(), 5, (blind, normal, normal)))
        differ += [(r.won, r.place) for r in three] != [(r.won, r.place) for r in two]
    # Not told, the noisy model plays other games.
    assert differ > 0


def test_the_tournament_tells_a_hard_seat_where_this_games_normal_bots_sit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    told: list[tuple[int, ...]] = []
    real = tournament.make_bot

    def recording(kind: str, seed: int, **options: Any) -> Bot:
        if kind == "hard":
            told.append(options.get("normal_seats", ()))
        return real(kind, seed, **options)

    monkeypatch.setattr(tournament, "make_bot", recording)
    specs = tuple(parse_seat(k, None, None) for k in ("hard:4it", "normal", "easy"))
    blind = (parse_seat("hard:blind:4it", None, None), *specs[1:])
    for index in range(6):  # the seats change from game to game
        _, seats = seating(GameJob(index, 3, Variants(), 5, specs))
        told.clear()
        play_game(GameJob(index, 3, Variants(), 5, specs))
        assert told and set(told) == {(seats.index(specs[1]),)}
        told.clear()
        play_game(GameJob(index, 3, Variants(), 5, blind))
        assert told and set(told) == {()}
