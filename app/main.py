"""The application factory (``create_app``): settings, stores, routers, middlewares, sweep."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.middleware import Middleware
from fastapi.responses import JSONResponse
from prometheus_client import CollectorRegistry, Gauge
from prometheus_fastapi_instrumentator import Instrumentator
from prometheus_fastapi_instrumentator import metrics as http_metrics
from pydantic import SecretStr

from app.backup import build_store
from app.bots import pool as bot_pool
from app.bots.runner import BotRunner
from app.http import docs
from app.http.api import daily as api_daily
from app.http.api import results as api_results
from app.http.api import review as api_review
from app.http.api import routes as api
from app.http.api import seat_action as api_seat_action
from app.http.api.models import Health, Readiness
from app.http.asgi import HeadAsGetMiddleware
from app.http.assets import StaticAssets
from app.http.compression import GzipAnswers
from app.http.deps import StoreDep
from app.http.errors import install_error_handlers
from app.http.i18n import LanguageMiddleware
from app.http.logging import AccessLogMiddleware, configure_logging
from app.http.security import (
    BodySizeLimitMiddleware,
    CancelledAs503Middleware,
    CsrfMiddleware,
    RateLimiter,
    RateLimitMiddleware,
    SecurityHeadersMiddleware,
    TalkPace,
    TrustedHostsMiddleware,
)
from app.http.web import daily as web_daily
from app.http.web import fair as web_fair
from app.http.web import friends, language, learn, site
from app.http.web import results as web_results
from app.http.web import review as web_review
from app.http.web import routes as web
from app.live.hub import CHANNEL_PREFIX, LiveHub, RedisLiveHub, RedisStreamGate, StreamGate
from app.metrics import BOT_POOL_REPLACED, PROCESS_METRICS
from app.paths import STATIC_DIR
from app.races.operations import SessionStore
from app.races.unit import Publish, Races, end_idle_races
from app.results.database import results_url
from app.results.store import SEED_KEY, ResultsStore
from app.settings import Settings, get_settings
from app.storage.interface import StoreUnavailable
from app.storage.sqlite import MemoryStore

log = logging.getLogger("zzv.app")

GZIP_MINIMUM_BYTES = 500
"""Smaller answers are sent as they are: compressing them would save next to nothing."""

GZIP_LEVEL = 3
"""zlib's level without ISA-L: a seventh larger than level 6, half the CPU (docs/benchmarks.md)."""

ReadinessCheck = Callable[[FastAPI], Awaitable[tuple[bool, Any]]]
"""A readiness check of the app: ``(ready, detail)``."""

DESCRIPTION = """
Play Zoom Zoom Vroom against bots, and with friends, over HTTP. You sit at seat 0.

1. `POST /api/games` → keep `game_id` and `token`.
2. Send `Authorization: Bearer <token>` on every other call.
3. `POST /api/games/{game_id}/actions` with `{"turn": state.turn, "action": <one of
   state.legal_actions>}` until `state.game_over`.

Race with friends: create with `"humans": k`, send each friend one of `invites`; they
`POST /api/games/{game_id}/join` with its `code` and get their own `token`. Follow your
seat live with `GET /api/games/{game_id}/events` (Server-Sent Events) instead of polling;
a person who does not move within `ZZV_TURN_SECONDS` gets one move from the autopilot.

Errors are JSON `{"code", "message"}`. Moves and new races are rate-limited per client.
"""


