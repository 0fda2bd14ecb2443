"""Compressed answers: Starlette's gzip middleware with a faster deflate behind it.

Every text answer is gzipped, and a table's answer is large (a 4-player fragment mid-race
is about 31 KB of HTML), so deflate is a real part of a move's CPU. ISA-L's deflate (the
``isal`` package, Intel's storage acceleration library) writes the same gzip format any
browser reads, several times faster than zlib at a size close to zlib's level 3
(``docs/benchmarks.md``). Where ``isal`` cannot be imported, zlib does the work as before.
"""

from __future__ import annotations

import zlib
from typing import Any

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware, GZipResponder, IdentityResponder
from starlette.types import ASGIApp, Receive, Scope, Send

try:
    from isal import isal_zlib as _isal
except ImportError:  # pragma: no cover - isal ships wheels for the platforms we run on
    _isal = None  # type: ignore[assignment]

ISAL_LEVEL = 1
"""ISA-L's level (0 to 3) when it is there: 1 is its fast deflate with Huffman tables made
for the data, within a few percent of zlib's level 3 on the table's HTML."""

GZIP_WBITS = 16 + zlib.MAX_WBITS
"""A gzip header and trailer around the deflate stream (what ``Content-Encoding: gzip``
means)."""


def gzip_compressor(zlib_level: int) -> Any:
    """A fresh compressor object for one answer (``compress``/``flush`` as zlib's): ISA-L's
    when it is installed, else zlib's at ``zlib_level``."""
    if _isal is not None:
        return _isal.compressobj(ISAL_LEVEL, _isal.DEFLATED, GZIP_WBITS)
    return zlib.compressobj(zlib_level, zlib.DEFLATED, GZIP_WBITS)


class _Responder(GZipResponder):
    """Starlette's gzip responder (what it compresses, its headers, its thread for very
    large bodies) with :func:`gzip_compressor` doing the deflate."""

    @property
    def compressor(self) -> Any:
        if self._compressor is None:
            self._compressor = gzip_compressor(self.compresslevel)
        return self._compressor


class GzipAnswers(GZipMiddleware):
    """:class:`starlette.middleware.gzip.GZipMiddleware`, deflating with ISA-L when it can.

    ``compresslevel`` is zlib's, used only without ``isal``."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # pragma: no cover - the app serves HTTP only
            await self.app(scope, receive, send)
            return
        responder: ASGIApp
        if "gzip" in Headers(scope=scope).get("Accept-Encoding", ""):
            responder = _Responder(
                self.app,
                self.minimum_size,
                compresslevel=self.compresslevel,
                thread_minimum_size=self.thread_minimum_size,
                exclude_content_types=self.exclude_content_types,
            )
        else:
            responder = IdentityResponder(
                self.app, self.minimum_size, exclude_content_types=self.exclude_content_types
            )
        await responder(scope, receive, send)
