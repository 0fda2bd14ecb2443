"""Shared fixtures: in-process apps on a movable clock, real uvicorn servers on loopback
ports, and the Chromium to drive.

Servers are started as subprocesses exactly as a person would start them, so tests that
use them exercise the real ASGI server, lifespan, signal handling and logging. Every
server binds 127.0.0.1 only and is stopped (SIGTERM, then SIGKILL) when its fixture ends.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import hypothesis
import pytest
from app_kit import make_settings, wait_until
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pg_kit import PostgresServer, start_postgres
from playwright.sync_api import Browser, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError
from property_kit import SLOW_PROFILE, use_full_counts
from store_kit import (
    STORE_KINDS,
    ManualClock,
    RedisServer,
    StoreKind,
    StoreProbe,
    make_store,
    start_redis,
)

from app.main import create_app
from app.races.operations import SessionStore
from app.races.record import DERIVED
from app.settings import Settings
from bench.server import find_free_port, uvicorn_command

REPO_ROOT = Path(__file__).resolve().parent.parent
"""The project checkout the tests run against."""

STARTUP_TIMEOUT_SECONDS = 60.0
"""Generous because CI shares two cores between two xdist workers and their servers."""

STOP_TIMEOUT_SECONDS = 20.0
"""Longer than the server's graceful-shutdown window, so a clean stop is never cut short."""

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium")
"""Where Debian (and, failing that, Ubuntu) put Chromium."""

CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
"""Launch arguments every Playwright test passes to Chromium (headless in a container)."""

RESULTS_BACKENDS = ("sqlite", "postgresql")
"""The databases the results store's tests run on, with the same expectations."""


@pytest.fixture(autouse=True)
def _fresh_derived_races() -> None:
    """Each test starts with an empty cache of derived races: a test may stand a set-up
    game in for a stored race's (:class:`app.races.record.DerivedCache` keeps a saved
    race's game as it is), and another test's race of the same id must not meet it."""
    DERIVED.clear()


# It changes nothing by itself: property_kit.examples reads which profile was asked for.
hypothesis.settings.register_profile(SLOW_PROFILE)