async def _sweep_forever(app: FastAPI, store: SessionStore, interval: float) -> None:
    """Every ``interval`` s end abandoned races, drop expired ones, count the rest
    (``app.state.races_counted``)."""
    while True:
        await asyncio.sleep(interval)
        try:
            left = await end_idle_races(app.state.races)
            if left:
                log.info("ended races their people left", extra={"left": left})
            dropped = await store.sweep()
            app.state.races_counted = await store.count()
            if dropped:
                log.info("swept expired games", extra={"dropped": dropped})
        except StoreUnavailable:
            log.warning("sweep skipped: game store unavailable")
        except Exception:  # the sweep must outlive any one failure
            log.exception("sweep failed")


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the stores and run the hub, the sweep and the recorder while the app serves."""
    settings: Settings = app.state.settings
    store: SessionStore = app.state.store
    hub: LiveHub = app.state.hub
    results: ResultsStore = app.state.results
    await results.open()
    if "seed_secret" not in settings.model_fields_set:
        # Unset, the seed key is the results database's: every worker and replica on it,
        # and the server after a restart, deal the same cards for a seed and read the page
        # memory the others signed. The races and the pages read the settings carrying it.
        key = await results.server_key(SEED_KEY)
        settings = settings.model_copy(update={"seed_secret": SecretStr(key.hex())})
    app.state.settings = app.state.races.settings = settings
    await store.open()
    recorder = app.state.races.recorder
    if recorder is not None:
        recorder.start()
    await hub.start()
    sweeper = asyncio.create_task(
        _sweep_forever(app, store, settings.sweep_interval_seconds), name="zzv-sweep"
    )
    log.info("started", extra={"max_games": settings.max_games})
    try:
        yield
    finally:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        log.info("shutting down", extra={"games": await _count_games(store)})
        await hub.stop()
        await app.state.stream_gate.stop()
        reviews = getattr(app.state, "reviews", None)  # made on first use (app.http.api.review)
        if reviews is not None:
            await reviews.stop()
        await app.state.limiter.close()
        if recorder is not None:
            await recorder.stop()
        await store.close()
        await results.close()
        # Uvicorn re-raises SIGTERM after a graceful stop: no exit hook would stop them.
        await asyncio.to_thread(bot_pool.shutdown_workers)


ops_router = APIRouter()
"""Operations: the liveness probe (the API's documentation pages are :mod:`app.http.docs`)."""


@ops_router.get("/healthz", response_model=Health, tags=["ops"], summary="Liveness")
async def healthz(store: StoreDep) -> JSONResponse:
    """Answers 200 while the server runs (Docker's HEALTHCHECK), even when the store is
    down (``games`` is then null): restarting this process would not help."""
    return JSONResponse({"status": "ok", "games": await _count_games(store)})


@ops_router.get(
    "/readyz",
    response_model=Readiness,
    tags=["ops"],
    summary="Readiness",
    responses={503: {"model": Readiness, "description": "A check failed."}},
)
async def readyz(request: Request) -> JSONResponse:
    """200 when every readiness check passes (the game store is reachable; the hard bots'
    worker pool is reported, and a broken one replaced here), else 503: load balancers
    send no players here meanwhile.

    The checks are ``app.state.readiness_checks``: name -> async ``check(app)`` returning
    ``(ready, detail)``; each detail is reported under its check's name.
    """
    checks: dict[str, ReadinessCheck] = request.app.state.readiness_checks
    found = {name: await check(request.app) for name, check in checks.items()}
    ready = all(ok for ok, _ in found.values())
    body: dict[str, Any] = {"status": "ready" if ready else "unavailable"}
    body |= {name: detail for name, (_, detail) in found.items()}
    body["games"] = await _count_games(request.app.state.store)
    return JSONResponse(body, status_code=200 if ready else 503)


async def _reachable(ping: Awaitable[None], down: type[Exception]) -> tuple[bool, str]:
    try:
        await ping
    except down:
        return False, "unreachable"
    return True, "ok"


async def _bots_ready(app: FastAPI) -> tuple[bool, Any]:
    """Always ready: a broken pool is replaced on the spot."""
    return True, app.state.runner.readiness()


READINESS_CHECKS: dict[str, ReadinessCheck] = {
    "store": lambda app: _reachable(app.state.store.ping(), StoreUnavailable),
    # Any driver's failure to connect means the same: not ready.
    "results": lambda app: _reachable(app.state.results.ping(), Exception),
    "bots": _bots_ready,
}
"""The app's readiness checks (``/readyz``)."""


async def _count_games(store: SessionStore) -> int | None:
    with contextlib.suppress(StoreUnavailable):
        return await store.count()
    return None


ROUTERS = (
    api.router,
    web.router,
    learn.router,
    friends.router,
    api_seat_action.router,
    api_daily.daily_router,
    api_daily.cup_router,
    web_daily.router,
    web_fair.router,
    language.router,
    api_review.router,
    web_review.router,
    api_results.router,
    web_results.router,
    ops_router,
    docs.router,
    site.router,
)
"""The app's routers in order: each a request passes costs it CPU, so the routes a race uses
most come first; no two share a path, so the order changes no answer."""


def create_app(
    settings: Settings | None = None,
    store: SessionStore | None = None,
    results: ResultsStore | None = None,
) -> FastAPI:
    """The app on ``settings``, ``store`` and ``results`` (default: the environment's)."""
    settings = settings or get_settings()
    configure_logging(settings)
    store, hub, gate, publish = _live_parts(settings, store)
    results = results if results is not None else ResultsStore(results_url(settings))
    limiter = RateLimiter(settings)
    app = FastAPI(
        title="Zoom Zoom Vroom online",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=_lifespan,
        docs_url=None,
        redoc_url=None,
        middleware=[
            # Outermost first: a request the stop cuts off still gets a proper 503; every
            # text answer is compressed, errors too (event streams never are); every answer
            # in the request's language, error pages from the layers below too; the access
            # log sees every answer, headers go on every answer.
            Middleware(CancelledAs503Middleware),
            Middleware(GzipAnswers, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=GZIP_LEVEL),
            Middleware(LanguageMiddleware),
            Middleware(AccessLogMiddleware, settings=settings),
            Middleware(SecurityHeadersMiddleware, settings=settings),
            Middleware(TrustedHostsMiddleware, settings=settings),
            Middleware(
                BodySizeLimitMiddleware,
                settings=settings,
                larger={("POST", "/fair"): web_fair.RECORD_MAX_BYTES},
            ),
            Middleware(CsrfMiddleware, settings=settings),
            Middleware(RateLimitMiddleware, limiter=limiter),
            Middleware(HeadAsGetMiddleware),
        ],
    )
    app.state.settings = settings
    app.state.store = store
    app.state.runner = BotRunner(settings)
    app.state.results = results
    app.state.races = Races(store, settings, app.state.runner, publish=publish, results=results)
    app.state.limiter = limiter
    app.state.talk_pace = TalkPace(limiter.storage)
    app.state.hub = hub
    app.state.stream_gate = gate
    app.state.readiness_checks = dict(READINESS_CHECKS)
    app.state.save_now = getattr(store, "checkpoint", None)  # run as `zzv serve` stops
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticAssets(directory=STATIC_DIR, check_dir=False), name="static")
    if settings.metrics:
        install_metrics(app, store)
    return app


