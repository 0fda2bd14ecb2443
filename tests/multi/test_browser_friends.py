"""Two people race each other in real Chromium, each in their own browser context, while
a third context watches: create, copy the invite, join, both tables update live (no
reload), a whole race to the chequered flag, the guest named as they chose; at the end
every page's live stream is closed and none reconnects. Screenshots of the lobby, both
tables and the watch page go to tests/artifacts/. The tables reveal each trick at once (the
reader prefers reduced motion): the race, not its animation, is under test here."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from app_kit import BROWSER_POLL_S, wait_until, watch_console_errors
from playwright.sync_api import Browser, Page, Request

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
DESKTOP = {"width": 1280, "height": 800}
TURN_SECONDS = 60.0
"""Bound on the wait for the next turn (it takes moments; the machine may be busy)."""


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def _settled_with_move(page: Page) -> bool:
    return bool(
        page.evaluate(
            """() => {
                const table = document.getElementById('table');
                return !!(table && table.dataset.settled && document.getElementById('move-form'));
            }"""
        )
    )


def _move(page: Page, rng: random.Random) -> None:
    turn = page.locator("input[name=turn]").input_value()
    labels = page.locator("#move-form label.hand-card, #move-form label.tune-chip")
    labels.nth(rng.randrange(labels.count())).click()
    page.click("#move-form .btn-play")
    page.wait_for_function(
        """(turn) => {
            const field = document.querySelector('input[name=turn]');
            const table = document.getElementById('table');
            return table && table.dataset.settled && (!field || field.value !== turn);
        }""",
        arg=turn,
    )
    assert page.locator("#table .alert").count() == 0, page.locator("#table .alert").inner_text()


SSE_WATCH_JS = """() => {
  const Real = window.EventSource;
  window.__sources = [];
  window.__sseLog = [];
  window.EventSource = class extends Real {
    constructor(...args) { super(...args); window.__sources.push(this); }
  };
  document.addEventListener('htmx:sseError', () => window.__sseLog.push('error'));
  document.addEventListener(
    'htmx:sseClose', (event) => window.__sseLog.push('close:' + event.detail.type));
}"""
"""Keeps every event stream a page opens, and what the htmx SSE extension says of them."""


def _count_streams(page: Page) -> dict[str, int]:
    """Live counts of the page's event-stream requests opened and ended (either side)."""
    counts = {"opened": 0, "ended": 0}

    def seen(key: str) -> Callable[[Request], None]:
        def note(request: Request) -> None:
            if request.url.endswith("/events"):
                counts[key] += 1

        return note

    page.on("request", seen("opened"))
    page.on("requestfinished", seen("ended"))
    page.on("requestfailed", seen("ended"))
    return counts


def _streams_closed(page: Page, counts: dict[str, int]) -> None:
    """Every stream the page opened has ended, closed by the race's "over" message, so none
    opens again: the htmx SSE extension reconnects only after an error, and no error came
    after that close (a closed EventSource reports none)."""
    page.wait_for_function(
        "() => window.__sources.length && window.__sources.every(s => s.readyState === 2)"
    )
    assert page.evaluate("() => window.__sseLog.at(-1)") == "close:message"
    wait_until(  # the page's evaluate lets Playwright hand over the request events
        lambda: page.evaluate("() => true") and counts["ended"] >= counts["opened"],
        "the page's stream requests ending",
        timeout=15,
    )
    assert counts["opened"] == page.evaluate("() => window.__sources.length") >= 1, counts
    assert counts["ended"] == counts["opened"], counts


