"""The game state and its rules: dealing, turns, trick resolution, rounds and the win (R5–R22).

:class:`Game` is the whole truth of one race, hidden cards included. Nothing
outside the engine should read its private fields: a seat's view comes from
:meth:`Game.observation` (built in :mod:`engine.seat_view`), the saved form from
:meth:`Game.to_dict`, and a game put together from known parts (a puzzle, a bot's
sampled world) from :func:`new_game` or :meth:`Game.from_parts`.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, TypeGuard

from oracle.old_view import copy_record, observe, observe_public, public_play

from engine.actions import Action, ActionType, supply_after_effect
from engine.cards import (
    LAPS_TO_WIN,
    MAX_GAS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RACER_NAME,
    STRUCK_BY_LICHEN,
    SUIT_ORDER,
    SUIT_VALUE,
    TRICKS_PER_ROUND,
    Suit,
    ZeroEffect,
    effective_value,
)
from engine.events import Event, EventKind, make_event
from engine.rng import Rng
from engine.shapes import (
    CardPlayed,
    Observation,
    PublicObservation,
    PublicPlay,
    TrickRecord,
)
from engine.variants import Variants


class OldIllegalAction(ValueError):
    """The old engine's refusal: its message was the sentence itself."""


MAX_DECISIONS = 5_000
"""A safe bound on the turns of one game, for callers that loop over bot moves.

No rule ends a race in which nobody ever wins a sixth trick, so a game has no true
maximum. Real games are short: uniformly random play, which wastes more tricks than any
bot, averaged 80 turns and never took more than 210 over 9,600 seeded games of every
table size and variant mix. A loop that reaches this bound has met a bug, not a long game.
"""

_FORMAT = 1
_SUIT_BIT = {suit: 1 << i for i, suit in enumerate(SUIT_ORDER)}
_PLAY = ActionType.PLAY
_TUNE_UP = ActionType.TUNE_UP
_ZERO_FIVE = ActionType.ZERO_FIVE
# Enum members and ids as plain globals for apply(), the server's and the checked bench's
# hot path: an attribute lookup on an enum class, or ``.value``, costs more than the work.
_SALTY, _LICHEN, _ZERO_SUIT = Suit.SALTY, Suit.LICHEN, Suit.ZERO
_SUIT_ID = {suit: suit.value for suit in Suit}
_CARD_PLAYED, _TUNED_UP = EventKind.CARD_PLAYED, EventKind.TUNED_UP


