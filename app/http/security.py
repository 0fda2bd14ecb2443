"""Protections every request passes through, as small pure-ASGI middlewares (no
``BaseHTTPMiddleware``: the per-request overhead stays small): security headers, body size,
trusted hosts, CSRF, rate limits (and the pace of a seat's quick messages), and the answer
to a request the server's stop cut off."""

from __future__ import annotations

import asyncio
import logging
import math
import re
import time
from collections.abc import Mapping
from typing import Annotated, Any

from limits import RateLimitItem, RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio import ConnectionPool
from starlette._utils import parse_host_header
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.http.asgi import HttpMiddleware, WatchedSend
from app.http.deps import app_state
from app.http.errors import (
    AppError,
    CrossSiteRequest,
    GameServerUnavailable,
    PayloadTooLarge,
    RateLimited,
    ServerStopping,
    UnknownHost,
    render_error,
)
from app.races.errors import TalkTooFast
from app.settings import Settings
from app.storage.interface import StoreUnavailable

log = logging.getLogger("zzv.app")

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The page policy: only our own files run or style; nothing may frame us."""

_ALWAYS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# The probes: never rate-limited, answered whatever the Host (orchestrators use an IP).
_OPS_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})

# Creating a race, a rematch, joining one and racing strangers share the (slow) creation
# bucket.
_CREATE_PATH = re.compile(
    r"^/(?:api/)?games/?$|/rematch/?$|/join/?$|^/watch/?$|^/(?:api/)?quick/?$"
)


async def _send_error(scope: Scope, receive: Receive, send: Send, error: AppError) -> None:
    response = render_error(Request(scope, receive), error)
    await response(scope, receive, send)


class SecurityHeadersMiddleware(HttpMiddleware):
    """Adds the security headers to every response (a route may set its own CSP), no caching
    of the API, HSTS over https (or when ``settings.secure_cookies`` says the site is)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        super().__init__(app)
        self.force_https = settings.secure_cookies

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        https = self.force_https or scope.get("scheme") == "https"
        api = scope["path"].startswith("/api")

        def add_headers(headers: MutableHeaders) -> None:
            for name, value in _ALWAYS.items():
                headers.setdefault(name, value)
            if api:
                headers.setdefault("Cache-Control", "no-store")
            if https:
                headers.setdefault("Strict-Transport-Security", "max-age=31536000")

        watched = WatchedSend(send, add_headers)
        try:
            await self.app(scope, receive, watched)
        except Exception:
            if watched.status is not None:
                raise
            # Answered here rather than by Starlette's outermost error middleware, so that a
            # crash's generic 500 still carries the headers above.
            log.exception("unhandled error on %s %s", scope.get("method"), scope["path"])
            await _send_error(scope, receive, watched, AppError())


class BodySizeLimitMiddleware(HttpMiddleware):
    """Answers 413 to a request body larger than ``settings.max_body_bytes`` (or the
    ``larger`` cap of its method and path), declared or streamed."""

    def __init__(
        self, app: ASGIApp, settings: Settings, larger: Mapping[tuple[str, str], int] | None = None
    ) -> None:
        super().__init__(app)
        self.limit = settings.max_body_bytes
        self.larger = dict(larger or {})

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.larger.get((scope["method"], scope["path"]), self.limit)
        declared = Headers(scope=scope).get("content-length")
        # A length that is no number is refused as too large.
        if declared is not None and not (declared.strip().isdecimal() and int(declared) <= limit):
            await _send_error(scope, receive, send, PayloadTooLarge())
            return
        received = 0
        rejected = False

        async def counting_receive() -> Message:
            nonlocal received, rejected
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit and not rejected:
                    rejected = True
                    await _send_error(scope, receive, send, PayloadTooLarge())
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if not rejected:  # our 413 already went out; drop the app's answer
                await send(message)

        await self.app(scope, counting_receive, guarded_send)


