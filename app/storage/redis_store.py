"""The shared store: every race in one Redis (:class:`RedisBackend` under
:mod:`app.storage.policy`'s rules), so any worker on any machine serves any race.

Keys under a prefix (``zzv:``): ``game:<id>``, a hash of ``head``, ``owner``, ``data`` and
``seen`` (last use); ``gone:<id>``, the head kept ``tombstone_seconds`` once dropped (410);
``lru``, a sorted set id -> last save (cap, eviction); ``owner:<addr>`` and ``player:<id>``
(a list, oldest first), the ids they created (live-race caps); ``lock:<id>`` and
``slot:<name>``, expiring keys; ``outbox``, a hash id -> message, written by the save.

A move holds the race's lock (SET NX, an expiring lease renewed while it works) across its
bots' replies, and the save's script checks the lease is still the caller's: exactly one of
concurrent moves is applied, and no request searches replies to be thrown away. A creation
or a read is one script, a move two (lock-and-read, write-unlock-announce). One Redis node
(no cluster); machines sharing it need synchronised clocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

from redis.asyncio import Redis
from redis.backoff import NoBackoff
from redis.exceptions import NoScriptError, RedisError
from redis.retry import Retry

from app.metrics import STORE_ERRORS
from app.storage.interface import Lease, R, RecordHead, StoreUnavailable, Tombstone
from app.storage.migrations.versions.v0004_race_moves import FORMAT, converted_data
from app.storage.policy import SWEPT_AT_ONCE, SWEPT_ON_CREATE, Found, PolicyStore, Take

# A race's last use is its hash's ``seen`` (every save, every seat's read): a read costs no
# command on the LRU set, which only saves move, so it may lag behind ``seen``, never run
# ahead. Where its order matters (expiry, eviction) the scripts first re-score its entries.
_HELPERS = """
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
-- Retire up to `limit` unlocked races last used at or before `before`, the least recently
-- used first (for a small limit the oldest entries are settled first, so the order is
-- true); how many went.
local function retire_unused(lru, prefix, before, limit, tomb_ttl)
  local scan = limit
  if limit <= 20 then
    settle_oldest(lru, prefix, 20)
    scan = 20
  end
  local stale = redis.call('ZRANGEBYSCORE', lru, '-inf', before, 'WITHSCORES', 'LIMIT', 0, scan)
  local dropped = 0
  for i = 1, #stale, 2 do
    if dropped >= limit then break end
    local id = stale[i]
    local seen = seen_of(prefix, id, tonumber(stale[i + 1]))
    if seen > before then
      redis.call('ZADD', lru, seen, id)
    elseif redis.call('EXISTS', prefix .. 'lock:' .. id) == 0 then
      retire(prefix, lru, id, tomb_ttl)
      dropped = dropped + 1
    end
  end
  return dropped
end
"""

# KEYS: a race's hash. ARGV: the data read, the data upgraded (kept only if still the same).
_UPGRADE = """
if redis.call('HGET', KEYS[1], 'data') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'data', ARGV[2])
end
"""

# KEYS: lru. ARGV: before, prefix, limit, tombstone ttl.
_RETIRE = f"""{_HELPERS}
return retire_unused(KEYS[1], ARGV[2], tonumber(ARGV[1]), tonumber(ARGV[3]), ARGV[4])
"""

# Backend.admit (app.storage.policy): answers {'ok'}, {'full'}, or {'player' | 'address',
# the player's live ids oldest first...}.
# KEYS: lru, game, owner, player. ARGV: now, stale_before, evict_before, max_games,
# per_player, per_address ('' = no cap), id, head, owner, data, index ttl, tombstone ttl,
# prefix, has player ('1'/''), swept.
_ADMIT = (
    _HELPERS
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
local prefix, tomb_ttl = ARGV[13], ARGV[12]
retire_unused(KEYS[1], prefix, tonumber(ARGV[2]), tonumber(ARGV[15]), tomb_ttl)
local mine = {}
if ARGV[14] ~= '' then mine = live_in(KEYS[4], prefix, true) end
if ARGV[5] ~= '' and #mine >= tonumber(ARGV[5]) then
  table.insert(mine, 1, 'player')
  return mine
end
if ARGV[6] ~= '' and #live_in(KEYS[3], prefix, false) >= tonumber(ARGV[6]) then
  table.insert(mine, 1, 'address')
  return mine
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4])
   and retire_unused(KEYS[1], prefix, tonumber(ARGV[3]), 1, tomb_ttl) == 0 then
  return {'full'}
end
redis.call('HSET', KEYS[2], 'head', ARGV[8], 'owner', ARGV[9], 'data', ARGV[10], 'seen', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[7])
redis.call('SADD', KEYS[3], ARGV[7])
redis.call('EXPIRE', KEYS[3], ARGV[11])
if ARGV[14] ~= '' then
  redis.call('RPUSH', KEYS[4], ARGV[7])
  redis.call('EXPIRE', KEYS[4], ARGV[11])
end
return {'ok'}
"""
)

