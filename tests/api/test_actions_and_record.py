"""POST /api/games/{id}/actions and GET /api/games/{id}/record, every error code included."""

from __future__ import annotations

import random
from typing import Any

import pytest
from app_kit import bearer, create, move, play_out
from fastapi.testclient import TestClient
from store_kit import ManualClock

from app.http.api.models import GameRecord, GameState


def test_move_applies_human_and_bot_turns_and_bumps_turn(client: TestClient) -> None:
    game_id, token, state = create(client, players=4, seed=11, bots="random")
    action = state["legal_actions"][0]
    response = move(client, game_id, token, 0, action)
    assert response.status_code == 200
    after = response.json()
    GameState.model_validate(after)
    assert after["turn"] == 1
    kinds = [(e["kind"], e["seat"]) for e in after["events"]]
    assert kinds[0][1] == 0, "the human's own move comes first"
    seats_played = {seat for kind, seat in kinds if kind in ("card_played", "tuned_up")}
    assert seats_played >= {0}
    assert after["current_seat"] in (0, None)
    assert after["event_count"] == len(state["events"]) + len(after["events"])


def test_illegal_action_is_400_with_the_engines_sentence(client: TestClient) -> None:
    game_id, token, state = create(client, seed=3)
    missing = next(
        s
        # The base deck has no zero cards, so the search always ends.
        for s in ("lichen", "salty", "chippy", "jelly", "beans", "slippy", "zero")
        if s not in state["hand"]
    )
    response = move(client, game_id, token, 0, {"type": "play", "suit": missing, "gas": 0})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal_action"
    racer = {
        "lichen": "Lichen the Sasquatch",
        "salty": "Cap'n Salty the Puffin",
        "chippy": "Chippy the Beaver",
        "jelly": "Jelly the Raccoon",
        "beans": "Beans the Possum",
        "slippy": "Slippy the Salmon",
    }[missing]
    assert body["message"] == f"You have no {racer} card in your hand."
    # R7: a card must be in the hand; the reason as data, for bots
    assert body["reason"] == {"code": "card_not_in_hand", "rule": "R7", "suit": missing}
    # the state is untouched: the same turn still works
    assert move(client, game_id, token, 0, state["legal_actions"][0]).status_code == 200


@pytest.mark.parametrize(
    "payload",
    [
        {"turn": 0},
        {"action": {"type": "tune_up", "suit": "jelly"}},
        {"turn": 0, "action": {"type": "jump"}},
        {"turn": 0, "action": {"type": "play", "suit": "banana"}},
        {"turn": 0, "action": {"type": "play", "suit": "salty", "gas": 9}},
        {"turn": 0, "action": {"type": "play", "suit": "salty", "gas": "1"}},
        {"turn": 0, "action": {"type": "play", "suit": "salty", "cheat": True}},
        {"turn": "0", "action": {"type": "tune_up", "suit": "jelly"}},
        {"turn": -1, "action": {"type": "tune_up", "suit": "jelly"}},
        {"turn": 0, "action": {"type": "tune_up", "suit": "jelly"}, "extra": 1},
    ],
)
def test_malformed_action_is_422(client: TestClient, payload: dict[str, Any]) -> None:
    game_id, token, _ = create(client)
    response = client.post(f"/api/games/{game_id}/actions", json=payload, headers=bearer(token))
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_request"
    # The sentence names the first field at fault, as the errors list does.
    first = body["errors"][0]
    field = ".".join(first["loc"][1:])
    assert body["message"].startswith("The request does not match the expected format: ")
    assert f": {field}: {first['msg']}" in body["message"], body["message"]


def test_non_json_body_is_422(client: TestClient) -> None:
    game_id, token, _ = create(client)
    response = client.post(
        f"/api/games/{game_id}/actions",
        content=b"turn=0",
        headers={**bearer(token), "Content-Type": "application/json"},
    )
    assert response.status_code == 422
    assert response.json()["message"] == "The request body is not valid JSON."


def test_stale_turn_is_409_with_current_state(client: TestClient) -> None:
    game_id, token, state = create(client, seed=8)
    first = move(client, game_id, token, 0, state["legal_actions"][0])
    assert first.status_code == 200
    again = move(client, game_id, token, 0, state["legal_actions"][0])
    assert again.status_code == 409
    body = again.json()
    assert body["code"] == "stale_turn"
    GameState.model_validate(body["state"])
    assert body["state"]["turn"] == 1
    assert body["state"]["hand"] == first.json()["hand"]
    future = move(client, game_id, token, 5, state["legal_actions"][0])
    assert future.status_code == 409
    assert future.json()["message"] == (
        "That move is for turn 5, which has not come yet: the race is at turn 1. "
        "Here is the race as it stands now."
    )
    assert "earlier turn" in again.json()["message"]


