"""The guided first race in real Chromium, on touch phones and a desktop.

- /learn is one screen at 360x740: Start shows without scrolling, the page not scrolled.
- Nothing starts out picked: Play alone is refused and the coach says what to pick.
- From the home page's first offer, the lesson plays to its end by picking the coach's
  card (``data-coach="pick"``) and stepping the gas up to the coach's (``data-coach-gas``),
  with a screenshot of every step at 390x844 and 1280x800 under tests/artifacts/learn/.
- Making a different legal choice at every other step, the coach says what it did and
  the lesson still reaches its end, which offers a real race.
- At 360x740, 390x844, 414x896 and 1280x800 the coach's whole box is inside the screen
  at every step (the sixth tricks' laps too, after other choices as well), and the
  coach's card and Play are on top at their centres (at least 44 px tall on phones).
- The coach's box is on screen when a step opens, above the fixed play bar, and on phones
  from 360x740 up the whole hand clears the bar (on a 375x667 phone the coach's pick
  does, and on a 320x640 one too, with the coach's words scrolled up as far as its
  request stays in view); on a short laptop the coach's pick clears the sticky play bar
  at every step;
  the coach's label on a Tune Up leaves the chip's words and the card's effect readable.
- axe-core finds nothing on /learn and on the lesson's table, light and dark.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from app_kit import wait_for_reply
from browser_kit import DESKTOP, axe_clean, browser_context, phone_context, press
from playwright.sync_api import Browser, Page
from sweep_kit import sweep
from test_learn import IDEA_WORDS

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "learn"
MAX_STEPS = 60


def _begin(page: Page, base: str, phone: bool) -> None:
    page.goto(base + "/")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    first = page.locator("main a, main button").first
    assert first.get_attribute("id") == "learn-link", "the home page offers the lesson first"
    press(page, "#learn-link", phone)
    page.wait_for_url("**/learn")
    press(page, "#start-lesson", phone)
    page.wait_for_selector("#table[data-settled]", state="attached")
    page.wait_for_selector("#table[data-revealed]", state="attached")


def _choose(page: Page, choice: str, gas: int, phone: bool) -> None:
    """Pick ``choice`` through its label as a person does, step the gas, press Play."""
    mode, suit = choice.split(":")
    press(page, f"label[for='{mode}-{suit}']", phone)
    for _ in range(12):  # the stepper, as a thumb does it
        now = int(page.locator("#gas").input_value() or "0")
        if now == gas or mode == "down":
            break
        press(page, f"#move-form [data-step='{1 if gas > now else -1}']", phone)
    assert mode == "down" or int(page.locator("#gas").input_value()) == gas
    turn = page.locator("input[name=turn]").input_value()
    press(page, "#move-form .btn-play", phone)
    wait_for_reply(page, turn)


#: For the coached card: the text of its "×N" badge (None without one) and of whatever is
#: on top at the badge's centre and at the coach's label's centre.
_COACHED_CARD = """() => {
  const tag = document.querySelector('.coach-tag');
  const card = tag.closest('.hand-card');
  const count = card.querySelector('.count');
  const onTop = (el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return el.contains(hit);
  };
  return [count ? count.textContent : null, count ? onTop(count) : true, onTop(tag)];
}"""


def _coach_hides_nothing(page: Page) -> bool:
    """Whether the coach's label and the coached card's "×N" badge both show (a label
    over the badge hid that the learner holds more than one)."""
    page.locator(".coach-tag").scroll_into_view_if_needed()
    _, count_shows, tag_shows = page.evaluate(_COACHED_CARD)
    return bool(count_shows and tag_shows)


#: For a coached Tune Up chip: how many CSS px of the coach's label lie over the chip's
#: words ("Tune Up") and over the card's effect just above the chip, if it shows one (0
#: and 0: both read).
_COACHED_CHIP = """() => {
  const tag = document.querySelector('.coach-tag');
  const chip = tag.closest('.tune-chip');
  const words = [...chip.childNodes]
    .find(n => n.nodeType === 3 && n.textContent.includes('Tune Up'));
  const range = document.createRange();
  const at = words.textContent.indexOf('Tune Up');
  range.setStart(words, at);
  range.setEnd(words, at + 'Tune Up'.length);
  const over = (a, b) => Math.min(a.right, b.right) <= Math.max(a.left, b.left) ? 0
    : Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const label = tag.getBoundingClientRect();
  // A blocked card shows no effect.
  const fx = tag.closest('.hand-slot').querySelector('.card-fx .fx-short');
  const effect = document.createRange();
  if (fx) effect.selectNodeContents(fx);
  return [over(label, range.getBoundingClientRect()),
          fx ? over(label, effect.getBoundingClientRect()) : 0];
}"""


def _coach_leaves_the_chip_readable(page: Page) -> bool:
    """Whether the coach's label on a Tune Up chip keeps off the chip's words and the
    card's effect above it (it sat over the top half of "Tune Up")."""
    page.locator(".coach-tag").scroll_into_view_if_needed()
    on_words, on_effect = page.evaluate(_COACHED_CHIP)
    return bool(on_words == 0 and on_effect == 0)


