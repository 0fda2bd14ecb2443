"""The daily deal's sentences for its player on ``/daily``: where their counted result
stands, and the line they may share (docs/daily.md)."""

from __future__ import annotations

from app.http.words import counted, ordinal
from app.results.daily import BoardEntry


def standing_words(mine: BoardEntry, ranked: int) -> str:
    """Where a counted result stands, for its player.

    >>> standing_words(BoardEntry(2, "Ada", 1, 2, 7, 3, 1, "g"), 9)
    'You are #2 of 9 on the board: 1st in your race, 2 laps, 7 tricks won, 3 gas left.'
    >>> standing_words(BoardEntry(1, "Ada", 3, 1, 1, 0, 1, "g"), 1)
    'You are #1 of 1 on the board: 3rd in your race, 1 lap, 1 trick won, 0 gas left.'
    """
    return f"You are #{mine.rank} of {ranked} on the board: {_result_words(mine, 'your')}."


def share_words(day: str, mine: BoardEntry, ranked: int) -> str:
    """A counted result as its player may post it: the day, the rank and the race's
    figures (nothing of the cards, which stay secret while the day lasts).

    >>> print(share_words("2026-12-04", BoardEntry(2, "Ada", 1, 2, 7, 3, 1, "g"), 9))
    ... # doctest: +NORMALIZE_WHITESPACE
    Zoom Zoom Vroom daily deal, 2026-12-04: #2 of 9 (1st in my race, 2 laps, 7 tricks won,
    3 gas left)
    """
    figures = _result_words(mine, "my")
    return f"Zoom Zoom Vroom daily deal, {day}: #{mine.rank} of {ranked} ({figures})"


def _result_words(entry: BoardEntry, whose: str) -> str:
    """The figures of a result; one left counts as last (docs/ratings.md).

    >>> _result_words(BoardEntry(3, "Ada", 4, 1, 2, 0, 1, "g", left=True), "your")
    'left your race (4th), 1 lap, 2 tricks won, 0 gas left'
    """
    place = (
        f"left {whose} race ({ordinal(entry.place)})"
        if entry.left
        else f"{ordinal(entry.place)} in {whose} race"
    )
    return (
        f"{place}, {counted(entry.laps, 'lap')}, "
        f"{counted(entry.tricks, 'trick')} won, {entry.gas} gas left"
    )


__all__ = ["share_words", "standing_words"]
