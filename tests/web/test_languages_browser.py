"""Every shipped language in real Chromium, as a touch phone (390x844) and on a desktop
(1280x800): the home page, a race played to its end by taps, the review of that race, the
lesson's first steps and the daily page show no English sentence of the catalog (names
aside), carry ``<html lang dir>``, and axe finds nothing. Screenshots go to
tests/artifacts/i18n/<language>-<page>-<size>.png. Every language is a sweep, marked ``slow``
(tests/web/test_language_phone.py plays Arabic and the pseudo-locale in every run)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_kit import REVIEW_WAIT_S, wait_for_reply
from browser_kit import DESKTOP, axe_violations, phone_context, press
from i18n_kit import english_left
from playwright.sync_api import Browser, BrowserContext, Page

from app.http.i18n import COOKIE, DEFAULT, LANGUAGES, language

pytestmark = pytest.mark.browser

pytestmark = pytest.mark.slow

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "i18n"
SHIPPED = [code for code in LANGUAGES if code != DEFAULT]
MAX_MOVES = 200


@pytest.fixture
def server(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> str:
    """A server whose reviews use a small budget (the words are the same at any budget)."""
    env = {
        "ZZV_SEED_SECRET": "live-server-tests",
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_MAX_GAMES_PER_CLIENT": "100000",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_REVIEW_WORLDS": "2",
    }
    url: str = launch_server(server_command(free_port), port=free_port, env=env).url
    return url


def _context(browser: Browser, base: str, code: str, phone: bool) -> BrowserContext:
    options: dict[str, Any] = {"bypass_csp": True}  # axe is injected
    if phone:
        context = phone_context(browser, **options)
    else:
        context = browser.new_context(viewport=DESKTOP, **options)
    context.add_cookies([{"name": COOKIE, "value": code, "url": base}])
    context.add_init_script("localStorage.setItem('zzv.revealSpeed', 'instant')")
    return context


def _speaks(page: Page, code: str, what: str, size: str) -> None:
    """``page`` is in ``code`` all through: its ``<html>`` says so, no catalogued English is
    left in its visible text, axe finds nothing; and its screenshot is saved."""
    where = f"{code}, {what}, {size}"
    assert page.get_attribute("html", "lang") == code, where
    assert page.get_attribute("html", "dir") == language(code).dir, where
    # A lap's or the race's moment fades over the table: the page as it then stays is checked.
    page.wait_for_function("() => !document.querySelector('.moment.is-on')")
    left = english_left(page.inner_text("body"), code)
    assert not left, f"{where}: English left: {left}"
    problems = axe_violations(page)
    assert not problems, f"{where}: {problems}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")  # the first screen, as a person sees it
    page.screenshot(path=str(SHOTS / f"{code}-{what}-{size}.png"), scale="css")


def _play_to_the_end(page: Page, code: str, phone: bool) -> None:
    """Start a 3-player race against random bots from the home page's form and play it by
    taps to its end, checking the table's language at the first turn."""
    rng = random.Random(code)
    press(page, ".setup-form label.pill:has(input[name=players][value='3'])", phone)
    press(page, ".setup-form label.pill:has(input[name=bots][value=random])", phone)
    press(page, ".setup-form:not(.friends-form) button[type=submit]", phone)
    page.wait_for_selector("#table[data-revealed]", state="attached")
    _speaks(page, code, "table", "390x844" if phone else "1280x800")
    for _ in range(MAX_MOVES):
        if page.locator(".game-over").count():
            return
        turn = page.locator("input[name=turn]").input_value()
        labels = page.locator("#move-form label.hand-card, #move-form label.tune-chip")
        label = labels.nth(rng.randrange(labels.count()))
        if phone:
            label.tap()
        else:
            label.click()
        press(page, "#move-form .btn-play", phone)
        wait_for_reply(page, turn)
    pytest.fail(f"{code}: the race did not end in {MAX_MOVES} moves")


def _first_lesson_steps(page: Page, base: str, phone: bool) -> None:
    page.goto(base + "/learn")
    press(page, "#start-lesson", phone)
    page.wait_for_selector("#table[data-revealed]", state="attached")
    for _ in range(2):
        pick = page.locator("input[data-coach='pick']")
        press(page, f"label[for='{pick.get_attribute('id')}']", phone)
        gas = int(page.locator("#move-form").get_attribute("data-coach-gas") or 0)
        if (pick.get_attribute("value") or "").startswith("up:"):
            for _ in range(gas):
                press(page, "#move-form [data-step='1']", phone)
        turn = page.locator("input[name=turn]").input_value()
        press(page, "#move-form .btn-play", phone)
        wait_for_reply(page, turn)


@pytest.mark.parametrize("code", SHIPPED)
def test_each_language_from_home_to_review_on_a_phone_and_a_desktop(
    browser: Browser, server: str, code: str
) -> None:
    phone = _context(browser, server, code, phone=True)
    page = phone.new_page()
    page.goto(server + "/")
    _speaks(page, code, "home", "390x844")
    _play_to_the_end(page, code, phone=True)
    _speaks(page, code, "race-over", "390x844")
    race = page.url
    press(page, "#review-race", True)
    page.wait_for_selector("#review-summary", timeout=REVIEW_WAIT_S * 1000)
    _speaks(page, code, "review", "390x844")
    _first_lesson_steps(page, server, phone=True)
    _speaks(page, code, "lesson", "390x844")
    page.goto(server + "/daily")
    _speaks(page, code, "daily", "390x844")

    desktop = _context(browser, server, code, phone=False)
    desktop.add_cookies(phone.cookies())
    page = desktop.new_page()
    for what, path in (("home", "/"), ("race-over", race), ("review", race + "/review")):
        page.goto(path if path.startswith("http") else server + path)
        if what == "review":
            page.wait_for_selector("#review-summary", timeout=REVIEW_WAIT_S * 1000)
        _speaks(page, code, what, "1280x800")
    _first_lesson_steps(page, server, phone=False)
    _speaks(page, code, "lesson", "1280x800")
    page.goto(server + "/daily")
    _speaks(page, code, "daily", "1280x800")
    phone.close()
    desktop.close()
