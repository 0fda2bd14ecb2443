"""The rules core: the one implementation of the rules (R5–R22), on compact state.

:class:`SimState` trusts its caller: actions are ids into the fixed table :data:`ACTIONS`,
taken from :meth:`SimState.legal` and never re-checked; hands are per-suit counts (a hand
is a set of cards), the discards keep their order (later deals depend on it); nothing is
narrated. The bots' rollouts drive it directly; :class:`~engine.game.Game` wraps one.

>>> from engine.game import new_game
>>> game = new_game(players=4, seed=11)
>>> sim = SimState.new(4, 11)
>>> while sim.winner < 0:
...     _ = sim.apply(sim.legal()[0])
>>> while game.winner is None:
...     _ = game.apply(game.legal_actions()[0])
>>> sim.winner == game.winner, sim.to_dict() == game.to_dict()
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar, cast

from engine.actions import Action, ActionType, ActionTypeId, supply_after_effect
from engine.cards import (
    LAPS_TO_WIN,
    MAX_GAS,
    SUIT_ORDER,
    SUIT_VALUE,
    TRICKS_PER_ROUND,
    Suit,
    SuitId,
    ZeroEffect,
    ZeroEffectId,
    effective_value,
)
from engine.rng import Rng
from engine.shapes import DeckView, PublicPlay, TrickRecord
from engine.variants import Variants, VariantsData

# Kinds of action, and the zero card's effects, as small integers (their ids' positions).
PLAY, TUNE_UP, ZERO_FIVE = 0, 1, 2
NO_EFFECT, SPEED, GAS = 0, 1, 2

#: The JSON ids of the kinds of action, the 0 card's effects and the suits, by their codes.
KIND_IDS = cast("tuple[ActionTypeId, ...]", tuple(kind.value for kind in ActionType))
EFFECT_IDS: tuple[ZeroEffectId | None, ...] = (None, "speed", "gas")
SUIT_IDS = cast("tuple[SuitId, ...]", tuple(suit.value for suit in SUIT_ORDER))

#: Suit index: position in :data:`engine.cards.SUIT_ORDER` (the 0 first), by suit or by
#: its id (a ``StrEnum`` member hashes and compares as its id).
SUIT_INDEX: dict[str, int] = {suit: i for i, suit in enumerate(SUIT_ORDER)}
ZERO, LICHEN, SALTY = SUIT_INDEX[Suit.ZERO], SUIT_INDEX[Suit.LICHEN], SUIT_INDEX[Suit.SALTY]
SUITS = len(SUIT_ORDER)
#: Printed value per suit index.
VALUE: tuple[int, ...] = tuple(SUIT_VALUE[suit] for suit in SUIT_ORDER)


def _all_actions() -> tuple[Action, ...]:
    """Every distinct action of any game, in a fixed order (the action ids): the face-up
    plays by suit, 0 card reward and gas, the Tune Ups by suit, the 0/5 plays by value,
    discard and gas. A legal set lists its actions in this order."""
    gas = range(MAX_GAS + 1)
    rewards = {Suit.ZERO: (ZeroEffect.SPEED, ZeroEffect.GAS)}
    return (
        *(Action.play(s, g, e) for s in SUIT_ORDER for e in rewards.get(s, (None,)) for g in gas),
        *(Action.tune_up(s) for s in SUIT_ORDER),
        *(Action.zero_five(v, g, d) for v in (0, 5) for d in SUIT_ORDER for g in gas),
    )


#: The fixed action table: an action id is an index into it.
ACTIONS: tuple[Action, ...] = _all_actions()
#: The id of each action.
ACTION_ID: dict[Action, int] = {action: i for i, action in enumerate(ACTIONS)}
#: The id of each action by its fields in :class:`~engine.actions.ActionDict` order, as
#: enum members or as their JSON ids (a ``StrEnum`` member hashes and compares as its id):
#: an action found without its own ``__hash__`` and ``__eq__``, or from its JSON form.
FIELDS_ID: dict[tuple[object, ...], int] = {
    (a.type, a.suit, a.gas, a.zero_effect, a.value, a.discard): i for i, a in enumerate(ACTIONS)
}


def _info(action: Action) -> tuple[int, int, int, int, int]:
    """(kind, suit index, gas, value, zero effect) of one action: ``suit`` is the card
    played, laid face down or (for the 0/5 card) discarded; ``value`` is the printed
    value, the 0/5 card's chosen value, or -1 for a Tune Up."""
    card = action.discard if action.type is ActionType.ZERO_FIVE else action.suit
    assert card is not None
    if action.type is ActionType.TUNE_UP:
        value = -1
    elif action.type is ActionType.ZERO_FIVE:
        value = action.value or 0
    else:
        value = SUIT_VALUE[card]
    kind, effect = KIND_IDS.index(action.type), EFFECT_IDS.index(action.zero_effect)
    return (kind, SUIT_INDEX[card], action.gas, value, effect)


