"""The review in real Chromium on a real server, read as touch phones (390x844; 360x740 and
414x896 in the slow size sweep) and at 1280x800: the mistakes first and within the first
screen, the whole review at most three screens tall with the good moves and the later
mistakes folded, whatever their number, the graph, "try again" on the mistakes only and big
enough for a thumb, the jumps to each mistake, the replayed trick on screen after a step,
axe clean in light and dark. Screenshots go to tests/artifacts/review/.

Each race is played through the API, mostly by the normal bot's policy with a few random
moves (as a person plays: most moves fine, a few mistakes), or with random moves half the
time (a mistake every other move), so the test spends its time on the pages; the browser
then carries that seat's cookie, as the browser that played it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_kit import REVIEW_WAIT_S, wait_until, watch_console_errors
from browser_kit import axe_clean, no_sideways_scroll, phone_context, press, tap_target
from playwright.sync_api import Browser, BrowserContext, Page
from sweep_kit import sweep

from app.http.web.review import MISTAKES
from bench.server import find_free_port
from engine.bots import make_bot

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "review"
PHONES = {"360x740": (360, 740), "390x844": (390, 844), "414x896": (414, 896)}
SIZES = {**PHONES, "1280x800": (1280, 800)}
SCREENS = 3
"""The folded review is at most this many screens tall."""


@pytest.fixture(scope="module")
def review_server(
    launch_module_server: Callable[..., Any], server_command: Callable[..., list[str]]
) -> str:
    """A server whose reviews use a small budget (the pages are the same at any budget),
    its seeds keyed so that a seed deals the same cards in every session; one for the
    module, as its tests only read the reviewed races (a try again starts a new race)."""
    env = {
        "ZZV_SEED_SECRET": "live-server-tests",
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_MAX_GAMES_PER_CLIENT": "100000",
        "ZZV_ACCESS_LOG": "false",
        "ZZV_REVIEW_WORLDS": "8",
    }
    port = find_free_port()
    server = launch_module_server(server_command(port, "--workers", "1"), port=port, env=env)
    url: str = server.url
    return url


def finished_race(
    base: str, seed: int, slips: float = 0.1, players: int = 4, bots: str = "normal"
) -> tuple[str, str]:
    """A race of ``players`` against ``bots``, played out through the API: the normal
    bot's move, or a random legal one ``slips`` of the time."""
    bot = make_bot("normal", seed)
    with httpx.Client(base_url=base, timeout=30) as http:
        created = http.post("/api/games", json={"players": players, "bots": bots, "seed": seed})
        assert created.status_code == 201, created.text
        game_id, token = created.json()["game_id"], created.json()["token"]
        state = created.json()["state"]
        rng = random.Random(seed)
        while not state["game_over"]:
            if rng.random() < slips:
                action = rng.choice(state["legal_actions"])
            else:
                action = dict(bot.choose(state).to_dict())
            response = http.post(
                f"/api/games/{game_id}/actions",
                json={"turn": state["turn"], "action": action},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert response.status_code == 200, response.text
            state = response.json()
    return game_id, token


def reviewed_race(base: str, seed: int, **play: Any) -> tuple[str, str, list[dict[str, Any]]]:
    """A finished race (:func:`finished_race` with ``play``) whose review is done; its id,
    token and reviewed decisions."""
    game_id, token = finished_race(base, seed, **play)
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, timeout=30) as http:
        assert http.post(f"/api/games/{game_id}/review", headers=auth).status_code == 202

        def done() -> list[dict[str, Any]] | None:
            body = http.get(f"/api/games/{game_id}/review", headers=auth).json()
            return body["decisions"] if body["status"] == "done" else None

        decisions = wait_until(done, "the review finishing", REVIEW_WAIT_S)
    assert decisions is not None
    return game_id, token, decisions


def open_context(
    browser: Browser, size: str, base: str, game_id: str, token: str, scheme: str = "light"
) -> BrowserContext:
    """The seat's browser at ``size``: a touch phone or a desktop, in ``scheme``."""
    width, height = SIZES[size]
    options: dict[str, Any] = {"bypass_csp": True, "color_scheme": scheme}  # axe is injected
    if size in PHONES:
        context = phone_context(browser, width, height, **options)
    else:
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
    context.add_cookies(
        [{"name": f"zzv_{game_id}", "value": token, "url": f"{base}/games/{game_id}"}]
    )
    return context


