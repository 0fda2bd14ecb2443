"""The bots' one policy, on the core's state (:mod:`engine.sim`), and the rollouts.

:func:`choose_id` is the rule-of-thumb player of the easy and normal bots (its knobs are
:class:`engine.bots.heuristic.Style`) and of every seat in the hard bot's rollouts.
Every legal action gets a score in "gas units": the chance of winning the trick times
what the trick is worth (speed for tricks 1–5, a lap — or the game — for the sixth),
minus the gas it burns, plus the gas it brings in (the 2, the 0, a Tune-Up share, the
0/5 card), minus the worth of the card it uses up. The chance of winning assumes each
later seat holds random cards from those this seat has not seen (card counting, unless
the style forgets), may spend part of its gas (all of it on the sixth trick) and may
strike 4s and 5s with a 1. It reads only what the seat to act could know: its own hand,
the public numbers and this round's face-up cards (other hands by their size only), so
the bots run it on a state sampled from their observation
(:func:`engine.bots.players.policy_state`).

:func:`rollout` plays a state to the end of its round with one style for every seat and
scores the result with :func:`engine.bots.value.chances`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import itemgetter

from engine.bots.heuristic import NORMAL, Style
from engine.bots.value import chances
from engine.cards import MAX_GAS, STRUCK_BY_LICHEN, TRICKS_PER_ROUND
from engine.rng import Rng
from engine.sim import (
    FINAL,
    FINAL_STRUCK,
    GAS,
    INFO,
    LEGAL_CACHE,
    LICHEN,
    PLAY,
    SALTY,
    SUIT_INDEX,
    SUITS,
    TUNE_UP,
    VALUE,
    ZERO,
    SimState,
    legal_ids,
    remember,
)
from engine.variants import Variants

_STRUCK = STRUCK_BY_LICHEN
_score = itemgetter(1)
_COPIES: dict[tuple[int, Variants], list[int]] = {}
# The chance that a hidden hand holds one of ``count`` cards among ``pool`` unseen ones
# is a pure function of three small integers, so one table serves every decision.
_HOLDS: dict[int, float] = {}


def _copies(players: int, variants: Variants) -> list[int]:
    """Cards of each suit (by index) in the deck."""
    copies = _COPIES.get((players, variants))
    if copies is None:
        copies = [0] * SUITS
        for card in variants.deck(players):
            copies[SUIT_INDEX[card]] += 1
        _COPIES[(players, variants)] = copies
    return copies


def _holds_any(pool: int, count: int, hand: int) -> float:
    """The chance that a hidden hand of ``hand`` cards holds one of ``count`` cards
    among ``pool`` unseen ones (1 − the chance it misses them all)."""
    key = pool << 16 | count << 8 | hand
    got = _HOLDS.get(key)
    if got is None:
        miss = 1.0
        for i in range(min(hand, pool)):
            if pool - count - i <= 0:
                miss = 0.0
                break
            miss *= (pool - count - i) / (pool - i)
        got = _HOLDS[key] = 1.0 - miss
    return got


class _Trick:
    """Facts about the current trick shared by every candidate action."""

    __slots__ = (
        "best_plain",
        "best_struck",
        "blocked",
        "later",
        "lichen_in",
        "opponents",
        "pool",
        "s",
        "seat",
        "style",
        "tables",
        "unseen",
    )

    def __init__(self, s: SimState, seat: int, style: Style) -> None:
        self.s, self.seat, self.style = s, seat, style
        self.lichen_in = s.lichen
        self.blocked = s.blocked
        plain = struck = -1
        for _, a, speed in s.plays:
            final = FINAL[a]
            if final >= 0:
                if final + speed > plain:
                    plain = final + speed
                if FINAL_STRUCK[a] + speed > struck:
                    struck = FINAL_STRUCK[a] + speed
        self.best_plain = struck if s.lichen else plain
        self.best_struck = struck
        self.later = s.players - len(s.plays) - 1
        # The later seats and the unseen cards are worked out on the first chance asked
        # for: many decisions (the last seat's, say) need none.
        self.opponents: list[tuple[int, int, bool, bool]] | None = None
        self.unseen: list[int] = []
        self.pool = 1
        self.tables: dict[int, tuple[list[int], int]] = {}

    def _later_seats(self) -> list[tuple[int, int, bool, bool]]:
        """Per later seat: speed plus the gas it is assumed to add, its hand size, and
        whether it could still play its 0/5 card here (and as a 5)."""
        s, seat = self.s, self.seat
        players = s.players
        last = s.trick == TRICKS_PER_ROUND
        open_zero_five = s.zf_variant and not s.zf_in and s.removed > 0
        commit = self.style.early_commit
        opponents = []
        for i in range(1, self.later + 1):
            j = (seat + i) % players
            gas = s.gas[j]
            opponents.append(
                (
                    s.speed[j] + (gas if last else min(gas, commit)),
                    sum(s.hands[j]),
                    open_zero_five and s.zero_five[j] and gas < MAX_GAS,
                    s.laps[j] >= 1,
                )
            )
        hand = s.hands[seat]
        copies = _copies(players, s.variants)
        if self.style.count_cards:
            face_up = s.face_up
            self.unseen = [n - hand[i] - face_up[i] for i, n in enumerate(copies)]
        else:  # a player who remembers only the deck and their own hand
            self.unseen = [n - hand[i] for i, n in enumerate(copies)]
        self.pool = max(1, sum(self.unseen))
        self.opponents = opponents
        return opponents

    def reach_table(self, suit: int, lichen_after: bool) -> tuple[list[int], int]:
        """After a card of ``suit`` (-1: the 0/5 card) goes face up: the unseen cards a
        later seat could still play face up with an effective value of at least v (v =
        0..5), and the unseen 1s that could strike it."""
        key = suit << 1 | lichen_after
        table = self.tables.get(key)
        if table is None:
            by_value = [0] * 6
            lichens = 0
            blocked = self.blocked
            for other, n in enumerate(self.unseen):
                if n <= 0 or other == suit or blocked >> other & 1:
                    continue
                v = VALUE[other]
                if lichen_after and v in _STRUCK:
                    v = 0
                by_value[v] += n
                if other == LICHEN:
                    lichens = n
            for v in range(4, -1, -1):
                by_value[v] += by_value[v + 1]
            table = self.tables[key] = (by_value, lichens)
        return table

    def win_chance(self, style: Style, final: int, value: int, suit: int) -> float:
        """Chance a card of printed ``value`` with ``final`` wins once the later seats
        play; ``suit`` is the racer suit it blocks (-1 for the 0/5 card)."""
        lichen_after = self.lichen_in or suit == LICHEN
        best = self.best_struck if lichen_after else self.best_plain
        if final <= best:
            return 0.0
        if not self.later:
            return 1.0
        strikable = not lichen_after and value in _STRUCK
        opponents = self.opponents
        if opponents is None:
            opponents = self._later_seats()
        at_least, lichens = self.reach_table(suit, lichen_after)
        chance = 1.0
        willing = style.willing
        pool = self.pool
        holds = _HOLDS
        for reach, hand, zero_five, lapped in opponents:
            need = final + 1 - reach
            if need <= 5:  # _holds_any, its cache lookup inlined
                count = at_least[need if need > 0 else 0]
                beat = holds.get(pool << 16 | count << 8 | hand)
                if beat is None:
                    beat = _holds_any(pool, count, hand)
            else:
                beat = 0.0
            if zero_five and (5 if lapped and not lichen_after else 0) + 1 >= need:
                beat = 1.0
            if strikable and lichens and 1 + reach > max(final - value, self.best_struck):
                strike = _holds_any(pool, lichens, hand)
                beat = 1.0 - (1.0 - beat) * (1.0 - strike)
            chance *= 1.0 - willing * beat
        return chance


def _trick_worth(s: SimState, seat: int, style: Style) -> float:
    if s.trick < TRICKS_PER_ROUND:
        return style.speed_value * (TRICKS_PER_ROUND - s.trick)
    worth = style.win_value if s.laps[seat] >= 1 else style.lap_value
    if any(laps >= 1 for other, laps in enumerate(s.laps) if other != seat):
        worth += style.deny_value
    return worth


# Per style (by id, the style kept alive with its entry so the id cannot be reused): the
# worth of keeping one card of each suit, and of keeping one of several.
_KEEP: dict[int, tuple[Style, tuple[float, ...], tuple[float, ...]]] = {}
_NO_KEEP = (0.0,) * SUITS


def _keep_tables(style: Style) -> tuple[Style, tuple[float, ...], tuple[float, ...]]:
    single = tuple(style.keep_value[VALUE[suit]] for suit in range(SUITS))
    entry = _KEEP[id(style)] = (style, single, tuple(worth * 0.6 for worth in single))
    return entry


def _keep(s: SimState, hand: list[int], style: Style) -> Sequence[float]:
    """Worth of still holding each card after this trick."""
    if s.trick == TRICKS_PER_ROUND and s.deal_size == 6:
        return _NO_KEEP
    entry = _KEEP.get(id(style))
    if entry is None or entry[0] is not style:
        entry = _keep_tables(style)
    single, several = entry[1], entry[2]
    return [several[suit] if n > 1 else single[suit] for suit, n in enumerate(hand)]


class _Scorer:
    """The per-decision numbers of the scoring, and the scores of a run of actions."""

    __slots__ = ("gv", "keep", "later_tricks", "room", "s", "speed", "style", "tr", "worth")

    keep: Sequence[float]

    def __init__(self, s: SimState, style: Style) -> None:
        me = s.turn
        self.s = s
        self.style = style
        self.tr = _Trick(s, me, style)
        self.speed = s.speed[me]
        self.room = MAX_GAS - s.gas[me]
        self.worth = _trick_worth(s, me, style)
        self.gv = style.gas_value
        self.later_tricks = TRICKS_PER_ROUND - s.trick
        self.keep = _keep(s, s.hands[me], style)

    def tune_gain(self) -> float:
        """Expected gas of a Tune-Up share, capped by the room in the tank."""
        s = self.s
        share = s.middle / (1 + s.tuners + self.style.later_tuners * self.tr.later)
        return min(float(self.room), share)

    def run(
        self,
        start: int,
        count: int,
        kind: int,
        suit: int,
        value: int,
        effect: int,
        floor: float,
        found: list[tuple[int, float, float]],
        raise_floor: bool,
    ) -> float:
        """Score the ``count`` actions of the run at index ``start`` (gas 0, 1, ...) into
        ``found`` as (index, score, chance), stopping once even a certain win would score
        below ``floor`` (the score at chance 1 is an upper bound: every rounding step is
        monotone); with ``raise_floor`` the floor rises to the best score found less 1e-9.
        Returns the floor."""
        tr, worth, gv, style = self.tr, self.worth, self.gv, self.style
        extra = 0.0
        gained = 0
        speed = self.speed
        zero_five = kind != PLAY
        if zero_five:
            lichen_after = tr.lichen_in
            gained = min(2 if value == 0 else 1, self.s.removed, self.room)
            cost = style.zero_five_keep
            blocks = -1
        else:
            lichen_after = tr.lichen_in or suit == LICHEN
            cost = 0.0
            blocks = suit
            if suit == SALTY and self.s.middle > 0:
                gained = 1 if self.room > 0 else 0
            elif suit == ZERO:
                if effect == GAS:
                    gained = 1 if self.room > 0 else 0
                else:
                    speed += 1
                    extra = style.speed_value * self.later_tricks
        shown = 0 if lichen_after and value in _STRUCK else value
        best = tr.best_struck if lichen_after else tr.best_plain
        keep = self.keep[suit]
        for g in range(count):
            gain = (gained - g) * gv
            bound = 1.0 * worth + gain - keep - cost if zero_five else worth + gain + extra - keep
            if bound < floor and gv > 0.0:
                break
            final = shown + g + speed
            if final <= best:
                p = 0.0
            elif not tr.later:
                p = 1.0
            else:
                p = tr.win_chance(style, final, value, blocks)
            score = p * worth + gain  # then the rest, in score_actions' order of operations
            score = score - keep - cost if zero_five else score + extra - keep
            found.append((start + g, score, p))
            if raise_floor and score - 1e-9 > floor:
                floor = score - 1e-9
        return floor


def score_ids(s: SimState, key: int, style: Style) -> tuple[list[float], list[float]]:
    """Every legal action's score and chance of winning, for the current seat of ``s``
    whose legal-set key is ``key`` (in the order of :func:`engine.sim.legal_ids`)."""
    scorer = _Scorer(s, style)
    tune = scorer.tune_gain() * scorer.gv
    found: list[tuple[int, float, float]] = []
    for start, count, kind, suit, value, effect in _groups(key):
        if kind == TUNE_UP:
            found.append((start, tune - scorer.keep[suit], 0.0))
        else:
            scorer.run(start, count, kind, suit, value, effect, -math.inf, found, False)
    return [f[1] for f in found], [f[2] for f in found]


#: A run of legal actions that differ only in gas (0, 1, 2, ... in order): index of the
#: first, how many, and the (kind, suit, value, effect) they share.
Group = tuple[int, int, int, int, int, int]
_GROUPS: dict[int, tuple[Group, ...]] = {}


def _groups(key: int) -> tuple[Group, ...]:
    """The legal actions of legal-set ``key`` as runs (cached per key, as many keys as
    :func:`engine.sim.legal_ids` keeps)."""
    groups = _GROUPS.get(key)
    if groups is None:
        runs: list[list[int]] = []
        for i, a in enumerate(legal_ids(key)):
            kind, suit, gas, value, effect = INFO[a]
            if gas and runs and runs[-1][0] + runs[-1][1] == i and runs[-1][1] == gas:
                runs[-1][1] += 1
            else:
                runs.append([i, 1, kind, suit, value, effect])
        groups = remember(_GROUPS, key, tuple((r[0], r[1], r[2], r[3], r[4], r[5]) for r in runs))
    return groups


def _best_indices(s: SimState, key: int, style: Style) -> list[int]:
    """Indices of the actions within 1e-9 of the best score, as :func:`choose_id` wants
    them, without working out the chances of actions that cannot reach the best: a
    run's score at a certain win falls with every gas added, so once it is below the
    best found so far the rest of the run is too."""
    scorer = _Scorer(s, style)
    tune = scorer.tune_gain() * scorer.gv
    keep = scorer.keep
    hand = s.hands[s.turn]
    # A Tune Up of every card in hand is legal (R7): the best of them is a floor.
    floor = -math.inf
    for suit in range(SUITS):
        if hand[suit] and tune - keep[suit] > floor:
            floor = tune - keep[suit]
    floor -= 1e-9
    found: list[tuple[int, float, float]] = []
    groups = _GROUPS.get(key) or _groups(key)
    for start, count, kind, suit, value, effect in groups:
        if kind == TUNE_UP:
            found.append((start, tune - keep[suit], 0.0))
        else:
            floor = scorer.run(start, count, kind, suit, value, effect, floor, found, True)
    best = max(found, key=_score)[1] - 1e-9
    return [f[0] for f in found if f[1] >= best]


def sensible(legal: tuple[int, ...], scores: list[float], chances_: list[float]) -> list[int]:
    """Indices of the actions that are not plainly wasteful: gas spent on a card that
    cannot win, or more gas than another action with the same card already needs for the
    same chance, only feeds the middle."""
    best_for: dict[int, float] = {}
    keep: list[int] = []
    for i, a in enumerate(legal):
        kind, suit, g, value, effect = INFO[a]
        if kind == TUNE_UP or g == 0:
            keep.append(i)
            continue
        if chances_[i] <= 0.0:
            continue
        key = ((kind * SUITS + suit) * 8 + value + 1) * 4 + effect
        seen = best_for.get(key)
        if seen is not None and chances_[i] <= seen + 1e-9:
            continue
        best_for[key] = chances_[i]
        keep.append(i)
    return keep


def choose_id(s: SimState, style: Style, rng: Rng) -> int:
    """The action id ``style`` plays for the current seat of ``s``."""
    key = s.legal_key()
    legal = LEGAL_CACHE.get(key) or legal_ids(key)
    if style.temperature <= 0.0:
        top = _best_indices(s, key, style)
        return legal[top[0] if len(top) == 1 else top[rng.below(len(top))]]
    scores, chances_ = score_ids(s, key, style)
    candidates = sensible(legal, scores, chances_)
    top_score = max(scores[i] for i in candidates)
    weights = [math.exp((scores[i] - top_score) / style.temperature) for i in candidates]
    pick = (rng.next_u64() >> 11) * (1.0 / (1 << 53)) * sum(weights)
    for i, w in zip(candidates, weights, strict=True):
        pick -= w
        if pick < 0:
            return legal[i]
    return legal[candidates[-1]]


def rollout(
    s: SimState, rng: Rng, style: Style = NORMAL, others: Style | None = None, seat: int = -1
) -> list[float]:
    """Play ``s`` to the end of its round and return each seat's estimated chance of
    winning from there (as ``engine.bots.search.rollout``). ``seat`` plays ``style``; the
    others play ``others`` (by default ``style`` too)."""
    start = s.round
    if others is None:
        others = style
    while s.winner < 0 and s.round == start:
        s.apply(choose_id(s, style if s.turn == seat else others, rng))
    return chances(s.players, s.laps, s.gas, s.lead, None if s.winner < 0 else s.winner)
