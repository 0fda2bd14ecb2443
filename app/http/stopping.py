"""What a request hears when the server stops under it: uvicorn cancels what is left after
a stop's graceful window, and would answer its generic 500; the outermost layer answers 503
"the server is restarting" instead, so a client knows to send it again (a race's state is
what its last answered move left, see :mod:`app.storage.saved`)."""

from __future__ import annotations

import asyncio
import logging

from starlette.requests import Request
from starlette.types import Message, Receive, Scope, Send

from app.http.asgi import HttpMiddleware
from app.http.errors import ServerStopping, render_error

log = logging.getLogger("zzv.app")


class CancelledAs503Middleware(HttpMiddleware):
    """Answers 503 to a request cancelled before its answer started."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watching_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watching_send)
        except asyncio.CancelledError:
            if started:
                raise
            log.warning(
                "answered 503 to a request cut off by the stop", extra={"path": scope["path"]}
            )
            response = render_error(Request(scope, receive), ServerStopping())
            await response(scope, receive, send)
            # The answer is complete: this request's task ends here, as the cancel asked.
