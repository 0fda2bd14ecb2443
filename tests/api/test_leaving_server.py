"""Leaving is losing on a real server (results in its SQLite file): the app's own sweep
ends a rated race its person walked away from before the store forgets it, and the
person's history says "left"."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import wait_until

from bench.server import find_free_port

pytestmark = pytest.mark.slow


def test_the_sweep_ends_a_race_left_idle_and_records_it_as_left(
    tmp_path: Path, launch_server: Any, server_command: Any
) -> None:
    port = find_free_port()
    env = {
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_DATA_DIR": str(tmp_path / "data"),
        "ZZV_IDLE_EXPIRY_SECONDS": "6",  # so the sweep ends it after 3 s untouched
        "ZZV_SWEEP_INTERVAL_SECONDS": "0.5",
    }
    server = launch_server(server_command(port), port=port, env=env)
    with httpx.Client(base_url=server.url, timeout=60) as http:
        race = http.post("/api/games", json={"players": 4, "bots": "random"}).json()
        auth = {"Authorization": f"Bearer {race['token']}"}
        rng = random.Random(3)
        state, seen = race["state"], list(race["state"]["events"])
        while not any(e["kind"] in ("trick_won", "trick_all_tuned_up") for e in seen):
            body = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
            answer = http.post(f"/api/games/{race['game_id']}/actions", json=body, headers=auth)
            assert answer.status_code == 200, answer.text
            state = answer.json()
            seen += state["events"]
        me = {"X-Player-Token": race["player_token"]}
        # The person walked away; polling /api/me touches no race.
        history: list[dict[str, Any]] = wait_until(
            lambda: http.get("/api/me", headers=me).json()["history"], "the race left"
        )
        assert history[0]["status"] == "left" and history[0]["place"] == 4
        assert history[0]["rating_after"] < history[0]["rating_before"]
        gone = http.get(f"/api/games/{race['game_id']}", headers=auth)
        assert gone.status_code == 200 and gone.json()["status"] == "over"
