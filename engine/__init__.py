"""Zoom Zoom Vroom's rules engine: pure Python, deterministic from a seed, no I/O
(docs/architecture.md maps its modules).

What the app and the bench use is importable from here, so the app never spells a key or
a number of its own.
"""

from engine.actions import Action, ActionDict, ActionType, supply_after_effect
from engine.cards import LAPS_TO_WIN, MAX_GAS, TRICKS_PER_ROUND, Suit
from engine.event_log import EventLog
from engine.events import EVENT_PAYLOADS, Event, EventKind
from engine.game import MAX_DECISIONS, Game, new_game
from engine.refusals import IllegalAction, Refusal
from engine.seat_view import SeatView, observe, observe_public
from engine.shapes import (
    CardPlayed,
    GasTaken,
    GasToMiddle,
    Observation,
    RoundDealt,
    TrickAllTunedUp,
    TuneUpShare,
    ZeroEffectChosen,
)
from engine.variants import Variants, VariantsData

__all__ = [
    "EVENT_PAYLOADS",
    "LAPS_TO_WIN",
    "MAX_DECISIONS",
    "MAX_GAS",
    "TRICKS_PER_ROUND",
    "Action",
    "ActionDict",
    "ActionType",
    "CardPlayed",
    "Event",
    "EventKind",
    "EventLog",
    "Game",
    "GasTaken",
    "GasToMiddle",
    "IllegalAction",
    "Observation",
    "Refusal",
    "RoundDealt",
    "SeatView",
    "Suit",
    "TrickAllTunedUp",
    "TuneUpShare",
    "Variants",
    "VariantsData",
    "ZeroEffectChosen",
    "new_game",
    "observe",
    "observe_public",
    "supply_after_effect",
]