class Play:
    """One card lying in the current trick. ``card`` is the physical suit (secret for a
    Tune Up, ``None`` for the 0/5 card); ``value`` the printed value (``None`` face down)."""

    __slots__ = ("card", "gas", "kind", "seat", "speed", "value", "zero_effect")

    def __init__(
        self,
        seat: int,
        kind: ActionType,
        card: Suit | None,
        gas: int,
        speed: int,
        value: int | None,
        zero_effect: ZeroEffect | None,
    ) -> None:
        self.seat = seat
        self.kind = kind
        self.card = card
        self.gas = gas
        self.speed = speed
        self.value = value
        self.zero_effect = zero_effect

    def final(self, lichen_in_trick: bool) -> int | None:
        """The card's final number (R8, R9), or ``None`` for a Tune Up."""
        value = self.value
        if value is None:
            return None
        return effective_value(value, lichen_in_trick) + self.gas + self.speed

    def to_dict(self) -> dict[str, Any]:
        """Full (secret-bearing) form, for saving the game only."""
        return {
            "seat": self.seat,
            "type": self.kind.value,
            "card": None if self.card is None else self.card.value,
            "gas": self.gas,
            "speed": self.speed,
            "value": self.value,
            "zero_effect": None if self.zero_effect is None else self.zero_effect.value,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Play:
        """Inverse of :meth:`to_dict`."""
        card = data["card"]
        effect = data["zero_effect"]
        return cls(
            int(data["seat"]),
            ActionType(data["type"]),
            None if card is None else Suit(card),
            int(data["gas"]),
            int(data["speed"]),
            data["value"],
            None if effect is None else ZeroEffect(effect),
        )


# Legal-action lists depend on a handful of facts only; caching them by those facts makes
# legal_actions() a few dict lookups in the bots' inner loop. The list is cached in three
# parts (face-up plays, Tune Ups, 0/5 plays) whose keys are each small: 128 suit masks
# x 6 supplies x 2 x 2 for face-up plays, 128 masks for Tune Ups, 128 x 6 x 3 x 2 for the
# 0/5 card. The cache can never hold more than those 7,808 entries, so it needs no eviction.
# Each part also maps the id of each of its actions to the action, so that apply() can
# accept an action taken from legal_actions() by one lookup and an identity check instead
# of re-checking every rule (the identity check keeps an id that means another object, in
# another process say, from ever passing).
_Part = tuple[tuple[Action, ...], dict[int, Action]]
_LEGAL_CACHE: dict[int, _Part] = {}
_FACE_DOWN, _ZERO_FIVE_PART = 1 << 13, 2 << 13  # key bits telling the parts apart
# There are only a few hundred distinct actions; sharing one object per action keeps each
# cache entry down to a tuple of pointers.
_ACTION_POOL: dict[Action, Action] = {}
_NOT_LISTED = Action.tune_up(Suit.JELLY)  # a stand-in no cache entry holds (see _listed)


def _interned(action: Action) -> Action:
    return _ACTION_POOL.setdefault(action, action)


def _part(actions: tuple[Action, ...]) -> _Part:
    """A cached part of a legal list: the actions, and each one by its id."""
    return actions, {id(action): action for action in actions}


class Game:
    """One race from the deal to the second lap (OpenSpiel-style: ``current_seat``,
    ``legal_actions``, ``apply``, ``observation``).

    Only :meth:`apply` changes a game once it is made (which is what lets it take an
    action :meth:`legal_actions` has just listed without checking the rules again).

    >>> game = new_game(players=3, seed=1)
    >>> while not game.is_over:
    ...     _ = game.apply(game.legal_actions()[0])
    >>> game.winner is not None and game.laps[game.winner] == 2
    True
    """

    __slots__ = (
        "_legal",
        "discards",
        "gas",
        "hands",
        "lap_order",
        "laps",
        "last_trick",
        "lead",
        "middle",
        "players",
        "plays",
        "removed",
        "rng",
        "round",
        "round_tricks",
        "seed",
        "set_aside",
        "speed",
        "trick",
        "variants",
        "winner",
        "zero_five",
    )

    players: int
    variants: Variants
    seed: int
    rng: Rng
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
    plays: list[Play]
    discards: list[Suit]
    set_aside: list[Suit]
    round_tricks: list[TrickRecord]
    last_trick: TrickRecord | None
    lap_order: list[int]
    winner: int | None
    # The legal-list parts legal_actions() last handed out, until the next apply().
    _legal: tuple[_Part, _Part, _Part | None] | None

    # ------------------------------------------------------------------ queries

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        if self.winner is not None:
            return None
        return (self.lead + len(self.plays)) % self.players

    @property
    def is_over(self) -> bool:
        """Whether someone has won (R16)."""
        return self.winner is not None

    def lichen_in_trick(self) -> bool:
        """Whether a 1 lies face up in the current trick (R9)."""
        return any(p.card is Suit.LICHEN and p.kind is _PLAY for p in self.plays)

    def blocked_suits(self) -> list[Suit]:
        """Racer suits already face up in this trick, which cannot be played face up (R7)."""
        return [p.card for p in self.plays if p.kind is _PLAY and p.card is not None]

    def zero_five_in_trick(self) -> bool:
        """Whether a 0/5 card has been played into this trick (R22)."""
        return any(p.kind is _ZERO_FIVE for p in self.plays)

    def supply_after_effect(self, seat: int, action: Action) -> int:
        """Gas ``seat`` could spend on ``action`` after its card's effect (R8: effect first);
        see :func:`engine.actions.supply_after_effect`."""
        return supply_after_effect(action, self.gas[seat], self.middle, self.removed)

    def zero_five_playable(self, seat: int) -> bool:
        """Whether ``seat`` may play its 0/5 card now (R21, R22)."""
        return (
            self.variants.zero_five
            and self.zero_five[seat]
            and self.gas[seat] < MAX_GAS
            and self.removed > 0
            and not self.zero_five_in_trick()
        )

    def legal_actions(self) -> list[Action]:
        """Every distinct legal turn for the current seat, each gas amount its own action."""
        if self.winner is not None:
            return []
        seat = (self.lead + len(self.plays)) % self.players
        face_up, face_down, zero_five = self._legal = self._legal_parts(seat)
        if zero_five is None:
            return [*face_up[0], *face_down[0]]
        return [*face_up[0], *face_down[0], *zero_five[0]]

    def _legal_parts(self, seat: int) -> tuple[_Part, _Part, _Part | None]:
        """The cached parts of ``seat``'s legal list: face-up plays, Tune Ups, and the 0/5
        plays (``None`` when the 0/5 card cannot be played, R21, R22)."""
        hand_mask = 0
        for card in self.hands[seat]:
            hand_mask |= _SUIT_BIT[card]
        blocked_mask = 0
        zero_five_in = False
        for p in self.plays:
            if p.card is not None and p.kind is _PLAY:
                blocked_mask |= _SUIT_BIT[p.card]
            elif p.kind is _ZERO_FIVE:
                zero_five_in = True
        gas = self.gas[seat]
        removed = self.removed
        middle = self.middle
        # Each key packs its facts into one integer (hashing it is cheaper than a tuple).
        up_key = hand_mask & ~blocked_mask | gas << 7 | (middle > 0) << 10 | (removed > 0) << 11
        face_up = _LEGAL_CACHE.get(up_key)
        if face_up is None:
            actions = _face_up_actions(hand_mask & ~blocked_mask, gas, middle > 0, removed > 0)
            face_up = _LEGAL_CACHE[up_key] = _part(actions)
        face_down = _LEGAL_CACHE.get(_FACE_DOWN | hand_mask)
        if face_down is None:
            face_down = _LEGAL_CACHE[_FACE_DOWN | hand_mask] = _part(_tune_up_actions(hand_mask))
        if not (self.zero_five[seat] and removed and gas < MAX_GAS and self.variants.zero_five):
            return face_up, face_down, None
        if zero_five_in:
            return face_up, face_down, None
        lapped = self.laps[seat] >= 1
        zf_key = _ZERO_FIVE_PART | hand_mask | gas << 7 | min(removed, 2) << 10 | lapped << 12
        zero_five = _LEGAL_CACHE.get(zf_key)
        if zero_five is None:
            actions = _zero_five_actions(hand_mask, gas, min(removed, 2), lapped)
            zero_five = _LEGAL_CACHE[zf_key] = _part(actions)
        return face_up, face_down, zero_five

    def _listed(self, action: object) -> TypeGuard[Action]:
        """Whether ``action`` is one of the very objects the last :meth:`legal_actions`
        listed, with nothing played since: legal, without re-checking the rules. (An equal
        action built elsewhere, parsed from JSON say, goes through :meth:`why_illegal`.)"""
        parts = self._legal
        if parts is None:
            return False
        key = id(action)
        face_up, face_down, zero_five = parts
        # The default is no action, so that a lookup that finds nothing never matches,
        # not even ``None`` (which a plain ``.get`` would return).
        return (
            face_up[1].get(key, _NOT_LISTED) is action
            or face_down[1].get(key, _NOT_LISTED) is action
            or (zero_five is not None and zero_five[1].get(key, _NOT_LISTED) is action)
        )

    def why_illegal(self, action: object, seat: object = None) -> str | None:
        """The reason ``action`` is illegal now (a sentence for the player), or ``None``.

        ``seat``, when given, is who claims to act. Anything that is not an
        :class:`~engine.actions.Action` is illegal too (parameters typed ``object``, so that
        the mypyc-compiled build refuses it with this sentence, not a ``TypeError``).
        """
        current = self.current_seat
        if current is None:
            return "The race is over: no more cards can be played."
        if seat is not None and seat != current:
            return f"It is not seat {seat}'s turn: seat {current} is to play."
        if not isinstance(action, Action):
            return "That is not an action."
        kind, suit, gas = action.type, action.suit, action.gas
        if type(gas) is not int or gas < 0:
            return "Gas spent must be a whole number, 0 or more."
        hand = self.hands[current]
        if kind is _PLAY:
            if action.value is not None or action.discard is not None:
                return "Only the 0/5 card takes a value and a discard."
            if suit is None:
                return "Choose which card to play."
            if suit not in hand:
                return f"You have no {RACER_NAME[suit]} card in your hand."
            if suit in self.blocked_suits():
                return (
                    f"{RACER_NAME[suit]} is already face up in this trick: "
                    "play another suit face up, or tune up."
                )
            if suit is Suit.ZERO:
                if action.zero_effect is None:
                    return "Choose the 0 card's effect: +1 speed, or one removed gas back."
                if action.zero_effect is ZeroEffect.GAS and self.removed == 0:
                    return (
                        "No gas has been removed from the game yet, "
                        "so the 0 can only give +1 speed."
                    )
            elif action.zero_effect is not None:
                return "Only a 0 card has an effect to choose."
        elif kind is _TUNE_UP:
            if suit is None:
                return "Choose which card to lay face down."
            if suit not in hand:
                return f"You have no {RACER_NAME[suit]} card in your hand."
            if gas:
                return "A Tune Up cannot carry gas: it is face down and cannot win."
            if action.zero_effect is not None or action.value is not None or action.discard:
                return "A Tune Up is just a card laid face down: it has no effect to choose."
        elif kind is _ZERO_FIVE:
            problem = self._zero_five_problem(current, action)
            if problem:
                return problem
        else:  # pragma: no cover - ActionType is closed
            return "Unknown kind of action."
        supply = supply_after_effect(action, self.gas[current], self.middle, self.removed)
        if gas > supply:
            return f"You can spend at most {supply} gas on this card."
        return None

    def _zero_five_problem(self, seat: int, action: Action) -> str | None:
        if not self.variants.zero_five:
            return "The 0/5 card is not used in this race."
        if not self.zero_five[seat]:
            return "You have already used your 0/5 card."
        if self.gas[seat] >= MAX_GAS:
            return "Your tank is full: the 0/5 card needs room for gas."
        if self.removed == 0:
            return "No gas has been removed from the game yet, so the 0/5 card cannot be played."
        if self.zero_five_in_trick():
            return "Another 0/5 card is already in this trick."
        if action.value not in (0, 5):
            return "The 0/5 card is played either as 0 or as 5."
        if action.value == 5 and self.laps[seat] < 1:
            return "The 0/5 card can only be played as 5 once you have completed a lap."
        if action.suit is not None or action.zero_effect is not None:
            return "The 0/5 card is played from beside your hand, not with a card from it."
        if action.discard is None:
            return "Choose a card from your hand to discard face down."
        if action.discard not in self.hands[seat]:
            return f"You have no {RACER_NAME[action.discard]} card to discard."
        return None

    # ------------------------------------------------------------------ the move

    def apply(self, action: object, seat: object = None) -> list[Event]:
        """Play ``action`` for the current seat and return what happened.

        Raises :class:`OldIllegalAction` (with a sentence for the player) and leaves the
        game exactly as it was if the action is not legal now, or not an action at all.
        """
        me = (self.lead + len(self.plays)) % self.players
        # An action legal_actions() just listed is legal: the rules are checked again
        # only for anything else (the sentence of why_illegal says what is wrong).
        if (seat is not None and seat != me) or not self._listed(action):
            reason = self.why_illegal(action, seat)
            if reason is not None:
                raise OldIllegalAction(reason)
            assert isinstance(action, Action)  # why_illegal refuses anything else
        self._legal = None
        kind = action.type
        if kind is _PLAY:
            events = self._play_face_up(me, action)
        elif kind is _TUNE_UP:
            assert action.suit is not None
            self.hands[me].remove(action.suit)
            self.plays.append(Play(me, kind, action.suit, 0, self.speed[me], None, None))
            events = [make_event(_TUNED_UP, me, {})]
        else:
            events = self._play_zero_five(me, action)
        if len(self.plays) == self.players:
            events.extend(self._resolve_trick())
        return events

    def _play_face_up(self, me: int, action: Action) -> list[Event]:
        """R7–R10, R20: the card's effect, then its gas and speed."""
        suit = action.suit
        assert suit is not None
        self.hands[me].remove(suit)
        effect_event = None
        if suit is _SALTY or suit is _ZERO_SUIT:
            effect_event = self._card_effect(me, suit, action.zero_effect)
        gas = action.gas
        self.gas[me] -= gas
        value = SUIT_VALUE[suit]
        speed = self.speed[me]
        plays = self.plays
        plays.append(Play(me, _PLAY, suit, gas, speed, value, action.zero_effect))
        lichen = suit is _LICHEN
        if not lichen:
            for p in plays:
                if p.card is _LICHEN and p.kind is _PLAY:
                    lichen = True
                    break
        final = (0 if lichen and value in STRUCK_BY_LICHEN else value) + gas + speed
        data: CardPlayed = {
            "suit": _SUIT_ID[suit],
            "value": value,
            "gas": gas,
            "speed": speed,
            "final": final,
        }
        if effect_event is None:
            return [make_event(_CARD_PLAYED, me, data)]
        return [make_event(_CARD_PLAYED, me, data), effect_event]

    def _card_effect(self, me: int, suit: Suit, choice: ZeroEffect | None) -> Event | None:
        """R10 (the 2) and R20 (the 0): effects that happen before gas is spent."""
        if suit is Suit.SALTY:
            if self.middle == 0:
                return None
            self.middle -= 1
            if self.gas[me] < MAX_GAS:
                self.gas[me] += 1
                return make_event(EventKind.GAS_TAKEN, me, {"amount": 1, "removed": 0})
            self.removed += 1
            return make_event(EventKind.GAS_TAKEN, me, {"amount": 0, "removed": 1})
        if suit is Suit.ZERO:
            if choice is ZeroEffect.SPEED:
                self.speed[me] += 1
                return make_event(
                    EventKind.ZERO_EFFECT, me, {"choice": "speed", "gained": 1, "removed": 0}
                )
            gained = self._gain_removed(me, 1)
            return make_event(
                EventKind.ZERO_EFFECT,
                me,
                {"choice": "gas", "gained": gained, "removed": 1 - gained},
            )
        return None

    def _gain_removed(self, seat: int, wanted: int) -> int:
        """Give ``seat`` up to ``wanted`` removed gas; any overflow past 5 stays removed."""
        available = min(wanted, self.removed)
        gained = min(available, MAX_GAS - self.gas[seat])
        self.removed -= gained
        self.gas[seat] += gained
        return gained

    def _play_zero_five(self, me: int, action: Action) -> list[Event]:
        """R22: the 0/5 card's effect, gas, speed, then the face-down discard."""
        assert action.value is not None and action.discard is not None
        self.zero_five[me] = False
        gained = self._gain_removed(me, 2 if action.value == 0 else 1)
        self.gas[me] -= action.gas
        play = Play(me, _ZERO_FIVE, None, action.gas, self.speed[me], action.value, None)
        self.plays.append(play)
        self.hands[me].remove(action.discard)
        self.discards.append(action.discard)
        final = play.final(self.lichen_in_trick())
        assert final is not None
        return [
            make_event(
                EventKind.ZERO_FIVE_PLAYED,
                me,
                {
                    "value": action.value,
                    "gas": action.gas,
                    "speed": play.speed,
                    "final": final,
                    "gained": gained,
                },
            ),
            make_event(EventKind.CARD_DISCARDED, me, {}),
        ]

    def _resolve_trick(self) -> list[Event]:
        """R11–R17, in the order docs/rules.md gives."""
        events: list[Event] = []
        if self.middle:
            share = self._share_middle()
            if share is not None:
                events.append(share)
        winner, best, spent = self._record_trick()
        self.plays = []
        if winner is None:
            events.append(make_event(EventKind.TRICK_ALL_TUNED_UP, None, {"trick": self.trick}))
        else:
            events.append(
                make_event(EventKind.TRICK_WON, winner, {"trick": self.trick, "final": best})
            )
        self.middle += spent
        events.append(
            make_event(EventKind.GAS_TO_MIDDLE, None, {"amount": spent, "middle": self.middle})
        )
        if winner is not None and self.trick < TRICKS_PER_ROUND:
            self.speed[winner] += 1
            self.lead = winner
            events.append(make_event(EventKind.SPEED_GAINED, winner, {"speed": self.speed[winner]}))
        elif winner is not None:
            self.laps[winner] += 1
            self.lap_order.append(winner)
            events.append(make_event(EventKind.LAP_GAINED, winner, {"laps": self.laps[winner]}))
            if self.laps[winner] >= LAPS_TO_WIN:
                self.winner = winner
                events.append(make_event(EventKind.GAME_WON, winner, {"laps": self.laps[winner]}))
                return events
        if self.trick < TRICKS_PER_ROUND:
            self.trick += 1
            return events
        # R6 and R17: the most recent lap gainer leads; if nobody ever gained one, the
        # sixth trick's lead (still self.lead, as nobody won that trick) leads again.
        if self.lap_order:
            self.lead = self.lap_order[-1]
        events.append(self._deal_round())
        return events

    def _share_middle(self) -> Event | None:
        """R11: the Tune Ups share the middle; the remainder and any overflow are removed."""
        tuners = [p.seat for p in self.plays if p.kind is _TUNE_UP]
        pot = self.middle
        if not tuners or not pot:
            return None
        each, left_over = divmod(pot, len(tuners))
        overflow = 0
        gained = []
        for seat in tuners:
            room = MAX_GAS - self.gas[seat]
            got = each if each <= room else room
            self.gas[seat] += got
            overflow += each - got
            gained.append(got)
        self.middle = 0
        self.removed += left_over + overflow
        return make_event(
            EventKind.TUNE_UP_SHARE,
            None,
            {
                "seats": tuners,
                "each": each,
                "gained": gained,
                "removed": left_over + overflow,
                "middle_before": pot,
            },
        )

    def _record_trick(self) -> tuple[int | None, int, int]:
        """R12, R13: discard the trick's cards and keep its public record; return the
        winner (``None`` if all were face down), the winning final and the gas spent."""
        plays = self.plays
        lichen = False
        for p in plays:
            if p.card is _LICHEN and p.kind is _PLAY:
                lichen = True
                break
        winner: int | None = None
        best = -1
        spent = 0
        public_plays: list[PublicPlay] = []
        for p in plays:
            shown = public_play(p, lichen)
            public_plays.append(shown)
            final = shown["final"]
            spent += p.gas
            if final is not None and final > best:  # strict: ties go to the earlier card
                best, winner = final, p.seat
            if p.kind is not _ZERO_FIVE:  # the 0/5 card leaves the game (R22)
                assert p.card is not None
                self.discards.append(p.card)
        record: TrickRecord = {
            "trick": self.trick,
            "lead": self.lead,
            "plays": public_plays,
            "winner": winner,
        }
        self.round_tricks.append(record)
        self.last_trick = record
        return winner, best, spent

    def _deal_round(self) -> Event:
        """R5, R17, R18: shuffle every card not in a hand and deal up to a full hand."""
        pool = self.discards + self.set_aside
        self.rng.shuffle(pool)
        deal_size = self.variants.deal_size
        start = 0
        for hand in self.hands:
            take = max(0, deal_size - len(hand))
            hand.extend(pool[start : start + take])
            start += take
        self.set_aside = pool[start:]
        self.discards = []
        self.speed = [0] * self.players
        self.round += 1
        self.trick = 1
        self.round_tricks = []
        return self.deal_event()

    def deal_event(self) -> Event:
        """The ``round_dealt`` event of the round in progress, exactly as :meth:`apply`
        reports it when it deals a later round: the round, who led its first trick, and
        the cards each hand held when it was dealt. :func:`new_game` reports nothing, so
        a caller narrating a whole race starts with this.

        >>> game = new_game(players=3, seed=2, lead=1)
        >>> game.deal_event().to_dict()
        {'kind': 'round_dealt', 'seat': None, 'round': 1, 'lead': 1, 'hand_size': 6}
        >>> _ = game.apply(game.legal_actions()[0])
        >>> game.deal_event() == new_game(players=3, seed=2, lead=1).deal_event()
        True
        """
        first_lead = self.round_tricks[0]["lead"] if self.round_tricks else self.lead
        # Every seat plays one card from its hand per trick (a Tune Up, a face-up card or
        # the 0/5 card's discard), so seat 0 held this many when the round was dealt.
        played = self.trick - 1 + any(p.seat == 0 for p in self.plays)
        return make_event(
            EventKind.ROUND_DEALT,
            None,
            {"round": self.round, "lead": first_lead, "hand_size": len(self.hands[0]) + played},
        )

    # ------------------------------------------------------------------ views and storage

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know, JSON-ready (see :func:`engine.seat_view.observe`)."""
        return observe(self, seat)

    def public_observation(self) -> PublicObservation:
        """What a spectator may know: no hand (see :func:`engine.seat_view.observe_public`)."""
        return observe_public(self)

    def to_dict(self) -> dict[str, Any]:
        """The complete state, secrets included, as JSON-ready data. Server-side only."""
        return {
            "format": _FORMAT,
            "players": self.players,
            "variants": self.variants.to_dict(),
            "seed": self.seed,
            "rng": self.rng.state,
            "round": self.round,
            "trick": self.trick,
            "lead": self.lead,
            "hands": [[card.value for card in hand] for hand in self.hands],
            "gas": list(self.gas),
            "speed": list(self.speed),
            "laps": list(self.laps),
            "middle": self.middle,
            "removed": self.removed,
            "zero_five": list(self.zero_five),
            "plays": [p.to_dict() for p in self.plays],
            "discards": [card.value for card in self.discards],
            "set_aside": [card.value for card in self.set_aside],
            "round_tricks": [copy_record(r) for r in self.round_tricks],
            "last_trick": None if self.last_trick is None else copy_record(self.last_trick),
            "lap_order": list(self.lap_order),
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Restore a game saved by :meth:`to_dict`; it continues exactly as the original."""
        if data.get("format") != _FORMAT:
            raise ValueError("Unknown saved-game format.")
        last = data["last_trick"]
        return cls.from_parts(
            players=data["players"],
            variants=Variants.from_dict(data["variants"]),
            seed=int(data["seed"]),
            rng_state=int(data["rng"]),
            round=int(data["round"]),
            trick=int(data["trick"]),
            lead=int(data["lead"]),
            hands=[[Suit(c) for c in hand] for hand in data["hands"]],
            gas=[int(g) for g in data["gas"]],
            speed=[int(s) for s in data["speed"]],
            laps=[int(n) for n in data["laps"]],
            middle=int(data["middle"]),
            removed=int(data["removed"]),
            zero_five=[bool(z) for z in data["zero_five"]],
            plays=[Play.from_dict(p) for p in data["plays"]],
            discards=[Suit(c) for c in data["discards"]],
            set_aside=[Suit(c) for c in data["set_aside"]],
            round_tricks=[copy_record(r) for r in data["round_tricks"]],
            last_trick=None if last is None else copy_record(last),
            lap_order=[int(s) for s in data["lap_order"]],
            winner=data["winner"],
        )

    @classmethod
    def from_parts(
        cls,
        *,
        players: int,
        variants: Variants,
        seed: int,
        rng_state: int,
        round: int,
        trick: int,
        lead: int,
        hands: Sequence[Sequence[Suit]],
        gas: Sequence[int],
        speed: Sequence[int],
        laps: Sequence[int],
        middle: int,
        removed: int,
        zero_five: Sequence[bool],
        plays: Sequence[Play],
        discards: Sequence[Suit],
        set_aside: Sequence[Suit],
        round_tricks: Sequence[TrickRecord],
        last_trick: TrickRecord | None,
        lap_order: Sequence[int],
        winner: int | None,
    ) -> Game:
        """A game from every part of its state, hidden cards included: the hands, the
        cards in the current trick (a Tune Up's ``card`` is its face-down identity), the
        discards and the set-aside cards; ``rng_state`` is the generator of later deals.

        The parts are taken as given (consistency is the caller's business): this is how
        :meth:`from_dict` restores a save and a bot builds a sampled world. Lists and plays
        are copied; trick records, never changed once made, are shared.

        >>> game = new_game(players=3, seed=5)
        >>> _ = game.apply(game.legal_actions()[0])
        >>> names = "players variants seed round trick lead hands gas speed laps middle removed"
        >>> names += " zero_five plays discards set_aside round_tricks last_trick lap_order winner"
        >>> parts = {name: getattr(game, name) for name in names.split()}
        >>> Game.from_parts(rng_state=game.rng.state, **parts) == game
        True
        """
        game = Game.__new__(Game)
        game.players = _check_players(players)
        game.variants = variants
        game.seed = seed
        game.rng = Rng(rng_state)
        game.round, game.trick, game.lead = round, trick, lead
        game.hands = [list(hand) for hand in hands]
        game.gas, game.speed, game.laps = list(gas), list(speed), list(laps)
        game.middle, game.removed = middle, removed
        game.zero_five = list(zero_five)
        game.plays = [
            Play(p.seat, p.kind, p.card, p.gas, p.speed, p.value, p.zero_effect) for p in plays
        ]
        game.discards, game.set_aside = list(discards), list(set_aside)
        game.round_tricks, game.last_trick = list(round_tricks), last_trick
        game.lap_order = list(lap_order)
        game.winner = winner
        game._legal = None
        return game

    def clone(self) -> Game:
        """An independent copy (fast: search bots clone in their inner loop)."""
        game = Game.__new__(Game)
        game.players = self.players
        game.variants = self.variants
        game.seed = self.seed
        game.rng = Rng(0)
        game.rng.state = self.rng.state
        game.round = self.round
        game.trick = self.trick
        game.lead = self.lead
        game.hands = [list(hand) for hand in self.hands]
        game.gas = list(self.gas)
        game.speed = list(self.speed)
        game.laps = list(self.laps)
        game.middle = self.middle
        game.removed = self.removed
        game.zero_five = list(self.zero_five)
        game.plays = [
            Play(p.seat, p.kind, p.card, p.gas, p.speed, p.value, p.zero_effect) for p in self.plays
        ]
        game.discards = list(self.discards)
        game.set_aside = list(self.set_aside)
        # Trick records are never mutated after they are made, so sharing them is safe.
        game.round_tricks = list(self.round_tricks)
        game.last_trick = self.last_trick
        game.lap_order = list(self.lap_order)
        game.winner = self.winner
        game._legal = None
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game players={self.players} round={self.round} trick={self.trick} "
            f"current_seat={self.current_seat} winner={self.winner}>"
        )


