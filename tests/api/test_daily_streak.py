"""The daily streak (docs/daily.md, "Your streak") through the API and the pages, with
the results on SQLite (a file) and on a real PostgreSQL. In process on the injected wall
clock: days with a finished counted daily count, a whole day missed breaks the streak, the
best one is kept, and both survive a restart (a new app on the same database); a counted
daily left, or made practice by a take-back, keeps no streak going. On a real server (its
clock the real one, the days before today written to its database): the streak survives
the server's restart."""

from __future__ import annotations

import asyncio
import html
import random
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import WallClock, bearer, hand_clock, make_settings, move, play_out
from daily_kit import finished_days, wait_for_streak
from fastapi.testclient import TestClient

from app.http.i18n import pseudo
from app.main import create_app
from bench.server import find_free_port

DAY = 86_400.0
NOON = 20_000 * DAY + DAY / 2  # 2024-10-04 12:00 UTC
TRICK_ENDS = {"trick_won", "trick_all_tuned_up"}


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> WallClock:
    return hand_clock(monkeypatch, NOON)


@pytest.fixture
def restart(results_database: str) -> Iterator[Any]:
    """Starts the app on the results database, stopping the one before (a restart: the
    browser keeps its cookies)."""
    running: list[TestClient] = []

    def start() -> TestClient:
        app = create_app(make_settings(database_url=results_database))
        client = TestClient(app, follow_redirects=False)
        if running:
            before = running.pop()
            client.cookies = before.cookies
            before.__exit__(None, None, None)
        running.append(client.__enter__())
        return client

    yield start
    for client in running:
        client.__exit__(None, None, None)


def daily(client: TestClient, player_token: str | None = None) -> dict[str, Any]:
    headers = {"X-Player-Token": player_token} if player_token else {}
    response = client.post("/api/daily", json={}, headers=headers)
    assert response.status_code == 201, response.text
    out: dict[str, Any] = response.json()
    return out


def play(client: TestClient, race: dict[str, Any], until: Any, seed: int) -> dict[str, Any]:
    """Random legal moves until ``until(state, events so far)``; the state."""
    rng, state = random.Random(seed), race["state"]
    seen = list(state["events"])
    for _ in range(500):
        if until(state, seen):
            return state
        action = rng.choice(state["legal_actions"])
        response = move(client, race["game_id"], race["token"], state["turn"], action)
        assert response.status_code == 200, response.text
        state = response.json()
        seen += state["events"]
    raise AssertionError("the race did not get there")


def finish(client: TestClient, race: dict[str, Any], seed: int) -> None:
    play_out(client, race["game_id"], race["token"], race["state"], random.Random(seed))


def streak(client: TestClient, token: str) -> dict[str, Any]:
    me = client.get("/api/me", headers={"X-Player-Token": token})
    assert me.status_code == 200, me.text
    out: dict[str, Any] = me.json()["daily_streak"]
    return out


def words(page: str, element: str) -> str | None:
    found = re.search(rf'id="{element}">([^<]*)<', page)
    return html.unescape(found.group(1)) if found else None


def test_a_streak_counts_finished_days_breaks_after_a_missed_day_and_survives_a_restart(
    wall: WallClock, restart: Any
) -> None:
    client = restart()
    first = daily(client)
    token = first["player_token"]
    assert streak(client, token) == {"current": 0, "best": 0, "today": False}  # still running
    finish(client, first, 1)
    assert streak(client, token) == {"current": 1, "best": 1, "today": True}

    wall.now += DAY  # day 2: yesterday's streak stands until today ends
    assert streak(client, token) == {"current": 1, "best": 1, "today": False}
    finish(client, daily(client, token), 2)
    finish(client, daily(client, token), 3)  # practice: the same day counts once
    assert streak(client, token) == {"current": 2, "best": 2, "today": True}

    client = restart()
    assert streak(client, token) == {"current": 2, "best": 2, "today": True}

    wall.now += DAY  # day 3: the counted race is left after its first trick
    left = daily(client, token)
    play(client, left, lambda _, seen: any(e["kind"] in TRICK_ENDS for e in seen), 4)
    gone = client.post(f"/api/games/{left['game_id']}/leave", headers=bearer(left["token"]))
    assert gone.status_code == 200 and gone.json()["status"] == "over"
    history = client.get("/api/me", headers={"X-Player-Token": token}).json()["history"]
    assert history[0]["status"] == "left"
    assert streak(client, token) == {"current": 2, "best": 2, "today": False}

    wall.now += DAY  # day 4: day 3 had no finished daily, so the streak broke
    assert streak(client, token) == {"current": 0, "best": 2, "today": False}
    finish(client, daily(client, token), 5)
    assert streak(client, token) == {"current": 1, "best": 2, "today": True}

    wall.now += DAY  # day 5: a take-back makes the counted race practice
    counted = daily(client, token)
    state = counted["state"]
    move(client, counted["game_id"], counted["token"], state["turn"], state["legal_actions"][0])
    back = client.post(
        f"/api/games/{counted['game_id']}/takeback", headers=bearer(counted["token"])
    )
    assert back.status_code == 200 and back.json()["practice"] is True
    finish(client, {**counted, "state": back.json()}, 6)
    assert streak(client, token) == {"current": 1, "best": 2, "today": False}

    client = restart()
    assert streak(client, token) == {"current": 1, "best": 2, "today": False}


