"""Worked examples of the daily page's sentences, the fair page's words and the review's graph
(they were doctests in app/http/web/)."""

from __future__ import annotations

import html

from app.http.web.fair import cards_words, scheme_words, seat_words
from app.http.web.review import graph
from app.http.web.templating import templates
from app.races.daily import Streak
from app.results.daily import BoardEntry
from engine import Suit


def worded(template: str, macro: str, *args: object) -> str | None:
    """What ``macro`` of ``template`` prints for ``args``, as text (None: nothing)."""
    made = getattr(templates.env.get_template(template).module, macro)(*args)
    return html.unescape(str(made)) or None


def standing_words(mine: BoardEntry, ranked: int) -> str | None:
    return worded("partials/daily_result.html", "standing_words", mine, ranked)


def share_words(day: str, mine: BoardEntry, ranked: int) -> str:
    return worded("partials/daily_result.html", "share_words", day, mine, ranked) or ""


def streak_words(streak: Streak) -> str | None:
    return worded("partials/streak.html", "streak_now", streak)


def best_words(streak: Streak) -> str | None:
    return worded("partials/streak.html", "streak_best", streak)


def test_a_counted_result_s_standing_and_share_line() -> None:
    ada = BoardEntry(2, "Ada", 1, 2, 7, 3, 1, "g")
    assert standing_words(ada, 9) == (
        "You are #2 of 9 on the board: 1st in your race, 2 laps, 7 tricks won, 3 gas left."
    )
    left = BoardEntry(1, "Ada", 3, 1, 1, 0, 1, "g", left=True)
    assert standing_words(left, 1) == (
        "You are #1 of 1 on the board: left your race (3rd), 1 lap, 1 trick won, 0 gas left."
    )
    assert share_words("2026-12-04", ada, 9) == (
        "Zoom Zoom Vroom daily deal, Dec 4, 2026: #2 of 9 (1st in my race, 2 laps, 7 tricks "
        "won, 3 gas left)"
    )
    gone = BoardEntry(3, "Ada", 4, 1, 2, 0, 1, "g", left=True)
    assert share_words("2026-12-04", gone, 5).endswith(
        "#3 of 5 (left my race (4th), 1 lap, 2 tricks won, 0 gas left)"
    )


def test_streaks_worth_telling_of() -> None:
    assert streak_words(Streak(3, 3, today=True)) == "Your streak: 3 days in a row."
    assert streak_words(Streak(1, 4, today=False)) == (
        "Your streak: 1 day in a row, up to yesterday. Finish today's race to keep it."
    )
    assert streak_words(Streak(2, 2, today=False, attempted=True)) == (
        "Your streak: 2 days in a row, up to yesterday; today's counted race did not finish."
    )
    assert streak_words(Streak(1, 1, today=True)) is None
    assert streak_words(Streak(0, 5, False)) is None
    assert best_words(Streak(1, 4, today=False)) == "Your best streak: 4 days in a row."
    assert best_words(Streak(4, 4, today=True)) is None
    assert best_words(Streak(0, 1, False)) is None


def test_the_review_graph_marks_each_decision_and_round() -> None:
    g = graph(
        [
            {"move": 0, "round": 1, "verdict": "good", "played_value": 0.5},
            {"move": 4, "round": 2, "verdict": "blunder", "played_value": 0.0},
        ]
    )
    assert [(p["move"], p["y"]) for p in g["points"]] == [(0, 54.0), (4, 100.0)]
    assert [r[2] for r in g["rounds"]] == [1, 2]


def test_the_fair_page_names_seats_cards_and_the_hashed_text() -> None:
    assert (seat_words(0), seat_words(4)) == ("Pink (seat 0)", "Purple (seat 4)")
    assert (cards_words((Suit.LICHEN, Suit.ZERO)), cards_words(())) == ("Lichen, Zero", "none")
    assert scheme_words(42, "00ff") == "zzv-deal-1:42:00ff"
