"""A move on a phone that loses its signal, or that the server cannot answer, says so on
top of the page and changes nothing; the next move that goes through clears the note.

Real uvicorn, real Chromium (390x844, touch): the browser is taken offline for the first
case, and for the second the move's answer is replaced by the server's own 503 answer to
htmx when a restart cuts a move short (the error page's panel alone, with its sentence).
"""

from __future__ import annotations

import pytest
from app_kit import wait_for_reply
from browser_kit import phone_context
from playwright.sync_api import Browser, Page, Route
from starlette.requests import Request

from app.http.errors import ServerStopping, render_error

pytestmark = pytest.mark.browser

OFFLINE = "No connection: nothing was sent. Try again once you are back online."

# The note: on top at its centre, inside the screen, and in a readable size.
SHOWN_JS = """() => {
  const note = document.getElementById('net-status');
  const box = note.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {
    text: note.textContent, hidden: note.hidden,
    onTop: note === hit || note.contains(hit),
    inside: box.top >= 0 && box.left >= 0 && box.right <= innerWidth && box.bottom <= innerHeight,
    fontPx: parseFloat(getComputedStyle(note).fontSize),
  };
}"""


def _table(browser: Browser, base: str) -> Page:
    page = phone_context(browser).new_page()
    page.goto(base + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    page.tap("text=Start this race")
    page.wait_for_selector("#table[data-revealed]", state="attached")
    page.tap("label.hand-card >> nth=0")
    return page


def _turn(page: Page) -> str:
    return page.locator("input[name=turn]").input_value()


def _note_shown(page: Page, text: str) -> None:
    page.wait_for_selector("#net-status:not([hidden])")
    note = page.evaluate(SHOWN_JS)
    assert note["text"] == text
    assert note["onTop"] and note["inside"], note
    assert note["fontPx"] >= 14, note


def test_a_move_without_signal_says_so_and_goes_through_once_back(
    browser: Browser, live_server: str
) -> None:
    page = _table(browser, live_server)
    turn = _turn(page)
    page.context.set_offline(True)
    page.tap("#move-form .btn-play")
    _note_shown(page, OFFLINE)
    assert _turn(page) == turn, "nothing was played"
    page.context.set_offline(False)
    page.tap("#move-form .btn-play")
    wait_for_reply(page, turn)
    assert page.evaluate(SHOWN_JS)["hidden"], "the note goes once a move goes through"
    page.context.close()


def test_a_move_the_server_cannot_answer_gives_its_sentence(
    browser: Browser, live_server: str
) -> None:
    page = _table(browser, live_server)
    turn = _turn(page)

    # The server's own answer to htmx when a restart cuts a move short: the error panel.
    htmx = [(b"hx-request", b"true")]
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/move",
        "query_string": b"",
        "headers": htmx,
    }
    stopped = render_error(Request(scope), ServerStopping())
    body = bytes(stopped.body).decode()
    assert stopped.status_code == 503 and "<html" not in body

    def unavailable(route: Route) -> None:
        route.fulfill(status=503, content_type="text/html", body=body)

    page.route("**/move", unavailable)
    page.tap("#move-form .btn-play")
    _note_shown(page, f"{ServerStopping().message} Reload the page to see the race as it stands.")
    page.unroute("**/move")
    page.tap("#move-form .btn-play")
    wait_for_reply(page, turn)
    assert page.evaluate(SHOWN_JS)["hidden"]
    page.context.close()
