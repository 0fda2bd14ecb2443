"""Suits, printed values, racer names, the fixed numbers of the game and the Lichen effect
(R1–R5, R9, R15, R16)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, cast

SuitId = Literal["lichen", "salty", "chippy", "jelly", "beans", "slippy", "zero"]
"""A suit's JSON spelling (:class:`Suit`'s values), spelled out for the API's schema."""

RacerSuitId = Literal["lichen", "salty", "chippy", "jelly", "beans", "slippy"]
"""A racer suit's JSON spelling (:data:`RACER_SUIT_IDS`): the suits the 0 suit may replace."""

ZeroEffectId = Literal["gas", "speed"]
"""The JSON spelling of a 0 card's effect (:class:`ZeroEffect`)."""


class Suit(StrEnum):
    """A card suit (R1). Jelly and Beans are different suits that share the value 4.

    >>> Suit("salty").value, SUIT_VALUE[Suit.SALTY]
    ('salty', 2)
    """

    LICHEN = "lichen"
    SALTY = "salty"
    CHIPPY = "chippy"
    JELLY = "jelly"
    BEANS = "beans"
    SLIPPY = "slippy"
    ZERO = "zero"


class ZeroEffect(StrEnum):
    """The choice made when a ``zero`` card is played face up (R20)."""

    GAS = "gas"
    SPEED = "speed"


#: The six racer suits of the base game, in printed-value order.
RACER_SUITS: tuple[Suit, ...] = tuple(suit for suit in Suit if suit is not Suit.ZERO)

#: Display and sorting order of every suit, the variant 0 first.
SUIT_ORDER: tuple[Suit, ...] = (Suit.ZERO, *RACER_SUITS)

#: Each suit's printed value, its racer and the vehicle that racer drives.
_FACTS: dict[Suit, tuple[int, str, str]] = {
    Suit.LICHEN: (1, "Lichen the Sasquatch", "the Bookmobile"),
    Suit.SALTY: (2, "Cap'n Salty the Puffin", "the S.S. Haystack"),
    Suit.CHIPPY: (3, "Chippy the Beaver", "Ol' Stumpy"),
    Suit.JELLY: (4, "Jelly the Raccoon", "the Sprinkle Express"),
    Suit.BEANS: (4, "Beans the Possum", "the Java Jalopy"),
    Suit.SLIPPY: (5, "Slippy the Salmon", "Rapid Transit"),
    Suit.ZERO: (0, "Zero", "the spare kart"),
}
SUIT_VALUE: dict[Suit, int] = {suit: facts[0] for suit, facts in _FACTS.items()}
RACER_NAME: dict[Suit, str] = {suit: facts[1] for suit, facts in _FACTS.items()}
VEHICLE_NAME: dict[Suit, str] = {suit: facts[2] for suit, facts in _FACTS.items()}

#: Seat colours in seat order (R2).
SEAT_COLOURS: tuple[str, ...] = ("pink", "orange", "yellow", "blue", "purple")

#: Ids of the six racer suits, in printed-value order.
RACER_SUIT_IDS = cast("tuple[RacerSuitId, ...]", tuple(suit.value for suit in RACER_SUITS))

#: Fewest and most seats at the table (R2).
MIN_PLAYERS = 3
MAX_PLAYERS = 5
#: Gas each player starts with, and the most a player may ever hold: the gas cap (R4).
MAX_GAS = 5
#: Tricks in every round; the last one is worth a lap instead of speed (R5, R15).
TRICKS_PER_ROUND = 6
#: Laps that win the race (R16).
LAPS_TO_WIN = 2
#: Printed values that a face-up 1 in the trick turns into 0 (R9).
STRUCK_BY_LICHEN = frozenset({4, 5})
#: How many ``zero`` cards Larger Hands adds when combined with the 0 suit (R19).
LARGER_HANDS_ZERO_CARDS = 6


def effective_value(value: int, lichen_in_trick: bool) -> int:
    """A face-up card's printed ``value`` as it counts in a trick (R9): a face-up 1 anywhere
    in the trick turns every face-up 4 and 5 into 0, the 0/5 card's 5 included.

    >>> effective_value(5, True), effective_value(4, True), effective_value(3, True)
    (0, 0, 3)
    >>> effective_value(5, False)
    5
    """
    return 0 if lichen_in_trick and value in STRUCK_BY_LICHEN else value
