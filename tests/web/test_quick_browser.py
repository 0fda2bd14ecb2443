"""Race strangers and Take back in real Chromium, at 390x844 (a touch phone) and 1280x800.

- Two browsers press "Race strangers" for 4 racers: both sit at one table, each sees
  "2 of 4 seats taken"; the creator's Start now starts it for both (live), bots in the
  other seats. axe-core finds nothing on the lobby and on the running table, light and
  dark; screenshots of both go to tests/artifacts/daily/.
- In a race against bots, after one card the Take back button is on top at its centre
  (``document.elementFromPoint``) once scrolled to, at least 44x44 CSS px on the phone,
  and pressing it brings the table back to turn 0, marked practice.
- At a strangers' table on a laptop (1280x800, 1366x768), the person to play sees a card
  of the hand and its Tune Up whole, on top and above the sticky play bar, unscrolled.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_kit import wait_for_reply, watch_console_errors
from browser_kit import axe_clean, press, tap_target
from playwright.sync_api import Browser, BrowserContext, Page
from sweep_kit import sweep

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "daily"
SIZES = {"390x844": (390, 844), "1280x800": (1280, 800)}


def context_for(browser: Browser, size: str) -> BrowserContext:
    width, height = SIZES[size]
    phone = width < 600
    return browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        device_scale_factor=2 if phone else 1,
        bypass_csp=True,  # axe-core is injected as a script tag
    )


def race_strangers(page: Page, base: str, phone: bool) -> None:
    page.goto(base + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    page.locator("#race-strangers").scroll_into_view_if_needed()
    press(page, ".strangers-form label.pill:has(input[value='4'])", phone)
    press(page, "#race-strangers", phone)
    page.wait_for_selector("#lobby")


# The desktop's race is in the slow sweep; the phone's in every run (both sizes' take-back
# controls below stay in every run).
@pytest.mark.parametrize("size", sweep("390x844", "1280x800"))
def test_two_strangers_race_at_one_table(browser: Browser, live_server: str, size: str) -> None:
    phone = size == "390x844"
    first_context, second_context = context_for(browser, size), context_for(browser, size)
    try:
        first, second = first_context.new_page(), second_context.new_page()
        problems = watch_console_errors(first) + watch_console_errors(second)
        race_strangers(first, live_server, phone)
        race_strangers(second, live_server, phone)
        assert first.url == second.url  # one table
        second.wait_for_selector("text=2 of 4 seats taken")
        first.reload()
        first.wait_for_selector("text=2 of 4 seats taken")
        axe_clean(second, f"quick lobby {size}", SHOTS, f"quick-lobby-{size}")
        press(first, "#start-race", phone)
        first.wait_for_selector("#table:not(:has(#lobby))", state="attached")
        # The second table hears of the start live (or by its refresh without JavaScript).
        second.wait_for_selector("#trick", timeout=20_000)
        for page in (first, second):
            page.wait_for_selector("#table[data-revealed]", state="attached")
        axe_clean(second, f"quick race {size}", SHOTS, f"quick-race-{size}")
        assert problems == []
    finally:
        first_context.close()
        second_context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_take_back_is_on_top_and_thumb_sized(browser: Browser, live_server: str, size: str) -> None:
    phone = size == "390x844"
    context = context_for(browser, size)
    try:
        page = context.new_page()
        problems = watch_console_errors(page)
        page.goto(live_server + "/")
        page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
        press(page, "#race-now", phone)
        page.wait_for_selector("#table[data-settled]", state="attached")
        assert page.locator("#takeback").count() == 0
        turn = page.locator("#move-form input[name=turn]").input_value()
        press(page, "#move-form label.tune-chip", phone)
        press(page, "#move-form .btn-play", phone)
        wait_for_reply(page, turn)
        found = tap_target(page, "#takeback")
        assert isinstance(found, list), found
        width, height = found
        assert width >= 44 and height >= 44, found
        page.screenshot(path=str(SHOTS / f"takeback-{size}.png"))
        press(page, "#takeback", phone)
        page.wait_for_selector("#table.is-practice", state="attached")
        page.wait_for_function(
            "() => document.querySelector('#move-form input[name=turn]').value === '0'"
        )
        assert page.locator("#takeback").count() == 0  # nothing more to take back
        assert "Practice race" in page.locator(".takeback-note").inner_text()
        assert problems == []
    finally:
        context.close()


HAND_ON_TOP_JS = """() => {
  const card = document.querySelector('#move-form label.hand-card');
  const chip = document.querySelector('#move-form label.tune-chip');
  const onTop = (el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  };
  return {
    scrolled: Math.round(window.scrollY),
    card: onTop(card), chip: onTop(chip),
    cardBottom: Math.round(card.getBoundingClientRect().bottom),
    barTop: Math.round(document.querySelector('#move-form .play-row').getBoundingClientRect().top),
    seatBar: Math.round(document.querySelector('.seat-bar').getBoundingClientRect().height),
  };
}"""


# Every run takes the shorter screen, where the fit is tighter; 1280x800 is in the slow sweep.
@pytest.mark.parametrize("size", sweep((1366, 768), (1280, 800)))
def test_a_laptop_sees_its_hand_above_the_play_bar(
    browser: Browser, live_server: str, size: tuple[int, int]
) -> None:
    """At a strangers' table (whose seat bar names everyone) a laptop screen shows a card
    of the hand and its Tune Up whole, above the sticky play bar, before any scrolling."""
    width, height = size
    contexts = [browser.new_context(viewport={"width": width, "height": height}) for _ in "ab"]
    try:
        first, second = (context.new_page() for context in contexts)
        race_strangers(first, live_server, phone=False)
        race_strangers(second, live_server, phone=False)
        first.reload()
        first.wait_for_selector("text=2 of 4 seats taken")
        first.click("#start-race")
        pages = (first, second)
        for page in pages:
            page.wait_for_selector("#table[data-revealed]", state="attached", timeout=20_000)
        # The bots lead first; then exactly one of the two people is to play.
        first.wait_for_function(
            "() => document.querySelector('.seat-badge.is-turn')?.dataset.seat < 2",
            timeout=20_000,
        )
        mover = next(p for p in pages if p.locator("#move-form label.hand-card").count())
        mover.wait_for_selector("#move-form label.hand-card")
        found = mover.evaluate(HAND_ON_TOP_JS)
        mover.screenshot(path=str(SHOTS / f"quick-race-laptop-{width}x{height}.png"))
        assert found["scrolled"] == 0, found
        assert found["card"] and found["chip"], (size, found)
        assert found["cardBottom"] <= found["barTop"], (size, found)
    finally:
        for context in contexts:
            context.close()
