"""Double clicks and racing requests: of many submissions for one turn exactly one applies."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from app_kit import asgi_client, make_settings

from app.main import create_app

CONCURRENT = 50


async def _race(client: httpx.AsyncClient, same_action: bool) -> tuple[list[httpx.Response], Any]:
    created = await client.post("/api/games", json={"players": 4, "bots": "normal", "seed": 77})
    assert created.status_code == 201
    body = created.json()
    game_id, token, state = body["game_id"], body["token"], body["state"]
    auth = {"Authorization": f"Bearer {token}"}
    legal = state["legal_actions"]
    payloads = [
        {"turn": 0, "action": legal[0] if same_action else legal[i % len(legal)]}
        for i in range(CONCURRENT)
    ]
    responses = await asyncio.gather(
        *(client.post(f"/api/games/{game_id}/actions", json=p, headers=auth) for p in payloads)
    )
    after = (await client.get(f"/api/games/{game_id}", params={"since": 0}, headers=auth)).json()
    return list(responses), (state, after)


def _check(responses: list[httpx.Response], states: Any) -> None:
    created, after = states
    codes = sorted(r.status_code for r in responses)
    assert codes.count(200) == 1, codes
    assert codes.count(409) == CONCURRENT - 1, codes
    winner = next(r.json() for r in responses if r.status_code == 200)
    assert winner["turn"] == 1
    for response in responses:
        if response.status_code == 409:
            body = response.json()
            assert body["code"] == "stale_turn"
            assert body["state"]["turn"] == 1
            assert body["state"]["hand"] == winner["hand"]
    # the game is consistent: one human move, the log matches what was sent
    assert after["turn"] == 1
    assert len(after["hand"]) == len(created["hand"]) - 1
    assert after["events"] == created["events"] + winner["events"]
    human_moves = [
        e
        for e in after["events"]
        if e["seat"] == 0 and e["kind"] in ("card_played", "tuned_up", "zero_five_played")
    ]
    assert len(human_moves) == 1


def _race_in_process(same_action: bool) -> None:
    """Run :func:`_race` against a fresh app over ASGI (no server) and check the outcome."""
    app = create_app(make_settings())

    async def main() -> None:
        async with asgi_client(app) as client:
            responses, states = await _race(client, same_action=same_action)
        _check(responses, states)

    asyncio.run(main())


def test_identical_concurrent_posts_apply_once_in_process() -> None:
    _race_in_process(same_action=True)


def test_different_concurrent_moves_apply_once_in_process() -> None:
    _race_in_process(same_action=False)


def test_identical_concurrent_posts_apply_once_on_a_real_server(live_server: str) -> None:
    async def main() -> None:
        limits = httpx.Limits(max_connections=CONCURRENT + 5)
        async with httpx.AsyncClient(base_url=live_server, limits=limits, timeout=30) as client:
            responses, states = await _race(client, same_action=True)
        _check(responses, states)

    asyncio.run(main())
