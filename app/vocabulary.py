"""The closed vocabularies the app accepts and documents: suits, actions, effects, event
kinds and bot levels.

They are the engine's (``engine.SUIT_IDS``, ``engine.bots.BOT_LEVELS`` ...), spelled out as
``Literal`` types because strict validation, the OpenAPI schema and ``mypy`` all need the
values written down. The API models, the web forms and the settings use these and no
others, and one test checks each place against the engine.
"""

from __future__ import annotations

from typing import Literal

SuitId = Literal["lichen", "salty", "chippy", "jelly", "beans", "slippy", "zero"]
"""Every suit (``engine.SUIT_IDS``)."""

RacerSuitId = Literal["lichen", "salty", "chippy", "jelly", "beans", "slippy"]
"""The six racers, the suits the 0 suit may replace (``engine.RACER_SUIT_IDS``)."""

ActionTypeId = Literal["play", "tune_up", "zero_five"]
"""The kinds of turn (``engine.ActionType``)."""

ZeroEffectId = Literal["gas", "speed"]
"""The 0 card's two effects (``engine.ZeroEffect``)."""

BotLevel = Literal["random", "easy", "normal", "hard"]
"""Bot strengths a player can pick (``engine.bots.BOT_LEVELS``)."""

EventKindId = Literal[
    "round_dealt",
    "card_played",
    "tuned_up",
    "zero_five_played",
    "card_discarded",
    "gas_taken",
    "zero_effect",
    "tune_up_share",
    "trick_won",
    "trick_all_tuned_up",
    "gas_to_middle",
    "speed_gained",
    "lap_gained",
    "game_won",
]
"""Every kind of public event (``engine.EventKind``)."""

TalkCode = Literal["hello", "well_played", "oops", "thinking", "good_race"]
"""The quick messages a person may send to the table (:mod:`app.races.talk`): preset, so
there is no free text to moderate."""
