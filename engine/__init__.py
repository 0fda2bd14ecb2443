"""Zoom Zoom Vroom's rules engine: pure Python, deterministic from a seed, no I/O.

Modules: :mod:`engine.cards` (suits, fixed numbers, the Lichen effect),
:mod:`engine.variants` (variant switches and the deck), :mod:`engine.actions` (turns,
the gas a turn may carry), :mod:`engine.refusals` (why an action is refused, as a code of
one table keyed by rule id: :class:`Refusal`, :class:`IllegalAction`),
:mod:`engine.events` (public narration and each event's payload type), :mod:`engine.game`
(state and rules), :mod:`engine.event_log` (the compact public log a server keeps),
:mod:`engine.seat_view` (the one builder of a seat's view), :mod:`engine.options` (what
that seat may do now and why not, read off its view), :mod:`engine.shapes` (the JSON
shapes), :mod:`engine.view` (a trick's public form), :mod:`engine.rng` (the seeded
generator) and :mod:`engine.bots` (computer players, their levels and default budget). Its
benchmarks and tournaments are in ``bench/``, outside the wheel.

What callers outside the engine use is importable from here: the JSON shapes the engine
hands out are ``TypedDict`` s, and the rules' numbers are constants, so the app never
spells a key or a number of its own.
"""

from engine.actions import Action, ActionDict, ActionType, supply_after_effect
from engine.cards import (
    LAPS_TO_WIN,
    MAX_GAS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RACER_SUIT_IDS,
    TRICKS_PER_ROUND,
    Suit,
    ZeroEffect,
    effective_value,
)
from engine.event_log import EventLog
from engine.events import EVENT_PAYLOADS, Event, EventKind
from engine.game import MAX_DECISIONS, Game, new_game
from engine.options import seat_options
from engine.refusals import IllegalAction, Refusal
from engine.seat_view import SeatView, observe, observe_public
from engine.shapes import (
    CardPlayed,
    GasTaken,
    GasToMiddle,
    Observation,
    PublicPlay,
    RoundDealt,
    TrickAllTunedUp,
    TrickRecord,
    TuneUpShare,
    ZeroEffectChosen,
)
from engine.variants import Variants, VariantsData

__all__ = [
    "EVENT_PAYLOADS",
    "LAPS_TO_WIN",
    "MAX_DECISIONS",
    "MAX_GAS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RACER_SUIT_IDS",
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
    "PublicPlay",
    "Refusal",
    "RoundDealt",
    "SeatView",
    "Suit",
    "TrickAllTunedUp",
    "TrickRecord",
    "TuneUpShare",
    "Variants",
    "VariantsData",
    "ZeroEffect",
    "ZeroEffectChosen",
    "effective_value",
    "new_game",
    "observe",
    "observe_public",
    "seat_options",
    "supply_after_effect",
]
