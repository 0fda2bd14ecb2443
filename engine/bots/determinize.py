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

from typing import Any

from engine.cards import SUIT_ORDER, Suit
from engine.game import Game
from engine.rng import Rng


def unknown_pool(observation: dict[str, Any]) -> list[Suit]:
    """The cards the observing seat cannot place, in a fixed (sorted) order."""
    counts = {Suit(name): int(n) for name, n in observation["deck"]["copies"].items()}
    for card in observation["hand"]:
        counts[Suit(card)] -= 1
    for play in _face_up_this_round(observation):
        counts[play] -= 1
    pool: list[Suit] = []
    for suit in SUIT_ORDER:
        n = counts.get(suit, 0)
        if n < 0:
            raise ValueError("The observation shows more cards of a suit than the deck holds.")
        pool.extend([suit] * n)
    return pool


def _face_up_this_round(observation: dict[str, Any]) -> list[Suit]:
    cards: list[Suit] = []
    for record in observation["round_tricks"]:
        cards.extend(Suit(p["suit"]) for p in record["plays"] if p["type"] == "play")
    cards.extend(Suit(p["suit"]) for p in observation["trick_plays"] if p["type"] == "play")
    return cards


def _lap_order(observation: dict[str, Any]) -> list[int]:
    """A lap history consistent with the public laps: only its last entry matters (R6).

    Laps are gained only on sixth tricks, so whoever led this round's first trick is the
    most recent lap gainer whenever anyone has a lap.
    """
    laps = [int(p["laps"]) for p in observation["players"]]
    tricks = observation["round_tricks"]
    first_lead = int(tricks[0]["lead"] if tricks else observation["lead"])
    order = [s for s, n in enumerate(laps) if s != first_lead for _ in range(n)]
    order.extend([first_lead] * laps[first_lead])
    return order


class Determinizer:
    """Samples full games consistent with one seat's observation.

    The template game (everything public plus the seat's own hand) is built once through
    :meth:`Game.from_dict`; each :meth:`sample` clones it and deals the unknown pool into
    the hidden slots.
    """

    def __init__(self, observation: dict[str, Any]) -> None:
        self.seat = int(observation["seat"])
        self.pool = unknown_pool(observation)
        players = observation["players"]
        self.hand_sizes = [
            0 if s == self.seat else int(p["hand_size"]) for s, p in enumerate(players)
        ]
        self.hidden_plays = [
            i for i, p in enumerate(observation["trick_plays"]) if p["type"] == "tune_up"
        ]
        self.set_aside = int(observation["set_aside"])
        face_up_done = [
            p["suit"]
            for record in observation["round_tricks"]
            for p in record["plays"]
            if p["type"] == "play"
        ]
        needed = sum(self.hand_sizes) + len(self.hidden_plays) + self.set_aside
        if needed > len(self.pool):
            raise ValueError("The observation hides more cards than the deck can supply.")
        self.template = Game.from_dict(
            {
                "format": 1,
                "players": int(observation["players_count"]),
                "variants": observation["variants"],
                "seed": 0,
                "rng": 0,
                "round": observation["round"],
                "trick": observation["trick"],
                "lead": observation["lead"],
                "hands": [
                    list(observation["hand"]) if s == self.seat else [] for s in range(len(players))
                ],
                "gas": [p["gas"] for p in players],
                "speed": [p["speed"] for p in players],
                "laps": [p["laps"] for p in players],
                "middle": observation["middle"],
                "removed": observation["removed"],
                "zero_five": [p["zero_five_available"] for p in players],
                "plays": [
                    {
                        "seat": p["seat"],
                        "type": p["type"],
                        "card": p["suit"],
                        "gas": p["gas"],
                        "speed": players[p["seat"]]["speed"] if p["speed"] is None else p["speed"],
                        "value": p["value"],
                        "zero_effect": p["zero_effect"],
                    }
                    for p in observation["trick_plays"]
                ],
                "discards": face_up_done,
                "set_aside": [],
                "round_tricks": observation["round_tricks"],
                "last_trick": observation["last_trick"],
                "lap_order": _lap_order(observation),
                "winner": observation["winner"],
            }
        )

    def sample(self, rng: Rng) -> Game:
        """A full game whose hidden cards are a fresh random deal of the unknown pool.

        Its generator (future deals) is seeded from ``rng`` too: the real one is secret.
        """
        game = self.template.clone()
        cards = list(self.pool)
        rng.shuffle(cards)
        at = 0
        for seat, size in enumerate(self.hand_sizes):
            if size:
                game.hands[seat] = cards[at : at + size]
                at += size
        for index in self.hidden_plays:
            game.plays[index].card = cards[at]
            at += 1
        game.set_aside = cards[at : at + self.set_aside]
        at += self.set_aside
        game.discards.extend(cards[at:])
        game.rng.state = rng.next_u64()
        return game


def determinize(observation: dict[str, Any], rng: Rng) -> Game:
    """One full game consistent with ``observation`` (see :class:`Determinizer`)."""
    return Determinizer(observation).sample(rng)
