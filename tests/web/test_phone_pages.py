"""The pages around the phone table, in real Chromium: the shared replay, the watch page's
caption, and axe-core on every page this layout changed, light and dark.

- A finished race's replay opens in another browser (its own cookies: 200, not 404), shows
  no face-down card's face, steps with the arrow keys, and its step links are real targets;
  its Share button (the phone's share sheet) or Copy hands on the trick's own address.
- A five-racer replay fits a phone from 320 px up: each trick's five slots side by side,
  every name, card and sum inside its own slot, the page not scrolling sideways.
- "Watch the bots race" captions the finished trick it lays out (the caption's trick is
  the panel's), and its "So far" box is never empty once the race has begun.
- axe-core (tests/web/vendor) finds nothing on the phone table mid-race, at a round's end
  and at the flag, nor on the replay's list and a trick, light and dark.
- The start page shows both ways in on the first screen of every phone from 320 px, upright and
  on its side: "New here? Learn in one race" and "Race now", on top, thumb-sized, and a tap
  on Race now is at a race's table.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import create, play_out, wait_for_reply
from browser_kit import axe_clean, no_sideways_scroll, phone_context, tap_target
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "phone"
MAX_MOVES = 200


#: Where the start page's two ways in are, and whether each is on top at its centre.
_WAYS_IN_JS = """() => ['learn-link', 'race-now'].map(id => {
  const el = document.getElementById(id);
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {id, top: box.top, bottom: box.bottom, width: box.width, height: box.height,
          onTop: el.contains(hit)};
})"""


# Every run takes the narrowest phone, the shortest screen (landscape) and the usual one;
# the sizes between them are the slow sweep.
@pytest.mark.parametrize(
    ("width", "height"),
    [
        (320, 640),
        *(pytest.param(*s, marks=pytest.mark.slow) for s in [(360, 740), (375, 667), (414, 896)]),
        (390, 844),
        (844, 390),
    ],
)
def test_the_start_page_shows_both_ways_in_on_the_first_screen(
    browser: Browser, live_server: str, width: int, height: int
) -> None:
    context = phone_context(browser, width, height)
    page = context.new_page()
    page.goto(live_server + "/")
    for way in page.evaluate(_WAYS_IN_JS):
        where = f"{width}x{height} #{way['id']}"
        assert way["top"] >= 0 and way["bottom"] <= height, f"{where} is off the first screen"
        assert way["onTop"], f"{where} is covered"
        assert way["height"] >= 44 and way["width"] >= 44, f"{where} is under 44x44"
    page.tap("#race-now")
    page.wait_for_selector("#table[data-settled]", state="attached")
    assert re.fullmatch(r".*/games/[^/]+", page.url), page.url
    context.close()


def _start(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    page.tap(".setup-form:not(.friends-form) label.pill:has(input[name=players][value='3'])")
    page.tap(".setup-form:not(.friends-form) label.pill:has(input[name=bots][value=random])")
    page.tap(".setup-form:not(.friends-form) button[type=submit]")
    page.wait_for_selector("#table[data-settled]", state="attached")


def _play(page: Page, check: Any = None) -> None:
    """Tune up every turn (always allowed) until the flag; ``check(page)`` at each turn."""
    for _ in range(MAX_MOVES):
        if page.locator(".game-over").count():
            return
        if check:
            check(page)
        turn = page.locator("input[name=turn]").input_value()
        page.locator("#move-form label.tune-chip").first.tap()
        page.tap("#move-form .btn-play")
        wait_for_reply(page, turn)
    pytest.fail(f"no game over after {MAX_MOVES} moves")


# The same moments are checked by axe on the desktop in every run (test_table_ui); the
# phone's race is the slow sweep's.
@pytest.mark.slow
def test_phone_table_pages_pass_axe_light_and_dark(browser: Browser, live_server: str) -> None:
    context = phone_context(browser, bypass_csp=True)
    page = context.new_page()
    _start(page, live_server)
    seen: set[str] = set()

    def check(page: Page) -> None:
        if "mid" not in seen and page.locator(".trick-now .trick-slot.kind-tune_up").count():
            seen.add("mid")
            axe_clean(page, "table mid-trick")
        if "round" not in seen and page.locator(".round-summary").count():
            seen.add("round")
            axe_clean(page, "table at a round's end")

    _play(page, check)
    assert seen == {"mid", "round"}
    # The race's end shows over the screen, fading in, then leaves the flag to itself.
    page.wait_for_selector(".moment.is-on", state="detached")
    axe_clean(page, "game over")
    page.locator(".round-stories > summary").tap()
    axe_clean(page, "game over, the rounds unfolded")
    context.close()


def test_a_finished_races_replay_opens_in_another_browser_and_steps_with_the_keys(
    browser: Browser, live_server: str
) -> None:
    owner = phone_context(browser)
    page = owner.new_page()
    _start(page, live_server)
    _play(page)
    replay_url = page.locator("#replay-link").get_attribute("href")
    assert replay_url
    owner.close()

    stranger = phone_context(
        browser, bypass_csp=True, permissions=["clipboard-read", "clipboard-write"]
    )
    other = stranger.new_page()
    answer = other.goto(live_server + replay_url)
    assert answer is not None and answer.status == 200
    axe_clean(other, "replay list")
    # A phone has no arrow keys: the line naming them is not shown there.
    assert other.locator(".replay-keys-help").count() == 1
    assert not other.locator(".replay-keys-help").is_visible()
    for link in other.locator(".replay-nav a").all():
        box = link.bounding_box()
        assert box and box["width"] >= 24 and box["height"] >= 24, link.inner_text()
    other.keyboard.press("ArrowRight")
    other.wait_for_url(re.compile(r"step=1$"))
    other.keyboard.press("ArrowRight")
    other.wait_for_url(re.compile(r"step=2$"))
    other.wait_for_selector("#replay-title:has-text('trick 2')")
    other.keyboard.press("ArrowLeft")
    other.wait_for_url(re.compile(r"step=1$"))
    other.wait_for_selector("#replay-title:has-text('trick 1')")
    assert other.locator(".replay-position tbody tr").count() == 3
    axe_clean(other, "replay of a trick")
    other.screenshot(path=str(SHOTS / "390x844-replay-trick.png"), scale="css")
    _check_replay_sharing(other, live_server + replay_url)
    # Every Tune Up of the race stays a card back, in every step.
    steps = len(other.locator(".replay-rounds a").all())
    for step in range(1, steps + 1):
        html = other.request.get(f"{live_server}{replay_url}?step={step}").text()
        for slot in re.findall(r'<li class="trick-slot[^"]*kind-tune_up.*?</li>', html, re.S):
            assert "card-back" in slot and "card-face" not in slot
    stranger.close()


# A share sheet where Chromium has none: it records what it is handed (as the daily's test).
SHARE_SHEET_JS = """
window.sharedWithSheet = [];
navigator.share = (data) => { window.sharedWithSheet.push(data); return Promise.resolve(); };
"""


def _check_replay_sharing(page: Page, replay: str) -> None:
    """On a replay's trick, Copy puts the line to share (the trick's own address) on the
    clipboard; where the phone has a share sheet, Share opens it with the same line, on the
    next trick too (htmx brings its own button)."""
    copy = tap_target(page, "#replay-copy")
    assert isinstance(copy, list) and min(copy) >= 44, copy
    page.tap("#replay-copy")
    page.wait_for_function("() => document.getElementById('replay-copy').textContent === 'Copied'")
    shared = page.evaluate("() => navigator.clipboard.readText()")
    assert shared == page.locator("#replay-share-text").inner_text().strip()
    assert shared.startswith("A race of Zoom Zoom Vroom, round 1, trick 1: "), shared
    assert shared.endswith(replay + "?step=1"), shared
    assert page.locator("#replay-share").is_hidden()  # no sheet here: Copy does the work
    page.add_init_script(SHARE_SHEET_JS)
    page.reload()
    share = tap_target(page, "#replay-share")
    assert isinstance(share, list) and min(share) >= 44, share
    page.tap("#replay-share")
    assert page.evaluate("() => window.sharedWithSheet") == [{"text": shared}]
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#replay-title:has-text('trick 2')")
    page.tap("#replay-share")
    sheet = page.evaluate("() => window.sharedWithSheet")
    assert len(sheet) == 2 and sheet[1]["text"].endswith(replay + "?step=2"), sheet


WATCH_JS = """() => {
  cancelAnimationFrame(window.__sampling);
  window.__frames = [];
  const frame = () => {
    const table = document.getElementById('table');
    const done = table && table.querySelector('#trick-done');
    const result = done && !done.hidden ? done.querySelector('.trick-done-result') : null;
    const feed = table ? [...table.querySelectorAll('.feed-item')] : [];
    window.__frames.push({
      title: done && !done.hidden ? done.querySelector('.trick-done-title').textContent : '',
      caption: result ? result.textContent : '',
      feed: feed.filter(i => i.offsetParent !== null).length,
      events: table ? Number(table.dataset.at) : 0,
    });
    window.__sampling = requestAnimationFrame(frame);
  };
  frame();
}"""


def test_watch_page_captions_the_trick_it_shows_and_so_far_is_never_empty(
    browser: Browser, live_server: str
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    page.goto(live_server + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'fast')")
    page.locator("form[action='/watch'] button").tap()
    page.wait_for_url(re.compile(r"/watch$"))
    page.wait_for_selector("#table[data-settled]", state="attached")
    page.evaluate(WATCH_JS)
    page.wait_for_function(  # a finished trick captioned, sampled until its caption goes
        "() => { const f = window.__frames, i = f.findIndex(x => x.caption);"
        " return i >= 0 && f.slice(i).some(x => !x.caption); }"
    )
    frames: list[dict[str, Any]] = page.evaluate(
        "() => { cancelAnimationFrame(window.__sampling); return window.__frames; }"
    )
    captions = [f for f in frames if f["caption"]]
    assert captions, "no finished trick was captioned while watching"
    for f in captions:
        shown = re.search(r"Trick (\d+)", f["title"])
        said = re.search(r"trick (\d+)", f["caption"])
        assert shown and said and shown.group(1) == said.group(1), f
    started = [f for f in frames if f["events"] > 1]
    empty = [f for f in started if not f["feed"]]
    assert started and not empty, empty[:3]
    page.screenshot(path=str(SHOTS / "390x844-watch.png"), scale="css")
    context.close()


# Each slot of the replay's trick: its place on the screen, and any of its name, card and
# sum that reaches out of it or (the sum) does not fit whole.
_REPLAY_SLOTS_JS = """() => [...document.querySelectorAll('.replay-board .trick-slot')].map(
  slot => {
  const s = slot.getBoundingClientRect();
  const out = [...slot.querySelectorAll('.slot-who, .card, .calc')].filter(el => {
    const box = el.getBoundingClientRect();
    const spills = el.classList.contains('calc') && el.scrollWidth > el.clientWidth + 1;
    return box.left < s.left - 0.5 || box.right > s.right + 0.5 || spills;
  }).map(el => el.className);
  return {left: s.left, right: s.right, top: Math.round(s.top), out};
})"""


@pytest.mark.parametrize(("width", "height"), [(320, 640), (390, 844)])
def test_a_five_racer_replay_fits_a_phone(
    browser: Browser, live_server: str, width: int, height: int
) -> None:
    with httpx.Client(base_url=live_server, timeout=30) as client:
        game_id, token, state = create(client, players=5, bots="random")
        play_out(client, game_id, token, state, random.Random(width))
    context = phone_context(browser, width, height)
    page = context.new_page()
    for step in (1, 3, 8):
        page.goto(f"{live_server}/games/{game_id}/replay?step={step}")
        where = f"{width}x{height}, step {step}"
        no_sideways_scroll(page, where)
        slots = page.evaluate(_REPLAY_SLOTS_JS)
        assert len(slots) == 5, where
        assert len({slot["top"] for slot in slots}) == 1, f"{where}: the slots wrap {slots}"
        assert all(slot["left"] >= 0 and slot["right"] <= width for slot in slots), slots
        assert [slot["out"] for slot in slots] == [[]] * 5, f"{where}: {slots}"
    page.screenshot(path=str(SHOTS / f"{width}x{height}-replay-five-racers.png"))
    context.close()
