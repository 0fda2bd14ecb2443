"""A player's daily streak in words, on ``/daily`` and "Your races" (docs/daily.md, "Your
streak"), from the message catalog in the request's language (docs/translating.md)."""

from __future__ import annotations

from app.http.i18n import ngettext
from app.races.daily import Streak


def streak_words(streak: Streak) -> str | None:
    """The current streak, when there is one worth telling of: two days and more once
    today's counted race finished, one and more while it is still to finish.

    >>> streak_words(Streak(3, 3, today=True))
    'Your streak: 3 days in a row.'
    >>> streak_words(Streak(1, 4, today=False))
    "Your streak: 1 day in a row, up to yesterday. Finish today's race to keep it."
    >>> streak_words(Streak(2, 2, today=False, attempted=True))
    "Your streak: 2 days in a row, up to yesterday; today's counted race did not finish."
    >>> streak_words(Streak(1, 1, today=True)) is None, streak_words(Streak(0, 5, False))
    (True, None)
    """
    days = {"days": streak.current}
    if streak.today and streak.current >= 2:
        return (
            ngettext(
                "Your streak: %(days)s day in a row.",
                "Your streak: %(days)s days in a row.",
                days["days"],
            )
            % days
        )
    if streak.today or streak.current < 1:
        return None
    if streak.attempted:
        return (
            ngettext(
                "Your streak: %(days)s day in a row, up to yesterday; today's counted race did "
                "not finish.",
                "Your streak: %(days)s days in a row, up to yesterday; today's counted race did "
                "not finish.",
                streak.current,
            )
            % days
        )
    return (
        ngettext(
            "Your streak: %(days)s day in a row, up to yesterday. Finish today's race to keep it.",
            "Your streak: %(days)s days in a row, up to yesterday. Finish today's race to keep it.",
            streak.current,
        )
        % days
    )


def best_words(streak: Streak) -> str | None:
    """The best streak, when it is longer than the current one and worth telling of.

    >>> best_words(Streak(1, 4, today=False))
    'Your best streak: 4 days in a row.'
    >>> best_words(Streak(4, 4, today=True)) is None, best_words(Streak(0, 1, False)) is None
    (True, True)
    """
    if streak.best < 2 or streak.best <= streak.current:
        return None
    return ngettext(
        "Your best streak: %(days)s day in a row.",
        "Your best streak: %(days)s days in a row.",
        streak.best,
    ) % {"days": streak.best}


__all__ = ["best_words", "streak_words"]
