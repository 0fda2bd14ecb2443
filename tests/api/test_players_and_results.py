"""Player identity and results through the API and the pages, in process, on SQLite and
on a real PostgreSQL: the player token answered on every create and join, ``/api/me``
after a finished race (and after a practice one), names, the leaderboard, the browser's
signed cookie, the one-time import of the old browser record, and the replay of a race
that left the track."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from typing import Any

import pytest
from app_kit import bearer, make_settings, move, play_out
from fastapi.testclient import TestClient
from store_kit import StoreProbe, make_store

from app.http.players import PLAYER_COOKIE
from app.main import create_app
from app.results.database import async_url
from app.results.ratings import Rating
from app.results.store import ResultsStore, pseudonym


@pytest.fixture
def kit(results_database: str) -> Iterator[tuple[TestClient, StoreProbe, ResultsStore]]:
    """An app whose results are in ``results_database``, its client and a store probe."""
    settings = make_settings()
    results = ResultsStore(async_url(results_database))
    store = make_store("memory", None)
    app = create_app(settings, store, results)
    with TestClient(app) as client:
        yield client, StoreProbe(store, client), results


def player(token: str) -> dict[str, str]:
    return {"X-Player-Token": token}


def finish_race(
    client: TestClient, token: str | None = None, seed: int = 1, **body: Any
) -> tuple[str, str, dict[str, Any]]:
    """Create a rated race (as ``token``'s player) against random bots and play it out
    (``seed`` picks the person's moves; the deal's seed is drawn by the server); its id,
    the answer's player token and the last state."""
    headers = player(token) if token else {}
    created = client.post(
        "/api/games", json={"players": 3, "bots": "random", **body}, headers=headers
    )
    assert created.status_code == 201, created.text
    data = created.json()
    states = play_out(client, data["game_id"], data["token"], data["state"], random.Random(seed))
    return data["game_id"], data["player_token"], states[-1]


def test_every_create_answers_the_player_token_sent_or_a_new_one(kit: Any) -> None:
    client, _, _ = kit
    first = client.post("/api/games", json={"bots": "random"})
    token = first.json()["player_token"]
    assert len(token) >= 40
    again = client.post("/api/games", json={"bots": "random"}, headers=player(token))
    assert again.json()["player_token"] == token
    made_up = client.post("/api/games", json={"bots": "random"}, headers=player("guess"))
    assert made_up.json()["player_token"] not in ("guess", token)


def test_me_after_a_finished_race_has_it_in_the_history_and_a_new_rating(kit: Any) -> None:
    client, _, _ = kit
    game_id, token, last = finish_race(client)
    me = client.get("/api/me", headers=player(token))
    assert me.status_code == 200, me.text
    body = me.json()
    [entry] = body["history"]
    assert entry["game_id"] == game_id and entry["players"] == 3 and entry["bots"] == "random"
    assert entry["practice"] is False
    assert entry["place"] == (1 if last["winner"] == 0 else entry["place"])
    assert entry["replay_url"].endswith(f"/games/{game_id}/replay")
    assert body["rating"]["races"] == 1
    assert body["rating"]["mu"] != Rating().mu and body["rating"]["sigma"] < Rating().sigma
    assert body["rating"]["display"] == entry["rating_after"]
    assert body["records"] == {
        "random": {"races": 1, "wins": int(entry["place"] == 1), "streak": int(entry["place"] == 1)}
    }
    # The replay link works once the race has left the track: the results keep its record.
    assert client.get(entry["replay_url"]).status_code == 200


def test_a_practice_race_is_listed_but_changes_no_rating(kit: Any) -> None:
    client, probe, _ = kit
    created = client.post("/api/games", json={"players": 3, "bots": "random", "seed": 5})
    data = created.json()
    token = data["player_token"]
    with probe.edit(data["game_id"]) as session:
        session.practice = True  # as a take-back or a race from a reviewed position sets it
    play_out(client, data["game_id"], data["token"], data["state"], random.Random(5))
    body = client.get("/api/me", headers=player(token)).json()
    [entry] = body["history"]
    assert entry["practice"] is True and entry["rating_after"] is None
    assert body["rating"] == {
        "display": 1000,
        "mu": Rating().mu,
        "sigma": Rating().sigma,
        "races": 0,
    }
    assert body["records"] == {}


def test_a_race_counts_once_however_often_it_is_read_after_the_end(kit: Any) -> None:
    client, _, _ = kit
    game_id, token, _ = finish_race(client, seed=3)
    before = client.get("/api/me", headers=player(token)).json()
    # Reads and refused moves after the end change nothing.
    assert move(client, game_id, "x" * 43, 0, {}).status_code in (401, 404, 422)
    after = client.get("/api/me", headers=player(token)).json()
    assert after["rating"] == before["rating"] and len(after["history"]) == 1


def test_me_needs_a_known_token(kit: Any) -> None:
    client, _, _ = kit
    for headers in ({}, player("nobody-has-this")):
        answer = client.get("/api/me", headers=headers)
        assert answer.status_code == 401 and answer.json()["code"] == "no_player"
        assert "X-Player-Token" in answer.json()["message"]


def test_a_player_shows_under_a_generated_name_until_they_choose_one_or_opt_out(
    kit: Any,
) -> None:
    client, _, _ = kit
    _, token, _ = finish_race(client)
    me = client.get("/api/me", headers=player(token)).json()
    [entry] = client.get("/api/leaderboard").json()["entries"]
    generated = {pseudonym(player_id) for player_id in range(1, 1000)}
    assert entry["name"] == me["name"] in generated and me["show_on_leaderboard"]
    hidden = client.put("/api/me", json={"show": False}, headers=player(token))
    assert hidden.status_code == 200
    assert client.get("/api/leaderboard").json() == {"entries": []}
    assert client.put("/api/me", json={"show": True}, headers=player(token)).status_code == 200
    assert len(client.get("/api/leaderboard").json()["entries"]) == 1


def test_a_name_is_set_checked_and_shown(kit: Any) -> None:
    client, _, _ = kit
    _, token, _ = finish_race(client)
    assert client.post("/api/me", json={"show": False}, headers=player(token)).status_code == 200
    named = client.put("/api/me", json={"name": "  Ada  "}, headers=player(token))
    assert named.status_code == 200 and named.json()["name"] == "Ada"
    assert client.get("/api/leaderboard").json() == {"entries": []}  # opted out
    too_long = client.put("/api/me", json={"name": "x" * 21, "show": True}, headers=player(token))
    assert too_long.status_code == 422 and too_long.json()["code"] == "invalid_name"
    assert "20" in too_long.json()["message"]
    me = client.get("/api/me", headers=player(token)).json()
    assert me["name"] == "Ada" and me["show_on_leaderboard"] is False  # untouched
    assert client.post("/api/me", json={"show": True}, headers=player(token)).status_code == 200
    [entry] = client.get("/api/leaderboard").json()["entries"]
    assert entry["name"] == "Ada" and entry["rank"] == 1 and entry["races"] == 1
    assert entry["rating"] == me["rating"]["display"]
    # A new player from POST /api/me alone, without any race.
    fresh = client.post("/api/me", json={"name": "Bo"})
    assert fresh.status_code == 200 and fresh.json()["player_token"] != token


def test_a_friend_joining_gets_a_player_and_the_seat_keeps_it_hidden(kit: Any) -> None:
    client, probe, _ = kit
    created = client.post("/api/games", json={"players": 3, "bots": "random", "humans": 2})
    code = created.json()["invites"][0]["code"]
    refused = client.post(f"/api/games/{created.json()['game_id']}/join", json={"code": "bad"})
    assert refused.status_code == 404 and "player_token" not in refused.json()
    joined = client.post(f"/api/games/{created.json()['game_id']}/join", json={"code": code})
    assert joined.status_code == 201
    friend = joined.json()["player_token"]
    assert friend != created.json()["player_token"]
    session = probe.get(created.json()["game_id"])
    ids = [seat.player for seat in session.lobby.seats]
    assert ids[0] is not None and ids[1] is not None and ids[0] != ids[1] and ids[2] is None
    state = client.get(
        f"/api/games/{created.json()['game_id']}", headers=bearer(joined.json()["token"])
    ).json()
    public = {"seat", "name", "person", "joined", "autopilot_moves", "away"}
    assert all(set(seat) == public for seat in state["seats"])


def test_the_browser_gets_a_signed_httponly_cookie_and_its_races(kit: Any) -> None:
    client, _, _ = kit
    started = client.post("/games", data={"players": "3", "bots": "random"}, follow_redirects=False)
    assert started.status_code == 303
    cookie = started.headers.get_list("set-cookie")
    mine = next(c for c in cookie if c.startswith(f"{PLAYER_COOKIE}="))
    assert "HttpOnly" in mine and "SameSite=lax" in mine and "Path=/" in mine
    value = client.cookies[PLAYER_COOKIE]
    token = value.rpartition(".")[0]
    # The cookie's token is the player's: the API with it reads the same player.
    assert client.get("/api/me", headers=player(token)).status_code == 200
    page = client.get("/me")
    assert page.status_code == 200 and "Your races" in page.text
    # A forged cookie is nobody: the page shows no player, and no player is made.
    other = TestClient(client.app)
    other.portal = client.portal
    other.cookies.set(PLAYER_COOKIE, f"{token}.forged")
    assert "Racing as" not in other.get("/me").text


def test_the_old_browser_record_is_imported_once(kit: Any) -> None:
    client, _, _ = kit
    old = {"record": {"easy": {"races": 4, "wins": 2, "streak": 1}}}
    first = client.post("/me/import", json=old)
    assert first.status_code == 200 and first.json() == {"imported": True}
    assert client.post("/me/import", json=old).json() == {"imported": False}
    bad = client.post("/me/import", json={"record": {"easy": {"races": 1, "wins": 5}}})
    assert bad.status_code == 422 and "record" in bad.json()["message"]
    page = client.get("/me").text
    assert "Your record against the bots" in page and ">4<" in page
    home = client.get("/").text
    assert 'id="record"' in home


def test_the_name_form_sets_the_name_and_refuses_a_long_one(kit: Any) -> None:
    client, _, _ = kit
    refused = client.post("/me", data={"name": "y" * 30})
    assert refused.status_code == 422 and "20" in refused.text
    assert PLAYER_COOKIE not in client.cookies  # a refused form makes nobody
    saved = client.post("/me", data={"name": "Ada", "show": "on"}, follow_redirects=False)
    assert saved.status_code == 303 and PLAYER_COOKIE in client.cookies
    assert "Racing as <b>Ada</b>" in client.get("/me").text


def test_a_replay_of_a_race_gone_from_the_track_comes_from_the_results(kit: Any) -> None:
    client, probe, _ = kit
    game_id, _, _ = finish_race(client, seed=4)
    probe.run(lambda: probe.store.wipe(game_id))
    assert client.get(f"/api/games/{game_id}", headers=bearer("x" * 43)).status_code == 404
    replay = client.get(f"/games/{game_id}/replay")
    assert replay.status_code == 200 and "trick" in replay.text.lower()
    assert client.get("/games/nosuchgame/replay").status_code == 404


class BrokenResults(ResultsStore):
    """A results store whose database refuses every finished race."""

    async def record_finish(self, finish: Any) -> Any:
        raise ConnectionError("the results database is down")


def test_a_race_whose_result_cannot_be_kept_still_finishes_and_its_result_waits(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = make_store("memory", None)
    app = create_app(make_settings(), store, BrokenResults("sqlite+aiosqlite://"))
    logging.getLogger("zzv").addHandler(caplog.handler)  # the app's loggers do not propagate
    try:
        with TestClient(app) as client:
            game_id, token, last = finish_race(client, seed=6)
            assert last["game_over"]  # the finishing move was answered 200 and kept
            assert client.get("/api/me", headers=player(token)).json()["history"] == []
            assert client.portal is not None
            assert list(client.portal.call(store.outbox)) == [game_id]  # kept for a retry
    finally:
        logging.getLogger("zzv").removeHandler(caplog.handler)
    failed = {r.levelname for r in caplog.records if "could not be recorded" in r.getMessage()}
    assert failed == {"ERROR"}
