"""/fair in real Chromium at 390x844 (a touch phone) and 1280x800: its forms are on top and
big enough to use, a finished race's record pasted or chosen as a file is checked, card by
card, a changed one is refused with a sentence and a live race has nothing to check, with
JavaScript on and off; axe-core finds nothing, light and dark, and nothing scrolls
sideways. Screenshots go to tests/artifacts/fair/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import watch_console_errors
from browser_kit import axe_clean, browser_context, no_sideways_scroll, press, tap_target
from fair_kit import played_record
from game_kit import VARIANT_COMBOS
from playwright.sync_api import Browser, Page
from sweep_kit import sweep

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "fair"
CONTROLS = ("#race-id", "#check-race", "#record", "#record-file", "#check-record")
MIN_TEXT_PX = 15.0

INSIDE_FORM_JS = """(sel) => {
  const box = document.querySelector(sel).getBoundingClientRect();
  const form = document.querySelector(sel).closest('form').getBoundingClientRect();
  return box.left >= form.left && box.right <= form.right;
}"""
FONT_PX_JS = "(sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize)"


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played_record(4, VARIANT_COMBOS[5], 8080, salt="c0ffee", bots="normal")


def controls_usable(page: Page, where: str) -> None:
    """Every control of the forms is on top at its centre, at least 44 px tall and wide,
    and inside its form (which the panel's padding frames)."""
    for selector in CONTROLS:
        box = tap_target(page, selector)
        assert isinstance(box, list), f"{where}: {selector} {box}"
        assert box[1] >= 44 and box[0] >= 44, f"{where}: {selector} is {box}"
        assert page.evaluate(INSIDE_FORM_JS, selector), f"{where}: {selector} leaves its form"


def verdict(page: Page) -> tuple[str, str]:
    page.wait_for_selector("#verdict-title")
    return page.inner_text("#verdict-title"), page.inner_text("#verdict-sentence")


# The desktop's check is in the slow sweep; the phone's, the tighter fit, in every run.
@pytest.mark.parametrize("size", sweep("390x844", "1280x800"))
def test_the_fair_page_checks_a_record(
    browser: Browser, live_server: str, size: str, record: dict[str, Any], tmp_path: Path
) -> None:
    phone = size == "390x844"
    context = browser_context(browser, phone, bypass_csp=True)
    try:
        page = context.new_page()
        problems = watch_console_errors(page)
        page.goto(live_server + "/fair")
        assert page.inner_text("h1") == "Check any deal yourself"
        no_sideways_scroll(page, f"/fair {size}")
        controls_usable(page, f"/fair {size}")
        assert page.evaluate(FONT_PX_JS, ".fair-steps li") >= MIN_TEXT_PX
        axe_clean(page, f"/fair {size}", SHOTS, f"fair-{size}")
        # A genuine record, pasted.
        page.fill("#record", json.dumps(record))
        press(page, "#check-record", phone)
        title, sentence = verdict(page)
        assert title == "It checks out race test-8080", title
        assert sentence.startswith("The commitment published when the race started")
        rounds = sum(e["kind"] == "round_dealt" for e in record["events"])
        assert page.locator("table.fair-deal").count() == rounds
        assert page.evaluate(FONT_PX_JS, "table.fair-deal td") >= MIN_TEXT_PX
        no_sideways_scroll(page, f"/fair checked {size}")
        axe_clean(page, f"/fair checked {size}", SHOTS, f"fair-checked-{size}")
        # A changed one, chosen as a file.
        changed = tmp_path / "changed.json"
        changed.write_text(json.dumps({**record, "salt": "c0ffef"}), encoding="utf-8")
        page.fill("#record", "")
        page.set_input_files("#record-file", str(changed))
        press(page, "#check-record", phone)
        title, sentence = verdict(page)
        assert title.startswith("It does not check out")
        assert "is not the SHA-256 of the revealed seed and salt" in sentence
        no_sideways_scroll(page, f"/fair changed {size}")
        axe_clean(page, f"/fair changed {size}", SHOTS, f"fair-changed-{size}")
        # A race still running: nothing to check yet.
        with httpx.Client(base_url=live_server, timeout=60) as client:
            live = client.post("/api/games", json={"players": 3, "bots": "random"}).json()
        page.fill("#race-id", live["game_id"])
        press(page, "#check-race", phone)
        _, sentence = verdict(page)
        assert sentence.startswith("This race is not finished yet, so there is nothing to check")
        assert page.locator("table.fair-deal").count() == 0
        axe_clean(page, f"/fair live race {size}", SHOTS, f"fair-live-{size}")
        # The refusals are answered 422 and 409 on purpose; nothing else went wrong.
        refused = "Failed to load resource: the server responded with a status of 4"
        assert [p for p in problems if not p.startswith(refused)] == []
        assert len(problems) == 2
    finally:
        context.close()


def test_the_check_works_without_javascript(
    browser: Browser, live_server: str, record: dict[str, Any]
) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto(live_server + "/fair")
        page.fill("#record", json.dumps(record))
        page.click("#check-record")
        assert verdict(page)[0].startswith("It checks out")
        page.fill("#race-id", "no-such-race")
        page.click("#check-race")
        page.wait_for_selector("#fair-error")
        assert page.inner_text("#fair-error").startswith("No race with that id is kept")
    finally:
        context.close()
