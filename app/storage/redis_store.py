"""The shared store: every race in one Redis, so any worker on any machine serves any race.

Layout (every key under a prefix, ``zzv:`` by default):

* ``game:<id>`` — a hash: ``head`` (the seats' token digests and the turn clock, see
  :class:`~app.storage.interface.RecordHead`), ``owner`` (client address), ``data`` (the
  race's versioned dict as JSON) and ``seen`` (its last use, the idle clock).
* ``gone:<id>`` — the head again, written when the race is dropped (idle expiry or
  eviction) and kept ``tombstone_seconds``, so a race that is gone answers 410 rather than
  404 to each of its seats.
* ``lru`` — a sorted set id → last save, for the game cap and least-recently-used eviction
  across processes (a seat's read moves only ``seen``, so before they use its order the
  sweep and the eviction re-score entries whose ``seen`` is later); ``owner:<addr>`` — the
  ids created from a client address, and ``player:<id>`` — a list of the ids a player
  created, oldest first, for the caps on live races (a race counts while its hash
  exists and its head does not say it is over).
* ``lock:<id>`` — the race's lock.
* ``outbox`` — a hash id → message a save left for delivery (a finished race's result),
  written by the save's own script and deleted only by ``clear_outbox``: it has no time
  to live, and no expiry or eviction of the race touches it.

Exactly one of concurrent moves is applied because a move holds the race's lock (SET NX
with an expiring lease, released by compare-and-delete) across the human's move *and* the
bots' replies, and the save is fenced: the script that writes the race first checks that
the lease is still the caller's, so a move that outlived its lease is refused, never
written over a newer state. A holder renews its lease while it works. A compare-and-set
on the turn counter was the alternative: it would let every concurrent request compute its
bots' replies (seconds of hard-bot search each) only for all but one to be thrown away,
and a read that finishes pending bot turns would race with a move. The lease bounds how
long a crashed worker can block its race.

Idle expiry is by the store's clock against ``seen``: a read finds an idle race gone
(and writes its tombstone), and the sweep drops the rest; a locked race is never expired or
evicted. Each request is one script: a read (head, data and the idle clock) is one round
trip, a move two (lock-and-read, then write-unlock-and-announce when the store announces
saves, else the live hub's PUBLISH follows).
Multi-key scripts run on one Redis node (no cluster). Times come from the store's clock
(wall time by default): machines sharing a Redis need synchronised clocks, as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Generic, cast

from redis.asyncio import Redis
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError, RedisError
from redis.retry import Retry

from app.metrics import STORE_ERRORS
from app.storage.interface import (
    ClientFull,
    Clock,
    Fetched,
    Lease,
    LeaseLost,
    R,
    RecordHead,
    StoreFull,
    StoreUnavailable,
    Tombstone,
    decode,
    encode,
)

# A race's last use is the ``seen`` field of its hash, written by every save and by every
# read that a seat makes, so a read costs no command on the LRU set. The set is moved only by
# saves and so may lag behind ``seen``, never run ahead of it: wherever its order matters
# (expiry, eviction) the scripts first re-score the entries whose hash knows a later use.
_DROP_STALE = """
local function seen_of(prefix, id, score)
  local seen = tonumber(redis.call('HGET', prefix .. 'game:' .. id, 'seen'))
  if seen and seen > score then return seen end
  return score
end
local function retire(prefix, lru, id, tomb_ttl)
  local head = redis.call('HGET', prefix .. 'game:' .. id, 'head')
  if head then redis.call('SET', prefix .. 'gone:' .. id, head, 'EX', tomb_ttl) end
  redis.call('DEL', prefix .. 'game:' .. id)
  redis.call('ZREM', lru, id)
end
local function drop_stale(lru, now, idle, prefix, limit, tomb_ttl)
  local stale = redis.call('ZRANGEBYSCORE', lru, '-inf', now - idle,
                           'WITHSCORES', 'LIMIT', 0, limit)
  local dropped = 0
  for i = 1, #stale, 2 do
    local id = stale[i]
    local seen = seen_of(prefix, id, tonumber(stale[i + 1]))
    if now - seen < idle then
      redis.call('ZADD', lru, seen, id)
    elseif redis.call('EXISTS', prefix .. 'lock:' .. id) == 0 then
      retire(prefix, lru, id, tomb_ttl)
      dropped = dropped + 1
    end
  end
  return dropped
