"""The API's closed vocabularies must stay exactly the engine's (they are spelled out as
literals so that strict request validation accepts plain JSON strings)."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from app.api import models as api_models
from engine import ActionType, EventKind, Suit, ZeroEffect
from engine.bots import BOT_KINDS
from engine.cards import RACER_SUITS


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        (api_models.SuitId, [s.value for s in Suit]),
        (api_models.RacerSuitId, [s.value for s in RACER_SUITS]),
        (api_models.ActionTypeId, [t.value for t in ActionType]),
        (api_models.ZeroEffectId, [e.value for e in ZeroEffect]),
        (api_models.EventKindId, [k.value for k in EventKind]),
        (api_models.BotKind, list(BOT_KINDS)),
    ],
    ids=["suit", "racer", "action", "zero_effect", "event", "bot"],
)
def test_api_vocabulary_matches_the_engine(literal: Any, expected: list[str]) -> None:
    assert sorted(get_args(literal)) == sorted(expected)
