"""The test oracle's decision point: engine/bots/situation.py as it was (see
old_heuristic.py).

Its original docstring follows.

One seat's decision point in a compact form the heuristics read quickly.

A :class:`Situation` is built either from an observation (what a real bot receives) or,
inside a search bot's simulations, from a sampled :class:`~engine.game.Game` — in which
case only what that seat could see is copied out: its own hand, public numbers and
face-up cards. Tune-up identities of other seats are never copied.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from engine.actions import Action, ActionType
from engine.cards import SUIT_ORDER, Suit
from engine.shapes import Observation
from engine.variants import Variants

if TYPE_CHECKING:
    from engine.game import Game

# Dict lookups, as the old bots read every card of every observation (``Suit(id)`` goes
# through the enum's machinery).
ACTION_TYPE_BY_ID: dict[str, ActionType] = {kind.value: kind for kind in ActionType}
SUIT_BY_ID: dict[str, Suit] = {suit.value: suit for suit in Suit}

_PLAY = ActionType.PLAY
_TUNE_UP = ActionType.TUNE_UP
_ZERO_FIVE = ActionType.ZERO_FIVE


@dataclass(frozen=True, slots=True)
class SeenPlay:
    """A card in the current trick as every seat sees it (``suit`` is ``None`` face down)."""

    seat: int
    kind: ActionType
    suit: Suit | None
    value: int | None
    gas: int
    speed: int


@dataclass(slots=True)
class Situation:
    """Everything a heuristic needs for one decision of ``seat``.

    ``unseen`` counts, per suit, the cards this seat has not seen this round (deck minus
    its hand minus face-up cards of this round): they are somewhere in other hands, face
    down, set aside or discarded unseen.
    """

    seat: int
    players: int
    trick: int
    hand: list[Suit]
    gas: list[int]
    speed: list[int]
    laps: list[int]
    hand_size: list[int]
    middle: int
    removed: int
    plays: list[SeenPlay]
    unseen: dict[Suit, int]
    larger_hands: bool
    zero_five: list[bool]
    legal: list[Action]


@lru_cache(maxsize=64)
def deck_counts(players: int, variants: Variants) -> dict[Suit, int]:
    """How many cards of each suit the deck holds, for a table size and variant set.

    Cached and shared: callers copy it before changing anything."""
    deck = variants.deck(players)
    return {suit: deck.count(suit) for suit in SUIT_ORDER if suit in deck}


def _unseen(copies: dict[Suit, int], hand: list[Suit], face_up: list[Suit]) -> dict[Suit, int]:
    unseen = dict(copies)
    for card in hand:
        unseen[card] -= 1
    for card in face_up:
        unseen[card] -= 1
    return unseen


def from_observation(observation: Observation, legal: list[Action]) -> Situation:
    """The situation of the observing seat, which must be the one to act."""
    plays = [
        SeenPlay(
            p["seat"],
            ACTION_TYPE_BY_ID[p["type"]],
            None if p["suit"] is None else SUIT_BY_ID[p["suit"]],
            p["value"],
            p["gas"],
            0 if p["speed"] is None else p["speed"],
        )
        for p in observation["trick_plays"]
    ]
    face_up = [p.suit for p in plays if p.kind is _PLAY and p.suit is not None]
    for record in observation["round_tricks"]:
        for q in record["plays"]:
            if q["type"] == _PLAY and q["suit"] is not None:
                face_up.append(SUIT_BY_ID[q["suit"]])
    copies = {SUIT_BY_ID[name]: n for name, n in observation["deck"]["copies"].items()}
    hand = [SUIT_BY_ID[card] for card in observation["hand"]]
    seats = observation["players"]
    return Situation(
        seat=observation["seat"],
        players=observation["players_count"],
        trick=observation["trick"],
        hand=hand,
        gas=[p["gas"] for p in seats],
        speed=[p["speed"] for p in seats],
        laps=[p["laps"] for p in seats],
        hand_size=[p["hand_size"] for p in seats],
        middle=observation["middle"],
        removed=observation["removed"],
        plays=plays,
        unseen=_unseen(copies, hand, face_up),
        larger_hands=observation["variants"]["larger_hands"],
        zero_five=[p["zero_five_available"] for p in seats],
        legal=legal,
    )


def face_up_this_round(game: Game) -> dict[Suit, int]:
    """How many cards of each suit have been face up this round (public knowledge)."""
    counts: dict[Suit, int] = {}
    for record in game.to_dict()["round_tricks"]:
        for q in record["plays"]:
            if q["type"] == _PLAY and q["suit"] is not None:
                suit = SUIT_BY_ID[q["suit"]]
                counts[suit] = counts.get(suit, 0) + 1
    for p in _trick_plays(game):
        if p.kind is _PLAY and p.suit is not None:
            counts[p.suit] = counts.get(p.suit, 0) + 1
    return counts


def _trick_plays(game: Game) -> list[SeenPlay]:
    """The current trick's cards as saved, secrets included (a Tune Up's card, its speed)."""
    return [
        SeenPlay(
            p["seat"],
            ActionType(p["type"]),
            None if p["card"] is None else Suit(p["card"]),
            p["value"],
            p["gas"],
            p["speed"],
        )
        for p in game.to_dict()["plays"]
    ]


def from_game(game: Game, face_up: dict[Suit, int] | None = None) -> Situation:
    """The situation of ``game``'s current seat, as that seat could know it.

    ``face_up`` is :func:`face_up_this_round` when the caller keeps it up to date (the
    search does, to save recounting); by default it is counted here.
    """
    seat = game.current_seat
    assert seat is not None
    if face_up is None:
        face_up = face_up_this_round(game)
    plays = [
        SeenPlay(
            p.seat,
            p.kind,
            p.suit if p.kind is _PLAY else None,
            p.value,
            p.gas,
            0 if p.kind is _TUNE_UP else p.speed,  # as in the observation: no number
        )
        for p in _trick_plays(game)
    ]
    hand = list(game.hands[seat])
    unseen = dict(deck_counts(game.players, game.core.variants))
    for card in hand:
        unseen[card] -= 1
    for card, n in face_up.items():
        unseen[card] -= n
    return Situation(
        seat=seat,
        players=game.players,
        trick=game.core.trick,
        hand=hand,
        gas=list(game.gas),
        speed=list(game.core.speed),
        laps=list(game.laps),
        hand_size=[len(h) for h in game.hands],
        middle=game.core.middle,
        removed=game.core.removed,
        plays=plays,
        unseen=unseen,
        larger_hands=game.core.variants.larger_hands,
        zero_five=list(game.core.zero_five)
        if game.core.variants.zero_five
        else [False] * game.players,
        legal=game.legal_actions(),
    )
