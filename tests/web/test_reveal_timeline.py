"""One timeline for the whole table while the bots' cards are revealed, in real Chromium.

Sampled before every paint during each reply's reveal (the "fast" speed, on a touch phone):

- the header (status line and facts) and the racer strip never show a later moment of the
  race than the trick panel: each part carries the number of events it shows
  (``data-at``), the trick panel the number revealed so far (``data-shown-at``);
- no card of the hand can be picked while the trick it answers still shows a card not yet
  turned up: the choices are disabled (a tap then ends the reveal and picks nothing:
  tests/web/test_reveal_wait.py);
- once the reveal is over everything shows the new table and the hand can be picked.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from app_kit import wait_for_reply
from browser_kit import phone_context
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

RECORD_JS = """() => {
  cancelAnimationFrame(window.__sampling);
  window.__frames = [];
  const old = document.getElementById('table');
  const frame = () => {
    const table = document.getElementById('table');
    if (table && table !== old) {
      const trick = table.querySelector('#trick');
      const done = table.querySelector('#trick-done');
      const board = done && !done.hidden ? done : table.querySelector('.trick-now');
      const hidden = board ? board.querySelectorAll('.trick-slot.is-pending').length : 0;
      const choices = [...table.querySelectorAll('#move-form input[name=choice]')];
      window.__frames.push({
        header: Number(table.querySelector('.table-bar').dataset.at),
        strip: Number(table.querySelector('.track-strip').dataset.at),
        shown: Number(trick.dataset.shownAt),
        total: Number(table.dataset.at),
        hidden,
        pickable: choices.some(c => !c.disabled),
        revealed: !!table.dataset.revealed,
      });
    }
    window.__sampling = requestAnimationFrame(frame);
  };
  frame();
}"""


def _play(page: Page) -> list[dict[str, Any]]:
    turn = page.locator("input[name=turn]").input_value()
    page.evaluate(RECORD_JS)
    page.locator("#move-form label.tune-chip").first.tap()
    page.tap("#move-form .btn-play")
    wait_for_reply(page, turn)
    page.wait_for_function(  # a frame sampled since the reveal ended
        "() => window.__frames.length && window.__frames.at(-1).revealed"
    )
    frames: list[dict[str, Any]] = page.evaluate(
        "() => { cancelAnimationFrame(window.__sampling); return window.__frames; }"
    )
    return frames


def test_header_and_strip_follow_the_trick_and_the_hand_waits_for_face_up_cards(
    browser: Browser, live_server: str
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    page.goto(live_server + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'fast')")
    page.tap(".setup-form:not(.friends-form) label.pill:has(input[name=players][value='5'])")
    page.tap(".setup-form:not(.friends-form) label.pill:has(input[name=bots][value=random])")
    page.tap(".setup-form:not(.friends-form) button[type=submit]")
    page.wait_for_selector("#table[data-settled]", state="attached")
    hidden_seen = 0
    for _ in range(5):
        if not page.locator("#move-form").count():
            break
        frames = _play(page)
        assert frames, "no frame of the new table was sampled"
        for snap in frames:
            assert snap["header"] <= snap["shown"], json.dumps(snap)
            assert snap["strip"] <= snap["shown"], json.dumps(snap)
            if snap["hidden"]:
                hidden_seen += 1
                assert not snap["pickable"], json.dumps(snap)
        last = frames[-1]
        assert last["revealed"] and last["header"] == last["strip"] == last["total"]
        assert last["shown"] == last["total"]
        if page.locator("#move-form").count():
            assert last["pickable"], "the hand stays disabled after the reveal"
            assert page.locator("input[name=choice]:checked").count() == 0
    assert hidden_seen, "no frame showed a card still to be turned up"
    context.close()


def test_instant_reveal_leaves_the_hand_ready_at_once(browser: Browser, live_server: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(live_server + "/")
    page.click(".setup-form:not(.friends-form) label.pill:has(input[name=bots][value=random])")
    page.click(".setup-form:not(.friends-form) button[type=submit]")
    page.wait_for_selector("#table[data-settled]", state="attached")
    frames = _play(page)
    assert all(not f["hidden"] for f in frames), json.dumps(frames[:3])
    if page.locator("#move-form").count():
        assert all(f["pickable"] for f in frames)
    context.close()
