"""The hard bot's rollouts: the policy playing a state to the end of its round, each seat
with its own style, decisions a search has worked out once drawn from again, the round's
end scored as each seat's chance of winning the race (:func:`chances`)."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence

from engine.bots.heuristic import Style
from engine.bots.policy import Choice, TrickMemo, decide
from engine.cards import TRICKS_PER_ROUND
from engine.rng import GOLDEN_GAMMA, MASK64, Rng
from engine.sim import MASKED, SimState, deck_facts, remember
from engine.variants import Variants

# A position between rounds scores as a softmax over seats of LAP_WEIGHT·laps +
# GAS_WEIGHT·gas + LEAD_WEIGHT·(leads the next round), the weights fitted (multinomial logit)
# on the round starts of 3,000 four-player games between normal bots and their winners: a
# lap is worth about ten gas, leading a round a small handicap.
LAP_WEIGHT = 3.0
GAS_WEIGHT = 0.3
LEAD_WEIGHT = -0.3


def chances(
    players: int, laps: Sequence[int], gas: Sequence[int], lead: int, winner: int | None
) -> list[float]:
    """Each seat's chance of winning from a position between rounds (exact with a ``winner``).

    >>> even = chances(3, [0, 0, 0], [5, 5, 0], 0, None)  # seat 0 leads: a small handicap
    >>> round(sum(even), 6), even[1] > even[0] > even[2]
    (1.0, True)
    >>> chances(2, [1, 0], [0, 5], 0, None)[0] > 0.5, chances(2, [1, 1], [0, 0], 0, 1)
    (True, [0.0, 1.0])
    """
    if winner is not None:
        return [1.0 if seat == winner else 0.0 for seat in range(players)]
    scores = [
        LAP_WEIGHT * laps[s] + GAS_WEIGHT * gas[s] + (LEAD_WEIGHT if s == lead else 0)
        for s in range(players)
    ]
    top = max(scores)
    weights = [math.exp(x - top) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]


class Decisions:
    """The choices of one search's rollouts by all the policy reads (the public state, the
    style, the hand to act), each still drawn with the rollout's generator. A rollout names
    its public state once (:meth:`segment`), then goes from id to id by what the others see
    of each action (:meth:`after`). A state of another table empties the cache."""

    def __init__(self) -> None:
        self.variants: Variants | None = None
        self.players = 0
        self.copies: list[int] = []
        self.segments: dict[tuple[int, ...], int] = {}
        #: The id after an action, by ``id << 10 | public action``.
        self.steps: dict[int, int] = {}
        # Segment ids are never reused, so emptying ``segments`` leaves no stale hit.
        self.next_segment = 0
        self.choices: dict[tuple[int, ...], Choice] = {}
        #: The styles keyed by id, kept alive so that an id cannot be reused.
        self.styles: dict[int, Style] = {}

    def bind(self, s: SimState, styles: list[Style]) -> None:
        variants = s.variants
        if s.players != self.players or (
            variants is not self.variants and variants != self.variants
        ):
            self.variants, self.players = variants, s.players
            self.copies = deck_facts(s.players, variants)[1]
            self.segments.clear()
            self.steps.clear()
            self.choices.clear()
        for style in styles:
            self.styles[id(style)] = style

    def segment(self, s: SimState) -> int:
        """The id of the public state of ``s`` (:class:`Decisions`)."""
        plays = s.plays
        key = (
            len(plays),
            *[x for seat, a, speed in plays for x in (seat, MASKED[a], speed)],
            s.round,
            s.trick,
            s.lead,
            s.middle,
            s.removed,
            s.blocked,
            s.lichen,
            s.zf_in,
            s.tuners,
            *s.gas,
            *s.speed,
            *s.laps,
            *s.zero_five,
            *s.face_up,
            *[sum(hand) for hand in s.hands],
        )
        found = self.segments.get(key)
        if found is None:
            found = self.next_segment
            self.next_segment += 1
            remember(self.segments, key, found)
        return found

    def after(self, step: int) -> int:
        """A new id for the public state after a ``step`` not seen before."""
        found = self.next_segment
        self.next_segment += 1
        return remember(self.steps, step, found)


def rollout_seats(
    s: SimState,
    rng: Rng,
    styles: list[Style],
    deal: bool = True,
    decisions: Decisions | None = None,
    segment: int = -1,
) -> list[float]:
    """Play ``s`` to the end of its round, ``styles[i]`` playing seat ``i``, and return each
    seat's chance of winning from there; without ``deal`` the last trick deals no next
    round. ``decisions`` (a search's) plays the same, working a decision seen before out
    only once; a ``segment`` of 0 or more is the id there of the public state of ``s``,
    already bound to its table and ``styles``."""
    if s.winner >= 0:
        return outcome(s)
    if decisions is None:
        decisions = Decisions()
    if segment < 0:
        decisions.bind(s, styles)
        segment = decisions.segment(s)
    # This runs at every decision of a search: it draws as engine.bots.policy.choose_id does,
    # with Rng.next_u64 written out.
    choices, steps, hands, bisect = decisions.choices, decisions.steps, s.hands, bisect_right
    memo = TrickMemo()
    memo.copies = decisions.copies
    while True:
        style = styles[s.turn]
        ckey = (segment, id(style), *hands[s.turn])
        choice = choices.get(ckey)
        if choice is None:
            choice = remember(choices, ckey, decide(s, style, memo))
        ids, running = choice
        if running is None:
            action = ids[0] if len(ids) == 1 else ids[rng.below(len(ids))]
        else:
            state = rng.state = (rng.state + GOLDEN_GAMMA) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            pick = ((z ^ (z >> 31)) >> 11) * (1.0 / (1 << 53)) * running[-1]
            found = bisect(running, pick)
            action = ids[found] if found < len(ids) else ids[-1]
        step = segment << 10 | MASKED[action]
        after = steps.get(step)
        segment = decisions.after(step) if after is None else after
        if s.put(action):
            last = s.trick == TRICKS_PER_ROUND
            s.resolve(deal or not last)
            if last or s.winner >= 0:
                break
    return outcome(s)


def outcome(s: SimState) -> list[float]:
    """Each seat's estimated chance of winning from ``s`` at a round's end (or the game's)."""
    return chances(s.players, s.laps, s.gas, s.lead, None if s.winner < 0 else s.winner)
