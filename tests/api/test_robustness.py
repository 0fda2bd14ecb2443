"""The server keeps every race alive through faulty bots and answers crashes generically."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from app_kit import bearer, create, make_settings, move, play_out
from fastapi.testclient import TestClient

from app.bots import runner as bot_runner
from app.main import create_app
from app.races import operations as sessions


def test_a_failing_bot_does_not_stop_the_race(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise ValueError("You have no Slippy the Salmon card in your hand.")

    monkeypatch.setattr(bot_runner, "choose_bot_action", broken)
    logging.getLogger("zzv").addHandler(caplog.handler)
    try:
        game_id, token, state = create(client, players=3)
        final = play_out(client, game_id, token, state, random.Random(2))[-1]
    finally:
        logging.getLogger("zzv").removeHandler(caplog.handler)
    assert final["game_over"]
    failures = [r for r in caplog.records if "fallback" in r.getMessage()]
    assert failures, "the fallback must be logged"
    for record in failures:
        assert "Slippy" not in repr(record.__dict__)  # bot's hand never reaches the log


def test_an_unexpected_error_is_a_generic_500(monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(make_settings())
    with TestClient(app, raise_server_exceptions=False) as client:
        game_id, token, state = create(client)

        def explode(*_args: Any, **_kwargs: Any) -> Any:
            raise RuntimeError("secret detail: hands=[slippy]")

        monkeypatch.setattr(sessions, "play", explode)
        response = move(client, game_id, token, 0, state["legal_actions"][0])
        assert response.status_code == 500
        assert "script-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert "secret detail" not in response.text
        assert response.json() == {
            "code": "internal_error",
            "message": "Something went wrong on our side.",
        }
        monkeypatch.undo()
        # the race survives: the same turn can be played now
        assert move(client, game_id, token, 0, state["legal_actions"][0]).status_code == 200
        assert client.get(f"/api/games/{game_id}", headers=bearer(token)).json()["turn"] == 1
