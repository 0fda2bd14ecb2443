"""The table explains itself, in real Chromium, on a phone (390x844, touch) and a desktop.

Every explanation control of the table (gas, speed, laps, the middle, removed gas, the lead,
a blocked card, each card's effect, the 0/5 mark, the turn clock) opens its explanation on
a tap (phone) or a click (desktop), and again from the keyboard with Enter: the
explanation is open, on top where it shows (``elementFromPoint``), in a readable font, with
focus moved into it (so a screen reader reads it); Escape closes it. A blocked card's
explanation says why at once, above the fixed play bar. Card effects show on phones, in
short form. axe-core finds nothing on a table with an explanation open, light and dark.
Screenshots under tests/artifacts/learn/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_kit import wait_for_reply, wait_until
from browser_kit import axe_clean, browser_context, press
from html_kit import EXPLANATION_KINDS
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "learn"
SOLO = ".setup-form:not(.friends-form)"
MAX_MOVES = 120

EVERY_KIND = set(EXPLANATION_KINDS)

THUMB = 44
"""Least side of an explanation control, in CSS pixels: a thumb's target."""

SMALL_OK = {"fx", "lead", "clock"}
"""Controls that sit inside tight rows of the phone table (a card's effect under it, the
lead among the table's facts, the turn clock's mark on its one line): held to the 24 px
minimum of WCAG 2.5.8 instead."""

OPEN_JS = """(id) => {
  const pop = document.getElementById('ex-' + id);
  if (!pop || !pop.matches(':popover-open')) return {open: false};
  const box = pop.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const text = pop.querySelector('p:last-of-type');
  return {
    open: true,
    onTop: !!hit && pop.contains(hit),
    inView: box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth,
    font: parseFloat(getComputedStyle(text).fontSize),
    focused: pop.contains(document.activeElement),
    text: pop.innerText,
  };
}"""


FOCUSED_JS = """(id) => {
  const pop = document.getElementById('ex-' + id);
  return !!pop && pop.matches(':popover-open') && pop.contains(document.activeElement);
}"""


# The hand slots with an effect, checked: in each, the card above it and the Tune Up chip
# below it, all three in one column (false if any is not).
EFFECT_UNDER_ITS_CARD_JS = """() => {
  const slots = [...document.querySelectorAll('#move-form .hand-slot')]
    .filter(slot => slot.querySelector('.card-fx') && slot.querySelector('.tune-chip'));
  return slots.every(slot => {
    const [card, fx, chip] = ['.hand-card', '.card-fx', '.tune-chip']
      .map(s => slot.querySelector(s).getBoundingClientRect());
    const middle = fx.left + fx.width / 2;
    return card.bottom <= fx.top + 1 && fx.bottom <= chip.top + 1
      && [card, chip].every(box => box.left <= middle && middle <= box.right);
  }) && slots.length;
}"""


