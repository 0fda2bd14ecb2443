"""The weekly cup through the API and its page, in process (the clock injected; real
servers on SQLite and PostgreSQL are in test_cup_server.py): five deals a week, the same
for everyone, one counted attempt per deal, the board by place points then laps, last
week's seeds once it closed."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from app_kit import WallClock, bearer, hand_clock, move
from fastapi import FastAPI
from fastapi.testclient import TestClient
from store_kit import StoreProbe
from test_takeback_twins import hidden_card_twin

DAY = 86_400.0
WEDNESDAY = 20_000 * DAY + DAY / 2 - 2 * DAY  # 2024-10-02 12:00 UTC, ISO week 2024-W40
WEEK = "2024-W40"


@pytest.fixture
def wall(monkeypatch: pytest.MonkeyPatch) -> WallClock:
    return hand_clock(monkeypatch, WEDNESDAY)


def race(client: TestClient, deal: int, player_token: str | None = None, **body: Any) -> Any:
    headers = {"X-Player-Token": player_token} if player_token else {}
    return client.post(f"/api/cup/{deal}", json=body, headers=headers)


def started(client: TestClient, deal: int, player_token: str | None = None, **body: Any) -> Any:
    response = race(client, deal, player_token, **body)
    assert response.status_code == 201, response.text
    return response.json()


def finish(client: TestClient, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    state = game["state"]
    for _ in range(500):
        if state["game_over"]:
            return state
        action = rng.choice(state["legal_actions"])
        response = move(client, game["game_id"], game["token"], state["turn"], action)
        assert response.status_code == 200, response.text
        state = response.json()
    raise AssertionError("the race did not end")


def cup(client: TestClient, player_token: str | None = None) -> Any:
    headers = {"X-Player-Token": player_token} if player_token else {}
    response = client.get("/api/cup", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def public(state: dict[str, Any]) -> dict[str, Any]:
    return {key: state.get(key) for key in ("hand", "lead", "gas", "legal_actions")}


def test_the_deals_are_the_same_for_two_players_and_counted_once(
    client: TestClient, wall: WallClock
) -> None:
    ada = started(client, 1, name="Ada")
    bob = started(client, 1, name="Bob")
    assert ada["week"] == bob["week"] == WEEK and ada["deal"] == 1
    assert ada["counted"] and bob["counted"] and not ada["state"]["practice"]
    assert public(ada["state"]) == public(bob["state"])
    other = started(client, 2, ada["player_token"])
    # Hands of two deals can match by chance; that the five seeds differ is shown by
    # test_last_weeks_seeds_come_when_it_closes.
    assert other["counted"] and other["deal"] == 2 and other["game_id"] != ada["game_id"]
    # No practice copy of a deal while its counted race runs.
    refused = race(client, 1, ada["player_token"])
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "cup_attempt_running"
    assert refused.json()["game_id"] == ada["game_id"]
    assert cup(client, ada["player_token"])["deals"][0]["running"] == ada["game_id"]
    finish(client, ada, random.Random(1))
    again = started(client, 1, ada["player_token"])
    assert not again["counted"] and again["state"]["practice"] is True
    assert again["state"]["hand"] == ada["state"]["hand"]
    finish(client, again, random.Random(2))
    mine = cup(client, ada["player_token"])
    assert mine["board"]["ranked"] == 1 and mine["board"]["you"]["deals"] == 1
    assert [d["attempted"] for d in mine["deals"]] == [True, True, False, False, False]
    for bad in (0, 6):
        assert race(client, bad, ada["player_token"]).status_code == 422


def test_the_board_ranks_by_place_points_then_laps(client: TestClient, wall: WallClock) -> None:
    tokens = {}
    for index, (name, deals) in enumerate((("Ada", 2), ("Bob", 1), ("Cy", 3))):
        token = None
        for deal in range(1, deals + 1):
            game = started(client, deal, token, name=name)
            token = game["player_token"]
            finish(client, game, random.Random(10 * index + deal))
        tokens[name] = token
    board = cup(client)["board"]
    assert board["ranked"] == 3 and board["you"] is None
    for entry in board["entries"]:
        own = cup(client, tokens[entry["name"]])
        results = [d for d in own["deals"] if d["place"] is not None]
        assert len(results) == entry["deals"]
        for d in results:
            assert d["points"] == 5 - d["place"] and not d["left"]
        assert entry["points"] == sum(d["points"] for d in results)
        assert entry["laps"] == sum(d["laps"] for d in results)
        assert own["board"]["you"] == entry
    keys = [(-e["points"], -e["laps"]) for e in board["entries"]]
    assert keys == sorted(keys)
    assert [e["rank"] for e in board["entries"]] == sorted(e["rank"] for e in board["entries"])


def test_a_race_left_is_worth_nothing(client: TestClient, wall: WallClock) -> None:
    game = started(client, 3, name="Dee")
    state = game["state"]
    while not any(e["kind"] == "trick_won" for e in state.get("events", [])):
        action = state["legal_actions"][0]
        state = move(client, game["game_id"], game["token"], state["turn"], action).json()
    left = client.post(f"/api/games/{game['game_id']}/leave", headers=bearer(game["token"]))
    assert left.status_code == 200, left.text
    deal = cup(client, game["player_token"])["deals"][2]
    assert deal["left"] is True and deal["points"] == 0
    assert cup(client)["board"]["entries"][0]["points"] == 0


def test_last_weeks_seeds_come_when_it_closes(client: TestClient, wall: WallClock) -> None:
    game = started(client, 4, name="Eve")
    finish(client, game, random.Random(4))
    record = client.get(f"/api/games/{game['game_id']}/record", headers=bearer(game["token"]))
    assert record.json()["seed"] is None  # not while the week lasts
    wall.now += 5 * DAY  # Monday 12:00: a new week
    now = cup(client)
    assert now["week"] == "2024-W41" and now["board"]["entries"] == []
    last = now["last_week"]
    assert last["week"] == WEEK and [e["name"] for e in last["entries"]] == ["Eve"]
    seeds = last["seeds"]
    assert len(seeds) == 5 and len(set(seeds)) == 5
    record = client.get(f"/api/games/{game['game_id']}/record", headers=bearer(game["token"]))
    assert record.json()["seed"] == seeds[3]  # published: anyone can check it at /fair
    page = client.get("/cup")
    assert page.status_code == 200 and str(seeds[0]) in page.text
    # Anyone can race a closed week's deal again: the same cards, as practice.
    replay = client.post(f"/cup/replay/{WEEK}/4")
    assert replay.status_code == 303, replay.text
    replay_id = replay.headers["location"].rsplit("/", 1)[1]
    token = client.cookies.get(f"zzv_{replay_id}")
    assert token
    again = client.get(f"/api/games/{replay_id}", headers=bearer(token)).json()
    assert again["hand"] == game["state"]["hand"] and again["practice"]
    # This week's deals are secret; the rest are no closed week's deals.
    for refused in ("2024-W41/1", f"{WEEK}/6", "yesterday/1", "2024-W99/1"):
        answer = client.post(f"/cup/replay/{refused}")
        assert answer.status_code == 422 and "closed week" in answer.text, refused


def test_the_cup_page_and_its_form(client: TestClient, wall: WallClock) -> None:
    home = client.get("/")
    assert 'href="/cup"' in home.text
    page = client.get("/cup")
    assert page.status_code == 200 and "This week, Sep 30\u2009–\u2009Oct 6, 2024" in page.text
    assert len(re.findall(r'action="/cup/\d"', page.text)) == 5
    assert page.text.count('action="/cup/replay/2024-W39/') == 5  # last week's, closed
    dealt = client.post("/cup/2")
    assert dealt.status_code == 303 and dealt.headers["location"].startswith("/games/")
    page = client.get("/cup")
    assert 'id="cup-back-2"' in page.text and 'action="/cup/2"' not in page.text
    again = client.post("/cup/2")
    assert again.status_code == 409 and "still running" in again.text
    assert client.post("/cup/7").status_code == 404


def test_a_deal_finished_after_the_week_closed_counts_as_left_and_checks_out_at_fair(
    client: TestClient, wall: WallClock
) -> None:
    wall.now = WEDNESDAY + 4 * DAY + DAY / 2 - 60  # Sunday 23:59 UTC
    ada = started(client, 5, name="Ada")
    bob = started(client, 5, name="Bob")
    wall.now += 3600 + 60  # Monday 01:00: a new week, the old one can still finish
    assert cup(client)["last_week"]["seeds"] is None
    finish(client, ada, random.Random(1))
    early = client.get("/fair", params={"race": ada["game_id"]})
    assert early.status_code == 422 and "does not reveal its deal yet" in early.text
    wall.now += 3600  # 02:00: the week closes
    finish(client, bob, random.Random(2))  # finished once the seeds were public: left
    last = cup(client)["last_week"]
    assert [e["name"] for e in last["entries"]] == ["Ada", "Bob"]
    assert last["entries"][1]["points"] == 0 and last["entries"][0]["points"] >= 1
    assert len(last["seeds"]) == 5
    races = client.app.state.races  # type: ignore[attr-defined]
    client.portal.call(races.store.wipe, ada["game_id"])  # type: ignore[union-attr]
    kept = client.get("/fair", params={"race": ada["game_id"]})  # from the results' record
    assert kept.status_code == 200 and "It checks out" in kept.text


@pytest.fixture
def capped(app_with: Callable[..., FastAPI], wall: WallClock) -> Any:
    app = app_with(idle_expiry_seconds=600, daily_attempts_per_address=2)
    with TestClient(app) as home:
        yield home


def test_one_address_starts_a_bounded_number_of_counted_attempts_per_deal(
    capped: TestClient,
) -> None:
    first = started(capped, 1)
    started(capped, 1)
    full = race(capped, 1)
    assert full.status_code == 429 and full.json()["code"] == "cup_address_full"
    assert "2 counted races" in full.json()["message"] and "hand" not in full.text
    assert started(capped, 2)["counted"]  # another deal has its own count
    finish(capped, first, random.Random(3))  # practice counts against no limit
    assert not started(capped, 1, first["player_token"])["counted"]


def test_twin_deals_show_the_cup_alike_while_the_race_runs(
    client: TestClient, wall: WallClock, store: StoreProbe
) -> None:
    """The cup's page and JSON tell nothing of a running deal's hidden cards: after two bots
    swap a card each they still hold (every public fact equal), both answer byte for byte
    the same."""
    game = started(client, 1, name="Ada")
    state = game["state"]
    rng = random.Random(5)
    for _ in range(2):
        action = rng.choice(state["legal_actions"])
        state = move(client, game["game_id"], game["token"], state["turn"], action).json()
    token = game["player_token"]

    def answers() -> list[str]:
        api = client.get("/api/cup", headers={"X-Player-Token": token}).text
        return [api, client.get("/cup").text]

    before = answers()
    twin = hidden_card_twin(store.get(game["game_id"]))
    assert twin is not None
    deal, twinned = twin
    with store.edit(game["game_id"]) as edited:
        edited.start, edited.game = deal, twinned
    assert store.get(game["game_id"]).start == deal  # the hidden cards really differ now
    assert answers() == before
