"""Helpers shared by the platform tests (API, security, concurrency, store).

Imported as ``api_helpers`` from tests/api and as ``api.api_helpers`` from tests/.
"""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient

from app.settings import Settings


def make_settings(**overrides: Any) -> Settings:
    """Settings for tests: no rate limits, no access log, a fixed seed key (so a seed always
    deals the same cards), unless overridden."""
    base: dict[str, Any] = {
        "rate_limit_enabled": False,
        "access_log": False,
        "seed_secret": "api-tests",
    }
    return Settings(**{**base, **overrides})


def bearer(token: str) -> dict[str, str]:
    """The Authorization header for ``token``."""
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> tuple[str, str, dict[str, Any]]:
    """Start a race through the API; return (game_id, token, state)."""
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["game_id"], data["token"], data["state"]


def move(client: TestClient, game_id: str, token: str, turn: int, action: dict[str, Any]) -> Any:
    """POST one action; return the raw response."""
    return client.post(
        f"/api/games/{game_id}/actions",
        json={"turn": turn, "action": action},
        headers=bearer(token),
    )


def play_out(
    client: TestClient, game_id: str, token: str, state: dict[str, Any], rng: random.Random
) -> list[dict[str, Any]]:
    """Play random legal moves through the API until the race ends; return every state."""
    states = [state]
    for _ in range(1000):
        if state["game_over"]:
            return states
        action = rng.choice(state["legal_actions"])
        response = move(client, game_id, token, state["turn"], action)
        assert response.status_code == 200, response.text
        state = response.json()
        states.append(state)
    raise AssertionError("race did not end within 1000 human moves")
