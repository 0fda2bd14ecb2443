"""Quick messages over a real server, on both live stores (the default SQLite one and a
real Redis): a message reaches the other seats' and a watcher's event streams within a
second, a seat that speaks too often is refused with 429 and a sentence (JSON for the
API, a page for the form) and nothing is sent, a muted browser's page and stream leave
the others' messages out, a race against bots only refuses them (409), and two servers
on one Redis share both the messages and each seat's pace."""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from sse_client import SseReader
from store_kit import RedisServer
from test_live_race import STREAM_BOUND_SECONDS, bearer

from bench.server import find_free_port


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def talk_server(
    request: pytest.FixtureRequest, launch_module_server: Any, server_command: Any
) -> Iterator[str]:
    """A real uvicorn on the default store, or on a real Redis (rate limits on: the pace
    of quick messages is the race's own, not lifted with them). One of each for the
    module: every test makes races of its own, well within a client's limits."""
    env = {"ZZV_ACCESS_LOG": "false", "ZZV_MAX_GAMES_PER_CLIENT": "1000"}
    if request.param == "redis":
        redis: RedisServer = request.getfixturevalue("module_redis")
        env["ZZV_REDIS_URL"] = redis.url
    port = find_free_port()
    yield launch_module_server(server_command(port), port=port, env=env).url


def _race_of_three(http: httpx.Client) -> tuple[str, dict[int, str]]:
    """A started race of three people and a bot; its id and each person's token."""
    created = http.post("/api/games", json={"players": 4, "humans": 3, "bots": "random"})
    assert created.status_code == 201, created.text
    game_id, tokens = created.json()["game_id"], {0: created.json()["token"]}
    for invite in created.json()["invites"]:
        joined = http.post(f"/api/games/{game_id}/join", json={"code": invite["code"]})
        assert joined.status_code == 201, joined.text
        tokens[invite["seat"]] = joined.json()["token"]
    return game_id, tokens


def _say(http: httpx.Client, game_id: str, token: str, code: str) -> httpx.Response:
    return http.post(f"/api/games/{game_id}/say", json={"code": code}, headers=bearer(token))


