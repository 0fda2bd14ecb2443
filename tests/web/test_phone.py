"""The table on a phone in your hand, in real Chromium emulating a touch phone.

Portrait 320x640, 360x740, 375x667, 390x844 and 414x896, and landscape 844x390, each at a
device pixel ratio above 1 with touch and the mobile viewport on. At every turn checked:

- fixed or sticky bars take at most 18% of the height (22% in landscape);
- the status line, the trick and every control of the turn (each card of the hand, its
  effect, its Tune Up, the 0's effect and the 0/5 card's value, the gas and Play) are
  inside the viewport and on top at their centres (``document.elementFromPoint`` finds
  them), wholly above the play bar where it sticks to the bottom, with no scrolling (at
  360x740, 390x844 and 414x896; on the other sizes the cards and Play);
- every card of the hand and every Tune Up keeps inside the hand's box, clear of the next;
- every control of the turn but a card's effect is at least 44x44 CSS px (a card and a
  Tune Up as wide as their share of the row where more kinds than that fit share it: seven
  at 320 px), every other control (the header's links, the lead, a card's effect) at least
  24x24;
- no text is squeezed to a word or two a line (a label of four words may take two), and
  no button clips its label, nor a card its name;
- at the end, the result and the buttons to race again are on the first screen.

A whole race is played at 360x740, 390x844 and 414x896 with every turn checked, and one
with a friend at 360x740 with every turn of both people checked; the other sizes check
their first turns, a round's end and the flag. Screenshots of each size at the start,
mid-race, a round's end and game over go to tests/artifacts/phone/ (a set is committed).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from app_kit import BROWSER_POLL_S, wait_for_reply, wait_until, watch_console_errors
from browser_kit import fill_race_form, phone_context, text_lines
from playwright.sync_api import Browser, BrowserContext, Page
from sweep_kit import sweep

from app.races.lobby import NAME_MAX

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "phone"
PHONES = {
    "320x640": (320, 640),
    "360x740": (360, 740),
    "375x667": (375, 667),
    "390x844": (390, 844),
    "414x896": (414, 896),
    "844x390": (844, 390),
}
MAX_MOVES = 200
FIT_WHOLE = ("360x740", "390x844", "414x896")
"""Phones where every control of every turn shows whole above the play bar, unscrolled
(on the others, the cards and Play do; a Tune Up may be a scroll away on 320x640)."""
EVERY_TURN = ("360x740", "414x896")
"""Sizes whose race is checked at every turn, as 390x844's is (the others at a few)."""

