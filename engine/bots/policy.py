"""The bots' one policy on the core's state: :func:`choose_id`, the player of the easy and
normal bots and of every seat in the hard bot's rollouts (how it scores, and its knobs:
:mod:`engine.bots.heuristic`). It reads only what the seat to act could know (other hands
by their size only). A decision is worked out (:func:`decide`) apart from its draw
(:func:`choose_id`), so that a search can keep what it worked out and draw from it again.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from itertools import accumulate
from operator import itemgetter, sub

from engine.bots.heuristic import Style
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
    SUITS,
    TUNE_UP,
    VALUE,
    ZERO,
    SimState,
    deck_facts,
    legal_ids,
    remember,
)

# The chance that a hidden hand holds one of ``count`` cards among ``pool`` unseen ones, by
# pool << 10 | count << 4 | hand (-1: not yet worked out; a deck has at most 36 cards).
_HOLDS: list[float] = [-1.0] * (1 << 16)


def _holds_any(pool: int, count: int, hand: int) -> float:
    """:data:`_HOLDS`' entry: 1 − the chance the hand misses all ``count`` cards."""
    index = pool << 10 | count << 4 | hand
    got = _HOLDS[index]
    if got < 0.0:
        miss = 1.0
        for i in range(min(hand, pool)):
            if pool - count - i <= 0:
                miss = 0.0
                break
            miss *= (pool - count - i) / (pool - i)
        got = _HOLDS[index] = 1.0 - miss
    return got


#: Per later seat: speed plus the gas it is assumed to add, its hand size, and whether
#: it could still play its 0/5 card here (and as a 5).
Opponent = tuple[int, int, bool, bool]


class TrickMemo:
    """What later decisions of one rollout reuse: the deck's cards by suit, and the later
    seats of the current trick (a seat's numbers change only when it plays, and then it
    is no later seat in that trick)."""

    __slots__ = ("commit", "copies", "round", "tail", "trick")

    def __init__(self) -> None:
        self.round = self.trick = self.commit = -1
        self.copies: list[int] = []
        #: The last seats of the trick (:data:`Opponent`, no 0/5 flag), in order.
        self.tail: list[Opponent] = []


#: A decision worked out: the action ids it picks among and the running sums of their
#: softmax weights (``None``: a uniform pick). Tuples of numbers, which the garbage
#: collector stops tracking (a search keeps thousands).
Choice = tuple[tuple[int, ...], tuple[float, ...] | None]


def _later_seats(
    s: SimState, seat: int, later: int, style: Style, memo: TrickMemo
) -> tuple[list[Opponent], tuple[int, ...], int]:
    """The seats after ``seat`` in this trick, the unseen cards by suit, and their number
    (at least 1)."""
    players = s.players
    commit = style.early_commit
    tail = memo.tail
    if memo.trick != s.trick or memo.round != s.round or memo.commit != commit or len(tail) < later:
        last, tail = s.trick == TRICKS_PER_ROUND, []
        for j in [(seat + i) % players for i in range(1, later + 1)]:
            gas = s.gas[j]
            reach = s.speed[j] + (gas if last or gas < commit else commit)
            tail.append((reach, sum(s.hands[j]), False, s.laps[j] >= 1))
        memo.tail = tail
        memo.round, memo.trick, memo.commit = s.round, s.trick, commit
    opponents = tail[len(tail) - later :]
    copies = memo.copies
    if not copies:
        copies = memo.copies = deck_facts(players, s.variants)[1]
    if s.zf_variant and not s.zf_in and s.removed > 0:
        flags = s.zero_five
        tanks = s.gas
        for i in range(later):
            j = (seat + 1 + i) % players
            if flags[j] and tanks[j] < MAX_GAS:
                reach, size, _, lapped = opponents[i]
                opponents[i] = (reach, size, True, lapped)
    hand = s.hands[seat]
    if style.count_cards:
        unseen = tuple(map(sub, map(sub, copies, hand), s.face_up))
    else:  # a player who remembers only the deck and their own hand
        unseen = tuple(map(sub, copies, hand))
    pool = sum(unseen)
    return opponents, unseen, pool if pool > 1 else 1


#: Reach tables (:func:`_reach`) by the unseen cards, the blocked suits and the 1.
_REACH: dict[tuple[tuple[int, ...], int], tuple[list[int], int]] = {}


