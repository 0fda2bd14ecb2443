"""Helpers shared by the bot tests: variant combinations and seeded random positions."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from engine import Game, Suit, Variants, new_game
from engine.rng import Rng

VARIANTS: list[Variants] = [
    Variants(larger_hands=larger, zero_suit=Suit.CHIPPY if zero else None, zero_five=five)
    for larger, zero, five in itertools.product((False, True), repeat=3)
]
"""Every combination of the three variants (the 0 suit replacing chippy)."""


def label(variants: Variants) -> str:
    """A short test id for a variant set."""
    parts = [
        n
        for n, on in (
            ("lh", variants.larger_hands),
            ("zero", variants.zero),
            ("05", variants.zero_five),
        )
        if on
    ]
    return "+".join(parts) or "base"


def random_positions(
    players: int, variants: Variants, seed: int, count: int, stride: int = 1
) -> Iterator[Game]:
    """Yield ``count`` positions met while random play runs through seeded games.

    Every ``stride``-th decision point is yielded (the game itself, not a copy: callers
    must not mutate it). Laps are pre-set on some games so that the 0/5 card's value 5 and
    the game-winning lap come up too.
    """
    rng = Rng(seed)
    yielded = decision = game_no = 0
    while yielded < count:
        laps = [rng.below(2) for _ in range(players)] if game_no % 2 else None
        game = new_game(players=players, seed=seed * 1000 + game_no, variants=variants)
        if laps is not None:
            game.laps = laps
        game_no += 1
        while not game.is_over and yielded < count:
            if decision % stride == 0:
                yield game
                yielded += 1
            decision += 1
            actions = game.legal_actions()
            game.apply(actions[rng.below(len(actions))])


def all_cards(game: Game) -> Counter[Suit]:
    """Every card the game holds anywhere (hands, the trick, discards, set aside)."""
    cards: Counter[Suit] = Counter()
    for hand in game.hands:
        cards.update(hand)
    cards.update(p.card for p in game.plays if p.card is not None)
    cards.update(game.discards)
    cards.update(game.set_aside)
    return cards