RACES: dict[str, dict[str, Any]] = {
    "few": {"seed": 42},
    "many": {"seed": 2, "players": 3, "bots": "easy", "slips": 0.5},
}
"""A race with a few mistakes among good moves, and one with a mistake every other move
(random moves half the time against easy bots, close enough that they cost)."""


Reviewed = tuple[str, str, list[dict[str, Any]]]


@pytest.fixture(scope="module")
def reviewed(review_server: str) -> Callable[[str], Reviewed]:
    """``reviewed(kind)``: the reviewed race of :data:`RACES`'s ``kind``, played and
    reviewed once for the module."""
    done: dict[str, Reviewed] = {}

    def of(kind: str) -> Reviewed:
        if kind not in done:
            done[kind] = reviewed_race(review_server, **RACES[kind])
        return done[kind]

    return of


@pytest.fixture
def race(
    review_server: str, reviewed: Callable[[str], Reviewed]
) -> Iterator[tuple[str, str, str, list[dict[str, Any]]]]:
    yield review_server, *reviewed("few")


@pytest.fixture(params=sorted(RACES))
def any_race(
    request: pytest.FixtureRequest, review_server: str, reviewed: Callable[[str], Reviewed]
) -> Iterator[tuple[str, str, str, str, list[dict[str, Any]]]]:
    yield request.param, review_server, *reviewed(request.param)