def test_action_for_unknown_game_or_wrong_token_is_404(client: TestClient) -> None:
    game_id, token, state = create(client)
    action = state["legal_actions"][0]
    assert move(client, "nope", token, 0, action).status_code == 404
    _other_id, other_token, _ = create(client)
    # a valid token of another race does not open this one
    response = move(client, game_id, other_token, 0, action)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    # and nothing was applied
    assert client.get(f"/api/games/{game_id}", headers=bearer(token)).json()["turn"] == 0


def test_expired_game_is_410_for_its_owner_and_404_for_others(
    app_with: Any, clock: ManualClock
) -> None:
    with TestClient(app_with(idle_expiry_seconds=60)) as client:
        game_id, token, state = create(client)
        clock.now += 59
        assert client.get(f"/api/games/{game_id}", headers=bearer(token)).status_code == 200
        clock.now += 61
        gone = client.get(f"/api/games/{game_id}", headers=bearer(token))
        assert gone.status_code == 410
        assert gone.json()["code"] == "expired"
        assert "expired" in gone.json()["message"]
        assert move(client, game_id, token, 0, state["legal_actions"][0]).status_code == 410
        stranger = client.get(f"/api/games/{game_id}", headers=bearer("x" * 43))
        assert stranger.status_code == 404


@pytest.mark.parametrize(
    ("players", "variants"),
    [
        (3, {}),
        (4, {"zero_suit": "chippy"}),
        (5, {"larger_hands": True, "zero_five": True}),
        (4, {"larger_hands": True, "zero_suit": "jelly", "zero_five": True}),
    ],
)
def test_whole_games_through_the_api_only(
    client: TestClient, players: int, variants: dict[str, Any]
) -> None:
    rng = random.Random(players)
    game_id, token, state = create(
        client, players=players, variants=variants, bots="random", seed=players * 31
    )
    states = play_out(client, game_id, token, state, rng)
    final = states[-1]
    assert final["game_over"] and final["winner"] is not None
    assert final["players"][final["winner"]]["laps"] == 2
    assert [s["turn"] for s in states] == list(range(len(states)))
    events = [e for s in states for e in s["events"]]
    assert events[-1]["kind"] == "game_won"
    assert sum(1 for e in events if e["kind"] == "game_won") == 1
    # the human moved exactly once per turn counted
    human_turns = sum(
        1
        for e in events
        if e["seat"] == 0 and e["kind"] in ("card_played", "tuned_up", "zero_five_played")
    )
    assert human_turns == final["turn"]
    record = client.get(f"/api/games/{game_id}/record", headers=bearer(token))
    assert record.status_code == 200
    data = record.json()
    GameRecord.model_validate(data)
    assert data["complete"] is True and data["winner"] == final["winner"]
    assert data["events"] == events
    assert data["seed"] == players * 31
    after_end = move(client, game_id, token, final["turn"], {"type": "tune_up", "suit": "jelly"})
    assert after_end.status_code == 400


def test_record_is_partial_and_seedless_until_the_end(client: TestClient) -> None:
    game_id, token, state = create(client, bots="random")
    response = client.get(f"/api/games/{game_id}/record", headers=bearer(token))
    assert response.status_code == 200
    record = response.json()
    GameRecord.model_validate(record)
    assert record["complete"] is False
    assert record["seed"] is None  # a server-drawn seed stays secret while racing
    assert record["winner"] is None
    assert record["events"] == state["events"]
    assert record["settings"] == {"players": 4, "bots": "random", "variants": state["variants"]}
    final = play_out(client, game_id, token, state, random.Random(1))[-1]
    done = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
    assert done["complete"] is True and isinstance(done["seed"], int)
    assert done["winner"] == final["winner"]


def test_record_needs_the_token(client: TestClient) -> None:
    game_id, _token, _ = create(client)
    assert client.get(f"/api/games/{game_id}/record").status_code == 401
    assert client.get("/api/games/zzz/record", headers=bearer("t" * 43)).status_code == 404