PHONE_CHECK_JS = """([bars, strict]) => {
  const problems = [];
  // The root's width, not innerWidth: on a phone innerWidth grows to fit a page too wide.
  const H = window.innerHeight, W = document.documentElement.clientWidth;
  const sideways = document.documentElement.scrollWidth - W;
  if (sideways > 1) problems.push(`the page scrolls sideways by ${sideways}px`);
  const shown = el => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 1 && box.height > 1 && style.visibility !== 'hidden'
      && !el.closest('[hidden], .visually-hidden');
  };
  const name = el => (el.id ? '#' + el.id : el.className || el.tagName) + ' "'
    + (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 24) + '"';

  // Fixed and sticky bars.
  let barHeight = 0;
  for (const el of document.querySelectorAll('body *')) {
    const position = getComputedStyle(el).position;
    if ((position === 'fixed' || position === 'sticky') && shown(el)) {
      const box = el.getBoundingClientRect();
      const top = Math.max(0, box.top), bottom = Math.min(H, box.bottom);
      if (bottom > top && !el.parentElement.closest('[style*=fixed]')) barHeight += bottom - top;
    }
  }
  if (barHeight > bars * H + 0.5) {
    const share = Math.round(100 * barHeight / H);
    problems.push(`bars ${Math.round(barHeight)}px of ${H}px (${share}%)`);
  }

  // In view and on top at the centre, no scrolling.
  // At the flag the result comes first and the last trick below it (GAME_OVER_JS).
  const over = document.querySelector('#table.is-over');
  const must = [document.getElementById('table-status')];
  // A lobby has no trick yet.
  if (!over && !document.getElementById('lobby')) must.push(document.getElementById('trick'));
  const form = document.getElementById('move-form');
  // Every control of a turn: the hand's cards, their effects, the Tune Ups, the 0's effect
  // and the 0/5 card's value, the gas and Play. Where the phone is one a turn must fit
  // (strict), each one whole, those outside the play bar wholly above it where it sticks
  // to the bottom of the screen; elsewhere the cards and Play.
  const turn = form ? [...form.querySelectorAll(
    '.hand-card, .card-fx, label.tune-chip, .move-details label.pill, .move-details select,'
    + ' .btn-step, #gas, .btn-play')].filter(shown) : [];
  if (strict) must.push(...turn);
  else if (form) must.push(...form.querySelectorAll('label.hand-card, span.hand-card'));
  if (form) must.push(form.querySelector('.btn-play'));
  const bar = form && form.querySelector('.play-row');
  const stuck = bar && ['fixed', 'sticky'].includes(getComputedStyle(bar).position);
  const floor = stuck ? bar.getBoundingClientRect().top : H;
  for (const el of must) {
    if (!el) { problems.push('missing element'); continue; }
    const box = el.getBoundingClientRect();
    if (box.top < -1 || box.left < -1 || box.bottom > H + 1 || box.right > W + 1) {
      const span = `${Math.round(box.top)}..${Math.round(box.bottom)}`;
      problems.push(`${name(el)} outside the viewport: ${span} of ${H}`);
      continue;
    }
    if (strict && turn.includes(el) && !bar.contains(el) && box.bottom > floor + 1) {
      const ends = `${Math.round(box.bottom)} of ${Math.round(floor)}`;
      problems.push(`${name(el)} under the play bar: ends at ${ends}`);
      continue;
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) {
      problems.push(`${name(el)} covered by ${hit ? name(hit) : 'nothing'}`);
    }
  }

  // Each card of the hand, and each Tune Up, inside the hand's box and clear of the next
  // one in its row (a card wider than its column is still on top at its centre).
  if (form) {
    const hand = form.querySelector('.hand').getBoundingClientRect();
    for (const kind of ['.hand-card', '.tune-chip']) {
      const boxes = [...form.querySelectorAll(`.hand ${kind}`)].filter(shown)
        .map(el => [el, el.getBoundingClientRect()]).sort((a, b) => a[1].left - b[1].left);
      const span = (r) => `${Math.round(r.left)}..${Math.round(r.right)}`;
      boxes.forEach(([el, box], i) => {
        if (box.left < hand.left - 0.5 || box.right > hand.right + 0.5) {
          problems.push(`${name(el)} leaves the hand: ${span(box)} of ${span(hand)}`);
        }
        const next = boxes[i + 1];
        if (next && next[1].top < box.bottom && next[1].left < box.right - 0.5) {
          const over = Math.round(box.right - next[1].left);
          problems.push(`${name(el)} overlaps ${name(next[0])} by ${over}px`);
        }
      });
    }
  }

  // Target sizes. A card is as wide as a thumb, or as its share of the hand's row where
  // the row holds more kinds than thumb-wide cards fit across the screen (seven at 320 px).
  // Every control of a turn is a thumb's height; a card and a Tune Up as wide as a thumb or
  // as their share of the row.
  const big = new Set(turn.filter(el => !el.matches('.card-fx')));
  let share = Infinity;
  if (form) {
    const hand = form.querySelector('.hand');
    const kinds = hand.children.length, gap = parseFloat(getComputedStyle(hand).columnGap) || 0;
    share = Math.floor((hand.clientWidth - gap * (kinds - 1)) / kinds);
  }
  const controls = new Set([...document.querySelectorAll(
    '#table button, #table select, #table summary, #table a,'
    + ' #table input:not([type=radio]):not([type=hidden]),'
    + ' #table label.tune-chip, #table label.pill, #table .btn, #table label.hand-card,'
    + ' .site-header a')].concat([...big]));
  for (const el of controls) {
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    const least = big.has(el) ? 44 : 24;
    const wide = el.matches('.hand-card, .tune-chip') ? Math.min(least, share) : least;
    if (box.width < wide - 0.5 || box.height < least - 0.5) {
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      problems.push(`${name(el)} is ${size}, under ${least}x${least}`);
    }
  }

  // No clipped label, no clipped name in the trick (the strip may shorten a long name a
  // person typed with an ellipsis: the trick and the seat bar show it whole).
  const colours = /^(You|Pink|Orange|Yellow|Blue|Purple)$/;
  for (const el of document.querySelectorAll('#table .strip-name')) {
    if (shown(el) && colours.test(el.textContent.trim()) && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)} clips its text (${el.scrollWidth} > ${el.clientWidth})`);
    }
  }
  for (const el of document.querySelectorAll(
      '#table button, #table .btn, #table label.tune-chip, #table .slot-who,'
      + ' #table .table-facts > span, #table .preview > span, #table .hand .card-name')) {
    if (!shown(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name(el)} clips its text (${el.scrollWidth} > ${el.clientWidth})`);
    }
  }

  // No text squeezed to a word or two a line: count the line boxes of every text run.
  const walker = document.createTreeWalker(document.getElementById('table'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = node.textContent.trim().split(/\\s+/).filter(Boolean);
    const parent = node.parentElement;
    if (words.length < 3 || !parent || !shown(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
      .map(r => Math.round(r.top)));
    const lines = tops.size;
    // A label of four words at most may take two lines under a narrow card.
    const label = lines === 2 && words.length <= 4;
    if (lines > 1 && words.length / lines < 2.5 && !label) {
      problems.push(`squeezed: "${words.slice(0, 6).join(' ')}" in ${lines} lines`);
    }
  }
  return problems;
}"""

