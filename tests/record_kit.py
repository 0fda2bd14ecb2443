"""The moves of a saved race as format 2 kept them (before format 3 numbered them): one
comma-separated string per move. The one oracle of the old encoding, read by the record
differential (tests/engine/test_record_differential.py) and by the test of migration 0004
(tests/test_record_migration.py), which must agree with it."""

from __future__ import annotations

from engine import Action

_LETTERS = {"person": "p", "autopilot": "a", "bot": "b"}


def old_pack_move(kind: str, seat: int, action: Action) -> str:
    """The format-2 encoding of a recorded action (``app.races.record.pack_move`` as it was)."""
    data = action.to_dict()
    value = data["value"]
    fields = (data["type"], data["suit"], data["gas"], data["zero_effect"], value, data["discard"])
    return ",".join([_LETTERS[kind], str(seat), *("" if f is None else str(f) for f in fields)])


def old_unpack_move(packed: str) -> tuple[str, int, Action]:
    """Inverse of :func:`old_pack_move`: a format-2 move string's (kind, seat, action)."""
    letter, seat, kind, suit, gas, zero_effect, value, discard = packed.split(",")
    action = Action.from_dict(
        {
            "type": kind,
            "suit": suit or None,
            "gas": int(gas),
            "zero_effect": zero_effect or None,
            "value": int(value) if value else None,
            "discard": discard or None,
        }
    )
    kinds = {letter: kind for kind, letter in _LETTERS.items()}
    return kinds[letter], int(seat), action