def _create_and_invite(page: Page, base: str) -> str:
    page.goto(base + "/")
    form = page.locator(".friends-form")
    form.locator("label.pill:has(input[name=players][value='4'])").click()
    form.locator("label.pill:has(input[name=people][value='2'])").click()
    form.locator("label.pill:has(input[name=bots][value=random])").click()
    page.click("#race-friends")
    page.wait_for_selector("#lobby")
    page.wait_for_load_state("domcontentloaded")  # the deferred scripts (Copy's handler) ran
    page.click("[data-copy=invite-1]")
    page.wait_for_function(
        "() => document.querySelector('[data-copy=invite-1]').textContent === 'Copied'"
    )
    copied = str(page.evaluate("() => navigator.clipboard.readText()"))
    assert copied == page.locator("#invite-1").input_value()
    _shot(page, "friends-lobby")
    return copied


def test_two_people_race_live_while_a_third_watches(browser: Browser, live_server: str) -> None:
    host = browser.new_context(
        viewport=DESKTOP,
        reduced_motion="reduce",
        permissions=["clipboard-read", "clipboard-write"],
    )
    guest_ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    viewer_ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    for context in (host, guest_ctx, viewer_ctx):
        context.add_init_script(script=f"({SSE_WATCH_JS})()")
    creator, guest, viewer = host.new_page(), guest_ctx.new_page(), viewer_ctx.new_page()
    problems_lists = [watch_console_errors(p) for p in (creator, guest, viewer)]
    streams = {p: _count_streams(p) for p in (creator, guest, viewer)}
    invite = _create_and_invite(creator, live_server)
    assert "code=" in invite and "token" not in invite
    creator.evaluate("() => { window.zzvMark = 'no reload'; }")

    guest.goto(invite)
    guest.fill("#name", "Bea <3")
    guest.click("#join-race")
    guest.wait_for_selector("#table .seat-bar")
    # The creator's lobby turns into the race by itself, names escaped, no reload.
    creator.wait_for_selector("#table .seat-bar .seat-name:has-text('Bea <3')")
    assert creator.locator("#lobby").count() == 0
    guest.evaluate("() => { window.zzvMark = 'no reload'; }")

    watch_url = creator.locator("#watch-link").get_attribute("href")
    assert watch_url
    viewer.goto(watch_url)
    viewer.wait_for_selector("#table")
    assert viewer.locator("#move-form, .hand-area").count() == 0

    rng = random.Random(7)
    moves = {creator: 0, guest: 0}

    def over_or_mover() -> Page | str | None:
        if creator.locator(".game-over").count() and guest.locator(".game-over").count():
            return "over"
        return next((p for p in (creator, guest) if _settled_with_move(p)), None)

    def next_turn() -> Page | str:
        return wait_until(over_or_mover, "a turn or the flag", TURN_SECONDS, BROWSER_POLL_S)

    while (mover := next_turn()) != "over":
        assert isinstance(mover, Page)
        _move(mover, rng)
        moves[mover] += 1
        if moves[creator] == 3 and moves[guest] >= 2 and mover is creator:
            _shot(creator, "friends-table-creator")
            guest.wait_for_function("() => !!document.getElementById('table').dataset.settled")
            _shot(guest, "friends-table-guest")
            _shot(viewer, "friends-watch")

    assert moves[creator] > 3 and moves[guest] > 3
    for page in (creator, guest):
        assert page.evaluate("() => window.zzvMark") == "no reload"  # every update was live
    viewer.wait_for_selector(".game-over", timeout=15_000)
    assert viewer.locator("#rematch").count() == 0
    _shot(viewer, "friends-watch-over")
    for page in (creator, viewer):  # the guest's name, as typed, in the race's own words
        assert "Bea <3" in page.locator("#table .round-stories").inner_text()
    assert creator.locator("#race-again").inner_text() == "Race this deal again with friends"
    for page in (creator, guest, viewer):
        _streams_closed(page, streams[page])
    # The final tables are still there after the streams closed.
    assert all(p.locator("#table .game-over").count() == 1 for p in (creator, guest, viewer))
    for found in problems_lists:
        assert found == [], found  # no script error, no CSP violation
    for context in (host, guest_ctx, viewer_ctx):
        context.close()