def host_allowed(host_header: str | None, patterns: tuple[str, ...]) -> bool:
    """Whether a Host header names one of ``patterns`` (Starlette's rules: exact names,
    ``*.example.com`` for subdomains, ``*`` for any)."""
    if "*" in patterns:
        return True
    parsed = parse_host_header(host_header)
    if parsed is None:
        return False
    host = parsed.host.lower()
    return any(
        host == pattern or (pattern.startswith("*") and host.endswith(pattern[1:]))
        for pattern in patterns
    )


class TrustedHostsMiddleware(HttpMiddleware):
    """Refuses (400) a Host that none of ``settings.trusted_hosts`` names, so a DNS-rebinding
    page or a forged Host never gets a page or a link built on its name; the probes answer
    whatever the Host."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        super().__init__(app)
        self.patterns = settings.trusted_hosts

    def applies(self, scope: Scope) -> bool:
        host = Headers(scope=scope).get("host")
        return scope["path"] not in _OPS_PATHS and not host_allowed(host, self.patterns)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        log.info("refused a request for an unknown host", extra={"path": scope["path"]})
        await _send_error(scope, receive, send, UnknownHost())


def same_origin(
    headers: Headers,
    scheme: str,
    extra_origins: tuple[str, ...] = (),
    hosts: tuple[str, ...] = ("*",),
) -> bool:
    """Whether a state-changing request may proceed (CSRF check): ``Sec-Fetch-Site``, else
    ``Origin``; a request with neither came from no browser page, so rides no cookie.
    "Same origin" counts only on an allowed host (``hosts``): under DNS rebinding a foreign
    name resolves to us and the browser calls the page's own requests same-origin.
    """
    site = headers.get("sec-fetch-site")
    origin = headers.get("origin")
    if origin in extra_origins or (site is None and origin is None):
        return True
    host = headers.get("host", "")
    if not host_allowed(host, hosts):
        return False
    if site is not None:
        return site in ("same-origin", "none")
    return origin == f"{scheme}://{host}"


class CsrfMiddleware(HttpMiddleware):
    """Refuses cross-site POST/PUT/PATCH/DELETE with 403 (:func:`same_origin`);
    ``settings.allowed_origins`` are accepted besides our own."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        super().__init__(app)
        self.allowed = tuple(origin.rstrip("/") for origin in settings.allowed_origins)
        self.hosts = settings.trusted_hosts

    def applies(self, scope: Scope) -> bool:
        return scope["method"] in UNSAFE_METHODS

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        scheme = scope.get("scheme", "http")
        if same_origin(Headers(scope=scope), scheme, self.allowed, self.hosts):
            await self.app(scope, receive, send)
        else:
            await _send_error(scope, receive, send, CrossSiteRequest())


def window_limit(rate_per_second: float, burst: int) -> RateLimitItem:
    """``burst`` requests per window of ``burst / rate`` seconds (at least one): over a
    moving window, a burst of ``burst`` at once and ``rate`` per second sustained."""
    seconds = max(1, round(burst / rate_per_second))
    return RateLimitItemPerSecond(burst, seconds)


async def _seconds_left(window: MovingWindowRateLimiter, item: RateLimitItem, key: str) -> int:
    """Until ``key`` may count against ``item`` again (at least 1)."""
    stats = await window.get_window_stats(item, key)
    return max(1, math.ceil(stats.reset_time - time.time()))


