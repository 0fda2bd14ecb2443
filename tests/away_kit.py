"""Test kit for races of people on a real server (away seats, rematches): a server with a
short turn clock on either live store, a race of two people and a bot, the seat of the
second person left to run out of time until it is away, or the race played to its end.

Imported as ``away_kit`` (tests/ is on the path). Every wait is on a condition: the server's
own clock runs out, and polling reads are what make it play the overdue move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from app_kit import bearer, move, wait_until
from browser_kit import browser_context
from playwright.sync_api import Browser, Page

from bench.server import find_free_port, uvicorn_command

TURN_SECONDS = 1.5
"""The servers' turn clock: short, so a test waits a few seconds for two timeouts."""

WAIT_SECONDS = 20.0
"""Bound on any one condition (a busy two-core machine may be slow to answer)."""

FRIEND = "Bea"
"""The name the friend at seat 1 joins under."""

AWAY_AFTER = 2
"""Timeouts in a row that make a person away (the issue's "twice in a row")."""


def server_env(
    base: dict[str, str], redis_url: str | None, turn_seconds: float = TURN_SECONDS
) -> dict[str, str]:
    """The environment of a server for these tests: the live servers' own, a short turn
    clock, and Redis as the live store when ``redis_url`` is given (else SQLite)."""
    env = {**base, "ZZV_TURN_SECONDS": str(turn_seconds)}
    if redis_url is not None:
        env["ZZV_REDIS_URL"] = redis_url
    return env


def launch(
    launcher: Callable[..., Any],
    base: dict[str, str],
    redis_url: str | None,
    turn_seconds: float = TURN_SECONDS,
    **extra: str,
) -> str:
    """Start a server through the ``launch_server`` fixture's ``launcher`` (``extra``: more
    of its environment); its base URL."""
    port = find_free_port()
    env = {**server_env(base, redis_url, turn_seconds), **extra}
    server = launcher(uvicorn_command(port), port=port, env=env)
    return str(server.url)


@dataclass
class Pair:
    """A running race of two people (seats 0 and 1) and a bot, on one server."""

    http: httpx.Client
    game_id: str
    tokens: dict[int, str]
    players: dict[int, str]
    rng: random.Random = field(default_factory=lambda: random.Random(61))

    def state(self, seat: int) -> dict[str, Any]:
        """``seat``'s state now (a read: it makes the moves the clock owes)."""
        response = self.http.get(f"/api/games/{self.game_id}", headers=bearer(self.tokens[seat]))
        assert response.status_code == 200, response.text
        return dict(response.json())

    def wait(self, seat: int, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """``seat``'s first state that ``accept`` takes (polled until :data:`WAIT_SECONDS`)."""

        def accepted() -> dict[str, Any] | None:
            state = self.state(seat)
            return state if accept(state) else None

        found = wait_until(accepted, f"seat {seat}: an accepted state", WAIT_SECONDS)
        assert found is not None
        return found

    def play(self, seat: int, state: dict[str, Any]) -> dict[str, Any] | None:
        """``seat`` plays a random legal move; its new state, or None when its own clock ran
        out first (the move was then for an old turn)."""
        action = self.rng.choice(state["legal_actions"])
        response = move(self.http, self.game_id, self.tokens[seat], state["turn"], action)
        if response.status_code == 409 and response.json()["code"] in {
            "stale_turn",
            "not_your_turn",
        }:
            return None
        assert response.status_code == 200, response.text
        return dict(response.json())

    def seat_zero_plays_until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Seat 0 moves whenever it is to move, seat 1 never does, until ``done`` takes seat
        0's state (or the race is over); that state."""
        for _ in range(2000):
            state = self.state(0)
            if done(state) or state["status"] == "over":
                return state
            if state["current_seat"] == 0:
                self.play(0, state)
            else:  # seat 1's turn: its clock runs out, then a read makes the move
                turn = state["turn"]
                self.wait(0, lambda s, t=turn: s["turn"] != t or s["current_seat"] != 1)
        raise AssertionError("the race went on too long")


def finish(pair: Pair) -> dict[str, Any]:
    """Both people play random moves, each on their own turn, until the race is over; the
    last state of seat 0."""
    for _ in range(2000):
        state = pair.state(0)
        if state["status"] == "over":
            return state
        seat = state["current_seat"]
        if seat in pair.tokens:
            pair.play(seat, pair.state(seat))
    raise AssertionError("the race went on too long")


def new_pair(http: httpx.Client) -> Pair:
    """A rated race of 3: the creator (seat 0), a friend who joined (seat 1), a bot; each
    person known to the results by their own player token."""
    created = http.post("/api/games", json={"players": 3, "humans": 2, "bots": "random"})
    assert created.status_code == 201, created.text
    body = created.json()
    [invite] = body["invites"]
    join = {"code": invite["code"], "name": FRIEND}
    joined = http.post(f"/api/games/{body['game_id']}/join", json=join)
    assert joined.status_code == 201, joined.text
    return Pair(
        http,
        body["game_id"],
        {0: body["token"], 1: joined.json()["token"]},
        {0: body["player_token"], 1: joined.json()["player_token"]},
    )


def wait_for(read: Callable[[], list[Any]]) -> list[Any]:
    """``read()``'s first non-empty answer (polled until :data:`WAIT_SECONDS`): a result is
    recorded just after the save that ends its race."""
    return wait_until(read, "something to read", WAIT_SECONDS)


def away(seat: int) -> Callable[[dict[str, Any]], bool]:
    """Accepts a state where ``seat`` is away."""
    return lambda state: bool(state["seats"][seat]["away"])


def seat_page(browser: Browser, phone: bool, server: str, pair: Pair, seat: int) -> Page:
    """``seat``'s table in a browser of its own (its seat cookie set; CSP bypassed so that
    axe can be injected)."""
    context = browser_context(browser, phone, bypass_csp=True)
    context.add_cookies(
        [
            {
                "name": f"zzv_{pair.game_id}",
                "value": pair.tokens[seat],
                "url": f"{server}/games/{pair.game_id}",
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{server}/games/{pair.game_id}")
    return page