GAME_OVER_JS = """() => {
  const H = window.innerHeight;
  const ways = ['#rematch', '#review-race', '#race-again', '#replay-link', '#new-game'];
  return ['#game-over-title', ...ways].filter(sel => {
    const el = document.querySelector(sel);
    if (!el) return true;
    const box = el.getBoundingClientRect();
    return box.top < 0 || box.bottom > H;
  });
}"""


# The ways on at the flag, row by row: every row filled edge to edge, no more than three
# rows, the review in the first, each way a thumb-sized target on top.
GAME_OVER_ROWS_JS = """() => {
  const box = document.querySelector('.game-over-actions').getBoundingClientRect();
  const ways = [...document.querySelectorAll('.game-over-actions .btn')].map(way => {
    const r = way.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {id: way.id, box: r, onTop: !!hit && way.contains(hit)};
  }).sort((a, b) => a.box.top - b.box.top);
  const rows = [];
  for (const way of ways) {
    const row = rows[rows.length - 1];
    if (row && way.box.top < row.bottom - 1) row.ways.push(way);
    else rows.push({bottom: way.box.bottom, ways: [way]});
  }
  return rows.map(({ways}) => ({
    ids: ways.map(w => w.id),
    covered: ways.filter(w => !w.onTop).map(w => w.id),
    gapLeft: Math.min(...ways.map(w => w.box.left)) - box.left,
    gapRight: box.right - Math.max(...ways.map(w => w.box.right)),
    shortest: Math.min(...ways.map(w => w.box.height)),
  }));
}"""


def _check_ways_on(page: Page, size: str) -> None:
    rows = page.evaluate(GAME_OVER_ROWS_JS)
    assert len(rows) <= 3, f"{size}: the ways on take {len(rows)} rows: {rows}"
    assert "review-race" in rows[0]["ids"], f"{size}: the review is not in the first row: {rows}"
    for row in rows:
        assert row["covered"] == [], f"{size}: covered at the flag: {row}"
        assert row["gapLeft"] < 2 and row["gapRight"] < 2, f"{size}: a row not filled: {row}"
        assert row["shortest"] >= 44, f"{size}: a way on too small for a thumb: {row}"


# As if a seat's racer had picked a long one-word name: every "Yellow" in the page's words
# becomes ``name``, the round stories open; then what reaches past the screen's right
# edge, outside a box that scrolls sideways on purpose.
LONG_NAME_JS = """(name) => {
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    node.textContent = node.textContent.replace(/\\bYellow\\b/g, name);
  }
  for (const details of document.querySelectorAll('details')) details.open = true;
  const W = document.documentElement.clientWidth;
  const scrolls = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  return [...document.querySelectorAll('main *')].filter(el => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= W + 1) return false;
    for (let up = el.parentElement; up; up = up.parentElement) if (scrolls(up)) return false;
    return true;
  }).slice(0, 6).map(el => {
    const right = Math.round(el.getBoundingClientRect().right);
    return `${el.tagName}.${el.className} ends at ${right}`;
  });
}"""


