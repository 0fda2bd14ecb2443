"""Quick messages in real Chromium, on a touch phone (390x844) and a desktop (1280x800):
two people and a watcher follow a race with friends; a message sent with a tap (or the
keyboard) shows beside its sender's seat and in everyone's table talk without a reload,
never over the hand or Play; a message sent too soon says why in the talk; a muted
watcher's page leaves the others' messages out; the form works without JavaScript; axe
finds nothing. Screenshots go to tests/artifacts/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from app_kit import watch_console_errors
from browser_kit import axe_clean, browser_context, no_sideways_scroll, press
from playwright.sync_api import Browser, BrowserContext, Page
from sweep_kit import sweep

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"

_SSE_OPEN = """document.addEventListener('htmx:sseOpen', () => { window.zzvLive = true; });"""

_NOT_COVERED = """() => {
  // Every card of the hand and the Play button: on top at its centre, and clear of any
  // bubble or speaking seat shown over the bar (which take no taps, so elementFromPoint
  // would look through them).
  const targets = [...document.querySelectorAll(
    '#table .hand-card, #table .tune-chip, #table .btn-play')];
  const overlays = [...document.querySelectorAll('.said-bubble.is-fresh, .seat-badge')]
    .filter(el => el.classList.contains('said-bubble')
      || getComputedStyle(el).position === 'absolute')
    .map(el => el.getBoundingClientRect()).filter(r => r.width && r.height);
  const problems = [], checked = [];
  for (const el of targets) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (y < 0 || y > innerHeight) continue;  // off screen: nothing can cover it now
    checked.push(el.className);
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit) || hit.closest('label') === el)) {
      const what = hit ? hit.className || hit.tagName : 'nothing';
      problems.push((el.className || el.tagName) + ' covered by ' + what);
    }
    for (const r of overlays) {
      if (r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom) {
        problems.push((el.className || el.tagName) + ' under a message');
      }
    }
  }
  return {checked, problems};
}"""


@pytest.fixture(params=sweep("phone", "desktop"))
def kind(request: pytest.FixtureRequest) -> str:
    """The screen the people and the watcher use."""
    return str(request.param)


def _race(base: str) -> tuple[str, dict[int, str]]:
    """A started race of three people and a bot (API); its id and the people's tokens."""
    with httpx.Client(base_url=base, timeout=10) as http:
        created = http.post("/api/games", json={"players": 4, "humans": 3, "bots": "random"})
        assert created.status_code == 201, created.text
        game_id, tokens = created.json()["game_id"], {0: created.json()["token"]}
        for invite in created.json()["invites"]:
            joined = http.post(f"/api/games/{game_id}/join", json={"code": invite["code"]})
            tokens[invite["seat"]] = joined.json()["token"]
    return game_id, tokens


def _seated(context: BrowserContext, base: str, game_id: str, token: str) -> Page:
    """``context``'s page at the table of the seat ``token`` opens."""
    context.add_cookies(
        [{"name": f"zzv_{game_id}", "value": token, "url": f"{base}/games/{game_id}"}]
    )
    page = context.new_page()
    page.goto(f"{base}/games/{game_id}")
    page.wait_for_selector("#table .talk")
    return page


@pytest.fixture
def contexts(browser: Browser, kind: str) -> Iterator[list[BrowserContext]]:
    """Three screens of ``kind`` (axe runs in them, so they bypass the page's CSP)."""
    made = [browser_context(browser, kind == "phone", bypass_csp=True) for _ in range(3)]
    for context in made:
        context.add_init_script(_SSE_OPEN)
    yield made
    for context in made:
        context.close()


def _live(page: Page) -> None:
    page.wait_for_function("() => window.zzvLive === true")


def test_people_send_and_see_messages_without_covering_the_hand(
    browser: Browser, live_server: str, kind: str, contexts: list[BrowserContext]
) -> None:
    phone = kind == "phone"
    game_id, tokens = _race(live_server)
    ana = _seated(contexts[0], live_server, game_id, tokens[0])
    bea = _seated(contexts[1], live_server, game_id, tokens[1])
    watcher = contexts[2].new_page()
    watcher.goto(f"{live_server}/games/{game_id}/watch")
    watcher.wait_for_selector("#table .talk")
    problems = {p: watch_console_errors(p) for p in (bea, watcher)}
    for page in (ana, bea, watcher):
        _live(page)
        page.evaluate("() => { window.zzvMark = 'no reload'; }")

    press(ana, ".talk-button[value=well_played]", phone)
    ana.wait_for_selector("#talk-lines .talk-line.is-mine:has-text('Well played!')")
    # At once again: too soon for Ana's seat; the talk says why, nothing is sent.
    press(ana, ".talk-button[value=oops]", phone)
    ana.wait_for_selector("#talk-status:has-text('wait')")
    assert ana.locator("#talk-lines .talk-line").count() == 1
    # (The one-second bound is the server tests'; a busy machine's browser may lag.)
    for page in (bea, watcher):
        page.wait_for_selector("#talk-lines .talk-line:has-text('Well played!')", timeout=10_000)
        page.wait_for_selector("#said-seat-0.is-fresh", state="attached")
        assert page.evaluate("() => window.zzvMark") == "no reload"
    assert bea.locator("#said-seat-0").is_visible()
    for page in (ana, bea):
        page.evaluate("() => window.scrollTo(0, 0)")
        found = page.evaluate(_NOT_COVERED)
        assert found["problems"] == [] and found["checked"], (kind, found)
        no_sideways_scroll(page, f"{kind} table with a message")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    bea.screenshot(path=str(ARTIFACTS / f"talk-{kind}-bubble.png"))

    # The watcher mutes the others; Bea speaks from the keyboard alone.
    press(watcher, ".talk-mute button", phone)
    watcher.wait_for_selector(".talk-empty:has-text('muted')")
    _live(watcher)
    bea.locator(".talk-button[value=hello]").focus()
    bea.keyboard.press("Enter")
    bea.wait_for_selector("#talk-lines .talk-line.is-mine:has-text('Hello!')")
    ana.wait_for_selector("#talk-lines .talk-line:has-text('Hello!')", timeout=10_000)
    assert watcher.locator("#talk-lines .talk-line").count() == 0

    for name, page in (("ana", ana), ("bea", bea), ("watcher", watcher)):
        page.evaluate("() => window.scrollTo(0, 0)")
        axe_clean(page, f"{kind} {name}", ARTIFACTS, f"talk-{kind}-{name}")
    for found in problems.values():
        assert found == [], found


def test_the_talk_works_without_javascript(browser: Browser, live_server: str) -> None:
    game_id, tokens = _race(live_server)
    context = browser_context(browser, True, java_script_enabled=False)
    try:
        page = _seated(context, live_server, game_id, tokens[2])
        page.click(".talk-button[value=good_race]")
        page.wait_for_selector("#talk-lines .talk-line.is-mine:has-text('Good race!')")
        assert page.url.endswith(f"/games/{game_id}")  # back at the table (303), not the POST
        page.click(".talk-button[value=oops]")  # too soon: a page saying so
        assert "wait" in page.content()
    finally:
        context.close()
