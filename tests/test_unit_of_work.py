"""One unit of work per request: every request reads its race from the store once, saves
it at most once, and a read takes no lock and saves nothing. Counted on both stores by
wrapping the app's real store, through the API and the web table alike."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from app_kit import HX, bearer, create, form_fields, make_settings, start
from fastapi.testclient import TestClient
from store_kit import STORE_KINDS, RedisServer, StoreKind, make_store

from app.main import create_app
from app.races.operations import SessionStore
from app.races.record import DERIVED, GameSession
from app.storage.interface import Fetched, Lease


class CountingStore:
    """A store that counts what each request asks of the real one beneath it; once
    :attr:`fenced`, its saves carry a lease that is no longer the race's, which the real
    store refuses (as after a lost lock)."""

    def __init__(self, inner: SessionStore) -> None:
        self.inner = inner
        self.calls: Counter[str] = Counter()
        self.fenced = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def create(self, record: GameSession, owner: str) -> None:
        self.calls["create"] += 1
        await self.inner.create(record, owner)

    async def fetch(self, game_id: str, digest: str | None = None) -> Fetched[GameSession]:
        self.calls["fetch"] += 1
        return await self.inner.fetch(game_id, digest)

    @contextlib.asynccontextmanager
    async def lock(
        self, game_id: str, digest: str | None = None
    ) -> AsyncIterator[Fetched[GameSession]]:
        self.calls["lock"] += 1
        async with self.inner.lock(game_id, digest) as found:
            yield found

    async def save(
        self,
        record: GameSession,
        lease: Lease,
        outbox: bytes | None = None,
        notice: bytes | None = None,
    ) -> None:
        self.calls["save"] += 1
        if self.fenced:
            lease = Lease(lease.game_id, "a lease another request took over")
        await self.inner.save(record, lease, outbox, notice)

    def during(self, send: Callable[..., Any], url: str, **options: Any) -> Counter[str]:
        """What the request ``send(url, **options)`` asked of the store."""
        self.calls.clear()
        answer = send(url, **options)
        assert answer.status_code < 500, answer.text
        return Counter(self.calls)


@pytest.fixture(params=STORE_KINDS)
def counted(request: pytest.FixtureRequest) -> Any:
    kind: StoreKind = request.param
    redis: RedisServer | None = request.getfixturevalue("fresh_redis") if kind == "redis" else None
    settings = make_settings(redis_url=redis.url if redis else None)
    store = CountingStore(make_store(kind, redis))
    with TestClient(create_app(settings, store=store), follow_redirects=False) as client:  # type: ignore[arg-type]
        yield client, store


def loads(calls: Counter[str]) -> int:
    return calls["fetch"] + calls["lock"]


def test_each_api_request_reads_its_race_once_and_saves_at_most_once(counted: Any) -> None:
    client, store = counted
    game_id, token, state = create(client, players=4, seed=3, bots="normal")
    auth = bearer(token)
    url = f"/api/games/{game_id}"
    first = {"turn": state["turn"], "action": state["legal_actions"][0]}
    rng = random.Random(4)
    for _ in range(12):
        if state["game_over"]:
            break
        body = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
        calls = store.during(client.post, f"{url}/actions", json=body, headers=auth)
        assert (calls["lock"], calls["fetch"], calls["save"]) == (1, 0, 1)
        state = client.get(url, headers=auth).json()
        # Nothing happened since: a read, no lock, nothing saved.
        calls = store.during(client.get, url, headers=auth)
        assert (calls["fetch"], calls["lock"], calls["save"]) == (1, 0, 0)
    calls = store.during(client.get, f"{url}/record", headers=auth)
    assert (loads(calls), calls["save"]) == (1, 0)
    calls = store.during(client.post, f"{url}/actions", json=first, headers=auth)
    assert (loads(calls), calls["save"]) == (1, 0)  # a stale turn: refused, nothing kept


def test_each_table_request_reads_its_race_once_and_saves_at_most_once(counted: Any) -> None:
    client, store = counted
    game_id = start(client, seed=8)
    url = f"/games/{game_id}"
    rng = random.Random(5)
    for headers in ({}, HX) * 3:
        session = _stored(client, store.inner, game_id)
        if session.game.is_over:
            break
        calls = store.during(client.get, url, headers=headers)
        assert (calls["fetch"], calls["lock"], calls["save"]) == (1, 0, 0)
        action = rng.choice(session.game.observation(0)["legal_actions"])
        fields = form_fields(action, session.turn)
        for intent in ("suggest", "preview"):
            data = {**fields, "intent": intent}
            calls = store.during(client.post, f"{url}/move", data=data, headers=headers)
            assert (calls["fetch"], calls["lock"], calls["save"]) == (1, 0, 0), intent
        calls = store.during(client.post, f"{url}/move", data=fields, headers=headers)
        assert (calls["lock"], calls["fetch"], calls["save"]) == (1, 0, 1)
    for path in ("log", "replay"):
        calls = store.during(client.get, f"{url}/{path}")
        assert (loads(calls), calls["save"]) == (1, 0)


def _stored(client: TestClient, store: SessionStore, game_id: str) -> GameSession:
    portal = client.portal
    assert portal is not None

    async def fetch() -> GameSession | None:
        return (await store.fetch(game_id)).record

    session = portal.call(fetch)
    assert session is not None
    return session


def test_a_failed_save_keeps_no_derived_copy_of_the_unsaved_moves() -> None:
    store = CountingStore(make_store("memory", None))
    with TestClient(create_app(make_settings(), store=store), follow_redirects=False) as client:  # type: ignore[arg-type]
        game_id, token, state = create(client, players=3, seed=5, bots="easy")
        stored = _stored(client, store.inner, game_id).moves
        store.fenced = True
        body = {"turn": state["turn"], "action": state["legal_actions"][0]}
        answer = client.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(token))
        assert answer.status_code >= 400 and answer.json()["code"] == "move_not_kept"
        assert _stored(client, store.inner, game_id).moves == stored
        assert DERIVED.moves(game_id) in (None, stored)
        store.fenced = False
        answer = client.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(token))
        assert answer.status_code == 200, answer.text
        kept = _stored(client, store.inner, game_id).moves
        assert len(kept) > len(stored) and DERIVED.moves(game_id) == kept
