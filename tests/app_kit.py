"""The app tests' kit: settings, in-process clients' helpers for the JSON API and the
HTML forms, and a look behind the page at the stored session.

Imported as ``app_kit`` from every test folder (``tests/`` is on the import path because
it holds the root conftest). The in-process ``settings``/``clock``/``store``/``app``/
``client`` fixtures built from these live in ``tests/conftest.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
import pytest
from fastapi.testclient import TestClient
from store_kit import StoreProbe

from app.bots.runner import HUMAN_SEAT, BotRunner
from app.races import operations
from app.races.lobby import Lobby, token_digest
from app.races.record import GameConfig, GameSession
from app.settings import Settings
from engine import Action, Game

if TYPE_CHECKING:
    from fastapi import FastAPI
    from playwright.sync_api import ConsoleMessage, Page

HX = {"HX-Request": "true"}
"""Headers htmx sends with every request it makes."""

REVIEW_WAIT_S = 180.0
"""How long a review may take before a test calls it hung: far more than it takes on a
quiet machine, so that a loaded one (a tournament sharing the cores) is not a failure."""

WAIT_S = 30.0
"""How long :func:`wait_until` waits by default before it calls a condition never met: a
bound against a hang on a loaded machine, never a measure of speed."""

POLL_S = 0.02
"""The pace at which a condition is looked at again."""

BROWSER_POLL_S = 0.1
"""The pace of a condition that asks browser pages (each look is several round trips)."""

T = TypeVar("T")


def wait_until(
    condition: Callable[[], T], what: str, timeout: float = WAIT_S, pace: float = POLL_S
) -> T:
    """``condition()``'s first true answer, asked every ``pace`` seconds until ``timeout``
    seconds have passed; then the test fails, saying ``what`` never happened. A condition
    that asks a browser several things may take a slower pace, leaving the cores to the
    browser and the server it waits on."""
    deadline = time.monotonic() + timeout
    while not (found := condition()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f} s"
        time.sleep(pace)  # the poll's pace: the loop ends on the condition, not a clock
    return found


async def await_until(
    condition: Callable[[], T | Awaitable[T]], what: str, timeout: float = WAIT_S
) -> T:
    """:func:`wait_until` inside an event loop (``condition`` may be a coroutine function):
    the loop runs its other tasks between looks."""
    deadline = time.monotonic() + timeout
    while True:
        found = condition()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return found  # type: ignore[return-value]
        assert time.monotonic() < deadline, f"{what}: not within {timeout:.0f} s"
        await asyncio.sleep(POLL_S)  # the poll's pace, as in wait_until


@contextlib.asynccontextmanager
async def asgi_client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An async client on ``app`` in process, for requests sent at once: the app's
    lifespan runs around it, as under a server (stores opened, then closed)."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


def make_settings(**overrides: Any) -> Settings:
    """Settings for tests: no rate limits, no caps on live races or on daily attempts
    (every test client is one address), no access log, a fixed seed key (so a seed always
    deals the same cards), and an app built on them without a store of its own keeps its
    races in memory only (no race file shared between tests), unless overridden."""
    base: dict[str, Any] = {
        "rate_limit_enabled": False,
        "max_games_per_client": 100_000,
        "max_games_per_address": 100_000,
        "daily_attempts_per_address": 100_000,
        "access_log": False,
        "seed_secret": "api-tests",
        "durable": False,
    }
    return Settings(**{**base, **overrides})


# --------------------------------------------------------------------------- JSON API


def bearer(token: str) -> dict[str, str]:
    """The Authorization header for ``token``."""
    return {"Authorization": f"Bearer {token}"}


def create(client: httpx.Client, **body: Any) -> tuple[str, str, dict[str, Any]]:
    """Start a race through the API (in process, or on a real server with an
    ``httpx.Client`` on its address); return (game_id, token, state)."""
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["game_id"], data["token"], data["state"]


def move(client: httpx.Client, game_id: str, token: str, turn: int, action: dict[str, Any]) -> Any:
    """POST one action; return the raw response."""
    return client.post(
        f"/api/games/{game_id}/actions",
        json={"turn": turn, "action": action},
        headers=bearer(token),
    )


def play_out(
    client: httpx.Client, game_id: str, token: str, state: dict[str, Any], rng: random.Random
) -> list[dict[str, Any]]:
    """Play random legal moves through the API until the race ends; return every state."""
    states = [state]
    for _ in range(1000):
        if state["game_over"]:
            return states
        action = rng.choice(state["legal_actions"])
        response = move(client, game_id, token, state["turn"], action)
        assert response.status_code == 200, response.text
        state = response.json()
        states.append(state)
    raise AssertionError("race did not end within 1000 human moves")


# --------------------------------------------------------------------------- HTML forms


def start(client: TestClient, **fields: Any) -> str:
    """Start a race through the start page's form and return its id."""
    data = {"players": "3", "bots": "random", **{k: str(v) for k, v in fields.items()}}
    response = client.post("/games", data=data)
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/games/([A-Za-z0-9_-]+)", response.headers["location"])
    assert match, response.headers["location"]
    return match.group(1)


