"""The app's closed vocabularies are exactly the engine's: the start page's and move
form's choices, the API's request and response models, the settings and the labels.

They are spelled out as literals (strict validation and the OpenAPI schema need the values
written down), so this is what keeps them from drifting when the engine changes.
"""

from __future__ import annotations

import re
import types
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest
from pydantic import BaseModel

from app.http.api import models as api
from app.http.web import forms
from app.http.web.labels import RULES_SUIT_ORDER, SUITS, ZERO_EFFECT_LABELS, ZERO_FIVE
from app.paths import TEMPLATES_DIR
from app.settings import Settings
from engine import ActionDict, ActionType, EventKind, Suit, VariantsData
from engine.bots import BOT_LEVELS
from engine.cards import RACER_SUIT_IDS, ZeroEffect
from engine.shapes import PublicPlay

ENGINE: dict[str, set[str]] = {
    "suit": {s.value for s in Suit},
    "racer": set(RACER_SUIT_IDS),
    "action": {t.value for t in ActionType},
    "zero_effect": {e.value for e in ZeroEffect},
    "event": {k.value for k in EventKind},
    "bot": set(BOT_LEVELS),
}


def choices(model: Any, field: str) -> set[str]:
    """The values a model's (or a ``TypedDict``'s) field accepts (``None`` left out), from
    its literal type."""
    if isinstance(model, type) and issubclass(model, BaseModel):
        annotation = model.model_fields[field].annotation
    else:
        annotation = get_type_hints(model)[field]
    return literal_values(annotation)


def literal_values(annotation: Any) -> set[str]:
    """Every value of the ``Literal`` types inside ``annotation``."""
    pending: list[Any] = [annotation]
    found: set[str] = set()
    while pending:
        annotation = pending.pop()
        if get_origin(annotation) is Literal:
            found.update(get_args(annotation))
        elif annotation is not types.NoneType:
            pending.extend(get_args(annotation))
    return found


def offered_bot_levels() -> set[str]:
    """The bot strengths the start page's template lists (its ``bot_levels``)."""
    source = (TEMPLATES_DIR / "index.html").read_text(encoding="utf-8")
    return set(re.findall(r'\("(\w+)", _\("', source))


USES: list[tuple[str, set[str], str]] = [
    ("start page: bot levels offered", offered_bot_levels(), "bot"),
    ("start page: NewGameForm.bots", choices(forms.NewGameForm, "bots"), "bot"),
    ("start page: NewGameForm.zero_replaces", choices(forms.NewGameForm, "zero_replaces"), "racer"),
    ("move form: MoveForm.zero_effect", choices(forms.MoveForm, "zero_effect"), "zero_effect"),
    ("move form: zero effect labels", set(ZERO_EFFECT_LABELS), "zero_effect"),
    ("table: suit labels", set(SUITS) - {ZERO_FIVE}, "suit"),
    ("rules page: suit order", set(RULES_SUIT_ORDER) - {ZERO_FIVE}, "suit"),
    ("settings: default_bot_level", choices(Settings, "default_bot_level"), "bot"),
    ("API: CreateGame.bots", choices(api.CreateGame, "bots"), "bot"),
    ("API: VariantsIn.zero_suit", choices(api.VariantsIn, "zero_suit"), "racer"),
    ("API: VariantsData.zero_suit", choices(VariantsData, "zero_suit"), "racer"),
    ("API: ActionIn.type", choices(api.ActionIn, "type"), "action"),
    ("API: ActionIn.suit", choices(api.ActionIn, "suit"), "suit"),
    ("API: ActionIn.discard", choices(api.ActionIn, "discard"), "suit"),
    ("API: ActionIn.zero_effect", choices(api.ActionIn, "zero_effect"), "zero_effect"),
    ("API: ActionDict.type", choices(ActionDict, "type"), "action"),
    ("API: ActionDict.suit", choices(ActionDict, "suit"), "suit"),
    ("API: PublicPlay.zero_effect", choices(PublicPlay, "zero_effect"), "zero_effect"),
    ("API: GameState.hand", choices(api.GameState, "hand"), "suit"),
    ("API: GameState.blocked_suits", choices(api.GameState, "blocked_suits"), "suit"),
    (
        "API: the events' kinds",
        {kind for shape in get_args(get_args(api.EventOut)[0]) for kind in choices(shape, "kind")},
        "event",
    ),
    ("API: RecordSettings.bots", choices(api.RecordSettings, "bots"), "bot"),
]


@pytest.mark.parametrize(("place", "accepted", "vocabulary"), USES, ids=[u[0] for u in USES])
def test_forms_and_api_vocabularies_match_the_engine(
    place: str, accepted: set[str], vocabulary: str
) -> None:
    assert accepted == ENGINE[vocabulary], place