def pytest_configure(config: pytest.Config) -> None:
    """Point the user's data folder (where the default store keeps its race file when
    ZZV_DATA_DIR is unset) at a temporary folder, for this process and every server it
    starts, so no test writes into the real one; and in the slow sweeps (or under
    ``--hypothesis-profile=slow``) give the property tests their full example counts."""
    folder = tempfile.mkdtemp(prefix="zzv-test-data-")
    os.environ["XDG_DATA_HOME"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    config.pluginmanager.register(ChromiumCloser(), "zzv-chromium-closer")
    if _selects_slow(config) or config.getoption("hypothesis_profile") == SLOW_PROFILE:
        use_full_counts()


def _selects_slow(config: pytest.Config) -> bool:
    """Whether ``-m`` asks for the slow sweeps (the README's ``-m slow``)."""
    expression = str(config.getoption("markexpr") or "")
    return "slow" in expression and "not slow" not in expression


SIZES_OF_EVERY_RUN = frozenset({"390x844", "1280x800"})
"""The screen sizes every run checks (one phone, one desktop). A browser test's cases at
other sizes are the size sweep, marked ``slow`` (the README's slow sweeps, which CI runs
too)."""

_SIZE = re.compile(r"\b(\d{3,4}x\d{3,4})\b")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``slow`` each parametrized case whose id names only screen sizes outside
    :data:`SIZES_OF_EVERY_RUN`; in the slow sweeps, the property tests too (they run in
    both: with a share of their examples in every run, all of them in the sweeps)."""
    sweep_properties = _selects_slow(config)
    for item in items:
        if sweep_properties and getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.slow)
        spec = getattr(item, "callspec", None)
        sizes = set(_SIZE.findall(spec.id)) if spec is not None else set()
        if sizes and not sizes & SIZES_OF_EVERY_RUN:
            item.add_marker(pytest.mark.slow)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Keep conftest files out of ``--doctest-modules`` collection.

    Pytest still loads them as conftests; without this it would also import each one as a
    plain module named ``conftest`` to look for doctests, which fails with "import file
    mismatch" as soon as two test folders have their own conftest.py.
    """
    if collection_path.name == "conftest.py":
        return True
    return None


@pytest.fixture
def clock() -> ManualClock:
    """The clock of :func:`store`: time moves only when a test says so."""
    return ManualClock()


@pytest.fixture(params=STORE_KINDS)
def store_kind(request: pytest.FixtureRequest) -> StoreKind:
    """Which store the in-process :func:`app` keeps its races in: every test using it runs
    once per kind (memory, and a real Redis) with the same expectations."""
    kind: StoreKind = request.param
    return kind


@pytest.fixture
def redis(store_kind: StoreKind, request: pytest.FixtureRequest) -> RedisServer | None:
    """The emptied redis-server behind a Redis-backed :func:`app`, else None."""
    if store_kind == "memory":
        return None
    server: RedisServer = request.getfixturevalue("fresh_redis")
    return server


@pytest.fixture
def settings(redis: RedisServer | None) -> Settings:
    """Settings of the in-process :func:`app`: limits lifted, no access log."""
    return make_settings(idle_expiry_seconds=600, redis_url=redis.url if redis else None)


AppFactory = Callable[..., FastAPI]


@pytest.fixture
def app_with(store_kind: StoreKind, redis: RedisServer | None, clock: ManualClock) -> AppFactory:
    """Builds an in-process app on a fresh store of :func:`store_kind` on :func:`clock`:
    ``app_with(**settings)`` (as :func:`app_kit.make_settings`; the store follows them)."""

    def build(**overrides: Any) -> FastAPI:
        settings = make_settings(**overrides, redis_url=redis.url if redis else None)
        store = make_store(store_kind, redis, clock=clock, **store_bounds(settings))
        return create_app(settings, store=store)

    return build


def store_bounds(settings: Settings) -> dict[str, Any]:
    """The store constructor's bounds taken from ``settings``."""
    return {
        "max_games": settings.max_games,
        "idle_expiry_seconds": settings.idle_expiry_seconds,
        "evict_min_idle_seconds": settings.evict_min_idle_seconds,
        "max_games_per_client": settings.max_games_per_client,
        "max_games_per_address": settings.max_games_per_address,
    }


@pytest.fixture
def game_store(
    store_kind: StoreKind, redis: RedisServer | None, settings: Settings, clock: ManualClock
) -> SessionStore:
    """The in-process app's game store, on :func:`clock`."""
    return make_store(store_kind, redis, clock=clock, **store_bounds(settings))


@pytest.fixture
def app(settings: Settings, game_store: SessionStore) -> FastAPI:
    """A fresh in-process app with its own store."""
    return create_app(settings, store=game_store)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """An httpx-based client talking to :func:`app` in process (lifespan included).

    Redirects are not followed, so tests see the web forms' 303s.
    """
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client


@pytest.fixture
def store(game_store: SessionStore, client: TestClient) -> StoreProbe:
    """White-box access to the in-process app's stored races (tests check that a refused
    move changed nothing, or set up a position)."""
    return StoreProbe(game_store, client)


@dataclass
class ServerProcess:
    """A server subprocess and the file that collects its stdout and stderr."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path
    log_file: IO[bytes] | None = field(repr=False, default=None)

    def log(self) -> str:
        """Everything the server printed so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self, timeout: float = STOP_TIMEOUT_SECONDS) -> int:
        """Ask the server to shut down gracefully (SIGTERM) and return its exit status.

        Falls back to SIGKILL if it has not exited within ``timeout`` seconds; the status
        is then negative, which callers checking for a clean stop will notice.
        """
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=timeout)
        if self.log_file is not None:
            self.log_file.close()
        return self.process.returncode


def wait_until_healthy(server: ServerProcess, timeout: float = STARTUP_TIMEOUT_SECONDS) -> None:
    """Block until ``GET /healthz`` answers 200; fail the test with the server log if not."""
    last_error = ["no attempt made"]

    def healthy() -> bool:
        if server.process.poll() is not None:
            pytest.fail(
                f"server exited with status {server.process.returncode} before it was "
                f"healthy; its output:\n{server.log()}"
            )
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return True
                last_error[0] = f"status {response.status}"
        except (urllib.error.URLError, OSError) as error:
            last_error[0] = repr(error)
        return False

    try:
        wait_until(healthy, "healthy", timeout)
    except AssertionError:
        server.stop()
        pytest.fail(
            f"server at {server.url} not healthy after {timeout:.0f}s ({last_error[0]}); "
            f"its output:\n{server.log()}"
        )


