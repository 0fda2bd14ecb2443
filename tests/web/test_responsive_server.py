"""While the bots of one race are thinking, every other page still answers.

A hard bot's search (the only bot decision that takes long: the light bots decide on the
event loop in about the time a page takes to render) is held here until the other
requests have been answered: if a web route waited for the search on the event loop's
own time (a blocking call, or a thread the route held), those requests could not be
served and the test would fail instead of hanging.
"""

from __future__ import annotations

import asyncio
from typing import Any

from app_kit import asgi_client, await_until, form_fields, make_settings
from bot_kit import HeldSearch

from app.main import create_app

HANG_GUARD_SECONDS = 30.0  # only stops a broken test from hanging; never a speed assert


def test_pages_answer_while_a_race_waits_for_its_bots() -> None:
    search = HeldSearch()
    app = create_app(make_settings())
    search.install(app)
    store: Any = app.state.store

    async def main() -> None:
        async with asgi_client(app) as client:
            created = await client.post("/games", data={"players": "3", "bots": "hard"})
            assert created.status_code == 303
            game_id = created.headers["location"].rsplit("/", 1)[1]
            session = (await store.fetch(game_id)).record
            # A Tune Up cannot win, so whatever happens a bot has to decide next.
            legal = session.game.observation(0)["legal_actions"]
            action = next(a for a in legal if a["type"] == "tune_up")

            search.release.clear()
            move = asyncio.create_task(
                client.post(f"/games/{game_id}/move", data=form_fields(action, session.turn))
            )

            def searching() -> bool:
                assert not move.done(), move.result().text
                return search.running > 0

            await await_until(searching, "a bot searching", HANG_GUARD_SECONDS)
            for url in ("/", "/rules", f"/games/{game_id}/replay"):
                response = await client.get(url)
                assert response.status_code == 200, url
            assert not move.done()  # the bot is still searching, and yet we were served
            search.release.set()
            response = await move
            assert response.status_code == 303

    asyncio.run(main())
