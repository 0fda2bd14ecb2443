"""A finished race holds no connection: every page's live stream (a seat's and the watch
page's) ends with an ``over`` message once the race is over, and the page of a finished
race opens no stream at all, while it still shows the final table."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
from sse_client import SseReader

from app.http.deps import cookie_name

ENDS_WITHIN_SECONDS = 10.0
"""Functional bound: the stream closes moments after the last move (a shared CI runner)."""


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _friends_race(http: httpx.Client) -> tuple[str, dict[int, str]]:
    body = http.post("/api/games", json={"players": 3, "humans": 2, "bots": "random"}).json()
    code = body["invites"][0]["code"]
    joined = http.post(f"/api/games/{body['game_id']}/join", json={"code": code})
    assert joined.status_code == 201, joined.text
    return body["game_id"], {0: body["token"], 1: joined.json()["token"]}


def _play_to_the_end(http: httpx.Client, game_id: str, tokens: dict[int, str]) -> None:
    rng = random.Random(21)
    for _ in range(1000):
        state: dict[str, Any] = http.get(f"/api/games/{game_id}", headers=_bearer(tokens[0])).json()
        if state["status"] == "over":
            return
        token = tokens[state["current_seat"]]
        mine = http.get(f"/api/games/{game_id}", headers=_bearer(token)).json()
        response = http.post(
            f"/api/games/{game_id}/actions",
            json={"turn": mine["turn"], "action": rng.choice(mine["legal_actions"])},
            headers=_bearer(token),
        )
        assert response.status_code == 200, response.text
    raise AssertionError("the race did not end within 1000 moves")


def test_page_streams_end_with_over_once_the_race_is(
    live_server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    http = open_http(live_server)
    game_id, tokens = _friends_race(http)
    cookie = {"Cookie": f"{cookie_name(game_id)}={tokens[1]}"}
    seat = SseReader(f"{live_server}/games/{game_id}/events", cookie)
    watch = SseReader(f"{live_server}/games/{game_id}/watch/events")
    try:
        assert seat.status == 200 and watch.status == 200
        _play_to_the_end(http, game_id, tokens)
        for reader in (seat, watch):
            assert reader.ended(ENDS_WITHIN_SECONDS), f"{reader.url} stayed open after the race"
            events = [event for event, _data in reader.received()]
            assert "changed" in events and events[-1] == "over", events
    finally:
        seat.close()
        watch.close()

    # A latecomer's stream says "over" at once and ends.
    late = SseReader(f"{live_server}/games/{game_id}/watch/events")
    try:
        assert late.ended(ENDS_WITHIN_SECONDS)
        assert [event for event, _data in late.received()][-1] == "over"
    finally:
        late.close()

    # The finished table is still drawn, with no stream to open and no refresh.
    page = http.get(f"/games/{game_id}", headers=cookie).text
    watch_page = http.get(f"/games/{game_id}/watch").text
    for html in (page, watch_page):
        assert 'class="summary game-over' in html
        assert "sse-connect" not in html and 'http-equiv="refresh"' not in html


def test_a_running_race_page_closes_its_stream_on_over(
    live_server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    http = open_http(live_server)
    game_id, tokens = _friends_race(http)
    page = http.get(f"/games/{game_id}", headers={"Cookie": f"{cookie_name(game_id)}={tokens[0]}"})
    # htmx's SSE extension closes the EventSource on "over" instead of reconnecting.
    assert f'sse-connect="/games/{game_id}/events" sse-close="over"' in page.text
