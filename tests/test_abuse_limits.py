"""Abuse limits: the caps on live races (per player, and a higher ceiling per address), the
idle clock that only the race's owner moves, no expiry or eviction during a move, and the
worker count that needs a shared store. The request-header timeout has its own module,
tests/test_header_timeout.py."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from app_kit import another_browser, asgi_client, await_until, bearer, create
from bot_kit import HeldSearch
from fastapi.testclient import TestClient
from store_kit import ManualClock, RedisServer, StoreProbe

from app.bots import runner as bot_runner
from app.http.players import PLAYER_HEADER
from engine import Action

Launch = Callable[..., Any]


def api_race(client: TestClient, player_token: str | None = None) -> httpx.Response:
    """POST /api/games as the API player ``player_token`` (none: a new player)."""
    headers = {PLAYER_HEADER: player_token} if player_token else {}
    return client.post("/api/games", json={"bots": "random"}, headers=headers)


def web_race(browser: TestClient) -> httpx.Response:
    """The start page's "Race" button, in ``browser`` (its own cookies)."""
    return browser.post("/games", data={"players": "3", "bots": "random"})


def table_links(page: str) -> list[str]:
    """The resume links of a refusal page, in order."""
    return re.findall(r'<a class="btn btn-quiet" href="(/games/[^"]+)">Resume race', page)


