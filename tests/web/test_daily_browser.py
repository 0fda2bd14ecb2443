"""/daily in real Chromium at 390x844 (a touch phone) and 1280x800: the page before and
after a finished counted attempt (its board filled) passes axe-core light and dark, and
its button starts today's race; screenshots go to tests/artifacts/daily/."""

from __future__ import annotations

import pytest
from app_kit import wait_for_reply, watch_console_errors
from browser_kit import axe_clean, press
from playwright.sync_api import Browser
from test_quick_browser import SHOTS, SIZES, context_for

pytestmark = pytest.mark.browser

MAX_MOVES = 200

BOARD_FIT_JS = """() => {
  const wrap = document.querySelector('.daily-today .daily-board-wrap');
  const name = document.querySelector('.daily-today .daily-board tbody th');
  const range = document.createRange();
  range.selectNodeContents(name);
  const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
  return [wrap.scrollWidth <= wrap.clientWidth, lines];
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_daily_page_and_its_board(browser: Browser, live_server: str, size: str) -> None:
    phone = size == "390x844"
    context = context_for(browser, size)
    try:
        page = context.new_page()
        problems = watch_console_errors(page)
        page.goto(live_server + "/daily")
        page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
        assert page.locator("h1").inner_text() == "The daily deal"
        axe_clean(page, f"/daily {size}", SHOTS, f"daily-{size}")
        press(page, "#race-daily", phone)
        page.wait_for_selector("#table[data-settled]", state="attached")
        for _ in range(MAX_MOVES):  # tune up every turn (always allowed) to the flag
            if page.locator(".game-over").count():
                break
            turn = page.locator("#move-form input[name=turn]").input_value()
            press(page, "#move-form label.tune-chip", phone)
            press(page, "#move-form .btn-play", phone)
            wait_for_reply(page, turn)
        assert page.locator(".game-over").count()
        page.goto(live_server + "/daily")
        assert page.locator("#race-daily").text_content() == "Race it again (practice)"
        assert page.locator(".daily-today .daily-board tbody tr").count() >= 1
        # The board fits the card without sideways scrolling, a "Racer N" name on one line
        # (N grows with the players the server has seen: the longest a busy server gives).
        page.evaluate(
            "() => { document.querySelector('.daily-today .daily-board tbody th')"
            ".textContent = 'Racer 12345'; }"
        )
        fits, name_lines = page.evaluate(BOARD_FIT_JS)
        assert fits and name_lines == 1, (size, fits, name_lines)
        if phone:
            page.set_viewport_size({"width": 360, "height": 740})
            fits, name_lines = page.evaluate(BOARD_FIT_JS)
            assert fits and name_lines == 1, ("360x740", fits, name_lines)
            page.set_viewport_size({"width": 390, "height": 844})
        axe_clean(page, f"/daily with a board {size}", SHOTS, f"daily-board-{size}")
        assert problems == []
    finally:
        context.close()
