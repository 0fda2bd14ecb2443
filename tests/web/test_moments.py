"""Which public events make a moment (app.http.web.timeline), for the viewer at seat 0."""

from __future__ import annotations

from app.http import i18n
from app.http.web.timeline import BIG_PLAY, moments


def _kinds(events: list[dict[str, object]]) -> list[tuple[str, bool, int]]:
    return [(m.kind, m.mine, m.at) for m in moments(events, 10, 0)]


def test_a_lap_is_a_moment_for_every_racer_and_the_viewers_own_is_marked() -> None:
    events = [
        {"kind": "lap_gained", "seat": 0, "laps": 1},
        {"kind": "speed_gained", "seat": 1, "speed": 2},
        {"kind": "lap_gained", "seat": 2, "laps": 1},
    ]
    assert _kinds(events) == [("lap", True, 10), ("lap", False, 12)]
    assert moments(events, 10, 0)[0].line == "You cross the line: lap 1 of 2."


def test_the_race_end_is_a_win_or_a_loss_for_the_viewer() -> None:
    assert _kinds([{"kind": "game_won", "seat": 0, "laps": 2}]) == [("win", True, 10)]
    assert _kinds([{"kind": "game_won", "seat": 3, "laps": 2}]) == [("lose", False, 10)]


def test_a_big_play_is_the_viewers_trick_won_with_a_high_final() -> None:
    big = {"kind": "trick_won", "seat": 0, "trick": 2, "final": BIG_PLAY}
    small = {"kind": "trick_won", "seat": 0, "trick": 3, "final": BIG_PLAY - 1}
    theirs = {"kind": "trick_won", "seat": 1, "trick": 4, "final": BIG_PLAY + 3}
    assert _kinds([big, small, theirs]) == [("big", True, 10)]


def test_a_moments_words_come_from_the_catalog() -> None:
    """In the pseudo-locale every word of a moment is the catalog's (bracketed), with its
    numbers and names filled in."""
    i18n.use(i18n.PSEUDO)
    try:
        [lap] = moments([{"kind": "lap_gained", "seat": 2, "laps": 1}], 1, 0)
    finally:
        i18n.use(i18n.DEFAULT)
    assert lap.headline.startswith("[") and lap.headline.endswith("]")
    assert lap.line.startswith("[") and "1" in lap.line and "2" in lap.line