def _reach(unseen: tuple[int, ...], blocked: int, lichen_after: bool) -> tuple[list[int], int]:
    """Per v = 0..5, the unseen cards a later seat could play face up worth at least v with
    (or without) a 1 in the trick, and the unseen 1s; the suit just played counted too
    (:meth:`_Frame.table` takes it out). Cached and shared: not to be changed."""
    key = (unseen, blocked << 1 | lichen_after)
    table = _REACH.get(key)
    if table is not None:
        return table
    by_value = [0] * 6
    lichens = 0
    for other in range(SUITS):
        n = unseen[other]
        if n <= 0 or blocked >> other & 1:
            continue
        v = VALUE[other]
        if lichen_after and v in STRUCK_BY_LICHEN:
            v = 0
        by_value[v] += n
        if other == LICHEN:
            lichens = n
    for v in range(4, -1, -1):
        by_value[v] += by_value[v + 1]
    return remember(_REACH, key, (by_value, lichens), 8192)


# Per style (by id, the style kept alive with its entry so the id cannot be reused): the
# worth of keeping one card of each suit, and of keeping one of several.
_KEEP: dict[int, tuple[Style, tuple[float, ...], tuple[float, ...]]] = {}
_NO_KEEP = (0.0,) * SUITS


#: One scored action: (index in the legal set, score, chance of winning the trick).
Scored = tuple[int, float, float]
Want = tuple[float, bool, bool]  # a scan's slack, only-sensible and shortcut


def _beaten(
    frame: _Frame,
    final: int,
    lowest: int,
    tables: tuple[list[int], int, int, int],
    strike: bool,
    lichen_after: bool,
) -> float:
    """The chance that no later seat beats ``final`` (``lowest`` once struck by a 1, read
    only with ``strike``), each holding random cards from the unseen ones."""
    at_least, lichens, own, own_value = tables
    holds = _HOLDS
    willing = frame.willing
    p = 1.0
    strikes = lichens << 4
    for reach, row, zero_five_left, lapped in frame.rows:
        need = final + 1 - reach
        if need <= 5:
            at = need if need > 0 else 0
            n = at_least[at] - own if at <= own_value else at_least[at]
            beat = holds[row | n << 4]
            if beat < 0.0:
                beat = _holds_any(row >> 10, n, row & 15)
        else:
            beat = 0.0
        if zero_five_left and (5 if lapped and not lichen_after else 0) + 1 >= need:
            beat = 1.0
        if strike and 1 + reach > lowest:
            hit = holds[row | strikes]
            if hit < 0.0:
                hit = _holds_any(row >> 10, lichens, row & 15)
            beat = 1.0 - (1.0 - beat) * (1.0 - hit)
        p *= 1.0 - willing * beat
    return p


class _Frame:
    """What every action of one decision shares; the later seats are read on the first
    chance asked for (:meth:`table`): many decisions, the last seat's say, need none."""

    def __init__(self, s: SimState, style: Style, memo: TrickMemo | None) -> None:
        me = s.turn
        plain = struck = -1
        for _, a, speed in s.plays:
            final = FINAL[a]
            if final >= 0:
                if final + speed > plain:
                    plain = final + speed
                final = FINAL_STRUCK[a] + speed
                if final > struck:
                    struck = final
        self.lichen_in = s.lichen
        self.plain = struck if s.lichen else plain
        self.struck = struck
        later = self.later_count = s.players - len(s.plays) - 1
        self.s, self.style, self.memo, self.willing = s, style, memo, style.willing
        self.known = False
        #: The reach tables without and with a 1 face up, once asked for.
        self.tables: list[tuple[list[int], int] | None] = [None, None]
        self.gv = style.gas_value
        self.room = room = MAX_GAS - s.gas[me]
        self.speed = speed = s.speed[me]
        # What a face-up card without an effect of its own does (:func:`_effect`).
        self.plain_effect = (s.lichen, 0, 0.0, speed, 0.0)
        self.middle = middle = s.middle
        self.removed = s.removed
        self.trick = trick = s.trick
        entry = _KEEP.get(id(style))
        if entry is None or entry[0] is not style:
            single = tuple(style.keep_value[VALUE[suit]] for suit in range(SUITS))
            several = tuple(worth * 0.6 for worth in single)
            entry = remember(_KEEP, id(style), (style, single, several), 1024)
        self.single, self.several = entry[1], entry[2]
        if trick < TRICKS_PER_ROUND:
            self.worth = style.speed_value * (TRICKS_PER_ROUND - trick)
        else:
            laps = s.laps
            worth = style.win_value if laps[me] >= 1 else style.lap_value
            for other in range(s.players):
                if other != me and laps[other] >= 1:
                    worth += style.deny_value
                    break
            self.worth = worth
            if s.deal_size == 6:  # nothing is kept past the round's last trick
                self.single = self.several = _NO_KEEP
        share = middle / (1 + s.tuners + style.later_tuners * later)
        self.tune = min(float(room), share) * self.gv

    def table(self, lichen_after: bool, blocks: int) -> tuple[list[int], int, int, int]:
        """The later seats' reach table and Lichen count for a card that blocks suit
        ``blocks`` (-1: none), with the unseen cards of that suit and their value."""
        if not self.known:
            s = self.s
            memo = self.memo or TrickMemo()
            found = _later_seats(s, s.turn, self.later_count, self.style, memo)
            opponents, self.unseen, pool = found
            #: Per later seat, :data:`Opponent` with its hand size as its row of _HOLDS.
            self.rows = [(o[0], pool << 10 | o[1], o[2], o[3]) for o in opponents]
            self.known = True
        table = self.tables[lichen_after]
        if table is None:
            key = (self.unseen, self.s.blocked << 1 | lichen_after)
            table = _REACH.get(key) or _reach(self.unseen, self.s.blocked, lichen_after)
            self.tables[lichen_after] = table
        at_least, lichens = table
        own = own_value = 0
        unseen = self.unseen
        if blocks >= 0 and unseen[blocks] > 0:
            own = unseen[blocks]
            own_value = VALUE[blocks]
            if lichen_after and own_value in STRUCK_BY_LICHEN:
                own_value = 0
            if blocks == LICHEN:
                lichens = 0
        return at_least, lichens, own, own_value


