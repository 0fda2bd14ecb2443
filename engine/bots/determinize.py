"""Sampling the hidden cards a seat cannot see, to turn its observation into a full game.

The hard bot searches "determinized" games: copies of the race in which every unknown
card has been dealt at random, consistently with what the observing seat knows.

* The unknown pool is the deck, minus the seat's own hand, minus every card face up this
  round (completed tricks and the current one).
* Hidden slots are filled from a shuffle of that pool: each other seat's hand (its size is
  public), each face-down card of the current trick (Tune Ups), the set-aside cards of
  Larger Hands, and the rest, which stands for everything discarded unseen or already
  played this round (Tune Ups and 0/5 discards of completed tricks, and face-up cards of
  completed tricks, which go back to the discard pile where they are).

A Tune Up may be any card (R7), so the pool carries no further constraint. The sampler
reads only the observation: the real hidden cards cannot influence it.

>>> from engine import new_game
>>> from engine.rng import Rng
>>> game = new_game(players=4, seed=3)
>>> obs = game.observation(game.current_seat)
>>> sample = Determinizer(obs).sample(Rng(1))
>>> sample.observation(obs["seat"]) == obs
True
"""

from __future__ import annotations

from engine.actions import ACTION_TYPE_BY_ID, ActionType
from engine.cards import SUIT_BY_ID, SUIT_ORDER, Suit, ZeroEffect
from engine.game import Game, Play
from engine.rng import Rng
from engine.variants import Variants
from engine.view import Observation, PublicPlay, copy_record

_PLAY = ActionType.PLAY
_TUNE_UP = ActionType.TUNE_UP


def unknown_pool(observation: Observation) -> list[Suit]:
    """The cards the observing seat cannot place, in a fixed (sorted) order."""
    counts = {SUIT_BY_ID[name]: n for name, n in observation["deck"]["copies"].items()}
    for card in observation["hand"]:
        counts[SUIT_BY_ID[card]] -= 1
    for play in _face_up_this_round(observation):
        counts[play] -= 1
    pool: list[Suit] = []
    for suit in SUIT_ORDER:
        n = counts.get(suit, 0)
        if n < 0:
            raise ValueError("The observation shows more cards of a suit than the deck holds.")
        pool.extend([suit] * n)
    return pool


def _face_up(plays: list[PublicPlay]) -> list[Suit]:
    return [SUIT_BY_ID[p["suit"]] for p in plays if p["type"] == _PLAY and p["suit"] is not None]


def _face_up_this_round(observation: Observation) -> list[Suit]:
    cards: list[Suit] = []
    for record in observation["round_tricks"]:
        cards.extend(_face_up(record["plays"]))
    cards.extend(_face_up(observation["trick_plays"]))
    return cards


def _lap_order(observation: Observation) -> list[int]:
    """A lap history consistent with the public laps: only its last entry matters (R6).

    Laps are gained only on sixth tricks, so whoever led this round's first trick is the
    most recent lap gainer whenever anyone has a lap.
    """
    laps = [p["laps"] for p in observation["players"]]
    tricks = observation["round_tricks"]
    first_lead = tricks[0]["lead"] if tricks else observation["lead"]
    order = [s for s, n in enumerate(laps) if s != first_lead for _ in range(n)]
    order.extend([first_lead] * laps[first_lead])
    return order


def _trick_play(play: PublicPlay, speed: int, card: Suit | None) -> Play:
    """A card of the current trick as the game holds it; ``card`` is a Tune Up's sampled
    identity. A Tune Up's speed is hidden too but plays no part (it cannot win): the
    seat's current speed stands in for it."""
    effect = play["zero_effect"]
    return Play(
        play["seat"],
        ACTION_TYPE_BY_ID[play["type"]],
        card if play["suit"] is None else SUIT_BY_ID[play["suit"]],
        play["gas"],
        speed if play["speed"] is None else play["speed"],
        play["value"],
        None if effect is None else ZeroEffect(effect),
    )


class Determinizer:
    """Samples full games consistent with one seat's observation.

    Everything public is read once; each :meth:`sample` deals the unknown pool into the
    hidden slots and builds the game with :meth:`Game.from_parts`.
    """

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.seat = observation["seat"]
        self.pool = unknown_pool(observation)
        players = observation["players"]
        self.hand = [SUIT_BY_ID[card] for card in observation["hand"]]
        self.hand_sizes = [0 if s == self.seat else p["hand_size"] for s, p in enumerate(players)]
        self.variants = Variants.from_dict(observation["variants"])
        self.hidden_plays = sum(p["type"] == _TUNE_UP for p in observation["trick_plays"])
        self.set_aside = observation["set_aside"]
        self.face_up_done = [
            card for record in observation["round_tricks"] for card in _face_up(record["plays"])
        ]
        self.round_tricks = [copy_record(r) for r in observation["round_tricks"]]
        last = observation["last_trick"]
        self.last_trick = None if last is None else copy_record(last)
        self.lap_order = _lap_order(observation)
        needed = sum(self.hand_sizes) + self.hidden_plays + self.set_aside
        if needed > len(self.pool):
            raise ValueError("The observation hides more cards than the deck can supply.")

    def sample(self, rng: Rng) -> Game:
        """A full game whose hidden cards are a fresh random deal of the unknown pool.

        Its generator (future deals) is seeded from ``rng`` too: the real one is secret.
        """
        cards = list(self.pool)
        rng.shuffle(cards)
        at = 0
        hands: list[list[Suit]] = []
        for seat, size in enumerate(self.hand_sizes):
            hands.append(self.hand if seat == self.seat else cards[at : at + size])
            at += size
        obs = self.observation
        players = obs["players"]
        plays = []
        for p in obs["trick_plays"]:
            hidden = None
            if p["type"] == _TUNE_UP:
                hidden, at = cards[at], at + 1
            plays.append(_trick_play(p, players[p["seat"]]["speed"], hidden))
        set_aside = cards[at : at + self.set_aside]
        at += self.set_aside
        return Game.from_parts(
            players=obs["players_count"],
            variants=self.variants,
            seed=0,
            rng_state=rng.next_u64(),
            round=obs["round"],
            trick=obs["trick"],
            lead=obs["lead"],
            hands=hands,
            gas=[p["gas"] for p in players],
            speed=[p["speed"] for p in players],
            laps=[p["laps"] for p in players],
            middle=obs["middle"],
            removed=obs["removed"],
            zero_five=[p["zero_five_available"] for p in players],
            plays=plays,
            discards=self.face_up_done + cards[at:],
            set_aside=set_aside,
            round_tricks=self.round_tricks,
            last_trick=self.last_trick,
            lap_order=self.lap_order,
            winner=obs["winner"],
        )


def determinize(observation: Observation, rng: Rng) -> Game:
    """One full game consistent with ``observation`` (see :class:`Determinizer`)."""
    return Determinizer(observation).sample(rng)
