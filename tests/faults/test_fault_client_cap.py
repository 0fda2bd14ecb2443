"""The caps on live races on a real uvicorn configured through the environment, on the
default store (the SQLite race file) and on Redis alike: a player holds its own cap of
unfinished races, the players behind one address share a higher ceiling, a finished race
frees its slot at once, a refusal lists the player's own races with links that resume
them, and a small store cannot be squatted by one address (never more than half of
``ZZV_MAX_GAMES``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from app_kit import bearer
from store_kit import RedisServer

pytestmark = pytest.mark.slow

BASE_ENV = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_ACCESS_LOG": "false"}


@pytest.fixture(params=["sqlite", "redis"])
def start(
    request: pytest.FixtureRequest,
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    free_port: int,
) -> Callable[[dict[str, str]], str]:
    """Starts a server on the store of the test's parameter with these settings; its URL."""

    def launch(env: dict[str, str]) -> str:
        store: dict[str, str] = {}
        if request.param == "redis":
            redis: RedisServer = request.getfixturevalue("fresh_redis")
            store = {"ZZV_REDIS_URL": redis.url}
        server = launch_server(
            server_command(free_port), port=free_port, env={**BASE_ENV, **store, **env}
        )
        url: str = server.url
        return url

    return launch


def create_as(
    client: httpx.Client, address: str, player_token: str | None = None
) -> httpx.Response:
    """POST /api/games as the client at ``address`` (uvicorn trusts X-Forwarded-For from
    loopback, so each address is a client of its own), as the player ``player_token``
    (none: a new player)."""
    headers = {"X-Forwarded-For": address}
    if player_token is not None:
        headers["X-Player-Token"] = player_token
    return client.post("/api/games", json={"players": 3, "bots": "random"}, headers=headers)


def play_to_the_end(client: httpx.Client, created: dict[str, Any]) -> None:
    """Play the first legal action at every turn of the person's race until it is over."""
    auth = bearer(created["token"])
    state = created["state"]
    while not state["game_over"]:
        move = {"turn": state["turn"], "action": state["legal_actions"][0]}
        answer = client.post(f"/api/games/{created['game_id']}/actions", json=move, headers=auth)
        assert answer.status_code == 200, answer.text
        state = answer.json()


def test_a_player_and_an_address_hold_only_their_live_races(
    start: Callable[[dict[str, str]], str],
) -> None:
    url = start({"ZZV_MAX_GAMES_PER_CLIENT": "2", "ZZV_MAX_GAMES_PER_ADDRESS": "4"})
    school = "203.0.113.9"
    with httpx.Client(base_url=url, timeout=30) as client:
        first = create_as(client, school).json()
        me = first["player_token"]
        second = create_as(client, school, me).json()
        refused = create_as(client, school, me)
        body = refused.json()
        assert refused.status_code == 429 and (body["limit"], body["cap"]) == ("player", 2)
        assert [race["game_id"] for race in body["races"]] == [first["game_id"], second["game_id"]]
        for link, race in zip(body["races"], (first, second), strict=True):
            resumed = client.get(link["url"], headers=bearer(race["token"]))
            assert resumed.status_code == 200 and resumed.json()["game_id"] == race["game_id"]

        play_to_the_end(client, first)  # its end frees the slot at once
        third = create_as(client, school, me)
        assert third.status_code == 201, third.text

        other = create_as(client, school).json()  # other players behind the same address
        assert create_as(client, school).status_code == 201  # 4 live: first is over
        full = create_as(client, school, other["player_token"])
        body = full.json()
        assert full.status_code == 429 and (body["limit"], body["cap"]) == ("address", 4)
        assert [race["game_id"] for race in body["races"]] == [other["game_id"]]
        assert create_as(client, "198.51.100.1").status_code == 201  # another address


def test_one_address_holds_at_most_half_of_a_small_store(
    start: Callable[[dict[str, str]], str],
) -> None:
    url = start({"ZZV_MAX_GAMES": "20", "ZZV_MAX_GAMES_PER_CLIENT": "20"})
    with httpx.Client(base_url=url, timeout=30) as client:
        # Each request without a player token is a new player: the address's ceiling holds.
        squatter = [create_as(client, "203.0.113.7") for _ in range(12)]
        statuses = [response.status_code for response in squatter]
        assert statuses == [201] * 10 + [429] * 2
        refused = squatter[-1].json()
        assert refused["code"] == "too_many_games" and refused["limit"] == "address"
        assert "10 races are already running" in refused["message"]
        # The other half of the store is still there for everybody else.
        others = [create_as(client, f"198.51.100.{i}") for i in range(1, 11)]
        assert [response.status_code for response in others] == [201] * 10
        full = create_as(client, "198.51.100.99")
        assert full.status_code == 503 and full.json()["code"] == "server_full"
