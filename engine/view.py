"""The JSON shapes of a seat's view, and the public form of a card in a trick.

:mod:`engine.seat_view` builds every view (:class:`~engine.seat_view.SeatView`) and its
JSON form, the ``TypedDict`` s of :mod:`engine.shapes` (named here too). The public form
of a card in a trick (:func:`public_play`) and of a finished trick (:class:`TrickRecord`)
are made here, for the game's trick records; :mod:`engine.game` and :mod:`engine.sim`
import this module, so it reads a card through the small protocol :class:`TrickCard`.
"""

from __future__ import annotations

from typing import Protocol, cast

from engine.actions import ActionType, ActionTypeId
from engine.cards import Suit, SuitId, ZeroEffect, ZeroEffectId, effective_value
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

_TUNE_UP = ActionType.TUNE_UP
# The JSON id of every kind of play, suit and 0 effect: a dict lookup costs less than an
# enum's ``.value``, and every card of every trick is recorded through public_play.
_KIND_ID = cast("dict[ActionType, ActionTypeId]", {kind: kind.value for kind in ActionType})
_SUIT_ID = cast("dict[Suit, SuitId]", {suit: suit.value for suit in Suit})
_EFFECT_ID = cast("dict[ZeroEffect, ZeroEffectId]", {effect: effect.value for effect in ZeroEffect})


class TrickCard(Protocol):
    """What the view reads of a card in the current trick (:class:`engine.game.Play`)."""

    seat: int
    kind: ActionType
    card: Suit | None
    gas: int
    speed: int
    value: int | None
    zero_effect: ZeroEffect | None


def public_play(play: TrickCard, lichen_in_trick: bool) -> PublicPlay:
    """What every seat sees of a card in a trick: a Tune Up shows only its back.

    >>> from engine.game import Play
    >>> public_play(Play(1, ActionType.TUNE_UP, Suit.SLIPPY, 0, 2, None, None), False)["suit"]
    >>> public_play(Play(0, ActionType.PLAY, Suit.JELLY, 1, 2, 4, None), True)["final"]
    3
    """
    kind = play.kind
    face_up = kind is not _TUNE_UP
    value = play.value
    effective = None if value is None else effective_value(value, lichen_in_trick)
    card = play.card
    effect = play.zero_effect
    return {
        "seat": play.seat,
        "type": _KIND_ID[kind],
        "suit": _SUIT_ID[card] if face_up and card is not None else None,
        "value": value,
        "effective_value": effective,
        "gas": play.gas,
        "speed": play.speed if face_up else None,
        "final": None if effective is None else effective + play.gas + play.speed,
        "zero_effect": None if effect is None else _EFFECT_ID[effect],
    }


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
    "TrickCard",
    "TrickRecord",
    "ZeroFiveOption",
    "ZeroPreview",
    "copy_record",
    "deck_view",
    "public_play",
    "variants_data",
]
