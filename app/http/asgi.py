"""The base of the server's own ASGI middlewares: each sees HTTP requests only; anything
else (the lifespan) passes straight through to the app it wraps."""

from __future__ import annotations

from abc import ABC, abstractmethod

from starlette.types import ASGIApp, Receive, Scope, Send


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
