"""A small store cannot be squatted by one client: the per-client cap is never more than
half of ``ZZV_MAX_GAMES``, on a real uvicorn configured through the environment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow


def create_as(client: httpx.Client, address: str) -> httpx.Response:
    """POST /api/games as the client at ``address`` (uvicorn trusts X-Forwarded-For from
    loopback, so each address is a client of its own)."""
    return client.post("/api/games", json={"bots": "random"}, headers={"X-Forwarded-For": address})


def test_one_client_holds_at_most_half_of_a_small_store(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> None:
    env = {
        "ZZV_MAX_GAMES": "20",
        "ZZV_MAX_GAMES_PER_CLIENT": "20",
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
    }
    server = launch_server(server_command(free_port), port=free_port, env=env)
    with httpx.Client(base_url=server.url, timeout=10) as client:
        squatter = [create_as(client, "203.0.113.7") for _ in range(12)]
        statuses = [response.status_code for response in squatter]
        assert statuses == [201] * 10 + [429] * 2
        refused = squatter[-1].json()
        assert refused["code"] == "too_many_games" and "10 races running" in refused["message"]
        # The other half of the store is still there for everybody else.
        others = [create_as(client, f"198.51.100.{i}") for i in range(1, 11)]
        assert [response.status_code for response in others] == [201] * 10
        full = create_as(client, "198.51.100.99")
        assert full.status_code == 503 and full.json()["code"] == "server_full"
