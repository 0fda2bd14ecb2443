"""The daily deal on a real server, with its results on SQLite (the default file in the
data folder) and on PostgreSQL (``ZZV_DATABASE_URL``): two players finish today's deal and
the board ranks them in the documented order (place, then laps, tricks won, gas left); a
second counted attempt the same day is practice and leaves the board as it was."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from pg_kit import PostgresServer

from bench.server import find_free_port

pytestmark = pytest.mark.slow

BASE_ENV = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_ACCESS_LOG": "false"}


@dataclass
class Deployment:
    """How to start servers whose results share one database (SQLite or PostgreSQL)."""

    kind: str
    env: dict[str, str]
    launch: Any
    command: Any

    def start(self) -> Any:
        port = find_free_port()
        return self.launch(self.command(port), port=port, env=self.env)


@pytest.fixture(params=["sqlite", "postgresql"])
def deployment(
    request: pytest.FixtureRequest, tmp_path: Path, launch_server: Any, server_command: Any
) -> Deployment:
    """Results in a SQLite file in the data folder, or in a fresh PostgreSQL database."""
    env = {**BASE_ENV, "ZZV_DATA_DIR": str(tmp_path / "data")}
    if request.param == "postgresql":
        postgres: PostgresServer = request.getfixturevalue("postgres_server")
        env["ZZV_DATABASE_URL"] = postgres.new_database()
    return Deployment(request.param, env, launch_server, server_command)


@pytest.fixture
def server(deployment: Deployment) -> str:
    """One real server of :func:`deployment`."""
    url: str = deployment.start().url
    return url


def play_to_the_end(http: httpx.Client, started: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    auth = {"Authorization": f"Bearer {started['token']}"}
    state = started["state"]
    for _ in range(500):
        if state["game_over"]:
            return state
        body = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
        response = http.post(f"/api/games/{started['game_id']}/actions", json=body, headers=auth)
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError("the race did not end")


def test_two_players_are_ranked_and_a_second_attempt_is_practice(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as http:
        finals = {}
        tokens = {}
        for seed, name in ((1, "Ada"), (2, "Bob")):
            created = http.post("/api/daily", json={"name": name})
            assert created.status_code == 201, created.text
            started = created.json()
            assert started["counted"] and not started["state"]["practice"]
            tokens[name] = started["player_token"]
            final = play_to_the_end(http, started, seed)
            record = http.get(
                f"/api/games/{started['game_id']}/record",
                headers={"Authorization": f"Bearer {started['token']}"},
            ).json()
            tricks = Counter(e["seat"] for e in record["events"] if e["kind"] == "trick_won")
            me = next(p for p in final["players"] if p["seat"] == 0)
            finals[name] = (me["laps"], tricks[0], me["gas"])
        board = http.get("/api/daily/leaderboard").json()
        entries = board["entries"]
        assert sorted(e["name"] for e in entries) == ["Ada", "Bob"]
        keys = [(e["place"], -e["laps"], -e["tricks"], -e["gas"]) for e in entries]
        assert keys == sorted(keys)
        assert entries[0]["rank"] == 1
        assert entries[1]["rank"] == (1 if keys[0] == keys[1] else 2)
        for entry in entries:
            assert (entry["laps"], entry["tricks"], entry["gas"]) == finals[entry["name"]]
        # Each player finds their own result with their token.
        assert board["ranked"] == 2 and board["you"] is None
        for name, token in tokens.items():
            seen = http.get("/api/daily/leaderboard", headers={"X-Player-Token": token}).json()
            assert seen["you"] == next(e for e in entries if e["name"] == name)
        # Ada comes back the same day: practice, and the board does not change.
        again = http.post("/api/daily", json={}, headers={"X-Player-Token": tokens["Ada"]})
        assert again.status_code == 201
        second = again.json()
        assert not second["counted"] and second["state"]["practice"]
        assert second["player_token"] == tokens["Ada"]
        play_to_the_end(http, second, 7)
        assert http.get("/api/daily/leaderboard").json()["entries"] == entries
        # The page shows the board.
        page = http.get("/daily").text
        assert "Ada" in page and "Bob" in page
        columns = ("rank", "name", "place", "laps", "tricks", "gas")
        rows = [tuple(e[c] for c in columns) for e in entries]
        print(f"\nboard (rank, name, place, laps, tricks, gas): {rows}")


def test_the_day_deals_the_same_cards_after_a_restart_and_on_every_worker(
    deployment: Deployment,
) -> None:
    """The day's key lives in the results database: a restarted server (SQLite) or a
    second server on the same PostgreSQL deals the same daily cards."""
    first = deployment.start()
    hand = httpx.post(f"{first.url}/api/daily", json={}, timeout=60).json()["state"]["hand"]
    if deployment.kind == "sqlite":
        first.stop()  # one data folder, one server at a time
    second = deployment.start()
    again = httpx.post(f"{second.url}/api/daily", json={}, timeout=60).json()
    assert again["counted"] and again["state"]["hand"] == hand


def test_one_address_starts_a_bounded_number_of_counted_attempts(
    deployment: Deployment,
) -> None:
    """``ZZV_DAILY_ATTEMPTS_PER_ADDRESS`` counted attempts a day from one address, counted in
    the results database; the next new player from it is refused and deals nothing."""
    deployment.env["ZZV_DAILY_ATTEMPTS_PER_ADDRESS"] = "2"
    server = deployment.start()
    with httpx.Client(base_url=server.url, timeout=60) as http:
        for _ in range(2):
            created = http.post("/api/daily", json={})
            assert created.status_code == 201 and created.json()["counted"], created.text
        full = http.post("/api/daily", json={})
        assert full.status_code == 429, full.text
        assert full.json()["code"] == "daily_address_full"
        assert "hand" not in full.text
