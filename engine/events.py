"""What happened, step by step: the engine's narration of a turn, free of hidden cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    """Every kind of event :meth:`engine.Game.apply` can report."""

    ROUND_DEALT = "round_dealt"
    CARD_PLAYED = "card_played"
    TUNED_UP = "tuned_up"
    ZERO_FIVE_PLAYED = "zero_five_played"
    CARD_DISCARDED = "card_discarded"
    GAS_TAKEN = "gas_taken"
    ZERO_EFFECT = "zero_effect"
    TUNE_UP_SHARE = "tune_up_share"
    TRICK_WON = "trick_won"
    TRICK_ALL_TUNED_UP = "trick_all_tuned_up"
    GAS_TO_MIDDLE = "gas_to_middle"
    SPEED_GAINED = "speed_gained"
    LAP_GAINED = "lap_gained"
    GAME_WON = "game_won"


@dataclass(frozen=True, slots=True)
class Event:
    """One public happening. ``seat`` is the player concerned (``None`` for table-wide
    events); ``data`` holds the numbers, never the identity of a face-down card.

    >>> Event(EventKind.SPEED_GAINED, 2, {"speed": 3}).to_dict()
    {'kind': 'speed_gained', 'seat': 2, 'speed': 3}
    """

    kind: EventKind
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON form: ``kind``, ``seat`` and the data keys."""
        return {"kind": self.kind.value, "seat": self.seat, **self.data}