def test_the_pages_tell_the_streak_and_the_best_one(wall: WallClock, restart: Any) -> None:
    client = restart()
    assert words(client.get("/daily").text, "daily-streak") is None  # someone new
    page = client.get("/me").text
    assert "No daily streak yet" in page and "me-streak-now" not in page
    # The name form is folded, and open when it refused a name (the reason on top).
    assert '<details id="name-details">' in page
    refused = client.post("/me", data={"name": "y" * 30})
    assert refused.status_code == 422 and '<details id="name-details" open>' in refused.text
    assert refused.text.index('role="alert"') < refused.text.index('id="history-title"')

    first = client.post("/daily").headers["location"].rsplit("/", 1)[1]
    token = client.cookies[f"zzv_{first}"]
    state = client.get(f"/api/games/{first}", headers=bearer(token)).json()
    finish(client, {"game_id": first, "token": token, "state": state}, 1)
    assert words(client.get("/daily").text, "daily-streak") is None  # one day is no streak yet

    def race_today(seed: int) -> None:
        game_id = client.post("/daily").headers["location"].rsplit("/", 1)[1]
        token = client.cookies[f"zzv_{game_id}"]
        state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
        finish(client, {"game_id": game_id, "token": token, "state": state}, seed)

    wall.now += DAY
    keep = "Your streak: 1 day in a row, up to yesterday. Finish today's race to keep it."
    assert words(client.get("/daily").text, "daily-streak") == keep
    assert words(client.get("/me").text, "me-streak-now") == keep
    race_today(2)
    assert words(client.get("/daily").text, "daily-streak") == "Your streak: 2 days in a row."
    # The words come from the message catalog, plural and all (the pseudo-locale shows it).
    pseudo_words = pseudo("Your streak: %(days)s days in a row.") % {"days": 2}
    assert words(client.get("/daily?lang=en-XA").text, "daily-streak") == pseudo_words
    assert words(client.get("/me").text, "me-streak-now") == "Your streak: 2 days in a row."

    client = restart()
    wall.now += 2 * DAY  # a whole day went by without a finished daily
    daily_page, me_page = client.get("/daily").text, client.get("/me").text
    assert words(daily_page, "daily-streak") is None and words(me_page, "me-streak-now") is None
    best = "Your best streak: 2 days in a row."
    assert words(daily_page, "daily-best-streak") == words(me_page, "me-best-streak") == best
    # Someone else sees nothing of this player's streak.
    other = TestClient(client.app)
    other.portal = client.portal
    assert "daily-best-streak" not in other.get("/daily").text
    assert "me-best-streak" not in other.get("/me").text


@pytest.mark.slow
def test_a_streak_on_a_real_server_survives_its_restart(
    results_database: str,
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    tmp_path: Path,
) -> None:
    env = {
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_DATA_DIR": str(tmp_path / "data"),
        "ZZV_DATABASE_URL": results_database,
    }

    def start() -> Any:
        port = find_free_port()
        return launch_server(server_command(port), port=port, env=env)

    server = start()
    with httpx.Client(base_url=server.url, timeout=60) as http:
        started = http.post("/api/daily", json={}).json()
        token = started["player_token"]
        today = datetime.now(UTC).date()  # the server's clock is the real one
        asyncio.run(
            finished_days(results_database, token, [today - timedelta(days=n) for n in (2, 1)])
        )
        play_out(http, started["game_id"], started["token"], started["state"], random.Random(1))
        assert wait_for_streak(http, token, 3) == {"current": 3, "best": 3, "today": True}
    server.stop()  # a restart: the next server starts on the same database
    server = start()
    with httpx.Client(base_url=server.url, timeout=60) as http:
        me = http.get("/api/me", headers={"X-Player-Token": token}).json()
        assert me["daily_streak"] == {"current": 3, "best": 3, "today": True}
    assert "Traceback" not in server.log(), server.log()[-3000:]