def start_server(
    command: Sequence[str],
    *,
    port: int,
    log_path: Path,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO_ROOT,
    inherit_env: bool = True,
) -> ServerProcess:
    """Start ``command`` (which must listen on 127.0.0.1:``port``) and wait until healthy.

    ``env`` is layered over this process's environment (or replaces it when
    ``inherit_env`` is false); output goes to ``log_path``. Unless ``env`` sets
    ``ZZV_DATA_DIR``, the server's user data folder is a new one beside ``log_path``.
    """
    base_env = dict(os.environ) if inherit_env else {}
    full_env = {**base_env, "PYTHONUNBUFFERED": "1", **(env or {})}
    if "ZZV_DATA_DIR" not in full_env:
        # A race file of its own (the default store's), as a fresh install would have.
        full_env["XDG_DATA_HOME"] = str(log_path.with_suffix(".data"))
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_file = log_path.open("wb")
    process = subprocess.Popen(
        list(command),
        cwd=cwd,
        env=full_env,
        stdin=subprocess.DEVNULL,
        stdout=log_file,
        stderr=subprocess.STDOUT,
    )
    server = ServerProcess(
        url=f"http://127.0.0.1:{port}", process=process, log_path=log_path, log_file=log_file
    )
    wait_until_healthy(server)
    return server


@pytest.fixture(scope="session")
def server_command() -> Callable[..., list[str]]:
    """The builder ``uvicorn_command(port, *options)`` of a uvicorn serving this checkout.

    A fixture because tests cannot import this conftest as a module.
    """
    return uvicorn_command


@pytest.fixture(scope="session")
def live_server_env() -> dict[str, str]:
    """Environment overrides for :func:`live_server`; override this fixture to change them.

    Browser and API tests fire requests far faster than a person, so the per-client rate
    limits are lifted; dedicated tests cover rate limiting with their own servers. The
    seed key is fixed, so a seed deals the same cards in every test session.
    """
    return {
        "ZZV_SEED_SECRET": "live-server-tests",
        "ZZV_RATE_LIMIT_ENABLED": "false",
        "ZZV_MAX_GAMES_PER_CLIENT": "100000",
        "ZZV_ACCESS_LOG": "false",
    }


@pytest.fixture(scope="session")
def live_server(
    tmp_path_factory: pytest.TempPathFactory, live_server_env: dict[str, str]
) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:<port>``, no trailing slash) of a real uvicorn server.

    One per test session (per xdist worker), shared by every test that asks for it, so
    tests must create their own games rather than rely on server state.
    """
    port = find_free_port()
    log_path = tmp_path_factory.mktemp("live_server") / "server.log"
    command = uvicorn_command(port, "--workers", "1", "--timeout-graceful-shutdown", "5")
    server = start_server(command, port=port, log_path=log_path, env=live_server_env)
    try:
        yield server.url
    finally:
        server.stop()


ServerLauncher = Callable[..., ServerProcess]


@pytest.fixture
def launch_server(tmp_path: Path) -> Iterator[ServerLauncher]:
    """Factory for extra servers with their own command/env; all are stopped at teardown.

    Call it as ``launch_server(command, port=port, env={...}, cwd=path, inherit_env=True)``;
    the returned
    :class:`ServerProcess` has ``url``, ``log()`` and ``stop()``.
    """
    yield from _launcher(tmp_path)


@pytest.fixture(scope="module")
def launch_module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerLauncher]:
    """:func:`launch_server` for a server shared by a module's tests (stopped after them)."""
    yield from _launcher(tmp_path_factory.mktemp("module_server"))


def _launcher(tmp_path: Path) -> Iterator[ServerLauncher]:
    started: list[ServerProcess] = []

    def launch(
        command: Sequence[str],
        *,
        port: int,
        env: Mapping[str, str] | None = None,
        cwd: Path = REPO_ROOT,
        inherit_env: bool = True,
    ) -> ServerProcess:
        log_path = tmp_path / f"server-{len(started)}.log"
        server = start_server(
            command, port=port, log_path=log_path, env=env, cwd=cwd, inherit_env=inherit_env
        )
        started.append(server)
        return server

    yield launch
    for server in started:
        server.stop()


