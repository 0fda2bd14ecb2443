"""The cached parts of a seat's view (the variants' and the deck's JSON). The view's JSON
shapes are :mod:`engine.shapes` (named here too); :mod:`engine.seat_view` builds every view.
"""

from __future__ import annotations

from engine.shapes import (
    CardOption,
    DeckView,
    Leader,
    Observation,
    PlayerView,
    PublicObservation,
    PublicPlay,
    TableView,
    TrickRecord,
    ZeroFiveOption,
    ZeroPreview,
)
from engine.variants import Variants, VariantsData

# Keyed by table size and the variants' id, checked by identity (the entry keeps them
# alive, so no other object can take the id): hashing a dataclass costs more than the answer.
_TABLES: dict[tuple[int, int], tuple[Variants, VariantsData, int, dict[str, int]]] = {}
_MOST_KEPT = 4096  # entries are per Variants object in use: a full cache is a leak, emptied


def table_data(players: int, variants: Variants) -> tuple[VariantsData, DeckView]:
    """``variants.to_dict()`` and the deck ``players`` race with them (its size and copies
    per suit id): fresh copies of cached forms, as every view holds them."""
    key = (players, id(variants))
    known = _TABLES.get(key)
    if known is None or known[0] is not variants:
        copies: dict[str, int] = {}
        for card in variants.deck(players):
            copies[card.value] = copies.get(card.value, 0) + 1
        if len(_TABLES) >= _MOST_KEPT:
            _TABLES.clear()
        known = _TABLES[key] = (variants, variants.to_dict(), sum(copies.values()), copies)
    return known[1].copy(), {"size": known[2], "copies": known[3].copy()}


__all__ = [
    "CardOption",
    "DeckView",
    "Leader",
    "Observation",
    "PlayerView",
    "PublicObservation",
    "PublicPlay",
    "TableView",
    "TrickRecord",
    "ZeroFiveOption",
    "ZeroPreview",
    "table_data",
]
