"""Results over a real uvicorn with plain httpx, on the default SQLite file and on a real
PostgreSQL (``ZZV_DATABASE_URL``): a player's history and rating after finished races,
the leaderboard once they choose to show, and the readiness check of the database."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.slow

BASE_ENV = {
    "ZZV_RATE_LIMIT_ENABLED": "false",
    "ZZV_MAX_GAMES_PER_CLIENT": "100000",
    "ZZV_ACCESS_LOG": "false",
}


def play_race(client: httpx.Client, token: str | None, seed: int) -> tuple[str, str, int]:
    """Create a rated race against random bots as ``token``'s player and play it to the end
    (``seed`` picks the person's moves); its id, the player token answered, and the winner."""
    headers = {"X-Player-Token": token} if token else {}
    created = client.post("/api/games", json={"players": 4, "bots": "random"}, headers=headers)
    assert created.status_code == 201, created.text
    body = created.json()
    auth = {"Authorization": f"Bearer {body['token']}"}
    state, rng = body["state"], random.Random(seed)
    for _ in range(1000):
        if state["game_over"]:
            return body["game_id"], body["player_token"], state["winner"]
        payload = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
        moved = client.post(f"/api/games/{body['game_id']}/actions", json=payload, headers=auth)
        assert moved.status_code == 200, moved.text
        state = moved.json()
    raise AssertionError("the race did not end")


def test_history_rating_and_leaderboard_on_a_real_server(
    results_database: str,
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    free_port: int,
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    env = {**BASE_ENV, "ZZV_DATA_DIR": str(data)}
    on_postgres = results_database.startswith("postgresql")
    if on_postgres:
        env["ZZV_DATABASE_URL"] = results_database
    server = launch_server(server_command(free_port), port=free_port, env=env)
    with httpx.Client(base_url=server.url, timeout=60) as client:
        ready = client.get("/readyz").json()
        assert ready["results"] == "ok"
        first, token, winner = play_race(client, None, seed=21)
        me = client.get("/api/me", headers={"X-Player-Token": token}).json()
        assert [h["game_id"] for h in me["history"]] == [first]
        assert me["history"][0]["place"] >= 1 and (me["history"][0]["place"] == 1) == (winner == 0)
        assert me["rating"]["races"] == 1 and me["rating"]["sigma"] < 25 / 3
        after_one = me["rating"]

        second, again, _ = play_race(client, token, seed=22)
        assert again == token
        me = client.get("/api/me", headers={"X-Player-Token": token}).json()
        assert [h["game_id"] for h in me["history"]] == [second, first]  # newest first
        assert me["rating"]["races"] == 2 and me["rating"]["mu"] != after_one["mu"]
        assert me["history"][0]["rating_before"] == after_one["display"]
        assert me["history"][0]["rating_after"] == me["rating"]["display"]
        replay = client.get(me["history"][1]["replay_url"].replace(server.url, ""))
        assert replay.status_code == 200

        [listed] = client.get("/api/leaderboard").json()["entries"]  # shown unless opted out
        assert listed["name"] == me["name"] and listed["races"] == 2
        shown = client.put(
            "/api/me", json={"name": "Ada", "show": True}, headers={"X-Player-Token": token}
        )
        assert shown.status_code == 200, shown.text
        board = client.get("/api/leaderboard").json()["entries"]
        assert board == [{"rank": 1, "name": "Ada", "rating": me["rating"]["display"], "races": 2}]
    assert (data / "results.sqlite3").is_file() != on_postgres
    assert "Traceback" not in server.log(), server.log()[-3000:]
