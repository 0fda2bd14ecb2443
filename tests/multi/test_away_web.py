"""Away and back and the rematch's forms without JavaScript, in process on every store: the
away seat's table has "I'm back" (a plain form, 303 back to the table; a second tap only
shows the table), the others' tables say who is away, and a rematch answer that cannot be
given is refused with a sentence, changing nothing."""

from __future__ import annotations

import random

import pytest
from app_kit import bearer, move
from fastapi import FastAPI
from fastapi.testclient import TestClient
from store_kit import StoreProbe

from app.races import operations


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The turn clock's time, moved by hand: ``frozen[0] += seconds``."""
    now = [1_000_000.0]
    monkeypatch.setattr(operations, "wall_clock", lambda: now[0])
    return now


def _away_race(app: FastAPI, client: TestClient, frozen: list[float]) -> tuple[str, list[str]]:
    """A race of 3 with 2 people; seat 1's clock runs out until it is away."""
    created = client.post("/api/games", json={"players": 3, "humans": 2, "bots": "random"})
    game_id, token = created.json()["game_id"], created.json()["token"]
    code = created.json()["invites"][0]["code"]
    joined = client.post(f"/api/games/{game_id}/join", json={"code": code, "name": "Bea"})
    tokens = [token, joined.json()["token"]]
    rng = random.Random(5)
    for _ in range(400):
        state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
        if state["seats"][1]["away"]:
            return game_id, tokens
        if state["current_seat"] == 1:
            frozen[0] += app.state.settings.turn_seconds
        else:
            action = rng.choice(state["legal_actions"])
            assert move(client, game_id, token, state["turn"], action).status_code == 200
    raise AssertionError("seat 1 never went away")


def test_im_back_is_a_plain_form(
    app: FastAPI, client: TestClient, store: StoreProbe, frozen: list[float]
) -> None:
    game_id, tokens = _away_race(app, client, frozen)
    cookie = f"zzv_{game_id}"
    client.cookies.set(cookie, tokens[0])
    assert "Bea is away: a bot is playing." in client.get(f"/games/{game_id}").text
    client.cookies.set(cookie, tokens[1])
    page = client.get(f"/games/{game_id}").text
    assert "You are away: a bot is playing your seat" in page
    assert f'<form method="post" action="/games/{game_id}/back"' in page

    back = client.post(f"/games/{game_id}/back", follow_redirects=False)
    assert back.status_code == 303 and back.headers["location"] == f"/games/{game_id}"
    assert not store.get(game_id).lobby.is_away(1)
    page = client.get(f"/games/{game_id}").text
    assert 'id="away"' not in page and 'id="im-back"' not in page
    again = client.post(f"/games/{game_id}/back", follow_redirects=False)
    assert again.status_code == 303  # a second tap: the table, already back

    client.cookies.clear()
    stranger = client.post(f"/games/{game_id}/back", follow_redirects=False)
    assert stranger.status_code == 404


def test_rematch_answers_refused_while_the_race_runs(
    app: FastAPI, client: TestClient, store: StoreProbe, frozen: list[float]
) -> None:
    game_id, tokens = _away_race(app, client, frozen)
    before = store.get(game_id).lobby.to_dict()
    api = client.post(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0]))
    assert api.status_code == 409 and api.json()["code"] == "rematch_unavailable"
    assert api.json()["message"]
    decline = client.post(f"/api/games/{game_id}/rematch/decline", headers=bearer(tokens[0]))
    assert decline.status_code == 409 and decline.json()["code"] == "no_rematch"
    client.cookies.set(f"zzv_{game_id}", tokens[0])
    page = client.post(f"/games/{game_id}/rematch/decline", follow_redirects=False)
    assert page.status_code == 409 and "Nobody offered a rematch" in page.text
    assert store.get(game_id).lobby.to_dict() == before
