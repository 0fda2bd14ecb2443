"""A turn (R7, R20, R22), the gas it may carry (R8), and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from typing_extensions import TypedDict

from engine.cards import MAX_GAS, Suit, SuitId, ZeroEffect, ZeroEffectId
from engine.refusals import IllegalAction, Refusal


class ActionType(StrEnum):
    """The three kinds of turn: a face-up card, a Tune Up, or the 0/5 card."""

    PLAY = "play"
    TUNE_UP = "tune_up"
    ZERO_FIVE = "zero_five"


ActionTypeId = Literal["play", "tune_up", "zero_five"]
"""The JSON spelling of a kind of turn (:class:`ActionType`)."""


class ActionDict(TypedDict):
    """A turn in JSON (:meth:`Action.to_dict`): every key present, unused ones null."""

    type: ActionTypeId
    suit: SuitId | None
    gas: int
    zero_effect: ZeroEffectId | None
    value: int | None
    discard: SuitId | None


_FIELDS = ("type", "suit", "gas", "zero_effect", "value", "discard")


@dataclass(frozen=True, slots=True)
class Action:
    """One whole turn, gas included.

    * ``play``: ``suit`` face up, ``gas`` spent; ``zero_effect`` only for a ``zero`` card.
    * ``tune_up``: ``suit`` is the card laid face down; no gas.
    * ``zero_five``: the 0/5 card played as ``value`` (0 or 5), ``gas`` spent, then
      ``discard`` laid face down from the hand.

    >>> Action.play(Suit.SALTY, gas=2).to_dict()
    {'type': 'play', 'suit': 'salty', 'gas': 2, 'zero_effect': None, 'value': None, 'discard': None}
    >>> Action.from_dict({"type": "tune_up", "suit": "jelly"}) == Action.tune_up(Suit.JELLY)
    True
    """

    type: ActionType
    suit: Suit | None = None
    gas: int = 0
    zero_effect: ZeroEffect | None = None
    value: int | None = None
    discard: Suit | None = None

    def __init__(
        self,
        type: ActionType,
        suit: Suit | None = None,
        gas: int = 0,
        zero_effect: ZeroEffect | None = None,
        value: int | None = None,
        discard: Suit | None = None,
    ) -> None:
        # The fields set by the slots' own descriptors instead of six calls of
        # object.__setattr__: an Action is made for every move and every bot's answer.
        _set_type(self, type)
        _set_suit(self, suit)
        _set_gas(self, gas)
        _set_zero_effect(self, zero_effect)
        _set_value(self, value)
        _set_discard(self, discard)

    @classmethod
    def play(cls, suit: Suit, gas: int = 0, zero_effect: ZeroEffect | None = None) -> Action:
        return cls(ActionType.PLAY, suit, gas, zero_effect)

    @classmethod
    def tune_up(cls, suit: Suit) -> Action:
        return cls(ActionType.TUNE_UP, suit)

    @classmethod
    def zero_five(cls, value: int, gas: int, discard: Suit) -> Action:
        return cls(ActionType.ZERO_FIVE, None, gas, None, value, discard)

    def to_dict(self) -> ActionDict:
        return {
            "type": self.type.value,
            "suit": None if self.suit is None else self.suit.value,
            "gas": self.gas,
            "zero_effect": None if self.zero_effect is None else self.zero_effect.value,
            "value": self.value,
            "discard": None if self.discard is None else self.discard.value,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Action:
        """Parse the JSON form (:class:`IllegalAction` for anything malformed; whether it
        is legal now is the game's business)."""
        if not isinstance(data, dict):
            raise IllegalAction(Refusal.of("action_not_object"))
        unknown = set(data).difference(_FIELDS)
        if unknown:
            raise IllegalAction(
                Refusal.of("action_unknown_fields", fields=", ".join(sorted(map(str, unknown))))
            )
        try:
            kind = ActionType(str(data.get("type")))
        except ValueError:
            raise IllegalAction(Refusal.of("action_type_unknown")) from None
        gas = data.get("gas", 0)
        if type(gas) is not int:
            raise IllegalAction(Refusal.of("gas_not_integer"))
        value = data.get("value")
        if value is not None and type(value) is not int:
            raise IllegalAction(Refusal.of("zero_five_value_not_integer"))
        return cls(
            kind,
            _parse_suit(data.get("suit"), "suit"),
            gas,
            _parse_effect(data.get("zero_effect")),
            value,
            _parse_suit(data.get("discard"), "discard"),
        )


# The slots' descriptors: their __set__ ignores frozen=True, as object.__setattr__ does.
_set_type, _set_suit, _set_gas, _set_zero_effect, _set_value, _set_discard = (
    vars(Action)[name].__set__ for name in _FIELDS
)


def supply_after_effect(action: Action, gas: int, middle: int, removed: int) -> int:
    """The most gas a player holding ``gas`` may spend on ``action``, once the card's own
    effect has happened (R8), with ``middle`` gas in the middle and ``removed`` removed:
    the 2 takes one from the middle (R10), the 0 for gas one back (R20), the 0/5 card two
    (as 0) or one (as 5) back (R22), never over the cap (R4); a Tune Up carries none.

    >>> supply_after_effect(Action.play(Suit.SALTY), gas=2, middle=1, removed=0)
    3
    >>> supply_after_effect(Action.zero_five(0, 0, Suit.JELLY), gas=4, middle=0, removed=3)
    5
    >>> supply_after_effect(Action.tune_up(Suit.SLIPPY), gas=4, middle=3, removed=3)
    0
    """
    kind = action.type
    if kind is _PLAY:
        suit = action.suit
        if (suit is _SALTY and middle > 0) or (suit is _ZERO and action.zero_effect is _GAS):
            return min(MAX_GAS, gas + 1)
        return gas
    if kind is _ZERO_FIVE:
        return min(MAX_GAS, gas + min(2 if action.value == 0 else 1, removed))
    return 0


# Enum members as plain globals: cheaper to look up in the bots' inner loop.
_PLAY, _ZERO_FIVE = ActionType.PLAY, ActionType.ZERO_FIVE
_SALTY, _ZERO, _GAS = Suit.SALTY, Suit.ZERO, ZeroEffect.GAS


def _parse_suit(raw: Any, field: str) -> Suit | None:
    try:
        return None if raw is None else Suit(raw)
    except ValueError:
        raise IllegalAction(Refusal.of("no_such_card", name=str(raw)[:20], field=field)) from None


def _parse_effect(raw: Any) -> ZeroEffect | None:
    try:
        return None if raw is None else ZeroEffect(raw)
    except ValueError:
        raise IllegalAction(Refusal.of("zero_effect_unknown")) from None
