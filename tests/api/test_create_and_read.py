"""POST /api/games and GET /api/games/{id}: shapes, defaults, validation, seeds."""

from __future__ import annotations

from typing import Any

import pytest
from app_kit import bearer, create
from fastapi.testclient import TestClient
from store_kit import ManualClock

from app.http.api.models import CreatedGame, GameState


def test_create_returns_201_with_id_token_and_state_for_seat_0(client: TestClient) -> None:
    response = client.post("/api/games", json={"players": 4, "bots": "easy"})
    assert response.status_code == 201
    body = response.json()
    CreatedGame.model_validate(body, strict=False)
    state = body["state"]
    assert state["seat"] == 0
    assert state["players_count"] == 4
    assert state["turn"] == 0
    assert state["current_seat"] == 0  # bots who lead have already played
    assert state["legal_actions"], "the human must have something to do"
    assert state["events"][0]["kind"] == "round_dealt"


def test_token_is_long_random_and_separate_from_the_id(client: TestClient) -> None:
    ids, tokens = set(), set()
    for _ in range(5):
        game_id, token, _state = create(client)
        assert token != game_id and game_id not in token and token not in game_id
        # token_urlsafe(32): 256 bits encoded in 43 characters (>= 128 bits required)
        assert len(token) >= 43
        ids.add(game_id)
        tokens.add(token)
    assert len(ids) == 5 and len(tokens) == 5


def test_empty_body_uses_defaults(client: TestClient) -> None:
    response = client.post("/api/games")
    assert response.status_code == 201
    state = response.json()["state"]
    assert state["players_count"] == 4
    assert state["variants"] == {"larger_hands": False, "zero_suit": None, "zero_five": False}


@pytest.mark.parametrize("players", [3, 5])
def test_variants_and_players_reach_the_engine(client: TestClient, players: int) -> None:
    variants = {"larger_hands": True, "zero_suit": "salty", "zero_five": True}
    _gid, _tok, state = create(client, players=players, variants=variants, bots="random")
    assert state["players_count"] == players
    assert state["variants"] == variants
    assert state["deck"]["copies"].get("zero") == 6
    assert state["zero_five_available"] is True


def test_same_seed_same_deal(client: TestClient) -> None:
    """The same seed deals the same cards (the bots' moves are each race's own)."""
    _a, _ta, first = create(client, players=4, seed=1234, bots="random")
    _b, _tb, second = create(client, players=4, seed=1234, bots="random")
    _c, _tc, other = create(client, players=4, seed=999, bots="random")
    assert first["events"][0] == second["events"][0] and first["events"][0]["kind"] == "round_dealt"
    assert first["hand"] == second["hand"]
    assert (first["hand"], first["lead"]) != (other["hand"], other["lead"]) or first[
        "events"
    ] != other["events"]


@pytest.mark.parametrize(
    "body",
    [
        {"players": 6},
        {"players": 2},
        {"players": "4"},
        {"players": True},
        {"bots": "genius"},
        {"variants": {"larger_hands": True, "extra": 1}},
        {"variants": {"zero_suit": "zero"}},
        {"seed": -1},
        {"seed": 1.5},
        {"colour": "red"},
        [],
        "hello",
    ],
)
def test_malformed_create_is_422_with_code(client: TestClient, body: Any) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    data = response.json()
    assert data["code"] == "invalid_request"
    assert data["message"]
    assert data["errors"] and all({"loc", "msg", "type"} == set(e) for e in data["errors"])


def test_get_returns_state_and_only_new_events(client: TestClient) -> None:
    game_id, token, created = create(client, seed=5)
    first = client.get(f"/api/games/{game_id}", headers=bearer(token))
    assert first.status_code == 200
    state = first.json()
    GameState.model_validate(state)
    assert state["events"] == []  # everything was delivered with the creation
    assert state["hand"] == created["hand"]
    replay = client.get(f"/api/games/{game_id}", params={"since": 0}, headers=bearer(token))
    assert replay.json()["events"] == created["events"]
    assert replay.json()["event_count"] == len(created["events"])


def test_unknown_game_and_wrong_token_are_the_same_404(client: TestClient) -> None:
    game_id, token, _ = create(client)
    wrong = client.get(f"/api/games/{game_id}", headers=bearer(token[:-2] + "xx"))
    unknown = client.get("/api/games/doesnotexist", headers=bearer(token))
    for response in (wrong, unknown):
        assert response.status_code == 404
    assert wrong.json() == unknown.json()
    assert wrong.json()["code"] == "not_found"


def test_a_method_the_address_does_not_take_is_405_naming_those_it_does(
    client: TestClient,
) -> None:
    response = client.delete("/api/games")
    assert response.status_code == 405 and response.headers["allow"] == "POST"
    assert response.json() == {
        "code": "method_not_allowed",
        "message": "This address does not take DELETE requests; it takes POST.",
    }
    # One address with a route per method names all of them.
    review = client.put("/api/games/any/review")
    assert review.status_code == 405 and review.headers["allow"] == "GET, HEAD, POST"
    # A program asking for JSON is told the methods even where a person would get a page.
    programs = client.get("/quick", headers={"accept": "application/json"})
    assert programs.json()["message"] == "This address does not take GET requests; it takes POST."


def test_no_token_is_401_whether_or_not_the_game_exists(client: TestClient) -> None:
    game_id, _token, _ = create(client)
    real = client.get(f"/api/games/{game_id}")
    fake = client.get("/api/games/doesnotexist")
    assert real.status_code == fake.status_code == 401
    assert real.json() == fake.json()
    assert real.json()["code"] == "unauthorized"
    assert real.headers["www-authenticate"] == "Bearer"


def test_cookie_is_not_accepted_by_the_api(client: TestClient) -> None:
    game_id, token, _ = create(client)
    client.cookies.set(f"zzv_{game_id}", token)
    assert client.get(f"/api/games/{game_id}").status_code == 401


def test_openapi_documents_every_endpoint_with_examples(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    assert set(paths["/api/games"]) == {"post"}
    assert "get" in paths["/api/games/{game_id}"]
    assert "post" in paths["/api/games/{game_id}/actions"]
    assert "get" in paths["/api/games/{game_id}/record"]
    for status in ("400", "404", "409", "410", "422", "429"):
        assert status in paths["/api/games/{game_id}/actions"]["post"]["responses"]
    components = schema["components"]["schemas"]
    assert components["MoveIn"]["examples"]
    assert components["CreateGame"]["examples"]
    assert components["MoveIn"]["additionalProperties"] is False
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


def test_full_store_of_active_races_refuses_creation_with_503(app_with: Any) -> None:
    with TestClient(app_with(max_games=2, evict_min_idle_seconds=3600)) as client:
        create(client)
        create(client)
        refused = client.post("/api/games", json={})
        assert refused.status_code == 503
        assert refused.json()["code"] == "server_full"
        assert int(refused.headers["retry-after"]) > 0


def test_full_store_evicts_an_idle_race_to_admit_a_new_one(
    app_with: Any, clock: ManualClock
) -> None:
    with TestClient(app_with(max_games=2, evict_min_idle_seconds=0)) as client:
        first_id, first_token, _ = create(client)
        clock.now += 1  # the first race is the least recently used one
        create(client)
        clock.now += 1
        create(client)
        gone = client.get(f"/api/games/{first_id}", headers=bearer(first_token))
        assert gone.status_code == 410  # evicted races read as expired to their owner
