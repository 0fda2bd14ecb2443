"""The closed vocabularies the app accepts and documents: suits, actions, effects, bot
levels and quick messages.

The suits', actions' and effects' are the engine's own ``Literal`` types (those of its JSON
shapes); the bot levels are the engine's values (``engine.bots.BOT_LEVELS``) spelled out as
a ``Literal`` type, because strict validation, the OpenAPI schema and ``mypy`` all need the
values written down. The API models, the web forms and the settings use these and no
others, and one test checks each place against the engine.
"""

from __future__ import annotations

from typing import Literal

from engine.actions import ActionTypeId
from engine.cards import RacerSuitId, SuitId, ZeroEffectId

__all__ = [
    "ActionTypeId",
    "BotLevel",
    "RacerSuitId",
    "SuitId",
    "TalkCode",
    "ZeroEffectId",
]

BotLevel = Literal["random", "easy", "normal", "hard"]
"""Bot strengths a player can pick (``engine.bots.BOT_LEVELS``)."""

TalkCode = Literal["hello", "well_played", "oops", "thinking", "good_race"]
"""The quick messages a person may send to the table (:mod:`app.races.talk`): preset, so
there is no free text to moderate."""
