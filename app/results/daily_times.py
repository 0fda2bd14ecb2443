"""When a day's daily deal, or a week's cup, closes: its counted attempts end, and its
deals are published."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

CLOSE_AFTER = timedelta(hours=2)
"""How long after its day (week) ends a daily (cup) closes (docs/daily.md): an attempt still
running counts as left, and its seeds, replays and deals are published."""


def closes_at(day: str) -> float:
    """When ``day``'s (``YYYY-MM-DD``) counted attempts close, in wall-clock seconds."""
    return _after(date.fromisoformat(day) + timedelta(days=1))


def week_closes_at(week: str) -> float:
    """When ISO ``week``'s (``YYYY-Www``) cup closes, in wall-clock seconds: two hours after
    its Sunday ends (UTC)."""
    return _after(date.fromisoformat(f"{week}-1") + timedelta(days=7))


def sealed_until(daily: str | None, cup: str | None) -> float | None:
    """When a race of the daily of day ``daily`` or the cup of week ``cup`` closes, else None."""
    if daily is not None:
        return closes_at(daily)
    if cup is not None:
        return week_closes_at(cup)
    return None


def _after(end: date) -> float:
    return (datetime.combine(end, time(), UTC) + CLOSE_AFTER).timestamp()