def scan(
    s: SimState,
    key: int,
    style: Style,
    slack: float,
    only_sensible: bool,
    memo: TrickMemo | None = None,
) -> tuple[list[Scored], float]:
    """Score the legal actions of the seat to act (legal-set ``key``), in legal order, but
    those more than ``slack`` below the best and, with ``only_sensible``, those plainly
    wasteful: gas on a card that cannot win, or more than the same card needs for the same
    chance, only feeds the middle. Every score is the same float however many are left out."""
    frame = _Frame(s, style, memo)
    hand = s.hands[s.turn]
    single, several, tune = frame.single, frame.several, frame.tune
    floor = -math.inf
    if slack != math.inf:
        # A Tune Up of every card in hand is legal (R7): the best of them is a floor.
        for suit in range(SUITS):
            n = hand[suit]
            if n:
                score = tune - (several[suit] if n > 1 else single[suit])
                if score > floor:
                    floor = score
        floor -= slack
    found: list[Scored] = []
    top = -math.inf
    # Whether a run may skip the gas that is never sensible or scores lower.
    shortcut = only_sensible or slack < 1e-6 < frame.gv
    want = (slack, only_sensible, shortcut)
    groups = _GROUPS.get(key) or _groups(key)
    for run in groups:
        start, _, kind, suit, _, _ = run
        keep = several[suit] if hand[suit] > 1 else single[suit]
        if kind == TUNE_UP:
            score = tune - keep
            if score >= floor:
                found.append((start, score, 0.0))
                if score > top:
                    top = score
            continue
        top, floor = _score_run(frame, run, keep, want, found, top, floor)
    return found, top


def _effect(frame: _Frame, run: Group) -> tuple[bool, int, float, int, int, float]:
    """A run's card besides its number: whether a 1 is then face up, the gas it brings in,
    the 0/5 card's worth, the suit it blocks (-1: none), the seat's speed with it, and the
    worth of a 0's extra speed (R10, R20, R22)."""
    _, _, kind, suit, value, effect = run
    room, style = frame.room, frame.style
    if kind != PLAY:
        gained = min(2 if value == 0 else 1, frame.removed, room)
        return frame.lichen_in, gained, style.zero_five_keep, -1, frame.speed, 0.0
    lichen_after = frame.lichen_in or suit == LICHEN
    if (suit == SALTY and frame.middle > 0) or (suit == ZERO and effect == GAS):
        return lichen_after, 1 if room > 0 else 0, 0.0, suit, frame.speed, 0.0
    if suit == ZERO:
        extra = style.speed_value * (TRICKS_PER_ROUND - frame.trick)
        return lichen_after, 0, 0.0, suit, frame.speed + 1, extra
    return lichen_after, 0, 0.0, suit, frame.speed, 0.0