end
-- Re-score the set's oldest entries until its first `count` hold their true last use: then
-- every later entry's true use is at least its score, so those are the true oldest.
local function settle_oldest(lru, prefix, count)
  for _ = 1, 50 do
    local moved = false
    local oldest = redis.call('ZRANGE', lru, 0, count - 1, 'WITHSCORES')
    for i = 1, #oldest, 2 do
      local score = tonumber(oldest[i + 1])
      local seen = seen_of(prefix, oldest[i], score)
      if seen > score then
        redis.call('ZADD', lru, seen, oldest[i])
        moved = true
      end
    end
    if not moved then return end
  end
end
"""

# KEYS: lru. ARGV: now, idle, prefix, limit, tombstone ttl.
_SWEEP = (
    _DROP_STALE
    + "return drop_stale(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], "
    + "tonumber(ARGV[4]), ARGV[5])"
)

# Adds a race unless its player, then its client address, is at its cap of live races, or no
# idle race can be evicted. Answers {'ok'}, {'full'}, or {'player_full' | 'address_full',
# the player's live ids oldest first...}.
# KEYS: lru, game, owner, player. ARGV: now, idle, evict_min_idle, max_games, per_address,
# id, head, owner, data, owner_ttl, tombstone ttl, prefix, per_player, has player ('1'/'').
_ADD = (
    _DROP_STALE
    + """
-- The live races an index holds (a player's list: oldest first); the ids of races gone or
-- over (the head's third item is false) are dropped, as a race over never plays again.
local function live_in(key, prefix, listed)
  local ids
  if listed then ids = redis.call('LRANGE', key, 0, -1) else ids = redis.call('SMEMBERS', key) end
  local live = {}
  for _, id in ipairs(ids) do
    local head = redis.call('HGET', prefix .. 'game:' .. id, 'head')
    if head and cjson.decode(head)[3] ~= false then
      live[#live + 1] = id
    elseif listed then
      redis.call('LREM', key, 0, id)
    else
      redis.call('SREM', key, id)
    end
  end
  return live
end
local now, prefix = tonumber(ARGV[1]), ARGV[12]
drop_stale(KEYS[1], now, tonumber(ARGV[2]), prefix, 100, ARGV[11])
local mine = {}
if ARGV[14] ~= '' then mine = live_in(KEYS[4], prefix, true) end
if #mine >= tonumber(ARGV[13]) then
  table.insert(mine, 1, 'player_full')
  return mine
end
if #live_in(KEYS[3], prefix, false) >= tonumber(ARGV[5]) then
  table.insert(mine, 1, 'address_full')
  return mine
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  settle_oldest(KEYS[1], prefix, 20)
  local evicted = false
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 19, 'WITHSCORES')
  for i = 1, #oldest, 2 do
    local id = oldest[i]
    if now - tonumber(oldest[i + 1]) < tonumber(ARGV[3]) then break end
    if redis.call('EXISTS', prefix .. 'lock:' .. id) == 0 then
      retire(prefix, KEYS[1], id, ARGV[11])
      evicted = true
      break
    end
  end
  if not evicted then return {'full'} end
end
redis.call('HSET', KEYS[2], 'head', ARGV[7], 'owner', ARGV[8], 'data', ARGV[9], 'seen', now)
redis.call('ZADD', KEYS[1], now, ARGV[6])
redis.call('SADD', KEYS[3], ARGV[6])
redis.call('EXPIRE', KEYS[3], ARGV[10])
if ARGV[14] ~= '' then
  redis.call('RPUSH', KEYS[4], ARGV[6])
  redis.call('EXPIRE', KEYS[4], ARGV[10])
end
return {'ok'}
"""
)

# The first half of a read: the race's head and data, or its tombstone; a race idle past
# the expiry (by the store's clock) and not locked is retired here. Then, unless a digest
# was given that opens no seat, the caller's part (the idle clock, or the lock). A race
# saved before its hash held ``seen`` takes its last use from the LRU set.
# KEYS: game, lru, lock, gone. ARGV: now, idle, id, digest ('' = none), tombstone ttl, ...
_FIND = """
local found = redis.call('HMGET', KEYS[1], 'head', 'data', 'seen')
local head = found[1]
if not head then return {false, false, redis.call('GET', KEYS[4]), 'gone'} end
local seen = found[3] or redis.call('ZSCORE', KEYS[2], ARGV[3])
if seen and tonumber(ARGV[1]) - tonumber(seen) >= tonumber(ARGV[2])
   and redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('SET', KEYS[4], head, 'EX', ARGV[5])
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[3])
  return {false, false, head, 'gone'}
end
local digest = ARGV[4]
local opened = digest ~= '' and string.find(head, '"' .. digest .. '"', 1, true) ~= nil
if digest ~= '' and not opened then return {head, false, false, 'denied'} end
"""

# A read that moves the idle clock when a seat's digest opened it.
_FETCH = (
    _FIND
    + """
if opened then redis.call('HSET', KEYS[1], 'seen', ARGV[1]) end
return {head, found[2], false, 'ok'}
"""
)

# A read under the race's lock (a lease: a crashed worker's lock frees itself).
# ARGV (after the five of _FIND): lock token, lease in ms.
_LOCK = (
    _FIND
    + """
if not redis.call('SET', KEYS[3], ARGV[6], 'NX', 'PX', ARGV[7]) then
  return {head, false, false, 'busy'}
end
return {head, found[2], false, 'ok'}
"""
)

# Write the race (and its outbox message, if any: '' = none) and give its lock back, only
# if the lease is still the caller's; then announce the change on the channel given, if any
# ('' = none). KEYS: game, lru, lock, outbox. ARGV: token, data, head, now, id, channel,
# message.
_SAVE = """
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[2], 'head', ARGV[3], 'seen', ARGV[4])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[4], ARGV[5], ARGV[7]) end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
redis.call('DEL', KEYS[3])
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[6], '1') end
return 1
"""

# Give the lock back if it is still ours. KEYS: lock. ARGV: token.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""

# Extend our lease if it is still ours. KEYS: lock. ARGV: token, lease in ms.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

_HOLD_SLOT = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return ARGV[1]
end
return redis.call('GET', KEYS[1]) or ARGV[1]
"""

