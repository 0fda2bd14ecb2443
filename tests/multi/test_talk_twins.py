"""Quick messages tell nothing of a hidden card: on twin deals (the same public position,
the cards a seat cannot see dealt differently) saying a message answers the same, and
every seat's and spectator's answers after it are the same (both stores)."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from limits.aio.storage import MemoryStorage
from store_kit import StoreProbe
from test_friends_api import _answers, _seat_tokens, _state, bearer, frozen, hidden_twin, move

from app.http.security import TalkPace

__all__ = ["frozen"]  # the fixture, used here by name


def _say(client: TestClient, game_id: str, token: str, code: str) -> dict[str, Any]:
    """Seat ``token`` says ``code`` (the seat's pace forgotten first: a twin says it again)."""
    client.app.state.talk_pace = TalkPace(MemoryStorage())  # type: ignore[attr-defined]
    api = client.post(f"/api/games/{game_id}/say", json={"code": code}, headers=bearer(token))
    assert api.status_code == 200, api.text
    return dict(api.json())


def _as_before(store: StoreProbe, game_id: str, kept: tuple[list[Any], int, list[int]]) -> None:
    """The race's talk and seats' delivery cursors as ``kept`` (a twin answers afresh)."""
    said, count, delivered = kept
    with store.edit(game_id) as session:
        session.said, session.said_count = list(said), count
        for seat, cursor in zip(session.lobby.seats, delivered, strict=True):
            seat.delivered = cursor


def test_twin_deals_answer_messages_alike(
    client: TestClient, store: StoreProbe, frozen: list[float]
) -> None:
    game_id, tokens = _seat_tokens(client, players=4, humans=3)
    rng = random.Random(61)
    compared = 0
    for step in range(30):
        real = store.get(game_id).game
        if real.is_over:
            break
        if step % 5 == 2:
            sayer = step % 3
            for viewer in (sayer, (sayer + 1) % 3, None):
                twin = hidden_twin(real, viewer, rng)
                assert twin is not None
                now = store.get(game_id)
                kept = (list(now.said), now.said_count, [s.delivered for s in now.lobby.seats])
                answers = []
                for game in (real, twin):
                    _as_before(store, game_id, kept)
                    with store.edit(game_id) as session:
                        session.game = game
                    try:
                        answer = _say(client, game_id, tokens[sayer], "well_played")
                        seen = _answers(client, game_id, viewer, tokens)
                        answers.append((answer if viewer == sayer else None, seen))
                    finally:
                        with store.edit(game_id) as session:
                            session.game = real
                assert answers[0] == answers[1], f"{viewer} reads hidden cards after a message"
                assert "Well played!" in str(answers[0][1])
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
    assert compared >= 4
