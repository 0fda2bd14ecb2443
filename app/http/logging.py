"""The server log as JSON lines on stderr: the app's ``zzv`` loggers, uvicorn's own
(through :data:`LOG_CONFIG`) and the access log, which never records headers, cookies or
the query string, so a token can never end up in a log line."""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from app.http.asgi import HttpMiddleware, WatchedSend
from app.settings import Settings

access_log = logging.getLogger("zzv.access")

# Uvicorn's dictConfig (``--log-config``), which also catches other libraries' warnings.
LOG_CONFIG = Path(__file__).with_name("log_config.json")

# uvicorn adds ``color_message``, the same text with terminal colours, to some records.
_RESERVED = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON line: time, level, logger, message and any extras."""

    def format(self, record: logging.LogRecord) -> str:
        # Fields passed with ``extra=`` become keys.
        line: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line |= {k: v for k, v in record.__dict__.items() if k not in _RESERVED and k[:1] != "_"}
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at emit time (test runners swap it)."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


def configure_logging(settings: Settings) -> None:
    """Send the ``zzv`` loggers to stderr as JSON lines at the configured level."""
    logger = logging.getLogger("zzv")
    logger.setLevel(settings.log_level.upper())
    if not any(isinstance(h, StderrHandler) for h in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
    logger.propagate = False
    # Uvicorn's access lines include the query string; ours never do.
    logging.getLogger("uvicorn.access").disabled = True


class AccessLogMiddleware(HttpMiddleware):
    """Logs each HTTP request's method, path, status, duration and client address, when
    ``settings.access_log`` is on."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        super().__init__(app)
        self.enabled = settings.access_log

    def applies(self, scope: Scope) -> bool:
        return self.enabled

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        watched = WatchedSend(send)
        try:
            await self.app(scope, receive, watched)
        finally:
            client = scope.get("client")
            access_log.info(
                "request",
                extra={
                    "method": scope["method"],
                    "path": scope["path"],
                    "status": watched.status or 500,
                    "ms": round((time.perf_counter() - started) * 1000, 2),
                    "client": client[0] if client else None,
                },
            )
