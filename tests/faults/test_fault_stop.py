"""A stop keeps everything answered: ``zzv serve`` (what the image runs) on ZZV_DATA_DIR,
stopped with SIGTERM while slow requests are in flight, and killed with SIGKILL before its
graceful window is over, comes back with every race and every answered move; a request
the window cuts off is answered 503, not 500."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import wait_until

from app.cli import GRACEFUL_SHUTDOWN_SECONDS

pytestmark = pytest.mark.slow

Race = tuple[str, str]
"""A race's id and its creator's token."""


def zzv_serve(port: int) -> list[str]:
    """The command line of ``zzv serve`` on 127.0.0.1:``port`` from this checkout."""
    return [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]


def server_env(data: Path, **extra: str) -> dict[str, str]:
    """A server keeping its races in ``data``, limits lifted for the test's own requests."""
    return {
        "ZZV_DATA_DIR": str(data),
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_SEED_SECRET": "stop-test",
        **extra,
    }


def auth(token: str) -> dict[str, str]:
    """The Authorization header of ``token``."""
    return {"Authorization": f"Bearer {token}"}


def play_moves(client: httpx.Client, count: int, moves: int) -> dict[Race, int]:
    """Create ``count`` races and make ``moves`` answered moves in each; their turns."""
    answered: dict[Race, int] = {}
    for _ in range(count):
        body = client.post("/api/games", json={"bots": "random", "players": 3}).json()
        race, state = (body["game_id"], body["token"]), body["state"]
        for _ in range(moves):
            moved = client.post(
                f"/api/games/{race[0]}/actions",
                json={"turn": state["turn"], "action": state["legal_actions"][0]},
                headers=auth(race[1]),
            )
            assert moved.status_code == 200, moved.text
            state = moved.json()
        answered[race] = state["turn"]
    return answered


def read_by_server(sock: socket.socket) -> bool:
    """Whether the server has accepted ``sock``'s connection and read all it was sent: the
    kernel's row of the server's end (/proc/net/tcp) shows nothing left unread."""

    def hex_address(address: tuple[str, int]) -> str:  # as the kernel prints it (x86)
        return f"{socket.inet_aton(address[0])[::-1].hex().upper()}:{address[1]:04X}"

    server_end = (hex_address(sock.getpeername()), hex_address(sock.getsockname()))
    for row in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = row.split()
        if (fields[1], fields[2]) == server_end:
            return fields[4].split(":")[1] == "00000000"
    return False


def searching(client: httpx.Client) -> bool:
    """Whether a hard bot's search is running on the server (its ``/metrics``)."""
    running = re.search(r"^zzv_hard_searches_in_flight (\S+)$", client.get("/metrics").text, re.M)
    return running is not None and float(running.group(1)) > 0


@contextlib.contextmanager
def trickling_move(port: int, race: Race) -> Iterator[socket.socket]:
    """A move whose body comes one byte a second, holding the graceful window open; the
    server has read its head when this returns."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(
        f"POST /api/games/{race[0]}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {race[1]}\r\nContent-Type: application/json\r\n"
        "Content-Length: 400\r\n\r\n{".encode()
    )
    wait_until(lambda: read_by_server(sock), "the server reading the trickled move's head")
    stop = threading.Event()

    def drip() -> None:
        while not stop.wait(1.0):
            with contextlib.suppress(OSError):
                sock.sendall(b" ")

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    try:
        yield sock
    finally:
        stop.set()
        dripper.join(timeout=5)
        sock.close()


def wait_for_log(server: Any, text: str, timeout: float = 10.0) -> None:
    """Wait until the server's log holds ``text``; fail with the log if it never does."""
    try:
        wait_until(lambda: text in server.log(), f"{text!r} in the server's log", timeout)
    except AssertionError:
        pytest.fail(f"no {text!r} in the server's log:\n{server.log()}")


def turns_after_restart(url: str, races: dict[Race, int]) -> dict[Race, int | None]:
    """Each race's turn on the restarted server (None if it did not come back)."""
    found: dict[Race, int | None] = {}
    with httpx.Client(base_url=url, timeout=30) as client:
        for race in races:
            answer = client.get(f"/api/games/{race[0]}", headers=auth(race[1]))
            found[race] = answer.json()["turn"] if answer.status_code == 200 else None
    return found


