"""The shared store: every race in one Redis, so any worker on any machine serves any race.

Layout (every key under a prefix, ``zzv:`` by default):

* ``game:<id>`` — a hash: ``head`` (the seats' token digests and the turn clock, see
  :class:`~app.storage.interface.RecordHead`), ``owner`` (client address) and ``data`` (the race's
  versioned dict as JSON). Its TTL is the idle expiry.
* ``gone:<id>`` — the head again, living ``tombstone_seconds`` longer than the game, so a
  race that expired or was evicted answers 410 rather than 404 to each of its seats.
* ``lru`` — a sorted set id → last use, for the game cap and least-recently-used eviction
  across processes; ``owner:<addr>`` — the ids a client created, for the per-client cap.
* ``lock:<id>`` — the race's lock.

Exactly one of concurrent moves is applied because a move holds the race's lock (SET NX
with an expiring lease, released by compare-and-delete) across the human's move *and* the
bots' replies. A compare-and-set on the turn counter was the alternative: it would let
every concurrent request compute its bots' replies (seconds of hard-bot search each) only
for all but one to be thrown away, and a read that finishes pending bot turns would race
with a move. The lease bounds how long a crashed worker can block its race.

While the lock is held the game key has no TTL (``PERSIST``) and eviction skips it, so a
race is never expired or evicted in the middle of a move; releasing puts the TTL back.
Multi-key scripts run on one Redis node (no cluster). Times come from the store's clock
(wall time by default): machines sharing a Redis need synchronised clocks, as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Generic

from redis.asyncio import Redis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from app.metrics import STORE_ERRORS
from app.storage.interface import (
    ClientFull,
    Clock,
    R,
    RecordHead,
    StoreFull,
    StoreUnavailable,
    Tombstone,
)

# Drops entries of the LRU set older than the idle expiry (their key's TTL has gone or is
# going), unless a move holds their lock; returns how many went.
_DROP_STALE = """
local function drop_stale(lru, now, idle, prefix, limit)
  local stale = redis.call('ZRANGEBYSCORE', lru, '-inf', now - idle, 'LIMIT', 0, limit)
  local dropped = 0
  for _, id in ipairs(stale) do
    if redis.call('EXISTS', prefix .. 'lock:' .. id) == 0 then
      redis.call('DEL', prefix .. 'game:' .. id)
      redis.call('ZREM', lru, id)
      dropped = dropped + 1
    end
  end
  return dropped
end
"""

# KEYS: lru. ARGV: now, idle, prefix, limit.
_SWEEP = (
    _DROP_STALE
    + "return drop_stale(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], "
    + "tonumber(ARGV[4]))"
)

# Adds a game unless the client is at its cap or no idle game can be evicted.
# KEYS: lru, game, gone, owner. ARGV: now, idle, evict_min_idle, max_games, per_client,
# id, head, owner, data, game_ttl, gone_ttl, prefix.
_ADD = (
    _DROP_STALE
    + """
local now, prefix = tonumber(ARGV[1]), ARGV[12]
drop_stale(KEYS[1], now, tonumber(ARGV[2]), prefix, 100)
local live = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  if redis.call('EXISTS', prefix .. 'game:' .. id) == 1 then
    live = live + 1
  else
    redis.call('SREM', KEYS[4], id)
  end
end
if live >= tonumber(ARGV[5]) then return 'client_full' end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  local evicted = false
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 19, 'WITHSCORES')
  for i = 1, #oldest, 2 do
    local id = oldest[i]
    if now - tonumber(oldest[i + 1]) < tonumber(ARGV[3]) then break end
    if redis.call('EXISTS', prefix .. 'lock:' .. id) == 0 then
      redis.call('DEL', prefix .. 'game:' .. id)
      redis.call('ZREM', KEYS[1], id)
      evicted = true
      break
    end
  end
  if not evicted then return 'full' end
end
redis.call('HSET', KEYS[2], 'head', ARGV[7], 'owner', ARGV[8], 'data', ARGV[9])
redis.call('EXPIRE', KEYS[2], ARGV[10])
redis.call('SET', KEYS[3], ARGV[7], 'EX', ARGV[11])
redis.call('ZADD', KEYS[1], now, ARGV[6])
redis.call('SADD', KEYS[4], ARGV[6])
redis.call('EXPIRE', KEYS[4], ARGV[10])
return 'ok'
"""
)

# A field of a live game, or nil; a game idle past the expiry (by the store's clock) and
# not locked is dropped here. KEYS: lru, game, lock. ARGV: now, idle, id, field.
_READ = """
local value = redis.call('HGET', KEYS[2], ARGV[4])
if not value then return false end
local seen = redis.call('ZSCORE', KEYS[1], ARGV[3])
if seen and tonumber(ARGV[1]) - tonumber(seen) >= tonumber(ARGV[2])
   and redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('DEL', KEYS[2])
  redis.call('ZREM', KEYS[1], ARGV[3])
  return false