def _live_parts(
    settings: Settings, store: SessionStore | None
) -> tuple[SessionStore, LiveHub, StreamGate, Publish | None]:
    """The races' store, the live hub, the streams' gate, and how the races announce a change
    (None: a Redis store built here announces each save in its own script)."""
    limit = settings.max_streams_per_client
    if settings.redis_url is None:
        hub = LiveHub()
        store = store if store is not None else build_store(settings)
        return store, hub, StreamGate(limit), hub.publish
    url = settings.redis_url.get_secret_value()
    hub = RedisLiveHub(url)
    gate = RedisStreamGate(limit, url, settings.redis_timeout_seconds)
    if store is None:
        return build_store(settings, announce=CHANNEL_PREFIX), hub, gate, None
    return store, hub, gate, hub.publish


# Request latency buckets, in seconds (moves with hard bots reach seconds).
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


def install_metrics(app: FastAPI, store: SessionStore) -> None:
    """Serve ``/metrics``: the game's (:mod:`app.metrics`) and the requests', in a registry of
    ``app``'s own. Labels are closed vocabularies only (never a game id, a token or a card);
    each worker process answers for itself (no multiprocess mode)."""
    registry = CollectorRegistry()
    for metric in PROCESS_METRICS:
        registry.register(metric)
    # The pool sits below the metrics' users; the gauge reads it here, in the layer above.
    BOT_POOL_REPLACED.set_function(lambda: bot_pool.status().replaced)
    live = Gauge("zzv_races_live", "Races held by the store now.", registry=registry)
    # Read at each scrape without I/O: a shared store's count is the sweep's last.
    if isinstance(store, MemoryStore):
        live.set_function(lambda: float(len(store)))
    else:
        app.state.races_counted = 0
        live.set_function(lambda: float(app.state.races_counted))
    instrumentator = Instrumentator(
        should_group_status_codes=False, excluded_handlers=["/metrics"], registry=registry
    )
    # Route templates (``/api/games/{game_id}``) label the requests, never the raw path.
    instrumentator.add(
        http_metrics.latency(buckets=LATENCY_BUCKETS, registry=registry),
        http_metrics.requests(registry=registry),
    )
    instrumentator.instrument(app).expose(app, include_in_schema=False)
