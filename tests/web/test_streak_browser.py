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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import bearer, play_out
from browser_kit import DESKTOP, axe_clean, no_sideways_scroll, phone_context, press
from daily_kit import finished_days, wait_for_streak
from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "streak"
ENV = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_ACCESS_LOG": "false"}
BEST_RUN = 5
"""Days in a row the player finished a week and more ago (their best streak)."""


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
        database = f"sqlite:///{data / 'results.sqlite3'}"
        # In a thread of its own: Playwright's sync API keeps an event loop in this one.
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, finished_days(database, token, best + recent)).result()
        with httpx.Client(base_url=server.url, timeout=60) as http:
            assert wait_for_streak(http, token, 2)["current"] == 2  # up to yesterday
            seat = cookies[f"zzv_{game_id}"]
            state = http.get(f"/api/games/{game_id}", headers=bearer(seat)).json()
            play_out(http, game_id, seat, state, random.Random(9))
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
