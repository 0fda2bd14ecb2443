"""The test oracle for the bots' policy: engine/bots/heuristic.py as it was when the normal
bot scored actions on a Situation of its own, a second copy of the rules of thumb that the
rollouts ran on the core. Kept unchanged so the tests prove that the one policy
(engine.bots.rollout, on the core's state) plays exactly as the old normal and easy bots.

Its original docstring follows.

The rule-of-thumb player behind the easy and normal bots and the hard bot's simulations.

Every legal action gets a score in "gas units": the chance of winning the trick times
what the trick is worth (speed for tricks 1–5, a lap — or the game — for the sixth),
minus the gas it burns, plus the gas it brings in (the 2, the 0, a Tune-Up share, the
0/5 card), minus the worth of the card it uses up. The chance of winning assumes each
later seat holds random cards from those this seat has not seen (card counting), may
spend part of its gas (all of it on the sixth trick) and may strike 4s and 5s with a 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot_oracle.old_situation import Situation

from engine.actions import Action, ActionType, supply_after_effect
from engine.cards import (
    MAX_GAS,
    STRUCK_BY_LICHEN,
    SUIT_VALUE,
    TRICKS_PER_ROUND,
    Suit,
    ZeroEffect,
    effective_value,
)
from engine.rng import Rng

_PLAY = ActionType.PLAY
_TUNE_UP = ActionType.TUNE_UP
_ZERO_FIVE = ActionType.ZERO_FIVE


@dataclass(frozen=True, slots=True)
class Style:
    """The knobs of the heuristic; each bot level is one :class:`Style`.

    The defaults are the normal bot's. ``early_commit``, ``willing``, ``later_tuners``
    and ``keep_value`` were tuned by duplicate self-play (one challenger against three
    copies of the previous defaults, 1,200 games per setting); the others sat at a flat
    optimum and kept their first values.
    """

    #: Worth of the sixth trick's lap, and of the lap that wins the game (gas units).
    lap_value: float = 10.0
    win_value: float = 30.0
    #: Extra worth of the sixth trick when an opponent on one lap could otherwise win.
    deny_value: float = 8.0
    #: Worth of one point of speed for each trick still to come this round.
    speed_value: float = 0.7
    #: Worth of one gas in the tank.
    gas_value: float = 1.0
    #: Worth of keeping a card for later tricks, by printed value 0..5.
    keep_value: tuple[float, ...] = (0.3, 0.5, 0.3, 0.4, 0.6, 0.9)
    #: Worth of keeping the 0/5 card for later.
    zero_five_keep: float = 1.0
    #: Gas a later seat is assumed willing to add in tricks 1–5 (all of it in trick 6).
    early_commit: int = 3
    #: Chance a later seat that can beat a card actually does.
    willing: float = 0.65
    #: Expected share of later seats that tune up too (dilutes a Tune-Up share).
    later_tuners: float = 0.6
    #: Whether this round's face-up cards are removed from the unseen pool.
    count_cards: bool = True
    #: Softmax temperature over sensible actions; 0 picks the best score.
    temperature: float = 0.0


NORMAL = Style()
"""The normal bot: counts cards, no noise."""

EASY = Style(
    count_cards=False,
    deny_value=0.0,
    early_commit=1,
    willing=0.7,
    later_tuners=0.3,
    keep_value=(0.5, 0.8, 0.5, 0.6, 1.0, 1.5),
    temperature=1.2,
)
"""The easy bot: forgets the cards already played, underrates what later seats will do,
keeps its high cards too long, and picks among sensible moves with softmax noise."""


class _Trick:
    """Facts about the current trick shared by every candidate action."""

    __slots__ = (
        "best_plain",
        "best_struck",
        "blocked",
        "hyper",
        "later",
        "lichen_in",
        "opponents",
        "pool_size",
        "tables",
        "zero_five_in",
    )

    def __init__(self, sit: Situation, style: Style) -> None:
        self.lichen_in = False
        self.zero_five_in = False
        self.blocked: set[Suit] = set()
        plain = struck = -1
        for p in sit.plays:
            if p.kind is _PLAY and p.suit is not None:
                self.blocked.add(p.suit)
                if p.suit is Suit.LICHEN:
                    self.lichen_in = True
            elif p.kind is _ZERO_FIVE:
                self.zero_five_in = True
            if p.value is None:
                continue
            plain = max(plain, p.value + p.gas + p.speed)
            struck = max(struck, effective_value(p.value, True) + p.gas + p.speed)
        self.best_plain = struck if self.lichen_in else plain
        self.best_struck = struck
        after = sit.players - len(sit.plays) - 1
        self.later = [(sit.seat + i) % sit.players for i in range(1, after + 1)]
        last = sit.trick == TRICKS_PER_ROUND
        open_zero_five = not self.zero_five_in and sit.removed > 0
        # Per later seat: speed plus the gas it is assumed to add, its hand size, and
        # whether it could still play its 0/5 card here (and as a 5).
        self.opponents = [
            (
                sit.speed[j] + (sit.gas[j] if last else min(sit.gas[j], style.early_commit)),
                sit.hand_size[j],
                open_zero_five and sit.zero_five[j] and sit.gas[j] < MAX_GAS,
                sit.laps[j] >= 1,
            )
            for j in self.later
        ]
        self.pool_size = max(1, sum(sit.unseen.values()))
        self.hyper: dict[tuple[int, int], float] = {}
        self.tables: dict[tuple[Suit | None, bool], tuple[list[int], int]] = {}

    def reach_table(
        self, sit: Situation, suit: Suit | None, lichen_after: bool
    ) -> tuple[list[int], int]:
        """After a card of ``suit`` goes face up: unseen cards a later seat could still
        play face up with an effective value of at least v (v = 0..5), and unseen 1s
        that could strike it."""
        key = (suit, lichen_after)
        table = self.tables.get(key)
        if table is None:
            by_value = [0] * 6
            lichens = 0
            for other, n in sit.unseen.items():
                if n <= 0 or other is suit or other in self.blocked:
                    continue
                by_value[effective_value(SUIT_VALUE[other], lichen_after)] += n
                if other is Suit.LICHEN:
                    lichens = n
            for v in range(4, -1, -1):
                by_value[v] += by_value[v + 1]
            table = self.tables[key] = (by_value, lichens)
        return table

    def holds_any(self, count: int, hand: int) -> float:
        """Chance a hidden hand of ``hand`` cards holds one of ``count`` pool cards."""
        key = (count, hand)
        got = self.hyper.get(key)
        if got is None:
            n = self.pool_size
            miss = 1.0
            for i in range(min(hand, n)):
                if n - count - i <= 0:
                    miss = 0.0
                    break
                miss *= (n - count - i) / (n - i)
            got = self.hyper[key] = 1.0 - miss
        return got


def _win_chance(
    sit: Situation, tr: _Trick, style: Style, final: int, value: int, suit: Suit | None
) -> float:
    """Chance a card of printed ``value`` with ``final`` wins once the later seats play.

    ``suit`` is the racer suit it blocks (``None`` for the 0/5 card).
    """
    lichen_after = tr.lichen_in or suit is Suit.LICHEN
    best = tr.best_struck if lichen_after else tr.best_plain
    if final <= best:
        return 0.0
    if not tr.later:
        return 1.0
    strikable = not lichen_after and value in STRUCK_BY_LICHEN
    at_least, lichens = tr.reach_table(sit, suit, lichen_after)
    chance = 1.0
    willing = style.willing
    for reach, hand, zero_five, lapped in tr.opponents:
        need = final + 1 - reach
        beat = tr.holds_any(at_least[need if need > 0 else 0], hand) if need <= 5 else 0.0
        if zero_five and (5 if lapped and not lichen_after else 0) + 1 >= need:
            beat = 1.0
        if strikable and lichens and 1 + reach > max(final - value, tr.best_struck):
            strike = tr.holds_any(lichens, hand)
            beat = 1.0 - (1.0 - beat) * (1.0 - strike)
        chance *= 1.0 - willing * beat
    return chance


def _trick_worth(sit: Situation, style: Style) -> float:
    me = sit.seat
    if sit.trick < TRICKS_PER_ROUND:
        return style.speed_value * (TRICKS_PER_ROUND - sit.trick)
    worth = style.win_value if sit.laps[me] >= 1 else style.lap_value
    if any(laps >= 1 for seat, laps in enumerate(sit.laps) if seat != me):
        worth += style.deny_value
    return worth


def _keep(sit: Situation, style: Style, card: Suit) -> float:
    """Worth of still holding ``card`` after this trick."""
    if sit.trick == TRICKS_PER_ROUND and not sit.larger_hands:
        return 0.0
    worth = style.keep_value[SUIT_VALUE[card]]
    if sit.hand.count(card) > 1:
        worth *= 0.6
    return worth


def score_actions(sit: Situation, style: Style) -> tuple[list[float], list[float]]:
    """Score every action in ``sit.legal``; also return each one's chance of winning."""
    tr = _Trick(sit, style)
    me = sit.seat
    gas = sit.gas[me]
    speed = sit.speed[me]
    room = MAX_GAS - gas
    worth = _trick_worth(sit, style)
    gv = style.gas_value
    later_tricks = TRICKS_PER_ROUND - sit.trick
    scores: list[float] = []
    chances: list[float] = []
    tuned = sum(1 for p in sit.plays if p.kind is _TUNE_UP)
    share = sit.middle / (1 + tuned + style.later_tuners * len(tr.later))
    tune_gain = min(float(room), share)
    keep = {card: _keep(sit, style, card) for card in set(sit.hand)}
    for action in sit.legal:
        kind = action.type
        if kind is _TUNE_UP:
            assert action.suit is not None
            scores.append(tune_gain * gv - keep[action.suit])
            chances.append(0.0)
            continue
        g = action.gas
        if kind is _PLAY:
            suit = action.suit
            assert suit is not None
            value = SUIT_VALUE[suit]
            shown = effective_value(value, tr.lichen_in or suit is Suit.LICHEN)
            extra = 0.0
            gained = supply_after_effect(action, gas, sit.middle, sit.removed) - gas
            my_speed = speed
            if suit is Suit.ZERO and action.zero_effect is ZeroEffect.SPEED:
                my_speed += 1
                extra = style.speed_value * later_tricks
            final = shown + g + my_speed
            p = _win_chance(sit, tr, style, final, value, suit)
            score = p * worth + (gained - g) * gv + extra - keep[suit]
        else:
            value = action.value or 0
            assert action.discard is not None
            shown = effective_value(value, tr.lichen_in)
            gained = supply_after_effect(action, gas, sit.middle, sit.removed) - gas
            final = shown + g + speed
            p = _win_chance(sit, tr, style, final, value, None)
            score = p * worth + (gained - g) * gv - keep[action.discard] - style.zero_five_keep
        scores.append(score)
        chances.append(p)
    return scores, chances