end
return value
"""

# Move the idle clock (and write the data and head when given). KEYS: lru, game, gone, lock.
# ARGV: now, id, game_ttl, gone_ttl, data ('' = none), head.
_TOUCH = """
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[2], 'data', ARGV[5], 'head', ARGV[6])
  redis.call('SET', KEYS[3], ARGV[6], 'EX', ARGV[4])
else
  redis.call('EXPIRE', KEYS[3], ARGV[4])
end
if redis.call('EXISTS', KEYS[4]) == 0 then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


# Take a race's lock (a lease: a crashed worker's lock frees itself) and lift the race's
# expiry while it is held. KEYS: lock, game. ARGV: token, lease in ms.
_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('PERSIST', KEYS[2])
  return 1
end
return 0
"""

# Give the lock back if it is still ours, and the race its idle expiry.
# KEYS: lock, game. ARGV: token, game_ttl.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
return 1
"""

_LOCK_POLL_SECONDS = 0.005
"""How often a request waiting for a race's lock tries again."""


class RedisStore(Generic[R]):
    """A :class:`~app.storage.interface.GameStore` in Redis, shared by every worker (see the
    module docstring)."""

    snapshots = True
    """``load`` decodes a fresh copy each time."""

    def __init__(
        self,
        redis: Redis,
        loader: Callable[[dict[str, Any]], R],
        *,
        max_games: int,
        idle_expiry_seconds: float,
        evict_min_idle_seconds: float = 0.0,
        max_games_per_client: int = 20,
        tombstone_seconds: float = 86400.0,
        lock_timeout_seconds: float = 30.0,
        prefix: str = "zzv:",
        clock: Clock = time.time,
    ) -> None:
        """Use ``redis``; ``loader`` rebuilds a record from its dict."""
        self.redis = redis
        self.loader = loader
        self.max_games = max_games
        self.idle = idle_expiry_seconds
        self.evict_min_idle = evict_min_idle_seconds
        self.per_client = max_games_per_client
        self.lease = lock_timeout_seconds
        self.prefix = prefix
        self.clock = clock
        self.game_ttl = max(1, round(idle_expiry_seconds))
        self.gone_ttl = max(1, round(idle_expiry_seconds + tombstone_seconds))
        self._last_count = 0
        self._sweep = redis.register_script(_SWEEP)
        self._add = redis.register_script(_ADD)
        self._read = redis.register_script(_READ)
        self._touch = redis.register_script(_TOUCH)
        self._acquire = redis.register_script(_ACQUIRE)
        self._release = redis.register_script(_RELEASE)

    @classmethod
    def connect(
        cls, url: str, loader: Callable[[dict[str, Any]], R], timeout: float, **bounds: Any
    ) -> RedisStore[R]:
        """A store on the Redis at ``url``: commands fail fast (one try, ``timeout`` s) so
        a Redis outage answers 503 quickly; the pool reconnects once Redis is back."""
        redis = Redis.from_url(
            url,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(NoBackoff(), 0),
        )
        return cls(redis, loader, **bounds)

    def _key(self, kind: str, game_id: str) -> str:
        return f"{self.prefix}{kind}:{game_id}"

    async def open(self) -> None:
        """Nothing to load: the races are in Redis. A down Redis is reported by /readyz."""

    async def close(self) -> None:
        """Close the connections (the races stay in Redis)."""
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    async def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless Redis answers."""
        async with _reachable("ping"):
            await self.redis.ping()

    async def count(self) -> int:
        """Number of live games (entries of the LRU set)."""
        async with _reachable("count"):
            self._last_count = int(await self.redis.zcard(self.prefix + "lru"))
        return self._last_count

    def cached_count(self) -> int:
        """The last :meth:`count` (the sweep refreshes it every sweep interval)."""
        return self._last_count

    async def add(self, record: R, owner: str) -> None:
        """Store a new game atomically with the cap, LRU eviction and per-client cap."""
        keys = [
            self.prefix + "lru",
            self._key("game", record.id),
            self._key("gone", record.id),
            self._key("owner", owner),
        ]
        args: list[str | int | float] = [
            self.clock(), self.idle, self.evict_min_idle, self.max_games, self.per_client,
            record.id, record.head().to_json(), owner, _encode(record), self.game_ttl,
            self.gone_ttl, self.prefix,
        ]  # fmt: skip
        async with _reachable("add"):
            outcome = await self._add(keys=keys, args=args)
        if outcome == b"client_full":
            raise ClientFull()
        if outcome == b"full":
            raise StoreFull("every stored game is in active use")

    async def _field(self, game_id: str, name: str) -> bytes | None:
        keys = [self.prefix + "lru", self._key("game", game_id), self._key("lock", game_id)]
        async with _reachable("read"):
            value: bytes | None = await self._read(
                keys=keys, args=[self.clock(), self.idle, game_id, name]
            )
        return value

    async def head(self, game_id: str) -> RecordHead | None:
        """The live game's seats' digests and clock (one small field)."""
        value = await self._field(game_id, "head")
        return None if value is None else RecordHead.from_json(value)

    async def load(self, game_id: str) -> R | None:
        """A fresh copy of the live game, or None."""
        value = await self._field(game_id, "data")
        return None if value is None else self.loader(json.loads(value))

    async def _write(self, game_id: str, data: str, head: str = "") -> None:
        keys = [
            self.prefix + "lru",
            self._key("game", game_id),
            self._key("gone", game_id),
            self._key("lock", game_id),
        ]
        args: list[str | int | float] = [
            self.clock(), game_id, self.game_ttl, self.gone_ttl, data, head,
        ]  # fmt: skip
        async with _reachable("write"):
            await self._touch(keys=keys, args=args)

    async def touch(self, game_id: str) -> None:
        """Move the idle clock: the LRU score and the TTLs."""
        await self._write(game_id, "")

    async def save(self, record: R) -> None:
        """Write the game back (with its lock held) and move its idle clock."""
        await self._write(record.id, _encode(record), record.head().to_json())

    @contextlib.asynccontextmanager
    async def lock(self, game_id: str) -> AsyncIterator[None]:
        """The race's lock across every worker; waits up to the lease, else 503.

        One script takes the lock and lifts the race's expiry, one gives both back: two
        round trips per locked operation.
        """
        keys = [self._key("lock", game_id), self._key("game", game_id)]
        token = secrets.token_hex(16)
        give_up = time.monotonic() + self.lease
        async with _reachable("lock"):
            while not await self._acquire(keys=keys, args=[token, round(self.lease * 1000)]):
                if time.monotonic() >= give_up:
                    raise StoreUnavailable("the race stayed locked")
                await asyncio.sleep(_LOCK_POLL_SECONDS)
        try:
            yield
        finally:
            async with _reachable("lock"):
                await self._release(keys=keys, args=[token, self.game_ttl])

    async def delete(self, game_id: str) -> None:
        """Forget a game and its tombstone."""
        async with _reachable("delete"), self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._key("game", game_id), self._key("gone", game_id))
            pipe.zrem(self.prefix + "lru", game_id)
            await pipe.execute()

    async def sweep(self) -> int:
        """Drop the games idle past the expiry (TTL usually did already); their count."""
        async with _reachable("sweep"):
            dropped = await self._sweep(
                keys=[self.prefix + "lru"], args=[self.clock(), self.idle, self.prefix, 1000]
            )
        return int(dropped)

    async def tombstone(self, game_id: str) -> Tombstone | None:
        """The seats' digests of a race that expired or was evicted, while remembered."""
        async with _reachable("tombstone"):
            value = await self.redis.get(self._key("gone", game_id))
        return None if value is None else Tombstone(RecordHead.from_json(value).digests)


def _encode(record: Any) -> str:
    return json.dumps(record.to_dict(), separators=(",", ":"))


@contextlib.asynccontextmanager
async def _reachable(operation: str) -> AsyncIterator[None]:
    """Turn the Redis client's failures into :class:`StoreUnavailable`, counted by
    ``operation`` in the ``zzv_store_errors`` metric."""
    try:
        yield
    except (RedisError, OSError) as exc:
        STORE_ERRORS.labels(operation=operation).inc()
        raise StoreUnavailable(type(exc).__name__) from exc
