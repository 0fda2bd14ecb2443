"""The API over a real uvicorn with plain httpx: whole races, health, and a clean shutdown."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import wait_until

pytestmark = pytest.mark.slow


def test_whole_race_over_http(live_server: str) -> None:
    rng = random.Random(4)
    with httpx.Client(base_url=live_server, timeout=30) as client:
        assert client.get("/healthz").json()["status"] == "ok"
        created = client.post("/api/games", json={"players": 5, "bots": "normal"})
        assert created.status_code == 201
        body = created.json()
        auth = {"Authorization": f"Bearer {body['token']}"}
        state = body["state"]
        moves = 0
        while not state["game_over"]:
            payload = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
            response = client.post(
                f"/api/games/{body['game_id']}/actions", json=payload, headers=auth
            )
            assert response.status_code == 200, response.text
            assert "content-security-policy" in response.headers
            state = response.json()
            moves += 1
            assert moves < 1000
        record = client.get(f"/api/games/{body['game_id']}/record", headers=auth).json()
        assert record["complete"] and record["winner"] == state["winner"]


def test_the_bot_guide_plays_a_whole_race(live_server: str) -> None:
    """docs/bot-api.md's example runs as written against a real server, to the flag."""
    guide = (Path(__file__).resolve().parents[2] / "docs" / "bot-api.md").read_text()
    match = re.search(r"```python\n# docs:bot-example\n(.*?)```", guide, re.DOTALL)
    assert match, "docs/bot-api.md lost its example"
    namespace: dict[str, Any] = {}
    exec(match.group(1).replace("http://127.0.0.1:8000", live_server), namespace)
    final = namespace["final"]
    assert final["game_over"] and final["winner"] in range(4)
    assert final["seat"] == 0


def test_head_answers_wherever_get_does(live_server: str) -> None:
    """What an uptime monitor or ``curl -I`` sends: the GET's status and headers, no body,
    over the real server; HEAD is among the methods a 405 names."""
    with httpx.Client(base_url=live_server, timeout=30) as client:
        for path in ("/", "/healthz", "/rules", "/api/leaderboard"):
            got, head = client.get(path), client.head(path)
            assert head.status_code == got.status_code == 200, path
            assert head.content == b"", path
            assert head.headers["content-type"] == got.headers["content-type"], path
            assert "content-security-policy" in head.headers, path
        assert client.head("/no-such-page").status_code == 404
        refused = client.delete("/healthz")
        assert refused.status_code == 405 and refused.headers["allow"] == "GET, HEAD"


def test_head_of_a_live_stream_ends_at_its_headers(live_server: str) -> None:
    """A HEAD of the event stream answers its headers and is done: the same connection
    then answers the next request (a stream left running would hold it)."""
    with httpx.Client(base_url=live_server, timeout=30) as client:
        race = client.post("/api/games", json={"players": 3}).json()
    host, port = live_server.removeprefix("http://").split(":")
    pipelined = (
        f"HEAD /api/games/{race['game_id']}/events HTTP/1.1\r\nHost: {host}\r\n"
        f"Authorization: Bearer {race['token']}\r\n\r\n"
        f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    received = b""
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(pipelined.encode())
        while chunk := connection.recv(65536):
            received += chunk
    heads = received.split(b"\r\n\r\n")
    assert heads[0].startswith(b"HTTP/1.1 200") and b"text/event-stream" in heads[0]
    assert heads[1].startswith(b"HTTP/1.1 200") and b'"status":"ok"' in received


def test_shutdown_logs_the_number_of_games_in_memory(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> None:
    command = server_command(free_port)
    server = launch_server(command, port=free_port, env={"ZZV_RATE_LIMIT_ENABLED": "false"})
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for _ in range(3):
            assert client.post("/api/games", json={"bots": "random"}).status_code == 201
        token = client.post("/api/games", json={"bots": "random"}).json()["token"]
    # Recent uvicorn re-raises the SIGTERM it handled after a graceful stop.
    assert server.stop() in (0, -signal.SIGTERM)
    log = server.log()
    assert "Application shutdown complete" in log
    assert '"games": 4' in log
    assert '"path": "/api/games"' in log  # structured access lines
    assert token not in log


def _children(pid: int) -> set[int]:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def test_hard_bot_workers_stop_with_the_server(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> None:
    command = server_command(free_port)
    env = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_BOT_TIME_BUDGET_MS": "20"}
    server = launch_server(command, port=free_port, env=env)
    rng = random.Random(1)
    with httpx.Client(base_url=server.url, timeout=60) as client:
        body = client.post("/api/games", json={"players": 5, "bots": "hard"}).json()
        auth = {"Authorization": f"Bearer {body['token']}"}
        state = body["state"]
        for _ in range(3):  # the hard bots answer every human move
            payload = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
            state = client.post(
                f"/api/games/{body['game_id']}/actions", json=payload, headers=auth
            ).json()
    workers = _children(server.process.pid)
    assert workers, "the hard bots should have started worker processes"
    server.stop()
    wait_until(
        lambda: not any(os.path.exists(f"/proc/{p}") for p in workers),
        f"the worker processes {workers} ending with the server",
        timeout=10,
    )
