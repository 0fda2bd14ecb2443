"""The checked game: one race's whole truth, its rules checked and its events told (R5–R22).

:class:`Game` wraps the rules core :class:`~engine.sim.SimState`: every action, from any
source, is checked against the current legal set (a refusal is read off the seat's
options, :mod:`engine.options`), played by the core, and told as public events. Nothing
outside the engine reads the core: a seat's view comes from :meth:`Game.view`, the saved
form from :meth:`Game.to_dict`.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, cast

from engine.actions import Action
from engine.cards import (
    LAPS_TO_WIN,
    MAX_GAS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SUIT_ORDER,
    TRICKS_PER_ROUND,
    Suit,
)
from engine.events import Event, EventKind, make_event
from engine.options import seat_options
from engine.refusals import IllegalAction, Refusal
from engine.seat_view import SeatView, observe, public_trick
from engine.shapes import (
    CardPlayed,
    GasTaken,
    Observation,
    TuneUpShare,
    ZeroEffectChosen,
    ZeroFivePlayed,
)
from engine.sim import (
    ACTION_ID,
    ACTIONS,
    FIELDS_ID,
    FINAL,
    FINAL_STRUCK,
    INFO,
    PLAY,
    SALTY,
    SPEED,
    SUIT_IDS,
    TUNE_UP,
    ZERO,
    PublicTrick,
    SimState,
    legal_ids,
    remember,
)
from engine.variants import Variants

__all__ = ["MAX_DECISIONS", "Game", "new_game"]

MAX_DECISIONS = 5_000
"""A safe bound on the turns of one game, for callers that loop over bot moves: no rule
ends a race nobody wins, but uniformly random play never took more than 210 turns over
9,600 seeded games, so a loop that reaches this bound has met a bug."""

_FORMAT = 1
_CARD_PLAYED, _TUNED_UP = EventKind.CARD_PLAYED, EventKind.TUNED_UP
_GAS_TAKEN, _ZERO_EFFECT = EventKind.GAS_TAKEN, EventKind.ZERO_EFFECT
# Enum members as plain globals: an attribute of an enum class costs more to look up.
_ZERO_FIVE_PLAYED, _CARD_DISCARDED = EventKind.ZERO_FIVE_PLAYED, EventKind.CARD_DISCARDED
_TUNE_UP_SHARE, _TRICK_WON = EventKind.TUNE_UP_SHARE, EventKind.TRICK_WON
_TRICK_ALL_TUNED_UP, _GAS_TO_MIDDLE = EventKind.TRICK_ALL_TUNED_UP, EventKind.GAS_TO_MIDDLE
_SPEED_GAINED, _LAP_GAINED = EventKind.SPEED_GAINED, EventKind.LAP_GAINED
_GAME_WON = EventKind.GAME_WON
_NONE = -1
# Each table action's id by the object's id (the table keeps them alive): an action just
# listed by legal_actions() is found without hashing it.
_ID_OF_OBJECT: dict[int, int] = {id(action): i for i, action in enumerate(ACTIONS)}
_Turn = tuple[tuple[int, ...], tuple[Action, ...]]
# A legal set's ids and their Action objects, by SimState.legal_key.
_LISTED: dict[int, _Turn] = {}
_NO_TURN: _Turn = ((), ())
_PublicRound = tuple[tuple[PublicTrick, ...], PublicTrick | None]


def _table_id(action: object) -> int:
    """The table id of an action equal to one in :data:`engine.sim.ACTIONS`, else -1."""
    if type(action) is Action:  # the fields compared as Action's own __eq__ compares them
        a = action
        aid = FIELDS_ID.get((a.type, a.suit, a.gas, a.zero_effect, a.value, a.discard), _NONE)
    elif isinstance(action, Action):
        aid = ACTION_ID.get(action, _NONE)
    else:
        return _NONE
    # Equal is not enough: True == 1 and hashes alike, but gas is a whole number.
    value = action.value
    if aid < 0 or type(action.gas) is not int or (value is not None and type(value) is not int):
        return _NONE
    return aid


class Game:
    """One race from the deal to the second lap (OpenSpiel-style: ``current_seat``,
    ``legal_actions``, ``apply``, ``observation``); only :meth:`apply` changes it.

    >>> game = new_game(players=3, seed=1)
    >>> while not game.is_over:
    ...     _ = game.apply(game.legal_actions()[0])
    >>> game.winner is not None and game.laps[game.winner] == 2
    True
    """

    __slots__ = ("_legal", "_listed", "_round", "_sizes", "core")

    #: The state and rules (hidden cards included). Only this module changes it.
    core: SimState
    # The current seat's legal ids and their actions, once asked for (None after each move).
    _legal: tuple[int, ...] | None
    _listed: tuple[Action, ...] | None
    # Each seat's hand size once a view asked for it, kept up to date move by move (every
    # play takes one card from the hand) until a deal refills the hands.
    _sizes: list[int] | None
    # (the core's trick list, its length, its latest trick, their public forms).
    _round: tuple[list[Any], int, object, _PublicRound] | None

    @classmethod
    def over(cls, core: SimState) -> Game:
        """The checked game over ``core`` (which it then owns: the caller lets go of it)."""
        game = Game.__new__(Game)
        game.core = core
        game._legal = game._listed = game._round = game._sizes = None
        return game

    @property
    def players(self) -> int:
        return self.core.players

    @property
    def gas(self) -> list[int]:
        """Each seat's supply (the core's list: read it, do not change it)."""
        return self.core.gas

    @property
    def laps(self) -> list[int]:
        return self.core.laps

    @property
    def winner(self) -> int | None:
        winner = self.core.winner
        return None if winner < 0 else winner

    @property
    def hands(self) -> list[list[Suit]]:
        """Every hand (fresh copies)."""
        return [self.hand(seat) for seat in range(self.core.players)]

    def hand(self, seat: int) -> list[Suit]:
        """``seat``'s hand (a fresh copy), in ``SUIT_ORDER`` order."""
        counts = self.core.hands[seat]
        return [SUIT_ORDER[i] for i, n in enumerate(counts) for _ in range(n)]

    @property
    def set_aside(self) -> list[Suit]:
        """The cards put aside unseen this round (R18)."""
        return [SUIT_ORDER[i] for i in self.core.set_aside]

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or ``None`` once the game is over."""
        core = self.core
        return None if core.winner >= 0 else core.turn

    @property
    def is_over(self) -> bool:
        """Whether someone has won (R16)."""
        return self.core.winner >= 0

    def _turn(self) -> _Turn:
        """The current seat's legal ids and actions (none once the race is over)."""
        core = self.core
        key = core.legal_key()
        turn = _NO_TURN if core.winner >= 0 else _LISTED.get(key)
        if turn is None:
            ids = legal_ids(key)
            turn = remember(_LISTED, key, (ids, tuple([ACTIONS[i] for i in ids])))
        self._legal, self._listed = turn
        return turn

    def legal_actions(self) -> list[Action]:
        """Every distinct legal turn for the current seat, each gas amount its own action."""
        listed = self._listed
        return list(self._turn()[1] if listed is None else listed)

    def legal_id(self, action: object) -> int:
        """The table id (:data:`engine.sim.ACTIONS`) of ``action`` if the current seat may
        play it now, else -1."""
        aid = _ID_OF_OBJECT.get(id(action), _NONE)
        if aid < 0 or ACTIONS[aid] is not action:
            aid = _table_id(action)
        ids = self._legal
        return aid if aid in (self._turn()[0] if ids is None else ids) else _NONE

    def why_illegal(self, action: object, seat: object = None) -> Refusal | None:
        """Why ``action`` (claimed by ``seat``, when given) is illegal now, or ``None``:
        :meth:`engine.options.SeatOptions.why_not` of the seat's view. Typed ``object`` so
        that the mypyc build refuses a non-action with a refusal, not a ``TypeError``."""
        return seat_options(self.view(self.current_seat)).why_not(action, seat)

    def apply(self, action: object, seat: object = None) -> list[Event]:
        """Play ``action`` for the current seat and return what happened.

        Raises :class:`IllegalAction` (with the :class:`Refusal` saying why) and leaves the
        game exactly as it was if the action is not legal now, or not an action at all.
        """
        if seat is None or seat == self.core.turn:
            aid = self.legal_id(action)
            if aid >= 0:
                return self._play(aid)
        reason = self.why_illegal(action, seat)
        raise IllegalAction(reason or Refusal.of("not_legal"))

    def _play(self, aid: int) -> list[Event]:
        """Play legal action id ``aid`` through the core and tell what happened."""
        core = self.core
        self._legal = self._listed = None
        me = core.turn
        kind, suit, gas, value, effect = INFO[aid]
        before = core.gas[me]
        middle = core.middle
        full = core.put(aid)
        sizes = self._sizes
        if sizes is not None:
            sizes[me] -= 1
        speed = core.speed[me]
        # R9: the core has put the card, so a 1 just played counts as well.
        final = (FINAL_STRUCK if core.lichen else FINAL)[aid] + speed
        if kind == TUNE_UP:
            events = [make_event(_TUNED_UP, me, {})]
        elif kind == PLAY:
            data: CardPlayed = {
                "suit": SUIT_IDS[suit],
                "value": value,
                "gas": gas,
                "speed": speed,
                "final": final,
            }
            events = [make_event(_CARD_PLAYED, me, data)]
            if suit == SALTY and middle:  # R10
                kept = before < MAX_GAS
                taken: GasTaken = {"amount": int(kept), "removed": int(not kept)}
                events.append(make_event(_GAS_TAKEN, me, taken))
            elif suit == ZERO:  # R20
                told: ZeroEffectChosen
                if effect == SPEED:
                    told = {"choice": "speed", "gained": 1, "removed": 0}
                else:
                    gained = core.gas[me] + gas - before
                    told = {"choice": "gas", "gained": gained, "removed": 1 - gained}
                events.append(make_event(_ZERO_EFFECT, me, told))
        else:  # R22
            played: ZeroFivePlayed = {
                "value": value,
                "gas": gas,
                "speed": speed,
                "final": final,
                "gained": core.gas[me] + gas - before,
            }
            events = [
                make_event(_ZERO_FIVE_PLAYED, me, played),
                make_event(_CARD_DISCARDED, me, {}),
            ]
        if full:
            self._resolve(events)
        return events

    def _resolve(self, events: list[Event]) -> None:
        """R11–R17 through the core, told in the order docs/rules.md gives."""
        core = self.core
        middle, removed, trick = core.middle, core.removed, core.trick
        shared = core.tuners > 0 and middle > 0  # R11: the core shares the middle
        tuners = [seat for seat, a, _ in core.plays if FINAL[a] < 0] if shared else []
        before = [core.gas[seat] for seat in tuners]
        best = core.resolve()
        if shared:
            gained = [core.gas[seat] - had for seat, had in zip(tuners, before, strict=True)]
            share: TuneUpShare = {
                "seats": tuners,
                "each": middle // len(tuners),
                "gained": gained,
                "removed": core.removed - removed,
                "middle_before": middle,
            }
            events.append(make_event(_TUNE_UP_SHARE, None, share))
        # The core's record of the trick it just finished: (trick, lead, plays, winner, lichen).
        winner: int = cast(Any, core.last)[3]
        if winner < 0:  # R13
            events.append(make_event(_TRICK_ALL_TUNED_UP, None, {"trick": trick}))
        else:
            events.append(make_event(_TRICK_WON, winner, {"trick": trick, "final": best}))
        # R14: what the trick spent is what the middle gained (after any share emptied it).
        spent = core.middle - (0 if shared else middle)
        events.append(make_event(_GAS_TO_MIDDLE, None, {"amount": spent, "middle": core.middle}))
        if winner >= 0 and trick < TRICKS_PER_ROUND:  # R15
            events.append(make_event(_SPEED_GAINED, winner, {"speed": core.speed[winner]}))
            return
        if winner >= 0:
            laps = core.laps[winner]
            events.append(make_event(_LAP_GAINED, winner, {"laps": laps}))
            if core.winner >= 0:  # R16
                events.append(make_event(_GAME_WON, winner, {"laps": laps}))
                return
        if trick == TRICKS_PER_ROUND:  # R17: the core dealt the next round
            self._sizes = None
            events.append(self.deal_event())

    def deal_event(self) -> Event:
        """The ``round_dealt`` event of the round in progress, as :meth:`apply` reports a
        later deal: a caller narrating a whole race starts with this.

        >>> game = new_game(players=3, seed=2, lead=1)
        >>> game.deal_event().to_dict()
        {'kind': 'round_dealt', 'seat': None, 'round': 1, 'lead': 1, 'hand_size': 6}
        >>> _ = game.apply(game.legal_actions()[0])
        >>> game.deal_event() == new_game(players=3, seed=2, lead=1).deal_event()
        True
        """
        core = self.core
        first_lead = core.tricks[0][1] if core.tricks else core.lead
        # Every seat plays one card from its hand per trick (a Tune Up, a face-up card or
        # the 0/5 card's discard), so seat 0 held this many when the round was dealt.
        played = core.trick - 1 + any(p[0] == 0 for p in core.plays)
        return make_event(
            EventKind.ROUND_DEALT,
            None,
            {"round": core.round, "lead": first_lead, "hand_size": sum(core.hands[0]) + played},
        )

    def observation(self, seat: int) -> Observation:
        """Everything ``seat`` may know, JSON-ready (see :func:`engine.seat_view.observe`)."""
        return observe(self, seat)

    def view(self, seat: int | None) -> SeatView:
        """Everything ``seat`` may know (a spectator's part when None), as immutable data
        (:class:`engine.seat_view.SeatView`)."""
        core = self.core
        legal = self._legal
        if legal is None and seat is not None and seat == core.turn:
            legal = self._turn()[0]
        sizes = self._sizes
        if sizes is None:
            sizes = self._sizes = list(map(sum, core.hands))
        return SeatView.of(core, seat, legal, self._public_round(), tuple(sizes))

    def _public_round(self) -> _PublicRound:
        """The public forms of this round's finished tricks and of the latest trick, made
        again only when a trick ends (a round's trick list grows until a deal replaces it)."""
        core = self.core
        tricks, last = core.tricks, core.last
        seen = self._round
        if seen is not None and seen[0] is tricks and seen[1] == len(tricks) and seen[2] is last:
            return seen[3]
        public = tuple(map(public_trick, tricks))
        latest = public[-1] if tricks and tricks[-1] is last else last and public_trick(last)
        pair = (public, latest)
        self._round = (tricks, len(tricks), last, pair)
        return pair

    def to_dict(self) -> dict[str, Any]:
        """The complete state, secrets included, as JSON-ready data. Server-side only."""
        return self.core.to_dict()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """Restore a game saved by :meth:`to_dict`; it continues exactly as the original."""
        if data.get("format") != _FORMAT:
            raise ValueError("Unknown saved-game format.")
        _check_players(data.get("players"))
        return cls.over(SimState.from_dict(data))

    def clone(self) -> Game:
        """An independent copy (fast: search bots clone in their inner loop)."""
        return Game.over(self.core.clone())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game players={self.players} round={self.core.round} trick={self.core.trick} "
            f"current_seat={self.current_seat} winner={self.winner}>"
        )


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
    """Start a race: the deal and the first lead (R6) from the seeded generator (a missing
    seed is drawn once from the OS). The keyword arguments set up an explicit position:
    ``hands`` (of equal length; the rest of the deck counts as discarded), ``trick``
    (implied by the hand size), ``removed`` (keeps the total at 5 gas per player).

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
    supplies = _seat_list("gas", gas, players, MAX_GAS)  # R4
    if any(g > MAX_GAS for g in supplies):
        raise ValueError(f"Nobody can hold more than {MAX_GAS} gas.")
    speeds = _seat_list("speed", speed, players, 0)
    laps_ = _seat_list("laps", laps, players, 0)
    if any(n >= LAPS_TO_WIN for n in laps_):  # R16
        raise ValueError(f"A player with {LAPS_TO_WIN} laps has already won.")
    if middle < 0:
        raise ValueError("The middle cannot hold negative gas.")
    if removed is None:
        removed = max(0, MAX_GAS * players - sum(supplies) - middle)
    if removed < 0:
        raise ValueError("Removed gas cannot be negative.")
    flags = [variants.zero_five] * players if zero_five is None else list(zero_five)
    if len(flags) != players:
        raise ValueError("zero_five needs one flag per seat.")
    if lead is not None and (type(lead) is not int or not 0 <= lead < players):
        raise ValueError(f"The lead must be a seat from 0 to {players - 1}.")
    if hands is None and trick is not None:
        raise ValueError("A trick number needs an explicit deal (hands).")
    dealt = () if hands is None else _explicit_hands(hands, players)
    core = SimState.new(players, seed, variants, lead, dealt)
    if dealt:
        core.trick = _explicit_trick(trick, len(dealt[0]), variants.deal_size)
    core.round, core.speed, core.zero_five = round, speeds, flags
    core.gas, core.laps, core.middle, core.removed = supplies, laps_, middle, removed
    return Game.over(core)


def _explicit_trick(trick: int | None, size: int, deal: int) -> int:
    """The trick an explicit deal of ``size`` cards per hand is at (checked, or implied)."""
    if trick is None:
        trick = min(TRICKS_PER_ROUND, max(1, deal + 1 - size))
    if not 1 <= trick <= TRICKS_PER_ROUND:
        raise ValueError(f"The trick number runs from 1 to {TRICKS_PER_ROUND}.")
    if not TRICKS_PER_ROUND + 1 - trick <= size <= deal + 1 - trick:
        raise ValueError(f"At trick {trick} every hand must hold enough cards to finish the round.")
    return trick


def _explicit_hands(hands: Sequence[Sequence[Suit | str]], players: int) -> list[list[Suit]]:
    """The hands of an explicit deal, one per seat, all of one size (the deck checks the
    cards: :meth:`engine.sim.SimState.new`)."""
    if len(hands) != players:
        raise ValueError("Give one hand per seat.")
    parsed = [[Suit(card) for card in hand] for hand in hands]
    if len({len(hand) for hand in parsed}) != 1 or not parsed[0]:
        raise ValueError("Every hand must hold the same number of cards, at least one.")
    return parsed