def _suits_in(mask: int) -> list[Suit]:
    return [suit for suit in SUIT_ORDER if mask & _SUIT_BIT[suit]]


def _face_up_actions(
    playable_mask: int, gas: int, middle_has_gas: bool, any_removed: bool
) -> tuple[Action, ...]:
    """Every face-up play of the suits in ``playable_mask``, each gas amount (R7, R8, R10, R20)."""
    middle, removed = int(middle_has_gas), int(any_removed)
    actions: list[Action] = []
    for suit in _suits_in(playable_mask):
        effects: tuple[ZeroEffect | None, ...] = (None,)
        if suit is Suit.ZERO:
            effects = (ZeroEffect.SPEED, ZeroEffect.GAS) if any_removed else (ZeroEffect.SPEED,)
        for effect in effects:
            supply = supply_after_effect(Action.play(suit, 0, effect), gas, middle, removed)
            actions.extend(_interned(Action.play(suit, g, effect)) for g in range(supply + 1))
    return tuple(actions)


def _tune_up_actions(hand_mask: int) -> tuple[Action, ...]:
    """One Tune Up per distinct suit in hand (R7: always legal)."""
    return tuple(_interned(Action.tune_up(suit)) for suit in _suits_in(hand_mask))


def _zero_five_actions(hand_mask: int, gas: int, removed: int, has_lap: bool) -> tuple[Action, ...]:
    """Every 0/5 play: value, gas after its effect, and the discard (R22)."""
    actions: list[Action] = []
    for value in (0, 5) if has_lap else (0,):
        probe = Action(_ZERO_FIVE, value=value)
        supply = supply_after_effect(probe, gas, 0, removed)
        for discard in _suits_in(hand_mask):
            actions.extend(
                _interned(Action.zero_five(value, g, discard)) for g in range(supply + 1)
            )
    return tuple(actions)