def form_fields(action: dict[str, Any], turn: int) -> dict[str, str]:
    """The move form's fields that a person would submit for ``action`` (engine JSON)."""
    fields = {"turn": str(turn), "gas": str(action.get("gas", 0))}
    if action["type"] == "tune_up":
        fields["choice"] = f"down:{action['suit']}"
    elif action["type"] == "play":
        fields["choice"] = f"up:{action['suit']}"
        if action.get("zero_effect"):
            fields["zero_effect"] = action["zero_effect"]
    else:
        fields["choice"] = "zero_five"
        fields["zf_value"] = str(action["value"])
        fields["discard"] = action["discard"]
    return fields


# --------------------------------------------------------------------------- behind the page


def session_of(store: StoreProbe, game_id: str) -> GameSession:
    """The stored session (tests look behind the page to check the state did not change)."""
    return store.get(game_id)


REPLY_SHOWN_JS = """(turn) => {
    const field = document.querySelector('input[name=turn]');
    const table = document.getElementById('table');
    return table && table.dataset.revealed && (!field || field.value !== turn);
}"""


def wait_for_reply(page: Page, turn: str | None) -> None:
    """Wait until the table answering a move made at ``turn`` is in and fully revealed."""
    page.wait_for_function(REPLY_SHOWN_JS, arg=turn)


def watch_console_errors(page: Page) -> list[str]:
    """A list that fills with every console error and uncaught script error of ``page``."""
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"{message.text} at {message.location}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


def bare_session(game: Game, game_id: str = "g", token: str = "t" * 43) -> GameSession:
    """A race around ``game`` with one person (token ``token``) at seat 0 and bots in the
    other seats, not stored anywhere. ``game`` is its set-up deal (``start``): loaded again,
    the race stands where ``game`` stood."""
    return GameSession(
        id=game_id,
        config=GameConfig(players=game.players),
        game=game,
        start=game.to_dict(),
        seed=1,
        seed_chosen=True,
        engine_seed=1,
        lobby=Lobby.create(game.players, 1, token_digest(token)),
        token=token,
    )


def play_inline(session: GameSession, action: Action) -> None:
    """The creator's ``action`` and the bots' replies, through the domain's own
    :func:`~app.races.operations.play`, in this thread (light bots: they move inline)."""
    asyncio.run(operations.play(session, HUMAN_SEAT, action, 0.0, BotRunner()))


def run_bots_inline(session: GameSession) -> None:
    """The bots' moves until a person is to play or the race is over, in this thread."""
    asyncio.run(BotRunner().run_bots(session))


def another_browser(client: TestClient) -> TestClient:
    """A second client with cookies of its own, on ``client``'s app and event loop (the
    Redis store's connections belong to that loop)."""
    other = TestClient(client.app, follow_redirects=client.follow_redirects)
    other.portal = client.portal
    return other


class WallClock:
    """A wall clock a test moves by hand: ``now``, in seconds since the epoch."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def hand_clock(monkeypatch: pytest.MonkeyPatch, now: float) -> WallClock:
    """Make a :class:`WallClock` at ``now`` the races' wall clock for this test."""
    clock = WallClock(now)
    monkeypatch.setattr(operations, "wall_clock", clock)
    return clock
