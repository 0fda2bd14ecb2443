"""A stand-in for the hard bots' pool search, for tests that hold a move mid-search.

Imported as ``bot_kit`` (tests/ is on the import path). A hard bot's search is the only bot
decision that takes long (the light bots decide on the event loop), so it is where a test
parks a move to look at the server while the move runs.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI

from app.bots.runner import BotRunner, SearchRequest, SearchResult


def first_legal(request: SearchRequest) -> dict[str, Any]:
    """The first legal action of the request's seat, as a search's answer."""
    return dict(request.observation.legal_actions()[0].to_dict())


class HeldSearch:
    """Waits for ``release`` (set at first), then plays the first legal action; records how
    many searches run at once and the budgets they were given."""

    def __init__(self, rollouts: int = 50) -> None:
        self.release = asyncio.Event()
        self.release.set()
        self.rollouts = rollouts
        self.running = 0
        self.most_running = 0
        self.budgets: list[int] = []
        #: The ``hard_seats`` each search was told, in order.
        self.hard_seats: list[tuple[int, ...]] = []
        #: The seat each search decided for, in order.
        self.seats: list[int | None] = []

    async def __call__(self, request: SearchRequest) -> SearchResult:
        self.hard_seats.append(request.hard_seats)
        self.seats.append(request.observation.seat)
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        self.budgets.append(request.budget_ms)
        try:
            await self.release.wait()
        finally:
            self.running -= 1
        return first_legal(request), self.rollouts

    def install(self, app: FastAPI) -> BotRunner:
        """Make this the search of ``app``'s hard bots; the app's runner."""
        runner: BotRunner = app.state.runner
        runner.search = self
        return runner
