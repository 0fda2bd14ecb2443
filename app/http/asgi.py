"""The base of the server's own ASGI middlewares (each sees HTTP requests only; the lifespan
passes straight through), and HEAD wherever GET is (uptime monitors, link checkers,
``curl -I``) without declaring HEAD on each route, which would double every operation in
the OpenAPI schema."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HttpMiddleware(ABC):
    """Wraps ``app``; :meth:`handle` answers the HTTP requests that :meth:`applies` to."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.applies(scope):
            await self.handle(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def applies(self, scope: Scope) -> bool:
        """Whether this HTTP request is this middleware's (every one, unless overridden)."""
        return True

    @abstractmethod
    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer the request (usually through ``self.app``); each middleware's own."""


class WatchedSend:
    """``send`` that notes the answer's status when it starts, after ``edit`` (if given)
    changed its headers; ``status`` is None until then."""

    def __init__(self, send: Send, edit: Callable[[MutableHeaders], None] | None = None):
        self.send = send
        self.edit = edit
        self.status: int | None = None

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            if self.edit is not None:
                self.edit(MutableHeaders(scope=message))
            self.status = message["status"]
        await self.send(message)


class HeadAsGetMiddleware(HttpMiddleware):
    """Hands a HEAD request on as the GET it stands for, and sends that answer's status and
    headers without the body (RFC 9110, 9.3.2). The layers outside it still see the HEAD."""

    def applies(self, scope: Scope) -> bool:
        return bool(scope["method"] == "HEAD")

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        answered = False

        async def headers_only(message: Message) -> None:
            # The first part of the body ends the answer: a stream (the live updates)
            # would otherwise hold the connection for as long as it runs.
            nonlocal answered
            if message["type"] == "http.response.body":
                if answered:
                    return
                answered = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