#: Per action id: (kind, suit index, gas, value, zero effect), see :func:`_info`.
INFO: tuple[tuple[int, int, int, int, int], ...] = tuple(_info(a) for a in ACTIONS)
#: Per action id: its printed (or chosen) value plus its gas, -1 for a Tune Up, which has
#: no number (R8), and the same under a 1 (R9). Trick resolution adds only the speed.
FINAL: tuple[int, ...] = tuple(-1 if v < 0 else v + g for _, _, g, v, _ in INFO)
FINAL_STRUCK: tuple[int, ...] = tuple(
    -1 if v < 0 else effective_value(v, True) + g for _, _, g, v, _ in INFO
)
#: Per action id: the gas spent on it (R8), which goes to the middle when the trick ends (R14).
SPENT: tuple[int, ...] = tuple(g for _, _, g, _, _ in INFO)
#: Per action id: the card that goes to the discards when the trick ends (-1: none, as the
#: 0/5 card leaves the game and its discard is made at once, R22).
TRICK_CARD: tuple[int, ...] = tuple(-1 if k == ZERO_FIVE else c for k, c, _, _, _ in INFO)

CACHE_LIMIT = 65_536
"""The most entries :func:`legal_ids` (and the rollout policy's per-key tables) keep:
above the 40,600 keys seeded random play reaches over every variant set (of about 157,000
possible), so a cache never thrashes. A full cache is emptied, not an LRU, so that a hit
stays one dict lookup."""

_K = TypeVar("_K")
_V = TypeVar("_V")


def remember(cache: dict[_K, _V], key: _K, value: _V, limit: int = CACHE_LIMIT) -> _V:
    """Put ``value`` in ``cache`` under ``key`` and return it; a cache already holding
    ``limit`` entries is emptied first, so it never holds more.

    >>> cache = {1: "a", 2: "b"}
    >>> remember(cache, 3, "c", limit=2), cache
    ('c', {3: 'c'})
    """
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


#: ``variants``, the cards of each suit (by index) in their deck for a number of seats, and
#: the JSON forms of both a view holds.
Deck = tuple[Variants, list[int], VariantsData, DeckView]
# Keyed by the variants' id (hashing the dataclass costs more than the lookup), the
# variants kept alive in the entry so that the id cannot be reused.
_DECKS: dict[int, Deck] = {}


def deck_facts(players: int, variants: Variants) -> Deck:
    """The :data:`Deck` of ``players`` seats with ``variants`` (shared: not to be changed).

    >>> deck_facts(3, Variants())[1][SUIT_INDEX[Suit.SALTY]], deck_facts(3, Variants())[3]["size"]
    (3, 18)
    """
    key = id(variants) << 3 | players
    entry = _DECKS.get(key)
    if entry is None or entry[0] is not variants:
        cards = variants.deck(players)
        copies, by_id = [0] * SUITS, dict.fromkeys(cards, 0)
        for card in cards:
            copies[SUIT_INDEX[card]] += 1
            by_id[card] += 1
        told: DeckView = {"size": len(cards), "copies": {s.value: n for s, n in by_id.items()}}
        entry = remember(_DECKS, key, (variants, copies, variants.to_dict(), told), 4096)
    return entry


#: The cache behind :func:`legal_ids`, for hot loops to read without a call.
LEGAL_CACHE: dict[int, tuple[int, ...]] = {}
#: A finished trick: (trick, lead, its (seat, action id, speed) plays, winner or -1, a 1
#: face up in it).
CoreTrick = tuple[int, int, Sequence[tuple[int, int, int]], int, bool]
#: A finished trick as every seat sees it: its plays' action ids :data:`MASKED`, a Tune
#: Up's speed 0 (:data:`engine.seat_view.PublicCard`).
PublicTrick = tuple[int, int, tuple[tuple[int, int, int], ...], int, bool]


