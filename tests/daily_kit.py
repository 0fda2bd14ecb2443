"""Test kit for the daily deal's results: past days written straight to a results
database, for tests on a server whose clock is the real one."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import httpx
from app_kit import wait_until

from app.results.daily import DailyResults
from app.results.database import async_url
from app.results.store import Finish, ResultsStore, SeatResult


async def finished_days(database: str, token: str, days: list[date]) -> None:
    """Write, on ``database`` (a plain URL), a finished counted daily attempt of
    ``token``'s player on each of ``days``, as the recorder would (first place, rated)."""
    store = ResultsStore(async_url(database))
    await store.open()
    try:
        player = await store.player_for(token)
        assert player is not None
        for day in days:
            game_id, at = f"past{day:%Y%m%d}", datetime.combine(day, datetime.min.time(), UTC)
            assert await DailyResults(store).claim(day.isoformat(), None, player.id, game_id, at)
            bots = (SeatResult(s, f"Bot {s + 1}", s + 1, 1, 2, 1, bot_level="normal")
                    for s in range(1, 4))  # fmt: skip
            seats = (SeatResult(0, "Racer", 1, 2, 6, 3, player_id=player.id), *bots)
            record = {"game_id": game_id, "complete": True, "events": []}
            settings = {"players": 4, "bots": "normal"}
            finish = Finish(game_id, at, 4, 1, "normal", settings, False, record, seats, "daily")
            await store.record_finish(finish)
    finally:
        await store.close()


def wait_for_streak(http: httpx.Client, token: str, current: int) -> dict[str, Any]:
    """``GET /api/me``'s ``daily_streak`` for ``token``'s player once its current streak is
    ``current`` (the last result recorded); the test fails if it is not within 30 s."""

    def streak() -> dict[str, Any] | None:
        me = http.get("/api/me", headers={"X-Player-Token": token})
        assert me.status_code == 200, me.text
        found: dict[str, Any] = me.json()["daily_streak"]
        return found if found["current"] == current else None

    found = wait_until(streak, f"a current daily streak of {current}")
    assert found is not None
    return found
