"""A daily that cannot be rehearsed (docs/daily.md), through the API and the pages in
process, with the wall clock stopped: no practice copy of the deal while the counted
attempt runs, a tokenless request gets a player and counts once, a day's seed and replay
come only once its counted attempts closed (a later finish counts as left), a replay is
practice, and one address starts a bounded number of counted attempts a day."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import pytest
from app_kit import bearer
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from store_kit import ManualClock
from test_daily import DAY, NOON, TODAY, WallClock, board, daily, finish
from test_daily import wall as wall  # the stopped wall clock, a fixture shared
from test_leaving import sweep

from app.races.daily import start_counted
from app.results.models import Player
from app.results.store import ResultsStore

TOMORROW_0100 = NOON + DAY / 2 + 3600.0  # 01:00 UTC the next day: the day has not closed
TOMORROW_0200 = NOON + DAY / 2 + 7200.0  # 02:00 UTC the next day: it closes


async def player_count(results: ResultsStore) -> int:
    async with results.unit() as session:
        return int(await session.scalar(select(func.count()).select_from(Player)) or 0)


def post_daily(client: TestClient, token: str | None = None) -> Any:
    headers = {"X-Player-Token": token} if token else {}
    return client.post("/api/daily", json={}, headers=headers)


def state_of(client: TestClient, race: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/games/{race['game_id']}", headers=bearer(race["token"]))
    assert answer.status_code == 200, answer.text
    out: dict[str, Any] = answer.json()
    return out


def test_a_practice_copy_is_refused_while_the_counted_attempt_runs(
    client: TestClient, wall: WallClock, clock: ManualClock
) -> None:
    counted = daily(client, name="Ada")
    token = counted["player_token"]
    before = state_of(client, counted)
    races = client.app.state.races  # type: ignore[attr-defined]
    held = client.portal.call(races.store.count)  # type: ignore[union-attr]
    for _ in range(2):
        refused = post_daily(client, token)
        assert refused.status_code == 409, refused.text
        body = refused.json()
        assert body["code"] == "daily_attempt_running" and body["game_id"] == counted["game_id"]
        assert "finish it first" in body["message"]
        assert "hand" not in body and "state" not in body  # no deal in the refusal
    assert client.portal.call(races.store.count) == held  # type: ignore[union-attr]
    assert state_of(client, counted)["turn"] == before["turn"]
    # Walking away ends it as left (last): then practice copies may come.
    rng = random.Random(1)
    state = counted["state"]
    while not any(e["kind"] == "trick_won" for e in client.get(
        f"/api/games/{counted['game_id']}/record", headers=bearer(counted["token"])
    ).json()["events"]):  # fmt: skip
        answer = client.post(
            f"/api/games/{counted['game_id']}/actions",
            json={"turn": state["turn"], "action": rng.choice(state["legal_actions"])},
            headers=bearer(counted["token"]),
        )
        assert answer.status_code == 200, answer.text
        state = answer.json()
    assert sweep(client, clock) == 1
    [entry] = board(client)["entries"]
    assert entry["name"] == "Ada" and entry["place"] == 4 and entry["left"]
    assert '<td>4 <small class="left-race">left</small></td>' in client.get("/daily").text
    practice = daily(client, token)
    assert not practice["counted"] and practice["state"]["practice"]


def test_tokenless_daily_requests_get_an_identity_and_count_once(
    client: TestClient, wall: WallClock
) -> None:
    first = post_daily(client)
    assert first.status_code == 201, first.text
    token = first.json()["player_token"]
    assert first.json()["counted"] and len(token) >= 40
    me = client.get("/api/me", headers={"X-Player-Token": token})
    assert me.status_code == 200  # the identity is a real player
    assert post_daily(client, token).status_code == 409  # the same player: not a second count
    finish(client, first.json(), random.Random(2))
    again = daily(client, token)
    assert again["player_token"] == token and not again["counted"]
    finish(client, again, random.Random(3))
    assert board(client)["ranked"] == 1


def test_the_seed_and_replay_are_not_published_while_an_attempt_can_still_finish(
    client: TestClient, wall: WallClock
) -> None:
    wall.now = NOON + DAY / 2 - 60  # 23:59 UTC
    ada = daily(client, name="Ada")
    bob = daily(client, name="Bob")
    wall.now = TOMORROW_0100  # a new day, but the old one's attempts can still finish
    assert board(client, TODAY)["seed"] is None
    refused = client.post("/daily/replay", data={"date": TODAY})
    assert refused.status_code == 422 and "board closed" in refused.text
    page = client.get("/daily").text
    assert 'id="yesterday-closing"' in page and 'id="yesterday-seed"' not in page
    finish(client, ada, random.Random(4))
    [counted] = board(client, TODAY)["entries"]
    assert counted["name"] == "Ada" and not counted["left"]

    wall.now = TOMORROW_0200  # the day closes: its seed and replay are public
    seed = board(client, TODAY)["seed"]
    assert isinstance(seed, int)
    assert f'id="yesterday-seed">{seed}<' in client.get("/daily").text
    assert client.post("/daily/replay", data={"date": TODAY}).status_code == 303
    finish(client, bob, random.Random(5))  # finished once the seed was public: left, last
    entries = board(client, TODAY)["entries"]
    assert [e["name"] for e in entries] == ["Ada", "Bob"]
    assert entries[1]["left"] and entries[1]["place"] == 4


def test_a_replayed_daily_is_practice(client: TestClient, wall: WallClock) -> None:
    first = daily(client, name="Eve")
    finish(client, first, random.Random(6))
    wall.now += DAY
    replay = client.post("/daily/replay", data={"date": TODAY})
    assert replay.status_code == 303
    game_id = replay.headers["location"].rsplit("/", 1)[1]
    token = client.cookies.get(f"zzv_{game_id}")
    assert token
    race: dict[str, Any] = {"game_id": game_id, "token": token}
    race["state"] = state_of(client, race)
    assert race["state"]["practice"] and race["state"]["hand"] == first["state"]["hand"]
    finish(client, race, random.Random(7))
    player = client.cookies.get("zzv_player")
    assert player
    me = client.get("/api/me", headers={"X-Player-Token": player.rpartition(".")[0]}).json()
    [entry] = me["history"]
    assert entry["practice"] and entry["rating_after"] is None
    assert me["rating"]["races"] == 0


@pytest.fixture
def capped(app_with: Callable[..., FastAPI], wall: WallClock) -> Any:
    app = app_with(idle_expiry_seconds=600, daily_attempts_per_address=2)
    with TestClient(app) as home:
        yield home


def test_the_per_address_limit(capped: TestClient) -> None:
    home = capped
    first = daily(home)
    daily(home)
    results = home.app.state.results  # type: ignore[attr-defined]
    made = home.portal.call(player_count, results)  # type: ignore[union-attr]
    full = post_daily(home)
    assert full.status_code == 429 and full.json()["code"] == "daily_address_full"
    assert "2 counted races" in full.json()["message"]
    assert home.portal.call(player_count, results) == made  # type: ignore[union-attr]
    # Another address has its own count (the in-process client has one address).
    races = home.app.state.races  # type: ignore[attr-defined]
    someone, _ = home.portal.call(results.create_player)  # type: ignore[union-attr]
    start = functools.partial(start_counted, races, None, someone.id, "other", None, "192.0.2.7")
    assert home.portal.call(start).counted  # type: ignore[union-attr]
    finish(home, first, random.Random(8))  # practice counts against no limit
    assert not daily(home, first["player_token"])["counted"]
    assert board(home)["ranked"] == 1


def test_everyone_meets_the_same_bots_on_the_daily(client: TestClient, wall: WallClock) -> None:
    """Two players who make the same moves on the day's deal see the same race: the daily's
    bots draw their randomness from the day, not from a secret of each race."""
    ada, bea = daily(client, name="Ada"), daily(client, name="Bea")
    assert ada["state"]["hand"] == bea["state"]["hand"]
    finish(client, ada, random.Random(5))
    finish(client, bea, random.Random(5))

    def events(race: dict[str, Any]) -> list[dict[str, Any]]:
        record = client.get(
            f"/api/games/{race['game_id']}/record", headers=bearer(race["token"])
        ).json()
        return list(record["events"])

    assert events(ada) == events(bea)


def test_a_daily_attempts_deal_is_revealed_and_checkable_once_its_day_closed(
    client: TestClient, wall: WallClock
) -> None:
    ada = daily(client, name="Ada")
    finish(client, ada, random.Random(7))
    game_id = ada["game_id"]

    def record() -> dict[str, Any]:
        answer = client.get(f"/api/games/{game_id}/record", headers=bearer(ada["token"]))
        out: dict[str, Any] = answer.json()
        return out

    held = record()
    assert held["complete"] and held["commitment"]
    assert all(held.get(f) is None for f in ("seed", "deal_seed", "salt", "actions", "bot_key"))
    early = client.get("/fair", params={"race": game_id})
    assert early.status_code == 422 and "does not reveal its deal yet" in early.text
    wall.now = TOMORROW_0200  # the day closes
    shown = record()
    assert shown["seed"] == board(client, TODAY)["seed"] and shown["actions"]
    checked = client.get("/fair", params={"race": game_id})
    assert checked.status_code == 200 and "It checks out" in checked.text
    # Once the live race is gone, the record kept with the results reveals it the same way.
    races = client.app.state.races  # type: ignore[attr-defined]
    client.portal.call(races.store.wipe, game_id)  # type: ignore[union-attr]
    kept = client.get("/fair", params={"race": game_id})
    assert kept.status_code == 200 and "It checks out" in kept.text
