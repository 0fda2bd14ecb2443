"""Race strangers on real servers: the default store (one uvicorn, its SQLite file) and
Redis shared by two uvicorns, each request sent to either. Two requests in the wait land
in one race at different seats and the wait's end starts it with bots in the rest; a
burst of requests through both servers never gives one seat twice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import wait_until
from store_kit import RedisServer

from bench.server import find_free_port

pytestmark = pytest.mark.slow

BASE_ENV = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_ACCESS_LOG": "false"}
WAIT_BOUND_SECONDS = 30.0
"""Longest a test waits for a race to start after its wait ended (a bound, not a figure)."""


@pytest.fixture(params=["sqlite", "redis"])
def servers(
    request: pytest.FixtureRequest, tmp_path: Path, launch_server: Any, server_command: Any
) -> Callable[[float], list[str]]:
    """Starts, for a wait of so many seconds, one server on the default store or two
    sharing one Redis; their base URLs."""

    def start(wait: float) -> list[str]:
        env = {**BASE_ENV, "ZZV_QUICK_WAIT_SECONDS": str(wait)}
        count = 1
        if request.param == "redis":
            redis: RedisServer = request.getfixturevalue("fresh_redis")
            env["ZZV_REDIS_URL"] = redis.url
            # Workers share one results database, as deployed: one player is one id in all.
            env["ZZV_DATABASE_URL"] = f"sqlite:///{tmp_path / 'results.sqlite3'}"
            count = 2
        else:
            env["ZZV_DATA_DIR"] = str(tmp_path / "data")
        urls = []
        for _ in range(count):
            port = find_free_port()
            urls.append(launch_server(server_command(port), port=port, env=env).url)
        return urls

    return start


def quick(url: str, players: int) -> dict[str, Any]:
    response = httpx.post(f"{url}/api/quick", json={"players": players}, timeout=30)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def state_of(url: str, joined: dict[str, Any]) -> dict[str, Any]:
    response = httpx.get(
        f"{url}/api/games/{joined['game_id']}",
        headers={"Authorization": f"Bearer {joined['token']}"},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def test_two_requests_share_a_race_and_bots_fill_the_rest(
    servers: Callable[[float], list[str]],
) -> None:
    urls = servers(3)
    first_url, second_url = urls[0], urls[-1]
    first = quick(first_url, 4)
    second = quick(second_url, 4)
    assert second["game_id"] == first["game_id"]
    assert {first["seat"], second["seat"]} == {0, 1}
    assert state_of(second_url, first)["status"] == "waiting"
    # The wait ends: the next look at the race (any server) starts it with bots.

    def started() -> dict[str, Any] | None:
        state = state_of(first_url, second)
        return None if state["status"] == "waiting" else state

    state = wait_until(started, "the race starting with bots", WAIT_BOUND_SECONDS)
    assert state is not None and state["status"] == "playing"
    assert [s["person"] for s in state["seats"]] == [True, True, False, False]
    assert state_of(second_url, first)["status"] == "playing"
    # A request now opens a new race.
    assert quick(second_url, 4)["game_id"] != first["game_id"]


def test_a_burst_through_every_server_never_doubles_a_seat(
    servers: Callable[[float], list[str]],
) -> None:
    urls = servers(60)
    players, requests = 4, 12
    with ThreadPoolExecutor(max_workers=6) as pool:
        seated = list(pool.map(lambda i: quick(urls[i % len(urls)], players), range(requests)))
    seats = Counter((s["game_id"], s["seat"]) for s in seated)
    assert max(seats.values()) == 1, seats
    per_race = Counter(s["game_id"] for s in seated)
    print(
        f"\n{requests} requests for {players} seats through {len(urls)} server(s): "
        f"people per race {sorted(per_race.values())}"
    )
    assert all(n <= players for n in per_race.values())
    assert sum(n == players for n in per_race.values()) >= 2  # full races formed
    for joined in seated:  # every seat holds its own person
        state = state_of(urls[0], joined)
        assert state["seat"] == joined["seat"]
        assert state["seats"][joined["seat"]]["joined"]
