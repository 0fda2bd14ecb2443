"""Inference from the opponents' plays: :class:`Inference` scores a sampled world by the
likelihood of every opponent's play this round under the normal policy's softmax (a seat
that led a Tune Up probably held no strong card), replaying the round from its first trick
with the hands the world implies, the mean over every start that replays legally to the
view's numbers (:func:`round_starts`). With the 0 suit or the 0/5 card no world is weighted.
"""

from __future__ import annotations

import math

from engine.bots.determinize import TUNE_UP_IDS
from engine.bots.heuristic import NORMAL, Style
from engine.bots.policy import scan, score_ids
from engine.cards import MAX_GAS, Suit
from engine.seat_view import SeatView
from engine.sim import INFO, PLAY, SALTY, SUIT_INDEX, SUITS, TUNE_UP, SimState, legal_ids

#: The floor of a play's modelled chance: one play must not rule a world out altogether.
FLOOR = 0.02

#: One play of the round: seat, action id (-1: a Tune Up whose card the world supplies) and
#: where that card comes from (k >= 0: the k-th unseen discard; -1 - j: the trick's j-th).
Step = tuple[int, int, int]
#: A round start: each seat's gas, the middle and the removed gas.
Start = tuple[tuple[int, ...], int, int]


def _steps(view: SeatView) -> list[Step] | None:
    """The round's plays in order, or None when one of them is not a base-game card."""
    steps: list[Step] = []
    done = [play for trick in view.round_tricks for play in trick[2]]
    discards = 0
    for j, (seat, a, _) in enumerate([*done, *view.trick_plays]):
        if INFO[a][0] == TUNE_UP:
            steps.append((seat, -1, discards if j < len(done) else len(done) - 1 - j))
            discards += 1
        elif INFO[a][0] == PLAY:
            steps.append((seat, a, 0))
        else:
            return None
    return steps


#: What the middle does in a round, from one start: per trick, per step, whether a 2
#: took a gas from it (R10); and per trick the Tune Up share (each, lost) or None (R11).
_MiddlePath = list[tuple[list[bool], tuple[int, int] | None]]


def _middle_path(tricks: list[tuple[list[Step], bool]], middle: int) -> tuple[int, _MiddlePath]:
    """What the middle ends on from ``middle`` at the round's start, and its path (it
    depends on nobody's gas)."""
    path: _MiddlePath = []
    for plays, complete in tricks:
        took, tuners, spent = [], 0, 0
        for _, action, _ in plays:
            salty = action >= 0 and INFO[action][1] == SALTY and middle > 0
            middle -= salty
            took.append(salty)
            if action < 0:
                tuners += 1
            else:
                spent += INFO[action][2]
        share = None
        if complete:
            if tuners and middle:
                share, middle = divmod(middle, tuners), 0
            middle += spent
        path.append((took, share))
    return middle, path


def _seat_gas(
    seat: int, tricks: list[tuple[list[Step], bool]], path: _MiddlePath, gas: int
) -> tuple[int, int] | None:
    """A seat's gas at the end of the round from ``gas`` at its start and what its overflow
    added to the removed gas (R4); None when a play needs more gas than it has (R8)."""
    lost = 0
    for (plays, _), (took, share) in zip(tricks, path, strict=True):
        tuned = False
        for (who, action, _), salty in zip(plays, took, strict=True):
            if who != seat:
                continue
            if action < 0:
                tuned = True
                continue
            if salty:
                if gas < MAX_GAS:
                    gas += 1
                else:
                    lost += 1
            spend = INFO[action][2]
            if gas < spend:
                return None
            gas -= spend
        if share is not None and tuned:
            gained = min(share[0], MAX_GAS - gas)
            gas += gained
            lost += share[0] - gained
    return gas, lost


def round_starts(view: SeatView, steps: list[Step]) -> list[Start]:
    """Every round start from which ``steps`` replay legally to the view's gas, middle and
    removed gas, in a fixed order. Gas is never made or destroyed in the base game, which
    bounds the middle at the start."""
    tricks: list[tuple[list[Step], bool]] = []  # the steps trick by trick, and if complete
    at = 0
    for trick in view.round_tricks:
        tricks.append((steps[at : at + len(trick[2])], True))
        at += len(trick[2])
    tricks.append((steps[at:], False))
    pending = sum(INFO[a][2] for _, a, _ in tricks[-1][0] if a >= 0)
    total = sum(view.gas) + view.middle + view.removed + pending
    starts: list[Start] = []
    for middle in range(total + 1):
        end, path = _middle_path(tricks, middle)
        if end != view.middle:
            continue
        lost = sum(share[1] for _, share in path if share is not None)
        combos: list[tuple[tuple[int, ...], int]] = [((), lost)]
        for seat in range(view.players):
            options = []
            for gas in range(MAX_GAS + 1):
                result = _seat_gas(seat, tricks, path, gas)
                if result is not None and result[0] == view.gas[seat]:
                    options.append((gas, result[1]))
            combos = [((*c, g), n + more) for c, n in combos for g, more in options]
        starts.extend((c, middle, view.removed - n) for c, n in combos if n <= view.removed)
    return starts


