"""Races an older server kept, in today's format: Redis and a saved races file have no
migrations (the SQLite file's: :mod:`app.storage.migrations`), so their stores upgrade at open.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.storage.migrations.versions.v0004_race_moves import convert

FORMAT = 3
"""The format every stored race has once upgraded."""


def upgraded(race: dict[str, Any]) -> dict[str, Any]:
    """``race`` in :data:`FORMAT` (a race already in it, unchanged); ``ValueError`` for a
    race of an older format that cannot be converted (its moves do not give its game)."""
    if race.get("format") == 2:
        converted = convert(race)
        if converted is None:
            raise ValueError("a format-2 race whose moves do not give its game")
        return converted
    return race


def upgraded_bytes(data: bytes) -> bytes | None:
    """``data`` upgraded, or None if it needs nothing or cannot be (then read as damaged)."""
    try:
        race = orjson.loads(data)
        if not isinstance(race, dict) or race.get("format") == FORMAT:
            return None
        return orjson.dumps(upgraded(race))
    except ValueError:
        return None
