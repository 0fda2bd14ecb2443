"""Worked examples of small rules of the races: seats and names, the record's numbers, the
daily's and the cup's calendar and seeds, and the review's verdicts (they were doctests in
app/races/)."""

from __future__ import annotations

from app.races.daily import Streak, daily_bot_key, public_seed, streak_of
from app.races.lobby import Lobby, clean_name, default_name, rotated
from app.races.record import GameConfig, deal_bot_key, decode_move, encode_move
from app.races.review import accuracy, verdict
from app.results.daily_times import period_before, period_of
from engine import Action, Suit


def test_names_a_person_typed_or_was_given() -> None:
    assert (default_name(0), default_name(3)) == ("Player 1", "Player 4")
    assert (clean_name("  Ada ", 1), clean_name("", 2), clean_name(None, 1)) == (
        "Ada",
        "Player 3",
        "Player 2",
    )


def test_a_rematch_seats_everyone_one_further_round() -> None:
    assert [rotated(s, 3) for s in range(3)] == [1, 2, 0]
    old = Lobby.create(3, 2, "d")
    old.seats[1].token_digest = "e"
    new = Lobby.rematch_of(old, 1, "f", 30)
    assert [s.person for s in new.seats] == [False, True, True]
    assert new.seats[2].token_digest == "f" and new.seats[1].code is not None


def test_a_new_lobby_seats_the_creator_invites_and_bots() -> None:
    lobby = Lobby.create(4, 2, "d")
    assert [s.person for s in lobby.seats] == [True, True, False, False]
    assert not lobby.started and lobby.seats[1].code is not None
    assert Lobby.create(4, 3, "d").people() == 3
    assert Lobby.create(3, 2, "d").seat_digests() == ("d", "", "")
    assert Lobby.from_dict(lobby.to_dict()) == lobby


def test_two_clock_runs_in_a_row_make_a_person_away() -> None:
    lobby = Lobby.create(3, 2, "d")
    lobby.note_autopilot(1, 1)
    assert not lobby.is_away(1)
    lobby.note_autopilot(1, 2)
    assert lobby.is_away(1)


def test_the_seat_of_a_player() -> None:
    lobby = Lobby.create(3, 2, "d")
    lobby.seats[0].player = 7
    assert (lobby.seat_of_player(7), lobby.seat_of_player(8), lobby.seat_of_player(None)) == (
        0,
        None,
        None,
    )


def test_settings_and_moves_read_back_as_saved() -> None:
    config = GameConfig(players=3, bots="easy", seed=7, people=2)
    assert GameConfig.from_dict(config.to_dict()) == config
    code = encode_move("person", 2, Action.play(Suit.SALTY, gas=1))
    assert decode_move(code) == ("person", 2, Action.play(Suit.SALTY, gas=1))


def test_a_chosen_seed_races_the_same_bots() -> None:
    assert deal_bot_key(7) == deal_bot_key(7) != deal_bot_key(8)


def test_streaks_of_days_in_a_row() -> None:
    three = ["2026-12-02", "2026-12-03", "2026-12-04"]
    assert streak_of(three, "2026-12-04") == Streak(3, 3, today=True, attempted=True)
    broken = ["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-02", "2026-12-03"]
    assert streak_of(broken, "2026-12-04") == Streak(2, 3, today=False, attempted=False)
    assert streak_of(["2026-12-02"], "2026-12-04").current == 0
    assert streak_of([], "2026-12-04").best == 0


def test_days_weeks_and_their_seeds() -> None:
    assert (period_of(0.0), period_of(86399.9), period_of(86400.0)) == (
        "1970-01-01",
        "1970-01-01",
        "1970-01-02",
    )
    assert period_before("2026-03-01") == "2026-02-28"
    assert public_seed(b"k", "2026-12-01") != public_seed(b"k", "2026-12-02")
    assert daily_bot_key(7, b"k") == daily_bot_key(7, b"k") != daily_bot_key(8, b"k")
    assert (period_of(0.0, week=True), period_of(4 * 86400.0, week=True)) == (
        "1970-W01",
        "1970-W02",
    )
    assert period_before("2027-W01") == "2026-W53"
    assert public_seed(b"k", "2026-W49", 1) != public_seed(b"k", "2026-W49", 2)


def test_review_verdicts_and_accuracy() -> None:
    assert [verdict(x) for x in (0.0, 0.03, 0.07, 0.2)] == [
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert (accuracy([0.0, 0.1]), accuracy([0.5]), accuracy([])) == (75.0, 0.0, None)