_FREE_SLOT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

_LOCK_POLL_SECONDS = 0.005
"""How often a request waiting for a race's lock tries again."""

_RELEASE_RETRY_SECONDS = 0.5
"""How often a lock that could not be given back (Redis unreachable) is tried again."""


class _Script:
    """A Lua script run by its SHA1 (``EVALSHA``), and sent again whenever the server
    has forgotten it (a restart, ``SCRIPT FLUSH``). What redis-py's ``register_script``
    does, without its per-call check for a pipeline (this store never pipelines a
    script), which is a large share of a small call's cost."""

    __slots__ = ("execute", "redis", "sha", "text")

    def __init__(self, redis: Redis, text: str) -> None:
        self.redis = redis
        self.execute: Callable[..., Awaitable[Any]] = redis.execute_command
        self.text = text
        self.sha = hashlib.sha1(text.encode()).hexdigest()

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self.execute("EVALSHA", self.sha, len(keys), *keys, *args)
        except NoScriptError:
            self.sha = await self.redis.script_load(self.text)
            return await self.execute("EVALSHA", self.sha, len(keys), *keys, *args)


class RedisStore(Generic[R]):
    """A :class:`~app.storage.interface.GameStore` in Redis, shared by every worker (see the
    module docstring)."""

    def __init__(
        self,
        redis: Redis,
        loader: Callable[[dict[str, Any]], R],
        *,
        max_games: int,
        idle_expiry_seconds: float,
        evict_min_idle_seconds: float = 0.0,
        max_games_per_client: int = 20,
        max_games_per_address: int | None = None,
        tombstone_seconds: float = 86400.0,
        lock_timeout_seconds: float = 30.0,
        prefix: str = "zzv:",
        clock: Clock = time.time,
        announce: str | None = None,
    ) -> None:
        """Use ``redis``; ``loader`` rebuilds a record from its dict.
        ``max_games_per_client`` caps the live races of one player, ``max_games_per_address``
        those created from one client address (None: only the store's cap). With ``announce``
        (a pub/sub channel prefix) every save also publishes on ``announce`` + the race's
        id, in the save's own script: the live notice of a move then costs no round trip
        of its own, and nobody hears of a change before it is stored."""
        self.redis = redis
        self.loader = loader
        self.max_games = max_games
        self.idle = idle_expiry_seconds
        self.evict_min_idle = evict_min_idle_seconds
        self.per_player = max_games_per_client
        self.per_address = max_games if max_games_per_address is None else max_games_per_address
        self.lease = lock_timeout_seconds
        self.prefix = prefix
        self.clock = clock
        self.announce = announce
        self.owner_ttl = max(1, round(idle_expiry_seconds))
        self.tomb_ttl = max(1, round(tombstone_seconds))
        self._given_back: set[str] = set()
        self._retries: set[asyncio.Task[None]] = set()
        self._sweep = _Script(redis, _SWEEP)
        self._add = _Script(redis, _ADD)
        self._fetch = _Script(redis, _FETCH)
        self._lock = _Script(redis, _LOCK)
        self._save = _Script(redis, _SAVE)
        self._release = _Script(redis, _RELEASE)
        self._renew = _Script(redis, _RENEW)
        self._hold = _Script(redis, _HOLD_SLOT)
        self._free = _Script(redis, _FREE_SLOT)

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
        for task in list(self._retries):
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    async def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless Redis answers."""
        async with _reachable("ping"):
            await self.redis.ping()

    async def count(self) -> int:
        """Number of live races (entries of the LRU set)."""
        async with _reachable("count"):
            return int(await self.redis.zcard(self.prefix + "lru"))

    async def create(self, record: R, owner: str) -> None:
        """Store a new race atomically with the cap, LRU eviction and the caps on the live
        races of its player and of its client address."""
        head = record.head()
        player = "" if head.player is None else str(head.player)
        keys = [
            self.prefix + "lru",
            self._key("game", record.id),
            self._key("owner", owner),
            self._key("player", player),
        ]
        args: list[bytes | str | int | float] = [
            self.clock(), self.idle, self.evict_min_idle, self.max_games, self.per_address,
            record.id, head.to_json(), owner, encode(record), self.owner_ttl,
            self.tomb_ttl, self.prefix, self.per_player, "1" if player else "",
        ]  # fmt: skip
        async with _reachable("add"):
            outcome, *mine = await self._add(keys=keys, args=args)
        races = tuple(bytes(game_id).decode() for game_id in mine)
        if outcome == b"player_full":
            raise ClientFull("player", self.per_player, races)
        if outcome == b"address_full":
            raise ClientFull("address", self.per_address, races)
        if outcome == b"full":
            raise StoreFull("every stored game is in active use")

    def _find_keys(self, game_id: str) -> list[str]:
        return [
            self._key("game", game_id),
            self.prefix + "lru",
            self._key("lock", game_id),
            self._key("gone", game_id),
        ]

    def _found(self, reply: list[Any], digest: str | None, lease: Lease | None) -> Fetched[R]:
        head_json, data, gone, _status = reply
        if head_json is None:
            digests = None if gone is None else RecordHead.from_json(gone).digests
            return Fetched(gone=None if digests is None else Tombstone(digests))
        head = RecordHead.from_json(head_json)
        seat = None if digest is None else head.seat_of(digest)
        if digest is not None and seat is None:  # the script's find was not constant-time
            return Fetched(head=head)
        return Fetched(self.loader(decode(data)), head, seat, lease=lease)

    async def fetch(self, game_id: str, digest: str | None = None) -> Fetched[R]:
        """One round trip: a copy of the live race (and its idle clock moved when
        ``digest`` opens a seat), or its tombstone."""
        args: list[str | float] = [self.clock(), self.idle, game_id, digest or "", self.tomb_ttl]
        async with _reachable("read"):
            reply = await self._fetch(keys=self._find_keys(game_id), args=args)
        return self._found(reply, digest, None)

    @contextlib.asynccontextmanager
    async def lock(self, game_id: str, digest: str | None = None) -> AsyncIterator[Fetched[R]]:
        """The race's lock across every worker, taken and read in one round trip; waits up
        to the lease, else 503. The lease is renewed while the block runs."""
        token = secrets.token_hex(16)
        lease_ms = round(self.lease * 1000)
        give_up = time.monotonic() + self.lease
        keys = self._find_keys(game_id)
        while True:
            args: list[str | float] = [
                self.clock(), self.idle, game_id, digest or "", self.tomb_ttl, token, lease_ms,
            ]  # fmt: skip
            async with _reachable("lock"):
                reply = await self._lock(keys=keys, args=args)
            if reply[3] != b"busy":
                break
            if time.monotonic() >= give_up:
                raise StoreUnavailable("the race stayed locked")
            await asyncio.sleep(_LOCK_POLL_SECONDS)
        if reply[3] != b"ok":  # gone, or a digest that opens no seat: nothing was locked
            yield self._found(reply, digest, None)
            return
        lease = Lease(game_id, token)
        keeper = asyncio.create_task(self._keep(lease))
        try:
            yield self._found(reply, digest, lease)
        finally:
            keeper.cancel()
            if token in self._given_back:
                self._given_back.discard(token)
            else:
                await self._give_back(lease)

    async def _keep(self, lease: Lease) -> None:
        """Renew ``lease`` every third of its length while its holder works."""
        keys = [self._key("lock", lease.game_id)]
        while True:
            await asyncio.sleep(self.lease / 3)
            with contextlib.suppress(RedisError, OSError):
                if not await self._renew(keys=keys, args=[lease.token, round(self.lease * 1000)]):
                    return

    async def _give_back(self, lease: Lease) -> None:
        """Release the lock; while Redis is unreachable keep trying in the background, so
        no race stays locked past an outage longer than it must."""
        keys = [self._key("lock", lease.game_id)]
        try:
            async with _reachable("unlock"):
                await self._release(keys=keys, args=[lease.token])
        except StoreUnavailable:
            task = asyncio.create_task(self._retry_release(keys, lease.token))
            self._retries.add(task)
            task.add_done_callback(self._retries.discard)

    async def _retry_release(self, keys: list[str], token: str) -> None:
        give_up = time.monotonic() + self.lease
        while time.monotonic() < give_up:
            await asyncio.sleep(_RELEASE_RETRY_SECONDS)
            with contextlib.suppress(RedisError, OSError):
                await self._release(keys=keys, args=[token])
                return

    async def save(self, record: R, lease: Lease, outbox: bytes | None = None) -> None:
        """Write the race (and ``outbox`` under its id) and give its lock back in one
        script, if the lease still holds (and announce it, see ``announce``)."""
        keys = [
            self._key("game", record.id), self.prefix + "lru", self._key("lock", record.id),
            self.prefix + "outbox",
        ]  # fmt: skip
        channel = "" if self.announce is None else self.announce + record.id
        args: list[bytes | str | float] = [
            lease.token, encode(record), record.head().to_json(), self.clock(), record.id, channel,
            outbox or b"",
        ]  # fmt: skip
        async with _reachable("write"):
            written = await self._save(keys=keys, args=args)
        if not written:
            raise LeaseLost()
        self._given_back.add(lease.token)

    async def outbox(self) -> dict[str, bytes]:
        """Every message in the outbox hash, by race id (shared by every worker)."""
        async with _reachable("outbox"):
            found = await cast(
                "Awaitable[dict[bytes, bytes]]", self.redis.hgetall(self.prefix + "outbox")
            )
        return {key.decode(): bytes(value) for key, value in found.items()}

    async def clear_outbox(self, game_id: str) -> None:
        """Delete ``game_id``'s message from the outbox hash."""
        async with _reachable("outbox"):
            await cast("Awaitable[int]", self.redis.hdel(self.prefix + "outbox", game_id))

    async def slot(self, name: str) -> str | None:
        """The value slot ``name`` holds (a Redis key with a time to live)."""
        async with _reachable("slot"):
            held = await self.redis.get(self._key("slot", name))
        return None if held is None else held.decode()

    async def hold_slot(self, name: str, value: str, ttl_seconds: float) -> str:
        """``SET NX`` with a time to live, then the value held (ours or the winner's)."""
        key = self._key("slot", name)
        async with _reachable("slot"):
            held = await self._hold(keys=[key], args=[value, max(1, round(ttl_seconds * 1000))])
        return bytes(held).decode()

    async def free_slot(self, name: str, value: str) -> None:
        """Delete slot ``name`` only if it still holds ``value`` (one script)."""
        async with _reachable("slot"):
            await self._free(keys=[self._key("slot", name)], args=[value])

    async def wipe(self, game_id: str) -> None:
        """Forget a race and its tombstone."""
        async with _reachable("delete"), self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._key("game", game_id), self._key("gone", game_id))
            pipe.zrem(self.prefix + "lru", game_id)
            await pipe.execute()

    async def idle_ids(self, seconds: float, limit: int = 1000) -> list[str]:
        """The ids of up to ``limit`` races whose last use is ``seconds`` ago or more, least
        recently saved first."""
        since = self.clock() - seconds
        async with _reachable("idle"):
            ids = await self.redis.zrangebyscore(
                self.prefix + "lru", "-inf", since, start=0, num=limit
            )
            names = [i.decode() if isinstance(i, bytes) else str(i) for i in ids]
            # The set may lag behind a seat's reads (``seen``): those are not idle.
            pipe = self.redis.pipeline(transaction=False)
            for name in names:
                pipe.hget(self._key("game", name), "seen")
            seen = await pipe.execute()
        return [n for n, s in zip(names, seen, strict=True) if s is None or float(s) <= since]

    async def sweep(self) -> int:
        """Drop the races idle past the expiry, leaving their tombstones; their count."""
        async with _reachable("sweep"):
            dropped = await self._sweep(
                keys=[self.prefix + "lru"],
                args=[self.clock(), self.idle, self.prefix, 1000, self.tomb_ttl],
            )
        return int(dropped)


@contextlib.asynccontextmanager
async def _reachable(operation: str) -> AsyncIterator[None]:
    """Turn the Redis client's failures into :class:`StoreUnavailable`, counted by
    ``operation`` in the ``zzv_store_errors`` metric."""
    try:
        yield
    except (RedisError, OSError) as exc:
        STORE_ERRORS.labels(operation=operation).inc()
        raise StoreUnavailable(type(exc).__name__) from exc
