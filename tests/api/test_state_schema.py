"""The API's schema of a seat's state and of the events is made from the engine's and the
race layer's shapes (app/http/api/models.py): closed all the way down, and every event's
keys are its payload's."""

from __future__ import annotations

import copy
from typing import Any, get_type_hints

import pytest
from app_kit import create
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.http.api.models import GameState
from engine import EVENT_PAYLOADS


@pytest.mark.parametrize(
    "where",
    [("players", 0), ("deck",), ("variants",), ("legal_actions", 0), ("seats", 0), ("events", 0)],
)
def test_a_key_the_shapes_do_not_name_fails_validation_at_any_depth(
    client: TestClient, where: tuple[Any, ...]
) -> None:
    _, _, state = create(client)
    GameState.model_validate(state)
    changed = copy.deepcopy(state)
    node = changed
    for key in where:
        node = node[key]
    node["stray"] = 1
    with pytest.raises(ValidationError):
        GameState.model_validate(changed)


def test_each_event_is_documented_with_exactly_its_payloads_keys(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for kind, payload in EVENT_PAYLOADS.items():
        shown = schemas[payload.__name__]
        assert shown["properties"]["kind"]["const"] == kind.value
        assert set(shown["properties"]) == {"kind", "seat", *get_type_hints(payload)}
        assert shown["additionalProperties"] is False
