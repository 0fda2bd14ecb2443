"""Small helpers shared by the engine tests: explicit deals, one-line turns, event lookups.

Kept free of assertions about the rules so that every rule check lives in a test that
names its rule id.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from engine import Action, ActionType, Event, Game, Suit, Variants, ZeroEffect, new_game
from engine.rng import Rng

#: Every combination of the three variants (R18–R22), the 0 suit replacing chippy.
VARIANT_COMBOS: tuple[Variants, ...] = tuple(
    Variants(larger_hands=larger, zero_suit=Suit.CHIPPY if zero else None, zero_five=zero_five)
    for larger, zero, zero_five in itertools.product((False, True), repeat=3)
)


def deal(
    players: int,
    hands: Sequence[Sequence[str]],
    *,
    lead: int = 0,
    seed: int = 1,
    **kwargs: Any,
) -> Game:
    """An explicit position (``new_game`` with ``hands``), lead 0 and seed 1 unless given."""
    return new_game(players=players, seed=seed, hands=hands, lead=lead, **kwargs)


def up(game: Game, suit: str, gas: int = 0, effect: str | None = None) -> list[Event]:
    """The current seat plays ``suit`` face up with ``gas`` spent on it."""
    choice = None if effect is None else ZeroEffect(effect)
    return game.apply(Action.play(Suit(suit), gas, choice))


def down(game: Game, suit: str) -> list[Event]:
    """The current seat tunes up with ``suit``."""
    return game.apply(Action.tune_up(Suit(suit)))


def zero_five(game: Game, value: int, gas: int, discard: str) -> list[Event]:
    """The current seat plays its 0/5 card."""
    return game.apply(Action.zero_five(value, gas, Suit(discard)))


def of_kind(events: Sequence[Event], kind: str) -> list[dict[str, Any]]:
    """The JSON form of every event of ``kind``."""
    return [e.to_dict() for e in events if e.kind == kind]


def kinds(events: Sequence[Event]) -> list[str]:
    """Event kinds in order."""
    return [e.kind.value for e in events]


def finals(game: Game, seat: int = 0) -> list[int | None]:
    """Final numbers of the cards in the current trick, as ``seat`` sees them."""
    return [p["final"] for p in game.observation(seat)["trick_plays"]]


def last_finals(game: Game, seat: int = 0) -> list[int | None]:
    """Final numbers of the last completed trick, as ``seat`` sees them."""
    record = game.observation(seat)["last_trick"]
    assert record is not None
    return [p["final"] for p in record["plays"]]


def gas_of(game: Game) -> list[int]:
    """Every seat's supply, as seat 0 sees it (supplies are public)."""
    return [p["gas"] for p in game.observation(0)["players"]]


def speed_of(game: Game) -> list[int]:
    """Every seat's speed, as seat 0 sees it."""
    return [p["speed"] for p in game.observation(0)["players"]]


def laps_of(game: Game) -> list[int]:
    """Every seat's laps, as seat 0 sees it."""
    return [p["laps"] for p in game.observation(0)["players"]]


def gas_total(game: Game) -> int:
    """Supplies + middle + removed + gas lying on the current trick's cards (R4)."""
    state = game.to_dict()
    return (
        sum(state["gas"])
        + state["middle"]
        + state["removed"]
        + sum(p["gas"] for p in state["plays"])
    )


def cards_in_play(game: Game) -> Counter[str]:
    """Every physical card the state holds: hands, trick, discards and set-aside (R12, R18)."""
    state = game.to_dict()
    cards: Counter[str] = Counter()
    for hand in state["hands"]:
        cards.update(hand)
    cards.update(p["card"] for p in state["plays"] if p["card"] is not None)
    cards.update(state["discards"])
    cards.update(state["set_aside"])
    return cards


def deck_of(game: Game) -> Counter[str]:
    """The variant deck of ``game`` as a multiset of suit ids."""
    return Counter(card.value for card in game.variants.deck(game.players))


def tune_up_all(game: Game) -> list[Event]:
    """Everyone still to play in this trick tunes up with the first card of their hand."""
    events: list[Event] = []
    for _ in range(game.players - len(game.to_dict()["plays"])):
        seat = game.current_seat
        assert seat is not None
        hand = game.to_dict()["hands"][seat]
        events.extend(game.apply(Action.tune_up(Suit(hand[0]))))
    return events


def first_face_up(game: Game) -> Action:
    """The first legal face-up play without gas (never a 0/5 card)."""
    for action in game.legal_actions():
        if action.type is ActionType.PLAY and action.gas == 0:
            return action
    raise AssertionError("no face-up play available")


def random_playout(game: Game, rng: Rng, limit: int = 5000) -> Iterator[tuple[Action, list[Event]]]:
    """Play uniformly random legal actions until the game ends, yielding each turn."""
    for _ in range(limit):
        if game.is_over:
            return
        actions = game.legal_actions()
        action = actions[rng.below(len(actions))]
        yield action, game.apply(action)
    raise AssertionError(f"game not over after {limit} turns")