def _solo_with_booster(page: Page, base: str, phone: bool) -> None:
    page.goto(base + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    press(page, f"{SOLO} label.pill:has(input[name=players][value='5'])", phone)
    press(page, f"{SOLO} label.pill:has(input[name=bots][value=random])", phone)
    page.locator(f"{SOLO} input[name=zero_five]").check(force=True)
    press(page, f"{SOLO} button[type=submit]", phone)
    page.wait_for_selector("#table[data-revealed]", state="attached")


def _tune_up(page: Page, phone: bool) -> None:
    turn = page.locator("input[name=turn]").input_value()
    press(page, "#move-form label.tune-chip", phone)
    press(page, "#move-form .btn-play", phone)
    wait_for_reply(page, turn)


def _check_control(page: Page, control: str, phone: bool, seen: set[str]) -> None:
    """Open explanation ``control`` by touch or click, then by Enter; check both."""
    kind = control.split("-")[0]
    opener = page.locator(f"[data-explain='{control}']").first
    opener.scroll_into_view_if_needed()
    box = opener.bounding_box()
    assert box, control
    least = 24 if kind in SMALL_OK else THUMB
    assert box["width"] >= least - 0.5 and box["height"] >= least - 0.5, (control, box)
    press(page, f"[data-explain='{control}']", phone)
    page.wait_for_function(FOCUSED_JS, arg=control)  # the toggle event comes as a task
    shown = page.evaluate(OPEN_JS, control)
    assert shown["open"] and shown["onTop"] and shown["inView"], (control, shown)
    assert shown["font"] >= 15, (control, shown["font"])
    assert shown["focused"], f"{control}: focus moves into the explanation"
    if kind == "why":
        assert "already face up" in shown["text"] and "Tune Up" in shown["text"]
        bar = page.locator(".play-row").bounding_box()
        pop = page.locator(f"#ex-{control}").bounding_box()
        assert bar and pop and pop["y"] < bar["y"] + bar["height"]
        if kind not in seen:
            page.screenshot(
                path=str(SHOTS / f"explain-blocked-{'phone' if phone else 'desktop'}.png")
            )
    page.keyboard.press("Escape")
    assert not page.evaluate(OPEN_JS, control)["open"], control
    opener.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(FOCUSED_JS, arg=control)
    shown = page.evaluate(OPEN_JS, control)
    assert shown["open"] and shown["onTop"] and shown["focused"], (control, "Enter", shown)
    page.keyboard.press("Escape")
    seen.add(kind)


def _check_all(page: Page, phone: bool, seen: set[str]) -> None:
    controls = page.locator("#table [data-explain]").evaluate_all(
        "els => [...new Set(els.filter(e => e.offsetParent !== null).map(e => e.dataset.explain))]"
    )
    for control in controls:
        kind = control.split("-")[0]
        if kind in seen and kind not in ("why",):
            continue
        _check_control(page, control, phone, seen)


@pytest.mark.parametrize("phone", [True, False], ids=["phone-390x844", "desktop-1280x800"])
def test_every_explanation_opens_on_touch_or_click_and_on_enter(
    browser: Browser, live_server: str, phone: bool
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser_context(browser, phone)
    page = context.new_page()
    _solo_with_booster(page, live_server, phone)
    seen: set[str] = set()
    # A card's effect shows in a few words between the card and its Tune Up chip, so it
    # reads as the card's and not as the Tune Up's.
    short = page.locator("#move-form .fx-short").first
    # The form may come a moment after the reveal when the machine is busy; wait for it.
    short.wait_for(state="visible")
    assert short.inner_text().strip()
    checked = page.evaluate(EFFECT_UNDER_ITS_CARD_JS)
    assert checked, f"an effect is not between its card and its chip ({checked})"
    for _ in range(MAX_MOVES):
        if page.locator(".game-over").count() or EVERY_KIND - {"clock"} <= seen:
            break
        if page.locator("#move-form").count():
            _check_all(page, phone, seen)
            if "why" in seen and EVERY_KIND - {"clock"} <= seen:
                break
            _tune_up(page, phone)
    assert EVERY_KIND - {"clock"} <= seen, EVERY_KIND - seen
    context.close()


def test_the_turn_clock_explains_itself_in_a_race_with_friends(
    browser: Browser, live_server: str
) -> None:
    creator_context = browser_context(browser, phone=True)
    friend_context = browser_context(browser, phone=False)
    creator, friend = creator_context.new_page(), friend_context.new_page()
    creator.goto(live_server + "/")
    creator.tap(".friends-form label.pill:has(input[name=players][value='3'])")
    creator.tap(".friends-form label.pill:has(input[name=people][value='2'])")
    creator.tap("#race-friends")
    creator.wait_for_selector("#lobby")
    friend.goto(creator.locator(".invite-url").first.input_value())
    friend.click("#join-race")
    friend.wait_for_selector("#table")

    def clock_shown() -> bool:
        for page in (creator, friend):
            page.reload()
            page.wait_for_selector("#table[data-settled]", state="attached")
        return bool(creator.locator("[data-explain='clock']").count())

    wait_until(clock_shown, "the creator's table showing the clock")
    seen: set[str] = set()
    _check_control(creator, "clock", True, seen)
    assert seen == {"clock"}
    creator_context.close()
    friend_context.close()


def test_axe_finds_nothing_with_an_explanation_open(browser: Browser, live_server: str) -> None:
    for phone in (True, False):
        context = browser_context(browser, phone, bypass_csp=True)
        page = context.new_page()
        _solo_with_booster(page, live_server, phone)
        press(page, "[data-explain='middle']", phone)
        assert page.evaluate(OPEN_JS, "middle")["open"]
        page.screenshot(path=str(SHOTS / f"explain-middle-{'phone' if phone else 'desktop'}.png"))
        axe_clean(page, f"the table with the middle explained ({'phone' if phone else 'desktop'})")
        context.close()
