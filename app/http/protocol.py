"""uvicorn's HTTP protocol with the header time, header bytes and body time of each request
bounded (docs/limits.md), here because an ASGI app sees a request only once its headers are
complete. ``zzv serve`` and the Docker image select it (``uvicorn --http`` :data:`IMPORT_PATH`)."""

from __future__ import annotations

import asyncio
import json
import logging
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.settings import get_settings

log = logging.getLogger("zzv.app")

IMPORT_PATH = "app.http.protocol:HeaderTimeoutProtocol"

# A refused connection stays open this long, dropping what the client still sends, so the
# client gets to read the refusal instead of a reset.
REFUSED_LINGER_SECONDS = 1.0

_END_OF_HEADERS = b"\r\n\r\n"


def error_response(status: int, code: str, message: str) -> bytes:
    """A complete ``Connection: close`` HTTP/1.1 answer with the app's JSON error body."""
    body = json.dumps({"code": code, "message": message}).encode()
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """Uvicorn's httptools protocol with bounded header time, header bytes and body time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self.header_timeout = settings.header_timeout_seconds
        self.max_header_bytes = settings.max_header_bytes
        self.body_timeout = settings.body_timeout_seconds
        self._timers: dict[str, asyncio.TimerHandle] = {}  # "header", "body": while they run
        self._in_headers = True
        self._header_bytes = 0
        self._tail = b""
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        # The header clock also starts on the first byte of each further request.
        if self._refused:
            return  # read and dropped: a refused connection only lingers to be read
        between_requests = self.cycle is None or self.cycle.response_complete
        if "header" not in self._timers and between_requests:
            self._arm()
        if self._in_headers:
            # Only the bytes up to the blank line are headers; a body in the same chunk
            # is not counted against the cap.
            end = (self._tail + data).find(_END_OF_HEADERS)
            self._header_bytes += len(data) if end < 0 else max(0, end + 4 - len(self._tail))
            if self._header_bytes > (limit := self.max_header_bytes):
                log.info("refused a request with too large headers", extra={"limit": limit})
                self._refuse(
                    431,
                    "headers_too_large",
                    f"The request's headers are larger than {limit // 1024} KiB; send fewer or "
                    "smaller headers and cookies.",
                )
                return
            self._tail = data[-3:]
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._disarm("header")
        self._in_headers = False
        self._header_bytes = 0
        self._tail = b""
        super().on_headers_complete()
        self._timers["body"] = self.loop.call_later(self.body_timeout, self._body_expired)

    def on_message_complete(self) -> None:
        self._disarm("body")
        self._in_headers = True
        super().on_message_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm("header", "body")
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm("header")
        self._timers["header"] = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self, *timers: str) -> None:
        for name in timers:
            if (timer := self._timers.pop(name, None)) is not None:
                timer.cancel()

    def _expired(self) -> None:
        if not self.transport.is_closing() and not self._refused:
            log.info("closed a connection that sent no complete request headers in time")
            self.transport.close()

    def _refuse(self, status: int, code: str, message: str) -> None:
        self._refused = True
        self._disarm("header", "body")
        if self.cycle is not None and not self.cycle.response_complete:
            # The app's later sends go nowhere, and its receive() hears a disconnect.
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        self.transport.write(error_response(status, code, message))
        self.flow.resume_reading()  # keep draining what the client still sends
        self.loop.call_later(REFUSED_LINGER_SECONDS, self.transport.close)

    def _body_expired(self) -> None:
        if self.transport.is_closing() or self._refused:
            return
        if self.cycle is not None and self.cycle.response_started:
            log.info("closed a connection whose request body did not arrive in time")
            self._refused = True
            self.transport.close()
            return
        log.info("refused a request whose body did not arrive in time")
        seconds = f"{self.body_timeout:g}"
        self._refuse(
            408,
            "body_timeout",
            f"The request's body did not arrive within {seconds} seconds; send it again.",
        )
