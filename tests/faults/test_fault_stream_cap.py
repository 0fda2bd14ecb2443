"""The per-client cap on live event streams holds across workers: servers sharing one Redis
count one client's streams together (real uvicorn processes, a real redis-server)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from app_kit import await_until
from store_kit import RedisServer

from app.live.hub import STREAM_KEY_PREFIX, RedisStreamGate, TooManyStreams
from bench.server import find_free_port

pytestmark = pytest.mark.slow

CAP = 16


async def open_stream(
    client: httpx.AsyncClient, url: str, token: str, stack: contextlib.AsyncExitStack
) -> int:
    """Open the seat's event stream at ``url``; keep it open on ``stack``; its status."""
    request = client.build_request("GET", url, headers={"Authorization": f"Bearer {token}"})
    response = await client.send(request, stream=True)
    stack.push_async_callback(response.aclose)
    return response.status_code


def test_forty_streams_from_one_client_over_two_workers_leave_at_most_16_open(
    fresh_redis: RedisServer, launch_server: Callable[..., Any], server_command: Any
) -> None:
    env = {
        "ZZV_REDIS_URL": fresh_redis.url,
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_MAX_STREAMS_PER_CLIENT": str(CAP),
    }
    servers = []
    for _ in range(2):
        port = find_free_port()
        servers.append(launch_server(server_command(port), port=port, env=env))
    created = httpx.post(f"{servers[0].url}/api/games", json={"bots": "random"}, timeout=30)
    game_id, token = created.json()["game_id"], created.json()["token"]

    async def scenario() -> tuple[list[int], list[int]]:
        limits = httpx.Limits(max_connections=100)
        timeout = httpx.Timeout(10.0, read=None)
        async with (
            httpx.AsyncClient(limits=limits, timeout=timeout) as client,
            contextlib.AsyncExitStack() as kept,
        ):
            first: list[int] = []
            for index in range(40):
                url = f"{servers[index % 2].url}/api/games/{game_id}/events"
                first.append(await open_stream(client, url, token, kept))
            # Closing streams frees their places for any worker, once each server has seen
            # its streams end (polled, bounded).
            url_a = f"{servers[0].url}/api/games/{game_id}/events"
            url_b = f"{servers[1].url}/api/games/{game_id}/events"
            await kept.aclose()
            async with contextlib.AsyncExitStack() as reopened:
                opened = 0

                async def one_more() -> bool:
                    nonlocal opened
                    opened += await open_stream(client, url_a, token, reopened) == 200
                    return opened == CAP - 4

                await await_until(one_more, f"{CAP - 4} places freed")
                later = [await open_stream(client, url_b, token, reopened) for _ in range(6)]
            return first, later

    first, later = asyncio.run(asyncio.wait_for(scenario(), timeout=90))
    assert first.count(200) == CAP and first.count(429) == 40 - CAP, first
    assert later == [200] * 4 + [429] * 2


def test_the_redis_gate_is_shared_and_a_dead_workers_places_lapse(
    fresh_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.live import hub

    monkeypatch.setattr(hub, "STREAM_LEASE_SECONDS", 0.5)

    async def scenario() -> None:
        one = RedisStreamGate(3, fresh_redis.url, 2.0)
        two = RedisStreamGate(3, fresh_redis.url, 2.0)
        try:
            held = [await one.open("10.0.0.1"), await two.open("10.0.0.1")]
            await one.open("10.0.0.1")
            with pytest.raises(TooManyStreams):
                await two.open("10.0.0.1")
            assert await two.open("10.0.0.2")  # another client has its own places
            await one.close("10.0.0.1", held[0])
            await two.open("10.0.0.1")
            # Worker `one` dies without closing its streams: their leases lapse.
            if one._renewer is not None:
                one._renewer.cancel()

            async def lapsed() -> bool:  # the client's set expires with its last lease
                return not await two._client.exists(STREAM_KEY_PREFIX + "10.0.0.1")

            await await_until(lapsed, "the client's leases lapsing", timeout=5)
            three = RedisStreamGate(3, fresh_redis.url, 2.0)
            try:
                await three.open("10.0.0.1")
                await three.open("10.0.0.1")
                await three.open("10.0.0.1")
                with pytest.raises(TooManyStreams):
                    await three.open("10.0.0.1")
            finally:
                await three.stop()
        finally:
            await one.stop()
            await two.stop()

    asyncio.run(asyncio.wait_for(scenario(), timeout=30))