def _check_players(players: Any) -> int:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"A race needs {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    return players


def _seat_list(name: str, values: Sequence[int] | None, players: int, default: int) -> list[int]:
    if values is None:
        return [default] * players
    if len(values) != players or any(type(v) is not int or v < 0 for v in values):
        raise ValueError(f"{name} needs one whole number (0 or more) per seat.")
    return list(values)


def new_game(
    players: int = 4,
    seed: int | None = None,
    variants: Variants | None = None,
    *,
    hands: Sequence[Sequence[Suit | str]] | None = None,
    lead: int | None = None,
    gas: Sequence[int] | None = None,
    middle: int = 0,
    removed: int | None = None,
    speed: Sequence[int] | None = None,
    laps: Sequence[int] | None = None,
    trick: int | None = None,
    round: int = 1,
    zero_five: Sequence[bool] | None = None,
) -> Game:
    """Start a race.

    With only ``players``, ``seed`` and ``variants`` the deal and the first lead (R6)
    come from the seeded generator; a missing seed is drawn once from the OS and kept in
    the state. The keyword arguments set up an explicit position for tests and puzzles:
    ``hands`` (all of equal length; the rest of the deck counts as already discarded),
    ``trick`` (defaults to what the hand size implies), ``gas``/``middle``/``removed``
    (``removed`` defaults to what keeps the total at 5 per player), ``speed``, ``laps``,
    ``zero_five`` (who still has the 0/5 card). Later rounds are dealt from the seed.

    >>> game = new_game(players=4, seed=7)
    >>> [len(hand) for hand in game.hands], sum(game.gas)
    ([6, 6, 6, 6], 20)
    """
    players = _check_players(players)
    variants = variants or Variants()
    if seed is None:
        seed = secrets.randbits(63)
    if type(seed) is not int:
        raise ValueError("The seed must be a whole number.")
    game = Game.__new__(Game)
    game.players, game.variants, game.seed, game.rng = players, variants, seed, Rng(seed)
    game.round = round
    _set_numbers(game, gas, middle, removed, speed, laps)
    game.zero_five = [variants.zero_five] * players if zero_five is None else list(zero_five)
    if len(game.zero_five) != players:
        raise ValueError("zero_five needs one flag per seat.")
    game.plays, game.discards, game.set_aside, game.lap_order = [], [], [], []
    game.round_tricks, game.last_trick, game.winner, game._legal = [], None, None, None
    if lead is not None and (type(lead) is not int or not 0 <= lead < players):
        raise ValueError(f"The lead must be a seat from 0 to {players - 1}.")
    game.lead = game.rng.below(players) if lead is None else lead
    if hands is None:
        if trick is not None:
            raise ValueError("A trick number needs an explicit deal (hands).")
        game.hands = [[] for _ in range(players)]
        game.discards = variants.deck(players)
        game._deal_round()
        game.round = round
        game.speed = _seat_list("speed", speed, players, 0)
        return game
    game.hands, game.discards = _explicit_hands(hands, players, variants)
    game.trick = _explicit_trick(trick, len(game.hands[0]), variants.deal_size)
    return game


