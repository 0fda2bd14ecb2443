"""Two people and two bots race to the end over a real server, each following their own
seat's event stream and moving only on their own turn."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import httpx
from app_kit import wait_until
from sse_client import SseReader

STREAM_BOUND_SECONDS = 1.0
"""Functional bound from the issue: the other table hears of a move within a second."""

STALL_BOUND_SECONDS = 5.0
"""No single move may take longer than this to reach the other table: a lost or stuck
notice would. One slow move on a shared two-core CI runner (a browser test starting next
to this one) is load, not a fault, so nine moves in ten must make the one-second bound."""


def bearer(token: str) -> dict[str, str]:
    """The Authorization header for ``token``."""
    return {"Authorization": f"Bearer {token}"}


def assert_own_view(state: dict[str, Any], seat: int, other_token: str) -> None:
    """A state for ``seat``: its own hand only, no other seat's secrets or credential."""
    assert state["seat"] == seat
    text = json.dumps(state)
    assert other_token not in text
    assert '"hands"' not in text and '"code"' not in text
    assert len(state["hand"]) == state["players"][seat]["hand_size"]


def test_two_people_race_to_the_end_with_live_streams(
    live_server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    http = open_http(live_server)
    created = http.post("/api/games", json={"players": 4, "humans": 2, "bots": "random"})
    assert created.status_code == 201, created.text
    body = created.json()
    game_id, token0 = body["game_id"], body["token"]
    assert body["state"]["status"] == "waiting"
    [invite] = body["invites"]
    assert invite["seat"] == 1 and invite["code"] != token0
    assert invite["url"] == f"{live_server}/games/{game_id}/join?code={invite['code']}"

    joined = http.post(f"/api/games/{game_id}/join", json={"code": invite["code"], "name": "Bea"})
    assert joined.status_code == 201, joined.text
    token1 = joined.json()["token"]
    assert joined.json()["seat"] == 1 and token1 != token0
    assert joined.json()["state"]["status"] == "playing"
    again = http.post(f"/api/games/{game_id}/join", json={"code": invite["code"]})
    assert again.status_code == 409 and again.json()["code"] == "invite_used"

    tokens = {0: token0, 1: token1}
    readers = {
        s: SseReader(f"{live_server}/api/games/{game_id}/events", bearer(tokens[s])) for s in tokens
    }
    try:
        assert readers[0].status == 200 and "text/event-stream" in (readers[0].content_type or "")
        assert readers[0].content_encoding is None  # never buffered by compression
        state = {s: readers[s].next_state(lambda _s: True, 5)[1] for s in tokens}
        latencies = _play(http, game_id, tokens, readers, state)
        for reader in readers.values():  # the final state, then the end of the stream
            assert reader.ended(10), "the event stream stayed open after the race"
            left = [json.loads(data) for event, data in reader.received() if event == "state"]
            assert not left or left[-1]["status"] == "over"
    finally:
        for reader in readers.values():
            reader.close()
    assert latencies, "nobody moved"
    on_time = sum(latency < STREAM_BOUND_SECONDS for latency in latencies)
    assert on_time >= 0.9 * len(latencies), sorted(latencies)[-10:]
    assert max(latencies) < STALL_BOUND_SECONDS, sorted(latencies)[-5:]


def _play(
    http: httpx.Client,
    game_id: str,
    tokens: dict[int, str],
    readers: dict[int, SseReader],
    state: dict[int, dict[str, Any]],
) -> list[float]:
    rng = random.Random(11)
    latencies: list[float] = []
    refused = False
    for _ in range(1000):
        if state[0]["status"] == "over":
            assert state[1]["status"] == "over" and state[1]["winner"] == state[0]["winner"]
            return latencies
        mover = state[0]["current_seat"]
        assert mover == state[1]["current_seat"] and mover in tokens
        other = 1 - mover
        for seat in tokens:
            assert_own_view(state[seat], seat, tokens[1 - seat])
        if not refused:  # the seat that is not to move is refused with a clear code
            wrong = http.post(
                f"/api/games/{game_id}/actions",
                json={"turn": state[other]["turn"], "action": state[mover]["legal_actions"][0]},
                headers=bearer(tokens[other]),
            )
            assert wrong.status_code == 409 and wrong.json()["code"] == "not_your_turn"
            refused = True
        action = rng.choice(state[mover]["legal_actions"])
        sent = time.monotonic()
        response = http.post(
            f"/api/games/{game_id}/actions",
            json={"turn": state[mover]["turn"], "action": action},
            headers=bearer(tokens[mover]),
        )
        assert response.status_code == 200, response.text
        new = response.json()
        arrived, seen = readers[other].next_state(
            lambda s, n=new["event_count"]: s["event_count"] >= n, 10
        )
        latencies.append(arrived - sent)
        state[mover], state[other] = new, seen
    raise AssertionError("the race did not end within 1000 moves")


def test_a_person_who_never_moves_does_not_stop_the_race(
    launch_server: Any,
    server_command: Any,
    free_port: int,
    open_http: Callable[[str], httpx.Client],
) -> None:
    """With a tiny ``ZZV_TURN_SECONDS`` the autopilot plays every turn of a seat whose
    person joined and left; the creator, following only their event stream, races on."""
    env = {"ZZV_TURN_SECONDS": "0.1", "ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_ACCESS_LOG": "false"}
    server = launch_server(server_command(free_port), port=free_port, env=env)
    http = open_http(server.url)
    body = http.post("/api/games", json={"players": 3, "humans": 2, "bots": "random"}).json()
    game_id, token = body["game_id"], body["token"]
    code = body["invites"][0]["code"]
    assert http.post(f"/api/games/{game_id}/join", json={"code": code}).status_code == 201
    reader = SseReader(f"{server.url}/api/games/{game_id}/events", bearer(token))
    rng = random.Random(4)
    try:
        _at, state = reader.next_state(lambda _s: True, 10)
        for _ in range(2000):
            if state["status"] == "over":
                break
            if state["current_seat"] != 0:
                _at, state = reader.next_state(
                    lambda s, n=state["event_count"]: s["event_count"] > n, 10
                )
                continue
            response = http.post(
                f"/api/games/{game_id}/actions",
                json={"turn": state["turn"], "action": rng.choice(state["legal_actions"])},
                headers=bearer(token),
            )
            if response.status_code == 409:  # our own clock ran out first: the autopilot moved
                assert response.json()["code"] == "stale_turn", response.text
                state = response.json()["state"]
                continue
            assert response.status_code == 200, response.text
            state = response.json()
        else:
            raise AssertionError("the race did not end")
    finally:
        reader.close()
    assert state["status"] == "over"
    assert state["seats"][1]["autopilot_moves"] > 0


def test_event_streams_are_authenticated_and_capped_per_client(
    launch_server: Any,
    server_command: Any,
    free_port: int,
    open_http: Callable[[str], httpx.Client],
) -> None:
    env = {"ZZV_MAX_STREAMS_PER_CLIENT": "1", "ZZV_RATE_LIMIT_ENABLED": "false"}
    server = launch_server(server_command(free_port), port=free_port, env=env)
    http = open_http(server.url)
    body = http.post("/api/games", json={"players": 3, "humans": 2, "bots": "random"}).json()
    url = f"/api/games/{body['game_id']}/events"
    assert http.get(url).status_code == 401
    wrong = http.get(url, headers=bearer(body["invites"][0]["code"]))
    assert wrong.status_code == 404 and wrong.json()["code"] == "not_found"
    first = SseReader(f"{server.url}{url}", bearer(body["token"]))
    try:
        assert first.status == 200
        first.next_state(lambda _s: True, 5)
        second = http.get(url, headers=bearer(body["token"]))
        assert second.status_code == 429 and second.json()["code"] == "too_many_streams"
    finally:
        first.close()

    def reopened() -> bool:
        again = SseReader(f"{server.url}{url}", bearer(body["token"]))
        again.close()
        return again.status == 200

    # the server notices the closed stream within moments
    wait_until(reopened, "the stream's place freed", timeout=10)
