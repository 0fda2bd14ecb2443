"""The application factory: wires settings, store, routers, middlewares and the sweep task.

``create_app(Settings(...))`` builds an isolated app (tests use this); the module-level
``app`` is what ``uvicorn app.main:app`` and ``zzv serve`` run.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import APIRouter, FastAPI
from fastapi.responses import JSONResponse
from starlette.middleware.gzip import GZipMiddleware

from app import docs
from app.api import routes as api
from app.api.models import Health, Readiness
from app.assets import static_app
from app.bot_runner import RUNNER
from app.deps import StoreDep
from app.errors import install_error_handlers
from app.live import LiveHub, RedisLiveHub, StreamGate
from app.logging import AccessLogMiddleware, configure_logging
from app.metrics import install_metrics
from app.paths import STATIC_DIR
from app.security import (
    BodySizeLimitMiddleware,
    CsrfMiddleware,
    RateLimiter,
    RateLimitMiddleware,
    SecurityHeadersMiddleware,
)
from app.sessions import GameSession, SessionStore
from app.settings import Settings, get_settings
from app.store import MemoryStore
from app.web import friends
from app.web import routes as web

log = logging.getLogger("zzv.app")

GZIP_MINIMUM_BYTES = 500
"""Smaller answers are sent as they are: compressing them would save next to nothing."""

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


async def _sweep_forever(store: SessionStore, interval: float) -> None:
    """Drop expired games every ``interval`` seconds."""
    while True:
        await asyncio.sleep(interval)
        try:
            dropped = store.sweep()
        except Exception:  # the sweep must outlive any one failure
            log.exception("sweep failed")
            continue
        if dropped:
            log.info("swept expired games", extra={"dropped": dropped, "games": len(store)})


def _stop_bot_workers() -> None:
    """Stop the hard bots' worker processes, if any were started.

    Uvicorn re-raises SIGTERM after a graceful shutdown, so exit hooks never run and the
    pool's processes would outlive the server.
    """
    from engine.bots.search import shutdown_workers

    shutdown_workers()


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Run the live hub and the expiry sweep while the app serves; stop them and the bot
    workers after."""
    settings: Settings = app.state.settings
    store: SessionStore = app.state.store
    hub: LiveHub = app.state.hub
    await hub.start()
    sweeper = asyncio.create_task(
        _sweep_forever(store, settings.sweep_interval_seconds), name="zzv-sweep"
    )
    log.info("started", extra={"max_games": settings.max_games})
    try:
        yield
    finally:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        log.info("shutting down", extra={"games_in_memory": len(store)})
        await hub.stop()
        await asyncio.to_thread(_stop_bot_workers)


ops_router = APIRouter()
"""Operations: the liveness probe (the API's documentation pages are :mod:`app.docs`)."""


@ops_router.get("/healthz", response_model=Health, tags=["ops"], summary="Liveness")
async def healthz(store: StoreDep) -> JSONResponse:
    """Answers 200 while the server runs (Docker's HEALTHCHECK)."""
    return JSONResponse({"status": "ok", "games": len(store)})


@ops_router.get("/readyz", response_model=Readiness, tags=["ops"], summary="Readiness")
async def readyz(store: StoreDep) -> JSONResponse:
    """Answers 200 while the server can take races; reports the hard bots' worker pool.

    A pool broken by a worker that died is replaced here (or on the next hard move).
    """
    bots = RUNNER.readiness()
    return JSONResponse({"status": "ready", "games": len(store), "bots": bots})


def create_app(settings: Settings | None = None, store: SessionStore | None = None) -> FastAPI:
    """Build the app from ``settings`` (default: environment) and ``store`` (default: memory)."""
    settings = settings or get_settings()
    configure_logging(settings)
    if store is None:
        store = MemoryStore[GameSession](
            max_games=settings.max_games,
            idle_expiry_seconds=settings.idle_expiry_seconds,
            evict_min_idle_seconds=settings.evict_min_idle_seconds,
            expired_memory=settings.expired_memory,
        )
    RUNNER.configure(settings)  # one bot runner per process, like the worker pool
    hub = RedisLiveHub(settings.redis_url) if settings.redis_url else LiveHub()
    app = FastAPI(
        title="Zoom Zoom Vroom online",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=_lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.limiter = RateLimiter(settings)
    app.state.hub = hub
    app.state.stream_gate = StreamGate(settings.max_streams_per_client)
    install_error_handlers(app)

    app.include_router(api.router)
    app.include_router(friends.router)
    app.include_router(web.router)
    app.include_router(ops_router)
    app.include_router(docs.router)
    app.mount("/static", static_app(STATIC_DIR), name="static")

    # Added innermost first: the access log sees every answer, headers go on every answer.
    app.add_middleware(RateLimitMiddleware, limiter=app.state.limiter)
    app.add_middleware(CsrfMiddleware, settings=settings)
    app.add_middleware(BodySizeLimitMiddleware, settings=settings)
    app.add_middleware(SecurityHeadersMiddleware, settings=settings)
    app.add_middleware(AccessLogMiddleware, settings=settings)
    # Outermost: every text answer is compressed, errors too (event streams never are).
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=6)
    if settings.metrics:
        app.state.metrics_registry = install_metrics(app, lambda: len(store))
    return app


app = create_app()
"""The app served by ``uvicorn app.main:app``."""
