"""The test oracle for views: engine/view.py as it was when observe() still built the
turn's previews (card_options, zero_five_option) itself, kept unchanged so the tests can
prove that the data-only view plus the web layer's previews (app.http.previews) answer
clients byte for byte as before.

Its original docstring follows. The one function that builds a seat's view of the game
(boardgame.io's ``playerView``).

Everything a page, an API response or a bot learns about a game passes through
:func:`observe`; it copies out only what that seat may know: its own hand, public
numbers and face-up cards. Face-down identities, other hands, the deck order and the
generator state never appear. The shapes it returns are the ``TypedDict`` s below; the
public form of a card in a trick (:func:`public_play`) and of a finished trick
(:class:`TrickRecord`) are made here too, for the game's trick records.

:mod:`engine.game` imports this module, so the view reads a game through the two small
protocols below (:class:`GameState`, :class:`TrickCard`) instead of importing it back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypedDict

from engine.actions import Action, ActionDict, ActionType, supply_after_effect
from engine.cards import (
    MAX_GAS,
    RACER_NAME,
    SUIT_ORDER,
    SUIT_VALUE,
    Suit,
    ZeroEffect,
    effective_value,
)
from engine.variants import Variants, VariantsData

_SORT_KEY = {suit: (SUIT_VALUE[suit], i) for i, suit in enumerate(SUIT_ORDER)}
_TUNE_UP = ActionType.TUNE_UP
# The JSON id of every kind of play, suit and 0 effect: a dict lookup costs less than an
# enum's ``.value``, and every card of every trick is recorded through public_play.
_ID: dict[ActionType | Suit | ZeroEffect, str] = {
    member: member.value for members in (ActionType, Suit, ZeroEffect) for member in members
}


class TrickCard(Protocol):
    """What the view reads of a card in the current trick (:class:`engine.game.Play`)."""

    seat: int
    kind: ActionType
    card: Suit | None
    gas: int
    speed: int
    value: int | None
    zero_effect: ZeroEffect | None


class GameState(Protocol):
    """What the view reads of a game (:class:`engine.game.Game`)."""

    players: int
    variants: Variants
    round: int
    trick: int
    lead: int
    hands: list[list[Suit]]
    gas: list[int]
    speed: list[int]
    laps: list[int]
    middle: int
    removed: int
    zero_five: list[bool]
    set_aside: list[Suit]
    round_tricks: list[TrickRecord]
    last_trick: TrickRecord | None
    winner: int | None

    @property
    def plays(self) -> Sequence[TrickCard]:
        """The cards in the current trick, in play order."""

    @property
    def current_seat(self) -> int | None:
        """The seat to act."""

    @property
    def is_over(self) -> bool:
        """Whether someone has won."""

    def lichen_in_trick(self) -> bool:
        """Whether a 1 lies face up in the current trick."""

    def blocked_suits(self) -> list[Suit]:
        """Suits already face up in the current trick."""

    def legal_actions(self) -> list[Action]:
        """The current seat's legal actions."""

    def zero_five_in_trick(self) -> bool:
        """Whether the 0/5 card lies in the current trick."""

    def supply_after_effect(self, seat: int, action: Action) -> int:
        """Gas ``seat`` could spend on ``action`` after its card's effect."""


class PublicPlay(TypedDict):
    """A card in a trick as every seat sees it. A Tune Up shows only its back: ``suit``,
    ``value``, ``effective_value``, ``speed`` and ``final`` are ``None``. ``suit`` is also
    ``None`` for the 0/5 card, which has a ``value`` (0 or 5) instead."""

    seat: int
    type: str
    suit: str | None
    value: int | None
    effective_value: int | None
    gas: int
    speed: int | None
    final: int | None
    zero_effect: str | None


class TrickRecord(TypedDict):
    """A finished trick: its number, who led it, its cards in play order, and the winner
    (``None`` when every card was face down)."""

    trick: int
    lead: int
    plays: list[PublicPlay]
    winner: int | None


class PlayerView(TypedDict):
    """One seat's public numbers."""

    seat: int
    gas: int
    speed: int
    laps: int
    hand_size: int
    zero_five_available: bool


class Leader(TypedDict):
    """The face-up card that would win the trick: its seat and final number."""

    seat: int
    final: int


class ZeroPreview(TypedDict):
    """What a 0 card played face up with one effect would give: speed and spendable gas."""

    speed: int
    gas_max: int


