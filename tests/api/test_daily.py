"""The daily deal through the API, in process (results in memory; the real servers on
SQLite and PostgreSQL are in test_daily_server.py): one deal a day for everyone, one
counted attempt per player, the board in its documented order, yesterday's seed."""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from typing import Any

import pytest
from app_kit import WallClock, another_browser, bearer, hand_clock, move
from fastapi.testclient import TestClient

from app.results.daily import DailyResults

DAY = 86_400.0
NOON = 20_000 * DAY + DAY / 2  # 2024-10-04 12:00 UTC
TODAY, YESTERDAY, TOMORROW = "2024-10-04", "2024-10-03", "2024-10-05"


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> WallClock:
    return hand_clock(monkeypatch, NOON)


def daily(client: TestClient, player_token: str | None = None, **body: Any) -> dict[str, Any]:
    headers = {"X-Player-Token": player_token} if player_token else {}
    response = client.post("/api/daily", json=body, headers=headers)
    assert response.status_code == 201, response.text
    out: dict[str, Any] = response.json()
    return out


def finish(client: TestClient, started: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Play random legal moves to the flag; the final state."""
    state = started["state"]
    for _ in range(500):
        if state["game_over"]:
            return state
        response = move(
            client, started["game_id"], started["token"], state["turn"],
            rng.choice(state["legal_actions"]),
        )  # fmt: skip
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError("the race did not end")


def board(
    client: TestClient, day: str | None = None, player_token: str | None = None
) -> dict[str, Any]:
    params = {"date": day} if day else {}
    headers = {"X-Player-Token": player_token} if player_token else {}
    response = client.get("/api/daily/leaderboard", params=params, headers=headers)
    assert response.status_code == 200, response.text
    out: dict[str, Any] = response.json()
    return out


def result_of(state: dict[str, Any], record: dict[str, Any]) -> tuple[int, int, int]:
    """Seat 0's laps, tricks won and gas left, from the final state and the record."""
    me = next(p for p in state["players"] if p["seat"] == 0)
    tricks = Counter(e["seat"] for e in record["events"] if e["kind"] == "trick_won")
    return me["laps"], tricks[0], me["gas"]


def test_everyone_gets_the_same_deal_and_one_counted_attempt(
    client: TestClient, wall: WallClock
) -> None:
    ada = daily(client, name="Ada")
    bob = daily(client)
    assert ada["date"] == bob["date"] == TODAY
    assert ada["counted"] and bob["counted"]
    assert ada["player_token"] != bob["player_token"]
    assert ada["invites"] == [] and ada["state"]["practice"] is False
    for key in ("hand", "lead", "gas", "legal_actions", "trick_cards"):
        if key in ada["state"]:
            assert ada["state"][key] == bob["state"][key], key
    assert len(ada["state"]["players"]) == 4
    assert ada["state"]["seats"][0]["name"] == "Ada"
    # No practice copy of the deal while the counted attempt runs (it would be an oracle).
    refused = client.post("/api/daily", json={}, headers={"X-Player-Token": ada["player_token"]})
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "daily_attempt_running"
    assert refused.json()["game_id"] == ada["game_id"]
    finish(client, ada, random.Random(2))
    again = daily(client, ada["player_token"])
    assert not again["counted"] and again["state"]["practice"] is True
    assert again["player_token"] == ada["player_token"]
    assert again["state"]["hand"] == ada["state"]["hand"]  # the same deal, as practice


def test_the_board_ranks_counted_results_in_the_documented_order(
    client: TestClient, wall: WallClock
) -> None:
    results = {}
    for index, name in enumerate(["Ada", "Bob", "Cy"]):
        started = daily(client, name=name)
        final = finish(client, started, random.Random(index))
        record = client.get(
            f"/api/games/{started['game_id']}/record", headers=bearer(started["token"])
        ).json()
        assert record["seed"] is None  # the day's seed stays hidden in the race
        results[name] = (final, record, started)
    # A practice attempt of Ada's, finished, is not on the board.
    practice = daily(client, results["Ada"][2]["player_token"])
    finish(client, practice, random.Random(9))
    entries = board(client)["entries"]
    assert [e["name"] for e in entries] and sorted(e["name"] for e in entries) == [
        "Ada",
        "Bob",
        "Cy",
    ]
    for entry in entries:
        final, record, _ = results[entry["name"]]
        assert (entry["laps"], entry["tricks"], entry["gas"]) == result_of(final, record)
    keys = [(e["place"], -e["laps"], -e["tricks"], -e["gas"]) for e in entries]
    assert keys == sorted(keys)
    expected: list[int] = []
    for index, key in enumerate(keys):  # equal results share a rank
        expected.append(expected[-1] if index and keys[index - 1] == key else index + 1)
    assert [e["rank"] for e in entries] == expected
    assert entries[0]["rank"] == 1


def test_a_takeback_turns_the_counted_attempt_into_practice(
    client: TestClient, wall: WallClock
) -> None:
    started = daily(client, name="Dee")
    state = started["state"]
    move(client, started["game_id"], started["token"], state["turn"], state["legal_actions"][0])
    back = client.post(
        f"/api/games/{started['game_id']}/takeback", headers=bearer(started["token"])
    )
    assert back.status_code == 200 and back.json()["practice"] is True
    finish(client, {**started, "state": back.json()}, random.Random(3))
    assert board(client)["entries"] == []
    assert not daily(client, started["player_token"])["counted"]  # the attempt was used


def test_a_new_day_deals_a_new_deal_and_yesterday_shows_its_seed(
    client: TestClient, wall: WallClock
) -> None:
    first = daily(client, name="Eve")
    finish(client, first, random.Random(1))
    assert board(client)["seed"] is None  # not while the day lasts
    wall.now += DAY
    second = daily(client, first["player_token"])
    assert second["date"] == TOMORROW and second["counted"]
    yesterday = board(client, TODAY)
    assert [e["name"] for e in yesterday["entries"]] == ["Eve"]
    assert isinstance(yesterday["seed"], int)
    assert board(client, YESTERDAY)["seed"] not in (None, yesterday["seed"])
    assert board(client, TOMORROW)["seed"] is None and board(client, TOMORROW)["entries"] == []
    # Anyone can race yesterday's deal again on this server: the same cards.
    replay = client.post("/daily/replay", data={"date": TODAY})
    assert replay.status_code == 303
    game_id = replay.headers["location"].rsplit("/", 1)[1]
    token = client.cookies.get(f"zzv_{game_id}")
    assert token
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    # Its seed is public, so whoever raced the day knows the cards: practice.
    assert state["hand"] == first["state"]["hand"] and state["practice"]
    record = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
    assert record["seed"] is None  # no seed is shown while racing, not even a known one
    # Today's deal cannot be raced that way (its seed is secret).
    refused = client.post("/daily/replay", data={"date": TOMORROW})
    assert refused.status_code == 422 and "past day" in refused.text


@pytest.mark.parametrize("day", ["2024-13-01", "yesterday", "2024-1-1", "2024-02-30"])
def test_a_bad_date_is_refused(client: TestClient, day: str) -> None:
    response = client.get("/api/daily/leaderboard", params={"date": day})
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request"


def test_a_name_that_does_not_fit_is_refused(client: TestClient, wall: WallClock) -> None:
    response = client.post("/api/daily", json={"name": "x" * 30})
    assert response.status_code == 422


def test_the_daily_page(client: TestClient, wall: WallClock) -> None:
    page = client.get("/daily")
    assert page.status_code == 200
    assert "Today, Oct 4, 2024" in page.text and "Race today's deal" in page.text
    assert f'id="yesterday-seed">{board(client, YESTERDAY)["seed"]}<' in page.text
    started = client.post("/daily")
    assert started.status_code == 303
    again = client.get("/daily").text
    assert 'id="daily-back"' in again
    assert 'id="race-daily"' not in again
    refused = client.post("/daily")
    assert refused.status_code == 409 and "still running" in refused.text
    game_id = started.headers["location"].rsplit("/", 1)[1]
    token = client.cookies.get(f"zzv_{game_id}")
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    finish(client, {"game_id": game_id, "token": token, "state": state}, random.Random(4))
    assert "Race it again (practice)" in client.get("/daily").text
    practice = client.post("/daily")
    assert practice.status_code == 303
    table = client.get(practice.headers["location"]).text
    assert "Practice race: nothing counts." in table


def test_each_player_finds_their_own_result_on_the_board(
    client: TestClient, wall: WallClock
) -> None:
    tokens = {}
    for index, name in enumerate(["Ada", "Bob"]):
        started = daily(client, name=name)
        finish(client, started, random.Random(index))
        tokens[name] = started["player_token"]
    unfinished = daily(client, name="Dee")  # a counted attempt still running
    everyone = board(client)
    assert everyone["ranked"] == 2 and everyone["you"] is None
    for name, token in tokens.items():
        seen = board(client, player_token=token)
        assert seen["entries"] == everyone["entries"]
        assert seen["you"] == next(e for e in everyone["entries"] if e["name"] == name)
        assert board(client, YESTERDAY, token)["you"] is None  # nothing raced that day
    assert board(client, player_token=unfinished["player_token"])["you"] is None
    assert board(client, player_token="nobody's token")["you"] is None

    # Below the board's head (it lists the first 100) a player's result is still theirs.
    results = client.app.state.results
    bob = client.portal.call(results.player_for, tokens["Bob"])
    day_board = functools.partial(DailyResults(results).day_board, TODAY, bob.id, limit=1)
    head = client.portal.call(day_board)
    assert len(head.entries) == 1 and head.ranked == 2
    assert head.mine is not None and head.mine.name == "Bob"
    assert head.mine.rank == board(client, player_token=tokens["Bob"])["you"]["rank"]


def test_the_daily_page_leads_back_to_your_race_then_shows_where_it_stands(
    client: TestClient, wall: WallClock
) -> None:
    table = client.post("/daily").headers["location"]
    game_id = table.rsplit("/", 1)[1]
    page = client.get("/daily").text
    assert f'id="daily-back" href="/games/{game_id}"' in page
    assert "daily-standing" not in page

    token = client.cookies.get(f"zzv_{game_id}")
    assert token
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    finish(client, {"game_id": game_id, "token": token, "state": state}, random.Random(5))
    stranger = daily(another_browser(client), name="Sam")
    finish(client, stranger, random.Random(6))

    page = client.get("/daily").text
    assert "daily-back" not in page
    entries = board(client)["entries"]
    mine = next(e for e in entries if e["name"] != "Sam")
    standing = re.search(r'id="daily-standing">([^<]*)<', page)
    assert standing, page
    assert standing.group(1).startswith(f"You are #{mine['rank']} of 2 on the board: ")
    assert page.count('class="is-you"') == 1
    marked = re.search(r'<tr class="is-you"><td>(\d+)</td><th scope="row">([^<]*)<', page)
    assert marked and (int(marked.group(1)), marked.group(2).strip()) == (
        mine["rank"],
        mine["name"],
    )
    share = re.search(r'id="daily-share-text">([^<]*)<', page)
    assert share, page
    head = f"Zoom Zoom Vroom daily deal, Oct 4, 2024: #{mine['rank']} of 2"
    assert share.group(1).startswith(head)
    assert share.group(1).endswith(" http://testserver/daily")

    # Someone else sees the same board with no row marked and nothing of this player's.
    elsewhere = another_browser(client).get("/daily").text
    assert "is-you" not in elsewhere and "daily-standing" not in elsewhere

    # The flag of a daily race points to the board; a practice one says why it is not on it.
    flag = client.get(table).text
    assert 'href="/daily#today-title" id="daily-board-link">see where you stand' in flag
    assert "practice-note" not in flag
    again = client.post("/daily").headers["location"]
    again_id = again.rsplit("/", 1)[1]
    token = client.cookies.get(f"zzv_{again_id}")
    state = client.get(f"/api/games/{again_id}", headers=bearer(token)).json()
    finish(client, {"game_id": again_id, "token": token, "state": state}, random.Random(7))
    flag = client.get(again).text
    assert 'id="daily-board-link">the day\'s board<' in flag
    assert "a second race of the daily deal" in flag
    # Any other race's flag says nothing of the daily deal.
    other = client.post("/games", data={"players": "3", "bots": "random"}).headers["location"]
    other_id = other.rsplit("/", 1)[1]
    token = client.cookies.get(f"zzv_{other_id}")
    state = client.get(f"/api/games/{other_id}", headers=bearer(token)).json()
    finish(client, {"game_id": other_id, "token": token, "state": state}, random.Random(8))
    flag = client.get(other).text
    assert "game-over-title" in flag and "daily-board-link" not in flag


def test_a_counted_race_made_practice_is_still_one_tap_away_and_says_so(
    client: TestClient, wall: WallClock
) -> None:
    table = client.post("/daily").headers["location"]
    game_id = table.rsplit("/", 1)[1]
    assert "finish it to join the board" in client.get("/daily").text
    token = client.cookies.get(f"zzv_{game_id}")
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    move(client, game_id, token, state["turn"], state["legal_actions"][0])
    assert client.post(f"/api/games/{game_id}/takeback", headers=bearer(token)).status_code == 200
    page = client.get("/daily").text
    assert f'id="daily-back" href="/games/{game_id}"' in page
    assert "practice since a take-back" in page and "finish it to join the board" not in page
