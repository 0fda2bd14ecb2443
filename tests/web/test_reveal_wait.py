"""No dead time: how long a person waits each turn for the bots' cards, in real Chromium.

A whole race as a touch phone at the default reveal speed: each turn's wait runs from the
tap on Play (the request leaves) to the moment the hand can be picked again (the reveal
is over), so it counts the server's answer too. The median over the race must be at most
1.2 s. A tap on the table, or Escape, ends a reveal in the same task (before anything
else sees the input) and picks no card.
"""

from __future__ import annotations

import statistics

import pytest
from app_kit import wait_for_reply
from browser_kit import phone_context
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

MAX_TURNS = 80
"""More turns than any race takes (a safety bound for the loop, not an expectation)."""

TIMING_JS = """(() => {
  window.__waits = [];
  document.addEventListener('htmx:beforeRequest', (event) => {
    if (event.detail.elt && event.detail.elt.id === 'move-form') {
      window.__sent = performance.now();
    }
  });
  document.addEventListener('zzv:revealed', () => {
    if (window.__sent !== undefined) {
      window.__waits.push(performance.now() - window.__sent);
      window.__sent = undefined;
    }
  });
})();"""


def _start_race(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.tap(".setup-form:not(.friends-form) button[type=submit]")
    page.wait_for_selector("#table[data-settled]", state="attached")


def _play_first_choice(page: Page) -> str:
    turn = page.locator("input[name=turn]").input_value()
    page.locator("#move-form label.tune-chip, #move-form label.hand-card").first.tap()
    page.tap("#move-form .btn-play")
    return turn


@pytest.mark.slow  # a measurement over a whole race at the real speed: the slow sweeps
def test_the_median_wait_per_turn_at_the_default_speed_is_at_most_1_2_seconds(
    browser: Browser, live_server: str
) -> None:
    context = phone_context(browser, 390, 844)
    page = context.new_page()
    page.add_init_script(TIMING_JS)
    _start_race(page, live_server)
    for _ in range(MAX_TURNS):
        if page.locator(".game-over").count() or not page.locator("#move-form").count():
            break
        wait_for_reply(page, _play_first_choice(page))
    assert page.locator(".game-over").count() == 1, "the race did not reach its end"
    waits = page.evaluate("() => window.__waits")
    context.close()
    assert len(waits) >= 10, waits
    median = statistics.median(waits) / 1000
    assert median <= 1.2, f"median wait {median:.2f} s over {len(waits)} turns: {waits}"


def _reveal_is_running(page: Page) -> bool:
    return bool(page.evaluate("() => !!document.querySelector('#table.is-revealing')"))


@pytest.mark.parametrize("how", ["tap", "escape"])
def test_a_tap_or_escape_ends_the_reveal_at_once_and_picks_no_card(
    browser: Browser, live_server: str, how: str
) -> None:
    context = phone_context(browser, 390, 844)
    page = context.new_page()
    _start_race(page, live_server)
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'slow')")
    for _ in range(MAX_TURNS):
        _play_first_choice(page)
        # A reply whose bots played nothing before this seat's next turn shows no reveal.
        page.wait_for_function(
            "() => document.querySelector('#table.is-revealing')"
            " || document.querySelector('#table[data-revealed]')"
        )
        if _reveal_is_running(page):
            break
        if page.locator(".game-over").count():
            pytest.fail("no turn of the race revealed a bot's card")
    assert page.locator(".skip-hint").is_visible()
    # Runs right after the table's own listener, in the same task as the tap or key.
    page.evaluate(
        """() => {
          const seen = () => {
            window.__doneAtInput = !!document.querySelector('#table[data-revealed]');
          };
          document.addEventListener('click', seen, true);
          document.addEventListener('keydown', seen, true);
        }"""
    )
    if how == "tap":
        # force: a person's thumb does not wait for the card to become pickable.
        page.locator("#move-form label.hand-card").first.tap(force=True)
    else:
        page.keyboard.press("Escape")
    assert page.evaluate("() => window.__doneAtInput") is True
    assert not _reveal_is_running(page)
    assert page.locator("#trick .trick-slot.is-pending").count() == 0
    # The skipping tap was spent on the skip: no card was picked behind the reveal.
    assert page.locator("#move-form input[name=choice]:checked").count() == 0
    assert page.locator("#move-form input[name=choice]:enabled").count() > 0
    context.close()
