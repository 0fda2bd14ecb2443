"""Rematch in real Chromium: after a race of two people, one presses Rematch on a desktop
(1280x800) and lands in the new race's lobby; the other's finished table, on a touch phone
(390x844), shows the offer by itself within seconds, on top and at least 44 px tall, axe
clean; one tap accepts and the new race starts with both of them, one seat further round.
Screenshots go to tests/artifacts/rematch-*.png."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from away_kit import FRIEND, Pair, finish, launch, new_pair, seat_page
from browser_kit import axe_clean, no_sideways_scroll, press, tap_target
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"


@pytest.fixture
def server(launch_server: Callable[..., Any], live_server_env: dict[str, str]) -> str:
    return launch(launch_server, live_server_env, None, 30.0)


def _seat_page(browser: Browser, phone: bool, server: str, pair: Pair, seat: int) -> Page:
    page = seat_page(browser, phone, server, pair, seat)
    page.wait_for_selector(".game-over #rematch")
    return page


def test_rematch_offered_on_a_desktop_accepted_on_a_phone(
    browser: Browser, server: str, open_http: Callable[[str], httpx.Client]
) -> None:
    pair = new_pair(open_http(server))
    finish(pair)
    desktop = _seat_page(browser, False, server, pair, 0)
    phone = _seat_page(browser, True, server, pair, 1)
    assert "Same people and settings" in desktop.inner_text("#rematch-box")
    axe_clean(desktop, "rematch, not offered yet", ARTIFACTS, "rematch-before-desktop")

    press(desktop, "#rematch", phone=False)
    desktop.wait_for_url(lambda url: pair.game_id not in url)
    new_id = desktop.url.rsplit("/", 1)[1]
    assert "Rematch: waiting for 1 person to accept" in desktop.inner_text("#table")

    phone.wait_for_selector("#rematch-decline")  # the offer arrived by itself
    assert "A rematch is on offer" in phone.inner_text("#rematch-box")
    for selector in ("#rematch", "#rematch-decline"):
        found = tap_target(phone, selector)
        assert isinstance(found, list), f"{selector}: {found}"
        assert found[1] >= 44, f"{selector} is {found[1]} px tall"
    no_sideways_scroll(phone, "rematch offer, phone")
    axe_clean(phone, "rematch offer, phone", ARTIFACTS, "rematch-offer-phone")

    press(phone, "#rematch", phone=True)
    phone.wait_for_url(f"{server}/games/{new_id}")
    phone.wait_for_selector("#table .seat-bar")
    [token] = [c["value"] for c in phone.context.cookies() if c["name"] == f"zzv_{new_id}"]
    state = pair.http.get(f"/api/games/{new_id}", headers={"Authorization": f"Bearer {token}"})
    assert state.status_code == 200, state.text
    assert state.json()["status"] == "playing" and state.json()["seat"] == 2
    assert [s["person"] for s in state.json()["seats"]] == [False, True, True]
    desktop.goto(f"{server}/games/{new_id}")
    assert FRIEND in desktop.inner_text("#table .seat-bar")
    assert "Rematch: waiting" not in desktop.inner_text("#table")
    phone.screenshot(path=str(ARTIFACTS / "rematch-started-phone.png"), full_page=True)
    for page in (desktop, phone):
        page.context.close()
