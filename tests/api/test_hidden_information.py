"""No response of any kind reveals an opponent's hand card or a face-down card's identity.

Two checks, both able to fail:

* **Twins.** For a game in progress we build a *twin*: the same game with every hidden card
  (opponents' hands, Tune Ups lying in the trick, discards, set-aside cards) dealt out
  differently, all public facts equal. Every response the server can give about that
  position — JSON state, record, 400/409 errors, the HTML page and its htmx fragment, the
  HTML move errors — must be byte-identical for the game and its twin. A response that
  used any hidden card would differ (``test_twin_check_catches_a_leak`` proves it does).
* **Structure.** Every JSON response is scanned: no key that only the hidden state has
  (``hands``, ``card``, ``discards``, ``rng``, ...), Tune Ups and discards carry no suit,
  the token never comes back after creation, and the seed (even a chosen one) stays hidden
  while racing (``test_fair_races.py`` twins races that differ only in what dealt them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from app_kit import bare_session, bearer, create, move
from fastapi import FastAPI
from fastapi.testclient import TestClient
from game_kit import hidden_twin
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_kit import examples
from store_kit import StoreProbe

from app.races.operations import session_state
from engine import Game, new_game

HIDDEN_ONLY_KEYS = {"hands", "card", "discards", "rng", "deck_order", "lap_order", "plays_secret"}
SUITS = ("lichen", "salty", "chippy", "jelly", "beans", "slippy", "zero")


def responses_about(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """Every non-advancing response the server gives about a race right now."""
    auth = bearer(token)
    state = client.get(f"/api/games/{game_id}", params={"since": 0}, headers=auth)
    turn = state.json()["turn"]
    stale_probe = {"type": "tune_up", "suit": "jelly"}
    out: dict[str, Any] = {
        "state": state.json(),
        "record": client.get(f"/api/games/{game_id}/record", headers=auth).json(),
        "stale": move(client, game_id, token, turn + 7, stale_probe).json(),
    }
    legal = state.json()["legal_actions"]
    for suit in SUITS:
        for probe in (
            {"type": "play", "suit": suit, "gas": 5},
            {"type": "play", "suit": suit, "gas": 0},
            {"type": "tune_up", "suit": suit},
            {"type": "zero_five", "value": 5, "gas": 0, "discard": suit},
        ):
            action = {"suit": None, "gas": 0, "zero_effect": None, "value": None, "discard": None}
            action.update(probe)
            if action in legal:
                continue  # only refusals: they leave the game as it is
            response = move(client, game_id, token, turn, action)
            out[f"{probe}"] = (response.status_code, response.json())
    cookie = {"Cookie": f"zzv_{game_id}={token}"}
    out["html"] = client.get(f"/games/{game_id}", headers=cookie).text
    out["fragment"] = client.get(f"/games/{game_id}", headers={**cookie, "HX-Request": "true"}).text
    html_move = client.post(
        f"/games/{game_id}/move",
        data={"turn": str(turn), "choice": "up:slippy", "gas": "9"},
        headers={**cookie, "HX-Request": "true"},
    )
    out["html_illegal"] = (html_move.status_code, html_move.text)
    stale = client.post(
        f"/games/{game_id}/move",
        data={"turn": str(turn + 3), "choice": "down:jelly"},
        headers={**cookie, "HX-Request": "true"},
    )
    out["html_stale"] = (stale.status_code, stale.text)
    return out


def stored(client: TestClient, app: FastAPI) -> StoreProbe:
    """White-box access to the server-side sessions (for building twins)."""
    return StoreProbe(app.state.store, client)


def assert_twins_answer_alike(
    client: TestClient, app: FastAPI, game_id: str, token: str, rng: random.Random
) -> bool:
    """Compare every response for the game and a hidden-card twin; False if no twin exists."""
    probe = stored(client, app)
    original = probe.get(game_id).game
    twin = hidden_twin(original, 0, rng)
    if twin is None:
        return False
    before = responses_about(client, game_id, token)
    with probe.edit(game_id) as session:
        session.game = twin
    # The app must load the twin, or the comparison below would be of a race with itself.
    assert probe.get(game_id).game == twin
    try:
        after = responses_about(client, game_id, token)
    finally:
        with probe.edit(game_id) as session:
            session.game = original
    for key in before:
        assert before[key] == after[key], f"{key} depends on hidden cards"
    return True


def walk(value: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every (path, key, value) in a JSON document."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key, item
            yield from walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, f"{path}[{i}]")


def assert_structurally_clean(document: Any, token: str) -> None:
    """No hidden-only key, no suit on a face-down card or discard, no token."""
    assert token not in repr(document)
    for path, key, _value in walk(document):
        assert key not in HIDDEN_ONLY_KEYS, f"hidden key {key!r} at {path}"
    for _path, _key, value in walk({"root": document}):
        if isinstance(value, dict):
            if value.get("kind") in ("tuned_up", "card_discarded"):
                assert set(value) == {"kind", "seat"}, value
            if value.get("type") in ("tune_up", "zero_five") and "seat" in value:
                assert value.get("suit") is None, value


@pytest.fixture
def twin_rng() -> random.Random:
    """Randomness for twin building (fixed: failures must reproduce)."""
    return random.Random(20240601)


def test_twin_check_catches_a_leak(twin_rng: random.Random) -> None:
    """The twin comparison is sensitive: a state that peeks at hidden cards is caught."""
    game = new_game(players=4, seed=3)
    twin = hidden_twin(game, 0, twin_rng)
    assert twin is not None
    assert game.observation(0) == twin.observation(0)

    def leaky(g: Game) -> dict[str, Any]:
        return {**g.observation(0), "opponent_cards": sorted(g.to_dict()["hands"][1])}

    assert leaky(game) != leaky(twin)


def test_session_state_is_identical_for_twins(twin_rng: random.Random) -> None:
    game = new_game(players=5, seed=9)
    session = bare_session(game)
    twin = hidden_twin(game, 0, twin_rng)
    assert twin is not None
    first = session_state(session, since=0)
    session.game = twin
    assert session_state(session, since=0) == first


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(3, 5),
    larger=st.booleans(),
    zero_suit=st.sampled_from([None, "chippy", "salty", "slippy"]),
    zero_five=st.booleans(),
    checkpoints=st.lists(st.integers(0, 40), min_size=1, max_size=3),
)
def test_no_response_reveals_hidden_cards(
    app: FastAPI,
    client: TestClient,
    twin_rng: random.Random,
    seed: int,
    players: int,
    larger: bool,
    zero_suit: str | None,
    zero_five: bool,
    checkpoints: list[int],
) -> None:
    variants = {"larger_hands": larger, "zero_suit": zero_suit, "zero_five": zero_five}
    game_id, token, state = create(
        client, players=players, variants=variants, bots="random", seed=seed
    )
    rng = random.Random(seed)
    check_at = set(checkpoints)
    compared = 0
    for step in range(400):
        assert_structurally_clean(state, token)
        assert state["events"] is not None
        if step in check_at:
            compared += assert_twins_answer_alike(client, app, game_id, token, twin_rng)
        if state["game_over"]:
            break
        response = move(client, game_id, token, state["turn"], rng.choice(state["legal_actions"]))
        assert response.status_code == 200
        state = response.json()
    record = client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json()
    # Once over, the record's actions name every card on purpose (anyone may replay it).
    assert_structurally_clean({k: v for k, v in record.items() if k != "actions"}, token)
    if not state["game_over"]:  # nothing that deals the cards, not even the chosen seed
        assert record["seed"] is None
        assert not {"deal_seed", "salt", "actions"} & set(record)
    # at the end too (opponents' hands still hold cards nobody may see)
    compared += assert_twins_answer_alike(client, app, game_id, token, twin_rng)
    assert compared >= 1


def test_public_seed_cannot_be_replayed_offline(client: TestClient) -> None:
    """The record's seed does not reproduce the deal in a bare engine (keyed derivation)."""
    for seed in range(5):
        _gid, _tok, state = create(client, players=4, seed=seed)
        offline = new_game(players=4, seed=seed)
        first_lead_offline = offline.core.lead
        hand_offline = offline.observation(0)["hand"]
        dealt = state["events"][0]
        assert (dealt["lead"], _first_hand(state)) != (first_lead_offline, hand_offline)


def _first_hand(state: dict[str, Any]) -> list[str]:
    # before the human's first move their hand is the dealt one plus nothing played yet
    return list(state["hand"])


def test_token_only_in_the_creation_response(client: TestClient) -> None:
    game_id, token, state = create(client, bots="random")
    seen: list[Any] = [client.get(f"/api/games/{game_id}", headers=bearer(token)).json()]
    seen.append(move(client, game_id, token, 0, state["legal_actions"][0]).json())
    seen.append(move(client, game_id, token, 0, state["legal_actions"][0]).json())
    seen.append(client.get(f"/api/games/{game_id}/record", headers=bearer(token)).json())
    html = client.get(f"/games/{game_id}", headers={"Cookie": f"zzv_{game_id}={token}"})
    assert html.status_code == 200
    for document in seen:
        assert token not in repr(document)
    assert token not in html.text


Probe = Callable[[TestClient, str, str], Any]
