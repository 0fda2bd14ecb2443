"""A whole race in real Chromium, from the start page to the chequered flag.

Driven like a person would: clicks, the keyboard shortcuts and plain Tab/Space/Enter, no
direct form posts. Along the way it checks the staged reveal and the aria-live sentences,
the "Your turn" tab title, that nothing breaks the Content Security Policy, and it saves
screenshots of the table (desktop 1280x800 and a 360 px phone, light and dark) to
tests/artifacts/ for people to look at.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from app_kit import watch_console_errors
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
MAX_MOVES = 400


def _start_race(page: Page, base: str, scripted: bool = True) -> None:
    page.goto(base + "/")
    page.click(".setup-form label.pill:has(input[name=players][value='3'])")
    page.click(".setup-form label.pill:has(input[name=bots][value=random])")
    page.click("text=Start this race")
    if scripted:
        # The table's script marks it settled once its keys and preview are wired up; keys
        # pressed before that would go nowhere.
        page.wait_for_selector("#table[data-settled]", state="attached")


def _turn(page: Page) -> str | None:
    field = page.locator("input[name=turn]")
    return field.input_value() if field.count() else None


def _wait_for_next_table(page: Page, turn: str) -> None:
    page.wait_for_function(
        """(turn) => {
            const field = document.querySelector('input[name=turn]');
            const table = document.getElementById('table');
            return table && table.dataset.settled && (!field || field.value !== turn);
        }""",
        arg=turn,
    )
    # The hand waits while the bots' cards are turned up; a person waits for it too.
    page.wait_for_selector("#table[data-revealed]", state="attached")


def _move_by_keys(page: Page, rng: random.Random) -> None:
    keys = sorted(
        {
            int(k)
            for k in page.locator("input[name=choice]").evaluate_all(
                "els => els.map(e => e.dataset.key)"
            )
        }
    )
    page.keyboard.press(str(rng.choice(keys)))
    if rng.random() < 0.25:
        page.keyboard.press("t")
    for _ in range(rng.randint(0, 2)):
        page.keyboard.press("+")
    if rng.random() < 0.3:
        page.keyboard.press("-")
    page.keyboard.press("Enter")


def _move_by_clicks(page: Page, rng: random.Random) -> None:
    labels = page.locator("#move-form label.hand-card, #move-form label.tune-chip")
    labels.nth(rng.randrange(labels.count())).click()
    plus = page.locator("#move-form .btn-step[data-step='1']")
    if plus.is_visible():
        for _ in range(rng.randint(0, 2)):
            plus.click()
    page.click("#move-form .btn-play")


def _move_by_tab(page: Page) -> None:
    """Plain keyboard navigation: Tab to the cards, Space to choose, Enter to play."""
    page.locator("#table-status").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate(
            "() => document.activeElement && document.activeElement.name === 'choice'"
        ):
            break
    else:
        pytest.fail("Tab never reached the card choices")
    page.keyboard.press("Space")
    assert page.locator("input[name=choice]:checked").count() == 1
    page.keyboard.press("Enter")


def _screenshots(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function(
        "() => document.querySelectorAll('#table .feed-item.is-pending').length === 0"
    )
    page.evaluate(  # the last item's slide-in, and any other finite animation, finished
        """() => Promise.all(document.getAnimations()
            .filter(a => a.effect.getTiming().iterations !== Infinity)
            .map(a => a.finished.catch(() => null)))"""  # a cancelled one is over too
    )
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        suffix = "" if scheme == "light" else "-dark"
        page.set_viewport_size(DESKTOP)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / f"{name}-desktop{suffix}.png"))
        page.screenshot(path=str(ARTIFACTS / f"{name}-desktop{suffix}-full.png"), full_page=True)
        page.set_viewport_size(PHONE)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / f"{name}-phone{suffix}.png"))
        page.screenshot(path=str(ARTIFACTS / f"{name}-phone{suffix}-full.png"), full_page=True)
    page.emulate_media(color_scheme="light")
    page.set_viewport_size(DESKTOP)


def test_whole_race_from_start_page_to_game_over(browser: Browser, live_server: str) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    problems = watch_console_errors(page)
    rng = random.Random(20240611)
    _start_race(page, live_server)
    assert page.title().startswith("Your turn")
    assert page.locator(".lane").count() == 3

    moves = 0
    announced = False
    for moves in range(1, MAX_MOVES + 1):
        if page.locator(".game-over").count():
            break
        turn = _turn(page)
        assert turn is not None, "no move form although the race is not over"
        style = moves % 3
        if style == 0:
            _move_by_keys(page, rng)
        elif style == 1:
            _move_by_clicks(page, rng)
        else:
            _move_by_tab(page)
        _wait_for_next_table(page, turn)
        assert page.locator("#table .alert").count() == 0, page.locator(
            "#table .alert"
        ).inner_text()
        if moves == 1:
            # The bots' plays are staged one by one and read out in the live region.
            page.wait_for_function(
                "() => document.querySelectorAll('#table .feed-item.is-pending').length === 0"
            )
            assert page.locator("#announcer p").count() >= 1
            announced = True
            assert page.locator("#table .feed-item").count() >= 2
            # The rest of the race reveals at once: the staged speeds are timed by
            # test_reveal_timeline and test_reveal_wait.
            page.evaluate("() => localStorage.setItem('zzv.revealSpeed', 'instant')")
        if moves == 4:
            _screenshots(page, "table")
        if page.locator("#move-form").count():
            assert page.title().startswith("Your turn")
    else:
        pytest.fail(f"no game over after {MAX_MOVES} moves")

    assert announced
    assert moves > 3
    # The flag comes out once the last trick has been revealed.
    page.wait_for_selector(".game-over", state="visible")
    assert page.locator("#rematch").is_visible()
    assert page.locator("#new-game").is_visible()
    assert page.locator("#move-form").count() == 0
    _screenshots(page, "game-over")

    old_url = page.url
    page.click("#rematch")
    page.wait_for_url(lambda url: url != old_url and "/games/" in url)
    assert page.locator("#table").is_visible()
    assert problems == [], problems
    context.close()


def test_plays_without_javascript(browser: Browser, live_server: str) -> None:
    """Scripts off: plain forms and full pages, every move a POST answered by a 303."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    _start_race(page, live_server, scripted=False)
    for _ in range(3):
        if page.locator(".game-over").count():
            break
        turn = _turn(page)
        page.locator("#move-form label.tune-chip").first.click()
        page.click("#move-form .btn-play")
        page.wait_for_load_state()
        assert _turn(page) != turn
        assert page.locator("#table .alert").count() == 0
    if page.locator("#move-form").count():
        # Playing without choosing a card: the server explains, the race is untouched.
        turn = _turn(page)
        page.click("#move-form .btn-play")
        page.wait_for_load_state()
        assert page.locator("#table .alert").is_visible()
        assert "Pick a card first" in page.locator("#table .alert").inner_text()
        assert _turn(page) == turn
    context.close()


def test_reduced_motion_reveals_at_once(browser: Browser, live_server: str) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    _start_race(page, live_server)
    turn = _turn(page)
    assert turn is not None
    page.keyboard.press("1")
    page.wait_for_selector("input[name=choice]:checked", state="attached")
    page.keyboard.press("Enter")
    _wait_for_next_table(page, turn)
    assert page.locator("#table .feed-item.is-pending").count() == 0
    assert page.locator("#announcer p").count() >= 1
    context.close()
