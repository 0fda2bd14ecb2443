"""Away and back in real Chromium, on a touch phone (390x844) and a desktop (1280x800): the
away person's table says a bot plays their seat and puts "I'm back" on top, at least 44 px
tall on the phone; the other person's table names the away seat; axe finds nothing; one tap
takes the seat back. Screenshots go to tests/artifacts/away-*.png."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from away_kit import FRIEND, Pair, away, launch, new_pair, seat_page
from browser_kit import axe_clean, no_sideways_scroll, press, tap_target
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

TURN_SECONDS = 8.0
"""Long enough that, right after seat 0 moved, the race stands still while a page is
checked (seat 1 is away, so seat 0 is the only one the race then waits for)."""


@pytest.fixture
def server(launch_server: Callable[..., Any], live_server_env: dict[str, str]) -> str:
    return launch(launch_server, live_server_env, None, TURN_SECONDS)


def _seat_page(browser: Browser, phone: bool, server: str, pair: Pair, seat: int) -> Page:
    page = seat_page(browser, phone, server, pair, seat)
    page.wait_for_selector("#away")
    return page


def _still(pair: Pair) -> None:
    """Seat 0 moves now, so the race stands still for a turn of its clock."""
    state = pair.wait(0, lambda s: s["current_seat"] == 0)
    assert pair.play(0, state) is not None


def test_away_notice_and_im_back_on_phone_and_desktop(
    browser: Browser, server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    pair = new_pair(open_http(server))
    pair.seat_zero_plays_until(away(1))
    pages = []
    for phone, size in ((True, "phone"), (False, "desktop")):
        _still(pair)
        page = _seat_page(browser, phone, server, pair, 1)
        pages.append(page)
        assert "You are away: a bot is playing your seat" in page.inner_text("#away")
        for selector in ("#away .away-note", "#im-back"):
            found = tap_target(page, selector)
            assert isinstance(found, list), f"{size}: {selector} {found}"
            if phone and selector == "#im-back":
                assert found[1] >= 44, f"{size}: I'm back is {found[1]} px tall"
        no_sideways_scroll(page, f"away, {size}")
        axe_clean(page, f"away, {size}", ARTIFACTS, f"away-{size}")

    _still(pair)
    other = _seat_page(browser, False, server, pair, 0)
    assert f"{FRIEND} is away: a bot is playing." in other.inner_text("#away")
    assert other.locator("#im-back").count() == 0
    axe_clean(other, "away, the other seat", ARTIFACTS, "away-other-seat")

    # Checking pages can outlast seat 0's clock on a slow machine; two timeouts would make
    # seat 0 away too, the bots would finish the race and "I'm back" would rightly go.
    _still(pair)
    phone_page = pages[0]
    press(phone_page, "#im-back", phone=True)
    phone_page.wait_for_function("() => !document.getElementById('away')")
    assert not pair.state(1)["seats"][1]["away"]
    other.wait_for_function("() => !document.getElementById('away')")  # live, no reload
    phone_page.screenshot(path=str(ARTIFACTS / "away-back-phone.png"), full_page=True)
    for page in (*pages, other):
        page.context.close()
