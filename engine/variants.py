"""The optional rule variants (R18–R22) and the deck each combination builds (R3, R18, R19)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from typing_extensions import TypedDict

from engine.cards import LARGER_HANDS_ZERO_CARDS, RACER_SUITS, RacerSuitId, Suit


class VariantsData(TypedDict):
    """The variants in force, in JSON (:meth:`Variants.to_dict`)."""

    larger_hands: bool
    """Seven cards are dealt and one is carried over (R18)."""
    zero_suit: RacerSuitId | None
    """The racer suit the 0 suit replaces (R19/R20); null when that variant is off."""
    zero_five: bool
    """Everyone gets a one-shot 0/5 card (R21/R22)."""


@dataclass(frozen=True, slots=True)
class Variants:
    """Which variants are on; ``zero_suit`` is the racer suit the 0 suit replaces (R19).

    >>> Variants(zero_suit="chippy").zero_suit
    <Suit.CHIPPY: 'chippy'>
    >>> Variants(larger_hands=True).deck(4).count(Suit.SLIPPY)
    5
    """

    larger_hands: bool = False
    zero_suit: Suit | None = None
    zero_five: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.larger_hands, bool) or not isinstance(self.zero_five, bool):
            raise ValueError("Variant switches must be true or false.")
        if self.zero_suit is not None:
            try:
                suit = Suit(self.zero_suit)
            except ValueError:
                raise ValueError(f"Unknown suit {self.zero_suit!r} for the 0 suit.") from None
            if suit not in RACER_SUITS:
                raise ValueError("The 0 suit must replace one of the six racer suits.")
            object.__setattr__(self, "zero_suit", suit)

    @property
    def zero(self) -> bool:
        """Whether the New 0 suit variant is on."""
        return self.zero_suit is not None

    @property
    def deal_size(self) -> int:
        """Cards in a full hand at the start of a round (R5, R18)."""
        return 7 if self.larger_hands else 6

    def deck(self, players: int) -> list[Suit]:
        """Every card of the game for ``players`` seats, in a fixed order."""
        copies = players + 1 if self.larger_hands and not self.zero else players
        cards: list[Suit] = []
        for suit in RACER_SUITS:
            replaced = self.zero and not self.larger_hands and suit is self.zero_suit
            cards.extend([Suit.ZERO if replaced else suit] * copies)
        if self.zero and self.larger_hands:
            cards.extend([Suit.ZERO] * LARGER_HANDS_ZERO_CARDS)
        return cards

    def to_dict(self) -> VariantsData:
        zero = self.zero_suit
        return {
            "larger_hands": self.larger_hands,
            "zero_suit": None if zero is None else cast(RacerSuitId, zero.value),
            "zero_five": self.zero_five,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variants:
        """Inverse of :meth:`to_dict`; raises ``ValueError`` on unknown keys or values."""
        unknown = set(data) - {"larger_hands", "zero_suit", "zero_five"}
        if unknown:
            raise ValueError(f"Unknown variant option(s): {', '.join(sorted(unknown))}.")
        return cls(
            larger_hands=data.get("larger_hands", False),
            zero_suit=data.get("zero_suit"),
            zero_five=data.get("zero_five", False),
        )
