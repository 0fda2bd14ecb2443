"""The daily streak in real Chromium, on a touch phone at 390x844 and a desktop at
1280x800, against a real server (results on its SQLite file): the streak and the best
one on /daily and on "Your races", whose history comes first with the name form folded
(it opens with a tap and still saves the name); axe-core finds nothing, light and dark;
screenshots go to tests/artifacts/streak/.

The server's clock is the real one, so the days before today are written to its results
database as finished daily attempts (what the recorder writes), and today's counted race
is played out through the API."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_kit import DESKTOP, axe_clean, no_sideways_scroll, phone_context, press
from playwright.sync_api import Browser, BrowserContext, Page

from app.results.daily import DailyResults
from app.results.database import async_url
from app.results.store import Finish, ResultsStore, SeatResult

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "streak"
ENV = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_ACCESS_LOG": "false"}
BEST_RUN = 5
"""Days in a row the player finished a week and more ago (their best streak)."""


def seed_finished_days(database: str, token: str, days: list[date]) -> None:
    """Write a finished counted daily attempt of ``token``'s player on each of ``days``."""

    async def seed() -> None:
        store = ResultsStore(async_url(database))
        await store.open()
        try:
            player = await store.player_for(token)
            assert player is not None
            for number, day in enumerate(days):
                game_id, at = f"past{number}", datetime.combine(day, datetime.min.time(), UTC)
                assert await DailyResults(store).claim(day.isoformat(), player.id, game_id, at)
                bots = (SeatResult(s, f"Bot {s + 1}", s + 1, 1, 2, 1, bot_level="normal")
                        for s in range(1, 4))  # fmt: skip
                seats = (SeatResult(0, "Racer", 1, 2, 6, 3, player_id=player.id), *bots)
                record = {"game_id": game_id, "complete": True, "events": []}
                settings = {"players": 4, "bots": "normal"}
                finish = Finish(game_id, at, 4, 1, "normal", settings, False, record, seats)
                await store.record_finish(finish)
        finally:
            await store.close()

    # In a thread of its own: Playwright's sync API keeps an event loop in this one.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, seed()).result()


def play_out(http: httpx.Client, game_id: str, token: str) -> None:
    """Random legal moves to the flag."""
    auth = {"Authorization": f"Bearer {token}"}
    state, rng = http.get(f"/api/games/{game_id}", headers=auth).json(), random.Random(9)
    for _ in range(500):
        if state["game_over"]:
            return
        body = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
        moved = http.post(f"/api/games/{game_id}/actions", json=body, headers=auth)
        assert moved.status_code == 200, moved.text
        state = moved.json()
    raise AssertionError("the race did not end")


def wait_for_streak(http: httpx.Client, token: str, current: int) -> dict[str, Any]:
    """``/api/me``'s streak once it reaches ``current`` (the result is recorded)."""
    deadline = time.monotonic() + 30
    while True:
        streak: dict[str, Any] = http.get("/api/me", headers={"X-Player-Token": token}).json()[
            "daily_streak"
        ]
        if streak["current"] == current or time.monotonic() > deadline:
            return streak
        time.sleep(0.05)


def top(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["y"]


def check_pages(page: Page, base: str, size: str, phone: bool) -> None:
    page.goto(base + "/daily")
    assert page.inner_text("#daily-streak") == "Your streak: 3 days in a row."
    assert page.inner_text("#daily-best-streak") == f"Your best streak: {BEST_RUN} days in a row."
    assert page.locator("#daily-streak").is_visible()
    no_sideways_scroll(page, f"/daily {size}")
    axe_clean(page, f"/daily {size}", SHOTS, f"daily-{size}")

    page.goto(base + "/me")
    assert page.inner_text("#me-streak-now") == "Your streak: 3 days in a row."
    assert page.inner_text("#me-best-streak") == f"Your best streak: {BEST_RUN} days in a row."
    assert page.locator(".history-table tbody tr").count() == BEST_RUN + 3
    # The history first, its heading on the first screen; the name form folded below it.
    assert top(page, "#history-title") < top(page, "#name-title")
    assert top(page, "#history-title") < page.viewport_size["height"]  # type: ignore[index]
    assert page.locator("#name-details").get_attribute("open") is None
    assert not page.locator("#player-name").is_visible()
    no_sideways_scroll(page, f"/me {size}")
    axe_clean(page, f"/me {size}", SHOTS, f"your-races-{size}")
    # The folded form opens with a tap (or a click) and saves the name.
    press(page, "#name-details summary", phone)
    assert page.locator("#player-name").is_visible()
    name = f"Ada {size}"
    page.fill("#player-name", name)
    with page.expect_navigation(url=base + "/me"):
        press(page, ".name-form button[type=submit]", phone)
    assert f"Racing as {name}" in page.inner_text(".lede")
    assert page.locator("#name-details").get_attribute("open") is None


def test_the_streak_on_the_daily_page_and_your_races(
    browser: Browser,
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    free_port: int,
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    server = launch_server(
        server_command(free_port), port=free_port, env={**ENV, "ZZV_DATA_DIR": str(data)}
    )
    desktop = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    contexts: list[BrowserContext] = [desktop]
    try:
        page = desktop.new_page()
        page.goto(server.url + "/daily")
        page.click("#race-daily")
        page.wait_for_url("**/games/*")
        game_id = page.url.rsplit("/", 1)[1]
        cookies = {c["name"]: c["value"] for c in desktop.cookies()}
        token = cookies["zzv_player"].rpartition(".")[0]
        today = datetime.now(UTC).date()
        best = [today - timedelta(days=6 + n) for n in range(BEST_RUN)]
        recent = [today - timedelta(days=n) for n in (2, 1)]
        seed_finished_days(f"sqlite:///{data / 'results.sqlite3'}", token, best + recent)
        with httpx.Client(base_url=server.url, timeout=60) as http:
            assert wait_for_streak(http, token, 2)["current"] == 2  # up to yesterday
            play_out(http, game_id, cookies[f"zzv_{game_id}"])
            streak = wait_for_streak(http, token, 3)
        assert streak == {"current": 3, "best": BEST_RUN, "today": True}

        phone = phone_context(browser, bypass_csp=True)
        contexts.append(phone)
        phone.add_cookies(desktop.cookies())
        check_pages(phone.new_page(), server.url, "390x844", phone=True)
        check_pages(page, server.url, "1280x800", phone=False)
    finally:
        for context in contexts:
            context.close()
    assert "Traceback" not in server.log(), server.log()[-3000:]