class CardOption(TypedDict):
    """One distinct card in the hand, for the seat to move: may it go face up (and why
    not), what it would count, and the gas that could go on it."""

    suit: str
    value: int
    can_play_face_up: bool
    blocked_reason: str | None
    effective_value: int
    speed: int
    gas_max: int
    best_other: Leader | None
    zero_effect_choices: list[str]
    zero_previews: dict[str, ZeroPreview]


class ZeroFiveOption(TypedDict):
    """The 0/5 card's choices this turn; the dicts are keyed by value (``"0"``, ``"5"``)."""

    values: list[int]
    gas_max: dict[str, int]
    effective_value: dict[str, int]
    speed: int
    best_other: Leader | None


class DeckView(TypedDict):
    """The deck in use: its size and the copies of each suit id."""

    size: int
    copies: dict[str, int]


class TableView(TypedDict):
    """Every field of a view but ``seat`` (the shared part of :class:`Observation` and
    :class:`PublicObservation`)."""

    players_count: int
    variants: VariantsData
    hand: list[str]
    zero_five_available: bool
    players: list[PlayerView]
    middle: int
    removed: int
    round: int
    trick: int
    lead: int
    current_seat: int | None
    game_over: bool
    winner: int | None
    trick_plays: list[PublicPlay]
    blocked_suits: list[str]
    best: Leader | None
    round_tricks: list[TrickRecord]
    last_trick: TrickRecord | None
    deck: DeckView
    set_aside: int
    legal_actions: list[ActionDict]
    card_options: list[CardOption]
    zero_five_option: ZeroFiveOption | None


class Observation(TableView):
    """Everything one seat may know, as :func:`observe` returns it (JSON-ready)."""

    seat: int


class PublicObservation(TableView):
    """What a spectator may know (:func:`observe_public`): no seat, so no hand and no move."""

    seat: None


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
        "type": _ID[kind],
        "suit": _ID[card] if face_up and card is not None else None,
        "value": value,
        "effective_value": effective,
        "gas": play.gas,
        "speed": play.speed if face_up else None,
        "final": None if effective is None else effective + play.gas + play.speed,
        "zero_effect": None if effect is None else _ID[effect],
    }


def copy_record(record: TrickRecord) -> TrickRecord:
    """A copy of a finished-trick record that can be handed out or taken in: records are
    shared between clones, so nobody outside the engine may hold the originals.

    >>> record: TrickRecord = {"trick": 1, "lead": 0, "plays": [], "winner": None}
    >>> copy_record(record) == record and copy_record(record) is not record
    True
    """
    return {**record, "plays": [p.copy() for p in record["plays"]]}


def observe(game: GameState, seat: int) -> Observation:
    """Return ``seat``'s view of ``game`` as JSON-ready data.

    >>> from engine import new_game
    >>> view = observe(new_game(players=3, seed=2), 1)
    >>> len(view["hand"]), "hands" in view, view["players"][0]["hand_size"]
    (6, False, 6)
    """
    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"There is no seat {seat!r} in this race.")
    return {"seat": seat, **_view(game, seat)}


def observe_public(game: GameState) -> PublicObservation:
    """Return a spectator's view of ``game``: what every seat sees, and no hand at all.

    It is :func:`observe` with no seat: ``seat`` is ``None``, ``hand`` is empty and no
    move is offered, so a watch page can never learn more than any player.

    >>> from engine import new_game
    >>> view = observe_public(new_game(players=3, seed=2))
    >>> view["seat"], view["hand"], view["legal_actions"], view["players"][0]["hand_size"]
    (None, [], [], 6)
    """
    return {"seat": None, **_view(game, None)}


def _view(game: GameState, seat: int | None) -> TableView:
    """The one builder of views: ``seat``'s own parts only when ``seat`` is not None."""
    lichen = game.lichen_in_trick()
    my_turn = seat is not None and game.current_seat == seat
    plays = [public_play(p, lichen) for p in game.plays]
    hand = [] if seat is None else sorted(game.hands[seat], key=_SORT_KEY.__getitem__)
    return {
        "players_count": game.players,
        "variants": game.variants.to_dict(),
        "hand": [card.value for card in hand],
        "zero_five_available": seat is not None
        and game.variants.zero_five
        and game.zero_five[seat],
        "players": [_player(game, s) for s in range(game.players)],
        "middle": game.middle,
        "removed": game.removed,
        "round": game.round,
        "trick": game.trick,
        "lead": game.lead,
        "current_seat": game.current_seat,
        "game_over": game.is_over,
        "winner": game.winner,
        "trick_plays": plays,
        "blocked_suits": [suit.value for suit in game.blocked_suits()],
        "best": _best(plays),
        "round_tricks": [copy_record(r) for r in game.round_tricks],
        "last_trick": None if game.last_trick is None else copy_record(game.last_trick),
        "deck": _deck(game),
        "set_aside": len(game.set_aside),
        "legal_actions": [a.to_dict() for a in game.legal_actions()] if my_turn else [],
        "card_options": _card_options(game, seat, plays, lichen)
        if seat is not None and my_turn
        else [],
        "zero_five_option": _zero_five_option(game, seat, plays, lichen)
        if seat is not None and my_turn
        else None,
    }


