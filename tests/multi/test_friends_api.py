"""Races with friends through the JSON API, in process: invites, joining, starting, turns,
the turn clock's autopilot, and that no seat's or spectator's answer depends on any card
that seat may not see."""

from __future__ import annotations

import random
from typing import Any

import pytest
from app_kit import bearer, move
from fastapi import FastAPI
from fastapi.testclient import TestClient
from store_kit import ManualClock, StoreProbe

from app.races import operations as sessions
from app.races.lobby import AWAY_AFTER
from engine import Game


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The turn clock's time, moved by hand: ``frozen[0] += seconds``."""
    now = [1_000_000.0]
    monkeypatch.setattr(sessions, "wall_clock", lambda: now[0])
    return now


def create_friends(client: TestClient, **body: Any) -> dict[str, Any]:
    """POST /api/games for a race with friends; the whole answer."""
    response = client.post("/api/games", json={"bots": "random", **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


def join(client: TestClient, game_id: str, code: str, name: str | None = None) -> Any:
    """POST /api/games/{id}/join."""
    body = {"code": code} if name is None else {"code": code, "name": name}
    return client.post(f"/api/games/{game_id}/join", json=body)


def test_invites_are_single_use_codes_and_the_race_waits_for_them(client: TestClient) -> None:
    created = create_friends(client, players=5, humans=3)
    game_id, token = created["game_id"], created["token"]
    assert created["state"]["status"] == "waiting"
    assert [i["seat"] for i in created["invites"]] == [1, 2]
    codes = [i["code"] for i in created["invites"]]
    assert token not in codes and len(set(codes)) == 2
    seats = created["state"]["seats"]
    assert [(s["person"], s["joined"]) for s in seats] == [
        (True, True),
        (True, False),
        (True, False),
        (False, False),
        (False, False),
    ]
    early = move(client, game_id, token, 0, {"type": "tune_up", "suit": "salty"})
    assert early.status_code == 409 and early.json()["code"] == "not_started"

    unknown = join(client, game_id, "not-a-code")
    assert unknown.status_code == 404 and unknown.json()["code"] == "invite_not_found"
    assert join(client, game_id, token).status_code == 404  # a token is no invite
    too_long = join(client, game_id, codes[0], "x" * 21)
    assert too_long.status_code == 422 and too_long.json()["code"] == "invalid_name"

    first = join(client, game_id, codes[0], "  Ada  ")
    assert first.status_code == 201, first.text
    assert first.json()["seat"] == 1 and first.json()["state"]["status"] == "waiting"
    assert first.json()["state"]["seats"][1]["name"] == "Ada"
    again = join(client, game_id, codes[0])
    assert again.status_code == 409 and again.json()["code"] == "invite_used"

    second = join(client, game_id, codes[1])
    assert second.status_code == 201
    state = second.json()["state"]
    assert state["status"] == "playing" and state["seats"][2]["name"] == "Player 3"
    tokens = {token, first.json()["token"], second.json()["token"]}
    assert len(tokens) == 3


def test_only_the_creator_starts_early_and_empty_seats_become_bots(client: TestClient) -> None:
    created = create_friends(client, players=4, humans=3)
    game_id, token = created["game_id"], created["token"]
    joined = join(client, game_id, created["invites"][0]["code"]).json()
    refused = client.post(f"/api/games/{game_id}/start", headers=bearer(joined["token"]))
    assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
    assert client.post(f"/api/games/{game_id}/start").status_code == 401

    started = client.post(f"/api/games/{game_id}/start", headers=bearer(token))
    assert started.status_code == 200, started.text
    state = started.json()
    assert state["status"] == "playing"
    assert [s["person"] for s in state["seats"]] == [True, True, False, False]
    late = join(client, game_id, created["invites"][1]["code"])
    assert late.status_code == 409 and late.json()["code"] == "race_started"
    # The closed invite stays closed: asking again gets the same answer, and no seat changes.
    again = join(client, game_id, created["invites"][1]["code"])
    assert again.status_code == 409 and again.json()["code"] == "race_started"
    after = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    assert [s["person"] for s in after["seats"]] == [True, True, False, False]


def test_humans_must_fit_the_table(client: TestClient) -> None:
    response = client.post("/api/games", json={"players": 3, "humans": 4})
    assert response.status_code == 422
    solo = create_friends(client)
    assert solo["invites"] == [] and solo["state"]["status"] == "playing"
    assert solo["state"]["clock"] is None


def _seat_tokens(client: TestClient, players: int, humans: int) -> tuple[str, dict[int, str]]:
    created = create_friends(client, players=players, humans=humans)
    tokens = {0: created["token"]}
    for invite in created["invites"]:
        tokens[invite["seat"]] = join(client, created["game_id"], invite["code"]).json()["token"]
    return created["game_id"], tokens


def _state(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", headers=bearer(token))
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_the_turn_clock_moves_for_a_person_who_never_does(
    app: FastAPI, client: TestClient, store: StoreProbe, frozen: list[float]
) -> None:
    """Seat 1 never moves: each time its clock runs out the autopilot plays for it, until
    it ran out twice in a row; the seat is then away and a bot plays it at once."""
    game_id, tokens = _seat_tokens(client, players=3, humans=2)
    rng = random.Random(3)
    turn_seconds = app.state.settings.turn_seconds
    waited = 0
    for _ in range(2000):
        state = _state(client, game_id, tokens[0])
        if state["status"] == "over":
            break
        if state["current_seat"] == 0:
            assert state["clock"]["seat"] == 0
            response = move(
                client, game_id, tokens[0], state["turn"], rng.choice(state["legal_actions"])
            )
            assert response.status_code == 200, response.text
            continue
        assert state["current_seat"] == 1 and state["clock"]["seat"] == 1
        before = state["turn"]
        frozen[0] += turn_seconds - 1
        assert _state(client, game_id, tokens[0])["turn"] == before  # not yet
        frozen[0] += 1
        after = _state(client, game_id, tokens[0])
        assert after["turn"] == before + 1
        assert after["autopilot"] == {"seat": 1, "turn": before + 1}
        waited += 1
    else:
        raise AssertionError("the race did not end")
    assert waited == AWAY_AFTER
    assert state["seats"][1]["autopilot_moves"] == waited and state["seats"][1]["away"]
    assert store.get(game_id).game.is_over


# ------------------------------------------------------------------ hidden cards, every seat


def hidden_twin(game: Game, viewer: int | None, rng: random.Random) -> Game | None:
    """The same public position with every card ``viewer`` cannot see dealt differently:
    other seats' hands, Tune Ups in the trick, discards, set-aside cards (None: nothing to
    swap). ``viewer`` None is a spectator, who sees no hand at all."""
    data = game.to_dict()
    slots: list[tuple[str, int, int]] = []
    pool: list[str] = []
    for seat in range(game.players):
        if seat != viewer:
            for pos, card in enumerate(data["hands"][seat]):
                slots.append(("hand", seat, pos))
                pool.append(card)
    for i, play in enumerate(data["plays"]):
        if play["type"] == "tune_up":
            slots.append(("play", i, 0))
            pool.append(play["card"])
    for where in ("discards", "set_aside"):
        for pos, card in enumerate(data[where]):
            slots.append((where, 0, pos))
            pool.append(card)
    if len(set(pool)) < 2:
        return None
    shuffled = pool[:]
    while shuffled == pool:
        rng.shuffle(shuffled)
    twin = {
        **data,
        "hands": [list(h) for h in data["hands"]],
        "plays": [dict(p) for p in data["plays"]],
    }
    twin["discards"], twin["set_aside"] = list(data["discards"]), list(data["set_aside"])
    for (where, index, pos), card in zip(slots, shuffled, strict=True):
        if where == "hand":
            twin["hands"][index][pos] = card
        elif where == "play":
            twin["plays"][index]["card"] = card
        else:
            twin[where][pos] = card
    return Game.from_dict(twin)


def _answers(
    client: TestClient, game_id: str, viewer: int | None, tokens: dict[int, str]
) -> dict[str, Any]:
    """Every answer ``viewer`` can get now without changing the race."""
    if viewer is None:
        return {
            "watch": client.get(f"/games/{game_id}/watch").text,
            "watch_fragment": client.get(
                f"/games/{game_id}/watch", headers={"HX-Request": "true"}
            ).text,
        }
    token = tokens[viewer]
    cookie = {"Cookie": f"zzv_{game_id}={token}"}
    return {
        "state": client.get(f"/api/games/{game_id}?since=0", headers=bearer(token)).json(),
        "record": client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json(),
        "page": client.get(f"/games/{game_id}", headers=cookie).text,
        "fragment": client.get(f"/games/{game_id}", headers={**cookie, "HX-Request": "true"}).text,
    }


def test_no_seat_or_spectator_answer_depends_on_cards_it_cannot_see(
    client: TestClient, store: StoreProbe, frozen: list[float]
) -> None:
    game_id, tokens = _seat_tokens(client, players=4, humans=3)
    rng = random.Random(8)
    compared = 0
    for step in range(60):
        real = store.get(game_id).game
        if real.is_over:
            break
        if step % 6 == 0:
            for viewer in (0, 1, 2, None):
                twin = hidden_twin(real, viewer, rng)
                if twin is None:
                    continue
                before = _answers(client, game_id, viewer, tokens)
                with store.edit(game_id) as session:
                    session.game = twin
                try:
                    after = _answers(client, game_id, viewer, tokens)
                finally:
                    with store.edit(game_id) as session:
                        session.game = real
                for key in before:
                    assert before[key] == after[key], f"{key} of {viewer} depends on hidden cards"
                compared += 1
        state = _state(client, game_id, tokens[real.current_seat])
        response = move(
            client,
            game_id,
            tokens[state["seat"]],
            state["turn"],
            rng.choice(state["legal_actions"]),
        )
        assert response.status_code == 200, response.text
    assert compared >= 8


def test_every_seat_of_an_expired_race_hears_410_and_strangers_404(
    app_with: Any, clock: ManualClock
) -> None:
    """The store remembers every joined seat's digest after the race is gone, so the
    friend who joined gets the same "expired" answer as the creator."""
    with TestClient(app_with(idle_expiry_seconds=60), follow_redirects=False) as client:
        created = create_friends(client, players=3, humans=2)
        game_id = created["game_id"]
        joined = join(client, game_id, created["invites"][0]["code"], "Ada")
        assert joined.status_code == 201, joined.text
        friend_token = joined.json()["token"]
        clock.now += 61
        for token in (created["token"], friend_token):
            gone = client.get(f"/api/games/{game_id}", headers=bearer(token))
            assert gone.status_code == 410 and gone.json()["code"] == "expired"
            page = client.get(f"/games/{game_id}", headers={"Cookie": f"zzv_{game_id}={token}"})
            assert page.status_code == 410 and "cleared from the track" in page.text
        stranger = client.get(f"/api/games/{game_id}", headers=bearer("z" * 43))
        assert stranger.status_code == 404


def test_an_away_seat_reveals_no_hidden_card(
    app: FastAPI, client: TestClient, store: StoreProbe, frozen: list[float]
) -> None:
    """Seat 1 is away (a bot plays it): what every seat, the away one included, and a
    spectator get, and the answer of "I'm back", are the same on a twin deal."""
    game_id, tokens = _seat_tokens(client, players=4, humans=3)
    rng = random.Random(61)
    for _ in range(400):
        state = _state(client, game_id, tokens[0])
        if state["seats"][1]["away"]:
            break
        seat = state["current_seat"]
        if seat == 1:
            frozen[0] += app.state.settings.turn_seconds
            continue
        own = _state(client, game_id, tokens[seat])
        action = rng.choice(own["legal_actions"])
        response = move(client, game_id, tokens[seat], own["turn"], action)
        assert response.status_code == 200, response.text
    assert state["seats"][1]["away"] and state["status"] == "playing"
    real = store.get(game_id).game
    compared = 0
    for viewer in (0, 1, None):
        twin = hidden_twin(real, viewer, rng)
        assert twin is not None
        before = _answers(client, game_id, viewer, tokens)
        with store.edit(game_id) as session:
            session.game = twin
        try:
            after = _answers(client, game_id, viewer, tokens)
        finally:
            with store.edit(game_id) as session:
                session.game = real
        assert before == after, f"{viewer}'s answers depend on hidden cards"
        compared += 1
    assert "is away: a bot is playing." in before["watch"]
    assert compared == 3
    answers = []
    for game in (real, hidden_twin(real, 1, rng)):
        with store.edit(game_id) as session:
            assert game is not None
            session.game = game
            session.lobby.timeouts[1] = AWAY_AFTER
        back = client.post(f"/api/games/{game_id}/back", headers=bearer(tokens[1]))
        assert back.status_code == 200, back.text
        answers.append(back.json())
    assert answers[0] == answers[1] and not answers[0]["seats"][1]["away"]
