"""Load benchmark of races with friends: ``python -m bench friends``.

Starts one uvicorn process (or uses ``--url``), then runs ``--races`` two-person races (4
seats, 2 random bots) at once through the JSON API. Each person follows their own seat's
event stream (so ``2 x races`` streams stay open) and moves only on their own turn, after
a short think. For every move it times how long until the *other* person's stream
delivers the new state: the move-to-other-table latency a player feels. Prints p50/p99 of
that latency, the streams held open and every error (non-2xx answers, streams that broke
or fell silent for 10 s).

With ``--talk SECONDS`` each race also exchanges a quick message every ``SECONDS`` (its two
people in turn, within their pace), timed until the other person's stream carries it: run
it with and without to see what table talk costs the moves.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

from bench.server import (
    find_free_port,
    percentile,
    scratch_data_dir,
    stop_server,
    uvicorn_command,
    wait_until_healthy,
)

STREAM_SILENCE_SECONDS = 10.0
"""A stream that says nothing this long after a move counts as an error."""


@dataclass
class FriendStats:
    """What the benchmark collected."""

    latency_ms: list[float] = field(default_factory=list)
    talk_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    open_streams: int = 0
    peak_streams: int = 0
    races_finished: int = 0

    def error(self, kind: str) -> None:
        """Count one error of ``kind``."""
        self.errors[kind] = self.errors.get(kind, 0) + 1


@dataclass
class _Heard:
    """The quick messages one seat's stream carried: number -> arrival (perf_counter)."""

    at: dict[int, float] = field(default_factory=dict)
    news: asyncio.Event = field(default_factory=asyncio.Event)

    def note(self, state: dict[str, Any], arrived: float) -> None:
        """Note the messages of ``state`` not heard before."""
        for message in state.get("said", ()):
            if message["n"] not in self.at:
                self.at[message["n"]] = arrived
                self.news.set()

    async def wait(self, n: int) -> float:
        """When message ``n`` arrived (waiting for it)."""
        while n not in self.at:
            self.news.clear()
            await asyncio.wait_for(self.news.wait(), STREAM_SILENCE_SECONDS)
        return self.at[n]


async def _follow(
    client: Any,
    url: str,
    token: str,
    inbox: asyncio.Queue[Any],
    stats: FriendStats,
    heard: _Heard | None = None,
) -> None:
    """Read one seat's event stream, putting ``(arrival, state)`` on ``inbox`` (and noting
    its quick messages in ``heard``)."""
    headers = {"Authorization": f"Bearer {token}"}
    stats.open_streams += 1
    stats.peak_streams = max(stats.peak_streams, stats.open_streams)
    try:
        async with client.stream("GET", url, headers=headers, timeout=None) as response:
            if response.status_code != 200:
                stats.error(f"stream {response.status_code}")
                return
            event = ""
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event == "state":
                    arrived, state = time.perf_counter(), json.loads(line[5:])
                    if heard is not None:
                        heard.note(state, arrived)
                    await inbox.put((arrived, state))
    except (asyncio.CancelledError, GeneratorExit):
        raise
    except Exception as exc:
        stats.error(f"stream {type(exc).__name__}")
    finally:
        stats.open_streams -= 1


async def _next(inbox: asyncio.Queue[Any], at_least: int) -> tuple[float, dict[str, Any]]:
    """The first state on ``inbox`` with ``event_count >= at_least``."""
    while True:
        arrived, state = await asyncio.wait_for(inbox.get(), STREAM_SILENCE_SECONDS)
        if state["event_count"] >= at_least:
            return arrived, state


async def _open_race(client: Any, stats: FriendStats) -> tuple[str, list[str]] | None:
    """Create a 4-seat race with 2 people and join the second; (game id, both tokens)."""
    created = await client.post("/api/games", json={"players": 4, "humans": 2, "bots": "random"})
    if created.status_code != 201:
        stats.error(f"create {created.status_code}")
        return None
    body = created.json()
    code = body["invites"][0]["code"]
    joined = await client.post(f"/api/games/{body['game_id']}/join", json={"code": code})
    if joined.status_code != 201:
        stats.error(f"join {joined.status_code}")
        return None
    return body["game_id"], [body["token"], joined.json()["token"]]