def _player(game: GameState, seat: int) -> PlayerView:
    return {
        "seat": seat,
        "gas": game.gas[seat],
        "speed": game.speed[seat],
        "laps": game.laps[seat],
        "hand_size": len(game.hands[seat]),
        "zero_five_available": game.variants.zero_five and game.zero_five[seat],
    }


def _deck(game: GameState) -> DeckView:
    copies: dict[str, int] = {}
    for card in game.variants.deck(game.players):
        copies[card.value] = copies.get(card.value, 0) + 1
    return {"size": sum(copies.values()), "copies": copies}


def _best(plays: list[PublicPlay]) -> Leader | None:
    """The face-up card now winning: highest final, the earlier card on a tie (R13)."""
    best: Leader | None = None
    for play in plays:
        final = play["final"]
        if final is not None and (best is None or final > best["final"]):
            best = {"seat": play["seat"], "final": final}
    return best


def _best_after(plays: list[PublicPlay], striking: bool) -> Leader | None:
    """The current leader if a 1 were added now (``striking``), else as things stand."""
    if not striking:
        return _best(plays)
    struck = []
    for play in plays:
        final, value = play["final"], play["value"]
        if final is not None and value is not None:
            play = {**play, "final": final - value + effective_value(value, True)}
        struck.append(play)
    return _best(struck)


def _card_options(
    game: GameState, seat: int, plays: list[PublicPlay], lichen: bool
) -> list[CardOption]:
    """Per distinct card in hand: whether it may go face up, why not, and preview numbers."""
    blocked = set(game.blocked_suits())
    gas, speed, middle, removed = game.gas[seat], game.speed[seat], game.middle, game.removed
    options: list[CardOption] = []
    for suit in sorted(set(game.hands[seat]), key=_SORT_KEY.__getitem__):
        value = SUIT_VALUE[suit]
        can = suit not in blocked
        zero_previews: dict[str, ZeroPreview] = {}
        if suit is Suit.ZERO:
            for effect in ZeroEffect.SPEED, ZeroEffect.GAS:
                if effect is ZeroEffect.GAS and not removed:
                    continue  # R20: nothing removed, nothing to take back
                gas_max = supply_after_effect(Action.play(suit, 0, effect), gas, middle, removed)
                zero_previews[effect.value] = {
                    "speed": speed + 1 if effect is ZeroEffect.SPEED else speed,
                    "gas_max": gas_max,
                }
        options.append(
            {
                "suit": suit.value,
                "value": value,
                "can_play_face_up": can,
                "blocked_reason": None
                if can
                else f"{RACER_NAME[suit]} is already face up in this trick.",
                "effective_value": effective_value(value, lichen),
                "speed": speed,
                "gas_max": supply_after_effect(Action.play(suit), gas, middle, removed),
                "best_other": _best_after(plays, suit is Suit.LICHEN and not lichen),
                "zero_effect_choices": list(zero_previews),
                "zero_previews": zero_previews,
            }
        )
    return options


def _zero_five_playable(game: GameState, seat: int) -> bool:
    """Whether ``seat`` may play its 0/5 card now (R21, R22)."""
    return (
        game.variants.zero_five
        and game.zero_five[seat]
        and game.gas[seat] < MAX_GAS
        and game.removed > 0
        and not game.zero_five_in_trick()
    )


def _zero_five_option(
    game: GameState, seat: int, plays: list[PublicPlay], lichen: bool
) -> ZeroFiveOption | None:
    """The 0/5 card's choices now, or ``None`` if it cannot be played this turn."""
    if not _zero_five_playable(game, seat):
        return None
    values = [0, 5] if game.laps[seat] >= 1 else [0]
    gas_max = {}
    for value in values:
        probe = Action(ActionType.ZERO_FIVE, None, 0, None, value, None)
        gas_max[str(value)] = game.supply_after_effect(seat, probe)
    return {
        "values": values,
        "gas_max": gas_max,
        "effective_value": {str(v): effective_value(v, lichen) for v in values},
        "speed": game.speed[seat],
        "best_other": _best(plays),
    }
