"""The table as a player sees it, in real Chromium: what stays in view, what is readable.

- After every move of whole races at 1280x800, 360x740 and 320x640, the status, the trick
  and the Play button are inside the viewport (at the flag: the status and Rematch).
- No page scrolls sideways from 320 px up, and no visible text is under 12 px.
- On laptop screens (1024x768, 1280x800, 1366x768) the first card and its Tune Up are on
  top and above the sticky play bar at every turn, unscrolled.
- axe-core (vendored in tests/web/vendor/, pinned in its file name, injected by the tests
  only: players never download it) finds no violation on the start page, the table
  (mid-trick, round end, game over), the rules, and the error pages, light and dark.
- A finished trick stays on the table, in play order with its winner marked, before the
  next trick's cards land; the feed, the race log and the live region follow the same
  steps, so the log never shows a card before the table does.
- A name as long as a player may pick is cut short inside its trick slot (an ellipsis on a
  laptop, two lines on a phone) and paints nothing beside it or under it; the widest sum
  under a card fits its slot, five slots side by side, from 320 px up.
- Five racers' figures (a two-digit speed among them) keep inside their boxes in the strip
  over a phone's table, and each colour's name shows whole, from 320 px up.
- "Bots are thinking…" shows while a slow reply is awaited; choices and the record per bot
  level are kept in the browser.
- While the reveal tells a round's end, the next round's hand is not seen yet.

Screenshots go to tests/artifacts/ for people to look at.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from app_kit import wait_for_reply
from browser_kit import fill_race_form, most_changed, phone_context
from playwright.sync_api import Browser, BrowserContext, Page, Route
from sweep_kit import sweep

from app.http import i18n
from app.http.web.forms import bot_level
from app.races.lobby import NAME_MAX
from engine.cards import MAX_GAS, TRICKS_PER_ROUND

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
AXE = Path(__file__).resolve().parent / "vendor" / "axe-4.10.3.min.js"
VIEWPORTS = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 360, "height": 740},
    "small": {"width": 320, "height": 640},
}
MAX_MOVES = 200
SCHEMES = ("light", "dark")

SMALL_TEXT_JS = """() => {
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!text || el.closest('.visually-hidden, [hidden]')) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || style.display === 'none' || style.visibility === 'hidden') continue;
    if (parseFloat(style.fontSize) < 12) {
      found.push(el.className + ' ' + style.fontSize + ' ' + el.textContent.trim().slice(0, 20));
    }
  }
  return found;
}"""

IN_VIEW_JS = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return 'missing';
  const box = el.getBoundingClientRect();
  const ok = box.top >= -1 && box.bottom <= window.innerHeight + 1
    && box.left >= -1 && box.right <= window.innerWidth + 1;
  return ok ? 'ok' : `${selector} at top ${box.top} bottom ${box.bottom} of ${window.innerHeight}`;
}"""


def _context(browser: Browser, viewport: str = "desktop", **options: Any) -> BrowserContext:
    return browser.new_context(viewport=VIEWPORTS[viewport], **options)


def _start_race(
    page: Page,
    base: str,
    players: int = 3,
    bots: str = "random",
    seed: int | None = None,
    variants: tuple[str, ...] = (),
) -> None:
    fill_race_form(page, base, players, bots, variants, seed)
    page.click("text=Start this race")
    # Keys and clicks count only once the table's script has settled it and any reveal
    # is over (a key pressed during a reveal is ignored on purpose).
    page.wait_for_selector("#table[data-revealed]", state="attached")


def _turn(page: Page) -> str | None:
    field = page.locator("input[name=turn]")
    return field.input_value() if field.count() else None


def _play_first_card(page: Page) -> None:
    """Press 1 (the first card, face up when it may) and Enter, and wait for the reply."""
    turn = _turn(page)
    assert turn is not None, "no move form although the race is not over"
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    wait_for_reply(page, turn)