ON_TOP_JS = """(selector) => {
  const el = document.querySelector(selector);
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}"""

# The whole of the element is above the play bar (fixed to a phone's bottom edge).
CLEARS_BAR_JS = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  const bar = document.querySelector('.play-row').getBoundingClientRect();
  return box.top >= 0 && box.bottom <= bar.top;
}"""


# The coach's whole box inside the screen, and its card and Play: on top at their centres,
# and how tall they are.
COACH_FITS_JS = """() => {
  const box = document.querySelector('#coach').getBoundingClientRect();
  const pick = document.querySelector("input[data-coach='pick']");
  const usable = (el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return [!!hit && el.contains(hit), Math.round(r.height)];
  };
  return {
    coach: [Math.round(box.top), Math.round(box.bottom), innerHeight],
    inside: box.top >= 0 && box.bottom <= innerHeight,
    card: usable(document.querySelector(`label[for='${pick.id}']`)),
    play: usable(document.querySelector('#move-form .btn-play')),
    picked: !!document.querySelector('input[name=choice]:checked'),
    gas: document.querySelector('#gas').value,
  };
}"""


def _step_fits(page: Page, phone: bool, step: int) -> None:
    """The step opens with nothing picked and no gas, the coach's whole box on screen,
    and the coach's card and Play usable where they are."""
    page.wait_for_selector("#table[data-revealed]", state="attached")
    fits = page.evaluate(COACH_FITS_JS)
    assert not fits["picked"] and fits["gas"] == "0", f"step {step}: {fits}"
    assert fits["inside"], f"step {step}: the coach's box is cut off: {fits['coach']}"
    for part in ("card", "play"):
        on_top, height = fits[part]
        assert on_top, f"step {step}: the coach's {part} is covered"
        assert not phone or height >= 44, f"step {step}: the {part} is {height} px tall"


def _play_lesson(page: Page, phone: bool, differ: bool, shots: str | None) -> list[str]:
    """Play to the end; the coach's words at every step."""
    said = []
    for step in range(MAX_STEPS):
        page.wait_for_selector("#table[data-revealed]", state="attached")
        status = page.locator("#coach-says[role=status]")
        said.append(status.inner_text())
        if shots:
            page.screenshot(path=str(SHOTS / f"{shots}-step-{step:02d}.png"))
        if page.locator(".game-over").count():
            return said
        _step_fits(page, phone, step)
        form = page.locator("#move-form")
        gas = int(form.get_attribute("data-coach-gas") or "0")
        pick = page.locator("input[data-coach='pick']")
        assert pick.count() == 1
        choice = pick.get_attribute("value") or ""
        if choice.startswith("up:"):  # a Tune Up's label rides on its button, no badge there
            assert _coach_hides_nothing(page), f"step {step}: the coach's label covers the ×N"
        else:
            assert _coach_leaves_the_chip_readable(page), f"step {step}: the label hides words"
        if phone:
            box = page.locator("#coach").bounding_box()
            bar = page.locator(".play-row").bounding_box()
            assert box and bar and box["y"] < bar["y"], "the coach sits above the play bar"
            assert page.evaluate(CLEARS_BAR_JS, "#move-form .hand"), f"step {step}: hand under bar"
        if differ and step % 2 == 0:
            values = page.locator("#move-form input[name=choice]").evaluate_all(
                "inputs => inputs.map(i => i.value)"
            )
            other = next(v for v in values if v != choice)
            _choose(page, other, 0, phone)
            note = page.locator("#coach-note").inner_text()
            assert "instead" in note, note
        else:
            _choose(page, choice, gas, phone)
    pytest.fail(f"the lesson did not end in {MAX_STEPS} steps")