def _score_run(
    frame: _Frame, run: Group, keep: float, want: Want, found: list[Scored], top: float, low: float
) -> tuple[float, float]:
    """Score a run of face-up (or 0/5) actions that differ only in gas into ``found``
    (``low``: the floor a score must reach); return the best score and the new floor."""
    (slack, only_sensible, shortcut), floor = want, low
    start, count, kind, suit, value, _ = run
    gv, worth, zero_five = frame.gv, frame.worth, kind != PLAY
    if kind == PLAY and suit != SALTY and suit != ZERO and suit != LICHEN:
        lichen_after, gained, cost, my_speed, extra = frame.plain_effect
        blocks = suit
    else:
        lichen_after, gained, cost, blocks, my_speed, extra = _effect(frame, run)
    shown = 0 if lichen_after and value in STRUCK_BY_LICHEN else value
    best, struck = frame.struck if lichen_after else frame.plain, frame.struck
    strike, lowest = False, 0
    tables: tuple[list[int], int, int, int] | None = None  # set on the run's first chance
    bounded = floor > -math.inf and gv > 0.0  # a run's bound can stop it (never at -inf)
    seen, g = -1.0, 0
    while g < count:
        gain = (gained - g) * gv
        if bounded:
            bound = 1.0 * worth + gain - keep - cost if zero_five else worth + gain + extra - keep
            if bound < floor:
                break
        final = shown + g + my_speed
        if final <= best:
            p = 0.0
        elif not frame.later_count:
            p = 1.0
        else:
            if tables is None:
                tables = frame.table(lichen_after, blocks)
                strike = not lichen_after and value in STRUCK_BY_LICHEN and tables[1] > 0
            if strike:
                lowest = final - value if final - value > struck else struck
            p = _beaten(frame, final, lowest, tables, strike, lichen_after)
        score = p * worth + gain
        score = score - keep - cost if zero_five else score + extra - keep
        g += 1
        if only_sensible and g > 1:
            # Gas that cannot win, or wins no more often, only feeds the middle.
            if p <= 0.0 or p <= seen + 1e-9:
                continue
            seen = p
        found.append((start + g - 1, score, p))
        if score > top:
            top = score
            if score - slack > floor:
                floor = score - slack
                bounded = gv > 0.0
        if shortcut:
            # The chance only grows with the gas and the score falls by its worth: skip
            # to the gas the card needs to win at all; stop past a certain win.
            if p >= 1.0 and (g > 1 or not only_sensible):
                break
            if g == 1 and final <= best:
                g = best - shown - my_speed + 1
    return top, floor


def score_ids(s: SimState, key: int, style: Style) -> tuple[list[float], list[float]]:
    """Every legal action's score and chance of winning (legal-set ``key``, in legal order)."""
    found = scan(s, key, style, math.inf, False)[0]
    return [f[1] for f in found], [f[2] for f in found]


#: Legal actions that differ only in gas (0, 1, 2, ...): the first's index, how many,
#: and the (kind, suit, value, effect) they share.
Group = tuple[int, int, int, int, int, int]
_GROUPS: dict[int, tuple[Group, ...]] = {}


def _groups(key: int) -> tuple[Group, ...]:
    """The legal actions of legal-set ``key`` as runs (cached in :data:`_GROUPS`)."""
    runs: list[list[int]] = []
    for i, a in enumerate(legal_ids(key)):
        kind, suit, gas, value, effect = INFO[a]
        if gas and runs and runs[-1][0] + runs[-1][1] == i and runs[-1][1] == gas:
            runs[-1][1] += 1
        else:
            runs.append([i, 1, kind, suit, value, effect])
    return remember(_GROUPS, key, tuple((r[0], r[1], r[2], r[3], r[4], r[5]) for r in runs))


def choose_id(s: SimState, style: Style, rng: Rng) -> int:
    """The action id ``style`` plays for the seat to act, drawn with ``rng`` from what it
    worked out (:func:`decide`): the best score (ties at random), or with a ``temperature``
    the first sensible action whose running softmax sum passes a uniform point below the
    total."""
    ids, running = decide(s, style)
    if running is None:
        return ids[0] if len(ids) == 1 else ids[rng.below(len(ids))]
    pick = (rng.next_u64() >> 11) * (1.0 / (1 << 53)) * running[-1]
    found = bisect_right(running, pick)
    return ids[found] if found < len(ids) else ids[-1]


def decide(s: SimState, style: Style, memo: TrickMemo | None = None) -> Choice:
    """What ``style`` draws from for the seat to act (:func:`choose_id`): the best scores' tie,
    or with a temperature the softmax weights of the sensible actions. A rollout passes
    its ``memo`` to every decision it makes."""
    key = s.legal_key()
    legal = LEGAL_CACHE.get(key) or legal_ids(key)
    temperature = style.temperature
    if temperature <= 0.0:
        found, best = scan(s, key, style, 1e-9, False, memo)
        best -= 1e-9
        return tuple([legal[f[0]] for f in found if f[1] >= best]), None
    found, best = scan(s, key, style, math.inf, True, memo)
    exp = math.exp
    weights = [exp((score - best) / temperature) for score in map(_SCORE, found)]
    return tuple([legal[f[0]] for f in found]), tuple(accumulate(weights))


_SCORE = itemgetter(1)
