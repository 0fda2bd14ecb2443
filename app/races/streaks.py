"""Days in a row with a finished daily deal (docs/daily.md, "Your result on /daily"),
worked out at each read from the stored results
(:meth:`app.results.daily.DailyResults.finished_days`), so nothing else is kept."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta


@dataclass(frozen=True, slots=True)
class Streak:
    """A player's daily streak as of one day."""

    current: int
    """Days in a row up to today, or up to yesterday while today is not among them."""
    best: int
    """The longest run of days in a row ever."""
    today: bool
    """Today's counted attempt finished (it is in :attr:`current`)."""
    attempted: bool = False
    """Today's counted attempt is made, finished or not."""


def streak_of(days: Iterable[str], today: str, attempted: bool = False) -> Streak:
    """The streak, as of ``today``, of the finished ``days`` (``YYYY-MM-DD``; days after
    ``today`` are not counted).

    >>> streak_of(["2026-12-02", "2026-12-03", "2026-12-04"], "2026-12-04")
    Streak(current=3, best=3, today=True, attempted=True)
    >>> streak_of(["2026-11-28", "2026-11-29", "2026-11-30", "2026-12-02", "2026-12-03"],
    ...           "2026-12-04")
    Streak(current=2, best=3, today=False, attempted=False)
    >>> streak_of(["2026-12-02"], "2026-12-04").current, streak_of([], "2026-12-04").best
    (0, 0)
    """
    end = date.fromisoformat(today)
    finished = sorted({d for d in map(date.fromisoformat, days) if d <= end})
    best = run = 0
    for index, day in enumerate(finished):
        run = run + 1 if index and day - finished[index - 1] == timedelta(days=1) else 1
        best = max(best, run)
    last = finished[-1] if finished else None
    alive = last is not None and end - last <= timedelta(days=1)
    return Streak(run if alive else 0, best, last == end, attempted or last == end)
