"""The HTTP protocol the server runs: uvicorn's, plus a request-header timeout.

Uvicorn closes idle keep-alive connections (``--timeout-keep-alive``) but has no limit on
how long a client may take to send a request's line and headers: a client that opens a
connection and sends nothing, or half a request line, holds a socket forever, and about a
thousand of them exhaust the file descriptors. :class:`HeaderTimeoutProtocol` closes any
connection that has not completed a request's headers within
``ZZV_HEADER_TIMEOUT_SECONDS`` of its first byte (or of opening). It is a protocol-level
guard because an ASGI app only sees a request once its headers are complete.

Selected with ``uvicorn --http app.http.protocol:HeaderTimeoutProtocol`` (``zzv serve`` and the
Docker image do so).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.settings import get_settings

log = logging.getLogger("zzv.app")

IMPORT_PATH = "app.http.protocol:HeaderTimeoutProtocol"
"""What to pass to uvicorn's ``--http``."""


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """Uvicorn's httptools protocol that drops connections slow to send their headers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """As uvicorn's; the timeout comes from the settings."""
        super().__init__(*args, **kwargs)
        self.header_timeout = get_settings().header_timeout_seconds
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the clock as soon as the connection opens."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Start the clock on the first byte of each further request of the connection."""
        between_requests = self.cycle is None or self.cycle.response_complete
        if self._header_timer is None and between_requests:
            self._arm()
        super().data_received(data)

    def on_headers_complete(self) -> None:
        """The request's headers arrived in time: stop the clock."""
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """Nothing left to time."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _expired(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            log.info("closed a connection that sent no complete request headers in time")
            self.transport.close()
