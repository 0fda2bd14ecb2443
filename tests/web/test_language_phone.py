"""The race table in other languages on a phone, in real Chromium emulating a touch phone.

Arabic (right to left) at 390x844: the page says ``dir="rtl"``, the table mirrors (the
hand's first card at the right edge, the racetrack's start line on the right, the cars
facing left), and every turn of a whole race passes the phone checks of test_phone.py
(no sideways scroll, the hand and Play on the first screen, on top, thumb-sized).

The pseudo-locale ``en-XA`` (every message bracketed, about 40% longer) at 360x740: the
longer words still fit the phone table at every turn, no control clipped.

Screenshots go to tests/artifacts/i18n/.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from app_kit import watch_console_errors
from browser_kit import DESKTOP, PHONE, phone_context
from playwright.sync_api import Browser, Page
from test_phone import GAME_OVER_JS, MAX_MOVES, PHONE_CHECK_JS, _move, _start

from app.http.i18n import COOKIE

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "i18n"

MIRRORED_JS = """() => {
  const box = el => el.getBoundingClientRect();
  const hand = box(document.querySelector('#move-form .hand'));
  const cards = [...document.querySelectorAll('#move-form .hand > .hand-slot')].map(box);
  const road = document.querySelector('.lane-road');
  const start = box(road.querySelector('.cell-0'));
  const strip = [...document.querySelectorAll('.track-strip > .strip-lane')].map(box);
  const car = getComputedStyle(road.querySelector('.car')).scale;
  return {
    dir: document.documentElement.dir,
    firstCardGap: hand.right - cards[0].right,
    cardsRightToLeft: cards.every((c, i) => i === 0 || c.right <= cards[i - 1].left + 1),
    startGap: box(road).right - start.right,
    stripRightToLeft: strip.every((s, i) => i === 0 || s.top > strip[i - 1].top
      || s.right <= strip[i - 1].left + 1),
    car,
  };
}"""

PLAY_ON_TOP_JS = """() => {
  const play = document.querySelector('#move-form .btn-play');
  const r = play.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {onTop: !!hit && play.contains(hit), width: r.width, height: r.height,
          bottom: r.bottom, screen: window.innerHeight};
}"""


def _check(page: Page, where: str) -> None:
    problems = page.evaluate(PHONE_CHECK_JS, [0.18, True])
    assert problems == [], f"{where}: {problems}"


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), scale="css")


def _race_to_the_flag(page: Page, rng: random.Random, where: str) -> None:
    """Tap a move at every turn until the flag, each turn passing the phone checks."""
    for moves in range(1, MAX_MOVES + 1):
        if page.locator(".game-over").count():
            break
        _move(page, rng)
        if page.locator("#move-form").count():
            _check(page, f"{where}, move {moves}")
    else:
        pytest.fail(f"{where}: no game over after {MAX_MOVES} moves")
    page.wait_for_selector(".game-over", state="visible")
    page.wait_for_selector(".moment.is-on", state="detached")
    assert page.evaluate(GAME_OVER_JS) == [], f"{where}: not on the first screen at the flag"
    _check(page, f"{where}, game over")


@pytest.mark.slow  # a language sweep (the pseudo-locale's lesson stays in the quick run)
def test_arabic_table_mirrors_and_a_race_is_played_by_tapping(
    browser: Browser, live_server: str
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    problems = watch_console_errors(page)
    page.goto(live_server + "/?lang=ar")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    # The picker keeps the language for the race's pages and every move's answer.
    page.select_option("#language-pick", "ar")
    with page.expect_navigation():
        page.tap(".language-pick button[type=submit]")
    _start(page, live_server, players=4)
    page.goto(page.url.split("?")[0] + "?lang=ar")
    page.wait_for_selector("#table[data-settled]", state="attached")

    mirrored = page.evaluate(MIRRORED_JS)
    assert mirrored["dir"] == "rtl", mirrored
    assert 0 <= mirrored["firstCardGap"] <= 2, f"the first card is not at the right: {mirrored}"
    assert mirrored["cardsRightToLeft"], f"the hand does not run right to left: {mirrored}"
    assert 0 <= mirrored["startGap"] <= 2, f"the track does not start on the right: {mirrored}"
    assert mirrored["stripRightToLeft"], f"the strip does not run right to left: {mirrored}"
    assert mirrored["car"] == "-1 1", f"the cars do not face left: {mirrored}"
    play = page.evaluate(PLAY_ON_TOP_JS)
    assert play["onTop"] and play["width"] >= 44 and play["height"] >= 44, play
    assert play["bottom"] <= play["screen"], play
    _shot(page, "ar-table-390x844")
    page.evaluate("document.getElementById('track').scrollIntoView({block: 'center'})")
    _shot(page, "ar-track-390x844")
    page.evaluate("window.scrollTo(0, 0)")
    _check(page, "ar, start")
    # The same table on a laptop's screen mirrors too (a look, for the screenshot).
    page.set_viewport_size(DESKTOP)
    assert page.evaluate(MIRRORED_JS)["firstCardGap"] <= 2
    _shot(page, "ar-table-1280x800")
    page.set_viewport_size(PHONE)

    _race_to_the_flag(page, random.Random(59), "ar")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    _shot(page, "ar-game-over-390x844")
    assert problems == [], problems
    context.close()


@pytest.mark.slow  # a language sweep (the pseudo-locale's lesson stays in the quick run)
def test_pseudo_locale_longer_words_still_fit_the_phone_table(
    browser: Browser, live_server: str
) -> None:
    context = phone_context(browser, 360, 740)
    context.add_cookies([{"name": COOKIE, "value": "en-XA", "url": live_server}])
    page = context.new_page()
    problems = watch_console_errors(page)
    _start(page, live_server, players=4)
    # Every catalogued sentence is bracketed: the status line and Play went through it.
    assert page.locator("#table-status").inner_text().startswith("[")
    assert page.locator("#move-form .btn-play").inner_text().startswith("[")
    _shot(page, "en-XA-table-360x740")
    _check(page, "en-XA, start")
    _race_to_the_flag(page, random.Random(60), "en-XA")
    _shot(page, "en-XA-game-over-360x740")
    assert problems == [], problems
    context.close()


@pytest.mark.parametrize("language", ["en", "en-XA"])
def test_lesson_first_turn_fits_the_phone_in_longer_words(
    browser: Browser, live_server: str, language: str
) -> None:
    """The lesson's first turn at 360x740: the coach's words, the hand and Play on the first
    screen, nothing clipped, no sideways scroll. The lesson scrolls its coach and hand into
    view, so under longer words the status line above them may leave the screen (its words
    are the coach's ask, which stays)."""
    context = phone_context(browser, 360, 740)
    context.add_cookies([{"name": COOKIE, "value": language, "url": live_server}])
    page = context.new_page()
    page.goto(live_server + "/learn")
    page.tap("#start-lesson")
    page.wait_for_selector("#table[data-settled]", state="attached")
    _shot(page, f"{language}-lesson-360x740")
    problems = page.evaluate(PHONE_CHECK_JS, [0.18, True])
    problems = [p for p in problems if not p.startswith('#table-status "')]
    assert problems == [], f"{language}, lesson: {problems}"
    coach = page.evaluate(
        "(() => { const r = document.getElementById('coach-ask')"
        ".getBoundingClientRect(); return [r.top, r.bottom]; })()"
    )
    assert coach[0] >= 0 and coach[1] <= 740, coach
    context.close()