@pytest.fixture
def open_http() -> Iterator[Callable[[str], httpx.Client]]:
    """``open_http(base_url)``: an httpx client on a real server (10 s timeout), closed
    with its connections when the test ends."""
    with contextlib.ExitStack() as clients:

        def open_client(base_url: str) -> httpx.Client:
            return clients.enter_context(httpx.Client(base_url=base_url, timeout=10))

        yield open_client


@pytest.fixture
def free_port() -> int:
    """A currently unused TCP port on 127.0.0.1."""
    return find_free_port()


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of the system Chromium that Playwright must launch (never a downloaded one).

    ``ZZV_TEST_CHROMIUM`` overrides the search. A missing browser fails the test instead
    of skipping it: the browser tests are part of the suite, not optional extras.
    """
    override = os.environ.get("ZZV_TEST_CHROMIUM")
    candidates = [override] if override else [*CHROMIUM_CANDIDATES, shutil.which("chromium")]
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail(
        "Chromium not found (looked at "
        + ", ".join(c for c in candidates if c)
        + "): install it with `sudo apt-get install -y chromium` or set ZZV_TEST_CHROMIUM."
    )


@pytest.fixture(scope="session")
def chromium_args() -> list[str]:
    """Chromium command-line flags for ``playwright.chromium.launch(args=...)``."""
    return list(CHROMIUM_ARGS)


class RunningChromium:
    """The Chromium the browser tests share, launched on demand and kept running from one
    browser test to the next, across modules: a launch (Playwright's driver and the
    browser) costs seconds, a context milliseconds.

    While Playwright runs, its event loop counts as running in this thread, so
    ``asyncio.run`` would fail there: :class:`ChromiumCloser` closes it before any
    test (and its fixtures) that does not ask for :func:`browser`.
    """

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None

    def get(self, path: str, args: list[str]) -> Browser:
        """The running browser, launched first if none is."""
        if self._browser is None or not self._browser.is_connected():
            self.close()
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(executable_path=path, args=args)
        return self._browser

    def close(self) -> None:
        """Close the browser and stop Playwright, if they run."""
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        if browser is not None:
            with contextlib.suppress(PlaywrightError):
                browser.close()
        if playwright is not None:
            playwright.stop()


_CHROMIUM = RunningChromium()


class ChromiumCloser:
    """A plugin, registered for the whole run (a conftest's own hooks reach only the
    tests below it, not the doctests of ``app`` and ``engine``): it closes the shared
    Chromium before any item that does not use it (see :class:`RunningChromium`)."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        """Close the shared Chromium unless ``item`` asks for :func:`browser`."""
        if "browser" not in getattr(item, "fixturenames", ()):
            _CHROMIUM.close()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Close the shared Chromium at the end of the run."""
    _CHROMIUM.close()


@pytest.fixture
def browser(chromium_path: str, chromium_args: list[str]) -> Iterator[Browser]:
    """Debian's Chromium through Playwright (never a downloaded browser), shared with the
    browser tests before and after this one (:class:`RunningChromium`). Each test opens
    its own contexts (no cookies, storage or cache shared); any it leaves open are closed
    after it."""
    launched = _CHROMIUM.get(chromium_path, chromium_args)
    yield launched
    for context in list(launched.contexts):
        context.close()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A real ``redis-server`` (Debian's) on a free loopback port with its own directory,
    one per test session (per xdist worker); tests empty it with ``flush()``."""
    server = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def module_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A redis-server of a module's own, for a server the module's tests share: the
    session's :func:`redis_server` is emptied by other tests' :func:`fresh_redis`, which
    would wipe a running server's keys under it."""
    server = start_redis(tmp_path_factory.mktemp("module_redis"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def fresh_redis(redis_server: RedisServer) -> RedisServer:
    """The session's redis-server, emptied for this test."""
    redis_server.flush()
    return redis_server


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL (Debian's) on a free loopback port, one per test session (per
    xdist worker); each test takes a fresh database from it (``new_database()``)."""
    try:
        server = start_postgres()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=RESULTS_BACKENDS)
def results_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty results database's URL, once on SQLite (a file) and once on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'results.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()
