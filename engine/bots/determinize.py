"""Sampling the hidden cards a seat cannot see, to turn its view into a full game (a world
the hard bot searches): a shuffle of the deck less the seat's own hand and every card face
up this round fills the other hands, the current trick's Tune Ups (any card, R7), the
set-aside cards and this round's unseen discards. Only the seat's view is read, so the
real hidden cards cannot influence a sample.

>>> from engine import Game, new_game
>>> from engine.rng import Rng
>>> game = new_game(players=4, seed=3)
>>> obs = game.observation(game.current_seat)
>>> sample = Game.over(Determinizer(obs).sample_parts(Rng(1))[0])
>>> sample.observation(obs["seat"]) == obs
True
"""

from __future__ import annotations

from engine.actions import Action
from engine.bots.base import Seen, as_view
from engine.cards import SUIT_ORDER, Suit
from engine.rng import Rng
from engine.seat_view import SeatView
from engine.sim import ACTION_ID, INFO, PLAY, SUITS, TUNE_UP, SimState, deck_facts


def _pool_counts(view: SeatView) -> list[int]:
    """Per suit index, the cards the observing seat cannot place."""
    counts = list(deck_facts(view.players, view.variants)[1])
    for i in range(SUITS):
        counts[i] -= view.hand[i] + view.face_up[i]
        if counts[i] < 0:
            raise ValueError("The observation shows more cards of a suit than the deck holds.")
    return counts


class Determinizer:
    """Samples full games consistent with one seat's view, read once."""

    def __init__(self, observation: Seen) -> None:
        view = self.view = as_view(observation)
        if view.seat is None:
            raise ValueError("A spectator's view has no seat to sample the hidden cards for.")
        seat = self.seat = view.seat
        counts = _pool_counts(view)
        #: The cards the seat cannot place, as suit indices in suit order.
        self.pool = [i for i in range(SUITS) for _ in range(counts[i])]
        self.hand_sizes = [0 if s == seat else n for s, n in enumerate(view.hand_sizes)]
        #: The positions of the current trick's Tune Ups (their cards are sampled each time).
        self.tuned = [k for k, (_, a, _) in enumerate(view.trick_plays) if INFO[a][0] == TUNE_UP]
        self.hidden_plays = len(self.tuned)
        self.set_aside = view.set_aside
        needed = sum(self.hand_sizes) + self.hidden_plays + self.set_aside
        if needed > len(self.pool):
            raise ValueError("The observation hides more cards than the deck can supply.")
        self.done_ids = [
            INFO[a][1] for trick in view.round_tricks for _, a, _ in trick[2] if INFO[a][0] == PLAY
        ]
        # Each sample is this state with the pool shuffled in (a shuffle's order depends
        # only on the length): the other hands empty, the round's tricks as records.
        template = self.template = fixed_deal(view, deal=False)
        template.tricks, template.last = list(view.round_tricks), view.last_trick

    def sample_parts(self, rng: Rng) -> tuple[SimState, list[Suit]]:
        """A full game whose hidden cards (and future deals) are a fresh deal from ``rng``,
        and the cards dealt last, this round's unseen discards, in order (the inference
        hands them to the Tune Ups of completed tricks in turn)."""
        cards = list(self.pool)
        rng.shuffle(cards)
        s = self.template.clone()
        hands, masks = s.hands, s.masks
        at = 0
        for seat, size in enumerate(self.hand_sizes):
            if size:  # the observing seat's own hand is in the template (its size 0 here)
                hand, mask = hands[seat], 0
                for card in cards[at : at + size]:
                    hand[card] += 1
                    mask |= 1 << card
                masks[seat] = mask
                at += size
        plays = s.plays
        for k in self.tuned:
            # A Tune Up's hidden speed plays no part: the seat's current one stands in.
            seat = plays[k][0]
            plays[k] = (seat, TUNE_UP_IDS[cards[at]], s.speed[seat])
            at += 1
        s.set_aside = cards[at : at + self.set_aside]
        at += self.set_aside
        rest = cards[at:]
        s.discards = self.done_ids + rest
        s.rng.state = rng.next_u64()
        return s, [SUIT_ORDER[card] for card in rest]


TUNE_UP_IDS = tuple(ACTION_ID[Action.tune_up(suit)] for suit in SUIT_ORDER)
"""Per suit index, the action id of the Tune Up of that card."""


def fixed_deal(observation: Seen, deal: bool = True) -> SimState:
    """The observing seat's position as a core state for its own next decision, with no
    random draw: the cards it cannot place dealt in suit order (without ``deal``, the other
    hands left empty), each Tune Up of the current trick that of one fixed card, the
    round's finished tricks as the face-up counts only. That is all the policy reads: the
    state is for deciding on, not playing.

    >>> from engine import new_game
    >>> game = new_game(players=3, seed=4)
    >>> state = fixed_deal(game.view(game.current_seat))
    >>> state.hands[state.turn] == game.core.hands[game.current_seat]
    True
    >>> [sum(hand) for hand in state.hands] == [sum(hand) for hand in game.core.hands]
    True
    """
    view = as_view(observation)
    seat = view.seat
    if seat is None:
        raise ValueError("A spectator's view has no seat to decide for.")
    pool = _pool_counts(view)
    if sum(view.hand_sizes) - view.hand_sizes[seat] > sum(pool):
        raise ValueError("The observation hides more cards than the deck can supply.")
    s = SimState(view.players, view.variants, 0, 0)
    s.round, s.trick, s.lead = view.round, view.trick, view.lead
    cards, at = [i for i in range(SUITS) for _ in range(pool[i])], 0
    hands = [list(view.hand) for _ in range(view.players)]
    for other, size in enumerate(view.hand_sizes):
        if other != seat:
            hands[other] = [0] * SUITS
            for card in cards[at : at + size] if deal else ():
                hands[other][card] += 1
            at += size
    s.set_hands(hands)
    s.gas, s.speed, s.laps = list(view.gas), list(view.speed), list(view.laps)
    s.middle, s.removed, s.zero_five = view.middle, view.removed, list(view.zero_five)
    s.lay(list(view.trick_plays))
    s.face_up, s.discards, s.set_aside = list(view.face_up), cards[at:], []
    s.tricks, s.last = [], None
    # A lap history consistent with the public laps: only its last entry matters (R6), the
    # latest lap gained by whoever led this round's first trick.
    first = view.round_tricks[0][1] if view.round_tricks else view.lead
    s.lap_order = [p for p, n in enumerate(view.laps) if p != first for _ in range(n)]
    s.lap_order += [first] * view.laps[first]
    s.winner = -1 if view.winner is None else view.winner
    s.turn = (s.lead + len(s.plays)) % s.players
    return s
