"""The periods of the deals everyone gets: a daily deal's UTC day (``YYYY-MM-DD``) and a
cup's ISO week (``YYYY-Www``, UTC); when one closes, its counted attempts end and its deals
are published."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

CLOSE_AFTER = timedelta(hours=2)
"""How long after its day (week) ends a daily (cup) closes (docs/daily.md): an attempt still
running counts as left, and its seeds, replays and deals are published."""


def is_week(period: str) -> bool:
    return "W" in period


def period_of(moment: float, week: bool = False) -> str:
    """The UTC day (or ISO ``week``) of wall-clock ``moment``."""
    return _name(datetime.fromtimestamp(moment, UTC).date(), week)


def period_before(period: str) -> str:
    """The day (week) before ``period``."""
    return _name(date.fromisoformat(period) - _length(period), is_week(period))


def closes_at(period: str) -> float:
    """When ``period``'s counted attempts close, in wall-clock seconds."""
    end = datetime.combine(date.fromisoformat(period) + _length(period), time(), UTC)
    return (end + CLOSE_AFTER).timestamp()


def sealed_until(daily: str | None, cup: str | None) -> float | None:
    """When a race of the daily of day ``daily`` or the cup of week ``cup`` closes, else None."""
    period = daily if daily is not None else cup
    return None if period is None else closes_at(period)


def _length(period: str) -> timedelta:
    return timedelta(days=7 if is_week(period) else 1)


def _name(day: date, week: bool) -> str:
    year, number, _ = day.isocalendar()
    return f"{year}-W{number:02d}" if week else day.isoformat()
