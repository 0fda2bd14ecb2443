"""Sampling the hidden cards a seat cannot see, to turn its view into a full game (a world
the hard bot searches). The unknown pool is the deck less the seat's own hand and every
card face up this round; a shuffle of it fills the other hands (their sizes are public),
the current trick's Tune Ups (any card, R7), the set-aside cards of Larger Hands and, with
the rest, this round's unseen discards. Only the seat's view is read, so the real hidden
cards cannot influence a sample.

>>> from engine import Game, new_game
>>> from engine.rng import Rng
>>> game = new_game(players=4, seed=3)
>>> obs = game.observation(game.current_seat)
>>> sample = Game.over(Determinizer(obs).sample_parts(Rng(1))[0])
>>> sample.observation(obs["seat"]) == obs
True
"""

from __future__ import annotations

from engine.actions import Action, ActionType
from engine.bots.base import Seen, as_view
from engine.cards import SUIT_ORDER, Suit, ZeroEffect
from engine.game import Play
from engine.rng import Rng
from engine.seat_view import FACE_UP, FORM_ACTION, PUBLIC_FORMS, TUNED, SeatView
from engine.shapes import TrickRecord
from engine.sim import (
    ACTION_ID,
    GAS,
    LICHEN,
    PLAY,
    SPEED,
    SUIT_INDEX,
    SUITS,
    TUNE_UP,
    ZERO_FIVE,
    GameParts,
    SimState,
    deck_copies,
)

_KIND = {PLAY: ActionType.PLAY, ZERO_FIVE: ActionType.ZERO_FIVE}
_EFFECT = {SPEED: ZeroEffect.SPEED, GAS: ZeroEffect.GAS}


def _pool_counts(view: SeatView) -> list[int]:
    """Per suit index, the cards the observing seat cannot place."""
    counts = list(deck_copies(view.players, view.variants))
    for i in range(SUITS):
        counts[i] -= view.hand[i] + view.face_up[i]
        if counts[i] < 0:
            raise ValueError("The observation shows more cards of a suit than the deck holds.")
    return counts


def _lap_order(view: SeatView) -> list[int]:
    """A lap history consistent with the public laps: only its last entry matters (R6), and
    whoever led this round's first trick gained the latest lap (laps come on sixth tricks)."""
    laps = view.laps
    tricks = view.round_tricks
    first_lead = tricks[0][1] if tricks else view.lead
    order = [s for s, n in enumerate(laps) if s != first_lead for _ in range(n)]
    order.extend([first_lead] * laps[first_lead])
    return order


def _face_up_play(seat: int, form: int, speed: int) -> Play:
    """A face-up card of the current trick as the game holds it."""
    kind, suit, gas, value, effect = PUBLIC_FORMS[form]
    card = None if suit < 0 else SUIT_ORDER[suit]
    return Play(seat, _KIND[kind], card, gas, speed, value, _EFFECT.get(effect))


