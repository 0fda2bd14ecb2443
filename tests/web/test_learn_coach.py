"""The coach's reading of a position (app/races/lesson.py), on explicit deals: each idea is
shown only when the rule it teaches is at work (docs/rules.md ids in the names), and what
it asks for is a legal move."""

from __future__ import annotations

from app.races import lesson
from app.races.lesson import Said
from engine import Action, new_game
from engine.cards import Suit
from engine.shapes import Observation


def _learner_view(**position: object) -> Observation:
    game = new_game(players=3, seed=1, **position)  # type: ignore[arg-type]
    return game.observation(lesson.LEARNER)


def test_r7_blocked_is_shown_only_when_a_racer_is_already_face_up() -> None:
    hands = [["chippy", "salty"], ["chippy", "jelly"], ["beans", "slippy"]]
    assert not lesson.applies("blocked", _learner_view(hands=hands, lead=0))
    game = new_game(players=3, seed=1, hands=hands, lead=1)
    game.apply(Action.play(Suit.CHIPPY, 0), seat=1)
    game.apply(Action.tune_up(Suit.BEANS), seat=2)
    view = game.observation(0)
    assert lesson.applies("blocked", view)
    coaching = lesson.coach_with(view, ("blocked",), 0)
    assert coaching.lines == (Said("blocked", {"suits": ["chippy"]}),)
    assert coaching.action in game.legal_actions()


def test_r9_lichen_is_shown_when_a_4_or_5_is_face_up_and_the_1_can_win() -> None:
    game = new_game(
        players=3,
        seed=1,
        hands=[["lichen", "chippy"], ["slippy", "salty"], ["jelly", "beans"]],
        lead=1,
    )
    game.apply(Action.play(Suit.SLIPPY, 2), seat=1)
    game.apply(Action.tune_up(Suit.JELLY), seat=2)
    view = game.observation(0)
    assert lesson.applies("lichen", view)
    coaching = lesson.coach_with(view, ("lichen",), 0)
    assert coaching.choice == "up:lichen"
    assert coaching.action in game.legal_actions()
    # Slippy 5 + 2 gas is cut to 0 + 2 = 2 (R9): the 1 needs 2 gas to pass it.
    assert coaching.gas == 2
    assert coaching.lines == (Said("lichen", {"cut": [(1, "slippy")]}),)


def test_r10_salty_needs_gas_in_the_middle() -> None:
    hands = [["salty", "chippy"], ["jelly", "lichen"], ["beans", "slippy"]]
    assert not lesson.applies("salty", _learner_view(hands=hands, lead=0, middle=0))
    with_gas = _learner_view(hands=hands, lead=0, middle=3)
    assert lesson.applies("salty", with_gas)
    assert lesson.coach_with(with_gas, ("salty",), 0).choice == "up:salty"


def test_r11_tune_up_is_shown_with_gas_in_the_middle_and_lays_a_plain_card() -> None:
    hands = [["lichen", "chippy"], ["jelly", "salty"], ["beans", "slippy"]]
    view = _learner_view(hands=hands, lead=0, middle=2, gas=[3, 5, 5])
    assert lesson.applies("tune_up", view)
    coaching = lesson.coach_with(view, ("tune_up",), 0)
    assert coaching.choice == "down:chippy"  # the Lichen keeps its job (R9)
    assert [said.code for said in coaching.lines] == ["tune_up"]


def test_r15_r16_the_last_trick_asks_for_the_strongest_card_all_in() -> None:
    hands = [["chippy"], ["jelly"], ["beans"]]
    view = _learner_view(hands=hands, lead=0, laps=[1, 0, 0], gas=[4, 5, 5])
    assert view["trick"] == 6
    assert lesson.applies("lap", view) and lesson.applies("two_laps", view)
    coaching = lesson.coach_with(view, ("two_laps",), 11)
    assert (coaching.choice, coaching.gas) == ("up:chippy", 4)
    assert [said.code for said in coaching.lines] == ["two_laps"]


def test_every_advised_move_of_a_random_race_is_legal() -> None:
    game = new_game(players=3, seed=11)
    while not game.is_over:
        seat = game.current_seat
        assert seat is not None
        view = game.observation(seat)
        coaching = lesson.coach_with(view, lesson.IDEAS, lesson.step_of(view))
        assert coaching.action in game.legal_actions(), coaching
        game.apply(coaching.action, seat=seat)
