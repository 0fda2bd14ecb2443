"""The race's lock is a fenced lease (issue: a move that outlives its lease must be refused,
never applied twice or written over a newer state), on a real redis-server.

* a save whose lease ran out, and was taken by someone else, is refused and writes nothing;
* a holder that works longer than its lease keeps it (renewal), so a second worker waits;
* through the app: a move whose lease was lost before its save answers 503 and the race is
  as it was, never a 200 for a move the race does not hold;
* a lock that could not be given back while Redis was down is given back once Redis is
  back, so the next move does not wait out the lease.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from app_kit import await_until, bare_session, bearer, create, make_settings
from fastapi.testclient import TestClient
from redis.asyncio import Redis
from store_kit import RedisServer, start_redis

from app.main import create_app
from app.races.lobby import token_digest
from app.races.record import GameSession
from app.storage.interface import LeaseLost, StoreUnavailable
from app.storage.redis_store import RedisStore
from engine import new_game


def _store(redis: RedisServer, lease: float) -> RedisStore[GameSession]:
    return RedisStore.connect(
        redis.url,
        GameSession.from_dict,
        1.0,
        max_games=10,
        idle_expiry_seconds=600,
        lock_timeout_seconds=lease,
    )


async def _lapsed(store: RedisStore[GameSession], game_id: str) -> bool:
    """Whether the race's lock has lapsed: its lease ran out and Redis dropped its key."""
    return not await store.redis.exists(store.key("lock", game_id))


def _race(game_id: str) -> GameSession:
    return bare_session(new_game(players=3, seed=1), game_id, f"token-{game_id}")


def test_a_save_after_the_lease_ran_out_and_was_taken_is_refused(
    fresh_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        store = _store(fresh_redis, lease=0.3)

        async def stalled(self: Any, lease: Any) -> None:  # a holder too slow to renew
            """Never renews: the renewal's timer fires and does nothing."""

        monkeypatch.setattr(RedisStore, "_renewed", stalled)
        await store.create(_race("a"), "client")
        async with store.lock("a") as mine:
            assert mine.record is not None and mine.lease is not None
            await await_until(lambda: _lapsed(store, "a"), "the lease running out", timeout=5)
            async with store.lock("a") as theirs:  # another worker takes the race
                assert theirs.record is not None and theirs.lease is not None
                theirs.record.turn = 7
                await store.save(theirs.record, theirs.lease)
            mine.record.turn = 1
            with pytest.raises(LeaseLost):
                await store.save(mine.record, mine.lease)
        stored = (await store.fetch("a")).record
        assert stored is not None and stored.turn == 7  # the newer state stands
        await store.close()

    asyncio.run(scenario())


def test_a_holder_working_past_its_lease_keeps_it(fresh_redis: RedisServer) -> None:
    async def scenario() -> None:
        store, other = _store(fresh_redis, lease=0.3), _store(fresh_redis, lease=0.3)
        await store.create(_race("a"), "client")
        async with store.lock("a") as mine:
            assert mine.lease is not None and mine.record is not None
            waiting = asyncio.create_task(_lock_and_note(other, "a"))
            await asyncio.sleep(0.9)  # working three leases long is what is tested
            # The other worker waited a whole lease and gave up (503): it never got in.
            assert waiting.done()
            with pytest.raises(StoreUnavailable):
                await waiting
            mine.record.turn = 1
            await store.save(mine.record, mine.lease)  # the lease still holds
        stored = (await store.fetch("a")).record
        assert stored is not None and stored.turn == 1
        await store.close()
        await other.close()

    asyncio.run(scenario())


async def _lock_and_note(store: RedisStore[GameSession], game_id: str) -> None:
    async with store.lock(game_id) as found:
        assert found.lease is not None


def test_a_move_whose_lease_was_lost_answers_503_and_changes_nothing(
    fresh_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = make_settings(redis_url=fresh_redis.url)
    app = create_app(settings)
    real_run_bots = app.state.runner.run_bots
    steal: dict[str, str] = {}

    async def slow_then_stolen(table: Any) -> None:
        await real_run_bots(table)
        if steal:  # meanwhile another worker's request took the race over
            redis = Redis.from_url(fresh_redis.url)
            await redis.set(f"zzv:lock:{steal['id']}", "someone-else")
            await redis.aclose()

    monkeypatch.setattr(app.state.runner, "run_bots", slow_then_stolen)
    with TestClient(app) as client:
        game_id, token, state = create(client, players=3, seed=2, bots="random")
        steal["id"] = game_id
        body = {"turn": state["turn"], "action": state["legal_actions"][0]}
        answer = client.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(token))
        assert answer.status_code == 503
        assert answer.json()["code"] == "move_not_kept"
        assert answer.headers["Retry-After"] == "1"
        redis_state = client.portal
        assert redis_state is not None
        store = app.state.store
        stored = redis_state.call(store.fetch, game_id, token_digest(token)).record
        assert stored is not None and stored.turn == state["turn"]  # the move is not there


def test_a_lock_left_by_an_outage_is_given_back_when_redis_returns(tmp_path: Path) -> None:
    """The holder could not release while Redis was down; Redis restarts from its
    append-only file with the lock in it; the next lock is taken within 2 s, not after the
    30 s lease."""
    redis = start_redis(tmp_path)

    async def scenario() -> float:
        store = _store(redis, lease=30.0)
        await store.create(_race("a"), "client")
        async with store.lock("a") as found:
            assert found.lease is not None
            await asyncio.to_thread(redis.stop)
        await asyncio.to_thread(redis.start)
        started = time.monotonic()
        async with store.lock("a") as again:
            assert again.lease is not None
        waited = time.monotonic() - started
        await store.close()
        return waited

    try:
        assert asyncio.run(scenario()) < 2.0
    finally:
        redis.stop()


def test_a_lease_too_short_to_outlast_a_failed_renewal_is_refused_at_start() -> None:
    from pydantic import ValidationError

    from app.settings import Settings

    with pytest.raises(ValidationError, match="three times ZZV_REDIS_TIMEOUT_SECONDS"):
        Settings(lock_timeout_seconds=5, redis_timeout_seconds=2)
    assert Settings(lock_timeout_seconds=6, redis_timeout_seconds=2).lock_timeout_seconds == 6
