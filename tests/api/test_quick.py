"""Race strangers (``POST /api/quick`` and the start page's form), in process, on both
stores: requests for the same size within the wait share a race at different seats; the
last seat taken or the wait's end starts it, bots in the empty seats."""

from __future__ import annotations

from typing import Any

import pytest
from app_kit import WallClock, another_browser, bearer, hand_clock, move
from fastapi.testclient import TestClient
from store_kit import StoreProbe

from app.races.seating import slot_name


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> WallClock:
    """The turn clock's time, moved by the test (the wait is measured on it)."""
    return hand_clock(monkeypatch, 1_000_000.0)


def quick(client: TestClient, players: int = 4, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/quick", json={"players": players, **extra})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def state_of(client: TestClient, joined: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/games/{joined['game_id']}", headers=bearer(joined["token"]))
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def test_two_requests_in_the_wait_share_a_race(client: TestClient, wall: WallClock) -> None:
    first = quick(client, 4)
    wall.now += 5
    second = quick(client, 4, name="Ada")
    assert second["game_id"] == first["game_id"]
    assert (first["seat"], second["seat"]) == (0, 1)
    assert first["token"] != second["token"]
    assert second["state"]["status"] == "waiting"
    seats = state_of(client, first)["seats"]
    assert [s["joined"] for s in seats] == [True, True, False, False]
    assert seats[1]["name"] == "Ada"
    # Each token opens its own seat only.
    assert state_of(client, second)["seat"] == 1 and state_of(client, first)["seat"] == 0


def test_the_last_seat_starts_the_race(client: TestClient, wall: WallClock) -> None:
    joined = [quick(client, 3) for _ in range(3)]
    assert len({j["game_id"] for j in joined}) == 1
    assert [j["seat"] for j in joined] == [0, 1, 2]
    assert joined[-1]["state"]["status"] == "playing"
    state = state_of(client, joined[0])
    assert state["status"] == "playing"
    assert all(s["person"] and s["joined"] for s in state["seats"])
    assert state["clock"] is not None  # people race each other: the turn clock runs
    # The race is full: the next request opens another.
    assert quick(client, 3)["game_id"] != joined[0]["game_id"]


def test_the_wait_ends_with_bots_in_the_empty_seats(client: TestClient, wall: WallClock) -> None:
    first = quick(client, 5)
    second = quick(client, 5)
    assert state_of(client, first)["status"] == "waiting"
    wall.now += client.app.state.settings.quick_wait_seconds + 0.5  # type: ignore[attr-defined]
    state = state_of(client, first)
    assert state["status"] == "playing"
    assert [s["person"] for s in state["seats"]] == [True, True, False, False, False]
    assert [s["name"] for s in state["seats"]][2:] == ["Bot 3", "Bot 4", "Bot 5"]
    # Played like a race with friends: whoever is to move can move.
    for joined in (first, second):
        now = state_of(client, joined)
        if now["current_seat"] == joined["seat"]:
            response = move(
                client, joined["game_id"], joined["token"], now["turn"], now["legal_actions"][0]
            )
            assert response.status_code == 200, response.text
    # A request after the wait opens a new race rather than a started one.
    assert quick(client, 5)["game_id"] != first["game_id"]


def test_the_wait_counts_from_the_race_opening(client: TestClient, wall: WallClock) -> None:
    first = quick(client, 4)
    wall.now += client.app.state.settings.quick_wait_seconds - 1  # type: ignore[attr-defined]
    assert quick(client, 4)["game_id"] == first["game_id"]
    wall.now += 2
    third = quick(client, 4)
    assert third["game_id"] != first["game_id"] and third["seat"] == 0
    assert state_of(client, first)["status"] == "playing"


def test_sizes_do_not_mix(client: TestClient, wall: WallClock) -> None:
    games = {quick(client, n)["game_id"] for n in (3, 4, 5)}
    assert len(games) == 3


def test_the_creator_may_start_at_once(client: TestClient, wall: WallClock) -> None:
    first = quick(client, 4)
    quick(client, 4)
    started = client.post(f"/api/games/{first['game_id']}/start", headers=bearer(first["token"]))
    assert started.status_code == 200
    assert started.json()["status"] == "playing"


@pytest.mark.parametrize("body", [{"players": 2}, {"players": 6}, {"players": "4"}, {"x": 1}])
def test_bad_requests_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/api/quick", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request"


def test_a_name_that_does_not_fit_is_refused(client: TestClient, wall: WallClock) -> None:
    response = client.post("/api/quick", json={"players": 4, "name": "x" * 30})
    assert response.status_code == 422
    assert "20" in response.json()["message"]


def test_a_gone_race_in_the_slot_opens_a_new_one(
    client: TestClient, store: StoreProbe, wall: WallClock
) -> None:
    first = quick(client, 4)
    store.run(lambda: store.store.wipe(first["game_id"]))
    second = quick(client, 4)
    assert second["game_id"] != first["game_id"] and second["seat"] == 0
    held = store.run(lambda: store.store.held(slot_name(4)))
    assert held == second["game_id"]


def test_the_start_page_races_strangers(client: TestClient, wall: WallClock) -> None:
    page = client.get("/").text
    assert 'action="/quick"' in page and "Race strangers" in page
    response = client.post("/quick", data={"players": "4"})
    assert response.status_code == 303
    game_id = response.headers["location"].rsplit("/", 1)[1]
    other = another_browser(client)
    joined = other.post("/quick", data={"players": "4"})
    assert joined.status_code == 303 and joined.headers["location"] == f"/games/{game_id}"
    table = other.get(f"/games/{game_id}").text
    assert "Looking for racers: 2 of 4 seats taken" in table
    assert "/join?code=" not in table and "/join?code=" not in client.get(f"/games/{game_id}").text
    refused = client.post("/quick", data={"players": "7"})
    assert refused.status_code == 422 and "3, 4 or 5" in refused.text


def test_racing_strangers_counts_against_the_creation_limit(app_with: Any) -> None:
    """Per-client limits as for creating races: the creation bucket."""
    limited = app_with(rate_limit_enabled=True, create_burst=3, create_rate_per_minute=1)
    with TestClient(limited) as client:
        answers = [client.post("/api/quick", json={"players": 3}).status_code for _ in range(4)]
        assert answers == [201, 201, 201, 429]
        assert client.post("/quick", data={"players": "3"}).status_code == 429


def test_opening_a_quick_race_counts_against_the_live_race_cap(app_with: Any) -> None:
    """A request that opens a race needs a slot under the player's cap; one that joins
    the open race does not."""
    capped = app_with(max_games_per_client=1)
    with TestClient(capped) as client:
        assert client.post("/api/quick", json={"players": 5}).status_code == 201  # Ada opens
        opened = client.post("/api/quick", json={"players": 4})  # Bea opens her one race
        assert opened.status_code == 201
        bea = {"X-Player-Token": opened.json()["player_token"]}
        # Joining Ada's open race needs no new slot; opening another race does.
        assert client.post("/api/quick", json={"players": 5}, headers=bea).status_code == 201
        refused = client.post("/api/quick", json={"players": 3}, headers=bea)
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_games"
