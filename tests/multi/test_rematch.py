"""Rematch, over a real server on both live stores: after a race of two people, one offers
a rematch and the other accepts: the new race has the same people and settings, each one
seat further round, and starts at once; declined, a bot takes the seat and it starts;
unanswered, it starts with a bot once its wait is over. Each person's answer is theirs
only (a second answer is refused), and a watcher cannot answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from app_kit import bearer
from away_kit import FRIEND, WAIT_SECONDS, Pair, finish, launch, new_pair, wait_for

REMATCH_WAIT = 3.0
"""The servers' rematch wait: short, so the unanswered case takes a few seconds."""


@pytest.fixture(scope="module", params=["sqlite", "redis"])
def server(
    request: pytest.FixtureRequest,
    launch_module_server: Callable[..., Any],
    live_server_env: dict[str, str],
) -> str:
    """A real server on the default store or on a real Redis, one of each for the module
    (every test makes races of its own)."""
    redis_url = request.getfixturevalue("module_redis").url if request.param == "redis" else None
    extra = {"ZZV_REMATCH_WAIT_SECONDS": str(REMATCH_WAIT)}
    return launch(launch_module_server, live_server_env, redis_url, 30.0, **extra)


@pytest.fixture
def http(server: str, open_http: Callable[[str], httpx.Client]) -> httpx.Client:
    """A client of :func:`server`."""
    return open_http(server)


def _finished(http: httpx.Client) -> tuple[Pair, dict[str, Any]]:
    pair = new_pair(http)
    return pair, finish(pair)


def _rematch(pair: Pair, seat: int, answer: str = "") -> httpx.Response:
    path = f"/api/games/{pair.game_id}/rematch" + ("/decline" if answer == "no" else "")
    return pair.http.post(path, headers=bearer(pair.tokens[seat]))


def _new_state(pair: Pair, joined: dict[str, Any]) -> dict[str, Any]:
    response = pair.http.get(f"/api/games/{joined['game_id']}", headers=bearer(joined["token"]))
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_rematch_starts_with_the_same_people_when_all_accept(http: httpx.Client) -> None:
    pair, over = _finished(http)
    assert over["rematch"] is None
    offered = _rematch(pair, 0)
    assert offered.status_code == 201, offered.text
    first = offered.json()
    assert first["game_id"] != pair.game_id and first["seat"] == 1  # one seat round
    assert first["state"]["status"] == "waiting"
    # The other person's finished table shows the offer.
    seen = pair.state(1)["rematch"]
    assert seen == {"game_id": first["game_id"], "answers": {"0": "yes"}}
    watcher = http.post(f"/api/games/{pair.game_id}/rematch")
    assert watcher.status_code in {401, 404}

    accepted = _rematch(pair, 1)
    assert accepted.status_code == 201, accepted.text
    second = accepted.json()
    assert second["game_id"] == first["game_id"] and second["seat"] == 2
    assert second["token"] not in {first["token"], *pair.tokens.values()}
    state = _new_state(pair, second)
    assert state["status"] == "playing"
    names = [s["name"] for s in state["seats"]]
    people = [s["person"] for s in state["seats"]]
    assert people == [False, True, True] and names[2] == FRIEND
    assert names[1] == over["seats"][0]["name"]
    assert _new_state(pair, first)["seat"] == 1
    assert pair.state(0)["rematch"]["answers"] == {"0": "yes", "1": "yes"}
    again = _rematch(pair, 1)
    assert again.status_code == 409 and again.json()["code"] == "rematch_answered"
    late = _rematch(pair, 1, "no")
    assert late.status_code == 409 and late.json()["code"] == "rematch_answered"

    # Same settings: the record's settings match, the deal is new.
    old = http.get(f"/api/games/{pair.game_id}/record", headers=bearer(pair.tokens[0])).json()
    new = http.get(f"/api/games/{first['game_id']}/record", headers=bearer(first["token"]))
    assert new.json()["settings"] == old["settings"]
    assert new.json()["commitment"] != old["commitment"]


def test_a_declined_seat_gets_a_bot_and_the_rematch_starts(http: httpx.Client) -> None:
    pair, _over = _finished(http)
    none_yet = _rematch(pair, 1, "no")
    assert none_yet.status_code == 409 and none_yet.json()["code"] == "no_rematch"
    first = _rematch(pair, 1).json()  # the friend offers this time
    assert first["seat"] == 2
    declined = _rematch(pair, 0, "no")
    assert declined.status_code == 204, declined.text
    state = _new_state(pair, first)
    assert state["status"] == "playing"
    assert [s["person"] for s in state["seats"]] == [False, False, True]
    assert pair.state(1)["rematch"]["answers"] == {"1": "yes", "0": "no"}
    refused = _rematch(pair, 0)
    assert refused.status_code == 409 and refused.json()["code"] == "rematch_answered"


def test_an_unanswered_rematch_starts_with_a_bot_after_its_wait(http: httpx.Client) -> None:
    pair, _over = _finished(http)
    first = _rematch(pair, 0).json()
    assert first["state"]["status"] == "waiting"
    started = wait_for(
        lambda: [s] if (s := _new_state(pair, first))["status"] == "playing" else []
    )[0]
    assert [s["person"] for s in started["seats"]] == [False, True, False]
    late = _rematch(pair, 1)
    assert late.status_code == 409 and late.json()["code"] == "rematch_started"
    assert WAIT_SECONDS > REMATCH_WAIT