async def _race(
    base: str, stats: FriendStats, deadline: float, think: float, seed: int, talk: float | None
) -> None:
    """One two-person race, played until it ends or the time is up (talking every ``talk``
    seconds, if given)."""
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, 1.0))  # do not all start in one instant
    async with contextlib.AsyncExitStack() as stack:
        import httpx

        clients = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=30))
            for _ in range(2)
        ]
        try:
            opened = await _open_race(clients[0], stats)
        except Exception as exc:  # a dropped connection is an error to count, not a crash
            stats.error(f"create {type(exc).__name__}")
            return
        if opened is None:
            return
        game_id, tokens = opened
        inboxes: list[asyncio.Queue[Any]] = [asyncio.Queue(), asyncio.Queue()]
        url = f"/api/games/{game_id}/events"
        heard = [_Heard(), _Heard()]
        readers = [
            asyncio.create_task(_follow(clients[s], url, tokens[s], inboxes[s], stats, heard[s]))
            for s in (0, 1)
        ]
        talker = None
        try:
            latest = [(await _next(inboxes[s], 0))[1] for s in (0, 1)]
            if talk is not None:
                talking = _talk(clients, game_id, tokens, heard, stats, deadline, talk)
                talker = asyncio.create_task(talking)
            await _play(clients, game_id, tokens, inboxes, latest, stats, deadline, think, rng)
        except TimeoutError:
            stats.error("stream silent")
        finally:
            for task in (*readers, talker):
                if task is not None:
                    task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
            if talker is not None:
                await asyncio.gather(talker, return_exceptions=True)


_CODES = ("hello", "well_played", "oops", "thinking", "good_race")


async def _talk(
    clients: list[Any],
    game_id: str,
    tokens: list[str],
    heard: list[_Heard],
    stats: FriendStats,
    deadline: float,
    every: float,
) -> None:
    """The two people say a message in turn every ``every`` seconds until the race ends or
    the time is up; each timed until the other's stream carries it."""
    speaker = 0
    # People do not speak in step: each race starts its talk at its own moment.
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < deadline:
        await asyncio.sleep(every)
        sent = time.perf_counter()
        response = await clients[speaker].post(
            f"/api/games/{game_id}/say",
            json={"code": _CODES[speaker % len(_CODES)]},
            headers={"Authorization": f"Bearer {tokens[speaker]}"},
        )
        if response.status_code == 409:  # the race is over: nothing more to say
            return
        if response.status_code != 200:
            stats.error(f"say {response.status_code}")
            return
        n = response.json()["said"][-1]["n"]
        try:
            arrived = await heard[1 - speaker].wait(n)
        except TimeoutError:
            stats.error("message not heard")
            return
        stats.talk_ms.append((arrived - sent) * 1000)
        speaker = 1 - speaker


async def _play(
    clients: list[Any],
    game_id: str,
    tokens: list[str],
    inboxes: list[asyncio.Queue[Any]],
    latest: list[dict[str, Any]],
    stats: FriendStats,
    deadline: float,
    think: float,
    rng: random.Random,
) -> None:
    """Each person moves on their own turn; time the other person's stream."""
    while time.monotonic() < deadline:
        if latest[0]["status"] == "over":
            stats.races_finished += 1
            return
        mover = latest[0]["current_seat"]
        if mover not in (0, 1):
            stats.error("turn of a bot after the bots ran")
            return
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        action = rng.choice(latest[mover]["legal_actions"])
        sent = time.perf_counter()
        response = await clients[mover].post(
            f"/api/games/{game_id}/actions",
            json={"turn": latest[mover]["turn"], "action": action},
            headers={"Authorization": f"Bearer {tokens[mover]}"},
        )
        if response.status_code != 200:
            stats.error(f"move {response.status_code}")
            return
        latest[mover] = response.json()
        other = 1 - mover
        arrived, latest[other] = await _next(inboxes[other], latest[mover]["event_count"])
        stats.latency_ms.append((arrived - sent) * 1000)


