"""``python -m bench review``: what an after-race review costs, and what it costs others.

On a real uvicorn on 127.0.0.1 (default settings: the reviews' worker processes, the
default review budget), it

1. plays finished 4-player races against normal bots through the API (random legal moves);
2. reviews one of them alone and prints the time from ``POST /review`` to ``done``;
3. measures normal-move latency (people playing normal-bot races with a think time) with
   no review running, then while ``--reviews`` reviews run at once, then with none again,
   and prints p50/p99 of each and how long the reviews took.

Figures are printed, never asserted (docs/benchmarks.md lists measured ones).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from typing import Any

import httpx

from bench.server import find_free_port, percentile


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``review`` subcommand's options."""
    parser.add_argument("--reviews", type=int, default=10, help="reviews running at once")
    parser.add_argument("--players", type=int, default=20, help="people playing meanwhile")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds between moves")
    parser.add_argument("--baseline", type=float, default=15.0, help="seconds without reviews")
    parser.add_argument(
        "--url", default=None, help=f"use a running server instead of one. {SERVER_NEEDS}"
    )


#: What a server given by ``--url`` needs for the whole run: every simulated person
#: plays from 127.0.0.1, so the limits per client must not stop them.
SERVER_NEEDS = (
    "A server given by --url needs ZZV_RATE_LIMIT_ENABLED=false, ZZV_MAX_GAMES_PER_CLIENT "
    "and ZZV_MAX_GAMES of 2000 or more, and ZZV_REVIEWS_PER_CLIENT above --reviews."
)


class ServerRefused(Exception):
    """The server answered a request the benchmark needs with a refusal."""


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def finished_race(client: httpx.AsyncClient, seed: int) -> tuple[str, str, int]:
    """A 4-player race against normal bots played out; its id, token and people's moves."""
    body = {"players": 4, "bots": "normal", "seed": seed}
    response = await client.post("/api/games", json=body)
    if response.status_code != 201:
        message = response.json().get("message", response.text)
        raise ServerRefused(f"the server refused a new race ({response.status_code}: {message}).")
    created = response.json()
    game_id, token, state = created["game_id"], created["token"], created["state"]
    rng = random.Random(seed)
    moves = 0
    while not state["game_over"]:
        action = rng.choice(state["legal_actions"])
        response = await client.post(
            f"/api/games/{game_id}/actions",
            json={"turn": state["turn"], "action": action},
            headers=_auth(token),
        )
        state = response.json()
        moves += 1
    return game_id, token, moves


async def review_to_done(client: httpx.AsyncClient, game_id: str, token: str) -> float:
    """Seconds from asking for the review to reading it ``done``."""
    started = time.perf_counter()
    asked = await client.post(f"/api/games/{game_id}/review", headers=_auth(token))
    if asked.status_code != 202:
        raise SystemExit(f"review refused: {asked.status_code} {asked.text}")
    while True:
        body = (await client.get(f"/api/games/{game_id}/review", headers=_auth(token))).json()
        if body["status"] == "done":
            return time.perf_counter() - started
        await asyncio.sleep(1.0)  # a browser on the review page asks every 3 s


async def play_normal(
    client: httpx.AsyncClient, until: asyncio.Event, think: float, seed: int, timings: list[float]
) -> None:
    """One person playing normal-bot races with a think time until ``until`` is set; each
    move's latency (the bots' replies included) goes to ``timings``."""
    rng = random.Random(seed)
    while not until.is_set():
        body = {"players": 4, "bots": "normal", "seed": rng.randrange(1 << 30)}
        created = (await client.post("/api/games", json=body)).json()
        game_id, token, state = created["game_id"], created["token"], created["state"]
        while not state["game_over"] and not until.is_set():
            await asyncio.sleep(rng.expovariate(1 / think))
            started = time.perf_counter()
            response = await client.post(
                f"/api/games/{game_id}/actions",
                json={"turn": state["turn"], "action": rng.choice(state["legal_actions"])},
                headers=_auth(token),
            )
            timings.append(time.perf_counter() - started)
            state = response.json()


async def measure_moves(
    client: httpx.AsyncClient, players: int, think: float, during: Any
) -> list[float]:
    """Normal-move latencies of ``players`` people while ``during`` (a coroutine) runs."""
    until = asyncio.Event()
    timings: list[float] = []
    people = [
        asyncio.create_task(play_normal(client, until, think, seed, timings))
        for seed in range(players)
    ]
    try:
        await during
    finally:
        until.set()
        await asyncio.gather(*people, return_exceptions=True)
    return timings


def _ms(values: list[float]) -> str:
    return (
        f"p50 {1000 * percentile(values, 50):.1f} ms, p99 {1000 * percentile(values, 99):.1f} ms,"
        f" max {1000 * max(values, default=float('nan')):.1f} ms over {len(values)} moves"
    )


async def run(args: argparse.Namespace, url: str) -> None:
    # Idle connections are dropped before uvicorn's 5 s keep-alive ends, so a request
    # never goes out on a connection the server is closing.
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200, keepalive_expiry=2)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as client:
        races = await asyncio.gather(
            *(finished_race(client, 100 + i) for i in range(args.reviews + 1))
        )
        game_id, token, _ = races[0]
        alone = await review_to_done(client, game_id, token)
        body = (await client.get(f"/api/games/{game_id}/review", headers=_auth(token))).json()
        summary = body["summary"]
        print(
            f"one review alone: {alone:.1f} s for {summary['decisions']} decisions "
            f"({summary['choices']} with a choice) of a finished 4-player race; "
            f"budget {summary['budget']}"
        )
        again = time.perf_counter()
        await client.post(f"/api/games/{game_id}/review", headers=_auth(token))
        print(f"a second request: {1000 * (time.perf_counter() - again):.1f} ms (the saved review)")

        baseline = await measure_moves(
            client, args.players, args.think, asyncio.sleep(args.baseline)
        )
        print(f"normal moves, no review running: {_ms(baseline)}")

        started = time.perf_counter()
        durations: list[float] = []

        async def reviews() -> None:
            found = await asyncio.gather(*(review_to_done(client, g, t) for g, t, _ in races[1:]))
            durations.extend(found)

        during = await measure_moves(client, args.players, args.think, reviews())
        print(f"normal moves while {args.reviews} reviews run: {_ms(during)}")
        print(
            f"{args.reviews} reviews at once: all done in {time.perf_counter() - started:.1f} s "
            f"(each {statistics.median(durations):.1f} s median, {max(durations):.1f} s max)"
        )
        # Again with nothing running: on a shared machine the load of other work moves
        # during a long run, and a baseline on either side shows how much.
        after = await measure_moves(client, args.players, args.think, asyncio.sleep(args.baseline))
        print(f"normal moves, no review running (after): {_ms(after)}")


def bench_review(args: argparse.Namespace) -> None:
    """Start a server (unless ``--url``), run the benchmark, print its figures."""
    from bench.__main__ import _start_server
    from bench.server import stop_server

    process = None
    url = args.url
    if url is None:
        port = find_free_port()
        env = {"ZZV_REVIEWS_PER_CLIENT": str(args.reviews + 1)}
        process = _start_server(port, args.players, env=env)
        url = f"http://127.0.0.1:{port}"
    try:
        asyncio.run(run(args, url))
    except ServerRefused as refused:
        print(f"error: {refused} {SERVER_NEEDS}", file=sys.stderr)
        raise SystemExit(2) from None
    finally:
        if process is not None:
            stop_server(process)
