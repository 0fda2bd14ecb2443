"""Take-backs against bots (``POST /api/games/{id}/takeback`` and the table's button).

A take-back rebuilds the race from its deal and replays what came before the person's last
card: the state is the one of their previous turn, the log and the turn counter are cut
back with it, the bots answer the same card the same way again, and the race is practice
from then on. With other people in the race, at the start or at the end, it is a 409 with
its own code and changes nothing.
"""

from __future__ import annotations

import random
import re
from typing import Any

from app_kit import HX, bearer, create, form_fields, move, play_out, start
from fastapi.testclient import TestClient
from store_kit import StoreProbe

from app.races.record import decode_move
from engine import new_game

VOLATILE = {"events", "practice", "last_mover", "notice"}
"""State fields a take-back may legitimately answer differently from the original turn:
the events since the previous response, the practice mark, who made the last change."""


def text_of(html: str) -> str:
    """A page's words, tags dropped."""
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def take_back(client: TestClient, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/takeback", headers=bearer(token))


def steady(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in VOLATILE}


def person_leads_race(client: TestClient, players: int = 4, bots: str = "easy") -> tuple:
    """A rated race (its seed drawn by the server) whose first state is the person's turn."""
    for _ in range(60):
        game_id, token, state = create(client, players=players, bots=bots)
        if state["current_seat"] == 0 and state["turn"] == 0 and not state["game_over"]:
            return game_id, token, state
    raise AssertionError("no race of 60 let the person lead")


def test_takeback_returns_the_state_of_the_previous_turn(client: TestClient) -> None:
    game_id, token, first = person_leads_race(client)
    rng = random.Random(5)
    action = rng.choice(first["legal_actions"])
    after = move(client, game_id, token, first["turn"], action).json()
    assert after["turn"] == first["turn"] + 1

    response = take_back(client, game_id, token)

    assert response.status_code == 200, response.text
    back = response.json()
    assert steady(back) == steady(first)
    assert back["practice"] is True and first["practice"] is False
    assert back["event_count"] == first["event_count"]
    # The bots answer the same card exactly as they did: the race is deterministic.
    again = move(client, game_id, token, back["turn"], action).json()
    assert steady(again) == steady(after)
    assert again["practice"] is True


def test_the_record_and_the_turn_counter_are_cut_back(
    client: TestClient, store: StoreProbe
) -> None:
    game_id, token, state = person_leads_race(client)
    rng = random.Random(8)
    records, sessions = [], []
    for _ in range(3):
        records.append(client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json())
        sessions.append(store.get(game_id))
        state = move(client, game_id, token, state["turn"], rng.choice(state["legal_actions"]))
        state = state.json()
    for index in (2, 1, 0):
        assert take_back(client, game_id, token).status_code == 200
        record = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
        assert record["events"] == records[index]["events"]
        assert record["turn"] == records[index]["turn"] == index
        assert record["practice"] is True
        kept, then = store.get(game_id), sessions[index]
        assert kept.game == then.game
        assert kept.moves == then.moves
        assert kept.bot_decisions == then.bot_decisions
        assert kept.events == then.events
    refused = take_back(client, game_id, token)
    assert refused.status_code == 409
    assert refused.json()["code"] == "nothing_to_take_back"


def test_a_different_card_after_a_takeback_plays_on(client: TestClient) -> None:
    game_id, token, first = person_leads_race(client)
    legal = first["legal_actions"]
    assert len(legal) > 1
    move(client, game_id, token, first["turn"], legal[0])
    back = take_back(client, game_id, token).json()
    response = move(client, game_id, token, back["turn"], legal[1])
    assert response.status_code == 200
    # Played to its end, a race with a take-back still finishes (and stays practice).
    states = play_out(client, game_id, token, response.json(), random.Random(2))
    assert states[-1]["game_over"] and states[-1]["practice"]


def test_nothing_to_take_back_before_the_first_card(client: TestClient) -> None:
    game_id, token, state = person_leads_race(client)
    response = take_back(client, game_id, token)
    assert response.status_code == 409
    assert response.json()["code"] == "nothing_to_take_back"
    assert "nothing to take back" in response.json()["message"]
    # Refused, it changed nothing: not even the practice mark.
    now = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    assert now["practice"] is False and now["turn"] == state["turn"]


def test_no_takeback_with_other_people(client: TestClient) -> None:
    created = client.post("/api/games", json={"players": 3, "humans": 2, "bots": "easy"})
    data = created.json()
    game_id, token = data["game_id"], data["token"]
    code = data["invites"][0]["code"]
    joined = client.post(f"/api/games/{game_id}/join", json={"code": code}).json()
    for seat_token in (token, joined["token"]):
        response = take_back(client, game_id, seat_token)
        assert response.status_code == 409
        assert response.json()["code"] == "takeback_with_people"
        assert "other people" in response.json()["message"]
    state = client.get(f"/api/games/{game_id}", headers=bearer(token)).json()
    assert state["practice"] is False


def test_no_takeback_once_the_race_is_over(client: TestClient) -> None:
    game_id, token, state = create(client, players=3, bots="random")
    states = play_out(client, game_id, token, state, random.Random(4))
    response = take_back(client, game_id, token)
    assert response.status_code == 409
    assert response.json()["code"] == "takeback_race_over"
    record = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
    assert record["complete"] and record["turn"] == states[-1]["turn"]
    assert record["practice"] is False


def test_a_race_not_played_from_its_recorded_deal_is_refused(
    client: TestClient, store: StoreProbe
) -> None:
    game_id, token, state = person_leads_race(client)
    move(client, game_id, token, state["turn"], state["legal_actions"][0])
    with store.edit(game_id) as session:
        session.game = new_game(players=4, seed=999)  # set up some other way
    response = take_back(client, game_id, token)
    assert response.status_code == 409
    assert response.json()["code"] == "takeback_unavailable"
    assert store.get(game_id).practice is False


def test_takeback_needs_the_seats_token(client: TestClient) -> None:
    game_id, token, state = person_leads_race(client)
    move(client, game_id, token, state["turn"], state["legal_actions"][0])
    assert client.post(f"/api/games/{game_id}/takeback").status_code == 401
    assert take_back(client, game_id, "x" * 43).status_code == 404
    assert take_back(client, game_id, token).status_code == 200


def test_the_recording_names_every_applied_action(client: TestClient, store: StoreProbe) -> None:
    """Replaying the stored moves on the stored deal gives the race as it stands."""
    game_id, token, state = create(client, players=5, bots="normal", seed=21)
    play_out(client, game_id, token, state, random.Random(21))
    session = store.get(game_id)
    assert session.start is None  # dealt from its seed
    game = new_game(players=5, seed=session.engine_seed)
    assert game == session.dealt()
    kinds = set()
    for code in session.moves:
        kind, seat, action = decode_move(code)
        kinds.add(kind)
        game.apply(action, seat=seat)
    assert game == session.game and game.is_over
    assert kinds == {"person", "bot"}


# ------------------------------------------------------------------ the table's button


def test_the_button_takes_back_without_javascript(client: TestClient) -> None:
    game_id = start(client, players="4", bots="easy", seed="11")
    page = client.get(f"/games/{game_id}").text
    assert 'id="takeback"' not in page  # nothing to take back yet
    played = _play_first_legal(client, game_id)
    page = client.get(f"/games/{game_id}").text
    assert 'id="takeback"' in page and "Take back my last card" in page
    response = client.post(f"/games/{game_id}/takeback", data={"at_turn": str(played)})
    assert response.status_code == 303
    assert response.headers["location"] == f"/games/{game_id}"
    page = client.get(f"/games/{game_id}").text
    assert 'name="turn" value="0"' in page
    assert 'id="takeback"' not in page  # nothing left to take back


def test_a_double_press_takes_back_one_card(client: TestClient) -> None:
    game_id = start(client, players="4", bots="easy", seed="11")
    _play_first_legal(client, game_id)
    _play_first_legal(client, game_id)
    for _ in range(2):  # both presses carry the table's turn, 2
        response = client.post(f"/games/{game_id}/takeback", data={"at_turn": "2"}, headers=HX)
        assert response.status_code == 200
    assert 'name="turn" value="1"' in response.text
    assert "Practice race: nothing counts." in text_of(response.text)


def test_the_button_refused_says_why(client: TestClient) -> None:
    game_id = start(client, players="4", bots="easy", seed="11")
    response = client.post(f"/games/{game_id}/takeback", data={"at_turn": "0"}, headers=HX)
    assert response.status_code == 409
    assert "nothing to take back" in text_of(response.text)


def test_practice_is_shown_at_the_end_and_in_the_replay(client: TestClient) -> None:
    game_id = start(client, players="3", bots="random", seed="4")
    _play_first_legal(client, game_id)
    assert client.post(f"/games/{game_id}/takeback", data={"at_turn": "1"}).status_code == 303
    for _ in range(200):
        if _play_first_legal(client, game_id) is None:
            break
    over = text_of(client.get(f"/games/{game_id}").text)
    assert "Practice race (a take-back" in over and "counts in no rating" in over
    replay = text_of(client.get(f"/games/{game_id}/replay").text)
    assert "Practice race (a take-back" in replay and "counts in no rating" in replay


def test_no_button_in_a_race_with_friends(client: TestClient) -> None:
    created = client.post("/api/games", json={"players": 3, "humans": 2, "bots": "easy"})
    data = created.json()
    cookie = {"Cookie": f"zzv_{data['game_id']}={data['token']}"}
    client.post(f"/api/games/{data['game_id']}/start", headers=bearer(data["token"]))
    page = client.get(f"/games/{data['game_id']}", headers=cookie).text
    assert 'id="takeback"' not in page


def _play_first_legal(client: TestClient, game_id: str) -> int | None:
    """Play the first legal card through the form; the turn it answered (None: over)."""
    cookie = client.cookies.get(f"zzv_{game_id}")
    state = client.get(f"/api/games/{game_id}", headers=bearer(cookie or "")).json()
    if state["game_over"]:
        return None
    fields = form_fields(state["legal_actions"][0], state["turn"])
    response = client.post(f"/games/{game_id}/move", data=fields)
    assert response.status_code == 303, response.text
    return int(state["turn"]) + 1
