"""How the table names things: suits, seats, the move form's choices, and small phrases.

Owned by the web layer. Only printed card data comes from the engine (names, printed
values, seat colours); there are no game rules here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import RACER_NAME, SEAT_COLOURS, SUIT_VALUE, VEHICLE_NAME, Suit

#: The id used for the per-player 0/5 card in forms and icons (it is not a :class:`Suit`).
ZERO_FIVE = "zero_five"


@dataclass(frozen=True, slots=True)
class SuitInfo:
    """How one suit looks and reads: short and long names, its icon and what it does."""

    id: str
    short: str
    racer: str
    vehicle: str
    effect: str

    @property
    def icon(self) -> str:
        """Fragment id of the suit's symbol in ``static/img/icons.svg``."""
        return f"suit-{self.id}"


_EFFECTS = {
    Suit.LICHEN: "Knocks every face-up 4 and 5 in this trick down to 0.",
    Suit.SALTY: "Grabs 1 gas from the middle, ready to spend at once.",
    Suit.CHIPPY: "No trick up its sleeve: a steady 3.",
    Suit.JELLY: "No effect. Drops to 0 when a 1 is in the trick.",
    Suit.BEANS: "No effect. Drops to 0 when a 1 is in the trick.",
    Suit.SLIPPY: "No effect. Drops to 0 when a 1 is in the trick.",
    Suit.ZERO: "Pick one: +1 speed for the rest of the round, or one removed gas back.",
}

_SHORT = {
    Suit.LICHEN: "Lichen",
    Suit.SALTY: "Salty",
    Suit.CHIPPY: "Chippy",
    Suit.JELLY: "Jelly",
    Suit.BEANS: "Beans",
    Suit.SLIPPY: "Slippy",
    Suit.ZERO: "Zero",
}

SUITS: dict[str, SuitInfo] = {
    suit.value: SuitInfo(
        suit.value, _SHORT[suit], RACER_NAME[suit], VEHICLE_NAME[suit], _EFFECTS[suit]
    )
    for suit in Suit
}
SUITS[ZERO_FIVE] = SuitInfo(
    ZERO_FIVE,
    "0/5 card",
    "the 0/5 card",
    "your one-shot booster",
    "Once per race: win back removed gas. Counts 5 once you have a lap.",
)
"""Display data of every suit id, the 0/5 card's included."""

#: Labels of the 0 card's two effects in the move form.
ZERO_EFFECT_LABELS: dict[str, str] = {
    "speed": "+1 speed this round",
    "gas": "1 removed gas back",
}

#: Labels of the 0/5 card's two values in the move form.
ZERO_FIVE_LABELS: dict[int, str] = {
    0: "wins back up to 2 removed gas",
    5: "wins back 1 removed gas",
}

#: Every suit in the order the rules page lists them.
RULES_SUIT_ORDER: tuple[str, ...] = (*(suit.value for suit in Suit), ZERO_FIVE)

#: The number printed on each suit's cards, by suit id (what the templates print).
PRINTED_VALUES: dict[str, int] = {suit.value: value for suit, value in SUIT_VALUE.items()}


def suit_info(suit_id: str | None) -> SuitInfo | None:
    """Display data for ``suit_id`` (``None`` for a face-down card)."""
    return None if suit_id is None else SUITS[suit_id]


def seat_colour(seat: int) -> str:
    """The seat's colour name, also its CSS class suffix (``seat-pink``)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_name(seat: int | None, me: int = 0) -> str:
    """How a seat is called on the page: "You" for the viewer, else its colour."""
    if seat is None:
        return "Nobody"
    if seat == me:
        return "You"
    return seat_colour(seat).capitalize()


def verb(seat: int | None, me: int, you: str, other: str) -> str:
    """Pick the verb form that agrees with "You" or a third-person colour name."""
    return you if seat == me else other


def names(seats: Sequence[int], me: int) -> str:
    """Seat names joined as a sentence does: "You, Orange and Teal"."""
    named = [seat_name(s, me) for s in seats]
    if len(named) <= 1:
        return "".join(named)
    return ", ".join(named[:-1]) + " and " + named[-1]


def gas(n: int) -> str:
    """An amount of gas as the page says it."""
    return f"{n} gas"
