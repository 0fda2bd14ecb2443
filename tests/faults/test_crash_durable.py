"""``kill -9`` of a real uvicorn on the default store (the write-through SQLite file): after a
restart on the same data folder every race continues from the turn it had, with every
answered move in its log, and a race that expired before the kill still answers 410; the
results (history, rating, leaderboard in ``results.sqlite3``) are as they were, and a race
left mid-way at the kill still counts for its player once finished after the restart."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import await_until

pytestmark = pytest.mark.slow

Launch = Callable[..., Any]
Command = Callable[..., list[str]]

RACES = 20
MOVES_BEFORE_KILL = 3
"""Answered moves every race has at least when the server is killed (more are in flight)."""

BASE_ENV = {
    "ZZV_RATE_LIMIT_ENABLED": "false",
    "ZZV_MAX_GAMES_PER_CLIENT": "100000",
    "ZZV_ACCESS_LOG": "false",
}


def kill_hard(server: Any) -> None:
    """SIGKILL: no shutdown hook runs, nothing is saved on the way out."""
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=20)


class Player:
    """One race's person, keeping every answer the server gave: the events they were
    delivered, in order, and the last state."""

    def __init__(self, game_id: str, token: str, state: dict[str, Any]) -> None:
        self.game_id = game_id
        self.auth = {"Authorization": f"Bearer {token}"}
        self.state = state
        self.seen: list[Any] = list(state["events"])
        self.answered = 0

    async def play(self, client: httpx.AsyncClient, rng: random.Random) -> None:
        """Move until the server goes away (or the race ends)."""
        while not self.state["game_over"]:
            body = {"turn": self.state["turn"], "action": rng.choice(self.state["legal_actions"])}
            try:
                response = await client.post(
                    f"/api/games/{self.game_id}/actions", json=body, headers=self.auth
                )
            except httpx.TransportError:
                return  # killed mid-move: this move was never answered
            assert response.status_code == 200, response.text
            self.state = response.json()
            self.seen += self.state["events"]
            self.answered += 1


async def play_until_killed(
    url: str, server: Any, expired: tuple[str, dict[str, str]]
) -> list[Player]:
    """Start the races, move in all of them at once, kill the server while they move."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        players = []
        for seed in range(RACES):
            body = {"players": 3 + seed % 3, "bots": "random", "seed": seed}
            created = await client.post("/api/games", json=body)
            assert created.status_code == 201, created.text
            data = created.json()
            players.append(Player(data["game_id"], data["token"], data["state"]))
        gone = await client.get(f"/api/games/{expired[0]}", headers=expired[1])
        assert gone.status_code == 410, server.log()  # expired before the kill
        tasks = [
            asyncio.create_task(player.play(client, random.Random(i)))
            for i, player in enumerate(players)
        ]
        await await_until(
            lambda: (
                min(p.answered for p in players if not p.state["game_over"]) >= MOVES_BEFORE_KILL
            ),
            "the races moving",
            timeout=120,
        )
        kill_hard(server)
        await asyncio.gather(*tasks)
    return players


def play_to_end(client: httpx.Client, game_id: str, auth: dict[str, str], state: Any) -> None:
    """Random legal moves until the race ends."""
    rng = random.Random(game_id)
    while not state["game_over"]:
        body = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
        moved = client.post(f"/api/games/{game_id}/actions", json=body, headers=auth)
        assert moved.status_code == 200, moved.text
        state = moved.json()