def _check_long_names(page: Page, size: str) -> None:
    sticking_out = page.evaluate(LONG_NAME_JS, "M" * NAME_MAX)
    assert sticking_out == [], f"{size}: a {NAME_MAX}-letter name pushes out {sticking_out}"
    assert "M" * NAME_MAX in page.locator(".standings").inner_text()


def _phone(browser: Browser, size: str, **options: Any) -> BrowserContext:
    return phone_context(browser, *PHONES[size], **options)


def _bars(size: str) -> float:
    width, height = PHONES[size]
    return 0.22 if width > height else 0.18


def _start(
    page: Page, base: str, players: int, variants: tuple[str, ...] = (), seed: int | None = None
) -> None:
    fill_race_form(page, base, players, variants=variants, seed=seed, phone=True)
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    page.tap(".setup-form:not(.friends-form) button[type=submit]")
    page.wait_for_selector("#table[data-settled]", state="attached")


def _turn(page: Page) -> str | None:
    field = page.locator("input[name=turn]")
    return field.input_value() if field.count() else None


def _move(page: Page, rng: random.Random) -> None:
    """Tap a card (or its Tune Up), maybe a gas or two, then Play; wait for the reply."""
    turn = _turn(page)
    assert turn is not None
    targets = page.locator("#move-form label.hand-card, #move-form label.tune-chip")
    targets.nth(rng.randrange(targets.count())).tap()
    plus = page.locator("#move-form .btn-step[data-step='1']")
    if plus.is_visible():
        for _ in range(rng.randint(0, 2)):
            plus.tap()
    page.tap("#move-form .btn-play")
    wait_for_reply(page, turn)
    assert page.locator("#table .alert").count() == 0, page.locator("#table .alert").inner_text()


def _check(page: Page, size: str, where: str) -> None:
    problems = page.evaluate(PHONE_CHECK_JS, [_bars(size), size in FIT_WHOLE])
    assert problems == [], f"{size}, {where}: {problems}"


