"""Structured (one JSON object per line) logging and the access log.

One format for the whole server log: the app's ``zzv`` loggers (:func:`configure_logging`)
and uvicorn's own lines (start-up, "Uvicorn running on ...", shutdown, errors) all go
through :class:`JsonFormatter` to stderr. Uvicorn is configured by :data:`LOG_CONFIG`, a
``logging.config.dictConfig`` file that ``zzv serve`` and the tests' and benchmarks'
``uvicorn --log-config`` command both hand it; it also catches other libraries' warnings
on the root logger.

The access log records method, path, status, duration and client address — never headers,
cookies or the query string, so a token can never end up in a log line. Uvicorn's own
access log (which prints query strings) is switched off in favour of this one.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import Settings

access_log = logging.getLogger("zzv.access")

LOG_CONFIG = Path(__file__).with_name("log_config.json")
"""Uvicorn's logging configuration (``uvicorn.run(log_config=...)``, ``--log-config``)."""

# uvicorn adds ``color_message``, the same text with terminal colours, to some records.
_RESERVED = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON line: time, level, logger, message and any extras."""

    def format(self, record: logging.LogRecord) -> str:
        """Render ``record``; extra fields passed with ``extra=`` become JSON keys."""
        line: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _RESERVED and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at emit time (test runners swap it)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

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
    if not any(getattr(h, "_zzv", False) for h in logger.handlers):
        handler = StderrHandler()
        handler.setFormatter(JsonFormatter())
        handler._zzv = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.propagate = False
    # Uvicorn's access lines include the query string; ours never do.
    logging.getLogger("uvicorn.access").disabled = True


class AccessLogMiddleware:
    """Logs one structured line per HTTP request (no headers, cookies or query strings)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        """Wrap ``app``; does nothing extra when ``settings.access_log`` is off."""
        self.app = app
        self.enabled = settings.access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """ASGI entry point."""
        if scope["type"] != "http" or not self.enabled:
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, recording_send)
        finally:
            client = scope.get("client")
            access_log.info(
                "request",
                extra={
                    "method": scope["method"],
                    "path": scope["path"],
                    "status": status,
                    "ms": round((time.perf_counter() - started) * 1000, 2),
                    "client": client[0] if client else None,
                },
            )
