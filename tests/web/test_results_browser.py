"""Chromium on "Your races" and the leaderboard, at 390x844 and 1280x800: axe-core finds
nothing, light and dark, nothing scrolls sideways; screenshots in tests/artifacts/results/.
The name form works from the page, and a record an older version kept in localStorage is
sent to the server once and then forgotten by the browser."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_kit import axe_clean, no_sideways_scroll
from playwright.sync_api import Browser, Page

from app.races.lobby import NAME_MAX

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "results"
VIEWPORTS = {"390x844": {"width": 390, "height": 844}, "1280x800": {"width": 1280, "height": 800}}
ENV = {"ZZV_RATE_LIMIT_ENABLED": "false", "ZZV_MAX_GAMES_PER_CLIENT": "100000"}


def check(page: Page, name: str) -> None:
    """axe-core finds nothing in light and dark, the page does not scroll sideways, and a
    full-page screenshot of each scheme goes to tests/artifacts/results/."""
    no_sideways_scroll(page, name)
    axe_clean(page, name, ARTIFACTS, name)


def finish_race(client: httpx.Client, token: str, seed: int, bots: str = "random") -> None:
    """A rated race (a drawn seed: a chosen one makes practice) played out, ``seed``
    picking the person's moves."""
    headers = {"X-Player-Token": token}
    body = client.post("/api/games", json={"players": 4, "bots": bots}, headers=headers).json()
    auth = {"Authorization": f"Bearer {body['token']}"}
    state, rng = body["state"], random.Random(seed)
    while not state["game_over"]:
        payload = {"turn": state["turn"], "action": rng.choice(state["legal_actions"])}
        state = client.post(
            f"/api/games/{body['game_id']}/actions", json=payload, headers=auth
        ).json()


def test_your_races_and_the_leaderboard_at_phone_and_desktop_sizes(
    browser: Browser,
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    free_port: int,
    tmp_path: Path,
) -> None:
    env = {**ENV, "ZZV_DATA_DIR": str(tmp_path / "data")}
    server = launch_server(server_command(free_port), port=free_port, env=env)
    context = browser.new_context(viewport=VIEWPORTS["1280x800"], bypass_csp=True)
    page = context.new_page()
    page.goto(server.url + "/me")
    assert "Finish a race" in page.inner_text("main")
    page.click("#name-details summary")  # the name form is folded under its heading
    page.fill("#player-name", "Ada Lovelace")
    page.check("input[name=show]")
    page.click("text=Save")
    page.wait_for_url(server.url + "/me")
    [cookie] = [c for c in context.cookies() if c["name"] == "zzv_player"]
    assert cookie["httpOnly"]
    token = cookie["value"].rpartition(".")[0]
    with httpx.Client(base_url=server.url, timeout=60) as client:
        for seed, bots in ((31, "random"), (32, "easy"), (33, "random")):
            finish_race(client, token, seed, bots)
        for name, seed in (("Bo", 34), ("Cy", 35)):
            other = client.post("/api/me", json={"name": name, "show": True}).json()
            finish_race(client, other["player_token"], seed)
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.goto(server.url + "/me")
        assert page.locator(".history-table tbody tr").count() == 3
        places = page.locator(".history-table tbody td:nth-child(2)").all_inner_texts()
        assert all(re.fullmatch(r"[1-5](st|nd|rd|th) of [3-5]", p) for p in places), places
        assert "Racing as Ada Lovelace" in page.inner_text(".lede")
        check(page, f"your-races-{size}")
        page.goto(server.url + "/leaderboard")
        names = page.locator(".board-table tbody th").all_inner_texts()
        assert sorted(names) == ["Ada Lovelace (you)", "Bo", "Cy"]
        # This browser's player's row is the one marked.
        assert page.locator(".board-table tr.is-you th").all_inner_texts() == ["Ada Lovelace (you)"]
        check(page, f"leaderboard-{size}")
    # The longest one-word name a player may pick wraps in its cell on a small phone.
    page.set_viewport_size({"width": 360, "height": 740})
    page.evaluate(
        "(name) => { document.querySelector('.board-table tbody th').textContent = name; }",
        "W" * NAME_MAX,
    )
    no_sideways_scroll(page, f"the board with a {NAME_MAX}-letter name")
    # A replay link from the history opens the race's replay.
    page.goto(server.url + "/me")
    page.locator(".history-table a").first.click()
    page.wait_for_url("**/replay")
    assert page.locator("h1").count() == 1
    context.close()


def test_the_old_local_record_is_sent_once_then_forgotten(
    browser: Browser,
    launch_server: Callable[..., Any],
    server_command: Callable[..., list[str]],
    free_port: int,
    tmp_path: Path,
) -> None:
    env = {**ENV, "ZZV_DATA_DIR": str(tmp_path / "data")}
    server = launch_server(server_command(free_port), port=free_port, env=env)
    context = browser.new_context(viewport=VIEWPORTS["390x844"])
    page = context.new_page()
    page.goto(server.url + "/rules")
    old = {"normal": {"races": 7, "wins": 3, "streak": 2}}
    page.evaluate("(r) => localStorage.setItem('zzv.record', r)", json.dumps(old))
    with page.expect_response("**/me/import") as answer:
        page.reload()
    assert answer.value.json() == {"imported": True}
    page.wait_for_function("() => localStorage.getItem('zzv.record') === null")
    page.goto(server.url + "/me")
    row = page.locator(".record-table tbody tr").first.locator("th, td").all_inner_texts()
    assert [row[0].lower(), *row[1:]] == ["normal", "7", "3", "2"]
    page.goto(server.url + "/")
    assert page.locator("#record").is_visible()
    context.close()