def _set_numbers(
    game: Game,
    gas: Sequence[int] | None,
    middle: int,
    removed: int | None,
    speed: Sequence[int] | None,
    laps: Sequence[int] | None,
) -> None:
    """Check and set a new game's gas, speeds and laps (R4, R16)."""
    players = game.players
    game.gas = _seat_list("gas", gas, players, MAX_GAS)
    if any(g > MAX_GAS for g in game.gas):
        raise ValueError(f"Nobody can hold more than {MAX_GAS} gas.")
    game.speed = _seat_list("speed", speed, players, 0)
    game.laps = _seat_list("laps", laps, players, 0)
    if any(n >= LAPS_TO_WIN for n in game.laps):
        raise ValueError(f"A player with {LAPS_TO_WIN} laps has already won.")
    if middle < 0:
        raise ValueError("The middle cannot hold negative gas.")
    game.middle = middle
    if removed is None:
        removed = max(0, MAX_GAS * players - sum(game.gas) - middle)
    if removed < 0:
        raise ValueError("Removed gas cannot be negative.")
    game.removed = removed


def _explicit_trick(trick: int | None, size: int, deal: int) -> int:
    """The trick an explicit deal of ``size`` cards per hand is at (checked, or implied)."""
    if trick is None:
        trick = min(TRICKS_PER_ROUND, max(1, deal + 1 - size))
    if not 1 <= trick <= TRICKS_PER_ROUND:
        raise ValueError(f"The trick number runs from 1 to {TRICKS_PER_ROUND}.")
    if not TRICKS_PER_ROUND + 1 - trick <= size <= deal + 1 - trick:
        raise ValueError(f"At trick {trick} every hand must hold enough cards to finish the round.")
    return trick


def _explicit_hands(
    hands: Sequence[Sequence[Suit | str]], players: int, variants: Variants
) -> tuple[list[list[Suit]], list[Suit]]:
    """Check an explicit deal against the deck; return the hands and the unseen rest."""
    if len(hands) != players:
        raise ValueError("Give one hand per seat.")
    parsed = [[Suit(card) for card in hand] for hand in hands]
    if len({len(hand) for hand in parsed}) != 1 or not parsed[0]:
        raise ValueError("Every hand must hold the same number of cards, at least one.")
    rest = variants.deck(players)
    for hand in parsed:
        for card in hand:
            if card not in rest:
                raise ValueError(f"The deck does not hold that many {card.value} cards.")
            rest.remove(card)
    return parsed, rest
