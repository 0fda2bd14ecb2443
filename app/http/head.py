"""HEAD wherever GET is: uptime monitors, link checkers and ``curl -I`` ask with HEAD.

FastAPI's routes answer only the methods they declare, and declaring HEAD on each GET
route would double every operation in the OpenAPI schema. :class:`HeadAsGetMiddleware`,
just outside the routes, hands a HEAD request on as the GET it stands for and sends its
answer's status and headers without the body (RFC 9110, section 9.3.2), ending the answer
there even for an event stream. The layers outside it (the access log among them) still
see the HEAD.
"""

from __future__ import annotations

from starlette.types import Message, Receive, Scope, Send

from app.http.asgi import HttpMiddleware


class HeadAsGetMiddleware(HttpMiddleware):
    """Answers HEAD as GET, without the body."""

    def applies(self, scope: Scope) -> bool:
        """HEAD requests only."""
        return bool(scope["method"] == "HEAD")

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The GET's answer, without its body."""
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
