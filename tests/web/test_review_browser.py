"""The review in real Chromium on a real server: the replay with its verdicts, the review
page, and "try again from here", at 390x844 (a phone) and 1280x800, axe clean in light
and dark. Screenshots go to tests/artifacts/review/.

The race is played through the API (random legal moves) so the test spends its time on
the pages; the browser then carries that seat's cookie, as the browser that played it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import watch_console_errors
from browser_kit import axe_clean, no_sideways_scroll
from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "review"
SIZES = {"320x640": (320, 640), "390x844": (390, 844), "1280x800": (1280, 800)}


@pytest.fixture
def review_server(
    launch_server: Callable[..., Any], server_command: Callable[..., list[str]], free_port: int
) -> str:
    """A server whose reviews use a small budget (the pages are the same at any budget)."""
    env = {
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_MAX_GAMES_PER_CLIENT": "100000",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_REVIEW_WORLDS": "8",
    }
    server = launch_server(server_command(free_port, "--workers", "1"), port=free_port, env=env)
    url: str = server.url
    return url


def finished_race(base: str, seed: int) -> tuple[str, str]:
    """A 4-player race against normal bots, played out through the API."""
    with httpx.Client(base_url=base, timeout=30) as http:
        created = http.post("/api/games", json={"players": 4, "bots": "normal", "seed": seed})
        assert created.status_code == 201, created.text
        game_id, token = created.json()["game_id"], created.json()["token"]
        state = created.json()["state"]
        rng = random.Random(seed)
        while not state["game_over"]:
            body = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
            response = http.post(
                f"/api/games/{game_id}/actions",
                json=body,
                headers={"Authorization": f"Bearer {token}"},
            )
            assert response.status_code == 200, response.text
            state = response.json()
    return game_id, token


@pytest.mark.parametrize("size", list(SIZES))
def test_replay_with_verdicts_and_try_again(
    browser: Browser, review_server: str, size: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width, height = SIZES[size]
    game_id, token = finished_race(review_server, seed=40 + width)
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        device_scale_factor=2 if phone else 1,
        bypass_csp=True,  # axe is injected as a script tag
    )
    context.add_cookies(
        [{"name": f"zzv_{game_id}", "value": token, "url": f"{review_server}/games/{game_id}"}]
    )
    page = context.new_page()
    problems = watch_console_errors(page)
    try:
        page.goto(f"{review_server}/games/{game_id}/replay")
        page.click("#review-race")
        page.wait_for_url(f"**/games/{game_id}/review")
        page.wait_for_selector("#review-summary", timeout=180_000)  # htmx refreshes it
        badges = page.locator("#review .verdict-badge")
        assert badges.count() >= 10
        no_sideways_scroll(page, "review")
        axe_clean(page, f"review {size}")
        page.screenshot(path=str(SHOTS / f"review-{size}.png"), full_page=False)

        # The replay, one trick at a time, with the seat's verdict and the best move.
        page.goto(f"{review_server}/games/{game_id}/replay?step=3")
        page.wait_for_selector("#review-marks .verdict-badge")
        assert page.locator("#review-marks .review-decision").count() == 1
        page.wait_for_selector("#review-par-line:has-text('You finished')", timeout=180_000)
        no_sideways_scroll(page, "replay")
        axe_clean(page, f"replay {size}")
        page.locator("#review-marks").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"replay-verdicts-{size}.png"), full_page=True)

        # Try again from here: a practice race at that very trick, this seat to move.
        retry = page.locator("#review-marks .review-retry button")
        if retry.count() == 0:  # that decision was forced: take one from the review page
            page.goto(f"{review_server}/games/{game_id}/review")
            retry = page.locator(".review-retry button")
        retry.first.click()
        page.wait_for_selector("#move-form", timeout=30_000)
        assert f"/games/{game_id}" not in page.url
        page.screenshot(path=str(SHOTS / f"try-again-{size}.png"), full_page=False)
        axe_clean(page, f"practice table {size}")
        assert problems == []
    finally:
        context.close()