def _next(
    reader: SseReader, event: str, accept: Callable[[str], bool], timeout: float
) -> tuple[float, str]:
    """When the first ``event`` message whose data ``accept`` takes arrived, and its data."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            at, kind, data = reader.messages.get(timeout=left)
        except queue.Empty:
            break
        if kind == event and accept(data):
            return at, data
    raise TimeoutError(f"no {event} message from {reader.url} in {timeout} s")


def _seat_cookie(game_id: str, token: str, muted: bool = False) -> dict[str, str]:
    cookie = f"zzv_{game_id}={token}" + ("; zzv_mute=1" if muted else "")
    return {"Cookie": cookie}


def test_a_message_reaches_every_seat_and_watcher_within_a_second(
    talk_server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    http = open_http(talk_server)
    game_id, tokens = _race_of_three(http)
    api = {
        s: SseReader(f"{talk_server}/api/games/{game_id}/events", bearer(tokens[s])) for s in (1, 2)
    }
    watcher = SseReader(f"{talk_server}/games/{game_id}/watch/events")
    page = SseReader(f"{talk_server}/games/{game_id}/events", _seat_cookie(game_id, tokens[2]))
    try:
        for reader in api.values():
            reader.next_state(lambda _s: True, 5)
        _next(watcher, "changed", lambda _d: True, 5)  # the watch page's first look
        sent_at = time.monotonic()
        said = _say(http, game_id, tokens[0], "well_played")
        assert said.status_code == 200, said.text
        [message] = said.json()["said"]
        assert (message["seat"], message["code"], message["n"]) == (0, "well_played", 1)
        for reader in api.values():
            at, _state = reader.next_state(lambda s: s["said"][-1:] == [message], 5)
            assert at - sent_at < STREAM_BOUND_SECONDS
        for reader in (watcher, page):
            at, data = _next(reader, "said", lambda d: "Well played!" in d, 5)
            assert at - sent_at < STREAM_BOUND_SECONDS
            # The line for the talk, and the bubble beside the sender's seat (out of band).
            assert 'id="said-1"' in data and 'id="said-seat-0"' in data, data
    finally:
        for reader in (*api.values(), watcher, page):
            reader.close()
    # A reload shows it beside the sender's seat and in the talk, named as the table names seats.
    table = http.get(f"/games/{game_id}", headers=_seat_cookie(game_id, tokens[1]))
    assert table.status_code == 200
    assert 'id="said-1"' in table.text and "Well played!" in table.text


def test_a_seat_that_speaks_too_often_gets_429_with_a_sentence_and_sends_nothing(
    talk_server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    http = open_http(talk_server)
    game_id, tokens = _race_of_three(http)
    assert _say(http, game_id, tokens[0], "hello").status_code == 200
    again = _say(http, game_id, tokens[0], "oops")
    assert again.status_code == 429, again.text
    body = again.json()
    assert body["code"] == "talk_too_fast" and body["retry_after"] >= 1
    assert "wait" in body["message"] and again.headers["Retry-After"] == str(body["retry_after"])
    # The form: a page with the sentence, and the race still holds only the first message.
    form = http.post(
        f"/games/{game_id}/say",
        data={"code": "oops"},
        headers={**_seat_cookie(game_id, tokens[0]), "Accept": "text/html"},
    )
    assert form.status_code == 429 and "text/html" in form.headers["content-type"]
    assert "wait" in form.text and form.headers["Retry-After"]
    state = http.get(f"/api/games/{game_id}", headers=bearer(tokens[1])).json()
    assert [m["code"] for m in state["said"]] == ["hello"]
    # The pace is per seat: another seat speaks at once.
    assert _say(http, game_id, tokens[1], "hello").status_code == 200
    # htmx gets the sentence alone, for the talk's status line.
    hx = http.post(
        f"/games/{game_id}/say",
        data={"code": "oops"},
        headers={**_seat_cookie(game_id, tokens[1]), "HX-Request": "true"},
    )
    assert hx.status_code == 429 and hx.headers["HX-Retarget"] == "#talk-status"
    assert "wait" in hx.text and "<html" not in hx.text


def test_a_muted_browser_sees_only_its_own_messages(
    talk_server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    http = open_http(talk_server)
    game_id, tokens = _race_of_three(http)
    muted = SseReader(
        f"{talk_server}/games/{game_id}/events", _seat_cookie(game_id, tokens[1], muted=True)
    )
    heard = SseReader(f"{talk_server}/games/{game_id}/events", _seat_cookie(game_id, tokens[2]))
    try:
        assert muted.status == heard.status == 200
        assert _say(http, game_id, tokens[0], "good_race").status_code == 200
        _next(heard, "said", lambda d: "Good race!" in d, 5)
        # Then somebody else than the muted seat moves: its stream says so ("changed"),
        # and nothing it sent before that carried the message.
        _move_until_another_seat_moved(http, game_id, tokens, but=1)
        before = []
        deadline = time.monotonic() + 5
        while not any(kind == "changed" for kind, _ in before) and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                _at, kind, data = muted.messages.get(timeout=0.2)
                before.append((kind, data))
        assert [kind for kind, _ in before][-1:] == ["changed"], before
        assert not any(kind == "said" or "Good race!" in data for kind, data in before)
    finally:
        muted.close()
        heard.close()
    mute_form = http.post(
        f"/games/{game_id}/mute",
        data={"mute": "on", "back": "table"},
        headers=_seat_cookie(game_id, tokens[1]),
    )
    assert mute_form.status_code == 303 and "zzv_mute=1" in mute_form.headers["set-cookie"]
    page = http.get(f"/games/{game_id}", headers=_seat_cookie(game_id, tokens[1], muted=True))
    assert 'id="said-1"' not in page.text and "Messages from others are muted." in page.text
    unmuted = http.get(f"/games/{game_id}", headers=_seat_cookie(game_id, tokens[1]))
    assert 'id="said-1"' in unmuted.text


def _move_until_another_seat_moved(
    http: httpx.Client, game_id: str, tokens: dict[int, str], but: int
) -> None:
    """Play each person's first legal move in turn until a seat other than ``but`` moved."""
    for _ in range(8):
        state = http.get(f"/api/games/{game_id}", headers=bearer(tokens[0])).json()
        seat = state["current_seat"]
        mine = http.get(f"/api/games/{game_id}", headers=bearer(tokens[seat])).json()
        body = {"turn": mine["turn"], "action": mine["legal_actions"][0]}
        moved = http.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(tokens[seat]))
        assert moved.status_code == 200, moved.text
        if seat != but:
            return
    raise AssertionError("nobody but the muted seat moved")


def test_a_race_against_bots_only_takes_no_messages(
    talk_server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    http = open_http(talk_server)
    created = http.post("/api/games", json={"players": 3, "bots": "random"})
    game_id, token = created.json()["game_id"], created.json()["token"]
    refused = _say(http, game_id, token, "hello")
    assert refused.status_code == 409 and refused.json()["code"] == "talk_without_people"
    assert "bots" in refused.json()["message"]
    page = http.get(f"/games/{game_id}", headers=_seat_cookie(game_id, token))
    assert "Table talk" not in page.text and "/say" not in page.text
    unknown = _say(http, game_id, token, "hi there")
    assert unknown.status_code == 422  # no free text: only the preset codes


def test_two_servers_on_one_redis_share_the_talk_and_its_pace(
    fresh_redis: RedisServer,
    launch_server: Any,
    server_command: Any,
    open_http: Callable[[str], httpx.Client],
) -> None:
    env = {"ZZV_REDIS_URL": fresh_redis.url, "ZZV_ACCESS_LOG": "false"}
    urls = []
    for _ in range(2):
        port = find_free_port()
        urls.append(launch_server(server_command(port), port=port, env=env).url)
    first, second = open_http(urls[0]), open_http(urls[1])
    game_id, tokens = _race_of_three(first)
    reader = SseReader(f"{urls[1]}/api/games/{game_id}/events", bearer(tokens[1]))
    try:
        reader.next_state(lambda _s: True, 5)
        sent_at = time.monotonic()
        assert _say(first, game_id, tokens[0], "hello").status_code == 200
        at, _state = reader.next_state(lambda s: [m["code"] for m in s["said"]] == ["hello"], 5)
        assert at - sent_at < STREAM_BOUND_SECONDS
    finally:
        reader.close()
    # The seat's pace is counted in Redis: the other server refuses the next one too.
    again = _say(second, game_id, tokens[0], "oops")
    assert again.status_code == 429 and again.json()["code"] == "talk_too_fast"
