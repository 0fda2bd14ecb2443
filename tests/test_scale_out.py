"""Scale-out and restarts with real processes: two uvicorns on one real Redis, a killed
worker, a restarted Redis, the memory store saved across a graceful restart, and a store
that goes away. Every server and Redis listens on 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from store_kit import RedisServer, start_redis

pytestmark = pytest.mark.slow

Launch = Callable[..., Any]
Command = Callable[..., list[str]]

CONCURRENT = 50

BASE_ENV = {
    "ZZV_RATE_LIMIT_ENABLED": "false",
    "ZZV_MAX_GAMES_PER_CLIENT": "100000",
    "ZZV_ACCESS_LOG": "false",
}


def redis_env(redis: RedisServer) -> dict[str, str]:
    """Environment of a server on ``redis``."""
    return {**BASE_ENV, "ZZV_REDIS_URL": redis.url}


def two_servers(launch: Launch, command: Command, env: dict[str, str]) -> list[Any]:
    """Two uvicorn processes with the same environment, each on its own free port."""
    from bench.server import find_free_port

    servers = []
    for _ in range(2):
        port = find_free_port()
        servers.append(
            launch(command(port, "--timeout-graceful-shutdown", "5"), port=port, env=env)
        )
    return servers


def create(base_url: str, **body: Any) -> tuple[str, dict[str, str], dict[str, Any]]:
    """Start a race on ``base_url``; (game id, auth header, state)."""
    response = httpx.post(f"{base_url}/api/games", json={"bots": "normal", **body}, timeout=30)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["game_id"], {"Authorization": f"Bearer {data['token']}"}, data["state"]


def move(base_url: str, game_id: str, auth: dict[str, str], state: dict[str, Any], rng: Any) -> Any:
    """One random legal move; the response."""
    payload = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
    return httpx.post(
        f"{base_url}/api/games/{game_id}/actions", json=payload, headers=auth, timeout=30
    )


def play_to_the_end(urls: list[str], game_id: str, auth: dict[str, str], state: Any) -> Any:
    """Play the race to its end, sending each move to the next server in turn."""
    rng = random.Random(3)
    for step in range(1000):
        if state["game_over"]:
            return state
        response = move(urls[step % len(urls)], game_id, auth, state, rng)
        assert response.status_code == 200, response.text
        assert response.json()["turn"] == state["turn"] + 1
        state = response.json()
    raise AssertionError("the race did not end")


def test_a_race_is_played_to_the_end_through_two_servers_alternately(
    fresh_redis: RedisServer, launch_server: Launch, server_command: Command
) -> None:
    first, second = two_servers(launch_server, server_command, redis_env(fresh_redis))
    game_id, auth, state = create(first.url, players=4)
    final = play_to_the_end([second.url, first.url], game_id, auth, state)
    for server in (first, second):
        record = httpx.get(f"{server.url}/api/games/{game_id}/record", headers=auth).json()
        assert record["complete"] and record["winner"] == final["winner"]


def test_concurrent_identical_moves_across_two_servers_apply_once(
    fresh_redis: RedisServer, launch_server: Launch, server_command: Command
) -> None:
    from test_concurrency import _check

    first, second = two_servers(launch_server, server_command, redis_env(fresh_redis))
    game_id, auth, state = create(first.url, players=4, seed=77)
    payload = {"turn": 0, "action": state["legal_actions"][0]}

    async def main() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=CONCURRENT)
        async with (
            httpx.AsyncClient(base_url=first.url, limits=limits, timeout=60) as a,
            httpx.AsyncClient(base_url=second.url, limits=limits, timeout=60) as b,
        ):
            clients = [a, b]
            return await asyncio.gather(
                *(
                    clients[i % 2].post(f"/api/games/{game_id}/actions", json=payload, headers=auth)
                    for i in range(CONCURRENT)
                )
            )

    responses = asyncio.run(main())
    after = httpx.get(
        f"{second.url}/api/games/{game_id}", params={"since": 0}, headers=auth, timeout=30
    ).json()
    _check(list(responses), (state, after))


def test_a_killed_server_leaves_its_races_to_the_other(
    fresh_redis: RedisServer, launch_server: Launch, server_command: Command
) -> None:
    first, second = two_servers(launch_server, server_command, redis_env(fresh_redis))
    game_id, auth, state = create(first.url, players=3)
    rng = random.Random(8)
    for _ in range(3):
        response = move(first.url, game_id, auth, state, rng)
        assert response.status_code == 200
        state = response.json()
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(timeout=20)
    final = play_to_the_end([second.url], game_id, auth, state)
    assert final["game_over"]


def test_a_race_survives_a_redis_restart_from_its_append_only_file(
    tmp_path: Path, launch_server: Launch, server_command: Command
) -> None:
    redis = start_redis(tmp_path)
    try:
        (server,) = two_servers(launch_server, server_command, redis_env(redis))[:1]
        game_id, auth, state = create(server.url, players=4)
        response = move(server.url, game_id, auth, state, random.Random(1))
        assert response.status_code == 200
        state = response.json()
        redis.stop()  # SIGTERM: Redis flushes its append-only file
        down = move(server.url, game_id, auth, state, random.Random(1))
        assert down.status_code == 503 and down.json()["code"] == "unavailable"
        redis.start()  # same port, same directory: reloads the append-only file
        again = httpx.get(f"{server.url}/api/games/{game_id}", headers=auth, timeout=30)
        assert again.status_code == 200, again.text
        assert again.json()["turn"] == state["turn"] == 1
        assert play_to_the_end([server.url], game_id, auth, again.json())["game_over"]
    finally:
        redis.stop()


def test_the_store_going_away_answers_503_and_recovers(
    tmp_path: Path, launch_server: Launch, server_command: Command
) -> None:
    redis = start_redis(tmp_path)
    try:
        (server,) = two_servers(launch_server, server_command, redis_env(redis))[:1]
        game_id, auth, state = create(server.url, players=3)
        cookie = {"Accept": "text/html"}
        assert httpx.get(f"{server.url}/readyz").status_code == 200
        redis.stop()
        api = httpx.post(f"{server.url}/api/games", json={}, timeout=30)
        assert api.status_code == 503
        assert api.json()["code"] == "unavailable"
        assert "unavailable" in api.json()["message"]
        # The seat's own browser (its cookie holds the token): not a missing cookie's 404.
        seat_cookie = {f"zzv_{game_id}": auth["Authorization"].removeprefix("Bearer ")}
        page = httpx.get(
            f"{server.url}/games/{game_id}", headers=cookie, cookies=seat_cookie, timeout=30
        )
        assert page.status_code == 503
        assert "text/html" in page.headers["content-type"]
        assert "The game server is unavailable" in page.text
        form = httpx.post(f"{server.url}/games", data={"players": "3"}, headers=cookie)
        assert form.status_code == 503 and "unavailable" in form.text
        ready = httpx.get(f"{server.url}/readyz", timeout=30)
        assert ready.status_code == 503
        assert ready.json()["status"] == "unavailable"
        assert ready.json()["store"] == "unreachable" and ready.json()["games"] is None
        health = httpx.get(f"{server.url}/healthz", timeout=30)
        assert health.status_code == 200 and health.json()["games"] is None
        redis.start()
        assert httpx.get(f"{server.url}/readyz", timeout=30).status_code == 200
        response = httpx.get(f"{server.url}/api/games/{game_id}", headers=auth, timeout=30)
        assert response.status_code == 200 and response.json()["turn"] == state["turn"]
        assert "Traceback" not in server.log(), server.log()[-3000:]
    finally:
        redis.stop()


def test_memory_only_races_survive_a_graceful_restart_with_a_data_dir(
    tmp_path: Path, launch_server: Launch, server_command: Command, free_port: int
) -> None:
    env = {**BASE_ENV, "ZZV_DATA_DIR": str(tmp_path / "data"), "ZZV_DURABLE": "false"}
    command = server_command(free_port, "--timeout-graceful-shutdown", "5")
    server = launch_server(command, port=free_port, env=env)
    game_id, auth, state = create(server.url, players=4)
    rng = random.Random(5)
    for _ in range(2):
        state = move(server.url, game_id, auth, state, rng).json()
    before = httpx.get(f"{server.url}/api/games/{game_id}", params={"since": 0}, headers=auth)
    assert server.stop() in (0, -signal.SIGTERM)
    assert "races saved" in server.log()
    again = launch_server(command, port=free_port, env=env)
    after = httpx.get(f"{again.url}/api/games/{game_id}", params={"since": 0}, headers=auth)
    assert after.status_code == 200
    assert after.json() == before.json()
    assert after.json()["turn"] == 2
    assert play_to_the_end([again.url], game_id, auth, after.json())["game_over"]


def test_a_memory_only_race_lost_to_a_killed_server_says_the_server_restarted(
    tmp_path: Path, launch_server: Launch, server_command: Command, free_port: int
) -> None:
    env = {**BASE_ENV, "ZZV_DATA_DIR": str(tmp_path / "data"), "ZZV_DURABLE": "false"}
    command = server_command(free_port, "--timeout-graceful-shutdown", "5")
    server = launch_server(command, port=free_port, env=env)
    game_id, auth, _ = create(server.url, players=3)
    created = httpx.post(f"{server.url}/games", data={"players": "3"})
    web_id = created.headers["location"].rsplit("/", 1)[1]
    cookie = {"Cookie": f"zzv_{web_id}={created.cookies[f'zzv_{web_id}']}"}
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=20)
    again = launch_server(command, port=free_port, env=env)
    gone = httpx.get(f"{again.url}/api/games/{game_id}", headers=auth)
    assert gone.status_code == 410
    assert "server restarted" in gone.json()["message"]
    page = httpx.get(f"{again.url}/games/{web_id}", headers=cookie)
    assert page.status_code == 410
    assert "The server restarted" in page.text and "another browser" not in page.text
    stranger = httpx.get(f"{again.url}/api/games/{game_id}", headers={"Authorization": "Bearer x"})
    assert stranger.status_code == 404


def test_two_servers_on_one_results_database_deal_alike_and_read_each_others_pages(
    fresh_redis: RedisServer, launch_server: Launch, server_command: Command, tmp_path: Path
) -> None:
    """No ``ZZV_SEED_SECRET``: both servers take the seed key from their results database,
    so a seed deals the same cards on either, and the notice a refused move leaves in the
    page's signed memory on one shows on the other."""
    env = {**redis_env(fresh_redis), "ZZV_DATABASE_URL": f"sqlite:///{tmp_path / 'r.sqlite3'}"}
    first, second = two_servers(launch_server, server_command, env)
    deals = [create(server.url, players=3, seed=7)[2]["hand"] for server in (first, second)]
    assert deals[0] == deals[1]
    # One browser (cookies are kept per host, whatever the port) without JavaScript.
    with httpx.Client(timeout=30) as browser:
        started = browser.post(f"{first.url}/games", data={"players": "3", "bots": "random"})
        assert started.status_code == 303, started.text
        table = started.headers["location"]
        page = browser.get(f"{first.url}{table}").text
        turn = re.search(r'name="turn" value="(\d+)"', page)
        choice = re.search(r'name="choice" value="(up:\w+)"', page)
        assert turn and choice, page
        fields = {"turn": turn[1], "choice": choice[1], "gas": "99"}
        refused = browser.post(f"{first.url}{table}/move", data=fields)
        assert refused.status_code == 303
        shown = browser.get(f"{second.url}{table}").text
    assert re.search(r"at most \d gas", shown), shown
