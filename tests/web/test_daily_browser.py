"""/daily in real Chromium at 390x844 (a touch phone) and 1280x800: the page before and
after a finished counted attempt (its board filled) passes axe-core light and dark, and
its button starts today's race; the board fits phones down to 320 px, a "Racer N" name on
one line; screenshots go to tests/artifacts/daily/."""

from __future__ import annotations

import re

import pytest
from app_kit import wait_for_reply, watch_console_errors
from browser_kit import axe_clean, no_sideways_scroll, press, tap_target
from playwright.sync_api import Browser
from sweep_kit import sweep
from test_quick_browser import SHOTS, SIZES, context_for

from app.races.lobby import NAME_MAX

pytestmark = pytest.mark.browser

MAX_MOVES = 200

OWN_NAME = ".daily-today .daily-board tr.is-you th"
"""This player's name on today's board, its first text before the "(you)" mark."""

# The name's text ends in the space before the mark, as the page sends it.
SET_NAME_JS = (
    """([sel, name]) => { document.querySelector(sel).firstChild.nodeValue = name + ' '; }"""
)

# A share sheet for a browser without one: it keeps what it was handed.
SHARE_SHEET_JS = """
window.sharedWithSheet = [];
navigator.share = (data) => { window.sharedWithSheet.push(data); return Promise.resolve(); };
"""

# How many lines that name is set on.
NAME_LINES_JS = """(sel) => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(sel).firstChild);
  return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
}"""

# Whether the board fits its scrolling frame with nothing hidden to the side.
BOARD_FITS_JS = """() => {
  const wrap = document.querySelector('.daily-today .daily-board-wrap');
  return wrap.scrollWidth <= wrap.clientWidth;
}"""


# The phone, the tighter fit, in every run; the desktop in the slow sweep.
@pytest.mark.parametrize("size", sweep("390x844", "1280x800"))
def test_the_daily_page_and_its_board(browser: Browser, live_server: str, size: str) -> None:
    phone = size == "390x844"
    context = context_for(browser, size)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    try:
        page = context.new_page()
        problems = watch_console_errors(page)
        page.goto(live_server + "/daily")
        page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
        assert page.locator("h1").inner_text() == "The daily deal"
        axe_clean(page, f"/daily {size}", SHOTS, f"daily-{size}")
        press(page, "#race-daily", phone)
        page.wait_for_selector("#table[data-settled]", state="attached")
        race_url = page.url
        # Left mid-race, the counted race is one tap away from /daily.
        page.goto(live_server + "/daily")
        back = tap_target(page, "#daily-back")
        assert isinstance(back, list) and min(back) >= 44, back
        press(page, "#daily-back", phone)
        page.wait_for_selector("#table[data-settled]", state="attached")
        assert page.url == race_url
        for _ in range(MAX_MOVES):  # tune up every turn (always allowed) to the flag
            if page.locator(".game-over").count():
                break
            turn = page.locator("#move-form input[name=turn]").input_value()
            press(page, "#move-form label.tune-chip", phone)
            press(page, "#move-form .btn-play", phone)
            wait_for_reply(page, turn)
        assert page.locator(".game-over").count()
        # The flag leads to the board (a tap, as a person on the flag screen would).
        page.locator("#daily-board-link").scroll_into_view_if_needed()
        press(page, "#daily-board-link", phone)
        page.wait_for_url("**/daily#today-title")
        assert page.locator("#race-daily").text_content() == "Race it again (practice)"
        assert page.locator(".daily-today .daily-board tbody tr").count() >= 1
        # Where the finished race stands: said, marked on the board, ready to share.
        standing = page.locator("#daily-standing").inner_text()
        rank = re.match(r"You are #(\d+) of (\d+) on the board: ", standing)
        assert rank, standing
        mine = page.locator(".daily-today .daily-board tr.is-you")
        assert mine.count() == 1 and mine.locator("td").first.inner_text() == rank.group(1)
        assert mine.locator(".you-mark").is_visible()
        copy = tap_target(page, "[data-copy=daily-share-text]")
        assert isinstance(copy, list) and min(copy) >= 44, copy
        press(page, "[data-copy=daily-share-text]", phone)
        shared = page.evaluate("() => navigator.clipboard.readText()")
        assert shared == page.locator("#daily-share-text").inner_text().strip()
        day = page.locator("#today-title").inner_text().removeprefix("Today, ")
        head = f"Zoom Zoom Vroom daily deal, {day}: #{rank.group(1)} of {rank.group(2)} ("
        assert shared.startswith(head), shared
        assert shared.endswith(live_server + "/daily")
        assert page.locator("[data-copy=daily-share-text]").inner_text() == "Copied"
        # Where the browser has a share sheet (this Chromium has none: a stand-in records
        # what it is handed), Share opens it with the same line.
        assert page.locator("#daily-share").is_hidden()
        page.add_init_script(SHARE_SHEET_JS)
        page.reload()
        share = tap_target(page, "#daily-share")
        assert isinstance(share, list) and min(share) >= 44, share
        press(page, "#daily-share", phone)
        assert page.evaluate("() => window.sharedWithSheet") == [{"text": shared}]
        # The board fits the card without sideways scrolling, a "Racer N" name on one line
        # (N grows with the players the server has seen: the longest a busy server gives).
        page.evaluate(SET_NAME_JS, [OWN_NAME, "Racer 12345"])
        sizes = [SIZES[size], (360, 740), (320, 640)] if phone else [SIZES[size]]
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            fits, lines = page.evaluate(BOARD_FITS_JS), page.evaluate(NAME_LINES_JS, OWN_NAME)
            assert fits and lines == 1, (f"{width}x{height}", fits, lines)
            # A site with a long address: the line to share wraps it, the page stays put.
            page.evaluate(
                "(text) => { document.getElementById('daily-share-text').textContent = text; }",
                shared.replace(live_server, "https://zoomzoomvroomracingclub.example.org"),
            )
            no_sideways_scroll(page, f"/daily {width}x{height}")
        # The longest name a player may pick, one word of NAME_MAX letters, wraps in its
        # cell instead of pushing the board wider than the phone.
        page.evaluate(SET_NAME_JS, [OWN_NAME, "W" * NAME_MAX])
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate(BOARD_FITS_JS), f"{width}x{height}: a long name widens the board"
        page.evaluate(SET_NAME_JS, [OWN_NAME, "Racer 12345"])
        page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
        axe_clean(page, f"/daily with a board {size}", SHOTS, f"daily-board-{size}")
        assert problems == []
    finally:
        context.close()
