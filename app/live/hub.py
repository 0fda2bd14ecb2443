"""Live updates: "this race changed" notices fanned out to the streams following it
(:class:`LiveHub`, :class:`RedisLiveHub` across workers), and the cap on one client's open
streams (:class:`StreamGate`, :class:`RedisStreamGate`). A notice carries a race id and at
most a (public) quick message: nothing hidden travels here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

import anyio
import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.races.record import Said
from app.storage.interface import ANY_CHANGE, StoreUnavailable

log = logging.getLogger("zzv.live")

CHANNEL_PREFIX = "zzv:live:"
"""Redis pub/sub channel of a race: this prefix plus the race id."""


def _said_in(data: object) -> Said | None:
    try:  # any change but a quick message alone is ANY_CHANGE, not a JSON object
        said = orjson.loads(data) if isinstance(data, bytes) else None
    except orjson.JSONDecodeError:
        return None
    return cast(Said, said) if isinstance(said, dict) else None


@dataclass
class News:
    """What a stream heard since it last looked."""

    changed: bool
    said: tuple[Said, ...] = ()
    timed_out: bool = False

    @property
    def only_said(self) -> bool:
        """Whether quick messages are all there is to pass on (the race need not be read)."""
        return bool(self.said) and not self.changed and not self.timed_out


class Listener:
    """One stream's subscription to one race."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self._news = News(changed=False)

    def notify(self, said: Said | None = None) -> None:
        """Wake the stream for ``said`` (the only change), or for any change (None)."""
        if said is None:
            self._news.changed = True
        else:
            self._news.said += (said,)
        self._event.set()

    async def wait(self, timeout: float | None) -> News:
        """Wait for news, at most ``timeout`` seconds."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            self._news.timed_out = True
        self._event.clear()
        news, self._news = self._news, News(changed=False)
        return news


class LiveHub:
    """Process-local fan-out of change notices (the memory store's hub)."""

    def __init__(self) -> None:
        self._listeners: defaultdict[str, set[Listener]] = defaultdict(set)

    async def publish(self, game_id: str, said: Said | None = None) -> None:
        for listener in tuple(self._listeners.get(game_id, ())):
            listener.notify(said)

    @contextlib.asynccontextmanager
    async def listen(self, game_id: str) -> AsyncIterator[Listener]:
        listener = Listener()
        self._listeners[game_id].add(listener)
        try:
            yield listener
        finally:
            group = self._listeners[game_id]  # it holds this listener until now
            group.discard(listener)
            if not group:
                del self._listeners[game_id]

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass


class RedisLiveHub(LiveHub):
    """Notices over Redis pub/sub: one pattern subscription per process relays them; a
    publish goes to Redis only (this process hears it back like the others)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._client: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect and start relaying (returns once subscribed, or Redis is down)."""
        self._client = Redis.from_url(self.url)
        pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe(f"{CHANNEL_PREFIX}*")
        except (RedisError, OSError):  # Redis down at start: the relay keeps trying
            log.warning("live relay cannot reach Redis yet; retrying")
        self._reader = asyncio.create_task(self._relay(pubsub), name="zzv-live-relay")

    async def _relay(self, pubsub: Any) -> None:
        reported = False
        while True:
            try:
                async for message in pubsub.listen():
                    reported = False
                    channel = message.get("channel")
                    if isinstance(channel, bytes):
                        game_id = channel.decode()[len(CHANNEL_PREFIX) :]
                        await super().publish(game_id, _said_in(message.get("data")))
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except (RedisError, OSError, RuntimeError) as exc:
                # An outage is expected now and then: one line per outage, no traceback.
                if not reported:
                    log.warning("live relay lost Redis; resubscribing", extra={"error": repr(exc)})
                    reported = True
            except Exception:  # a dropped connection must not end live updates for good
                log.exception("live relay failed; resubscribing")
            await asyncio.sleep(0.5)
            with contextlib.suppress(Exception):
                await pubsub.psubscribe(f"{CHANNEL_PREFIX}*")

    async def publish(self, game_id: str, said: Said | None = None) -> None:
        """Publish the notice on Redis; fall back to local listeners if Redis is away."""
        data = ANY_CHANGE if said is None else orjson.dumps(said)
        try:
            await self._client.publish(f"{CHANNEL_PREFIX}{game_id}", data)
        except Exception:
            log.warning("could not publish a live notice; only this worker's streams hear it")
            await super().publish(game_id, said)

    async def stop(self) -> None:
        await _cancelled(self._reader)
        if self._client is not None:
            await self._client.aclose()


class TooManyStreams(Exception):
    """A client already holds as many open event streams as allowed."""


class StreamGate:
    """Refuses a client's stream over ``limit`` in this process (one worker holds all)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._tickets: defaultdict[str, set[str]] = defaultdict(set)  # the open streams here

    async def open(self, client: str) -> str:
        if len(self._tickets.get(client, ())) >= self.limit:
            raise TooManyStreams(client)
        ticket = uuid.uuid4().hex
        self._tickets[client].add(ticket)
        return ticket

    async def close(self, client: str, ticket: str) -> None:
        held = self._tickets.get(client)
        if held is not None:
            held.discard(ticket)
            if not held:
                del self._tickets[client]

    async def stop(self) -> None:
        pass


STREAM_KEY_PREFIX = "zzv:streams:"
"""Redis sorted set of one client's open streams: ticket -> lease end (ms, Redis clock)."""

STREAM_LEASE_SECONDS = 60.0
"""How long a stream counts without its worker renewing it: a worker that died without
closing its streams frees them after this."""

STREAM_RENEW_SECONDS = 20.0
"""How often a worker renews the leases of the streams it holds open."""

# Drops lapsed leases, then admits the stream if the client is under the cap, in one step
# so two workers cannot both admit the last place. Time is Redis's, common to all workers.
_OPEN_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

_RENEW_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[i])
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
"""


class RedisStreamGate(StreamGate):
    """The per-client cap shared on Redis: each open stream a ticket in its client's sorted
    set, leased and renewed by its worker; Redis away, a new stream is refused with
    :class:`~app.storage.interface.StoreUnavailable` (503)."""

    def __init__(self, limit: int, url: str, timeout: float) -> None:
        super().__init__(limit)
        self._client = Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        self._timeout = timeout
        self._lease_ms = int(STREAM_LEASE_SECONDS * 1000)
        self._renewer: asyncio.Task[None] | None = None

    async def open(self, client: str) -> str:
        ticket = uuid.uuid4().hex
        try:
            admitted = await self._client.eval(
                _OPEN_SCRIPT, 1, STREAM_KEY_PREFIX + client, self.limit, ticket, self._lease_ms
            )
        except (RedisError, OSError) as exc:
            raise StoreUnavailable() from exc
        if not admitted:
            raise TooManyStreams(client)
        self._tickets[client].add(ticket)
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.create_task(self._renew_forever(), name="zzv-stream-leases")
        return ticket

    async def close(self, client: str, ticket: str) -> None:
        await super().close(client, ticket)
        # A stream ends by being cancelled when its client leaves, and the server's task
        # groups cancel every later await too: the release is shielded (and bounded).
        with anyio.move_on_after(self._timeout, shield=True):
            try:
                await self._client.zrem(STREAM_KEY_PREFIX + client, ticket)
            except (RedisError, OSError):
                log.warning("could not free a stream's place in Redis; its lease will lapse")

    async def _renew_forever(self) -> None:
        while self._tickets:
            await asyncio.sleep(STREAM_RENEW_SECONDS)
            for client, tickets in list(self._tickets.items()):
                try:
                    key = STREAM_KEY_PREFIX + client
                    await self._client.eval(_RENEW_SCRIPT, 1, key, self._lease_ms, *tickets)
                except (RedisError, OSError):
                    log.warning("could not renew stream leases in Redis; retrying")
                    break

    async def stop(self) -> None:
        await _cancelled(self._renewer)
        await self._client.aclose()


async def _cancelled(task: asyncio.Task[None] | None) -> None:
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