def sensible(sit: Situation, scores: list[float], chances: list[float]) -> list[int]:
    """Indices of actions that are not plainly wasteful.

    Gas spent on a card that cannot win, or more gas than another action with the same
    card already needs for the same chance, only feeds the middle.
    """
    best_for: dict[tuple[object, ...], tuple[float, int]] = {}
    keep: list[int] = []
    for i, action in enumerate(sit.legal):
        if action.type is _TUNE_UP or action.gas == 0:
            keep.append(i)
            continue
        if chances[i] <= 0.0:
            continue
        key = (action.type, action.suit, action.zero_effect, action.value, action.discard)
        seen = best_for.get(key)
        if seen is not None and chances[i] <= seen[0] + 1e-9:
            continue
        best_for[key] = (chances[i], i)
        keep.append(i)
    return keep


def choose_index(sit: Situation, style: Style, rng: Rng) -> int:
    """Index into ``sit.legal`` of the action this style plays."""
    scores, chances = score_actions(sit, style)
    if style.temperature <= 0.0:
        # Wasteful actions always score below the sensible action they waste gas over,
        # so the best score needs no filtering.
        best = max(scores)
        top = [i for i, score in enumerate(scores) if score >= best - 1e-9]
        return top[0] if len(top) == 1 else top[rng.below(len(top))]
    candidates = sensible(sit, scores, chances)
    top_score = max(scores[i] for i in candidates)
    weights = [math.exp((scores[i] - top_score) / style.temperature) for i in candidates]
    pick = uniform(rng) * sum(weights)
    for i, w in zip(candidates, weights, strict=True):
        pick -= w
        if pick < 0:
            return i
    return candidates[-1]


def choose(sit: Situation, style: Style, rng: Rng) -> Action:
    """The action this style plays in ``sit``."""
    return sit.legal[choose_index(sit, style, rng)]


def uniform(rng: Rng) -> float:
    """A float in [0, 1) from ``rng``."""
    return (rng.next_u64() >> 11) * (1.0 / (1 << 53))
