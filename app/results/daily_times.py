"""When a day's daily deal closes: its counted attempts end, and its deal is published."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

CLOSE_AFTER = timedelta(hours=2)
"""How long after its day ends a day's counted attempts close (docs/daily.md): one still
running then counts as left, and only then are the day's seed, its replay and its
attempts' deals published."""


def closes_at(day: str) -> float:
    """When ``day``'s (``YYYY-MM-DD``) counted attempts close, in wall-clock seconds.

    >>> closes_at("1970-01-01") == 86400 + 7200
    True
    """
    end = datetime.combine(date.fromisoformat(day) + timedelta(days=1), time(), UTC)
    return (end + CLOSE_AFTER).timestamp()
