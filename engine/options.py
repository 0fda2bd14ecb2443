"""What a seat may do now, and why not, as data: its legal action ids grouped by card.

:func:`seat_options` reads one seat's view (:class:`~engine.seat_view.SeatView`) and
nothing else, so deals that differ only in cards the seat cannot see give the same
options. :meth:`SeatOptions.why_not` says why an action is not legal, as a
:class:`~engine.refusals.Refusal` of the one table :data:`engine.refusals.REASONS`.

>>> from engine import new_game
>>> game = new_game(players=3, seed=2, hands=[["jelly", "lichen"]] * 3, trick=5)
>>> options = seat_options(game.view(game.current_seat))
>>> [(card.suit.value, card.face_up, card.gas_max) for card in options.cards]
[('lichen', True, 5), ('jelly', True, 5)]
>>> options.card(Suit.JELLY).final(gas=2)
6
>>> options.why_not(Action.play(Suit.SALTY)).as_json()
{'code': 'card_not_in_hand', 'rule': 'R7', 'suit': 'salty'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine import cards, sim
from engine.actions import Action, ActionType
from engine.cards import MAX_GAS, STRUCK_BY_LICHEN, SUIT_ORDER, Suit, ZeroEffect, effective_value
from engine.events import EventKind
from engine.refusals import Refusal
from engine.seat_view import PublicCard, SeatView, leader
from engine.shapes import (
    CardOption,
    Leader,
    Observation,
    PublicObservation,
    ZeroFiveOption,
    ZeroPreview,
)

_REWARD = {sim.SPEED: ZeroEffect.SPEED, sim.GAS: ZeroEffect.GAS}


@dataclass(frozen=True, slots=True)
class Best:
    """The face-up card leading the trick: its seat and its final number (R8, R13)."""

    seat: int
    final: int

    def to_dict(self) -> Leader:
        return {"seat": self.seat, "final": self.final}


@dataclass(frozen=True, slots=True)
class CardChoice:
    """One distinct card in the hand of the seat to move.

    ``why_not`` is the refusal a face-up play of it gets (R7), ``None`` when it may go face
    up; a blocked card carries what it would if its suit were free. ``effective_value`` is
    what it would count now (R9); ``gas_max`` the most gas it could carry after its effect
    (R8, R10), for the 0 card with its speed reward; ``rewards`` the 0 card's (R20), each
    with the most gas it could carry; ``best_other`` the card to beat once this one is
    down; ``cuts`` the seats whose face-up cards it would cut to 0 (R9)."""

    suit: Suit
    value: int
    why_not: Refusal | None
    effective_value: int
    speed: int
    gas_max: int
    best_other: Best | None
    rewards: tuple[tuple[ZeroEffect, int], ...]
    cuts: tuple[int, ...]

    @property
    def face_up(self) -> bool:
        return self.why_not is None

    def most_gas(self, effect: ZeroEffect | None = None) -> int:
        return next((gas for e, gas in self.rewards if e == effect), self.gas_max)

    def speed_with(self, effect: ZeroEffect | None) -> int:
        """The seat's speed once the card is down with ``effect`` (R20)."""
        offered = any(e == effect for e, _ in self.rewards)
        return self.speed + (offered and effect == ZeroEffect.SPEED)

    def final(self, gas: int, effect: ZeroEffect | None = None) -> int:
        """The final number the card would score face up (R8)."""
        return self.effective_value + self.speed_with(effect) + gas

    def to_dict(self, word: Callable[[Refusal], str]) -> CardOption:
        best = self.best_other
        previews: dict[str, ZeroPreview] = {
            e.value: {"speed": self.speed_with(e), "gas_max": gas} for e, gas in self.rewards
        }
        return {
            "suit": self.suit.value,
            "value": self.value,
            "can_play_face_up": self.why_not is None,
            "blocked_reason": None if self.why_not is None else word(self.why_not),
            "effective_value": self.effective_value,
            "speed": self.speed,
            "gas_max": self.gas_max,
            "best_other": None if best is None else best.to_dict(),
            "zero_effect_choices": list(previews),
            "zero_previews": previews,
        }


