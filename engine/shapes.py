"""The JSON the engine hands out, declared once: a seat's view and its parts, and each
event's payload. ``TypedDict`` s of ``typing_extensions`` (which pydantic reads on Python
3.11): the API's schema is made from them, described by their docstrings, so this module
is never compiled by mypyc, which keeps neither field types nor docstrings.
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from engine.actions import ActionDict, ActionTypeId
from engine.cards import SuitId, ZeroEffectId
from engine.variants import VariantsData


class PublicPlay(TypedDict):
    """A card in a trick as every seat sees it. A Tune Up shows only its back: ``suit``,
    ``value``, ``effective_value``, ``speed`` and ``final`` are ``None``. ``suit`` is also
    ``None`` for the 0/5 card, which has a ``value`` (0 or 5) instead."""

    seat: int
    type: ActionTypeId
    suit: SuitId | None
    value: int | None
    effective_value: int | None
    gas: int
    speed: int | None
    final: int | None
    zero_effect: ZeroEffectId | None


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
    hand: list[SuitId]
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
    blocked_suits: list[SuitId]
    best: Leader | None
    round_tricks: list[TrickRecord]
    last_trick: TrickRecord | None
    deck: DeckView
    set_aside: int
    legal_actions: list[ActionDict]
    # Never set by observe(): the previews of a person's turn, which the web layer
    # (app.http.previews) adds to a view when it renders a response.
    card_options: NotRequired[list[CardOption]]
    zero_five_option: NotRequired[ZeroFiveOption | None]


class Observation(TableView):
    """Everything one seat may know, as :func:`engine.seat_view.observe` returns it (JSON-ready)."""

    seat: int


class PublicObservation(TableView):
    """What a spectator may know (:func:`engine.seat_view.observe_public`): no seat, so no
    hand and no move."""

    seat: None


class RoundDealt(TypedDict):
    """A round was dealt (R5, R17): its number, who leads its first trick, cards per hand."""

    round: int
    lead: int
    hand_size: int


class CardPlayed(TypedDict):
    """The seat played ``suit`` face up; ``final`` counts the Lichen effect so far (R8, R9)."""

    suit: str
    value: int
    gas: int
    speed: int
    final: int


class TunedUp(TypedDict):
    """The seat laid a card face down (R7); which card stays secret, so no payload."""


class ZeroFivePlayed(TypedDict):
    """The seat played its 0/5 card as ``value`` and regained ``gained`` removed gas (R22)."""

    value: int
    gas: int
    speed: int
    final: int
    gained: int


class CardDiscarded(TypedDict):
    """The seat discarded a card face down after its 0/5 card (R22); no payload."""


class GasTaken(TypedDict):
    """The 2 took one gas from the middle (R10): ``amount`` to the seat, or ``removed``
    from the game when the seat's tank was full."""

    amount: int
    removed: int


class ZeroEffectChosen(TypedDict):
    """The 0's effect (R20): ``choice`` is ``speed`` or ``gas``; ``gained`` is what the
    seat got, ``removed`` what went back to the removed gas."""

    choice: str
    gained: int
    removed: int


class TuneUpShare(TypedDict):
    """The middle was shared among the Tune Ups (R11): ``seats`` and what each ``gained``
    (in the same order), ``each`` the even share, ``removed`` the remainder and overflow."""

    seats: list[int]
    each: int
    gained: list[int]
    removed: int
    middle_before: int


class TrickWon(TypedDict):
    """The seat won trick ``trick`` with ``final`` (R13)."""

    trick: int
    final: int


class TrickAllTunedUp(TypedDict):
    """Every card of trick ``trick`` was face down: nobody won it (R13)."""

    trick: int


class GasToMiddle(TypedDict):
    """The gas spent in the trick (``amount``) went to the middle, now ``middle`` (R14)."""

    amount: int
    middle: int


class SpeedGained(TypedDict):
    """The trick's winner is now at ``speed`` (R15)."""

    speed: int


class LapGained(TypedDict):
    """The sixth trick's winner now has ``laps`` laps (R15)."""

    laps: int


class GameWon(TypedDict):
    """The seat won the race with ``laps`` laps (R16)."""

    laps: int