_ON_SCREEN = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.top >= 0 && box.top < window.innerHeight - 40;
}"""

_WHOLLY_ON_SCREEN = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def top_of(page: Page, selector: str) -> float:
    return float(page.evaluate(f"document.querySelector({selector!r}).getBoundingClientRect().top"))


# One phone in every run; the other phones and the desktop in the slow sweep.
@pytest.mark.parametrize("size", sweep("390x844", *(size for size in SIZES if size != "390x844")))
def test_the_review_reads_on_a_phone(
    browser: Browser, any_race: tuple[str, str, str, str, Any], size: str
) -> None:
    kind, base, game_id, token, decisions = any_race
    mistakes = [d for d in decisions if d["verdict"] in MISTAKES]
    if kind == "few":
        assert mistakes and len(mistakes) < len(decisions) // 2, "a few mistakes among good moves"
    else:
        assert len(mistakes) >= 10, f"{len(mistakes)} mistakes: too few to need folding"
    shot = "review" if kind == "few" else f"review-{kind}"
    height = SIZES[size][1]
    phone = size in PHONES
    scheme = "dark" if (kind, size) == ("many", "390x844") else "light"  # a dark phone too
    context = open_context(browser, size, base, game_id, token, scheme)
    page = context.new_page()
    problems = watch_console_errors(page)
    try:
        page.goto(f"{base}/games/{game_id}/review")
        page.wait_for_selector("#review-summary")
        page.screenshot(path=str(SHOTS / f"{shot}-{size}-{scheme}-first-screen.png"))
        assert page.evaluate(_WHOLLY_ON_SCREEN, ".review-mistake .review-head"), (
            f"{size}: the first mistake's heading is not on the first screen"
        )
        assert page.eval_on_selector_all("details", "ds => ds.every(d => !d.open)")
        tall = page.evaluate("document.documentElement.scrollHeight")
        assert tall <= SCREENS * height, f"{size}: the review is {tall} px tall"
        # The later mistakes are folded: the first is the only one shown.
        shown = page.locator("#review .review-mistake:visible")
        assert shown.count() == 1, f"{size}: {shown.count()} mistakes shown unfolded"
        if kind == "many" and size == "390x844":  # the fold is what keeps it short
            page.click("#review-more > summary")
            unfolded = page.evaluate("document.documentElement.scrollHeight")
            assert unfolded > SCREENS * height, f"unfolded, the review is {unfolded} px"
            page.click("#review-more > summary")

        # The graph: a point per decision, the mistakes among them; described in words.
        moves = page.eval_on_selector_all(
            "#review-graph circle.graph-point", "cs => cs.map(c => Number(c.dataset.move))"
        )
        assert moves == [d["move"] for d in decisions]
        graph = page.get_by_role("img", name="Your chance to win the race after each decision")
        assert graph.count() == 1, "the graph is named for a screen reader"
        assert "%" in (page.locator("#review-graph-desc").text_content() or "")
        page.click(".review-graph-values > summary")  # the values as text, unfolded
        cells = page.locator(".review-graph-values tbody td.num").all_inner_texts()
        assert cells == [f"{round(100 * d['played_value'])}%" for d in decisions]
        page.click(".review-graph-values > summary")

        # The jump list: each link brings its mistake on screen, unfolded, with "try
        # again" (on the mistakes only) the control at its centre, thumb-sized.
        retries = page.locator("#review .review-retry button")
        assert retries.count() == len(mistakes)
        for d in mistakes:
            page.evaluate("window.scrollTo(0, 0)")
            press(page, f'.review-jump[href="#decision-{d["move"]}"]', phone)
            page.wait_for_function(_ON_SCREEN, arg=f"#decision-{d['move']}")
            found = tap_target(page, f"#decision-{d['move']} .review-retry button")
            assert isinstance(found, list), f"{size}: try again is {found}"
            if phone:
                assert found[1] >= 44, f"{size}: try again is {found[1]} px tall"
        if len(mistakes) > 1:
            page.screenshot(path=str(SHOTS / f"{shot}-{size}-last-mistake.png"))

        page.evaluate("window.scrollTo(0, 0)")
        no_sideways_scroll(page, f"review {size}")
        axe_clean(page, f"review {size}", SHOTS, f"{shot}-{size}")
        page.click("#review-all > summary")  # every decision unfolded, still clean
        axe_clean(page, f"review unfolded {size}")
        assert problems == []
    finally:
        context.close()


def test_the_replayed_trick_is_on_screen_after_a_step_and_try_again(
    browser: Browser, race: tuple[str, str, str, Any]
) -> None:
    base, game_id, token, decisions = race
    first = next(d for d in decisions if d["verdict"] in MISTAKES)
    for size in SIZES:
        phone = size in PHONES
        context = open_context(browser, size, base, game_id, token)
        page = context.new_page()
        problems = watch_console_errors(page)
        try:
            # From a mistake to its trick in the replay: the trick is on screen.
            page.goto(f"{base}/games/{game_id}/review")
            press(page, f"#decision-{first['move']} .review-see", phone)
            page.wait_for_selector("#review-marks .verdict-badge")
            assert page.evaluate(_WHOLLY_ON_SCREEN, ".replay-board"), size
            title = page.locator("#replay-title").inner_text()
            # A step forward (htmx swaps the replay in place): the new trick on screen.
            press(page, 'a[rel="next"]', phone)
            page.wait_for_function(
                "(t) => document.querySelector('#replay-title').innerText !== t", arg=title
            )
            assert page.evaluate(_WHOLLY_ON_SCREEN, ".replay-board"), size
            # A trick picked from the list below the board: the page goes back up to it.
            page.locator(".replay-rounds a").last.scroll_into_view_if_needed()
            title = page.locator("#replay-title").inner_text()
            page.locator(".replay-rounds a").last.click()
            page.wait_for_function(
                "(t) => document.querySelector('#replay-title').innerText !== t", arg=title
            )
            page.wait_for_function(_WHOLLY_ON_SCREEN, arg=".replay-board")
            page.wait_for_selector("#review-marks .verdict-badge")
            no_sideways_scroll(page, f"replay {size}")
            page.screenshot(path=str(SHOTS / f"replay-step-{size}.png"))
            axe_clean(page, f"replay {size}")
            assert problems == []
        finally:
            context.close()

    # Try again from a mistake: a practice race at that very trick, this seat to move.
    context = open_context(browser, "390x844", base, game_id, token)
    page = context.new_page()
    problems = watch_console_errors(page)
    try:
        page.goto(f"{base}/games/{game_id}/review")
        press(page, f"#decision-{first['move']} .review-retry button", phone=True)
        page.wait_for_selector("#move-form", timeout=30_000)
        assert f"/games/{game_id}" not in page.url, "a new race: the practice"
        page.screenshot(path=str(SHOTS / "try-again-390x844.png"))
        axe_clean(page, "practice table 390x844")
        assert problems == []
    finally:
        context.close()