# The three parts of a legal set, each cached by the few facts it depends on (at most
# 128 x 8 x 4 keys each, so no eviction): a set missing from LEGAL_CACHE is three lookups.
_FACE_UP_IDS: dict[int, tuple[int, ...]] = {}
_TUNE_UP_IDS: dict[int, tuple[int, ...]] = {}
_ZERO_FIVE_IDS: dict[int, tuple[int, ...]] = {}


def face_up_ids(suits: int, gas: int, middle_has_gas: bool, any_removed: bool) -> tuple[int, ...]:
    """The ids of every face-up play of the suits in the bit set ``suits``, each gas
    amount, for a seat holding ``gas`` (R7, R8, R10, R20)."""
    key = suits | gas << 7 | int(middle_has_gas) << 10 | int(any_removed) << 11
    up = _FACE_UP_IDS.get(key)
    if up is None:
        middle, removed = int(middle_has_gas), int(any_removed)
        up = _FACE_UP_IDS[key] = tuple(
            i
            for i, (kind, suit, g, _, effect) in enumerate(INFO)
            if kind == PLAY and suits >> suit & 1 and (effect != GAS or any_removed)
            if g <= supply_after_effect(ACTIONS[i], gas, middle, removed)
        )
    return up


def legal_ids(key: int) -> tuple[int, ...]:
    """The action ids for a legal-set key (:meth:`SimState.legal_key`), in the order
    :meth:`Game.legal_actions` lists them (cached, at most :data:`CACHE_LIMIT` keys)."""
    ids = LEGAL_CACHE.get(key)
    if ids is not None:
        return ids
    playable, hand, gas = key & 127, (key >> 7) & 127, (key >> 14) & 7
    up = face_up_ids(playable, gas, bool(key >> 17 & 1), bool(key >> 18 & 1))
    down = _TUNE_UP_IDS.get(hand)
    if down is None:
        down = _TUNE_UP_IDS[hand] = tuple(
            i for i, (kind, suit, *_) in enumerate(INFO) if kind == TUNE_UP and hand >> suit & 1
        )
    zf = key >> 19
    if not zf:
        return remember(LEGAL_CACHE, key, up + down, CACHE_LIMIT)
    zf_key = hand | gas << 7 | zf << 10
    five = _ZERO_FIVE_IDS.get(zf_key)
    if five is None:  # zf: 1 + (more than one gas removed) + 2 * (the seat has a lap)
        removed, lapped = 1 + (zf - 1) % 2, zf > 2
        five = _ZERO_FIVE_IDS[zf_key] = tuple(
            i
            for i, (kind, suit, g, value, _) in enumerate(INFO)
            if kind == ZERO_FIVE and hand >> suit & 1 and (value == 0 or lapped)
            if g <= supply_after_effect(ACTIONS[i], gas, 0, removed)
        )
    return remember(LEGAL_CACHE, key, up + down + five, CACHE_LIMIT)