# Backend.read (app.storage.policy), the lock a lease (a crashed worker's frees itself); a
# race saved before its hash held ``seen`` takes its last use from the LRU set.
# KEYS: game, lru, lock, gone. ARGV: now, stale_before, id, digest ('' = none), tombstone
# ttl, lock token ('' = a plain read), lease in ms.
_READ = """
local found = redis.call('HMGET', KEYS[1], 'head', 'data', 'seen')
local head = found[1]
if not head then return {false, false, redis.call('GET', KEYS[4]), 'gone'} end
local seen = found[3] or redis.call('ZSCORE', KEYS[2], ARGV[3])
if seen and tonumber(seen) <= tonumber(ARGV[2]) and redis.call('EXISTS', KEYS[3]) == 0 then
  redis.call('SET', KEYS[4], head, 'EX', ARGV[5])
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[3])
  return {false, false, head, 'gone'}
end
local digest = ARGV[4]
local opened = digest ~= '' and string.find(head, '"' .. digest .. '"', 1, true) ~= nil
if digest ~= '' and not opened then return {head, false, false, 'denied'} end
if ARGV[6] == '' then
  if opened then redis.call('HSET', KEYS[1], 'seen', ARGV[1]) end
elseif not redis.call('SET', KEYS[3], ARGV[6], 'NX', 'PX', ARGV[7]) then
  return {head, false, false, 'busy'}
end
return {head, found[2], false, 'ok'}
"""

# Backend.write, then its notice published on the channel given ('' = none, as for the
# outbox message). KEYS: game, lru, lock, outbox. ARGV: token, data, head, now, id,
# channel, message, notice.
_SAVE = """
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[2], 'head', ARGV[3], 'seen', ARGV[4])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[4], ARGV[5], ARGV[7]) end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
redis.call('DEL', KEYS[3])
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[6], ARGV[8]) end
return 1
"""

# If the claim is still ours, give it back ('' lease) or extend it by the lease.
# KEYS: the claim. ARGV: token, lease in ms.
_RENEW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
"""


LOCK_POLL_SECONDS = 0.005
"""How often a request waiting for a race's lock tries again."""


def _script(
    redis: Redis, text: str, operation: str
) -> Callable[[list[str], list[Any]], Awaitable[Any]]:
    """``text`` run by its SHA1 (sent again when Redis forgot it): ``register_script``
    without its costly per-call pipeline check; failures counted as ``operation``."""
    execute: Callable[..., Awaitable[Any]] = redis.execute_command
    sha = hashlib.sha1(text.encode()).hexdigest()

    async def run(keys: list[str], args: list[Any]) -> Any:
        async with _reachable(operation):
            try:
                return await execute("EVALSHA", sha, len(keys), *keys, *args)
            except NoScriptError:
                await redis.script_load(text)  # under the same SHA1
                return await execute("EVALSHA", sha, len(keys), *keys, *args)

    return run


