"""Hard bots under load: a cap on searches in flight, a queue that holds no server thread,
shorter budgets (and a notice) when the queue is long, starved searches counted, refused
creations that never run a bot, and a dead worker process replaced.

Searches are held on an :class:`asyncio.Event` by a stand-in for the pool search, so the
cap and the queue are checked by counting, never by timing. The dead-worker tests use the
real worker processes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import anyio.to_thread
import pytest
from app_kit import asgi_client, await_until, bearer, make_settings, wait_until
from bot_kit import HeldSearch, first_legal
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import metrics
from app.bots import pool as bot_pool
from app.bots import runner as bot_runner
from app.bots.runner import (
    HARD_MOVE_TARGET_SECONDS,
    NOTICE,
    BotRunner,
    SearchRequest,
    SearchResult,
    search_budget_ms,
)
from app.main import create_app
from engine import new_game

RACES = 8
CAP = 2
HANG_GUARD_SECONDS = 60.0  # only stops a broken test from hanging; never a speed assert
SEARCH_MS = 500  # real searches: long enough to run rollouts on a machine that is very busy


@pytest.fixture
def pool_stopped() -> Iterator[None]:
    """Start and end with no worker processes, so each test sees a pool of its own."""
    bot_pool.shutdown_workers()
    yield
    bot_pool.shutdown_workers()


async def _until(condition: Any, what: str) -> None:
    await await_until(condition, what, HANG_GUARD_SECONDS)


def test_budget_shrinks_with_the_queue_down_to_a_floor() -> None:
    budgets = [search_budget_ms(200, waiting, 2, 30) for waiting in range(60)]
    assert budgets[0] == 200  # no queue: the whole budget
    assert budgets == sorted(budgets, reverse=True)  # a longer queue never thinks longer
    assert budgets[2] == 100 and budgets[6] == 50
    assert min(budgets) == 30 and budgets[-1] == 30  # the floor holds
    assert search_budget_ms(200, 4, 4, 30) == 100  # more slots: the same queue weighs less
    assert search_budget_ms(20, 50, 2, 30) == 20  # a floor never raises a small budget


def test_a_moves_later_searches_share_what_is_left_of_its_time() -> None:
    """Each search of one move's replies gets at most its share of what remains of
    :data:`HARD_MOVE_TARGET_SECONDS`, so a move whose searches waited long finishes the
    rest at the floor instead of at full budget."""
    target_ms = HARD_MOVE_TARGET_SECONDS * 1000
    fresh = search_budget_ms(200, 0, 2, 30, left_ms=target_ms, searches_left=4)
    assert fresh == 200  # a move that has only begun: the whole budget
    assert search_budget_ms(200, 0, 2, 30, left_ms=450, searches_left=3) == 150
    assert search_budget_ms(200, 0, 2, 30, left_ms=0, searches_left=2) == 30
    shares = [search_budget_ms(200, 0, 2, 30, left_ms=ms, searches_left=2) for ms in (600, 200, 40)]
    assert shares == [200, 100, 30]  # less time left never thinks longer


class _SlowSearch(HeldSearch):
    """Each search takes ``seconds`` whatever its budget (a busy pool's wait)."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    async def __call__(self, request: SearchRequest) -> SearchResult:
        self.budgets.append(request.budget_ms)
        await asyncio.sleep(self.seconds)  # the time it takes is what the test is about
        return first_legal(request), self.rollouts


def test_a_move_whose_searches_run_long_ends_at_the_floor() -> None:
    search = _SlowSearch(0.8)
    app = _hard_app(search, bot_time_budget_ms=200)
    with TestClient(app) as client:
        seed = _seed_where_the_person_leads(5)
        race = client.post("/api/games", json={"players": 5, "bots": "hard", "seed": seed})
        search.budgets.clear()
        _tune_up(client, race.json())
    assert len(search.budgets) >= 3
    assert search.budgets[0] == 200  # the move had just begun
    assert search.budgets[-1] == 30  # past the move's target: the floor


def _seed_where_the_person_leads(players: int) -> int:
    from app.races.record import derive_engine_seed

    settings = make_settings()
    for seed in range(200):
        game = new_game(players=players, seed=derive_engine_seed(seed, settings))
        if game.current_seat == 0:
            return seed
    raise AssertionError("no seed where seat 0 leads")


def _hard_app(search: Any = None, **overrides: Any) -> FastAPI:
    """An app whose hard searches are capped at :data:`CAP`, running ``search`` instead of
    the real pool search when given."""
    app = create_app(make_settings(hard_searches_in_flight=CAP, **overrides))
    if search is not None:
        _runner(app).search = search
    return app


def _runner(app: FastAPI) -> BotRunner:
    runner: BotRunner = app.state.runner
    return runner


def test_searches_in_flight_never_exceed_the_cap_and_waiting_moves_hold_no_thread(
    monkeypatch: pytest.MonkeyPatch, pool_stopped: None
) -> None:
    search = HeldSearch()
    app = _hard_app(search)
    runner = _runner(app)

    async def main() -> None:
        async with asgi_client(app) as client:
            races = []
            for seed in range(RACES):
                body = {"players": 4, "bots": "hard", "seed": 100 + seed}
                created = await client.post("/api/games", json=body)
                assert created.status_code == 201, created.text
                races.append(created.json())
            search.release.clear()
            moves = [
                asyncio.create_task(
                    client.post(
                        f"/api/games/{race['game_id']}/actions",
                        json={"turn": 0, "action": race["state"]["legal_actions"][0]},
                        headers=bearer(race["token"]),
                    )
                )
                for race in races
            ]
            await _until(
                lambda: runner.in_flight == CAP and runner.waiting == RACES - CAP,
                "every race's first bot decision queued",
            )
            # Every move is parked, yet none holds one of the server's worker threads.
            limiter = anyio.to_thread.current_default_thread_limiter()
            assert limiter.borrowed_tokens == 0
            assert search.running == CAP
            search.release.set()
            answers = [(await move).json() for move in moves]
        assert all(answer["turn"] == 1 for answer in answers)
        # The queue was long, so searches were shortened and the races say so.
        assert min(search.budgets) < max(search.budgets)
        # (the first searches started before anyone queued, at full budget: a race served
        # only by those may answer before any search was shortened)
        notices = [answer["notice"] for answer in answers]
        assert set(notices) <= {NOTICE, None}
        assert notices.count(NOTICE) >= RACES - CAP

    asyncio.run(main())
    assert search.most_running <= CAP
    assert runner.peak_in_flight == CAP


def test_the_table_and_the_api_say_when_hard_bots_think_faster(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    search = HeldSearch()
    app = _hard_app(search)
    with TestClient(app) as client:
        created = client.post(
            "/games", data={"players": "4", "bots": "hard"}, follow_redirects=False
        )
        assert created.status_code == 303
        page = client.get(created.headers["location"])
        assert NOTICE not in page.text  # an idle server thinks at full budget
        api = client.post("/api/games", json={"bots": "hard"}).json()
        normal = client.post("/api/games", json={"bots": "normal"}).json()
        assert api["state"]["notice"] is None
        _runner(app)._last_shortened = time.monotonic()  # a long queue, now
        assert NOTICE in client.get(created.headers["location"]).text
        read = client.get(f"/api/games/{api['game_id']}", headers=bearer(api["token"]))
        assert read.json()["notice"] == NOTICE
        others = client.get(f"/api/games/{normal['game_id']}", headers=bearer(normal["token"]))
        assert others.json()["notice"] is None  # only races against hard bots are concerned


def test_a_starved_search_is_counted_and_logged_without_hidden_information(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    search = HeldSearch(rollouts=3)
    app = _hard_app(search)
    starved_before = metrics.HARD_STARVED._value.get()
    logging.getLogger("zzv").addHandler(caplog.handler)
    try:
        with TestClient(app) as client:
            for seed in range(3):
                client.post("/api/games", json={"bots": "hard", "seed": seed})
    finally:
        logging.getLogger("zzv").removeHandler(caplog.handler)
    assert search.budgets, "no hard search ran"
    assert _runner(app).starved == len(search.budgets)
    assert metrics.HARD_STARVED._value.get() - starved_before == len(search.budgets)
    lines = [r for r in caplog.records if "almost no rollouts" in r.getMessage()]
    assert len(lines) == len(search.budgets)
    for record in lines:
        assert record.rollouts == 3  # type: ignore[attr-defined]
        assert record.budget_ms == search.budgets[0]  # type: ignore[attr-defined]
        extra = set(record.__dict__) - set(logging.makeLogRecord({}).__dict__)
        assert extra <= {"rollouts", "budget_ms", "waiting", "in_flight", "message", "asctime"}


def _seed_where_bots_lead() -> int:
    """A public seed whose first trick is led by a bot (with the tests' seed key)."""
    from app.races.record import derive_engine_seed

    settings = make_settings()
    for seed in range(100):
        game = new_game(players=4, seed=derive_engine_seed(seed, settings))
        if game.current_seat != 0 and len(game.legal_actions()) > 1:
            return seed
    raise AssertionError("no seed with a bot leading")


def _client_from_header(app: Any) -> Any:
    """``app`` seeing each request as coming from the address in its ``X-Test-Client``
    header: several clients through one in-process test client (one lifespan)."""

    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"x-test-client":
                    scope = {**scope, "client": (value.decode(), 1)}
        await app(scope, receive, send)

    return wrapped


def test_a_refused_creation_never_runs_a_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    search = HeldSearch()
    seed = _seed_where_bots_lead()
    body = {"players": 4, "bots": "hard", "seed": seed}
    # A store of two races: each client may hold one (half of it), two clients fill it.
    full = _hard_app(search, max_games=2, max_games_per_client=20, evict_min_idle_seconds=1e6)
    with TestClient(_client_from_header(full)) as client:
        first, second, third = ({"X-Test-Client": f"10.0.0.{n}"} for n in (1, 2, 3))
        assert client.post("/api/games", json=body, headers=first).status_code == 201
        assert search.budgets, "with room, this race starts with a bot searching"
        assert client.post("/api/games", json=body, headers=second).status_code == 201
        searched = len(search.budgets)
        refused = client.post("/api/games", json=body, headers=third)
        assert refused.status_code == 503 and refused.json()["code"] == "server_full"
        web = client.post("/games", data={"bots": "hard"}, headers=third)
        assert web.status_code == 503  # web too
        capped = client.post("/api/games", json=body, headers=first)
        assert capped.status_code == 429 and capped.json()["code"] == "too_many_games"
        assert len(search.budgets) == searched  # the store said no before any bot thought

    limited = _hard_app(
        search, rate_limit_enabled=True, create_burst=1, create_rate_per_minute=0.01
    )
    with TestClient(limited) as client:
        assert client.post("/api/games", json=body).status_code == 201
        searched = len(search.budgets)
        assert client.post("/api/games", json=body).status_code == 429
        assert len(search.budgets) == searched


# ---------------------------------------------------------------- the real worker processes


def _kill_one_worker() -> None:
    pool = bot_pool.get_pool(bot_pool.status().workers)  # the running pool, as it is
    os.kill(pool.submit(os.getpid).result(timeout=HANG_GUARD_SECONDS), signal.SIGKILL)
    wait_until(
        lambda: bot_pool.status().state == "broken",
        "the pool noticing its dead worker",
        HANG_GUARD_SECONDS,
    )


Searched = list[tuple[int | None, bool]]


def _recording_search(searched: Searched) -> Any:
    """The real search, noting each one's rollouts and whether it went wide."""

    async def search(request: SearchRequest) -> SearchResult:
        result = await bot_runner.search_in_pool(request)
        searched.append((result[1], request.wide))
        return result

    return search


def _tune_up(client: TestClient, race: dict[str, Any]) -> dict[str, Any]:
    """Play a Tune Up (it cannot end the race, so the bots must answer); the new race."""
    state = race["state"]
    action = next(a for a in state["legal_actions"] if a["type"] == "tune_up")
    moved = client.post(
        f"/api/games/{race['game_id']}/actions",
        json={"turn": state["turn"], "action": action},
        headers=bearer(race["token"]),
    )
    assert moved.status_code == 200, moved.text
    return {**race, "state": moved.json()}


def test_a_dead_worker_is_replaced_and_the_next_hard_move_is_searched(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, pool_stopped: None
) -> None:
    searched: Searched = []
    app = _hard_app(_recording_search(searched), bot_time_budget_ms=SEARCH_MS)
    logging.getLogger("zzv").addHandler(caplog.handler)
    try:
        with TestClient(app) as client:
            race = client.post("/api/games", json={"players": 4, "bots": "hard", "seed": 7})
            race = _tune_up(client, race.json())
            replaced = bot_pool.status().replaced
            _kill_one_worker()
            searched.clear()
            _tune_up(client, race)
    finally:
        logging.getLogger("zzv").removeHandler(caplog.handler)
    assert searched and all(count is not None for count, _ in searched), searched
    assert any(count for count, _ in searched), searched  # searched, not a fallback
    assert bot_pool.status().replaced == replaced + 1
    assert not [r for r in caplog.records if "fallback" in r.getMessage()]


def test_an_idle_server_spreads_a_search_over_every_worker(
    monkeypatch: pytest.MonkeyPatch, pool_stopped: None
) -> None:
    searched: Searched = []
    app = _hard_app(_recording_search(searched), bot_time_budget_ms=SEARCH_MS)
    bot_pool.get_pool(2)
    wait_until(lambda: bot_pool.warmed(2), "the worker processes starting", HANG_GUARD_SECONDS)
    with TestClient(app) as client:
        race = client.post("/api/games", json={"players": 4, "bots": "hard", "seed": 7})
        _tune_up(client, race.json())
    assert searched and all(wide for _, wide in searched)  # one race: nobody else waits
    assert any(count for count, _ in searched), searched


def test_a_search_hit_by_a_dying_worker_is_retried_on_a_fresh_pool(
    monkeypatch: pytest.MonkeyPatch, pool_stopped: None
) -> None:
    broken = bot_pool.get_pool(2)
    assert broken.submit(os.getpid).result(timeout=HANG_GUARD_SECONDS) > 0
    _kill_one_worker()
    real_get_pool = bot_pool.get_pool
    handed: list[Any] = []

    def get_pool(workers: int) -> Any:
        # The first ask gets the broken pool, as a search racing the worker's death would.
        pool = broken if not handed else real_get_pool(workers)
        handed.append(pool)
        return pool

    monkeypatch.setattr(bot_pool, "get_pool", get_pool)
    game = new_game(players=4, seed=3)
    view = game.view(game.current_seat or 0)
    action, rollouts = asyncio.run(
        bot_runner.search_in_pool(SearchRequest(view, 1, SEARCH_MS, 2, False))
    )
    assert handed[0] is broken and handed[1] is not broken
    assert rollouts is not None and rollouts > 0
    assert action in [a.to_dict() for a in view.legal_actions()]


def test_readyz_reports_the_pool_and_replaces_a_broken_one(pool_stopped: None) -> None:
    with TestClient(_hard_app()) as client:
        idle = client.get("/readyz")
        assert idle.status_code == 200
        assert idle.json()["bots"]["pool"] == "idle"
        assert idle.json()["bots"]["cap"] == CAP
        pool = bot_pool.get_pool(2)
        assert pool.submit(os.getpid).result(timeout=HANG_GUARD_SECONDS) > 0
        assert client.get("/readyz").json()["bots"]["pool"] == "ready"
        replaced = bot_pool.status().replaced
        _kill_one_worker()
        ready = client.get("/readyz")
        assert ready.status_code == 200
        bots = ready.json()["bots"]
        assert bots["pool"] == "ready" and bots["replaced"] == replaced + 1
        assert bot_pool.get_pool(2) is not pool
