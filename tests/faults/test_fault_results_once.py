"""A finished race's result is recorded exactly once, whatever stops (real ``zzv serve``
processes): ``kill -9`` at instants spread over the first 50 ms after the last moves of 20
races (counted from the first of them answered, when the server is busy with them all), on
the default SQLite stores and on Redis + PostgreSQL with two workers; and a
PostgreSQL stopped while 5 races finish, started again 30 s later, with 503 (never 500)
from everything that needs it meanwhile.

Each race is dealt from a seed on a fixed seed key and its person always plays the first
legal action, so the race is the same wherever it runs: the number of moves it takes is
worked out once in process, and the servers' races are brought to their last move."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import make_settings, wait_until
from fastapi.testclient import TestClient
from pg_kit import PostgresServer, start_postgres
from store_kit import RedisServer

from app.main import create_app

pytestmark = pytest.mark.slow

Launch = Callable[..., Any]

SEED_KEY = "results-exactly-once"
RACES = 20
KILL_WINDOWS_MS = ((0, 5), (10, 20), (25, 35), (40, 50))
"""One kill per window, at a random instant in it, after the first last move is answered."""

OUTAGE_SECONDS = 30.0
WAIT_SECONDS = 60.0
"""The longest any condition is waited for (a loaded machine, not a normal run)."""

BASE_ENV = {
    "ZZV_SEED_SECRET": SEED_KEY,
    "ZZV_RATE_LIMIT_ENABLED": "false",
    "ZZV_MAX_GAMES_PER_CLIENT": "100000",
    "ZZV_ACCESS_LOG": "false",
}


def zzv_serve(port: int, *options: str) -> list[str]:
    """The command line of ``zzv serve`` on 127.0.0.1:``port`` from this checkout."""
    return [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
            *options]  # fmt: skip


def first_action(state: dict[str, Any]) -> dict[str, Any]:
    """The move every person of these tests makes: the first legal one."""
    action: dict[str, Any] = state["legal_actions"][0]
    return action


@pytest.fixture(scope="module")
def race_lengths() -> dict[int, int]:
    """How many moves each seed's race takes its person, played in process on the seed key
    the servers use."""
    lengths = {}
    with TestClient(create_app(make_settings(seed_secret=SEED_KEY))) as client:
        for seed in range(RACES):
            created = client.post("/api/games", json={"players": 3, "bots": "random", "seed": seed})
            game_id, state = created.json()["game_id"], created.json()["state"]
            auth = {"Authorization": f"Bearer {created.json()['token']}"}
            moves = 0
            while not state["game_over"]:
                body = {"turn": state["turn"], "action": first_action(state)}
                state = client.post(f"/api/games/{game_id}/actions", json=body, headers=auth).json()
                moves += 1
            lengths[seed] = moves
    return lengths


class Racer:
    """One race's person: their player token, the race's token, and the race's last
    answered state."""

    def __init__(self, created: dict[str, Any]) -> None:
        self.game_id: str = created["game_id"]
        self.auth = {"Authorization": f"Bearer {created['token']}"}
        self.me = {"X-Player-Token": created["player_token"]}
        self.state: dict[str, Any] = created["state"]
        self.final: int | None = None
        """The status the last move was answered with (None: no answer, the server died)."""

    @classmethod
    async def to_last_move(cls, client: httpx.AsyncClient, seed: int, moves: int) -> Racer:
        """A new race of ``seed`` played up to its last move (``moves`` before it)."""
        created = await client.post(
            "/api/games", json={"players": 3, "bots": "random", "seed": seed}
        )
        assert created.status_code == 201, created.text
        racer = cls(created.json())
        for _ in range(moves):
            assert (await racer.move(client)).status_code == 200
        assert not racer.state["game_over"]
        return racer

    async def move(self, client: httpx.AsyncClient) -> httpx.Response:
        body = {"turn": self.state["turn"], "action": first_action(self.state)}
        answer = await client.post(
            f"/api/games/{self.game_id}/actions", json=body, headers=self.auth
        )
        if answer.status_code == 200:
            self.state = answer.json()
        return answer

    async def last_move(self, client: httpx.AsyncClient) -> None:
        """The race's last move; the server may die before it answers."""
        try:
            self.final = (await self.move(client)).status_code
        except httpx.TransportError:
            return
        assert self.final == 200 and self.state["game_over"]


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process below it (uvicorn's workers), from /proc."""
    found = [pid]
    for known in found:
        for task in Path(f"/proc/{known}/task").glob("*"):
            with contextlib.suppress(OSError):
                found += [int(child) for child in (task / "children").read_text().split()]
    return found


def kill_tree(pids: list[int]) -> None:
    """SIGKILL every process of the server at once: nothing runs on the way out."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


async def last_moves_then_kill(
    url: str, server: Any, lengths: dict[int, int], delay: float
) -> list[Racer]:
    """Bring 20 races to their last move, send every last move at once, and kill the
    server ``delay`` seconds after the first of them is answered (the server is then
    busy with the others: saving them, recording them, answering them)."""
    limits = httpx.Limits(max_connections=RACES, max_keepalive_connections=RACES)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        racers = await asyncio.gather(
            *(Racer.to_last_move(client, seed, moves - 1) for seed, moves in lengths.items())
        )
        pids = process_tree(server.process.pid)
        sent = [asyncio.create_task(racer.last_move(client)) for racer in racers]
        await asyncio.wait(sent, return_when=asyncio.FIRST_COMPLETED)
        await asyncio.sleep(delay)  # the kill's instant is the trial's variable
        kill_tree(pids)
        await asyncio.gather(*sent)
    server.process.wait(timeout=20)
    return list(racers)


def wait_for(condition: Callable[[], bool], what: str) -> None:
    """Return once ``condition()`` holds; fail after :data:`WAIT_SECONDS`."""
    wait_until(condition, what, WAIT_SECONDS)


def counted(client: httpx.Client, racer: Racer) -> int:
    """How many times the racer's history lists their race."""
    me = client.get("/api/me", headers=racer.me)
    assert me.status_code == 200, me.text
    return sum(entry["game_id"] == racer.game_id for entry in me.json()["history"])


def assert_recorded_once(url: str, racers: list[Racer]) -> int:
    """Every race that is over is in its person's history exactly once and moved their
    rating once; a race the kill caught before its last move was kept finishes now and
    counts the same. Returns how many races were over with their last move unanswered."""
    caught = 0
    with httpx.Client(base_url=url, timeout=30) as client:
        for racer in racers:
            state = client.get(f"/api/games/{racer.game_id}", headers=racer.auth).json()
            if racer.final == 200:
                assert state["game_over"], "an answered last move was lost"
            caught += racer.final is None and state["game_over"]
            if not state["game_over"]:  # the kill came before the last move was kept
                body = {"turn": state["turn"], "action": first_action(state)}
                moved = client.post(
                    f"/api/games/{racer.game_id}/actions", json=body, headers=racer.auth
                )
                assert moved.status_code == 200 and moved.json()["game_over"], moved.text
        wait_for(
            lambda: all(counted(client, racer) > 0 for racer in racers), "recording every race"
        )
        for racer in racers:
            me = client.get("/api/me", headers=racer.me).json()
            listed = [e for e in me["history"] if e["game_id"] == racer.game_id]
            assert len(listed) == 1, me["history"]
            rated = 0 if listed[0]["practice"] else 1
            assert me["rating"]["races"] == rated, me
    return caught


def kill_instants(rng: random.Random) -> list[float]:
    """One random instant (seconds) in each window of :data:`KILL_WINDOWS_MS`."""
    return [rng.uniform(low, high) / 1000 for low, high in KILL_WINDOWS_MS]


def run_kill_trials(
    launch: Launch, command: list[str], port: int, env: dict[str, str], lengths: dict[int, int]
) -> None:
    """For each kill instant: 20 races to their last move, the kill, a restart on the same
    data, and every result checked."""
    rng = random.Random(os.environ.get("ZZV_KILL_SEED", "56"))
    server = launch(command, port=port, env=env)
    caught = 0
    for delay in kill_instants(rng):
        racers = asyncio.run(last_moves_then_kill(server.url, server, lengths, delay))
        server = launch(command, port=port, env=env)
        caught += assert_recorded_once(server.url, racers)
    # Some races were kept over but never answered: the kill fell between a race's last
    # save and its answer, where its result used to be lost.
    assert caught > 0
    log = server.log()
    assert "Traceback" not in log, log[-3000:]


def test_kill_9_after_the_last_moves_records_every_result_once_on_sqlite(
    tmp_path: Path, launch_server: Launch, free_port: int, race_lengths: dict[int, int]
) -> None:
    env = {**BASE_ENV, "ZZV_DATA_DIR": str(tmp_path / "data")}
    run_kill_trials(launch_server, zzv_serve(free_port), free_port, env, race_lengths)


def test_kill_9_after_the_last_moves_records_every_result_once_on_redis_and_postgresql(
    launch_server: Launch,
    server_command: Callable[..., list[str]],
    free_port: int,
    race_lengths: dict[int, int],
    fresh_redis: RedisServer,
    postgres_server: PostgresServer,
) -> None:
    env = {
        **BASE_ENV,
        "ZZV_REDIS_URL": fresh_redis.url,
        "ZZV_DATABASE_URL": postgres_server.new_database(),
    }
    # uvicorn's supervisor, as under `zzv serve --workers 2`; a loaded machine may take
    # longer than its default 5 s to start a worker, which it would then kill.
    command = server_command(free_port, "--workers", "2", "--timeout-worker-healthcheck", "60")
    run_kill_trials(launch_server, command, free_port, env, race_lengths)


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL of this test's own (it is stopped and started again)."""
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()


OUTAGE_PAGES: list[tuple[str, str, dict[str, Any]]] = [
    ("POST", "/api/games", {"json": {"bots": "random"}}),
    ("GET", "/api/me", {}),
    ("GET", "/api/leaderboard", {}),
    ("GET", "/api/daily/leaderboard", {}),
    ("GET", "/daily", {"headers": {"Accept": "text/html"}}),
    ("GET", "/leaderboard", {"headers": {"Accept": "text/html"}}),
]
"""What needs the results database: creating a race, your results, the boards, the daily."""


def test_races_finished_while_postgresql_is_down_are_recorded_when_it_returns(
    tmp_path: Path, launch_server: Launch, free_port: int, race_lengths: dict[int, int],
    own_postgres: PostgresServer,
) -> None:  # fmt: skip
    env = {
        **BASE_ENV,
        "ZZV_DATA_DIR": str(tmp_path / "data"),
        "ZZV_DATABASE_URL": own_postgres.new_database(),
    }
    server = launch_server(zzv_serve(free_port), port=free_port, env=env)
    five = {seed: race_lengths[seed] for seed in range(5)}

    async def to_last_moves() -> list[Racer]:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            return list(
                await asyncio.gather(
                    *(Racer.to_last_move(client, seed, moves - 1) for seed, moves in five.items())
                )
            )

    async def last_moves(racers: list[Racer]) -> None:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            await asyncio.gather(*(racer.last_move(client) for racer in racers))

    racers = asyncio.run(to_last_moves())
    own_postgres.halt()
    back_at = time.monotonic() + OUTAGE_SECONDS
    asyncio.run(last_moves(racers))
    assert [racer.final for racer in racers] == [200] * 5  # races go on
    seen: set[tuple[str, int]] = set()
    with httpx.Client(base_url=server.url, timeout=30, headers=racers[0].me) as client:
        while time.monotonic() < back_at:
            for method, path, options in OUTAGE_PAGES:
                answer = client.request(method, path, **options)
                seen.add((path, answer.status_code))
                assert answer.status_code == 503, (path, answer.text)
                if path.startswith("/api"):
                    assert answer.json()["code"] == "results_unavailable"
                else:
                    assert answer.headers["content-type"].startswith("text/html")
                assert "cannot be reached right now" in answer.text
            time.sleep(0.5)  # the probes' pace through the outage, which lasts a fixed time
        own_postgres.resume()
        wait_for(lambda: all(counted(client, racer) == 1 for racer in racers), "recording")
        for method, path, options in OUTAGE_PAGES:
            assert client.request(method, path, **options).status_code < 300, path
    assert {status for _, status in seen} == {503}
    assert "Traceback" not in server.log(), server.log()[-3000:]
