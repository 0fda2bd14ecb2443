"""While the bots of one race are thinking, every other page still answers.

The bots' decisions are held on a gate that only opens once the other requests have been
answered: if a web route ran the bots on the event loop, those requests could not be
served and the test would fail (the gate times out) instead of hanging.
"""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import httpx
import pytest
from app_kit import form_fields

from app.bots import runner as bot_runner
from app.main import create_app
from app.settings import Settings
from engine import Action, Game


def test_pages_answer_while_a_race_waits_for_its_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    gate.set()
    bots_waited = threading.Event()

    def slow_bot(level: str, game: Game, seat: int, seed: int, **_options: int) -> Action:
        if not gate.is_set():
            bots_waited.set()
            assert gate.wait(timeout=20), "the other requests were never answered"
        return random.Random(seed).choice(game.legal_actions())

    monkeypatch.setattr(bot_runner, "choose_bot_action", slow_bot)
    app = create_app(Settings(rate_limit_enabled=False, access_log=False))
    store: Any = app.state.store

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            created = await client.post("/games", data={"players": "3", "bots": "easy"})
            assert created.status_code == 303
            game_id = created.headers["location"].rsplit("/", 1)[1]
            session = (await store.fetch(game_id)).record
            # A Tune Up cannot win, so whatever happens a bot has to decide next.
            legal = session.game.observation(0)["legal_actions"]
            action = next(a for a in legal if a["type"] == "tune_up")

            gate.clear()
            move = asyncio.create_task(
                client.post(f"/games/{game_id}/move", data=form_fields(action, session.turn))
            )
            while not bots_waited.is_set():
                assert not move.done(), move.result().text
                await asyncio.sleep(0.01)
            assert not move.done()
            for url in ("/", "/rules"):
                response = await client.get(url)
                assert response.status_code == 200
            assert not move.done()  # the bots are still thinking, and yet we were served
            gate.set()
            response = await move
            assert response.status_code == 303

    asyncio.run(main())
