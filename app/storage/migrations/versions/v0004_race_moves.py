"""Each race saved as its deal and its moves (format 3): its game and public log are no
longer saved, the server derives them by replaying the moves.

A format-2 race kept the game whole (``game``), the public log packed (``log``), the deal
(``start``) and its moves as comma-separated strings (``moves``). Each one is rewritten:
its moves become format 3's numbers (:func:`app.races.record.encode_move`, written out
here as it was when this migration was made), its deal is dropped when it is its seed's
(kept as a set-up ``start`` otherwise, the lesson's always), and the game and the log go.
A race is converted only if its moves, replayed on its deal, give its saved game; any
other row (no deal kept, a move that does not follow) is left as it was, and the store
skips it as unreadable when it opens the file.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
import sqlalchemy as sa
from alembic import op

from engine import Action, Game, Variants, new_game
from engine.sim import ACTION_ID

revision, down_revision = "0004", "0003"

log = logging.getLogger("zzv.store")

_KIND = {"p": 0, "a": 1, "b": 2}
"""Format 2's letter of each kind of move, to format 3's number (person, autopilot, bot)."""
_SEATS = 8
_DROPPED = ("game", "log", "events", "start", "moves")


def _action(fields: list[str]) -> Action:
    kind, suit, gas, zero_effect, value, discard = fields
    texts = {"type": kind, "suit": suit, "zero_effect": zero_effect, "discard": discard}
    numbers = {"gas": int(gas), "value": int(value) if value else None}
    return Action.from_dict({key: text or None for key, text in texts.items()} | numbers)


def _json(data: Any) -> Any:
    """``data`` as it reads back from JSON (tuples as lists), to compare with a saved value."""
    return orjson.loads(orjson.dumps(data))


def convert(race: dict[str, Any]) -> dict[str, Any] | None:
    """The format-3 form of a format-2 race, or None if its moves do not give its game."""
    start = race.get("start")
    if start is None:
        return None
    game = Game.from_dict(start)
    codes = []
    for packed in race.get("moves", []):
        letter, seat, *fields = packed.split(",")
        action = _action(fields)
        game.apply(action, seat=int(seat))
        codes.append((ACTION_ID[action] * len(_KIND) + _KIND[letter]) * _SEATS + int(seat))
    if _json(game.to_dict()) != race["game"]:
        return None
    config = race["config"]
    variants = Variants.from_dict(config["variants"])
    seeded = new_game(players=config["players"], seed=race["engine_seed"], variants=variants)
    converted = {key: value for key, value in race.items() if key not in _DROPPED}
    converted.update(format=3, moves=codes, bot_key=race.get("bot_key", race["engine_seed"]))
    if config.get("lesson") or _json(seeded.to_dict()) != start:
        converted["start"] = start
    return converted


FORMAT = 3
"""The format every stored race has once upgraded: Redis and a saved races file have no
migrations, so their stores upgrade at open (:func:`upgraded`)."""


def upgraded(race: dict[str, Any]) -> dict[str, Any]:
    """``race`` in :data:`FORMAT` (a race already in it, unchanged); ``ValueError`` for a
    race of an older format that cannot be converted (its moves do not give its game)."""
    if race.get("format") != 2:
        return race
    converted = convert(race)
    if converted is None:
        raise ValueError("a format-2 race whose moves do not give its game")
    return converted


def converted_data(data: bytes) -> bytes | None:
    """A stored format-2 race in format 3; None for a race of another format, or one that
    cannot be converted (logged: it stays as it was, and is read as damaged)."""
    try:
        race = orjson.loads(data)
        if not isinstance(race, dict) or race.get("format") != 2:
            return None
        return orjson.dumps(upgraded(race))
    except Exception as exc:  # any race it cannot read stays as it was
        log.error("a stored race cannot be converted", extra={"error": repr(exc)})
        return None


def upgrade() -> None:
    """Rewrite every format-2 race in format 3 (see the module doc)."""
    conn = op.get_bind()
    for game_id, data in conn.execute(sa.text("SELECT id, data FROM races")).fetchall():
        converted = converted_data(data)
        if converted is not None:
            conn.execute(
                sa.text("UPDATE races SET data = :data WHERE id = :id"),
                {"data": converted, "id": game_id},
            )
