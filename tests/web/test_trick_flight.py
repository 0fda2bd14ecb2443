"""A finished trick's cards travel to its winner, in real Chromium as a touch phone: once
the reveal marks the winner, each card of the trick moves toward the winner's seat chip
(its box seen closing in on the chip), then the trick clears; a tap or Escape during the
flight lands it at once; under reduced motion nothing travels.

A MutationObserver in the page notes each card's distance to the chip at the instant the
flight starts, so the test waits on conditions only. The median wait per turn with the
flight in is kept by tests/web/test_reveal_wait.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_kit import phone_context
from playwright.sync_api import Browser, Page
from sweep_kit import sweep

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "moments"
MAX_TURNS = 80
"""More turns than any race takes (a safety bound for the loop)."""

WATCH_JS = """(() => {
  const centre = (el) => {
    const box = el.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  };
  window.__distances = () => {
    const done = document.querySelector('#trick-done');
    const chip = done && done.querySelector('[data-winner] .seat-chip');
    if (!chip) return [];
    const [cx, cy] = centre(chip);
    return [...done.querySelectorAll('.slot-card > *')].map((card) => {
      const [x, y] = centre(card);
      return Math.hypot(x - cx, y - cy);
    });
  };
  window.__flights = [];
  window.__results = 0;
  new MutationObserver((changes) => {
    for (const change of changes) {
      const el = change.target;
      if (!(el instanceof Element)) continue;
      if (el.id === 'trick-done' && change.attributeName === 'data-flight'
          && el.dataset.flight === 'flying') {
        window.__flights.push({start: window.__distances()});
      }
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-flight']});
  new MutationObserver(() => {
    const result = document.querySelector('#trick-done .trick-done-result');
    if (result && result.textContent) window.__results += 1;
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();"""

FLYING = "() => !!document.querySelector('#trick-done[data-flight=\"flying\"]')"


def _start_race(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.tap(".setup-form:not(.friends-form) button[type=submit]")
    page.wait_for_selector("#table[data-settled]", state="attached")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'slow')")


def _play_until(page: Page, condition: str) -> None:
    """Plays the first card each turn until ``condition`` holds during a turn's reveal."""
    for _ in range(MAX_TURNS):
        page.locator("#move-form label.tune-chip, #move-form label.hand-card").first.tap()
        page.tap("#move-form .btn-play")
        page.wait_for_function(
            f"() => ({condition})() || (document.querySelector('#table[data-revealed]')"
            " && !document.querySelector('#table.is-revealing'))"
        )
        if page.evaluate(condition):
            return
        # The reveal ends, then the finished trick is held a moment: wait it out.
        page.wait_for_function("() => !document.querySelector('#table.is-revealing')")
        if page.locator(".game-over").count():
            break
    pytest.fail(f"no turn of the race met {condition}")


def test_a_finished_trick_s_cards_travel_to_its_winner(browser: Browser, live_server: str) -> None:
    context = phone_context(browser, 390, 844)
    page = context.new_page()
    page.add_init_script(WATCH_JS)
    _start_race(page, live_server)
    _play_until(page, FLYING)
    start = page.evaluate("() => window.__flights.at(-1).start")
    assert start and max(start) > 20, f"the cards start away from the chip: {start}"
    # Each card that started away from the chip closes in on it while the flight runs.
    page.wait_for_function(
        """(start) => {
          const now = window.__distances();
          return now.length === start.length
            && start.every((d, i) => d < 20 || now[i] < d / 2);
        }""",
        arg=start,
    )
    page.screenshot(path=str(SHOTS / "trick-flight-390x844.png"))
    page.wait_for_function(
        "() => { const d = document.querySelector('#trick-done');"
        " return !d || d.hidden || d.dataset.flight === 'landed'; }"
    )
    context.close()


# The tap in every run; the Escape key, the same landing by another way in, in the slow sweep.
@pytest.mark.parametrize("how", sweep("tap", "escape"))
def test_a_tap_or_escape_lands_the_flight_at_once(
    browser: Browser, live_server: str, how: str
) -> None:
    context = phone_context(browser, 390, 844)
    page = context.new_page()
    page.add_init_script(WATCH_JS)
    _start_race(page, live_server)
    _play_until(page, FLYING)
    # Seen before the table's listeners (window, capture) and right after them (document).
    page.evaluate(
        """() => {
          const flight = () => {
            const done = document.querySelector('#trick-done');
            return {flight: done ? done.dataset.flight : null, shown: !!done && !done.hidden};
          };
          for (const kind of ['click', 'keydown']) {
            window.addEventListener(kind, () => { window.__before = flight(); }, true);
            document.addEventListener(kind, () => { window.__after = flight(); }, true);
          }
        }"""
    )
    if how == "tap":
        page.locator("#trick").tap(force=True)
    else:
        page.keyboard.press("Escape")
    before = page.evaluate("() => window.__before")
    after = page.evaluate("() => window.__after")
    assert before == {"flight": "flying", "shown": True}, before
    assert after["flight"] == "landed", after
    if not page.locator(".game-over").count():
        assert after["shown"] is False, "the trick is cleared once its cards have gone"
    assert not page.evaluate("() => !!document.querySelector('#table.is-revealing')")
    context.close()


def test_nothing_travels_under_reduced_motion(browser: Browser, live_server: str) -> None:
    context = phone_context(browser, 390, 844, reduced_motion="reduce")
    page = context.new_page()
    page.add_init_script(WATCH_JS)
    _start_race(page, live_server)  # the reader chose a staged reveal all the same
    _play_until(page, "() => window.__results > 0")
    page.wait_for_function("() => !document.querySelector('#table.is-revealing')")
    assert page.evaluate("() => window.__flights") == []
    assert page.locator("#trick-done[data-flight]").count() == 0
    context.close()
