"""The cached parts of a seat's view: the variants' and the deck's JSON, and a copy of a
finished trick's record. The view's JSON shapes are :mod:`engine.shapes` (named here too);
:mod:`engine.seat_view` builds every view.
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


def copy_record(record: TrickRecord) -> TrickRecord:
    """A copy of a finished-trick record that can be handed out or taken in: records are
    shared between clones, so nobody outside the engine may hold the originals.

    >>> record: TrickRecord = {"trick": 1, "lead": 0, "plays": [], "winner": None}
    >>> copy_record(record) == record and copy_record(record) is not record
    True
    """
    return {**record, "plays": [p.copy() for p in record["plays"]]}


# The variants' JSON form, and per table size the deck's size and copies of each suit id
# (a view copies them). Keyed by the variants' id, checked by identity (the entry keeps
# them alive, so no other object can take the id): hashing a dataclass costs more than
# the answer.
_VARIANTS: dict[int, tuple[Variants, VariantsData]] = {}
_DECKS: dict[tuple[int, int], tuple[Variants, int, dict[str, int]]] = {}
_MOST_KEPT = 4096  # entries are per Variants object in use: a full cache is a leak, emptied


def variants_data(variants: Variants) -> VariantsData:
    """``variants.to_dict()``, a fresh copy of a cached form (every view holds one)."""
    known = _VARIANTS.get(id(variants))
    if known is None or known[0] is not variants:
        if len(_VARIANTS) >= _MOST_KEPT:
            _VARIANTS.clear()
        known = _VARIANTS[id(variants)] = (variants, variants.to_dict())
    return known[1].copy()


def deck_view(players: int, variants: Variants) -> DeckView:
    """The deck ``players`` race with ``variants``: its size and copies per suit id."""
    key = (players, id(variants))
    known = _DECKS.get(key)
    if known is None or known[0] is not variants:
        copies: dict[str, int] = {}
        for card in variants.deck(players):
            copies[card.value] = copies.get(card.value, 0) + 1
        if len(_DECKS) >= _MOST_KEPT:
            _DECKS.clear()
        known = _DECKS[key] = (variants, sum(copies.values()), copies)
    return {"size": known[1], "copies": known[2].copy()}


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
    "copy_record",
    "deck_view",
    "variants_data",
]
