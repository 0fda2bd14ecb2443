"""The weekly cup on a real server, with its results on SQLite (the default file in the
data folder) and on PostgreSQL (``ZZV_DATABASE_URL``): two players, each with a client of
their own, race this week's deals at once; they get the same cards, each deal counts once
per player (two requests at once included), and the board ranks them as docs/cup.md says."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from pg_kit import PostgresServer

from bench.server import find_free_port

pytestmark = pytest.mark.slow

BASE_ENV = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_ACCESS_LOG": "false"}


@pytest.fixture(params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path: Path, launch_server: Any, server_command: Any
) -> str:
    """One real server, its results in a SQLite file or in a fresh PostgreSQL database."""
    env = {**BASE_ENV, "ZZV_DATA_DIR": str(tmp_path / "data")}
    if request.param == "postgresql":
        postgres: PostgresServer = request.getfixturevalue("postgres_server")
        env["ZZV_DATABASE_URL"] = postgres.new_database()
    port = find_free_port()
    url: str = launch_server(server_command(port), port=port, env=env).url
    return url


def play(http: httpx.Client, game: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    auth = {"Authorization": f"Bearer {game['token']}"}
    state = game["state"]
    for _ in range(500):
        if state["game_over"]:
            return
        body = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
        response = http.post(f"/api/games/{game['game_id']}/actions", json=body, headers=auth)
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError("the race did not end")


def racer(url: str, name: str, deals: list[int], seed: int) -> dict[str, Any]:
    """One player's client: their counted race of each of ``deals``, played out; each
    deal's first state and the player's token."""
    firsts: dict[int, Any] = {}
    token: str | None = None
    with httpx.Client(base_url=url, timeout=60) as http:
        for deal in deals:
            headers = {"X-Player-Token": token} if token else {}
            created = http.post(f"/api/cup/{deal}", json={"name": name}, headers=headers)
            assert created.status_code == 201, created.text
            game = created.json()
            assert game["counted"] and not game["state"]["practice"]
            token = game["player_token"]
            firsts[deal] = game["state"]
            play(http, game, seed + deal)
    return {"token": token, "firsts": firsts}


def test_two_players_get_the_same_deals_counted_once_and_ranked(server: str) -> None:
    with ThreadPoolExecutor(2) as pool:
        ada_run = pool.submit(racer, server, "Ada", [1, 2, 3], 10)
        bob_run = pool.submit(racer, server, "Bob", [1, 2], 20)
        ada, bob = ada_run.result(), bob_run.result()
    for deal in (1, 2):
        for key in ("hand", "lead", "gas", "legal_actions"):
            assert ada["firsts"][deal].get(key) == bob["firsts"][deal].get(key), (deal, key)
    with httpx.Client(base_url=server, timeout=60) as http:
        mine = {
            name: http.get("/api/cup", headers={"X-Player-Token": run["token"]}).json()
            for name, run in (("Ada", ada), ("Bob", bob))
        }
        # Two requests at once for Bob's fourth deal: one counted race, one refused.
        headers = {"X-Player-Token": bob["token"]}
        with ThreadPoolExecutor(2) as pool:
            both = list(pool.map(lambda _: http.post("/api/cup/4", headers=headers), range(2)))
        codes = sorted(r.status_code for r in both)
        assert codes == [201, 409], [r.text for r in both]
        counted = next(r.json() for r in both if r.status_code == 201)
        assert counted["counted"]
        refused = next(r.json() for r in both if r.status_code == 409)
        assert refused["code"] == "cup_attempt_running"
        assert refused["game_id"] == counted["game_id"]
        play(http, counted, 5)
        again = http.post("/api/cup/4", headers=headers).json()
        assert not again["counted"] and again["state"]["practice"]
        play(http, again, 6)
        board = http.get("/api/cup").json()["board"]
        bob_after = http.get("/api/cup", headers=headers).json()
    entries = board["entries"]
    assert sorted(e["name"] for e in entries) == ["Ada", "Bob"] and board["ranked"] == 2
    for name, seen in mine.items():
        results = [d for d in seen["deals"] if d["place"] is not None]
        assert [d["deal"] for d in results] == ([1, 2, 3] if name == "Ada" else [1, 2])
        assert all(d["points"] == 5 - d["place"] for d in results if not d["left"])
    bob_results = [d for d in bob_after["deals"] if d["place"] is not None]
    assert [d["deal"] for d in bob_results] == [1, 2, 4]  # the practice race counts nowhere
    totals = {
        "Ada": sum(d["points"] for d in mine["Ada"]["deals"] if d["points"] is not None),
        "Bob": sum(d["points"] for d in bob_results),
    }
    assert {e["name"]: e["points"] for e in entries} == totals
    keys = [(-e["points"], -e["laps"]) for e in entries]
    assert keys == sorted(keys) and entries[0]["rank"] == 1
    print(f"\ncup board (name, points, laps, deals): "
          f"{[(e['name'], e['points'], e['laps'], e['deals']) for e in entries]}")  # fmt: skip