class SimState:
    """A whole game, hidden cards included. Suits are indices into ``SUIT_ORDER``:
    ``hands[seat][suit]`` is a count, ``masks[seat]`` the bit set of suits held; ``plays``
    is the current trick as ``(seat, action id, speed)``; ``winner`` is -1 until someone wins.
    """

    players: int
    variants: Variants
    seed: int
    deal_size: int
    zf_variant: bool
    rng: Rng
    round: int
    trick: int
    lead: int
    turn: int
    hands: list[list[int]]
    masks: list[int]
    gas: list[int]
    speed: list[int]
    laps: list[int]
    middle: int
    removed: int
    zero_five: list[bool]
    plays: list[tuple[int, int, int]]
    blocked: int
    lichen: bool
    zf_in: bool
    tuners: int
    discards: list[int]
    set_aside: list[int]
    face_up: list[int]
    tricks: list[CoreTrick]
    last: CoreTrick | None
    lap_order: list[int]
    winner: int
    # The slots are the attributes annotated above.
    __slots__ = tuple(__annotations__)

    def __init__(self, players: int, variants: Variants, seed: int, rng_state: int) -> None:
        """The fixed facts; :meth:`blank`, :meth:`from_dict` or :meth:`clone` set the rest."""
        self.players = players
        self.variants = variants
        self.seed = seed
        self.deal_size = variants.deal_size
        self.zf_variant = variants.zero_five
        self.rng = Rng(0)
        self.rng.state = rng_state

    @classmethod
    def new(
        cls,
        players: int,
        seed: int,
        variants: Variants | None = None,
        lead: int | None = None,
        hands: Sequence[Sequence[Suit]] = (),
    ) -> SimState:
        """The position :func:`~engine.game.new_game` deals for ``players``, ``seed`` and
        ``variants``: the first lead drawn from the seeded generator unless given (R6),
        then the first deal (R5), or ``hands`` as dealt (the rest of the deck discarded).

        >>> from engine.game import new_game
        >>> SimState.new(5, 3).to_dict() == new_game(players=5, seed=3).to_dict()
        True
        """
        variants = variants or Variants()
        rng = Rng(seed)
        first = rng.below(players) if lead is None else lead
        rest = variants.deck(players)  # in its fixed order, before the first deal
        for card in (card for hand in hands for card in hand):
            if card not in rest:
                raise ValueError(f"The deck does not hold that many {card.value} cards.")
            rest.remove(card)
        s = cls.blank(players, variants, seed, rng.state)
        s.round, s.lead, s.turn = 1 if hands else 0, first, first
        s.set_hands([[hand.count(suit) for suit in SUIT_ORDER] for hand in hands] or s.hands)
        s.discards = [SUIT_INDEX[card] for card in rest]
        if not hands:
            s.deal()
        return s

    @classmethod
    def blank(cls, players: int, variants: Variants, seed: int = 0, rng_state: int = 0) -> SimState:
        """A race before its first deal: no cards anywhere, every tank full, seat 0 to lead."""
        s = cls(players, variants, seed, rng_state)
        s.round, s.trick, s.lead, s.turn = 0, 1, 0, 0
        s.hands, s.masks = [[0] * SUITS for _ in range(players)], [0] * players
        s.gas, s.speed, s.laps = [MAX_GAS] * players, [0] * players, [0] * players
        s.middle = s.removed = 0
        s.zero_five = [variants.zero_five] * players
        s.face_up = [0] * SUITS
        s.lay([])
        s.discards, s.set_aside, s.tricks, s.last, s.lap_order = [], [], [], None, []
        s.winner = -1
        return s

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SimState:
        """Inverse of :meth:`to_dict` (``ValueError`` for a card that is not a suit)."""
        players = data["players"]
        rng_state = int(data["rng"])
        s = cls(players, Variants.from_dict(data["variants"]), int(data["seed"]), rng_state)
        s.round, s.trick, s.lead = int(data["round"]), int(data["trick"]), int(data["lead"])
        suit = SUIT_INDEX
        try:
            hands = [[0] * SUITS for _ in data["hands"]]
            for hand, cards in zip(hands, data["hands"], strict=True):
                for card in cards:
                    hand[suit[card]] += 1
            s.discards = [suit[card] for card in data["discards"]]
            s.set_aside = [suit[card] for card in data["set_aside"]]
            plays = [(int(p["seat"]), _saved_play_id(p), int(p["speed"])) for p in data["plays"]]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"A saved game names a card that is not a suit: {exc}.") from None
        s.set_hands(hands)
        s.gas = [int(g) for g in data["gas"]]
        s.speed = [int(n) for n in data["speed"]]
        s.laps = [int(n) for n in data["laps"]]
        s.middle, s.removed = int(data["middle"]), int(data["removed"])
        s.zero_five = [bool(z) for z in data["zero_five"]]
        s.tricks = [core_trick(record) for record in data["round_tricks"]]
        s.face_up = face_up_counts(s.tricks, plays)
        s.lay(plays)
        last = data["last_trick"]
        s.last = None if last is None else core_trick(last)
        s.lap_order = [int(seat) for seat in data["lap_order"]]
        winner = data["winner"]
        s.winner = -1 if winner is None else winner
        s.turn = (s.lead + len(s.plays)) % s.players
        return s

    def set_hands(self, hands: list[list[int]]) -> None:
        """Give each seat its hand, counted per suit index."""
        self.hands = hands
        self.masks = [sum(1 << i for i, n in enumerate(hand) if n) for hand in hands]

    def lay(self, plays: list[tuple[int, int, int]]) -> None:
        """Make ``plays`` (seat, action id, speed) the current trick, their effects, gas
        and :attr:`face_up` counts already made."""
        self.plays, self.blocked, self.lichen, self.zf_in, self.tuners = plays, 0, False, False, 0
        for _, a, _ in plays:
            kind, suit = INFO[a][0], INFO[a][1]
            if kind == PLAY:
                self.blocked |= 1 << suit
                self.lichen = self.lichen or suit == LICHEN
            elif kind == TUNE_UP:
                self.tuners += 1
            else:
                self.zf_in = True

    def to_dict(self) -> dict[str, Any]:
        """The state in :meth:`Game.to_dict`'s format (hands in ``SUIT_ORDER`` order)."""
        suits = SUIT_ORDER
        return {
            "format": 1,
            "players": self.players,
            "variants": self.variants.to_dict(),
            "seed": self.seed,
            "rng": self.rng.state,
            "round": self.round,
            "trick": self.trick,
            "lead": self.lead,
            "hands": [
                [suits[i].value for i in range(SUITS) for _ in range(h[i])] for h in self.hands
            ],
            "gas": list(self.gas),
            "speed": list(self.speed),
            "laps": list(self.laps),
            "middle": self.middle,
            "removed": self.removed,
            "zero_five": list(self.zero_five),
            "plays": [_saved_play(*play) for play in self.plays],
            "discards": [suits[i].value for i in self.discards],
            "set_aside": [suits[i].value for i in self.set_aside],
            "round_tricks": [trick_record(r) for r in self.tricks],
            "last_trick": None if self.last is None else trick_record(self.last),
            "lap_order": list(self.lap_order),
            "winner": None if self.winner < 0 else self.winner,
        }

    def clone(self) -> SimState:
        """An independent copy."""
        s = SimState(self.players, self.variants, self.seed, self.rng.state)
        s.round, s.trick, s.lead, s.turn = self.round, self.trick, self.lead, self.turn
        s.hands = [list(h) for h in self.hands]
        s.masks = list(self.masks)
        s.gas, s.speed, s.laps = list(self.gas), list(self.speed), list(self.laps)
        s.middle, s.removed = self.middle, self.removed
        s.zero_five = list(self.zero_five)
        s.plays = list(self.plays)
        s.blocked, s.lichen, s.zf_in = self.blocked, self.lichen, self.zf_in
        s.tuners = self.tuners
        s.discards, s.set_aside = list(self.discards), list(self.set_aside)
        s.face_up = list(self.face_up)
        s.tricks, s.last = list(self.tricks), self.last
        s.lap_order = list(self.lap_order)
        s.winner = self.winner
        return s

    def legal_key(self) -> int:
        """The facts the current seat's legal set depends on, packed in one integer (R7,
        R8, R10, R20, R22)."""
        seat = self.turn
        hand = self.masks[seat]
        gas = self.gas[seat]
        removed = self.removed
        key = (hand & ~self.blocked) | hand << 7 | gas << 14
        if self.middle:
            key |= 1 << 17
        if removed:
            key |= 1 << 18
            if self.zf_variant and self.zero_five[seat] and gas < MAX_GAS and not self.zf_in:
                key |= (1 + (removed > 1) + 2 * (self.laps[seat] > 0)) << 19
        return key

    def legal(self) -> tuple[int, ...]:
        """The current seat's legal action ids, in :meth:`Game.legal_actions` order."""
        key = self.legal_key()
        ids = LEGAL_CACHE.get(key)
        return legal_ids(key) if ids is None else ids

    def apply(self, action: int) -> int:
        """Play action id ``action`` (which must be legal) for the current seat; return
        the winner so far (-1 while the race goes on)."""
        if self.put(action):
            self.resolve()
        return self.winner

    def play_out(self, action: int) -> bool:
        """:meth:`apply`, but the round's last trick deals no next round (the state keeps
        the round's result and is not to be played on). Returns whether the round goes on."""
        if self.put(action):
            last = self.trick == TRICKS_PER_ROUND
            self.resolve(not last)
            return not last and self.winner < 0
        return True

    def put(self, action: int) -> bool:
        """The first half of :meth:`apply`: play legal action id ``action`` into the trick,
        its effect and gas included (R7–R10, R20, R22). Returns whether the trick is
        complete, in which case :meth:`resolve` must follow."""
        seat = self.turn
        kind, suit, gas, value, effect = INFO[action]
        hand = self.hands[seat]
        left = hand[suit] - 1  # the card played, laid down, or discarded by the 0/5 card
        hand[suit] = left
        if not left:
            self.masks[seat] ^= 1 << suit
        if kind == PLAY:
            if suit == SALTY:  # R10
                if self.middle:
                    self.middle -= 1
                    if self.gas[seat] < MAX_GAS:
                        self.gas[seat] += 1
                    else:
                        self.removed += 1
            elif suit == LICHEN:
                self.lichen = True
            elif suit == ZERO:  # R20
                if effect == SPEED:
                    self.speed[seat] += 1
                else:
                    self._gain_removed(seat, 1)
            if gas:
                self.gas[seat] -= gas
            self.blocked |= 1 << suit
            self.face_up[suit] += 1
        elif kind == TUNE_UP:
            self.tuners += 1
        else:  # R22: effect, gas; the discard is face down at once
            self.zero_five[seat] = False
            self.zf_in = True
            self._gain_removed(seat, 2 if value == 0 else 1)
            self.gas[seat] -= gas
            self.discards.append(suit)
        plays = self.plays
        plays.append((seat, action, self.speed[seat]))
        if len(plays) == self.players:
            return True
        seat += 1
        self.turn = 0 if seat == self.players else seat
        return False

    def _gain_removed(self, seat: int, wanted: int) -> None:
        """Give ``seat`` up to ``wanted`` removed gas; overflow past 5 stays removed."""
        gained = min(wanted, self.removed, MAX_GAS - self.gas[seat])
        self.removed -= gained
        self.gas[seat] += gained

    def _share(self) -> None:
        """R11: the Tune-Up share of the middle."""
        pot = self.middle
        each, lost = divmod(pot, self.tuners)
        gas = self.gas
        for seat, a, _ in self.plays:
            if FINAL[a] < 0:
                room = MAX_GAS - gas[seat]
                if each <= room:
                    gas[seat] += each
                else:
                    gas[seat] += room
                    lost += each - room
        self.middle = 0
        self.removed += lost

    def resolve(self, deal: bool = True) -> int:
        """R11–R17 once every seat has played, in the order docs/rules.md gives; without
        ``deal`` a round's last trick deals no next round. Returns the winning final
        number, or -1 when every card was face down (R13)."""
        if self.tuners and self.middle:
            self._share()
        plays = self.plays
        lichen = self.lichen
        table = FINAL_STRUCK if lichen else FINAL
        winner = best = -1
        spent = 0
        discards = self.discards
        for seat, a, speed in plays:
            spent += SPENT[a]
            final = table[a]
            if final >= 0 and final + speed > best:  # strict: ties go to the earlier card
                best, winner = final + speed, seat
            card = TRICK_CARD[a]
            if card >= 0:
                discards.append(card)
        record = (self.trick, self.lead, plays, winner, lichen)
        self.tricks.append(record)
        self.last = record
        self.plays = []
        self.blocked, self.lichen, self.zf_in, self.tuners = 0, False, False, 0
        self.middle += spent
        trick = self.trick
        if winner >= 0:
            if trick < TRICKS_PER_ROUND:
                self.speed[winner] += 1
                self.lead = winner
            else:
                self.laps[winner] += 1
                self.lap_order.append(winner)
                if self.laps[winner] >= LAPS_TO_WIN:
                    self.winner = winner
                    return best
        if trick < TRICKS_PER_ROUND:
            self.trick = trick + 1
        else:  # R6, R17: the latest lap gainer leads; nobody ever: the same lead again
            if self.lap_order:
                self.lead = self.lap_order[-1]
            if deal:
                self.deal()
        self.turn = self.lead
        return best

    def deal(self) -> None:
        """R5, R17, R18: shuffle every card not in a hand and deal up to full hands."""
        pool = self.discards + self.set_aside
        self.rng.shuffle(pool)
        size = self.deal_size
        start = 0
        for seat, hand in enumerate(self.hands):
            take = max(0, size - sum(hand))
            mask = self.masks[seat]
            for card in pool[start : start + take]:
                hand[card] += 1
                mask |= 1 << card
            self.masks[seat] = mask
            start += take
        self.set_aside = pool[start:]
        self.discards = []
        self.speed = [0] * self.players
        self.face_up = [0] * SUITS
        self.round += 1
        self.trick = 1
        self.tricks = []
        self.turn = self.lead


