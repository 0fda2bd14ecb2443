"""A quick message travels to the event streams with its notice: a stream following a race
passes it on without reading the race again (table talk costs the store nothing per
listener), while a move still makes every stream read its own seat's view. Counted on
both stores by wrapping the app's real store, the stream driven in the app's own loop."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from app_kit import bearer, make_settings
from fastapi import FastAPI
from store_kit import STORE_KINDS, RedisServer, StoreKind, make_store
from test_unit_of_work import CountingStore, loads

from app.live.streams import follow
from app.main import create_app
from app.races.operations import SessionState


@contextlib.asynccontextmanager
async def _serving(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """``app`` started (its lifespan) in this loop, and a client calling it in process."""
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://testserver") as http,
    ):
        yield http


async def _race_of_two(http: httpx.AsyncClient) -> tuple[str, dict[int, str]]:
    """A started race of two people and a bot: its id and each person's token by seat."""
    created = await http.post(
        "/api/games", json={"players": 3, "humans": 2, "bots": "random", "seed": 5}
    )
    assert created.status_code == 201, created.text
    game_id, host = created.json()["game_id"], created.json()["token"]
    code = created.json()["invites"][0]["code"]
    joined = await http.post(f"/api/games/{game_id}/join", json={"code": code})
    assert joined.status_code == 201, joined.text
    return game_id, {0: host, 1: joined.json()["token"]}


async def _next_state(stream: AsyncIterator[dict[str, Any]]) -> SessionState:
    message = await asyncio.wait_for(anext(stream), 5.0)
    state: SessionState = message["data"]
    return state


@pytest.mark.parametrize("kind", STORE_KINDS)
def test_a_stream_passes_a_message_on_without_reading_the_race(
    kind: StoreKind, request: pytest.FixtureRequest
) -> None:
    redis: RedisServer | None = request.getfixturevalue("fresh_redis") if kind == "redis" else None
    store = CountingStore(make_store(kind, redis))
    app = create_app(make_settings(redis_url=redis.url if redis else None), store=store)  # type: ignore[arg-type]

    async def scenario() -> None:
        async with _serving(app) as http:
            game_id, tokens = await _race_of_two(http)
            host, guest = tokens[0], tokens[1]

            races, hub = app.state.races, app.state.hub
            stream = follow(races, hub, game_id, guest, lambda s: {"data": s})
            first = await _next_state(stream)
            assert first["said"] == []

            store.calls.clear()
            said = await http.post(
                f"/api/games/{game_id}/say", json={"code": "hello"}, headers=bearer(host)
            )
            assert said.status_code == 200, said.text
            saying = loads(store.calls)  # the say request's own read
            heard = await _next_state(stream)
            assert [(m["seat"], m["code"]) for m in heard["said"]] == [(0, "hello")]
            assert heard["events"] == [] and heard["event_count"] == first["event_count"]
            assert loads(store.calls) == saying, "the stream read the race for a message"

            # Anything else still makes the stream read its own view afresh.
            board = (await http.get(f"/api/games/{game_id}", headers=bearer(host))).json()
            mover = tokens[board["current_seat"]]
            state = (await http.get(f"/api/games/{game_id}", headers=bearer(mover))).json()
            store.calls.clear()
            played = await http.post(
                f"/api/games/{game_id}/actions",
                json={"turn": state["turn"], "action": state["legal_actions"][0]},
                headers=bearer(mover),
            )
            assert played.status_code == 200, played.text
            moved = await _next_state(stream)
            assert moved["event_count"] > first["event_count"]
            assert loads(store.calls) >= 2, "the stream did not read the race after a move"
            await stream.aclose()  # type: ignore[attr-defined]

    asyncio.run(scenario())


def test_a_redis_store_announces_a_message_alone_with_its_words(
    fresh_redis: RedisServer,
) -> None:
    """With Redis the save's own script announces the change: a quick message alone goes
    out as its words (so streams on every worker pass it on without reading the race), a
    move as a plain change."""
    app = create_app(make_settings(redis_url=fresh_redis.url))

    async def scenario() -> None:
        async with _serving(app) as http:
            game_id, tokens = await _race_of_two(http)
            async with app.state.hub.listen(game_id) as listener:
                # The join's own notice may still be on its way through Redis: let it land.
                while not (await listener.wait(0.3)).timed_out:
                    pass
                said = await http.post(
                    f"/api/games/{game_id}/say", json={"code": "hello"}, headers=bearer(tokens[0])
                )
                assert said.status_code == 200, said.text
                news = await listener.wait(5.0)
                assert news.only_said, news
                assert [(m["seat"], m["code"]) for m in news.said] == [(0, "hello")]

                board = (await http.get(f"/api/games/{game_id}", headers=bearer(tokens[0]))).json()
                mover = tokens[board["current_seat"]]
                state = (await http.get(f"/api/games/{game_id}", headers=bearer(mover))).json()
                played = await http.post(
                    f"/api/games/{game_id}/actions",
                    json={"turn": state["turn"], "action": state["legal_actions"][0]},
                    headers=bearer(mover),
                )
                assert played.status_code == 200, played.text
                news = await listener.wait(5.0)
                assert news.changed and not news.only_said, news

    asyncio.run(scenario())