def _start_server(port: int, races: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "ZZV_RATE_LIMIT_ENABLED": "false",  # every simulated person shares 127.0.0.1
        "ZZV_MAX_STREAMS_PER_CLIENT": str(4 * races + 10),
        "ZZV_ACCESS_LOG": "false",
        "ZZV_LOG_LEVEL": "warning",
        "ZZV_DATA_DIR": scratch_data_dir(),
    }
    command = uvicorn_command(
        port, "--no-access-log", "--log-level", "warning", "--timeout-graceful-shutdown", "3"
    )
    process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)
    return wait_until_healthy(process, port)


async def _run(
    base: str, races: int, duration: float, think: float, talk: float | None
) -> FriendStats:
    stats = FriendStats()
    deadline = time.monotonic() + duration
    await asyncio.gather(
        *(_race(base, stats, deadline, think, seed, talk) for seed in range(races))
    )
    return stats


def bench_friends(
    races: int,
    duration: float,
    think: float,
    url: str | None,
    talk: float | None = None,
    rounds: int = 2,
) -> None:
    """Run the benchmark and print its figures. With ``talk``, the same server runs
    ``rounds`` pairs of phases, without messages then with them, each ``duration`` long,
    and prints both: the baseline beside what messages cost. A first short phase warms
    the server up and is not counted."""
    process = None
    if url is None:
        port = find_free_port()
        process = _start_server(port, races)
        url = f"http://127.0.0.1:{port}"
    phases = [None] if talk is None else [None, talk] * rounds
    found: dict[float | None, list[tuple[FriendStats, float]]] = {}
    try:
        # Creating 50 races at once and the first moves' cold caches are no one's baseline.
        asyncio.run(_run(url, races, min(duration, 10.0), think, None))
        for phase in phases:
            started = time.monotonic()
            stats = asyncio.run(_run(url, races, duration, think, phase))
            found.setdefault(phase, []).append((stats, time.monotonic() - started))
    finally:
        if process is not None:
            stop_server(process)
    print(
        f"friends: {races} two-person races (4 seats, random bots), think {think:.2f}s, "
        f"{len(phases)} phases of {duration:.0f}s against {url} (one process)"
    )
    for phase, runs in found.items():
        _print_phase(phase, runs)


def _print_phase(talk: float | None, runs: list[tuple[FriendStats, float]]) -> None:
    stats = FriendStats()
    for one, _ in runs:
        stats.latency_ms += one.latency_ms
        stats.talk_ms += one.talk_ms
        stats.races_finished += one.races_finished
        stats.peak_streams = max(stats.peak_streams, one.peak_streams)
        for kind, count in one.errors.items():
            stats.errors[kind] = stats.errors.get(kind, 0) + count
    elapsed = sum(seconds for _, seconds in runs)
    lat = stats.latency_ms
    print("without messages" if talk is None else f"with a message per race every {talk:.1f}s")
    print(f"  event streams open  peak {stats.peak_streams}")
    print(f"  moves timed         {len(lat)}  ({len(lat) / elapsed:.1f}/s)")
    print(f"  races finished      {stats.races_finished}")
    print(
        "  move -> other table ms  "
        f"p50 {percentile(lat, 50):.1f}  p90 {percentile(lat, 90):.1f}  "
        f"p99 {percentile(lat, 99):.1f}  max {max(lat, default=float('nan')):.1f}"
    )
    if talk is not None:
        said = stats.talk_ms
        print(
            f"  messages timed      {len(said)}  ms  "
            f"p50 {percentile(said, 50):.1f}  p99 {percentile(said, 99):.1f}"
        )
    total = sum(stats.errors.values())
    detail = ", ".join(f"{k}: {v}" for k, v in sorted(stats.errors.items()))
    print(f"  errors              {total}" + (f"  ({detail})" if detail else ""))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options (``python -m bench friends``)."""
    parser.add_argument("--races", type=int, default=50, help="races at once (2 streams each)")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds (bounded run)")
    parser.add_argument("--think", type=float, default=0.5, help="mean seconds between moves")
    parser.add_argument("--url", default=None, help="use a running server instead of one")
    parser.add_argument(
        "--talk", type=float, default=None, help="each race says a quick message this often (s)"
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="with --talk: phase pairs, without then with"
    )