class RedisStore(PolicyStore[R]):
    """The store on Redis, every verb one script or command. With ``announce`` (a channel
    prefix) each write's script also publishes on ``announce`` + id: no round trip, and
    nobody hears of a change before it is stored."""

    def __init__(
        self,
        redis: Redis,
        loader: Callable[[dict[str, Any]], R],
        *,
        tombstone_seconds: float = 86400.0,
        prefix: str = "zzv:",
        announce: str | None = None,
        **bounds: Any,
    ) -> None:
        """``bounds`` as :class:`~app.storage.policy.PolicyStore`'s, but a player's cap is
        20 unless given and an address's the game cap; an address's and a player's index
        live as long as the idle expiry."""
        bounds.setdefault("max_games_per_client", 20)
        if bounds.get("max_games_per_address") is None:
            bounds["max_games_per_address"] = bounds["max_games"]
        super().__init__(loader, **bounds)
        self.redis = redis
        self.prefix = prefix
        self.announce = announce
        self.tomb_ttl = max(1, round(tombstone_seconds))
        self.index_ttl = max(1, round(self.idle_seconds))
        self._retire = _script(redis, _RETIRE, "sweep")
        self._admit = _script(redis, _ADMIT, "add")
        self._fetch = _script(redis, _READ, "read")
        self._lock = _script(redis, _READ, "lock")
        self._save = _script(redis, _SAVE, "write")
        self._release = _script(redis, _RENEW, "unlock")
        self._renew = _script(redis, _RENEW, "renew")

    def key(self, kind: str, name: str) -> str:
        return f"{self.prefix}{kind}:{name}"

    def _keys(self, game_id: str, last: str) -> list[str]:
        """A read's or a save's KEYS: the race's hash, the LRU set, its lock, then ``last``."""
        return [self.key("game", game_id), self.prefix + "lru", self.key("lock", game_id), last]

    async def open(self) -> None:
        """Upgrade an older server's races (:func:`converted_data`) once (a marker key);
        a down Redis is /readyz's to report, and the upgrade waits for the next start."""
        marker = self.prefix + "format"
        with contextlib.suppress(RedisError, OSError):
            if await self.redis.get(marker) == str(FORMAT).encode():
                return
            upgrade = self.redis.register_script(_UPGRADE)
            async for key in self.redis.scan_iter(match=self.prefix + "game:*", count=500):
                data = await cast("Awaitable[bytes | None]", self.redis.hget(key, "data"))
                new = None if data is None else converted_data(data)
                if data is not None and new is not None:  # unless a save came first
                    await upgrade(keys=[key], args=[data, new])
            await self.redis.set(marker, FORMAT)

    async def close(self) -> None:
        await super().close()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    async def ping(self) -> None:
        async with _reachable("ping"):
            await self.redis.ping()

    async def count(self) -> int:
        async with _reachable("count"):
            return int(await self.redis.zcard(self.prefix + "lru"))

    async def admit(
        self, game_id: str, owner: str, head: RecordHead, data: bytes
    ) -> tuple[str, tuple[str, ...]]:
        now = self.clock()
        player = "" if head.player is None else str(head.player)
        keys = [
            self.prefix + "lru", self.key("game", game_id), self.key("owner", owner),
            self.key("player", player),
        ]  # fmt: skip
        args: list[bytes | str | int | float] = [
            now, now - self.idle_seconds, now - self.evict_idle_seconds, self.max_games,
            *("" if cap is None else cap for cap in (self.per_player, self.per_address)),
            game_id, head.to_json(), owner, data, self.index_ttl, self.tomb_ttl, self.prefix,
            "1" if player else "", SWEPT_ON_CREATE,
        ]  # fmt: skip
        outcome, *mine = await self._admit(keys, args)
        return outcome.decode(), tuple(bytes(game_id).decode() for game_id in mine)

    async def sweep(self) -> int:
        args = [self.clock() - self.idle_seconds, self.prefix, SWEPT_AT_ONCE, self.tomb_ttl]
        return int(await self._retire([self.prefix + "lru"], args))

    @staticmethod
    def _found(reply: list[Any]) -> Found:
        head_json, data, gone, status = reply
        if head_json is None:
            digests = None if gone is None else RecordHead.from_json(gone).digests
            return Found(gone=None if digests is None else Tombstone(digests))
        head = RecordHead.from_json(head_json)
        if status != b"ok":
            return Found(head=head, busy=status == b"busy")
        return Found(head, bytes(data))

    async def read(self, game_id: str, digest: str | None, lock: Take = None) -> Found:
        now = self.clock()
        args = [now, now - self.idle_seconds, game_id, digest or "", self.tomb_ttl]
        keys = self._keys(game_id, self.key("gone", game_id))
        if lock is None:
            return self._found(await self._fetch(keys, [*args, "", 0]))
        return self._found(await self._lock(keys, [*args, lock[0], round(lock[1] * 1000)]))

    async def write(
        self, lease: Lease, head: RecordHead, data: bytes, outbox: bytes | None, notice: bytes
    ) -> bool:
        game_id = lease.game_id
        keys = self._keys(game_id, self.prefix + "outbox")
        channel = "" if self.announce is None else self.announce + game_id
        args: list[bytes | str | float] = [
            lease.token, data, head.to_json(), self.clock(), game_id, channel, outbox or b"",
            notice,
        ]  # fmt: skip
        return bool(await self._save(keys, args))

    async def wipe(self, game_id: str) -> None:
        async with _reachable("delete"), self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self.key("game", game_id), self.key("gone", game_id))
            pipe.zrem(self.prefix + "lru", game_id)
            await pipe.execute()

    async def idle_ids(self, seconds: float, limit: int = 1000) -> list[str]:
        before = self.clock() - seconds
        async with _reachable("idle"):
            ids = await self.redis.zrangebyscore(
                self.prefix + "lru", "-inf", before, start=0, num=limit
            )
            names = [i.decode() if isinstance(i, bytes) else str(i) for i in ids]
            # The set may lag behind a seat's reads (``seen``): those are not idle.
            pipe = self.redis.pipeline(transaction=False)
            for name in names:
                pipe.hget(self.key("game", name), "seen")
            seen = await pipe.execute()
        return [n for n, s in zip(names, seen, strict=True) if s is None or float(s) <= before]

    async def claim(self, name: str, value: str, ttl_seconds: float) -> str:
        ms = max(1, round(ttl_seconds * 1000))
        async with _reachable("slot"):  # Redis 7: the value held before, or None if set now
            held = await self.redis.set(self.prefix + name, value, nx=True, px=ms, get=True)
        return value if held is None else bytes(held).decode()

    async def held(self, name: str) -> str | None:
        async with _reachable("slot"):
            held = await self.redis.get(self.prefix + name)
        return None if held is None else held.decode()

    async def renew(self, name: str, value: str, ttl_seconds: float) -> bool:
        return bool(await self._renew([self.prefix + name], [value, round(ttl_seconds * 1000)]))

    async def release(self, name: str, value: str) -> None:
        await self._release([self.prefix + name], [value, ""])

    async def wait(self, name: str, seconds: float) -> None:
        """Sleep a moment: a claim may be emptied by any worker, which tells nobody."""
        await asyncio.sleep(min(seconds, LOCK_POLL_SECONDS))

    async def outbox(self) -> dict[str, bytes]:
        async with _reachable("outbox"):
            found = await cast(
                "Awaitable[dict[bytes, bytes]]", self.redis.hgetall(self.prefix + "outbox")
            )
        return {key.decode(): bytes(value) for key, value in found.items()}

    async def clear_outbox(self, game_id: str) -> None:
        async with _reachable("outbox"):
            await cast("Awaitable[int]", self.redis.hdel(self.prefix + "outbox", game_id))

    @classmethod
    def connect(
        cls, url: str, loader: Callable[[dict[str, Any]], R], timeout: float, **bounds: Any
    ) -> RedisStore[R]:
        """A store on the Redis at ``url``: commands fail fast (one try, ``timeout`` s) so
        a Redis outage answers 503 quickly; the pool reconnects once Redis is back."""
        redis = Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0)
        )
        return cls(redis, loader, **bounds)


@contextlib.asynccontextmanager
async def _reachable(operation: str) -> AsyncIterator[None]:
    """Redis's failures as :class:`StoreUnavailable`, counted by ``operation``."""
    try:
        yield
    except (RedisError, OSError) as exc:
        STORE_ERRORS.labels(operation=operation).inc()
        raise StoreUnavailable(type(exc).__name__) from exc
