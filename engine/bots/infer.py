"""Inference from the opponents' plays: how likely a sampled world makes what they did.

A world the determinizer deals (:mod:`engine.bots.determinize`) is consistent with what
the seat saw, but it takes no account of *how* the others played: a seat that led a Tune
Up in trick 1 probably held no strong card, yet a uniform deal gives it strong cards as
often as weak ones. :class:`Inference` scores a world by the likelihood of every
opponent's play this round under the opponent model (the normal policy's scores through
a softmax), replaying the round from its first trick with the hands the world implies:
each seat's sampled hand plus every card it played since, face up (public) or face down
(the world's unseen discards, handed to this round's Tune Ups in turn). The search then
weighs each world by that likelihood (importance sampling: a uniform deal reweighted
towards the deals the opponents' plays point to).

The round's public numbers at its start (gas, middle) are not in the view; they are
worked out once per decision by replaying the public plays and correcting the start
until the replay ends on the view's numbers. Where that cannot be matched exactly the
replay lends a seat the gas a recorded play needs, so every recorded play stays legal
and every trick has its real winner. Only the base game's cards are replayed: with the
0 suit or the 0/5 card in the game (effects that depend on removed gas and a hidden
discard) no world is weighted.
"""

from __future__ import annotations

import math

from engine.actions import Action
from engine.bots.heuristic import NORMAL, Style
from engine.bots.rollout import score_ids, sensible
from engine.cards import MAX_GAS, SUIT_ORDER, Suit
from engine.seat_view import PUBLIC_FORMS, TUNED, SeatView
from engine.sim import ACTION_ID, INFO, LICHEN, PLAY, SUIT_INDEX, SUITS, SimState, legal_ids

#: Per public form of a face-up card: its action id (the 0/5 card has none here).
_FORM_ACTION: dict[int, int] = {}
for _i, _form in enumerate(PUBLIC_FORMS):
    for _a, _info in enumerate(INFO):
        if _form[0] == PLAY and _info == _form:
            _FORM_ACTION[_i] = _a
            break
#: Per suit index: the id of the Tune Up of that card.
_TUNE_UP = [ACTION_ID[Action.tune_up(suit)] for suit in SUIT_ORDER]
#: The floor of an opponent's modelled chance of a play: a model that is sometimes
#: wrong must not let one play rule a world out altogether.
FLOOR = 0.02

#: One recorded play of the round: seat, action id (-1: a Tune Up whose card the world
#: supplies), where that card comes from (k >= 0: the k-th unseen discard; -1 - j: the
#: j-th play of the current trick), and the gas the replay lends the seat before it.
Step = tuple[int, int, int, int]


def _steps(view: SeatView) -> list[tuple[int, int, int]] | None:
    """The round's plays in order as (seat, action id or -1, card source), or None when
    one of them is not a base-game card."""
    steps: list[tuple[int, int, int]] = []
    discards = 0
    for trick in view.round_tricks:
        for seat, form, _ in trick[2]:
            if TUNED[form]:
                steps.append((seat, -1, discards))
                discards += 1
            elif form in _FORM_ACTION:
                steps.append((seat, _FORM_ACTION[form], 0))
            else:
                return None
    for j, (seat, form, _) in enumerate(view.trick_plays):
        if TUNED[form]:
            steps.append((seat, -1, -1 - j))
        elif form in _FORM_ACTION:
            steps.append((seat, _FORM_ACTION[form], 0))
        else:
            return None
    return steps


def _start(view: SeatView, gas: list[int], middle: int) -> SimState:
    """The round's first trick with the given public numbers and empty hands."""
    first_lead = view.round_tricks[0][1] if view.round_tricks else view.lead
    no_cards: list[list[Suit]] = [[] for _ in range(view.players)]
    order = [s for s, n in enumerate(view.laps) for _ in range(n)]
    return SimState.from_parts(
        players=view.players,
        variants=view.variants,
        seed=0,
        rng_state=0,
        round=view.round,
        trick=1,
        lead=first_lead,
        hands=no_cards,
        gas=gas,
        speed=[0] * view.players,
        laps=view.laps,
        middle=middle,
        removed=view.removed,
        zero_five=view.zero_five,
        plays=[],
        discards=[],
        set_aside=[],
        round_tricks=[],
        last_trick=None,
        lap_order=order or [first_lead],
        winner=None,
    )


def _give(s: SimState, seat: int, suit: int) -> None:
    s.hands[seat][suit] += 1
    s.masks[seat] |= 1 << suit