def _start(view: SeatView, start: Start) -> SimState:
    """The round's first trick from ``start`` with empty hands."""
    first_lead = view.round_tricks[0][1] if view.round_tricks else view.lead
    order = [s for s, n in enumerate(view.laps) for _ in range(n)]
    s = SimState.blank(view.players, view.variants)
    s.round, s.lead, s.turn = view.round, first_lead, first_lead
    s.gas, s.middle, s.removed = list(start[0]), start[1], start[2]
    s.laps, s.zero_five, s.lap_order = list(view.laps), list(view.zero_five), order or [first_lead]
    return s


def log_chance(s: SimState, action: int, style: Style, temperature: float) -> float:
    """The log of the modelled chance that the seat to act plays ``action``: a softmax at
    ``temperature`` over the sensible actions (all when ``action`` is not one), floored at
    :data:`FLOOR` of a uniform pick."""
    key = s.legal_key()
    here = legal_ids(key).index(action)
    pool = {i: score for i, score, _ in scan(s, key, style, math.inf, True)[0]}
    if here not in pool:
        pool = dict(enumerate(score_ids(s, key, style)[0]))
    top = max(pool.values())
    total = sum(math.exp((score - top) / temperature) for score in pool.values())
    chance = math.exp((pool[here] - top) / temperature) / total
    return math.log((1.0 - FLOOR) * chance + FLOOR / len(pool))


def _log_sum(logs: list[float]) -> float:
    top = max(logs)
    return top + math.log(sum(math.exp(x - top) for x in logs))


#: Replays by the gas and middle they reached, each with its log likelihood so far.
_Live = dict[tuple[tuple[int, ...], int], tuple[SimState, float]]


class Inference:
    """Scores sampled worlds of one decision; :attr:`active` is False when there is
    nothing to score."""

    def __init__(self, view: SeatView, temperature: float, style: Style = NORMAL) -> None:
        if view.seat is None:
            raise ValueError("A spectator's view has no opponents to read.")
        self.seat = view.seat
        self.temperature = temperature
        self.style = style
        variants = view.variants
        steps = None if variants.zero_suit or variants.zero_five else _steps(view)
        self.steps: list[Step] = steps or []
        self.starts: list[Start] = []
        if temperature > 0.0 and any(seat != self.seat for seat, _, _ in self.steps):
            self.starts = round_starts(view, self.steps)
        self.active = bool(self.starts)
        self.firsts = [_start(view, start) for start in self.starts]
        self.tune_ups = sum(1 for _, a, source in self.steps if a < 0 and source >= 0)
        self._memo: dict[tuple[int, ...], float] = {}

    def log_weight(self, world: SimState, rest: list[Suit], floor: float = -math.inf) -> float:
        """The log likelihood of the opponents' plays this round in ``world`` (its unseen
        discards: ``rest``), 0 when inactive; once sure to end below ``floor``, some value
        below it."""
        if not self.active or len(rest) < self.tune_ups:
            return 0.0
        # Each step's card (a face-up card's own, a Tune Up's from the world), and the
        # round's first trick from each start with the hands the world implies.
        cards, hands = [], [list(hand) for hand in world.hands]
        for seat, action, source in self.steps:
            if action >= 0:
                card = INFO[action][1]
            elif source >= 0:
                card = SUIT_INDEX[rest[source]]
            else:
                card = INFO[world.plays[-1 - source][1]][1]
            cards.append(card)
            hands[seat][card] += 1
        masks = [sum(1 << i for i in range(SUITS) if hand[i]) for hand in hands]
        live: _Live = {}
        for first in self.firsts:
            s = first.clone()
            s.hands = [list(hand) for hand in hands]
            s.masks = list(masks)
            live[tuple(s.gas), s.middle] = (s, 0.0)
        floor += math.log(len(self.starts))
        memo = self._memo
        for k, ((seat, action, _), card) in enumerate(zip(self.steps, cards, strict=True)):
            if action < 0:
                action = TUNE_UP_IDS[card]
            # Replays from starts that reach the same gas and middle go on as one, their
            # likelihoods summed (removed gas matters only to the cards left out).
            moved: _Live = {}
            for s, log in live.values():
                if seat != self.seat:
                    # The policy reads the other hands by their size only, so a play's
                    # chance depends on the world through the player's own hand alone.
                    key = (k, action, *s.hands[seat], *s.gas, s.middle)
                    chance = memo.get(key)
                    if chance is None:
                        chance = memo[key] = log_chance(s, action, self.style, self.temperature)
                    log += chance
                s.apply(action)
                at = tuple(s.gas), s.middle
                if at in moved:
                    log = _log_sum([log, moved[at][1]])
                moved[at] = (s, log)
            live = moved
            total = _log_sum([log for _, log in live.values()])
            if total < floor:
                break
        return total - math.log(len(self.starts))