class RateLimiter:
    """The app's limits per client address on game creation, moves and reads (not static
    files nor the probes), counted by ``limits``' moving window in memory or in the store's
    Redis (then shared by every worker)."""

    def __init__(self, settings: Settings) -> None:
        self.enabled = settings.rate_limit_enabled
        self.storage: Storage = MemoryStorage()
        # limits' storages have no close: the pool of a Redis one is closed at shutdown.
        self._pool: ConnectionPool | None = None
        if settings.redis_url is not None:
            url, timeout = settings.redis_url.get_secret_value(), settings.redis_timeout_seconds
            self._pool = ConnectionPool.from_url(
                url, socket_timeout=timeout, socket_connect_timeout=timeout
            )
            # limits documents ``connection_pool`` among the options it types narrower.
            options: dict[str, Any] = {"connection_pool": self._pool}
            self.storage = RedisStorage(
                f"async+{url}", implementation="redispy", key_prefix="zzv:limits", **options
            )
        self.window = MovingWindowRateLimiter(self.storage)
        self.create = window_limit(settings.create_rate_per_minute / 60.0, settings.create_burst)
        self.move = window_limit(settings.move_rate_per_second, settings.move_burst)
        self.read = window_limit(settings.read_rate_per_second, settings.read_burst)

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.disconnect()

    def limit_for(self, method: str, path: str) -> RateLimitItem | None:
        """Which limit a request counts against (None: not limited)."""
        if not self.enabled:
            return None
        if method in UNSAFE_METHODS:
            return self.create if _CREATE_PATH.search(path) else self.move
        if path.startswith("/static/") or path in _OPS_PATHS:
            return None
        return self.read


class RateLimitMiddleware(HttpMiddleware):
    """Answers 429 with ``Retry-After`` once a client exceeds a limit (503 if the shared
    counters are unreachable)."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        super().__init__(app)
        self.limiter = limiter

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        item = self.limiter.limit_for(scope["method"], scope["path"])
        client: Any = scope.get("client")
        key, window = client[0] if client else "unknown", self.limiter.window
        refusal: AppError | None = None
        try:
            if item is not None and not await window.hit(item, key):
                refusal = RateLimited(await _seconds_left(window, item, key))
        except Exception:  # the Redis client's errors: connection, timeout, ...
            refusal = GameServerUnavailable()
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await _send_error(scope, receive, send, refusal)


GAP_SECONDS = 2  # between two quick messages of a seat
PER_MINUTE = 15  # one every 4 s, sustained


class TalkPace:
    """How often a seat may send a quick message, counted per race and seat in the storage
    of the app's :class:`RateLimiter`."""

    def __init__(self, storage: Storage) -> None:
        self.window = MovingWindowRateLimiter(storage)
        self.items: tuple[RateLimitItem, ...] = (
            RateLimitItemPerSecond(1, GAP_SECONDS),
            RateLimitItemPerMinute(PER_MINUTE),
        )

    async def check(self, game_id: str, seat: int) -> None:
        """Count one message of ``seat`` in ``game_id``; :class:`TalkTooFast` (counting
        nothing) when it comes too soon. :class:`StoreUnavailable` when Redis is away."""
        key = f"talk:{game_id}:{seat}"
        try:
            for item in self.items:  # test every window first, so a refusal counts nowhere
                if not await self.window.test(item, key):
                    raise TalkTooFast(await _seconds_left(self.window, item, key))
            for item in self.items:
                await self.window.hit(item, key)
        except TalkTooFast:
            raise
        except Exception as exc:  # the Redis client's errors: connection, timeout, ...
            raise StoreUnavailable() from exc


TalkPaceDep = Annotated[TalkPace, app_state("talk_pace")]


class CancelledAs503Middleware(HttpMiddleware):
    """Answers 503 "the server is restarting" to a request cancelled before its answer
    started: uvicorn cancels what is left after a stop's graceful window, and would answer
    its generic 500, so a client knows to send it again (a race's state is what its last
    answered move left, see :mod:`app.storage.saved`)."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        watched = WatchedSend(send)
        try:
            await self.app(scope, receive, watched)
        except asyncio.CancelledError:
            if watched.status is not None:
                raise
            log.warning(
                "answered 503 to a request cut off by the stop", extra={"path": scope["path"]}
            )
            await _send_error(scope, receive, send, ServerStopping())
            # The answer is complete: this request's task ends here, as the cancel asked.