# The phone in every run; the desktop in the slow sweep.
@pytest.mark.parametrize("phone", sweep(True, False), ids=["phone-390x844", "desktop-1280x800"])
def test_the_coached_lesson_plays_to_its_end(
    browser: Browser, live_server: str, phone: bool
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser_context(browser, phone)
    page = context.new_page()
    _begin(page, live_server, phone)
    said = _play_lesson(page, phone, differ=False, shots="phone" if phone else "desktop")
    assert "You won the race" in said[-1]
    assert page.locator("#real-race").is_visible()
    spoken = " ".join(" ".join(said).split())
    missing = [w for words in IDEA_WORDS.values() for w in words if w not in spoken]
    assert missing == [], missing
    print(f"{'phone' if phone else 'desktop'}: {len(said) - 1} steps")
    context.close()


@pytest.mark.parametrize(
    "size",
    [
        (360, 740),
        (414, 896),
        pytest.param((1280, 800), marks=pytest.mark.slow),
    ],
    ids=["360x740", "414x896", "1280x800"],
)
# A sweep of the lesson's other paths, at every size in the slow run; the quick run plays
# the coached path to its end at both sizes (above).
def test_a_different_choice_every_other_step_still_reaches_the_end(
    browser: Browser, live_server: str, size: tuple[int, int]
) -> None:
    width, height = size
    phone = width < DESKTOP["width"]
    if phone:
        context = phone_context(browser, width, height)
    else:
        context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    _begin(page, live_server, phone=phone)
    said = _play_lesson(page, phone=phone, differ=True, shots=f"differ-{width}x{height}")
    assert "Ready for a real race?" in said[-1]
    press(page, "#real-race", phone)
    page.wait_for_selector("#table[data-settled]", state="attached")
    assert "/learn" not in page.url and page.locator("#coach").count() == 0
    context.close()


# The coach's label stays inside the hand's box, and the page no wider than the screen (a
# label sticking out past a phone's edge widened the page, which then zoomed out).
TAG_INSIDE_JS = """() => {
  const tag = document.querySelector('.coach-tag').getBoundingClientRect();
  const area = document.querySelector('.hand-area').getBoundingClientRect();
  return [tag.left >= area.left && tag.right <= area.right,
          document.documentElement.scrollWidth <= document.documentElement.clientWidth];
}"""


@pytest.mark.parametrize(
    "size",
    [(320, 640), (360, 740), (375, 667), (414, 896)],
    ids=["320x640", "360x740", "375x667", "414x896"],
)
def test_the_lesson_fits_other_phones(
    browser: Browser, live_server: str, size: tuple[int, int]
) -> None:
    """At every step the coach's words and its card are in view and on top (not under the
    play bar) when the step opens, with no scrolling by the learner, and so is the whole
    hand (every other card and Tune Up the coach may speak of) except on the shortest
    screen; the coach's label fits in the hand and the page in the screen."""
    width, height = size
    context = phone_context(browser, width, height)
    page = context.new_page()
    _begin(page, live_server, phone=True)
    for step in range(MAX_STEPS):
        page.wait_for_selector("#table[data-revealed]", state="attached")
        if page.locator(".game-over").count():
            break
        if step < 6:
            page.screenshot(path=str(SHOTS / f"phone-{width}x{height}-step-{step:02d}.png"))
        if height > 700:
            assert page.evaluate(CLEARS_BAR_JS, "#move-form .hand"), f"step {step}: hand under bar"
        assert page.evaluate(ON_TOP_JS, "#coach-says"), f"step {step}: the coach is covered"
        if height >= 740:
            _step_fits(page, True, step)
        choice = page.locator("input[data-coach='pick']").get_attribute("value") or ""
        mode, suit = choice.split(":")
        label = f"label[for='{mode}-{suit}']"
        assert page.evaluate(ON_TOP_JS, label), f"step {step}: the coach's card is covered"
        assert page.evaluate(CLEARS_BAR_JS, label), f"step {step}: the card is under the bar"
        assert page.evaluate(ON_TOP_JS, ".coach-tag"), f"step {step}: the coach's label is covered"
        if mode == "down":
            assert _coach_leaves_the_chip_readable(page), f"step {step}: the label hides words"
        in_hand, page_fits = page.evaluate(TAG_INSIDE_JS)
        assert in_hand, f"step {step}: the coach's label sticks out of the hand"
        assert page_fits, f"step {step}: the page is wider than the screen"
        _choose(
            page, choice, int(page.locator("#move-form").get_attribute("data-coach-gas") or 0), True
        )
    else:
        pytest.fail(f"the lesson did not end in {MAX_STEPS} steps")
    assert step >= 10, "the lesson has a dozen steps"
    context.close()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)], ids=["1024x768", "1280x720"])