@dataclass(frozen=True, slots=True)
class ZeroFiveValue:
    """The 0/5 card played as ``value`` (R22): what it would count (R9), and its most gas."""

    value: int
    effective_value: int
    gas_max: int


@dataclass(frozen=True, slots=True)
class ZeroFiveChoice:
    """The 0/5 card's values now (R22), the seat's speed and the card to beat."""

    values: tuple[ZeroFiveValue, ...]
    speed: int
    best_other: Best | None

    def at(self, value: object) -> ZeroFiveValue | None:
        return next((v for v in self.values if v.value == value), None)

    def final(self, played: ZeroFiveValue, gas: int) -> int:
        """The final number ``played`` would score (R8)."""
        return played.effective_value + self.speed + gas

    def to_dict(self) -> ZeroFiveOption:
        """The JSON form, its dicts keyed by value (``"0"``, ``"5"``)."""
        best = self.best_other
        return {
            "values": [v.value for v in self.values],
            "gas_max": {str(v.value): v.gas_max for v in self.values},
            "effective_value": {str(v.value): v.effective_value for v in self.values},
            "speed": self.speed,
            "best_other": None if best is None else best.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class SeatOptions:
    """What ``seat`` may do now (nothing unless it is ``current``, the seat to move);
    ``best`` is the card leading the trick (R13); ``tune_up_shares`` whether a Tune Up
    would share the middle as it stands now (R11)."""

    seat: int | None
    current: int | None
    cards: tuple[CardChoice, ...] = ()
    zero_five: ZeroFiveChoice | None = None
    zero_five_refusal: Refusal | None = None
    best: Best | None = None
    tune_up_shares: bool = False

    def card(self, suit: object) -> CardChoice | None:
        return next((card for card in self.cards if card.suit == suit), None)

    def previews(
        self, word: Callable[[Refusal], str]
    ) -> tuple[list[CardOption], ZeroFiveOption | None]:
        """A view's ``card_options`` and ``zero_five_option``, refusals worded by ``word``."""
        zero_five = self.zero_five
        cards = [card.to_dict(word) for card in self.cards]
        return cards, None if zero_five is None else zero_five.to_dict()

    def why_not(self, action: object, seat: object = None) -> Refusal | None:
        """Why ``action`` (claimed by ``seat``, else :attr:`seat`) is not a legal move now,
        or ``None`` if it is one."""
        current = self.current
        if current is None:
            return Refusal.of("race_over")
        claimed = self.seat if seat is None else seat
        if claimed != current:
            return Refusal.of("not_your_turn", seat=str(claimed), current=current)
        if not isinstance(action, Action):
            return Refusal.of("not_an_action")
        gas = action.gas
        if type(gas) is not int or gas < 0:
            return Refusal.of("gas_not_whole")
        most = _CHECK[action.type](self, action)
        if isinstance(most, Refusal):
            return most
        return Refusal.of("gas_over_supply", most=most) if gas > most else None

    def _face_up(self, action: Action) -> Refusal | int:
        """Why a face-up play is refused, else the most gas it may carry."""
        suit, effect = action.suit, action.zero_effect
        if action.value is not None or action.discard is not None:
            return Refusal.of("value_only_for_zero_five")
        if suit is None:
            return Refusal.of("choose_card")
        card = self.card(suit)
        if card is None:
            return Refusal.of("card_not_in_hand", suit=suit.value)
        if card.why_not is not None:
            return card.why_not
        if card.rewards and effect is None:
            return Refusal.of("choose_zero_effect")
        if card.rewards and all(e != effect for e, _ in card.rewards):
            return Refusal.of("zero_nothing_removed")  # R20: the speed is always on offer
        if not card.rewards and effect is not None:
            return Refusal.of("effect_only_for_zero")
        return card.most_gas(effect)

    def _tune_up(self, action: Action) -> Refusal | int:
        """Why a Tune Up is refused, else the gas it may carry: none (R7, R8)."""
        suit = action.suit
        if suit is None:
            return Refusal.of("choose_tune_up_card")
        if self.card(suit) is None:
            return Refusal.of("card_not_in_hand", suit=suit.value)
        if action.gas:
            return Refusal.of("tune_up_no_gas")
        if action.zero_effect is not None or action.value is not None or action.discard:
            return Refusal.of("tune_up_no_effect")
        return 0

    def _zero_five(self, action: Action) -> Refusal | int:
        """Why the 0/5 card is refused, else the most gas it may carry (R21, R22)."""
        choice = self.zero_five
        if choice is None:
            return self.zero_five_refusal or Refusal.of("not_legal")
        value, discard = action.value, action.discard
        if value not in (0, 5):
            return Refusal.of("zero_five_value")
        played = choice.at(value)
        if played is None:  # the 0 is always on offer; the 5 only with a lap
            return Refusal.of("zero_five_needs_lap")
        if action.suit is not None or action.zero_effect is not None:
            return Refusal.of("zero_five_with_card")
        if discard is None:
            return Refusal.of("zero_five_choose_discard")
        if self.card(discard) is None:
            return Refusal.of("discard_not_in_hand", suit=discard.value)
        return played.gas_max


_CHECK: dict[ActionType, Callable[[SeatOptions, Action], Refusal | int]] = {
    ActionType.PLAY: SeatOptions._face_up,
    ActionType.TUNE_UP: SeatOptions._tune_up,
    ActionType.ZERO_FIVE: SeatOptions._zero_five,
}
"""Per kind of action: why it is refused, else the most gas it may carry."""


def seat_options(view: SeatView) -> SeatOptions:
    """What ``view``'s seat may do now, read off the view alone."""
    seat, current = view.seat, view.current
    if seat is None or seat != current:
        return SeatOptions(seat, current)
    plays = view.trick_plays
    lichen = sim.lichen_in(plays)
    best = _best(leader(plays, lichen))
    # R9: a first 1 cuts the cards before it, so its rival is counted cut.
    struck = best if lichen else _best(leader(plays, True))
    ups, fives = _grouped(view.legal)
    speed = view.speed[seat]
    cards = []
    for index, count in enumerate(view.hand):
        if not count:
            continue
        suit, value = SUIT_ORDER[index], sim.VALUE[index]
        reach, why_not = ups[index], None
        if not reach:  # R7: a card held has no face-up play only while its suit is up
            why_not = Refusal.of("suit_face_up", suit=suit.value)
            free = sim.face_up_ids(1 << index, view.gas[seat], view.middle > 0, view.removed > 0)
            reach = _grouped(free)[0][index]  # what it would carry were its suit free
        most = dict(reach)  # by 0 card reward (R20)
        gas_max = most.get(sim.NO_EFFECT, most.get(sim.SPEED, 0))
        rewards = tuple((_REWARD[effect], gas) for effect, gas in reach if effect != sim.NO_EFFECT)
        strikes = index == sim.LICHEN and not lichen
        rival, cuts = (struck, _cut(plays)) if strikes else (best, ())
        counts = effective_value(value, lichen)
        cards.append(CardChoice(suit, value, why_not, counts, speed, gas_max, rival, rewards, cuts))
    shares = view.middle > 0 and view.gas[seat] < MAX_GAS
    if not fives:
        refusal = _zero_five_refusal(view, seat)
        return SeatOptions(seat, current, tuple(cards), None, refusal, best, shares)
    worth = tuple(ZeroFiveValue(v, effective_value(v, lichen), gas) for v, gas in fives)
    choice = ZeroFiveChoice(worth, speed, best)
    return SeatOptions(seat, current, tuple(cards), choice, None, best, shares)


def observed_options(observation: Observation | PublicObservation) -> SeatOptions:
    """:func:`seat_options` of the view whose JSON form is ``observation``."""
    seat, current = observation["seat"], observation["current_seat"]
    if seat is None or seat != current:
        return SeatOptions(seat, current)
    return seat_options(SeatView.from_observation(observation))


_Reach = tuple[tuple[int, int], ...]
# _grouped's answers, per legal set (one of a few thousand).
_GROUPED: dict[tuple[int, ...], tuple[tuple[_Reach, ...], _Reach]] = {}


def _grouped(ids: tuple[int, ...]) -> tuple[tuple[_Reach, ...], _Reach]:
    """The most gas of the face-up plays among ``ids`` per suit index and 0 card reward
    (R8, R10, R20), and of their 0/5 plays per value (R22)."""
    found = _GROUPED.get(ids)
    if found is not None:
        return found
    ups: list[dict[int, int]] = [{} for _ in SUIT_ORDER]
    fives: dict[int, int] = {}
    for action in ids:
        kind, suit, gas, value, effect = sim.INFO[action]
        if kind == sim.PLAY:
            ups[suit][effect] = max(gas, ups[suit].get(effect, 0))
        elif kind == sim.ZERO_FIVE:
            fives[value] = max(gas, fives.get(value, 0))
    reach = tuple(tuple(sorted(most.items())) for most in ups)
    return sim.remember(_GROUPED, ids, (reach, tuple(sorted(fives.items()))), 4096)


def _cut(cards: tuple[PublicCard, ...]) -> tuple[int, ...]:
    """The seats of the face-up cards among ``cards`` that a 1 counts as 0 (R9; a Tune Up's
    value is -1)."""
    return tuple(seat for seat, a, _ in cards if sim.INFO[a][3] in STRUCK_BY_LICHEN)


def _best(found: Leader | None) -> Best | None:
    return None if found is None else Best(found["seat"], found["final"])


def _zero_five_refusal(view: SeatView, seat: int) -> Refusal:
    """Why the seat to move has no 0/5 play (R21, R22)."""
    if not view.variants.zero_five:
        return Refusal.of("zero_five_not_in_race")
    if not view.zero_five[seat]:
        return Refusal.of("zero_five_used")
    if view.gas[seat] >= MAX_GAS:
        return Refusal.of("zero_five_tank_full")
    if not view.removed:
        return Refusal.of("zero_five_nothing_removed")
    if any(sim.INFO[a][0] == sim.ZERO_FIVE for _, a, _ in view.trick_plays):
        return Refusal.of("zero_five_in_trick")
    return Refusal.of("not_legal")


def trick_counts(plays: Sequence[Mapping[str, Any]]) -> list[int | None]:
    """What each play of a complete trick counted for, from its public events in order
    (as JSON): the printed value under the Lichen effect (R9); None for a Tune Up.

    >>> slippy = {"kind": "card_played", "suit": "slippy", "value": 5}
    >>> lichen = {"kind": "card_played", "suit": "lichen", "value": 1}
    >>> trick_counts([slippy, {"kind": "tuned_up"}, lichen]), trick_counts([slippy])
    ([0, None, 1], [5])
    """
    lichen = any(p["kind"] == EventKind.CARD_PLAYED and p["suit"] == Suit.LICHEN for p in plays)
    return [
        None if p["kind"] == EventKind.TUNED_UP else effective_value(int(p["value"]), lichen)
        for p in plays
    ]


def counted_as_played(play: Mapping[str, Any]) -> int:
    """What a face-up play (a ``card_played`` or ``zero_five_played`` event, as JSON)
    counted for as it went down: its final less its gas and speed (R8, R9).

    >>> counted_as_played({"value": 5, "gas": 2, "speed": 1, "final": 3})
    0
    """
    return int(play["final"]) - int(play["gas"]) - int(play["speed"])


def trick_stake(trick: int) -> Literal["speed", "lap"]:
    """What winning trick number ``trick`` of a round brings (R15).

    >>> trick_stake(1), trick_stake(cards.TRICKS_PER_ROUND)
    ('speed', 'lap')
    """
    return "lap" if trick == cards.TRICKS_PER_ROUND else "speed"
