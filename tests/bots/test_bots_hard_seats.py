"""A hard bot told which seats are hard bots models them at their own temperature
(``hard_noise``), apart from the seats it knows nothing about; untold, or with no
temperature of their own, they are modelled like anyone else."""

from __future__ import annotations

import pytest
from game_kit import view_after

from engine.bots.heuristic import NORMAL
from engine.bots.search import (
    DEFAULT_NOISE,
    HardBot,
    Stop,
    Told,
    noisy_model,
    run_worlds,
    seat_styles,
)
from engine.seat_view import SeatView


def _view(seed: int) -> SeatView:
    return view_after(5, seed=seed)


def _others(view: SeatView) -> tuple[int, ...]:
    return tuple(s for s in range(view.players) if s != view.seat)


def test_seat_styles_give_hard_seats_their_own_model_and_never_the_bots_own_seat() -> None:
    cool, warm = noisy_model(0, 0.15), noisy_model(0, 1.0)
    assert seat_styles(2, 4, cool, (), warm, (0, 2)) == [warm, cool, NORMAL, cool]
    # A seat told to be both a normal and a hard bot is the normal one: it is modelled exactly.
    assert seat_styles(0, 3, cool, (1,), warm, (1, 2)) == [NORMAL, NORMAL, warm]
    # Seats past the table's size (a caller's slip) change nothing.
    assert seat_styles(0, 3, cool, (), warm, (5,)) == [NORMAL, cool, cool]


def test_every_other_seat_a_hard_bot_at_a_temperature_is_that_noise_for_all() -> None:
    view = _view(6)
    actions = view.legal_actions()[:4]
    stop = Stop(240, None)
    everyone = run_worlds(view, actions, 7, stop, noise=1.0)
    told = run_worlds(
        view,
        actions,
        7,
        stop,
        noise=DEFAULT_NOISE,
        told=Told(hard_seats=_others(view), hard_noise=1.0),
    )
    assert told == everyone
    assert run_worlds(view, actions, 7, stop, noise=DEFAULT_NOISE) != everyone
    # One seat left untold keeps the general noise, and that shows.
    partly = _others(view)[1:]
    assert (
        run_worlds(view, actions, 7, stop, told=Told(hard_seats=partly, hard_noise=1.0)) != everyone
    )


def test_hard_seats_without_a_temperature_of_their_own_are_modelled_like_anyone() -> None:
    view = _view(8)
    actions = view.legal_actions()[:4]
    stop = Stop(160, None)
    plain = run_worlds(view, actions, 3, stop, noise=0.4)
    untempered = Told(hard_seats=_others(view))
    assert run_worlds(view, actions, 3, stop, noise=0.4, told=untempered) == plain


def test_the_hard_bot_passes_its_hard_seats_to_the_search_and_refuses_impossible_ones() -> None:
    for seed in range(3):
        view = _view(20 + seed)
        told = HardBot(seed, iterations=160, hard_seats=_others(view), hard_noise=0.9)
        assert told.choose(view) == HardBot(seed, iterations=160, noise=0.9).choose(view)
    with pytest.raises(ValueError, match="not both"):
        HardBot(1, normal_seats=[1], hard_seats=[1])
    with pytest.raises(ValueError, match="seat numbers"):
        HardBot(1, hard_seats=[-2])
    with pytest.raises(ValueError, match="temperature"):
        HardBot(1, hard_seats=[1], hard_noise=11.0)
