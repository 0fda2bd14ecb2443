"""Helpers shared by the web tests (imported as ``web_helpers``)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from app.sessions import GameSession
from app.store import MemoryStore

HX = {"HX-Request": "true"}
"""Headers htmx sends with every request it makes."""


def start(client: TestClient, **fields: Any) -> str:
    """Start a race through the start page's form and return its id."""
    data = {"players": "3", "bots": "random", **{k: str(v) for k, v in fields.items()}}
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/games/([A-Za-z0-9_-]+)", response.headers["location"])
    assert match, response.headers["location"]
    return match.group(1)


def session_of(store: MemoryStore, game_id: str) -> GameSession:
    """The stored session (tests look behind the page to check the state did not change)."""
    session = store.get(game_id)
    assert session is not None
    return session


def form_fields(action: dict[str, Any], turn: int) -> dict[str, str]:
    """The move form's fields that a person would submit for ``action`` (engine JSON)."""
    fields = {"turn": str(turn), "gas": str(action.get("gas", 0))}
    if action["type"] == "tune_up":
        fields["choice"] = f"down:{action['suit']}"
    elif action["type"] == "play":
        fields["choice"] = f"up:{action['suit']}"
        if action.get("zero_effect"):
            fields["zero_effect"] = action["zero_effect"]
    else:
        fields["choice"] = "zero_five"
        fields["zf_value"] = str(action["value"])
        fields["discard"] = action["discard"]
    return fields
