"""What happened, step by step: the engine's narration of a turn, free of hidden cards.
Each :class:`EventKind`'s payload type is in :data:`EVENT_PAYLOADS`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias, cast, get_args

from engine import shapes


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


EventData: TypeAlias = (
    shapes.RoundDealt
    | shapes.CardPlayed
    | shapes.TunedUp
    | shapes.ZeroFivePlayed
    | shapes.CardDiscarded
    | shapes.GasTaken
    | shapes.ZeroEffectChosen
    | shapes.TuneUpShare
    | shapes.TrickWon
    | shapes.TrickAllTunedUp
    | shapes.GasToMiddle
    | shapes.SpeedGained
    | shapes.LapGained
    | shapes.GameWon
)
"""Any event's payload: one type per :class:`EventKind`, in its order."""

EVENT_PAYLOADS: dict[EventKind, type[Any]] = dict(zip(EventKind, get_args(EventData), strict=True))
"""The payload type of each event kind (its keys: ``EVENT_PAYLOADS[kind].__annotations__``)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One public happening: ``seat`` is the player concerned (``None`` for the table),
    ``data`` the payload of its kind, never the identity of a face-down card.

    >>> Event(EventKind.SPEED_GAINED, 2, {"speed": 3}).to_dict()
    {'kind': 'speed_gained', 'seat': 2, 'speed': 3}
    """

    kind: EventKind
    seat: int | None = None
    # ``dict`` makes the empty payload (TunedUp, CardDiscarded): cheaper than a TypedDict.
    data: EventData = field(default_factory=cast("Callable[[], shapes.TunedUp]", dict))

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON form: ``kind``, ``seat`` and the payload's keys."""
        return {"kind": self.kind.value, "seat": self.seat, **self.data}


_new = object.__new__
_slots = vars(Event)  # the slots' descriptors: their __set__ ignores frozen=True
_set_kind, _set_seat, _set_data = (_slots[name].__set__ for name in ("kind", "seat", "data"))


# Whether make_event may fill an Event's slots itself: not when mypyc compiled this module
# (ZZV_MYPYC=1), where Event refuses object.__new__.
try:
    _new(Event)
    _FILL_SLOTS = True
except TypeError:
    _FILL_SLOTS = False


def make_event(kind: EventKind, seat: int | None, data: EventData) -> Event:
    """``Event(kind, seat, data)``, about twice as fast: it fills the slots directly,
    where a frozen dataclass's ``__init__`` calls ``object.__setattr__`` per field.

    >>> kind = EventKind.SPEED_GAINED
    >>> make_event(kind, 2, {"speed": 3}) == Event(kind, 2, {"speed": 3})
    True
    """
    if not _FILL_SLOTS:
        return Event(kind, seat, data)
    event = _new(Event)
    _set_kind(event, kind)
    _set_seat(event, seat)
    _set_data(event, data)
    return event
