"""Abuse limits: the per-client cap on live races, the idle clock that only the race's owner
moves, no expiry or eviction during a move, and the worker count that needs a shared store.
The request-header timeout has its own module, tests/test_header_timeout.py."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from app_kit import asgi_client, bearer, create
from bot_kit import HeldSearch
from fastapi.testclient import TestClient
from store_kit import RedisServer

from app.bots import runner as bot_runner
from app.storage.memory import ManualClock
from engine import Action

Launch = Callable[..., Any]


def test_one_client_cannot_hold_more_than_its_cap_of_live_races(
    app_with: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    decisions = []
    real = bot_runner.choose_bot_action

    def counting(*args: Any, **kwargs: Any) -> Action:
        decisions.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(bot_runner, "choose_bot_action", counting)
    with TestClient(app_with(max_games_per_client=2), follow_redirects=False) as client:
        game_id, token, _ = create(client, bots="random")
        client.post("/games", data={"players": "3", "bots": "random"})
        thought = len(decisions)
        refused = client.post("/api/games", json={"bots": "random"})
        assert refused.status_code == 429
        assert refused.json()["code"] == "too_many_games"
        assert "2 races running" in refused.json()["message"]
        page = client.post("/games", data={"players": "3"}, headers={"Accept": "text/html"})
        assert page.status_code == 429 and "2 races running" in page.text
        assert len(decisions) == thought  # a refused creation runs no bot
        assert client.get(f"/api/games/{game_id}", headers=bearer(token)).status_code == 200


def test_only_the_right_token_moves_the_idle_clock(app_with: Any, clock: ManualClock) -> None:
    with TestClient(app_with(idle_expiry_seconds=60), follow_redirects=False) as client:
        kept_id, kept_token, _ = create(client)
        probed_id, probed_token, _ = create(client)
        clock.now += 50
        assert client.get(f"/api/games/{kept_id}", headers=bearer(kept_token)).status_code == 200
        for _ in range(3):  # strangers poking at the race with wrong credentials
            wrong = client.get(f"/api/games/{probed_id}", headers=bearer("x" * 43))
            assert wrong.status_code == 404
            cookie = {"Cookie": f"zzv_{probed_id}={'y' * 43}"}
            assert client.get(f"/games/{probed_id}", headers=cookie).status_code == 404
        clock.now += 20  # 70 s since creation, 20 s since the owner's last read
        gone = client.get(f"/api/games/{probed_id}", headers=bearer(probed_token))
        assert gone.status_code == 410
        assert client.get(f"/api/games/{kept_id}", headers=bearer(kept_token)).status_code == 200


def test_a_race_is_not_expired_or_evicted_while_its_move_runs(
    app_with: Any, clock: ManualClock
) -> None:
    search = HeldSearch()
    app = app_with(idle_expiry_seconds=60, max_games=1, evict_min_idle_seconds=0)
    search.install(app)

    async def main() -> None:
        async with asgi_client(app) as client:
            created = (await client.post("/api/games", json={"players": 3, "bots": "hard"})).json()
            auth = bearer(created["token"])
            legal = created["state"]["legal_actions"]
            action = next(a for a in legal if a["type"] == "tune_up")  # a bot must reply
            search.release.clear()
            url = f"/api/games/{created['game_id']}/actions"
            move = asyncio.create_task(
                client.post(url, json={"turn": 0, "action": action}, headers=auth)
            )
            while search.running == 0:
                assert not move.done(), move.result().text
                await asyncio.sleep(0.01)
            clock.now += 600  # far past the idle expiry, mid-move
            assert await app.state.store.sweep() == 0
            full = await client.post("/api/games", json={"players": 3})
            assert full.status_code == 503  # the only slot is busy: no eviction
            search.release.set()
            moved = await move
            assert moved.status_code == 200 and moved.json()["turn"] == 1
            again = await client.get(f"/api/games/{created['game_id']}", headers=auth)
            assert again.status_code == 200

    asyncio.run(main())


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m app.cli ...`` with a bounded run time."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_several_workers_without_redis_are_refused_with_a_sentence() -> None:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("ZZV_")}
    for args, extra in ((["--workers", "3"], {}), ([], {"ZZV_WORKERS": "2"})):
        result = run_cli("serve", "--port", "1", *args, env={**env, **extra})
        assert result.returncode == 2
        assert "need a shared game store: set ZZV_REDIS_URL" in result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_several_workers_serve_every_race_with_redis(
    fresh_redis: RedisServer, launch_server: Launch, free_port: int
) -> None:
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(free_port)]
    env = {"ZZV_WORKERS": "2", "ZZV_REDIS_URL": fresh_redis.url, "ZZV_RATE_LIMIT_ENABLED": "0"}
    server = launch_server(command, port=free_port, env=env)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        body = client.post("/api/games", json={"players": 3, "bots": "random"}).json()
        auth = bearer(body["token"])
        state = body["state"]
        for _ in range(4):  # each request may land on either worker
            if state["game_over"]:
                break
            payload = {"turn": state["turn"], "action": state["legal_actions"][0]}
            response = client.post(
                f"/api/games/{body['game_id']}/actions", json=payload, headers=auth
            )
            assert response.status_code == 200, response.text
            state = response.json()
    assert "Started parent process" in server.log()  # uvicorn's supervisor of 2 workers