def test_sigkill_during_the_grace_loses_no_race_the_stop_began_with(
    launch_server: Callable[..., Any], free_port: int, tmp_path: Path
) -> None:
    env = server_env(tmp_path / "data", ZZV_BODY_TIMEOUT_SECONDS="60")
    first = launch_server(zzv_serve(free_port), port=free_port, env=env)
    with httpx.Client(base_url=first.url, timeout=30) as client:
        answered = play_moves(client, count=8, moves=2)
    with trickling_move(free_port, next(iter(answered))):
        first.process.send_signal(signal.SIGTERM)
        wait_for_log(first, "races saved as the stop began")
        wait_for_log(first, "Waiting for connections to close")  # uvicorn, for the trickle
        assert first.process.poll() is None  # the trickle holds the window open ...
        os.kill(first.process.pid, signal.SIGKILL)  # ... and the orchestrator loses patience
        first.process.wait(timeout=10)
    second = launch_server(zzv_serve(free_port), port=free_port, env=env)
    assert turns_after_restart(second.url, answered) == answered


def test_a_hard_move_answered_during_the_grace_survives_a_sigkill(
    launch_server: Callable[..., Any], free_port: int, tmp_path: Path
) -> None:
    env = server_env(
        tmp_path / "data",
        ZZV_BODY_TIMEOUT_SECONDS="60",
        ZZV_BOT_TIME_BUDGET_MS="1500",
        ZZV_HARD_BOT_WORKERS="1",
        ZZV_METRICS="true",
    )
    first = launch_server(zzv_serve(free_port), port=free_port, env=env)
    with httpx.Client(base_url=first.url, timeout=60) as client:
        answered = play_moves(client, count=4, moves=1)
        body = client.post("/api/games", json={"bots": "hard", "players": 3}).json()
        hard: Race = (body["game_id"], body["token"])
        state = body["state"]
        result: list[httpx.Response] = []

        def move() -> None:
            result.append(
                client.post(
                    f"/api/games/{hard[0]}/actions",
                    json={"turn": state["turn"], "action": state["legal_actions"][0]},
                    headers=auth(hard[1]),
                )
            )

        with trickling_move(free_port, next(iter(answered))):
            mover = threading.Thread(target=move)
            mover.start()
            wait_until(lambda: searching(client), "a hard bot thinking")
            first.process.send_signal(signal.SIGTERM)
            mover.join(timeout=GRACEFUL_SHUTDOWN_SECONDS)
            assert result and result[0].status_code == 200, result
            os.kill(first.process.pid, signal.SIGKILL)  # while the window is still open
            first.process.wait(timeout=10)
    answered[hard] = result[0].json()["turn"]
    second = launch_server(zzv_serve(free_port), port=free_port, env=env)
    assert turns_after_restart(second.url, answered) == answered


def test_a_request_cut_off_by_the_end_of_the_grace_is_answered_503(
    launch_server: Callable[..., Any], free_port: int, tmp_path: Path
) -> None:
    env = server_env(tmp_path / "data", ZZV_BODY_TIMEOUT_SECONDS="60")
    first = launch_server(zzv_serve(free_port), port=free_port, env=env)
    with httpx.Client(base_url=first.url, timeout=30) as client:
        answered = play_moves(client, count=3, moves=1)
    with trickling_move(free_port, next(iter(answered))) as sock:
        first.process.send_signal(signal.SIGTERM)
        sock.settimeout(GRACEFUL_SHUTDOWN_SECONDS + 10)
        answer = b""
        with contextlib.suppress(OSError):
            while chunk := sock.recv(4096):
                answer += chunk
    assert answer.startswith(b"HTTP/1.1 503"), answer[:300]
    assert b'"code":"server_stopping"' in answer
    assert first.process.wait(timeout=20) in (0, -signal.SIGTERM)
    second = launch_server(zzv_serve(free_port), port=free_port, env=env)
    assert turns_after_restart(second.url, answered) == answered


def test_open_event_streams_do_not_hold_the_stop_open(
    launch_server: Callable[..., Any], free_port: int, tmp_path: Path
) -> None:
    env = server_env(tmp_path / "data")
    server = launch_server(zzv_serve(free_port), port=free_port, env=env)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        races = list(play_moves(client, count=3, moves=0))
    ended: list[float] = []
    streams = httpx.Client(base_url=server.url, timeout=httpx.Timeout(10.0, read=30.0))
    with contextlib.ExitStack() as open_streams:
        for game_id, token in races:
            response = open_streams.enter_context(
                streams.stream("GET", f"/api/games/{game_id}/events", headers=auth(token))
            )
            assert response.status_code == 200  # the stream is open on the server
        stopped = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        status = server.process.wait(timeout=GRACEFUL_SHUTDOWN_SECONDS + 10)
        ended.append(time.monotonic() - stopped)
    streams.close()
    print(f"stopped {ended[0]:.2f} s after SIGTERM with {len(races)} streams open")
    assert status in (0, -signal.SIGTERM)
    assert ended[0] < GRACEFUL_SHUTDOWN_SECONDS  # the streams did not wait out the window