def test_one_player_cannot_hold_more_than_its_cap_of_live_races(
    app_with: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    decisions = []
    real = bot_runner.choose_bot_action

    def counting(*args: Any, **kwargs: Any) -> Action:
        decisions.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(bot_runner, "choose_bot_action", counting)
    app = app_with(max_games_per_client=2, max_games_per_address=10)
    with TestClient(app, follow_redirects=False) as client:
        first = api_race(client).json()
        me = first["player_token"]
        second = api_race(client, me).json()
        held = StoreProbe(app.state.store, client).run(app.state.store.count)
        thought = len(decisions)
        refused = api_race(client, me)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
        body = refused.json()
        assert body["code"] == "too_many_games" and "2 races running" in body["message"]
        assert (body["limit"], body["cap"]) == ("player", 2)
        assert body["races"] == [
            {"game_id": race["game_id"], "url": f"/api/games/{race['game_id']}"}
            for race in (first, second)
        ]
        for link, race in zip(body["races"], (first, second), strict=True):
            assert client.get(link["url"], headers=bearer(race["token"])).status_code == 200
        assert len(decisions) == thought  # a refused creation runs no bot
        assert StoreProbe(app.state.store, client).run(app.state.store.count) == held
        assert api_race(client).status_code == 201  # another player behind the address

        browser = another_browser(client)
        started = [web_race(browser).headers["location"] for _ in range(2)]
        page = web_race(browser)
        assert page.status_code == 429 and "2 races running" in page.text
        assert table_links(page.text) == started  # the browser's own, oldest first
        for link in started:  # each link opens the browser's own seat, ready to play
            table = browser.get(link)
            assert table.status_code == 200 and f'action="{link}/move"' in table.text
        assert another_browser(client).post("/games", data={"players": "3"}).status_code == 303


def test_a_finished_race_frees_its_players_slot_at_once(app_with: Any) -> None:
    app = app_with(max_games_per_client=1, max_games_per_address=10)
    with TestClient(app, follow_redirects=False) as client:
        first = api_race(client).json()
        me = first["player_token"]
        assert api_race(client, me).status_code == 429
        with StoreProbe(app.state.store, client).edit(first["game_id"]) as race:
            while not race.game.is_over:  # the race's last card, as a move would play it
                race.game.apply(race.game.legal_actions()[0])
        again = api_race(client, me)  # no time passed: only the race's end freed the slot
        assert again.status_code == 201, again.text
        assert api_race(client, me).json()["races"] == [
            {"game_id": again.json()["game_id"], "url": f"/api/games/{again.json()['game_id']}"}
        ]


def leave_forms(page: str) -> list[str]:
    """The Leave forms' targets of a refusal page, in order."""
    return re.findall(r'<form method="post" action="(/games/[^"]+)/leave">', page)


def test_a_refused_browser_can_leave_one_of_its_races_and_start_again(app_with: Any) -> None:
    app = app_with(max_games_per_client=2, max_games_per_address=10)
    with TestClient(app, follow_redirects=False) as client:
        browser = another_browser(client)
        started = [web_race(browser).headers["location"] for _ in range(2)]
        page = web_race(browser)
        assert page.status_code == 429 and leave_forms(page.text) == started
        left = browser.post(f"{started[0]}/leave")
        assert left.status_code == 303 and left.headers["location"] == started[0]
        again = web_race(browser)  # the left race's slot is free at once
        assert again.status_code == 303, again.text
        refused = web_race(browser)
        assert table_links(refused.text) == [started[1], again.headers["location"]]
        # Leaving again, or without the seat's cookie, changes nothing.
        assert browser.post(f"{started[0]}/leave").status_code == 303
        assert another_browser(client).post(f"{started[1]}/leave").status_code == 404
        assert table_links(web_race(browser).text) == [started[1], again.headers["location"]]


def test_the_api_leaves_a_race_against_bots_but_not_one_with_people(app_with: Any) -> None:
    with TestClient(app_with(), follow_redirects=False) as client:
        race = api_race(client).json()
        left = client.post(f"/api/games/{race['game_id']}/leave", headers=bearer(race["token"]))
        assert left.status_code == 200 and left.json()["status"] == "over"
        friends = client.post("/api/games", json={"humans": 2}).json()
        before = client.get(f"/api/games/{friends['game_id']}", headers=bearer(friends["token"]))
        refused = client.post(
            f"/api/games/{friends['game_id']}/leave", headers=bearer(friends["token"])
        )
        assert refused.status_code == 409 and refused.json()["code"] == "leave_with_people"
        after = client.get(f"/api/games/{friends['game_id']}", headers=bearer(friends["token"]))
        assert after.json() == before.json()


def test_the_players_behind_one_address_share_a_higher_ceiling(app_with: Any) -> None:
    app = app_with(max_games_per_client=2, max_games_per_address=5)
    with TestClient(app, follow_redirects=False) as client:
        players = [api_race(client).json()["player_token"] for _ in range(3)]  # 3 races
        assert api_race(client, players[0]).status_code == 201
        assert api_race(client, players[1]).status_code == 201  # 5: the address's ceiling
        capped = api_race(client, players[0]).json()  # the player's own cap comes first
        assert (capped["limit"], len(capped["races"])) == ("player", 2)
        full = api_race(client, players[2])
        body = full.json()
        assert full.status_code == 429 and (body["limit"], body["cap"]) == ("address", 5)
        assert "5 races are already running from your network" in body["message"]
        assert len(body["races"]) == 1  # only this player's own race, none of the others'
        page = web_race(another_browser(client))
        assert page.status_code == 429 and "from your network" in page.text
        assert table_links(page.text) == []  # a new browser has no race of its own here


def test_only_the_right_token_moves_the_idle_clock(app_with: Any, clock: ManualClock) -> None:
    with TestClient(app_with(idle_expiry_seconds=60), follow_redirects=False) as client:
        kept_id, kept_token, _ = create(client)
        probed_id, probed_token, _ = create(client)
        clock.now += 50
        assert client.get(f"/api/games/{kept_id}", headers=bearer(kept_token)).status_code == 200
        for _ in range(3):  # strangers poking at the race with wrong credentials
            wrong = client.get(f"/api/games/{probed_id}", headers=bearer("x" * 43))
            assert wrong.status_code == 404
            cookie = {"Cookie": f"zzv_{probed_id}={'y' * 43}"}
            assert client.get(f"/games/{probed_id}", headers=cookie).status_code == 404
        clock.now += 20  # 70 s since creation, 20 s since the owner's last read
        gone = client.get(f"/api/games/{probed_id}", headers=bearer(probed_token))
        assert gone.status_code == 410
        assert client.get(f"/api/games/{kept_id}", headers=bearer(kept_token)).status_code == 200


def test_a_race_is_not_expired_or_evicted_while_its_move_runs(
    app_with: Any, clock: ManualClock
) -> None:
    search = HeldSearch()
    app = app_with(idle_expiry_seconds=60, max_games=1, evict_min_idle_seconds=0)
    search.install(app)

    async def main() -> None:
        async with asgi_client(app) as client:
            created = (await client.post("/api/games", json={"players": 3, "bots": "hard"})).json()
            auth = bearer(created["token"])
            legal = created["state"]["legal_actions"]
            action = next(a for a in legal if a["type"] == "tune_up")  # a bot must reply
            search.release.clear()
            url = f"/api/games/{created['game_id']}/actions"
            move = asyncio.create_task(
                client.post(url, json={"turn": 0, "action": action}, headers=auth)
            )

            def searching() -> bool:
                assert not move.done(), move.result().text
                return search.running > 0

            await await_until(searching, "a bot searching")
            clock.now += 600  # far past the idle expiry, mid-move
            assert await app.state.store.sweep() == 0
            full = await client.post("/api/games", json={"players": 3})
            assert full.status_code == 503  # the only slot is busy: no eviction
            search.release.set()
            moved = await move
            assert moved.status_code == 200 and moved.json()["turn"] == 1
            again = await client.get(f"/api/games/{created['game_id']}", headers=auth)
            assert again.status_code == 200

    asyncio.run(main())


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m app.cli ...`` with a bounded run time."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_several_workers_without_redis_are_refused_with_a_sentence() -> None:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("ZZV_")}
    for args, extra in ((["--workers", "3"], {}), ([], {"ZZV_WORKERS": "2"})):
        result = run_cli("serve", "--port", "1", *args, env={**env, **extra})
        assert result.returncode == 2
        assert "need a shared game store: set ZZV_REDIS_URL" in result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_several_workers_serve_every_race_with_redis(
    fresh_redis: RedisServer, launch_server: Launch, free_port: int
) -> None:
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(free_port)]
    env = {"ZZV_WORKERS": "2", "ZZV_REDIS_URL": fresh_redis.url, "ZZV_RATE_LIMIT_ENABLED": "0"}
    server = launch_server(command, port=free_port, env=env)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        body = client.post("/api/games", json={"players": 3, "bots": "random"}).json()
        auth = bearer(body["token"])
        state = body["state"]
        for _ in range(4):  # each request may land on either worker
            if state["game_over"]:
                break
            payload = {"turn": state["turn"], "action": state["legal_actions"][0]}
            response = client.post(
                f"/api/games/{body['game_id']}/actions", json=payload, headers=auth
            )
            assert response.status_code == 200, response.text
            state = response.json()
    assert "Started parent process" in server.log()  # uvicorn's supervisor of 2 workers
