"""The server-side extras in real Chromium against a real uvicorn on 127.0.0.1.

With JavaScript off: a refused move and a preview come back to the table's own address,
and a reload still shows the race. With JavaScript on: earlier rounds of the race log are
fetched when they are opened, Suggest fills the form, and the replay steps through tricks
in place while the address follows.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser


def _start(page: Page, base: str, players: str = "3") -> str:
    """Start a race with random bots from the start page's form; return the table's URL."""
    page.goto(base + "/")
    page.check(f".setup-form input[name=players][value='{players}']", force=True)
    page.check(".setup-form input[name=bots][value=random]", force=True)
    page.click("text=Start this race")
    page.wait_for_selector("#table")
    assert re.fullmatch(re.escape(base) + r"/games/[A-Za-z0-9_-]+", page.url), page.url
    return page.url


def test_without_javascript_a_refused_move_then_a_reload_still_shows_the_race(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    table_url = _start(page, live_server)
    page.click("#move-form .btn-play")  # no card picked: the server refuses the move
    assert page.url == table_url
    assert "Pick a card first" in page.locator("#move-error").inner_text()
    response = page.reload()
    assert response is not None and response.status == 200
    assert page.url == table_url
    assert page.locator("#move-form").count() == 1
    assert page.locator("#move-error").count() == 0
    context.close()


def test_without_javascript_the_preview_button_scores_the_chosen_card(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    table_url = _start(page, live_server)
    turn = page.locator("input[name=turn]").input_value()
    page.locator("#move-form input[name=choice][value^='up:']").first.check(force=True)
    page.fill("#gas", "1")
    page.click("#move-form .btn-preview")
    assert page.url == table_url
    assert re.search(r"\+ 1 gas scores \d+", page.locator("#preview-server").inner_text())
    assert page.locator("input[name=turn]").input_value() == turn  # nothing was played
    assert page.locator("#gas").input_value() == "1"
    page.click("#move-form .btn-suggest")
    assert page.url == table_url
    assert page.locator("#suggestion").inner_text().startswith("Suggested:")
    assert page.locator("#move-form input[name=choice]:checked").count() == 1
    context.close()


def test_with_javascript_suggest_fills_the_form_and_earlier_rounds_load_when_opened(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context()
    page = context.new_page()
    table_url = _start(page, live_server)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.click("#move-form .btn-suggest")
    page.wait_for_selector("#suggestion")
    assert page.locator("#move-form input[name=choice]:checked").count() == 1
    assert page.url == table_url
    for _ in range(20):  # Tune Ups until a move of round 2 has been played
        if page.locator(".log-earlier").count():
            break
        turn = page.locator("input[name=turn]").input_value()
        page.locator("#move-form label.tune-chip").first.click()
        page.click("#move-form .btn-play")
        page.wait_for_function(
            "(t) => document.querySelector('input[name=turn]')?.value !== t", arg=turn
        )
    assert not any("/log" in url for url in requests)
    assert page.locator(".log-earlier .log-round").count() == 0
    page.click(".log-earlier summary")
    page.wait_for_selector(".log-earlier .log-round")
    assert any(url.startswith(table_url + "/log?before=") for url in requests)
    assert "Round 1" in page.locator(".log-earlier").inner_text()
    context.close()


def test_with_javascript_the_replay_steps_in_place_and_the_address_follows(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context()
    page = context.new_page()
    table_url = _start(page, live_server)
    page.locator("#move-form label.tune-chip").first.click()  # one card, so a trick exists
    page.click("#move-form .btn-play")
    page.wait_for_function("() => document.querySelector('input[name=turn]')?.value !== '0'")
    page.goto(table_url + "/replay")
    assert page.locator(".replay-keys-help").is_visible()  # a desktop has the arrow keys
    page.click("#replay a[rel=next]")
    page.wait_for_url(table_url + "/replay?step=1")
    assert "round 1, trick 1" in page.locator("#replay h1").inner_text()
    assert page.locator("#replay").count() == 1
    context.close()