def _shot(page: Page, size: str, moment: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{size}-{moment}.png"), scale="css")


def _race(page: Page, size: str, every_turn: bool, rng: random.Random) -> None:
    """Play the race to the flag, checking the turns the caller asks for."""
    _check(page, size, "start")
    _shot(page, size, "start")
    round_end = False
    for moves in range(1, MAX_MOVES + 1):
        if page.locator(".game-over").count():
            break
        _move(page, rng)
        if not page.locator("#move-form").count():
            continue
        summary = page.locator(".round-summary").count() > 0
        if every_turn or moves <= 4 or (summary and not round_end):
            _check(page, size, f"move {moves}")
        if moves == 4:
            # Picking a card changes the bar's words; it must still fit.
            page.locator("#move-form label.hand-card, #move-form label.tune-chip").first.tap()
            _check(page, size, "a card picked")
            _shot(page, size, "mid-race")
        if summary and not round_end:
            round_end = True
            _shot(page, size, "round-end")
            _check_long_names(page, size)
            page.reload()  # the names and the opened details were the check's own
            page.wait_for_selector("#table[data-settled]", state="attached")
    else:
        pytest.fail(f"no game over after {MAX_MOVES} moves")
    assert round_end, "no round ended with a move form on the table"
    page.wait_for_selector(".game-over", state="visible")
    # The race's end shows over the middle of the screen for a moment, then leaves the flag.
    page.wait_for_selector(".moment.is-on", state="detached")
    assert page.evaluate(GAME_OVER_JS) == [], f"{size}: not on the first screen at the flag"
    _check_ways_on(page, size)
    assert page.locator(".suggestions-taken").count() == 0  # none taken: no zero-count line
    assert "No cards left" not in page.locator("#table").inner_text()
    _check(page, size, "game over")
    _shot(page, size, "game-over")
    _check_long_names(page, size)


def test_a_whole_race_at_390x844_needs_no_scroll_at_any_turn(
    browser: Browser, live_server: str
) -> None:
    context = _phone(browser, "390x844")
    page = context.new_page()
    problems = watch_console_errors(page)
    _start(page, live_server, players=4)
    _race(page, "390x844", every_turn=True, rng=random.Random(19))
    assert problems == [], problems
    context.close()


@pytest.mark.parametrize("size", ["320x640", "360x740", "375x667", "414x896", "844x390"])
def test_first_turns_round_end_and_flag_fit_the_phone(
    browser: Browser, live_server: str, size: str
) -> None:
    context = _phone(browser, size)
    page = context.new_page()
    _start(page, live_server, players=3)
    # The portrait sizes a solo race must fit at every turn, the smallest among them.
    _race(page, size, every_turn=size in EVERY_TURN, rng=random.Random(size))
    context.close()


# Deals of the widest hands (the live server's seed key is fixed): 10 has seven suits with
# two blocked (a blocked mark once was wider than its card), 1 and 59 six with the 0 free
# to play, its effect in a narrow column (it once wrapped).
@pytest.mark.parametrize("seed", [10, 1, 59])
@pytest.mark.parametrize("size", ["320x640", "360x740", "844x390"])
def test_five_racers_with_every_variant_fit_the_phone(
    browser: Browser, live_server: str, size: str, seed: int
) -> None:
    """The widest table (five racers, the 0 suit, the 0/5 card, larger hands) still fits,
    and a suggestion's answer sits in the bar without pushing it past its share. Seeded:
    whether a hand fits depends on its deal."""
    context = _phone(browser, size)
    page = context.new_page()
    variants = ("larger_hands", "zero_suit", "zero_five")
    _start(page, live_server, players=5, variants=variants, seed=seed)
    rng = random.Random(5)
    for move in range(4):
        if not page.locator("#move-form").count():
            break
        _check(page, size, f"turn {move + 1}")
        _move(page, rng)
    if page.locator("#move-form").count():
        page.tap("#move-form .btn-suggest")
        page.wait_for_selector("#suggestion")
        _check(page, size, "after Suggest")
        if seed == 10:
            _shot(page, size, "five-racers-suggested")
    context.close()


# Whether the lobby's note about bots starts beside Start (its first line, not its box:
# an inline note broken beside Start has a box as wide as the form), and whether the
# first invite link's Copy button shares the link's row.
LOBBY_LAYOUT_JS = """() => {
  const start = document.getElementById('start-race').getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(document.querySelector('.lobby-start small'));
  const note = range.getClientRects()[0];
  const link = document.querySelector('.invite-url').getBoundingClientRect();
  const copy = document.querySelector('.invite [data-copy]').getBoundingClientRect();
  return {
    noteBeside: note.left >= start.right,
    copyBesideLink: copy.top < link.bottom && copy.bottom > link.top,
  };
}"""


def test_a_race_with_friends_fits_the_phone_with_names_and_the_clock(
    browser: Browser, live_server: str
) -> None:
    """The creator names themself, a friend joins with a long name; whoever is to play
    first sees the whole turn on one screen, names fitting, the clock saying what 0 does."""
    creator_context, friend_context = _phone(browser, "360x740"), _phone(browser, "360x740")
    creator, friend = creator_context.new_page(), friend_context.new_page()
    creator.goto(live_server + "/")
    creator.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    creator.tap(".friends-form label.pill:has(input[name=players][value='4'])")
    creator.tap(".friends-form label.pill:has(input[name=people][value='2'])")
    creator.fill("#creator-name", "Ada Lovelace")
    creator.tap("#race-friends")
    creator.wait_for_selector("#lobby")
    assert creator.locator("#table-status").inner_text().startswith("Waiting for 1 friend")
    assert "Your turn" not in creator.locator("#table").inner_text()
    _check(creator, "360x740", "the lobby")
    # The note about bots is whole beside Start or under it, never broken beside it.
    layout = creator.evaluate(LOBBY_LAYOUT_JS)
    assert not (layout["noteBeside"] and text_lines(creator, ".lobby-start small") > 1), layout
    assert layout["copyBesideLink"], layout
    _shot(creator, "360x740", "friends-lobby")
    friend.goto(creator.locator(".invite-url").first.input_value())
    # Both reveal at once: each turn's layout is under test here, not the reveal.
    friend.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    friend.fill("#name", "Bartholomew Long")
    friend.tap("#join-race")
    friend.wait_for_selector("#table")
    pages = (creator, friend)
    mover = wait_until(lambda: _someone_to_move(pages), "a person's turn")
    _check(mover, "360x740", "a race with friends")
    clock = mover.locator(".seat-badge.is-turn .seat-clock").inner_text()
    assert re.fullmatch(r"\d+ s left, then the autopilot plays for you", clock), clock
    names = mover.locator(".trick-slot .slot-who").all_inner_texts()
    other = "Bartholomew Long" if mover is creator else "Ada Lovelace"
    assert "You" in names and other in names, names
    # One name per seat: the seat bar calls each seat what the trick does.
    assert mover.locator(".seat-badge.is-turn .seat-name").inner_text() == "You"
    _shot(mover, "360x740", "friends-turn")
    _race_with_friends(pages, random.Random(60))
    creator_context.close()
    friend_context.close()


def _someone_to_move(pages: tuple[Page, ...]) -> Page | None:
    """The page, each freshly loaded, whose person is to move (None: nobody's turn yet)."""
    for page in pages:
        page.reload()
        page.wait_for_selector("#table[data-settled]", state="attached")
    return next((p for p in pages if p.locator("#move-form").count()), None)


def _race_with_friends(pages: tuple[Page, ...], rng: random.Random) -> None:
    """Both people play to the flag, each table updating live; every turn of either is
    checked whole (the seat bar's clock and the watch link never push a control under the
    play bar), a trick's lead and the turns after it alike."""
    turns = 0

    def over_or_mover() -> Page | str | None:
        if all(p.locator(".game-over").count() for p in pages):
            return "over"
        return next((p for p in pages if p.evaluate(MOVER_JS)), None)

    for _ in range(MAX_MOVES * 20):
        mover = wait_until(over_or_mover, "a turn or the flag", pace=BROWSER_POLL_S)
        if mover == "over":
            break
        assert isinstance(mover, Page)
        turns += 1
        _check(mover, "360x740", f"friends turn {turns}")
        _move(mover, rng)
    else:
        pytest.fail(f"no game over after {turns} turns")
    assert turns > 10, turns


# Whether this page's table is settled on the person's own turn (its move form revealed).
MOVER_JS = """() => {
  const table = document.getElementById('table');
  return !!(table && table.dataset.revealed && document.getElementById('move-form')
    && !table.classList.contains('is-revealing'));
}"""


BAR_OVERLAP_JS = """() => {
  const box = sel => document.querySelector(sel).getBoundingClientRect();
  const bar = box('#move-form .play-row'), score = box('#preview');
  const play = box('#move-form .btn-play'), gas = box('#move-form .gas-field');
  const cut = el => el.scrollWidth > el.clientWidth + 1
    || el.getBoundingClientRect().right > score.right + 1;
  const clipped = [...document.querySelectorAll('#preview span, #preview b')]
    .filter(cut).map(el => el.textContent.trim());
  return {
    scoreUnderPlay: score.right > play.left + 1,
    outsideBar: [gas, score, play].some(b => b.left < bar.left - 1 || b.right > bar.right + 1),
    clipped,
  };
}"""


# Every run takes the shortest, narrowest laptop, where the fit is tightest; the wider
# screens are the slow sweep.
@pytest.mark.parametrize(
    "size",
    sweep((1024, 768), (1100, 800), (1280, 800)),
)
def test_the_hands_bar_fits_two_column_widths(
    browser: Browser, live_server: str, size: tuple[int, int]
) -> None:
    """Tablets in landscape and small laptops lay the racetrack beside the table: the
    hand's bar is then narrow, and the score must neither run under Play nor be cut."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    _start(page, live_server, players=4)
    page.locator("#move-form label.hand-card").first.click()
    found = page.evaluate(BAR_OVERLAP_JS)
    assert found == {"scoreUnderPlay": False, "outsideBar": False, "clipped": []}, (size, found)
    context.close()