def _saved_play(seat: int, action: int, speed: int) -> dict[str, Any]:
    """A card of the current trick as saved, its secret included (the Tune Up's card)."""
    kind, suit, gas, value, effect = INFO[action]
    return {
        "seat": seat,
        "type": KIND_IDS[kind],
        "card": None if kind == ZERO_FIVE else SUIT_IDS[suit],
        "gas": gas,
        "speed": speed,
        "value": None if value < 0 else value,
        "zero_effect": EFFECT_IDS[effect],
    }


def _saved_play_id(play: dict[str, Any]) -> int:
    """The action id of a card saved by :func:`_saved_play`; the 0/5 card's discard is
    already made, so any discard names the same play."""
    kind, gas = play["type"], play["gas"]
    if kind == "zero_five":
        return FIELDS_ID[(kind, None, gas, None, play["value"] or 0, "zero")]
    return FIELDS_ID[(kind, play["card"], gas, play["zero_effect"], None, None)]


def public_play(seat: int, action: int, speed: int, lichen: bool) -> PublicPlay:
    """What every seat sees of action id ``action`` played at ``speed`` into a trick with
    (or without) a 1 face up in it (R9): a Tune Up shows only its back, the 0/5 card not
    its discard.

    >>> public_play(1, ACTION_ID[Action.tune_up(Suit.SLIPPY)], 2, False)["suit"]
    >>> public_play(0, ACTION_ID[Action.play(Suit.JELLY, 1)], 2, True)["final"]
    3
    """
    kind, suit, gas, value, effect = INFO[action]
    shown = None if kind == TUNE_UP else effective_value(value, lichen)
    return {
        "seat": seat,
        "type": KIND_IDS[kind],
        "suit": SUIT_IDS[suit] if kind == PLAY else None,
        "value": None if shown is None else value,
        "effective_value": shown,
        "gas": gas,
        "speed": None if shown is None else speed,
        "final": None if shown is None else shown + gas + speed,
        "zero_effect": EFFECT_IDS[effect],
    }


