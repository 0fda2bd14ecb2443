"""Two people connected to two different servers that share one Redis: each moves through
their own server and follows their own seat's event stream there, and each hears of the
other's moves live, to the end of the race."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from sse_client import SseReader
from store_kit import RedisServer
from test_live_race import STALL_BOUND_SECONDS, STREAM_BOUND_SECONDS, assert_own_view, bearer

from bench.server import find_free_port

pytestmark = pytest.mark.slow


def test_two_people_on_two_servers_see_each_other_live(
    fresh_redis: RedisServer,
    launch_server: Any,
    server_command: Any,
    open_http: Callable[[str], httpx.Client],
) -> None:
    env = {
        "ZZV_REDIS_URL": fresh_redis.url,
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
    }
    servers = []
    for _ in range(2):
        port = find_free_port()
        servers.append(launch_server(server_command(port), port=port, env=env))
    http = {seat: open_http(servers[seat].url) for seat in (0, 1)}
    created = http[0].post("/api/games", json={"players": 4, "humans": 2, "bots": "random"})
    assert created.status_code == 201, created.text
    game_id, invite = created.json()["game_id"], created.json()["invites"][0]
    joined = http[1].post(f"/api/games/{game_id}/join", json={"code": invite["code"]})
    assert joined.status_code == 201, joined.text
    tokens = {0: created.json()["token"], 1: joined.json()["token"]}
    readers = {
        seat: SseReader(f"{servers[seat].url}/api/games/{game_id}/events", bearer(tokens[seat]))
        for seat in (0, 1)
    }
    try:
        state = {seat: readers[seat].next_state(lambda _s: True, 10)[1] for seat in (0, 1)}
        latencies = _play(http, game_id, tokens, readers, state)
    finally:
        for reader in readers.values():
            reader.close()
    assert state[1]["status"] == "over" and state[1]["winner"] == state[0]["winner"]
    assert latencies, "nobody moved"
    on_time = sum(latency < STREAM_BOUND_SECONDS for latency in latencies)
    assert on_time >= 0.9 * len(latencies), sorted(latencies)[-10:]
    assert max(latencies) < STALL_BOUND_SECONDS, sorted(latencies)[-5:]


def _play(
    http: dict[int, httpx.Client],
    game_id: str,
    tokens: dict[int, str],
    readers: dict[int, SseReader],
    state: dict[int, dict[str, Any]],
) -> list[float]:
    """Whoever is to move moves through their own server; the other's stream, on the other
    server, must bring the move. Returns how long each move took to reach the other."""
    rng = random.Random(2)
    latencies: list[float] = []
    for _ in range(1000):
        if state[0]["status"] == "over":
            return latencies
        mover = state[0]["current_seat"]
        other = 1 - mover
        sent = time.monotonic()
        action = rng.choice(state[mover]["legal_actions"])
        response = http[mover].post(
            f"/api/games/{game_id}/actions",
            json={"turn": state[mover]["turn"], "action": action},
            headers=bearer(tokens[mover]),
        )
        assert response.status_code == 200, response.text
        state[mover] = response.json()
        arrived, state[other] = readers[other].next_state(
            lambda s, n=state[mover]["event_count"]: s["event_count"] >= n, 10
        )
        latencies.append(arrived - sent)
        assert_own_view(state[other], other, tokens[mover])
    raise AssertionError("the race did not end")