class Regular:
    """A player with a name on the leaderboard, one finished race and one left mid-way."""

    def __init__(self, url: str) -> None:
        with httpx.Client(base_url=url, timeout=30) as client:
            made = client.post("/api/me", json={"name": "Durable", "show": True})
            assert made.status_code == 200, made.text
            self.me = {"X-Player-Token": made.json()["player_token"]}
            body = {"players": 3, "bots": "random"}  # rated: the server draws the seed
            done = client.post("/api/games", json=body, headers=self.me).json()
            done_auth = {"Authorization": f"Bearer {done['token']}"}
            play_to_end(client, done["game_id"], done_auth, done["state"])
            body = {"players": 3, "bots": "random"}
            open_race = client.post("/api/games", json=body, headers=self.me).json()
            self.game_id = open_race["game_id"]
            self.auth = {"Authorization": f"Bearer {open_race['token']}"}
            state = open_race["state"]
            for _ in range(2):
                moved = client.post(
                    f"/api/games/{self.game_id}/actions",
                    json={"turn": state["turn"], "action": state["legal_actions"][0]},
                    headers=self.auth,
                )
                state = moved.json()
            self.turn = state["turn"]
            self.results = client.get("/api/me", headers=self.me).json()
            self.board = client.get("/api/leaderboard").json()
        assert len(self.results["history"]) == 1 and self.results["rating"]["races"] == 1
        assert [e["name"] for e in self.board["entries"]] == ["Durable"]

    def check_after_restart(self, client: httpx.Client) -> None:
        """Results as before the kill; the open race continues and then counts."""
        assert client.get("/api/me", headers=self.me).json() == self.results
        assert client.get("/api/leaderboard").json() == self.board
        state = client.get(f"/api/games/{self.game_id}", headers=self.auth).json()
        assert state["turn"] == self.turn
        play_to_end(client, self.game_id, self.auth, state)
        after = client.get("/api/me", headers=self.me).json()
        assert after["history"][0]["game_id"] == self.game_id
        assert after["rating"]["races"] == 2


def test_kill_9_loses_no_race_and_no_answered_move(
    tmp_path: Path, launch_server: Launch, server_command: Command, free_port: int
) -> None:
    data_dir = tmp_path / "data"
    command = server_command(free_port, "--timeout-graceful-shutdown", "5")
    # First a server whose races expire after 1 s: one race is created and left to expire.
    short = {**BASE_ENV, "ZZV_DATA_DIR": str(data_dir), "ZZV_IDLE_EXPIRY_SECONDS": "1"}
    server = launch_server(command, port=free_port, env=short)
    created = httpx.post(f"{server.url}/api/games", json={"bots": "random"}, timeout=30)
    assert created.status_code == 201
    expired_id = created.json()["game_id"]
    expired_auth = {"Authorization": f"Bearer {created.json()['token']}"}
    # Left alone past its expiry (1 s): a seat's read would hold it off, and no other
    # outside look tells an expired race from a live one, so there is no state to poll.
    time.sleep(1.5)
    found = httpx.get(f"{server.url}/api/games/{expired_id}", headers=expired_auth, timeout=30)
    assert found.status_code == 410, found.text
    kill_hard(server)

    env = {**BASE_ENV, "ZZV_DATA_DIR": str(data_dir)}
    server = launch_server(command, port=free_port, env=env)
    assert (data_dir / "races.sqlite3").is_file()
    assert (data_dir / "results.sqlite3").is_file()
    regular = Regular(server.url)
    players = asyncio.run(play_until_killed(server.url, server, (expired_id, expired_auth)))
    assert sum(p.answered for p in players) >= RACES * MOVES_BEFORE_KILL

    again = launch_server(command, port=free_port, env=env)
    with httpx.Client(base_url=again.url, timeout=30) as client:
        lost = []
        for player in players:
            found = client.get(
                f"/api/games/{player.game_id}", params={"since": 0}, headers=player.auth
            )
            if found.status_code != 200:
                lost.append((player.game_id, found.status_code))
                continue
            state = found.json()
            # Every answered move is there; a move the kill cut off unanswered may be too.
            assert state["events"][: len(player.seen)] == player.seen
            assert state["turn"] >= player.state["turn"]
            if state["turn"] == player.state["turn"]:
                assert state["legal_actions"] == player.state["legal_actions"]
            if not state["game_over"]:
                body = {"turn": state["turn"], "action": state["legal_actions"][0]}
                moved = client.post(
                    f"/api/games/{player.game_id}/actions", json=body, headers=player.auth
                )
                assert moved.status_code == 200, moved.text
        assert lost == []
        regular.check_after_restart(client)
        gone = client.get(f"/api/games/{expired_id}", headers=expired_auth)
        assert gone.status_code == 410, gone.text
    assert "Traceback" not in again.log(), again.log()[-3000:]
