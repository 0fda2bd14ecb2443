"""Suits, printed values, racer names and the fixed numbers of the game (R1–R4)."""

from __future__ import annotations

from enum import StrEnum


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
RACER_SUITS: tuple[Suit, ...] = (
    Suit.LICHEN,
    Suit.SALTY,
    Suit.CHIPPY,
    Suit.JELLY,
    Suit.BEANS,
    Suit.SLIPPY,
)

#: Display and sorting order of every suit, the variant 0 first.
SUIT_ORDER: tuple[Suit, ...] = (Suit.ZERO, *RACER_SUITS)

#: Printed value of each suit.
SUIT_VALUE: dict[Suit, int] = {
    Suit.LICHEN: 1,
    Suit.SALTY: 2,
    Suit.CHIPPY: 3,
    Suit.JELLY: 4,
    Suit.BEANS: 4,
    Suit.SLIPPY: 5,
    Suit.ZERO: 0,
}

#: The racer on each suit.
RACER_NAME: dict[Suit, str] = {
    Suit.LICHEN: "Lichen the Sasquatch",
    Suit.SALTY: "Cap'n Salty the Puffin",
    Suit.CHIPPY: "Chippy the Beaver",
    Suit.JELLY: "Jelly the Raccoon",
    Suit.BEANS: "Beans the Possum",
    Suit.SLIPPY: "Slippy the Salmon",
    Suit.ZERO: "Zero",
}

#: The vehicle each racer drives.
VEHICLE_NAME: dict[Suit, str] = {
    Suit.LICHEN: "the Bookmobile",
    Suit.SALTY: "the S.S. Haystack",
    Suit.CHIPPY: "Ol' Stumpy",
    Suit.JELLY: "the Sprinkle Express",
    Suit.BEANS: "the Java Jalopy",
    Suit.SLIPPY: "Rapid Transit",
    Suit.ZERO: "the spare kart",
}

#: Seat colours in seat order (R2).
SEAT_COLOURS: tuple[str, ...] = ("pink", "orange", "yellow", "blue", "purple")

MIN_PLAYERS = 3
MAX_PLAYERS = 5
#: Gas each player starts with, and the most a player may ever hold (R4).
MAX_GAS = 5
TRICKS_PER_ROUND = 6
LAPS_TO_WIN = 2
#: Printed values that the 1 turns into 0 (R9).
STRUCK_BY_LICHEN = frozenset({4, 5})
#: How many ``zero`` cards Larger Hands adds when combined with the 0 suit (R19).
LARGER_HANDS_ZERO_CARDS = 6
