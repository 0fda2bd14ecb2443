"""Leaving a race in real Chromium as a touch phone (360x740): a browser at its cap of live
races is refused a new one and offered "Leave"; a tap lands on the left race's table,
which says the race is over (headline on the first screen, no hand, no Play), axe clean;
"New race" from there starts one (the left race freed its slot). Screenshots go to
tests/artifacts/leave/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_kit import watch_console_errors
from browser_kit import axe_clean, phone_context, tap_target
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "leave"
RACE = ".setup-form:not(.friends-form) button[type=submit]"


@pytest.fixture
def one_race_server(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> str:
    """A server that lets a browser hold one live race at a time."""
    env = {
        "ZZV_SEED_SECRET": "live-server-tests",
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_MAX_GAMES_PER_CLIENT": "1",
        "ZZV_ACCESS_LOG": "false",
    }
    server = launch_server(server_command(free_port, "--workers", "1"), port=free_port, env=env)
    url: str = server.url
    return url


def _race(page: Page, base: str) -> None:
    page.goto(base + "/")
    with page.expect_navigation():
        page.tap(RACE)


def test_leave_lands_on_a_table_that_says_the_race_is_over(
    browser: Browser, one_race_server: str
) -> None:
    base = one_race_server
    context = phone_context(browser, 360, 740, bypass_csp=True)  # axe is injected
    page = context.new_page()
    problems = watch_console_errors(page)
    try:
        _race(page, base)
        page.wait_for_selector("#table[data-settled] #move-form", state="attached")
        first = page.url

        _race(page, base)  # one race too many: refused, with a way to leave the first
        leave = page.locator(f'form[action="{first[len(base) :]}/leave"] button')
        assert leave.count() == 1, "the refusal offers to leave the race held"
        leave.tap()
        page.wait_for_url(first)
        status = page.locator("#table-status")
        assert status.inner_text() == "You left this race."
        box = status.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740
        assert page.locator("#race-left").is_visible()
        assert page.locator("#move-form").count() == 0, "no hand and no Play"
        assert page.locator("#trick .trick-slot.kind-pending:visible").count() == 0
        assert page.title().startswith("Race over")
        found = tap_target(page, "#race-left #new-game")
        assert isinstance(found, list) and found[1] >= 44, f"New race is {found}"
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / "left-360x740.png"))
        axe_clean(page, "left race 360x740")

        page.tap("#race-left #new-game")
        page.wait_for_url(base + "/")
        page.tap(RACE)  # the left race no longer counts against the cap
        page.wait_for_selector("#table[data-settled] #move-form", state="attached")
        assert page.url != first
        # The refusal is a 429 page, which the browser logs; nothing else may be.
        assert [p for p in problems if "status of 429" not in p] == []
    finally:
        context.close()
