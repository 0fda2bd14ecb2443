"""Change notices: the in-process hub, and the Redis hub carrying them between two
"workers" (two hubs on one real redis-server started on a free loopback port)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from app_kit import wait_until

from app.live.hub import LiveHub, News, RedisLiveHub, StreamGate, TooManyStreams
from bench.server import find_free_port


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A private redis-server on 127.0.0.1 (no persistence), stopped after the test."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is not installed (apt-get install redis-server)"
    port = find_free_port()
    process = subprocess.Popen(
        [
            binary,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis

        client = redis.Redis(host="127.0.0.1", port=port)

        def answers() -> bool:
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                return False

        wait_until(answers, "redis-server answering", timeout=10)
        client.close()
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def _listening(hub: LiveHub) -> int:
    """How many listeners the hub holds (its private table: nothing else needs the count)."""
    return sum(len(group) for group in hub._listeners.values())


def test_memory_hub_wakes_only_the_listeners_of_that_race() -> None:
    async def scenario() -> None:
        hub = LiveHub()
        async with hub.listen("a") as a, hub.listen("b") as b:
            assert _listening(hub) == 2
            await hub.publish("a")
            assert await a.wait(1.0) == News(changed=True)
            assert await b.wait(0.05) == News(changed=False, timed_out=True)
        assert _listening(hub) == 0

    asyncio.run(scenario())


SAID = {"n": 3, "seat": 1, "code": "gg", "at": 1.5, "after": 7}


def test_a_quick_message_alone_reaches_listeners_with_its_words_and_no_read_owed() -> None:
    async def scenario() -> None:
        hub = LiveHub()
        async with hub.listen("a") as a:
            await hub.publish("a", SAID)
            news = await a.wait(1.0)
            assert news == News(changed=False, said=(SAID,)) and news.only_said
            await hub.publish("a", SAID)
            await hub.publish("a")  # a move after the message: the race must be read
            news = await a.wait(1.0)
            assert news.changed and not news.only_said

    asyncio.run(scenario())


def test_redis_hub_carries_a_notice_to_the_other_worker(redis_url: str) -> None:
    async def scenario() -> None:
        first, second = RedisLiveHub(redis_url), RedisLiveHub(redis_url)
        await first.start()
        await second.start()
        try:
            async with second.listen("race") as listener, first.listen("other") as other:
                await first.publish("race")
                assert await listener.wait(2.0) == News(changed=True)
                assert (await other.wait(0.1)).timed_out
                await first.publish("race", SAID)
                assert await listener.wait(2.0) == News(changed=False, said=(SAID,))
        finally:
            await first.stop()
            await second.stop()

    asyncio.run(scenario())


def test_stream_gate_caps_open_streams_per_client() -> None:
    async def scenario() -> None:
        gate = StreamGate(2)
        first = await gate.open("1.2.3.4")
        await gate.open("1.2.3.4")
        with pytest.raises(TooManyStreams):
            await gate.open("1.2.3.4")
        await gate.open("5.6.7.8")
        await gate.close("1.2.3.4", first)
        await gate.open("1.2.3.4")
        await gate.open("5.6.7.8")
        for client in ("1.2.3.4", "5.6.7.8"):  # each holds two again
            with pytest.raises(TooManyStreams):
                await gate.open(client)

    asyncio.run(scenario())