def test_the_coachs_pick_clears_the_play_bar_on_a_short_laptop(
    browser: Browser, live_server: str, size: tuple[int, int]
) -> None:
    """At every step of the lesson on a laptop screen, the card or Tune Up the coach asks
    for is on top and above the sticky play bar when the step opens, its words readable
    under the coach's label (the coach's long words once pushed the Tune Up under the bar)."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    _begin(page, live_server, phone=False)
    for step in range(MAX_STEPS):
        page.wait_for_selector("#table[data-revealed]", state="attached")
        if page.locator(".game-over").count():
            break
        choice = page.locator("input[data-coach='pick']").get_attribute("value") or ""
        mode, suit = choice.split(":")
        label = f"label[for='{mode}-{suit}']"
        assert page.evaluate(ON_TOP_JS, label), f"step {step}: the coach's pick is covered"
        assert page.evaluate(CLEARS_BAR_JS, label), f"step {step}: {choice} is under the bar"
        if mode == "down":
            assert _coach_leaves_the_chip_readable(page), f"step {step}: the label hides words"
        gas = int(page.locator("#move-form").get_attribute("data-coach-gas") or 0)
        _choose(page, choice, gas, False)
    else:
        pytest.fail(f"the lesson did not end in {MAX_STEPS} steps")
    assert step >= 10, "the lesson has a dozen steps"
    context.close()


def test_the_lesson_plays_with_the_keyboard_alone(browser: Browser, live_server: str) -> None:
    """The card's number key, T for its Tune Up, + for each gas and Enter follow the
    coach at every step; Enter alone picks nothing and plays nothing."""
    context = browser_context(browser, phone=False)
    page = context.new_page()
    page.goto(live_server + "/learn")
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    page.focus("#start-lesson")
    page.keyboard.press("Enter")
    page.wait_for_selector("#table[data-revealed]", state="attached")
    # Enter on Play with nothing picked: the coach says what to pick, and nothing is played.
    turn = page.locator("input[name=turn]").input_value()
    page.focus("#move-form .btn-play")
    page.keyboard.press("Enter")
    page.wait_for_selector("#coach-note", state="attached")
    assert page.locator("#coach-note").inner_text().startswith("Your move: tap")
    assert page.locator("input[name=turn]").input_value() == turn
    page.wait_for_selector("#table[data-revealed]", state="attached")
    for _ in range(MAX_STEPS):
        if page.locator(".game-over").count():
            break
        turn = page.locator("input[name=turn]").input_value()
        pick = page.locator("input[data-coach='pick']")
        page.keyboard.press(pick.get_attribute("data-key") or "")
        if pick.get_attribute("data-mode") == "down":
            page.keyboard.press("t")
        for _ in range(int(page.locator("#move-form").get_attribute("data-coach-gas") or 0)):
            page.keyboard.press("+")
        checked = "() => document.querySelector('input[name=choice]:checked').dataset.coach"
        assert page.evaluate(checked) == "pick"
        page.keyboard.press("Enter")
        wait_for_reply(page, turn)
    else:
        pytest.fail(f"the lesson did not end in {MAX_STEPS} steps")
    assert "You won the race" in page.locator("#coach-says").inner_text()
    assert page.locator("#race-again").count() == 0  # the lesson's deal has no seed to replay
    # The coach's box offers the next race; the flag adds the review and the replay only.
    ways = page.locator(".game-over-actions .btn").evaluate_all("bs => bs.map(b => b.id)")
    assert ways == ["review-race", "replay-link"], ways
    context.close()


def test_axe_finds_nothing_on_the_lesson_pages(browser: Browser, live_server: str) -> None:
    for phone in (True, False):
        context = browser_context(browser, phone, bypass_csp=True)
        page = context.new_page()
        page.goto(live_server + "/learn")
        axe_clean(page, "/learn")
        press(page, "#start-lesson", phone)
        page.wait_for_selector("#table[data-revealed]", state="attached")
        axe_clean(page, "the lesson's table")
        context.close()


def test_learn_is_one_screen_on_a_small_phone(browser: Browser, live_server: str) -> None:
    """At 360x740 /learn opens unscrolled with Start whole on the first screen, and the
    lesson's first step opens unscrolled with the coach's box whole."""
    context = phone_context(browser, 360, 740)
    page = context.new_page()
    page.goto(live_server + "/learn")
    page.screenshot(path=str(SHOTS / "learn-360x740.png"))
    start = page.locator("#start-lesson").bounding_box()
    assert page.evaluate("() => window.scrollY") == 0
    assert start is not None and start["y"] >= 0 and start["y"] + start["height"] <= 740, start
    page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
    press(page, "#start-lesson", True)
    page.wait_for_selector("#table[data-revealed]", state="attached")
    assert page.evaluate("() => window.scrollY") == 0
    _step_fits(page, True, 0)
    context.close()


def test_play_alone_is_refused_and_the_coach_says_what_to_pick(
    browser: Browser, live_server: str
) -> None:
    context = phone_context(browser, 390, 844)
    page = context.new_page()
    _begin(page, live_server, phone=True)
    turn = page.locator("input[name=turn]").input_value()
    suit = (page.locator("input[data-coach='pick']").get_attribute("data-name") or "").strip()
    press(page, "#move-form .btn-play", True)
    page.wait_for_selector("#coach-note", state="visible")
    note = page.locator("#coach-note").inner_text()
    assert note.startswith(f"Your move: tap {suit}"), note
    assert page.locator("input[name=turn]").input_value() == turn
    _step_fits(page, True, 0)
    context.close()
