"""Small helpers of the engine tests: one-line turns, event lookups, public numbers.

Deals, random play and the hidden-card reshuffle are in the shared ``game_kit``. Kept free
of assertions about the rules so that every rule check lives in a test that names its
rule id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine import Action, ActionType, Event, Game, Suit
from engine.cards import ZeroEffect


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


def gas_total(game: Game | dict[str, Any]) -> int:
    """Supplies + middle + removed + gas lying on the current trick's cards (R4), of a game
    or of its saved state (``to_dict()``, when the caller has it already)."""
    state = game if isinstance(game, dict) else game.to_dict()
    return (
        sum(state["gas"])
        + state["middle"]
        + state["removed"]
        + sum(p["gas"] for p in state["plays"])
    )


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
