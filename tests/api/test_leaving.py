"""Leaving is losing (docs/ratings.md), through the API in process on every store kind: a
rated race its person walks away from is ended by the app's sweep and counts as last
("left" in the history, the rating moved as a last place); one ended before its first
trick has no result; a person whose clock ran out on their last turns left too."""

from __future__ import annotations

import random
from typing import Any

import pytest
from app_kit import bearer, move
from fastapi.testclient import TestClient
from store_kit import ManualClock

from app.races import operations
from app.races.unit import end_idle_races, left_after
from app.results.ratings import BOT_RATINGS, Rating, display, rate

TRICK_ENDS = {"trick_won", "trick_all_tuned_up"}


def player(token: str) -> dict[str, str]:
    return {"X-Player-Token": token}


def new_race(client: TestClient, **body: Any) -> dict[str, Any]:
    created = client.post("/api/games", json={"players": 4, "bots": "random", **body})
    assert created.status_code == 201, created.text
    data: dict[str, Any] = created.json()
    return data


def play_past_first_trick(client: TestClient, race: dict[str, Any]) -> dict[str, Any]:
    """Random legal moves until a trick is over (the race still running); the state."""
    rng = random.Random(4)
    state = race["state"]
    seen = list(state["events"])
    while not any(event["kind"] in TRICK_ENDS for event in seen):
        action = rng.choice(state["legal_actions"])
        response = move(client, race["game_id"], race["token"], state["turn"], action)
        assert response.status_code == 200, response.text
        state = response.json()
        seen += state["events"]
    assert not state["game_over"]
    return state


def sweep(client: TestClient, clock: ManualClock) -> int:
    """Let the races sit idle past the sweep's threshold, then run the sweep once."""
    races = client.app.state.races  # type: ignore[attr-defined]
    clock.now += left_after(races.settings) + 1
    ended: int = client.portal.call(end_idle_races, races)  # type: ignore[union-attr]
    return ended


def test_a_race_left_mid_way_counts_as_last(client: TestClient, clock: ManualClock) -> None:
    race = new_race(client)
    state = play_past_first_trick(client, race)
    busy = new_race(client)  # a race someone is still at is not touched
    assert sweep(client, clock) == 2
    assert sweep(client, clock) == 0  # an ended race is ended once

    after = client.get(f"/api/games/{race['game_id']}", headers=bearer(race["token"])).json()
    assert after["status"] == "over"
    refused = move(client, race["game_id"], race["token"], state["turn"], state["legal_actions"][0])
    assert refused.status_code == 400 and "over" in refused.json()["message"]

    me = client.get("/api/me", headers=player(race["player_token"])).json()
    [entry] = me["history"]
    assert entry["status"] == "left" and entry["place"] == 4 and not entry["practice"]
    # The rating moved exactly as a last place against the bots' places moves it.
    seats = client.portal.call(  # type: ignore[union-attr]
        client.app.state.results.finished_seats,
        race["game_id"],  # type: ignore[attr-defined]
    )
    assert [s.left for s in seats] == [True, False, False, False]
    places = [s.place for s in seats]
    assert places[0] == 4 and max(places[1:]) < 4
    expected = rate([Rating()] + [BOT_RATINGS["random"]] * 3, places)[0]
    assert entry["rating_before"] == display(Rating())
    assert entry["rating_after"] == display(expected) < entry["rating_before"]
    assert me["records"]["random"] == {"races": 1, "wins": 0, "streak": 0}
    replay = client.get(f"/games/{race['game_id']}/replay")
    assert replay.status_code == 200, replay.text
    # The other race never got past its first trick: aborted, with no result.
    other = client.get("/api/me", headers=player(busy["player_token"])).json()
    assert other["history"] == []


def test_a_race_aborted_before_its_first_trick_has_no_result(
    client: TestClient, clock: ManualClock
) -> None:
    race = new_race(client)
    before = client.get("/api/me", headers=player(race["player_token"])).json()
    assert sweep(client, clock) == 1
    after = client.get(f"/api/games/{race['game_id']}", headers=bearer(race["token"])).json()
    assert after["status"] == "over"
    me = client.get("/api/me", headers=player(race["player_token"])).json()
    assert me["history"] == [] and me["rating"] == before["rating"]


def test_a_practice_race_left_is_only_ended_by_the_store(
    client: TestClient, clock: ManualClock
) -> None:
    race = new_race(client)
    play_past_first_trick(client, race)
    state = client.get(f"/api/games/{race['game_id']}", headers=bearer(race["token"])).json()
    move(client, race["game_id"], race["token"], state["turn"], state["legal_actions"][0])
    back = client.post(f"/api/games/{race['game_id']}/takeback", headers=bearer(race["token"]))
    assert back.status_code == 200 and back.json()["practice"]
    assert sweep(client, clock) == 0  # nothing to rate: the store simply lets it expire


def test_the_left_race_shows_as_left_on_your_races_page(
    client: TestClient, clock: ManualClock
) -> None:
    table = client.post("/games", data={"players": "4", "bots": "random"})
    assert table.status_code == 303
    game_id = table.headers["location"].rsplit("/", 1)[1]
    token = client.cookies.get(f"zzv_{game_id}")
    assert token
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    play_past_first_trick(client, {"game_id": game_id, "token": token, "state": state})
    assert sweep(client, clock) == 1
    page = client.get("/me").text
    assert '<span class="left-race">left</span>, 4th of 4' in page


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> ManualClock:
    """The turn clock, stopped: it moves only when the test says so."""
    clock = ManualClock(1_800_000_000.0)
    monkeypatch.setattr(operations, "wall_clock", clock)
    return clock


def test_a_person_whose_clock_ran_out_on_their_last_turns_left(
    client: TestClient, wall: ManualClock
) -> None:
    race = new_race(client, players=3, humans=2)
    code = race["invites"][0]["code"]
    joined = client.post(f"/api/games/{race['game_id']}/join", json={"code": code})
    assert joined.status_code == 201, joined.text
    friend = joined.json()
    rng = random.Random(8)
    state = race["state"]
    for _ in range(2000):  # the creator plays; the friend walked away after the deal
        if state["status"] == "over":
            break
        if state["current_seat"] == 0 and state["legal_actions"]:
            answer = move(
                client, race["game_id"], race["token"], state["turn"],
                rng.choice(state["legal_actions"]),
            )  # fmt: skip
            assert answer.status_code == 200, answer.text
        else:  # the friend's turn: their time runs out and the autopilot moves for them
            wall.now += state["clock"]["turn_seconds"] if state["clock"] else 0
        state = client.get(f"/api/games/{race['game_id']}", headers=bearer(race["token"])).json()
    assert state["status"] == "over" and state["game_over"]
    mine = client.get("/api/me", headers=player(race["player_token"])).json()["history"]
    theirs = client.get("/api/me", headers=player(friend["player_token"])).json()["history"]
    assert mine[0]["status"] == "finished" and mine[0]["place"] < 3
    assert theirs[0]["status"] == "left" and theirs[0]["place"] == 3