def _replay_public(
    view: SeatView, steps: list[tuple[int, int, int]], gas: list[int], middle: int
) -> tuple[SimState, list[int]]:
    """Replay the public plays from a start (a Tune Up of a stand-in card), lending a seat
    the gas a play needs; the end state and the gas lent before each step."""
    s = _start(view, gas, middle)
    lent: list[int] = []
    for seat, action, _ in steps:
        if action < 0:
            action = _TUNE_UP[LICHEN]
        _give(s, seat, INFO[action][1])
        lend = 0
        while action not in s.legal() and s.gas[seat] + lend < MAX_GAS:
            lend += 1
            s.gas[seat] += 1
        lent.append(lend)
        s.apply(action)
    return s, lent


def _fit_start(view: SeatView, steps: list[tuple[int, int, int]]) -> tuple[SimState, list[Step]]:
    """The round's start (empty hands) whose public replay comes closest to the view's
    gas and middle, and the steps with the gas each must be lent."""
    spent = [0] * view.players
    for seat, action, _ in steps:
        if action >= 0:
            spent[seat] += INFO[action][2]
    gas = [min(MAX_GAS, g + spent[s]) for s, g in enumerate(view.gas)]
    middle = view.middle
    best: tuple[int, list[int], int, list[int]] | None = None
    for _ in range(4):
        end, lent = _replay_public(view, steps, gas, middle)
        miss = [g - e for g, e in zip(view.gas, end.gas, strict=True)]
        error = sum(map(abs, miss)) + abs(view.middle - end.middle)
        if best is None or error < best[0]:
            best = (error, list(gas), middle, lent)
        if not error:
            break
        gas = [max(0, min(MAX_GAS, g + m)) for g, m in zip(gas, miss, strict=True)]
        middle = max(0, middle + view.middle - end.middle)
    assert best is not None
    _, gas, middle, lent = best
    return _start(view, gas, middle), [
        (seat, action, source, lend)
        for (seat, action, source), lend in zip(steps, lent, strict=True)
    ]


def log_chance(s: SimState, action: int, style: Style, temperature: float) -> float:
    """The log of the modelled chance that the seat to act in ``s`` plays ``action``: a
    softmax at ``temperature`` over its sensible actions' scores (every legal one when
    ``action`` is not sensible), floored at :data:`FLOOR` of a uniform pick."""
    key = s.legal_key()
    legal = legal_ids(key)
    scores, chances = score_ids(s, key, style)
    here = legal.index(action)
    pool = sensible(legal, scores, chances)
    if here not in pool:
        pool = list(range(len(legal)))
    top = max(scores[i] for i in pool)
    total = sum(math.exp((scores[i] - top) / temperature) for i in pool)
    chance = math.exp((scores[here] - top) / temperature) / total
    return math.log((1.0 - FLOOR) * chance + FLOOR / len(pool))


class Inference:
    """Scores sampled worlds of one decision by the likelihood of the opponents' plays
    (module docstring); :attr:`active` is False when there is nothing to score."""

    def __init__(self, view: SeatView, temperature: float, style: Style = NORMAL) -> None:
        if view.seat is None:
            raise ValueError("A spectator's view has no opponents to read.")
        self.seat = view.seat
        self.temperature = temperature
        self.style = style
        variants = view.variants
        steps = None if variants.zero_suit or variants.zero_five else _steps(view)
        self.active = (
            temperature > 0.0
            and steps is not None
            and any(seat != self.seat for seat, _, _ in steps)
        )
        self.steps: list[Step] = []
        if self.active and steps is not None:
            self.start, self.steps = _fit_start(view, steps)
        self.tune_ups = sum(1 for _, a, source, _ in self.steps if a < 0 and source >= 0)

    def log_weight(self, world: SimState, rest: list[Suit]) -> float:
        """The log likelihood of the opponents' plays this round in ``world`` (whose
        unseen discards, as dealt, are ``rest``); 0 when inactive."""
        if not self.active or len(rest) < self.tune_ups:
            return 0.0
        s = self.start.clone()
        cards = self._cards(world, rest)
        for (seat, _, _, _), card in zip(self.steps, cards, strict=True):
            _give(s, seat, card)
        for seat in range(s.players):
            for suit in range(SUITS):
                for _ in range(world.hands[seat][suit]):
                    _give(s, seat, suit)
        total = 0.0
        for (seat, action, _, lend), card in zip(self.steps, cards, strict=True):
            if action < 0:
                action = _TUNE_UP[card]
            s.gas[seat] += lend
            if seat != self.seat:
                total += log_chance(s, action, self.style, self.temperature)
            s.apply(action)
        return total

    def _cards(self, world: SimState, rest: list[Suit]) -> list[int]:
        """The card of each step: a face-up card's own, a Tune Up's from the world."""
        cards = []
        for _, action, source, _ in self.steps:
            if action >= 0:
                cards.append(INFO[action][1])
            elif source >= 0:
                cards.append(SUIT_INDEX[rest[source]])
            else:
                cards.append(INFO[world.plays[-1 - source][1]][1])
        return cards
