"""Which public events make a moment (app.http.web.timeline), for the viewer at seat 0."""

from __future__ import annotations

import re

from app.http import i18n
from app.http.web.templating import templates
from app.http.web.timeline import BIG_PLAY, Moment, moments


def _words(moment: Moment) -> tuple[str, str]:
    """The headline and the line ``partials/moment.html`` words ``moment`` with."""
    html = str(templates.env.get_template("partials/moment.html").module.moment(moment))
    head, line = re.findall(r'<p class="moment-\w+">(?:<svg.*?</svg>)?(.*?)</p>', html)
    assert f'data-say="{head} {line}"' in html
    return head, line


def _kinds(events: list[dict[str, object]]) -> list[tuple[str, bool, int]]:
    return [(m.kind, m.mine, m.at) for m in moments(events, 10, 0)]


def test_a_lap_is_a_moment_for_every_racer_and_the_viewers_own_is_marked() -> None:
    events = [
        {"kind": "lap_gained", "seat": 0, "laps": 1},
        {"kind": "speed_gained", "seat": 1, "speed": 2},
        {"kind": "lap_gained", "seat": 2, "laps": 1},
    ]
    assert _kinds(events) == [("lap", True, 10), ("lap", False, 12)]
    assert _words(moments(events, 10, 0)[0]) == ("Lap!", "You cross the line: lap 1 of 2.")
    assert _words(moments(events, 10, 0)[1]) == ("Yellow laps", "Lap 1 of 2 for Yellow.")


def test_the_race_end_is_a_win_or_a_loss_for_the_viewer() -> None:
    assert _kinds([{"kind": "game_won", "seat": 0, "laps": 2}]) == [("win", True, 10)]
    assert _kinds([{"kind": "game_won", "seat": 3, "laps": 2}]) == [("lose", False, 10)]
    [won] = moments([{"kind": "game_won", "seat": 0, "laps": 2}], 1, 0)
    assert _words(won) == ("You win!", "First past the flag: the race is yours.")
    [lost] = moments([{"kind": "game_won", "seat": 3, "laps": 2}], 1, 0)
    assert _words(lost) == ("Race over", "Blue takes the flag.")


def test_a_big_play_is_the_viewers_trick_won_with_a_high_final() -> None:
    big = {"kind": "trick_won", "seat": 0, "trick": 2, "final": BIG_PLAY}
    small = {"kind": "trick_won", "seat": 0, "trick": 3, "final": BIG_PLAY - 1}
    theirs = {"kind": "trick_won", "seat": 1, "trick": 4, "final": BIG_PLAY + 3}
    assert _kinds([big, small, theirs]) == [("big", True, 10)]
    assert _words(moments([big], 1, 0)[0]) == ("Big play!", f"Your {BIG_PLAY} takes the trick.")


def test_a_moments_words_come_from_the_catalog() -> None:
    """In the pseudo-locale every word of a moment is the catalog's (bracketed), with its
    numbers and names filled in."""
    [lap] = moments([{"kind": "lap_gained", "seat": 2, "laps": 1}], 1, 0)
    i18n.use(i18n.PSEUDO)
    try:
        headline, line = _words(lap)
    finally:
        i18n.use(i18n.DEFAULT)
    assert headline.startswith("[") and headline.endswith("]")
    assert line.startswith("[") and "1" in line and "2" in line