def _axe(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        """async () => {
            const result = await axe.run(document);
            return result.violations.map(v => v.id + ' (' + v.impact + '): '
              + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '));
        }"""
    )
    return list(violations)


def _check_page(page: Page, name: str) -> None:
    """axe-core finds nothing, light and dark; a screenshot of each. A lap's moment is
    let pass first: it stands over the table for two seconds, and what it covers is
    checked with a moment shown by tests/web/test_moments_browser.py."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => !document.querySelector('.moment.is-on')")
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
        assert _axe(page) == [], f"{name}, {scheme}"
        page.screenshot(path=str(ARTIFACTS / f"ui-{name}-{scheme}.png"))
    page.emulate_media(color_scheme="light")


# The desktop and the smallest phone in every run; the phone between them is the sweep's.
@pytest.mark.parametrize("viewport", [*sweep("desktop", "phone"), "small"])
def test_status_trick_and_play_in_view_after_every_move(
    browser: Browser, live_server: str, viewport: str
) -> None:
    """A whole race: after each reply the status, the trick and Play are on screen.

    On the desktop race axe-core also checks the table mid-trick, at a round's end and at
    the flag, light and dark, then the replay (its list, a trick, a later round); then the
    start page shows the race in the record.
    """
    desktop = viewport == "desktop"
    context = _context(browser, viewport, reduced_motion="reduce", bypass_csp=desktop)
    page = context.new_page()
    _start_race(page, live_server)
    seen_mid_trick = seen_round_end = False
    moves = 0
    for moves in range(1, MAX_MOVES + 1):
        if page.locator(".game-over").count():
            break
        _play_first_card(page)
        # At the flag the result and the buttons to race again come first, the table below.
        over = page.locator(".game-over").count() > 0
        selectors = ["#table-status", "#rematch" if over else "#trick"]
        if page.locator("#move-form").count():
            selectors.append("#move-form .btn-play")
        for selector in selectors:
            assert page.evaluate(IN_VIEW_JS, selector) == "ok", f"move {moves}"
        if moves == 5:
            page.screenshot(path=str(ARTIFACTS / f"ui-in-view-{viewport}.png"))
        if not desktop:
            continue
        summary = page.locator(".round-summary").count()
        played = page.locator(".trick-now .trick-slot:not(.kind-pending)").count()
        if played and not summary and not seen_mid_trick:
            seen_mid_trick = True
            _check_page(page, "table-mid-trick")
        if summary and not seen_round_end:
            seen_round_end = True
            _check_page(page, "table-round-end")
    else:
        pytest.fail(f"no game over after {MAX_MOVES} moves")
    assert moves > 6
    if desktop:
        assert seen_mid_trick and seen_round_end
        _check_page(page, "table-game-over")
        table = page.url
        for step, name in ((0, "replay-list"), (1, "replay-first-trick"), (7, "replay-round-2")):
            page.goto(f"{table}/replay?step={step}")
            _check_page(page, name)
        page.goto(live_server + "/")
        record = page.locator("#record")
        assert record.is_visible()
        cells = record.locator("tbody tr").first.locator("th, td").all_inner_texts()
        assert record.locator("tbody tr").count() == 1
        assert [cells[0].lower(), cells[1]] == ["random", "1"]
    context.close()


HAND_ABOVE_BAR_JS = """() => {
  const onTop = (el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  };
  const card = document.querySelector('#move-form .hand-card');
  const chip = document.querySelector('#move-form .tune-chip');
  const bar = document.querySelector('#move-form .play-row').getBoundingClientRect();
  return {
    scrolled: Math.round(window.scrollY),
    card: onTop(card), chip: onTop(chip),
    chipBottom: Math.round(chip.getBoundingClientRect().bottom), barTop: Math.round(bar.top),
  };
}"""


# Every run takes the shortest, narrowest laptop, where the fit is tightest; the wider
# screens are the slow sweep.
@pytest.mark.parametrize(
    "size",
    sweep((1024, 768), (1280, 800), (1366, 768)),
)
def test_a_laptop_sees_a_card_and_its_tune_up_above_the_play_bar(
    browser: Browser, live_server: str, size: tuple[int, int]
) -> None:
    """On a laptop's screen, at each of the person's turns of a 4-player race, the first
    card of the hand and its Tune Up are whole, on top and above the sticky play bar,
    without scrolling (the play bar is sticky, so anything under it cannot be pressed)."""
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    page = context.new_page()
    _start_race(page, live_server, players=4)
    turns = 0
    for _ in range(12):
        if page.locator(".game-over").count() or not page.locator("#move-form").count():
            break
        found = page.evaluate(HAND_ABOVE_BAR_JS)
        assert found["scrolled"] == 0, found
        assert found["card"] and found["chip"], (size, turns, found)
        assert found["chipBottom"] <= found["barTop"], (size, turns, found)
        turns += 1
        _play_first_card(page)
    assert turns >= 6
    context.close()


@pytest.mark.parametrize(
    "path,name",
    [("/", "home"), ("/rules", "rules"), ("/no-such-page", "404"), ("/games/nope", "no-race")],
)
def test_axe_finds_nothing_on_the_other_pages(
    browser: Browser, live_server: str, path: str, name: str
) -> None:
    context = _context(browser, bypass_csp=True)
    page = context.new_page()
    page.goto(live_server + path)
    _check_page(page, name)
    context.close()


def test_no_sideways_scroll_and_no_tiny_text(browser: Browser, live_server: str) -> None:
    """From 320 px up nothing scrolls sideways and no visible text is under 12 px, on a
    dealt table and on one whose hand holds six kinds of card (seed 1 with every variant:
    the live server's seed key is fixed), the widest a phone shows named."""
    context = _context(browser)
    page = context.new_page()
    _start_race(page, live_server, players=5)
    table = page.url
    variants = ("larger_hands", "zero_suit", "zero_five")
    _start_race(page, live_server, players=5, seed=1, variants=variants)
    assert page.locator("#move-form .hand > li").count() == 6
    six_kinds = page.url
    pages = [live_server + "/", live_server + "/rules", table, six_kinds]
    pages.append(live_server + "/no-such-page")
    for width in (320, 360, 400, 768, 1280):
        page.set_viewport_size({"width": width, "height": 700})
        for url in pages:
            page.goto(url)
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow == 0, f"{url} scrolls sideways by {overflow}px at {width}px"
            assert page.evaluate(SMALL_TEXT_JS) == [], f"{url} at {width}px"
    context.close()


RECORD_TIMELINE_JS = """() => {
  cancelAnimationFrame(window.__sampling);
  window.__timeline = [];
  const visible = el => !el.closest('[hidden], .is-pending') && el.offsetParent !== null;
  const before = document.getElementById('table');
  const snap = () => {
    if (document.getElementById('table') === before) return;  // still the old table
    const done = document.getElementById('trick-done');
    const doneShown = !!done && !done.hidden;
    const feed = [...document.querySelectorAll('#table .feed-item')];
    // The log lists rounds and tricks newest first: put its sentences back in time order.
    const lines = [...document.querySelectorAll('#table .log-round')].reverse().flatMap(r => [
      ...r.querySelectorAll('.log-intro'),
      ...[...r.querySelectorAll('.log-trick')].reverse()
        .flatMap(t => [...t.querySelectorAll('li')]),
    ]);
    window.__timeline.push({
      doneShown,
      doneSlots: doneShown ? [...done.querySelectorAll('.trick-slot')]
        .filter(s => !s.classList.contains('is-pending')).map(s => s.dataset.seat) : [],
      doneWinner: doneShown && !!done.querySelector('.trick-slot.is-best'),
      doneCount: done ? done.querySelectorAll('.trick-slot').length : 0,
      nowSlots: [...document.querySelectorAll('#table .trick-now .trick-slot')]
        .filter(s => visible(s) && !s.classList.contains('kind-pending')).map(s => s.dataset.seat),
      feed: feed.filter(visible).map(i => i.dataset.say),
      feedKinds: feed.filter(visible).map(i => i.dataset.kind),
      log: lines.filter(visible).map(l => l.textContent.trim()),
    });
  };
  // Sampled before every paint: exactly the states a player can see.
  const frame = () => { snap(); window.__sampling = requestAnimationFrame(frame); };
  frame();
}"""


def test_finished_trick_stays_with_its_winner_and_the_log_follows_the_reveal(
    browser: Browser, live_server: str
) -> None:
    """What the page shows before each paint is recorded while a reply is revealed (fast)."""
    context = _context(browser)
    page = context.new_page()
    page.goto(live_server + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'fast')")
    _start_race(page, live_server, players=4)
    checked = 0
    for _ in range(6):
        if page.locator(".game-over").count():
            break
        page.evaluate(RECORD_TIMELINE_JS)
        _play_first_card(page)
        timeline: list[dict[str, Any]] = page.evaluate(
            "() => { cancelAnimationFrame(window.__sampling); return window.__timeline; }"
        )
        settled = timeline[-1]
        # The log's newest sentences are the feed's, and never run ahead of it.
        for snap in timeline:
            shown = len(snap["feed"])
            assert snap["log"][-shown:] == snap["feed"], json.dumps(snap)[:400]
        ends = [i for i, s in enumerate(timeline) if s["doneWinner"]]
        assert ends, "the finished trick was never shown with its winner"
        full = timeline[ends[0]]
        assert full["doneShown"] and len(full["doneSlots"]) == full["doneCount"]
        # While the finished trick is shown, the new trick's cards from this reply wait.
        if settled["nowSlots"]:
            first_new = next(i for i, s in enumerate(timeline) if s["nowSlots"])
            assert ends[0] < first_new, json.dumps(timeline[first_new])[:400]
            assert not timeline[first_new]["doneShown"]
            checked += 1
        page.wait_for_function(
            "() => { const d = document.getElementById('trick-done'); return !d || d.hidden; }"
        )
    assert checked, "no reply had cards of the next trick to reveal"
    page.screenshot(path=str(ARTIFACTS / "ui-after-reveal.png"))
    context.close()


# A name as long as a player may pick, in every slot of the trick; under each face-up card
# the widest sum it can show (a struck number, the most gas on a card, the most speed, the
# 0's note), the template's own icons kept.
# Five tricks won before the sixth, and a 0 played for speed in each of the six (Larger
# Hands deals six 0s): the speed on a card can reach two digits (docs/rules.md R15, R20).
HIGHEST_SPEED = (TRICKS_PER_ROUND - 1) + TRICKS_PER_ROUND
WIDEST_TRICK_JS = """([name, gas, speed]) => {
  for (const who of document.querySelectorAll('.trick-now .slot-who')) {
    who.lastChild.nodeValue = name;
  }
  for (const calc of document.querySelectorAll('.trick-now .kind-play .calc')) {
    const [gasIcon, speedIcon] = calc.querySelectorAll('svg');
    calc.innerHTML = '<span class="calc-struck"><s>5</s>→</span>0 +' + gas + gasIcon.outerHTML
      + ' +' + speed + speedIcon.outerHTML + ' <small class="calc-note">(+1 speed)</small>';
  }
}"""

# Each slot: whether its name and its sum keep inside it, whether the name is cut short,
# how many lines tall the name's box is (in lines of a one-letter name, set apart from the
# slot's rows) and whether its chip sits on the first of them, and the bands beside the
# slot and under the name, where a name not cut short would paint.
TRICK_SLOTS_JS = """() => [...document.querySelectorAll('.trick-now .trick-slot')].map(slot => {
  const s = slot.getBoundingClientRect();
  const within = (box) => box.left >= s.left - 0.5 && box.right <= s.right + 0.5;
  const who = slot.querySelector('.slot-who'), calc = slot.querySelector('.calc');
  const w = who.getBoundingClientRect(), c = calc && calc.getBoundingClientRect();
  const probe = who.cloneNode(true);
  probe.lastChild.nodeValue = 'W';
  probe.style.position = 'absolute';
  who.after(probe);
  const line = probe.getBoundingClientRect().height;
  probe.remove();
  const chip = who.querySelector('.seat-chip').getBoundingClientRect();
  // The name is cut short on purpose; the sum must fit whole.
  const fits = within(w) && (!calc || (within(c) && calc.scrollWidth <= calc.clientWidth + 1));
  return {
    seat: slot.dataset.seat,
    inside: fits || {
      slot: [s.left, s.right], name: [w.left, w.right],
      sum: calc && [c.left, c.right, calc.scrollWidth, calc.clientWidth],
    },
    cut: who.scrollWidth > who.clientWidth || who.scrollHeight > who.clientHeight,
    lines: Math.round(w.height / line * 100) / 100,
    chipOnFirstLine: chip.top >= w.top - 0.5 && chip.bottom <= w.top + line + 0.5,
    bands: [
      {x: s.left - 3, y: w.top, width: 3, height: w.height},
      {x: s.right, y: w.top, width: 3, height: w.height},
      {x: w.left, y: w.bottom, width: w.width, height: 3},
    ],
  };
})"""

SHOW_SLOT_NAMES_JS = """(shown) => {
  for (const who of document.querySelectorAll('.trick-now .slot-who')) {
    who.style.visibility = shown ? '' : 'hidden';
  }
}"""


@pytest.mark.parametrize(
    "phone",
    [(320, 640), (390, 844), (844, 390), None],
    ids=["phone-320x640", "phone-390x844", "phone-844x390", "desktop"],
)
def test_a_long_name_and_the_widest_sum_keep_inside_their_trick_slot(
    browser: Browser, live_server: str, phone: tuple[int, int] | None
) -> None:
    """Five slots side by side: a laptop ends a long name in an ellipsis, a phone sets it in
    two lines at most; the sum under a card fits its slot on the narrowest phone."""
    context = phone_context(browser, *phone) if phone else _context(browser)
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")  # the turn's pulse would change pixels
    # No staged reveal: a finished trick held on the table would leave it mid-check.
    page.goto(live_server + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    _start_race(page, live_server, players=5)
    for _ in range(MAX_MOVES):
        if page.locator(".trick-now .kind-play").count():
            break
        turn = _turn(page)
        page.click("#move-form label.tune-chip")
        page.click("#move-form .btn-play")
        wait_for_reply(page, turn)
    else:
        pytest.fail("no bot played a card face up")
    page.evaluate(WIDEST_TRICK_JS, ["W" * NAME_MAX, MAX_GAS, HIGHEST_SPEED])
    slots = page.evaluate(TRICK_SLOTS_JS)
    assert len(slots) == 5
    assert [slot["inside"] for slot in slots] == [True] * 5, slots
    assert all(slot["cut"] for slot in slots), slots
    # A phone's two lines are the name's first line (the chip's) and its second; nothing
    # of a third shows, however tall the slot's row.
    assert [slot["lines"] for slot in slots] == [2 if phone else 1] * 5, slots
    assert all(slot["chipOnFirstLine"] for slot in slots), slots
    bands = [band for slot in slots for band in slot["bands"]]
    # Hiding the names changes no layout, only paint: if a name painted beside its slot
    # or below its two lines, those pixels would change by far more than the background's
    # dither does from one paint to the next.
    page.evaluate(SHOW_SLOT_NAMES_JS, False)
    unpainted = [page.screenshot(clip=band) for band in bands]
    page.evaluate(SHOW_SLOT_NAMES_JS, True)
    painted = [page.screenshot(clip=band) for band in bands]
    changes = [most_changed(page, *pair) for pair in zip(unpainted, painted, strict=True)]
    assert max(changes) <= 24, list(zip(bands, changes, strict=True))
    context.close()


# Every racer's box in the strip over the table, with HIGHEST_SPEED as its speed: what
# keeps inside the box, and whether a colour's name is cut short.
STRIP_JS = """(speed) => [...document.querySelectorAll('.track-strip .strip-lane')].map(lane => {
  lane.querySelector('.strip-stat').lastChild.nodeValue = String(speed);
  const box = lane.getBoundingClientRect();
  const name = lane.querySelector('.strip-name');
  const parts = [...lane.querySelectorAll('.seat-chip, .strip-name, .strip-stat')];
  return {
    name: name.textContent,
    outside: parts.map(part => [part.className, part.getBoundingClientRect()]).filter(
      ([, r]) => r.left < box.left - 0.5 || r.right > box.right + 0.5
        || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5).map(([c]) => c),
    nameCut: name.scrollWidth > name.clientWidth + 1,
  };
})"""


@pytest.mark.parametrize(
    "size", [(320, 640), (360, 740), (390, 844), (844, 390)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_five_racers_figures_keep_inside_their_boxes_in_the_strip(
    browser: Browser, live_server: str, size: tuple[int, int]
) -> None:
    """A phone keeps five racers' speed, gas and laps in a strip over the table: each
    figure, a two-digit speed among them, keeps inside its racer's box, and each colour's
    name shows whole, from 320 px up."""
    context = phone_context(browser, *size)
    page = context.new_page()
    _start_race(page, live_server, players=5)
    lanes = page.evaluate(STRIP_JS, HIGHEST_SPEED)
    assert [lane["name"] for lane in lanes] == ["You", "Orange", "Yellow", "Blue", "Purple"]
    assert [lane["outside"] for lane in lanes] == [[]] * 5, lanes
    assert not any(lane["nameCut"] for lane in lanes), lanes
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    context.close()


def test_thinking_note_while_a_slow_reply_is_awaited(browser: Browser, live_server: str) -> None:
    context = _context(browser, "phone")
    page = context.new_page()
    _start_race(page, live_server)

    held: list[Route] = []  # the move's request, answered once the note was seen
    page.route("**/move", lambda route: held.append(route))
    turn = _turn(page)
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    page.wait_for_function(
        """() => document.getElementById('thinking').textContent === 'Bots are thinking…'
              && document.getElementById('table').getAttribute('aria-busy') === 'true'"""
    )
    held[0].continue_()
    wait_for_reply(page, turn)
    assert page.locator("#thinking").inner_text() == ""
    assert page.locator("#table").get_attribute("aria-busy") is None
    context.close()


def test_race_now_remembers_the_last_choices(browser: Browser, live_server: str) -> None:
    context = _context(browser, "phone")
    page = context.new_page()
    page.goto(live_server + "/")
    assert page.locator("form.race-now input[name=players]").input_value() == "4"
    page.click(".setup-form:not(.friends-form) label.pill:has(input[name=players][value='5'])")
    page.click(".setup-form:not(.friends-form) label.pill:has(input[name=bots][value=random])")
    page.check(".setup-form:not(.friends-form) input[name=zero_five]")
    page.click("text=Start this race")
    page.wait_for_selector("#table")
    assert page.locator(".lane").count() == 5
    assert page.locator(".lane .booster.is-held").count() == 5
    page.goto(live_server + "/")
    race_now = page.locator("form.race-now")
    assert race_now.locator("input[name=players]").input_value() == "5"
    assert race_now.locator("input[name=bots]").input_value() == "random"
    assert race_now.locator("input[name=zero_five]").input_value() == "on"
    note = "5 racers · random bots · 0/5 card (your last choice)"
    assert race_now.locator(".race-now-note").inner_text() == note
    # In another language the note reads in that language's words.
    context.add_cookies([{"name": i18n.COOKIE, "value": "de", "url": live_server}])
    page.reload()
    i18n.use("de")
    german = i18n.gettext("%(players)s racers · %(level)s bots · %(rules)s (your last choice)") % {
        "players": 5,
        "level": bot_level("random"),
        "rules": i18n.gettext("0/5 card"),
    }
    i18n.use(i18n.DEFAULT)
    assert german != note
    assert race_now.locator(".race-now-note").inner_text() == german
    assert page.locator(".setup-form:not(.friends-form) input[name=zero_five]").is_checked()
    page.click("#race-now")
    page.wait_for_selector("#table")
    assert page.locator(".lane").count() == 5
    assert page.locator(".lane .booster").count() == 5
    context.close()


def test_keys_dialog_lists_the_keys_that_work(browser: Browser, live_server: str) -> None:
    """Every key the dialog names does what it says on a real table."""
    context = _context(browser)
    page = context.new_page()
    _start_race(page, live_server)
    page.keyboard.press("?")
    dialog = page.locator("#keys-help")
    assert dialog.is_visible()
    listed = dialog.locator("dt kbd").all_inner_texts()
    assert listed == ["1", "9", "T", "+", "=", "-", "_", "↑", "↓", "Enter", "?", "Esc"]
    page.keyboard.press("Escape")
    assert not dialog.is_visible()

    gas = page.locator("#gas")
    checked = page.locator("input[name=choice]:checked")
    key = page.locator("input[name=choice][data-mode=up]").first.get_attribute("data-key")
    assert key is not None
    page.keyboard.press(key)
    assert checked.get_attribute("data-key") == key
    assert checked.get_attribute("data-mode") == "up"
    page.keyboard.press("t")
    assert checked.get_attribute("data-mode") == "down"
    page.keyboard.press("T")
    assert checked.get_attribute("data-mode") == "up"
    page.keyboard.press("+")
    page.keyboard.press("=")
    assert gas.input_value() == "2"
    page.keyboard.press("-")
    assert gas.input_value() == "1"
    page.keyboard.press("_")
    assert gas.input_value() == "0"
    gas.focus()
    page.keyboard.press("ArrowUp")
    assert gas.input_value() == "1"
    page.keyboard.press("ArrowDown")
    assert gas.input_value() == "0"
    turn = _turn(page)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(turn) => { const f = document.querySelector('input[name=turn]');"
        " return !f || f.value !== turn; }",
        arg=turn,
    )
    context.close()


# While the reveal runs: whether it tells a new deal, and whether any card of the hand
# (the next round's, once dealt) can be seen.
DEALING_JS = """() => {
  const table = document.getElementById('table');
  const cards = [...table.querySelectorAll('.hand .hand-card')];
  return {
    revealing: table.classList.contains('is-revealing'),
    dealing: table.classList.contains('is-dealing'),
    seen: cards.filter(c => getComputedStyle(c).visibility === 'visible').length,
    cards: cards.length,
  };
}"""


def test_the_next_rounds_hand_waits_until_the_rounds_end_is_told(
    browser: Browser, live_server: str
) -> None:
    """The move that ends a round answers with the next round's hand, which stays unseen
    while the reveal tells the round's end, and shows when it ends."""
    context = _context(browser, "phone")
    page = context.new_page()
    _start_race(page, live_server)
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    for _ in range(MAX_MOVES):
        facts = page.locator(".table-facts").inner_text()
        if f"Trick {TRICKS_PER_ROUND} of" in facts:
            break
        _play_first_card(page)
    else:
        pytest.fail("no last trick of a round")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'slow')")
    turn = _turn(page)
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#table.is-dealing')")
    during = page.evaluate(DEALING_JS)
    assert during["revealing"] and during["cards"] and during["seen"] == 0, during
    wait_for_reply(page, turn)
    after = page.evaluate(DEALING_JS)
    assert not after["dealing"] and after["seen"] == after["cards"] > 0, after
    assert "Round 2" in page.locator(".table-facts").inner_text()
    context.close()
