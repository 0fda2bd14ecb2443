"""/cup in real Chromium at 390x844 (a touch phone) and 1280x800: the page before and after
a finished counted deal (its result, the board) passes axe-core light and dark with no
sideways scroll, and a deal's Play starts its race; screenshots go to tests/artifacts/cup/."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from app_kit import wait_for_reply, watch_console_errors
from browser_kit import axe_clean, browser_context, no_sideways_scroll, press, tap_target
from playwright.sync_api import Browser
from sweep_kit import sweep

from app.results.daily_times import closes_at, period_before, period_of

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "cup"
MAX_MOVES = 200


# The phone, the tighter fit, in every run; the desktop in the slow sweep.
@pytest.mark.parametrize("size", sweep("390x844", "1280x800"))
def test_the_cup_page_and_a_deal(browser: Browser, live_server: str, size: str) -> None:
    phone = size == "390x844"
    context = browser_context(browser, phone, bypass_csp=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        page = context.new_page()
        problems = watch_console_errors(page)
        page.goto(live_server + "/")
        page.locator("#cup-link").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"home-link-{size}.png"))
        link = tap_target(page, "#cup-link")
        assert isinstance(link, list) and min(link) >= 44, link
        press(page, "#cup-link", phone)
        page.wait_for_url("**/cup")
        assert page.locator("h1").inner_text() == "The weekly cup"
        assert page.locator("#cup-deals .cup-deal").count() == 5
        no_sideways_scroll(page, f"/cup {size}")
        axe_clean(page, f"/cup {size}", SHOTS, f"cup-{size}")
        play = tap_target(page, "#race-cup-1")
        assert isinstance(play, list) and min(play) >= 44, play
        press(page, "#race-cup-1", phone)
        page.wait_for_selector("#table[data-settled]", state="attached")
        page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
        for _ in range(MAX_MOVES):  # tune up every turn (always allowed) to the flag
            if page.locator(".game-over").count():
                break
            turn = page.locator("#move-form input[name=turn]").input_value()
            press(page, "#move-form label.tune-chip", phone)
            press(page, "#move-form .btn-play", phone)
            wait_for_reply(page, turn)
        assert page.locator(".game-over").count()
        page.goto(live_server + "/cup")
        result = page.locator("#cup-deal-1 .cup-deal-result").inner_text()
        assert re.fullmatch(r"Place [1-4], \d laps?: [1-4] points?", result), result
        assert page.locator("#race-cup-1").inner_text().startswith("Practice")
        standing = page.locator("#cup-standing").inner_text()
        assert re.match(r"You are #\d+ of \d+: \d+ points?, \d+ laps?\.", standing), standing
        assert page.locator(".cup-week .cup-board tr.is-you").count() == 1
        no_sideways_scroll(page, f"/cup after a deal {size}")
        axe_clean(page, f"/cup after a deal {size}", SHOTS, f"cup-played-{size}")
        # The server's clock is the real one. Once last week's cup has closed its deals are
        # published, and one is a tap away as practice; in the two hours after the week ends
        # (races begun then may still finish) they stay secret.
        if time.time() < closes_at(period_before(period_of(time.time(), week=True))):
            assert page.locator("#cup-last-seeds .seed").count() == 0
        else:
            assert page.locator("#cup-last-seeds .seed").count() == 5
            press(page, "#replay-cup-1", phone)
            page.wait_for_selector("#table[data-settled]", state="attached")
            note = page.locator(".takeback-note").inner_text()
            assert note == "Practice race: nothing counts."
        assert problems == []
    finally:
        context.close()
