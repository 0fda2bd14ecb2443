"""What a race's review and par tell their searches about the other seats: who sits where
is public (the table shows every player), so the review's search models the race's
normal bots as the normal policy they are, and par's hard bot is told them as a
tournament's hard bot is."""

from __future__ import annotations

import pytest

from app.races import review
from app.races.record import GameConfig, new_session
from app.settings import Settings
from engine import new_game, observe
from engine.bots import make_bot
from engine.bots.search import NOTHING_TOLD, HardBot

SETTINGS = Settings(seed_secret="told")


def test_a_review_is_told_the_races_normal_bots_and_not_its_people() -> None:
    session = new_session(GameConfig(players=4, bots="normal", people=2, seed=3), SETTINGS)
    people = [s for s in range(4) if session.lobby.is_person(s)]
    bots = tuple(s for s in range(4) if s not in people)
    assert len(people) == 2 and len(bots) == 2
    for seat in people:
        assert review.review_told(session, seat).normal_seats == bots


@pytest.mark.parametrize("level", ["hard", "easy", "random"])
def test_a_review_of_a_race_against_other_bots_is_told_nothing(level: str) -> None:
    session = new_session(GameConfig(players=3, bots=level, seed=3), SETTINGS)  # type: ignore[arg-type]
    assert review.review_told(session, 0) == NOTHING_TOLD


def test_the_par_bot_is_told_which_seats_are_normal_bots_and_plays_by_it() -> None:
    levels = ["normal", "normal", "hard", "normal"]  # seat 0 is the one par replays
    bot = review.par_seat_bot(0, levels, 5, 24)
    assert isinstance(bot, HardBot) and bot.told.normal_seats == (1, 3)
    # Told, it searches other worlds than a hard bot told nothing: somewhere in a race
    # against normal bots the two choose differently.
    untold = make_bot("hard", 5, iterations=24)
    differed = 0
    for seed in range(6):
        game = new_game(players=4, seed=seed)
        while not game.is_over and game.core.round == 1:
            seat = game.current_seat
            assert seat is not None
            observation = observe(game, seat)
            if seat == 0 and bot.choose(observation) != untold.choose(observation):
                differed += 1
            game.apply(make_bot("normal", seed).choose(observation), seat=seat)
    assert differed > 0
