"""Races an older server kept, in today's format. The SQLite file is upgraded by its
migrations (:mod:`app.storage.migrations`); Redis and a saved races file have none, so
their stores upgrade what they find when they open (Redis once: a marker says it is done).
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
    """The stored JSON ``data`` upgraded, or None when it needs nothing (or cannot be:
    the store then skips it as unreadable, as any damaged race)."""
    try:
        race = orjson.loads(data)
        if not isinstance(race, dict) or race.get("format") == FORMAT:
            return None
        return orjson.dumps(upgraded(race))
    except ValueError:
        return None