def trick_record(record: CoreTrick) -> TrickRecord:
    """A finished trick's public record, as a saved game and a view hold it."""
    trick, lead, plays, winner, lichen = record
    return {
        "trick": trick,
        "lead": lead,
        "plays": [public_play(seat, a, speed, lichen) for seat, a, speed in plays],
        "winner": None if winner < 0 else winner,
    }


def play_key(play: PublicPlay) -> tuple[object, ...]:
    """What a card in a trick shows of its action, all but its seat and speed."""
    return (play["type"], play["suit"], play["gas"], play["value"], play["zero_effect"])


#: Per :func:`play_key`: the first action id showing it (standing for a face-down card).
PLAY_ACTION = {play_key(public_play(0, a, 0, False)): a for a in reversed(range(len(ACTIONS)))}


#: Per action id: the first action id showing the same (:data:`PLAY_ACTION`), which a view
#: keeps in its place.
MASKED: tuple[int, ...] = tuple(
    PLAY_ACTION[play_key(public_play(0, a, 0, False))] for a in range(len(ACTIONS))
)


def core_trick(record: TrickRecord) -> PublicTrick:
    """A finished trick from its public record (R9: the 1 face up)."""
    plays = tuple((p["seat"], PLAY_ACTION[play_key(p)], p["speed"] or 0) for p in record["plays"])
    winner = record["winner"]
    trick, lead = record["trick"], record["lead"]
    return (trick, lead, plays, -1 if winner is None else winner, lichen_in(plays))


def lichen_in(plays: Iterable[tuple[int, int, int]]) -> bool:
    """Whether a 1 lies face up among ``plays`` (R9)."""
    return any(INFO[a][0] == PLAY and INFO[a][1] == LICHEN for _, a, _ in plays)


def face_up_counts(tricks: Iterable[CoreTrick], plays: Iterable[tuple[int, int, int]]) -> list[int]:
    """Per suit index, the cards face up in ``tricks`` and ``plays`` (this round's)."""
    counts = [0] * SUITS
    for _, a, _ in [*(play for trick in tricks for play in trick[2]), *plays]:
        if INFO[a][0] == PLAY:
            counts[INFO[a][1]] += 1
    return counts
