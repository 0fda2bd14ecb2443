"""Zoom Zoom Vroom's rules engine: pure Python, deterministic from a seed, no I/O.

Modules: :mod:`engine.cards` (suits and fixed numbers), :mod:`engine.variants`
(variant switches and the deck), :mod:`engine.actions` (turns and
:class:`IllegalAction`), :mod:`engine.events` (public narration),
:mod:`engine.game` (state and rules), :mod:`engine.view` (a seat's view),
:mod:`engine.rng` (the seeded generator), :mod:`engine.bench` (speed figures),
:mod:`engine.bots` (computer players) and :mod:`engine.tournament`.
"""

from engine.actions import Action, ActionType, IllegalAction
from engine.cards import Suit, ZeroEffect
from engine.events import Event, EventKind
from engine.game import Game, new_game
from engine.variants import Variants

__all__ = [
    "Action",
    "ActionType",
    "Event",
    "EventKind",
    "Game",
    "IllegalAction",
    "Suit",
    "Variants",
    "ZeroEffect",
    "new_game",
]
