"""The closed vocabularies the app accepts and documents: the engine's own ``Literal`` types
(suits, actions, effects), its bot levels spelled out (validation, OpenAPI and mypy need the
values written; a test checks them against ``engine.bots.BOT_LEVELS``), quick messages.
"""

from __future__ import annotations

from typing import Literal

from engine.actions import ActionTypeId
from engine.cards import RacerSuitId, SuitId, ZeroEffectId

__all__ = ["ActionTypeId", "BotLevel", "RacerSuitId", "SuitId", "TalkCode", "ZeroEffectId"]

BotLevel = Literal["random", "easy", "normal", "hard"]
"""Bot strengths a player can pick (``engine.bots.BOT_LEVELS``)."""

TalkCode = Literal["hello", "well_played", "oops", "thinking", "good_race"]
"""The quick messages a person may send to the table (:func:`app.races.operations.say`): preset, so
there is no free text to moderate."""