class Determinizer:
    """Samples full games consistent with one seat's view, read once."""

    def __init__(self, observation: Seen) -> None:
        view = self.view = as_view(observation)
        if view.seat is None:
            raise ValueError("A spectator's view has no seat to sample the hidden cards for.")
        self.seat = view.seat
        counts = _pool_counts(view)
        self.pool = [suit for i, suit in enumerate(SUIT_ORDER) for _ in range(counts[i])]
        self.hand = view.hand_cards()
        self.hand_sizes = [0 if s == self.seat else n for s, n in enumerate(view.hand_sizes)]
        # The current trick's cards, a Tune Up as None (its card is sampled each time).
        self.plays: list[Play | None] = [
            None if TUNED[form] else _face_up_play(seat, form, speed)
            for seat, form, speed in view.trick_plays
        ]
        self.hidden_plays = sum(play is None for play in self.plays)
        self.set_aside = view.set_aside
        self.face_up_done = [
            SUIT_ORDER[PUBLIC_FORMS[form][1]]
            for trick in view.round_tricks
            for _, form, _ in trick[2]
            if FACE_UP[form]
        ]
        self.round_tricks: list[TrickRecord] = view.trick_records()
        self.last_trick = view.last_record()
        self.lap_order = _lap_order(view)
        needed = sum(self.hand_sizes) + self.hidden_plays + self.set_aside
        if needed > len(self.pool):
            raise ValueError("The observation hides more cards than the deck can supply.")
        # Each sample is this state with the pool's suit indices shuffled in (a shuffle's
        # order depends only on the length) and the trick's Tune Ups by their position.
        self.pool_ids = [SUIT_INDEX[card] for card in self.pool]
        self.done_ids = [SUIT_INDEX[card] for card in self.face_up_done]
        self.tuned = [k for k, play in enumerate(self.plays) if play is None]
        filler = [SUIT_ORDER[0]] * (self.hidden_plays + self.set_aside)
        self.template = self._state(0, [[] for _ in self.hand_sizes], filler, [])

    def sample_parts(self, rng: Rng) -> tuple[SimState, list[Suit]]:
        """The rules core of a full game whose hidden cards (and generator of future deals)
        are a fresh random deal from ``rng``, and the dealt cards that stand for this round's
        unseen discards, in the order dealt (:mod:`engine.bots.infer` hands them to the Tune
        Ups of completed tricks in turn). The state is :meth:`_state`'s for the same
        shuffle, built from a copy of a template (a search samples hundreds of worlds)."""
        cards = list(self.pool_ids)
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
            seat, _, speed = plays[k]
            plays[k] = (seat, TUNE_UP_IDS[cards[at]], speed)
            at += 1
        s.set_aside = cards[at : at + self.set_aside]
        at += self.set_aside
        rest = cards[at:]
        s.discards = self.done_ids + rest
        s.rng.state = rng.next_u64()
        return s, [SUIT_ORDER[card] for card in rest]

    def _state(
        self, rng_state: int, hands: list[list[Suit]], hidden: list[Suit], rest: list[Suit]
    ) -> SimState:
        """The sampled game with the other seats' ``hands``, the current trick's Tune Ups
        dealt from ``hidden`` in turn, then the set-aside cards, and ``rest`` standing for
        this round's unseen discards (:meth:`sample_parts` for one shuffle)."""
        view = self.view
        hands = [self.hand if seat == self.seat else hand for seat, hand in enumerate(hands)]
        plays, at = [], 0
        for play, (seat, _, _) in zip(self.plays, view.trick_plays, strict=True):
            if play is None:
                # A Tune Up's hidden speed plays no part: the seat's current one stands in.
                play = Play(seat, ActionType.TUNE_UP, hidden[at], 0, view.speed[seat], None, None)
                at += 1
            plays.append(play)
        set_aside = hidden[at : at + self.set_aside]
        return SimState.from_parts(
            GameParts(
                players=view.players,
                variants=view.variants,
                seed=0,
                rng_state=rng_state,
                round=view.round,
                trick=view.trick,
                lead=view.lead,
                hands=hands,
                gas=view.gas,
                speed=view.speed,
                laps=view.laps,
                middle=view.middle,
                removed=view.removed,
                zero_five=view.zero_five,
                discards=self.face_up_done + rest,
                plays=plays,
                set_aside=set_aside,
                round_tricks=self.round_tricks,
                last_trick=self.last_trick,
                lap_order=self.lap_order,
                winner=view.winner,
            )
        )


TUNE_UP_IDS = tuple(ACTION_ID[Action.tune_up(suit)] for suit in SUIT_ORDER)
"""Per suit index, the action id of the Tune Up of that card."""


def fixed_deal(observation: Seen) -> SimState:
    """The observing seat's position as a core state for its own next decision, with no
    random draw: the view's public numbers and the seat's hand, the cards it cannot place
    dealt in suit order to the other hands and the discards, each Tune Up of the current
    trick that of one fixed card, the round's finished tricks as the face-up counts only.
    That is all the policy reads: the state is for deciding on, not for playing on.

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
    s.hands = [list(view.hand) for _ in range(view.players)]
    for other, size in enumerate(view.hand_sizes):
        if other != seat:
            s.hands[other] = [0] * SUITS
            for card in cards[at : at + size]:
                s.hands[other][card] += 1
            at += size
    s.masks = [sum(1 << i for i, n in enumerate(hand) if n) for hand in s.hands]
    s.gas, s.speed, s.laps = list(view.gas), list(view.speed), list(view.laps)
    s.middle, s.removed, s.zero_five = view.middle, view.removed, list(view.zero_five)
    s.plays, s.blocked, s.lichen, s.zf_in, s.tuners = [], 0, False, False, 0
    for player, form, speed in view.trick_plays:
        kind, card = PUBLIC_FORMS[form][:2]
        if kind == PLAY:
            s.blocked |= 1 << card
            s.lichen = s.lichen or card == LICHEN
        elif kind == TUNE_UP:
            s.tuners += 1
        else:
            s.zf_in = True
        s.plays.append((player, FORM_ACTION[form], speed))
    s.face_up = list(view.face_up)
    s.discards = cards[at:]
    s.set_aside, s.tricks, s.last, s.lap_order = [], [], None, _lap_order(view)
    s.winner = -1 if view.winner is None else view.winner
    s.turn = (s.lead + len(s.plays)) % s.players
    return s
